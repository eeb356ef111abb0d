"""The Guandan side of the ``tienlen`` command line: ``play --game guandan`` (the training
mode), ``moves --game guandan``, ``replay`` of a Guandan match and ``sim --game guandan``.

The training mode is line-based: it prints the table and reads one command a line, so it
works the same in a terminal and with piped input. ``--lang zh`` shows it in Chinese with
the plan's labels (出牌 过牌 提示 进贡 还贡 头游 …); the default follows the locale.

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
from typing import TYPE_CHECKING, TextIO, TypedDict

from .bots import make_bot
from .cards import Cards
from .config import RuleConfig
from .errors import GuandanError
from .game import Action, GameView, IllegalActionError, return_candidates, tribute_candidates
from .hints import TipButton, hint
from .match import HandResult, Match, ReplayError
from .plays import Kind, Play, classify, legal_plays

if TYPE_CHECKING:   # the arena (numpy, process pools) loads only for sim
    from .arena import DuplicateResult, TeamSpec

__all__ = ["run_play", "run_moves", "run_replay", "run_sim", "LABELS", "default_lang",
           "run_moves_text", "TrainingSession"]

# The text of one language: every label a string, but "places", the names of 1st..4th.
# (Functional syntax: "pass" and "return" are keywords.)
Labels = TypedDict("Labels", {
    "title": str, "play": str, "pass": str, "hint": str, "tip": str, "tribute": str,
    "return": str, "level": str, "hand": str, "your_hand": str, "pile": str, "empty": str,
    "you": str, "partner": str, "left": str, "right": str, "turn": str, "places": list[str],
    "team_us": str, "team_them": str, "score": str, "wins": str, "gives_tribute": str,
    "returns": str, "to": str, "anti": str, "must_give": str, "must_return": str,
    "cards_left": str, "out": str, "won_match": str, "passes": str, "plays": str,
    "help": str, "nothing": str, "refused": str, "bye": str, "hand_over": str, "levels": str,
    "saved": str, "leads": str
})

#: Every label of the training mode, English and Chinese (the plan's words).
LABELS: dict[str, Labels] = {
    "en": {
        "title": "Guandan training mode", "play": "play", "pass": "pass", "hint": "hint",
        "tip": "tip", "tribute": "tribute", "return": "return", "level": "level",
        "hand": "hand {n}", "your_hand": "Your hand", "pile": "On the table", "empty": "empty (your lead)",
        "you": "You", "partner": "Partner", "left": "Left", "right": "Right",
        "turn": "Your move> ", "places": ["1st (头游)", "2nd (二游)", "3rd (三游)", "4th (末游)"],
        "team_us": "Us", "team_them": "Them", "score": "Match", "wins": "hands won",
        "gives_tribute": "gives tribute", "returns": "returns", "to": "to", "anti": "Anti-tribute (抗贡): both big jokers on the paying side; no tribute.",
        "must_give": "Tribute (进贡): give your highest card", "must_return": "Return (还贡): give back one card",
        "cards_left": "cards", "out": "out", "won_match": "wins the match!", "passes": "passes",
        "plays": "plays", "help": "Commands: cards (5h 5s) or numbers (1 2) to play, p pass, h hint, "
        "t tip (next play that beats; y plays it), m list plays, q quit",
        "nothing": "nothing beats the table: pass", "refused": "Refused", "bye": "Bye.",
        "hand_over": "Hand over", "levels": "Levels", "saved": "saved to",
        "leads": "leads",
    },
    "zh": {
        "title": "掼蛋训练模式", "play": "出牌", "pass": "过牌", "hint": "提示", "tip": "提示",
        "tribute": "进贡", "return": "还贡", "level": "级牌", "hand": "第{n}局",
        "your_hand": "你的手牌", "pile": "桌面", "empty": "空（你先出）", "you": "你",
        "partner": "对家", "left": "上家", "right": "下家", "turn": "请出牌> ",
        "places": ["头游", "二游", "三游", "末游"], "team_us": "我方", "team_them": "对方",
        "score": "比分", "wins": "局胜", "gives_tribute": "进贡", "returns": "还贡", "to": "给",
        "anti": "抗贡：进贡方持有两张大王，免于进贡。", "must_give": "进贡：请交出你最大的牌",
        "must_return": "还贡：请还一张牌", "cards_left": "张", "out": "出完", "won_match": "赢得比赛！",
        "passes": "过牌", "plays": "出牌", "help": "命令：输入牌（5h 5s）或序号（1 2）出牌，p 过牌，h 提示，"
        "t 提示（下一手能压的牌；y 出这手），m 列出可出的牌，q 退出",
        "nothing": "没有能压的牌：过牌", "refused": "不合规", "bye": "再见。", "hand_over": "本局结束",
        "levels": "级数", "saved": "已保存到", "leads": "先出",
    },
}

_ERRORS_ZH = {
    "INVALID_CARDS": "牌型不合法", "NOT_YOUR_TURN": "还没轮到你", "CANNOT_PASS": "首出不能过牌",
    "CARD_NOT_FOUND": "你没有这些牌", "HAND_EMPTY": "手牌已出完", "INVALID_TRIBUTE": "进贡/还贡的牌不对",
    "GAME_OVER": "牌局已结束", "STATE_CONFLICT": "现在不能这样做",
}


def default_lang() -> str:
    """"zh" when the locale is Chinese, else "en"."""
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = os.environ.get(name)
        if value:
            return "zh" if value.lower().startswith("zh") else "en"
    try:
        loc = locale.getlocale()[0] or ""
    except ValueError:
        loc = ""
    return "zh" if loc.lower().startswith("zh") else "en"


_RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")


def _rank_text(rank: int) -> str:
    return _RANKS[rank - 2] if rank <= 14 else ("SJ" if rank == 15 else "BJ")


def kind_name(kind: Kind, lang: str) -> str:
    """"pair 对子" in English (both names side by side), "对子" in Chinese."""
    return kind.chinese if lang == "zh" else f"{kind.label} {kind.chinese}"


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
                             and (not rank or _rank_text(p.rank) == rank.upper()))
        if not readings:
            raise GuandanError(f"--pile: {pile} is not a play at this level")
        if len({p.code for p in readings}) > 1:
            names = ", ".join(p.describe() for p in readings)
            raise GuandanError(f"--pile reads several ways ({names}); choose one with "
                               "--pile-kind KIND[:TOP], e.g. straight:J")
        pile_play = readings[0]
    plays = legal_plays(hand, level, pile_play)
    lines = [f"hand: {show_cards(hand, ascii_)} ({len(hand)} cards), level {_RANKS[plays[0].level - 2] if plays else level}"]
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

class TrainingSession:
    """You and an AI partner against two AIs, hand after hand to A."""

    def __init__(self, *, seed: int | None, levels: Sequence[str], seat: int = 0,
                 lang: str = "en", ascii_: bool = False, save: Path | None = None,
                 hints: bool = True, config: RuleConfig = RuleConfig(),
                 out: TextIO | None = None, read: Callable[[str], str] | None = None) -> None:
        self.match = Match(seed, config)
        self.seat = seat
        self.lang = lang
        self.L = LABELS[lang]
        self.ascii = ascii_
        self.save = save
        self.hints = hints
        self.out = out or sys.stdout
        self.read = read or input
        self.bots = {s: make_bot(levels[i], seed=(self.match.seed + s) & 0xFFFFFFFF)
                     for i, s in enumerate(s for s in range(4) if s != seat)}
        self.shown = 0
        self.tip: TipButton | None = None
        self.tip_play: Play | None = None
        self.wins = [0, 0]

    def say(self, text: str = "") -> None:
        print(text, file=self.out, flush=True)

    def name(self, seat: int) -> str:
        if seat == self.seat:
            return self.L["you"]
        if seat == self.match.game.partner(self.seat):
            return f"{self.L['partner']}({seat})"
        right = (self.seat + 1) % 4
        return f"{self.L['right'] if seat == right else self.L['left']}({seat})"

    def team_label(self, team: int) -> str:
        return self.L["team_us"] if self.seat in self.match.teams[team] else self.L["team_them"]

    def header(self) -> None:
        m, L = self.match, self.L
        lv = " / ".join(f"{self.team_label(t)} {_RANKS[m.levels[t] - 2]}" for t in (0, 1))
        self.say(f"== {L['title']} · {L['hand'].format(n=m.hand_number + 1)} · {L['level']} "
                 f"{_RANKS[m.game.level - 2]} · {L['levels']}: {lv} · {L['score']}: "
                 f"{self.team_label(0)} {self.wins[0]} - {self.wins[1]} {self.team_label(1)} {L['wins']} ==")

    def run(self) -> int:
        self.say(self.L["help"])
        hand_seen = -1
        try:
            while not self.match.is_over:
                game = self.match.game
                if self.match.hand_number != hand_seen:
                    hand_seen = self.match.hand_number
                    self.shown = 0
                    self.header()
                    if game.anti_tribute:
                        self.say(self.L["anti"])
                self.echo_actions()
                seat = self.match.turn
                assert seat is not None  # someone acts until the match is over
                if seat == self.seat:
                    if not self.human_turn():
                        self.finish()
                        self.say(self.L["bye"])
                        return 0
                else:
                    kind, cards = self.bots[seat].decide(game.view(seat))
                    self.match.act(kind, cards, seat)
                if self.match.is_over or self.match.hand_number != hand_seen:
                    self.end_of_hand()
        except EOFError:
            self.finish()
            self.say(self.L["bye"])
            return 0
        self.finish()
        return 0

    def finish(self) -> None:
        if self.save is not None:
            self.save.write_text(self.match.to_json(), encoding="utf-8")
            self.say(f"{self.L['saved']} {self.save}")

    def echo_actions(self) -> None:
        hand = self.match.hand_number
        items = [a for h, a in self.match.history if h == hand]
        for a in items[self.shown:]:
            self.say(self.describe(a))
        self.shown = len(items)

    def visible(self, a: Action) -> bool:
        """Whether the player may see a tribute card: it gave or took it (G6, the view)."""
        if self.seat in (a.seat, a.to):
            return True
        return any(t.payer == a.seat and t.receiver == self.seat for t in self.match.game.tributes)

    def describe(self, a: Action) -> str:
        L = self.L
        who = self.name(a.seat)
        if a.action == "pass":
            return f"  {who}: {L['passes']}"
        if a.action == "play":
            assert a.play is not None  # a play action carries its reading
            return f"  {who}: {L['plays']} {show_play(a.play, self.lang, self.ascii)}"
        # The match's own history holds every tribute card: None is only a hidden card.
        cards = show_cards(a.cards, self.ascii) if self.visible(a) and a.cards is not None else "?"
        verb = L["gives_tribute"] if a.action == "give_tribute" else L["returns"]
        to = f" {L['to']} {self.name(a.to)}" if a.to is not None else ""
        return f"  {who}: {verb} {cards}{to}"

    def end_of_hand(self) -> None:
        m = self.match
        self.echo_final()
        r = m.results[-1]
        self.wins[r.winner] += 1
        L = self.L
        self.say(f"-- {L['hand_over']}: " + ", ".join(
            f"{L['places'][i]} {self.name(s)}" for i, s in enumerate(r.places)))
        lv = " / ".join(f"{self.team_label(t)} {_RANKS[r.levels[t] - 2]}" for t in (0, 1))
        self.say(f"-- {L['levels']}: {lv}")
        if m.is_over:
            assert m.winner is not None  # an over match has a winner
            self.say(f"*** {self.team_label(m.winner)} {L['won_match']} ***")

    def echo_final(self) -> None:
        m = self.match
        idx = len(m.results) - 1
        items = [a for h, a in m.history if h == idx]
        for a in items[self.shown:]:
            self.say(self.describe(a))
        self.shown = 0

    def show_table(self, view: GameView) -> None:
        L = self.L
        sizes = "  ".join(f"{self.name(s)}: {view.hand_sizes[s]} {L['cards_left']}"
                          for s in range(4) if s != self.seat)
        self.say(f"  {sizes}")
        pile, owner = view.pile, view.pile_owner
        self.say(f"  {L['pile']}: " + (f"{show_play(pile, self.lang, self.ascii)} ({self.name(owner)})"
                                      if pile and owner is not None else L["empty"]))
        cards = list(view.hand)
        shown = "  ".join(f"{i + 1}:{c.ascii() if self.ascii else str(c)}" for i, c in enumerate(cards))
        self.say(f"  {L['your_hand']} ({len(cards)}): {shown}")

    def human_turn(self) -> bool:
        game = self.match.game
        view = game.view(self.seat)
        L = self.L
        if view.tribute_step is not None:
            return self.human_tribute(view)
        self.show_table(view)
        self.tip = None
        action: Callable[[], object]
        while True:
            line = self.read(L["turn"]).strip()
            if line.lower() in ("q", "quit", "exit"):
                return False
            if line in ("?", "help"):
                self.say(L["help"])
                continue
            if line.lower() in ("p", "pass", "过", "过牌"):
                action = lambda: self.match.pass_turn(seat=self.seat)
            elif line.lower() in ("h", "hint", "提示"):
                if not self.hints:
                    self.say("hints are off")
                    continue
                self.say(f"  {L['hint']}: {hint(view)}")
                continue
            elif line.lower() in ("t", "tip"):
                if self.tip is None:
                    self.tip = TipButton(view)
                self.tip_play = self.tip.press()
                self.say(f"  {L['tip']}: " + (show_play(self.tip_play, self.lang, self.ascii)
                                             if self.tip_play else L["nothing"]))
                continue
            elif line.lower() in ("y", "yes") and self.tip_play is not None:
                play = self.tip_play
                action = lambda: self.match.play(play, seat=self.seat)
            elif line.lower() in ("m", "moves"):
                plays = view.legal_plays
                for p in TipButton(view)._plays[:40]:
                    self.say(f"    {show_play(p, self.lang, self.ascii)}")
                self.say(f"  ({len(plays)})")
                continue
            elif not line:
                continue
            else:
                try:
                    cards = self.parse_cards(line, view)
                except ValueError as e:
                    self.say(f"  {L['refused']}: {e}")
                    continue
                action = lambda: self.match.play(cards, seat=self.seat)
            try:
                action()
                return True
            except IllegalActionError as e:
                msg = _ERRORS_ZH.get(e.reason, str(e)) if self.lang == "zh" else str(e)
                self.say(f"  {L['refused']}: {msg} ({e.reason})")

    def parse_cards(self, line: str, view: GameView) -> Cards:
        words = line.replace(",", " ").split()
        if all(w.isdigit() for w in words):
            cards = list(view.hand)
            idx = [int(w) - 1 for w in words]
            if any(not 0 <= i < len(cards) for i in idx) or len(set(idx)) != len(idx):
                raise ValueError(f"numbers must be distinct, 1..{len(cards)}")
            return Cards.from_ids([int(cards[i]) for i in idx])
        return Cards.parse(line)

    def human_tribute(self, view: GameView) -> bool:
        L = self.L
        give = view.tribute_step == "give"
        cands = (tribute_candidates if give else return_candidates)(view.hand, view.level, view.config)
        self.show_table(view)
        self.say(f"  {L['must_give'] if give else L['must_return']}: "
                 + " ".join(show_cards(Cards.from_ids([c]), self.ascii) for c in cands))
        while True:
            line = self.read(f"{L['tribute'] if give else L['return']}> ").strip()
            if line.lower() in ("q", "quit"):
                return False
            if line.lower() in ("h", "hint", "提示"):
                self.say(f"  {L['hint']}: {hint(view)}")
                continue
            if not line:
                continue
            try:
                if line.lower() in ("t", "y", "tip"):
                    # The tip / yes keys give the suggested card at once.
                    tip = hint(view).cards
                    assert isinstance(tip, int)  # a tribute hint names one card id
                    self.say(f"  {L['tip']}: {show_cards(Cards.from_ids([tip]), self.ascii)}")
                    card: object = tip
                else:
                    card = self.parse_cards(line, view)
                if give:
                    self.match.give_tribute(card, seat=self.seat)
                else:
                    self.match.return_tribute(card, seat=self.seat)
                return True
            except ValueError as e:
                self.say(f"  {L['refused']}: {e}")


def run_play(args: argparse.Namespace) -> int:
    levels = list(getattr(args, "bots", None) or ["L2"])
    if len(levels) == 1:
        levels = levels * 3
    if len(levels) != 3:
        raise GuandanError("--bots: give one level for all three bots, or three (partner and "
                           "opponents in seat order)")
    for lv in levels:
        make_bot(lv)
    seat = getattr(args, "seat", 0)
    if not 0 <= seat <= 3:
        raise GuandanError("--seat must be 0..3")
    lang = getattr(args, "lang", None) or default_lang()
    session = TrainingSession(seed=getattr(args, "seed", None), levels=levels, seat=seat,
                              lang=lang, ascii_=bool(getattr(args, "ascii", False)),
                              save=getattr(args, "save", None), hints=getattr(args, "hints", True))
    return session.run()


# ---------------------------------------------------------------- replay

def is_guandan_replay(path: Path) -> bool:
    try:
        with open(path, "rb") as f:
            head = f.read(4096)
    except OSError:
        return False
    return b'"tienlen.guandan.match"' in head


def run_replay(args: argparse.Namespace) -> int:
    path: Path = args.file
    data = path.read_bytes()
    try:
        match = Match.from_json(data)
    except ReplayError as e:
        raise GuandanError(f"{path}: {e}") from None
    lang = getattr(args, "lang", None) or default_lang()
    ascii_ = bool(getattr(args, "ascii", False))
    L = LABELS[lang]
    hand = -1
    for h, a in match.history:
        if h != hand:
            if hand >= 0:
                _print_result(match.results[hand], L)
            hand = h
            print(f"== {L['hand'].format(n=h + 1)} ==")
        if a.action == "pass":
            print(f"  seat {a.seat}: {L['passes']}")
        elif a.action == "play":
            assert a.play is not None  # a play action carries its reading
            print(f"  seat {a.seat}: {L['plays']} {show_play(a.play, lang, ascii_)}")
        else:
            assert a.cards is not None  # the match's own history shows every tribute card
            verb = L["gives_tribute"] if a.action == "give_tribute" else L["returns"]
            to = "" if a.to is None else f" {L['to']} seat {a.to}"
            print(f"  seat {a.seat}: {verb} {show_cards(a.cards, ascii_)}{to}")
        if getattr(args, "step", False):
            try:
                input()
            except EOFError:
                pass
    if 0 <= hand < len(match.results):
        _print_result(match.results[hand], L)
    if match.winner is not None:
        print(f"*** team {match.teams[match.winner]} {L['won_match']} ***")
    return 0


def _print_result(r: HandResult, L: Labels) -> None:
    print("-- " + ", ".join(f"{L['places'][i]} seat {s}" for i, s in enumerate(r.places))
          + f"; {L['levels']}: {_RANKS[r.levels[0] - 2]} / {_RANKS[r.levels[1] - 2]}")


# ---------------------------------------------------------------- sim

#: What ``sim --game guandan`` plays when given neither --matches nor --hands.
DEFAULT_SIM_MATCHES = 20
_DEFAULT_TEAMS = ("L2", "L1")
# Options of the Tiến Lên sim that mean nothing for the Guandan duplicate arena.
_TIENLEN_ONLY = (("games", "--games", ": give --matches N or --hands N"),
                 ("players", "--players", ": Guandan has four"),
                 ("scheduler", "--scheduler", ""), ("resume", "--resume", ""),
                 ("unit_games", "--unit-games", ""))


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
    known = {level.lower() for level in _bot_levels()}
    for level in levels:
        if level.lower() not in known:
            raise GuandanError(f"--bots: unknown Guandan level {level!r}; choose from "
                               f"{', '.join(_bot_levels())}")
    iterations = getattr(args, "iterations", None)
    if iterations is not None and not any(level.lower() == "l3" for level in levels):
        raise GuandanError("--iterations sets L3's search, and no team is L3")
    specs: list[TeamSpec] = [functools.partial(make_bot, "L3", iterations=iterations)
                           if iterations is not None and level.lower() == "l3" else level
                           for level in levels]
    return levels, specs


def _bot_levels() -> tuple[str, ...]:
    from .bots import LEVELS

    return LEVELS


def run_sim(args: argparse.Namespace) -> int:
    """``tienlen sim --game guandan``: the duplicate arena (:mod:`tienlen.guandan.arena`)
    with a progress bar, then the results table; Ctrl-C prints the completed boards'
    results and returns 130."""
    import time

    from ..tui.sim_view import EXIT_INTERRUPTED, progress_bar
    from ..tui.terminal import Terminal
    from . import arena

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
    assert games is not None
    if games % 2:
        raise GuandanError(f"--{'matches' if matches is not None else 'hands'} must be even: "
                           f"each board is played twice, the teams swapping seats; got {games}")
    hand_cap = getattr(args, "hand_cap", None) or arena.DEFAULT_HAND_CAP
    seed = args.seed if args.seed is not None else 0
    json_path: Path | None = getattr(args, "json", None)
    if json_path is not None:
        from ..cli import _writable_file

        _writable_file(json_path, "--json")
    mode: arena.Mode = "match" if matches is not None else "hand"
    writer = None
    if getattr(args, "out", None) is not None:
        if Path(args.out).suffix != ".jsonl":
            raise GuandanError(f"--out {args.out}: the Guandan sim writes JSON lines: name a "
                               ".jsonl file")
        # Checked before the file is made: a bad request leaves no file behind.
        arena.check_request(specs[0], specs[1], matches=matches, hands=hands, seed=seed,
                            jobs=args.jobs, hand_cap=hand_cap)
        writer = arena.GamesWriter(args.out, teams=[arena.team_name(s) for s in specs],
                                   mode=mode, seed=seed, hand_cap=hand_cap, games=games)
    terminal = Terminal()
    progress = progress_bar(terminal)
    task = progress.add_task(" vs ".join(f"{lv}+{lv}" for lv in levels), total=games)

    def advance(done: int, total: int) -> None:
        progress.update(task, completed=done, total=total)

    start = time.perf_counter()
    interrupted = False
    result: arena.DuplicateResult | None
    try:
        with progress:
            result = arena.run(specs[0], specs[1], matches=matches, hands=hands,
                               seed=seed, jobs=args.jobs, hand_cap=hand_cap,
                               progress=advance,
                               on_unit=writer.write if writer is not None else None)
    except arena.DuplicateInterrupted as stop:
        interrupted, result = True, stop.result
    finally:
        if writer is not None:
            writer.close()
    seconds = time.perf_counter() - start
    if interrupted:
        played = 0 if result is None else result.games
        print(f"Interrupted: {played} of {games} games played in complete boards (both "
              "seatings); the results below are theirs.")
    if result is not None:
        print(sim_table(result, levels, seconds))
    if writer is not None:
        print(f"Games written to {writer.path}")
    if interrupted:
        if json_path is not None:
            print(f"{json_path} not written: the run did not finish.")
        return EXIT_INTERRUPTED
    assert result is not None
    if json_path is not None:
        record = {**result.to_json(), "lineup": levels, "jobs": args.jobs,
                  "iterations": getattr(args, "iterations", None), "seconds": seconds}
        try:
            json_path.write_text(json.dumps(record, indent=2) + "\n", encoding="utf-8")
        except OSError as error:
            raise GuandanError(f"cannot write {json_path}: {error.strerror or error}") from None
        print(f"Results written to {json_path}")
    return 0


def sim_table(result: DuplicateResult, levels: Sequence[str], seconds: float) -> str:
    """The results of ``sim --game guandan``: how seats were assigned, the table and the
    paired comparisons."""
    a, b = levels
    return (f"Guandan duplicate: team A = {a}+{a}, team B = {b}+{b}; each board is played "
            f"twice, A in seats 0 and 2, then in 1 and 3 ({seconds:.1f} s)\n"
            + result.table())
