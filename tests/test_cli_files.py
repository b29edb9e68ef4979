"""The commands against awkward files: hard links, symbolic links, devices, FIFOs, a full disk, a closed or
broken standard output, missing and unreadable files, Ctrl-C.

What must hold everywhere: nothing is overwritten that was not named as output; a failure exits 2 (usage, an
input that cannot be read, an output that cannot be written) or 1 (bad data) with one line on standard error and
never a traceback; a reader that goes away ends the run quietly (141); Ctrl-C ends it with one line (130).
"""

from __future__ import annotations

import json
import os
import signal
import stat
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Dict, List, Optional, Tuple

import pytest

from xiangqi.cli import main

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = ROOT / "tests" / "data" / "sample" / "ccpd-master-24.chinese.pgn"
XQ = [sys.executable, "-m", "xiangqi"]
TIMEOUT = 120

pytestmark = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="POSIX files (FIFOs, devices) needed")


def _one_line(err: str) -> str:
    """The single line a failure writes on standard error (and no traceback)."""
    assert "Traceback" not in err, err
    lines = err.splitlines()
    assert len(lines) == 1, err
    return lines[0]


def _run(args: List[str], *, stdin: Optional[bytes] = None, close_stdout: bool = False,
         stdout_fd: Optional[int] = None, cwd: Optional[Path] = None) -> Tuple[int, str, str]:
    """Run ``xiangqi ARGS`` as a process; (exit status, standard output, standard error)."""
    cmd = XQ + args
    if close_stdout:
        cmd = ["sh", "-c", 'exec "$@" >&-', "sh"] + cmd
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    run = subprocess.run(cmd, input=stdin, stdout=subprocess.PIPE if stdout_fd is None else stdout_fd,
                         stderr=subprocess.PIPE, cwd=cwd or ROOT, env=env, timeout=TIMEOUT)
    out = run.stdout.decode("utf-8", "replace") if run.stdout is not None else ""
    return run.returncode, out, run.stderr.decode("utf-8", "replace")


@pytest.fixture
def games(tmp_path: Path) -> Path:
    path = tmp_path / "games.pgn"
    path.write_bytes(SAMPLE.read_bytes())
    return path


# ---------------------------------------------------------------------------------------------------------------
# Nothing is overwritten that was not named as output
# ---------------------------------------------------------------------------------------------------------------

def test_validate_refuses_a_report_that_is_a_hard_link_to_a_game_file(games: Path, capsys: pytest.CaptureFixture[str]
                                                                       ) -> None:
    before = games.read_bytes()
    report = games.parent / "r.jsonl"
    os.link(games, report)
    assert main(["validate", "--jobs", "1", "-q", str(games), "--report", str(report)]) == 2
    assert "one of the game files" in _one_line(capsys.readouterr().err)
    assert games.read_bytes() == before


def test_validate_refuses_a_report_that_is_a_symbolic_link_to_a_game_file(games: Path,
                                                                          capsys: pytest.CaptureFixture[str]) -> None:
    before = games.read_bytes()
    report = games.parent / "r.jsonl"
    report.symlink_to(games)
    assert main(["validate", "-q", str(games.parent), "--report", str(report)]) == 2
    _one_line(capsys.readouterr().err)
    assert games.read_bytes() == before


def test_validate_refuses_a_hard_link_into_a_checked_folder(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "games"
    folder.mkdir()
    inside = folder / "a.pgn"
    inside.write_bytes(SAMPLE.read_bytes())
    outside = tmp_path / "report.jsonl"
    os.link(inside, outside)
    assert main(["validate", "-q", str(folder), "--report", str(outside)]) == 2
    _one_line(capsys.readouterr().err)
    assert inside.read_bytes() == SAMPLE.read_bytes()


def test_convert_into_a_hard_link_of_the_input_leaves_the_input_alone(games: Path) -> None:
    before = games.read_bytes()
    out = games.parent / "out.pgn"
    os.link(games, out)
    assert main(["convert", str(games), str(out), "--notation", "iccs"]) == 0
    assert games.read_bytes() == before
    assert "h2e2" in out.read_text(encoding="utf-8") or "1. " in out.read_text(encoding="utf-8")
    assert out.read_bytes() != before


def test_convert_through_a_symbolic_link_keeps_the_link_and_writes_its_target(games: Path) -> None:
    target = games.parent / "target.pgn"
    target.write_text("old", encoding="utf-8")
    link = games.parent / "link.pgn"
    link.symlink_to(target)
    assert main(["convert", str(games), str(link), "--notation", "iccs"]) == 0
    assert link.is_symlink() and os.readlink(link) == str(target)
    text = target.read_text(encoding="utf-8")
    assert text.startswith("[") and text != "old"


def _read_fifo(path: Path, into: List[bytes], limit: Optional[int] = None) -> threading.Thread:
    def reader() -> None:
        with open(path, "rb") as fh:
            into.append(fh.read() if limit is None else fh.read(limit))

    t = threading.Thread(target=reader, daemon=True)
    t.start()
    return t


def test_convert_writes_into_a_fifo_instead_of_replacing_it(games: Path, tmp_path: Path) -> None:
    fifo = tmp_path / "out.fifo"
    os.mkfifo(fifo)
    got: List[bytes] = []
    reader = _read_fifo(fifo, got)
    assert main(["convert", str(games), str(fifo), "--to", "pgn"]) == 0
    reader.join(TIMEOUT)
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)
    plain = tmp_path / "plain.pgn"
    assert main(["convert", str(games), str(plain)]) == 0
    assert got == [plain.read_bytes()]


@pytest.mark.skipif(not os.path.exists("/dev/stdout"), reason="needs /dev/stdout")
def test_convert_writes_to_dev_stdout_on_a_pipe(games: Path) -> None:
    """`xiangqi convert games.pgn /dev/stdout --to pgn | …`: /dev/stdout links to /proc/self/fd/1, whose target on a
    pipe is no path (pipe:[…]), and convert said "cannot write /dev/stdout: No such file or directory"."""
    code, out, err = _run(["convert", str(games), "/dev/stdout", "--to", "pgn"])
    assert (code, err) == (0, "")
    assert out.count("[Event ") == 24


def test_convert_into_a_fifo_whose_reader_leaves_says_so_in_one_line(games: Path, tmp_path: Path,
                                                                    capsys: pytest.CaptureFixture[str]) -> None:
    fifo = tmp_path / "out.fifo"
    os.mkfifo(fifo)
    got: List[bytes] = []
    reader = _read_fifo(fifo, got, limit=10)
    big = tmp_path / "big.pgn"
    big.write_bytes(SAMPLE.read_bytes() * 20)  # more than a pipe buffer holds
    assert main(["convert", str(big), str(fifo), "--to", "pgn"]) == 2
    reader.join(TIMEOUT)
    assert _one_line(capsys.readouterr().err) == f"xiangqi convert: cannot write {fifo}: Broken pipe"
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)


def _null_device(tmp_path: Path) -> Path:
    """A character device to write into: a null device node of our own when we may make one (as root, where a
    bug would otherwise replace the system's /dev/null), else /dev/null itself (which we cannot replace)."""
    if os.geteuid() == 0:
        node = tmp_path / "null"
        try:
            os.mknod(node, 0o666 | stat.S_IFCHR, os.stat("/dev/null").st_rdev)
        except OSError as exc:
            pytest.skip(f"cannot make a device node here ({exc}); as root the test would risk /dev/null")
        return node
    return Path("/dev/null")


@pytest.mark.parametrize("to", ["pgn", "dhtmlxq", "xqf"])
def test_convert_writes_into_a_character_device_instead_of_replacing_it(tmp_path: Path, to: str) -> None:
    device = _null_device(tmp_path)
    rdev = os.stat(device).st_rdev
    src = tmp_path / "one.pgn"
    src.write_text('[Event "one"]\n\n1. h2e2 h9g7 *\n', encoding="utf-8")
    assert main(["convert", str(src), str(device), "--to", to]) == 0
    st = os.lstat(device)
    assert stat.S_ISCHR(st.st_mode) and st.st_rdev == rdev
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []  # no temporary file left behind


def test_convert_to_a_directory_is_refused(games: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "out"
    folder.mkdir()
    assert main(["convert", str(games), str(folder), "--to", "pgn"]) == 2
    assert "is a directory" in _one_line(capsys.readouterr().err)


# ---------------------------------------------------------------------------------------------------------------
# Output that cannot be written: a full disk, a closed standard output, a reader that leaves
# ---------------------------------------------------------------------------------------------------------------

def _is_full_device() -> bool:
    try:
        return stat.S_ISCHR(os.stat("/dev/full").st_mode)
    except OSError:
        return False


# Only the real device: were /dev/full a regular file (something replaced it), writing it would succeed.
full = pytest.mark.skipif(not _is_full_device(), reason="needs the /dev/full character device (Linux)")


@full
def test_a_report_on_a_full_disk_is_one_line_and_exit_2(games: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["validate", "-q", str(games), "--report", "/dev/full"]) == 2
    assert _one_line(capsys.readouterr().err) == "xiangqi validate: cannot write /dev/full: No space left on device"


@full
def test_an_html_report_on_a_full_disk_is_one_line_and_exit_2(games: Path, capsys: pytest.CaptureFixture[str]
                                                              ) -> None:
    assert main(["validate", "-q", str(games), "--html", "/dev/full"]) == 2
    assert _one_line(capsys.readouterr().err) == "xiangqi validate: cannot write /dev/full: No space left on device"


@pytest.mark.parametrize("option, what", [("--report", "the report"), ("--html", "the HTML report")])
def test_a_report_in_a_missing_folder_is_one_line_naming_the_file_and_the_reason(
        option: str, what: str, games: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """--html said only "cannot write the HTML report: [Errno 2] No such file or directory: '...'", and only
    after checking every game."""
    target = tmp_path / "no" / "such" / "dir" / "r.html"
    assert main(["validate", "-q", str(games), option, str(target)]) == 2
    assert _one_line(capsys.readouterr().err) == f"xiangqi validate: cannot write {what} {target}: " \
                                                 "No such file or directory"


def test_an_unwritable_html_report_is_known_before_the_games_are_read(tmp_path: Path) -> None:
    """The HTML file is opened first, like --report: an input that would block (a FIFO nobody writes to) is
    never opened, and the command ends at once instead of after the whole run."""
    fifo = tmp_path / "in.pgn"
    os.mkfifo(fifo)
    target = tmp_path / "missing" / "r.html"
    run = subprocess.run(XQ + ["validate", "-q", str(fifo), "--html", str(target)], capture_output=True, text=True,
                         cwd=ROOT, env=dict(os.environ, PYTHONPATH=str(ROOT)), timeout=60)
    assert run.returncode == 2
    assert _one_line(run.stderr) == f"xiangqi validate: cannot write the HTML report {target}: No such file or directory"


@full
@pytest.mark.parametrize("to", ["pgn", "xqf"])
def test_convert_onto_a_full_disk_is_one_line_and_exit_2(tmp_path: Path, to: str,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    src = tmp_path / "one.pgn"
    src.write_text('[Event "one"]\n\n1. h2e2 h9g7 *\n', encoding="utf-8")
    assert main(["convert", str(src), "/dev/full", "--to", to]) == 2
    assert _one_line(capsys.readouterr().err) == "xiangqi convert: cannot write /dev/full: No space left on device"
    assert stat.S_ISCHR(os.stat("/dev/full").st_mode)


@full
@pytest.mark.parametrize("args", [["perft", "-d", "2"], ["validate", "SAMPLE"], ["judge", "SAMPLE"],
                                  ["convert", "SAMPLE", "-"], ["validate", "-q", "SAMPLE", "--report", "-"]])
def test_standard_output_on_a_full_disk(args: List[str]) -> None:
    args = [str(SAMPLE) if a == "SAMPLE" else a for a in args]
    fd = os.open("/dev/full", os.O_WRONLY)
    try:
        code, _, err = _run(args, stdout_fd=fd)
    finally:
        os.close(fd)
    assert code == 2
    assert _one_line(err) == f"xiangqi {args[0]}: cannot write standard output: No space left on device"


@pytest.mark.parametrize("args", [["perft", "-d", "2"], ["validate", "SAMPLE"], ["judge", "SAMPLE"],
                                  ["convert", "SAMPLE", "-"], ["validate", "-q", "SAMPLE", "--report", "-"],
                                  ["judge", "startpos", "moves", "h2e2"]])
def test_a_closed_standard_output_is_never_success(args: List[str]) -> None:
    """`xiangqi validate --report - >&-` used to exit 0 with the report lost."""
    args = [str(SAMPLE) if a == "SAMPLE" else a for a in args]
    code, _, err = _run(args, close_stdout=True)
    assert code == 2
    assert _one_line(err) == f"xiangqi {args[0]}: cannot write standard output: it is closed"


def test_a_closed_standard_output_does_not_matter_when_nothing_is_written_there(games: Path) -> None:
    code, _, err = _run(["validate", "-q", str(games), "--report", str(games.parent / "r.jsonl")],
                        close_stdout=True)
    assert (code, err) == (0, "")
    rows = (games.parent / "r.jsonl").read_text(encoding="utf-8").splitlines()
    assert len(rows) == SAMPLE.read_text(encoding="utf-8").count("[Event ") == 24


@pytest.mark.parametrize("args", [["convert", "BIG", "-"], ["judge", "BIG"], ["validate", "-q", "BIG", "--report", "-"],
                                  ["perft", "-d", "3", "--divide"], ["--help"], ["--version"], ["validate", "--help"],
                                  ["engine", "--help"], ["convert", "BIG", "/dev/stdout", "--to", "pgn"]])
def test_a_reader_that_goes_away_ends_the_run_quietly(args: List[str], tmp_path: Path) -> None:
    """`xiangqi convert … | head`: convert and judge used to blame their input file and exit 2; `xiangqi --help`
    and `--version` ended in a traceback (exit 1)."""
    big = tmp_path / "big.pgn"
    big.write_bytes(SAMPLE.read_bytes() * 4)
    args = [str(big) if a == "BIG" else a for a in args]
    read_end, write_end = os.pipe()
    os.close(read_end)  # the reader has gone before the first write: that write fails with EPIPE
    try:
        code, _, err = _run(args, stdout_fd=write_end)
    finally:
        os.close(write_end)
    assert (code, err) == (141, "")


# ---------------------------------------------------------------------------------------------------------------
# Inputs: missing, unreadable, directories, streams (pipes, FIFOs, /dev/stdin)
# ---------------------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("args", [["validate", "MISSING"], ["convert", "MISSING", "out.pgn"], ["judge", "MISSING.pgn"]])
def test_a_missing_input_is_one_line_and_exit_2(args: List[str], tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    missing = str(tmp_path / "missing.pgn")
    args = [missing if a.startswith("MISSING") else str(tmp_path / a) if a == "out.pgn" else a for a in args]
    assert main(args) == 2
    assert "missing.pgn" in _one_line(capsys.readouterr().err)
    assert not (tmp_path / "out.pgn").exists()


@pytest.mark.parametrize("command", ["convert", "judge"])
def test_a_read_error_is_one_line_and_exit_2_and_output_is_untouched(command: str, tmp_path: Path,
                                                                    capsys: pytest.CaptureFixture[str]) -> None:
    """/proc/self/mem opens as a regular file and fails on the first read (EIO): a read error even as root."""
    if not os.path.exists("/proc/self/mem"):
        pytest.skip("needs /proc/self/mem (Linux)")
    out = tmp_path / "out.pgn"
    out.write_text("keep", encoding="utf-8")
    args = [command, "/proc/self/mem"] + ([str(out)] if command == "convert" else [])
    assert main(args) == 2
    assert _one_line(capsys.readouterr().err) == f"xiangqi {command}: /proc/self/mem: Input/output error"
    assert out.read_text(encoding="utf-8") == "keep"


@pytest.mark.skipif(hasattr(os, "geteuid") and os.geteuid() == 0,
                    reason="root reads files without read permission (the /proc/self/mem test covers read errors)")
@pytest.mark.parametrize("command", ["convert", "judge"])
def test_an_unreadable_file_is_one_line_and_exit_2(command: str, games: Path, tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    games.chmod(0)
    args = [command, str(games)] + ([str(tmp_path / "out.pgn")] if command == "convert" else [])
    assert main(args) == 2
    assert "Permission denied" in _one_line(capsys.readouterr().err)


def test_validate_reports_an_unreadable_file_as_bad_data(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    if not os.path.exists("/proc/self/mem"):
        pytest.skip("needs /proc/self/mem (Linux)")
    report = tmp_path / "r.jsonl"
    assert main(["validate", "-q", "/proc/self/mem", "--report", str(report)]) == 1
    row = json.loads(report.read_text(encoding="utf-8"))
    assert row["error"]["kind"] == "parse-error" and "Input/output error" in row["error"]["message"]
    assert "Traceback" not in capsys.readouterr().err


@pytest.mark.parametrize("command", ["convert", "judge"])
def test_a_directory_input_is_one_line_and_exit_2(command: str, tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    args = [command, str(tmp_path)] + ([str(tmp_path / "out.pgn")] if command == "convert" else [])
    assert main(args) == 2
    assert "is a directory" in _one_line(capsys.readouterr().err)


def _file_outputs(games: Path) -> Dict[str, Tuple[int, str]]:
    outs: Dict[str, Tuple[int, str]] = {}
    for name, args in _STREAM_COMMANDS.items():
        code, out, err = _run([str(games) if a == "IN" else a for a in args])
        assert err == "" or "Traceback" not in err
        outs[name] = (code, out)
    return outs


_STREAM_COMMANDS = {
    "validate": ["validate", "-q", "IN", "--report", "-"],
    "convert": ["convert", "IN", "-", "--notation", "iccs"],
    "judge": ["judge", "IN", "--json"],
}


def _same_but_source(out: str, stream: str, games: Path) -> str:
    return out.replace(json.dumps(stream)[1:-1], str(games))


def test_streams_read_like_files_in_every_command(games: Path) -> None:
    """A pipe as /dev/stdin was "not seekable" in validate and "no such file" in convert and judge."""
    expected = _file_outputs(games)
    data = games.read_bytes()
    for name, args in _STREAM_COMMANDS.items():
        code, out, err = _run(["/dev/stdin" if a == "IN" else a for a in args], stdin=data)
        assert "Traceback" not in err
        assert (code, _same_but_source(out, "/dev/stdin", games)) == expected[name], name
        assert out


def test_a_fifo_input_reads_like_a_file(games: Path, tmp_path: Path) -> None:
    fifo = tmp_path / "in.fifo"
    os.mkfifo(fifo)
    expected = _file_outputs(games)
    for name, args in _STREAM_COMMANDS.items():
        def feed() -> None:
            with open(fifo, "wb") as fh:
                fh.write(games.read_bytes())

        writer = threading.Thread(target=feed, daemon=True)
        writer.start()
        code, out, err = _run([str(fifo) if a == "IN" else a for a in args])
        writer.join(TIMEOUT)
        assert "Traceback" not in err
        assert (code, _same_but_source(out, str(fifo), games)) == expected[name], name


def test_validate_reads_a_stream_as_it_comes_without_a_copy(tmp_path: Path) -> None:
    """validate reports the first games of a pipe while the rest is still to come (an endless stream was
    copied whole to a temporary file before any game was read), and writes no temporary file."""
    game = '[Event "{}"]\n\n1. h2e2 h9g7 2. h0g2 i9h9 *\n\n'
    first = "".join(game.format(i) for i in range(20_000)).encode()   # about 900 KB: several chunks
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    env = dict(os.environ, PYTHONPATH=str(ROOT), TMPDIR=str(scratch))
    proc = subprocess.Popen(XQ + ["validate", "-q", "/dev/stdin", "--report", "-"], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT, env=env)
    assert proc.stdin is not None and proc.stdout is not None
    stdin, seen = proc.stdin, threading.Event()

    def feed() -> None:   # from a thread: the reports fill their pipe while the games are still written
        stdin.write(first)
        stdin.flush()
        if seen.wait(TIMEOUT):
            stdin.write(game.format("last").encode())
        stdin.close()

    writer = threading.Thread(target=feed, daemon=True)
    writer.start()
    try:
        line = proc.stdout.readline()          # a report before the stream ends
        assert not seen.is_set() and writer.is_alive()
        assert json.loads(line)["ok"] is True and json.loads(line)["source"] == "/dev/stdin"
        assert list(scratch.iterdir()) == []
        seen.set()
        rest = proc.stdout.read().decode().splitlines()
        assert proc.wait(TIMEOUT) == 0
    finally:
        seen.set()
        proc.kill()
        writer.join(TIMEOUT)
    assert len(rest) + 1 == 20_001 and all(json.loads(r)["ok"] for r in rest)
    assert list(scratch.iterdir()) == []


@pytest.mark.parametrize("signame", ["SIGTERM", "SIGHUP"])
def test_a_command_ended_by_a_signal_removes_its_copy_of_a_stream(tmp_path: Path, signame: str) -> None:
    """validate --html copies a stream to read its problem games again; killed (SIGTERM) or its terminal gone
    (SIGHUP), it left the copy behind. Now the copy is removed and the status is 128 + the signal."""
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    env = dict(os.environ, PYTHONPATH=str(ROOT), TMPDIR=str(scratch))
    signum = getattr(signal, signame)
    proc = subprocess.Popen(XQ + ["validate", "-q", "/dev/stdin", "--html", str(tmp_path / "r.html")],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT, env=env)
    assert proc.stdin is not None
    try:
        proc.stdin.write(b'[Event "x"]\n\n1. h2e2 h9g7 *\n\n')   # and more to come: the copy waits
        proc.stdin.flush()
        deadline = time.monotonic() + TIMEOUT
        # Wait for the copy itself: tempfile first probes TMPDIR with a file it writes and removes at once, which
        # a wait for any file could catch (then the copy was not there yet).
        while (not any(p.name.startswith("xiangqi-input-") for p in scratch.iterdir())
               and time.monotonic() < deadline):
            time.sleep(0.02)
        assert [p.name[:14] for p in scratch.iterdir()] == ["xiangqi-input-"]
        time.sleep(0.3)
        proc.send_signal(signum)
        code = proc.wait(TIMEOUT)
        err = proc.stderr.read().decode() if proc.stderr else ""
    finally:
        proc.kill()
        proc.wait(TIMEOUT)
    assert list(scratch.iterdir()) == [], "the copy of the stream is left behind"
    assert code == 128 + signum and "Traceback" not in err, (code, err)


def test_streams_size_the_pool_and_tell_pages_and_draw_html_like_files(tmp_path: Path) -> None:
    """A stream has no size: it counts as a big input (a pool for --jobs, not one process); a page named .html
    holding its DhtmlXQ block after the first 64 KiB reads as DhtmlXQ, and --html draws a stream's problem
    games with their players, as for files."""
    from xiangqi import pools as P

    fifo = tmp_path / "page.html"
    os.mkfifo(fifo)
    assert P._input_bytes([str(fifo)]) == P._STREAM_BYTES and P._workers([str(fifo)], 2) == 2
    page = ("<p>filler</p>\n" * 5000 + "[DhtmlXQ][DhtmlXQ_movelist]77477062[/DhtmlXQ_movelist][/DhtmlXQ]\n").encode()
    bad = '[Red "甲"]\n[Black "乙"]\n\n1. h2e2 h9g7 2. h2h9 *\n\n'.encode()
    for path, data, args in ((fifo, page, []), (tmp_path / "bad.pgn", bad, ["--html", str(tmp_path / "r.html")])):
        if path.suffix == ".pgn":
            os.mkfifo(path)

        def feed(path: Path = path, data: bytes = data) -> None:
            with open(path, "wb") as fh:
                fh.write(data)

        writer = threading.Thread(target=feed, daemon=True)
        writer.start()
        code, out, err = _run(["validate", "-q", str(path), "--report", "-"] + args)
        writer.join(TIMEOUT)
        report = json.loads(out.splitlines()[0])
        assert "Traceback" not in err and report["source"] == str(path)
        if path == fifo:
            assert code == 0 and report["ok"] and report["plies"] == 2
        else:
            assert code == 1 and not report["ok"]
            html = (tmp_path / "r.html").read_text(encoding="utf-8")
            assert "甲" in html and "乙" in html


def test_a_stream_read_asks_for_whole_blocks_and_its_end_stays() -> None:
    """TextLines asks for its block size each time (it asked for as few bytes as the last block held: 1.6 M
    reads of 3 bytes after a short line and a long one); a stream's end, once read, stays (a terminal's
    Ctrl-D ends one read only)."""
    import io

    from xiangqi._encoding import TextLines
    from xiangqi.source import poll_reader

    data = io.BytesIO(b"ab\n" + b"y" * 5_000_000)
    sizes: List[int] = []

    def read(n: int) -> bytes:
        sizes.append(n)
        return data.read(n)

    assert sum(1 for _ in TextLines(read, max_line=1 << 20)) == 2 and len(sizes) < 40
    r, w = os.pipe()
    os.write(w, b"x")   # poll sees input; the reads below are scripted

    class Terminal:
        def __init__(self) -> None:
            self.script = [b"[Event", b"", b"more after Ctrl-D"]

        def fileno(self) -> int:
            return r

        def read(self, n: int) -> bytes:
            return self.script.pop(0)

    try:
        reader = poll_reader(Terminal())  # type: ignore[arg-type]
        assert (reader(100), reader(100), reader(1)) == (b"[Event", b"", b"")
    finally:
        os.close(r)
        os.close(w)


# ---------------------------------------------------------------------------------------------------------------
# Usage errors and Ctrl-C
# ---------------------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("depth", ["65", "-1", "1000"])
def test_perft_depth_out_of_range_is_a_usage_error(depth: str) -> None:
    code, out, err = _run(["perft", "--depth", depth])
    assert code == 2 and out == "" and "Traceback" not in err
    assert err.splitlines()[-1] == f"xiangqi perft: error: --depth must be between 0 and 64, not {depth}"


@pytest.mark.parametrize("command", ["perft", "validate", "convert", "judge", "render", "engine", "match"])
def test_ctrl_c_while_a_command_loads_is_one_line_and_exit_130(command: str, monkeypatch: pytest.MonkeyPatch,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    """A Ctrl-C during the import of a command's module (numpy, the C core: a noticeable moment) ended in a
    traceback: the exit policy covers the whole run, not only the command's own code. The Ctrl-C comes in the
    import of the module (``importlib.import_module``) or, for perft, which the command line holds itself, in the
    reading of its arguments."""
    import argparse
    import importlib

    def interrupted(*args: object) -> object:
        raise KeyboardInterrupt

    monkeypatch.setattr(importlib, "import_module", interrupted)
    monkeypatch.setattr(argparse.ArgumentParser, "parse_args", interrupted)
    assert main([command, "--help"]) == 130
    assert _one_line(capsys.readouterr().err) == f"xiangqi {command}: interrupted"


@pytest.mark.parametrize("command", ["validate", "convert", "judge"])
def test_ctrl_c_ends_every_command_with_one_line_and_exit_130(command: str, tmp_path: Path) -> None:
    """Interrupted while blocked on its input (a FIFO nobody writes to yet)."""
    fifo = tmp_path / "in.pgn"
    os.mkfifo(fifo)
    args = XQ + [command, str(fifo)] + ([str(tmp_path / "out.pgn")] if command == "convert" else [])
    proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT,
                            env=dict(os.environ, PYTHONPATH=str(ROOT)))
    deadline = time.monotonic() + TIMEOUT
    fd = -1
    while fd < 0:  # the FIFO opens for writing once the command has opened it for reading: it is waiting
        assert proc.poll() is None and time.monotonic() < deadline, proc.communicate()
        try:
            fd = os.open(fifo, os.O_WRONLY | os.O_NONBLOCK)
        except OSError:
            time.sleep(0.02)
    try:
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=TIMEOUT)
    finally:
        os.close(fd)
    assert proc.returncode == 130
    assert _one_line(err.decode()) == f"xiangqi {command}: interrupted"
    assert not (tmp_path / "out.pgn").exists()
