"""The Guandan duplicate arena: both hands of a deal use the same cards, teams swap seats."""

from __future__ import annotations

from tienlen.guandan.arena import play_hand, run_duplicate


def test_play_hand_is_seeded():
    lv = ("L2", "L1", "L2", "L1")
    assert play_hand(5, lv, 1) == play_hand(5, lv, 1)
    assert sorted(play_hand(5, lv, 1)) == [0, 1, 2, 3]


def test_duplicate_counts_and_mirror():
    r = run_duplicate("L1", "L1", hands=3, seed=4)
    assert r.hands == 6 and len(r.pair_scores) == 3
    # Identical teams on a swapped deal: the same seats win both times, so team A wins
    # exactly one of the two hands of every deal.
    assert r.pair_scores == [1, 1, 1] and r.win_rate == 0.5 and r.z_score() == 0.0


def test_stronger_team_scores_more():
    r = run_duplicate("L2", "L1", hands=8, seed=3)
    assert r.win_rate > 0.5 and r.mean_place()[0] < 2.5
