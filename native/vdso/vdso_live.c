/* The live vDSO (vdso_live.h): where the kernel put it, how big it is, and
 * the report for a process that got none. */
#include "vdso_live.h"

#include <errno.h>
#include <inttypes.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "pk_arch.h"
#include "vdso_calls.h"

/* Beyond this the headers of the live image are not believed. */
#define LIVE_MAX_SIZE (1u << 20)
/* A short loop: enough for a stable figure under qemu-user too. */
#define NO_VDSO_MEASURED_CALLS 20000u

/* A 32-bit process on a 64-bit kernel, and why it may lack a vDSO there. */
typedef struct compat_row {
    const char *process_arch;       /* PK_ARCH */
    const char *kernel_machines[3]; /* uname -m of the 64-bit kernel */
    const char *hint;
} compat_row;

static const compat_row compat_rows[] = {
    {"arm", {"aarch64", "armv8l", "armv8b"},
     "this is a 32-bit ARM process on an arm64 kernel (compat): the kernel builds the compat vDSO "
     "(CONFIG_COMPAT_VDSO) only when compiled with CROSS_COMPILE_COMPAT set to an arm-linux-gnueabihf- "
     "toolchain (or with clang, LLVM=1)"},
    {"i686", {"x86_64"},
     "this is a 32-bit x86 process on an x86_64 kernel (compat): the 32-bit vDSO needs "
     "CONFIG_IA32_EMULATION and is switched off by vdso32=0 on the kernel command line"},
};

static const char generic_hint[] =
    "the kernel may lack vDSO support for this architecture, have been booted with vdso=0, "
    "or this program runs under an emulator such as qemu-user, which provides none";

static const compat_row *find_compat(const char *kernel_machine)
{
    for (size_t i = 0; i < sizeof compat_rows / sizeof compat_rows[0]; i++) {
        if (strcmp(compat_rows[i].process_arch, PK_ARCH) != 0)
            continue;
        for (size_t m = 0; m < 3 && compat_rows[i].kernel_machines[m]; m++)
            if (!strcmp(compat_rows[i].kernel_machines[m], kernel_machine))
                return &compat_rows[i];
    }
    return NULL;
}

void pk_vdso_process_info(pk_vdso_process *proc)
{
    struct utsname u;
    memset(proc, 0, sizeof *proc);
    if (uname(&u) == 0) {
        snprintf(proc->kernel_machine, sizeof proc->kernel_machine, "%s", u.machine);
        snprintf(proc->kernel_release, sizeof proc->kernel_release, "%s", u.release);
    }
    proc->compat = find_compat(proc->kernel_machine) != NULL;
}

void pk_vdso_process_print(FILE *out, const pk_vdso_process *proc)
{
    fprintf(out, "%s %s process on kernel %s %s%s\n", PK_ARCH, PK_DATA_MODEL, proc->kernel_machine,
            proc->kernel_release, proc->compat ? " (compat: 32-bit process on a 64-bit kernel)" : "");
}

void pk_vdso_process_json(pk_json *j, const pk_vdso_process *proc)
{
    pk_json_key(j, "process");
    pk_json_begin_object(j);
    pk_json_kv_string(j, "arch", PK_ARCH);
    pk_json_kv_string(j, "data_model", PK_DATA_MODEL);
    pk_json_kv_string(j, "kernel_machine", proc->kernel_machine);
    pk_json_kv_string(j, "kernel_release", proc->kernel_release);
    pk_json_end_object(j);
    pk_json_kv_bool(j, "compat", proc->compat);
}

void pk_vdso_identity_json(pk_json *j, const pk_vdso_process *proc, const pk_vdso_image *img)
{
    pk_json_kv_bool(j, "present", img != NULL);
    pk_vdso_process_json(j, proc);
    pk_json_kv_string(j, "soname", img ? img->soname : NULL);
    if (img)
        pk_json_kv_hex(j, "base", img->base);
    else
        pk_json_kv_string(j, "base", NULL);
}

/* ---- finding the image ------------------------------------------------------ */

/* The [vdso] mapping that starts at base, from /proc/self/maps. */
static bool size_from_maps(uint64_t base, uint64_t *size)
{
    FILE *maps = fopen("/proc/self/maps", "r");
    if (!maps)
        return false;
    char line[512];
    bool found = false;
    while (!found && fgets(line, sizeof line, maps)) {
        uint64_t start, end;
        if (strstr(line, "[vdso]") && sscanf(line, "%" SCNx64 "-%" SCNx64, &start, &end) == 2 && start == base &&
            end > start) {
            *size = end - start;
            found = true;
        }
    }
    fclose(maps);
    return found;
}

/* Without /proc: the image's own headers, read from its first page (the
 * kernel maps at least that). The kernel maps the whole vdso.so file, section
 * headers included, rounded up to pages. */
static int size_from_headers(uint64_t base, uint64_t *size, const char **error)
{
    long page = sysconf(_SC_PAGESIZE);
    if (page <= 0)
        page = 4096;
    uint64_t extent;
    if (pk_vdso_image_extent((const void *)(uintptr_t)base, (size_t)page, &extent, error) != 0)
        return -1;
    if (extent > LIVE_MAX_SIZE) {
        *error = "vDSO image larger than 1 MiB according to its headers";
        return -1;
    }
    *size = (extent + (uint64_t)page - 1) / (uint64_t)page * (uint64_t)page;
    return 0;
}

int pk_vdso_live_open(pk_vdso_live *live, const char **error)
{
    memset(live, 0, sizeof *live);
    live->base = getauxval(AT_SYSINFO_EHDR);
    if (live->base == 0)
        return 0;
    live->present = true;
    live->size_source = "/proc/self/maps";
    if (!size_from_maps(live->base, &live->size)) {
        live->size_source = "program headers";
        if (size_from_headers(live->base, &live->size, error) != 0)
            return -1;
    }
    return pk_vdso_parse((const void *)(uintptr_t)live->base, live->size, live->base, &live->image, error);
}

/* "<step>: <errno text>" in *error; returns -1. */
static int step_error(const char **error, const char *step, int err)
{
    static char message[160];
    snprintf(message, sizeof message, "%s: %s", step, strerror(err ? err : EIO));
    *error = message;
    return -1;
}

int pk_vdso_live_dump(const pk_vdso_live *live, const char *path, const char **error)
{
    struct stat st;
    if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
        *error = "is a directory (give a file name)";
        return -1;
    }
    char tmp[4096];
    if (snprintf(tmp, sizeof tmp, "%s.tmp.%ld", path, (long)getpid()) >= (int)sizeof tmp)
        return step_error(error, "cannot create a temporary file beside it", ENAMETOOLONG);
    /* "x": never write through a file or link already there. */
    FILE *f = fopen(tmp, "wbx");
    if (!f)
        return step_error(error, "cannot create a temporary file beside it", errno);
    const char *step = NULL;
    int err = 0;
    if (fwrite((const void *)(uintptr_t)live->base, 1, (size_t)live->size, f) != live->size || fflush(f) != 0)
        step = "cannot write its temporary file", err = errno;
    else if (fsync(fileno(f)) != 0) /* on disk before it can replace path */
        step = "cannot fsync its temporary file", err = errno;
    if (fclose(f) != 0 && !step)
        step = "cannot close its temporary file", err = errno;
    if (!step && rename(tmp, path) != 0)
        step = "cannot rename its temporary file over it", err = errno;
    if (step) {
        remove(tmp);
        return step_error(error, step, err);
    }
    return 0;
}

/* ---- no vDSO ------------------------------------------------------------------ */

void pk_no_vdso_measure(pk_no_vdso *report, const pk_vdso_process *proc)
{
    memset(report, 0, sizeof *report);
    report->measured_calls = NO_VDSO_MEASURED_CALLS;
    /* One untimed round first: page faults and caches settle. */
    pk_loop_sys_gettimeofday(0, NO_VDSO_MEASURED_CALLS / 10);
    report->syscall_ns = pk_loop_ns_per_call(pk_loop_sys_gettimeofday, 0, NO_VDSO_MEASURED_CALLS);
    report->loop_total_us = report->syscall_ns * PK_FIELD_REPORT_CALLS / 1000.0;
    const compat_row *compat = find_compat(proc->kernel_machine);
    if (compat)
        report->hints[report->nhints++] = compat->hint;
    report->hints[report->nhints++] = generic_hint;
}

void pk_no_vdso_print(FILE *out, const pk_no_vdso *report)
{
    fprintf(out, "%s.\n", PK_NO_VDSO_MESSAGE);
    fprintf(out, "  cost here: %.0f ns per gettimeofday system call (%" PRIu64 " calls); %u calls, as in the "
                 "compat-vDSO field report, take %.0f us this way\n",
            report->syscall_ns, report->measured_calls, PK_FIELD_REPORT_CALLS, report->loop_total_us);
    for (int i = 0; i < report->nhints; i++)
        fprintf(out, "  %s: %s\n", i == 0 ? "why" : " or", report->hints[i]);
}

void pk_no_vdso_json(pk_json *j, const pk_no_vdso *report)
{
    pk_json_key(j, "no_vdso");
    pk_json_begin_object(j);
    pk_json_kv_string(j, "message", PK_NO_VDSO_MESSAGE);
    pk_json_kv_uint(j, "measured_calls", report->measured_calls);
    pk_json_kv_double(j, "syscall_ns_per_call", report->syscall_ns);
    pk_json_key(j, "gettimeofday_loop");
    pk_json_begin_object(j);
    pk_json_kv_uint(j, "calls", PK_FIELD_REPORT_CALLS);
    pk_json_kv_double(j, "syscall_total_us", report->loop_total_us);
    pk_json_end_object(j);
    pk_json_key(j, "hints");
    pk_json_begin_array(j);
    for (int i = 0; i < report->nhints; i++)
        pk_json_string(j, report->hints[i]);
    pk_json_end_array(j);
    pk_json_end_object(j);
}
