"""tienlen.games.tienlen.bots.split is a thin wrapper of the core's split (core.plan, core.split_score,
core.is_control_group): the expectations here are worked out by hand from the scoring rule
(16 per group, plus 1 per single below a 2), not read from the code. The brute-force
fewest-groups check against tests/reference.py lives with the reference tests."""

from __future__ import annotations

import random

import pytest

from tienlen import _core, core
from tienlen.games.tienlen.bots import split
from tienlen.games.tienlen.bots.base import is_unbeatable
from tienlen.games.tienlen.cards import Cards
from tienlen.games.tienlen.rules import Rules

import reference_split


def m(text: str) -> int:
    return Cards.parse(text).mask


def test_split_score_by_hand() -> None:
    # 3-4-5 run (16) + pair of 9s (16); no low singles.
    assert split.split_score(m("3s 4c 5d 9s 9c")) == 32
    # Three low singles: 3 * 17; a lone 2 adds no tie-break point: 16.
    assert split.split_score(m("3s 5c 7d")) == 51
    assert split.split_score(m("2h")) == 16
    assert split.split_score(0) == 0
    # Q-K-A-2 is one run under the contract, two groups without 2s in sequences
    # (Q-K-A run 16, the 2 alone 16).
    assert split.split_score(m("Qs Kc Ad 2h")) == 16
    assert split.split_score(m("Qs Kc Ad 2h"), Rules.no_twos().flags) == 32


def test_move_damage_by_hand() -> None:
    hand = m("3s 4c 5d 9s 9c")                 # best split: run + pair = 32
    # Playing 4♣ leaves 3♠ 5♦ 9♠ 9♣ = 17 + 17 + 16 = 50, plus 17 for the single itself.
    assert split.move_damage(hand, m("4c")) == 50 + 17 - 32
    assert split.move_damage(hand, m("9s 9c")) == 0
    assert split.move_damage(hand, m("3s 4c 5d")) == 0


def test_group_score_of_combinations() -> None:
    assert split.group_score(m("9s")) == 17
    assert split.group_score(m("2s")) == 16
    assert split.group_score(m("9s 9c 9d")) == 16
    assert split.group_score(m("3s 3c 4d 4h 5s 5c")) == 16


@pytest.mark.parametrize(("text", "want"), [
    ("2s", True),                      # holds a 2
    ("2s 2h", True),
    ("Qs Kc Ad 2h", True),              # a run ending in a 2 holds one
    ("9s 9c 9d 9h", True),              # a quad is a bomb
    ("3s 3c 4d 4h 5s 5c", True),        # a double sequence is a bomb
    ("Ks Kh", False),
    ("Js Qs Ks", False),
    ("As", False),
])
def test_is_control(text: str, want: bool) -> None:
    assert split.is_control(m(text)) is want


def test_split_masks_are_a_weakest_first_plan() -> None:
    hand = m("3s 4c 5d 5h 9s 9c Kd 2h")
    groups = split.split_masks(hand)
    assert [str(Cards(g)) for g in groups] == ["3♠ 4♣ 5♦", "5♥", "9♠ 9♣", "K♦", "2♥"]
    assert sum(groups) == hand
    assert split.split_count(hand) == 5
    assert [str(g.cards) for g in split.split_hand(Cards(hand)).groups] == [
        "3♠ 4♣ 5♦", "5♥", "9♠ 9♣", "K♦", "2♥"]


def test_is_unbeatable() -> None:
    unseen = m("3c 4d 5h 8h Ks Kc")
    assert is_unbeatable(m("9s"), unseen) is False          # K♠ or K♣ beats it
    assert is_unbeatable(m("Ah"), unseen) is True
    assert is_unbeatable(m("9s 9c"), unseen) is False       # the pair of Ks beats it
    assert is_unbeatable(m("As Ah"), unseen) is True
    assert is_unbeatable(m("6s 7s 8s"), unseen) is True     # no run of three unseen


@pytest.mark.parametrize("bad", [True, -1, 1 << 52, 1.0, "3s"])
def test_core_split_refuses_bad_hands(bad: object) -> None:
    with pytest.raises(ValueError):
        _core.split_score(bad)  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        _core.is_control_group(bad)  # type: ignore[arg-type]


def test_playouts_is_the_new_name_of_random_playouts() -> None:
    assert core.playouts is core.random_playouts
    assert core.playouts_range is core.random_playouts_range
    games = core.playouts(4, 3, seed=5, policy=core.GREEDY)
    assert games.shape == (4, 3) and sorted(games[0].tolist()) == [0, 1, 2]


def test_no_second_split_search_in_python() -> None:
    # The wrapper must not grow its own search again: no memoised helpers, no rank keys.
    assert not hasattr(split, "_best") and not hasattr(split, "_rank_key")


@pytest.mark.parametrize("flags", [0, Rules.no_twos().flags, Rules.southern().flags],
                         ids=["default", "no-twos", "southern"])
def test_core_split_equals_the_tests_own_search(flags: int) -> None:
    # tests/reference_split.py shares no code with the core: same score, same groups (as
    # sets: the core orders them weakest first, the search by lowest rank).
    rng = random.Random(31 + (flags & 0xFF))
    for _ in range(3000):
        hand = sum(1 << c for c in rng.sample(range(52), rng.choice([1, 4, 7, 10, 13, 13, 20])))
        assert split.split_score(hand, flags) == reference_split.split_score(hand, flags)
        assert sorted(split.split_masks(hand, flags)) == sorted(
            reference_split.split_masks(hand, flags)), hex(hand)
        assert split.move_damage(hand, hand & -hand, flags) == (
            reference_split.split_score(hand & ~(hand & -hand), flags)
            + reference_split.split_score(hand & -hand, flags)
            - reference_split.split_score(hand, flags))
