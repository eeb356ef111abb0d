# How an array enters a native loop: the one way in, shared by both cores.
#
# Included by src/tienlen/_core.pyx (tienlen._core) and src/guandan/_guandan.pyx (tienlen._guandan):
# one source, compiled into each extension module (two modules cannot share cdef functions
# without a third, cimported module, and this is too small to be worth one).
#
# The rule (src/README.md, "How an array enters a native loop"): every fact a native loop
# relies on -- how many elements, their type and size, where they are -- comes from the
# buffer the array exports (PyObject_GetBuffer: a C call; for an ndarray it runs no Python
# code), never from `.shape`, `.dtype`, `.flags`, `.copy()`, `__array__`, `__len__` or any
# other Python-level attribute an ndarray subclass can override. Then:
#
# - an input is copied, while its buffer is held and with no Python code in between, into a
#   fresh array of our own (`array_in`); the copy is what is validated and what the loop
#   reads, so neither another thread nor the caller's own Python code (an `__index__` of a
#   later argument, a signal handler) can change it between the check and the use. Call it
#   after every other argument has been converted (their Python code has run), so that the
#   copy is of the array as it stands when the work starts.
# - an output (`out=`) is held (`array_out`): its real shape, element type, C-contiguity,
#   alignment and writability checked from the buffer, and the buffer kept acquired until
#   the loop has written it (`HeldBuffer.release`, or when the HeldBuffer is freed).
# - `array_view` holds an input without copying it, for the one kind of loop where a copy
#   would cost as much as the work (classify_many): such a loop must read each element
#   exactly once and validate it in the same read.
#
# Errors are ValueError naming the argument, for a wrong type (not an ndarray) as much as
# for a wrong value: the cores' callers catch one exception class (src/README.md).

cimport cython
from cpython.buffer cimport (PyObject_GetBuffer, PyBuffer_Release, PyBuffer_IsContiguous,
                             PyBUF_STRIDES, PyBUF_FORMAT)
from libc.stdint cimport uint64_t, uint32_t, uint16_t, uint8_t, int8_t, int16_t, int32_t, int64_t
from libc.string cimport memcpy
cimport numpy as cnp

cnp.import_array()

cdef extern from *:
    """
    #if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    #define TL_NATIVE_ORDER '>'
    #else
    #define TL_NATIVE_ORDER '<'
    #endif
    """
    const char TL_NATIVE_ORDER

cdef enum:
    AK_BOOL = 1
    AK_SIGNED = 2
    AK_UNSIGNED = 3
    AK_OTHER = 4
    # array_in flags
    AR_CONTIGUOUS = 1      # refuse a source that is not C-contiguous and aligned
    AR_ANY_INT = 2         # take any integer element type, converted to int64 (never bool)


cdef struct ByteRange:
    # The bytes a caller's array spans (for "does out overlap an input"); lo == hi: none.
    const char* lo
    const char* hi


cdef str _ak_name(int kind, Py_ssize_t itemsize):
    if kind == AK_BOOL and itemsize == 1:
        return "bool"
    if kind == AK_SIGNED:
        return f"int{8 * itemsize}"
    if kind == AK_UNSIGNED:
        return f"uint{8 * itemsize}"
    return f"a non-integer type of {itemsize} bytes"


cdef int _typenum_kind(int typenum, Py_ssize_t* itemsize) except -1:
    """The (kind, size) a target dtype stands for."""
    if typenum == cnp.NPY_BOOL:
        itemsize[0] = 1
        return AK_BOOL
    if typenum == cnp.NPY_INT8:
        itemsize[0] = 1
        return AK_SIGNED
    if typenum == cnp.NPY_UINT8:
        itemsize[0] = 1
        return AK_UNSIGNED
    if typenum == cnp.NPY_INT16:
        itemsize[0] = 2
        return AK_SIGNED
    if typenum == cnp.NPY_UINT16:
        itemsize[0] = 2
        return AK_UNSIGNED
    if typenum == cnp.NPY_INT32:
        itemsize[0] = 4
        return AK_SIGNED
    if typenum == cnp.NPY_UINT32:
        itemsize[0] = 4
        return AK_UNSIGNED
    if typenum == cnp.NPY_INT64:
        itemsize[0] = 8
        return AK_SIGNED
    if typenum == cnp.NPY_UINT64:
        itemsize[0] = 8
        return AK_UNSIGNED
    raise SystemError("arrays.pxi: unsupported target dtype")


cdef int _format_kind(const char* fmt) noexcept:
    """The kind of one element from its PEP 3118 format: a single native-order integer or
    bool code (an optional '@', '=' or the native '<'/'>' first); anything else AK_OTHER.
    The element's size is the buffer's itemsize, not the code's."""
    if fmt == NULL:
        return AK_UNSIGNED        # no format requested means bytes ('B')
    if fmt[0] == b'@' or fmt[0] == b'=' or fmt[0] == TL_NATIVE_ORDER:
        fmt += 1
    if fmt[0] == 0 or fmt[1] != 0:
        return AK_OTHER
    if fmt[0] == b'?':
        return AK_BOOL
    if fmt[0] in b'bhilqn':
        return AK_SIGNED
    if fmt[0] in b'BHILQN':
        return AK_UNSIGNED
    return AK_OTHER


cdef inline int64_t _load_signed(const char* p, Py_ssize_t size) noexcept nogil:
    cdef int8_t a
    cdef int16_t b
    cdef int32_t c
    cdef int64_t d
    if size == 1:
        memcpy(&a, p, 1)
        return a
    if size == 2:
        memcpy(&b, p, 2)
        return b
    if size == 4:
        memcpy(&c, p, 4)
        return c
    memcpy(&d, p, 8)
    return d


cdef inline uint64_t _load_unsigned(const char* p, Py_ssize_t size) noexcept nogil:
    cdef uint8_t a
    cdef uint16_t b
    cdef uint32_t c
    cdef uint64_t d
    if size == 1:
        memcpy(&a, p, 1)
        return a
    if size == 2:
        memcpy(&b, p, 2)
        return b
    if size == 4:
        memcpy(&c, p, 4)
        return c
    memcpy(&d, p, 8)
    return d


cdef int _acquire(object obj, Py_buffer* view, str name, int typenum, bint any_int) except -1:
    """PyObject_GetBuffer of a caller's ndarray (strides and format), as a ValueError."""
    cdef Py_ssize_t size
    if not isinstance(obj, cnp.ndarray):      # a C-level type check: runs no Python code
        raise ValueError(f"{name} must be a numpy.ndarray of {_want_name(typenum, any_int)}; "
                         f"got {type(obj).__name__}")
    try:
        PyObject_GetBuffer(obj, view, PyBUF_STRIDES | PyBUF_FORMAT)
    except (BufferError, TypeError, ValueError) as error:
        raise ValueError(f"{name} cannot be read as an array of {_want_name(typenum, any_int)}: "
                         f"{error}") from None
    return 0


cdef str _want_name(int typenum, bint any_int):
    cdef Py_ssize_t size
    if any_int:
        return "integers"
    return _ak_name(_typenum_kind(typenum, &size), size)


cdef int _check_shape(const Py_buffer* view, str name, int ndim, Py_ssize_t rows,
                      Py_ssize_t cols) except -1:
    """ndim and the fixed dimensions, from the buffer (rows/cols < 0: any)."""
    if view.ndim != ndim:
        raise ValueError(f"{name} must be {ndim}-dimensional; got shape {_shape_of(view)}")
    if (rows >= 0 and view.shape[0] != rows) or (ndim == 2 and cols >= 0 and view.shape[1] != cols):
        want = ("n" if rows < 0 else str(rows)) if ndim == 1 else (
            f"{'n' if rows < 0 else rows}, {cols}")
        raise ValueError(f"{name} must have shape ({want}{',' if ndim == 1 else ''}); "
                         f"got {_shape_of(view)}")
    return 0


cdef tuple _shape_of(const Py_buffer* view):
    """The buffer's own shape, for an error message."""
    cdef Py_ssize_t k
    if view.shape == NULL:
        return (view.len // view.itemsize,) if view.ndim == 1 else ()
    return tuple([view.shape[k] for k in range(view.ndim)])


cdef cnp.ndarray array_in(object obj, str name, int typenum, int ndim=1, Py_ssize_t rows=-1,
                          Py_ssize_t cols=-1, int flags=0, ByteRange* span=NULL):
    """A private, C-contiguous copy of the caller's array `obj` (1-D, or 2-D with `cols`
    columns; `rows` >= 0 fixes the length), of exactly the element type `typenum`
    (AR_ANY_INT: any integer type, converted to int64, which typenum must then be). Every
    fact comes from the buffer; the copy is made while the buffer is held, with no Python
    code in between. `span` (if given) receives the bytes the source spans."""
    cdef Py_buffer view
    cdef Py_ssize_t want_size, r, c, i, j, nrows, ncols, s0, s1
    cdef int want_kind = _typenum_kind(typenum, &want_size)
    cdef int kind
    cdef cnp.npy_intp dims[2]
    cdef cnp.ndarray priv
    cdef char* dst
    cdef const char* src
    cdef const char* p
    cdef const char* lo
    cdef const char* hi
    cdef int64_t* d64
    cdef uint64_t u
    _acquire(obj, &view, name, typenum, flags & AR_ANY_INT)
    try:
        _check_shape(&view, name, ndim, rows, cols)
        kind = _format_kind(view.format)
        if flags & AR_ANY_INT:
            if kind != AK_SIGNED and kind != AK_UNSIGNED or view.itemsize not in (1, 2, 4, 8):
                raise ValueError(f"{name} must be an array of integers; got "
                                 f"{_ak_name(kind, view.itemsize)}")
        elif kind != want_kind or view.itemsize != want_size:
            raise ValueError(f"{name} must have dtype {_ak_name(want_kind, want_size)}; got "
                             f"{_ak_name(kind, view.itemsize)}")
        nrows = view.shape[0]
        ncols = view.shape[1] if ndim == 2 else 1
        s0 = view.strides[0]
        s1 = view.strides[1] if ndim == 2 else view.itemsize
        if flags & AR_CONTIGUOUS:
            if not PyBuffer_IsContiguous(&view, b'C'):
                raise ValueError(f"{name} must be C-contiguous (use numpy.ascontiguousarray)")
            if <size_t>view.buf % <size_t>view.itemsize:
                raise ValueError(f"{name} is not aligned for {_ak_name(want_kind, want_size)} "
                                 f"(use {name}.copy())")
        dims[0] = nrows
        dims[1] = ncols
        priv = cnp.PyArray_SimpleNew(ndim, dims, typenum)
        dst = <char*>cnp.PyArray_DATA(priv)
        src = <const char*>view.buf
        if nrows and ncols:
            if span != NULL:
                # The extreme corners of a strided walk bound every element it touches.
                lo = src
                hi = src
                p = src + (nrows - 1) * s0
                if p < lo: lo = p
                if p > hi: hi = p
                p = src + (ncols - 1) * s1
                if p < lo: lo = p
                if p > hi: hi = p
                p = src + (nrows - 1) * s0 + (ncols - 1) * s1
                if p < lo: lo = p
                if p > hi: hi = p
                span.lo = lo
                span.hi = hi + view.itemsize
            if flags & AR_ANY_INT:
                d64 = <int64_t*>dst
                for r in range(nrows):
                    for c in range(ncols):
                        p = src + r * s0 + c * s1
                        if kind == AK_SIGNED:
                            d64[r * ncols + c] = _load_signed(p, view.itemsize)
                        else:
                            u = _load_unsigned(p, view.itemsize)
                            if u >> 63:
                                where = str(r) if ndim == 1 else f"{r}, {c}"
                                raise ValueError(f"{name}[{where}] is out of range: {u}")
                            d64[r * ncols + c] = <int64_t>u
            elif s1 == view.itemsize and s0 == ncols * view.itemsize:
                memcpy(dst, src, nrows * ncols * view.itemsize)
            else:
                i = 0
                for r in range(nrows):
                    for c in range(ncols):
                        memcpy(dst + i, src + r * s0 + c * s1, view.itemsize)
                        i += view.itemsize
        elif span != NULL:
            span.lo = span.hi = NULL
    finally:
        PyBuffer_Release(&view)
    return priv


# internal: not a name of either module; no auto-pickle (a held buffer is not data, and an
# internal class's pickle helpers would land in the module's namespace).
@cython.internal
@cython.auto_pickle(False)
cdef class HeldBuffer:
    """A caller's array held through the buffer protocol for one call: `data` and `shape`
    are the buffer's own, and stay valid (the exporter cannot free or resize them) until
    release() or until this object is freed."""
    cdef Py_buffer view
    cdef bint held
    cdef object array          # what the call returns: the caller's array, or our new one
    cdef char* data
    cdef Py_ssize_t shape[2]
    cdef Py_ssize_t nbytes

    def __dealloc__(self):
        self.release()

    cdef void release(self) noexcept:
        if self.held:
            self.held = False
            PyBuffer_Release(&self.view)

    cdef bint overlaps(self, const ByteRange* r) noexcept:
        """Whether this buffer shares a byte with the range `r` (for an out= that would
        overwrite an input still to be read)."""
        return (self.nbytes > 0 and r.lo < r.hi and <const char*>self.data < r.hi
                and r.lo < <const char*>self.data + self.nbytes)


cdef HeldBuffer _hold(object obj, str name, int typenum, int ndim, Py_ssize_t rows,
                      Py_ssize_t cols, bint writable):
    cdef HeldBuffer h = HeldBuffer.__new__(HeldBuffer)
    cdef Py_ssize_t want_size
    cdef int want_kind = _typenum_kind(typenum, &want_size)
    _acquire(obj, &h.view, name, typenum, False)
    h.held = True
    _check_shape(&h.view, name, ndim, rows, cols)
    if _format_kind(h.view.format) != want_kind or h.view.itemsize != want_size:
        raise ValueError(f"{name} must have dtype {_ak_name(want_kind, want_size)}; got "
                         f"{_ak_name(_format_kind(h.view.format), h.view.itemsize)}")
    if not PyBuffer_IsContiguous(&h.view, b'C'):
        raise ValueError(f"{name} must be C-contiguous (use numpy.ascontiguousarray)")
    if <size_t>h.view.buf % <size_t>want_size:
        raise ValueError(f"{name} is not aligned for {_ak_name(want_kind, want_size)} "
                         f"(use {name}.copy())")
    if writable and h.view.readonly:
        raise ValueError(f"{name} is read-only")
    h.array = obj
    h.data = <char*>h.view.buf
    h.shape[0] = h.view.shape[0]
    h.shape[1] = h.view.shape[1] if ndim == 2 else 1
    h.nbytes = h.view.len
    return h


cdef HeldBuffer array_out(object out, str name, int typenum, Py_ssize_t rows,
                          Py_ssize_t cols=-1):
    """The caller's `out` held for writing: exactly (rows,) or (rows, cols) of `typenum`,
    C-contiguous, aligned and writeable, all read from its buffer. None: a new array of
    that shape (held the same way, so callers write through `.data` alike)."""
    cdef cnp.npy_intp dims[2]
    cdef int ndim = 1 if cols < 0 else 2
    if out is None:
        dims[0] = rows
        dims[1] = cols
        out = cnp.PyArray_SimpleNew(ndim, dims, typenum)
    return _hold(out, name, typenum, ndim, rows, cols, True)


cdef HeldBuffer array_view(object obj, str name, int typenum, int ndim=1, Py_ssize_t rows=-1,
                           Py_ssize_t cols=-1):
    """The caller's input held without a copy (C-contiguous, aligned, of exactly `typenum`):
    only for a loop that reads each element once and validates it in that same read."""
    return _hold(obj, name, typenum, ndim, rows, cols, False)
