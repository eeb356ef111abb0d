"""tienlen: a fast, correct Tiến Lên (Thirteen) engine.

>>> import tienlen
>>> hand = tienlen.Cards.parse("3s 4s 5s 5h 6d 7c")
>>> len(tienlen.legal_moves(hand))
19
>>> str(tienlen.classify(tienlen.Cards.parse("5h 6d 7c")).top)
'7♣'
"""

import importlib as _importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the names as type checkers see them; at run time they load on first use
    from tienlen import core
    from tienlen.games.tienlen.cards import Card, Cards, parse_cards
    from tienlen.games.tienlen.plays import Combo, Kind, beats, classify, count_legal_moves, legal_moves
    from tienlen.errors import CardParseError, ComboError, TienlenError
    from tienlen.games.tienlen.actions import PASS, Action
    from tienlen.games.tienlen.game import Game, LegalMoves
    from tienlen.games.tienlen.hints import Hint, hint
    from tienlen.games.tienlen.match import Match
    from tienlen.games.tienlen.refusals import IllegalMoveError, Reason
    from tienlen.games.tienlen.replay import ReplayError
    from tienlen.games.tienlen.rules import Rules
    from tienlen.games.tienlen.solver import Solution, SolveError, Value, solve
    from tienlen.games.tienlen.view import View

# __version__ is not set here: the one source of the version is the package metadata
# (pyproject.toml's [project] version), read on first use by __getattr__ below.
__version__: str

__all__ = [
    "PASS",
    "Action",
    "Game",
    "Hint",
    "IllegalMoveError",
    "LegalMoves",
    "Match",
    "Reason",
    "ReplayError",
    "View",
    "Card",
    "CardParseError",
    "Cards",
    "Combo",
    "ComboError",
    "Kind",
    "Rules",
    "Solution",
    "SolveError",
    "Value",
    "TienlenError",
    "__version__",
    "beats",
    "classify",
    "core",
    "count_legal_moves",
    "hint",
    "legal_moves",
    "parse_cards",
    "solve",
]

# Where each public name lives. They are imported on first use (PEP 562), not here: this
# module runs before any submodule, so importing them here made `import tienlen.games.tienlen.cards`
# load the game, every bot and the hints too.
_HOMES: dict[str, str] = {
    "core": "tienlen.core",
    **dict.fromkeys(("Card", "Cards", "parse_cards"), "tienlen.games.tienlen.cards"),
    **dict.fromkeys(("Combo", "Kind", "beats", "classify", "count_legal_moves", "legal_moves"),
                    "tienlen.games.tienlen.plays"),
    **dict.fromkeys(("CardParseError", "ComboError", "TienlenError"), "tienlen.errors"),
    **dict.fromkeys(("PASS", "Action"), "tienlen.games.tienlen.actions"),
    **dict.fromkeys(("Game", "LegalMoves"), "tienlen.games.tienlen.game"),
    **dict.fromkeys(("Hint", "hint"), "tienlen.games.tienlen.hints"),
    "Match": "tienlen.games.tienlen.match",
    **dict.fromkeys(("IllegalMoveError", "Reason"), "tienlen.games.tienlen.refusals"),
    "ReplayError": "tienlen.games.tienlen.replay",
    "Rules": "tienlen.games.tienlen.rules",
    **dict.fromkeys(("Solution", "SolveError", "Value", "solve"), "tienlen.games.tienlen.solver"),
    "View": "tienlen.games.tienlen.view",
}


def _metadata_version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("tienlen")
    except PackageNotFoundError:     # a source tree on sys.path that was never installed
        return "0+unknown"


def __getattr__(name: str) -> Any:
    if name == "__version__":
        globals()[name] = found = _metadata_version()
        return found
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'tienlen' has no attribute {name!r}")
    module = _importlib.import_module(home)
    value = module if name == "core" else getattr(module, name)
    globals()[name] = value       # later lookups are plain attribute reads
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
