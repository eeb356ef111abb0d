"""Scenario tests for the Guandan rules core (GUANDAN.md G1-G4), through ``tienlen.guandan``.

One or more tests per label, named after it (``test_G2_3_...`` tests G2.3). Every expected
value was worked out by hand from GUANDAN.md; the comments give the reasoning. A few
legal-play counts are also checked against tests/guandan_reference.py, which was written
independently of the core. Until the core lands the module skips.

Notation in comments: W is a wild card (the level rank's heart).
"""

from __future__ import annotations

import pickle

import pytest

guandan = pytest.importorskip("tienlen.guandan")

import guandan_reference as ref  # noqa: E402
from tienlen.guandan import (  # noqa: E402
    BombOrder,
    Card,
    Cards,
    GuandanError,
    Kind,
    RuleConfig,
    TeamFormation,
    beats,
    classify,
    count_legal_plays,
    legal_plays,
)

STD = RuleConfig.standard()
HUAIAN = RuleConfig.huaian()
NO_FLUSH = RuleConfig(same_suit_straight_beats_bomb=False)
NO_ACE_TOP = RuleConfig(straight_extends_to_ace=False)
BY_RANK = RuleConfig(bomb_compare_priority=BombOrder.BY_RANK)
NO_WILDS = RuleConfig(wild_count=0)

Reading = tuple[str, int, int]


def readings(text: str, level: int = 2, config: RuleConfig = STD) -> set[Reading]:
    """The readings classify gives, as (kind, size, rank)."""
    return {(p.kind.name.lower(), p.size, p.rank)
            for p in classify(Cards.parse(text), level, config)}


def play(text: str, level: int, kind: str, rank: int | None = None,
         config: RuleConfig = STD):
    """The one reading of these cards of this kind (and rank)."""
    found = [p for p in classify(Cards.parse(text), level, config)
             if p.kind.name.lower() == kind and (rank is None or p.rank == rank)]
    assert len(found) == 1, (text, level, kind, rank, found)
    return found[0]


def plays(text: str, level: int = 2, pile=None, config: RuleConfig = STD):
    return {(p.cards.ids, (p.kind.name.lower(), p.size, p.rank))
            for p in legal_plays(Cards.parse(text), level, pile, config)}


def ref_count(text: str, level: int, pile: Reading | None, cfg: dict) -> int:
    return len(ref.legal_plays(ref.parse(text), level, pile, cfg))


# ----------------------------------------------------------------------------- G1 cards

def test_G1_1_two_decks_and_four_jokers() -> None:
    deck = Cards.from_card_ids(list(range(108)))
    assert len(deck) == 108
    assert deck.counts == (2,) * 54  # every face twice: 52 naturals, ☆, ★
    assert sum(1 for c in deck if c.rank == 15) == 2 and sum(1 for c in deck if c.rank == 16) == 2
    assert sum(1 for c in deck if c.rank <= 14) == 104
    # four players, 27 each: the deck splits evenly
    assert len(deck) == 4 * 27


def test_G1_2_card_identity() -> None:
    # suit = id % 4 (0 ♠, 1 ♥, 2 ♣, 3 ♦), rank = 2 + id // 4; 52 ☆, 53 ★.
    assert (Card(0).rank, Card(0).suit) == (2, 0)
    assert (Card(1).rank, Card(1).suit) == (2, 1)
    assert (Card(33).rank, Card(33).suit) == (10, 1)  # (10 - 2) * 4 + 1
    assert (Card(51).rank, Card(51).suit) == (14, 3)
    assert (Card(52).rank, Card(52).suit) == (15, None)
    assert (Card(53).rank, Card(53).suit) == (16, None)
    # card_id = original_id + 54 * deck: the two copies are the same face.
    assert Cards.from_card_ids([0, 54]) == Cards.from_ids([0, 0])
    assert Cards.from_card_ids([33, 87]) == Cards.parse("10h 10h")
    assert Cards.from_card_ids([107]).ids == (53,)
    assert Cards.parse("10s 5h 5h").ids == (13, 13, 32)  # sorted, with repeats
    assert Cards.parse("5h 5h").counts[13] == 2


def test_G1_2_copies_are_interchangeable_in_play() -> None:
    # Playing the 7♠ of either deck is the same play: one single, one pair.
    assert {r for _, r in plays("7s 7s")} == {("single", 1, 7), ("pair", 2, 7)}
    assert len(plays("7s 7s")) == 2


def test_G1_2_multiset_algebra_respects_two_copies() -> None:
    a, b = Cards.parse("5h 6s"), Cards.parse("5h 7d")
    assert a + b == Cards.parse("5h 5h 6s 7d")
    assert (a + b) - b == a
    assert a | b == Cards.parse("5h 6s 7d") and a & b == Cards.parse("5h")
    assert a <= a + b and not (a + b) <= a
    with pytest.raises(ValueError):
        Cards.parse("5h 5h") + Cards.parse("5h")  # a third copy
    with pytest.raises(ValueError):
        a - Cards.parse("7d")  # not a sub-multiset


def test_G1_3_writing_cards() -> None:
    assert str(Cards.parse("5h 5h 10s SJ BJ")) == "5♥ 5♥ 10♠ ☆ ★"
    # T = 10, any case, suit symbols, ☆ ★, commas: Th 33, q♦ 43, AS 48, ☆ 52, ★ 53.
    assert Cards.parse("Th, ☆ ★ q♦ AS").ids == (33, 43, 48, 52, 53)
    assert Cards.parse("SJ BJ") == Cards.parse("☆ ★")
    assert Card.parse("☆").original_id == 52 and Card.parse("5h").original_id == 13
    assert Cards.parse(str(Cards.parse("2s 10d Qc Ah SJ"))) == Cards.parse("2s 10d Qc Ah SJ")


def test_G1_4_level_is_two_to_ace() -> None:
    for level in range(2, 15):
        assert readings("7s", level) == {("single", 1, 7)}
    for level in (0, 1, 15, 16, -3):
        with pytest.raises(ValueError, match="level"):
            classify(Cards.parse("7s"), level)


def test_G1_4_level_changes_how_a_hand_plays() -> None:
    # A 9 beats an A at level 9, not at level 2.
    assert beats(play("9s", 9, "single"), play("As", 9, "single"))
    assert not beats(play("9s", 2, "single"), play("As", 2, "single"))


def test_G1_5_single_card_order() -> None:
    # Level 9: 2 < 3 < ... < 8 < 10 < J < Q < K < A < 9 < ☆ < ★.
    order = ["2s", "3s", "4s", "5s", "6s", "7s", "8s", "10s", "Js", "Qs", "Ks", "As", "9s",
             "SJ", "BJ"]
    singles = [play(c, 9, "single") for c in order]
    for i, low in enumerate(singles):
        for j, high in enumerate(singles):
            assert beats(high, low) is (j > i), (order[j], order[i])


def test_G1_5_suits_never_break_ties() -> None:
    for a, b in [("9s", "9d"), ("Ah", "Ac"), ("4h", "4s")]:
        assert not beats(play(a, 2, "single"), play(b, 2, "single"))
        assert not beats(play(b, 2, "single"), play(a, 2, "single"))


def test_G1_5_level_ace() -> None:
    # At level A the A is the top natural card; the jokers are still above it.
    assert beats(play("As", 14, "single"), play("Ks", 14, "single"))
    assert beats(play("SJ", 14, "single"), play("As", 14, "single"))


def test_G1_6_wilds_are_the_level_hearts() -> None:
    # Level 10: 10♥ is wild, 10♠ is not.
    assert readings("7s 10h", 10) == {("pair", 2, 7)}
    assert readings("7s 10s", 10) == set()
    assert play("7s 10h", 10, "pair").uses_wild
    assert not play("7s 7d", 10, "pair").uses_wild
    # At level 2 the 10♥ is plain.
    assert readings("7s 10h", 2) == set()


def test_G1_6_wild_copies_a_held_card_and_is_never_a_joker() -> None:
    assert readings("7s 7s 10h", 10) == {("triple", 3, 7)}  # a third 7♠
    assert readings("10h SJ", 10) == set()
    assert readings("SJ SJ BJ 10h", 10) == set()


def test_G1_7_wilds_alone_are_level_cards() -> None:
    assert readings("10h", 10) == {("single", 1, 10)}
    assert readings("10h 10h", 10) == {("pair", 2, 10)}
    # The lone wild is a level card: above the A, below ☆.
    w = play("10h", 10, "single")
    assert beats(w, play("As", 10, "single")) and not beats(w, play("SJ", 10, "single"))
    assert beats(play("10h 10h", 10, "pair"), play("As Ad", 10, "pair"))


@pytest.mark.parametrize("text", ["5h 5h 5h", "11s", "5x", "Xh", "S J", "10"])
def test_G1_8_bad_card_text_is_refused(text: str) -> None:
    with pytest.raises(ValueError):
        Cards.parse(text)


def test_G1_8_bad_ids_and_types_are_refused() -> None:
    assert issubclass(GuandanError, ValueError)
    for bad in ([54], [-1], [3, 3, 3]):
        with pytest.raises(ValueError):
            Cards.from_ids(bad)
    with pytest.raises(ValueError):
        Cards.from_card_ids([108])
    with pytest.raises(ValueError):
        Cards.from_ids(["5h"])  # type: ignore[list-item]
    with pytest.raises(ValueError, match="level"):
        legal_plays(Cards.parse("5h"), 1)
    with pytest.raises(ValueError):  # a pile that is not a play
        legal_plays(Cards.parse("5h"), 2, Cards.parse("4s"))  # type: ignore[arg-type]


# ----------------------------------------------------------------------------- G2 combinations

def test_G2_1_single() -> None:
    assert readings("7s") == {("single", 1, 7)}
    assert readings("SJ") == {("single", 1, 15)}
    assert readings("BJ") == {("single", 1, 16)}


def test_G2_1_kind_names() -> None:
    assert Kind.SINGLE.plan_name == "SINGLE" and Kind.SINGLE.chinese == "单张"
    assert Kind.FULL_HOUSE.plan_name == "TRIPLE_PLUS_TWO" and Kind.FULL_HOUSE.chinese == "三带二"
    assert Kind.THREE_PAIRS.plan_name == "CONSECUTIVE_PAIRS"
    assert Kind.PLATE.plan_name == "STEEL_PLATE" and Kind.PLATE.chinese == "钢板"
    assert Kind.STRAIGHT_FLUSH.chinese == "同花顺" and Kind.JOKER_BOMB.chinese == "天王炸"
    assert len(Kind) == 10


def test_G2_2_pair() -> None:
    assert readings("7s 7d") == {("pair", 2, 7)}
    assert readings("7s 7s") == {("pair", 2, 7)}
    assert readings("SJ SJ") == {("pair", 2, 15)}
    assert readings("BJ BJ") == {("pair", 2, 16)}
    assert readings("SJ BJ") == set()  # ☆★ is not a pair
    assert readings("7s 8s") == set()


def test_G2_3_triple() -> None:
    assert readings("9s 9h 9d") == {("triple", 3, 9)}
    assert readings("9s 9s 9d") == {("triple", 3, 9)}
    assert readings("SJ SJ BJ") == set()
    assert readings("9s 9h 8d") == set()


def test_G2_4_full_house() -> None:
    assert readings("3s 3h 3d 5c 5d") == {("full_house", 5, 3)}
    assert readings("5s 5h 3d 3c 5d") == {("full_house", 5, 5)}  # ranked by the triple
    assert readings("3s 3h 3d SJ SJ") == {("full_house", 5, 3)}
    assert readings("3s 3h 3d BJ BJ") == {("full_house", 5, 3)}
    assert readings("3s 3h 3d SJ BJ") == set()
    assert readings("3s 3h 3d 5c 6d") == set()


def test_G2_4_the_pair_makes_distinct_plays_of_one_rank() -> None:
    # Following a full house of 3s: 444+99 and 444+88, both ranked 4.
    follow = plays("4s 4d 4c 9s 9d 8s 8d", 2, play("3s 3h 3d 5c 5d", 2, "full_house"))
    assert follow == {(Cards.parse("4s 4d 4c 9s 9d").ids, ("full_house", 5, 4)),
                      (Cards.parse("4s 4d 4c 8s 8d").ids, ("full_house", 5, 4))}


def test_G2_5_straight_windows() -> None:
    assert readings("As 2d 3c 4h 5s", 3) == {("straight", 5, 5)}
    assert readings("2s 3s 4s 5s 6d") == {("straight", 5, 6)}
    assert readings("10s Jd Qc Kh As") == {("straight", 5, 14)}
    assert readings("Js Qd Kc As 2d", 3) == set()  # no wrap
    assert readings("Ks As 2d 3c 4h", 3) == set()
    assert readings("10s Jd Qc Kh SJ") == set()  # no jokers
    assert readings("5s 6d 7c 8h 10s") == set()  # a gap


def test_G2_6_three_pairs() -> None:
    assert readings("As Ad 2s 2d 3s 3d", 5) == {("three_pairs", 6, 3)}
    assert readings("Qs Qd Ks Kd As Ad", 5) == {("three_pairs", 6, 14)}
    assert readings("8s 8d 9s 9d 10s 10d", 5) == {("three_pairs", 6, 10)}
    assert readings("Ks Kd As Ad 2s 2d", 5) == set()  # no wrap
    assert readings("8s 8d 9s 9d Js Jd", 5) == set()


def test_G2_7_plate() -> None:
    assert readings("As Ad Ac 2s 2d 2c", 5) == {("plate", 6, 2)}
    assert readings("Ks Kd Kc As Ad Ac", 5) == {("plate", 6, 14)}
    assert readings("6s 6d 6c 7s 7d 7c", 5) == {("plate", 6, 7)}
    assert readings("5s 5d 5c 7s 7d 7c", 5) == set()


def test_G2_8_bomb_sizes() -> None:
    assert readings("4s 4d 4c 4h") == {("bomb", 4, 4)}
    assert readings("4s 4s 4d 4d 4c") == {("bomb", 5, 4)}
    assert readings("4s 4s 4d 4d 4c 4c 4h 4h") == {("bomb", 8, 4)}
    # Nine and ten need wilds (level 10, W = 10♥).
    assert readings("7s 7s 7h 7h 7c 7c 7d 7d 10h", 10) == {("bomb", 9, 7)}
    assert readings("7s 7s 7h 7h 7c 7c 7d 7d 10h 10h", 10) == {("bomb", 10, 7)}
    assert readings("10s 10s 10d 10d 10c 10c 10h 10h", 10) == {("bomb", 8, 10)}
    assert play("4s 4d 4c 4h", 2, "bomb").is_bomb


def test_G2_9_straight_flush() -> None:
    assert readings("5s 6s 7s 8s 9s") == {("straight", 5, 9), ("straight_flush", 5, 9)}
    assert readings("As 2s 3s 4s 5s", 3) == {("straight", 5, 5), ("straight_flush", 5, 5)}
    assert readings("10h Jh Qh Kh Ah") == {("straight", 5, 14), ("straight_flush", 5, 14)}
    assert readings("5s 6s 7s 8s 9d") == {("straight", 5, 9)}
    assert play("5s 6s 7s 8s 9s", 2, "straight_flush").is_bomb
    assert not play("5s 6s 7s 8s 9s", 2, "straight").is_bomb


def test_G2_10_joker_bomb() -> None:
    assert readings("SJ SJ BJ BJ") == {("joker_bomb", 4, 16)}
    assert readings("SJ SJ BJ 10h", 10) == set()
    assert readings("SJ BJ BJ") == set()
    assert play("SJ SJ BJ BJ", 2, "joker_bomb").is_bomb


@pytest.mark.parametrize("text", [
    "5s 6d 7c 8h",  # four in a run
    "5s 6d 7c 8h 9s 10d",  # six in a run
    "5s 5d 6s 6d",  # two pairs
    "5s 5d 6s 6d 7s 7d 8s 8d",  # four pairs
    "5s 5d 5c 6s 6d 6c 7s 7d 7c",  # three triples
    "5s 5d 5c 6s",  # a triple and one
    "5s 5d 5c 6s 7s",
    "SJ BJ",
    "10s Jd Qc Kh SJ",
    "3s 3d 3c SJ BJ",
    "7s 7d SJ SJ",
    "",
])
def test_G2_11_nothing_else_is_a_play(text: str) -> None:
    assert readings(text, 4) == set()


def test_G2_12_level_rank_keeps_its_place_in_runs() -> None:
    assert readings("5s 6d 7c 8h 9s", 7) == {("straight", 5, 9)}
    assert readings("5s 5d 6s 6d 7s 7d", 6) == {("three_pairs", 6, 7)}
    assert readings("2s 2d 2c 3s 3d 3c", 3) == {("plate", 6, 3)}
    assert readings("10s Jd Qc Kh As", 14) == {("straight", 5, 14)}
    assert readings("As 2d 3c 4h 5s", 14) == {("straight", 5, 5)}  # A low even at level A


def test_G2_13_wilds_in_every_kind() -> None:
    lv = 10  # W = 10♥
    assert readings("9s 9d 10h", lv) == {("triple", 3, 9)}
    assert readings("9s 9d 9c 4s 10h", lv) == {("full_house", 5, 9)}  # W as a 4
    assert readings("7s 7d 10h SJ SJ", lv) == {("full_house", 5, 7)}
    assert readings("2s 3d 4c 5s 10h", lv) == {("straight", 5, 5), ("straight", 5, 6)}
    assert readings("Js Qd Kc As 10h", lv) == {("straight", 5, 14)}
    assert readings("As Ad 2s 2d 3s 10h", lv) == {("three_pairs", 6, 3)}
    assert readings("Qs Qd Ks Kd As 10h", lv) == {("three_pairs", 6, 14)}
    assert readings("As Ad 2s 2d 2c 10h", lv) == {("plate", 6, 2)}
    assert readings("Ks Kd Kc As Ad 10h", lv) == {("plate", 6, 14)}
    assert readings("9s 9d 10h 10h", lv) == {("bomb", 4, 9)}
    assert readings("3s 4s 6s 7s 10h", lv) == {("straight", 5, 7), ("straight_flush", 5, 7)}
    # The level wild stands for the 7♠ it is not: a spade straight flush at level 7.
    assert readings("5s 6s 7h 8s 9s", 7) == {("straight", 5, 9), ("straight_flush", 5, 9)}


def test_G2_13_no_wild_in_joker_parts() -> None:
    assert readings("7s 7d 7c SJ 10h", 10) == set()
    assert readings("7s 7d 10h 10h SJ", 10) == set()
    assert readings("10h 10h SJ SJ", 10) == set()


def test_G2_14_several_readings() -> None:
    # W as 2 (2..6) or 7 (3..7).
    assert readings("3s 4d 5c 6h 10h", 10) == {("straight", 5, 6), ("straight", 5, 7)}
    # WW as any other pair (full house) or two more 7s (five-card bomb).
    assert readings("7s 7d 7c 10h 10h", 10) == {("full_house", 5, 7), ("bomb", 5, 7)}
    # The same at level 7, where the wilds are 7♥s themselves.
    assert readings("7s 7d 7c 7h 7h", 7) == {("full_house", 5, 7), ("bomb", 5, 7)}
    # W as a 7 (777+88) or an 8 (888+77).
    assert readings("7s 7d 8s 8d 10h", 10) == {("full_house", 5, 7), ("full_house", 5, 8)}
    # WW as 77, as 44, or as one 5 and one 6 (a plate).
    assert readings("5s 5d 6s 6d 10h 10h", 10) == {
        ("three_pairs", 6, 6), ("three_pairs", 6, 7), ("plate", 6, 6)}
    assert readings("3s 4s 5s 6s 10h", 10) == {
        ("straight", 5, 6), ("straight", 5, 7), ("straight_flush", 5, 6),
        ("straight_flush", 5, 7)}


def test_G2_14_legal_plays_list_both_readings_of_a_one_suit_straight() -> None:
    five = Cards.parse("5s 6s 7s 8s 9s").ids
    listed = plays("5s 6s 7s 8s 9s")
    assert (five, ("straight", 5, 9)) in listed and (five, ("straight_flush", 5, 9)) in listed
    # Played as an ordinary straight it follows a straight and is no bomb.
    assert beats(play("5s 6s 7s 8s 9s", 2, "straight"), play("4d 5d 6d 7d 8c", 2, "straight"))


# Hand-derived counts, each also checked against the reference.
COUNTS = [
    ("3s 3d", 2, None, 3),  # 3s, 3d, 3s3d
    ("3s 3s", 2, None, 2),
    ("10h 10h", 10, None, 2),  # single 10, pair 10
    ("3s 10h", 10, None, 3),  # 3s, W, 3s+W
    ("5s 6s 7s 8s 9s", 2, None, 7),  # 5 singles, straight, straight flush
    ("SJ SJ BJ BJ", 2, None, 5),  # ☆ ★ ☆☆ ★★ and the joker bomb
    ("7s 7d 7c 7h", 2, None, 15),  # 4 + 6 + 4 + 1
    ("7s 7h 7h 8s", 7, None, 8),  # 7s 8s W; 7s+W 8s+W WW; 7s+WW 8s+WW
    ("3s 4d 5c 6h 10h", 10, None, 11),  # 5 singles, 4 pairs x+W, straights 6 and 7
    ("3s 4s 5s 6s 10h", 10, None, 13),  # ... and straight flushes 6 and 7
    ("3s 3d 3c SJ SJ BJ", 2, None, 11),  # 5 singles, 4 pairs, 1 triple, 1 full house
    # 5 singles + 7 pairs + 6 triples + 2 bombs + 10 full houses + 3 six-card readings
    ("5s 5d 6s 6d 10h 10h", 10, None, 33),
    ("5s 5d 6s 6d 10h 10h", 10, ("pair", 2, 9), 3),  # WW and the two bombs
    # 10 singles + 5 pairs + 3 three pairs + 32 straights + 2 straight flushes
    ("3s 4s 5s 6s 7s 3d 4d 5d 6d 7d", 2, None, 52),
    ("3s 4s 5s 6s 7s 3d 4d 5d 6d 7d", 2, ("straight", 5, 6), 34),
]


@pytest.mark.parametrize("text,level,pile,count", COUNTS, ids=[c[0] for c in COUNTS])
def test_G2_15_legal_play_counts(text, level, pile, count) -> None:
    assert ref_count(text, level, pile, ref.STANDARD) == count  # the reference agrees
    hand = Cards.parse(text)
    pile_play = None
    if pile is not None:  # a pile of that reading, built from cards outside the hand
        pile_play = {("pair", 9): play("9s 9d", level, "pair"),
                     ("straight", 6): play("2c 3c 4h 5h 6c", level, "straight")}[pile[::2]]
    listed = legal_plays(hand, level, pile_play)
    assert len(listed) == count
    assert count_legal_plays(hand, level, pile_play) == count
    assert len({(p.cards, p.kind, p.rank) for p in listed}) == count  # distinct
    assert all(p.cards <= hand for p in listed)


def test_G2_15_one_play_per_reading_whatever_the_wilds_stand_for() -> None:
    # 3 4 5 W W: A2345 can be made many ways (W = A♠ or A♦ ...): still one play per reading.
    whole = Cards.parse("3s 4d 5c 10h 10h").ids
    listed = plays("3s 4d 5c 10h 10h", 10)
    assert {r for ids, r in listed if ids == whole} == {
        ("straight", 5, 5), ("straight", 5, 6), ("straight", 5, 7)}


def test_G2_15_every_play_is_a_reading_of_its_cards() -> None:
    hand = Cards.parse("5s 5d 6s 6d 7s 7h 7h 8c SJ SJ BJ BJ Ks")
    for p in legal_plays(hand, 7):
        assert p.level == 7
        assert (p.kind, p.rank, p.size) in {(q.kind, q.rank, q.size) for q in classify(p.cards, 7)}
        assert len(p.cards) == p.size


# ----------------------------------------------------------------------------- G3 beating

def test_G3_1_same_kind_same_size_strictly_higher() -> None:
    assert beats(play("6s", 2, "single"), play("5s", 2, "single"))
    assert not beats(play("5d", 2, "single"), play("5s", 2, "single"))  # equal
    assert not beats(play("6s 6d", 2, "pair"), play("5s", 2, "single"))
    assert not beats(play("As Ad", 2, "pair"), play("3s 3d 3c", 2, "triple"))
    assert not beats(play("Ks Kd Kc As Ad Ac", 5, "plate"),
                     play("As Ad 2s 2d 3s 3d", 5, "three_pairs"))
    assert not beats(play("As Ad 2s 2d 3s 3d", 5, "three_pairs"),
                     play("As Ad Ac 2s 2d 2c", 5, "plate"))
    assert not beats(play("5s 6d 7c 8h 9s", 2, "straight"), play("5d 6s 7h 8c 9d", 2, "straight"))


def test_G3_1_plays_of_different_levels_do_not_compare() -> None:
    with pytest.raises(ValueError):
        beats(play("9s", 9, "single"), play("8s", 2, "single"))


def test_G3_2_ranked_kinds_use_the_single_card_order() -> None:
    assert beats(play("2s 2d", 2, "pair"), play("As Ad", 2, "pair"))  # level 2 above A
    assert beats(play("SJ SJ", 2, "pair"), play("2s 2d", 2, "pair"))
    assert beats(play("BJ BJ", 2, "pair"), play("SJ SJ", 2, "pair"))
    assert beats(play("10s 10d 10c", 10, "triple"), play("As Ad Ac", 10, "triple"))
    assert beats(play("10s 10d 10c 3s 3d", 10, "full_house"),
                 play("As Ad Ac Ks Kd", 10, "full_house"))


def test_G3_2_full_house_compares_its_triple_only() -> None:
    # Level 3: 333 is the level triple, above 444 whatever the pairs.
    assert not beats(play("4s 4d 4c 2s 2d", 3, "full_house"),
                     play("3s 3d 3c As Ad", 3, "full_house"))
    assert beats(play("4s 4d 4c 2s 2d", 9, "full_house"), play("3s 3d 3c As Ad", 9, "full_house"))
    assert not beats(play("4s 4d 4c 2s 2d", 9, "full_house"),
                     play("4h 4h 4c Ks Kd", 9, "full_house"))  # same triple rank: equal


def test_G3_3_runs_compare_by_window_without_promotion() -> None:
    assert not beats(play("2s 3d 4c 5h 6s", 6, "straight"), play("10s Jd Qc Kh As", 6, "straight"))
    assert beats(play("10s Jd Qc Kh As", 6, "straight"), play("2s 3d 4c 5h 6s", 6, "straight"))
    # A2345 is the lowest straight.
    low = play("As 2d 3c 4h 5s", 3, "straight")
    assert beats(play("2s 3d 4c 5h 6s", 3, "straight"), low)
    assert beats(play("3s 4d 5c 6h 7s", 3, "straight"), low)
    assert beats(play("2s 2d 3s 3d 4s 4d", 3, "three_pairs"),
                 play("As Ad 2c 2h 3c 3h", 3, "three_pairs"))
    assert beats(play("2s 2d 2c 3s 3d 3c", 14, "plate"), play("As Ad Ac 2h 2h 2c", 14, "plate"))


def test_G3_4_bombs_beat_every_non_bomb() -> None:
    bomb = play("3s 3d 3c 3h", 2, "bomb")
    for text, kind in [("BJ", "single"), ("BJ BJ", "pair"), ("10s Jd Qc Kh As", "straight"),
                       ("Ks Kd Kc As Ad Ac", "plate"), ("2s 2d 2c As Ad", "full_house")]:
        other = play(text, 2, kind)
        assert beats(bomb, other) and not beats(other, bomb)
    flush = play("As 2s 3s 4s 5s", 3, "straight_flush")
    assert beats(flush, play("10d Jd Qc Kh As", 3, "straight"))


def test_G3_5_bomb_order_by_count() -> None:
    # 4 < 5 < straight flush < 6 < 7 < 8 < 9 < 10, each the weakest of its class here.
    chain = [
        play("As Ad Ac Ah", 3, "bomb"),
        play("2s 2s 2d 2c 2h", 3, "bomb"),
        play("As 2s 3s 4s 5s", 3, "straight_flush"),  # the lowest straight flush
        play("2s 2s 2d 2d 2c 2h", 3, "bomb"),
        play("2s 2s 2d 2d 2c 2c 2h", 3, "bomb"),
        play("2s 2s 2d 2d 2c 2c 2h 2h", 3, "bomb"),
        play("2s 2s 2d 2d 2c 2c 2h 2h 3h", 3, "bomb"),  # with the wild
        play("2s 2s 2d 2d 2c 2c 2h 2h 3h 3h", 3, "bomb"),
        play("SJ SJ BJ BJ", 3, "joker_bomb"),
    ]
    for i, low in enumerate(chain):
        for high in chain[i + 1:]:
            assert beats(high, low) and not beats(low, high), (high, low)
    # The top five-card bomb (of the level rank 3) still loses to the lowest straight flush.
    assert beats(chain[2], play("3s 3s 3d 3d 3c", 3, "bomb"))


def test_G3_5_same_size_by_rank_and_flush_by_window() -> None:
    assert beats(play("3s 3d 3c 3h", 3, "bomb"), play("As Ad Ac Ah", 3, "bomb"))  # level 3
    assert beats(play("Ks Kd Kc Kh", 3, "bomb"), play("Qs Qd Qc Qh", 3, "bomb"))
    hi = play("6d 7d 8d 9d 10d", 2, "straight_flush")
    assert beats(hi, play("5s 6s 7s 8s 9s", 2, "straight_flush"))
    # Same window, other suit: equal, neither beats.
    same = play("6c 7c 8c 9c 10c", 2, "straight_flush")
    assert not beats(hi, same) and not beats(same, hi)
    # No promotion for straight flushes: at level 6, 23456 is the weaker flush.
    assert not beats(play("2s 3s 4s 5s 6s", 6, "straight_flush"),
                     play("3d 4d 5d 6d 7d", 6, "straight_flush"))


def test_G3_6_joker_bomb_beats_everything() -> None:
    rocket = play("SJ SJ BJ BJ", 10, "joker_bomb")
    for text, kind in [("7s 7s 7h 7h 7c 7c 7d 7d 10h 10h", "bomb"),
                       ("10s Js Qs Ks As", "straight_flush"), ("BJ", "single")]:
        other = play(text, 10, kind)
        assert beats(rocket, other) and not beats(other, rocket)
    assert not beats(rocket, rocket)
    assert not beats(play("7s 7s 7h 7h 7c 7c 7d 7d 10h 10h", 10, "bomb", config=BY_RANK),
                     play("SJ SJ BJ BJ", 10, "joker_bomb", config=BY_RANK), BY_RANK)


# ----------------------------------------------------------------------------- G4 RuleConfig

def test_G4_1_standard_defaults_frozen_hashable_serialisable() -> None:
    assert STD == RuleConfig()
    assert STD.same_suit_straight_beats_bomb is True
    assert STD.double_down_levels == 3
    assert STD.can_tribute_wild is False
    assert STD.tribute_return_max_rank == 10
    assert STD.straight_extends_to_ace is True
    assert STD.bomb_compare_priority == BombOrder.BY_COUNT
    assert STD.wild_count == 2
    assert STD.team_formation == TeamFormation.FIXED_1_3
    assert STD.failed_attempts_limit == 3
    with pytest.raises(Exception):
        STD.wild_count = 0  # type: ignore[misc]
    assert len({STD, RuleConfig(), HUAIAN, RuleConfig.huaian()}) == 2
    assert pickle.loads(pickle.dumps(HUAIAN)) == HUAIAN


@pytest.mark.parametrize("field,bad", [("wild_count", 1), ("wild_count", 3),
                                       ("tribute_return_max_rank", 1),
                                       ("tribute_return_max_rank", 15),
                                       ("failed_attempts_limit", -1)])
def test_G4_1_bad_field_values_are_refused(field: str, bad: int) -> None:
    with pytest.raises(ValueError):
        RuleConfig(**{field: bad})


def test_G4_2_same_suit_straight_beats_bomb_off() -> None:
    assert readings("5s 6s 7s 8s 9s", 2, NO_FLUSH) == {("straight", 5, 9)}
    assert count_legal_plays(Cards.parse("5s 6s 7s 8s 9s"), 2, None, NO_FLUSH) == 6
    assert count_legal_plays(Cards.parse("3s 4s 5s 6s 10h"), 10, None, NO_FLUSH) == 11
    # the same cards do not follow a 4-card bomb any more
    bomb = play("As Ad Ac Ah", 2, "bomb", config=NO_FLUSH)
    assert count_legal_plays(Cards.parse("5s 6s 7s 8s 9s"), 2, bomb, NO_FLUSH) == 0
    assert count_legal_plays(Cards.parse("5s 6s 7s 8s 9s"), 2, play("As Ad Ac Ah", 2, "bomb")) == 1


def test_G4_3_straight_extends_to_ace_off() -> None:
    assert readings("10s Jd Qc Kh As", 2, NO_ACE_TOP) == set()
    assert readings("10h Jh Qh Kh Ah", 2, NO_ACE_TOP) == set()
    assert readings("9s 10d Jc Qh Ks", 2, NO_ACE_TOP) == {("straight", 5, 13)}
    assert readings("As 2s 3s 4s 5s", 3, NO_ACE_TOP) == {("straight", 5, 5),
                                                        ("straight_flush", 5, 5)}
    assert readings("10s Js Qd Kc 10h", 10, NO_ACE_TOP) == {("straight", 5, 13)}  # W not A
    assert readings("Qs Qd Ks Kd As Ad", 2, NO_ACE_TOP) == {("three_pairs", 6, 14)}
    assert readings("Ks Kd Kc As Ad Ac", 2, NO_ACE_TOP) == {("plate", 6, 14)}
    assert count_legal_plays(Cards.parse("As Ks Qs Js 10s"), 2, None, NO_ACE_TOP) == 5


def test_G4_4_bomb_compare_by_rank() -> None:
    def b(text: str, kind: str, level: int = 2):
        return play(text, level, kind, config=BY_RANK)

    assert beats(b("As Ad Ac Ah", "bomb"), b("Ks Ks Kd Kd Kc Kh", "bomb"), BY_RANK)
    assert not beats(b("Ks Ks Kd Kd Kc Kh", "bomb"), b("As Ad Ac Ah", "bomb"), BY_RANK)
    assert beats(b("9s 9s 9d 9c 9h", "bomb"), b("9s 9d 9c 9h", "bomb"), BY_RANK)
    # A straight flush is 5½ cards ranked by its top card.
    sf9 = b("5s 6s 7s 8s 9s", "straight_flush")
    assert beats(sf9, b("9s 9s 9d 9c 9h", "bomb"), BY_RANK)
    assert beats(b("9s 9s 9d 9d 9c 9h", "bomb"), sf9, BY_RANK)
    assert beats(b("10s 10d 10c 10h", "bomb"), sf9, BY_RANK)
    assert beats(b("6d 7d 8d 9d 10d", "straight_flush"), b("9s 9s 9d 9d 9c 9c 9h 9h", "bomb"),
                 BY_RANK)
    # A level bomb ranks above every straight flush; the joker bomb stays on top.
    assert beats(b("5s 5d 5c 5s", "bomb", 5), b("10h Jh Qh Kh Ah", "straight_flush", 5), BY_RANK)
    assert beats(b("SJ SJ BJ BJ", "joker_bomb"), b("As As Ad Ad Ac Ac Ah Ah", "bomb"), BY_RANK)
    # the default order disagrees on the first case
    assert not beats(play("As Ad Ac Ah", 2, "bomb"), play("Ks Ks Kd Kd Kc Kh", 2, "bomb"))


def test_G4_5_wild_count_zero() -> None:
    assert readings("3h 5s", 3, NO_WILDS) == set()
    assert readings("3h 5s", 3) == {("pair", 2, 5)}
    assert readings("3s 4d 5c 6h 2h", 2, NO_WILDS) == {("straight", 5, 6)}
    assert readings("5s 6s 7h 8s 9s", 7, NO_WILDS) == {("straight", 5, 9)}
    assert not play("3h 3d", 3, "pair", config=NO_WILDS).uses_wild
    # the level rank is still high
    assert beats(play("3h", 3, "single", config=NO_WILDS), play("As", 3, "single", config=NO_WILDS),
                 NO_WILDS)
    assert count_legal_plays(Cards.parse("3s 10h"), 10, None, NO_WILDS) == 2


@pytest.mark.parametrize("label,field,value", [
    ("G4_6", "double_down_levels", 2),
    ("G4_7", "can_tribute_wild", True),
    ("G4_8", "tribute_return_max_rank", 8),
    ("G4_9", "team_formation", "RANDOM"),
    ("G4_10", "failed_attempts_limit", 0),
])
def test_G4_6_to_G4_10_game_fields_leave_plays_alone(label, field, value) -> None:
    if field == "team_formation":
        value = TeamFormation.RANDOM
    config = RuleConfig(**{field: value})
    assert getattr(config, field) == value and config != STD
    hand = "5s 5d 6s 6d 10h 10h 7s 8s 9s SJ SJ BJ"
    assert plays(hand, 10, None, config) == plays(hand, 10, None, STD)


def test_G4_6_double_down_levels() -> None:
    assert RuleConfig(double_down_levels=4).double_down_levels == 4


def test_G4_7_can_tribute_wild() -> None:
    assert RuleConfig(can_tribute_wild=True).can_tribute_wild is True


def test_G4_8_tribute_return_max_rank() -> None:
    assert RuleConfig(tribute_return_max_rank=8).tribute_return_max_rank == 8


def test_G4_9_team_formation() -> None:
    assert RuleConfig(team_formation=TeamFormation.RANDOM).team_formation == TeamFormation.RANDOM


def test_G4_10_failed_attempts_limit() -> None:
    assert RuleConfig(failed_attempts_limit=0).failed_attempts_limit == 0


def test_G4_11_huaian_preset() -> None:
    assert HUAIAN == RuleConfig(same_suit_straight_beats_bomb=False,
                                straight_extends_to_ace=False)
    assert readings("5s 6s 7s 8s 9s", 2, HUAIAN) == {("straight", 5, 9)}
    assert readings("10h Jh Qh Kh Ah", 2, HUAIAN) == set()
    assert count_legal_plays(Cards.parse("3s 4s 5s 6s 7s 3d 4d 5d 6d 7d"), 2, None, HUAIAN) == 50
    assert ref_count("3s 4s 5s 6s 7s 3d 4d 5d 6d 7d", 2, None, ref.HUAIAN) == 50
