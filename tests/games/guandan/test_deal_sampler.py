"""L3's deal sampler in the core (issue 35, src/guandan/sampler.pxi,
:class:`tienlen._guandan.DealSampler`) against the deliberately simple Python sampler it
replaced (tests/reference/guandan_sampler.py): the same distribution of deals, checked by
each seat's share of every card face and by how many of each seat's passes its sampled
hands miss (the inference), in positions with tributes, returns, caps and passes on record;
every deal consistent with what the seat knows; each deal the same on any thread; bad input
refused."""

from __future__ import annotations

import math
import random
import threading
from collections import Counter

import pytest

import guandan_sampler as ref
from guandan_positions import mid_hand
from tienlen import _guandan as core
from tienlen.games.guandan.bots import _Knowledge
from tienlen.games.guandan.cards import _masks_of_ids, _wrap

DEALS = 2500


def _shares(hands_list, seat):
    """Mean copies of each (seat, face) over the deals, and each (seat, face)'s variance."""
    n = len(hands_list)
    total: Counter = Counter()
    square: Counter = Counter()
    for hands in hands_list:
        for s, ids in enumerate(hands):
            if s != seat:
                for face, k in Counter(ids).items():
                    total[s, face] += k
                    square[s, face] += k * k
    return ({key: v / n for key, v in total.items()},
            {key: square[key] / n - (total[key] / n) ** 2 for key in total})


def _misses(known, hands_list):
    return {s: sum(p.misses(*_masks_of_ids(h[s])) for h in hands_list) / len(hands_list)
            for s, p in known.passes.items()}


@pytest.mark.parametrize("seed,actions", [(7, 40), (3, 25), (11, 60)])
def test_native_deals_follow_the_reference_distribution(seed, actions):
    game = mid_hand(seed, actions)
    assert game.tributes
    compared = 0
    for seat in range(4):
        view = game.view(seat)
        known = _Knowledge(view, infer=True)
        native = [[list(_wrap(o, t).ids) for o, t in known.sampler.hands(99, k)]
                  for k in range(DEALS)]
        rng = random.Random(seat)
        python = [ref.sample(known, rng) for _ in range(DEALS)]
        (mean_n, var_n), (mean_p, var_p) = _shares(native, seat), _shares(python, seat)
        for key in set(mean_n) | set(mean_p):
            a, b = mean_n.get(key, 0.0), mean_p.get(key, 0.0)
            se = math.sqrt((var_n.get(key, 0.0) + var_p.get(key, 0.0)) / DEALS)
            assert abs(a - b) <= 5 * se + 0.01, (seed, seat, key, a, b)
            compared += 1
        # the inference: the passes the sampled hands miss, on average, agree too
        miss_n, miss_p = _misses(known, native), _misses(known, python)
        for s in known.passes:
            assert abs(miss_n[s] - miss_p[s]) <= 0.08 + 0.1 * miss_p[s], (seed, seat, s)
    assert compared > 300


def test_native_deals_are_consistent_with_what_the_seat_knows():
    game = mid_hand(7, 40)
    played = Counter(c for a in game.history if a.action == "play" for c in a.cards.ids)
    for seat in range(4):
        view = game.view(seat)
        known = _Knowledge(view, infer=True)
        for k in range(300):
            hands = [list(_wrap(o, t).ids) for o, t in known.sampler.hands(k * 31, k)]
            assert tuple(sorted(hands[seat])) == view.hand.ids
            assert [len(h) for h in hands] == list(view.hand_sizes)
            assert sum((Counter(h) for h in hands), played) == Counter({c: 2 for c in range(54)})
            for s in range(4):
                assert not Counter(known.fixed[s]) - Counter(hands[s])     # fixed cards held
                if s in known.cap:
                    assert all(known._capped_ok(c, known.cap[s]) for c in hands[s]
                               if c not in known.fixed[s])


def test_a_deal_is_the_same_on_any_thread_and_in_any_order():
    view = mid_hand(3, 25).view(1)
    known = _Knowledge(view, infer=True)
    ahead = [known.sampler.deal(5, k) for k in range(200)]
    behind = [known.sampler.deal(5, k) for k in reversed(range(200))][::-1]
    other: list = []
    thread = threading.Thread(target=lambda: other.extend(known.sampler.deal(5, k)
                                                          for k in range(200)))
    thread.start()
    thread.join(60)
    assert ahead == behind == other
    assert len({str(d[0]) for d in ahead}) > 190                  # and the deals differ
    assert known.sampler.deal(6, 0) != ahead[0]


def test_the_sampler_refuses_bad_input():
    free = [None] * 4
    good = dict(seat=0, hand=(1 << 4, 0), pool=[0, 8, 12], fixed=[[], [], [], []],
                need=[0, 1, 1, 1], caps=free, passes=free)
    core.DealSampler(**good)
    cases = [
        (dict(seat=4), "seat"),
        (dict(hand=(1 << 60, 0)), "hand"),
        (dict(hand=5), "hand"),
        (dict(pool=[0, 8, 54]), "face is 0..53"),
        (dict(pool=[0, 8]), "need 3 cards and the pool holds 2"),
        (dict(pool=[4, 4, 8], need=[0, 1, 1, 1]), "appears 3 times"),
        (dict(need=[0, 1, 1]), "one entry a seat"),
        (dict(need=[0, -1, 2, 2], pool=[0, 8, 12]), "would hold"),
        (dict(need=[1, 1, 1, 0]), "sampling seat"),
        (dict(fixed=[[], [], [], [99]], need=[0, 1, 1, 0], pool=[0, 8]), "face is 0..53"),
        (dict(passes=[None, "passes", None, None]), "PlanPasses"),
        (dict(caps=[None, 1 << 60, None, None]), "caps"),
        (dict(pool="abc"), "sequences"),
    ]
    for change, match in cases:
        with pytest.raises(ValueError, match=match):
            core.DealSampler(**{**good, **change})
    for keep in (-0.1, 1.5, "x"):
        with pytest.raises(ValueError, match="keep"):
            core.DealSampler(**good, keep=keep)
    with pytest.raises(ValueError, match="tries"):
        core.DealSampler(**good, tries=0)
    sampler = core.DealSampler(**good)
    with pytest.raises(ValueError, match="seed"):
        sampler.hands(-1)
    with pytest.raises(ValueError, match="k"):
        sampler.deal(1, -1)


def test_sample_values_refuses_a_base_unlike_the_sampler():
    view = mid_hand(3, 25).view(2)
    known = _Knowledge(view)
    base = known.template()
    acts = [(0, 0, 0)] if view.pile is not None else [(view.hand.masks[0] & -view.hand.masks[0], 0,
                                                         0)]
    other = _Knowledge(mid_hand(3, 25).view(0))
    with pytest.raises(ValueError, match="samples for seat|to act"):
        core.sample_values(known.sampler, other.template(), acts, 1, 5, view.seat)
    with pytest.raises(ValueError, match="deals"):
        core.sample_values(known.sampler, base, acts, 1, 0, view.seat)
    with pytest.raises(ValueError, match="seconds"):
        core.sample_values(known.sampler, base, acts, 1, 5, view.seat, seconds=-1)
    with pytest.raises(ValueError, match="threads"):
        core.sample_values(known.sampler, base, acts, 1, 5, view.seat, threads=0)
    with pytest.raises(ValueError, match="actions"):
        core.sample_values(known.sampler, base, [], 1, 5, view.seat)
    with pytest.raises(ValueError, match="base must be a GdState"):
        core.sample_values(known.sampler, "base", acts, 1, 5, view.seat)
