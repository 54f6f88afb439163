/* The two examples of the IVI AArch64 porting field report:
 * sizeof(struct bar) = 16 on AArch32, 32 on AArch64;
 * sizeof(long_union_t) = 8 on AArch32, 16 on AArch64. */
#ifndef LEGACY32_LONG_RECORDS_H
#define LEGACY32_LONG_RECORDS_H

struct bar {
    int    i;
    long   j;
    int    k;
    char*  p;
};

typedef union {
    double  d;
    long    l[2];
} long_union_t;

#endif
