/* A wire-format record written in the ILP32 era: long and pointers sent as is. */
#ifndef LEGACY32_WIRE_H
#define LEGACY32_WIRE_H

#include <stdint.h>

struct wire_header {
    uint16_t magic;
    uint16_t version;
    long     sequence;      /* 4 bytes on ILP32 only */
    unsigned long length;
    void    *cookie;        /* a pointer on the wire */
    uint8_t  flags;
    uint64_t timestamp_us;  /* 4-byte aligned on i686, 8 elsewhere */
};

struct wire_frame {
    struct wire_header hdr;
    unsigned int       kind : 4;
    unsigned int       prio : 3;
    unsigned int       : 0;
    unsigned int       crc  : 16;
    char               payload[];
};

#endif
