# Python-facing per-call API and the GameState class.
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
# Python runs signal handlers only in the main thread and only between bytecodes, so a loop
# that holds no GIL for minutes would ignore Ctrl-C until it ends. Long loops call
# tl_interrupted() every few milliseconds of work: on the main thread it takes the GIL for a
# moment and runs the handlers; an exception they raise (KeyboardInterrupt) is left pending,
# the loop stops, and the caller raises it with _raise_pending(). Other threads never handle
# signals, so for them the check costs nothing.

cdef extern from "Python.h":
    int PyErr_CheckSignals() noexcept
    unsigned long PyThread_get_thread_ident() noexcept nogil

import threading as _threading
cdef unsigned long _main_thread_ident = _threading.main_thread().ident

# How much work between checks, chosen so that a check comes every millisecond or so.
cdef enum:
    CHECK_PLAYOUTS = 64        # playouts (RANDOM about 5 us each, PLAN about 30 us)
    CHECK_ROWS = 2048          # rows counted in closed form (0.1 to 0.6 us each)
    CHECK_MOVES = 1 << 17      # moves written (a few ns each) ...
    CHECK_ROW_COST = 64        # ... counting each row as this many moves besides its own
    CHECK_ELEMENTS = 1 << 20   # classify / beats elements (a few ns each)
    INTERRUPTED = -2           # status of a loop stopped by tl_interrupted()

cdef inline bint tl_watch_signals() noexcept nogil:
    """Whether this thread is the one that handles signals (so loops should check)."""
    return PyThread_get_thread_ident() == _main_thread_ident

cdef bint tl_interrupted() noexcept nogil:
    """Run pending signal handlers; true if one raised (the exception is left pending)."""
    cdef int failed
    with gil:
        failed = PyErr_CheckSignals()
    return failed < 0

cdef int _raise_pending() except -1:
    """Raise the exception tl_interrupted() left pending."""
    return -1


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


cdef class GameState:
    """The compact state of one hand (R5-R9): four masks and a few small ints.

    >>> s = GameState(deal(7))
    >>> s.turn == next(p for p, h in enumerate(s.hands) if h & 1)    # 3♠ holder leads
    True
    >>> s.must_include, s.can_pass()
    (0, False)
    """
    cdef State s

    def __init__(self, hands, leader=-1, flags=0, dealt=False):
        """`dealt=True` says the hands were just dealt, so R11.3 applies: if the rules
        enable instant wins and a hand holds one, the hand is over at once (see
        `instant_win`). Positions set up by hand (the default) are never checked."""
        cdef uint64_t hs[4]
        cdef uint64_t seen = 0
        cdef int n, p, lead
        cdef uint64_t f = _flags_arg(flags)
        hands = _hands_arg(hands)
        n = len(hands)
        if n < 2 or n > 4:
            raise ValueError(f"a hand needs 2, 3 or 4 players; got {n} hands")
        for p in range(4):
            hs[p] = 0
        for p in range(n):
            hs[p] = _mask_arg(hands[p], f"hands[{p}]")
            if hs[p] == 0:
                raise ValueError(f"hands[{p}] is empty: every player needs cards")
            if hs[p] & seen:
                raise ValueError(f"hands[{p}] shares cards with another hand")
            seen |= hs[p]
        lead = -1 if leader is None else _small_int_arg(leader, "leader", -1, n - 1)
        # Built in a local and stored only once checked, so that calling __init__ again
        # with arguments that fail leaves a state in play exactly as it was.
        cdef State built
        st_init(&built, hs, n, lead, f)
        if dealt:
            st_deal_instant_win(&built)
        _check_state(&built)
        self.s = built

    @staticmethod
    def from_fields(hands, pile_mask=0, pile_owner=-1, turn=0, locked_mask=0, finished=(),
                    must_include=-1, flags=0, played_mask=0):
        """Build a state from its fields (for search from a seat's view). Validated by the
        same checks as unpickling (_check_state): a state no game could reach is refused."""
        cdef GameState g = GameState.__new__(GameState)
        _fill_state(&g.s, hands, finished, flags, pile_mask, played_mask)
        _fill_turn(&g.s, pile_owner, turn, locked_mask, must_include, 0)
        _check_state(&g.s)
        return g

    @property
    def players(self):
        return self.s.players

    @property
    def flags(self):
        """The Rules.flags word this state plays under."""
        return self.s.rules.flags

    @property
    def instant_win(self):
        """R11.3: the instant win (rules.ALL_INSTANT_WINS index) that ended this hand at the
        deal, or -1. The winner is finished[0]; the others share last place."""
        return st_instant_win(&self.s)

    @property
    def turn(self):
        """Seat to act, or -1 once the hand is over."""
        return self.s.turn

    @property
    def hands(self):
        return tuple(self.s.hands[p] for p in range(self.s.players))

    def hand(self, seat):
        # The seat is read before the bound: its __index__ may re-initialise this state with
        # fewer players.
        cdef int p = _small_int_arg(seat, "seat", 0, 3)
        if p >= self.s.players:
            raise ValueError(f"seat must be in 0..{self.s.players - 1}; got {_quote(seat)}")
        return self.s.hands[p]

    @property
    def pile_code(self):
        return self.s.pile_code

    @property
    def pile_mask(self):
        return self.s.pile_mask

    @property
    def pile_owner(self):
        return self.s.pile_owner

    @property
    def locked_mask(self):
        return self.s.locked

    @property
    def finished(self):
        return tuple(self.s.order[p] for p in range(self.s.nfinished))

    @property
    def is_over(self):
        return self.s.turn < 0

    @property
    def loser(self):
        return self.s.order[self.s.players - 1] if self.s.turn < 0 else -1

    @property
    def must_include(self):
        return self.s.must_include

    @property
    def played_mask(self):
        return self.s.played

    def legal_moves(self):
        """Legal plays of the seat to act (uint64 array; empty once over). Pass not included."""
        if self.s.turn < 0:
            return np.empty(0, np.uint64)
        return _moves_array(self.s.hands[self.s.turn], self.s.pile_code, &self.s.rules,
                            (self.s.locked >> self.s.turn) & 1, self.s.must_include)

    def count_legal_moves(self):
        return st_moves(&self.s, NULL)

    def legal_moves_list(self):
        """legal_moves() as a list of Python ints: cheaper than an array when the caller
        wraps every move in a Python object anyway."""
        cdef uint64_t buf[STACK_MOVES]
        cdef uint64_t* moves
        cdef int64_t n, i
        if self.s.turn < 0:
            return []
        if TL_POPCOUNT(self.s.hands[self.s.turn]) > 13:
            # Only a hand this big can have more moves than MAX_MOVES: count it first.
            n = st_moves(&self.s, NULL)
            if n > MAX_MOVES_C:
                raise ValueError(f"{n} legal moves exceed MAX_MOVES={MAX_MOVES_C}")
        n = st_moves_buffered(&self.s, buf, STACK_MOVES, &moves)
        if n < 0:
            raise MemoryError()
        try:
            return [moves[i] for i in range(n)]
        finally:
            if moves != buf:
                free(moves)

    def legal_moves_through(self, MaskTable table not None):
        """legal_moves_list() with every mask mapped through `table` (a MaskTable): the
        Python layer passes its table of shared move objects, so listing N moves is N
        probes in C, with no Python int or Python call per move on a hit."""
        return _moves_through(self, table)

    def can_pass(self):
        return st_check_pass(&self.s) == R_OK

    def check_play(self, mask):
        """Reason code (0 = OK) for playing `mask` now."""
        cdef uint32_t code = 0
        return st_check_play(&self.s, _mask_arg(mask, "mask"), &code)

    def check_pass(self):
        return st_check_pass(&self.s)

    def apply(self, mask):
        """Fast path: play `mask` (0 = pass) trusting that it is legal, as OpenSpiel's
        apply_action does, and return the play's combo code (0 for a pass). It still refuses what would corrupt the state (a move after the
        end, cards not held, a non-combination, a pass on an empty pile) with ValueError."""
        cdef uint64_t m
        cdef uint32_t code
        cdef int t
        # The mask first: its __index__ is Python code that may move this state on, so the
        # seat to act is read only once no Python can run before st_play.
        m = _mask_arg(mask, "mask")
        t = self.s.turn
        if t < 0 or self.s.players < 2:
            raise ValueError("the hand is over")
        if m == 0:
            if self.s.pile_code == 0:
                raise ValueError("cannot pass on lead")
            st_pass(&self.s)
            return 0
        code = c_classify(m, self.s.rules.flags)
        if code == 0 or (m & ~self.s.hands[t]):
            raise ValueError("not a combination held by the player to act")
        st_play(&self.s, m, code)
        return code

    def try_play(self, mask):
        """The checked path in one call: play `mask` if it is legal and return its combo code
        (> 0); otherwise change nothing and return minus the reason code."""
        cdef uint32_t code = 0
        cdef uint64_t m = _mask_arg(mask, "mask")
        cdef int reason = st_check_play(&self.s, m, &code)
        if reason != R_OK:
            return -reason
        st_play(&self.s, m, code)
        return code

    def try_pass(self):
        """Pass if allowed and return 0; otherwise change nothing and return minus the reason."""
        cdef int reason = st_check_pass(&self.s)
        if reason != R_OK:
            return -reason
        st_pass(&self.s)
        return 0

    def play_record(self, cards, combos, record):
        """tienlen.Game.play's checked play in one call: if `cards` (an object whose
        ``_mask`` is its card mask, a tienlen Cards) may be played now, play it and return
        ``record((seat, "play", cards, combo))``, the record of the action, where combo is
        ``combos[played_key(mask, code)]``; otherwise change nothing and return minus the
        reason code (an int). `record` is a tuple subclass (tienlen's Action)."""
        cdef uint32_t code = 0
        cdef uint64_t m
        cdef int seat, reason
        cdef MaskTable table
        if not isinstance(combos, MaskTable):
            raise ValueError(f"combos must be a MaskTable; got {_quote(combos)}")
        if not (isinstance(record, type) and issubclass(record, tuple)):
            raise ValueError(f"record must be a tuple subclass; got {_quote(record)}")
        table = <MaskTable>combos
        m = _mask_arg(cards._mask, "cards._mask")
        reason = st_check_play(&self.s, m, &code)
        if reason != R_OK:
            return -reason
        combo = table.find(_played_key(m, code))
        if combo is None:
            # A miss runs the table's factory, Python code: the play is checked again
            # against the state as it is once that returns.
            combo = table.get(_played_key(m, code))
            reason = st_check_play(&self.s, m, &code)
            if reason != R_OK:
                return -reason
        seat = self.s.turn
        st_play(&self.s, m, code)
        return tuple.__new__(record, (seat, _PLAY_WORD, cards, combo))

    def pass_record(self, records):
        """tienlen.Game.pass_turn's checked pass in one call: pass if allowed and return
        ``records[seat]`` (the seat that passed); otherwise change nothing and return minus
        the reason code."""
        cdef int seat = self.s.turn
        cdef int reason
        if type(records) is not tuple:
            raise ValueError(f"records must be a tuple; got {_quote(records)}")
        reason = st_check_pass(&self.s)
        if reason != R_OK:
            return -reason
        if seat >= len(<tuple>records):
            raise ValueError(f"records has no entry for seat {seat}")
        st_pass(&self.s)
        return records[seat]

    def apply_checked(self, mask):
        """Checked path: apply `mask` (0 = pass) or raise ValueError naming the reason."""
        cdef uint32_t code = 0
        cdef int reason
        cdef uint64_t m = _mask_arg(mask, "mask")
        reason = st_check_pass(&self.s) if m == 0 else st_check_play(&self.s, m, &code)
        if reason != R_OK:
            raise ValueError(REASON_NAMES[reason])
        if m == 0:
            st_pass(&self.s)
        else:
            st_play(&self.s, m, code)

    cdef int _require_built(self) except -1:
        if self.s.players < 2:
            raise ValueError("this GameState was never initialised")
        return 0

    def copy(self):
        cdef GameState g = GameState.__new__(GameState)
        g.s = self.s
        return g

    def __copy__(self):
        return self.copy()

    def key(self):
        """Every field as a tuple: equal keys mean equal states."""
        return (self.hands, self.s.pile_mask, self.s.pile_code, self.s.pile_owner, self.s.turn,
                self.s.locked, self.finished, self.s.must_include, self.s.rules.flags, self.s.played)

    def __eq__(self, other):
        if not isinstance(other, GameState):
            return NotImplemented
        return self.key() == other.key()

    __hash__ = None

    def __reduce__(self):
        return (_state_from_key, (self.key(),))

    def __repr__(self):
        return (f"GameState(turn={self.s.turn}, pile_code={self.s.pile_code}, "
                f"owner={self.s.pile_owner}, locked={self.s.locked:#x}, finished={self.finished})")

    def playout(self, seed, policy=P_RANDOM):
        """Finishing order of a playout from here by `policy` (RANDOM, GREEDY or PLAN). The
        state itself is unchanged. PLAN ignores the seed: it is deterministic."""
        cdef State c = self.s
        cdef Rng r
        cdef SplitMemo m
        cdef int pol = _policy_arg(policy)
        cdef int failed = 0
        self._require_built()
        rng_seed(&r, _seed_arg(seed))
        _memo_for(&m, pol)
        with nogil:
            failed = run_playout(&c, &r, pol, &m)
            memo_close(&m)
        if failed:
            raise MemoryError("playout could not allocate a move buffer")
        return tuple(c.order[p] for p in range(c.nfinished))

    def playout_moves(self, seed, policy=P_RANDOM):
        """Like playout, but also returns the list of actions taken (0 = pass), so that the
        native playout can be checked against tienlen.Game."""
        cdef State c = self.s
        cdef Rng r
        cdef int pol = _policy_arg(policy)
        self._require_built()
        rng_seed(&r, _seed_arg(seed))
        moves = _record_steps(&c, &r, pol)
        return tuple(c.order[p] for p in range(c.nfinished)), moves


cdef list _record_steps(State* c, Rng* r, int pol):
    """Play `c` to the end by `pol`, returning every action taken (0 = pass)."""
    cdef State before
    cdef uint64_t buf[STACK_MOVES]
    cdef SplitMemo m
    cdef Plans pl
    cdef int failed = 0
    moves = []
    _memo_for(&m, pol)
    try:
        if pol == P_PLAN:
            plans_init(&pl, c, &m)
        while c.turn >= 0:
            before = c[0]
            if pol == P_PLAN:
                failed = st_plan_step(c, &pl, &m, buf, STACK_MOVES)
            else:
                failed = st_step(c, r, pol, buf, STACK_MOVES)
            if failed:
                raise MemoryError("playout could not allocate a move buffer")
            moves.append(before.hands[before.turn] & ~c.hands[before.turn])
    finally:
        memo_close(&m)
    return moves


cdef int _memo_for(SplitMemo* m, int policy) except -1:
    """Open the split memo `m` if `policy` needs one (always leaves it safe to close)."""
    m.slots = NULL
    if policy == P_PLAN and memo_open(m) < 0:
        raise MemoryError("could not allocate the split memo")
    return 0


cdef list _moves_through(GameState g, MaskTable table):
    """GameState.legal_moves_through, shared with LegalView.__iter__."""
    cdef uint64_t buf[STACK_MOVES]
    cdef uint64_t* moves
    cdef int64_t n, i
    cdef list out
    if g.s.turn < 0:
        return []
    if TL_POPCOUNT(g.s.hands[g.s.turn]) > 13:
        n = st_moves(&g.s, NULL)
        if n > MAX_MOVES_C:
            raise ValueError(f"{n} legal moves exceed MAX_MOVES={MAX_MOVES_C}")
    # Listed before any lookup: a miss runs the table's factory, Python code that could
    # act on this state; the list is of the state as it was when called.
    n = st_moves_buffered(&g.s, buf, STACK_MOVES, &moves)
    if n < 0:
        raise MemoryError()
    try:
        out = PyList_New(n)
        for i in range(n):
            value = table.get(moves[i])
            Py_INCREF(value)            # PyList_SET_ITEM steals a reference
            PyList_SET_ITEM(out, i, value)
        return out
    finally:
        if moves != buf:
            free(moves)


cdef str _PLAY_WORD = "play"


cdef inline uint64_t _played_key(uint64_t m, uint32_t code) noexcept nogil:
    """The key of a play's record in a combos table: its mask, kind and top card
    (``mask | kind << 52 | top << 56``, below 2**62). The code's card count is the mask's, so
    the key names the (code, mask) pair exactly."""
    return m | (<uint64_t>((code >> 12) & 0xF) << 52) | (<uint64_t>(code & 0x3F) << 56)


def played_key(mask, code):
    """The key GameState.play_record looks a play's combo up under, for a (mask, code) pair
    the core accepted: ``mask | kind << 52 | top << 56``.

    >>> played_key(1, classify(1)) == 1 | SINGLE << 52
    True
    """
    cdef uint64_t m = _mask_arg(mask, "mask")
    cdef uint32_t c = <uint32_t>_int_arg(code, "code", 1, 0xFFFF)
    if ((c >> 6) & 0x3F) != <uint32_t>TL_POPCOUNT(m):
        raise ValueError(f"code {code!r} is not a code of {TL_POPCOUNT(m)} cards")
    return _played_key(m, c)


@cython.auto_pickle(False)
cdef class LegalView:
    """The native base of tienlen.game.LegalMoves: the legal plays of `state`'s seat to act,
    each mask mapped through `table` (a MaskTable), listed and counted in C. Live: it reads
    the state as it is whenever it is asked.

    >>> from tienlen import core
    >>> s = core.GameState([0b111, 0b111000])
    >>> view = LegalView(s, MaskTable(lambda m: m))
    >>> len(view), list(view) == s.legal_moves_list(), bool(view)  # the leads holding 3♠ (R7.2)
    (4, True, True)
    """
    cdef GameState _st
    cdef MaskTable _table
    # The last list made, and the inputs of move generation it was made from: a view asked
    # twice about one position (list() asks len() for a length hint, then iterates) lists
    # once. The moves are a function of exactly these fields (st_moves' arguments).
    cdef list _last
    cdef uint64_t _k_hand
    cdef uint64_t _k_flags
    cdef uint32_t _k_pile
    cdef int _k_locked
    cdef int _k_must

    def __init__(self, state, table):
        if not isinstance(state, GameState):
            raise ValueError(f"state must be a GameState; got {_quote(state)}")
        if not isinstance(table, MaskTable):
            raise ValueError(f"table must be a MaskTable; got {_quote(table)}")
        self._st = state
        self._table = table
        self._last = None

    cdef list _moves(self):
        cdef State* s
        cdef int t
        cdef uint64_t hand, flags
        cdef uint32_t pile
        cdef int locked, must
        if self._st is None or self._table is None:
            raise ValueError("this LegalView was never initialised")
        s = &self._st.s
        t = s.turn
        if t < 0:
            return []
        hand, pile, flags = s.hands[t], s.pile_code, s.rules.flags
        locked, must = (s.locked >> t) & 1, s.must_include
        if (self._last is not None and hand == self._k_hand and pile == self._k_pile
                and flags == self._k_flags and locked == self._k_locked and must == self._k_must):
            return self._last
        # Keyed by the inputs as read before listing: a table miss runs Python code.
        out = _moves_through(self._st, self._table)
        self._last = out
        self._k_hand, self._k_pile, self._k_flags = hand, pile, flags
        self._k_locked, self._k_must = locked, must
        return out

    def __iter__(self):
        # An iterator over the kept list: the caller never holds the list itself.
        return iter(self._moves())

    def __len__(self):
        return len(self._moves())

    def __bool__(self):
        return len(self._moves()) > 0


def _state_from_key(key):
    """Inverse of GameState.key(), for pickling. The fields go through _check_state, the one
    validator from_fields and the constructor use: a key, however corrupt, either gives a
    state some game could reach or raises ValueError."""
    cdef GameState g = GameState.__new__(GameState)
    try:
        hands, pile_mask, pile_code, owner, turn, locked, finished, mi, flags, played = key
        _fill_state(&g.s, hands, finished, flags, pile_mask, played)
        if g.s.pile_code != _int_arg(pile_code, "pile_code", 0, 0xFFFFFFFF):
            raise ValueError("pile code does not match the pile")
        _fill_turn(&g.s, owner, turn, locked, mi, -1)
        _check_state(&g.s)
    except (TypeError, OverflowError, ValueError) as e:
        raise ValueError(f"not a GameState key: {e}") from None
    return g


cdef int _fill_state(State* s, object hands, object finished, object flags, object pile_mask,
                     object played_mask) except -1:
    """The card fields of a state built from fields (from_fields, unpickling): the players,
    the rules, hands, finishing order, pile and played cards, each range-checked."""
    cdef int n, p
    hands = _hands_arg(hands)
    n = len(hands)
    if n < 2 or n > 4:
        raise ValueError(f"a hand needs 2, 3 or 4 players; got {n} hands")
    try:
        finished = tuple(finished)
    except TypeError:
        raise ValueError(f"finished must be a sequence of seats; got {_quote(finished)}") from None
    if len(finished) > n:
        raise ValueError(f"finished lists {len(finished)} seats; there are {n}")
    s.players = n
    rules_decode(&s.rules, _flags_arg(flags))
    for p in range(4):
        s.hands[p] = _mask_arg(hands[p], f"hands[{p}]") if p < n else 0
        s.order[p] = _small_int_arg(finished[p], "finished seat", 0, n - 1) if p < len(finished) else -1
    s.nfinished = len(finished)
    s.pile_mask = _mask_arg(pile_mask, "pile_mask")
    s.pile_code = c_classify(s.pile_mask, s.rules.flags)
    s.played = _mask_arg(played_mask, "played_mask")
    return 0


cdef int _fill_turn(State* s, object pile_owner, object turn, object locked_mask,
                    object must_include, int lowest_turn) except -1:
    """The turn fields (after _fill_state): pile owner, seat to act (from `lowest_turn`:
    -1 admits a finished hand), lock-outs and the card the lead must hold."""
    cdef int n = s.players
    s.pile_owner = _small_int_arg(pile_owner, "pile_owner", -1, n - 1)
    s.turn = _small_int_arg(turn, "turn", lowest_turn, n - 1)
    s.locked = _small_int_arg(locked_mask, "locked_mask", 0, (1 << n) - 1)
    s.must_include = _card_arg(must_include, "must_include", True)
    return 0


cdef int _check_state(const State* s) except -1:
    """The one validator of a built State (constructor, from_fields, unpickling): raises
    ValueError unless the fields describe a state that play could reach, in the ways the C
    code relies on. Every playout policy is correct (plays only legal moves, terminates) on
    every state that passes; tests/test_fuzz.py checks that over random accepted states.

    Field ranges (players 2..4, seats, masks below 2**52, nfinished <= players) are the
    caller's to check before filling the struct; this checks how the fields fit together."""
    cdef int n = s.players, p, q, holding = 0
    cdef uint64_t seen = 0
    for p in range(n):
        if s.hands[p] & seen:
            raise ValueError(f"hands[{p}] shares cards with another hand")
        seen |= s.hands[p]
        if s.hands[p]:
            holding += 1
    for p in range(n, 4):
        if s.hands[p]:
            raise ValueError(f"hands[{p}] is set for a {n}-player hand")
    if s.played & seen:
        raise ValueError("played_mask overlaps the hands")
    if s.pile_mask and not s.pile_code:
        raise ValueError("pile_mask is not a combination")
    if s.pile_mask & seen:
        raise ValueError("pile_mask overlaps the hands: the pile's cards were played")
    if (s.pile_owner == -1) != (s.pile_code == 0):
        raise ValueError(f"pile_owner {s.pile_owner} does not fit the pile")
    for p in range(s.nfinished):
        for q in range(p):
            if s.order[q] == s.order[p]:
                raise ValueError("finished must list distinct seats")
    for p in range(s.nfinished, 4):
        if s.order[p] != -1:
            raise ValueError("finished has entries past its length")
    if s.turn < 0:
        # Over (only pickles of finished hands): every seat placed, the loser last and the
        # only one still holding cards (R9.2).
        if s.nfinished != n:
            raise ValueError("a finished hand places every seat")
        if s.hands[s.order[0]]:
            # R11.3: won at the deal. Nobody played; the winner's hand is an instant win.
            if s.played or s.pile_code or s.locked or holding != n:
                raise ValueError("a hand won at the deal (R11.3) has no play")
            if c_instant_win(s.hands[s.order[0]], s.rules.flags) < 0:
                raise ValueError("the first seat still holds cards but its hand is not an "
                                 "instant win under these rules (R11.3)")
            if s.must_include >= 0:
                raise ValueError("must_include applies only to a lead by its holder")
            return 0
        for p in range(n - 1):
            if s.hands[s.order[p]]:
                raise ValueError("finished must list distinct seats that hold no cards")
        if s.must_include >= 0:
            raise ValueError("must_include applies only to a lead by its holder")
        return 0
    for p in range(s.nfinished):
        if s.hands[s.order[p]]:
            raise ValueError("finished must list distinct seats that hold no cards")
    if holding < 2:
        raise ValueError("a hand in play needs at least two players holding cards")
    if holding + s.nfinished != n:
        raise ValueError("every seat must hold cards or be listed in finished")
    if s.turn >= n or s.hands[s.turn] == 0:
        raise ValueError(f"turn {s.turn} must be a seat that holds cards")
    if s.pile_code and s.pile_owner == s.turn:
        raise ValueError("the pile's owner never acts on its own pile: the pile clears first (R6.1)")
    if s.pile_code == 0 and s.locked:
        raise ValueError("nobody can be locked out of an empty pile")
    if (s.locked >> s.turn) & 1 and not c_locked_may_act(&s.rules, s.pile_code):
        raise ValueError("a locked-out seat only gets the turn while the pile is something "
                         "it may cut out of turn: 2s under the contract (R5.3)")
    if s.must_include >= 0 and (s.pile_code or not ((s.hands[s.turn] >> s.must_include) & 1)):
        raise ValueError("must_include applies only to a lead by its holder")
    return 0


cdef int _policy_arg(object policy) except -1:
    # By __index__, like every other int: `policy in (0, 1, 2)` would take 1.0 for GREEDY.
    try:
        p = _as_int(policy)
    except TypeError:
        p = -1
    if p != P_RANDOM and p != P_GREEDY and p != P_PLAN:
        raise ValueError(f"policy must be RANDOM (0), GREEDY (1) or PLAN (2); got {_quote(policy)}")
    return p


cdef GameState _state_arg(object obj):
    if not isinstance(obj, GameState):
        raise ValueError(f"state must be a GameState; got {type(obj).__name__}")
    return obj


cdef int _sample_counts(const State* st, uint64_t pool, int* counts) except -1:
    """Card counts the sampled hands need (0 for the acting seat); checks `pool` can deal them."""
    cdef int seat = st.turn, p, need = 0
    if st.players < 2:
        raise ValueError("this GameState was never initialised")
    if seat < 0:
        raise ValueError("the hand is over")
    if pool & st.hands[seat]:
        raise ValueError("unseen overlaps the acting seat's hand")
    for p in range(st.players):
        counts[p] = TL_POPCOUNT(st.hands[p]) if p != seat else 0
        need += counts[p]
    if TL_POPCOUNT(pool) < need:
        raise ValueError(f"unseen holds {TL_POPCOUNT(pool)} cards but the other hands need {need}")
    return 0


cdef int _mc_run(const State* start, uint64_t pool, const int* counts,
                 const uint64_t* act, const uint32_t* cd, int64_t na, int64_t samples,
                 uint64_t seed, int pol, int64_t* sums, int8_t* places,
                 const uint64_t* deals=NULL) noexcept nogil:
    """The sampling loop behind flat_monte_carlo, sampled_places and deal_places. `places`,
    if not NULL, receives an (na, samples) row-major array of the acting seat's places.
    `deals`, if not NULL, gives the other seats' hands of each sample (samples x players,
    row-major; the caller checked them) instead of drawing them from `pool`. Returns 0, -1
    if memory ran out, or INTERRUPTED if a signal handler raised (the exception is pending)."""
    cdef int seat = start.turn, k, failed = 0
    cdef int64_t d, a, since_check = 0
    cdef bint watch = tl_watch_signals()
    cdef State base, c
    cdef Rng deal_rng, r, r0
    cdef SplitMemo m
    cdef Plans base_plans, pl
    cdef SeatPlan* own = NULL
    m.slots = NULL
    if pol == P_PLAN:
        if memo_open(&m) < 0:
            return -1
        # The acting seat's hand is the same in every sample: plan its remainders once.
        own = <SeatPlan*>malloc((na if na > 0 else 1) * sizeof(SeatPlan))
        if own == NULL:
            memo_close(&m)
            return -1
        for a in range(na):
            plan_compute(&own[a], start.hands[seat] & ~act[a], &start.rules, &m)
    rng_seed(&deal_rng, seed)
    base = start[0]
    for d in range(samples):
        since_check += na
        if watch and since_check >= CHECK_PLAYOUTS:
            since_check = 0
            if tl_interrupted():
                failed = INTERRUPTED
                break
        if deals != NULL:
            for k in range(base.players):
                if k != seat:
                    base.hands[k] = deals[d * base.players + k]
        else:
            deal_from(&deal_rng, pool, counts, base.players, seat, base.hands)
        r0.s[0] = rng_next(&deal_rng)
        r0.s[1] = rng_next(&deal_rng)
        r0.s[2] = rng_next(&deal_rng)
        r0.s[3] = rng_next(&deal_rng) | 1
        if pol == P_PLAN:
            plans_init(&base_plans, &base, &m)
        for a in range(na):
            c = base
            r = r0
            if act[a] == 0:
                st_pass(&c)
            else:
                st_play(&c, act[a], cd[a])
            if pol == P_PLAN:
                pl = base_plans
                pl.seat[seat] = own[a]
                failed = st_plan_playout(&c, &pl, &m)
            else:
                failed = st_playout(&c, &r, pol)
            if failed:
                break
            for k in range(c.players):
                if c.order[k] == seat:
                    if sums != NULL:
                        sums[a] += k
                    if places != NULL:
                        places[a * samples + d] = k
                    break
        if failed:
            break
    free(own)
    memo_close(&m)
    return failed


cdef tuple _mc_actions(const State* st, object actions):
    """The candidate actions (legal moves then pass, or the caller's list, each checked
    against `st`) and their combo codes."""
    cdef uint64_t[::1] act
    cdef uint32_t[::1] cd
    cdef uint32_t code = 0
    cdef Py_ssize_t i
    cdef int reason
    if actions is None:
        moves = _moves_array(st.hands[st.turn], st.pile_code, &st.rules,
                             (st.locked >> st.turn) & 1, st.must_include)
        nm = len(moves)
        arr = np.zeros(nm + (st.pile_code != 0), np.uint64)
        arr[:nm] = moves
        codes = np.zeros(len(arr), np.uint32)
        if nm:
            # Every candidate's code is the same in every sample: classify once, not per playout.
            codes[:nm] = classify_many(moves, st.rules.flags)
        return arr, codes
    try:
        arr = np.array([_mask_arg(a, "action") for a in actions], dtype=np.uint64)
    except TypeError:
        raise ValueError(f"actions must be an iterable of masks; got {type(actions).__name__}") from None
    codes = np.zeros(len(arr), np.uint32)
    act = arr
    cd = codes
    for i in range(act.shape[0]):
        if act[i] == 0:
            reason = st_check_pass(st)
        else:
            reason = st_check_play(st, act[i], &code)
            cd[i] = code
        if reason != R_OK:
            raise ValueError(f"action {act[i]:#x} is not legal here: {REASON_NAMES[reason]}")
    return arr, codes


# Sampling sizes beyond these are refused up front: at a millisecond or more per sample,
# 2**24 samples is already hours of work, and a typo like 2**40 would be months.
MAX_SAMPLES = 1 << 24
# sampled_places keeps one byte per (action, sample): refuse results above 256 MiB.
MAX_PLACES = 1 << 28


def flat_monte_carlo(state, unseen, samples, seed, policy=P_GREEDY):
    """Information-set Monte Carlo for the seat to act in `state`.

    The acting seat's hand is taken as known; every other seat's hand is redrawn, for each of
    `samples` sampled deals (at most MAX_SAMPLES), from the cards of `unseen` with the same
    card counts. For every candidate action (each legal move, then pass if allowed) the
    action is applied and the hand played out by `policy`; all candidates share the same
    random stream per sample (common random numbers). Returns `(actions, place_sums)`: uint64
    actions (0 = pass) and, per action, the sum over samples of the acting seat's finishing
    place (0 = first). The state is copied first and the GIL released for the whole search;
    Ctrl-C interrupts it (KeyboardInterrupt).
    """
    cdef GameState gs = _state_arg(state)
    # A copy by value, taken while the GIL is held: another thread may change `state` as
    # soon as the GIL is released, and the search must see one consistent state.
    cdef State st = gs.s
    cdef uint64_t pool = _mask_arg(unseen, "unseen")
    cdef int pol = _policy_arg(policy)
    cdef uint64_t base_seed = _seed_arg(seed)
    cdef int counts[4]
    cdef int failed
    cdef int64_t n_samples = _int_arg(samples, "samples", 0, MAX_SAMPLES)
    _sample_counts(&st, pool, counts)
    actions, codes = _mc_actions(&st, None)
    sums = np.zeros(len(actions), np.int64)
    cdef const uint64_t[::1] act = actions
    cdef const uint32_t[::1] cd = codes
    cdef int64_t[::1] sm = sums
    cdef int64_t na = act.shape[0]
    if na == 0:
        return actions, sums
    with nogil:
        failed = _mc_run(&st, pool, counts, &act[0], &cd[0], na, n_samples,
                         base_seed, pol, &sm[0], NULL)
    if failed == INTERRUPTED:
        _raise_pending()
    if failed:
        raise MemoryError("flat_monte_carlo could not allocate its buffers")
    return actions, sums


def sampled_places(state, unseen, actions, samples, seed, policy=P_PLAN):
    """Finishing places of the acting seat after each of `actions`, in each sampled deal.

    Like flat_monte_carlo, but over the caller's candidate `actions` (masks, 0 = pass; each
    must be legal in `state`, or ValueError; None means every legal move, then pass if
    allowed) and keeping every sample: returns an int8 array
    of shape (len(actions), samples), places counted from 0 (first out). Sample d is the
    same deal for every action (common random numbers). `samples` is at most MAX_SAMPLES and
    the result at most MAX_PLACES entries. The state is copied first and the GIL released
    throughout; Ctrl-C interrupts it (KeyboardInterrupt).

    >>> state = GameState(deal(5))
    >>> moves = state.legal_moves()[:3]
    >>> places = sampled_places(state, FULL_DECK & ~state.hand(state.turn), moves, 8, seed=1)
    >>> places.shape, bool(((places >= 0) & (places < 4)).all())
    ((3, 8), True)
    """
    cdef GameState gs = _state_arg(state)
    cdef State st = gs.s            # by value, under the GIL (see flat_monte_carlo)
    cdef uint64_t pool = _mask_arg(unseen, "unseen")
    cdef int pol = _policy_arg(policy)
    cdef uint64_t base_seed = _seed_arg(seed)
    cdef int counts[4]
    cdef int failed
    cdef int64_t n = _int_arg(samples, "samples", 0, MAX_SAMPLES)
    _sample_counts(&st, pool, counts)
    arr, codes = _mc_actions(&st, actions)
    if len(arr) * n > MAX_PLACES:
        raise ValueError(f"{len(arr)} actions x {n} samples exceeds MAX_PLACES={MAX_PLACES}")
    out = np.zeros((len(arr), n), np.int8)
    cdef const uint64_t[::1] act = arr
    cdef const uint32_t[::1] cd = codes
    cdef int8_t[:, ::1] o = out
    cdef int64_t na = act.shape[0]
    if na == 0 or n == 0:
        return out
    with nogil:
        failed = _mc_run(&st, pool, counts, &act[0], &cd[0], na, n,
                         base_seed, pol, NULL, &o[0, 0])
    if failed == INTERRUPTED:
        _raise_pending()
    if failed:
        raise MemoryError("sampled_places could not allocate its buffers")
    return out


def plan(hand, flags=0):
    """The PLAN policy's plan for `hand`: the groups of a best split (fewest combinations,
    then fewest singles below a 2) as masks, weakest first with 2s and bombs last.

    >>> [hex(m) for m in plan(0b111 | 1 << 4 | 1 << 8)]    # 3♠ 3♣ 3♦ 4♠ 5♠
    ['0x6', '0x111']

    (the pair 3♣ 3♦, then the run 3♠ 4♠ 5♠: the sequence takes the lowest suits, and the
    weaker group, by top card, comes first)
    """
    cdef uint64_t h = _mask_arg(hand, "hand")
    cdef RuleTable rt
    cdef SplitMemo m
    cdef SeatPlan sp
    rules_decode(&rt, _flags_arg(flags))
    _memo_for(&m, P_PLAN)
    plan_compute(&sp, h, &rt, &m)
    memo_close(&m)
    return tuple(sp.mask[i] for i in range(sp.n))
