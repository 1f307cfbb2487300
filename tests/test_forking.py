"""Kernels forked from the zygote (palace/app/server/zygote.py, forking.py): what `make app`'s
pages run in. A forked kernel must be a whole kernel: it runs code where the server said, with
the environment the server gave it, answers the page's widget manager, stops when
interrupted, shuts down, and goes when the server goes."""

from __future__ import annotations

import asyncio
import json
import os
import queue
import subprocess
import sys
import textwrap
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import psutil
import pytest
from jupyter_client import KernelManager
from jupyter_client.provisioning import KernelProvisionerFactory

from palace.app.server.forking import NAME, ForkedKernel, ForkingProvisioner, Zygote, zygote

ROOT = Path(__file__).resolve().parents[1]


def until(check, timeout: float = 30.0, every: float = 0.1) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        if time.monotonic() > deadline:
            raise AssertionError("not within the time allowed")
        time.sleep(every)


@pytest.fixture
def forked_kernels() -> Iterator[None]:
    """Kernels started in this test are forks of this process's zygote."""
    factory = KernelProvisionerFactory.instance()
    before = factory.default_provisioner_name
    factory.default_provisioner_name = NAME
    try:
        yield
    finally:
        factory.default_provisioner_name = before
        zygote().stop()


def start(env: dict[str, str] | None = None, cwd: Path = ROOT / "notebooks"):
    manager = KernelManager(kernel_name="python3")
    manager.start_kernel(cwd=str(cwd), env={**os.environ, **(env or {})})
    client = manager.client()
    client.start_channels()
    client.wait_for_ready(timeout=60)
    return manager, client


def run(client, code: str, *, late: float = 0.0, seen: list[str] | None = None) -> tuple[str, dict]:
    """Run `code`; (what it printed, the execute reply's content). With `late`, wait up to
    that many seconds after the reply for printed text that has not come yet (right after an
    interrupt, a kernel's output may follow its reply). `seen` collects a line for every
    IOPub message read, this request's or not, for an assertion to show when it fails."""
    out: list[str] = []
    msg_id = client.execute(code)

    def read(timeout: float) -> dict | None:
        try:
            msg = client.get_iopub_msg(timeout=timeout)
        except queue.Empty:
            return None
        mine = msg["parent_header"].get("msg_id") == msg_id
        if seen is not None:
            shown = ("name", "text", "execution_state")
            content = {k: v for k, v in msg["content"].items() if k in shown}
            seen.append(f"{'this' if mine else 'other'} {msg['msg_type']} {content}")
        if mine and msg["msg_type"] == "stream":
            out.append(msg["content"]["text"])
        return msg if mine else None

    deadline = time.monotonic() + 60
    while True:  # this request's output, up to the kernel going idle
        left = deadline - time.monotonic()
        if left <= 0:
            raise AssertionError(f"the kernel did not go idle after {code!r}: {seen}")
        msg = read(left)
        if msg is not None and msg["msg_type"] == "status":
            if msg["content"]["execution_state"] == "idle":
                break
    reply = client.get_shell_msg(timeout=60)
    assert reply["parent_header"]["msg_id"] == msg_id
    deadline = time.monotonic() + late
    while not "".join(out).strip() and time.monotonic() < deadline:
        read(max(0.01, deadline - time.monotonic()))
    return "".join(out), reply["content"]


def test_a_forked_kernel_runs_where_and_as_the_server_says(forked_kernels, tmp_path) -> None:
    marker = uuid.uuid4().hex
    manager, client = start({"PALACE_TEST_MARKER": marker}, cwd=tmp_path)
    try:
        assert isinstance(manager.provisioner, ForkingProvisioner)
        assert isinstance(manager.provisioner.process, ForkedKernel)
        printed, reply = run(
            client,
            "import os, sys; print(os.getppid(), os.getcwd(), os.environ['PALACE_TEST_MARKER'], "
            "'palace.app.palace_app' in sys.modules)",
        )
        assert reply["status"] == "ok"
        parent, cwd, seen, preloaded = printed.split()
        assert int(parent) == zygote().process.pid  # a fork of the zygote
        assert Path(cwd) == tmp_path and seen == marker
        assert preloaded == "True"  # the app was imported before the fork
        # it shows its kernel command, with the connection file that names it
        command = " ".join(psutil.Process(manager.provisioner.pid).cmdline())
        assert "-m ipykernel_launcher -f" in command
        assert Path(manager.connection_file).name in command
    finally:
        client.stop_channels()
        manager.shutdown_kernel(now=True)


def test_a_forked_kernel_answers_the_pages_widget_manager(forked_kernels) -> None:
    """The page asks the kernel for every widget's state on the control comm target, which
    ipywidgets registers only when imported inside a kernel (the zygote imported it before
    there was one)."""
    manager, client = start()
    try:
        run(client, "import ipywidgets; button = ipywidgets.Button(description='Deal')")
        comm_id = uuid.uuid4().hex
        for kind, content in (
            (
                "comm_open",
                {"comm_id": comm_id, "target_name": "jupyter.widget.control", "data": {}},
            ),
            ("comm_msg", {"comm_id": comm_id, "data": {"method": "request_states"}}),
        ):
            client.shell_channel.send(
                client.session.msg(kind, content, metadata={"version": "1.0.0"})
            )
        while True:
            msg = client.get_iopub_msg(timeout=30)
            data = msg["content"].get("data", {}) if msg["msg_type"] == "comm_msg" else {}
            if data.get("method") == "update_states":
                break
        states = data["states"]
        assert any(s["state"].get("description") == "Deal" for s in states.values())
    finally:
        client.stop_channels()
        manager.shutdown_kernel(now=True)


def test_a_forked_kernel_on_loopback_does_not_warn_of_tcp(forked_kernels, capfd) -> None:
    """ipykernel warns of TCP without encryption; the server's kernels listen on loopback
    only, so a forked kernel keeps that line out of the instructor's console (once a page)
    and still logs the rest."""
    zygote().stop()  # a zygote started in this test writes to the captured stderr
    manager, client = start()
    try:
        _, reply = run(
            client,
            "from ipykernel.kernelapp import IPKernelApp\n"
            "IPKernelApp.instance().log.warning('the kernel log still speaks')",
        )
        assert reply["status"] == "ok"
    finally:
        client.stop_channels()
        manager.shutdown_kernel(now=True)
    err = capfd.readouterr().err
    assert "the kernel log still speaks" in err
    assert "without encryption" not in err


def test_a_forked_kernel_is_interrupted_and_shut_down(forked_kernels) -> None:
    manager, client = start()
    try:
        msg_id = client.execute("import time; time.sleep(60)")
        time.sleep(1.0)
        manager.interrupt_kernel()
        reply = client.get_shell_msg(timeout=30)
        assert reply["parent_header"]["msg_id"] == msg_id
        assert reply["content"]["status"] == "error"
        assert reply["content"]["ename"] == "KeyboardInterrupt"
        seen: list[str] = []
        printed, _ = run(client, "print(6 * 7)", late=15.0, seen=seen)  # and it carries on
        assert printed.strip() == "42", "\n".join(["IOPub messages read:", *seen])
        pid = manager.provisioner.pid
    finally:
        client.stop_channels()
        manager.shutdown_kernel(now=True)
    assert not psutil.pid_exists(pid) or psutil.Process(pid).status() == psutil.STATUS_ZOMBIE
    assert manager.provisioner is None or not manager.provisioner.has_process


def test_a_killed_forked_kernel_is_seen_dead_with_its_exit(forked_kernels) -> None:
    manager, client = start()
    try:
        process = manager.provisioner.process
        assert process.poll() is None and manager.is_alive()
        os.kill(process.pid, 9)
        until(lambda: process.poll() is not None)
        assert process.returncode == -9  # the zygote reaped it and told its exit
        assert not manager.is_alive()
    finally:
        client.stop_channels()
        manager.shutdown_kernel(now=True)


def test_another_command_is_started_the_usual_way(forked_kernels, tmp_path) -> None:
    """Not an ipykernel of this Python: not the zygote's to fork."""
    provisioner = ForkingProvisioner(kernel_id="k", kernel_spec=None, parent=None)
    provisioner.connection_info = {}
    command = [sys.executable, "-c", "import time; time.sleep(30)"]
    asyncio.run(provisioner.launch_kernel(command, cwd=str(tmp_path), env=dict(os.environ)))
    try:
        assert isinstance(provisioner.process, subprocess.Popen)
        assert psutil.Process(provisioner.pid).ppid() == os.getpid()
        assert zygote().process is None  # not even started
    finally:
        provisioner.process.kill()
        provisioner.process.wait()


def test_the_zygote_refuses_what_is_not_a_kernel(forked_kernels) -> None:
    z = zygote()
    with pytest.raises(Exception, match="not a kernel this zygote can start"):
        asyncio.run(z.fork(["/bin/sh", "-c", "echo hello"], {}, "/"))
    with pytest.raises(Exception, match="not a kernel this zygote can start"):
        asyncio.run(z.request({"op": "launch rockets"}))
    assert z.alive()  # and is none the worse for it


def test_the_zygote_and_its_kernels_go_with_the_server(tmp_path) -> None:
    """A server that is gone (here: killed) leaves no zygote and no kernel behind."""
    script = tmp_path / "server.py"
    script.write_text(
        textwrap.dedent(
            f"""
            import asyncio, json, os, sys, time
            from palace.app.server.forking import zygote
            z = zygote()
            connection = {json.dumps(str(tmp_path / "k.json"))}
            pid = asyncio.run(z.fork([sys.executable, "-m", "ipykernel_launcher", "-f", connection],
                                     dict(os.environ), os.getcwd()))
            print(z.process.pid, pid, flush=True)
            time.sleep(600)
            """
        )
    )
    server = subprocess.Popen(
        [sys.executable, str(script)], cwd=ROOT, stdout=subprocess.PIPE, text=True
    )
    try:
        zygote_pid, kernel_pid = map(int, server.stdout.readline().split())
        until(lambda: (tmp_path / "k.json").exists(), timeout=60)  # the kernel wrote it
        assert psutil.pid_exists(zygote_pid) and psutil.pid_exists(kernel_pid)
        server.kill()
        server.wait()

        def gone(pid: int) -> bool:
            return not psutil.pid_exists(pid) or psutil.Process(pid).status() == "zombie"

        until(lambda: gone(zygote_pid) and gone(kernel_pid), timeout=30)
    finally:
        server.kill()


def test_a_zygote_that_cannot_start_says_so(tmp_path) -> None:
    broken = Zygote(python=str(tmp_path / "no-python-here"), ready_timeout=5)
    with pytest.raises(OSError):
        broken.start()
    fails = Zygote(python="/bin/false", ready_timeout=5)
    try:
        with pytest.raises(Exception, match="stopped while starting"):
            asyncio.run(fails.ready())
    finally:
        fails.stop()


def test_kernel_command_lines_the_zygote_takes() -> None:
    from palace.app.server.zygote import kernel_argv

    python = sys.executable
    assert kernel_argv([python, "-m", "ipykernel_launcher", "-f", "x.json"]) == ["-f", "x.json"]
    assert kernel_argv(["/other/python3", "-m", "ipykernel_launcher", "-f", "x.json"]) is None
    assert kernel_argv([python, "-m", "some_other_kernel", "-f", "x.json"]) is None
    assert kernel_argv([python]) is None
    assert json.dumps(kernel_argv([python, "-m", "ipykernel_launcher"])) == "[]"
