# Scoring actions over many sampled deals in one call, on several threads: the inner loop of
# L3's search (tienlen.games.guandan.bots.sample_scores) and of the review.
#
# For each deal (a GdState, all with the same seat to act and the same public position) and
# each action of that seat: the value to `seat`'s team of the hand after the action (G7.1, as
# the solver scores it: gsv_score), by the exact endgame solver within a node budget when one
# is given, else, or where the budget runs out, by one playout of `policy` seeded with the
# deal's seed (the same seed for every action: the actions are compared on the same luck).
# Each deal is scored alone (its own solver tables), so the values do not depend on how the
# deals are split across threads or calls: n deals in one call on t threads give exactly
# what n calls of one deal give. A batch (DealScoring) is scored on native threads of its own,
# which never take the GIL: the Python thread that started it samples the next deals
# meanwhile and collects the values when it wants them (a Python worker thread would have to
# take the GIL back to return them, and waits up to the interpreter's switch interval, 5 ms,
# for a thread that is running Python code to hand it over).

cdef enum:
    SC_MAX_THREADS = 16
    SC_MAX_DEALS = 1 << 20
    SC_MAX_ACTIONS = 4096


cdef struct ScoreJob:
    const GState* states
    const uint64_t* seeds
    const uint64_t* acts        # 3 per action: once, twice, code (a pass is all zeros)
    int na
    Py_ssize_t nd               # deals in all (the row stride of `out`)
    Py_ssize_t lo               # this job's deals: lo .. hi - 1
    Py_ssize_t hi
    int team                    # seat bits of the team scored
    int dd
    int policy
    int64_t solve_nodes         # 0: playouts only
    int8_t* out                 # (na, nd), row-major
    int64_t solved              # values the solver proved, of this job's
    int failed                  # 1: memory ran out
    int* running                # the batch's count of threads still scoring
    long long end_ns            # when this job's deals were done (tl_now_ns)
    # sample_values only: the deals are drawn here, deal k from the decision's seed
    const Sampler* sampler
    const GState* base          # the public position; the hands are each deal's
    uint64_t seed
    long long first             # the first deal's number (deal first + k fills column k)
    long long* next             # the next deal to claim, shared by the threads
    long long deadline_ns       # 0: none; else no deal is claimed after it but the first
    int* stop                   # raised on an interrupt: no more deals are claimed
    bint watch                  # this thread handles signals (the caller, on the main thread)


cdef inline int _sc_playout_value(const GState* s, int team, int dd) noexcept nogil:
    """gsv_score of a finished playout without a solver's tables: the same rule (G7.1)."""
    cdef Gsv sv
    sv.team = team
    sv.dd = dd
    return gsv_score(&sv, s)


cdef int _score_deal(ScoreJob* j, const GState* st, uint64_t seed, Py_ssize_t col) noexcept nogil:
    """Every action of job j scored on one deal into column `col` of j.out: the solver's
    exact value within j.solve_nodes nodes an action (one table for the deal's actions),
    else a playout seeded with `seed`. 0, or -1 when memory ran out."""
    cdef int i, v = 0, r
    cdef GState c
    cdef Gsv sv
    cdef Rng rng
    cdef int64_t dec = 0
    cdef bint open_sv = False
    cdef const uint64_t* a
    if j.solve_nodes > 0:
        if gsv_open(&sv, j.team, j.dd, j.solve_nodes, False) < 0:
            gsv_close(&sv)
            return -1
        open_sv = True
    for i in range(j.na):
        a = &j.acts[3 * i]
        c = st[0]
        if a[0]:
            gs_play(&c, a[0], a[1], <uint32_t>a[2])
        else:
            gs_pass(&c)
        if open_sv:
            sv.limit = sv.nodes + j.solve_nodes
            r = gsv_value(&sv, &c, &v)
            if r == 0:
                j.out[i * j.nd + col] = <int8_t>v
                j.solved += 1
                continue
            if sv.status != GSV_NODE_LIMIT:
                gsv_close(&sv)
                return -1
            sv.status = GSV_OK
        rng_seed(&rng, seed)
        if gs_playout(&c, &rng, j.policy, &dec) < 0:
            if open_sv:
                gsv_close(&sv)
            return -1
        j.out[i * j.nd + col] = <int8_t>_sc_playout_value(&c, j.team, j.dd)
    if open_sv:
        gsv_close(&sv)
    return 0


cdef void* _score_run(void* arg) noexcept nogil:
    """A batch's share of given deals: j.states[lo:hi] with their seeds."""
    cdef ScoreJob* j = <ScoreJob*>arg
    cdef Py_ssize_t d
    for d in range(j.lo, j.hi):
        if _score_deal(j, &j.states[d], j.seeds[d], d) < 0:
            j.failed = 1
            return NULL
    return NULL


cdef void* _score_thread(void* arg) noexcept nogil:
    """A batch's native thread: its share of the deals, then (its last touch of the batch's
    memory, which may be freed as soon as the count reaches zero) one off the count."""
    cdef ScoreJob* j = <ScoreJob*>arg
    _score_run(arg)
    j.end_ns = tl_now_ns()
    tl_add(j.running, -1)
    return NULL


cdef int _actions_into(list items, uint64_t* acts) except -1:
    """Each (once, twice, code) of `items`, checked, into acts[3 * i .. 3 * i + 2]."""
    cdef uint64_t hm[2]
    cdef Py_ssize_t i
    for i in range(len(items)):
        try:
            once, twice, code_obj = items[i]
        except (TypeError, ValueError):
            raise ValueError(f"actions[{i}] must be (once, twice, code); got {_quote(items[i])}") from None
        _hand_arg(once, twice, f"actions[{i}]", hm)
        acts[3 * i] = hm[0]
        acts[3 * i + 1] = hm[1]
        acts[3 * i + 2] = <uint64_t>_int_arg(code_obj, f"actions[{i}] code", 0, 0xFFFF)
    return 0


@cython.auto_pickle(False)        # a batch of threads at work: nothing to pickle
cdef class DealScoring:
    """The values of actions over a batch of sampled deals, scored in the background on
    native threads (no GIL): ``DealScoring(states, actions, seeds, seat, ...)`` starts, and
    :meth:`result` waits for the values (:func:`values_after`, which is this and
    :meth:`result` in one call, says what they are). Meanwhile the caller may run Python
    code, such as sampling the next batch. With ``threads=0`` the batch is scored on the
    calling thread (the GIL released) before the constructor returns. Everything is checked and copied before a thread
    starts: a refused batch raises ValueError and starts nothing.

    >>> s = GdState.from_fields([(1 << 0 | 1 << 48, 0), (1 << 44, 0), (1 << 4, 0), (1 << 8, 0)],
    ...                         level=5, turn=0)     # 2♠ A♠ against K♠, 3♠, 4♠
    >>> job = DealScoring([s], [(1 << 48, 0, 0x104e), (1 << 0, 0, 0x1042)], [7], seat=0)
    >>> job.result()[0].tolist(), job.done()
    ([[1], [-1]], True)
    """
    cdef GState* st
    cdef uint64_t* sd
    cdef uint64_t* acts
    cdef int8_t* out
    cdef ScoreJob jobs[SC_MAX_THREADS]
    cdef int running
    cdef int t
    cdef Py_ssize_t nd, na
    cdef long long start_ns

    def __cinit__(self, *args, **kwargs):
        # Zeroed before __init__ runs (and whether or not it does): __dealloc__ frees NULLs
        # and waits for no thread.
        self.st = NULL
        self.sd = NULL
        self.acts = NULL
        self.out = NULL
        self.running = 0
        self.t = 0

    def __init__(self, states, actions, seeds, seat, double_down=3, solve_nodes=0,
                 policy=GS_PLAN, threads=1):
        cdef int pol = _gs_policy_arg(policy), reason, s_seat, team, k
        cdef int dd = _int_arg(double_down, "double_down", 1, 12)
        cdef int64_t nodes = _int_arg(solve_nodes, "solve_nodes", 0, <int64_t>1 << 40)
        cdef int t = _int_arg(threads, "threads", 0, SC_MAX_THREADS)
        cdef bint here = t == 0
        cdef Py_ssize_t nd, na, i, d
        if self.st != NULL:
            raise ValueError("this DealScoring has started: make a new one")
        try:
            deals = list(states)
            items = list(actions)
            seed_list = list(seeds)
        except TypeError:
            raise ValueError("states, actions and seeds must be sequences") from None
        nd = len(deals)
        na = len(items)
        if nd > SC_MAX_DEALS:
            raise ValueError(f"states has {nd} deals; at most {SC_MAX_DEALS} per batch")
        if na > SC_MAX_ACTIONS:
            raise ValueError(f"actions has {na} entries; at most {SC_MAX_ACTIONS}")
        if len(seed_list) != nd:
            raise ValueError(f"seeds must give one seed a deal: {len(seed_list)} for {nd} deals")
        s_seat = _int_arg(seat, "seat", 0, 3)
        self.nd = nd
        self.na = na
        self.st = <GState*>malloc((nd + 1) * sizeof(GState))
        self.sd = <uint64_t*>malloc((nd + 1) * sizeof(uint64_t))
        self.acts = <uint64_t*>malloc((3 * na + 1) * sizeof(uint64_t))
        self.out = <int8_t*>calloc(na * nd + 1, sizeof(int8_t))
        if self.st == NULL or self.sd == NULL or self.acts == NULL or self.out == NULL:
            raise MemoryError("no room for the deals")
        _actions_into(items, self.acts)
        for d in range(nd):
            if not isinstance(deals[d], GdState):
                raise ValueError(f"states[{d}] must be a GdState; got {_quote(deals[d])}")
            self.sd[d] = _seed_arg(seed_list[d])
            # Copied by value, after every argument's Python code has run: the threads read
            # only these copies, and the caller may play on its states meanwhile.
            self.st[d] = (<GdState>deals[d]).s
            if self.st[d].turn < 0:
                raise ValueError(f"states[{d}]: the hand is over: there is no action to score")
            if self.st[d].turn != self.st[0].turn:
                raise ValueError(f"states[{d}]: seat {self.st[d].turn} to act, not seat "
                                 f"{self.st[0].turn} as in states[0]")
            for i in range(na):
                if self.acts[3 * i] == 0:
                    reason = gs_check_pass(&self.st[d])
                else:
                    reason = gs_check_play(&self.st[d], self.acts[3 * i], self.acts[3 * i + 1],
                                           <uint32_t>self.acts[3 * i + 2])
                if reason != GS_OK:
                    raise ValueError(f"actions[{i}] is not legal in states[{d}]: "
                                     f"{GS_REASON_NAMES[reason]}")
        if nd == 0 or na == 0:
            return
        team = _gsv_team(&self.st[0], s_seat)
        if here:
            t = 1
        if t > nd:
            t = <int>nd
        self.t = t
        self.start_ns = tl_now_ns()
        for k in range(t):
            self.jobs[k].states = self.st
            self.jobs[k].seeds = self.sd
            self.jobs[k].acts = self.acts
            self.jobs[k].na = <int>na
            self.jobs[k].nd = nd
            self.jobs[k].lo = nd * k // t
            self.jobs[k].hi = nd * (k + 1) // t
            self.jobs[k].team = team
            self.jobs[k].dd = dd
            self.jobs[k].policy = pol
            self.jobs[k].solve_nodes = nodes
            self.jobs[k].out = self.out
            self.jobs[k].solved = 0
            self.jobs[k].failed = 0
            self.jobs[k].running = &self.running
            self.jobs[k].end_ns = self.start_ns
        with nogil:
            for k in range(t):
                tl_add(&self.running, 1)
                if here or tl_thread_start(_score_thread, &self.jobs[k]) != 0:
                    # threads=0, or no thread to be had: this share is scored here, now
                    _score_thread(&self.jobs[k])

    def done(self):
        """Whether every deal is scored (:meth:`result` then returns at once)."""
        return tl_load(&self.running) == 0

    def result(self):
        """Wait (without the GIL) until every deal is scored; ``(values, solved)``: an int8
        array of shape (len(actions), len(states)) and how many of them the solver proved.
        Raises MemoryError if a thread could not allocate its tables."""
        cdef int k, failed = 0
        cdef int64_t solved = 0
        with nogil:
            tl_wait_zero(&self.running)
        for k in range(self.t):
            failed |= self.jobs[k].failed
            solved += self.jobs[k].solved
        if failed:
            raise MemoryError("the scoring could not allocate its move buffers or tables")
        values = np.empty((self.na, self.nd), np.int8)
        if self.na * self.nd:
            memcpy(cnp.PyArray_DATA(values), self.out, self.na * self.nd)
        return values, solved

    @property
    def seconds(self):
        """Wall seconds from the start to the last deal scored (once :meth:`done`)."""
        cdef long long end = self.start_ns
        cdef int k
        if tl_load(&self.running) != 0:
            return None
        for k in range(self.t):
            if self.jobs[k].end_ns > end:
                end = self.jobs[k].end_ns
        return (end - self.start_ns) / 1e9

    def __dealloc__(self):
        # The threads read and write this object's buffers: they end (each within its
        # share's node and playout bounds) before the buffers go.
        with nogil:
            tl_wait_zero(&self.running)
        free(self.st)
        free(self.sd)
        free(self.acts)
        free(self.out)


def values_after(states, actions, seeds, seat, double_down=3, solve_nodes=0,
                 policy=GS_PLAN, threads=1):
    """The value to `seat`'s team (G7.1: +dd / +2 / +1 when one of its players goes out
    first, minus the other team's gain otherwise) of the hand after each action on each
    deal: ``states`` a sequence of :class:`GdState` (the sampled deals, each with the same
    seat to act), ``actions`` the (once, twice, code) of that seat's actions, (0, 0, 0) a
    pass, checked on every deal like try_play / try_pass, ``seeds`` one playout seed a deal.

    With ``solve_nodes`` > 0 each value is exact (both teams playing perfectly on that deal,
    :func:`solve_value`) wherever the solver finishes within that many nodes per action;
    elsewhere, and with ``solve_nodes`` 0, it is the outcome of one playout by ``policy``
    seeded with the deal's seed (as :meth:`GdState.playouts_after`). The deals are split
    over ``threads`` native threads (1..16; 0: the calling thread) without the GIL; every
    deal is scored alone, so the values do not depend on ``threads``. Returns ``(values, solved)``: an int8 array of
    shape (len(actions), len(states)) and how many values the solver proved. (One call of
    :class:`DealScoring`, which scores in the background.)

    >>> s = GdState.from_fields([(1 << 0 | 1 << 48, 0), (1 << 44, 0), (1 << 4, 0), (1 << 8, 0)],
    ...                         level=5, turn=0)     # 2♠ A♠ against K♠, 3♠, 4♠
    >>> acts = [(1 << 48, 0, 0x104e), (1 << 0, 0, 0x1042)]
    >>> values, solved = values_after([s, s], acts, [1, 2], seat=0, solve_nodes=100)
    >>> values.tolist(), solved
    ([[1, 1], [-1, -1]], 4)
    """
    return DealScoring(states, actions, seeds, seat, double_down, solve_nodes, policy,
                       threads).result()


cdef void* _sample_run(void* arg) noexcept nogil:
    """A thread of sample_values: claims deals one at a time (deal k is the same whichever
    thread draws it), draws each from the sampler and scores it, until the deals are done,
    the deadline has passed (after deal 0) or an interrupt stops every thread."""
    cdef ScoreJob* j = <ScoreJob*>arg
    cdef long long k, mine = 0
    cdef GState st = j.base[0]
    cdef Rng r
    while not tl_load(j.stop):
        if j.deadline_ns and tl_load_ll(j.next) > 0 and tl_now_ns() >= j.deadline_ns:
            break
        k = tl_claim(j.next, 1)
        if k >= j.nd:
            break
        sampler_seed(&r, j.seed, j.first + k)
        sampler_hands(j.sampler, &r, st.once, st.twice)
        if _score_deal(j, &st, rng_next(&r), <Py_ssize_t>k) < 0:
            j.failed = 1
            tl_store(j.stop, 1)
            break
        mine += 1
        if j.watch and mine % 16 == 0:
            with gil:
                if _gsv_check_signals() < 0:
                    tl_store(j.stop, 2)
    return NULL


def sample_values(DealSampler sampler, base, actions, seed, deals, seat, seconds=None,
                  double_down=3, solve_nodes=0, policy=GS_PLAN, threads=1, first=0):
    """L3's search in one call: deals ``first .. first + deals - 1`` (at most 2**20 a call)
    of ``seed`` drawn by ``sampler``
    (:meth:`DealSampler.hands`) into the public position of ``base`` (a :class:`GdState`
    whose seat to act is the sampler's and holds the sampler's hand; its other hands are
    replaced, deal by deal), each scored as :func:`values_after` scores it, with the deal's
    playout seed the next draw of the deal's own stream. ``threads`` (1..16) draw and score
    at once, the calling thread one of them, without the GIL; with ``seconds``, no deal is
    started once that many seconds have passed, but the first. Returns ``(values, solved)``:
    int8 values of shape (len(actions), done) for the deals done, the first ``done`` (with a
    given ``deals`` and no ``seconds``, all of them: the same values on any ``threads``), and
    how many values the solver proved. Ctrl-C stops it within a deal on the main thread.

    >>> sampler = DealSampler(0, ((1 << 48) | 1, 0), [44, 4, 8], [[], [], [], []],
    ...                       [0, 1, 1, 1], [None] * 4, [None] * 4)
    >>> base = GdState.from_fields([((1 << 48) | 1, 0), (1 << 44, 0), (1 << 4, 0), (1 << 8, 0)],
    ...                            level=5, turn=0)
    >>> acts = [(1 << 48, 0, 0x104e), (1 << 0, 0, 0x1042)]
    >>> values, solved = sample_values(sampler, base, acts, 7, 6, 0, solve_nodes=100, threads=2)
    >>> values.shape, solved, bool((values[0] > 0).all())    # A♠ first: the hand is won
    ((2, 6), 12, True)
    """
    cdef int pol = _gs_policy_arg(policy), s_seat, k, reason, i
    cdef int dd = _int_arg(double_down, "double_down", 1, 12)
    cdef int64_t nodes = _int_arg(solve_nodes, "solve_nodes", 0, <int64_t>1 << 40)
    cdef int t = _int_arg(threads, "threads", 1, SC_MAX_THREADS)
    cdef int64_t nd = _int_arg(deals, "deals", 1, SC_MAX_DEALS)
    cdef uint64_t sd = _seed_arg(seed)
    cdef long long first_deal = _int_arg(first, "first", 0, <int64_t>1 << 50)
    cdef long long deadline = 0, next_deal = 0
    cdef int stop = 0, failed = 0
    cdef int64_t solved = 0
    cdef double secs
    cdef GState b
    cdef uint64_t* acts = NULL
    cdef int8_t* out = NULL
    cdef ScoreJob jobs[SC_MAX_THREADS]
    cdef void* args[SC_MAX_THREADS]
    cdef Py_ssize_t na, done
    if not isinstance(base, GdState):
        raise ValueError(f"base must be a GdState; got {_quote(base)}")
    b = (<GdState>base).s
    s_seat = _int_arg(seat, "seat", 0, 3)
    if b.turn != sampler.S.me:
        raise ValueError(f"base has seat {b.turn} to act; the sampler samples for seat "
                         f"{sampler.S.me}")
    if b.once[b.turn] != sampler.S.my_once or b.twice[b.turn] != sampler.S.my_twice:
        raise ValueError("base's seat to act does not hold the sampler's hand")
    for k in range(4):
        if k != sampler.S.me and (GD_POPCOUNT(b.once[k]) + GD_POPCOUNT(b.twice[k])
                                  != sampler.S.seat[k].nfixed + sampler.S.seat[k].need):
            raise ValueError(f"base's seat {k} holds {GD_POPCOUNT(b.once[k]) + GD_POPCOUNT(b.twice[k])} "
                             f"cards; the sampler deals it "
                             f"{sampler.S.seat[k].nfixed + sampler.S.seat[k].need}")
    if seconds is not None:
        try:
            secs = float(seconds)
        except (TypeError, ValueError):
            raise ValueError(f"seconds must be a number; got {_quote(seconds)}") from None
        if not secs == secs or secs < 0:
            raise ValueError(f"seconds must be a number >= 0; got {_quote(seconds)}")
        deadline = tl_now_ns() + <long long>(min(secs, 1e6) * 1e9)
    try:
        items = list(actions)
    except TypeError:
        raise ValueError("actions must be a sequence of (once, twice, code)") from None
    na = len(items)
    if na == 0 or na > SC_MAX_ACTIONS:
        raise ValueError(f"actions has {na} entries; 1..{SC_MAX_ACTIONS}")
    acts = <uint64_t*>malloc(3 * na * sizeof(uint64_t))
    out = <int8_t*>calloc(na * nd, sizeof(int8_t))
    try:
        if acts == NULL or out == NULL:
            raise MemoryError("no room for the deals' values")
        _actions_into(items, acts)
        for i in range(na):
            # legal in the public position: the seat's own hand and the pile decide it
            if acts[3 * i] == 0:
                reason = gs_check_pass(&b)
            else:
                reason = gs_check_play(&b, acts[3 * i], acts[3 * i + 1], <uint32_t>acts[3 * i + 2])
            if reason != GS_OK:
                raise ValueError(f"actions[{i}] is not legal here: {GS_REASON_NAMES[reason]}")
        for k in range(t):
            jobs[k].acts = acts
            jobs[k].na = <int>na
            jobs[k].nd = nd
            jobs[k].team = _gsv_team(&b, s_seat)
            jobs[k].dd = dd
            jobs[k].policy = pol
            jobs[k].solve_nodes = nodes
            jobs[k].out = out
            jobs[k].solved = 0
            jobs[k].failed = 0
            jobs[k].sampler = &sampler.S
            jobs[k].base = &b
            jobs[k].seed = sd
            jobs[k].first = first_deal
            jobs[k].next = &next_deal
            jobs[k].deadline_ns = deadline
            jobs[k].stop = &stop
            jobs[k].watch = k == 0 and gd_watch_signals()
            args[k] = &jobs[k]
        with nogil:
            if t == 1:
                _sample_run(args[0])
            else:
                tl_run_threads(_sample_run, args, t)
        for k in range(t):
            failed |= jobs[k].failed
            solved += jobs[k].solved
        if stop == 2:
            _gsv_reraise()
            raise KeyboardInterrupt
        if failed:
            raise MemoryError("the search could not allocate its move buffers or tables")
        done = min(next_deal, nd)
        values = np.empty((na, done), np.int8)
        for i in range(na):
            memcpy(<int8_t*>cnp.PyArray_DATA(values) + i * done, out + i * nd, done)
        return values, solved
    finally:
        free(acts)
        free(out)
