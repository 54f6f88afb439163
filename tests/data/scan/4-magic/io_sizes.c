/* A data logger's state save from a 32-bit board: the write offset is a
 * long and the read cursor a pointer, saved to a file, a frame and a pipe
 * with 4 as their size. On LP64 only their lower halves travel. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int main(void)
{
    long offset = -2, restored = 0, from_frame = 0;
    int32_t seq = -2, seq_back = 0;
    char *cursor = (char *)&offset, *cursor_back = NULL;
    unsigned char frame[8];
    int fds[2];
    FILE *f = tmpfile();

    if (f == NULL || pipe(fds) != 0)
        return 1;
    fwrite(&offset, 4, 1, f); /* want: PK401 */
    fwrite(&seq, 4, 1, f); /* ok: PK401 */
    rewind(f);
    if (fread(&restored, 4, 1, f) != 1) /* want: PK401 */
        return 1;
    if (fread(&seq_back, sizeof seq_back, 1, f) != 1) /* ok: PK401 */
        return 1;
    printf("offset restored: %ld, sequence %d\n", restored, (int)seq_back);

    memcpy(frame, &offset, 4); /* want: PK401 */
    memcpy(&from_frame, frame, 4); /* want: PK401 */
    printf("offset from the frame: %ld\n", from_frame);

    if (write(fds[1], &cursor, 4) != 4) /* want: PK401 */
        return 1;
    if (read(fds[0], &cursor_back, 4) != 4) /* want: PK401 */
        return 1;
    printf("cursor survives the pipe: %d\n", cursor_back == cursor);
    return 0;
}
