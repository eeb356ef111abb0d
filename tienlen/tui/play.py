"""``tienlen play``: one person against bots, hand after hand, in the terminal.

The loop asks the engine everything: the :class:`~tienlen.games.tienlen.match.Match` deals and picks the
leader, :class:`~tienlen.games.tienlen.game.Game` accepts or refuses each move with a reason, the bots
and the hint see only a :class:`~tienlen.games.tienlen.view.View`. This module turns typed text into a
move and draws what happened.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from rich.columns import Columns
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from tienlen.games.tienlen.bots import Bot, make_bot
from tienlen.games.tienlen.cards import Card, Cards
from tienlen.games.tienlen.actions import PASS, Action, Move
from ..errors import CardParseError
from tienlen.games.tienlen.game import Game
from tienlen.games.tienlen.match import Match
from tienlen.games.tienlen.refusals import IllegalMoveError, Reason, Wording, play_message
from tienlen.games.tienlen.replay import ReplayLabels, game_to_json_with_labels
from tienlen.games.tienlen.rules import Rules
from ..seeds import session_bot_seed
from tienlen.games.tienlen.view import View
from .common import (BOT_PAUSE, Command, CommandKind, Style, _is_number, _numbered,
                     check_card_number, help_table as _help_table, input_tokens,
                     parse_command)
from tienlen.games.tienlen.board import (SeatInfo, Style, board, cards_text, combo_text, finishing_table,
                     ordinal, prose_text, scoreboard)
from .session import Actor, BotActor, Human, Quit, Session
from .terminal import Terminal

__all__ = ["PlayOptions", "PlaySession", "Command", "parse_command", "cards_from_input",
           "input_tokens", "check_card_number",
           "bot_names", "save_path", "moves_listing", "help_table"]

# The deals that win at once (R11.3), in a player's words.
_INSTANT_WIN_WORDS = {"four_twos": "four 2s", "dragon": "a dragon (3 to A)",
                      "six_pairs": "six pairs", "five_pairs": "five consecutive pairs"}

#: Names for the bots, in seat order after the person's seat.
BOT_NAMES: tuple[str, ...] = ("Minh", "Lan", "Hoa")
# How many lines of the action log stay on the redrawn board.
_LOG_LINES = 6
# Lines kept free under the board: the prompt and a one-line answer.
_PROMPT_ROOM = 2

def cards_from_input(text: str, hand: Cards) -> Cards:
    """The cards named by ``text``: card names (``3s 10h A♠``) and/or 1-based positions in
    ``hand`` as drawn (``1 2 3``). Whether the play is legal is the game's question.

    >>> hand = Cards.parse("3s 4s 5h 9d")
    >>> print(cards_from_input("1 2 3", hand), "|", cards_from_input("9d, 1", hand))
    3♠ 4♠ 5♥ | 3♠ 9♦
    >>> cards_from_input("7", hand)
    Traceback (most recent call last):
    ...
    ValueError: there is no card 7: your hand has 4 cards, numbered 1-4
    >>> cards_from_input("2", Cards.parse("9d"))
    Traceback (most recent call last):
    ...
    ValueError: there is no card 2: your hand has one card, number 1
    """
    ordered = list(hand)
    chosen: list[Card] = []
    # Separated like card text (spaces and/or commas: tienlen.games.spelling).
    for token in text.replace(",", " ").split():
        if _is_number(token):
            number = int(token)
            if not 1 <= number <= len(ordered):
                raise ValueError(f"there is no card {number}: {_numbered(len(ordered), 'card')}")
            card = ordered[number - 1]
        else:
            card = Card.parse(token)
        if card in chosen:
            raise ValueError(f"{card} is named twice")
        chosen.append(card)
    return Cards(chosen)


def bot_names(players: int, you: int) -> list[str]:
    """Seat names: "You" for the person, a bot name for every other seat."""
    names = iter(BOT_NAMES)
    return ["You" if seat == you else next(names) for seat in range(players)]


def save_path(path: Path, hand_number: int) -> Path:
    """Where hand ``hand_number``'s replay goes: the first hand in ``path`` itself, later
    hands beside it as ``<stem>-<n><suffix>`` (a replay holds one hand)."""
    if hand_number == 1:
        return path
    return path.with_name(f"{path.stem}-{hand_number}{path.suffix or '.json'}")


# The session's bot seeds (kept under the old private name).
_bot_seed = session_bot_seed


@dataclass(frozen=True, slots=True)
class PlayOptions:
    """Everything ``tienlen play`` was asked for, already parsed."""

    players: int = 4
    seat: int = 0
    levels: tuple[str, ...] = ("L2", "L2", "L2")
    seed: int | None = None
    rules: Rules = Rules()
    hints: bool = True
    hint_level: str = "L3"
    style: Style = Style()
    save: Path | None = None
    fast: bool = False
    #: L3 opponents' sampled deals per move (``None``: their 50 ms time budget).
    iterations: int | None = None


# The person chose to leave (the one session's Quit, under the name this module used).
_Quit = Quit


class PlaySession(Session):
    """A match between the person at ``options.seat`` and bots, driven from a terminal by
    the one terminal session (:class:`tienlen.tui.session.Session`): this class keeps Tiến
    Lên's board, words and commands."""

    def __init__(self, options: PlayOptions, terminal: Terminal) -> None:
        players = options.players
        if not 0 <= options.seat < players:
            raise ValueError(f"--seat must be 0..{players - 1} with {players} players; "
                             f"got {options.seat}")
        if len(options.levels) != players - 1:
            raise ValueError(f"--bots: give one level for each of the {players - 1} "
                             f"opponents, or one level for all; got {len(options.levels)}")
        self.options = options
        self.term = terminal
        self.style = options.style
        self.you = options.seat
        self.match = Match(players, seed=options.seed, rules=options.rules)
        names = bot_names(players, self.you)
        levels = iter(options.levels)
        self.bots: dict[int, Bot] = {}
        seats: list[SeatInfo] = []
        for seat in range(players):
            if seat == self.you:
                seats.append(SeatInfo(names[seat], None, is_you=True))
                continue
            level = next(levels)
            extra = ({"iterations": options.iterations}
                     if options.iterations is not None and level.lower() == "l3" else {})
            # make_bot validates the level name (a ValueError names the choices).
            self.bots[seat] = make_bot(level, seed=_bot_seed(self.match.seed, seat), **extra)
            seats.append(SeatInfo(names[seat], self.bots[seat].name))
        self.seats = seats
        self.actors: dict[int, Actor] = {
            seat: Human() if seat == self.you else BotActor(self.bots[seat])
            for seat in range(players)}
        self.log: deque[Text] = deque(maxlen=_LOG_LINES)
        # A move shown and waiting for y: a hint, or a #N picked without the list on screen.
        self._pending_hint: Move | None = None
        # The history length when the person last listed their moves with m: #N plays at
        # once only while that list is the current one.
        self._listed_at = -1
        self.save_failed = False

    # ------------------------------------------------------------------ helpers

    @property
    def game(self) -> Game:
        return self.match.game

    def _name(self, seat: int) -> str:
        return self.seats[seat].name

    def _prose(self, text: str) -> Text:
        """An engine or hint message as the screen draws it: seats by the names the board
        shows and cards by the board's card renderer, both read from a
        :class:`~tienlen.games.tienlen.refusals.Wording`'s fields, never found in its text."""
        return prose_text(text, self.style, self._name)

    def _words(self, text: str) -> str:
        """:meth:`_prose` as plain text."""
        return self._prose(text).plain

    def _error_words(self, error: ValueError) -> str:
        """A refusal as the screen words it: an :class:`IllegalMoveError` from its fields."""
        if isinstance(error, IllegalMoveError):
            return self._words(error.wording)
        return self._words(str(error))

    def _title(self) -> str:
        sep = "-" if self.style.ascii else "·"
        parts = [self.style.title, f"hand {self.match.hand_number}",
                 f"seed {self.match.seed}"]
        if self.match.rules != Rules():
            parts.append(f"rules {self.match.rules.name}")
        return f" {sep} ".join(parts)

    def _event(self, text: Text) -> None:
        """Record a line of the action log; a transcript gets it at once."""
        self.log.append(text)
        if not self.term.interactive:
            self.term.print(text)

    def _screen(self, footer: RenderableType | None = None,
                reveal: bool = False) -> RenderableType:
        game = self.game

        def draw(events: Sequence[Text]) -> RenderableType:
            return board(game.view(self.you), self.seats, self.style, title=self._title(),
                         hands=game.hands if reveal else None, events=events, footer=footer)

        # A transcript already printed each event as it happened.
        if not self.term.interactive:
            return draw(())
        # On a short terminal the oldest log lines give way, so that the title and the
        # header stay on screen with room for the prompt and an answer below.
        return self.term.fitted(draw, self.log, _PROMPT_ROOM)

    def _refuse(self, message: str) -> None:
        mark = "x" if self.style.ascii else "✗"
        self.term.print(Text(f"{mark} {message}", style="bold red"))

    # ------------------------------------------------------------------- match

    # The one session's hooks (run() is Session.run: play hands until the person stops;
    # a replay asked for and not written makes the exit status 1, for a script to see).

    def _hand_over(self) -> bool:
        return self.game.is_over

    def _turn(self) -> int | None:
        return self.game.turn

    def _next_hand(self) -> bool:
        if not self.term.confirm("Play another hand?", default=True):
            return False
        self.match.next_hand()
        return True

    def _end_of_input(self) -> None:
        self.term.print(Text("End of input: leaving the game.", style="dim"))

    def _farewell(self) -> None:
        self.term.print(Text("Thanks for playing.", style="dim"))

    def human_turn(self, seat: int) -> None:
        self._your_turn()

    def bot_turn(self, seat: int, bot: object) -> None:
        assert isinstance(bot, Bot)
        self._apply(seat, bot.choose(self.game.view(seat)))
        if self.term.interactive and not self.game.is_over:
            self.term.redraw(self._screen())
            self.term.pause(0 if self.options.fast else BOT_PAUSE)

    def _announce_hand(self) -> None:
        game = self.game
        self.log.clear()
        self._pending_hint = None
        self._listed_at = -1
        number = self.match.hand_number
        leader = game.turn
        text = Text(f"Hand {number}: ", style="bold")
        if game.instant_win is not None:
            # An instant win (R11.3): the deal itself ended the hand.
            winner, how = game.instant_win
            words = _INSTANT_WIN_WORDS.get(how, how)
            text.append(f"{self._name(winner)} {'win' if winner == self.you else 'wins'} "
                        f"at once with {words} (instant win, R11.3): ")
            text.append_text(cards_text(game.hand(winner), self.style))
            self._event(text)
            return
        assert leader is not None  # a hand not won at the deal has a seat to act
        if game.must_include is not None:
            text.append(f"{self._name(leader)} hold{'' if leader == self.you else 's'} ")
            text.append_text(cards_text([game.must_include], self.style))
            text.append(" and lead" + ("" if leader == self.you else "s")
                        + ", with a play that includes it.")
        else:
            previous = self.match.results[-1][0] if self.match.results else None
            who = self._name(leader)
            verb = "lead" if leader == self.you else "leads"
            if previous == leader:
                text.append(f"{who} won hand {number - 1} and {verb}.")
            else:
                text.append(f"{who} {verb}.")
        self._event(text)

    def _finish_hand(self) -> None:
        game, match = self.game, self.match
        after = match.scores
        score = match.hand_scores[-1]
        points = score.points
        self.term.redraw(self._screen(reveal=True))
        self.term.print()
        if score.instant_win:
            winner = game.finished[0]
            self.term.print(Text(f"{self._name(winner)} won at once (instant win, R11.3), "
                                 f"+{points[winner]}; everyone else shares last place.",
                                 style="bold"))
        else:
            self.term.print(finishing_table(game.finished, self.seats, self.style, points))
        for seat in range(game.players):
            if score.places[seat] != game.players:
                continue
            line = Text(f"{self._name(seat)} finished last, left holding ", style="bold")
            line.append_text(cards_text(game.hand(seat), self.style))
            self.term.print(line)
        penalties = None
        if match.rules.penalties is not None:
            penalties = match.penalties
            self.term.print(Text("Penalties (R11.5):", style="bold"))
            for payment in score.payments:
                verb = "pay" if payment.payer == self.you else "pays"
                self.term.print(self._prose(Wording.concat(
                    f"  {self._name(payment.payer)} {verb} {self._name(payment.payee)} "
                    f"{payment.amount}: ", payment.detail)))
            if not score.payments:
                self.term.print(Text("  none this hand", style="dim"))
        self.term.print(scoreboard(after, match.place_counts, self.seats,
                                   len(match.results), self.style, penalties))
        self._save()

    def _save(self) -> None:
        if self.options.save is None:
            return
        path = save_path(self.options.save, self.match.hand_number)
        labels = ReplayLabels(tuple(seat.name for seat in self.seats), self.match.seed,
                              self.match.hand_number)
        text = game_to_json_with_labels(self.game, labels, indent=1)
        try:
            path.write_text(text + "\n", encoding="utf-8")
        except OSError as error:
            self.save_failed = True
            self._refuse(self._words(f"could not save the replay to {path}: "
                                     f"{error.strerror or error}"))
            return
        self.term.print(Text(f"Replay saved to {path} (tienlen replay {path})", style="dim"))

    # --------------------------------------------------------------------- acts

    def _apply(self, seat: int, move: Move) -> Action:
        """Act for ``seat`` and log what happened (the game refuses illegal moves)."""
        game = self.game
        had_pile = game.pile is not None
        action = game.act(move, seat=seat)
        name = self._name(seat)
        you = seat == self.you
        if action.cards is None:
            self._event(Text(f"{name} pass{'' if you else 'es'}", style="italic"))
        else:
            line = Text(f"{name} {'lead' if not had_pile else 'play'}{'' if you else 's'} ")
            assert action.combo is not None
            line.append_text(combo_text(action.combo, self.style))
            self._event(line)
        if action.cards is not None and seat in game.finished:
            place = game.finished.index(seat) + 1
            self._event(Text(f"{name} {'are' if you else 'is'} out: {ordinal(place)} place.",
                             style="green"))
        if game.is_over:
            last = game.loser
            assert last is not None
            self._event(Text(f"The hand is over: {self._name(last)} finished last.",
                             style="bold"))
        elif had_pile and game.pile is None:
            leader = game.turn
            assert leader is not None
            self._event(Text(f"Everyone passed: the pile is cleared and "
                             f"{self._name(leader)} lead{'' if leader == self.you else 's'}.",
                             style="cyan"))
        return action

    def _situation(self, view: View) -> Text:
        """One line above the prompt saying what the person may do now."""
        text = Text("Your turn: ", style="bold cyan")
        if view.pile is None:
            text.append("you lead")
            if view.must_include is not None:
                text.append(", and your play must include ")
                text.append_text(cards_text([view.must_include], self.style))
            else:
                text.append(": play any combination")
        else:
            moves = view.legal_moves()
            if view.seat in view.locked_seats:
                # The refusal's own words, from the rule table: which bombs may cut this
                # pile out of turn (R5.2; R11.2 in the South).
                text.append_text(self._prose(play_message(
                    Reason.LOCKED_OUT, Cards(), hand=view.hand, pile=view.pile.cards,
                    pile_code=view.pile.code, must_include=-1, flags=view.rules.flags)))
                if not moves:
                    text.append("; you hold none: pass (p or Enter)")
            elif not moves:
                text.append("nothing you hold beats ")
                text.append_text(cards_text(view.pile.cards, self.style))
                text.append(", so pass (p or Enter)")
            else:
                text.append("beat ")
                text.append_text(cards_text(view.pile.cards, self.style))
                text.append(" or pass")
        text.append(".  ", style="")
        text.append("Type cards or numbers; ? for help.", style="dim")
        return text

    def _your_turn(self) -> None:
        view = self.game.view(self.you)
        self._pending_hint = None  # a suggestion is for the turn it was shown in
        # Keys pressed while the bots moved were not meant for this turn.
        self.term.discard_typeahead()
        self.term.redraw(self._screen(footer=self._situation(view)))
        while True:
            line = self.term.ask(Text("Your move> ", style="bold"))
            try:
                if self._handle(line, view):
                    return
            except ValueError as error:  # IllegalMoveError, CardParseError and the like
                self._refuse(self._error_words(error))

    def _handle(self, line: str, view: View) -> bool:
        """Carry out one typed command; ``True`` once the person has acted."""
        command = parse_command(line)
        # A shown move waits for y until the person acts, declines it (n) or asks for
        # another: a refused or idle line leaves it standing.
        pending = self._pending_hint
        if command.kind == "empty":
            if view.can_pass() and not view.legal_moves():
                self._apply(self.you, PASS)  # nothing else to do: Enter passes
                return True
            # Enter never passes while a play could beat the pile: say what to type.
            self.term.print(Text(
                "Enter does nothing on a lead: type cards or their numbers (m lists your "
                "plays, h suggests one)." if view.pile is None else
                "Enter passes only when nothing beats the pile: type p to pass, or cards to "
                "beat it (m lists your plays, h suggests one).", style="yellow"))
            return False
        if command.kind == "no":
            if pending is None:
                raise ValueError("there is no suggestion to decline: type cards, or h for a hint")
            self._pending_hint = None
            self.term.print(Text("Not played: type your own move.", style="dim"))
            return False
        if command.kind == "help":
            self.term.print(help_table(self.style))
            return False
        if command.kind == "quit":
            if self.term.confirm("The hand is not over. Quit anyway?", default=False):
                raise _Quit
            return False
        if command.kind == "moves":
            self.term.print(moves_listing(view, self.style))
            self._listed_at = len(view.history)
            return False
        if command.kind == "hint":
            self._show_hint(view)
            return False
        if command.kind == "yes":
            if pending is None:
                raise ValueError("there is no suggestion to accept: type h for a hint first")
            self._apply(self.you, pending)
            return True
        if command.kind == "pass":
            self._apply(self.you, PASS)
            return True
        if command.kind == "pick":
            moves = view.legal_moves()
            if not moves:
                raise ValueError("you have no legal play: pass (p)")
            if not 1 <= command.number <= len(moves):
                raise ValueError(f"there is no move #{command.number}: "
                                 f"{_numbered(len(moves), 'move')} (m lists them)")
            move = moves[command.number - 1]
            if self._listed_at == len(view.history):
                self._apply(self.you, move)
                return True
            # The list is not on screen: show what #N is before playing it.
            text = Text(f"#{command.number} is ", style="bold")
            text.append_text(cards_text(move, self.style))
            text.append(". Type y to play it, n not to, or m to see the list.", style="")
            self.term.print(text)
            self._pending_hint = move
            return False
        try:
            cards = cards_from_input(command.text, view.hand)
        except CardParseError as error:
            raise ValueError(f"{error}. Type ? for help.") from None
        if not cards:
            raise ValueError("name at least one card, or type p to pass")
        self._apply(self.you, cards)
        return True

    def _show_hint(self, view: View) -> None:
        if not self.options.hints:
            raise ValueError("hints are off for this game (--no-hints)")
        try:
            from tienlen.games.tienlen.hints import hint  # the hint engine loads only when asked for
        except ImportError:
            raise ValueError("hints are not available in this version") from None

        suggestion = hint(view, level=self.options.hint_level)
        move = suggestion.move
        text = Text("Hint: ", style="bold magenta")
        if not isinstance(move, Cards):         # PASS
            text.append("pass", style="bold")
        else:
            text.append("play ", style="bold")
            text.append_text(cards_text(move, self.style))
        text.append(f" {self.style.dash} ")
        text.append_text(self._prose(suggestion.reason))
        self.term.print(text)
        self.term.print(Text("Type y to play it, n (or your own move) to choose yourself.",
                             style="dim"))
        self._pending_hint = move


def moves_listing(view: View, style: Style) -> RenderableType:
    """Every legal play, numbered for ``#N``, plus passing when allowed."""
    moves = view.legal_moves()
    if not moves:
        return Text("No legal play: pass (p).", style="yellow")
    entries = []
    for number, move in enumerate(moves, start=1):
        entry = Text(f"#{number} ", style="dim")
        entry.append_text(cards_text(move, style))
        entries.append(entry)
    parts: list[RenderableType] = [
        Text(f"{len(moves)} legal play{'s' if len(moves) != 1 else ''} "
             "(type #N to play one):", style="bold"),
        Columns(entries, padding=(0, 3)),
    ]
    if view.can_pass():
        parts.append(Text("or p to pass", style="dim"))
    return Group(*parts)


_HELP: Sequence[tuple[str, str]] = (
    ("3s 4s 5h   10h   A♠", "play these cards (ranks 3-10 J Q K A 2, suits s c d h)"),
    ("1 2 3", "play the cards with these numbers (shown under your hand)"),
    ("p, pass", "pass: you are locked out until the pile clears (Enter passes when "
                "nothing beats the pile)"),
    ("h, hint", "suggest a move and say why; then y plays it, n declines it"),
    ("m, moves", "list your legal plays, numbered"),
    ("#N", "play move N of that list (shown first if the list is not on screen)"),
    ("?, help", "this help"),
    ("q, quit", "leave the game (asks first during a hand)"),
)


def help_table(style: Style, rows: Sequence[tuple[str, str]] = _HELP, *,
               title: str = "Commands", headers: tuple[str, str] = ("type", "to")) -> Table:
    """The commands, one row each (Tiến Lên's by default; Guandan passes its own)."""
    return _help_table(style, rows, title=title, headers=headers)
