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
    "ProtocolError",
    "AnalysisComplete",
]


class XiangqiError(Exception):
    """Base class of every error raised by this library.

    >>> from xiangqi import Board
    >>> try:
    ...     Board("not a fen")
    ... except XiangqiError as exc:
    ...     print(type(exc).__name__, isinstance(exc, ValueError))
    InvalidFenError True
    """


class InvalidFenError(XiangqiError, ValueError):
    """A FEN string could not be read.

    ``offset`` is the 0-based byte offset of the first bad character, or -1
    when the problem is not tied to one place (a missing king, say).

    >>> from xiangqi import Board
    >>> try:
    ...     Board("rnbakabnr/9/x w")
    ... except InvalidFenError as exc:
    ...     print(exc.offset, exc.fen)
    12 rnbakabnr/9/x w
    """

    def __init__(self, message: str, *, fen: str = "", offset: int = -1) -> None:
        super().__init__(message)
        self.fen = fen
        self.offset = offset


class InvalidMoveError(XiangqiError, ValueError):
    """A move text is not a move in any notation this library reads.

    >>> from xiangqi import Board
    >>> try:
    ...     Board().push_iccs("z9z9")
    ... except InvalidMoveError as exc:
    ...     print(exc)
    invalid ICCS move 'z9z9': expected a file a-i and a rank 0-9 twice, e.g. 'h2e2'
    """


class IllegalMoveError(XiangqiError, ValueError):
    """A well-formed move that is not legal in the position; the message says why and quotes the FEN.

    >>> from xiangqi import Board
    >>> try:
    ...     Board().push_iccs("a0a5")
    ... except IllegalMoveError as exc:
    ...     print(exc)
    illegal ICCS move 'a0a5' in rnbakabnr/... w - - 0 1: the Red rook on a0 is blocked by the piece on a3
    """


class AmbiguousMoveError(XiangqiError, ValueError):
    """A move text that matches more than one legal move; the message names the pieces.

    >>> from xiangqi import Board
    >>> try:
    ...     Board("3k5/9/9/9/9/9/9/4R4/9/4R1K2 w").parse_move("R5+1")
    ... except AmbiguousMoveError as exc:
    ...     print(exc)
    ambiguous WXF move 'R5+1' in 3k5/9/9/9/9/9/9/4R4/9/4R1K2 w - - 0 1: the Red rooks on e2 and e0 can each
    make it (e2e3, e0e1); name one with +/- (or an ordinal)
    """


class InvalidRecordError(XiangqiError, ValueError):
    """Data that is not a game record of the expected format at all (XQF magic missing, say).

    Readers raise it when nothing more can be read: a file that is not XQF,
    damaged gzip data (raised after every line before the damage has been
    yielded by the source layer; :func:`xiangqi.pgn.read_games` records it
    in the last game's errors instead). Problems inside a record that can be
    read go to :attr:`Game.errors` instead; there it also stands for a
    truncated XQF body, damaged compressed data or a PGN line cut at its
    length limit.

    >>> from xiangqi.xqf import read_xqf
    >>> try:
    ...     read_xqf(b"nope")
    ... except InvalidRecordError as exc:
    ...     print(exc)
    not an XQF file: magic b'no', expected b'XQ'
    """


class InternalError(XiangqiError, RuntimeError):
    """The C core returned a status that cannot happen: a bug in this library.

    It is not a :class:`ValueError`, so ``except ValueError`` around bad input does not hide it.

    >>> issubclass(InternalError, ValueError), issubclass(InternalError, RuntimeError)
    (False, True)
    """


class EngineError(XiangqiError, RuntimeError):
    """An engine process misbehaved: it did not answer in time, broke the protocol or sent an illegal move.

    The message names the engine, what it sent (or failed to send) and the
    position; ``stderr`` holds the last lines the engine wrote there.

    >>> exc = EngineError("engine 'x' sent 'bestmove z9z9'", stderr="debug line")
    >>> exc.stderr, isinstance(exc, ValueError)
    ('debug line', False)
    """

    def __init__(self, message: str, *, stderr: str = "") -> None:
        super().__init__(message)
        self.stderr = stderr


class EngineTerminatedError(EngineError):
    """The engine process exited (or could not be started) while it was expected to answer.

    >>> issubclass(EngineTerminatedError, EngineError)
    True
    """


class ConcurrentUseError(XiangqiError, RuntimeError):
    """One :class:`~xiangqi.Board` was changed from two threads at once (a Board is not thread-safe).

    Give each thread its own board (:meth:`~xiangqi.position.BaseBoard.copy`). It is a :class:`RuntimeError`, a bug in the
    calling program rather than bad input.

    >>> issubclass(ConcurrentUseError, RuntimeError)
    True
    """


class ProtocolError(XiangqiError, ValueError):
    """An engine-protocol line (UCI or UCCI, :mod:`xiangqi.uci`) that cannot be read: an unknown ``go`` word, a
    missing number, a ``position`` without ``startpos`` or ``fen``; the message names the word.

    >>> issubclass(ProtocolError, ValueError)
    True
    """


class AnalysisComplete(XiangqiError):
    """Raised by :meth:`xiangqi.engine.AnalysisResult.get` when the analysis has ended and every info has been read
    (python-chess's ``chess.engine.AnalysisComplete``; :mod:`xiangqi.engine` exports it too).

    >>> issubclass(AnalysisComplete, XiangqiError)
    True
    """
