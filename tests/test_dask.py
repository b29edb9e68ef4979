"""Validation on a real Dask cluster: same reports as one process, and no chunk lost when a worker dies."""

from __future__ import annotations

import os
import re
import signal
import time
from pathlib import Path
from typing import Iterator, List, Tuple

import pytest

distributed = pytest.importorskip("distributed")

from xiangqi import validate as V  # noqa: E402

SHARED = Path(__file__).resolve().parents[2] / "shared"
GAMES = SHARED / "data" / "games"
SAMPLE = Path(__file__).resolve().parent / "data" / "sample"


@pytest.fixture(scope="module")
def cluster() -> Iterator[Tuple[object, object]]:
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0",
                                  silence_logs=50) as lc, distributed.Client(lc) as client:
        yield lc, client


@pytest.fixture(scope="module")
def collection(tmp_path_factory: pytest.TempPathFactory) -> List[Path]:
    """Master games (1,000 of them when the shared data is there) plus the sample collection."""
    paths = [SAMPLE]
    src = GAMES / "ccpd-master-3000.chinese.pgn"
    if src.exists():
        games = re.split(r"\n\n(?=\[Game )", src.read_text(encoding="utf-8").strip("\n"))[:1000]
        p = tmp_path_factory.mktemp("dask") / "master-1000.chinese.pgn"
        p.write_text("\n\n".join(games) + "\n", encoding="utf-8")
    else:
        # Without the shared data, enough work to kill a worker mid-run: the sample's clean PGN games, many times.
        text = (SAMPLE / "ccpd-master-24.chinese.pgn").read_text(encoding="utf-8").strip("\n")
        p = tmp_path_factory.mktemp("dask") / "sample-repeated.chinese.pgn"
        p.write_text("\n\n".join([text] * 60) + "\n", encoding="utf-8")
    paths.insert(0, p)
    return paths


def json_lines(reports: object) -> List[str]:
    return [r.to_json() for r in reports]  # type: ignore[attr-defined]


def test_dask_reports_equal_single_process(cluster: Tuple[object, object], collection: List[Path]) -> None:
    _, client = cluster
    single = json_lines(V.validate(collection))
    ex = client.get_executor(retries=2, pure=False)  # type: ignore[attr-defined]
    on_dask = json_lines(V.validate(collection, executor=ex, chunk_bytes=16 * 1024))
    assert on_dask == single  # in input order, not only after sorting
    assert sorted(on_dask) == sorted(single)
    assert "\n".join(sorted(on_dask)).encode() == "\n".join(sorted(single)).encode()


def test_worker_killed_while_working(cluster: Tuple[object, object], collection: List[Path]) -> None:
    lc, client = cluster
    single = json_lines(V.validate(collection))
    ex = client.get_executor(retries=2, pure=False)  # type: ignore[attr-defined]
    reports = V.validate(collection, executor=ex, chunk_bytes=4 * 1024)
    got = [next(reports).to_json() for _ in range(50)]
    # Kill a worker that has chunks assigned to it, without warning.
    victim = None
    deadline = time.monotonic() + 10
    while victim is None and time.monotonic() < deadline:
        busy = {addr: tasks for addr, tasks in client.processing().items() if tasks}  # type: ignore[attr-defined]
        if busy:
            victim = sorted(busy)[0]
    assert victim is not None, "no worker had work in flight"
    pid = client.run(os.getpid, workers=[victim])[victim]  # type: ignore[attr-defined]
    os.kill(pid, signal.SIGKILL)
    got.extend(r.to_json() for r in reports)
    assert got == single
    # The nanny restarted the dead worker: the cluster is whole again.
    client.wait_for_workers(2, timeout=60)  # type: ignore[attr-defined]


def test_cli_on_a_running_scheduler(cluster: Tuple[object, object], collection: List[Path], tmp_path: Path,
                                    capsys: pytest.CaptureFixture[str]) -> None:
    lc, _ = cluster
    single = tmp_path / "single.jsonl"
    on_dask = tmp_path / "dask.jsonl"
    args = [str(p) for p in collection]
    assert V.validate_main(args + ["--report", str(single), "-q"]) == 1
    assert V.validate_main(args + ["--report", str(on_dask), "-q", "--dask", lc.scheduler_address]) == 1  # type: ignore[attr-defined]
    assert sorted(on_dask.read_bytes().splitlines()) == sorted(single.read_bytes().splitlines())


def test_cli_starts_a_local_cluster(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    single = tmp_path / "single.jsonl"
    on_dask = tmp_path / "dask.jsonl"
    assert V.validate_main([str(SAMPLE), "--report", str(single), "-q"]) == 1
    assert V.validate_main([str(SAMPLE), "--report", str(on_dask), "--dask", "--jobs", "2"]) == 1
    assert re.search(r"games\s+44", capsys.readouterr().out)
    assert on_dask.read_bytes() == single.read_bytes()
