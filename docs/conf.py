"""Sphinx configuration of the xiangqi documentation (``sphinx-build -E -W --keep-going -q -b html docs docs/_build/html``)."""

from __future__ import annotations

import glob
import sys
from pathlib import Path

from sphinx.errors import ConfigError

DOCS = Path(__file__).resolve().parent
ROOT = DOCS.parent
sys.path.insert(0, str(DOCS / "_ext"))
sys.path.insert(0, str(ROOT))

import xiangqi  # noqa: E402  (after the path set-up: the checkout's package, as the tests use it)

project = "xiangqi"
author = "the xiangqi authors"
copyright = "the xiangqi authors, MIT licence"
release = version = xiangqi.__version__

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.intersphinx",
    "sphinx.ext.viewcode",
    "xqdocs",  # docs/_ext/xqdocs.py: CLI help, the C headers, the __all__ coverage check
    "xqboard",  # docs/_ext/xqboard.py: boards drawn by xiangqi.svg at build time
    "xqreport",  # docs/_ext/xqreport.py: the real xiangqi validate --html report, in the site
]

exclude_patterns = ["_build", "README.md"]
html_theme = "alabaster"
html_theme_options = {"description": "Xiangqi (Chinese chess) for Python, on a C bitboard core", "fixed_sidebar": True,
                      "page_width": "1240px", "body_max_width": "none"}
html_static_path: list[str] = ["_static"]
html_css_files = ["xiangqi.css"]
html_title = f"xiangqi {release}"

# Every cross-reference must resolve: a missing target is a warning, and -W makes it an error.
nitpicky = True
default_role = "py:obj"
primary_domain = "py"
# Literal blocks (command help, header comments) are plain text; doctests and code blocks name their language.
highlight_language = "text"

autodoc_default_options = {"members": True, "member-order": "bysource", "show-inheritance": True}
autodoc_typehints = "signature"

# Intersphinx without network: Python's inventory comes from Debian's python3-doc package (objects.inv of the
# same docs that docs.python.org serves; links point there). numpy publishes no offline inventory on PyPI or
# Debian, so numpy is left out and its names are listed in nitpick_ignore_regex below instead.
_python_inv = sorted(glob.glob("/usr/share/doc/python3*/html/objects.inv"))
if not _python_inv:
    raise ConfigError("the Python intersphinx inventory is missing: apt-get install python3-doc "
                      "(it provides /usr/share/doc/python3.X/html/objects.inv)")
intersphinx_mapping = {"python": ("https://docs.python.org/3", _python_inv[-1])}

nitpick_ignore_regex = [
    # numpy: no inventory offline (see above).
    (r"py:.*", r"(numpy|np|npt)(\..*)?"),
    # Private helpers that appear in signatures (a leading underscore: not part of the API, not documented).
    (r"py:.*", r"(.*\.)?_\w+(\..*)?"),
    # Returned by xiangqi.pgn.replay_mainline but not exported by xiangqi.pgn (not in its __all__).
    (r"py:.*", r"(xiangqi\.pgn\.)?Replay(\..*)?"),
    # asyncio's classes as their defining modules name them; Python documents them as asyncio.X.
    (r"py:class", r"asyncio\.(protocols|transports|events)\.\w+"),
    # A string annotation's generic alias (``"os.PathLike[str]"``) is looked up whole; Python documents os.PathLike.
    (r"py:class", r"os\.PathLike\[str\]"),
    # A callable of no arguments (the visitor factories of xiangqi.pgn.read_game): Sphinx cuts the annotation
    # ``Callable[[], X]`` at its empty argument list and looks up the piece; Python documents typing.Callable.
    (r"py:obj", r"typing\.Callable\[\[\]"),
    # The C standard library's types, in the C API's declarations.
    (r"c:identifier", r"u?int(8|16|32|64)_t|size_t"),
]
