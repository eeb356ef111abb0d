"""Crash, hang and state-change hunting on the APIs that landed after tests/test_hardening.py:
the rules-as-data layer, match scoring, the Guandan core and game, the RL envs and the CLI.

Each test names the finding it pins. A crash in the native core takes the whole run down,
so the calls that used to crash run in a child process and the test reads its exit status.
Fast by default; ``TIENLEN_SOAK=1`` runs the random loops for longer.
"""

from __future__ import annotations

import copy
import os
import pickle
import subprocess
import sys
import textwrap
import threading

import numpy as np
import pytest

from tienlen import _core, _guandan
from tienlen.games.tienlen.rules import Rules

SOAK = os.environ.get("TIENLEN_SOAK") == "1"


def _run_child(script: str) -> subprocess.CompletedProcess[str]:
    """Run `script` in a fresh interpreter (a segfault there fails the test, not the run)."""
    return subprocess.run([sys.executable, "-X", "faulthandler", "-c", textwrap.dedent(script)],
                          capture_output=True, text=True, timeout=120)


# ------------------------------------------------ an argument's __index__ closes the games

def test_vecgames_env_accessors_survive_an_index_that_closes_the_games() -> None:
    """VecGames.game_state / legal_action_cards checked `closed` and took the bound before
    reading `env`, whose __index__ may run any Python: closing the games there left the call
    reading freed memory (a segfault). Now the argument is read first."""
    result = _run_child("""
        import numpy as np
        from tienlen import _core
        outcomes = []
        for method in ("game_state", "legal_action_cards"):
            v = _core.VecGames(4, legal_masks=True)
            class Closer:
                def __index__(self):
                    v.close()
                    return 0
            try:
                getattr(v, method)(Closer())
            except ValueError as error:
                outcomes.append(str(error))
        # An out array whose shape property would close the games: out's size is read
        # from its buffer (src/arrays.pxi), so the property never runs and the call answers.
        v = _core.VecGames(2)
        class Sneaky(np.ndarray):
            @property
            def shape(self):
                v.close()
                return (487, 52)
        try:
            cards = v.legal_action_cards(0, np.zeros((487, 52), np.int8).view(Sneaky))
            outcomes.append(f"open={not v.closed} same={bool((cards == v.legal_action_cards(0)).all())}")
        except ValueError as error:
            outcomes.append(str(error))
        print(outcomes)
    """)
    assert result.returncode == 0, result.stderr[-2000:]
    assert result.stdout.count("closed") == 2, result.stdout
    assert "open=True same=True" in result.stdout, result.stdout


def test_vecgames_env_bound_is_the_size_after_the_index_ran() -> None:
    """An env index whose __index__ re-initialises the games to one env, then names env 3:
    refused against the new size (it used to read past the one game allocated)."""
    v = _core.VecGames(4)

    class Shrink:
        def __index__(self) -> int:
            v.close()
            v.__init__(1)  # type: ignore[misc]
            return 3

    with pytest.raises(ValueError, match="env must be in 0..0"):
        v.game_state(Shrink())
    assert v.num_envs == 1
    v.close()


# --------------------------------------- an argument's __index__ moves the state on first

def _tl_state() -> _core.GameState:
    return _core.GameState(_core.deal(11), leader=0)


def test_gamestate_apply_reads_the_mask_before_the_seat_to_act() -> None:
    """GameState.apply read the seat to act, then the mask (whose __index__ may play a move):
    it then checked the cards against the old seat's hand and played them for the new seat,
    who did not hold them. Now the mask is read first, so the check is of the real seat."""
    state = _tl_state()
    first = int(state.legal_moves()[0])

    class PlaysFirst:
        def __index__(self) -> int:
            state.apply(first)            # seat 0 leads; seat 1 is now to act
            return first                  # ... and seat 1 does not hold these cards

    with pytest.raises(ValueError, match="not a combination held"):
        state.apply(PlaysFirst())
    after_one = _tl_state()
    after_one.apply(first)
    assert state == after_one             # only the inner move happened


def test_gamestate_hand_seat_bound_is_taken_after_the_index() -> None:
    state = _core.GameState(_core.deal(2), leader=0)

    class Shrink:
        def __index__(self) -> int:
            state.__init__([0b1, 0b10], leader=0)  # type: ignore[misc]
            return 3

    with pytest.raises(ValueError, match="seat must be in 0..1"):
        state.hand(Shrink())


def _gd_state() -> _guandan.GdState:
    return _guandan.GdState(_guandan.deal(4), level=2, leader=0)


def test_gdstate_apply_reads_every_argument_before_the_state() -> None:
    """GdState.apply read the seat, then the cards, then the code (each __index__ may play a
    move): a code whose __index__ played first made it apply seat 0's play for seat 1."""
    state = _gd_state()
    masks, codes = state.legal_plays()
    once, twice, code = int(masks[0][0]), int(masks[0][1]), int(codes[0])

    class PlaysFirst:
        def __index__(self) -> int:
            state.apply(once, twice, code)
            return code

    with pytest.raises(ValueError, match="does not hold"):
        state.apply(once, twice, PlaysFirst())
    expected = _gd_state()
    expected.apply(once, twice, code)
    assert state == expected


def test_gdstate_playouts_after_checks_and_starts_from_one_snapshot() -> None:
    """playouts_after checked each action against the state as it was when that action was
    read; a later action's __index__ could move the state on, and the playouts then applied
    earlier actions, now illegal, to the moved state. Now every action is read first, then
    all are checked against one snapshot, which every playout starts from."""
    state = _gd_state()
    masks, codes = state.legal_plays()
    first = (int(masks[0][0]), int(masks[0][1]), int(codes[0]))

    class PlaysFirst:
        def __index__(self) -> int:
            state.apply(*first)
            return first[0]

    # Action 0 is legal for seat 0 before action 1's __index__ plays it for seat 0.
    with pytest.raises(ValueError, match=r"actions\[0\] is not legal"):
        state.playouts_after([first, (PlaysFirst(), first[1], first[2])], seed=1)


def test_gdstate_playouts_take_n_as_a_checked_count() -> None:
    """`n` was a C int parameter: None or "3" raised TypeError, 2**63 OverflowError, and 1.5
    or True were taken as 1."""
    state = _gd_state()
    before = state.key()
    for bad in (None, "3", 1.5, True, 2 ** 63, -1, np.float64(2.0), object()):
        with pytest.raises(ValueError, match="n must"):
            state.playouts(1, bad)
    assert state.key() == before
    firsts, decisions = state.playouts(1, np.int16(3))
    assert sum(firsts) == 3 and decisions > 0


@pytest.mark.parametrize("policy", [1.0, np.float64(1.0), np.True_, 1 + 0j, "1", None])
def test_gdstate_policy_is_an_int_by_index(policy: object) -> None:
    """The Guandan policy argument was compared with ==, so 1.0, numpy.True_ and 1+0j
    passed as GREEDY (Tiến Lên's policies refuse them)."""
    state = _gd_state()
    for call in (lambda: state.playout(1, policy), lambda: state.playout_actions(1, policy),
                 lambda: state.playouts(1, 2, policy),
                 lambda: state.playouts_after([(0, 0, 0)] if state.can_pass() else [], 1, policy)):
        with pytest.raises(ValueError, match="policy"):
            call()


def test_gdstate_playouts_ignore_a_state_changed_by_another_thread() -> None:
    """GdState.playouts copied the state afresh inside its GIL-free loop for every playout,
    so another thread playing on the state between chunks changed the answer mid-call (and
    could hand the loop a torn copy). Now it starts every playout from one snapshot: the
    totals equal those of a copy nobody touched."""
    state = _gd_state()
    untouched = state.copy()
    expected = untouched.playouts(5, 2048, _guandan.GREEDY)
    stop = threading.Event()

    def mutate() -> None:
        while not stop.is_set():
            s = state.copy()
            m, c = s.legal_plays()
            state.apply(int(m[0][0]), int(m[0][1]), int(c[0]))     # seat 0 leads
            state.__init__(_guandan.deal(4), level=2, leader=0)  # type: ignore[misc]

    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    thread = threading.Thread(target=mutate)
    thread.start()
    try:
        got = state.playouts(5, 2048, _guandan.GREEDY)
    finally:
        stop.set()
        thread.join()
        sys.setswitchinterval(interval)
    # The mutator leaves the state either as dealt or one play on; the call began on one of
    # the two and must agree with that state's playouts throughout.
    moved = untouched.copy()
    m, c = moved.legal_plays()
    moved.apply(int(m[0][0]), int(m[0][1]), int(c[0]))
    assert got in (expected, moved.playouts(5, 2048, _guandan.GREEDY))


@pytest.mark.parametrize("name", ["code_kind", "code_size", "code_rank"])
def test_guandan_code_fields_refuse_what_is_not_a_code(name: str) -> None:
    """The Guandan code accessors shifted whatever they were given: None gave TypeError,
    -1 gave -1, a float array gave numpy's TypeError. Tiến Lên's take a uint32 by
    __index__; so do these now."""
    fn = getattr(_guandan, name)
    code = _guandan.make_code(_guandan.PAIR, 2, 14)
    expected = {"code_kind": _guandan.PAIR, "code_size": 2, "code_rank": 14}[name]
    assert fn(code) == fn(np.uint32(code)) == expected
    for bad in (None, -1, 1 << 32, 1.5, "x", True, np.array([code]), np.float64(code)):
        with pytest.raises(ValueError, match="code"):
            fn(bad)


def test_rlgame_observe_seat_bound_is_taken_after_the_index() -> None:
    game = _core.RLGame(4)

    class Shrink:
        def __index__(self) -> int:
            game.__init__(2)  # type: ignore[misc]
            return 3

    with pytest.raises(ValueError, match="seat must be in 0..1"):
        game.observe(Shrink())


def test_rlgame_reset_hands_refuses_a_game_reinitialised_by_an_argument() -> None:
    """reset_hands sized the hands by the player count, then read the leader, whose
    __index__ may re-initialise the game to four players: two hands were then started as
    four, two of them empty and never finished."""
    game = _core.RLGame(2)

    class Grow:
        def __index__(self) -> int:
            game.__init__(4)  # type: ignore[misc]
            return 0

    before = (game.hands, game.turn, game.players)
    with pytest.raises(ValueError, match="re-initialised"):
        game.reset_hands([0b1, 0b10], leader=Grow())
    assert game.players == 4 and game.hands != before[0]   # the inner __init__ did run
    assert all(game.hands) and game.turn >= 0               # ... and nothing else


# ------------------------------------------------------------------ the rules-as-data layer

def test_rules_with_an_unknown_field_is_a_value_error_naming_it() -> None:
    """Rules.with_(dragon=True) leaked dataclasses.replace's TypeError."""
    with pytest.raises(ValueError, match="no field 'dragon'"):
        Rules().with_(dragon=True)
    assert Rules().with_(twos_in_sequences=False) == Rules.no_twos()


@pytest.mark.parametrize("data", [
    {1: "x", "a": "y"},                                  # the rules object itself
    {"name": "custom", "penalties": {1: 2, "quad": 3, "zz": 1}},  # its penalty table
])
def test_rules_from_dict_with_keys_that_do_not_compare(data: dict) -> None:
    """An unknown field was reported as sorted(extra)[0]: keys of mixed types raised
    TypeError ('<' not supported between str and int) instead of the ValueError."""
    with pytest.raises(ValueError, match="unknown field"):
        Rules.from_dict(data)


from hypothesis import HealthCheck, given, settings, strategies as st  # noqa: E402

FUZZ = settings(max_examples=3000 if SOAK else 150, deadline=None, derandomize=not SOAK,
                suppress_health_check=list(HealthCheck), database=None)

_NAMES = st.sampled_from(["name", "twos_in_sequences", "cuts", "out_of_turn", "instant_wins",
                          "penalties", "quad", "2", "4ds", "dragon", "southern", "custom",
                          "default", "black_two", "cut_pays", "zz"])
_JSONISH = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(-3, 1 << 70), st.floats(), _NAMES,
              st.text(max_size=4)),
    lambda inner: (st.lists(inner, max_size=4)
                   | st.dictionaries(st.one_of(_NAMES, st.integers(0, 3)), inner, max_size=4)),
    max_leaves=8)


@FUZZ
@given(data=st.one_of(_JSONISH, st.dictionaries(_NAMES, _JSONISH, max_size=5)))
def test_fuzz_rules_from_dict_refuses_or_round_trips(data: object) -> None:
    """Rules.from_dict on any JSON-like value (and dicts with int keys, as Python callers
    may pass): a ValueError, or rules that survive to_dict / from_dict and flags unchanged."""
    try:
        rules = Rules.from_dict(data)
    except ValueError:
        return
    assert Rules.from_dict(rules.to_dict()) == rules
    assert Rules.from_flags(rules.flags, rules.penalties) == rules


def test_rules_and_penalties_round_trip_by_every_copy() -> None:
    for rules in (Rules(), Rules.no_twos(), Rules.southern(), Rules(cuts=frozenset()),
                  Rules.southern().with_(penalties=None)):
        for clone in (copy.copy(rules), copy.deepcopy(rules), pickle.loads(pickle.dumps(rules)),
                      Rules.from_dict(rules.to_dict()), Rules.from_flags(rules.flags, rules.penalties)):
            assert clone == rules and hash(clone) == hash(rules) and clone.name == rules.name


# ------------------------------------------------------------------------------- the Match

def _finish(game) -> None:  # type: ignore[no-untyped-def]
    while not game.is_over:
        moves = game.legal_moves()
        if moves:
            game.play(moves[-1])
        else:
            game.pass_turn()


def test_match_copies_are_equal_and_independent() -> None:
    """Match had no copy or equality: copy.copy shared the current Game, so playing on the
    copy played on the original, and no round trip compared equal (identity equality)."""
    from tienlen.games.tienlen.match import Match

    match = Match(4, seed=5, rules=Rules.southern())
    _finish(match.game)
    match.next_hand()
    for clone in (copy.copy(match), copy.deepcopy(match), pickle.loads(pickle.dumps(match)),
                  match.copy()):
        assert clone == match and clone.totals == match.totals
        assert clone.hand_scores == match.hand_scores
        before = match.game.snapshot()
        clone.game.play(clone.game.legal_moves()[0])
        assert match.game.snapshot() == before and clone != match
    with pytest.raises(TypeError):
        hash(match)


# ------------------------------------------------------------------------- the RL envs

rl = pytest.importorskip("tienlen.rl")
from tienlen.games.tienlen.encoding import place_rewards  # noqa: E402


@pytest.mark.parametrize("rewards", [5, [None] * 4, [1j] * 4, object()])
def test_place_rewards_that_are_not_numbers_are_a_value_error(rewards: object) -> None:
    """float(None) inside place_rewards leaked TypeError from every env constructor."""
    with pytest.raises(ValueError, match="rewards"):
        place_rewards(4, rewards)  # type: ignore[arg-type]


@pytest.mark.parametrize("players", [5, 1, 0, -2, True, "4", 4.0])
def test_place_rewards_takes_a_player_count(players: object) -> None:
    """place_rewards(5) answered five rewards, 0 or True an empty or one-place table, "4"
    a TypeError: a player count is 2, 3 or 4."""
    with pytest.raises(ValueError, match="players"):
        place_rewards(players)  # type: ignore[arg-type]
    assert place_rewards(3) == (2.0, 1.0, 0.0)


@pytest.mark.parametrize("opponents", [5, None, 1.5, object(), "L1L1"])
def test_env_opponents_that_are_not_a_sequence(opponents: object) -> None:
    """tuple(opponents) leaked TypeError (TienlenEnv, TienlenVectorEnv); a string was split
    into one-letter 'policies'."""
    with pytest.raises(ValueError, match="opponents"):
        rl.TienlenEnv(opponents=opponents)  # type: ignore[arg-type]
    if opponents is not None:                # None is self-play for the vector env
        with pytest.raises(ValueError, match="opponents"):
            rl.TienlenVectorEnv(2, opponents=opponents)  # type: ignore[arg-type]


@pytest.mark.parametrize("seed", [-1, 1.5, "x", float("inf"), True, 2 ** 64])
def test_env_seeds_are_checked_before_anything_moves(seed: object) -> None:
    """A bad seed was Gymnasium's error (not a ValueError) in TienlenEnv, random.seed's
    TypeError (or a reseeded stream, then a ValueError) in the AEC env, and a uint64 cast
    in the vector env (1.5 dealt as 1, inf an OverflowError)."""
    gym = rl.TienlenEnv(opponents=("L1",) * 3)
    obs, _ = gym.reset(seed=3)
    with pytest.raises(ValueError, match="seed"):
        gym.reset(seed=seed)  # type: ignore[arg-type]
    aec = rl.raw_env(4)
    aec.reset(seed=3)
    before = (aec.game.hands, aec._rng.getstate())
    with pytest.raises(ValueError, match="seed"):
        aec.reset(seed=seed)  # type: ignore[arg-type]
    assert (aec.game.hands, aec._rng.getstate()) == before
    vec = rl.TienlenVectorEnv(2, opponents=("greedy",) * 3)
    vec.reset(seed=3)
    hands = [vec.games.game_state(i).hands for i in range(2)]
    for bad in (seed, [seed, 1]):
        with pytest.raises(ValueError, match="seed"):
            vec.reset(seed=bad)  # type: ignore[arg-type]
        assert [vec.games.game_state(i).hands for i in range(2)] == hands
    vec.close()


def test_vector_env_seed_list_is_each_envs_deal() -> None:
    vec = rl.TienlenVectorEnv(2, opponents=None)
    vec.reset(seed=[7, np.uint64(9)])
    # Self-play: no move is made before the first step, so each env holds its seed's deal.
    assert vec.games.game_state(0).hands == _core.deal(7)
    assert vec.games.game_state(1).hands == _core.deal(9)
    vec.close()


def test_aec_env_calls_out_of_order_are_value_errors() -> None:
    """The raw AEC env: a step before reset raised AttributeError; step and reset after
    close went on as if open; observe of an unknown agent raised a bare KeyError."""
    aec = rl.raw_env(3)
    with pytest.raises(ValueError, match="reset"):
        aec.step(0)
    aec.reset(seed=1)
    for bad in ("player_9", None, [1]):
        with pytest.raises(ValueError, match="no agent"):
            aec.observe(bad)  # type: ignore[arg-type]
        with pytest.raises(KeyError):          # still a KeyError, as PettingZoo's lookups
            aec.observe(bad)  # type: ignore[arg-type]
    hands = aec.game.hands
    aec.close()
    aec.close()
    with pytest.raises(ValueError, match="closed"):
        aec.step(1)
    with pytest.raises(ValueError, match="closed"):
        aec.reset(seed=2)
    assert aec.game.hands == hands


def test_vector_env_num_envs_must_be_an_int() -> None:
    """A 0-d array passed VecGames' __index__ check, then failed inside Gymnasium's Box."""
    for bad in (np.array(3), 2.0, True, "2", None):
        with pytest.raises(ValueError, match="num_envs"):
            rl.TienlenVectorEnv(bad)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="players"):
        rl.TienlenVectorEnv(2, players=1.5)  # type: ignore[arg-type]


# ----------------------------------------------------- objects made without __init__, Ctrl-C

def test_gdstate_made_without_init_is_a_finished_hand() -> None:
    """GdState.__new__(GdState) left an all-zero state (level 0, seat 0 to act, no order):
    its playouts read order[-1] off the stack (AddressSanitizer: stack-buffer-overflow) and
    playout_actions returned garbage. It is now a finished hand: nothing to play."""
    state = _guandan.GdState.__new__(_guandan.GdState)
    assert state.is_over and state.turn == -1 and state.level == 2
    assert state.playout(1, _guandan.PLAN) == () and state.playout_actions(1) == ((), [])
    assert state.playouts(1, 3, _guandan.GREEDY) == ((0, 0, 0, 0), 0)
    assert state.count_legal_plays() == 0 and not state.can_pass()
    with pytest.raises(ValueError, match="over"):
        state.apply(1, 0, _guandan.make_code(_guandan.SINGLE, 1, 2))


def test_rlgame_made_without_init_refuses_to_deal() -> None:
    """RLGame.__new__(RLGame).reset(seed) dealt for 0 players (UBSan: ctz(0))."""
    game = _core.RLGame.__new__(_core.RLGame)
    with pytest.raises(ValueError, match="never initialised"):
        game.reset(1)
    with pytest.raises(ValueError):
        game.step(0)


def test_rlgame_deepcopy_is_independent_and_pickle_is_refused_clearly() -> None:
    """copy.copy(RLGame) worked but copy.deepcopy raised Cython's auto-pickle TypeError
    about struct members; pickling now says what to pickle instead."""
    game = _core.RLGame(4)
    game.reset(3)
    clone = copy.deepcopy(game)
    assert clone.hands == game.hands and clone.turn == game.turn
    clone.step(1)
    assert game.history == () and clone.history != ()
    with pytest.raises(TypeError, match="state"):
        pickle.dumps(game)


def test_vecgames_reset_honours_ctrl_c() -> None:
    """VecGames dealt all N games in one GIL-free loop: dealing 2**20 games with PLAN
    opponents ignored Ctrl-C for seconds (2**24 for minutes). It now checks between blocks;
    an interrupted constructor leaves the object closed."""
    import signal
    import time

    # One reset deals N games (about 0.2 s at 2**17 on a quiet core, seconds under the
    # sanitizers; the soak run deals 2**19: 2**15 had become 54 ms, racing the signal). The
    # signal comes 50 ms into it: a reset that
    # ignored Ctrl-C would finish first, leaving no env flagged as not reached. (A loop of
    # resets would let the signal land between two of them, where nothing is flagged.)
    script = textwrap.dedent("""
        import sys
        from tienlen import _core
        N = %d""" % (1 << (19 if SOAK else 17)) + """
        v = _core.VecGames(N, opponents=(_core.PLAN,) * 3)
        print("ready", flush=True)
        try:
            v.reset(1)
            print("completed", flush=True)
        except KeyboardInterrupt:
            # 2 = RL_ERR_INTERRUPTED: envs the interrupted reset did not reach.
            print("interrupted", int(v.error.max()), flush=True)
    """)
    child = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True)
    try:
        assert child.stdout is not None
        assert child.stdout.readline().strip() == "ready"
        time.sleep(0.05)
        sent = time.monotonic()
        child.send_signal(signal.SIGINT)
        out, err = child.communicate(timeout=60)
        waited = time.monotonic() - sent
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
    if out.split() == ["completed"]:
        pytest.skip("the reset finished before the signal arrived")
    assert out.split() == ["interrupted", "2"], (out, err[-2000:])
    assert waited < 2.0, waited


# ------------------------------------------------------------------------------- scale.py

@pytest.mark.parametrize("text", [None, 8786, b"local:2", ["local:2"]])
def test_parse_scheduler_refuses_what_is_not_text(text: object) -> None:
    """parse_scheduler called text.strip(): AttributeError on None or an int, TypeError on
    bytes."""
    from tienlen.arena.scale import ScaleError, parse_scheduler

    with pytest.raises(ScaleError, match="scheduler"):
        parse_scheduler(text)  # type: ignore[arg-type]


@pytest.mark.parametrize("kwargs", [dict(deals=-5, workers=2), dict(deals=1.5, workers=2),
                                    dict(deals=None, workers=2), dict(deals=10, workers=0),
                                    dict(deals=10 ** 400, workers=2),
                                    dict(deals=10, workers=2, unit_games=0)])
def test_unit_deals_refuses_bad_counts(kwargs: dict) -> None:
    """unit_deals took -5 deals or 1.5 workers silently, and raised TypeError (None) or
    OverflowError (10**400, a float division) for others."""
    from tienlen.arena.scale import unit_deals

    with pytest.raises(ValueError, match="must be an int"):
        unit_deals(["L1"] * 4, **kwargs)
    with pytest.raises(ValueError, match="empty"):
        unit_deals([], deals=10, workers=2)
    # 1000 deals over 3 workers: at least 4 units each, so ceil(1000 / 12) = 84 deals a
    # unit; L1's cost caps a unit at 2048 // 4 = 512.
    assert unit_deals(["L1"] * 4, deals=1000, workers=3) == 84


# ------------------------------------------------------------------------- the Guandan game

def test_guandan_level_text_accepts_the_number_its_message_offers() -> None:
    """'level must be a rank 2..14 (14 = A); got '14'': the CLI's --level 14 was refused by
    the message that offers it. Numbers 2..14 as text are levels now; others still refused."""
    from tienlen.guandan import GuandanError, count_legal_plays

    hand = "Ah Ah 5s"             # at level A the A♥ is wild, so "14" must mean A to agree
    assert count_legal_plays(hand, "14") == count_legal_plays(hand, "A") == count_legal_plays(hand, 14)
    for bad in ("15", "1", "0x0e", "١٤", "1 4", np.array([2, 3])):
        with pytest.raises(GuandanError, match="level"):
            count_legal_plays(hand, bad)  # type: ignore[arg-type]


def test_guandan_moves_refuses_a_third_copy_across_hand_and_pile(capsys) -> None:  # type: ignore[no-untyped-def]
    """`tienlen moves 3s --game guandan --pile "3s 3s"` listed moves for three 3♠ (two decks
    hold two); Tiến Lên's moves refuses a card both in hand and on the pile."""
    from tienlen.cli import main

    assert main(["moves", "3s", "--game", "guandan", "--pile", "3s 3s"]) == 2
    assert "copies" in capsys.readouterr().err
    assert main(["moves", "3s", "--game", "guandan", "--pile", "3s"]) == 0


@pytest.mark.parametrize("kwargs", [
    dict(hands=5), dict(hands=np.array(3)), dict(hands="3s 4s"),
    dict(seed="abc", hands=("3s", "4s", "5s", "6s")), dict(seed=-5, hands=("3s", "4s", "5s", "6s")),
    dict(seed=1, teams=((0, "1"), (2, 3))), dict(seed=1, teams=((0.0, 1), (2, 3))),
    dict(seed=1, teams=((True, 0), (2, 3))), dict(seed=1, previous_order=1.5),
    dict(seed=1, previous_order=(0, "1", 2, 3)), dict(seed=1, level=np.array([2, 3])),
])
def test_guandan_game_constructor_refuses_with_a_guandan_error(kwargs: dict) -> None:
    """Each of these raised TypeError (iterating an int, sorting mixed seats, concatenating
    a str seed) or was taken silently (seed -5 with given hands, 0.0 as a seat)."""
    from tienlen.guandan import Game, GuandanError

    with pytest.raises(GuandanError):
        Game(**kwargs)


def test_guandan_apply_unchecked_refuses_what_is_not_a_play() -> None:
    """apply_unchecked('3s') raised AttributeError ('str' has no attribute '_cards')."""
    from tienlen.guandan import Game, IllegalActionError

    game = Game(seed=5)
    before = game.copy()
    for bad in ("3s", 5, object(), game.hand(game.turn or 0)):
        with pytest.raises(IllegalActionError):
            game.apply_unchecked(bad)  # type: ignore[arg-type]
    assert game == before


# ------------------------------------------------------------- two threads acting on a Game

def _race(game, act, trials_left: int) -> None:  # type: ignore[no-untyped-def]
    """Three threads acting on `game` at random, with the interpreter switching threads as
    often as it can."""
    import random

    def worker(k: int) -> None:
        rng = random.Random(k)
        for _ in range(300):
            if game.is_over:
                return
            try:
                act(game, rng)
            except ValueError:      # a refused action (another thread moved first) is fine
                pass

    threads = [threading.Thread(target=worker, args=(k,)) for k in range(3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()


@pytest.mark.parametrize("game_kind", ["tienlen", "guandan"])
def test_two_threads_acting_on_one_game_keep_its_history_true(game_kind: str) -> None:
    """Game.play read the seat to act, applied the move in the core, then recorded it: a
    thread switch in between let another thread's action land first, and the history no
    longer replayed to the state (a few games in 200 of each game, under
    sys.setswitchinterval(1e-6)). Actions are now serialised: any history replays."""
    if game_kind == "tienlen":
        from tienlen import Game

        def new(seed: int):  # type: ignore[no-untyped-def]
            return Game(4, seed=seed)

        def act(game, rng) -> None:  # type: ignore[no-untyped-def]
            moves = list(game.legal_moves())
            if game.can_pass() and (not moves or rng.random() < 0.3):
                game.pass_turn()
            elif moves:
                (game.play if rng.random() < 0.5 else game.apply_unchecked)(rng.choice(moves))

        def replay(game, seed: int) -> bool:  # type: ignore[no-untyped-def]
            # Through the trusting path: apply_unchecked may have been given a move made
            # stale by another thread, which the history must still hold as applied.
            from tienlen import PASS

            twin = Game(4, seed=seed)
            for action in game.history:
                assert twin.turn == action.seat
                twin.apply_unchecked(PASS if action.cards is None else action.cards)
            return twin.snapshot() == game.snapshot()
    else:
        from tienlen.guandan import Game as GdGame

        def new(seed: int):  # type: ignore[no-untyped-def]
            return GdGame(seed=seed, level=2)

        def act(game, rng) -> None:  # type: ignore[no-untyped-def]
            plays = game.legal_plays()
            if game.can_pass() and (not len(plays) or rng.random() < 0.3):
                game.pass_turn()
            elif len(plays):
                play = plays[rng.randrange(len(plays))]
                (game.play if rng.random() < 0.5 else game.apply_unchecked)(play)

        def replay(game, seed: int) -> bool:  # type: ignore[no-untyped-def]
            twin = GdGame(seed=seed, level=2)
            for action in game.history:
                assert twin.turn == action.seat
                twin.apply_unchecked(None if action.action == "pass" else action.play)
            return twin.state.key() == game.state.key()

    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        broken = []
        for seed in range(200 if SOAK else 40):
            game = new(seed)
            _race(game, act, 0)
            if not replay(game, seed):
                broken.append(seed)
    finally:
        sys.setswitchinterval(interval)
    assert broken == []


# ------------------------------------------------------- the core's rule-table entry points

_ANY_INT = st.one_of(st.integers(-2, 1 << 16), st.integers(-(1 << 70), 1 << 70),
                     st.integers(0, (1 << 37) - 1))


@FUZZ
@given(code=_ANY_INT, flags=_ANY_INT, out_of_turn=st.booleans(), hand=_ANY_INT,
       seed=st.integers(0, (1 << 64) - 1), players=st.integers(2, 4))
def test_fuzz_rule_table_entry_points(code: int, flags: int, out_of_turn: bool, hand: int,
                                      seed: int, players: int) -> None:
    """cut_class, cut_targets, cutters, instant_win and GameState(dealt=True) under any
    ints: an answer or a ValueError, never another exception (a crash fails the run). The
    answers of known flags agree with the Rules object's table."""
    for call in (lambda: _core.cut_class(code),
                 lambda: _core.cut_targets(code, flags, out_of_turn),
                 lambda: _core.cutters(code, flags, out_of_turn),
                 lambda: _core.instant_win(hand, flags)):
        try:
            call()
        except ValueError:
            pass
    if 0 <= flags < 1 << 37:
        rules = Rules.from_flags(flags)
        hands = _core.deal(seed, players)
        state = _core.GameState(hands, flags=flags, dealt=True)
        win = state.instant_win
        # An instant win ends the hand at the deal, and only under rules that enable one.
        assert (win >= 0) == state.is_over
        if win >= 0:
            from tienlen.games.tienlen.rules import ALL_INSTANT_WINS
            assert ALL_INSTANT_WINS[win] in rules.instant_wins


# ------------------------------------------------------------- seeds, Guandan match/arena

def test_seed_mix_takes_numpy_ints_exactly_and_refuses_the_rest() -> None:
    """seeds.mix added NumPy ints in their own fixed-width arithmetic (overflow warnings, a
    wrapped and so different seed), and raised TypeError for a float or None: board_seed,
    bot_seed and every derived seed went through it."""
    from tienlen.games.guandan.arena import board_seed
    from tienlen.seeds import mix

    assert mix(np.int64(7), np.uint8(3)) == mix(7, 3)
    assert mix(np.uint64((1 << 64) - 1), 1) == mix((1 << 64) - 1, 1)
    assert board_seed(np.uint32(5), 2) == board_seed(5, 2)
    for bad in (None, 1.5, "3", True, np.float64(1), np.array([1, 2])):
        with pytest.raises(ValueError, match="ints"):
            mix(1, bad)  # type: ignore[arg-type]


def test_guandan_level_gain_and_load_refuse_bad_arguments() -> None:
    """level_gain(1) raised KeyError; arena.load(None) raised Path's TypeError."""
    from tienlen.guandan import RuleConfig
    from tienlen.games.guandan.arena import DuplicateError, load
    from tienlen.games.guandan.match import level_gain

    assert [level_gain(p, RuleConfig()) for p in (3, 4)] == [2, 1]   # G7.1: +2, +1
    for bad in (1, 5, None, 2.0, True):
        with pytest.raises(ValueError, match="partner_place"):
            level_gain(bad, RuleConfig())  # type: ignore[arg-type]
    for bad in (None, 3, b"/tmp", ["x"]):
        with pytest.raises(DuplicateError, match="path"):
            load(bad)  # type: ignore[arg-type]


@pytest.mark.parametrize("hands", [5, None, np.array(3), 1.5, "3s 4s"])
def test_game_from_hands_refuses_what_is_not_a_sequence_of_hands(hands: object) -> None:
    """Game.from_hands(5) raised TypeError ('int' object is not iterable)."""
    from tienlen import Game

    with pytest.raises(ValueError, match="hands"):
        Game.from_hands(hands)  # type: ignore[arg-type]


def test_match_helpers_refuse_bad_arguments() -> None:
    """bomb_kind(None) and bomb_kind(combo, None) raised AttributeError; hand_seed(None, 1)
    TypeError, and hand_seed(np.uint64(2**64 - 1), 2) wrapped in NumPy arithmetic (another
    deal than the int seed's)."""
    from tienlen.games.tienlen.plays import classify
    from tienlen.games.tienlen.match import bomb_kind, hand_seed

    quad = classify("5s 5c 5d 5h")
    assert bomb_kind(quad) == "quad"
    for bad in (None, "5s 5c 5d 5h", 1.5):
        with pytest.raises(ValueError):
            bomb_kind(bad)  # type: ignore[arg-type]
        with pytest.raises(ValueError):
            bomb_kind(quad, bad)  # type: ignore[arg-type]
    for seed, number in ((None, 1), (1.5, 1), (-1, 1), (1, 0), (1, None), (1, 2.0),
                         (np.uint64((1 << 64) - 1), 2)):
        with pytest.raises(ValueError):
            hand_seed(seed, number)  # type: ignore[arg-type]


def test_legal_moves_view_compares_by_its_moves_after_any_copy() -> None:
    """A Tiến Lên LegalMoves compared by identity, so no copy or unpickled view equalled the
    original (the Guandan LegalPlays compares by its plays)."""
    from tienlen import Game

    moves = Game(4, seed=3).legal_moves()
    for clone in (copy.copy(moves), copy.deepcopy(moves), pickle.loads(pickle.dumps(moves))):
        assert clone == moves and clone == list(moves)
    assert moves != Game(4, seed=4).legal_moves()
    with pytest.raises(TypeError):
        hash(moves)


def test_reinitialising_a_state_with_bad_hands_changes_nothing() -> None:
    """GdState.__init__ wrote each hand into the state as it read it, so calling it again
    with a bad fourth hand left a mix of old and new hands. Both states are now built aside
    and stored only once valid."""
    state = _guandan.GdState(_guandan.deal(1))
    masks, codes = state.legal_plays()
    state.try_play(int(masks[0][0]), int(masks[0][1]), int(codes[0]))
    before = state.key()
    other = _guandan.deal(2)
    for bad in ([other[0], other[1], (1, 2), other[3]], [other[0], other[1], other[2], (0, 0)]):
        with pytest.raises(ValueError):
            state.__init__(bad)  # type: ignore[misc]
        assert state.key() == before
    tl = _core.GameState(_core.deal(1))
    tl.apply(tl.legal_moves()[0])
    before = tl.key()
    with pytest.raises(ValueError):
        tl.__init__([1, 2, "x"])  # type: ignore[misc]
    assert tl.key() == before


def test_guandan_match_team_of_refuses_what_is_not_a_seat() -> None:
    """Match.team_of(7) (or None, or 1.0) answered 1: anything not in the first team."""
    from tienlen.guandan import GuandanError, Match

    match = Match(seed=1)
    first, second = match.teams
    assert {match.team_of(s) for s in first} == {0} and {match.team_of(s) for s in second} == {1}
    for bad in (7, -1, None, 1.0, True):
        with pytest.raises(GuandanError, match="seat"):
            match.team_of(bad)  # type: ignore[arg-type]


def test_guandan_core_error_messages_quote_arguments_safely() -> None:
    """The Guandan core wrote repr(argument) into its messages: a __repr__ that raises
    replaced the ValueError with its own exception, and a million-element list made a
    message of megabytes. It now quotes as the Tiến Lên core does (cut to 80 characters)."""
    class Hostile:
        def __index__(self) -> int:
            raise TypeError("not an int")

        def __repr__(self) -> str:
            raise RuntimeError("repr refuses")

    with pytest.raises(ValueError, match="Hostile object"):
        _guandan.make_code(Hostile(), 1, 3)
    with pytest.raises(ValueError) as caught:
        _guandan.wild_card(list(range(10 ** 5)))
    assert len(str(caught.value)) < 200


# ------------------------------------------------------------ the Gymnasium env's opponents

class _Scripted:
    """Bots for the Gymnasium env that fail on their ``fail_at``-th decision: raising, or
    answering with something that is not a move, or with an illegal move."""

    @staticmethod
    def make(how: str, fail_at: int):  # type: ignore[no-untyped-def]
        from tienlen.games.tienlen.bots import PASS, Bot

        class Failing(Bot):
            name = f"failing-{how}"

            def __init__(self) -> None:
                super().__init__(seed=1)
                self.calls = 0

            def choose(self, view):  # type: ignore[no-untyped-def]
                self.calls += 1
                moves = view.legal_moves()
                if self.calls < fail_at:
                    return moves[0] if moves else PASS
                if how == "raise":
                    raise RuntimeError("the bot broke")
                if how == "text":
                    return str(moves[0]) if moves else "pass"
                # An illegal move: a card the bot does not hold.
                return view.played if len(view.played) else view.unseen[:1]

        return Failing()


@pytest.mark.parametrize("how", ["raise", "text", "illegal"])
@pytest.mark.parametrize("fail_at", [1, 3])
def test_gym_env_ends_the_episode_when_an_opponent_fails(how: str, fail_at: int) -> None:
    """TienlenEnv.step applied the learner's action, then an opponent bot raised (or made
    an illegal move) and the step raised with an opponent still to act: the next step
    then acted for that opponent's seat. A bot's non-move answer (text, None) was taken as
    a pass. Now the episode ends: an OpponentError (a ValueError) naming the seat, and
    every later step asks for reset()."""
    import gymnasium

    from tienlen.rl import OpponentError

    env = rl.TienlenEnv(opponents=[_Scripted.make(how, fail_at) for _ in range(3)],
                        legal_actions=False)
    failed = None
    obs = None
    try:
        obs, _ = env.reset(seed=5)
        for _ in range(60):
            obs, _, terminated, _, _ = env.step(int(obs["action_mask"].argmax()))
            if terminated:
                break
    except OpponentError as error:
        failed = error
    assert failed is not None and isinstance(failed, ValueError)
    assert "opponent at seat" in str(failed) and "failing-" in str(failed)
    assert env.game.turn != 0 or env.game.is_over      # an opponent was to act
    with pytest.raises(gymnasium.error.ResetNeeded):
        env.step(0)
    assert env._current_mask() is None
    # A reset with bots that play on is a fresh episode.
    env.opponent_specs = ("random",) * 3
    obs, _ = env.reset(seed=5)
    assert env.game.turn == 0 and obs["action_mask"].any()


@pytest.mark.parametrize("value", ["False", "no", 0, 1, None, 1.0, [True]])
def test_env_flags_are_bools(value: object) -> None:
    """legal_actions="False" (or 0, None) was taken by its truth value: the string "False"
    gave the legal-action arrays; the vector env took legal_masks and copy the same way."""
    with pytest.raises(ValueError, match="legal_actions"):
        rl.TienlenEnv(opponents=("random",) * 3, legal_actions=value)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="legal_actions"):
        rl.raw_env(4, legal_actions=value)  # type: ignore[arg-type]
    for name in ("legal_masks", "copy"):
        with pytest.raises(ValueError, match=name):
            rl.TienlenVectorEnv(2, **{name: value})
    assert rl.raw_env(4, legal_actions=np.bool_(False)).legal_actions is False


# ------------------------------------------------------------------ replays and match files

@pytest.mark.parametrize("indent", [-1, 33, 10 ** 9, 1.5, True, "  ", np.int64(2)])
def test_json_writers_refuse_an_indent_that_is_not_a_small_int(indent: object) -> None:
    """game_to_json / Game.to_json / guandan Match.to_json passed indent to json.dumps:
    1.5 was a TypeError, 10**9 an OverflowError or memory exhausted line by line, True an
    indent of one and -1 accepted as 0."""
    from tienlen import Game
    from tienlen.guandan import GuandanError, Match as GdMatch
    from tienlen.games.tienlen.replay import game_to_json

    game = Game(3, seed=1)
    with pytest.raises(ValueError, match="indent"):
        game_to_json(game, indent=indent)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="indent"):
        game.to_json(indent=indent)  # type: ignore[arg-type]
    with pytest.raises(GuandanError, match="indent"):
        GdMatch(seed=1).to_json(indent=indent)  # type: ignore[arg-type]
    assert game_to_json(game, indent=2).count("\n  \"") == 9    # one line per field


@pytest.mark.parametrize("game", [None, 5, "game", object()])
def test_game_to_json_refuses_what_is_not_a_game(game: object) -> None:
    """game_to_json(None) raised AttributeError ('NoneType' object has no attribute
    'history')."""
    from tienlen.games.tienlen.replay import game_to_json

    with pytest.raises(ValueError, match="Game"):
        game_to_json(game)  # type: ignore[arg-type]


@FUZZ
@given(text=st.one_of(st.text(max_size=40), _JSONISH.map(lambda v: __import__("json").dumps(v)),
                      st.sampled_from(['{"schema": "tienlen.game", "version": 1}', "[]",
                                       "null", '{"names": 5}'])))
def test_replay_labels_of_any_text_is_labels_or_a_replay_error(text: str) -> None:
    """replay_labels read the JSON without checking it: a list or null raised
    AttributeError ('list' object has no attribute 'get'), a missing field KeyError."""
    from tienlen.games.tienlen.replay import ReplayError, replay_labels

    try:
        replay_labels(text)
    except ReplayError:
        pass


_LABEL_NAME = st.one_of(st.sampled_from(["You", "Minh", "", "x" * 41, "tab\there", "Ngọc"]),
                        st.text(max_size=6), st.integers(), st.none())


@FUZZ
@given(names=st.one_of(st.none(), st.lists(_LABEL_NAME, max_size=4), st.text(max_size=3)),
       match_seed=st.one_of(st.none(), st.sampled_from([4, 5]), st.integers(-2, 1 << 65),
                            st.booleans()),
       hand=st.one_of(st.none(), st.sampled_from([1, 2]), st.integers(-2, 3)))
def test_labels_written_are_labels_read_back(names: object, match_seed: object,
                                             hand: object) -> None:
    """game_to_json_with_labels wrote any labels: an empty or 41-character name, three
    names for two seats, a hand whose deal was not the game's, all of which replay_labels
    then refused (so the saved replay had no title); a match seed without its hand
    number was dropped silently. The writer now applies the reader's check."""
    from tienlen.games.tienlen.match import Match
    from tienlen.games.tienlen.replay import (ReplayError, ReplayLabels, game_from_json,
                                game_to_json_with_labels, replay_labels)

    game = Match(2, seed=4).game            # hand 1 of match seed 4
    labels = ReplayLabels(names if not isinstance(names, list) else tuple(names),  # type: ignore[arg-type]
                          match_seed, hand)  # type: ignore[arg-type]
    try:
        text = game_to_json_with_labels(game, labels)
    except ReplayError:
        return
    assert game_from_json(text) == game
    assert replay_labels(text) == labels


def test_labels_that_were_written_silently_are_refused() -> None:
    from tienlen.games.tienlen.match import Match
    from tienlen.games.tienlen.replay import ReplayError, ReplayLabels, game_to_json_with_labels

    game = Match(2, seed=4).game
    for labels, field in ((ReplayLabels(("You", "")), "names"),
                          (ReplayLabels(("You", "Minh", "Lan")), "names"),
                          (ReplayLabels(match_seed=4), "match"),
                          (ReplayLabels(hand=1), "match"),
                          (ReplayLabels(match_seed=4, hand=2), "match")):
        with pytest.raises(ReplayError) as caught:
            game_to_json_with_labels(game, labels)
        assert caught.value.field is not None and caught.value.field.startswith(field)
    with pytest.raises(ValueError, match="ReplayLabels"):
        game_to_json_with_labels(game, {"names": ["a", "b"]})  # type: ignore[arg-type]


def test_guandan_match_hand_seed_refuses_what_is_not_an_index() -> None:
    """Match.hand_seed(None) raised TypeError, np.int64(1) OverflowError, and -1 or True
    answered a seed: no hand has those indices."""
    from tienlen.guandan import GuandanError, Match

    match = Match(seed=1)
    assert match.hand_seed(0) == match.game.seed
    for bad in (-1, True, None, 1.5, "0", np.int64(1)):
        with pytest.raises(GuandanError, match="index"):
            match.hand_seed(bad)  # type: ignore[arg-type]


def test_guandan_apply_unchecked_outside_the_play_phase_is_refused() -> None:
    """guandan Game.apply_unchecked during tribute failed an assert (AssertionError, not a
    ValueError; under python -O an AttributeError); a Match's too. After the hand it
    raised the core's bare ValueError. Both are now G8 refusals that change nothing."""
    from tienlen.guandan import Game, IllegalActionError, Match

    game = Game(seed=11, level=5, previous_order=(0, 1, 3, 2))    # seat 3 owes tribute
    assert game.phase == "tribute"
    play = Game(seed=1).legal_plays()[0]
    before = game.copy()
    for move in (None, play):
        with pytest.raises(IllegalActionError) as caught:
            game.apply_unchecked(move)
        assert (caught.value.reason, caught.value.detail) == ("STATE_CONFLICT",
                                                              "TRIBUTE_PENDING")
    assert game == before
    # The same through a match whose second hand starts with tribute (seed 6 does).
    match = Match(seed=6)
    while match.hand_number == 0:
        g = match.game
        match.apply_unchecked(g.legal_plays()[0] if not g.can_pass() else None)
    assert match.game.phase == "tribute"
    text = match.to_json()
    with pytest.raises(IllegalActionError, match="tribute"):
        match.apply_unchecked(None)
    assert match.to_json() == text
    # After the hand: seats 0 and 2 (a team) go out one after the other (G5.7).
    over = Game(hands=["3s", "4s", "5s", "6s"], leader=0)
    for cards in ("3s", "4s", "5s"):
        over.play(cards)
    assert over.is_over
    done = over.copy()
    with pytest.raises(IllegalActionError) as caught:
        over.apply_unchecked(None)
    assert caught.value.reason == "GAME_OVER" and over == done


def test_policy_bot_refuses_a_policy_that_is_not_one() -> None:
    """PolicyBot(policy=5) was accepted and failed at its first decision with TypeError;
    a policy answering 1.0 or None raised IndexError or TypeError from inside choose,
    and True was taken as action 1."""
    from tienlen import Game
    from tienlen.games.tienlen.bots import BotError
    from tienlen.games.tienlen.learned import PolicyBot

    for bad in (5, 1.5, object()):
        with pytest.raises(BotError, match="policy"):
            PolicyBot(policy=bad)  # type: ignore[arg-type]
    with pytest.raises(BotError, match="deterministic"):
        PolicyBot(policy=lambda obs, mask: 0, deterministic="yes")  # type: ignore[arg-type]
    view = Game(4, seed=3).view(Game(4, seed=3).turn)  # type: ignore[arg-type]
    for answer in (1.0, None, True, "1"):
        with pytest.raises(BotError, match="not an action number"):
            PolicyBot(policy=lambda obs, mask, a=answer: a).choose(view)
    first = PolicyBot(policy=lambda obs, mask: np.int64(1)).choose(view)
    assert first == view.legal_moves()[0]


@pytest.mark.parametrize("leader", [0, 3, "x", -1])
def test_guandan_game_refuses_a_leader_beside_previous_order(leader: object) -> None:
    """Game(previous_order=..., leader=...) ignored the leader without looking at it (even
    "x"): the lead of a later hand follows tribute (G6.7), so the two cannot both be
    given."""
    from tienlen.guandan import Game, GuandanError

    with pytest.raises(GuandanError, match="leader or previous_order"):
        Game(seed=11, level=5, previous_order=(0, 1, 3, 2), leader=leader)  # type: ignore[arg-type]
    assert Game(seed=11, level=5, previous_order=(0, 1, 3, 2)).phase == "tribute"


def test_raw_aec_env_before_reset_says_so() -> None:
    """The raw AEC env's last() before the first reset raised AttributeError (no
    agent_selection), and observe() answered for a hand never dealt; both now raise the
    EnvStateError step() raises, and work after reset."""
    aec = rl.raw_env(3)
    for call in (aec.last, lambda: aec.observe("player_0")):
        with pytest.raises(ValueError, match="reset"):
            call()
    aec.reset(seed=4)
    obs, reward, terminated, truncated, info = aec.last()
    assert obs["action_mask"].any() and not terminated
    assert (aec.observe(aec.agent_selection)["action_mask"] == obs["action_mask"]).all()


def test_read_replay_file_takes_only_a_path(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """read_replay_file(fd) was open(fd): given an int it read that file descriptor (0:
    the process's stdin) as a replay and then closed it on leaving; None and 1.5 were
    TypeErrors."""
    from tienlen.games.tienlen.replay import ReplayError, read_replay_file

    read, write = os.pipe()
    os.write(write, b'{"schema": "tienlen.game"}')
    os.close(write)
    try:
        for path in (read, True, None, 1.5):
            with pytest.raises(ReplayError, match="path"):
                read_replay_file(path)  # type: ignore[arg-type]
        os.fstat(read)                     # still open: nobody closed it
        assert os.read(read, 100) == b'{"schema": "tienlen.game"}'    # nor read from it
    finally:
        os.close(read)
    saved = tmp_path / "hand.json"
    saved.write_text('{"schema": "tienlen.game"}', encoding="utf-8")
    assert read_replay_file(saved) == read_replay_file(str(saved)) == saved.read_bytes()


@pytest.mark.parametrize("game_kind", ["tienlen", "guandan"])
def test_copies_views_and_files_taken_while_another_thread_acts_are_whole(
        game_kind: str) -> None:
    """Game.copy() copied the core state and then shared the history list, and view()
    read one after the other, outside the lock the actions hold: an action in between
    gave a copy (or a view) whose history was one action short of its state (about one
    copy in ten under sys.setswitchinterval(1e-6)). They now read under that lock."""
    import random as _random

    if game_kind == "tienlen":
        from tienlen import PASS, Game

        def new(seed: int):  # type: ignore[no-untyped-def]
            return Game(4, seed=seed)

        def act(game, rng) -> None:  # type: ignore[no-untyped-def]
            moves = list(game.legal_moves())
            game.apply_unchecked(rng.choice(moves) if moves and (
                not game.can_pass() or rng.random() < 0.7) else PASS)

        def whole(game, seed: int) -> bool:  # type: ignore[no-untyped-def]
            twin = Game(4, seed=seed)
            for action in game.history:
                twin.apply_unchecked(PASS if action.cards is None else action.cards)
            return twin.snapshot()[4] == game.snapshot()[4]

        def whole_view(view) -> bool:  # type: ignore[no-untyped-def]
            return len(view.played) == sum(len(a.cards) for a in view.history
                                           if a.cards is not None)
    else:
        from tienlen.guandan import Game as GdGame

        def new(seed: int):  # type: ignore[no-untyped-def]
            return GdGame(seed=seed, level=2)

        def act(game, rng) -> None:  # type: ignore[no-untyped-def]
            plays = game.legal_plays()
            if game.can_pass() and (not len(plays) or rng.random() < 0.3):
                game.pass_turn()
            else:
                game.apply_unchecked(plays[rng.randrange(len(plays))])

        def whole(game, seed: int) -> bool:  # type: ignore[no-untyped-def]
            # Every card is in a hand or in a play of the history (no tribute at a
            # match's first hand).
            played = sum(len(a.cards) for a in game.history if a.cards is not None)
            return sum(len(game.hand(s)) for s in range(4)) + played == 108

        def whole_view(view) -> bool:  # type: ignore[no-untyped-def]
            seen = sum(len(a.cards) for a in view.history if a.cards is not None)
            return sum(view.hand_sizes) + seen == 108

    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    broken = []
    try:
        for seed in range(40 if SOAK else 12):
            game = new(seed)
            done = threading.Event()

            def actor() -> None:
                rng = _random.Random(seed)
                while not game.is_over:
                    act(game, rng)
                done.set()

            thread = threading.Thread(target=actor)
            thread.start()
            while not done.is_set():
                if not whole(game.copy(), seed):
                    broken.append(("copy", seed))
                if not whole_view(game.view(0)):
                    broken.append(("view", seed))
            thread.join()
    finally:
        sys.setswitchinterval(interval)
    assert broken == []


def test_guandan_settle_refuses_what_no_hand_ends_with() -> None:
    """settle() took three places, repeated seats, a level of 15, a negative failed count
    and a declarer of True as given (levels no match reaches), and a declarer of 5 or a
    config of None raised IndexError / AttributeError."""
    from tienlen.guandan import GuandanError, RuleConfig
    from tienlen.games.guandan.match import settle

    good = dict(levels=(2, 2), failed=(0, 0), declarer=None, places=(0, 1, 2, 3),
                teams=((0, 2), (1, 3)), config=RuleConfig())
    # Seat 0 first out, partner 2 third: team 0 gains 2 (G7.1).
    assert settle(**good) == ((4, 2), (0, 0), False, 2)  # type: ignore[arg-type]
    for name, bad in (("places", (0, 1, 2)), ("places", (0, 0, 1, 2)), ("places", "0123"),
                      ("levels", (15, 2)), ("levels", ("x", 2)), ("levels", (2,)),
                      ("failed", (-1, 0)), ("failed", None), ("declarer", 5),
                      ("declarer", True), ("config", None), ("teams", ((0, 0), (1, 3)))):
        with pytest.raises(GuandanError, match=name):
            settle(**{**good, name: bad})  # type: ignore[arg-type]


def test_guandan_rule_helpers_refuse_bad_arguments() -> None:
    """tribute_candidates / return_candidates took card text or None as the hand
    (AttributeError) and a level of 1 as given; level_gain(2, None) and the exchange
    helpers with config None raised AttributeError; random_teams(None) a TypeError, and
    random_teams(-1) drew teams from a seed that is not one."""
    from tienlen.guandan import Cards, GuandanError, RuleConfig
    from tienlen.games.guandan.game import random_teams, return_candidates, tribute_candidates
    from tienlen.games.guandan.match import level_gain

    hand, config = Cards.parse("3s 4s BJ"), RuleConfig()
    assert tribute_candidates(hand, 2, config) == (53,)        # the big joker (★, id 53)
    assert return_candidates(hand, 2, config) == (4, 8)        # 3♠ and 4♠ (G6.4)
    for args in (("3s", 2, config), (None, 2, config), (hand, 1, config), (hand, 15, config),
                 (hand, True, config), (hand, 2, None)):
        for helper in (tribute_candidates, return_candidates):
            with pytest.raises(GuandanError):
                helper(*args)  # type: ignore[arg-type]
    with pytest.raises(GuandanError, match="config"):
        level_gain(2, None)  # type: ignore[arg-type]
    for seed in (None, -1, 1.5, 2 ** 64, True):
        with pytest.raises(GuandanError, match="seed"):
            random_teams(seed)  # type: ignore[arg-type]


def test_observation_from_view_needs_the_view_of_the_seat_to_act() -> None:
    """observation_from_view of a hand won at once (R11.3: over, no history) failed an
    assert; of another seat's view it raised a BotError about card counts that did not
    fit, which was not the reason; of None, AttributeError."""
    from tienlen import Game
    from tienlen.games.tienlen.bots import BotError
    from tienlen.games.tienlen.learned import observation_from_view
    from tienlen.games.tienlen.rules import Rules

    won = Game(4, seed=112, rules=Rules.southern())     # seat 3 holds six pairs
    assert won.is_over and not won.history
    game = Game(4, seed=3)
    other = (game.turn + 1) % 4  # type: ignore[operator]
    for view, words in ((won.view(0), "turn is over"), (game.view(other), "seat to act"),
                        (None, "View")):
        with pytest.raises(BotError, match=words):
            observation_from_view(view)  # type: ignore[arg-type]
    obs, mask, moves = observation_from_view(game.view(game.turn))  # type: ignore[arg-type]
    assert int(mask[1:].sum()) == len(game.legal_moves()) == len(moves[moves != 0])


def test_classify_shares_one_int_per_code_without_leaking_or_freeing_it():
    # classify hands out one cached int per combo code instead of a new one per call: the
    # cache's own reference must be taken exactly once (a missing one frees an object still
    # in the table, a crash later; an extra one per call leaks), and the values are plain
    # ints equal to the code a fresh computation gives.
    import gc
    import sys

    from tienlen import core

    triple = 0b1110 << 8                          # 5♣ 5♦ 5♥
    first = core.classify(triple)
    assert type(first) is int and first == core.make_code(core.TRIPLE, 3, 11)
    assert core.classify(triple) is first
    base = sys.getrefcount(first)
    for _ in range(10_000):
        core.classify(triple)
    assert sys.getrefcount(first) == base
    del first
    gc.collect()
    for _ in range(1000):                         # the table's object is still alive
        assert core.classify(triple) == core.make_code(core.TRIPLE, 3, 11)
    assert core.classify(0) == 0 and core.classify(0b1 | 1 << 8) == 0
