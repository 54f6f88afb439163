/* Reading an audio config file: the fields are long (and one int), parsed with
 * the directives the 32-bit build got away with. The struct starts out all
 * ones, the way the loader marks "unset". */
#include <stdio.h>
#include <string.h>

struct audio_cfg {
    long sample_rate;
    int channels;
    int flags;
    unsigned long buffer_frames;
    short volume;
};

static void parse_line(struct audio_cfg *c, const char *key, const char *val)
{
    if (strcmp(key, "rate") == 0)
        sscanf(val, "%d", &c->sample_rate); /* want: PK202 */
    else if (strcmp(key, "channels") == 0)
        sscanf(val, "%ld", &c->channels); /* want: PK202 */
    else if (strcmp(key, "frames") == 0)
        sscanf(val, "%u", &c->buffer_frames); /* want: PK202 */
    else if (strcmp(key, "flags") == 0)
        sscanf(val, "%i", &c->flags); /* ok: PK202 */
    else if (strcmp(key, "volume") == 0)
        sscanf(val, "%hd", &c->volume); /* ok: PK202 */
}

int main(void)
{
    struct audio_cfg c;

    memset(&c, 0xff, sizeof c);
    parse_line(&c, "flags", "3");
    parse_line(&c, "rate", "48000");
    parse_line(&c, "channels", "2");
    parse_line(&c, "frames", "1024");
    parse_line(&c, "volume", "-6");
    printf("rate %ld, channels %d, flags %d\n", c.sample_rate, c.channels, c.flags);
    printf("frames %lu, volume %d\n", c.buffer_frames, c.volume);
    return 0;
}
