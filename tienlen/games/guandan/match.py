"""A Guandan match: hands until a team wins at A (GUANDAN.md G5.2, G6, G7), and its JSON
replays.

:class:`Match` deals hand after hand from its seed, settles levels after each (G7) and
starts the next with tribute judged on the new deal (G6). Every action goes through the
current :class:`~tienlen.games.guandan.game.Game` and is checked there.

A match under rules that let it go on for ever (``failed_attempts_limit=0``, say) still
ends: after ``max_hands`` hands it stops with no winner (:attr:`Match.capped`). The cap is
an engine safeguard, not a rule of the game.

>>> match = Match(seed=5)
>>> match.levels, match.hand_number, match.game.phase, match.game.turn == match.first_leader
((2, 2), 0, 'play', True)
>>> text = match.to_json()
>>> Match.from_json(text) == match
True
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

from tienlen import _guandan
from tienlen.seeds import guandan_hand_seed, seed_or_fresh
from tienlen.errors import ReplayError
from tienlen.table.fileio import check_indent
from tienlen.table.match import MatchDriver
from tienlen.games.guandan.rules import RuleConfig, TeamFormation
from tienlen.games.guandan.errors import GuandanError
from tienlen.games.guandan.game import (_STEPPING, Action, Game, IllegalActionError, _draw_seat, _mix, _seat_given,
                   _teams_arg, random_teams, teams_bits)
from tienlen.games.guandan.plays import Play
from tienlen.games.guandan.view import Standing
from tienlen.games.guandan.replay import (MAX_REPLAY_BYTES, SCHEMA, VERSION, load_match,
                                          match_record_json)

__all__ = ["HandResult", "Match", "settle", "ReplayError", "SCHEMA", "VERSION", "MAX_REPLAY_BYTES",
           "DEFAULT_MAX_HANDS", "level_gain"]

# SCHEMA, VERSION and MAX_REPLAY_BYTES are the match file's (tienlen.games.guandan.replay),
# re-exported here where they always were.
#: Hands after which a match without a winner stops (an engine safeguard, not a rule).
DEFAULT_MAX_HANDS: Final = 10_000
_ACE: Final = 14


def level_gain(partner_place: int, config: RuleConfig) -> int:
    """Levels the first out's team gains when the partner finished 2nd, 3rd or 4th (G7.1).

    >>> [level_gain(p, RuleConfig()) for p in (2, 3, 4)]
    [3, 2, 1]
    """
    if type(partner_place) is not int or not 2 <= partner_place <= 4:
        raise ValueError(f"partner_place must be 2, 3 or 4; got {partner_place!r:.80}")
    if not isinstance(config, RuleConfig):
        raise GuandanError(f"config must be a RuleConfig; got {type(config).__name__}")
    return int(_guandan.level_gain(partner_place, config.double_down_levels))


def settle(levels: tuple[int, int] | list[int], failed: tuple[int, int] | list[int],
           declarer: int | None, places: tuple[int, ...],
           teams: tuple[tuple[int, int], tuple[int, int]],
           config: RuleConfig) -> tuple[tuple[int, int], tuple[int, int], bool, int]:
    """The levels after a hand (G7): ``(levels, failed_attempts, match_won, gain)``.

    ``declarer`` is the team (0 or 1) whose level the hand was played at (None for a
    match's first hand); ``places`` the four seats, first out first.

    >>> settle((14, 9), (2, 0), 0, (1, 3, 0, 2), ((0, 2), (1, 3)), RuleConfig())
    ((2, 12), (0, 0), False, 3)
    >>> settle((14, 9), (2, 0), 0, (0, 1, 2, 3), ((0, 2), (1, 3)), RuleConfig())[2]
    True
    >>> settle((15, 9), (0, 0), None, (0, 1, 2, 3), ((0, 2), (1, 3)), RuleConfig())
    Traceback (most recent call last):
    ...
    tienlen.errors.GuandanError: levels must be two ints 2..14; got (15, 9)
    """
    teams = _check_settle(levels, failed, declarer, places, teams, config)
    # G7.1-G7.6: the core's rule (settle_levels), the one the vectorised env settles by.
    lv, fa, won, gain, _ = _guandan.settle_levels(
        levels, failed, -1 if declarer is None else declarer, places, teams_bits(teams),
        config.double_down_levels, config.failed_attempts_limit)
    return lv, fa, won, gain


def _pair(value: object, low: int, high: int | None = None) -> bool:
    """Whether ``value`` is a tuple or list of two exact ints in low..high (no top: None)."""
    return (isinstance(value, (tuple, list)) and len(value) == 2
            and all(type(v) is int and low <= v and (high is None or v <= high)
                    for v in value))


def _check_settle(levels: object, failed: object, declarer: object, places: object,
                  teams: object, config: object) -> tuple[tuple[int, int], tuple[int, int]]:
    """settle's arguments, each checked (GuandanError naming the first bad one): three
    places, a level of 15 or a declarer of 5 used to give levels no match can reach, or an
    IndexError."""
    if not _pair(levels, 2, _ACE):
        raise GuandanError(f"levels must be two ints 2..14; got {levels!r:.80}")
    if not _pair(failed, 0):
        raise GuandanError(f"failed must be two counts (ints >= 0); got {failed!r:.80}")
    if declarer is not None and (type(declarer) is not int or declarer not in (0, 1)):
        raise GuandanError(f"declarer must be None, 0 or 1 (a team); got {declarer!r:.80}")
    if (not isinstance(places, (tuple, list)) or any(type(s) is not int for s in places)
            or sorted(places) != [0, 1, 2, 3]):
        raise GuandanError(f"places must list the four seats, first out first; "
                           f"got {places!r:.80}")
    if not isinstance(config, RuleConfig):
        raise GuandanError(f"config must be a RuleConfig; got {type(config).__name__}")
    return _teams_arg(teams)


@dataclass(frozen=True, slots=True)
class HandResult:
    """How one hand ended and what it did to the match (G7)."""

    index: int
    level: int
    declarer: int | None          # team index (0 or 1) whose level the hand was played at
    places: tuple[int, ...]       # seats, first out first
    winner: int                   # team index of the first out
    gain: int
    levels: tuple[int, int]       # after the hand
    failed_attempts: tuple[int, int]
    match_won: bool


def _check_max_hands(max_hands: object) -> int:
    if type(max_hands) is not int or max_hands < 1:
        raise GuandanError(f"max_hands must be a positive int; got {max_hands!r:.80}")
    return max_hands


class Match(MatchDriver[Game, HandResult]):
    """Hands of Guandan, on the one match driver (:class:`tienlen.table.match.MatchDriver`,
    dealing each hand as the last one ends), until a team wins at A (G7.3), or until ``max_hands`` hands have
    been played: then the match is over with no winner (:attr:`capped`), and every later
    action is refused (``GAME_OVER``), changing nothing.

    >>> match = Match(seed=5, max_hands=1)
    >>> from tienlen.games.guandan.bots import make_bot
    >>> bot = make_bot("L1", seed=1)
    >>> while not match.is_over:
    ...     _ = match.act(*bot.decide(match.game.view(match.turn)), seat=match.turn)
    >>> match.is_over, match.capped, match.winner, len(match.results), match.turn
    (True, True, None, 1, None)
    >>> match.pass_turn()
    Traceback (most recent call last):
    ...
    tienlen.errors.IllegalActionError: GAME_OVER: the match stopped after max_hands=1 hands with no winner

    Actions on a match are serialised (the lock :class:`~tienlen.games.guandan.game.Game` holds),
    so threads sharing one match keep its history in the order it was played; every read of
    what an action changes (the turn, levels, results, ``is_over``) takes the same lock, so
    a thread reading while another acts sees the match before or after an action, never
    half-way through one.
    """

    __slots__ = ("_seed", "_config", "_teams", "_levels", "_failed", "_declarer", "_game",
                 "_results", "_winner", "_actions", "_first_leader", "_max_hands")

    DEALS_AT_HAND_END = True
    _LOCK = _STEPPING
    _STATE_ERROR = GuandanError

    def __init__(self, seed: int | None = None, config: RuleConfig = RuleConfig(), *,
                 max_hands: int = DEFAULT_MAX_HANDS) -> None:
        seed = seed_or_fresh(seed, GuandanError)
        max_hands = _check_max_hands(max_hands)
        if not isinstance(config, RuleConfig):
            raise GuandanError(f"config must be a RuleConfig; got {type(config).__name__}")
        self._seed = seed
        self._config = config
        self._teams = (random_teams(seed) if config.team_formation is TeamFormation.RANDOM
                       else ((0, 2), (1, 3)))
        self._levels = [2, 2]
        self._failed = [0, 0]
        self._declarer: int | None = None
        self._results: list[HandResult] = []
        self._winner: int | None = None
        self._actions: list[tuple[int, Action]] = []
        self._max_hands = max_hands
        self._first_leader = _draw_seat(_mix(seed, 3))
        self._game = Game(self.hand_seed(0), level=2, config=config, teams=self._teams,
                          leader=self._first_leader, standing=self._standing())

    # ------------------------------------------------------------ state

    def hand_seed(self, index: int) -> int:
        """The deal seed of hand ``index`` (0-based), drawn from the match seed."""
        if type(index) is not int or index < 0:
            raise GuandanError(f"index must be a hand index, an int >= 0; got {index!r:.80}")
        return guandan_hand_seed(self._seed, index)

    @property
    def seed(self) -> int:
        return self._seed

    @property
    def config(self) -> RuleConfig:
        return self._config

    @property
    def teams(self) -> tuple[tuple[int, int], tuple[int, int]]:
        return self._teams

    def team_of(self, seat: int) -> int:
        """0 for the team of ``teams[0]``, 1 for the other; a seat is an int 0..3."""
        if type(seat) is not int or not 0 <= seat <= 3:
            raise GuandanError(f"seat must be 0..3; got {seat!r:.80}")
        return 0 if seat in self._teams[0] else 1

    @property
    def levels(self) -> tuple[int, int]:
        """Each team's level (teams[0], teams[1])."""
        with _STEPPING:      # both from the same list, not one from before a hand's end
            lv = self._levels
            return (lv[0], lv[1])

    @property
    def failed_attempts(self) -> tuple[int, int]:
        with _STEPPING:
            fa = self._failed
            return (fa[0], fa[1])

    @property
    def declarer(self) -> int | None:
        """The team whose level the current hand is played at (None in the first hand)."""
        return self._declarer

    @property
    def first_leader(self) -> int:
        """Who led the first hand (G5.2: drawn from the match seed)."""
        return self._first_leader

    @property
    def max_hands(self) -> int:
        """The hands after which a match without a winner stops (an engine safeguard)."""
        return self._max_hands

    @property
    def hand_number(self) -> int:
        """The current hand's index (0-based); once the match is over, the last hand's."""
        with _STEPPING:      # not between a hand's result and the winner it makes
            return len(self._results) - (1 if self._over_now() else 0)

    @property
    def results(self) -> tuple[HandResult, ...]:
        with _STEPPING:
            return tuple(self._results)

    @property
    def winner(self) -> int | None:
        """The team index that won the match, or None (in play, or :attr:`capped`)."""
        return self._winner

    @property
    def capped(self) -> bool:
        """Whether the match stopped at :attr:`max_hands` without a winner."""
        with _STEPPING:      # a winning last hand's result comes a moment before its winner
            return self._capped_now()

    def _capped_now(self) -> bool:
        return self._winner is None and len(self._results) >= self._max_hands

    @property
    def is_over(self) -> bool:
        """Whether the match has ended: a team won it, or it was :attr:`capped`."""
        _STEPPING.acquire()
        try:      # (_over_now, inlined: loops read it at every action)
            return self._winner is not None or len(self._results) >= self._max_hands
        finally:
            _STEPPING.release()

    def _over_now(self) -> bool:
        return self._winner is not None or self._capped_now()

    @property
    def turn(self) -> int | None:
        """The seat to act, None once the match is over."""
        _STEPPING.acquire()
        try:      # the match's end and its current game of one moment
            if self._winner is not None or len(self._results) >= self._max_hands:
                return None
            return self._game.turn
        finally:
            _STEPPING.release()

    @property
    def history(self) -> tuple[tuple[int, Action], ...]:
        """(hand index, action) for every action of the match."""
        with _STEPPING:
            return tuple(self._actions)

    # ------------------------------------------------------------ actions

    def _live(self) -> Game:
        if self._winner is not None:
            raise IllegalActionError("GAME_OVER", "the match is over")
        if self._capped_now():
            raise IllegalActionError(
                "GAME_OVER", f"the match stopped after max_hands={self._max_hands} hands "
                "with no winner")
        return self._game

    def _after(self, action: Action) -> Action:
        self._actions.append((len(self._results), action))
        self._after_action()
        return action

    def verify_play(self, cards: object, seat: int | None = None, reading: object = None) -> None:
        with _STEPPING:      # the match's current game, not the one a finished hand replaces
            self._live().verify_play(cards, seat, reading)

    def can_play(self, cards: object, seat: int | None = None, reading: object = None) -> bool:
        """Whether :meth:`play` would succeed (False once the match is over); a malformed
        ``seat`` raises, as :meth:`Game.can_play <tienlen.games.guandan.game.Game.can_play>` says."""
        _seat_given(seat)
        with _STEPPING:
            return not self._over_now() and self._game.can_play(cards, seat, reading)

    def play(self, cards: object, seat: int | None = None, reading: object = None) -> Action:
        with _STEPPING:
            return self._after(self._live().play(cards, seat, reading))

    def verify_pass(self, seat: int | None = None) -> None:
        with _STEPPING:      # the match's current game, not the one a finished hand replaces
            self._live().verify_pass(seat)

    def can_pass(self, seat: int | None = None) -> bool:
        """Whether :meth:`pass_turn` would succeed (False once the match is over); a malformed
        ``seat`` raises, as :meth:`Game.can_play <tienlen.games.guandan.game.Game.can_play>` says."""
        _seat_given(seat)
        with _STEPPING:
            return not self._over_now() and self._game.can_pass(seat)

    def pass_turn(self, seat: int | None = None) -> Action:
        with _STEPPING:
            return self._after(self._live().pass_turn(seat))

    def verify_give_tribute(self, card: object, seat: int | None = None) -> None:
        with _STEPPING:      # the match's current game, not the one a finished hand replaces
            self._live().verify_give_tribute(card, seat)

    def can_give_tribute(self, card: object, seat: int | None = None) -> bool:
        """Whether :meth:`give_tribute` would succeed (False once the match is over); a malformed
        ``seat`` raises, as :meth:`Game.can_play <tienlen.games.guandan.game.Game.can_play>` says."""
        _seat_given(seat)
        with _STEPPING:
            return not self._over_now() and self._game.can_give_tribute(card, seat)

    def give_tribute(self, card: object, seat: int | None = None) -> Action:
        with _STEPPING:
            return self._after(self._live().give_tribute(card, seat))

    def verify_return_tribute(self, card: object, seat: int | None = None) -> None:
        with _STEPPING:      # the match's current game, not the one a finished hand replaces
            self._live().verify_return_tribute(card, seat)

    def can_return_tribute(self, card: object, seat: int | None = None) -> bool:
        """Whether :meth:`return_tribute` would succeed (False once the match is over); a malformed
        ``seat`` raises, as :meth:`Game.can_play <tienlen.games.guandan.game.Game.can_play>` says."""
        _seat_given(seat)
        with _STEPPING:
            return not self._over_now() and self._game.can_return_tribute(card, seat)

    def return_tribute(self, card: object, seat: int | None = None) -> Action:
        with _STEPPING:
            return self._after(self._live().return_tribute(card, seat))

    def apply_unchecked(self, play: Play | None) -> Action:
        """The trusting path for a play or pass of the play phase (bots, simulation)."""
        with _STEPPING:
            return self._after(self._live().apply_unchecked(play))

    def act(self, kind: str, cards: object = None, seat: int | None = None,
            reading: object = None) -> Action:
        with _STEPPING:
            return self._after(self._live().act(kind, cards, seat, reading))

    # ------------------------------------------------------------ levels (G7)

    def _settle(self, hand: Game) -> HandResult:
        places = hand.places
        assert places is not None
        levels, failed, won, gain = settle(self._levels, self._failed, self._declarer, places,
                                           self._teams, self._config)
        return HandResult(len(self._results), hand.level, self._declarer, places,
                          self.team_of(places[0]), gain, levels, failed, won)

    def _record(self, result: HandResult) -> None:
        self._levels, self._failed = list(result.levels), list(result.failed_attempts)
        self._results.append(result)
        if result.match_won:
            self._winner = result.winner

    def _next_deal(self, hand: Game, result: HandResult) -> Game | None:
        if result.match_won or len(self._results) >= self._max_hands:
            return None     # won, or capped: the last hand stays the current game
        self._declarer = win = result.winner
        return Game(self.hand_seed(len(self._results)), level=self._levels[win],
                    config=self._config, teams=self._teams, previous_order=result.places,
                    standing=self._standing())

    def _standing(self) -> Standing:
        """The match around the hand about to be dealt (G7.7), as its views carry it."""
        return Standing((self._levels[0], self._levels[1]), self._declarer, len(self._results),
                        (self._failed[0], self._failed[1]))

    # ------------------------------------------------------------ copies, equality, replays

    def copy(self) -> Match:
        with _STEPPING:     # not half-way through another thread's action
            m = Match.__new__(Match)
            for name in Match.__slots__:
                setattr(m, name, getattr(self, name))
            m._levels = list(self._levels)
            m._failed = list(self._failed)
            m._results = list(self._results)
            m._actions = list(self._actions)
            m._game = self._game.copy()
            return m

    __copy__ = copy

    def __deepcopy__(self, memo: dict[int, object]) -> Match:
        return self.copy()

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Match):
            return NotImplemented
        with _STEPPING:      # neither match half-way through an action
            return self._eq_now(other)

    def _eq_now(self, other: Match) -> bool:
        return (self._seed == other._seed and self._config == other._config
                and self._max_hands == other._max_hands and self._actions == other._actions and self._results == other._results
                and self._game == other._game)

    __hash__ = None  # type: ignore[assignment]

    def __reduce__(self) -> tuple[Callable[[str], Match], tuple[str]]:
        return (Match.from_json, (self.to_json(),))

    def to_json(self, *, indent: int | None = None) -> str:
        """The match as versioned JSON (:mod:`tienlen.games.guandan.replay`): the seed, the
        rules and every action; and ``max_hands`` when it is not :data:`DEFAULT_MAX_HANDS`
        (so that a file of a match with the default cap reads as it always did)."""
        check_indent(indent, GuandanError)
        with _STEPPING:     # not half-way through another thread's action
            return match_record_json(
                seed=self._seed, config=self._config, actions=self._actions,
                levels=self.levels, winner=self._winner,
                max_hands=None if self._max_hands == DEFAULT_MAX_HANDS else self._max_hands,
                indent=indent)

    @classmethod
    def from_json(cls, text: str | bytes) -> Match:
        """Rebuild a match, re-checking every action. A file that is not a replay of this
        schema, or whose actions the rules refuse, raises :class:`ReplayError`
        (:func:`tienlen.games.guandan.replay.load_match`)."""
        def start(seed: int, config: RuleConfig, max_hands: object = DEFAULT_MAX_HANDS) -> Match:
            return cls(seed, config, max_hands=_check_max_hands(max_hands))

        return load_match(text, start)


