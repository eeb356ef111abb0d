"""The tribute and return choices of L2 and L3 (tienlen.games.guandan.exchange): the card
that goes is the one whose loss leaves the plan's best split of the rest (issue 35)."""

from __future__ import annotations

import pytest

from tienlen.guandan import Cards, Match
from tienlen.games.guandan.bots import EXCHANGES, PlanBot, make_bot
from tienlen.games.guandan.exchange import best_return, best_tribute, split_cost
from tienlen.games.guandan.game import return_candidates, tribute_candidates
from tienlen.games.guandan.rules import RuleConfig


def _cost_without(hand: Cards, card: int, level: int) -> tuple[int, int]:
    return split_cost(hand - Cards([card]), level)


def test_a_straight_keeps_its_low_card_and_a_lone_card_goes_back():
    hand = Cards.parse("3s 4d 5c 6h 7s 7d 9c Kd Kc Kh Ah")
    three, five, nine = (Cards.parse(c).ids[0] for c in ("3s", "5c", "9c"))
    assert best_return(hand, (three, five, nine), 2) == [nine]
    # Bot's rank-count rule returns the lowest lone card, which breaks the straight 3-7
    assert split_cost(hand - Cards([three]), 2) > split_cost(hand - Cards([nine]), 2)


def test_a_bomb_keeps_its_cards():
    hand = Cards.parse("8s 8h 8c 8d 4s 6h Qd Qc")
    eight, four = Cards.parse("8s").ids[0], Cards.parse("4s").ids[0]
    assert best_return(hand, (eight, four), 2) == [four]


@pytest.mark.parametrize("seed", range(12))
def test_the_card_given_or_returned_leaves_the_cheapest_split(seed):
    """Over the tribute steps of real matches, L2's card is allowed and no allowed card
    would have left a cheaper split; the base rule is only ever as good."""
    match = Match(seed=seed)
    bots = [make_bot("L2", seed=s) for s in range(4)]
    steps = 0
    while not match.is_over and match.hand_number < 4:
        seat = match.turn
        view = match.game.view(seat)
        kind, card = bots[seat].decide(view)
        if view.tribute_step is not None:
            pick = tribute_candidates if view.tribute_step == "give" else return_candidates
            allowed = pick(view.hand, view.level, view.config)
            assert card in allowed
            costs = {c: _cost_without(view.hand, c, view.level) for c in allowed}
            assert costs[card] == min(costs.values())
            base = PlanBot(seed=0, exchange="base").decide(view)[1]
            assert costs[base] >= costs[card]
            steps += 1
        match.act(kind, card, seat)
    assert match.hand_number >= 1 and steps >= 0


def test_tribute_steps_do_happen_in_those_matches():
    # the test above is not vacuous: L2's matches pay tribute within four hands
    seen = 0
    for seed in range(12):
        match = Match(seed=seed)
        bots = [make_bot("L2", seed=s) for s in range(4)]
        while not match.is_over and match.hand_number < 4:
            seat = match.turn
            view = match.game.view(seat)
            seen += view.tribute_step is not None
            match.act(*bots[seat].decide(view), seat)
    assert seen >= 10


def test_a_tribute_face_is_one_of_the_highest():
    hand = Cards.parse("As Ah Ac 10h Jh Qh Kh 3s 3d")
    allowed = tribute_candidates(hand, 2, RuleConfig())
    chosen = best_tribute(hand, allowed, 2)
    assert set(chosen) <= set(allowed)
    # A♥ completes the straight flush 10-A of hearts: another ace goes first
    assert chosen[0] != Cards.parse("Ah").ids[0]


def test_the_choice_is_an_option_and_named():
    assert EXCHANGES == ("plan", "base")
    assert make_bot("L2", exchange="base").name == "L2(exchange=base)"
    assert make_bot("L3", exchange="base", iterations=4).name.startswith("L3(")
    with pytest.raises(ValueError, match="exchange must be one of plan, base"):
        make_bot("L2", exchange="best")


def test_the_reason_names_the_plan():
    match = Match(seed=3)
    bots = [make_bot("L2", seed=s) for s in range(4)]
    while match.hand_number < 2 or match.game.view(match.turn).tribute_step is None:
        if match.is_over:
            pytest.skip("no tribute in this match")
        seat = match.turn
        match.act(*bots[seat].decide(match.game.view(seat)), seat)
    view = match.game.view(match.turn)
    why = bots[match.turn].explain(view).reason_in("en")
    assert "plan can spare" in why
