/* Unions whose members overlay the same way on every target: fixed-width
 * members, and long with a pointer (one width on ILP32, another on LP64,
 * but always the same as each other there). */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>

union u32_bytes { /* ok: PK502 */
    uint32_t word;
    uint8_t bytes[4];
};

union tagged { /* ok: PK502 */
    long value;
    void *ptr;
};

union num { /* ok: PK502 */
    int64_t i;
    double d;
};

union fbits { /* ok: PK502 */
    float f;
    uint32_t u;
};

union any_ptr { /* ok: PK502 */
    void *v;
    const char *s;
};

int main(void)
{
    union u32_bytes w;
    union tagged t;
    union num n;
    union fbits fb;
    union any_ptr ap;
    int x = 0;

    w.word = 0x44332211u;
    t.ptr = &x;
    n.d = 1.0;
    fb.f = -0.0f;
    ap.s = "can0";
    printf("first byte %#x\n", w.bytes[0]);
    printf("tagged value is the address: %d\n", t.value == (long)&x); /* ok: PK101 */
    printf("1.0 is %#" PRIx64 "\n", (uint64_t)n.i);
    printf("-0.0f is %#" PRIx32 "\n", fb.u);
    printf("any pointer: %s\n", (const char *)ap.v);
    return 0;
}
