/* portkit's freestanding stddef.h, used only when no compiler for the triple is installed. */
#ifndef PORTKIT_STDDEF_H
#define PORTKIT_STDDEF_H
typedef __SIZE_TYPE__ size_t;
typedef __PTRDIFF_TYPE__ ptrdiff_t;
#ifndef __cplusplus
typedef __WCHAR_TYPE__ wchar_t;
#endif
#define NULL ((void *)0)
#define offsetof(t, m) __builtin_offsetof(t, m)
typedef struct { long long __ll __attribute__((aligned(8))); long double __ld; } max_align_t;
#endif
