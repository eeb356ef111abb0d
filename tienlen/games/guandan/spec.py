"""Guandan at a table (:mod:`tienlen.table`): a whole match to A, wrapping
:class:`~tienlen.games.guandan.match.Match`, its games and its bots without changing them.

>>> from tienlen.table import get_spec
>>> spec = get_spec("guandan")
>>> state = spec.new_match(seed=5, options={"max_hands": 1})
>>> bots = [spec.make_bot("L1", seed=s) for s in range(4)]
>>> while state.phase != "over":
...     seat = state.turn
...     _ = state.apply(bots[seat].act(state.bot_view(seat)), seat)
>>> sorted(state.outcome()["places"]), state.turn
([0, 1, 2, 3], None)
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tienlen.table.spec import Action, IllegalActionError, MatchTable, check_action, table_option
from tienlen.games.guandan.bots import LEVELS, POLICY_SPECS, Bot, make_bot
from tienlen.games.guandan.cards import RANKS, Card, Cards
from tienlen.games.guandan.errors import GuandanError
from tienlen.games.guandan.game import Game, GameView, single_value
from tienlen.games.guandan.game import IllegalActionError as GameRefusal
from tienlen.games.guandan.match import DEFAULT_MAX_HANDS, Match
from tienlen.games.guandan.plays import Play
from tienlen.games.guandan.explain import LANGS as REASON_LANGS
from tienlen.games.guandan.table_data import _ASCII, _rank_text, card_names, play_json, sort_key

if TYPE_CHECKING:
    from tienlen.games.guandan.words import Voice
    from tienlen.table.board import Board, PlaySettings, ReplaySettings, TableWords

__all__ = ["SPEC", "GuandanSpec", "GuandanTable", "GuandanTableBot", "play_json", "card_names",
           "sort_key"]

#: How many recent actions a view lists (the played zone's log).
HISTORY_TAIL = 24


def _refusal(error: GameRefusal) -> IllegalActionError:
    text = str(error)
    prefix = f"{error.reason}: "
    return IllegalActionError(error.reason, text[len(prefix):] if text.startswith(prefix) else text)


def _parse_cards(names: list[str]) -> Cards:
    try:
        return Cards.parse(" ".join(names))
    except GuandanError as error:
        raise IllegalActionError("INVALID_CARDS", str(error)) from None


def _parse_card(name: str) -> Card:
    try:
        return Card.parse(name)
    except GuandanError as error:
        raise IllegalActionError("INVALID_CARDS", str(error)) from None


class GuandanTable(MatchTable):
    """A Guandan match at a table (see :class:`tienlen.table.TableState`)."""

    game = "guandan"
    players = 4

    def __init__(self, seed: int, *, max_hands: int = DEFAULT_MAX_HANDS) -> None:
        self._match = Match(seed, max_hands=max_hands)
        # The hand just finished, shown until next_hand(): the match itself has already
        # dealt the next one (Match settles and deals inside the action that ends a hand).
        self._shown: Game | None = None
        # The current trick: each seat's latest action since the last lead (the played zone).
        self._trick: dict[int, dict[str, Any]] = {}

    @property
    def match(self) -> Match:
        """The wrapped match (read it; act through this table)."""
        return self._match

    @property
    def seed(self) -> int:
        return self._match.seed

    @property
    def phase(self) -> str:
        if self._match.is_over:
            return "over"
        if self._shown is not None:
            return "hand_over"
        return self._match.game.phase

    @property
    def turn(self) -> int | None:
        return None if self._shown is not None else self._match.turn

    @property
    def hand_number(self) -> int:
        done = len(self._match.results)
        return done if self._shown is not None or self._match.is_over else done + 1

    @property
    def is_over(self) -> bool:
        return self._match.is_over

    def _game(self) -> Game:
        return self._shown if self._shown is not None else self._match.game

    def legal_actions(self) -> list[dict[str, Any]]:
        if self.turn is None:
            return []
        game = self._match.game
        seat = self.turn
        view = game.view(seat)
        if view.tribute_step is not None:
            from tienlen.games.guandan.game import return_candidates, tribute_candidates

            pick = tribute_candidates if view.tribute_step == "give" else return_candidates
            kind = "give_tribute" if view.tribute_step == "give" else "return_tribute"
            return [{"kind": kind, "card": Card(c).ascii()}
                    for c in pick(view.hand, view.level, view.config)]
        out: list[dict[str, Any]] = [{"kind": "pass"}] if view.can_pass else []
        out.extend(play_json(p) for p in game.legal_plays())
        return out

    def _check_turn(self, seat: int) -> None:
        self._check_acting(seat)
        if seat != self._match.turn:
            raise IllegalActionError("NOT_YOUR_TURN",
                                     f"it is seat {self._match.turn}'s turn, not seat {seat}'s")

    def _call(self, action: Action, seat: int, do: bool) -> Any:
        a = check_action(action)
        self._check_turn(seat)
        m, kind = self._match, a["kind"]
        try:
            if kind == "play":
                cards = _parse_cards(a["cards"])
                reading = a.get("reading")
                return (m.play if do else m.verify_play)(cards, seat, reading)
            if kind == "pass":
                return (m.pass_turn if do else m.verify_pass)(seat)
            card = _parse_card(a["card"])
            if kind == "give_tribute":
                return (m.give_tribute if do else m.verify_give_tribute)(card, seat)
            return (m.return_tribute if do else m.verify_return_tribute)(card, seat)
        except GameRefusal as error:
            raise _refusal(error) from None

    def verify(self, action: Action, seat: int) -> None:
        self._call(action, seat, do=False)

    def apply(self, action: Action, seat: int) -> dict[str, Any]:
        game = self._match.game
        leading = game.phase == "play" and game.pile is None
        done = self._call(action, seat, do=True)
        record = _action_json(done, game.level)
        if done.action == "give_tribute":
            # the receiver, once every tribute is given (at once for a single tribute):
            # the view's (G6.5, G6.11)
            record["to"] = game.view(seat).history[-1].to
        if done.action in ("play", "pass"):
            if leading:
                self._trick = {}
            self._trick[seat] = record
        if game.is_over:
            self._shown = game
        return self._remember(record, seat)

    def _record_seen_by(self, record: dict[str, Any], seat: int, actor: int) -> dict[str, Any]:
        """A tribute or return as ``seat``'s view shows it (G6.11): every seat sees a return
        and a delivered tribute; a tribute not yet delivered (the first of a double
        tribute) shows its card to its payer alone."""
        if "card" not in record:
            return record
        history = self._match.game.view(seat).history   # a tribute never ends a hand
        seen = history[-1] if history else None
        if seen is None or seen.seat != actor or seen.action != record["kind"]:
            return {k: v for k, v in record.items() if k != "card"}
        out = dict(record, to=seen.to)
        if seen.cards is None:
            del out["card"]
        return out

    def next_hand(self) -> None:
        if self._shown is None:
            raise IllegalActionError("HAND_NOT_OVER", "the hand is still being played")
        if self._match.is_over:
            raise IllegalActionError("GAME_OVER", "the match is over")
        self._shown = None
        self._trick = {}

    def bot_view(self, seat: int) -> GameView:
        return self._match.game.view(seat)

    def outcome(self) -> dict[str, Any] | None:
        results = self._match.results
        if not results:
            return None
        r = results[-1]
        return {"hand": r.index + 1, "places": list(r.places), "winner_team": r.winner,
                "gain": r.gain, "levels": [_rank_text(x) for x in r.levels],
                "level_played": _rank_text(r.level), "match_won": r.match_won,
                "match_winner": self._match.winner, "capped": self._match.capped}

    def view(self, seat: int) -> dict[str, Any]:
        self._check_seat(seat)
        game = self._game()
        v = game.view(seat)
        m = self._match
        level = v.level
        wild_id = v.config.wild_card(level)
        wild = None if wild_id < 0 else Card(wild_id).ascii()
        team = m.team_of(seat)
        pile = None
        if v.pile is not None:
            pile = dict(play_json(v.pile), seat=v.pile_owner)
        turn = self.turn
        out: dict[str, Any] = {
            "game": "guandan", "seat": seat, "players": 4, "phase": self.phase,
            "hand_number": self.hand_number, "turn": turn,
            "hand": card_names(v.hand, level), "hand_sizes": list(v.hand_sizes),
            "level": _rank_text(level), "wild": wild,
            "levels": [_rank_text(x) for x in m.levels], "teams": [list(t) for t in m.teams],
            "my_team": team, "partner": v.partner, "pile": pile,
            "trick": {str(s): a for s, a in self._trick.items()},
            "finished": list(v.finished),
            "history": self._history_json(v),
            "tributes": self._tributes_json(v),
            "anti_tribute": game.anti_tribute,
            # G6.11: who refused tribute and the seat of each big joker shown
            "refused_by": [] if v.anti_tribute is None else list(v.anti_tribute.payers),
            "big_jokers_shown": [] if v.anti_tribute is None else list(v.anti_tribute.jokers),
            "tribute_step": v.tribute_step if turn == seat else None,
            "can_pass": turn == seat and v.can_pass,
            "result": self.outcome() if self.phase in ("hand_over", "over") else None,
        }
        if turn == seat and v.tribute_step is not None:
            out["tribute_choices"] = [a["card"] for a in self.legal_actions()]
        return out


    def _tributes_json(self, v: GameView) -> list[dict[str, Any]]:
        """The hand's tributes as the seat may know them: who pays, who receives (public),
        the cards where the seat took part. Before the receivers are fixed (a double
        tribute is delivered when both are paid, the higher card to the first out: G6.5),
        ``may_go_to`` lists who may receive the card, the first out first: the previous
        hand's first out (and second, for a double tribute). The rules are the game's;
        this only says what they will do."""
        out = []
        results = self._match.results
        last = results[-1].places if results and self._shown is None else None
        for t in v.tributes:
            item: dict[str, Any] = {
                "payer": t.payer, "receiver": t.receiver,
                "card": None if t.card is None else Card(t.card).ascii(),
                "returned": None if t.returned is None else Card(t.returned).ascii()}
            if t.receiver is None and last is not None:
                item["may_go_to"] = list(last[:len(v.tributes)])
            out.append(item)
        return out

    def _history_json(self, v: GameView) -> list[dict[str, Any]]:
        """The view's recent actions (a tribute names its receiver once it is fixed: the
        view's, G6.11)."""
        return [_action_json(a, v.level) for a in v.history[-HISTORY_TAIL:]]


def _action_json(action: Any, level: int) -> dict[str, Any]:
    """A history record as data (cards None where the view hides them)."""
    out: dict[str, Any] = {"seat": action.seat, "kind": action.action}
    if action.action == "play":
        out.update(play_json(action.play))
        out["seat"] = action.seat
    elif action.action != "pass":
        out["card"] = None if action.cards is None else card_names(action.cards, level)[0]
        out["to"] = action.to
    return out


class GuandanTableBot:
    """A Guandan bot (:func:`tienlen.games.guandan.bots.make_bot`) answering action dicts."""

    def __init__(self, bot: Bot) -> None:
        self._bot = bot
        self.name = bot.name

    def explain(self, view: object, lang: str = "en", *,
                voice: Voice = "you") -> tuple[dict[str, Any], str]:
        """The action and its reason in ``lang``: advice to the seat's person (a hint), or
        with ``voice="bot"`` about the bot's own move, in the third person (AI debug)."""
        assert isinstance(view, GameView)
        from tienlen.games.guandan.words import explanation_text

        d = self._bot.explain(view)
        # Worded from the bot's Explanation, not from English.
        reason = d.reason if d.why is None else explanation_text(d.why, lang, voice)
        if d.kind == "pass":
            return {"kind": "pass"}, reason
        if d.kind == "play":
            assert isinstance(d.cards, Play)
            return play_json(d.cards), reason
        assert isinstance(d.cards, int)
        return {"kind": d.kind, "card": Card(d.cards).ascii()}, reason

    def act(self, view: object) -> dict[str, Any]:
        return self.explain(view)[0]


class GuandanSpec:
    """Guandan's entry in the table registry."""

    name = "guandan"
    #: The game's name as players write it.
    title = "Guandan"
    #: The rules contract ``tienlen rules`` shows (at the repository root; shipped in the wheel).
    rules_file = "GUANDAN.md"
    player_counts = (4,)
    bot_levels = LEVELS
    hint_level = "L3"
    #: What the training room shows for it (docs/protocol.md, ``welcome``): seats named by
    #: team, the teams' levels on the scoreboard, places named (头游 ...), the level's cards
    #: marked in the hand, a result by teams.
    room = {"teams": True, "scoreboard": "levels", "named_places": True, "level_cards": True,
            "result": "teams"}
    reason_langs = REASON_LANGS
    #: Whom its reasons may speak to (:data:`tienlen.games.guandan.words.Voice`): a hint
    #: advises "you"; the AI-debug panel explains a bot's own move in the third person.
    reason_voices = ("you", "bot")
    #: The prefixes of trained-policy seats it takes (``dmc:PATH``); the server seats only
    #: the files its operator offers (``tienlen serve --models DIR``).
    policy_prefixes = tuple(POLICY_SPECS)
    #: The module of its adapter to the Guandan AI platform's protocol (``serve --platform``).
    platform = "tienlen.games.guandan.platform"

    @property
    def arena(self) -> Any:
        """The game's own loop for the arena (:mod:`tienlen.games.guandan.arena`), which
        :mod:`tienlen.arena` plays; imported on first use."""
        from tienlen.games.guandan.arena import ARENA

        return ARENA

    def new_match(self, seed: int, *, players: int | None = None,
                  options: Mapping[str, Any] | None = None) -> GuandanTable:
        if players not in (None, 4):
            raise ValueError(f"Guandan is played by 4; got players={players!r:.20}")
        max_hands = table_option(options, "max_hands", DEFAULT_MAX_HANDS, DEFAULT_MAX_HANDS,
                                 "Guandan")
        return GuandanTable(seed, max_hands=max_hands)

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

    def make_bot(self, level: str, seed: int) -> GuandanTableBot:
        return GuandanTableBot(make_bot(level, seed=seed))

    def hint_bot(self, seed: int) -> GuandanTableBot:
        """L3 on the terminal hint's budget, 600 deals cut short at 300 ms
        (:func:`tienlen.games.guandan.hints.hint_bot`)."""
        from tienlen.games.guandan.hints import hint_bot

        return GuandanTableBot(hint_bot(self.hint_level, seed))

    # The review (issue 38, tienlen.table.review): its module loads on first use.

    #: A mistake costs more than this (in ``value_unit``) by default.
    review_threshold = 0.25
    #: Sampled deals a decision is priced on by default (a review of a hand within seconds).
    review_deals = 64
    #: What a decision's value counts.
    value_unit = "levels"

    def read_record(self, source: object) -> tuple[Any, ...]:
        """The hands of ``source`` (a saved file's text, or a table) played to their end
        (:func:`tienlen.games.guandan.review.read_record`)."""
        from tienlen.games.guandan.review import read_record

        return read_record(source)

    def evaluate(self, view: object, actions: Any, seed: int, budget: Any,
                 lang: str = "en") -> list[Any]:
        """The values of ``actions`` and of L3's candidates
        (:func:`tienlen.games.guandan.review.evaluate`)."""
        from tienlen.games.guandan.review import evaluate

        return evaluate(view, actions, seed, budget, lang)

    def tracker(self, view: object) -> dict[str, Any]:
        """The card tracker of a seat's view (:func:`tienlen.games.guandan.review.tracker`)."""
        from tienlen.games.guandan.review import tracker

        return tracker(view)

    def match_file(self, state: object) -> tuple[str, str]:
        """The file of a table's match (the file ``tienlen play --save`` writes: the whole
        match), as ``(name, text)``."""
        assert isinstance(state, GuandanTable)
        return f"guandan-{state.seed}.json", state.match.to_json(indent=1)

    # The terminal (tienlen.table.board.BoardSpec): the board and its words load on first use.

    def board(self, settings: PlaySettings) -> Board:
        """The training mode on Guandan's board (:class:`tienlen.games.guandan.board.GuandanBoard`)."""
        from tienlen.games.guandan.board import GuandanBoard

        return GuandanBoard.play(settings)

    def replay_board(self, path: Path, settings: ReplaySettings) -> Board:
        """A saved match on Guandan's board, every action re-checked."""
        from tienlen.games.guandan.board import GuandanBoard

        return GuandanBoard.replay(path, settings)

    def words(self, lang: str) -> TableWords:
        """Guandan's words in ``lang`` (:mod:`tienlen.games.guandan.words`: English and
        Chinese): the refusals (``words(lang).refusal(error)``), the readings, the room's
        labels."""
        from tienlen.games.guandan.words import words

        return words(lang)


#: The Guandan spec that the table registry (:func:`tienlen.table.get_spec`) returns for "guandan".
SPEC = GuandanSpec()
