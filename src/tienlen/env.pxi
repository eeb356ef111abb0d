# Reinforcement-learning environments: stepping one hand (RLGame) and N hands (VecGames)
# natively. The one observation encoder is observe.pxi, the masks masks.pxi (included
# below): every RL layer (the PettingZoo AEC env, the Gymnasium env and the native
# vectorised env) writes its observations and masks with them, so the three cannot disagree.
# The layout is documented in docs/rl.md; tests/test_rl_envs.py checks it against a
# deliberately simple Python encoder built from tienlen.Game.

from libc.string cimport memset


cdef enum:
    RL_ACTIONS = 487           # 0 = pass, 1..486 index the legal list (486 = MAX_MOVES_13)
    RL_HIST = 4                # actions remembered, newest first
    RL_HIST_STRIDE = 57        # per action: 52 cards, 1 pass bit, 4 relative-seat bits
    RL_O_HAND = 0
    RL_O_PLAYED = 52
    RL_O_PILE = 104
    RL_O_KIND = 156            # 7: one-hot kind, index 0 = empty pile
    RL_O_PILE_LEN = 163
    RL_O_OWNER = 164           # 4 relative seats each from here on
    RL_O_LEFT = 168
    RL_O_LOCKED = 172
    RL_O_OUT = 176
    RL_O_TURN = 180
    RL_O_LEADER = 184
    RL_O_MUST = 188            # 52: the card the lead must include (R7.2)
    RL_O_HIST = 240
    RL_OBS = 468
    RL_BLOCK = 1024            # envs stepped between Ctrl-C checks
    RL_CLAIM = 64              # envs per block a stepping thread claims at a time
    RL_SPIN_US = 1000          # how long a worker may stay parked after a step (microseconds)
    RL_MAX_THREADS = 64
    RL_ERR_ILLEGAL = 1
    RL_ERR_INTERRUPTED = 2

class ActionOutsideMaskError(ValueError):
    """An action outside the action mask (RLGame.step, VecGames.step in "raise" mode);
    nothing was changed. The message names the action and the legal count."""


RL_OBS_SIZE = RL_OBS
VEC_MAX_THREADS = RL_MAX_THREADS
RL_NUM_ACTIONS = RL_ACTIONS
RL_HISTORY = RL_HIST


cdef struct RLG:
    State s
    Rng rng
    uint64_t hist[RL_HIST]
    int8_t hist_seat[RL_HIST]
    int8_t nhist
    int8_t leader              # the seat that led the current pile, -1 when it is empty
    int32_t nmoves             # legal plays of the seat to act, in g.moves
    uint64_t moves[MAX_MOVES_13]
    Plans plans                # PLAN opponents' plans (unused otherwise)


cdef inline void rlg_refresh(RLG* g) noexcept nogil:
    """List the legal plays of the seat to act. Every hand here holds at most 13 cards,
    so the list fits MAX_MOVES_13 (the proven bound)."""
    if g.s.turn < 0:
        g.nmoves = 0
    else:
        g.nmoves = <int32_t>st_moves(&g.s, g.moves)


cdef inline void rlg_start(RLG* g, const uint64_t* hands, int players, uint64_t flags) noexcept nogil:
    st_init(&g.s, hands, players, -1, flags)
    g.nhist = 0
    g.leader = -1
    memset(g.hist, 0, sizeof(g.hist))
    memset(g.hist_seat, 0, sizeof(g.hist_seat))


cdef inline int rlg_deal(RLG* g, int players, uint64_t flags) noexcept nogil:
    """Deal a fresh hand; returns the instant win that ended it at once (R11.3), or -1."""
    cdef uint64_t hands[4]
    deal_cards(&g.rng, players, hands, 13)
    rlg_start(g, hands, players, flags)
    return st_deal_instant_win(&g.s)


cdef inline void rlg_record(RLG* g, int seat, uint64_t mask, bint was_lead) noexcept nogil:
    cdef int k
    for k in range(RL_HIST - 1, 0, -1):
        g.hist[k] = g.hist[k - 1]
        g.hist_seat[k] = g.hist_seat[k - 1]
    g.hist[0] = mask
    g.hist_seat[0] = seat
    if g.nhist < RL_HIST:
        g.nhist += 1
    if g.s.pile_owner < 0:
        g.leader = -1
    elif was_lead:
        g.leader = seat


cdef inline void rlg_apply(RLG* g, uint64_t mask) noexcept nogil:
    """Trusted: `mask` (0 = pass) is legal for the seat to act."""
    cdef int seat = g.s.turn
    cdef bint was_lead = g.s.pile_code == 0
    if mask == 0:
        st_pass(&g.s)
    else:
        st_play(&g.s, mask, c_classify(mask, g.s.rules.flags))
    rlg_record(g, seat, mask, was_lead)


cdef inline int rlg_policy_step(RLG* g, int policy, SplitMemo* m, uint64_t* buf) noexcept nogil:
    """One move of a native opponent. Returns 0, or -1 if a move list overflowed."""
    cdef int seat = g.s.turn, r
    cdef uint64_t before = g.s.hands[seat]
    cdef bint was_lead = g.s.pile_code == 0
    if policy == P_PLAN:
        r = st_plan_step(&g.s, &g.plans, m, buf, STACK_MOVES)
    else:
        r = st_step(&g.s, &g.rng, policy, buf, STACK_MOVES)
    rlg_record(g, seat, before & ~g.s.hands[seat], was_lead)
    return r


include "observe.pxi"
include "masks.pxi"



cdef HeldBuffer _rl_out(object out, int typenum, Py_ssize_t rows, Py_ssize_t cols=-1):
    """`out` held for writing (arrays.pxi: exactly (rows,) or (rows, cols) of `typenum`,
    C-contiguous, aligned, writeable, all read from its buffer), or a new array when None."""
    return array_out(out, "out", typenum, rows, cols)


cdef class RLGame:
    """One hand for the RL envs: the core state plus what the encoder needs (the last
    actions and who led the pile) and the legal list that actions index.

    Actions are ints: 0 passes, ``a`` in 1..num_legal plays ``legal_moves()[a - 1]``.

    >>> g = RLGame(4)
    >>> g.reset(7)
    >>> g.players, g.turn == next(p for p, h in enumerate(deal(7)) if h & 1)
    (4, True)
    >>> mask = g.action_mask()
    >>> int(mask[0]), int(mask.sum()) == g.num_legal      # a lead: no pass
    (0, True)
    >>> g.step(1); g.turn != -1
    True
    """
    cdef RLG g
    cdef readonly int players
    cdef readonly uint64_t flags

    def __init__(self, players=4, flags=0):
        self.players = _small_int_arg(players, "players", 2, 4)
        self.flags = _flags_arg(flags)
        rng_seed(&self.g.rng, 0)
        rlg_deal(&self.g, self.players, self.flags)
        rlg_refresh(&self.g)

    def reset(self, seed):
        """A fresh deal: the deal of `core.deal(seed, players)`, the first-hand lead (R7.2).
        If the rules enable instant wins (R11.3) and the deal holds one, the hand is over at
        once (`is_over`, `instant_win`; the winner is `finished[0]`, the others share last
        place)."""
        cdef uint64_t s = _seed_arg(seed)
        if self.players < 2:
            # RLGame.__new__(RLGame): no player count to deal for (dealing for 0 players
            # took ctz(0), undefined behaviour).
            raise ValueError("this RLGame was never initialised: construct it with RLGame(players)")
        rng_seed(&self.g.rng, s)
        rlg_deal(&self.g, self.players, self.flags)
        rlg_refresh(&self.g)

    def reset_hands(self, hands, leader=-1):
        """Start from given hands (disjoint masks of 1..13 cards, one per seat). leader=-1:
        the holder of the lowest card leads and must include it (R7.2); else that seat
        leads anything (R7.3)."""
        cdef uint64_t hs[4]
        cdef uint64_t seen = 0
        cdef int p, lead
        cdef int players = self.players
        hands = _hands_arg(hands)
        if len(hands) != players:
            raise ValueError(f"hands must hold {players} masks; got {len(hands)}")
        for p in range(4):
            hs[p] = 0
        for p in range(players):
            hs[p] = _mask_arg(hands[p], f"hands[{p}]")
            if hs[p] == 0 or TL_POPCOUNT(hs[p]) > 13:
                raise ValueError(f"hands[{p}] must hold 1..13 cards")
            if hs[p] & seen:
                raise ValueError(f"hands[{p}] shares cards with another hand")
            seen |= hs[p]
        lead = _small_int_arg(leader, "leader", -1, players - 1)
        if self.players != players:
            # An argument's __index__ re-initialised this game: the hands no longer fit it.
            raise ValueError("the game was re-initialised while its hands were being read")
        st_init(&self.g.s, hs, players, lead, self.flags)
        self.g.nhist = 0
        self.g.leader = -1
        rlg_refresh(&self.g)

    @property
    def turn(self):
        """Seat to act, -1 once the hand is over."""
        return self.g.s.turn

    @property
    def is_over(self):
        return self.g.s.turn < 0

    @property
    def instant_win(self):
        """The instant win (rules.ALL_INSTANT_WINS index) that ended this hand at the deal,
        or -1 (R11.3)."""
        return st_instant_win(&self.g.s)

    @property
    def num_legal(self):
        """Number of legal plays (actions 1..num_legal); pass is action 0 when can_pass."""
        return self.g.nmoves

    @property
    def can_pass(self):
        return self.g.s.turn >= 0 and self.g.s.pile_code != 0

    @property
    def finished(self):
        return tuple(self.g.s.order[p] for p in range(self.g.s.nfinished))

    @property
    def hands(self):
        return tuple(self.g.s.hands[p] for p in range(self.players))

    @property
    def leader(self):
        """The seat that led the current pile, -1 when the pile is empty."""
        return self.g.leader

    @property
    def history(self):
        """The last actions, newest first, as (seat, mask) pairs (mask 0 = pass)."""
        return tuple((self.g.hist_seat[k], self.g.hist[k]) for k in range(self.g.nhist))

    def state(self):
        """A copy of the core GameState."""
        cdef GameState gs = GameState.__new__(GameState)
        gs.s = self.g.s
        return gs

    def legal_moves(self):
        """The legal plays as a uint64 array; action a plays element a - 1."""
        cdef cnp.npy_intp n = self.g.nmoves
        arr = cnp.PyArray_SimpleNew(1, &n, cnp.NPY_UINT64)
        if n:
            memcpy(cnp.PyArray_DATA(arr), self.g.moves, n * sizeof(uint64_t))
        return arr

    def is_legal(self, action):
        """Whether `action` (an int) is in the action mask now."""
        try:
            a = _as_int(action)
        except TypeError:
            return False
        return -1 < a < RL_ACTIONS and rl_legal(&self.g, a)

    def action_mask_of(self, action):
        """The card mask action `action` plays (0 for pass). Raises ValueError if illegal."""
        cdef int64_t a = self._action_arg(action)
        return 0 if a == 0 else self.g.moves[a - 1]

    cdef int64_t _action_arg(self, object action) except -1:
        cdef int64_t a
        try:
            a = _as_int(action)
        except (TypeError, OverflowError):
            raise ValueError(f"an action must be an int in 0..{RL_ACTIONS - 1}; got {action!r}") from None
        if not (-1 < a < RL_ACTIONS and rl_legal(&self.g, a)):
            raise ActionOutsideMaskError(f"action {action!r} is not in the action mask: {_rl_legal_text(&self.g)}")
        return a

    def step(self, action):
        """Take action `action` for the seat to act (0 = pass). An action outside the mask
        raises ValueError naming it and the legal count, and changes nothing."""
        cdef int64_t a = self._action_arg(action)
        rlg_apply(&self.g, 0 if a == 0 else self.g.moves[a - 1])
        rlg_refresh(&self.g)

    def play_mask(self, mask):
        """Apply a move given as cards (0 = pass), checked like GameState.apply_checked."""
        cdef uint32_t code = 0
        cdef uint64_t m = _mask_arg(mask, "mask")
        cdef int reason = st_check_pass(&self.g.s) if m == 0 else st_check_play(&self.g.s, m, &code)
        if reason != R_OK:
            raise ValueError(f"move {m:#x} is not legal here: {REASON_NAMES[reason]}")
        rlg_apply(&self.g, m)
        rlg_refresh(&self.g)

    def observe(self, seat, out=None):
        """The uint8 observation of `seat` (docs/rl.md), into `out` if given."""
        cdef int s = _small_int_arg(seat, "seat", 0, 3)
        cdef HeldBuffer o = _rl_out(out, cnp.NPY_UINT8, RL_OBS)
        # The bound after every argument was read: their Python code (__index__, an out
        # subclass) may have re-initialised this game with fewer players.
        if s >= self.players:
            raise ValueError(f"seat must be in 0..{self.players - 1}; got {_quote(seat)}")
        rl_encode(&self.g, s, <uint8_t*>o.data)
        o.release()
        return o.array

    def action_mask(self, out=None):
        """The int8 action mask of the seat to act (all zeros once over)."""
        cdef HeldBuffer o = _rl_out(out, cnp.NPY_INT8, RL_ACTIONS)
        rl_mask(&self.g, <int8_t*>o.data)
        o.release()
        return o.array

    def legal_action_cards(self, out=None):
        """int8 (487, 52): row a holds the cards action a plays (row 0 and unused rows: 0)."""
        cdef HeldBuffer o = _rl_out(out, cnp.NPY_INT8, RL_ACTIONS, 52)
        rl_action_cards(&self.g, <int8_t*>o.data)
        o.release()
        return o.array

    def __copy__(self):
        cdef RLGame c = RLGame.__new__(RLGame)
        c.g = self.g
        c.players = self.players
        c.flags = self.flags
        return c

    copy = __copy__

    def __deepcopy__(self, memo):
        # Every field is plain data in the struct: the shallow copy is already independent.
        return self.__copy__()

    def __reduce__(self):
        raise TypeError("RLGame holds native state and cannot be pickled; pickle its "
                        "state() (a GameState) or its hands and history instead")


cdef struct VecCore:
    # What stepping reads and writes, in plain C so that native worker threads can step
    # envs without the GIL or any Python object (VecGames owns one and the Python side).
    RLG* games
    size_t games_bytes         # for tl_big_free
    int32_t* limits            # per env: 2 * legal plays + 1 if pass is allowed
    Py_ssize_t num_envs
    int players
    uint64_t flags
    int learner_seat
    bint self_play
    int policy[4]
    float rewards_table[4]
    bint need_memo
    SplitMemo memos[RL_MAX_THREADS]
    uint8_t* p_obs
    int8_t* p_mask
    int32_t* p_nlegal
    int8_t* p_seat
    float* p_reward
    uint8_t* p_term
    uint8_t* p_err
    int8_t* p_places
    float* p_final
    int64_t* p_episodes
    uint64_t* p_legal
    uint8_t* p_final_obs       # NULL unless final_obs=True
    int64_t* p_act
    # The batch splits into one range per stepping thread; range k's next unclaimed env is
    # range_next[k], its end range_end[k]. Thread k claims from its own range first (so an
    # env is stepped by the same thread step after step, its game staying in that core's
    # cache), then from the others'.
    long long range_next[RL_MAX_THREADS]
    long long range_end[RL_MAX_THREADS]
    int nranges
    int run_failed             # a move list overflowed during this step
    # Worker slot k (1..T-1): 0 no thread serves it, 1 its thread is parked, 2 it has (or
    # is about to start) a share of the current step. Written with atomics (see tl_park).
    int slot_state[RL_MAX_THREADS]
    int running                # workers that have not finished the current step
    int stop_workers           # raised to send parked workers away
    # How long this step's workers stay parked after it: RL_SPIN_US while steps come back
    # to back, 0 once the caller spends longer than that between steps (a network's
    # forward pass, say): spinning through such a gap would only take a core from the
    # caller's own threads. last_end_ns: when the previous step's workers were all done.
    long long spin_ns
    long long last_end_ns
    long pid                   # the process that started the workers (fork check)


cdef struct VecWorker:
    VecCore* c
    int slot


cdef int _vc_new_game(VecCore* c, Py_ssize_t i, SplitMemo* m) noexcept nogil:
    """Deal game i, play the opponents up to the learner's turn, write its outputs.
    A deal won at once by an instant win (R11.3) gives no seat a decision: it is dealt
    again from the env's stream, so every episode the learner sees has a move."""
    cdef RLG* g = &c.games[i]
    cdef int p
    while rlg_deal(g, c.players, c.flags) >= 0:
        pass
    if c.need_memo:
        for p in range(c.players):
            if c.policy[p] == P_PLAN:
                plan_compute(&g.plans.seat[p], g.s.hands[p], &g.s.rules, m)
    if _vc_opponents(c, g, m) < 0:
        return -1
    _vc_write(c, i, g)
    return 0

cdef int _vc_opponents(VecCore* c, RLG* g, SplitMemo* m) noexcept nogil:
    cdef uint64_t buf[STACK_MOVES]
    if c.self_play:
        return 0
    while g.s.turn >= 0 and g.s.turn != c.learner_seat:
        if rlg_policy_step(g, c.policy[g.s.turn], m, buf) < 0:
            return -1
    return 0

cdef void _vc_write(VecCore* c, Py_ssize_t i, RLG* g) noexcept nogil:
    """Env i's outputs for the seat to act. The mask row (and the legal-mask row) holds
    exactly [pass, 1 x previous count, 0 ...] from the last write (only this object writes
    it: the caller's view is read-only), so only the bytes between the previous count and
    the new one change: most steps touch one cache line of the 487-byte row, not eight."""
    cdef int prev = c.limits[i] >> 1
    cdef int now
    cdef int8_t* mask = c.p_mask + i * RL_ACTIONS
    cdef uint64_t* legal
    rlg_refresh(g)
    now = g.nmoves
    c.limits[i] = (now << 1) | (g.s.turn >= 0 and g.s.pile_code != 0)
    c.p_seat[i] = g.s.turn
    c.p_nlegal[i] = now
    rl_encode(g, g.s.turn, c.p_obs + i * RL_OBS)
    mask[0] = c.limits[i] & 1
    if now > prev:
        memset(mask + 1 + prev, 1, now - prev)
    elif now < prev:
        memset(mask + 1 + now, 0, prev - now)
    if c.p_legal != NULL:
        legal = c.p_legal + i * MAX_MOVES_13
        memcpy(legal, g.moves, now * sizeof(uint64_t))
        if now < prev:
            memset(legal + now, 0, (prev - now) * sizeof(uint64_t))

cdef int _vc_step_one(VecCore* c, Py_ssize_t i, SplitMemo* m) noexcept nogil:
    cdef RLG* g = &c.games[i]
    cdef int64_t a = c.p_act[i]
    cdef int seat, k, place = -1
    cdef bint done
    c.p_reward[i] = 0
    c.p_term[i] = 0
    if not rl_legal(g, a):
        c.p_err[i] = RL_ERR_ILLEGAL
        return 0
    c.p_err[i] = 0
    seat = g.s.turn
    rlg_apply(g, 0 if a == 0 else g.moves[a - 1])
    if c.self_play:
        done = g.s.turn < 0
    else:
        if g.s.hands[seat] != 0 and _vc_opponents(c, g, m) < 0:
            return -1
        # The learner's episode ends when it goes out: its place is then fixed.
        done = g.s.turn < 0 or g.s.hands[c.learner_seat] == 0
    if not done:
        _vc_write(c, i, g)
        return 0
    for k in range(c.players):
        c.p_places[i * c.players + k] = -1
        c.p_final[i * c.players + k] = 0
    for k in range(g.s.nfinished):
        c.p_places[i * c.players + g.s.order[k]] = k
        c.p_final[i * c.players + g.s.order[k]] = c.rewards_table[k]
    c.p_reward[i] = c.p_final[i * c.players + seat]
    c.p_term[i] = 1
    if c.p_final_obs != NULL:
        # What the seat that ended its episode sees then (its hand empty, or the hand
        # over): Gymnasium's same-step autoreset hands it over as info["final_obs"].
        rl_encode(g, seat, c.p_final_obs + i * RL_OBS)
    c.p_episodes[i] += 1
    return _vc_new_game(c, i, m)

cdef bint _vc_claim_run(VecCore* c, SplitMemo* m, Py_ssize_t budget, int home) noexcept nogil:
    """Claim blocks of envs and step them until `budget` envs are done or no block is
    left anywhere (then returns False): from range `home` first, then from the others.
    So the work splits itself: a thread that starts late or runs slower takes fewer
    blocks, and a claimed block is always stepped whole."""
    cdef Py_ssize_t done = 0, j
    cdef long long lo, hi, end
    cdef int r = home, empty = 0
    while done < budget:
        end = c.range_end[r]
        lo = tl_claim(&c.range_next[r], RL_CLAIM)
        if lo >= end:
            empty += 1
            if empty >= c.nranges:
                return False
            r = r + 1 if r + 1 < c.nranges else 0
            continue
        hi = lo + RL_CLAIM if lo + RL_CLAIM < end else end
        for j in range(<Py_ssize_t>lo, <Py_ssize_t>hi):
            if _vc_step_one(c, j, m) < 0:
                tl_store(&c.run_failed, 1)
        done += <Py_ssize_t>(hi - lo)
    return True


cdef void* _vc_worker(void* arg) noexcept nogil:
    """A native worker thread: step its share of each step (see _vc_claim_run), then stay
    parked for the next one (tl_park) for up to c.spin_ns."""
    cdef VecWorker* w = <VecWorker*>arg
    cdef VecCore* c = w.c
    cdef int slot = w.slot
    tl_name_self()
    while True:
        _vc_claim_run(c, &c.memos[slot], c.num_envs, slot)
        # Parked before counted done: once the step sees every worker done, each slot is
        # parked or given up, never still being served.
        tl_store(&c.slot_state[slot], 1)
        tl_add(&c.running, -1)
        # After giving the slot up this thread touches nothing of `c` again.
        if not tl_park(&c.slot_state[slot], &c.stop_workers, tl_load_ll(&c.spin_ns)):
            return NULL


cdef void _vc_dispatch(VecCore* c, VecWorker* workers, int t) noexcept nogil:
    """Hand slots 1..t-1 their share of this step: a parked worker by one
    compare-and-swap, an empty slot by a new native thread. `running` counts each before it
    can finish, so the step waits for exactly the workers it started. No Python code runs
    here, so no Ctrl-C can land half way through."""
    cdef int k
    cdef long pid = getpid()
    cdef long long limit = <long long>RL_SPIN_US * 1000
    cdef long long gap = tl_now_ns() - c.last_end_ns
    # The caller's last gap between steps predicts its next: park this step's workers only
    # if it was short enough for parking to pay (the workers read this once they finish).
    tl_store_ll(&c.spin_ns, limit if c.last_end_ns == 0 or gap <= limit else 0)
    if c.pid != pid:
        # A forked child inherits the slots' states, not the threads.
        for k in range(RL_MAX_THREADS):
            tl_store(&c.slot_state[k], 0)
        c.pid = pid
    for k in range(1, t):
        tl_add(&c.running, 1)
        if tl_cas(&c.slot_state[k], 1, 2):
            continue
        tl_store(&c.slot_state[k], 2)
        if tl_thread_start(_vc_worker, &workers[k]) != 0:
            # No thread: the calling thread simply claims this share too.
            tl_store(&c.slot_state[k], 0)
            tl_add(&c.running, -1)


cdef void _vc_mark_unstepped(VecCore* c, Py_ssize_t lo, Py_ssize_t hi) noexcept nogil:
    """Envs lo..hi-1 were not reached by an interrupted reset or step: each keeps its game
    and observation, and says so in its outputs."""
    cdef Py_ssize_t j
    for j in range(lo, hi):
        c.p_err[j] = RL_ERR_INTERRUPTED
        c.p_term[j] = 0
        c.p_reward[j] = 0


cdef object _vc_check_memory(Py_ssize_t n, int players, bint legal_masks, bint final_obs):
    """Refuse, with the numbers, a batch larger than the memory the system has available
    now. Its games are only committed as dealing touches them, so without this check a
    batch too large would be met by the kernel's OOM killer half way through the first
    reset instead of a MemoryError before anything is allocated."""
    cdef Py_ssize_t per_env = (sizeof(RLG) + RL_OBS + RL_ACTIONS + sizeof(int32_t) * 2
                               + 4 + players * 5 + 2 * sizeof(int64_t))
    if legal_masks:
        per_env += MAX_MOVES_13 * sizeof(uint64_t)
    if final_obs:
        per_env += RL_OBS
    need = n * per_env
    avail = _available_memory()
    if avail is not None and need > avail:
        raise MemoryError(f"{n} envs need about {need / 2**30:.1f} GiB "
                          f"({per_env} bytes each); {avail / 2**30:.1f} GiB is available")


cdef object _available_memory():
    """MemAvailable from /proc/meminfo in bytes, or None where the system does not say."""
    try:
        with open("/proc/meminfo", "rb") as f:
            for line in f:
                if line.startswith(b"MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    return None


cdef void _vc_stop_workers(VecCore* c) noexcept nogil:
    """Send every parked worker away and wait until none is left (none is working: steps
    wait for their workers)."""
    cdef int k
    cdef unsigned spins
    if c.pid != getpid():
        return
    tl_store(&c.stop_workers, 1)
    for k in range(RL_MAX_THREADS):
        spins = 0
        while tl_load(&c.slot_state[k]) != 0:
            spins += 1
            if spins & 255:
                tl_relax()
            else:
                sched_yield()
    tl_store(&c.stop_workers, 0)


cdef class VecGames:
    """N hands stepped in C with the GIL released: the raw array API of the vectorised env.

    `opponents` is None for self-play (every seat is the learner's) or a sequence of
    `players - 1` native policies (RANDOM, GREEDY or PLAN) for the seats after the
    learner's, who sits at `learner_seat`. Arrays (allocated once, rewritten in place by
    `reset` and `step`): `obs` uint8 (N, OBS), `action_mask` int8 (N, 487), `num_legal`
    int32 (N,), `seat` int8 (N,) the seat each observation is for, `reward` float32 (N,),
    `terminated` bool (N,), `error` uint8 (N,), `places` int8 (N, players) (a finished
    game's place per seat, 0 = first, -1 unknown), `final_rewards` float32 (N, players),
    `episodes` int64 (N,), with `legal_masks=True`, `legal` uint64 (N, 486), and with
    `final_obs=True`, `final_obs` uint8 (N, OBS): where `terminated` is set, the observation
    the finished episode ended on (`obs` already holds the next deal's).

    >>> v = VecGames(3, opponents=(GREEDY, GREEDY, GREEDY), seed=5)
    >>> v.obs.shape, v.action_mask.shape, bool((v.seat == 0).all())
    ((3, 468), (3, 487), True)
    >>> v.step(np.minimum(v.num_legal, 1).astype(np.int64))   # first legal play, else pass
    0
    """
    # The env's shape (num_envs, players, flags, learner_seat, self_play) lives only in
    # `c`, which the native workers read; the properties below read it from there.
    cdef VecCore c
    cdef VecWorker workers[RL_MAX_THREADS]
    cdef readonly bint raise_on_error
    cdef bint busy
    cdef readonly bint closed
    cdef readonly object obs, action_mask, num_legal, seat, reward, terminated, error
    cdef readonly object places, final_rewards, episodes, legal, actions, final_obs

    def __cinit__(self):
        cdef int t
        self.c.games = NULL
        for t in range(RL_MAX_THREADS):
            self.c.memos[t].slots = NULL
        self.closed = True

    def __init__(self, num_envs, players=4, opponents=(P_RANDOM, P_RANDOM, P_RANDOM),
                 learner_seat=0, rewards=None, seed=0, flags=0, legal_masks=False,
                 on_error="raise", final_obs=False):
        cdef Py_ssize_t n = _int_arg(num_envs, "num_envs", 1, 1 << 24)
        cdef int p, k, nplayers, learner = -1
        cdef uint64_t fl
        cdef bint self_play
        if self.c.games != NULL:
            raise ValueError("VecGames is already initialised")
        nplayers = _small_int_arg(players, "players", 2, 4)
        fl = _flags_arg(flags)
        if on_error not in ("raise", "flag"):
            raise ValueError(f"on_error must be 'raise' or 'flag'; got {on_error!r}")
        self.raise_on_error = on_error == "raise"
        self_play = opponents is None
        self.c.need_memo = False
        for p in range(4):
            self.c.policy[p] = -1
        if not self_play:
            learner = _small_int_arg(learner_seat, "learner_seat", 0, nplayers - 1)
            try:
                opps = tuple(opponents)
            except TypeError:
                raise ValueError(f"opponents must be None or a sequence of policies; got {opponents!r}") from None
            if len(opps) != nplayers - 1:
                raise ValueError(f"opponents must name {nplayers - 1} policies (one per other seat); got {len(opps)}")
            for k in range(nplayers - 1):
                p = (learner + 1 + k) % nplayers
                self.c.policy[p] = _policy_arg(opps[k])
                if self.c.policy[p] == P_PLAN:
                    self.c.need_memo = True
        table = _rewards_arg(rewards, nplayers)
        for p in range(nplayers):
            self.c.rewards_table[p] = table[p]
        legal_masks = bool(legal_masks)
        final_obs = bool(final_obs)
        _vc_check_memory(n, nplayers, legal_masks, final_obs)
        self.obs = np.zeros((n, RL_OBS), np.uint8)
        self.action_mask = np.zeros((n, RL_ACTIONS), np.int8)
        self.num_legal = np.zeros(n, np.int32)
        self.seat = np.zeros(n, np.int8)
        self.reward = np.zeros(n, np.float32)
        self.terminated = np.zeros(n, np.bool_)
        self.error = np.zeros(n, np.uint8)
        self.places = np.full((n, nplayers), -1, np.int8)
        self.final_rewards = np.zeros((n, nplayers), np.float32)
        self.episodes = np.zeros(n, np.int64)
        self.actions = np.zeros(n, np.int64)
        self.legal = np.zeros((n, MAX_MOVES_13), np.uint64) if legal_masks else None
        self.final_obs = np.zeros((n, RL_OBS), np.uint8) if final_obs else None
        self.c.p_obs = <uint8_t*>cnp.PyArray_DATA(self.obs)
        self.c.p_mask = <int8_t*>cnp.PyArray_DATA(self.action_mask)
        self.c.p_nlegal = <int32_t*>cnp.PyArray_DATA(self.num_legal)
        self.c.p_seat = <int8_t*>cnp.PyArray_DATA(self.seat)
        self.c.p_reward = <float*>cnp.PyArray_DATA(self.reward)
        self.c.p_term = <uint8_t*>cnp.PyArray_DATA(self.terminated)
        self.c.p_err = <uint8_t*>cnp.PyArray_DATA(self.error)
        self.c.p_places = <int8_t*>cnp.PyArray_DATA(self.places)
        self.c.p_final = <float*>cnp.PyArray_DATA(self.final_rewards)
        self.c.p_episodes = <int64_t*>cnp.PyArray_DATA(self.episodes)
        self.c.p_act = <int64_t*>cnp.PyArray_DATA(self.actions)
        self.c.p_legal = <uint64_t*>cnp.PyArray_DATA(self.legal) if legal_masks else NULL
        self.c.p_final_obs = <uint8_t*>cnp.PyArray_DATA(self.final_obs) if final_obs else NULL
        # The arrays are views the caller reads; only this object writes them.
        for arr in (self.obs, self.action_mask, self.num_legal, self.seat, self.reward,
                    self.terminated, self.error, self.places, self.final_rewards,
                    self.episodes, self.actions):
            arr.flags.writeable = False
        if legal_masks:
            self.legal.flags.writeable = False
        if final_obs:
            self.final_obs.flags.writeable = False
        self.c.games = <RLG*>tl_big_calloc(n * sizeof(RLG))
        self.c.games_bytes = n * sizeof(RLG)
        self.c.limits = <int32_t*>calloc(n, sizeof(int32_t))
        if self.c.games == NULL or self.c.limits == NULL:
            self._free()
            raise MemoryError(f"could not allocate {n} games")
        self.c.num_envs = n
        self.c.players = nplayers
        self.c.flags = fl
        self.c.learner_seat = learner
        self.c.self_play = self_play
        for p in range(RL_MAX_THREADS):
            self.workers[p].c = &self.c
            self.workers[p].slot = p
        self.closed = False
        try:
            self.reset(seed)
        except BaseException:
            # Ctrl-C (or a bad seed) during the first deal: games never dealt must not be
            # stepped, so the object is left closed.
            self._free()
            self.closed = True
            raise

    @property
    def num_envs(self) -> int:
        return self.c.num_envs

    @property
    def players(self) -> int:
        return self.c.players

    @property
    def flags(self) -> int:
        return self.c.flags

    @property
    def learner_seat(self) -> int:
        """The learner's seat, -1 in self-play."""
        return self.c.learner_seat

    @property
    def self_play(self) -> bool:
        return self.c.self_play

    @property
    def _park_ns(self) -> int:
        """How long the last threaded step's workers may stay parked after it (ns): the
        parking rule's decision, for tests."""
        return self.c.spin_ns

    def __dealloc__(self):
        self._free()

    cdef void _free(self) noexcept:
        cdef int t
        # Parked workers read this object's memory: send them away before it goes.
        with nogil:
            _vc_stop_workers(&self.c)
        tl_big_free(self.c.games, self.c.games_bytes)
        self.c.games = NULL
        free(self.c.limits)
        self.c.limits = NULL
        for t in range(RL_MAX_THREADS):
            memo_close(&self.c.memos[t])

    def close(self):
        """Free the games; idempotent. Later calls to reset/step raise ValueError."""
        if self.busy:
            raise ValueError("cannot close while a step is running")
        self._free()
        self.closed = True

    cdef int _check_open(self) except -1:
        if self.closed or self.c.games == NULL:
            raise ValueError("this VecGames is closed")
        if self.busy:
            raise ValueError("another thread is stepping this VecGames")
        return 0

    cdef int _open_memos(self, int slots) except -1:
        cdef int t
        if not self.c.need_memo:
            return 0
        for t in range(slots):
            if self.c.memos[t].slots == NULL and memo_open(&self.c.memos[t]) < 0:
                raise MemoryError("could not allocate the PLAN split memo")
        return 0

    def reset(self, seed=0):
        """Deal every game afresh. `seed` is an int (env i then uses the stream
        (seed, i), as random_playouts does) or a uint64 array of one seed per env (env i's
        first deal is then exactly `deal(seeds[i], players)`)."""
        cdef Py_ssize_t i, j, end, n = self.c.num_envs
        cdef uint64_t s0
        cdef const uint64_t[::1] seeds
        cdef int failed = 0
        self._check_open()
        # Claimed before any Python call could let another thread in (see step).
        self.busy = True
        try:
            self._open_memos(1)
            if isinstance(seed, cnp.ndarray):
                # A private copy of exactly n seeds, its length read from the buffer
                # (arrays.pxi), never from seed.shape or seed.copy(), which a subclass
                # can override.
                seeds = array_in(seed, "seed", cnp.NPY_UINT64, 1, n, -1, AR_CONTIGUOUS)
                for i in range(n):
                    rng_seed(&self.c.games[i].rng, seeds[i])
            else:
                s0 = _seed_arg(seed)
                for i in range(n):
                    rng_seed(&self.c.games[i].rng, stream_seed(s0, <uint64_t>i))
            # In blocks, honouring Ctrl-C between them (dealing 2**24 games with PLAN
            # opponents takes minutes). Envs not reached keep their previous game and are
            # flagged RL_ERR_INTERRUPTED, as step leaves them.
            i = 0
            try:
                while i < n and not failed:
                    end = i + RL_BLOCK if i + RL_BLOCK < n else n
                    with nogil:
                        for j in range(i, end):
                            self.c.p_episodes[j] = 0
                            self.c.p_term[j] = 0
                            self.c.p_err[j] = 0
                            self.c.p_reward[j] = 0
                            if _vc_new_game(&self.c, j, &self.c.memos[0]) < 0:
                                failed = 1
                                break
                    i = end
                    if PyErr_CheckSignals() < 0:
                        _raise_pending()
            finally:
                _vc_mark_unstepped(&self.c, i, n)
        finally:
            self.busy = False
        if failed:
            raise MemoryError("a move list could not be allocated")

    cdef int _run(self, int t) except -1:
        """Step every env on this thread and t - 1 native workers; honour Ctrl-C between
        blocks (here, on the calling thread): then no block is claimed any more, the workers
        finish the blocks they hold, and the envs no thread reached are flagged as not
        stepped."""
        cdef Py_ssize_t n = self.c.num_envs, j
        cdef long long first[RL_MAX_THREADS]
        cdef bint more = True
        cdef SplitMemo* m = &self.c.memos[0]
        cdef int k
        # No worker is claiming now (the last step waited for all of them).
        self.c.nranges = t
        for k in range(t):
            tl_store_ll(&self.c.range_next[k], n * k // t)
            self.c.range_end[k] = n * (k + 1) // t
        tl_store(&self.c.run_failed, 0)
        try:
            with nogil:
                if t > 1:
                    _vc_dispatch(&self.c, self.workers, t)
                more = _vc_claim_run(&self.c, m, RL_BLOCK, 0)
            while more:
                # api.pxi declares PyErr_CheckSignals noexcept (the nogil loops rely on it):
                # raise what a handler left pending ourselves.
                if PyErr_CheckSignals() < 0:
                    _raise_pending()
                with nogil:
                    more = _vc_claim_run(&self.c, m, RL_BLOCK, 0)
        except BaseException:
            # Interrupted: stop all claims, wait for the blocks the workers hold, so no
            # thread touches a game after step returns, and flag the envs nobody reached.
            for k in range(t):
                # Push each range's counter past its end (so every later claim fails) and
                # keep where its unclaimed tail starts.
                first[k] = tl_claim(&self.c.range_next[k], n)
            with nogil:
                tl_wait_zero(&self.c.running)
            for k in range(t):
                _vc_mark_unstepped(&self.c, <Py_ssize_t>min(first[k], self.c.range_end[k]),
                                   <Py_ssize_t>self.c.range_end[k])
            raise
        with nogil:
            tl_wait_zero(&self.c.running)
            self.c.last_end_ns = tl_now_ns()
        if tl_load(&self.c.run_failed):
            raise MemoryError("a move list could not be allocated")
        return 0

    def step(self, actions, threads=1):
        """Step every env with `actions` (int64, shape (N,)): 0 passes, a plays legal move
        a - 1. Outputs are rewritten in place; a finished game is dealt afresh at once (its
        reward, places and terminated flag are in this step's outputs). Returns the number of
        envs whose action was outside their mask: with on_error="raise" (default) that
        raises ValueError before any env is stepped; with "flag" those envs are left exactly
        as they were and flagged in `error`. `threads` > 1 steps slices on worker threads."""
        cdef Py_ssize_t n = self.c.num_envs, bad, nbad = 0
        cdef int t = _small_int_arg(threads, "threads", 1, RL_MAX_THREADS)
        self._check_open()
        # Claim the games before any Python-level call: _check_open and this assignment run
        # under the GIL with nothing in between that could release it, so two threads can
        # never step the same games at once.
        self.busy = True
        try:
            # Held, not copied: _load_actions reads each action once into our own buffer
            # (p_act), which is what is checked and stepped. Its length is the buffer's
            # (arrays.pxi), never actions.shape, which a subclass can override.
            held = array_view(actions, "actions", cnp.NPY_INT64, 1, n)
            nbad = self._load_actions(<const int64_t*>(<HeldBuffer>held).data)
            (<HeldBuffer>held).release()
            if nbad and self.raise_on_error:
                bad = 0
                while rl_legal(&self.c.games[bad], self.c.p_act[bad]):
                    bad += 1
                raise ActionOutsideMaskError(
                    f"action {self.c.p_act[bad]} of env {bad} is not in its action mask: "
                    f"{_rl_legal_text(&self.c.games[bad])}"
                    + (f" ({nbad} envs had illegal actions)" if nbad > 1 else "")
                    + "; nothing was stepped")
            if t > n:
                t = <int>n
            self._open_memos(t)
            self._run(t)
        finally:
            self.busy = False
        return nbad

    cdef Py_ssize_t _load_actions(self, const int64_t* a_in) except -1:
        """Copy the caller's actions into our buffer (the loop never reads the caller's
        array again, even if another thread writes it) and count the illegal ones, by the
        compact per-env limits (one int32 each, not a page of game per env)."""
        cdef Py_ssize_t i, nbad = 0, n = self.c.num_envs
        cdef int64_t* a_out = self.c.p_act
        cdef const int32_t* limits = self.c.limits
        cdef int64_t a
        cdef int32_t lim
        with nogil:
            # One pass, without branches: the learner's actions are as random as its policy,
            # so a branch on "is this a pass" mispredicted often (this loop took 5 ns an env).
            # a is legal when it is 0 and pass is allowed, or 1 <= a <= count, i.e.
            # a - 1 < count as unsigned (a = 0 wraps to the largest value).
            for i in range(n):
                a = a_in[i]
                lim = limits[i]
                a_out[i] = a
                nbad += not (((a == 0) & (lim & 1)) | ((<uint64_t>a - 1) < <uint64_t>(lim >> 1)))
        return nbad

    cdef Py_ssize_t _env_arg(self, object env) except -1:
        """Env index `env`, read before the open check and the bound: its __index__ is
        Python code that may close or re-initialise these games, so neither may be read
        before it has run (the bound would be stale, the games freed)."""
        cdef int64_t i = _int_arg(env, "env", 0, (<int64_t>1) << 62)
        self._check_open()
        if i >= self.c.num_envs:
            raise ValueError(f"env must be in 0..{self.c.num_envs - 1}; got {_quote(env)}")
        return <Py_ssize_t>i

    def game_state(self, env):
        """A copy of env `env`'s core GameState (for tests and debugging)."""
        cdef Py_ssize_t i = self._env_arg(env)
        cdef GameState gs = GameState.__new__(GameState)
        gs.s = self.c.games[i].s
        return gs

    def legal_action_cards(self, env, out=None):
        """int8 (487, 52) card vectors of env `env`'s actions (as RLGame.legal_action_cards)."""
        # `env` first (its __index__ is Python code that may close these games), then
        # `out` held (its buffer read with no Python code of an ndarray's), then the open
        # check and the bound again, in case holding `out` ran any.
        cdef Py_ssize_t i = self._env_arg(env)
        cdef HeldBuffer o = _rl_out(out, cnp.NPY_INT8, RL_ACTIONS, 52)
        self._check_open()
        if i >= self.c.num_envs:
            raise ValueError(f"env must be in 0..{self.c.num_envs - 1}; got {_quote(env)}")
        rl_action_cards(&self.c.games[i], <int8_t*>o.data)
        o.release()
        return o.array

    def __reduce__(self):
        raise TypeError("VecGames holds native games and cannot be pickled")


cdef list _rewards_arg(object rewards, int players):
    """The reward per finishing place (first .. last); default R10.2 points."""
    if rewards is None:
        return [float(players - 1 - k) for k in range(players)]
    try:
        vals = [float(x) for x in rewards]
    except (TypeError, ValueError):
        raise ValueError(f"rewards must be {players} numbers, one per place; got {rewards!r}") from None
    if len(vals) != players:
        raise ValueError(f"rewards must be {players} numbers, one per place; got {len(vals)}")
    for v in vals:
        if v != v or v in (float("inf"), float("-inf")):
            raise ValueError(f"rewards must be finite; got {rewards!r}")
    return vals
