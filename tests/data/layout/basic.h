/* Layout truth corpus: plain C records (probed with every cross compiler). */
#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>

struct mixed { char c; short s; int i; long l; long long ll; float f; double d; void *p; };
struct ld_holder { char c; long double ld; int tail; };
union ptr_ll { void *p; long long ll; char bytes[3]; };
struct with_enum { enum color { RED, GREEN, BLUE } color; char c; enum { SMALL = 1, HUGE = 0x7fffffff } big; };
struct with_bool { _Bool a; bool b; int i; _Bool c; };
struct size_types { size_t size; ptrdiff_t diff; intptr_t ip; uintptr_t up; wchar_t wc; int64_t i64; int32_t i32; };
struct fam { uint32_t count; long first; uint16_t items[]; };
struct fam_ll { char tag; long long items[]; };
struct inner_pt { short x; long y; };
struct outer { char c; struct inner_pt pt; struct inner_pt pts[2]; double d; };
struct anon_members { int kind; union { long l; double d; char *s; }; struct { char a; long long b; }; int tail; };
struct unnamed_type_member { char c; struct { short s; long l; } m; union { char ch; void *vp; } u; };
struct func_ptrs { void (*cb)(void *); int (*cmp)(const void *, const void *); char c; };
struct arrays { char name[13]; long vals[3]; short sh[5]; };
