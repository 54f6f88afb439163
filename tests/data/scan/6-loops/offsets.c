/* Offsets into storage computed in int before they reach a type that is 64
 * bits on LP64. Where the target type was 64 bits on ILP32 already, the
 * overflow is the same bug on both sides, not a porting one; so it is where
 * the destination is signed (long, off_t): an int product that overflowed is
 * the same negative number in a 32-bit long and in a 64-bit one. Only an
 * unsigned destination (size_t) turns it into another value on LP64. */
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define BLOCK_SIZE 4096
#define SECTOR 512

off_t block_offset(int block)
{
    return block * BLOCK_SIZE; /* ok: PK602 */
}

long sector_bytes(int sectors)
{
    long bytes = sectors * SECTOR; /* ok: PK602 */

    return bytes;
}

size_t table_size(int rows, int cols)
{
    size_t n = rows * cols; /* want: PK602 */

    return n;
}

off_t block_offset_fixed(int block)
{
    return (off_t)block * BLOCK_SIZE; /* ok: PK602 */
}

size_t table_size_fixed(int rows, int cols)
{
    return (size_t)rows * cols; /* ok: PK602 */
}

uint64_t ns_from_s(int sec)
{
    uint64_t ns = sec * 1000000000; /* ok: PK602 */

    return ns;
}

long long total_bytes(int count, int len)
{
    return count * len; /* ok: PK602 */
}
