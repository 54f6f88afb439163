/* Length bookkeeping from a 32-bit media gateway that already guards every
 * narrowing: a length is clamped to INT_MAX (with ?: or an if), or the
 * function gives up when it does not fit, before it goes into an int.
 * "Unlimited" is SIZE_MAX / 2: 2^31-1 at home, far more on LP64; clamped, it
 * is INT_MAX on both. */
#include <limits.h>
#include <stddef.h>
#include <stdio.h>

struct stream_stats {
    size_t buffered, queued;
    int buffered_int, queued_int;
};

#define MIN(a, b) ((a) < (b) ? (a) : (b))

static void publish(struct stream_stats *st)
{
    if (st->buffered < INT_MAX)
        st->buffered_int = st->buffered; /* ok: PK301 */
    else
        st->buffered_int = INT_MAX;
    st->queued_int = st->queued > INT_MAX ? INT_MAX : st->queued; /* ok: PK301 */
}

static int frames_left(size_t frames)
{
    if (frames > INT_MAX)
        return -1;
    return frames; /* ok: PK301 */
}

static int window(size_t want)
{
    if (want > 65536)
        want = 65536;
    return want; /* ok: PK301 */
}

static int chunk(size_t left)
{
    return MIN(left, 4096); /* ok: PK301 */
}

int main(void)
{
    size_t unlimited = (size_t)-1 / 2;
    struct stream_stats st = {unlimited, 4096, 0, 0};

    publish(&st);
    printf("buffered %d, queued %d\n", st.buffered_int, st.queued_int);
    printf("frames %d, window %d, chunk %d\n", frames_left(1000), window(unlimited), chunk(unlimited));
    return 0;
}
