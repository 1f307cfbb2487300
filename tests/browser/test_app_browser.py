"""End to end: the Palace app and the lessons served by Voilà (directory mode) in Chromium.

One Palace server (``make app``'s: Voilà through ``palace.app.server``) on the notebooks/
folder is shared by the whole module: the app is ``/voila/render/app.ipynb``, each lesson
``/voila/render/NAME.ipynb``. Every page is a fresh browser context, so every page gets a
kernel of its own. Expected texts come from the engine, run here with the same seed and
the same clicks. Screenshots of each tab go to build/screenshots/app/.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest
from pagekit import STDERR, button, field, tab

from palace import Game
from palace.app.palace_app import PalaceApp
from palace.app.play_tab import PlayTab
from palace.scenarios import SCENARIO_DIR, load_scenario

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = ROOT / "notebooks"
CONFTEST = Path(__file__).with_name("conftest.py")
SHOTS = ROOT / "build" / "screenshots" / "app"
APP = "voila/render/app.ipynb"
LOAD_TIMEOUT = 120_000  # ms: a kernel start on a busy two-core machine
WAIT = 30_000  # ms: one round trip to the kernel
LESSONS = sorted(p.name for p in NOTEBOOKS.glob("*.ipynb") if p.name != "app.ipynb")
COURSE = [name for name in LESSONS if name[:2].isdigit()]  # not the teacher's class.ipynb


TEACHER_TOKEN = "app-browser-teacher-token"


# ---------------------------------------------------------------------- fixtures
def _browser_conftest(config: pytest.Config) -> ModuleType:
    """tests/browser/conftest.py as pytest loaded it (its server and page helpers)."""
    for plugin in config.pluginmanager.get_plugins():
        if Path(getattr(plugin, "__file__", "") or "x").resolve() == CONFTEST:
            return plugin  # type: ignore[return-value]
    raise RuntimeError("tests/browser/conftest.py is not loaded")


@pytest.fixture(scope="module")
def helpers(request: pytest.FixtureRequest) -> ModuleType:
    return _browser_conftest(request.config)


@pytest.fixture(scope="module")
def server(helpers: ModuleType, browser: object, request: pytest.FixtureRequest) -> Iterator[str]:
    """One Palace server on notebooks/ for the module, started as ``make app`` starts it
    (``python -m palace.app.server``, the repository's voila.json), with a pool of two."""
    before = os.environ.get("PALACE_INSTRUCTOR_TOKEN")
    os.environ["PALACE_INSTRUCTOR_TOKEN"] = TEACHER_TOKEN  # the kernels inherit it
    try:
        palace = helpers.start_palace_server("--pool_size=2")
    finally:
        if before is None:
            os.environ.pop("PALACE_INSTRUCTOR_TOKEN", None)
        else:
            os.environ["PALACE_INSTRUCTOR_TOKEN"] = before
    try:
        yield palace.base
    finally:
        palace.stop()
    tr = request.config.pluginmanager.get_plugin("terminalreporter")
    capture = request.config.pluginmanager.get_plugin("capturemanager")
    if tr is not None and capture is not None and SHOTS.is_dir():
        with capture.global_and_fixture_disabled():
            tr.write_line(f"\napp screenshots: {SHOTS}/")


def open_app(helpers: ModuleType, browser: object, base: str, wait: bool = True) -> object:
    page = helpers.new_loopback_page(
        browser, viewport={"width": 1280, "height": 900}, accept_downloads=True
    )
    page.goto(base + APP, wait_until="commit", timeout=LOAD_TIMEOUT)
    if wait:
        wait_for_app(page)
    return page


def wait_for_app(page: object) -> None:
    # the widgets themselves, not just the output area
    page.locator(".palace-app .palace-app-play .palace-table").wait_for(timeout=LOAD_TIMEOUT)


@pytest.fixture(scope="module")
def app_page(helpers: ModuleType, browser: object, server: str) -> Iterator[object]:
    """One app page shared by the tab tests, in order (one kernel)."""
    page = open_app(helpers, browser, server)
    try:
        yield page
    finally:
        page.context.close()


# ---------------------------------------------------------------------- page helpers


def set_number(scope: object, label: str, value: int) -> None:
    box = field(scope, label)
    box.fill(str(value))
    box.press("Enter")


def no_errors(page: object) -> None:
    assert page.locator(STDERR).count() == 0, page.locator(STDERR).all_inner_texts()
    alerts = page.locator(".palace-alert", has_text="Something went wrong")
    assert alerts.count() == 0, alerts.all_inner_texts()


def shot(page: object, name: str, helpers: ModuleType) -> Path:
    """A screenshot of the whole app (Voilà scrolls inside the page, so grow the viewport)."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    height = page.evaluate(
        "() => Math.ceil(document.querySelector('.palace-app').getBoundingClientRect().height)"
    )
    page.set_viewport_size({"width": 1280, "height": int(height) + 60})
    page.wait_for_timeout(300)
    path = SHOTS / f"{name}.png"
    page.locator(".palace-app").screenshot(path=str(path))
    page.set_viewport_size({"width": 1280, "height": 900})
    helpers._screenshots_taken.append(path)
    print(f"screenshot: {path}")
    return path


LOG_JS = """(el) => Array.from(el.querySelectorAll('.palace-log-line')).map(
    line => Array.from(line.children).filter(c => !c.hasAttribute('popover'))
        .map(c => c.textContent.trim()))"""  # a rule badge's popover holds the clause text


def page_log(page: object) -> list[list[str]]:
    return page.locator(".palace-app-play .palace-log").evaluate(LOG_JS)


def expected_log(play: PlayTab) -> list[list[str]]:
    seat, reveal = play.perspective()
    pairs = play.hand_log.pairs(play.game, seat, reveal)
    return [[f"{ev.index + 1}", ev.rule, text] for ev, text in pairs]


def wait_log(page: object, want: list[list[str]]) -> None:
    try:
        _wait_log(page, want)
    except Exception:
        got = page_log(page)
        raise AssertionError(
            f"the page's log never became the engine's:\n{got}\n!=\n{want}"
        ) from None


def _wait_log(page: object, want: list[list[str]]) -> None:
    page.wait_for_function(
        f"""(want) => {{
            const el = document.querySelector('.palace-app-play .palace-log');
            if (!el) return false;
            const got = ({LOG_JS})(el);
            return JSON.stringify(got) === JSON.stringify(want);
        }}""",
        arg=want,
        timeout=WAIT,
    )


# ---------------------------------------------------------------------- the engine's plan
def ann_battles(game: Game) -> list:
    """Battle showdowns Ann (seat 0) fought."""
    return [
        e
        for e in game.events
        if e.kind == "battle" and 0 in (e.detail["attacker"], e.detail["defender"])
    ]


def plan_hand(
    players: int, seed: int, max_clicks: int = 14
) -> tuple[list[tuple[str, list]], Game] | None:
    """A learner's clicks and the log after each, from the same app in this process.

    Ann buys on her first turn, stays on her second, then attacks whenever she can; she
    keeps her soldiers (while five or fewer) and calls when attacked. None if the seed
    does not give a short hand with Buy, Stay, an attack and a battle Ann fights.
    """
    app = PalaceApp(advisor=None)
    play = app.play
    play.players.value, play.seed.value = players, seed
    play.deal_button.click()
    steps: list[tuple[str, list]] = [("", expected_log(play))]
    turns = 0
    while not play.game.is_over:
        if len(steps) > max_clicks:
            return None
        p = play.picker
        if p.toggles:
            if len(p.toggles) > 5:
                return None
            choice = p.button("keep")
        elif not p.button("call").disabled:
            choice = p.button("call")
        else:
            turns += 1
            enabled = [p.button("bet", t) for t in range(1, players)]
            enabled = [b for b in enabled if not b.disabled]
            if turns == 1 and not p.button("buy").disabled:
                choice = p.button("buy")
            elif turns == 2 and not p.button("stay").disabled:
                choice = p.button("stay")
            elif enabled:
                choice = enabled[0]
            elif not p.button("stay").disabled:
                choice = p.button("stay")
            else:
                return None
        label = choice.description
        choice.click()
        steps.append((label, expected_log(play)))
    labels = " ".join(label for label, _ in steps)
    if not all(w in labels for w in ("Buy", "Stay", "Attack")):
        return None
    if not ann_battles(play.game) or not play.hand_log.battle_shown:
        return None
    return steps, play.game


# ---------------------------------------------------------------------- tests
def test_play_a_hand_like_the_engine(app_page: object, helpers: ModuleType) -> None:
    page = app_page
    players = 3
    seed, (steps, planned) = next(
        (s, plan) for s in range(1, 200) if (plan := plan_hand(players, s)) is not None
    )
    print(f"seed {seed}: clicks {[label for label, _ in steps[1:]]}")
    tab(page, "Play")
    play = page.locator(".palace-app-play")
    set_number(play, "Players", players)
    set_number(play, "Seed", seed)
    button(page, "Deal").click()
    play.locator(".palace-okay", has_text=f"Dealt seed {seed}: {players} players").wait_for(
        timeout=WAIT
    )
    wait_log(page, steps[0][1])
    shot(page, "0-play-your-turn", helpers)
    for label, want in steps[1:]:
        button(play, label).click()
        wait_log(page, want)
    # the engine alone, same seed, same actions: the same sentences the page showed
    g = Game.new(players=players, seed=seed)
    for action in planned.actions:
        g.apply(action)
    assert g.is_over and [e.text for e in g.events] == [e.text for e in planned.events]
    battle = ann_battles(g)[-1]
    verdict = play.locator(".palace-battleview .palace-verdict")
    assert battle.text in verdict.inner_text()
    result = play.locator(".palace-result")
    assert g.result.text in result.inner_text()
    assert page_log(page) == steps[-1][1]
    table = play.locator(".palace-table")
    assert f"Pot {g.pot}" in " ".join(table.inner_text().split())
    no_errors(page)
    shot(page, "1-play", helpers)


def test_save_the_hand_and_download_it(app_page: object) -> None:
    page = app_page
    tab(page, "Play")
    play = page.locator(".palace-app-play")
    button(play, "Save hand").click()
    link = play.locator("a.palace-download")
    link.wait_for(timeout=WAIT)
    with page.expect_download() as info:
        link.click()
    download = info.value
    seed = int(field(play, "Seed").input_value())
    assert download.suggested_filename == f"palace-hand-{seed}.json"
    data = json.loads(Path(download.path()).read_text("utf-8"))
    g = Game.from_dict(data)
    assert g.is_over and g.seed == seed
    assert g.result.text in play.locator(".palace-result").inner_text()


def test_replay_a_scenario_and_step(app_page: object, helpers: ModuleType) -> None:
    page = app_page
    tab(page, "Replay")
    rep = page.locator(".palace-app-replay")
    path = sorted(SCENARIO_DIR.glob("*.json"))[1]
    sc = load_scenario(path)
    g = sc.game()
    field(rep, "Hand").select_option(label=f"02 · {sc.title}")
    rep.locator(".palace-box-title", has_text=sc.title).wait_for(timeout=WAIT)
    event = rep.locator(".palace-stepper .palace-event-text")
    next_button = button(rep, "Next")
    # a scenario opens at its battle (every card shown), steps counted from 1
    start = next(e.index for e in g.events if e.kind == "battle")
    rep.locator(".palace-battleview .palace-verdict").wait_for(timeout=WAIT)
    for i in range(start + 1, min(start + 4, len(g.events))):
        next_button.click()
        want = g.events[i].text
        page.wait_for_function(
            """([i, n, want]) => {
                const head = document.querySelector('.palace-app-replay .palace-event-head');
                const text = document.querySelector('.palace-app-replay .palace-event-text');
                return head && text && head.textContent.includes(`step ${i + 1} of ${n}`)
                    && text.textContent.trim() === want;
            }""",
            arg=[i, len(g.events), want],
            timeout=WAIT,
        )
    last_button = button(rep, "Last")
    if last_button.is_enabled():  # the steps above may have reached the end already
        last_button.click()
    last = len(g.events) - 1
    n = len(g.events)
    rep.locator(".palace-event-head", has_text=f"step {n} of {n}").wait_for(timeout=WAIT)
    assert event.inner_text().strip() == g.events[last].text  # every card shown
    assert rep.locator(".palace-scenario-a").is_hidden()
    button(rep, "Show the answer").click()
    rep.locator(".palace-scenario-a").wait_for(state="visible", timeout=WAIT)
    assert " ".join(sc.answer.split()) in " ".join(
        rep.locator(".palace-scenario-a").inner_text().split()
    )
    no_errors(page)
    shot(page, "2-replay", helpers)


def _upload(page: object, name: str, data: bytes) -> None:
    button = page.locator(".palace-app-replay button.widget-upload")
    with page.expect_file_chooser() as chooser:
        button.click()
    chooser.value.set_files(files=[{"name": name, "mimeType": "application/json", "buffer": data}])


def test_bad_uploads_keep_the_replay(app_page: object, helpers: ModuleType) -> None:
    page = app_page
    tab(page, "Replay")
    rep = page.locator(".palace-app-replay")
    title = rep.locator(".palace-box-title").nth(1).inner_text()
    scenario = json.loads(sorted(SCENARIO_DIR.glob("*.json"))[0].read_text("utf-8"))
    repeated = json.dumps(dict(scenario, deck="As Kd As")).encode()
    for name, data, problem in (
        ("notes.json", b"this is not JSON", "is not valid JSON"),
        ("repeat.json", repeated, "which already appears as card 1"),
    ):
        _upload(page, name, data)
        alert = rep.locator(".palace-alert", has_text=name)
        alert.wait_for(timeout=WAIT)
        text = alert.inner_text()
        assert problem in text and "stays loaded" in text, text
        assert rep.locator(".palace-box-title").nth(1).inner_text() == title
    shot(page, "3-replay-bad-upload", helpers)
    # a good upload still works afterwards
    good = sorted(SCENARIO_DIR.glob("*.json"))[3]
    _upload(page, good.name, good.read_bytes())
    rep.locator(".palace-okay", has_text=f"Loaded {good.name}").wait_for(timeout=WAIT)
    rep.locator(".palace-box-title", has_text=load_scenario(good).title).wait_for(timeout=WAIT)
    no_errors(page)


def test_battle_lab(app_page: object, helpers: ModuleType) -> None:
    page = app_page
    tab(page, "Battle lab")
    lab = page.locator(".palace-app-battle")
    palace = lab.locator(".widget-text", has=page.locator("label", has_text="Palace")).first
    box = palace.locator("input")
    box.fill("9s 2c Kx")
    box.press("Enter")
    lab.locator(".palace-alert", has_text="Kx").wait_for(timeout=WAIT)
    box.fill("Ah 2c 3d")
    box.press("Enter")
    lab.locator(".palace-verdict", has_text="wins").wait_for(timeout=WAIT)
    page.wait_for_function(
        "() => !document.querySelector('.palace-app-battle .palace-alert')", timeout=WAIT
    )
    no_errors(page)
    shot(page, "4-battle-lab", helpers)


def test_explore_variants(app_page: object, helpers: ModuleType) -> None:
    page = app_page
    tab(page, "Explore")
    ex = page.locator(".palace-app-explore")
    set_number(ex, "Hands each", 60)
    button(ex, "Run").click()
    ex.locator(".palace-okay", has_text="Done: 60 hands").wait_for(timeout=90_000)
    table = ex.locator(".palace-df table")
    for name in ("standard (limit)", "no-limit", "only Stay is quiet"):
        assert name in table.inner_text()
    assert ex.locator('img[src^="data:image/png;base64,"]').count() == 1
    no_errors(page)
    shot(page, "5-explore", helpers)


def test_lessons_tab_links(app_page: object, helpers: ModuleType, server: str) -> None:
    page = app_page
    tab(page, "Lessons")
    links = page.locator(".palace-app-lessons a")
    links.first.wait_for(timeout=LOAD_TIMEOUT)  # the tab is built when first opened
    assert links.count() == len(COURSE)
    hrefs = [links.nth(i).evaluate("a => a.href") for i in range(links.count())]
    assert hrefs == [f"{server}voila/render/{name}" for name in COURSE]
    assert all(links.nth(i).get_attribute("target") == "_blank" for i in range(links.count()))
    shot(page, "6-lessons", helpers)
    if COURSE:  # the link really opens the lesson, rendered by Voilà, in a new tab
        with page.context.expect_page() as opened:
            links.first.click()
        lesson = opened.value
        try:
            lesson.wait_for_load_state("load", timeout=LOAD_TIMEOUT)
            assert lesson.url == f"{server}voila/render/{COURSE[0]}"
            lesson.locator(".jp-Cell").first.wait_for(timeout=LOAD_TIMEOUT)
        finally:
            lesson.close()


def test_instructor_switch_in_the_page(helpers: ModuleType, browser: object, server: str) -> None:
    """Only the page opened with the instructor's token has "All cards" (issue 15)."""
    page = helpers.new_loopback_page(browser, viewport={"width": 1280, "height": 900})
    page.goto(
        f"{server}{APP}?instructor={TEACHER_TOKEN}", wait_until="commit", timeout=LOAD_TIMEOUT
    )
    wait_for_app(page)
    tab(page, "Play")
    table = page.locator(".palace-app-play .palace-table")
    page.locator(".palace-app-bar button", has_text="All cards").click()
    table.locator(".palace-status", has_text="all cards shown").wait_for(timeout=WAIT)
    assert table.locator(".palace-back").count() == 0 or "all cards shown" in table.inner_text()
    page.locator(".palace-app-bar button", has_text="Players' view").click()
    table.locator(".palace-status", has_text="seen by Ann").wait_for(timeout=WAIT)
    no_errors(page)
    page.context.close()


def test_three_pages_get_independent_games(
    helpers: ModuleType, browser: object, server: str
) -> None:
    started = time.monotonic()
    pages = [open_app(helpers, browser, server, wait=False) for _ in range(3)]
    try:
        for p in pages:
            wait_for_app(p)
        print(f"three app pages ready in {time.monotonic() - started:.1f} s")
        seeds = (21, 22, None)
        for p, seed in zip(pages, seeds, strict=True):
            if seed is None:
                continue
            play = p.locator(".palace-app-play")
            set_number(play, "Seed", seed)
            button(p, "Deal").click()
            play.locator(".palace-okay", has_text=f"Dealt seed {seed}").wait_for(timeout=WAIT)
        for p, seed in zip(pages, (21, 22, 7), strict=True):
            g = Game.new(players=4, seed=seed)
            sub = p.locator(".palace-app-play .palace-subtitle").first
            assert f"seed {seed} ·" in sub.inner_text()
            ann = p.locator('.palace-app-play .palace-seat[data-seat="0"]')
            assert ann.locator(f'[data-card="{g.banner(0)}"]').count() == 1
        # acting in one page changes nothing in the others
        before = [page_log(p) for p in pages]
        button(pages[0].locator(".palace-app-play"), "Stay").click()
        deadline = time.monotonic() + WAIT / 1000
        while page_log(pages[0]) == before[0] and time.monotonic() < deadline:
            pages[0].wait_for_timeout(250)
        assert page_log(pages[0]) != before[0], "the Stay click never reached the log"
        assert [page_log(p) for p in pages[1:]] == before[1:]
        for p in pages:
            no_errors(p)
    finally:
        for p in pages:
            p.context.close()
