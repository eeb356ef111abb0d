"""Regression tests for issue 10 (hardening): inputs that changed under a batch call, states
that from_fields or unpickling accepted but play could never reach, searches over a state
another thread mutates, Ctrl-C inside native loops, unbounded replay reads, empty plays,
type confusion in replays and loosely typed arguments.

Each test failed (crashed, hung, answered wrongly or raised the wrong error) before the fix
it names. The expected values are derived independently of the call under test: per-call
results, single-threaded results, or the rules themselves.
"""

from __future__ import annotations

import json
import os
import pickle
import queue
import signal
import subprocess
import sys
import textwrap
import threading
import time

import numpy as np
import pytest

from tienlen import _core, core
from tienlen.games.tienlen.cards import Cards
from tienlen.games.tienlen.game import PASS, Game
from tienlen.games.tienlen.refusals import IllegalMoveError
from tienlen.games.tienlen.replay import MAX_REPLAY_BYTES, ReplayError, game_from_json, read_replay_file

# A 13-card hand and a 20-card hand (far more moves than any 13-card hand may have), and
# pile codes that are valid or that no classify could return (they made gen_moves write
# more moves than counted).
HAND13 = core.deal(11)[0]
BIG_HAND = (1 << 20) - 1                        # every 3 to 7: 12,819 moves
INVALID_PILES = (0x5030, 0x6070, 0x7000)


def test_big_hand_is_big() -> None:
    assert BIG_HAND.bit_count() == 20
    assert core.count_legal_moves(BIG_HAND) > 20 * core.MAX_MOVES_13_CARDS


def _rows(offsets: np.ndarray, moves: np.ndarray) -> list[list[int]]:
    return [moves[offsets[i]:offsets[i + 1]].tolist() for i in range(len(offsets) - 1)]


# ------------------------------------------------------------ item 1: read inputs once

class _Rewriting(np.ndarray):
    """A bool array whose __array_finalize__ (run whenever NumPy makes a view or copy of
    it) rewrites other arrays: the hook ran after the old batch code had validated its
    inputs (it took `locked_out.view(np.uint8)`) and before its nogil loop read them."""

    victims: list[tuple[np.ndarray, np.ndarray]] = []

    def __array_finalize__(self, obj: object) -> None:
        for array, replacement in _Rewriting.victims:
            array[:] = replacement


@pytest.mark.parametrize("what", ["piles", "hands"])
def test_issue10_1_batch_rows_are_read_once_even_if_a_subclass_hook_rewrites_them(what: str) -> None:
    n = 64
    hands = np.full(n, HAND13, np.uint64)
    piles = np.zeros(n, np.uint32)
    expected = core.legal_moves(HAND13).tolist()
    locked = np.zeros(n, np.bool_).view(_Rewriting)
    if what == "piles":
        _Rewriting.victims = [(piles, np.full(n, INVALID_PILES[0], np.uint32))]
    else:
        _Rewriting.victims = [(hands, np.full(n, BIG_HAND, np.uint64))]
    try:
        offsets, moves = core.legal_moves_many(hands, piles, 0, locked)
        rows = _rows(offsets, moves)
        # Whatever the hook did, every row is the answer for the row that was validated
        # (the 13-card hand on a fresh lead): the call works on what it checked.
        assert rows == [expected] * n
        hands[:] = HAND13
        piles[:] = 0
        counts = core.count_legal_moves_many(hands, piles, 0, locked)
        assert counts.tolist() == [len(expected)] * n
    finally:
        _Rewriting.victims = []


def _race_batch(seconds: float) -> tuple[int, int]:
    """Call legal_moves_many / count_legal_moves_many while another thread flips rows of
    `hands` between a 13- and a 20-card hand and pile codes between 0 and invalid codes.
    Every answer must be a ValueError (an invalid code was seen) or, row by row, the answer
    for one of the values the row held. Returns (answers, refusals)."""
    n = 256
    flip_rows = np.arange(0, n, 37)
    hands = np.full(n, HAND13, np.uint64)
    piles = np.zeros(n, np.uint32)
    small = core.legal_moves(HAND13).tolist()
    big = core.legal_moves(BIG_HAND).tolist()
    allowed = ({tuple(small)}, {tuple(small), tuple(big)})
    stop = threading.Event()

    def flipper() -> None:
        k = 0
        while not stop.is_set():
            k += 1
            hands[flip_rows] = BIG_HAND if k & 1 else HAND13
            piles[flip_rows] = INVALID_PILES[k % 3] if k & 2 else 0

    thread = threading.Thread(target=flipper)
    thread.start()
    answers = refusals = 0
    try:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            try:
                offsets, moves = core.legal_moves_many(hands, piles)
                counts = core.count_legal_moves_many(hands, piles)
            except ValueError:
                refusals += 1
                continue
            answers += 1
            flipping = set(flip_rows.tolist())
            for i, row in enumerate(_rows(offsets, moves)):
                assert tuple(row) in allowed[i in flipping], i
            for i, count in enumerate(counts.tolist()):
                assert count in ({len(small)} if i not in flipping else {len(small), len(big)}), i
    finally:
        stop.set()
        thread.join()
    return answers, refusals


def test_issue10_1_batch_calls_survive_a_thread_flipping_rows() -> None:
    answers, refusals = _race_batch(1.0)
    assert answers + refusals > 0


def test_issue10_1_classify_many_under_a_racing_writer_answers_or_refuses() -> None:
    n = 1 << 16
    masks = np.full(n, 0b11, np.uint64)
    stop = threading.Event()

    def writer() -> None:
        k = 0
        while not stop.is_set():
            k += 1
            masks[::7] = (1 << 60) if k & 1 else 0b11

    thread = threading.Thread(target=writer)
    thread.start()
    try:
        for _ in range(200):
            try:
                codes = core.classify_many(masks)
            except ValueError:
                continue
            # No bad mask was read, so every code is the code of 0b11 (a pair).
            assert set(codes.tolist()) == {core.classify(0b11)}
    finally:
        stop.set()
        thread.join()


def test_issue10_10_out_sharing_memory_with_an_input_is_refused() -> None:
    masks = np.arange(1, 65, dtype=np.uint64)
    before = masks.copy()
    with pytest.raises(ValueError, match="shares memory"):
        core.classify_many(masks, out=masks.view(np.uint32)[32:96])
    assert (masks == before).all()
    codes = core.classify_many(np.array([0b1, 0b11], np.uint64))
    with pytest.raises(ValueError, match="shares memory"):
        core.beats_many(codes, codes, out=codes.view(np.bool_)[:2])
    hands = np.array([0b111, 0b1], np.uint64)
    with pytest.raises(ValueError, match="shares memory"):
        core.count_legal_moves_many(hands, out=hands.view(np.int64))
    # A separate out array is fine, and gives the per-call answers.
    out = np.empty(2, np.int64)
    core.count_legal_moves_many(hands, out=out)
    assert out.tolist() == [core.count_legal_moves(0b111), core.count_legal_moves(0b1)]


def test_issue10_1_out_whose_python_shape_lies_is_refused() -> None:
    class Lying(np.ndarray):
        @property
        def shape(self):  # noqa: ANN201 - the lie under test
            return (1000,)

    out = np.zeros(2, np.uint32).view(Lying)
    with pytest.raises(ValueError):
        core.classify_many(np.zeros(1000, np.uint64), out=out)


# ------------------------------------------------------------ item 2: playouts from from_fields

def _check_playout_legal(state: core.GameState, policy: int, seed: int) -> None:
    order, actions = state.playout_moves(seed, policy)
    replay = state.copy()
    for action in actions:
        if action == 0:
            assert replay.can_pass(), (policy, seed)
        else:
            assert action in replay.legal_moves().tolist(), (policy, seed, hex(action))
        replay.apply_checked(action)
    assert replay.is_over and replay.finished == order
    assert state.playout(seed, policy) == order


def test_issue10_2_greedy_leads_with_the_must_include_card_of_a_from_fields_state() -> None:
    state = core.GameState.from_fields([0b11 | 1 << 20, 1 << 30], turn=0, must_include=20)
    assert state.legal_moves().tolist() == [1 << 20]           # the only lead is 8♠
    order, actions = state.playout_moves(1, core.GREEDY)
    assert actions[0] == 1 << 20
    for policy in (core.RANDOM, core.GREEDY, core.PLAN):
        _check_playout_legal(state, policy, 1)


# ------------------------------------------------------------ item 3: one validator

ISSUE_KEY = ((1, 2, 4, 8), 0, 0, -1, 0, 0, (0, 1, 2, 3), -1, 0, 0)


def test_issue10_3_unpickling_refuses_the_key_from_the_issue() -> None:
    with pytest.raises(ValueError, match="not a GameState key"):
        _core._state_from_key(ISSUE_KEY)


def test_issue10_3_unpickling_refuses_a_seat_without_cards_to_act() -> None:
    # Seat 1 holds nothing yet is to act, and nobody has finished.
    with pytest.raises(ValueError):
        _core._state_from_key(((1, 0, 4), 0, 0, -1, 1, 0, (), -1, 0, 0))


def _reachable_states(count: int, seed: int) -> list[core.GameState]:
    """States of real games (random play), including finished ones."""
    rng = np.random.default_rng(seed)
    states = []
    for k in range(count):
        players = int(rng.integers(2, 5))
        state = core.GameState(core.deal(int(rng.integers(1 << 32)), players))
        steps = int(rng.integers(0, 60))
        for _ in range(steps):
            if state.is_over:
                break
            moves = state.legal_moves().tolist() + ([0] if state.can_pass() else [])
            state.apply(moves[int(rng.integers(len(moves)))])
        states.append(state)
    return states


def test_issue10_3_every_reachable_state_pickles_and_from_fields_agrees() -> None:
    for state in _reachable_states(300, 3):
        assert pickle.loads(pickle.dumps(state)) == state
        if state.is_over:
            continue
        again = core.GameState.from_fields(
            state.hands, state.pile_mask, state.pile_owner, state.turn, state.locked_mask,
            state.finished, state.must_include, state.flags, state.played_mask)
        assert again == state


def _from_key_fields(key: tuple) -> core.GameState:
    hands, pile_mask, _code, owner, turn, locked, finished, mi, flags, played = key
    return core.GameState.from_fields(hands, pile_mask, owner, turn, locked, finished, mi,
                                      flags, played)


def test_issue10_3_unpickling_and_from_fields_accept_exactly_the_same_states() -> None:
    """One validator: perturb one field of reachable states; from_fields and unpickling
    must both accept or both refuse (over states aside, which only pickles express)."""
    rng = np.random.default_rng(5)
    agree = accepted = 0
    for state in _reachable_states(200, 4):
        if state.is_over:
            continue
        for _ in range(20):
            key = list(state.key())
            field = int(rng.integers(10))
            n = len(key[0])
            if field == 0:
                hands = list(key[0])
                seat = int(rng.integers(n))
                hands[seat] ^= 1 << int(rng.integers(52))
                key[0] = tuple(hands)
            elif field == 1:
                key[1] = int(rng.choice([0, 1, 0b11, 1 << 51, key[1] | 1 << int(rng.integers(52))]))
                key[2] = core.classify(key[1])
            elif field in (3, 4):
                key[field] = int(rng.integers(-1, n))
            elif field == 5:
                key[5] = int(rng.integers(0, 1 << n))
            elif field == 6:
                key[6] = tuple(int(x) for x in rng.permutation(n)[:int(rng.integers(0, n + 1))])
            elif field == 7:
                key[7] = int(rng.integers(-1, 52))
            elif field == 9:
                key[9] = key[9] ^ (1 << int(rng.integers(52)))
            key = tuple(key)
            if key[4] < 0:
                continue
            try:
                _from_key_fields(key)
                by_fields = True
            except ValueError:
                by_fields = False
            try:
                _core._state_from_key(key)
                by_key = True
            except ValueError:
                by_key = False
            assert by_fields == by_key, key
            agree += 1
            accepted += by_key
    assert agree > 1000 and 0 < accepted < agree


# ------------------------------------------------------------ item 4: search copies the state

def _two_views() -> tuple[tuple, tuple, int, int, int]:
    """Hands of two states with the same candidates for seat 0 but different card counts
    (seat 0 holds one more card in b, seat 2 two fewer), so their samples differ; unseen
    serves both."""
    h0, h1, h2, h3 = core.deal(21)
    c = h2 & -h2
    d = (h2 & ~c) & -(h2 & ~c)
    return (h0, h1, h2 & ~c, h3), (h0 | c, h1, h2 & ~c & ~d, h3), c, d, core.FULL_DECK & ~h0 & ~c


def test_issue10_4_search_reads_the_state_once_even_if_actions_mutate_it() -> None:
    """The caller's `actions` iterable runs Python code after the card counts were taken:
    here it rebuilds the state in place. The search must answer for the state as it was
    when called (before the fix, the counts came from one state and the playouts from the
    other, an answer for neither)."""
    ah, bh, c, d, unseen = _two_views()
    a = core.GameState.from_fields(ah, turn=0, played_mask=c)
    moves = a.legal_moves().tolist()
    for policy in (core.PLAN, core.GREEDY, core.RANDOM):
        want = core.sampled_places(a, unseen, moves, 8, 1, policy)
        state = a.copy()

        def actions():
            yield from moves
            state.__init__(bh, 0)                     # now another state, same candidates

        got = core.sampled_places(state, unseen, actions(), 8, 1, policy)
        assert state.hands == bh
        assert (got == want).all(), policy


def test_issue10_4_search_works_on_a_copy_of_a_state_another_thread_mutates() -> None:
    """A thread rebuilds the state in place between two versions while searches run: each
    answer is one version's (a race, so this catches an unsafe build often, not always)."""
    ah, bh, c, d, unseen = _two_views()
    a = core.GameState.from_fields(ah, turn=0, played_mask=c)
    b = core.GameState.from_fields(bh, turn=0, played_mask=d)
    # Repeated candidates make the work before the first sample (one plan per candidate)
    # long enough for the other thread to get in.
    actions = np.tile(a.legal_moves(), 20)
    want = {core.sampled_places(s, unseen, actions, 1, 1, core.PLAN).tobytes() for s in (a, b)}
    want_mc = {core.flat_monte_carlo(s, unseen, 2, 1, core.GREEDY)[1].tobytes() for s in (a, b)}
    assert len(want) == 2 and len(want_mc) == 2
    state = a.copy()
    stop = threading.Event()

    def mutate() -> None:
        while not stop.is_set():
            state.__init__(ah, 0)
            state.__init__(bh, 0)

    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-5)
    thread = threading.Thread(target=mutate)
    thread.start()
    try:
        for _ in range(40):
            assert core.sampled_places(state, unseen, actions, 1, 1, core.PLAN).tobytes() in want
            assert core.flat_monte_carlo(state, unseen, 2, 1, core.GREEDY)[1].tobytes() in want_mc
    finally:
        stop.set()
        thread.join()
        sys.setswitchinterval(interval)


# ------------------------------------------------------------ item 5: Ctrl-C and absurd sizes

# name -> (setup, call). The setup (building a 160-256 MB input with np.full, which no
# Ctrl-C can interrupt) runs in the child before it says "ready"; only the call itself is
# in flight when SIGINT arrives, so the time measured is the native call's own.
LONG_CALLS = {
    "random_playouts": ("", "core.random_playouts(50_000_000, policy=core.RANDOM)"),
    "random_playouts_plan": ("", "core.random_playouts(50_000_000, policy=core.PLAN)"),
    "flat_monte_carlo": ("", "core.flat_monte_carlo(S, U, core.MAX_SAMPLES, 1, core.GREEDY)"),
    "sampled_places": ("", "core.sampled_places(S, U, None, core.MAX_SAMPLES // 64, 1, core.PLAN)"),
    "count_legal_moves_many": ("X = np.full(20_000_000, (1 << 48) - 1, np.uint64)",
                               "core.count_legal_moves_many(X)"),
    "legal_moves_many": ("X = np.full(4_000_000, (1 << 24) - 1, np.uint64)",
                         "core.legal_moves_many(X)"),
    # One call takes well under a second, so it is repeated; into one preallocated out=,
    # so the loop between calls allocates nothing (the calls are nearly all its time).
    "classify_many": ("X = np.full(1 << 25, 7, np.uint64); O = np.empty(1 << 25, np.uint32)",
                      "[core.classify_many(X, 0, O) for _ in range(10 ** 6)]"),
}


def test_issue10_5_ctrl_c_interrupts_each_long_native_call_promptly() -> None:
    """One child process runs every long call in turn; SIGINT is sent during each, which
    must raise KeyboardInterrupt within well under 2 s (each call would run for minutes).
    Each call's inputs are built before the child says "ready", and the signal is sent
    0.3 s after that, so the 2 s measure from the signal to the KeyboardInterrupt is the
    call's alone (not np.full's, which cannot be interrupted and took seconds under ASAN
    on a loaded machine)."""
    calls = "\n".join(f"    ({name!r}, {setup!r}, lambda: {call}),"
                      for name, (setup, call) in LONG_CALLS.items())
    script = textwrap.dedent("""
        import sys
        import numpy as np
        from tienlen import core
        S = core.GameState(core.deal(3))
        U = core.FULL_DECK & ~S.hand(S.turn)
        CALLS = [
        %s
        ]
        for name, setup, call in CALLS:
            exec(setup)
            print("ready", name, flush=True)
            try:
                call()
            except KeyboardInterrupt:
                print("interrupted", name, flush=True)
            else:
                print("finished", name, flush=True)
            X = O = None
    """) % calls
    child = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True)
    waits = {}

    # A call that ignores SIGINT runs for minutes: fail, don't hang the suite on it. Lines
    # are read by a thread (select on the pipe would miss lines already in the buffer).
    lines: queue.Queue[str] = queue.Queue()
    threading.Thread(target=lambda: [lines.put(x) for x in child.stdout], daemon=True).start()

    def line_within(seconds: float) -> list[str]:
        try:
            return lines.get(timeout=seconds).split()
        except queue.Empty:
            raise AssertionError(f"no line from the child within {seconds} s") from None

    try:
        for name in LONG_CALLS:
            assert line_within(60) == ["ready", name]
            time.sleep(0.3)                   # inside the call: each runs for minutes
            sent = time.monotonic()
            child.send_signal(signal.SIGINT)
            line = line_within(10)
            waits[name] = time.monotonic() - sent
            assert line == ["interrupted", name], line
        child.wait(timeout=10)          # stdout belongs to the reader thread
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
    assert child.returncode == 0
    assert max(waits.values()) < 2.0, waits


def test_issue10_5_absurd_sizes_are_refused_up_front() -> None:
    state = core.GameState(core.deal(3))
    unseen = core.FULL_DECK & ~state.hand(state.turn)
    with pytest.raises(ValueError, match="samples"):
        core.flat_monte_carlo(state, unseen, 2 ** 40, 1)
    with pytest.raises(ValueError, match="samples"):
        core.sampled_places(state, unseen, None, 2 ** 40, 1)
    state = core.GameState(core.deal(3), leader=0)          # a free lead: many moves
    unseen = core.FULL_DECK & ~state.hand(state.turn)
    moves = state.legal_moves()
    assert len(moves) * core.MAX_SAMPLES > core.MAX_PLACES      # the check comes first
    with pytest.raises(ValueError, match="MAX_PLACES"):
        core.sampled_places(state, unseen, moves, core.MAX_SAMPLES, 1)
    with pytest.raises(ValueError, match="n must be"):
        core.random_playouts(2 ** 40)
    with pytest.raises(ValueError, match="n must be"):
        core.random_playouts(core.MAX_GAMES + 1)


# ------------------------------------------------------------ items 6 and 8: replays

def _replay_text() -> str:
    game = Game.from_hands(["3s 4s 9h", "5s 9d"])
    game.play("3s")
    game.pass_turn()
    return game.to_json()


def test_issue10_6_replay_files_are_read_up_to_a_cap(tmp_path) -> None:
    with pytest.raises(ReplayError, match="larger than"):
        read_replay_file("/dev/zero")                 # never ends: read at most cap + 1
    big = tmp_path / "big.json"
    big.write_bytes(b" " * (MAX_REPLAY_BYTES + 1))
    with pytest.raises(ReplayError, match="larger than"):
        read_replay_file(big)
    ok = tmp_path / "ok.json"
    padded = _replay_text() + " " * (MAX_REPLAY_BYTES - len(_replay_text()))
    ok.write_text(padded)
    assert game_from_json(read_replay_file(ok)) == game_from_json(_replay_text())
    with pytest.raises(ReplayError, match="larger than"):
        game_from_json(padded + " ")


def test_issue10_6_tienlen_replay_refuses_dev_zero_quickly() -> None:
    start = time.monotonic()
    result = subprocess.run([sys.executable, "-m", "tienlen", "replay", "/dev/zero"],
                            capture_output=True, text=True, timeout=60,
                            env={**os.environ, "COLUMNS": "100"})
    assert result.returncode != 0
    assert "larger than" in result.stderr + result.stdout
    assert "Traceback" not in result.stderr
    assert time.monotonic() - start < 30


@pytest.mark.parametrize("action", [[1, 2], {"x": 1}, 3, None, True])
def test_issue10_8_a_replay_action_of_the_wrong_type_is_a_replay_error(action) -> None:
    record = json.loads(_replay_text())
    record["actions"][0]["action"] = action
    with pytest.raises(ReplayError) as caught:
        game_from_json(json.dumps(record))
    assert caught.value.field == "actions[0]"


def test_issue10_8_quoted_values_are_cut() -> None:
    huge = "x" * 1_000_000
    for field, value in [("schema", huge), ("version", [huge]), ("finished", [huge]),
                         ("rules", huge), ("hands", [huge, huge])]:
        record = json.loads(_replay_text())
        record[field] = value
        with pytest.raises(ReplayError) as caught:
            game_from_json(json.dumps(record))
        assert len(str(caught.value)) < 400, field
    record = json.loads(_replay_text())
    record["actions"][0]["action"] = huge
    with pytest.raises(ReplayError) as caught:
        game_from_json(json.dumps(record))
    assert len(str(caught.value)) < 400 and "\u2026" in str(caught.value)


# ------------------------------------------------------------ item 7: a play of no cards

@pytest.mark.parametrize("empty", [Cards(), "", []], ids=["Cards()", "str", "list"])
def test_issue10_7_apply_unchecked_refuses_a_play_of_no_cards(empty) -> None:
    game = Game.from_hands(["3s 4s", "5s 9h"])
    game.play("3s")
    before = (game.to_json(), game.turn)
    with pytest.raises(IllegalMoveError):
        game.apply_unchecked(empty)
    assert (game.to_json(), game.turn) == before            # nothing recorded or applied


@pytest.mark.parametrize("zero", [0, np.uint64(0), PASS], ids=["int", "numpy", "PASS"])
def test_issue10_7_apply_unchecked_zero_is_a_pass_that_replays(zero) -> None:
    game = Game.from_hands(["3s 4s", "5s 9h", "6d 7d"])
    game.play("3s")
    action = game.apply_unchecked(zero)
    assert action.cards is None and game.locked_seats == frozenset({1}) and game.turn == 2
    assert game_from_json(game.to_json()) == game


# ------------------------------------------------------------ item 10: loose arguments

def test_issue10_10_policy_must_be_an_int() -> None:
    for policy in (1.0, 2.0, "1", True, np.float64(1)):
        with pytest.raises(ValueError, match="policy"):
            core.random_playouts(10, policy=policy)
    assert core.random_playouts(2, policy=np.int8(1)).shape == (2, 4)


def test_issue10_10_code_field_accessors_refuse_non_ints() -> None:
    for accessor in (core.code_kind, core.code_len, core.code_top):
        for bad in ("x", 1.5, None, -1, 1 << 40, True):
            with pytest.raises(ValueError):
                accessor(bad)
    code = core.classify(0b111)
    assert (core.code_kind(code), core.code_len(code), core.code_top(code)) == (core.TRIPLE, 3, 2)
    assert core.code_kind(np.uint32(code)) == core.TRIPLE
