"""tienlen/_guandan.pyi states the types of the native Guandan core; these tests hold it to
the built module the same way tests/test_core_stub.py holds _core.pyi to tienlen._core (and
with its helpers): names both ways, constant values, every function's and method's
parameters (the core is built with ``embedsignature=True``), ``GdState.__init__`` against the
signature Cython embeds in the class docstring, properties and static methods."""

from __future__ import annotations

import ast
import inspect
from pathlib import Path

import pytest
from test_core_stub import (
    _exported,
    decorators,
    runtime_names,
    runtime_parameters,
    same_parameters,
    stub_names,
    stub_parameters,
)

import tienlen
from tienlen import _guandan

STUB = Path(tienlen.__file__).with_name("_guandan.pyi")
TREE = ast.parse(STUB.read_text(encoding="utf-8"))
STUB_NAMES = {name: node for name, node in stub_names(TREE.body).items() if _exported(name)}
STUB_CLASSES = {name: node for name, node in STUB_NAMES.items() if isinstance(node, ast.ClassDef)}
STUB_FUNCTIONS = {name: node for name, node in STUB_NAMES.items()
                  if isinstance(node, ast.FunctionDef)}
STUB_CONSTANTS = {name: node for name, node in STUB_NAMES.items()
                  if isinstance(node, ast.AnnAssign) and node.value is not None}


def test_every_runtime_name_is_in_the_stub_and_every_stub_name_exists() -> None:
    runtime = runtime_names(vars(_guandan))
    assert runtime - set(STUB_NAMES) == set(), "exported by tienlen._guandan but missing from _guandan.pyi"
    assert set(STUB_NAMES) - runtime == set(), "in _guandan.pyi but not exported by tienlen._guandan"


@pytest.mark.parametrize("name", sorted(STUB_CONSTANTS))
def test_constant_has_the_stub_value(name: str) -> None:
    node = STUB_CONSTANTS[name]
    assert isinstance(node, ast.AnnAssign) and node.value is not None
    value = getattr(_guandan, name)
    assert type(value) is int
    assert value == ast.literal_eval(node.value)


def test_reason_tables_are_tuples_of_the_stub_types() -> None:
    # GS_REASON_NAMES / GS_REASON_BASE have no value in the stub (only their types).
    assert all(type(n) is str for n in _guandan.GS_REASON_NAMES)
    assert all(type(b) is int for b in _guandan.GS_REASON_BASE)
    assert len(_guandan.GS_REASON_NAMES) == len(_guandan.GS_REASON_BASE)


@pytest.mark.parametrize("name", sorted(STUB_FUNCTIONS))
def test_function_signature_matches_the_stub(name: str) -> None:
    runtime = inspect.signature(getattr(_guandan, name))
    assert same_parameters(runtime_parameters(runtime), stub_parameters(STUB_FUNCTIONS[name]))


def _methods(cls_name: str) -> dict[str, ast.FunctionDef]:
    cls = STUB_CLASSES[cls_name]
    assert isinstance(cls, ast.ClassDef)
    return {n.name: n for n in cls.body if isinstance(n, ast.FunctionDef)}


def test_class_members_match_both_ways() -> None:
    assert set(STUB_CLASSES) == {"GdState", "GdTable", "GdVecGames", "GdActionError", "PlanPasses",
                                 "DealScoring", "DealSampler"}
    for cls_name in STUB_CLASSES:
        cls = getattr(_guandan, cls_name)
        stub = _methods(cls_name)
        public = {n for n in vars(cls) if not n.startswith("_")}
        assert public == {n for n in stub if not n.startswith("_")}, cls_name
        assert {n for n in stub if n.startswith("_")} <= set(vars(cls)), cls_name
        defined = {n for n, v in vars(cls).items()
                   if n.startswith("__") and type(v).__name__ == "cython_function_or_method"}
        assert defined <= set(stub), cls_name


@pytest.mark.parametrize(("cls_name", "member"),
                         [(c, m) for c in STUB_CLASSES for m in sorted(_methods(c))])
def test_method_signature_matches_the_stub(cls_name: str, member: str) -> None:
    cls = getattr(_guandan, cls_name)
    node = _methods(cls_name)[member]
    raw = vars(cls)[member]
    if "property" in decorators(node):
        assert inspect.isdatadescriptor(raw) and not callable(raw), member
        return
    if "staticmethod" in decorators(node):
        assert isinstance(raw, staticmethod), member
    if member == "__init__":
        first = cls.__doc__.splitlines()[0]
        assert first.startswith(f"{cls_name}(")
        call = ast.parse(f"def f{first[len(cls_name):]}: pass").body[0]
        assert isinstance(call, ast.FunctionDef)
        assert same_parameters(stub_parameters(node)[1:], stub_parameters(call, embedded=True))
        return
    runtime = inspect.signature(getattr(cls, member))
    assert same_parameters(runtime_parameters(runtime), stub_parameters(node))


def test_the_stub_ships_beside_the_module() -> None:
    assert (Path(tienlen.__file__).parent / "_guandan.pyi").is_file()
