"""tienlen.solve, `tienlen solve`, and the solver inside L3 and its hints."""

from __future__ import annotations

import random

import pytest

import reference as ref
import reference_solver as rs
from reference_game import RefGame
from tienlen import PASS, Cards, Game, Rules, Solution, SolveError, Value, View, hint, solve
from tienlen import _core
from tienlen.games.tienlen.bots import SearchBot
from tienlen.cli import main

DECK = (1 << 52) - 1


def test_solve_value_and_line_replay_through_game() -> None:
    # Random small games from fixed hands: the line replays through tienlen.Game (the
    # checked path), ends with a player going out, and that player is the seat exactly
    # when the value is WIN; the value matches the brute-force reference.
    rng = random.Random(3)
    checked = 0
    for _ in range(150):
        players = rng.randint(2, 4)
        cards = rng.sample(range(16, 52), players * rng.randint(1, 4))
        size = len(cards) // players
        hands = [sum(1 << c for c in cards[p * size:(p + 1) * size]) for p in range(players)]
        leader = rng.randrange(players)
        twos = rng.random() < 0.5
        rules = Rules(twos_in_sequences=twos)
        game = Game.from_hands([Cards(h) for h in hands], rules=rules, leader=leader)
        seat = rng.randrange(players)
        result = solve(game, seat)
        assert isinstance(result, Solution) and result.proven
        expected = rs.wins(RefGame(hands, leader, twos), seat)
        assert result.value is (Value.WIN if expected else Value.LOSS)
        assert result.seat == seat and result.to_act == leader
        replay = Game.from_hands([Cards(h) for h in hands], rules=rules, leader=leader)
        for move, mover in zip(result.line, result.movers):
            assert replay.turn == mover
            replay.act(move)
        out = replay.finished[0]
        assert (out == seat) == expected
        assert game.hands == tuple(Cards(h) for h in hands), "solve changed the game"
        checked += 1
    assert checked == 150


def test_solve_docstring_example_by_hand() -> None:
    # 3♠ 2♥ against 2♦, seat 0 leading: 2♥ cannot be beaten, so it holds the lead and the
    # 3♠ goes out; leading the 3♠ first would let 2♦ win the lead and go out.
    game = Game.from_hands(["3s 2h", "2d"], leader=0)
    result = solve(game)
    assert result.value is Value.WIN
    assert result.line == (Cards.parse("2h"), PASS, Cards.parse("3s"))
    assert result.winning_moves() == (Cards.parse("2h"), Cards.parse("3s"))
    assert str(result) == "seat 0 wins by force: 2♥, then pass, 3♠"
    assert solve(game, 1).value is Value.LOSS


def test_solve_unknown_on_limits() -> None:
    game = Game(2, seed=4)
    result = solve(game, max_nodes=10)
    assert result.value is Value.UNKNOWN and result.limit == "nodes" and result.line == ()
    assert result.move is None and not result.proven


@pytest.mark.parametrize("kwargs", [dict(seat=5), dict(seat=-1), dict(seat="0"),
                                    dict(max_nodes=-1), dict(max_ms=1.5)])
def test_solve_bad_arguments(kwargs: dict) -> None:
    with pytest.raises(SolveError):
        solve(Game(4, seed=1), **kwargs)


def test_solve_refuses_views_and_other_objects() -> None:
    game = Game(4, seed=1)
    with pytest.raises(SolveError, match="View hides"):
        solve(game.view(0))  # type: ignore[arg-type]
    with pytest.raises(SolveError):
        solve("a game")  # type: ignore[arg-type]
    assert issubclass(SolveError, ValueError)


def test_solve_refuses_a_finished_seat_and_an_over_hand() -> None:
    game = Game.from_hands(["3s", "4s 5s", "9h 9d"], leader=0)
    game.play("3s")
    with pytest.raises(SolveError, match="no cards"):
        solve(game, 0)
    over = Game.from_hands(["3s", "4s"], leader=0)
    over.play("3s")
    with pytest.raises(SolveError, match="over"):
        solve(over)


def test_cli_solve_prints_the_winning_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", "--hands", "3s 2h", "2d", "--ascii"]) == 0
    out = capsys.readouterr().out
    assert "seat 0 wins by force" in out
    assert out.splitlines()[-3:] == ["  seat 0: 2h", "  seat 1: pass", "  seat 0: 3s  (out first)"]


def test_cli_solve_with_pile_and_turn(capsys: pytest.CaptureFixture[str]) -> None:
    # Seat 1 must answer 8♣ with 6♦ 7♦ 8♦ 2♦ in hand against 3♠ 4♠ 5♠ 9♥ 2♥: its only beat,
    # 2♦, is topped by 2♥, and seat 0 then leads 9♥ and its run. Seat 1 loses either way.
    assert main(["solve", "--hands", "3s 4s 5s 9h 2h", "6d 7d 8d 2d", "--pile", "8c",
                 "--turn", "1", "--ascii"]) == 0
    out = capsys.readouterr().out
    assert "seat 1 loses by force" in out and "pile: 8c (seat 0)" in out


@pytest.mark.parametrize("argv, reason", [
    (["--hands", "3s"], "give 2, 3 or 4 hands"),
    (["--hands", "3s", "3s"], "shares cards"),
    (["--hands", "3s", "4s", "--turn", "2"], "--turn"),
    (["--hands", "3s", "4s", "--pile", "5s 7s"], "not a combination"),
    (["--hands", "3s", "4s", "--pile", "3s"], "shares cards"),
    (["--hands", "3s", "4x"], "--hands[1]"),
    (["--hands", "3s", "4s", "--owner", "1"], "--owner needs --pile"),
])
def test_cli_solve_bad_input(argv: list[str], reason: str,
                             capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", *argv]) == 2
    assert reason in capsys.readouterr().err


def _known_view(mine: str, theirs: str) -> View:
    """Seat 0's view of a two-player ending where every other card has been played, so the
    view pins down the opponent's hand."""
    hand, other = Cards.parse(mine), Cards.parse(theirs)
    played = Cards(DECK & ~hand.mask & ~other.mask)
    return View(seat=0, players=2, rules=Rules(), hand=hand, card_counts=(len(hand), len(other)),
                played=played, pile=None, pile_owner=None, turn=0, locked_seats=frozenset(),
                finished=(), must_include=None, history=())


def test_search_bot_plays_the_forced_win() -> None:
    # 3♠ 9♠ 9♥ 2♥ against 4♦ 5♦ K♦: the pair of 9s cannot be answered, then 2♥ holds the
    # lead and the 3♠ goes out. Leading 3♠ or 2♥ first loses the lead or the tempo.
    view = _known_view("3s 9s 9h 2h", "4d 5d Kd")
    bot = SearchBot(seed=1, iterations=50)
    forced = bot.forced_win(view)
    assert forced is not None and forced.value is Value.WIN
    assert bot.choose(view) == forced.move == Cards.parse("9s 9h")
    assert SearchBot(seed=1, iterations=50, solver=False).forced_win(view) is not None
    assert SearchBot(solver=False).name == "L3(solver=off)"


def test_search_bot_no_forced_win_when_losing_or_hidden() -> None:
    # 3♠ 5♠ against 2♥ 2♦: whatever seat 0 leads, a 2 takes the lead and goes out.
    assert SearchBot(seed=1, iterations=20).forced_win(_known_view("3s 5s", "2h 2d")) is None
    # A real four-player deal hides three hands: nothing to solve exactly.
    game = Game(4, seed=2)
    assert SearchBot(seed=1, iterations=20).forced_win(game.view(game.turn)) is None


def test_hint_says_wins_by_force() -> None:
    h = hint(_known_view("3s 9s 9h 2h", "4d 5d Kd"))
    assert h.move == Cards.parse("9s 9h")
    assert "wins by force: 9♠ 9♥, then 2♥, then 3♠" in str(h)
    assert h.average_place == 1.0


def test_core_line_checked_with_apply_checked() -> None:
    # The same line check on the core state directly: every action passes apply_checked.
    rng = random.Random(9)
    for _ in range(100):
        hands = _core.deal(rng.randrange(1 << 30), 4)
        small = [h & ((1 << 52) - 1) for h in hands]
        small = [sum(1 << c for c in ref.cards_of(h)[:4]) for h in small]
        state = _core.GameState(small, leader=rng.randrange(4))
        value, line, _, _ = _core.solve(state)
        copy = state.copy()
        for action in line:
            mover = copy.turn
            copy.apply_checked(action)
        assert copy.hand(mover) == 0
        assert (mover == state.turn) == (value == _core.SOLVE_WIN)
