"""``tienlen`` loads its public names on first use (PEP 562), so that importing one layer
does not load the layers above it (data flows core <- cards/rules/combos <- game <- bots <-
hints): ``import tienlen.cards`` used to load every bot and the hints.

Each check runs in a fresh interpreter, since this one has long imported everything.
"""

from __future__ import annotations

import importlib.metadata
import json
import subprocess
import sys

import pytest

import tienlen

# The public names and where they live, as tienlen/__init__.py imported them eagerly before
# it turned lazy: each must still be reachable as tienlen.NAME and be that very object.
EAGER_IMPORTS = """
from tienlen import core
from tienlen.cards import Card, Cards, parse_cards
from tienlen.combos import Combo, Kind, beats, classify, count_legal_moves, legal_moves
from tienlen.errors import CardParseError, ComboError, TienlenError
from tienlen.game import PASS, Action, Game, LegalMoves
from tienlen.hints import Hint, hint
from tienlen.match import Match
from tienlen.reasons import IllegalMoveError, Reason
from tienlen.replay import ReplayError
from tienlen.rules import Rules
from tienlen.solver import Solution, SolveError, Value, solve
from tienlen.view import View
"""


def run_fresh(code: str) -> object:
    """What ``code`` prints as JSON on its last line, run by a fresh interpreter."""
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            timeout=60, check=True)
    return json.loads(result.stdout.splitlines()[-1])


def loaded_after(statement: str) -> set[str]:
    code = (f"{statement}\nimport json, sys\n"
            "print(json.dumps(sorted(m for m in sys.modules if m.startswith('tienlen'))))")
    names = run_fresh(code)
    assert isinstance(names, list)
    return set(names)


@pytest.mark.parametrize("module", ["tienlen", "tienlen.cards", "tienlen.combos",
                                    "tienlen.rules", "tienlen.game", "tienlen.match"])
def test_lower_layers_load_no_bot_and_no_hints(module: str) -> None:
    loaded = loaded_after(f"import {module}")
    assert module in loaded                 # (the probe itself works)
    assert "tienlen.bots" not in loaded
    assert "tienlen.hints" not in loaded


def test_import_tienlen_alone_loads_no_submodule() -> None:
    assert loaded_after("import tienlen") == {"tienlen"}


def test_a_name_loads_its_module_on_first_use() -> None:
    loaded = loaded_after("import tienlen\ntienlen.hint")
    assert {"tienlen.hints", "tienlen.bots"} <= loaded


def test_every_public_name_is_the_object_its_module_defines() -> None:
    names = sorted(set(tienlen.__all__) - {"__version__"})
    code = (
        "import json, tienlen\n"
        # Touch the names through the package first, each before its module is imported.
        f"lazy = {{n: getattr(tienlen, n) for n in {names!r}}}\n"
        f"{EAGER_IMPORTS}\n"
        "eager = {n: globals()[n] for n in lazy}\n"
        "print(json.dumps({'same': sorted(n for n in lazy if lazy[n] is eager[n]),\n"
        "                  'listed': sorted(set(dir(tienlen)) & set(tienlen.__all__)),\n"
        "                  'all': sorted(tienlen.__all__)}))\n"
    )
    result = run_fresh(code)
    assert isinstance(result, dict)
    assert result["same"] == names
    assert result["listed"] == result["all"]      # dir(tienlen) is complete before any use


def test_an_unknown_name_is_an_attribute_error() -> None:
    with pytest.raises(AttributeError, match="has no attribute 'Cardz'"):
        tienlen.Cardz  # noqa: B018
    assert not hasattr(tienlen, "bots_and_hints")
    assert "__version__" in dir(tienlen)
    assert tienlen.__version__ == importlib.metadata.version("tienlen")
