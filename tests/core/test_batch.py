"""The batch NumPy API (issue 5): agreement with the per-call API, the CSR layout, argument
checking, and thread safety of the nogil loops."""

from __future__ import annotations

import itertools
import os
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest

from tienlen import _core, core

SOAK = 100 if os.environ.get("TIENLEN_SOAK") == "1" else 1
FLAGS = [0, core.NO_TWOS_IN_SEQUENCES]


def _mixed_masks(rng: np.random.Generator, n: int) -> np.ndarray:
    """Half real combinations (legal leads of dealt hands), half random subsets of hands,
    plus uniform random masks, empty and full masks."""
    parts = []
    seed = int(rng.integers(1 << 32))
    total = 0                       # a running count: summing the parts each time is quadratic
    while total < n // 2:
        seed += 1
        parts.append(core.legal_moves(core.deal(seed)[0]))
        total += len(parts[-1])
    hands = [core.deal(seed + i)[i % 4] for i in range(n // 4)]
    subsets = [h & int(rng.integers(0, 1 << 52)) for h in hands]
    parts.append(np.array(subsets, dtype=np.uint64))
    parts.append(rng.integers(0, 1 << 52, size=n // 4, dtype=np.uint64))
    parts.append(np.array([0, 1, (1 << 52) - 1, 0xF << 48], dtype=np.uint64))
    masks = np.concatenate(parts)
    rng.shuffle(masks)
    return masks


@pytest.fixture(params=["simd", "scalar"])
def classify_path(request):
    """Run a test through the SIMD batch classify (where the CPU has it) and the scalar loop."""
    previous = _core._simd(request.param == "simd")
    yield request.param
    _core._simd(previous)


def _runs_and_near_misses(rng: np.random.Generator) -> np.ndarray:
    """Every window of ranks with 1, 2 or 3 cards a rank (random suits), each also with a
    gap, with one card too many, and with one rank doubled: the shapes where a sequence
    test can go wrong."""
    masks = []
    for lo in range(13):
        for hi in range(lo, 13):
            for need in (1, 2, 3):
                mask = 0
                for rank in range(lo, hi + 1):
                    for suit in rng.permutation(4)[:need].tolist():
                        mask |= 1 << (4 * rank + suit)
                masks.append(mask)
                if hi - lo >= 2:
                    gap = int(rng.integers(lo + 1, hi))
                    masks.append(mask & ~(0xF << (4 * gap)))
                spare = [c for c in range(4 * lo, 4 * hi + 4) if not (mask >> c) & 1]
                if spare:
                    masks.append(mask | 1 << int(rng.choice(spare)))
                outside = [c for c in range(52) if not lo * 4 <= c < hi * 4 + 4]
                if outside:
                    masks.append(mask | 1 << int(rng.choice(outside)))
    return np.array(masks, dtype=np.uint64)


@pytest.mark.parametrize("flags", FLAGS)
def test_classify_many_agrees_on_runs_and_near_misses(flags: int, classify_path: str) -> None:
    rng = np.random.default_rng(23)
    for offset in range(4):                     # every alignment of the SIMD blocks of 4
        masks = _runs_and_near_misses(rng)[offset:]
        codes = core.classify_many(masks, flags)
        assert codes.tolist() == [core.classify(int(m), flags) for m in masks.tolist()]
    assert {int(k) for k in core.classify_many(masks, flags) >> 12} == {0, 1, 2, 3, 4, 5, 6}


@pytest.mark.parametrize("flags", FLAGS)
def test_classify_many_agrees_with_classify_on_100k_masks(flags: int, classify_path: str) -> None:
    rng = np.random.default_rng(11 + flags)
    masks = _mixed_masks(rng, 100_000 * SOAK)
    codes = core.classify_many(masks, flags)
    expected = [core.classify(int(m), flags) for m in masks.tolist()]
    assert codes.dtype == np.uint32
    assert codes.tolist() == expected
    # The mix really contains combinations and non-combinations of every kind.
    kinds = set((codes >> 12).tolist())
    assert kinds == {0, 1, 2, 3, 4, 5, 6}


@pytest.mark.parametrize("flags", FLAGS)
def test_classify_many_agrees_on_every_mask_of_up_to_3_cards(flags: int, classify_path: str) -> None:
    masks = np.array(
        [sum(1 << c for c in combo) for k in (1, 2, 3) for combo in itertools.combinations(range(52), k)],
        dtype=np.uint64,
    )
    codes = core.classify_many(masks, flags)
    assert codes.tolist() == [core.classify(int(m), flags) for m in masks.tolist()]


def test_beats_many_agrees_with_beats_on_100k_pairs() -> None:
    rng = np.random.default_rng(5)
    masks = _mixed_masks(rng, 60_000 * SOAK)
    codes = core.classify_many(masks)
    codes = codes[codes != 0]
    # Piles rich in 2-combos, so that bombs are exercised.
    twos = core.classify_many(np.array([1 << 51, 0b11 << 48, 0b111 << 48, 1 << 48], dtype=np.uint64))
    piles = np.concatenate([codes, np.repeat(twos, len(codes) // 8), np.zeros(100, np.uint32)])
    plays = np.concatenate([codes, codes[: len(piles) - len(codes)]])
    rng.shuffle(piles)
    n = min(len(plays), len(piles), 100_000 * SOAK)
    plays, piles = np.ascontiguousarray(plays[:n]), np.ascontiguousarray(piles[:n])
    result = core.beats_many(plays, piles)
    expected = [core.beats(int(a), int(b)) for a, b in zip(plays.tolist(), piles.tolist())]
    assert result.dtype == np.bool_
    assert result.tolist() == expected
    assert 0 < int(result.sum()) < n


def _situations(n: int, seed: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    hands, piles, locked, must = [], [], [], []
    for i in range(n):
        deal = core.deal(seed * 100_000 + i)
        hand = deal[0] & int(rng.integers(0, 1 << 52)) if i % 3 else deal[0]
        other = core.legal_moves(deal[1])
        pile = int(core.classify(int(other[rng.integers(len(other))]))) if i % 2 else 0
        hands.append(hand)
        piles.append(pile)
        locked.append(bool(pile) and i % 5 == 0)
        must.append((hand & -hand).bit_length() - 1 if (hand and i % 7 == 0 and not pile) else -1)
    return (
        np.array(hands, dtype=np.uint64),
        np.array(piles, dtype=np.uint32),
        np.array(locked, dtype=np.bool_),
        np.array(must, dtype=np.int8),
    )


def test_legal_moves_many_rows_equal_per_call_legal_moves() -> None:
    hands, piles, locked, must = _situations(20_000 * SOAK, 3)
    offsets, moves = core.legal_moves_many(hands, piles, 0, locked, must)
    counts = core.count_legal_moves_many(hands, piles, 0, locked, must)
    assert offsets.dtype == np.int64 and moves.dtype == np.uint64
    assert len(offsets) == len(hands) + 1 and offsets[0] == 0 and offsets[-1] == len(moves)
    assert np.array_equal(np.diff(offsets), counts)
    for i in range(len(hands)):
        row = moves[offsets[i] : offsets[i + 1]]
        expected = core.legal_moves(int(hands[i]), int(piles[i]), 0, bool(locked[i]), int(must[i]))
        assert np.array_equal(row, expected), i


def test_legal_moves_many_handles_empty_hands_and_empty_rows() -> None:
    # Empty hands, hands with no answer to the pile, and an empty batch.
    pile = core.classify(1 << 51)  # 2♥: nothing single beats it
    hands = np.array([0, 0b1, 0, 1 << 50, 0], dtype=np.uint64)
    piles = np.array([0, 0, pile, pile, 0], dtype=np.uint32)
    offsets, moves = core.legal_moves_many(hands, piles)
    assert offsets.tolist() == [0, 0, 1, 1, 1, 1]
    assert moves.tolist() == [1]
    offsets, moves = core.legal_moves_many(np.zeros(0, np.uint64))
    assert offsets.tolist() == [0] and len(moves) == 0
    assert core.count_legal_moves_many(np.zeros(0, np.uint64)).tolist() == []


def test_legal_moves_many_is_independent_of_how_the_batch_is_split() -> None:
    # Any split point (a chunk boundary for a caller or a thread) gives the same rows.
    hands, piles, locked, must = _situations(3_000, 8)
    offsets, moves = core.legal_moves_many(hands, piles, 0, locked, must)
    for cut in (1, 17, 1024, 2047, 2999):
        a_off, a_mv = core.legal_moves_many(hands[:cut], piles[:cut], 0, locked[:cut], must[:cut])
        b_off, b_mv = core.legal_moves_many(hands[cut:], piles[cut:], 0, locked[cut:], must[cut:])
        assert np.array_equal(np.concatenate([a_mv, b_mv]), moves)
        assert np.array_equal(np.concatenate([a_off, b_off[1:] + a_off[-1]]), offsets)


def test_threaded_calls_give_the_single_threaded_result() -> None:
    hands, piles, locked, must = _situations(8_000, 4)
    masks = _mixed_masks(np.random.default_rng(9), 200_000)
    chunks = np.array_split(np.arange(len(hands)), 4)
    single_counts = core.count_legal_moves_many(hands, piles, 0, locked, must)
    single_codes = core.classify_many(masks)
    single_games = core.random_playouts(400, 4, seed=77)

    def count(idx: np.ndarray) -> np.ndarray:
        return core.count_legal_moves_many(hands[idx], piles[idx], 0, locked[idx], must[idx])

    with ThreadPoolExecutor(max_workers=4) as pool:
        counts = np.concatenate(list(pool.map(count, chunks)))
        codes = np.concatenate(list(pool.map(core.classify_many, np.array_split(masks, 4))))
        games = np.concatenate(
            list(pool.map(lambda k: core.random_playouts_range(100 * k, 100, 4, seed=77), range(4)))
        )
    assert np.array_equal(counts, single_counts)
    assert np.array_equal(codes, single_codes)
    assert np.array_equal(games, single_games)


def test_random_playouts_are_reproducible_and_valid() -> None:
    a = core.random_playouts(500, 4, seed=3)
    b = core.random_playouts(500, 4, seed=3)
    c = core.random_playouts(500, 4, seed=4)
    assert a.dtype == np.int8 and a.shape == (500, 4)
    assert np.array_equal(a, b) and not np.array_equal(a, c)
    assert (np.sort(a, axis=1) == np.arange(4)).all()
    # Every seat wins sometimes: the deal decides who leads, not the seat number.
    assert set(a[:, 0].tolist()) == {0, 1, 2, 3}
    out = np.full((500, 4), -1, np.int8)
    assert core.random_playouts(500, 4, seed=3, out=out) is out and np.array_equal(out, a)
    for players in (2, 3):
        r = core.random_playouts(200, players, seed=1, policy=core.GREEDY)
        assert (np.sort(r, axis=1) == np.arange(players)).all()


def test_out_arrays_are_filled_in_place() -> None:
    masks = np.array([0b1, 0b11, 0b1 | 1 << 8], dtype=np.uint64)
    out = np.zeros(3, np.uint32)
    assert core.classify_many(masks, out=out) is out
    assert out.tolist() == [core.classify(int(m)) for m in masks.tolist()]
    counts = np.zeros(3, np.int64)
    assert core.count_legal_moves_many(masks, out=counts) is counts
    assert counts.tolist() == [1, 3, 2]


BAD_ARGUMENTS = [
    ("masks", lambda: core.classify_many(np.array([1, 2], dtype=np.int64))),
    ("masks", lambda: core.classify_many([1, 2])),
    ("masks", lambda: core.classify_many(np.arange(8, dtype=np.uint64)[::2])),
    ("masks", lambda: core.classify_many(np.zeros((2, 2), np.uint64))),
    ("masks[1]", lambda: core.classify_many(np.array([1, 1 << 52], dtype=np.uint64))),
    ("out", lambda: core.classify_many(np.zeros(3, np.uint64), out=np.zeros(2, np.uint32))),
    ("out", lambda: core.classify_many(np.zeros(3, np.uint64), out=np.zeros(3, np.int32))),
    ("flags", lambda: core.classify_many(np.zeros(3, np.uint64), flags=1 << 40)),
    ("differ in length", lambda: core.beats_many(np.zeros(2, np.uint32), np.zeros(3, np.uint32))),
    ("pile_codes", lambda: core.beats_many(np.zeros(2, np.uint32), np.zeros(2, np.uint64))),
    ("play_codes[0]", lambda: core.beats_many(np.array([7], np.uint32), np.zeros(1, np.uint32))),
    ("hands", lambda: core.legal_moves_many(np.zeros(2, np.float64))),
    ("hands[0]", lambda: core.legal_moves_many(np.array([1 << 60], np.uint64))),
    ("pile_codes", lambda: core.legal_moves_many(np.zeros(2, np.uint64), np.zeros(3, np.uint32))),
    ("pile_codes[0]", lambda: core.count_legal_moves_many(np.zeros(1, np.uint64), np.array([5], np.uint32))),
    ("locked_out", lambda: core.count_legal_moves_many(np.zeros(2, np.uint64), None, 0, np.zeros(2, np.int8))),
    ("must_include", lambda: core.count_legal_moves_many(np.zeros(2, np.uint64), None, 0, None, np.full(2, 60, np.int8))),
    ("players", lambda: core.random_playouts(3, 5)),
    ("seed", lambda: core.random_playouts(3, 4, seed=-1)),
    ("out", lambda: core.random_playouts(3, 4, out=np.zeros((3, 3), np.int8))),
]


@pytest.mark.parametrize("name,call", BAD_ARGUMENTS, ids=[f"{i}-{n}" for i, (n, _) in enumerate(BAD_ARGUMENTS)])
def test_bad_arguments_raise_value_error_naming_the_argument(name: str, call) -> None:
    with pytest.raises(ValueError, match=name.replace("[", r"\[").replace("]", r"\]")):
        call()


def test_a_rejected_batch_leaves_out_untouched() -> None:
    out = np.full(3, 99, np.uint32)
    with pytest.raises(ValueError):
        core.classify_many(np.array([1, 3, 1 << 55], dtype=np.uint64), out=out)
    assert out.tolist() == [99, 99, 99]


def test_classify_many_refuses_a_mask_above_the_deck_with_or_without_out(classify_path: str) -> None:
    # Into a new array the classify pass itself finds the bad mask (each mask read once);
    # into the caller's out, the masks are checked first so that out is left untouched.
    for at in (0, 3, 4, 9):                          # inside and outside the 4-wide steps
        masks = np.arange(1, 11, dtype=np.uint64)
        masks[at] = np.uint64(1 << 52) | np.uint64(at)
        with pytest.raises(ValueError, match=rf"masks\[{at}\] has bits above 51"):
            core.classify_many(masks)
        out = np.full(10, 7, np.uint32)
        with pytest.raises(ValueError, match=rf"masks\[{at}\] has bits above 51"):
            core.classify_many(masks, out=out)
        assert (out == 7).all()
