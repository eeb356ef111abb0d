"""Sphinx configuration of the API reference site (issue 28).

Build it with ``pip install -e ".[docs]"`` and
``python -m sphinx -W --keep-going -b html docs docs/_build/html`` (.ci/docs does exactly
that in CI, warnings as errors). The pages are the Markdown files in docs/ (read by MyST)
and one API page per public module, written by :func:`write_api_pages` below into
docs/_api/ on each build (not committed), so that a new module is documented from the day it
lands. :func:`check_every_public_name` then fails the build (a warning, an error under -W)
if any public name of any public module has no entry in the site.
"""

from __future__ import annotations

import importlib
import importlib.util
import inspect
import pkgutil
import posixpath
import re
import shutil
from pathlib import Path
from types import ModuleType
from typing import Any

import tienlen

HERE = Path(__file__).resolve().parent
API = HERE / "_api"

project = "tienlen"
author = "the tienlen authors"
copyright = "2026, the tienlen authors"
version = release = tienlen.__version__        # the package metadata's: one version source

extensions = ["myst_parser", "sphinx.ext.autodoc", "sphinx.ext.intersphinx"]
source_suffix = {".md": "markdown", ".rst": "restructuredtext"}
# The text samples beside the pages (docs/play-screen.txt, ...) are test fixtures, not pages.
exclude_patterns = ["_build", "*.txt"]
root_doc = "index"
html_theme = "alabaster"
# Wide enough for a doctest line of 100 characters (the code's width) without a scroll bar.
html_theme_options = {"page_width": "1240px", "sidebar_width": "220px"}
html_title = f"tienlen {release}"
# Headings of the Markdown pages become link targets (`[x](rl.md#the-native-vectorised-env)`).
myst_heading_anchors = 3
myst_enable_extensions = ["colon_fence"]

autodoc_default_options = {"undoc-members": True, "show-inheritance": True}
autodoc_member_order = "bysource"
# Signatures show the annotations as written (``Cards | int``), not expanded aliases.
autodoc_typehints = "signature"
autodoc_preserve_defaults = True
# (No autodoc_type_aliases for Move/CardsLike: Sphinx renders an alias inside a generic,
# tuple[Move, ...], as "TypeAliasForwardRef(...)"; the unions are shown expanded, and their
# short names resolve to the page's own game, _nearest_python_domain below.)
# A method we do not document does not borrow its base class's docstring: Gymnasium's and
# PettingZoo's are written in another markup (Google style) and describe their contract, not ours.
autodoc_inherit_docstrings = False
# Links to names outside the package are left as text rather than resolved against other
# projects' inventories: the build must not need the network.
intersphinx_mapping: dict[str, Any] = {}
# A reference to a type that has no page of its own here (numpy.ndarray, gymnasium.Env,
# a typing alias) is not an error; a broken reference to one of *our* names still is, since
# every public name has an entry (check_every_public_name).
nitpicky = False

# The optional extras: where one is not installed the modules built on it are documented
# against a stand-in (autodoc's mock), so the site builds from the [docs] extra alone.
# Where it is installed, the real library is used.
autodoc_mock_imports = [name for name in ("stable_baselines3", "sb3_contrib", "torch")
                        if importlib.util.find_spec(name) is None]

# --- the repository's own Markdown files as pages -----------------------------------------

REPO = HERE.parent
#: Pages whose text is a file elsewhere in the repository: docs/<page>.md is a placeholder
#: that on_source_read fills with that file, its links rewritten to point at the site's
#: pages (README.md's ``docs/rl.md`` is the page ``rl``; ``RULES.md`` is ``rules``).
REPO_PAGES = {
    "readme": "README.md",
    "rules": "RULES.md",
    "guandan-rules": "GUANDAN.md",
    "changelog": "CHANGELOG.md",
    "bench": "bench/README.md",
    "core-contract": "src/README.md",
    "guandan-core-contract": "src/guandan/README.md",
}
_PAGE_OF = {path: page for page, path in REPO_PAGES.items()}
_LINK = re.compile(r"\]\(([^)#\s]+)(#[^)\s]*)?\)")


def _site_links(text: str, path: str) -> str:
    """``text`` (the file at repo-relative ``path``) with each relative link to a Markdown
    file of the repository pointed at that file's page on the site."""
    base = posixpath.dirname(path)

    def repoint(match: re.Match[str]) -> str:
        link, anchor = match.group(1), match.group(2) or ""
        if re.match(r"[a-z]+:", link):                  # https:, mailto:
            return match.group(0)
        where = posixpath.normpath(posixpath.join(base, link))
        if where in _PAGE_OF:
            return f"]({_PAGE_OF[where]}.md{anchor})"
        if where.startswith("docs/"):
            return f"]({where[len('docs/'):]}{anchor})"
        return match.group(0)

    return _LINK.sub(repoint, text)


def on_source_read(app: Any, docname: str, source: list[str]) -> None:
    if docname in REPO_PAGES:
        path = REPO_PAGES[docname]
        source[0] = _site_links((REPO / path).read_text(encoding="utf-8"), path)
    elif "/" not in docname:
        source[0] = _site_links(source[0], f"docs/{docname}.md")


# --- which modules and names are public ------------------------------------------------

#: The native cores are documented through their public re-exports.
NATIVE = {"tienlen.games.tienlen.core": "tienlen._core", "tienlen.games.guandan.core": "tienlen._guandan"}
#: Modules that are not part of the API: the ``python -m tienlen`` entry point, the
#: server's insides behind its tables (limits, scheduler, tournament matches), and
#: the command line's subcommand modules (their API is the command line itself).
NOT_API = {"tienlen.__main__", "tienlen.server.limits",
           "tienlen.server.scheduler", "tienlen.server.matches",
           *(f"tienlen.cli.{command}" for command in (
               "play", "sim", "replay", "moves", "solve", "rules", "serve", "tournament",
               "train", "review", "program"))}


def public_modules() -> list[str]:
    """Every module of the API by its own name: the old names of moved modules are aliases
    of the new ones (the same module objects, tienlen._moved), documented once, at home."""
    from tienlen._moved import FACADES, MOVED

    aliases = set(MOVED) | set(FACADES)
    names = ["tienlen", *(m.name for m in pkgutil.walk_packages(tienlen.__path__, "tienlen.",
                                                               onerror=lambda name: None))]
    return [n for n in names
            if n not in NOT_API and n not in aliases
            and not any(n.startswith(old + ".") for old in aliases)
            and not any(part.startswith("_") for part in n.split("."))]


def public_names(module: ModuleType) -> list[str]:
    if module.__name__ in NATIVE:
        native = importlib.import_module(NATIVE[module.__name__])
        return sorted(n for n, v in vars(native).items()
                      if not n.startswith("_") and not inspect.ismodule(v))
    return [n for n in getattr(module, "__all__", ()) if n != "__version__"]


_SCALARS = (int, float, str, bytes, bool, type(None))


def _assigns(module: ModuleType, name: str) -> bool:
    """Whether ``module``'s own source binds ``name`` at top level (rather than importing it)."""
    try:
        source = inspect.getsource(module)
    except (OSError, TypeError):
        return False
    return re.search(rf"^{re.escape(name)}\s*(:[^=\n]*)?=", source, re.M) is not None


def target(module: ModuleType, name: str, modules: dict[str, ModuleType]) -> str:
    """The dotted name of the site's entry for ``module.name``. A class or function is
    documented where it is defined (a native one: at its public re-export), under its own
    name (``TrainingSession`` is ``GuandanSession``); a value, by the module whose source
    assigns it."""
    here = f"{module.__name__}.{name}"
    if module.__name__ in NATIVE:
        return here
    value = getattr(module, name)
    if inspect.ismodule(value):
        return value.__name__
    if inspect.isclass(value) or inspect.isroutine(value):
        defined = getattr(value, "__module__", None) or module.__name__
        defined = {native: public for public, native in NATIVE.items()}.get(defined, defined)
        if defined in modules:
            for exported in (name, getattr(value, "__name__", name)):
                # == rather than is: a classmethod (parse_cards = Cards.parse) is a new
                # bound method at each access, equal to the others
                if (exported in public_names(modules[defined])
                        and getattr(modules[defined], exported, None) == value):
                    return f"{defined}.{exported}"
        return here
    if _assigns(module, name):
        return here
    for other_name, other in modules.items():
        for candidate in public_names(other):
            same_name = candidate == name
            if ((same_name or not isinstance(value, _SCALARS))
                    and getattr(other, candidate, None) is value and _assigns(other, candidate)):
                return f"{other_name}.{candidate}"
    return here


def _import_all() -> dict[str, ModuleType]:
    # Under autodoc's stand-ins for the extras that are not installed, as autodoc imports
    # them: without [train], tienlen.rl.sb3 cannot import stable_baselines3.
    from sphinx.ext.autodoc.mock import mock

    with mock(autodoc_mock_imports):
        return {name: importlib.import_module(name) for name in public_modules()}


# --- the API pages ----------------------------------------------------------------------

def write_api_pages() -> None:
    """docs/_api/<module>.rst for each public module: its own names in full, and a line
    pointing to the home of each name it re-exports."""
    modules = _import_all()
    if API.exists():
        shutil.rmtree(API)
    API.mkdir()
    for name, module in modules.items():
        own, elsewhere = [], []
        for member in public_names(module):
            if inspect.ismodule(getattr(module, member)):     # a submodule has its own page
                continue
            entry = target(module, member, modules)
            if entry == f"{name}.{member}":
                own.append(member)
            else:
                elsewhere.append((member, entry))
        lines = [name, "=" * len(name), "", f".. automodule:: {name}"]
        if name in NATIVE:
            lines += _native_members(module, own)
        elif own:
            lines += ["   :members: " + ", ".join(own), "   :undoc-members:"]
            bare = _bare_record_fields(module, own)
            if bare:
                lines.append("   :exclude-members: " + ", ".join(bare))
        else:
            lines.append("   :no-members:")
        if elsewhere:
            links = ", ".join(f":py:obj:`{m} <{entry}>`" if entry.endswith(f".{m}")
                              else f"``{m}`` (:py:obj:`{entry}`)" for m, entry in elsewhere)
            lines += ["", f"Also exported here: {links}."]
        (API / f"{name}.rst").write_text("\n".join(lines) + "\n", encoding="utf-8")


def _bare_record_fields(module: ModuleType, own: list[str]) -> list[str]:
    """The fields of the module's records (dataclasses, NamedTuples) that have no comment of
    their own, left out of the page: the record's signature names each one already, and an
    entry with nothing under it is noise. (autodoc's exclude-members reaches every class of
    the page, so a name is left out only if no class of the page documents it.)"""
    import dataclasses

    from sphinx.pycode import ModuleAnalyzer

    try:
        docs = ModuleAnalyzer.for_module(module.__name__).find_attr_docs()
    except Exception:       # no source to read (a compiled module): nothing left out
        return []
    documented = {name for (_cls, name), text in docs.items() if "".join(text).strip()}
    fields: set[str] = set()
    for name in own:
        value = getattr(module, name, None)
        if not inspect.isclass(value):
            continue
        if dataclasses.is_dataclass(value):
            fields |= {f.name for f in dataclasses.fields(value)}
        elif issubclass(value, tuple) and hasattr(value, "_fields"):
            fields |= set(value._fields)
    for name in own:            # any class of the page documenting the name keeps it
        value = getattr(module, name, None)
        if inspect.isclass(value):
            documented |= {n for n, v in vars(value).items() if inspect.getdoc(v)
                           and not (inspect.getdoc(v) or "").startswith("Alias for field")
                           and type(v).__name__ not in ("_tuplegetter", "member_descriptor")
                           and not isinstance(v, (int, float, str, bytes, tuple, type(None)))}
    return sorted(fields - documented)


def _native_members(module: ModuleType, names: list[str]) -> list[str]:
    """A native core's functions and classes by autodoc (their docstrings carry their
    signatures: embedsignature=True), and its constants as data entries with their values
    (a compiled module has no source for autodoc to read a constant's comment from)."""
    code = [n for n in names if callable(getattr(module, n))]
    data = [n for n in names if n not in code]
    lines = ["   :members: " + ", ".join(code), "   :imported-members:", "   :undoc-members:", ""]
    for n in data:
        value = getattr(module, n)
        shown = repr(value) if isinstance(value, _SCALARS) or len(repr(value)) <= 60 \
            else f"<{type(value).__name__} of {len(value)}>"
        lines += [f".. py:data:: {n}", f"   :type: {type(value).__name__}",
                  f"   :value: {shown}", ""]
        said = _stub_comments(NATIVE[module.__name__]).get(n)
        if said:
            lines += [f"   {said}", ""]
    return lines


def _stub_comments(native: str) -> dict[str, str]:
    """Each constant of a native core's stub (tienlen/_core.pyi, _guandan.pyi) with the
    comment above its group (``# Rule flags.``) or beside it: a compiled module has no source
    for autodoc to read a constant's comment from, and the stub states every one."""
    stub = Path(tienlen.__file__).parent / f"{native.rsplit('.', 1)[1]}.pyi"
    said: dict[str, str] = {}
    comment: list[str] = []
    for line in stub.read_text(encoding="utf-8").splitlines():
        if line.startswith("# ") and "-----" not in line:
            comment.append(line[2:].strip())
        elif line.startswith("#") or line.startswith("---"):
            comment = []
        elif re.match(r"[A-Z][A-Z0-9_]*\s*:", line):
            name = re.match(r"[A-Z][A-Z0-9_]*", line).group(0)  # type: ignore[union-attr]
            beside = line.split("#", 1)[1].strip() if "#" in line else ""
            said[name] = beside or " ".join(comment)
        elif not line.strip():
            comment = []
    return said


def check_every_public_name(app: Any, env: Any) -> None:
    """Every public name of every public module has an entry in the site: a warning
    (an error under -W) for each one that does not."""
    from sphinx.util import logging

    log = logging.getLogger("tienlen.docs")
    documented = set(env.get_domain("py").objects)
    modules = _import_all()
    for name, module in modules.items():
        if name not in documented:
            log.warning(f"public module {name} has no page in the API reference")
        for member in public_names(module):
            entry = target(module, member, modules)
            if entry not in documented:
                log.warning(f"{name}.{member} is public but has no entry in the API reference "
                            f"(looked for {entry})")


def _nearest_python_domain() -> type:
    """Sphinx's Python domain, resolving a short name that both games define (``Cards``,
    ``Bot``, ``Game``) to the one nearest the page that names it: in tienlen.games.guandan.game,
    ``Cards`` is tienlen.games.guandan.cards.Cards. (Unchanged, Sphinx warns that the name is
    ambiguous and links the first.)"""
    from sphinx.domains.python import PythonDomain

    def shared(a: str, b: str) -> int:
        n = 0
        for x, y in zip(a.split("."), b.split(".")):
            if x != y:
                break
            n += 1
        return n

    class NearestPythonDomain(PythonDomain):  # type: ignore[misc]
        def find_obj(self, env: Any, modname: str | None, classname: str | None, name: str,
                     type: str | None, searchmode: int = 0) -> list[tuple[str, Any]]:
            matches = super().find_obj(env, modname, classname, name, type, searchmode)
            if len(matches) > 1 and modname:
                best = max(shared(modname, full) for full, _ in matches)
                matches = [(full, obj) for full, obj in matches if shared(modname, full) == best]
            if len(matches) > 1 and modname:
                # still a tie (tienlen.tui.play naming Bot): the game of the page, Guandan
                # for a module named for it, else Tiến Lên, the package's default game
                guandan = any(part.startswith("guandan") for part in modname.split("."))
                matches = [(full, obj) for full, obj in matches
                           if (".guandan." in full) == guandan] or matches
            return matches

    return NearestPythonDomain


def _keep_given_signatures() -> None:
    """autodoc_preserve_defaults reads a function's default values from its source; the
    game-named RL env classes' ``__init__`` carry a signature given to them
    (``tienlen.rl.games.bind_signature``) whose source is a generic ``*args`` function, so
    their defaults are shown as the values they are rather than looked up in that source.
    (Sphinx 9 calls the reader directly, not through an event: it is wrapped in place.)"""
    try:
        from sphinx.ext.autodoc._dynamic import _signatures
    except ImportError:       # another Sphinx: its own layout, no wrapping
        return
    original = _signatures.update_default_value
    if getattr(original, "keeps_given_signatures", False):
        return

    def update_default_value(obj: Any, bound_method: bool) -> None:
        if getattr(obj, "__signature__", None) is None:
            original(obj, bound_method)

    update_default_value.keeps_given_signatures = True  # type: ignore[attr-defined]
    _signatures.update_default_value = update_default_value


def _owner_of(name: str) -> Any:
    """The class a dotted member name (``pkg.mod.Class.member``) belongs to, or None."""
    module_name, _, rest = name.rpartition(".")
    parts = name.split(".")
    for cut in range(len(parts) - 1, 0, -1):
        try:
            obj: Any = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        for part in parts[cut:-1]:
            obj = getattr(obj, part, None)
        return obj if inspect.isclass(obj) else None
    return None


def _docstring_from_our_bases(app: Any, what: str, name: str, obj: Any, options: Any,
                              lines: list[str]) -> None:
    """A method or property of ours with no docstring of its own says what the same member
    of the package's base class or protocol says (a board's ``parse`` is the Board
    protocol's): autodoc_inherit_docstrings stays off for other libraries' bases
    (Gymnasium's docstrings describe their contract in their markup, not ours)."""
    if lines or what not in ("method", "attribute", "property"):
        return
    owner = _owner_of(name)
    if owner is None:
        return
    member = name.rsplit(".", 1)[1]
    for base in [*owner.__mro__[1:], *_protocols_of(owner)]:
        if not getattr(base, "__module__", "").startswith("tienlen"):
            continue
        doc = inspect.getdoc(base.__dict__.get(member)) if member in base.__dict__ else None
        if doc:
            lines.extend(doc.splitlines())
            return


def _public_members(cls: type) -> set[str]:
    return {n for n in vars(cls) if not n.startswith("_")}


def _protocols_of(cls: type) -> list[type]:
    """The package's protocols (typing.Protocol classes: the table's Board, State, ...)
    that ``cls`` implements without naming them as a base: it has most of their members."""
    import sys

    found = []
    mine = {n for klass in cls.__mro__ for n in vars(klass)}
    for module_name, module in list(sys.modules.items()):
        if not module_name.startswith("tienlen.") or module is None:
            continue
        for value in list(vars(module).values()):
            if (inspect.isclass(value) and getattr(value, "_is_protocol", False)
                    and value.__module__ == module_name and value is not cls):
                wanted = _public_members(value)
                if wanted and len(wanted & mine) >= 0.6 * len(wanted):
                    found.append(value)
    return found


def _fields_in_the_signature(app: Any, what: str, name: str, obj: Any, skip: bool,
                             options: Any) -> bool | None:
    """An undocumented field of a record (a NamedTuple's "Alias for field number 0", a
    dataclass field) is left out: the class's signature above already names it."""
    if skip or what != "class":
        return None
    doc = getattr(obj, "__doc__", None) or ""
    if type(obj).__name__ == "_tuplegetter" and doc.startswith("Alias for field number"):
        return True
    return None


def setup(app: Any) -> None:
    _keep_given_signatures()
    app.connect("autodoc-process-docstring", _docstring_from_our_bases)
    app.connect("autodoc-skip-member", _fields_in_the_signature)
    app.add_domain(_nearest_python_domain(), override=True)
    write_api_pages()
    app.connect("source-read", on_source_read)
    app.connect("env-check-consistency", check_every_public_name)
