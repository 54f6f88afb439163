/* portkit's freestanding stdarg.h, used only when no compiler for the triple is installed. */
#ifndef PORTKIT_STDARG_H
#define PORTKIT_STDARG_H
typedef __builtin_va_list va_list;
#endif
