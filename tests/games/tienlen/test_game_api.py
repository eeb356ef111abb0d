"""The Game API: construction, properties, the lazy legal-move view, verify/can/do actions,
refusal reasons and their wording, history, copies, snapshots, views and matches.

Rule scenarios live in test_game_rules.py; here the point is the shape of the API and that
a refused action leaves the game exactly as it was.
"""

from __future__ import annotations

import copy
import pickle
import random
from dataclasses import FrozenInstanceError, fields  # noqa: F401

import pytest

from tienlen import core
from tienlen.games.tienlen.cards import Card, Cards
from tienlen.games.tienlen.plays import Combo, Kind
from tienlen.errors import CardParseError
from tienlen.games.tienlen.game import PASS, Action, Game, LegalMoves
from tienlen.games.tienlen.match import Match, MatchError
from tienlen.games.tienlen.refusals import IllegalMoveError, Reason, reason_from_core
from tienlen.games.tienlen.rules import Rules
from tienlen.games.tienlen.view import View


def C(text: str) -> Cards:
    return Cards.parse(text)


def refusal(game: Game, action, *args) -> IllegalMoveError:
    """Run a refused action; check the game is unchanged; return the error."""
    before = game.snapshot()
    history = game.history
    twin = game.copy()
    with pytest.raises(IllegalMoveError) as info:
        action(*args)
    assert game.snapshot() == before
    assert game == twin and game.history == history
    return info.value


def locked_on_a_two() -> Game:
    """Seat 1 passed on 3♠, then seat 0 played a single 2: seat 1 is locked out, to act."""
    game = Game.from_hands(["3s 4s 2h Ks", "5s 5c 5d 5h 9d", "6c 7c 8h"])
    game.play("3s")
    game.pass_turn()
    game.play("6c")
    game.play("2h")
    return game


def on_a_sequence() -> Game:
    """Seat 0 led 7♦ 8♦ 9♦; seat 1 (holding 9♠ 9♥ and more) is to act."""
    game = Game.from_hands(["3s 7d 8d 9d Kh", "4s 5s 6h 9s 9h 10s Js Qs 3c 3d 3h 4c"],
                           leader=0)
    game.play("7d 8d 9d")
    return game


# ---------------------------------------------------------------------- construction


def test_fresh_seed_is_drawn_and_kept() -> None:
    game = Game()
    assert isinstance(game.seed, int) and 0 <= game.seed < 2**64
    assert Game(seed=game.seed).hands == game.hands
    assert game.players == 4 and game.rules == Rules() and game.leader is None


@pytest.mark.parametrize("players", [0, 1, 5, "4", 4.0, True])
def test_bad_player_counts_are_refused(players) -> None:
    with pytest.raises(ValueError, match="players must be 2, 3 or 4"):
        Game(players, seed=1)


@pytest.mark.parametrize("seed", [-1, 2**64, "42", 1.5, True])
def test_bad_seeds_are_refused(seed) -> None:
    with pytest.raises(ValueError, match="seed must be an int"):
        Game(4, seed=seed)


@pytest.mark.parametrize("leader", [-1, 4, "0", True, 1.0])
def test_bad_leaders_are_refused(leader) -> None:
    with pytest.raises(ValueError, match="leader must be None or a seat"):
        Game(4, seed=1, leader=leader)


def test_rules_must_be_a_rules_object() -> None:
    with pytest.raises(ValueError, match="rules must be a Rules"):
        Game(4, seed=1, rules="no-twos")  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "hands, message",
    [
        (["3s"], "2, 3 or 4 players"),
        (["3s", "4s", "5s", "6s", "7s"], "2, 3 or 4 players"),
        (["3s 4s", "4s"], "shares cards"),
        (["3s", ""], "empty"),
        (["3s", 1 << 52], "outside"),
    ],
)
def test_from_hands_validates_hands(hands, message) -> None:
    with pytest.raises(ValueError, match=message):
        Game.from_hands(hands)


def test_from_hands_accepts_cards_masks_and_text() -> None:
    game = Game.from_hands([C("3s 4s"), C("5s").mask, "9h 2h"])
    assert game.hands == (C("3s 4s"), C("5s"), C("9h 2h"))
    assert game.seed is None and game.initial_hands == game.hands


def test_from_hands_rejects_bad_card_text() -> None:
    with pytest.raises(CardParseError):
        Game.from_hands(["3s", "4x"])


def test_rules_variant_reaches_the_core() -> None:
    hands = ["Js Qs Ks As 2s 3c", "4d"]
    assert Game.from_hands(hands, leader=0).can_play("Js Qs Ks As 2s")
    no_twos = Game.from_hands(hands, leader=0, rules=Rules(twos_in_sequences=False))
    assert not no_twos.can_play("Js Qs Ks As 2s")
    assert no_twos.can_play("Js Qs Ks As")
    assert no_twos.rules.name == "no-twos"


# ------------------------------------------------------------------------ properties


def test_properties_of_a_fresh_deal() -> None:
    game = Game(4, seed=0)
    assert game.turn == 0 and game.must_include == Card.parse("3s")
    assert all(isinstance(hand, Cards) and len(hand) == 13 for hand in game.hands)
    assert game.pile is None and game.pile_owner is None
    assert game.locked_seats == frozenset() and isinstance(game.locked_seats, frozenset)
    assert game.finished == () and not game.is_over and game.loser is None
    assert game.history == () and game.played == Cards()
    assert game.hand(2) == game.hands[2]


def test_properties_follow_play() -> None:
    game = Game.from_hands(["3s 5s 9h", "4c 4d Kd", "6h 7h"])
    game.play("3s")
    assert isinstance(game.pile, Combo) and game.pile.cards == C("3s")
    assert game.pile_owner == 0 and game.must_include is None
    game.pass_turn()
    assert game.locked_seats == {1}
    assert game.played == C("3s")
    assert [a.action for a in game.history] == ["play", "pass"]


def test_hand_rejects_bad_seats() -> None:
    game = Game(3, seed=1)
    for seat in (-1, 3, "0", None):
        with pytest.raises(ValueError, match="seat must be 0..2"):
            game.hand(seat)  # type: ignore[arg-type]


# ---------------------------------------------------------------------- legal moves


def test_legal_moves_is_a_lazy_live_view_in_the_core_order() -> None:
    game = Game(4, seed=7)
    moves = game.legal_moves()
    assert isinstance(moves, LegalMoves)
    state_moves = [int(m) for m in core.legal_moves(
        game.hands[game.turn].mask, 0, 0, False, int(game.must_include))]
    assert [m.mask for m in moves] == state_moves
    assert len(moves) == len(state_moves) == len(list(moves))
    assert bool(moves)
    first = next(iter(moves))
    game.play(first)
    # The same object now describes the next seat's options.
    assert [m.mask for m in moves] == [m.mask for m in game.legal_moves()]
    assert first not in moves


def test_legal_moves_contains_uses_can_play() -> None:
    game = Game.from_hands(["3s 3c 4d", "5s 9h"], leader=0)
    moves = game.legal_moves()
    assert "3s 3c" in moves and C("4d") in moves and C("3s").mask in moves
    assert "3c 4d" not in moves and "5s" not in moves and PASS not in moves
    assert Card.parse("3c") in moves  # one Card is the single
    with pytest.raises(CardParseError):
        "3x" in moves  # noqa: B015


def test_legal_moves_repr_and_empty() -> None:
    game = Game.from_hands(["3s 3c 4d", "5s 9h"], leader=0)
    assert repr(game.legal_moves()) == "<LegalMoves (4): 3♠, 3♣, 4♦, 3♠ 3♣>"
    big = Game(4, seed=3, leader=0)
    text = repr(big.legal_moves())
    assert text.startswith(f"<LegalMoves ({len(big.legal_moves())}): ") and "..." in text
    game.play("4d")
    game.play("9h")
    assert not game.legal_moves() and list(game.legal_moves()) == []
    assert repr(game.legal_moves()) == "<LegalMoves (0): >"


# -------------------------------------------------------------- refusals and wording


def test_reason_names_match_the_core_table() -> None:
    for code, name in core.REASON_NAMES.items():
        if code == core.OK:
            continue
        assert reason_from_core(code).name == name
        assert reason_from_core(code).core_code == code
    assert {r.name for r in Reason} == set(core.REASON_NAMES.values()) - {"OK"} | {
        "NOT_YOUR_TURN"}


def test_illegal_move_error_is_a_value_error() -> None:
    assert issubclass(IllegalMoveError, ValueError)


def test_refused_not_your_turn() -> None:
    game = Game.from_hands(["3s 4s", "5s 9h", "6d 7d"])
    error = refusal(game, game.play, "5s", 1)
    assert error.reason is Reason.NOT_YOUR_TURN
    assert str(error) == "it is seat 0's turn, not seat 1's"
    assert error.seat == 1 and error.cards == C("5s")
    error = refusal(game, game.pass_turn, 2)
    assert error.reason is Reason.NOT_YOUR_TURN and str(error) == "it is seat 0's turn, not seat 2's"
    assert not game.can_play("5s", 1) and not game.can_pass(2)


def test_refused_cards_not_in_hand() -> None:
    game = Game.from_hands(["3s 4s", "5s 9h 2h"])
    error = refusal(game, game.play, "3s 2h")
    assert error.reason is Reason.CARDS_NOT_IN_HAND
    assert str(error) == "you do not hold 2♥"
    assert error.seat == 0 and error.cards == C("3s 2h")


def test_refused_not_a_combination() -> None:
    game = Game.from_hands(["3s 4s 9s 9h", "5s"], leader=0)
    error = refusal(game, game.play, "4s 9s")
    assert error.reason is Reason.NOT_A_COMBINATION and str(error) == "4♠ 9♠ is not a combination"
    error = refusal(game, game.play, Cards())
    assert error.reason is Reason.NOT_A_COMBINATION
    assert str(error) == "you must play at least one card (or pass)"


def test_refused_does_not_beat_different_kind() -> None:
    game = on_a_sequence()
    error = refusal(game, game.play, "9s 9h")
    assert error.reason is Reason.DOES_NOT_BEAT
    assert str(error) == ("9♠ 9♥ does not beat 7♦ 8♦ 9♦: it is a different kind "
                          "(pair against sequence of 3 cards)")


def test_refused_does_not_beat_lower_top_card() -> None:
    game = on_a_sequence()
    error = refusal(game, game.play, "4s 5s 6h")
    assert error.reason is Reason.DOES_NOT_BEAT
    assert str(error) == ("4♠ 5♠ 6♥ does not beat 7♦ 8♦ 9♦: it has a lower top card "
                          "(6♥ against 9♦)")


def test_refused_does_not_beat_other_length() -> None:
    game = on_a_sequence()
    error = refusal(game, game.play, "9s 10s Js Qs")
    assert error.reason is Reason.DOES_NOT_BEAT
    assert str(error).endswith(": it has 4 cards and the pile has 3")


def test_refused_bomb_is_told_what_it_bombs() -> None:
    game = Game.from_hands(["3s 3c 3d 3h 5s", "4s 4c 2s 2h"], leader=1)
    game.play("2s 2h")
    error = refusal(game, game.play, "3s 3c 3d 3h")
    assert error.reason is Reason.DOES_NOT_BEAT
    assert str(error) == ("3♠ 3♣ 3♦ 3♥ does not beat 2♠ 2♥: it is a different kind "
                          "(quad against pair); a quad bombs only a single 2")


def test_refused_must_include_lowest() -> None:
    game = Game.from_hands(["5s 6h", "3d 9c"])
    error = refusal(game, game.play, "9c")
    assert error.reason is Reason.MUST_INCLUDE_LOWEST
    assert str(error) == "the first lead must include 3♦"


def test_refused_locked_out() -> None:
    game = locked_on_a_two()
    error = refusal(game, game.play, "9d")
    assert error.reason is Reason.LOCKED_OUT
    # R4.1, R5.2: out of turn, a single 2 is cut by a quad or a 3-pair double sequence.
    assert str(error) == ("you passed on this pile: only a quad or a double sequence of "
                          "3 pairs may cut it")


def test_refused_cannot_pass_on_lead() -> None:
    game = Game(4, seed=9)
    error = refusal(game, game.pass_turn)
    assert error.reason is Reason.CANNOT_PASS_ON_LEAD
    assert str(error) == "you lead: you cannot pass"
    assert error.cards is None and error.seat == game.turn


def test_refused_game_over() -> None:
    game = Game.from_hands(["3s", "4c 5d"])
    game.play("3s")
    for action, args in [(game.play, ("4c",)), (game.pass_turn, ()), (game.play, ("4c", 1)),
                         (game.pass_turn, (1,))]:
        error = refusal(game, action, *args)
        assert error.reason is Reason.GAME_OVER and str(error) == "the hand is over"


def test_verify_and_can_agree() -> None:
    game = locked_on_a_two()
    assert game.verify_play("5s 5c 5d 5h") is None and game.can_play("5s 5c 5d 5h")
    assert game.verify_pass() is None and game.can_pass()
    assert not game.can_play("9d")


def test_bad_card_text_propagates_and_changes_nothing() -> None:
    game = Game(4, seed=1)
    before = game.snapshot()
    for action in (game.play, game.verify_play, game.can_play):
        with pytest.raises(CardParseError):
            action("3s 1h")
    assert game.snapshot() == before


@pytest.mark.parametrize("bad", [1 << 52, -1, 3.5, None])
def test_bad_masks_are_value_errors(bad) -> None:
    game = Game(4, seed=1)
    before = game.snapshot()
    with pytest.raises(ValueError):
        game.play(bad)
    assert game.snapshot() == before


def test_bad_seat_is_a_value_error_not_a_turn_error() -> None:
    game = Game(4, seed=1)
    with pytest.raises(ValueError, match="seat must be 0..3") as info:
        game.play("3s", 7)
    assert not isinstance(info.value, IllegalMoveError)


# ------------------------------------------------------------------------- actions


def test_play_accepts_cards_text_masks_and_a_card() -> None:
    game = Game.from_hands(["3s 4s 5s 2h", "6d 7d 8d Jc", "Kc Ac"])
    assert game.play(C("3s")).cards == C("3s")
    assert game.play(C("6d").mask).cards == C("6d")
    assert game.play(Card.parse("Kc")).cards == C("Kc")
    assert game.play("2h", seat=0).cards == C("2h")


def test_actions_are_frozen_records_in_history() -> None:
    game = Game.from_hands(["3s 4s 5s 9h", "6d 7d 8d Jc"])
    played = game.play("3s 4s 5s")
    passed = game.pass_turn()
    assert played == Action(0, "play", C("3s 4s 5s"), Combo.from_cards("3s 4s 5s"))
    assert played.combo.kind is Kind.SEQUENCE and not played.is_pass
    assert passed == Action(1, "pass", None, None) and passed.is_pass and passed.move is PASS
    assert game.history == (played, passed)
    assert str(played) == "seat 0 plays 3♠ 4♠ 5♠" and str(passed) == "seat 1 passes"
    with pytest.raises(AttributeError):  # frozen: a named tuple refuses assignment
        played.seat = 3  # type: ignore[misc]


def test_act_takes_cards_or_pass() -> None:
    game = Game.from_hands(["3s 4s 9h", "6d 7d Jc"])
    assert game.act(C("3s")).action == "play"
    assert game.act(PASS).action == "pass"
    with pytest.raises(IllegalMoveError) as info:
        game.act(PASS)
    assert info.value.reason is Reason.CANNOT_PASS_ON_LEAD


def test_pass_is_a_singleton_that_survives_copy_and_pickle() -> None:
    assert repr(PASS) == "PASS"
    assert pickle.loads(pickle.dumps(PASS)) is PASS
    assert copy.deepcopy(PASS) is PASS and type(PASS)() is PASS
    with pytest.raises(ValueError, match="PASS is not a set of cards"):
        Game(4, seed=1).play(PASS)  # type: ignore[arg-type]


def test_apply_unchecked_records_like_the_checked_path() -> None:
    checked = Game.from_hands(["3s 4s 5s 9h Kh", "6d 7d 8d Jc"])
    fast = checked.copy()
    for move in ["3s 4s 5s", None, "9h", "Jc"]:
        if move is None:
            checked.pass_turn()
        else:
            checked.play(move)
    fast.apply_unchecked(C("3s 4s 5s"))
    fast.apply_unchecked(0)
    fast.apply_unchecked(C("9h").mask)
    fast.apply_unchecked(C("Jc"))
    assert fast == checked
    assert fast.history == checked.history


def test_apply_unchecked_trusts_the_caller_for_a_play_the_rules_refuse() -> None:
    # The fast path takes the checked path's one core call for a legal move; a move the
    # rules refuse but that corrupts nothing (here 4♦ on 9♥) is still applied and
    # recorded, as the caller vouched for it.
    game = Game.from_hands(["9h 3s 5c", "Kh 4d 6d"])
    game.play("3s")
    game.pass_turn()
    game.play("9h")
    assert not game.can_play("4d")
    action = game.apply_unchecked(C("4d"))
    assert (action.seat, action.action, action.cards) == (1, "play", C("4d"))
    assert action.combo == Combo.from_cards(C("4d")) and game.history[-1] is action
    assert game.hand(1) == C("Kh 6d") and game.turn == 0


def test_apply_unchecked_still_refuses_corrupting_moves() -> None:
    game = Game.from_hands(["3s 4s 9h", "6d 7d Jc"])
    before = game.snapshot()
    for move in (C("6d"), C("3s 9h"), PASS):  # not held, not a combination, pass on lead
        with pytest.raises(ValueError):
            game.apply_unchecked(move)
        assert game.snapshot() == before


# ------------------------------------------------------------- copies and snapshots


def test_copy_is_independent_both_ways() -> None:
    game = Game(4, seed=2)
    game.play("3s")
    twin = game.copy()
    assert twin == game and twin is not game
    assert copy.copy(game) == game and copy.deepcopy(game) == game
    twin.pass_turn()
    assert len(twin.history) == 2 and len(game.history) == 1
    move = next(iter(game.legal_moves()))
    game.play(move)
    assert twin.history[1].is_pass and not game.history[1].is_pass
    assert twin != game
    third = twin.copy()
    third.apply_unchecked(next(iter(third.legal_moves()), PASS))
    assert len(twin.history) == 2 and len(third.history) == 3


def test_snapshot_is_hashable_and_distinguishes_setups() -> None:
    a = Game.from_hands(["3s 4s", "5s 9h"])
    b = Game.from_hands(["3s 4s", "5s 9h"], leader=0)
    assert hash(a.snapshot()) == hash(a.copy().snapshot())
    assert a.snapshot() != b.snapshot()  # same cards, different leader rule
    assert a != "game" and a == a.copy()
    with pytest.raises(TypeError):
        hash(a)


def test_repr_mentions_the_state() -> None:
    game = Game.from_hands(["3s 6s", "5s 9h"])
    assert repr(game) == "<Game players=2 turn=0 pile=- finished=() actions=0>"
    game.play("3s")
    game.play("5s")
    game.play("6s")
    assert repr(game) == "<Game players=2 over pile=single 6♠ finished=(0, 1) actions=3>"


# ---------------------------------------------------------------------------- views


def test_view_fields_are_the_spec() -> None:
    assert [f.name for f in fields(View)] == [
        "seat", "players", "rules", "hand", "card_counts", "played", "pile", "pile_owner",
        "turn", "locked_seats", "finished", "must_include", "history"]


def test_view_shows_own_hand_and_public_facts_only() -> None:
    game = Game(4, seed=4)
    rng = random.Random(4)
    for _ in range(15):
        options = list(game.legal_moves())
        choice = rng.randrange(len(options) + game.can_pass())
        game.act(options[choice] if choice < len(options) else PASS)
    for seat in range(4):
        view = game.view(seat)
        assert view.seat == seat and view.players == 4 and view.rules == game.rules
        assert view.hand == game.hands[seat]
        assert view.card_counts == tuple(len(h) for h in game.hands)
        assert view.played == game.played and view.pile == game.pile
        assert view.pile_owner == game.pile_owner and view.turn == game.turn
        assert view.locked_seats == game.locked_seats and view.finished == game.finished
        assert view.must_include == game.must_include and view.history == game.history
        assert view.is_my_turn == (seat == game.turn)
        assert view.unseen == Cards((1 << 52) - 1) - view.hand - view.played
        others = Cards(0)
        for other, hand in enumerate(game.hands):
            if other != seat:
                others = others | hand
        assert others.mask & ~view.unseen.mask == 0
        # No field holds another seat's cards.
        for f in fields(View):
            value = getattr(view, f.name)
            if isinstance(value, Cards) and f.name != "hand":
                assert value.mask & others.mask == 0


def test_view_legal_moves_and_pass_match_the_game() -> None:
    game = locked_on_a_two()
    mover = game.view(1)
    assert mover.legal_moves() == list(game.legal_moves()) == [C("5s 5c 5d 5h")]
    assert mover.can_pass() and game.can_pass()
    assert game.view(0).legal_moves() == [] and not game.view(0).can_pass()
    lead = Game(4, seed=0).view(0)
    assert lead.legal_moves() == list(Game(4, seed=0).legal_moves())
    assert not lead.can_pass()


def test_view_search_state_is_consistent_with_the_view() -> None:
    game = Game(4, seed=12)
    # Before the first lead: seat 1 does not hold 3♠, but must place it with the leader.
    for seat in range(4):
        view = game.view(seat)
        state = view.search_state()
        assert state.hands[seat] == view.hand.mask
        assert [bin(h).count("1") for h in state.hands] == list(view.card_counts)
        assert state.turn == game.turn and state.must_include == int(game.must_include)
        assert state.hands[game.turn] & 1
    rng = random.Random(12)
    while not game.is_over:
        view = game.view(game.turn)
        state = view.search_state()
        assert [int(m) for m in state.legal_moves()] == [m.mask for m in game.legal_moves()]
        assert state.can_pass() == game.can_pass()
        assert state.pile_mask == (game.pile.cards.mask if game.pile else 0)
        assert state.locked_mask == sum(1 << s for s in game.locked_seats)
        union = 0
        for hand in state.hands:
            assert hand & union == 0
            union |= hand
        assert union & game.played.mask == 0
        options = list(game.legal_moves())
        choice = rng.randrange(len(options) + game.can_pass())
        game.act(options[choice] if choice < len(options) else PASS)
    with pytest.raises(ValueError, match="over"):
        game.view(0).search_state()


def test_view_is_frozen() -> None:
    view = Game(4, seed=1).view(0)
    with pytest.raises(FrozenInstanceError):
        view.seat = 2  # type: ignore[misc]


# --------------------------------------------------------------------------- matches


def test_match_basics() -> None:
    match = Match(2, seed=99)
    assert match.players == 2 and match.seed == 99 and match.rules == Rules()
    assert match.hand_number == 1 and match.results == [] and match.scores == (0, 0)
    assert match.place_counts == ((0, 0), (0, 0))
    with pytest.raises(MatchError):
        match.next_hand()
    assert issubclass(MatchError, ValueError)
    assert Match(2, seed=99).game.hands == match.game.hands
    assert Match(2, seed=100).game.hands != match.game.hands
    assert "hand=1" in repr(match)


@pytest.mark.parametrize("kwargs", [{"players": 5}, {"seed": -1}, {"seed": "x"}])
def test_match_validates(kwargs) -> None:
    with pytest.raises(ValueError):
        Match(**kwargs)


def _over() -> Game:
    game = Game.from_hands(["3s", "4c 5d"])
    game.play("3s")
    return game


# One refused action per reason: (reason, game factory, action on the game).
EVERY_REFUSAL = [
    (Reason.NOT_YOUR_TURN, lambda: Game(4, seed=0), lambda g: g.play("3s", 1)),
    (Reason.CARDS_NOT_IN_HAND, lambda: Game(4, seed=0), lambda g: g.play("3s 3h")),
    (Reason.NOT_A_COMBINATION, lambda: Game(4, seed=0), lambda g: g.play("3s 2c")),
    (Reason.DOES_NOT_BEAT, on_a_sequence, lambda g: g.play("9s 9h")),
    (Reason.MUST_INCLUDE_LOWEST, lambda: Game(4, seed=0), lambda g: g.play("2c")),
    (Reason.LOCKED_OUT, locked_on_a_two, lambda g: g.play("9d")),
    (Reason.CANNOT_PASS_ON_LEAD, lambda: Game(4, seed=0), lambda g: g.pass_turn()),
    (Reason.GAME_OVER, _over, lambda g: g.pass_turn()),
]


def test_every_reason_is_covered_by_the_refusal_table() -> None:
    assert {reason for reason, _, _ in EVERY_REFUSAL} == set(Reason)


@pytest.mark.parametrize("reason, make, action", EVERY_REFUSAL,
                         ids=[r.name for r, _, _ in EVERY_REFUSAL])
def test_every_refusal_leaves_the_game_exactly_as_it_was(reason, make, action) -> None:
    game = make()
    before = game.snapshot()
    state_key = game._state.key()
    with pytest.raises(IllegalMoveError) as info:
        action(game)
    assert info.value.reason is reason
    assert game.snapshot() == before and game._state.key() == state_key
    # And the game still plays on as if nothing happened.
    assert game == make()


@pytest.mark.parametrize("seat", [3, -1, "0", 1.0, True, object()])
def test_can_with_a_malformed_seat_raises_a_tienlen_error(seat) -> None:
    """Issue 24, item 13: both games raise for a malformed seat in can_* (guandan answered
    False); Tiến Lên's error was a bare ValueError, now a TienlenError, game unchanged."""
    from tienlen.errors import TienlenError

    game = Game.from_hands(["3s 4s", "5s", "6s"])
    before = game.snapshot()
    for call in (lambda: game.can_play("3s", seat), lambda: game.can_pass(seat),
                 lambda: game.verify_play("3s", seat), lambda: game.play("3s", seat)):
        with pytest.raises(TienlenError, match="seat must be 0..2"):
            call()
    assert game.snapshot() == before
