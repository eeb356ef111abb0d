"""Hand-written checks of the reference's rules-as-data (tests/reference*.py, issue 13).

Expected values are worked out by hand from RULES.md R4, R5, R11 and the field table of
issue 13, not printed by the code, so the reference earns the trust the differential tests
(tests/test_rules_differential.py) put in it.
"""

from __future__ import annotations

import random
import pytest

import reference as ref
from reference import CONTRACT, NO_TWOS, SOUTHERN, beats, legal_moves, parse
from reference_game import RefGame

P = parse

QUAD_3 = "3♠ 3♣ 3♦ 3♥"
QUAD_9 = "9♠ 9♣ 9♦ 9♥"
QUAD_2 = "2♠ 2♣ 2♦ 2♥"
DS3_LOW = "3♠ 3♣ 4♠ 4♣ 5♠ 5♣"
DS3_HIGH = "Q♠ Q♣ K♠ K♣ A♠ A♣"
DS4_LOW = "3♠ 3♣ 4♠ 4♣ 5♠ 5♣ 6♠ 6♣"
DS4_HIGH = "J♦ J♥ Q♦ Q♥ K♦ K♥ A♦ A♥"
DS5 = "3♠ 3♣ 4♠ 4♣ 5♠ 5♣ 6♠ 6♣ 7♠ 7♣"


def show(moves: set[int]) -> list[str]:
    return sorted(ref.cards_str(m) for m in moves)


# --------------------------------------------------------------------------- the data


def test_presets_are_the_issue_tables() -> None:
    # R4.1 row by row, and the R11.1 table row by row (10 entries).
    assert CONTRACT.cuts == {("quad", "2"), ("3ds", "2"), ("4ds", "22"), ("5ds", "222")}
    assert len(SOUTHERN.cuts) == 1 + 4 + 5
    assert SOUTHERN.out_of_turn == {"4ds"} and CONTRACT.out_of_turn == {"quad", "3ds", "4ds", "5ds"}
    assert SOUTHERN.instant_wins == {"four_twos", "dragon", "six_pairs", "five_pairs"}
    assert not CONTRACT.instant_wins
    assert NO_TWOS == CONTRACT._replace(twos_in_sequences=False)
    assert not SOUTHERN.twos_in_sequences


def test_single_toggles_cover_every_field_once() -> None:
    toggles = ref.single_toggles()
    # 1 (twos) + 7 * 4 cut pairs + 4 out-of-turn bombs + 4 instant wins
    assert len(toggles) == 37
    assert len({rs for _, rs in toggles}) == 37
    for name, rs in toggles:
        differences = (
            (rs.twos_in_sequences != CONTRACT.twos_in_sequences)
            + len(rs.cuts ^ CONTRACT.cuts)
            + len(rs.out_of_turn ^ CONTRACT.out_of_turn)
            + len(rs.instant_wins ^ CONTRACT.instant_wins)
        )
        assert differences == 1, name


def test_ruleset_from_a_partial_dict() -> None:
    rs = ref.ruleset(rules={"out_of_turn": ["4ds"], "cuts": [["quad", "22"]]})
    assert rs.out_of_turn == {"4ds"} and rs.cuts == {("quad", "22")}
    assert rs.twos_in_sequences and not rs.instant_wins
    with pytest.raises(ValueError):
        ref.ruleset(rules={"chops": []})


def test_bomb_and_target_kinds() -> None:
    assert ref.bomb_kind(P(QUAD_2)) == "quad"
    assert ref.bomb_kind(P(DS3_LOW)) == "3ds" and ref.bomb_kind(P(DS4_LOW)) == "4ds"
    assert ref.bomb_kind(P(DS5)) == "5ds"
    assert ref.bomb_kind(P("3s 3c 4s 4c 5s 5c 6s 6c 7s 7c 8s 8c")) is None  # six pairs
    assert ref.bomb_kind(P("2♠ 2♥")) is None and ref.bomb_kind(P("2♠ 2♥ 2♦")) is None
    assert ref.target_kind(P("2♥")) == "2" and ref.target_kind(P("2♠ 2♥")) == "22"
    assert ref.target_kind(P("2♠ 2♥ 2♦")) == "222" and ref.target_kind(P(QUAD_2)) == "quad"
    assert ref.target_kind(P("A♠")) is None
    # R11.4: K-A-2 pairs are no combination there, so no bomb either.
    assert ref.bomb_kind(P("K♠ K♣ A♠ A♣ 2♠ 2♣"), rules=SOUTHERN) is None


# ---------------------------------------------------------------- R11.1 in the reference


@pytest.mark.parametrize("bomb, pile", [
    (DS3_HIGH, "2♥"),
    (QUAD_3, "2♥"), (QUAD_3, "2♠ 2♥"), (QUAD_3, DS3_HIGH), (QUAD_9, QUAD_3),
    (DS4_LOW, "2♥"), (DS4_LOW, "2♠ 2♥"), (DS4_LOW, DS3_HIGH), (DS4_LOW, QUAD_2),
    (DS4_HIGH, DS4_LOW),
])
def test_southern_table_cuts(bomb: str, pile: str) -> None:
    assert beats(P(bomb), P(pile), rules=SOUTHERN)


@pytest.mark.parametrize("bomb, pile", [
    (DS3_HIGH, "2♠ 2♥"),        # 3 pairs: a single 2 only
    (DS3_HIGH, QUAD_3),
    (QUAD_9, "2♠ 2♥ 2♦"),       # nothing cuts a triple of 2s
    (QUAD_9, DS4_LOW),
    (QUAD_3, QUAD_9),           # a lower quad does not beat a higher one
    (DS4_LOW, "2♠ 2♥ 2♦"),
    (DS4_LOW, DS4_HIGH),
    (DS4_LOW, DS5),
    (DS5, "2♠ 2♥ 2♦"),          # the contract's 5-pair row is gone
    (DS5, "2♥"),
    (DS3_HIGH, "A♥"),
])
def test_southern_table_does_not_cut(bomb: str, pile: str) -> None:
    assert not beats(P(bomb), P(pile), rules=SOUTHERN)


def test_cuts_by_table_versus_R3_1() -> None:
    # A higher quad on a lower quad is R3.1 under every ruleset, the table only in the South.
    assert beats(P(QUAD_9), P(QUAD_3)) and beats(P(QUAD_9), P(QUAD_3), rules=SOUTHERN)
    assert not ref.cuts_by_table(P(QUAD_9), P(QUAD_3))
    assert ref.cuts_by_table(P(QUAD_9), P(QUAD_3), rules=SOUTHERN)
    assert not ref.cuts_by_table(P(QUAD_3), P(QUAD_9), rules=SOUTHERN)
    # A field alone: the contract plus "a quad cuts a pair of 2s".
    plus = CONTRACT._replace(cuts=CONTRACT.cuts | {("quad", "22")})
    assert beats(P(QUAD_3), P("2♠ 2♥"), rules=plus) and not beats(P(QUAD_3), P("2♠ 2♥"))
    minus = CONTRACT._replace(cuts=CONTRACT.cuts - {("quad", "2")})
    assert not beats(P(QUAD_3), P("2♥"), rules=minus) and beats(P(DS3_LOW), P("2♥"), rules=minus)


# ---------------------------------------------------------------- R11.2 in the reference


def test_locked_out_turn_rule_by_pile() -> None:
    south = {pile: ref.locked_out_get_turn(P(pile), rules=SOUTHERN)
             for pile in ("2♥", "2♠ 2♥", "2♠ 2♥ 2♦", QUAD_3, DS3_LOW, DS4_LOW, DS5, "9♥", "9♠ 9♥")}
    assert south == {"2♥": True, "2♠ 2♥": True, "2♠ 2♥ 2♦": False, QUAD_3: True, DS3_LOW: True,
                     DS4_LOW: True, DS5: False, "9♥": False, "9♠ 9♥": False}
    contract = {pile: ref.locked_out_get_turn(P(pile))
                for pile in ("2♥", "2♠ 2♥", "2♠ 2♥ 2♦", QUAD_3, DS3_LOW, DS4_LOW, DS5)}
    assert contract == {"2♥": True, "2♠ 2♥": True, "2♠ 2♥ 2♦": True, QUAD_3: False,
                        DS3_LOW: False, DS4_LOW: False, DS5: False}
    # No 5-pair bomb out of turn: a triple of 2s gives locked-out players no turn.
    no5 = CONTRACT._replace(out_of_turn=CONTRACT.out_of_turn - {"5ds"})
    assert not ref.locked_out_get_turn(P("2♠ 2♥ 2♦"), rules=no5)
    assert ref.locked_out_get_turn(P("2♠ 2♥"), rules=no5)


def test_locked_out_plays_only_out_of_turn_bombs() -> None:
    hand = P(DS4_LOW + " " + QUAD_9 + " 2♦")
    # In turn on 2♥, southern: the two 3-pair runs (3-5, 4-6), the 4-pair run and the quad.
    assert show(legal_moves(hand, P("2♥"), rules=SOUTHERN)) == sorted(
        [DS3_LOW, "4♠ 4♣ 5♠ 5♣ 6♠ 6♣", DS4_LOW, QUAD_9])
    # Locked out: the 4-pair run alone (R11.2).
    assert show(legal_moves(hand, P("2♥"), locked_out=True, rules=SOUTHERN)) == [DS4_LOW]
    # Contract, locked out: quad and 3-pair runs cut a single 2, a 4-pair run does not.
    assert show(legal_moves(hand, P("2♥"), locked_out=True)) == sorted(
        [DS3_LOW, "4♠ 4♣ 5♠ 5♣ 6♠ 6♣", QUAD_9])
    # Southern, locked out on a quad of 3s: the 4-pair run cuts it, the higher quad may not
    # be played out of turn although it beats it in turn.
    other = P(DS4_LOW.replace("3♠ 3♣ ", "") + " 7s 7c " + QUAD_9)  # 4-7 pairs, quad of 9s
    assert show(legal_moves(other, P(QUAD_3), locked_out=True, rules=SOUTHERN)) == [
        "4♠ 4♣ 5♠ 5♣ 6♠ 6♣ 7♠ 7♣"]
    assert QUAD_9 in show(legal_moves(other, P(QUAD_3), rules=SOUTHERN))
    # A locked-out 4-pair run on a lower 4-pair run, by the ("4ds", "4ds") entry.
    assert show(legal_moves(P(DS4_HIGH), P(DS4_LOW), locked_out=True, rules=SOUTHERN)) == [DS4_HIGH]
    assert legal_moves(P(DS4_HIGH), P(DS4_LOW), locked_out=True) == set()  # contract: R5.4


def test_southern_game_gives_locked_out_players_the_turn_on_a_quad() -> None:
    # Seat 0 leads 2♠, seat 1 passes (locked out), seat 2 cuts it with a quad of 9s, seat 0
    # passes. Southern: a 4-pair run cuts a quad, so locked-out seat 1 gets the turn (R11.2)
    # and may only cut with it or pass. Contract: the quad is no 2-combo, seat 1 is skipped
    # and the turn reaches the owner, seat 2, who leads on an empty pile (R5.3, R6.1).
    hands = [P("2♠ 5♦"), P(DS4_HIGH + " 6♥"), P(QUAD_9 + " 7♥")]
    for rules in (SOUTHERN, CONTRACT):
        g = RefGame(list(hands), leader=0, rules=rules)
        g.play(P("2♠"))
        g.pass_turn()
        assert g.turn == 2 and g.locked_seats == {1}
        g.play(P(QUAD_9))
        assert g.turn == 0
        g.pass_turn()
        if rules is SOUTHERN:
            assert g.turn == 1 and show(g.legal_plays()) == [DS4_HIGH] and g.can_pass()
        else:
            assert g.turn == 2 and g.pile == 0 and g.locked_seats == set()


# ---------------------------------------------------------------- R11.3 in the reference


@pytest.mark.parametrize("hand, wins", [
    ("2s 2c 2d 2h 3s 5c 7d 9h Js Kc 4d 6h 8s", {"four_twos"}),
    ("3s 4c 5d 6h 7s 8c 9d 10h Js Qc Kd As 3c", {"dragon"}),
    ("3s 3c 5s 5c 7s 7c 9s 9c 9d 9h Js Jc Ks", {"six_pairs"}),        # the quad is two pairs
    ("3s 3c 3d 5s 5c 5d 7s 7c 7d 9s 9c 9d Js", set()),                 # triples: one pair each
    ("3s 3c 4s 4c 5s 5c 6s 6c 7s 7c 9s Js Ks", {"five_pairs"}),        # 5 pairs, not 6
    ("10s 10c Js Jc Qs Qc Ks Kc As Ac 3s 5d 7h", {"five_pairs"}),      # up to A
    ("Js Jc Qs Qc Ks Kc As Ac 2s 2c 3s 5d 7h", set()),                 # R11.4: no 2s in it
    ("3s 3c 4s 4c 5s 5c 6s 6c 7s 7c 8s 8c 2h", {"five_pairs", "six_pairs"}),
    ("3s 4s 5s 6s 7s 8s 9s 10s Js Qs Ks As 2s", {"dragon"}),
])
def test_instant_win_shapes(hand: str, wins: set[str]) -> None:
    assert ref.instant_wins_of(P(hand), rules=SOUTHERN) == wins
    assert ref.instant_wins_of(P(hand)) == set()  # the contract has none


def test_five_pairs_may_reach_the_twos_where_runs_do() -> None:
    rules = CONTRACT._replace(instant_wins=frozenset({"five_pairs"}))
    assert ref.instant_wins_of(P("Js Jc Qs Qc Ks Kc As Ac 2s 2c 3s 5d 7h"), rules=rules) == {"five_pairs"}


def test_dealt_instant_win_first_in_turn_order_from_the_leader() -> None:
    hands = [
        P("2s 2c 2d 2h 4s 5c 6c 7d 8d 9h 10h Js Qs"),   # four 2s
        P("3c 3d 5s 5d 7s 7c 9s 9c Jc Jd Ks Kc Ad"),    # six pairs: 3 5 7 9 J K
        P("3s 4c 4d 5h 6s 6d 8s 10s Qc Qd Kd Ah Ac"),   # 3♠ (leads by R7.2); 4 pairs, no 7
        P("3h 4h 6h 7h 8c 8h 9d 10c 10d Jh Qh Kh As"),  # the rest: 2 pairs, no 5
    ]
    assert sum(hands) == ref.FULL_DECK
    assert [sorted(ref.instant_wins_of(h, rules=SOUTHERN)) for h in hands] == [
        ["four_twos"], ["six_pairs"], [], []]
    # Turn order from seat 2: 2, 3, 0, 1, so seat 0 wins although seat 1 qualifies too.
    g = RefGame.dealt(list(hands), rules=SOUTHERN)
    assert (g.instant_winner, g.is_over, g.finished) == (0, True, [0])
    g = RefGame.dealt(list(hands), leader=1, rules=SOUTHERN)
    assert g.instant_winner == 1
    g = RefGame.dealt(list(hands), rules=CONTRACT)
    assert g.instant_winner is None and g.turn == 2 and not g.is_over


# ------------------------------------------------------------------------- the split


def all_partitions(cards: list[int]):
    """Every set partition of ``cards`` (a plain recursive enumeration, independent of
    ``combos_in``): the first card joins each block of a partition of the rest, or its own."""
    if not cards:
        yield []
        return
    first, rest = cards[0], cards[1:]
    for part in all_partitions(rest):
        yield [[first]] + part
        for i in range(len(part)):
            yield part[:i] + [[first] + part[i]] + part[i + 1:]


def test_best_split_cost_matches_every_set_partition() -> None:
    rng = random.Random(1313)
    for trial in range(60):
        lo = rng.randrange(0, 9)
        pool = [c for c in range(52) if lo <= c // 4 < lo + rng.randint(3, 5)]
        hand = sum(1 << c for c in rng.sample(pool, rng.randint(1, 7)))
        for rules in (CONTRACT, NO_TWOS):
            best = None
            for part in all_partitions(ref.cards_of(hand)):
                masks = [sum(1 << c for c in block) for block in part]
                if all(ref.classify(m, rules=rules) for m in masks):
                    cost = ref.split_cost(masks)
                    best = cost if best is None or cost < best else best
            got = ref.best_split(hand, rules=rules)
            assert ref.split_cost(got) == best, ref.cards_str(hand)
            assert sum(got) == hand and all(ref.classify(g, rules=rules) for g in got)
            assert sum(g.bit_count() for g in got) == hand.bit_count()  # disjoint


@pytest.mark.parametrize("hand, rules, cost", [
    ("3s 3c 4s 4c 5s 5c 5d", CONTRACT, (2, 1)),   # 3-pair run + 5♦
    ("3s 4s 5s 6s", CONTRACT, (1, 0)),
    ("3s 4s 6s", CONTRACT, (3, 3)),
    ("Ks As 2s", CONTRACT, (1, 0)),
    ("Ks As 2s", NO_TWOS, (3, 2)),                 # K, A low singles; the 2 is not low
    ("2s 2c", CONTRACT, (1, 0)),
    ("3s 4s 5s 5c 6c 7c", CONTRACT, (2, 0)),       # two runs, not a pair and singles
    ("9s 9c 9d 9h 10s Js", CONTRACT, (2, 0)),      # 9-10-J + triple of 9s
])
def test_best_split_by_hand(hand: str, rules: ref.Ruleset, cost: tuple[int, int]) -> None:
    assert ref.split_cost(ref.best_split(P(hand), rules=rules)) == cost


def test_instant_win_rules_leave_other_questions_alone() -> None:
    # instant_wins changes only the deal, not what may be played.
    rules = CONTRACT._replace(instant_wins=frozenset({"dragon"}))
    hand = P("3s 3c 4d 5h 2d 2c")
    for pile in (0, P("2♥"), P("3♦")):
        assert legal_moves(hand, pile, rules=rules) == legal_moves(hand, pile)
