"""Hand-written checks of the Guandan reference model itself (tests/guandan_reference.py).

Every expected value here was worked out by hand from the rulings (G1-G4), and the working is
in the comment beside it; none was printed by the code. The reference earns the trust the
differential tests put in it here, and its two legal-play generators (reading by reading, and
brute force over every sub-multiset) are held to the same answer on small hands.

Notation in comments: W is a wild card (the level rank's heart), v() the single-card order.
"""

from __future__ import annotations

import doctest
import os
import random

import pytest

import guandan_reference as ref
from guandan_reference import HUAIAN, STANDARD, beats, classify, legal_plays, parse
from guandan_samples import rich_hand, rich_play

SOAK = 100 if os.environ.get("TIENLEN_SOAK") == "1" else 1

NO_FLUSH = {**STANDARD, "same_suit_straight_beats_bomb": False}
NO_ACE_TOP = {**STANDARD, "straight_extends_to_ace": False}
BY_RANK = {**STANDARD, "bomb_compare_priority": "BY_RANK"}
NO_WILDS = {**STANDARD, "wild_count": 0}


def C(text: str, level: int = 2, cfg: dict = STANDARD) -> set[tuple[str, int, int]]:
    return classify(parse(text), level, cfg)


def n_plays(text: str, level: int = 2, pile=None, cfg: dict = STANDARD) -> int:
    hand = parse(text)
    plays = legal_plays(hand, level, pile, cfg)
    if len(hand) <= 10:  # the brute force must agree on every hand small enough for it
        assert plays == ref.legal_plays_brute(hand, level, pile, cfg)
    return len(plays)


def test_docstring_examples_hold() -> None:
    result = doctest.testmod(ref, report=False)
    assert result.attempted >= 4 and result.failed == 0


# ----------------------------------------------------------------------------- G1 cards

def test_card_identity_follows_the_plan() -> None:
    # suit = id % 4 (0 s, 1 h, 2 c, 3 d), rank = 2 + id // 4; 52 / 53 are the jokers.
    assert parse("2s") == [0] and parse("2h") == [1] and parse("3s") == [4]
    assert parse("As Ad") == [48, 51]  # (14 - 2) * 4 = 48
    assert parse("10h") == [33] and parse("Th") == [33] and parse("10♥") == [33]
    assert parse("SJ ★ ☆ BJ") == [52, 52, 53, 53]
    assert [ref.rank_of(c) for c in (0, 51, 52, 53)] == [2, 14, 15, 16]
    assert [ref.suit_of(c) for c in (0, 5, 10, 15, 52)] == [0, 1, 2, 3, None]
    # card_id = original_id + 54 * deck: ids 54 and 0 are the two 2♠.
    assert ref.original_id(54) == 0 and ref.original_id(107) == 53 and ref.original_id(53) == 53
    assert len(ref.deck_card_ids()) == 108


def test_wild_card_is_the_level_heart() -> None:
    assert ref.wild_card(2, STANDARD) == parse("2h")[0]
    assert ref.wild_card(14, STANDARD) == parse("Ah")[0]
    assert ref.wild_card(10, NO_WILDS) is None


def test_single_card_order() -> None:
    # 2 < 3 < ... < A < level rank < small joker < big joker.
    assert [ref.value(r, 7) for r in (2, 6, 8, 14, 7, 15, 16)] == [2, 6, 8, 14, 15, 16, 17]
    assert ref.value(14, 14) == 15  # at level A the A is the level card


@pytest.mark.parametrize("bad", [[0, 0, 0], [54], [-1], ["2s"], [1.0]])
def test_bad_cards_are_refused(bad) -> None:
    with pytest.raises(ValueError):
        classify(bad, 2, STANDARD)


@pytest.mark.parametrize("level", [1, 15, 0, "A", 2.0])
def test_bad_level_is_refused(level) -> None:
    with pytest.raises(ValueError):
        classify([4], level, STANDARD)


# ----------------------------------------------------------------------------- classify

CLASSIFY_CASES = [
    # --- singles: a card's own rank; jokers 15 / 16; a lone wild is a level card.
    ("7s", 2, STANDARD, {("single", 1, 7)}),
    ("SJ", 2, STANDARD, {("single", 1, 15)}),
    ("BJ", 2, STANDARD, {("single", 1, 16)}),
    ("10h", 10, STANDARD, {("single", 1, 10)}),  # wild alone: never another rank
    ("2h", 2, STANDARD, {("single", 1, 2)}),
    # --- pairs
    ("7s 7d", 2, STANDARD, {("pair", 2, 7)}),
    ("7s 7s", 2, STANDARD, {("pair", 2, 7)}),  # the two copies of one card
    ("SJ SJ", 2, STANDARD, {("pair", 2, 15)}),
    ("BJ BJ", 2, STANDARD, {("pair", 2, 16)}),
    ("SJ BJ", 2, STANDARD, set()),  # ☆★ is not a pair
    ("7s 8s", 2, STANDARD, set()),
    ("7s 10h", 10, STANDARD, {("pair", 2, 7)}),  # W stands for a 7
    ("10h 10h", 10, STANDARD, {("pair", 2, 10)}),  # two wilds alone: the level pair only
    ("10h SJ", 10, STANDARD, set()),  # a wild is never a joker
    ("3h 5s", 3, STANDARD, {("pair", 2, 5)}),
    ("3h 5s", 3, NO_WILDS, set()),  # wild_count 0: 3h is a plain 3
    # --- triples
    ("9s 9h 9d", 2, STANDARD, {("triple", 3, 9)}),
    ("9s 9d 10h", 10, STANDARD, {("triple", 3, 9)}),
    ("9s 10h 10h", 10, STANDARD, {("triple", 3, 9)}),
    ("7s 7s 10h", 10, STANDARD, {("triple", 3, 7)}),  # a third 7♠ through the wild
    ("2h 2h 2s", 2, STANDARD, {("triple", 3, 2)}),
    ("SJ SJ BJ", 2, STANDARD, set()),
    # --- full houses: rank of the triple; the pair may be ☆☆ / ★★, never ☆★
    ("3s 3h 3d 5c 5d", 2, STANDARD, {("full_house", 5, 3)}),
    ("3s 3h 3d SJ SJ", 2, STANDARD, {("full_house", 5, 3)}),
    ("3s 3h 3d BJ BJ", 2, STANDARD, {("full_house", 5, 3)}),
    ("3s 3h 3d SJ BJ", 2, STANDARD, set()),
    ("10s 10d 10c 4s 4d", 10, STANDARD, {("full_house", 5, 10)}),
    ("9s 9d 9c 4s 10h", 10, STANDARD, {("full_house", 5, 9)}),  # W as a 4
    # W as a 7 makes 777+88, W as an 8 makes 888+77: two readings.
    ("7s 7d 8s 8d 10h", 10, STANDARD, {("full_house", 5, 7), ("full_house", 5, 8)}),
    # WW as any pair other than 7 (full house) or as two more 7s (5-card bomb).
    ("7s 7d 7c 10h 10h", 10, STANDARD, {("full_house", 5, 7), ("bomb", 5, 7)}),
    ("7s 7d 10h SJ SJ", 10, STANDARD, {("full_house", 5, 7)}),
    # At level 7 the wilds are 7♥s, but inside a bigger play they may still be any pair.
    ("7s 7d 7c 7h 7h", 7, STANDARD, {("full_house", 5, 7), ("bomb", 5, 7)}),
    ("7s 7d 7c 7h 7h", 7, NO_WILDS, {("bomb", 5, 7)}),
    ("7s 7d 7c SJ 10h", 10, STANDARD, set()),  # the wild cannot pair the ☆
    ("7s 7d 10h 10h SJ", 10, STANDARD, set()),
    # --- straights: windows A2345 (top 5) .. 10JQKA (top 14), no wrap, no jokers
    ("As 2d 3c 4h 5s", 3, STANDARD, {("straight", 5, 5)}),
    ("10s Jd Qc Kh As", 2, STANDARD, {("straight", 5, 14)}),
    ("Js Qd Kc As 2d", 3, STANDARD, set()),  # J Q K A 2 wraps
    ("Ks As 2d 3c 4h", 3, STANDARD, set()),
    ("2s 3s 4s 5s 6d", 2, STANDARD, {("straight", 5, 6)}),
    ("5s 6d 7c 8h 9s", 7, STANDARD, {("straight", 5, 9)}),  # level 7 in its natural place
    ("10s Jd Qc Kh SJ", 2, STANDARD, set()),
    ("5s 6d 7c 8h", 2, STANDARD, set()),  # 4 cards
    ("5s 6d 7c 8h 9s 10d", 2, STANDARD, set()),  # 6 cards
    # W as 2 (2..6) or 7 (3..7); A 3 4 5 6 is no window.
    ("3s 4d 5c 6h 10h", 10, STANDARD, {("straight", 5, 6), ("straight", 5, 7)}),
    # WW with 3 4 5: A2345, 23456, 34567.
    ("3s 4d 5c 10h 10h", 10, STANDARD,
     {("straight", 5, 5), ("straight", 5, 6), ("straight", 5, 7)}),
    ("As 2d 3c 10h 10h", 10, STANDARD, {("straight", 5, 5)}),  # only A2345 holds A, 2, 3
    ("Qs Kd Ac 10h 10h", 10, STANDARD, {("straight", 5, 14)}),  # only 10JQKA holds Q, K, A
    ("2s 3d 4c 5s 10h", 10, STANDARD, {("straight", 5, 5), ("straight", 5, 6)}),  # W as A or 6
    # W as 9 (9..K) or A (10..A); 10s here is a natural 10.
    ("10s Js Qd Kc 10h", 10, STANDARD, {("straight", 5, 13), ("straight", 5, 14)}),
    ("10s Js Qd Kc 10h", 10, NO_ACE_TOP, {("straight", 5, 13)}),
    ("10s Jd Qc Kh As", 2, NO_ACE_TOP, set()),
    ("Js Qd Kc As 10h", 10, STANDARD, {("straight", 5, 14)}),
    ("Js Qd Kc As 10h", 10, HUAIAN, set()),
    # --- straight flushes: a one-suit straight reads both ways (standard only)
    ("5s 6s 7s 8s 9s", 2, STANDARD, {("straight", 5, 9), ("straight_flush", 5, 9)}),
    ("5s 6s 7s 8s 9s", 2, HUAIAN, {("straight", 5, 9)}),
    ("5s 6s 7s 8s 9s", 2, NO_FLUSH, {("straight", 5, 9)}),
    ("10h Jh Qh Kh Ah", 2, STANDARD, {("straight", 5, 14), ("straight_flush", 5, 14)}),
    ("10h Jh Qh Kh Ah", 2, NO_ACE_TOP, set()),
    ("As 2s 3s 4s 5s", 3, NO_ACE_TOP, {("straight", 5, 5), ("straight_flush", 5, 5)}),
    ("3s 4s 5s 6s 10h", 10, STANDARD, {("straight", 5, 6), ("straight", 5, 7),
                                       ("straight_flush", 5, 6), ("straight_flush", 5, 7)}),
    ("3s 4s 5s 6d 10h", 10, STANDARD, {("straight", 5, 6), ("straight", 5, 7)}),
    ("3s 4s 6s 7s 10h", 10, STANDARD, {("straight", 5, 7), ("straight_flush", 5, 7)}),
    # 7h is the wild at level 7 and stands for the 7♠: a spade straight flush.
    ("5s 6s 7h 8s 9s", 7, STANDARD, {("straight", 5, 9), ("straight_flush", 5, 9)}),
    ("5s 6s 7h 8s 9s", 7, NO_WILDS, {("straight", 5, 9)}),
    ("3s 4d 5c 6h 2h", 2, STANDARD, {("straight", 5, 6), ("straight", 5, 7)}),
    ("3s 4d 5c 6h 2h", 2, NO_WILDS, {("straight", 5, 6)}),
    # --- three pairs: AA2233 (top 3) .. QQKKAA (top 14)
    ("As Ad 2s 2d 3s 3d", 5, STANDARD, {("three_pairs", 6, 3)}),
    ("Qs Qd Ks Kd As Ad", 5, STANDARD, {("three_pairs", 6, 14)}),
    ("Qs Qd Ks Kd As Ad", 5, HUAIAN, {("three_pairs", 6, 14)}),  # not a straight: unaffected
    ("Ks Kd As Ad 2s 2d", 5, STANDARD, set()),
    ("5s 5d 6s 6d 7s 7d", 6, STANDARD, {("three_pairs", 6, 7)}),
    ("5s 5d 6s 6d 7s 7d 8s 8d", 2, STANDARD, set()),  # four pairs
    ("5s 5d 6s 6d", 2, STANDARD, set()),
    ("5s 5d 6s 6d 7s 10h", 10, STANDARD, {("three_pairs", 6, 7)}),
    ("As Ad 2s 2d 3s 10h", 10, STANDARD, {("three_pairs", 6, 3)}),
    ("Qs Qd Ks Kd As 10h", 10, STANDARD, {("three_pairs", 6, 14)}),
    # WW as 77 (556677), as 44 (445566), or one 5 and one 6 (555666, a plate).
    ("5s 5d 6s 6d 10h 10h", 10, STANDARD,
     {("three_pairs", 6, 6), ("three_pairs", 6, 7), ("plate", 6, 6)}),
    # --- plates: AAA222 (top 2) .. KKKAAA (top 14)
    ("As Ad Ac 2s 2d 2c", 5, STANDARD, {("plate", 6, 2)}),
    ("As Ad Ac 2s 2d 2c", 2, STANDARD, {("plate", 6, 2)}),  # 2h (the wild) is not here
    ("Ks Kd Kc As Ad Ac", 5, STANDARD, {("plate", 6, 14)}),
    ("Ks Kd Kc As Ad Ac", 5, HUAIAN, {("plate", 6, 14)}),
    ("2s 2d 2c 3s 3d 3c", 2, STANDARD, {("plate", 6, 3)}),
    ("5s 5d 5c 7s 7d 7c", 2, STANDARD, set()),  # not consecutive
    ("5s 5d 5c 6s 6d 6c 7s 7d 7c", 2, STANDARD, set()),  # three triples
    ("8s 8d 8c 9s 9d 10h", 10, STANDARD, {("plate", 6, 9)}),
    ("As Ad 2s 2d 2c 10h", 10, STANDARD, {("plate", 6, 2)}),
    ("Ks Kd Kc As Ad 10h", 10, STANDARD, {("plate", 6, 14)}),
    # --- bombs: 4..10 of one rank
    ("4s 4d 4c 4h", 2, STANDARD, {("bomb", 4, 4)}),
    ("4s 4s 4d 4d 4c 4c 4h 4h", 2, STANDARD, {("bomb", 8, 4)}),
    ("4s 4s 4d 4d 4c 4c 4h 4h", 4, STANDARD, {("bomb", 8, 4)}),  # wilds as 4s
    ("10s 10d 10c 10h", 10, STANDARD, {("bomb", 4, 10)}),
    ("7s 7s 7d 10h", 10, STANDARD, {("bomb", 4, 7)}),
    ("9s 9d 10h 10h", 10, STANDARD, {("bomb", 4, 9)}),
    ("7s 7s 7h 7h 7c 7c 7d 10h", 10, STANDARD, {("bomb", 8, 7)}),
    ("7s 7s 7h 7h 7c 7c 7d 7d 10h", 10, STANDARD, {("bomb", 9, 7)}),
    ("7s 7s 7h 7h 7c 7c 7d 7d 10h 10h", 10, STANDARD, {("bomb", 10, 7)}),
    ("7s 7s 7h 7h 7c 7c 7d 7d", 10, STANDARD, {("bomb", 8, 7)}),
    ("5s 5d 5c 6s", 2, STANDARD, set()),
    ("5s 5d 5c 6s 7s", 2, STANDARD, set()),
    # --- joker bomb
    ("SJ SJ BJ BJ", 2, STANDARD, {("joker_bomb", 4, 16)}),
    ("SJ SJ BJ 10h", 10, STANDARD, set()),
    ("10h 10h SJ SJ", 10, STANDARD, set()),
]


@pytest.mark.parametrize("text,level,cfg,expected", CLASSIFY_CASES,
                         ids=[f"{c[0]}@{c[1]}" for c in CLASSIFY_CASES])
def test_classify_hand_derived(text, level, cfg, expected) -> None:
    assert C(text, level, cfg) == expected


def test_every_kind_is_covered_by_the_cases() -> None:
    kinds = {r[0] for *_, exp in CLASSIFY_CASES for r in exp}
    assert kinds == set(ref.KINDS)


def test_wild_takes_every_natural_card() -> None:
    # A lone natural 5♠ with one wild: W as any other 5 (pair 5); nothing else has 2 cards.
    assert C("5s 10h", 10) == {("pair", 2, 5)}
    # Each wild tried as all 52 natural cards: a triple needs the 3rd card to match.
    for r in range(2, 15):
        card = ref.card_of(r, 0)
        wild = ref.wild_card(10, STANDARD)
        assert classify([card, wild, wild], 10, STANDARD) == {("triple", 3, r)}


# ----------------------------------------------------------------------------- beating

BEATS_CASES = [
    # (a, b, level, cfg, a beats b)
    (("single", 1, 14), ("single", 1, 13), 2, STANDARD, True),
    (("single", 1, 13), ("single", 1, 14), 2, STANDARD, False),
    (("single", 1, 7), ("single", 1, 7), 2, STANDARD, False),  # equal never beats
    (("single", 1, 2), ("single", 1, 14), 2, STANDARD, True),  # level 2 above the A
    (("single", 1, 9), ("single", 1, 14), 9, STANDARD, True),
    (("single", 1, 14), ("single", 1, 9), 9, STANDARD, False),
    (("single", 1, 15), ("single", 1, 9), 9, STANDARD, True),  # ☆ above the level card
    (("single", 1, 16), ("single", 1, 15), 9, STANDARD, True),
    (("single", 1, 14), ("single", 1, 14), 14, STANDARD, False),
    (("single", 1, 14), ("single", 1, 13), 14, STANDARD, True),  # level A: still above K
    (("pair", 2, 15), ("pair", 2, 2), 2, STANDARD, True),
    (("pair", 2, 16), ("pair", 2, 15), 2, STANDARD, True),
    (("pair", 2, 5), ("pair", 2, 4), 2, STANDARD, True),
    (("pair", 2, 5), ("single", 1, 4), 2, STANDARD, False),  # kinds never cross
    (("triple", 3, 10), ("triple", 3, 14), 10, STANDARD, True),
    (("full_house", 5, 9), ("full_house", 5, 8), 2, STANDARD, True),
    (("full_house", 5, 10), ("full_house", 5, 14), 10, STANDARD, True),
    (("full_house", 5, 14), ("full_house", 5, 14), 2, STANDARD, False),
    (("straight", 5, 6), ("straight", 5, 5), 2, STANDARD, True),
    (("straight", 5, 14), ("straight", 5, 13), 2, STANDARD, True),
    (("straight", 5, 6), ("straight", 5, 14), 6, STANDARD, False),  # windows: no promotion
    (("straight", 5, 9), ("straight", 5, 9), 2, STANDARD, False),
    (("three_pairs", 6, 4), ("three_pairs", 6, 3), 2, STANDARD, True),
    (("three_pairs", 6, 14), ("plate", 6, 2), 2, STANDARD, False),
    (("plate", 6, 3), ("three_pairs", 6, 14), 2, STANDARD, False),
    (("plate", 6, 3), ("plate", 6, 2), 2, STANDARD, True),
    (("plate", 6, 2), ("plate", 6, 14), 2, STANDARD, False),  # AAA222 is the lowest plate
    # every bomb beats every non-bomb, never the other way
    (("bomb", 4, 3), ("straight", 5, 14), 2, STANDARD, True),
    (("bomb", 4, 3), ("single", 1, 16), 2, STANDARD, True),
    (("straight_flush", 5, 5), ("plate", 6, 14), 2, STANDARD, True),
    (("joker_bomb", 4, 16), ("single", 1, 3), 2, STANDARD, True),
    (("single", 1, 16), ("bomb", 4, 3), 2, STANDARD, False),
    (("straight", 5, 14), ("straight_flush", 5, 5), 2, STANDARD, False),
    # BY_COUNT: 4 < 5 < straight flush < 6 < ... < 10 < joker bomb; same size by v(rank)
    (("bomb", 5, 2), ("bomb", 4, 14), 3, STANDARD, True),
    (("bomb", 4, 14), ("bomb", 4, 13), 3, STANDARD, True),
    (("bomb", 4, 3), ("bomb", 4, 14), 3, STANDARD, True),  # level 3 bomb above the A bomb
    (("bomb", 4, 3), ("bomb", 5, 2), 3, STANDARD, False),
    (("straight_flush", 5, 5), ("bomb", 5, 14), 2, STANDARD, True),
    (("bomb", 5, 14), ("straight_flush", 5, 5), 2, STANDARD, False),
    (("bomb", 6, 3), ("straight_flush", 5, 14), 2, STANDARD, True),
    (("straight_flush", 5, 14), ("bomb", 6, 3), 2, STANDARD, False),
    (("straight_flush", 5, 10), ("straight_flush", 5, 9), 2, STANDARD, True),
    (("straight_flush", 5, 9), ("straight_flush", 5, 9), 2, STANDARD, False),
    (("straight_flush", 5, 6), ("straight_flush", 5, 14), 6, STANDARD, False),  # no promotion
    (("bomb", 10, 2), ("bomb", 9, 14), 2, STANDARD, True),
    (("joker_bomb", 4, 16), ("bomb", 10, 14), 2, STANDARD, True),
    (("bomb", 10, 14), ("joker_bomb", 4, 16), 2, STANDARD, False),
    (("joker_bomb", 4, 16), ("joker_bomb", 4, 16), 2, STANDARD, False),
    # BY_RANK: v(rank) first, then the size class; a straight flush ranks by its top (5½)
    (("bomb", 4, 14), ("bomb", 6, 13), 2, BY_RANK, True),
    (("bomb", 6, 13), ("bomb", 4, 14), 2, BY_RANK, False),
    (("bomb", 5, 9), ("bomb", 4, 9), 2, BY_RANK, True),
    (("straight_flush", 5, 9), ("bomb", 5, 9), 2, BY_RANK, True),
    (("bomb", 6, 9), ("straight_flush", 5, 9), 2, BY_RANK, True),
    (("bomb", 4, 10), ("straight_flush", 5, 9), 2, BY_RANK, True),
    (("straight_flush", 5, 10), ("bomb", 8, 9), 2, BY_RANK, True),
    (("straight_flush", 5, 5), ("bomb", 4, 6), 2, BY_RANK, False),
    (("bomb", 4, 5), ("straight_flush", 5, 14), 5, BY_RANK, True),  # level bomb: v = 15
    (("straight_flush", 5, 14), ("bomb", 4, 5), 5, BY_RANK, False),
    (("joker_bomb", 4, 16), ("bomb", 10, 5), 5, BY_RANK, True),
    (("bomb", 10, 5), ("joker_bomb", 4, 16), 5, BY_RANK, False),
    (("bomb", 4, 3), ("straight", 5, 14), 2, BY_RANK, True),
]


@pytest.mark.parametrize("a,b,level,cfg,expected", BEATS_CASES,
                         ids=[f"{a}>{b}@{lv}" for a, b, lv, *_ in BEATS_CASES])
def test_beats_hand_derived(a, b, level, cfg, expected) -> None:
    assert beats(a, b, level, cfg) is expected


# ----------------------------------------------------------------------------- legal plays

LEGAL_CASES = [
    # (hand, level, pile, cfg, count)  -- derivations in the comments
    ("3s 3d", 2, None, STANDARD, 3),  # 3s, 3d, 3s3d
    ("3s 3s", 2, None, STANDARD, 2),  # one single (the copies are interchangeable), one pair
    ("3s 3d", 2, ("single", 1, 14), STANDARD, 0),
    # 3s, W (single 10), pair 3s+W
    ("3s 10h", 10, None, STANDARD, 3),
    ("3s 10h", 10, None, NO_WILDS, 2),
    ("10h 10h", 10, None, STANDARD, 2),  # single 10, pair 10
    ("10h 10h", 10, ("single", 1, 14), STANDARD, 1),  # the level 10 beats the A
    # 5 singles, straight 9 and straight flush 9 from the same cards
    ("5s 6s 7s 8s 9s", 2, None, STANDARD, 7),
    ("5s 6s 7s 8s 9s", 2, None, HUAIAN, 6),
    ("5s 6s 7s 8s 9s", 2, ("straight", 5, 8), STANDARD, 2),
    ("5s 6s 7s 8s 9s", 2, ("bomb", 5, 14), STANDARD, 1),  # only the straight flush
    ("5s 6s 7s 8s 9s", 2, ("bomb", 6, 2), STANDARD, 0),
    ("As Ks Qs Js 10s", 2, None, STANDARD, 7),
    ("As Ks Qs Js 10s", 2, None, NO_ACE_TOP, 5),
    # ☆ ★, ☆☆ ★★, the joker bomb; ☆★ is not a pair
    ("SJ SJ BJ BJ", 2, None, STANDARD, 5),
    ("SJ SJ BJ BJ", 2, ("bomb", 10, 14), STANDARD, 1),
    # 5 singles (W = single 10), 4 pairs x+W, straights 6 and 7 from all five cards
    ("3s 4d 5c 6h 10h", 10, None, STANDARD, 11),
    ("3s 4d 5c 6h 10h", 10, ("straight", 5, 6), STANDARD, 1),
    # 4 singles, 6 pairs, 4 triples, 1 bomb (7h is not wild at level 2)
    ("7s 7d 7c 7h", 2, None, STANDARD, 15),
    # level 7, wilds 7h 7h: singles 7s, 8s, W; pairs 7s+W, 8s+W, WW; triples 7s+WW, 8s+WW
    ("7s 7h 7h 8s", 7, None, STANDARD, 8),
    ("As 2d 3c 4s 5s", 2, None, STANDARD, 6),  # 5 singles, A2345
    ("As 2d 3c 4s 5s", 2, ("straight", 5, 5), STANDARD, 0),  # equal never beats
    ("As 2d 3c 4s 5s", 2, ("single", 1, 14), STANDARD, 1),  # the 2 is the level card
    ("3s 3d 2s BJ", 2, ("pair", 2, 14), STANDARD, 0),
    ("3s 3d 2s BJ", 2, ("single", 1, 14), STANDARD, 2),  # 2s (level) and BJ
    # singles 3s 3d 3c SJ BJ; pairs 3 of 3s + SJSJ; triple; full house 333+SJSJ
    ("3s 3d 3c SJ SJ BJ", 2, None, STANDARD, 11),
    ("3s 3d 3c SJ SJ BJ", 2, ("pair", 2, 14), STANDARD, 1),
    # singles 5, pairs 3 + 1, triple 444, full house 444+99
    ("4s 4d 4c 9s 9d", 2, None, STANDARD, 11),
    ("4s 4d 4c 9s 9d", 2, ("full_house", 5, 3), STANDARD, 1),
    ("4s 4d 4c 9s 9d", 2, ("full_house", 5, 4), STANDARD, 0),
    ("4s 4d 4c 9s 9d", 2, ("full_house", 5, 2), STANDARD, 0),  # 2 is the level
    # full houses 444+99 and 444+88: the pair makes distinct card sets
    ("4s 4d 4c 9s 9d 8s 8d", 2, ("full_house", 5, 3), STANDARD, 2),
    # singles 5, pairs 4 x+W, straights 6 7, straight flushes 6 7
    ("3s 4s 5s 6s 10h", 10, None, STANDARD, 13),
    ("3s 4s 5s 6s 10h", 10, None, HUAIAN, 11),
    ("3s 4s 5s 6s 10h", 10, None, NO_ACE_TOP, 13),
    # level 10, 5s 5d 6s 6d W W: singles 5; pairs 5s5d 6s6d, four x+W, WW = 7;
    # triples 55W 66W, four x+WW = 6; bombs 55WW 66WW = 2; full houses: each of the five
    # 5-card subsets reads as fh 5 and fh 6 = 10; all six: three pairs 6, 7 and plate 6 = 3.
    ("5s 5d 6s 6d 10h 10h", 10, None, STANDARD, 33),
    # following a pair of 9: WW (pair of the level 10) and the two bombs
    ("5s 5d 6s 6d 10h 10h", 10, ("pair", 2, 9), STANDARD, 3),
    ("5s 5d 6s 6d 10h 10h", 10, ("three_pairs", 6, 6), STANDARD, 3),  # tp 7 + 2 bombs
    # 10 cards, 3..7 in spades and diamonds: 10 singles, 5 pairs, three pairs topped 5 6 7,
    # 2^5 = 32 straights 3..7 and 2 straight flushes.
    ("3s 4s 5s 6s 7s 3d 4d 5d 6d 7d", 2, None, STANDARD, 52),
    ("3s 4s 5s 6s 7s 3d 4d 5d 6d 7d", 2, None, HUAIAN, 50),
    ("3s 4s 5s 6s 7s 3d 4d 5d 6d 7d", 2, ("straight", 5, 6), STANDARD, 34),
    ("3s 4s 5s 6s 7s 3d 4d 5d 6d 7d", 2, ("straight", 5, 6), HUAIAN, 32),
    # BY_RANK: a 4-bomb of A follows a 6-bomb of K; under BY_COUNT it does not.
    ("As Ad Ac Ah", 3, ("bomb", 6, 13), BY_RANK, 1),
    ("As Ad Ac Ah", 3, ("bomb", 6, 13), STANDARD, 0),
]


@pytest.mark.parametrize("text,level,pile,cfg,count", LEGAL_CASES,
                         ids=[f"{c[0]}@{c[1]}/{c[2]}" for c in LEGAL_CASES])
def test_legal_play_counts_hand_derived(text, level, pile, cfg, count) -> None:
    assert n_plays(text, level, pile, cfg) == count


def test_legal_plays_lists_both_readings_of_a_one_suit_straight() -> None:
    plays = legal_plays(parse("5s 6s 7s 8s 9s"), 2, None, STANDARD)
    five = tuple(parse("5s 6s 7s 8s 9s"))
    assert (five, ("straight", 5, 9)) in plays and (five, ("straight_flush", 5, 9)) in plays


def test_two_wilds_standing_for_different_cards_are_one_play() -> None:
    # 3 4 5 + W W reads as A2345 in many ways (W = A♠ or A♦, W = 2♠ ...): one play per
    # reading.
    plays = legal_plays(parse("3s 4d 5c 10h 10h"), 10, None, STANDARD)
    whole = tuple(parse("3s 4d 5c 10h 10h"))
    assert {r for ids, r in plays if ids == whole} == {
        ("straight", 5, 5), ("straight", 5, 6), ("straight", 5, 7)}


# ----------------------------------------------------------------------------- generators agree

CONFIGS = [STANDARD, HUAIAN, NO_FLUSH, NO_ACE_TOP, BY_RANK, NO_WILDS]


def test_generators_agree_on_random_small_hands() -> None:
    rng = random.Random(20261130)
    seen_kinds = set()
    for _ in range(25 * SOAK):
        level = rng.randint(2, 14)
        cfg = rng.choice(CONFIGS)
        hand = rich_hand(rng, rng.randint(3, 7), level, rng.choice([0, 0, 1, 1, 2]), cfg)
        fast = legal_plays(hand, level, None, cfg)
        assert fast == ref.legal_plays_brute(hand, level, None, cfg), ref.cards_str(hand)
        seen_kinds |= {r[0] for _, r in fast}
        if fast:  # follow one of its own plays: the filtered lists agree too
            pile = rng.choice(sorted(fast))[1]
            assert legal_plays(hand, level, pile, cfg) == ref.legal_plays_brute(
                hand, level, pile, cfg)
    assert {"single", "pair", "triple", "bomb", "straight", "full_house"} <= seen_kinds


def test_pile_filter_is_beats_over_the_lead_list() -> None:
    rng = random.Random(7)
    deck = list(range(108))
    for _ in range(3):
        hand = sorted(c % 54 for c in rng.sample(deck, 27))
        level = rng.randint(2, 14)
        leads = legal_plays(hand, level, None, STANDARD)
        for pile in rng.sample(sorted({r for _, r in leads}), 5):
            follow = legal_plays(hand, level, pile, STANDARD)
            assert follow == {p for p in leads if beats(p[1], pile, level, STANDARD)}


def test_dealt_hand_plays_are_sound() -> None:
    # Every listed play is a sub-multiset of the hand and classify agrees with its reading.
    rng = random.Random(11)
    for _ in range(2):
        hand = sorted(c % 54 for c in rng.sample(range(108), 27))
        level = rng.randint(2, 14)
        plays = legal_plays(hand, level, None, STANDARD)
        for ids, reading in rng.sample(sorted(plays), 60):
            assert all(ids.count(c) <= hand.count(c) for c in ids)
            assert reading in classify(ids, level, STANDARD)


def test_classify_is_the_whole_hand_part_of_legal_plays() -> None:
    # The readings classify gives a card set are exactly the readings legal_plays lists for
    # that whole set as a hand: brute force over wild stand-ins against reading-by-reading.
    rng = random.Random(314)
    seen_kinds = set()
    for i in range(200 * SOAK):
        level = 2 + i % 13
        cfg = CONFIGS[i % len(CONFIGS)]
        cards = rich_play(rng, level, cfg)
        if not cards:
            continue
        whole = tuple(cards)
        expected = {r for ids, r in legal_plays(cards, level, None, cfg) if ids == whole}
        got = classify(cards, level, cfg)
        assert got == expected, (ref.cards_str(cards), level, cfg)
        seen_kinds |= {r[0] for r in got}
    assert seen_kinds == set(ref.KINDS)


def test_generators_agree_on_twelve_card_hands() -> None:
    # Bigger hands for the brute force: every sub-multiset of 12 cards (a wild costs 52
    # classifications per subset holding it, two cost 1378: two only under TIENLEN_SOAK,
    # and only 10x more hands there, about 5 s each).
    rng = random.Random(1212)
    for i in range(4 * min(SOAK, 10)):
        level = rng.randint(2, 14)
        cfg = CONFIGS[i % len(CONFIGS)]
        n_wild = i % 2 if SOAK == 1 else i % 3
        hand = rich_hand(rng, 12, level, n_wild, cfg)
        brute = ref.legal_plays_brute(hand, level, None, cfg)
        assert legal_plays(hand, level, None, cfg) == brute, ref.cards_str(hand)


def all_bomb_readings() -> list[tuple[str, int, int]]:
    bombs = [("bomb", size, rank) for size in range(4, 11) for rank in range(2, 15)]
    flushes = [("straight_flush", 5, top) for top in range(5, 15)]
    return bombs + flushes + [("joker_bomb", 4, 16)]


@pytest.mark.parametrize("cfg", [STANDARD, BY_RANK], ids=["BY_COUNT", "BY_RANK"])
@pytest.mark.parametrize("level", [2, 9, 14])
def test_bombs_form_a_strict_total_order(cfg, level) -> None:
    # Distinct bomb readings: exactly one of each two beats the other, so the number each
    # beats is a permutation of 0..n-1 (a strict total order, transitive by counting).
    bombs = all_bomb_readings()
    for a in bombs:
        assert not beats(a, a, level, cfg)
    wins = {a: sum(beats(a, b, level, cfg) for b in bombs) for a in bombs}
    assert sorted(wins.values()) == list(range(len(bombs)))
    chain = sorted(bombs, key=wins.get)
    assert chain[-1] == ("joker_bomb", 4, 16)
    if cfg is STANDARD:
        # 4 cards, 5 cards, the 10 flushes, then 6 .. 10 cards, each size by v(rank).
        sizes = [r[1] if r[0] == "bomb" else 5.5 for r in chain[:-1]]
        assert sizes == sorted(sizes)
        assert chain[12] == ("bomb", 4, level) and chain[13] == ("bomb", 5, 2 if level != 2 else 3)
    else:
        # Rank first: every bomb of the level rank sits just under the joker bomb.
        assert chain[-8:-1] == [("bomb", s, level) for s in range(4, 11)]
