# The Python face of the game state (state.pxi): GameState, LegalView, and the one
# validator every way of building a state ends in (_check_state).

cdef class GameState:
    """The compact state of one hand (R5-R9): four masks and a few small ints.

    >>> s = GameState(deal(7))
    >>> s.turn == next(p for p, h in enumerate(s.hands) if h & 1)    # 3♠ holder leads
    True
    >>> s.must_include, s.can_pass()
    (0, False)
    """
    cdef State s

    def __init__(self, hands, leader=-1, flags=0, dealt=False):
        """`dealt=True` says the hands were just dealt, so R11.3 applies: if the rules
        enable instant wins and a hand holds one, the hand is over at once (see
        `instant_win`). Positions set up by hand (the default) are never checked."""
        cdef uint64_t hs[4]
        cdef uint64_t seen = 0
        cdef int n, p, lead
        cdef uint64_t f = _flags_arg(flags)
        hands = _hands_arg(hands)
        n = len(hands)
        if n < 2 or n > 4:
            raise ValueError(f"a hand needs 2, 3 or 4 players; got {n} hands")
        for p in range(4):
            hs[p] = 0
        for p in range(n):
            hs[p] = _mask_arg(hands[p], f"hands[{p}]")
            if hs[p] == 0:
                raise ValueError(f"hands[{p}] is empty: every player needs cards")
            if hs[p] & seen:
                raise ValueError(f"hands[{p}] shares cards with another hand")
            seen |= hs[p]
        lead = -1 if leader is None else _small_int_arg(leader, "leader", -1, n - 1)
        # Built in a local and stored only once checked, so that calling __init__ again
        # with arguments that fail leaves a state in play exactly as it was.
        cdef State built
        st_init(&built, hs, n, lead, f)
        if dealt:
            st_deal_instant_win(&built)
        _check_state(&built)
        self.s = built

    @staticmethod
    def from_fields(hands, pile_mask=0, pile_owner=-1, turn=0, locked_mask=0, finished=(),
                    must_include=-1, flags=0, played_mask=0):
        """Build a state from its fields (for search from a seat's view). Validated by the
        same checks as unpickling (_check_state): a state no game could reach is refused."""
        cdef GameState g = GameState.__new__(GameState)
        _fill_state(&g.s, hands, finished, flags, pile_mask, played_mask)
        _fill_turn(&g.s, pile_owner, turn, locked_mask, must_include, 0)
        _check_state(&g.s)
        return g

    @property
    def players(self):
        return self.s.players

    @property
    def flags(self):
        """The Rules.flags word this state plays under."""
        return self.s.rules.flags

    @property
    def instant_win(self):
        """R11.3: the instant win (rules.ALL_INSTANT_WINS index) that ended this hand at the
        deal, or -1. The winner is finished[0]; the others share last place."""
        return st_instant_win(&self.s)

    @property
    def turn(self):
        """Seat to act, or -1 once the hand is over."""
        return self.s.turn

    @property
    def hands(self):
        return tuple(self.s.hands[p] for p in range(self.s.players))

    def hand(self, seat):
        # The seat is read before the bound: its __index__ may re-initialise this state with
        # fewer players.
        cdef int p = _small_int_arg(seat, "seat", 0, 3)
        if p >= self.s.players:
            raise ValueError(f"seat must be in 0..{self.s.players - 1}; got {_quote(seat)}")
        return self.s.hands[p]

    @property
    def pile_code(self):
        return self.s.pile_code

    @property
    def pile_mask(self):
        return self.s.pile_mask

    @property
    def pile_owner(self):
        return self.s.pile_owner

    @property
    def locked_mask(self):
        return self.s.locked

    @property
    def finished(self):
        return tuple(self.s.order[p] for p in range(self.s.nfinished))

    @property
    def is_over(self):
        return self.s.turn < 0

    @property
    def loser(self):
        return self.s.order[self.s.players - 1] if self.s.turn < 0 else -1

    @property
    def must_include(self):
        return self.s.must_include

    @property
    def played_mask(self):
        return self.s.played

    def legal_moves(self):
        """Legal plays of the seat to act (uint64 array; empty once over). Pass not included."""
        if self.s.turn < 0:
            return np.empty(0, np.uint64)
        return _moves_array(self.s.hands[self.s.turn], self.s.pile_code, &self.s.rules,
                            (self.s.locked >> self.s.turn) & 1, self.s.must_include)

    def count_legal_moves(self):
        return st_moves(&self.s, NULL)

    def legal_moves_list(self):
        """legal_moves() as a list of Python ints: cheaper than an array when the caller
        wraps every move in a Python object anyway."""
        cdef uint64_t buf[STACK_MOVES]
        cdef uint64_t* moves
        cdef int64_t n, i
        if self.s.turn < 0:
            return []
        if TL_POPCOUNT(self.s.hands[self.s.turn]) > 13:
            # Only a hand this big can have more moves than MAX_MOVES: count it first.
            n = st_moves(&self.s, NULL)
            if n > MAX_MOVES_C:
                raise ValueError(f"{n} legal moves exceed MAX_MOVES={MAX_MOVES_C}")
        n = st_moves_buffered(&self.s, buf, STACK_MOVES, &moves)
        if n < 0:
            raise MemoryError()
        try:
            return [moves[i] for i in range(n)]
        finally:
            if moves != buf:
                free(moves)

    def legal_moves_through(self, MaskTable table not None):
        """legal_moves_list() with every mask mapped through `table` (a MaskTable): the
        Python layer passes its table of shared move objects, so listing N moves is N
        probes in C, with no Python int or Python call per move on a hit."""
        return _moves_through(self, table)

    def can_pass(self):
        return st_check_pass(&self.s) == R_OK

    def check_play(self, mask):
        """Reason code (0 = OK) for playing `mask` now."""
        cdef uint32_t code = 0
        return st_check_play(&self.s, _mask_arg(mask, "mask"), &code)

    def check_pass(self):
        return st_check_pass(&self.s)

    def apply(self, mask):
        """Fast path: play `mask` (0 = pass) trusting that it is legal, as OpenSpiel's
        apply_action does, and return the play's combo code (0 for a pass). It still refuses what would corrupt the state (a move after the
        end, cards not held, a non-combination, a pass on an empty pile) with ValueError."""
        cdef uint64_t m
        cdef uint32_t code
        cdef int t
        # The mask first: its __index__ is Python code that may move this state on, so the
        # seat to act is read only once no Python can run before st_play.
        m = _mask_arg(mask, "mask")
        t = self.s.turn
        if t < 0 or self.s.players < 2:
            raise ValueError("the hand is over")
        if m == 0:
            if self.s.pile_code == 0:
                raise ValueError("cannot pass on lead")
            st_pass(&self.s)
            return 0
        code = c_classify(m, self.s.rules.flags)
        if code == 0 or (m & ~self.s.hands[t]):
            raise ValueError("not a combination held by the player to act")
        st_play(&self.s, m, code)
        return code

    def try_play(self, mask):
        """The checked path in one call: play `mask` if it is legal and return its combo code
        (> 0); otherwise change nothing and return minus the reason code."""
        cdef uint32_t code = 0
        cdef uint64_t m = _mask_arg(mask, "mask")
        cdef int reason = st_check_play(&self.s, m, &code)
        if reason != R_OK:
            return -reason
        st_play(&self.s, m, code)
        return code

    def try_pass(self):
        """Pass if allowed and return 0; otherwise change nothing and return minus the reason."""
        cdef int reason = st_check_pass(&self.s)
        if reason != R_OK:
            return -reason
        st_pass(&self.s)
        return 0

    def play_record(self, cards, combos, record):
        """tienlen.Game.play's checked play in one call: if `cards` (an object whose
        ``_mask`` is its card mask, a tienlen Cards) may be played now, play it and return
        ``record((seat, "play", cards, combo))``, the record of the action, where combo is
        ``combos[played_key(mask, code)]``; otherwise change nothing and return minus the
        reason code (an int). `record` is a tuple subclass (tienlen's Action)."""
        cdef uint32_t code = 0
        cdef uint64_t m
        cdef int seat, reason
        cdef MaskTable table
        if not isinstance(combos, MaskTable):
            raise ValueError(f"combos must be a MaskTable; got {_quote(combos)}")
        if not (isinstance(record, type) and issubclass(record, tuple)):
            raise ValueError(f"record must be a tuple subclass; got {_quote(record)}")
        table = <MaskTable>combos
        m = _mask_arg(cards._mask, "cards._mask")
        reason = st_check_play(&self.s, m, &code)
        if reason != R_OK:
            return -reason
        combo = table.find(_played_key(m, code))
        if combo is None:
            # A miss runs the table's factory, Python code: the play is checked again
            # against the state as it is once that returns.
            combo = table.get(_played_key(m, code))
            reason = st_check_play(&self.s, m, &code)
            if reason != R_OK:
                return -reason
        seat = self.s.turn
        st_play(&self.s, m, code)
        return tuple.__new__(record, (seat, _PLAY_WORD, cards, combo))

    def pass_record(self, records):
        """tienlen.Game.pass_turn's checked pass in one call: pass if allowed and return
        ``records[seat]`` (the seat that passed); otherwise change nothing and return minus
        the reason code."""
        cdef int seat = self.s.turn
        cdef int reason
        if type(records) is not tuple:
            raise ValueError(f"records must be a tuple; got {_quote(records)}")
        reason = st_check_pass(&self.s)
        if reason != R_OK:
            return -reason
        if seat >= len(<tuple>records):
            raise ValueError(f"records has no entry for seat {seat}")
        st_pass(&self.s)
        return records[seat]

    def apply_checked(self, mask):
        """Checked path: apply `mask` (0 = pass) or raise ValueError naming the reason."""
        cdef uint32_t code = 0
        cdef int reason
        cdef uint64_t m = _mask_arg(mask, "mask")
        reason = st_check_pass(&self.s) if m == 0 else st_check_play(&self.s, m, &code)
        if reason != R_OK:
            raise ValueError(REASON_NAMES[reason])
        if m == 0:
            st_pass(&self.s)
        else:
            st_play(&self.s, m, code)

    cdef int _require_built(self) except -1:
        if self.s.players < 2:
            raise ValueError("this GameState was never initialised")
        return 0

    def copy(self):
        cdef GameState g = GameState.__new__(GameState)
        g.s = self.s
        return g

    def __copy__(self):
        return self.copy()

    def key(self):
        """Every field as a tuple: equal keys mean equal states."""
        return (self.hands, self.s.pile_mask, self.s.pile_code, self.s.pile_owner, self.s.turn,
                self.s.locked, self.finished, self.s.must_include, self.s.rules.flags, self.s.played)

    def __eq__(self, other):
        if not isinstance(other, GameState):
            return NotImplemented
        return self.key() == other.key()

    __hash__ = None

    def __reduce__(self):
        return (_state_from_key, (self.key(),))

    def __repr__(self):
        return (f"GameState(turn={self.s.turn}, pile_code={self.s.pile_code}, "
                f"owner={self.s.pile_owner}, locked={self.s.locked:#x}, finished={self.finished})")

    def playout(self, seed, policy=P_RANDOM):
        """Finishing order of a playout from here by `policy` (RANDOM, GREEDY or PLAN). The
        state itself is unchanged. PLAN ignores the seed: it is deterministic."""
        cdef State c = self.s
        cdef Rng r
        cdef SplitMemo m
        cdef int pol = _policy_arg(policy)
        cdef int failed = 0
        self._require_built()
        rng_seed(&r, _seed_arg(seed))
        _memo_for(&m, pol)
        with nogil:
            failed = run_playout(&c, &r, pol, &m)
            memo_close(&m)
        if failed:
            raise MemoryError("playout could not allocate a move buffer")
        return tuple(c.order[p] for p in range(c.nfinished))

    def playout_moves(self, seed, policy=P_RANDOM):
        """Like playout, but also returns the list of actions taken (0 = pass), so that the
        native playout can be checked against tienlen.Game."""
        cdef State c = self.s
        cdef Rng r
        cdef int pol = _policy_arg(policy)
        self._require_built()
        rng_seed(&r, _seed_arg(seed))
        moves = _record_steps(&c, &r, pol)
        return tuple(c.order[p] for p in range(c.nfinished)), moves


cdef list _record_steps(State* c, Rng* r, int pol):
    """Play `c` to the end by `pol`, returning every action taken (0 = pass)."""
    cdef State before
    cdef uint64_t buf[STACK_MOVES]
    cdef SplitMemo m
    cdef Plans pl
    cdef int failed = 0
    moves = []
    _memo_for(&m, pol)
    try:
        if pol == P_PLAN:
            plans_init(&pl, c, &m)
        while c.turn >= 0:
            before = c[0]
            if pol == P_PLAN:
                failed = st_plan_step(c, &pl, &m, buf, STACK_MOVES)
            else:
                failed = st_step(c, r, pol, buf, STACK_MOVES)
            if failed:
                raise MemoryError("playout could not allocate a move buffer")
            moves.append(before.hands[before.turn] & ~c.hands[before.turn])
    finally:
        memo_close(&m)
    return moves


cdef int _memo_for(SplitMemo* m, int policy) except -1:
    """Open the split memo `m` if `policy` needs one (always leaves it safe to close)."""
    m.slots = NULL
    if policy == P_PLAN and memo_open(m) < 0:
        raise MemoryError("could not allocate the split memo")
    return 0


cdef list _moves_through(GameState g, MaskTable table):
    """GameState.legal_moves_through, shared with LegalView.__iter__."""
    cdef uint64_t buf[STACK_MOVES]
    cdef uint64_t* moves
    cdef int64_t n, i
    cdef list out
    if g.s.turn < 0:
        return []
    if TL_POPCOUNT(g.s.hands[g.s.turn]) > 13:
        n = st_moves(&g.s, NULL)
        if n > MAX_MOVES_C:
            raise ValueError(f"{n} legal moves exceed MAX_MOVES={MAX_MOVES_C}")
    # Listed before any lookup: a miss runs the table's factory, Python code that could
    # act on this state; the list is of the state as it was when called.
    n = st_moves_buffered(&g.s, buf, STACK_MOVES, &moves)
    if n < 0:
        raise MemoryError()
    try:
        out = PyList_New(n)
        for i in range(n):
            value = table.get(moves[i])
            Py_INCREF(value)            # PyList_SET_ITEM steals a reference
            PyList_SET_ITEM(out, i, value)
        return out
    finally:
        if moves != buf:
            free(moves)


cdef str _PLAY_WORD = "play"


cdef inline uint64_t _played_key(uint64_t m, uint32_t code) noexcept nogil:
    """The key of a play's record in a combos table: its mask, kind and top card
    (``mask | kind << 52 | top << 56``, below 2**62). The code's card count is the mask's, so
    the key names the (code, mask) pair exactly."""
    return m | (<uint64_t>((code >> 12) & 0xF) << 52) | (<uint64_t>(code & 0x3F) << 56)


def played_key(mask, code):
    """The key GameState.play_record looks a play's combo up under, for a (mask, code) pair
    the core accepted: ``mask | kind << 52 | top << 56``.

    >>> played_key(1, classify(1)) == 1 | SINGLE << 52
    True
    """
    cdef uint64_t m = _mask_arg(mask, "mask")
    cdef uint32_t c = <uint32_t>_int_arg(code, "code", 1, 0xFFFF)
    if ((c >> 6) & 0x3F) != <uint32_t>TL_POPCOUNT(m):
        raise ValueError(f"code {code!r} is not a code of {TL_POPCOUNT(m)} cards")
    return _played_key(m, c)


@cython.auto_pickle(False)
cdef class LegalView:
    """The native base of tienlen.game.LegalMoves: the legal plays of `state`'s seat to act,
    each mask mapped through `table` (a MaskTable), listed and counted in C. Live: it reads
    the state as it is whenever it is asked.

    >>> from tienlen import core
    >>> s = core.GameState([0b111, 0b111000])
    >>> view = LegalView(s, MaskTable(lambda m: m))
    >>> len(view), list(view) == s.legal_moves_list(), bool(view)  # the leads holding 3♠ (R7.2)
    (4, True, True)
    """
    cdef GameState _st
    cdef MaskTable _table
    # The last list made, and the inputs of move generation it was made from: a view asked
    # twice about one position (list() asks len() for a length hint, then iterates) lists
    # once. The moves are a function of exactly these fields (st_moves' arguments).
    cdef list _last
    cdef uint64_t _k_hand
    cdef uint64_t _k_flags
    cdef uint32_t _k_pile
    cdef int _k_locked
    cdef int _k_must

    def __init__(self, state, table):
        if not isinstance(state, GameState):
            raise ValueError(f"state must be a GameState; got {_quote(state)}")
        if not isinstance(table, MaskTable):
            raise ValueError(f"table must be a MaskTable; got {_quote(table)}")
        self._st = state
        self._table = table
        self._last = None

    cdef list _moves(self):
        cdef State* s
        cdef int t
        cdef uint64_t hand, flags
        cdef uint32_t pile
        cdef int locked, must
        if self._st is None or self._table is None:
            raise ValueError("this LegalView was never initialised")
        s = &self._st.s
        t = s.turn
        if t < 0:
            return []
        hand, pile, flags = s.hands[t], s.pile_code, s.rules.flags
        locked, must = (s.locked >> t) & 1, s.must_include
        if (self._last is not None and hand == self._k_hand and pile == self._k_pile
                and flags == self._k_flags and locked == self._k_locked and must == self._k_must):
            return self._last
        # Keyed by the inputs as read before listing: a table miss runs Python code.
        out = _moves_through(self._st, self._table)
        self._last = out
        self._k_hand, self._k_pile, self._k_flags = hand, pile, flags
        self._k_locked, self._k_must = locked, must
        return out

    def __iter__(self):
        # An iterator over the kept list: the caller never holds the list itself.
        return iter(self._moves())

    def __len__(self):
        return len(self._moves())

    def __bool__(self):
        return len(self._moves()) > 0


def _state_from_key(key):
    """Inverse of GameState.key(), for pickling. The fields go through _check_state, the one
    validator from_fields and the constructor use: a key, however corrupt, either gives a
    state some game could reach or raises ValueError."""
    cdef GameState g = GameState.__new__(GameState)
    try:
        hands, pile_mask, pile_code, owner, turn, locked, finished, mi, flags, played = key
        _fill_state(&g.s, hands, finished, flags, pile_mask, played)
        if g.s.pile_code != _int_arg(pile_code, "pile_code", 0, 0xFFFFFFFF):
            raise ValueError("pile code does not match the pile")
        _fill_turn(&g.s, owner, turn, locked, mi, -1)
        _check_state(&g.s)
    except (TypeError, OverflowError, ValueError) as e:
        raise ValueError(f"not a GameState key: {e}") from None
    return g


cdef int _fill_state(State* s, object hands, object finished, object flags, object pile_mask,
                     object played_mask) except -1:
    """The card fields of a state built from fields (from_fields, unpickling): the players,
    the rules, hands, finishing order, pile and played cards, each range-checked."""
    cdef int n, p
    hands = _hands_arg(hands)
    n = len(hands)
    if n < 2 or n > 4:
        raise ValueError(f"a hand needs 2, 3 or 4 players; got {n} hands")
    try:
        finished = tuple(finished)
    except TypeError:
        raise ValueError(f"finished must be a sequence of seats; got {_quote(finished)}") from None
    if len(finished) > n:
        raise ValueError(f"finished lists {len(finished)} seats; there are {n}")
    s.players = n
    rules_decode(&s.rules, _flags_arg(flags))
    for p in range(4):
        s.hands[p] = _mask_arg(hands[p], f"hands[{p}]") if p < n else 0
        s.order[p] = _small_int_arg(finished[p], "finished seat", 0, n - 1) if p < len(finished) else -1
    s.nfinished = len(finished)
    s.pile_mask = _mask_arg(pile_mask, "pile_mask")
    s.pile_code = c_classify(s.pile_mask, s.rules.flags)
    s.played = _mask_arg(played_mask, "played_mask")
    return 0


cdef int _fill_turn(State* s, object pile_owner, object turn, object locked_mask,
                    object must_include, int lowest_turn) except -1:
    """The turn fields (after _fill_state): pile owner, seat to act (from `lowest_turn`:
    -1 admits a finished hand), lock-outs and the card the lead must hold."""
    cdef int n = s.players
    s.pile_owner = _small_int_arg(pile_owner, "pile_owner", -1, n - 1)
    s.turn = _small_int_arg(turn, "turn", lowest_turn, n - 1)
    s.locked = _small_int_arg(locked_mask, "locked_mask", 0, (1 << n) - 1)
    s.must_include = _card_arg(must_include, "must_include", True)
    return 0


cdef int _check_state(const State* s) except -1:
    """The one validator of a built State (constructor, from_fields, unpickling): raises
    ValueError unless the fields describe a state that play could reach, in the ways the C
    code relies on. Every playout policy is correct (plays only legal moves, terminates) on
    every state that passes; tests/test_fuzz.py checks that over random accepted states.

    Field ranges (players 2..4, seats, masks below 2**52, nfinished <= players) are the
    caller's to check before filling the struct; this checks how the fields fit together."""
    cdef int n = s.players, p, q, holding = 0
    cdef uint64_t seen = 0
    for p in range(n):
        if s.hands[p] & seen:
            raise ValueError(f"hands[{p}] shares cards with another hand")
        seen |= s.hands[p]
        if s.hands[p]:
            holding += 1
    for p in range(n, 4):
        if s.hands[p]:
            raise ValueError(f"hands[{p}] is set for a {n}-player hand")
    if s.played & seen:
        raise ValueError("played_mask overlaps the hands")
    if s.pile_mask and not s.pile_code:
        raise ValueError("pile_mask is not a combination")
    if s.pile_mask & seen:
        raise ValueError("pile_mask overlaps the hands: the pile's cards were played")
    if (s.pile_owner == -1) != (s.pile_code == 0):
        raise ValueError(f"pile_owner {s.pile_owner} does not fit the pile")
    for p in range(s.nfinished):
        for q in range(p):
            if s.order[q] == s.order[p]:
                raise ValueError("finished must list distinct seats")
    for p in range(s.nfinished, 4):
        if s.order[p] != -1:
            raise ValueError("finished has entries past its length")
    if s.turn < 0:
        # Over (only pickles of finished hands): every seat placed, the loser last and the
        # only one still holding cards (R9.2).
        if s.nfinished != n:
            raise ValueError("a finished hand places every seat")
        if s.hands[s.order[0]]:
            # R11.3: won at the deal. Nobody played; the winner's hand is an instant win.
            if s.played or s.pile_code or s.locked or holding != n:
                raise ValueError("a hand won at the deal (R11.3) has no play")
            if c_instant_win(s.hands[s.order[0]], s.rules.flags) < 0:
                raise ValueError("the first seat still holds cards but its hand is not an "
                                 "instant win under these rules (R11.3)")
            if s.must_include >= 0:
                raise ValueError("must_include applies only to a lead by its holder")
            return 0
        for p in range(n - 1):
            if s.hands[s.order[p]]:
                raise ValueError("finished must list distinct seats that hold no cards")
        if s.must_include >= 0:
            raise ValueError("must_include applies only to a lead by its holder")
        return 0
    for p in range(s.nfinished):
        if s.hands[s.order[p]]:
            raise ValueError("finished must list distinct seats that hold no cards")
    if holding < 2:
        raise ValueError("a hand in play needs at least two players holding cards")
    if holding + s.nfinished != n:
        raise ValueError("every seat must hold cards or be listed in finished")
    if s.turn >= n or s.hands[s.turn] == 0:
        raise ValueError(f"turn {s.turn} must be a seat that holds cards")
    if s.pile_code and s.pile_owner == s.turn:
        raise ValueError("the pile's owner never acts on its own pile: the pile clears first (R6.1)")
    if s.pile_code == 0 and s.locked:
        raise ValueError("nobody can be locked out of an empty pile")
    if (s.locked >> s.turn) & 1 and not c_locked_may_act(&s.rules, s.pile_code):
        raise ValueError("a locked-out seat only gets the turn while the pile is something "
                         "it may cut out of turn: 2s under the contract (R5.3)")
    if s.must_include >= 0 and (s.pile_code or not ((s.hands[s.turn] >> s.must_include) & 1)):
        raise ValueError("must_include applies only to a lead by its holder")
    return 0
