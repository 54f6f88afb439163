/* An event queue that carries a context pointer in a 32-bit cookie, without a
 * single cast: pre-C99 code did this and GCC only warns. Assignment,
 * initialisation, argument and return all narrow the pointer. */
#include <stdio.h>
#include <stdint.h>

struct event {
    unsigned int cookie;
    unsigned short type;
};

static unsigned int last_cookie;

static void remember(unsigned int cookie)
{
    last_cookie = cookie;
}

static unsigned int cookie_of(void *ctx)
{
    return ctx; /* want: PK101 */
}

int main(void)
{
    int ctx_storage[4];
    void *ctx = ctx_storage;
    unsigned int first = ctx; /* want: PK101 */
    struct event ev;

    ev.cookie = ctx; /* want: PK101 */
    ev.type = 1;
    remember(ctx); /* want: PK101 */
    printf("all cookies agree: %d\n", first == ev.cookie && ev.cookie == last_cookie && last_cookie == cookie_of(ctx));
    printf("cookie is the context: %d\n", (uintptr_t)ev.cookie == (uintptr_t)ctx);
    return 0;
}
