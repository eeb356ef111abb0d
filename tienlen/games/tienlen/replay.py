"""Game replays as versioned JSON.

A replay names the schema and its version, the number of players, the rules, the seed (or
``null`` for given hands), the initial hands, the leader (``null`` for the first-hand rule),
every action and the finishing order so far. The rules are every field of
:meth:`Rules.to_dict() <tienlen.games.tienlen.rules.Rules.to_dict>`; a bare preset name (``"southern"``) is
read too, and a replay without the field (written before rulesets were data) is read under
the contract::

    {"schema": "tienlen.game", "version": 1, "players": 2, "rules": {"name": "default", ...},
     "seed": null, "hands": ["3s 4s", "5s 9h"], "leader": null,
     "actions": [{"seat": 0, "action": "play", "cards": "3s"},
                 {"seat": 1, "action": "pass"}],
     "finished": []}

Reading replays every action through the checked path. Anything wrong (not JSON, another
schema or version, a missing, unknown or mistyped field, hands that do not match the seed,
an action the rules refuse, a finishing order that does not match) raises
:class:`ReplayError` naming the first bad field or action; no game is returned half-built.
A replay is at most :data:`MAX_REPLAY_BYTES` long (a whole hand takes a few KB), and
:func:`read_replay_file` reads no more than that from a file, so ``/dev/zero`` or a huge
file is refused instead of filling memory. Values quoted in errors are cut to 80 characters.

>>> from tienlen.games.tienlen.game import Game
>>> game = Game.from_hands(["3s 4s", "5s 9h"]); _ = game.play("3s"); _ = game.pass_turn()
>>> text = game_to_json(game)
>>> game_from_json(text) == game
True
>>> game_from_json(text.replace('"pass"}', '"play", "cards": "5s 9h"}'))
Traceback (most recent call last):
...
tienlen.errors.ReplayError: actions[1]: seat 1 cannot play 5♠ 9♥: it is not a combination
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from typing import Any, Final

from tienlen import _core
from tienlen.games.tienlen.cards import Cards
from tienlen.errors import CardParseError, TienlenError
from tienlen.games.tienlen.game import _STEPPING, Game
from tienlen.games.tienlen.refusals import IllegalMoveError
from tienlen.games.tienlen.rules import Rules
from tienlen.seeds import SEED_LIMIT, hand_seed
from tienlen.errors import ReplayError
from tienlen.table.fileio import MAX_INDENT, check_indent, read_limited

__all__ = ["ReplayError", "SCHEMA", "VERSION", "MAX_REPLAY_BYTES", "MAX_INDENT", "game_to_json",
           "game_from_json", "read_replay_file", "check_indent"]

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


def game_to_json(game: Game, *, indent: int | None = None) -> str:
    """The replay of ``game`` as JSON text (cards in ASCII, such as ``"10h"``).
    ``indent``: see :func:`check_indent`."""
    if not isinstance(game, Game):
        raise ValueError(f"game_to_json takes a tienlen Game; got {type(game).__name__}")
    check_indent(indent)
    with _STEPPING:   # the actions and the finishing order of one moment, not mid-action
        history, finished = game.history, game.finished
    actions: list[dict[str, Any]] = []
    for action in history:
        if action.cards is None:
            actions.append({"seat": action.seat, "action": "pass"})
        else:
            actions.append({"seat": action.seat, "action": "play",
                            "cards": action.cards.ascii()})
    record = {
        "schema": SCHEMA,
        "version": VERSION,
        "players": game.players,
        "rules": _rules_to_json(game.rules),
        "seed": game.seed,
        "hands": [hand.ascii() for hand in game.initial_hands],
        "leader": game.leader,
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


def game_from_json(text: str | bytes) -> Game:
    """Rebuild a game from :func:`game_to_json` text, replaying and checking every action.

    The steps: read the JSON object and check its schema, version and field names; read
    the header (players, rules, seed, hands, leader); deal or set up the game; replay every
    action through the checked path; check the finishing order.

    >>> game_from_json('{"schema": "tienlen.game", "version": 2}')
    Traceback (most recent call last):
    ...
    tienlen.errors.ReplayError: version: unsupported version 2 (this reader knows 1)
    """
    record = _load_record(text)
    header = _read_header(record)
    game = _start_game(header)
    _replay_actions(game, _list(record["actions"], "actions"), header.players)
    _check_finished(game, record["finished"])
    return game


@dataclass(frozen=True, slots=True)
class _Header:
    """The fields of a replay that say how the hand starts."""

    players: int
    rules: Rules
    seed: int | None
    hands: list[Cards]
    leader: int | None


def _load_record(text: object) -> dict[str, Any]:
    """The replay's JSON object, with the right schema and version and only known fields."""
    if not isinstance(text, (str, bytes, bytearray)):
        raise ReplayError(f"a replay is JSON text (str or bytes), got {type(text).__name__}")
    if len(text) > MAX_REPLAY_BYTES:
        raise ReplayError(f"the text is longer than {MAX_REPLAY_BYTES} characters: not a "
                          "replay (a whole hand takes a few KB)")
    try:
        record = json.loads(text)
    except (ValueError, TypeError, RecursionError) as error:
        # JSONDecodeError and UnicodeDecodeError are ValueErrors; absurd nesting recurses.
        raise ReplayError(f"not a JSON replay: {_clip(str(error))}") from None
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


def _read_header(record: dict[str, Any]) -> _Header:
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
    return _Header(players, rules, seed, hands, leader)


def _start_game(header: _Header) -> Game:
    """The game before any action: dealt from the seed (whose deal must be the hands) or
    set up from the hands."""
    seed = header.seed
    if seed is not None:
        for seat, (hand, dealt) in enumerate(zip(header.hands, _core.deal(seed, header.players))):
            if hand.mask != dealt:
                raise ReplayError(f"{hand} is not what seed {seed} deals ({Cards(dealt)})",
                                  f"hands[{seat}]")
    try:
        if seed is not None:
            return Game(header.players, seed=seed, rules=header.rules, leader=header.leader)
        return Game.from_hands(header.hands, rules=header.rules, leader=header.leader)
    except ValueError as error:
        raise ReplayError(str(error), "hands") from None


def _replay_actions(game: Game, entries: list[Any], players: int) -> None:
    """Every action, through the checked path; the first bad one raises."""
    for index, entry in enumerate(entries):
        _replay_action(game, entry, f"actions[{index}]", players)


def _replay_action(game: Game, entry: object, field: str, players: int) -> None:
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


def _check_finished(game: Game, finished: object) -> None:
    """The file's finishing order must be the one the actions produce."""
    finished = _list(finished, "finished")
    if finished != list(game.finished) or any(type(seat) is not int for seat in finished):
        raise ReplayError(f"the actions finish {list(game.finished)}, the file says "
                          f"{_quote(finished)}", "finished")


# --- labels: optional fields for a replay's title (additive; older replays lack them) ---

__all__ += ["ReplayLabels", "replay_labels", "game_to_json_with_labels"]


@dataclass(frozen=True, slots=True)
class ReplayLabels:
    """What a replay says about itself beyond the game: the players' ``names`` by seat and,
    for a hand of a match, the ``match_seed`` the user gave and the ``hand`` number.
    Each is ``None`` in a replay that does not carry it."""

    names: tuple[str, ...] | None = None
    match_seed: int | None = None
    hand: int | None = None


def game_to_json_with_labels(game: Game, labels: ReplayLabels, *,
                             indent: int | None = None) -> str:
    """:func:`game_to_json` plus the ``labels`` that are set (a reader that does not
    know them gets the same game). Labels that :func:`replay_labels` would refuse (a name
    that is empty, too long or not printable, a name per seat missing, a match seed
    without its hand number, or a hand whose deal is not this game's) raise
    :class:`ReplayError` naming them, and nothing is written.

    >>> from tienlen.games.tienlen.match import Match
    >>> game_to_json_with_labels(Match(2, seed=4).game, ReplayLabels(("You", "")))
    Traceback (most recent call last):
    ...
    tienlen.errors.ReplayError: names[1]: a name is 1 to 40 printable characters
    """
    if not isinstance(labels, ReplayLabels):
        raise ValueError(f"labels must be ReplayLabels; got {type(labels).__name__}")
    text = game_to_json(game)
    names = labels.names
    if names is not None and not isinstance(names, (tuple, list)):
        raise ReplayError(f"expected a name per seat, got {_quote(names)}", "names")
    if (labels.match_seed is None) != (labels.hand is None):
        raise ReplayError("give the match seed and the hand number together", "match")
    match = (None if labels.match_seed is None
             else {"seed": labels.match_seed, "hand": labels.hand})
    _check_labels(None if names is None else list(names), match, game.players, game.seed)
    record = json.loads(text)
    if names is not None:
        record["names"] = list(names)
    if match is not None:
        record["match"] = match
    return json.dumps(record, indent=indent, ensure_ascii=False)


def replay_labels(text: str | bytes) -> ReplayLabels:
    """The labels of a replay that :func:`game_from_json` accepted (call that first:
    this reads only what the labels need, and raises :class:`ReplayError` for the rest).

    >>> from tienlen.games.tienlen.match import Match
    >>> match = Match(2, seed=4)
    >>> labels = ReplayLabels(("You", "Minh"), match_seed=4, hand=1)
    >>> replay_labels(game_to_json_with_labels(match.game, labels)) == labels
    True
    >>> replay_labels(game_to_json(match.game))
    ReplayLabels(names=None, match_seed=None, hand=None)
    """
    record = _load_record(text)
    players = _int(record["players"], "players", 2, 4)
    return _check_labels(record.get("names"), record.get("match"), players, record["seed"])


def _check_labels(names: object, match: object, players: int, seed: object) -> ReplayLabels:
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
