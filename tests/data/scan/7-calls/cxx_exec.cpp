// Starting helper programs from a C++ service: a plain 0 ends execl's list in
// the old code; nullptr, or a cast null pointer, in the fixed one.
#include <unistd.h>

int restart_audio()
{
    return execl("/usr/sbin/audiod", "audiod", "--restart", 0); // want: PK703
}

int restart_audio_fixed()
{
    return execl("/usr/sbin/audiod", "audiod", "--restart", nullptr); // ok: PK703
}

int restart_nav_fixed()
{
    return execl("/usr/sbin/navd", "navd", static_cast<char *>(nullptr)); // ok: PK703
}
