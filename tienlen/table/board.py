"""What a game gives the one terminal session (:mod:`tienlen.tui.session`), and the drawing
primitives its board is made of. It sits below the games, so that a game's board imports
no service: a game draws its own views with :class:`Style`, :func:`numbered_grid` and
:data:`BOARD_WIDTH`, reads typed text with :func:`input_tokens` and
:func:`check_card_number`, words everything in its own :class:`TableWords` subclass, and
answers the session through the :class:`Board` protocol. A spec with a board of its own
says so with :class:`BoardSpec`'s methods; any other game is played on a plain-text board
made from the table protocol alone (:mod:`tienlen.tui.plain`).

Everything here is the game's to decide and the session's to ask: the session never
knows which game it plays, and a board never knows how the terminal loops.

>>> Style(ascii=True).words("A♠ ☆ — Tiến Lên"), input_tokens(" 3s, 10 ²  ")
('As SJ - Tien Len', ['3s', 10, '²'])
>>> check_card_number(7, 4)
Traceback (most recent call last):
...
ValueError: there is no card 7: your hand has 4 cards, numbered 1-4
"""

from __future__ import annotations

import warnings
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, Protocol

from .errors import IllegalActionError

if TYPE_CHECKING:   # rich loads only when something is drawn: a spec's words load none of it
    from rich import box
    from rich.console import RenderableType
    from rich.table import Table
    from rich.text import Text

__all__ = ["BOARD_WIDTH", "Board", "BoardSpec", "CommandKind", "CommandRefusal", "Moment", "PlaySettings",
           "ReplaySettings", "Saved", "Style", "Suggestion", "TableWords", "check_card_number",
           "fill", "help_table", "input_tokens", "is_number", "numbered", "numbered_grid"]

#: Columns of a board panel: fits an 80-column terminal.
BOARD_WIDTH = 72

# Card symbols left in plain text (a legend such as "♠ ♣ ♦ ♥", a reading such as "pair
# of ☆", or text typed by the player), with the emoji variation selector some keyboards add
# after a suit. Cards that a game's words name as fields are drawn by the game's board.
_ASCII_SUITS = str.maketrans({"♠": "s", "♣": "c", "♦": "d", "♥": "h", "\ufe0f": "",
                              "☆": "SJ", "★": "BJ"})
_ACCENTS = str.maketrans({"ế": "e", "ê": "e", "Ế": "E"})


@dataclass(frozen=True, slots=True)
class Style:
    """How to draw: ``ascii`` writes ``3s 10h SJ`` and ASCII boxes instead of ``3♠ 10♥ ☆``."""

    ascii: bool = False

    @property
    def box(self) -> box.Box:
        from rich import box

        return box.ASCII if self.ascii else box.ROUNDED

    @property
    def title(self) -> str:
        """Deprecated: the game's words name the game (``style.words(words.title)``)."""
        warnings.warn("Style.title is deprecated: use the game's words (style.words of "
                      "tienlen.games.tienlen.words.WORDS['en'].title)", DeprecationWarning,
                      stacklevel=2)
        return self.words("Tiến Lên")

    @property
    def arrow(self) -> str:
        return ">" if self.ascii else "▶"

    @property
    def dash(self) -> str:
        return "-" if self.ascii else "—"

    @property
    def cross(self) -> str:
        """The mark of a refusal."""
        return "x" if self.ascii else "✗"

    def words(self, text: str) -> str:
        """Plain ``text`` in the chosen form: in ASCII, suit symbols as letters, the jokers
        as ``SJ`` / ``BJ``, no accents or long dashes. Messages that name cards or seats
        as fields are drawn by the game's board, which renders each card itself."""
        if not self.ascii:
            return text
        return text.translate(_ASCII_SUITS).translate(_ACCENTS).replace("—", "-")


def numbered_grid(cells: Sequence[Text], *, indices: bool = True, per_row: int | None = None,
                  empty: str = "(no cards)", marked: Collection[int] = ()) -> Table:
    """Cards drawn as ``cells``, each over its 1-based number, ``per_row`` to a row (all in
    one row by default). Both games' hands are drawn with it; ``marked`` numbers are shown
    highlighted (cards a suggestion would play)."""
    from rich.table import Table
    from rich.text import Text

    grid = Table.grid(padding=(0, 1))
    width = len(cells) if per_row is None else min(per_row, len(cells))
    for _ in range(max(width, 1)):
        grid.add_column(justify="center", min_width=3)
    if not cells:
        grid.add_row(Text(empty, style="dim"))
        return grid
    for start in range(0, len(cells), width):
        chunk = cells[start:start + width]
        grid.add_row(*chunk)
        if indices:
            grid.add_row(*(Text(str(i), style="bold reverse" if i in marked else "dim")
                           for i in range(start + 1, start + len(chunk) + 1)))
    return grid


def help_table(style: Style, rows: Sequence[tuple[str, str]], *,
               title: str = "Commands", headers: tuple[str, str] = ("type", "to")) -> Table:
    """The commands, one row each (each game words its own)."""
    from rich.table import Table

    table = Table(title=title, box=style.box, title_justify="left", title_style="bold")
    table.add_column(headers[0])
    table.add_column(headers[1])
    for keys, what in rows:
        table.add_row(style.words(keys), what)
    return table


def fill(template: str, style: str = "", **fields: object) -> Text:
    """``template`` formatted with ``fields``, where a :class:`~rich.text.Text` field keeps
    its own styles (cards drawn by a board) inside text drawn in ``style``.

    >>> from rich.text import Text
    >>> fill("#{n} is {action}.", n="3", action=Text("3♠", style="red")).plain
    '#3 is 3♠.'
    """
    from rich.text import Text

    texts = [value for value in fields.values() if isinstance(value, Text)]  # in order
    names = [name for name, value in fields.items() if isinstance(value, Text)]
    plain = {name: value for name, value in fields.items() if not isinstance(value, Text)}
    # Each Text field becomes "\0<index>\0": after the split, the odd parts are indices.
    formatted = template.format(**plain, **{name: f"\0{i}\0" for i, name in enumerate(names)})
    out = Text()
    for i, part in enumerate(formatted.split("\0")):
        if i % 2:
            out.append_text(texts[int(part)])
        elif part:
            out.append(part, style=style)
    return out


# ------------------------------------------------------------------ reading typed text


def is_number(text: str) -> bool:
    """ASCII digits only: ``"²".isdigit()`` is true, yet ``int("²")`` fails."""
    return text.isascii() and text.isdigit()


def numbered(count: int, noun: str) -> str:
    """How the items of a numbered list are numbered, for an out-of-range number.

    >>> numbered(1, "card"), numbered(3, "move")
    ('your hand has one card, number 1', 'the moves are numbered 1-3')
    """
    if count == 1:
        return f"your hand has one {noun}, number 1" if noun == "card" else \
            f"there is one {noun}, #1"
    if noun == "card":
        return f"your hand has {count} cards, numbered 1-{count}"
    return f"the {noun}s are numbered 1-{count}"


def input_tokens(text: str) -> list[str | int]:
    """The words of a typed play (split at spaces and commas, as card text is): numbers as
    ints, the rest (card names) as text."""
    return [int(t) if is_number(t) else t for t in text.replace(",", " ").split()]


def check_card_number(number: int, count: int) -> int:
    """``number`` if it names one of ``count`` cards (1-based), else a ValueError saying how
    the hand is numbered."""
    if not 1 <= number <= count:
        raise ValueError(f"there is no card {number}: {numbered(count, 'card')}")
    return number


# ------------------------------------------------------------------ the plug-in


class CommandRefusal(IllegalActionError):
    """A command the terminal session refused (no suggestion to accept, ``#N`` out of
    range, hints off ...), its message already in the session's words: a board shows it as
    it is, where it words a game's refusal from its code.

    >>> error = CommandRefusal("STATE_CONFLICT", "there is no suggestion to accept")
    >>> isinstance(error, IllegalActionError), error.reason_code
    (True, 'STATE_CONFLICT')
    """



#: What a typed line asks the session to do. A board maps words of its own onto these
#: (:attr:`Board.commands`: Guandan's ``t`` / ``提示`` is ``tip``, ``过`` is ``pass``).
CommandKind = Literal["empty", "play", "pass", "hint", "tip", "yes", "no", "moves", "pick",
                      "help", "quit", "tracker"]
#: When the session asks a board for its file: a hand just ended, or the session ends
#: (the person left, the input ended, Ctrl-C, the match is over).
Moment = Literal["hand", "leave"]


@dataclass(frozen=True, kw_only=True, slots=True)
class TableWords:
    """The words the one terminal session says, in one language. A game's words module
    subclasses it with its board's own words and makes one per language. Templates with
    ``{name}`` are formatted with those names."""

    #: The language code (``"en"``, ``"zh"``).
    lang: str
    prompt_move: str
    quit_confirm: str
    eof: str
    thanks: str
    declined: str
    no_to_decline: str
    no_suggestion: str
    hints_off: str
    #: ``#N`` with no play to pick.
    no_play: str
    #: ``#N`` out of range: ``{n}`` and ``{count}``; ``no_move_one`` when there is one.
    no_move: str
    no_move_one: str
    #: ``#`` not followed by a number: ``{text}`` is what was typed.
    bad_pick: str
    #: ``#N`` shown before it is played: ``{n}`` and ``{action}``.
    pick_shown: str
    #: ``m`` with nothing to list.
    no_actions: str
    moves_more: str
    or_pass: str
    help_title: str
    help_headers: tuple[str, str]
    help_rows: tuple[tuple[str, str], ...]
    saved: str
    save_failed: str
    #: Between hands: Enter deals the next, q stops.
    next_hand: str
    #: A yes/no question asked between hands instead of :attr:`next_hand` (Enter: yes).
    another_hand: str | None = None
    replay_stops: str
    #: The prompt between two actions of a replay shown step by step.
    step: str
    #: A yes/no question answered otherwise: ``{keys}`` the answers it takes (``y, n or r``),
    #: the last two joined by :attr:`answer_or`.
    answer_again: str = "Please answer {keys}."
    answer_or: str = "or"


@dataclass(frozen=True, kw_only=True)
class PlaySettings:
    """What ``tienlen play`` asked for, checked by the game's command line module: the
    person's ``seat``, the bots' ``levels`` (one per other seat, in seat order), the match
    ``seed`` (None: a fresh one), the language, the style, hints on or off, where to save,
    no pauses (``fast``), L3's fixed ``iterations``, and the game's own ``options``
    (Tiến Lên's rules and players, Guandan's rule options ...)."""

    seat: int = 0
    levels: tuple[str, ...] = ()
    seed: int | None = None
    lang: str = "en"
    style: Style = Style()
    hints: bool = True
    save: Path | None = None
    fast: bool = False
    iterations: int | None = None
    options: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, kw_only=True)
class ReplaySettings:
    """What ``tienlen replay`` asked for: the language, the style, one action per Enter
    (``step``) or no pauses (``fast``)."""

    lang: str = "en"
    style: Style = Style()
    step: bool = False
    fast: bool = False


@dataclass(frozen=True)
class Suggestion:
    """A move shown to the person (a hint, a 提示, a ``#N`` shown first): ``action`` is
    what ``y`` takes (None: nothing), ``lines`` what the screen prints, ``marked`` the
    numbers of the hand's cards it plays, raised under the hand on a terminal."""

    action: object | None
    lines: tuple[RenderableType, ...]
    marked: tuple[int, ...] = ()


@dataclass(frozen=True)
class Saved:
    """A file the session writes for a board: ``text`` to ``path``, saying so if
    ``announce``."""

    path: Path
    text: str
    announce: bool = False


class Board(Protocol):
    """A game's match as the one terminal session plays and shows it: its board (drawing
    its views), its words and its parse, with its own commands as data (:attr:`commands`)
    and small hooks (:meth:`tip`, the tribute steps through :meth:`prompt`,
    :meth:`situation` and :meth:`parse`). Actions are the game's own objects: the session
    only hands back what :meth:`parse`, :meth:`actions`, :meth:`hint`, :meth:`bot_action`
    or :meth:`record` gave it. A refused action raises a ``ValueError`` (the game's
    refusal) and changes nothing."""

    @property
    def words(self) -> TableWords:
        """The words the session says, in the board's language."""

    @property
    def style(self) -> Style: ...

    @property
    def players(self) -> int: ...

    @property
    def you(self) -> int | None:
        """The person's seat; None when nobody types (a replay, bots only)."""

    @property
    def log_lines(self) -> int:
        """Action-log lines kept on the redrawn screen."""

    @property
    def confirm_pick(self) -> bool:
        """Whether ``#N`` is shown first (then ``y`` plays it) unless ``m`` listed the
        moves since the last action."""

    @property
    def soft_wrap(self) -> bool:
        """Whether a transcript prints the screen's lines unwrapped."""

    @property
    def commands(self) -> Mapping[str, CommandKind]:
        """Typed words of the game's own, and the command each one is."""

    # the match

    def turn(self) -> int | None:
        """The seat to act in the hand on screen (None once it is over)."""

    def hand_over(self) -> bool: ...

    def match_over(self) -> bool:
        """Whether the match ended with the hand just finished."""

    def start_hand(self) -> Sequence[Text]:
        """A hand is on the table: the lines that announce it."""

    def deal_next(self) -> None:
        """Deal the next hand, if the game waits to be asked."""

    def hand_end(self) -> Sequence[RenderableType]:
        """What is printed under the last screen of a finished hand."""

    def record(self) -> Iterable[object]:
        """A replay's actions, in order (verified when the board was made)."""

    # acts

    def bot_action(self, seat: int) -> object:
        """The action of ``seat``'s bot."""

    def apply(self, seat: int, action: object) -> Sequence[Text]:
        """Take ``action`` for ``seat``; the lines of the action log it makes."""

    def pass_action(self) -> object: ...

    def can_pass(self, seat: int) -> bool: ...

    def actions(self, seat: int) -> Sequence[object]:
        """``seat``'s legal actions but passing, in the order ``m`` numbers them."""

    def parse(self, text: str, seat: int) -> object:
        """The action ``text`` names (cards, or their numbers under the hand)."""

    def hint(self, seat: int) -> Suggestion:
        """The game's best move for ``seat``, and why."""

    def tip(self, seat: int) -> Suggestion:
        """The game's own suggestion command (Guandan's 提示 button)."""

    def save(self, moment: Moment) -> Saved | None:
        """The file to write at ``moment``, if any (``--save``)."""

    # drawing

    def screen(self, *, events: Sequence[Text], footer: RenderableType | None,
               marked: Collection[int], width: int, transcript: bool,
               reveal: bool) -> RenderableType:
        """The whole screen for this moment: ``events`` the log's latest lines,
        ``footer`` under it; a ``transcript`` (piped input) gets plain lines; ``reveal``
        at the end of a hand."""

    def situation(self, seat: int) -> Text:
        """The line above the prompt: what the person may do now."""

    def prompt(self, seat: int) -> str: ...

    def empty_line(self, seat: int) -> str:
        """What an empty line says when it does not pass."""

    def listing_title(self, seat: int, count: int) -> str: ...

    def action_text(self, action: object) -> Text:
        """An action of :meth:`actions` as the listing and ``#N`` show it."""

    def refusal(self, error: ValueError) -> str:
        """A refusal (the game's, the session's or the parse's) in the board's words."""


class BoardSpec(Protocol):
    """A game spec whose game has a terminal board of its own (besides
    :class:`tienlen.table.spec.GameSpec`): a spec without these methods is played on the
    plain-text board."""

    def board(self, settings: PlaySettings) -> Board:
        """A new match to play (a ``ValueError`` names a bad setting)."""

    def replay_board(self, path: Path, settings: ReplaySettings) -> Board:
        """A saved file, every action verified (a ``ValueError`` names the first bad
        part)."""

    def words(self, lang: str) -> TableWords:
        """The game's words in ``lang`` (English for a language it does not have): every
        front end reads them."""
