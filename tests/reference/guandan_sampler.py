"""The deliberately simple Python sampler of Guandan deals that L3's native one
(src/guandan/sampler.pxi, :class:`tienlen._guandan.DealSampler`) is checked against: the
same steps, written plainly over lists of card ids, reading only what
:class:`tienlen.games.guandan.bots._Knowledge` knows (the pool of unseen cards, each seat's
fixed cards, its count, its cap, its passes). It was L3's own sampler until issue 35 moved
the sampling into the core; tests/games/guandan/test_deal_sampler.py compares the two
distributions.
"""

from __future__ import annotations

import random
from collections import Counter

from tienlen.games.guandan.bots import INFER_KEEP, INFER_TRIES, _Knowledge
from tienlen.games.guandan.cards import _masks_of_ids


def sample(known: _Knowledge, rng: random.Random) -> list[list[int]]:
    """Card ids for every seat: step 1 (a deal consistent with the cards seen and the caps),
    then, with passes on record, step 2 (the uncapped seats dealt again, likely given them)."""
    hands = draw(known, rng)
    if known.passes:
        infer(known, hands, rng)
    return hands


def draw(known: _Knowledge, rng: random.Random) -> list[list[int]]:
    view = known.view
    pool = list(known.pool)
    rng.shuffle(pool)
    hands: list[list[int]] = [list(known.fixed[s].elements()) for s in range(4)]
    hands[view.seat] = list(view.hand.ids)
    # capped seats first, from the cards they may hold; if the caps cannot be met, deal
    # without them
    order = sorted((s for s in range(4) if s != view.seat), key=lambda s: s not in known.cap)
    rest = pool
    taken: list[list[int]] = [[] for _ in range(4)]
    ok = True
    for s in order:
        if s in known.cap:
            fits = [c for c in rest if known._capped_ok(c, known.cap[s])]
            if len(fits) < known.need[s]:
                ok = False
                break
            taken[s] = fits[:known.need[s]]
            rest = list((Counter(rest) - Counter(taken[s])).elements())
            rng.shuffle(rest)
        else:
            taken[s] = rest[:known.need[s]]
            rest = rest[known.need[s]:]
    if not ok:
        pos = 0
        for s in range(4):
            if s != view.seat:
                taken[s] = pool[pos:pos + known.need[s]]
                pos += known.need[s]
    for s in range(4):
        if s != view.seat:
            hands[s].extend(taken[s])
    return hands


def infer(known: _Knowledge, hands: list[list[int]], rng: random.Random) -> None:
    seat = known.view.seat
    free = [s for s in range(4) if s != seat and known.need[s] and s not in known.cap]
    if len(free) < 2:
        return
    free.sort(key=lambda s: -len(known.passes.get(s, ())))
    fixed = {s: list(known.fixed[s].elements()) for s in free}
    rest = [c for s in free for c in hands[s][len(fixed[s]):]]
    last = free[-1]
    for s in free[:-1]:
        need = known.need[s]
        # the seat before the last also answers for the last seat's passes
        judged = [(s, known.passes.get(s))] + ([(last, known.passes.get(last))]
                                               if s == free[-2] else [])
        mine, fewest = rng.sample(rest, need), -1
        if any(p is not None for _, p in judged):
            for _ in range(INFER_TRIES):
                rng.shuffle(rest)
                misses = sum(p.misses(*_masks_of_ids(fixed[t] + (rest[:need] if t == s else
                                                                 rest[need:])))
                             for t, p in judged if p is not None)
                if fewest < 0 or misses < fewest:
                    mine, fewest = rest[:need], misses
                if misses == 0 or rng.random() < INFER_KEEP ** misses:
                    mine = rest[:need]
                    break
        hands[s] = fixed[s] + mine
        left = Counter(rest)
        left.subtract(mine)
        rest = list(left.elements())
    hands[last] = fixed[last] + rest
