"""Kernels forked from the zygote: the kernel provisioner `make app`'s server starts pages with.

`ForkingProvisioner` is jupyter_client's own `LocalProvisioner` (the same connection file,
ports, signals and shutdown) except for one step: instead of running the kernel spec's
command as a new process, it asks the zygote (`palace.app.server.zygote`, one per server) to
fork a kernel that has everything imported already. A command the zygote cannot run (another
kernel, another Python), or a zygote that does not answer, falls back to the usual launch,
so a page always gets a kernel.

jupyter_client looks provisioners up by name (the ``jupyter_client.kernel_provisioners``
entry point in pyproject.toml); the server makes this one the default for its kernels
(`PalaceVoila.fork_kernels`), and nothing else is changed: JupyterLab and nbval start
kernels as they always do.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import pathlib
import select
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from typing import Any

from jupyter_client.connect import KernelConnectionInfo
from jupyter_client.provisioning import LocalProvisioner

from palace.app.server.zygote import as_line, kernel_argv, read_line

NAME = "palace-forking-provisioner"
"""The provisioner's name for jupyter_client (pyproject.toml's entry point)."""


def supported() -> bool:
    """Whether kernels can be forked here: `os.fork` and a pidfd to watch a process the
    server is not the parent of (Linux 5.3 or later). Elsewhere (macOS, Windows) the server
    starts every kernel as a new process.

    >>> supported() == (sys.platform == "linux")  # this project's machines run Linux 5.3+
    True
    """
    if not (hasattr(os, "fork") and hasattr(os, "pidfd_open")):
        return False
    if not hasattr(signal, "pidfd_send_signal"):
        return False
    try:
        os.close(os.pidfd_open(os.getpid()))
    except OSError:  # a kernel older than 5.3 (ENOSYS), or a sandbox that refuses it
        return False
    return True


class ZygoteError(RuntimeError):
    """The zygote could not fork a kernel (it is starting, gone, or refused the command)."""


class Zygote:
    """The zygote process of this server, started on first use and again if it has died."""

    def __init__(self, python: str = sys.executable, ready_timeout: float = 60.0) -> None:
        self.python = python
        self.ready_timeout = ready_timeout
        self._dir: str | None = None
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def path(self) -> str:
        assert self._dir is not None
        return os.path.join(self._dir, "zygote.sock")

    def alive(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def start(self) -> None:
        """Start the zygote (it imports the kernel and the app, then listens)."""
        if self.alive():
            return
        self.stop()
        self._dir = tempfile.mkdtemp(prefix="palace-zygote-")
        self.process = subprocess.Popen(
            [self.python, "-m", "palace.app.server.zygote", self.path, str(os.getpid())],
            stdin=subprocess.DEVNULL,
            start_new_session=True,  # the terminal's Ctrl+C is for the server, not for it
        )

    def stop(self) -> None:
        """Stop the zygote and its kernels."""
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.process.wait(timeout=10)
        self.process = None
        if self._dir is not None:
            shutil.rmtree(self._dir, ignore_errors=True)
            self._dir = None

    async def ready(self) -> None:
        """Wait until the zygote listens (it has imported everything)."""
        self.start()
        deadline = time.monotonic() + self.ready_timeout
        while not os.path.exists(self.path):
            if not self.alive():
                raise ZygoteError("the zygote stopped while starting")
            if time.monotonic() > deadline:
                raise ZygoteError("the zygote did not start in time")
            await asyncio.sleep(0.05)

    async def request(self, message: dict[str, Any]) -> dict[str, Any]:
        await self.ready()
        try:
            reader, writer = await asyncio.open_unix_connection(self.path)
        except OSError as exc:
            raise ZygoteError(f"the zygote does not answer ({exc})") from exc
        try:
            writer.write(as_line(message))
            await writer.drain()
            line = await asyncio.wait_for(reader.readline(), timeout=30)
        finally:
            writer.close()
        if not line:
            raise ZygoteError("the zygote closed the connection")
        reply: dict[str, Any] = json.loads(line)
        if "error" in reply:
            raise ZygoteError(reply["error"])
        return reply

    async def fork(self, argv: list[str], env: dict[str, str], cwd: str) -> int:
        """A new kernel for `argv` (a kernel spec's command): its pid."""
        reply = await self.request({"op": "fork", "argv": argv, "env": env, "cwd": cwd})
        return int(reply["pid"])

    def exit_code(self, pid: int) -> int | None:
        """The exit code the zygote saw for its kernel `pid` (None: unknown or running)."""
        if self._dir is None or not os.path.exists(self.path):
            return None
        try:
            with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as conn:
                conn.settimeout(5)
                conn.connect(self.path)
                conn.sendall(as_line({"op": "status", "pid": pid}))
                data = read_line(conn)
            code = json.loads(data).get("exit")
            return code if isinstance(code, int) else None
        except (OSError, ValueError):
            return None


_ZYGOTE: Zygote | None = None


def zygote() -> Zygote:
    """This server's zygote (made, not yet started, on first use)."""
    global _ZYGOTE
    if _ZYGOTE is None:
        _ZYGOTE = Zygote()
    return _ZYGOTE


class ForkedKernel:
    """A kernel the zygote forked, with the part of `subprocess.Popen` jupyter_client uses:
    `pid`, `poll()`, `wait()`, `send_signal()`, `terminate()`, `kill()`. The server is not
    the kernel's parent, so it watches it through a pidfd (it cannot be fooled by a pid the
    system has given to another process since)."""

    stdin = stdout = stderr = None

    def __init__(self, pid: int, zygote: Zygote) -> None:
        self.pid = pid
        self.returncode: int | None = None
        self._zygote = zygote
        try:
            self._fd: int | None = os.pidfd_open(pid)
        except ProcessLookupError:  # it has ended already
            self._fd = None
            self._ended()

    def _ended(self) -> int:
        if self.returncode is None:
            code = self._zygote.exit_code(self.pid)
            self.returncode = code if code is not None else -signal.SIGKILL
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None
        return self.returncode

    def poll(self) -> int | None:
        if self.returncode is not None:
            return self.returncode
        assert self._fd is not None
        readable, _, _ = select.select([self._fd], [], [], 0)
        return self._ended() if readable else None

    def wait(self, timeout: float | None = None) -> int:
        if self.returncode is None:
            assert self._fd is not None
            readable, _, _ = select.select([self._fd], [], [], timeout)
            if not readable:
                raise subprocess.TimeoutExpired(f"kernel {self.pid}", timeout or 0)
        return self._ended()

    def send_signal(self, signum: int) -> None:
        if self.poll() is None:
            assert self._fd is not None
            signal.pidfd_send_signal(self._fd, signum)

    def terminate(self) -> None:
        self.send_signal(signal.SIGTERM)

    def kill(self) -> None:
        self.send_signal(signal.SIGKILL)

    def __del__(self) -> None:
        fd = getattr(self, "_fd", None)
        if fd is not None:
            with contextlib.suppress(OSError):
                os.close(fd)


class ForkingProvisioner(LocalProvisioner):
    """jupyter_client's local provisioner, launching kernels as forks of the zygote."""

    async def launch_kernel(self, cmd: list[str], **kwargs: Any) -> KernelConnectionInfo:
        if kernel_argv(cmd) is None:  # not an ipykernel of this Python: the usual way
            return await super().launch_kernel(cmd, **kwargs)
        env = kwargs.get("env")
        cwd = kwargs.get("cwd") or os.getcwd()
        try:
            pid = await zygote().fork(list(cmd), dict(os.environ if env is None else env), str(cwd))
        except ZygoteError as exc:
            self.log.warning("Palace: no kernel from the zygote (%s); starting one anew", exc)
            return await super().launch_kernel(cmd, **kwargs)
        self.process = ForkedKernel(pid, zygote())  # type: ignore[assignment]  # Popen's part
        self.pid = pid
        self.pgid = pid  # the kernel leads a process group of its own (setsid)
        self.cwd = kwargs.get("cwd", pathlib.Path.cwd())
        return self.connection_info
