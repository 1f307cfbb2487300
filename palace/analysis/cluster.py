"""Where a study runs: in this process ("serial"), on a `LocalCluster`, or on a Dask cluster.

The choice, first match wins: the `scheduler` argument (the CLI's ``--scheduler``); the
``PALACE_SCHEDULER`` environment variable; a Dask `Client` the user already made in this
process (for instance from a JupyterHub's Dask Gateway); Dask's own ``DASK_SCHEDULER_ADDRESS``
(the ``scheduler-address`` setting); else a `LocalCluster` of worker processes, started on
first use and shared by every later study of the process. Each value is ``"serial"``,
``"local"`` or a scheduler address such as ``tcp://10.0.0.5:8786``.

>>> resolve("serial"), resolve("local"), resolve("tcp://127.0.0.1:8786")
('serial', 'local', 'tcp://127.0.0.1:8786')
"""

from __future__ import annotations

import logging
import os
import re
import threading
from pathlib import Path
from typing import TYPE_CHECKING

from palace.errors import PalaceError

if TYPE_CHECKING:
    import argparse

    from distributed import Client, LocalCluster

SERIAL, LOCAL = "serial", "local"
ENV = "PALACE_SCHEDULER"
WORKERS_ENV = "PALACE_WORKERS"
MAX_LOCAL_WORKERS = 4
CONNECT_TIMEOUT = "10s"  # how long to try reaching a scheduler named by address
_ADDRESS = re.compile(r"^(tcp|tls|inproc|ws|wss|ucx)://\S+$|^[\w.\-\[\]:]+:\d+$")

# Dask's own upkeep in a local cluster, turned down: at its defaults the scheduler's process
# and each worker wake many times a second (an event-loop watchdog every 20 ms, a stack
# sample of each worker every 10 ms for the dashboard's Profile page, system figures every
# 0.5 s), 10-13% of one core with nothing to do; these settings leave 3-4%
# (`bench/cluster_upkeep.py`, docs: speed.md). The dashboard still shows tasks, workers and
# memory; a Client of the user's own (`client_for`) keeps whatever settings it was made with.
QUIET_UPKEEP: dict[str, object] = {
    "distributed.admin.tick.interval": "1s",
    "distributed.admin.system-monitor.interval": "5s",
    "distributed.worker.profile.enabled": False,
}

_lock = threading.Lock()
_clients: dict[str, Client] = {}


class SchedulerError(PalaceError):
    """A scheduler that is not "serial", "local" or an address, or one that cannot be reached."""


def resolve(scheduler: str | None = None) -> str:
    """``"serial"``, ``"local"`` or the scheduler address a study will use (see the module)."""
    choice = scheduler if scheduler is not None else os.environ.get(ENV) or None
    if choice is None:
        import dask

        choice = dask.config.get("scheduler-address", None) or LOCAL
    if not isinstance(choice, str):
        raise SchedulerError(f"scheduler must be a string, got {type(choice).__name__}")
    choice = choice.strip()
    if choice in (SERIAL, LOCAL) or _ADDRESS.match(choice):
        return choice
    raise SchedulerError(
        f"scheduler must be 'serial', 'local' or an address like tcp://HOST:PORT, got {choice!r}"
    )


def local_workers() -> int:
    """Worker processes of the local cluster: ``PALACE_WORKERS``, else one per core, at most
    `MAX_LOCAL_WORKERS` (every notebook or app kernel that runs a study starts its own)."""
    raw = os.environ.get(WORKERS_ENV)
    if raw is None:
        return max(1, min(os.cpu_count() or 1, MAX_LOCAL_WORKERS))
    if not raw.isdigit() or int(raw) < 1:
        raise SchedulerError(f"{WORKERS_ENV} must be a whole number >= 1, got {raw!r}")
    return int(raw)


def client_for(scheduler: str | None = None) -> Client | None:
    """The Dask client for `scheduler` (None for the serial path), made once and kept.

    With no `scheduler` and no ``PALACE_SCHEDULER``, a client the user already made in this
    process (``Client(...)``, a Dask Gateway cluster's ``get_client()``) is used as it is.
    """
    if scheduler is None and not os.environ.get(ENV):
        from distributed import default_client

        try:
            return default_client()
        except ValueError:  # no client made yet in this process
            pass
    where = resolve(scheduler)
    if where == SERIAL:
        return None
    with _lock:
        client = _clients.get(where)
        if client is not None and client.status == "running":
            return client
        from distributed import Client

        if where == LOCAL:
            client = Client(local_cluster(local_workers()), set_as_default=False)
        else:
            try:
                client = Client(where, timeout=CONNECT_TIMEOUT, set_as_default=False)
            except (OSError, TimeoutError) as exc:
                raise SchedulerError(f"cannot reach the Dask scheduler at {where}: {exc}") from exc
        _clients[where] = client
        return client


def local_cluster(workers: int, settings: dict[str, object] = QUIET_UPKEEP) -> LocalCluster:
    """A `LocalCluster` of `workers` processes with one thread each (the engine holds the
    GIL), its dashboard on a free local port, Dask's upkeep turned down (`settings`: {} keeps
    Dask's own, as `bench/cluster_upkeep.py` compares)."""
    import dask
    from distributed import LocalCluster

    with dask.config.set(settings):  # the workers' processes take the settings made here
        return LocalCluster(
            n_workers=workers,
            threads_per_worker=1,
            processes=True,
            dashboard_address="127.0.0.1:0",  # a free local port: no "8787 in use" warning
            silence_logs=logging.ERROR,
        )


def close(scheduler: str = LOCAL) -> None:
    """Close the client kept for `scheduler` (and the local cluster, if it is "local")."""
    with _lock:
        client = _clients.pop(resolve(scheduler), None)
    if client is not None:
        cluster = client.cluster
        client.close()
        if cluster is not None:
            cluster.close()


def add_arguments(ap: argparse.ArgumentParser, *, cache: Path, out: Path) -> None:
    """The options every study's command line shares: where it runs, its shard files, its
    progress bar and where its tables go."""
    ap.add_argument(
        "--scheduler",
        default=None,
        help="'serial' (no Dask), 'local' (a LocalCluster here) or tcp://HOST:PORT of a running "
        "Dask scheduler; default: $PALACE_SCHEDULER, then $DASK_SCHEDULER_ADDRESS, then local",
    )
    ap.add_argument("--workers", type=int, default=None, help="worker processes of 'local'")
    ap.add_argument("--cache", type=Path, default=cache, help=f"shard results (default {cache})")
    ap.add_argument("--no-cache", action="store_true", help="keep no shard files (no resume)")
    ap.add_argument("--quiet", action="store_true", help="no progress bars")
    ap.add_argument("--out", type=Path, default=out)


def use_arguments(args: argparse.Namespace) -> None:
    """Apply the parsed `add_arguments` options that act through the environment."""
    if args.workers is not None:
        os.environ[WORKERS_ENV] = str(args.workers)
