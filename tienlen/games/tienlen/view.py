"""What one seat may see of a hand: the only thing a bot is ever given.

A :class:`View` holds the seat's own hand and the public facts (card counts, cards played,
pile, turn, lock-outs, finishing order, history), never another seat's cards. It is a frozen
value built by :meth:`tienlen.games.tienlen.game.Game.view`; its questions go to the core.

>>> from tienlen.games.tienlen.game import Game
>>> game = Game.from_hands(["3s 4s 9d", "5s 5h 2h", "6c 7c 8c"])
>>> _ = game.play("3s")
>>> view = game.view(1)
>>> view.is_my_turn, view.card_counts, str(view.played), view.pile_owner
(True, (2, 3, 3), '3♠', 0)
>>> [str(move) for move in view.legal_moves()], view.can_pass()
(['5♠', '5♥', '2♥'], True)
>>> len(view.unseen)                          # 52 - own 3 - played 1
48
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass
from typing import Any, Final

from tienlen import _core
from tienlen.games.tienlen.actions import Action
from tienlen.games.tienlen.cards import Card, Cards
from tienlen.games.tienlen.plays import Combo
from tienlen.errors import TienlenError
from tienlen.games.tienlen.rules import Rules

__all__ = ["View"]

_DECK = (1 << 52) - 1


class _Required:
    """The default of a View field that must be given (it stands in only so that the
    deprecated ``locked_out=`` keyword can replace ``locked_seats``)."""

    def __repr__(self) -> str:
        return "<required>"


_REQUIRED: Final[Any] = _Required()


@dataclass(frozen=True, slots=True, init=False)
class View:
    """One seat's view of a hand. Every field is public information or the seat's own.

    ``locked_seats`` holds the seats that passed on this pile (R5.1), each locked out of it
    until the pile clears. ``unseen`` is every card the seat has not seen: in other hands
    or, with fewer than four players, set aside (R1.2).

    Every field is required, by position or keyword, in the order below. The keyword
    ``locked_out=`` (the field's old name) is still accepted for ``locked_seats``, with a
    :class:`DeprecationWarning`; giving both is a :class:`~tienlen.errors.TienlenError`.
    """

    seat: int
    players: int
    rules: Rules
    hand: Cards
    card_counts: tuple[int, ...]
    played: Cards
    pile: Combo | None
    pile_owner: int | None
    turn: int | None
    locked_seats: frozenset[int]
    finished: tuple[int, ...]
    must_include: Card | None
    history: tuple[Action, ...]

    def __init__(self, seat: int, players: int, rules: Rules, hand: Cards,
                 card_counts: tuple[int, ...], played: Cards, pile: Combo | None,
                 pile_owner: int | None, turn: int | None,
                 locked_seats: frozenset[int] = _REQUIRED,
                 finished: tuple[int, ...] = _REQUIRED,
                 must_include: Card | None = _REQUIRED,
                 history: tuple[Action, ...] = _REQUIRED, *,
                 locked_out: frozenset[int] = _REQUIRED) -> None:
        if locked_out is not _REQUIRED:
            if locked_seats is not _REQUIRED:
                raise TienlenError("View got both locked_seats and its deprecated alias "
                                   "locked_out: give locked_seats only")
            warnings.warn("View(locked_out=...) is deprecated: use View(locked_seats=...) "
                          "(the same set)", DeprecationWarning, stacklevel=2)
            locked_seats = locked_out
        if (locked_seats is _REQUIRED or finished is _REQUIRED or must_include is _REQUIRED
                or history is _REQUIRED):   # (one test on the path every view takes)
            missing = [name for name, value in (("locked_seats", locked_seats),
                                                ("finished", finished),
                                                ("must_include", must_include),
                                                ("history", history)) if value is _REQUIRED]
            # As Python says it for any call that leaves out an argument.
            raise TypeError(f"View() missing required argument(s): {', '.join(missing)}")
        # Frozen: the fields are set once, here, as the generated __init__ would.
        put = object.__setattr__
        put(self, "seat", seat)
        put(self, "players", players)
        put(self, "rules", rules)
        put(self, "hand", hand)
        put(self, "card_counts", card_counts)
        put(self, "played", played)
        put(self, "pile", pile)
        put(self, "pile_owner", pile_owner)
        put(self, "turn", turn)
        put(self, "locked_seats", locked_seats)
        put(self, "finished", finished)
        put(self, "must_include", must_include)
        put(self, "history", history)

    @property
    def locked_out(self) -> frozenset[int]:
        """Deprecated alias of :attr:`locked_seats` (the seats that passed on this pile, the
        same set); reading it warns with a :class:`DeprecationWarning`. ``locked_out`` now
        names only the bool "this seat is locked out"."""
        warnings.warn("View.locked_out is deprecated: use View.locked_seats (the same set)",
                      DeprecationWarning, stacklevel=2)
        return self.locked_seats

    # -- the names Guandan's view gives the same things (docs/architecture.md, the
    # vocabulary): one contract for a front end or bot that reads either game's view.

    @property
    def config(self) -> Rules:
        """The same as :attr:`rules`: the hand's rule options."""
        return self.rules

    @property
    def hand_sizes(self) -> tuple[int, ...]:
        """The same as :attr:`card_counts`: the cards each seat holds."""
        return self.card_counts

    @property
    def legal_plays(self) -> list[Cards]:
        """This seat's legal plays (:meth:`legal_moves`), read as a field as Guandan's view
        holds them."""
        return self.legal_moves()

    @property
    def phase(self) -> str:
        """``"over"`` once the hand has ended (every seat but one has finished, or an
        instant win), else ``"play"``."""
        return "over" if self.turn is None else "play"

    @property
    def is_my_turn(self) -> bool:
        """Whether this seat is to act."""
        return self.turn == self.seat

    @property
    def unseen(self) -> Cards:
        """The deck minus this seat's hand minus every card played."""
        return Cards(_DECK & ~self.hand.mask & ~self.played.mask)

    def known_cards(self, seat: int) -> Cards:
        """The cards ``seat`` is known to hold, as far as this seat can tell: its own hand
        for this seat, none for another (Tiến Lên exchanges no cards; Guandan's view names
        the cards its public exchanges put in a hand, G6.11).

        >>> from tienlen.games.tienlen.game import Game
        >>> view = Game.from_hands(["3s 4s", "5s 9h"]).view(0)
        >>> view.known_cards(0), view.known_cards(1)
        (Cards.parse('3s 4s'), Cards())
        """
        return self.hand if seat == self.seat else Cards()

    def legal_moves(self) -> list[Cards]:
        """This seat's legal plays in the core's order; ``[]`` unless it is its turn.

        >>> from tienlen.games.tienlen.game import Game
        >>> game = Game.from_hands(["3s 4s", "5s 9h"])
        >>> game.view(0).legal_moves(), game.view(1).legal_moves()
        ([Cards.parse('3s')], [])
        """
        if self.turn != self.seat:
            return []
        # The core's move generator, given exactly what the game state would give it.
        masks = _core.legal_moves(
            self.hand.mask,
            self.pile.code if self.pile is not None else 0,
            self.rules.flags,
            self.seat in self.locked_seats,
            -1 if self.must_include is None else int(self.must_include),
        )
        return [Cards(mask) for mask in masks.tolist()]

    def can_pass(self) -> bool:
        """Whether this seat may pass now (its turn, and not leading: R7.1)."""
        # The core's check_pass is exactly "not over and the pile is not empty"; the view
        # already holds both facts, and building a search state to ask costs ~60 us a call.
        return self.turn == self.seat and self.pile is not None

    def search_state(self) -> _core.GameState:
        """A core ``GameState`` consistent with this view, for search: this seat's hand is
        real; every other seat holds the right number of cards taken from :attr:`unseen`
        (the lowest ones, in seat order: arbitrary, not random; a searcher redraws them, as
        ``core.sampled_places`` does). Raises ``ValueError`` once the hand is over.

        >>> from tienlen.games.tienlen.game import Game
        >>> game = Game.from_hands(["3s 4s", "5s 9h"])
        >>> state = game.view(1).search_state()
        >>> state.turn, state.must_include, [bin(m).count("1") for m in state.hands]
        (0, 0, [2, 2])
        """
        if self.turn is None:
            raise ValueError("the hand is over: there is no state to search")
        pool = _DECK & ~self.hand.mask & ~self.played.mask
        hands = [0] * self.players
        hands[self.seat] = self.hand.mask
        if self.must_include is not None and self.turn != self.seat:
            # Everyone knows the first leader holds this card (R7.2), and the core requires it.
            bit = 1 << self.must_include
            hands[self.turn] = bit
            pool &= ~bit
        # Each other seat takes the next run of the pool's cards, lowest first: positions of
        # the set bits, then one mask per run (cheaper than moving bits one at a time).
        positions = [i for i, bit in enumerate(reversed(bin(pool))) if bit == "1"]
        start = 0
        for seat, count in enumerate(self.card_counts):
            need = count - hands[seat].bit_count()
            if seat == self.seat or need <= 0:
                continue
            if start + need > len(positions):
                raise ValueError("the card counts need more cards than the view has unseen")
            low, high = positions[start], positions[start + need - 1]
            hands[seat] |= pool & ((2 << high) - (1 << low))
            start += need
        locked = 0
        for seat in self.locked_seats:
            locked |= 1 << seat
        return _core.GameState.from_fields(
            hands,
            pile_mask=self.pile.cards.mask if self.pile is not None else 0,
            pile_owner=-1 if self.pile_owner is None else self.pile_owner,
            turn=self.turn,
            locked_mask=locked,
            finished=self.finished,
            must_include=-1 if self.must_include is None else int(self.must_include),
            flags=self.rules.flags,
            played_mask=self.played.mask,
        )
