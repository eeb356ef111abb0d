"""The table protocol's records of a review (复盘, issue 38): a finished hand as data, and the
value of each decision a seat made in it, for every game.

A game that can be reviewed gives its spec four optional hooks (the review service,
:mod:`tienlen.review`, asks for them by name and names no game):

``read_record(source) -> tuple[Record, ...]``
    the hands of a saved file (its bytes: what ``tienlen play --save`` and the room write)
    or of a table's match (a :class:`~tienlen.table.spec.TableState`), one
    :class:`Record` per hand played to its end (a hand cut short is left out); a bad file
    raises a ``ValueError`` of one line;
``evaluate(view, actions, seed, budget) -> list[ActionValue]``
    the expected outcome, for the seat whose view it is, of each of ``actions`` and of the
    game's own candidates (the search bot's), on the same sampled deals, deterministic for a
    given ``seed`` and ``budget`` (:class:`Budget`), the entry the search bot itself would
    choose with that seed and budget flagged ``bot``; ``[]`` for a decision the game does
    not price;
``tracker(view) -> dict``
    the card tracker (记牌器) of that view: the cards the seat has not seen, by rank, the
    jokers and wild cards among them, and what the game says of them (Guandan: the bombs
    still possible); from the seat's own view only;
``review_threshold``
    the default threshold of a mistake, in the game's unit (``value_unit``).

>>> step = Step(seat=1, turn=4, action={"kind": "pass"})
>>> step.to_json()
{'seat': 1, 'turn': 4, 'action': {'kind': 'pass'}}
>>> a, b = ActionValue({"kind": "pass"}, -0.5, 0.1), ActionValue({"kind": "play", "cards": ["3s"]}, 1.0, 0.1)
>>> same_action({"kind": "play", "cards": ["3s"], "label": "3"}, b.action)
True
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

__all__ = ["Step", "Record", "ActionValue", "Evaluation", "Budget", "Reviewable", "same_action",
           "action_key", "decision_kind"]


@dataclass(frozen=True)
class Step:
    """One action of a hand: the seat that took it, the state's turn number (the count of
    actions before it in the hand) and the action as the table protocol writes it. ``view``
    is the game's own view of the acting seat just before it (for the evaluator; not part
    of the JSON) and ``legal`` how many actions that seat could choose from."""

    seat: int
    turn: int
    action: Mapping[str, Any]
    view: object = field(default=None, compare=False, repr=False)
    legal: int = field(default=0, compare=False)

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "turn": self.turn, "action": dict(self.action)}


@dataclass(frozen=True)
class Record:
    """A finished hand: the game, the match's seed and the hand's number in it, the hand's
    deal seed, every seat's cards as dealt (face up: the hand is over), its steps in order
    and its outcome. ``extra`` holds what the game shows beside (Guandan's level)."""

    game: str
    match_seed: int
    hand: int
    seed: int
    players: int
    hands: tuple[tuple[str, ...], ...]
    steps: tuple[Step, ...]
    outcome: Mapping[str, Any] = field(default_factory=dict)
    extra: Mapping[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        """The record as JSON-able data (the browser's replay timeline)."""
        return {"game": self.game, "match_seed": self.match_seed, "hand": self.hand,
                "seed": self.seed, "players": self.players,
                "hands": [list(h) for h in self.hands],
                "steps": [s.to_json() for s in self.steps], "outcome": dict(self.outcome),
                "extra": dict(self.extra)}


def _round(x: float) -> float | None:
    """``x`` to 4 places for JSON; ``None`` for an infinite or undefined number (an error
    of one deal), which JSON cannot carry."""
    return round(x, 4) if math.isfinite(x) else None


@dataclass(frozen=True)
class ActionValue:
    """The expected outcome of one action for the seat that takes it: ``value`` in the
    game's unit (higher is better; Tiến Lên: points, Guandan: levels for the team), its
    standard error, and the share of sampled deals in which the hand was won (the seat's,
    or its team's). ``deals`` is the number of sampled deals; ``diffs`` the value on each
    deal, in the same order for every action of one evaluation (kept for paired
    comparisons; not part of the JSON)."""

    action: Mapping[str, Any]
    value: float
    stderr: float
    win: float = 0.0
    deals: int = 0
    diffs: tuple[float, ...] = field(default=(), compare=False, repr=False)
    #: Why the action is worth its value, in the person's language (the bot's words).
    why: str = field(default="", compare=False)
    #: Whether the game's search bot, given this evaluation's seed and budget, chooses
    #: this action (at most one entry of an evaluation): a choice the review never marks.
    bot: bool = False

    def to_json(self) -> dict[str, Any]:
        return {"action": dict(self.action), "value": _round(self.value),
                "stderr": _round(self.stderr), "win": _round(self.win), "deals": self.deals}


@dataclass(frozen=True)
class Evaluation:
    """One decision, reviewed: the seat, the state's turn number, the action chosen and the
    best one with their values, whether the choice was a mistake (worse than the best by
    more than the sampling error of the difference and by more than the threshold), why (in
    the player's language: the bot's reason for the better play) and what it cost (the
    difference, in the game's unit; 0 when it was no mistake). ``evaluated`` is False for a
    decision the time bound left out, or one the game does not price. ``kind`` is what was
    decided (:func:`decision_kind`: ``"play"``, ``"tribute"`` or ``"return"``) and ``bot``
    the action the search bot would have chosen (``None`` when not evaluated)."""

    seat: int
    turn: int
    chosen: ActionValue
    best: ActionValue
    mistake: bool
    cost: float
    cost_error: float
    why: str = ""
    forced: bool = False
    evaluated: bool = True
    values: tuple[ActionValue, ...] = ()
    bot: Mapping[str, Any] | None = None

    @property
    def kind(self) -> str:
        return decision_kind(self.chosen.action)

    def to_json(self) -> dict[str, Any]:
        """One object per decision (``tienlen review --json``)."""
        return {"seat": self.seat, "turn": self.turn, "kind": self.kind,
                "chosen": dict(self.chosen.action),
                "best": dict(self.best.action), "chosen_value": _round(self.chosen.value),
                "chosen_error": _round(self.chosen.stderr),
                "best_value": _round(self.best.value),
                "best_error": _round(self.best.stderr),
                "chosen_win": _round(self.chosen.win), "best_win": _round(self.best.win),
                "mistake": self.mistake, "cost": _round(self.cost),
                "cost_error": _round(self.cost_error), "why": self.why,
                "forced": self.forced, "evaluated": self.evaluated,
                "deals": self.best.deals,
                "bot": None if self.bot is None else dict(self.bot)}


@dataclass(frozen=True)
class Budget:
    """What one decision's evaluation may spend: ``deals`` sampled deals (deterministic),
    stopped early at ``time_ms`` milliseconds when given (then the count depends on the
    machine)."""

    deals: int = 64
    time_ms: float | None = None

    def __post_init__(self) -> None:
        if type(self.deals) is not int or not 2 <= self.deals <= 100_000:
            raise ValueError(f"deals must be an int in 2..100000; got {self.deals!r:.40}")
        if self.time_ms is not None and (isinstance(self.time_ms, bool)
                                         or not isinstance(self.time_ms, (int, float))
                                         or not self.time_ms > 0):
            raise ValueError(f"time_ms must be a positive number; got {self.time_ms!r:.40}")


@runtime_checkable
class Reviewable(Protocol):
    """A spec that can be reviewed (the hooks of the module's docstring)."""

    name: str
    review_threshold: float
    value_unit: str

    def read_record(self, source: object) -> tuple[Record, ...]: ...

    def evaluate(self, view: object, actions: Sequence[Mapping[str, Any]], seed: int,
                 budget: Budget, lang: str = "en") -> list[ActionValue]: ...

    def tracker(self, view: object) -> dict[str, Any]: ...


def action_key(action: Mapping[str, Any]) -> tuple[str, tuple[str, ...], object]:
    """What identifies an action, whatever else its dict says (labels): its kind, its cards
    as a multiset (sorted names) or its tribute card, and its reading when given."""
    kind = str(action.get("kind"))
    if kind == "play":
        cards = tuple(sorted(str(c) for c in action.get("cards", ())))
        return (kind, cards, action.get("reading"))
    if kind in ("give_tribute", "return_tribute"):
        return (kind, (str(action.get("card")),), None)
    return (kind, (), None)


#: What an action of the table protocol decides, by its kind (any other kind: a play).
_DECISION_KINDS = {"give_tribute": "tribute", "return_tribute": "return"}


def decision_kind(action: Mapping[str, Any]) -> str:
    """What ``action`` decided: ``"tribute"`` (a card given), ``"return"`` (a card given
    back) or ``"play"`` (a play or a pass).

    >>> decision_kind({"kind": "return_tribute", "card": "3s"}), decision_kind({"kind": "pass"})
    ('return', 'play')
    """
    return _DECISION_KINDS.get(str(action.get("kind")), "play")


def same_action(a: Mapping[str, Any], b: Mapping[str, Any]) -> bool:
    """Whether ``a`` and ``b`` are one action (the reading counts only when both give one).

    >>> same_action({"kind": "play", "cards": ["4s", "3s"]}, {"kind": "play", "cards": ["3s", "4s"], "reading": 7})
    True
    """
    ka, kb = action_key(a), action_key(b)
    if ka[:2] != kb[:2]:
        return False
    return ka[2] is None or kb[2] is None or ka[2] == kb[2]
