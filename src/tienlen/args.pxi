# Every argument of the Python API, validated: masks inside the deck, codes that classify
# could have produced, flags we know, bounded ints; ValueError naming the argument, never
# OverflowError/TypeError. Included by api.pxi.

cdef str _quote(object obj, Py_ssize_t limit=80):
    """repr(obj) for an error message, cut to `limit` characters: a tampered argument may be
    huge, and an error that prints megabytes hides its own reason."""
    try:
        text = repr(obj)
    except Exception:                       # a hostile __repr__ must not mask the real error
        text = f"<{type(obj).__name__} object>"
    if len(text) > limit:
        text = text[:limit - 1] + "\u2026"
    return text


cdef inline object _as_int(object obj):
    """`obj` as an int, by `__index__`: floats, strings and bools raise TypeError (Cython's
    own conversion would truncate 1.5 to 1). Exact ints, the hot path, pass straight on."""
    if type(obj) is int:
        return obj
    if isinstance(obj, bool):
        raise TypeError("a bool is not a number here")
    return operator.index(obj)


cdef uint64_t _mask_arg(object obj, str name) except? 0xFFFFFFFFFFFFFFFF:
    # The hot path, an exact int inside the deck, converted without raising (so without
    # the cost of entering a try block); everything else takes the checked path below.
    cdef int overflow = 0
    cdef long long v
    if type(obj) is int:
        v = PyLong_AsLongLongAndOverflow(obj, &overflow)
        if overflow == 0 and v >= 0 and (v >> 52) == 0:
            return <uint64_t>v
    return _mask_arg_checked(obj, name)


cdef uint64_t _mask_arg_checked(object obj, str name) except? 0xFFFFFFFFFFFFFFFF:
    cdef uint64_t m
    try:
        m = _as_int(obj)
    except (OverflowError, TypeError):
        raise ValueError(f"{name} must be a card mask, an int in [0, 2**52); got {_quote(obj)}") from None
    if m >> 52:
        raise ValueError(f"{name} has bits above 51 (cards are 0..51); got {_quote(obj)}")
    return m


cdef object _ZERO = 0


cdef inline uint64_t _flags_arg(object flags) except? 0xFFFFFFFFFFFFFFFF:
    """A Rules.flags word (64 bits; tienlen.rules documents the layout). Bits the core does
    not know are refused, never ignored."""
    # The default (the contract) is CPython's one cached 0: one pointer test, no conversion
    # on the per-call hot path.
    if flags is _ZERO:
        return 0
    return _flags_word(flags)


cdef uint64_t _flags_word(object flags) except? 0xFFFFFFFFFFFFFFFF:
    cdef int64_t f
    try:
        f = _as_int(flags)
    except (OverflowError, TypeError):
        raise ValueError(f"flags must be an int; got {_quote(flags)}") from None
    if f < 0 or (<uint64_t>f & ~F_ALL):
        raise ValueError(f"unknown rule flags {_quote(flags)} (known: bits 0..36, "
                         "tienlen.rules.Rules.flags)")
    return <uint64_t>f


cdef uint32_t _code_arg(object code, uint64_t flags, str name) except? 0xFFFFFFFF:
    cdef int64_t c
    try:
        c = _as_int(code)
    except (OverflowError, TypeError):
        raise ValueError(f"{name} must be a combo code (int); got {_quote(code)}") from None
    if c < 0 or c > 0xFFFF or not c_code_valid(<uint32_t>c, flags):
        raise ValueError(f"{name} is not a valid combo code under flags={flags}: {_quote(code)}")
    return <uint32_t>c


cdef int _card_arg(object card, str name, bint allow_none) except -2:
    cdef int64_t c
    try:
        c = _as_int(card)
    except (OverflowError, TypeError):
        raise ValueError(f"{name} must be a card index 0..51{' or -1' if allow_none else ''}; got {_quote(card)}") from None
    if c == -1 and allow_none:
        return -1
    if c < 0 or c > 51:
        raise ValueError(f"{name} must be a card index 0..51{' or -1' if allow_none else ''}; got {_quote(card)}")
    return <int>c


cdef int64_t _int_arg(object obj, str name, int64_t lo, int64_t hi) except? -9:
    """An int in lo..hi, taken by __index__ (floats, strings and bools refused)."""
    try:
        v = _as_int(obj)
    except TypeError:
        raise ValueError(f"{name} must be an int; got {_quote(obj)}") from None
    if v < lo or v > hi:
        raise ValueError(f"{name} must be in {lo}..{hi}; got {_quote(obj)}")
    return v


cdef inline int _small_int_arg(object obj, str name, int lo, int hi) except? -9:
    """An int in lo..hi (bools refused: True is not a seat)."""
    return <int>_int_arg(obj, name, lo, hi)


cdef inline int64_t _count_arg(object obj, str name) except -1:
    """A count: an int in 0..2**40."""
    return _int_arg(obj, name, 0, <int64_t>1 << 40)


cdef inline int64_t _any_code_arg(object code) except -1:
    """A code for the field accessors: any uint32, taken by __index__ (not checked valid, so
    that a caller may take apart a code it built with make_code)."""
    return _int_arg(code, "code", 0, 0xFFFFFFFF)
