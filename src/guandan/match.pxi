# Tribute, return and the level settlement (GUANDAN.md G6, G7): the one implementation of
# these rules. The vectorised env (env.pxi) calls the gm_* functions without the GIL;
# tienlen.guandan.game (tribute_candidates, return_candidates, Game's tribute setup and
# delivery) and tienlen.guandan.match (level_gain, settle) call the Python functions below,
# which check their arguments and call the same gm_* functions. Teams are given as the
# core's team0 bits (the two seats of the team holding seat 0), so any partnership works.

cdef inline int gm_face_value(int face, int level) noexcept nogil:
    """A card type's single-card value (G1.5; the wild is a level card)."""
    if face >= 52:
        return single_value(R_SMALL_JOKER if face == SJ_ID else R_BIG_JOKER, level)
    return single_value(face // 4 + 2, level)


cdef inline int gm_mate(int seat, int team0) noexcept nogil:
    """The partner of `seat` under the team0 bits."""
    cdef int mine = team0 if (team0 >> seat) & 1 else (~team0) & 15
    return GD_CTZ(<uint64_t>(mine & ~(1 << seat)))


cdef uint64_t gm_tribute_faces(uint64_t held, int level, int flags, int tribute_wild) noexcept nogil:
    """G6.3: the card types a payer holding `held` (a mask of types) may give: every type of
    the highest single-card value among those allowed (the wild only with tribute_wild).
    0 when none is allowed (G6.10)."""
    cdef int wid = wild_id(level, flags), face, v, top = -1
    cdef uint64_t m, out = 0
    if wid >= 0 and not tribute_wild:
        held &= ~((<uint64_t>1) << wid)
    m = held
    while m:
        face = GD_CTZ(m)
        m &= m - 1
        v = gm_face_value(face, level)
        if v > top:
            top = v
            out = 0
        if v == top:
            out |= (<uint64_t>1) << face
    return out


cdef uint64_t gm_return_faces(uint64_t held, int level, int return_max) noexcept nogil:
    """G6.4: the types a receiver may return: naturals of rank 2 .. return_max other than
    the level rank; holding none, every type of the lowest single-card value."""
    cdef uint64_t m = held & NAT_MASK, out = 0
    cdef int face, rank, v, low = 99
    while m:
        face = GD_CTZ(m)
        m &= m - 1
        rank = face // 4 + 2
        if rank <= return_max and rank != level:
            out |= (<uint64_t>1) << face
    if out:
        return out
    m = held
    while m:
        face = GD_CTZ(m)
        m &= m - 1
        v = gm_face_value(face, level)
        if v < low:
            low = v
            out = 0
        if v == low:
            out |= (<uint64_t>1) << face
    return out


cdef int gm_tribute_payers(const int8_t* prev, int team0, const int* big_jokers,
                           int8_t* payers, int* anti) noexcept nogil:
    """G6.2, G6.6: who pays tribute after a hand finished in order `prev` (first out
    first); `big_jokers[seat]` is how many ★ the seat holds in the new deal. Writes the
    payers in turn order after the first out and returns how many (1 or 2); 0 with
    anti = 1 when the paying side holds both ★ (抗贡: the first out then leads)."""
    cdef int first = prev[0], mate = gm_mate(prev[0], team0), place = 1, n, big = 0, i, tmp
    while prev[place] != mate:
        place += 1
    if place == 1:
        payers[0] = prev[2]
        payers[1] = prev[3]
        n = 2
    else:
        payers[0] = prev[3] if place == 2 else prev[2]
        n = 1
    for i in range(n):
        big += big_jokers[payers[i]]
    anti[0] = big >= 2
    if anti[0]:
        return 0
    if n == 2 and ((payers[1] - first) & 3) < ((payers[0] - first) & 3):
        tmp = payers[0]
        payers[0] = payers[1]
        payers[1] = tmp
    return n


cdef inline bint gm_tribute_swap(int card0, int card1, int level) noexcept nogil:
    """G6.5: with two tributes (given in turn order), whether the second payer's card goes
    to the first out: it is strictly higher (equal cards go in turn order)."""
    return gm_face_value(card1, level) > gm_face_value(card0, level)


cdef inline int gm_level_gain(int partner_place, int double_down) noexcept nogil:
    """G7.1: levels the first out's team gains, its partner having finished 2nd, 3rd or
    4th (partner_place 2, 3, 4)."""
    return double_down if partner_place == 2 else (2 if partner_place == 3 else 1)


cdef void gm_settle(int* levels, int* failed, int declarer, const int8_t* places,
                    int team0, int double_down, int fail_limit, int* win, int* gain,
                    int* won) noexcept nogil:
    """G7: levels and failed attempts at A after a hand finished in `places` (first out
    first), played at team `declarer`'s level (-1: a match's first hand). Updates levels
    and failed in place; win: the first out's team (0 holds seat 0), gain, won: the match
    is won (G7.3, the gain is then 0 and nothing changes)."""
    cdef int first = places[0], mate = gm_mate(places[0], team0), pp = 1, w
    while places[pp - 1] != mate:
        pp += 1
    w = 0 if (team0 >> first) & 1 else 1
    win[0] = w
    gain[0] = gm_level_gain(pp, double_down)
    won[0] = 0
    if declarer >= 0 and levels[declarer] == 14:
        if w == declarer and (pp == 2 or pp == 3):
            won[0] = 1                                  # G7.3: 过A
            gain[0] = 0
            return
        failed[declarer] += 1                           # G7.4: a failed attempt
    levels[w] = levels[w] + gain[0] if levels[w] + gain[0] < 14 else 14     # G7.1, G7.2
    if declarer >= 0 and fail_limit and failed[declarer] >= fail_limit:    # G7.6
        levels[declarer] = 2
        failed[declarer] = 0


# ---------------------------------------------------------------- the Python entry points

cdef int _team0_arg(object team0) except -1:
    cdef int t = <int>_int_arg(team0, "team0", 0, 15)
    if GD_POPCOUNT(<uint64_t>t) != 2 or not (t & 1):
        raise ValueError(f"team0 must be the bits of two seats, seat 0 among them; got {_quote(team0)}")
    return t


cdef int _order_arg(object order, str name, int8_t* out) except -1:
    cdef int i, seen = 0
    try:
        items = tuple(order)
    except TypeError:
        raise ValueError(f"{name} must list the four seats; got {_quote(order)}") from None
    if len(items) != 4:
        raise ValueError(f"{name} must list the four seats; got {_quote(order)}")
    for i in range(4):
        out[i] = <int8_t>_int_arg(items[i], name, 0, 3)
        seen |= 1 << out[i]
    if seen != 15:
        raise ValueError(f"{name} must list the four seats, each once; got {_quote(order)}")
    return 0


def tribute_faces(once, twice, level, flags=0, can_tribute_wild=False):
    """G6.3: the card types (a mask) a payer holding (once, twice) may give as tribute:
    every type of the highest single-card value, the wild only with `can_tribute_wild`;
    0 when none may be given.

    >>> tribute_faces(1 << 53 | 1 << 1, 0, 2) == 1 << 53      # ★ and the wild 2♥
    True
    """
    cdef uint64_t hm[2]
    _hand_arg(once, twice, "hand", hm)
    return gm_tribute_faces(hm[0], _level_arg(level), _flags_arg(flags),
                            1 if can_tribute_wild else 0)


def return_faces(once, twice, level, tribute_return_max_rank=10):
    """G6.4: the card types (a mask) a receiver holding (once, twice) may return."""
    cdef uint64_t hm[2]
    _hand_arg(once, twice, "hand", hm)
    return gm_return_faces(hm[0], _level_arg(level),
                           <int>_int_arg(tribute_return_max_rank, "tribute_return_max_rank", 2, 14))


def tribute_payers(previous_order, big_jokers, team0=0b0101):
    """G6.2, G6.6: (payers, anti_tribute) after a hand that finished in `previous_order`:
    the seats that pay, in turn order after the first out (empty when the paying side
    holds both ★ between them: anti-tribute); `big_jokers[seat]`: the ★ each seat holds in
    the new deal (0..2); `team0`: the bits of the team holding seat 0."""
    cdef int8_t prev[4]
    cdef int8_t payers[2]
    cdef int big[4]
    cdef int anti = 0, n, i
    _order_arg(previous_order, "previous_order", prev)
    t0 = _team0_arg(team0)
    try:
        counts = tuple(big_jokers)
    except TypeError:
        raise ValueError(f"big_jokers must be 4 counts; got {_quote(big_jokers)}") from None
    if len(counts) != 4:
        raise ValueError(f"big_jokers must be 4 counts; got {_quote(big_jokers)}")
    for i in range(4):
        big[i] = <int>_int_arg(counts[i], "big_jokers", 0, 2)
    n = gm_tribute_payers(prev, t0, big, payers, &anti)
    return tuple(payers[i] for i in range(n)), bool(anti)


def tribute_swap(first_card, second_card, level):
    """G6.5: whether, of two tributes given in turn order, the second payer's card goes to
    the first out (it is higher; equal cards go in turn order)."""
    return gm_tribute_swap(<int>_int_arg(first_card, "first_card", 0, 53),
                           <int>_int_arg(second_card, "second_card", 0, 53), _level_arg(level))


def level_gain(partner_place, double_down_levels=3):
    """G7.1: levels the first out's team gains when its partner finished 2nd, 3rd, 4th."""
    return gm_level_gain(<int>_int_arg(partner_place, "partner_place", 2, 4),
                         <int>_int_arg(double_down_levels, "double_down_levels", 1, 12))


def settle_levels(levels, failed, declarer, places, team0=0b0101, double_down_levels=3,
                  failed_attempts_limit=3):
    """G7: ((level, level), (failed, failed), match_won, gain, winning team) after a hand
    that finished in `places` (first out first), played at team `declarer`'s level (-1 in
    a match's first hand); teams by `team0`'s bits (team 0 holds seat 0).

    >>> settle_levels((14, 9), (2, 0), 0, (1, 3, 0, 2))
    ((2, 12), (0, 0), False, 3, 1)
    """
    cdef int lv[2]
    cdef int fa[2]
    cdef int8_t pl[4]
    cdef int win = 0, gain = 0, won = 0, i, d
    cdef int64_t f
    try:
        lvs = tuple(levels)
        fas = tuple(failed)
    except TypeError:
        raise ValueError(f"levels and failed must be pairs; got {_quote(levels)}, {_quote(failed)}") from None
    if len(lvs) != 2 or len(fas) != 2:
        raise ValueError(f"levels and failed must be pairs; got {_quote(levels)}, {_quote(failed)}")
    for i in range(2):
        lv[i] = _level_arg(lvs[i])
        f = _int_arg(fas[i], "failed", 0, 1 << 30)
        fa[i] = <int>f
    d = <int>_int_arg(declarer, "declarer", -1, 1)
    _order_arg(places, "places", pl)
    t0 = _team0_arg(team0)
    gm_settle(lv, fa, d, pl, t0, <int>_int_arg(double_down_levels, "double_down_levels", 1, 12),
              <int>_int_arg(failed_attempts_limit, "failed_attempts_limit", 0, 1 << 20),
              &win, &gain, &won)
    return (lv[0], lv[1]), (fa[0], fa[1]), bool(won), gain, win
