/* The live vDSO of this test process: found, parsed, its entry points called
 * and compared with the raw system calls, dumped to a file. Cross-built, this
 * runs under qemu-user, which gives no vDSO: then the no-vDSO report is
 * checked. */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "pk_test.h"
#include "vdso_calls.h"
#include "vdso_live.h"

static void test_process_info(void)
{
    pk_vdso_process proc;
    pk_vdso_process_info(&proc);
    CHECK(proc.kernel_machine[0] != '\0');
    CHECK(proc.kernel_release[0] != '\0');
}

/* Both ways of sizing the image agree: the mapping covers the headers' extent. */
static void test_extent_fits_mapping(const pk_vdso_live *live)
{
    uint64_t extent = 0;
    const char *err;
    CHECK(pk_vdso_image_extent((const void *)(uintptr_t)live->base, 4096, &extent, &err) == 0);
    CHECK(extent > 0 && extent <= live->size);
}

static void test_entries_agree_with_syscalls(const pk_vdso_live *live)
{
    pk_vdso_entries entries;
    pk_vdso_resolve(&live->image, &entries);
    CHECK(entries.entry[PK_FN_CLOCK_GETTIME] || entries.entry[PK_FN_CLOCK_GETTIME64]);
    CHECK(entries.entry[PK_FN_GETTIMEOFDAY]);
    for (int id = 0; id < PK_FN_COUNT; id++) {
        const pk_time_fn *fn = &pk_time_fns[id];
        if (!entries.entry[id] || !fn->sys)
            continue;
        int clock = CLOCK_MONOTONIC;
        int64_t before, during, after;
        for (int i = 0; i < 100; i++) {
            CHECK(fn->sys(clock, &before) == 0);
            CHECK(fn->vdso(entries.entry[id], clock, &during) == 0);
            CHECK(fn->sys(clock, &after) == 0);
            if (fn->resolution)
                CHECK(during == before);
            else
                CHECK(before <= during && during <= after);
        }
    }
}

/* Files in dir other than . and .. */
static int entries_in(const char *dir)
{
    DIR *d = opendir(dir);
    int n = 0;
    for (struct dirent *e; d && (e = readdir(d));)
        n += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
    if (d)
        closedir(d);
    return n;
}

/* The dump is the image byte for byte; a failed one names its step and
 * leaves no temporary file behind. */
static void test_dump(const pk_vdso_live *live)
{
    char dir[] = "/tmp/pk-vdso-dump-XXXXXX", path[64], blocker[64];
    CHECK(mkdtemp(dir) != NULL);
    snprintf(path, sizeof path, "%s/vdso.so", dir);
    const char *err = NULL;
    CHECK(pk_vdso_live_dump(live, path, &err) == 0);
    size_t size = 0;
    uint8_t *copy = pk_test_read_file(dir, "vdso.so", &size);
    CHECK(size == live->size && !memcmp(copy, (const void *)(uintptr_t)live->base, size));
    free(copy);
    CHECK(entries_in(dir) == 1);

    snprintf(blocker, sizeof blocker, "%s/dir", dir); /* a directory is no file name */
    CHECK(mkdir(blocker, 0700) == 0);
    CHECK(pk_vdso_live_dump(live, blocker, &err) == -1);
    CHECK(err && !strcmp(err, "is a directory (give a file name)"));
    CHECK(entries_in(dir) == 2);

    snprintf(blocker, sizeof blocker, "%s/none/vdso.so", dir);
    CHECK(pk_vdso_live_dump(live, blocker, &err) == -1);
    CHECK(err && !strcmp(err, "cannot create a temporary file beside it: No such file or directory"));

    snprintf(blocker, sizeof blocker, "%s/dir", dir);
    rmdir(blocker);
    remove(path);
    rmdir(dir);
}

static void test_no_vdso_report(void)
{
    pk_vdso_process proc;
    pk_no_vdso report;
    pk_vdso_process_info(&proc);
    pk_no_vdso_measure(&report, &proc);
    CHECK(report.syscall_ns > 0);
    CHECK(report.loop_total_us > 0);
    CHECK(report.nhints >= 1);
}

int main(void)
{
    test_process_info();
    pk_vdso_live live;
    const char *err = NULL;
    int rc = pk_vdso_live_open(&live, &err);
    if (rc != 0)
        fprintf(stderr, "live vDSO: %s\n", err);
    CHECK(rc == 0);
    CHECK(live.present == (getauxval(AT_SYSINFO_EHDR) != 0));
    if (rc == 0 && live.present) {
        printf("live vDSO %s at %#llx, %llu bytes, %zu exported symbols\n", live.image.soname,
               (unsigned long long)live.base, (unsigned long long)live.size, live.image.exported);
        CHECK(live.image.soname != NULL);
        CHECK(live.image.exported > 0);
        test_extent_fits_mapping(&live);
        test_entries_agree_with_syscalls(&live);
        test_dump(&live);
    } else {
        printf("no vDSO in this process (qemu-user?)\n");
    }
    test_no_vdso_report();
    return TEST_EXIT();
}
