/* Inflate after RFC 1951, written for reading a kernel config: clarity over
 * speed (codes are decoded a bit at a time, canonically, from the counts of
 * each length), which is ample for a few hundred kilobytes. */
#include "pk_gunzip.h"

#include <stdlib.h>
#include <string.h>

#define MAX_CODE_BITS 15
#define MAX_LITLEN_CODES 288
#define MAX_DIST_CODES 30

typedef struct bit_reader {
    const uint8_t *in;
    size_t len, pos;
    uint32_t buf;   /* bits not yet used, least significant first */
    unsigned count; /* how many; below 8 between calls */
    bool short_input;
} bit_reader;

typedef struct out_buffer {
    uint8_t *data;
    size_t len, cap, max;
} out_buffer;

/* A canonical Huffman code: how many codes of each length, and the symbols
 * in code order. */
typedef struct huffman {
    uint16_t count[MAX_CODE_BITS + 1];
    uint16_t symbol[MAX_LITLEN_CODES];
} huffman;

static unsigned take_bits(bit_reader *b, unsigned n)
{
    while (b->count < n) {
        if (b->pos >= b->len) {
            b->short_input = true;
            return 0;
        }
        b->buf |= (uint32_t)b->in[b->pos++] << b->count;
        b->count += 8;
    }
    unsigned v = b->buf & ((1u << n) - 1);
    b->buf >>= n;
    b->count -= n;
    return v;
}

static bool put_byte(out_buffer *o, uint8_t byte)
{
    if (o->len + 1 >= o->cap) { /* + 1: room for the final NUL */
        if (o->cap >= o->max)
            return false;
        size_t cap = o->cap ? o->cap * 2 : 65536;
        if (cap > o->max)
            cap = o->max;
        uint8_t *grown = realloc(o->data, cap);
        if (!grown)
            return false;
        o->data = grown;
        o->cap = cap;
    }
    o->data[o->len++] = byte;
    return true;
}

/* False when the lengths over-subscribe the code space (not a prefix code). */
static bool build_huffman(huffman *h, const uint8_t *lengths, unsigned n)
{
    memset(h->count, 0, sizeof h->count);
    for (unsigned i = 0; i < n; i++)
        h->count[lengths[i]]++;
    h->count[0] = 0;
    int room = 1;
    for (unsigned len = 1; len <= MAX_CODE_BITS; len++) {
        room = room * 2 - h->count[len];
        if (room < 0)
            return false;
    }
    uint16_t next[MAX_CODE_BITS + 2] = {0};
    for (unsigned len = 1; len <= MAX_CODE_BITS; len++)
        next[len + 1] = (uint16_t)(next[len] + h->count[len]);
    for (unsigned i = 0; i < n; i++)
        if (lengths[i])
            h->symbol[next[lengths[i]]++] = (uint16_t)i;
    return true;
}

/* The next symbol, or -1 for a code the table does not have or short input.
 * Codes of one length are consecutive numbers, the shorter lengths' codes
 * first: compare the bits read so far with the first code of each length. */
static int decode_symbol(bit_reader *b, const huffman *h)
{
    int code = 0, first = 0, index = 0;
    for (unsigned len = 1; len <= MAX_CODE_BITS; len++) {
        code |= (int)take_bits(b, 1);
        if (b->short_input)
            return -1;
        int count = h->count[len];
        if (code - first < count)
            return h->symbol[index + code - first];
        index += count;
        first = (first + count) << 1;
        code <<= 1;
    }
    return -1;
}

static const uint16_t length_base[29] = {3,  4,  5,  6,  7,  8,  9,  10, 11,  13,  15,  17,  19,  23, 27,
                                         31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258};
static const uint8_t length_extra[29] = {0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2,
                                         2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0};
static const uint16_t dist_base[30] = {1,    2,    3,    4,    5,    7,     9,     13,    17,  25,
                                       33,   49,   65,   97,   129,  193,   257,   385,   513, 769,
                                       1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577};
static const uint8_t dist_extra[30] = {0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6,
                                       6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13};

/* One block's symbols up to its end code. */
static const char *inflate_codes(bit_reader *b, out_buffer *o, const huffman *litlen, const huffman *dist)
{
    for (;;) {
        int sym = decode_symbol(b, litlen);
        if (sym < 0)
            return "invalid literal/length code";
        if (sym < 256) {
            if (!put_byte(o, (uint8_t)sym))
                return "larger than the limit";
            continue;
        }
        if (sym == 256)
            return NULL;
        if (sym > 285)
            return "invalid length symbol";
        size_t len = length_base[sym - 257] + take_bits(b, length_extra[sym - 257]);
        int dsym = decode_symbol(b, dist);
        if (dsym < 0 || dsym >= MAX_DIST_CODES)
            return "invalid distance code";
        size_t distance = dist_base[dsym] + take_bits(b, dist_extra[dsym]);
        if (b->short_input)
            return "truncated";
        if (distance > o->len)
            return "distance before the start";
        for (size_t i = 0; i < len; i++)
            if (!put_byte(o, o->data[o->len - distance]))
                return "larger than the limit";
    }
}

static const char *inflate_stored(bit_reader *b, out_buffer *o)
{
    b->buf = 0; /* to the byte boundary: fewer than 8 bits are buffered */
    b->count = 0;
    if (b->len - b->pos < 4)
        return "truncated";
    const uint8_t *p = b->in + b->pos;
    unsigned len = p[0] | p[1] << 8, nlen = p[2] | p[3] << 8;
    if (len != (~nlen & 0xffffu))
        return "stored block length check failed";
    b->pos += 4;
    if (b->len - b->pos < len)
        return "truncated";
    for (unsigned i = 0; i < len; i++)
        if (!put_byte(o, b->in[b->pos++]))
            return "larger than the limit";
    return NULL;
}

static const char *inflate_fixed(bit_reader *b, out_buffer *o)
{
    static huffman litlen, dist;
    static bool built;
    if (!built) { /* RFC 1951 3.2.6 */
        uint8_t lengths[MAX_LITLEN_CODES];
        for (unsigned i = 0; i < MAX_LITLEN_CODES; i++)
            lengths[i] = i < 144 ? 8 : i < 256 ? 9 : i < 280 ? 7 : 8;
        build_huffman(&litlen, lengths, MAX_LITLEN_CODES);
        memset(lengths, 5, MAX_DIST_CODES);
        build_huffman(&dist, lengths, MAX_DIST_CODES);
        built = true;
    }
    return inflate_codes(b, o, &litlen, &dist);
}

static const char *inflate_dynamic(bit_reader *b, out_buffer *o)
{
    static const uint8_t order[19] = {16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15};
    unsigned nlit = take_bits(b, 5) + 257, ndist = take_bits(b, 5) + 1, ncode = take_bits(b, 4) + 4;
    if (nlit > 286 || ndist > MAX_DIST_CODES)
        return "too many codes";
    uint8_t lengths[MAX_LITLEN_CODES + MAX_DIST_CODES] = {0};
    for (unsigned i = 0; i < ncode; i++)
        lengths[order[i]] = (uint8_t)take_bits(b, 3);
    huffman lencode, litlen, dist;
    if (b->short_input || !build_huffman(&lencode, lengths, 19))
        return "invalid code lengths code";
    memset(lengths, 0, 19);
    for (unsigned i = 0; i < nlit + ndist;) {
        int sym = decode_symbol(b, &lencode);
        if (sym < 0)
            return "invalid code length";
        if (sym < 16) {
            lengths[i++] = (uint8_t)sym;
            continue;
        }
        uint8_t value = 0;
        unsigned repeat;
        if (sym == 16) {
            if (i == 0)
                return "repeat with no previous length";
            value = lengths[i - 1];
            repeat = 3 + take_bits(b, 2);
        } else if (sym == 17) {
            repeat = 3 + take_bits(b, 3);
        } else {
            repeat = 11 + take_bits(b, 7);
        }
        if (b->short_input || i + repeat > nlit + ndist)
            return "code lengths run past the end";
        while (repeat--)
            lengths[i++] = value;
    }
    if (lengths[256] == 0)
        return "no end-of-block code";
    if (!build_huffman(&litlen, lengths, nlit) || !build_huffman(&dist, lengths + nlit, ndist))
        return "over-subscribed code";
    return inflate_codes(b, o, &litlen, &dist);
}

static uint32_t crc32_ieee(const uint8_t *p, size_t n)
{
    uint32_t crc = 0xffffffffu;
    for (size_t i = 0; i < n; i++) {
        crc ^= p[i];
        for (int k = 0; k < 8; k++)
            crc = (crc >> 1) ^ (0xedb88320u & (0u - (crc & 1)));
    }
    return ~crc;
}

/* Where the deflate data starts after the RFC 1952 header, or 0. */
static size_t skip_gzip_header(const uint8_t *in, size_t len)
{
    enum { FHCRC = 2, FEXTRA = 4, FNAME = 8, FCOMMENT = 16 };
    if (len < 18 || in[0] != 0x1f || in[1] != 0x8b || in[2] != 8)
        return 0;
    uint8_t flags = in[3];
    size_t pos = 10;
    if (flags & FEXTRA) {
        size_t xlen = in[pos] | (size_t)in[pos + 1] << 8;
        pos += 2 + xlen;
    }
    for (int field = FNAME; field <= FCOMMENT; field <<= 1)
        if (flags & field) {
            while (pos < len && in[pos])
                pos++;
            pos++;
        }
    if (flags & FHCRC)
        pos += 2;
    return pos < len ? pos : 0;
}

bool pk_gunzip(const uint8_t *in, size_t in_len, size_t max_out, char **out, size_t *out_len, const char **why)
{
    *out = NULL;
    *out_len = 0;
    size_t start = skip_gzip_header(in, in_len);
    if (!start) {
        *why = "not gzip data";
        return false;
    }
    bit_reader b = {.in = in, .len = in_len, .pos = start};
    out_buffer o = {.max = max_out};
    const char *err = NULL;
    for (bool last = false; !last && !err;) {
        last = take_bits(&b, 1);
        unsigned type = take_bits(&b, 2);
        if (b.short_input)
            err = "truncated";
        else if (type == 0)
            err = inflate_stored(&b, &o);
        else if (type == 1)
            err = inflate_fixed(&b, &o);
        else if (type == 2)
            err = inflate_dynamic(&b, &o);
        else
            err = "invalid block type";
    }
    if (!err && (b.short_input || in_len - b.pos < 8))
        err = "truncated";
    if (!err) {
        const uint8_t *t = in + b.pos;
        uint32_t crc = t[0] | (uint32_t)t[1] << 8 | (uint32_t)t[2] << 16 | (uint32_t)t[3] << 24;
        uint32_t size = t[4] | (uint32_t)t[5] << 8 | (uint32_t)t[6] << 16 | (uint32_t)t[7] << 24;
        if (size != (uint32_t)o.len)
            err = "length check failed";
        else if (crc != crc32_ieee(o.data, o.len))
            err = "CRC-32 check failed";
    }
    if (!err && !o.data && !(o.data = malloc(1))) /* empty content: still a string */
        err = "out of memory";
    if (err) {
        free(o.data);
        *why = err;
        return false;
    }
    o.data[o.len] = '\0';
    *out = (char *)o.data;
    *out_len = o.len;
    return true;
}
