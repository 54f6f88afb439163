/* The vDSO parser against readelf's view of real images.
 *
 * x86_64.so and i686.so are this machine's live vDSOs, dumped with
 * `portkit-target vdso --dump` (the i686 agent runs natively and gets the
 * kernel's compat vDSO); synthetic-*.so are vDSO-shaped objects linked by the
 * cross binutils (tests/data/vdso/make-synthetic.sh) for the classes and byte
 * orders this machine has no vDSO of. The expected rows are readelf's:
 * `readelf -W --dyn-syms FILE`, the defined non-local symbols, in table order.
 * (readelf prints the absolute version-marker symbols without their version.)
 *
 * Usage: test_vdso_elf DATA_DIR */
#include <elf.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "pk_test.h"
#include "vdso_elf.h"

typedef struct expected_symbol {
    const char *readelf_name; /* name@@VERSION, name@VERSION (hidden) or name */
    uint64_t value;
    uint64_t size;
    bool absolute;
} expected_symbol;

typedef struct expected_image {
    const char *file;
    int elf_class;
    bool big_endian;
    uint16_t machine;
    const char *soname;
    uint64_t extent; /* e_shoff + e_shnum * e_shentsize: the section headers end the file */
    const expected_symbol *symbols;
    size_t nsymbols;
} expected_image;

/* readelf -W --dyn-syms x86_64.so */
static const expected_symbol x86_64_symbols[] = {
    {"clock_gettime@@LINUX_2.6", 0xaf0, 902, false},
    {"__vdso_gettimeofday@@LINUX_2.6", 0x810, 683, false},
    {"clock_getres@@LINUX_2.6", 0xe80, 127, false},
    {"__vdso_clock_getres@@LINUX_2.6", 0xe80, 127, false},
    {"gettimeofday@@LINUX_2.6", 0x810, 683, false},
    {"__vdso_time@@LINUX_2.6", 0xac0, 40, false},
    {"__vdso_getrandom@@LINUX_2.6", 0xf40, 947, false},
    {"time@@LINUX_2.6", 0xac0, 40, false},
    {"__vdso_clock_gettime@@LINUX_2.6", 0xaf0, 902, false},
    {"LINUX_2.6", 0x0, 0, true},
    {"__vdso_getcpu@@LINUX_2.6", 0xf00, 44, false},
    {"getcpu@@LINUX_2.6", 0xf00, 44, false},
    {"getrandom@@LINUX_2.6", 0xf40, 947, false},
};

/* readelf -W --dyn-syms i686.so */
static const expected_symbol i686_symbols[] = {
    {"__kernel_vsyscall@@LINUX_2.5", 0x5e0, 13, false},
    {"__vdso_gettimeofday@@LINUX_2.6", 0x700, 1297, false},
    {"__vdso_clock_getres@@LINUX_2.6", 0x1830, 150, false},
    {"__vdso_clock_gettime64@@LINUX_2.6", 0x1220, 1537, false},
    {"__kernel_sigreturn@@LINUX_2.5", 0x600, 9, false},
    {"__vdso_time@@LINUX_2.6", 0xc20, 66, false},
    {"LINUX_2.5", 0x0, 0, true},
    {"__kernel_rt_sigreturn@@LINUX_2.5", 0x610, 8, false},
    {"__vdso_clock_gettime@@LINUX_2.6", 0xc70, 1454, false},
    {"LINUX_2.6", 0x0, 0, true},
    {"__vdso_getcpu@@LINUX_2.6", 0x18d0, 53, false},
};

/* readelf -W --dyn-syms synthetic-aarch64.so */
static const expected_symbol aarch64_symbols[] = {
    {"LINUX_2.6.39", 0x0, 0, true},
    {"__kernel_clock_getres@@LINUX_2.6.39", 0x390, 8, false},
    {"__kernel_rt_sigreturn@@LINUX_2.6.39", 0x370, 4, false},
    {"__kernel_gettimeofday@@LINUX_2.6.39", 0x374, 8, false},
    {"__kernel_clock_gettime@@LINUX_2.6.39", 0x380, 8, false},
};

/* readelf -W --dyn-syms synthetic-armhf.so (odd values: Thumb entry points) */
static const expected_symbol armhf_symbols[] = {
    {"LINUX_2.6", 0x0, 0, true},
    {"__vdso_gettimeofday@@LINUX_2.6", 0x261, 6, false},
    {"__vdso_clock_getres@@LINUX_2.6", 0x269, 6, false},
    {"__vdso_clock_gettime64@@LINUX_2.6", 0x271, 6, false},
    {"__vdso_clock_gettime@@LINUX_2.6", 0x259, 6, false},
};

/* readelf -W --dyn-syms synthetic-mips64-be.so */
static const expected_symbol mips64_be_symbols[] = {
    {"LINUX_2.6", 0x0, 0, true},
    {"__vdso_gettimeofday@@LINUX_2.6", 0x4e8, 8, false},
    {"__vdso_clock_getres@@LINUX_2.6", 0x4f0, 8, false},
    {"__vdso_clock_gettime@@LINUX_2.6", 0x4e0, 8, false},
};

/* readelf -W --dyn-syms synthetic-mips-be.so */
static const expected_symbol mips_be_symbols[] = {
    {"LINUX_2.6", 0x0, 0, true},
    {"__vdso_gettimeofday@@LINUX_2.6", 0x3c0, 8, false},
    {"__vdso_gettimeofday@LINUX_2.5", 0x3c8, 8, false},
    {"LINUX_2.5", 0x0, 0, true},
    {"__vdso_clock_gettime64@@LINUX_2.6", 0x3d8, 8, false},
    {"__vdso_clock_gettime@@LINUX_2.6", 0x3d0, 8, false},
};

#define IMAGE(file, cls, be, machine, soname, extent, syms) \
    {file, cls, be, machine, soname, extent, syms, sizeof syms / sizeof syms[0]}

/* readelf -h / -d: class, data, machine, SONAME, section header table end */
static const expected_image images[] = {
    IMAGE("x86_64.so", 64, false, EM_X86_64, "linux-vdso.so.1", 5632 + 17 * 64, x86_64_symbols),
    IMAGE("i686.so", 32, false, EM_386, "linux-gate.so.1", 6896 + 17 * 40, i686_symbols),
    IMAGE("synthetic-aarch64.so", 64, false, EM_AARCH64, "linux-vdso.so.1", 5080 + 17 * 64, aarch64_symbols),
    IMAGE("synthetic-armhf.so", 32, false, EM_ARM, "linux-vdso.so.1", 4820 + 15 * 40, armhf_symbols),
    IMAGE("synthetic-mips64-be.so", 64, true, EM_MIPS, "linux-vdso.so.1", 2304 + 18 * 64, mips64_be_symbols),
    IMAGE("synthetic-mips-be.so", 32, true, EM_MIPS, "linux-vdso.so.1", 1988 + 19 * 40, mips_be_symbols),
};
#define NIMAGES (sizeof images / sizeof images[0])

static const char *data_dir;

/* ---- helpers ---------------------------------------------------------------- */

static uint8_t *load(const char *file, size_t *size)
{
    return pk_test_read_file(data_dir, file, size);
}

/* What readelf -W --dyn-syms prints in its Name column. */
static void readelf_name(const pk_vdso_symbol *s, char *out, size_t n)
{
    bool marker = s->shndx == SHN_ABS && s->version && !strcmp(s->name, s->version);
    if (!s->version || marker)
        snprintf(out, n, "%s", s->name);
    else
        snprintf(out, n, "%s%s%s", s->name, s->hidden ? "@" : "@@", s->version);
}

static void check_symbols(const expected_image *e, const pk_vdso_image *img, uint64_t base)
{
    size_t cursor = 0, i = 0;
    pk_vdso_symbol s;
    while (pk_vdso_next_symbol(img, &cursor, &s)) {
        char name[256];
        readelf_name(&s, name, sizeof name);
        if (i >= e->nsymbols) {
            fprintf(stderr, "%s: extra symbol %s\n", e->file, name);
            CHECK(i < e->nsymbols);
            break;
        }
        const expected_symbol *x = &e->symbols[i++];
        if (strcmp(name, x->readelf_name) != 0)
            fprintf(stderr, "%s: symbol %zu is %s, readelf says %s\n", e->file, i - 1, name, x->readelf_name);
        CHECK(strcmp(name, x->readelf_name) == 0);
        CHECK(s.value == x->value);
        CHECK(s.size == x->size);
        CHECK((s.shndx == SHN_ABS) == x->absolute);
        CHECK(s.address == (x->absolute ? x->value : base + x->value)); /* first PT_LOAD at vaddr 0 */
    }
    CHECK(i == e->nsymbols);
    CHECK(img->exported == e->nsymbols);
}

static void check_identity(const expected_image *e, const pk_vdso_image *img)
{
    CHECK(img->elf_class == e->elf_class);
    CHECK(img->big_endian == e->big_endian);
    CHECK(img->machine == e->machine);
    CHECK(img->soname && !strcmp(img->soname, e->soname));
    CHECK(img->load_vaddr == 0);
}

/* ---- tests -------------------------------------------------------------------- */

/* Parsing via the section headers, as found in every file. */
static void test_images_match_readelf(void)
{
    for (size_t i = 0; i < NIMAGES; i++) {
        const expected_image *e = &images[i];
        size_t size;
        uint8_t *data = load(e->file, &size);
        pk_vdso_image img;
        const char *err = NULL;
        uint64_t base = e->elf_class == 64 ? 0x7ffff7fc1000u : 0xf7fc1000u;
        int rc = pk_vdso_parse(data, size, base, &img, &err);
        if (rc != 0)
            fprintf(stderr, "%s: %s\n", e->file, err);
        CHECK(rc == 0);
        if (rc == 0) {
            CHECK(img.from_sections);
            check_identity(e, &img);
            check_symbols(e, &img, base);
        }
        uint64_t extent = 0;
        CHECK(pk_vdso_image_extent(data, size, &extent, &err) == 0);
        CHECK(extent == e->extent);
        free(data);
    }
}

/* Without section headers the same symbols come from PT_DYNAMIC + DT_HASH. */
static void test_images_without_section_headers(void)
{
    for (size_t i = 0; i < NIMAGES; i++) {
        const expected_image *e = &images[i];
        size_t size;
        uint8_t *data = load(e->file, &size);
        bool is64 = e->elf_class == 64;
        pk_test_put_uint(data + (is64 ? 40 : 32), is64 ? 8 : 4, 0, e->big_endian); /* e_shoff */
        pk_test_put_uint(data + (is64 ? 60 : 48), 2, 0, e->big_endian);            /* e_shnum */
        pk_vdso_image img;
        const char *err = NULL;
        int rc = pk_vdso_parse(data, size, 0, &img, &err);
        if (rc != 0)
            fprintf(stderr, "%s without section headers: %s\n", e->file, err);
        CHECK(rc == 0);
        if (rc == 0) {
            CHECK(!img.from_sections);
            check_identity(e, &img);
            check_symbols(e, &img, 0);
        }
        free(data);
    }
}

/* The dynamic entry with tag `from` gets tag `to`, read and written in the
 * image's own byte order (a big-endian host edits little-endian dumps too). */
static bool retag_dynamic(uint8_t *data, const expected_image *e, uint64_t from, uint64_t to)
{
    bool is64 = e->elf_class == 64, be = e->big_endian;
    unsigned word = is64 ? 8 : 4;
    uint64_t phoff = pk_test_get_uint(data + (is64 ? 32 : 28), word, be);
    uint64_t phentsize = pk_test_get_uint(data + (is64 ? 54 : 42), 2, be);
    uint64_t phnum = pk_test_get_uint(data + (is64 ? 56 : 44), 2, be);
    for (uint64_t i = 0; i < phnum; i++) {
        const uint8_t *ph = data + phoff + i * phentsize;
        if (pk_test_get_uint(ph, 4, be) != PT_DYNAMIC)
            continue;
        uint8_t *dyn = data + pk_test_get_uint(ph + (is64 ? 8 : 4), word, be);
        for (; pk_test_get_uint(dyn, word, be) != DT_NULL; dyn += 2 * word)
            if (pk_test_get_uint(dyn, word, be) == from) {
                pk_test_put_uint(dyn, word, to, be);
                return true;
            }
    }
    return false;
}

/* The live dumps carry both hash tables: hide DT_HASH so the symbol count
 * must come from walking DT_GNU_HASH, then hide that too. */
static void test_gnu_hash_count(void)
{
    for (size_t i = 0; i < 2; i++) {
        const expected_image *e = &images[i];
        size_t size;
        uint8_t *data = load(e->file, &size);
        bool is64 = e->elf_class == 64;
        memset(data + (is64 ? 40 : 32), 0, is64 ? 8 : 4); /* e_shoff = 0 */
        CHECK(retag_dynamic(data, e, DT_HASH, DT_DEBUG));
        pk_vdso_image img;
        const char *err = NULL;
        int rc = pk_vdso_parse(data, size, 0, &img, &err);
        CHECK(rc == 0);
        if (rc == 0)
            check_symbols(e, &img, 0);
        CHECK(retag_dynamic(data, e, DT_GNU_HASH, DT_DEBUG));
        CHECK(pk_vdso_parse(data, size, 0, &img, &err) == -1);
        CHECK(err && strstr(err, "no symbol count"));
        free(data);
    }
}

static void test_find_symbol(void)
{
    size_t size;
    uint8_t *data = load("x86_64.so", &size);
    pk_vdso_image img;
    const char *err;
    pk_vdso_symbol s;
    CHECK(pk_vdso_parse(data, size, 0x1000000, &img, &err) == 0);
    CHECK(pk_vdso_find_symbol(&img, "__vdso_clock_gettime", "LINUX_2.6", &s));
    CHECK(s.address == 0x1000000 + 0xaf0 && s.type == STT_FUNC && s.bind == STB_GLOBAL);
    CHECK(pk_vdso_find_symbol(&img, "__vdso_clock_gettime", NULL, &s));
    CHECK(!pk_vdso_find_symbol(&img, "__vdso_clock_gettime", "LINUX_2.5", &s));
    CHECK(!pk_vdso_find_symbol(&img, "__vdso_clock_gettime64", NULL, &s));
    CHECK(pk_vdso_find_symbol(&img, "time", NULL, &s) && s.bind == STB_WEAK);
    free(data);

    /* The default version wins over a hidden one of the same name. */
    data = load("synthetic-mips-be.so", &size);
    CHECK(pk_vdso_parse(data, size, 0, &img, &err) == 0);
    CHECK(pk_vdso_find_symbol(&img, "__vdso_gettimeofday", NULL, &s));
    CHECK(!s.hidden && !strcmp(s.version, "LINUX_2.6") && s.value == 0x3c0);
    CHECK(pk_vdso_find_symbol(&img, "__vdso_gettimeofday", "LINUX_2.5", &s));
    CHECK(s.hidden && s.value == 0x3c8);
    free(data);
}

static void test_names(void)
{
    CHECK(!strcmp(pk_vdso_machine_name(EM_AARCH64), "aarch64"));
    CHECK(!strcmp(pk_vdso_machine_name(EM_386), "i386"));
    CHECK(!strcmp(pk_vdso_machine_name(0x7777), "unknown"));
    CHECK(!strcmp(pk_vdso_type_name(STT_FUNC), "FUNC"));
    CHECK(!strcmp(pk_vdso_bind_name(STB_WEAK), "WEAK"));
}

/* ---- each kind of damage gets its own message ------------------------------------- */

/* x86_64.so is little-endian whatever the host: its fields are read and
 * written through LE()/SET_LE(), at the offsets of the <elf.h> structs (the
 * same on every host: the ELF types are fixed-width and naturally aligned). */
#define FIELD(p, type, field) ((uint8_t *)(p) + offsetof(type, field)), sizeof(((type *)0)->field)
#define LE(p, type, field) pk_test_get_uint(FIELD(p, type, field), false)
#define SET_LE(p, type, field, v) pk_test_put_uint(FIELD(p, type, field), (uint64_t)(v), false)

typedef struct x86_64_layout {
    uint8_t *eh;                                       /* the Elf64_Ehdr */
    uint8_t *dynsym, *dynstr, *versym, *verdef, *dynamic; /* their Elf64_Shdr */
} x86_64_layout;

static uint8_t *section(uint8_t *data, uint64_t index)
{
    return data + LE(data, Elf64_Ehdr, e_shoff) + index * sizeof(Elf64_Shdr);
}

static x86_64_layout locate(uint8_t *data)
{
    x86_64_layout l = {.eh = data};
    for (uint64_t i = 0; i < LE(data, Elf64_Ehdr, e_shnum); i++) {
        uint8_t *sh = section(data, i);
        switch (LE(sh, Elf64_Shdr, sh_type)) {
        case SHT_DYNSYM: l.dynsym = sh; l.dynstr = section(data, LE(sh, Elf64_Shdr, sh_link)); break;
        case SHT_GNU_versym: l.versym = sh; break;
        case SHT_GNU_verdef: l.verdef = sh; break;
        case SHT_DYNAMIC: l.dynamic = sh; break;
        }
    }
    return l;
}

/* Where a section's contents start. */
static uint8_t *contents(uint8_t *d, const uint8_t *sh)
{
    return d + LE(sh, Elf64_Shdr, sh_offset);
}

typedef struct damage {
    const char *what;
    size_t (*apply)(uint8_t *data, size_t size, x86_64_layout *l); /* returns the new size */
    const char *message;
} damage;

static size_t cut_to_10(uint8_t *d, size_t s, x86_64_layout *l) { (void)d; (void)s; (void)l; return 10; }
static size_t cut_to_40(uint8_t *d, size_t s, x86_64_layout *l) { (void)d; (void)s; (void)l; return 40; }
static size_t cut_to_4096(uint8_t *d, size_t s, x86_64_layout *l) { (void)d; (void)s; (void)l; return 4096; }
static size_t bad_magic(uint8_t *d, size_t s, x86_64_layout *l) { (void)l; d[1] = 'X'; return s; }
static size_t bad_class(uint8_t *d, size_t s, x86_64_layout *l) { (void)l; d[EI_CLASS] = 7; return s; }
static size_t bad_order(uint8_t *d, size_t s, x86_64_layout *l) { (void)l; d[EI_DATA] = 0; return s; }
static size_t exec_type(uint8_t *d, size_t s, x86_64_layout *l) { (void)d; SET_LE(l->eh, Elf64_Ehdr, e_type, ET_EXEC); return s; }
static size_t no_phdrs(uint8_t *d, size_t s, x86_64_layout *l) { (void)d; SET_LE(l->eh, Elf64_Ehdr, e_phnum, 0); return s; }
static size_t small_phent(uint8_t *d, size_t s, x86_64_layout *l) { (void)d; SET_LE(l->eh, Elf64_Ehdr, e_phentsize, 8); return s; }
static size_t far_phoff(uint8_t *d, size_t s, x86_64_layout *l) { (void)d; SET_LE(l->eh, Elf64_Ehdr, e_phoff, s - 8); return s; }
static size_t huge_phoff(uint8_t *d, size_t s, x86_64_layout *l) { (void)d; SET_LE(l->eh, Elf64_Ehdr, e_phoff, UINT64_MAX - 8); return s; }
static size_t small_shent(uint8_t *d, size_t s, x86_64_layout *l) { (void)d; SET_LE(l->eh, Elf64_Ehdr, e_shentsize, 10); return s; }
static size_t huge_shnum(uint8_t *d, size_t s, x86_64_layout *l) { (void)d; SET_LE(l->eh, Elf64_Ehdr, e_shnum, 0xffff); return s; }
static size_t bad_link(uint8_t *d, size_t s, x86_64_layout *l) { (void)d; SET_LE(l->dynsym, Elf64_Shdr, sh_link, 99); return s; }
static size_t link_self(uint8_t *d, size_t s, x86_64_layout *l) { SET_LE(l->dynsym, Elf64_Shdr, sh_link, (uint64_t)(l->dynsym - section(d, 0)) / sizeof(Elf64_Shdr)); return s; }
static size_t huge_dynsym(uint8_t *d, size_t s, x86_64_layout *l) { (void)d; SET_LE(l->dynsym, Elf64_Shdr, sh_size, UINT64_MAX); return s; }
static size_t small_syment(uint8_t *d, size_t s, x86_64_layout *l) { (void)d; SET_LE(l->dynsym, Elf64_Shdr, sh_entsize, 4); return s; }
static size_t unterminated(uint8_t *d, size_t s, x86_64_layout *l) { contents(d, l->dynstr)[LE(l->dynstr, Elf64_Shdr, sh_size) - 1] = 'x'; return s; }
static size_t far_strtab(uint8_t *d, size_t s, x86_64_layout *l) { (void)d; SET_LE(l->dynstr, Elf64_Shdr, sh_offset, s - 2); return s; }
static size_t bad_name(uint8_t *d, size_t s, x86_64_layout *l) { SET_LE(contents(d, l->dynsym) + 3 * sizeof(Elf64_Sym), Elf64_Sym, st_name, 0xffff); return s; }
static size_t bad_versym(uint8_t *d, size_t s, x86_64_layout *l) { pk_test_put_uint(contents(d, l->versym) + 2, 2, 7, false); return s; }
static size_t short_versym(uint8_t *d, size_t s, x86_64_layout *l) { (void)d; SET_LE(l->versym, Elf64_Shdr, sh_size, 4); return s; }
static size_t far_next(uint8_t *d, size_t s, x86_64_layout *l) { SET_LE(contents(d, l->verdef), Elf64_Verdef, vd_next, 0x7fffffff); return s; }
static size_t bad_revision(uint8_t *d, size_t s, x86_64_layout *l) { SET_LE(contents(d, l->verdef), Elf64_Verdef, vd_version, 2); return s; }
static size_t far_aux(uint8_t *d, size_t s, x86_64_layout *l) { SET_LE(contents(d, l->verdef), Elf64_Verdef, vd_aux, 0xfffffff0); return s; }
static size_t long_chain(uint8_t *d, size_t s, x86_64_layout *l)
{
    uint8_t *first = contents(d, l->verdef);
    uint8_t *second = first + LE(first, Elf64_Verdef, vd_next);
    SET_LE(second, Elf64_Verdef, vd_next, 0x1c); /* a third entry past the table */
    SET_LE(l->verdef, Elf64_Shdr, sh_info, 1000);
    return s;
}
static size_t bad_soname(uint8_t *d, size_t s, x86_64_layout *l)
{
    for (uint8_t *dyn = contents(d, l->dynamic); LE(dyn, Elf64_Dyn, d_tag) != DT_NULL; dyn += sizeof(Elf64_Dyn))
        if (LE(dyn, Elf64_Dyn, d_tag) == DT_SONAME)
            SET_LE(dyn, Elf64_Dyn, d_un.d_val, 0xffffff);
    return s;
}

static const damage damages[] = {
    {"cut to 10 bytes", cut_to_10, "image too small for an ELF header"},
    {"cut to 40 bytes", cut_to_40, "image too small for an ELF header"},
    {"cut before the section headers", cut_to_4096, "section header table beyond end of image"},
    {"bad magic", bad_magic, "not an ELF file (bad magic)"},
    {"bad class", bad_class, "unknown ELF class"},
    {"bad byte order", bad_order, "unknown ELF byte order"},
    {"ET_EXEC", exec_type, "not a shared object (e_type is not ET_DYN)"},
    {"no program headers", no_phdrs, "no program headers"},
    {"phentsize 8", small_phent, "program header entry size too small"},
    {"phoff near the end", far_phoff, "program header table beyond end of image"},
    {"phoff near 2^64", huge_phoff, "program header table beyond end of image"},
    {"shentsize 10", small_shent, "section header entry size too small"},
    {"shnum 0xffff", huge_shnum, "section header table beyond end of image"},
    {"dynsym sh_link 99", bad_link, "string table link out of range"},
    {"dynsym linked to itself", link_self, "linked section is not a string table"},
    {"dynsym sh_size 2^64-1", huge_dynsym, "dynamic symbol table beyond end of image"},
    {"dynsym entsize 4", small_syment, "dynamic symbol table entry size too small"},
    {"dynstr without NUL", unterminated, "string table is not NUL-terminated"},
    {"dynstr at the end", far_strtab, "string table beyond end of image"},
    {"st_name 0xffff", bad_name, "symbol name offset beyond string table"},
    {"versym index 7", bad_versym, "symbol version index has no version definition"},
    {"versym 4 bytes", short_versym, "version symbol table smaller than symbol table"},
    {"vd_next far", far_next, "version definition chain beyond end of table"},
    {"vd_version 2", bad_revision, "unknown version definition revision"},
    {"vd_aux far", far_aux, "version definition name beyond end of table"},
    {"chain past the table", long_chain, "version definition beyond end of table"},
    {"DT_SONAME far", bad_soname, "soname offset beyond string table"},
};

static void test_damage_messages(void)
{
    size_t size;
    uint8_t *pristine = load("x86_64.so", &size);
    for (size_t i = 0; i < sizeof damages / sizeof damages[0]; i++) {
        uint8_t *data = malloc(size);
        memcpy(data, pristine, size);
        x86_64_layout l = locate(data);
        size_t new_size = damages[i].apply(data, size, &l);
        /* An exact-size copy, so the sanitizers catch any read past the end. */
        uint8_t *exact = malloc(new_size);
        memcpy(exact, data, new_size);
        pk_vdso_image img;
        const char *err = NULL;
        int rc = pk_vdso_parse(exact, new_size, 0, &img, &err);
        if (rc != -1 || !err || strcmp(err, damages[i].message) != 0)
            fprintf(stderr, "%s: got %s, want %s\n", damages[i].what, rc ? err : "success", damages[i].message);
        CHECK(rc == -1 && err && !strcmp(err, damages[i].message));
        free(exact);
        free(data);
    }
    free(pristine);
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: test_vdso_elf DATA_DIR\n");
        return 2;
    }
    data_dir = argv[1];
    test_images_match_readelf();
    test_images_without_section_headers();
    test_gnu_hash_count();
    test_find_symbol();
    test_names();
    test_damage_messages();
    return TEST_EXIT();
}
