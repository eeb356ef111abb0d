"""Kind, Rules, Combo and the classify / beats / legal_moves wrappers (R2, R3, R4, R5.2, R7.2).

Expected values are worked out by hand from RULES.md, not taken from the core.
"""

from __future__ import annotations

import dataclasses
import pickle
import random

import pytest

from tienlen import core
from tienlen.games.tienlen.cards import Card, Cards
from tienlen.games.tienlen.plays import Combo, Kind, beats, classify, count_legal_moves, legal_moves
from tienlen.errors import ComboError
from tienlen.games.tienlen.rules import Rules

NO_TWOS = Rules(twos_in_sequences=False)


def kind_of(text: str, rules: Rules = Rules()) -> Kind | None:
    combo = classify(text, rules)
    return None if combo is None else combo.kind


def moves_text(moves: list[Cards]) -> list[str]:
    return [move.ascii() for move in moves]


# --- Kind and Rules ------------------------------------------------------------------


def test_kind_values_match_core():
    assert [int(kind) for kind in Kind] == [1, 2, 3, 4, 5, 6]
    for kind in Kind:
        assert getattr(core, kind.name) == kind
    assert Kind.DOUBLE_SEQUENCE.label == "double sequence" and Kind.SINGLE.label == "single"


def test_rules_default_is_the_contract():
    assert Rules() == Rules.from_name("default") and Rules().flags == 0
    assert Rules().twos_in_sequences is True and Rules().name == "default"


def test_R2_8_rules_no_twos_flags():
    assert NO_TWOS == Rules.from_name("no-twos") and NO_TWOS.name == "no-twos"
    assert NO_TWOS.flags == core.NO_TWOS_IN_SEQUENCES
    for name in Rules.NAMES:
        assert Rules.from_name(name).name == name
        preset = Rules.from_name(name)
        # Penalties are the Match's business, not the core's: from_flags takes them apart.
        assert Rules.from_flags(preset.flags, preset.penalties) == preset


def test_rules_rejects_bad_values():
    with pytest.raises(ValueError, match="unknown rules 'house'"):
        Rules.from_name("house")
    with pytest.raises(ValueError, match="unknown rule flags"):
        Rules.from_flags(1 << 37)
    with pytest.raises(ValueError, match="must be a bool"):
        Rules(twos_in_sequences=0)  # type: ignore[arg-type]
    with pytest.raises(dataclasses.FrozenInstanceError):
        Rules().twos_in_sequences = False  # type: ignore[misc]
    assert len({Rules(), Rules(), NO_TWOS}) == 2


# --- R2: combinations ----------------------------------------------------------------


def test_R2_1_single():
    combo = classify("7d")
    assert combo is not None and combo.kind is Kind.SINGLE
    assert combo.top == Card.parse("7d") and len(combo) == 1
    assert all(kind_of(str(Card(i))) is Kind.SINGLE for i in range(52))


def test_R2_2_pair():
    assert kind_of("5s 5h") is Kind.PAIR and classify("5s 5h").top == Card.parse("5h")
    assert kind_of("2s 2c") is Kind.PAIR
    assert kind_of("5s 6s") is None


def test_R2_3_triple():
    assert kind_of("9c 9d 9h") is Kind.TRIPLE and len(classify("9c 9d 9h")) == 3
    assert kind_of("9c 9d 10h") is None


def test_R2_4_quad():
    combo = classify("Qs Qc Qd Qh")
    assert combo.kind is Kind.QUAD and combo.top == Card.parse("Qh") and len(combo) == 4


def test_R2_5_sequence():
    assert kind_of("4s 5c 6d") is Kind.SEQUENCE
    assert kind_of("3h 4h 5h 6h 7h 8h 9h 10h Jh Qh Kh Ah") is Kind.SEQUENCE
    combo = classify("6d 4s 5c 7s")
    assert len(combo) == 4 and combo.top == Card.parse("7s")
    assert kind_of("4s 5c") is None  # a sequence needs three ranks
    assert kind_of("4s 5c 5d 6h") is None  # exactly one card of each rank
    assert kind_of("4s 6c 7d") is None  # consecutive ranks


def test_R2_6_double_sequence():
    assert kind_of("3s 3c 4d 4h 5s 5c") is Kind.DOUBLE_SEQUENCE
    assert len(classify("8s 8c 9d 9h 10s 10c Js Jh")) == 8
    assert kind_of("3s 3c 4d 4h") is None  # two pairs are not enough
    assert kind_of("3s 3c 4d 4h 4s 5s 5c") is None  # exactly two of each rank
    assert kind_of("3s 3c 5s 5c 6s 6c") is None  # consecutive ranks
    assert kind_of("5s 5h 9s 9h") is None  # nothing else is a combination
    assert kind_of("") is None


def test_R2_7_no_wrap_around():
    assert kind_of("Js Qs Ks As 2s") is Kind.SEQUENCE
    assert kind_of("Ks Kc As Ac 2s 2c") is Kind.DOUBLE_SEQUENCE
    assert kind_of("As 2s 3s") is None
    assert kind_of("2s 3s 4s") is None
    assert kind_of("Ks As 2s 3s") is None
    assert kind_of("As Ac 2s 2c 3s 3c") is None


def test_R2_8_no_twos_variant():
    assert kind_of("Js Qs Ks As 2s", NO_TWOS) is None
    assert kind_of("Ks As 2s", NO_TWOS) is None
    assert kind_of("Ks Kc As Ac 2s 2c", NO_TWOS) is None
    # Everything else is unchanged.
    assert kind_of("Qs Ks As", NO_TWOS) is Kind.SEQUENCE
    assert kind_of("Qs Qc Ks Kc As Ac", NO_TWOS) is Kind.DOUBLE_SEQUENCE
    assert kind_of("2s", NO_TWOS) is Kind.SINGLE and kind_of("2s 2h", NO_TWOS) is Kind.PAIR
    assert kind_of("2s 2c 2h", NO_TWOS) is Kind.TRIPLE
    assert kind_of("2s 2c 2d 2h", NO_TWOS) is Kind.QUAD


# --- Combo ---------------------------------------------------------------------------


def test_combo_fields_and_text():
    combo = Combo.from_cards(Cards.parse("5h 5s"))
    assert combo.kind is Kind.PAIR and combo.cards == Cards.parse("5s 5h")
    assert combo.top == Card.parse("5h") and len(combo) == 2
    assert combo.code == core.classify(combo.cards.mask, 0)
    assert combo.code == (2 << 12) | (2 << 6) | combo.top
    assert str(combo) == "pair 5♠ 5♥" and f"{combo:a}" == "pair 5s 5h"
    assert combo.describe() == "pair of fives, five of hearts high"
    assert eval(repr(combo)) == combo
    assert classify("5s 5h") == combo and hash(classify("5s 5h")) == hash(combo)
    assert combo != classify("5s 5d") and combo != combo.cards


@pytest.mark.parametrize(
    "text, words",
    [
        ("Qd", "single queen of diamonds"),
        ("6s 6c 6h", "triple of sixes, six of hearts high"),
        ("2s 2c 2d 2h", "quad of twos, two of hearts high"),
        ("9s 10s Jh", "sequence of 3 cards, nine to jack, jack of hearts high"),
        ("Js Qs Ks As 2c", "sequence of 5 cards, jack to two, two of clubs high"),
        ("3s 3c 4d 4h 5s 5h", "double sequence of 3 pairs, three to five, five of hearts high"),
    ],
)
def test_combo_describe(text, words):
    assert Combo.from_cards(text).describe() == words


def test_combo_from_cards_raises_classify_returns_none():
    with pytest.raises(ComboError, match="not a combination: 3♠ 5♠"):
        Combo.from_cards("3s 5s")
    with pytest.raises(ComboError):
        Combo.from_cards(Cards())
    with pytest.raises(ComboError):
        Combo.from_cards("Js Qs Ks As 2s", NO_TWOS)
    assert classify("3s 5s") is None and classify(Cards()) is None
    assert Combo.from_cards("Js Qs Ks As 2s", Rules()).kind is Kind.SEQUENCE


def test_combo_is_immutable_and_pickles():
    combo = classify("4s 5s 6s")
    with pytest.raises(AttributeError):
        combo.kind = Kind.PAIR  # type: ignore[misc]
    with pytest.raises(AttributeError):
        combo._code = 0
    assert combo.kind is Kind.SEQUENCE
    assert pickle.loads(pickle.dumps(combo)) == combo


def test_classify_input_forms():
    assert classify(Cards.parse("5s 5h")) == classify("5s 5h") == classify([Card(8), Card(11)])
    with pytest.raises(ValueError):
        classify("5s 5x")
    with pytest.raises(ValueError):
        classify(Cards(1 << 52))
    with pytest.raises(ValueError):
        classify(1 << 52)  # type: ignore[arg-type]


# --- R3: beating ---------------------------------------------------------------------


def test_R3_1_same_kind_same_length_higher_top():
    assert beats("6s", "5h") and not beats("5h", "6s") and not beats("5h", "5h")
    assert beats("4s 5s 6s 7s", "3h 4h 5h 6h")
    assert beats("7s 7c 7d", "6s 6c 6h") and not beats("6s 6c 6h", "7s 7c 7d")
    assert beats("Qs Qc Ks Kc As Ac", "Js Jc Qd Qh Kd Kh")


def test_R3_2_top_card_decides():
    assert beats("5h 5s", "5d 5c") and not beats("5d 5c", "5h 5s")
    assert beats("9s 10s Jh", "9h 10h Jd") and not beats("9h 10h Jd", "9s 10s Jh")
    assert beats("3s 4s 5h", "3h 4h 5d")


def test_R3_3_kinds_never_beat_each_other():
    assert not beats("5s 5h", "4s")  # a pair never beats a single
    assert not beats("4s", "3s 3c")
    assert not beats("4s 5s 6s 7s", "3s 4c 5d")  # a 4-card sequence never beats a 3-card one
    assert not beats("3s 4c 5d", "Js Qs Ks As")
    assert not beats("9s 9c 9d", "8s 8h")
    assert not beats("3s 3c 4d 4h 5s 5h", "3d 4s 5c")


def test_beats_lead_and_input_forms():
    assert beats("3s", None) and beats("3s 3c 4d 4h 5s 5h", None) and beats("3s", Cards())
    assert not beats("3s 5s", None) and not beats("3s 5s", "3c")  # not a combination
    pair = classify("9s 9h")
    assert beats(classify("10s 10c"), pair) and beats(Cards.parse("10s 10c"), pair)
    with pytest.raises(ComboError, match="pile is not a combination: 3♠ 5♠"):
        beats("9s", "3s 5s")


# --- R4: bombs -----------------------------------------------------------------------


@pytest.mark.parametrize(
    "bomb, twos",
    [
        ("3s 3c 3d 3h", "2s"),  # quad on a single 2
        ("Ks Kc Kd Kh", "2h"),
        ("3s 3c 4d 4h 5s 5h", "2h"),  # double sequence of 3 pairs on a single 2
        ("3s 3c 4d 4h 5s 5h 6s 6h", "2s 2h"),  # 4 pairs on a pair of 2s
        ("3s 3c 4d 4h 5s 5h 6s 6h 7s 7h", "2s 2c 2h"),  # 5 pairs on a triple of 2s
    ],
)
def test_R4_1_bomb_table(bomb, twos):
    assert beats(bomb, twos)


@pytest.mark.parametrize(
    "bomb, pile",
    [
        ("3s 3c 3d 3h", "2s 2h"),  # a quad beats only a single 2
        ("3s 3c 3d 3h", "Ah"),  # not a non-2 combination
        ("3s 3c 4d 4h 5s 5h", "Ah"),
        ("3s 3c 4d 4h 5s 5h", "2s 2h"),  # 3 pairs do not beat a pair of 2s
        ("3s 3c 4d 4h 5s 5h 6s 6h", "2h"),  # 4 pairs do not beat a single 2
        ("3s 3c 4d 4h 5s 5h 6s 6h", "2s 2c 2h"),
        ("3s 3c 4d 4h 5s 5h 6s 6h 7s 7h", "2h"),
        ("3s 3c 4d 4h 5s 5h 6s 6h 7s 7h", "Ks Kc Kh"),
        ("Ks Kc Kd Kh", "3s 3c 4d 4h 5s 5h"),  # quads and double sequences never beat
        ("Qs Qc Ks Kc As Ac", "3s 3c 3d 3h"),  # each other
        ("3s 3c 3d 3h", "2s 2c 2h"),
    ],
)
def test_R4_2_bombs_beat_nothing_else(bomb, pile):
    assert not beats(bomb, pile)


def test_R4_3_bomb_on_pile_is_ordinary():
    assert beats("4s 4c 4d 4h", "3s 3c 3d 3h") and not beats("3s 3c 3d 3h", "4s 4c 4d 4h")
    assert beats("4s 4c 5d 5h 6s 6h", "3s 3c 4d 4h 5s 5c")
    assert not beats("2s", "3s 3c 3d 3h")  # a 2 does not beat the bomb played on it
    assert not beats("3s 3c 4d 4h 5s 5h 6s 6c", "3d 3h 4s 4c 5d 5c")  # different length


# --- legal_moves / count_legal_moves -------------------------------------------------


def test_legal_moves_lead_hand_checked():
    # 4 singles, the pair of 3s, and 3-4-5 with either 3.
    moves = legal_moves("3s 3c 4d 5h")
    assert moves_text(moves) == ["3s", "3c", "4d", "5h", "3s 3c", "3s 4d 5h", "3c 4d 5h"]
    assert all(type(move) is Cards for move in moves)
    assert count_legal_moves("3s 3c 4d 5h") == 7


def test_R3_1_legal_moves_on_a_single():
    assert moves_text(legal_moves("3s 3c 4d 5h", "4h")) == ["5h"]
    assert moves_text(legal_moves("3s 3c 4d 5h", "3h")) == ["4d", "5h"]
    assert count_legal_moves("3s 3c 4d 5h", "3h") == 2


def test_R3_3_legal_moves_follow_kind_and_length():
    hand = "3s 3c 4d 4h 5s 5h 6c 7d"
    assert moves_text(legal_moves(hand, "Ks As 2s")) == []  # top 2s: no higher 3-sequence
    # Only 4-card runs ending above 7♣ count: 4-5-6-7 with either 4 and either 5.
    assert moves_text(legal_moves(hand, "4s 5c 6s 7c")) == [
        "4d 5s 6c 7d", "4h 5s 6c 7d", "4d 5h 6c 7d", "4h 5h 6c 7d"]
    assert moves_text(legal_moves(hand, "4s 4c")) == ["4d 4h", "5s 5h"]


def test_R2_7_legal_moves_sequences_with_a_two():
    hand = "Js Qs Ks As 2s"
    default = moves_text(legal_moves(hand))
    # 5 singles; sequences J-Q-K, Q-K-A, K-A-2, J-Q-K-A, Q-K-A-2, J-Q-K-A-2.
    assert len(default) == 11 and "Ks As 2s" in default and "Js Qs Ks As 2s" in default
    assert count_legal_moves(hand) == 11


def test_R2_8_legal_moves_no_twos():
    hand = "Js Qs Ks As 2s"
    moves = moves_text(legal_moves(hand, rules=NO_TWOS))
    assert moves == ["Js", "Qs", "Ks", "As", "2s", "Js Qs Ks", "Qs Ks As", "Js Qs Ks As"]
    assert count_legal_moves(hand, rules=NO_TWOS) == 8


def test_R4_1_legal_moves_bombs_on_twos():
    hand = "3s 3c 3d 3h 4s 4c 5d 5h 9s"
    on_single_two = moves_text(legal_moves(hand, "2s"))
    # No single beats 2♠ here; the quad and the 3-pair double sequences (3 choices of
    # two 3s among four: 6) are bombs.
    assert on_single_two[0] == "3s 3c 3d 3h" and len(on_single_two) == 1 + 6
    assert moves_text(legal_moves(hand, "2s 2c")) == []  # a 4-pair run is needed


def test_R5_2_locked_out_only_bombs_on_twos():
    hand = "3s 3c 3d 3h 2h 9s"
    assert moves_text(legal_moves(hand, "2s")) == ["2h", "3s 3c 3d 3h"]
    assert moves_text(legal_moves(hand, "2s", locked_out=True)) == ["3s 3c 3d 3h"]
    assert count_legal_moves(hand, "2s", locked_out=True) == 1
    # On anything but 2s a locked-out player has no play, even a higher single.
    assert legal_moves(hand, "8s", locked_out=True) == []
    assert count_legal_moves(hand, "8s", locked_out=True) == 0
    assert moves_text(legal_moves(hand, "8s")) == ["9s", "2h"]


def test_R7_2_must_include():
    hand = "3s 3c 4d 5h"
    assert moves_text(legal_moves(hand, must_include="3s")) == ["3s", "3s 3c", "3s 4d 5h"]
    assert moves_text(legal_moves(hand, must_include=Card.parse("4d"))) == [
        "4d", "3s 4d 5h", "3c 4d 5h"]
    assert legal_moves(hand, must_include=0) == legal_moves(hand, must_include="3♠")
    assert count_legal_moves(hand, must_include="3c") == 3


def test_legal_moves_pile_forms():
    hand = Cards.parse("3s 3c 4d 5h")
    expected = legal_moves(hand, "3h")
    assert legal_moves(hand, classify("3h")) == expected
    assert legal_moves(hand, Cards.parse("3h")) == expected
    assert legal_moves(hand, Cards()) == legal_moves(hand) == legal_moves(hand, None)
    assert legal_moves(Cards()) == [] and count_legal_moves(Cards()) == 0


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"pile": "3s 5s"}, "pile is not a combination"),
        ({"pile": "3s"}, "both in the hand and on the pile: 3♠"),
        ({"pile": "3c 4d 5s"}, "both in the hand and on the pile: 3♣ 4♦"),
        ({"must_include": "9s"}, "must include 9♠, which is not in the hand"),
        ({"must_include": 52}, "out of range"),
        ({"must_include": -1}, "out of range"),
        ({"must_include": "9x"}, "unknown suit 'x'"),
        ({"pile": "3s 4s 4s"}, "duplicate card 4♠"),
    ],
)
def test_legal_moves_rejects_bad_input(kwargs, message):
    for function in (legal_moves, count_legal_moves):
        with pytest.raises(ValueError, match=message):
            function("3s 3c 4d 5h", **kwargs)


def test_legal_moves_rejects_masks_out_of_range():
    for function in (legal_moves, count_legal_moves):
        with pytest.raises(ValueError):
            function(1 << 52)  # type: ignore[arg-type]
        with pytest.raises(ValueError):
            function(-1)  # type: ignore[arg-type]
        with pytest.raises(ValueError):
            function("3s", 1 << 60)  # type: ignore[arg-type]


def test_legal_moves_agree_with_classify_beats_and_count():
    rng = random.Random(20240611)
    for _ in range(200):
        deck = rng.sample(range(52), 20)
        hand = Cards(deck[:rng.randint(1, 13)])
        pile = classify(Cards(deck[13:13 + rng.randint(1, 3)]))  # may be None: a lead
        rules = rng.choice([Rules(), NO_TWOS])
        moves = legal_moves(hand, pile, rules=rules)
        assert count_legal_moves(hand, pile, rules=rules) == len(moves)
        assert len(set(moves)) == len(moves)
        for move in moves:
            assert move & hand == move
            assert beats(move, pile, rules)
        codes = [classify(move, rules).code for move in moves]
        order = [(code >> 12, code >> 6 & 63, move.mask) for code, move in zip(codes, moves)]
        assert order == sorted(order)


def test_rules_refuse_unhashable_entries_with_value_error():
    # A JSON list where a name belongs (as a tampered replay could hold) is a ValueError,
    # not the TypeError of putting a list in a set.
    for bad in ({"out_of_turn": [["4ds"]]}, {"instant_wins": [{"x": 1}]}, {"cuts": [[["quad"], "2"]]}):
        with pytest.raises(ValueError):
            Rules.from_dict(bad)
