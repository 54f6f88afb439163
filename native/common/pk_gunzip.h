/* gzip decompression (RFC 1952 around RFC 1951 deflate), libc only, for
 * /proc/config.gz: the kernel's own configuration tells the preemption model
 * and HZ, and a board has no zlib to spare. Bounded: every loop ends with
 * the input or the output limit, and corrupt input is an error, never a read
 * outside the buffer. */
#ifndef PK_GUNZIP_H
#define PK_GUNZIP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Decompresses the gzip member in[0..in_len) into a malloc'd buffer of at
 * most max_out bytes, NUL-terminated (not counted in *out_len), and checks
 * its CRC-32 and length. False, with *why set to a static reason, on
 * anything else (*out is then NULL). */
bool pk_gunzip(const uint8_t *in, size_t in_len, size_t max_out, char **out, size_t *out_len, const char **why);

#endif
