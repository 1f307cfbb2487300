"""The kernel zygote: one process that has imported the kernel and the app, forking a kernel a page.

A new IPython kernel spends most of its start importing: the kernel itself (IPython,
ipykernel, ZeroMQ, tornado) and then the app (ipywidgets, Palace). `make app`'s server
starts this process once (``python -m palace.app.server.zygote SOCKET``); it imports all of
that, freezes what it imported out of the garbage collector's sight, and listens on a Unix
socket. Each kernel is then a ``fork()`` of it that goes straight to ipykernel's own start
with the connection file the server wrote: its CPU time begins at the fork, and the pages
of memory it has not written stay shared with the zygote and with every other kernel.

The protocol is one JSON line a connection (`palace.app.server.forking` is the client):

* ``{"op": "fork", "argv": [...], "env": {...}, "cwd": "..."}`` → ``{"pid": N}``, where
  argv is the kernel spec's command (``python -m ipykernel_launcher -f FILE``);
* ``{"op": "status", "pid": N}`` → ``{"exit": code}`` (None while it runs).

The zygote leaves with the server (it watches its parent) and takes its kernels with it.
"""

from __future__ import annotations

import functools
import gc
import json
import logging
import os
import select
import signal
import socket
import sys
import threading
from collections.abc import Sequence
from typing import Any, Final

PRELOAD = (
    "ipykernel.kernelapp",
    "ipykernel.ipkernel",
    "ipykernel.zmqshell",
    "ipykernel.comm",
    "ipykernel.debugger",  # debugpy, which every kernel loads as it starts
    "IPython.core.completer",
    "IPython.core.completerlib",
    "IPython.core.debugger",
    "IPython.core.logger",
    "IPython.core.oinspect",
    "IPython.extensions.storemagic",
    "faulthandler",
    "psutil",
    "setproctitle",
    "ipywidgets",
    "palace.app.palace_app",
    "palace.app.deep_links",
)
"""What every kernel would import on its way to the app page: the kernel and the app."""

LAUNCHER = "ipykernel_launcher"
MAX_REQUEST = 1 << 20  # bytes: a request is a command and an environment
_exits: dict[int, int] = {}  # kernels that have ended: their exit codes
_forked: set[int] = set()  # kernels forked and still running


def preload(modules: Sequence[str] = PRELOAD) -> list[str]:
    """Import the modules (those that fail are left to the kernels to import); the names
    that failed."""
    import importlib

    failed = []
    for name in modules:
        try:
            importlib.import_module(name)
        except Exception:  # noqa: BLE001 - a kernel imports it again and shows its error
            failed.append(name)
    return failed


def kernel_argv(argv: Sequence[str]) -> list[str] | None:
    """The kernel app's own arguments in a kernel spec's command, if the command starts
    ipykernel on this very interpreter (``PYTHON -m ipykernel_launcher ARGS``); else None
    (another kernel, or another Python: not ours to fork).

    >>> import sys
    >>> kernel_argv([sys.executable, "-m", "ipykernel_launcher", "-f", "k.json"])
    ['-f', 'k.json']
    >>> kernel_argv(["/usr/bin/R", "--slave"]) is None
    True
    """
    if len(argv) < 3 or argv[1:3] != ["-m", LAUNCHER]:
        return None
    if os.path.realpath(argv[0]) != os.path.realpath(sys.executable):
        return None
    return list(argv[3:])


def _reap(_signum: int, _frame: Any) -> None:
    """SIGCHLD: note the exit code of every kernel that has ended (no zombies)."""
    while True:
        try:
            pid, status = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return
        _exits[pid] = os.waitstatus_to_exitcode(status)
        _forked.discard(pid)
        if len(_exits) > 10_000:  # nobody asked about the oldest: forget them
            _exits.pop(next(iter(_exits)))


def as_line(message: dict[str, Any]) -> bytes:
    """A message of the zygote's protocol as it is sent: one JSON line."""
    return json.dumps(message).encode() + b"\n"


def read_line(conn: socket.socket, limit: int = MAX_REQUEST) -> bytes:
    """One message of the zygote's protocol (a JSON line), or what came before `conn`
    closed; ValueError past `limit` bytes."""
    data = b""
    while not data.endswith(b"\n"):
        chunk = conn.recv(65536)
        if not chunk:
            break
        data += chunk
        if len(data) > limit:
            raise ValueError("message too long")
    return data


def _read_request(conn: socket.socket) -> dict[str, Any]:
    request = json.loads(read_line(conn))
    if not isinstance(request, dict):
        raise ValueError("a request is a JSON object")
    return request


def _answer(conn: socket.socket, reply: dict[str, Any]) -> None:
    conn.sendall(as_line(reply))


LOOPBACK: Final = frozenset({"127.0.0.1", "localhost", "::1"})
TCP_WARNING: Final = "Kernel is running over TCP without encryption"


def _said_of_a_reachable_port(app: Any, record: logging.LogRecord) -> bool:
    """False for ipykernel's warning that the kernel speaks TCP without encryption when its
    ports listen on this machine's loopback only (the server's own kernels: the server
    speaks to them over loopback, every message signed with the connection file's key). The
    warning came once a page, thirty lines in the instructor's console as a class arrived."""
    return not (str(record.msg).startswith(TCP_WARNING) and app.ip in LOOPBACK)


def _become_kernel(listener: socket.socket, conn: socket.socket, request: dict[str, Any]) -> None:
    """In the forked child: become the kernel the server asked for, then exit."""
    code = 1
    try:
        listener.close()
        conn.close()
        os.setsid()  # its own process group: the server signals the kernel's group
        for signum in (signal.SIGCHLD, signal.SIGTERM, signal.SIGHUP):
            signal.signal(signum, signal.SIG_DFL)
        signal.signal(signal.SIGINT, signal.default_int_handler)
        devnull = os.open(os.devnull, os.O_RDONLY)
        os.dup2(devnull, 0)
        os.close(devnull)
        _retitle(request["argv"])  # (before the environment changes: setproctitle needs it)
        os.chdir(request["cwd"])
        os.environ.clear()
        os.environ.update(request["env"])
        argv = kernel_argv(request["argv"]) or []
        sys.argv = [LAUNCHER, *argv]
        if sys.path and sys.path[0] in ("", os.getcwd()):
            del sys.path[0]  # as ipykernel_launcher does: the kernel adds the cwd itself
        from ipykernel.kernelapp import IPKernelApp

        app = IPKernelApp.instance()
        app.log.addFilter(functools.partial(_said_of_a_reachable_port, app))
        # it leaves when the zygote does (the zygote leaves with the server)
        app.initialize([*argv, f"--IPKernelApp.parent_handle={os.getppid()}"])
        _after_kernel_start()
        app.start()
        code = 0
    except SystemExit as stop:
        code = stop.code if isinstance(stop.code, int) else 0
    except BaseException:  # noqa: BLE001 - reported on the server's log
        import traceback

        traceback.print_exc()
    finally:
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(code)


def _retitle(command: Sequence[str]) -> None:
    """Show the kernel's own command line (``ps``, and whatever finds a kernel by its
    connection file) rather than the zygote's."""
    try:
        from setproctitle import setproctitle
    except ImportError:  # the title stays the zygote's: nothing else depends on it
        return
    setproctitle(" ".join(command))


def _after_kernel_start() -> None:
    """What a module preloaded before there was a kernel would have done at import inside
    one: ipywidgets registers its comm targets (the widgets and the page's "send me every
    state") only when imported in a running kernel."""
    widgets = sys.modules.get("ipywidgets")
    if widgets is not None:
        widgets.register_comm_target()


def _stop_kernels(_signum: int = 0, _frame: Any = None) -> None:
    """Take the kernels along (the server is gone or stops the zygote)."""
    for pid in list(_forked):
        try:
            os.killpg(pid, signal.SIGKILL)  # each kernel leads its own process group
        except OSError:
            pass
    os._exit(0)


def serve(path: str, parent: int, modules: Sequence[str] = PRELOAD) -> None:
    """Preload, then fork a kernel for each request on the socket at `path` until the
    parent process (the server) is gone."""
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # no BLAS threads to fork across
    os.environ.setdefault("PYDEVD_DISABLE_FILE_VALIDATION", "1")  # debugpy's note at import
    failed = preload(modules)
    if failed:
        print(f"palace zygote: not preloaded (kernels import them): {failed}", file=sys.stderr)
    if threading.active_count() != 1:  # a thread would not survive the fork
        print("palace zygote: a preloaded module started a thread", file=sys.stderr)
    gc.collect()
    gc.freeze()  # kept out of every kernel's collections: their pages stay shared
    signal.signal(signal.SIGCHLD, _reap)
    signal.signal(signal.SIGTERM, _stop_kernels)
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the server's Ctrl+C is the server's
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(path + ".part")
    os.chmod(path + ".part", 0o600)
    listener.listen(64)
    os.rename(path + ".part", path)  # the socket appears only once it listens
    while os.getppid() == parent:
        ready, _, _ = select.select([listener], [], [], 1.0)
        if not ready:
            continue
        conn, _ = listener.accept()
        with conn:
            try:
                conn.settimeout(10)
                request = _read_request(conn)
                if request.get("op") == "status":
                    _answer(conn, {"exit": _exits.get(int(request["pid"]))})
                    continue
                if request.get("op") != "fork" or kernel_argv(request.get("argv", [])) is None:
                    _answer(conn, {"error": "not a kernel this zygote can start"})
                    continue
                # SIGCHLD waits until the kernel is on the list (it may end at once)
                signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGCHLD})
                try:
                    pid = os.fork()
                    if pid == 0:
                        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGCHLD})
                        _become_kernel(listener, conn, request)
                    _forked.add(pid)
                finally:
                    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGCHLD})
                _answer(conn, {"pid": pid})
            except (OSError, ValueError, KeyError, TypeError) as exc:
                try:
                    _answer(conn, {"error": f"{type(exc).__name__}: {exc}"})
                except OSError:
                    pass
    _stop_kernels()


def main(argv: Sequence[str] | None = None) -> None:
    args = list(sys.argv[1:] if argv is None else argv)
    if len(args) != 2:
        raise SystemExit("usage: python -m palace.app.server.zygote SOCKET PARENT_PID")
    serve(args[0], int(args[1]))


if __name__ == "__main__":
    main()
