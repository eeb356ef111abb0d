"""Tiến Lên's board: the rich renderables of a hand in progress, and the game's plug-in for
the one terminal session (:class:`TienlenBoard`, a :class:`tienlen.table.board.Board`),
which ``tienlen play`` and ``tienlen replay`` reach through the game's spec.

Everything here draws what a :class:`~tienlen.games.tienlen.view.View` (or, in a replay,
the recorded game) already says, in the words of :mod:`tienlen.games.tienlen.words`.
Nothing here decides a rule: whose turn it is, who is locked out and who has finished all
come from the engine. The drawing primitives (:class:`~tienlen.table.board.Style`, the
numbered hand grid) come from :mod:`tienlen.table.board`, below the games.

>>> hand = Cards.parse("3s 4s 5h 9d")
>>> print(cards_from_input("1 2 3", hand), "|", cards_from_input("9d, 1", hand))
3♠ 4♠ 5♥ | 3♠ 9♦
>>> cards_from_input("7", hand)
Traceback (most recent call last):
...
ValueError: there is no card 7: your hand has 4 cards, numbered 1-4
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from tienlen.errors import CardParseError
from tienlen.games.tienlen.actions import PASS, Action, Move
from tienlen.games.tienlen.bots import Bot, make_bot
from tienlen.games.tienlen.cards import Card, Cards
from tienlen.games.tienlen.game import Game
from tienlen.games.tienlen.match import Match, score_hand
from tienlen.games.tienlen.plays import Combo
from tienlen.games.tienlen.refusals import (SEAT_FIELDS, IllegalMoveError, Reason, Wording,
                                            play_message, seat_words)
from tienlen.games.tienlen.replay import (ReplayError, ReplayLabels, game_to_json_with_labels,
                                          read_replay_file, replay_labels)
from tienlen.games.tienlen.rules import Rules
from tienlen.games.tienlen.view import View
from tienlen.games.tienlen.words import WORDS, Words, move_wording, refusal_text, words as words_in
from tienlen.seeds import session_bot_seed
from tienlen.table.board import (BOARD_WIDTH, CommandKind, Moment, PlaySettings, ReplaySettings,
                                 Saved, Style, Suggestion, fill, is_number,
                                 numbered_grid)

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
    "cards_from_input",
    "bot_names",
    "save_path",
    "load_replay",
    "BOT_NAMES",
    "TienlenBoard",
]

# ♦ and ♥ are the red suits; ♠ and ♣ stay in the terminal's own colour.
_SUIT_STYLE = ("", "", "red", "red")
#: Names for the bots, in seat order after the person's seat.
BOT_NAMES: tuple[str, ...] = ("Minh", "Lan", "Hoa")


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


def combo_text(combo: Combo, style: Style, words: Words = WORDS["en"]) -> Text:
    """The cards of a combination in the order players read it (:meth:`Combo.display_cards`)
    followed by its kind, such as ``7♦ 8♦ 9♦  sequence`` (``顺子`` in Chinese)."""
    return cards_text(combo.display_cards(), style) + Text(f"  {words.kind(combo.kind)}",
                                                           style="dim")


def action_text(action: Action, style: Style, words: Words = WORDS["en"]) -> Text:
    """What a seat did, for the "last action" column."""
    if action.cards is None:
        return Text(words.passed, style="italic")
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


def _status(view: View, seat: int, words: Words) -> Text:
    if seat in view.finished:
        place = view.finished.index(seat) + 1
        # Once the hand is over, a seat still holding cards is last, or, after an instant
        # win (R11.3), the winner (first) or one of the others, who share last place.
        if view.turn is None and view.card_counts[seat]:
            if place == 1:
                return Text(words.st_won_at_once, style="green")
            return Text(words.st_last, style="bold red")
        return Text(words.st_out.format(place=words.place(place)), style="green")
    if view.turn == seat:
        return Text(words.st_to_play, style="bold")
    if seat in view.locked_seats:
        return Text(words.passed, style="yellow")
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
    words: Words = WORDS["en"],
) -> RenderableType:
    """The whole screen for one moment of a hand, in ``words``' language.

    ``view`` is drawn for its seat, whose hand is shown with indices. ``hands`` (a replay
    knows every hand) adds each seat's cards to the table; ``focus`` then picks whose hand
    is drawn large. ``events`` are the latest lines of the action log.
    """
    players = view.players
    last = _last_actions(view.history, players)
    table = Table(box=None, pad_edge=False, expand=False, padding=(0, 1),
                  header_style="bold dim")
    table.add_column("", width=1)
    table.add_column(words.col_seat, justify="right")
    table.add_column(words.col_player)
    # A replay knows no levels: the column is left out rather than left empty.
    with_levels = any(info.level for info in seats)
    if with_levels:
        table.add_column(words.col_level)
    table.add_column(words.col_cards, justify="right")
    if hands is not None:
        table.add_column(words.col_hand, ratio=1)
    table.add_column(words.col_status)
    table.add_column(words.col_last)
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
        row += [_status(view, seat, words),
                action_text(action, style, words) if action else Text(style.dash, style="dim")]
        table.add_row(*row)

    pile_line = Text(f"{words.pile}  ", style="bold")
    if view.pile is None:
        pile_line.append(words.empty, style="dim")
        if view.turn is not None:
            pile_line.append("  " + words.to_lead.format(who=seats[view.turn].name))
    else:
        pile_line.append_text(combo_text(view.pile, style, words))
        owner = view.pile_owner
        if owner is not None:
            pile_line.append("   " + words.played_by.format(who=seats[owner].name))

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
    heading = Text(words.your_hand if who.is_you else words.whose_hand.format(who=who.name),
                   style="bold")
    heading.append(f" ({len(hand)})", style="dim")
    body: list[RenderableType] = [panel, heading, hand_grid(hand, style, indices=who.is_you)]
    if footer is not None:
        body.append(footer)
    return Group(*body)


def finishing_table(finished: Sequence[int], seats: Sequence[SeatInfo], style: Style,
                    points: Sequence[int] | None = None,
                    words: Words = WORDS["en"]) -> Table:
    """The finishing order of a hand that is over, last place last (R9.2)."""
    table = Table(title=words.finishing_order, box=style.box, title_justify="left",
                  title_style="bold")
    table.add_column(words.col_place, justify="right")
    table.add_column(words.col_player)
    if points is not None:
        table.add_column(words.col_points, justify="right")
    last = len(finished)
    for place, seat in enumerate(finished, start=1):
        name = Text(seats[seat].name, style="bold" if seats[seat].is_you else "")
        if place == last:
            name.append(f"  {words.last_place}", style="red")
        row: list[RenderableType] = [words.place(place), name]
        if points is not None:
            row.append(f"+{points[seat]}")
        table.add_row(*row)
    return table


def scoreboard(scores: Sequence[int], place_counts: Sequence[Sequence[int]],
               seats: Sequence[SeatInfo], hands_played: int, style: Style,
               penalties: Sequence[int] | None = None,
               words: Words = WORDS["en"]) -> Table:
    """The match so far: points and how often each seat took each place (R10.2) and, under
    a penalty table (R11.5), the net penalty points and the total of both."""
    title = (words.match_after_one if hands_played == 1 else words.match_after).format(
        n=hands_played)
    table = Table(title=title, box=style.box, title_justify="left", title_style="bold")
    table.add_column(words.col_player)
    table.add_column(words.col_points, justify="right")
    if penalties is not None:
        table.add_column(words.col_penalties, justify="right")
        table.add_column(words.col_total, justify="right")
    players = len(scores)
    for place in range(1, players + 1):
        table.add_column(words.place(place), justify="right")
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


# ------------------------------------------------------------------ reading typed text


def cards_from_input(text: str, hand: Cards, words: Words = WORDS["en"]) -> Cards:
    """The cards named by ``text``: card names (``3s 10h A♠``) and/or 1-based positions in
    ``hand`` as drawn (``1 2 3``). Whether the play is legal is the game's question.

    >>> cards_from_input("2", Cards.parse("9d"))
    Traceback (most recent call last):
    ...
    ValueError: there is no card 2: your hand has one card, number 1
    """
    ordered = list(hand)
    chosen: list[Card] = []
    # Separated like card text (spaces and/or commas: tienlen.games.spelling).
    for token in text.replace(",", " ").split():
        if is_number(token):
            number = int(token)
            if not 1 <= number <= len(ordered):
                raise ValueError(words.no_card_n(number, len(ordered)))
            card = ordered[number - 1]
        else:
            card = Card.parse(token)
        if card in chosen:
            raise ValueError(words.named_twice.format(card=card))
        chosen.append(card)
    return Cards(chosen)


def bot_names(players: int, you: int, words: Words = WORDS["en"]) -> list[str]:
    """Seat names: "You" (in ``words``) for the person, a bot name for every other seat."""
    names = iter(BOT_NAMES)
    return [words.you if seat == you else next(names) for seat in range(players)]


def save_path(path: Path, hand_number: int) -> Path:
    """Where hand ``hand_number``'s replay goes: the first hand in ``path`` itself, later
    hands beside it as ``<stem>-<n><suffix>`` (a replay holds one hand)."""
    if hand_number == 1:
        return path
    return path.with_name(f"{path.stem}-{hand_number}{path.suffix or '.json'}")


def load_replay(path: Path, words: Words = WORDS["en"]) -> tuple[Game, ReplayLabels]:
    """The game recorded in ``path``, every action verified, and the replay's labels.
    Raises ``ValueError`` (a :class:`ReplayError` for a bad replay) with the file's name in
    the message."""
    try:
        # At most MAX_REPLAY_BYTES are read: a huge file or /dev/zero is a ReplayError.
        text = read_replay_file(path)
    except OSError as error:
        raise ValueError(words.cannot_read.format(path=path,
                                                  error=error.strerror or error)) from None
    try:
        return Game.from_json(text), replay_labels(text)
    except ReplayError as error:
        raise ReplayError(words.not_valid.format(path=path, error=error)) from None


def _fresh(recorded: Game) -> Game:
    """The recorded game before its first action: same deal, rules and leader."""
    if recorded.seed is not None:
        return Game(recorded.players, seed=recorded.seed, rules=recorded.rules,
                    leader=recorded.leader)
    return Game.from_hands(recorded.initial_hands, rules=recorded.rules,
                           leader=recorded.leader)


# ------------------------------------------------------------------ the session's plug-in


@dataclass(frozen=True)
class _Replayed:
    """What a replay shows beside its game: the file's name, the seed line of the title
    and the recorded actions."""

    name: str
    seed: str
    actions: tuple[Action, ...]


class TienlenBoard:
    """Tiến Lên on the one terminal session (:class:`tienlen.table.board.Board`): a match
    between the person and bots (:meth:`play`), or a saved hand shown action by action,
    every hand in view (:meth:`replay`). Actions are :data:`~tienlen.games.tienlen.actions.Move`
    values (cards or PASS); a replay's are its recorded :class:`Action` records."""

    log_lines = 6
    confirm_pick = True
    soft_wrap = False
    commands: Mapping[str, CommandKind] = {}

    def __init__(self, game: Game, seats: Sequence[SeatInfo], *, style: Style,
                 words: Words = WORDS["en"], match: Match | None = None,
                 bots: Mapping[int, Bot] | None = None, you: int | None = None,
                 hint_level: str = "L3", save: Path | None = None,
                 replayed: _Replayed | None = None) -> None:
        self._match = match
        self._game = game
        self.seats = list(seats)
        self.players = game.players
        self.style = style
        self.words = words
        self.you = you
        self.bots = dict(bots or {})
        self.hint_level = hint_level
        self.save_to = save
        self._replayed = replayed
        self._acted = 0

    # ------------------------------------------------------------------ making one

    @classmethod
    def play(cls, settings: PlaySettings) -> TienlenBoard:
        """A match between the person at ``settings.seat`` and bots of ``settings.levels``
        (options: ``players``, ``rules``, ``hint_level``)."""
        options = settings.options
        players = int(options.get("players") or 4)
        rules = options.get("rules") or Rules()
        assert isinstance(rules, Rules)
        you = settings.seat
        if not 0 <= you < players:
            raise ValueError(f"--seat must be 0..{players - 1} with {players} players; got {you}")
        if len(settings.levels) != players - 1:
            raise ValueError(f"--bots: give one level for each of the {players - 1} "
                             f"opponents, or one level for all; got {len(settings.levels)}")
        match = Match(players, seed=settings.seed, rules=rules)
        words = words_in(settings.lang)
        names = bot_names(players, you, words)
        levels = iter(settings.levels)
        bots: dict[int, Bot] = {}
        seats: list[SeatInfo] = []
        for seat in range(players):
            if seat == you:
                seats.append(SeatInfo(names[seat], None, is_you=True))
                continue
            level = next(levels)
            extra = ({"iterations": settings.iterations}
                     if settings.iterations is not None and level.lower() == "l3" else {})
            # make_bot validates the level name (a ValueError names the choices).
            bots[seat] = make_bot(level, seed=session_bot_seed(match.seed, seat), **extra)
            seats.append(SeatInfo(names[seat], bots[seat].name))
        return cls(match.game, seats, style=settings.style, words=words, match=match,
                   bots=bots, you=you, hint_level=str(options.get("hint_level", "L3")),
                   save=settings.save)

    @classmethod
    def replay(cls, path: Path, settings: ReplaySettings) -> TienlenBoard:
        """The hand saved in ``path``, verified, to show action by action."""
        words = words_in(settings.lang)
        recorded, labels = load_replay(path, words)
        game = _fresh(recorded)
        names = labels.names or tuple(words.seat_n.format(n=seat)
                                      for seat in range(game.players))
        if labels.match_seed is not None:
            # The seed the user typed: tienlen play --seed S deals this hand as hand n.
            seed = words.replay_seed.format(seed=labels.match_seed, hand=labels.hand)
        elif recorded.seed is not None:
            seed = words.replay_deal_seed.format(seed=recorded.seed)
        else:
            seed = words.replay_given
        return cls(game, [SeatInfo(name) for name in names], style=settings.style, words=words,
                   replayed=_Replayed(path.name, seed, tuple(recorded.history)))

    # ------------------------------------------------------------------ helpers

    @property
    def game(self) -> Game:
        """The hand on screen."""
        return self._match.game if self._match is not None else self._game

    @property
    def match(self) -> Match | None:
        """The match being played (None in a replay, which holds one hand)."""
        return self._match

    def _name(self, seat: int) -> str:
        return self.seats[seat].name

    def _says(self, field: str, seat: int) -> str:
        return self.words.says(field, you=seat == self.you)

    def _prose(self, text: str) -> Text:
        """An engine or hint message as the screen draws it: seats by the names the board
        shows and cards by the board's card renderer, both read from a
        :class:`~tienlen.games.tienlen.refusals.Wording`'s fields, never found in its text."""
        return prose_text(text, self.style, self._name)

    def _title(self) -> str:
        sep = "-" if self.style.ascii else "·"
        words, game = self.words, self.game
        title = self.style.words(words.title)
        if self._replayed is not None:
            replayed = self._replayed
            parts = [words.replay_title.format(title=title), replayed.name, replayed.seed,
                     words.replay_action.format(i=self._acted, n=len(replayed.actions))]
        else:
            assert self._match is not None
            parts = [title, words.hand_n.format(n=self._match.hand_number),
                     words.seed_n.format(n=self._match.seed)]
        if game.rules != Rules():
            parts.append(words.rules_n.format(name=game.rules.name))
        return f" {sep} ".join(parts)

    # ------------------------------------------------------------------ the match

    def turn(self) -> int | None:
        return self.game.turn

    def hand_over(self) -> bool:
        return self.game.is_over

    def match_over(self) -> bool:
        return self._replayed is not None        # a replay holds one hand

    def start_hand(self) -> Sequence[Text]:
        words, game = self.words, self.game
        if self._replayed is not None:
            return [Text(words.replay_verified.format(file=self._replayed.name,
                                                      n=len(self._replayed.actions)),
                         style="green")]
        assert self._match is not None
        number = self._match.hand_number
        text = Text(words.ev_hand.format(n=number), style="bold")
        if game.instant_win is not None:
            # An instant win (R11.3): the deal itself ended the hand.
            winner, how = game.instant_win
            named = dict(words.instant_wins).get(how, how)
            return [text + fill(self._says("ev_instant", winner), who=self._name(winner),
                                how=named, cards=cards_text(game.hand(winner), self.style))]
        leader = game.turn
        assert leader is not None  # a hand not won at the deal has a seat to act
        if game.must_include is not None:
            return [text + fill(self._says("ev_must_include", leader), who=self._name(leader),
                                card=cards_text([game.must_include], self.style))]
        previous = self._match.results[-1][0] if self._match.results else None
        if previous == leader:
            return [text + Text(self._says("ev_won_leads", leader).format(
                who=self._name(leader), n=number - 1))]
        return [text + Text(self._says("ev_leads", leader).format(who=self._name(leader)))]

    def deal_next(self) -> None:
        if self._match is not None:
            self._match.next_hand()

    def hand_end(self) -> Sequence[RenderableType]:
        words, game, style = self.words, self.game, self.style
        playing = self._match is not None
        score = self._match.hand_scores[-1] if self._match is not None else score_hand(game)
        parts: list[RenderableType] = []
        if score.instant_win:
            winner = game.finished[0]
            parts.append(Text(words.won_at_once.format(who=self._name(winner),
                                                       points=score.points[winner]),
                              style="bold"))
        else:
            parts.append(finishing_table(game.finished, self.seats, style,
                                         score.points if playing else None, words))
        for seat in range(game.players):
            if score.places[seat] != game.players:
                continue
            parts.append(fill(words.left_holding, "bold", who=self._name(seat),
                              cards=cards_text(game.hand(seat), style)))
        penalties = None
        if game.rules.penalties is not None:
            parts.append(Text(words.penalties, style="bold"))
            for payment in score.payments:
                template = self._says("pays", payment.payer)
                parts.append(self._prose(Wording.concat(
                    template.format(payer=self._name(payment.payer),
                                    payee=self._name(payment.payee), amount=payment.amount),
                    payment.detail)))
            if not score.payments:
                parts.append(Text(words.no_penalties, style="dim"))
        if self._match is not None:
            match = self._match
            if match.rules.penalties is not None:
                penalties = match.penalties
            parts.append(scoreboard(match.scores, match.place_counts, self.seats,
                                    len(match.results), style, penalties, words))
        return parts

    def record(self) -> Iterable[object]:
        return self._replayed.actions if self._replayed is not None else ()

    # ------------------------------------------------------------------ acts

    def bot_action(self, seat: int) -> object:
        return self.bots[seat].choose(self.game.view(seat))

    def apply(self, seat: int, action: object) -> Sequence[Text]:
        """Act for ``seat`` (the game refuses an illegal move) and word what happened."""
        game, words, style = self.game, self.words, self.style
        number = self._acted + 1
        if isinstance(action, Action):          # a recorded action (replays)
            seat, move = action.seat, action.move
        else:
            assert action is PASS or isinstance(action, Cards)
            move = action
        had_pile = game.pile is not None
        done = game.act(move, seat=seat)
        self._acted = number
        name = self._name(seat)
        lines: list[Text] = []
        if self._replayed is not None:
            if done.combo is None:
                line = Text(words.replay_pass.format(number=number, who=name))
            else:
                line = fill(words.replay_play if had_pile else words.replay_lead, number=number,
                            who=name, combo=combo_text(done.combo, style, words))
            if done.cards is not None and seat in game.finished:
                line.append(words.replay_out.format(
                    place=words.place(game.finished.index(seat) + 1)), style="green")
            return [line]
        if done.combo is None:
            lines.append(Text(self._says("ev_pass", seat).format(who=name), style="italic"))
        else:
            lines.append(fill(self._says("ev_play" if had_pile else "ev_lead", seat), who=name,
                              combo=combo_text(done.combo, style, words)))
        if done.cards is not None and seat in game.finished:
            place = words.place(game.finished.index(seat) + 1)
            lines.append(Text(self._says("ev_out", seat).format(who=name, place=place),
                              style="green"))
        if game.is_over:
            last = game.loser
            assert last is not None
            lines.append(Text(words.ev_over.format(who=self._name(last)), style="bold"))
        elif had_pile and game.pile is None:
            leader = game.turn
            assert leader is not None
            lines.append(Text(self._says("ev_cleared", leader).format(who=self._name(leader)),
                              style="cyan"))
        return lines

    def pass_action(self) -> object:
        return PASS

    def can_pass(self, seat: int) -> bool:
        return self.game.view(seat).can_pass()

    def actions(self, seat: int) -> Sequence[object]:
        return self.game.view(seat).legal_moves()

    def parse(self, text: str, seat: int) -> object:
        try:
            cards = cards_from_input(text, self.game.view(seat).hand, self.words)
        except CardParseError as error:
            token = error.token if error.token is not None else text.strip()
            said = self.words.bad_card.format(error=error, token=token)
            raise ValueError(self.words.card_parse.format(error=said)) from None
        if not cards:
            raise ValueError(self.words.no_cards)
        return cards

    def hint(self, seat: int) -> Suggestion:
        words, style = self.words, self.style
        try:
            from tienlen.games.tienlen.hints import hint  # loaded only when asked for
        except ImportError:
            raise ValueError(words.no_hints_engine) from None
        # the reason in the board's language (the bots word theirs in English and Chinese)
        suggestion = hint(self.game.view(seat), level=self.hint_level, lang=self.words.lang)
        move = suggestion.move
        text = Text(words.hint, style="bold magenta")
        if not isinstance(move, Cards):         # PASS
            text.append(words.hint_pass, style="bold")
        else:
            text.append_text(fill(words.hint_play, "bold", cards=cards_text(move, style)))
        text.append(f" {style.dash} ")
        text.append_text(self._prose(suggestion.reason))
        return Suggestion(move, (text, Text(words.hint_accept, style="dim")))

    def tip(self, seat: int) -> Suggestion:
        return self.hint(seat)

    def seat_view(self, seat: int) -> View:
        """``seat``'s own view of the hand now (the card tracker's)."""
        return self.game.view(seat)

    def review_source(self) -> Game:
        """The hand to review (:meth:`tienlen.games.tienlen.spec.TienlenSpec.read_record`)."""
        return self.game

    def save(self, moment: Moment) -> Saved | None:
        if self.save_to is None or moment != "hand" or self._match is None:
            return None
        match = self._match
        path = save_path(self.save_to, match.hand_number)
        labels = ReplayLabels(tuple(seat.name for seat in self.seats), match.seed,
                              match.hand_number)
        return Saved(path, game_to_json_with_labels(self.game, labels, indent=1), announce=True)

    # ------------------------------------------------------------------ drawing

    def screen(self, *, events: Sequence[Text], footer: RenderableType | None,
               marked: Collection[int], width: int, transcript: bool,
               reveal: bool) -> RenderableType:
        game = self.game
        if self._replayed is not None:
            # Everything is public in a replay: every hand is shown, and the seat about to
            # act (last place, at the end; the winner of an instant win) gets the large hand.
            focus = game.turn if game.turn is not None else game.loser
            if focus is None or game.instant_win is not None:
                focus = game.finished[0]
            return board(game.view(focus), self.seats, self.style, title=self._title(),
                         hands=game.hands, focus=focus, events=events, footer=footer,
                         words=self.words)
        assert self.you is not None
        return board(game.view(self.you), self.seats, self.style, title=self._title(),
                     hands=game.hands if reveal else None, events=events, footer=footer,
                     words=self.words)

    def situation(self, seat: int) -> Text:
        return self.situation_of(self.game.view(seat))

    def situation_of(self, view: View) -> Text:
        """One line above the prompt saying what the person may do now, in ``view``."""
        words, style = self.words, self.style
        text = Text(words.turn, style="bold cyan")
        if view.pile is None:
            text.append(words.turn_lead)
            if view.must_include is not None:
                text.append_text(fill(words.turn_must,
                                      card=cards_text([view.must_include], style)))
            else:
                text.append(words.turn_any)
        else:
            moves = view.legal_moves()
            pile = cards_text(view.pile.display_cards(), style)
            if view.seat in view.locked_seats:
                # The refusal's own words, from the rule table: which bombs may cut this
                # pile out of turn (R5.2; R11.2 in the South).
                locked = IllegalMoveError(Reason.LOCKED_OUT, play_message(
                    Reason.LOCKED_OUT, Cards(), hand=view.hand, pile=view.pile.cards,
                    pile_code=view.pile.code, must_include=-1, flags=view.rules.flags))
                text.append_text(self._prose(move_wording(locked, self.words.lang)))
                if not moves:
                    text.append(words.turn_locked_none)
            elif not moves:
                text.append_text(fill(words.turn_nothing, pile=pile))
            else:
                text.append_text(fill(words.turn_beat, pile=pile))
        text.append(".  " if self.words.lang == "en" else "。", style="")
        text.append(words.turn_help, style="dim")
        return text

    def prompt(self, seat: int) -> str:
        return self.words.prompt_move

    def empty_line(self, seat: int) -> str:
        return self.words.empty_lead if self.game.pile is None else self.words.empty_beat

    def listing_title(self, seat: int, count: int) -> str:
        return self.words.moves_title.format(n=count, s="" if count == 1 else "s")

    def action_text(self, action: object) -> Text:
        assert isinstance(action, Cards)
        return cards_text(action, self.style)

    def refusal(self, error: ValueError) -> str:
        """A refusal as the screen words it: an :class:`IllegalMoveError` from its fields
        (seats by the names on the board, cards in the board's style)."""
        if isinstance(error, IllegalMoveError):
            return self._prose(move_wording(error, self.words.lang)).plain
        return self._prose(refusal_text(error, self.words.lang)).plain
