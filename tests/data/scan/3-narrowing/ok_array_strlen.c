/* An FTP client from a 32-bit router: each command is formatted into a
 * 200-byte buffer and its strlen is kept in an int. The length of a string
 * in a 200-byte array is at most 199 on every data model. */
#include <stdio.h>
#include <string.h>

struct session {
    char user[64];
};

static int send_user(const struct session *s)
{
    char buf[200];
    int len;

    snprintf(buf, sizeof(buf), "USER %s\r\n", s->user);
    buf[sizeof(buf) - 1] = 0;
    len = strlen(buf); /* ok: PK301 */
    return len;
}

static int user_length(const struct session *s)
{
    return strlen(s->user); /* ok: PK301 */
}

int main(void)
{
    struct session s = {"anonymous"};

    printf("USER command: %d bytes, user %d\n", send_user(&s), user_length(&s));
    return 0;
}
