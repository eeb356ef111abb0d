"""Per-call core entry points, each over a block of seeded realistic inputs."""

from __future__ import annotations

from tienlen import core


def _loop1(fn, xs):
    for x in xs:
        fn(x)


def _loop2(fn, xs, ys):
    for x, y in zip(xs, ys):
        fn(x, y)


def test_int_bit_count_baseline(per_item, plays):
    """The yardstick for classify: the cheapest C method call on the same ints."""
    per_item(_loop1, len(plays), int.bit_count, plays)


def test_classify(per_item, plays):
    per_item(_loop1, len(plays), core.classify, plays)


def test_beats(per_item, beat_pairs):
    per_item(_loop2, len(beat_pairs[0]), core.beats, *beat_pairs)


def test_legal_moves_lead_13(per_item, hands13):
    per_item(_loop1, len(hands13), core.legal_moves, hands13)


def test_legal_moves_lead_mid_game(per_item, mid_hands):
    per_item(_loop1, len(mid_hands), core.legal_moves, mid_hands)


def test_legal_moves_lead_must_include(per_item, hands13):
    holders = [h for h in hands13 if h & 1]

    def run():
        for h in holders:
            core.legal_moves(h, 0, 0, False, 0)

    per_item(run, len(holders))


def test_legal_moves_following(per_item, following):
    per_item(_loop2, len(following[0]), core.legal_moves, *following)


def test_legal_moves_locked_out_on_twos(per_item, locked):
    hands, piles = locked

    def run():
        for h, p in zip(hands, piles):
            core.legal_moves(h, p, 0, True)

    per_item(run, len(hands))


def test_count_legal_moves_lead_13(per_item, hands13):
    per_item(_loop1, len(hands13), core.count_legal_moves, hands13)


def test_count_legal_moves_following(per_item, following):
    per_item(_loop2, len(following[0]), core.count_legal_moves, *following)


def test_deal(per_item):
    seeds = list(range(1000))
    per_item(_loop1, len(seeds), core.deal, seeds)
