/* legacy32: the field report's pitfalls as they sit in a 32-bit head unit's
 * code, the demo input for `portkit scan`. Each `want` comment names what the
 * scan must report on that line (long_records.h's union is reported there). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "../include/ipc.h"
#include "../include/long_records.h"
#include "../include/timestamp.h"
#include "../include/wire.h"

#define N 16

static int a[N];

/* Size of Pointer: the handle given to clients is the table's address in an int. */
int legacy_table_handle(void)
{
    int addr;

    addr = (int) a; /* want: PK101 */
    return addr;
}

int *legacy_table_from_handle(int addr)
{
    int *p;

    p = (int*) addr; /* want: PK102 */
    return p;
}

/* "Can't get the correct display": the pointer difference, and a long, with %d. */
void legacy_print_span(void *p, void *q)
{
    printf ("num = %d\n", q-p); /* want: PK201 */
}

void legacy_print_bar(const struct bar *b)
{
    printf("bar: i %d, j %d, k %d\n", b->i, b->j, b->k); /* want: PK201 */
}

/* Magic numbers: 4 bytes per pointer, 32 bits per long, 32-bit masks and all ones. */
struct ipc_msg **legacy_alloc_queue(size_t slots)
{
    return malloc(slots * 4); /* want: PK401 */
}

unsigned long legacy_rotl(unsigned long x, unsigned int n)
{
    return (x << n) | (x >> (32 - n)); /* want: PK402 */
}

long legacy_positive(long v)
{
    return v & 0x7FFFFFFF; /* want: PK403 */
}

int legacy_is_negative(long v)
{
    return (v & 0x80000000) != 0; /* want: PK403 */
}

int legacy_len_invalid(unsigned long len)
{
    return len == 0xFFFFFFFF; /* want: PK403 */
}

/* time_t received as int: the Y2038 problem stays after the port. */
int legacy_now(void)
{
    return time(NULL); /* want: PK302 */
}

int legacy_record_second(const struct log_record *r)
{
    int sec = r->tv.tv_sec; /* want: PK302 */

    return sec;
}

/* A struct timeval written to a file, and records whose layout is the file format. */
int legacy_log_time(FILE *f)
{
    struct timeval tv;

    gettimeofday(&tv, NULL);
    return fwrite(&tv, sizeof tv, 1, f) == 1; /* want: PK501 */
}

int legacy_log_record(FILE *f, const struct log_record *r)
{
    return fwrite(r, sizeof(struct log_record), 1, f) == 1; /* want: PK501 */
}

int legacy_send_ipc(int fd, const struct ipc_msg *m)
{
    return write(fd, m, sizeof *m) == (ssize_t)sizeof *m; /* want: PK501 */
}

int legacy_send_header(int sock, const struct wire_header *h)
{
    return send(sock, h, sizeof *h, 0) > 0; /* want: PK501 */
}

/* long_union_t: a double put together from two 32-bit halves through long. */
double legacy_make_double(long hi, long lo)
{
    long_union_t u;

    u.l[0] = lo;
    u.l[1] = hi;
    return u.d;
}
