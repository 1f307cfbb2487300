"""Smoke test: Voila serves a widget notebook and Chromium renders the widget."""

from __future__ import annotations

from pathlib import Path

from pagekit import STDERR

FIXTURES = Path(__file__).parent / "fixtures"
WIDGET_BUTTON = ".jupyter-widgets button, button.widget-button"


def test_voila_renders_a_widget_button(voila_server, page, screenshot) -> None:
    url = voila_server(FIXTURES / "smoke.ipynb")

    page.goto(url, wait_until="domcontentloaded")
    button = page.locator(WIDGET_BUTTON, has_text="Palace smoke")
    button.first.wait_for(state="visible", timeout=90_000)

    shot = screenshot("smoke-voila-button")
    assert shot.stat().st_size > 0
    assert button.count() == 1
    assert page.locator(STDERR).count() == 0, page.locator(STDERR).all_inner_texts()


def test_page_aborts_requests_that_leave_the_machine(page) -> None:
    # ".invalid" never resolves, so nothing leaves the machine even if the guard
    # were missing; the guard shows itself by the error it raises instead.
    from playwright.sync_api import Error

    try:
        page.goto("http://palace.invalid/", timeout=10_000)
    except Error as error:
        assert "ERR_BLOCKED_BY_CLIENT" in str(error)
    else:
        raise AssertionError("a request to a non-loopback host was not aborted")
