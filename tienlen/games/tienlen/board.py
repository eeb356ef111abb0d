"""Rich renderables for a hand in progress: the board that ``play`` and ``replay`` share.

Everything here draws what a :class:`~tienlen.games.tienlen.view.View` (or, in a replay, the recorded
game) already says. Nothing here decides a rule: whose turn it is, who is locked out and
who has finished all come from the engine.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from tienlen.games.tienlen.cards import Card, Cards
from tienlen.tui.common import BOARD_WIDTH, Style, numbered_grid
from tienlen.games.tienlen.plays import Combo
from tienlen.games.tienlen.actions import Action
from tienlen.games.tienlen.refusals import SEAT_FIELDS, Wording, seat_words
from tienlen.games.tienlen.view import View

__all__ = [
    "SeatInfo",
    "Style",
    "card_text",
    "cards_text",
    "combo_text",
    "prose_text",
    "ordinal",
    "board",
    "hand_grid",
    "numbered_grid",
    "finishing_table",
    "scoreboard",
    "action_text",
]

# ♦ and ♥ are the red suits; ♠ and ♣ stay in the terminal's own colour.
_SUIT_STYLE = ("", "", "red", "red")
@dataclass(frozen=True, slots=True)
class SeatInfo:
    """Who sits in a seat: a name, a bot level (``None`` for a person) and whether the
    screen is drawn for them."""

    name: str
    level: str | None = None
    is_you: bool = False


def ordinal(place: int) -> str:
    """``1`` -> ``"1st"``."""
    suffix = {1: "st", 2: "nd", 3: "rd"}.get(place if place < 20 else place % 10, "th")
    return f"{place}{suffix}"


def card_text(card: Card, style: Style) -> Text:
    """One card, its suit coloured (red for ♦ ♥)."""
    label = f"{card:a}" if style.ascii else str(card)
    return Text(label, style=_SUIT_STYLE[card.suit])


def cards_text(cards: Iterable[Card], style: Style) -> Text:
    """Cards separated by spaces, each coloured by suit."""
    return Text(" ").join(card_text(card, style) for card in cards)


def prose_text(text: str, style: Style, seat_name: Callable[[int], str] = seat_words) -> Text:
    """A message (a hint's reason, a refusal, a penalty) drawn for the screen: the text
    between fields in the chosen form (:meth:`Style.words`), each card or move field by
    :func:`cards_text` (Unicode suits, red ♦ ♥, or ASCII letters), each seat field through
    ``seat_name``. Plain ``str`` text has no fields.

    >>> from tienlen.games.tienlen.refusals import Wording
    >>> reason = Wording("it keeps your {cards} for later", cards=Cards.parse("2h"))
    >>> prose_text(reason, Style()).plain, prose_text(reason, Style(ascii=True)).plain
    ('it keeps your 2♥ for later', 'it keeps your 2h for later')
    >>> prose_text(Wording("{seat} has 1 card left", seat=2), Style(), "Ann Bo Cy".split().__getitem__).plain
    'Cy has 1 card left'
    """
    if not isinstance(text, Wording):
        return Text(style.words(text))
    out = Text()
    for literal, name, value in text.parts():
        out.append(style.words(literal))
        if isinstance(value, Card):
            out.append_text(card_text(value, style))
        elif isinstance(value, Cards):
            out.append_text(cards_text(value, style))
        elif name in SEAT_FIELDS and type(value) is int:
            out.append(style.words(seat_name(value)))
        elif name is not None:
            out.append(style.words(str(value)))
    return out


def combo_text(combo: Combo, style: Style) -> Text:
    """The cards of a combination followed by its kind, such as ``7♦ 8♦ 9♦ (sequence)``."""
    return cards_text(combo.cards, style) + Text(f"  {combo.kind.label}", style="dim")


def action_text(action: Action, style: Style) -> Text:
    """What a seat did, for the "last action" column."""
    if action.cards is None:
        return Text("passed", style="italic")
    return cards_text(action.cards, style)


def hand_grid(hand: Cards, style: Style, *, indices: bool = True) -> Table:
    """The hand in strength order (the cards' own order), with a 1-based index under each
    card: the numbers the player may type instead of the cards."""
    return numbered_grid([card_text(card, style) for card in hand], indices=indices)


def _last_actions(history: Sequence[Action], players: int) -> list[Action | None]:
    last: list[Action | None] = [None] * players
    for action in history:
        last[action.seat] = action
    return last


def _status(view: View, seat: int) -> Text:
    if seat in view.finished:
        place = view.finished.index(seat) + 1
        # Once the hand is over, a seat still holding cards is last, or, after an instant
        # win (R11.3), the winner (first) or one of the others, who share last place.
        if view.turn is None and view.card_counts[seat]:
            if place == 1:
                return Text("won at once", style="green")
            return Text("last", style="bold red")
        return Text(f"out, {ordinal(place)}", style="green")
    if view.turn == seat:
        return Text("to play", style="bold")
    if seat in view.locked_seats:
        return Text("passed", style="yellow")
    return Text("")


def board(
    view: View,
    seats: Sequence[SeatInfo],
    style: Style,
    *,
    title: str,
    hands: Sequence[Cards] | None = None,
    focus: int | None = None,
    events: Sequence[Text] = (),
    footer: RenderableType | None = None,
) -> RenderableType:
    """The whole screen for one moment of a hand.

    ``view`` is drawn for its seat, whose hand is shown with indices. ``hands`` (a replay
    knows every hand) adds each seat's cards to the table; ``focus`` then picks whose hand
    is drawn large. ``events`` are the latest lines of the action log.
    """
    players = view.players
    last = _last_actions(view.history, players)
    table = Table(box=None, pad_edge=False, expand=False, padding=(0, 1),
                  header_style="bold dim")
    table.add_column("", width=1)
    table.add_column("seat", justify="right")
    table.add_column("player")
    # A replay knows no levels: the column is left out rather than left empty.
    with_levels = any(info.level for info in seats)
    if with_levels:
        table.add_column("level")
    table.add_column("cards", justify="right")
    if hands is not None:
        table.add_column("hand", ratio=1)
    table.add_column("status")
    table.add_column("last action")
    for seat in range(players):
        info = seats[seat]
        turn_mark = Text(style.arrow, style="bold cyan") if view.turn == seat else Text("")
        name = Text(info.name, style="bold" if info.is_you else "")
        count = view.card_counts[seat]
        action = last[seat]
        row: list[RenderableType] = [turn_mark, str(seat), name]
        if with_levels:
            row.append(info.level or "")
        row.append(str(count))
        if hands is not None:
            row.append(cards_text(hands[seat], style))
        row += [_status(view, seat),
                action_text(action, style) if action else Text(style.dash, style="dim")]
        table.add_row(*row)

    pile_line = Text("Pile  ", style="bold")
    if view.pile is None:
        pile_line.append("empty", style="dim")
        if view.turn is not None:
            pile_line.append(f"  {seats[view.turn].name} to lead")
    else:
        pile_line.append_text(combo_text(view.pile, style))
        owner = view.pile_owner
        if owner is not None:
            pile_line.append(f"   played by {seats[owner].name}")

    parts: list[RenderableType] = [table, Text(""), pile_line]
    if events:
        parts.append(Text(""))
        parts.extend(events)
    # A fixed width keeps the board from changing size as the log lines change.
    # Shown hands need more room: then the board takes what the terminal has.
    panel = Panel(Group(*parts), title=title, title_align="left", box=style.box,
                  width=BOARD_WIDTH if hands is None else None, padding=(0, 1),
                  expand=hands is None)

    shown = view.seat if focus is None else focus
    who = seats[shown]
    hand = view.hand if hands is None else hands[shown]
    heading = Text("Your hand" if who.is_you else f"{who.name}'s hand", style="bold")
    heading.append(f" ({len(hand)})", style="dim")
    body: list[RenderableType] = [panel, heading, hand_grid(hand, style, indices=who.is_you)]
    if footer is not None:
        body.append(footer)
    return Group(*body)


def finishing_table(finished: Sequence[int], seats: Sequence[SeatInfo], style: Style,
                    points: Sequence[int] | None = None) -> Table:
    """The finishing order of a hand that is over, last place last (R9.2)."""
    table = Table(title="Finishing order", box=style.box, title_justify="left",
                  title_style="bold")
    table.add_column("place", justify="right")
    table.add_column("player")
    if points is not None:
        table.add_column("points", justify="right")
    last = len(finished)
    for place, seat in enumerate(finished, start=1):
        name = Text(seats[seat].name, style="bold" if seats[seat].is_you else "")
        if place == last:
            name.append("  (last place)", style="red")
        row: list[RenderableType] = [ordinal(place), name]
        if points is not None:
            row.append(f"+{points[seat]}")
        table.add_row(*row)
    return table


def scoreboard(scores: Sequence[int], place_counts: Sequence[Sequence[int]],
               seats: Sequence[SeatInfo], hands_played: int, style: Style,
               penalties: Sequence[int] | None = None) -> Table:
    """The match so far: points and how often each seat took each place (R10.2) and, under
    a penalty table (R11.5), the net penalty points and the total of both."""
    table = Table(title=f"Match after {hands_played} hand{'s' if hands_played != 1 else ''}",
                  box=style.box, title_justify="left", title_style="bold")
    table.add_column("player")
    table.add_column("points", justify="right")
    if penalties is not None:
        table.add_column("penalties", justify="right")
        table.add_column("total", justify="right")
    players = len(scores)
    for place in range(1, players + 1):
        table.add_column(ordinal(place), justify="right")
    totals = [score + (penalties[seat] if penalties is not None else 0)
              for seat, score in enumerate(scores)]
    best = max(totals)
    for seat, score in enumerate(scores):
        name = Text(seats[seat].name, style="bold" if seats[seat].is_you else "")
        lead = "bold green"
        row: list[RenderableType] = [name]
        if penalties is None:
            row.append(Text(str(score), style=lead if score == best else ""))
        else:
            row += [str(score), f"{penalties[seat]:+d}",
                    Text(str(totals[seat]), style=lead if totals[seat] == best else "")]
        row += [str(n) for n in place_counts[seat]]
        table.add_row(*row)
    return table
