"""The page's own front end (palace.app.server.front_end): found when built, served for good."""

from __future__ import annotations

import gzip
import logging
import os
import re
import tempfile
from pathlib import Path

import pytest
import tornado.testing
import tornado.web

from palace.app.server import front_end
from palace.app.server.front_end import DIST, SCRIPT, STYLE, FrontEndHandler, load


def test_without_a_build_the_pages_are_voilas_and_the_server_says_why(tmp_path, caplog) -> None:
    (tmp_path / SCRIPT).write_text("x")  # the style sheet is missing: not a whole build
    with caplog.at_level(logging.WARNING):
        assert load(tmp_path) is None
    assert "Voilà's own front end" in caplog.text and "make page" in caplog.text
    assert STYLE in caplog.text


def test_a_build_is_named_by_its_digests(tmp_path) -> None:
    (tmp_path / SCRIPT).write_text("console.log(1)")
    (tmp_path / STYLE).write_text("body{}")
    built = load(tmp_path)
    assert built is not None
    urls = built.resources()
    assert re.fullmatch(r"voila/palace/page/palace-page\.js\?v=[0-9a-f]{20}", urls["script"])
    assert re.fullmatch(r"voila/palace/page/palace-page\.css\?v=[0-9a-f]{20}", urls["style"])
    (tmp_path / SCRIPT).write_text("console.log(2)")
    again = load(tmp_path)
    assert again is not None and again.resources()["script"] != urls["script"]
    assert again.resources()["style"] == urls["style"]


def test_the_built_front_end_is_whole_where_the_browser_tests_run() -> None:
    """`make test` builds it (`make page`) before the browser tests: where they must run,
    the pages they open are drawn by it, not by Voilà's front end."""
    if not os.environ.get("PALACE_REQUIRE_BROWSER"):
        pytest.skip("PALACE_REQUIRE_BROWSER is not set (CI sets it)")
    built = load(DIST)
    assert built is not None, "make page did not build palace/app/server/light/dist/"
    script = built.assets[SCRIPT].body
    assert b"jupyter.widget" in script and len(script) < 2_000_000


class Served(tornado.testing.AsyncHTTPTestCase):
    def get_app(self) -> tornado.web.Application:
        self._folder = tempfile.TemporaryDirectory()
        folder = Path(self._folder.name)
        (folder / SCRIPT).write_text("var page = 1;" * 500)
        (folder / STYLE).write_text(".palace{}" * 500)
        self.built = load(folder)
        assert self.built is not None
        return tornado.web.Application(
            [(f"/{front_end.ROUTE}(.*)", FrontEndHandler, {"front_end": self.built})]
        )

    def tearDown(self) -> None:
        super().tearDown()
        self._folder.cleanup()

    def test_each_file_with_its_type_gzipped_and_kept_for_good(self) -> None:
        for name, kind in ((SCRIPT, "text/javascript"), (STYLE, "text/css")):
            got = self.fetch(
                "/" + self.built.url(name),
                headers={"Accept-Encoding": "gzip"},
                decompress_response=False,
            )
            assert got.code == 200 and got.headers["Content-Type"].startswith(kind)
            assert gzip.decompress(got.body) == self.built.assets[name].body
            assert "immutable" in got.headers["Cache-Control"]
            digest = self.built.assets[name].digest
            again = self.fetch("/" + self.built.url(name), headers={"If-None-Match": f'"{digest}"'})
            assert again.code == 304

    def test_nothing_else_is_served_from_there(self) -> None:
        assert self.fetch(f"/{front_end.ROUTE}secrets.txt").code == 404
