# Python-facing per-call API.
#
# Validation is the minimum that keeps every call memory-safe and every answer meaningful:
# masks inside the 54 card types with `twice` a subset of `once`, a level 2..14, known flags,
# pile codes that classify could have produced. Everything raises ValueError naming the
# argument (never OverflowError/TypeError), so callers catch one thing.

import operator

import numpy as np
cimport numpy as cnp
from cpython.exc cimport PyErr_CheckSignals
from libc.stdlib cimport malloc, free
from libc.string cimport memcpy
from cpython.ref cimport Py_INCREF
from cpython.object cimport PyObject

cnp.import_array()

cdef extern from "Python.h":
    unsigned long PyThread_get_thread_ident() noexcept nogil

import threading as _gd_threading
cdef unsigned long _gd_main_thread_ident = _gd_threading.main_thread().ident


cdef inline bint gd_watch_signals() noexcept nogil:
    """Whether this thread handles signals, so that long loops should stop now and then to
    run the handlers (Ctrl-C). Only the main thread does: on any other thread
    PyErr_CheckSignals does nothing, and taking the GIL back between chunks only queues the
    loop behind every Python thread that holds it (a batch call beside a busy Python thread
    ran 5x slower, and two batch calls on two threads hardly overlapped)."""
    return PyThread_get_thread_ident() == _gd_main_thread_ident


cdef extern from "Python.h":
    # For an exact int this never raises: a value outside int64 only sets *overflow.
    long long PyLong_AsLongLongAndOverflow(object obj, int* overflow) noexcept


cdef extern from "numpy/arrayobject.h":
    # (numpy's __init__.pxd leaves it out.) Steals a reference to `descr`; NULL on error.
    object PyArray_NewFromDescr(type subtype, PyObject* descr, int nd, cnp.npy_intp* dims,
                                cnp.npy_intp* strides, void* data, int flags, PyObject* obj)


cdef object _ZERO = 0           # CPython's one cached 0: the default of every optional argument

SINGLE = K_SINGLE
PAIR = K_PAIR
TRIPLE = K_TRIPLE
FULL_HOUSE = K_FULL_HOUSE
STRAIGHT = K_STRAIGHT
THREE_PAIRS = K_THREE_PAIRS
PLATE = K_PLATE
BOMB = K_BOMB
STRAIGHT_FLUSH = K_STRAIGHT_FLUSH
JOKER_BOMB = K_JOKER_BOMB
NO_STRAIGHT_FLUSH = F_NO_STRAIGHT_FLUSH
NO_ACE_TOP = F_NO_ACE_TOP
BOMB_BY_RANK = F_BOMB_BY_RANK
NO_WILDS = F_NO_WILDS
ALL_FLAGS = F_ALL
SMALL_JOKER = R_SMALL_JOKER
BIG_JOKER = R_BIG_JOKER
FULL_DECK = DECK54


cdef inline object _as_int(object obj):
    """`obj` as an int by `__index__`: floats, strings, None and bools raise TypeError
    (Cython's own conversion would truncate 1.5 to 1)."""
    if type(obj) is int:
        return obj
    if isinstance(obj, bool):
        raise TypeError("a bool is not a number here")
    return operator.index(obj)


cdef inline bint _small_int(object obj, int64_t* out) noexcept:
    """Whether `obj` is exactly an int (not a bool, not a subclass) inside int64, with its
    value in *out: the common case of every argument, taken without a try block or a
    temporary object. Anything else goes to the checked path, which says what is wrong."""
    cdef int overflow = 0
    if type(obj) is not int:
        return False
    out[0] = PyLong_AsLongLongAndOverflow(obj, &overflow)
    return overflow == 0


cdef str _quote(object obj, Py_ssize_t limit=80):
    """repr(obj) for an error message, cut to `limit` characters (as the Tiến Lên core's):
    a huge argument must not make a megabyte message, and a __repr__ that raises must not
    replace the ValueError being raised."""
    try:
        text = repr(obj)
    except Exception:
        text = f"<{type(obj).__name__} object>"
    if len(text) > limit:
        text = text[:limit - 1] + "\u2026"
    return text


cdef int64_t _int_arg(object obj, str name, int64_t lo, int64_t hi) except? -9:
    try:
        v = _as_int(obj)
    except TypeError:
        raise ValueError(f"{name} must be an int; got {_quote(obj)}") from None
    if v < lo or v > hi:
        raise ValueError(f"{name} must be in {lo}..{hi}; got {_quote(obj)}")
    return v


cdef uint64_t _mask_arg(object obj, str name) except? 0xFFFFFFFFFFFFFFFF:
    cdef uint64_t m
    try:
        m = _as_int(obj)
    except (OverflowError, TypeError):
        raise ValueError(f"{name} must be a card-type mask, an int in [0, 2**54); got {_quote(obj)}") from None
    if m >> 54:
        raise ValueError(f"{name} has bits above 53 (card types are 0..53); got {_quote(obj)}")
    return m


cdef int _hand_arg(object once, object twice, str name, uint64_t* out) except -1:
    """A multiset as (once, twice): `twice` (the types held twice) must lie inside `once`.
    (The argument names are built only for an error message: this is on every hot path.)"""
    cdef int64_t a, b
    if _small_int(once, &a) and _small_int(twice, &b) and ((<uint64_t>a | <uint64_t>b) >> 54) == 0:
        out[0] = <uint64_t>a        # (a negative value has its top bits set: not taken here)
        out[1] = <uint64_t>b
    else:
        out[0] = _mask_arg(once, f"{name} once")
        out[1] = _mask_arg(twice, f"{name} twice")
    if out[1] & ~out[0]:
        raise ValueError(f"{name}: twice has card types that once lacks "
                         f"({out[1] & ~out[0]:#x}): a type held twice is held once too")
    return 0


cdef int _level_arg(object level) except -1:
    cdef int64_t v
    if _small_int(level, &v) and 2 <= v <= 14:
        return <int>v
    try:
        v = _as_int(level)
    except (TypeError, OverflowError):
        raise ValueError(f"level must be an int 2..14 (14 = A); got {_quote(level)}") from None
    if v < 2 or v > 14:
        raise ValueError(f"level must be 2..14 (14 = A); got {_quote(level)}")
    return <int>v


cdef int _flags_arg(object flags) except -1:
    cdef int64_t f
    if flags is _ZERO:
        return 0                    # the default (RuleConfig.standard()): one pointer test
    if _small_int(flags, &f) and 0 <= f <= F_ALL:
        return <int>f
    try:
        f = _as_int(flags)
    except (OverflowError, TypeError):
        raise ValueError(f"flags must be an int; got {_quote(flags)}") from None
    if f < 0 or (f & ~(<int64_t>F_ALL)):
        raise ValueError(f"unknown rule flags {_quote(flags)} (known bits: NO_STRAIGHT_FLUSH=1, "
                         "NO_ACE_TOP=2, BOMB_BY_RANK=4, NO_WILDS=8)")
    return <int>f


cdef uint32_t _code_arg(object code, int level, int flags, str name, bint allow_zero) except? 0xFFFFFFFF:
    cdef int64_t c
    if _small_int(code, &c) and ((c == 0 and allow_zero) or
                                 (0 < c <= 0xFFFF and c_code_valid(<uint32_t>c, level, flags))):
        return <uint32_t>c
    try:
        c = _as_int(code)
    except (OverflowError, TypeError):
        raise ValueError(f"{name} must be a play code (int); got {_quote(code)}") from None
    if c == 0 and allow_zero:
        return 0
    if c <= 0 or c > 0xFFFF or not c_code_valid(<uint32_t>c, level, flags):
        raise ValueError(f"{name} is not a play at level {level} under flags={flags}: {_quote(code)}")
    return <uint32_t>c


cdef uint64_t _seed_arg(object seed) except? 0xFFFFFFFFFFFFFFFF:
    try:
        return <uint64_t>_as_int(seed)
    except (OverflowError, TypeError):
        raise ValueError(f"seed must be an int in [0, 2**64); got {_quote(seed)}") from None


cdef inline int64_t _any_code_arg(object code) except -1:
    """A code for the field accessors: any uint32 by __index__ (not checked to be a play, so
    that a caller may take apart a code it built with make_code)."""
    return _int_arg(code, "code", 0, 0xFFFFFFFF)

def code_kind(code):
    """Kind of a play code (1..10)."""
    return _any_code_arg(code) >> 12

def code_size(code):
    """Number of cards of a play code."""
    return (_any_code_arg(code) >> 6) & 63

def code_rank(code):
    """Rank field of a play code (2..14 natural, 15 ☆, 16 ★; a window's top rank)."""
    return _any_code_arg(code) & 63

def make_code(kind, size, rank):
    """Pack a play code. Only the field ranges are checked: `is_play_code` says whether it
    is a reading classify can return."""
    return mkcode(_int_arg(kind, "kind", 1, 10), _int_arg(size, "size", 1, 10),
                  _int_arg(rank, "rank", 2, 16))


def is_play_code(code, level, flags=0):
    """Whether `code` is a reading some multiset has at `level` under `flags`.

    >>> is_play_code(make_code(BOMB, 10, 7), 2), is_play_code(make_code(BOMB, 10, 2), 2)
    (True, False)
    """
    cdef int lv = _level_arg(level)
    cdef int f = _flags_arg(flags)
    try:
        c = _as_int(code)
    except TypeError:
        raise ValueError(f"code must be an int; got {_quote(code)}") from None
    return 0 < c <= 0xFFFF and c_code_valid(<uint32_t>c, lv, f)


def wild_card(level, flags=0):
    """original_id of the wild card at `level` (the ♥ of the level rank), -1 without wilds.

    >>> wild_card(2), wild_card(14), wild_card(5, NO_WILDS)
    (1, 49, -1)
    """
    return wild_id(_level_arg(level), _flags_arg(flags))


def compare_value(code, level, flags=0):
    """The value plays of the same kind and size compare by (a window's top rank, else the
    single-card order: a level card is 15, ☆ 16, ★ 17); for bombs, their bomb key (G3)."""
    cdef int lv = _level_arg(level)
    cdef int f = _flags_arg(flags)
    cdef uint32_t c = _code_arg(code, lv, f, "code", False)
    if kind_is_bomb(ckind(c)):
        return bomb_key(c, lv, f)
    return play_value(c, lv)


def classify(once, twice, level, flags=0):
    """Every reading (play code) of the multiset (once, twice) at `level`, ascending; ()
    when it is not a play (G2).

    >>> sevens = 0b1111 << 20                      # 7♠ 7♥ 7♣ 7♦ (rank 7: bits 20..23)
    >>> [hex(c) for c in classify(sevens, 1 << 20, 9)]   # and a second 7♠: a 5-card bomb
    ['0x8147']
    >>> wilds = 1 << 29                            # 9♥, wild at level 9, held twice
    >>> [(code_kind(c), code_rank(c)) for c in classify(0b111 << 20 | wilds, wilds, 9)]
    [(4, 7), (8, 7)]
    """
    cdef uint64_t h[2]
    cdef uint32_t out[MAX_READINGS]
    cdef int n, i
    _hand_arg(once, twice, "cards", h)
    n = c_classify(h[0], h[1], _level_arg(level), _flags_arg(flags), out)
    return tuple([out[i] for i in range(n)])


def beats(code, pile_code, level, flags=0):
    """Whether a play read as `code` may go on a pile read as `pile_code` (0: an empty pile,
    which any play leads on), both at `level` (G3).

    >>> beats(make_code(SINGLE, 1, 2), make_code(SINGLE, 1, 14), 2)   # a level 2 above A
    True
    >>> beats(make_code(STRAIGHT_FLUSH, 5, 9), make_code(BOMB, 5, 14), 2)
    True
    >>> beats(make_code(STRAIGHT_FLUSH, 5, 9), make_code(BOMB, 5, 14), 2, BOMB_BY_RANK)
    False
    """
    cdef int lv = _level_arg(level)
    cdef int f = _flags_arg(flags)
    return c_beats(_code_arg(code, lv, f, "code", False), _code_arg(pile_code, lv, f, "pile_code", True), lv, f)


def count_legal_plays(once, twice, level, pile_code=0, flags=0):
    """Number of legal plays, in closed form (no enumeration).

    >>> count_legal_plays(0b11, 0b11, 3)   # 2♠ 2♠ 2♥ 2♥: 2 singles, 3 pairs, 2 triples, 1 bomb
    8
    """
    cdef uint64_t h[2]
    cdef int lv, f
    cdef uint32_t p
    _hand_arg(once, twice, "hand", h)
    lv = _level_arg(level)
    f = _flags_arg(flags)
    p = _code_arg(pile_code, lv, f, "pile_code", True)
    return count_plays(h[0], h[1], lv, p, f)


def legal_plays(once, twice, level, pile_code=0, flags=0):
    """Every legal play of the hand (once, twice) at `level` on `pile_code` (0 = lead):
    `(masks, codes)`, masks a (n, 2) uint64 array of (once, twice) per play and codes the
    uint32 reading of each. A multiset with two readings is listed once per reading.

    >>> hand = 0b101                # 2♠ 2♣ (ids 0 and 2), both held twice; level 2
    >>> masks, codes = legal_plays(hand, hand, 2, make_code(PAIR, 2, 14))   # on a pair of As
    >>> masks.tolist()              # three pairs of level 2s, then the 4-card bomb
    [[5, 0], [1, 1], [4, 4], [5, 5]]
    >>> [hex(c) for c in codes]
    ['0x2082', '0x2082', '0x2082', '0x8102']
    """
    cdef uint64_t h[2]
    cdef int lv, f
    cdef uint32_t p
    _hand_arg(once, twice, "hand", h)
    lv = _level_arg(level)
    f = _flags_arg(flags)
    p = _code_arg(pile_code, lv, f, "pile_code", True)
    return _plays_arrays(h[0], h[1], lv, p, f)


cdef enum:
    # Plays listed into a stack buffer first (20 bytes each): every follow and most leads of
    # a 27-card hand fit, so they need one generation pass, not a count and then a listing.
    STACK_PLAYS = 1024
    # A lead from more cards than this often has more plays than the stack buffer holds, and
    # a listing that overflows it would be thrown away: such leads list into LEAD_MASKS /
    # LEAD_CODES instead, which hold all but ~0.03% of 27-card leads (the most seen in 20,000
    # dealt hands at random levels: 4,324; median 476).
    STACK_LEAD_CARDS = 18
    LEAD_PLAYS = 4096


# The lead buffer (80 kB, made once: a malloc of this size per call cost 3% of a lead). Only
# _plays_arrays uses it, from listing to copy with the GIL held throughout and without
# calling into Python in between, so no other call can use it meanwhile (the batch API,
# which releases the GIL, lists into its own arrays).
cdef uint64_t LEAD_MASKS[2 * LEAD_PLAYS]
cdef uint32_t LEAD_CODES[LEAD_PLAYS]


cdef cnp.dtype _U64 = np.dtype(np.uint64)
cdef cnp.dtype _U32 = np.dtype(np.uint32)


cdef cnp.ndarray _new_array(cnp.dtype dt, int nd, int64_t n):
    """An uninitialised (n,) or (n, 2) array of `dt`, from a dtype made once (what
    PyArray_SimpleNew would look up on every call). Runs no Python code."""
    cdef cnp.npy_intp dims[2]
    dims[0] = n
    dims[1] = 2
    Py_INCREF(dt)       # PyArray_NewFromDescr steals a reference to the dtype: give it one
    return PyArray_NewFromDescr(cnp.ndarray, <PyObject*>dt, nd, dims, NULL, NULL, 0, NULL)


cdef tuple _new_arrays(int64_t n):
    """Uninitialised `(masks (n, 2) uint64, codes (n,) uint32)`."""
    return _new_array(_U64, 2, n), _new_array(_U32, 1, n)


cdef tuple _copied_arrays(const Out* o):
    """The plays listed in o's buffer, copied into arrays of the exact size. Each copy is
    made as soon as its array exists, before anything that can run Python code (the tuple:
    a collection, a finalizer): the lead buffer is shared by every call."""
    cdef cnp.ndarray masks = _new_array(_U64, 2, o.n)
    memcpy(cnp.PyArray_DATA(masks), o.masks, o.n * 2 * sizeof(uint64_t))
    cdef cnp.ndarray codes = _new_array(_U32, 1, o.n)
    memcpy(cnp.PyArray_DATA(codes), o.codes, o.n * sizeof(uint32_t))
    return masks, codes


cdef tuple _plays_arrays(uint64_t once, uint64_t twice, int lv, uint32_t p, int f):
    cdef GHand hand
    cdef Out o
    cdef tuple res
    cdef uint64_t sbuf[2 * STACK_PLAYS]
    cdef uint32_t scodes[STACK_PLAYS]
    ghand_init(&hand, once, twice, lv, f)
    o.n = 0
    o.overflow = 0
    if p != 0 or ghand_size(&hand) <= STACK_LEAD_CARDS:
        # One pass into the stack buffer: follows, and leads of smaller hands, fit.
        o.masks = sbuf
        o.codes = scodes
        o.cap = STACK_PLAYS
        gen_plays(&hand, p, &o)
        if not o.overflow:
            return _copied_arrays(&o)
    else:
        # One pass into the lead buffer.
        o.masks = LEAD_MASKS
        o.codes = LEAD_CODES
        o.cap = LEAD_PLAYS
        gen_plays(&hand, p, &o)
        if not o.overflow:
            return _copied_arrays(&o)
    # More plays than the buffer holds: count (closed form, a fraction of the listing's
    # cost), then list straight into arrays of the exact size.
    o.masks = NULL
    o.codes = NULL
    o.n = 0
    o.cap = 0
    o.overflow = 0
    gen_plays(&hand, p, &o)
    res = _new_arrays(o.n)
    o.cap = o.n
    o.n = 0
    if o.cap:
        o.masks = <uint64_t*>cnp.PyArray_DATA(<cnp.ndarray>res[0])
        o.codes = <uint32_t*>cnp.PyArray_DATA(<cnp.ndarray>res[1])
        gen_plays(&hand, p, &o)
    if o.overflow or o.n != o.cap:
        raise RuntimeError("legal_plays: the count and the listing disagree (a core bug)")
    return res


def deal(seed):
    """The deal for `seed` (an int in [0, 2**64)): four hands of 27 cards, each a
    `(once, twice)` pair of masks. Seat p takes positions 27p..27p+26 of `shuffle(seed)`.

    >>> hands = deal(0)
    >>> [bin(o).count("1") + bin(t).count("1") for o, t in hands]
    [27, 27, 27, 27]
    >>> all(t & ~o == 0 for o, t in hands)
    True
    """
    cdef uint64_t hands[8]
    g_deal(_seed_arg(seed), hands)
    return tuple([(hands[2 * p], hands[2 * p + 1]) for p in range(4)])


def shuffle(seed):
    """The 108 card_ids (original_id + 54 * deck) in the order `seed` shuffles them:
    Fisher-Yates with xoshiro256** seeded by splitmix64(seed), the generator of
    tienlen.core.deal.

    >>> order = shuffle(1)
    >>> len(order), sorted(order) == list(range(108))
    (108, True)
    """
    cdef uint8_t deck[108]
    g_shuffle(_seed_arg(seed), deck)
    return tuple([deck[i] for i in range(108)])
