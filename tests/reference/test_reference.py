"""Hand-written checks of the reference model itself (tests/reference*.py).

Every expected value here was worked out by hand from RULES.md, not printed by the code,
so the reference earns the trust the differential tests put in it.
"""

from __future__ import annotations

import random
from math import comb

import pytest

import reference as ref
from reference import (
    DOUBLE_SEQUENCE,
    PAIR,
    QUAD,
    SEQUENCE,
    SINGLE,
    TRIPLE,
    beats,
    classify,
    legal_moves,
    parse,
)
from reference_game import RefGame

P = parse


def idx(card: str) -> int:
    """Index of one card, computed by hand-readable arithmetic: rank * 4 + suit."""
    return P(card).bit_length() - 1


def show(moves: set[int]) -> list[str]:
    return sorted(ref.cards_str(m) for m in moves)


# ------------------------------------------------------------------------------- R1


def test_R1_3_card_indices_follow_strength() -> None:
    assert idx("3♠") == 0
    assert idx("3♥") == 3
    assert idx("4♠") == 4
    assert idx("10♦") == 7 * 4 + 2
    assert idx("2♥") == 51
    assert ref.card_str(0) == "3♠" and ref.card_str(51) == "2♥"
    assert ref.cards_str(P("2h 3s 10c")) == "3♠ 10♣ 2♥"


# ------------------------------------------------------------------------------- R2


def test_R2_1_to_R2_4_n_of_a_kind() -> None:
    assert classify(P("7♦")) == (SINGLE, 1, idx("7♦"))
    assert classify(P("5♦ 5♣")) == (PAIR, 2, idx("5♦"))
    assert classify(P("9♠ 9♥ 9♣")) == (TRIPLE, 3, idx("9♥"))
    assert classify(P("2♠ 2♣ 2♦ 2♥")) == (QUAD, 4, 51)
    assert classify(P("5♦ 6♣")) is None  # two cards of different ranks


def test_R2_5_sequence() -> None:
    assert classify(P("3♠ 4♥ 5♦")) == (SEQUENCE, 3, idx("5♦"))
    assert classify(P("9♠ 10♠ J♥")) == (SEQUENCE, 3, idx("J♥"))
    assert classify(P("3s 4s 5s 6s 7s 8s 9s 10s Js Qs Ks As")) == (SEQUENCE, 12, idx("A♠"))
    assert classify(P("3♠ 4♠")) is None  # a sequence of two is nothing
    assert classify(P("3♠ 4♠ 6♠")) is None  # gap
    assert classify(P("3♠ 3♣ 4♠ 5♠")) is None  # a rank twice


def test_R2_6_double_sequence() -> None:
    assert classify(P("3♠ 3♣ 4♠ 4♣ 5♦ 5♥")) == (DOUBLE_SEQUENCE, 6, idx("5♥"))
    assert classify(P("8s 8h 9s 9h 10s 10h Js Jh")) == (DOUBLE_SEQUENCE, 8, idx("J♥"))
    assert classify(P("3♠ 3♣ 4♠ 4♣")) is None  # only two pairs
    assert classify(P("3♠ 3♣ 4♠ 4♣ 5♦ 5♥ 6♠")) is None  # a single on the end
    assert classify(P("3♠ 3♣ 3♦ 4♠ 4♣ 5♦ 5♥")) is None  # a triple inside
    assert classify(P("3♠ 3♣ 3♦ 4♠ 4♣ 4♦ 5♠ 5♦ 5♥")) is None  # triples are no run
    assert classify(P("3♠ 3♣ 4♠ 4♣ 6♦ 6♥")) is None  # gap


def test_R2_7_two_only_on_top() -> None:
    assert classify(P("J♠ Q♠ K♦ A♥ 2♣")) == (SEQUENCE, 5, idx("2♣"))
    assert classify(P("K♠ K♣ A♦ A♥ 2♠ 2♥")) == (DOUBLE_SEQUENCE, 6, 51)
    full_run = P("3s 4s 5s 6s 7s 8s 9s 10s Js Qs Ks As 2s")
    assert classify(full_run) == (SEQUENCE, 13, idx("2♠"))
    for wrapped in ("A♠ 2♠ 3♠", "2♠ 3♠ 4♠", "K♠ A♠ 2♠ 3♠", "A♠ A♣ 2♠ 2♣ 3♠ 3♣"):
        assert classify(P(wrapped)) is None, wrapped


def test_R2_8_variant_no_twos_in_runs() -> None:
    assert classify(P("J♠ Q♠ K♦ A♥ 2♣"), twos_in_sequences=False) is None
    assert classify(P("K♠ K♣ A♦ A♥ 2♠ 2♥"), twos_in_sequences=False) is None
    assert classify(P("10♠ J♠ Q♠ K♦ A♥"), False) == (SEQUENCE, 5, idx("A♥"))
    # Everything else is unchanged: 2s still make singles, pairs, triples, quads.
    assert classify(P("2♦"), False) == (SINGLE, 1, idx("2♦"))
    assert classify(P("2♦ 2♠"), False) == (PAIR, 2, idx("2♦"))
    assert classify(P("2♦ 2♠ 2♥"), False) == (TRIPLE, 3, 51)
    assert classify(P("2♦ 2♠ 2♥ 2♣"), False) == (QUAD, 4, 51)


def test_R2_nothing_else_is_a_combination() -> None:
    assert classify(0) is None
    assert classify(P("3♠ 3♣ 5♠ 5♣")) is None  # two unrelated pairs
    assert classify(P("3♠ 3♣ 3♦ 5♠ 5♣")) is None  # full house
    with pytest.raises(ValueError):
        classify(1 << 52)


def test_code_packing() -> None:
    assert ref.code(P("5♥ 5♠")) == PAIR << 12 | 2 << 6 | idx("5♥")
    assert ref.code(P("3♠ 3♣ 4♠ 4♣ 5♦ 5♥")) == (6 << 12) + (6 << 6) + 11
    assert ref.code(P("3♠ 5♠")) == 0


def test_is_two_combo() -> None:
    assert ref.is_two_combo(P("2♠"))
    assert ref.is_two_combo(P("2♠ 2♥"))
    assert ref.is_two_combo(P("2♠ 2♥ 2♦"))
    assert not ref.is_two_combo(P("2♠ 2♥ 2♦ 2♣"))  # a quad of 2s is a bomb, not a 2-combo
    assert not ref.is_two_combo(P("A♠"))
    assert not ref.is_two_combo(P("K♠ A♠ 2♠"))
    assert not ref.is_two_combo(0)


# ------------------------------------------------------------------------------- R3


def test_R3_1_same_kind_same_length_higher_top() -> None:
    assert beats(P("9♦"), P("9♣"))
    assert not beats(P("9♣"), P("9♦"))
    assert beats(P("4♠ 5♠ 6♠ 7♠"), P("3♥ 4♥ 5♥ 6♥"))
    assert not beats(P("4♠ 5♠ 6♠"), P("3♥ 4♥ 5♥ 6♥"))  # length differs


def test_R3_2_top_card_decides() -> None:
    assert beats(P("5♥ 5♠"), P("5♦ 5♣"))
    assert not beats(P("5♦ 5♣"), P("5♥ 5♠"))
    assert beats(P("9♠ 10♠ J♥"), P("9♥ 10♥ J♦"))
    assert not beats(P("9♥ 10♥ J♦"), P("9♠ 10♠ J♥"))


def test_R3_3_kinds_never_beat_each_other() -> None:
    assert not beats(P("4♠ 4♣"), P("3♠"))
    assert not beats(P("4♠ 5♠ 6♠ 7♠"), P("3♥ 4♥ 5♥"))
    assert not beats(P("A♠ A♣ A♦"), P("3♠ 3♣"))
    assert not beats(P("2♠"), P("3♠ 4♠ 5♠"))
    assert not beats(P("2♠ 2♣"), P("3♠"))


def test_any_combination_leads_and_non_combinations_never_play() -> None:
    assert beats(P("3♠"), 0)
    assert beats(P("3♠ 3♣ 4♠ 4♣ 5♦ 5♥"), 0)
    assert not beats(P("3♠ 5♠"), 0)
    assert not beats(P("3♠ 5♠"), P("3♣"))


# ------------------------------------------------------------------------------- R4

QUAD_3 = "3♠ 3♣ 3♦ 3♥"
DS3 = "3♠ 3♣ 4♠ 4♣ 5♠ 5♣"
DS4 = "3♠ 3♣ 4♠ 4♣ 5♠ 5♣ 6♠ 6♣"
DS5 = "3♠ 3♣ 4♠ 4♣ 5♠ 5♣ 6♠ 6♣ 7♠ 7♣"


@pytest.mark.parametrize(
    "bomb, pile",
    [(QUAD_3, "2♠"), (DS3, "2♥"), (DS4, "2♠ 2♣"), (DS5, "2♣ 2♦ 2♥")],
)
def test_R4_1_bomb_table(bomb: str, pile: str) -> None:
    assert beats(P(bomb), P(pile))


@pytest.mark.parametrize(
    "bomb, pile",
    [
        (QUAD_3, "2♠ 2♥"),
        (QUAD_3, "2♠ 2♥ 2♦"),
        (QUAD_3, "A♥"),
        (DS3, "2♠ 2♥"),
        (DS4, "2♥"),  # the example RULES.md spells out
        (DS4, "2♠ 2♥ 2♦"),
        (DS5, "2♥"),
        (DS5, "2♠ 2♥"),
        (DS3, "A♠"),
        (DS3, "K♠ A♠ 2♠"),
        ("6♠ 6♣ 6♦ 6♥", DS3),  # R4.2: quad and double sequence never beat each other
        ("6♠ 6♣ 7♠ 7♣ 8♠ 8♣", QUAD_3),
        ("2♠ 2♣ 2♦ 2♥", DS3),
        ("9♠ 9♣ 10♠ 10♣ J♠ J♣ Q♠ Q♣", "2♠ 2♣ 2♦"),
    ],
)
def test_R4_2_bomb_beats_nothing_else(bomb: str, pile: str) -> None:
    assert not beats(P(bomb), P(pile))


def test_R4_3_bomb_on_pile_is_ordinary() -> None:
    assert beats(P("4♠ 4♣ 4♦ 4♥"), P(QUAD_3))
    assert not beats(P(QUAD_3), P("4♠ 4♣ 4♦ 4♥"))
    assert beats(P("3♦ 3♥ 4♦ 4♥ 5♦ 5♥"), P(DS3))
    assert not beats(P("3♦ 3♥ 4♦ 4♥ 5♦ 5♥ 6♦ 6♥"), P(DS3))


def test_R4_twos_beat_twos_by_R3() -> None:
    assert beats(P("2♥"), P("2♠"))
    assert beats(P("2♥ 2♠"), P("2♦ 2♣"))
    assert not beats(P("2♥ 2♠"), P("2♦"))


# ----------------------------------------------------------------------- legal moves


def test_legal_leads_small_hand() -> None:
    hand = P("3♠ 3♣ 4♦ 5♥")
    # 4 singles, the pair of 3s, and a 3-4-5 run with either 3.
    assert show(legal_moves(hand)) == sorted(
        ["3♠", "3♣", "4♦", "5♥", "3♠ 3♣", "3♠ 4♦ 5♥", "3♣ 4♦ 5♥"]
    )
    assert show(legal_moves(hand, must_include=idx("3♠"))) == sorted(
        ["3♠", "3♠ 3♣", "3♠ 4♦ 5♥"]
    )


def test_legal_follow_single() -> None:
    assert show(legal_moves(P("3♠ 3♣ 4♦ 5♥"), P("3♦"))) == ["4♦", "5♥"]
    assert legal_moves(P("3♠ 3♣ 4♦ 5♥"), P("K♦ A♦ 2♦")) == set()


def test_R5_2_locked_out_player_bombs_single_two() -> None:
    hand = P("3♠ 3♣ 3♦ 3♥ 5♠ 2♦")
    assert show(legal_moves(hand, P("2♥"), locked_out=True)) == [QUAD_3]
    assert show(legal_moves(hand, P("2♥"))) == [QUAD_3]  # 2♦ is below 2♥
    assert show(legal_moves(hand, P("2♣"))) == ["2♦", QUAD_3]
    assert show(legal_moves(hand, P("2♣"), locked_out=True)) == [QUAD_3]  # not 2♦


def test_R5_2_locked_out_player_cannot_play_on_non_twos() -> None:
    hand = P("3♠ 3♣ 3♦ 3♥ 5♠ 2♦")
    assert legal_moves(hand, P("4♥"), locked_out=True) == set()
    assert legal_moves(hand, P("2♥ 2♣"), locked_out=True) == set()  # quad: wrong row
    assert show(legal_moves(hand, P("4♥"))) == ["2♦", "5♠"]


def test_R5_2_double_sequence_rows() -> None:
    hand = P(DS5)  # holds DS3 (x3 positions), DS4 (x2), DS5 (x1)
    assert len(legal_moves(hand, P("2♥"), locked_out=True)) == 3
    assert len(legal_moves(hand, P("2♥ 2♦"), locked_out=True)) == 2
    assert show(legal_moves(hand, P("2♥ 2♦ 2♣"), locked_out=True)) == [DS5]
    assert len(legal_moves(hand, P("2♥"), twos_in_sequences=False)) == 3


def test_full_suit_lead_count_by_hand() -> None:
    # One card of every rank: 13 singles + one run per window of >= 3 ranks, i.e.
    # 11 + 10 + ... + 1 = 66 windows over 13 ranks, or 55 over the 12 ranks below 2.
    spades = sum(1 << (4 * r) for r in range(13))
    assert len(legal_moves(spades)) == 13 + 66
    assert len(legal_moves(spades, twos_in_sequences=False)) == 13 + 55
    assert ref.count_leads_closed_form(spades) == 79
    # Leads through 7♠ (rank 4): windows [lo, hi] with lo <= 4 <= hi, hi - lo >= 2:
    # 5 * 9 pairs (lo, hi) minus those too short: (4,4), (3,4), (4,5) -> 42, plus the single.
    assert len(legal_moves(spades, must_include=idx("7♠"))) == 1 + 42


def test_two_full_suits_closed_form_by_hand() -> None:
    # 26 cards, two of every rank: 26 singles, 13 pairs, sum_L (14-L) 2^L = 32664
    # sequences for L = 3..13, and 66 double sequences (one per window).
    hand = P("3s 3h 4s 4h 5s 5h 6s 6h 7s 7h 8s 8h 9s 9h 10s 10h Js Jh Qs Qh Ks Kh As Ah 2s 2h")
    expected = 26 + 13 + 32664 + 66
    assert sum((14 - L) * 2**L for L in range(3, 14)) == 32664
    assert ref.count_leads_closed_form(hand) == expected
    assert len(ref.legal_moves_fast(hand)) == expected


def _random_hand(rng: random.Random, size: int, ranks: int = 13) -> int:
    pool = list(range(4 * ranks))
    return sum(1 << c for c in rng.sample(pool, size))


def test_fast_enumeration_matches_brute_force() -> None:
    rng = random.Random(20240601)
    for trial in range(300):
        # Few ranks => many pairs, quads and runs in a small hand.
        hand = _random_hand(rng, rng.randint(2, 11), ranks=rng.choice([5, 7, 13]))
        tis = trial % 2 == 0
        pile = rng.choice([0, 0, P("2♥"), P("2♠ 2♣"), P("2♠ 2♣ 2♦"), P("4♥"), P("3♥ 4♥ 5♥")])
        hand &= ~pile
        if hand == 0:
            continue
        locked = pile != 0 and rng.random() < 0.3
        must = rng.choice(ref.cards_of(hand)) if rng.random() < 0.3 else None
        args = (hand, pile, locked, must, tis)
        assert ref.legal_moves_fast(*args) == legal_moves(*args), ref.cards_str(hand)
        if pile == 0:
            assert ref.count_leads_closed_form(hand, must, tis) == len(legal_moves(*args))


def test_closed_form_matches_fast_on_big_hands() -> None:
    rng = random.Random(7)
    for _ in range(20):
        hand = _random_hand(rng, rng.randint(14, 22))
        must = rng.choice(ref.cards_of(hand))
        for tis in (True, False):
            assert ref.count_leads_closed_form(hand, None, tis) == len(
                ref.legal_moves_fast(hand, twos_in_sequences=tis)
            )
            assert ref.count_leads_closed_form(hand, must, tis) == len(
                ref.legal_moves_fast(hand, must_include=must, twos_in_sequences=tis)
            )
    assert comb(4, 2) == 6  # sanity of the helper the closed form relies on


# ------------------------------------------------------------------------ game: R5-R9


def snapshot(g: RefGame) -> tuple:
    return (g.turn, tuple(g.hands), g.pile, g.pile_owner, frozenset(g.locked_seats),
            tuple(g.finished), g.must_include)


def test_R7_2_lowest_card_leads_and_must_be_included() -> None:
    g = RefGame([P("5♠ 9♥"), P("4♣ 4♦ 2♠"), P("6♠ 7♠")])
    assert g.turn == 1  # 4♣ is the lowest card dealt
    assert show(g.legal_plays()) == ["4♣", "4♣ 4♦"]
    assert not g.can_pass()
    g.play(P("4♣"))
    assert g.must_include is None


def test_R7_1_leader_must_play() -> None:
    g = RefGame([P("3♠ 9♥"), P("4♣ 2♠")], leader=1)
    assert not g.can_pass()
    before = snapshot(g)
    with pytest.raises(ValueError):
        g.pass_turn()
    assert snapshot(g) == before


def test_R7_4_explicit_leader_leads_anything() -> None:
    g = RefGame([P("3♠ 9♥"), P("4♣ 4♦ 2♠")], leader=1)
    assert g.turn == 1
    assert show(g.legal_plays()) == ["2♠", "4♣", "4♣ 4♦", "4♦"]


def test_illegal_actions_change_nothing() -> None:
    g = RefGame([P("3♠ 9♥"), P("4♣ 4♦ 2♠")], leader=0)
    before = snapshot(g)
    for bad in (P("3♠ 9♥"), P("4♣"), P("10♠"), 0):
        with pytest.raises(ValueError):
            g.play(bad)
        assert snapshot(g) == before


def test_R5_1_pass_locks_out_and_R5_3_skips_until_clear() -> None:
    g = RefGame([P("3♠ 10♠ J♠"), P("4♠ Q♠ K♠"), P("5♠ 6♠ A♠")], leader=0)
    g.play(P("3♠"))
    assert g.turn == 1 and g.can_pass()
    assert P("4♠") in g.legal_plays()
    g.pass_turn()  # R5.1: may pass although able to play
    assert g.locked_seats == {1} and g.turn == 2
    g.play(P("5♠"))
    assert g.turn == 0
    g.play(P("10♠"))
    assert g.turn == 2  # seat 1 is skipped: locked out, pile not 2s
    g.pass_turn()
    # R6.1: back round to seat 0, the owner: pile clears, lock-outs end.
    assert (g.turn, g.pile, g.pile_owner, g.locked_seats) == (0, 0, None, set())


def test_R5_3_locked_player_gets_turn_on_twos_and_R5_4_bomb_unlocks_no_one() -> None:
    g = RefGame(
        [P("3♠ 2♥ 9♠"), P("4♠ 4♣ 4♦ 4♥ 8♠"), P("5♠ 6♣ 7♦")], leader=0
    )
    g.play(P("3♠"))
    g.pass_turn()  # seat 1 locked out
    g.play(P("5♠"))
    g.play(P("2♥"))
    assert g.turn == 1  # R5.3: locked out, but the top is a 2
    assert show(g.legal_plays()) == ["4♠ 4♣ 4♦ 4♥"] and g.can_pass()  # R5.2
    g.play(P("4♠ 4♣ 4♦ 4♥"))
    assert g.locked_seats == {1} and g.pile_owner == 1  # R5.4
    assert g.turn == 2 and g.legal_plays() == set()
    g.pass_turn()
    assert g.turn == 0
    g.pass_turn()
    # R6.1 even though the owner had passed earlier in this pile.
    assert (g.turn, g.pile, g.locked_seats) == (1, 0, set())


def test_R5_3_locked_player_without_bomb_still_gets_the_turn() -> None:
    g = RefGame([P("3♠ 2♥ 9♠"), P("4♠ 8♠"), P("5♠ 6♣ 7♦")], leader=0)
    g.play(P("3♠"))
    g.pass_turn()
    g.play(P("5♠"))
    g.play(P("2♥"))
    assert g.turn == 1 and g.legal_plays() == set() and g.can_pass()
    g.pass_turn()
    assert g.turn == 2


def test_R5_4_bomber_skipped_after_higher_bomb() -> None:
    g = RefGame(
        [P("3♠ 2♥ K♠"), P("4♠ 4♣ 4♦ 4♥ 9♠"), P("5♠ 6♠ 6♣ 6♦ 6♥ J♠")], leader=0
    )
    g.play(P("3♠"))
    g.pass_turn()
    g.play(P("5♠"))
    g.play(P("2♥"))
    g.play(P("4♠ 4♣ 4♦ 4♥"))  # seat 1, locked out, bombs
    assert g.turn == 2
    assert show(g.legal_plays()) == ["6♠ 6♣ 6♦ 6♥"]  # R4.3
    g.play(P("6♠ 6♣ 6♦ 6♥"))
    assert g.turn == 0
    g.pass_turn()
    # Seat 1 is skipped (locked, top no longer a 2); seat 2 owns the pile and leads.
    assert (g.turn, g.pile, g.locked_seats) == (2, 0, set())


def test_R6_2_owner_out_next_seat_with_cards_leads() -> None:
    g = RefGame([P("3♠"), P("4♠ 9♠"), P("5♠ 10♠")], leader=0)
    g.play(P("3♠"))
    assert g.finished == [0] and g.turn == 1
    g.pass_turn()
    g.pass_turn()
    assert (g.turn, g.pile, g.pile_owner, g.locked_seats) == (1, 0, None, set())


def test_R6_2_owner_out_leader_is_after_owner_seat() -> None:
    g = RefGame([P("4♠ 9♠"), P("3♠"), P("5♠ 10♠")], leader=1)
    g.play(P("3♠"))
    assert g.turn == 2
    g.pass_turn()
    assert g.turn == 0
    g.pass_turn()
    # The turn reached seat 1 (out): clear, and seat 2 (the next one after it) leads.
    assert (g.turn, g.pile) == (2, 0)


def test_R8_1_clockwise_skipping_players_out() -> None:
    g = RefGame([P("3♠ 9♠"), P("4♠"), P("5♠ 10♠"), P("6♠ J♠")], leader=0)
    assert g.players == 4
    g.play(P("3♠"))
    assert g.turn == 1
    g.play(P("4♠"))  # seat 1 out
    assert g.turn == 2
    g.play(P("5♠"))
    assert g.turn == 3
    g.play(P("6♠"))
    assert g.turn == 0
    g.play(P("9♠"))  # seat 0 out
    assert g.turn == 2  # 1 is out
    g.play(P("10♠"))  # seat 2 out: only seat 3 still holds cards
    assert g.finished == [1, 0, 2, 3] and g.is_over and g.turn is None


def test_R9_1_R9_2_two_players() -> None:
    g = RefGame([P("3♠"), P("4♠ 5♠")])
    g.play(P("3♠"))
    assert g.is_over and g.finished == [0, 1]
    assert g.legal_plays() == set() and not g.can_pass()
    with pytest.raises(ValueError):
        g.play(P("4♠"))
