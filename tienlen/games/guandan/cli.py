"""The Guandan side of the ``tienlen`` command line: the options of ``play --game guandan``
(the training mode) and of ``replay`` of a Guandan match, ``moves --game guandan``, and what
``sim --game guandan`` asks of the arena (:func:`sim_request`: the teams, matches or hands).

The training mode is played by the one terminal session (:mod:`tienlen.tui.session`) on
Guandan's board (:class:`tienlen.games.guandan.board.GuandanBoard`: redrawn in place on a
terminal, plain lines when piped). ``--lang zh`` shows it in Chinese with the plan's labels
(出牌 过牌 提示 进贡 还贡 头游 …); the default follows the locale.

>>> run_moves_text(["5s 5h 6s 7s 8s 9s"], level=5, pile=None, lang="en", ascii_=True)[-1]  # 6 singles, 5 pairs, 8 straights, 8 straight flushes
'total: 27 legal plays'
"""

from __future__ import annotations

import argparse
import contextlib
import json
import locale
import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO, TypedDict

from tienlen.cli.common import use_ascii, writable_file
from tienlen.games.guandan.bots import make_bot
from tienlen.games.guandan.cards import Cards
from tienlen.games.guandan.errors import CardError, GuandanError
from tienlen.games.guandan.plays import Kind, Play, classify, legal_plays
from tienlen.table.board import PlaySettings, ReplaySettings, Style

if TYPE_CHECKING:   # the game's arena loop loads only for sim
    from tienlen.games.guandan.arena import TeamSpec

__all__ = ["add_options", "play_settings", "run_moves", "replay_settings", "sim_request",
           "LABELS", "default_lang", "run_moves_text", "REPLAY_SCHEMAS"]

#: The ``schema`` of the files ``tienlen replay`` shows as Guandan matches.
REPLAY_SCHEMAS = ("tienlen.guandan.match",)


def add_options(parser: Any, command: str) -> None:
    """Guandan's own options of ``command`` (the subcommands of :mod:`tienlen.cli` ask)."""
    from tienlen.cli.common import count_type

    if command in ("play", "moves", "replay", "sim"):
        parser.add_argument("--lang", choices=("en", "zh"), default=None,
                            help="Guandan: language of the training mode (default: from the "
                                 "locale)")
    if command == "moves":
        parser.add_argument("--level", default="2", metavar="RANK",
                            help="Guandan: the level rank, 2..A (default: %(default)s)")
        parser.add_argument("--pile-kind", default=None, metavar="KIND",
                            help="Guandan: the reading of --pile when it has several "
                                 "(e.g. straight_flush)")
    if command == "sim":
        # The duplicate arena (tienlen.games.guandan.arena): --bots names team A then team B.
        parser.add_argument("--matches", type=count_type, default=None, metavar="N",
                            help="Guandan: play N whole matches to A, an even number (each "
                                 "board twice, the teams swapping seats; default: 20)")
        parser.add_argument("--hands", type=count_type, default=None, metavar="N",
                            help="Guandan: play N first hands instead (level 2, no tribute; "
                                 "cheaper), an even number")
        parser.add_argument("--hand-cap", type=count_type, default=None, metavar="N",
                            help="Guandan: a match still undecided after N hands is a draw "
                                 "(default: 100)")


#: Deprecated entry points this module lends from the terminal UI's deprecation shim (a
#: game imports no front end: they are found by name on first use, and warn when called).
_FROM_THE_SHIM = {"run_play": "tienlen.tui.guandan_play", "run_replay": "tienlen.tui.guandan_play"}


def __getattr__(name: str) -> object:
    # The terminal UI loads on first use: the full-screen session (rich) and the training
    # mode's words (English and Chinese, the plan's labels), which live with its screen.
    if name in _FROM_THE_SHIM:
        import importlib

        lent: Any = getattr(importlib.import_module(_FROM_THE_SHIM[name]), name)
        return lent
    if name == "TrainingSession":
        import importlib
        import warnings

        session: Any = importlib.import_module("tienlen.tui.guandan_play")._GuandanSession
        warnings.warn("tienlen.guandan.cli.TrainingSession is deprecated: use "
                      "tienlen.tui.session.play('guandan', settings, terminal) (the one "
                      "terminal session, issue 34)", DeprecationWarning, stacklevel=2)
        return session
    if name == "LABELS":
        from tienlen.games.guandan.words import WORDS

        return WORDS
    if name == "run_sim":
        import importlib
        import warnings

        warnings.warn("tienlen.games.guandan.cli.run_sim is deprecated: use "
                      "tienlen.cli.sim.run (sim of every game, moved in 0.2.0)",
                      DeprecationWarning, stacklevel=2)
        run: Any = importlib.import_module("tienlen.cli.sim").run
        return run
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    # The names __getattr__ lends (TrainingSession, LABELS, run_sim, run_play, run_replay)
    # are listed before any use.
    return sorted({*globals(), *__all__, "run_sim", "TrainingSession", "LABELS",
                   *_FROM_THE_SHIM})


def default_lang() -> str:
    """The training mode's language from the locale (:func:`tienlen.games.guandan.words.default_lang`)."""
    from tienlen.games.guandan.words import default_lang as lang

    return lang()


def show_cards(cards: Cards, ascii_: bool) -> str:
    return cards.ascii() if ascii_ else str(cards)


def show_play(play: Play, lang: str, ascii_: bool) -> str:
    from tienlen.games.guandan.words import kind_name

    return f"{show_cards(play.cards, ascii_)}  [{kind_name(play.kind, lang)}: {play.describe()}]"


# ---------------------------------------------------------------- moves

def run_moves_text(hand_words: Sequence[str], level: int | str, pile: str | None, lang: str,
                   ascii_: bool, pile_kind: str | None = None) -> list[str]:
    from tienlen.games.guandan.words import kind_name, rank_text

    hand = Cards.parse(" ".join(hand_words))
    if not hand:
        raise GuandanError("hand: no cards given")
    pile_play = None
    if pile:
        readings = classify(pile, level)
        if pile_kind:
            kind_text, _, rank = pile_kind.partition(":")
            readings = tuple(p for p in readings if p.kind.name.lower() == kind_text.lower()
                             and (not rank or rank_text(p.rank) == rank.upper()))
        if not readings:
            raise GuandanError(f"--pile: {pile} is not a play at this level")
        if len({p.code for p in readings}) > 1:
            names = ", ".join(p.describe() for p in readings)
            raise GuandanError(f"--pile reads several ways ({names}); choose one with "
                               "--pile-kind KIND[:TOP], e.g. straight:J")
        pile_play = readings[0]
        try:
            hand + pile_play.cards     # two decks: a card is at most twice in hand and pile
        except CardError as error:
            raise GuandanError(f"--pile and the hand hold too many copies: {error}") from None
    plays = legal_plays(hand, level, pile_play)
    lines = [f"hand: {show_cards(hand, ascii_)} ({len(hand)} cards), level {rank_text(plays[0].level) if plays else level}"]
    lines.append(f"pile: {show_play(pile_play, lang, ascii_)}" if pile_play else "pile: empty (leading)")
    groups: dict[Kind, list[Play]] = {}
    for p in plays:
        groups.setdefault(p.kind, []).append(p)
    for kind, ps in groups.items():
        lines.append(f"{kind_name(kind, lang)} ({len(ps)}):")
        lines.extend(f"  {show_cards(p.cards, ascii_)}  {p.describe()}" for p in ps)
    if not plays:
        lines.append("no legal plays: pass")
    lines.append(f"total: {len(plays)} legal play{'s' if len(plays) != 1 else ''}")
    return lines


def run_moves(args: argparse.Namespace) -> int:
    lang = getattr(args, "lang", None) or default_lang()
    print("\n".join(run_moves_text(args.hand, args.level, args.pile, lang,
                                   bool(getattr(args, "ascii", False)),
                                   getattr(args, "pile_kind", None))))
    return 0


# ---------------------------------------------------------------- the training mode

def play_settings(args: argparse.Namespace) -> PlaySettings:
    """``tienlen play --game guandan``'s options, checked (the three AIs' levels, four
    players, no Tiến Lên rules, ``--iterations``, ``--save``, ``--lang`` from the locale by
    default): the settings of the one terminal session, which plays the training mode on
    Guandan's board (:mod:`tienlen.cli.play`)."""
    levels = list(getattr(args, "bots", None) or ["L2"])
    if len(levels) == 1:
        levels = levels * 3
    if len(levels) != 3:
        raise GuandanError("--bots: give one level for all three AIs, or three (the other "
                           "seats in seat order: with --seat 0, right, partner, left)")
    for level in levels:
        make_bot(level)  # a ValueError naming the choices
    if getattr(args, "players", None) not in (None, 4):
        raise GuandanError("--players: Guandan is played by four")
    if getattr(args, "rules", "default") != "default":
        raise GuandanError("--rules chooses Tiến Lên rules; Guandan's training mode plays "
                           "the standard rules")
    iterations = getattr(args, "iterations", None)
    if iterations is not None and not any(level.lower() == "l3" for level in levels):
        raise GuandanError("--iterations sets L3's search, and no L3 plays")
    save = getattr(args, "save", None)
    if save is not None:
        writable_file(save, "--save")
    return PlaySettings(
        seat=getattr(args, "seat", 0), levels=tuple(levels), seed=getattr(args, "seed", None),
        lang=getattr(args, "lang", None) or default_lang(), style=Style(ascii=use_ascii(args)),
        hints=getattr(args, "hints", True), save=save, fast=bool(getattr(args, "fast", False)),
        iterations=iterations)


# ---------------------------------------------------------------- replay

def replay_settings(args: argparse.Namespace) -> ReplaySettings:
    """``tienlen replay``'s options for a Guandan match (``--lang`` from the locale by
    default): the one terminal session shows it as the training mode does, every action
    re-checked on load."""
    return ReplaySettings(lang=getattr(args, "lang", None) or default_lang(),
                          style=Style(ascii=use_ascii(args)),
                          step=bool(getattr(args, "step", False)),
                          fast=bool(getattr(args, "fast", False)))


# ---------------------------------------------------------------- sim

#: What ``sim --game guandan`` plays when given neither --matches nor --hands.
DEFAULT_SIM_MATCHES = 20
_DEFAULT_TEAMS = ("L2", "L1")
# Options of the Tiến Lên sim that mean nothing for the Guandan duplicate arena.
_TIENLEN_ONLY = (("games", "--games", ": give --matches N or --hands N"),
                 ("players", "--players", ": Guandan has four"))


def sim_teams(args: argparse.Namespace) -> tuple[list[str], list[TeamSpec]]:
    """The two teams of ``sim --game guandan`` from ``--bots`` (one level, or two: team A
    then team B) and ``--iterations`` (L3's fixed budget): their labels and specs."""
    import functools

    levels = list(args.bots) if args.bots else list(_DEFAULT_TEAMS)
    if len(levels) == 1:
        levels = levels * 2
    if len(levels) != 2:
        raise GuandanError(f"--bots for Guandan names two teams, team A then team B (e.g. "
                           f"L3,L2); got {len(levels)} levels")
    from tienlen.games.guandan.bots import is_bot_spec

    for level in levels:
        if not is_bot_spec(level):
            raise GuandanError(f"--bots: unknown Guandan level {level!r}; choose from "
                               f"random, {', '.join(_bot_levels())} or dmc:PATH")
    iterations = getattr(args, "iterations", None)
    if iterations is not None and not any(level.lower() == "l3" for level in levels):
        raise GuandanError("--iterations sets L3's search, and no team is L3")
    specs: list[TeamSpec] = [functools.partial(make_bot, "L3", iterations=iterations)
                           if iterations is not None and level.lower() == "l3" else level
                           for level in levels]
    return levels, specs


def _bot_levels() -> tuple[str, ...]:
    from tienlen.games.guandan.bots import LEVELS

    return LEVELS


def sim_request(args: argparse.Namespace) -> dict[str, Any]:
    """What ``tienlen sim --game guandan`` asks of the arena (:func:`tienlen.arena.plan`):
    two teams (``--bots``: team A then team B, or one level for both), ``--matches N``
    whole matches or ``--hands N`` first hands (default: 20 matches), ``--hand-cap``."""
    for name, option, why in _TIENLEN_ONLY:
        if getattr(args, name, None):
            raise GuandanError(f"{option} is not an option of the Guandan sim{why}")
    if getattr(args, "rules", "default") != "default":
        raise GuandanError("--rules names a Tiến Lên ruleset; the Guandan sim plays the "
                           "standard rules")
    levels, specs = sim_teams(args)
    matches, hands = getattr(args, "matches", None), getattr(args, "hands", None)
    if matches is not None and hands is not None:
        raise GuandanError("give --matches or --hands, not both")
    if matches is None and hands is None:
        matches = DEFAULT_SIM_MATCHES
    games = matches if matches is not None else hands
    if games is not None and games % 2:
        raise GuandanError(f"--{'matches' if matches is not None else 'hands'} must be even: "
                           f"each board is played twice, the teams swapping seats; got {games}")
    return {"lineup": specs, "games": games, "mode": "match" if matches is not None else "hand",
            "hand_cap": getattr(args, "hand_cap", None), "labels": levels}
