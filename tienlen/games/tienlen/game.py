"""One hand of Tiến Lên: whose turn it is, passing, lock-out, clearing and finishing (R5-R9).

:class:`Game` wraps the core's compact ``GameState``, which implements R5-R9 once for both
this class and the native playouts. This module adds what a Python caller needs around it:
parsing moves, naming the seat that acts, plain-English refusals
(:class:`~tienlen.games.tienlen.refusals.IllegalMoveError`), a history of frozen :class:`Action` records,
per-seat :class:`~tienlen.games.tienlen.view.View` objects for bots, cheap copies and JSON replays.

>>> game = Game.from_hands(["3s 4s 9d", "5s 5h 2h", "6c 7c 8c"])
>>> game.turn, game.must_include               # R7.2: the 3♠ holder leads, with 3♠
(0, Card.parse('3s'))
>>> print(game.play("3s"))
seat 0 plays 3♠
>>> game.play("4s", seat=0)                    # not seat 0's turn any more
Traceback (most recent call last):
...
tienlen.games.tienlen.refusals.IllegalMoveError: it is seat 1's turn, not seat 0's
>>> print(game.pass_turn(), "|", game.play("8c"), "|", game.turn)
seat 1 passes | seat 2 plays 8♣ | 0
>>> [str(move) for move in game.legal_moves()]
['9♦']
"""

from __future__ import annotations

import threading
import warnings
from operator import attrgetter
from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING
from typing import Final

from tienlen import _core
from tienlen.games.tienlen.actions import (
    PASS,
    Action,
    CardsLike,
    Move,
    MoveLike,
    _new_action,
    _PassType,
    _PASSES,
)
from tienlen.games.tienlen.cards import _INTERNED, Card, Cards, _interned
from tienlen.errors import TienlenError
from tienlen.games.tienlen.plays import _PLAYED, Combo, _played_combo, classify
from tienlen.games.tienlen.refusals import (
    IllegalMoveError,
    Reason,
    pass_message,
    play_message,
    reason_from_core,
    turn_message,
)
from tienlen.games.tienlen.replay_format import Header, check_indent, load_game, record_to_json
from tienlen.games.tienlen.rules import ALL_INSTANT_WINS, InstantWin, Rules
from tienlen.seeds import check_players, seed_or_fresh

if TYPE_CHECKING:
    import numpy as np
from tienlen.games.tienlen.view import View

# Action, PASS, Move and CardsLike live in tienlen.games.tienlen.actions and are re-exported here.
__all__ = ["Game", "Action", "LegalMoves", "PASS", "Move", "MoveLike", "CardsLike"]

_DEFAULT_RULES: Final = Rules()
_CARDS = tuple(Card(i) for i in range(52))


# The core's lock-out bits (one per seat, at most 4 seats) as the sets callers see.
_LOCKED_SETS = tuple(frozenset(s for s in range(4) if bits >> s & 1) for bits in range(16))


def _as_cards(cards: object) -> Cards:
    """Cards from anything :data:`CardsLike`; raises ValueError (CardParseError for text)."""
    if type(cards) is Cards:
        return cards
    if isinstance(cards, str):
        return Cards.parse(cards)
    if isinstance(cards, Card):
        # A Card is an int, but as a mask it would name other cards entirely.
        return Cards([cards])
    if isinstance(cards, _PassType):
        raise ValueError("PASS is not a set of cards: use pass_turn() or act(PASS)")
    return Cards(cards)  # type: ignore[arg-type]


if TYPE_CHECKING:
    _LegalBase = _core.LegalView[Cards]
else:   # generic in the stub only
    _LegalBase = _core.LegalView


class LegalMoves(_LegalBase):
    """A lazy view of the plays open to the seat to act, like python-chess's
    ``LegalMoveGenerator``: nothing is listed until it is iterated, ``len()`` is the core's
    closed-form count, and ``in`` asks :meth:`Game.can_play`. It is live: it always reflects
    the game as it is now. Passing is not a play; see :meth:`Game.can_pass`.

    >>> game = Game.from_hands(["3s 3c 4d", "5s 9h"], leader=0)
    >>> moves = game.legal_moves()
    >>> len(moves), bool(moves), "3s 3c" in moves, "3c 4d" in moves
    (4, True, True, False)
    >>> [str(m) for m in moves]
    ['3♠', '3♣', '4♦', '3♠ 3♣']
    >>> moves
    <LegalMoves (4): 3♠, 3♣, 4♦, 3♠ 3♣>
    >>> str(moves[-1]), moves.masks().tolist()
    ('3♠ 3♣', [1, 2, 64, 3])
    """

    # Iteration, len() and bool() are the core's LegalView: the moves are listed and mapped
    # to the shared Cards (the core only returns subsets of a valid hand, so the masks skip
    # Cards' validation) in C, in the core's order: by kind, then number of cards, then mask.
    __slots__ = ("_game",)

    def __init__(self, game: Game) -> None:
        # A game's core state is set once (in _setup) and never replaced, so the view can
        # hold it.
        super().__init__(game._state, _INTERNED)
        self._game = game

    def __reduce__(self) -> tuple[type[LegalMoves], tuple[Game]]:
        return (LegalMoves, (self._game,))

    def __getitem__(self, index: int) -> Cards:
        # Lets a caller pick the i-th move (e.g. uniformly at random, with len()) without
        # wrapping every move in a Cards object first.
        return _interned(int(self._game._state.legal_moves()[index]))

    def masks(self) -> "np.ndarray":
        """The moves as the core's uint64 mask array (no Python objects built)."""
        return self._game._state.legal_moves()

    def __contains__(self, move: object) -> bool:
        if isinstance(move, _PassType):
            return False
        return self._game.can_play(move)  # type: ignore[arg-type]

    def __eq__(self, other: object) -> bool:
        # By the moves listed now (as the Guandan LegalPlays): a copy or an unpickled view
        # of an equal game is equal, and so is a list of the same moves.
        if isinstance(other, (LegalMoves, tuple, list)):
            return list(self) == list(other)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]  # live: its moves change with the game

    def __repr__(self) -> str:
        shown: list[str] = []
        limit = 12
        for move in self:
            if len(shown) == limit:
                shown.append("...")
                break
            shown.append(str(move))
        return f"<LegalMoves ({len(self)}): {', '.join(shown)}>"


# Held while an action changes a game's core state and records it in its history: two
# threads acting on one Game would otherwise interleave between the two (a history that no
# longer replays to the state). One lock for every game, since a Game has no room for its
# own (copies must stay cheap for search); uncontended it costs well under 0.1 µs, and
# Python threads share the GIL anyway. Reentrant: a Cards subclass's code may act again.
_STEPPING = threading.RLock()


class Game:
    """One hand of Tiến Lên for 2-4 players (RULES.md R5-R9), checked at every action.

    ``Game(players, seed=...)`` deals with the core's own PRNG (``core.deal``), so a seed
    fixes the hands on every platform (R1.4); ``seed=None`` draws a fresh 64-bit seed from
    :mod:`secrets`, kept in :attr:`seed`. ``leader=None`` applies the first-hand rule (R7.2:
    the holder of the lowest card leads and must play it); a seat number lets that seat lead
    anything (R7.3, R7.4), as :class:`~tienlen.games.tienlen.match.Match` does for later hands.

    A dealt hand is checked for instant wins (R11.3) when ``rules`` enable them
    (``Rules.southern()``): the first seat in turn order from the leader whose hand holds one
    wins at once and the hand is over before any play (:attr:`instant_win`; the others share
    last place, see :attr:`places`). :meth:`from_hands` sets up positions and never checks.

    Actions follow the verify / can / do pattern: :meth:`verify_play` raises
    :class:`~tienlen.games.tienlen.refusals.IllegalMoveError` with a reason, :meth:`can_play` answers
    ``True``/``False``, :meth:`play` acts and returns the :class:`Action` it recorded. The
    same goes for passing. A refused action leaves the game exactly as it was.

    >>> game = Game(4, seed=42)
    >>> game.seed, game.players, [len(hand) for hand in game.hands]
    (42, 4, [13, 13, 13, 13])
    >>> game.turn == next(seat for seat, hand in enumerate(game.hands) if "3s" in hand)
    True
    >>> game.can_pass(), game.is_over, game.loser
    (False, False, None)
    """

    __slots__ = ("_state", "_rules", "_seed", "_leader", "_initial", "_hist", "_shared",
                 "_hist_tuple", "_legal")

    _state: _core.GameState
    _rules: Rules
    _seed: int | None
    _leader: int | None
    _initial: tuple[int, ...]
    _hist: list[Action]
    _shared: bool
    _hist_tuple: tuple[Action, ...] | None
    _legal: LegalMoves | None

    def __init__(
        self,
        players: int = 4,
        *,
        seed: int | None = None,
        rules: Rules = _DEFAULT_RULES,
        leader: int | None = None,
    ) -> None:
        check_players(players)
        seed = seed_or_fresh(seed)
        self._setup(_core.deal(seed, players), rules, leader, seed, dealt=True)

    @classmethod
    def from_hands(
        cls,
        hands: Iterable[CardsLike],
        *,
        rules: Rules = _DEFAULT_RULES,
        leader: int | None = None,
    ) -> Game:
        """A game from fixed hands (:class:`Cards`, masks or card text), one per seat, for
        tests, puzzles and replays. Hands may have any sizes but must be non-empty and
        disjoint. With ``leader=None`` the holder of the lowest card in play leads and must
        include it (R7.2); otherwise seat ``leader`` leads anything (R7.4).

        >>> game = Game.from_hands(["5s 6s", "4c 9h", "Kd"])
        >>> game.turn, game.must_include, game.seed
        (1, Card.parse('4c'), None)
        >>> Game.from_hands(["5s 6s", "4c 9h"], leader=0).must_include is None
        True
        >>> Game.from_hands(["5s 6s", "5s"])
        Traceback (most recent call last):
        ...
        ValueError: hands[1] shares cards with another hand
        """
        try:
            # A str would be read a character at a time: it is not a sequence of hands.
            given = () if isinstance(hands, (str, bytes)) else tuple(hands)
        except TypeError:     # not iterable (an int, a 0-d array)
            given = ()
        if not given:
            raise ValueError(f"hands must be a sequence of hands, one per seat; "
                             f"got {hands!r:.80}")
        masks = tuple(_as_cards(hand).mask for hand in given)
        game = object.__new__(cls)
        game._setup(masks, rules, leader, None)
        return game

    def _setup(self, masks: tuple[int, ...], rules: Rules, leader: int | None,
               seed: int | None, dealt: bool = False) -> None:
        if not isinstance(rules, Rules):
            raise ValueError(f"rules must be a Rules; got {rules!r}")
        if leader is not None and (type(leader) is not int or not 0 <= leader < len(masks)):
            raise ValueError(f"leader must be None or a seat 0..{len(masks) - 1}; got {leader!r}")
        # The core validates the hands (count, emptiness, overlaps) with messages naming them.
        self._state = _core.GameState(masks, -1 if leader is None else leader, rules.flags,
                                      dealt)
        self._rules = rules
        self._seed = seed
        self._leader = leader
        self._initial = masks
        self._hist = []
        self._shared = False
        self._hist_tuple = ()
        self._legal = None

    # ------------------------------------------------------------------------ state

    @property
    def players(self) -> int:
        """Number of seats, 2-4."""
        return self._state.players

    @property
    def rules(self) -> Rules:
        """The ruleset this hand is played under."""
        return self._rules

    @property
    def seed(self) -> int | None:
        """The deal's seed, or ``None`` for a game from :meth:`from_hands`."""
        return self._seed

    @property
    def leader(self) -> int | None:
        """The seat given as leader, or ``None`` when the first-hand rule (R7.2) applied."""
        return self._leader

    @property
    def initial_hands(self) -> tuple[Cards, ...]:
        """Every seat's hand as dealt (or given), before any play."""
        return tuple(Cards(mask) for mask in self._initial)

    @property
    def turn(self) -> int | None:
        """The seat to act, or ``None`` once the hand is over."""
        turn = self._state.turn
        return None if turn < 0 else turn

    @property
    def hands(self) -> tuple[Cards, ...]:
        """Every seat's current hand (a seat that went out holds ``Cards()``)."""
        return tuple(Cards(mask) for mask in self._state.hands)

    def hand(self, seat: int) -> Cards:
        """One seat's current hand."""
        return Cards(self._state.hand(self._seat_arg(seat)))

    @property
    def pile(self) -> Combo | None:
        """The combination on top of the pile, or ``None`` when the pile is empty (a lead)."""
        mask = self._state.pile_mask
        if not mask:
            return None
        # The last play is usually still the top of the pile: reuse its Combo.
        last = self._hist[-1].combo if self._hist else None
        if last is not None and last.cards.mask == mask:
            return last
        return classify(Cards(mask), self._rules)

    @property
    def pile_owner(self) -> int | None:
        """The seat that played the top of the pile, or ``None`` when it is empty."""
        owner = self._state.pile_owner
        return None if owner < 0 else owner

    @property
    def locked_seats(self) -> frozenset[int]:
        """Seats that passed on this pile (R5.1), each locked out of it; emptied when the pile
        clears (R6.1).

        >>> game = Game.from_hands(["3s 4s", "5s 9h", "6d"])
        >>> _ = game.play("3s"); _ = game.pass_turn()
        >>> game.locked_seats, 1 in game.locked_seats
        (frozenset({1}), True)
        """
        return _LOCKED_SETS[self._state.locked_mask]

    @property
    def locked_out(self) -> frozenset[int]:
        """Deprecated alias of :attr:`locked_seats` (the same set); reading it warns with a
        :class:`DeprecationWarning`. ``locked_out`` now names only the bool "this seat is
        locked out" (``legal_moves(..., locked_out=...)``)."""
        warnings.warn("Game.locked_out is deprecated: use Game.locked_seats (the same set)",
                      DeprecationWarning, stacklevel=2)
        return self.locked_seats

    @property
    def finished(self) -> tuple[int, ...]:
        """Seats in finishing order so far; once over, every seat, the loser last (R9.2).
        After an instant win (R11.3): the winner, then the others in turn order after it,
        who share last place (:attr:`places`)."""
        return self._state.finished

    @property
    def places(self) -> tuple[int, ...] | None:
        """Each seat's finishing place (1 = first out) once the hand is over, else ``None``.
        Places follow :attr:`finished`, except after an instant win (R11.3), where every
        seat but the winner shares last place.

        >>> game = Game.from_hands(["3s", "4s", "5s 6s"])
        >>> game.places is None
        True
        >>> _ = game.play("3s"); _ = game.play("4s"); game.places
        (1, 2, 3)
        >>> from tienlen.games.tienlen.rules import Rules
        >>> south = Game(4, seed=112, rules=Rules.southern())
        >>> south.initial_hands[3]             # six pairs: 6s, 8s, 10s, Qs, Ks and 2s
        Cards.parse('6s 6d 8d 8h 9d 10d 10h Qs Qh Ks Kc 2c 2d')
        >>> south.instant_win, south.places
        ((3, 'six_pairs'), (4, 4, 4, 1))
        """
        if self._state.turn >= 0:
            return None
        order = self._state.finished
        places = [0] * len(order)
        last = len(order) if self._state.instant_win >= 0 else 0
        for place, seat in enumerate(order, start=1):
            places[seat] = last if last and place > 1 else place
        return tuple(places)

    @property
    def instant_win(self) -> tuple[int, InstantWin] | None:
        """``(seat, name)`` when a dealt instant win (R11.3) ended the hand at once, the
        name one of ``rules.ALL_INSTANT_WINS`` (the first that applies to the hand);
        otherwise ``None``.

        >>> from tienlen.games.tienlen.rules import Rules
        >>> Game(4, seed=1).instant_win is None        # the contract has no instant wins
        True
        """
        win = self._state.instant_win
        if win < 0:
            return None
        return self._state.finished[0], ALL_INSTANT_WINS[win]

    if TYPE_CHECKING:
        @property
        def is_over(self) -> bool:
            """Whether the hand has ended."""
    else:
        # The core state's own is_over, read in C (attrgetter): a random-game loop asks it
        # before every action, and a Python getter cost three times as much.
        is_over = property(
            attrgetter("_state.is_over"),
            doc="""Whether the hand has ended (only one seat still holds cards, R9.2; or a
            dealt instant win, R11.3).""")

    @property
    def loser(self) -> int | None:
        """The seat left holding cards at the end, or ``None`` until the hand is over.
        After an instant win (R11.3) every other seat still holds cards and they share last
        place; this is then the last of them in :attr:`finished`."""
        loser = self._state.loser
        return None if loser < 0 else loser

    @property
    def winners(self) -> tuple[int, ...] | None:
        """The seats that won the hand, once it is over: the first out, ``(finished[0],)``
        (Guandan's: the first out's team); ``None`` until then.

        >>> game = Game.from_hands(["3s", "9h"]); _ = game.play("3s")
        >>> game.winners
        (0,)
        """
        with _STEPPING:
            if not self.is_over:
                return None
            return (self.finished[0],)

    @property
    def phase(self) -> str:
        """``"play"`` until the hand is over, then ``"over"`` (Guandan's phases; a Tiến Lên
        hand has no tribute)."""
        return "over" if self.is_over else "play"

    @property
    def config(self) -> Rules:
        """The same as :attr:`rules` (Guandan's name for a hand's rule options)."""
        return self._rules

    @property
    def state(self) -> _core.GameState:
        """A copy of the native state (Guandan's ``Game.state``): the core's
        ``GameState``, for search and the native bots."""
        with _STEPPING:
            return self._state.copy()

    @property
    def must_include(self) -> Card | None:
        """The card the first lead must contain (R7.2), or ``None``."""
        card = self._state.must_include
        return None if card < 0 else _CARDS[card]

    @property
    def played(self) -> Cards:
        """Every card played so far in this hand."""
        return Cards(self._state.played_mask)

    @property
    def history(self) -> tuple[Action, ...]:
        """Every action so far, oldest first."""
        if self._hist_tuple is None:
            self._hist_tuple = tuple(self._hist)
        return self._hist_tuple

    # ----------------------------------------------------------------- questions

    def legal_moves(self) -> LegalMoves:
        """The plays open to the seat to act, every suit choice included, as a lazy
        :class:`LegalMoves` view (empty once the hand is over). Passing is separate:
        :meth:`can_pass`.

        >>> game = Game.from_hands(["3s 4s 5s", "9h"])
        >>> [str(move) for move in game.legal_moves()]
        ['3♠', '3♠ 4♠ 5♠']
        """
        # The view is live, so one per game serves every call.
        view = self._legal
        if view is None:
            view = self._legal = LegalMoves(self)
        return view

    def legal_plays(self) -> LegalMoves:
        """The plays open to the seat to act: :meth:`legal_moves` under the name both games
        give it (Guandan's ``Game.legal_plays``; docs/architecture.md, the vocabulary).

        >>> game = Game.from_hands(["3s 4s 5s", "9h"])
        >>> game.legal_plays() == game.legal_moves()
        True
        """
        return self.legal_moves()

    def verify_play(self, cards: CardsLike, seat: int | None = None) -> None:
        """Raise :class:`~tienlen.games.tienlen.refusals.IllegalMoveError` if ``seat`` (default: the seat
        to act) may not play ``cards`` now; return ``None`` if it may. ``cards`` may be
        :class:`Cards`, card text (a :class:`~tienlen.errors.CardParseError` propagates) or
        a mask.

        >>> game = Game.from_hands(["3s 7d 8d 9d Kh", "4s 5s 6h"])
        >>> _ = game.play("3s"); _ = game.pass_turn(); _ = game.play("7d 8d 9d")
        >>> game.verify_play("4s 5s")
        Traceback (most recent call last):
        ...
        tienlen.games.tienlen.refusals.IllegalMoveError: 4♠ 5♠ is not a combination
        >>> game.verify_play("4s 5s 6h")
        Traceback (most recent call last):
        ...
        tienlen.games.tienlen.refusals.IllegalMoveError: 4♠ 5♠ 6♥ does not beat 7♦ 8♦ 9♦: it has a lower top card (6♥ against 9♦)
        """
        self._verified_play(cards, seat)

    def can_play(self, cards: CardsLike, seat: int | None = None) -> bool:
        """Whether :meth:`play` would succeed. Malformed arguments are the caller's error,
        not a refused play, and raise: unparsable text, and a ``seat`` that is not an int
        0..players-1 (:class:`~tienlen.errors.TienlenError`), as guandan's ``can_play`` does.

        >>> game = Game.from_hands(["3s 4s", "5s"])
        >>> game.can_play("3s"), game.can_play("4s"), game.can_play("3s", seat=1)
        (True, False, False)
        >>> game.can_play("3s", seat=2)
        Traceback (most recent call last):
        ...
        tienlen.errors.TienlenError: seat must be 0..1; got 2
        """
        # Same checks as verify_play, without building the words of a refusal.
        parsed = _as_cards(cards)
        if self._wrong_seat(seat):
            return False
        return self._state.check_play(parsed.mask) == 0

    def verify_pass(self, seat: int | None = None) -> None:
        """Raise :class:`~tienlen.games.tienlen.refusals.IllegalMoveError` if ``seat`` (default: the seat
        to act) may not pass now.

        >>> Game.from_hands(["3s", "4s"]).verify_pass()
        Traceback (most recent call last):
        ...
        tienlen.games.tienlen.refusals.IllegalMoveError: you lead: you cannot pass
        """
        self._verified_seat(seat)
        code = self._state.check_pass()
        if code:
            reason = reason_from_core(code)
            raise IllegalMoveError(reason, pass_message(reason), seat=self._acting(seat))

    def can_pass(self, seat: int | None = None) -> bool:
        """Whether :meth:`pass_turn` would succeed (R5.1, R7.1); a malformed ``seat`` raises,
        as in :meth:`can_play`.

        >>> game = Game.from_hands(["3s 4s", "5s 9h"])
        >>> game.can_pass(); _ = game.play("3s"); game.can_pass(), game.can_pass(seat=0)
        False
        (True, False)
        """
        if seat is not None and self._wrong_seat(seat):
            return False
        return self._state.check_pass() == 0

    # ------------------------------------------------------------------- actions

    def play(self, cards: CardsLike, seat: int | None = None) -> Action:
        """Play ``cards`` for ``seat`` (default: the seat to act) and return the recorded
        :class:`Action`, or raise :class:`~tienlen.games.tienlen.refusals.IllegalMoveError` leaving the game
        unchanged.

        >>> game = Game.from_hands(["3s 4s 5s 9h", "6d 7d 8d 2c"])
        >>> print(game.play("3s 4s 5s"), "|", game.play("6d 7d 8d", seat=1))
        seat 0 plays 3♠ 4♠ 5♠ | seat 1 plays 6♦ 7♦ 8♦
        """
        parsed = cards if type(cards) is Cards else _as_cards(cards)
        # acquire/release, not `with`: half the cost, on the path every action takes
        _STEPPING.acquire()
        try:
            # One core call checks, applies and builds the record (its Combo shared through
            # the core's table); only a refusal pays for building its reason.
            action = (self._state.play_record(parsed, _PLAYED, Action)
                      if seat is None or not self._wrong_seat(seat) else -1)
            if isinstance(action, int):
                self._verified_play(parsed, seat)
                raise AssertionError("unreachable: the core refused a play that verifies")
            # self._record(action), inlined: the path every play takes
            if self._shared:
                self._hist = self._hist.copy()
                self._shared = False
            self._hist.append(action)
            self._hist_tuple = None
            return action
        finally:
            _STEPPING.release()

    def pass_turn(self, seat: int | None = None) -> Action:
        """Pass for ``seat`` (default: the seat to act), which locks it out of this pile
        (R5.1), and return the recorded :class:`Action`; or raise
        :class:`~tienlen.games.tienlen.refusals.IllegalMoveError` leaving the game unchanged.

        >>> game = Game.from_hands(["3s 4s", "5s 9h", "6d"])
        >>> _ = game.play("3s"); print(game.pass_turn(seat=1)); game.locked_seats
        seat 1 passes
        frozenset({1})
        """
        _STEPPING.acquire()
        try:
            action = (self._state.pass_record(_PASSES)
                      if seat is None or not self._wrong_seat(seat) else -1)
            if isinstance(action, int):
                self.verify_pass(seat)
                raise AssertionError("unreachable: the core refused a pass that verifies")
            # self._record(action), inlined: the path every pass takes
            if self._shared:
                self._hist = self._hist.copy()
                self._shared = False
            self._hist.append(action)
            self._hist_tuple = None
            return action
        finally:
            _STEPPING.release()

    def act(self, move: MoveLike, seat: int | None = None) -> Action:
        """Play ``move``, or pass if it is :data:`PASS`: the one entry point for a bot's
        answer.

        >>> game = Game.from_hands(["3s 4s", "5s 9h"])
        >>> print(game.act(Cards.parse("3s")), "|", game.act(PASS))
        seat 0 plays 3♠ | seat 1 passes
        """
        if isinstance(move, _PassType):
            return self.pass_turn(seat)
        return self.play(move, seat)

    def apply_unchecked(self, move: Cards | int | _PassType) -> Action:
        """The fast path, for callers that took ``move`` from :meth:`legal_moves` (or chose
        to pass when :meth:`can_pass`): ``Cards`` or a mask to play, :data:`PASS` or ``0``
        to pass. Nothing is verified beyond what would corrupt the state (the core's
        ``GameState.apply`` refuses a move after the end, cards not held, a
        non-combination and a pass on lead, with a plain ``ValueError``). It still records
        the action in :attr:`history`.

        >>> game = Game.from_hands(["3s 4s", "5s 9h"])
        >>> print(game.apply_unchecked(next(iter(game.legal_moves()))),
        ...       "|", game.apply_unchecked(PASS))
        seat 0 plays 3♠ | seat 1 passes
        """
        # A move the rules allow takes the checked path's one core call (check, apply and
        # record: cheaper than applying here and building the record in Python); only a
        # move they refuse, which the caller vouched for, is applied the trusting way.
        if move is PASS or (type(move) is int and move == 0):
            _STEPPING.acquire()
            try:
                action = self._state.pass_record(_PASSES)
                if isinstance(action, int):
                    turn = self._state.turn
                    self._state.apply(0)
                    action = _PASSES[turn]
                return self._record(action)
            finally:
                _STEPPING.release()
        cards = move if type(move) is Cards else _as_cards(move)
        _STEPPING.acquire()
        try:
            if cards._mask:
                action = self._state.play_record(cards, _PLAYED, Action)
                if not isinstance(action, int):
                    return self._record(action)
            turn = self._state.turn
            if not cards._mask:
                if hasattr(type(move), "__index__") and not isinstance(move, bool):
                    # A NumPy 0 is the mask 0, a pass, as the int 0 is.
                    self._state.apply(0)
                    return self._record(_PASSES[turn])
                # Empty cards ("", [], Cards()): the core would take mask 0 as a pass, and
                # recording a play of no cards would give a history (and a replay) that
                # disagrees with what the core did.
                raise IllegalMoveError(Reason.NOT_A_COMBINATION,
                                       "you must play at least one card (or pass: PASS or 0)",
                                       seat=turn, cards=cards)
            code = self._state.apply(cards._mask)
            return self._record(_new_action(Action, (turn, "play", cards,
                                                     _played_combo(code, cards))))
        finally:
            _STEPPING.release()

    # ---------------------------------------------------------------------- views

    def view(self, seat: int) -> View:
        """What ``seat`` may see: its own hand, every count, the public history. Bots get
        views, never the game.

        >>> game = Game.from_hands(["3s 4s", "5s 9h"])
        >>> view = game.view(1)
        >>> view.hand, view.card_counts, view.is_my_turn
        (Cards.parse('5s 9h'), (2, 2), False)
        """
        seat = self._seat_arg(seat)
        with _STEPPING:   # the state and its history as of one moment, not mid-action
            return self._view(seat)

    def _view(self, seat: int) -> View:
        state = self._state
        hands = state.hands
        turn, owner, card = state.turn, state.pile_owner, state.must_include
        return View(
            seat=seat,
            players=state.players,
            rules=self._rules,
            hand=Cards(hands[seat]),
            card_counts=tuple(map(int.bit_count, hands)),
            played=Cards(state.played_mask),
            pile=self.pile,
            pile_owner=None if owner < 0 else owner,
            turn=None if turn < 0 else turn,
            locked_seats=_LOCKED_SETS[state.locked_mask],
            finished=state.finished,
            must_include=None if card < 0 else _CARDS[card],
            history=self.history,
        )

    # --------------------------------------------------------- copies, comparison

    def copy(self) -> Game:
        """An independent copy. Cheap: the core state is a struct copy and the history list
        is shared until either side appends to it (copy on write), so search can copy
        thousands of times per move.

        >>> game = Game.from_hands(["3s 4s", "5s 9h"])
        >>> twin = game.copy(); _ = twin.play("3s")
        >>> len(game.history), len(twin.history), game == game.copy()
        (0, 1, True)
        """
        twin = object.__new__(type(self))
        # Under the actions' lock: another thread's action between copying the state and
        # sharing the history would give a copy whose history is not its state's. (acquire
        # and release, not `with`: a third cheaper, and copies are what search makes.)
        _STEPPING.acquire()
        try:
            twin._state = self._state.copy()
            twin._hist = self._hist
            twin._hist_tuple = self._hist_tuple
            twin._shared = self._shared = True
        finally:
            _STEPPING.release()
        twin._rules = self._rules
        twin._seed = self._seed
        twin._leader = self._leader
        twin._initial = self._initial
        twin._legal = None
        return twin

    __copy__ = copy

    def __getstate__(self) -> tuple[None, dict[str, object]]:
        # Every slot but the cached LegalMoves view, which holds the core state natively:
        # pickled, it would be rebuilt (from this game) before this game's state is back.
        slots = {name: getattr(self, name) for name in Game.__slots__ if hasattr(self, name)}
        slots["_legal"] = None
        return None, slots

    def __deepcopy__(self, memo: dict[int, object]) -> Game:
        return self.copy()

    def snapshot(self) -> tuple[object, ...]:
        """Every field of the game as a hashable tuple: equal snapshots mean equal games
        (same setup, same state, same history)."""
        with _STEPPING:   # state and history of one moment
            return (self._rules, self._seed, self._leader, self._initial, self._state.key(),
                    self.history)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Game):
            return NotImplemented
        return self.snapshot() == other.snapshot()

    __hash__ = None  # type: ignore[assignment]  # mutable

    def __repr__(self) -> str:
        pile = self.pile
        where = "over" if self.is_over else f"turn={self.turn}"
        return (f"<Game players={self.players} {where} pile={pile if pile else '-'} "
                f"finished={self.finished} actions={len(self._hist)}>")

    # ---------------------------------------------------------------------- replay

    def to_json(self, *, indent: int | None = None) -> str:
        """This game as versioned JSON (see :mod:`tienlen.games.tienlen.replay`).

        >>> game = Game.from_hands(["3s 4s", "5s 9h"]); _ = game.play("3s")
        >>> Game.from_json(game.to_json()) == game
        True
        """
        check_indent(indent)
        with _STEPPING:   # the actions and the finishing order of one moment, not mid-action
            history, finished = self.history, self.finished
        return record_to_json(players=self.players, rules=self.rules, seed=self.seed,
                              hands=self.initial_hands, leader=self.leader,
                              history=((a.seat, a.cards) for a in history),
                              finished=finished, indent=indent)

    @classmethod
    def from_json(cls, text: str | bytes) -> Game:
        """Replay a game written by :meth:`to_json`, checking every action; raises
        :class:`~tienlen.errors.ReplayError` naming the first bad field or action (the
        format: :mod:`tienlen.games.tienlen.replay_format`)."""
        return load_game(text, _start_replay)

    # ------------------------------------------------------------------- helpers

    def _record(self, action: Action) -> Action:
        if self._shared:
            self._hist = self._hist.copy()
            self._shared = False
        self._hist.append(action)
        self._hist_tuple = None
        return action

    def _seat_arg(self, seat: object) -> int:
        if type(seat) is not int or not 0 <= seat < self._state.players:
            # The caller's error, not a refused move: raised by can_* too (as guandan's).
            raise TienlenError(f"seat must be 0..{self._state.players - 1}; got {seat!r:.80}")
        return seat

    def _acting(self, seat: int | None) -> int | None:
        turn = self._state.turn
        return seat if seat is not None else (None if turn < 0 else turn)

    def _wrong_seat(self, seat: int | None) -> bool:
        """Whether ``seat`` was named and is not the seat to act (a bad seat raises)."""
        if seat is None:
            return False
        self._seat_arg(seat)
        turn = self._state.turn
        # Once the hand is over the core's GAME_OVER is the better answer for everyone.
        return turn >= 0 and seat != turn

    def _verified_seat(self, seat: int | None, cards: Cards | None = None) -> None:
        if seat is not None and self._wrong_seat(seat):
            raise IllegalMoveError(Reason.NOT_YOUR_TURN, turn_message(self._state.turn, seat),
                                   seat=seat, cards=cards)

    def _verified_play(self, cards: CardsLike, seat: int | None) -> Cards:
        parsed = _as_cards(cards)
        self._verified_seat(seat, parsed)
        state = self._state
        code = state.check_play(parsed.mask)
        if code:
            reason = reason_from_core(code)
            turn = state.turn
            message = play_message(
                reason,
                parsed,
                hand=Cards(state.hands[turn]) if turn >= 0 else Cards(),
                pile=Cards(state.pile_mask),
                pile_code=state.pile_code,
                must_include=state.must_include,
                flags=state.flags,
            )
            raise IllegalMoveError(reason, message, seat=self._acting(seat), cards=parsed)
        return parsed


def _start_replay(header: Header) -> Game:
    """The game a replay starts from (:func:`load_game`'s start): dealt from its seed, or
    set up from its hands."""
    if header.seed is not None:
        return Game(header.players, seed=header.seed, rules=header.rules, leader=header.leader)
    return Game.from_hands(header.hands, rules=header.rules, leader=header.leader)
