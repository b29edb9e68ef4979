"""Imports among the package's modules run one way, at the top of each module:
core → position → notation, rules → board → records (game, pgn, xqf, dhtmlxq, formats) → tools (validation's
chunks, checking and pools, convert, judge, render, the HTML report, validate, the command line); the engine
client runs scores → engine_types → engine_protocol → xboard → engine (python-chess's ``chess.engine``, whose
names ``engine`` exports), so that a game's ``[%eval]`` reads its scores without the protocols and asyncio.

A function-level import of a package module is how a cycle hides (the board ⇄ notation ⇄ rules cycle was dodged
by dozens of them); the few that have another reason are listed in :data:`LAZY` with it.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path
from typing import Dict, List, Set, Tuple

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "xiangqi"

#: Each module's layer; a module imports at its top only from lower layers (never from its own or a higher one).
#: ``__init__`` is the package itself (``from xiangqi import __version__``), ``_core`` the compiled C core and
#: ``_glyphs`` a package of data.
LAYERS = {
    "errors": 0, "_nested": 0, "_progress": 0, "_glyphs": 0, "_core": 0, "reports": 0,
    "core": 1, "_ffi": 1,
    "outcome": 2, "_reasons": 2, "_encoding": 2, "uci": 2, "match_stats": 2, "scores": 2,
    "position": 3, "source": 3, "rulesets": 3, "facts": 3, "_notation_text": 3,
    "notation": 4, "rules": 4, "perft": 4, "svg": 4, "_cliio": 4,
    "board": 5,
    "__init__": 6, "tags": 6, "batch": 6, "search": 6, "engine_types": 6, "display": 6, "pgn_writer": 6,
    "game": 7, "engine_server": 7, "engine_protocol": 7,
    "_pgn_split": 8, "xboard": 8,
    "pgn": 9, "xqf": 9, "engine": 9,
    "dhtmlxq": 10, "match": 10, "perftree": 10,
    "formats": 11,
    "chunks": 12, "convert": 12, "judge": 12,
    "checking": 13, "report_html": 13, "render": 13,
    "pools": 14,
    "validate": 15,
    "cli": 16, "__main__": 17,
}

#: Function-level imports of package modules that are not cycles dodged, with the reason for each.
LAZY: Dict[Tuple[str, str], str] = {
    ("_ffi", "_core"): "the compiled core, loaded inside a try that explains a missing build",
    ("board", "svg"): "a board is drawn (`_repr_svg_`) only when asked, so `import xiangqi` does not load the SVG "
                      "renderer and its glyph outlines (python-chess imports chess.svg the same way)",
}
#: The command line loads a command's module only when the command runs, so that `xiangqi --help` stays fast.
LAZY_EVERYWHERE = {"cli"}


def _module_of(node: ast.AST) -> List[str]:
    """The package modules an import statement names (``from xiangqi import X`` names X or the package)."""
    if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
        if node.module == "xiangqi":
            return [a.name if a.name in LAYERS else "__init__" for a in node.names]
        if node.module.startswith("xiangqi."):
            return [node.module.split(".")[1]]
    if isinstance(node, ast.ImportFrom) and node.level:
        raise AssertionError(f"relative import at line {node.lineno}: the package imports itself as xiangqi")
    if isinstance(node, ast.Import):
        return [a.name.split(".")[1] if "." in a.name else "__init__" for a in node.names
                if a.name == "xiangqi" or a.name.startswith("xiangqi.")]
    return []


def _type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def imports(module: str) -> Tuple[Set[str], Set[str]]:
    """The package modules ``module`` imports at its top level, and inside functions, classes or blocks (imports
    for type checkers alone, under ``if TYPE_CHECKING:``, count as neither: they never run)."""
    tree = ast.parse(_sources()[module].read_text(encoding="utf-8"))
    top: Set[str] = set()
    inner: Set[str] = set()
    stack: List[Tuple[ast.AST, bool]] = [(n, True) for n in tree.body]
    while stack:
        node, at_top = stack.pop()
        if isinstance(node, ast.If) and _type_checking(node):
            stack.extend((n, at_top) for n in node.orelse)
            continue
        (top if at_top else inner).update(_module_of(node))
        for child in ast.iter_child_nodes(node):
            stack.append((child, False))
    return top, inner


def _sources() -> Dict[str, Path]:
    found = {p.stem: p for p in PACKAGE.glob("*.py")}
    found.update({p.parent.name: p for p in PACKAGE.glob("*/__init__.py")})
    return found


def test_every_module_has_a_layer() -> None:
    modules = set(_sources()) | {"_core"}
    assert modules == set(LAYERS), (sorted(modules - set(LAYERS)), sorted(set(LAYERS) - modules))


def test_modules_import_one_way_at_the_top_level_only() -> None:
    problems = []
    for module, layer in sorted(LAYERS.items()):
        if module == "_core":
            continue  # compiled
        top, inner = imports(module)
        for dep in sorted(top):
            if LAYERS[dep] >= LAYERS[module]:
                problems.append(f"{module} (layer {layer}) imports {dep} (layer {LAYERS[dep]})")
        if module in LAZY_EVERYWHERE:
            continue
        for dep in sorted(inner):
            if (module, dep) not in LAZY:
                problems.append(f"{module} imports {dep} inside a function or block")
    assert problems == []


def test_the_check_finds_a_hidden_cycle(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "board.py").write_text("from xiangqi import notation\n", encoding="utf-8")
    (tmp_path / "notation.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from xiangqi.game import Game\n"
        "def f():\n    from xiangqi.board import Board\n", encoding="utf-8")
    monkeypatch.setattr(sys.modules[__name__], "PACKAGE", tmp_path)
    assert imports("board") == ({"notation"}, set())
    assert imports("notation") == (set(), {"board"})  # the type-only import never runs; the function's does
    monkeypatch.undo()
    for (module, dep), why in LAZY.items():
        assert dep in imports(module)[1] and why, f"LAZY lists {module} -> {dep}, which is no longer lazy"


#: Modules that still call the C core themselves, to move into :mod:`xiangqi._ffi` (the list only shrinks).
C_BOUNDARY_PENDING: Set[str] = set()


def _uses_cffi(path: Path) -> List[str]:
    """The cffi names a module imports from the boundary (``lib``, ``ffi``) or the compiled core itself."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("xiangqi._ffi"):
            found += [a.name for a in node.names if a.name in ("lib", "ffi")]
        if isinstance(node, ast.ImportFrom) and node.module == "xiangqi":
            found += [a.name for a in node.names if a.name == "_core"]
        if isinstance(node, ast.Import):
            found += [a.name for a in node.names if a.name.startswith("xiangqi._core")]
    return found


def test_only_the_c_boundary_touches_cffi() -> None:
    """No module outside :mod:`xiangqi._ffi` imports cffi's ``lib`` or ``ffi`` (or the compiled core)."""
    users = {p.stem for p in PACKAGE.glob("*.py") if _uses_cffi(p)}
    assert users == C_BOUNDARY_PENDING, (sorted(users - C_BOUNDARY_PENDING), sorted(C_BOUNDARY_PENDING - users))
    inside = [p.name for p in (PACKAGE / "_ffi").glob("*.py") if _uses_cffi(p)]
    assert "__init__.py" in inside and "position.py" in inside  # the check sees the imports it looks for


def test_no_module_reads_a_board_c_struct() -> None:
    """The C structs of a board (``_pos``, ``_undo``, ``_movebuf``) are read only inside :mod:`xiangqi._ffi`."""
    readers = sorted(p.stem for p in PACKAGE.glob("*.py")
                     if any(isinstance(n, ast.Attribute) and n.attr in ("_pos", "_undo", "_movebuf")
                            for n in ast.walk(ast.parse(p.read_text(encoding="utf-8")))))
    assert set(readers) <= C_BOUNDARY_PENDING, readers


def _loaded_by(statement: str) -> Set[str]:
    """The package's modules (and ``asyncio``, if it is) loaded by ``statement`` in a new interpreter."""
    import subprocess

    code = (f"import sys\n{statement}\n"
            "print(' '.join(sorted(m for m in sys.modules if m.startswith('xiangqi') or m == 'asyncio')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return set(out.stdout.split())


def test_importing_the_package_loads_neither_pictures_nor_records_engines_nor_validation() -> None:
    """`import xiangqi` loads the board and what it stands on, not the modules a user asks for by name."""
    loaded = _loaded_by("import xiangqi")
    assert "xiangqi.board" in loaded and "xiangqi._ffi" in loaded  # the check sees what is loaded
    heavy = {"svg", "_glyphs", "game", "pgn", "xqf", "dhtmlxq", "formats", "engine", "engine_server", "match",
             "match_stats", "search", "validate", "reports", "chunks", "checking", "pools", "report_html", "convert",
             "judge", "render", "cli", "batch", "display"}
    assert loaded & {f"xiangqi.{m}" for m in heavy} == set()
    drawn = _loaded_by("import xiangqi\nxiangqi.Board()._repr_svg_()")
    assert "xiangqi.svg" in drawn


#: Run in a new interpreter: after `import xiangqi`, each module in turn is imported alone (the modules the one
#: before it loaded are forgotten first) and the modules it loads are printed, one line a module.
_EACH_ALONE = """
import importlib, sys
import xiangqi
base = set(sys.modules)
for name in sys.argv[1:]:
    for m in [m for m in sys.modules if m not in base]:
        del sys.modules[m]
    importlib.import_module("xiangqi." + name)
    print(name, " ".join(m.split(".")[1] for m in sys.modules if m not in base and m.startswith("xiangqi.")))
"""


def test_each_module_alone_loads_no_module_of_its_layer_or_above() -> None:
    """The layers at run time: a module imported alone loads, beyond what `import xiangqi` loads, only modules of
    lower layers (an import hidden from the check of the source, by a string or a call, would load one)."""
    import subprocess

    modules = sorted(m for m in LAYERS if m not in ("_core", "__init__", "__main__"))
    out = subprocess.run([sys.executable, "-c", _EACH_ALONE, *modules], capture_output=True, text=True, check=True)
    problems = []
    seen = set()
    for line in out.stdout.splitlines():
        module, *loaded = line.split()
        seen.add(module)
        for dep in sorted(set(loaded) - {module}):
            if LAYERS[dep] >= LAYERS[module]:
                problems.append(f"{module} (layer {LAYERS[module]}) loads {dep} (layer {LAYERS[dep]})")
    assert seen == set(modules) and problems == []


def test_a_game_reads_its_scores_without_the_engine_protocols() -> None:
    """`GameNode.eval()` needs the scores only: the record modules load neither asyncio nor the engine client."""
    loaded = _loaded_by("import io, xiangqi.pgn\n"
                        "assert xiangqi.pgn.read_game(io.StringIO('1. h2e2 {[%eval 0.35]} *')).next().eval()")
    assert "xiangqi.scores" in loaded and "xiangqi.game" in loaded  # the check sees what is loaded
    heavy = {"engine", "engine_protocol", "engine_types", "xboard"}
    assert loaded & ({f"xiangqi.{m}" for m in heavy} | {"asyncio"}) == set()


#: Private names still used across modules, with the C-level glue they belong to (the list only shrinks).
PRIVATE_PENDING: Dict[Tuple[str, str], str] = {}


def _private_uses(path: Path) -> List[str]:
    """``from xiangqi.m import _name`` and ``m._name`` on a package module ``m`` (private modules themselves,
    such as ``_ffi``, may be imported: they are the package's own)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    modules: Set[str] = set()
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("xiangqi"):
            for a in node.names:
                if node.module == "xiangqi":
                    modules.add(a.asname or a.name)
                elif a.name.startswith("_") and not a.name.startswith("__"):
                    found.append(f"{node.module}.{a.name}")
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in modules \
                and node.attr.startswith("_") and not node.attr.startswith("__"):
            found.append(f"{node.value.id}.{node.attr}")
    return found


def test_no_private_name_crosses_modules() -> None:
    found = {(p.stem, use) for p in PACKAGE.glob("*.py") for use in _private_uses(p)}
    assert found == set(PRIVATE_PENDING), sorted(found ^ set(PRIVATE_PENDING))


def test_the_private_name_check_sees_one(tmp_path: Path) -> None:
    module = tmp_path / "m.py"
    module.write_text("from xiangqi import pgn, _ffi\nfrom xiangqi.game import _x\npgn._y()\n_ffi.lib\n", encoding="utf-8")
    assert sorted(_private_uses(module)) == ["pgn._y", "xiangqi.game._x"]
