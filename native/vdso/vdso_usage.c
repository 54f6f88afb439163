/* The help text of `portkit-target vdso`, one for all its modes. */
#include "vdso_usage.h"

void pk_vdso_usage(FILE *out)
{
    fputs("usage: portkit-target vdso [list] [--image FILE | --dump FILE] [--require] [--json]\n"
          "       portkit-target vdso verify [--iterations N] [--clock NAME] [--json]\n"
          "       portkit-target vdso bench [--calls N] [--repeat R] [--json]\n"
          "\n"
          "The kernel's vDSO answers gettimeofday and clock_gettime without a system call.\n"
          "  list    the vDSO of this process (or of a vdso.so file): soname, symbols, versions;\n"
          "          without a vDSO, what every gettimeofday costs here and why it is missing\n"
          "  verify  vDSO and system call agree: syscall <= vDSO <= syscall for every clock,\n"
          "          equal clock_getres; exit 1 when a check fails or there is no vDSO\n"
          "  bench   ns per call through libc, the vDSO and the raw system call\n"
          "\n"
          "options:\n"
          "  --image FILE      list: parse a vdso.so / vdso32.so file instead of the live vDSO\n"
          "  --dump FILE       list: write the live vDSO image to FILE\n"
          "  --require         list: exit 1 when this process has no vDSO\n"
          "  --iterations N    verify: interleaved samples per check (default 10000)\n"
          "  --clock NAME      verify: only this clock (REALTIME, MONOTONIC, BOOTTIME, TAI, ...,\n"
          "                    or a clock id)\n"
          "  --calls N         bench: calls per repeat (default 500000, the field report's loop)\n"
          "  --repeat R        bench: repeats, the median is reported (default 5)\n"
          "  --json            machine-readable output (schemas portkit.vdso/1,\n"
          "                    portkit.vdso-verify/1, portkit.vdso-bench/1)\n"
          "\n"
          "examples:\n"
          "  portkit-target vdso --require\n"
          "  portkit-target vdso --image /lib/modules/$(uname -r)/vdso/vdso32.so\n"
          "  portkit-target vdso verify --clock MONOTONIC_COARSE\n"
          "  portkit-target vdso bench --calls 500000 --json\n"
          "exit codes: 0 ok, 1 check failed or no vDSO (--require, verify), 2 bad usage or input\n",
          out);
}
