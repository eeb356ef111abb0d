"""``tienlen`` loads its public names on first use (PEP 562), so that importing one layer
does not load the layers above it (data flows core <- cards/rules/combos <- game <- bots <-
hints): ``import tienlen.games.tienlen.cards`` used to load every bot and the hints.

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
from tienlen.games.tienlen.cards import Card, Cards, parse_cards
from tienlen.games.tienlen.plays import Combo, Kind, beats, classify, count_legal_moves, legal_moves
from tienlen.errors import CardParseError, ComboError, TienlenError
from tienlen.games.tienlen.game import PASS, Action, Game, LegalMoves
from tienlen.games.tienlen.hints import Hint, hint
from tienlen.games.tienlen.match import Match
from tienlen.games.tienlen.refusals import IllegalMoveError, Reason
from tienlen.games.tienlen.replay import ReplayError
from tienlen.games.tienlen.rules import Rules
from tienlen.games.tienlen.solver import Solution, SolveError, Value, solve
from tienlen.games.tienlen.view import View
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


@pytest.mark.parametrize("module", ["tienlen", "tienlen.games.tienlen.cards", "tienlen.games.tienlen.plays",
                                    "tienlen.games.tienlen.rules", "tienlen.games.tienlen.game", "tienlen.games.tienlen.match"])
def test_lower_layers_load_no_bot_and_no_hints(module: str) -> None:
    loaded = loaded_after(f"import {module}")
    assert module in loaded                 # (the probe itself works)
    assert "tienlen.games.tienlen.bots" not in loaded
    assert "tienlen.games.tienlen.hints" not in loaded


def test_import_tienlen_alone_loads_no_submodule() -> None:
    assert loaded_after("import tienlen") == {"tienlen"}


def test_a_name_loads_its_module_on_first_use() -> None:
    loaded = loaded_after("import tienlen\ntienlen.hint")
    assert {"tienlen.games.tienlen.hints", "tienlen.games.tienlen.bots"} <= loaded


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


# --- issue 25: one game loads none of the other, the table layer loads no game ------------

# Modules that belong to no game: the package, its errors and seeds, card-text spelling,
# the table layer, the front-end helpers every CLI shares and the one terminal session.
SHARED = {"tienlen", "tienlen._moved", "tienlen.errors", "tienlen.seeds", "tienlen.games",
          "tienlen.games.spelling", "tienlen.cli", "tienlen.cli.common",
          "tienlen.tui", "tienlen.tui.common", "tienlen.tui.session", "tienlen.tui.terminal",
          "tienlen.tui.plain",
          "tienlen.arena.lockfile", "tienlen.arena.scale", "tienlen.tui.sim_view", "tienlen.rl",
          "tienlen.rl.common", "tienlen.rl.spaces", "tienlen.rl.seat_aec", "tienlen.rl.games",
          "tienlen.rl.vector", "tienlen.rl.aec", "tienlen.rl.gym_env"}


def _is_shared(name: str) -> bool:
    return name in SHARED or name.startswith(("tienlen.table", "tienlen.arena"))


def _is_guandan(name: str) -> bool:
    return name.startswith(("tienlen.guandan", "tienlen.games.guandan", "tienlen.rl.guandan_")) or (
        name in ("tienlen._guandan", "tienlen.tui.guandan_play"))


@pytest.mark.parametrize("statement", [
    "import tienlen.guandan",
    "import tienlen.games.guandan.match",
    "import tienlen.games.guandan.cli",
    "import tienlen.tui.guandan_play",
    "import tienlen.games.guandan.board, tienlen.games.guandan.words",
    "from tienlen.table import get_spec; get_spec('guandan').words('zh')",
    "from tienlen.table import get_spec; get_spec('guandan')",
    "from tienlen.games.guandan.match import Match; Match(seed=1).to_json()",
    "import tienlen.games.guandan.arena, tienlen.games.guandan.bots, tienlen.games.guandan.hints",
    # what the Guandan sim loads: its arena, the sim screen, the file and cluster setup
    "import tienlen.games.guandan.cli, tienlen.tui.sim_view, tienlen.arena.scale, tienlen.games.guandan.arena",
    "from tienlen.rl import GuandanAECEnv, GuandanEnv, GuandanVectorEnv, guandan_env",
    "import tienlen.games.guandan.learned, tienlen.games.guandan.encoding",
])
def test_guandan_loads_no_tienlen_module(statement: str) -> None:
    loaded = loaded_after(statement)
    assert "tienlen._guandan" in loaded     # (the probe itself works)
    assert {m for m in loaded if not _is_shared(m) and not _is_guandan(m)} == set()


@pytest.mark.parametrize("statement", [
    "import tienlen.games.tienlen.game",
    "import tienlen.games.tienlen.match",
    "import tienlen.games.tienlen.replay",
    "import tienlen.cli",
    "import tienlen.tui.play",
    "import tienlen.tui.replay_view",
    "import tienlen.games.tienlen.board, tienlen.games.tienlen.words",
    "from tienlen.table import get_spec; get_spec('tienlen')",
    "import tienlen.games.tienlen.arena, tienlen.games.tienlen.results, tienlen.games.tienlen.hints, tienlen.games.tienlen.bots.search",
    "import tienlen.rl.aec, tienlen.rl.gym_env, tienlen.rl.vector",
    "from tienlen.rl import TienlenAECEnv, TienlenEnv, TienlenVectorEnv, env, raw_env",
    "import tienlen.games.tienlen.learned, tienlen.games.tienlen.encoding",
])
def test_tienlen_loads_no_guandan_module(statement: str) -> None:
    loaded = loaded_after(statement)
    assert {m for m in loaded if _is_guandan(m)} == set()


def test_the_table_layer_loads_no_game() -> None:
    loaded = loaded_after("import tienlen.table, tienlen.table.errors, tienlen.table.fileio, "
                          "tienlen.table.match, tienlen.arena.engine, tienlen.arena.files, "
                          "tienlen.tui.session, tienlen.tui.common, tienlen.cli.common, "
                          "tienlen.tui.plain, tienlen.table.board, "
                          "tienlen.tui.sim_view, "
                          "tienlen.arena.lockfile, tienlen.arena.scale, tienlen.rl, tienlen.rl.common, "
                          "tienlen.rl.spaces, tienlen.rl.seat_aec, tienlen.rl.games, "
                          "tienlen.rl.vector, tienlen.rl.aec, tienlen.rl.gym_env, "
                          "tienlen.table.encoding")
    assert {m for m in loaded if not _is_shared(m)} == set()
    assert "tienlen.table.spec" in loaded


@pytest.mark.parametrize("module", ["tienlen", "tienlen.rl", "tienlen.games.guandan.cli"])
def test_lazy_names_are_listed_before_use(module: str) -> None:
    """A module that lends names on first use (PEP 562) lists every one in ``dir()``
    before any is touched, and each resolves."""
    result = run_fresh(f"import json, {module} as m\n"
                       "def lost(name):\n"
                       "    try:\n"
                       "        getattr(m, name)\n"
                       "    except ImportError:   # an extra that is not installed (sb3)\n"
                       "        return False\n"
                       "    except AttributeError:\n"
                       "        return True\n"
                       "    return False\n"
                       "print(json.dumps([sorted(set(m.__all__) - set(dir(m))),\n"
                       "                  sorted(n for n in m.__all__ if lost(n))]))")
    assert result == [[], []]


def _module_imports(lazy: bool) -> dict[str, set[str]]:
    """Which tienlen modules each tienlen module imports: at load (``lazy`` False: module
    level, outside ``if TYPE_CHECKING``), or anywhere (inside functions too)."""
    import ast
    from pathlib import Path

    root = Path(tienlen.__file__).parent
    modules = {}
    for path in root.rglob("*.py"):
        parts = list(path.relative_to(root.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        modules[".".join(parts)] = path

    def resolve(module: str, level: int, name: str | None, package: bool) -> str:
        if level == 0:
            return name or ""
        base = module.split(".")[:None if package else -1]
        base = base[:len(base) - (level - 1)]
        return ".".join(base + ([name] if name else []))

    graph: dict[str, set[str]] = {}
    for module, path in modules.items():
        package = path.name == "__init__.py"
        found: set[str] = set()

        def visit(nodes: list[ast.stmt]) -> None:
            for node in nodes:
                if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    if lazy:
                        visit(node.body)
                    continue
                if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
                    continue
                if isinstance(node, ast.Import):
                    found.update(a.name for a in node.names)
                elif isinstance(node, ast.ImportFrom):
                    target = resolve(module, node.level, node.module, package)
                    for alias in node.names:
                        sub = f"{target}.{alias.name}"
                        found.add(sub if sub in modules else target)
                for field in ("body", "orelse", "finalbody", "handlers"):
                    visit(getattr(node, field, []))

        visit(ast.parse(path.read_text(encoding="utf-8")).body)
        graph[module] = {m for m in found if m in modules and m != module}
    return graph


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    found: list[list[str]] = []
    state: dict[str, int] = {}
    stack: list[str] = []

    def walk(node: str) -> None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                found.append(stack[stack.index(nxt):] + [nxt])
            elif nxt not in state:
                walk(nxt)
        stack.pop()
        state[node] = 2

    for node in sorted(graph):
        if node not in state:
            walk(node)
    return found


def test_no_import_circles() -> None:
    """No module imports, at load or inside a function, one that imports it back: Game.to_json
    / Game.from_json use the file format below the game (tienlen.games.tienlen.replay_format),
    and tienlen.games.tienlen.replay, which builds Games, sits above it (issue 34).
    cli <-> guandan.cli and game -> replay -> match -> game are gone."""
    assert _cycles(_module_imports(lazy=False)) == []
    assert _cycles(_module_imports(lazy=True)) == []
    graph = _module_imports(lazy=True)
    assert "tienlen.cli" not in graph["tienlen.games.guandan.cli"]
    assert "tienlen.games.tienlen.match" not in graph["tienlen.games.tienlen.replay"]
