"""The match driver and the terminal session, written once (issue 25), play a game tienlen
does not know: the toy climbing game of tests/toy_game.py, registered for these tests only.
Nothing in tienlen.table.match, tienlen.tui.session or the CLI was written for it: the toy
gives the driver its three hooks (deal, settle, record), and the session reads it through
the table protocol."""

from __future__ import annotations

import io
from typing import Any

import pytest

from tienlen.cli import main
from tienlen.seeds import table_bot_seed
from tienlen.table import IllegalActionError
from tienlen.table.match import MatchDriver, MatchStateError
from tienlen.tui.session import TableSession
from tienlen.tui.terminal import Terminal

import toy_game
from toy_game import ToyBot, ToyHand, registered


@pytest.fixture
def toy():
    with registered() as spec:
        yield spec


class ToyMatch(MatchDriver[ToyHand, "list[int]"]):
    """The toy's match on the one driver: its hooks only (what a third game writes)."""

    __slots__ = ("_game", "seed", "players", "hands", "points")

    def __init__(self, seed: int, players: int, hands: int) -> None:
        self.seed, self.players, self.hands = seed, players, hands
        self.points: list[list[int]] = []
        self._game = ToyHand(seed, 1, players)

    def _settle(self, hand: ToyHand) -> list[int]:
        return [self.players - place for place in hand.places()]

    def _record(self, result: list[int]) -> None:
        self.points.append(result)

    def _next_deal(self, hand: ToyHand, result: list[int]) -> ToyHand | None:
        number = len(self.points) + 1
        return ToyHand(self.seed, number, self.players) if number <= self.hands else None


def _play_hand(hand: ToyHand, bots: list[ToyBot]) -> None:
    while not hand.is_over:
        seat = hand.turn
        assert seat is not None
        action = bots[seat].act(hand.view(seat))
        hand.act(seat, tuple(int(c) for c in action["cards"]) if action["kind"] == "play" else None)


def test_the_match_driver_plays_the_toy_as_the_toy_table_does(toy) -> None:
    seed, players, hands = 8, 3, 4
    match = ToyMatch(seed, players, hands)
    bots = [ToyBot("random", s) for s in range(players)]
    with pytest.raises(MatchStateError):
        match.next_hand()                      # the first hand is in play
    for _ in range(hands):
        _play_hand(match.game, bots)
        match.next_hand()
    assert len(match.points) == hands
    # The toy's own table, driven with the same bots, scores the same hands.
    table = toy.new_match(seed, players=players, options={"hands": hands})
    twins = [ToyBot("random", s) for s in range(players)]
    scored = []
    while True:
        while table.turn is not None:
            seat = table.turn
            table.apply(twins[seat].act(table.bot_view(seat)), seat)
        scored.append(table.outcome()["points"])
        if table.is_over:
            break
        table.next_hand()
    assert match.points == scored
    assert [sum(p) for p in match.points] == [3] * hands    # 2 + 1 + 0 each hand


def _bots_only(seed: int, hands: int) -> tuple[list[tuple[int, dict[str, Any]]], list[int]]:
    """The actions and final totals of a toy match with "low" bots at every seat, seeded
    as the session seeds its bots."""
    table = toy_game.SPEC.new_match(seed, players=3, options={"hands": hands})
    bots = [ToyBot("low", table_bot_seed(seed, s)) for s in range(3)]
    actions = []
    while True:
        while table.turn is not None:
            seat = table.turn
            action = bots[seat].act(table.bot_view(seat))
            actions.append((seat, action))
            table.apply(action, seat)
        if table.is_over:
            return actions, table.totals()
        table.next_hand()


def _session(stdin: str = "", **kwargs: Any) -> tuple[TableSession, io.StringIO]:
    out = io.StringIO()
    return TableSession("toy", Terminal(stdin=io.StringIO(stdin), stdout=out), **kwargs), out


def test_the_session_seats_bots_at_every_seat(toy) -> None:
    session, out = _session(seat=None, levels=("low",), seed=5, players=3,
                            options={"hands": 2})
    assert session.run() == 0
    text = out.getvalue()
    assert text.count("Hand over") == 2 and "Thanks for playing." in text
    assert session.state.is_over
    assert session.state.outcome()["totals"] == _bots_only(5, 2)[1]


def test_the_session_replays_a_recorded_toy_match(toy) -> None:
    actions, totals = _bots_only(6, 2)
    session, out = _session(recorded=actions, seed=6, players=3, options={"hands": 2})
    assert session.run() == 0
    assert session.state.outcome()["totals"] == totals
    assert out.getvalue().count("Hand over") == 2
    # A record that stops half-way stops the replay there, with nothing shown twice.
    short, out = _session(recorded=actions[:5], seed=6, players=3, options={"hands": 2})
    assert short.run() == 0 and "Hand over" not in out.getvalue()
    assert short.state.turn is not None


def test_a_record_with_another_seat_acting_is_refused(toy) -> None:
    actions, _ = _bots_only(6, 1)
    seat, action = actions[0]
    session, _ = _session(recorded=[((seat + 1) % 3, action)], seed=6, players=3)
    with pytest.raises(IllegalActionError, match="NOT_YOUR_TURN"):
        session.run()


def test_a_person_plays_the_toy_by_typing(toy) -> None:
    # A bad play first (refused with the toy's reason, nothing changed), the list, then
    # the first legal action every turn.
    session, out = _session("9 9 9\nm\n" + "#1\n" * 60, seat=0, levels=("low",), seed=2,
                            players=2)
    assert session.run() == 0
    text = out.getvalue()
    assert "x INVALID_CARDS: a play is one card or a pair" in text
    assert "#1 " in text and "Hand over" in text and session.state.is_over


def test_quitting_and_the_end_of_input_leave_the_session(toy) -> None:
    session, out = _session("q\n", seat=1, levels=("random",), seed=1, players=2)
    assert session.run() == 0 and not session.state.is_over
    session, out = _session("", seat=1, levels=("random",), seed=1, players=2)
    assert session.run() == 0 and "Thanks for playing." in out.getvalue()


def test_play_game_toy_in_the_cli(toy, monkeypatch: pytest.MonkeyPatch,
                                  capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("#1\n" * 60))
    assert main(["play", "--game", "toy", "--players", "2", "--bots", "low", "--seed", "3"]) == 0
    assert "Hand over" in capsys.readouterr().out
    assert main(["play", "--game", "toy", "--save", "x.json"]) == 2
    assert "--save is not an option of play --game toy" in capsys.readouterr().err
