"""One hand of Guandan (GUANDAN.md G5, G6, G8): deal, tribute, play, over.

The play phase runs on the core's :class:`~tienlen._guandan.GdState`, which implements G5
once for this class and for the native playouts. This module adds the tribute exchange (G6),
refusals with the G8 reasons (:class:`IllegalActionError`), a history of frozen
:class:`Action` records, per-seat views, copies and pickling.

>>> game = Game(seed=7, leader=0)
>>> game.phase, game.turn, len(game.hand(0))
('play', 0, 27)
>>> first = game.legal_plays()[0]
>>> print(game.play(first))
seat 0 plays 2♠ (single 2)
>>> game.pass_turn(seat=2)
Traceback (most recent call last):
...
tienlen.errors.IllegalActionError: NOT_YOUR_TURN: it is seat 1's turn, not seat 2's
"""

from __future__ import annotations

import operator
import threading
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Final, Literal, NamedTuple, Union, cast, overload

import numpy as np
import numpy.typing as npt

from tienlen import _guandan
from tienlen.seeds import check_seed, guandan_seed, seed_or_fresh, splitmix64
from tienlen.games.guandan.cards import Cards, _wrap
from tienlen.games.guandan.rules import RuleConfig
from tienlen.errors import IllegalActionError
from tienlen.games.guandan.errors import GuandanError
from tienlen.games.guandan.actions import Action, AntiTribute, Tribute, played_cards
from tienlen.games.guandan.plays import Kind, Play, _make
from tienlen.games.guandan.refusals import REASONS, refusal_from_core
from tienlen.games.guandan.replay import GameHeader, game_record_json, load_game
from tienlen.table.fileio import check_indent
from tienlen.games.guandan.view import GameView, Standing

__all__ = ["Action", "Game", "GameView", "Standing", "LegalPlays", "IllegalActionError", "REASONS",
           "Tribute", "AntiTribute",
           "single_value", "tribute_candidates", "return_candidates", "teams_bits"]

Phase = Literal["deal", "tribute", "play", "over"]
CardsLike = Union[Cards, str, Iterable[int]]


class LegalPlays(Sequence[Play]):
    """A snapshot of the plays open to the seat to act, listed only when first indexed or
    iterated (see :meth:`Game.legal_plays`).

    >>> game = Game(hands=["3s 3d", "4s", "5s", "6s"], leader=0)
    >>> plays = game.legal_plays()
    >>> len(plays), [p.describe() for p in plays], plays[-1].cards
    (3, ['single 3', 'single 3', 'pair of 3'], Cards.parse('3s 3d'))
    """

    __slots__ = ("_state", "_level", "_flags", "_arrays", "_items", "_n")

    def __init__(self, state: _guandan.GdState | None, level: int, flags: int) -> None:
        self._state = None if state is None else state.copy()
        self._level = level
        self._flags = flags
        self._arrays: tuple[npt.NDArray[np.uint64], npt.NDArray[np.uint32]] | None = None
        self._items: list[tuple[tuple[int, int], int]] | None = None
        self._n = -1

    def _listed(self) -> tuple[npt.NDArray[np.uint64], npt.NDArray[np.uint32]]:
        """The core's (masks, codes) arrays, listed once."""
        if self._arrays is None:
            if self._state is None:
                self._arrays = (np.zeros((0, 2), np.uint64), np.zeros(0, np.uint32))
            else:
                self._arrays = self._state.legal_plays()
        return self._arrays

    def _listing(self) -> list[tuple[tuple[int, int], int]]:
        if self._items is None:
            masks, codes = self._listed()
            self._items = list(zip(masks.tolist(), codes.tolist()))
        return self._items

    def __len__(self) -> int:
        if self._n < 0:
            self._n = 0 if self._state is None else self._state.count_legal_plays()
        return self._n

    @overload
    def __getitem__(self, index: int) -> Play: ...
    @overload
    def __getitem__(self, index: slice) -> list[Play]: ...

    def __getitem__(self, index: int | slice) -> Play | list[Play]:
        lv, fl = self._level, self._flags
        if isinstance(index, slice):
            return [_make(_wrap(a, b), c, lv, fl) for (a, b), c in self._listing()[index]]
        # One play, read from the arrays: a lead can list hundreds of plays, and turning
        # them all into Python tuples to pick one cost far more than listing them.
        i = operator.index(index)
        masks, codes = self._listed()
        a, b = masks[i].tolist()
        return _make(_wrap(a, b), int(codes[i]), lv, fl)

    def __iter__(self) -> Iterator[Play]:
        lv, fl = self._level, self._flags
        return iter([_make(_wrap(a, b), c, lv, fl) for (a, b), c in self._listing()])

    def __bool__(self) -> bool:
        return len(self) > 0

    def __eq__(self, other: object) -> bool:
        if isinstance(other, (LegalPlays, tuple, list)):
            return list(self) == list(other)
        return NotImplemented

    def __repr__(self) -> str:
        return f"<LegalPlays ({len(self)})>"


_PASSES = tuple(Action(s, "pass", None, None, None) for s in range(4))
# Building a record straight from a tuple skips the named tuple's Python-level __new__.
_new_action = tuple.__new__


def single_value(card: int, level: int) -> int:
    """A card's place in the single-card order (G1.5): natural rank, the level rank 15,
    ☆ 16, ★ 17. The core's order: the value of the card played as a single.

    >>> single_value(0, 2), single_value(48, 2), single_value(0, 3), single_value(53, 2)
    (15, 14, 2, 17)
    """
    rank = card // 4 + 2 if card < 52 else card - 37     # ☆ (52) is rank 15, ★ rank 16
    return _guandan.compare_value(_guandan.make_code(_guandan.SINGLE, 1, rank), level)


def teams_bits(teams: tuple[tuple[int, int], tuple[int, int]]) -> int:
    """The core's team0 bits: the seats of the team holding seat 0."""
    team = teams[0] if 0 in teams[0] else teams[1]
    return (1 << team[0]) | (1 << team[1])


def _wild(level: int, config: RuleConfig) -> int:
    return config.wild_card(level)


def _check_exchange(hand: object, level: object, config: object) -> None:
    """The arguments of tribute_candidates / return_candidates: text or None for the hand
    raised AttributeError, a level of 1 or 15 answered for a game that cannot be."""
    if not isinstance(hand, Cards):
        raise GuandanError(f"hand must be guandan Cards; got {type(hand).__name__}")
    if type(level) is not int or not 2 <= level <= 14:
        raise GuandanError(f"level must be an int 2..14; got {level!r:.80}")
    if not isinstance(config, RuleConfig):
        raise GuandanError(f"config must be a RuleConfig; got {type(config).__name__}")


def _payable(hand: Cards, level: int, config: RuleConfig) -> int:
    """The faces ``hand`` may give as tribute (G6.3, the core's ``tribute_faces``), as a
    mask of original ids. Zero: none (G6.10)."""
    return int(_guandan.tribute_faces(hand._once, hand._twice, level, config.flags,
                                      config.can_tribute_wild))


def _faces(mask: int) -> tuple[int, ...]:
    return tuple(c for c in range(54) if mask >> c & 1)


def tribute_candidates(hand: Cards, level: int, config: RuleConfig) -> tuple[int, ...]:
    """The card faces a payer may give (G6.3): every face of the highest single-card value
    among the cards allowed (wilds only with ``can_tribute_wild``). The rule is the core's
    (``tribute_faces``), which the vectorised env uses too."""
    _check_exchange(hand, level, config)
    return _faces(_payable(hand, level, config))


def return_candidates(hand: Cards, level: int, config: RuleConfig) -> tuple[int, ...]:
    """The faces a receiver may return (G6.4): naturals of rank 2 .. tribute_return_max_rank
    other than the level rank; holding none, any face of the lowest value (the core's
    ``return_faces``)."""
    _check_exchange(hand, level, config)
    return _faces(int(_guandan.return_faces(hand._once, hand._twice, level,
                                            config.tribute_return_max_rank)))


_FIXED_TEAMS = ((0, 2), (1, 3))

# Held while an action changes a game and records it in its history: two threads acting on
# one Game would otherwise interleave between the two (a history that no longer replays to
# the state). One reentrant lock for every game, as tienlen.games.tienlen.game does: copies stay cheap.
# Every public read of fields an action changes takes it too: an action changes several
# fields one after another (the tribute list, the phase, the native state, the hands), and
# a read between two of them saw a game no action leaves (a tribute phase with every card
# returned, a play phase without its state). Needing no lock: what no action changes (seed,
# level, config, teams, the dealt hands), one field alone (phase, leader), and the reads a
# loop makes at every decision of the play phase (turn, hand, legal_plays, can_pass,
# finished) once the native state exists: it is set once, never unset, and each of these
# is one call on it, which every play or pass changes in one native call under the GIL --
# as tienlen.games.tienlen.game's reads of its one native state. (Locked, the reads and bot loops of
# bench/ab_guandan_game.py measured 3-6% slower.)
_STEPPING = threading.RLock()


def _seat(seat: object) -> int:
    if type(seat) is not int or not 0 <= seat <= 3:
        raise IllegalActionError("STATE_CONFLICT", f"seat must be 0..3; got {seat!r:.80}",
                                 "BAD_SEAT")
    return seat


def _seat_given(seat: object) -> None:
    """A seat argument that may be None (the seat to act); anything else must be a seat."""
    if seat is not None:
        _seat(seat)


class Game:
    """One hand of Guandan at one level.

    ``previous_order`` (the last hand's places, first out first, all four seats) makes this a
    later hand of a match: tribute is judged on the new deal (G6) and decides the leader.
    Without it the leader is ``leader``, or a seat drawn from ``seed`` (G5.2). Given
    ``hands`` in which a payer holds only wilds it may not give are refused (G6.10).
    ``hands`` with a ``seed`` must be that seed's deal (a copy or pickle passes both).
    ``rules`` is ``config`` under the name both games give it (give one of the two).
    ``standing`` is the match around the hand (:class:`~tienlen.games.guandan.view.Standing`,
    G7.7; :class:`~tienlen.games.guandan.match.Match` gives it), which every view carries;
    the hand's level must be its declarer's (2 in a match's first hand).

    >>> g = Game(seed=11, level=5, previous_order=(0, 1, 3, 2))   # partner 4th: seat 3 pays
    >>> g.phase, g.turn, [t.payer for t in g.tributes] if g.phase == "tribute" else g.anti_tribute
    ('tribute', 3, [3])
    """

    __slots__ = ("_seed", "_level", "_config", "_flags", "_teams", "_team0", "_phase",
                 "_hands", "_state", "_history", "_tributes", "_prev", "_anti", "_leader",
                 "_initial", "_standing")

    def __init__(self, seed: int | None = None, *, level: int = 2,
                 config: RuleConfig = RuleConfig(),
                 teams: tuple[tuple[int, int], tuple[int, int]] = _FIXED_TEAMS,
                 leader: int | None = None,
                 previous_order: tuple[int, ...] | None = None,
                 hands: Iterable[CardsLike] | None = None,
                 rules: RuleConfig | None = None,
                 standing: Standing | None = None) -> None:
        if rules is not None:     # the one vocabulary's name for config (Tiến Lên's rules=)
            if config != RuleConfig() and config != rules:
                raise GuandanError("give rules= or config= (the same thing), not both")
            config = rules
        if not isinstance(config, RuleConfig):
            raise GuandanError(f"config must be a RuleConfig; got {type(config).__name__}")
        if type(level) is not int or not 2 <= level <= 14:
            raise GuandanError(f"level must be an int 2..14; got {level!r}")
        teams = _teams_arg(teams)
        self._standing = _standing_arg(standing, level)
        if previous_order is not None and leader is not None:
            # The lead of a later hand follows tribute (G6.7): a leader given as well was
            # ignored, unchecked.
            raise GuandanError("give leader or previous_order, not both: after a previous "
                               f"hand the lead follows tribute (G6.7); got leader={leader!r:.40}")
        if hands is not None:
            if seed is not None:       # kept as the game's seed (replays write it)
                check_seed(seed, GuandanError, or_none=True)
            if isinstance(hands, (str, bytes)):
                raise GuandanError(f"hands must be four hands; got {hands!r:.80}")
            try:
                given = tuple(hands)
            except TypeError:     # not iterable (an int, a 0-d array)
                raise GuandanError(f"hands must be four hands; got {hands!r:.80}") from None
            parsed = tuple(h if isinstance(h, Cards) else
                           (Cards.parse(h) if isinstance(h, str) else Cards(h)) for h in given)
            if len(parsed) != 4 or any(len(h) == 0 for h in parsed):
                raise GuandanError("hands must be four non-empty hands")
            total = parsed[0] + parsed[1] + parsed[2] + parsed[3]   # a third copy raises
            del total
            if seed is not None and parsed != tuple(_wrap(o, t) for o, t in _guandan.deal(seed)):
                # A seed names its deal (G5.1): kept beside other hands it was a label that
                # lied, and a replay or a copy of the game dealt from it was another game.
                raise GuandanError(f"hands are not the deal of seed {seed} (G5.1): give the "
                                   "seed alone to deal it, or the hands alone for a position "
                                   "of your own")
            self._seed = seed
        else:
            seed = seed_or_fresh(seed, GuandanError)
            parsed = tuple(_wrap(o, t) for o, t in _guandan.deal(seed))
            self._seed = seed
        self._level = level
        self._config = config
        self._flags = config.flags
        self._teams = teams
        self._team0 = teams_bits(teams)
        self._hands = list(parsed)
        self._initial = tuple(parsed)
        self._history: list[Action] = []
        self._tributes: list[Tribute] = []
        # The native hand state: None until the play phase begins (after any tribute).
        self._state: _guandan.GdState | None = None
        self._anti = False
        self._prev = None
        if previous_order is not None:
            try:
                order = tuple(previous_order)
            except TypeError:
                order = ()
            # Types first: sorting mixed types raises TypeError.
            if any(type(s) is not int for s in order) or sorted(order) != [0, 1, 2, 3]:
                raise GuandanError(f"previous_order must list the four seats; got {previous_order!r}")
            self._prev = order
            self._setup_tribute(order)
        else:
            if leader is None:
                leader = _draw_seat(self._seed if self._seed is not None else 0)
            self._leader = _seat_or_error(leader)
            self._start_play(self._leader)

    # ------------------------------------------------------------ tribute (G6)

    def _team_of(self, seat: int) -> tuple[int, int]:
        return self._teams[0] if seat in self._teams[0] else self._teams[1]

    def partner(self, seat: int) -> int:
        a, b = self._team_of(_seat(seat))
        return b if a == seat else a

    def _setup_tribute(self, order: tuple[int, ...]) -> None:
        first = order[0]
        # G6.2 (who pays), G6.6 (anti-tribute): the core's rule, as the vectorised env's.
        payers, anti = _guandan.tribute_payers(order, [h.count(53) for h in self._hands],
                                               self._team0)
        if anti:
            self._anti = True               # G6.6: 抗贡; the previous first out leads
            self._leader = first
            self._start_play(first)
            return
        for p in payers:
            if not _payable(self._hands[p], self._level, self._config):
                # G6.10: only given hands can do this (a dealt hand has 27 cards, two wilds
                # in all); accepted, the hand waited for ever on a tribute none could give.
                raise GuandanError(
                    f"seat {p} must pay tribute (G6.2) but holds only wild cards "
                    f"({self._hands[p]}), which may not be given (G6.3: can_tribute_wild is "
                    "off): no deal can make this hand (G6.10)")
        # (Payers act going round from the seat after the first out: the core's order.)
        self._tributes = [Tribute(p, None, None, None) for p in payers]
        self._phase = "tribute"
        self._leader = -1

    @property
    def anti_tribute(self) -> bool:
        """Whether the paying side refused tribute with both big jokers (G6.6)."""
        return self._anti

    @property
    def tribute_payers(self) -> tuple[int, ...]:
        """The seats that pay tribute this hand (G6.2), or would have paid had they not
        refused it (G6.6, :attr:`anti_tribute`), in the core's order (going round from the
        seat after the previous first out); ``()`` for a first hand. The core decides
        (``tribute_payers``), from the previous places and the dealt hands' big jokers.

        >>> Game(seed=11, level=5, previous_order=(0, 1, 3, 2)).tribute_payers
        (3,)
        >>> Game(seed=11).tribute_payers
        ()
        """
        if self._prev is None:
            return ()
        # The core names no payer when the paying side refuses (anti-tribute): who would
        # have paid is then its answer for the same places with no big joker dealt.
        jokers = [0] * 4 if self._anti else [h.count(53) for h in self._initial]
        payers, _ = _guandan.tribute_payers(self._prev, jokers, self._team0)
        return tuple(payers)

    @property
    def tributes(self) -> tuple[Tribute, ...]:
        with _STEPPING:      # not between _deliver_tributes' rewrite and its hands
            return tuple(self._tributes)

    def _tribute_turn(self) -> tuple[str, int] | None:
        for t in self._tributes:
            if t.card is None:
                return ("give", t.payer)
        for t in self._tributes:
            if t.returned is None:
                assert t.receiver is not None
                return ("return", t.receiver)
        return None

    def verify_give_tribute(self, card: object, seat: int | None = None) -> int:
        """Check a tribute (G6.2, G6.3); returns the card's original id. Raises
        :class:`IllegalActionError` (INVALID_TRIBUTE, CARD_NOT_FOUND, NOT_YOUR_TURN,
        STATE_CONFLICT, GAME_OVER)."""
        with _STEPPING:      # the step and the hand of one moment
            step = self._tribute_step("give", seat)
            face = _one_card(card)
            hand = self._hands[step]
        if hand.count(face) == 0:
            raise IllegalActionError("CARD_NOT_FOUND", f"seat {step} does not hold {_name(face)}")
        allowed = tribute_candidates(hand, self._level, self._config)
        if face not in allowed:
            others = ' or '.join(_name(c) for c in allowed)
            if face == _wild(self._level, self._config) and not self._config.can_tribute_wild:
                # The wild is the highest card but G6.3 keeps it out: say so, not "highest".
                raise IllegalActionError(
                    "INVALID_TRIBUTE", f"the wild {_name(face)} may not be given as tribute: "
                    f"give your highest other card ({others})", "WILD_TRIBUTE")
            raise IllegalActionError(
                "INVALID_TRIBUTE", f"the tribute must be your highest card "
                f"({others}), not {_name(face)}", "NOT_HIGHEST")
        return face

    def can_give_tribute(self, card: object, seat: int | None = None) -> bool:
        """Whether :meth:`give_tribute` would succeed; a malformed ``seat`` raises, as in
        :meth:`can_play`."""
        _seat_given(seat)
        try:
            self.verify_give_tribute(card, seat)
        except IllegalActionError:
            return False
        return True

    def give_tribute(self, card: object, seat: int | None = None) -> Action:
        """Pay tribute (G6.2-G6.5). When the last tribute is given the receivers are fixed:
        the higher card to the first out (equal: by turn order after the first out)."""
        with _STEPPING:
            face = self.verify_give_tribute(card, seat)
            payer = self._tribute_turn()[1]  # type: ignore[index]
            self._hands[payer] = self._hands[payer] - _wrap(1 << face, 0)
            i = next(i for i, t in enumerate(self._tributes) if t.payer == payer)
            self._tributes[i] = Tribute(payer, None, face, None)
            action = Action(payer, "give_tribute", _wrap(1 << face, 0), None, None)
            self._history.append(action)
            if all(t.card is not None for t in self._tributes):
                self._deliver_tributes()
            return action

    def _deliver_tributes(self) -> None:
        first, second = self._prev[0], self._prev[1]  # type: ignore[index]
        ts = self._tributes
        if len(ts) == 1:
            ts[0] = Tribute(ts[0].payer, first, ts[0].card, None)
        else:
            a, b = ts                      # already in turn order after the first out
            # G6.5: the higher card to the first out (the core's rule).
            swap = _guandan.tribute_swap(a.card, b.card, self._level)  # type: ignore[arg-type]
            hi, lo = (b, a) if swap else (a, b)
            ts[:] = [Tribute(hi.payer, first, hi.card, None),
                     Tribute(lo.payer, second, lo.card, None)]
        for t in ts:
            self._hands[t.receiver] = self._hands[t.receiver] + _wrap(1 << t.card, 0)  # type: ignore
        # G6.7: the payer to the first out leads.
        self._leader = ts[0].payer

    def verify_return_tribute(self, card: object, seat: int | None = None) -> int:
        """Check a return card (G6.4); returns its original id."""
        with _STEPPING:      # the step and the hand of one moment
            step = self._tribute_step("return", seat)
            face = _one_card(card)
            hand = self._hands[step]
        if hand.count(face) == 0:
            raise IllegalActionError("CARD_NOT_FOUND", f"seat {step} does not hold {_name(face)}")
        allowed = return_candidates(hand, self._level, self._config)
        if face not in allowed:
            limit = self._config.tribute_return_max_rank
            raise IllegalActionError(
                "INVALID_TRIBUTE", f"the return must be a card of rank 2..{_rank_name(limit)} "
                f"other than the level rank (or your lowest card if you hold none); "
                f"not {_name(face)}", "BAD_RETURN")
        return face

    def can_return_tribute(self, card: object, seat: int | None = None) -> bool:
        """Whether :meth:`return_tribute` would succeed; a malformed ``seat`` raises, as in
        :meth:`can_play`."""
        _seat_given(seat)
        try:
            self.verify_return_tribute(card, seat)
        except IllegalActionError:
            return False
        return True

    def return_tribute(self, card: object, seat: int | None = None) -> Action:
        """Return a card to the player who paid this seat (G6.4, G6.8)."""
        with _STEPPING:
            face = self.verify_return_tribute(card, seat)
            receiver = self._tribute_turn()[1]  # type: ignore[index]
            i = next(i for i, t in enumerate(self._tributes)
                     if t.receiver == receiver and t.returned is None)
            t = self._tributes[i]
            self._hands[receiver] = self._hands[receiver] - _wrap(1 << face, 0)
            self._hands[t.payer] = self._hands[t.payer] + _wrap(1 << face, 0)
            self._tributes[i] = Tribute(t.payer, receiver, t.card, face)
            action = Action(receiver, "return_tribute", _wrap(1 << face, 0), None, t.payer)
            self._history.append(action)
            if self._tribute_turn() is None:
                self._start_play(self._leader)
            return action

    def _tribute_step(self, kind: str, seat: int | None) -> int:
        _seat_given(seat)
        if self._phase == "over":
            raise IllegalActionError("GAME_OVER", "the hand is over")
        if self._phase != "tribute":
            raise IllegalActionError("STATE_CONFLICT", "there is no tribute to exchange now",
                                     "NOT_TRIBUTE_PHASE")
        step = self._tribute_turn()
        assert step is not None
        if step[0] != kind:
            what = "tribute is still being given" if step[0] == "give" else "tribute has been given; returns are due"
            raise IllegalActionError("STATE_CONFLICT", what, "WRONG_TRIBUTE_STEP")
        if seat is not None and seat != step[1]:
            raise IllegalActionError("NOT_YOUR_TURN", f"it is seat {step[1]}'s turn, not seat {seat}'s")
        return step[1]

    # ------------------------------------------------------------ play (G5)

    def _start_play(self, leader: int) -> None:
        self._phase = "play"
        self._state = _guandan.GdState(tuple(h.masks for h in self._hands), self._level, leader,
                                       self._flags, self._team0)
        self._hands = []

    @property
    def seed(self) -> int | None:
        return self._seed

    @property
    def level(self) -> int:
        return self._level

    @property
    def config(self) -> RuleConfig:
        return self._config

    @property
    def teams(self) -> tuple[tuple[int, int], tuple[int, int]]:
        return self._teams

    @property
    def phase(self) -> Phase:
        """``"tribute"``, ``"play"`` or ``"over"`` (the deal happens in the constructor)."""
        return self._phase  # type: ignore[return-value]

    @property
    def leader(self) -> int | None:
        """Who leads the play phase (None while tribute decides it)."""
        return None if self._leader < 0 else self._leader

    @property
    def initial_hands(self) -> tuple[Cards, ...]:
        """The hands as dealt, before any tribute."""
        return self._initial

    @property
    def state(self) -> _guandan.GdState | None:
        """A copy of the native play-phase state (None before play)."""
        with _STEPPING:
            return None if self._state is None else self._state.copy()

    def _play_state(self) -> _guandan.GdState:
        """The native state, for code that runs only once the play phase has begun."""
        assert self._state is not None, "the play phase has not begun"
        return self._state

    @property
    def turn(self) -> int | None:
        """The seat to act (a payer or receiver during tribute), None once over."""
        s = self._state
        if s is not None:    # the play phase: one read of the native state (see _STEPPING)
            t = s.turn
            return None if t < 0 else t
        _STEPPING.acquire()
        try:
            return self._turn_now()
        finally:
            _STEPPING.release()

    def _turn_now(self) -> int | None:
        if self._phase == "tribute":
            return self._tribute_turn()[1]  # type: ignore[index]
        if self._phase == "play":
            return self._play_state().turn
        return None

    @property
    def is_over(self) -> bool:
        return self._phase == "over"

    def hand(self, seat: int) -> Cards:
        seat = _seat(seat)
        s = self._state
        if s is not None:    # one read of the native state (see _STEPPING)
            return _wrap(*s.hand(seat))
        _STEPPING.acquire()
        try:
            return self._hand_now(seat)
        finally:
            _STEPPING.release()

    def _hand_now(self, seat: int) -> Cards:
        if self._state is None:
            return self._hands[seat]
        return _wrap(*self._state.hand(seat))

    @property
    def hands(self) -> tuple[Cards, ...]:
        with _STEPPING:
            return tuple(self._hand_now(s) for s in range(4))

    @property
    def pile(self) -> Play | None:
        _STEPPING.acquire()
        try:      # the pile's cards and its reading of one moment (two reads of the state)
            return self._pile_now()
        finally:
            _STEPPING.release()

    def _pile_now(self) -> Play | None:
        s = self._state
        if s is None or s.pile_code == 0:
            return None
        return _make(_wrap(*s.pile), s.pile_code, self._level, self._flags)

    @property
    def pile_owner(self) -> int | None:
        with _STEPPING:
            s = self._state
            return None if s is None or s.pile_owner < 0 else s.pile_owner

    @property
    def finished(self) -> tuple[int, ...]:
        """Seats in the order they went out."""
        s = self._state      # one read of the native state, none before it (see _STEPPING)
        return () if s is None else s.finished

    @property
    def places(self) -> tuple[int, ...] | None:
        """All four seats by place once the hand is over (G5.8): those out in order, then
        those still holding cards, in seat order after the last out."""
        with _STEPPING:
            if self._phase != "over":
                return None
            out = self._play_state().finished
        last = out[-1]
        rest = sorted((s for s in range(4) if s not in out), key=lambda s: (s - last) % 4)
        return tuple(out) + tuple(rest)

    @property
    def winning_team(self) -> tuple[int, int] | None:
        """The team of the first player out, once the hand is over."""
        with _STEPPING:
            return None if self._phase != "over" else self._team_of(self._play_state().finished[0])

    @property
    def history(self) -> tuple[Action, ...]:
        with _STEPPING:
            return tuple(self._history)

    def legal_moves(self) -> LegalPlays:
        """The same as :meth:`legal_plays` (Tiến Lên's name for it; docs/architecture.md,
        the vocabulary)."""
        return self.legal_plays()

    @property
    def players(self) -> int:
        """The number of seats: always 4 (Tiến Lên's ``Game.players``)."""
        return 4

    @property
    def rules(self) -> RuleConfig:
        """The same as :attr:`config`: the hand's rule options, under the name both games
        give them."""
        return self._config

    @property
    def played(self) -> Cards:
        """Every card played so far in this hand (tribute and return cards are not plays).

        >>> game = Game(hands=["3s 3d", "4s", "5s", "6s"], leader=0)
        >>> _ = game.play("3s 3d"); game.played
        Cards.parse('3s 3d')
        """
        with _STEPPING:
            history = tuple(self._history)
        return played_cards(history)

    @property
    def loser(self) -> int | None:
        """The seat in last place once the hand is over (:attr:`places`' last), ``None``
        until then (Tiến Lên's ``Game.loser``)."""
        places = self.places
        return None if places is None else places[-1]

    @property
    def winners(self) -> tuple[int, int] | None:
        """The seats that won the hand, once it is over: the first out's team
        (:attr:`winning_team`), ``None`` until then (Tiến Lên's: the first out)."""
        return self.winning_team

    def snapshot(self) -> tuple[object, ...]:
        """Every field of the game as a hashable tuple: equal snapshots mean equal games
        (Tiến Lên's ``Game.snapshot``)."""
        return self._key()

    def to_json(self, *, indent: int | None = None) -> str:
        """This hand as versioned JSON (:func:`tienlen.games.guandan.replay.game_record_json`,
        schema ``tienlen.guandan.game``): how it starts and every action. A match's file is
        :meth:`Match.to_json <tienlen.games.guandan.match.Match.to_json>`.

        >>> game = Game(seed=4); _ = game.play(game.legal_plays()[0])
        >>> Game.from_json(game.to_json()) == game
        True
        """
        check_indent(indent, GuandanError)
        with _STEPPING:
            header = GameHeader(self._seed, self._level, self._config, self._teams,
                                self._prev, self.leader if self._prev is None else None,
                                self._initial, self._standing)
            history = tuple(self._history)
        return game_record_json(header, history, indent=indent)

    @classmethod
    def from_json(cls, text: str | bytes) -> Game:
        """Rebuild a hand written by :meth:`to_json`, checking every action; raises
        :class:`~tienlen.errors.ReplayError` naming the first bad field or action."""
        return load_game(text, lambda h: cls(h.seed, level=h.level, config=h.config,
                                             teams=h.teams, leader=h.leader,
                                             previous_order=h.previous_order, hands=h.hands,
                                             standing=h.standing))

    @classmethod
    def from_hands(cls, hands: Iterable[CardsLike], *, level: int = 2,
                   config: RuleConfig = RuleConfig(),
                   teams: tuple[tuple[int, int], tuple[int, int]] = _FIXED_TEAMS,
                   leader: int | None = None) -> Game:
        """A hand set up from given ``hands`` (a position, no seed), as Tiến Lên's
        ``Game.from_hands``: the same as ``Game(hands=hands, ...)``.

        >>> hands = ["3s 3d", "4s", "5s", "6s"]
        >>> Game.from_hands(hands, leader=0) == Game(hands=hands, leader=0)
        True
        """
        return cls(hands=hands, level=level, config=config, teams=teams, leader=leader)

    def legal_plays(self) -> LegalPlays:
        """Every legal play of the seat to act, in the core's order (by kind, then size and
        rank of the reading); empty outside the play phase. A lazy sequence: ``len()`` is the
        core's closed-form count and indexing wraps only the play asked for."""
        # Once the play phase has begun its native state answers alone (with no play once
        # the hand is over), copied in one call; before, there is none (see _STEPPING).
        return LegalPlays(self._state, self._level, self._flags)

    def _check_turn(self, seat: int | None) -> int:
        if seat is not None:     # first: True or 1.0 passed as the seat to act
            _seat(seat)
        if self._phase == "over":
            raise IllegalActionError("GAME_OVER", "the hand is over")
        if self._phase != "play":
            raise IllegalActionError("STATE_CONFLICT", "tribute must be settled before play",
                                     "TRIBUTE_PENDING")
        state = self._play_state()
        turn = state.turn
        if seat is not None and seat != turn:
            s = seat
            if not state.hand(s)[0]:
                raise IllegalActionError("HAND_EMPTY", f"seat {s} has no cards left")
            raise IllegalActionError("NOT_YOUR_TURN", f"it is seat {turn}'s turn, not seat {s}'s")
        return turn

    def _resolve(self, cards: object, reading: object) -> tuple[int, int, int]:
        """(once, twice, code) of a play given as a Play or as cards (+ optional reading)."""
        if isinstance(cards, Play):
            if cards._level != self._level or cards._flags != self._flags:
                raise IllegalActionError("INVALID_CARDS", "that play was read at another level "
                                         "or under other rules", "NOT_A_READING")
            c = cards._cards
            return c._once, c._twice, cards._code
        try:
            c = cards if isinstance(cards, Cards) else (
                Cards.parse(cards) if isinstance(cards, str) else Cards(cards))  # type: ignore[arg-type]
        except (ValueError, TypeError) as e:
            raise IllegalActionError("INVALID_CARDS", str(e), "BAD_CARDS") from None
        codes = _guandan.classify(c._once, c._twice, self._level, self._flags)
        if not codes:
            # Report missing cards first: that is the more useful reason.
            state = self._play_state()
            o, t = state.hand(state.turn)
            if (c._once & ~o) or (c._twice & ~t):
                raise IllegalActionError("CARD_NOT_FOUND", "you do not hold these cards")
            raise IllegalActionError("INVALID_CARDS", "these cards are not a combination", "NOT_A_PLAY")
        if reading is not None:
            want: object
            if isinstance(reading, Play):
                want = reading._code
            elif isinstance(reading, Kind):
                want = next((x for x in reversed(codes) if _guandan.code_kind(x) == reading), -1)
            else:
                want = reading
            if want not in codes:
                raise IllegalActionError("INVALID_CARDS", f"these cards cannot be read as {reading}",
                                         "NOT_A_READING")
            return c._once, c._twice, codes[codes.index(want)]  # the code equal to `want`
        return c._once, c._twice, self._choose_reading(codes)

    def _choose_reading(self, codes: Sequence[int]) -> int:
        """Cards with several readings, given without one: the strongest reading that may go
        on the pile, a non-bomb before a bomb (the player keeps the bomb for later); with
        none legal, the last reading (its refusal names the reason)."""
        pile = self._play_state().pile_code
        ok = [c for c in codes if _guandan.beats(c, pile, self._level, self._flags)]
        if not ok:
            return codes[-1]
        plain = [c for c in ok if _guandan.code_kind(c) < Kind.BOMB]
        pick = plain or ok
        return max(pick, key=lambda c: _guandan.compare_value(c, self._level, self._flags))

    def verify_play(self, cards: object, seat: int | None = None, reading: object = None) -> None:
        """Raise :class:`IllegalActionError` if the play is refused; return None if legal."""
        _STEPPING.acquire()
        try:      # the turn, the hand and the pile of one moment
            self._check_turn(seat)
            a, b, code = self._resolve(cards, reading)
            r = self._play_state().check_play(a, b, code)
        finally:
            _STEPPING.release()
        if r:
            raise refusal_from_core(r)

    def can_play(self, cards: object, seat: int | None = None, reading: object = None) -> bool:
        """Whether :meth:`play` would succeed. A malformed ``seat`` (not an int 0..3) is
        the caller's error, not a refused play: it raises :class:`IllegalActionError`
        (``BAD_SEAT``) as every action does, and as Tiến Lên's ``can_play`` raises.

        >>> game = Game(hands=["3s", "4s", "5s", "6s"], leader=0)
        >>> game.can_play("3s"), game.can_play("3s", seat=1), game.can_play("4s")
        (True, False, False)
        >>> game.can_play("3s", seat=4)
        Traceback (most recent call last):
        ...
        tienlen.errors.IllegalActionError: STATE_CONFLICT: seat must be 0..3; got 4
        """
        _seat_given(seat)
        try:
            self.verify_play(cards, seat, reading)
        except IllegalActionError:
            return False
        return True

    def play(self, cards: object, seat: int | None = None, reading: object = None) -> Action:
        """Play ``cards`` (a :class:`Play`, or cards with an optional ``reading``: a Kind,
        Play or code) for the seat to act. Refused plays raise and change nothing."""
        # acquire/release, not `with`: half the cost, on the path every action takes
        _STEPPING.acquire()
        try:
            turn = self._check_turn(seat)
            a, b, code = self._resolve(cards, reading)
            r = self._play_state().try_play(a, b, code)
            if r:
                raise refusal_from_core(r)
            play = cards if isinstance(cards, Play) else _make(_wrap(a, b), code, self._level, self._flags)
            action = _new_action(Action, (turn, "play", play._cards, play, None))
            self._history.append(action)
            if self._play_state().turn < 0:
                self._phase = "over"
            return action
        finally:
            _STEPPING.release()

    def verify_pass(self, seat: int | None = None) -> None:
        _STEPPING.acquire()
        try:
            self._check_turn(seat)
            r = self._play_state().check_pass()
        finally:
            _STEPPING.release()
        if r:
            raise refusal_from_core(r)

    def can_pass(self, seat: int | None = None) -> bool:
        """Whether :meth:`pass_turn` would succeed; a malformed ``seat`` raises, as in
        :meth:`can_play`."""
        if seat is None:
            s = self._state
            if s is not None:    # the common case, one native read (see _STEPPING)
                return s.can_pass()
        else:
            _seat(seat)
        try:
            self.verify_pass(seat)
        except IllegalActionError:
            return False
        return True

    def pass_turn(self, seat: int | None = None) -> Action:
        """Pass (G5.4): allowed whenever there is a play on the table to answer."""
        _STEPPING.acquire()
        try:
            turn = self._check_turn(seat)
            r = self._play_state().try_pass()
            if r:
                raise refusal_from_core(r)
            action = _PASSES[turn]
            self._history.append(action)
            return action
        finally:
            _STEPPING.release()

    def apply_unchecked(self, play: Play | None) -> Action:
        """Fast path for bots and search: a :class:`Play` from :meth:`legal_plays` or None to
        pass, trusted to be legal (the core still refuses what would corrupt the state)."""
        with _STEPPING:
            if play is not None and not isinstance(play, Play):
                raise IllegalActionError("INVALID_CARDS", f"apply_unchecked takes a Play or None; "
                                         f"got {type(play).__name__}")
            # The phase is checked even here: during tribute there is no play state yet.
            turn = self._check_turn(None)
            state = self._play_state()
            if play is None:
                state.apply(0, 0, 0)
                action = _PASSES[turn]
            else:
                c = play._cards
                state.apply(c._once, c._twice, play._code)
                action = _new_action(Action, (turn, "play", c, play, None))
                if state.turn < 0:
                    self._phase = "over"
            self._history.append(action)
            return action

    def act(self, kind: str, cards: object = None, seat: int | None = None,
            reading: object = None) -> Action:
        """Dispatch one action by name (replays, the CLI)."""
        if kind == "play":
            return self.play(cards, seat, reading)
        if kind == "pass":
            return self.pass_turn(seat)
        if kind == "give_tribute":
            return self.give_tribute(cards, seat)
        if kind == "return_tribute":
            return self.return_tribute(cards, seat)
        raise IllegalActionError("STATE_CONFLICT", f"unknown action {kind!r}", "UNKNOWN_ACTION")

    # ------------------------------------------------------------ views, copies

    def view(self, seat: int) -> GameView:
        """What ``seat`` may know, and nothing else."""
        seat = _seat(seat)
        with _STEPPING:   # the state and its history as of one moment, not mid-action
            return self._view(seat)

    def _view(self, seat: int) -> GameView:
        # G6.11: an exchange is public once made. A tribute is known to its payer alone
        # until every tribute is given and the receivers are fixed (G6.5); from then on
        # every seat sees who paid whom with which card, and a return when it is made.
        delivered = bool(self._tributes) and all(t.receiver is not None for t in self._tributes)
        receivers = {t.payer: t.receiver for t in self._tributes}
        mine = []
        for a in self._history:
            if a.action == "give_tribute":
                if delivered:
                    a = a._replace(to=receivers[a.seat])
                elif seat != a.seat:
                    a = a._replace(cards=None)
            mine.append(a)
        tributes = tuple(t if delivered or seat == t.payer else
                         Tribute(t.payer, t.receiver, None, t.returned) for t in self._tributes)
        anti = None
        if self._anti:
            payers = self.tribute_payers
            anti = AntiTribute(payers, tuple(s for s in payers
                                             for _ in range(self._initial[s].count(53))))
        is_turn = self._turn_now() == seat
        step = self._tribute_turn() if self._phase == "tribute" else None
        return GameView(   # under the lock already: the _now reads, not the locking ones
            seat=seat, phase=self._phase, hand=self._hand_now(seat),
            hand_sizes=tuple(len(self._hand_now(s)) for s in range(4)), turn=self._turn_now(),
            level=self._level, teams=self._teams, pile=self._pile_now(),
            pile_owner=self.pile_owner, finished=self.finished, history=tuple(mine),
            tributes=tributes,
            config=self._config,
            legal_plays=self.legal_plays() if is_turn else (),
            can_pass=is_turn and self._phase == "play" and self._play_state().can_pass(),
            tribute_step=step[0] if step is not None and step[1] == seat else None,
            anti_tribute=anti, standing=self._standing)

    def copy(self) -> Game:
        g = Game.__new__(Game)
        with _STEPPING:   # not half-way through another thread's action
            for name in Game.__slots__:
                setattr(g, name, getattr(self, name))
            g._hands = list(self._hands)
            g._history = list(self._history)
            g._tributes = list(self._tributes)
            g._state = None if self._state is None else self._state.copy()
        return g

    __copy__ = copy

    def __deepcopy__(self, memo: dict[int, object]) -> Game:
        return self.copy()

    def _key(self) -> tuple[object, ...]:
        with _STEPPING:
            return self._key_now()

    def _key_now(self) -> tuple[object, ...]:
        return (self._seed, self._level, self._config, self._teams, self._phase,
                tuple(self._hands), None if self._state is None else self._state.key(),
                tuple(self._history), tuple(self._tributes), self._prev, self._anti,
                self._leader, self._initial, self._standing)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Game):
            return NotImplemented
        return self._key() == other._key()

    __hash__ = None  # type: ignore[assignment]

    def __reduce__(self) -> tuple[Callable[..., Game], tuple[object, ...]]:
        # Pickle as the deal and the actions: unpickling replays them through the checked
        # path, so a tampered pickle cannot build an unreachable game.
        with _STEPPING:
            return self._reduce_now()

    def _reduce_now(self) -> tuple[Callable[..., Game], tuple[object, ...]]:
        return (_game_from_actions, (self._seed, self._level, self._config.to_dict(),
                                     self._teams, self._prev, self._leader if self._prev is None else None,
                                     tuple(h.masks for h in self._initial),
                                     tuple(_action_tuple(a) for a in self._history),
                                     self._standing))

    def __repr__(self) -> str:
        return f"<guandan.Game level={self._level} phase={self._phase} turn={self.turn}>"


def _action_tuple(a: Action) -> tuple[int, str, tuple[int, int] | None, int | None]:
    return (a.seat, a.action, None if a.cards is None else a.cards.masks,
            None if a.play is None else a.play.code)


def _game_from_actions(seed: int | None, level: int, config: dict[str, object],
                       teams: tuple[tuple[int, int], tuple[int, int]],
                       prev: tuple[int, ...] | None, leader: int | None,
                       masks: Iterable[tuple[int, int]],
                       actions: Iterable[tuple[int, str, tuple[int, int] | None, int | None]],
                       standing: Standing | None = None) -> Game:
    hands = [_hands_cards(m) for m in masks]
    g = Game(seed, level=level, config=RuleConfig.from_dict(config), teams=teams,
             leader=leader, previous_order=prev, hands=hands, standing=standing)
    for seat, kind, cm, code in actions:
        held = None if cm is None else _hands_cards(cm)
        cards: Cards | int | None = held
        if kind in ("give_tribute", "return_tribute"):
            cards = held.ids[0] if held is not None and len(held) == 1 else held
        g.act(kind, cards, seat, code)
    return g


def _standing_arg(standing: object, level: int) -> Standing | None:
    """A game's ``standing``: None or a :class:`Standing` whose declarer's level is the
    hand's (2 in a match's first hand, G1.4)."""
    if standing is None:
        return None
    if not isinstance(standing, Standing):
        raise GuandanError(f"standing must be a Standing or None; got {type(standing).__name__}")
    want = 2 if standing.declarer is None else standing.levels[standing.declarer]
    if level != want:
        raise GuandanError(f"standing: the hand is played at its declarer's level (G1.4), "
                           f"{want}; got level={level}")
    return standing


def _hands_cards(m: tuple[int, int]) -> Cards:
    once, twice = m
    return Cards.from_masks(once, twice)


def _teams_arg(teams: object) -> tuple[tuple[int, int], tuple[int, int]]:
    try:
        (a, b), (c, d) = cast("Iterable[Iterable[int]]", teams)  # checked below
    except (TypeError, ValueError):
        raise GuandanError(f"teams must be two pairs of seats; got {teams!r}") from None
    # Exact ints: sorting mixed types raised TypeError, and 0.0 or True passed as seats.
    if any(type(s) is not int for s in (a, b, c, d)) or sorted((a, b, c, d)) != [0, 1, 2, 3]:
        raise GuandanError(f"teams must split seats 0..3 in two pairs; got {teams!r}")
    return ((int(a), int(b)), (int(c), int(d)))


def _seat_or_error(seat: object) -> int:
    if type(seat) is not int or not 0 <= seat <= 3:
        raise GuandanError(f"leader must be a seat 0..3; got {seat!r}")
    return seat


def _draw_seat(seed: int) -> int:
    """A seat drawn from a seed (G5.2), by splitmix64 so that it does not follow the deal."""
    return splitmix64(seed)[1] >> 62


def _one_card(card: object) -> int:
    """The original id of one card given as an id, a Card, text or a one-card Cards."""
    if isinstance(card, Cards):
        if len(card) != 1:
            raise IllegalActionError("INVALID_TRIBUTE", "give exactly one card", "NOT_ONE_CARD")
        return card.ids[0]
    if isinstance(card, str):
        try:
            cs = Cards.parse(card)
        except ValueError as e:
            raise IllegalActionError("INVALID_CARDS", str(e), "BAD_CARDS") from None
        return _one_card(cs)
    if type(card) is int or (isinstance(card, int) and not isinstance(card, bool)):
        if 0 <= card <= 53:
            return int(card)
    raise IllegalActionError("INVALID_CARDS", f"not a card: {card!r}", "BAD_CARDS")


def _name(face: int) -> str:
    return str(_wrap(1 << face, 0))


def _rank_name(rank: int) -> str:
    return ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")[rank - 2]


def random_teams(seed: int) -> tuple[tuple[int, int], tuple[int, int]]:
    """Partnerships drawn from a match seed (G4.9, RANDOM): seat 0's partner uniformly."""
    check_seed(seed, GuandanError)      # None or 1.5 was a TypeError, -1 a draw
    mate = 1 + _mix(seed, 7) % 3
    rest = tuple(s for s in (1, 2, 3) if s != mate)
    return ((0, mate), rest)  # type: ignore[return-value]


# The match's seeds for a salt: tienlen.seeds.guandan_seed (kept under its old name).
_mix = guandan_seed
