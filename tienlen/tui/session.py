"""The terminal session, written once: hand after hand of a match, one actor per seat.

An actor is who plays a seat: the person at the keyboard (:class:`Human`), a bot
(:class:`BotActor`) or the actions of a saved match, for a replay (:class:`Recorded`).
:class:`Session` runs the match: it announces each hand, asks the actor of the seat to act
until the hand is over, shows the hand's end, and deals the next until the match is over
or the person stops (``q``, the end of input; Ctrl-C propagates). It returns the exit
status: 1 if a replay that was asked for could not be saved.

A game's screen subclasses it and keeps only its own board and words: Tiến Lên's
(:class:`tienlen.tui.play.PlaySession`), Guandan's (:class:`tienlen.tui.guandan_play.GuandanSession`
and its replay). :class:`TableSession` plays any game of the table registry
(:func:`tienlen.table.get_spec`) through the table protocol alone, with plain text for a
board: a game with no screen of its own (such as the tests' toy climbing game) is played
and replayed in the terminal with no change here.

>>> from tienlen.tui.terminal import Terminal
>>> import io
>>> out = io.StringIO()
>>> session = TableSession("tienlen", Terminal(stdin=io.StringIO(""), stdout=out), seat=None,
...                        seed=3, players=2, options={"hands": 1})
>>> session.run(), "places" in out.getvalue()
(0, True)
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any, Protocol

from rich.text import Text

from ..seeds import table_bot_seed
from ..table import IllegalActionError, get_spec
from ..table.spec import GameSpec, TableBot, TableState
from .terminal import Terminal

__all__ = ["Actor", "BotActor", "Human", "Quit", "Recorded", "Recording", "Session",
           "TableSession"]


class Quit(Exception):
    """The person chose to leave."""


class Actor(Protocol):
    """Who plays a seat."""

    def take_turn(self, session: Session, seat: int) -> bool:
        """Act for ``seat``; False when there is nothing to act with (a recording that
        ends before the hand does): the session stops."""


class Human:
    """The person at the keyboard."""

    def take_turn(self, session: Session, seat: int) -> bool:
        session.human_turn(seat)
        return True


class BotActor:
    """A bot: the game's own bot object, asked by the session's game."""

    def __init__(self, bot: object) -> None:
        self.bot = bot

    def take_turn(self, session: Session, seat: int) -> bool:
        session.bot_turn(seat, self.bot)
        return True


class Recording:
    """The actions of a saved match, in order, shared by the seats' :class:`Recorded`
    actors."""

    def __init__(self, actions: Iterable[object]) -> None:
        self._actions: Iterator[object] = iter(actions)

    def next(self) -> object | None:
        """The next recorded action, None once they are all played."""
        return next(self._actions, None)


class Recorded:
    """A seat replayed from a :class:`Recording` (the record was verified when loaded)."""

    def __init__(self, recording: Recording) -> None:
        self.recording = recording

    def take_turn(self, session: Session, seat: int) -> bool:
        action = self.recording.next()
        if action is None:
            return False        # the match was saved before this hand ended
        session.recorded_turn(seat, action)
        return True


class Session:
    """A match in the terminal (see the module's docstring). A subclass sets
    :attr:`actors`, :attr:`term` and :attr:`save_failed` and implements the hooks."""

    term: Terminal
    actors: dict[int, Actor]
    save_failed: bool = False

    def run(self) -> int:
        """Play hands until the match is over or the person stops; the exit status (0, or
        1 if a replay could not be saved). Ctrl-C runs :meth:`_interrupted`, then
        propagates."""
        try:
            while True:
                self._announce_hand()
                if not self._play_hand():
                    break
                self._finish_hand()
                if self._match_over() or not self._next_hand():
                    break
        except Quit:
            pass
        except EOFError:
            self._end_of_input()
        except KeyboardInterrupt:
            self._interrupted()
            raise
        self._close()
        self._farewell()
        return 1 if self.save_failed else 0

    def _play_hand(self) -> bool:
        """Play the current hand to its end, each seat by its actor; False if it cannot be
        finished (a recording that stops early)."""
        while not self._hand_over():
            seat = self._turn()
            assert seat is not None  # someone acts until the hand is over
            if not self.actors[seat].take_turn(self, seat):
                return False
        return True

    # ---------------------------------------------------------------- the game's hooks

    @abstractmethod
    def _hand_over(self) -> bool:
        """Whether the hand being played is over."""

    @abstractmethod
    def _turn(self) -> int | None:
        """The seat to act in the hand being played."""

    @abstractmethod
    def _announce_hand(self) -> None:
        """A new hand is on the table: say so."""

    @abstractmethod
    def _finish_hand(self) -> None:
        """The hand is over: show how it ended (and save it, when asked to)."""

    def _match_over(self) -> bool:
        """Whether the match ended with the hand just finished."""
        return False

    @abstractmethod
    def _next_hand(self) -> bool:
        """Whether to play on; deal the next hand if the game waits to be asked."""

    def human_turn(self, seat: int) -> None:
        """The person's turn: read commands until one acts."""
        raise NotImplementedError(f"{type(self).__name__} seats no person")

    def bot_turn(self, seat: int, bot: object) -> None:
        """Ask ``bot`` for ``seat``'s action and take it."""
        raise NotImplementedError(f"{type(self).__name__} seats no bot")

    def recorded_turn(self, seat: int, action: object) -> None:
        """Take a recorded action for ``seat``."""
        raise NotImplementedError(f"{type(self).__name__} replays nothing")

    def _end_of_input(self) -> None:
        """The input ended at a prompt."""

    def _interrupted(self) -> None:
        """Ctrl-C: save what can be saved (the interrupt then propagates)."""

    def _close(self) -> None:
        """The session ends normally (the person stopped, or the match is over)."""

    def _farewell(self) -> None:
        """The last words."""


# ------------------------------------------------------------------ any registered game


def _cards_text(cards: Sequence[str]) -> str:
    return " ".join(cards)


def _action_text(action: Mapping[str, Any]) -> str:
    kind = action.get("kind")
    if kind == "pass":
        return "pass"
    if kind == "play":
        return f"play {_cards_text(action.get('cards', []))}"
    return f"{str(kind).replace('_', ' ')} {action.get('card', '')}".strip()


class TableSession(Session):
    """Any game of the table registry in the terminal, through the table protocol only:
    the person at ``seat`` (None: bots at every seat, to watch), bots of ``levels`` (one
    for all, or one per other seat) at the others, or, with ``recorded``, every seat
    replayed from ``(seat, action)`` pairs. The board is plain text from the seat's view
    (its hand, the table, the hand sizes, the last actions); the person types the cards of
    a play, ``#N`` for the N-th legal action (``m`` lists them), ``p`` to pass, ``q`` to
    leave."""

    def __init__(self, game: str | GameSpec, terminal: Terminal, *, seat: int | None = 0,
                 levels: Sequence[str] = (), seed: int = 0, players: int | None = None,
                 options: Mapping[str, Any] | None = None,
                 recorded: Iterable[tuple[int, Mapping[str, Any]]] | None = None) -> None:
        spec = get_spec(game) if isinstance(game, str) else game
        self.spec = spec
        self.term = terminal
        self.state: TableState = spec.new_match(seed, players=players, options=options)
        self.you = None if recorded is not None else seat
        count = self.state.players
        if self.you is not None and (type(self.you) is not int or not 0 <= self.you < count):
            raise ValueError(f"--seat must be 0..{count - 1}; got {seat!r}")
        others = [s for s in range(count) if s != self.you]
        chosen = list(levels) or [spec.hint_level]
        if len(chosen) == 1:
            chosen *= len(others)
        if recorded is None and len(chosen) != len(others):
            raise ValueError(f"--bots: give one level for all, or one for each of the "
                             f"{len(others)} bot seats; got {len(chosen)}")
        self.actors: dict[int, Actor] = {}
        self.names: list[str] = []
        recording = Recording(recorded) if recorded is not None else None
        bots = iter(chosen)
        for s in range(count):
            if recording is not None:
                self.actors[s] = Recorded(recording)
                self.names.append(f"seat {s}")
            elif s == self.you:
                self.actors[s] = Human()
                self.names.append("You")
            else:
                bot: TableBot = spec.make_bot(next(bots), table_bot_seed(seed, s))
                self.actors[s] = BotActor(bot)
                self.names.append(f"{bot.name} ({s})")
        self.save_failed = False

    # ---------------------------------------------------------------- the hooks

    def _hand_over(self) -> bool:
        return self.state.turn is None

    def _turn(self) -> int | None:
        return self.state.turn

    def _announce_hand(self) -> None:
        self.term.print(Text(f"{self.spec.name}: hand {self.state.hand_number}", style="bold"))

    def _finish_hand(self) -> None:
        outcome = self.state.outcome() or {}
        self.term.print(Text(f"Hand over: places {outcome.get('places')}, points "
                             f"{outcome.get('points')}, totals {outcome.get('totals')}",
                             style="bold"))

    def _match_over(self) -> bool:
        return self.state.is_over

    def _next_hand(self) -> bool:
        if self.you is not None and self.term.ask("Enter deals the next hand (q stops)> "
                                                  ).strip().lower() in ("q", "quit"):
            return False
        self.state.next_hand()
        return True

    def _farewell(self) -> None:
        self.term.print(Text("Thanks for playing.", style="dim"))

    # ---------------------------------------------------------------- acts

    def _apply(self, seat: int, action: Mapping[str, Any]) -> None:
        record = self.state.apply(action, seat)
        self.term.print(f"{self.names[seat]}: {_action_text(record)}")

    def bot_turn(self, seat: int, bot: object) -> None:
        assert hasattr(bot, "act")
        self._apply(seat, bot.act(self.state.bot_view(seat)))

    def recorded_turn(self, seat: int, action: object) -> None:
        assert isinstance(action, tuple) and len(action) == 2
        recorded_seat, recorded_action = action
        if recorded_seat != seat:
            raise IllegalActionError("NOT_YOUR_TURN", f"the record has seat {recorded_seat} "
                                     f"act when it is seat {seat}'s turn")
        self._apply(recorded_seat, recorded_action)

    def _board(self, seat: int) -> str:
        view = self.state.view(seat)
        pile = view.get("pile")
        lines = [f"hand {view.get('hand_number')} · your cards: "
                 f"{_cards_text(view.get('hand', []))}",
                 f"table: {_action_text(pile) + ' by ' + self.names[pile['seat']] if pile else 'empty (you lead)'}",
                 "cards left: " + ", ".join(f"{self.names[s]} {n}"
                                            for s, n in enumerate(view.get("hand_sizes", [])))]
        return "\n".join(lines)

    def _listing(self) -> str:
        actions = self.state.legal_actions()
        return "  ".join(f"#{i} {_action_text(a)}" for i, a in enumerate(actions, start=1))

    def human_turn(self, seat: int) -> None:
        self.term.print(self._board(seat))
        while True:
            line = self.term.ask("Your move> ").strip()
            low = line.lower()
            try:
                if low in ("q", "quit", "exit"):
                    raise Quit
                if low in ("?", "help", "m", "moves"):
                    self.term.print(self._listing())
                    continue
                action: Mapping[str, Any]
                if low in ("p", "pass"):
                    action = {"kind": "pass"}
                elif low.startswith("#") and low[1:].isascii() and low[1:].isdigit():
                    actions = self.state.legal_actions()
                    number = int(low[1:])
                    if not 1 <= number <= len(actions):
                        raise IllegalActionError("NO_SUCH_ACTION", f"there is no #{number} "
                                                 f"(m lists the {len(actions)} legal actions)")
                    action = actions[number - 1]
                elif not line:
                    continue
                else:
                    action = {"kind": "play", "cards": line.replace(",", " ").split()}
                self._apply(seat, action)
                return
            except IllegalActionError as error:
                self.term.print(Text(f"x {error.reason_code}: {error.message}", style="bold red"))
