"""tienlen/_core.pyi states the types of the native core; these tests hold it to the built
module, so that the stub cannot go stale when src/ changes.

Checked both ways: every name the module exports is in the stub and every name in the stub
exists at run time; every constant has the stub's value; every function and method has the
stub's parameters (names, kinds and defaults; ``inspect.signature`` reads every runtime one,
as the core is built with ``embedsignature=True``), and
``GameState.__init__`` against the signature Cython embeds in the class docstring;
properties are properties and static methods static. ``.ci/typecheck`` also runs mypy's own
stubtest, which checks the same and more but takes too long for the default suite.
"""

from __future__ import annotations

import ast
import inspect
import types
from pathlib import Path
from typing import Any

import pytest

import tienlen
from tienlen import _core

STUB = Path(tienlen.__file__).with_name("_core.pyi")
TREE = ast.parse(STUB.read_text(encoding="utf-8"))
EMPTY = inspect.Parameter.empty


def _is_alias(node: ast.AnnAssign) -> bool:
    return isinstance(node.annotation, ast.Name) and node.annotation.id == "TypeAlias"


def stub_names(body: list[ast.stmt]) -> dict[str, ast.stmt]:
    """Names a stub body defines (type aliases and type variables, which exist only for the
    checker, left out)."""
    names: dict[str, ast.stmt] = {}
    for node in body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            names[node.name] = node
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            if not _is_alias(node):
                names[node.target.id] = node
        elif isinstance(node, ast.Assign):
            if isinstance(node.value, ast.Call) and getattr(node.value.func, "id", "") == "TypeVar":
                continue                   # a type variable, like an alias: the checker's only
            for target in node.targets:
                assert isinstance(target, ast.Name)
                names[target.id] = node
    return names


def _exported(name: str) -> bool:
    """Not Cython's machinery (``__pyx_*``, dunders such as ``__reduce_cython__``), except
    the doctest table ``__test__``; mypy's stubtest (.ci/typecheck) checks those too."""
    return not name.startswith("__pyx") and (
        not (name.startswith("__") and name.endswith("__")) or name == "__test__")


STUB_NAMES = {name: node for name, node in stub_names(TREE.body).items() if _exported(name)}


def runtime_names(namespace: dict[str, Any]) -> set[str]:
    """What a module exports: everything but the modules it imported and Cython's
    machinery."""
    return {name for name, value in namespace.items()
            if not isinstance(value, types.ModuleType) and _exported(name)}


class _Unread:
    """A default written as a C expression in an embedded signature (Cython copies the
    source text: ``opponents=(P_RANDOM, P_RANDOM, P_RANDOM)``): equal to any value."""

    def __eq__(self, other: object) -> bool:
        return True


def stub_parameters(node: ast.FunctionDef,
                    embedded: bool = False) -> list[tuple[str, Any, Any]]:
    """(name, kind, default) of every parameter of a stub function, or with ``embedded``
    of a signature Cython embedded in a docstring (whose non-literal defaults are _Unread)."""
    def value(d: ast.expr) -> Any:
        try:
            return ast.literal_eval(d)
        except ValueError:
            if embedded:
                return _Unread()
            raise

    a = node.args
    positional = [*a.posonlyargs, *a.args]
    defaults = [EMPTY] * (len(positional) - len(a.defaults)) + [value(d) for d in a.defaults]
    params = []
    for i, (arg, default) in enumerate(zip(positional, defaults)):
        kind = (inspect.Parameter.POSITIONAL_ONLY if i < len(a.posonlyargs)
                else inspect.Parameter.POSITIONAL_OR_KEYWORD)
        params.append((arg.arg, kind, default))
    if a.vararg:
        params.append((a.vararg.arg, inspect.Parameter.VAR_POSITIONAL, EMPTY))
    for arg, kw_default in zip(a.kwonlyargs, a.kw_defaults):
        default = EMPTY if kw_default is None else value(kw_default)
        params.append((arg.arg, inspect.Parameter.KEYWORD_ONLY, default))
    if a.kwarg:
        params.append((a.kwarg.arg, inspect.Parameter.VAR_KEYWORD, EMPTY))
    return params


def runtime_parameters(signature: inspect.Signature) -> list[tuple[str, Any, Any]]:
    return [(p.name, p.kind, p.default) for p in signature.parameters.values()]


def same_parameters(a: list[tuple[str, Any, Any]], b: list[tuple[str, Any, Any]]) -> bool:
    """Equal parameter lists; a positional-only parameter's name is not part of the API."""
    def key(p: tuple[str, Any, Any]) -> tuple[str, Any, Any]:
        return ("", *p[1:]) if p[1] is inspect.Parameter.POSITIONAL_ONLY else p
    return [key(p) for p in a] == [key(p) for p in b]


def decorators(node: ast.FunctionDef) -> set[str]:
    return {d.id for d in node.decorator_list if isinstance(d, ast.Name)}


STUB_CLASSES = {name: node for name, node in STUB_NAMES.items() if isinstance(node, ast.ClassDef)}
STUB_FUNCTIONS = {name: node for name, node in STUB_NAMES.items()
                  if isinstance(node, ast.FunctionDef)}
STUB_CONSTANTS = {name: node for name, node in STUB_NAMES.items()
                  if isinstance(node, ast.AnnAssign) and node.value is not None}


def test_every_runtime_name_is_in_the_stub_and_every_stub_name_exists() -> None:
    runtime = runtime_names(vars(_core))
    assert runtime - set(STUB_NAMES) == set(), "exported by tienlen._core but missing from _core.pyi"
    assert set(STUB_NAMES) - runtime == set(), "in _core.pyi but not exported by tienlen._core"


@pytest.mark.parametrize("name", sorted(STUB_CONSTANTS))
def test_constant_has_the_stub_value(name: str) -> None:
    node = STUB_CONSTANTS[name]
    assert isinstance(node, ast.AnnAssign) and node.value is not None
    value = getattr(_core, name)
    assert type(value) is int
    assert value == ast.literal_eval(node.value)


def test_reason_names_name_every_reason_constant() -> None:
    # REASON_NAMES has no value in the stub (only its type): check it against the constants.
    reasons = {name: getattr(_core, name) for name in _core.REASON_NAMES.values()}
    assert _core.REASON_NAMES == {code: name for name, code in reasons.items()}
    assert set(reasons) <= set(STUB_CONSTANTS)


@pytest.mark.parametrize("name", sorted(STUB_FUNCTIONS))
def test_function_signature_matches_the_stub(name: str) -> None:
    runtime = inspect.signature(getattr(_core, name))
    assert same_parameters(runtime_parameters(runtime), stub_parameters(STUB_FUNCTIONS[name]))


def _methods(cls_name: str) -> dict[str, ast.FunctionDef]:
    cls = STUB_CLASSES[cls_name]
    assert isinstance(cls, ast.ClassDef)
    return {n.name: n for n in cls.body if isinstance(n, ast.FunctionDef)}


def _class_members(cls_name: str) -> list[tuple[str, str]]:
    return [(cls_name, member) for member in sorted(_methods(cls_name))]


def test_class_members_match_both_ways() -> None:
    for cls_name in STUB_CLASSES:
        cls = getattr(_core, cls_name)
        stub = _methods(cls_name)
        # Public members exactly; dunders the stub names must exist, and every dunder the
        # Cython source defines as a Python method must be in the stub.
        public = {n for n in vars(cls) if not n.startswith("_")}
        assert public == {n for n in stub if not n.startswith("_")}, cls_name
        assert {n for n in stub if n.startswith("_")} <= set(vars(cls)), cls_name
        defined = {n for n, v in vars(cls).items()
                   if n.startswith("__") and type(v).__name__ == "cython_function_or_method"}
        assert defined <= set(stub), cls_name


@pytest.mark.parametrize(("cls_name", "member"),
                         [m for c in STUB_CLASSES for m in _class_members(c)])
def test_method_signature_matches_the_stub(cls_name: str, member: str) -> None:
    cls = getattr(_core, cls_name)
    node = _methods(cls_name)[member]
    raw = vars(cls)[member]
    if "property" in decorators(node):
        assert inspect.isdatadescriptor(raw) and not callable(raw), member
        return
    if "staticmethod" in decorators(node):
        assert isinstance(raw, staticmethod), member
    if member == "__init__":
        # Cython embeds the constructor's signature as the first line of the class docstring.
        first = cls.__doc__.splitlines()[0]
        assert first.startswith(f"{cls_name}(")
        call = ast.parse(f"def f{first[len(cls_name):]}: pass").body[0]
        assert isinstance(call, ast.FunctionDef)
        assert same_parameters(stub_parameters(node)[1:], stub_parameters(call, embedded=True))
        return
    # Every other member is a Cython method or a C slot wrapper (__eq__): both carry a
    # signature inspect reads, so a member it cannot read fails here rather than skipping.
    runtime = inspect.signature(getattr(cls, member))
    assert same_parameters(runtime_parameters(runtime), stub_parameters(node))


def test_the_stub_ships_beside_the_module() -> None:
    # PEP 561: the stub and the py.typed marker sit in the package, next to the extension.
    package = Path(tienlen.__file__).parent
    assert (package / "py.typed").is_file()
    assert (package / "_core.pyi").is_file()
