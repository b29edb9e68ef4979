"""Input and output files of the ``xiangqi`` commands: one policy for every command.

* Output: every stream a command writes (standard output, a ``--report``
  file, ``convert``'s OUT) goes through :func:`guard`, which turns a failed
  write into :class:`OutputError`. Input errors stay ``OSError``, so a
  command never blames its input for a full disk or a closed pipe, and
  :func:`xiangqi.cli.main` reports every output failure the same way.
* Input: ``validate`` reads a stream (a pipe, a FIFO, ``/dev/stdin``) as it
  comes (:class:`xiangqi.source.ByteSource`); for ``convert``, ``judge``
  and ``validate --html`` (which reads its problem games again)
  :func:`regular_input` gives a regular file to read: a stream is copied to
  a temporary file first, so that their readers (which may seek, sniff and
  reopen) see the same bytes once.
* Files: :func:`same_file` compares files, not path strings (hard links,
  symbolic links, bind mounts).
"""

from __future__ import annotations

import argparse
import contextlib
import errno
import os
import signal
import stat
import tempfile
import threading
from pathlib import Path
from typing import IO, Iterable, Iterator, Optional, TextIO, cast

from xiangqi.rulesets import DEFAULT_RULES, RULE_SETS, red_must_vary_rounds
from xiangqi.source import poll_reader

__all__ = ["OutputError", "guard", "writing", "reason", "input_problem", "regular_input", "same_file", "is_regular",
           "add_rules_options"]


def add_rules_options(parser: argparse.ArgumentParser, rules_help: str) -> None:
    """Add ``--rules`` (a name of :data:`xiangqi.rulesets.RULE_SETS`) and ``--red-must-vary ROUNDS``: the two
    options of every command that rules on repetitions (``validate``, ``judge``, ``match``), in the same words.

    >>> p = argparse.ArgumentParser(); add_rules_options(p, "rule book")
    >>> p.parse_args(["--rules", "cxa", "--red-must-vary", "0"])
    Namespace(rules='cxa', red_must_vary=0)
    """
    parser.add_argument("--rules", default=DEFAULT_RULES, choices=tuple(RULE_SETS), help=rules_help)
    parser.add_argument("--red-must-vary", type=red_must_vary_rounds, default=None, metavar="ROUNDS",
                        help="within ROUNDS moves of a game from the opening position, Red must vary a repetition "
                             "that would draw (CXA #03 三): default 25 under cxa, 0 (off) under axf")


def reason(exc: OSError) -> str:
    """An ``OSError`` as words (``No space left on device``), without the errno number."""
    return exc.strerror or str(exc) or type(exc).__name__


class OutputError(Exception):
    """Writing the output named ``target`` failed with ``cause``; the input is not to blame."""

    def __init__(self, target: str, cause: OSError) -> None:
        super().__init__(f"cannot write {target}: {reason(cause)}")
        self.target = target
        self.cause = cause

    @property
    def broken_pipe(self) -> bool:
        """Whether the reader of the output went away (``xiangqi … | head``)."""
        return isinstance(self.cause, BrokenPipeError) or self.cause.errno == errno.EPIPE


class _Guarded:
    """A text stream whose write errors are :class:`OutputError`; ``None`` stands for a closed stream.

    A plain object rather than an ``io`` class: being collected must not close the stream it wraps
    (standard output outlives it).
    """

    def __init__(self, stream: Optional[IO[str]], target: str) -> None:
        self._stream = stream
        self._target = target
        self.closed = False

    def _get(self) -> IO[str]:
        if self._stream is None:
            raise OutputError(self._target, OSError(errno.EBADF, "it is closed"))
        return self._stream

    def write(self, s: str) -> int:
        try:
            return self._get().write(s)
        except OSError as exc:
            raise OutputError(self._target, exc) from exc

    def writelines(self, lines: Iterable[str]) -> None:
        for line in lines:
            self.write(line)

    def flush(self) -> None:
        if self._stream is None:
            return
        try:
            self._stream.flush()
        except OSError as exc:
            raise OutputError(self._target, exc) from exc

    def close(self) -> None:
        """Close the stream wrapped (flushing it)."""
        stream, self._stream = self._stream, None
        self.closed = True
        if stream is None:
            return
        try:
            stream.close()
        except OSError as exc:
            raise OutputError(self._target, exc) from exc

    def fileno(self) -> int:
        return self._get().fileno()

    def isatty(self) -> bool:
        return self._stream is not None and self._stream.isatty()

    def writable(self) -> bool:
        return True

    @property
    def encoding(self) -> str:
        return getattr(self._stream, "encoding", None) or "utf-8"

    def __enter__(self) -> "_Guarded":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def guard(stream: Optional[IO[str]], target: str) -> TextIO:
    """``stream`` with its write, flush and close errors raised as :class:`OutputError` naming ``target``.

    ``None`` (what Python makes of a closed standard output) gives a stream
    whose first write fails, so output is never lost silently.
    """
    if isinstance(stream, _Guarded):
        return cast(TextIO, stream)
    return cast(TextIO, _Guarded(stream, target))


@contextlib.contextmanager
def writing(target: str) -> Iterator[None]:
    """Raise the ``OSError`` of the block as :class:`OutputError` naming ``target`` (one-shot writes)."""
    try:
        yield
    except OSError as exc:
        raise OutputError(target, exc) from exc


def is_regular(path: str) -> bool:
    """Whether ``path`` is (or links to) a regular file."""
    try:
        return stat.S_ISREG(os.stat(path).st_mode)
    except OSError:
        return False


def same_file(a: str, b: str) -> bool:
    """Whether two paths name the same file (device and inode); ``False`` if either does not exist."""
    try:
        return os.path.samefile(a, b)
    except OSError:
        return False


def input_problem(path: str) -> Optional[str]:
    """Why ``path`` cannot be one game file to read (missing, a directory), or ``None``."""
    if os.path.isdir(path):
        return f"{path} is a directory (give one game file)"
    if not os.path.exists(path):
        return f"no such file: {path}"
    return None


def _copy_stream(src: IO[bytes], dst: IO[bytes]) -> None:
    """Copy the unbuffered stream ``src`` to ``dst``, interruptible by Ctrl-C at any moment
    (:func:`xiangqi.source.poll_reader`)."""
    read = poll_reader(src)
    while True:
        block = read(1 << 20)
        if not block:
            return
        dst.write(block)


@contextlib.contextmanager
def regular_input(path: str) -> Iterator[str]:
    """A regular file holding ``path``'s bytes: ``path`` itself, or for a stream (pipe, FIFO, device such
    as ``/dev/stdin``) a temporary copy with the same extensions (so formats are still told by name),
    deleted afterwards. Raises ``OSError`` when ``path`` cannot be read."""
    st = os.stat(path)
    if stat.S_ISREG(st.st_mode) or stat.S_ISDIR(st.st_mode):
        yield path
        return
    suffix = "".join(Path(path).suffixes)[-32:]
    with _ending_on_signals():
        fd, tmp = tempfile.mkstemp(prefix="xiangqi-input-", suffix=suffix)
        try:
            with os.fdopen(fd, "wb") as dst, open(path, "rb", buffering=0) as src:
                _copy_stream(src, dst)
            yield tmp
        finally:
            os.unlink(tmp)


#: Signals that end a command which holds a temporary file, once it is removed: ``kill`` and a closed terminal.
_ENDING_SIGNALS = tuple(getattr(signal, name) for name in ("SIGTERM", "SIGHUP") if hasattr(signal, name))


def _end(signum: int, frame: object) -> None:
    raise SystemExit(128 + signum)   # the shell's status of a process ended by the signal


@contextlib.contextmanager
def _ending_on_signals() -> Iterator[None]:
    """Within the block, SIGTERM and SIGHUP end the process as an exception does, running the ``finally`` blocks
    that remove temporary files (the default action ended it at once: ``validate /dev/stdin --html`` killed
    left its copy of the stream behind), with exit status 128 + the signal. A handler the program set stays."""
    if threading.current_thread() is not threading.main_thread():
        yield   # only the main thread may set handlers
        return
    previous = {}
    for signum in _ENDING_SIGNALS:
        if signal.getsignal(signum) == signal.SIG_DFL:
            previous[signum] = signal.signal(signum, _end)
    try:
        yield
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)
