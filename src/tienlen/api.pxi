# Python-facing per-call API: codes, classify, beats, legal moves, deals (the game state's
# API is state_api.pxi, the playouts' playouts_api.pxi).
#
# Validation here is the minimum that keeps every call memory-safe and every answer
# meaningful: masks inside the deck, codes that classify could have produced, flags we know.
# Everything raises ValueError (never OverflowError/TypeError) so callers catch one thing.

import operator

import numpy as np
cimport numpy as cnp
from cpython.long cimport PyLong_AsLongLongAndOverflow
from cpython.list cimport PyList_New, PyList_SET_ITEM
from cpython.object cimport PyObject
from cpython.ref cimport Py_INCREF

cnp.import_array()

SINGLE = K_SINGLE
PAIR = K_PAIR
TRIPLE = K_TRIPLE
QUAD = K_QUAD
SEQUENCE = K_SEQUENCE
DOUBLE_SEQUENCE = K_DOUBLE_SEQUENCE
NO_TWOS_IN_SEQUENCES = F_NO_TWOS
FULL_DECK = DECK_MASK
MAX_MOVES = MAX_MOVES_C
MAX_MOVES_13_CARDS = MAX_MOVES_13
RANDOM = P_RANDOM
GREEDY = P_GREEDY
PLAN = P_PLAN

OK = R_OK
GAME_OVER = R_GAME_OVER
CARDS_NOT_IN_HAND = R_CARDS_NOT_IN_HAND
NOT_A_COMBINATION = R_NOT_A_COMBINATION
MUST_INCLUDE_LOWEST = R_MUST_INCLUDE_LOWEST
LOCKED_OUT = R_LOCKED_OUT
DOES_NOT_BEAT = R_DOES_NOT_BEAT
CANNOT_PASS_ON_LEAD = R_CANNOT_PASS_ON_LEAD

REASON_NAMES = {
    R_OK: "OK",
    R_GAME_OVER: "GAME_OVER",
    R_CARDS_NOT_IN_HAND: "CARDS_NOT_IN_HAND",
    R_NOT_A_COMBINATION: "NOT_A_COMBINATION",
    R_MUST_INCLUDE_LOWEST: "MUST_INCLUDE_LOWEST",
    R_LOCKED_OUT: "LOCKED_OUT",
    R_DOES_NOT_BEAT: "DOES_NOT_BEAT",
    R_CANNOT_PASS_ON_LEAD: "CANNOT_PASS_ON_LEAD",
}


# ---------------------------------------------------------------- Ctrl-C in native loops
include "signals.pxi"
include "args.pxi"


def code_kind(code):
    """Kind of a combo code (1..6; 0 for the 0 code)."""
    return _any_code_arg(code) >> 12

def code_len(code):
    """Number of cards of a combo code."""
    return (_any_code_arg(code) >> 6) & 63

def code_top(code):
    """Top (strongest) card index of a combo code."""
    return _any_code_arg(code) & 63

def make_code(kind, ncards, top):
    """Pack a combo code. Only the field ranges are checked: use classify() to get codes
    from cards."""
    return mkcode(_small_int_arg(kind, "kind", 0, 6), _small_int_arg(ncards, "ncards", 0, 52),
                  _small_int_arg(top, "top", 0, 51))


def classify(mask, flags=0):
    """Combo code of the cards in `mask`, or 0 if they are not one combination (R2).

    >>> classify(0b1111) == make_code(QUAD, 4, 3)        # all four 3s
    True
    >>> code = classify((1 << 0) | (1 << 4) | (1 << 9))   # 3♠ 4♠ 5♣
    >>> code_kind(code) == SEQUENCE, code_len(code), code_top(code)
    (True, 3, 9)
    >>> classify(0b1 | 1 << 8)                            # 3♠ 5♠ is nothing
    0
    """
    return _code_obj(c_classify(_mask_arg(mask, "mask"), _flags_arg(flags)))


# The int object of each combo code classify has returned (codes are below 2**15: kind <= 6
# at bit 12), kept so that a per-call classify returns a shared int instead of allocating
# one per call, as CPython does for ints up to 256. Filled on first use, under the GIL.
cdef PyObject* _CODE_OBJS[1 << 15]


cdef inline object _code_obj(uint32_t code):
    cdef PyObject* cached
    cdef object obj
    if code >= (1 << 15):
        return code
    cached = _CODE_OBJS[code]
    if cached != NULL:
        return <object>cached
    obj = code
    Py_INCREF(obj)              # the table's own reference, never released
    _CODE_OBJS[code] = <PyObject*>obj
    return obj


def beats(code, pile_code, flags=0):
    """Whether a play with combo `code` may go on a pile topped by `pile_code` (R3, R4).

    `pile_code == 0` is an empty pile, which any combination may lead on.

    >>> beats(classify(1 << 4), classify(1 << 3))         # 4♠ on 3♥
    True
    >>> beats(classify(0b1111), classify(1 << 48))        # quad of 3s on 2♠: a bomb
    True
    >>> beats(classify(0b1111), classify(1 << 47))        # ... but not on A♥
    False
    """
    cdef uint64_t f = _flags_arg(flags)
    cdef RuleTable rt
    rules_decode(&rt, f)
    return c_beats(_code_arg(code, f, "code"), _code_arg(pile_code, f, "pile_code"), rt.cuts)


def is_two_combo(code):
    """Whether `code` is a single, pair or triple of 2s (what the contract's bombs cut)."""
    return c_is_two_combo(_code_arg(code, 0, "code"))


def cut_class(code):
    """The rule table's class of a combo code: its index in ``rules.ALL_TARGETS`` (0 single
    2, 1 pair of 2s, 2 triple of 2s, 3 quad, 4/5/6 double sequence of 3/4/5 pairs), or -1
    when no table entry can name it. A bomb of ``rules.ALL_BOMBS`` index b is class 3 + b.

    >>> cut_class(classify(1 << 51)), cut_class(classify(0b1111)), cut_class(classify(1 << 47))
    (0, 3, -1)
    """
    cdef int c = code_class(_code_arg(code, 0, "code"))
    return -1 if c == CL_NONE else c


def cut_targets(code, flags=0, out_of_turn=False):
    """The classes (see cut_class) that a play of combo `code` cuts by the rule table of
    `flags`: in turn, or, with `out_of_turn`, when played by a seat locked out of the pile
    (R5.2, R11.2). A class equal to the play's own means "a lower one of its kind".

    >>> cut_targets(classify(0b1111))                          # R4.1: a quad cuts a single 2
    (0,)
    >>> cut_targets(classify(0b1111), 0b1 << 3)                # ... and, toggled, a triple of 2s
    (0, 2)
    """
    cdef uint64_t f = _flags_arg(flags)
    cdef RuleTable rt
    cdef int c = code_class(_code_arg(code, f, "code"))
    rules_decode(&rt, f)
    cdef uint64_t row = ((rt.out_cuts if out_of_turn else rt.cuts) >> (8 * c)) & 0x7F
    return tuple(t for t in range(7) if (row >> t) & 1)


def cutters(pile_code, flags=0, out_of_turn=False):
    """The bomb classes (3..6, see cut_class) that cut a pile of combo `pile_code` by the
    table of `flags`, in turn or (`out_of_turn`) by a locked-out seat. Non-empty out of
    turn is exactly when a locked-out seat gets the turn on this pile (R5.3, R11.2).

    >>> cutters(classify(1 << 51)), cutters(classify(1 << 51), out_of_turn=True)
    ((3, 4), (3, 4))
    >>> cutters(classify(1 << 47))
    ()
    """
    cdef uint64_t f = _flags_arg(flags)
    cdef RuleTable rt
    cdef int c = code_class(_code_arg(pile_code, f, "pile_code"))
    rules_decode(&rt, f)
    cdef uint64_t col = ((rt.out_cuts if out_of_turn else rt.cuts) >> c) & BOMB_COLUMN
    return tuple(b for b in range(CL_QUAD, CL_NONE) if (col >> (8 * b)) & 1)


def instant_win(hand, flags=0):
    """R11.3: the instant win a dealt `hand` holds among those `flags` enable, as its
    index in ``rules.ALL_INSTANT_WINS`` (0 four 2s, 1 dragon, 2 six pairs, 3 five
    consecutive pairs; the first that applies), or -1.

    >>> southern = 0b1111 << 33                                # every instant win enabled
    >>> instant_win(0xF << 48 | 0b1, southern), instant_win(0xF << 48, 0)
    (0, -1)
    >>> instant_win(sum(1 << 4 * r for r in range(12)) | 1 << 51, southern)   # 3..A, 2
    1
    """
    return c_instant_win(_mask_arg(hand, "hand"), _flags_arg(flags))


def count_legal_moves(hand, pile_code=0, flags=0, locked_out=False, must_include=-1):
    """Number of legal plays, in closed form (no enumeration, no cap).

    >>> count_legal_moves(0b1111)      # four 3s: 4 singles + 6 pairs + 4 triples + 1 quad
    15
    """
    cdef uint64_t h = _mask_arg(hand, "hand")
    cdef uint64_t f = _flags_arg(flags)
    cdef uint32_t p = _code_arg(pile_code, f, "pile_code")
    cdef int mi = _card_arg(must_include, "must_include", True)
    cdef RuleTable rt
    rules_decode(&rt, f)
    return gen_moves(h, p, &rt, bool(locked_out), mi, NULL)


def legal_moves(hand, pile_code=0, flags=0, locked_out=False, must_include=-1):
    """Every subset of `hand` that may be played now, as a NumPy uint64 array of masks.

    Ordered by (kind, number of cards, mask). `pile_code=0` is a fresh lead; `locked_out`
    means the player has passed on this pile (only the out-of-turn cuts of the rule table
    remain: bombs on 2s under the contract, R5.2); `must_include`
    is a card every move must contain (R7.2), -1 for none. Raises ValueError past MAX_MOVES.

    >>> [int(m) for m in legal_moves(0b10011, classify(0b1))]    # 3♣ 3♠ 4♠ on 3♠
    [2, 16]
    """
    cdef uint64_t h = _mask_arg(hand, "hand")
    cdef uint64_t f = _flags_arg(flags)
    cdef uint32_t p = _code_arg(pile_code, f, "pile_code")
    cdef int mi = _card_arg(must_include, "must_include", True)
    cdef bint lo = bool(locked_out)
    cdef RuleTable rt
    rules_decode(&rt, f)
    return _moves_array(h, p, &rt, lo, mi)


cdef object _moves_array(uint64_t h, uint32_t p, const RuleTable* f, bint lo, int mi):
    cdef uint64_t buf[MAX_MOVES_13]
    cdef cnp.npy_intp n
    cdef cnp.ndarray arr
    if TL_POPCOUNT(h) <= 13:
        # Ordinary hands: one generation pass into a stack buffer, then a copy.
        n = gen_moves(h, p, f, lo, mi, buf)
        arr = cnp.PyArray_SimpleNew(1, &n, cnp.NPY_UINT64)
        if n:
            memcpy(cnp.PyArray_DATA(arr), buf, n * sizeof(uint64_t))
        return arr
    n = gen_moves(h, p, f, lo, mi, NULL)
    if n > MAX_MOVES_C:
        raise ValueError(f"{n} legal moves exceed MAX_MOVES={MAX_MOVES_C}; "
                         "use count_legal_moves for huge hands")
    arr = cnp.PyArray_SimpleNew(1, &n, cnp.NPY_UINT64)
    if n:
        gen_moves(h, p, f, lo, mi, <uint64_t*>cnp.PyArray_DATA(arr))
    return arr


def deal(seed, players=4):
    """The deal for `seed` (an int in [0, 2**64)): a tuple of `players` masks of 13 cards.

    Fisher-Yates over the deck with xoshiro256** seeded by splitmix64(seed); seat p takes
    shuffled positions 13p..13p+12. The same seed gives the same deal everywhere (R1.4).

    >>> hands = deal(0)
    >>> [bin(h).count("1") for h in hands], sum(hands) == FULL_DECK
    ([13, 13, 13, 13], True)
    """
    cdef Rng r
    cdef uint64_t hands[4]
    cdef int n = _small_int_arg(players, "players", 2, 4)
    rng_seed(&r, _seed_arg(seed))
    deal_cards(&r, n, hands, 13)
    return tuple(hands[p] for p in range(n))


cdef uint64_t _seed_arg(object seed) except? 0xFFFFFFFFFFFFFFFF:
    try:
        return <uint64_t>_as_int(seed)
    except (OverflowError, TypeError):
        raise ValueError(f"seed must be an int in [0, 2**64); got {_quote(seed)}") from None


cdef tuple _hands_arg(object hands):
    try:
        return tuple(hands)
    except TypeError:
        raise ValueError(f"hands must be a sequence of 2-4 masks; got {type(hands).__name__}") from None
