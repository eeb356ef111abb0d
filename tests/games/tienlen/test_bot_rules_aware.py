"""The bots' bomb and cut reasoning reads the game's rule table (issue 13).

Under the contract they must decide exactly as they did when they looked at the kind only:
``tests/data/bot_decisions.json`` holds the decisions the bots (and the L1/L2 hints) made
on 600 seeded positions before the change (``tests/make_bot_decisions.py``), and every one
is replayed here. Under the Southern rules they follow the R11.1 table.
"""

from __future__ import annotations

from paths import DATA

import json
from pathlib import Path

import pytest

from make_bot_decisions import BOT_SEED, LEVELS, decisions, replay

FIXTURE = DATA / "bot_decisions.json"


def _fixture() -> dict[str, object]:
    data: dict[str, object] = json.loads(FIXTURE.read_text(encoding="utf-8"))
    return data


def test_the_fixture_was_made_under_the_contract_with_the_bot_seed() -> None:
    data = _fixture()
    assert data["rules"] == "default" and data["bot_seed"] == BOT_SEED
    positions = data["positions"]
    assert isinstance(positions, list) and len(positions) == 600
    # It exercises the bomb reasoning: the L2 bot bombs in some positions, and passes,
    # blocks and follows in others.
    rules = {p["L2_rule"] for p in positions}
    assert {"bomb", "block", "follow", "lead", "pass"} <= rules


def test_contract_decisions_are_unchanged() -> None:
    differences = []
    for index, position in enumerate(_fixture()["positions"]):  # type: ignore[attr-defined]
        game = replay(position)
        assert game.rules.name == "default"
        now = decisions(game)
        for key in (*LEVELS, "L2_rule", "hint_L1", "hint_L2"):
            if now[key] != position[key]:
                differences.append((index, key, position[key], now[key]))
    assert not differences, differences[:5]


# ---------------------------------------------------------------- the rule table, by hand

from tienlen import _core  # noqa: E402
from tienlen.games.tienlen.bots import GreedyBot, HeuristicBot  # noqa: E402
from tienlen.games.tienlen.bots.base import PASS, cuts, is_bomb  # noqa: E402
from tienlen.games.tienlen.cards import Card, Cards  # noqa: E402
from tienlen.games.tienlen.game import Game  # noqa: E402
from tienlen.games.tienlen.hints import hint  # noqa: E402
from tienlen.games.tienlen.rules import SOUTHERN_CUTS, Rules  # noqa: E402


def code(text: str) -> int:
    return _core.classify(Cards.parse(text).mask)


SINGLE_2, PAIR_2 = code("2h"), code("2s 2c")
QUAD_9, QUAD_5 = code("9s 9c 9d 9h"), code("5s 5c 5d 5h")
DS3 = code("3s 3c 4s 4c 5s 5c")
DS4 = code("3s 3c 4s 4c 5s 5c 6s 6c")
DS5 = code("3s 3c 4s 4c 5s 5c 6s 6c 7s 7c")
DS6 = code("3s 3c 4s 4c 5s 5c 6s 6c 7s 7c 8s 8c")


@pytest.mark.parametrize(("rules", "bombs"), [
    # R4.1: every quad and double sequence (3, 4, 5 pairs) cuts some 2-combo; six pairs
    # are in no table but still held like one.
    (Rules(), {"quad", "ds3", "ds4", "ds5", "ds6"}),
    (Rules.no_twos(), {"quad", "ds3", "ds4", "ds5", "ds6"}),
    # R11.1: five pairs cut nothing in the South, so they are no bomb there.
    (Rules.southern(), {"quad", "ds3", "ds4", "ds6"}),
    # A table that cuts nothing leaves only the long double sequence.
    (Rules(cuts=frozenset()), {"ds6"}),
])
def test_is_bomb_follows_the_rules_table(rules: Rules, bombs: set[str]) -> None:
    plays = {"quad": QUAD_9, "ds3": DS3, "ds4": DS4, "ds5": DS5, "ds6": DS6,
             "pair": code("9s 9c"), "two": SINGLE_2, "triple": code("9s 9c 9d"),
             "run": code("3s 4c 5d 6h")}
    assert {name for name, c in plays.items() if is_bomb(c, rules.flags)} == bombs


def test_cuts_reads_the_table_of_the_rules() -> None:
    south = Rules.southern().flags
    # Contract (R4.1): a quad and three pairs cut a single 2; four pairs a pair of 2s.
    assert cuts(QUAD_9, SINGLE_2) and cuts(DS3, SINGLE_2) and cuts(DS4, PAIR_2)
    assert not cuts(QUAD_9, PAIR_2) and not cuts(DS4, SINGLE_2) and not cuts(QUAD_9, DS3)
    assert not cuts(QUAD_9, QUAD_5)           # same kind: R3.1 beats it, no cut
    # South (R11.1): a quad cuts a 2, a pair of 2s, three pairs and a lower quad; four
    # pairs also cut any quad; three pairs only a single 2.
    assert all(cuts(QUAD_9, pile, south) for pile in (SINGLE_2, PAIR_2, DS3, QUAD_5))
    assert all(cuts(DS4, pile, south) for pile in (SINGLE_2, PAIR_2, DS3, QUAD_9))
    assert cuts(DS3, SINGLE_2, south) and not cuts(DS3, PAIR_2, south)
    assert not cuts(DS3, code("4s 4c 5s 5c 6s 6c"), south)   # three pairs on three pairs
    assert not cuts(code("Ks"), SINGLE_2, south) and not cuts(DS5, SINGLE_2, south)


# ------------------------------------------------------- Southern decisions the old code missed


def _southern_cut(hands: list[str], two: str, cut: str) -> Game:
    """Seat 0 leads the 2-combo ``two``, seat 1 cuts it with ``cut`` (R11.1); seat 2 is to
    act, under the Southern rules."""
    game = Game.from_hands(hands, rules=Rules.southern(), leader=0)
    game.play(two)
    game.play(cut)
    assert game.turn == 2
    return game


def _southern_cut_of_a_two(holder: str) -> Game:
    """A single 2 cut with three pairs; seat 2 holds ``holder``."""
    return _southern_cut(["2s 7h 8h 10h Qh", "3s 3c 4s 4c 5s 5c 8d 10c Ac", holder],
                         "2s", "3s 3c 4s 4c 5s 5c")


def test_greedy_cuts_three_pairs_with_a_quad_in_the_south() -> None:
    # The kind-only bot skipped every bomb off a 2-combo and passed here; by R11.1 the
    # quad cuts the three pairs (chặt chồng), and L1 plays its bombs where they cut.
    game = _southern_cut_of_a_two("9s 9c 9d 9h Jd Kd 3d")
    view = game.view(2)
    assert Cards.parse("9s 9c 9d 9h") in view.legal_moves()
    assert GreedyBot(seed=0).choose(view) == Cards.parse("9s 9c 9d 9h")


def test_greedy_keeps_a_bomb_that_only_beats_the_pile_without_cutting_it() -> None:
    # Higher three pairs beat the pile by R3.1, but the chặt table lists no "three pairs
    # cut three pairs": an ordinary play of a bomb, which L1 does not make.
    game = _southern_cut_of_a_two("6s 6c 7s 7c 8s 8c Jd Kd 3d")
    view = game.view(2)
    assert [str(m) for m in view.legal_moves()] == ["6♠ 6♣ 7♠ 7♣ 8♠ 8♣"]
    assert GreedyBot(seed=0).choose(view) is PASS


def _southern_quad_on_twos() -> Game:
    """A pair of 2s cut with a quad; seat 2 holds four pairs and four singles, and every
    opponent keeps 5 cards or more."""
    return _southern_cut(["2s 2c 3h 4h 10h Jh Qh", "9s 9c 9d 9h Jc Qc Ac 3c 6d",
                          "5s 5c 6s 6c 7s 7c 8s 8c 3d 10d Kh Ad"], "2s 2c", "9s 9c 9d 9h")


def test_heuristic_cuts_a_quad_with_four_pairs_in_the_south() -> None:
    # The kind-only bot bombed only 2-combos, held the four pairs as a control group and
    # passed; by R11.1 four pairs cut any quad, which is the "bomb" rule's case.
    view = _southern_quad_on_twos().view(2)
    decision = HeuristicBot(seed=0).decide(view)
    assert decision.rule == "bomb"
    assert decision.move == Cards.parse("5s 5c 6s 6c 7s 7c 8s 8c")
    assert str(hint(view, "L2")).startswith(
        "Play 5♠ 5♣ 6♠ 6♣ 7♠ 7♣ 8♠ 8♣: a bomb is exactly what cuts their quad")


def test_greedy_leads_five_pairs_where_they_are_no_bomb() -> None:
    # Five pairs hold the lowest card. Under the contract they are a bomb (R4.1), kept:
    # L1 leads the longest other play through 3♠, the 3-7 run. With the Southern table
    # alone (R11.6) they cut nothing (R11.1): an ordinary ten-card play, led at once.
    hands = ["3s 3c 4s 4c 5s 5c 6s 6c 7s 7c Kd", "8d 9d 10d", "Jh Qh Ah"]
    contract = Game.from_hands(hands, leader=0).view(0)
    move = GreedyBot(seed=0).choose(contract)
    assert len(move) == 5 and Card.parse("3s") in move and _core.code_kind(
        _core.classify(move.mask)) == _core.SEQUENCE
    table_only = Game.from_hands(hands, rules=Rules(cuts=SOUTHERN_CUTS), leader=0).view(0)
    assert GreedyBot(seed=0).choose(table_only) == Cards.parse(
        "3s 3c 4s 4c 5s 5c 6s 6c 7s 7c")
