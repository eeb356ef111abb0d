"""IllegalMoveError carries a reason plus the fields its message was built from, so that the
TUI and the replay reader word it again (seat names, ASCII cards, "it" as the subject)
without rewriting message text. The expected texts are written out by hand from the rules
(RULES.md R3, R5, R7) and the positions, and the plain message stays as it always read."""

from __future__ import annotations

import pickle

import pytest

from tienlen.games.tienlen.cards import Card, Cards
from tienlen.games.tienlen.game import Game
from tienlen.games.tienlen.hints import hint
from tienlen.games.tienlen.refusals import IllegalMoveError, Reason, Wording
from tienlen.games.tienlen.replay import ReplayError, game_from_json

NAMES = ("You", "Minh", "Lan").__getitem__


def refusal(game: Game, cards: str, seat: int | None = None) -> IllegalMoveError:
    before = game.to_json()
    with pytest.raises(IllegalMoveError) as info:
        game.play(cards, seat)
    assert game.to_json() == before            # a refusal changes nothing
    return info.value


def test_not_your_turn_names_both_seats() -> None:
    game = Game.from_hands(["3s 4s", "5s 9h", "6d 7d"])
    error = refusal(game, "5s", seat=1)
    assert error.reason is Reason.NOT_YOUR_TURN
    assert (error.fields["turn"], error.fields["seat"]) == (0, 1)
    assert str(error) == "it is seat 0's turn, not seat 1's"
    assert error.describe(seat_name=NAMES) == "it is You's turn, not Minh's"


def test_does_not_beat_keeps_its_cards_as_fields() -> None:
    game = Game.from_hands(["7d 8d 9d 3s", "4s 5s 6h Kc"], leader=0)
    game.play("7d 8d 9d")
    error = refusal(game, "4s 5s 6h")
    assert error.reason is Reason.DOES_NOT_BEAT
    assert error.fields["pile"] == Cards.parse("7d 8d 9d")
    assert error.fields["subject"] == Cards.parse("4s 5s 6h")
    assert (error.fields["play_top"], error.fields["pile_top"]) == (Card.parse("6h"),
                                                                     Card.parse("9d"))
    assert str(error) == ("4♠ 5♠ 6♥ does not beat 7♦ 8♦ 9♦: it has a lower top card "
                          "(6♥ against 9♦)")
    ascii_text = error.describe(card_text=Cards.ascii, subject="it")
    assert ascii_text == "it does not beat 7d 8d 9d: it has a lower top card (6h against 9d)"


def test_cards_not_held_and_first_lead_fields() -> None:
    game = Game.from_hands(["3s 4s", "5s 9h"])
    error = refusal(game, "3s 5s")
    assert error.reason is Reason.CARDS_NOT_IN_HAND
    assert error.fields["missing"] == Cards.parse("5s")
    assert str(error) == "you do not hold 5♠"
    error = refusal(game, "4s")
    assert error.reason is Reason.MUST_INCLUDE_LOWEST
    assert error.fields["required"] == Card.parse("3s")
    assert error.describe(card_text=Cards.ascii) == "the first lead must include 3s"


def test_a_plain_message_still_describes_itself() -> None:
    error = IllegalMoveError(Reason.GAME_OVER, "the {hand} is over", seat=0)
    assert str(error) == error.describe() == "the {hand} is over"


def test_wording_pickles_with_its_fields() -> None:
    wording = Wording("{subject} is not a combination", subject=Cards.parse("3s 5s"))
    copy = pickle.loads(pickle.dumps(wording))
    assert copy == "3♠ 5♠ is not a combination"
    assert copy.render(subject="it") == "it is not a combination"


def test_an_illegal_move_error_pickles_with_its_reason_and_fields() -> None:
    game = Game.from_hands(["3s 4s", "5s 9h"])
    error = refusal(game, "3s 5s")
    copy = pickle.loads(pickle.dumps(error))
    assert type(copy) is IllegalMoveError and copy.reason is Reason.CARDS_NOT_IN_HAND
    assert str(copy) == str(error) and copy.fields["missing"] == Cards.parse("5s")
    assert (copy.seat, copy.cards) == (0, Cards.parse("3s 5s"))


def test_replay_words_a_refused_play_with_it_as_subject() -> None:
    game = Game.from_hands(["3s 4s", "5s 9h"])
    game.play("3s")
    bad = game.to_json().replace('{"seat": 0, "action": "play", "cards": "3s"}',
                                 '{"seat": 0, "action": "play", "cards": "3s 4s"}')
    with pytest.raises(ReplayError) as info:
        game_from_json(bad)
    assert str(info.value) == "actions[0]: seat 0 cannot play 3♠ 4♠: it is not a combination"


def test_hint_block_reason_names_the_seat_from_its_fields() -> None:
    # Seat 1 holds one card, so L2 plays its highest single to stop it.
    game = Game.from_hands(["3s 4d 8c Kh", "9s"], leader=0)
    game.play("3s")
    game.pass_turn()
    suggestion = hint(game.view(0), level="L2")
    reason = suggestion.reason
    assert isinstance(reason, Wording) and reason.fields["seat"] == 1
    assert reason.startswith("seat 1 has 1 card left, so play high to stop them")
    assert reason.render(seat_name=NAMES).startswith("Minh has 1 card left")


def test_the_play_screen_words_a_refusal_from_its_fields() -> None:
    import io

    from tienlen.table import get_spec
    from tienlen.table.board import PlaySettings, Style

    session = get_spec("tienlen").board(PlaySettings(seed=11, levels=("L1",) * 3,
                                                     style=Style(ascii=True)))
    names = [session.seats[seat].name for seat in range(4)]
    turn = session.game.turn
    other = (turn + 1) % 4
    with pytest.raises(IllegalMoveError) as info:
        session.game.pass_turn(other)
    text = session.refusal(info.value)
    assert text == f"it is {names[turn]}'s turn, not {names[other]}'s"
    error = IllegalMoveError(Reason.DOES_NOT_BEAT, Wording(
        "{subject} does not beat {pile}", subject=Cards.parse("4h"), pile=Cards.parse("10h")))
    assert session.refusal(error) == "4h does not beat 10h"
