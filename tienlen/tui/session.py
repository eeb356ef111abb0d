"""The terminal session, written once for every game: hand after hand of a match, one actor
per seat, and one command loop for the person at the keyboard.

An actor is who plays a seat: the person (:class:`Human`), a bot (:class:`BotActor`) or
the actions of a saved match, for a replay (:class:`Recorded`). :class:`Session` runs the
match: it announces each hand, asks the actor of the seat to act until the hand is over,
shows the hand's end, saves what was asked for, and deals the next until the match is
over or the person stops (``q``, the end of input; Ctrl-C saves, then propagates). It
returns the exit status: 1 if a file that was asked for could not be written.

The person's commands are read here, for every game (:meth:`Session._handle`): cards or
their numbers, ``p`` pass, ``h`` a hint and ``y`` / ``n`` to take or decline it, ``m``
the numbered moves and ``#N`` one of them, ``?`` help, ``q`` quit, Enter. The game plugs
in only what is its own, through the :class:`tienlen.table.board.Board` its spec makes:
the board (drawing its views), the words (in the person's language) and the parse (typed
text to the game's action), with its own commands as data (Guandan's ``t`` 提示 and the
tribute steps). A game whose spec has no board is played on a plain-text board made from
the table protocol (:mod:`tienlen.tui.plain`), such as the tests' toy climbing game.

>>> from tienlen.tui.terminal import Terminal
>>> import io
>>> out = io.StringIO()
>>> session = TableSession("tienlen", Terminal(stdin=io.StringIO(""), stdout=out), seat=None,
...                        seed=3, players=2, options={"hands": 1})
>>> session.run(), "places" in out.getvalue()
(0, True)
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any, Protocol, cast

from rich.columns import Columns
from rich.console import Group, RenderableType
from rich.text import Text

from ..seeds import seed_or_fresh
from ..table import get_spec
from ..table.board import (Board, BoardSpec, CommandRefusal, Moment, PlaySettings,
                           ReplaySettings, Suggestion, fill, help_table)
from ..table.spec import GameSpec
from .common import BOT_PAUSE, REPLAY_PAUSE, Command, parse_command
from .terminal import Terminal

__all__ = ["Actor", "BotActor", "Human", "Quit", "Recorded", "Recording", "Session",
           "TableSession", "play", "replay", "board_of"]

#: The longest a review in the terminal takes, in seconds.
REVIEW_TIME_S = 10.0
_REVIEW_WORDS = {
    "en": {"tracker": "tracker", "wilds": "wild {card}: {n} left", "bombs": "bombs possible",
           "joker_bomb": "jokers", "known": "known", "after_hand": "(r: review this hand)",
           "working": "Reviewing your decisions...", "no_tracker": "no card tracker here",
           "tracker_off": "tracker off", "help_k": "the card tracker's line on or off",
           "help_r": "after a hand: its review (your mistakes, the better play, the cost)"},
    "zh": {"tracker": "记牌器", "wilds": "配牌 {card} 剩 {n}", "bombs": "可能的炸弹",
           "joker_bomb": "天王炸", "known": "已知", "after_hand": "（r：复盘本局）",
           "working": "正在复盘你的每一步……",
           "no_tracker": "这里没有记牌器", "tracker_off": "记牌器已关闭",
           "help_k": "打开或关闭记牌器", "help_r": "一局结束后：复盘（失误、更好的出法、损失）"},
}


def _lang(words: Any) -> str:
    return "zh" if getattr(words, "lang", "en") == "zh" else "en"


def _review_help(lang: str) -> tuple[tuple[str, str], ...]:
    words = _REVIEW_WORDS["zh" if lang == "zh" else "en"]
    return (("k", words["help_k"]), ("r", words["help_r"]))


# Lines kept free under the screen: the prompt and a one-line answer.
_PROMPT_ROOM = 2
# Moves listed by m; #N still takes any of them.
_LISTED = 60


class Quit(Exception):
    """The person chose to leave."""


class Actor(Protocol):
    """Who plays a seat."""

    def take_turn(self, session: Session, seat: int) -> bool:
        """Act for ``seat``; False when there is nothing to act with (a recording that
        ends before the hand does): the session stops."""


class Human:
    """The person at the keyboard."""

    def take_turn(self, session: Session, seat: int) -> bool:
        session.human_turn(seat)
        return True


class BotActor:
    """A bot: the board's bot for the seat (``bot`` is kept for callers that name one)."""

    def __init__(self, bot: object = None) -> None:
        self.bot = bot

    def take_turn(self, session: Session, seat: int) -> bool:
        session.bot_turn(seat)
        return True


class Recording:
    """The actions of a saved match, in order, shared by the seats' :class:`Recorded`
    actors."""

    def __init__(self, actions: Iterable[object]) -> None:
        self._actions: Iterator[object] = iter(actions)

    def next(self) -> object | None:
        """The next recorded action, None once they are all played."""
        return next(self._actions, None)


class Recorded:
    """A seat replayed from a :class:`Recording` (the record was verified when loaded)."""

    def __init__(self, recording: Recording) -> None:
        self.recording = recording

    def take_turn(self, session: Session, seat: int) -> bool:
        action = self.recording.next()
        if action is None:
            return False        # the match was saved before this hand ended
        session.recorded_turn(seat, action)
        return True


class Session:
    """A match in the terminal on a game's :class:`~tienlen.table.board.Board` (see the
    module's docstring). ``replay`` plays every seat from the board's record (``step``:
    one action per Enter); otherwise the person sits at ``board.you`` and bots at the
    other seats. ``hints`` off refuses ``h``; ``fast`` draws no frame between bot
    moves."""

    def __init__(self, board: Board, terminal: Terminal, *, hints: bool = True,
                 fast: bool = False, replay: bool = False, step: bool = False,
                 actors: Mapping[int, Actor] | None = None,
                 spec: GameSpec | None = None) -> None:
        self.board = board
        #: The game's spec, for the review and the tracker (issue 38): reached through its
        #: review hooks only, and only with a board that gives the person's view.
        self.review_spec = spec
        self.tracker_on = False
        self.term = terminal
        # the yes/no question's "please answer" in the board's words
        self.term.answer_again = board.words.answer_again
        self.term.answer_or = board.words.answer_or
        self.hints = hints
        self.fast = fast
        self.replay = replay
        self.step = step
        if actors is not None:
            self.actors = dict(actors)
        elif replay:
            recording = Recording(board.record())
            self.actors = {seat: Recorded(recording) for seat in range(board.players)}
        else:
            self.actors = {seat: Human() if seat == board.you else BotActor()
                           for seat in range(board.players)}
        self.log: deque[Text] = deque(maxlen=board.log_lines)
        # A move shown and waiting for y: a hint, a 提示, or a #N shown before it is played.
        self.pending: object | None = None
        # Actions taken this session, and their count when m last listed the moves: #N
        # plays at once only while that list is the current one.
        self._acted = 0
        self._listed_at = -1
        self.save_failed = False
        self._unwritable: set[Path] = set()

    @property
    def words(self) -> Any:
        return self.board.words

    # ------------------------------------------------------------------ the match

    def run(self) -> int:
        """Play hands until the match is over or the person stops; the exit status (0, or
        1 if a file could not be saved). Ctrl-C saves what can be saved, then
        propagates."""
        try:
            while True:
                self._announce_hand()
                if not self._play_hand():
                    self.term.print(Text(self.words.replay_stops, style="yellow"))
                    break
                self._finish_hand()
                if self.board.match_over() or not self._next_hand():
                    break
        except Quit:
            pass
        except EOFError:
            self.term.print(Text(self.words.eof, style="dim"))
        except KeyboardInterrupt:
            self._save("leave")
            raise
        self._save("leave")
        if not self.replay:
            self.term.print(Text(self.words.thanks, style="dim"))
        return 1 if self.save_failed else 0

    def _play_hand(self) -> bool:
        """Play the current hand to its end, each seat by its actor; False if it cannot be
        finished (a recording that stops early)."""
        while not self.board.hand_over():
            seat = self.board.turn()
            assert seat is not None  # someone acts until the hand is over
            if not self.actors[seat].take_turn(self, seat):
                return False
        return True

    def _announce_hand(self) -> None:
        self.log.clear()
        self.pending = None
        self._listed_at = -1
        for line in self.board.start_hand():
            self._event(line)
        if self.replay:
            self._show(self._screen())       # the deal, before the first action

    def _finish_hand(self) -> None:
        self._show(self._screen(reveal=True))
        self.term.print()
        for part in self.board.hand_end():
            self.term.print(part)
        self._save("hand")

    def _next_hand(self) -> bool:
        """Whether to play on (the person says so; a replay shown step by step waits for
        Enter), then deal the next hand if the game waits to be asked."""
        words = self.words
        if self.board.you is None:
            if self.replay and self.step and self.term.interactive \
                    and not self.term.wait_for_enter(words.step):
                return False
        elif self._reviewable and words.another_hand is None:
            # r reviews the hand just played, as often as asked, before the next one
            prompt = _REVIEW_WORDS[_lang(words)]["after_hand"]
            while True:
                answer = self.term.ask(f"{words.next_hand.rstrip()} {prompt} ").lower()
                if answer not in ("r", "review"):
                    break
                self._review()
            if answer in ("q", "quit"):
                return False
        elif self._reviewable:
            # the yes/no question takes r too: the review, then the question again
            question = f"{_REVIEW_WORDS[_lang(words)]['after_hand']} {words.another_hand}"
            self.term.extra_answers = {"r": self._review, "review": self._review}
            try:
                if not self.term.confirm(question, default=True):
                    return False
            finally:
                self.term.extra_answers = {}
        elif words.another_hand is not None:
            if not self.term.confirm(words.another_hand, default=True):
                return False
        elif self.term.ask(words.next_hand).lower() in ("q", "quit"):
            return False
        self.board.deal_next()
        return True

    # ------------------------------------------------------------------ review, tracker

    @property
    def _reviewable(self) -> bool:
        """Whether this session can review and track: the spec has the review hooks and
        the board gives the person's view and the finished hand (``seat_view``,
        ``review_source``)."""
        from ..review import reviewable

        return (self.review_spec is not None and reviewable(self.review_spec) and self.board.you is not None
                and callable(getattr(self.board, "seat_view", None))
                and callable(getattr(self.board, "review_source", None)))

    def _footer(self, seat: int) -> RenderableType:
        """The line above the prompt, with the tracker's line over it when it is on."""
        situation = self.board.situation(seat)
        if not (self.tracker_on and self._reviewable):
            return situation
        return Group(self._tracker_line(seat), situation)

    def _tracker_line(self, seat: int) -> Text:
        """The card tracker (记牌器) of the person's own view, on one line."""
        assert self.review_spec is not None
        data = self.review_spec.tracker(self.board.seat_view(seat))  # type: ignore[attr-defined]
        words = _REVIEW_WORDS[_lang(self.words)]
        line = Text(f"{words['tracker']}: ", style="bold cyan")
        for entry in data["ranks"]:
            line.append(f"{entry['rank']}×{entry['left']} ",
                        style="dim" if not entry["left"] else "")
        for name, count in (data.get("jokers") or {}).items():
            line.append(f"{name}×{count} ", style="dim" if not count else "")
        if data.get("wild"):
            line.append(words["wilds"].format(card=data["wild"], n=data["wilds_left"]) + " ")
        bombs = data.get("bombs") or []
        if bombs or data.get("joker_bomb"):
            shown = [f"{b['rank']}({b['most']})" for b in bombs]
            if data.get("joker_bomb"):
                shown.append(words["joker_bomb"])
            line.append(f"{words['bombs']}: {' '.join(shown)}", style="yellow")
        known = data.get("known") or []
        if known:
            # the cards the public exchanges put in another hand (Guandan, G6.11)
            seats = getattr(self.board, "seats", None)
            names = [seats[k["seat"]].name if seats else str(k["seat"]) for k in known]
            line.append(f" {words['known']}: " + " · ".join(
                f"{name} {' '.join(k['cards'])}" for name, k in zip(names, known)))
        return line

    def _review(self) -> None:
        """Review the person's decisions in the hand just played (bounded in time) and
        print it, mistakes in red."""
        from ..review import ReviewError, Reviewer, pick_record, records_of
        from ..review.text import review_lines

        assert self.review_spec is not None and self.board.you is not None
        lang = _lang(self.words)
        words = _REVIEW_WORDS[lang]
        self.term.print(Text(words["working"], style="dim"))
        reason_lang = lang if lang in getattr(self.review_spec, "reason_langs", ("en",)) else "en"
        try:
            source = self.board.review_source()  # type: ignore[attr-defined]
            record = pick_record(records_of(self.review_spec, source))
            review = Reviewer(self.review_spec, record, self.board.you, lang=reason_lang,
                              time_s=REVIEW_TIME_S).run()
        except ReviewError as error:
            self._say_refused(str(error))
            return
        styles = {"bad": "bold red", "ok": "green", "dim": "dim", "why": "italic",
                  "head": "bold"}
        for style, text in review_lines(review, str(getattr(self.review_spec, "title", "")), lang):
            self.term.print(Text(text, style=styles.get(style, "")))

    def _save(self, moment: Moment) -> None:
        """Write the board's file for ``moment``, if it has one (``--save``)."""
        saved = self.board.save(moment)
        if saved is None:
            return
        try:
            saved.path.write_text(saved.text + "\n", encoding="utf-8")
        except OSError as error:
            self.save_failed = True
            if saved.path not in self._unwritable:     # said once a file
                self._unwritable.add(saved.path)
                self._say_refused(self.words.save_failed.format(
                    path=saved.path, error=error.strerror or error))
            return
        if saved.announce:
            self.term.print(Text(self.words.saved.format(path=saved.path), style="dim"))

    # ------------------------------------------------------------------ drawing

    def _event(self, text: Text) -> None:
        """Record a line of the action log; a transcript gets it at once."""
        self.log.append(text)
        if not self.term.interactive:
            self.term.print(text, soft_wrap=self.board.soft_wrap)

    def _screen(self, footer: RenderableType | None = None, marked: Sequence[int] = (),
                reveal: bool = False) -> RenderableType:
        board, width = self.board, self.term.console.width

        def draw(events: Sequence[Text]) -> RenderableType:
            return board.screen(events=events, footer=footer, marked=marked, width=width,
                                transcript=not self.term.interactive, reveal=reveal)

        # A transcript already printed each event as it happened.
        if not self.term.interactive:
            return draw(())
        # On a short terminal the oldest log lines give way, so that the board stays whole
        # with room for the prompt and an answer below.
        return self.term.fitted(draw, self.log, _PROMPT_ROOM)

    def _show(self, screen: RenderableType) -> None:
        """Draw ``screen`` in place on a terminal; a transcript gets it after a blank line."""
        if self.term.interactive:
            self.term.redraw(screen)
        else:
            self.term.print()
            self.term.print(screen, soft_wrap=self.board.soft_wrap)

    def _say_refused(self, text: str) -> None:
        self.term.print(Text(f"{self.board.style.cross} {text}", style="bold red"))

    # ------------------------------------------------------------------ acts

    def _apply(self, seat: int, action: object) -> None:
        """Act for ``seat`` and log what happened (the game refuses an illegal action,
        changing nothing)."""
        lines = self.board.apply(seat, action)
        self._acted += 1
        self.pending = None
        for line in lines:
            self._event(line)

    def bot_turn(self, seat: int) -> None:
        """Ask the seat's bot for its action and take it; paced on a terminal, one frame a
        move (``fast`` draws only the person's turns)."""
        self._apply(seat, self.board.bot_action(seat))
        if self.term.interactive and not self.board.hand_over() and not self.fast:
            self._show(self._screen())
            self.term.pause(BOT_PAUSE)

    def recorded_turn(self, seat: int, action: object) -> None:
        """Take a recorded action for ``seat``: after a pause, or Enter with ``step``
        (``q`` or the end of input stops the replay)."""
        if self.step:
            if not self.term.wait_for_enter(self.words.step):
                raise Quit
        else:
            self.term.pause(0 if self.fast else REPLAY_PAUSE)
        self._apply(seat, action)
        if self.term.interactive and not self.board.hand_over():
            self._show(self._screen())

    # ------------------------------------------------------------------ the person

    def human_turn(self, seat: int) -> None:
        """The person's turn: read commands until one acts."""
        self.pending = None  # a suggestion is for the turn it was shown in
        # Keys pressed while the bots moved were not meant for this turn.
        self.term.discard_typeahead()
        self._show(self._screen(footer=self._footer(seat)))
        while True:
            line = self.term.ask(Text(self.board.prompt(seat), style="bold"))
            try:
                if self._handle(line, seat):
                    return
            except ValueError as error:  # the game's refusal, the parse's, the session's
                self._say_refused(self.board.refusal(error))

    def _command(self, line: str) -> Command:
        kind = self.board.commands.get(line.strip().lower())
        if kind is not None:
            return Command(kind)
        try:
            return parse_command(line)
        except ValueError:
            raise CommandRefusal("INVALID_CARDS", self.words.bad_pick.format(
                text=line.strip())) from None

    def _handle(self, line: str, seat: int) -> bool:
        """Carry out one typed command; ``True`` once the person has acted."""
        board, words = self.board, self.words
        command = self._command(line)
        kind = command.kind
        # A shown move waits for y until the person acts, declines it (n) or asks for
        # another: a refused or idle line leaves it standing.
        if kind == "empty":
            if board.can_pass(seat) and not board.actions(seat):
                self._apply(seat, board.pass_action())  # nothing else to do: Enter passes
                return True
            # Enter never passes while a play could beat the pile: say what to type.
            self.term.print(Text(board.empty_line(seat), style="yellow"))
            return False
        if kind == "no":
            if self.pending is None:
                raise CommandRefusal("STATE_CONFLICT", words.no_to_decline)
            self.pending = None
            self.term.print(Text(words.declined, style="dim"))
            return False
        if kind == "help":
            rows = tuple(words.help_rows) + (_review_help(words.lang) if self._reviewable
                                            else ())
            self.term.print(help_table(board.style, rows, title=words.help_title,
                                       headers=words.help_headers))
            return False
        if kind == "tracker":
            if not self._reviewable:
                raise CommandRefusal("STATE_CONFLICT", _REVIEW_WORDS[_lang(words)]["no_tracker"])
            self.tracker_on = not self.tracker_on
            if self.term.interactive:
                self._show(self._screen(footer=self._footer(seat)))
            else:
                self.term.print(self._tracker_line(seat) if self.tracker_on else
                                Text(_REVIEW_WORDS[_lang(words)]["tracker_off"], style="dim"))
            return False
        if kind == "quit":
            if self.term.confirm(words.quit_confirm, default=False):
                raise Quit
            return False
        if kind == "moves":
            self.term.print(self._listing(seat))
            self._listed_at = self._acted
            return False
        if kind == "hint":
            if not self.hints:
                raise CommandRefusal("STATE_CONFLICT", words.hints_off)
            self._suggest(seat, board.hint(seat))
            return False
        if kind == "tip":
            self._suggest(seat, board.tip(seat))
            return False
        if kind == "yes":
            if self.pending is None:
                raise CommandRefusal("STATE_CONFLICT", words.no_suggestion)
            self._apply(seat, self.pending)
            return True
        if kind == "pass":
            self._apply(seat, board.pass_action())
            return True
        if kind == "pick":
            return self._pick(seat, command.number)
        self._apply(seat, board.parse(command.text, seat))
        return True

    def _pick(self, seat: int, number: int) -> bool:
        """``#N``: move N of the list ``m`` shows; shown first (y plays it) unless that list
        is the current one, where the board asks for it."""
        words, actions = self.words, self.board.actions(seat)
        if not actions:
            raise CommandRefusal("INVALID_CARDS", words.no_play)
        if not 1 <= number <= len(actions):
            template = words.no_move_one if len(actions) == 1 else words.no_move
            raise CommandRefusal("INVALID_CARDS", template.format(n=number,
                                                                      count=len(actions)))
        action = actions[number - 1]
        if not self.board.confirm_pick or self._listed_at == self._acted:
            self._apply(seat, action)
            return True
        # The list is not on screen: show what #N is before playing it.
        shown = fill(words.pick_shown, n=str(number), action=self.board.action_text(action))
        self.term.print(shown)
        self.pending = action
        return False

    def _suggest(self, seat: int, suggestion: Suggestion) -> None:
        """Show a suggestion; ``y`` takes its action. On a terminal the cards it plays are
        raised under the hand."""
        self.pending = suggestion.action
        if suggestion.marked and self.term.interactive:
            self._show(self._screen(footer=self._footer(seat), marked=suggestion.marked))
        for line in suggestion.lines:
            self.term.print(line)

    def _listing(self, seat: int) -> RenderableType:
        """The moves of ``seat``, numbered for ``#N`` (the first :data:`_LISTED`), and
        passing when allowed."""
        board, words = self.board, self.words
        actions = board.actions(seat)
        if not actions:
            return Text(words.no_actions, style="yellow")
        entries = [Text(f"#{number} ", style="dim") + board.action_text(action)
                   for number, action in enumerate(actions[:_LISTED], start=1)]
        parts: list[RenderableType] = [
            Text(board.listing_title(seat, len(actions)), style="bold"),
            Columns(entries, padding=(0, 3))]
        if len(actions) > _LISTED:
            parts.append(Text(words.moves_more.format(n=len(actions) - _LISTED), style="dim"))
        if board.can_pass(seat):
            parts.append(Text(words.or_pass, style="dim"))
        return Group(*parts)


# ------------------------------------------------------------------ the ways in


def board_of(spec: GameSpec) -> BoardSpec | None:
    """``spec`` as a spec with a board of its own, or None (the plain-text board then)."""
    if all(callable(getattr(spec, name, None)) for name in ("board", "replay_board", "words")):
        return cast(BoardSpec, spec)
    return None


def play(game: str, settings: PlaySettings, terminal: Terminal) -> int:
    """``tienlen play --game GAME``: a match on the game's board (the plain-text board for a
    game with none of its own); the exit status."""
    spec = get_spec(game)
    own = board_of(spec)
    if own is None:
        from .plain import TableBoard

        board: Board = TableBoard(spec, seat=settings.seat, levels=settings.levels,
                                  seed=seed_or_fresh(settings.seed),
                                  players=settings.options.get("players"))
    else:
        board = own.board(settings)
    return Session(board, terminal, hints=settings.hints, fast=settings.fast, spec=spec).run()


def replay(game: str, path: Path, settings: ReplaySettings, terminal: Terminal) -> int:
    """``tienlen replay FILE``: a saved file of ``game``, verified, shown action by
    action; the exit status."""
    own = board_of(get_spec(game))
    if own is None:
        raise ValueError(f"{path}: {game} has no replay viewer")
    return Session(own.replay_board(path, settings), terminal, replay=True, step=settings.step,
                   fast=settings.fast).run()


class TableSession(Session):
    """Any game of the table registry in the terminal, through the table protocol only,
    on the plain-text board (:class:`tienlen.tui.plain.TableBoard`): the person at
    ``seat`` (None: bots at every seat, to watch), bots of ``levels`` (one for all, or one
    per other seat) at the others, or, with ``recorded``, every seat replayed from
    ``(seat, action)`` pairs."""

    def __init__(self, game: str | GameSpec, terminal: Terminal, *, seat: int | None = 0,
                 levels: Sequence[str] = (), seed: int = 0, players: int | None = None,
                 options: Mapping[str, Any] | None = None,
                 recorded: Iterable[tuple[int, Mapping[str, Any]]] | None = None) -> None:
        from .plain import TableBoard

        spec = get_spec(game) if isinstance(game, str) else game
        board = TableBoard(spec, seat=None if recorded is not None else seat, levels=levels,
                           seed=seed, players=players, options=options, recorded=recorded)
        super().__init__(board, terminal, replay=recorded is not None, spec=spec)
        self.table_board = board

    @property
    def state(self) -> Any:
        """The match's table state (:class:`tienlen.table.TableState`)."""
        return self.table_board.state

    @property
    def spec(self) -> GameSpec:
        return self.table_board.spec
