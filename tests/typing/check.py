"""``mypy --strict`` on a user's scripts, against the package as installed (not the checkout).

The scripts are copied to a temporary folder and checked there, so mypy finds ``xiangqi`` only the way a user's
own project would: through the environment's installed packages (``pip install -e .`` with
``editable_mode=compat``, or a plain ``pip install .``). ``user_script.py`` must check clean and run;
``typos.py`` must get exactly the errors its ``# error: TEXT`` markers name, one per marked line, which proves that
mypy reads the package's types rather than skipping the package.

Run by ``.ci/run`` and by ``tests/test_public_types.py``: ``python tests/typing/check.py``.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Dict, List

HERE = Path(__file__).resolve().parent
_MARK = re.compile(r"#\s*error:\s*(.+?)\s*$")
_ERROR = re.compile(r"^[^:]+:(\d+): error: (.*)$")


def _mypy(folder: str, script: str) -> "subprocess.CompletedProcess[str]":
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "MYPYPATH")}
    return subprocess.run([sys.executable, "-m", "mypy", "--strict", "--no-incremental", "--no-error-summary",
                           "--hide-error-context", script], cwd=folder, env=env, capture_output=True, text=True)


def problems() -> List[str]:
    """What is wrong (empty when both scripts check as they should)."""
    found: List[str] = []
    with tempfile.TemporaryDirectory(prefix="xiangqi-typing-") as folder:
        for name in ("user_script.py", "typos.py"):
            shutil.copy(HERE / name, folder)
        clean = _mypy(folder, "user_script.py")
        if clean.returncode != 0:
            found.append("user_script.py does not check clean:\n" + clean.stdout + clean.stderr)
        env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
        ran = subprocess.run([sys.executable, "user_script.py"], cwd=folder, env=env, capture_output=True, text=True)
        if ran.returncode != 0:
            found.append("user_script.py fails when run:\n" + ran.stderr)
        expected: Dict[int, str] = {}
        for number, line in enumerate((HERE / "typos.py").read_text(encoding="utf-8").splitlines(), 1):
            mark = _MARK.search(line)
            if mark:
                expected[number] = mark.group(1)
        got: Dict[int, List[str]] = {}
        out = _mypy(folder, "typos.py")
        for line in out.stdout.splitlines():
            m = _ERROR.match(line)
            if m:
                got.setdefault(int(m.group(1)), []).append(m.group(2))
        if not got:
            found.append("mypy reports nothing in typos.py (does it see the installed package?):\n"
                         + out.stdout + out.stderr)
        for number, text in expected.items():
            if not any(text in e for e in got.get(number, [])):
                found.append(f"typos.py:{number}: expected an error containing {text!r}, got {got.get(number)}")
        for number in sorted(set(got) - set(expected)):
            found.append(f"typos.py:{number}: unexpected error(s) {got[number]}")
    return found


if __name__ == "__main__":
    wrong = problems()
    for problem in wrong:
        print(problem, file=sys.stderr)
    print("typing: the user scripts check as expected against the installed package" if not wrong
          else f"typing: {len(wrong)} problem(s)")
    sys.exit(1 if wrong else 0)
