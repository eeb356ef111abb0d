"""The Tiến Lên side of the ``tienlen`` command line: its options (``--rules``, and
``moves``' ``--locked-out`` / ``--must-include``) and the subcommands it runs its own way:
``moves`` and ``solve``, its ``sim`` request (the arena plays it, :func:`sim_request`), and
the checks of ``play``'s and ``replay``'s options (:func:`play_settings`,
:func:`replay_settings`: the one terminal session then plays on the game's board). The
subcommands (:mod:`tienlen.cli`) find this module through the registry.

>>> from tienlen.cli import main
>>> main(["moves", "3s 4d 2h", "--pile", "Kd", "--rules", "southern", "--ascii"])
hand: 3s 4d 2h (3 cards)
pile: single Kd
rules: southern
singles (1):
  2h
total: 1 legal play
0
"""

from __future__ import annotations

import argparse
import functools
import sys
from collections.abc import Callable
from typing import Any, TypeVar

from tienlen.cli.common import plural, symbols_fit, use_ascii, writable_file
from tienlen.games.tienlen.cards import Card, Cards
from tienlen.errors import CardParseError
from tienlen.games.tienlen.plays import Combo, Kind, classify, legal_moves
from tienlen.games.tienlen.rules import Rules
from tienlen.table.board import PlaySettings, ReplaySettings, Style

__all__ = ["add_options", "add_rules_option", "rules_from_args", "play_settings",
           "sim_request", "run_moves", "replay_settings", "run_solve", "REPLAY_SCHEMAS"]

#: The ``schema`` of the files ``tienlen replay`` shows as Tiến Lên hands.
REPLAY_SCHEMAS = ("tienlen.game",)

T = TypeVar("T")

_DEFAULT_LINEUP = ("L3", "L2", "L2", "L2")


def add_rules_option(parser: Any) -> None:
    """``--rules NAME``, the one definition every Tiến Lên command shares: a preset of
    :class:`~tienlen.games.tienlen.rules.Rules` (read back with ``Rules.from_name(args.rules)``)."""
    # (``what`` names the option when another game refuses it: tienlen.cli.common.)
    what = ({} if isinstance(parser, argparse.ArgumentParser)
            else {"what": "a Tiến Lên ruleset (GUANDAN.md gives Guandan's own rules)"})
    parser.add_argument(
        "--rules", choices=Rules.NAMES, default="default", metavar="NAME", **what,
        help=f"Tiến Lên's ruleset: {', '.join(Rules.NAMES)} (default: %(default)s; southern "
             "is Tiến Lên Miền Nam, RULES.md R11: chặt, instant wins, penalties)")


def rules_from_args(args: argparse.Namespace) -> Rules:
    """The :class:`~tienlen.games.tienlen.rules.Rules` that ``--rules`` names."""
    return Rules.from_name(getattr(args, "rules", "default"))


def add_options(parser: Any, command: str) -> None:
    """Tiến Lên's own options of ``command``."""
    if command in ("play", "sim", "moves", "solve"):
        add_rules_option(parser)
    if command in ("play", "replay"):
        # (Guandan declares --lang too: one option for both games, its help the first's.)
        parser.add_argument("--lang", choices=("en", "zh"), default=None,
                            help="language of the screens, en or zh (中文) (default: Tiến "
                                 "Lên en; Guandan from the locale)")
    if command == "moves":
        parser.add_argument(
            "--locked-out", action="store_true",
            help="Tiến Lên: the player passed earlier in this pile: only the bombs the rules "
                 "allow out of turn, on what they cut (R5.2; under southern, R11.2)")
        parser.add_argument("--must-include", metavar="CARD",
                            help="Tiến Lên: a card every play must contain (R7.2)")


def _parse_arg(what: str, parse: Callable[[str], T], text: str) -> T:
    """``parse(text)``, with a parse error saying which argument was wrong."""
    try:
        return parse(text)
    except CardParseError as error:
        raise CardParseError(f"{what}: {error}", error.token) from None


def _is_l3(level: str) -> bool:
    return level.lower() == "l3"


# --- play ----------------------------------------------------------------------------


def play_settings(args: argparse.Namespace) -> PlaySettings:
    """``tienlen play``'s options, checked for Tiến Lên (``--rules``, ``--players``, the
    bots' levels, ``--iterations``, ``--save``): the settings of the one terminal session,
    which plays the match on Tiến Lên's board (:mod:`tienlen.cli.play`)."""
    rules = rules_from_args(args)
    players = 4 if args.players is None else args.players
    bots = args.bots or ["L2"]
    levels = bots * (players - 1) if len(bots) == 1 else bots
    if args.iterations is not None and not any(_is_l3(level) for level in levels):
        raise ValueError("--iterations sets L3's search, and no L3 opponent plays")
    if args.save is not None:
        writable_file(args.save, "--save")
    return PlaySettings(seat=args.seat, levels=tuple(levels), seed=args.seed,
                        style=Style(ascii=use_ascii(args)), hints=args.hints, save=args.save,
                        fast=args.fast, iterations=args.iterations,
                        lang=getattr(args, "lang", None) or "en",
                        options={"players": players, "rules": rules})


# --- sim -----------------------------------------------------------------------------


def sim_request(args: argparse.Namespace) -> dict[str, Any]:
    """What ``tienlen sim`` asks of Tiến Lên's arena (:func:`tienlen.arena.plan`): one
    level per seat (``--bots``; one for every seat; default L3,L2,L2,L2 cut to
    ``--players``), L3 on ``--iterations``' fixed budget, the ``--rules`` preset."""
    from tienlen.games.tienlen.bots import make_bot

    rules = rules_from_args(args)
    levels: list[str] = args.bots if args.bots is not None else []
    players = args.players
    if players is None:
        players = len(levels) if len(levels) > 1 else 4
    if not levels:
        levels = list(_DEFAULT_LINEUP[:players])
    elif len(levels) == 1:
        levels = levels * players
    elif len(levels) != players:
        raise ValueError(f"--bots names {len(levels)} levels but --players is {players}: "
                         "give one level per seat, or one for all")
    if args.iterations is not None and not any(_is_l3(level) for level in levels):
        raise ValueError("--iterations sets L3's search, and no L3 plays in this lineup")
    lineup = [functools.partial(make_bot, "L3", iterations=args.iterations)
              if args.iterations is not None and _is_l3(level) else level for level in levels]
    return {"lineup": lineup, "games": args.games, "players": players, "rules": rules,
            "labels": levels}


# --- moves ---------------------------------------------------------------------------


def run_moves(args: argparse.Namespace) -> int:
    """``tienlen moves``: print the legal plays grouped by kind, then the total."""
    rules = rules_from_args(args)
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
    if args.locked_out and pile is None:
        raise ValueError("--locked-out needs --pile: a player is locked out only while a "
                         "pile is in play (R5.2), never on a lead")
    must_include: Card | None = None
    if args.must_include is not None:
        must_include = _parse_arg("--must-include", Card.parse, args.must_include)
    moves = legal_moves(
        hand, pile, rules=rules, locked_out=args.locked_out, must_include=must_include
    )

    spec = "a" if args.ascii or not symbols_fit(sys.stdout) else ""
    lines = [f"hand: {hand:{spec}} ({plural(len(hand), 'card')})"]
    lines.append(f"pile: {pile:{spec}}" if pile else "pile: empty (leading)")
    if must_include is not None:
        lines.append(f"must include: {must_include:{spec}}")
    if args.locked_out:
        lines.append("locked out: only bombs on a combination of 2s" if rules.out_of_turn
                     == Rules().out_of_turn and rules.cuts == Rules().cuts else
                     "locked out: only out-of-turn bombs ("
                     + ", ".join(sorted(rules.out_of_turn)) + ") on what they cut")
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
        # Only a player facing a pile may pass; a lead with no play breaks a rule of the
        # position given (a --must-include card not in the hand).
        lines.append("no legal plays: pass" if pile is not None else "no legal plays")
    lines.append(f"total: {plural(len(moves), 'legal play')}")
    print("\n".join(lines))
    return 0



# --- replay --------------------------------------------------------------------------


def replay_settings(args: argparse.Namespace) -> ReplaySettings:
    """``tienlen replay``'s options for a Tiến Lên hand (its words are English)."""
    return ReplaySettings(style=Style(ascii=use_ascii(args)), step=args.step, fast=args.fast,
                          lang=getattr(args, "lang", None) or "en")


# --- solve ---------------------------------------------------------------------------


def run_solve(args: argparse.Namespace) -> int:
    """``tienlen solve``: the solver's value and principal line, one move a line."""
    from tienlen import _core
    from tienlen.games.tienlen.game import PASS
    from tienlen.games.tienlen.solver import SolveError, Value, solve

    rules = rules_from_args(args)
    hands = [_parse_arg(f"--hands[{seat}]", Cards.parse, text)
             for seat, text in enumerate(args.hands)]
    players = len(hands)
    if not 2 <= players <= 4:
        raise SolveError(f"--hands: give 2, 3 or 4 hands; got {players}")
    if not 0 <= args.turn < players:
        raise SolveError(f"--turn: no seat {args.turn} among {players}")
    pile = 0
    owner = -1
    if args.pile is not None:
        pile_cards = _parse_arg("--pile", Cards.parse, args.pile)
        if not pile_cards:
            raise SolveError("--pile: no cards given (leave --pile out for a lead)")
        if classify(pile_cards, rules) is None:
            raise SolveError(f"--pile: not a combination under {rules.name} rules: {pile_cards}")
        pile = pile_cards.mask
        owner = (args.turn - 1) % players if args.owner is None else args.owner
        if not 0 <= owner < players or owner == args.turn:
            raise SolveError(f"--owner: must be a seat 0..{players - 1} other than --turn")
    elif args.owner is not None:
        raise SolveError("--owner needs --pile")
    for seat, hand in enumerate(hands):
        if not hand:
            raise SolveError(f"--hands[{seat}]: no cards given")
        if pile & hand.mask:
            raise SolveError(f"--pile shares cards with --hands[{seat}]")
    try:
        state = _core.GameState.from_fields([h.mask for h in hands], pile_mask=pile,
                                            pile_owner=owner, turn=args.turn, flags=rules.flags)
    except ValueError as error:
        raise SolveError(str(error)) from None
    result = solve(state, args.seat, max_ms=args.max_ms)
    spec = "a" if use_ascii(args) else ""
    lines = [f"seat {seat}: {hand:{spec}}" for seat, hand in enumerate(hands)]
    lines.append(f"pile: {Cards(pile):{spec}} (seat {owner})" if pile else "pile: empty")
    lines.append(f"seat {args.turn} to act")
    if result.value is Value.UNKNOWN:
        lines.append(f"unknown: the {result.limit} limit was reached "
                     f"({plural(result.nodes, 'position')} searched)")
    else:
        verb = "wins" if result.value is Value.WIN else "loses"
        against = "" if players == 2 else " against any play of the others"
        lines.append(f"seat {result.seat} {verb} by force{against} "
                     f"({plural(result.nodes, 'position')} searched, {result.elapsed * 1000:.1f} ms)")
        for move, mover in zip(result.line, result.movers):
            text = "pass" if move is PASS else f"{move:{spec}}"
            lines.append(f"  seat {mover}: {text}")
        lines[-1] += "  (out first)"
    print("\n".join(lines))
    return 0


#: Deprecated entry points this module lends from the terminal UI's deprecation shim (a
#: game imports no front end: they are found by name on first use, and warn when called).
_FROM_THE_SHIM = {"run_play": "tienlen.tui.play", "run_replay": "tienlen.tui.play"}


def __getattr__(name: str) -> Any:
    if name in _FROM_THE_SHIM:
        import importlib

        lent: Any = getattr(importlib.import_module(_FROM_THE_SHIM[name]), name)
        return lent
    if name == "run_sim":
        import importlib
        import warnings

        warnings.warn("tienlen.games.tienlen.cli.run_sim is deprecated: use "
                      "tienlen.cli.sim.run (sim of every game, moved in 0.2.0)",
                      DeprecationWarning, stacklevel=2)
        run: Any = importlib.import_module("tienlen.cli.sim").run
        return run
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__, "run_sim", *_FROM_THE_SHIM})
