"""Game specs found by name. A spec is registered as ``"module:attribute"`` text and
imported on first use, so the registry imports no game and one game's import loads none
of the other's modules."""

from __future__ import annotations

import importlib
import threading

from .spec import GameSpec

__all__ = ["register", "get_spec", "spec_names"]

# name -> "module:attribute" (not yet loaded) or the loaded spec.
_SPECS: dict[str, str | GameSpec] = {
    "tienlen": "tienlen.table_spec:SPEC",
    "guandan": "tienlen.guandan.table_spec:SPEC",
}
_LOCK = threading.Lock()


class UnknownGameError(ValueError):
    """No game is registered under that name."""


def register(name: str, spec: str | GameSpec) -> None:
    """Register ``spec`` (a spec, or ``"module:attribute"`` to import on first use) as
    ``name``; a name already taken is refused (a typo would otherwise replace a game)."""
    if not isinstance(name, str) or not name.isidentifier():
        raise ValueError(f"a game name is an identifier; got {name!r:.40}")
    with _LOCK:
        if name in _SPECS:
            raise ValueError(f"a game named {name!r} is already registered")
        _SPECS[name] = spec


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
