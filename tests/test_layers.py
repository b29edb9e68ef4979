"""Imports among the core modules run one way: core → position → notation, rules → board → batch, perft."""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Dict, Set, Tuple

PACKAGE = Path(__file__).resolve().parents[1] / "xiangqi"
#: Each module's layer; a module may import only from lower layers (never from its own or a higher one).
LAYERS = {
    "errors": 0, "core": 1, "outcome": 2, "_ffi": 2, "position": 3, "notation": 4, "rules": 4, "board": 5,
    "perft": 4, "batch": 6, "svg": 4,
}


def _imports(module: str) -> Tuple[Set[str], Set[str]]:
    """The xiangqi modules ``module`` imports at the top level and inside functions or classes."""
    tree = ast.parse((PACKAGE / f"{module}.py").read_text(encoding="utf-8"))
    top: Set[str] = set()
    inner: Set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("xiangqi"):
            names = [f"xiangqi.{a.name}" for a in node.names] if node.module == "xiangqi" else [node.module]
        elif isinstance(node, ast.Import):
            names = [a.name for a in node.names if a.name.startswith("xiangqi")]
        else:
            continue
        (top if node.col_offset == 0 else inner).update(n.split(".")[1] for n in names if "." in n)
    return top, inner


def test_core_modules_import_one_way_at_the_top_level_only() -> None:
    graph: Dict[str, Set[str]] = {}
    for module, layer in LAYERS.items():
        top, inner = _imports(module)
        inner.discard("_core")  # _ffi loads the compiled module inside a try
        assert not inner, f"{module} imports {sorted(inner)} inside a function"
        graph[module] = top & set(LAYERS)
        for dep in graph[module]:
            assert LAYERS[dep] < LAYERS[module], f"{module} (layer {layer}) imports {dep} (layer {LAYERS[dep]})"
