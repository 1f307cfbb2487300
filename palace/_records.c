/* palace._records: a named tuple straight from its fields, in one allocation.
 *
 * `new_record(cls, *fields)` is ``tuple.__new__(cls, fields)`` for a tuple subclass `cls`
 * (an `Event`, a `Move`, a view's `SeatInfo`), without the tuple of fields, the tuple of
 * arguments and its slice that call makes: the compiled engine records about 95 events a
 * hand and builds a view's tuples on every move (palace/records.py, palace/native.py).
 * It checks only what keeps the object sound (a tuple subclass); the field count is the
 * caller's, as with `tuple.__new__`.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

static PyObject *
new_record(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs < 1 || !PyType_Check(args[0])) {
        PyErr_SetString(PyExc_TypeError, "new_record(cls, *fields): cls must be a class");
        return NULL;
    }
    PyTypeObject *cls = (PyTypeObject *)args[0];
    if (!PyType_IsSubtype(cls, &PyTuple_Type)) {
        PyErr_Format(PyExc_TypeError, "new_record: %s is not a tuple subclass", cls->tp_name);
        return NULL;
    }
    Py_ssize_t n = nargs - 1;
    PyObject *record = cls->tp_alloc(cls, n); /* zeroed; tracked by the collector */
    if (record == NULL) {
        return NULL;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *field = args[i + 1];
        Py_INCREF(field);
        PyTuple_SET_ITEM(record, i, field);
    }
    return record;
}

static PyMethodDef methods[] = {
    {"new_record", (PyCFunction)(void (*)(void))new_record, METH_FASTCALL,
     "new_record(cls, *fields): tuple.__new__(cls, fields) in one allocation."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "palace._records",
    "A named tuple straight from its fields, in one allocation.", -1, methods,
};

PyMODINIT_FUNC
PyInit__records(void)
{
    return PyModule_Create(&module);
}
