"""Running validation: the chunks of the input on this process, on a pool of worker processes (this process
checking chunks too) or on any :class:`concurrent.futures.Executor` (a Dask cluster: :func:`dask_executor`),
their reports in input order (:func:`run`).

>>> import os, tempfile
>>> path = os.path.join(tempfile.mkdtemp(), "one.pgn")
>>> _ = open(path, "w", encoding="utf-8").write("1. h2e2 h9g7 *\\n")
>>> [(r.index, r.ok, r.plies) for r in run([path], "axf", 1, None, "auto", DEFAULT_CHUNK_BYTES)]
[(1, True, 2)]
"""

from __future__ import annotations

import collections
import concurrent.futures
import concurrent.futures.process
import contextlib
import dataclasses
import importlib
import logging
import os
import stat
import sys
import threading
from typing import Any, Callable, Deque, Dict, Iterator, List, Optional, Sequence, Tuple

from xiangqi import formats
from xiangqi.checking import validate_chunk
from xiangqi.chunks import DEFAULT_CHUNK_BYTES, Chunk, ChunkSizes, iter_chunks, spans
from xiangqi.reports import ErrorInfo, GameReport

__all__ = ["SERIAL_BYTES", "BYTES_PER_WORKER", "LOOKAHEAD_CHUNKS", "LOOKAHEAD_BYTES", "PoolSettings", "run",
           "dask_executor"]


#: Inputs smaller than this are validated in this process whatever ``jobs`` says: the work (about 20 ms a
#: megabyte of PGN) does not pay for starting worker processes (each also warms its own caches).
SERIAL_BYTES = 2 * 1024 * 1024
#: Each worker gets at least this much input (``jobs`` is an upper bound on the processes started).
BYTES_PER_WORKER = 1024 * 1024


#: The largest chunk the own pool's workers get when the chunk size is left to this module.
_POOL_CHUNK_MAX = 2 * 1024 * 1024


def _pool_chunk_sizes(files: Sequence[str], workers: int, chunk_bytes: int) -> ChunkSizes:
    """The chunk sizes for the own pool: the default grows with the input, to about an eighth of a worker's
    share (at most :data:`_POOL_CHUNK_MAX`), since each chunk costs the parent a submission and its
    worker a start-up, and fewer, bigger chunks keep both cores on the games (measured on a 20 MB file, two
    jobs: 0.42 s with 256 KiB chunks, 0.38 s with 2 MiB); towards the end of the input they shrink
    (:class:`ChunkSizes`). A size the caller chose is kept throughout."""
    if chunk_bytes != DEFAULT_CHUNK_BYTES:
        return ChunkSizes(chunk_bytes)
    total = _input_bytes(files)
    workers = max(1, workers)
    return ChunkSizes(max(DEFAULT_CHUNK_BYTES, min(_POOL_CHUNK_MAX, total // (8 * workers))), total, workers)


#: What a stream (a pipe, a FIFO, /dev/stdin: its size is not known) counts as when the pool is sized.
_STREAM_BYTES = 64 * 1024 * 1024


def _input_bytes(files: Sequence[str]) -> int:
    """The size of the input on disk (compressed files counted four times: they expand; a stream as
    :data:`_STREAM_BYTES`)."""
    total = 0
    for f in files:
        try:
            st = os.stat(f)
        except OSError:
            continue
        size = st.st_size if stat.S_ISREG(st.st_mode) else _STREAM_BYTES
        total += 4 * size if f.lower().endswith(".gz") else size
    return total


def _workers(files: Sequence[str], jobs: int, settings: Optional["PoolSettings"] = None) -> int:
    """The processes to check ``files`` with for ``jobs`` (this one and the workers it starts): ``jobs`` at
    most, one per :data:`BYTES_PER_WORKER` of input, and 1 (this process, no pool) below :data:`SERIAL_BYTES`."""
    if jobs <= 1:
        return 1
    total = _input_bytes(files)
    s = settings or _DEFAULT
    if total < s.serial_bytes:
        return 1
    return max(1, min(jobs, total // max(1, s.bytes_per_worker)))


def _process_pool(workers: int) -> concurrent.futures.ProcessPoolExecutor:
    """A pool of ``workers`` processes, forked on Linux when this process runs no other thread (a fork
    starts in milliseconds and inherits the imported modules; other start methods re-import the package)."""
    import multiprocessing

    ctx = None
    if sys.platform.startswith("linux") and threading.active_count() == 1 and \
            "fork" in multiprocessing.get_all_start_methods():
        ctx = multiprocessing.get_context("fork")
    return concurrent.futures.ProcessPoolExecutor(max_workers=workers, mp_context=ctx, initializer=_worker_start,
                                                  initargs=(os.getpid(),))


def _worker_start(parent: int) -> None:
    """In a pool worker: leave Ctrl-C (sent to the whole process group) to the parent, which stops the pool,
    instead of each worker printing a traceback; and end with the parent (on Linux): a parent killed alone
    (``kill PID``, the OOM killer) left its workers blocked for ever on a pipe nobody reads, holding the input,
    the report and the caller's pipes open."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if sys.platform.startswith("linux"):
        import ctypes

        try:
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(1, signal.SIGTERM, 0, 0, 0)  # PR_SET_PDEATHSIG
        except (OSError, AttributeError):  # pragma: no cover - no prctl: the worker lives on as before
            return
        if os.getppid() != parent:  # the parent died before the request took effect
            os._exit(1)


def run(files: List[str], rules: str, jobs: int, executor: Optional[concurrent.futures.Executor], fmt: str,
        chunk_bytes: int, settings: Optional["PoolSettings"] = None) -> Iterator[GameReport]:
    """The reports of every game of ``files`` in input order (what :func:`xiangqi.validate.validate` yields, its
    arguments checked): under the rule set ``rules``, on ``executor`` if given, else on at most ``jobs`` processes
    (this one and a pool of workers, none for a small input: :data:`SERIAL_BYTES`), the format ``fmt`` (or
    ``"auto"``) and PGN cut into chunks of about ``chunk_bytes``; ``settings`` say how the own pool shares the
    work (:class:`PoolSettings`).

    >>> [(r.index, r.ok) for r in run([_example_pgn()], "axf", 2, None, "auto", DEFAULT_CHUNK_BYTES)]
    [(1, True), (2, False)]
    """
    settings = settings or _DEFAULT
    if executor is None:
        jobs = _workers(files, jobs, settings)
    chunks = iter_chunks(files, fmt=fmt, chunk_bytes=chunk_bytes)  # lazy: not read when the own pool runs
    counters: Dict[int, int] = collections.defaultdict(int)

    def renumber(chunk: Chunk, reports: List[GameReport]) -> List[GameReport]:
        base = counters[chunk.file_number]
        counters[chunk.file_number] = base + len(reports)
        if base:
            for r in reports:
                # Fresh records that nobody else holds yet: setting the index in place is safe (and
                # several times cheaper than dataclasses.replace on this hot path; see _report).
                r.__dict__["index"] = base + r.index
        return reports

    if executor is None and jobs == 1:
        for chunk, _ in spans(files, fmt, chunk_bytes):
            yield from renumber(chunk, validate_chunk(chunk, rules))
        return
    own: Optional[concurrent.futures.Executor] = None
    if executor is None:
        # This process is one of the jobs: it cuts the input, and checks chunks itself whenever the workers
        # have enough in hand, so that jobs processes share the jobs cores (not jobs workers and this one).
        own = executor = settings.start_pool(jobs - 1)
        workers = jobs - 1
    else:
        workers = max(jobs, getattr(executor, "_max_workers", 0) or 0, _dask_workers(executor))
    if own is not None:
        try:
            yield from _scheduled(spans(files, fmt, _pool_chunk_sizes(files, jobs, chunk_bytes)), own, rules, workers,
                                  renumber, local=True, settings=settings)
        finally:
            own.shutdown(wait=True, cancel_futures=True)
        return
    # Any other executor (Dask, or one the caller made): chunks are submitted in input order, many in
    # flight per worker, so that a slow chunk at the head does not leave the other workers idle while its
    # reports are awaited.
    window = max(4, 16 * workers)
    pending: Deque[Tuple[Chunk, Any]] = collections.deque()
    try:
        for chunk in chunks:
            if chunk.stream is not None:   # the rest of a file as lines: checked here, after the chunks before it
                while pending:
                    c, fut = pending.popleft()
                    yield from renumber(c, _outcome(executor, c, fut, rules))
                yield from renumber(chunk, validate_chunk(chunk, rules))
                continue
            pending.append((chunk, executor.submit(validate_chunk, chunk, rules)))
            while len(pending) >= window:
                c, fut = pending.popleft()
                yield from renumber(c, _outcome(executor, c, fut, rules))
        while pending:
            c, fut = pending.popleft()
            yield from renumber(c, _outcome(executor, c, fut, rules))
    finally:
        for _, fut in pending:
            fut.cancel()


def _outcome(executor: concurrent.futures.Executor, chunk: Chunk, fut: "concurrent.futures.Future[Any]",
             rules: str) -> List[GameReport]:
    """The reports of ``chunk`` from ``fut``, its run on ``executor``, which runs it once more if that run
    failed: :func:`validate_chunk` reports bad data and does not raise, so a failure is the executor's (a
    Dask worker killed at the wrong moment can fail a future with an error of Dask's own, though the
    scheduler retries the task)."""
    reports: List[GameReport]
    try:
        reports = fut.result()
    except concurrent.futures.CancelledError:
        raise
    except Exception:
        reports = executor.submit(validate_chunk, chunk, rules).result()
    return reports


#: Chunks read ahead of the one whose reports are due next, when this module runs its own pool.
LOOKAHEAD_CHUNKS = 64
#: And at most this much of their data waiting to be handed out: the workers start once that much is read,
#: not after 64 big chunks (a 20 MB file was read whole, 80 ms, before its first chunk started).
LOOKAHEAD_BYTES = 4 * 1024 * 1024
def _cost(chunk: Chunk) -> int:
    """An estimate of a chunk's work, to start the costliest first."""
    return len(chunk.data) * formats.FORMATS[chunk.fmt].cost


def _scheduled(spans: Iterator[Tuple[Chunk, Optional[int]]], pool: concurrent.futures.Executor, rules: str,
               workers: int, renumber: Callable[[Chunk, List[GameReport]], List[GameReport]],
               local: bool = False, settings: Optional["PoolSettings"] = None) -> Iterator[GameReport]:
    """Run the chunks of ``spans`` (:func:`spans`) on this module's own ``pool``; yield their reports in
    input order.

    Up to ``settings.lookahead_chunks`` chunks (``lookahead_bytes`` not yet handed out: :class:`PoolSettings`)
    are read ahead, and only ``2 * workers`` are in the pool at a
    time, the costliest of those read first (:func:`_cost`): a slow chunk near the end (one XQF file
    with a big variation tree can be a quarter of a corpus's work) starts early instead of leaving the
    other workers idle while it finishes last. A chunk that is a plain file's own bytes goes to its worker
    as (path, offset, length), which reads them itself (the pool is forked: same files, same cwd); one
    whose worker cannot read the same length back is checked here. With ``local``, this process checks
    a chunk itself (the next in input order) whenever the pool holds all it takes, instead of waiting. A chunk
    that is the rest of a file as lines (:attr:`xiangqi.chunks.Chunk.stream`) is checked here when its turn
    comes, and nothing is read after it until then.
    """
    s = settings or _DEFAULT
    check_here = s.check_here
    inflight = 2 * workers
    held: Dict[int, Tuple[Chunk, Optional[int]]] = {}  # read and not yet yielded, by input position
    ahead: List[int] = []  # read and not yet submitted, in input order
    futures: Dict[int, "concurrent.futures.Future[Any]"] = {}  # List[_Packed], or None (see below)
    mine: Dict[int, List[GameReport]] = {}  # the reports of the chunks checked here
    running: set["concurrent.futures.Future[Any]"] = set()
    read = 0
    due = 0
    ahead_bytes = 0  # the data of the chunks in ahead
    exhausted = False
    broken = False  # the pool lost a worker: it takes no more chunks
    streamed = -1  # the position of a chunk read as lines, until it is checked (the spans wait for it)
    try:
        while True:
            while not exhausted and streamed < 0 and len(held) < s.lookahead_chunks and \
                    ahead_bytes < s.lookahead_bytes:
                span = next(spans, None)
                if span is None:
                    exhausted = True
                    break
                held[read] = span
                if span[0].stream is not None:
                    streamed = read
                else:
                    ahead.append(read)
                    ahead_bytes += len(span[0].data)
                read += 1
            while ahead and len(running) < inflight and not broken:
                best = max(ahead, key=lambda i: _cost(held[i][0]))
                chunk, offset = held[best]
                fut: "concurrent.futures.Future[Any]"
                try:
                    if offset is None or len(chunk.data) < s.span_bytes:
                        fut = pool.submit(s.worker_task, chunk, rules)
                    else:
                        fut = pool.submit(s.span_task, dataclasses.replace(chunk, data=b""), offset,
                                          len(chunk.data), rules)
                except concurrent.futures.process.BrokenProcessPool:
                    broken = True  # a worker died (killed, out of memory): this process checks the rest
                    break
                ahead.remove(best)
                ahead_bytes -= len(chunk.data)
                futures[best] = fut
                running.add(fut)
            while due in mine or (due in futures and futures[due].done()) or due == streamed:
                if due == streamed:
                    mine[due], streamed = check_here(held[due][0], rules), -1
                chunk = held.pop(due)[0]
                if due in mine:
                    yield from renumber(chunk, mine.pop(due))
                    due += 1
                    continue
                try:
                    packed = futures.pop(due).result()
                except concurrent.futures.process.BrokenProcessPool:
                    broken, packed = True, None  # its worker died: the chunk is checked here
                due += 1
                if packed is None:  # the worker read something else (the file changed or went away), or died
                    yield from renumber(chunk, check_here(chunk, rules))
                else:
                    yield from renumber(chunk, [_unpack(t) for t in packed])
            if not held and exhausted:
                return
            if (local or broken) and ahead:
                running = {f for f in running if not f.done()}
                if len(running) < inflight and not broken:
                    continue  # a worker is free again: feed it first
                first = min(ahead)
                ahead.remove(first)
                chunk = held[first][0]
                ahead_bytes -= len(chunk.data)
                mine[first] = check_here(chunk, rules)
                continue
            if running:
                finished, _ = concurrent.futures.wait(running, return_when=concurrent.futures.FIRST_COMPLETED)
                running -= finished
    finally:
        for fut in futures.values():
            fut.cancel()


#: Chunks this size or more go to the own pool's workers as (path, offset, length), not as bytes.
_SPAN_BYTES = 16 * 1024


def _validate_span_packed(chunk: Chunk, offset: int, length: int, rules: str) -> Optional[List[_Packed]]:
    """:func:`_validate_chunk_packed` on ``length`` bytes of ``chunk.source`` from ``offset`` (``chunk``
    comes without its data); ``None`` when they cannot be read back whole."""
    try:
        with open(chunk.source, "rb") as fh:
            fh.seek(offset)
            data = fh.read(length)
    except OSError:
        return None
    if len(data) != length:
        return None
    return _validate_chunk_packed(dataclasses.replace(chunk, data=data), rules)


#: A report as a worker process sends it back: the fields of :class:`GameReport` in order, its error and
#: warnings as tuples of :class:`ErrorInfo` fields (a third of the pickled size of the dataclasses, and
#: rebuilt in the parent in half the time unpickling them takes).
_Packed = Tuple[Any, ...]
_REPORT_FIELDS = tuple(f.name for f in dataclasses.fields(GameReport))
_ERROR_FIELDS = tuple(f.name for f in dataclasses.fields(ErrorInfo))


def _pack(r: GameReport) -> _Packed:
    e = r.error
    return (r.source, r.index, r.line, r.ok, r.plies,
            None if e is None else (e.kind, e.ply, e.token, e.message),
            r.result_recorded, r.result_computed, r.termination, r.final_fen,
            tuple((w.kind, w.ply, w.token, w.message) for w in r.warnings))


def _unpack_error(t: Tuple[Any, ...]) -> ErrorInfo:
    e = object.__new__(ErrorInfo)
    e.__dict__.update(zip(_ERROR_FIELDS, t))
    return e


def _unpack(t: _Packed) -> GameReport:
    """The :class:`GameReport` of :func:`_pack`'s tuple (equal to the original; no ``__init__`` run)."""
    r = object.__new__(GameReport)
    d = r.__dict__
    d.update(zip(_REPORT_FIELDS, t))
    if t[5] is not None:
        d["error"] = _unpack_error(t[5])
    if t[10]:
        d["warnings"] = tuple(_unpack_error(w) for w in t[10])
    return r


def _validate_chunk_packed(chunk: Chunk, rules: str) -> List[_Packed]:
    """:func:`validate_chunk` with its reports packed by :func:`_pack` (what this module's own pool runs)."""
    return [_pack(r) for r in validate_chunk(chunk, rules)]


def _dask_workers(executor: Any) -> int:
    client = getattr(executor, "_client", None)
    if client is None:
        return 0
    try:
        return len(client.scheduler_info().get("workers", {}))
    except Exception:  # pragma: no cover - a scheduler that cannot answer
        return 0


@dataclasses.dataclass(frozen=True)
class PoolSettings:
    """How :func:`run` shares the work with its own pool of worker processes: the input below which no pool is
    started (``serial_bytes``), the input each worker gets at least (``bytes_per_worker``), the chunks read ahead
    (``lookahead_chunks``, ``lookahead_bytes``), the chunk size from which a worker reads a plain file's bytes
    itself (``span_bytes``), and the functions that start the pool (``start_pool(workers)``), check a chunk in
    this process (``check_here(chunk, rules)``) and in a worker (``worker_task(chunk, rules)``, and
    ``span_task(chunk, offset, length, rules)`` for a chunk sent without its bytes; module-level functions, which a
    process pool can send, returning the reports packed or ``None`` when the worker could not read them). The
    defaults are this module's; a caller (a test) changes what it needs with :func:`dataclasses.replace`.

    >>> default = PoolSettings()
    >>> default.serial_bytes == SERIAL_BYTES, default.lookahead_chunks == LOOKAHEAD_CHUNKS
    (True, True)
    >>> started = []
    >>> settings = dataclasses.replace(default, serial_bytes=0, bytes_per_worker=1,
    ...                                start_pool=lambda n: started.append(n) or default.start_pool(n))
    >>> [r.ok for r in run([_example_pgn()], "axf", 2, None, "auto", DEFAULT_CHUNK_BYTES, settings)], started
    ([True, False], [1])
    """

    serial_bytes: int = SERIAL_BYTES
    bytes_per_worker: int = BYTES_PER_WORKER
    lookahead_chunks: int = LOOKAHEAD_CHUNKS
    lookahead_bytes: int = LOOKAHEAD_BYTES
    span_bytes: int = _SPAN_BYTES
    # (Factories: a function as a plain default would be a class attribute, which reads as a method.)
    start_pool: Callable[[int], concurrent.futures.Executor] = dataclasses.field(default_factory=lambda: _process_pool)
    check_here: Callable[[Chunk, str], List[GameReport]] = dataclasses.field(default_factory=lambda: validate_chunk)
    worker_task: Callable[[Chunk, str], Optional[List[_Packed]]] = dataclasses.field(
        default_factory=lambda: _validate_chunk_packed)
    span_task: Callable[[Chunk, int, int, str], Optional[List[_Packed]]] = dataclasses.field(
        default_factory=lambda: _validate_span_packed)


_DEFAULT = PoolSettings()


@contextlib.contextmanager
def dask_executor(address: Optional[str] = None, *, workers: Optional[int] = None,
                  retries: int = 3) -> Iterator[concurrent.futures.Executor]:
    """An executor on a Dask cluster: ``address`` of a running scheduler, or a new local cluster.

    The local cluster has ``workers`` single-threaded worker processes (one
    per CPU by default). Chunks lost with a dead worker are run again by
    the scheduler; a chunk that raises is retried ``retries`` times. Needs
    the optional extra: ``pip install 'pyxiangqi[dask]'``. The example starts
    worker processes, so it is not run here; the validation tutorial runs the
    same with ``--dask`` and from Python.

    >>> with dask_executor(workers=2) as executor:                    # doctest: +SKIP
    ...     reports = list(validate("games/", executor=executor))

    Raises:
        * :exc:`ImportError` when the ``dask`` extra (the ``distributed`` package) is not installed.
    """
    try:
        dd: Any = importlib.import_module("distributed")
    except ImportError as exc:
        raise ImportError("Dask support needs the optional extra: pip install 'pyxiangqi[dask]'") from exc
    cluster: Any = None
    client: Any
    if address is None:
        cluster = dd.LocalCluster(n_workers=workers or os.cpu_count() or 1, threads_per_worker=1, processes=True,
                               dashboard_address=":0", silence_logs=logging.ERROR)
        client = dd.Client(cluster)
    else:
        client = dd.Client(address)
    try:
        yield client.get_executor(retries=retries, pure=False)
    finally:
        client.close()
        if cluster is not None:
            cluster.close()
