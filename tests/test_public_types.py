"""No ``Any`` in the public signatures of the core modules: user code checked by mypy --strict sees real types."""

from __future__ import annotations

import inspect
import re
import typing
from types import ModuleType
from typing import Iterator, Tuple

import pytest

from xiangqi import (
    batch, board, core, dhtmlxq, facts, game, notation, pgn, pgn_writer, position, rules, rulesets, source, tags, xqf,
)

_ANY = re.compile(r"\bAny\b")


def _public(module: ModuleType) -> Iterator[Tuple[str, object]]:
    for name, obj in vars(module).items():
        if name.startswith("_") or getattr(obj, "__module__", None) != module.__name__:
            continue
        if inspect.isclass(obj):
            for attr, member in vars(obj).items():
                if attr.startswith("_") and attr not in ("__init__", "__getstate__", "__setstate__"):
                    continue
                func = member.fget if isinstance(member, property) else getattr(member, "__func__", member)
                if callable(func):
                    yield f"{name}.{attr}", func
        elif callable(obj):
            yield name, obj


@pytest.mark.parametrize("module", [board, position, core, notation, rules, rulesets, facts, batch, pgn, pgn_writer,
                                    game, tags, source, xqf, dhtmlxq], ids=lambda m: m.__name__)
def test_no_any_in_public_signatures(module: ModuleType) -> None:
    # Public type aliases (batch.Positions) are checked through their expansion.
    aliases = {n: repr(v) for n, v in vars(module).items() if not n.startswith("_")
               and typing.get_origin(v) is not None}
    offenders = []
    for name, func in _public(module):
        for param, note in getattr(func, "__annotations__", {}).items():
            text = str(note)
            expanded = text + "".join(a for n, a in aliases.items() if re.search(rf"\b{n}\b", text))
            # numpy's own NDArray alias is ndarray[Any, dtype[...]]: its shape parameter is not ours.
            expanded = re.sub(r"numpy\.ndarray\[(?:tuple\[typing\.Any, \.\.\.\]|typing\.Any), ", "numpy.ndarray[",
                              expanded)
            if _ANY.search(expanded):
                offenders.append(f"{name}({param}: {text})")
    assert not offenders


def test_mypy_strict_on_a_user_script_against_the_installed_package() -> None:
    """The check ``.ci/run`` runs (``tests/typing/check.py``): user code type-checks against the package as
    installed, and mypy reports the typos it should."""
    import importlib.util
    import os
    import subprocess
    import sys
    import tempfile
    from pathlib import Path

    pytest.importorskip("mypy")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    with tempfile.TemporaryDirectory() as outside:
        found = subprocess.run([sys.executable, "-c", "import xiangqi"], cwd=outside, env=env,
                               capture_output=True).returncode == 0
    if not found:
        pytest.skip("xiangqi is not installed in this environment (pip install -e '.[test]' "
                    "--config-settings editable_mode=compat, as the README says)")
    spec = importlib.util.spec_from_file_location("typing_check", Path(__file__).parent / "typing" / "check.py")
    assert spec is not None and spec.loader is not None
    check = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(check)
    assert check.problems() == []
