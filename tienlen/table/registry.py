"""Game specs found by name. A spec is registered as ``"module:attribute"`` text and
imported on first use, so the registry imports no game and one game's import loads none
of the other's modules.

A game may also name its command line module (``cli=``): the options it adds to each
subcommand (``add_options(parser, command)``), the checks of ``play``'s and ``replay``'s
options (``play_settings``, ``replay_settings``: the one terminal session then plays on the
game's board) and the subcommands it runs its own way (``run_sim``, ``run_moves``,
``run_solve``; each optional). The subcommands find it here (:func:`get_cli`); a game
without one is played and simulated through the table protocol alone."""

from __future__ import annotations

import importlib
import threading
from types import ModuleType

from .spec import GameSpec

__all__ = ["register", "get_spec", "get_cli", "spec_names", "UnknownGameError",
           "DEFAULT_GAME"]

# name -> "module:attribute" (not yet loaded) or the loaded spec.
_SPECS: dict[str, str | GameSpec] = {
    "tienlen": "tienlen.games.tienlen.spec:SPEC",
    "guandan": "tienlen.games.guandan.spec:SPEC",
}
#: The game a command means when it names none (the package's first game).
DEFAULT_GAME = "tienlen"
# name -> the dotted name of the game's command line module.
_CLIS: dict[str, str] = {
    "tienlen": "tienlen.games.tienlen.cli",
    "guandan": "tienlen.games.guandan.cli",
}
_LOCK = threading.Lock()


class UnknownGameError(ValueError):
    """No game is registered under that name."""


def register(name: str, spec: str | GameSpec, *, cli: str | None = None) -> None:
    """Register ``spec`` (a spec, or ``"module:attribute"`` to import on first use) as
    ``name``, with ``cli`` the dotted name of its command line module if it has one; a name
    already taken is refused (a typo would otherwise replace a game)."""
    if not isinstance(name, str) or not name.isidentifier():
        raise ValueError(f"a game name is an identifier; got {name!r:.40}")
    with _LOCK:
        if name in _SPECS:
            raise ValueError(f"a game named {name!r} is already registered")
        _SPECS[name] = spec
        if cli is not None:
            _CLIS[name] = cli


def spec_names() -> tuple[str, ...]:
    """The registered names, sorted."""
    with _LOCK:
        return tuple(sorted(_SPECS))


def get_spec(name: str) -> GameSpec:
    """The spec registered as ``name``, imported now if it was not yet.

    >>> get_spec("chess")
    Traceback (most recent call last):
    ...
    tienlen.table.registry.UnknownGameError: unknown game 'chess'; choose from guandan, tienlen
    """
    with _LOCK:
        entry = _SPECS.get(name) if isinstance(name, str) else None
        if entry is None:
            raise UnknownGameError(f"unknown game {name!r:.40}; choose from "
                                   f"{', '.join(sorted(_SPECS))}")
        if isinstance(entry, str):
            module, _, attribute = entry.partition(":")
            spec: GameSpec = getattr(importlib.import_module(module), attribute)
            _SPECS[name] = spec
            return spec
        return entry


def get_cli(name: str) -> ModuleType | None:
    """The command line module of the game ``name`` (imported now), or None when it has
    none."""
    get_spec(name)         # an unknown name is refused the same way
    with _LOCK:
        module = _CLIS.get(name)
    return None if module is None else importlib.import_module(module)
