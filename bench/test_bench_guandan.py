"""The Guandan core (tienlen.games.guandan.core), over blocks of seeded inputs (guandan_workloads.py).

``per_item_ns`` in extra_info is per hand / per call, except the ``_per_play`` benchmarks,
whose items are generated plays (the goal of issue 12: <= 15 ns per play for leads).
"""

from __future__ import annotations

import pytest

import guandan_workloads as gw

gd = pytest.importorskip("tienlen.games.guandan.core")

LEADS = 250
FOLLOWS = 1000


@pytest.fixture(scope="module")
def leads(seed):
    return gw.dealt_hands(LEADS, seed)


@pytest.fixture(scope="module")
def lead_arrays(leads):
    hands, levels, _ = gw.as_arrays(leads)
    return hands, levels


@pytest.fixture(scope="module")
def lead_plays(lead_arrays):
    return int(gd.count_legal_plays_many(*lead_arrays).sum())


@pytest.fixture(scope="module")
def follows(seed):
    return gw.following(FOLLOWS, seed)


def _lead_loop(fn, rows):
    for once, twice, level in rows:
        fn(once, twice, level)


def _follow_loop(fn, rows):
    for once, twice, level, pile in rows:
        fn(once, twice, level, pile)


def test_guandan_legal_plays_lead_per_play(per_item, leads, lead_plays):
    per_item(_lead_loop, lead_plays, gd.legal_plays, leads)


def test_guandan_count_legal_plays_lead(per_item, leads):
    per_item(_lead_loop, len(leads), gd.count_legal_plays, leads)


def test_guandan_legal_plays_many_lead_per_play(per_item, lead_arrays, lead_plays):
    per_item(gd.legal_plays_many, lead_plays, *lead_arrays)


def test_guandan_count_legal_plays_many_lead(per_item, lead_arrays):
    per_item(gd.count_legal_plays_many, len(lead_arrays[0]), *lead_arrays)


def test_guandan_legal_plays_following(per_item, follows):
    per_item(_follow_loop, len(follows), gd.legal_plays, follows)


def test_guandan_count_legal_plays_following(per_item, follows):
    per_item(_follow_loop, len(follows), gd.count_legal_plays, follows)


def test_guandan_classify(per_item, leads):
    # Every reading of each lead's first 1..10 cards: mostly non-plays, as a checker sees.
    rows = []
    for once, twice, level in leads:
        ids = [i for i in range(54) for _ in range((once >> i & 1) + (twice >> i & 1))]
        for n in range(1, 11):
            o = t = 0
            for i in ids[:n]:
                if o >> i & 1:
                    t |= 1 << i
                else:
                    o |= 1 << i
            rows.append((o, t, level))
    per_item(_lead_loop, len(rows), gd.classify, rows)


def test_guandan_deal(per_item):
    def run():
        for s in range(1000):
            gd.deal(s)

    per_item(run, 1000)



def test_guandan_random_playouts(per_item):
    """Random playouts of a dealt hand; items are decisions (plays and passes)."""
    s = gd.GdState(gd.deal(1), 2, 0)
    per_item(lambda: s.playouts(0, 200, gd.RANDOM), s.playouts(0, 200, gd.RANDOM)[1])


def test_guandan_plan_playouts(per_item):
    """Every seat by the plan policy (L2's, and L3's playouts); items are decisions."""
    s = gd.GdState(gd.deal(1), 2, 0)
    per_item(lambda: s.playouts(0, 200, gd.PLAN), s.playouts(0, 200, gd.PLAN)[1])
