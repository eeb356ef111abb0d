# Guandan for reinforcement learning: stepping one table (GdTable) and N tables (GdVecGames,
# each a match, stepped without the GIL). The one encoder is observe.pxi (a seat's
# observation), the action forms masks.pxi (the mask, the features of the legal actions),
# included below. docs/rl.md ("Guandan") documents the layout; tests/rl/test_guandan_rl.py
# checks it against a simple Python encoder and the tables against tienlen.guandan.Match.
#
# A table is a whole match with fixed teams (seats 0 and 2 against 1 and 3, FIXED_1_3):
# hand i is dealt from mix(seed, 1000 + i), the first hand is led by the seat drawn from
# mix(seed, 3), later hands start with tribute and return (G6) judged on the new deal, and
# levels move as G7 says, exactly as tienlen.guandan.Match does for the same seed. The play
# phase is the core's GState (state.pxi); tribute, return and the level settlement are
# match.pxi's gm_* functions, the one implementation of G6/G7 that tienlen.guandan's
# Game and Match call too; tests/test_guandan_rl.py holds the tables to Match's action
# lists and outcomes, move by move, on the same seeds.

from libc.stdlib cimport realloc, calloc
from libc.string cimport memset

cdef enum:
    # Phases of a table (the observation's one-hot `phase` has the first three).
    GR_TRIBUTE = 0
    GR_RETURN = 1
    GR_PLAY = 2
    GR_HAND_OVER = 3            # settled; the next hand is dealt by gr_next_hand
    GR_OVER = 4                 # the match is over (won, or capped): nothing to act on
    # Action kinds in the action features' `reading`: 0 pass, 1..10 the play kinds, then:
    GR_KIND_TRIBUTE = 11
    GR_KIND_RETURN = 12
    # Observation layout (uint8), docs/rl.md. Per-seat fields: 4 slots by seat relative to
    # the observer (0 itself, 1 the next in turn order, 2 its partner, 3 the one before).
    GR_O_HAND = 0               # 2 x 54: card types held at least once, held twice
    GR_O_LEFT = 108             # 4: cards held
    GR_O_PLAYED = 112           # 4 x 108: the cards each seat played this hand (2 x 54 each)
    GR_O_PILE = 544             # 2 x 54: the cards of the play on the table
    GR_O_PILE_KIND = 652        # 11 one-hot: 0 empty pile (a lead), 1..10 the kind
    GR_O_PILE_RANK = 663        # 17 one-hot: the reading's rank field (0 with an empty pile)
    GR_O_PILE_SIZE = 680        # 1: cards in the pile's play
    GR_O_PILE_OWNER = 681       # 4 one-hot: who made the pile's play
    GR_O_PILE_LEADER = 685      # 4 one-hot: who led the current trick
    GR_O_TO_ACT = 689           # 4 one-hot: the seat to act
    GR_O_PLACE = 693            # 4: finishing place this hand (1..3), 0 still in
    GR_O_LEVEL = 697            # 13 one-hot: the hand's level (2..14)
    GR_O_TEAM_LEVEL = 710       # 2 x 13 one-hot: the observer's team's level, the other's
    GR_O_DECLARER = 736         # 2: the hand is played at the observer's / the other's level
    GR_O_PHASE = 738            # 3 one-hot: tribute, return, play
    GR_O_ATTEMPTS = 741         # 2: failed attempts at A, observer's team, the other
    GR_O_TRIBUTE_ROLE = 743     # 4: 1 pays tribute this hand, 2 receives, 0 neither
    GR_OBS = 747
    GR_CARDS = 108              # an action's card vector: 2 x 54
    GR_READING = 4              # kind, rank, size, wilds
    GR_PADDED = 2048            # rows of the padded action form (action ids 0..2047)
    GR_BLOCK = 1024             # tables stepped between Ctrl-C checks
    GR_MAX_THREADS = 64
    GR_MAX_BANKS = 8            # output banks of a GdVecGames (banks=)
    GR_GUARD = 2000             # native steps in one env step before it is called a bug

GR_OBS_SIZE = GR_OBS
GR_CARD_FEATURES = GR_CARDS
GR_READING_FEATURES = GR_READING
GR_PADDED_ACTIONS = GR_PADDED
GR_PHASES = ("tribute", "return", "play", "hand_over", "over")
GR_KIND_TRIBUTE_CODE = GR_KIND_TRIBUTE
GR_KIND_RETURN_CODE = GR_KIND_RETURN
GR_FIELDS = (("hand", 0, 108), ("cards_left", 108, 4), ("played", 112, 432),
             ("pile", 544, 108), ("pile_kind", 652, 11), ("pile_rank", 663, 17),
             ("pile_size", 680, 1), ("pile_owner", 681, 4), ("pile_leader", 685, 4),
             ("to_act", 689, 4), ("place", 693, 4), ("level", 697, 13),
             ("team_levels", 710, 26), ("declarer", 736, 2), ("phase", 738, 3),
             ("attempts", 741, 2), ("tribute_role", 743, 4))


class GdActionError(ValueError):
    """An action id outside the legal actions (GdTable.step, GdVecGames.step); nothing was
    changed. The message names the action and the legal count."""




cdef struct GCfg:
    int flags
    int double_down
    int tribute_wild
    int return_max
    int fail_limit
    int max_hands


cdef struct GTab:
    GState s                    # the play phase; during tribute, the hands and the turn
    Rng rng                    # the table's own draws (random policy, next match seeds)
    uint64_t seed               # the match seed
    uint64_t pl_once[4]         # what each seat played this hand
    uint64_t pl_twice[4]
    int32_t hand_index          # hands settled in this match
    int8_t phase
    int8_t leader               # who led the current trick, -1 with an empty pile
    int8_t levels[2]            # team 0 (seats 0, 2) and team 1
    int8_t failed[2]
    int8_t declarer             # the team whose level this hand is at, -1 in a first hand
    int8_t prev[4]              # the previous hand's places, first out first
    int8_t ntrib                # tributes this hand (0, 1 or 2)
    int8_t tpayer[2]
    int8_t trecv[2]             # -1 until every tribute is given
    int8_t tcard[2]             # -1 until given
    int8_t tret[2]              # -1 until returned
    int8_t play_leader          # who leads the play phase once tribute is settled
    int8_t anti                 # G6.6: tribute refused this hand
    int8_t winner               # team that won the match, -1
    # The last settled hand: places, winning team, gain, whether it won the match.
    int8_t last_places[4]
    int8_t last_win
    int8_t last_gain
    int8_t last_match
    # Legal actions of the seat to act: plays (masks, codes) in the core's order, or the
    # faces of tribute / return candidates (masks[2i] = 1 << face, codes[i] = 0).
    int64_t nmoves
    int64_t cap
    uint64_t* masks
    uint32_t* codes
    # A learner seat's plays counted but not listed (a vectorised env with action masks,
    # gr_count_plays): the count of each of gen_plays' groups; gr_listed lists them when a
    # caller needs the list, gr_apply_nth takes play i without it.
    int8_t unlisted
    int64_t gcnt[GEN_GROUPS]


cdef inline uint64_t gr_mix(uint64_t seed, uint64_t salt) noexcept nogil:
    """tienlen.guandan.game._mix: splitmix64's output from seed + salt * golden gamma."""
    cdef uint64_t x = seed + (salt - 1) * <uint64_t>0x9E3779B97F4A7C15ULL
    return splitmix64(&x)


cdef inline int gr_draw_seat(uint64_t seed) noexcept nogil:
    """tienlen.guandan.game._draw_seat."""
    cdef uint64_t x = seed
    return <int>(splitmix64(&x) >> 62)


cdef inline int gr_count(uint64_t once, uint64_t twice) noexcept nogil:
    return GD_POPCOUNT(once) + GD_POPCOUNT(twice)


cdef inline void gr_add(uint64_t* once, uint64_t* twice, uint64_t a, uint64_t b) noexcept nogil:
    """Multiset sum (the caller knows no type ends up with three copies)."""
    twice[0] |= b | (once[0] & a)
    once[0] |= a


cdef inline void gr_sub1(uint64_t* once, uint64_t* twice, int face) noexcept nogil:
    cdef uint64_t bit = (<uint64_t>1) << face
    if twice[0] & bit:
        twice[0] &= ~bit
    else:
        once[0] &= ~bit


cdef inline void gr_add1(uint64_t* once, uint64_t* twice, int face) noexcept nogil:
    cdef uint64_t bit = (<uint64_t>1) << face
    if once[0] & bit:
        twice[0] |= bit
    else:
        once[0] |= bit


cdef inline int gr_reserve(GTab* t, int64_t n) noexcept nogil:
    cdef uint64_t* m
    cdef uint32_t* c
    cdef int64_t cap
    if n <= t.cap:
        return 0
    cap = t.cap * 2 if t.cap * 2 >= n else n
    if cap < 64:
        cap = 64
    m = <uint64_t*>realloc(t.masks, cap * 2 * sizeof(uint64_t))
    if m == NULL:
        return -1
    t.masks = m
    c = <uint32_t*>realloc(t.codes, cap * sizeof(uint32_t))
    if c == NULL:
        return -1
    t.codes = c
    t.cap = cap
    return 0


cdef inline int gr_turn(const GTab* t) noexcept nogil:
    """The seat to act, -1 when none (between hands, or the match over)."""
    cdef int i
    if t.phase == GR_TRIBUTE:
        for i in range(t.ntrib):
            if t.tcard[i] < 0:
                return t.tpayer[i]
        return -1
    if t.phase == GR_RETURN:
        for i in range(t.ntrib):
            if t.tret[i] < 0:
                return t.trecv[i]
        return -1
    if t.phase == GR_PLAY:
        return t.s.turn
    return -1


cdef int gr_refresh(GTab* t, const GCfg* cfg) noexcept nogil:
    """List the legal actions of the seat to act into t.masks / t.codes. 0, -1 on
    allocation failure."""
    cdef Out o
    cdef GHand h
    cdef int seat = gr_turn(t)
    cdef uint64_t m
    t.nmoves = 0
    t.unlisted = 0
    if seat < 0:
        return 0
    if t.phase == GR_PLAY:
        gs_ghand(&t.s, &h)
        if t.cap < 64 and gr_reserve(t, 64) < 0:
            return -1
        o.masks = t.masks
        o.codes = t.codes
        o.n = 0
        o.cap = t.cap
        o.overflow = 0
        gen_plays(&h, t.s.pile_code, &o)
        if o.overflow:
            o.masks = NULL
            o.n = 0
            o.cap = 0
            o.overflow = 0
            gen_plays(&h, t.s.pile_code, &o)
            if gr_reserve(t, o.n) < 0:
                return -1
            o.masks = t.masks
            o.codes = t.codes
            o.cap = t.cap
            o.n = 0
            gen_plays(&h, t.s.pile_code, &o)
        t.nmoves = o.n
        return 0
    if gr_reserve(t, 54) < 0:
        return -1
    if t.phase == GR_TRIBUTE:
        m = gm_tribute_faces(t.s.once[seat], t.s.level, cfg.flags, cfg.tribute_wild)
    else:
        m = gm_return_faces(t.s.once[seat], t.s.level, cfg.return_max)
    while m:
        t.masks[2 * t.nmoves] = m & (~m + 1)
        t.masks[2 * t.nmoves + 1] = 0
        t.codes[t.nmoves] = 0
        t.nmoves += 1
        m &= m - 1
    return 0


cdef void gr_count_plays(GTab* t) noexcept nogil:
    """In the play phase: count the legal plays of the seat to act, group by group, without
    listing them (t.unlisted; gr_listed lists them, gr_apply_nth takes one)."""
    cdef GHand h
    cdef Out o
    cdef int g
    gs_ghand(&t.s, &h)
    o.masks = NULL
    o.codes = NULL
    o.cap = 0
    o.overflow = 0
    t.nmoves = 0
    for g in range(GEN_GROUPS):
        o.n = 0
        gen_group(&h, t.s.pile_code, &o, g)
        t.gcnt[g] = o.n
        t.nmoves += o.n
    t.unlisted = 1


cdef inline int gr_listed(GTab* t, const GCfg* cfg) noexcept nogil:
    """Make t's legal list whole if it was only counted. 0, -1 on allocation failure."""
    if t.unlisted:
        return gr_refresh(t, cfg)
    return 0


cdef int gr_play_nth(GTab* t, int64_t i, uint64_t* act) noexcept nogil:
    """Play i (0-based: action id i + 1) of a counted, unlisted play phase, as the list has
    it: act = (once, twice, code). A set is found without a list (gen_sets_nth); any other
    group is listed alone. 0, -1 on allocation failure."""
    cdef GHand h
    cdef Out o
    cdef int g = 0
    gs_ghand(&t.s, &h)
    while i >= t.gcnt[g]:
        i -= t.gcnt[g]
        g += 1
    if g <= 2:
        gen_sets_nth(&h, t.s.pile_code, K_SINGLE + g, 1 + g, i, act)
        return 0
    if gr_reserve(t, t.gcnt[g]) < 0:
        return -1
    o.masks = t.masks
    o.codes = t.codes
    o.cap = t.cap
    o.n = 0
    o.overflow = 0
    gen_group(&h, t.s.pile_code, &o, g)
    act[0] = t.masks[2 * i]
    act[1] = t.masks[2 * i + 1]
    act[2] = t.codes[i]
    return 0


cdef void gr_start_play(GTab* t, int leader) noexcept nogil:
    cdef int p
    t.phase = GR_PLAY
    t.play_leader = leader
    t.s.turn = leader
    t.s.pile_once = 0
    t.s.pile_twice = 0
    t.s.pile_code = 0
    t.s.owner = -1
    t.s.passes = 0
    t.s.nfinished = 0
    for p in range(4):
        t.s.order[p] = -1


cdef void gr_start_hand(GTab* t, const GCfg* cfg) noexcept nogil:
    """Deal hand t.hand_index of the match and set up its tribute (G6) or its lead."""
    cdef uint64_t hands[8]
    cdef int p, i, anti = 0
    cdef int big[4]
    cdef int8_t payers[2]
    g_deal(gr_mix(t.seed, 1000 + <uint64_t>t.hand_index), hands)
    for p in range(4):
        t.s.once[p] = hands[2 * p]
        t.s.twice[p] = hands[2 * p + 1]
        t.pl_once[p] = 0
        t.pl_twice[p] = 0
    t.s.flags = cfg.flags
    t.s.team0 = 0b0101
    t.s.level = 2 if t.hand_index == 0 else t.levels[t.declarer]
    t.leader = -1
    t.ntrib = 0
    t.anti = 0
    for i in range(2):
        t.tpayer[i] = -1
        t.trecv[i] = -1
        t.tcard[i] = -1
        t.tret[i] = -1
    if t.hand_index == 0:
        gr_start_play(t, gr_draw_seat(gr_mix(t.seed, 3)))
        return
    for p in range(4):
        big[p] = ((t.s.once[p] >> BJ_ID) & 1) + ((t.s.twice[p] >> BJ_ID) & 1)
    t.ntrib = gm_tribute_payers(t.prev, t.s.team0, big, payers, &anti)
    if anti:
        t.anti = 1
        gr_start_play(t, t.prev[0])
        return
    for i in range(t.ntrib):
        t.tpayer[i] = payers[i]
    t.phase = GR_TRIBUTE
    t.s.turn = payers[0]
    t.s.owner = -1
    t.s.pile_once = 0
    t.s.pile_twice = 0
    t.s.pile_code = 0
    t.s.passes = 0
    t.s.nfinished = 0


cdef void gr_new_match(GTab* t, uint64_t seed, const GCfg* cfg) noexcept nogil:
    t.seed = seed
    t.hand_index = 0
    t.levels[0] = 2
    t.levels[1] = 2
    t.failed[0] = 0
    t.failed[1] = 0
    t.declarer = -1
    t.winner = -1
    t.last_win = -1
    t.last_gain = 0
    t.last_match = 0
    gr_start_hand(t, cfg)


cdef void gr_settle(GTab* t, const GCfg* cfg) noexcept nogil:
    """The hand is over: places (G5.8) and levels (G7, as tienlen.guandan.match.settle);
    phase GR_HAND_OVER (gr_next_hand deals on), or GR_OVER once the match is won or capped."""
    cdef int i, n = t.s.nfinished, last, k, s, win = 0, gain = 0, won = 0, d = t.declarer
    cdef int lv[2]
    cdef int fa[2]
    for i in range(n):
        t.last_places[i] = t.s.order[i]
    last = t.s.order[n - 1]
    k = n
    for i in range(1, 4):
        s = (last + i) & 3
        if t.s.once[s]:
            t.last_places[k] = s
            k += 1
    lv[0] = t.levels[0]
    lv[1] = t.levels[1]
    fa[0] = t.failed[0]
    fa[1] = t.failed[1]
    gm_settle(lv, fa, d, t.last_places, t.s.team0, cfg.double_down, cfg.fail_limit,
              &win, &gain, &won)
    t.levels[0] = lv[0]
    t.levels[1] = lv[1]
    t.failed[0] = <int8_t>(fa[0] if fa[0] < 127 else 127)
    t.failed[1] = <int8_t>(fa[1] if fa[1] < 127 else 127)
    t.last_win = win
    t.last_gain = gain
    t.last_match = won
    t.hand_index += 1
    t.leader = -1
    if won:
        t.winner = win
        t.phase = GR_OVER
        return
    if t.hand_index >= cfg.max_hands:
        t.phase = GR_OVER
        return
    t.phase = GR_HAND_OVER
    t.declarer = win
    for i in range(4):
        t.prev[i] = t.last_places[i]


cdef inline void gr_next_hand(GTab* t, const GCfg* cfg) noexcept nogil:
    """After GR_HAND_OVER: deal the match's next hand."""
    if t.phase == GR_HAND_OVER:
        gr_start_hand(t, cfg)


cdef void gr_give(GTab* t, int face) noexcept nogil:
    """A tribute card (trusted legal) from the payer to act; once all are given, deliver
    them (G6.5): the higher to the first out, equal ones in turn order."""
    cdef int i, seat = gr_turn(t), a, b
    for i in range(t.ntrib):
        if t.tpayer[i] == seat and t.tcard[i] < 0:
            break
    gr_sub1(&t.s.once[seat], &t.s.twice[seat], face)
    t.tcard[i] = face
    for i in range(t.ntrib):
        if t.tcard[i] < 0:
            t.s.turn = t.tpayer[i]
            return
    if t.ntrib == 1:
        t.trecv[0] = t.prev[0]
    else:
        if gm_tribute_swap(t.tcard[0], t.tcard[1], t.s.level):
            a = t.tpayer[0]
            t.tpayer[0] = t.tpayer[1]
            t.tpayer[1] = a
            b = t.tcard[0]
            t.tcard[0] = t.tcard[1]
            t.tcard[1] = b
        t.trecv[0] = t.prev[0]
        t.trecv[1] = t.prev[1]
    for i in range(t.ntrib):
        gr_add1(&t.s.once[t.trecv[i]], &t.s.twice[t.trecv[i]], t.tcard[i])
    t.play_leader = t.tpayer[0]       # G6.7
    t.phase = GR_RETURN
    t.s.turn = t.trecv[0]


cdef void gr_return(GTab* t, int face) noexcept nogil:
    cdef int i, seat = gr_turn(t)
    for i in range(t.ntrib):
        if t.trecv[i] == seat and t.tret[i] < 0:
            break
    gr_sub1(&t.s.once[seat], &t.s.twice[seat], face)
    gr_add1(&t.s.once[t.tpayer[i]], &t.s.twice[t.tpayer[i]], face)
    t.tret[i] = face
    for i in range(t.ntrib):
        if t.tret[i] < 0:
            t.s.turn = t.trecv[i]
            return
    gr_start_play(t, t.play_leader)



cdef inline void gr_record(GTab* t, int seat, uint64_t a, uint64_t b, bint lead) noexcept nogil:
    gr_add(&t.pl_once[seat], &t.pl_twice[seat], a, b)
    if lead:
        t.leader = seat


cdef int gr_apply(GTab* t, int64_t a, const GCfg* cfg) noexcept nogil:
    """Apply legal action id `a` (trusted) for the seat to act; settles a finished hand.
    Returns 1 if a hand ended, else 0 (the legal list is NOT refreshed)."""
    if t.phase == GR_TRIBUTE:
        gr_give(t, GD_CTZ(t.masks[2 * (a - 1)]))
        return 0
    if t.phase == GR_RETURN:
        gr_return(t, GD_CTZ(t.masks[2 * (a - 1)]))
        return 0
    if a == 0:
        gs_pass(&t.s)
        if t.s.owner < 0:
            t.leader = -1
        return 0
    return gr_apply_play(t, t.masks[2 * (a - 1)], t.masks[2 * (a - 1) + 1], t.codes[a - 1], cfg)


cdef int gr_apply_play(GTab* t, uint64_t ma, uint64_t mb, uint32_t code, const GCfg* cfg) noexcept nogil:
    """gr_apply for a play given by its cards and code (trusted legal) in the play phase."""
    cdef int seat = t.s.turn
    cdef bint lead = t.s.pile_code == 0
    gs_play(&t.s, ma, mb, code)
    gr_record(t, seat, ma, mb, lead)
    if t.s.turn < 0:
        gr_settle(t, cfg)
        return 1
    return 0


cdef int gr_native_play(GTab* t, int policy, uint64_t* act) noexcept nogil:
    """The play-phase choice of native `policy`, found without listing the seat's plays:
    act = (once, twice, code), all 0 for a pass. It is gr_policy_pick's choice: RANDOM makes
    the same draw (uniform over the ids, pass included where allowed) and takes the same
    play, by counting gen_plays' groups and listing only the group that holds the pick (a
    set is found without a list: gen_sets_nth; the list is left stale: t.nmoves = 0); GREEDY and PLAN take their policy's play. 0; 1 when
    the caller must list and use gr_policy_pick instead (a policy's pass on a lead); -1 on
    allocation failure."""
    cdef GHand h
    cdef Out o
    cdef PlanView v
    cdef Plan P, tmp
    cdef int64_t cnt[GEN_GROUPS]
    cdef int64_t total = 0, i
    cdef int g
    cdef int can_pass = t.s.pile_code != 0
    if policy != GS_RANDOM:
        if policy == GS_PLAN:
            plan_view_of(&t.s, &v)
            if plan_decide(&v, &P, &tmp, act) < 0:
                return -1
        elif gr_greedy(t, act) < 0:
            return -1
        return 1 if act[0] == 0 and not can_pass else 0
    gs_ghand(&t.s, &h)
    o.masks = NULL
    o.codes = NULL
    o.cap = 0
    o.overflow = 0
    for g in range(GEN_GROUPS):
        o.n = 0
        gen_group(&h, t.s.pile_code, &o, g)
        cnt[g] = o.n
        total += o.n
    i = <int64_t>rng_below(&t.rng, <uint32_t>(total + can_pass))
    act[0] = act[1] = act[2] = 0
    t.nmoves = 0
    if i >= total:
        return 0
    g = 0
    while i >= cnt[g]:
        i -= cnt[g]
        g += 1
    if g <= 2:                          # singles, pairs, triples: found without a list
        gen_sets_nth(&h, t.s.pile_code, K_SINGLE + g, 1 + g, i, act)
        return 0
    if gr_reserve(t, cnt[g]) < 0:
        return -1
    o.masks = t.masks
    o.codes = t.codes
    o.cap = t.cap
    o.n = 0
    gen_group(&h, t.s.pile_code, &o, g)
    act[0] = t.masks[2 * i]
    act[1] = t.masks[2 * i + 1]
    act[2] = t.codes[i]
    return 0


cdef int gr_policy_pick(GTab* t, int policy, int64_t* pick) noexcept nogil:
    """The action id a native policy takes now (the legal list is fresh). RANDOM: uniform
    over the legal ids (pass included where allowed); GREEDY and PLAN: the core's playout
    policies in the play phase, and in tribute / return the first candidate (tribute) or the
    lowest-valued one (return). 0, or -1 on allocation failure."""
    cdef PlanView v
    cdef Plan P, tmp
    cdef uint64_t act[3]
    cdef int64_t i, n = t.nmoves, best
    cdef int can_pass = t.phase == GR_PLAY and t.s.pile_code != 0
    cdef int bv, val
    if policy == GS_RANDOM:
        i = <int64_t>rng_below(&t.rng, <uint32_t>(n + can_pass))
        pick[0] = i + 1 if i < n else 0
        return 0
    if t.phase != GR_PLAY:
        best = 0
        if t.phase == GR_RETURN:
            bv = 99
            for i in range(n):
                val = gm_face_value(GD_CTZ(t.masks[2 * i]), t.s.level)
                if val < bv:
                    bv = val
                    best = i
        pick[0] = best + 1
        return 0
    if policy == GS_PLAN:
        plan_view_of(&t.s, &v)
        if plan_decide(&v, &P, &tmp, act) < 0:
            return -1
    else:
        if gr_greedy(t, act) < 0:
            return -1
    if act[0] == 0:
        pick[0] = 0 if can_pass else 1
        return 0
    for i in range(n):
        if t.masks[2 * i] == act[0] and t.masks[2 * i + 1] == act[1] and t.codes[i] == act[2]:
            pick[0] = i + 1
            return 0
    pick[0] = 1                      # (the policy's play is always in the list)
    return 0


cdef int gr_greedy(GTab* t, uint64_t* act) noexcept nogil:
    """The GREEDY playout policy's choice (gs_step's), on a copy of the state."""
    cdef GState c = t.s
    cdef Rng r = t.rng
    cdef int64_t dec = 0
    return gs_step(&c, &r, GS_GREEDY, &dec, act)


include "observe.pxi"
include "masks.pxi"




cdef int _gr_cfg(GCfg* c, object flags, object double_down, object tribute_wild,
                 object return_max, object fail_limit, object max_hands) except -1:
    c.flags = _flags_arg(flags)
    c.double_down = <int>_int_arg(double_down, "double_down_levels", 1, 12)
    c.tribute_wild = <int>_int_arg(tribute_wild, "can_tribute_wild", 0, 1)
    c.return_max = <int>_int_arg(return_max, "tribute_return_max_rank", 2, 14)
    c.fail_limit = <int>_int_arg(fail_limit, "failed_attempts_limit", 0, 1 << 20)
    c.max_hands = <int>_int_arg(max_hands, "max_hands", 1, 1 << 30)
    return 0



# ---------------------------------------------------------------- one table

cdef class GdTable:
    """One Guandan match for the RL envs: the hands, tribute and return, the play phase and
    the levels, with the one encoder. Actions are ids: 0 passes (play phase, on a pile),
    ``a`` in 1..num_legal takes ``legal_actions()[a - 1]`` (a play, or in tribute / return
    the card type given). A match is ``tienlen.guandan.Match(seed)`` with fixed teams.

    >>> t = GdTable(seed=5)
    >>> t.phase, t.turn, t.level, t.levels, t.num_legal > 100
    ('play', 1, 2, (2, 2), True)
    >>> obs = t.observe(t.turn)
    >>> obs.shape, int(obs[:108].sum()), int(obs[108:112].sum())        # 27 cards each
    ((747,), 27, 108)
    >>> ids, cards, reading = t.action_features()
    >>> len(ids) == t.num_legal, int(ids[0]), reading[0].tolist()       # a lead: no pass
    (True, 1, [1, 2, 1, 0])
    """
    cdef GTab t
    cdef GCfg cfg

    def __cinit__(self):
        # GdTable.__new__(GdTable) must be safe to use: a match that is over, at level 2.
        memset(&self.t, 0, sizeof(GTab))
        self.t.phase = GR_OVER
        self.t.s.level = 2
        self.t.s.team0 = 0b0101
        self.t.s.turn = -1
        self.t.s.owner = -1
        self.t.levels[0] = 2
        self.t.levels[1] = 2
        self.t.declarer = -1
        self.t.winner = -1
        self.t.leader = -1

    def __init__(self, seed=0, flags=0, double_down_levels=3, can_tribute_wild=False,
                 tribute_return_max_rank=10, failed_attempts_limit=3, max_hands=10000):
        cdef GCfg c
        _gr_cfg(&c, flags, double_down_levels, int(bool(can_tribute_wild)),
                tribute_return_max_rank, failed_attempts_limit, max_hands)
        self.cfg = c
        self.reset(seed)

    def __dealloc__(self):
        free(self.t.masks)
        free(self.t.codes)

    def reset(self, seed):
        """A new match from `seed` (tienlen.guandan.Match(seed)'s deals and first lead); the
        random policy's draws are seeded from it too."""
        cdef uint64_t s = _seed_arg(seed)
        if self.cfg.max_hands < 1:
            raise ValueError("this GdTable was never initialised")
        rng_seed(&self.t.rng, s ^ 0x5DEECE66DULL)
        gr_new_match(&self.t, s, &self.cfg)
        if gr_refresh(&self.t, &self.cfg) < 0:
            raise MemoryError("no room for the legal actions")

    def next_hand(self):
        """After a hand ended (phase "hand_over"): deal the match's next hand."""
        if self.t.phase != GR_HAND_OVER:
            raise ValueError(f"next_hand() is for a settled hand; the phase is {GR_PHASES[self.t.phase]!r}")
        gr_next_hand(&self.t, &self.cfg)
        if gr_refresh(&self.t, &self.cfg) < 0:
            raise MemoryError("no room for the legal actions")

    # ------------------------------------------------------------ state

    @property
    def seed(self):
        return self.t.seed

    @property
    def phase(self):
        """"tribute", "return", "play", "hand_over" (settled, see next_hand) or "over"."""
        return GR_PHASES[self.t.phase]

    @property
    def turn(self):
        """The seat to act, -1 when none."""
        return gr_turn(&self.t)

    @property
    def level(self):
        return self.t.s.level

    @property
    def levels(self):
        """Each team's level: (seats 0 and 2, seats 1 and 3)."""
        return (self.t.levels[0], self.t.levels[1])

    @property
    def failed_attempts(self):
        return (self.t.failed[0], self.t.failed[1])

    @property
    def declarer(self):
        """The team whose level this hand is played at, -1 in a match's first hand."""
        return self.t.declarer

    @property
    def hand_index(self):
        """Hands settled so far in this match."""
        return self.t.hand_index

    @property
    def winner(self):
        """The team that won the match, -1."""
        return self.t.winner

    @property
    def is_over(self):
        """Whether the match is over (won, or capped at max_hands)."""
        return self.t.phase == GR_OVER

    @property
    def anti_tribute(self):
        return bool(self.t.anti)

    @property
    def tributes(self):
        """(payer, receiver, card, returned) per tribute of this hand, -1 where not yet known."""
        return tuple((self.t.tpayer[i], self.t.trecv[i], self.t.tcard[i], self.t.tret[i])
                     for i in range(self.t.ntrib))

    @property
    def hands(self):
        return tuple((self.t.s.once[p], self.t.s.twice[p]) for p in range(4))

    @property
    def played(self):
        """What each seat played this hand, as (once, twice) masks."""
        return tuple((self.t.pl_once[p], self.t.pl_twice[p]) for p in range(4))

    @property
    def pile(self):
        if self.t.phase < GR_PLAY:
            return (0, 0)
        return (self.t.s.pile_once, self.t.s.pile_twice)

    @property
    def pile_code(self):
        return self.t.s.pile_code if self.t.phase >= GR_PLAY else 0

    @property
    def pile_owner(self):
        return self.t.s.owner if self.t.phase >= GR_PLAY else -1

    @property
    def trick_leader(self):
        """Who led the current trick, -1 with an empty pile."""
        return self.t.leader

    @property
    def finished(self):
        if self.t.phase < GR_PLAY:
            return ()
        return tuple(self.t.s.order[i] for i in range(self.t.s.nfinished))

    @property
    def last_hand(self):
        """(places, winning team, level gain, match won) of the last settled hand, or None."""
        if self.t.hand_index == 0:
            return None
        return (tuple(self.t.last_places[i] for i in range(4)), self.t.last_win,
                self.t.last_gain, bool(self.t.last_match))

    @property
    def num_legal(self):
        """Listed actions (ids 1..num_legal); id 0 passes where can_pass."""
        return self.t.nmoves

    @property
    def can_pass(self):
        return gr_legal(&self.t, 0)

    def legal_actions(self):
        """(masks (n, 2) uint64, codes (n,) uint32): the listed actions in id order (id a
        is row a - 1). Plays as the core lists them; a tribute or return card as its one
        card type with code 0."""
        cdef int64_t n = self.t.nmoves
        masks = np.empty((n, 2), np.uint64)
        codes = np.empty(n, np.uint32)
        cdef uint64_t[:, ::1] mv = masks
        cdef uint32_t[::1] cv = codes
        if n:
            memcpy(&mv[0, 0], self.t.masks, n * 2 * sizeof(uint64_t))
            memcpy(&cv[0], self.t.codes, n * sizeof(uint32_t))
        return masks, codes

    def is_legal(self, action):
        try:
            a = _as_int(action)
        except TypeError:
            return False
        return -1 < a < (1 << 62) and gr_legal(&self.t, a)

    cdef int64_t _action(self, object action) except -1:
        cdef int64_t a
        try:
            a = _as_int(action)
        except (TypeError, OverflowError):
            raise GdActionError(f"an action is an int id; got {_quote(action)}") from None
        if not (-1 < a < (1 << 62) and gr_legal(&self.t, a)):
            raise GdActionError(f"action {_quote(action)} is not legal here: {_gr_legal_text(&self.t)}")
        return a

    def step(self, action):
        """Take action id `action` for the seat to act. Returns True when it ended the hand
        (then the phase is "hand_over", or "over" at the match's end). An illegal id raises
        GdActionError and changes nothing."""
        cdef int64_t a = self._action(action)
        cdef int ended = gr_apply(&self.t, a, &self.cfg)
        if gr_refresh(&self.t, &self.cfg) < 0:
            raise MemoryError("no room for the legal actions")
        return bool(ended)

    def policy_action(self, policy):
        """The action id native `policy` (RANDOM, GREEDY, PLAN) takes now; RANDOM draws from
        this table's own stream."""
        cdef int pol = _gs_policy_arg(policy)
        cdef int64_t pick = 0
        if gr_turn(&self.t) < 0:
            raise ValueError("no seat is to act")
        if gr_policy_pick(&self.t, pol, &pick) < 0:
            raise MemoryError("no room for a move list")
        return pick

    # ------------------------------------------------------------ the encoder

    def observe(self, seat, out=None):
        """The uint8 observation (GR_OBS_SIZE,) of `seat` (docs/rl.md), into `out` if given."""
        cdef int s = <int>_int_arg(seat, "seat", 0, 3)
        # Held through arrays.pxi (after seat's __index__ has run): its real shape, dtype,
        # contiguity and writability come from the buffer, which stays held while we write.
        cdef HeldBuffer o = array_out(out, "out", cnp.NPY_UINT8, GR_OBS)
        gr_encode(&self.t, s, <uint8_t*>o.data)
        o.release()
        return o.array

    def action_features(self):
        """The variable legal-action list: (ids int64 (m,), cards uint8 (m, 108), reading
        uint8 (m, 4)): pass first (id 0) where allowed, then ids 1..num_legal; `cards` the
        card types used once, then twice; `reading` kind (0 pass, 1..10 play kinds, 11
        tribute, 12 return), rank, size, wild cards used."""
        return _gr_features_arrays(&self.t)

    def action_mask(self):
        """The padded int8 action mask (GR_PADDED_ACTIONS,): [pass allowed, 1 for ids
        1..num_legal up to GR_PADDED_ACTIONS - 1, 0 ...]; all 0 when no seat is to act."""
        cdef cnp.npy_intp k = GR_PADDED
        cdef int32_t limit = 0
        mask = cnp.PyArray_ZEROS(1, &k, cnp.NPY_INT8, 0)
        gr_mask_update(&self.t, <int8_t*>cnp.PyArray_DATA(mask), &limit)
        return mask

    def padded_action_features(self, max_actions=GR_PADDED):
        """The fixed-size form: (mask int8 (k,), cards uint8 (k, 108), reading uint8 (k, 4)),
        row a for action id a (k = max_actions). Ids past k - 1 are not in it (num_legal
        says how many there are)."""
        cdef int64_t k = _int_arg(max_actions, "max_actions", 1, 1 << 20)
        mask = np.empty(k, np.int8)
        cards = np.empty((k, GR_CARDS), np.uint8)
        reading = np.empty((k, GR_READING), np.uint8)
        cdef int8_t[::1] mv = mask
        cdef uint8_t[:, ::1] cv = cards
        cdef uint8_t[:, ::1] rv = reading
        gr_padded(&self.t, k, &mv[0], &cv[0, 0], &rv[0, 0])
        return mask, cards, reading

    # ------------------------------------------------------------ copies

    def copy(self):
        cdef GdTable c = GdTable.__new__(GdTable)
        c.cfg = self.cfg
        c.t = self.t
        c.t.masks = NULL
        c.t.codes = NULL
        c.t.cap = 0
        if gr_reserve(&c.t, self.t.nmoves if self.t.nmoves > 64 else 64) < 0:
            raise MemoryError("no room for the legal actions")
        if self.t.nmoves:
            memcpy(c.t.masks, self.t.masks, self.t.nmoves * 2 * sizeof(uint64_t))
            memcpy(c.t.codes, self.t.codes, self.t.nmoves * sizeof(uint32_t))
        return c

    __copy__ = copy

    def __deepcopy__(self, memo):
        return self.copy()

    def __reduce__(self):
        raise TypeError("GdTable holds native state and cannot be pickled")


# ---------------------------------------------------------------- the vectorised env

cdef struct GVCore:
    GTab* games
    Py_ssize_t n
    GCfg cfg
    int learner[4]              # 1 where the seat is the learner's
    int policy[4]               # native policy of the other seats
    int episode_match           # 0: an episode is a hand; 1: a match
    float w_hand, w_gain, w_match
    uint8_t* p_obs
    int32_t* p_nlegal
    uint8_t* p_can_pass
    int8_t* p_seat
    int8_t* p_phase
    float* p_reward
    uint8_t* p_term
    uint8_t* p_trunc
    uint8_t* p_err
    float* p_final
    int8_t* p_places
    int64_t* p_episodes
    uint8_t* p_final_obs
    int64_t* p_act
    int8_t* p_mask              # (N, GR_PADDED) action masks; NULL unless action_mask=True
    int lazy                    # learner seats' plays counted, listed only when needed
    int32_t* limits             # per env: what its mask row holds (gr_mask_update)


cdef struct GVRange:
    GVCore* c
    Py_ssize_t lo, hi
    int failed


cdef inline float gv_seat_reward(const GVCore* c, const GTab* t, int seat) noexcept nogil:
    cdef float sign = 1.0 if (seat & 1) == t.last_win else -1.0
    return sign * (c.w_hand + c.w_gain * t.last_gain + (c.w_match if t.last_match else 0.0))


cdef int gv_natives(GVCore* c, Py_ssize_t i, float* acc, int* ended, int listed) noexcept nogil:
    """Native seats act until a learner seat is to act or the episode ends. Hand results
    on the way add into acc[seat]; ended: 1 when the episode ended (hand mode: a hand; match
    mode: the match). `listed`: whether t's legal list is the seat to act's; native seats
    in the play phase choose without one (gr_native_play), and the list is made fresh for
    the learner seat this returns at. 0, or -1 on allocation failure / a runaway loop."""
    cdef GTab* t = &c.games[i]
    cdef int seat, p, r, guard = 0, hand_ended
    cdef int64_t pick
    cdef uint64_t act[3]
    while True:
        seat = gr_turn(t)
        if seat < 0:
            if t.phase == GR_HAND_OVER and not ended[0]:
                gr_next_hand(t, &c.cfg)
                listed = 0
                continue
            return 0
        if c.learner[seat]:
            if listed:
                return 0
            if c.lazy and t.phase == GR_PLAY:
                gr_count_plays(t)
            elif gr_refresh(t, &c.cfg) < 0:
                return -1
            return 0
        r = 1
        if t.phase == GR_PLAY:
            r = gr_native_play(t, c.policy[seat], act)
            if r < 0:
                return -1
        if r == 0:
            if act[0] == 0:
                hand_ended = gr_apply(t, 0, &c.cfg)
            else:
                hand_ended = gr_apply_play(t, act[0], act[1], <uint32_t>act[2], &c.cfg)
        else:
            if not listed and gr_refresh(t, &c.cfg) < 0:
                return -1
            if gr_policy_pick(t, c.policy[seat], &pick) < 0:
                return -1
            hand_ended = gr_apply(t, pick, &c.cfg)
        listed = 0
        if hand_ended:
            for p in range(4):
                acc[p] += gv_seat_reward(c, t, p)
            if not c.episode_match or t.phase == GR_OVER:
                ended[0] = 1
                return 0
        guard += 1
        if guard > 20000:
            return -1


cdef void gv_write(GVCore* c, Py_ssize_t i) noexcept nogil:
    cdef GTab* t = &c.games[i]
    cdef int seat = gr_turn(t)
    c.p_seat[i] = seat
    c.p_phase[i] = t.phase
    c.p_nlegal[i] = <int32_t>t.nmoves
    c.p_can_pass[i] = gr_legal(t, 0)
    gr_encode(t, seat if seat >= 0 else 0, c.p_obs + i * GR_OBS)
    if c.p_mask != NULL:
        gr_mask_update(t, c.p_mask + i * GR_PADDED, &c.limits[i])


cdef int gv_new_episode(GVCore* c, Py_ssize_t i, int fresh_match) noexcept nogil:
    """Start the table's next episode (a new match when `fresh_match` or the match is over,
    else the match's next hand), play the native seats up to a learner's decision."""
    cdef GTab* t = &c.games[i]
    cdef float acc[4]
    cdef int ended = 0, p, guard = 0
    while True:
        if fresh_match or t.phase == GR_OVER:
            gr_new_match(t, rng_next(&t.rng), &c.cfg)
        else:
            gr_next_hand(t, &c.cfg)
        fresh_match = 0
        for p in range(4):
            acc[p] = 0
        ended = 0
        if gv_natives(c, i, acc, &ended, 0) < 0:
            return -1
        if not ended:
            break
        # (A learner seat always holds cards at a deal, so natives alone cannot end an
        # episode before its first decision; this only guards the loop.)
        guard += 1
        if guard > 100:
            return -1
    gv_write(c, i)
    return 0


cdef int gv_step_one(GVCore* c, Py_ssize_t i) noexcept nogil:
    cdef GTab* t = &c.games[i]
    cdef int64_t a = c.p_act[i]
    cdef int seat, p, ended = 0, hand_ended
    cdef uint64_t act[3]
    cdef float acc[4]
    c.p_reward[i] = 0
    c.p_term[i] = 0
    c.p_trunc[i] = 0
    if not gr_legal(t, a):
        c.p_err[i] = 1
        gv_write(c, i)              # (the bank written this step holds the table too)
        return 0
    c.p_err[i] = 0
    seat = gr_turn(t)
    for p in range(4):
        acc[p] = 0
    if t.unlisted and a > 0:
        if gr_play_nth(t, a - 1, act) < 0:
            return -1
        t.unlisted = 0
        hand_ended = gr_apply_play(t, act[0], act[1], <uint32_t>act[2], &c.cfg)
    else:
        t.unlisted = 0
        hand_ended = gr_apply(t, a, &c.cfg)
    if hand_ended:
        for p in range(4):
            acc[p] += gv_seat_reward(c, t, p)
        if not c.episode_match or t.phase == GR_OVER:
            ended = 1
    if not ended:
        if gv_natives(c, i, acc, &ended, 0) < 0:
            return -1
    c.p_reward[i] = acc[seat]
    if not ended:
        gv_write(c, i)
        return 0
    for p in range(4):
        c.p_final[4 * i + p] = acc[p]
        c.p_places[4 * i + t.last_places[p]] = p
    c.p_term[i] = 1
    c.p_trunc[i] = t.phase == GR_OVER and t.winner < 0 and c.episode_match
    if c.p_trunc[i]:
        c.p_term[i] = 0
    if c.p_final_obs != NULL:
        gr_encode(t, seat, c.p_final_obs + i * GR_OBS)
    c.p_episodes[i] += 1
    return gv_new_episode(c, i, 0)


cdef void* gv_run_range(void* arg) noexcept nogil:
    cdef GVRange* r = <GVRange*>arg
    cdef Py_ssize_t j
    for j in range(r.lo, r.hi):
        if gv_step_one(r.c, j) < 0:
            r.failed = 1
    return NULL


cdef class GdVecGames:
    """N Guandan tables stepped in C with the GIL released: the raw array API of the
    vectorised env (docs/rl.md). Each table plays matches (tienlen.guandan.Match with fixed
    teams); the seats in `learner_seats` (default: seat 0) are the caller's, the others play native
    `policies` (one per seat, RANDOM, GREEDY or PLAN; a learner seat's entry is ignored).

    `episode="hand"`: an episode ends with each hand (the match goes on in the next one,
    tribute and levels included; a new match starts once one is over); `"match"`: it ends
    with the match (`truncated` when capped at max_hands). A finished episode's rewards
    are per seat: sign * (w_hand + w_gain * level gain + w_match * match won), sign +1 for
    the winning team, -1 for the other (`reward_weights=(w_hand, w_gain, w_match)`; the
    default (0, 1, 3) rewards the level gain, and 3 for the hand that wins the match, whose
    gain is 0 by G7.3).

    Arrays (rewritten in place, read-only views): `obs` uint8 (N, 747) of the seat to act,
    `seat` int8, `phase` int8 (0 tribute, 1 return, 2 play), `num_legal` int32, `can_pass`
    uint8, `reward` float32 (the reward of the seat that acted), `terminated`, `truncated`
    bool, `error` uint8, `final_rewards` float32 (N, 4) and `places` int8 (N, 4) (0-based
    place per seat) of the hand that ended, `episodes` int64, and with final_obs=True
    `final_obs` uint8 (N, 747): what the acting seat saw when its episode ended, and with
    action_mask=True `action_mask` int8 (N, 2048): the padded mask of the seat to act
    ([pass allowed, 1 for ids 1..num_legal up to 2047, 0 ...], as GdTable.action_mask),
    kept by rewriting only the bytes whose value changed; with it, a learner seat's legal
    plays are counted at its turn and listed only when something needs the list (the step
    takes the chosen play without it). :meth:`legal_features` lists every table's legal
    actions with their features in one call (the variable form).

    `banks` (1..8) keeps that many copies of `obs` and `action_mask` (`obs_banks`,
    `mask_banks`), each rewritten only by a reset or step given its number (`bank=`; every
    row of `obs`, the bytes of a mask row that differ from what that bank held): an env
    hands out a bank's arrays themselves and writes the next step into one nobody holds any
    more. `obs` and `action_mask` are the bank last written (`bank`).

    >>> v = GdVecGames(2, seed=5, action_mask=True, banks=2)
    >>> before = v.action_mask.copy()
    >>> v.step(np.where(v.num_legal > 0, 1, 0).astype(np.int64), bank=1)
    0
    >>> v.bank, v.action_mask is v.mask_banks[1], bool((v.mask_banks[0] == before).all())
    (1, True, True)

    >>> v = GdVecGames(3, learner_seats=(0,), seed=5)
    >>> v.obs.shape, bool((v.seat == 0).all())
    ((3, 747), True)
    >>> first = np.where(v.num_legal > 0, 1, 0).astype(np.int64)   # the first action, else pass
    >>> v.step(first)
    0
    """
    cdef GVCore c
    cdef bint busy
    cdef readonly bint closed
    cdef readonly object seat, phase, num_legal, can_pass, reward, terminated, truncated
    cdef readonly object error, final_rewards, places, episodes, final_obs, actions
    cdef readonly tuple obs_banks, mask_banks
    cdef readonly int bank
    cdef int32_t* bank_limits[GR_MAX_BANKS]

    @property
    def obs(self):
        return self.obs_banks[self.bank]

    @property
    def action_mask(self):
        return self.mask_banks[self.bank]

    def __cinit__(self):
        self.c.games = NULL
        self.c.limits = NULL
        self.c.p_mask = NULL
        self.c.n = 0
        self.closed = True
        self.obs_banks = (None,)
        self.mask_banks = (None,)
        self.bank = 0
        for k in range(GR_MAX_BANKS):
            self.bank_limits[k] = NULL

    def __init__(self, num_envs, learner_seats=None, policies=(0, 0, 0, 0), seed=0,
                 episode="hand", reward_weights=(0.0, 1.0, 3.0), flags=0,
                 double_down_levels=3, can_tribute_wild=False, tribute_return_max_rank=10,
                 failed_attempts_limit=3, max_hands=10000, final_obs=False, action_mask=False,
                 banks=1):
        cdef Py_ssize_t n = _int_arg(num_envs, "num_envs", 1, 1 << 22)
        cdef int nbanks = <int>_int_arg(banks, "banks", 1, GR_MAX_BANKS)
        cdef int p, k
        cdef GCfg cfg
        if self.c.games != NULL:
            raise ValueError("GdVecGames is already initialised")
        _gr_cfg(&cfg, flags, double_down_levels, int(bool(can_tribute_wild)),
                tribute_return_max_rank, failed_attempts_limit, max_hands)
        if learner_seats is None:
            learner_seats = (0,)
        try:
            seats = sorted({int(_int_arg(s, "learner seat", 0, 3)) for s in learner_seats})
            pols = [_gs_policy_arg(x) for x in policies]
            weights = [float(w) for w in reward_weights]
        except TypeError:
            raise ValueError("learner_seats, policies and reward_weights must be sequences") from None
        if not seats:
            raise ValueError("learner_seats must name at least one seat")
        if len(pols) != 4:
            raise ValueError(f"policies must name 4 policies (one per seat); got {len(pols)}")
        if len(weights) != 3 or any(w != w or w in (float("inf"), float("-inf")) for w in weights):
            raise ValueError(f"reward_weights must be 3 finite numbers; got {reward_weights!r}")
        if episode not in ("hand", "match"):
            raise ValueError(f"episode must be 'hand' or 'match'; got {episode!r}")
        self.c.cfg = cfg
        for p in range(4):
            self.c.learner[p] = p in seats
            self.c.policy[p] = pols[p]
        self.c.episode_match = episode == "match"
        self.c.lazy = bool(action_mask)
        self.c.w_hand, self.c.w_gain, self.c.w_match = weights
        self.obs_banks = tuple(np.zeros((n, GR_OBS), np.uint8) for k in range(nbanks))
        self.mask_banks = tuple(np.zeros((n, GR_PADDED), np.int8) if action_mask else None
                                for k in range(nbanks))
        self.bank = 0
        self.seat = np.zeros(n, np.int8)
        self.phase = np.zeros(n, np.int8)
        self.num_legal = np.zeros(n, np.int32)
        self.can_pass = np.zeros(n, np.uint8)
        self.reward = np.zeros(n, np.float32)
        self.terminated = np.zeros(n, np.bool_)
        self.truncated = np.zeros(n, np.bool_)
        self.error = np.zeros(n, np.uint8)
        self.final_rewards = np.zeros((n, 4), np.float32)
        self.places = np.full((n, 4), -1, np.int8)
        self.episodes = np.zeros(n, np.int64)
        self.actions = np.zeros(n, np.int64)
        self.final_obs = np.zeros((n, GR_OBS), np.uint8) if final_obs else None
        self.c.p_seat = <int8_t*>cnp.PyArray_DATA(self.seat)
        self.c.p_phase = <int8_t*>cnp.PyArray_DATA(self.phase)
        self.c.p_nlegal = <int32_t*>cnp.PyArray_DATA(self.num_legal)
        self.c.p_can_pass = <uint8_t*>cnp.PyArray_DATA(self.can_pass)
        self.c.p_reward = <float*>cnp.PyArray_DATA(self.reward)
        self.c.p_term = <uint8_t*>cnp.PyArray_DATA(self.terminated)
        self.c.p_trunc = <uint8_t*>cnp.PyArray_DATA(self.truncated)
        self.c.p_err = <uint8_t*>cnp.PyArray_DATA(self.error)
        self.c.p_final = <float*>cnp.PyArray_DATA(self.final_rewards)
        self.c.p_places = <int8_t*>cnp.PyArray_DATA(self.places)
        self.c.p_episodes = <int64_t*>cnp.PyArray_DATA(self.episodes)
        self.c.p_act = <int64_t*>cnp.PyArray_DATA(self.actions)
        self.c.p_final_obs = <uint8_t*>cnp.PyArray_DATA(self.final_obs) if final_obs else NULL
        for arr in (*self.obs_banks, self.seat, self.phase, self.num_legal, self.can_pass, self.reward,
                    self.terminated, self.truncated, self.error, self.final_rewards,
                    self.places, self.episodes, self.actions):
            arr.flags.writeable = False
        if final_obs:
            self.final_obs.flags.writeable = False
        if action_mask:
            for arr in self.mask_banks:
                arr.flags.writeable = False
        self.c.games = <GTab*>calloc(n, sizeof(GTab))
        for k in range(nbanks):
            self.bank_limits[k] = <int32_t*>calloc(n, sizeof(int32_t))
            if self.bank_limits[k] == NULL:
                self._free()
                raise MemoryError(f"could not allocate {n} tables")
        if self.c.games == NULL:
            self._free()
            raise MemoryError(f"could not allocate {n} tables")
        self.c.n = n
        self._point(0)
        self.closed = False
        try:
            self.reset(seed)
        except BaseException:
            self._free()
            self.closed = True
            raise

    def __dealloc__(self):
        self._free()

    cdef void _free(self) noexcept:
        cdef Py_ssize_t i
        cdef int k
        if self.c.games != NULL:
            for i in range(self.c.n):
                free(self.c.games[i].masks)
                free(self.c.games[i].codes)
            free(self.c.games)
        self.c.games = NULL
        for k in range(GR_MAX_BANKS):
            free(self.bank_limits[k])
            self.bank_limits[k] = NULL
        self.c.limits = NULL

    cdef void _point(self, int k):
        """Make bank k the one the next reset or step writes."""
        self.bank = k
        self.c.p_obs = <uint8_t*>cnp.PyArray_DATA(self.obs_banks[k])
        mask = self.mask_banks[k]
        self.c.p_mask = <int8_t*>cnp.PyArray_DATA(mask) if mask is not None else NULL
        self.c.limits = self.bank_limits[k]

    cdef int _bank_arg(self, object bank) except -2:
        """A reset's or step's `bank`: None (the selected one), or 0..banks - 1."""
        if bank is None:
            return -1
        return <int>_int_arg(bank, "bank", 0, len(self.obs_banks) - 1)

    @property
    def num_envs(self):
        return self.c.n

    @property
    def learner_seats(self):
        return tuple(p for p in range(4) if self.c.learner[p])

    def close(self):
        """Free the tables; idempotent. Later calls raise ValueError."""
        if self.busy:
            raise ValueError("cannot close while a step is running")
        self._free()
        self.closed = True

    cdef int _claim(self) except -1:
        if self.closed or self.c.games == NULL:
            raise ValueError("this GdVecGames is closed")
        if self.busy:
            raise ValueError("another thread is stepping this GdVecGames")
        self.busy = True
        return 0

    def reset(self, seed=0, bank=None):
        """A new match on every table. `seed`: an int (table i's match seed is then
        mix(seed, i)-derived: splitmix64 of seed + i) or a uint64 array of one match seed
        per table (table i then plays tienlen.guandan.Match(seeds[i])). `bank`: the output
        bank to write (None: the last one)."""
        cdef Py_ssize_t i, j, end, n = self.c.n
        cdef uint64_t s0
        cdef uint64_t[::1] seeds
        cdef int failed = 0
        cdef int b = self._bank_arg(bank)
        self._claim()
        try:
            if isinstance(seed, (int, np.integer)) and not isinstance(seed, (bool, np.bool_)):
                s0 = _seed_arg(seed)
                arr = np.empty(n, np.uint64)
                seeds = arr
                for i in range(n):
                    seeds[i] = gr_mix(s0, 1 + <uint64_t>i)
            else:
                # A private copy of exactly n seeds (arrays.pxi): its length and type read
                # from the buffer, never seed.shape; anything but an ndarray is a ValueError.
                seeds = array_in(seed, "seed", cnp.NPY_UINT64, 1, n, -1, AR_CONTIGUOUS)
            if b >= 0:
                self._point(b)
            i = 0
            while i < n and not failed:
                end = i + GR_BLOCK if i + GR_BLOCK < n else n
                with nogil:
                    for j in range(i, end):
                        self.c.p_episodes[j] = 0
                        self.c.p_term[j] = 0
                        self.c.p_trunc[j] = 0
                        self.c.p_err[j] = 0
                        self.c.p_reward[j] = 0
                        rng_seed(&self.c.games[j].rng, seeds[j] ^ 0x5DEECE66DULL)
                        gr_new_match(&self.c.games[j], seeds[j], &self.c.cfg)
                        if gr_refresh(&self.c.games[j], &self.c.cfg) < 0:
                            failed = 1
                            break
                        if gv_first(&self.c, j) < 0:
                            failed = 1
                            break
                i = end
                _gs_check_signals()
        finally:
            self.busy = False
        if failed:
            raise MemoryError("a move list could not be allocated")

    def step(self, actions, threads=1, bank=None):
        """Step every table with `actions` (int64 (N,) action ids: 0 pass, a the a-th listed
        action). An illegal id raises GdActionError before anything is stepped. Outputs are
        rewritten in place (`obs` and `action_mask` in output bank `bank`, None: the last
        one); a finished episode is followed at once by the next (its reward, terminated
        flag and, with final_obs, final observation in this step's outputs). `threads` > 1
        steps slices of the batch on native threads."""
        cdef Py_ssize_t n = self.c.n, i, lo, hi, k
        cdef int t = <int>_int_arg(threads, "threads", 1, GR_MAX_THREADS), failed = 0
        cdef int b = self._bank_arg(bank)
        cdef GVRange ranges[GR_MAX_THREADS]
        cdef void* args[GR_MAX_THREADS]
        self._claim()
        try:
            # A private copy (arrays.pxi), checked and then stepped: another thread writing
            # the caller's array cannot change what was validated.
            acts = array_in(actions, "actions", cnp.NPY_INT64, 1, n, -1, AR_CONTIGUOUS)
            src = <int64_t*>cnp.PyArray_DATA(acts)
            for i in range(n):
                if not gr_legal(&self.c.games[i], src[i]):
                    raise GdActionError(
                        f"action {src[i]} of env {i} is not legal: "
                        f"{_gr_legal_text(&self.c.games[i])}; nothing was stepped")
            memcpy(self.c.p_act, src, n * sizeof(int64_t))
            if b >= 0:
                self._point(b)
            if t > n:
                t = <int>n
            lo = 0
            while lo < n and not failed:
                hi = lo + GR_BLOCK * t if lo + GR_BLOCK * t < n else n
                with nogil:
                    for k in range(t):
                        ranges[k].c = &self.c
                        ranges[k].lo = lo + (hi - lo) * k // t
                        ranges[k].hi = lo + (hi - lo) * (k + 1) // t
                        ranges[k].failed = 0
                        args[k] = &ranges[k]
                    if t == 1:
                        gv_run_range(args[0])
                    else:
                        tl_run_threads(gv_run_range, args, t)
                    for k in range(t):
                        failed |= ranges[k].failed
                lo = hi
                if lo < n:
                    _gs_check_signals()
        finally:
            self.busy = False
        if failed:
            raise MemoryError("a move list could not be allocated")
        return 0

    cdef Py_ssize_t _env(self, object env) except -1:
        cdef int64_t i = _int_arg(env, "env", 0, (<int64_t>1) << 62)
        if self.closed or self.c.games == NULL:
            raise ValueError("this GdVecGames is closed")
        if i >= self.c.n:
            raise ValueError(f"env must be in 0..{self.c.n - 1}; got {_quote(env)}")
        return <Py_ssize_t>i

    def table(self, env):
        """A copy of table `env` as a GdTable (its match, hand, phase, legal list)."""
        cdef Py_ssize_t i = self._env(env)
        cdef GdTable c = GdTable.__new__(GdTable)
        cdef GTab* src = &self.c.games[i]
        if gr_listed(src, &self.c.cfg) < 0:
            raise MemoryError("no room for the legal actions")
        c.cfg = self.c.cfg
        c.t = src[0]
        c.t.masks = NULL
        c.t.codes = NULL
        c.t.cap = 0
        if gr_reserve(&c.t, src.nmoves if src.nmoves > 64 else 64) < 0:
            raise MemoryError("no room for the legal actions")
        if src.nmoves:
            memcpy(c.t.masks, src.masks, src.nmoves * 2 * sizeof(uint64_t))
            memcpy(c.t.codes, src.codes, src.nmoves * sizeof(uint32_t))
        return c

    def action_features(self, env):
        """Table `env`'s variable legal-action list (as GdTable.action_features)."""
        cdef Py_ssize_t i = self._env(env)
        if gr_listed(&self.c.games[i], &self.c.cfg) < 0:
            raise MemoryError("no room for the legal actions")
        return _gr_features_arrays(&self.c.games[i])

    def policy_actions(self, policy):
        """The action id native `policy` (RANDOM, GREEDY, PLAN) would take now at every
        table, for its seat to act (as GdTable.policy_action; 0 where nobody is to act): a
        teacher for learners that start by imitating the core's policies. RANDOM draws from
        each table's own stream.

        >>> v = GdVecGames(3, seed=5)
        >>> bool((v.policy_actions(PLAN) == [v.table(i).policy_action(PLAN) for i in range(3)]).all())
        True
        """
        cdef int pol = _gs_policy_arg(policy)
        cdef Py_ssize_t i, n
        cdef int failed = 0
        cdef int64_t* out
        if self.closed or self.c.games == NULL:
            raise ValueError("this GdVecGames is closed")
        if self.busy:
            raise ValueError("another thread is stepping this GdVecGames")
        n = self.c.n
        picks = np.zeros(n, np.int64)
        out = <int64_t*>cnp.PyArray_DATA(picks)
        self.busy = True
        try:
            with nogil:
                for i in range(n):
                    if gr_turn(&self.c.games[i]) >= 0 and (
                            gr_listed(&self.c.games[i], &self.c.cfg) < 0
                            or gr_policy_pick(&self.c.games[i], pol, &out[i]) < 0):
                        failed = 1
        finally:
            self.busy = False
        if failed:
            raise MemoryError("no room for a move list")
        return picks

    def legal_features(self):
        """Every table's variable legal-action list in one call, for learners that score
        (observation, action) pairs (DMC-style Q(s, a)): ``(offsets, ids, cards, reading)``,
        table i's rows ``offsets[i]:offsets[i + 1]`` (int64 (N + 1,)) of ``ids`` int64
        (M,), ``cards`` uint8 (M, 108) and ``reading`` uint8 (M, 4), each table's rows as
        GdTable.action_features lists them (pass first where allowed). No mask is built.

        >>> v = GdVecGames(2, seed=5)
        >>> offsets, ids, cards, reading = v.legal_features()
        >>> offsets.tolist() == [0, v.num_legal[0] + v.can_pass[0], int(v.num_legal.sum() + v.can_pass.sum())]
        True
        >>> bool((ids[:offsets[1]] == v.action_features(0)[0]).all())
        True
        """
        cdef Py_ssize_t i, n
        cdef int64_t total = 0, k
        cdef cnp.npy_intp d1[1]
        cdef cnp.npy_intp d2[2]
        cdef int64_t* pi
        cdef uint8_t* pc
        cdef uint8_t* pr
        cdef int64_t* off
        if self.closed or self.c.games == NULL:
            raise ValueError("this GdVecGames is closed")
        if self.busy:
            raise ValueError("another thread is stepping this GdVecGames")
        n = self.c.n
        self.busy = True            # claimed before the GIL is let go (as step does)
        try:
            d1[0] = n + 1
            offsets = cnp.PyArray_EMPTY(1, d1, cnp.NPY_INT64, 0)
            off = <int64_t*>cnp.PyArray_DATA(offsets)
            off[0] = 0
            for i in range(n):
                if gr_listed(&self.c.games[i], &self.c.cfg) < 0:
                    raise MemoryError("no room for the legal actions")
                total += gr_features(&self.c.games[i], 0, NULL, NULL, NULL)
                off[i + 1] = total
            d1[0] = total
            ids = cnp.PyArray_EMPTY(1, d1, cnp.NPY_INT64, 0)
            d2[0] = total
            d2[1] = GR_CARDS
            cards = cnp.PyArray_EMPTY(2, d2, cnp.NPY_UINT8, 0)    # gr_features writes every byte
            d2[1] = GR_READING
            reading = cnp.PyArray_EMPTY(2, d2, cnp.NPY_UINT8, 0)
            pi = <int64_t*>cnp.PyArray_DATA(ids)
            pc = <uint8_t*>cnp.PyArray_DATA(cards)
            pr = <uint8_t*>cnp.PyArray_DATA(reading)
            with nogil:
                for i in range(n):
                    k = off[i]
                    gr_features(&self.c.games[i], off[i + 1] - k, pi + k, pc + k * GR_CARDS,
                                pr + k * GR_READING)
        finally:
            self.busy = False
        return offsets, ids, cards, reading

    def __reduce__(self):
        raise TypeError("GdVecGames holds native tables and cannot be pickled")


cdef int gv_first(GVCore* c, Py_ssize_t i) noexcept nogil:
    """After a fresh match's deal: native seats up to a learner's decision."""
    cdef float acc[4]
    cdef int ended = 0
    acc[0] = acc[1] = acc[2] = acc[3] = 0
    if gv_natives(c, i, acc, &ended, 1) < 0:
        return -1
    if ended:
        return gv_new_episode(c, i, 0)
    gv_write(c, i)
    return 0
