"""Voilà's front end in one script (palace/app/server/bundle.py): the app page's recorded
script chunks, joined and gzipped, served under a digest; a page never depends on it."""

from __future__ import annotations

import gzip
import json
import logging
from importlib.metadata import version
from pathlib import Path

import pytest
import tornado.httpclient
import tornado.testing
import tornado.web

from palace.app.server.bundle import CHUNKS, Bundle, BundleHandler, build, read_list


def chunks(folder: Path, **files: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    for name, text in files.items():
        (folder / f"{name.removeprefix('c')}.voila.js").write_text(text)
    return folder


def listing(tmp_path: Path, names: list[str], voila: str = "9.9.9") -> Path:
    path = tmp_path / "chunks.json"
    path.write_text(json.dumps({"voila": voila, "chunks": names}))
    return path


def test_the_recorded_chunks_are_joined_in_order_from_voilas_static_paths(tmp_path) -> None:
    first = chunks(tmp_path / "a", c1="push([[1],{a:1}])")
    second = chunks(tmp_path / "b", c1="shadowed", c2="push([[2],{b:2}])")
    made = build(
        [str(first), str(second)],
        listing=listing(tmp_path, ["2.voila.js", "1.voila.js"]),
        voila_version="9.9.9",
    )
    assert made is not None
    assert made.chunks == ("2.voila.js", "1.voila.js")
    assert made.body == b"push([[2],{b:2}])\n;\npush([[1],{a:1}])\n;\n"  # the first path wins
    assert gzip.decompress(made.gzipped) == made.body
    other = build(
        [str(first), str(second)],
        listing=listing(tmp_path, ["1.voila.js"]),
        voila_version="9.9.9",
    )
    assert other is not None and other.digest != made.digest  # a new bundle, a new address


def test_a_missing_chunk_is_left_to_voila_and_said(tmp_path, caplog) -> None:
    folder = chunks(tmp_path / "a", c1="one")
    with caplog.at_level(logging.WARNING):
        made = build(
            [str(folder)],
            listing=listing(tmp_path, ["1.voila.js", "77.voila.js"]),
            voila_version="9.9.9",
        )
    assert made is not None and made.chunks == ("1.voila.js",)
    assert "77.voila.js is not installed" in caplog.text


def test_a_list_for_another_voila_is_not_used(tmp_path, caplog) -> None:
    folder = chunks(tmp_path / "a", c1="one")
    with caplog.at_level(logging.WARNING):
        made = build(
            [str(folder)], listing=listing(tmp_path, ["1.voila.js"], "0.1.0"), voila_version="9.9.9"
        )
    assert made is None
    assert "recorded for Voilà 0.1.0 and this is Voilà 9.9.9" in caplog.text
    assert "python -m palace.app.server.bundle" in caplog.text


@pytest.mark.parametrize(
    ("data", "field"),
    [
        ({"chunks": ["1.voila.js"]}, "'voila'"),
        ({"voila": "9.9.9", "chunks": "1.voila.js"}, "'chunks'"),
        ({"voila": "9.9.9", "chunks": ["../../etc/passwd"]}, "'chunks'"),
        ([], "'voila'"),
    ],
)
def test_a_broken_list_names_its_field_and_the_page_still_works(
    tmp_path, caplog, data, field
) -> None:
    path = tmp_path / "chunks.json"
    path.write_text(json.dumps(data))
    with pytest.raises(ValueError, match=field):
        read_list(path)
    with caplog.at_level(logging.WARNING):
        assert build([str(tmp_path)], listing=path, voila_version="9.9.9") is None
    assert field in caplog.text


def test_the_shipped_list_is_for_the_installed_voila_and_complete() -> None:
    """`make app` installs the Voilà the list was recorded for (pyproject pins it), and every
    recorded chunk is installed: the page's scripts come in one response."""
    from voila.paths import collect_static_paths

    made_for, names = read_list(CHUNKS)
    assert made_for == version("voila")
    made = build(collect_static_paths(["voila", "nbconvert"], "lab"))
    assert made is not None and made.chunks == tuple(names) and len(names) > 20


class ServedBundle(tornado.testing.AsyncHTTPTestCase):
    bundle = Bundle(body=b"x" * 5000, gzipped=gzip.compress(b"x" * 5000), digest="d1", chunks=())

    def get_app(self) -> tornado.web.Application:
        return tornado.web.Application([("/bundle.js", BundleHandler, {"bundle": self.bundle})])

    def fetch_with(self, **headers: str) -> tornado.httpclient.HTTPResponse:
        return self.fetch("/bundle.js", headers=headers, decompress_response=False)

    def test_gzipped_to_a_browser_that_takes_it_plain_to_one_that_does_not(self) -> None:
        zipped = self.fetch_with(**{"Accept-Encoding": "gzip, deflate"})
        plain = self.fetch_with(**{"Accept-Encoding": "identity"})
        assert zipped.code == plain.code == 200
        assert zipped.headers["Content-Encoding"] == "gzip"
        assert "Content-Encoding" not in plain.headers
        assert gzip.decompress(zipped.body) == plain.body == self.bundle.body
        assert len(zipped.body) < len(plain.body) / 10
        for response in (zipped, plain):
            assert response.headers["Content-Type"].startswith("text/javascript")
            assert "immutable" in response.headers["Cache-Control"]
            assert response.headers["Vary"] == "Accept-Encoding"

    def test_a_browser_holding_it_is_told_it_has_not_changed(self) -> None:
        again = self.fetch_with(**{"If-None-Match": '"d1"'})
        assert again.code == 304 and again.body == b""
        stale = self.fetch_with(**{"If-None-Match": '"d0"'})
        assert stale.code == 200 and stale.body == self.bundle.body
