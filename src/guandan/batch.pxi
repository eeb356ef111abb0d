# Batch API: NumPy arrays in and out, the GIL released while generating.
#
# Every input array is copied into a private buffer first and only the copy is validated,
# sized and generated from: another thread writing into the caller's array mid-call cannot
# make the listing pass disagree with the counting pass that sized the output. Work runs in
# chunks of rows with the GIL released; between chunks the GIL is taken back to let Ctrl-C
# (and any other pending signal) interrupt a long call, on the main thread only (the one
# that handles signals; gd_watch_signals): elsewhere the rows run in one GIL-free stretch.

cdef enum:
    MANY_CHUNK = 512                # rows per GIL-free stretch
    MAX_PLAYS_MANY = 1 << 27        # refuse a listing of more plays (2.7 GB of output)

MAX_ROWS = 1 << 31
MAX_PLAYS = MAX_PLAYS_MANY


cdef tuple _many_args(object hands, object levels, object pile_codes, int f):
    """Private, validated copies of the batch inputs: hands (n, 2) uint64, levels (n,) uint8,
    pile codes (n,) uint32. Every array enters through array_in (arrays.pxi): n is the
    length of the hands' own buffer, and every array the loops read is a copy of that
    length, made after the only Python code of the arguments (levels' __index__) has run."""
    cdef Py_ssize_t n, i
    cdef int lv = 0
    cdef cnp.ndarray h, lv64
    cdef bint lv_array = isinstance(levels, cnp.ndarray)
    if not lv_array:
        lv = _level_arg(levels)
    h = array_in(hands, "hands", cnp.NPY_UINT64, 2, -1, 2)
    n = cnp.PyArray_DIM(h, 0)
    if n > MAX_ROWS:
        raise ValueError(f"hands has {n} rows; at most {MAX_ROWS} per call")
    if lv_array:
        lv64 = array_in(levels, "levels", cnp.NPY_INT64, 1, n, -1, AR_ANY_INT)
        lvs = np.empty(n, np.uint8)
        i = _narrow_levels(lv64, lvs)
        if i >= 0:
            raise ValueError(f"levels[{i}] must be 2..14; got {(<int64_t*>cnp.PyArray_DATA(lv64))[i]}")
    else:
        lvs = np.full(n, lv, np.uint8)
    if pile_codes is None:
        piles = np.zeros(n, np.uint32)
    else:
        piles = array_in(pile_codes, "pile_codes", cnp.NPY_UINT32, 1, n)
    _check_rows(h, lvs, piles, f)
    return h, lvs, piles


cdef Py_ssize_t _narrow_levels(cnp.ndarray src, cnp.ndarray dst) except -2:
    """Levels (int64 copy) into uint8; the first one outside 2..14, or -1."""
    cdef const int64_t* a = <const int64_t*>cnp.PyArray_DATA(src)
    cdef uint8_t* b = <uint8_t*>cnp.PyArray_DATA(dst)
    cdef Py_ssize_t i, n = cnp.PyArray_DIM(src, 0)
    for i in range(n):
        if a[i] < 2 or a[i] > 14:
            return i
        b[i] = <uint8_t>a[i]
    return -1


cdef int _check_rows(const uint64_t[:, ::1] h, const uint8_t[::1] lv, const uint32_t[::1] pc, int f) except -1:
    cdef Py_ssize_t i, n = h.shape[0], bad = -1
    cdef int why = 0
    with nogil:
        for i in range(n):
            if (h[i, 0] >> 54) or (h[i, 1] >> 54):
                why = 1
            elif h[i, 1] & ~h[i, 0]:
                why = 2
            elif pc[i] and not c_code_valid(pc[i], lv[i], f):
                why = 3
            if why:
                bad = i
                break
    if why == 1:
        raise ValueError(f"hands[{bad}] has bits above 53: ({h[bad, 0]:#x}, {h[bad, 1]:#x})")
    if why == 2:
        raise ValueError(f"hands[{bad}]: twice has card types that once lacks")
    if why == 3:
        raise ValueError(f"pile_codes[{bad}] is not a play at level {lv[bad]}: {pc[bad]}")
    return 0


cdef int _count_rows(const uint64_t[:, ::1] h, const uint8_t[::1] lv, const uint32_t[::1] pc,
                     int f, int64_t[::1] out) except -1:
    cdef Py_ssize_t i = 0, j, k, n = h.shape[0]
    # Chunks only where signals are handled (gd_watch_signals); elsewhere one GIL-free run.
    cdef Py_ssize_t chunk = MANY_CHUNK if gd_watch_signals() else n
    while i < n:
        j = i + chunk if i + chunk < n else n
        with nogil:
            for k in range(i, j):
                out[k] = count_plays(h[k, 0], h[k, 1], lv[k], pc[k], f)
        if chunk != n:
            PyErr_CheckSignals()
        i = j
    return 0


def count_legal_plays_many(hands, levels, pile_codes=None, flags=0, out=None):
    """count_legal_plays of every row: hands a (n, 2) uint64 array of (once, twice), levels an
    int or an integer array (n,), pile_codes None (all leads) or a uint32 array (n,).
    Returns int64 (n,) (written into `out` if given, only once every row is done).

    >>> import numpy as np
    >>> hands = np.array([[0b11, 0b11], [0b1, 0]], dtype=np.uint64)
    >>> count_legal_plays_many(hands, 3).tolist()
    [8, 1]
    """
    cdef int f = _flags_arg(flags)
    h, lvs, piles = _many_args(hands, levels, pile_codes, f)
    cdef Py_ssize_t n = h.shape[0]
    res = np.empty(n, np.int64)
    _count_rows(h, lvs, piles, f, res)
    if out is None:
        return res
    # Held (its real size, dtype and writability from its buffer) only now, and written
    # with one memcpy: a refused or interrupted call leaves `out` untouched.
    cdef HeldBuffer o = array_out(out, "out", cnp.NPY_INT64, n)
    if n:
        memcpy(o.data, cnp.PyArray_DATA(res), n * sizeof(int64_t))
    o.release()
    return out


cdef int _fill_rows(const uint64_t[:, ::1] h, const uint8_t[::1] lv, const uint32_t[::1] pc,
                    int f, const int64_t[::1] off, uint64_t* masks, uint32_t* codes) except -1:
    cdef Py_ssize_t i = 0, j, k, n = h.shape[0], bad = -1
    cdef GHand g
    cdef Out o
    cdef Py_ssize_t chunk = MANY_CHUNK if gd_watch_signals() else n
    while i < n:
        j = i + chunk if i + chunk < n else n
        with nogil:
            for k in range(i, j):
                ghand_init(&g, h[k, 0], h[k, 1], lv[k], f)
                o.masks = masks + 2 * off[k]
                o.codes = codes + off[k]
                o.n = 0
                o.cap = off[k + 1] - off[k]
                o.overflow = 0
                if o.cap:
                    gen_plays(&g, pc[k], &o)
                if o.overflow or o.n != o.cap:
                    bad = k
                    break
        if bad >= 0:
            raise RuntimeError(f"legal_plays_many: row {bad} listed a different number of plays "
                               "than it counted (a core bug)")
        if chunk != n:
            PyErr_CheckSignals()
        i = j
    return 0


def legal_plays_many(hands, levels, pile_codes=None, flags=0):
    """legal_plays of every row, in CSR layout: `(offsets, masks, codes)`, where row i's plays
    are `masks[offsets[i]:offsets[i + 1]]` ((once, twice) pairs) and the same slice of
    `codes`, each row in the order of legal_plays. Same arguments as count_legal_plays_many.

    >>> import numpy as np
    >>> offsets, masks, codes = legal_plays_many(np.array([[0b11, 0b11], [1, 0]], dtype=np.uint64), 3)
    >>> offsets.tolist(), masks[8].tolist()
    ([0, 8, 9], [1, 0])
    """
    cdef int f = _flags_arg(flags)
    h, lvs, piles = _many_args(hands, levels, pile_codes, f)
    cdef Py_ssize_t n = h.shape[0]
    counts = np.empty(n, np.int64)
    _count_rows(h, lvs, piles, f, counts)
    offsets = np.zeros(n + 1, np.int64)
    np.cumsum(counts, out=offsets[1:])
    cdef int64_t total = offsets[n]
    if total > MAX_PLAYS_MANY:
        raise ValueError(f"these hands have {total} legal plays in all; at most {MAX_PLAYS_MANY} "
                         "per call (split the batch, or use count_legal_plays_many)")
    masks = np.empty((total, 2), np.uint64)
    codes = np.empty(total, np.uint32)
    cdef uint64_t[:, ::1] mv = masks
    cdef uint32_t[::1] cv = codes
    if total:
        _fill_rows(h, lvs, piles, f, offsets, &mv[0, 0], &cv[0])
    return offsets, masks, codes
