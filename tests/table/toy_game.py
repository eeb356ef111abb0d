"""A tiny third climbing game that exists only in the tests: the proof that the table
layer (:mod:`tienlen.table`) and the services written against it are generic.

Rules ("Toy climb"): one suit of ``RANKS`` ranks, two copies of each (so pairs exist);
2 or 3 players, ``HAND`` cards each. The leader plays a single or a pair; the next seats
follow with the same kind, strictly higher, or pass. When everyone else has passed since
the last play, its owner leads anew (a seat that went out hands the lead to the next seat
still in). The first seat out places 1st, and so on; the hand ends when one seat is left.
A hand scores ``players - place`` points. A match is ``hands`` hands (option, default 1).

Cards are named by their rank (``"1"`` .. ``"9"``); a play is ``{"kind": "play",
"cards": ["7", "7"]}``. The "core" is this pure-Python module; nothing here is imported
by tienlen. ``with registered():`` registers the spec as ``"toy"`` for the block and
removes it after (tests use it as a fixture, so no other test sees a third game).
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from tienlen.table.spec import Action, IllegalActionError, MatchTable, check_action, table_option

RANKS = 9
HAND = 6
DEFAULT_HANDS = 1
NAME = "toy"


def _deal(seed: int, hand: int, players: int) -> list[list[int]]:
    deck = [r for r in range(1, RANKS + 1) for _ in range(2)]
    random.Random(seed * 1_000_003 + hand).shuffle(deck)
    return [sorted(deck[i * HAND:(i + 1) * HAND]) for i in range(players)]


def _legal(hand: list[int], pile: tuple[int, ...] | None) -> list[tuple[int, ...]]:
    """Every play ``hand`` may make on ``pile`` (None: leading), lowest first."""
    ranks = sorted(set(hand))
    singles = [(r,) for r in ranks]
    pairs = [(r, r) for r in ranks if hand.count(r) >= 2]
    if pile is None:
        return singles + pairs
    pool = singles if len(pile) == 1 else pairs
    return [p for p in pool if p[0] > pile[0]]


@dataclass(frozen=True)
class ToyView:
    """What one seat knows: a bot's view."""

    seat: int
    turn: int | None
    hand: tuple[int, ...]
    pile: tuple[int, ...] | None
    pile_owner: int | None
    hand_sizes: tuple[int, ...]
    finished: tuple[int, ...]

    def legal_plays(self) -> list[tuple[int, ...]]:
        return _legal(list(self.hand), self.pile) if self.turn == self.seat else []

    @property
    def can_pass(self) -> bool:
        return self.turn == self.seat and self.pile is not None


class ToyHand:
    """One hand: the game's "core", with checked ``play`` / ``pass_turn``."""

    def __init__(self, seed: int, hand_number: int, players: int) -> None:
        self.players = players
        self.hands = _deal(seed, hand_number, players)
        self.turn: int | None = (seed + hand_number) % players
        self.pile: tuple[int, ...] | None = None
        self.pile_owner: int | None = None
        self.passed: set[int] = set()
        self.finished: list[int] = []
        self.history: list[tuple[int, tuple[int, ...] | None]] = []

    @property
    def is_over(self) -> bool:
        return self.turn is None

    def _next_in(self, seat: int) -> int:
        for step in range(1, self.players + 1):
            s = (seat + step) % self.players
            if s not in self.finished:
                return s
        raise AssertionError("no seat is left")

    def refusal(self, seat: int, play: tuple[int, ...] | None) -> IllegalActionError | None:
        if self.turn is None:
            return IllegalActionError("HAND_OVER", "the hand is over")
        if seat != self.turn:
            return IllegalActionError("NOT_YOUR_TURN", f"it is seat {self.turn}'s turn")
        if play is None:
            if self.pile is None:
                return IllegalActionError("CANNOT_PASS", "the leader may not pass")
            return None
        hand = self.hands[seat]
        if any(hand.count(r) < play.count(r) for r in set(play)):
            return IllegalActionError("NOT_IN_HAND", "you do not hold those cards")
        if play not in _legal(hand, self.pile):
            return IllegalActionError("DOES_NOT_BEAT",
                                      "lead a single or a pair" if self.pile is None else
                                      "play the same kind, higher, or pass")
        return None

    def act(self, seat: int, play: tuple[int, ...] | None) -> None:
        error = self.refusal(seat, play)
        if error is not None:
            raise error
        self.history.append((seat, play))
        if play is None:
            self.passed.add(seat)
        else:
            for r in play:
                self.hands[seat].remove(r)
            self.pile, self.pile_owner, self.passed = play, seat, set()
            if not self.hands[seat]:
                self.finished.append(seat)
        left = [s for s in range(self.players) if s not in self.finished]
        if len(left) == 1:
            self.finished.append(left[0])
            self.turn = None
            return
        owner = self.pile_owner
        assert owner is not None
        following = [s for s in left if s != owner]
        if owner not in self.finished and all(s in self.passed for s in following):
            self.pile, self.pile_owner, self.passed = None, None, set()
            self.turn = owner
        elif owner in self.finished and all(s in self.passed for s in left):
            self.pile, self.pile_owner, self.passed = None, None, set()
            self.turn = self._next_in(owner)
        else:
            self.turn = self._next_in(seat)

    def view(self, seat: int) -> ToyView:
        return ToyView(seat, self.turn, tuple(self.hands[seat]), self.pile, self.pile_owner,
                       tuple(len(h) for h in self.hands), tuple(self.finished))

    def places(self) -> list[int]:
        """Each seat's place, 1 first (a finished hand only)."""
        out = [0] * self.players
        for place, seat in enumerate(self.finished, 1):
            out[seat] = place
        return out


def _parse(action: Action) -> tuple[int, ...] | None:
    a = check_action(action)
    if a["kind"] == "pass":
        return None
    if a["kind"] != "play":
        raise IllegalActionError("BAD_ACTION", "the toy game has no tribute")
    try:
        ranks = tuple(sorted(int(c) for c in a["cards"]))
    except ValueError:
        raise IllegalActionError("INVALID_CARDS", "a card is a rank 1..9") from None
    if not all(1 <= r <= RANKS for r in ranks) or len(ranks) > 2 or len(set(ranks)) != 1:
        raise IllegalActionError("INVALID_CARDS", "a play is one card or a pair")
    return ranks


def _action_json(play: tuple[int, ...] | None) -> dict[str, Any]:
    if play is None:
        return {"kind": "pass"}
    return {"kind": "play", "cards": [str(r) for r in play]}


class ToyTable(MatchTable):
    """A toy match at a table (:class:`tienlen.table.TableState`)."""

    game = NAME

    def __init__(self, seed: int, players: int, hands: int) -> None:
        self.seed, self._players, self._hands = seed, players, hands
        self._number = 1
        self._hand = ToyHand(seed, 1, players)
        self._scores: list[list[int]] = []
        self._places: list[list[int]] = []

    @property
    def players(self) -> int:
        return self._players

    @property
    def current(self) -> ToyHand:
        return self._hand

    @property
    def phase(self) -> str:
        if not self._hand.is_over:
            return "play"
        return "over" if self._number >= self._hands else "hand_over"

    @property
    def turn(self) -> int | None:
        return self._hand.turn

    @property
    def hand_number(self) -> int:
        return self._number

    def legal_actions(self) -> list[dict[str, Any]]:
        h = self._hand
        if h.turn is None:
            return []
        out = [{"kind": "pass"}] if h.pile is not None else []
        out.extend(_action_json(p) for p in _legal(h.hands[h.turn], h.pile))
        return out

    def verify(self, action: Action, seat: int) -> None:
        play = _parse(action)
        self._check_seat(seat)
        error = self._hand.refusal(seat, play)
        if error is not None:
            raise error

    def apply(self, action: Action, seat: int) -> dict[str, Any]:
        play = _parse(action)
        self._check_seat(seat)
        self._hand.act(seat, play)
        if self._hand.is_over:
            places = self._hand.places()
            self._places.append(places)
            self._scores.append([self._players - p for p in places])
        return self._remember(dict(_action_json(play), seat=seat), seat)

    def next_hand(self) -> None:
        self._check_deal()
        self._number += 1
        self._hand = ToyHand(self.seed, self._number, self._players)

    def bot_view(self, seat: int) -> ToyView:
        self._check_seat(seat)
        return self._hand.view(seat)

    def totals(self) -> list[int]:
        return [sum(s[i] for s in self._scores) for i in range(self._players)]

    def outcome(self) -> dict[str, Any] | None:
        if not self._scores:
            return None
        return {"hand": len(self._scores), "places": list(self._places[-1]),
                "points": list(self._scores[-1]), "totals": self.totals(), "hands": self._hands}

    def view(self, seat: int) -> dict[str, Any]:
        self._check_seat(seat)
        v = self._hand.view(seat)
        return {"game": NAME, "seat": seat, "players": self._players, "phase": self.phase,
                "hand_number": self._number, "hands": self._hands, "turn": v.turn,
                "hand": [str(r) for r in v.hand], "hand_sizes": list(v.hand_sizes),
                "pile": None if v.pile is None else dict(_action_json(v.pile), seat=v.pile_owner),
                "finished": list(v.finished), "can_pass": v.can_pass,
                "history": [dict(_action_json(p), seat=s) for s, p in self._hand.history[-24:]],
                "totals": self.totals(),
                "result": self.outcome() if self.phase in ("hand_over", "over") else None}


class ToyBot:
    """``"random"`` plays a seeded random legal action; ``"low"`` the lowest play (it
    passes only when it must)."""

    def __init__(self, level: str, seed: int) -> None:
        self.name = f"toy-{level}"
        self.level = level
        self._rng = random.Random(seed)

    def _choose(self, view: ToyView) -> tuple[tuple[int, ...] | None, str]:
        plays = view.legal_plays()
        if self.level == "random":
            options: list[tuple[int, ...] | None] = list(plays)
            if view.can_pass:
                options.append(None)
            return self._rng.choice(options), "a random legal action"
        if plays:
            return plays[0], "the lowest play that is legal"
        return None, "nothing beats the pile"

    def act(self, view: object) -> dict[str, Any]:
        assert isinstance(view, ToyView)
        return _action_json(self._choose(view)[0])

    def explain(self, view: object, lang: str = "en") -> tuple[dict[str, Any], str]:
        assert isinstance(view, ToyView)
        play, reason = self._choose(view)
        return _action_json(play), reason


class ToySpec:
    """The toy game's entry in the table registry."""

    name = NAME
    title = "Toy"
    player_counts = (2, 3)
    bot_levels = ("random", "low")
    hint_level = "low"
    reason_langs = ("en",)

    def new_match(self, seed: int, *, players: int | None = None,
                  options: Mapping[str, Any] | None = None) -> ToyTable:
        players = 3 if players is None else players
        if players not in self.player_counts:
            raise ValueError(f"the toy game is played by 2 or 3; got players={players!r:.20}")
        hands = table_option(options, "hands", DEFAULT_HANDS, 1000, "toy")
        return ToyTable(seed, players, hands)

    def make_bot(self, level: str, seed: int) -> ToyBot:
        if level not in self.bot_levels:
            raise ValueError(f"unknown toy bot level {level!r:.20}; choose from "
                             f"{', '.join(self.bot_levels)}")
        return ToyBot(level, seed)

    def hint_bot(self, seed: int) -> ToyBot:
        return self.make_bot(self.hint_level, seed)


SPEC = ToySpec()


@contextmanager
def registered() -> Iterator[ToySpec]:
    """Register :data:`SPEC` as ``"toy"`` for the block (in this process: a Dask
    ``LocalCluster(processes=False)`` shares it), and unregister it after."""
    from tienlen.table import registry

    registry.register(NAME, SPEC)
    try:
        yield SPEC
    finally:
        with registry._LOCK:
            registry._SPECS.pop(NAME, None)
