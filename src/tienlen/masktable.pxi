# MaskTable: a bounded map from card masks to Python objects, probed in C.
#
# The Python layer wraps every move the core lists in a shared, immutable object (tienlen's
# Cards). Looking each mask up in a dict needs a Python int per mask first; this table is
# probed with the mask itself, so GameState.legal_moves_through lists N moves as N probes.
# The core never looks inside the values: it only keeps and hands out references.

from cpython.long cimport PyLong_AsLongLongAndOverflow
from cpython.list cimport PyList_New, PyList_SET_ITEM
from cpython.object cimport PyObject
from cpython.ref cimport Py_INCREF, Py_XDECREF
from libc.stdlib cimport calloc, free


cdef enum:
    MT_USED = 1             # keys[i] = mask << 1 | MT_USED (masks are below 2**63)


cdef class MaskTable:
    """``table[mask]``: the object ``factory(mask)`` made the first time `mask` was asked
    for, shared afterwards. Holds at most `limit` entries and starts again when full, so it
    stays bounded. Masks are ints in [0, 2**63).

    >>> t = MaskTable(lambda m: ("object for", m), limit=4)
    >>> t[5] is t[5], t[5], len(t)
    (True, ('object for', 5), 1)
    """
    cdef uint64_t* keys
    cdef PyObject** values
    cdef Py_ssize_t slots         # a power of two, at least twice the limit
    cdef Py_ssize_t used
    cdef readonly Py_ssize_t limit
    cdef object factory

    def __cinit__(self):
        self.keys = NULL
        self.values = NULL
        self.slots = 0
        self.used = 0

    def __init__(self, factory, limit=1 << 15):
        cdef Py_ssize_t lim = _int_arg(limit, "limit", 1, 1 << 24)
        cdef Py_ssize_t slots = 2
        if not callable(factory):
            raise ValueError(f"factory must be callable; got {_quote(factory)}")
        if self.keys != NULL:
            raise ValueError("MaskTable is already initialised")
        while slots < 2 * lim:
            slots <<= 1
        self.keys = <uint64_t*>calloc(slots, sizeof(uint64_t))
        self.values = <PyObject**>calloc(slots, sizeof(PyObject*))
        if self.keys == NULL or self.values == NULL:
            free(self.keys)
            free(self.values)
            self.keys = NULL
            self.values = NULL
            raise MemoryError("could not allocate the table")
        self.slots = slots
        self.limit = lim
        self.factory = factory

    def __dealloc__(self):
        self._drop()
        free(self.keys)
        free(self.values)

    cdef void _drop(self) noexcept:
        cdef Py_ssize_t i
        cdef PyObject* v
        if self.keys == NULL:
            return
        for i in range(self.slots):
            v = self.values[i]
            if v == NULL:
                continue
            # The entry leaves the table (and the count) before its reference is dropped:
            # a value's finaliser may run Python code that uses this table meanwhile.
            self.values[i] = NULL
            self.keys[i] = 0
            self.used -= 1
            Py_XDECREF(v)

    cdef inline Py_ssize_t _probe(self, uint64_t key) noexcept:
        """The slot holding `key`, or the empty slot where it would go."""
        cdef uint64_t h = key * 0x9E3779B97F4A7C15ULL
        cdef Py_ssize_t mask = self.slots - 1
        cdef Py_ssize_t i = <Py_ssize_t>(h >> 32) & mask
        while self.keys[i] != 0 and self.keys[i] != key:
            i = (i + 1) & mask
        return i

    cdef object get(self, uint64_t mask):
        """The object for `mask` (mask < 2**63), made by the factory on a miss."""
        cdef uint64_t key = (mask << 1) | MT_USED
        cdef Py_ssize_t i
        if self.keys == NULL:
            raise ValueError("this MaskTable was never initialised")
        i = self._probe(key)
        if self.keys[i] == key:
            return <object>self.values[i]
        # The factory is Python code: it may use this table (or clear it) meanwhile, so
        # the slot is found again after it returns.
        value = self.factory(mask)
        if self.keys == NULL:
            raise ValueError("this MaskTable was never initialised")
        i = self._probe(key)
        if self.keys[i] == key:
            return <object>self.values[i]
        if self.used >= self.limit:
            self._drop()
            i = self._probe(key)
        Py_INCREF(value)
        self.values[i] = <PyObject*>value
        self.keys[i] = key
        self.used += 1
        return value

    cdef object find(self, uint64_t mask):
        """The object for `mask` (mask < 2**63) if the table holds one, else None; never
        runs the factory."""
        cdef uint64_t key = (mask << 1) | MT_USED
        cdef Py_ssize_t i
        if self.keys == NULL:
            return None
        i = self._probe(key)
        if self.keys[i] == key:
            return <object>self.values[i]
        return None

    def __getitem__(self, mask):
        cdef int overflow = 0
        cdef long long m
        if type(mask) is int:
            # The hot path (the Python layer maps lists of ints through this): no try block.
            m = PyLong_AsLongLongAndOverflow(mask, &overflow)
            if overflow == 0 and m >= 0:
                return self.get(<uint64_t>m)
        m = _int_arg(mask, "mask", 0, (<int64_t>1 << 62) - 1 + (<int64_t>1 << 62))
        return self.get(<uint64_t>m)

    def map_array(self, masks):
        """``[self[m] for m in masks]`` for a uint64 array of masks (below 2**63), probed in
        C: how the Python layer wraps the arrays of moves the core lists."""
        # A private copy, its length from the buffer (arrays.pxi), never masks.copy() or
        # masks.shape: read once, whatever another thread or a subclass does.
        cdef const uint64_t[::1] view = array_in(masks, "masks", cnp.NPY_UINT64, 1, -1, -1,
                                                 AR_CONTIGUOUS)
        cdef Py_ssize_t i, n = view.shape[0]
        cdef list out = PyList_New(n)
        for i in range(n):
            if view[i] >> 63:
                raise ValueError(f"masks[{i}] is 2**63 or more; got {view[i]}")
            value = self.get(view[i])
            Py_INCREF(value)            # PyList_SET_ITEM steals a reference
            PyList_SET_ITEM(out, i, value)
        return out

    def __len__(self):
        return self.used

    def clear(self):
        """Forget every entry."""
        self._drop()

    def __reduce__(self):
        raise TypeError("MaskTable holds references it owns natively and cannot be pickled")

