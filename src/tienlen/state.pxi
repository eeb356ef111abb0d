# The compact game state (R5-R9), deals and native playouts (the PRNG: common/rng.pxi).
#
# This is the one implementation of turn order, lock-out, clearing and finishing. tienlen.Game
# wraps it for Python callers and the playouts run it in C, so the two can never disagree.

from libc.stdlib cimport malloc, free
from libc.string cimport memcpy

cdef enum:
    R_OK = 0
    R_GAME_OVER = 1
    R_CARDS_NOT_IN_HAND = 2
    R_NOT_A_COMBINATION = 3
    R_MUST_INCLUDE_LOWEST = 4
    R_LOCKED_OUT = 5
    R_DOES_NOT_BEAT = 6
    R_CANNOT_PASS_ON_LEAD = 7
    P_RANDOM = 0
    P_GREEDY = 1
    STACK_MOVES = 512


cdef inline void deal_cards(Rng* r, int players, uint64_t* hands, int cards_each) noexcept nogil:
    """Fisher-Yates over the 52 cards; seat p takes deck[13p : 13p + 13]."""
    cdef uint8_t deck[52]
    cdef int i, j, p
    cdef uint8_t t
    for i in range(52):
        deck[i] = i
    for i in range(51, 0, -1):
        j = rng_below(r, i + 1)
        t = deck[i]
        deck[i] = deck[j]
        deck[j] = t
    for p in range(players):
        hands[p] = 0
        for i in range(cards_each):
            hands[p] |= (<uint64_t>1) << deck[p * cards_each + i]


cdef inline void deal_from(Rng* r, uint64_t pool, int* counts, int players, int skip,
                           uint64_t* hands) noexcept nogil:
    """Deal counts[p] random cards of `pool` to every seat except `skip` (determinisation)."""
    cdef uint8_t cards[52]
    cdef int n = 0, i, j, p, pos = 0
    cdef uint8_t t
    while pool:
        cards[n] = TL_CTZ(pool)
        pool &= pool - 1
        n += 1
    for i in range(n - 1, 0, -1):
        j = rng_below(r, i + 1)
        t = cards[i]
        cards[i] = cards[j]
        cards[j] = t
    for p in range(players):
        if p == skip:
            continue
        hands[p] = 0
        for i in range(counts[p]):
            hands[p] |= (<uint64_t>1) << cards[pos]
            pos += 1


# ---------------------------------------------------------------- the state

cdef struct State:
    uint64_t hands[4]
    uint64_t pile_mask
    uint64_t played
    RuleTable rules        # the ruleset, decoded once (bits.pxi); rules.flags is Rules.flags
    uint32_t pile_code
    int8_t players
    int8_t turn            # -1 once the hand is over
    int8_t pile_owner      # -1 when the pile is empty
    int8_t must_include    # R7.2: the card the first lead must contain, or -1
    int8_t nfinished
    uint8_t locked         # bit p: seat p passed on this pile (R5.1)
    int8_t order[4]        # finishing order; the loser is appended at the end (R9.2)


cdef inline void st_init(State* s, const uint64_t* hands, int players, int leader, uint64_t flags) noexcept nogil:
    cdef int p
    cdef uint64_t all_cards = 0
    s.players = players
    rules_decode(&s.rules, flags)
    s.pile_mask = 0
    s.played = 0
    s.pile_code = 0
    s.pile_owner = -1
    s.nfinished = 0
    s.locked = 0
    for p in range(4):
        s.hands[p] = hands[p] if p < players else 0
        s.order[p] = -1
        all_cards |= s.hands[p]
    if leader < 0:
        s.must_include = TL_CTZ(all_cards)
        for p in range(players):
            if (s.hands[p] >> s.must_include) & 1:
                s.turn = p
    else:
        s.must_include = -1
        s.turn = leader


cdef inline int st_deal_instant_win(State* s) noexcept nogil:
    """R11.3, for a hand just dealt (st_init): the first seat in turn order from the leader
    whose hand is an instant win enabled by the rules wins at once. The hand is then over:
    that seat is first, the others follow in turn order after it and share last place (they
    all still hold their cards, which is how st_instant_win recognises such an end).
    Returns the win (rules.ALL_INSTANT_WINS index) or -1 when play goes on."""
    cdef int k, p, q, w
    if not (s.rules.flags >> FLAG_INSTANT_BASE) or s.turn < 0:
        return -1
    for k in range(s.players):
        p = (s.turn + k) % s.players
        w = c_instant_win(s.hands[p], s.rules.flags)
        if w >= 0:
            for q in range(s.players):
                s.order[q] = (p + q) % s.players
            s.nfinished = s.players
            s.turn = -1
            s.must_include = -1
            return w
    return -1


cdef inline int st_instant_win(const State* s) noexcept nogil:
    """The instant win that ended this hand (R11.3), -1 if none: only such an end leaves
    the first-placed seat holding cards."""
    if s.turn >= 0 or s.nfinished == 0 or s.hands[s.order[0]] == 0:
        return -1
    return c_instant_win(s.hands[s.order[0]], s.rules.flags)


cdef inline int st_check_play(const State* s, uint64_t mask, uint32_t* code_out) noexcept nogil:
    cdef uint32_t code
    cdef int seat = s.turn
    if seat < 0:
        return R_GAME_OVER
    if mask == 0:
        return R_NOT_A_COMBINATION
    if mask & ~s.hands[seat]:
        return R_CARDS_NOT_IN_HAND
    code = c_classify(mask, s.rules.flags)
    if code == 0:
        return R_NOT_A_COMBINATION
    code_out[0] = code
    if s.pile_code == 0:
        if s.must_include >= 0 and not ((mask >> s.must_include) & 1):
            return R_MUST_INCLUDE_LOWEST
        return R_OK
    if (s.locked >> seat) & 1:
        return R_OK if c_table_cuts(s.rules.out_cuts, code, s.pile_code) else R_LOCKED_OUT
    return R_OK if c_beats(code, s.pile_code, s.rules.cuts) else R_DOES_NOT_BEAT


cdef inline int st_check_pass(const State* s) noexcept nogil:
    if s.turn < 0:
        return R_GAME_OVER
    if s.pile_code == 0:
        return R_CANNOT_PASS_ON_LEAD
    return R_OK


cdef inline void st_advance(State* s) noexcept nogil:
    """Hand the turn on (R8.1), skipping finished and locked-out seats (R5.3: a locked-out
    seat is skipped unless the pile is something it may cut out of turn), clearing the pile
    when it comes back round to the owner's seat (R6.1, R6.2)."""
    cdef int cur = s.turn, owner = s.pile_owner, n = s.players, step
    # Loops are bounded by the seat count, so even a state built from inconsistent fields
    # cannot spin forever: in a consistent state the owner's seat is always reached.
    for step in range(n):
        cur += 1
        if cur >= n:
            cur = 0
        if cur == owner:
            break
        if s.hands[cur] == 0:
            continue
        if ((s.locked >> cur) & 1) and not c_locked_may_act(&s.rules, s.pile_code):
            continue
        s.turn = cur
        return
    s.pile_code = 0
    s.pile_mask = 0
    s.pile_owner = -1
    s.locked = 0
    for step in range(n):
        if s.hands[cur]:
            s.turn = cur
            return
        cur += 1
        if cur >= n:
            cur = 0
    s.turn = -1


cdef inline void st_play(State* s, uint64_t mask, uint32_t code) noexcept nogil:
    cdef int seat = s.turn, p, left = 0, last = -1
    s.hands[seat] &= ~mask
    s.played |= mask
    s.pile_mask = mask
    s.pile_code = code
    s.pile_owner = seat
    s.must_include = -1
    if s.hands[seat] == 0:
        s.order[s.nfinished] = seat
        s.nfinished += 1
        for p in range(s.players):
            if s.hands[p]:
                left += 1
                last = p
        if left <= 1:
            # R9.2: the last player holding cards is the loser, in last place.
            if last >= 0:
                s.order[s.nfinished] = last
                s.nfinished += 1
            s.turn = -1
            return
    st_advance(s)


cdef inline void st_pass(State* s) noexcept nogil:
    s.locked |= <uint8_t>(1 << s.turn)
    st_advance(s)


cdef inline int64_t st_moves(const State* s, uint64_t* out) noexcept nogil:
    if s.turn < 0:
        return 0
    return gen_moves(s.hands[s.turn], s.pile_code, &s.rules, (s.locked >> s.turn) & 1,
                     s.must_include, out)


# ---------------------------------------------------------------- playouts

cdef inline int64_t _longest_with_lowest(uint64_t* moves, int64_t n, uint64_t lowest_bit) noexcept nogil:
    # Greedy lead: among moves holding the weakest card, shed the most cards; ties go to the
    # first such move, which by the generation order has the lowest top. The caller passes
    # the card every move must hold when there is one (R7.2), so some move always qualifies;
    # should none, the first move is still a legal choice (never index -1).
    cdef int64_t i, best = 0
    cdef int best_n = 0, c
    for i in range(n):
        if moves[i] & lowest_bit:
            c = TL_POPCOUNT(moves[i])
            if c > best_n:
                best_n = c
                best = i
    return best


cdef inline int64_t st_moves_buffered(const State* s, uint64_t* buf, int64_t bufcap,
                                      uint64_t** moves) noexcept nogil:
    """The legal moves of the seat to act into `buf`, or, when they may not fit, into a
    malloc'd list (the caller frees `moves[0]` if it is not `buf`). Returns the count, or -1
    if that allocation failed. Hands of 13 cards or fewer skip the counting pass: they never
    have more than MAX_MOVES_13 moves."""
    cdef int64_t n
    moves[0] = buf
    if TL_POPCOUNT(s.hands[s.turn]) <= 13 and bufcap >= MAX_MOVES_13:
        return st_moves(s, buf)
    n = st_moves(s, NULL)
    if n > bufcap:
        moves[0] = <uint64_t*>malloc(n * sizeof(uint64_t))
        if moves[0] == NULL:
            return -1
    return st_moves(s, moves[0])


cdef int st_step(State* s, Rng* r, int policy, uint64_t* buf, int64_t bufcap) noexcept nogil:
    """Choose and apply one action by `policy`. Returns 0, or -1 if a move list overflowed."""
    cdef int64_t n, pick
    cdef uint64_t* moves
    cdef uint64_t mv
    cdef bint can_pass = s.pile_code != 0
    cdef int64_t i
    cdef uint64_t key_card
    n = st_moves_buffered(s, buf, bufcap, &moves)
    if n < 0:
        return -1
    if n == 0:
        if moves != buf:
            free(moves)
        st_pass(s)          # only reachable while following, so passing is legal
        return 0
    if policy == P_GREEDY:
        if s.pile_code == 0:
            # The weakest card, or the card the lead must hold (R7.2): in a dealt hand they
            # are the same card, but a state built from fields may name another one.
            if s.must_include >= 0:
                key_card = (<uint64_t>1) << s.must_include
            else:
                key_card = s.hands[s.turn] & (~s.hands[s.turn] + 1)
            i = _longest_with_lowest(moves, n, key_card)
            mv = moves[i]
        else:
            mv = moves[0]
    else:
        pick = rng_below(r, <uint32_t>(n + can_pass))
        mv = moves[pick] if pick < n else 0
    if moves != buf:
        free(moves)
    if mv == 0:
        st_pass(s)
    else:
        st_play(s, mv, c_classify(mv, s.rules.flags))
    return 0


cdef int st_playout(State* s, Rng* r, int policy) noexcept nogil:
    """Play to the end of the hand. Returns 0, or -1 on allocation failure."""
    cdef uint64_t buf[STACK_MOVES]
    while s.turn >= 0:
        if st_step(s, r, policy, buf, STACK_MOVES) < 0:
            return -1
    return 0
