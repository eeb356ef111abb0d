"""The plain-text board: any game of the table registry on the one terminal session, through
the table protocol alone (:class:`tienlen.table.TableState`, action dicts, the seat's view
as data). A game whose spec has no board of its own, such as the tests' toy climbing
game, is played and replayed on it with no change here.

The board is a few lines from the seat's view (its hand, the table, the cards left), the
action log under it; the person types the cards of a play, ``#N`` for the N-th legal
action (``m`` lists them, passing included), ``p`` to pass, ``q`` to leave.

>>> from tienlen.table import get_spec
>>> board = TableBoard(get_spec("tienlen"), seat=0, levels=("L1",), seed=3, players=2)
>>> board.you, board.players, [line.plain for line in board.start_hand()]
(0, 2, ['tienlen: hand 1'])
>>> board.refusal(ValueError("no such card"))
'no such card'
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from typing import Any

from rich.console import Group, RenderableType
from rich.text import Text

from ..seeds import table_bot_seed
from ..table import IllegalActionError
from ..table.board import CommandKind, Moment, Saved, Style, Suggestion, TableWords
from ..table.spec import GameSpec, TableBot, TableState

__all__ = ["TableBoard", "WORDS"]

#: The plain board's words (English).
WORDS = TableWords(
    lang="en", prompt_move="Your move> ", quit_confirm="The hand is not over. Quit anyway?",
    eof="End of input: leaving the game.", thanks="Thanks for playing.",
    declined="Not played: type your own move.",
    no_to_decline="there is no suggestion to decline: type cards, or h for a hint",
    no_suggestion="there is no suggestion to accept: type h for a hint first",
    hints_off="hints are off for this game (--no-hints)",
    no_play="there is no legal action: pass (p)",
    no_move="there is no #{n}: the legal actions are numbered 1-{count} (m lists them)",
    no_move_one="there is no #{n}: there is one legal action, #1 (m lists it)",
    bad_pick="{text!r}: after # give the number of an action from the list (m shows it)",
    pick_shown="#{n} is {action}. Type y to take it, n not to, or m to see the list.",
    no_actions="No legal action.", moves_more="... and {n} more (#N takes any of them)",
    or_pass="or p to pass", help_title="Commands", help_headers=("type", "to"),
    help_rows=(("cards", "play these cards (names as the table shows them)"),
               ("p, pass", "pass"), ("h, hint", "suggest an action; y takes it, n declines it"),
               ("m, moves", "list the legal actions, numbered"), ("#N", "take action N"),
               ("?, help", "this help"), ("q, quit", "leave the game")),
    saved="Saved to {path}", save_failed="could not save to {path}: {error}",
    next_hand="Enter deals the next hand (q stops)> ",
    replay_stops="The record stops before the end of the hand.",
    step="Enter: next, q: stop ")


def _cards_text(cards: Sequence[str]) -> str:
    return " ".join(cards)


def _action_text(action: Mapping[str, Any]) -> str:
    kind = action.get("kind")
    if kind == "pass":
        return "pass"
    if kind == "play":
        return f"play {_cards_text(action.get('cards', []))}"
    return f"{str(kind).replace('_', ' ')} {action.get('card', '')}".strip()


class TableBoard:
    """A match of ``spec`` on the plain-text board: the person at ``seat`` (None: nobody
    types), bots of ``levels`` (one for all, or one per other seat, the spec's hint level
    by default) at the others, or, with ``recorded``, the ``(seat, action)`` pairs of a
    saved match to replay (see :class:`tienlen.table.board.Board`)."""

    style = Style(ascii=True)
    words = WORDS
    log_lines = 6
    confirm_pick = False
    soft_wrap = False
    commands: Mapping[str, CommandKind] = {}

    def __init__(self, spec: GameSpec, *, seat: int | None = 0, levels: Sequence[str] = (),
                 seed: int = 0, players: int | None = None,
                 options: Mapping[str, Any] | None = None,
                 recorded: Iterable[tuple[int, Mapping[str, Any]]] | None = None) -> None:
        self.spec = spec
        self.state: TableState = spec.new_match(seed, players=players, options=options)
        count = self.state.players
        self.players = count
        self.you = None if recorded is not None else seat
        if self.you is not None and (type(self.you) is not int or not 0 <= self.you < count):
            raise ValueError(f"--seat must be 0..{count - 1}; got {seat!r}")
        others = [s for s in range(count) if s != self.you]
        chosen = list(levels) or [spec.hint_level]
        if len(chosen) == 1:
            chosen *= len(others)
        if recorded is None and len(chosen) != len(others):
            raise ValueError(f"--bots: give one level for all, or one for each of the "
                             f"{len(others)} bot seats; got {len(chosen)}")
        self._recorded = list(recorded) if recorded is not None else []
        self.bots: dict[int, TableBot] = {}
        self.names: list[str] = []
        levels_left = iter(chosen)
        for s in range(count):
            if recorded is not None:
                self.names.append(f"seat {s}")
            elif s == self.you:
                self.names.append("You")
            else:
                bot = spec.make_bot(next(levels_left), table_bot_seed(seed, s))
                self.bots[s] = bot
                self.names.append(f"{bot.name} ({s})")
        self._seed = seed

    # ------------------------------------------------------------------ the match

    def turn(self) -> int | None:
        return self.state.turn

    def hand_over(self) -> bool:
        return self.state.turn is None

    def match_over(self) -> bool:
        return self.state.is_over

    def start_hand(self) -> Sequence[Text]:
        return [Text(f"{self.spec.name}: hand {self.state.hand_number}", style="bold")]

    def deal_next(self) -> None:
        self.state.next_hand()

    def hand_end(self) -> Sequence[RenderableType]:
        outcome = self.state.outcome() or {}
        return [Text(f"Hand over: places {outcome.get('places')}, points "
                     f"{outcome.get('points')}, totals {outcome.get('totals')}", style="bold")]

    def record(self) -> Iterable[object]:
        return iter(self._recorded)

    # ------------------------------------------------------------------ acts

    def bot_action(self, seat: int) -> object:
        return self.bots[seat].act(self.state.bot_view(seat))

    def apply(self, seat: int, action: object) -> Sequence[Text]:
        if isinstance(action, tuple):            # a recorded (seat, action) pair
            recorded_seat, action = action
            if recorded_seat != seat:
                raise IllegalActionError("NOT_YOUR_TURN", f"the record has seat "
                                         f"{recorded_seat} act when it is seat {seat}'s turn")
        assert isinstance(action, Mapping)
        record = self.state.apply(action, seat)
        return [Text(f"{self.names[seat]}: {_action_text(record)}")]

    def pass_action(self) -> object:
        return {"kind": "pass"}

    def can_pass(self, seat: int) -> bool:
        return seat == self.state.turn and {"kind": "pass"} in self.state.legal_actions()

    def actions(self, seat: int) -> Sequence[object]:
        # Every legal action, passing included, as the table lists them.
        return self.state.legal_actions() if seat == self.state.turn else []

    def parse(self, text: str, seat: int) -> object:
        return {"kind": "play", "cards": text.replace(",", " ").split()}

    def hint(self, seat: int) -> Suggestion:
        level = self.spec.hint_level
        bot = self.spec.make_bot(level, table_bot_seed(self._seed, seat))
        action, reason = bot.explain(self.state.bot_view(seat))
        return Suggestion(action, (Text(f"Hint: {_action_text(action)} - {reason}"),))

    def tip(self, seat: int) -> Suggestion:
        return self.hint(seat)

    def seat_view(self, seat: int) -> object:
        """``seat``'s own view, the game's object (the card tracker's)."""
        return self.state.bot_view(seat)

    def review_source(self) -> object:
        """The table whose finished hand is reviewed (the spec's ``read_record``)."""
        return self.state

    def save(self, moment: Moment) -> Saved | None:
        return None

    # ------------------------------------------------------------------ drawing

    def screen(self, *, events: Sequence[Text], footer: RenderableType | None,
               marked: Collection[int], width: int, transcript: bool,
               reveal: bool) -> RenderableType:
        seat = self.you if self.you is not None else (self.state.turn or 0)
        view = self.state.view(seat)
        pile = view.get("pile")
        table = (f"{_action_text(pile)} by {self.names[pile['seat']]}" if pile
                 else "empty (you lead)")
        lines: list[RenderableType] = [
            Text(f"hand {view.get('hand_number')} - your cards: "
                 f"{_cards_text(view.get('hand', []))}"),
            Text(f"table: {table}"),
            Text("cards left: " + ", ".join(f"{self.names[s]} {n}"
                                            for s, n in enumerate(view.get("hand_sizes", []))))]
        lines.extend(events)
        if footer is not None:
            lines.append(footer)
        return Group(*lines)

    def situation(self, seat: int) -> Text:
        return Text("Your turn: type cards, p to pass, m for the list, ? for help.", style="dim")

    def prompt(self, seat: int) -> str:
        return self.words.prompt_move

    def empty_line(self, seat: int) -> str:
        return "Type cards, #N from the list (m), or p to pass."

    def listing_title(self, seat: int, count: int) -> str:
        return f"{count} legal action{'s' if count != 1 else ''} (type #N to take one):"

    def action_text(self, action: object) -> Text:
        assert isinstance(action, Mapping)
        return Text(_action_text(action))

    def refusal(self, error: ValueError) -> str:
        if isinstance(error, IllegalActionError):
            return f"{error.reason_code}: {error.message}"
        return str(error)
