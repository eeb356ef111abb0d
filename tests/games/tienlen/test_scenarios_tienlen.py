"""An outside audit of Tiến Lên: rule scenarios written from the seed texts
(/work/shared/seeds/tienlen-rules-contract.md, the Arabic help text and its summary) and
RULES.md's labels, one or more per clause.

Every expected result below was worked out by hand from the rule text, never by running the
engine. Cards are written rank + suit (s ♠, c ♣, d ♦, h ♥, low to high).

The combination helpers (``kind``, ``beats``, ``legal_moves``) ask both the engine and the
independent reference (``tests/reference.py``) and insist that they agree, so each
hand-derived expectation checks the two of them against the text.
"""

from __future__ import annotations

import os
import random

import pytest

import reference as ref
from tienlen import _core
from tienlen.games.tienlen import plays as combos
from tienlen.games.tienlen.cards import Card, Cards
from tienlen.games.tienlen.plays import Kind, classify
from tienlen.games.tienlen.game import Game
from tienlen.games.tienlen.match import Match, score_hand
from tienlen.games.tienlen.refusals import IllegalMoveError
from tienlen.games.tienlen.rules import ALL_INSTANT_WINS, CONTRACT_CUTS, SOUTHERN_CUTS, Rules

CONTRACT = Rules()
SOUTH = Rules.southern()
NO_TWOS = Rules.no_twos()
#: ``TIENLEN_SOAK=1`` plays 50 times as many whole hands.
SOAK = 50 if os.environ.get("TIENLEN_SOAK") == "1" else 1


def _ref_rules(rules: Rules) -> dict[str, object]:
    return {"twos_in_sequences": rules.twos_in_sequences, "cuts": rules.cuts,
            "out_of_turn": rules.out_of_turn, "instant_wins": rules.instant_wins}


def kind(cards: str, rules: Rules = CONTRACT) -> Kind | None:
    combo = classify(cards, rules)
    got = None if combo is None else combo.kind
    theirs = ref.classify(C(cards).mask, rules=_ref_rules(rules))
    assert (None if theirs is None else Kind(theirs[0])) == got, ("reference differs", cards)
    return got


def beats(play: str, pile: str, rules: Rules = CONTRACT) -> bool:
    got = combos.beats(play, pile, rules)
    theirs = ref.beats(C(play).mask, C(pile).mask, rules=_ref_rules(rules))
    assert theirs == got, ("reference differs", play, pile)
    return got


def legal_moves(hand: str | Cards, pile: str | None = None, *, rules: Rules = CONTRACT,
                locked_out: bool = False) -> list[Cards]:
    got = combos.legal_moves(hand, pile, rules=rules, locked_out=locked_out)
    theirs = ref.legal_moves(C(hand).mask, C(pile).mask if pile else 0, locked_out,
                             rules=_ref_rules(rules))
    assert {m.mask for m in got} == theirs, ("reference differs", hand, pile)
    return got


def moves(g: Game) -> set[Cards]:
    return set(g.legal_moves())


def C(text: str | Cards) -> Cards:
    return text if isinstance(text, Cards) else Cards.parse(text)


def refused(g: Game, fn, *args, **kw) -> None:
    before = g.copy()
    with pytest.raises(IllegalMoveError):
        fn(*args, **kw)
    assert g == before


# ================================================================ R1 deck, players, deal

def test_R1_1_two_to_four_players():
    # 2, 3 or 4 players from one 52-card deck.
    for players in (2, 3, 4):
        assert len(Game(players, seed=1).hands) == players
    for players in (1, 5, 0):
        with pytest.raises(ValueError):
            Game(players, seed=1)


def test_R1_2_thirteen_each_rest_set_aside():
    # 13 cards each; with fewer than 4 players the rest take no part.
    for players in (2, 3):
        hands = Game(players, seed=9).hands
        assert [len(h) for h in hands] == [13] * players
        total = 0
        for h in hands:
            assert not (total & h.mask)
            total |= h.mask
        assert bin(total).count("1") == 13 * players


def test_R1_3_rank_first_then_suit():
    # Ranks 3 .. A 2; suits ♠ < ♣ < ♦ < ♥; suit only separates equal ranks.
    assert beats("3h", "3s") and not beats("3s", "3h")
    assert beats("4s", "3h") and beats("2h", "2d") and not beats("As", "2s")
    assert beats("5s", "4h")                         # the Arabic text's own example
    assert [int(Card.parse(c)) for c in ("3s", "3c", "3d", "3h", "4s", "2h")] == [0, 1, 2, 3,
                                                                               4, 51]


def test_R1_4_same_seed_same_deal():
    # A deal is fixed by its seed.
    assert Game(4, seed=123).hands == Game(4, seed=123).hands
    assert Game(4, seed=123).hands != Game(4, seed=124).hands


# ================================================================ R2 combinations

def test_R2_1_to_R2_4_sets_of_one_rank():
    # Single, pair, triple, quad: 1-4 cards of one rank.
    assert kind("9d") is Kind.SINGLE
    assert kind("9d 9s") is Kind.PAIR
    assert kind("9d 9s 9h") is Kind.TRIPLE
    assert kind("9d 9s 9h 9c") is Kind.QUAD
    assert kind("9d 10s") is None


def test_R2_5_sequences_of_three_or_more():
    # 3+ consecutive ranks, one card each, suits irrelevant.
    assert kind("4s 5c 6d") is Kind.SEQUENCE
    assert kind("3s 4c 5d 6h 7s 8c 9d 10h Js Qc Kd Ah") is Kind.SEQUENCE
    assert kind("4s 5c") is None
    assert kind("4s 5c 5d 6h") is None
    assert kind("4s 5c 7d") is None


def test_R2_6_double_sequences_of_three_pairs_or_more():
    # 3+ consecutive ranks with exactly two cards of each.
    assert kind("3s 3c 4s 4c 5s 5c") is Kind.DOUBLE_SEQUENCE
    assert kind("8s 8c 9s 9c 10s 10c Js Jc") is Kind.DOUBLE_SEQUENCE
    assert kind("3s 3c 4s 4c") is None
    assert kind("3s 3c 3d 4s 4c 5s 5c") is None


def test_R2_7_two_only_at_the_top_no_wrap():
    # J-Q-K-A-2 is valid; A-2-3, 2-3-4 and K-A-2-3 are not.
    assert kind("Js Qd Kc Ad 2s") is Kind.SEQUENCE
    assert kind("Ks Kd As Ad 2s 2d") is Kind.DOUBLE_SEQUENCE
    for cards in ("Ad 2s 3c", "2s 3c 4d", "Ks Ad 2c 3d", "As Ad 2s 2d 3s 3d"):
        assert kind(cards) is None, cards
    assert beats("Js Qd Kc Ad 2s", "10s Jd Qc Kd Ah")


def test_R2_8_no_twos_variant_the_arabic_rule():
    # No 2 in any sequence or double sequence; everything else unchanged.
    assert kind("Js Qd Kc Ad 2s", NO_TWOS) is None
    assert kind("Ks Kd As Ad 2s 2d", NO_TWOS) is None
    assert kind("Qs Kd Ac", NO_TWOS) is Kind.SEQUENCE
    assert kind("2s 2d", NO_TWOS) is Kind.PAIR
    # The Arabic text's bombs are the contract's (R4.1).
    assert beats("3s 3c 3d 3h", "2h", NO_TWOS)
    assert beats("3s 3c 4s 4c 5s 5c 6s 6c", "2s 2h", NO_TWOS)
    assert beats("3s 3c 4s 4c 5s 5c 6s 6c 7s 7c", "2s 2c 2h", NO_TWOS)


# ================================================================ R3 beating

def test_R3_1_same_kind_same_length_higher_top():
    # Same kind, same number of cards, higher top card.
    assert beats("5s 6c 7d", "4h 5h 6h")
    assert not beats("4h 5h 6h", "5s 6c 7d")
    assert not beats("5s 6c 7d 8s", "4h 5h 6h")      # longer sequence
    assert not beats("Ks Kc", "Ah")                  # pair on single


def test_R3_2_top_card_decides_including_suit():
    # 5♥ 5♠ beats 5♦ 5♣; 9♠ 10♠ J♥ beats 9♥ 10♥ J♦.
    assert beats("5h 5s", "5d 5c") and not beats("5d 5c", "5h 5s")
    assert beats("9s 10s Jh", "9h 10h Jd")


def test_R3_3_kinds_never_beat_each_other():
    # A pair never beats a single; a 4-card sequence never beats a 3-card one; triple vs pair.
    assert not beats("3s 3c", "Kh")
    assert not beats("3s 4s 5s 6s", "3c 4c 5c")
    assert not beats("Ks Kc Kd", "3s 3c")
    assert not beats("3s 3c 4s 4c 5s 5c", "3d 4d 5d")


# ================================================================ R4 bombs (the contract)

def test_R4_1_contract_bomb_table():
    # Quad and 3-pair double sequence beat a single 2; 4 pairs beat 2 2; 5 pairs beat 2 2 2.
    quad, ds3 = "3s 3c 3d 3h", "3s 3c 4s 4c 5s 5c"
    ds4, ds5 = "3s 3c 4s 4c 5s 5c 6s 6c", "3s 3c 4s 4c 5s 5c 6s 6c 7s 7c"
    assert beats(quad, "2h") and beats(ds3, "2h")
    assert beats(ds4, "2s 2h") and beats(ds5, "2s 2c 2h")


def test_R4_2_bombs_beat_nothing_else():
    # Not a non-2, not a 2-combo of another size; a quad and a double sequence never meet.
    quad, ds3 = "3s 3c 3d 3h", "3s 3c 4s 4c 5s 5c"
    ds4, ds5 = "3s 3c 4s 4c 5s 5c 6s 6c", "3s 3c 4s 4c 5s 5c 6s 6c 7s 7c"
    assert not beats(quad, "Ah") and not beats(quad, "2s 2h") and not beats(quad, "Ks Kh")
    assert not beats(ds3, "2s 2h") and not beats(ds4, "2h") and not beats(ds5, "2s 2h")
    assert not beats(ds4, "2s 2c 2h") and not beats(ds5, "2h")
    assert not beats("4s 4c 4d 4h", ds3) and not beats("Js Jc Qs Qc Ks Kc", quad)
    assert not beats("Js Jc Qs Qc Ks Kc As Ac", "9s 9c 9d 9h")


def test_R4_3_a_bomb_on_the_pile_is_ordinary():
    # Once down, a bomb is beaten by the same kind and length with a higher top.
    assert beats("4s 4c 4d 4h", "3s 3c 3d 3h") and not beats("3s 3c 3d 3h", "4s 4c 4d 4h")
    assert beats("4s 4c 5s 5c 6s 6c", "3s 3c 4d 4h 5d 5h")


# ================================================================ R5 passing and lock-out

def test_R5_1_pass_when_able_and_stay_locked_out():
    # A player may pass though able to play, and is then locked out until the pile clears.
    g = Game.from_hands(["3s 5s 9s", "4s 8s", "6s 7s"], leader=0)
    g.play("3s")
    assert g.can_play("4s") and g.can_pass()
    g.pass_turn()                                    # seat 1 passes, able to play
    g.play("6s")
    g.play("9s")
    assert g.turn == 2                               # seat 1 is skipped
    assert 1 in g.locked_seats
    g.pass_turn()
    assert g.turn == 0 and g.pile is None and not g.locked_seats


def test_R5_2_locked_out_player_may_bomb_a_two():
    # A locked-out player may play a bomb on a pile of 2s, and nothing else.
    g = Game.from_hands(["9s Kd", "3s 3c 3d 3h Qd", "2s Jd", "10d Ks"], leader=0)
    g.play("9s")
    g.pass_turn()                                    # seat 1 locked out
    g.play("2s")
    g.pass_turn()
    g.pass_turn()
    assert g.turn == 1 and moves(g) == {C("3s 3c 3d 3h")}
    g.play("3s 3c 3d 3h")
    assert g.pile_owner == 1


def test_R5_2_locked_out_bombs_by_the_table_only():
    # Out of turn the contract allows exactly the bombs that beat the 2-combo.
    hand = "3s 3c 4s 4c 5s 5c 6s 6c 9s 9c 9d 9h Kd"
    assert set(legal_moves(hand, "2s", locked_out=True)) == {
        C("3s 3c 4s 4c 5s 5c"), C("4s 4c 5s 5c 6s 6c"), C("9s 9c 9d 9h")}
    assert set(legal_moves(hand, "2s 2c", locked_out=True)) == {C("3s 3c 4s 4c 5s 5c 6s 6c")}
    assert legal_moves(hand, "Ah", locked_out=True) == []


def test_R5_3_locked_out_players_get_the_turn_on_twos():
    # On a pile of 2s a locked-out player gets the turn, with or without a bomb, and may pass.
    g = Game.from_hands(["9s Kd", "5d Qd", "2s Jd", "10d Ks"], leader=0)
    g.play("9s")
    g.pass_turn()                                    # seat 1 locked out
    g.play("2s")
    g.pass_turn()
    g.pass_turn()
    assert g.turn == 1 and moves(g) == set() and g.can_pass()
    g.pass_turn()
    assert g.turn == 2 and g.pile is None


def test_R5_3_locked_out_players_are_skipped_otherwise():
    # On anything but 2s, locked-out players do not get the turn.
    g = Game.from_hands(["9s Kd", "3s 3c 3d 3h", "Js 5d", "10d Ks"], leader=0)
    g.play("9s")
    g.pass_turn()                                    # seat 1 locked out (it holds a quad)
    g.play("Js")
    g.pass_turn()
    g.pass_turn()
    assert g.turn == 2 and g.pile is None


def test_R5_4_bombing_unlocks_no_one():
    # The bomber stays locked; once a higher bomb covers the 2, it is skipped again.
    g = Game.from_hands(["9s Kd", "3s 3c 3d 3h Qd", "2s 4s 4c 4d 4h Jd", "10d Ks"], leader=0)
    g.play("9s")
    g.pass_turn()
    g.play("2s")
    g.pass_turn()
    g.pass_turn()
    g.play("3s 3c 3d 3h")                            # seat 1, out of turn
    assert g.locked_seats == frozenset({0, 1, 3}) and g.turn == 2
    g.play("4s 4c 4d 4h")
    assert g.turn == 2 and g.pile is None            # every other seat skipped


# ================================================================ R6 clearing the pile

def test_R6_1_pile_clears_for_the_owner_even_after_a_pass():
    # The owner leads when the turn comes back, even one who had passed and then bombed.
    g = Game.from_hands(["9s Kd", "3s 3c 3d 3h Qd", "2s Jd", "10d Ks"], leader=0)
    g.play("9s")
    g.pass_turn()
    g.play("2s")
    g.pass_turn()
    g.pass_turn()
    g.play("3s 3c 3d 3h")
    g.pass_turn()                                    # seat 2, in turn
    assert g.turn == 1 and g.pile is None and not g.locked_seats


def test_R6_2_owner_out_next_seat_leads():
    # If the owner went out, the next seat after the owner still holding cards leads.
    g = Game.from_hands(["9s", "5d Qd", "6d Jd", "10d Ks"], leader=0)
    g.play("9s")                                     # seat 0 out
    g.pass_turn()
    g.pass_turn()
    g.pass_turn()
    assert g.turn == 1 and g.pile is None
    h = Game.from_hands(["9s", "4d", "6d Jd", "10d Ks"], leader=1)
    h.play("4d")                                     # seat 1 out
    h.pass_turn()                                    # seat 2
    h.pass_turn()                                    # seat 3
    h.play("9s")                                     # seat 0 out, owner of the top
    # Seats 2 and 3 passed (locked out), seat 1 is out: the turn reaches the owner's seat
    # at once, the pile clears, and the next seat after it still holding cards leads.
    assert h.turn == 2 and h.pile is None and not h.locked_seats


# ================================================================ R7 leading

def test_R7_1_leader_must_play():
    # Passing on lead is not allowed; any combination may be led.
    g = Game.from_hands(["3s 4c 5d", "9h"], leader=0)
    refused(g, g.pass_turn)
    assert C("3s 4c 5d") in moves(g)


def test_R7_2_first_lead_includes_the_three_of_spades():
    # The 3♠ holder leads the first hand, with a combination holding the 3♠.
    g = Game.from_hands(["4s 4c 9h", "3s 3h 4d 5d", "6s 7s"])
    assert g.turn == 1
    assert moves(g) == {C("3s"), C("3s 3h"), C("3s 4d 5d")}
    refused(g, g.play, "4d")


def test_R7_2_lowest_card_in_play_without_the_three_of_spades():
    # With 2 or 3 players the lowest card dealt may be another card; it must be led.
    g = Game.from_hands(["4s 9h", "3d 3h 4d", "5s 6s"])
    assert g.turn == 1 and g.must_include == Card.parse("3d")
    assert moves(g) == {C("3d"), C("3d 3h")}
    for seed in range(20):
        dealt = Game(3, seed=seed)
        lowest = min(int(c) for h in dealt.hands for c in h)
        assert int(dealt.must_include) == lowest
        assert dealt.turn == next(s for s, h in enumerate(dealt.hands) if Card(lowest) in h)
        assert all(Card(lowest) in m for m in dealt.legal_moves())


def test_R7_3_and_R10_1_later_hands_led_by_the_winner_freely():
    # From the second hand on, the previous winner leads, with any combination.
    m = Match(4, seed=31)
    assert m.game.must_include == Card.parse("3s")
    while not m.game.is_over:
        g = m.game
        if g.can_pass():
            g.pass_turn()
        else:
            g.play(next(iter(g.legal_moves())))
    winner = m.game.finished[0]
    m.next_hand()
    assert m.game.turn == winner and m.game.must_include is None
    assert len(moves(m.game)) == len(set(legal_moves(m.game.hand(winner))))


def test_R7_4_explicit_leader_leads_anything():
    # A game from given hands with an explicit leader lets that seat lead anything.
    g = Game.from_hands(["3s 9h", "4s Kd"], leader=1)
    assert g.turn == 1 and g.must_include is None and moves(g) == {C("4s"), C("Kd")}


# ================================================================ R8 turn order

def test_R8_1_clockwise_is_increasing_seat():
    # Increasing seat modulo the players, skipping those out.
    g = Game.from_hands(["3s 9s", "4s", "5s 10s", "6s Js"], leader=0)
    order = []
    for card in ("3s", "4s", "5s", "6s"):
        order.append(g.turn)
        g.play(card)
    assert order == [0, 1, 2, 3]
    assert g.turn == 0
    g.play("9s")
    assert g.turn == 2                               # seat 1 is out


# ================================================================ R9 end of the hand

def test_R9_1_and_R9_2_places_and_the_loser():
    # Out in order; the hand ends when one player holds cards, who is last.
    g = Game.from_hands(["3s", "4s 8s", "5s 9s"], leader=0)   # seat 1 is left with 8♠
    g.play("3s")
    assert g.finished == (0,) and not g.is_over
    g.play("4s")
    g.play("9s")
    g.pass_turn()                                    # seat 1: 8♠ does not beat 9♠
    g.play("5s")                                     # seat 2 leads its last card: out
    assert g.is_over and g.finished == (0, 2, 1) and g.loser == 1 and g.turn is None
    assert g.places == (1, 3, 2)


# ================================================================ R10 matches

def test_R10_2_points_are_players_minus_place():
    # Place p scores players - p: 3, 2, 1, 0 with four players.
    g = Game.from_hands(["3s", "4s", "5s", "6s 7s"], leader=0)
    for card in ("3s", "4s", "5s"):
        g.play(card)
    assert g.is_over and score_hand(g).points == (3, 2, 1, 0)


# ================================================================ R11 the Southern rules

def test_R11_1_southern_cut_table():
    # 3 pairs cut a single 2; a quad cuts 2, 22, 3 pairs, a lower quad; 4 pairs cut those
    # and any quad, even of 2s; nothing cuts 222; 5 pairs cut nothing.
    ds3, quad = "3s 3c 4s 4c 5s 5c", "6s 6c 6d 6h"
    ds4 = "7s 7c 8s 8c 9s 9c 10s 10c"
    ds5 = "3s 3c 4s 4c 5s 5c 6s 6c 7s 7c"
    top3 = "Qs Qc Ks Kc As Ac"
    assert beats(ds3, "2h", SOUTH) and not beats(ds3, "2s 2h", SOUTH)
    assert beats(quad, "2h", SOUTH) and beats(quad, "2s 2h", SOUTH)
    assert beats(quad, top3, SOUTH) and beats(quad, "5s 5c 5d 5h", SOUTH)
    assert not beats(quad, "2s 2c 2h", SOUTH) and not beats(quad, "Ah", SOUTH)
    assert beats(ds4, "2h", SOUTH) and beats(ds4, "2s 2h", SOUTH) and beats(ds4, top3, SOUTH)
    assert beats(ds4, "2s 2c 2d 2h", SOUTH) and beats(ds4, "As Ac Ad Ah", SOUTH)
    assert not beats(ds4, "2s 2c 2h", SOUTH)
    assert not beats(ds5, "2h", SOUTH) and not beats(ds5, "2s 2c 2h", SOUTH)
    assert beats("4d 4h 5d 5h 6d 6h 7d 7h 8d 8h", ds5, SOUTH)      # lower one: R3.1
    assert not beats(ds3, quad, SOUTH) and not beats(quad, ds4, SOUTH)


def test_R11_1_cutting_a_cut_chat_chong_in_play():
    # A bomb on the pile can itself be cut: 2 <- quad <- 4 pairs.
    g = Game.from_hands(["2h 9s", "3s 3c 3d 3h 8s", "4s 4c 5s 5c 6s 6c 7s 7c Kd"],
                        rules=SOUTH, leader=0)
    g.play("2h")
    g.play("3s 3c 3d 3h")
    assert C("4s 4c 5s 5c 6s 6c 7s 7c") in moves(g)
    g.play("4s 4c 5s 5c 6s 6c 7s 7c")
    assert g.pile_owner == 2


def test_R11_2_out_of_turn_only_four_pairs():
    # Locked out: only a 4-pair double sequence, on what it cuts; never a quad or 3 pairs.
    hand = "3s 3c 4s 4c 5s 5c 6s 6c 9s 9c 9d 9h Kd"
    ds4 = C("3s 3c 4s 4c 5s 5c 6s 6c")
    assert set(legal_moves(hand, "2s", rules=SOUTH, locked_out=True)) == {ds4}
    assert set(legal_moves(hand, "2s", rules=SOUTH)) == {
        ds4, C("3s 3c 4s 4c 5s 5c"), C("4s 4c 5s 5c 6s 6c"), C("9s 9c 9d 9h")}
    assert set(legal_moves(hand, "10s 10c 10d 10h", rules=SOUTH, locked_out=True)) == {ds4}
    assert legal_moves(hand, "2s 2c 2h", rules=SOUTH, locked_out=True) == []
    assert legal_moves(hand, "Jd Jh Qd Qh Kc Kh Ad Ah", rules=SOUTH, locked_out=True) == []


def test_R11_2_turns_for_locked_out_players_in_the_south():
    # Locked-out players get the turn on a 2, 22, 3 pairs, a quad or 4 pairs; not on 222.
    g = Game.from_hands(["9s 10s Jd", "3s 3c 4s 4c 5s 5c 6s 6c Kd", "2s Qd", "7s 8s"],
                        rules=SOUTH, leader=0)
    g.play("9s")
    g.pass_turn()                                    # seat 1 locked out
    g.play("2s")
    g.pass_turn()
    g.pass_turn()
    assert g.turn == 1 and moves(g) == {C("3s 3c 4s 4c 5s 5c 6s 6c")}
    g.play("3s 3c 4s 4c 5s 5c 6s 6c")                # cutting unlocks no one
    assert g.turn == 2
    g.pass_turn()
    assert g.turn == 3                               # locked, but the top is 4 pairs
    g.pass_turn()
    assert g.turn == 0
    g.pass_turn()
    assert g.turn == 1 and g.pile is None
    t = Game.from_hands(["9s 9c 9d Kd", "3s 3c 4s 4c 5s 5c 6s 6c", "2s 2c 2d Qd", "7s 8s"],
                        rules=SOUTH, leader=0)
    t.play("9s 9c 9d")
    t.pass_turn()                                    # seat 1 locked out
    t.play("2s 2c 2d")
    t.pass_turn()
    t.pass_turn()
    assert t.turn == 2 and t.pile is None            # seat 1 skipped on 222


def _dealt_state(hands: list[str], leader: int, rules: Rules) -> _core.GameState:
    return _core.GameState([C(h).mask for h in hands], leader, rules.flags, True)


def test_R11_3_each_instant_win_alone():
    # Four 2s; a dragon 3..A; six pairs (a quad is two, a triple one); five consecutive pairs.
    flags = SOUTH.flags
    wins = {
        "four_twos": "2s 2c 2d 2h 3s 4c 5d 7h 8s 9c Jd Qh Ks",
        "dragon": "3s 4c 5d 6h 7s 8c 9d 10h Js Qc Kd Ah 3c",
        "six_pairs": "3s 3c 5s 5c 7s 7c 9s 9c Js Jc Ks Kc Ad",
        "five_pairs": "3s 3c 4s 4c 5s 5c 6s 6c 7s 7c 9d Jh Kd",
    }
    for name, hand in wins.items():                  # each hand holds exactly one of them
        got = _core.instant_win(C(hand).mask, flags)
        assert got >= 0 and ALL_INSTANT_WINS[got] == name, (name, got)
    quad_pairs = "3s 3c 3d 3h 5s 5c 7s 7c 9s 9c Js Jc Ad"
    triple_pairs = "3s 3c 3d 5s 5c 7s 7c 9s 9c Js Jc Ks Kc"
    five_and_triple = "3s 3c 3d 5s 5c 7s 7c 9s 9c Js Jc Ks Ad"
    assert _core.instant_win(C(quad_pairs).mask, flags) >= 0
    assert _core.instant_win(C(triple_pairs).mask, flags) >= 0
    assert _core.instant_win(C(five_and_triple).mask, flags) == -1
    no_dragon = "3s 4c 5d 6h 7s 8c 9d 10h Js Qc Kd 2h 3c"           # no A
    assert _core.instant_win(C(no_dragon).mask, flags) == -1
    assert _core.instant_win(C(wins["dragon"]).mask, CONTRACT.flags) == -1


def test_R11_3_five_pairs_reach_the_twos_only_where_twos_sit_in_sequences():
    # Southern five consecutive pairs cannot reach the 2s (R11.4).
    hand = C("Js Jc Qs Qc Ks Kc As Ac 2s 2c 4d 6h 8d").mask
    assert _core.instant_win(hand, SOUTH.flags) == -1
    contract_pairs = CONTRACT.with_(instant_wins={"five_pairs"})
    assert ALL_INSTANT_WINS[_core.instant_win(hand, contract_pairs.flags)] == "five_pairs"


# Four hands of 13: seat 1 holds a dragon (all clubs), seat 3 six pairs 4-9 (also five
# consecutive pairs); seats 0 and 2 hold no instant win; seat 0 has the 3♠.
_TWO_WINS = ["3s 3d 3h 10s 10d 10h Js Jd Jh 2s 2h 4h 5h",
             "3c 4c 5c 6c 7c 8c 9c 10c Jc Qc Kc Ac 2c",
             "Qs Ks As Qd Kd Ad 6h 7h 8h 9h Qh Kh Ah",
             "4s 4d 5s 5d 6s 6d 7s 7d 8s 8d 9s 9d 2d"]


def test_R11_3_precedence_first_in_turn_order_from_the_leader():
    # Several instant wins: the first in turn order from the would-be leader wins.
    first = _dealt_state(_TWO_WINS, -1, SOUTH)       # R7.2: seat 0 (3♠) would lead
    assert first.instant_win >= 0 and first.finished[0] == 1 and first.is_over
    later = _dealt_state(_TWO_WINS, 2, SOUTH)        # R7.3: seat 2 would lead
    assert later.finished[0] == 3
    from_seat_3 = _dealt_state(_TWO_WINS, 3, SOUTH)
    assert from_seat_3.finished[0] == 3


def test_R11_3_positions_are_not_deals():
    # Game.from_hands sets up positions and never checks instant wins.
    g = Game.from_hands(_TWO_WINS, rules=SOUTH)
    assert g.instant_win is None and not g.is_over and g.turn == 0


def test_R11_4_no_two_in_southern_sequences():
    # No 2 in a sequence or double sequence.
    assert kind("Js Qd Kc Ad 2s", SOUTH) is None
    assert kind("Ks Kd As Ad 2s 2d", SOUTH) is None
    assert kind("Qs Kd Ac", SOUTH) is Kind.SEQUENCE


def test_R11_5_thoi_and_cong():
    # The loser pays the winner 1 per black 2, 2 per red 2, 4 per quad; twice if cóng.
    g = Game.from_hands(["3s", "2s 2h 9s 9c 9d 9h"], rules=SOUTH)
    g.play("3s")
    score = score_hand(g)
    assert [(p.payer, p.payee, p.amount) for p in score.payments] == [(1, 0, 14)]
    assert score.net == (14, -14) and score.points == (1, 0)
    h = Game.from_hands(["3s 5s", "4s 2s 2h 9s 9c 9d 9h"], rules=SOUTH)
    h.play("3s")
    h.play("4s")
    h.play("5s")
    assert [(p.payer, p.payee, p.amount) for p in score_hand(h).payments] == [(1, 0, 7)]


def test_R11_5_bombs_left_counted_as_the_best_disjoint_set():
    # 3s 3c 4s 4c 5s 5c 5d 5h: 3 pairs (3) or the quad of 5s (4), not both: 4.
    g = Game.from_hands(["3s 6s", "4d 3c 3d 4s 4c 5s 5c 5d 5h"], rules=SOUTH)
    g.play("3s")
    g.play("4d")
    g.play("6s")
    assert [(p.payer, p.payee, p.amount) for p in score_hand(g).payments] == [(1, 0, 4)]


def test_R11_5_chain_of_cuts_paid_by_the_last_cut_to_the_last_cutter():
    # 2♥ (2) cut by a quad (4) cut by 4 pairs: seat 1 pays seat 2 for all, 6.
    g = Game.from_hands(["2h 9s 10s", "3s 3c 3d 3h 8s", "4s 4c 5s 5c 6s 6c 7s 7c Kd"],
                        rules=SOUTH, leader=0)
    g.play("2h")
    g.play("3s 3c 3d 3h")
    g.play("4s 4c 5s 5c 6s 6c 7s 7c")
    g.pass_turn()
    g.pass_turn()
    g.play("Kd")                                     # seat 2 out
    g.pass_turn()
    g.pass_turn()
    g.play("9s")
    g.pass_turn()
    g.play("10s")                                    # seat 0 out; seat 1 last with 8♠
    assert g.finished == (2, 0, 1)
    assert [(p.payer, p.payee, p.amount) for p in score_hand(g).payments] == [(1, 2, 6)]


def test_R11_5_a_higher_two_is_no_cut():
    # Beating a 2 with a higher 2 is no cut: nothing is paid for it.
    g = Game.from_hands(["2s 4s", "2h 3c"], rules=SOUTH, leader=0)
    g.play("2s")
    g.play("2h")
    g.pass_turn()
    g.play("3c")                                     # seat 1 out
    assert [p.reason for p in score_hand(g).payments] == []


def test_R11_6_each_field_alone():
    # Any field may be set alone; e.g. no out-of-turn bombs keeps locked-out players off 2s.
    strict = Rules(out_of_turn=frozenset())
    hand = "3s 3c 3d 3h 9d"
    assert legal_moves(hand, "2s", rules=strict, locked_out=True) == []
    assert legal_moves(hand, "2s", rules=CONTRACT, locked_out=True) == [C("3s 3c 3d 3h")]
    g = Game.from_hands(["9s Kd", "3s 3c 3d 3h Qd", "2s Jd", "10d Ks"], rules=strict, leader=0)
    g.play("9s")
    g.pass_turn()
    g.play("2s")
    g.pass_turn()
    g.pass_turn()
    assert g.turn == 2 and g.pile is None            # seat 1 skipped: no bomb allowed
    cuts_only = Rules(cuts=SOUTHERN_CUTS)
    assert kind("Js Qd Kc Ad 2s", cuts_only) is Kind.SEQUENCE
    assert beats("3s 3c 4s 4c 5s 5c 6s 6c", "6s 6c 6d 6h", cuts_only)
    assert Rules(cuts=CONTRACT_CUTS) == CONTRACT


def test_R11_5_a_two_beaten_by_a_higher_two_then_cut_pays_the_top_two_only():
    # 2♠ beaten by 2♥ (no cut), then a quad cuts the 2♥: its owner pays 2 (a red 2).
    g = Game.from_hands(["2s 9s", "2h 8s", "3s 3c 3d 3h Kd"], rules=SOUTH, leader=0)
    g.play("2s")
    g.play("2h")
    g.play("3s 3c 3d 3h")
    g.pass_turn()
    g.pass_turn()
    g.play("Kd")                                     # seat 2 out
    g.pass_turn()
    g.pass_turn()
    g.play("9s")                                     # seat 0 out; seat 1 last with 8♠
    assert g.finished == (2, 0, 1)
    assert [(p.payer, p.payee, p.amount) for p in score_hand(g).payments] == [(1, 2, 2)]


def test_R11_5_a_higher_bomb_on_a_bomb_extends_the_chain():
    # 2♥ cut by 3 pairs, those beaten by higher 3 pairs (a bomb on a bomb is a cut):
    # the last player cut pays the last cutter 2 + 3 = 5.
    g = Game.from_hands(["2h 9s", "3s 3c 4s 4c 5s 5c 8s", "6s 6c 7s 7c 8d 8h Kd"],
                        rules=SOUTH, leader=0)
    g.play("2h")
    g.play("3s 3c 4s 4c 5s 5c")
    g.play("6s 6c 7s 7c 8d 8h")
    g.pass_turn()
    g.pass_turn()
    g.play("Kd")                                     # seat 2 out
    g.pass_turn()
    g.pass_turn()
    g.play("9s")                                     # seat 0 out; seat 1 last with 8♠
    assert g.finished == (2, 0, 1)
    assert [(p.payer, p.payee, p.amount) for p in score_hand(g).payments] == [(1, 2, 5)]


def test_R11_3_and_R11_5_an_instant_win_deal():
    # Seed 112's deal (hands checked by hand below): seat 0 holds the 3♠ and would lead;
    # seats 0-2 hold no instant win (5, 3 and 4 pairs, no dragon, no four 2s); seat 3 holds
    # six pairs (6 8 10 Q K 2) and wins at once. The others share last place and each pays
    # the winner for its own 2s and bombs, not multiplied: only seat 2 holds any, 2♠ 2♥
    # (1 + 2), and no bomb.
    g = Game(4, seed=112, rules=SOUTH)
    assert g.initial_hands[0] == C("3s 3d 4h 6c 6h 7c 7d 9s 9h Js As Ac Ah")
    assert g.initial_hands[1] == C("3c 3h 4d 5h 7s 8c 10s 10c Jc Jd Jh Qc Ad")
    assert g.initial_hands[2] == C("4s 4c 5s 5c 5d 7h 8s 9c Qd Kd Kh 2s 2h")
    assert g.initial_hands[3] == C("6s 6d 8d 8h 9d 10d 10h Qs Qh Ks Kc 2c 2d")
    assert g.is_over and g.history == () and g.instant_win == (3, "six_pairs")
    score = score_hand(g)
    assert score.places == (4, 4, 4, 1) and score.points == (0, 0, 0, 3)
    assert [(p.payer, p.payee, p.amount) for p in score.payments] == [(2, 3, 3)]


def _left_payments(hands: list[str], plays: list[str | None], rules: Rules) -> list[tuple]:
    g = Game.from_hands(hands, rules=rules)
    for move in plays:
        if move is None:
            g.pass_turn()
        else:
            g.play(move)
    assert g.is_over
    return [(p.payer, p.payee, p.amount) for p in score_hand(g).payments]


def test_R11_5_four_twos_left_are_paid_as_twos_not_as_a_quad():
    # No 2 in a counted bomb: 2♠ 2♣ 2♦ 2♥ pay 1 + 1 + 2 + 2 = 6.
    assert _left_payments(["3s 5s", "4s 2s 2c 2d 2h"], ["3s", "4s", "5s"], SOUTH) == [(1, 0, 6)]


def test_R11_5_only_the_rulesets_own_bombs_count():
    # Five consecutive pairs left: in the South no bomb, but 4 of them are one (6); under
    # the contract's table (with penalties on) the 5-pair run is a bomb worth 8.
    hands = ["3s 8s", "4d 3c 3d 4s 4c 5s 5c 6c 6d 7s 7c"]
    plays = ["3s", "4d", "8s"]
    assert _left_payments(hands, plays, SOUTH) == [(1, 0, 6)]
    from tienlen.games.tienlen.rules import Penalties
    assert _left_payments(hands, plays, CONTRACT.with_(penalties=Penalties())) == [(1, 0, 8)]


def test_R11_5_the_loser_pays_the_first_out():
    # With three players the last pays the first out, not the second.
    hands = ["3s", "4s 5s", "6s 2h"]
    # seat 0 out; seat 1 plays 4♠; seat 2 6♠; seat 1 passes; seat 2 leads 2♥ and is out.
    assert _left_payments(hands, ["3s", "4s", "6s", None, "2h"], SOUTH) == []
    hands = ["3s", "4s 2h", "5s 9s"]
    # seat 0 out; 4♠, 5♠; seat 1 passes... seat 2 leads 9♠ and is out; seat 1 keeps 2♥.
    assert _left_payments(hands, ["3s", "4s", "5s", None, "9s"], SOUTH) == [(1, 0, 2)]


# ================================================================ whole hands against the text

def _target(combo) -> str | None:
    """What a pile top is for the cut table: a 2-combo, a bomb kind, or nothing."""
    cards = list(combo.cards)
    if all(c.rank == cards[0].rank for c in cards) and str(cards[0])[0] == "2" and len(cards) < 4:
        return "2" * len(cards)
    if combo.kind is Kind.QUAD:
        return "quad"
    if combo.kind is Kind.DOUBLE_SEQUENCE and len(cards) in (6, 8, 10):
        return f"{len(cards) // 2}ds"
    return None


def _play_out_checking_turns(g: Game, rules: Rules, rng) -> tuple[int, int]:
    """Random legal play to the end of the hand, checking R5, R6, R8, R9 after every
    action: who gets the turn (locked-out players only on a target of an out-of-turn
    bomb), when the pile clears and who leads. Returns the number of actions and of
    turns given to a locked-out player."""
    n = g.players
    owner: int | None = None
    locked: set[int] = set()
    out: set[int] = set()
    woke = {t for b, t in rules.cuts if b in rules.out_of_turn}
    actions = 0
    woken = 0

    def advance(seat: int) -> None:
        nonlocal owner, locked, woken
        top = g.pile if owner is not None else None
        wake = top is not None and _target(top) in woke
        for k in range(1, n + 1):
            t = (seat + k) % n
            if t == owner:                                            # R6.1, R6.2
                lead = owner if owner not in out else next(
                    (owner + j) % n for j in range(1, n + 1) if (owner + j) % n not in out)
                assert g.turn == lead and g.pile is None and not g.locked_seats
                owner, locked = None, set()
                return
            if t in out or (t in locked and not wake):                # R8.1, R5.3, R11.2
                continue
            assert g.turn == t and g.locked_seats == frozenset(locked)
            woken += t in locked
            return
        raise AssertionError("no one to play")

    while not g.is_over:
        seat = g.turn
        moves_now = list(g.legal_moves())
        if owner is None:
            assert g.pile is None and not g.can_pass()                # R7.1
        if g.can_pass() and (not moves_now or rng.random() < 0.35):
            g.pass_turn()
            locked.add(seat)                                          # R5.1
        else:
            g.play(rng.choice(moves_now))
            owner = seat                                              # R5.4: no unlocking
            if len(g.hand(seat)) == 0:
                out.add(seat)                                         # R9.1
                if len(out) == n - 1:                                 # R9.2
                    assert g.is_over and g.turn is None
                    assert g.finished[:-1] == tuple(sorted(out, key=g.finished.index))
                    return actions + 1, woken
        actions += 1
        assert not g.is_over
        advance(seat)
    return actions, woken


@pytest.mark.parametrize("rules", [CONTRACT, SOUTH, NO_TWOS, Rules(out_of_turn=frozenset()),
                                   Rules(cuts=SOUTHERN_CUTS)],
                         ids=["contract", "southern", "no-twos", "no-out-of-turn", "south-cuts"])
def test_R5_R6_R8_R9_whole_hands_follow_the_text(rules):
    # Every turn, lock-out, clearing and finish of random hands, against the rules' text.
    rng = random.Random(7)
    total = woken = 0
    for seed in range(60 * SOAK):
        players = 2 + seed % 3
        g = Game(players, seed=seed, rules=rules)
        if g.is_over:                                                 # an instant win
            continue
        low = min(int(c) for h in g.hands for c in h)                 # R7.2
        assert int(g.must_include) == low and Card(low) in g.hand(g.turn)
        actions, woke = _play_out_checking_turns(g, rules, rng)
        total, woken = total + actions, woken + woke
    assert total > 1000
    assert (woken > 0) == bool(rules.out_of_turn)      # locked-out turns were exercised


def test_R2_8_the_arabic_lock_out_reading():
    # Our reading of the help text's lock-out: a locked-out player may still bomb a 2 (R5.2);
    # the strict reading is the no-twos rules with no out-of-turn bombs.
    hands = ["9s Kd", "3s 3c 3d 3h Qd", "2s Jd", "10d Ks"]
    g = Game.from_hands(hands, rules=NO_TWOS, leader=0)
    g.play("9s")
    g.pass_turn()
    g.play("2s")
    g.pass_turn()
    g.pass_turn()
    assert g.turn == 1 and moves(g) == {C("3s 3c 3d 3h")}
    strict = Game.from_hands(hands, rules=NO_TWOS.with_(out_of_turn=frozenset()), leader=0)
    for move in ("9s", None, "2s", None, None):
        strict.pass_turn() if move is None else strict.play(move)
    assert strict.turn == 2 and strict.pile is None


def test_R11_3_a_hand_with_two_instant_wins_reports_the_first_in_order():
    # Four 2s that also make six pairs: four 2s; six pairs that are five consecutive pairs:
    # six pairs.
    both = C("2s 2c 2d 2h 3s 3c 5s 5c 7s 7c 9s 9c Jd").mask
    assert ALL_INSTANT_WINS[_core.instant_win(both, SOUTH.flags)] == "four_twos"
    runs = C(_TWO_WINS[3]).mask
    assert ALL_INSTANT_WINS[_core.instant_win(runs, SOUTH.flags)] == "six_pairs"


def test_R11_5_a_bomb_cutting_a_bomb_starts_a_chain_without_twos():
    # 3 pairs led, cut by a quad: the 3 pairs' owner pays the quad's owner 3.
    g = Game.from_hands(["3s 3c 4s 4c 5s 5c 9s", "6s 6c 6d 6h 8s", "Qd Kd"], rules=SOUTH,
                        leader=0)
    g.play("3s 3c 4s 4c 5s 5c")
    g.play("6s 6c 6d 6h")
    g.pass_turn()
    g.pass_turn()
    g.play("8s")                                     # seat 1 out
    g.play("Qd")
    g.pass_turn()
    g.play("Kd")                                     # seat 2 out; seat 0 last with 9♠
    assert g.finished == (1, 2, 0)
    assert [(p.payer, p.payee, p.amount) for p in score_hand(g).payments] == [(0, 1, 3)]
