"""Differential tests: the native core against the independent reference (tests/reference.py).

Every case is generated from a fixed seed. ``TIENLEN_SOAK=1`` multiplies the counts by 100.
On a mismatch the message shows the cards, the pile, the rule setting and what each side
says, in card notation, so that a failure is a bug report on its own.
"""

from __future__ import annotations

import os
import random
from itertools import combinations
from typing import Callable

import numpy as np
import pytest

import reference as ref
from reference import (
    DOUBLE_SEQUENCE,
    FULL_DECK,
    PAIR,
    QUAD,
    SEQUENCE,
    SINGLE,
    TRIPLE,
    TWO_RANK,
)
from tienlen import core

SOAK = 100 if os.environ.get("TIENLEN_SOAK") == "1" else 1

# (core flags, reference twos_in_sequences): the contract and the R2.8 variant.
SETTINGS = [(0, True), (core.NO_TWOS_IN_SEQUENCES, False)]
SETTING_IDS = ["contract", "no-twos"]


# ------------------------------------------------------------------------ readable text


def code_str(c: int) -> str:
    if c == 0:
        return "0 (not a combination)"
    kind, n, top = c >> 12, (c >> 6) & 63, c & 63
    name = ref.KIND_NAMES.get(kind, f"kind {kind}")
    top_text = ref.card_str(top) if top < 52 else f"card {top}"
    return f"{c} ({name}, {n} cards, top {top_text})"


def flags_str(flags: int) -> str:
    return "flags=0 (contract)" if flags == 0 else f"flags={flags} (NO_TWOS_IN_SEQUENCES)"


def moves_str(masks: set[int] | list[int], limit: int = 12) -> str:
    shown = sorted(masks)[:limit]
    text = ", ".join(f"[{ref.cards_str(m)}]" for m in shown)
    more = f" ... and {len(masks) - limit} more" if len(masks) > limit else ""
    return "{" + text + more + "}"


# ---------------------------------------------------------------------------- generators


RANK_CARDS = [list(range(4 * r, 4 * r + 4)) for r in range(13)]


def cards_at(rank: int, avail: int) -> list[int]:
    if avail == FULL_DECK:
        return RANK_CARDS[rank]
    return [c for c in RANK_CARDS[rank] if (avail >> c) & 1]


def available_per_rank(avail: int) -> list[int]:
    return [4] * 13 if avail == FULL_DECK else ref.rank_counts(avail)


def make_combo(
    rng: random.Random,
    kind: int,
    size: int,
    avail: int = FULL_DECK,
    twos_in_sequences: bool = True,
    twos_bias: float = 0.3,
) -> int | None:
    """A random combination of ``kind`` using only ``avail`` cards, or None if impossible.

    ``size`` is the card count for n-of-a-kind and the number of ranks for runs.
    ``twos_bias`` is the chance of insisting on 2s (n-of-a-kind) or a 2 on top (runs),
    because 2s carry most of the special rules.
    """
    if kind in (SINGLE, PAIR, TRIPLE, QUAD):
        n = kind
        ranks = [r for r, have in enumerate(available_per_rank(avail)) if have >= n]
        if not ranks:
            return None
        r = TWO_RANK if TWO_RANK in ranks and rng.random() < twos_bias else rng.choice(ranks)
        return sum(1 << c for c in rng.sample(cards_at(r, avail), n))
    per_rank = 1 if kind == SEQUENCE else 2
    top_rank = TWO_RANK if twos_in_sequences else TWO_RANK - 1
    enough = [have >= per_rank for have in available_per_rank(avail)]
    starts = [lo for lo in range(0, top_rank - size + 2) if all(enough[lo : lo + size])]
    if not starts:
        return None
    last = top_rank - size + 1
    lo = last if last in starts and rng.random() < twos_bias else rng.choice(starts)
    if per_rank == 1:
        return sum(1 << rng.choice(cards_at(r, avail)) for r in range(lo, lo + size))
    return sum(
        sum(1 << c for c in rng.sample(cards_at(r, avail), 2)) for r in range(lo, lo + size)
    )


def random_kind_size(rng: random.Random, min_cards: int = 1, max_cards: int = 52) -> tuple[int, int]:
    """A (kind, size) whose card count lies in [min_cards, max_cards]."""
    while True:
        kind = rng.choice([SINGLE, PAIR, TRIPLE, QUAD, SEQUENCE, SEQUENCE, DOUBLE_SEQUENCE, DOUBLE_SEQUENCE])
        if kind <= QUAD:
            size = ncards = kind
        elif kind == SEQUENCE:
            size = ncards = rng.randint(3, 13)
        else:
            # Mostly the bomb lengths (3, 4, 5 pairs), sometimes longer runs.
            size = rng.choice([3, 3, 4, 4, 5, 5, 6, rng.randint(3, 13)])
            ncards = 2 * size
        if min_cards <= ncards <= max_cards:
            return kind, size


def random_valid_combo(rng: random.Random, min_cards: int = 1, max_cards: int = 52) -> int:
    while True:
        kind, size = random_kind_size(rng, min_cards, max_cards)
        combo = make_combo(rng, kind, size)
        if combo is not None:
            return combo


def wrapped_run(rng: random.Random) -> int:
    """A run whose ranks wrap past the 2 (A-2-3, K-A-2-3-4, ...): never valid (R2.7)."""
    length = rng.randint(3, 8)
    lo = rng.randint(TWO_RANK - length + 2, TWO_RANK)  # crosses from 2 back to 3
    per_rank = rng.choice([1, 2])
    return sum(
        sum(1 << c for c in rng.sample(cards_at((lo + i) % 13, FULL_DECK), per_rank))
        for i in range(length)
    )


def near_miss(rng: random.Random, mask: int) -> int:
    """Perturb a combination slightly: mostly invalid, occasionally still valid."""
    cards = ref.cards_of(mask)
    outside = [c for c in range(52) if not (mask >> c) & 1]
    op = rng.randrange(6)
    if op == 0 and len(cards) > 1:
        return mask & ~(1 << rng.choice(cards))
    if op == 1 and outside:
        return mask | 1 << rng.choice(outside)
    if op == 2 and outside:
        return (mask & ~(1 << rng.choice(cards))) | 1 << rng.choice(outside)
    if op == 3:
        # Move one card one rank up or down: breaks a run's shape or a pair.
        c = rng.choice(cards)
        target = c + rng.choice([-4, 4])
        if 0 <= target < 52 and not (mask >> target) & 1:
            return (mask & ~(1 << c)) | 1 << target
    if op == 4:
        # Add a same-rank duplicate inside a run.
        c = rng.choice(cards)
        dups = [d for d in cards_at(ref.rank(c), FULL_DECK) if not (mask >> d) & 1]
        if dups:
            return mask | 1 << rng.choice(dups)
    return wrapped_run(rng)


def random_set(rng: random.Random, n: int) -> int:
    if rng.random() < 0.5:
        pool = range(52)
    else:
        # A narrow band of ranks makes accidental near-runs and pairs common.
        width = max(2, (n + 3) // 4 + rng.randint(0, 3))
        lo = rng.randint(0, 13 - min(width, 13))
        pool = range(4 * lo, min(52, 4 * (lo + width)))
    return sum(1 << c for c in rng.sample(list(pool), min(n, len(pool))))


def mixed_masks(rng: random.Random, count: int, min_cards: int, max_cards: int) -> list[int]:
    """About half valid combos of every kind and length, then near misses and random sets."""
    masks = []
    for _ in range(count):
        r = rng.random()
        if r < 0.5:
            m = random_valid_combo(rng, min_cards, max_cards)
        elif r < 0.8:
            m = near_miss(rng, random_valid_combo(rng, min_cards, max_cards))
        else:
            m = random_set(rng, rng.randint(min_cards, max_cards))
        if m:
            masks.append(m)
    return masks


# ------------------------------------------------------------------------------ classify


def core_classify(masks: list[int], flags: int) -> list[int]:
    if hasattr(core, "classify_many"):
        out = core.classify_many(np.array(masks, dtype=np.uint64), flags)
        return [int(x) for x in np.asarray(out).tolist()]
    return [int(core.classify(m, flags)) for m in masks]


def assert_classify_agrees(masks: list[int], flags: int, tis: bool) -> None:
    got = core_classify(masks, flags)
    bad = []
    for m, c in zip(masks, got):
        want = ref.code(m, tis)
        if c != want:
            bad.append(m)
            if len(bad) >= 10:
                break
    assert not bad, f"classify disagrees under {flags_str(flags)} on {len(bad)}+ masks:\n" + "\n".join(
        f"  [{ref.cards_str(m)}] mask={m:#x}: core {code_str(int(core.classify(m, flags)))}, "
        f"reference {code_str(ref.code(m, tis))}"
        for m in bad
    )


def all_masks_of_up_to_4_cards() -> list[int]:
    bits = [1 << c for c in range(52)]
    return [sum(chosen) for k in range(1, 5) for chosen in combinations(bits, k)]


@pytest.fixture(scope="module")
def small_masks() -> list[int]:
    return all_masks_of_up_to_4_cards()


@pytest.mark.parametrize("flags, tis", SETTINGS, ids=SETTING_IDS)
def test_classify_every_mask_of_1_to_4_cards(small_masks: list[int], flags: int, tis: bool) -> None:
    assert len(small_masks) == 52 + 1326 + 22100 + 270725
    assert_classify_agrees(small_masks, flags, tis)


@pytest.fixture(scope="module")
def medium_masks() -> list[int]:
    return mixed_masks(random.Random(5_13), 200_000 * SOAK, 5, 13)


@pytest.mark.parametrize("flags, tis", SETTINGS, ids=SETTING_IDS)
def test_classify_random_masks_of_5_to_13_cards(medium_masks: list[int], flags: int, tis: bool) -> None:
    # The generator is meant to be about half combinations; guard against it drifting.
    valid = sum(1 for m in medium_masks if ref.classify(m) is not None)
    assert 0.35 < valid / len(medium_masks) < 0.75
    assert_classify_agrees(medium_masks, flags, tis)


@pytest.mark.parametrize("flags, tis", SETTINGS, ids=SETTING_IDS)
def test_classify_big_masks(flags: int, tis: bool) -> None:
    # Long double sequences (up to 26 cards), their near misses, and random big sets.
    rng = random.Random(14_52)
    masks = mixed_masks(rng, 10_000 * SOAK, 14, 52)
    masks += [rng.getrandbits(52) for _ in range(1000 * SOAK)] + [FULL_DECK]
    assert_classify_agrees(masks, flags, tis)


def test_classify_every_run_shape() -> None:
    # Every window of ranks, one or two cards per rank, fixed suits: all runs and all
    # wrap-arounds in the deck's geometry.
    masks = []
    for per_rank in (1, 2, 3):
        for lo in range(13):
            for length in range(2, 14):
                ranks = [(lo + i) % 13 for i in range(length)]
                masks.append(sum(sum(1 << (4 * r + s) for s in range(per_rank)) for r in ranks))
    for flags, tis in SETTINGS:
        assert_classify_agrees(masks, flags, tis)


def test_classify_rejects_bits_above_51() -> None:
    for bad in (1 << 52, 1 << 63, (1 << 52) | 1):
        with pytest.raises(ValueError):
            core.classify(bad, 0)
        with pytest.raises(ValueError):
            ref.classify(bad)
    with pytest.raises(ValueError):
        core.legal_moves(1 << 52 | 1, 0, 0, False, -1)


def test_is_two_combo_matches_reference(small_masks: list[int]) -> None:
    codes = {}
    for m in small_masks[::7] + [random_valid_combo(random.Random(i)) for i in range(2000)]:
        c = ref.code(m)
        if c:
            codes.setdefault(c, m)
    bad = [
        (c, m)
        for c, m in codes.items()
        if bool(core.is_two_combo(c)) != ref.is_two_combo(m)
    ]
    assert not bad, "\n".join(
        f"is_two_combo({code_str(c)}): core {core.is_two_combo(c)}, reference {ref.is_two_combo(m)}"
        for c, m in bad[:10]
    )


# --------------------------------------------------------------------------------- beats


def random_pile_for(rng: random.Random, play: int) -> int:
    """A pile to test ``play`` against: rich in 2-combos, same shapes, bombs, and leads."""
    r = rng.random()
    if r < 0.10:
        return 0
    if r < 0.45:
        return make_combo(rng, rng.choice([SINGLE, SINGLE, PAIR, TRIPLE]), 0, twos_bias=1.0) or 0
    if r < 0.75:
        kind, n, _ = ref.classify(play)
        size = n if kind <= SEQUENCE else n // 2
        return make_combo(rng, kind, size, twos_bias=0.1) or 0
    return random_valid_combo(rng)


def random_play(rng: random.Random) -> int:
    r = rng.random()
    if r < 0.25:
        return make_combo(rng, QUAD, 4, twos_bias=0.05)
    if r < 0.45:
        return make_combo(rng, DOUBLE_SEQUENCE, rng.choice([3, 4, 5]), twos_bias=0.1)
    if r < 0.65:
        return make_combo(rng, rng.choice([SINGLE, PAIR, TRIPLE]), 0, twos_bias=1.0)
    return random_valid_combo(rng)


@pytest.mark.parametrize("flags, tis", SETTINGS, ids=SETTING_IDS)
def test_beats_random_pairs(flags: int, tis: bool) -> None:
    rng = random.Random(4 + flags)
    pairs: list[tuple[int, int]] = []
    while len(pairs) < 60_000 * SOAK:
        play = random_play(rng)
        pile = random_pile_for(rng, play)
        if ref.classify(play, tis) and (pile == 0 or ref.classify(pile, tis)):
            pairs.append((play, pile))
    play_codes = [ref.code(p, tis) for p, _ in pairs]
    pile_codes = [ref.code(q, tis) for _, q in pairs]
    want = [ref.beats(p, q, tis) for p, q in pairs]
    bombs = sum(1 for (p, q), w in zip(pairs, want) if w and ref.is_two_combo(q) and p.bit_count() > 3)
    assert bombs > 5000 * SOAK  # the sample really exercises R4

    def report(what: str, wrong: list[int], got: list[bool]) -> str:
        return f"{what} disagrees under {flags_str(flags)}:\n" + "\n".join(
            f"  play {ref.describe(pairs[i][0], tis)} (code {play_codes[i]}) on pile "
            f"{ref.describe(pairs[i][1], tis) + f' (code {pile_codes[i]})' if pairs[i][1] else '(empty: lead)'}"
            f": core {got[i]}, reference {want[i]}"
            for i in wrong[:10]
        )

    got = [bool(core.beats(c, q, flags)) for c, q in zip(play_codes, pile_codes)]
    wrong = [i for i in range(len(pairs)) if got[i] != want[i]]
    assert not wrong, report("beats", wrong, got)
    if hasattr(core, "beats_many"):
        batch = np.asarray(
            core.beats_many(np.array(play_codes, dtype=np.uint32), np.array(pile_codes, dtype=np.uint32), flags)
        ).astype(bool).tolist()
        wrong = [i for i in range(len(pairs)) if batch[i] != want[i]]
        assert not wrong, report("beats_many", wrong, batch)


# --------------------------------------------------------------------------- legal moves

# Hand sizes 1..13, weighted towards the small hands the brute force handles quickly.
HAND_SIZES = list(range(1, 14))
HAND_WEIGHTS = [6, 8, 8, 8, 8, 8, 8, 7, 6, 4, 2, 1, 1]


def random_hand(rng: random.Random, size: int) -> int:
    r = rng.random()
    if r < 0.4:
        return random_set(rng, size) if rng.random() < 0.5 else sum(1 << c for c in rng.sample(range(52), size))
    if r < 0.8:
        # A band of ranks ending at the 2s half the time: pairs, runs, quads and 2s.
        width = rng.randint(max(3, (size + 3) // 4), 8)
        lo = 13 - width if rng.random() < 0.5 else rng.randint(0, 13 - width)
        pool = list(range(4 * lo, 4 * (lo + width)))
        return sum(1 << c for c in rng.sample(pool, min(size, len(pool))))
    twos = rng.randint(1, min(4, size))
    rest = rng.sample(range(48), size - twos)
    return sum(1 << c for c in rng.sample(range(48, 52), twos)) | sum(1 << c for c in rest)


def random_situation(rng: random.Random, tis: bool) -> tuple[int, int, bool, int | None]:
    hand = random_hand(rng, rng.choices(HAND_SIZES, HAND_WEIGHTS)[0])
    avail = FULL_DECK & ~hand
    r = rng.random()
    pile = 0
    if r < 0.15:
        pile = 0
    elif r < 0.50:
        pile = make_combo(rng, rng.choice([SINGLE, SINGLE, PAIR, PAIR, TRIPLE]), 0, avail, tis, 1.0) or 0
    elif r < 0.75:
        # A pile shaped like something in the hand, so that following is possible.
        own = list(ref.combos_in(hand, tis))
        kind, n, _ = ref.classify(rng.choice(own), tis)
        pile = make_combo(rng, kind, n if kind <= SEQUENCE else n // 2, avail, tis, 0.2) or 0
    else:
        kind, size = random_kind_size(rng, 1, 13)
        pile = make_combo(rng, kind, size, avail, tis) or 0
    if pile == 0 and r >= 0.15:
        pile = make_combo(rng, SINGLE, 1, avail, tis) or 0
    locked = pile != 0 and rng.random() < (0.4 if ref.is_two_combo(pile) else 0.15)
    must = rng.choice(ref.cards_of(hand)) if rng.random() < 0.2 else None
    return hand, pile, locked, must


def situation_str(hand: int, pile: int, flags: int, tis: bool, locked: bool, must: int | None) -> str:
    return (
        f"hand [{ref.cards_str(hand)}] (mask {hand:#x}), pile "
        f"{ref.describe(pile, tis) + f' code {ref.code(pile, tis)}' if pile else '(empty: lead)'}, "
        f"{flags_str(flags)}, locked_out={locked}, must_include="
        f"{ref.card_str(must) + f' ({must})' if must is not None else '-1'}"
    )


def check_legal_moves(
    hand: int,
    pile: int,
    flags: int,
    tis: bool,
    locked: bool,
    must: int | None,
    reference_moves: Callable[..., set[int]] = ref.legal_moves,
) -> int:
    pile_code = ref.code(pile, tis)
    must_arg = -1 if must is None else must
    arr = core.legal_moves(hand, pile_code, flags, locked, must_arg)
    assert isinstance(arr, np.ndarray) and arr.dtype == np.uint64
    got_list = [int(x) for x in arr.tolist()]
    got = set(got_list)
    want = reference_moves(hand, pile, locked, must, tis)
    where = situation_str(hand, pile, flags, tis, locked, must)
    assert got == want, (
        f"legal_moves disagrees: {where}\n"
        f"  only in core ({len(got - want)}): {moves_str(got - want)}\n"
        f"  only in reference ({len(want - got)}): {moves_str(want - got)}"
    )
    assert len(got_list) == len(got), f"legal_moves has duplicates: {where}"
    keys = []
    for m in got_list:
        kind, n, _ = ref.classify(m, tis)
        keys.append((kind, n, m))
    assert keys == sorted(keys), f"legal_moves is not sorted by (kind, ncards, mask): {where}"
    count = core.count_legal_moves(hand, pile_code, flags, locked, must_arg)
    assert count == len(got_list), f"count_legal_moves {count} != {len(got_list)}: {where}"
    return len(got_list)


@pytest.mark.parametrize("flags, tis", SETTINGS, ids=SETTING_IDS)
def test_legal_moves_random_situations(flags: int, tis: bool) -> None:
    rng = random.Random(10_000 + flags)
    total = 0
    nonempty_follows = 0
    bombs_when_locked = 0
    for _ in range(5_000 * SOAK):
        hand, pile, locked, must = random_situation(rng, tis)
        n = check_legal_moves(hand, pile, flags, tis, locked, must)
        total += n
        nonempty_follows += bool(pile and n)
        bombs_when_locked += bool(locked and n)
    # The generator must keep producing interesting cases, not just empty answers.
    assert nonempty_follows > 1000 * SOAK
    assert bombs_when_locked > 20 * SOAK


@pytest.mark.parametrize("flags, tis", SETTINGS, ids=SETTING_IDS)
def test_legal_moves_big_leads(flags: int, tis: bool) -> None:
    # Hands of 14..26 cards (beyond any real deal) against the rank-by-rank enumeration,
    # itself checked against brute force in test_reference.py.
    rng = random.Random(26 + flags)
    for _ in range(30 * SOAK):
        hand = random_hand(rng, 13) | random_hand(rng, rng.randint(1, 13))
        must = rng.choice(ref.cards_of(hand)) if rng.random() < 0.5 else None
        check_legal_moves(hand, 0, flags, tis, False, must, ref.legal_moves_fast)


@pytest.mark.parametrize("flags, tis", SETTINGS, ids=SETTING_IDS)
def test_batch_legal_moves_match_reference(flags: int, tis: bool) -> None:
    rng = random.Random(20_000 + flags)
    cases = [random_situation(rng, tis) for _ in range(1_000 * SOAK)]
    hands = np.array([h for h, _, _, _ in cases], dtype=np.uint64)
    piles = np.array([ref.code(p, tis) for _, p, _, _ in cases], dtype=np.uint32)
    locked = np.array([lk for _, _, lk, _ in cases], dtype=bool)
    must = np.array([-1 if m is None else m for _, _, _, m in cases], dtype=np.int8)
    offsets, moves = core.legal_moves_many(hands, piles, flags, locked, must)
    counts = core.count_legal_moves_many(hands, piles, flags, locked, must)
    offsets, moves, counts = offsets.tolist(), moves.tolist(), counts.tolist()
    assert len(offsets) == len(cases) + 1
    for i, (hand, pile, lk, m) in enumerate(cases):
        row = moves[offsets[i] : offsets[i + 1]]
        want = ref.legal_moves(hand, pile, lk, m, tis)
        where = situation_str(hand, pile, flags, tis, lk, m)
        assert set(row) == want, (
            f"legal_moves_many row {i} disagrees: {where}\n"
            f"  only in core: {moves_str(set(row) - want)}\n"
            f"  only in reference: {moves_str(want - set(row))}"
        )
        assert len(row) == len(want) == counts[i], f"row {i} has duplicates or a wrong count: {where}"
        assert row == [int(x) for x in core.legal_moves(hand, int(piles[i]), flags, lk, int(must[i]))], (
            f"legal_moves_many row {i} is not in legal_moves() order: {where}"
        )
