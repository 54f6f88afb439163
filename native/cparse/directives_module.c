/* portkit._directives: a C file's text with its preprocessor directives
 * alone (directives.c), for `portkit scan` (commands/scan/engine.py).
 *
 *   directives_only(text) -> str | None
 *
 * None where the language standard decides how the text lexes (a raw
 * string, a digit separator, a trigraph) or code may save a macro
 * (push_macro): the caller parses the text itself.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "directives.h"

static PyObject *py_directives_only(PyObject *module, PyObject *argument)
{
    (void)module;
    Py_ssize_t size;
    const char *text = PyUnicode_AsUTF8AndSize(argument, &size);
    if (!text)
        return NULL;
    char *out = PyMem_Malloc((size_t)size + 1);
    if (!out)
        return PyErr_NoMemory();
    size_t written = 0;
    bool kept;
    Py_BEGIN_ALLOW_THREADS
    kept = pk_directives_only(text, (size_t)size, out, &written);
    Py_END_ALLOW_THREADS
    PyObject *result = kept ? PyUnicode_DecodeUTF8(out, (Py_ssize_t)written, "strict") : Py_NewRef(Py_None);
    PyMem_Free(out);
    return result;
}

static PyMethodDef module_methods[] = {
    {"directives_only", py_directives_only, METH_O,
     "directives_only(text) -> str | None: the text's preprocessor directives alone, every line where it was"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module_def = {
    PyModuleDef_HEAD_INIT,
    .m_name = "portkit._directives",
    .m_doc = "A C file's preprocessor directives alone, for portkit scan.",
    .m_size = 0,
    .m_methods = module_methods,
};

PyMODINIT_FUNC PyInit__directives(void)
{
    return PyModule_Create(&module_def);
}
