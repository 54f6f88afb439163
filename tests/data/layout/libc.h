/* Layout truth corpus: records embedding libc and kernel types, resolved through each target's own headers. */
#include <sys/types.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <signal.h>
#include <time.h>
#if defined(__linux__)
#include <sys/epoll.h>
#include <linux/input.h>
#endif

struct file_snapshot { char tag; struct stat st; off_t pos; };
struct timed_event { struct timeval tv; time_t when; int code; };
struct ts_pair { struct timespec start, end; char done; };
#if defined(__linux__)
struct poll_slot { int fd; struct epoll_event ev; char mark; };
struct sig_slot { int signo; struct sigaction act; };
struct input_log { struct input_event ev; unsigned char seq; };
#endif
