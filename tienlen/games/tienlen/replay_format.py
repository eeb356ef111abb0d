"""The Tiến Lên replay file's format: its fields and their checks, the JSON text of a
game's fields, and a game rebuilt from a replay through a start function the game gives.
It imports no ``Game`` (the game imports it, for :meth:`Game.to_json
<tienlen.games.tienlen.game.Game.to_json>` and ``Game.from_json``); the public module for
replays is :mod:`tienlen.games.tienlen.replay`, which re-exports what a caller needs.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Final, Protocol, TypeVar

from tienlen import _core
from tienlen.games.tienlen.cards import Cards
from tienlen.errors import CardParseError, ReplayError, TienlenError
from tienlen.games.tienlen.refusals import IllegalMoveError
from tienlen.games.tienlen.rules import Rules
from tienlen.seeds import SEED_LIMIT, hand_seed
from tienlen.table.fileio import MAX_INDENT, check_indent, parse_file_json, read_limited

__all__ = ["ReplayError", "SCHEMA", "VERSION", "MAX_REPLAY_BYTES", "MAX_INDENT", "Header",
           "ReplayLabels", "read_replay_file", "check_indent", "record_to_json", "load_game",
           "read_labels", "check_labels", "MATCH_SCHEMA", "match_record_json", "read_match_record",
           "replay_hand"]

#: The schema name every replay carries.
SCHEMA: Final = "tienlen.game"
#: The version this module writes and reads.
VERSION: Final = 1

#: The longest replay read, in bytes (of the file, or of the text given to game_from_json).
#: The longest possible hand, with every pass and indented, is well under 100 KB.
MAX_REPLAY_BYTES: Final = 1 << 20

_FIELDS: Final = ("schema", "version", "players", "rules", "seed", "hands", "leader",
                  "actions", "finished")
# Labels a replay may carry for its title, read by replay_labels (older replays lack them):
# "names", the players' names by seat, and "match": {"seed": S, "hand": n}, the match seed
# the user gave (``tienlen play --seed S``) and the hand's number, whose deal seed is
# hand_seed(S, n).
_LABEL_FIELDS: Final = ("names", "match")
# Replays written before rulesets were data lack "rules": they were played under the contract.
_OPTIONAL_FIELDS: Final = ("rules",)
_NAME_LIMIT: Final = 40
# The JSON writers' indent check and its limit are the table layer's (both games' files):
# re-exported here under the names they always had.


def _quote(value: object, limit: int = 80) -> str:
    """repr(value) cut to ``limit`` characters: a tampered field may be megabytes long, and
    an error message that prints it all hides its own reason."""
    text = repr(value)
    return text if len(text) <= limit else text[:limit - 1] + "\u2026"


def _clip(message: str, limit: int = 200) -> str:
    """A message built elsewhere (a card parser's, which quotes its input) cut to ``limit``."""
    return message if len(message) <= limit else message[:limit - 1] + "\u2026"


def read_replay_file(path: str | os.PathLike[str], *, limit: int = MAX_REPLAY_BYTES) -> bytes:
    """The bytes of the replay file ``path``, reading at most ``limit`` + 1 (by default
    :data:`MAX_REPLAY_BYTES`; a Guandan match replay passes its own format's limit) so that a
    huge file or a device that never ends (``/dev/zero``) is refused with
    :class:`ReplayError` rather than read into memory. ``OSError`` passes through.

    >>> read_replay_file("/dev/zero")
    Traceback (most recent call last):
    ...
    tienlen.errors.ReplayError: the file is larger than 1048576 bytes: not a replay (a whole hand takes a few KB)
    """
    if type(limit) is not int or limit < 0:   # (a TienlenError, as it always was)
        raise TienlenError(f"limit must be an int >= 0; got {_quote(limit)}")
    return read_limited(path, limit, ReplayError,
                        " (a whole hand takes a few KB)" if limit == MAX_REPLAY_BYTES else "")


class Replayable(Protocol):
    """What reading a replay asks of the game it rebuilds (Tiến Lên's ``Game``): its
    actions through the checked path, and its finishing order."""

    @property
    def finished(self) -> tuple[int, ...]: ...

    def play(self, cards: Cards, seat: int | None = None) -> Any: ...

    def pass_turn(self, seat: int | None = None) -> Any: ...


G = TypeVar("G", bound=Replayable)
#: How a reader starts the game a replay describes (the game's class provides it, see
#: :meth:`tienlen.games.tienlen.game.Game.from_json`): from the checked :class:`Header`.
Start = Callable[["Header"], G]


def record_to_json(*, players: int, rules: Rules, seed: int | None,
                   hands: Sequence[Cards], leader: int | None,
                   history: Iterable[tuple[int, Cards | None]],
                   finished: Iterable[int], indent: int | None = None) -> str:
    """A replay's JSON text from a game's fields (``history``: each action's seat and
    cards, ``None`` for a pass), cards in ASCII (``"10h"``). ``indent``: see
    :func:`check_indent`. The game reads its fields in one moment and calls this
    (:meth:`tienlen.games.tienlen.game.Game.to_json`)."""
    check_indent(indent)
    actions: list[dict[str, Any]] = []
    for seat, cards in history:
        if cards is None:
            actions.append({"seat": seat, "action": "pass"})
        else:
            actions.append({"seat": seat, "action": "play", "cards": cards.ascii()})
    record = {
        "schema": SCHEMA,
        "version": VERSION,
        "players": players,
        "rules": _rules_to_json(rules),
        "seed": seed,
        "hands": [hand.ascii() for hand in hands],
        "leader": leader,
        "actions": actions,
        "finished": list(finished),
    }
    return json.dumps(record, indent=indent, ensure_ascii=False)


_ACTION_FIELDS: Final = {"play": frozenset({"seat", "action", "cards"}),
                         "pass": frozenset({"seat", "action"})}


def _int(value: object, field: str, low: int, high: int) -> int:
    # bool is an int subclass; true/false in a numeric field is tampering, not a number.
    if type(value) is not int:
        raise ReplayError(f"expected an integer, got {_json_type(value)}", field)
    if not low <= value <= high:
        raise ReplayError(f"{_quote(value)} is out of range {low}..{high}", field)
    return value


def _str(value: object, field: str) -> str:
    if type(value) is not str:
        raise ReplayError(f"expected a string, got {_json_type(value)}", field)
    return value


def _list(value: object, field: str) -> list[Any]:
    if type(value) is not list:
        raise ReplayError(f"expected a list, got {_json_type(value)}", field)
    return value


def _json_type(value: object) -> str:
    names = {dict: "an object", list: "a list", str: "a string", bool: "a boolean",
             int: "an integer", float: "a number", type(None): "null"}
    return names.get(type(value), type(value).__name__)


def _cards(value: object, field: str) -> Cards:
    try:
        return Cards.parse(_str(value, field))
    except CardParseError as error:
        raise ReplayError(_clip(str(error)), field) from None


def _rules_to_json(rules: Rules) -> dict[str, Any]:
    """The ``rules`` field: every field of the ruleset (:meth:`Rules.to_dict`), so a replay
    of a custom ruleset replays under exactly those rules."""
    return rules.to_dict()


def _rules_from_json(record: dict[str, Any]) -> Rules:
    """The ruleset of a replay record: ``Rules.to_dict()`` fields or a bare preset name;
    the contract when the field is missing (older replays)."""
    if "rules" not in record:
        return Rules()
    value = record["rules"]
    if type(value) is not str and type(value) is not dict:
        raise ReplayError(f"expected a preset name or an object, got {_json_type(value)}",
                          "rules")
    try:
        return Rules.from_dict(value)
    except ValueError as error:
        raise ReplayError(_clip(str(error)), "rules") from None


@dataclass(frozen=True, slots=True)
class Header:
    """The fields of a replay that say how the hand starts, each checked."""

    players: int
    rules: Rules
    seed: int | None
    hands: list[Cards]
    leader: int | None


def _load_record(text: object) -> dict[str, Any]:
    """The replay's JSON object, with the right schema and version and only known fields."""
    record = parse_file_json(text, MAX_REPLAY_BYTES, "replay")
    if type(record) is not dict:
        raise ReplayError(f"a replay is a JSON object, got {_json_type(record)}")
    if record.get("schema") != SCHEMA:
        raise ReplayError(f"expected {SCHEMA!r}, got {_quote(record.get('schema'))}", "schema")
    version = record.get("version")
    if version != VERSION or type(version) is not int:
        raise ReplayError(f"unsupported version {_quote(version)} (this reader knows {VERSION})",
                          "version")
    for name in record:
        if name not in _FIELDS and name not in _LABEL_FIELDS:
            raise ReplayError("unknown field", _clip(name, 80))
    for name in _FIELDS:
        if name not in record and name not in _OPTIONAL_FIELDS:
            raise ReplayError("missing field", name)
    return record


def _read_header(record: dict[str, Any]) -> Header:
    """Players, rules, seed, hands and leader, each checked on its own."""
    players = _int(record["players"], "players", 2, 4)
    rules = _rules_from_json(record)
    seed = record["seed"]
    if seed is not None:
        seed = _int(seed, "seed", 0, SEED_LIMIT - 1)
    hands_field = _list(record["hands"], "hands")
    if len(hands_field) != players:
        raise ReplayError(f"expected {players} hands, got {len(hands_field)}", "hands")
    hands = [_cards(hand, f"hands[{seat}]") for seat, hand in enumerate(hands_field)]
    leader = record["leader"]
    if leader is not None:
        leader = _int(leader, "leader", 0, players - 1)
    return Header(players, rules, seed, hands, leader)


def load_game(text: str | bytes, start: Start[G]) -> G:
    """Rebuild a game from replay ``text``, replaying and checking every action: read the
    JSON object and check its schema, version and field names; read the header (players,
    rules, seed, hands, leader; the hands must be the seed's deal); ``start`` the game from
    it; replay every action through the checked path; check the finishing order. The
    first bad field or action raises :class:`ReplayError`."""
    record = _load_record(text)
    header = _read_header(record)
    _check_deal(header)
    try:
        game = start(header)
    except ValueError as error:
        raise ReplayError(str(error), "hands") from None
    _replay_actions(game, _list(record["actions"], "actions"), header.players)
    _check_finished(game, record["finished"])
    return game


def _check_deal(header: Header) -> None:
    """A seeded replay's hands must be what its seed deals."""
    seed = header.seed
    if seed is not None:
        for seat, (hand, dealt) in enumerate(zip(header.hands, _core.deal(seed, header.players))):
            if hand.mask != dealt:
                raise ReplayError(f"{hand} is not what seed {seed} deals ({Cards(dealt)})",
                                  f"hands[{seat}]")


def _replay_actions(game: Replayable, entries: list[Any], players: int) -> None:
    """Every action, through the checked path; the first bad one raises."""
    for index, entry in enumerate(entries):
        _replay_action(game, entry, f"actions[{index}]", players)


def _replay_action(game: Replayable, entry: object, field: str, players: int) -> None:
    if type(entry) is not dict:
        raise ReplayError(f"expected an object, got {_json_type(entry)}", field)
    kind = entry.get("action")
    # A list or object here is unhashable: look it up only once it is known to be text.
    expected = (_ACTION_FIELDS.get(kind) if type(kind) is str else None)
    if expected is None:
        raise ReplayError(f"action must be \"play\" or \"pass\", got {_quote(kind)}", field)
    if set(entry) != expected:
        extra = sorted(set(entry) ^ expected)
        raise ReplayError(f"a {kind} has exactly the fields {sorted(expected)}; "
                          f"check {_quote(extra)}", field)
    seat = _int(entry["seat"], f"{field}.seat", 0, players - 1)
    if kind == "pass":
        try:
            game.pass_turn(seat)
        except IllegalMoveError as error:
            raise ReplayError(f"seat {seat} cannot pass: {error}", field) from None
        return
    cards = _cards(entry["cards"], f"{field}.cards")
    try:
        game.play(cards, seat)
    except IllegalMoveError as error:
        # "seat 2 cannot play 4♠ 5♠: it does not beat ...", not the cards twice.
        why = error.describe(subject="it")
        raise ReplayError(f"seat {seat} cannot play {cards}: {why}", field) from None


def _check_finished(game: Replayable, finished: object) -> None:
    """The file's finishing order must be the one the actions produce."""
    finished = _list(finished, "finished")
    if finished != list(game.finished) or any(type(seat) is not int for seat in finished):
        raise ReplayError(f"the actions finish {list(game.finished)}, the file says "
                          f"{_quote(finished)}", "finished")


# --- labels: optional fields for a replay's title (additive; older replays lack them) ---


@dataclass(frozen=True, slots=True)
class ReplayLabels:
    """What a replay says about itself beyond the game: the players' ``names`` by seat and,
    for a hand of a match, the ``match_seed`` the user gave and the ``hand`` number.
    Each is ``None`` in a replay that does not carry it."""

    names: tuple[str, ...] | None = None
    match_seed: int | None = None
    hand: int | None = None


def check_labels(names: object, match: object, players: int, seed: object) -> ReplayLabels:
    """The labels of a replay of ``players`` seats dealt from ``seed``, as JSON values
    (``names`` a list, ``match`` an object), each checked: the one check, for the reader
    and the writer. The first bad one raises :class:`ReplayError` naming it."""

    if names is not None:
        names = _list(names, "names")
        if len(names) != players:
            raise ReplayError(f"expected {players} names, got {len(names)}", "names")
        for seat, name in enumerate(names):
            if not 1 <= len(_str(name, f"names[{seat}]")) <= _NAME_LIMIT or \
                    not name.isprintable():
                raise ReplayError(f"a name is 1 to {_NAME_LIMIT} printable characters",
                                  f"names[{seat}]")
        names = tuple(names)
    match_seed = hand = None
    if match is not None:
        if type(match) is not dict or set(match) != {"seed", "hand"}:
            raise ReplayError('expected {"seed": S, "hand": n}', "match")
        match_seed = _int(match["seed"], "match.seed", 0, SEED_LIMIT - 1)
        hand = _int(match["hand"], "match.hand", 1, (1 << 63) - 1)
        if seed != hand_seed(match_seed, hand):
            raise ReplayError(f"hand {hand} of match seed {match_seed} is not the deal of "
                              f"seed {_quote(seed)}", "match")
    return ReplayLabels(names, match_seed, hand)


def read_labels(text: str | bytes) -> ReplayLabels:
    """The labels of replay ``text`` (see :func:`tienlen.games.tienlen.replay.replay_labels`)."""
    record = _load_record(text)
    players = _int(record["players"], "players", 2, 4)
    return check_labels(record.get("names"), record.get("match"), players, record["seed"])


# --- a match: every hand's actions (Match.to_json / Match.from_json) ---------------------

#: The schema name of a saved Tiến Lên match (``Match.to_json``; the same version).
MATCH_SCHEMA: Final = "tienlen.match"
_MATCH_FIELDS: Final = ("schema", "version", "players", "rules", "seed", "hands")


def _actions_json(history: Iterable[tuple[int, Cards | None]]) -> list[dict[str, Any]]:
    return [{"seat": seat, "action": "pass"} if cards is None
            else {"seat": seat, "action": "play", "cards": cards.ascii()}
            for seat, cards in history]


def match_record_json(*, players: int, rules: Rules, seed: int,
                      hands: Iterable[Iterable[tuple[int, Cards | None]]],
                      indent: int | None = None) -> str:
    """A match's JSON text: its players, rules and seed (every hand's deal derives from it)
    and each hand's actions, the current one last. ``indent``: see :func:`check_indent`."""
    check_indent(indent)
    record = {"schema": MATCH_SCHEMA, "version": VERSION, "players": players,
              "rules": _rules_to_json(rules), "seed": seed,
              "hands": [_actions_json(hand) for hand in hands]}
    return json.dumps(record, indent=indent, ensure_ascii=False)


def read_match_record(text: object) -> tuple[int, Rules, int, list[list[Any]]]:
    """A match file's ``(players, rules, seed, hands)``, each checked for its type (the
    actions are checked as they are replayed: :func:`replay_hand`)."""
    record = parse_file_json(text, MAX_REPLAY_BYTES, "match")
    if type(record) is not dict:
        raise ReplayError(f"a match is a JSON object, got {_json_type(record)}")
    if record.get("schema") != MATCH_SCHEMA:
        raise ReplayError(f"expected {MATCH_SCHEMA!r}, got {_quote(record.get('schema'))}",
                          "schema")
    version = record.get("version")
    if version != VERSION or type(version) is not int:
        raise ReplayError(f"unsupported version {_quote(version)} (this reader knows {VERSION})",
                          "version")
    for name in record:
        if name not in _MATCH_FIELDS:
            raise ReplayError("unknown field", _clip(name, 80))
    for name in _MATCH_FIELDS:
        if name not in record:
            raise ReplayError("missing field", name)
    players = _int(record["players"], "players", 2, 4)
    seed = _int(record["seed"], "seed", 0, SEED_LIMIT - 1)
    hands = _list(record["hands"], "hands")
    if not hands:
        raise ReplayError("a match has at least its first hand", "hands")
    return (players, _rules_from_json(record), seed,
            [_list(hand, f"hands[{i}]") for i, hand in enumerate(hands)])


def replay_hand(game: Replayable, entries: list[Any], players: int, field: str) -> None:
    """Every action of one hand of a match file, through the checked path; the first bad
    one raises :class:`ReplayError` naming it (``field``: the hand, ``"hands[2]"``)."""
    for index, entry in enumerate(entries):
        _replay_action(game, entry, f"{field}[{index}]", players)
