# Inference for the sampling search (L3): which deals of the unseen cards fit what the
# other seats did.
#
# A uniform deal of the unseen cards ignores everything the opponents showed: a seat that
# led a pair of 9s rarely still holds a lone 4, a seat that passed on a 7 rarely holds a
# spare 8. `scored_deals` draws deals as sampled_places does and counts, for each, how many
# of the opponents' recorded decisions the PLAN policy (the search's own model of an
# opponent, plan.pxi) would NOT have made with the hand that deal gives them; the caller
# weighs deals by those counts and plays the chosen ones out with `deal_places`.
#
# A record is one past decision of an opponent: the public state just before it (a
# GameState whose hands have the right sizes; only the deciding seat's hand is replaced),
# the seat, the cards that seat played from then on (so its hand then is its sampled hand
# now plus those), and what it did (0 for a pass).


cdef struct DealRecord:
    State state
    uint64_t later
    uint64_t counts       # nibble counts of what the seat did (0 for a pass)
    int seat


cdef int _record_misses(const DealRecord* recs, int64_t nrec, const uint64_t* hands,
                        Plans* pl, SplitMemo* m, uint64_t* buf) noexcept nogil:
    """How many of the records the PLAN policy does not reproduce with `hands` (the seats'
    hands now). A move counts as reproduced when it has the same ranks (suits are a matter
    of taste between equal splits). Returns -1 if a move list could not be allocated."""
    cdef int64_t i
    cdef int seat, misses = 0
    cdef State s
    cdef uint64_t before
    for i in range(nrec):
        s = recs[i].state
        seat = recs[i].seat
        before = hands[seat] | recs[i].later
        if s.must_include >= 0 and not ((before >> s.must_include) & 1):
            # The seat had to lead this card (R7.2), so it held it: this deal cannot be.
            misses += 1
            continue
        s.hands[seat] = before
        plan_compute(&pl.seat[seat], before, &s.rules, m)
        if st_plan_step(&s, pl, m, buf, STACK_MOVES) < 0:
            return -1
        if nibble_counts(before & ~s.hands[seat]) != recs[i].counts:
            misses += 1
    return misses


cdef int _scored_run(const State* start, uint64_t pool, const int* counts,
                     const DealRecord* recs, int64_t nrec, int64_t samples, uint64_t seed,
                     uint64_t* deals, int32_t* misses) noexcept nogil:
    """Draw `samples` deals (samples x players, the acting seat's column is its own hand)
    and count each one's misses. Returns 0, -1 if memory ran out, or INTERRUPTED."""
    cdef int seat = start.turn, p, failed = 0, k
    cdef int64_t d, since_check = 0
    cdef bint watch = tl_watch_signals()
    cdef uint64_t hands[4]
    cdef uint64_t buf[STACK_MOVES]
    cdef Rng deal_rng
    cdef SplitMemo m
    cdef Plans pl
    if memo_open(&m) < 0:
        return -1
    rng_seed(&deal_rng, seed)
    for p in range(4):
        hands[p] = start.hands[p]
    for d in range(samples):
        since_check += 1 + nrec
        if watch and since_check >= CHECK_PLAYOUTS:
            since_check = 0
            if tl_interrupted():
                failed = INTERRUPTED
                break
        deal_from(&deal_rng, pool, counts, start.players, seat, hands)
        # _mc_run draws a playout stream after each deal: draw it too, so that the same
        # seed gives sampled_places' deals (and a test can compare the two).
        for p in range(4):
            rng_next(&deal_rng)
        for p in range(start.players):
            deals[d * start.players + p] = hands[p]
        k = _record_misses(recs, nrec, hands, &pl, &m, buf)
        if k < 0:
            failed = -1
            break
        misses[d] = k
    memo_close(&m)
    return failed


cdef DealRecord* _records_arg(const State* st, uint64_t pool, object records, int64_t* nrec) except? NULL:
    """The records as structs (malloc'd; NULL when there are none), each checked: the state
    is valid, the seat is another seat and is to act there, its hand then can be the
    sampled hand plus the cards it played later, and what it did was among those cards."""
    cdef DealRecord* recs
    cdef GameState gs
    cdef int64_t i, n
    cdef int seat, s
    cdef uint64_t later, did
    try:
        records = list(records)
    except TypeError:
        raise ValueError(f"records must be an iterable of (state, seat, later, action); "
                         f"got {type(records).__name__}") from None
    n = len(records)
    nrec[0] = n
    if n == 0:
        return NULL
    recs = <DealRecord*>malloc(n * sizeof(DealRecord))
    if recs == NULL:
        raise MemoryError("could not allocate the records")
    try:
        for i in range(n):
            try:
                state, seat_obj, later_obj, did_obj = records[i]
            except (TypeError, ValueError):
                raise ValueError(f"records[{i}] must be (state, seat, later, action); "
                                 f"got {_quote(records[i])}") from None
            gs = _state_arg(state)
            seat = _small_int_arg(seat_obj, f"records[{i}] seat", 0, st.players - 1)
            later = _mask_arg(later_obj, f"records[{i}] later")
            did = _mask_arg(did_obj, f"records[{i}] action")
            if gs.s.players != st.players or gs.s.rules.flags != st.rules.flags:
                raise ValueError(f"records[{i}]: the state is of another game (players, rules)")
            if seat == st.turn:
                raise ValueError(f"records[{i}]: the acting seat's own decisions tell nothing")
            if gs.s.turn != seat:
                raise ValueError(f"records[{i}]: seat {seat} is not to act in its state")
            if later & (pool | st.hands[0] | st.hands[1] | st.hands[2] | st.hands[3]):
                raise ValueError(f"records[{i}]: later holds cards that were not played")
            if did & ~later:
                raise ValueError(f"records[{i}]: the action is not among the later cards")
            if TL_POPCOUNT(gs.s.hands[seat]) != TL_POPCOUNT(st.hands[seat]) + TL_POPCOUNT(later):
                raise ValueError(f"records[{i}]: seat {seat} held {TL_POPCOUNT(gs.s.hands[seat])} "
                                 f"cards then, not its {TL_POPCOUNT(st.hands[seat])} now plus "
                                 f"the {TL_POPCOUNT(later)} it played later")
            recs[i].state = gs.s
            recs[i].seat = seat
            recs[i].later = later
            recs[i].counts = nibble_counts(did)
    except BaseException:
        free(recs)
        raise
    return recs


def scored_deals(state, unseen, samples, seed, records):
    """Deals of `unseen` to the other seats, each with the number of `records` it misses.

    Deals are drawn as in sampled_places (each other seat keeps its card count; the same
    `seed` gives the same deals as sampled_places draws). A record is ``(state, seat, later, action)``: a past
    decision of another seat, the GameState just before it (hands of the right sizes; the
    seat's is replaced), the cards the seat played from then on, and what it played then (0
    for a pass). A deal misses a record when the PLAN policy, given the seat's hand then
    (its hand in the deal plus `later`), would not play the same ranks. Returns
    ``(deals, misses)``: a uint64 array (samples, players), the acting seat's column its own
    hand, and an int32 array (samples,). Raises ValueError on a record that does not fit
    `state`; the GIL is released and Ctrl-C honoured.

    >>> state = GameState(deal(5))
    >>> deals, misses = scored_deals(state, FULL_DECK & ~state.hand(state.turn), 4, 1, [])
    >>> deals.shape, misses.tolist()
    ((4, 4), [0, 0, 0, 0])
    """
    cdef GameState gs = _state_arg(state)
    cdef State st = gs.s            # by value, under the GIL (see flat_monte_carlo)
    cdef uint64_t pool = _mask_arg(unseen, "unseen")
    cdef uint64_t base_seed = _seed_arg(seed)
    cdef int64_t n = _int_arg(samples, "samples", 0, MAX_SAMPLES)
    cdef int counts[4]
    cdef int failed
    cdef int64_t nrec = 0
    _sample_counts(&st, pool, counts)
    cdef DealRecord* recs = _records_arg(&st, pool, records, &nrec)
    deals = np.zeros((n, st.players), np.uint64)
    misses = np.zeros(n, np.int32)
    cdef uint64_t[:, ::1] dv = deals
    cdef int32_t[::1] mv = misses
    if n == 0:
        free(recs)
        return deals, misses
    with nogil:
        failed = _scored_run(&st, pool, counts, recs, nrec, n, base_seed, &dv[0, 0], &mv[0])
    free(recs)
    if failed == INTERRUPTED:
        _raise_pending()
    if failed:
        raise MemoryError("scored_deals could not allocate its buffers")
    return deals, misses


def deal_places(state, deals, actions, policy=P_PLAN, seed=0):
    """Like sampled_places, over the caller's deals instead of random ones (`seed` only
    drives the RANDOM and GREEDY playouts; PLAN draws nothing): `deals` is a
    (samples, players) array of hands (as scored_deals returns; the acting seat's column is
    ignored, its own hand is used), each row a deal of the hidden cards that keeps every
    seat's card count and touches neither the acting seat's hand nor the played cards
    (ValueError otherwise). Returns the int8 places array (len(actions), samples).

    >>> state = GameState(deal(5))
    >>> deals, _ = scored_deals(state, FULL_DECK & ~state.hand(state.turn), 8, 1, [])
    >>> moves = state.legal_moves()[:3]
    >>> bool((deal_places(state, deals, moves) == sampled_places(
    ...     state, FULL_DECK & ~state.hand(state.turn), moves, 8, seed=1)).all())
    True
    """
    cdef GameState gs = _state_arg(state)
    cdef State st = gs.s
    cdef int pol = _policy_arg(policy)
    cdef uint64_t base_seed = _seed_arg(seed)
    cdef int counts[4]
    cdef int failed, p, seat
    cdef int64_t n, d
    cdef uint64_t taken, h, outside
    if st.players < 2:
        raise ValueError("this GameState was never initialised")
    seat = st.turn
    if seat < 0:
        raise ValueError("the hand is over")
    # The actions first: their __index__ is Python code, which may write `deals`. Then the
    # deals are copied (arrays.pxi: the rows and columns the buffer really has, whatever
    # deals.shape says), and only the copy is checked and played, so neither that code nor
    # another thread can change a deal between its check and its playouts.
    arr_act, codes = _mc_actions(&st, actions)
    if not isinstance(deals, cnp.ndarray):
        try:
            deals = np.array(deals, dtype=np.uint64)
        except (TypeError, ValueError, OverflowError):
            raise ValueError(f"deals must be an array of card masks; got {_quote(deals)}") from None
    # Any integer dtype, as int64 (a mask is below 2**52; a negative one is refused below as
    # bits above 51), read as uint64.
    cdef cnp.ndarray arr = array_in(deals, "deals", cnp.NPY_INT64, 2, -1, st.players, AR_ANY_INT)
    n = cnp.PyArray_DIM(arr, 0)
    if n > MAX_SAMPLES:
        raise ValueError(f"at most MAX_SAMPLES={MAX_SAMPLES} deals; got {n}")
    cdef const uint64_t* dv = <const uint64_t*>cnp.PyArray_DATA(arr)
    outside = st.hands[seat] | st.played | st.pile_mask
    for d in range(n):
        taken = 0
        for p in range(st.players):
            if p == seat:
                continue
            h = dv[d * st.players + p]
            if h >> 52 or h & (taken | outside) or TL_POPCOUNT(h) != TL_POPCOUNT(st.hands[p]):
                raise ValueError(f"deals[{d}] is not a deal of the hidden cards: seat {p}'s "
                                 f"hand {h:#x} overlaps, or its size is not {TL_POPCOUNT(st.hands[p])}")
            taken |= h
    if len(arr_act) * n > MAX_PLACES:
        raise ValueError(f"{len(arr_act)} actions x {n} deals exceeds MAX_PLACES={MAX_PLACES}")
    out = np.zeros((len(arr_act), n), np.int8)
    cdef const uint64_t[::1] act = arr_act
    cdef const uint32_t[::1] cd = codes
    cdef int8_t[:, ::1] o = out
    cdef int64_t na = act.shape[0]
    for p in range(4):
        counts[p] = 0
    if na == 0 or n == 0:
        return out
    with nogil:
        failed = _mc_run(&st, 0, counts, &act[0], &cd[0], na, n, base_seed, pol, NULL, &o[0, 0],
                         dv)
    if failed == INTERRUPTED:
        _raise_pending()
    if failed:
        raise MemoryError("deal_places could not allocate its buffers")
    return out
