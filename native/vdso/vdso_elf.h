/* Bounds-checked reader of a vDSO image: the exported dynamic symbols of an
 * in-memory ELF shared object, with their GNU symbol versions.
 *
 * Works on any ELF class and byte order, so the host can inspect a foreign
 * kernel build's vdso.so / vdso32.so, and on the live vDSO of this process.
 * Nothing here trusts the image: every offset, count and index is checked
 * against the explicit size before it is used, and pk_vdso_parse() checks
 * every symbol up front, so the accessors below cannot fail afterwards.
 * No allocation, no I/O. */
#ifndef PK_VDSO_ELF_H
#define PK_VDSO_ELF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Version definitions a vDSO image may carry (real ones have 2 or 3). */
#define PK_VDSO_MAX_VERSIONS 32

typedef struct pk_vdso_version {
    uint16_t index; /* vd_ndx: what .gnu.version entries refer to */
    const char *name;
} pk_vdso_version;

/* A parsed image. The identity fields are for the caller; `tables` is what
 * the accessors use. Pointers point into the image, which must outlive it. */
typedef struct pk_vdso_image {
    const uint8_t *data;
    uint64_t size;
    uint64_t base;       /* runtime address of the image's first byte (0 for a file) */

    int elf_class;       /* 32 or 64 */
    bool big_endian;
    uint16_t machine;    /* e_machine */
    const char *soname;  /* DT_SONAME, NULL when absent */
    uint64_t load_vaddr; /* p_vaddr of the first PT_LOAD */
    bool from_sections;  /* symbols found via section headers (else via PT_DYNAMIC) */
    size_t exported;     /* number of symbols pk_vdso_next_symbol() yields */

    struct {
        uint64_t sym_off, sym_count, sym_entsize;
        uint64_t str_off, str_size;
        bool has_versym; /* .gnu.version present */
        uint64_t versym_off;
        size_t nversions;
        pk_vdso_version versions[PK_VDSO_MAX_VERSIONS];
    } tables;
} pk_vdso_image;

typedef struct pk_vdso_symbol {
    const char *name;
    const char *version; /* NULL: unversioned */
    bool hidden;         /* only name@version binds to it, not the plain name */
    uint8_t type;        /* STT_* */
    uint8_t bind;        /* STB_* */
    uint16_t shndx;      /* SHN_ABS symbols (version markers) are not relocated */
    uint64_t value;      /* st_value */
    uint64_t size;       /* st_size */
    uint64_t address;    /* runtime address: base + value - load_vaddr */
} pk_vdso_symbol;

/* Parses the image of `size` bytes at `data`, to be found at runtime address
 * `base`. Returns 0, or -1 with *error set to a static message saying what is
 * wrong ("section header table beyond end of image", ...). */
int pk_vdso_parse(const void *data, size_t size, uint64_t base, pk_vdso_image *img,
                  const char **error);

/* How many bytes a trusted image spans according to its own headers: the end
 * of the furthest program header table, PT_LOAD file data or section header
 * table. Only the first `available` bytes are read (the ELF and program
 * headers must lie there). For the live vDSO when /proc is not mounted.
 * Returns 0, or -1 with *error. */
int pk_vdso_image_extent(const void *data, size_t available, uint64_t *extent, const char **error);

/* Iterates the exported defined symbols (global or weak, default or protected
 * visibility) in table order: start with *cursor = 0; false at the end. */
bool pk_vdso_next_symbol(const pk_vdso_image *img, size_t *cursor, pk_vdso_symbol *sym);

/* Finds an exported symbol by name; the default version wins over hidden
 * ones. `version` NULL accepts any version. */
bool pk_vdso_find_symbol(const pk_vdso_image *img, const char *name, const char *version,
                         pk_vdso_symbol *sym);

/* Readable names; "unknown" for values outside the tables. */
const char *pk_vdso_machine_name(uint16_t machine);
const char *pk_vdso_type_name(uint8_t type);
const char *pk_vdso_bind_name(uint8_t bind);

#endif
