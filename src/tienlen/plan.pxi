# The PLAN playout policy: every seat plays a cut-down version of the L2 bot.
#
# GREEDY rollouts assume opponents who beat every pile they can and spend their 2s at once;
# search built on them plays well against L1 and no better than L2 against L2. In a PLAN
# rollout each seat keeps a plan, a best split of its hand into the fewest combinations,
# and plays it group by group, holding its 2s and bombs back (docs/strength.md has the
# full specification; tests/reference_playout.py is the Python twin it is tested against,
# move for move).
#
# The split search runs over rank counts only (suits never change how many groups a hand
# needs) and is memoised in a lossy direct-mapped table that the caller owns, so that
# nothing here is shared between threads.

from libc.stdlib cimport calloc

cdef enum:
    P_PLAN = 2
    SPLIT_GROUP = 16          # score of one group; a lone low card adds 1 (always < 16)
    SPLIT_SET = 0
    SPLIT_SEQ = 1
    SPLIT_DSEQ = 2
    PLAN_SHORT = 3            # a plan this short may spend a 2 or a bomb to win the lead
    PLAN_DANGER = 2           # an opponent this close to out: every seat plays to stop them
    PLAN_NEAR = 3             # ... and this close makes a 2 or a bomb worth spending
    MEMO_BITS = 15
    MAX_GROUPS = 13           # a best split has at most one group per rank

# Bit 52 of a split key: the no-twos variant, where a sequence tops out at A (R2.8).
cdef uint64_t SPLIT_NO_TWOS = <uint64_t>1 << 52
cdef uint64_t TWOS_CARDS = <uint64_t>0xF << 48


cdef struct MemoEntry:
    uint64_t key
    uint32_t val


cdef struct SplitMemo:
    MemoEntry* slots


cdef inline int memo_open(SplitMemo* m) noexcept nogil:
    # calloc: the table is large but only the pages a search touches get faulted in.
    m.slots = <MemoEntry*>calloc(1 << MEMO_BITS, sizeof(MemoEntry))
    return 0 if m.slots != NULL else -1


cdef inline void memo_close(SplitMemo* m) noexcept nogil:
    free(m.slots)
    m.slots = NULL


# A best split's value: score << 12 | kind << 8 | lowest rank << 4 | size, where the group
# is the one holding the lowest rank and size counts cards for a set, ranks for a sequence.
cdef inline int val_score(uint32_t v) noexcept nogil:
    return v >> 12


cdef uint32_t split_best(uint64_t key, SplitMemo* m) noexcept nogil:
    """Best split of the rank counts `key` (nibble r = cards of rank r, plus SPLIT_NO_TWOS).

    Candidates are tried in a fixed order (sets by size, then sequences, then double
    sequences, each by length) and only a strictly better score replaces the best, so the
    chosen split is a pure function of the key, whatever the memo holds."""
    cdef uint64_t counts = key & DECK_MASK, rest, slot
    cdef int low, count, size, rank, length, need, kind, limit, score
    cdef uint32_t best = 0xFFFFFFFF
    cdef int best_score = 1 << 19
    if counts == 0:
        return 0
    slot = (key * 0x9E3779B97F4A7C15ULL) >> (64 - MEMO_BITS)
    if m.slots[slot].key == key:
        return m.slots[slot].val
    low = TL_CTZ(counts) >> 2
    count = (counts >> (4 * low)) & 15
    for size in range(1, count + 1):
        score = SPLIT_GROUP + (1 if size == 1 and low != RANK_TWO else 0)
        score += val_score(split_best(key - (<uint64_t>size << (4 * low)), m))
        if score < best_score:
            best_score = score
            best = (<uint32_t>SPLIT_SET << 8) | (<uint32_t>low << 4) | <uint32_t>size
    limit = RANK_TWO - 1 if key & SPLIT_NO_TWOS else RANK_TWO
    # Every group covering the lowest rank starts there, so the sequences start at `low`.
    for kind in range(SPLIT_SEQ, SPLIT_DSEQ + 1):
        need = kind
        if count < need:
            continue
        rest = key - (<uint64_t>need << (4 * low))
        length = 1
        for rank in range(low + 1, limit + 1):
            if <int>((counts >> (4 * rank)) & 15) < need:
                break
            rest -= <uint64_t>need << (4 * rank)
            length += 1
            if length >= 3:
                score = SPLIT_GROUP + val_score(split_best(rest, m))
                if score < best_score:
                    best_score = score
                    best = (<uint32_t>kind << 8) | (<uint32_t>low << 4) | <uint32_t>length
    best |= <uint32_t>best_score << 12
    m.slots[slot].key = key
    m.slots[slot].val = best
    return best


cdef inline uint64_t split_key(uint64_t hand, uint64_t flags) noexcept nogil:
    return nibble_counts(hand) | (SPLIT_NO_TWOS if flags & F_NO_TWOS else 0)


cdef inline bint is_bomb_code(uint32_t code, uint64_t cuts) noexcept nogil:
    # A bomb by the rule table (its class cuts something), and any double sequence longer
    # than the table's (6+ pairs: rarely beaten, worth holding like a bomb).
    return c_is_bomb(code, cuts) or (ckind(code) == K_DOUBLE_SEQUENCE and clen(code) > 10)


cdef inline bint is_control(uint64_t mask, uint32_t code, uint64_t cuts) noexcept nogil:
    # The groups to hold back: anything with a 2, and bombs.
    return (mask & TWOS_CARDS) != 0 or is_bomb_code(code, cuts)


cdef struct SeatPlan:
    uint64_t mask[MAX_GROUPS]
    uint32_t code[MAX_GROUPS]
    int n


cdef struct Plans:
    SeatPlan seat[4]


cdef inline uint32_t plan_order(uint64_t mask, uint32_t code, uint64_t cuts) noexcept nogil:
    # Weakest first, 2s and bombs last; two groups never share a top card, so this is total.
    return (<uint32_t>is_control(mask, code, cuts) << 16) | (<uint32_t>ctop(code) << 8) \
        | <uint32_t>(64 - TL_POPCOUNT(mask))


cdef void plan_compute(SeatPlan* out, uint64_t hand, const RuleTable* rt, SplitMemo* m) noexcept nogil:
    """`out` = the plan of `hand`: a best split, suits dealt per rank with sequences taking
    the lowest cards and sets the rest, ordered weakest first with 2s and bombs (by the rule
    table `rt`) last."""
    cdef uint64_t flags = rt.flags
    cdef uint64_t key = split_key(hand, flags)
    cdef uint32_t v
    cdef int kinds[MAX_GROUPS]
    cdef int lows[MAX_GROUPS]
    cdef int sizes[MAX_GROUPS]
    cdef uint32_t order[MAX_GROUPS]
    cdef uint64_t free_cards = hand, nib, bit, gm
    cdef int n = 0, i, j, rank, need, pass_no, take, r
    cdef uint32_t oc, ok
    while key & DECK_MASK:
        v = split_best(key, m)
        kinds[n] = (v >> 8) & 3
        lows[n] = (v >> 4) & 15
        sizes[n] = v & 15
        if kinds[n] == SPLIT_SET:
            key -= <uint64_t>sizes[n] << (4 * lows[n])
        else:
            for rank in range(lows[n], lows[n] + sizes[n]):
                key -= <uint64_t>kinds[n] << (4 * rank)
        n += 1
    # Sequences pick their suits first (lowest cards), then the sets take what is left.
    for pass_no in range(2):
        for i in range(n):
            if (kinds[i] == SPLIT_SET) != (pass_no == 1):
                continue
            gm = 0
            for r in range(lows[i], lows[i] + (1 if kinds[i] == SPLIT_SET else sizes[i])):
                take = sizes[i] if kinds[i] == SPLIT_SET else kinds[i]
                nib = free_cards & (<uint64_t>0xF << (4 * r))
                for j in range(take):
                    bit = nib & (~nib + 1)
                    gm |= bit
                    nib ^= bit
                free_cards &= ~gm
            out.mask[i] = gm
    out.n = n
    for i in range(n):
        out.code[i] = c_classify(out.mask[i], flags)
        order[i] = plan_order(out.mask[i], out.code[i], rt.cuts)
    # Insertion sort: at most 13 groups.
    for i in range(1, n):
        gm = out.mask[i]
        oc = out.code[i]
        ok = order[i]
        j = i - 1
        while j >= 0 and order[j] > ok:
            out.mask[j + 1] = out.mask[j]
            out.code[j + 1] = out.code[j]
            order[j + 1] = order[j]
            j -= 1
        out.mask[j + 1] = gm
        out.code[j + 1] = oc
        order[j + 1] = ok


cdef inline void plans_init(Plans* pl, const State* s, SplitMemo* m) noexcept nogil:
    cdef int p
    for p in range(s.players):
        plan_compute(&pl.seat[p], s.hands[p], &s.rules, m)


cdef inline uint64_t plan_lead(const SeatPlan* sp, int danger, uint64_t cuts) noexcept nogil:
    cdef int i, best
    if sp.n == 1:
        return sp.mask[0]
    if danger <= PLAN_DANGER:
        # Lead something the short hand cannot follow: more cards than it holds.
        for i in range(sp.n):
            if TL_POPCOUNT(sp.mask[i]) > danger and not is_control(sp.mask[i], sp.code[i], cuts):
                return sp.mask[i]
        best = 0
        for i in range(1, sp.n):
            if ctop(sp.code[i]) > ctop(sp.code[best]):
                best = i
        return sp.mask[best]
    for i in range(sp.n):
        if not is_control(sp.mask[i], sp.code[i], cuts):
            return sp.mask[i]
    return sp.mask[0]


cdef inline int plan_danger(const State* s) noexcept nogil:
    """The fewest cards any other seat still holding cards has (99 if none)."""
    cdef int p, c, danger = 99
    for p in range(s.players):
        if p != s.turn and s.hands[p]:
            c = TL_POPCOUNT(s.hands[p])
            if c < danger:
                danger = c
    return danger


cdef inline int plan_stop_short(const State* s, uint64_t* buf, int64_t bufcap,
                                uint64_t* out) noexcept nogil:
    """Against a short hand: `out` = the highest play that beats the pile, bombs last
    (0 = pass). Returns 0, or -1 if the move list could not be allocated."""
    cdef uint64_t* moves
    cdef uint64_t move = 0
    cdef int64_t n, j
    cdef int k, best_key = -1
    n = st_moves_buffered(s, buf, bufcap, &moves)
    if n < 0:
        return -1
    for j in range(n):
        k = TL_TOPBIT(moves[j]) + (0 if is_bomb_code(c_classify(moves[j], s.rules.flags),
                                                     s.rules.cuts) else 64)
        if k > best_key:
            best_key = k
            move = moves[j]
    if moves != buf:
        free(moves)
    out[0] = move
    return 0


cdef inline uint64_t plan_follow(const State* s, const SeatPlan* sp, int danger) noexcept nogil:
    """Follow from the plan: the first group that beats the pile, unless it is a 2 or a bomb
    not yet worth spending (0 = pass). A bomb is worth spending on a pile it cuts by the
    table (a 2 under the contract)."""
    cdef uint32_t pile = s.pile_code
    cdef uint64_t cuts = s.rules.cuts
    cdef int i
    for i in range(sp.n):
        if c_beats(sp.code[i], pile, cuts):
            if (not is_control(sp.mask[i], sp.code[i], cuts) or sp.n <= PLAN_SHORT
                    or danger <= PLAN_NEAR
                    or (is_bomb_code(sp.code[i], cuts)
                        and ((cuts >> code_class(pile)) & BOMB_COLUMN) != 0)):
                return sp.mask[i]
            return 0
    return 0


cdef int st_plan_step(State* s, Plans* pl, SplitMemo* m, uint64_t* buf, int64_t bufcap) noexcept nogil:
    """Choose and apply one action of the PLAN policy and update the mover's plan.
    Returns 0, or -1 if a move list could not be allocated."""
    cdef int seat = s.turn, i, danger = plan_danger(s)
    cdef SeatPlan* sp = &pl.seat[seat]
    cdef uint32_t pile = s.pile_code, code = 0
    cdef uint64_t move = 0
    cdef int64_t j
    if pile == 0:
        if s.must_include >= 0:
            # R7.2: the first lead must hold the lowest card; the group holding it does.
            for i in range(sp.n):
                if (sp.mask[i] >> s.must_include) & 1:
                    move = sp.mask[i]
                    break
        else:
            move = plan_lead(sp, danger, s.rules.cuts)
    elif (s.locked >> seat) & 1:
        # R5.2 (R11.2): a seat that passed may only cut by the out-of-turn table.
        for i in range(sp.n):
            if c_table_cuts(s.rules.out_cuts, sp.code[i], pile):
                move = sp.mask[i]
                break
    elif danger <= PLAN_DANGER:
        if plan_stop_short(s, buf, bufcap, &move) < 0:
            return -1
    else:
        move = plan_follow(s, sp, danger)
    if move == 0:
        st_pass(s)
        return 0
    for i in range(sp.n):
        if sp.mask[i] == move:
            # On plan: the group leaves it and the rest of the plan stands.
            code = sp.code[i]
            for j in range(i + 1, sp.n):
                sp.mask[j - 1] = sp.mask[j]
                sp.code[j - 1] = sp.code[j]
            sp.n -= 1
            st_play(s, move, code)
            return 0
    st_play(s, move, c_classify(move, s.rules.flags))
    if s.hands[seat]:
        plan_compute(sp, s.hands[seat], &s.rules, m)
    else:
        sp.n = 0
    return 0


cdef int st_plan_playout(State* s, Plans* pl, SplitMemo* m) noexcept nogil:
    """Play to the end by PLAN from the plans `pl` (one per seat, for the current hands)."""
    cdef uint64_t buf[STACK_MOVES]
    while s.turn >= 0:
        if st_plan_step(s, pl, m, buf, STACK_MOVES) < 0:
            return -1
    return 0


cdef int run_playout(State* s, Rng* r, int policy, SplitMemo* m) noexcept nogil:
    """Play to the end by any policy; `m` is only used (and must be open) for PLAN."""
    cdef Plans pl
    if policy == P_PLAN:
        plans_init(&pl, s, m)
        return st_plan_playout(s, &pl, m)
    return st_playout(s, r, policy)
