"""Sphinx extension of the xiangqi docs: what is generated from the code at build time.

* ``.. xiangqi-cli-help::`` runs the real ``xiangqi --help`` and ``xiangqi COMMAND --help`` for every command
  that ``xiangqi --help`` lists, and includes their output;
* ``.. c-header:: csrc/xq.h`` renders a public C header's documented declarations (:mod:`c_header`) in Sphinx's
  C domain;
* the coverage check: every name in the ``__all__`` of every public module of :mod:`xiangqi` (found by walking the
  package, so a new module is checked without any configuration) must be documented in the reference, and every
  public header ``csrc/xq*.h`` must be rendered. A miss is a warning, so ``sphinx-build -W`` fails.
"""

from __future__ import annotations

import importlib
import inspect
import os
import pkgutil
import re
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import Any, Dict, FrozenSet, List, Optional, Set, Tuple

from docutils import nodes
from docutils.statemachine import StringList
from sphinx.application import Sphinx
from sphinx.environment import BuildEnvironment
from sphinx.util import logging
from sphinx.util.docutils import SphinxDirective
from sphinx.util.nodes import nested_parse_with_titles

import c_header

logger = logging.getLogger(__name__)

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = "xiangqi"


# --------------------------------------------------------------------------- command-line help


def run_cli(*args: str) -> str:
    """The standard output of ``python -m xiangqi ARGS`` (exit status 0 required), at a fixed width."""
    env = dict(os.environ, COLUMNS="100", PYTHONIOENCODING="utf-8")
    proc = subprocess.run([sys.executable, "-m", PACKAGE, *args], capture_output=True, text=True, env=env,
                          cwd=ROOT, timeout=120)
    if proc.returncode != 0:
        raise RuntimeError(f"xiangqi {' '.join(args)} exited with {proc.returncode}: {proc.stderr.strip()}")
    return proc.stdout


def cli_commands(main_help: str) -> List[str]:
    """The command names of the ``commands:`` section of ``xiangqi --help``."""
    lines = main_help.splitlines()
    try:
        start = lines.index("commands:") + 1
    except ValueError:
        raise RuntimeError("`xiangqi --help` has no 'commands:' section") from None
    names = []
    for line in lines[start:]:
        m = re.match(r"  (\S+)\s", line)
        if not m:
            break
        names.append(m.group(1))
    if not names:
        raise RuntimeError("`xiangqi --help` lists no commands")
    return names


def _literal(text: str) -> List[str]:
    return ["::", ""] + ["   " + line if line.strip() else "" for line in text.rstrip().splitlines()] + [""]


class CliHelp(SphinxDirective):
    """``xiangqi --help``, then a section per command with its ``--help``."""

    has_content = False

    def run(self) -> List[nodes.Node]:
        try:
            main_help = run_cli("--help")
            commands = cli_commands(main_help)
            helps = [(c, run_cli(c, "--help")) for c in commands]
        except (RuntimeError, subprocess.SubprocessError) as exc:
            raise self.error(str(exc)) from None
        self.env.note_dependency(str(ROOT / "xiangqi" / "cli.py"))
        rst = ["``xiangqi --help``:", ""] + _literal(main_help)
        for name, text in helps:
            title = f"xiangqi {name}"
            rst += [f".. _cli-{name}:", "", title, "-" * len(title), ""] + _literal(text)
        return _parse(self, rst)


def _parse(directive: SphinxDirective, rst: List[str]) -> List[nodes.Node]:
    node = nodes.section() if any(line.startswith("---") for line in rst) else nodes.container()
    source = directive.get_source_info()[0] or "<generated>"
    nested_parse_with_titles(directive.state, StringList(rst, source=source), node)
    return list(node.children)


# --------------------------------------------------------------------------- C headers


class CHeader(SphinxDirective):
    """The documented declarations of one public header (path relative to the repository)."""

    required_arguments = 1
    has_content = False

    def run(self) -> List[nodes.Node]:
        path = ROOT / self.arguments[0]
        try:
            headers = {p.name: c_header.parse(p) for p in public_headers()}
            if path.name not in headers:
                raise c_header.HeaderError(f"{self.arguments[0]} is not a public header")
            rst = c_header.render(headers[path.name], known=c_header.names(headers.values()))
        except (OSError, c_header.HeaderError) as exc:
            raise self.error(str(exc)) from None
        for p in public_headers():
            self.env.note_dependency(str(p))
        _rendered_headers(self.env).add(path.name)
        return _parse(self, rst)


def public_headers() -> List[Path]:
    """``csrc/xq*.h`` without the cffi mirrors (``*_cdef.h``) and the internal header."""
    return sorted(p for p in (ROOT / "csrc").glob("xq*.h")
                  if not p.stem.endswith("_cdef") and p.stem != "xq_internal")


def _rendered_headers(env: BuildEnvironment) -> Set[str]:
    if not hasattr(env, "xq_rendered_headers"):
        env.xq_rendered_headers = set()  # type: ignore[attr-defined]
    return env.xq_rendered_headers  # type: ignore[attr-defined,no-any-return]


# --------------------------------------------------------------------------- coverage of __all__


def public_modules() -> List[ModuleType]:
    """The package and every module of it whose name has no leading underscore."""
    pkg = importlib.import_module(PACKAGE)
    mods = [pkg]
    for info in pkgutil.iter_modules(pkg.__path__):
        if not info.name.startswith("_"):
            mods.append(importlib.import_module(f"{PACKAGE}.{info.name}"))
    return mods


def undocumented(documented: Set[str]) -> List[Tuple[str, str]]:
    """(module, name) of each ``__all__`` name that the reference does not document.

    A name counts as documented when ``module.name`` is, or when another public module that the reference
    documents exports the same object under the same name (``xiangqi.board.Board`` is ``xiangqi.Board``).
    """
    mods = public_modules()
    missing = []
    for mod in mods:
        names = getattr(mod, "__all__", None)
        if names is None:
            missing.append((mod.__name__, "__all__"))
            continue
        for name in names:
            if f"{mod.__name__}.{name}" in documented:
                continue
            obj = getattr(mod, name)
            if any(f"{other.__name__}.{name}" in documented and getattr(other, name, missing) is obj
                   for other in mods if other is not mod):
                continue
            missing.append((mod.__name__, name))
    return missing


def check_coverage(app: Sphinx, env: BuildEnvironment) -> None:
    documented = set(env.get_domain("py").objects)  # type: ignore[attr-defined]
    for mod, name in undocumented(documented):
        if name == "__all__":
            logger.warning("public module %s has no __all__", mod, type="xqdocs", subtype="coverage")
        else:
            logger.warning("%s.%s is in __all__ but not documented in the reference (a docstring or #: comment "
                           "and a page with '.. automodule:: %s')", mod, name, mod,
                           type="xqdocs", subtype="coverage")
    rendered = _rendered_headers(env)
    for header in public_headers():
        if header.name not in rendered:
            logger.warning("public C header csrc/%s is not rendered (add '.. c-header:: csrc/%s' to "
                           "reference/capi.rst)", header.name, header.name, type="xqdocs", subtype="coverage")


# --------------------------------------------------------------------------- examples and Raises sections


#: Public modules not held to :func:`docstring_gaps` (none: every module is). A module would leave this set when every function and class in
#: its ``__all__`` has an example and every callable that raises says so in a ``Raises:`` section; the set only
#: shrinks, and a module named here that no longer needs it is reported (so the exemption cannot outlive its use).
DOCSTRING_EXEMPT: FrozenSet[str] = frozenset()

#: Raised for a bug in the library or a subclass's duty, not for bad input: no ``Raises:`` entry needed.
_NOT_INPUT_ERRORS = ("InternalError", "NotImplementedError", "AssertionError")


def docstring_gaps(exempt: FrozenSet[str] = DOCSTRING_EXEMPT) -> List[Tuple[str, str]]:
    """(dotted name, what is missing) for the public API of the modules not in ``exempt``.

    * every function and class in a public module's ``__all__`` (defined in the package; type aliases and
      constants are documented by ``#:`` comments instead) has a doctest example (``>>>``) in its own docstring;
    * every such function, and every public method, property and constructor (``__init__``, ``__post_init__``,
      ``__new__``) of such a class, whose own body raises (``raise X(...)``, found with :mod:`ast`; nested
      functions, bare re-raises and raises that a surrounding ``try`` catches do not count) has a line
      ``Raises:`` in its docstring (a constructor's may be in its class's), and the indented lines under it
      name every exception class it raises directly (a private class, by itself or a public base), except
      those of ``_NOT_INPUT_ERRORS``.

    A module in ``exempt`` that has no gap left is reported too, so that the exemption is removed.
    """
    import ast
    import builtins
    import textwrap

    def raises_section(doc: Optional[str]) -> Optional[str]:
        lines = inspect.cleandoc(doc or "").splitlines()
        for i, line in enumerate(lines):
            if line.strip() == "Raises:":
                indent = len(line) - len(line.lstrip())
                body = []
                for rest in lines[i + 1:]:
                    if rest.strip() and len(rest) - len(rest.lstrip()) <= indent:
                        break
                    body.append(rest)
                return "\n".join(body)
        return None

    def raised(func: Any) -> Optional[Dict[str, Set[str]]]:
        """The exception classes ``func`` raises in its own body and lets out, each with the names that may
        stand for it in a ``Raises:`` section: its own, and for a private class (``_Usage``) its public bases.
        ``None``: it raises nothing."""
        try:
            tree = ast.parse(textwrap.dedent(inspect.getsource(func)))
        except (OSError, TypeError, SyntaxError):
            return None  # no Python source (a generated dataclass method, a C function)
        scope = getattr(func, "__globals__", {})

        def lookup(node: ast.AST) -> Any:
            name = node.attr if isinstance(node, ast.Attribute) else node.id if isinstance(node, ast.Name) else ""
            return scope.get(name, getattr(builtins, name, None))

        def caught_by(handler: ast.ExceptHandler) -> List[type]:
            kinds = handler.type.elts if isinstance(handler.type, ast.Tuple) else [handler.type]
            return [BaseException if k is None else lookup(k) for k in kinds
                    if k is None or isinstance(lookup(k), type)]

        found: Optional[Dict[str, Set[str]]] = None
        todo: List[Tuple[ast.AST, Tuple[type, ...]]] = [(n, ()) for n in ast.iter_child_nodes(tree.body[0])]
        while todo:
            node, caught = todo.pop()
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
                continue
            if isinstance(node, ast.Try):  # a raise in the body that a handler catches does not get out
                inner = caught + tuple(c for h in node.handlers for c in caught_by(h))
                todo.extend((n, inner) for n in node.body)
                todo.extend((n, caught) for part in (node.handlers, node.orelse, node.finalbody) for n in part)
                continue
            todo.extend((n, caught) for n in ast.iter_child_nodes(node))
            if not isinstance(node, ast.Raise) or node.exc is None:
                continue
            exc = node.exc.func if isinstance(node.exc, ast.Call) else node.exc
            value = lookup(exc)
            if isinstance(value, type) and issubclass(value, caught or ()):
                continue
            found = found if found is not None else {}
            if isinstance(value, type) and issubclass(value, BaseException) \
                    and value.__name__ not in _NOT_INPUT_ERRORS:
                names = {value.__name__}
                if value.__name__.startswith("_"):
                    names |= {c.__name__ for c in value.__mro__[1:]
                              if not c.__name__.startswith("_") and c not in (Exception, BaseException, object)}
                found[value.__name__] = names
        return found

    def check_raises(qualname: str, func: Any, *docs: Optional[str]) -> None:
        names = raised(func)
        if names is None:
            return
        sections = [s for s in map(raises_section, docs) if s is not None]
        if not sections:
            gaps.append((qualname, "raises " + (", ".join(sorted(names)) or "an error") +
                         " but its docstring has no 'Raises:' section"))
            return
        for name in sorted(names):
            if not any(re.search(rf"\b{re.escape(alias)}\b", s) for s in sections for alias in names[name]):
                gaps.append((qualname, f"raises {name} but its 'Raises:' section does not name it"))

    gaps: List[Tuple[str, str]] = []
    seen: Set[int] = set()
    homes: Dict[str, str] = {}  # dotted name of a gap -> the module that defines it
    for mod in public_modules():
        for name in getattr(mod, "__all__", ()):
            obj = getattr(mod, name)
            home = getattr(obj, "__module__", None) or ""
            if not (inspect.isfunction(obj) or inspect.isclass(obj)) or not home.startswith(PACKAGE):
                continue
            if id(obj) in seen:
                continue
            seen.add(id(obj))
            qualname = f"{home}.{obj.__qualname__}"
            homes[qualname] = home
            if ">>>" not in (obj.__doc__ or ""):
                gaps.append((qualname, "has no example (>>>) in its docstring"))
            if inspect.isfunction(obj):
                check_raises(qualname, obj, obj.__doc__)
                continue
            for attr, member in vars(obj).items():
                if attr.startswith("_") and attr not in ("__init__", "__post_init__", "__new__"):
                    continue
                if isinstance(member, (staticmethod, classmethod)):
                    member = member.__func__
                funcs = [f for f in (member.fget, member.fset) if f] if isinstance(member, property) else [member]
                for func in funcs:  # defined in this class (not Enum's __new__, say)
                    if inspect.isfunction(func) and func.__qualname__.startswith(obj.__qualname__ + "."):
                        homes[f"{qualname}.{attr}"] = home
                        docs = (func.__doc__, obj.__doc__) if attr.startswith("_") else (func.__doc__,)
                        check_raises(f"{qualname}.{attr}", func, *docs)
            # A constructor inherited from a class of the package whose docstring lists what it raises: the
            # reference shows this class's own signature and docstring, so that one lists it too (``Board("x")``).
            base = next((c for c in obj.__mro__[1:] if "__init__" in vars(c)), object)
            if "__init__" not in vars(obj) and base.__module__.startswith(PACKAGE) \
                    and raises_section(base.__doc__) is not None and raises_section(obj.__doc__) is None:
                homes[f"{qualname}.__init__"] = home
                gaps.append((f"{qualname}.__init__", f"is {base.__qualname__}'s, whose docstring has a 'Raises:' "
                             "section, but this class's docstring has none"))
    held = [(q, m) for q, m in gaps if homes[q] not in exempt]
    stale = sorted(exempt - {homes[q] for q, _ in gaps})
    return held + [(mod, "is in DOCSTRING_EXEMPT but has no gap left: remove it from the set") for mod in stale]


def raises_as_list(app: Sphinx, what: str, name: str, obj: object, options: Any, lines: List[str]) -> None:
    """Shows each entry of a ``Raises:`` section as an item of a list (reST would run the entries together into
    one paragraph): an entry is a line at the section's first indentation, its more indented lines continue it.
    """
    i = 0
    while i < len(lines):
        if lines[i].strip() != "Raises:":
            i += 1
            continue
        head = len(lines[i]) - len(lines[i].lstrip())
        base = None
        i += 1
        first = next((line for line in lines[i:] if line.strip()), "")
        if first.lstrip().startswith(("* ", "- ")):
            continue  # written as a list already
        while i < len(lines) and (not lines[i].strip() or len(lines[i]) - len(lines[i].lstrip()) > head):
            line = lines[i]
            if line.strip():
                indent = len(line) - len(line.lstrip())
                base = indent if base is None else base
                # an entry becomes an item; its continuation lines line up with the item's text
                lines[i] = " " * base + ("* " if indent == base else "  ") + line.lstrip()
            i += 1


def check_docstrings(app: Sphinx, env: BuildEnvironment) -> None:
    """Warns (so ``sphinx-build -W`` fails) for each of :func:`docstring_gaps`."""
    for name, problem in docstring_gaps():
        logger.warning("%s %s", name, problem, type="xqdocs", subtype="docstrings")


# --------------------------------------------------------------------------- short cross-references


def _object(fullname: str) -> object:
    """The Python object a documented dotted name stands for (``None`` if it cannot be found)."""
    parts = fullname.split(".")
    for i in range(len(parts), 0, -1):
        try:
            obj: object = importlib.import_module(".".join(parts[:i]))
        except ImportError:
            continue
        try:
            for attr in parts[i:]:
                obj = getattr(obj, attr)
        except AttributeError:
            return None
        return obj
    return None


def _has_attr(owner: object, attr: str) -> bool:
    """Whether ``owner`` (a module or class) has ``attr``: a class attribute, an annotated field, or an instance
    attribute its methods assign (``self.attr = ...``)."""
    if hasattr(owner, attr):
        return True
    if not isinstance(owner, type):
        return False
    for cls in owner.__mro__:
        if attr in getattr(cls, "__annotations__", {}):
            return True
        try:
            if re.search(rf"\bself\.{re.escape(attr)}\s*[:=]", inspect.getsource(cls)):
                return True
        except (OSError, TypeError):
            continue
    return False


def _find(domain: Any, target: str, module: str) -> List[str]:
    """Documented names that ``target`` can mean: itself, or names ending in ``.target`` (the current module's
    first), as long as they all stand for one object."""
    if target in domain.objects:
        return [target]
    found = sorted((name for name in domain.objects if name.endswith("." + target)),
                   key=lambda name: (name.count("."), name))
    if len(found) > 1:
        local = [name for name in found if module and name.startswith(module + ".")]
        objs = [_object(name) for name in found]
        if local:
            found = local
        elif None in objs or len({id(o) for o in objs}) > 1:
            return []
    return found


def resolve_short(app: Sphinx, env: BuildEnvironment, node: Any, contnode: Any) -> Any:
    """Resolves a Python reference such as ``:class:`IllegalMoveError``` or ``:meth:`Board.push``` written in a
    module that does not define that name, when the documented names ending in it all stand for one object.

    The package's docstrings name things as the reader of the module sees them. An attribute without an entry of
    its own (a field that its class's docstring describes, a module constant outside ``__all__``) links to the
    documented class or module that has it. A name that exists nowhere, or that stands for two different objects,
    stays unresolved, so the build still warns.
    """
    if node.get("refdomain") != "py":
        return None
    target = node["reftarget"].lstrip(".~")
    module = node.get("py:module") or ""
    domain = env.get_domain("py")
    found = _find(domain, target, module)
    if not found:
        owner_name, _, attr = target.rpartition(".")
        owners = _find(domain, owner_name, module) if owner_name else ([module] if module in domain.objects else [])
        if not owners or not _has_attr(_object(owners[0]), attr):
            return None
        found = owners
        kind = domain.objects[owners[0]].objtype
        reftype = "mod" if kind == "module" else "obj"
        return domain.resolve_xref(env, node.get("refdoc", ""), app.builder, reftype, found[0], node, contnode)
    return domain.resolve_xref(env, node.get("refdoc", ""), app.builder, node["reftype"], found[0], node, contnode)


def dataclass_factories(app: Sphinx, what: str, name: str, obj: object, options: Any, signature: Any,
                        return_annotation: Any) -> Any:
    """A dataclass field with a ``default_factory`` shows ``<factory>`` as its default, which is no Python and
    breaks the signature's parsing; show ``...`` instead (the class's docstring says what the default is)."""
    if signature and "<factory>" in signature:
        return signature.replace("<factory>", "..."), return_annotation
    return None


class Exports(SphinxDirective):
    """A table of the names ``xiangqi`` exports (its ``__all__``), each linked to where it is documented."""

    has_content = False

    def run(self) -> List[nodes.Node]:
        pkg = importlib.import_module(PACKAGE)
        rows = [".. list-table::", "   :header-rows: 1", "", "   * - name", "     - documented in"]
        for name in pkg.__all__:
            obj = getattr(pkg, name)
            home = getattr(obj, "__module__", None) if callable(obj) else None
            if home is None or home.startswith(f"{PACKAGE}._") or not home.startswith(PACKAGE):
                home = next((m.__name__ for m in public_modules()[1:]
                             if name in getattr(m, "__all__", ()) and getattr(m, name) is obj), PACKAGE)
            rows += [f"   * - :obj:`~{home}.{name}`", f"     - :mod:`{home}`"]
        return _parse(self, rows)


def setup(app: Sphinx) -> Dict[str, Any]:
    app.add_directive("xiangqi-exports", Exports)
    app.add_directive("xiangqi-cli-help", CliHelp)
    app.add_directive("c-header", CHeader)
    app.connect("env-check-consistency", check_coverage)
    app.connect("env-check-consistency", check_docstrings)
    app.connect("autodoc-process-docstring", raises_as_list)
    app.connect("missing-reference", resolve_short)
    app.connect("autodoc-process-signature", dataclass_factories)
    return {"version": "1", "parallel_read_safe": False, "env_version": 1}
