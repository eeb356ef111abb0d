"""Tiến Lên at a table (:mod:`tienlen.table`): a match of a fixed number of hands,
wrapping :class:`~tienlen.games.tienlen.match.Match`, its games and the bots without changing them.

>>> from tienlen.table import get_spec
>>> spec = get_spec("tienlen")
>>> state = spec.new_match(seed=2, options={"hands": 1})
>>> bots = [spec.make_bot("L1", seed=s) for s in range(4)]
>>> while state.phase != "over":
...     seat = state.turn
...     _ = state.apply(bots[seat].act(state.bot_view(seat)), seat)
>>> sorted(state.outcome()["places"])
[1, 2, 3, 4]
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tienlen.games.tienlen.actions import PASS, Action as GameAction
from tienlen.games.tienlen.bots import LEVELS, make_bot
from tienlen.games.tienlen.bots.base import Bot
from tienlen.games.tienlen.cards import Cards
from tienlen.games.tienlen.explain import REASON_LANGS
from tienlen.games.tienlen.plays import Combo
from tienlen.errors import CardParseError
from tienlen.games.tienlen.match import Match
from tienlen.games.tienlen.refusals import IllegalMoveError, Wording
from tienlen.table.spec import Action, IllegalActionError, MatchTable, check_action, table_option
from tienlen.games.tienlen.view import View
from tienlen.games.tienlen.table_data import card_names as _names, combo_json as _combo_json

if TYPE_CHECKING:
    from tienlen.table.board import Board, PlaySettings, ReplaySettings, TableWords

__all__ = ["SPEC", "TienlenSpec", "TienlenTable", "TienlenTableBot", "DEFAULT_HANDS"]

#: Hands in a table's match unless the table says otherwise.
DEFAULT_HANDS = 5
#: The longest match a table may ask for.
MAX_HANDS = 1000
HISTORY_TAIL = 24


def _record(action: GameAction) -> dict[str, Any]:
    if action.cards is None:
        return {"seat": action.seat, "kind": "pass"}
    return dict(_combo_json(action.cards, action.combo), seat=action.seat)


class TienlenTable(MatchTable):
    """A Tiến Lên match at a table (see :class:`tienlen.table.TableState`)."""

    game = "tienlen"

    def __init__(self, seed: int, *, players: int = 4, hands: int = DEFAULT_HANDS) -> None:
        self._match = Match(players, seed=seed)
        self._hands = hands
        self._trick: dict[int, dict[str, Any]] = {}

    @property
    def match(self) -> Match:
        return self._match

    @property
    def seed(self) -> int:
        return self._match.seed

    @property
    def players(self) -> int:
        return self._match.players

    @property
    def phase(self) -> str:
        if not self._match.game.is_over:
            return "play"
        return "over" if self._match.hand_number >= self._hands else "hand_over"

    @property
    def turn(self) -> int | None:
        return self._match.game.turn

    @property
    def hand_number(self) -> int:
        return self._match.hand_number

    def legal_actions(self) -> list[dict[str, Any]]:
        game = self._match.game
        if game.turn is None:
            return []
        out: list[dict[str, Any]] = [{"kind": "pass"}] if game.can_pass() else []
        from tienlen.games.tienlen.plays import classify

        out.extend(_combo_json(m, classify(m, game.rules)) for m in game.legal_moves())
        return out

    def _check(self, action: Action, seat: int) -> tuple[dict[str, Any], Cards | None]:
        a = check_action(action)
        self._check_acting(seat)
        if a["kind"] not in ("play", "pass"):
            raise IllegalActionError("BAD_ACTION", "Tiến Lên has no tribute")
        cards = None
        if a["kind"] == "play":
            try:
                cards = Cards.parse(" ".join(a["cards"]))
            except CardParseError as error:
                raise IllegalActionError("INVALID_CARDS", str(error)) from None
        return a, cards

    def verify(self, action: Action, seat: int) -> None:
        _, cards = self._check(action, seat)
        game = self._match.game
        try:
            if cards is None:
                game.verify_pass(seat)
            else:
                game.verify_play(cards, seat)
        except IllegalMoveError as error:
            # the move's own refusal is kept as the cause: the words word it (its fields)
            raise IllegalActionError(error.reason.name, str(error)) from error

    def apply(self, action: Action, seat: int) -> dict[str, Any]:
        _, cards = self._check(action, seat)
        game = self._match.game
        leading = game.pile is None
        try:
            done = game.pass_turn(seat) if cards is None else game.play(cards, seat)
        except IllegalMoveError as error:
            # the move's own refusal is kept as the cause: the words word it (its fields)
            raise IllegalActionError(error.reason.name, str(error)) from error
        record = _record(done)
        if leading:
            self._trick = {}
        self._trick[seat] = record
        return self._remember(record, seat)

    def next_hand(self) -> None:
        self._check_deal()
        self._match.next_hand()
        self._trick = {}

    def bot_view(self, seat: int) -> View:
        return self._match.game.view(seat)

    def outcome(self) -> dict[str, Any] | None:
        scores = self._match.hand_scores
        if not scores:
            return None
        last = scores[-1]
        return {"hand": len(scores), "places": list(last.places), "points": list(last.points),
                "totals": list(self._match.totals), "hands": self._hands}

    def view(self, seat: int) -> dict[str, Any]:
        self._check_seat(seat)
        game = self._match.game
        v = game.view(seat)
        pile = None
        if v.pile is not None:
            pile = dict(_combo_json(v.pile.cards, v.pile), seat=v.pile_owner)
        return {
            "game": "tienlen", "seat": seat, "players": self.players, "phase": self.phase,
            "hand_number": self.hand_number, "hands": self._hands, "turn": v.turn,
            "hand": _names(v.hand), "hand_sizes": list(v.card_counts), "pile": pile,
            "trick": {str(s): a for s, a in self._trick.items()},
            "locked": sorted(v.locked_seats), "finished": list(v.finished),
            "must_include": None if v.must_include is None else v.must_include.ascii(),
            "history": [_record(a) for a in v.history[-HISTORY_TAIL:]],
            "can_pass": v.turn == seat and v.can_pass(),
            "totals": list(self._match.totals),
            "result": self.outcome() if self.phase in ("hand_over", "over") else None,
        }


class TienlenTableBot:
    """A Tiến Lên bot (:func:`tienlen.games.tienlen.bots.make_bot`) answering action dicts; its
    explanation is :func:`tienlen.games.tienlen.hints.hint` at its own level and seed."""

    def __init__(self, level: str, bot: Bot, seed: int) -> None:
        self._bot, self._level, self._seed = bot, level, seed
        self.name = bot.name

    def act(self, view: object) -> dict[str, Any]:
        assert isinstance(view, View)
        move = self._bot.choose(view)
        if move is PASS:
            return {"kind": "pass"}
        assert isinstance(move, Cards)
        return {"kind": "play", "cards": _names(move)}

    def explain(self, view: object, lang: str = "en", *,
                voice: str = "you") -> tuple[dict[str, Any], str]:
        """The action and its reason: advice to the seat's person (a hint), or with
        ``voice="bot"`` about the bot's own move, in the third person (AI debug), in
        ``lang`` (:data:`reason_langs`; English for another)."""
        assert isinstance(view, View)
        from tienlen.games.tienlen.plays import classify
        from tienlen.games.tienlen.hints import hint

        from tienlen.games.tienlen.words import words

        lang = lang if lang in REASON_LANGS else "en"
        self_words = words(lang)
        h = hint(view, self._level, seed=self._seed, voice=voice, lang=lang)
        reason = h.reason
        # seats by the language's own word ("2号"); the English reads "seat 2" as before
        text = reason.render(seat_name=lambda seat: self_words.seat_n.format(n=seat)) \
            if lang != "en" and isinstance(reason, Wording) else str(reason)
        if h.move is PASS:
            return {"kind": "pass"}, text
        assert isinstance(h.move, Cards)
        return _combo_json(h.move, classify(h.move, view.rules)), text


class TienlenSpec:
    """Tiến Lên's entry in the table registry."""

    name = "tienlen"
    #: The game's name as players write it.
    title = "Tiến Lên"
    #: The rules contract ``tienlen rules`` shows (at the repository root; shipped in the wheel).
    rules_file = "RULES.md"
    player_counts = (2, 3, 4)
    bot_levels = LEVELS
    hint_level = "L3"
    #: What the training room shows for it (docs/protocol.md, ``welcome``): seats around
    #: the table, each seat's total on the scoreboard, a result of places and points.
    room = {"teams": False, "scoreboard": "totals", "named_places": False,
            "level_cards": False, "result": "points"}
    #: The languages its bots word their reasons in (hints, the AI debug log, the review).
    reason_langs = REASON_LANGS
    #: Whom its reasons may speak to: a hint advises "you"; the AI-debug log explains a
    #: bot's own move in the third person.
    reason_voices = ("you", "bot")

    @property
    def arena(self) -> Any:
        """The game's own loop for the arena (:mod:`tienlen.games.tienlen.arena`), which
        :mod:`tienlen.arena` plays; imported on first use."""
        from tienlen.games.tienlen.arena import ARENA

        return ARENA

    def new_match(self, seed: int, *, players: int | None = None,
                  options: Mapping[str, Any] | None = None) -> TienlenTable:
        players = 4 if players is None else players
        if players not in self.player_counts:
            raise ValueError(f"Tiến Lên is played by 2-4; got players={players!r:.20}")
        hands = table_option(options, "hands", DEFAULT_HANDS, MAX_HANDS, "Tiến Lên")
        return TienlenTable(seed, players=players, hands=hands)

    def encoder(self) -> Any:
        """The game's RL encoder (:mod:`.encoding`, loaded now): what :mod:`tienlen.rl`
        steps this game through."""
        from .encoding import ENCODER

        return ENCODER

    def dmc(self) -> Any:
        """What the Deep Monte Carlo trainer (:mod:`tienlen.rl.dmc`) needs of the game:
        its tables, action rows, network and checkpoint (:mod:`.dmc`, loaded now)."""
        from .dmc import Dmc

        return Dmc

    def make_bot(self, level: str, seed: int) -> TienlenTableBot:
        canonical = next((n for n in LEVELS if isinstance(level, str) and n.lower() == level.lower()),
                         None)
        if canonical is None:
            raise ValueError(f"unknown Tiến Lên bot level {level!r:.20}; choose from {', '.join(LEVELS)}")
        return TienlenTableBot(canonical, make_bot(canonical, seed=seed), seed)

    def hint_bot(self, seed: int) -> TienlenTableBot:
        """L3 on the terminal hint's fixed budget (its explanation is
        :func:`tienlen.games.tienlen.hints.hint` at that level, on the same deals)."""
        from tienlen.games.tienlen.hints import DEFAULT_HINT_ITERATIONS

        return TienlenTableBot(self.hint_level, make_bot(self.hint_level, seed=seed,
                                                         iterations=DEFAULT_HINT_ITERATIONS), seed)

    # The review (issue 38, tienlen.table.review): its module loads on first use.

    #: A mistake costs more than this (in ``value_unit``) by default.
    review_threshold = 0.2
    #: Sampled deals a decision is priced on by default (a review of a hand within seconds).
    review_deals = 512
    #: What a decision's value counts.
    value_unit = "points"

    def read_record(self, source: object) -> tuple[Any, ...]:
        """The hands of ``source`` (a saved file's text, or a table) played to their end
        (:func:`tienlen.games.tienlen.review.read_record`)."""
        from tienlen.games.tienlen.review import read_record

        return read_record(source)

    def evaluate(self, view: object, actions: Any, seed: int, budget: Any,
                 lang: str = "en") -> list[Any]:
        """The values of ``actions`` and of L3's candidates
        (:func:`tienlen.games.tienlen.review.evaluate`)."""
        from tienlen.games.tienlen.review import evaluate

        return evaluate(view, actions, seed, budget, lang)

    def tracker(self, view: object) -> dict[str, Any]:
        """The card tracker of a seat's view (:func:`tienlen.games.tienlen.review.tracker`)."""
        from tienlen.games.tienlen.review import tracker

        return tracker(view)

    def match_file(self, state: object) -> tuple[str, str]:
        """The file of a table's current hand (the replay ``tienlen play --save`` writes:
        one hand a file), as ``(name, text)``."""
        from tienlen.games.tienlen.replay import ReplayLabels, game_to_json_with_labels

        assert isinstance(state, TienlenTable)
        match = state.match
        labels = ReplayLabels(None, match.seed, match.hand_number)
        return (f"tienlen-{match.seed}-{match.hand_number}.json",
                game_to_json_with_labels(match.game, labels, indent=1))

    # The terminal (tienlen.table.board.BoardSpec): the board and its words load on first use.

    def board(self, settings: PlaySettings) -> Board:
        """A match on Tiến Lên's terminal board (:class:`tienlen.games.tienlen.board.TienlenBoard`)."""
        from tienlen.games.tienlen.board import TienlenBoard

        return TienlenBoard.play(settings)

    def replay_board(self, path: Path, settings: ReplaySettings) -> Board:
        """A saved hand on Tiến Lên's terminal board, verified."""
        from tienlen.games.tienlen.board import TienlenBoard

        return TienlenBoard.replay(path, settings)

    def words(self, lang: str) -> TableWords:
        """Tiến Lên's words in ``lang`` (:mod:`tienlen.games.tienlen.words`: English and
        Chinese), the table the terminal reads too: the room words its refusals and a
        seat's line in the room's language from them."""
        from tienlen.games.tienlen.words import words

        return words(lang)


#: The Tiến Lên spec that the table registry (:func:`tienlen.table.get_spec`) returns for "tienlen".
SPEC = TienlenSpec()
