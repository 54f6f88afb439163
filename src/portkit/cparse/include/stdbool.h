/* portkit's freestanding stdbool.h, used only when no compiler for the triple is installed. */
#ifndef PORTKIT_STDBOOL_H
#define PORTKIT_STDBOOL_H
#ifndef __cplusplus
#define bool _Bool
#define true 1
#define false 0
#endif
#endif
