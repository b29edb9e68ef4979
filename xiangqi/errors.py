"""The exception hierarchy: every error the library raises on bad input.

All of them derive from :class:`XiangqiError` and from :class:`ValueError`
(except :class:`InternalError`, and :class:`EngineError`, which is about an
engine process rather than input), so ``except ValueError`` keeps working for
code that does not know this library.
"""

from __future__ import annotations

__all__ = [
    "XiangqiError",
    "InvalidFenError",
    "InvalidMoveError",
    "IllegalMoveError",
    "AmbiguousMoveError",
    "InvalidRecordError",
    "InternalError",
    "EngineError",
    "EngineTerminatedError",
    "ConcurrentUseError",
]


class XiangqiError(Exception):
    """Base class of every error raised by this library."""


class InvalidFenError(XiangqiError, ValueError):
    """A FEN string could not be read.

    ``offset`` is the 0-based byte offset of the first bad character, or -1
    when the problem is not tied to one place (a missing king, say).
    """

    def __init__(self, message: str, *, fen: str = "", offset: int = -1) -> None:
        super().__init__(message)
        self.fen = fen
        self.offset = offset


class InvalidMoveError(XiangqiError, ValueError):
    """A move text is not a move in any notation this library reads."""


class IllegalMoveError(XiangqiError, ValueError):
    """A well-formed move that is not legal in the position."""


class AmbiguousMoveError(XiangqiError, ValueError):
    """A move text that matches more than one legal move."""


class InvalidRecordError(XiangqiError, ValueError):
    """Data that is not a game record of the expected format at all (XQF magic missing, say).

    Readers raise it when nothing more can be read: a file that is not XQF,
    damaged gzip data (raised after every line before the damage has been
    yielded by the source layer; :func:`xiangqi.pgn.read_games` records it
    in the last game's errors instead). Problems inside a record that can be
    read go to :attr:`Game.errors` instead; there it also stands for a
    truncated XQF body, damaged compressed data or a PGN line cut at its
    length limit.
    """


class InternalError(XiangqiError, RuntimeError):
    """The C core returned a status that cannot happen: a bug in this library."""


class EngineError(XiangqiError, RuntimeError):
    """An engine process misbehaved: it did not answer in time, broke the protocol or sent an illegal move.

    The message names the engine, what it sent (or failed to send) and the
    position; ``stderr`` holds the last lines the engine wrote there.
    """

    def __init__(self, message: str, *, stderr: str = "") -> None:
        super().__init__(message)
        self.stderr = stderr


class EngineTerminatedError(EngineError):
    """The engine process exited (or could not be started) while it was expected to answer."""


class ConcurrentUseError(XiangqiError, RuntimeError):
    """One :class:`~xiangqi.Board` was changed from two threads at once (a Board is not thread-safe)."""
