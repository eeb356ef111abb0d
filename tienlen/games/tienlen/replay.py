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

from tienlen.errors import ReplayError
from tienlen.games.tienlen.game import Game
from tienlen.games.tienlen.replay_format import (MAX_INDENT, MAX_REPLAY_BYTES, SCHEMA, VERSION,
                                                 ReplayLabels, _quote, check_indent,
                                                 check_labels, read_labels, read_replay_file)

__all__ = ["ReplayError", "SCHEMA", "VERSION", "MAX_REPLAY_BYTES", "MAX_INDENT", "game_to_json",
           "game_from_json", "read_replay_file", "check_indent",
           "ReplayLabels", "replay_labels", "game_to_json_with_labels"]


def game_to_json(game: Game, *, indent: int | None = None) -> str:
    """The replay of ``game`` as JSON text (cards in ASCII, such as ``"10h"``).
    ``indent``: see :func:`check_indent`. The same as ``game.to_json(indent=indent)``."""
    if not isinstance(game, Game):
        raise ValueError(f"game_to_json takes a tienlen Game; got {type(game).__name__}")
    return game.to_json(indent=indent)


def game_from_json(text: str | bytes) -> Game:
    """Rebuild a game from :func:`game_to_json` text, replaying and checking every action
    (:meth:`Game.from_json <tienlen.games.tienlen.game.Game.from_json>`).

    The steps: read the JSON object and check its schema, version and field names; read
    the header (players, rules, seed, hands, leader); deal or set up the game; replay every
    action through the checked path; check the finishing order.

    >>> game_from_json('{"schema": "tienlen.game", "version": 2}')
    Traceback (most recent call last):
    ...
    tienlen.errors.ReplayError: version: unsupported version 2 (this reader knows 1)
    """
    return Game.from_json(text)


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
    check_labels(None if names is None else list(names), match, game.players, game.seed)
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
    return read_labels(text)
