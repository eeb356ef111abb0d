"""Scenario tests for RULES.md R11, the Southern rules (``Rules.southern()``), and R11.6,
each field of ``Rules`` alone, through the public API (``Game``, its legal moves, its
refusals).

Every expected value is reasoned by hand from the clause it names; the comments give the
reasoning. Hands are fixed (``Game.from_hands``) except for R11.3, which is about deals:
there the seeds were picked because their hands show the shape under test, and each test
checks that shape in the cards before relying on it. R11.5 (penalties) is scored by
``Match``; its tests live beside the scoring code, only the clause's numbers are checked here.
"""

from __future__ import annotations

from paths import REPO

import re
from pathlib import Path

import pytest

from tienlen import Cards, Game, Rules
from tienlen.games.tienlen.refusals import IllegalMoveError
from tienlen.games.tienlen.rules import CONTRACT_CUTS, Penalties

SOUTH = Rules.southern()
REPO = REPO

QUAD_9 = "9s 9c 9d 9h"
QUAD_3 = "3s 3c 3d 3h"
QUAD_J = "Js Jc Jd Jh"
DS3_HIGH = "Qs Qc Ks Kc As Ac"          # Q-K-A pairs: a 3-pair double sequence
DS4_LOW = "5s 5c 6s 6c 7s 7c 8s 8c"     # 5-8 pairs: a 4-pair double sequence
DS4_HIGH = "10d 10h Jd Jh Qd Qh Kd Kh"
DS5 = "3d 3h 4d 4h 5d 5h 6d 6h 7d 7h"


def C(text: str) -> Cards:
    return Cards.parse(text)


def legal(game: Game) -> set[Cards]:
    return set(game.legal_moves())


def refuses(game: Game, cards: str) -> None:
    before = game.snapshot()
    with pytest.raises(IllegalMoveError):
        game.play(cards)
    assert game.snapshot() == before


# --------------------------------------------------------------------- R11.1 chặt


def test_R11_1_a_quad_cuts_a_pair_of_twos_in_the_south_only() -> None:
    hands = ["2s 2h 5d", QUAD_9 + " 6c"]
    south = Game.from_hands(hands, rules=SOUTH, leader=0)
    south.play("2s 2h")
    assert south.can_play(QUAD_9) and C(QUAD_9) in legal(south)
    contract = Game.from_hands(hands, leader=0)
    contract.play("2s 2h")
    assert not contract.can_play(QUAD_9)  # R4.1: a quad cuts only a single 2


def test_R11_1_a_three_pair_run_cuts_a_single_two_only() -> None:
    hands = ["2s 2h 4d", DS3_HIGH + " 6c"]
    game = Game.from_hands(hands, rules=SOUTH, leader=0)
    game.play("2s 2h")
    assert not game.can_play(DS3_HIGH)
    game = Game.from_hands(["2h 4d", DS3_HIGH + " 6c"], rules=SOUTH, leader=0)
    game.play("2h")
    assert game.can_play(DS3_HIGH)


def test_R11_1_a_quad_cuts_a_three_pair_run_whatever_the_tops() -> None:
    # Quad of 3s (the lowest) on Q-K-A pairs (top A♣): cut by the table, not by rank.
    game = Game.from_hands([DS3_HIGH + " 4d", QUAD_3 + " 6c"], rules=SOUTH, leader=0)
    game.play(DS3_HIGH)
    assert game.can_play(QUAD_3)
    contract = Game.from_hands([DS3_HIGH + " 4d", QUAD_3 + " 6c"], leader=0)
    contract.play(DS3_HIGH)
    assert not contract.can_play(QUAD_3)  # R4.2


def test_R11_1_a_four_pair_run_cuts_a_quad_of_twos() -> None:
    game = Game.from_hands(["2s 2c 2d 2h 4d", DS4_LOW + " 3c"], rules=SOUTH, leader=0)
    game.play("2s 2c 2d 2h")
    assert legal(game) == {C(DS4_LOW)}


def test_R11_1_four_pairs_cut_lower_four_pairs_and_not_higher() -> None:
    game = Game.from_hands([DS4_HIGH + " 4d", DS4_LOW + " 3c"], rules=SOUTH, leader=0)
    game.play(DS4_HIGH)
    assert legal(game) == set()
    game = Game.from_hands([DS4_LOW + " 4d", DS4_HIGH + " 3c"], rules=SOUTH, leader=0)
    game.play(DS4_LOW)
    assert legal(game) == {C(DS4_HIGH)}


def test_R11_1_nothing_cuts_a_triple_of_twos_in_the_south() -> None:
    # The contract's 5-pair row is gone; the quad and the 4-pair run have no triple row.
    hand = DS5 + " " + QUAD_9   # also holds 3-pair and 4-pair runs
    south = Game.from_hands(["2s 2c 2d 8h", hand], rules=SOUTH, leader=0)
    south.play("2s 2c 2d")
    assert legal(south) == set()
    contract = Game.from_hands(["2s 2c 2d 8h", hand], leader=0)
    contract.play("2s 2c 2d")
    assert legal(contract) == {C(DS5)}


def test_R11_1_cutting_a_cut() -> None:
    # 2♥ is cut by a 3-pair run, which a quad cuts, which a 4-pair run cuts (chặt chồng).
    game = Game.from_hands(["2h 4d", DS3_HIGH + " 3c", QUAD_9 + " 3d", DS4_LOW + " 3h"],
                           rules=SOUTH, leader=0)
    game.play("2h")
    game.play(DS3_HIGH)
    assert game.turn == 2 and game.can_play(QUAD_9)
    game.play(QUAD_9)
    assert game.turn == 3 and game.can_play(DS4_LOW)
    game.play(DS4_LOW)
    assert game.pile is not None and game.pile.cards == C(DS4_LOW) and game.pile_owner == 3


def test_R11_1_a_five_pair_run_is_no_cut() -> None:
    # On 2♥ the 3-pair runs (3-5, 4-6, 5-7) and 4-pair runs (3-6, 4-7) inside the 5-pair run
    # cut; the 5-pair run itself does not.
    game = Game.from_hands(["2h 4s", DS5 + " 8c"], rules=SOUTH, leader=0)
    game.play("2h")
    assert C(DS5) not in legal(game)
    assert sorted(len(m) for m in legal(game)) == [6, 6, 6, 8, 8]


# ------------------------------------------------------------------ R11.2 out of turn


def locked_on_a_two(hand1: str, rules: Rules = SOUTH) -> Game:
    """Seat 0 leads 3♠, seat 1 passes (locked out), seat 2 plays 2♥, seat 0 passes: the
    turn comes to seat 1, locked out, with a single 2 on the pile (if the rules give it)."""
    game = Game.from_hands(["3s 8h Ks", hand1, "2h 4c 10d"], rules=rules, leader=0)
    game.play("3s")
    game.pass_turn()
    game.play("2h")
    game.pass_turn()
    return game


def test_R11_2_a_locked_out_player_may_cut_with_four_pairs_only() -> None:
    game = locked_on_a_two(DS4_LOW + " " + QUAD_J + " Ac")
    assert game.turn == 1 and game.locked_seats == {0, 1}
    # In turn a quad and both 3-pair runs inside the 4-pair run would cut 2♥ too; out of
    # turn only the 4-pair run may.
    assert legal(game) == {C(DS4_LOW)}
    assert game.can_pass()
    refuses(game, QUAD_J)
    refuses(game, "5s 5c 6s 6c 7s 7c")
    game.play(DS4_LOW)
    assert game.locked_seats == {0, 1}  # R5.4: cutting unlocks no one


def test_R11_2_the_contract_lets_every_bomb_out_of_turn() -> None:
    game = locked_on_a_two(DS4_LOW + " " + QUAD_J + " Ac", rules=Rules())
    assert game.turn == 1
    # R4.1: a quad and a 3-pair run cut a single 2; a 4-pair run only cuts a pair of 2s.
    assert legal(game) == {C(QUAD_J), C("5s 5c 6s 6c 7s 7c"), C("6s 6c 7s 7c 8s 8c")}


def test_R11_2_a_locked_out_player_gets_the_turn_on_a_quad_without_a_bomb() -> None:
    # Seat 0 leads 2♠, seat 1 passes, seat 2 cuts with a quad, seat 0 passes. The pile is a
    # quad, which a 4-pair run cuts: seat 1 (locked out, no bomb) still gets the turn, so
    # the turn order reveals nothing about the hands. Under the contract seat 1 is skipped
    # and the pile clears at seat 2 (R5.3, R6.1).
    hands = ["2s 5d", "4c 6h 10s", QUAD_9 + " 7h"]
    south = Game.from_hands(hands, rules=SOUTH, leader=0)
    contract = Game.from_hands(hands, leader=0)
    for game in (south, contract):
        game.play("2s")
        game.pass_turn()
        game.play(QUAD_9)
        game.pass_turn()
    assert south.turn == 1 and legal(south) == set() and south.can_pass()
    south.pass_turn()
    assert south.turn == 2 and south.pile is None  # the owner's seat: the pile clears
    assert contract.turn == 2 and contract.pile is None


@pytest.mark.parametrize("lead, follow, turn", [
    ("4s 4c 4h", "2s 2c 2d", 2),   # nothing cuts a triple of 2s: seat 1 skipped, pile clears
    ("9s 9c", "Js Jc", 2),         # a plain pair: skipped
    ("9s 9c", "2s 2c", 1),         # a pair of 2s, which a 4-pair run cuts: seat 1's turn
])
def test_R11_2_locked_out_players_get_the_turn_only_where_four_pairs_cut(
        lead: str, follow: str, turn: int) -> None:
    # Seat 0 leads, seat 1 passes (locked out), seat 2 beats the lead, seat 0 passes: the
    # next seat is locked-out seat 1, then the owner, seat 2.
    hands = ["4s 4c 4h 9s 9c 3d", DS4_HIGH + " 3c", "2s 2c 2d Js Jc 6h"]
    game = Game.from_hands(hands, rules=SOUTH, leader=0)
    game.play(lead)
    game.pass_turn()
    game.play(follow)
    game.pass_turn()
    assert game.turn == turn
    assert (game.pile is None) == (turn == 2)


def test_R11_2_four_pairs_on_a_lower_four_pairs_out_of_turn() -> None:
    # Seat 0 leads 2♠, seat 1 passes, seat 2 cuts with 4-pair run 5-8; seat 0 passes; seat 1
    # (locked out) holds 10-K pairs, which cut a lower 4-pair run by the table: allowed.
    game = Game.from_hands(["2s 4d", DS4_HIGH + " 3c", DS4_LOW + " 3h"], rules=SOUTH, leader=0)
    game.play("2s")
    game.pass_turn()
    game.play(DS4_LOW)
    game.pass_turn()
    assert game.turn == 1 and legal(game) == {C(DS4_HIGH)}


# ------------------------------------------------------------------ R11.3 instant wins


def hand_has(game: Game, seat: int, cards: str) -> bool:
    return C(cards).mask & ~game.hands[seat].mask == 0


def test_R11_3_four_twos_win_at_once() -> None:
    # Seed 60, four players: seat 0 holds all four 2s; seat 1 holds 3♠ (R7.2: it leads).
    plain = Game(4, seed=60)
    assert hand_has(plain, 0, "2s 2c 2d 2h") and hand_has(plain, 1, "3s")
    assert plain.instant_win is None and not plain.is_over  # the contract: no instant wins
    game = Game(4, seed=60, rules=SOUTH)
    assert game.instant_win == (0, "four_twos")
    assert game.is_over and game.turn is None and game.finished[0] == 0
    assert not game.legal_moves() and not game.can_pass()


def test_R11_3_a_dragon_wins_at_once() -> None:
    # Seed 311: seat 0 holds 3♣ 4♥ 5♦ 6♣ 7♣ 8♠ 9♦ 10♦ J♠ Q♣ K♠ A♦ 2♣, one of each rank.
    game = Game(4, seed=311, rules=SOUTH)
    assert game.hands[0] == C("3c 4h 5d 6c 7c 8s 9d 10d Js Qc Ks Ad 2c")
    assert game.instant_win == (0, "dragon") and game.is_over


def test_R11_3_six_pairs_win_at_once() -> None:
    # Seed 112: seat 3 holds pairs of 6, 8, 10, Q, K and 2; seat 0 leads (3♠).
    game = Game(4, seed=112, rules=SOUTH)
    assert hand_has(game, 3, "6s 6d 8d 8h 10d 10h Qs Qh Ks Kc 2c 2d")
    assert game.instant_win == (3, "six_pairs") and game.is_over


def test_R11_3_five_consecutive_pairs_win_at_once() -> None:
    # Seed 1347: seat 0 holds pairs of 9, 10, J, Q, K (and only five pairs).
    game = Game(4, seed=1347, rules=SOUTH)
    assert game.hands[0] == C("3s 6d 7h 9c 9h 10s 10c Js Jc Qd Qh Ks Kd")
    assert game.instant_win == (0, "five_pairs") and game.is_over


def test_R11_3_several_instant_wins_first_in_turn_order_from_the_leader() -> None:
    # Seed 2060: seat 1 holds four 2s, seat 2 six pairs (4 5 7 8 9 10); seat 0 holds 3♠.
    game = Game(4, seed=2060, rules=SOUTH)
    assert hand_has(game, 1, "2s 2c 2d 2h") and hand_has(game, 0, "3s")
    assert hand_has(game, 2, "4s 4d 5s 5h 7d 7h 8d 8h 9c 9d 10s 10c")
    # From seat 0: 0 (nothing), then 1.
    assert game.instant_win == (1, "four_twos")
    # A later hand of a match led by seat 2 (R7.3): seat 2 comes first.
    game = Game(4, seed=2060, rules=SOUTH, leader=2)
    assert game.instant_win == (2, "six_pairs")
    game = Game(4, seed=2060, rules=SOUTH, leader=3)   # 3, 0, then 1
    assert game.instant_win == (1, "four_twos")


def test_R11_3_given_hands_are_not_deals() -> None:
    game = Game.from_hands(["2s 2c 2d 2h 3s", "4s 5s"], rules=SOUTH)
    assert game.instant_win is None and not game.is_over and game.turn == 0


def test_R11_3_each_instant_win_is_a_field() -> None:
    # Seed 60 (four 2s in seat 0): only a ruleset with "four_twos" ends the hand.
    assert Game(4, seed=60, rules=Rules(instant_wins={"four_twos"})).instant_win == (0, "four_twos")
    assert Game(4, seed=60, rules=Rules(instant_wins={"dragon", "six_pairs"})).instant_win is None


# ------------------------------------------------------------ R11.4 no 2 in sequences


def test_R11_4_no_two_in_sequences_in_the_south() -> None:
    game = Game.from_hands(["Js Qd Kh Ac 2s 10c", "3h"], rules=SOUTH, leader=0)
    assert not game.can_play("Js Qd Kh Ac 2s")
    assert game.can_play("10c Js Qd Kh Ac")
    game = Game.from_hands(["Ks Kc As Ac 2s 2c 9h", "3h"], rules=SOUTH, leader=0)
    assert not game.can_play("Ks Kc As Ac 2s 2c")
    assert Rules.southern().twos_in_sequences is False


# ------------------------------------------------------------------ R11.5 penalties


def test_R11_5_the_clause_states_the_penalties_defaults() -> None:
    # The number RULES.md gives for each field is its Penalties default, and every number
    # field is in the clause (the scoring itself is tested with Match).
    from dataclasses import fields

    text = (REPO / "RULES.md").read_text(encoding="utf-8")
    clause = text[text.index("**R11.5"):text.index("**R11.6")]
    stated = {name: int(value) for name, value in re.findall(r"`(\w+)` = (\d+)", clause)}
    defaults = Penalties()
    numbers = {f.name for f in fields(Penalties) if f.name != "cut_pays"}
    assert numbers <= set(stated), f"fields missing from R11.5: {numbers - set(stated)}"
    assert {name: stated[name] for name in numbers} == {name: getattr(defaults, name) for name in numbers}
    assert {"black_two", "red_two", "three_pairs", "quad", "four_pairs", "cong_multiplier"} <= numbers
    assert "`cut_pays`" in clause and defaults.cut_pays is True
    assert SOUTH.penalties == Penalties() and Rules().penalties is None


# ------------------------------------------------------------------ R11.6 rules as data


def test_R11_6_a_cut_added_alone() -> None:
    # The contract plus "a quad cuts a pair of 2s": in turn and (quads being out-of-turn
    # bombs in the contract) out of turn as well.
    rules = Rules(cuts=CONTRACT_CUTS | {("quad", "22")})
    game = Game.from_hands(["2s 2h 5d", QUAD_9 + " 6c"], rules=rules, leader=0)
    game.play("2s 2h")
    assert game.can_play(QUAD_9)


def test_R11_6_a_bomb_removed_from_out_of_turn_alone() -> None:
    # The contract without quads out of turn: locked out on 2♥, seat 1 may cut with a 3-pair
    # run (R5.2) but not with its quad, which it could play in turn.
    rules = Rules(out_of_turn=frozenset({"3ds", "4ds", "5ds"}))
    game = locked_on_a_two(DS4_LOW + " " + QUAD_J + " Ac", rules=rules)
    assert game.turn == 1
    assert legal(game) == {C("5s 5c 6s 6c 7s 7c"), C("6s 6c 7s 7c 8s 8c")}


def test_R11_6_no_out_of_turn_bombs_means_locked_out_players_are_always_skipped() -> None:
    rules = Rules(out_of_turn=frozenset())
    game = locked_on_a_two(DS4_LOW + " " + QUAD_J + " Ac", rules=rules)
    # Seat 0 passed on 2♥, seat 1 is locked out and skipped: the pile clears at seat 2.
    assert game.turn == 2 and game.pile is None


def test_R11_6_a_cut_removed_alone() -> None:
    rules = Rules(cuts=CONTRACT_CUTS - {("quad", "2")})
    game = Game.from_hands(["2h 5d", QUAD_9 + " " + "5s 5c 6s 6c 7s 7c"], rules=rules, leader=0)
    game.play("2h")
    assert legal(game) == {C("5s 5c 6s 6c 7s 7c")}
