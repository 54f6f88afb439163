#!/bin/sh
# Regenerates the synthetic-*.so fixtures: small shared objects shaped like the
# vDSOs of architectures this machine cannot run natively (names, versions and
# sonames as the kernel uses them), linked by the real cross binutils so that
# readelf is the ground truth. They give the parser the byte orders and classes
# the two live dumps (x86_64.so, i686.so) cannot: big-endian ELF32 and ELF64,
# a hidden (non-default) symbol version, and the arm64 __kernel_* names.
#
# Needs gcc-aarch64-linux-gnu, gcc-arm-linux-gnueabihf, gcc-mips64el-linux-gnuabi64.
# The outputs are committed; the tests never run this script.
set -eu
cd "$(dirname "$0")"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# $1 output, $2 compiler + flags, $3 soname, $4 version script, $5 C source
build() {
    printf '%s\n' "$4" >"$tmp/v.lds"
    printf '%s\n' "$5" >"$tmp/v.c"
    # shellcheck disable=SC2086
    $2 -O2 -fPIC -shared -nostdlib -Wl,--hash-style=sysv -Wl,-z,max-page-size=4096 \
        -Wl,-soname="$3" -Wl,--version-script="$tmp/v.lds" -o "$1" "$tmp/v.c"
}

# arm64 (arch/arm64/kernel/vdso/vdso.lds.S): __kernel_* names, LINUX_2.6.39.
build synthetic-aarch64.so "aarch64-linux-gnu-gcc" linux-vdso.so.1 \
'LINUX_2.6.39 { global: __kernel_rt_sigreturn; __kernel_gettimeofday; __kernel_clock_gettime; __kernel_clock_getres; local: *; };' \
'void __kernel_rt_sigreturn(void) {}
int __kernel_gettimeofday(void *tv, void *tz) { (void)tv; (void)tz; return -38; }
int __kernel_clock_gettime(int c, void *ts) { (void)c; (void)ts; return -38; }
int __kernel_clock_getres(int c, void *ts) { (void)c; (void)ts; return -38; }'

# 32-bit ARM, also the arm64 compat vdso32 (arch/arm64/kernel/vdso32/vdso.lds.S).
build synthetic-armhf.so "arm-linux-gnueabihf-gcc" linux-vdso.so.1 \
'LINUX_2.6 { global: __vdso_clock_gettime; __vdso_gettimeofday; __vdso_clock_getres; __vdso_clock_gettime64; local: *; };' \
'int __vdso_clock_gettime(int c, void *ts) { (void)c; (void)ts; return -38; }
int __vdso_gettimeofday(void *tv, void *tz) { (void)tv; (void)tz; return -38; }
int __vdso_clock_getres(int c, void *ts) { (void)c; (void)ts; return -38; }
int __vdso_clock_gettime64(int c, void *ts) { (void)c; (void)ts; return -38; }'

# Big-endian MIPS64 n64 (arch/mips/vdso/vdso.lds.S).
build synthetic-mips64-be.so "mips64el-linux-gnuabi64-gcc -EB -mabi=64" linux-vdso.so.1 \
'LINUX_2.6 { global: __vdso_clock_gettime; __vdso_gettimeofday; __vdso_clock_getres; local: *; };' \
'int __vdso_clock_gettime(int c, void *ts) { (void)c; (void)ts; return -38; }
int __vdso_gettimeofday(void *tv, void *tz) { (void)tv; (void)tz; return -38; }
int __vdso_clock_getres(int c, void *ts) { (void)c; (void)ts; return -38; }'

# Big-endian MIPS o32 with a hidden older version of gettimeofday
# (name@LINUX_2.5 beside the default name@@LINUX_2.6).
build synthetic-mips-be.so "mips64el-linux-gnuabi64-gcc -EB -mabi=32" linux-vdso.so.1 \
'LINUX_2.5 { global: __vdso_gettimeofday; local: *; };
LINUX_2.6 { global: __vdso_gettimeofday; __vdso_clock_gettime; __vdso_clock_gettime64; } LINUX_2.5;' \
'int gtod_new(void *tv, void *tz) { (void)tv; (void)tz; return -38; }
int gtod_old(void *tv, void *tz) { (void)tv; (void)tz; return -38; }
__asm__(".symver gtod_new, __vdso_gettimeofday@@LINUX_2.6");
__asm__(".symver gtod_old, __vdso_gettimeofday@LINUX_2.5");
int __vdso_clock_gettime(int c, void *ts) { (void)c; (void)ts; return -38; }
int __vdso_clock_gettime64(int c, void *ts) { (void)c; (void)ts; return -38; }'
