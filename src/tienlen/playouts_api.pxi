# The Python face of the native playouts and the plan: flat Monte Carlo, sampled places,
# PLAN's split.

cdef int _policy_arg(object policy) except -1:
    # By __index__, like every other int: `policy in (0, 1, 2)` would take 1.0 for GREEDY.
    try:
        p = _as_int(policy)
    except TypeError:
        p = -1
    if p != P_RANDOM and p != P_GREEDY and p != P_PLAN:
        raise ValueError(f"policy must be RANDOM (0), GREEDY (1) or PLAN (2); got {_quote(policy)}")
    return p


cdef GameState _state_arg(object obj):
    if not isinstance(obj, GameState):
        raise ValueError(f"state must be a GameState; got {type(obj).__name__}")
    return obj


cdef int _sample_counts(const State* st, uint64_t pool, int* counts) except -1:
    """Card counts the sampled hands need (0 for the acting seat); checks `pool` can deal them."""
    cdef int seat = st.turn, p, need = 0
    if st.players < 2:
        raise ValueError("this GameState was never initialised")
    if seat < 0:
        raise ValueError("the hand is over")
    if pool & st.hands[seat]:
        raise ValueError("unseen overlaps the acting seat's hand")
    for p in range(st.players):
        counts[p] = TL_POPCOUNT(st.hands[p]) if p != seat else 0
        need += counts[p]
    if TL_POPCOUNT(pool) < need:
        raise ValueError(f"unseen holds {TL_POPCOUNT(pool)} cards but the other hands need {need}")
    return 0


cdef int _mc_run(const State* start, uint64_t pool, const int* counts,
                 const uint64_t* act, const uint32_t* cd, int64_t na, int64_t samples,
                 uint64_t seed, int pol, int64_t* sums, int8_t* places,
                 const uint64_t* deals=NULL) noexcept nogil:
    """The sampling loop behind flat_monte_carlo, sampled_places and deal_places. `places`,
    if not NULL, receives an (na, samples) row-major array of the acting seat's places.
    `deals`, if not NULL, gives the other seats' hands of each sample (samples x players,
    row-major; the caller checked them) instead of drawing them from `pool`. Returns 0, -1
    if memory ran out, or INTERRUPTED if a signal handler raised (the exception is pending)."""
    cdef int seat = start.turn, k, failed = 0
    cdef int64_t d, a, since_check = 0
    cdef bint watch = tl_watch_signals()
    cdef State base, c
    cdef Rng deal_rng, r, r0
    cdef SplitMemo m
    cdef Plans base_plans, pl
    cdef SeatPlan* own = NULL
    m.slots = NULL
    if pol == P_PLAN:
        if memo_open(&m) < 0:
            return -1
        # The acting seat's hand is the same in every sample: plan its remainders once.
        own = <SeatPlan*>malloc((na if na > 0 else 1) * sizeof(SeatPlan))
        if own == NULL:
            memo_close(&m)
            return -1
        for a in range(na):
            plan_compute(&own[a], start.hands[seat] & ~act[a], &start.rules, &m)
    rng_seed(&deal_rng, seed)
    base = start[0]
    for d in range(samples):
        since_check += na
        if watch and since_check >= CHECK_PLAYOUTS:
            since_check = 0
            if tl_interrupted():
                failed = INTERRUPTED
                break
        if deals != NULL:
            for k in range(base.players):
                if k != seat:
                    base.hands[k] = deals[d * base.players + k]
        else:
            deal_from(&deal_rng, pool, counts, base.players, seat, base.hands)
        r0.s[0] = rng_next(&deal_rng)
        r0.s[1] = rng_next(&deal_rng)
        r0.s[2] = rng_next(&deal_rng)
        r0.s[3] = rng_next(&deal_rng) | 1
        if pol == P_PLAN:
            plans_init(&base_plans, &base, &m)
        for a in range(na):
            c = base
            r = r0
            if act[a] == 0:
                st_pass(&c)
            else:
                st_play(&c, act[a], cd[a])
            if pol == P_PLAN:
                pl = base_plans
                pl.seat[seat] = own[a]
                failed = st_plan_playout(&c, &pl, &m)
            else:
                failed = st_playout(&c, &r, pol)
            if failed:
                break
            for k in range(c.players):
                if c.order[k] == seat:
                    if sums != NULL:
                        sums[a] += k
                    if places != NULL:
                        places[a * samples + d] = k
                    break
        if failed:
            break
    free(own)
    memo_close(&m)
    return failed


cdef tuple _mc_actions(const State* st, object actions):
    """The candidate actions (legal moves then pass, or the caller's list, each checked
    against `st`) and their combo codes."""
    cdef uint64_t[::1] act
    cdef uint32_t[::1] cd
    cdef uint32_t code = 0
    cdef Py_ssize_t i
    cdef int reason
    if actions is None:
        moves = _moves_array(st.hands[st.turn], st.pile_code, &st.rules,
                             (st.locked >> st.turn) & 1, st.must_include)
        nm = len(moves)
        arr = np.zeros(nm + (st.pile_code != 0), np.uint64)
        arr[:nm] = moves
        codes = np.zeros(len(arr), np.uint32)
        if nm:
            # Every candidate's code is the same in every sample: classify once, not per playout.
            codes[:nm] = classify_many(moves, st.rules.flags)
        return arr, codes
    try:
        arr = np.array([_mask_arg(a, "action") for a in actions], dtype=np.uint64)
    except TypeError:
        raise ValueError(f"actions must be an iterable of masks; got {type(actions).__name__}") from None
    codes = np.zeros(len(arr), np.uint32)
    act = arr
    cd = codes
    for i in range(act.shape[0]):
        if act[i] == 0:
            reason = st_check_pass(st)
        else:
            reason = st_check_play(st, act[i], &code)
            cd[i] = code
        if reason != R_OK:
            raise ValueError(f"action {act[i]:#x} is not legal here: {REASON_NAMES[reason]}")
    return arr, codes


# Sampling sizes beyond these are refused up front: at a millisecond or more per sample,
# 2**24 samples is already hours of work, and a typo like 2**40 would be months.
MAX_SAMPLES = 1 << 24
# sampled_places keeps one byte per (action, sample): refuse results above 256 MiB.
MAX_PLACES = 1 << 28


def flat_monte_carlo(state, unseen, samples, seed, policy=P_GREEDY):
    """Information-set Monte Carlo for the seat to act in `state`.

    The acting seat's hand is taken as known; every other seat's hand is redrawn, for each of
    `samples` sampled deals (at most MAX_SAMPLES), from the cards of `unseen` with the same
    card counts. For every candidate action (each legal move, then pass if allowed) the
    action is applied and the hand played out by `policy`; all candidates share the same
    random stream per sample (common random numbers). Returns `(actions, place_sums)`: uint64
    actions (0 = pass) and, per action, the sum over samples of the acting seat's finishing
    place (0 = first). The state is copied first and the GIL released for the whole search;
    Ctrl-C interrupts it (KeyboardInterrupt).
    """
    cdef GameState gs = _state_arg(state)
    # A copy by value, taken while the GIL is held: another thread may change `state` as
    # soon as the GIL is released, and the search must see one consistent state.
    cdef State st = gs.s
    cdef uint64_t pool = _mask_arg(unseen, "unseen")
    cdef int pol = _policy_arg(policy)
    cdef uint64_t base_seed = _seed_arg(seed)
    cdef int counts[4]
    cdef int failed
    cdef int64_t n_samples = _int_arg(samples, "samples", 0, MAX_SAMPLES)
    _sample_counts(&st, pool, counts)
    actions, codes = _mc_actions(&st, None)
    sums = np.zeros(len(actions), np.int64)
    cdef const uint64_t[::1] act = actions
    cdef const uint32_t[::1] cd = codes
    cdef int64_t[::1] sm = sums
    cdef int64_t na = act.shape[0]
    if na == 0:
        return actions, sums
    with nogil:
        failed = _mc_run(&st, pool, counts, &act[0], &cd[0], na, n_samples,
                         base_seed, pol, &sm[0], NULL)
    if failed == INTERRUPTED:
        _raise_pending()
    if failed:
        raise MemoryError("flat_monte_carlo could not allocate its buffers")
    return actions, sums


def sampled_places(state, unseen, actions, samples, seed, policy=P_PLAN):
    """Finishing places of the acting seat after each of `actions`, in each sampled deal.

    Like flat_monte_carlo, but over the caller's candidate `actions` (masks, 0 = pass; each
    must be legal in `state`, or ValueError; None means every legal move, then pass if
    allowed) and keeping every sample: returns an int8 array
    of shape (len(actions), samples), places counted from 0 (first out). Sample d is the
    same deal for every action (common random numbers). `samples` is at most MAX_SAMPLES and
    the result at most MAX_PLACES entries. The state is copied first and the GIL released
    throughout; Ctrl-C interrupts it (KeyboardInterrupt).

    >>> state = GameState(deal(5))
    >>> moves = state.legal_moves()[:3]
    >>> places = sampled_places(state, FULL_DECK & ~state.hand(state.turn), moves, 8, seed=1)
    >>> places.shape, bool(((places >= 0) & (places < 4)).all())
    ((3, 8), True)
    """
    cdef GameState gs = _state_arg(state)
    cdef State st = gs.s            # by value, under the GIL (see flat_monte_carlo)
    cdef uint64_t pool = _mask_arg(unseen, "unseen")
    cdef int pol = _policy_arg(policy)
    cdef uint64_t base_seed = _seed_arg(seed)
    cdef int counts[4]
    cdef int failed
    cdef int64_t n = _int_arg(samples, "samples", 0, MAX_SAMPLES)
    _sample_counts(&st, pool, counts)
    arr, codes = _mc_actions(&st, actions)
    if len(arr) * n > MAX_PLACES:
        raise ValueError(f"{len(arr)} actions x {n} samples exceeds MAX_PLACES={MAX_PLACES}")
    out = np.zeros((len(arr), n), np.int8)
    cdef const uint64_t[::1] act = arr
    cdef const uint32_t[::1] cd = codes
    cdef int8_t[:, ::1] o = out
    cdef int64_t na = act.shape[0]
    if na == 0 or n == 0:
        return out
    with nogil:
        failed = _mc_run(&st, pool, counts, &act[0], &cd[0], na, n,
                         base_seed, pol, NULL, &o[0, 0])
    if failed == INTERRUPTED:
        _raise_pending()
    if failed:
        raise MemoryError("sampled_places could not allocate its buffers")
    return out


def plan(hand, flags=0):
    """The PLAN policy's plan for `hand`: the groups of a best split (fewest combinations,
    then fewest singles below a 2) as masks, weakest first with 2s and bombs last.

    >>> [hex(m) for m in plan(0b111 | 1 << 4 | 1 << 8)]    # 3♠ 3♣ 3♦ 4♠ 5♠
    ['0x6', '0x111']

    (the pair 3♣ 3♦, then the run 3♠ 4♠ 5♠: the sequence takes the lowest suits, and the
    weaker group, by top card, comes first)
    """
    cdef uint64_t h = _mask_arg(hand, "hand")
    cdef RuleTable rt
    cdef SplitMemo m
    cdef SeatPlan sp
    rules_decode(&rt, _flags_arg(flags))
    _memo_for(&m, P_PLAN)
    plan_compute(&sp, h, &rt, &m)
    memo_close(&m)
    return tuple(sp.mask[i] for i in range(sp.n))
