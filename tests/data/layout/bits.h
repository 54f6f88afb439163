/* Layout truth corpus: bit-fields, zero-width bit-fields, packed and aligned. */
#include <stdint.h>

struct bf_simple { unsigned a : 3; unsigned b : 5; unsigned c : 9; int d : 15; };
struct bf_zero { unsigned a : 3; unsigned : 0; unsigned b : 4; char c; unsigned : 0; char d; };
struct bf_mixed { char c; unsigned short s : 7; unsigned long l : 20; unsigned long long ll : 40; _Bool flag : 1; };
struct bf_long { long a : 30; long b : 30; char c; };
struct bf_straddle { char c; unsigned int x : 30; unsigned int y : 4; };
struct bf_zero_long { char a; long : 0; char b; };
struct __attribute__((packed)) packed_rec { char c; int i; long l; void *p; short s; };
struct packed_field { char c; int i __attribute__((packed)); long long ll; };
struct __attribute__((aligned(16))) aligned16 { char c; int i; };
struct aligned_member { char c; long long ll __attribute__((aligned(16))); int i; };
#pragma pack(push, 2)
struct pragma_pack2 { char c; long l; double d; char e; };
#pragma pack(pop)
struct __attribute__((packed)) packed_bf { unsigned a : 3; unsigned b : 12; char c; unsigned long long d : 33; };
