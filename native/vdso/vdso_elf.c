/* The vDSO image parser (vdso_elf.h). Parsing is a fixed list of steps over
 * a parse_state; each step checks what it reads and returns a static message
 * on the first problem. Field positions are tables per ELF class, integers
 * are read byte by byte in the image's byte order, so the host's own
 * alignment and endianness never matter. */
#include "vdso_elf.h"

#include <elf.h>
#include <string.h>

#ifndef EM_LOONGARCH
#define EM_LOONGARCH 258
#endif
#ifndef STB_GNU_UNIQUE
#define STB_GNU_UNIQUE 10
#endif

#define VERSYM_HIDDEN 0x8000u
#define VERSYM_INDEX 0x7fffu
#define VERDEF_SIZE 20u  /* Elf32_Verdef and Elf64_Verdef are the same */
#define VERDAUX_SIZE 8u

/* ---- checked arithmetic ----------------------------------------------- */

/* [off, off + len) lies inside [0, size), written so nothing can overflow. */
static bool range_ok(uint64_t size, uint64_t off, uint64_t len)
{
    return off <= size && len <= size - off;
}

/* count entries of entsize bytes fit at off, without computing count * entsize. */
static bool table_ok(uint64_t size, uint64_t off, uint64_t count, uint64_t entsize)
{
    if (off > size)
        return false;
    if (entsize == 0)
        return count == 0;
    return count <= (size - off) / entsize;
}

/* ---- integers in the image's byte order (callers checked the range) ---- */

static uint64_t read_uint(const pk_vdso_image *img, uint64_t off, unsigned width)
{
    const uint8_t *p = img->data + off;
    uint64_t v = 0;
    for (unsigned i = 0; i < width; i++) {
        unsigned shift = img->big_endian ? 8 * (width - 1 - i) : 8 * i;
        v |= (uint64_t)p[i] << shift;
    }
    return v;
}

static uint16_t u16(const pk_vdso_image *img, uint64_t off) { return (uint16_t)read_uint(img, off, 2); }
static uint32_t u32(const pk_vdso_image *img, uint64_t off) { return (uint32_t)read_uint(img, off, 4); }
/* ElfN_Addr, ElfN_Off, ElfN_Xword, ElfN_Sxword: one word of the class. */
static uint64_t word(const pk_vdso_image *img, uint64_t off) { return read_uint(img, off, img->elf_class == 64 ? 8 : 4); }

/* ---- where the fields sit: [0] ELFCLASS32, [1] ELFCLASS64 -------------- */

static const struct { uint8_t size, phoff, shoff, phentsize, phnum, shentsize, shnum; } EHDR[2] = {
    {52, 28, 32, 42, 44, 46, 48},
    {64, 32, 40, 54, 56, 58, 60},
};
static const struct { uint8_t size, type, offset, vaddr, filesz; } PHDR[2] = {
    {32, 0, 4, 8, 16},
    {56, 0, 8, 16, 32},
};
static const struct { uint8_t size, type, offset, bytes, link, info, entsize; } SHDR[2] = {
    {40, 4, 16, 20, 24, 28, 36},
    {64, 4, 24, 32, 40, 44, 56},
};
static const struct { uint8_t size, name, value, bytes, info, other, shndx; } SYM[2] = {
    {16, 0, 4, 8, 12, 13, 14},
    {24, 0, 8, 16, 4, 5, 6},
};
static const struct { uint8_t size, tag, val; } DYN[2] = {
    {8, 0, 4},
    {16, 0, 8},
};

static int cls(const pk_vdso_image *img) { return img->elf_class == 64; }

/* ---- decoded records -------------------------------------------------- */

typedef struct phdr { uint32_t type; uint64_t offset, vaddr, filesz; } phdr;
typedef struct shdr { uint32_t type, link, info; uint64_t offset, bytes, entsize; } shdr;
typedef struct raw_sym { uint32_t name; uint8_t info, other; uint16_t shndx; uint64_t value, bytes; } raw_sym;

/* The dynamic entries the parser uses, as rows. */
enum { D_SONAME, D_STRTAB, D_STRSZ, D_SYMTAB, D_SYMENT, D_HASH, D_GNU_HASH, D_VERSYM, D_VERDEF, D_VERDEFNUM, D_COUNT };
static const uint64_t dyn_tags[D_COUNT] = {
    DT_SONAME, DT_STRTAB, DT_STRSZ, DT_SYMTAB, DT_SYMENT, DT_HASH,
    DT_GNU_HASH, DT_VERSYM, DT_VERDEF, DT_VERDEFNUM,
};

typedef struct parse_state {
    pk_vdso_image *img;
    uint64_t phoff, shoff;
    uint16_t phentsize, phnum, shentsize, shnum;
    bool has_dynamic;
    uint64_t dyn_off, dyn_size;
    bool dyn_has[D_COUNT];
    uint64_t dyn_val[D_COUNT];
    bool has_verdef;
    uint64_t verdef_off, verdef_end, verdef_count;
    uint64_t verdef_str_off, verdef_str_size;
} parse_state;

static phdr read_phdr(const parse_state *st, uint16_t i)
{
    const pk_vdso_image *img = st->img;
    uint64_t at = st->phoff + (uint64_t)i * st->phentsize;
    int c = cls(img);
    return (phdr){u32(img, at + PHDR[c].type), word(img, at + PHDR[c].offset),
                  word(img, at + PHDR[c].vaddr), word(img, at + PHDR[c].filesz)};
}

static shdr read_shdr(const parse_state *st, uint16_t i)
{
    const pk_vdso_image *img = st->img;
    uint64_t at = st->shoff + (uint64_t)i * st->shentsize;
    int c = cls(img);
    return (shdr){u32(img, at + SHDR[c].type), u32(img, at + SHDR[c].link), u32(img, at + SHDR[c].info),
                  word(img, at + SHDR[c].offset), word(img, at + SHDR[c].bytes),
                  word(img, at + SHDR[c].entsize)};
}

static raw_sym read_sym(const pk_vdso_image *img, uint64_t i)
{
    uint64_t at = img->tables.sym_off + i * img->tables.sym_entsize;
    int c = cls(img);
    return (raw_sym){u32(img, at + SYM[c].name), img->data[at + SYM[c].info], img->data[at + SYM[c].other],
                     u16(img, at + SYM[c].shndx), word(img, at + SYM[c].value), word(img, at + SYM[c].bytes)};
}

/* A string table is usable when it lies in the image and ends in NUL: then
 * any offset below its size starts a string that ends inside it. */
static const char *check_strtab(const pk_vdso_image *img, uint64_t off, uint64_t size)
{
    if (!range_ok(img->size, off, size))
        return "string table beyond end of image";
    if (size == 0 || img->data[off + size - 1] != '\0')
        return "string table is not NUL-terminated";
    return NULL;
}

/* Translates a link-time address (what PT_DYNAMIC holds) into a file offset
 * through the PT_LOAD segment that contains [vaddr, vaddr + len). */
static bool vaddr_to_offset(const parse_state *st, uint64_t vaddr, uint64_t len, uint64_t *off)
{
    for (uint16_t i = 0; i < st->phnum; i++) {
        phdr ph = read_phdr(st, i);
        if (ph.type != PT_LOAD || vaddr < ph.vaddr)
            continue;
        uint64_t delta = vaddr - ph.vaddr;
        if (!range_ok(ph.filesz, delta, len) || !range_ok(st->img->size, ph.offset, delta))
            continue;
        if (!range_ok(st->img->size, ph.offset + delta, len))
            continue;
        *off = ph.offset + delta;
        return true;
    }
    return false;
}

/* ---- parse steps ------------------------------------------------------- */

static const char *read_header(parse_state *st)
{
    pk_vdso_image *img = st->img;
    if (img->size < EI_NIDENT)
        return "image too small for an ELF header";
    if (memcmp(img->data, ELFMAG, SELFMAG) != 0)
        return "not an ELF file (bad magic)";
    switch (img->data[EI_CLASS]) {
    case ELFCLASS32: img->elf_class = 32; break;
    case ELFCLASS64: img->elf_class = 64; break;
    default: return "unknown ELF class";
    }
    switch (img->data[EI_DATA]) {
    case ELFDATA2LSB: img->big_endian = false; break;
    case ELFDATA2MSB: img->big_endian = true; break;
    default: return "unknown ELF byte order";
    }
    if (img->data[EI_VERSION] != EV_CURRENT)
        return "unknown ELF version";
    int c = cls(img);
    if (img->size < EHDR[c].size)
        return "image too small for an ELF header";
    if (u16(img, 16) != ET_DYN) /* e_type */
        return "not a shared object (e_type is not ET_DYN)";
    img->machine = u16(img, 18);
    st->phoff = word(img, EHDR[c].phoff);
    st->shoff = word(img, EHDR[c].shoff);
    st->phentsize = u16(img, EHDR[c].phentsize);
    st->phnum = u16(img, EHDR[c].phnum);
    st->shentsize = u16(img, EHDR[c].shentsize);
    st->shnum = u16(img, EHDR[c].shnum);
    return NULL;
}

static const char *read_program_headers(parse_state *st)
{
    pk_vdso_image *img = st->img;
    if (st->phoff == 0 || st->phnum == 0)
        return "no program headers";
    if (st->phentsize < PHDR[cls(img)].size)
        return "program header entry size too small";
    if (!table_ok(img->size, st->phoff, st->phnum, st->phentsize))
        return "program header table beyond end of image";
    bool has_load = false;
    for (uint16_t i = 0; i < st->phnum; i++) {
        phdr ph = read_phdr(st, i);
        if (ph.type == PT_LOAD && !has_load) {
            has_load = true;
            img->load_vaddr = ph.vaddr;
        } else if (ph.type == PT_DYNAMIC && !st->has_dynamic) {
            if (!range_ok(img->size, ph.offset, ph.filesz))
                return "dynamic segment beyond end of image";
            st->has_dynamic = true;
            st->dyn_off = ph.offset;
            st->dyn_size = ph.filesz;
        }
    }
    return has_load ? NULL : "no PT_LOAD segment";
}

static const char *read_dynamic(parse_state *st)
{
    const pk_vdso_image *img = st->img;
    if (!st->has_dynamic)
        return NULL;
    int c = cls(img);
    uint64_t count = st->dyn_size / DYN[c].size;
    for (uint64_t i = 0; i < count; i++) {
        uint64_t at = st->dyn_off + i * DYN[c].size;
        uint64_t tag = word(img, at + DYN[c].tag);
        if (tag == DT_NULL)
            break;
        for (int d = 0; d < D_COUNT; d++) {
            if (tag == dyn_tags[d] && !st->dyn_has[d]) {
                st->dyn_has[d] = true;
                st->dyn_val[d] = word(img, at + DYN[c].val);
            }
        }
    }
    return NULL;
}

/* The string table a section links to (sh_link). */
static const char *linked_strtab(const parse_state *st, uint32_t link, uint64_t *off, uint64_t *size)
{
    if (link == 0 || link >= st->shnum)
        return "string table link out of range";
    shdr sh = read_shdr(st, (uint16_t)link);
    if (sh.type != SHT_STRTAB)
        return "linked section is not a string table";
    *off = sh.offset;
    *size = sh.bytes;
    return check_strtab(st->img, sh.offset, sh.bytes);
}

static const char *use_dynsym_section(parse_state *st, const shdr *sh)
{
    pk_vdso_image *img = st->img;
    uint64_t entsize = sh->entsize ? sh->entsize : SYM[cls(img)].size;
    if (entsize < SYM[cls(img)].size)
        return "dynamic symbol table entry size too small";
    if (!range_ok(img->size, sh->offset, sh->bytes))
        return "dynamic symbol table beyond end of image";
    img->tables.sym_off = sh->offset;
    img->tables.sym_entsize = entsize;
    img->tables.sym_count = sh->bytes / entsize;
    return linked_strtab(st, sh->link, &img->tables.str_off, &img->tables.str_size);
}

static const char *use_versym_section(parse_state *st, const shdr *sh)
{
    pk_vdso_image *img = st->img;
    if (!range_ok(img->size, sh->offset, sh->bytes))
        return "version symbol table beyond end of image";
    if (sh->bytes / 2 < img->tables.sym_count)
        return "version symbol table smaller than symbol table";
    img->tables.has_versym = true;
    img->tables.versym_off = sh->offset;
    return NULL;
}

static const char *use_verdef_section(parse_state *st, const shdr *sh)
{
    if (!range_ok(st->img->size, sh->offset, sh->bytes))
        return "version definition table beyond end of image";
    st->has_verdef = true;
    st->verdef_off = sh->offset;
    st->verdef_end = sh->offset + sh->bytes;
    st->verdef_count = sh->info;
    return linked_strtab(st, sh->link, &st->verdef_str_off, &st->verdef_str_size);
}

/* Section headers, when present, say exactly where .dynsym, its strings and
 * the version tables are. *found is false when there is no SHT_DYNSYM. */
static const char *tables_from_sections(parse_state *st, bool *found)
{
    pk_vdso_image *img = st->img;
    *found = false;
    if (st->shoff == 0 || st->shnum == 0)
        return NULL;
    if (st->shentsize < SHDR[cls(img)].size)
        return "section header entry size too small";
    if (!table_ok(img->size, st->shoff, st->shnum, st->shentsize))
        return "section header table beyond end of image";
    uint16_t versym = 0, verdef = 0;
    for (uint16_t i = 1; i < st->shnum; i++) {
        shdr sh = read_shdr(st, i);
        if (sh.type == SHT_DYNSYM && !*found) {
            const char *err = use_dynsym_section(st, &sh);
            if (err)
                return err;
            *found = true;
        } else if (sh.type == SHT_GNU_versym && !versym) {
            versym = i;
        } else if (sh.type == SHT_GNU_verdef && !verdef) {
            verdef = i;
        }
    }
    if (!*found)
        return NULL;
    img->from_sections = true;
    const char *err = NULL;
    if (versym) {
        shdr sh = read_shdr(st, versym);
        err = use_versym_section(st, &sh);
    }
    if (!err && verdef) {
        shdr sh = read_shdr(st, verdef);
        err = use_verdef_section(st, &sh);
    }
    return err;
}

/* DT_GNU_HASH holds no count: the last symbol is the end of the chain that
 * starts at the highest bucket. Every step moves forward inside the image. */
static const char *count_from_gnu_hash(const parse_state *st, uint64_t off, uint64_t *count)
{
    const pk_vdso_image *img = st->img;
    if (!range_ok(img->size, off, 16))
        return "GNU hash table beyond end of image";
    uint32_t nbuckets = u32(img, off), symoffset = u32(img, off + 4), bloom_words = u32(img, off + 8);
    uint64_t word_size = img->elf_class == 64 ? 8 : 4;
    uint64_t buckets = off + 16;
    if (!table_ok(img->size, buckets, bloom_words, word_size))
        return "GNU hash table beyond end of image";
    buckets += bloom_words * word_size;
    if (!table_ok(img->size, buckets, nbuckets, 4))
        return "GNU hash table beyond end of image";
    uint64_t chains = buckets + (uint64_t)nbuckets * 4;
    uint32_t last = 0;
    for (uint32_t i = 0; i < nbuckets; i++) {
        uint32_t b = u32(img, buckets + (uint64_t)i * 4);
        if (b > last)
            last = b;
    }
    if (last == 0) {
        *count = symoffset;
        return NULL;
    }
    if (last < symoffset)
        return "GNU hash bucket below its first hashed symbol";
    for (uint64_t idx = last;; idx++) {
        uint64_t at = chains + (idx - symoffset) * 4;
        if (!range_ok(img->size, at, 4))
            return "GNU hash chain runs beyond end of image";
        if (u32(img, at) & 1) {
            *count = idx + 1;
            return NULL;
        }
    }
}

static const char *count_from_hash(const parse_state *st, uint64_t *count)
{
    uint64_t off;
    if (st->dyn_has[D_HASH]) {
        if (!vaddr_to_offset(st, st->dyn_val[D_HASH], 8, &off))
            return "hash table beyond end of image";
        *count = u32(st->img, off + 4); /* nchain */
        return NULL;
    }
    if (st->dyn_has[D_GNU_HASH]) {
        if (!vaddr_to_offset(st, st->dyn_val[D_GNU_HASH], 0, &off))
            return "GNU hash table beyond end of image";
        return count_from_gnu_hash(st, off, count);
    }
    return "no symbol count: neither section headers nor DT_HASH or DT_GNU_HASH";
}

/* Without section headers (as the dynamic loader sees it): PT_DYNAMIC. */
static const char *tables_from_dynamic(parse_state *st)
{
    pk_vdso_image *img = st->img;
    if (!st->has_dynamic)
        return "no dynamic symbol table (no SHT_DYNSYM section, no PT_DYNAMIC segment)";
    if (!st->dyn_has[D_SYMTAB] || !st->dyn_has[D_STRTAB] || !st->dyn_has[D_STRSZ])
        return "dynamic segment lacks DT_SYMTAB, DT_STRTAB or DT_STRSZ";
    uint64_t off;
    if (!vaddr_to_offset(st, st->dyn_val[D_STRTAB], st->dyn_val[D_STRSZ], &off))
        return "string table beyond end of image";
    const char *err = check_strtab(img, off, st->dyn_val[D_STRSZ]);
    if (err)
        return err;
    img->tables.str_off = off;
    img->tables.str_size = st->dyn_val[D_STRSZ];

    uint64_t entsize = st->dyn_has[D_SYMENT] ? st->dyn_val[D_SYMENT] : SYM[cls(img)].size;
    if (entsize < SYM[cls(img)].size)
        return "dynamic symbol table entry size too small";
    uint64_t count;
    if ((err = count_from_hash(st, &count)))
        return err;
    if (count > img->size / entsize || !vaddr_to_offset(st, st->dyn_val[D_SYMTAB], count * entsize, &off))
        return "dynamic symbol table beyond end of image";
    img->tables.sym_off = off;
    img->tables.sym_entsize = entsize;
    img->tables.sym_count = count;

    if (st->dyn_has[D_VERSYM]) {
        if (!vaddr_to_offset(st, st->dyn_val[D_VERSYM], count * 2, &off))
            return "version symbol table beyond end of image";
        img->tables.has_versym = true;
        img->tables.versym_off = off;
    }
    if (st->dyn_has[D_VERDEF]) {
        if (!vaddr_to_offset(st, st->dyn_val[D_VERDEF], VERDEF_SIZE, &off))
            return "version definition table beyond end of image";
        st->has_verdef = true;
        st->verdef_off = off;
        st->verdef_end = img->size;
        /* Without DT_VERDEFNUM the chain's own end bounds the walk. */
        st->verdef_count = st->dyn_has[D_VERDEFNUM] ? st->dyn_val[D_VERDEFNUM] : PK_VDSO_MAX_VERSIONS + 1;
        st->verdef_str_off = img->tables.str_off;
        st->verdef_str_size = img->tables.str_size;
    }
    return NULL;
}

static const char *find_tables(parse_state *st)
{
    bool found;
    const char *err = tables_from_sections(st, &found);
    if (err || found)
        return err;
    return tables_from_dynamic(st);
}

static const char *read_soname(parse_state *st)
{
    pk_vdso_image *img = st->img;
    if (!st->dyn_has[D_SONAME])
        return NULL;
    if (st->dyn_val[D_SONAME] >= img->tables.str_size)
        return "soname offset beyond string table";
    img->soname = (const char *)img->data + img->tables.str_off + st->dyn_val[D_SONAME];
    return NULL;
}

/* Walks the Verdef chain. vd_next only moves forward and the walk is bounded
 * by the entry count and the table's end, so a corrupt chain cannot loop. */
static const char *read_version_definitions(parse_state *st)
{
    pk_vdso_image *img = st->img;
    if (!st->has_verdef)
        return NULL;
    uint64_t off = st->verdef_off, end = st->verdef_end;
    for (uint64_t i = 0; i < st->verdef_count; i++) {
        if (img->tables.nversions == PK_VDSO_MAX_VERSIONS)
            return "too many version definitions";
        if (!range_ok(end, off, VERDEF_SIZE))
            return "version definition beyond end of table";
        if (u16(img, off) != VER_DEF_CURRENT)
            return "unknown version definition revision";
        uint16_t index = u16(img, off + 4), naux = u16(img, off + 6);
        uint32_t aux = u32(img, off + 12), next = u32(img, off + 16);
        if (naux == 0)
            return "version definition without a name";
        if (!range_ok(end, off, aux) || !range_ok(end, off + aux, VERDAUX_SIZE))
            return "version definition name beyond end of table";
        uint32_t name = u32(img, off + aux);
        if (name >= st->verdef_str_size)
            return "version name offset beyond string table";
        img->tables.versions[img->tables.nversions++] =
            (pk_vdso_version){index, (const char *)img->data + st->verdef_str_off + name};
        if (next == 0)
            break;
        if (!range_ok(end, off, next))
            return "version definition chain beyond end of table";
        off += next;
    }
    return NULL;
}

static const pk_vdso_version *find_version(const pk_vdso_image *img, uint16_t index)
{
    for (size_t i = 0; i < img->tables.nversions; i++)
        if (img->tables.versions[i].index == index)
            return &img->tables.versions[i];
    return NULL;
}

static bool is_exported(const raw_sym *s)
{
    uint8_t bind = ELF64_ST_BIND(s->info), visibility = ELF64_ST_VISIBILITY(s->other);
    return s->shndx != SHN_UNDEF && (bind == STB_GLOBAL || bind == STB_WEAK || bind == STB_GNU_UNIQUE) &&
           (visibility == STV_DEFAULT || visibility == STV_PROTECTED);
}

static uint16_t versym_of(const pk_vdso_image *img, uint64_t i)
{
    return img->tables.has_versym ? u16(img, img->tables.versym_off + i * 2) : 1;
}

/* Checks every symbol once so the accessors never meet a bad one. */
static const char *check_symbols(parse_state *st)
{
    pk_vdso_image *img = st->img;
    if (!table_ok(img->size, img->tables.sym_off, img->tables.sym_count, img->tables.sym_entsize))
        return "dynamic symbol table beyond end of image";
    for (uint64_t i = 0; i < img->tables.sym_count; i++) {
        raw_sym s = read_sym(img, i);
        if (s.name >= img->tables.str_size)
            return "symbol name offset beyond string table";
        if (!is_exported(&s))
            continue;
        uint16_t index = versym_of(img, i) & VERSYM_INDEX;
        if (index > VER_NDX_GLOBAL && !find_version(img, index))
            return "symbol version index has no version definition";
        img->exported++;
    }
    return NULL;
}

typedef const char *(*parse_step)(parse_state *st);

static const parse_step parse_steps[] = {
    read_header, read_program_headers, read_dynamic, find_tables,
    read_soname, read_version_definitions, check_symbols,
};

int pk_vdso_parse(const void *data, size_t size, uint64_t base, pk_vdso_image *img, const char **error)
{
    memset(img, 0, sizeof *img);
    img->data = data;
    img->size = size;
    img->base = base;
    parse_state st = {.img = img};
    for (size_t i = 0; i < sizeof parse_steps / sizeof parse_steps[0]; i++) {
        const char *err = parse_steps[i](&st);
        if (err) {
            *error = err;
            return -1;
        }
    }
    return 0;
}

/* end = max(end, off + len), false when that overflows. */
static bool extend(uint64_t *end, uint64_t off, uint64_t len)
{
    if (off > UINT64_MAX - len)
        return false;
    if (off + len > *end)
        *end = off + len;
    return true;
}

int pk_vdso_image_extent(const void *data, size_t available, uint64_t *extent, const char **error)
{
    pk_vdso_image img = {.data = data, .size = available};
    parse_state st = {.img = &img};
    const char *err = read_header(&st);
    if (!err)
        err = read_program_headers(&st);
    uint64_t end = 0;
    if (!err && !extend(&end, st.phoff, (uint64_t)st.phnum * st.phentsize))
        err = "program header table beyond end of address space";
    for (uint16_t i = 0; !err && i < st.phnum; i++) {
        phdr ph = read_phdr(&st, i);
        if (ph.type == PT_LOAD && !extend(&end, ph.offset, ph.filesz))
            err = "PT_LOAD segment beyond end of address space";
    }
    if (!err && st.shoff && !extend(&end, st.shoff, (uint64_t)st.shnum * st.shentsize))
        err = "section header table beyond end of address space";
    if (err) {
        *error = err;
        return -1;
    }
    *extent = end;
    return 0;
}

/* ---- accessors --------------------------------------------------------- */

static void fill_symbol(const pk_vdso_image *img, uint64_t i, const raw_sym *s, pk_vdso_symbol *out)
{
    uint16_t versym = versym_of(img, i);
    const pk_vdso_version *v = find_version(img, versym & VERSYM_INDEX);
    out->name = (const char *)img->data + img->tables.str_off + s->name;
    out->version = (versym & VERSYM_INDEX) > VER_NDX_GLOBAL && v ? v->name : NULL;
    out->hidden = (versym & VERSYM_HIDDEN) != 0;
    out->type = ELF64_ST_TYPE(s->info);
    out->bind = ELF64_ST_BIND(s->info);
    out->shndx = s->shndx;
    out->value = s->value;
    out->size = s->bytes;
    /* Absolute symbols (the version markers) are values, not locations. */
    out->address = s->shndx == SHN_ABS ? s->value : img->base + s->value - img->load_vaddr;
    if (img->elf_class == 32)
        out->address &= UINT32_MAX;
}

bool pk_vdso_next_symbol(const pk_vdso_image *img, size_t *cursor, pk_vdso_symbol *sym)
{
    while (*cursor < img->tables.sym_count) {
        uint64_t i = (*cursor)++;
        raw_sym s = read_sym(img, i);
        if (is_exported(&s)) {
            fill_symbol(img, i, &s, sym);
            return true;
        }
    }
    return false;
}

bool pk_vdso_find_symbol(const pk_vdso_image *img, const char *name, const char *version, pk_vdso_symbol *sym)
{
    bool found_hidden = false;
    pk_vdso_symbol candidate;
    size_t cursor = 0;
    while (pk_vdso_next_symbol(img, &cursor, &candidate)) {
        if (strcmp(candidate.name, name) != 0)
            continue;
        if (version && (!candidate.version || strcmp(candidate.version, version) != 0))
            continue;
        if (!candidate.hidden) {
            *sym = candidate;
            return true;
        }
        if (!found_hidden) {
            *sym = candidate;
            found_hidden = true;
        }
    }
    return found_hidden;
}

/* ---- names ------------------------------------------------------------- */

typedef struct name_row { unsigned value; const char *name; } name_row;

static const char *lookup_name(const name_row *rows, size_t n, unsigned value)
{
    for (size_t i = 0; i < n; i++)
        if (rows[i].value == value)
            return rows[i].name;
    return "unknown";
}

#define LOOKUP(rows, value) lookup_name(rows, sizeof rows / sizeof rows[0], value)

static const name_row machine_names[] = {
    {EM_386, "i386"},       {EM_X86_64, "x86_64"},    {EM_ARM, "arm"},        {EM_AARCH64, "aarch64"},
    {EM_MIPS, "mips"},      {EM_PPC, "ppc"},          {EM_PPC64, "ppc64"},    {EM_S390, "s390"},
    {EM_RISCV, "riscv"},    {EM_LOONGARCH, "loongarch"}, {EM_SPARCV9, "sparc64"}, {EM_SH, "sh"},
    {EM_PARISC, "parisc"},  {EM_IA_64, "ia64"},       {EM_ALPHA, "alpha"},
};
static const name_row type_names[] = {
    {STT_NOTYPE, "NOTYPE"}, {STT_OBJECT, "OBJECT"}, {STT_FUNC, "FUNC"}, {STT_SECTION, "SECTION"},
    {STT_FILE, "FILE"},     {STT_COMMON, "COMMON"}, {STT_TLS, "TLS"},   {STT_GNU_IFUNC, "IFUNC"},
};
static const name_row bind_names[] = {
    {STB_LOCAL, "LOCAL"}, {STB_GLOBAL, "GLOBAL"}, {STB_WEAK, "WEAK"}, {STB_GNU_UNIQUE, "UNIQUE"},
};

const char *pk_vdso_machine_name(uint16_t machine) { return LOOKUP(machine_names, machine); }
const char *pk_vdso_type_name(uint8_t type) { return LOOKUP(type_names, type); }
const char *pk_vdso_bind_name(uint8_t bind) { return LOOKUP(bind_names, bind); }
