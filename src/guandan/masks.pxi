# The forms of a table's legal actions: the legality test every step and mask agree on,
# the variable list with action features, and the padded fixed-size form. Included by
# env.pxi.

cdef inline void gr_mask_update(const GTab* t, int8_t* row, int32_t* limit) noexcept nogil:
    """Make `row` (GR_PADDED int8) the padded mask of t's seat to act: [pass allowed, 1 for
    ids 1..num_legal up to GR_PADDED - 1, 0 ...], all 0 when nobody is to act. `limit` says
    what the row holds now (num_legal << 1 | pass, 0 for a zero row) and is updated: only
    the bytes between the old count and the new one are written (a learner's count moves by
    tens of ids a step, not 2,048)."""
    cdef int64_t now = t.nmoves if gr_turn(t) >= 0 else 0
    cdef int32_t prev = limit[0] >> 1
    cdef int8_t passing = gr_legal(t, 0)
    if now > GR_PADDED - 1:
        now = GR_PADDED - 1
    row[0] = passing
    if now > prev:
        memset(row + 1 + prev, 1, now - prev)
    elif now < prev:
        memset(row + 1 + now, 0, prev - now)
    limit[0] = <int32_t>((now << 1) | passing)


cdef inline bint gr_legal(const GTab* t, int64_t a) noexcept nogil:
    """Action ids: 0 passes (play phase, on a pile), 1..nmoves take the listed action."""
    if gr_turn(t) < 0 or a < 0 or a > t.nmoves:
        return False
    return a > 0 or (t.phase == GR_PLAY and t.s.pile_code != 0)


cdef inline uint64_t gr_wild_bit(const GTab* t) noexcept nogil:
    cdef int face = wild_id(t.s.level, t.s.flags)
    return 0 if face < 0 else (<uint64_t>1) << face


cdef inline void gr_reading(const GTab* t, int64_t i, uint8_t* r, uint64_t wb) noexcept nogil:
    """The reading of listed action i (0-based): kind, rank, size, wilds used (`wb`: the
    wild card's bit, gr_wild_bit)."""
    cdef uint32_t code
    cdef int face
    if t.phase == GR_PLAY:
        code = t.codes[i]
        r[0] = ckind(code)
        r[1] = crank(code)
        r[2] = csize(code)
        r[3] = ((t.masks[2 * i] & wb) != 0) + ((t.masks[2 * i + 1] & wb) != 0)
        return
    face = GD_CTZ(t.masks[2 * i])
    r[0] = GR_KIND_TRIBUTE if t.phase == GR_TRIBUTE else GR_KIND_RETURN
    r[1] = (face // 4 + 2) if face < 52 else (R_SMALL_JOKER if face == SJ_ID else R_BIG_JOKER)
    r[2] = 1
    r[3] = 0


cdef inline void gr_set_bits(uint8_t* o, uint64_t m) noexcept nogil:
    """o[k] = 1 for every set bit k of m (o already zeroed): a play holds few cards, so
    visiting its bits beats expanding all 54."""
    while m:
        o[GD_CTZ(m)] = 1
        m &= m - 1


cdef int64_t gr_features(const GTab* t, int64_t rows, int64_t* ids, uint8_t* cards,
                         uint8_t* reading) noexcept nogil:
    """The variable list: pass first (where allowed), then every listed action, each with
    its action id, card vector (2 x 54) and reading. Writes every byte of at most `rows`
    rows into `cards` / `reading` (no need to zero them first: one sequential pass of
    8-byte lookups, where zeroing and then setting each card's byte wrote the ~84 KB of a
    27-card lead's cards twice); returns how many the list has (it may be more than were
    written)."""
    cdef int64_t n = 0, i, top
    cdef uint8_t* c
    cdef uint64_t wb = gr_wild_bit(t)
    if gr_turn(t) < 0:
        return 0
    if t.phase == GR_PLAY and t.s.pile_code != 0:
        if rows > 0:
            ids[0] = 0                    # pass: no cards, reading all 0
            memset(cards, 0, GR_CARDS)
            memset(reading, 0, GR_READING)
        n = 1
    top = t.nmoves if t.nmoves < rows - n else rows - n
    for i in range(top if top > 0 else 0):
        ids[n + i] = i + 1
        c = cards + GR_CARDS * (n + i)
        gr_cards(c, t.masks[2 * i], t.masks[2 * i + 1])
        gr_reading(t, i, reading + GR_READING * (n + i), wb)
    return n + t.nmoves


cdef void gr_padded(const GTab* t, int64_t k, int8_t* mask, uint8_t* cards,
                    uint8_t* reading) noexcept nogil:
    """The padded form: row a is action id a (0 pass) for a < k, mask[a] = 1 where legal;
    every other row is zero."""
    cdef int64_t i, top
    cdef uint8_t* c
    cdef uint64_t wb = gr_wild_bit(t)
    memset(mask, 0, k)
    memset(cards, 0, k * GR_CARDS)
    memset(reading, 0, k * GR_READING)
    if gr_turn(t) < 0:
        return
    mask[0] = t.phase == GR_PLAY and t.s.pile_code != 0
    top = t.nmoves if t.nmoves < k - 1 else k - 1
    for i in range(top):
        mask[i + 1] = 1
        c = cards + GR_CARDS * (i + 1)
        gr_set_bits(c, t.masks[2 * i])
        gr_set_bits(c + 54, t.masks[2 * i + 1])
        gr_reading(t, i, reading + GR_READING * (i + 1), wb)


cdef str _gr_legal_text(const GTab* t):
    if gr_turn(t) < 0:
        return "the match is over"
    return (f"{t.nmoves} legal actions (ids 1..{t.nmoves})"
            + (", and pass (id 0)" if t.phase == GR_PLAY and t.s.pile_code != 0 else "; no pass"))


cdef tuple _gr_features_arrays(const GTab* t):
    """(ids, cards, reading) arrays of the variable list, made by the NumPy C API (a Python
    call to numpy.zeros per array cost a microsecond of a 27-card lead's ~15)."""
    cdef int64_t n = gr_features(t, 0, NULL, NULL, NULL)
    cdef cnp.npy_intp d1[1]
    cdef cnp.npy_intp d2[2]
    d1[0] = n
    ids = cnp.PyArray_EMPTY(1, d1, cnp.NPY_INT64, 0)
    d2[0] = n
    d2[1] = GR_CARDS
    cards = cnp.PyArray_EMPTY(2, d2, cnp.NPY_UINT8, 0)      # gr_features writes every byte
    d2[1] = GR_READING
    reading = cnp.PyArray_EMPTY(2, d2, cnp.NPY_UINT8, 0)
    if n:
        gr_features(t, n, <int64_t*>cnp.PyArray_DATA(ids), <uint8_t*>cnp.PyArray_DATA(cards),
                    <uint8_t*>cnp.PyArray_DATA(reading))
    return ids, cards, reading


def legal_action_features(once, twice, level, pile_code=0, flags=0):
    """(ids, cards, reading) of every legal play of the hand (once, twice) on `pile_code`
    (0: a lead), as an env lists them: pass first (id 0) on a pile, then the plays in the
    core's order (ids 1..n); `cards` uint8 (m, 108): the play's card types held once, then
    twice; `reading` uint8 (m, 4): kind, rank, size, wild cards used.

    >>> ids, cards, reading = legal_action_features(1 << 13 | 1 << 1, 1 << 13, 2)  # 5♥ 5♥ 2♥
    >>> ids.tolist()
    [1, 2, 3, 4, 5]
    >>> reading.tolist()     # kind, rank, size, wilds: at level 2 the 2♥ is wild
    [[1, 2, 1, 1], [1, 5, 1, 0], [2, 5, 2, 0], [2, 5, 2, 1], [3, 5, 3, 1]]
    >>> cards[4].nonzero()[0].tolist()     # 5♥ 5♥ 2♥: once 2♥ (1) and 5♥ (13), twice 5♥ (54 + 13)
    [1, 13, 67]
    """
    cdef uint64_t hm[2]
    cdef GTab t
    cdef int lv, f
    cdef uint32_t p
    cdef GCfg cfg
    _hand_arg(once, twice, "hand", hm)
    lv = _level_arg(level)
    f = _flags_arg(flags)
    p = _code_arg(pile_code, lv, f, "pile_code", True)
    if hm[0] == 0:
        raise ValueError("the hand is empty: it has no plays")
    memset(&t, 0, sizeof(GTab))
    t.phase = GR_PLAY
    t.s.once[0] = hm[0]
    t.s.twice[0] = hm[1]
    t.s.level = lv
    t.s.flags = f
    t.s.team0 = 0b0101
    t.s.turn = 0
    t.s.pile_code = p
    t.s.owner = -1 if p == 0 else 1
    cfg.flags = f
    try:
        # Sized by the closed-form count first, so the listing runs once.
        if gr_reserve(&t, count_plays(hm[0], hm[1], lv, p, f)) < 0 or gr_refresh(&t, &cfg) < 0:
            raise MemoryError("no room for the legal plays")
        return _gr_features_arrays(&t)
    finally:
        free(t.masks)
        free(t.codes)
