/* `portkit-target cpu`: the optional instructions this CPU and kernel offer,
 * answering "there is currently no simple way to check in userland"
 * (the FreeBSD ARMv8 CRC32C review). Text by default, --json for the host,
 * --has for scripts: `portkit-target cpu --has crc32,pmull && ...`. */
#include <stdio.h>
#include <string.h>

#include "pk_cpu_features.h"
#include "pk_arch.h"
#include "pk_cli.h"
#include "pk_commands.h"
#include "pk_json.h"
#include "pk_options.h"

#define CMD "cpu"
#define SCHEMA "portkit.cpu/1"
#define WRAP_COLUMN 78
#define MAX_WANTED 256

typedef struct cpu_options {
    bool json;
    bool has_given;
    const char *wanted[MAX_WANTED]; /* --has names, pointing into argv */
    size_t wanted_count;
} cpu_options;

static void usage(FILE *out)
{
    fputs("usage: portkit-target cpu [--json] [--has NAME[,NAME...]]\n"
          "\n"
          "Lists the optional instruction-set features of this CPU and kernel by their\n"
          "/proc/cpuinfo names: cpuid + xgetbv on x86 (a feature whose registers the OS\n"
          "does not save counts as absent), AT_HWCAP/AT_HWCAP2 elsewhere.\n"
          "\n"
          "options:\n"
          "  --json                machine-readable output (schema " SCHEMA ")\n"
          "  --has NAME[,NAME...]  check only: exit 0 if all are present, 1 if any is\n"
          "                        absent, 2 if a name is unknown on this architecture\n"
          "  -h, --help            show this help\n"
          "\n"
          "example: portkit-target cpu --has crc32,pmull && echo use the CRC32C instructions\n",
          out);
}

/* Splits one --has value at commas (in place: argv strings are writable) and
 * appends the non-empty names. False when there are too many. */
static bool add_wanted(cpu_options *opt, char *list)
{
    char *save = NULL;
    for (char *name = strtok_r(list, ",", &save); name; name = strtok_r(NULL, ",", &save)) {
        if (opt->wanted_count == MAX_WANTED)
            return false;
        opt->wanted[opt->wanted_count++] = name;
    }
    return true;
}

/* PK_CONTINUE to go on, or the exit code to stop with (after --help or an
 * error line). */
static int parse_options(int argc, char **argv, cpu_options *opt)
{
    static const struct option longopts[] = {
        {"json", no_argument, NULL, 'j'},
        {"has", required_argument, NULL, 'H'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    pk_options_start();
    int c;
    while ((c = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
        switch (c) {
        case 'j':
            opt->json = true;
            break;
        case 'H':
            opt->has_given = true;
            if (!add_wanted(opt, optarg))
                return pk_fail(PK_EXIT_USAGE, CMD, "--has: more than %d names", MAX_WANTED);
            break;
        case 'h':
            usage(stdout);
            return PK_EXIT_OK;
        default:
            return pk_option_error(CMD, c, argv, longopts);
        }
    }
    int status = pk_no_operands(CMD, argc, argv);
    if (status == PK_CONTINUE && opt->has_given && opt->wanted_count == 0)
        status = pk_fail(PK_EXIT_USAGE, CMD, "--has needs at least one feature name");
    return status;
}

/* ---------------------------------------------------------------- text */

/* Prints "label: word word ..." wrapped at WRAP_COLUMN with a hanging
 * indent, so long feature lists stay readable on a terminal. */
typedef struct wrapper {
    FILE *out;
    int indent, column;
    size_t words;
} wrapper;

static void wrap_begin(wrapper *w, FILE *out, const char *label)
{
    w->out = out;
    w->indent = fprintf(out, "%s:", label);
    w->column = w->indent;
    w->words = 0;
}

static void wrap_word(wrapper *w, const char *word)
{
    int len = (int)strlen(word);
    if (w->words > 0 && w->column + 1 + len > WRAP_COLUMN) {
        fprintf(w->out, "\n%*s", w->indent, "");
        w->column = w->indent;
    }
    w->column += fprintf(w->out, " %s", word);
    w->words++;
}

static void wrap_end(wrapper *w)
{
    fputs(w->words ? "\n" : " (none)\n", w->out);
}

static void print_features(FILE *out, const pk_cpu_info *info, bool present)
{
    wrapper w;
    wrap_begin(&w, out, present ? "features" : "absent");
    for (size_t i = 0; i < info->feature_count; i++)
        if (info->features[i].present == present)
            wrap_word(&w, info->features[i].name);
    for (size_t i = 0; present && i < info->unnamed_count; i++)
        wrap_word(&w, info->unnamed[i]);
    wrap_end(&w);
}

static void print_report(FILE *out, const pk_cpu_info *info)
{
    fprintf(out, "cpu: %s (%s) %s", info->arch, PK_DATA_MODEL, info->model ? info->model : "(model unknown)");
    if (info->vendor)
        fprintf(out, " (%s)", info->vendor);
    fputc('\n', out);
    if (!strcmp(info->source, "cpuid"))
        fputs("source: cpuid + xgetbv (features the OS does not enable count as absent)\n", out);
    else
        fputs("source: AT_HWCAP/AT_HWCAP2 of the kernel's auxiliary vector\n", out);
    print_features(out, info, true);
    print_features(out, info, false);
    fprintf(out, "hwcap: 0x%llx  hwcap2: 0x%llx", (unsigned long long)info->hwcap,
            (unsigned long long)info->hwcap2);
    if (!strcmp(info->source, "cpuid"))
        fprintf(out, "  xcr0: 0x%llx", (unsigned long long)info->xcr0);
    fprintf(out, "  platform: %s\n", info->platform ? info->platform : "-");
}

/* --has in text mode prints only the verdict; the exit code carries it. */
static void print_check(FILE *out, const cpu_options *opt)
{
    wrapper present, absent;
    size_t missing = 0;
    for (size_t i = 0; i < opt->wanted_count; i++)
        missing += !pk_cpu_has(opt->wanted[i]);
    if (missing < opt->wanted_count) {
        wrap_begin(&present, out, "present");
        for (size_t i = 0; i < opt->wanted_count; i++)
            if (pk_cpu_has(opt->wanted[i]))
                wrap_word(&present, opt->wanted[i]);
        wrap_end(&present);
    }
    if (missing) {
        wrap_begin(&absent, out, "absent");
        for (size_t i = 0; i < opt->wanted_count; i++)
            if (!pk_cpu_has(opt->wanted[i]))
                wrap_word(&absent, opt->wanted[i]);
        wrap_end(&absent);
    }
}

/* ---------------------------------------------------------------- JSON */

static void json_names(pk_json *j, const char *key, const pk_cpu_info *info, bool present)
{
    pk_json_key(j, key);
    pk_json_begin_array(j);
    for (size_t i = 0; i < info->feature_count; i++)
        if (info->features[i].present == present)
            pk_json_string(j, info->features[i].name);
    for (size_t i = 0; present && i < info->unnamed_count; i++)
        pk_json_string(j, info->unnamed[i]);
    pk_json_end_array(j);
}

static void json_check(pk_json *j, const cpu_options *opt)
{
    pk_json_key(j, "wanted");
    pk_json_begin_array(j);
    for (size_t i = 0; i < opt->wanted_count; i++)
        pk_json_string(j, opt->wanted[i]);
    pk_json_end_array(j);
    pk_json_key(j, "missing");
    pk_json_begin_array(j);
    for (size_t i = 0; i < opt->wanted_count; i++)
        if (!pk_cpu_has(opt->wanted[i]))
            pk_json_string(j, opt->wanted[i]);
    pk_json_end_array(j);
}

/* PK_EXIT_OK, or PK_EXIT_ENV when the document could not be written whole. */
static int print_json(FILE *out, const pk_cpu_info *info, const cpu_options *opt)
{
    pk_json j;
    pk_json_init(&j, out);
    pk_json_begin_document(&j, SCHEMA);
    pk_json_kv_string(&j, "arch", info->arch);
    pk_json_kv_string(&j, "platform", info->platform);
    pk_json_kv_string(&j, "vendor", info->vendor);
    pk_json_kv_string(&j, "model", info->model);
    pk_json_kv_string(&j, "source", info->source);
    pk_json_kv_hex(&j, "hwcap", info->hwcap);
    pk_json_kv_hex(&j, "hwcap2", info->hwcap2);
    json_names(&j, "features", info, true);
    json_names(&j, "absent", info, false);
    if (opt->has_given)
        json_check(&j, opt);
    return pk_json_end_command(&j, CMD);
}

/* ------------------------------------------------------------- command */

static bool all_present(const cpu_options *opt)
{
    for (size_t i = 0; i < opt->wanted_count; i++)
        if (!pk_cpu_has(opt->wanted[i]))
            return false;
    return true;
}

int pk_cmd_cpu(int argc, char **argv)
{
    cpu_options opt = {0};
    int stop = parse_options(argc, argv, &opt);
    if (stop != PK_CONTINUE)
        return stop;
    for (size_t i = 0; i < opt.wanted_count; i++)
        if (!pk_cpu_known(opt.wanted[i]))
            /* The host relays this line too: the hint names no program, only the option. */
            return pk_fail(PK_EXIT_USAGE, CMD, "--has: '%s' is not a feature name on %s (without --has all are listed)",
                           opt.wanted[i], PK_ARCH);

    const pk_cpu_info *info = pk_cpu_info_get();
    if (opt.json) {
        int status = print_json(stdout, info, &opt);
        if (status != PK_EXIT_OK)
            return status;
    } else if (opt.has_given) {
        print_check(stdout, &opt);
    } else {
        print_report(stdout, info);
    }
    if (fflush(stdout) != 0)
        return pk_fail(PK_EXIT_ENV, CMD, "cannot write the output");
    return opt.has_given && !all_present(&opt) ? PK_EXIT_FINDINGS : PK_EXIT_OK;
}
