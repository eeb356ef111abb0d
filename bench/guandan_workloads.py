"""Seeded Guandan inputs for compare.py and test_bench_guandan.py.

- **Dealt hands**: the four 27-card hands of ``core.deal(seed)``, each at a random level
  2..A (the level decides which cards are wild, so it matters as much as the cards).
- **Following**: the state of a trick anywhere in a hand. The follower holds a random
  sub-multiset of a dealt hand with 5..27 cards (uniform: a hand shrinks from 27 to a few
  cards over its life); the pile is a play the previous seat could lead from its own cards
  (also 5..27 of a dealt hand, at the same level), chosen by first drawing one of the
  readings it can lead (kind, size, rank) uniformly and then one play of that reading, so
  that the rare kinds (plates, bombs, straight flushes) are piles as often as singles.

Everything is a plain tuple of ints; ``as_arrays`` gives the batch API's NumPy form.
"""

from __future__ import annotations

import random

import numpy as np

from tienlen.guandan import core


def _subset(rng: random.Random, once: int, twice: int, size: int) -> tuple[int, int]:
    ids = [i for i in range(54) for _ in range((once >> i & 1) + (twice >> i & 1))]
    o = t = 0
    for i in rng.sample(ids, size):
        if o >> i & 1:
            t |= 1 << i
        else:
            o |= 1 << i
    return o, t


def dealt_hands(n: int, seed: int) -> list[tuple[int, int, int]]:
    """n hands ``(once, twice, level)`` of 27 cards."""
    rng = random.Random(seed)
    out: list[tuple[int, int, int]] = []
    deal_seed = seed * 1_000_003
    while len(out) < n:
        for once, twice in core.deal(deal_seed):
            out.append((once, twice, rng.randint(2, 14)))
        deal_seed += 1
    return out[:n]


def following(n: int, seed: int) -> list[tuple[int, int, int, int]]:
    """n follow situations ``(once, twice, level, pile_code)``."""
    rng = random.Random(seed + 7)
    out: list[tuple[int, int, int, int]] = []
    deal_seed = seed * 1_000_003 + 500_000
    while len(out) < n:
        hands = core.deal(deal_seed)
        deal_seed += 1
        level = rng.randint(2, 14)
        for seat in range(4):
            leader = _subset(rng, *hands[(seat + 3) % 4], rng.randint(5, 27))
            codes = sorted(set(core.legal_plays(*leader, level)[1].tolist()))
            me = _subset(rng, *hands[seat], rng.randint(5, 27))
            out.append((*me, level, rng.choice(codes)))
    return out[:n]


def as_arrays(rows) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
    """``(hands (n, 2) uint64, levels (n,) uint8, pile codes (n,) uint32 or None)``."""
    hands = np.array([(r[0], r[1]) for r in rows], dtype=np.uint64).reshape(len(rows), 2)
    levels = np.array([r[2] for r in rows], dtype=np.uint8)
    piles = np.array([r[3] for r in rows], dtype=np.uint32) if rows and len(rows[0]) > 3 else None
    return hands, levels, piles
