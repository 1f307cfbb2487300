"""Palace's front end draws a page as Voilà's front end does (palace/app/server/front_end.py).

The same lessons served twice, by a server drawing with Palace's front end (`make app`'s
default) and by one drawing with Voilà's (``--PalaceVoila.light_page=False``): each output
of each page is drawn the same, with the same mime type and the same text, so the lessons'
prose, tables and panels read the same whichever front end draws them.
"""

from __future__ import annotations

import pytest
from pagekit import LOAD_TIMEOUT, new_page

pytestmark = pytest.mark.browser

# Lessons with every kind of output the notebooks show: panels (widgets), pandas tables
# (text/html) and printed text (text/plain).
LESSONS = ("02_the_deal.ipynb", "08_rule_explorer.ipynb")
LEFT = 'script[type="application/vnd.voila.cell-output+json"], .widget-loading'
OUTPUTS = """() => [...document.querySelectorAll('#rendered_cells .jp-OutputArea-output')]
  .map(e => [e.getAttribute('data-mime-type') || 'widget', e.innerText.trim()])"""


def _outputs(browser, url: str) -> list[list[str]]:
    page = new_page(browser)
    try:
        page.goto(url, timeout=LOAD_TIMEOUT)
        page.locator("#rendered_cells").wait_for(state="visible", timeout=LOAD_TIMEOUT)
        # every output drawn: no output's script left in the page, no widget still loading
        page.wait_for_function(f"() => !document.querySelector('{LEFT}')", timeout=LOAD_TIMEOUT)
        page.wait_for_timeout(1500)  # the panels' own late updates
        return page.evaluate(OUTPUTS)  # type: ignore[no-any-return]
    finally:
        page.context.close()


def test_the_lessons_read_the_same_as_with_voilas_front_end(palace_server, browser) -> None:
    ours = palace_server("--pool_size=0")
    voilas = palace_server("--pool_size=0", "--PalaceVoila.light_page=False")
    kinds: set[str] = set()
    for lesson in LESSONS:
        drawn = _outputs(browser, f"{ours.base}voila/render/{lesson}")
        expected = _outputs(browser, f"{voilas.base}voila/render/{lesson}")
        assert len(drawn) >= 5, f"{lesson}: only {len(drawn)} outputs drawn"
        assert drawn == expected, lesson
        kinds |= {kind for kind, _ in drawn}
    assert kinds >= {"widget", "text/html", "text/plain"}
