/* A buffer registry from a 2009 media framework: the handle given to clients
 * is the buffer's address squeezed into an int, and lookup turns it back. */
#include <stdio.h>

typedef int buf_handle_t;

static buf_handle_t buffer_register(char *buf)
{
    return (buf_handle_t)buf; /* want: PK101 */
}

static char *buffer_lookup(buf_handle_t h)
{
    return (char *)h; /* want: PK102 */
}

int main(void)
{
    char frame[64];
    buf_handle_t h = buffer_register(frame);
    char *back = buffer_lookup(h);

    printf("handle is valid: %d\n", h != 0);
    printf("lookup finds the frame: %d\n", back == frame);
    return 0;
}
