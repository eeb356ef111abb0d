"""The standing fuzz guard (issue 10): hostile input to every public entry point of the core,
from_fields states under every playout policy, tampered replay files, and threads that
write a batch call's inputs while it runs.

The contract checked everywhere: an answer or a ValueError, never a crash, a hang, another
exception type or an answer that contradicts the per-call functions and the rules. A few
seconds by default; ``TIENLEN_SOAK=1`` runs hundreds of times more examples (random, not
derandomised) and races for a minute.
"""

from __future__ import annotations

import json
import os
import pickle
import threading
import time

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tienlen import _core, core
from tienlen.games.tienlen.game import Game
from tienlen.games.tienlen.replay import MAX_REPLAY_BYTES, ReplayError, game_from_json

SOAK = os.environ.get("TIENLEN_SOAK") == "1"
FUZZ = settings(max_examples=5000 if SOAK else 40, deadline=None, derandomize=not SOAK,
                suppress_health_check=list(HealthCheck), database=None)
RACE_SECONDS = 60.0 if SOAK else 0.5
POLICIES = (core.RANDOM, core.GREEDY, core.PLAN)

# ------------------------------------------------------------------ values of every kind


class _Weird:
    """An object with an __index__ that lies about being small."""

    def __index__(self) -> int:
        return 1 << 80


class _Subclass(np.ndarray):
    pass


class _ReadOnly(np.ndarray):
    def __array_finalize__(self, obj: object) -> None:
        self.flags.writeable = False


ints = st.one_of(
    st.integers(-3, 60),
    st.integers(0, (1 << 52) - 1),
    st.sampled_from([-1, 0, 1, 51, 52, 63, 64, 0xFFFF, 0x5030, 0x6070, 0x7000, 1 << 31,
                     (1 << 52) - 1, 1 << 52, (1 << 64) - 1, 1 << 64, -(1 << 63), 1 << 200]),
)
anything = st.one_of(
    ints,
    st.integers(-(1 << 63), (1 << 63) - 1).map(np.int64),
    st.integers(0, (1 << 52) - 1).map(np.uint64),
    st.floats(allow_nan=True),
    st.text(max_size=5),
    st.binary(max_size=4),
    st.none(),
    st.booleans(),
    st.lists(st.integers(-2, 60), max_size=5),
    st.tuples(st.integers(0, 60)),
    st.builds(object),
    st.builds(_Weird),
)


def _call(fn, *args, **kwargs):
    """Call fn: an answer or a ValueError (returned as None), nothing else."""
    try:
        return fn(*args, **kwargs)
    except ValueError:
        return None


# ------------------------------------------------------------------ scalar entry points

SMALL_COUNT = st.one_of(st.integers(0, 3), anything.filter(
    lambda v: not (type(v) is int and 3 < v) and not isinstance(v, (np.integer, _Weird))))


@FUZZ
@given(a=anything, b=anything, c=anything, d=anything, e=anything)
def test_fuzz_per_call_functions(a, b, c, d, e) -> None:
    for fn, args in [
        (core.classify, (a, b)), (core.beats, (a, b, c)), (core.is_two_combo, (a,)),
        (core.make_code, (a, b, c)), (core.code_kind, (a,)), (core.code_len, (a,)),
        (core.code_top, (a,)), (core.deal, (a, b)), (core.plan, (a, b)),
        (core.count_legal_moves, (a, b, c, d, e)),
    ]:
        _call(fn, *args)
    moves = _call(core.legal_moves, a, b, c, d, e)
    if moves is not None:
        # Whatever was accepted is a valid hand: every move is a combination inside it, and
        # there are as many as the closed-form count says.
        hand = int(a)
        assert all(int(m) & ~hand == 0 and core.classify(int(m), int(c)) for m in moves)
        assert len(moves) == core.count_legal_moves(a, b, c, d, e)
    state = _call(core.GameState, [a, b], c, d)
    if state is not None:
        assert pickle.loads(pickle.dumps(state)) == state


@FUZZ
@given(n=SMALL_COUNT, players=anything, seed=anything, flags=anything, policy=anything)
def test_fuzz_playout_entry_points(n, players, seed, flags, policy) -> None:
    out = _call(core.random_playouts, n, players, seed, flags, policy)
    if out is not None:
        assert out.dtype == np.int8 and out.ndim == 2
        assert all(sorted(row) == list(range(out.shape[1])) for row in out.tolist())
    _call(core.random_playouts_range, n, n, players, seed, flags, policy)
    _call(core.record_playout, seed, n, players, flags, policy)
    state = core.GameState(core.deal(3))
    unseen = core.FULL_DECK & ~state.hand(state.turn)
    _call(core.flat_monte_carlo, state, unseen, n, seed, policy)
    _call(core.sampled_places, state, unseen, None, n, seed, policy)
    _call(core.flat_monte_carlo, state, seed, n, 1, policy)
    _call(core.sampled_places, state, players, [flags], 1, 1)
    _call(core.flat_monte_carlo, players, unseen, 1, 1)


# ------------------------------------------------------------------ batch entry points

DTYPES = [np.uint64, np.uint32, np.int8, np.bool_, np.int64, np.float64, ">u8", ">u4", np.uint8]


@st.composite
def arrays(draw, dtype, n: int, values):
    """Mostly a good array of `dtype`; sometimes another dtype, shape, layout, a subclass,
    read-only, unaligned or not an array at all."""
    data = [draw(values) for _ in range(n)]
    base = np.array(data, dtype=dtype)
    how = draw(st.sampled_from(["plain"] * 6 + ["dtype", "2d", "strided", "subclass", "masked",
                                                "readonly", "unaligned", "list", "scalar"]))
    if how == "dtype":
        return base.astype(draw(st.sampled_from(DTYPES)))
    if how == "2d":
        return base.reshape(1, -1)
    if how == "strided":
        return np.repeat(base, 2)[::2]
    if how == "subclass":
        return base.view(_Subclass)
    if how == "masked":
        return np.ma.masked_array(base)
    if how == "readonly":
        base.flags.writeable = False
        return base
    if how == "unaligned":
        raw = np.zeros(base.nbytes + 1, np.uint8)
        view = raw[1:].view(base.dtype)
        view[:] = base
        return view
    if how == "list":
        return data
    if how == "scalar":
        return base[:1].reshape(()) if n else base
    return base


masks = st.one_of(st.integers(0, (1 << 52) - 1), st.integers(0, 1 << 14),
                  st.sampled_from([0, 1 << 52, (1 << 64) - 1]))
codes = st.one_of(st.integers(0, 1 << 13).map(lambda m: core.classify(m)),
                  st.sampled_from([0, 0x5030, 0x6070, 0x7000, 1 << 20, (1 << 32) - 1]))


@FUZZ
@given(st.data())
def test_fuzz_batch_functions(data) -> None:
    n = data.draw(st.integers(0, 6))
    hands = data.draw(arrays(np.uint64, n, masks))
    piles = data.draw(st.one_of(st.none(), arrays(np.uint32, n, codes)))
    locked = data.draw(st.one_of(st.none(), arrays(np.bool_, n, st.booleans())))
    must = data.draw(st.one_of(st.none(), arrays(np.int8, n, st.integers(-2, 53))))
    flags = data.draw(st.sampled_from([0, 1, 2, -1, None]))
    plain = all(x is None or (type(x) is np.ndarray and x.ndim == 1 and x.flags.c_contiguous
                              and x.flags.aligned and len(x) == n) for x in (hands, piles, locked, must))

    counts = _call(core.count_legal_moves_many, hands, piles, flags, locked, must)
    csr = _call(core.legal_moves_many, hands, piles, flags, locked, must)
    codes_out = _call(core.classify_many, hands, flags)
    if counts is not None and csr is not None and plain:
        offsets, moves = csr
        for i in range(n):
            args = (int(hands[i]), 0 if piles is None else int(piles[i]), flags,
                    False if locked is None else bool(locked[i]), -1 if must is None else int(must[i]))
            row = moves[offsets[i]:offsets[i + 1]].tolist()
            assert row == core.legal_moves(*args).tolist()
            assert counts[i] == len(row)
    if codes_out is not None and plain:
        assert codes_out.tolist() == [core.classify(int(m), flags) for m in hands]
    if piles is not None:
        result = _call(core.beats_many, piles, piles, flags)
        if result is not None and plain:
            assert result.tolist() == [core.beats(int(c), int(c), flags) for c in piles]

    # out=: of the right kind, the wrong kind, or sharing memory with an input.
    kind = data.draw(st.sampled_from(["good", "wrong_dtype", "short", "readonly", "overlap",
                                      "subclass", "strided"]))
    if (type(hands) is np.ndarray and hands.dtype == np.uint64 and hands.ndim == 1
            and hands.flags.c_contiguous):
        out = {"good": lambda: np.empty(len(hands), np.uint32),
               "wrong_dtype": lambda: np.empty(len(hands), np.int32),
               "short": lambda: np.empty(max(len(hands) - 1, 0), np.uint32),
               "readonly": lambda: np.empty(len(hands), np.uint32).view(_ReadOnly),
               "overlap": lambda: hands.view(np.uint32)[:len(hands)],
               "subclass": lambda: np.empty(len(hands), np.uint32).view(_Subclass),
               "strided": lambda: np.empty(2 * len(hands), np.uint32)[::2]}[kind]()
        before = hands.copy()
        result = _call(core.classify_many, hands, flags, out)
        if kind == "overlap" and len(hands):
            assert result is None                      # refused, and the input intact
            assert (hands == before).all()
        if result is not None and plain:
            assert result is out
            assert out.tolist() == [core.classify(int(m), flags) for m in hands]


# ------------------------------------------------------------------ states and policies


def _reachable(seed: int, steps: int, players: int) -> core.GameState:
    rng = np.random.default_rng(seed)
    state = core.GameState(core.deal(seed, players), int(rng.integers(-1, players)) or -1)
    for _ in range(steps):
        if state.is_over:
            break
        moves = state.legal_moves().tolist() + ([0] if state.can_pass() else [])
        state.apply(moves[int(rng.integers(len(moves)))])
    return state


@st.composite
def field_sets(draw):
    """Fields of a reachable state, with zero to three of them replaced by near misses."""
    state = _reachable(draw(st.integers(0, 1 << 30)), draw(st.integers(0, 40)),
                       draw(st.integers(2, 4)))
    hands, pile_mask, _code, owner, turn, locked, finished, mi, flags, played = state.key()
    fields = dict(hands=list(hands), pile_mask=pile_mask, pile_owner=owner, turn=turn,
                  locked_mask=locked, finished=list(finished), must_include=mi, flags=flags,
                  played_mask=played)
    n = len(hands)
    for _ in range(draw(st.integers(0, 3))):
        name = draw(st.sampled_from(sorted(fields)))
        if name == "hands":
            seat = draw(st.integers(0, n - 1))
            fields["hands"][seat] ^= 1 << draw(st.integers(0, 51))
        elif name in ("pile_mask", "played_mask"):
            fields[name] = draw(st.one_of(st.just(0), st.integers(0, (1 << 52) - 1),
                                          st.integers(0, 51).map(lambda c: 1 << c)))
        elif name in ("pile_owner", "turn"):
            fields[name] = draw(st.integers(-1, n - 1))
        elif name == "locked_mask":
            fields[name] = draw(st.integers(0, (1 << n) - 1))
        elif name == "finished":
            fields[name] = draw(st.lists(st.integers(0, n - 1), max_size=n))
        elif name == "must_include":
            fields[name] = draw(st.integers(-1, 51))
        else:
            fields[name] = draw(st.integers(0, 1))
    return fields


def _check_policy(state: core.GameState, policy: int, seed: int) -> None:
    order, actions = state.playout_moves(seed, policy)
    replay = state.copy()
    for action in actions:
        if action == 0:
            assert replay.can_pass()
        else:
            assert action in replay.legal_moves().tolist()
        replay.apply_checked(action)
    assert replay.is_over and replay.finished == order
    assert sorted(order) == list(range(state.players))
    assert order[:len(state.finished)] == state.finished
    assert state.playout(seed, policy) == order


@FUZZ
@given(fields=field_sets(), seed=st.integers(0, 1 << 64 - 1))
def test_fuzz_from_fields_states_under_every_policy(fields, seed) -> None:
    try:
        state = core.GameState.from_fields(**fields)
    except ValueError:
        return
    before = state.key()
    for policy in POLICIES:
        _check_policy(state, policy, seed)
    assert state.key() == before
    # One validator: whatever from_fields accepts unpickles, and to the same state.
    assert pickle.loads(pickle.dumps(state)) == state
    unseen = core.FULL_DECK & ~state.hand(state.turn) & ~state.played_mask & ~state.pile_mask
    need = sum(h.bit_count() for p, h in enumerate(state.hands) if p != state.turn)
    if unseen.bit_count() >= need and state.count_legal_moves() <= 2000:
        actions, sums = core.flat_monte_carlo(state, unseen, 2, seed, core.GREEDY)
        assert ((0 <= sums) & (sums <= 2 * (state.players - 1))).all()
        places = core.sampled_places(state, unseen, actions[:3], 2, seed, core.PLAN)
        assert ((0 <= places) & (places < state.players)).all()
    assert state.key() == before


@FUZZ
@given(key=st.tuples(
    st.lists(st.integers(0, (1 << 52) - 1) | st.sampled_from([0, 1, 2, 4, 8]), min_size=0, max_size=5),
    st.integers(0, 1 << 14), st.integers(0, 1 << 16), st.integers(-2, 5), st.integers(-2, 5),
    st.integers(-1, 20), st.lists(st.integers(-1, 5), max_size=6), st.integers(-2, 53),
    st.integers(-1, 2), st.integers(0, (1 << 52) - 1)))
def test_fuzz_unpickling_any_key(key) -> None:
    state = _call(_core._state_from_key, key)
    if state is None:
        return
    assert state.key() == _core._state_from_key(state.key()).key()
    if not state.is_over:
        for policy in POLICIES:
            _check_policy(state, policy, 1)


# ------------------------------------------------------------------ replay files


def _replay(seed: int) -> str:
    game = Game(int(seed % 3) + 2, seed=seed)
    rng = np.random.default_rng(seed)
    while not game.is_over and rng.random() < 0.97:
        moves = list(game.legal_moves())
        if game.can_pass() and (not moves or rng.random() < 0.3):
            game.pass_turn()
        else:
            game.play(moves[int(rng.integers(len(moves)))])
    return game.to_json()


json_values = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(-5, 1 << 70), st.floats(allow_nan=False),
              st.text(max_size=6), st.sampled_from(["play", "pass", "3s", "default", "tienlen.game"])),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
    max_leaves=6)


def _replace_random_node(node, data):
    """`node` with one randomly chosen value inside it replaced by a random JSON value."""
    if isinstance(node, (dict, list)) and node and data.draw(st.booleans()):
        keys = list(node) if isinstance(node, dict) else list(range(len(node)))
        key = data.draw(st.sampled_from(keys))
        node[key] = _replace_random_node(node[key], data)
        return node
    return data.draw(json_values)


@FUZZ
@given(seed=st.integers(0, 1 << 32), data=st.data())
def test_fuzz_replay_files(seed, data) -> None:
    text = _replay(seed)
    how = data.draw(st.sampled_from(["node", "node", "truncate", "bytes", "pad", "nest"]))
    if how == "node":
        tampered = json.dumps(_replace_random_node(json.loads(text), data))
    elif how == "truncate":
        tampered = text[:data.draw(st.integers(0, len(text)))]
    elif how == "bytes":
        raw = bytearray(text.encode())
        for _ in range(data.draw(st.integers(1, 4))):
            raw[data.draw(st.integers(0, len(raw) - 1))] = data.draw(st.integers(0, 255))
        tampered = bytes(raw)
    elif how == "pad":
        tampered = text + " " * data.draw(st.sampled_from([0, MAX_REPLAY_BYTES - len(text) + 1]))
    else:
        tampered = "[" * data.draw(st.integers(1, 100_000)) + text
    try:
        game = game_from_json(tampered)
    except ReplayError as error:
        assert len(str(error)) < 1000
        return
    # Accepted: it is a real game, and it round-trips.
    assert game_from_json(game.to_json()) == game


# ------------------------------------------------------------------ threads writing inputs


def test_fuzz_batch_calls_while_another_thread_writes_their_inputs() -> None:
    """Every row flips between two values (valid or not) while batch calls run: each call
    either refuses (ValueError) or answers every row for one of the values it held."""
    rng = np.random.default_rng(10)
    n = 128
    # Valid values everywhere, and in two rows one invalid value of each kind (so that
    # some calls see only valid rows and answer).
    choice = [core.deal(i)[0] for i in range(4)] + [(1 << 18) - 1, 0]
    palette_hands = np.array(choice, np.uint64)[rng.integers(len(choice), size=(2, n))]
    palette_hands[1, 5] = 1 << 52
    palette_hands[1, 77] = (1 << 64) - 1
    pile_choice = np.array([0, core.classify(1), core.classify(0b11)], np.uint32)
    palette_piles = pile_choice[rng.integers(len(pile_choice), size=(2, n))]
    palette_piles[1, 9] = 0x5030
    palette_piles[1, 100] = 0x7000
    hands = palette_hands[0].copy()
    piles = palette_piles[0].copy()
    stop = threading.Event()

    def writer() -> None:
        k = 0
        local = np.random.default_rng(11)
        while not stop.is_set():
            k += 1
            rows = local.integers(n, size=8)
            hands[rows] = palette_hands[k & 1, rows]
            piles[rows] = palette_piles[(k >> 1) & 1, rows]

    def allowed_rows(i: int, fn) -> set:
        found = set()
        for h in palette_hands[:, i]:
            for p in palette_piles[:, i]:
                try:
                    found.add(fn(int(h), int(p)))
                except ValueError:
                    pass
        return found

    cache: dict = {}

    def ok(i: int, name: str, value, fn) -> bool:
        if (i, name) not in cache:
            cache[i, name] = allowed_rows(i, fn)
        return value in cache[i, name]

    thread = threading.Thread(target=writer)
    thread.start()
    answered = 0
    try:
        deadline = time.monotonic() + RACE_SECONDS
        while time.monotonic() < deadline:
            for name in ("count", "moves", "classify", "beats"):
                try:
                    if name == "count":
                        result = core.count_legal_moves_many(hands, piles)
                        for i, c in enumerate(result.tolist()):
                            assert ok(i, name, c, lambda h, p: core.count_legal_moves(h, p))
                    elif name == "moves":
                        offsets, moves = core.legal_moves_many(hands, piles)
                        for i in range(n):
                            row = tuple(moves[offsets[i]:offsets[i + 1]].tolist())
                            assert ok(i, name, row, lambda h, p: tuple(core.legal_moves(h, p).tolist()))
                    elif name == "classify":
                        result = core.classify_many(hands)
                        for i, c in enumerate(result.tolist()):
                            assert ok(i, name, c, lambda h, p: core.classify(h))
                    else:
                        result = core.beats_many(piles, piles[::-1].copy())
                        assert result.dtype == np.bool_
                except ValueError:
                    continue
                answered += 1
    finally:
        stop.set()
        thread.join()
    assert answered > 0
