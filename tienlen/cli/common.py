"""What every subcommand and every game's command line module shares: the exit statuses,
the argument types, the output-path check done before any work, whether the terminal takes
suit symbols, each game's own options (declared by the game, checked here) and SIGTERM as
Ctrl-C.

It imports no game and no terminal UI: the subcommands (:mod:`tienlen.cli.play` ...) find a
game's command line module through the registry (:func:`tienlen.table.registry.get_cli`).

>>> import io
>>> symbols_fit(io.StringIO()), symbols_fit(io.TextIOWrapper(io.BytesIO(), encoding="ascii"))
(True, False)
"""

from __future__ import annotations

import argparse
import contextlib
import os
import signal
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any, TypeAlias

__all__ = ["symbols_fit", "use_ascii", "writable_file", "PROG", "EXIT_USAGE", "EXIT_INTERRUPTED",
           "plural", "seed_type", "count_type", "levels_type", "registered_game",
           "add_game_option", "add_game_options", "check_game_options", "sigterm_as_ctrl_c"]


def symbols_fit(stream: object) -> bool:
    """Whether ``stream`` can print the suit symbols (a legacy console may not)."""
    encoding = getattr(stream, "encoding", None)
    if not encoding:  # a text buffer such as io.StringIO takes any str
        return True
    try:
        "♠♣♦♥".encode(encoding)
    except (UnicodeEncodeError, LookupError):
        return False
    return True


def use_ascii(args: argparse.Namespace) -> bool:
    """``--ascii``, or a standard output that cannot print the suit symbols."""
    return bool(getattr(args, "ascii", False)) or not symbols_fit(sys.stdout)


def writable_file(path: Path, option: str) -> None:
    """Refuse an output path that cannot be written, before any work is done (so that an
    hour of simulation is not lost to a typo). Creates nothing."""
    if path.is_dir():
        raise ValueError(f"{option} {path}: is a directory; give a file name")
    parent = path.parent
    if not parent.is_dir():
        raise ValueError(f"{option} {path}: the directory {parent} does not exist")
    if not os.access(parent, os.W_OK | os.X_OK) or (path.exists()
                                                    and not os.access(path, os.W_OK)):
        raise ValueError(f"{option} {path}: not writable")


# --- what every subcommand shares (issue 34: one module per subcommand) -----------------

#: The program's name in messages.
PROG = "tienlen"
#: A usage error: bad arguments, a refused request.
EXIT_USAGE = 2
#: 128 + SIGINT, what a shell reports for a command stopped by Ctrl-C.
EXIT_INTERRUPTED = 130

# A string: argparse's action class is generic only to type checkers.
Subparsers: TypeAlias = "argparse._SubParsersAction[argparse.ArgumentParser]"


def plural(count: int, noun: str) -> str:
    """``count`` and ``noun``, with an s unless there is one.

    >>> plural(1, "card"), plural(3, "card")
    ('1 card', '3 cards')
    """
    return f"{count} {noun}{'' if count == 1 else 's'}"


def seed_type(text: str) -> int:
    """An argparse type for seeds: a non-negative integer (range checks are the game's)."""
    try:
        value = int(text, 0)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not an integer: {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be 0 or more: {value}")
    return value


def count_type(text: str) -> int:
    """An argparse type for counts: a positive integer (upper limits are the library's)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not an integer: {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be 1 or more: {value}")
    return value


def levels_type(text: str) -> list[str]:
    """``"L1,L2"`` -> ``["L1", "L2"]``; the game's bot factory checks the names."""
    levels = [part.strip() for part in text.split(",")]
    if not all(levels):
        raise argparse.ArgumentTypeError(f"expected levels separated by commas, got {text!r}")
    return levels


def registered_game(text: str) -> str:
    """An argparse type: the name of a game in the table registry."""
    from tienlen.table import spec_names

    if text not in spec_names():
        raise argparse.ArgumentTypeError(f"unknown game {text!r:.40}; choose from "
                                         f"{', '.join(spec_names())}")
    return text


def add_game_option(parser: argparse.ArgumentParser, help: str) -> None:
    """``--game NAME``: a game of the registry (default: the package's first game)."""
    from tienlen.table.registry import DEFAULT_GAME

    parser.add_argument("--game", type=registered_game, default=DEFAULT_GAME, metavar="GAME",
                        help=help)


def add_game_options(parser: argparse.ArgumentParser, command: str) -> None:
    """Each registered game's own options of ``command``, declared by the game's command
    line module (its ``add_options(parser, command)``). Which game declared which option is
    kept on the parser, so that :func:`check_game_options` refuses one game's option given
    with another game rather than ignoring it; an option two games declare is added once
    (the first declaration's help) and belongs to both."""
    from tienlen.table.registry import get_cli, spec_names

    owners: dict[str, list[tuple[str, str, object, str | None]]] = {}
    for name in spec_names():
        cli = get_cli(name)
        if cli is None:
            continue
        declared = _Declared(parser)
        cli.add_options(declared, command)
        owners[name] = declared.options
    parser.set_defaults(game_options=owners)


class _Declared:
    """The parser as a game sees it while declaring its options: ``add_argument`` adds an
    option unless another game already did, and notes it as the game's either way."""

    def __init__(self, parser: argparse.ArgumentParser) -> None:
        self.parser = parser
        self.options: list[tuple[str, str, object, str | None]] = []

    def add_argument(self, *flags: str, what: str | None = None, **kwargs: Any) -> None:
        """``parser.add_argument``; ``what`` names the option in the refusal of another
        game (default: "a GAME option")."""
        existing = {s: a for a in self.parser._actions for s in a.option_strings}
        action = existing.get(flags[0])
        if action is None:
            action = self.parser.add_argument(*flags, **kwargs)
        self.options.append((action.dest, action.option_strings[0], action.default, what))


def check_game_options(args: argparse.Namespace, command: str) -> None:
    """Refuse an option that only another game reads (``--rules southern --game guandan``):
    given and not its default, it would be silently ignored."""
    game = args.game
    owners: dict[str, list[tuple[str, str, object, str | None]]] = getattr(args, "game_options", {})
    mine = {option[0] for option in owners.get(game, ())}
    for other, options in owners.items():
        if other == game:
            continue
        for dest, flag, default, what in options:
            value = getattr(args, dest, default)
            if dest not in mine and value != default:
                shown = f"{flag} {value}" if isinstance(value, str) else flag
                raise ValueError(f"{shown} is {what or 'an option of ' + _title(other)}, not "
                                 f"of {_title(game)}: leave {flag} out with {command} "
                                 f"--game {game}")


def _title(game: str) -> str:
    """The game's name as players write it (the spec's ``title``)."""
    from tienlen.table import get_spec

    return str(getattr(get_spec(game), "title", game))


@contextlib.contextmanager
def sigterm_as_ctrl_c() -> Iterator[None]:
    """SIGTERM (what a batch system or service manager sends to stop a job) raises
    KeyboardInterrupt here, like Ctrl-C: a run stops its workers, keeps the games of
    complete units and says how to resume, instead of dying at once and leaving its
    worker processes behind. Only from the main thread, where signal handlers live."""
    if not hasattr(signal, "SIGTERM") or threading.current_thread() is not threading.main_thread():
        yield
        return

    def interrupt(signum: int, frame: object) -> None:
        raise KeyboardInterrupt

    previous = signal.signal(signal.SIGTERM, interrupt)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)
