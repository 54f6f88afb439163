/* `portkit-target vdso [list]`: what the vDSO of this process (or a vdso.so
 * file) exports, or, without one, what that costs and why it may be missing.
 *
 * JSON, schema "portkit.vdso/2":
 *   schema, agent             pk_json_begin_document
 *   source                    "live" (this process) or "image" (--image FILE)
 *   image_path                the FILE of --image, else null
 *   present                   the process has a vDSO (always true for an image)
 *   process                   {arch, data_model, kernel_machine, kernel_release}: uname of the kernel
 *   compat                    a 32-bit process on a 64-bit kernel (armv8l/aarch64 under arm,
 *                             x86_64 under i686)
 *   soname                    DT_SONAME ("linux-vdso.so.1", "linux-gate.so.1"), null if absent
 *   elf_class                 32 or 64, null without a vDSO
 *   byte_order                "little" or "big", null without a vDSO
 *   machine, e_machine        readable name ("x86_64", "aarch64", ...) and the raw e_machine
 *   base                      "0x..." runtime address of the image (AT_SYSINFO_EHDR); "0x0" for a file
 *   size                      bytes of the image
 *   size_source               "/proc/self/maps", "program headers" or "file"
 *   symbol_source             "section headers" or "dynamic segment"
 *   symbols[]                 the exported defined dynamic symbols in table order:
 *     name, version (null: unversioned), hidden (name@version only, not the default),
 *     type ("FUNC", "OBJECT", ...), bind ("GLOBAL", "WEAK"), absolute (SHN_ABS: a version
 *     marker, not a location), value "0x..." (st_value), size (st_size),
 *     address "0x..." (base + value - first PT_LOAD vaddr; value itself when absolute)
 *   dumped_to                 FILE written by --dump, else null
 *   no_vdso                   null, or without a vDSO: {message, measured_calls,
 *                             syscall_ns_per_call, gettimeofday_loop {calls,
 *                             syscall_total_us}, hints[]}
 */
#include <elf.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "pk_cli.h"
#include "pk_json.h"
#include "pk_options.h"
#include "vdso_modes.h"
#include "vdso_usage.h"
#include "vdso_elf.h"
#include "vdso_live.h"

/* A vdso.so is a few pages; anything this large is not one. */
#define IMAGE_MAX_SIZE (64u << 20)

typedef struct list_options {
    const char *image;
    const char *dump;
    bool require;
    bool json;
} list_options;

/* What is being listed: the live vDSO or a file, and what happened to it. */
typedef struct listing {
    const list_options *opt;
    pk_vdso_process proc;
    bool present;
    const pk_vdso_image *img;
    const char *size_source;
    bool dumped;
    pk_no_vdso no_vdso;
} listing;

static int parse_options(int argc, char **argv, list_options *opt)
{
    static const struct option longopts[] = {
        {"image", required_argument, NULL, 'i'}, {"dump", required_argument, NULL, 'd'},
        {"require", no_argument, NULL, 'r'},     {"json", no_argument, NULL, 'j'},
        {"help", no_argument, NULL, 'h'},        {NULL, 0, NULL, 0},
    };
    pk_options_start();
    int c;
    while ((c = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
        switch (c) {
        case 'i': opt->image = optarg; break;
        case 'd': opt->dump = optarg; break;
        case 'r': opt->require = true; break;
        case 'j': opt->json = true; break;
        case 'h': pk_vdso_usage(stdout); return PK_EXIT_OK;
        default: return pk_option_error("vdso", c, argv, longopts);
        }
    }
    if (opt->image && opt->dump)
        return pk_fail(PK_EXIT_USAGE, "vdso", "--image and --dump cannot be combined (--dump writes the live vDSO)");
    return pk_no_operands("vdso", argc, argv);
}

/* Reads a whole file (regular or not) into a malloc'd buffer of exactly its
 * size, so the sanitizers see any read past its end. NULL with *error. */
static uint8_t *read_file(const char *path, size_t *size, const char **error)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        *error = strerror(errno);
        return NULL;
    }
    uint8_t *buf = NULL;
    size_t len = 0, cap = 0, got;
    *error = NULL;
    do {
        if (len == cap) {
            if (len > IMAGE_MAX_SIZE) {
                *error = "larger than 64 MiB, not a vDSO image";
                break;
            }
            cap = cap ? cap * 2 : 1u << 16;
            uint8_t *bigger = realloc(buf, cap);
            if (!bigger) {
                *error = "out of memory";
                break;
            }
            buf = bigger;
        }
        got = fread(buf + len, 1, cap - len, f);
        len += got;
    } while (got > 0);
    if (!*error && ferror(f))
        *error = strerror(errno);
    fclose(f);
    if (!*error && len > IMAGE_MAX_SIZE)
        *error = "larger than 64 MiB, not a vDSO image";
    if (!*error && len == 0)
        *error = "empty file";
    if (*error) {
        free(buf);
        return NULL;
    }
    uint8_t *exact = realloc(buf, len);
    *size = len;
    return exact ? exact : buf;
}

/* ---- text ---------------------------------------------------------------------- */

/* name@@VERSION (default), name@VERSION (hidden), or the bare name of an
 * absolute version marker, as readelf prints them. */
static void print_symbol(FILE *out, const pk_vdso_image *img, const pk_vdso_symbol *s)
{
    bool absolute = s->shndx == SHN_ABS;
    bool marker = absolute && s->version && !strcmp(s->name, s->version);
    int width = img->elf_class == 64 ? 16 : 8;
    fprintf(out, "  0x%0*" PRIx64 " %6" PRIu64 "  %-7s %-7s %s", width, s->address, s->size,
            pk_vdso_type_name(s->type), pk_vdso_bind_name(s->bind), s->name);
    if (s->version && !marker)
        fprintf(out, "%s%s", s->hidden ? "@" : "@@", s->version);
    fputs(marker ? "  (version marker)\n" : absolute ? "  (absolute)\n" : "\n", out);
}

static void print_image(FILE *out, const listing *l)
{
    const pk_vdso_image *img = l->img;
    if (l->opt->image)
        fprintf(out, "vDSO image %s: %s\n", l->opt->image, img->soname ? img->soname : "(no soname)");
    else
        fprintf(out, "vDSO %s of this process\n", img->soname ? img->soname : "(no soname)");
    fputs("  process  ", out);
    pk_vdso_process_print(out, &l->proc);
    fprintf(out, "  image    ELF%d %s-endian %s (e_machine %u), %" PRIu64 " bytes", img->elf_class,
            img->big_endian ? "big" : "little", pk_vdso_machine_name(img->machine), img->machine, img->size);
    if (l->opt->image)
        fputs(", addresses relative to its start\n", out);
    else
        fprintf(out, " at 0x%" PRIx64 " (size from %s)\n", img->base, l->size_source);
    fprintf(out, "  symbols  %zu exported, found via the %s\n", img->exported,
            img->from_sections ? "section headers" : "dynamic segment");
    if (l->dumped)
        fprintf(out, "  dumped   %" PRIu64 " bytes to %s\n", img->size, l->opt->dump);
    fprintf(out, "\n  %-*s %6s  %-7s %-7s %s\n", img->elf_class == 64 ? 18 : 10, "ADDRESS", "SIZE", "TYPE", "BIND",
            "NAME@VERSION");
    size_t cursor = 0;
    pk_vdso_symbol s;
    while (pk_vdso_next_symbol(img, &cursor, &s))
        print_symbol(out, img, &s);
}

static void print_listing(FILE *out, const listing *l)
{
    if (l->present) {
        print_image(out, l);
        return;
    }
    fputs("process: ", out);
    pk_vdso_process_print(out, &l->proc);
    pk_no_vdso_print(out, &l->no_vdso);
}

/* ---- JSON ---------------------------------------------------------------------- */

static void json_symbol(pk_json *j, const pk_vdso_symbol *s)
{
    pk_json_begin_object(j);
    pk_json_kv_string(j, "name", s->name);
    pk_json_kv_string(j, "version", s->version);
    pk_json_kv_bool(j, "hidden", s->hidden);
    pk_json_kv_string(j, "type", pk_vdso_type_name(s->type));
    pk_json_kv_string(j, "bind", pk_vdso_bind_name(s->bind));
    pk_json_kv_bool(j, "absolute", s->shndx == SHN_ABS);
    pk_json_kv_hex(j, "value", s->value);
    pk_json_kv_uint(j, "size", s->size);
    pk_json_kv_hex(j, "address", s->address);
    pk_json_end_object(j);
}

static void json_null(pk_json *j, const char *key)
{
    pk_json_key(j, key);
    pk_json_null(j);
}

static void json_image(pk_json *j, const listing *l)
{
    static const char *const image_keys[] = {"soname",      "elf_class",     "byte_order", "machine",
                                             "e_machine",   "base",          "size",       "size_source",
                                             "symbol_source"};
    const pk_vdso_image *img = l->img;
    if (!img) {
        for (size_t i = 0; i < sizeof image_keys / sizeof image_keys[0]; i++)
            json_null(j, image_keys[i]);
        pk_json_key(j, "symbols");
        pk_json_begin_array(j);
        pk_json_end_array(j);
        return;
    }
    pk_json_kv_string(j, "soname", img->soname);
    pk_json_kv_int(j, "elf_class", img->elf_class);
    pk_json_kv_string(j, "byte_order", img->big_endian ? "big" : "little");
    pk_json_kv_string(j, "machine", pk_vdso_machine_name(img->machine));
    pk_json_kv_uint(j, "e_machine", img->machine);
    pk_json_kv_hex(j, "base", img->base);
    pk_json_kv_uint(j, "size", img->size);
    pk_json_kv_string(j, "size_source", l->size_source);
    pk_json_kv_string(j, "symbol_source", img->from_sections ? "section headers" : "dynamic segment");
    pk_json_key(j, "symbols");
    pk_json_begin_array(j);
    size_t cursor = 0;
    pk_vdso_symbol s;
    while (pk_vdso_next_symbol(img, &cursor, &s))
        json_symbol(j, &s);
    pk_json_end_array(j);
}

static int json_listing(FILE *out, const listing *l)
{
    pk_json j;
    pk_json_init(&j, out);
    pk_json_begin_document(&j, "portkit.vdso/2");
    pk_json_kv_string(&j, "source", l->opt->image ? "image" : "live");
    pk_json_kv_string(&j, "image_path", l->opt->image);
    pk_json_kv_bool(&j, "present", l->present);
    pk_vdso_process_json(&j, &l->proc);
    json_image(&j, l);
    pk_json_kv_string(&j, "dumped_to", l->dumped ? l->opt->dump : NULL);
    if (l->present)
        json_null(&j, "no_vdso");
    else
        pk_no_vdso_json(&j, &l->no_vdso);
    return pk_json_end_command(&j, "vdso");
}

/* PK_EXIT_OK, or PK_EXIT_ENV when the JSON document could not be written whole. */
static int report(const listing *l)
{
    if (l->opt->json)
        return json_listing(stdout, l);
    print_listing(stdout, l);
    return PK_EXIT_OK;
}

/* ---- the two sources ------------------------------------------------------------- */

static int list_image_file(listing *l)
{
    const char *path = l->opt->image, *error;
    size_t size;
    uint8_t *data = read_file(path, &size, &error);
    if (!data)
        return pk_fail(PK_EXIT_USAGE, "vdso", "%s: %s", path, error);
    pk_vdso_image img;
    if (pk_vdso_parse(data, size, 0, &img, &error) != 0) {
        free(data);
        return pk_fail(PK_EXIT_USAGE, "vdso", "%s: %s", path, error);
    }
    l->present = true;
    l->img = &img;
    l->size_source = "file";
    int status = report(l);
    free(data);
    return status;
}

static int list_live(listing *l)
{
    pk_vdso_live live;
    const char *error;
    if (pk_vdso_live_open(&live, &error) != 0)
        return pk_fail(PK_EXIT_ENV, "vdso", "the vDSO at 0x%" PRIx64 " cannot be read: %s", live.base, error);
    if (!live.present) {
        pk_no_vdso_measure(&l->no_vdso, &l->proc);
        int status = report(l);
        if (status != PK_EXIT_OK)
            return status;
        if (l->opt->dump)
            return pk_fail(PK_EXIT_ENV, "vdso", "--dump %s: this process has no vDSO to dump", l->opt->dump);
        return l->opt->require ? PK_EXIT_FINDINGS : PK_EXIT_OK;
    }
    l->present = true;
    l->img = &live.image;
    l->size_source = live.size_source;
    if (l->opt->dump) {
        if (pk_vdso_live_dump(&live, l->opt->dump, &error) != 0)
            return pk_fail(PK_EXIT_USAGE, "vdso", "--dump %s: %s", l->opt->dump, error);
        l->dumped = true;
    }
    return report(l);
}

int pk_vdso_list(int argc, char **argv)
{
    list_options opt = {0};
    int status = parse_options(argc, argv, &opt);
    if (status != PK_CONTINUE)
        return status;
    listing l = {.opt = &opt};
    pk_vdso_process_info(&l.proc);
    return opt.image ? list_image_file(&l) : list_live(&l);
}
