"""Rich renderables for the Guandan training mode: the table of four seats, the hand sorted
by the level's order, the end of a hand.

Everything drawn comes from a :class:`~tienlen.games.guandan.game.GameView` (what the person may
know) and the match's public record (levels, results); nothing here decides a rule. The
pieces shared with Tiến Lên's screen (the style, the numbered hand grid, the terminal) come
from :mod:`tienlen.tui.common` and :mod:`tienlen.tui.terminal`.

>>> from tienlen.guandan import Cards
>>> [str(c) for c in sorted_hand(Cards.parse("BJ 7h 2s As 7s SJ 3d"), 7)]   # level 7: 7♥ wild
['2♠', '3♦', 'A♠', '7♠', '7♥', '☆', '★']
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass

from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from tienlen.games.guandan.cards import Card, Cards
from tienlen.games.guandan.game import Action, GameView, Tribute, single_value
from tienlen.games.guandan.match import HandResult
from tienlen.games.guandan.plays import Play
from tienlen.games.guandan.words import Words, describe, rank_text
from tienlen.tui.common import BOARD_WIDTH, Style, numbered_grid

__all__ = ["SeatLabel", "MatchInfo", "sorted_hand", "card_text", "cards_text", "play_text",
           "team_style", "board", "transcript", "hand_end", "per_row", "panel_width",
           "seat_labels"]

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


def sorted_hand(hand: Cards, level: int, wild_count: int = 2) -> list[Card]:
    """``hand`` in the level's order, weakest first: 2..A without the level rank, then the
    level cards (the wild ♥ copies last among them), then ☆ and ★. The numbers the person
    types refer to this order."""
    wild = -1 if wild_count == 0 else (level - 2) * 4 + 1
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
    """A play's cards and its reading, such as ``8♠ 8♣  pair of 8 · 对子``."""
    wild = -1 if play.config.wild_count == 0 else (play.level - 2) * 4 + 1
    shown = sorted_hand(play.cards, play.level, play.config.wild_count)
    return cards_text(shown, style, wild) + Text(f"  {describe(play, lang)}", style="dim")


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
        wild = (view.level - 2) * 4 + 1
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
    return cards_text(sorted_hand(action.play.cards, view.level, view.config.wild_count),
                      style, wild)


def _returns_made(history: Sequence[Action]) -> set[tuple[int, int]]:
    """(receiver, payer) of every return made in ``history``: a view hides the card of a
    return between two other seats, never that it was made."""
    return {(a.seat, a.to) for a in history if a.action == "return_tribute" and a.to is not None}


def _tribute_line(tributes: Sequence[Tribute], anti: bool, seats: Sequence[SeatLabel],
                  words: Words, style: Style,
                  returned: Collection[tuple[int, int]] = ()) -> Text | None:
    if anti:
        return Text(words.anti, style="yellow")
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
    wild = -1 if view.config.wild_count == 0 else (view.level - 2) * 4 + 1
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
                            _returns_made(view.history))
    if tribute is not None:
        lines.append(Text("   ") + tribute)
    hand = sorted_hand(view.hand, view.level, view.config.wild_count)
    mine = Text(f"   {words.your_hand} ({len(hand)}): ", style="bold")
    for number, card in enumerate(hand, start=1):
        mine.append(f" {number}:", style="dim").append_text(card_text(card, style, wild))
    lines.append(mine)
    return lines


def board(view: GameView, seats: Sequence[SeatLabel], info: MatchInfo, *, words: Words,
          lang: str, style: Style, trick: Mapping[int, Action], anti: bool = False,
          events: Sequence[Text] = (), footer: RenderableType | None = None,
          width: int = 80, marked: Iterable[int] = ()) -> RenderableType:
    """The whole screen for one moment of a hand, drawn for ``view.seat``: the panel (levels
    and score, the four seats with cards left and their action in this ``trick``, the table,
    the tribute), then the hand sorted by the level's order with its numbers."""
    wild = -1 if view.config.wild_count == 0 else (view.level - 2) * 4 + 1
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
                            _returns_made(view.history))
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
