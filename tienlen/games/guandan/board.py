"""Guandan's board: the rich renderables of the training mode (the table of four seats, the
hand sorted by the level's order, the end of a hand), and the game's plug-in for the one
terminal session (:class:`GuandanBoard`, a :class:`tienlen.table.board.Board`), which
``tienlen play --game guandan`` and ``tienlen replay`` reach through the game's spec.

Everything drawn comes from a :class:`~tienlen.games.guandan.game.GameView` (what the person may
know) and the match's public record (levels, results), in the words of
:mod:`tienlen.games.guandan.words`; nothing here decides a rule. A play is drawn in the
order players read it (:meth:`~tienlen.games.guandan.plays.Play.display_cards`). The drawing
primitives (the style, the numbered hand grid) come from :mod:`tienlen.table.board`, below
the games.

>>> from tienlen.guandan import Cards
>>> [str(c) for c in sorted_hand(Cards.parse("BJ 7h 2s As 7s SJ 3d"), 7)]   # level 7: 7♥ wild
['2♠', '3♦', 'A♠', '7♠', '7♥', '☆', '★']
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from tienlen.games.guandan.bots import Bot, make_bot
from tienlen.games.guandan.cards import Card, Cards
from tienlen.games.guandan.errors import GuandanError
from tienlen.games.guandan.game import (Action, Game, GameView, IllegalActionError, Tribute,
                                        return_candidates, single_value, tribute_candidates)
from tienlen.games.guandan.hints import TipButton, hint, tip_plays
from tienlen.games.guandan.match import (DEFAULT_MAX_HANDS, MAX_REPLAY_BYTES, HandResult, Match,
                                         ReplayError)
from tienlen.games.guandan.plays import Play
from tienlen.games.guandan.rules import RuleConfig
from tienlen.games.guandan.words import WORDS, Words, describe, rank_text
from tienlen.seeds import session_bot_seed
from tienlen.table.board import (BOARD_WIDTH, CommandKind, Moment, PlaySettings, ReplaySettings,
                                 Saved, Style, Suggestion, check_card_number, fill, input_tokens,
                                 numbered_grid)
from tienlen.table.fileio import read_limited

__all__ = ["SeatLabel", "MatchInfo", "sorted_hand", "card_text", "cards_text", "play_text",
           "team_style", "board", "transcript", "hand_end", "per_row", "panel_width",
           "seat_labels", "wild_of", "cards_from_input", "GuandanBoard"]

# ♥ and ♦ are the red suits (suits 1 and 3 in Guandan's order ♠ ♥ ♣ ♦).
_RED = (False, True, False, True)
#: The colours of the two teams: the person's side and the other.
TEAM_STYLES = ("bold cyan", "bold magenta")
_MIN_PER_ROW = 6


@dataclass(frozen=True, slots=True)
class SeatLabel:
    """How a seat is named on screen (``Partner (2)``), its bot level (None for the person)
    and whether it is on the person's team."""

    name: str
    level: str | None
    ours: bool
    is_you: bool = False


def seat_labels(you: int, teams: tuple[tuple[int, int], tuple[int, int]], words: Words,
                levels: Mapping[int, str], *, neutral: bool = False) -> list[SeatLabel]:
    """The four seats as the person sees them: You, the partner opposite, the opponent who
    plays after you (Right, 下家) and the one before (Left, 上家). ``neutral`` names every
    seat by number (a replay), ``you``'s team still drawn as the first team.

    >>> from tienlen.games.guandan.words import WORDS
    >>> [s.name for s in seat_labels(0, ((0, 2), (1, 3)), WORDS["en"], {1: "L1", 2: "L1", 3: "L1"})]
    ['You', 'Right (1)', 'Partner (2)', 'Left (3)']
    """
    mine = teams[0] if you in teams[0] else teams[1]
    partner = mine[1] if mine[0] == you else mine[0]
    out = []
    for seat in range(4):
        if neutral:
            out.append(SeatLabel(words.seat_n.format(n=seat), levels.get(seat), seat in mine))
            continue
        if seat == you:
            out.append(SeatLabel(words.you, None, True, True))
            continue
        base = (words.partner if seat == partner else
                words.right if seat == (you + 1) % 4 else words.left)
        out.append(SeatLabel(f"{base} ({seat})", levels.get(seat), seat in mine))
    return out


def team_style(ours: bool) -> str:
    return TEAM_STYLES[0 if ours else 1]


def wild_of(level: int, config: RuleConfig) -> int:
    """The wild card of ``level`` under ``config`` (-1 without wilds), as the core says."""
    return config.wild_card(level)


def sorted_hand(hand: Cards, level: int, wild_count: int = 2) -> list[Card]:
    """``hand`` in the level's order, weakest first: 2..A without the level rank, then the
    level cards (the wild ♥ copies last among them), then ☆ and ★. The numbers the person
    types refer to this order."""
    wild = wild_of(level, RuleConfig(wild_count=wild_count))
    return sorted(hand, key=lambda c: (single_value(int(c), level), int(c) == wild,
                                       c.suit or 0))


def card_text(card: Card, style: Style, wild: int = -1) -> Text:
    """One card: ♥ ♦ and ★ red, the wild card underlined."""
    label = card.ascii() if style.ascii else str(card)
    colour = "red" if (card.suit is not None and _RED[card.suit]) or int(card) == 53 else ""
    if int(card) == wild:
        colour = f"{colour} bold underline".strip()
    return Text(label, style=colour)


def cards_text(cards: Iterable[Card], style: Style, wild: int = -1) -> Text:
    return Text(" ").join(card_text(c, style, wild) for c in cards)


def play_text(play: Play, lang: str, style: Style) -> Text:
    """A play's cards in the order players read them and its reading, such as
    ``8♠ 8♣  pair of 8 · 对子`` or ``K♠ K♥ K♣ 2♠ 2♦  full house of K · 三带二``."""
    wild = wild_of(play.level, play.config)
    return (cards_text(play.display_cards(), style, wild)
            + Text(f"  {describe(play, lang, ascii=style.ascii)}", style="dim"))


def per_row(width: int, count: int) -> int:
    """Cards a row of a ``count``-card hand holds on a screen ``width`` columns wide (a card
    takes 4): as many as fit, spread evenly over the rows needed.

    >>> per_row(60, 27), per_row(100, 27), per_row(120, 27), per_row(60, 5)
    (14, 14, 27, 5)
    """
    fit = max(_MIN_PER_ROW, (min(width, BOARD_WIDTH + 40) - 1) // 4)
    rows = max(1, -(-count // fit))
    return max(1, -(-count // rows))


def panel_width(width: int) -> int:
    """The board's width on a screen ``width`` columns wide: the whole screen up to 40
    columns more than Tiến Lên's board, so that a long play with its reading, its owner
    and the tribute line (four seats' cards and returns) fit on one line each.

    >>> panel_width(60), panel_width(80), panel_width(100), panel_width(200)
    (60, 80, 100, 112)
    """
    return max(1, min(width, BOARD_WIDTH + 40))


@dataclass(frozen=True, slots=True)
class MatchInfo:
    """The match around the hand on screen: 1-based hand number, the seed, each team's
    level and hands won (team 0 is ``teams[0]``), the team whose level is played, and the
    teams' names ("Us", "Them" or, in a replay, by seats)."""

    hand_number: int
    seed: int
    levels: tuple[int, int]
    wins: tuple[int, int]
    declarer: int | None
    failed: tuple[int, int]
    failed_limit: int
    team_names: tuple[str, str]


def _team_index(view: GameView) -> int:
    return 0 if view.seat in view.teams[0] else 1


def _by_team(heading: str, view: GameView, info: MatchInfo,
             value: Callable[[int], str]) -> Text:
    """``heading: Us <value> · Them <value>``, the seat's own team first, in team colours."""
    ours = _team_index(view)
    line = Text(f"{heading}: ", style="bold")
    for team in (ours, 1 - ours):
        if team != ours:
            line.append(" · ")
        line.append(info.team_names[team], style=team_style(team == ours))
        line.append(value(team))
    return line


def _levels_lines(view: GameView, info: MatchInfo, words: Words, style: Style) -> list[Text]:
    limit = info.failed_limit or "-"

    def level(team: int) -> str:
        attempts = info.failed[team]
        tries = f" (过A {attempts}/{limit})" if info.levels[team] == 14 and attempts else ""
        return f" {rank_text(info.levels[team])}{tries}"

    line = _by_team(words.levels, view, info, level)
    names = info.team_names
    declarer = names[info.declarer] if info.declarer is not None else "+".join(names)
    line.append(f"   {words.playing.format(rank=rank_text(view.level), team=declarer)}")
    if view.config.wild_count:
        wild = wild_of(view.level, view.config)
        line.append(", " + words.wild.format(card=""))
        line.append_text(card_text(Card(wild), style, wild))
    return [line, _by_team(words.hands_won, view, info, lambda team: f" {info.wins[team]}")]


def _trick_cell(seat: int, view: GameView, trick: Mapping[int, Action], words: Words,
                style: Style, wild: int) -> Text:
    if seat in view.finished:
        place = words.places[view.finished.index(seat)]
        return Text(words.out_place.format(place=place), style="green")
    action = trick.get(seat)
    if view.phase == "tribute" and view.turn == seat:
        giving = any(t.receiver is None for t in view.tributes)
        return Text(words.tribute if giving else words.return_word, style="bold magenta")
    if action is None:
        return Text(words.to_play if view.turn == seat else style.dash,
                    style="bold" if view.turn == seat else "dim")
    if action.action == "pass":
        return Text(words.passed, style="italic yellow")
    assert action.play is not None  # a play action carries its reading
    return cards_text(action.play.display_cards(), style, wild)


def _returns_made(history: Sequence[Action]) -> set[tuple[int, int]]:
    """(receiver, payer) of every return made in ``history``: a view hides the card of a
    return between two other seats, never that it was made."""
    return {(a.seat, a.to) for a in history if a.action == "return_tribute" and a.to is not None}


def _jokers_shown(view: GameView) -> tuple[int, ...]:
    """The seat of each big joker shown to refuse tribute (G6.11), () if none was."""
    return () if view.anti_tribute is None else view.anti_tribute.jokers


def _tribute_line(tributes: Sequence[Tribute], anti: bool, seats: Sequence[SeatLabel],
                  words: Words, style: Style,
                  returned: Collection[tuple[int, int]] = (),
                  jokers: Sequence[int] = ()) -> Text | None:
    if anti:
        # who showed the big jokers (G6.11: ``jokers``, the view's anti_tribute.jokers)
        return Text(words.refused_tribute([seats[s].name for s in jokers]), style="yellow")
    if not tributes:
        return None
    line = Text(f"{words.tribute}: ", style="bold")
    arrow = "->" if style.ascii else "→"
    for i, t in enumerate(tributes):
        if i:
            line.append(" · ")
        # payer card -> receiver, then receiver card -> payer: "?" for what this seat may
        # not know (a card between two others, a receiver not yet fixed).
        to = seats[t.receiver].name if t.receiver is not None else "?"
        line.append(f"{seats[t.payer].name} ")
        line.append_text(card_text(Card(t.card), style) if t.card is not None else Text("?"))
        line.append(f" {arrow} {to}")
        if t.receiver is not None and (t.returned is not None
                                       or (t.receiver, t.payer) in returned):
            line.append(f", {to} ")
            line.append_text(card_text(Card(t.returned), style) if t.returned is not None
                             else Text("?"))
            line.append(f" {arrow} {seats[t.payer].name}")
    return line


def _pile_line(view: GameView, seats: Sequence[SeatLabel], words: Words, lang: str,
               style: Style) -> Text:
    line = Text(f"{words.table}  ", style="bold")
    if view.pile is None:
        line.append(words.empty, style="dim")
        if view.turn is not None and view.phase == "play":
            line.append("  " + words.to_lead.format(who=seats[view.turn].name))
    else:
        line.append_text(play_text(view.pile, lang, style))
        if view.pile_owner is not None:
            line.append("   " + words.played_by.format(who=seats[view.pile_owner].name),
                        style="dim")
    return line


def transcript(view: GameView, seats: Sequence[SeatLabel], info: MatchInfo, *, words: Words,
               lang: str, style: Style, trick: Mapping[int, Action],
               anti: bool = False) -> list[Text]:
    """The screen as a few plain lines, for a transcript (piped input): the hand, levels
    and score; each seat's cards left and action in this trick; the table; the tribute;
    the hand with its numbers. The same facts as :func:`board`, without the drawing."""
    wild = wild_of(view.level, view.config)
    head = Text(f"-- {words.title} {style.dash} {words.hand_n.format(n=info.hand_number)} "
                f"{style.dash} ", style="bold")
    levels, score = _levels_lines(view, info, words, style)
    head.append_text(levels).append(f" {style.dash} ").append_text(score)
    table = Text("   ")
    for seat in range(4):
        if seat:
            table.append(" | ")
        label = seats[seat]
        mark = style.arrow if view.turn == seat else ""
        table.append(f"{mark}{label.name}", style=team_style(label.ours))
        table.append(f" {view.hand_sizes[seat]}: ")
        table.append_text(_trick_cell(seat, view, trick, words, style, wild))
    lines = [head, table, Text("   ") + _pile_line(view, seats, words, lang, style)]
    tribute = _tribute_line(view.tributes, anti, seats, words, style,
                            _returns_made(view.history), _jokers_shown(view))
    if tribute is not None:
        lines.append(Text("   ") + tribute)
    hand = sorted_hand(view.hand, view.level, view.config.wild_count)
    mine = Text(f"   {words.your_hand} ({len(hand)}): ", style="bold")
    for number, card in enumerate(hand, start=1):
        mine.append(f" {number}:", style="dim").append_text(card_text(card, style, wild))
    lines.append(mine)
    return lines


# (the board's plug-in has a parameter of that name)
_transcript = transcript


def board(view: GameView, seats: Sequence[SeatLabel], info: MatchInfo, *, words: Words,
          lang: str, style: Style, trick: Mapping[int, Action], anti: bool = False,
          events: Sequence[Text] = (), footer: RenderableType | None = None,
          width: int = 80, marked: Iterable[int] = ()) -> RenderableType:
    """The whole screen for one moment of a hand, drawn for ``view.seat``: the panel (levels
    and score, the four seats with cards left and their action in this ``trick``, the table,
    the tribute), then the hand sorted by the level's order with its numbers."""
    wild = wild_of(view.level, view.config)
    table = Table(box=None, pad_edge=False, expand=False, padding=(0, 1),
                  header_style="bold dim")
    table.add_column("", width=1)
    table.add_column(words.col_player)
    table.add_column(words.col_bot)
    table.add_column(words.col_cards, justify="right")
    table.add_column(words.col_trick)
    for seat in range(4):
        label = seats[seat]
        mark = Text(style.arrow, style="bold cyan") if view.turn == seat else Text("")
        table.add_row(mark, Text(label.name, style=team_style(label.ours)), label.level or "",
                      str(view.hand_sizes[seat]),
                      _trick_cell(seat, view, trick, words, style, wild))
    pile_line = _pile_line(view, seats, words, lang, style)
    parts: list[RenderableType] = [*_levels_lines(view, info, words, style), table, pile_line]
    tribute = _tribute_line(view.tributes, anti, seats, words, style,
                            _returns_made(view.history), _jokers_shown(view))
    if tribute is not None:
        parts.append(tribute)
    if events:
        parts.append(Text(""))
        parts.extend(events)
    sep = "-" if style.ascii else "·"
    title = f" {sep} ".join([words.title, words.hand_n.format(n=info.hand_number),
                             f"seed {info.seed}"])
    panel = Panel(Group(*parts), title=title, title_align="left", box=style.box,
                  width=panel_width(width), padding=(0, 1), expand=True)
    hand = sorted_hand(view.hand, view.level, view.config.wild_count)
    heading = Text(words.your_hand, style="bold")
    heading.append(f" ({len(hand)})", style="dim")
    grid = numbered_grid([card_text(c, style, wild) for c in hand],
                         per_row=per_row(width, len(hand)), marked=set(marked))
    body: list[RenderableType] = [panel, heading, grid]
    if footer is not None:
        body.append(footer)
    return Group(*body)


def hand_end(result: HandResult, before: tuple[int, int], seats: Sequence[SeatLabel],
             team_names: tuple[str, str], ours: int, leftovers: Mapping[int, Cards],
             level: int, *, words: Words, style: Style, failed_limit: int) -> RenderableType:
    """The end of a hand: the places (头游 …), the cards still held (``leftovers`` by seat),
    each team's level
    before and after, and any 过A attempt (G7). ``team_names`` are by team index; ``ours``
    is the team drawn in the first colour and listed first."""
    names = team_names
    you_team = ours
    places = Table(title=words.hand_over.format(n=result.index + 1), box=style.box,
                   title_justify="left", title_style="bold")
    places.add_column(words.place_col)
    places.add_column(words.col_player)
    for place, seat in enumerate(result.places):
        label = seats[seat]
        places.add_row(words.places[place], Text(label.name, style=team_style(label.ours)))
    parts: list[RenderableType] = [places]
    for seat in result.places:
        if leftovers.get(seat):
            line = Text(words.left_holding.format(who=seats[seat].name, cards=""))
            line.append_text(cards_text(sorted_hand(leftovers[seat], level), style))
            parts.append(line)
    for team in (you_team, 1 - you_team):
        old, new = before[team], result.levels[team]
        if new == old:
            text = words.level_same.format(team=names[team], old=rank_text(old))
        else:
            gain = words.level_up.format(n=new - old) if new > old else words.level_reset
            text = words.level_change.format(team=names[team], old=rank_text(old),
                                             new=rank_text(new), gain=gain)
        parts.append(Text(text, style=team_style(team == you_team)))
    declarer = result.declarer
    if declarer is not None and result.level == 14:
        name = names[declarer]
        if result.match_won:
            parts.append(Text(words.pass_a.format(team=name), style="bold green"))
        elif result.levels[declarer] == 2 and before[declarer] == 14:
            parts.append(Text(words.reset_a.format(team=name, limit=failed_limit), style="bold red"))
        else:
            parts.append(Text(words.failed_a.format(team=name, n=result.failed_attempts[declarer],
                                                    limit=failed_limit or "-"), style="yellow"))
    if result.match_won:
        parts.append(Text(words.won_match.format(team=names[result.winner]),
                          style=f"{team_style(result.winner == you_team)} reverse"))
    return Group(*parts)


# ------------------------------------------------------------------ reading typed text


def cards_from_input(text: str, hand: Cards, level: int, wild_count: int = 2) -> Cards:
    """The cards named by ``text``: card names (``5h 10s SJ``) and/or 1-based positions in
    ``hand`` as drawn (sorted by the level's order). A number names one card once; a name
    may repeat (a hand holds two of each card). Whether the play is legal is the game's
    question. Bad input raises :class:`IllegalActionError` (INVALID_CARDS, CARD_NOT_FOUND).

    >>> hand = Cards.parse("5h 5h 3s Ks")                     # drawn as 3♠ 5♥ 5♥ K♠ at level 2
    >>> print(cards_from_input("2 3 4", hand, level=2), cards_from_input("5h 3s", hand, level=2))
    5♥ 5♥ K♠ 3♠ 5♥
    >>> cards_from_input("9", hand, level=2)
    Traceback (most recent call last):
    ...
    tienlen.errors.IllegalActionError: CARD_NOT_FOUND: there is no card 9: your hand has 4 cards, numbered 1-4
    """
    ordered = sorted_hand(hand, level, wild_count)
    ids: list[int] = []
    used: set[int] = set()
    for token in input_tokens(text):
        if isinstance(token, int):
            try:
                number = check_card_number(token, len(ordered))
            except ValueError as error:
                raise IllegalActionError("CARD_NOT_FOUND", str(error), "NO_SUCH_NUMBER") from None
            if number in used:
                raise IllegalActionError("INVALID_CARDS", f"card {number} is named twice",
                                         "NAMED_TWICE")
            used.add(number)
            ids.append(int(ordered[number - 1]))
        else:
            try:
                ids.append(int(Card.parse(token)))
            except ValueError as error:
                raise IllegalActionError("INVALID_CARDS", str(error), "BAD_CARDS") from None
    try:
        return Cards.from_ids(ids)
    except ValueError as error:  # a third copy of a card
        raise IllegalActionError("INVALID_CARDS", str(error), "BAD_CARDS") from None


def _numbers_of(play_cards: Iterable[Card], hand: Sequence[Card]) -> list[int]:
    """The 1-based positions in ``hand`` (as drawn) of the cards of a play."""
    numbers: list[int] = []
    for card in play_cards:
        number = next(i for i, c in enumerate(hand, start=1) if c == card and i not in numbers)
        numbers.append(number)
    return numbers


# ------------------------------------------------------------------ the session's plug-in

#: An action as the board hands it to the session: ``(kind, cards)``, where ``cards`` is a
#: :class:`Play` or :class:`Cards` for ``"play"``, a card id for a tribute step, None for
#: ``"pass"``; a replay's actions are the match's recorded :class:`Action` records.
GuandanAction = tuple[str, object]
_PASS: GuandanAction = ("pass", None)
# The training mode's own words for the session's commands: the 提示 button, 过牌, 出牌.
_COMMANDS: dict[str, CommandKind] = {
    "t": "tip", "tip": "tip", "提示": "tip",
    "过": "pass", "过牌": "pass", "不要": "pass",
    "出牌": "yes", "play": "yes",
    "记牌器": "tracker",
}


class GuandanBoard:
    """Guandan on the one terminal session (:class:`tienlen.table.board.Board`): the
    training mode, the person with an AI partner against two AIs (:meth:`play`), or a
    saved match shown action by action from seat 0's side (:meth:`replay`). The person's
    own commands are the 提示 button (``t``, :meth:`tip`) and the tribute steps, played
    as turns of their own (:meth:`prompt`, :meth:`situation`, :meth:`parse`)."""

    log_lines = 8
    confirm_pick = False
    soft_wrap = True
    commands: Mapping[str, CommandKind] = _COMMANDS

    def __init__(self, match: Match, *, style: Style, lang: str = "en", you: int | None = 0,
                 bots: Mapping[int, Bot] | None = None, save: Path | None = None,
                 record: Sequence[Action] | None = None) -> None:
        if lang not in WORDS:
            raise ValueError(f"--lang must be one of {', '.join(WORDS)}; got {lang!r}")
        self.match = match
        self.style = style
        self.lang = lang
        self.words: Words = WORDS[lang]
        self.players = 4
        self.you = you
        # The seat the screen is drawn for: the person's, or seat 0 in a replay.
        self.viewer = 0 if you is None else you
        self.bots = dict(bots or {})
        self.save_to = save
        self._record = record
        levels = {s: b.name for s, b in self.bots.items()}
        self.seats: list[SeatLabel] = seat_labels(self.viewer, match.teams, self.words, levels,
                                                  neutral=record is not None)
        self.trick: dict[int, Action] = {}
        self.tip_button: TipButton | None = None
        self.tip_presses = 0
        # Levels and 过A attempts as the hand on screen began (the match settles them at
        # its end, before the end-of-hand screen is drawn).
        self.levels_before = match.levels
        self.failed_before = match.failed_attempts
        # The hand on screen: kept when the match deals the next one as this one ends.
        self.hand = match.game

    # ------------------------------------------------------------------ making one

    @classmethod
    def play(cls, settings: PlaySettings) -> GuandanBoard:
        """The training mode: the person at ``settings.seat``, the three AIs of
        ``settings.levels`` in seat order (options: ``config``, ``max_hands``)."""
        if not 0 <= settings.seat <= 3:
            raise ValueError(f"--seat must be 0..3; got {settings.seat}")
        if len(settings.levels) != 3:
            raise ValueError("--bots: give one level for all three AIs, or three (partner and "
                             "opponents in seat order)")
        if settings.lang not in WORDS:
            raise ValueError(f"--lang must be one of {', '.join(WORDS)}; got {settings.lang!r}")
        options = settings.options
        config = options.get("config") or RuleConfig()
        assert isinstance(config, RuleConfig)
        max_hands = int(options.get("max_hands") or DEFAULT_MAX_HANDS)
        match = Match(settings.seed, config, max_hands=max_hands)
        bots: dict[int, Bot] = {}
        others = [s for s in range(4) if s != settings.seat]
        for seat, level in zip(others, settings.levels):
            extra = ({"iterations": settings.iterations}
                     if settings.iterations is not None and level.lower() == "l3" else {})
            try:
                bots[seat] = make_bot(level, seed=session_bot_seed(match.seed, seat), **extra)
            except TypeError:  # a bot without the iterations option
                raise ValueError("--iterations is not supported by this version's L3") from None
        return cls(match, style=settings.style, lang=settings.lang, you=settings.seat,
                   bots=bots, save=settings.save)

    @classmethod
    def replay(cls, path: Path, settings: ReplaySettings) -> GuandanBoard:
        """The match saved in ``path``: every action re-checked on load (a tampered file is
        refused, naming the first bad action), then shown as the training mode shows it."""
        try:
            # The shared reader, at this format's limit: at most that much is read, so a
            # huge file or /dev/zero is refused instead of filling memory.
            data = read_limited(path, MAX_REPLAY_BYTES, ReplayError)
        except OSError as error:
            raise GuandanError(f"cannot read {path}: {error.strerror or error}") from None
        except ReplayError as error:
            raise GuandanError(f"{path}: {error}") from None
        try:
            recorded = Match.from_json(data)
        except ReplayError as error:
            raise GuandanError(f"{path}: {error}") from None
        return cls.replay_of(recorded, settings)

    @classmethod
    def replay_of(cls, recorded: Match, settings: ReplaySettings) -> GuandanBoard:
        """A match (already verified, as :meth:`Match.from_json` does) replayed on a fresh
        match with the same seed and rules, every seat from the record."""
        match = Match(recorded.seed, recorded.config, max_hands=recorded.max_hands)
        return cls(match, style=settings.style, lang=settings.lang, you=None,
                   record=[action for _, action in recorded.history])

    # ------------------------------------------------------------------ helpers

    @property
    def you_team(self) -> int:
        return self.match.team_of(self.viewer)

    @property
    def team_names(self) -> tuple[str, str]:
        """The teams' names by team index: "Us" for the person's, or in a replay by seats."""
        words = self.words
        if self._record is not None:
            teams = self.match.teams
            return (words.team_n.format(a=teams[0][0], b=teams[0][1]),
                    words.team_n.format(a=teams[1][0], b=teams[1][1]))
        return (words.us, words.them) if self.you_team == 0 else (words.them, words.us)

    def _name(self, seat: int) -> str:
        return self.seats[seat].name

    def _says(self, seat: int, field: str) -> str:
        """The template ``field`` in the person's own form (You lead) or the third
        person's (Right (1) leads)."""
        return self.words.says(field, you=self.seats[seat].is_you)

    def _info(self, game: Game) -> MatchInfo:
        """The match around ``game``: the current hand, or the one just finished."""
        results = self.match.results
        wins = (sum(r.winner == 0 for r in results), sum(r.winner == 1 for r in results))
        if game.is_over:
            number, declarer = len(results), results[-1].declarer
        else:
            number, declarer = len(results) + 1, self.match.declarer
        return MatchInfo(number, self.match.seed, self.levels_before, wins, declarer,
                         self.failed_before, self.match.config.failed_attempts_limit,
                         self.team_names)

    def _view(self, game: Game) -> GameView:
        """What the screen shows: the viewer's view of the hand (a replay shows every
        tribute card: the record holds them all)."""
        view = game.view(self.viewer)
        if self._record is not None:
            # the view's history (receivers named once fixed), every card the record holds
            full = game.history
            shown = tuple(a if a.cards is not None else a._replace(cards=full[i].cards)
                          for i, a in enumerate(view.history))
            return replace(view, history=shown, tributes=game.tributes)
        return view

    def _hand_cards(self, view: GameView) -> list[Card]:
        return sorted_hand(view.hand, view.level, view.config.wild_count)

    def _cards(self, cards: Iterable[Card]) -> str:
        return " ".join(c.ascii() if self.style.ascii else str(c) for c in cards)

    # ------------------------------------------------------------------ the match

    def turn(self) -> int | None:
        return self.hand.turn

    def hand_over(self) -> bool:
        return self.hand.is_over

    def seat_view(self, seat: int) -> GameView:
        """``seat``'s own view of the hand now (the card tracker's)."""
        return self.match.game.view(seat)

    def review_source(self) -> Match:
        """The match whose last finished hand is reviewed
        (:meth:`tienlen.games.guandan.spec.GuandanSpec.read_record`)."""
        return self.match

    def match_over(self) -> bool:
        return self.match.is_over

    def start_hand(self) -> Sequence[Text]:
        game = self.hand = self.match.game
        self.trick.clear()
        self.tip_button = None
        self.levels_before = self.match.levels
        self.failed_before = self.match.failed_attempts
        number = len(self.match.results) + 1
        lines = [Text(self.words.ev_hand_starts.format(n=number, rank=rank_text(game.level)),
                      style="bold")]
        shown = _jokers_shown(self._view(game))
        if shown:
            lines.append(Text(self.words.refused_tribute([self._name(s) for s in shown]),
                              style="yellow"))
        return lines

    def deal_next(self) -> None:
        """Nothing: the match deals the next hand inside the action that ends one (its
        tribute is judged on the new deal)."""

    def hand_end(self) -> Sequence[RenderableType]:
        match, words, game = self.match, self.words, self.hand
        result = match.results[-1]
        leftovers = {seat: game.hand(seat) for seat in range(4)}
        parts: list[RenderableType] = [hand_end(
            result, self.levels_before, self.seats, self.team_names, self.you_team, leftovers,
            game.level, words=words, style=self.style,
            failed_limit=match.config.failed_attempts_limit)]
        wins, names, ours = self._info(game).wins, self.team_names, self.you_team
        score = f"{names[ours]} {wins[ours]} · {names[1 - ours]} {wins[1 - ours]}"
        parts.append(Text(words.match_after.format(n=len(match.results), score=score),
                          style="bold"))
        if match.capped:
            parts.append(Text(words.match_capped.format(n=len(match.results)),
                              style="bold yellow"))
        return parts

    def record(self) -> Iterable[object]:
        return self._record or ()

    # ------------------------------------------------------------------ acts

    def bot_action(self, seat: int) -> object:
        return self.bots[seat].decide(self.hand.view(seat))

    def apply(self, seat: int, action: object) -> Sequence[Text]:
        """Act for ``seat`` through the match (which refuses illegal actions, changing
        nothing) and word what happened."""
        cards: object
        if isinstance(action, Action):          # a recorded action (replays)
            seat = action.seat
            if action.action == "play":
                kind, cards = "play", action.play
            elif action.action == "pass":
                kind, cards = "pass", None
            else:
                assert action.cards is not None  # the match's own record shows every card
                kind, cards = action.action, action.cards.ids[0]
        elif isinstance(action, Play):
            kind, cards = "play", action
        else:
            assert isinstance(action, tuple) and len(action) == 2
            kind, cards = action
        game = self.match.game
        had_pile = game.pile is not None
        owner = game.pile_owner
        if kind == "play" and not had_pile:
            self.trick.clear()  # a lead starts a new trick
        done = self.match.act(kind, cards, seat)
        self.hand = game
        self.tip_button = None
        if done.action in ("play", "pass"):
            self.trick[seat] = done
        return self._log(game, done, had_pile, owner)

    def _log(self, game: Game, action: Action, had_pile: bool, owner: int | None) -> list[Text]:
        words, seat = self.words, action.seat
        name = self._name(seat)
        lines: list[Text] = []
        if action.action == "pass":
            lines.append(Text(self._says(seat, "ev_pass").format(who=name), style="italic"))
        elif action.action == "play":
            assert action.play is not None  # a play action carries its reading
            verb = self._says(seat, "ev_play" if had_pile else "ev_lead")
            lines.append(Text(verb.format(who=name)) + play_text(action.play, self.lang,
                                                                  self.style))
            if seat in game.finished:
                place = words.places[game.finished.index(seat)]
                lines.append(Text(self._says(seat, "ev_out").format(who=name, place=place),
                                  style="green"))
        else:
            # What the viewer may see of an exchange is what its view shows (G6.11).
            view = self._view(game)
            seen = view.history[-1]
            verb = "ev_gives" if action.action == "give_tribute" else "ev_returns"
            if seen.action == "give_tribute" and seen.to is not None and seen.cards is not None:
                verb = "ev_gives_to"
            to = self._name(seen.to) if seen.to is not None else "?"
            if seen.cards is not None:
                template = self._says(seat, verb)
                card = self._cards(seen.cards)
            else:
                template, card = str(getattr(words, f"{verb}_hidden")), ""
            lines.append(Text(template.format(who=name, to=to, card=card), style="magenta"))
            if action.action == "give_tribute" and seen.to is not None:
                # the last tribute given fixes the receivers (G6.5): the earlier ones of a
                # double tribute, logged face down or without a receiver, now go public
                for a in view.history[:-1]:
                    if a.action == "give_tribute" and a.cards is not None and a.to is not None:
                        lines.append(Text(self._says(a.seat, "ev_tribute_goes").format(
                            who=self._name(a.seat), card=self._cards(a.cards),
                            to=self._name(a.to)), style="magenta"))
        if game.is_over or game.phase != "play":
            return lines
        if had_pile and game.pile is None:
            leader = game.turn
            assert leader is not None
            jiefeng = owner is not None and owner in game.finished and leader == game.partner(owner)
            text = self._says(leader, "ev_jiefeng" if jiefeng else "ev_cleared")
            lines.append(Text(text.format(who=self._name(leader)), style="cyan"))
        return lines

    def pass_action(self) -> object:
        return _PASS

    def can_pass(self, seat: int) -> bool:
        return self.hand.view(seat).can_pass

    def _tribute(self, view: GameView) -> tuple[str, list[int]] | None:
        """The tribute step the seat owes (its action's kind and the cards allowed)."""
        if view.tribute_step is None:
            return None
        give = view.tribute_step == "give"
        faces = (tribute_candidates if give else return_candidates)(
            view.hand, view.level, view.config)
        return ("give_tribute" if give else "return_tribute"), list(faces)

    def actions(self, seat: int) -> Sequence[object]:
        view = self.hand.view(seat)
        step = self._tribute(view)
        if step is not None:
            return [(step[0], face) for face in step[1]]
        return tip_plays(view)

    def parse(self, text: str, seat: int) -> object:
        view = self.hand.view(seat)
        cards = cards_from_input(text, view.hand, view.level, view.config.wild_count)
        step = self._tribute(view)
        if step is not None:
            if len(cards) != 1:
                raise IllegalActionError("INVALID_TRIBUTE", "name exactly one card", "ONE_CARD")
            return step[0], int(next(iter(cards)))
        if not cards:
            raise IllegalActionError("INVALID_CARDS", self.words.no_cards_named, "NO_CARDS")
        return "play", cards

    def hint(self, seat: int) -> Suggestion:
        """The best action (the L3 search's), with its reason in the board's language."""
        words, style = self.words, self.style
        view = self.hand.view(seat)
        advice = hint(view)
        why = style.words(advice.reason_in(self.lang))
        step = self._tribute(view)
        if step is not None:
            assert isinstance(advice.cards, int)  # a tribute hint names one card
            text = Text(f"{words.hint}: ", style="bold magenta")
            text.append_text(card_text(Card(advice.cards), style))
            text.append(f" {style.dash} {why}. {words.accept_give}")
            return Suggestion((step[0], advice.cards), (text,))
        play = advice.cards if isinstance(advice.cards, Play) else None
        return self._suggest(view, words.hint, play, why)

    def tip(self, seat: int) -> Suggestion:
        """The 提示 button: the next play that beats the table, weakest first, round again
        (in a tribute step, the hint's card)."""
        words = self.words
        view = self.hand.view(seat)
        if view.tribute_step is not None:
            return self.hint(seat)
        if self.tip_button is None:
            self.tip_button = TipButton(view)
            self.tip_presses = 0
        play = self.tip_button.press()
        if play is None:
            return Suggestion(_PASS if view.can_pass else None,
                              (Text(words.tip_none, style="magenta"),))
        self.tip_presses += 1
        index = (self.tip_presses - 1) % len(self.tip_button) + 1
        return self._suggest(view, words.tip.format(i=index, n=len(self.tip_button)), play, None)

    def _suggest(self, view: GameView, label: str, play: Play | None,
                 reason: str | None) -> Suggestion:
        """A suggested play (None: pass) with its cards' numbers under the hand."""
        words = self.words
        text = Text(f"{label}: ", style="bold magenta")
        numbers: list[int] = []
        if play is None:
            text.append(words.pass_word, style="bold")
        else:
            numbers = _numbers_of(play.display_cards(), self._hand_cards(view))
            text.append_text(play_text(play, self.lang, self.style))
            text.append(f"  [{' '.join(str(n) for n in numbers)}]", style="dim")
        if reason is not None:
            text.append(f" {self.style.dash} {reason}")
        text.append(f"  {words.accept}", style="dim")
        return Suggestion(_PASS if play is None else play, (text,), tuple(numbers))

    def save(self, moment: Moment) -> Saved | None:
        """The match so far (a match replay re-checks every action on load): at the end of
        each hand silently, said when the session ends."""
        if self.save_to is None:
            return None
        return Saved(self.save_to, self.match.to_json(indent=1), announce=moment == "leave")

    # ------------------------------------------------------------------ drawing

    def screen(self, *, events: Sequence[Text], footer: RenderableType | None,
               marked: Collection[int], width: int, transcript: bool,
               reveal: bool) -> RenderableType:
        game = self.hand
        view = self._view(game)
        info = self._info(game)
        if transcript:
            # A transcript gets the facts as plain lines rather than the drawn table.
            lines: list[RenderableType] = [*_transcript(
                view, self.seats, info, words=self.words, lang=self.lang, style=self.style,
                trick=self.trick, anti=game.anti_tribute)]
            if footer is not None:
                lines.append(footer)
            return Group(*lines)
        return board(view, self.seats, info, words=self.words, lang=self.lang,
                     style=self.style, trick=self.trick, anti=game.anti_tribute,
                     events=events, footer=footer, width=width, marked=marked)

    def situation(self, seat: int) -> Text:
        """One line above the prompt saying what the person may do now."""
        words, style = self.words, self.style
        view = self.hand.view(seat)
        step = self._tribute(view)
        if step is not None:
            shown = Text(" ").join(card_text(Card(c), style) for c in step[1])
            if step[0] == "give_tribute":
                template, who = words.must_give, ""
            else:
                payer = next(t.payer for t in view.tributes
                             if t.receiver == seat and t.returned is None)
                template, who = words.must_return, self._name(payer)
            return fill(template, "bold cyan", who=who, cards=shown)
        if view.pile is None:
            text = Text(words.turn_lead, style="bold cyan")
        else:
            template = words.turn_beat if view.legal_plays else words.turn_nothing
            text = Text(template.format(pile=self._cards(view.pile.display_cards())),
                        style="bold cyan")
        text.append("  " + words.turn_help, style="dim")
        return text

    def prompt(self, seat: int) -> str:
        step = self.hand.view(seat).tribute_step
        if step is None:
            return self.words.prompt_move
        return self.words.prompt_tribute if step == "give" else self.words.prompt_return

    def empty_line(self, seat: int) -> str:
        view = self.hand.view(seat)
        if view.tribute_step is not None:
            return self.words.empty_tribute
        return self.words.empty_lead if view.pile is None else self.words.empty_beat

    def listing_title(self, seat: int, count: int) -> str:
        tribute = self.hand.view(seat).tribute_step is not None
        template = self.words.tribute_title if tribute else self.words.moves_title
        return template.format(n=count, s="" if count == 1 else "s")

    def action_text(self, action: object) -> Text:
        if isinstance(action, Play):
            return play_text(action, self.lang, self.style)
        assert isinstance(action, tuple)
        kind, cards = action
        if isinstance(cards, Play):
            return play_text(cards, self.lang, self.style)
        if isinstance(cards, int):
            return card_text(Card(cards), self.style)
        return Text(self.words.pass_word)

    def refusal(self, error: ValueError) -> str:
        """A refusal with its G8 code, in the board's language; nothing was changed."""
        return f"{self.words.refused}: {self.words.refusal(error)}"
