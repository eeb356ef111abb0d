"""The ``tienlen`` command line: one function per subcommand, registered with argparse.

The CLI parses and renders; every rule question goes to the library. Bad input is
reported as one line, ``tienlen: error: ...``, with exit status 2.

>>> main(["moves", "3s 3c 4d 5h", "--pile", "3d", "--ascii"])
hand: 3s 3c 4d 5h (4 cards)
pile: single 3d
singles (2):
  4d
  5h
total: 2 legal plays
0
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Sequence
from typing import TypeVar

from .cards import Card, Cards
from .combos import Combo, Kind, classify, legal_moves
from .errors import CardParseError
from .rules import Rules

__all__ = ["main", "build_parser"]

PROG = "tienlen"
EXIT_USAGE = 2

T = TypeVar("T")


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("tienlen")
    except PackageNotFoundError:
        import tienlen

        return getattr(tienlen, "__version__", "unknown")


def _parse_arg(what: str, parse: Callable[[str], T], text: str) -> T:
    """``parse(text)``, with a parse error saying which argument was wrong."""
    try:
        return parse(text)
    except CardParseError as error:
        raise CardParseError(f"{what}: {error}", error.token) from None


def _plural(count: int, noun: str) -> str:
    return f"{count} {noun}{'' if count == 1 else 's'}"


def _symbols_fit(stream: object) -> bool:
    """Whether ``stream`` can print the suit symbols (a legacy console may not)."""
    encoding = getattr(stream, "encoding", None)
    if not encoding:  # a text buffer such as io.StringIO takes any str
        return True
    try:
        "♠♣♦♥".encode(encoding)
    except (UnicodeEncodeError, LookupError):
        return False
    return True


# --- tienlen moves -------------------------------------------------------------------


def _add_moves(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "moves",
        help="list the legal plays from a hand",
        description=(
            "List every legal play from HAND, grouped by kind. Cards are written like "
            "3s 10h Td A♠ 2♥, separated by spaces or commas."
        ),
    )
    parser.add_argument(
        "hand", nargs="+", metavar="HAND", help='the hand, e.g. "3s 4c 10h" or 3s 4c 10h'
    )
    parser.add_argument(
        "--pile", metavar="CARDS", help="the combination on top of the pile (default: a lead)"
    )
    parser.add_argument(
        "--locked-out",
        action="store_true",
        help="the player passed earlier in this pile: only bombs on 2s (R5.2)",
    )
    parser.add_argument(
        "--must-include", metavar="CARD", help="a card every play must contain (R7.2)"
    )
    parser.add_argument(
        "--rules", choices=Rules.NAMES, default="default", help="ruleset (default: %(default)s)"
    )
    parser.add_argument(
        "--ascii", action="store_true", help="write cards as 3s 10h rather than 3♠ 10♥"
    )
    parser.set_defaults(run=run_moves)


def run_moves(args: argparse.Namespace) -> int:
    """``tienlen moves``: print the legal plays grouped by kind, then the total."""
    rules = Rules.from_name(args.rules)
    hand = _parse_arg("hand", Cards.parse, " ".join(args.hand))
    if not hand:
        raise ValueError("hand: no cards given")
    pile: Combo | None = None
    if args.pile is not None:
        pile_cards = _parse_arg("--pile", Cards.parse, args.pile)
        if not pile_cards:
            raise ValueError("--pile: no cards given (leave --pile out for a lead)")
        pile = classify(pile_cards, rules)
        if pile is None:
            raise ValueError(f"--pile: not a combination under {rules.name} rules: {pile_cards}")
    must_include: Card | None = None
    if args.must_include is not None:
        must_include = _parse_arg("--must-include", Card.parse, args.must_include)
    moves = legal_moves(
        hand, pile, rules=rules, locked_out=args.locked_out, must_include=must_include
    )

    spec = "a" if args.ascii or not _symbols_fit(sys.stdout) else ""
    lines = [f"hand: {hand:{spec}} ({_plural(len(hand), 'card')})"]
    lines.append(f"pile: {pile:{spec}}" if pile else "pile: empty (leading)")
    if must_include is not None:
        lines.append(f"must include: {must_include:{spec}}")
    if args.locked_out:
        lines.append("locked out: only bombs on a combination of 2s")
    if rules != Rules():
        lines.append(f"rules: {rules.name}")
    groups: dict[Kind, list[Cards]] = {}
    for move in moves:
        # Every move is a combination by construction; classify only names its kind.
        groups.setdefault(classify(move, rules).kind, []).append(move)  # type: ignore[union-attr]
    for kind, plays in groups.items():
        lines.append(f"{kind.label}s ({len(plays)}):")
        lines.extend(f"  {play:{spec}}" for play in plays)
    if not moves:
        lines.append("no legal plays: pass")
    lines.append(f"total: {_plural(len(moves), 'legal play')}")
    print("\n".join(lines))
    return 0


# Each entry adds one subcommand whose parser sets ``run`` (Namespace -> exit status).
_SUBCOMMANDS: list[Callable[[argparse._SubParsersAction], None]] = [_add_moves]


def build_parser() -> argparse.ArgumentParser:
    """The ``tienlen`` argument parser with every subcommand."""
    parser = argparse.ArgumentParser(prog=PROG, description="Tiến Lên (Thirteen) engine.")
    parser.add_argument("--version", action="version", version=f"%(prog)s {_version()}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for add in _SUBCOMMANDS:
        add(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line on ``argv`` (default: ``sys.argv[1:]``); return the exit status.

    >>> main(["moves", "2s 2h", "--ascii"])
    hand: 2s 2h (2 cards)
    pile: empty (leading)
    singles (2):
      2s
      2h
    pairs (1):
      2s 2h
    total: 3 legal plays
    0
    """
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exit_:
        # argparse exits for --help, --version and its own usage errors (status 2).
        return 0 if exit_.code is None else int(exit_.code)
    try:
        return args.run(args)
    except ValueError as error:
        print(f"{PROG}: error: {error}", file=sys.stderr)
        return EXIT_USAGE
    except BrokenPipeError:
        # The reader (say `| head`) left. Point stdout at devnull so that the flush at
        # interpreter exit does not raise a second time.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
