/* `portkit-target kconfig`: the running kernel's configuration as the board
 * has it, for `portkit audit kconfig --target` (the host unpacks and checks
 * it). Reads /proc/config.gz, else /boot/config-$(uname -r), or --path FILE;
 * writes the bytes unchanged, or with --json as hex in one document (the
 * file is usually gzip, which JSON strings cannot hold as they are). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include "kconfig_hex.h"
#include "pk_cli.h"
#include "pk_commands.h"
#include "pk_json.h"
#include "pk_kconfig.h"
#include "pk_options.h"

#define CMD "kconfig"
#define SCHEMA "portkit.kconfig/1"

typedef struct kconfig_options {
    bool json;
    const char *path; /* --path, or NULL for the running kernel's */
} kconfig_options;

static void usage(FILE *out)
{
    fputs("usage: portkit-target kconfig [--json] [--path FILE]\n"
          "\n"
          "Writes the running kernel's configuration as it is stored: /proc/config.gz\n"
          "(CONFIG_IKCONFIG_PROC), else /boot/config-$(uname -r).\n"
          "\n"
          "options:\n"
          "  --json       one document (schema " SCHEMA ") with the file's bytes as hex\n"
          "  --path FILE  this file instead\n"
          "  -h, --help   show this help\n"
          "\n"
          "example: portkit-target kconfig | zcat | grep PREEMPT_RT\n",
          out);
}

static int parse_options(int argc, char **argv, kconfig_options *opt)
{
    static const struct option longopts[] = {
        {"json", no_argument, NULL, 'j'},
        {"path", required_argument, NULL, 'p'},
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
        case 'p':
            opt->path = optarg;
            break;
        case 'h':
            usage(stdout);
            return PK_EXIT_OK;
        default:
            return pk_option_error(CMD, c, argv, longopts);
        }
    }
    return pk_no_operands(CMD, argc, argv);
}

static int write_json(const char *path, const char *release, const unsigned char *data, size_t len)
{
    char *hex = kconfig_hex(data, len);
    if (!hex)
        return pk_fail(PK_EXIT_ENV, CMD, "out of memory for %zu bytes of hex", len * 2);
    pk_json j;
    pk_json_init(&j, stdout);
    pk_json_begin_document(&j, SCHEMA);
    pk_json_kv_string(&j, "path", path);
    pk_json_kv_string(&j, "release", release);
    pk_json_kv_uint(&j, "bytes", len);
    pk_json_kv_string(&j, "hex", hex);
    free(hex);
    return pk_json_end_command(&j, CMD);
}

int pk_cmd_kconfig(int argc, char **argv)
{
    kconfig_options opt = {0};
    int status = parse_options(argc, argv, &opt);
    if (status != PK_CONTINUE)
        return status;
    struct utsname un;
    if (uname(&un) != 0)
        return pk_fail(PK_EXIT_ENV, CMD, "uname: %s", strerror(errno));
    char places[PK_KCONFIG_PLACES][PK_KCONFIG_PATH_MAX];
    pk_kconfig_places(un.release, places);
    const char *path = opt.path ? opt.path : pk_kconfig_first_existing(places);
    if (!path)
        return pk_fail(PK_EXIT_ENV, CMD, "the running kernel's config is not readable: neither %s nor %s exists",
                       places[0], places[1]);
    unsigned char *data = NULL;
    size_t len = 0;
    const char *error = pk_kconfig_read_file(path, &data, &len);
    if (error)
        return pk_fail(opt.path ? PK_EXIT_USAGE : PK_EXIT_ENV, CMD, "%s: %s", path, error);
    if (opt.json)
        status = write_json(path, un.release, data, len);
    else if (fwrite(data, 1, len, stdout) != len || fflush(stdout) != 0)
        status = pk_fail(PK_EXIT_ENV, CMD, "cannot write to stdout: %s", strerror(errno));
    free(data);
    return status;
}
