# The exact Guandan endgame solver: with every hand known, what is the hand worth to a team
# when both teams play perfectly?
#
# The value is the one the hand scores (G7.1) and the one L3 scores its playouts by: the
# levels the first player out's team gains (double_down_levels / 2 / 1 when the partner
# finishes 2nd / 3rd / 4th), counted positive when the first out is on the team asked about
# and negative otherwise. So the values are -dd, -2, -1, +1, +2, +dd; "the team wins the hand"
# is value >= 1 (one of its players goes out first), and the finer thresholds are the level
# gain. A team is one player: the two partners are assumed to play together (each knows
# every hand), against the other two, so this is a two-player zero-sum game of perfect
# information and the solver's value is exact.
#
# The search is a depth-first AND/OR search on "value >= t" for one threshold t at a time
# (nodes of the team asked about are OR nodes, the others AND nodes); solve_value finds the
# exact value by a binary search over the thresholds. Around it:
#   * the play rules are state.pxi's gs_play / gs_pass (the same code Game plays through),
#     moves are gen.pxi's listing, so every RuleConfig flag is honoured as the game does;
#   * a transposition table (256 entries to start, doubled as the search grows) keyed on the whole position that matters for the rest of the
#     hand (four hands, pile code, owner, passes, turn, first out), storing proven bounds
#     [lo, hi] of the exact value, so the searches for different thresholds (and for the
#     different actions of solve_after) share what they proved;
#   * static bounds without search: once a player is out the sign is known, and the
#     partner's best possible place caps the gain;
#   * move ordering: plays that empty the hand first, then on a lead the bigger non-bomb
#     plays, on a follow the cheaper ones; passing first when the partner owns the pile,
#     otherwise before the bombs.
# A node limit ends the search with "unknown"; Ctrl-C is checked every GSV_SIGNAL_EVERY nodes
# by taking the GIL for a moment. Moves live in one growing heap arena (indexed by offset, so
# growing it never invalidates a parent's list), so the recursion's C stack stays small.

from libc.stdlib cimport calloc, realloc, qsort
from cpython.exc cimport PyErr_Occurred


cdef extern from "Python.h":
    # Declared noexcept here: the search reads the result and unwinds by itself.
    int _gsv_check_signals "PyErr_CheckSignals"() noexcept


cdef enum:
    GSV_UNKNOWN = 0
    GSV_WIN = 1
    GSV_LOSS = 2
    GSV_OK = 0
    GSV_NODE_LIMIT = 1
    GSV_INTERRUPTED = 3
    GSV_NO_MEMORY = 4
    GSV_SIGNAL_EVERY = 4096
    GSV_TT_MIN_BITS = 8
    GSV_TT_MAX_BITS = 20        # 2^20 entries of 72 bytes: 72 MB, only for searches of >= 2^20 nodes
    GSV_PROBES = 4


cdef struct GsvEntry:
    uint64_t k[8]               # once[4], twice[4]; the other fields in their top 10 bits
    int8_t lo
    int8_t hi
    uint8_t used


cdef struct Gsv:
    int team                    # seat bits of the team the value is for
    int dd                      # double_down_levels
    int gmin                    # smallest and largest gain of a hand (1..max(dd, 2))
    int gmax
    int64_t nodes
    int64_t limit               # nodes of the current search at most
    int status
    bint signals
    GsvEntry* tt
    int bits
    int max_bits                # the table grows up to 2^max_bits entries
    uint64_t* mm                # move arena: 2 masks per play
    uint32_t* mc                # codes
    uint64_t* mk                # ordering keys
    int64_t top
    int64_t cap


cdef inline int gsv_gain(const Gsv* sv, int place) noexcept nogil:
    """Levels the first out's team gains when the partner finishes `place` (2..4)."""
    if place == 2:
        return sv.dd
    if place == 3:
        return 2
    return 1


cdef inline int gsv_score(const Gsv* sv, const GState* s) noexcept nogil:
    """The value of a finished hand for sv.team."""
    cdef int first = s.order[0], mate = gs_partner(s, first), place = 4, i
    cdef int g
    for i in range(1, s.nfinished):
        if s.order[i] == mate:
            place = i + 1
    g = gsv_gain(sv, place)
    return g if (sv.team >> first) & 1 else -g


cdef inline void gsv_bounds(const Gsv* sv, const GState* s, int* lo, int* hi) noexcept nogil:
    """Bounds of the value of a hand still going on, without search."""
    cdef int p, g, a = 99, b = -99
    if s.nfinished == 0:
        lo[0] = -sv.gmax
        hi[0] = sv.gmax
        return
    # The first out's partner still holds cards (else the hand is over): it finishes
    # somewhere in nfinished + 1 .. 4.
    for p in range(s.nfinished + 1, 5):
        g = gsv_gain(sv, p)
        if g < a:
            a = g
        if g > b:
            b = g
    if (sv.team >> s.order[0]) & 1:
        lo[0] = a
        hi[0] = b
    else:
        lo[0] = -b
        hi[0] = -a


cdef inline void gsv_key(const GState* s, uint64_t* k) noexcept nogil:
    cdef int p
    cdef uint64_t x = ((<uint64_t>(s.owner + 1)) | (<uint64_t>s.passes << 3)
                       | (<uint64_t>(s.turn + 1) << 5))
    cdef uint64_t f = <uint64_t>((s.order[0] + 1) if s.nfinished else 0)
    for p in range(4):
        k[p] = s.once[p]
        k[4 + p] = s.twice[p]
    k[0] |= (<uint64_t>(s.pile_code & 1023)) << 54
    k[1] |= (<uint64_t>(s.pile_code >> 10)) << 54
    k[2] |= x << 54
    k[3] |= f << 54


cdef inline uint64_t gsv_hash(const uint64_t* k) noexcept nogil:
    cdef uint64_t h = 0x9E3779B97F4A7C15ULL
    cdef int i
    for i in range(8):
        h ^= k[i]
        h *= 0xBF58476D1CE4E5B9ULL
        h ^= h >> 31
    return h


cdef inline GsvEntry* gsv_find(Gsv* sv, const uint64_t* k, bint make) noexcept nogil:
    """The entry of key k; when absent, NULL, or (make) a fresh or replaced slot."""
    cdef uint64_t mask = (<uint64_t>1 << sv.bits) - 1
    cdef uint64_t h = gsv_hash(k) & mask
    cdef GsvEntry* e
    cdef int i, j
    for i in range(GSV_PROBES):
        e = &sv.tt[(h + <uint64_t>i) & mask]
        if not e.used:
            if not make:
                return NULL
            for j in range(8):
                e.k[j] = k[j]
            e.used = 1
            e.lo = -127
            e.hi = 127
            return e
        for j in range(8):
            if e.k[j] != k[j]:
                break
        else:
            return e
    if not make:
        return NULL
    e = &sv.tt[h]                   # every probe taken: the first slot is replaced
    for j in range(8):
        e.k[j] = k[j]
    e.lo = -127
    e.hi = 127
    return e


cdef void gsv_grow(Gsv* sv) noexcept nogil:
    """Double the table once the search has visited more nodes than it has entries (most
    calls search a few hundred nodes: starting small keeps them cheap). On allocation failure
    the table just stays as it is."""
    cdef int old_bits = sv.bits
    cdef GsvEntry* old = sv.tt
    cdef GsvEntry* e
    cdef GsvEntry* f
    cdef int64_t i
    sv.tt = <GsvEntry*>calloc(<size_t>1 << (old_bits + 1), sizeof(GsvEntry))
    if sv.tt == NULL:
        sv.tt = old
        return
    sv.bits = old_bits + 1
    for i in range(<int64_t>1 << old_bits):
        e = &old[i]
        if e.used:
            f = gsv_find(sv, e.k, True)
            f.lo = e.lo
            f.hi = e.hi
    free(old)


cdef int gsv_reserve(Gsv* sv, int64_t n) noexcept nogil:
    """Room for n more moves on the arena; 0, or -1 when memory ran out."""
    cdef int64_t want = sv.top + n
    cdef int64_t cap = sv.cap
    cdef uint64_t* mm
    cdef uint32_t* mc
    cdef uint64_t* mk
    if want <= cap:
        return 0
    while cap < want:
        cap = cap * 2 if cap else 4096
    mm = <uint64_t*>realloc(sv.mm, cap * 2 * sizeof(uint64_t))
    if mm == NULL:
        return -1
    sv.mm = mm
    mc = <uint32_t*>realloc(sv.mc, cap * sizeof(uint32_t))
    if mc == NULL:
        return -1
    sv.mc = mc
    mk = <uint64_t*>realloc(sv.mk, (cap + 1) * sizeof(uint64_t))
    if mk == NULL:
        return -1
    sv.mk = mk
    sv.cap = cap
    return 0


cdef int64_t gsv_moves(Gsv* sv, const GState* s) noexcept nogil:
    """The legal plays of the seat to act, written at sv.top. Returns the count, -1 when
    memory ran out."""
    cdef GHand h
    cdef Out o
    gs_ghand(s, &h)
    o.masks = sv.mm + 2 * sv.top
    o.codes = sv.mc + sv.top
    o.n = 0
    o.cap = sv.cap - sv.top
    o.overflow = 0
    gen_plays(&h, s.pile_code, &o)
    if not o.overflow:
        return o.n
    o.masks = NULL
    o.codes = NULL
    o.n = 0
    o.cap = 0
    o.overflow = 0
    gen_plays(&h, s.pile_code, &o)
    if gsv_reserve(sv, o.n + 1) < 0:
        return -1
    o.masks = sv.mm + 2 * sv.top
    o.codes = sv.mc + sv.top
    o.cap = sv.cap - sv.top
    o.n = 0
    gen_plays(&h, s.pile_code, &o)
    return o.n


cdef int _gsv_cmp_desc(const void* a, const void* b) noexcept nogil:
    cdef uint64_t x = (<const uint64_t*>a)[0], y = (<const uint64_t*>b)[0]
    return (x < y) - (x > y)


cdef inline uint64_t gsv_order_key(const GState* s, uint64_t a, uint64_t b, uint32_t code,
                                   int left) noexcept nogil:
    """Higher first: going out, then (lead) bigger non-bomb plays of lower value, (follow)
    cheaper non-bombs, then bombs, weakest first."""
    cdef int k = ckind(code), size = csize(code)
    cdef int v = play_value(code, s.level)
    if size == left:
        return <uint64_t>3 << 24
    if kind_is_bomb(k):
        return <uint64_t>(1 << 20) + <uint64_t>(4095 - (bomb_key(code, s.level, s.flags) & 4095))
    if s.pile_code == 0:
        return (<uint64_t>2 << 20) | (<uint64_t>size << 8) | <uint64_t>(63 - v)
    return (<uint64_t>2 << 20) | <uint64_t>(63 - v)


cdef int gsv_search(Gsv* sv, const GState* s, int t) noexcept nogil:
    """1 if the value of s for sv.team is >= t against best play, 0 if not, -1 when the
    search stopped (sv.status says why)."""
    cdef int lo, hi, r, result, i, left, seat
    cdef int64_t n, base, j, idx
    cdef uint64_t k[8]
    cdef GsvEntry* e
    cdef GState c
    cdef bint mine, partner_pile
    if s.turn < 0:
        return gsv_score(sv, s) >= t
    gsv_bounds(sv, s, &lo, &hi)
    if lo >= t:
        return 1
    if hi < t:
        return 0
    gsv_key(s, k)
    e = gsv_find(sv, k, False)
    if e != NULL:
        if e.lo >= t:
            return 1
        if e.hi < t:
            return 0
    if sv.nodes >= sv.limit:
        sv.status = GSV_NODE_LIMIT
        return -1
    sv.nodes += 1
    if sv.bits < sv.max_bits and sv.nodes > (<int64_t>1 << sv.bits):
        gsv_grow(sv)
    if sv.signals and (sv.nodes % GSV_SIGNAL_EVERY) == 0:
        with gil:
            if _gsv_check_signals() < 0:
                sv.status = GSV_INTERRUPTED
                return -1
    seat = s.turn
    mine = (sv.team >> seat) & 1
    base = sv.top
    n = gsv_moves(sv, s)
    if n < 0 or gsv_reserve(sv, n + 1) < 0:
        sv.status = GSV_NO_MEMORY
        return -1
    # The ordering keys carry the move's index in their low 32 bits; index n is the pass.
    left = GD_POPCOUNT(s.once[seat]) + GD_POPCOUNT(s.twice[seat])
    for j in range(n):
        sv.mk[base + j] = (gsv_order_key(s, sv.mm[2 * (base + j)], sv.mm[2 * (base + j) + 1],
                                         sv.mc[base + j], left) << 32) | <uint64_t>j
    if s.pile_code:
        partner_pile = s.owner >= 0 and s.owner == gs_partner(s, seat)
        sv.mk[base + n] = ((<uint64_t>(4 << 24) if partner_pile else <uint64_t>(3 << 20)) << 32) | <uint64_t>n
        n += 1
    sv.top = base + n
    qsort(&sv.mk[base], n, sizeof(uint64_t), _gsv_cmp_desc)
    result = 0 if mine else 1
    for j in range(n):
        idx = <int64_t>(sv.mk[base + j] & 0xFFFFFFFFULL)
        c = s[0]
        if s.pile_code and idx == n - 1:
            gs_pass(&c)
        else:
            gs_play(&c, sv.mm[2 * (base + idx)], sv.mm[2 * (base + idx) + 1], sv.mc[base + idx])
        r = gsv_search(sv, &c, t)
        if r < 0:
            sv.top = base
            return -1
        if mine and r == 1:
            result = 1
            break
        if not mine and r == 0:
            result = 0
            break
    sv.top = base
    e = gsv_find(sv, k, True)
    if result:
        if e.lo < t:
            e.lo = <int8_t>t
    else:
        if e.hi > t - 1:
            e.hi = <int8_t>(t - 1)
    return result


cdef int gsv_open(Gsv* sv, int team, int dd, int64_t max_nodes, bint signals) noexcept nogil:
    cdef int bits = GSV_TT_MIN_BITS
    sv.team = team
    sv.dd = dd
    sv.gmin = 1
    sv.gmax = dd if dd > 2 else 2
    sv.nodes = 0
    sv.limit = max_nodes
    sv.status = GSV_OK
    sv.signals = signals
    while bits < GSV_TT_MAX_BITS and (<int64_t>1 << bits) < max_nodes:
        bits += 1
    sv.max_bits = bits
    sv.bits = GSV_TT_MIN_BITS
    sv.mm = NULL
    sv.mc = NULL
    sv.mk = NULL
    sv.top = 0
    sv.cap = 0
    sv.tt = <GsvEntry*>calloc(<size_t>1 << sv.bits, sizeof(GsvEntry))
    if sv.tt == NULL or gsv_reserve(sv, 4096) < 0:
        return -1
    return 0


cdef void gsv_close(Gsv* sv) noexcept nogil:
    free(sv.tt)
    free(sv.mm)
    free(sv.mc)
    free(sv.mk)
    sv.tt = NULL
    sv.mm = NULL
    sv.mc = NULL
    sv.mk = NULL


cdef int gsv_value(Gsv* sv, const GState* s, int* value) noexcept nogil:
    """The exact value of s for sv.team into value[0]: 0, or -1 when the search stopped.
    A binary search over the thresholds; sv.limit is reset for each threshold so that the
    caller's node budget covers the whole call (the nodes are counted cumulatively)."""
    cdef int lo, hi, t, r, vals[6], nv = 0, i, a, b
    cdef int cand[6]
    if s.turn < 0:
        value[0] = gsv_score(sv, s)
        return 0
    gsv_bounds(sv, s, &lo, &hi)
    # The values a hand can take, ascending: -gains, +gains.
    for i in range(3):
        vals[i] = -gsv_gain(sv, 2 + i)
        vals[3 + i] = gsv_gain(sv, 2 + i)
    # sort the six (tiny insertion sort) and keep the distinct ones inside [lo, hi]
    for i in range(1, 6):
        a = vals[i]
        b = i - 1
        while b >= 0 and vals[b] > a:
            vals[b + 1] = vals[b]
            b -= 1
        vals[b + 1] = a
    for i in range(6):
        if vals[i] >= lo and vals[i] <= hi and (nv == 0 or cand[nv - 1] != vals[i]):
            cand[nv] = vals[i]
            nv += 1
    # cand[a..b] still possible; find the largest v in it with value >= v.
    a = 0
    b = nv - 1
    while a < b:
        i = (a + b + 1) // 2
        r = gsv_search(sv, s, cand[i])
        if r < 0:
            return -1
        if r:
            a = i
        else:
            b = i - 1
    value[0] = cand[a]
    return 0


cdef int _gsv_team(const GState* s, int seat) noexcept nogil:
    return s.team0 if (s.team0 >> seat) & 1 else (~s.team0 & 15)


cdef int _gsv_reraise() except -1:
    """Re-raise what PyErr_CheckSignals left set (KeyboardInterrupt, or whatever the signal
    handler raised)."""
    if PyErr_Occurred() != NULL:
        return -1
    return 0


cdef int _gsv_finish(Gsv* sv) except -1:
    cdef int status = sv.status
    gsv_close(sv)
    if status == GSV_NO_MEMORY:
        raise MemoryError("the Guandan solver could not allocate its tables")
    if status == GSV_INTERRUPTED:
        _gsv_reraise()
        raise KeyboardInterrupt
    return 0


# ---------------------------------------------------------------- the solver's Python API
# (a separate block: nothing above or below it is changed by it)

GD_SOLVE_UNKNOWN = GSV_UNKNOWN
GD_SOLVE_WIN = GSV_WIN
GD_SOLVE_LOSS = GSV_LOSS


cdef GState _gsv_root(object state, object seat, int* s_seat) except *:
    if not isinstance(state, GdState):
        raise ValueError(f"state must be a GdState; got {_quote(state)}")
    cdef GState root = (<GdState>state).s       # by value: the caller's state is never touched
    cdef int p = _int_arg(seat, "seat", -1, 3)
    if p < 0:
        if root.turn < 0:
            raise ValueError("the hand is over: give the seat whose team to score")
        p = root.turn
    s_seat[0] = p
    return root


def solve(state, seat=-1, threshold=1, double_down=3, max_nodes=1_000_000, check_signals=True):
    """Can `seat`'s team (-1: the seat to act) make the hand worth at least `threshold`
    levels to it, with every hand known and both teams playing perfectly?

    The value of a hand to a team is what G7.1 scores: +double_down / +2 / +1 when one of its
    players goes out first and the partner finishes 2nd / 3rd / 4th, and minus the other
    team's gain otherwise; `threshold=1` (the default) asks "does the team win the hand?".
    Returns ``(result, nodes, limit)``: result GD_SOLVE_WIN, GD_SOLVE_LOSS or GD_SOLVE_UNKNOWN
    (the node limit came first: `limit` is then "nodes", else None). The state is copied;
    the GIL is released while searching, and Ctrl-C raises KeyboardInterrupt.

    >>> s = GdState.from_fields([(1 << 48, 0), (1 << 0, 0), (1 << 4, 0), (1 << 8, 0)],
    ...                         level=5, turn=0)     # seat 0 holds the A♠, the others 2, 3, 4
    >>> solve(s)[0] == GD_SOLVE_WIN, solve(s, threshold=2)[0] == GD_SOLVE_WIN
    (True, True)
    """
    cdef int s_seat, t, r = -1
    cdef GState root = _gsv_root(state, seat, &s_seat)
    cdef Gsv sv
    cdef int dd = _int_arg(double_down, "double_down", 1, 12)
    cdef int64_t cap = _int_arg(max_nodes, "max_nodes", 1, <int64_t>1 << 40)
    cdef bint signals = bool(check_signals)
    t = _int_arg(threshold, "threshold", -13, 13)
    with nogil:
        if gsv_open(&sv, _gsv_team(&root, s_seat), dd, cap, signals) < 0:
            sv.status = GSV_NO_MEMORY
        else:
            r = gsv_search(&sv, &root, t)
    nodes = sv.nodes
    _gsv_finish(&sv)
    if r < 0:
        return GSV_UNKNOWN, nodes, "nodes"
    return (GSV_WIN if r else GSV_LOSS), nodes, None


def solve_value(state, seat=-1, double_down=3, max_nodes=1_000_000, check_signals=True):
    """The exact value of the hand to `seat`'s team (see :func:`solve`): one of -dd, -2, -1,
    +1, +2, +dd. Returns ``(value, nodes)``, value None when `max_nodes` (over the whole
    call) ran out first.

    >>> s = GdState.from_fields([(1 << 0 | 1 << 6, 0), (1 << 48, 0), (1 << 4, 0), (1 << 8, 0)],
    ...                         level=5, turn=0)     # 2♠ 3♣ against A♠, 3♠, 4♠
    >>> solve_value(s)[0]
    -3
    """
    cdef int s_seat, v = 0, r = -1
    cdef GState root = _gsv_root(state, seat, &s_seat)
    cdef Gsv sv
    cdef int dd = _int_arg(double_down, "double_down", 1, 12)
    cdef int64_t cap = _int_arg(max_nodes, "max_nodes", 1, <int64_t>1 << 40)
    cdef bint signals = bool(check_signals)
    with nogil:
        if gsv_open(&sv, _gsv_team(&root, s_seat), dd, cap, signals) < 0:
            sv.status = GSV_NO_MEMORY
        else:
            r = gsv_value(&sv, &root, &v)
    nodes = sv.nodes
    _gsv_finish(&sv)
    return (None if r < 0 else v), nodes


def solve_after(state, actions, seat=-1, double_down=3, max_nodes=100_000, check_signals=True):
    """For each action (once, twice, code) of the seat to act, (0, 0, 0) for a pass: the
    exact value to `seat`'s team of the position after it (see :func:`solve_value`), None
    where `max_nodes` (per action) ran out. One transposition table serves every action.
    The actions are checked like try_play / try_pass first; an illegal one raises
    ValueError naming it and nothing is searched. Returns ``(values, nodes)``.

    >>> s = GdState.from_fields([(1 << 0 | 1 << 48, 0), (1 << 44, 0), (1 << 4, 0), (1 << 8, 0)],
    ...                         level=5, turn=0)     # 2♠ A♠ against K♠, 3♠, 4♠
    >>> solve_after(s, [(1 << 48, 0, 0x104e), (1 << 0, 0, 0x1042)])[0]
    [1, -1]
    """
    cdef int s_seat, v = 0, r = 0, reason
    cdef GState root = _gsv_root(state, seat, &s_seat)
    cdef GState c
    cdef Gsv sv
    cdef int dd = _int_arg(double_down, "double_down", 1, 12)
    cdef int64_t cap = _int_arg(max_nodes, "max_nodes", 1, <int64_t>1 << 40)
    cdef int64_t used = 0
    cdef bint signals = bool(check_signals)
    cdef uint64_t hm[2]
    cdef uint32_t code
    cdef Py_ssize_t i
    if root.turn < 0:
        raise ValueError("the hand is over: there is no action to solve")
    try:
        items = list(actions)
    except TypeError:
        raise ValueError("actions must be a sequence of (once, twice, code)") from None
    acts = []
    for i in range(len(items)):
        try:
            once, twice, code_obj = items[i]
        except (TypeError, ValueError):
            raise ValueError(f"actions[{i}] must be (once, twice, code); got {_quote(items[i])}") from None
        _hand_arg(once, twice, f"actions[{i}]", hm)
        code = _int_arg(code_obj, f"actions[{i}] code", 0, 0xFFFF)
        reason = gs_check_pass(&root) if hm[0] == 0 else gs_check_play(&root, hm[0], hm[1], code)
        if reason != GS_OK:
            raise ValueError(f"actions[{i}] is not legal here: {GS_REASON_NAMES[reason]}")
        acts.append((hm[0], hm[1], code))
    if gsv_open(&sv, _gsv_team(&root, s_seat), dd, cap, signals) < 0:
        gsv_close(&sv)
        raise MemoryError("the Guandan solver could not allocate its tables")
    values = []
    for a, b, code_obj in acts:
        hm[0] = a
        hm[1] = b
        code = code_obj
        with nogil:
            c = root
            if hm[0]:
                gs_play(&c, hm[0], hm[1], code)
            else:
                gs_pass(&c)
            sv.limit = sv.nodes + cap
            r = gsv_value(&sv, &c, &v)
        if r < 0:
            if sv.status != GSV_NODE_LIMIT:
                break
            sv.status = GSV_OK
            values.append(None)
        else:
            values.append(v)
    nodes = sv.nodes
    _gsv_finish(&sv)
    return values, nodes
