"""What the one terminal session reads from a typed line (:func:`parse_command`) and its
pauses. The drawing primitives every game's board is made of (:class:`Style`, the numbered
hand grid, the board's width, the help table) and the reading of typed cards
(:func:`input_tokens`, :func:`check_card_number`) sit below the games, in
:mod:`tienlen.table.board`, and are the same objects here. It imports no game.

>>> parse_command(" Pass "), parse_command("#3").number, parse_command("3s 4s").kind
(Command(kind='pass', text='', number=0), 3, 'play')
"""

from __future__ import annotations

from dataclasses import dataclass

from tienlen.table.board import (BOARD_WIDTH, CommandKind, Style, check_card_number,
                                 help_table, input_tokens, is_number, numbered_grid)

__all__ = ["BOARD_WIDTH", "BOT_PAUSE", "REPLAY_PAUSE", "Command", "CommandKind", "Style",
           "check_card_number", "help_table", "input_tokens", "numbered_grid", "parse_command"]

#: Seconds between two bot moves on an interactive terminal, so each can be read.
BOT_PAUSE = 0.6
#: Seconds between two actions of a replay on an interactive terminal.
REPLAY_PAUSE = 0.8

_WORDS: dict[str, CommandKind] = {
    "p": "pass", "pass": "pass",
    "h": "hint", "hint": "hint",
    "y": "yes", "yes": "yes",
    "n": "no", "no": "no",           # declines a shown suggestion (no card is named n)
    "m": "moves", "moves": "moves",
    "?": "help", "help": "help",
    "q": "quit", "quit": "quit", "exit": "quit",
    "k": "tracker",                  # the card tracker's line on or off (issue 38)
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
        if not is_number(digits):
            raise ValueError(f"{text!r}: after # give the number of a move from the list "
                             "(m shows it)")
        return Command("pick", number=int(digits))
    return Command("play", text=text)
