"""The deprecated aliases of moved modules (issue 34: the symmetric house).

>>> MOVED["tienlen.game"], FACADES["tienlen.core"]
('tienlen.games.tienlen.game', 'tienlen.games.tienlen.core')

A module that moved leaves a one-line file at its old path that calls :func:`alias`: the
old name then *is* the new module (the same object in ``sys.modules``, so its classes,
functions and private names are the new module's), and importing it raises one
``DeprecationWarning`` that names the new home. The aliases live for two minor releases
(docs/versioning.md); ``MOVED`` lists them for the tests and the CHANGELOG.
"""

from __future__ import annotations

import importlib
import sys
import warnings
from typing import Any

__all__ = ["alias", "moved_name", "MOVED", "MOVED_NAMES", "FACADES", "SHIMS"]

#: Every moved module: its old name and its home since 0.2.0. The old names are
#: deprecated aliases (one warning on import), removed no earlier than 0.4.0.
MOVED: dict[str, str] = {
    "tienlen.actions": "tienlen.games.tienlen.actions",
    "tienlen.cards": "tienlen.games.tienlen.cards",
    "tienlen.combos": "tienlen.games.tienlen.plays",
    "tienlen.game": "tienlen.games.tienlen.game",
    "tienlen.hints": "tienlen.games.tienlen.hints",
    "tienlen.match": "tienlen.games.tienlen.match",
    "tienlen.reasons": "tienlen.games.tienlen.refusals",
    "tienlen.replay": "tienlen.games.tienlen.replay",
    "tienlen.results": "tienlen.games.tienlen.results",
    "tienlen.rules": "tienlen.games.tienlen.rules",
    "tienlen.solver": "tienlen.games.tienlen.solver",
    "tienlen.table_spec": "tienlen.games.tienlen.spec",
    "tienlen.view": "tienlen.games.tienlen.view",
    "tienlen.bots": "tienlen.games.tienlen.bots",
    "tienlen.bots.base": "tienlen.games.tienlen.bots.base",
    "tienlen.bots.greedy": "tienlen.games.tienlen.bots.greedy",
    "tienlen.bots.heuristic": "tienlen.games.tienlen.bots.heuristic",
    "tienlen.bots.random_bot": "tienlen.games.tienlen.bots.random_bot",
    "tienlen.bots.search": "tienlen.games.tienlen.bots.search",
    "tienlen.bots.split": "tienlen.games.tienlen.bots.split",
    "tienlen.spelling": "tienlen.games.spelling",
    "tienlen.lockfile": "tienlen.arena.lockfile",
    "tienlen.scale": "tienlen.arena.scale",
    "tienlen.table.arena": "tienlen.arena.engine",
    "tienlen.table.files": "tienlen.arena.files",
    "tienlen.cli_shared": "tienlen.cli.common",
    "tienlen.tui.render": "tienlen.games.tienlen.board",
    "tienlen.tui.guandan_board": "tienlen.games.guandan.board",
    "tienlen.tui.guandan_words": "tienlen.games.guandan.words",
    "tienlen.server.v1006": "tienlen.games.guandan.platform",
    "tienlen.guandan.arena": "tienlen.games.guandan.arena",
    "tienlen.guandan.bots": "tienlen.games.guandan.bots",
    "tienlen.guandan.cards": "tienlen.games.guandan.cards",
    "tienlen.guandan.cli": "tienlen.games.guandan.cli",
    "tienlen.guandan.config": "tienlen.games.guandan.rules",
    "tienlen.guandan.errors": "tienlen.games.guandan.errors",
    "tienlen.guandan.game": "tienlen.games.guandan.game",
    "tienlen.guandan.hints": "tienlen.games.guandan.hints",
    "tienlen.guandan.match": "tienlen.games.guandan.match",
    "tienlen.guandan.plays": "tienlen.games.guandan.plays",
    "tienlen.guandan.reasons": "tienlen.games.guandan.explain",
    "tienlen.guandan.table_spec": "tienlen.games.guandan.spec",
    # 0.2.0, issue 34: each game's RL encoder and learned bot live in its game; the envs
    # are written once in tienlen.rl (vector, aec, gym_env) over a game's encoder.
    "tienlen.rl.encoding": "tienlen.games.tienlen.encoding",
    "tienlen.rl.guandan_encoding": "tienlen.games.guandan.encoding",
    "tienlen.rl.policy_bot": "tienlen.games.tienlen.learned",
    "tienlen.rl.guandan_dmc": "tienlen.games.guandan.learned",
    "tienlen.rl.guandan_vector": "tienlen.rl.vector",
    "tienlen.rl.guandan_aec": "tienlen.rl.aec",
    "tienlen.rl.guandan_gym": "tienlen.rl.gym_env",
}
#: Names that moved out of a module that stays: (module, name) -> "new.module:name". The
#: module's ``__getattr__`` lends each with a DeprecationWarning (:func:`moved_name`);
#: removed no earlier than 0.4.0.
MOVED_NAMES: dict[tuple[str, str], str] = {
    **{("tienlen.rl", name): f"tienlen.games.tienlen.encoding:{name}"
       for name in ("OBS_SIZE", "NUM_ACTIONS", "MAX_LEGAL", "HISTORY", "FIELDS",
                    "place_rewards", "VecGames")},
    ("tienlen.rl", "PolicyBot"): "tienlen.games.tienlen.learned:PolicyBot",
    ("tienlen.rl.vector", "VecGames"): "tienlen.games.tienlen.encoding:VecGames",
    ("tienlen.rl.vector", "POLICIES"): "tienlen.games.tienlen.encoding:POLICIES",
    ("tienlen.rl.vector", "GdVecGames"): "tienlen.games.guandan.encoding:GdVecGames",
}
#: Modules of deprecated wrappers, kept for two minor releases (0.2.0, issue 34): each lends
#: the names it had (a warning on first use of each) over what replaced it, and so imports
#: the game it served; no module of the package imports one. They also hold the games' cli
#: modules' deprecated ``run_play`` / ``run_replay`` (and Guandan's ``TrainingSession``),
#: which those modules lend by name on first use, so that a game imports no front end.
SHIMS: dict[str, str] = {
    "tienlen.tui.play": "tienlen.tui.session on tienlen.games.tienlen.board.TienlenBoard",
    "tienlen.tui.guandan_play": "tienlen.tui.session on tienlen.games.guandan.board.GuandanBoard",
    "tienlen.tui.replay_view": "tienlen.tui.session.replay",
}
#: Old names that stay public, with no warning: the cores' documented re-exports.
FACADES: dict[str, str] = {
    "tienlen.core": "tienlen.games.tienlen.core",
    "tienlen.guandan.core": "tienlen.games.guandan.core",
}


def moved_name(module: str, name: str) -> Any:
    """The value of ``module.name`` that moved (:data:`MOVED_NAMES`), with one
    ``DeprecationWarning`` naming its home; AttributeError for any other name, as a module
    without it would raise. For a module's ``__getattr__``.

    >>> moved_name("tienlen.rl", "nothing")
    Traceback (most recent call last):
    ...
    AttributeError: module 'tienlen.rl' has no attribute 'nothing'
    """
    home = MOVED_NAMES.get((module, name))
    if home is None:
        raise AttributeError(f"module {module!r} has no attribute {name!r}")
    new_module, _, attribute = home.partition(":")
    # stacklevel 3: this function, the module's __getattr__, then the caller.
    warnings.warn(f"{module}.{name} is deprecated: use {new_module}.{attribute} (moved in "
                  "0.2.0)", DeprecationWarning, stacklevel=3)
    return getattr(importlib.import_module(new_module), attribute)


def alias(old: str, new: str, *, deprecated: bool = True) -> None:
    """Make ``old`` (a module being imported) an alias of ``new``, with a warning unless
    ``deprecated`` is False (a public facade such as ``tienlen.core``)."""
    module = importlib.import_module(new)
    if deprecated:
        # stacklevel 3: this function, the alias file, then the importer (the import
        # machinery's own frames are skipped by the warnings module).
        warnings.warn(f"{old} is deprecated: use {new} (moved in 0.2.0)", DeprecationWarning,
                      stacklevel=3)
    sys.modules[old] = module
    if hasattr(module, "__path__"):
        # A package: its submodules under the old name too, so that `import old.sub` finds
        # the module already loaded instead of loading the new file a second time under
        # the old name (two copies of every class).
        prefix = new + "."
        for name, sub in list(sys.modules.items()):
            if name.startswith(prefix) and sub is not None:
                sys.modules.setdefault(old + name[len(new):], sub)
