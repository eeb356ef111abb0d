"""``tienlen play --game guandan``: the Guandan training mode, full screen. You and an AI
partner against two AIs, hand after hand until a team wins at A.

The :class:`~tienlen.games.guandan.match.Match` deals, settles levels and starts each hand's
tribute; its :class:`~tienlen.games.guandan.game.Game` accepts or refuses every action with a G8
reason; the bots, the hint and the 提示 button see only the seat's
:class:`~tienlen.games.guandan.game.GameView`. This module turns typed text into actions and draws
what happened, on the terminal that Tiến Lên's ``play`` uses (:mod:`tienlen.tui.terminal`:
a redrawn screen on a terminal, plain lines when piped).

>>> from tienlen.guandan import Cards
>>> hand = Cards.parse("5h 5h 3s Ks")                     # drawn as 3♠ 5♥ 5♥ K♠ at level 2
>>> print(cards_from_input("2 3 4", hand, level=2), cards_from_input("5h 3s", hand, level=2))
5♥ 5♥ K♠ 3♠ 5♥
>>> cards_from_input("9", hand, level=2)
Traceback (most recent call last):
...
tienlen.games.guandan.game.IllegalActionError: CARD_NOT_FOUND: there is no card 9: your hand has 4 cards, numbered 1-4
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Literal

from rich.columns import Columns
from rich.console import Group, RenderableType
from rich.text import Text

from tienlen.games.guandan.bots import Bot, make_bot
from tienlen.games.guandan.cards import Card, Cards
from tienlen.games.guandan.rules import RuleConfig
from tienlen.games.guandan.game import (Action, Game, GameView, IllegalActionError, return_candidates,
                            tribute_candidates)
from tienlen.games.guandan.hints import TipButton, hint, tip_plays
from tienlen.games.guandan.match import DEFAULT_MAX_HANDS, Match
from tienlen.games.guandan.plays import Play
from tienlen.games.guandan.board import (MatchInfo, SeatLabel, board, card_text, hand_end, play_text,
                            seat_labels, sorted_hand, transcript)
from tienlen.games.guandan.words import WORDS, Words, rank_text, refusal_text
from ..seeds import session_bot_seed as _bot_seed
from .common import (BOT_PAUSE, REPLAY_PAUSE, Style, check_card_number, help_table,
                     input_tokens, parse_command)
from .session import Actor, BotActor, Human, Quit, Recorded, Recording, Session
from .terminal import Terminal

__all__ = ["GuandanOptions", "GuandanSession", "GuandanReplay", "cards_from_input"]

# Lines of the action log kept on the redrawn screen (fewer on a short terminal).
_LOG_LINES = 8
# Lines kept free under the screen: the prompt and a one-line answer.
_PROMPT_ROOM = 2
# Plays listed by m; #N still plays any of them.
_LISTED = 60
_TIP_WORDS = ("t", "tip", "提示")
_PASS_WORDS = ("过", "过牌", "不要")
_YES_WORDS = ("出牌", "play")

Pending = Play | Literal["pass"] | None


@dataclass(frozen=True, slots=True)
class GuandanOptions:
    """Everything ``tienlen play --game guandan`` was asked for, already parsed. ``levels``
    are the three bots' levels in seat order after the person's seat is left out."""

    seat: int = 0
    levels: tuple[str, ...] = ("L2", "L2", "L2")
    seed: int | None = None
    lang: str = "en"
    style: Style = Style()
    hints: bool = True
    save: Path | None = None
    fast: bool = False
    iterations: int | None = None
    config: RuleConfig = RuleConfig()
    #: Hands after which the match stops with no winner (an engine safeguard, not a rule).
    max_hands: int = DEFAULT_MAX_HANDS


# The person chose to leave (the one session's Quit, under the name this module used).
_Quit = Quit


def cards_from_input(text: str, hand: Cards, level: int, wild_count: int = 2) -> Cards:
    """The cards named by ``text``: card names (``5h 10s SJ``) and/or 1-based positions in
    ``hand`` as drawn (sorted by the level's order). A number names one card once; a name
    may repeat (a hand holds two of each card). Whether the play is legal is the game's
    question. Bad input raises :class:`IllegalActionError` (INVALID_CARDS, CARD_NOT_FOUND)."""
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


def _numbers_of(play_cards: Cards, hand: Sequence[Card]) -> list[int]:
    """The 1-based positions in ``hand`` (as drawn) of the cards of a play."""
    numbers: list[int] = []
    for card in play_cards:
        number = next(i for i, c in enumerate(hand, start=1) if c == card and i not in numbers)
        numbers.append(number)
    return numbers


class GuandanSession(Session):
    """A Guandan match between the person at ``options.seat``, an AI partner and two AI
    opponents, driven from a terminal by the one terminal session
    (:class:`tienlen.tui.session.Session`): this class keeps Guandan's board, words,
    tribute and 提示 button."""

    def __init__(self, options: GuandanOptions, terminal: Terminal) -> None:
        if not 0 <= options.seat <= 3:
            raise ValueError(f"--seat must be 0..3; got {options.seat}")
        if len(options.levels) != 3:
            raise ValueError("--bots: give one level for all three AIs, or three (partner and "
                             "opponents in seat order)")
        if options.lang not in WORDS:
            raise ValueError(f"--lang must be one of {', '.join(WORDS)}; got {options.lang!r}")
        self.options = options
        self.term = terminal
        self.style = options.style
        self.lang = options.lang
        self.words: Words = WORDS[options.lang]
        self.you = options.seat
        self.match = Match(options.seed, options.config, max_hands=options.max_hands)
        self.bots: dict[int, Bot] = {}
        others = [s for s in range(4) if s != self.you]
        for seat, level in zip(others, options.levels):
            extra = ({"iterations": options.iterations}
                     if options.iterations is not None and level.lower() == "l3" else {})
            try:
                self.bots[seat] = make_bot(level, seed=_bot_seed(self.match.seed, seat), **extra)
            except TypeError:  # a bot without the iterations option
                raise ValueError("--iterations is not supported by this version's L3") from None
        self.actors: dict[int, Actor] = {
            seat: Human() if seat == self.you else BotActor(self.bots[seat])
            for seat in range(4)}
        self.seats: list[SeatLabel] = seat_labels(
            self.you, self.match.teams, self.words,
            {s: b.name for s, b in self.bots.items()})
        self.log: deque[Text] = deque(maxlen=_LOG_LINES)
        self.trick: dict[int, Action] = {}
        self.pending: Pending = None
        self.tip: TipButton | None = None
        self.tip_presses = 0
        # Levels and 过A attempts as the hand on screen began (the match settles them at
        # its end, before the end-of-hand screen is drawn).
        self.levels_before = self.match.levels
        self.failed_before = self.match.failed_attempts
        self.save_failed = False
        # The hand last acted in, kept when the match moves on to the next deal.
        self._finished_game = self.match.game
        # The hand being played (the match deals the next one as it ends).
        self._hand = self.match.game

    # ------------------------------------------------------------------ helpers

    @property
    def you_team(self) -> int:
        return self.match.team_of(self.you)

    def _name(self, seat: int) -> str:
        return self.seats[seat].name

    @property
    def team_names(self) -> tuple[str, str]:
        """The teams' names by team index: "Us" for the person's."""
        ours = self.you_team
        return ((self.words.us, self.words.them) if ours == 0 else
                (self.words.them, self.words.us))

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

    def _event(self, text: Text) -> None:
        """Record a line of the action log; a transcript gets it at once."""
        self.log.append(text)
        if not self.term.interactive:
            self.term.print(text, soft_wrap=True)

    def _view(self, game: Game) -> GameView:
        """What the screen shows: the person's view of the hand."""
        return game.view(self.you)

    def _screen(self, game: Game, footer: RenderableType | None = None,
                marked: Sequence[int] = ()) -> RenderableType:
        view = self._view(game)
        info = self._info(game)

        def draw(events: Sequence[Text]) -> RenderableType:
            return board(view, self.seats, info, words=self.words, lang=self.lang,
                         style=self.style, trick=self.trick, anti=game.anti_tribute,
                         events=events, footer=footer, width=self.term.console.width,
                         marked=marked)

        if not self.term.interactive:
            # A transcript already printed each event as it happened, and gets the facts
            # as plain lines rather than the drawn table.
            lines: list[RenderableType] = [*transcript(
                view, self.seats, info, words=self.words, lang=self.lang, style=self.style,
                trick=self.trick, anti=game.anti_tribute)]
            if footer is not None:
                lines.append(footer)
            return Group(*lines)
        # On a short terminal the oldest log lines give way, so that the panel and the hand
        # stay on screen with room for the prompt and an answer below.
        return self.term.fitted(draw, self.log, _PROMPT_ROOM)

    def _show(self, screen: RenderableType) -> None:
        """Draw ``screen`` in place on a terminal; a transcript gets it as unwrapped lines."""
        if self.term.interactive:
            self.term.redraw(screen)
        else:
            self.term.print()
            self.term.print(screen, soft_wrap=True)

    def _refuse(self, error: IllegalActionError) -> None:
        """A refusal with its G8 code; nothing was changed."""
        mark = "x" if self.style.ascii else "✗"
        message = str(error).removeprefix(f"{error.reason}: ")
        text = refusal_text(error.reason, error.detail, message, self.lang)
        self.term.print(Text(f"{mark} {self.words.refused}: {text}", style="bold red"))

    # ------------------------------------------------------------------- match

    # The one session's hooks (run() is Session.run: hands until a team wins at A or the
    # person stops; exit status 1 if the replay could not be saved; Ctrl-C saves the match
    # so far, then propagates).

    def _hand_over(self) -> bool:
        return self._hand.is_over

    def _turn(self) -> int | None:
        return self._hand.turn

    def _match_over(self) -> bool:
        if self.match.capped:
            self.term.print(Text(self.words.match_capped.format(n=len(self.match.results)),
                                 style="bold yellow"))
        return self.match.is_over

    def _end_of_input(self) -> None:
        self.term.print(Text(self.words.eof, style="dim"))

    def _interrupted(self) -> None:
        self._save(announce=True)

    def _close(self) -> None:
        self._save(announce=True)

    def human_turn(self, seat: int) -> None:
        self._your_turn(self._hand)

    def bot_turn(self, seat: int, bot: object) -> None:
        assert isinstance(bot, Bot)
        game = self._hand
        kind, cards = bot.decide(game.view(seat))
        self._apply(seat, kind, cards)
        # Paced on a terminal, one frame a move; --fast draws only the person's turns.
        if self.term.interactive and not game.is_over and not self.options.fast:
            self._show(self._screen(game))
            self.term.pause(BOT_PAUSE)

    def _farewell(self) -> None:
        self.term.print(Text(self.words.thanks, style="dim"))

    def _announce_hand(self) -> None:
        game = self._hand = self.match.game
        self.log.clear()
        self.trick.clear()
        self.levels_before = self.match.levels
        self.failed_before = self.match.failed_attempts
        number = len(self.match.results) + 1
        self._event(Text(self.words.ev_hand_starts.format(n=number, rank=rank_text(game.level)),
                         style="bold"))
        if game.anti_tribute:
            self._event(Text(self.words.anti, style="yellow"))

    def _finish_hand(self) -> None:
        match = self.match
        result = match.results[-1]
        # The finished hand: the match has dealt the next one (unless it is over).
        game = self._finished_game
        self._show(self._screen(game))
        self.term.print()
        leftovers = {seat: game.hand(seat) for seat in range(4)}
        self.term.print(hand_end(result, self.levels_before, self.seats, self.team_names,
                                 self.you_team, leftovers, game.level, words=self.words,
                                 style=self.style,
                                 failed_limit=match.config.failed_attempts_limit))
        wins, names, ours = self._info(game).wins, self.team_names, self.you_team
        score = f"{names[ours]} {wins[ours]} · {names[1 - ours]} {wins[1 - ours]}"
        self.term.print(Text(self.words.match_after.format(n=len(match.results), score=score),
                             style="bold"))
        self._save(announce=False)

    def _save(self, *, announce: bool) -> None:
        """Write the match so far (a match replay re-checks every action on load)."""
        path = self.options.save
        if path is None:
            return
        try:
            path.write_text(self.match.to_json(indent=1) + "\n", encoding="utf-8")
        except OSError as error:
            if not self.save_failed:
                self.term.print(Text(self.words.save_failed.format(
                    path=path, error=error.strerror or error), style="bold red"))
            self.save_failed = True
            return
        if announce:
            self.term.print(Text(self.words.saved.format(path=path), style="dim"))

    # --------------------------------------------------------------------- acts

    def _apply(self, seat: int, kind: str, cards: object = None) -> Action:
        """Act for ``seat`` through the match (which refuses illegal actions, changing
        nothing) and log what happened."""
        game = self.match.game
        had_pile = game.pile is not None
        owner = game.pile_owner
        if kind == "play" and not had_pile:
            self.trick.clear()  # a lead starts a new trick
        action = self.match.act(kind, cards, seat)
        self._finished_game = game
        self.pending = None
        self.tip = None
        if action.action in ("play", "pass"):
            self.trick[seat] = action
        self._log(game, action, had_pile, owner)
        return action

    def _says(self, seat: int, template: str) -> str:
        """The event template for ``seat``: the person's own form (You lead) or the third
        person's (Right (1) leads)."""
        if self.seats[seat].is_you:
            return str(getattr(self.words, f"{template}_you"))
        return str(getattr(self.words, template))

    def _log(self, game: Game, action: Action, had_pile: bool, owner: int | None) -> None:
        words, seat = self.words, action.seat
        name = self._name(seat)
        if action.action == "pass":
            self._event(Text(self._says(seat, "ev_pass").format(who=name), style="italic"))
        elif action.action == "play":
            assert action.play is not None  # a play action carries its reading
            verb = self._says(seat, "ev_play" if had_pile else "ev_lead")
            self._event(Text(verb.format(who=name)) + play_text(action.play, self.lang,
                                                                  self.style))
            if seat in game.finished:
                place = words.places[game.finished.index(seat)]
                self._event(Text(self._says(seat, "ev_out").format(who=name, place=place),
                                 style="green"))
        else:
            # What the person may see of a tribute is what its view shows (G6, the view).
            seen = self._view(game).history[-1]
            if seen.cards is not None:
                card = " ".join(c.ascii() if self.style.ascii else str(c) for c in seen.cards)
            verb = "ev_gives" if action.action == "give_tribute" else "ev_returns"
            template = (self._says(seat, verb) if seen.cards is not None else
                        str(getattr(words, f"{verb}_hidden")))
            to = self._name(action.to) if action.to is not None else "?"
            self._event(Text(template.format(who=name, to=to,
                                             card=card if seen.cards is not None else ""),
                             style="magenta"))
        if game.is_over or game.phase != "play":
            return
        if had_pile and game.pile is None:
            leader = game.turn
            assert leader is not None
            jiefeng = owner is not None and owner in game.finished and leader == game.partner(owner)
            text = words.ev_jiefeng if jiefeng else words.ev_cleared
            self._event(Text(text.format(who=self._name(leader)), style="cyan"))

    def _next_hand(self) -> bool:
        """Whether to deal the next hand: the person presses Enter (q stops; the end of
        input leaves as it does at any prompt)."""
        return self.term.ask(self.words.next_hand).lower() not in ("q", "quit")

    # ----------------------------------------------------------------- the person

    def _situation(self, view: GameView) -> Text:
        """One line above the prompt saying what the person may do now."""
        words = self.words
        if view.pile is None:
            text = Text(words.turn_lead, style="bold cyan")
        else:
            pile = " ".join(c.ascii() if self.style.ascii else str(c)
                            for c in sorted_hand(view.pile.cards, view.level,
                                                 view.config.wild_count))
            template = words.turn_beat if view.legal_plays else words.turn_nothing
            text = Text(template.format(pile=pile), style="bold cyan")
        text.append("  " + words.turn_help, style="dim")
        return text

    def _your_turn(self, game: Game) -> None:
        view = game.view(self.you)
        self.term.discard_typeahead()  # keys pressed while the bots moved were not for this
        if view.tribute_step is not None:
            self._your_tribute(game, view)
            return
        self.pending = None
        self.tip = None
        self._show(self._screen(game, footer=self._situation(view)))
        while True:
            line = self.term.ask(Text(self.words.prompt_move, style="bold"))
            try:
                if self._handle(line, game, view):
                    return
            except IllegalActionError as error:
                self._refuse(error)

    def _handle(self, line: str, game: Game, view: GameView) -> bool:
        """Carry out one typed command; ``True`` once the person has acted."""
        words = self.words
        low = line.strip().lower()
        if low in _TIP_WORDS:
            self._press_tip(game, view)
            return False
        if low in _PASS_WORDS:
            line = "p"
        elif low in _YES_WORDS:
            line = "y"
        try:
            command = parse_command(line)
        except ValueError as error:
            raise IllegalActionError("INVALID_CARDS", str(error), "BAD_COMMAND") from None
        # A suggestion waits for y until the person acts, declines it (n) or asks for
        # another: a refused or idle line leaves it standing.
        if command.kind == "empty":
            if view.can_pass and not view.legal_plays:
                self._apply(self.you, "pass")  # nothing else to do: Enter passes
                return True
            # Enter never passes while a play could beat the table: say what to type.
            self.term.print(Text(words.empty_lead if view.pile is None else words.empty_beat,
                                 style="yellow"))
            return False
        if command.kind == "help":
            self.term.print(help_table(self.style, words.help_rows, title=words.help_title,
                                       headers=words.help_headers))
            return False
        if command.kind == "quit":
            if self.term.confirm(words.quit_confirm, default=False):
                raise _Quit
            return False
        if command.kind == "moves":
            self.term.print(self._listing(view))
            return False
        if command.kind == "hint":
            self._show_hint(game, view)
            return False
        if command.kind == "no":
            if self.pending is None:
                raise IllegalActionError("STATE_CONFLICT", words.no_to_decline,
                                         "NO_SUGGESTION_TO_DECLINE")
            self.pending = None
            self.term.print(Text(words.declined, style="dim"))
            return False
        if command.kind == "yes":
            pending = self.pending
            if pending is None:
                raise IllegalActionError("STATE_CONFLICT", words.no_suggestion, "NO_SUGGESTION")
            if pending == "pass":
                self._apply(self.you, "pass")
            else:
                self._apply(self.you, "play", pending)
            return True
        if command.kind == "pass":
            self._apply(self.you, "pass")
            return True
        if command.kind == "pick":
            plays = tip_plays(view)
            if not 1 <= command.number <= len(plays):
                raise IllegalActionError("INVALID_CARDS", words.no_move.format(
                    n=command.number, count=len(plays)), "NO_SUCH_PLAY")
            self._apply(self.you, "play", plays[command.number - 1])
            return True
        cards = cards_from_input(command.text, view.hand, view.level, view.config.wild_count)
        if not cards:
            raise IllegalActionError("INVALID_CARDS", words.no_cards_named, "NO_CARDS")
        self._apply(self.you, "play", cards)
        return True

    def _press_tip(self, game: Game, view: GameView) -> None:
        """The 提示 button: the next play that beats the table, weakest first, round again;
        y plays it."""
        words = self.words
        if self.tip is None:
            self.tip = TipButton(view)
            self.tip_presses = 0
        play = self.tip.press()
        if play is None:
            self.pending = "pass" if view.can_pass else None
            self.term.print(Text(words.tip_none, style="magenta"))
            return
        self.tip_presses += 1
        index = (self.tip_presses - 1) % len(self.tip) + 1
        self._suggest(game, view, words.tip.format(i=index, n=len(self.tip)), play, None)

    def _show_hint(self, game: Game, view: GameView) -> None:
        """The best play (the L3 search's), with its reason in the session's language; y plays
        it."""
        words = self.words
        if not self.options.hints:
            raise IllegalActionError("STATE_CONFLICT", words.hints_off, "HINTS_OFF")
        suggestion = hint(view)
        play = suggestion.cards if isinstance(suggestion.cards, Play) else None
        self._suggest(game, view, words.hint, play,
                      suggestion.reason_in(self.lang))

    def _suggest(self, game: Game, view: GameView, label: str, play: Play | None,
                 reason: str | None) -> None:
        """Show a suggested play (None: pass) and its cards' numbers, raised under the hand
        on a terminal; y plays it."""
        words = self.words
        text = Text(f"{label}: ", style="bold magenta")
        if play is None:
            text.append(words.pass_word, style="bold")
            self.pending = "pass"
        else:
            hand = sorted_hand(view.hand, view.level, view.config.wild_count)
            numbers = _numbers_of(play.cards, hand)
            if self.term.interactive:
                self._show(self._screen(game, footer=self._situation(view), marked=numbers))
            text.append_text(play_text(play, self.lang, self.style))
            text.append(f"  [{' '.join(str(n) for n in numbers)}]", style="dim")
            self.pending = play
        if reason is not None:
            text.append(f" {self.style.dash} {reason}")
        text.append(f"  {words.accept}", style="dim")
        self.term.print(text)

    def _listing(self, view: GameView) -> RenderableType:
        """The plays that may go on the table, weakest first (the 提示 order), numbered."""
        words = self.words
        plays = tip_plays(view)
        if not plays:
            return Text(words.tip_none, style="yellow")
        entries = []
        for number, play in enumerate(plays[:_LISTED], start=1):
            entry = Text(f"#{number} ", style="dim")
            entry.append_text(play_text(play, self.lang, self.style))
            entries.append(entry)
        parts: list[RenderableType] = [
            Text(words.moves_title.format(n=len(plays)), style="bold"),
            Columns(entries, padding=(0, 3)),
        ]
        if len(plays) > _LISTED:
            parts.append(Text(words.moves_more.format(n=len(plays) - _LISTED), style="dim"))
        if view.can_pass:
            parts.append(Text(words.or_pass, style="dim"))
        return Group(*parts)

    # ----------------------------------------------------------------- tribute (G6)

    def _your_tribute(self, game: Game, view: GameView) -> None:
        """Give tribute (进贡) or return a card (还贡): the allowed cards are shown, the
        person types one (or its number); t or h suggests one, y gives it."""
        words = self.words
        give = view.tribute_step == "give"
        faces = (tribute_candidates if give else return_candidates)(
            view.hand, view.level, view.config)
        shown = Text(" ").join(card_text(Card(c), self.style) for c in faces)
        if give:
            template, who = words.must_give, ""
        else:
            payer = next(t.payer for t in view.tributes
                         if t.receiver == self.you and t.returned is None)
            template, who = words.must_return, self._name(payer)
        before, _, after = template.format(who=who, cards="\0").partition("\0")
        footer = Text(before, style="bold cyan") + shown + Text(after, style="bold cyan")
        self._show(self._screen(game, footer=footer))
        kind = "give_tribute" if give else "return_tribute"
        suggestion: int | None = None
        while True:
            line = self.term.ask(Text(words.prompt_tribute if give else words.prompt_return,
                                      style="bold"))
            low = line.strip().lower()
            try:
                if low in ("q", "quit", "exit"):
                    if self.term.confirm(words.quit_confirm, default=False):
                        raise _Quit
                    continue
                if low in ("?", "help"):
                    self.term.print(footer)
                    continue
                if not low:
                    self.term.print(Text(words.empty_tribute, style="yellow"))
                    continue
                if low in ("n", "no"):
                    if suggestion is None:
                        raise IllegalActionError("STATE_CONFLICT", words.no_to_decline,
                                                 "NO_SUGGESTION_TO_DECLINE")
                    suggestion = None
                    self.term.print(Text(words.declined, style="dim"))
                    continue
                if low in (*_TIP_WORDS, "h", "hint"):
                    advice = hint(view)
                    assert isinstance(advice.cards, int)  # a tribute hint names one card
                    suggestion = advice.cards
                    text = Text(f"{words.hint}: ", style="bold magenta")
                    text.append_text(card_text(Card(suggestion), self.style))
                    why = advice.reason_in(self.lang)
                    text.append(f" {self.style.dash} {why}. {words.accept_give}")
                    self.term.print(text)
                    continue
                if low in ("y", "yes", *_YES_WORDS):
                    if suggestion is None:
                        raise IllegalActionError("STATE_CONFLICT", words.no_suggestion,
                                                 "NO_SUGGESTION")
                    self._apply(self.you, kind, suggestion)
                    return
                cards = cards_from_input(line, view.hand, view.level, view.config.wild_count)
                if len(cards) != 1:
                    raise IllegalActionError("INVALID_TRIBUTE", "name exactly one card",
                                             "ONE_CARD")
                self._apply(self.you, kind, int(next(iter(cards))))
                return
            except IllegalActionError as error:
                self._refuse(error)



class GuandanReplay(GuandanSession):
    """A saved match shown action by action, drawn as the training mode draws it, from
    seat 0's side: every seat acts from the record (already verified by
    :meth:`Match.from_json`), on a fresh match with the same seed and rules."""

    def __init__(self, recorded: Match, terminal: Terminal, *, lang: str, style: Style,
                 step: bool = False, fast: bool = False) -> None:
        options = GuandanOptions(seat=0, levels=("L1",) * 3, seed=recorded.seed, lang=lang,
                                 style=style, fast=fast, config=recorded.config,
                                 max_hands=recorded.max_hands)
        super().__init__(options, terminal)
        self.bots.clear()
        self.seats = seat_labels(0, self.match.teams, self.words, {}, neutral=True)
        # Every seat acts from the one record.
        recording = Recording(action for _, action in recorded.history)
        self.actors = {seat: Recorded(recording) for seat in range(4)}
        self.step = step

    @property
    def team_names(self) -> tuple[str, str]:
        teams = self.match.teams
        return (self.words.team_n.format(a=teams[0][0], b=teams[0][1]),
                self.words.team_n.format(a=teams[1][0], b=teams[1][1]))

    def _view(self, game: Game) -> GameView:
        # A replay shows every tribute card: the record holds them all.
        view = game.view(self.you)
        return replace(view, history=game.history, tributes=game.tributes)

    def recorded_turn(self, seat: int, action: object) -> None:
        assert isinstance(action, Action)
        game = self._hand
        if action.action == "play":
            self._apply(action.seat, "play", action.play)
        elif action.action == "pass":
            self._apply(action.seat, "pass")
        else:
            assert action.cards is not None  # the match's own record shows every card
            self._apply(action.seat, action.action, action.cards.ids[0])
        if self.term.interactive and not game.is_over:
            self._show(self._screen(game))
            if self.step:
                if not self.term.wait_for_enter():
                    raise _Quit
            else:
                self.term.pause(0 if self.options.fast else REPLAY_PAUSE)

    def _next_hand(self) -> bool:
        return self.term.wait_for_enter() if self.step and self.term.interactive else True

    def _farewell(self) -> None:
        pass
