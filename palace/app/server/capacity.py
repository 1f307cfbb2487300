"""How many pages a machine can serve at once: the defaults `make app` starts with.

Every page Voilà serves runs its own kernel (a Python process). Measured here (Python 3.11):
an app kernel uses about 50 MB of its own (USS; 78 MB resident) once drawn and up to 145 MB
after an Explore run; the heaviest lesson (08) about 170 MB. The defaults keep half the
machine's memory for the system, the browsers and other work, and count 170 MB a page.

A class arrives at once: the pre-heated pool holds a kernel for every student of a class
(`CLASS_SIZE`) where the memory allows, at most half the ceiling; the pool is heated
`default_start_slots` kernels at a time, so the first pages are served while the rest warms.

>>> default_max_pages(memory=24 * 2**30, pool=30)
40
>>> default_max_pages(memory=4 * 2**30, pool=2)
8
>>> default_pool(max_pages=70), default_pool(max_pages=10), default_pool(max_pages=1)
(30, 5, 0)
"""

from __future__ import annotations

import os

MB = 2**20
CLASS_SIZE = 30  # the pool's default: a kernel ready for every student of a class
KERNEL_MB = 170  # the largest kernel measured (lesson 08; the app after Explore: 145 MB)
SERVER_MB = 300  # the Voilà server itself (about 100 MB) with room to spare
MEMORY_SHARE = 0.5  # the share of the machine's memory the pages may fill
MAX_PAGES_CAP = 500  # past this, one machine is the wrong tool: use a JupyterHub


def memory_bytes() -> int | None:
    """The machine's physical memory in bytes, or None if the system does not say."""
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (AttributeError, ValueError, OSError):
        pass
    try:
        import psutil  # a dependency of ipykernel, so present wherever Voilà runs

        return int(psutil.virtual_memory().total)
    except Exception:  # noqa: BLE001 - no way to know: the caller falls back
        return None


def cpu_cores() -> int:
    """CPU cores this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:
        return max(1, os.cpu_count() or 1)


def default_max_pages(memory: int | None = None, pool: int = 0) -> int:
    """The ceiling on pages (kernels) served at once: half the memory at 170 MB a page,
    less the pre-heated pool, at least 1 (4 when the memory is unknown)."""
    memory = memory_bytes() if memory is None else memory
    if memory is None:
        return 4
    budget = memory * MEMORY_SHARE / MB - SERVER_MB
    return max(1, min(MAX_PAGES_CAP, int(budget // KERNEL_MB) - pool))


def default_pool(max_pages: int | None = None) -> int:
    """Pre-heated app kernels kept ready: one per student of a class (`CLASS_SIZE`), never
    more than half the ceiling (so the pool cannot crowd out the pages themselves)."""
    if max_pages is None:
        max_pages = default_max_pages(pool=0)
    return max(0, min(CLASS_SIZE, max_pages // 2))


def default_start_slots(cores: int | None = None) -> int:
    """Pages started at once (the others wait in line, told how many are ahead): one per core."""
    return max(1, cores if cores is not None else cpu_cores())
