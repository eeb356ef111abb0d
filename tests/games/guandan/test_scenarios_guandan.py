"""An outside audit of Guandan: rule scenarios written from /work/shared/guandan-rulings.md
(and GUANDAN.md's labels for it), one or more per clause.

Every expected result below was worked out by hand from the rule text, never by running the
engine: readings are written as (kind, size, rank) with rank the natural rank the cards stand
for (15 ☆, 16 ★), a full house by its triple and a run by its top card, as GUANDAN.md's
rulings say. Cards are written rank + suit (s ♠, h ♥, c ♣, d ♦); at level L the two L♥ are
the wild cards.

``readings`` and ``wins`` ask both the engine and the independent reference
(``tests/guandan_reference.py``) and insist that they agree, so each hand-derived
expectation checks the two of them against the text.
"""

from __future__ import annotations

import os
import random

import pytest

import guandan_reference as gref
from tienlen.guandan import (
    BombOrder,
    Cards,
    Game,
    IllegalActionError,
    Kind,
    Match,
    RuleConfig,
    TeamFormation,
    beats,
    classify,
    count_legal_plays,
    deal,
    legal_plays,
)
from tienlen.games.guandan.match import settle

STD = RuleConfig()
#: ``TIENLEN_SOAK=1`` plays 50 times as many whole matches.
SOAK = 50 if os.environ.get("TIENLEN_SOAK") == "1" else 1
BY_RANK = RuleConfig(bomb_compare_priority=BombOrder.BY_RANK)
FIXED = ((0, 2), (1, 3))


def readings(cards: str, level: int, config: RuleConfig = STD) -> set[tuple[str, int, int]]:
    got = {(p.kind.name.lower(), p.size, p.rank) for p in classify(cards, level, config)}
    theirs = gref.classify(list(Cards.parse(cards).ids), level, config.to_dict())
    assert theirs == got, ("reference differs", cards, level, theirs)
    return got


def read(cards: str, level: int, kind: str, config: RuleConfig = STD):
    """The one reading of ``cards`` of kind ``kind`` (the highest if there are several)."""
    plays = [p for p in classify(cards, level, config) if p.kind.name.lower() == kind]
    assert plays, f"{cards} has no {kind} reading at level {level}"
    return max(plays, key=lambda p: p.rank)


def wins(a: str, b: str, level: int, kind_a: str, kind_b: str | None = None,
         config: RuleConfig = STD) -> bool:
    pa, pb = read(a, level, kind_a, config), read(b, level, kind_b or kind_a, config)
    got = beats(pa, pb, config)
    theirs = gref.beats((kind_a, pa.size, pa.rank), (kind_b or kind_a, pb.size, pb.rank), level,
                        config.to_dict())
    assert theirs == got, ("reference differs", a, b, level)
    return got


def game(*hands: str, leader: int = 0, level: int = 2, config: RuleConfig = STD,
         previous_order: tuple[int, ...] | None = None) -> Game:
    if previous_order is None:
        return Game(hands=[Cards.parse(h) for h in hands], leader=leader, level=level,
                    config=config)
    return Game(hands=[Cards.parse(h) for h in hands], level=level, config=config,
                previous_order=previous_order)


def refused(g: Game, reason: str, fn, *args, **kw) -> None:
    before = g.copy()
    with pytest.raises(IllegalActionError) as info:
        fn(*args, **kw)
    assert info.value.reason == reason, info.value
    assert isinstance(info.value, ValueError)
    assert g == before


# ============================================================== G1 cards and levels

def test_G1_1_four_hands_of_27_from_two_decks_and_four_jokers():
    # 108 cards (two 52-card decks, two ☆, two ★), 27 to each of four players.
    hands = deal(2024)
    assert [len(h) for h in hands] == [27] * 4
    whole = hands[0] + hands[1] + hands[2] + hands[3]
    assert whole.counts == tuple([2] * 54)


def test_G1_2_card_numbering():
    # original_id: suit id % 4 (♠ ♥ ♣ ♦), rank 2 + id // 4; 52 ☆, 53 ★; card_id adds 54 × deck.
    assert Cards.parse("2s 3h 4c 5d Ad SJ BJ").ids == (0, 5, 10, 15, 51, 52, 53)
    assert Cards.from_card_ids([0, 54]) == Cards.parse("2s 2s")
    assert Cards.from_card_ids([53, 107]) == Cards.parse("BJ BJ")


def test_G1_4_a_match_starts_both_teams_at_two():
    # Both teams start at level 2; the first hand is played at 2.
    m = Match(seed=3)
    assert m.levels == (2, 2) and m.game.level == 2


def test_G1_5_single_card_order_lifts_the_level_rank():
    # 2 .. A, then the level rank out of its place, then ☆, then ★; suits never break ties.
    assert wins("9s", "As", 9, "single")            # level 9: a 9 tops an A
    assert not wins("As", "9c", 9, "single")
    assert wins("SJ", "9s", 9, "single") and wins("BJ", "SJ", 9, "single")
    assert not wins("SJ", "BJ", 9, "single")
    assert wins("2s", "As", 2, "single")            # level 2: the 2 is the top natural card
    assert wins("3s", "2s", 9, "single")            # not the level: the 2 is the lowest
    assert wins("As", "Ks", 14, "single") and wins("SJ", "Ad", 14, "single")


def test_G1_5_suits_never_break_ties():
    # Suits never break a tie: 5♥ and 5♠ are equal, neither beats the other.
    assert not wins("5h", "5s", 9, "single") and not wins("5s", "5h", 9, "single")
    assert not wins("5h 5d", "5s 5c", 9, "pair")


def test_G1_6_a_wild_stands_for_any_natural_card():
    # The level ♥ stands for any card 2..A, even one the play already holds, never a joker.
    assert readings("3s 3d 7h", 7) == {("triple", 3, 3)}
    assert readings("7s 7s 10h", 10) == {("triple", 3, 7)}      # a third 7♠
    assert readings("SJ 7h", 7) == set() and readings("BJ 7h", 7) == set()
    assert readings("3s 3d 7s", 7) == set()                     # 7♠ is no wild
    assert readings("3s 3d 7h", 8) == set()                     # 7♥ is wild only at 7


def test_G1_7_wilds_alone_are_plain_level_cards():
    # A play of wild cards only reads as the ordinary level cards.
    assert readings("7h", 7) == {("single", 1, 7)}
    assert readings("7h 7h", 7) == {("pair", 2, 7)}
    # ... so two wilds beat a pair of A, and lose to a pair of small jokers.
    assert wins("7h 7h", "As Ad", 7, "pair") and wins("SJ SJ", "7h 7h", 7, "pair")


def test_G1_8_bad_cards_and_levels_are_value_errors():
    # A third copy, an unknown card, a level outside 2..A: refused with a ValueError.
    for bad in ("5s 5s 5s", "5x", "1s", "SJ SJ SJ"):
        with pytest.raises(ValueError):
            Cards.parse(bad)
    for level in (1, 15, 0, -2):
        with pytest.raises(ValueError):
            classify("5s", level)


# ============================================================== G2 combinations

def test_G2_1_single_ranks_of_jokers():
    # A single is one card; the jokers rank 15 (☆) and 16 (★).
    assert readings("SJ", 5) == {("single", 1, 15)} and readings("BJ", 5) == {("single", 1, 16)}
    assert readings("Kd", 5) == {("single", 1, 13)}


def test_G2_2_pairs_and_joker_pairs():
    # Two of a rank; jokers pair only with their twin.
    assert readings("8s 8h", 2) == {("pair", 2, 8)}
    assert readings("SJ SJ", 2) == {("pair", 2, 15)} and readings("BJ BJ", 2) == {("pair", 2, 16)}
    assert readings("SJ BJ", 2) == set() and readings("8s 9s", 2) == set()


def test_G2_3_triples_have_no_jokers():
    # Three of a rank, no jokers.
    assert readings("8s 8h 8d", 2) == {("triple", 3, 8)}
    assert readings("SJ SJ 2h", 2) == set()                     # a wild is never a joker


def test_G2_4_full_house_is_ranked_by_its_triple():
    # A triple plus a pair of another rank (the pair may be ☆☆ or ★★), compared by the triple.
    assert readings("4s 4d 4c 9s 9d", 2) == {("full_house", 5, 4)}
    assert readings("4s 4d 4c SJ SJ", 2) == {("full_house", 5, 4)}
    assert readings("4s 4d 4c SJ BJ", 2) == set()
    assert readings("4s 4d 4c 4h 4s", 2) == {("bomb", 5, 4)}    # no pair of another rank
    assert not wins("4s 4d 4c 9s 9d", "4s 4d 4h 8s 8d", 2, "full_house")   # equal triples
    assert wins("5s 5d 5c 3s 3d", "4s 4d 4c As Ad", 2, "full_house")
    assert wins("2s 2d 2c 3s 3d", "As Ad Ac Ks Kd", 2, "full_house")  # level triple on top


def test_G2_5_straight_windows_with_ace_low_and_high():
    # Exactly 5 consecutive natural ranks, no jokers; A2345 .. 10JQKA, no wrap.
    assert readings("As 2d 3c 4s 5d", 9) == {("straight", 5, 5)}
    assert readings("10s Jd Qc Ks Ad", 9) == {("straight", 5, 14)}
    assert readings("Js Qd Kc As 2d", 9) == set()
    assert readings("Ks Ad 2c 3s 4d", 9) == set()
    assert readings("3s 4d 5c 6s", 9) == set()
    assert readings("3s 4d 5c 6s 7d 8c", 9) == set()
    assert readings("3s 4d 5c 6s SJ", 9) == set()
    assert wins("2s 3d 4c 5s 6d", "As 2d 3c 4s 5d", 9, "straight")
    assert wins("10s Jd Qc Ks Ad", "9s 10d Jc Qs Kd", 9, "straight")


def test_G2_6_three_pairs_windows():
    # Exactly three consecutive pairs, AA2233 .. QQKKAA.
    assert readings("As Ad 2s 2d 3s 3d", 9) == {("three_pairs", 6, 3)}
    assert readings("Qs Qd Ks Kd As Ad", 9) == {("three_pairs", 6, 14)}
    assert readings("Ks Kd As Ad 2s 2d", 9) == set()
    assert readings("3s 3d 4s 4d 5s 5d 6s 6d", 9) == set()      # four pairs: nothing
    assert readings("3s 3d 4s 4d", 9) == set()


def test_G2_7_plate_windows():
    # Exactly two consecutive triples, AAA222 .. KKKAAA.
    assert readings("As Ad Ac 2s 2d 2c", 9) == {("plate", 6, 2)}
    assert readings("Ks Kd Kc As Ad Ac", 9) == {("plate", 6, 14)}
    assert readings("3s 3d 3c 4s 4d 4c 5s 5d 5c", 9) == set()
    assert readings("3s 3d 3c 5s 5d 5c", 9) == set()


def test_G2_8_bombs_of_four_to_ten():
    # 4..10 cards of one rank; 9 and 10 need the wilds; the level rank stops at 8.
    eight = "5s 5s 5h 5h 5c 5c 5d 5d"
    assert readings("5s 5d 5c 5h", 9) == {("bomb", 4, 5)}
    assert readings(eight, 9) == {("bomb", 8, 5)}
    assert readings(eight + " 9h", 9) == {("bomb", 9, 5)}
    assert readings(eight + " 9h 9h", 9) == {("bomb", 10, 5)}
    sevens = Cards.parse("7s 7s 7h 7h 7c 7c 7d 7d")
    bombs = {p.size for p in legal_plays(sevens, 7) if p.kind is Kind.BOMB}
    assert bombs == {4, 5, 6, 7, 8}


def test_G2_9_straight_flush_with_and_without_a_wild():
    # A straight in one suit (what the wilds stand for included) is a straight flush.
    assert readings("3s 4s 5s 6s 7s", 9) == {("straight", 5, 7), ("straight_flush", 5, 7)}
    assert readings("3s 4s 9h 6s 7s", 9) == {("straight", 5, 7), ("straight_flush", 5, 7)}
    assert readings("3s 4s 5s 6s 7d", 9) == {("straight", 5, 7)}
    assert readings("As 2s 3s 4s 5s", 9) == {("straight", 5, 5), ("straight_flush", 5, 5)}
    assert readings("10d Jd Qd Kd Ad", 9) == {("straight", 5, 14), ("straight_flush", 5, 14)}


def test_G2_10_joker_bomb_is_all_four_jokers():
    # ☆☆★★ and nothing less, with no wild in it.
    assert {(k, s) for k, s, _ in readings("SJ SJ BJ BJ", 7)} == {("joker_bomb", 4)}
    assert readings("SJ SJ BJ 7h", 7) == set() and readings("SJ BJ BJ", 7) == set()


def test_G2_11_nothing_else_is_a_play():
    # Two pairs, a triple with a single, four consecutive pairs, three triples: no plays.
    for cards in ("3s 3d 4s 4d", "3s 3d 3c 5s", "3s 3d 3c 5s 6s", "3s 4s", "3s 4s 5s",
                  "3s 4d 5c 6s", "SJ 3s"):
        assert readings(cards, 9) == set(), cards


def test_G2_12_level_rank_keeps_its_natural_place_in_runs():
    # In straights, three pairs, plates and straight flushes the level rank is an ordinary link.
    assert readings("5s 6d 7c 8s 9d", 7) == {("straight", 5, 9)}
    assert readings("3s 3d 4s 4d 5s 5d", 4) == {("three_pairs", 6, 5)}
    assert readings("4s 4d 4c 5s 5d 5c", 4) == {("plate", 6, 5)}
    assert readings("As 2d 3c 4s 5d", 5) == {("straight", 5, 5)}
    assert readings("10s Jd Qc Ks Ad", 12) == {("straight", 5, 14)}


def test_G2_13_a_wild_fills_every_kind_but_the_joker_ones():
    # At level 10 the 10♥ may stand in any kind; jokers in a play are always real jokers.
    assert readings("3s 10h", 10) == {("pair", 2, 3)}
    assert readings("3s 3d 10h", 10) == {("triple", 3, 3)}
    assert readings("3s 3d 10h 9s 9d", 10) == {("full_house", 5, 3), ("full_house", 5, 9)}
    assert readings("3s 3d 3c 9s 10h", 10) == {("full_house", 5, 3)}
    assert readings("3s 4d 10h 6c 7s", 10) == {("straight", 5, 7)}
    assert readings("As Ad 2s 2d 3s 10h", 10) == {("three_pairs", 6, 3)}
    assert readings("As Ad Ac 2s 2d 10h", 10) == {("plate", 6, 2)}
    assert readings("9s 9d 10h 10h", 10) == {("bomb", 4, 9)}
    assert readings("3s 4s 10h 6s 7s", 10) == {("straight", 5, 7), ("straight_flush", 5, 7)}
    assert readings("4s 4d 4c SJ 10h", 10) == set()
    assert readings("SJ 10h", 10) == set()


def test_G2_14_every_reading_is_listed_and_the_player_chooses():
    # 3 4 5 6 W tops at 6 or 7; 7 7 7 W W is a full house and a 5-card bomb; a one-suit
    # straight reads as both straight and straight flush.
    assert readings("3s 4d 5c 6s 10h", 10) == {("straight", 5, 6), ("straight", 5, 7)}
    assert readings("3s 4s 5s 6s 10h", 10) == {("straight", 5, 6), ("straight", 5, 7),
                                               ("straight_flush", 5, 6),
                                               ("straight_flush", 5, 7)}
    assert readings("7s 7d 7c 10h 10h", 10) == {("full_house", 5, 7), ("bomb", 5, 7)}
    listed = {(p.kind, p.rank) for p in legal_plays("3s 4s 5s 6s 7s", 9) if p.size == 5}
    assert listed == {(Kind.STRAIGHT, 7), (Kind.STRAIGHT_FLUSH, 7)}


def test_G2_14_playing_a_chosen_reading():
    # The player picks the reading: the same five cards as a straight or as a straight flush.
    g = game("3s 4s 5s 6s 7s 9d", "8s", "8d", "8c", level=9)
    g.play("3s 4s 5s 6s 7s", reading=Kind.STRAIGHT)
    assert g.pile.kind is Kind.STRAIGHT
    g2 = game("3s 4s 5s 6s 7s 9d", "8s", "8d", "8c", level=9)
    g2.play("3s 4s 5s 6s 7s", reading=Kind.STRAIGHT_FLUSH)
    assert g2.pile.kind is Kind.STRAIGHT_FLUSH


def test_G2_15_legal_plays_are_distinct_cards_and_readings():
    # One play per (cards, reading); which natural card a wild copies makes no other play.
    # 3♠ 4♦ 5♣ W W at level 10: singles 3 4 5 W; pairs 3W 4W 5W WW; triples 3WW 4WW 5WW;
    # straights A2345, 23456, 34567 (no flush, no bomb, no full house): 14.
    hand = "3s 4d 5c 10h 10h"
    assert count_legal_plays(hand, 10) == 14 == len(legal_plays(hand, 10))
    straights = sorted(p.rank for p in legal_plays(hand, 10) if p.kind is Kind.STRAIGHT)
    assert straights == [5, 6, 7]


def test_G2_15_legal_plays_on_a_pile_only_list_what_beats_it():
    # On a pile the legal plays are the readings that beat it.
    pile = read("As", 2, "single")
    got = {(str(p.cards), p.kind) for p in legal_plays("Ks 2d 3s SJ", 2, pile)}
    assert got == {("2♦", Kind.SINGLE), ("☆", Kind.SINGLE)}


# ============================================================== G3 beating

def test_G3_1_same_kind_same_size_strictly_higher():
    # Outside bombs: same kind, same size, strictly higher; equal never beats.
    assert not wins("5s 5d", "5c", 9, "pair", "single")
    assert not wins("Qs Qd Ks Kd As Ad", "As Ad Ac 2s 2d 2c", 9, "three_pairs", "plate")
    assert not wins("As Ad Ac 2s 2d 2c", "Qs Qd Ks Kd As Ad", 9, "plate", "three_pairs")
    assert not wins("3s 4d 5c 6s 7d", "3d 4s 5s 6c 7c", 9, "straight")
    assert wins("4s 4d 5s 5d 6s 6d", "3s 3d 4c 4c 5c 5c", 9, "three_pairs")


def test_G3_2_level_cards_top_aces_in_every_ranked_kind():
    # Singles, pairs, triples, full houses by the single-card order: level over A.
    assert wins("7s 7d", "As Ad", 7, "pair")
    assert wins("7s 7d 7c", "As Ad Ac", 7, "triple")
    assert wins("7s 7d 7c 3s 3d", "As Ad Ac Ks Kd", 7, "full_house")
    assert wins("BJ BJ", "SJ SJ", 7, "pair") and wins("SJ SJ", "7s 7d", 7, "pair")


def test_G3_3_runs_compare_by_natural_window():
    # Runs compare by their top card's natural rank; the level is not lifted there.
    assert wins("10s Jd Qc Ks Ad", "2s 3d 4c 5s 6d", 6, "straight")
    assert not wins("2s 3d 4c 5s 6d", "10s Jd Qc Ks Ad", 6, "straight")
    assert wins("2s 2d 3s 3d 4s 4d", "As Ad 2c 2c 3c 3c", 2, "three_pairs")
    assert wins("Ks Kd Kc As Ad Ac", "Qs Qd Qc Ks Kd Kc", 13, "plate")


def test_G3_4_bombs_beat_every_non_bomb_and_nothing_else_beats_a_bomb():
    # Every bomb beats every non-bomb; no non-bomb beats a bomb.
    bomb = read("3s 3d 3c 3h", 9, "bomb")
    for cards, kind in (("10s Jd Qc Ks Ad", "straight"), ("BJ", "single"), ("BJ BJ", "pair"),
                        ("Ks Kd Kc As Ad Ac", "plate"), ("9s 9d 9c SJ SJ", "full_house")):
        other = read(cards, 9, kind)
        assert beats(bomb, other) and not beats(other, bomb), cards


def test_G3_5_bomb_order_by_count():
    # 4 < 5 < straight flush < 6 < 7 < 8 < 9 < 10 < joker bomb; same size by rank.
    lv = 9
    four_a = read("As Ad Ac As", lv, "bomb")
    five_3 = read("3s 3d 3c 3s 3d", lv, "bomb")
    sf_low = read("As 2s 3s 4s 5s", lv, "straight_flush")
    sf_top = read("10d Jd Qd Kd Ad", lv, "straight_flush")
    six_3 = read("3s 3d 3c 3h 3s 3d", lv, "bomb")
    seven = read("4s 4s 4d 4d 4c 4c 4h", lv, "bomb")
    eight = read("4s 4s 4d 4d 4c 4c 4h 4h", lv, "bomb")
    nine = read("3s 3s 3d 3d 3c 3c 3h 3h 9h", lv, "bomb")
    ten = read("3s 3s 3d 3d 3c 3c 3h 3h 9h 9h", lv, "bomb")
    jokers = read("SJ SJ BJ BJ", lv, "joker_bomb")
    ladder = [four_a, five_3, sf_low, sf_top, six_3, seven, eight, nine, ten, jokers]
    for i, low in enumerate(ladder):
        for high in ladder[i + 1:]:
            assert beats(high, low) and not beats(low, high), (high, low)
    sf_five_a = read("As Ad Ac As Ad", lv, "bomb")
    assert beats(sf_low, sf_five_a)                  # any straight flush over any 5-card bomb


def test_G3_5_same_size_bombs_by_rank_level_over_ace():
    # Same size compares in the single-card order: a level-rank bomb beats an A bomb.
    assert wins("Ks Kd Kc Kd", "Qs Qd Qc Qd", 9, "bomb")
    assert wins("9s 9d 9c 9s", "As Ad Ac As", 9, "bomb")
    assert not wins("As Ad Ac As", "9s 9d 9c 9s", 9, "bomb")


def test_G3_5_straight_flushes_by_window_suits_never_count():
    # Straight flushes compare by their top card; two of the same window are equal.
    assert wins("2s 3s 4s 5s 6s", "As 2s 3s 4s 5s", 9, "straight_flush")
    assert not wins("3d 4d 5d 6d 7d", "3s 4s 5s 6s 7s", 9, "straight_flush")
    assert not wins("3s 4s 5s 6s 7s", "3d 4d 5d 6d 7d", 9, "straight_flush")


def test_G3_6_joker_bomb_is_never_beaten():
    # The joker bomb beats everything, and nothing beats it.
    jokers = read("SJ SJ BJ BJ", 2, "joker_bomb")
    everything = "3s 3s 3d 3d 3c 3c 3h 3h 2h 2h 4s 5s 6s 7s 8s"
    assert legal_plays(everything, 2, jokers) == ()
    assert beats(jokers, read("3s 3s 3d 3d 3c 3c 3h 3h 2h 2h", 2, "bomb"))


# ============================================================== G4 options

def test_G4_1_standard_defaults():
    # standard(): the default of every field.
    c = RuleConfig.standard()
    assert c == RuleConfig()
    assert (c.same_suit_straight_beats_bomb, c.double_down_levels, c.can_tribute_wild,
            c.tribute_return_max_rank, c.straight_extends_to_ace, c.bomb_compare_priority,
            c.wild_count, c.team_formation) == (True, 3, False, 10, True, BombOrder.BY_COUNT, 2,
                                                TeamFormation.FIXED_1_3)
    with pytest.raises(ValueError):
        RuleConfig(wild_count=1)


def test_G4_2_no_straight_flush_when_one_suit_straights_are_plain():
    # False: a one-suit straight is an ordinary straight; there is no straight-flush bomb.
    cfg = RuleConfig(same_suit_straight_beats_bomb=False)
    assert readings("3s 4s 5s 6s 7s", 9, cfg) == {("straight", 5, 7)}
    flush = read("3s 4s 5s 6s 7s", 9, "straight", cfg)
    assert beats(read("4s 4d 4c 4h", 9, "bomb", cfg), flush, cfg)


def test_G4_3_ace_may_not_top_a_straight():
    # False: no 10JQKA straight or straight flush; A2345 stays; three pairs and plates untouched.
    cfg = RuleConfig(straight_extends_to_ace=False)
    assert readings("10s Jd Qc Ks Ad", 9, cfg) == set()
    assert readings("10s Js Qs Ks As", 9, cfg) == set()
    assert readings("As 2d 3c 4s 5d", 9, cfg) == {("straight", 5, 5)}
    assert readings("Qs Qd Ks Kd As Ad", 9, cfg) == {("three_pairs", 6, 14)}
    assert readings("Ks Kd Kc As Ad Ac", 9, cfg) == {("plate", 6, 14)}
    assert readings("10d Jc Qs Ks 9h", 9, cfg) == {("straight", 5, 13)}
    assert readings("10d Jc Qs Ks 9h", 9) == {("straight", 5, 13), ("straight", 5, 14)}


def test_G4_4_bombs_by_rank_first():
    # BY_RANK: rank first, then size; a straight flush is 5½ cards ranked by its natural top.
    def w(a: str, ka: str, b: str, kb: str, level: int = 9) -> bool:
        return wins(a, b, level, ka, kb, BY_RANK)
    assert w("4s 4d 4c 4s", "bomb", "3s 3d 3c 3s 3d 3c", "bomb")       # 4×4 over 6×3
    assert not w("3s 3d 3c 3s 3d 3c", "bomb", "4s 4d 4c 4s", "bomb")
    assert w("4s 4d 4c 4s 4d", "bomb", "4s 4d 4c 4h", "bomb")          # same rank: size
    sf_a = "10d Jd Qd Kd Ad"
    assert w(sf_a, "straight_flush", "As Ad Ac As Ad", "bomb")         # 5½ over 5 of A
    assert not w(sf_a, "straight_flush", "As Ad Ac As Ad Ac", "bomb")  # under 6 of A
    assert w(sf_a, "straight_flush", "Ks Kd Kc Ks Kd Kc Kh", "bomb")   # A over K, any size
    assert w("9s 9d 9c 9s", "bomb", sf_a, "straight_flush")            # level rank is lifted
    assert w("As 2s 3s 4s 5s", "straight_flush", "4s 4d 4c 4h 4s 4d", "bomb")   # 5 over 4
    assert not w("As 2s 3s 4s 5s", "straight_flush", "6s 6d 6c 6h", "bomb")
    assert w("SJ SJ BJ BJ", "joker_bomb", "As As Ad Ad Ac Ac Ah Ah 9h 9h", "bomb")


def test_G4_5_no_wilds_when_wild_count_is_zero():
    # 0: the level hearts are ordinary level cards (still high as singles).
    cfg = RuleConfig(wild_count=0)
    assert readings("3s 3d 7h", 7, cfg) == set()
    assert readings("3s 4d 7h 6c 7s", 7, cfg) == set()
    assert wins("7h", "As", 7, "single", config=cfg)
    assert readings("7h 7h", 7, cfg) == {("pair", 2, 7)}


def test_G4_6_double_down_levels_is_the_first_and_second_gain():
    # The partners finishing 1st and 2nd gain double_down_levels.
    cfg = RuleConfig(double_down_levels=4)
    assert settle((2, 2), (0, 0), None, (0, 2, 1, 3), FIXED, cfg)[0] == (6, 2)
    assert settle((2, 2), (0, 0), None, (0, 1, 2, 3), FIXED, cfg)[0] == (4, 2)


def test_G4_7_can_tribute_wild():
    # True: a wild may be given as tribute, so a wild above the payer's other cards is owed.
    hands = ("6s 6d", "3d", "4d", "5h 4c As")                       # level 5: 5♥ is wild
    plain = game(*hands, level=5, previous_order=(0, 1, 2, 3))
    refused(plain, "INVALID_TRIBUTE", plain.give_tribute, "5h", seat=3)
    plain.give_tribute("As", seat=3)
    wild = game(*hands, level=5, config=RuleConfig(can_tribute_wild=True),
                previous_order=(0, 1, 2, 3))
    refused(wild, "INVALID_TRIBUTE", wild.give_tribute, "As", seat=3)
    wild.give_tribute("5h", seat=3)


def test_G4_8_tribute_return_max_rank():
    # The return is a non-level card of natural rank 2 .. tribute_return_max_rank.
    hands = ("Qs Ks", "3d", "4d", "As 4c")
    g = game(*hands, level=5, previous_order=(0, 1, 2, 3))
    g.give_tribute("As", seat=3)
    refused(g, "INVALID_TRIBUTE", g.return_tribute, "Ks", seat=0)     # no card <= 10: lowest
    g.return_tribute("Qs", seat=0)
    g12 = game(*hands, level=5, config=RuleConfig(tribute_return_max_rank=12),
               previous_order=(0, 1, 2, 3))
    g12.give_tribute("As", seat=3)
    refused(g12, "INVALID_TRIBUTE", g12.return_tribute, "Ks", seat=0)
    refused(g12, "INVALID_TRIBUTE", g12.return_tribute, "As", seat=0)
    g12.return_tribute("Qs", seat=0)


def test_G4_9_random_teams_from_the_match_seed():
    # RANDOM: partners drawn from the match seed; FIXED_1_3: 0+2 against 1+3.
    cfg = RuleConfig(team_formation=TeamFormation.RANDOM)
    drawn = [Match(seed=s, config=cfg).teams for s in range(30)]
    assert drawn == [Match(seed=s, config=cfg).teams for s in range(30)]
    for teams in drawn:
        assert sorted(teams[0] + teams[1]) == [0, 1, 2, 3] and len(teams[0]) == 2
    assert len(set(drawn)) > 1
    assert Match(seed=1).teams == FIXED


def test_G4_10_failed_attempts_limit():
    # After the limit of failed attempts at A the team drops to 2; 0 means no limit.
    lose = (1, 3, 0, 2)                              # team 1 first and second
    assert settle((14, 9), (2, 0), 0, lose, FIXED, STD)[:2] == ((2, 12), (0, 0))
    no_limit = RuleConfig(failed_attempts_limit=0)
    assert settle((14, 9), (7, 0), 0, lose, FIXED, no_limit)[:2] == ((14, 12), (8, 0))
    one = RuleConfig(failed_attempts_limit=1)
    assert settle((14, 9), (0, 0), 0, lose, FIXED, one)[:2] == ((2, 12), (0, 0))


def test_G4_11_huaian_preset():
    # huaian() = standard with no straight-flush bomb and no ace-topped straight.
    h = RuleConfig.huaian()
    assert h == RuleConfig(same_suit_straight_beats_bomb=False, straight_extends_to_ace=False)
    assert readings("10s Js Qs Ks As", 9, h) == set()
    assert readings("9s 10s Js Qs Ks", 9, h) == {("straight", 5, 13)}


# ============================================================== G5 a hand

def test_G5_1_the_seed_fixes_the_deal():
    # 27 each from a shuffle fixed by the seed.
    assert Game(seed=77).initial_hands == Game(seed=77).initial_hands == deal(77)
    assert Game(seed=77).initial_hands != Game(seed=78).initial_hands


def test_G5_2_first_lead_is_drawn_from_the_match_seed():
    # The first hand is led by a seat drawn from the match seed.
    leaders = [Match(seed=s).game.turn for s in range(40)]
    assert leaders == [Match(seed=s).game.turn for s in range(40)]
    assert set(leaders) == {0, 1, 2, 3}
    assert all(Match(seed=s).game.tributes == () for s in range(5))


def test_G5_3_turns_go_up_by_seat_skipping_players_out():
    # Increasing seat number modulo 4, skipping seats that are out.
    g = game("5s 9s", "3s", "6s 9d", "7s 9c", leader=1)
    g.play("3s")                                     # seat 1 goes out
    assert g.turn == 2
    g.play("6s")
    assert g.turn == 3
    g.play("7s")
    assert g.turn == 0
    g.pass_turn()
    assert g.turn == 2                               # seat 1 is skipped


def test_G5_4_passing_does_not_lock_a_player_out():
    # A player who passed may play again when the turn comes back in the same trick.
    g = game("3s 7s 9s", "8s 10s", "5s 6s", "4s Js", leader=0)
    g.play("3s")
    g.pass_turn()                                    # seat 1 passes on 3♠
    g.play("5s")
    g.pass_turn()
    g.play("7s")
    assert g.turn == 1 and g.can_play("8s")
    g.play("8s")
    assert g.pile_owner == 1


def test_G5_5_trick_ends_when_all_others_pass():
    # Every other seat still holding cards passes in a row: the last player leads anew.
    g = game("3s 9s", "4s 10s", "5s Js", "6s Qs", leader=0)
    g.play("9s")
    g.pass_turn()
    g.play("Js")
    g.pass_turn()
    g.pass_turn()
    assert g.pile is not None
    g.pass_turn()
    assert g.turn == 2 and g.pile is None
    refused(g, "CANNOT_PASS", g.pass_turn)


def test_G5_6_partner_takes_the_wind():
    # A player goes out, every seat still holding cards passes: the partner leads.
    g = game("3s", "4s 9d", "5s 9c", "6s 9s", leader=0)
    g.play("3s")
    for _ in range(3):
        g.pass_turn()
    assert g.finished == (0,) and g.turn == 2 and g.pile is None


def test_G5_6_taking_the_wind_after_going_out_on_a_bomb():
    # The same after a player goes out on a bomb.
    g = game("3s 3d 3c 3h", "4s 9d", "5s 9c", "6s 9s", leader=0)
    g.play("3s 3d 3c 3h")
    for _ in range(3):
        g.pass_turn()
    assert g.turn == 2 and g.pile is None


def test_G5_6_no_wind_when_another_player_beats_the_last_card():
    # If someone beats the out player's last play, the trick goes on as usual.
    g = game("3s", "4s 9d", "5s 9c", "6s 9s", leader=0)
    g.play("3s")
    g.play("4s")
    g.pass_turn()
    g.pass_turn()
    assert g.turn == 1 and g.pile is None


def test_G5_6_wind_passes_over_the_partner_passing_too():
    # Seat 3 goes out, the partner (seat 1) passes with everyone: seat 1 still leads.
    g = game("4s 9d", "5s 9c", "6s 9s", "3s", leader=3)
    g.play("3s")
    g.pass_turn()                                    # seat 0
    g.pass_turn()                                    # seat 1, the partner
    g.pass_turn()                                    # seat 2
    assert g.turn == 1 and g.pile is None


def test_G5_7_hand_ends_when_both_partners_are_out():
    # The hand is over the moment both players of a team are out, others still holding cards.
    g = game("3s", "4s 4d", "5s", "6s 6d", leader=0)
    g.play("3s")                                     # seat 0 out
    g.play("4s")
    g.play("5s")                                     # seat 2 out: team 0+2 done
    assert g.is_over and g.turn is None
    assert g.places[:2] == (0, 2) and set(g.places[2:]) == {1, 3}
    refused(g, "GAME_OVER", g.pass_turn)


def test_G5_7_end_check_comes_before_the_wind():
    # Seat 0 goes out, the partner is already out: the hand ends, no one takes the wind.
    g = game("3s 9d", "4s Qd", "5s", "6s Qc", leader=2)
    g.play("5s")                                     # seat 2 out
    g.pass_turn()                                    # seat 3
    g.pass_turn()                                    # seat 0
    g.pass_turn()                                    # seat 1 -> seat 0 takes the wind
    assert g.turn == 0 and g.pile is None
    g.play("3s")
    g.play("4s")
    g.pass_turn()                                    # seat 3 (seat 2 is out)
    g.play("9d")                                     # seat 0 out: both of team 0+2
    assert g.is_over and g.places[:2] == (2, 0)


def test_G5_8_places_in_order_out_with_the_rest_after():
    # Places follow the order of going out; those still holding share the rest.
    g = game("3s", "4s", "5s", "6s 7s", leader=0)
    g.play("3s")
    g.play("4s")
    g.play("5s")                                     # seats 0, 1, 2 out; team 0+2 done
    assert g.is_over and g.places == (0, 1, 2, 3)


# ============================================================== G6 tribute

def test_G6_1_no_tribute_in_the_first_hand():
    # The first hand of a match has no tribute.
    m = Match(seed=12)
    assert m.game.phase == "play" and m.game.tributes == ()


def test_G6_2_single_tribute_after_first_and_third():
    # 1st+3rd: the last player pays the first out, who returns; the payer leads.
    g = game("6s 7s Jd", "3d 4d", "8c", "3s 9c Kd", level=5, previous_order=(0, 3, 2, 1))
    assert g.phase == "tribute" and g.turn == 1 and [t.payer for t in g.tributes] == [1]
    g.give_tribute("4d", seat=1)
    g.return_tribute("6s", seat=0)
    assert g.phase == "play" and g.turn == 1
    assert g.hand(1) == Cards.parse("3d 6s") and g.hand(0) == Cards.parse("4d 7s Jd")


def test_G6_2_single_tribute_after_first_and_fourth():
    # 1st+4th (the last is the first out's partner): the third player pays.
    g = game("6s 7s", "3d 4d", "8c", "3s 9c Kd", level=5, previous_order=(0, 1, 3, 2))
    assert [t.payer for t in g.tributes] == [3] and g.turn == 3
    g.give_tribute("Kd", seat=3)
    assert g.tributes[0].receiver == 0
    g.return_tribute("7s", seat=0)
    assert g.turn == 3 and g.hand(3) == Cards.parse("3s 7s 9c")


def test_G6_3_the_tribute_is_the_highest_card_level_and_jokers_first():
    # The payer gives their highest card in the single-card order; wilds only if allowed.
    g = game("6s 7s", "3d", "8c", "As 5d 4c", level=5, previous_order=(0, 1, 2, 3))
    refused(g, "INVALID_TRIBUTE", g.give_tribute, "As", seat=3)       # 5♦ is the level card
    refused(g, "CARD_NOT_FOUND", g.give_tribute, "SJ", seat=3)
    g.give_tribute("5d", seat=3)
    j = game("6s 7s", "3d", "8c", "SJ 5d 5h", level=5, previous_order=(0, 1, 2, 3))
    refused(j, "INVALID_TRIBUTE", j.give_tribute, "5d", seat=3)
    j.give_tribute("SJ", seat=3)
    w = game("6s 7s", "3d", "8c", "5h 5s Ad", level=5, previous_order=(0, 1, 2, 3))
    w.give_tribute("5s", seat=3)                                     # not the wild 5♥


def test_G6_4_return_rules_and_lowest_card_fallback():
    # A non-level card of rank 2..10; holding none, the lowest card (single-card order).
    g = game("2s Js Qs", "3d", "8c", "Ad 4c", level=2, previous_order=(0, 1, 2, 3))
    g.give_tribute("Ad", seat=3)
    # Seat 0 holds 2♠ (the level rank), J♠, Q♠, A♦: no qualifying card; lowest is the J♠.
    refused(g, "INVALID_TRIBUTE", g.return_tribute, "2s", seat=0)
    refused(g, "INVALID_TRIBUTE", g.return_tribute, "Qs", seat=0)
    g.return_tribute("Js", seat=0)
    assert g.hand(3) == Cards.parse("4c Js")


def act_in_turn(g: Game, action: str, cards: dict[int, str]) -> None:
    """Give (or return) each seat's card, in whatever order the game asks for them."""
    pending = dict(cards)
    while pending:
        seat = g.turn
        assert seat in pending, (seat, pending)
        getattr(g, action)(pending.pop(seat), seat=seat)


def test_G6_5_double_tribute_higher_card_to_the_first_out():
    # 3rd+4th both pay: the higher tribute to the first out, the other to the second.
    g = game("6s 7s", "Ks 4d", "8c 9c", "As 4c", level=5, previous_order=(0, 2, 1, 3))
    assert sorted(t.payer for t in g.tributes) == [1, 3]
    first = g.turn
    g.give_tribute("Ks" if first == 1 else "As", seat=first)
    refused(g, "STATE_CONFLICT", g.return_tribute, "6s", seat=0)     # every tribute first
    act_in_turn(g, "give_tribute", {4 - first: "As" if first == 1 else "Ks"})
    assert {t.payer: t.receiver for t in g.tributes} == {3: 0, 1: 2}
    act_in_turn(g, "return_tribute", {0: "6s", 2: "8c"})
    assert g.phase == "play" and g.turn == 3                         # the payer to the first out
    assert g.hand(3) == Cards.parse("4c 6s") and g.hand(1) == Cards.parse("4d 8c")


def test_G6_5_equal_double_tribute_goes_round_from_after_the_first_out():
    # Equal tributes: round from the seat after the first out; the first payer met pays
    # the first out and leads. First out seat 2: seat 3 comes before seat 1.
    g = game("6s 7s", "As 4d", "8c 9c", "Ad 4c", level=5, previous_order=(2, 0, 3, 1))
    act_in_turn(g, "give_tribute", {3: "Ad", 1: "As"})
    assert {t.payer: t.receiver for t in g.tributes} == {3: 2, 1: 0}
    act_in_turn(g, "return_tribute", {2: "8c", 0: "6s"})
    assert g.phase == "play" and g.turn == 3
    assert g.hand(3) == Cards.parse("4c 8c") and g.hand(1) == Cards.parse("4d 6s")


def test_G6_6_anti_tribute_one_payer_with_both_big_jokers():
    # No tribute when the payer holds both big jokers; the previous first out leads.
    g = game("6s 7s", "3d", "BJ BJ 4c", "8c", level=5, previous_order=(1, 0, 3, 2))
    assert g.anti_tribute and g.phase == "play" and g.turn == 1 and g.tributes == ()


def test_G6_6_anti_tribute_two_payers_one_each():
    # Double tribute refused when each payer holds one big joker.
    g = game("6s 7s", "BJ 4d", "8c", "BJ 4c", level=5, previous_order=(0, 2, 1, 3))
    assert g.anti_tribute and g.turn == 0


def test_G6_6_only_the_payers_big_jokers_count():
    # A big joker held by a receiver or by the payer's non-paying partner does not count.
    g = game("BJ 7s", "3d", "8c", "BJ 4c", level=5, previous_order=(0, 1, 2, 3))
    assert not g.anti_tribute and g.phase == "tribute"
    g.give_tribute("BJ", seat=3)
    h = game("6s 7s", "BJ 3d", "8c", "BJ 4c", level=5, previous_order=(0, 1, 2, 3))
    assert not h.anti_tribute and [t.payer for t in h.tributes] == [3]


def test_G6_8_the_tribute_card_itself_may_go_back():
    # The receiver chooses after the tribute arrives: the tribute may return if it qualifies.
    g = game("Js Qs", "3d", "8c", "9d 3c", level=5, previous_order=(0, 1, 2, 3))
    g.give_tribute("9d", seat=3)
    g.return_tribute("9d", seat=0)
    assert g.hand(3) == Cards.parse("3c 9d") and g.hand(0) == Cards.parse("Js Qs")


def test_G6_9_tribute_actions_are_in_the_history_and_checked():
    # Tribute and return are recorded actions; a wrong card is refused and changes nothing.
    g = game("6s 7s", "3d", "8c", "As 4c", level=5, previous_order=(0, 1, 2, 3))
    refused(g, "INVALID_TRIBUTE", g.give_tribute, "4c", seat=3)
    refused(g, "NOT_YOUR_TURN", g.give_tribute, "8c", seat=2)
    refused(g, "STATE_CONFLICT", g.play, "4c")
    g.give_tribute("As", seat=3)
    g.return_tribute("7s", seat=0)
    assert [(a.seat, a.action) for a in g.history] == [(3, "give_tribute"),
                                                        (0, "return_tribute")]


# ============================================================== G7 levels

def test_G7_1_level_gain_by_the_partners_place():
    # The first out's team gains 3 / 2 / 1 when the partner is 2nd / 3rd / 4th.
    assert settle((2, 2), (0, 0), None, (0, 2, 1, 3), FIXED, STD)[0] == (5, 2)
    assert settle((2, 2), (0, 0), None, (0, 1, 2, 3), FIXED, STD)[0] == (4, 2)
    assert settle((2, 2), (0, 0), None, (0, 1, 3, 2), FIXED, STD)[0] == (3, 2)
    assert settle((4, 2), (0, 0), 0, (3, 1, 0, 2), FIXED, STD)[0] == (4, 5)


def test_G7_2_never_past_ace():
    # Levels stop at A.
    assert settle((13, 2), (0, 0), 0, (0, 2, 1, 3), FIXED, STD)[0] == (14, 2)
    assert settle((12, 2), (0, 0), 0, (2, 1, 0, 3), FIXED, STD)[0] == (14, 2)


def test_G7_3_winning_at_ace():
    # At its own A a team wins the match with 1st+2nd or 1st+3rd, not with 1st+4th.
    assert settle((14, 9), (0, 0), 0, (0, 2, 1, 3), FIXED, STD)[2] is True
    assert settle((14, 9), (0, 0), 0, (2, 1, 0, 3), FIXED, STD)[2] is True
    levels, failed, won, _ = settle((14, 9), (0, 0), 0, (0, 1, 3, 2), FIXED, STD)
    assert not won and levels == (14, 9) and failed == (1, 0)


def test_G7_4_failed_attempts_then_back_to_two():
    # A hand at its A not won that way is a failed attempt; at the limit (3) back to 2.
    state = ((14, 9), (0, 0))
    for expect in ((1, 0), (2, 0)):
        levels, failed, won, _ = settle(*state, 0, (1, 0, 2, 3), FIXED, STD)   # team 1: +1
        assert not won and failed == expect and levels[0] == 14
        state = ((14, 9), failed)
    levels, failed, won, _ = settle(*state, 0, (0, 1, 3, 2), FIXED, STD)      # 3rd failure
    assert not won and levels == (2, 9) and failed == (0, 0)


def test_G7_5_only_the_declarers_ace_counts():
    # A team at A winning the other team's hand wins no match and counts no attempt.
    levels, failed, won, _ = settle((14, 9), (1, 0), 1, (0, 2, 1, 3), FIXED, STD)
    assert not won and levels == (14, 9) and failed == (1, 0)
    # The other team failing at its own A is its attempt, not ours.
    levels, failed, won, _ = settle((14, 14), (0, 0), 1, (0, 2, 1, 3), FIXED, STD)
    assert not won and failed == (0, 1)


def test_G7_6_gain_first_then_the_drop():
    # Gains (capped at A) apply first, then a team at its limit drops to 2.
    levels, failed, won, gain = settle((14, 9), (2, 0), 0, (0, 3, 1, 2), FIXED, STD)
    assert gain == 1 and levels == (2, 9) and failed == (0, 0) and not won


def test_G7_2_next_hand_played_at_the_winners_level():
    # The next hand is played at the level of the team that won the hand.
    m = Match(seed=21)
    while m.hand_number == 0:
        g = m.game
        m.apply_unchecked(g.legal_plays()[0] if not g.can_pass() else None)
    first = m.results[0]
    winners = m.teams[first.winner]
    assert first.places[0] in winners
    assert m.declarer == first.winner and m.game.level == m.levels[first.winner]
    assert m.levels[1 - first.winner] == 2 and m.levels[first.winner] > 2


# ============================================================== G8 errors

def test_G8_1_reasons_and_G8_2_nothing_changes():
    # Each refused action carries one of the plan's reasons and changes nothing.
    g = game("3s 3d 5c", "4s 9d", "5s 9c", "6s 9s", leader=0)
    refused(g, "NOT_YOUR_TURN", g.play, "4s", seat=1)
    refused(g, "CANNOT_PASS", g.pass_turn)
    refused(g, "CARD_NOT_FOUND", g.play, "Ks")
    refused(g, "INVALID_CARDS", g.play, "3s 5c")
    g.play("3s 3d")
    refused(g, "INVALID_CARDS", g.play, "4s")                      # a single on a pair
    g.pass_turn()
    g.pass_turn()
    g.pass_turn()
    g.play("5c")                                                   # seat 0 goes out
    refused(g, "HAND_EMPTY", g.pass_turn, seat=0)


# ============================================================== more wild-card corners

def test_G2_13_two_wilds_in_runs_and_plates():
    # Two wilds may fill two places: 3 3 4 4 W W reads as 223344, 334455, or 333444.
    assert readings("3s 3d 4s 4d 10h 10h", 10) == {("three_pairs", 6, 4), ("three_pairs", 6, 5),
                                                   ("plate", 6, 4)}
    # 3♠ 4♠ 5♠ W W: A2345, 23456, 34567, each also a straight flush in spades.
    assert readings("3s 4s 5s 7h 7h", 7) == {(k, 5, r) for k in ("straight", "straight_flush")
                                             for r in (5, 6, 7)}
    # 3 W W + 9 9: a triple of 3s with a pair of 9s, or 9 9 W with 3 W.
    assert readings("3s 10h 10h 9s 9d", 10) == {("full_house", 5, 3), ("full_house", 5, 9)}
    assert readings("As Ad 2s 3s 3d 10h", 10) == {("three_pairs", 6, 3)}


def test_G2_13_a_wild_may_be_its_own_natural_heart():
    # At level 7 the 7♥ may stand for the 7♥ itself, or for the 2♥ below the run.
    assert readings("3h 4h 5h 6h 7h", 7) == {(k, 5, r) for k in ("straight", "straight_flush")
                                             for r in (6, 7)}
    assert readings("7s 7h", 7) == {("pair", 2, 7)}
    assert readings("7s 7d 7c 7h", 7) == {("bomb", 4, 7)}


def test_G3_3_a_run_topped_by_the_level_rank_is_not_lifted():
    # At level 9, 5-9 is still below 6-10 (straights and straight flushes alike).
    assert wins("6s 7d 8c 9s 10d", "5s 6d 7c 8s 9d", 9, "straight")
    assert not wins("5s 6d 7c 8s 9d", "6s 7d 8c 9s 10d", 9, "straight")
    assert wins("6s 7s 8s 9s 10s", "5d 6d 7d 8d 9d", 9, "straight_flush")


def test_G4_4_by_rank_straight_flush_topped_by_the_level_is_not_lifted():
    # BY_RANK: the straight flush's rank is its natural top (9 here), below a 4-card A bomb.
    assert wins("As Ad Ac As", "5d 6d 7d 8d 9d", 9, "bomb", "straight_flush", BY_RANK)
    assert not wins("5d 6d 7d 8d 9d", "As Ad Ac As", 9, "straight_flush", "bomb", BY_RANK)


def test_G6_6_anti_tribute_one_of_two_payers_with_both():
    # Double tribute refused when one of the two payers holds both big jokers.
    g = game("6s 7s", "BJ BJ 4d", "8c", "Kc 4c", level=5, previous_order=(0, 2, 1, 3))
    assert g.anti_tribute and g.phase == "play" and g.turn == 0


def test_G6_4_level_rank_cards_never_go_back():
    # A level-rank card is no return even when its natural rank is small.
    g = game("5s Js", "3d", "8c", "Ad 4c", level=5, previous_order=(0, 1, 2, 3))
    g.give_tribute("Ad", seat=3)
    refused(g, "INVALID_TRIBUTE", g.return_tribute, "5s", seat=0)     # the level card
    g.return_tribute("Js", seat=0)                                    # lowest: J (5 is high)


# ============================================================== teams other than 0+2 / 1+3

def test_G4_9_the_wind_and_the_end_follow_the_drawn_teams():
    # With partners 0+3 and 1+2, seat 0's partner is seat 3: it takes the wind.
    teams = ((0, 3), (1, 2))
    g = Game(hands=[Cards.parse(h) for h in ("3s", "4s 9d", "5s 9c", "6s 9s")], leader=0,
             teams=teams)
    g.play("3s")
    for _ in range(3):
        g.pass_turn()
    assert g.turn == 3 and g.pile is None
    # With partners 0+1, seats 0 and 1 going out ends the hand.
    h = Game(hands=[Cards.parse(x) for x in ("3s", "4s", "5s 9c", "6s 9s")], leader=0,
             teams=((0, 1), (2, 3)))
    h.play("3s")
    h.play("4s")
    assert h.is_over and h.places[:2] == (0, 1)


def test_G4_9_tribute_follows_the_drawn_teams():
    # Partners 0+3: order 0, 1, 3, 2 is a 1st+3rd finish, so the last (seat 2) pays seat 0.
    g = Game(hands=[Cards.parse(h) for h in ("6s 7s", "3d", "Kd 4c", "8c")], level=5,
             teams=((0, 3), (1, 2)), previous_order=(0, 1, 3, 2))
    assert [t.payer for t in g.tributes] == [2] and g.turn == 2
    g.give_tribute("Kd", seat=2)
    assert g.tributes[0].receiver == 0
    assert settle((2, 2), (0, 0), None, (0, 1, 3, 2), ((0, 3), (1, 2)), STD)[0] == (4, 2)


# ============================================================== whole matches against the text

def _value(face: int, level: int) -> int:
    """G1 single-card order: naturals by rank, the level rank above A, then ☆, then ★."""
    if face >= 52:
        return 16 if face == 52 else 17
    rank = face // 4 + 2
    return 15 if rank == level else rank


def _rank(face: int) -> int:
    return face // 4 + 2 if face < 52 else 0


def _check_tribute_hand(m: Match, places: tuple[int, ...], rng) -> None:
    """G6 on the hand just dealt, from the previous hand's places, and play it out."""
    g, cfg, level = m.game, m.config, m.game.level
    teams = m.teams
    partner = {a: b for a, b in teams} | {b: a for a, b in teams}
    first = places[0]
    mate_place = places.index(partner[first]) + 1
    payers = {2: {places[2], places[3]}, 3: {places[3]}, 4: {places[2]}}[mate_place]
    big = sum(g.initial_hands[p].ids.count(53) for p in payers)
    if big >= 2:                                     # G6.6
        assert g.anti_tribute and g.phase == "play" and g.turn == first
        return
    assert not g.anti_tribute and {t.payer for t in g.tributes} == payers
    wild = (level - 2) * 4 + 1 if cfg.wild_count else -1
    given: dict[int, int] = {}
    while g.phase == "tribute" and all(t.card is None or t.receiver is None
                                       for t in g.tributes) and len(given) < len(payers):
        seat = g.turn
        hand = set(g.hand(seat).ids)
        ok = {f for f in hand if cfg.can_tribute_wild or f != wild}
        top = max(_value(f, level) for f in ok)
        allowed = {f for f in ok if _value(f, level) == top}
        assert {f for f in hand if m.can_give_tribute(f, seat)} == allowed
        card = rng.choice(sorted(allowed))
        m.give_tribute(card, seat)
        given[seat] = card
    # G6.2 / G6.5: who receives what.
    if len(payers) == 1:
        (payer,) = payers
        expect = {payer: first}
    else:
        a, b = sorted(payers, key=lambda s: (s - first) % 4)     # round from after the first out
        va, vb = _value(given[a], level), _value(given[b], level)
        hi, lo = (b, a) if vb > va else (a, b)
        expect = {hi: first, lo: places[1]}
    assert {t.payer: t.receiver for t in g.tributes} == expect
    leader = next(p for p, r in expect.items() if r == first)
    while g.phase == "tribute":
        seat = g.turn
        hand = set(g.hand(seat).ids)
        ok = {f for f in hand if f < 52 and 2 <= _rank(f) <= cfg.tribute_return_max_rank
              and _rank(f) != level}
        if not ok:
            low = min(_value(f, level) for f in hand)
            ok = {f for f in hand if _value(f, level) == low}
        assert {f for f in hand if m.can_return_tribute(f, seat)} == ok
        m.return_tribute(rng.choice(sorted(ok)), seat)
    assert g.turn == leader                           # G6.7


def _play_out_checking_turns(m: Match, rng) -> None:
    """Random legal play to the end of the hand, checking G5.3-G5.7 after every action:
    the next seat still in, the trick's end, the wind, the end of the hand."""
    g = m.game
    partner = {a: b for a, b in m.teams} | {b: a for a, b in m.teams}
    out: set[int] = set()
    owner: int | None = None
    passed: set[int] = set()

    def next_in(seat: int) -> int:
        return next((seat + k) % 4 for k in range(1, 5) if (seat + k) % 4 not in out)

    while not g.is_over:
        seat = g.turn
        assert seat not in out
        plays = list(g.legal_plays())
        if owner is None:
            assert g.pile is None and not g.can_pass() and plays       # G5.4: the leader plays
        if g.can_pass() and (not plays or rng.random() < 0.4):
            m.pass_turn()
            passed.add(seat)
            others = {t for t in range(4) if t not in out} - {owner}
            if others <= passed:                                      # G5.5, G5.6
                assert owner is not None
                leader = owner if owner not in out else partner[owner]
                assert g.turn == leader and g.pile is None, (owner, out)
                owner, passed = None, set()
            else:
                assert g.turn == next_in(seat)                        # G5.3
            continue
        m.play(rng.choice(plays))
        owner, passed = seat, set()
        if len(g.hand(seat)) == 0:
            out.add(seat)
            if partner[seat] in out:                                  # G5.7
                assert g.is_over and g.turn is None
                assert g.places[:len(out)] == g.finished
                return
        assert not g.is_over and g.turn == next_in(seat)


@pytest.mark.parametrize("seed, config", [(1, STD), (2, STD),
                                          (3, RuleConfig(failed_attempts_limit=1)),
                                          (4, RuleConfig(team_formation="RANDOM",
                                                         can_tribute_wild=True,
                                                         tribute_return_max_rank=12))])
def test_G6_G7_whole_match_follows_the_text(seed, config):
    # Turns, tricks, the wind, tribute, levels, 过A and the drop, checked action after
    # action against the rulings.
    for match_seed in range(seed, seed + 1000 * SOAK, 1000):
        _whole_match(match_seed, config, random.Random(match_seed))


def _whole_match(seed: int, config: RuleConfig, rng) -> None:
    m = Match(seed=seed, config=config)
    levels, failed, declarer = [2, 2], [0, 0], None
    team = {s: i for i, t in enumerate(m.teams) for s in t}
    hands = 0
    while not m.is_over and hands < 60:
        g = m.game
        assert g.level == (2 if declarer is None else levels[declarer])
        if hands:
            _check_tribute_hand(m, m.results[-1].places, rng)
        _play_out_checking_turns(m, rng)
        places = m.results[-1].places
        assert places == g.places and sorted(places) == [0, 1, 2, 3]
        win = team[places[0]]
        mate = next(s for s in m.teams[win] if s != places[0])
        mate_place = places.index(mate) + 1
        gain = {2: config.double_down_levels, 3: 2, 4: 1}[mate_place]
        if declarer is not None and levels[declarer] == 14:
            if win == declarer and mate_place in (2, 3):
                assert m.is_over and m.winner == declarer
                break
            failed[declarer] += 1
        levels[win] = min(14, levels[win] + gain)
        limit = config.failed_attempts_limit
        if declarer is not None and limit and failed[declarer] >= limit:
            levels[declarer], failed[declarer] = 2, 0
        declarer = win
        hands += 1
        assert not m.is_over
        assert m.levels == tuple(levels) and m.failed_attempts == tuple(failed)
        assert m.declarer == declarer
    if m.is_over:
        with pytest.raises(IllegalActionError) as info:
            m.pass_turn()
        assert info.value.reason == "GAME_OVER"


def test_G6_3_a_wild_tribute_ties_with_the_level_cards():
    # With can_tribute_wild the wild ranks as a level card: 5♥ or 5♠ may be given at level 5.
    cfg = RuleConfig(can_tribute_wild=True)
    g = game("6s 7s", "3d", "8c", "5h 5s 3c", level=5, config=cfg, previous_order=(0, 1, 2, 3))
    assert g.can_give_tribute("5h", seat=3) and g.can_give_tribute("5s", seat=3)
    assert not g.can_give_tribute("3c", seat=3)
    plain = game("6s 7s", "3d", "8c", "5h 5s 3c", level=5, previous_order=(0, 1, 2, 3))
    assert plain.can_give_tribute("5s", seat=3) and not plain.can_give_tribute("5h", seat=3)


def test_G1_6_at_level_ace_the_wild_is_the_ace_of_hearts():
    # At level A the A♥ is wild; the A still sits low or high in runs.
    assert readings("10s Js Qs Ks Ah", 14) == {(k, 5, r) for k in ("straight", "straight_flush")
                                               for r in (13, 14)}
    assert readings("2s 3s 4s 5s Ah", 14) == {(k, 5, r) for k in ("straight", "straight_flush")
                                              for r in (5, 6)}
    assert readings("Ah", 14) == {("single", 1, 14)}
    assert wins("As", "Ks", 14, "single") and wins("SJ", "Ah", 14, "single")


def test_G2_13_wilds_in_a_full_house_triple_beside_a_joker_pair():
    # The triple may hold wilds even when the pair is ☆☆; W W + 3 3 3 is also a 5-card bomb.
    assert readings("3s 3d 7h SJ SJ", 7) == {("full_house", 5, 3)}
    assert readings("7h 7h 7s 3s 3d", 7) == {("full_house", 5, 7), ("full_house", 5, 3)}
    assert readings("7h 7h 3s 3d 3c", 7) == {("full_house", 5, 3), ("bomb", 5, 3)}


def test_G2_14_cards_played_without_a_reading():
    # Our reading of "the player picks": given no reading, the strongest reading allowed on
    # the pile, a plain one before a bomb.
    g = game("3s 4s 5s 6s 7s 9d", "8s", "8d", "8c", level=9)
    g.play("3s 4s 5s 6s 7s")
    assert (g.pile.kind, g.pile.rank) == (Kind.STRAIGHT, 7)
    g = game("3s 4d 5c 6s 10h Kd", "8s", "8d", "8c", level=10)
    g.play("3s 4d 5c 6s 10h")
    assert (g.pile.kind, g.pile.rank) == (Kind.STRAIGHT, 7)          # W as 7, not as 2
    g = game("7s 7d 7c 10h 10h Kd", "8s", "8d", "8c", level=10)
    g.play("7s 7d 7c 10h 10h")
    assert (g.pile.kind, g.pile.rank) == (Kind.FULL_HOUSE, 7)
    g = game("6s 6d 6c 6h 6s Kd", "7s 7d 7c 10h 10h Qd", "8d", "8c", level=10)
    g.play("6s 6d 6c 6h 6s")
    g.play("7s 7d 7c 10h 10h")                                     # only the bomb beats it
    assert (g.pile.kind, g.pile.size, g.pile.rank) == (Kind.BOMB, 5, 7)


def test_G6_8_order_of_the_exchange():
    # Our reading of the order: payers in turn order after the first out, then the first
    # out returns, then the second. First out seat 2, second seat 0: seat 3 gives first.
    g = game("6s 7s", "Ks 4d", "8c 9c", "As 4c", level=5, previous_order=(2, 0, 3, 1))
    assert g.turn == 3
    refused(g, "NOT_YOUR_TURN", g.give_tribute, "Ks", seat=1)
    g.give_tribute("As", seat=3)
    assert g.turn == 1
    g.give_tribute("Ks", seat=1)
    assert g.turn == 2                                               # A went to seat 2
    refused(g, "NOT_YOUR_TURN", g.return_tribute, "6s", seat=0)
    g.return_tribute("8c", seat=2)
    assert g.turn == 0
    g.return_tribute("6s", seat=0)
    assert g.phase == "play" and g.turn == 3


def test_G4_5_without_wilds_the_level_heart_is_an_ordinary_tribute():
    # wild_count 0: the level ♥ is a plain level card, so it is the highest and is owed.
    cfg = RuleConfig(wild_count=0)
    g = game("6s 7s", "3d", "8c", "5h As 3c", level=5, config=cfg, previous_order=(0, 1, 2, 3))
    refused(g, "INVALID_TRIBUTE", g.give_tribute, "As", seat=3)
    g.give_tribute("5h", seat=3)


def test_G1_3_writing_cards():
    # Rank then suit (s h c d or symbols), any case, 10 or T; jokers SJ/☆ and BJ/★;
    # shown with symbols, lowest face first.
    assert Cards.parse("qd 5H T♠ 10c sj BJ ☆") == Cards.parse("5h 10s 10c Qd SJ SJ BJ")
    assert str(Cards.parse("BJ 10s 5h SJ 5h")) == "5♥ 5♥ 10♠ ☆ ★"
