"""Sphinx directive ``.. xiangqi-html-report:: tests/data/sample``: the real ``xiangqi validate --html`` report.

The build runs ``python -m xiangqi validate PATH --html FILE --quiet`` on a path of the checkout, writes the report
into the built site (``_reports/NAME.html``, NAME from ``:name:``, default the path's last part) and shows it on
the page in a frame, with a link to open it alone. Exit status 0 (all valid) and 1 (some invalid) both make a
report; any other status, or no file written, fails the build with the program's message.

Options: ``:name:`` the file name in ``_reports``; ``:height:`` of the frame in pixels (default 720).
"""

from __future__ import annotations

import html
import os
import subprocess
import sys
from pathlib import Path
from typing import Any, Dict, List

from docutils import nodes
from docutils.parsers.rst import directives
from sphinx.application import Sphinx
from sphinx.util.docutils import SphinxDirective

ROOT = Path(__file__).resolve().parents[2]
FOLDER = "_reports"


class HtmlReport(SphinxDirective):
    required_arguments = 1
    option_spec = {"name": directives.unchanged, "height": directives.positive_int}

    def run(self) -> List[nodes.Node]:
        source = self.arguments[0]
        if not (ROOT / source).exists():
            raise self.error(f"xiangqi-html-report: {source} does not exist in the checkout")
        name = self.options.get("name") or Path(source).name
        out = Path(self.env.app.outdir) / FOLDER / f"{name}.html"
        out.parent.mkdir(parents=True, exist_ok=True)
        env = dict(os.environ, PYTHONIOENCODING="utf-8")
        proc = subprocess.run([sys.executable, "-m", "xiangqi", "validate", source, "--html", str(out), "--quiet"],
                              capture_output=True, text=True, env=env, cwd=ROOT, timeout=300)
        if proc.returncode not in (0, 1) or not out.exists():
            raise self.error(f"xiangqi validate {source} --html exited with {proc.returncode}: "
                             f"{proc.stderr.strip()}")
        self.env.note_dependency(str(ROOT / source))
        url = html.escape("../" * self.env.docname.count("/") + f"{FOLDER}/{name}.html")
        height = self.options.get("height", 720)
        frame = (f'<p><a href="{url}">Open the report on its own page</a></p>'
                 f'<iframe class="xiangqi-report" src="{url}" title="validation report of {html.escape(source)}" '
                 f'style="width: 100%; height: {height}px; border: 1px solid #ccc"></iframe>')
        return [nodes.raw("", frame, format="html")]


def setup(app: Sphinx) -> Dict[str, Any]:
    app.add_directive("xiangqi-html-report", HtmlReport)
    return {"version": "1", "parallel_read_safe": True}
