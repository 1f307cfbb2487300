"""Studies as seeded shards: the same tables serially and on Dask, resumable, cancellable."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pandas as pd
import pytest

from palace import PalaceError
from palace.analysis import cluster, studies
from palace.analysis.shards import Cancelled, Plan, Shard, Watch, add_up, run
from palace.analysis.variants import named

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent
SERIAL = {"progress": False, "scheduler": "serial"}


def small_tables(**run_options: object) -> list[pd.DataFrame]:
    """Every study, small, run wherever `run_options` say."""
    counts = studies.banner_deal_counts(players=[3, 9], deals=6_000, seed=3, **run_options)
    return [
        studies.banner_deal_stats(counts),
        studies.banner_deal_distribution(counts),
        studies.exclusion_flip_rate(sizes=[4, 8], battles=120_000, seed=3, **run_options),
        studies.category_frequencies(sizes=[5, 9], hands=120_000, seed=3, **run_options),
        studies.compare_variants(
            named(["standard", "20-chips"]), hands=90, players=3, seed=3, **run_options
        ),
    ]


def assert_same(a: list[pd.DataFrame], b: list[pd.DataFrame]) -> None:
    assert len(a) == len(b)
    for x, y in zip(a, b, strict=True):
        pd.testing.assert_frame_equal(x, y, check_exact=True)


@pytest.fixture
def small_shards(monkeypatch: pytest.MonkeyPatch) -> None:
    """Many small shards, so a run has a middle to interrupt."""
    monkeypatch.setattr(studies, "HAND_SEATS_PER_SHARD", 60)
    monkeypatch.setattr(studies, "DEAL_BLOCK", 1_000)
    monkeypatch.setattr(studies, "SAMPLE_BLOCK", 30_000)


@pytest.fixture(scope="module")
def serial_tables() -> list[pd.DataFrame]:
    return small_tables(**SERIAL)


# ------------------------------------------------------------------ the runner itself
def test_results_come_back_in_shard_order_and_add_up() -> None:
    plan = Plan("sq", tuple(Shard(pow, {"base": i, "exp": 2}) for i in range(6)))
    assert run(plan, scheduler="serial") == [0, 1, 4, 9, 16, 25]
    assert add_up([{"a": 1, "h": [1]}, {"a": 2, "h": [0, 5]}]) == {"a": 3, "h": [1, 5]}


def test_shard_size_does_not_change_a_table(
    serial_tables: list[pd.DataFrame], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Bot hands are seeded per hand, so the variant table is the same for any shard size."""
    monkeypatch.setattr(studies, "HAND_SEATS_PER_SHARD", 7)
    again = studies.compare_variants(
        named(["standard", "20-chips"]), hands=90, players=3, seed=3, **SERIAL
    )
    pd.testing.assert_frame_equal(again, serial_tables[-1], check_exact=True)


def test_bad_schedulers_are_refused_naming_the_choices(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cluster, "CONNECT_TIMEOUT", "1s")
    with pytest.raises(cluster.SchedulerError, match="'serial', 'local' or an address"):
        cluster.resolve("my laptop")
    with pytest.raises(cluster.SchedulerError, match="cannot reach the Dask scheduler"):
        cluster.client_for("tcp://127.0.0.1:9")  # nothing listens on the discard port


def test_environment_picks_the_scheduler(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(cluster.ENV, "serial")
    assert cluster.resolve() == "serial" and cluster.client_for() is None
    monkeypatch.delenv(cluster.ENV)
    monkeypatch.setenv("DASK_SCHEDULER_ADDRESS", "tcp://10.1.2.3:8786")
    import dask

    dask.config.refresh()
    try:
        assert cluster.resolve() == "tcp://10.1.2.3:8786"
    finally:
        monkeypatch.delenv("DASK_SCHEDULER_ADDRESS")
        dask.config.refresh()
    assert cluster.resolve() == "local"


# ------------------------------------------------------------------ the same tables everywhere
def test_one_and_two_local_workers_give_the_serial_tables(
    serial_tables: list[pd.DataFrame],
) -> None:
    import dask
    from distributed import Client

    def upkeep() -> tuple[object, ...]:
        return tuple(dask.config.get(key) for key in cluster.QUIET_UPKEEP)

    for workers in (1, 2):
        with cluster.local_cluster(workers) as local:
            address = local.scheduler_address
            try:
                assert_same(small_tables(progress=False, scheduler=address), serial_tables)
                with Client(address, set_as_default=False) as probe:
                    # each worker process runs with Dask's upkeep turned down
                    assert (
                        list(probe.run(upkeep).values())
                        == [tuple(cluster.QUIET_UPKEEP.values())] * workers
                    )
            finally:
                cluster.close(address)
    assert dask.config.get("distributed.worker.profile.enabled") is True  # only in the cluster


def test_the_default_local_cluster_gives_the_serial_tables(
    serial_tables: list[pd.DataFrame],
) -> None:
    assert_same(small_tables(progress=False, scheduler="local"), serial_tables)


# ------------------------------------------------------------------ resume and cancel
def test_an_interrupted_study_resumes_where_it_stopped(tmp_path: Path, small_shards: None) -> None:
    variants = named(["standard", "no-limit", "free-discard"])
    seen: list[tuple[int, int]] = []

    def stop_after_five(done: int, total: int) -> None:
        seen.append((done, total))
        if done == 5:
            watch.cancel.set()

    watch = Watch(on_progress=stop_after_five)
    with pytest.raises(Cancelled) as stopped:
        studies.compare_variants(
            variants,
            hands=120,
            seed=8,
            progress=False,
            scheduler="serial",
            cache=tmp_path,
            watch=watch,
        )
    total = seen[-1][1]
    assert stopped.value.done == 5 and total == 3 * -(-120 // studies.hands_per_shard(4, 120))
    (folder,) = tmp_path.iterdir()
    files = sorted(folder.glob("shard-*.json"))
    assert [f.name for f in files] == [f"shard-{i:05d}.json" for i in range(5)]
    stamps = {f.name: f.stat().st_mtime_ns for f in files}

    starts: list[int] = []
    resumed = Watch(on_progress=lambda done, _total: starts.append(done))
    df = studies.compare_variants(
        variants,
        hands=120,
        seed=8,
        progress=False,
        scheduler="serial",
        cache=tmp_path,
        watch=resumed,
    )
    assert starts[0] == 5 and starts[-1] == total  # the five saved shards were not played again
    assert {f.name: f.stat().st_mtime_ns for f in files} == stamps
    pd.testing.assert_frame_equal(
        df, studies.compare_variants(variants, hands=120, seed=8, **SERIAL), check_exact=True
    )


def test_a_shard_file_records_the_numbers_it_was_made_of(tmp_path: Path) -> None:
    studies.exclusion_flip_rate(sizes=[5], battles=2_000, seed=1, cache=tmp_path, **SERIAL)
    (folder,) = tmp_path.iterdir()
    assert folder.name.startswith("exclusion-")
    saved = json.loads((folder / "shard-00000.json").read_text())
    assert saved == studies.exclusion_shard(size=5, battles=2_000, seed=1, block=0)
    # other inputs are another plan: another folder
    studies.exclusion_flip_rate(sizes=[5], battles=2_000, seed=2, cache=tmp_path, **SERIAL)
    assert len(list(tmp_path.iterdir())) == 2


@pytest.mark.slow
def test_the_command_line_resumes_after_being_killed(tmp_path: Path) -> None:
    cache, out, fresh = tmp_path / "cache", tmp_path / "out", tmp_path / "fresh"
    args = [
        sys.executable, "-m", "palace.analysis.studies", "--seed", "5", "--hands", "800",
        "--samples", "20000", "--deals", "1000", "--variants", "standard", "no-limit",
        "--bot", "rules", "--scheduler", "serial", "--quiet", "--cache", str(cache),
    ]  # fmt: skip
    proc = subprocess.Popen([*args, "--out", str(out)], cwd=ROOT, start_new_session=True)
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and proc.poll() is None:
            if len(list(cache.glob("variants-*/shard-*.json"))) >= 2:
                break
            time.sleep(0.05)
        assert proc.poll() is None, "the study ended before it could be interrupted"
        os.killpg(proc.pid, signal.SIGKILL)
    finally:
        proc.kill()
        proc.wait(30)
    kept = {p: p.stat().st_mtime_ns for p in cache.glob("variants-*/shard-*.json")}
    assert 2 <= len(kept) < 32 and not (out / "variants.csv").exists()  # 2 x 16 shards
    done = subprocess.run([*args, "--out", str(out)], cwd=ROOT, timeout=300, capture_output=True)
    assert done.returncode == 0, done.stderr.decode()
    assert {p: p.stat().st_mtime_ns for p in kept} == kept  # resumed, not played again
    ref = subprocess.run(
        [*args[:-2], "--no-cache", "--out", str(fresh)], cwd=ROOT, timeout=300, capture_output=True
    )
    assert ref.returncode == 0, ref.stderr.decode()
    for name in ("variants.csv", "banner_deal.csv", "exclusion_flips.csv", "categories.csv"):
        assert (out / name).read_text() == (fresh / name).read_text(), name


def test_cancel_stops_a_dask_run_promptly(small_shards: None) -> None:
    cluster.client_for("local")  # started before the clock runs
    watch = Watch()
    timer = threading.Timer(1.0, watch.cancel.set)
    timer.start()
    start = time.monotonic()
    with pytest.raises(Cancelled):
        studies.compare_variants(
            named(["standard"]), hands=5_000, players=4, seed=1, progress=False,
            scheduler="local", watch=watch,
        )  # fmt: skip
    assert time.monotonic() - start < 10  # 5,000 hands would take far longer
    timer.cancel()


def test_a_failing_shard_raises_its_error() -> None:
    plan = Plan("bad", (Shard(studies.exclusion_shard, {"size": 4, "battles": -1, "seed": 1,
                                                        "block": 0}),))  # fmt: skip
    with pytest.raises(ValueError):
        run(plan, scheduler="serial")
    with pytest.raises(PalaceError, match="plain data"):
        Plan("x", (Shard(pow, {"base": object(), "exp": 1}),)).digest()


# ------------------------------------------------------------------ a real cluster
def _start(cmd: list[str], log: Path) -> subprocess.Popen[bytes]:
    with log.open("wb") as out:
        return subprocess.Popen(
            cmd, cwd=ROOT, stdout=out, stderr=subprocess.STDOUT, start_new_session=True
        )


def _stop(proc: subprocess.Popen[bytes]) -> None:
    if proc.poll() is None:
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    proc.wait(30)


@pytest.mark.slow
def test_a_real_cluster_survives_a_killed_worker(tmp_path: Path, small_shards: None) -> None:
    """`dask scheduler` + two `dask worker` processes on 127.0.0.1; one worker is killed in
    the middle of the study; the table is still the serial one."""
    from distributed import Client

    dask_cli = str(BIN / "dask")
    info = tmp_path / "scheduler.json"
    procs: list[subprocess.Popen[bytes]] = []
    address = None
    try:
        procs.append(
            _start(
                [dask_cli, "scheduler", "--host", "127.0.0.1", "--port", "0",
                 "--no-dashboard", "--scheduler-file", str(info)],
                tmp_path / "scheduler.log",
            )
        )  # fmt: skip
        deadline = time.monotonic() + 60
        while not info.exists() and time.monotonic() < deadline:
            time.sleep(0.1)
        assert info.exists(), (tmp_path / "scheduler.log").read_text()
        address = json.loads(info.read_text())["address"]
        assert address.startswith("tcp://127.0.0.1:")
        for i in range(2):
            procs.append(
                _start(
                    [dask_cli, "worker", address, "--nworkers", "1", "--nthreads", "1",
                     "--no-dashboard", "--host", "127.0.0.1", "--name", f"w{i}"],
                    tmp_path / f"worker{i}.log",
                )
            )  # fmt: skip
        with Client(address, timeout="30s", set_as_default=False) as watcher:
            watcher.wait_for_workers(2, timeout=60)

            variants = named(["standard", "no-limit"])
            want = studies.compare_variants(variants, hands=240, players=4, seed=11, **SERIAL)
            killed: list[int] = []

            def kill_one(done: int, total: int) -> None:
                if done >= total // 3 and not killed:
                    _stop(procs[1])  # the first worker, nanny and all
                    killed.append(done)

            got = studies.compare_variants(
                variants, hands=240, players=4, seed=11, progress=False, scheduler=address,
                watch=Watch(on_progress=kill_one),
            )  # fmt: skip
            assert killed and killed[0] < 16  # 2 variants x 240 hands / 15 per shard = 32
            pd.testing.assert_frame_equal(got, want, check_exact=True)
            assert len(watcher.scheduler_info()["workers"]) == 1
    finally:
        if address is not None:
            cluster.close(address)
        for proc in reversed(procs):
            _stop(proc)
