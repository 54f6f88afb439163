/* portkit._crc32c: the CRC32C library for Python.
 *
 *   crc32c(data, crc=0) -> int     data: any contiguous buffer (bytes,
 *                                  bytearray, memoryview, array, numpy array)
 *   combine(crc1, crc2, len2) -> int
 *   implementation() -> str
 *
 * Limited C API (stable ABI of Python 3.11). The GIL is released while
 * hashing buffers of GIL_RELEASE_MIN bytes or more. Releasing and retaking it
 * costs ~60 ns (measured on a Zen 3 at 2.8 GHz): 20% of a 4 KiB call, under
 * 10% from 16 KiB on, where other threads gain more than this one loses. */
#define Py_LIMITED_API 0x030B0000
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "portkit/crc32c.h"

#ifndef GIL_RELEASE_MIN
#define GIL_RELEASE_MIN 16384
#endif

static int parse_crc(PyObject *obj, uint32_t *crc)
{
    unsigned long v = PyLong_AsUnsignedLong(obj);
    if (v == (unsigned long)-1 && PyErr_Occurred())
        return -1;
    if (v > 0xFFFFFFFFul) {
        PyErr_SetString(PyExc_OverflowError, "crc must be in 0..0xFFFFFFFF");
        return -1;
    }
    *crc = (uint32_t)v;
    return 0;
}

/* crc32c(data, crc=0): vectorcall-style arguments, parsed by hand because a
 * 64-byte call is dominated by argument handling. */
static PyObject *py_crc32c(PyObject *module, PyObject *const *args, Py_ssize_t nargs,
                           PyObject *kwnames)
{
    (void)module;
    PyObject *data = nargs > 0 ? args[0] : NULL, *crc_obj = nargs > 1 ? args[1] : NULL;
    if (nargs > 2) {
        PyErr_Format(PyExc_TypeError, "crc32c() takes at most 2 arguments (%zd given)", nargs);
        return NULL;
    }
    Py_ssize_t nkw = kwnames ? PyTuple_Size(kwnames) : 0;
    for (Py_ssize_t i = 0; i < nkw; i++) {
        PyObject *name = PyTuple_GetItem(kwnames, i), *value = args[nargs + i];
        PyObject **slot = PyUnicode_CompareWithASCIIString(name, "data") == 0  ? &data
                          : PyUnicode_CompareWithASCIIString(name, "crc") == 0 ? &crc_obj
                                                                               : NULL;
        if (!slot) {
            PyErr_Format(PyExc_TypeError, "crc32c() got an unexpected keyword argument '%U'",
                         name);
            return NULL;
        }
        if (*slot) {
            PyErr_Format(PyExc_TypeError, "crc32c() got multiple values for argument '%U'",
                         name);
            return NULL;
        }
        *slot = value;
    }
    if (!data) {
        PyErr_SetString(PyExc_TypeError, "crc32c() missing required argument 'data'");
        return NULL;
    }
    uint32_t crc = 0;
    if (crc_obj && parse_crc(crc_obj, &crc) < 0)
        return NULL;

    Py_buffer view;
    if (PyObject_GetBuffer(data, &view, PyBUF_SIMPLE) < 0)
        return NULL;
    if (view.len >= GIL_RELEASE_MIN) {
        PyThreadState *ts = PyEval_SaveThread();
        crc = pk_crc32c(crc, view.buf, (size_t)view.len);
        PyEval_RestoreThread(ts);
    } else {
        crc = pk_crc32c(crc, view.buf, (size_t)view.len);
    }
    PyBuffer_Release(&view);
    return PyLong_FromUnsignedLong(crc);
}

static PyObject *py_combine(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    if (nargs != 3) {
        PyErr_SetString(PyExc_TypeError, "combine(crc1, crc2, len2) takes 3 arguments");
        return NULL;
    }
    uint32_t crc1, crc2;
    if (parse_crc(args[0], &crc1) < 0 || parse_crc(args[1], &crc2) < 0)
        return NULL;
    size_t len2 = PyLong_AsSize_t(args[2]);
    if (len2 == (size_t)-1 && PyErr_Occurred())
        return NULL;
    return PyLong_FromUnsignedLong(pk_crc32c_combine(crc1, crc2, len2));
}

static PyObject *py_implementation(PyObject *module, PyObject *unused)
{
    (void)module;
    (void)unused;
    return PyUnicode_FromString(pk_crc32c_implementation());
}

static PyMethodDef methods[] = {
    { "crc32c", (PyCFunction)(void (*)(void))py_crc32c, METH_FASTCALL | METH_KEYWORDS,
      "crc32c(data, crc=0) -> int\n\nCRC32C (Castagnoli, as iSCSI and ext4) of a bytes-like "
      "object,\nextending crc, the CRC32C of the data before it." },
    { "combine", (PyCFunction)(void (*)(void))py_combine, METH_FASTCALL,
      "combine(crc1, crc2, len2) -> int\n\nCRC32C of A followed by B from crc1 = crc32c(A), "
      "crc2 = crc32c(B)\nand len2 = len(B)." },
    { "implementation", py_implementation, METH_NOARGS,
      "implementation() -> str\n\nName of the CRC32C kernel chosen for this CPU." },
    { NULL, NULL, 0, NULL },
};

static PyModuleDef_Slot slots[] = {
    { 0, NULL },
};

static struct PyModuleDef module_def = {
    PyModuleDef_HEAD_INIT,
    .m_name = "portkit._crc32c",
    .m_doc = "CRC32C with run-time CPU dispatch (SSE4.2, VPCLMULQDQ, ARMv8 CRC/PMULL).",
    .m_size = 0,
    .m_methods = methods,
    .m_slots = slots,
};

PyMODINIT_FUNC PyInit__crc32c(void)
{
    return PyModuleDef_Init(&module_def);
}
