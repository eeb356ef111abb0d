"""The core's rule table (issue 13): every field of ``Rules`` as the core reads it.

Each field is tested on positions worked out by hand from RULES.md / RULES13.md (the
comments say why each answer is what it is), and the move generator is checked against a
brute force written here from the ``Rules`` fields alone: every subset of a small hand,
classified, kept when the fields say it may be played. The reference-based differential
tests of every preset are in the reference's own test files.
"""

from __future__ import annotations

import itertools
import pickle
import random

import numpy as np
import pytest

from tienlen import _core, core
from tienlen.games.tienlen.cards import Cards
from tienlen.games.tienlen.game import Game
from tienlen.games.tienlen.rules import (
    ALL_BOMBS,
    ALL_INSTANT_WINS,
    ALL_TARGETS,
    CONTRACT_CUTS,
    Rules,
)

CONTRACT = Rules()
SOUTH = Rules.southern()


def code(text: str, rules: Rules = CONTRACT) -> int:
    c = core.classify(Cards.parse(text).mask, rules.flags)
    assert c, f"{text} is not a combination"
    return c


def beats(play: str, pile: str, rules: Rules) -> bool:
    return bool(core.beats(code(play, rules), code(pile, rules), rules.flags))


QUAD3 = "3s 3c 3d 3h"
QUAD4 = "4s 4c 4d 4h"
DS3 = "5s 5c 6s 6c 7s 7c"                       # a double sequence of 3 pairs, top 7♣
DS4 = "8s 8c 9s 9c 10s 10c Js Jc"               # 4 pairs, top J♣
DS4_LOW = "3s 3c 4s 4c 5s 5c 6s 6c"             # 4 pairs, top 6♣
DS5 = "3d 3h 4d 4h 5d 5h 6d 6h 7d 7h"           # 5 pairs, top 7♥


# ------------------------------------------------------------------ cuts (R4.1, R11.1)

@pytest.mark.parametrize("play,pile,contract,south", [
    # R4.1 and R11.1 agree: a quad or three pairs cut a single 2; four pairs cut two 2s.
    (QUAD3, "2s", True, True),
    (DS3, "2h", True, True),
    (DS4_LOW, "2s 2c", True, True),
    # R11.1 only: a quad cuts a pair of 2s and three pairs; four pairs cut a single 2, a
    # quad and three pairs.
    (QUAD3, "2s 2c", False, True),
    (QUAD3, DS3, False, True),
    (DS4_LOW, "2h", False, True),
    (DS4_LOW, QUAD4, False, True),
    (DS4_LOW, DS3, False, True),
    # R4.1 only: five pairs cut three 2s; the Southern table has no five-pair row.
    (DS5, "2s 2c 2d", True, False),
    # Nobody: three pairs never cut a pair of 2s, a quad never cuts three 2s or four pairs.
    (DS3, "2s 2c", False, False),
    (QUAD4, "2s 2c 2d", False, False),
    (QUAD4, DS4, False, False),
    # A bomb never cuts an ordinary combination.
    (QUAD3, "Ah", False, False),
    # R3.1 holds in both: a higher quad or double sequence of the same size beats a lower.
    (QUAD4, QUAD3, True, True),
    (QUAD3, QUAD4, False, False),
    (DS4, DS4_LOW, True, True),
])
def test_R11_1_cut_table_by_preset(play: str, pile: str, contract: bool, south: bool) -> None:
    assert beats(play, pile, CONTRACT) is contract
    assert beats(play, pile, SOUTH) is south


def test_R11_1_cutting_a_cut() -> None:
    # Chặt chồng: a quad that cut a 2 is itself cut by four pairs (R11.1), and not under
    # the contract, where a bomb on the pile is only beaten by a higher one of its kind.
    game = Game.from_hands(["2h 9d", QUAD3 + " Kd", DS4 + " Qd"], rules=SOUTH, leader=0)
    game.play("2h")
    game.play(QUAD3)
    assert game.can_play(DS4)
    contract = Game.from_hands(["2h 9d", QUAD3 + " Kd", DS4 + " Qd"], leader=0)
    contract.play("2h")
    contract.play(QUAD3)
    assert not contract.can_play(DS4)


def test_each_cut_toggles_alone() -> None:
    # Every (bomb, target) pair, switched against the contract on its own, changes exactly
    # that question, whatever the pair's top cards (other than for a same-kind pair).
    bomb_text = {"quad": QUAD4, "3ds": DS3, "4ds": DS4_LOW, "5ds": DS5}
    target_text = {"2": "2s", "22": "2s 2c", "222": "2s 2c 2d", "quad": QUAD3,
                   "3ds": "8s 8c 9s 9c 10s 10c", "4ds": "8d 8h 9d 9h 10d 10h Jd Jh",
                   "5ds": "8d 8h 9d 9h 10d 10h Jd Jh Qd Qh"}
    for b in ALL_BOMBS:
        for t in ALL_TARGETS:
            if b == t:
                continue
            rules = Rules(cuts=CONTRACT_CUTS ^ {(b, t)})
            expected = (b, t) not in CONTRACT_CUTS
            assert beats(bomb_text[b], target_text[t], rules) is expected, (b, t)
            assert beats(bomb_text[b], target_text[t], CONTRACT) is not expected, (b, t)


def test_a_removed_cut_removes_the_moves() -> None:
    # Without (quad, "2"), a quad is not a legal answer to a single 2 in turn.
    rules = Rules(cuts=CONTRACT_CUTS - {("quad", "2")})
    hand = Cards.parse(QUAD4 + " 9d").mask
    assert core.count_legal_moves(hand, code("2h"), rules.flags) == 0
    assert core.count_legal_moves(hand, code("2h"), 0) == 1


# ---------------------------------------------------------- move lists with bombs

def test_bombs_on_a_double_sequence_are_listed_in_kind_order() -> None:
    # R11.1 in turn on three pairs 5-6-7: no higher three pairs in the hand (3-4-5 and 4-5-6
    # are lower), so the plays are the quad of 9s and four pairs 3-6, quad first (kind 4
    # before kind 6). The contract allows neither.
    hand = "9s 9c 9d 9h 3s 3c 4s 4c 5d 5h 6d 6h"
    pile = "5s 5c 6s 6c 7s 7c"
    masks = core.legal_moves(Cards.parse(hand).mask, code(pile, SOUTH), SOUTH.flags).tolist()
    assert masks == [Cards.parse("9s 9c 9d 9h").mask, Cards.parse("3s 3c 4s 4c 5d 5h 6d 6h").mask]
    assert core.count_legal_moves(Cards.parse(hand).mask, code(pile, SOUTH), SOUTH.flags) == 2
    assert core.count_legal_moves(Cards.parse(hand).mask, code(pile), 0) == 0


def test_R11_2_locked_out_plays_only_out_of_turn_bombs() -> None:
    # A single 2 on the pile, hand: quad of 9s, three pairs 3-4-5 and 4-5-6, four pairs 3-6.
    hand = Cards.parse("9s 9c 9d 9h 3s 3c 4s 4c 5s 5c 6s 6c").mask
    pile = code("2h")
    quad = Cards.parse("9s 9c 9d 9h").mask
    ds_345 = Cards.parse("3s 3c 4s 4c 5s 5c").mask
    ds_456 = Cards.parse("4s 4c 5s 5c 6s 6c").mask
    ds_3456 = Cards.parse("3s 3c 4s 4c 5s 5c 6s 6c").mask
    # In turn: the contract cuts a single 2 with a quad or three pairs (R4.1); the South
    # with four pairs too (R11.1). Ascending by kind, size, mask.
    assert core.legal_moves(hand, pile, 0).tolist() == [quad, ds_345, ds_456]
    assert core.legal_moves(hand, pile, SOUTH.flags).tolist() == [quad, ds_345, ds_456, ds_3456]
    # Locked out: the contract keeps every bomb (R5.2); the South only four pairs (R11.2).
    assert core.legal_moves(hand, pile, 0, True).tolist() == [quad, ds_345, ds_456]
    assert core.legal_moves(hand, pile, SOUTH.flags, True).tolist() == [ds_3456]
    assert core.count_legal_moves(hand, pile, SOUTH.flags, True) == 1


def test_R11_2_out_of_turn_same_kind_needs_a_higher_top() -> None:
    # Four pairs on four pairs, locked out in the South: only a higher one ((4ds, 4ds)).
    hand = Cards.parse("8d 8h 9d 9h 10d 10h Jd Jh 3d 3h 4d 4h 5d 5h 6d 6h").mask
    pile = code("7s 7c 8s 8c 9s 9c 10s 10c", SOUTH)
    moves = core.legal_moves(hand, pile, SOUTH.flags, True).tolist()
    assert moves == [Cards.parse("8d 8h 9d 9h 10d 10h Jd Jh").mask]
    # Under the contract a locked-out seat has nothing on four pairs (no table entry).
    assert core.count_legal_moves(hand, pile, 0, True) == 0


# ------------------------------------------------------------- the turn rule (R5.3)

def _quad_on_quad(rules: Rules) -> Game:
    """Seat 0 leads a quad, seat 1 passes, seat 2 plays a higher quad, seat 0 passes."""
    game = Game.from_hands([QUAD4 + " 3s", "7s 7c 8s 8c 9s 9c 10s 10c Kd", "6s 6c 6d 6h Ah"],
                           rules=rules, leader=0)
    game.play(QUAD4)
    game.pass_turn()
    game.play("6s 6c 6d 6h")
    game.pass_turn()
    return game


def test_R11_2_locked_out_seat_gets_the_turn_on_a_pile_it_may_cut() -> None:
    # South: four pairs cut a quad out of turn, so locked-out seat 1 gets the turn, and
    # may play only its four pairs.
    game = _quad_on_quad(SOUTH)
    assert game.turn == 1 and game.locked_seats == {0, 1}
    assert [m.mask for m in game.legal_moves()] == [Cards.parse("7s 7c 8s 8c 9s 9c 10s 10c").mask]
    game.play("7s 7c 8s 8c 9s 9c 10s 10c")
    assert game.pile_owner == 1 and game.turn == 2


def test_R5_3_contract_skips_a_locked_out_seat_on_a_quad() -> None:
    # Contract: nothing cuts a quad, so seat 1 is skipped; the pile comes back to its
    # owner, seat 2, and clears (R6.1).
    game = _quad_on_quad(CONTRACT)
    assert game.turn == 2 and game.pile is None and game.locked_seats == frozenset()


def test_no_out_of_turn_bombs_skips_locked_out_seats_on_2s() -> None:
    # With out_of_turn empty, a locked-out seat never gets the turn, even on a 2.
    rules = Rules(out_of_turn=frozenset())
    hands = ["3s 9d", "4s 4c 4d 4h Kd", "2h Ah"]
    game = Game.from_hands(hands, rules=rules, leader=0)
    game.play("3s")
    game.pass_turn()          # seat 1 locked out
    game.play("2h")           # seat 2
    game.pass_turn()          # seat 0: seat 1 is skipped, the pile returns to seat 2
    assert game.turn == 2 and game.pile is None
    contract = Game.from_hands(hands, leader=0)
    contract.play("3s")
    contract.pass_turn()
    contract.play("2h")
    contract.pass_turn()
    assert contract.turn == 1 and contract.can_play(QUAD4)


def test_from_fields_checks_the_turn_rule_against_the_table() -> None:
    # Seat 1 passed, seat 2 played a quad; seat 1 to act. The South lets four pairs cut a
    # quad out of turn, so the position is reachable; the contract never gives seat 1 the
    # turn on a quad (R5.3), so it is refused.
    hands = [Cards.parse(h).mask for h in ("3d 9c", DS4_LOW + " Kd", "Ah 5h")]
    pile = Cards.parse("Qs Qc Qd Qh").mask
    fields = dict(pile_mask=pile, pile_owner=2, turn=1, locked_mask=0b010)
    state = core.GameState.from_fields(hands, flags=SOUTH.flags, **fields)
    assert state.turn == 1
    with pytest.raises(ValueError, match="locked-out"):
        core.GameState.from_fields(hands, flags=0, **fields)


# ------------------------------------------------------------ instant wins (R11.3)

ALL_WINS = Rules().with_(instant_wins=set(ALL_INSTANT_WINS))


@pytest.mark.parametrize("hand,rules,expected", [
    ("2s 2c 2d 2h 3s 5d 7h 9c Jd Ks 4h 6c 8d", ALL_WINS, "four_twos"),
    ("3s 4c 5d 6h 7s 8c 9d 10h Js Qc Kd Ah 2s", ALL_WINS, "dragon"),
    ("3s 3c 5s 5c 7s 7c 9s 9c Js Jc Ks Kc 2h", ALL_WINS, "six_pairs"),
    # A quad is two pairs: 3s twice, 5s, 7s, 9s, Js.
    ("3s 3c 3d 3h 5s 5c 7s 7c 9s 9c Js Jc 2h", ALL_WINS, "six_pairs"),
    ("3s 3c 4s 4c 5s 5c 6s 6c 7s 7c 9d Jh Kd", ALL_WINS, "five_pairs"),
    # J-Q-K-A-2 pairs: five consecutive pairs only where 2s may sit in sequences (R2.8).
    ("Js Jc Qs Qc Ks Kc As Ac 2s 2c 3d 5h 7s", Rules(instant_wins={"five_pairs"}), "five_pairs"),
    ("Js Jc Qs Qc Ks Kc As Ac 2s 2c 3d 5h 7s",
     Rules(twos_in_sequences=False, instant_wins={"five_pairs"}), None),
    # A triple is one pair: five pairs, not consecutive, no win.
    ("3s 3c 3d 5s 5c 7s 7c 9s 9c Js Jc Ks 2h", ALL_WINS, None),
    # Four consecutive pairs and a gap: no win. A dragon needs every rank 3..A.
    ("3s 3c 4s 4c 5s 5c 6s 6c 8s 8c 10d Qh Kd", ALL_WINS, None),
    ("3s 4c 5d 6h 7s 8c 9d 10h Js Qc Kd 2h 2s", ALL_WINS, None),
    # Enabled wins only: four 2s under the contract is just a hand.
    ("2s 2c 2d 2h 3s 5d 7h 9c Jd Ks 4h 6c 8d", CONTRACT, None),
])
def test_R11_3_instant_win_detection(hand: str, rules: Rules, expected: str | None) -> None:
    win = core.instant_win(Cards.parse(hand).mask, rules.flags)
    assert (None if win < 0 else ALL_INSTANT_WINS[win]) == expected


def test_R11_3_first_applicable_win_is_named() -> None:
    # Four 2s and six pairs at once: four_twos comes first in ALL_INSTANT_WINS.
    hand = Cards.parse("2s 2c 2d 2h 3s 3c 5s 5c 7s 7c 9s 9c Js").mask
    assert core.instant_win(hand, ALL_WINS.flags) == ALL_INSTANT_WINS.index("four_twos")
    only_pairs = Rules(instant_wins={"six_pairs"})
    assert core.instant_win(hand, only_pairs.flags) == ALL_INSTANT_WINS.index("six_pairs")


def _wins(mask: int, rules: Rules) -> bool:
    """An independent check of R11.3 on a 13-card hand, from the rule's words."""
    counts = [bin(mask >> 4 * r & 15).count("1") for r in range(13)]
    found = set()
    if counts[12] == 4:
        found.add("four_twos")
    if all(counts[r] >= 1 for r in range(12)):
        found.add("dragon")
    if sum(c // 2 for c in counts) >= 6:
        found.add("six_pairs")
    top = 13 if rules.twos_in_sequences else 12
    if any(all(counts[r] >= 2 for r in range(s, s + 5)) for s in range(top - 4)):
        found.add("five_pairs")
    return bool(found & rules.instant_wins)


def test_R11_3_dealt_games_win_at_once_first_seat_from_the_leader() -> None:
    # Over many seeds, Game(seed) under the South ends at the deal exactly when some hand
    # qualifies by the independent check, and the winner is the first such seat in turn
    # order from the leader (the 3♠ holder, R7.2; or the given leader).
    seen = 0
    for seed in range(400):
        for leader in (None, seed % 4):
            game = Game(4, seed=seed, rules=SOUTH, leader=leader)
            hands = [h.mask for h in game.initial_hands]
            first = leader if leader is not None else next(p for p in range(4) if hands[p] & 1)
            qualifying = [p for p in ((first + k) % 4 for k in range(4)) if _wins(hands[p], SOUTH)]
            if not qualifying:
                assert game.instant_win is None and not game.is_over
                continue
            seen += 1
            seat, name = game.instant_win
            assert seat == qualifying[0] and game.is_over and game.history == ()
            assert core.instant_win(hands[seat], SOUTH.flags) == ALL_INSTANT_WINS.index(name)
            assert game.finished[0] == seat and sorted(game.finished) == [0, 1, 2, 3]
            assert game.places is not None and game.places[seat] == 1
            assert sorted(game.places) == [1, 4, 4, 4]
            # The same deal under the contract is played normally.
            assert not Game(4, seed=seed, leader=leader).is_over
    assert seen >= 5, "too few instant wins in the sample to test anything"


def test_R11_3_positions_are_not_deals() -> None:
    hands = ["2s 2c 2d 2h 3s 5d 7h 9c Jd Ks 4h 6c 8d", "3c 4c"]
    game = Game.from_hands(hands, rules=SOUTH)
    assert game.instant_win is None and not game.is_over
    state = core.GameState([Cards.parse(h).mask for h in hands], -1, SOUTH.flags, True)
    assert state.is_over and state.instant_win == 0 and state.finished == (0, 1)


def _instant_state() -> core.GameState:
    hands = [Cards.parse(h).mask for h in ("3c 4d", "2s 2c 2d 2h 5d", "3d 6h")]
    state = core.GameState(hands, 0, SOUTH.flags, True)
    assert state.instant_win == 0 and state.finished == (1, 2, 0)
    return state


def test_R11_3_instant_win_state_pickles_and_bad_keys_are_refused() -> None:
    state = _instant_state()
    twin = pickle.loads(pickle.dumps(state))
    assert twin == state and twin.instant_win == 0
    key = list(state.key())
    key[8] = 0                      # the contract: four 2s is no win, so this cannot be
    with pytest.raises(ValueError, match="instant win"):
        _core._state_from_key(tuple(key))
    key = list(state.key())
    key[6] = (2, 1, 0)              # seat 2 holds no win
    with pytest.raises(ValueError, match="instant win"):
        _core._state_from_key(tuple(key))


def test_R11_3_native_playouts_end_at_the_deal() -> None:
    # Game i of random_playouts deals as record_playout(seed, i) does: an instant-win deal
    # records no action and puts the winner first.
    order = core.random_playouts(300, 4, seed=9, flags=SOUTH.flags)
    wins = 0
    for i in range(300):
        hands, actions, finished = core.record_playout(9, i, 4, SOUTH.flags)
        assert tuple(order[i]) == finished
        state = core.GameState(hands, -1, SOUTH.flags, True)
        if state.is_over:
            wins += 1
            assert actions == [] and finished == state.finished
            assert _wins(hands[finished[0]], SOUTH)
        else:
            assert actions
    assert wins >= 3


def test_R11_3_rl_resets() -> None:
    south_deals = [s for s in range(300) if core.GameState(core.deal(s), -1, SOUTH.flags, True).is_over]
    assert south_deals
    g = core.RLGame(4, SOUTH.flags)
    g.reset(south_deals[0])
    assert g.is_over and g.instant_win >= 0 and g.num_legal == 0
    g.reset_hands(core.deal(south_deals[0]))          # a position: never checked
    assert not g.is_over and g.instant_win == -1
    # VecGames deals again: every env starts with a seat to act.
    v = core.VecGames(64, opponents=None, seed=3, flags=SOUTH.flags)
    assert bool((v.seat >= 0).all()) and bool((v.num_legal > 0).all())


# --------------------------------------- brute force from the fields (every preset)

def _cls(c: int) -> str | None:
    kind, n, top = core.code_kind(c), core.code_len(c), core.code_top(c)
    if kind in (1, 2, 3) and top >= 48:
        return "2" * n
    if kind == 4:
        return "quad"
    if kind == 6 and n in (6, 8, 10):
        return f"{n // 2}ds"
    return None


def _allowed(play: int, pile: int, rules: Rules, locked: bool) -> bool:
    """R3.1, the cut table and out-of-turn play, from the Rules fields as RULES13.md words
    them."""
    if not locked and (core.code_kind(play), core.code_len(play)) == (
            core.code_kind(pile), core.code_len(pile)):
        if core.code_top(play) > core.code_top(pile):
            return True
    b, t = _cls(play), _cls(pile)
    if b is None or t is None or (b, t) not in rules.cuts:
        return False
    if locked and b not in rules.out_of_turn:
        return False
    return b != t or core.code_top(play) > core.code_top(pile)


def _random_rules(rng: random.Random) -> Rules:
    pairs = [(b, t) for b in ALL_BOMBS for t in ALL_TARGETS]
    return Rules(twos_in_sequences=rng.random() < 0.5,
                 cuts=frozenset(p for p in pairs if rng.random() < 0.4),
                 out_of_turn=frozenset(b for b in ALL_BOMBS if rng.random() < 0.5))


def _bomby_hand(rng: random.Random, free: list[int], size: int) -> list[int]:
    """Cards grouped by rank (pairs and quads are likely) from the free cards."""
    by_rank: dict[int, list[int]] = {}
    for c in free:
        by_rank.setdefault(c >> 2, []).append(c)
    hand: list[int] = []
    ranks = list(by_rank)
    rng.shuffle(ranks)
    for r in ranks:
        take = min(rng.choice((1, 2, 2, 4)), len(by_rank[r]), size - len(hand))
        hand += rng.sample(by_rank[r], take)
        if len(hand) >= size:
            break
    return hand


@pytest.mark.parametrize("which", ["default", "no-twos", "southern", "random"])
def test_legal_moves_match_a_brute_force_over_the_fields(which: str) -> None:
    rng = random.Random(f"table-{which}")
    for case in range(100 if which == "random" else 50):
        rules = _random_rules(rng) if which == "random" else Rules.from_name(which)
        deck = list(range(52))
        rng.shuffle(deck)
        # A pile that the table may name: 2s, bombs, or anything from a bomb-rich draw.
        pile_cards = _bomby_hand(rng, deck, rng.choice((1, 2, 3, 4, 6, 8, 10)))
        pile_mask = sum(1 << c for c in pile_cards)
        pile = core.classify(pile_mask, rules.flags)
        if not pile:
            pile_mask, pile = 1 << 51, core.classify(1 << 51)
        free = [c for c in deck if not pile_mask >> c & 1]
        hand = _bomby_hand(rng, free, rng.randint(4, 9))
        hand_mask = sum(1 << c for c in hand)
        for locked in (False, True):
            expected = set()
            for k in range(1, len(hand) + 1):
                for sub in itertools.combinations(hand, k):
                    m = sum(1 << c for c in sub)
                    c = core.classify(m, rules.flags)
                    if c and _allowed(c, pile, rules, locked):
                        expected.add(m)
            got = core.legal_moves(hand_mask, pile, rules.flags, locked).tolist()
            assert set(got) == expected, (rules, hex(hand_mask), hex(pile_mask), locked)
            assert len(got) == len(expected)
            assert core.count_legal_moves(hand_mask, pile, rules.flags, locked) == len(expected)
            keys = [(core.code_kind(core.classify(m, rules.flags)), m.bit_count(), m) for m in got]
            assert keys == sorted(keys), "moves not in (kind, size, mask) order"
            # beats (in turn) agrees with the same fields on every pair seen here.
            if not locked:
                for m in expected:
                    assert core.beats(core.classify(m, rules.flags), pile, rules.flags)


def test_batch_entry_points_take_64_bit_flags() -> None:
    flags = SOUTH.flags
    assert flags >> 32, "the Southern flags need more than 32 bits"
    hands = np.array([Cards.parse("9s 9c 9d 9h 3s 3c 4s 4c 5s 5c 6s 6c").mask] * 2, np.uint64)
    piles = np.array([code("2h")] * 2, np.uint32)
    locked = np.array([False, True])
    assert core.count_legal_moves_many(hands, piles, flags, locked).tolist() == [4, 1]
    offsets, moves = core.legal_moves_many(hands, piles, flags, locked)
    assert offsets.tolist() == [0, 4, 5]
    plays = np.array([code(QUAD3), code(DS4_LOW)], np.uint32)
    assert core.beats_many(plays, np.array([code("2s 2c")] * 2, np.uint32), flags).tolist() == [True, True]
    assert core.beats_many(plays, np.array([code("2s 2c")] * 2, np.uint32), 0).tolist() == [False, True]
    state = core.GameState(core.deal(5), -1, flags)
    assert state.flags == flags and pickle.loads(pickle.dumps(state)).flags == flags
    with pytest.raises(ValueError, match="unknown rule flags"):
        core.classify(1, 1 << 37)


# ------------------------------------------------------- the solver reads the table

def _first_out(state: core.GameState, seat: int, memo: dict[tuple[object, ...], bool]) -> bool:
    """Plain minimax over the checked game rules: does `seat` go out first (2 players)?"""
    key = state.key()
    if key in memo:
        return memo[key]
    if state.is_over:
        result = state.finished[0] == seat
    else:
        actions = [int(m) for m in state.legal_moves()] + ([0] if state.can_pass() else [])
        outcomes = []
        for a in actions:
            child = state.copy()
            child.apply_checked(a)
            outcomes.append(_first_out(child, seat, memo))
        result = any(outcomes) if state.turn == seat else all(outcomes)
    memo[key] = result
    return result


@pytest.mark.parametrize("name", ["southern", "random"])
def test_solver_agrees_with_minimax_under_other_tables(name: str) -> None:
    rng = random.Random(f"solve-{name}")
    for case in range(15):
        rules = SOUTH if name == "southern" else _random_rules(rng)
        deck = list(range(52))
        rng.shuffle(deck)
        a = _bomby_hand(rng, deck, rng.randint(3, 6))
        b = _bomby_hand(rng, [c for c in deck if c not in a], rng.randint(3, 6))
        state = core.GameState([sum(1 << c for c in a), sum(1 << c for c in b)], 0, rules.flags)
        value, _line, _nodes, limit = core.solve(state)
        assert limit is None
        expected = _first_out(state, 0, {})
        assert (value == core.SOLVE_WIN) is expected, (rules, hex(state.hands[0]), hex(state.hands[1]))


# ------------------------------------------------- refusals worded from the table

def test_refusals_name_what_the_table_allows() -> None:
    from tienlen.games.tienlen.refusals import IllegalMoveError, Reason

    # South, in turn: three pairs on a pair of 2s. R11.1 lets three pairs cut only a single 2.
    game = Game.from_hands(["2s 2c 9d", DS3 + " Kd"], rules=SOUTH, leader=0)
    game.play("2s 2c")
    with pytest.raises(IllegalMoveError) as refused:
        game.play(DS3)
    assert refused.value.reason is Reason.DOES_NOT_BEAT
    assert str(refused.value).endswith(
        "(double sequence of 3 pairs against pair); a double sequence of 3 pairs bombs only "
        "a single 2")
    # South, locked out on a single 2: only four pairs may cut it out of turn (R11.2), so a
    # quad is refused even though it cuts a 2 in turn.
    game = Game.from_hands(["3s 9d", QUAD4 + " Kd", "2h Ah"], rules=SOUTH, leader=0)
    game.play("3s")
    game.pass_turn()
    game.play("2h")
    game.pass_turn()
    assert game.turn == 1 and 1 in game.locked_seats
    with pytest.raises(IllegalMoveError) as refused:
        game.play(QUAD4)
    assert refused.value.reason is Reason.LOCKED_OUT
    assert str(refused.value) == ("you passed on this pile: only a double sequence of 4 pairs "
                                  "may cut it")
