"""The level race's values (tienlen.games.guandan.race) and L3's scoring by them (issue 35)."""

from __future__ import annotations

import numpy as np
import pytest

from tienlen.games.guandan.bots import SearchBot, score_outcomes
from tienlen.games.guandan.race import hand_scores, match_equity, outcome_values
from tienlen.games.guandan.rules import RuleConfig
from tienlen.games.guandan.view import Standing

S = RuleConfig()


def test_the_equity_is_a_chance_and_the_same_seen_from_either_side() -> None:
    e = match_equity()
    assert e.shape == (13, 13, 2, 3, 3)
    assert float(e.min()) > 0 and float(e.max()) < 1
    swapped = e.transpose(1, 0, 2, 4, 3)[:, :, ::-1]          # their side of every state
    assert np.allclose(e + swapped, 1.0)
    assert abs(float(e[0, 0, 0, 0, 0]) - 0.5) < 1e-9             # the start is even
    assert float(e[12, 5, 0, 0, 0]) > float(e[12, 5, 1, 0, 0])   # declaring at our A helps
    assert float(e[12, 12, 0, 2, 0]) < float(e[12, 12, 0, 0, 0])  # a last attempt is worth less


def test_no_limit_on_failed_attempts_keeps_one_slot() -> None:
    e = match_equity(3, 0)
    assert e.shape == (13, 13, 2, 1, 1)
    v = outcome_values(Standing((14, 9), 0, 5, (7, 0)), 0, RuleConfig(failed_attempts_limit=0))
    assert v[3] == v[2] == 1.0 and 0 < v[1] < 1


def test_at_our_ace_first_and_second_or_third_win_the_match_first_and_fourth_does_not() -> None:
    v = outcome_values(Standing((14, 9), 0, 12), 0, S)
    assert v[3] == v[2] == 1.0
    assert 0 < v[1] < 1 and v[-1] < v[1]
    # seen from the other team of the same table
    w = outcome_values(Standing((14, 9), 0, 12), 1, S)
    assert w[-3] == w[-2] == 0.0 and w[-1] == pytest.approx(1 - v[1])


def test_only_the_declarers_ace_counts() -> None:
    v = outcome_values(Standing((14, 9), 1, 12), 0, S)     # at A, but they declare
    assert max(v.values()) < 1.0 and min(v.values()) > 0.0
    assert v[3] == v[2] == v[1]                           # a win only makes us declare


def test_every_outcome_value_is_ordered_by_the_levels() -> None:
    # monotone in the hand's levels: so the endgame solver's best play by levels is also
    # its best by these values
    for ours in range(2, 15):
        for theirs in range(2, 15):
            for declarer in (0, 1):
                for failed in ((0, 0), (2, 1)):
                    v = outcome_values(Standing((ours, theirs), declarer, 3, failed), 0, S)
                    xs = [v[k] for k in (-3, -2, -1, 1, 2, 3)]
                    assert all(a <= b + 1e-12 for a, b in zip(xs, xs[1:]))


def test_hand_scores_alone_are_levels_and_a_first_hand_about_them() -> None:
    assert hand_scores(None, 0, S, 2.0) == {3: 5.0, 2: 4.0, 1: 3.0, -1: -3.0, -2: -4.0, -3: -5.0}
    first = hand_scores(Standing((2, 2), None, 0), 0, S, 0.0)
    for k, v in first.items():
        assert v == pytest.approx(k, abs=0.1)
    at_ace = hand_scores(Standing((14, 9), 0, 12), 0, S, 0.0)
    assert at_ace[2] - at_ace[1] > 10                        # many levels' worth


def test_score_outcomes_maps_each_deal() -> None:
    rows = np.array([[3.0, -1.0, 1.0], [-3.0, 2.0, -2.0]])
    scores = {3: 30.0, 2: 20.0, 1: 10.0, -1: -1.0, -2: -2.0, -3: -3.0}
    assert score_outcomes(rows, scores).tolist() == [[30.0, -1.0, 10.0], [-3.0, 20.0, -2.0]]


def test_the_race_option() -> None:
    assert SearchBot(seed=1, iterations=4).race
    assert SearchBot(seed=1, iterations=4, race=False).name == "L3(iterations=4, race=off)"
    with pytest.raises(ValueError, match="race must be True or False"):
        SearchBot(seed=1, iterations=4, race="yes")  # type: ignore[arg-type]


def test_l3_plays_a_match_with_the_race_on() -> None:
    from tienlen.games.guandan.match import Match

    match = Match(seed=5, max_hands=2)
    bots = [SearchBot(seed=s, iterations=3) for s in range(4)]
    while not match.is_over:
        seat = match.turn
        assert seat is not None
        match.act(*bots[seat].decide(match.game.view(seat)), seat=seat)
    assert len(match.results) == 2
