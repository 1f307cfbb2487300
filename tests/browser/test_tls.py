"""HTTPS (issue #11 item 11): `make app CERT=... KEY=...` serves the app over TLS.

A self-signed certificate for 127.0.0.1 is made with openssl in a temporary folder; the
server must then answer HTTPS (verified against that certificate), refuse plain HTTP, and
serve a working app page: its kernel websocket runs over TLS too (wss://).
"""

from __future__ import annotations

import shutil
import ssl
import subprocess
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from pagekit import APP, LOAD_TIMEOUT, TABLE, WAIT, button, new_page

pytestmark = pytest.mark.browser


def self_signed(folder: Path) -> tuple[Path, Path]:
    if shutil.which("openssl") is None:
        pytest.skip("openssl is not installed")
    cert, key = folder / "cert.pem", folder / "key.pem"
    subprocess.run(
        [
            "openssl",
            "req",
            "-x509",
            "-newkey",
            "rsa:2048",
            "-nodes",
            "-days",
            "1",
            "-subj",
            "/CN=127.0.0.1",
            "-addext",
            "subjectAltName=IP:127.0.0.1",
            "-keyout",
            str(key),
            "-out",
            str(cert),
        ],
        check=True,
        capture_output=True,
    )
    return cert, key


def test_the_app_over_https(palace_server, browser, tmp_path: Path) -> None:
    cert, key = self_signed(tmp_path)
    trust = ssl.create_default_context(cafile=str(cert))
    server = palace_server(
        "--pool_size=0", f"--certfile={cert}", f"--keyfile={key}", scheme="https", context=trust
    )
    assert server.base.startswith("https://127.0.0.1:")
    assert server.status()["pages"] == 0  # a verified TLS connection
    plain = "http://" + server.base.removeprefix("https://") + "palace/api/status"
    with pytest.raises((urllib.error.URLError, ConnectionError, OSError)):
        urllib.request.urlopen(plain, timeout=10).read()
    log = server.log_text()
    assert "HTTPS" in log and server.base in log  # the address printed is https://
    sockets: list[str] = []
    page = new_page(browser, ignore_https_errors=True)
    page.on("websocket", lambda ws: sockets.append(ws.url))
    try:
        page.goto(server.base + APP, wait_until="commit", timeout=LOAD_TIMEOUT)
        page.locator(TABLE).wait_for(timeout=LOAD_TIMEOUT)
        play = page.locator(".palace-app-play")
        button(play, "Next seed").click()  # a round trip to the kernel, over the websocket
        play.locator(".palace-okay", has_text="Dealt seed 8").wait_for(timeout=WAIT)
        assert page.url.startswith("https://")
        kernel_sockets = [url for url in sockets if "/api/kernels/" in url]
        assert kernel_sockets and all(url.startswith("wss://") for url in kernel_sockets), sockets
    finally:
        page.context.close()
