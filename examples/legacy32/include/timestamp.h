/* A time_t record: 32 bits on armhf until -D_TIME_BITS=64 (Y2038), like off_t and -D_FILE_OFFSET_BITS=64. */
#ifndef LEGACY32_TIMESTAMP_H
#define LEGACY32_TIMESTAMP_H

#include <sys/types.h>
#include <sys/time.h>
#include <time.h>

struct log_record {
    time_t         when;
    struct timeval tv;
    off_t          file_pos;
    int            level;
};

#endif
