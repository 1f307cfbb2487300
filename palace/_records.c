/* palace._records: a named tuple straight from its fields, in one allocation; a frozen
 * dataclass's fields set from its own __init__ in one call.
 *
 * `new_record(cls, *fields)` is ``tuple.__new__(cls, fields)`` for a tuple subclass `cls`
 * (an `Event`, a `Move`, a view's `SeatInfo`), without the tuple of fields, the tuple of
 * arguments and its slice that call makes: the compiled engine records about 95 events a
 * hand and builds a view's tuples on every move (palace/records.py, palace/native.py).
 * It checks only what keeps the object sound (a tuple subclass); the field count is the
 * caller's, as with `tuple.__new__`.
 *
 * `set_fields(record, names, *values)` is ``object.__setattr__(record, name, value)`` for each
 * name, in order (palace.records.set_fields): from compiled code each of those is a call
 * through a method wrapper, some 800 machine instructions a field.
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

static PyObject *
set_fields(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs < 2 || !PyTuple_Check(args[1])) {
        PyErr_SetString(PyExc_TypeError,
                        "set_fields(record, names, *values): names must be a tuple");
        return NULL;
    }
    PyObject *record = args[0], *names = args[1];
    Py_ssize_t n = PyTuple_GET_SIZE(names);
    if (nargs - 2 != n) {
        PyErr_Format(PyExc_TypeError, "set_fields: %zd names but %zd values", n, nargs - 2);
        return NULL;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        /* object.__setattr__: past a frozen dataclass's __setattr__, to its field */
        if (PyObject_GenericSetAttr(record, PyTuple_GET_ITEM(names, i), args[i + 2]) < 0) {
            return NULL;
        }
    }
    Py_RETURN_NONE;
}

static PyMethodDef methods[] = {
    {"new_record", (PyCFunction)(void (*)(void))new_record, METH_FASTCALL,
     "new_record(cls, *fields): tuple.__new__(cls, fields) in one allocation."},
    {"set_fields", (PyCFunction)(void (*)(void))set_fields, METH_FASTCALL,
     "set_fields(record, names, *values): object.__setattr__(record, name, value) for each."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "palace._records",
    "Named tuples made in one allocation, frozen records' fields set in one call.", -1, methods,
};

PyMODINIT_FUNC
PyInit__records(void)
{
    return PyModule_Create(&module);
}
