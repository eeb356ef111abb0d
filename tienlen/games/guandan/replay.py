"""Guandan's match files (replays) as versioned JSON: the format, its writer and its
checked reader.

A match file names the schema and its version, the seed, the rule options, every action
(with the hand it belongs to and, for a play, the reading: its kind and rank), the levels
and the winner it reached, and ``max_hands`` when it is not the default cap. Reading
replays every action through the match's checked path; anything wrong raises
:class:`~tienlen.errors.ReplayError` naming the first bad field or action. A file is at most
:data:`MAX_REPLAY_BYTES` long.

:class:`~tienlen.games.guandan.match.Match` writes and reads its files through this module
(``Match.to_json`` / ``Match.from_json``), which imports no ``Match``: it starts the match a
file describes through the start function the match gives, as Tiến Lên's
:mod:`tienlen.games.tienlen.replay_format` starts a ``Game``.

>>> from tienlen.games.guandan.match import Match
>>> match = Match(seed=5)
>>> Match.from_json(match.to_json()) == match
True
>>> Match.from_json('{"schema": "tienlen.guandan.match"}')
Traceback (most recent call last):
...
tienlen.errors.ReplayError: actions: missing field
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, Final, Protocol, TypeVar

from tienlen.errors import IllegalActionError, ReplayError
from tienlen.games.guandan.actions import Action
from tienlen.games.guandan.cards import Card, Cards
from tienlen.games.guandan.errors import GuandanError
from tienlen.games.guandan.plays import Kind, classify
from tienlen.games.guandan.rules import RuleConfig
from tienlen.table.fileio import parse_file_json
from tienlen.games.guandan.view import Standing

__all__ = ["ReplayError", "SCHEMA", "VERSION", "MAX_REPLAY_BYTES", "match_record_json",
           "load_match", "Replayable", "GAME_SCHEMA", "GameHeader", "game_record_json",
           "load_game"]

#: The schema name of a saved match (a replay file).
SCHEMA: Final = "tienlen.guandan.match"
#: The version of that format this release writes.
VERSION: Final = 1
#: Replays larger than this are refused before parsing (a long match is well under 1 MB).
MAX_REPLAY_BYTES: Final = 8 << 20

_FIELDS: Final = frozenset({"schema", "version", "seed", "config", "actions", "levels", "winner"})
_ACTION_KEYS: Final = frozenset({"hand", "seat", "action", "cards", "kind", "rank"})
_ACTION_KINDS: Final = ("play", "pass", "give_tribute", "return_tribute")


class _Hand(Protocol):
    """What reading a play's reading asks of the hand it is played in."""

    @property
    def level(self) -> int: ...

    @property
    def config(self) -> RuleConfig: ...


class Replayable(Protocol):
    """What reading a match file asks of the match it rebuilds."""

    @property
    def is_over(self) -> bool: ...

    @property
    def hand_number(self) -> int: ...

    @property
    def game(self) -> _Hand: ...

    @property
    def levels(self) -> tuple[int, int]: ...

    @property
    def winner(self) -> int | None: ...

    def act(self, kind: str, cards: Any, seat: int, reading: Any = None) -> Any: ...


M = TypeVar("M", bound=Replayable)


def match_record_json(*, seed: int, config: RuleConfig, actions: Iterable[tuple[int, Action]],
                      levels: Iterable[int], winner: int | None, max_hands: int | None,
                      indent: int | None = None) -> str:
    """A match file's JSON text from a match's fields (``actions``: each action with the
    number of the hand it was taken in; ``max_hands``: ``None`` for the default cap, which
    a file leaves out so that it reads as it always did). ``indent`` is checked by the
    caller."""
    items = _items(actions)
    data = {"schema": SCHEMA, "version": VERSION, "seed": seed,
            "config": config.to_dict(), "actions": items,
            "levels": list(levels), "winner": winner}
    if max_hands is not None:
        data["max_hands"] = max_hands
    return json.dumps(data, indent=indent, ensure_ascii=False)


def load_match(text: str | bytes, start: Callable[..., M]) -> M:
    """Rebuild a match from its file ``text``, re-checking every action. ``start(seed,
    config, **optional)`` makes the match before any action (``optional``: ``max_hands``
    as the file gives it, only when it names one; a bad one raises :class:`GuandanError`).
    A file that is not a replay of this schema, or whose actions the rules refuse, raises
    :class:`ReplayError`."""
    data = _load_record(text)
    seed = data["seed"]
    if type(seed) is not int or not 0 <= seed < 1 << 64:
        raise ReplayError(f"must be an int in [0, 2**64); got {seed!r}", "seed")
    try:
        config = RuleConfig.from_dict(data["config"])
    except (ValueError, TypeError) as e:
        raise ReplayError(str(e), "config") from None
    actions = data["actions"]
    if not isinstance(actions, list):
        raise ReplayError("must be a list", "actions")
    if "max_hands" in data and data["max_hands"] is None:     # None stands for "left out"
        raise ReplayError("max_hands must be a positive int; got None", "max_hands")
    try:
        match = start(seed, config, **{k: data[k] for k in ("max_hands",) if k in data})
    except GuandanError as e:
        raise ReplayError(str(e), "max_hands") from None
    for i, item in enumerate(actions):
        _replay_action(match, item, f"actions[{i}]")
    if list(match.levels) != data["levels"]:
        raise ReplayError(f"the actions give levels {list(match.levels)}", "levels")
    if match.winner != data["winner"]:
        raise ReplayError(f"the actions give winner {match.winner!r}", "winner")
    return match


def _load_record(text: object, schema: str = SCHEMA,
                 fields: frozenset[str] = _FIELDS,
                 optional: frozenset[str] = frozenset({"max_hands"})) -> dict[str, Any]:
    """The file's JSON object, with the right schema and version and only known fields."""
    data = parse_file_json(text, MAX_REPLAY_BYTES, "replay")
    if not isinstance(data, dict):
        raise ReplayError("a replay is a JSON object")
    for name in sorted(set(data) - fields - optional):   # max_hands is optional
        raise ReplayError("unknown field", name)
    for name in sorted(fields - set(data)):
        raise ReplayError("missing field", name)
    if data["schema"] != schema:
        raise ReplayError(f"expected {schema!r}; got {data['schema']!r}", "schema")
    if data["version"] != VERSION or type(data["version"]) is not int:
        raise ReplayError(f"this reader knows version {VERSION}; got {data['version']!r}", "version")
    return data


def _action_item(item: object, keys: frozenset[str] | set[str], where: str) -> dict[str, Any]:
    """``item`` as an action's object with no key but ``keys``, or :class:`ReplayError`."""
    if not isinstance(item, dict):
        raise ReplayError("an action is an object", where)
    extra = set(item) - keys
    if extra:
        raise ReplayError(f"unknown keys {sorted(extra)}", where)
    return item


def _seat_kind_cards(item: dict[str, Any], where: str) -> tuple[int, str, Cards | None]:
    """An action object's seat, kind and cards (None for a pass), each checked: one
    :class:`ReplayError` line naming the field otherwise (a match's and a hand's files
    read their actions through this)."""
    seat, kind = item.get("seat"), item.get("action")
    if type(seat) is not int or not 0 <= seat <= 3:
        raise ReplayError(f"seat must be 0..3; got {seat!r:.40}", where)
    if kind not in _ACTION_KINDS:
        raise ReplayError(f"unknown action {kind!r:.40}", where)
    if kind == "pass":
        return seat, kind, None
    if not isinstance(item.get("cards"), str):
        raise ReplayError("cards must be card text", where)
    try:
        return seat, kind, Cards.parse(item["cards"])
    except ValueError as e:
        raise ReplayError(str(e), where) from None


def _replay_action(match: Replayable, item: object, where: str) -> None:
    item = _action_item(item, _ACTION_KEYS, where)
    if match.is_over:
        raise ReplayError("action after the end of the match", where)
    if item.get("hand") != match.hand_number or type(item.get("hand")) is not int:
        raise ReplayError(f"hand must be {match.hand_number}; got {item.get('hand')!r}", where)
    seat, kind, cards = _seat_kind_cards(item, where)
    reading: object = None
    if kind == "play":
        assert cards is not None
        reading = _reading(item, cards, match.game, where)
    try:
        match.act(kind, cards, seat, reading)
    except IllegalActionError as e:
        raise ReplayError(f"seat {seat} {kind}: {e}", where) from None


def _items(actions: Iterable[tuple[int | None, Action]]) -> list[dict[str, Any]]:
    items = []
    for hand, a in actions:
        item: dict[str, Any] = {} if hand is None else {"hand": hand}
        item.update(seat=a.seat, action=a.action)
        if a.cards is not None:
            item["cards"] = a.cards.ascii()
        if a.play is not None:
            item["kind"] = a.play.kind.name
            item["rank"] = a.play.rank
        items.append(item)
    return items


def _reading(item: dict[str, object], cards: Cards, game: _Hand, where: str) -> object:
    kind, rank = item.get("kind"), item.get("rank")
    if not isinstance(kind, str) or kind not in Kind.__members__ or type(rank) is not int:
        raise ReplayError("a play needs its kind and rank", where)
    for p in classify(cards, game.level, game.config):
        if p.kind.name == kind and p.rank == rank:
            return p
    raise ReplayError(f"{cards} cannot be read as {kind} of rank {rank}", where)


# --- one hand: Game.to_json / Game.from_json --------------------------------------------

#: The schema name of a saved Guandan hand (``Game.to_json``; same version and size limit).
GAME_SCHEMA: Final = "tienlen.guandan.game"
_GAME_FIELDS: Final = frozenset({"schema", "version", "seed", "level", "config", "teams",
                                 "previous_order", "leader", "hands", "actions"})


@dataclass(frozen=True, slots=True)
class GameHeader:
    """How a saved hand starts, each field checked for its type (the game checks the rest
    when it is started from them): the arguments of ``Game(...)``."""

    seed: int | None
    level: int
    config: RuleConfig
    teams: tuple[tuple[int, int], tuple[int, int]]
    previous_order: tuple[int, ...] | None
    leader: int | None
    hands: tuple[Cards, ...]
    #: The match around the hand (G7.7), or None for a hand alone; written only when set.
    standing: Standing | None = None


class _Playable(Protocol):
    def act(self, kind: str, cards: Any = None, seat: int | None = None,
            reading: Any = None) -> Any: ...

    @property
    def level(self) -> int: ...

    @property
    def config(self) -> RuleConfig: ...


H = TypeVar("H", bound=_Playable)


def game_record_json(header: GameHeader, actions: Iterable[Action], *,
                     indent: int | None = None) -> str:
    """One hand's JSON text: how it starts (``header``) and every action, checked on the
    way back in by :func:`load_game`. ``indent`` is checked by the caller."""
    data = {"schema": GAME_SCHEMA, "version": VERSION, "seed": header.seed,
            "level": header.level, "config": header.config.to_dict(),
            "teams": [list(t) for t in header.teams],
            "previous_order": None if header.previous_order is None else list(header.previous_order),
            "leader": header.leader, "hands": [h.ascii() for h in header.hands],
            "actions": _items((None, a) for a in actions)}
    if header.standing is not None:
        st = header.standing
        data["standing"] = {"levels": list(st.levels), "declarer": st.declarer,
                            "hand_number": st.hand_number,
                            "failed_attempts": list(st.failed_attempts)}
    return json.dumps(data, indent=indent, ensure_ascii=False)


def load_game(text: str | bytes, start: Callable[[GameHeader], H]) -> H:
    """Rebuild a hand from :func:`game_record_json` text: ``start`` makes the game from the
    header (a refusal of the game's is a :class:`ReplayError`), then every action is taken
    through the checked path; the first bad field or action raises :class:`ReplayError`."""
    data = _load_record(text, GAME_SCHEMA, _GAME_FIELDS, frozenset({"standing"}))
    seed = data["seed"]
    if seed is not None and (type(seed) is not int or not 0 <= seed < 1 << 64):
        raise ReplayError(f"must be null or an int in [0, 2**64); got {seed!r:.80}", "seed")
    try:
        config = RuleConfig.from_dict(data["config"])
    except (ValueError, TypeError) as e:
        raise ReplayError(str(e), "config") from None
    teams, order, hands = data["teams"], data["previous_order"], data["hands"]
    if not (isinstance(teams, list) and len(teams) == 2
            and all(isinstance(t, list) and len(t) == 2 for t in teams)):
        raise ReplayError(f"must be two teams of two seats; got {teams!r:.80}", "teams")
    if order is not None and not isinstance(order, list):
        raise ReplayError(f"must be null or a list of seats; got {order!r:.80}", "previous_order")
    if not isinstance(hands, list) or len(hands) != 4 or not all(isinstance(h, str) for h in hands):
        raise ReplayError("must be four hands of card text", "hands")
    try:
        parsed = tuple(Cards.parse(h) for h in hands)
    except ValueError as e:
        raise ReplayError(str(e), "hands") from None
    header = GameHeader(seed, data["level"], config,
                        (tuple(teams[0]), tuple(teams[1])),
                        None if order is None else tuple(order), data["leader"], parsed,
                        _standing(data.get("standing")))
    try:
        game = start(header)
    except (ValueError, TypeError) as e:
        raise ReplayError(str(e)) from None
    actions = data["actions"]
    if not isinstance(actions, list):
        raise ReplayError("must be a list", "actions")
    for i, item in enumerate(actions):
        _replay_hand_action(game, item, f"actions[{i}]")
    return game


def _standing(value: object) -> Standing | None:
    """A hand file's ``standing`` (absent or null: a hand alone), checked."""
    if value is None:
        return None
    keys = {"levels", "declarer", "hand_number", "failed_attempts"}
    if not isinstance(value, dict) or set(value) != keys:
        raise ReplayError(f"must be null or an object of {', '.join(sorted(keys))}; "
                          f"got {value!r:.80}", "standing")
    levels, failed = value["levels"], value["failed_attempts"]
    try:
        return Standing(tuple(levels) if isinstance(levels, list) else levels,
                        value["declarer"], value["hand_number"],
                        tuple(failed) if isinstance(failed, list) else failed)
    except ValueError as e:
        raise ReplayError(str(e), "standing") from None


def _replay_hand_action(game: _Playable, item: object, where: str) -> None:
    item = _action_item(item, _ACTION_KEYS - {"hand"}, where)
    seat, kind, parsed = _seat_kind_cards(item, where)
    cards: Any = parsed
    reading: object = None
    if parsed is not None:
        if kind == "play":
            reading = _reading(item, parsed, game, where)
        elif len(parsed) == 1:
            cards = Card(parsed.ids[0])       # a tribute or return moves one card
    try:
        game.act(kind, cards, seat, reading)
    except IllegalActionError as e:
        raise ReplayError(f"seat {seat} {kind}: {e}", where) from None
