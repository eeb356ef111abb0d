"""Seeded, realistic inputs shared by the pytest-benchmark suite and ``compare.py``.

Every generator takes a seed and returns the same data on every run, so two runs (or the
suite and ``compare.py``) time exactly the same work. Inputs come from real deals
(``core.deal``) rather than uniform random ints: a uniformly random 52-bit mask has ~26
cards and is almost never a combination, which would time an early exit nobody hits.
"""

from __future__ import annotations

import random

import numpy as np

from tienlen import core

TWOS = 0xF << 48  # the four 2s, rank 12


def bits(mask: int) -> list[int]:
    return [c for c in range(52) if (mask >> c) & 1]


def dealt_hands(n: int, seed: int = 0) -> list[int]:
    """``n`` random 13-card hands: the four seats of consecutive seeded deals."""
    hands: list[int] = []
    s = seed * 1_000_003
    while len(hands) < n:
        hands.extend(core.deal(s))
        s += 1
    return hands[:n]


def mid_game_hands(n: int, seed: int = 0) -> list[int]:
    """``n`` hands of 4-10 cards: random subsets of dealt hands, as met mid-game."""
    rng = random.Random(seed ^ 0x51D)
    out = []
    for hand in dealt_hands(n, seed + 1):
        out.append(sum(1 << c for c in rng.sample(bits(hand), rng.randint(4, 10))))
    return out


def _weighted_pile(rng: random.Random, moves: list[int]) -> int:
    """A pile drawn from an opponent's legal leads, biased towards 2-combos and bombs
    (the piles where following, and lock-out bombing, are most involved)."""
    twos = [m for m in moves if m & TWOS == m]
    bombs = []
    for m in moves:
        code = core.classify(m)
        kind = core.code_kind(code)
        if kind == core.QUAD or (kind == core.DOUBLE_SEQUENCE and core.code_len(code) <= 10):
            bombs.append(m)
    roll = rng.random()
    if twos and roll < 0.35:
        return rng.choice(twos)
    if bombs and roll < 0.5:
        return rng.choice(bombs)
    return rng.choice(moves)


def following(n: int, seed: int = 0) -> tuple[list[int], list[int]]:
    """``n`` (hand, pile_code) pairs: a 13- or mid-game hand facing a pile played from
    another seat's cards, rich in 2s and bombs."""
    hands, piles, _ = following_with_piles(n, seed)
    return hands, piles


def following_with_piles(n: int, seed: int = 0) -> tuple[list[int], list[int], list[int]]:
    """``following`` plus the pile's cards (a mask disjoint from the hand)."""
    rng = random.Random(seed ^ 0xF011)
    hands, codes, masks = [], [], []
    s = seed * 7_000_001
    while len(hands) < n:
        deal = core.deal(s)
        s += 1
        for seat in range(4):
            hand = deal[seat]
            if rng.random() < 0.5:
                hand = sum(1 << c for c in rng.sample(bits(hand), rng.randint(4, 10)))
            other = deal[(seat + 1 + rng.randrange(3)) % 4]
            leads = [int(m) for m in core.legal_moves(other)]
            pile = _weighted_pile(rng, leads)
            hands.append(hand)
            codes.append(core.classify(pile))
            masks.append(pile)
    return hands[:n], codes[:n], masks[:n]


def locked_on_twos(n: int, seed: int = 0) -> tuple[list[int], list[int]]:
    """``n`` (hand, pile_code) pairs where the pile is a single, pair or triple of 2s that the
    (locked-out) hand may only bomb. Hands get extra pairs so that bombs actually occur."""
    rng = random.Random(seed ^ 0x10CC)
    hands, piles = [], []
    for s in range(n):
        hand = dealt_hands(1, seed * 31 + s + 5)[0] & ~TWOS
        free = [c for c in range(48) if not (hand >> c) & 1]
        # Top up a few ranks so that quads and double sequences show up at a realistic rate
        # for a player holding bombs (most dealt hands hold none).
        for c in rng.sample(free, rng.randint(0, 4)):
            hand |= 1 << c
        nt = rng.choice((1, 1, 2, 3))
        piles.append(core.classify(sum(1 << (48 + suit) for suit in rng.sample(range(4), nt))))
        hands.append(hand)
    return hands, piles


def candidate_plays(n: int, seed: int = 0) -> list[int]:
    """``n`` masks a caller might classify: half real combinations from the legal leads of
    dealt hands, half random 1-8-card subsets of a hand (mostly not combinations)."""
    rng = random.Random(seed ^ 0xCA5E)
    out: list[int] = []
    for hand in dealt_hands(max(1, n // 40 + 1), seed + 2):
        leads = [int(m) for m in core.legal_moves(hand)]
        cards = bits(hand)
        for _ in range(40):
            if rng.random() < 0.5:
                out.append(rng.choice(leads))
            else:
                out.append(sum(1 << c for c in rng.sample(cards, rng.randint(1, 8))))
    rng.shuffle(out)
    return out[:n]


def candidate_plays_array(n: int, seed: int = 0) -> np.ndarray:
    """A large uint64 array of candidate plays (a base block tiled, then shuffled: building
    millions of masks in Python would dominate a quick run)."""
    base = np.array(candidate_plays(min(n, 65_536), seed), dtype=np.uint64)
    reps = -(-n // len(base))
    arr = np.tile(base, reps)[:n]
    np.random.default_rng(seed).shuffle(arr)
    return np.ascontiguousarray(arr)


def beat_pairs(n: int, seed: int = 0) -> tuple[list[int], list[int]]:
    """``n`` (play_code, pile_code) pairs: plays from hands facing 2-rich piles, so the same
    kind/length, other kinds and bombs on 2s all occur."""
    rng = random.Random(seed ^ 0xBEA7)
    hands, piles = following(max(1, n // 8), seed + 3)
    plays, pile_codes = [], []
    while len(plays) < n:
        i = rng.randrange(len(hands))
        leads = core.legal_moves(hands[i])
        plays.append(core.classify(int(leads[rng.randrange(len(leads))])))
        pile_codes.append(piles[i])
    return plays, pile_codes


def as_u64(xs) -> np.ndarray:
    return np.ascontiguousarray(np.asarray(xs, dtype=np.uint64))


def as_u32(xs) -> np.ndarray:
    return np.ascontiguousarray(np.asarray(xs, dtype=np.uint32))
