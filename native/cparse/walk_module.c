/* portkit._clangwalk: one walk over a translation unit's declarations, in C,
 * for `portkit scan` (src/portkit/cparse/walk.py wraps it).
 *
 * Python reaches libclang through ctypes at a few microseconds a call, and a
 * scan's walk meets every node of a file (a quarter of a million in expat's
 * xmlparse.c) to keep a few thousand: the walk alone took as long as clang's
 * parse. Here the walk and its filters run at libclang's own speed. What is
 * kept: the nodes of the kinds the rules asked for (binary and compound
 * operators by their operator), the implicit conversions between the type
 * kinds they asked for, and every node's parent, for the rules that look up
 * from where they stand (what becomes of a value).
 *
 *   walk(library, tu, tops, kinds, operators, conversions, callees, constants, casts[, literals]) -> Walk
 *     library      the path of the libclang the process has loaded (its
 *                  functions are looked up there, not loaded again)
 *     tu           the translation unit's cursor (the bytes of a CXCursor)
 *     tops         the top-level declarations to walk, CXCursors one after another
 *     kinds        one byte per CXCursorKind below KINDS: 1 = wanted, 2 = wanted
 *                  only where an operand is one of the constants
 *     operators    one byte per CXBinaryOperatorKind below OPERATORS: the
 *                  binary and compound operators wanted of those kinds (1),
 *                  or wanted only where an operand is one of the constants (2)
 *     conversions  CONVERSIONS*CONVERSIONS bytes, [result * CONVERSIONS + value]
 *                  by canonical CXTypeKind: 1 = an implicit conversion wanted
 *     callees      None (every call expression wanted, if its kind is), or
 *                  (names, variadic): only the calls of a function declared
 *                  with one of those names (a tuple of str), or with a
 *                  variadic prototype if variadic; calls through pointers
 *                  are not wanted then. Most of a file's calls are none of
 *                  these, and each handed to Python cost its rules microseconds.
 *     constants    None, or (kinds, values, below): the operands that make a
 *                  node of byte 2 wanted: under implicit conversions and
 *                  parentheses (as strip()), of a wanted kind (as kinds), folding to
 *                  one of values (ints), as folded_children() asks (0xFFFFFFFF
 *                  in a mask: one of sqlite3.c's 25,000 masks and comparisons);
 *                  below: an operand's own operands count too (the 32 of
 *                  `x >> (32 - n)`, of the comparison an if statement tests)
 *     casts        None, or the cast kinds (as kinds) wanted only where a
 *                  pointer is made or unmade: the cast's type, or its
 *                  operand's under implicit conversions, parentheses and
 *                  other casts, is a pointer, an array or a function (most of
 *                  a file's casts are (int), (u8), (i64) of integers)
 *     literals     whether the conversions of an integer literal as written
 *                  are wanted (default 1): most of a unit's conversions are
 *                  `p = 0` and `n = 1` (5,000 of sqlite3.c's 6,100), and no
 *                  type is asked of those that are not
 *   Walk.selected() -> (nodes, parents, tags, operators)   bytes: the kept
 *                  nodes' cursors, their parents' cursors, one tag byte each
 *                  (TAG_KIND: its kind was asked for, TAG_CONVERSION: the
 *                  value of an implicit conversion asked for, whose cursor
 *                  is its parent), one CXBinaryOperatorKind byte each (0: none)
 *   Walk.parent(cursor) -> bytes | None          a walked node's parent
 *   children(library, cursor) -> bytes            a node's children, CXCursors one after another
 *   own_tops(library, tu) -> bytes                the translation unit's top-level
 *                  declarations in the project's own files (not the preprocessor's
 *                  record, not a system header's, not clang's builtins), CXCursors
 *   callee(library, call) -> bytes | None          the function a call expression
 *                  calls (None: a call through a pointer)
 *   cursor_type(library, cursor) -> bytes         a node's CXType
 *   arguments(library, call) -> bytes             a call's arguments, CXCursors
 *   tops_of_kind(library, tu, kind) -> bytes     the translation unit's top-level
 *                  declarations of one CXCursorKind (TYPEDEF_DECL), system headers' too
 *   preorder(library, cursor, kinds) -> bytes     the node and every node below it
 *                  whose kind is wanted (kinds: as walk's), in the order
 *                  cursor.walk_preorder() gives them, CXCursors
 *   strip(library, cursor) -> bytes               the expression under implicit
 *                  conversions and parentheses (an implicit node wider than its
 *                  child, such as va_arg, stays)
 *   expression_at(library, top, first_line, first_column, last_line, last_column)
 *                  -> bytes | None   the innermost node below top whose extent
 *                  is exactly that span (as its expansion's lines and columns),
 *                  going down only through the nodes whose extents hold it
 *   extents(library, cursors) -> bytes            for each of the CXCursors, five
 *                  uint64s: its start's expansion file (libclang's handle),
 *                  line and column, its end's line and column
 *   skipped_lines(library, tu, path) -> bytes     the regions of the file (path: bytes) the
 *                  preprocessor left out, as (first, last) line pairs of uint32s;
 *                  tu: the CXTranslationUnit's address (empty: a file it never read)
 *   folded_children(library, cursor, kinds, values) -> bytes   one byte per
 *                  child of the node: 1 where the child, stripped as strip()
 *                  does, is of a wanted kind (kinds: as walk's) and clang
 *                  folds it to an integer among values (a tuple of ints)
 *
 * Nodes are told apart as Python's scan does (unit.identity): an expression
 * or statement by its kind and clang node (data[1]), anything else by all of
 * its words, since libclang leaves data[0] out on some ways down to a node.
 * Limited C API (stable ABI of Python 3.11). */
#define Py_LIMITED_API 0x030B0000
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <dlfcn.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define KINDS 1024
#define OPERATORS 64
#define CONVERSIONS 256
#define IMPLICIT 100 /* CXCursor_UnexposedExpr: how an implicit conversion shows */
#define FIRST_EXPR 100
#define FIRST_STMT_END 300 /* expressions and statements: known by their clang node */
#define EXPR_END 200
#define BINARY_OPERATOR 114
#define COMPOUND_ASSIGNMENT 115
#define CALL_EXPR 103
#define INTEGER_LITERAL 106
#define FUNCTION_DECL 8
#define FUNCTION_PROTO 111 /* CXType_FunctionProto */
#define TAG_KIND 1
#define TAG_CONVERSION 2

/* libclang's types, as its C API has them since LLVM 3 (clang-c/Index.h). */
typedef struct {
    int kind;
    int xdata;
    const void *data[3];
} Cursor;
typedef struct {
    int kind;
    void *data[2];
} Type;
typedef struct {
    const void *ptr_data[2];
    unsigned int_data;
} Location;
typedef struct {
    const void *ptr_data[2];
    unsigned begin_int_data, end_int_data;
} Range;
typedef struct {
    const void *data;
    unsigned private_flags;
} String;
typedef int (*Visitor)(Cursor, Cursor, void *);

static struct {
    int ready;
    unsigned (*visit_children)(Cursor, Visitor, void *);
    Type (*cursor_type)(Cursor);
    Type (*canonical_type)(Type);
    int (*binary_operator_kind)(Cursor);
    Location (*cursor_location)(Cursor);
    int (*in_system_header)(Location);
    void (*expansion_location)(Location, void **, unsigned *, unsigned *, unsigned *);
    Range (*cursor_extent)(Cursor);
    unsigned (*equal_ranges)(Range, Range);
    Cursor (*referenced)(Cursor);
    int (*argument_count)(Cursor);
    Cursor (*argument)(Cursor, unsigned);
    Location (*range_start)(Range);
    Location (*range_end)(Range);
    void *(*get_file)(void *, const char *);
    void *(*skipped_ranges)(void *, void *);
    void (*dispose_ranges)(void *);
    void *(*evaluate)(Cursor);
    int (*eval_kind)(void *);
    long long (*eval_as_long_long)(void *);
    void (*eval_dispose)(void *);
    String (*spelling)(Cursor);
    const char *(*c_string)(String);
    void (*dispose_string)(String);
    unsigned (*type_variadic)(Type);
} clang;

static int load(const char *library)
{
    if (clang.ready)
        return 0;
    void *handle = dlopen(library, RTLD_NOW | RTLD_NOLOAD);
    if (!handle)
        handle = dlopen(library, RTLD_NOW);
    if (!handle) {
        PyErr_Format(PyExc_OSError, "cannot open libclang %s: %s", library, dlerror());
        return -1;
    }
    *(void **)&clang.visit_children = dlsym(handle, "clang_visitChildren");
    *(void **)&clang.cursor_type = dlsym(handle, "clang_getCursorType");
    *(void **)&clang.canonical_type = dlsym(handle, "clang_getCanonicalType");
    *(void **)&clang.binary_operator_kind = dlsym(handle, "clang_getCursorBinaryOperatorKind");
    *(void **)&clang.cursor_location = dlsym(handle, "clang_getCursorLocation");
    *(void **)&clang.in_system_header = dlsym(handle, "clang_Location_isInSystemHeader");
    *(void **)&clang.expansion_location = dlsym(handle, "clang_getExpansionLocation");
    *(void **)&clang.cursor_extent = dlsym(handle, "clang_getCursorExtent");
    *(void **)&clang.equal_ranges = dlsym(handle, "clang_equalRanges");
    *(void **)&clang.referenced = dlsym(handle, "clang_getCursorReferenced");
    *(void **)&clang.argument_count = dlsym(handle, "clang_Cursor_getNumArguments");
    *(void **)&clang.argument = dlsym(handle, "clang_Cursor_getArgument");
    *(void **)&clang.range_start = dlsym(handle, "clang_getRangeStart");
    *(void **)&clang.range_end = dlsym(handle, "clang_getRangeEnd");
    *(void **)&clang.get_file = dlsym(handle, "clang_getFile");
    *(void **)&clang.skipped_ranges = dlsym(handle, "clang_getSkippedRanges");
    *(void **)&clang.dispose_ranges = dlsym(handle, "clang_disposeSourceRangeList");
    *(void **)&clang.evaluate = dlsym(handle, "clang_Cursor_Evaluate");
    *(void **)&clang.eval_kind = dlsym(handle, "clang_EvalResult_getKind");
    *(void **)&clang.eval_as_long_long = dlsym(handle, "clang_EvalResult_getAsLongLong");
    *(void **)&clang.eval_dispose = dlsym(handle, "clang_EvalResult_dispose");
    *(void **)&clang.spelling = dlsym(handle, "clang_getCursorSpelling");
    *(void **)&clang.c_string = dlsym(handle, "clang_getCString");
    *(void **)&clang.dispose_string = dlsym(handle, "clang_disposeString");
    *(void **)&clang.type_variadic = dlsym(handle, "clang_isFunctionTypeVariadic");
    if (!clang.visit_children || !clang.cursor_type || !clang.canonical_type || !clang.binary_operator_kind ||
        !clang.referenced || !clang.argument_count || !clang.argument || !clang.cursor_location || !clang.in_system_header || !clang.expansion_location || !clang.cursor_extent ||
        !clang.equal_ranges || !clang.range_start || !clang.range_end || !clang.get_file || !clang.skipped_ranges || !clang.dispose_ranges || !clang.evaluate || !clang.eval_kind || !clang.eval_as_long_long || !clang.eval_dispose ||
        !clang.spelling || !clang.c_string || !clang.dispose_string || !clang.type_variadic) {
        PyErr_Format(PyExc_OSError, "libclang %s lacks a function the walk needs", library);
        return -1;
    }
    clang.ready = 1;
    return 0;
}

/* ------------------------------------------------------------------ nodes */

typedef struct {
    Cursor *cursors;
    int32_t *parents; /* index of each node's parent, -1 for the translation unit's */
    size_t count, capacity;
    int32_t *table; /* open addressing: node index + 1, 0 empty; made when first asked (locate) */
    size_t slots;   /* a power of two */
    size_t indexed; /* the nodes [0, indexed) are in the table */
    int32_t *kept;  /* the selected nodes' indexes */
    uint8_t *tags;
    uint8_t *operators; /* their CXBinaryOperatorKind, 0 for other kinds */
    size_t kept_count, kept_capacity;
    int failed; /* out of memory: the walk stops */
} Nodes;

static int identity_by_node(const Cursor *c)
{
    return c->kind >= FIRST_EXPR && c->kind < FIRST_STMT_END;
}

static uint64_t hash(const Cursor *c)
{
    uint64_t h = (uint64_t)(uint32_t)c->kind * 0x9E3779B97F4A7C15ull ^ (uint64_t)(uint32_t)c->xdata;
    h ^= (uint64_t)(uintptr_t)c->data[1] * 0xC2B2AE3D27D4EB4Full;
    if (!identity_by_node(c))
        h ^= (uint64_t)(uintptr_t)c->data[0] * 0x165667B19E3779F9ull ^ (uint64_t)(uintptr_t)c->data[2];
    return h ^ (h >> 29);
}

static int same(const Cursor *a, const Cursor *b)
{
    if (a->kind != b->kind || a->xdata != b->xdata || a->data[1] != b->data[1])
        return 0;
    return identity_by_node(a) || (a->data[0] == b->data[0] && a->data[2] == b->data[2]);
}

static int32_t find_indexed(const Nodes *n, const Cursor *c)
{
    if (!n->slots)
        return -1;
    for (size_t i = hash(c) & (n->slots - 1);; i = (i + 1) & (n->slots - 1)) {
        int32_t at = n->table[i];
        if (!at)
            return -1;
        if (same(&n->cursors[at - 1], c))
            return at - 1;
    }
}

static void insert(int32_t *table, size_t slots, const Cursor *c, size_t k)
{
    size_t i = hash(c) & (slots - 1);
    while (table[i])
        i = (i + 1) & (slots - 1);
    table[i] = (int32_t)k + 1;
}

/* The table made to hold every node added so far: the walk itself finds a
 * node's parent on its path down, so the table is made only when a node is
 * looked up (Walk.parent), once per walk and process. */
static int index_nodes(Nodes *n)
{
    if (n->indexed == n->count)
        return 0;
    size_t slots = n->slots ? n->slots : 8192;
    while (2 * n->count > slots)
        slots *= 2;
    if (slots != n->slots) {
        int32_t *table = calloc(slots, sizeof *table);
        if (!table)
            return -1;
        for (size_t k = 0; k < n->indexed; k++)
            insert(table, slots, &n->cursors[k], k);
        free(n->table);
        n->table = table;
        n->slots = slots;
    }
    for (size_t k = n->indexed; k < n->count; k++)
        insert(n->table, n->slots, &n->cursors[k], k);
    n->indexed = n->count;
    return 0;
}

/* The index of a node added before, -1 if none is that node, -2 out of memory. */
static int32_t locate(Nodes *n, const Cursor *c)
{
    return index_nodes(n) != 0 ? -2 : find_indexed(n, c);
}

static int32_t add(Nodes *n, const Cursor *c, int32_t parent)
{
    if (n->count == n->capacity) {
        size_t capacity = n->capacity ? 2 * n->capacity : 4096;
        Cursor *cursors = realloc(n->cursors, capacity * sizeof *cursors);
        if (!cursors)
            return -1;
        n->cursors = cursors;
        int32_t *parents = realloc(n->parents, capacity * sizeof *parents);
        if (!parents)
            return -1;
        n->parents = parents;
        n->capacity = capacity;
    }
    size_t at = n->count++;
    n->cursors[at] = *c;
    n->parents[at] = parent;
    return (int32_t)at;
}

static int keep(Nodes *n, int32_t index, uint8_t tag, uint8_t operator)
{
    if (n->kept_count == n->kept_capacity) {
        size_t capacity = n->kept_capacity ? 2 * n->kept_capacity : 1024;
        int32_t *kept = realloc(n->kept, capacity * sizeof *kept);
        if (!kept)
            return -1;
        n->kept = kept;
        uint8_t *tags = realloc(n->tags, capacity);
        if (!tags)
            return -1;
        n->tags = tags;
        uint8_t *operators = realloc(n->operators, capacity);
        if (!operators)
            return -1;
        n->operators = operators;
        n->kept_capacity = capacity;
    }
    n->kept[n->kept_count] = index;
    n->operators[n->kept_count] = operator;
    n->tags[n->kept_count++] = tag;
    return 0;
}

static void release(Nodes *n)
{
    free(n->cursors);
    free(n->parents);
    free(n->table);
    free(n->kept);
    free(n->tags);
    free(n->operators);
    memset(n, 0, sizeof *n);
}

/* ------------------------------------------------------------------ the walk */

typedef struct {
    int all;             /* every call wanted: no filter */
    int variadic;        /* calls of variadic functions wanted */
    const char **names;  /* the names of the functions whose calls are wanted, sorted */
    size_t count;
} Callees;

typedef struct {
    const uint8_t *kinds; /* NULL: no node waits for a constant */
    long long *values;
    Py_ssize_t count;
    int below; /* an operand's operands count too */
} Constants;

typedef struct {
    Nodes *nodes;
    const uint8_t *kinds, *operators, *conversions;
    int32_t *path; /* the nodes from the translation unit down to the one visited last */
    size_t depth, path_capacity;
    const Callees *callees;
    const Constants *constants;
    const uint8_t *pointer_casts; /* NULL: every cast of the kinds wanted */
    int literals;                 /* the conversions of integer literals wanted */
} Walk;

static int pointer_cast(const uint8_t *cast_kinds, Cursor cast);

static int has_constant_operand(const Constants *constants, Cursor node, int below);
static int integers_from(PyObject *tuple, long long **values, Py_ssize_t *count);

static int by_name(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Whether a call expression calls a function the callees name, or a variadic one. */
static int call_wanted(const Callees *callees, Cursor call)
{
    if (callees->all)
        return 1;
    Cursor called = clang.referenced(call);
    if (called.kind != FUNCTION_DECL)
        return 0; /* through a pointer: no function's facts to ask */
    if (callees->variadic) {
        Type t = clang.cursor_type(called);
        if (t.kind == FUNCTION_PROTO && clang.type_variadic(t))
            return 1;
    }
    if (!callees->count)
        return 0;
    String spelled = clang.spelling(called);
    const char *name = clang.c_string(spelled);
    int found = name && bsearch(&name, callees->names, callees->count, sizeof *callees->names, by_name) != NULL;
    clang.dispose_string(spelled);
    return found;
}

static int canonical_kind(Cursor c)
{
    return clang.canonical_type(clang.cursor_type(c)).kind;
}

static uint8_t wanted(const Walk *w, Cursor c, Cursor parent, uint8_t *operator)
{
    uint8_t tag = 0;
    if (c.kind >= 0 && c.kind < KINDS && w->kinds[c.kind]) {
        if (c.kind == BINARY_OPERATOR || c.kind == COMPOUND_ASSIGNMENT) {
            int op = clang.binary_operator_kind(c);
            uint8_t how = op >= 0 && op < OPERATORS ? w->operators[op] : 0;
            if (how == 1 || (how == 2 && has_constant_operand(w->constants, c, w->constants->below))) {
                tag |= TAG_KIND;
                *operator = (uint8_t)op;
            }
        } else if (w->kinds[c.kind] == 2) {
            if (has_constant_operand(w->constants, c, w->constants->below))
                tag |= TAG_KIND;
        } else if (w->pointer_casts && w->pointer_casts[c.kind]) {
            if (pointer_cast(w->pointer_casts, c))
                tag |= TAG_KIND;
        } else if (c.kind != CALL_EXPR || call_wanted(w->callees, c)) {
            tag |= TAG_KIND;
        }
    }
    if (parent.kind == IMPLICIT && c.kind >= FIRST_EXPR && c.kind < EXPR_END &&
        (w->literals || c.kind != INTEGER_LITERAL)) {
        int result = canonical_kind(parent), value = canonical_kind(c);
        if (result >= 0 && result < CONVERSIONS && value >= 0 && value < CONVERSIONS &&
            w->conversions[result * CONVERSIONS + value])
            tag |= TAG_CONVERSION;
    }
    return tag;
}

static int record(Walk *w, Cursor c, Cursor parent)
{
    Nodes *n = w->nodes;
    /* libclang visits depth first: a node's parent is on the path down to the node before it */
    while (w->depth && !same(&n->cursors[w->path[w->depth - 1]], &parent))
        w->depth--;
    int32_t up = w->depth ? w->path[w->depth - 1] : locate(n, &parent);
    if (up == -2)
        return -1;
    int32_t at = add(n, &c, up);
    if (at < 0)
        return -1;
    if (w->depth == w->path_capacity) {
        size_t capacity = w->path_capacity ? 2 * w->path_capacity : 256;
        int32_t *path = realloc(w->path, capacity * sizeof *path);
        if (!path)
            return -1;
        w->path = path;
        w->path_capacity = capacity;
    }
    w->path[w->depth++] = at;
    uint8_t operator = 0, tag = wanted(w, c, parent, &operator);
    return tag ? keep(n, at, tag, operator) : 0;
}

static int visit(Cursor c, Cursor parent, void *data)
{
    Walk *w = data;
    if (record(w, c, parent) != 0) {
        w->nodes->failed = 1;
        return 0; /* CXChildVisit_Break */
    }
    return 2; /* CXChildVisit_Recurse */
}

/* ------------------------------------------------------------------ Python */

typedef struct {
    PyObject_HEAD
    Nodes nodes;
} WalkObject;

static void walk_dealloc(PyObject *self)
{
    release(&((WalkObject *)self)->nodes);
    PyTypeObject *type = Py_TYPE(self);
    freefunc tp_free = PyType_GetSlot(type, Py_tp_free);
    tp_free(self);
    Py_DECREF(type);
}

static int cursor_from(PyObject *obj, Cursor *c, const char *what)
{
    Py_buffer view;
    if (PyObject_GetBuffer(obj, &view, PyBUF_SIMPLE) != 0)
        return -1;
    int ok = view.len == (Py_ssize_t)sizeof *c;
    if (ok)
        memcpy(c, view.buf, sizeof *c);
    PyBuffer_Release(&view);
    if (!ok)
        PyErr_Format(PyExc_ValueError, "%s: not a CXCursor (%zu bytes)", what, sizeof *c);
    return ok ? 0 : -1;
}

/* The (library, cursor) arguments most of the module's calls take: libclang
 * loaded from that library, the cursor's bytes checked and copied. */
static int library_and_cursor(PyObject *args, Cursor *c, const char *what)
{
    const char *library;
    PyObject *cursor_obj;
    if (!PyArg_ParseTuple(args, "sO", &library, &cursor_obj) || load(library) != 0)
        return -1;
    return cursor_from(cursor_obj, c, what);
}

static PyObject *walk_parent(PyObject *self, PyObject *arg)
{
    Nodes *n = &((WalkObject *)self)->nodes;
    Cursor c;
    if (cursor_from(arg, &c, "parent") != 0)
        return NULL;
    int32_t at = locate(n, &c);
    if (at == -2)
        return PyErr_NoMemory();
    if (at < 0 || n->parents[at] < 0)
        Py_RETURN_NONE;
    return PyBytes_FromStringAndSize((const char *)&n->cursors[n->parents[at]], sizeof(Cursor));
}

static PyObject *walk_selected(PyObject *self, PyObject *unused)
{
    (void)unused;
    Nodes *n = &((WalkObject *)self)->nodes;
    size_t size = n->kept_count * sizeof(Cursor);
    PyObject *nodes = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)size);
    PyObject *parents = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)size);
    PyObject *tags = PyBytes_FromStringAndSize((const char *)n->tags, (Py_ssize_t)n->kept_count);
    PyObject *operators = PyBytes_FromStringAndSize((const char *)n->operators, (Py_ssize_t)n->kept_count);
    if (!nodes || !parents || !tags || !operators) {
        Py_XDECREF(nodes);
        Py_XDECREF(parents);
        Py_XDECREF(tags);
        Py_XDECREF(operators);
        return NULL;
    }
    char *to_node = PyBytes_AsString(nodes), *to_parent = PyBytes_AsString(parents);
    for (size_t k = 0; k < n->kept_count; k++) {
        int32_t at = n->kept[k], up = n->parents[at];
        memcpy(to_node + k * sizeof(Cursor), &n->cursors[at], sizeof(Cursor));
        memcpy(to_parent + k * sizeof(Cursor), &n->cursors[up >= 0 ? up : at], sizeof(Cursor));
    }
    return Py_BuildValue("(NNNN)", nodes, parents, tags, operators);
}

static PyObject *walk_len(PyObject *self, PyObject *unused)
{
    (void)unused;
    return PyLong_FromSize_t(((WalkObject *)self)->nodes.count);
}

static PyMethodDef walk_methods[] = {
    {"parent", walk_parent, METH_O, "parent(cursor) -> bytes | None: a walked node's parent"},
    {"selected", walk_selected, METH_NOARGS, "selected() -> (nodes, parents, tags, operators): the nodes kept"},
    {"visited", walk_len, METH_NOARGS, "visited() -> int: how many nodes the walk met"},
    {NULL, NULL, 0, NULL},
};

static PyType_Slot walk_slots[] = {
    {Py_tp_dealloc, walk_dealloc},
    {Py_tp_methods, walk_methods},
    {Py_tp_doc, "The nodes of one walk (portkit._clangwalk.walk)."},
    {0, NULL},
};

static PyType_Spec walk_spec = {
    .name = "portkit._clangwalk.Walk",
    .basicsize = sizeof(WalkObject),
    .flags = Py_TPFLAGS_DEFAULT,
    .slots = walk_slots,
};

static int sized(Py_buffer *view, Py_ssize_t size, const char *what)
{
    if (view->len == size)
        return 0;
    PyErr_Format(PyExc_ValueError, "%s: %zd bytes, not %zd", what, view->len, size);
    return -1;
}

/* callees: None, or (names, variadic) as walk() takes it, read into c; the
 * names' UTF-8 stays with their str objects, which the caller's arguments hold. */
static int callees_from(PyObject *obj, Callees *c)
{
    memset(c, 0, sizeof *c);
    if (obj == Py_None) {
        c->all = 1;
        return 0;
    }
    PyObject *names;
    int variadic;
    if (!PyArg_ParseTuple(obj, "O!p", &PyTuple_Type, &names, &variadic))
        return -1;
    Py_ssize_t count = PyTuple_Size(names);
    c->variadic = variadic;
    c->names = count ? calloc((size_t)count, sizeof *c->names) : NULL;
    if (count && !c->names) {
        PyErr_NoMemory();
        return -1;
    }
    for (Py_ssize_t i = 0; i < count; i++) {
        c->names[i] = PyUnicode_AsUTF8AndSize(PyTuple_GetItem(names, i), NULL);
        if (!c->names[i])
            return -1;
    }
    c->count = (size_t)count;
    qsort(c->names, c->count, sizeof *c->names, by_name);
    return 0;
}

static PyObject *py_walk(PyObject *module, PyObject *args)
{
    const char *library;
    PyObject *tu_obj, *callees_obj, *constants_obj, *casts_obj;
    Py_buffer tops, kinds, operators, conversions, constant_kinds = {0}, cast_kinds = {0};
    int literals = 1;
    if (!PyArg_ParseTuple(args, "sOy*y*y*y*OOO|p", &library, &tu_obj, &tops, &kinds, &operators, &conversions,
                          &callees_obj, &constants_obj, &casts_obj, &literals))
        return NULL;
    PyObject *result = NULL, *constant_values = NULL;
    Cursor tu;
    Callees callees = {0};
    Constants constants = {NULL, NULL, 0, 0};
    if (constants_obj != Py_None && !PyArg_ParseTuple(constants_obj, "y*O!p", &constant_kinds, &PyTuple_Type,
                                                      &constant_values, &constants.below))
        goto out;
    if (load(library) != 0 || cursor_from(tu_obj, &tu, "tu") != 0 || sized(&kinds, KINDS, "kinds") != 0 ||
        sized(&operators, OPERATORS, "operators") != 0 ||
        sized(&conversions, CONVERSIONS * CONVERSIONS, "conversions") != 0 || callees_from(callees_obj, &callees) != 0)
        goto out;
    if (casts_obj != Py_None && (PyObject_GetBuffer(casts_obj, &cast_kinds, PyBUF_SIMPLE) != 0 ||
                                 sized(&cast_kinds, KINDS, "cast kinds") != 0))
        goto out;
    if (constant_values) {
        if (sized(&constant_kinds, KINDS, "constant kinds") != 0 ||
            integers_from(constant_values, &constants.values, &constants.count) != 0)
            goto out;
        constants.kinds = constant_kinds.buf;
    }
    if (tops.len % (Py_ssize_t)sizeof(Cursor)) {
        PyErr_SetString(PyExc_ValueError, "tops: not a whole number of CXCursors");
        goto out;
    }
    PyTypeObject *type = (PyTypeObject *)PyObject_GetAttrString(module, "Walk");
    if (!type)
        goto out;
    allocfunc tp_alloc = PyType_GetSlot(type, Py_tp_alloc);
    WalkObject *self = (WalkObject *)tp_alloc(type, 0);
    Py_DECREF(type);
    if (!self)
        goto out;
    memset(&self->nodes, 0, sizeof self->nodes);
    const uint8_t *pointer_casts = cast_kinds.obj ? cast_kinds.buf : NULL;
    Walk w = {&self->nodes, kinds.buf, operators.buf, conversions.buf, NULL, 0, 0, &callees, &constants,
              pointer_casts, literals};
    w.path = malloc(256 * sizeof *w.path);
    w.path_capacity = w.path ? 256 : 0;
    int failed = !w.path || add(&self->nodes, &tu, -1) < 0;
    const Cursor *top = tops.buf;
    size_t count = (size_t)tops.len / sizeof(Cursor);
    Py_BEGIN_ALLOW_THREADS
    for (size_t i = 0; i < count && !failed; i++) {
        w.depth = 1; /* a top's parent is the translation unit, node 0 */
        w.path[0] = 0;
        failed = record(&w, top[i], tu) != 0;
        if (!failed) {
            clang.visit_children(top[i], visit, &w);
            failed = self->nodes.failed;
        }
    }
    Py_END_ALLOW_THREADS
    free(w.path);
    if (failed) {
        Py_DECREF(self);
        PyErr_NoMemory();
        goto out;
    }
    result = (PyObject *)self;
out:
    free(callees.names);
    free(constants.values);
    if (constant_kinds.obj)
        PyBuffer_Release(&constant_kinds);
    if (cast_kinds.obj)
        PyBuffer_Release(&cast_kinds);
    PyBuffer_Release(&tops);
    PyBuffer_Release(&kinds);
    PyBuffer_Release(&operators);
    PyBuffer_Release(&conversions);
    return result;
}

typedef struct {
    Cursor *cursors;
    size_t count, capacity;
    int failed;
} Children;

static int collect(Cursor c, Cursor parent, void *data)
{
    (void)parent;
    Children *found = data;
    if (found->count == found->capacity) {
        size_t capacity = found->capacity ? 2 * found->capacity : 16;
        Cursor *cursors = realloc(found->cursors, capacity * sizeof *cursors);
        if (!cursors) {
            found->failed = 1;
            return 0; /* CXChildVisit_Break */
        }
        found->cursors = cursors;
        found->capacity = capacity;
    }
    found->cursors[found->count++] = c;
    return 1; /* CXChildVisit_Continue: the children only, not theirs */
}

/* children(library, cursor): the bindings' get_children() calls back into
 * Python for every child; rules ask it of most nodes they look at. */
static PyObject *py_children(PyObject *module, PyObject *args)
{
    (void)module;
    Cursor c;
    if (library_and_cursor(args, &c, "cursor") != 0)
        return NULL;
    Children found = {NULL, 0, 0, 0};
    clang.visit_children(c, collect, &found);
    PyObject *result = found.failed ? PyErr_NoMemory()
                                    : PyBytes_FromStringAndSize((const char *)found.cursors,
                                                                (Py_ssize_t)(found.count * sizeof(Cursor)));
    free(found.cursors);
    return result;
}

#define FIRST_PREPROCESSING 500 /* CXCursor_FirstPreprocessing: the record of macros and #includes */

static int collect_own(Cursor c, Cursor parent, void *data)
{
    if (c.kind >= FIRST_PREPROCESSING)
        return 1; /* CXChildVisit_Continue */
    Location where = clang.cursor_location(c);
    if (clang.in_system_header(where))
        return 1;
    void *file = NULL;
    clang.expansion_location(where, &file, NULL, NULL, NULL);
    return file ? collect(c, parent, data) : 1; /* no file: clang's own builtins */
}

/* own_tops(library, tu): the project's top-level declarations. A unit that
 * includes the C library has thousands of the system's, each of which cost a
 * cursor in Python and two calls into libclang to be left out. */
static PyObject *py_own_tops(PyObject *module, PyObject *args)
{
    (void)module;
    Cursor tu;
    if (library_and_cursor(args, &tu, "tu") != 0)
        return NULL;
    Children found = {NULL, 0, 0, 0};
    Py_BEGIN_ALLOW_THREADS
    clang.visit_children(tu, collect_own, &found);
    Py_END_ALLOW_THREADS
    PyObject *result = found.failed ? PyErr_NoMemory()
                                    : PyBytes_FromStringAndSize((const char *)found.cursors,
                                                                (Py_ssize_t)(found.count * sizeof(Cursor)));
    free(found.cursors);
    return result;
}

typedef struct {
    Children found;
    int kind;
} OfKind;

static int collect_of_kind(Cursor c, Cursor parent, void *data)
{
    OfKind *wanted = data;
    return c.kind == wanted->kind ? collect(c, parent, &wanted->found) : 1; /* CXChildVisit_Continue */
}

/* tops_of_kind(library, tu, kind): a unit's typedefs, say, without a
 * cursor in Python for each of the thousands of other declarations. */
static PyObject *py_tops_of_kind(PyObject *module, PyObject *args)
{
    (void)module;
    const char *library;
    PyObject *cursor_obj;
    Cursor tu;
    OfKind wanted = {{NULL, 0, 0, 0}, 0};
    if (!PyArg_ParseTuple(args, "sOi", &library, &cursor_obj, &wanted.kind) || load(library) != 0 ||
        cursor_from(cursor_obj, &tu, "tu") != 0)
        return NULL;
    Py_BEGIN_ALLOW_THREADS
    clang.visit_children(tu, collect_of_kind, &wanted);
    Py_END_ALLOW_THREADS
    Children *found = &wanted.found;
    PyObject *result = found->failed ? PyErr_NoMemory()
                                     : PyBytes_FromStringAndSize((const char *)found->cursors,
                                                                 (Py_ssize_t)(found->count * sizeof(Cursor)));
    free(found->cursors);
    return result;
}

typedef struct {
    Children found;
    const uint8_t *kinds;
} Preorder;

static int collect_preorder(Cursor c, Cursor parent, void *data)
{
    Preorder *wanted = data;
    if (c.kind >= 0 && c.kind < KINDS && wanted->kinds[c.kind] && collect(c, parent, &wanted->found) == 0)
        return 0; /* out of memory: CXChildVisit_Break */
    return 2;     /* CXChildVisit_Recurse */
}

/* preorder(library, cursor, kinds): the bindings' walk_preorder() makes a
 * Python object and a callback of every node below a statement; the scan
 * asks it for the few of some kinds (what a statement assigns). */
static PyObject *py_preorder(PyObject *module, PyObject *args)
{
    (void)module;
    const char *library;
    PyObject *cursor_obj;
    Py_buffer kinds;
    Cursor c;
    if (!PyArg_ParseTuple(args, "sOy*", &library, &cursor_obj, &kinds))
        return NULL;
    PyObject *result = NULL;
    if (load(library) != 0 || cursor_from(cursor_obj, &c, "cursor") != 0 || sized(&kinds, KINDS, "kinds") != 0)
        goto out;
    Preorder wanted = {{NULL, 0, 0, 0}, kinds.buf};
    if (c.kind >= 0 && c.kind < KINDS && wanted.kinds[c.kind])
        collect(c, c, &wanted.found); /* the node itself first, as walk_preorder() */
    if (!wanted.found.failed)
        clang.visit_children(c, collect_preorder, &wanted);
    Children *found = &wanted.found;
    result = found->failed ? PyErr_NoMemory()
                           : PyBytes_FromStringAndSize((const char *)found->cursors,
                                                       (Py_ssize_t)(found->count * sizeof(Cursor)));
    free(found->cursors);
out:
    PyBuffer_Release(&kinds);
    return result;
}

#define PAREN_EXPR 111
#define EVAL_INT 1 /* CXEval_Int */

static int first_two_children(Cursor c, Cursor parent, void *data)
{
    (void)parent;
    Children *found = data;
    found->cursors[found->count++] = c;
    return found->count < 2; /* CXChildVisit_Continue, then CXChildVisit_Break */
}

static int same_place(Cursor a, Cursor b)
{
    Location x = clang.cursor_location(a), y = clang.cursor_location(b);
    return x.ptr_data[0] == y.ptr_data[0] && x.ptr_data[1] == y.ptr_data[1] && x.int_data == y.int_data;
}

/* The expression under implicit conversions and parentheses. An implicit
 * node that is wider than its child is no conversion (va_arg) and stays. A
 * conversion has one child at its own place (libclang places it there), so
 * most are known without their extents, which libclang measures by lexing
 * the last token again (most of the walk's time in sqlite3.c). */
static Cursor stripped(Cursor c)
{
    while (c.kind == IMPLICIT || c.kind == PAREN_EXPR) {
        Cursor inner[2];
        Children found = {inner, 0, 2, 0};
        clang.visit_children(c, first_two_children, &found);
        if (!found.count)
            break;
        if (c.kind == IMPLICIT && !(found.count == 1 && same_place(inner[0], c)) &&
            !clang.equal_ranges(clang.cursor_extent(inner[0]), clang.cursor_extent(c)))
            break;
        c = inner[0];
    }
    return c;
}

/* strip(library, cursor): rules ask it of most operands they look at; in
 * Python each step was four calls into libclang through ctypes. */
static PyObject *py_strip(PyObject *module, PyObject *args)
{
    (void)module;
    Cursor c;
    if (library_and_cursor(args, &c, "cursor") != 0)
        return NULL;
    c = stripped(c);
    return PyBytes_FromStringAndSize((const char *)&c, sizeof c);
}

/* A place as (line, column) of its expansion, in one number that orders as the pair does. */
static uint64_t expansion_place(Location where)
{
    unsigned line = 0, column = 0;
    clang.expansion_location(where, NULL, &line, &column, NULL);
    return (uint64_t)line << 32 | column;
}

/* expression_at(library, top, first_line, first_column, last_line, last_column):
 * the node a diagnostic's range covers; in Python, each child's extent on
 * the way down was a dozen calls through the bindings. */
static PyObject *py_expression_at(PyObject *module, PyObject *args)
{
    (void)module;
    const char *library;
    PyObject *top;
    unsigned first_line, first_column, last_line, last_column;
    Cursor c;
    if (!PyArg_ParseTuple(args, "sOIIII", &library, &top, &first_line, &first_column, &last_line, &last_column))
        return NULL;
    if (load(library) != 0 || cursor_from(top, &c, "top") != 0)
        return NULL;
    uint64_t first = (uint64_t)first_line << 32 | first_column, last = (uint64_t)last_line << 32 | last_column;
    Cursor found = {0, 0, {NULL, NULL, NULL}};
    int any = 0;
    for (;;) {
        Children below = {NULL, 0, 0, 0};
        clang.visit_children(c, collect, &below);
        if (below.failed) {
            free(below.cursors);
            return PyErr_NoMemory();
        }
        int inside = 0;
        for (size_t i = 0; i < below.count; i++) {
            Range extent = clang.cursor_extent(below.cursors[i]);
            uint64_t start = expansion_place(clang.range_start(extent)), end = expansion_place(clang.range_end(extent));
            if (start == first && end == last) {
                found = c = below.cursors[i];
                any = inside = 1;
                break;
            }
            if (start <= first && last <= end) {
                c = below.cursors[i];
                inside = 1;
                break;
            }
        }
        free(below.cursors);
        if (!inside)
            break;
    }
    if (!any)
        Py_RETURN_NONE;
    return PyBytes_FromStringAndSize((const char *)&found, sizeof found);
}

/* extents(library, cursors): where each top-level declaration starts and ends,
 * for finding the one around a place; thousands a unit, each six calls
 * through ctypes in Python. */
static PyObject *py_extents(PyObject *module, PyObject *args)
{
    (void)module;
    const char *library;
    Py_buffer cursors;
    if (!PyArg_ParseTuple(args, "sy*", &library, &cursors))
        return NULL;
    PyObject *result = NULL;
    if (load(library) != 0)
        goto out;
    if (cursors.len % (Py_ssize_t)sizeof(Cursor) != 0) {
        PyErr_SetString(PyExc_ValueError, "cursors must be whole CXCursors");
        goto out;
    }
    size_t count = (size_t)cursors.len / sizeof(Cursor);
    result = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)(count * 5 * sizeof(uint64_t)));
    if (!result)
        goto out;
    uint64_t *to = (uint64_t *)(void *)PyBytes_AsString(result);
    for (size_t i = 0; to && i < count; i++) {
        Cursor c;
        memcpy(&c, (const char *)cursors.buf + i * sizeof c, sizeof c);
        Range extent = clang.cursor_extent(c);
        void *file = NULL;
        unsigned line = 0, column = 0, end_line = 0, end_column = 0;
        clang.expansion_location(clang.range_start(extent), &file, &line, &column, NULL);
        clang.expansion_location(clang.range_end(extent), NULL, &end_line, &end_column, NULL);
        uint64_t *row = to + 5 * i;
        row[0] = (uint64_t)(uintptr_t)file;
        row[1] = line;
        row[2] = column;
        row[3] = end_line;
        row[4] = end_column;
    }
out:
    PyBuffer_Release(&cursors);
    return result;
}

typedef struct {
    unsigned count;
    Range *ranges;
} RangeList; /* CXSourceRangeList */

/* skipped_lines(library, tu, path): the preprocessor's left-out regions of
 * one of the unit's files, asked of each of the project's headers a unit
 * includes; in Python, four calls through the bindings a region. */
static PyObject *py_skipped_lines(PyObject *module, PyObject *args)
{
    (void)module;
    const char *library, *path;
    unsigned long long tu;
    if (!PyArg_ParseTuple(args, "sKy", &library, &tu, &path))
        return NULL;
    if (load(library) != 0)
        return NULL;
    void *file = clang.get_file((void *)(uintptr_t)tu, path);
    RangeList *found = file ? clang.skipped_ranges((void *)(uintptr_t)tu, file) : NULL;
    if (!found)
        return PyBytes_FromStringAndSize(NULL, 0);
    PyObject *result = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)(found->count * 2 * sizeof(uint32_t)));
    uint32_t *to = result ? (uint32_t *)(void *)PyBytes_AsString(result) : NULL;
    for (unsigned i = 0; to && i < found->count; i++) {
        unsigned first = 0, last = 0;
        clang.expansion_location(clang.range_start(found->ranges[i]), NULL, &first, NULL, NULL);
        clang.expansion_location(clang.range_end(found->ranges[i]), NULL, &last, NULL, NULL);
        to[2 * i] = first;
        to[2 * i + 1] = last;
    }
    clang.dispose_ranges(found);
    return result;
}

/* Whether clang folds the expression to an integer among values (ints). */
static int folds_to_one_of(Cursor c, long long *values, Py_ssize_t count)
{
    void *result = clang.evaluate(c);
    if (!result)
        return 0;
    int found = 0;
    if (clang.eval_kind(result) == EVAL_INT) {
        long long value = clang.eval_as_long_long(result);
        for (Py_ssize_t i = 0; i < count && !found; i++)
            found = values[i] == value;
    }
    clang.eval_dispose(result);
    return found;
}

/* The ints of a tuple, in a new array (*values, to be freed; NULL with a
 * Python error set when it is not a tuple of ints). */
static int integers_from(PyObject *tuple, long long **values, Py_ssize_t *count)
{
    *values = NULL;
    if (!PyTuple_Check(tuple)) {
        PyErr_SetString(PyExc_TypeError, "values must be a tuple of ints");
        return -1;
    }
    *count = PyTuple_Size(tuple);
    *values = malloc((size_t)(*count > 0 ? *count : 1) * sizeof **values);
    if (!*values) {
        PyErr_NoMemory();
        return -1;
    }
    for (Py_ssize_t i = 0; i < *count; i++) {
        (*values)[i] = PyLong_AsLongLong(PyTuple_GetItem(tuple, i));
        if ((*values)[i] == -1 && PyErr_Occurred())
            return -1;
    }
    return 0;
}

/* Whether one of the node's children, stripped, is a constant the walk
 * waits for (a child list that could not be made counts as one: the node
 * is kept, and its rules look for themselves). */
static int has_constant_operand(const Constants *constants, Cursor node, int below)
{
    if (!constants->kinds)
        return 1;
    Children found = {NULL, 0, 0, 0};
    clang.visit_children(node, collect, &found);
    int hit = found.failed;
    for (size_t i = 0; i < found.count && !hit; i++) {
        Cursor operand = stripped(found.cursors[i]);
        hit = operand.kind >= 0 && operand.kind < KINDS && constants->kinds[operand.kind] &&
              folds_to_one_of(operand, constants->values, constants->count);
        if (!hit && below)
            hit = has_constant_operand(constants, operand, 0);
    }
    free(found.cursors);
    return hit;
}

/* A pointer, a reference, an array, a function (what a pointer is made
 * from), or nullptr, by the canonical CXTypeKind of a node's type. */
static int pointer_like(Cursor c)
{
    switch (canonical_kind(c)) {
    case 24:  /* NullPtr */
    case 101: /* Pointer */
    case 102: /* BlockPointer */
    case 103: /* LValueReference */
    case 104: /* RValueReference */
    case 109: /* ObjCObjectPointer */
    case 110: /* FunctionNoProto */
    case 111: /* FunctionProto */
    case 112: /* ConstantArray */
    case 114: /* IncompleteArray */
    case 115: /* VariableArray */
    case 116: /* DependentSizedArray */
    case 117: /* MemberPointer */
        return 1;
    default:
        return 0;
    }
}

/* Whether a cast makes a pointer, or unmakes one: its own type, or its
 * operand's as written or under implicit conversions and parentheses,
 * through casts of casts ((int)(long)p). A child list that could not be
 * made counts as one: the cast is kept, and its rules look for themselves. */
static int pointer_cast(const uint8_t *cast_kinds, Cursor cast)
{
    if (pointer_like(cast))
        return 1;
    for (;;) {
        Children found = {NULL, 0, 0, 0};
        clang.visit_children(cast, collect, &found);
        if (found.failed || !found.count) {
            free(found.cursors);
            return found.failed;
        }
        Cursor operand = found.cursors[found.count - 1], inner = stripped(operand);
        free(found.cursors);
        if (pointer_like(operand) || pointer_like(inner))
            return 1;
        if (inner.kind < 0 || inner.kind >= KINDS || !cast_kinds[inner.kind])
            return 0;
        cast = inner; /* a cast of a cast: what that one casts */
    }
}

/* folded_children(library, cursor, kinds, values): which of a node's operands
 * is a given constant (0xFFFFFFFF), asked of every assignment and mask of a
 * file; in Python, the children, their stripping and their folding were
 * a dozen calls a node for the few that are. */
static PyObject *py_folded_children(PyObject *module, PyObject *args)
{
    (void)module;
    const char *library;
    PyObject *node, *wanted;
    Py_buffer kinds;
    Cursor c;
    if (!PyArg_ParseTuple(args, "sOy*O", &library, &node, &kinds, &wanted))
        return NULL;
    PyObject *result = NULL;
    long long *values = NULL;
    Children found = {NULL, 0, 0, 0};
    Py_ssize_t count = 0;
    if (load(library) != 0 || cursor_from(node, &c, "cursor") != 0 || sized(&kinds, KINDS, "kinds") != 0)
        goto out;
    if (integers_from(wanted, &values, &count) != 0)
        goto out;
    clang.visit_children(c, collect, &found);
    if (found.failed) {
        PyErr_NoMemory();
        goto out;
    }
    result = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)found.count);
    if (!result)
        goto out;
    char *marks = PyBytes_AsString(result);
    const unsigned char *table = kinds.buf;
    for (size_t i = 0; marks && i < found.count; i++) {
        Cursor operand = stripped(found.cursors[i]);
        int wanted_kind = operand.kind >= 0 && operand.kind < KINDS && table[operand.kind];
        marks[i] = (char)(wanted_kind && folds_to_one_of(operand, values, count));
    }
out:
    free(found.cursors);
    free(values);
    PyBuffer_Release(&kinds);
    return result;
}

/* callee(library, call) and cursor_type(library, cursor): what the rules ask
 * of most calls and operands, without the bindings' wrapping of each result
 * (which searches the call's arguments for the translation unit, and
 * compares a cursor with the null one through libclang), 4 of 5 us a call. */
static PyObject *py_callee(PyObject *module, PyObject *args)
{
    (void)module;
    Cursor c;
    if (library_and_cursor(args, &c, "cursor") != 0)
        return NULL;
    Cursor called = clang.referenced(c);
    if (called.kind != FUNCTION_DECL)
        Py_RETURN_NONE;
    return PyBytes_FromStringAndSize((const char *)&called, sizeof called);
}

static PyObject *py_cursor_type(PyObject *module, PyObject *args)
{
    (void)module;
    Cursor c;
    if (library_and_cursor(args, &c, "cursor") != 0)
        return NULL;
    Type t = clang.cursor_type(c);
    return PyBytes_FromStringAndSize((const char *)&t, sizeof t);
}

static PyObject *py_arguments(PyObject *module, PyObject *args)
{
    (void)module;
    Cursor c;
    if (library_and_cursor(args, &c, "call") != 0)
        return NULL;
    int count = clang.argument_count(c); /* -1: not a call */
    PyObject *result = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)(count > 0 ? count : 0) * (Py_ssize_t)sizeof c);
    if (!result)
        return NULL;
    char *to = PyBytes_AsString(result);
    for (int i = 0; i < count; i++) {
        Cursor argument = clang.argument(c, (unsigned)i);
        memcpy(to + (size_t)i * sizeof argument, &argument, sizeof argument);
    }
    return result;
}

static PyMethodDef module_methods[] = {
    {"arguments", py_arguments, METH_VARARGS, "arguments(library, call) -> bytes: a call's arguments"},
    {"callee", py_callee, METH_VARARGS, "callee(library, call) -> bytes | None: the function a call calls"},
    {"cursor_type", py_cursor_type, METH_VARARGS, "cursor_type(library, cursor) -> bytes: a node's CXType"},
    {"children", py_children, METH_VARARGS, "children(library, cursor) -> bytes: a node's children"},
    {"own_tops", py_own_tops, METH_VARARGS, "own_tops(library, tu) -> bytes: the project's top-level declarations"},
    {"tops_of_kind", py_tops_of_kind, METH_VARARGS, "tops_of_kind(library, tu, kind) -> bytes: top-level declarations"},
    {"preorder", py_preorder, METH_VARARGS, "preorder(library, cursor, kinds) -> bytes: the node and those below it"},
    {"expression_at", py_expression_at, METH_VARARGS,
     "expression_at(library, top, first_line, first_column, last_line, last_column) -> bytes | None"},
    {"extents", py_extents, METH_VARARGS, "extents(library, cursors) -> bytes: where each cursor starts and ends"},
    {"skipped_lines", py_skipped_lines, METH_VARARGS,
     "skipped_lines(library, tu, path) -> bytes: a file's regions the preprocessor left out"},
    {"folded_children", py_folded_children, METH_VARARGS,
     "folded_children(library, cursor, kinds, values) -> bytes: which children fold to one of values"},
    {"strip", py_strip, METH_VARARGS, "strip(library, cursor) -> bytes: under implicit conversions and parentheses"},
    {"walk", py_walk, METH_VARARGS,
     "walk(library, tu, tops, kinds, operators, conversions) -> Walk: the nodes the rules asked for"},
    {NULL, NULL, 0, NULL},
};

static int module_exec(PyObject *module)
{
    PyObject *type = PyType_FromSpec(&walk_spec);
    if (!type)
        return -1;
    int failed = PyModule_AddObject(module, "Walk", type);
    if (failed)
        Py_DECREF(type);
    if (!failed)
        failed = PyModule_AddIntConstant(module, "CURSOR_BYTES", (long)sizeof(Cursor)) ||
                 PyModule_AddIntConstant(module, "TYPE_BYTES", (long)sizeof(Type)) ||
                 PyModule_AddIntConstant(module, "KINDS", KINDS) ||
                 PyModule_AddIntConstant(module, "OPERATORS", OPERATORS) ||
                 PyModule_AddIntConstant(module, "CONVERSIONS", CONVERSIONS) ||
                 PyModule_AddIntConstant(module, "TAG_KIND", TAG_KIND) ||
                 PyModule_AddIntConstant(module, "TAG_CONVERSION", TAG_CONVERSION);
    return failed ? -1 : 0;
}

static PyModuleDef_Slot module_slots[] = {
    {Py_mod_exec, module_exec},
    {0, NULL},
};

static struct PyModuleDef module_def = {
    PyModuleDef_HEAD_INIT,
    .m_name = "portkit._clangwalk",
    .m_doc = "One walk over libclang's AST in C, for portkit scan.",
    .m_size = 0,
    .m_methods = module_methods,
    .m_slots = module_slots,
};

PyMODINIT_FUNC PyInit__clangwalk(void)
{
    return PyModuleDef_Init(&module_def);
}
