# The observation encoder (docs/rl.md, "Guandan"): one seat's view of a table as uint8
# bytes (gr_encode), and observe_fields, the same encoder fed from what a seat may know (a
# bot's view). Included by env.pxi.

# GR_EXPAND[b]: the 8 bits of b as 8 bytes of 0/1, lowest first (a mask to its bytes).
cdef uint8_t GR_EXPAND[256][8]

cdef void _gr_init_expand() noexcept:
    cdef int b, i
    for b in range(256):
        for i in range(8):
            GR_EXPAND[b][i] = (b >> i) & 1

_gr_init_expand()


cdef inline void gr_bits54(uint8_t* o, uint64_t m) noexcept nogil:
    """54 bytes of 0/1, one per card type of the mask: six 8-byte lookups and a 6-byte tail
    (exactly 54 bytes written: a row's last plane ends at its array's end)."""
    cdef int k
    for k in range(6):
        memcpy(o + 8 * k, GR_EXPAND[(m >> (8 * k)) & 0xFF], 8)
    memcpy(o + 48, GR_EXPAND[(m >> 48) & 0x3F], 6)


cdef inline void gr_cards(uint8_t* o, uint64_t a, uint64_t b) noexcept nogil:
    gr_bits54(o, a)
    gr_bits54(o + 54, b)


cdef inline int gr_rel(int seat, int obs) noexcept nogil:
    return (seat - obs) & 3


cdef void gr_encode(const GTab* t, int obs, uint8_t* o) noexcept nogil:
    """The observation of seat `obs` (docs/rl.md): its own hand and what is public."""
    cdef const GState* s = &t.s
    cdef int p, r, team = obs & 1, turn = gr_turn(t), i
    memset(o, 0, GR_OBS)
    gr_cards(o + GR_O_HAND, s.once[obs], s.twice[obs])
    for p in range(4):
        r = gr_rel(p, obs)
        o[GR_O_LEFT + r] = gr_count(s.once[p], s.twice[p])
        gr_cards(o + GR_O_PLAYED + GR_CARDS * r, t.pl_once[p], t.pl_twice[p])
    if t.phase >= GR_PLAY:
        gr_cards(o + GR_O_PILE, s.pile_once, s.pile_twice)
        o[GR_O_PILE_KIND + ckind(s.pile_code)] = 1
        if s.pile_code:
            o[GR_O_PILE_RANK + crank(s.pile_code)] = 1
        o[GR_O_PILE_SIZE] = csize(s.pile_code)
        if s.owner >= 0:
            o[GR_O_PILE_OWNER + gr_rel(s.owner, obs)] = 1
        if t.leader >= 0:
            o[GR_O_PILE_LEADER + gr_rel(t.leader, obs)] = 1
        for i in range(s.nfinished):
            o[GR_O_PLACE + gr_rel(s.order[i], obs)] = i + 1
    else:
        o[GR_O_PILE_KIND] = 1
    if turn >= 0:
        o[GR_O_TO_ACT + gr_rel(turn, obs)] = 1
    o[GR_O_LEVEL + s.level - 2] = 1
    o[GR_O_TEAM_LEVEL + t.levels[team] - 2] = 1
    o[GR_O_TEAM_LEVEL + 13 + t.levels[1 - team] - 2] = 1
    if t.declarer >= 0:
        o[GR_O_DECLARER + (0 if t.declarer == team else 1)] = 1
    if t.phase <= GR_PLAY:
        o[GR_O_PHASE + t.phase] = 1
    o[GR_O_ATTEMPTS] = t.failed[team]
    o[GR_O_ATTEMPTS + 1] = t.failed[1 - team]
    for i in range(t.ntrib):
        o[GR_O_TRIBUTE_ROLE + gr_rel(t.tpayer[i], obs)] = 1
        if t.trecv[i] >= 0:
            o[GR_O_TRIBUTE_ROLE + gr_rel(t.trecv[i], obs)] = 2


cdef int _pair_arg(object pair, str name, uint64_t* out) except -1:
    try:
        once, twice = pair
    except (TypeError, ValueError):
        raise ValueError(f"{name} must be a (once, twice) pair of card-type masks; got "
                         f"{_quote(pair)}") from None
    return _hand_arg(once, twice, name, out)


cdef int _seats_arg(object seats, str name, int n, int lo, int64_t hi, int8_t* out) except -1:
    try:
        items = tuple(seats)
    except TypeError:
        raise ValueError(f"{name} must be {n} ints; got {_quote(seats)}") from None
    if len(items) != n:
        raise ValueError(f"{name} must be {n} ints; got {_quote(seats)}")
    for i in range(n):
        out[i] = <int8_t>_int_arg(items[i], name, lo, hi)
    return 0


def observe_fields(seat, hand, cards_left, played, pile=(0, 0), pile_code=0, pile_owner=-1,
                   trick_leader=-1, turn=-1, finished=(), level=2, levels=(2, 2),
                   declarer=-1, failed_attempts=(0, 0), tributes=(), flags=0):
    """The play-phase observation (uint8 (GR_OBS_SIZE,), docs/rl.md) of `seat`, encoded
    by the one encoder (``GdTable.observe``'s) from what that seat may know: its `hand`
    (once, twice), the four seats' `cards_left`, what each seat `played` this hand (four
    (once, twice) pairs), the `pile` and its `pile_code` (0 empty), `pile_owner` and
    `trick_leader` (-1 with an empty pile), the seat to act (`turn`, -1 none), the seats
    `finished` in order, the hand's `level`, the team `levels` (team of seat 0 first), the
    `declarer` team (-1 in a match's first hand), `failed_attempts` at A per team and this
    hand's `tributes` as (payer, receiver) pairs. A bot rebuilds its env observation with it
    (tienlen.rl.guandan_dmc).

    >>> t = GdTable(seed=5)
    >>> o = observe_fields(1, t.hands[1], [27] * 4, [(0, 0)] * 4, turn=1)
    >>> bool((o == t.observe(1)).all())
    True
    """
    cdef GTab t
    cdef uint64_t m[2]
    cdef int8_t left[4]
    cdef int8_t two[2]
    cdef int8_t pair[2]
    cdef int s = <int>_int_arg(seat, "seat", 0, 3), p, i, n
    cdef cnp.npy_intp d1[1]
    memset(&t, 0, sizeof(GTab))
    t.phase = GR_PLAY
    _pair_arg(hand, "hand", m)
    _seats_arg(cards_left, "cards_left", 4, 0, 54, left)
    if left[s] != gr_count(m[0], m[1]):
        raise ValueError(f"cards_left[{s}] is {left[s]}, but the hand holds "
                         f"{gr_count(m[0], m[1])} cards")
    for p in range(4):
        n = left[p]
        if p == s:
            t.s.once[p] = m[0]
            t.s.twice[p] = m[1]
        else:                         # stand-ins: the encoder reads only their count
            t.s.once[p] = ((<uint64_t>1) << n) - 1
    try:
        items = tuple(played)
    except TypeError:
        items = ()
    if len(items) != 4:
        raise ValueError(f"played must be 4 (once, twice) pairs; got {_quote(played)}")
    for p in range(4):
        _pair_arg(items[p], "played", m)
        t.pl_once[p] = m[0]
        t.pl_twice[p] = m[1]
    t.s.level = _level_arg(level)
    t.s.flags = _flags_arg(flags)
    _pair_arg(pile, "pile", m)
    t.s.pile_once = m[0]
    t.s.pile_twice = m[1]
    t.s.pile_code = _code_arg(pile_code, t.s.level, t.s.flags, "pile_code", True)
    if (t.s.pile_code == 0) != (m[0] == 0):
        raise ValueError("pile and pile_code disagree: both empty or neither")
    t.s.owner = <int8_t>_int_arg(pile_owner, "pile_owner", -1, 3)
    t.leader = <int8_t>_int_arg(trick_leader, "trick_leader", -1, 3)
    t.s.turn = <int8_t>_int_arg(turn, "turn", -1, 3)
    t.s.team0 = 0b0101
    try:
        items = tuple(finished)
    except TypeError:
        items = (None,) * 5
    if len(items) > 4:
        raise ValueError(f"finished must be at most 4 seats; got {_quote(finished)}")
    t.s.nfinished = len(items)
    for i in range(len(items)):
        t.s.order[i] = <int8_t>_int_arg(items[i], "finished", 0, 3)
    _seats_arg(levels, "levels", 2, 2, 14, two)
    t.levels[0] = two[0]
    t.levels[1] = two[1]
    t.declarer = <int8_t>_int_arg(declarer, "declarer", -1, 1)
    _seats_arg(failed_attempts, "failed_attempts", 2, 0, 255, two)
    t.failed[0] = two[0]
    t.failed[1] = two[1]
    try:
        items = tuple(tributes)
    except TypeError:
        items = (None,) * 3
    if len(items) > 2:
        raise ValueError(f"tributes must be at most 2 (payer, receiver) pairs; got {_quote(tributes)}")
    t.ntrib = len(items)
    for i in range(len(items)):
        _seats_arg(items[i], "tributes", 2, -1, 3, pair)
        t.tpayer[i] = pair[0]
        t.trecv[i] = pair[1]
    d1[0] = GR_OBS
    o = cnp.PyArray_ZEROS(1, d1, cnp.NPY_UINT8, 0)
    gr_encode(&t, s, <uint8_t*>cnp.PyArray_DATA(o))
    return o
