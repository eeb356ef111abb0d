"""Issue 24, items 1-6: sizes read from Python attributes, buffers read after the check.

Each test names the defect it pins. Before the fix each of these read or wrote past a
buffer (several segfaulted with a large claimed size) or answered from memory the caller
changed after the check; the repro of each was run against main's build in a child process
to see it fail (see the commit message). Now every array enters the cores through
src/arrays.pxi (sizes from the buffer, inputs copied), so they run in-process.
tests/test_array_inputs.py is the standing test over every function that takes an array.
"""

from __future__ import annotations

import threading

import numpy as np
import pytest

from tienlen import _core, _guandan


def lying(arr: np.ndarray, shape: tuple[int, ...], copy_to: np.ndarray | None = None) -> np.ndarray:
    """`arr` as a subclass whose `shape` says `shape` and whose `copy()` (if `copy_to`)
    returns that other array: every Python-level fact about it is false."""
    class Lying(np.ndarray):
        @property  # type: ignore[misc]
        def shape(self) -> tuple[int, ...]:
            return shape

        def copy(self, order: str = "C") -> np.ndarray:  # type: ignore[override]
            return np.asarray(arr if copy_to is None else copy_to).copy()

    return arr.view(Lying)


# ---------------------------------------------------------------- 1, 2: Guandan batch

N = 1 << 12


def test_issue24_1_guandan_levels_sized_by_a_lying_shape_are_refused() -> None:
    """levels.shape == (n,) was checked through the attribute, then n levels were read from
    a 1-element copy (a segfault with n = 2**24, wrong counts with 2**20)."""
    hands = np.zeros((N, 2), np.uint64)
    hands[:, 0] = 0b1111
    levels = lying(np.array([2], np.int64), (N,))
    for call in (_guandan.count_legal_plays_many, _guandan.legal_plays_many):
        with pytest.raises(ValueError, match=r"levels must have shape \(4096,\); got \(1,\)"):
            call(hands, levels)
    # The same levels, really N long, answer as the per-call function does.
    counts = _guandan.count_legal_plays_many(hands, lying(np.full(N, 2, np.int64), (1,)))
    assert counts.tolist() == [_guandan.count_legal_plays(0b1111, 0, 2)] * N


def test_issue24_2_guandan_pile_codes_and_hands_sized_by_a_lying_shape_are_refused() -> None:
    """pile_codes and hands were sized by their .shape too, and read past the copy
    ("pile_codes[1] is not a play at level 2: 21954": a value from past the copy)."""
    hands = np.zeros((N, 2), np.uint64)
    piles = lying(np.zeros(1, np.uint32), (N,))
    for call in (_guandan.count_legal_plays_many, _guandan.legal_plays_many):
        with pytest.raises(ValueError, match=r"pile_codes must have shape \(4096,\); got \(1,\)"):
            call(hands, 2, piles)
    # hands claiming N rows while holding one: n is the one row its buffer has, so N pile
    # codes do not fit it.
    one = lying(np.zeros((1, 2), np.uint64), (N, 2))
    with pytest.raises(ValueError, match=r"pile_codes must have shape \(1,\)"):
        _guandan.count_legal_plays_many(one, 2, np.zeros(N, np.uint32))
    assert _guandan.count_legal_plays_many(one, 2).tolist() == [0]
    # out= claiming the right length while holding one element.
    with pytest.raises(ValueError, match=r"out must have shape \(4096,\)"):
        _guandan.count_legal_plays_many(hands, 2, out=lying(np.zeros(1, np.int64), (N,)))


# ---------------------------------------------------------------- 3, 4: VecGames

def test_issue24_3_vecgames_step_actions_sized_by_a_lying_shape_are_refused() -> None:
    """A 1-element int64 array claiming shape (N,) passed every check, then N int64s were
    read from it (a segfault with N = 2**17)."""
    v = _core.VecGames(N)
    before = v.obs.copy()
    with pytest.raises(ValueError, match=r"actions must have shape \(4096,\); got \(1,\)"):
        v.step(lying(np.ones(1, np.int64), (N,)))
    assert (v.obs == before).all()                    # nothing was stepped
    v.close()


def test_issue24_4_vecgames_reset_seeds_from_a_shorter_copy_are_refused() -> None:
    """reset checked seeds.shape[0] == N, then read N seeds from seeds.copy(), which a
    subclass returned shorter (a segfault with N = 2**20, envs dealt from stray memory with
    2**17). Neither the shape nor copy() is used now: the buffer's N seeds are."""
    seeds = np.arange(N, dtype=np.uint64)
    want = _core.VecGames(N)
    want.reset(seeds)
    v = _core.VecGames(N)
    with pytest.raises(ValueError, match=r"seed must have shape \(4096,\); got \(1,\)"):
        v.reset(lying(np.zeros(1, np.uint64), (N,), copy_to=np.zeros(1, np.uint64)))
    # A real N-seed array whose copy() lies deals from the real seeds.
    v.reset(lying(seeds, (N,), copy_to=np.zeros(1, np.uint64)))
    assert (v.obs == want.obs).all()
    assert all(v.game_state(i) == want.game_state(i) for i in (0, 1, N - 1))
    v.close()
    want.close()


# ---------------------------------------------------------------- 5: out= of the RL envs

def test_issue24_5_rl_out_sized_by_a_lying_shape_is_refused_not_overrun() -> None:
    """observe / action_mask / legal_action_cards (RLGame) and VecGames.legal_action_cards
    sized `out` by its .shape: a 1-element array claiming the full shape had the whole
    observation written past its end (all four segfaulted on a plain 1-element subclass)."""
    g = _core.RLGame(4)
    g.reset(3)
    v = _core.VecGames(2)
    calls = [
        ("observe", lambda out: g.observe(0, out), np.uint8, (468,)),
        ("action_mask", lambda out: g.action_mask(out), np.int8, (487,)),
        ("legal_action_cards", lambda out: g.legal_action_cards(out), np.int8, (487, 52)),
        ("VecGames.legal_action_cards", lambda out: v.legal_action_cards(1, out), np.int8, (487, 52)),
    ]
    for name, call, dtype, shape in calls:
        guard = np.full(64, 0x55, np.uint8)           # a neighbour the overrun would hit
        small = lying(np.zeros(1, dtype).reshape((1,) * len(shape)), shape)
        with pytest.raises(ValueError, match="out must have shape"):
            call(small)
        assert (guard == 0x55).all(), name
        assert small.view(np.ndarray).ravel().tolist() == [0], name
        # A right-sized out under a lying shape is written and equals the fresh answer.
        good = lying(np.zeros(shape, dtype), (1,))
        assert call(good) is good
        assert (good.view(np.ndarray) == call(None)).all(), name
    v.close()


# ---------------------------------------------------------------- 6: deal_places

def _inference_case() -> tuple[_core.GameState, np.ndarray, np.ndarray, np.ndarray]:
    state = _core.GameState(_core.deal(5))
    unseen = _core.FULL_DECK & ~state.hand(state.turn)
    deals, _ = _core.scored_deals(state, unseen, 64, 1, [])
    # A "deal" with one seat holding every hidden card: what the rewriting code writes.
    bad = deals.copy()
    others = [p for p in range(4) if p != state.turn]
    bad[:, others[0]] = unseen
    bad[:, others[1:]] = 0
    return state, deals, bad, state.legal_moves()[:3]


def test_issue24_6_deal_places_deals_rewritten_by_an_action_index_are_checked() -> None:
    """deal_places checked the caller's deals, then ran the actions' __index__ and its
    GIL-free loop on that same array: deals rewritten after the check (one seat holding all
    39 hidden cards) were played without error, and the places differed for RANDOM, GREEDY
    and PLAN. Now the actions are read first and the deals copied after."""
    state, deals, bad, moves = _inference_case()
    for policy in (_core.RANDOM, _core.GREEDY, _core.PLAN):
        mine = deals.copy()
        want = _core.deal_places(state, mine, moves, policy, seed=2)

        class Rewrites:
            def __init__(self, mask: int) -> None:
                self.mask = mask

            def __index__(self) -> int:
                mine[:] = bad
                return self.mask

        with pytest.raises(ValueError, match="is not a deal of the hidden cards"):
            _core.deal_places(state, mine, [Rewrites(int(m)) for m in moves], policy, seed=2)
        # Rewritten back to the checked deals by the same hook: the answer is theirs.
        mine[:] = bad

        class Restores(Rewrites):
            def __index__(self) -> int:
                mine[:] = deals
                return self.mask

        got = _core.deal_places(state, mine, [Restores(int(m)) for m in moves], policy, seed=2)
        assert (got == want).all()


def test_issue24_6_deal_places_deals_written_by_another_thread_are_never_played() -> None:
    """Another thread writing `deals` during the GIL-free loop changed the places. Each call
    now either refuses the deals it copied or answers exactly for the deals it checked."""
    state, deals, bad, moves = _inference_case()
    want = _core.deal_places(state, deals, moves, _core.GREEDY, seed=4)
    shared = deals.copy()
    stop = threading.Event()

    def writer() -> None:
        while not stop.is_set():
            shared[:] = bad
            shared[:] = deals

    thread = threading.Thread(target=writer)
    thread.start()
    answered = refused = 0
    try:
        for _ in range(100):
            try:
                got = _core.deal_places(state, shared, moves, _core.GREEDY, seed=4)
            except ValueError as error:
                assert "not a deal" in str(error)
                refused += 1
                continue
            assert (got == want).all()
            answered += 1
    finally:
        stop.set()
        thread.join()
    assert answered + refused == 100
