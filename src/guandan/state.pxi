# The play phase of one Guandan hand (GUANDAN.md G5, G8), natively: four two-mask hands, the
# level and rule flags, the partnerships, the trick (pile cards, reading, owner), the turn, the
# passes since the last play and the finishing order. tienlen.guandan.Game drives every play
# and pass through this struct, so the play rules exist once; search and simulation copy it
# by value and run playouts without the GIL.

from cpython.exc cimport PyErr_CheckSignals as _gs_check_signals

cdef enum:
    # Reasons (G8). 1..8 are the plan's codes; the finer ones map onto them (GS_REASON_BASE).
    GS_OK = 0
    GS_INVALID_CARDS = 1
    GS_NOT_YOUR_TURN = 2
    GS_CANNOT_PASS = 3
    GS_CARD_NOT_FOUND = 4
    GS_HAND_EMPTY = 5
    GS_INVALID_TRIBUTE = 6
    GS_GAME_OVER = 7
    GS_STATE_CONFLICT = 8
    GS_NOT_A_PLAY = 9           # INVALID_CARDS: the cards read as no combination
    GS_NOT_A_READING = 10       # INVALID_CARDS: the reading is not one of the cards'
    GS_DOES_NOT_BEAT = 11       # INVALID_CARDS: the play does not beat the pile (G3)
    # Playout policies.
    GS_RANDOM = 0
    GS_GREEDY = 1
    GS_PLAN = 2
    GS_STACK = 1024


GS_REASON_NAMES = ("OK", "INVALID_CARDS", "NOT_YOUR_TURN", "CANNOT_PASS", "CARD_NOT_FOUND",
                   "HAND_EMPTY", "INVALID_TRIBUTE", "GAME_OVER", "STATE_CONFLICT",
                   "NOT_A_PLAY", "NOT_A_READING", "DOES_NOT_BEAT")
# The plan's code each reason is reported under.
GS_REASON_BASE = (0, 1, 2, 3, 4, 5, 6, 7, 8, 1, 1, 1)
RANDOM = GS_RANDOM
GREEDY = GS_GREEDY
PLAN = GS_PLAN


cdef struct GState:
    uint64_t once[4]
    uint64_t twice[4]
    uint64_t pile_once
    uint64_t pile_twice
    uint32_t pile_code        # 0: an empty pile (a lead)
    int32_t flags
    int8_t level
    int8_t team0              # seat bits of the team holding seat 0; the rest are the other
    int8_t turn               # -1 once the hand is over
    int8_t owner              # who made the pile's play, -1 when it is empty
    int8_t passes             # passes in a row since that play
    int8_t nfinished
    int8_t order[4]           # seats in the order they went out (nfinished of them)


cdef inline bint gs_holds(const GState* s, int p) noexcept nogil:
    return s.once[p] != 0


cdef inline int gs_partner(const GState* s, int p) noexcept nogil:
    cdef int team = s.team0 if (s.team0 >> p) & 1 else (~s.team0 & 15)
    return GD_CTZ(<uint64_t>(team & ~(1 << p)))


cdef inline int gs_next_holder(const GState* s, int p) noexcept nogil:
    """The next seat after p still holding cards (G5.3); -1 if none."""
    cdef int i, q = p
    for i in range(4):
        q = (q + 1) & 3
        if s.once[q]:
            return q
    return -1


cdef inline int gs_holders(const GState* s) noexcept nogil:
    return (s.once[0] != 0) + (s.once[1] != 0) + (s.once[2] != 0) + (s.once[3] != 0)


cdef inline int gs_check_play(const GState* s, uint64_t a, uint64_t b, uint32_t code) noexcept nogil:
    """Reason for refusing the play (a, b) read as `code` by the seat to act (0: legal)."""
    cdef uint32_t readings[MAX_READINGS]
    cdef int n, i, seat = s.turn
    if seat < 0:
        return GS_GAME_OVER
    if (b & ~a) or (a >> 54) or a == 0:
        return GS_NOT_A_PLAY
    if (a & ~s.once[seat]) or (b & ~s.twice[seat]):
        return GS_CARD_NOT_FOUND
    n = c_classify(a, b, s.level, s.flags, readings)
    if n == 0:
        return GS_NOT_A_PLAY
    for i in range(n):
        if readings[i] == code:
            break
    else:
        return GS_NOT_A_READING
    if s.pile_code and not c_beats(code, s.pile_code, s.level, s.flags):
        return GS_DOES_NOT_BEAT
    return GS_OK


cdef inline int gs_check_pass(const GState* s) noexcept nogil:
    if s.turn < 0:
        return GS_GAME_OVER
    if s.pile_code == 0:
        return GS_CANNOT_PASS
    return GS_OK


cdef inline void gs_play(GState* s, uint64_t a, uint64_t b, uint32_t code) noexcept nogil:
    """Apply a legal play of the seat to act (trusted)."""
    cdef int seat = s.turn, mate
    cdef uint64_t o = s.once[seat], t = s.twice[seat]
    # Multiset difference on two masks: a type held twice and played once stays held once.
    s.once[seat] = (o & ~a) | (t & a & ~b)
    s.twice[seat] = t & ~a
    s.pile_once = a
    s.pile_twice = b
    s.pile_code = code
    s.owner = seat
    s.passes = 0
    if s.once[seat] == 0:
        s.order[s.nfinished] = seat
        s.nfinished += 1
        mate = gs_partner(s, seat)
        if s.once[mate] == 0:
            s.turn = -1          # G5.7: the hand-end test comes first
            return
    s.turn = gs_next_holder(s, seat)


cdef inline void gs_pass(GState* s) noexcept nogil:
    """Apply a pass (trusted: there is a pile). When every other seat still holding cards has
    passed since the last play the trick ends (G5.5): the owner leads, or, when the owner has
    gone out, the owner's partner (接风, G5.6)."""
    cdef int others = gs_holders(s) - (s.once[s.owner] != 0)
    s.passes += 1
    if s.passes >= others:
        s.turn = s.owner if s.once[s.owner] else gs_partner(s, s.owner)
        s.pile_once = 0
        s.pile_twice = 0
        s.pile_code = 0
        s.owner = -1
        s.passes = 0
        return
    s.turn = gs_next_holder(s, s.turn)


cdef inline void gs_ghand(const GState* s, GHand* h) noexcept nogil:
    ghand_init(h, s.once[s.turn], s.twice[s.turn], s.level, s.flags)


cdef int64_t gs_moves_buffered(const GState* s, Out* o, uint64_t* sm, uint32_t* sc) noexcept nogil:
    """The legal plays of the seat to act into the stack buffers (sm, sc of GS_STACK plays),
    or into malloc'd ones when they do not fit (the caller frees o.masks if it is not sm).
    Returns the count, -1 on allocation failure."""
    cdef GHand h
    gs_ghand(s, &h)
    o.masks = sm
    o.codes = sc
    o.n = 0
    o.cap = GS_STACK
    o.overflow = 0
    gen_plays(&h, s.pile_code, o)
    if not o.overflow:
        return o.n
    o.masks = NULL
    o.codes = NULL
    o.n = 0
    o.cap = 0
    o.overflow = 0
    gen_plays(&h, s.pile_code, o)
    o.cap = o.n
    o.masks = <uint64_t*>malloc(o.cap * 2 * sizeof(uint64_t))
    o.codes = <uint32_t*>malloc(o.cap * sizeof(uint32_t) + 4)
    if o.masks == NULL or o.codes == NULL:
        free(o.masks)
        free(o.codes)
        o.masks = sm
        o.codes = sc
        return -1
    o.n = 0
    gen_plays(&h, s.pile_code, o)
    return o.n


include "plan.pxi"


cdef int gs_step_plan(GState* s, int64_t* decisions, uint64_t* act) noexcept nogil:
    """One action of the PLAN policy (plan.pxi), applied."""
    cdef PlanView v
    cdef Plan P, tmp
    cdef uint64_t a[3]
    plan_view_of(s, &v)
    if plan_decide(&v, &P, &tmp, a) < 0 or (a[0] == 0 and s.pile_code == 0):
        return -1                        # (a lead always has a group to play)
    if act != NULL:
        act[0] = a[0]
        act[1] = a[1]
        act[2] = a[2]
    if a[0]:
        gs_play(s, a[0], a[1], <uint32_t>a[2])
    else:
        gs_pass(s)
    decisions[0] += 1
    return 0


cdef inline int _gs_lowest_value_type(uint64_t once, int level, int flags) noexcept nogil:
    """A card type of the lowest single-card value in the hand (wilds count as level cards)."""
    cdef int best = -1, bv = 99, v, i
    cdef uint64_t m = once
    while m:
        i = GD_CTZ(m)
        m &= m - 1
        v = single_value(i // 4 + 2 if i < 52 else (R_SMALL_JOKER if i == SJ_ID else R_BIG_JOKER), level)
        if v < bv:
            bv = v
            best = i
    return best


cdef int gs_step(GState* s, Rng* r, int policy, int64_t* decisions, uint64_t* act) noexcept nogil:
    """Choose and apply one action by `policy`; when `act` is not NULL it receives the action
    (once, twice, code; zeros for a pass). 0, or -1 if a move list could not be allocated."""
    cdef Out o
    cdef uint64_t sm[2 * GS_STACK]
    cdef uint32_t sc[GS_STACK]
    cdef int64_t n, pick, i, best
    cdef int low, bs, sz
    cdef bint can_pass = s.pile_code != 0
    if policy == GS_PLAN:
        return gs_step_plan(s, decisions, act)
    n = gs_moves_buffered(s, &o, sm, sc)
    if n < 0:
        return -1
    pick = -1
    if policy == GS_GREEDY:
        if not can_pass:
            # Lead: shed the lowest card in the biggest non-bomb play holding it.
            low = _gs_lowest_value_type(s.once[s.turn], s.level, s.flags)
            best = -1
            bs = 0
            for i in range(n):
                if (o.masks[2 * i] >> low) & 1 and not kind_is_bomb(ckind(o.codes[i])):
                    sz = csize(o.codes[i])
                    if sz > bs:
                        bs = sz
                        best = i
            pick = best if best >= 0 else 0
        elif s.owner >= 0 and s.owner == gs_partner(s, s.turn) and s.once[s.owner]:
            pick = -1                        # let the partner's play stand
        elif n > 0:
            pick = 0                         # the weakest play that beats
            if (kind_is_bomb(ckind(o.codes[0])) and not kind_is_bomb(ckind(s.pile_code))
                    and GD_POPCOUNT(s.once[s.owner]) + GD_POPCOUNT(s.twice[s.owner]) > 6):
                pick = -1                    # keep bombs until an opponent is close to out
    else:
        pick = <int64_t>rng_below(r, <uint32_t>(n + can_pass))
        if pick >= n:
            pick = -1
    if act != NULL:
        act[0] = o.masks[2 * pick] if pick >= 0 else 0
        act[1] = o.masks[2 * pick + 1] if pick >= 0 else 0
        act[2] = o.codes[pick] if pick >= 0 else 0
    if pick >= 0:
        gs_play(s, o.masks[2 * pick], o.masks[2 * pick + 1], o.codes[pick])
    else:
        gs_pass(s)
    if o.masks != sm:
        free(o.masks)
        free(o.codes)
    decisions[0] += 1
    return 0


cdef int gs_playout(GState* s, Rng* r, int policy, int64_t* decisions) noexcept nogil:
    # A hand ends within 108 plays, and each trick within 3 passes of a play: the bound below
    # only guards against a state the validator let through by mistake.
    cdef int guard = 0
    while s.turn >= 0 and guard < 1000:
        if gs_step(s, r, policy, decisions, NULL) < 0:
            return -1
        guard += 1
    return 0


cdef str gs_validate(const GState* s):
    """Why the fields do not make a reachable play-phase state, or None. Every way of building
    a GdState (constructor, from_fields, unpickling) goes through this one check."""
    cdef int p, i, holders = 0, seat
    cdef int cnt[54]
    cdef uint32_t readings[MAX_READINGS]
    cdef int nr, team1
    cdef uint64_t o, t
    if s.level < 2 or s.level > 14:
        return "level must be 2..14"
    if s.flags < 0 or (s.flags & ~F_ALL):
        return "unknown rule flags"
    if GD_POPCOUNT(<uint64_t>(s.team0 & 15)) != 2 or (s.team0 & ~15) or not (s.team0 & 1):
        return "teams must be two seats each, team0 holding seat 0"
    for i in range(54):
        cnt[i] = 0
    for p in range(5):
        o = s.once[p] if p < 4 else s.pile_once
        t = s.twice[p] if p < 4 else s.pile_twice
        if (o >> 54) or (t & ~o):
            return "a hand's masks are not a multiset of card types 0..53"
        for i in range(54):
            cnt[i] += ((o >> i) & 1) + ((t >> i) & 1)
    for i in range(54):
        if cnt[i] > 2:
            return "more than two copies of a card in the hands and pile"
    if s.nfinished < 0 or s.nfinished > 3:
        return "finishing order too long"
    for i in range(s.nfinished):
        seat = s.order[i]
        if seat < 0 or seat > 3 or s.once[seat]:
            return "finished seats must be seats 0..3 that hold no cards"
        for p in range(i):
            if s.order[p] == seat:
                return "a seat finished twice"
    for p in range(4):
        if s.once[p]:
            holders += 1
    if holders + s.nfinished != 4:
        return "every seat must hold cards or be in the finishing order"
    team1 = ~s.team0 & 15
    if s.turn == -1:
        if s.once[0] or s.once[GD_CTZ(<uint64_t>(s.team0 & ~1))]:
            if s.once[GD_CTZ(<uint64_t>team1)] or s.once[GD_CTZ(<uint64_t>(team1 & (team1 - 1)))]:
                return "the hand is marked over but no team is out"
        if s.owner < -1 or s.owner > 3:
            return "owner must be a seat or -1"
        return None
    if s.turn < 0 or s.turn > 3 or not s.once[s.turn]:
        return "turn must be a seat holding cards (or -1 once over)"
    if not (s.once[0] or s.once[GD_CTZ(<uint64_t>(s.team0 & ~1))]):
        return "a team is out: the hand should be over"
    if not (s.once[GD_CTZ(<uint64_t>team1)] or s.once[GD_CTZ(<uint64_t>(team1 & (team1 - 1)))]):
        return "a team is out: the hand should be over"
    if s.pile_code == 0:
        if s.pile_once or s.owner != -1 or s.passes:
            return "an empty pile has no cards, owner or passes"
        return None
    if s.owner < 0 or s.owner > 3:
        return "a pile needs an owner seat"
    if not c_code_valid(s.pile_code, s.level, s.flags):
        return "pile_code is not a play code under these rules"
    nr = c_classify(s.pile_once, s.pile_twice, s.level, s.flags, readings)
    for i in range(nr):
        if readings[i] == s.pile_code:
            break
    else:
        return "pile_code is not a reading of the pile's cards"
    if s.passes < 0 or s.passes >= holders - (s.once[s.owner] != 0):
        return "too many passes: the trick should have ended"
    seat = s.owner
    for i in range(s.passes + 1):
        seat = gs_next_holder(s, seat)
    if seat != s.turn:
        return "turn does not follow the owner and the passes since the play"
    return None


cdef tuple _gs_pair(object hand, str name):
    cdef uint64_t hm[2]
    try:
        once, twice = hand
    except (TypeError, ValueError):
        raise ValueError(f"{name} must be a (once, twice) pair of masks; got {_quote(hand)}") from None
    _hand_arg(once, twice, name, hm)
    return hm[0], hm[1]


cdef class GdState:
    """The play phase of a Guandan hand (G5): hands, level, teams, trick, turn, order.

    >>> hands = deal(3)
    >>> s = GdState(hands, level=2, leader=1)
    >>> s.turn, s.can_pass(), s.is_over
    (1, False, False)
    >>> masks, codes = s.legal_plays()
    >>> s.try_play(*masks[0], codes[0])          # the leader's weakest single
    0
    >>> s.turn, s.pile_owner, s.can_pass()
    (2, 1, True)
    """
    cdef GState s

    def __cinit__(self, *args, **kwargs):
        # GdState.__new__(GdState) (and unpickling tools that skip __init__) would otherwise
        # leave an all-zero state: level 0, seat 0 to act with no cards and no finishing
        # order, which sent the playouts reading order[-1] off the stack. It is a finished
        # hand instead, on which every method is safe and every play refused.
        cdef int p
        self.s.level = 2
        self.s.team0 = 0b0101
        self.s.turn = -1
        self.s.owner = -1
        for p in range(4):
            self.s.order[p] = -1

    def __init__(self, hands, level=2, leader=0, flags=0, team0=0b0101):
        """Four (once, twice) hands of a fresh hand; `leader` leads; `team0` is the bit set
        of seat 0's team (0b0101: seats 0 and 2, FIXED_1_3)."""
        cdef int p
        # Built in a local and stored only once valid: calling __init__ again with bad
        # arguments (on a state in play) must leave that state exactly as it was.
        cdef GState n
        try:
            hands = tuple(hands)
        except TypeError:
            raise ValueError("hands must be four (once, twice) pairs") from None
        if len(hands) != 4:
            raise ValueError(f"a Guandan hand needs 4 hands; got {len(hands)}")
        for p in range(4):
            n.once[p], n.twice[p] = _gs_pair(hands[p], f"hands[{p}]")
            n.order[p] = -1
        n.level = _level_arg(level)
        n.flags = _flags_arg(flags)
        n.team0 = _int_arg(team0, "team0", 0, 15)
        n.turn = _int_arg(leader, "leader", 0, 3)
        n.pile_once = 0
        n.pile_twice = 0
        n.pile_code = 0
        n.owner = -1
        n.passes = 0
        n.nfinished = 0
        for p in range(4):
            if n.once[p] == 0:
                raise ValueError(f"hands[{p}] is empty: every seat starts with cards")
        err = gs_validate(&n)
        if err is not None:
            raise ValueError(err)
        self.s = n

    @staticmethod
    def from_fields(hands, level, turn, flags=0, team0=0b0101, pile=(0, 0), pile_code=0,
                    owner=-1, passes=0, finished=()):
        """Any play-phase state from its fields (search from a seat's view, tests).
        Validated like every other way of building one."""
        cdef GdState g = GdState.__new__(GdState)
        cdef int p
        try:
            hands = tuple(hands)
            finished = tuple(finished)
        except TypeError:
            raise ValueError("hands and finished must be sequences") from None
        if len(hands) != 4:
            raise ValueError(f"a Guandan hand needs 4 hands; got {len(hands)}")
        if len(finished) > 3:
            raise ValueError("at most three seats can have finished")
        for p in range(4):
            g.s.once[p], g.s.twice[p] = _gs_pair(hands[p], f"hands[{p}]")
            g.s.order[p] = -1
        for p in range(len(finished)):
            g.s.order[p] = _int_arg(finished[p], "finished seat", 0, 3)
        g.s.nfinished = len(finished)
        g.s.pile_once, g.s.pile_twice = _gs_pair(pile, "pile")
        g.s.level = _level_arg(level)
        g.s.flags = _flags_arg(flags)
        g.s.team0 = _int_arg(team0, "team0", 0, 15)
        g.s.turn = _int_arg(turn, "turn", -1, 3)
        g.s.pile_code = _int_arg(pile_code, "pile_code", 0, 0xFFFF)
        g.s.owner = _int_arg(owner, "owner", -1, 3)
        g.s.passes = _int_arg(passes, "passes", 0, 3)
        err = gs_validate(&g.s)
        if err is not None:
            raise ValueError(err)
        return g

    # ------------------------------------------------------------ fields

    @property
    def level(self):
        return self.s.level

    @property
    def flags(self):
        return self.s.flags

    @property
    def team0(self):
        return self.s.team0

    @property
    def turn(self):
        """Seat to act, -1 once the hand is over."""
        return self.s.turn

    @property
    def is_over(self):
        return self.s.turn < 0

    @property
    def hands(self):
        return tuple((self.s.once[p], self.s.twice[p]) for p in range(4))

    def hand(self, seat):
        cdef int p = _int_arg(seat, "seat", 0, 3)
        return (self.s.once[p], self.s.twice[p])

    def hand_size(self, seat):
        cdef int p = _int_arg(seat, "seat", 0, 3)
        return GD_POPCOUNT(self.s.once[p]) + GD_POPCOUNT(self.s.twice[p])

    @property
    def pile(self):
        """(once, twice) of the play on the table, (0, 0) when the pile is empty."""
        return (self.s.pile_once, self.s.pile_twice)

    @property
    def pile_code(self):
        return self.s.pile_code

    @property
    def pile_owner(self):
        return self.s.owner

    @property
    def passes(self):
        return self.s.passes

    @property
    def finished(self):
        return tuple(self.s.order[i] for i in range(self.s.nfinished))

    def partner(self, seat):
        return gs_partner(&self.s, _int_arg(seat, "seat", 0, 3))

    # ------------------------------------------------------------ rules

    def legal_plays(self):
        """(masks, codes) of every legal play of the seat to act (passing not listed)."""
        if self.s.turn < 0:
            return np.empty((0, 2), np.uint64), np.empty(0, np.uint32)
        return _plays_arrays(self.s.once[self.s.turn], self.s.twice[self.s.turn], self.s.level,
                             self.s.pile_code, self.s.flags)

    def count_legal_plays(self):
        if self.s.turn < 0:
            return 0
        return count_plays(self.s.once[self.s.turn], self.s.twice[self.s.turn], self.s.level,
                           self.s.pile_code, self.s.flags)

    def can_pass(self):
        return gs_check_pass(&self.s) == GS_OK

    def check_play(self, once, twice, code):
        """Reason code (GS_REASON_NAMES; 0 = legal) for the seat to act playing these cards
        read as `code`."""
        cdef uint64_t hm[2]
        _hand_arg(once, twice, "play", hm)
        return gs_check_play(&self.s, hm[0], hm[1], _int_arg(code, "code", 0, 0xFFFF))

    def check_pass(self):
        return gs_check_pass(&self.s)

    def try_play(self, once, twice, code):
        """Checked: play if legal and return 0; otherwise change nothing and return the
        reason code."""
        cdef uint64_t hm[2]
        cdef uint32_t c
        cdef int reason
        _hand_arg(once, twice, "play", hm)
        c = _int_arg(code, "code", 0, 0xFFFF)
        reason = gs_check_play(&self.s, hm[0], hm[1], c)
        if reason == GS_OK:
            gs_play(&self.s, hm[0], hm[1], c)
        return reason

    def try_pass(self):
        cdef int reason = gs_check_pass(&self.s)
        if reason == GS_OK:
            gs_pass(&self.s)
        return reason

    def apply(self, once, twice=0, code=0):
        """Fast path (OpenSpiel's apply_action): play (once, twice) read as `code`, or pass
        when `once` is 0, trusting legality. It still refuses what would corrupt the state
        (cards not held, a pass on a lead, a move after the end) with ValueError."""
        cdef uint64_t hm[2]
        cdef int t
        cdef int64_t c = 0
        # Every argument is read before the state: their __index__ is Python code that may
        # move this state on (or re-initialise it at another level), and the checks below
        # must be of the state gs_play changes.
        _hand_arg(once, twice, "play", hm)
        if hm[0] != 0:
            c = _int_arg(code, "code", 1, 0xFFFF)
        t = self.s.turn
        if t < 0:
            raise ValueError("the hand is over")
        if hm[0] == 0:
            if self.s.pile_code == 0:
                raise ValueError("cannot pass on a lead")
            gs_pass(&self.s)
            return
        if (hm[0] & ~self.s.once[t]) or (hm[1] & ~self.s.twice[t]):
            raise ValueError("the player to act does not hold these cards")
        if not c_code_valid(<uint32_t>c, self.s.level, self.s.flags):
            raise ValueError(f"code is not a play at level {self.s.level} under "
                             f"flags={self.s.flags}: {_quote(code)}")
        gs_play(&self.s, hm[0], hm[1], <uint32_t>c)

    # ------------------------------------------------------------ copying and pickling

    def copy(self):
        cdef GdState g = GdState.__new__(GdState)
        g.s = self.s
        return g

    def __copy__(self):
        return self.copy()

    def __deepcopy__(self, memo):
        return self.copy()

    def key(self):
        """Every field as a tuple of ints: equal keys, equal states."""
        return (self.hands, self.s.level, self.s.flags, self.s.team0, self.s.turn,
                (self.s.pile_once, self.s.pile_twice), self.s.pile_code, self.s.owner,
                self.s.passes, self.finished)

    def __eq__(self, other):
        if not isinstance(other, GdState):
            return NotImplemented
        return self.key() == (<GdState>other).key()

    __hash__ = None

    def __reduce__(self):
        return (_gd_state_from_key, (self.key(),))

    def __repr__(self):
        return (f"GdState(level={self.s.level}, turn={self.s.turn}, pile_code={self.s.pile_code:#x}, "
                f"owner={self.s.owner}, passes={self.s.passes}, finished={self.finished})")

    # ------------------------------------------------------------ playouts

    def playout(self, seed, policy=GS_RANDOM):
        """Finishing order of a playout from here by `policy` (RANDOM, GREEDY or PLAN: every
        seat plays plan_move); the state itself is unchanged. Runs without the GIL."""
        cdef GState c = self.s
        cdef Rng r
        cdef int pol = _gs_policy_arg(policy), failed
        cdef int64_t dec = 0
        rng_seed(&r, _seed_arg(seed))
        with nogil:
            failed = gs_playout(&c, &r, pol, &dec)
        if failed:
            raise MemoryError("playout could not allocate a move buffer")
        return tuple(c.order[i] for i in range(c.nfinished))

    def playout_actions(self, seed, policy=GS_RANDOM):
        """(finishing order, actions): every action of the playout as (once, twice, code),
        (0, 0, 0) for a pass, so that the playout can be replayed through the checked path."""
        cdef GState c = self.s
        cdef Rng r
        cdef int pol = _gs_policy_arg(policy)
        cdef int64_t dec = 0
        cdef uint64_t act[3]
        rng_seed(&r, _seed_arg(seed))
        actions = []
        while c.turn >= 0 and dec < 1000:
            if gs_step(&c, &r, pol, &dec, act) < 0:
                raise MemoryError("playout could not allocate a move buffer")
            actions.append((act[0], act[1], <uint32_t>act[2]))
        return tuple(c.order[i] for i in range(c.nfinished)), actions

    def playouts(self, seed, n, policy=GS_RANDOM):
        """Run `n` playouts from here (seeds seed, seed+1, …) without the GIL, checking for
        Ctrl-C between chunks. Returns (firsts, decisions): firsts[p] counts the playouts seat
        p went out first in (its team won the hand), decisions the plays and passes made."""
        cdef GState c, start
        cdef Rng r
        cdef uint64_t sd = _seed_arg(seed)
        cdef int64_t total = _int_arg(n, "n", 0, <int64_t>1 << 40)
        cdef int pol = _gs_policy_arg(policy), failed = 0, i, j, chunk
        cdef int64_t dec = 0, done = 0
        cdef int64_t firsts[4]
        # Read once, under the GIL: each chunk releases it, and another thread may play on
        # this state meanwhile; every playout starts from this one snapshot.
        start = self.s
        # Chunks of 256 where signals are handled (gd_watch_signals), else as long as `chunk`
        # (an int) holds.
        cdef bint watch = gd_watch_signals()
        cdef int64_t most = 256 if watch else (1 << 30)
        for i in range(4):
            firsts[i] = 0
        while done < total and not failed:
            chunk = <int>min(most, total - done)
            with nogil:
                for j in range(chunk):
                    c = start
                    rng_seed(&r, sd + <uint64_t>(done + j))
                    if gs_playout(&c, &r, pol, &dec) < 0:
                        failed = 1
                        break
                    if c.nfinished:
                        firsts[c.order[0]] += 1
            done += chunk
            if watch:
                _gs_check_signals()
        if failed:
            raise MemoryError("playout could not allocate a move buffer")
        return (firsts[0], firsts[1], firsts[2], firsts[3]), dec

    def playouts_after(self, actions, seed, policy=GS_PLAN):
        """For each action (once, twice, code) of the seat to act, (0, 0, 0) for a pass: the
        finishing order of one playout by `policy` after it, every playout seeded with `seed`
        (common random numbers: the actions are compared on the same luck). The actions are
        checked like try_play / try_pass first; an illegal one raises ValueError naming it
        and nothing runs. Without the GIL; Ctrl-C is checked every 64 actions.

        >>> s = GdState(deal(5), level=2, leader=0)
        >>> masks, codes = s.legal_plays()
        >>> orders = s.playouts_after([(*masks[0], codes[0]), (*masks[-1], codes[-1])], seed=1)
        >>> [sorted(o[:2]) != [] for o in orders], s.turn
        ([True, True], 0)
        """
        cdef int pol = _gs_policy_arg(policy), failed = 0, reason
        cdef uint64_t sd = _seed_arg(seed)
        cdef uint64_t hm[2]
        cdef Py_ssize_t n, i, j, stop
        cdef GState c, start
        cdef Rng r
        cdef int64_t dec = 0
        cdef uint64_t* acts
        try:
            items = list(actions)
        except TypeError:
            raise ValueError("actions must be a sequence of (once, twice, code)") from None
        n = len(items)
        acts = <uint64_t*>malloc((3 * n + 1) * sizeof(uint64_t))
        if acts == NULL:
            raise MemoryError("no room for the actions")
        orders = []
        try:
            for i in range(n):
                try:
                    once, twice, code = items[i]
                except (TypeError, ValueError):
                    raise ValueError(f"actions[{i}] must be (once, twice, code); got {_quote(items[i])}") from None
                _hand_arg(once, twice, f"actions[{i}]", hm)
                code = _int_arg(code, f"actions[{i}] code", 0, 0xFFFF)
                acts[3 * i] = hm[0]
                acts[3 * i + 1] = hm[1]
                acts[3 * i + 2] = <uint64_t>code
            # The state is read once, after every action's Python code (__index__) has run,
            # and the actions are checked against that snapshot: the loop below releases the
            # GIL, and another thread may play on this state meanwhile.
            start = self.s
            for i in range(n):
                if acts[3 * i] == 0:
                    reason = gs_check_pass(&start)
                else:
                    reason = gs_check_play(&start, acts[3 * i], acts[3 * i + 1],
                                           <uint32_t>acts[3 * i + 2])
                if reason != GS_OK:
                    raise ValueError(f"actions[{i}] is not legal here: {GS_REASON_NAMES[reason]}")
            i = 0
            while i < n and not failed:
                stop = min(n, i + 64)
                j = i
                res = []
                while j < stop:
                    with nogil:
                        c = start
                        if acts[3 * j]:
                            gs_play(&c, acts[3 * j], acts[3 * j + 1], <uint32_t>acts[3 * j + 2])
                        else:
                            gs_pass(&c)
                        rng_seed(&r, sd)
                        if gs_playout(&c, &r, pol, &dec) < 0:
                            failed = 1
                    if failed:
                        break
                    orders.append(tuple(c.order[k] for k in range(c.nfinished)))
                    j += 1
                i = stop
                _gs_check_signals()
        finally:
            free(acts)
        if failed:
            raise MemoryError("playout could not allocate a move buffer")
        return orders


cdef int _gs_policy_arg(object policy) except -1:
    # By __index__, like every int argument: 1.0, numpy.True_ or 1+0j are not policies.
    try:
        v = _as_int(policy)
    except TypeError:
        v = None
    if v is None or v not in (GS_RANDOM, GS_GREEDY, GS_PLAN):
        raise ValueError(f"policy must be RANDOM (0), GREEDY (1) or PLAN (2); got {_quote(policy)}")
    return v


def _gd_state_from_key(key):
    """Inverse of GdState.key() (pickling), through the same validator."""
    try:
        hands, level, flags, team0, turn, pile, pile_code, owner, passes, finished = key
    except (TypeError, ValueError):
        raise ValueError("not a GdState key") from None
    return GdState.from_fields(hands, level, turn, flags, team0, pile, pile_code, owner,
                               passes, finished)
