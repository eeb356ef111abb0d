"""What every game's terminal screen shares, and no game's rules: how to draw (:class:`Style`,
the board's width, a hand drawn over its numbers), how a typed line reads as a command
(:func:`parse_command`, :func:`input_tokens`, :func:`check_card_number`), the help table and
the pauses. It imports no game, so that Guandan's screen loads no Tiến Lên module.

>>> parse_command(" Pass "), parse_command("#3").number, parse_command("3s 4s").kind
(Command(kind='pass', text='', number=0), 3, 'play')
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import Literal

from rich import box
from rich.table import Table
from rich.text import Text

__all__ = ["BOARD_WIDTH", "BOT_PAUSE", "REPLAY_PAUSE", "Command", "CommandKind", "Style",
           "check_card_number", "help_table", "input_tokens", "numbered_grid", "parse_command"]

#: Seconds between two bot moves on an interactive terminal, so each can be read.
BOT_PAUSE = 0.6
#: Seconds between two actions of a replay on an interactive terminal.
REPLAY_PAUSE = 0.8

# Suit symbols left in plain text (a legend such as "♠ ♣ ♦ ♥", or text typed by the player),
# with the emoji variation selector some keyboards add after them. Cards that the engine or
# a hint names are fields of a Wording and drawn by card_text, never found in the text.
_ASCII_SUITS = str.maketrans({"♠": "s", "♣": "c", "♦": "d", "♥": "h", "\ufe0f": ""})
_ACCENTS = str.maketrans({"ế": "e", "ê": "e", "Ế": "E"})
#: Columns of the board panel: fits an 80-column terminal.
BOARD_WIDTH = 72


@dataclass(frozen=True, slots=True)
class Style:
    """How to draw: ``ascii`` writes ``3s 10h`` and ASCII boxes instead of ``3♠ 10♥``."""

    ascii: bool = False

    @property
    def box(self) -> box.Box:
        return box.ASCII if self.ascii else box.ROUNDED

    @property
    def title(self) -> str:
        return "Tien Len" if self.ascii else "Tiến Lên"

    @property
    def arrow(self) -> str:
        return ">" if self.ascii else "▶"

    @property
    def dash(self) -> str:
        return "-" if self.ascii else "—"

    def words(self, text: str) -> str:
        """Plain ``text`` in the chosen form: in ASCII, suit symbols as letters, no accents
        or long dashes. Messages that name cards or seats are Wordings: draw those with
        :func:`prose_text`, which renders each card itself."""
        if not self.ascii:
            return text
        return text.translate(_ASCII_SUITS).translate(_ACCENTS).replace("—", "-")


def numbered_grid(cells: Sequence[Text], *, indices: bool = True, per_row: int | None = None,
                  empty: str = "(no cards)", marked: Collection[int] = ()) -> Table:
    """Cards drawn as ``cells``, each over its 1-based number, ``per_row`` to a row (all in
    one row by default). Both games' hands are drawn with it; ``marked`` numbers are shown
    highlighted (cards a suggestion would play)."""
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


#: The kinds of command a typed line can be.
CommandKind = Literal["empty", "play", "pass", "hint", "yes", "no", "moves", "pick", "help",
                      "quit"]

_WORDS: dict[str, CommandKind] = {
    "p": "pass", "pass": "pass",
    "h": "hint", "hint": "hint",
    "y": "yes", "yes": "yes",
    "n": "no", "no": "no",           # declines a shown suggestion (no card is named n)
    "m": "moves", "moves": "moves",
    "?": "help", "help": "help",
    "q": "quit", "quit": "quit", "exit": "quit",
}


@dataclass(frozen=True, slots=True)
class Command:
    """One line typed at the prompt. ``text`` holds the cards of a play and ``number`` the
    move number of ``#N``."""

    kind: CommandKind
    text: str = ""
    number: int = 0


def parse_command(line: str) -> Command:
    """The command a line of input names; anything unknown is taken as cards to play.

    >>> parse_command(" Pass "), parse_command("#3").number, parse_command("3s 4s").kind
    (Command(kind='pass', text='', number=0), 3, 'play')
    >>> parse_command("#x")
    Traceback (most recent call last):
    ...
    ValueError: '#x': after # give the number of a move from the list (m shows it)
    >>> parse_command("#²")
    Traceback (most recent call last):
    ...
    ValueError: '#²': after # give the number of a move from the list (m shows it)
    """
    text = line.strip()
    if not text:
        return Command("empty")
    word = _WORDS.get(text.lower())
    if word is not None:
        return Command(word)
    if text.startswith("#"):
        digits = text[1:].strip()
        if not _is_number(digits):
            raise ValueError(f"{text!r}: after # give the number of a move from the list "
                             "(m shows it)")
        return Command("pick", number=int(digits))
    return Command("play", text=text)


def input_tokens(text: str) -> list[str | int]:
    """The words of a typed play (split at spaces and commas, as card text is): numbers as
    ints, the rest (card names) as text. Guandan's screen reads plays with it (Tiến Lên's
    :func:`cards_from_input` splits the same way).

    >>> input_tokens(" 3s, 10 ²  ")
    ['3s', 10, '²']
    """
    return [int(t) if _is_number(t) else t for t in text.replace(",", " ").split()]


def check_card_number(number: int, count: int) -> int:
    """``number`` if it names one of ``count`` cards (1-based), else a ValueError saying how
    the hand is numbered."""
    if not 1 <= number <= count:
        raise ValueError(f"there is no card {number}: {_numbered(count, 'card')}")
    return number


def _is_number(text: str) -> bool:
    """ASCII digits only: ``"²".isdigit()`` is true, yet ``int("²")`` fails."""
    return text.isascii() and text.isdigit()


def _numbered(count: int, noun: str) -> str:
    """How the items of a numbered list are numbered, for an out-of-range number."""
    if count == 1:
        return f"your hand has one {noun}, number 1" if noun == "card" else \
            f"there is one {noun}, #1"
    if noun == "card":
        return f"your hand has {count} cards, numbered 1-{count}"
    return f"the {noun}s are numbered 1-{count}"


def help_table(style: Style, rows: Sequence[tuple[str, str]], *,
               title: str = "Commands", headers: tuple[str, str] = ("type", "to")) -> Table:
    """The commands, one row each (each game gives its own)."""
    table = Table(title=title, box=style.box, title_justify="left", title_style="bold")
    table.add_column(headers[0])
    table.add_column(headers[1])
    for keys, what in rows:
        table.add_row(style.words(keys), what)
    return table

