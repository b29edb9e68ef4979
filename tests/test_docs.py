"""The documentation in docs/ cannot drift from the code.

* Every tutorial runs as a script, its blocks in page order in one scratch folder: ``>>>`` examples as doctests
  (sharing one namespace per page) and ``.. code-block:: console`` blocks as shell commands whose output must
  match what the page shows (``...`` matches anything) and whose exit status must be 0 (a page shows a failure
  with ``; echo "exit status $?"``). A code block of another kind, a ``::`` literal block or a directive that
  shows code would be shown without being run, so it fails the test; C code comes in through ``literalinclude``
  of the real, compiled examples in ``csrc/examples`` (any other include fails too).
* The C header extractor documents every function and macro the public headers declare.
* With the ``docs`` extra installed, the site builds without a warning: a broken cross-reference, a docstring
  that is not valid reST, or a name of a public module's ``__all__`` missing from the reference fails the build
  (docs/_ext/xqdocs.py). These tests skip, saying what to install, when Sphinx or the offline Python inventory
  (Debian's python3-doc) is missing; CI installs both.
* The tutorials' boards are the pictures of :func:`xiangqi.svg.board` and headless Chromium paints them; the
  validation tutorial frames the real ``xiangqi validate --html`` report, written into the site at build time;
  what the examples print wraps inside its box instead of running off the page.
* The command summary of the CLI page names only commands and options the real program has.
"""

from __future__ import annotations

import doctest
import glob
import importlib
import inspect
import os
import pkgutil
import re
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Iterator, List, Tuple, Union

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
TUTORIALS = sorted((DOCS / "tutorials").glob("*.rst"))
FLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE

sys.path.insert(0, str(DOCS / "_ext"))
import c_header  # noqa: E402  (docs/_ext: needs no Sphinx)

Console = List[Tuple[str, str]]
#: System tools a tutorial's console blocks call, and the Debian packages that bring them.
TOOLS = {"c": (("cc", "c++", "make"), "build-essential")}
#: A comment on a page that the examples after it need a tool: ``.. needs /usr/games/fairy-stockfish (Debian
#: package fairy-stockfish)``. Without the tool the examples before it run and the test then skips, naming the
#: package, so a page can show an optional engine at its end and still be tested everywhere else.
NEEDS = re.compile(r"\.\. needs (\S+) \(Debian package ([\w.+-]+)\)\s*$")


def blocks(text: str) -> Iterator[Tuple[str, Union[str, Console, Tuple[str, str]], int]]:
    """The page in order: ("doctest", text, first line) chunks, ("console", [(command, output)], line) and
    ("needs", (tool, package), line) markers."""
    lines = text.split("\n")
    chunk: List[str] = []
    chunk_start = 1
    i = 0
    while i < len(lines):
        needs = NEEDS.match(lines[i].strip())
        if needs:
            yield "doctest", "\n".join(chunk), chunk_start
            yield "needs", (needs.group(1), needs.group(2)), i + 1
            i += 1
            chunk, chunk_start = [], i + 1
            continue
        unrun = _unrun_block(lines, i)
        if unrun:
            raise AssertionError(f"line {i + 1}: {unrun}")
        m = re.match(r"\.\. (code-block|code|sourcecode)::\s*(\S*)", lines[i].strip())
        if not m:
            chunk.append(lines[i])
            i += 1
            continue
        if m.group(2) != "console":
            raise AssertionError(f"line {i + 1}: a '{m.group(2) or 'plain'}' code block is not run; use '>>>' "
                                 "examples, a console block, or literalinclude a file that CI builds")
        start = i + 1
        i += 1
        body: List[str] = []
        while i < len(lines) and (not lines[i].strip() or lines[i].startswith("   ")):
            body.append(lines[i][3:])
            i += 1
        yield "doctest", "\n".join(chunk), chunk_start
        chunk, chunk_start = [], i + 1
        commands: Console = []
        for line in body:
            if line.startswith("$ "):
                commands.append((line[2:], ""))
            elif commands:
                commands[-1] = (commands[-1][0], commands[-1][1] + line + "\n")
            elif line.strip():
                raise AssertionError(f"line {start}: a console block starts with a '$ ' command")
        yield "console", commands, start
    yield "doctest", "\n".join(chunk), chunk_start


#: Directives that show text as code without running it.
UNRUN_DIRECTIVES = re.compile(r"\.\. (parsed-literal|literal|highlight|testcode|testoutput)::")


def _unrun_block(lines: List[str], i: int) -> str:
    """Why the block starting at line ``i`` would be shown without being run, or ``""``: a literal block (a
    paragraph ending in ``::`` and an indented block after it), a directive that shows code, or a
    ``literalinclude`` of a file that CI does not compile and run (only ``csrc/examples/*.c`` is)."""
    line = lines[i].rstrip()
    stripped = line.strip()
    if UNRUN_DIRECTIVES.match(stripped):
        return f"'{stripped}' shows code that is not run"
    include = re.match(r"\.\. literalinclude::\s*(\S+)", stripped)
    if include:
        target = (DOCS / "tutorials" / include.group(1)).resolve()
        if target.parent != ROOT / "csrc" / "examples" or target.suffix != ".c":
            return (f"literalinclude of {include.group(1)}: only csrc/examples/*.c, which CI compiles and runs "
                    "(make -C csrc check sanitize cxx), may be included")
        return ""
    if not stripped.endswith("::") or stripped.startswith((".. ", ">>> ", "... ")):
        return ""
    indent = len(line) - len(line.lstrip())
    bullet = re.match(r"([*+-]|\d+\.|#\.)\s+", stripped)
    indent += len(bullet.group(0)) if bullet else 0  # a list item's text starts after its marker
    following = lines[i + 1:i + 3]
    if len(following) == 2 and not following[0].strip() and following[1].strip() \
            and len(following[1]) - len(following[1].lstrip()) > indent:
        return ("a literal block ('::') is not run; use '>>>' examples or a "
                "'.. code-block:: console' block")
    return ""


def scratch_folder(tmp_path: Path) -> Path:
    """A folder that sees the checkout's files (tests/data, csrc, ...) but keeps what the commands write."""
    for entry in ROOT.iterdir():
        if not entry.name.startswith("."):
            (tmp_path / entry.name).symlink_to(entry)
    return tmp_path


@pytest.mark.parametrize("page", TUTORIALS, ids=lambda p: p.stem)
def test_tutorial_runs(page: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    tools, package = TOOLS.get(page.stem, ((), ""))
    missing = [t for t in tools if shutil.which(t) is None]
    if missing:
        pytest.skip(f"the {page.stem} tutorial needs {', '.join(missing)} (apt-get install {package})")
    cwd = scratch_folder(tmp_path)
    monkeypatch.chdir(cwd)
    env = dict(os.environ, COLUMNS="100", PATH=os.path.dirname(sys.executable) + os.pathsep + os.environ["PATH"])
    globs: dict = {"__name__": page.stem}
    parser = doctest.DocTestParser()
    checker = doctest.OutputChecker()
    examples = commands = 0
    for kind, content, line in blocks(page.read_text(encoding="utf-8")):
        if kind == "needs":
            assert isinstance(content, tuple)
            tool, package = content
            if shutil.which(tool) is None:
                assert examples + commands > 0, f"{page.name} runs no example before line {line}"
                pytest.skip(f"{page.name} from line {line} needs {tool} (apt-get install {package}); the "
                            f"{examples + commands} examples before it passed")
            continue
        if kind == "doctest":
            assert isinstance(content, str)
            test = parser.get_doctest(content, globs, page.stem, str(page), line - 1)
            if not test.examples:
                continue
            out: List[str] = []
            runner = doctest.DocTestRunner(checker=checker, optionflags=FLAGS)
            result = runner.run(test, out=out.append, clear_globs=False)
            globs.update(test.globs)  # the page's examples share one namespace (get_doctest copies it)
            assert result.failed == 0, "".join(out)
            examples += result.attempted
        else:
            assert isinstance(content, list)
            for command, expected in content:
                proc = subprocess.run(["bash", "-c", command], cwd=cwd, env=env, capture_output=True, text=True,
                                      timeout=300)
                got = proc.stdout + proc.stderr
                assert checker.check_output(expected, got, FLAGS), \
                    f"{page.name}:{line}: $ {command}\nexpected:\n{expected}\ngot:\n{got}"
                # A failure must show on the page (``; echo "exit status $?"``), not pass for an empty output.
                assert proc.returncode == 0, \
                    f"{page.name}:{line}: $ {command}\nexited with {proc.returncode}:\n{got}"
                commands += 1
    assert examples + commands > 0, f"{page.name} runs no example"


def test_blocks_reject_code_that_does_not_run() -> None:
    with pytest.raises(AssertionError, match="'python' code block is not run"):
        list(blocks("Text\n\n.. code-block:: python\n\n   print(1)\n"))
    kinds = [k for k, _, _ in blocks("a\n\n>>> 1\n1\n\n.. code-block:: console\n\n   $ echo hi\n   hi\n\nb\n")]
    assert kinds == ["doctest", "console", "doctest"]
    for unrun in ("Compile it with::\n\n   cc x.c\n", "Text\n\n::\n\n   cc x.c\n", ".. parsed-literal::\n\n   x\n",
                  ".. literalinclude:: ../../tests/test_docs.py\n"):
        with pytest.raises(AssertionError, match="not run|only csrc/examples"):
            list(blocks(unrun))
    assert [k for k, _, _ in blocks(".. literalinclude:: ../../csrc/examples/xqbatch.c\n   :language: c\n")] == \
        ["doctest"]
    assert [k for k, _, _ in blocks("* an item::\n  more of it\n\n  and a paragraph\n\n>>> 'a::'\n'a::'\n")] == \
        ["doctest"]
    marked = list(blocks(">>> 1\n1\n\n.. needs /usr/games/x (Debian package x-pkg)\n\n>>> 2\n2\n"))
    assert [k for k, _, _ in marked] == ["doctest", "needs", "doctest"]
    assert marked[1] == ("needs", ("/usr/games/x", "x-pkg"), 4)


def _cli_help(*args: str) -> str:
    env = dict(os.environ, COLUMNS="100")
    proc = subprocess.run([sys.executable, "-m", "xiangqi", *args, "--help"], capture_output=True, text=True,
                          env=env, cwd=ROOT, timeout=120)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


def _cli_line_problems(block: str) -> List[str]:
    """What is wrong with the ``xiangqi ...`` lines of ``block`` (``#`` starts a comment): a command that ``xiangqi
    --help`` does not list, an option that the command's ``--help`` does not show."""
    section = _cli_help().split("commands:\n", 1)[1].split("\n\n", 1)[0]
    commands = re.findall(r"^  (\w+) ", section, flags=re.M)
    problems = []
    for words in (line.split("#", 1)[0].split() for line in block.splitlines()):
        if not words or words[1:] == ["--help"]:
            continue
        if words[0] != "xiangqi" or len(words) < 2 or words[1] not in commands:
            problems.append(f"{' '.join(words)}: not a command of xiangqi ({', '.join(commands)})")
            continue
        text = _cli_help(words[1])
        problems += [f"xiangqi {words[1]} has no option {w}" for w in words[2:] if w.startswith("-")
                     and not re.search(rf"(^|[\s,\[]){re.escape(w)}\b", text, flags=re.M)]
    return problems


def test_cli_page_examples_use_real_options() -> None:
    """The command lines at the top of docs/cli.rst, which are shown and not run, name commands that ``xiangqi
    --help`` lists and options that each command's ``--help`` has, so the summary cannot drift from the program."""
    text = (DOCS / "cli.rst").read_text(encoding="utf-8")
    block = text.split(".. code-block:: sh", 1)[1].split("\n\n", 2)[1]
    assert len([line for line in block.splitlines() if line.strip().startswith("xiangqi ")]) >= 10
    assert _cli_line_problems(block) == []
    # The check can fail: a made-up option and a made-up command are reported.
    assert _cli_line_problems("xiangqi perft --depth 3 --no-such-option\nxiangqi play --depth 3") == [
        "xiangqi perft has no option --no-such-option", "xiangqi play --depth 3: not a command of xiangqi "
        "(perft, match, validate, convert, judge, render, engine)"]


def _docstring_literal_blocks() -> Iterator[Tuple[str, str, str]]:
    """(module, dotted name, code) of each ``::`` literal block in the docstrings of the public modules, their
    classes, functions and methods (the reference shows them as code; ``>>>`` examples are pytest's doctests)."""
    import xiangqi

    mods = [xiangqi] + [importlib.import_module(f"xiangqi.{m.name}") for m in pkgutil.iter_modules(xiangqi.__path__)
                        if not m.name.startswith("_")]
    for mod in mods:
        owners: List[Tuple[str, object]] = [(mod.__name__, mod)]
        for name, obj in vars(mod).items():
            if getattr(obj, "__module__", None) != mod.__name__ or not callable(obj):
                continue
            owners.append((f"{mod.__name__}.{name}", obj))
            if isinstance(obj, type):
                owners += [(f"{mod.__name__}.{name}.{attr}", getattr(m, "__func__", getattr(m, "fget", m)))
                           for attr, m in vars(obj).items()]
        for qualname, obj in owners:
            lines = inspect.cleandoc(getattr(obj, "__doc__", None) or "").splitlines()
            for i, line in enumerate(lines):
                if not line.rstrip().endswith("::") or line.strip().startswith(".. "):
                    continue
                indent = len(line) - len(line.lstrip())
                body = []
                for rest in lines[i + 1:]:
                    if rest.strip() and len(rest) - len(rest.lstrip()) <= indent:
                        break
                    body.append(rest)
                yield mod.__name__, qualname, textwrap.dedent("\n".join(body)).strip("\n")


def test_docstring_code_blocks_run() -> None:
    """A literal block of Python in a docstring (shown as code by the reference, not collected by pytest) runs in
    its module's namespace; any other literal block is a command line of the ``xiangqi`` program."""
    found = list(_docstring_literal_blocks())
    assert any(qualname == "xiangqi.engine" for _, qualname, _ in found)
    skipped = []
    for module, qualname, code in found:
        try:
            compiled = compile(code, f"<{qualname} docstring>", "exec")
        except SyntaxError:
            assert all(line.split()[0] == "xiangqi" for line in code.splitlines() if line.strip()), \
                f"{qualname}: a literal block that is neither Python nor a xiangqi command line:\n{code}"
            continue
        missing = [tool for tool in re.findall(r"/usr/games/[\w-]+", code) if not os.path.exists(tool)]
        if missing:
            skipped.append(f"{qualname}'s example needs {missing[0]} (apt-get install {os.path.basename(missing[0])})")
            continue
        exec(compiled, dict(vars(importlib.import_module(module))))  # the docstring's own code
    if skipped:
        pytest.skip("; ".join(skipped))


def _declared(header: Path) -> List[str]:
    """A naive scan for what the extractor must find: function names and macro names (include guards aside)."""
    code = re.sub(r"/\*.*?\*/", "", header.read_text(encoding="utf-8"), flags=re.S)
    names = re.findall(r"\b(xq_\w+)\s*\(", code) + re.findall(r"#define\s+(XQ_\w+)", code)
    return [n for n in names if not n.endswith("_H")]


def test_c_headers_fully_extracted() -> None:
    headers = sorted(p for p in (ROOT / "csrc").glob("xq*.h") if not p.stem.endswith("_cdef")
                     and p.stem != "xq_internal")
    assert {p.name for p in headers} >= {"xq.h", "xq_batch.h", "xq_rules.h", "xq_replay.h"}
    parsed = [c_header.parse(p) for p in headers]
    known = c_header.names(parsed)
    for path in headers:
        missing = [n for n in _declared(path) if n not in known]
        assert not missing, f"{path.name}: not extracted: {missing}"
    assert known["xq_pos_set_fen"] == "c:func" and known["xq_pos"] == "c:struct"
    rst = "\n".join(c_header.render(parsed[0], known))
    assert ".. c:function:: int xq_pos_set_fen(xq_pos *pos, const char *fen, size_t len, size_t *err_offset)" in rst


#: Public C functions that no program of csrc/examples uses yet (none now). The set only shrinks: a function
#: here that an example uses is reported, so that it is taken off.
C_EXAMPLE_PENDING: frozenset = frozenset()


def _c_examples() -> str:
    return "\n".join(p.read_text(encoding="utf-8") for p in sorted((ROOT / "csrc" / "examples").glob("*.c")))


def c_functions_without_example(pending: frozenset = C_EXAMPLE_PENDING, examples: str = "") -> List[str]:
    """The public C functions that no ``csrc/examples/*.c`` calls (those C programs are the C API's examples:
    ``make -C csrc check sanitize cxx`` builds and runs them, checking what they print), and the names of
    ``pending`` that an example does call. ``examples``: the programs' text (default: read them)."""
    headers = [p for p in sorted((ROOT / "csrc").glob("xq*.h")) if not p.stem.endswith("_cdef")
               and p.stem != "xq_internal"]
    functions = [n for n, kind in c_header.names([c_header.parse(p) for p in headers]).items() if kind == "c:func"]
    code = re.sub(r"/\*.*?\*/", "", examples or _c_examples(), flags=re.S)
    used = {f for f in functions if re.search(rf"\b{f}\s*\(", code)}
    return sorted(f"{f}: no example" for f in set(functions) - used - pending) + \
        sorted(f"{f}: in C_EXAMPLE_PENDING but an example uses it" for f in pending & used)


def test_every_c_function_has_an_example() -> None:
    assert c_functions_without_example() == []
    # The check can fail both ways: a function no example calls, a stale entry of the pending set.
    hidden = _c_examples().replace("xq_move_facts(", "xq_move_facts_renamed(")
    assert c_functions_without_example(examples=hidden) == ["xq_move_facts: no example"]
    assert c_functions_without_example(frozenset({"xq_perft"})) == [
        "xq_perft: in C_EXAMPLE_PENDING but an example uses it"]


def test_pages_name_every_header_xq_h_includes() -> None:
    """The C tutorial and the project page list the headers that ``xq.h`` brings in; a new one is named there."""
    included = re.findall(r'^#include "(xq_\w+\.h)"', (ROOT / "csrc" / "xq.h").read_text(encoding="utf-8"), re.M)
    assert "xq_rules.h" in included
    for page in ("tutorials/c.rst", "project.rst"):
        text = (DOCS / page).read_text(encoding="utf-8")
        sentence = re.search(r"(brings in|it includes)(.*?)[.;]\s", text, re.S)
        assert sentence, f"docs/{page} does not say which headers xq.h includes"
        missing = [h for h in included if f"``{h}``" not in sentence.group(2)]
        assert not missing, f"docs/{page}: xq.h also includes {missing}"


def test_c_header_rejects_what_it_cannot_place(tmp_path: Path) -> None:
    bad = tmp_path / "xq_bad.h"
    bad.write_text("/* intro */\n\n/* A group. */\nstatic inline int xq_f(void) { return 0; }\n")
    with pytest.raises(c_header.HeaderError):
        c_header.parse(bad)


# --------------------------------------------------------------------------- the site (docs extra)


def _sphinx() -> None:
    pytest.importorskip("sphinx", reason="building the docs needs the docs extra: pip install -e '.[docs]'")
    if not glob.glob("/usr/share/doc/python3*/html/objects.inv"):
        pytest.skip("the docs' Python inventory is missing: apt-get install python3-doc")


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The built site: built here with warnings as errors, or the one XIANGQI_DOCS_HTML names (CI has just
    built it with ``sphinx-build -W``)."""
    _sphinx()
    if os.environ.get("XIANGQI_DOCS_HTML"):
        return Path(os.environ["XIANGQI_DOCS_HTML"]).resolve()
    out = tmp_path_factory.mktemp("html")
    proc = subprocess.run([sys.executable, "-m", "sphinx", "-E", "-W", "--keep-going", "-q", "-b", "html",
                           str(DOCS), str(out)], capture_output=True, text=True, cwd=ROOT, timeout=600)
    assert proc.returncode == 0, f"sphinx-build failed:\n{proc.stdout}{proc.stderr}"
    return out


def test_site_builds_without_warnings(site: Path) -> None:
    assert (site / "reference" / "capi.html").exists() and (site / "cli.html").exists()


def test_every_public_name_is_in_the_reference(site: Path) -> None:
    from sphinx.util.inventory import InventoryFile

    import xqdocs

    with open(site / "objects.inv", "rb") as f:
        inventory = InventoryFile.load(f, "", os.path.join)
    documented = {name for kind, entries in inventory.items() if kind.startswith("py:") for name in entries}
    assert xqdocs.undocumented(documented) == []
    # The check can fail: drop one documented name and it is reported.
    assert xqdocs.undocumented(documented - {"xiangqi.batch.pack"}) == [("xiangqi.batch", "pack")]
    # Re-exports count through the module that documents them.
    assert "xiangqi.Board" not in documented and "xiangqi.board.Board" in documented



def test_docstring_check_finds_a_missing_example_and_raises_section(monkeypatch: pytest.MonkeyPatch) -> None:
    """docs/_ext/xqdocs.docstring_gaps (run by the build): an example per public function and class, a
    ``Raises:`` section naming what a callable raises itself, and an exemption set that cannot go stale."""
    _sphinx()
    import xqdocs

    from xiangqi import core, position

    assert xqdocs.docstring_gaps() == []
    monkeypatch.setattr(core.square, "__doc__", "The square at ``file`` and ``rank``.")
    monkeypatch.setattr(core.parse_square, "__doc__", core.parse_square.__doc__.replace("Raises:", "Raises"))
    doc = position.BaseBoard.push.__doc__
    monkeypatch.setattr(position.BaseBoard.push, "__doc__", re.sub(r"\bIllegalMoveError\b", "Error", doc))
    assert sorted(xqdocs.docstring_gaps()) == [
        ("xiangqi.core.parse_square", "raises ValueError but its docstring has no 'Raises:' section"),
        ("xiangqi.core.square", "has no example (>>>) in its docstring"),
        ("xiangqi.position.BaseBoard.push", "raises IllegalMoveError but its 'Raises:' section does not name it"),
    ]
    monkeypatch.undo()
    # A constructor inherited from a package class that documents its errors: the subclass's docstring, which
    # is what its reference entry shows, must list them too.
    from xiangqi import board
    monkeypatch.setattr(board.Board, "__doc__", board.Board.__doc__.split("Raises:")[0])
    assert xqdocs.docstring_gaps() == [("xiangqi.board.Board.__init__", "is BaseBoard's, whose docstring has a "
                                        "'Raises:' section, but this class's docstring has none")]
    monkeypatch.undo()
    assert xqdocs.docstring_gaps(xqdocs.DOCSTRING_EXEMPT | {"xiangqi.core"}) == [
        ("xiangqi.core", "is in DOCSTRING_EXEMPT but has no gap left: remove it from the set")]


def test_cli_help_lists_every_command(site: Path) -> None:
    import xqdocs

    from xiangqi import cli

    commands = xqdocs.cli_commands(xqdocs.run_cli("--help"))
    assert "perft" in commands and set(getattr(cli, "_DELEGATED", {})) <= set(commands)
    page = (site / "cli.html").read_text(encoding="utf-8")
    for command in commands:
        assert f"usage: xiangqi {command}" in page


def test_tutorial_boards_are_drawn_by_svg(site: Path) -> None:
    """``.. xiangqi-board::`` puts the picture of :func:`xiangqi.svg.board` itself into the page."""
    import xiangqi
    from xiangqi import svg

    page = (site / "tutorials" / "rulings.html").read_text(encoding="utf-8")
    source = (DOCS / "tutorials" / "rulings.rst").read_text(encoding="utf-8")
    assert page.count('<figure class="xiangqi-board">') == source.count(".. xiangqi-board::") >= 5
    board = xiangqi.Board("4k4/9/9/9/5R3/9/9/9/9/3K5 w - - 0 1")
    arrows = [(m.from_square, m.to_square) for m in map(xiangqi.Move.from_iccs, ("f5e5", "e9f9"))]
    assert svg.board(board, arrows=arrows, size=300) in page


def test_validation_report_is_in_the_site(site: Path) -> None:
    """``.. xiangqi-html-report::`` ran the real ``xiangqi validate --html`` and the tutorial frames its output."""
    report = (site / "_reports" / "sample.html").read_text(encoding="utf-8")
    assert "xiangqi validation report" in report and "illegal-move" in report and "<svg" in report
    page = (site / "tutorials" / "validate.html").read_text(encoding="utf-8")
    assert 'src="../_reports/sample.html"' in page


def test_tutorial_boards_show_in_the_browser(site: Path, tmp_path: Path) -> None:
    """Headless Chromium paints the rulings page's boards: the board's wood covers most of each picture."""
    from _browser import close, hex_rgb, screenshot

    from xiangqi import svg

    source = (DOCS / "tutorials" / "rulings.rst").read_text(encoding="utf-8")
    boards = source.count(".. xiangqi-board::")
    img = screenshot(site / "tutorials" / "rulings.html", 1300, 9000, tmp_path / "rulings.png")
    wood = hex_rgb(svg.DEFAULT_COLORS["board"])
    painted = sum(n for n, p in img.convert("RGB").getcolors(maxcolors=1 << 24) if close(p, wood, 12))
    # A 300-pixel picture is 300 x 330 pixels, well over half of them wood; nothing else on the page is.
    assert painted > boards * 300 * 330 // 2, f"{painted} wood pixels for {boards} boards"


#: Appended to a copy of a page: lists the output lines of examples that run past the right edge of their box.
_OVERFLOW_PROBE = """<script>
window.addEventListener("load", () => {
  const cut = [];
  for (const span of document.querySelectorAll(".highlight .go")) {
    const edge = span.closest("pre").getBoundingClientRect().right;
    if ([...span.getClientRects()].some(r => r.right > edge + 1)) cut.push(span.textContent.trim().slice(0, 70));
  }
  document.body.setAttribute("data-cut", JSON.stringify(cut));
});
</script>"""


def test_tutorial_output_fits_the_page(site: Path) -> None:
    """What the examples print (a ruling's reason, an error message) wraps in its box in headless Chromium at a
    desktop width, so a reader does not scroll sideways for the end of the sentence (docs/_static/xiangqi.css)."""
    import json

    from _browser import _run

    checked = 0
    for page in sorted((site / "tutorials").glob("*.html")):
        probe = page.with_name(f"_probe_{page.name}")
        probe.write_text(page.read_text(encoding="utf-8").replace("</body>", _OVERFLOW_PROBE + "</body>"),
                         encoding="utf-8")
        try:
            html = _run(["--window-size=1300,2000", "--dump-dom", probe.resolve().as_uri()]).stdout
        finally:
            probe.unlink()
        found = re.search(r'data-cut="([^"]*)"', html)
        assert found, f"{page.name}: the probe did not run"
        cut = json.loads(found.group(1).replace("&quot;", '"').replace("&amp;", "&"))
        assert cut == [], f"{page.name}: output runs off the page: {cut}"
        checked += page.read_text(encoding="utf-8").count('class="go"')
    assert checked > 100, checked



# ------------------------------------------------------------------------------------------ the python-chess page

_MIGRATION = DOCS / "tutorials" / "python-chess.rst"
_ROW = re.compile(r"^   \* - ``(chess[\w.]*)``\n     - (.*)$", re.M)


def _migration_rows() -> List[Tuple[str, str]]:
    return [(m.group(1), m.group(2)) for m in _ROW.finditer(_MIGRATION.read_text(encoding="utf-8"))]


def _resolve(dotted: str) -> object:
    """The object a dotted name (``xiangqi.game.GameNode.clock``) names: the longest importable module, then
    attributes; raises AttributeError or ImportError."""
    parts = dotted.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            obj: object = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        for attr in parts[cut:]:
            if not hasattr(obj, attr) and inspect.isclass(obj):
                obj = obj()  # an attribute its instances set (Board().move_stack)
            obj = getattr(obj, attr)
        return obj
    raise ImportError(dotted)


def test_every_xiangqi_name_on_the_python_chess_page_exists() -> None:
    """Each row of the migration page names xiangqi's counterpart (which must exist), or starts with a dash and
    says why the python-chess name has no xiangqi meaning."""
    rows = _migration_rows()
    assert len(rows) > 600
    missing = []
    for theirs, ours in rows:
        names = re.findall(r"``(xiangqi(?:\.\w+)+)", ours)
        if not names:
            assert ours.startswith("—") and len(ours) > 10, f"{theirs}: neither a xiangqi name nor a reason: {ours!r}"
            continue
        for name in names:
            try:
                _resolve(name)
            except (AttributeError, ImportError):
                missing.append(f"{theirs} -> {name}")
    assert missing == []


def _chess_names() -> List[str]:
    """python-chess's public names: what its four modules define at their top level, and the members (methods,
    properties, annotated attributes) of the classes a script uses."""
    import ast

    chess = pytest.importorskip("chess")
    import chess.engine
    import chess.pgn
    import chess.svg

    out: List[str] = []
    for mod in (chess, chess.pgn, chess.engine, chess.svg):
        for node in ast.parse(Path(str(mod.__file__)).read_text(encoding="utf-8")).body:
            targets: List[str] = []
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                targets = [node.name]
            elif isinstance(node, ast.Assign):
                for t in node.targets:
                    elts = t.elts if isinstance(t, ast.Tuple) else [t]
                    targets += [e.id for e in elts if isinstance(e, ast.Name)]
            elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
                targets = [node.target.id]
            out += [f"{mod.__name__}.{t}" for t in targets if not t.startswith("_")]
    classes = {"chess.Board": chess.Board, "chess.SquareSet": chess.SquareSet, "chess.Move": chess.Move,
               "chess.Piece": chess.Piece, "chess.pgn.Game": chess.pgn.Game, "chess.pgn.ChildNode": chess.pgn.ChildNode,
               "chess.pgn.Headers": chess.pgn.Headers, "chess.engine.SimpleEngine": chess.engine.SimpleEngine}
    for prefix, cls in classes.items():
        members = {n for n in dir(cls) if not n.startswith("_")}
        for klass in cls.__mro__:
            members |= {n for n in getattr(klass, "__annotations__", {}) if not n.startswith("_")}
        out += [f"{prefix}.{n}" for n in sorted(members)]
    return out


def test_every_python_chess_name_is_on_the_page() -> None:
    chess = pytest.importorskip("chess")
    if not chess.__version__.startswith("1.11."):
        pytest.skip(f"the page lists python-chess 1.11's names; this is {chess.__version__}")
    listed = {theirs for theirs, _ in _migration_rows()}
    assert [name for name in _chess_names() if name not in listed] == []
