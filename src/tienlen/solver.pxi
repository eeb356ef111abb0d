# The exact endgame solver: with every hand known, can `seat` go out before every other player
# still holding cards, against every reply of the others?
#
# With two players left that is the game's exact value (exactly one of them goes out first and
# the hand ends, R9.2). With three or four it is a coalition question: the others are assumed
# to play together against `seat`; a WIN is then a strategy that works whatever they do.
#
# The search is a depth-first AND/OR search (alpha-beta on a two-valued game): nodes where
# `seat` acts are OR nodes, every other seat's nodes are AND nodes. It stops at the first
# player to empty their hand, so the lock-out / clearing rules of state.pxi are only ever
# run on states where nobody has finished since the root. Around it:
#   * a transposition table keyed on the whole position (four hands, pile code, owner, turn,
#     lock-outs, must_include), allocated per call, growing as the search grows;
#   * a symmetry cut: two cards of one rank in one hand with no card of any other hand (nor
#     the pile's top card) between them are interchangeable, so only the move using the
#     lower ones is searched (never the card a lead must hold: it has no twin);
#   * "goes out in k unbeatable plays" without search: a leader whose hand splits into
#     combinations none of which the other side can beat, except perhaps one played last;
#   * move ordering: plays that end the hand first, then the larger plays on a lead and the
#     cheaper beats on a follow.
# Limits (nodes, milliseconds) end the search with SV_UNKNOWN; Ctrl-C is checked every
# SV_SIGNAL_NS of wall-clock time (read every SV_CHECK_EVERY nodes) by taking the GIL for
# a moment.

from libc.stdlib cimport qsort, realloc
from cpython.exc cimport PyErr_Occurred
from libc.string cimport memset
from posix.time cimport clock_gettime, timespec, CLOCK_MONOTONIC

# PyErr_CheckSignals comes from api.pxi (declared noexcept: the check below reads its result).

cdef enum:
    SV_UNKNOWN = 0
    SV_WIN = 1
    SV_LOSS = 2
    SV_OK = 0                  # search status
    SV_NODE_LIMIT = 1
    SV_TIME_LIMIT = 2
    SV_INTERRUPTED = 3
    SV_NO_MEMORY = 4
    SV_CHECK_EVERY = 64        # nodes between clock reads (a node of a huge hand can take ms)
    SV_SIGNAL_NS = 20000000    # time between Ctrl-C checks: 20 ms
    SV_TT_MIN_BITS = 8         # small to start: most calls search a few hundred nodes
    SV_MEMO_AFTER = 1024       # nodes searched before the split memo (512 KB) is opened
    SV_TT_MAX_BITS = 21        # 2^21 entries of 40 bytes: 80 MB at most, only for huge searches
    SV_QUICK_BUDGET = 64       # partition steps one quick "goes out" test may take
    SV_MAX_LINE = 256

# A TT entry: the four hands with the rest of the position packed into their top 12 bits,
# and the proven value with the move that proves it.
cdef struct SvEntry:
    uint64_t k[4]
    uint64_t info      # bits 0..51 move (0 = pass), 52..53 value, 54..59 log2(work), 63 used

# A candidate action and its ordering key (higher first).
cdef struct SvMove:
    uint64_t key
    uint64_t move

cdef struct Solver:
    SvEntry* tt
    int tt_bits
    int64_t tt_used
    int seat
    uint64_t flags
    int check_signals
    int status
    int64_t nodes
    int64_t max_nodes
    int64_t deadline_ns        # 0: no time limit
    int64_t signal_ns          # when to check for Ctrl-C next
    uint64_t* stack            # move lists of the nodes on the current path
    int64_t stack_cap
    int64_t stack_top
    SvMove* keys               # ordered actions, parallel to stack
    SplitMemo memo             # best splits by rank counts, for ordering (plan.pxi)
    uint64_t line[SV_MAX_LINE]
    int line_len


cdef inline int64_t sv_now_ns() noexcept nogil:
    cdef timespec ts
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return <int64_t>ts.tv_sec * 1000000000 + ts.tv_nsec


cdef inline void sv_pack(const State* s, uint64_t* k) noexcept nogil:
    """The position as four words: hands in bits 0..51, the rest in the top 12 bits."""
    cdef uint64_t meta = (<uint64_t>s.pile_code) \
        | (<uint64_t>(s.pile_owner + 1) << 16) \
        | (<uint64_t>(s.turn + 1) << 19) \
        | (<uint64_t>s.locked << 22) \
        | (<uint64_t>(s.must_include + 1) << 26)
    k[0] = s.hands[0] | ((meta & 0xFFF) << 52)
    k[1] = s.hands[1] | (((meta >> 12) & 0xFFF) << 52)
    k[2] = s.hands[2] | (((meta >> 24) & 0xFFF) << 52)
    k[3] = s.hands[3] | (((meta >> 36) & 0xFFF) << 52)


cdef inline uint64_t sv_hash(const uint64_t* k) noexcept nogil:
    cdef uint64_t h = k[0] * 0x9E3779B97F4A7C15ULL
    h ^= (k[1] + 0x632BE59BD9B4E019ULL) * 0xBF58476D1CE4E5B9ULL
    h ^= (k[2] + 0x85157AF5ULL) * 0x94D049BB133111EBULL
    h ^= (k[3] + 0x2545F4914F6CDD1DULL) * 0xD6E8FEB86659FD93ULL
    return h ^ (h >> 29)


cdef inline SvEntry* sv_probe(Solver* sv, const uint64_t* k) noexcept nogil:
    cdef uint64_t i = (sv_hash(k) >> (64 - sv.tt_bits)) & ~(<uint64_t>1)
    cdef SvEntry* e
    cdef int j
    for j in range(2):
        e = &sv.tt[i + j]
        if (e.info >> 63) and e.k[0] == k[0] and e.k[1] == k[1] and e.k[2] == k[2] and e.k[3] == k[3]:
            return e
    return NULL


cdef inline void sv_put(SvEntry* tt, int bits, const uint64_t* k, uint64_t info) noexcept nogil:
    """Store in the two-entry bucket: the same key, else a free slot, else over the entry
    that took less work to prove (cheap to prove again)."""
    cdef uint64_t i = (sv_hash(k) >> (64 - bits)) & ~(<uint64_t>1)
    cdef SvEntry* a = &tt[i]
    cdef SvEntry* b = &tt[i + 1]
    cdef SvEntry* e
    if (b.info >> 63) and b.k[0] == k[0] and b.k[1] == k[1] and b.k[2] == k[2] and b.k[3] == k[3]:
        e = b
    elif not (a.info >> 63):
        e = a
    elif (a.k[0] == k[0] and a.k[1] == k[1] and a.k[2] == k[2] and a.k[3] == k[3]):
        e = a
    elif not (b.info >> 63):
        e = b
    else:
        e = a if ((a.info >> 54) & 63) <= ((b.info >> 54) & 63) else b
    e.k[0] = k[0]
    e.k[1] = k[1]
    e.k[2] = k[2]
    e.k[3] = k[3]
    e.info = info


cdef inline void sv_grow(Solver* sv) noexcept nogil:
    """Four times the table, keeping every entry (best effort: on no memory, keep the old)."""
    cdef int bits = sv.tt_bits + 2
    cdef SvEntry* fresh = <SvEntry*>calloc((<size_t>1) << bits, sizeof(SvEntry))
    cdef int64_t i
    if fresh == NULL:
        return
    for i in range((<int64_t>1) << sv.tt_bits):
        if sv.tt[i].info >> 63:
            sv_put(fresh, bits, sv.tt[i].k, sv.tt[i].info)
    free(sv.tt)
    sv.tt = fresh
    sv.tt_bits = bits


cdef inline void sv_store(Solver* sv, const uint64_t* k, int value, uint64_t move, int64_t work) noexcept nogil:
    cdef int lg = 0
    while work > 1 and lg < 63:
        work >>= 1
        lg += 1
    sv_put(sv.tt, sv.tt_bits, k, move | (<uint64_t>value << 52) | (<uint64_t>lg << 54)
           | ((<uint64_t>1) << 63))
    sv.tt_used += 1
    if sv.tt_used > ((<int64_t>1) << sv.tt_bits) and sv.tt_bits < SV_TT_MAX_BITS:
        sv_grow(sv)
        sv.tt_used = 0


cdef inline int sv_reserve(Solver* sv, int64_t n) noexcept nogil:
    """Room for n more moves on the stack. Move lists are addressed by offset, so a move of
    the stack does not invalidate the callers' lists."""
    cdef int64_t cap = sv.stack_cap
    cdef uint64_t* a
    cdef SvMove* b
    if sv.stack_top + n <= cap:
        return 0
    while sv.stack_top + n > cap:
        cap *= 2
    a = <uint64_t*>realloc(sv.stack, cap * sizeof(uint64_t))
    if a == NULL:
        return -1
    sv.stack = a
    b = <SvMove*>realloc(sv.keys, cap * sizeof(SvMove))
    if b == NULL:
        return -1
    sv.keys = b
    sv.stack_cap = cap
    return 0


cdef inline int sv_limits(Solver* sv) noexcept nogil:
    """Checks the node and time limits and, now and then, Ctrl-C. Returns the status."""
    cdef int sig = 0
    cdef int64_t now
    if sv.nodes > sv.max_nodes:
        sv.status = SV_NODE_LIMIT
        return sv.status
    now = sv_now_ns()
    if sv.deadline_ns and now > sv.deadline_ns:
        sv.status = SV_TIME_LIMIT
    elif sv.check_signals and now >= sv.signal_ns:
        sv.signal_ns = now + SV_SIGNAL_NS
        with gil:
            sig = PyErr_CheckSignals()
        if sig:
            sv.status = SV_INTERRUPTED
    return sv.status


# What one hand can beat, in O(1) per question: for every kind and card count, the top
# card of the strongest such combination the hand holds (-1: none). A play is beaten by a
# higher top of its own kind and size or, on 2s, by a bomb of the R4.1 table.
cdef struct SvBeat:
    int8_t best[7][27]


cdef inline void sv_beat_init(SvBeat* b, uint64_t hand, uint64_t flags) noexcept nogil:
    cdef int r, k, L, c, hi, run1 = 0, run2 = 0
    cdef int max_rank = 11 if (flags & F_NO_TWOS) else 12
    cdef uint64_t nib
    memset(b.best, -1, sizeof(b.best))
    for r in range(13):
        nib = (hand >> (4 * r)) & 15
        c = TL_POPCOUNT(nib)
        if c == 0:
            run1 = run2 = 0
            continue
        hi = 4 * r + TL_TOPBIT(nib)
        # Ranks ascend, so each assignment below overwrites a weaker one.
        for k in range(1, c + 1):
            b.best[k][k] = hi
        if r > max_rank:
            continue
        run1 += 1
        run2 = run2 + 1 if c >= 2 else 0
        for L in range(3, run1 + 1):
            b.best[K_SEQUENCE][L] = hi
        for L in range(3, min(run2, 13) + 1):
            b.best[K_DOUBLE_SEQUENCE][2 * L] = hi


cdef inline bint sv_beat_one(const SvBeat* b, uint32_t code, uint64_t cuts) noexcept nogil:
    cdef int k = ckind(code), n = clen(code), cb
    cdef uint64_t bombs
    if n <= 26 and b.best[k][n] > ctop(code):
        return True
    # The bomb classes that cut `code` by the table (a same-class entry is R3.1, above).
    bombs = (cuts >> code_class(code)) & BOMB_COLUMN
    while bombs:
        cb = TL_CTZ(bombs) >> 3
        bombs &= bombs - 1
        if cb == CL_QUAD:
            if b.best[K_QUAD][4] >= 0:
                return True
        elif b.best[K_DOUBLE_SEQUENCE][2 * (cb - 1)] >= 0:
            return True
    return False


# The hands that may answer a play in a quick test, each summarised once per test.
cdef struct SvRivals:
    SvBeat beat[3]
    int n
    uint64_t cuts              # the rule table's in-turn cuts


cdef inline void sv_rivals_init(SvRivals* rv, const Solver* sv, const State* s) noexcept nogil:
    """For the target seat, every other hand; for a coalition member, the target's only
    (its partners may always pass)."""
    cdef int q, p = s.turn
    rv.n = 0
    rv.cuts = s.rules.cuts
    if p != sv.seat:
        sv_beat_init(&rv.beat[0], s.hands[sv.seat], s.rules.flags)
        rv.n = 1
        return
    for q in range(s.players):
        if q != p and s.hands[q]:
            sv_beat_init(&rv.beat[rv.n], s.hands[q], s.rules.flags)
            rv.n += 1


cdef inline bint sv_beatable(const SvRivals* rv, uint32_t code) noexcept nogil:
    """Whether a rival can beat `code` on a fresh pile, bombs included."""
    cdef int i
    for i in range(rv.n):
        if sv_beat_one(&rv.beat[i], code, rv.cuts):
            return True
    return False


cdef bint sv_partition(const State* s, uint64_t rest, const SvRivals* others, int beatable_left,
                       int* budget, uint64_t* first) noexcept nogil:
    """Can `rest` be split into combinations that the rivals cannot beat, except
    at most `beatable_left` (0 or 1) that is played last? On success `first` gets a
    combination to lead now (one nobody can beat, or the whole of `rest`)."""
    cdef uint64_t buf[MAX_MOVES_13]
    cdef int64_t n, i
    cdef uint64_t m
    cdef uint32_t code
    cdef int low
    cdef bint ub
    if rest == 0:
        # The play before this one emptied the hand: it went out, nothing is left to split
        # (and TL_CTZ(0) below would be undefined: UBSan caught it).
        first[0] = 0
        return True
    code = c_classify(rest, s.rules.flags)
    if code != 0 and (beatable_left or not sv_beatable(others, code)):
        first[0] = rest
        return True
    budget[0] -= 1
    if budget[0] < 0:
        return False
    low = TL_CTZ(rest)
    # Every split has a group holding the lowest card: try those, largest first.
    n = gen_moves(rest, 0, &s.rules, False, low, buf)
    for i in range(n - 1, -1, -1):
        m = buf[i]
        if m == rest:
            continue
        ub = not sv_beatable(others, c_classify(m, s.rules.flags))
        if not ub and not beatable_left:
            continue
        if sv_partition(s, rest & ~m, others, beatable_left - (0 if ub else 1), budget, first):
            if ub:
                first[0] = m
            return True
        if budget[0] < 0:
            return False
    return False


cdef inline bint sv_quick_out(const Solver* sv, const State* s, uint64_t* first) noexcept nogil:
    """The leader goes out in unbeatable plays: a win for its side, without search. For the
    target seat every other hand must be unable to answer; for a coalition member only the
    target's hand matters, since its partners may always pass."""
    cdef int p = s.turn
    cdef SvRivals rv
    cdef int budget = SV_QUICK_BUDGET
    if s.pile_code != 0 or s.must_include >= 0 or TL_POPCOUNT(s.hands[p]) > 13:
        return False
    sv_rivals_init(&rv, sv, s)
    return sv_partition(s, s.hands[p], &rv, 1, &budget, first)


cdef inline bint sv_quick_follow(const Solver* sv, const State* s, const SvMove* acts,
                                 int64_t n, uint64_t* first) noexcept nogil:
    """The mover beats the pile with something the other side cannot beat, then goes out
    in unbeatable plays from the lead it gets back."""
    cdef int p = s.turn, budget
    cdef uint64_t m, dummy
    cdef int64_t i
    cdef SvRivals rv
    if TL_POPCOUNT(s.hands[p]) > 14:
        return False
    sv_rivals_init(&rv, sv, s)
    for i in range(n):
        m = acts[i].move
        if m == 0 or sv_beatable(&rv, c_classify(m, s.rules.flags)):
            continue
        budget = SV_QUICK_BUDGET
        if sv_partition(s, s.hands[p] & ~m, &rv, 1, &budget, &dummy):
            first[0] = m
            return True
    return False


cdef int _sv_cmp_desc(const void* a, const void* b) noexcept nogil:
    cdef uint64_t x = (<const SvMove*>a).key, y = (<const SvMove*>b).key
    return (x < y) - (x > y)


cdef int64_t sv_moves(Solver* sv, const State* s, int64_t base) noexcept nogil:
    """The mover's actions (0 = pass), ordered, at sv.keys[base:]. Only one move per set of
    interchangeable cards is kept.
    Returns the count, or -1 on no memory."""
    cdef int p = s.turn, q, c, d, lo
    cdef uint64_t hand = s.hands[p], other = 0, both, need, m, h, own
    cdef uint64_t pred[52]
    cdef int64_t n, i, kept = 0
    cdef uint32_t code
    cdef int score, rest
    for q in range(s.players):
        if q != p:
            other |= s.hands[q]
    if s.pile_code != 0:
        other |= (<uint64_t>1) << ctop(s.pile_code)
    both = hand | other
    # The card a lead must hold (R7.2) is like no other: a play with it is legal where the
    # same play with its neighbour is not, so it is interchangeable with nothing (issue 24:
    # treating it as its rank's other cards dropped every lead holding it but not the lower
    # card, and the single of it).
    own = hand
    if s.must_include >= 0:
        own &= ~((<uint64_t>1) << s.must_include)
    # pred[c]: the next lower card of c's rank among everything that can be compared with it,
    # when that card is the mover's own (then the two are interchangeable).
    h = hand
    while h:
        c = TL_CTZ(h)
        h &= h - 1
        pred[c] = 0
        if c == s.must_include:
            continue
        lo = c & ~3
        d = c - 1
        while d >= lo:
            if (both >> d) & 1:
                if (own >> d) & 1:
                    pred[c] = (<uint64_t>1) << d
                break
            d -= 1
    if TL_POPCOUNT(hand) <= 13:
        n = MAX_MOVES_13
    else:
        n = st_moves(s, NULL)
    if sv_reserve(sv, n + 1) < 0:
        return -1
    n = st_moves(s, sv.stack + base)
    for i in range(n):
        m = sv.stack[base + i]
        need = 0
        h = m
        while h:
            need |= pred[TL_CTZ(h)]
            h &= h - 1
        if need & ~m:
            continue            # a lower interchangeable card is left in hand: a duplicate
        code = c_classify(m, s.rules.flags)
        # How many groups the rest of the hand needs (plan.pxi's best split, memoised):
        # a move that leaves a tidy hand is tried before one that breaks it up. On a lead,
        # shedding more cards comes first; on a follow, the tidiest rest, then the
        # cheapest beat. These orders cut the searched nodes about fourfold against
        # "most cards / lowest beat" alone (bench/README.md).
        if sv.memo.slots == NULL and sv.nodes > SV_MEMO_AFTER:
            memo_open(&sv.memo)         # on failure, ordering goes on without it
        rest = 0
        if sv.memo.slots != NULL:
            rest = val_score(split_best(split_key(hand & ~m, s.rules.flags), &sv.memo))
        if s.pile_code == 0:
            score = min(TL_POPCOUNT(m), 15) * 256 + 255 - rest
        else:
            score = (1 << 18) + (255 - rest) * 64 + 63 - ctop(code)
        if m == hand:
            sv.keys[base + kept].key = 0xFFFFFFFFFFFFFFFFULL   # going out ends the search
        else:
            sv.keys[base + kept].key = <uint64_t>score
        sv.keys[base + kept].move = m
        kept += 1
    if s.pile_code != 0:
        # Passing after every beat: tried last, on either side.
        sv.keys[base + kept].key = (1 << 18) - 1
        sv.keys[base + kept].move = 0
        kept += 1
    qsort(sv.keys + base, kept, sizeof(SvMove), _sv_cmp_desc)
    return kept


cdef int sv_search(Solver* sv, const State* s, uint64_t* best) noexcept nogil:
    """SV_WIN if sv.seat goes out first from `s` against every play of the others, SV_LOSS
    if the others can stop it, SV_UNKNOWN if a limit ended the search. `best` gets the
    mover's move that proves the value (any move when none does). `s` has nobody finished
    since the root and a seat to act."""
    cdef uint64_t k[4]
    cdef uint64_t m, first = 0
    cdef SvEntry* e
    cdef State child
    cdef int64_t base, n, i, start_nodes
    cdef int p = s.turn, r, result
    cdef bint is_or = p == sv.seat
    cdef uint64_t child_best
    sv.nodes += 1
    if (sv.nodes & (SV_CHECK_EVERY - 1)) == 0 or sv.nodes > sv.max_nodes:
        if sv_limits(sv):
            return SV_UNKNOWN
    sv_pack(s, k)
    e = sv_probe(sv, k)
    if e != NULL:
        best[0] = e.info & DECK_MASK
        return (e.info >> 52) & 3
    start_nodes = sv.nodes
    if sv_quick_out(sv, s, &first):
        result = SV_WIN if is_or else SV_LOSS
        sv_store(sv, k, result, first, 1)
        best[0] = first
        return result
    base = sv.stack_top
    n = sv_moves(sv, s, base)
    if n < 0:
        sv.status = SV_NO_MEMORY
        return SV_UNKNOWN
    sv.stack_top = base + n
    if s.pile_code != 0 and sv_quick_follow(sv, s, sv.keys + base, n, &first):
        sv.stack_top = base
        result = SV_WIN if is_or else SV_LOSS
        sv_store(sv, k, result, first, 1)
        best[0] = first
        return result
    # Losing for the mover unless a move says otherwise; the default move is the first tried.
    result = SV_LOSS if is_or else SV_WIN
    best[0] = sv.keys[base].move
    for i in range(n):
        m = sv.keys[base + i].move
        if m == s.hands[p]:
            r = SV_WIN if is_or else SV_LOSS            # out first: the search ends here
        else:
            child = s[0]
            if m:
                st_play(&child, m, c_classify(m, s.rules.flags))
            else:
                st_pass(&child)
            r = sv_search(sv, &child, &child_best)
            if r == SV_UNKNOWN:
                sv.stack_top = base
                return SV_UNKNOWN
        if (is_or and r == SV_WIN) or (not is_or and r == SV_LOSS):
            result = r
            best[0] = m
            break
    sv.stack_top = base
    sv_store(sv, k, result, best[0], sv.nodes - start_nodes + 1)
    return result


cdef int sv_open(Solver* sv, int seat, uint64_t flags, int64_t max_nodes, int64_t max_ms,
                 bint check_signals) noexcept nogil:
    sv.seat = seat
    sv.flags = flags
    sv.check_signals = check_signals
    sv.status = SV_OK
    sv.nodes = 0
    sv.max_nodes = max_nodes
    sv.deadline_ns = (sv_now_ns() + max_ms * 1000000) if max_ms > 0 else 0
    sv.signal_ns = sv_now_ns() + SV_SIGNAL_NS
    sv.line_len = 0
    sv.tt_bits = SV_TT_MIN_BITS
    sv.tt_used = 0
    sv.stack_cap = 8 * MAX_MOVES_13
    sv.stack_top = 0
    sv.tt = <SvEntry*>calloc((<size_t>1) << sv.tt_bits, sizeof(SvEntry))
    sv.stack = <uint64_t*>malloc(sv.stack_cap * sizeof(uint64_t))
    sv.keys = <SvMove*>malloc(sv.stack_cap * sizeof(SvMove))
    sv.memo.slots = NULL
    if sv.tt == NULL or sv.stack == NULL or sv.keys == NULL:
        return -1
    return 0


cdef void sv_close(Solver* sv) noexcept nogil:
    free(sv.tt)
    free(sv.stack)
    free(sv.keys)
    memo_close(&sv.memo)
    sv.tt = NULL
    sv.stack = NULL
    sv.keys = NULL


cdef int sv_solve(Solver* sv, const State* root) noexcept nogil:
    """Solve `root` for sv.seat and record the principal line in sv.line: the winner's
    proving moves and the loser's first-tried moves, until somebody goes out (or the line
    buffer, or a limit, ends it). Returns the value."""
    cdef State s = root[0]
    cdef uint64_t m = 0
    cdef int value = sv_search(sv, &s, &m), r
    if value == SV_UNKNOWN:
        return value
    # The line re-walks proven positions, mostly table hits: give it room past the budget.
    sv.max_nodes = sv.nodes + max(sv.max_nodes // 4, 10000)
    while sv.line_len < SV_MAX_LINE:
        r = sv_search(sv, &s, &m)        # a table hit, unless the entry was replaced
        if r == SV_UNKNOWN:
            if sv.status != SV_INTERRUPTED:
                sv.status = SV_OK        # the value stands; only the line is cut short
            break
        sv.line[sv.line_len] = m
        sv.line_len += 1
        if m == s.hands[s.turn]:
            break
        if m:
            st_play(&s, m, c_classify(m, s.rules.flags))
        else:
            st_pass(&s)
    return value


SOLVE_UNKNOWN = SV_UNKNOWN
SOLVE_WIN = SV_WIN
SOLVE_LOSS = SV_LOSS
SOLVE_LIMITS = {SV_OK: None, SV_NODE_LIMIT: "nodes", SV_TIME_LIMIT: "time"}


def solve(state, seat=-1, max_nodes=50_000_000, max_ms=10_000, check_signals=True):
    """Solve a position with every hand known: can `seat` (-1: the seat to act) go out
    before every other player still holding cards, against every play of the others?

    With two players left this is the exact value of the game. With three or four, the
    others are taken to play together against `seat`. Returns
    ``(value, line, nodes, limit)``: `value` is SOLVE_WIN, SOLVE_LOSS or SOLVE_UNKNOWN (a
    limit was hit first), `line` a tuple of actions from here (masks, 0 = pass) in which
    the winning side plays its proving moves, up to the first player out, `nodes` the
    positions searched and `limit` None, "nodes" or "time". `max_nodes` / `max_ms` bound
    the search (max_ms=0: no time limit). The state is copied; the GIL is released while
    searching, and Ctrl-C raises KeyboardInterrupt within milliseconds.

    >>> s = GameState([0b1 | 1 << 51, 1 << 50], leader=0)       # 3♠ 2♥ against 2♦
    >>> value, line, nodes, limit = solve(s)
    >>> value == SOLVE_WIN, [hex(m) for m in line], limit      # 2♥ first, then the 3♠
    (True, ['0x8000000000000', '0x0', '0x1'], None)
    """
    cdef GameState gs = _state_arg(state)
    cdef State root
    cdef Solver sv
    cdef int s_seat, value = SV_UNKNOWN, status, opened
    cdef int64_t nodes_cap = _count_arg(max_nodes, "max_nodes")
    cdef int64_t ms = _int_arg(max_ms, "max_ms", 0, 1 << 40)
    cdef bint signals = bool(check_signals)
    gs._require_built()
    root = gs.s                              # by value: the caller's state is never touched
    if root.turn < 0:
        raise ValueError("the hand is over: there is nothing to solve")
    s_seat = _small_int_arg(seat, "seat", -1, root.players - 1)
    if s_seat < 0:
        s_seat = root.turn
    if root.hands[s_seat] == 0:
        raise ValueError(f"seat {s_seat} holds no cards: it has already gone out")
    with nogil:
        opened = sv_open(&sv, s_seat, root.rules.flags, nodes_cap, ms, signals)
        if opened == 0:
            value = sv_solve(&sv, &root)
        status = sv.status
        sv_close(&sv)
    if opened != 0 or status == SV_NO_MEMORY:
        raise MemoryError("solve could not allocate its tables")
    if status == SV_INTERRUPTED:
        _sv_reraise()
        raise KeyboardInterrupt
    line = tuple(sv.line[i] for i in range(sv.line_len))
    return value, line, sv.nodes, SOLVE_LIMITS[status]


cdef int _sv_reraise() except -1:
    """Re-raise the exception PyErr_CheckSignals left set (KeyboardInterrupt, or whatever the
    signal handler raised)."""
    if PyErr_Occurred() != NULL:
        return -1
    return 0
