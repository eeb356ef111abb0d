"""The Guandan side of the ``tienlen`` command line: ``play --game guandan`` (the training
mode), ``moves --game guandan``, ``replay`` of a Guandan match and ``sim --game guandan``.

The training mode's screen is :mod:`tienlen.tui.guandan_play` (on the terminal Tiến Lên's
``play`` uses: redrawn in place on a terminal, plain lines when piped). ``--lang zh`` shows
it in Chinese with the plan's labels (出牌 过牌 提示 进贡 还贡 头游 …); the default follows
the locale.

>>> run_moves_text(["5s 5h 6s 7s 8s 9s"], level=5, pile=None, lang="en", ascii_=True)[-1]  # 6 singles, 5 pairs, 8 straights, 8 straight flushes
'total: 27 legal plays'
"""

from __future__ import annotations

import argparse
import json
import locale
import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TextIO, TypedDict

from .bots import make_bot
from .cards import Cards
from .errors import GuandanError
from .match import Match, ReplayError
from .plays import Kind, Play, classify, legal_plays

__all__ = ["run_play", "run_moves", "run_replay", "run_sim", "LABELS", "default_lang",
           "run_moves_text", "TrainingSession"]

# The training mode's words (English and Chinese, the plan's labels) live with its screen.
from ..tui.guandan_words import WORDS as LABELS  # noqa: E402
from ..tui.guandan_words import default_lang, kind_name, rank_text  # noqa: E402


def __getattr__(name: str) -> object:
    # The full-screen session loads rich; ``moves`` and ``sim`` do not need it.
    if name == "TrainingSession":
        from ..tui.guandan_play import GuandanSession

        return GuandanSession
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def show_cards(cards: Cards, ascii_: bool) -> str:
    return cards.ascii() if ascii_ else str(cards)


def show_play(play: Play, lang: str, ascii_: bool) -> str:
    return f"{show_cards(play.cards, ascii_)}  [{kind_name(play.kind, lang)}: {play.describe()}]"


# ---------------------------------------------------------------- moves

def run_moves_text(hand_words: Sequence[str], level: int | str, pile: str | None, lang: str,
                   ascii_: bool, pile_kind: str | None = None) -> list[str]:
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

def run_play(args: argparse.Namespace) -> int:
    """``tienlen play --game guandan``: the full-screen training mode (tienlen.tui)."""
    from ..tui.guandan_play import GuandanOptions, GuandanSession
    from ..tui.render import Style
    from ..tui.terminal import Terminal

    levels = list(getattr(args, "bots", None) or ["L2"])
    if len(levels) == 1:
        levels = levels * 3
    if len(levels) != 3:
        raise GuandanError("--bots: give one level for all three AIs, or three (the other "
                           "seats in seat order: with --seat 0, right, partner, left)")
    for level in levels:
        make_bot(level)  # a ValueError naming the choices
    if getattr(args, "players", 4) != 4:
        raise GuandanError("--players: Guandan is played by four")
    if getattr(args, "rules", "default") != "default":
        raise GuandanError("--rules chooses Tiến Lên rules; Guandan's training mode plays "
                           "the standard rules")
    iterations = getattr(args, "iterations", None)
    if iterations is not None and not any(level.lower() == "l3" for level in levels):
        raise GuandanError("--iterations sets L3's search, and no L3 plays")
    save = getattr(args, "save", None)
    if save is not None:
        from ..cli import _writable_file

        _writable_file(save, "--save")
    from ..cli import _use_ascii

    options = GuandanOptions(
        seat=getattr(args, "seat", 0), levels=tuple(levels), seed=getattr(args, "seed", None),
        lang=getattr(args, "lang", None) or default_lang(), style=Style(ascii=_use_ascii(args)),
        hints=getattr(args, "hints", True), save=save, fast=bool(getattr(args, "fast", False)),
        iterations=iterations)
    return GuandanSession(options, Terminal()).run()


# ---------------------------------------------------------------- replay

def is_guandan_replay(path: Path) -> bool:
    try:
        with open(path, "rb") as f:
            head = f.read(4096)
    except OSError:
        return False
    return b'"tienlen.guandan.match"' in head


def run_replay(args: argparse.Namespace) -> int:
    """``tienlen replay`` of a Guandan match: every action re-checked on load (a tampered
    file is refused, naming the first bad action), then shown as the training mode shows it."""
    from ..tui.guandan_play import GuandanReplay
    from ..tui.render import Style
    from ..tui.terminal import Terminal

    path: Path = args.file
    try:
        data = path.read_bytes()
    except OSError as error:
        raise GuandanError(f"cannot read {path}: {error.strerror or error}") from None
    try:
        match = Match.from_json(data)
    except ReplayError as e:
        raise GuandanError(f"{path}: {e}") from None
    from ..cli import _use_ascii

    lang = getattr(args, "lang", None) or default_lang()
    style = Style(ascii=_use_ascii(args))
    replay = GuandanReplay(match, Terminal(), lang=lang, style=style,
                           step=bool(getattr(args, "step", False)),
                           fast=bool(getattr(args, "fast", False)))
    return replay.run()


# ---------------------------------------------------------------- sim

def run_sim(args: argparse.Namespace) -> int:
    from .arena import run_duplicate

    levels = list(args.bots) if args.bots else ["L2", "L1"]
    if len(levels) == 1:
        levels = levels * 2
    if len(levels) != 2:
        raise GuandanError("--bots for Guandan: two levels, team A then team B (e.g. L2,L1)")
    report = run_duplicate(levels[0], levels[1], hands=args.games, seed=args.seed)
    print(report.table())
    if getattr(args, "json", None):
        Path(args.json).write_text(json.dumps(report.to_dict(), indent=2), encoding="utf-8")
    return 0
