"""The Palace app (`palace.app.palace_app.PalaceApp`) without a browser: click, set values, read."""

from __future__ import annotations

import base64
import datetime as dt
import html
import json
import re
from pathlib import Path

import pytest

from palace import Game, RuleBot, Rules, play_out
from palace.app.common import VARIANT_NAMES
from palace.app.files import LoadError, hand_json, load_hand_or_scenario
from palace.app.lessons_tab import LessonsTab, lesson_notebooks
from palace.app.palace_app import TAB_TITLES, PalaceApp
from palace.scenarios import MAX_BYTES, SCENARIO_DIR

SCENARIO_01 = SCENARIO_DIR / "01-quiet-round-showdown.json"


@pytest.fixture(scope="module")
def shared_app() -> PalaceApp:
    """One app for the read-only checks (building one takes about half a second)."""
    return PalaceApp(advisor=None)


def labels(markup: str) -> list[str]:
    return [html.unescape(m) for m in re.findall(r'aria-label="([^"]*)"', markup)]


def upload_value(name: str, data: bytes) -> tuple[dict, ...]:
    """What ipywidgets' FileUpload holds after the browser sent one file."""
    return (
        {
            "name": name,
            "type": "application/json",
            "size": len(data),
            "content": memoryview(data),
            "last_modified": dt.datetime(2026, 1, 1, tzinfo=dt.UTC),
        },
    )


def click_legal(app: PalaceApp, prefer: str = "stay") -> None:
    """A learner's click: keep soldiers (trim to five), `prefer`, call, attack, else fold."""
    p = app.play.picker
    assert p is not None
    if p.toggles:
        soldiers = list(p.toggles)
        extra = max(0, len(soldiers) - 5)
        for c in soldiers[:extra]:
            p.toggles[c].value = True
        p.button("confirm" if extra else "keep").click()
        return
    for kind in (prefer, "stay", "call"):
        if not p.button(kind).disabled:
            p.button(kind).click()
            return
    g = app.play.game
    for t in range(g.players):
        if t != p.seat and not p.button("bet", t).disabled:
            p.button("bet", t).click()
            return
    p.button("fold").click()


def play_to_the_end(app: PalaceApp, prefer: str = "stay", limit: int = 400) -> int:
    clicks = 0
    while not app.play.game.is_over and clicks < limit:
        before = len(app.play.game.events)
        click_legal(app, prefer)
        assert len(app.play.game.events) > before, app.play.picker.status
        clicks += 1
    assert app.play.game.is_over
    return clicks


# ---------------------------------------------------------------------- the shell
def test_tabs_header_and_repr(shared_app: PalaceApp) -> None:
    app = shared_app
    assert tuple(app.tabs.titles) == TAB_TITLES
    assert len(app.tabs.children) == 5
    assert repr(app) == "PalaceApp(tabs=Play, Replay, Battle lab, Explore, Lessons)"
    assert "Palace Poker" in app.header.value
    assert app._repr_mimebundle_()["text/plain"] == repr(app)


def test_variant_names_come_from_the_one_list() -> None:
    from palace.analysis.variants import VARIANTS

    assert VARIANT_NAMES == tuple(VARIANTS)
    app = PalaceApp(advisor=None)
    assert app.play.variant.options == tuple((v.label, slug) for slug, v in VARIANTS.items())
    assert app.play.variant.value == "standard" and app.play.rules() == Rules()
    assert list(app.explore.variant_boxes) == list(VARIANTS)


# ---------------------------------------------------------------------- play
@pytest.mark.parametrize("seed", [3, 8])
def test_deal_and_play_a_hand_to_the_end(seed: int) -> None:
    app = PalaceApp(advisor=None)
    play = app.play
    play.players.value = 3
    play.seed.value = seed
    play.deal_button.click()
    g = play.game
    assert (g.players, g.seed, play.humans) == (3, seed, (0,))
    assert f"Dealt seed {seed}" in play.message.value
    play_to_the_end(app)
    text = app.text()
    assert "== Result ==" in text and play.game.result.text in text
    assert "The hand is over" in play.picker.text()
    # the same seed and the same human actions give the same hand in the engine
    fresh = Game.new(players=3, seed=seed)
    seats = play.controller.actors
    bots = {s: RuleBot() for s in (1, 2)}
    for seat, action in zip(seats, play.game.actions, strict=True):
        if seat == 0:
            fresh.apply(action)
        else:
            assert bots[seat].choose(fresh.view(seat)) == action
            fresh.apply(action)
    assert [e.text for e in fresh.events] == [e.text for e in play.game.events]


def test_next_seed_undo_and_rules_fields() -> None:
    app = PalaceApp(advisor=None)
    play = app.play
    play.next_button.click()
    assert play.game.seed == 8
    assert play.undo_button.disabled
    start = len(play.game.events)
    play.picker.button("stay").click()
    assert not play.undo_button.disabled
    play.undo_button.click()
    assert len(play.game.events) == start and "taken back" in play.message.value
    play.variant.value = "no-limit"
    play.small_bet.value, play.big_bet.value, play.stacks.value = 5, 10, 200
    play.deal_button.click()
    r = play.game.rules
    assert (r.structure, r.small_bet, r.big_bet, r.stacks) == ("no-limit", 5, 10, 200)
    # a refused setup keeps the hand that was there
    before = play.game
    play.small_bet.value, play.big_bet.value = 10, 4
    play.deal_button.click()
    assert play.game is before
    assert 'role="alert"' in play.message.value and "big_bet" in play.message.value


def test_several_human_seats_take_turns() -> None:
    app = PalaceApp(advisor=None)
    play = app.play
    play.players.value = 3
    play.bots[1].value = False  # Ann and Bob are human, Cat is a bot
    play.seed.value = 5
    play.deal_button.click()
    assert play.humans == (0, 1)
    seen, covers, switches, last = set(), 0, 0, None
    while not play.game.is_over:
        g = play.game
        assert g.to_act in (0, 1)
        me = g.names[g.to_act]
        if last is not None and g.to_act != last:
            switches += 1
        if play.covered:  # hot seat: the next human's palace stays hidden until they reveal
            covers += 1
            text = play.text()
            assert f"Pass the screen to {me}" in text
            assert "(you" not in play.table.text() and "you)" not in play.table.text()
            assert all("palace 3 face-down" in ln for ln in play.table.text().splitlines()[1:])
            assert play.reveal_button.description == f"I am {me}: show my cards"
            play.reveal_button.click()
        assert not play.covered
        assert play.picker.seat == g.to_act  # the buttons of the human to act
        assert re.search(rf"^{me} \((dealer, )?you", play.table.text(), re.M)
        seen.add(g.to_act)
        last = g.to_act
        click_legal(app)
    assert seen == {0, 1}
    assert covers == switches + 1  # the first human too: the screen may be someone else's


def test_one_human_gets_no_cover() -> None:
    app = PalaceApp(advisor=None)
    app.play.deal_button.click()
    assert not app.play.covered and app.play.picker is not None


def test_all_bots_play_the_hand_out() -> None:
    app = PalaceApp(advisor=None)
    play = app.play
    play.bots[0].value = True
    play.deal_button.click()
    assert play.game.is_over and play.picker is None
    assert "Every seat is a bot" in app.text()
    assert play.undo_button.disabled


def test_players_field_shows_one_bot_box_per_seat() -> None:
    app = PalaceApp(advisor=None)
    app.play.players.value = 6
    shown = [b.layout.display != "none" for b in app.play.bots]
    assert shown == [True] * 6 + [False] * 4


def test_odds_advisor_plugged_into_the_attack_buttons() -> None:
    pytest.importorskip("palace.analysis.odds")
    app = PalaceApp()
    picker = app.play.picker
    assert app.play.odds.value and picker.advisor is not None
    assert re.search(r"win \d+%.*against (Bob|Cat|Dan)", picker.text())
    app.play.odds.value = False
    assert "win " not in app.play.picker.text()


def test_custom_advisor_hook() -> None:
    app = PalaceApp(advisor=lambda game, seat, target: f"hint for {game.names[target]}")
    assert "hint for Bob" in app.play.picker.text()


# ---------------------------------------------------------------------- instructor switch
def test_instructor_switch_on_the_play_table() -> None:
    app = PalaceApp(advisor=None)
    g = app.play.game
    others = [c for s in range(1, 4) for c in g.palace(s)]
    shown = labels(app.play.table.html)
    assert not any(c.name in shown for c in others)
    assert all(c.name in shown for c in g.palace(0))
    app.set_view("all")
    shown = labels(app.play.table.html)
    assert all(c.name in shown for c in others)
    app.set_view("seat", 2)
    assert not app.view_seat.disabled
    shown = labels(app.play.table.html)
    assert all(c.name in shown for c in g.palace(2))
    assert not any(c.name in shown for c in g.palace(0))
    assert "seen by Cat" in app.play.table.html
    app.set_view("players")
    assert app.view_seat.disabled
    assert all(c.name in labels(app.play.table.html) for c in g.palace(0))


def test_instructor_switch_on_the_replay_table() -> None:
    app = PalaceApp(advisor=None)
    app.select("Replay")
    st = app.replay.stepper
    st.last()
    g = app.replay.game
    # a scenario is a teaching position: the players' view shows every card (issue 12)
    assert st.perspective is None and st.reveal_all
    app.set_view("all")
    assert app.replay.stepper.reveal_all
    app.set_view("seat", 1)
    assert app.replay.stepper.perspective == 1 and not app.replay.stepper.reveal_all
    assert [lab for lab, _ in app.view_seat.options][1].startswith(g.names[1])


# ---------------------------------------------------------------------- replay
def test_replay_a_scenario_step_by_step(shared_app: PalaceApp) -> None:
    rep = shared_app.replay
    keys = rep.entry_keys
    assert len([k for k in keys if k.startswith("scenario:")]) == len(
        list(SCENARIO_DIR.glob("*.json"))
    )
    key = next(k for k in keys if "exclusion-kills-flush" in k)
    rep.choice.value = key
    sc = rep.current.scenario
    assert sc is not None and sc.id == "exclusion-kills-flush"
    # the summary gives the answer away: it waits behind "Show the answer"
    assert sc.summary not in html.unescape(rep.info.value)
    assert sc.question in html.unescape(rep.info.value)
    assert rep.answer.layout.display == "none" and "Summary" not in rep.text()
    rep.answer_toggle.value = True
    shown = html.unescape(rep.answer.value)
    assert rep.answer.layout.display is None and sc.answer in shown and sc.summary in shown
    # a teaching position opens at its battle, every card shown, the battle drawn
    st = rep.stepper
    battle = next(e for e in rep.game.events if e.kind == "battle")
    assert st.index == battle.index and st.reveal_all
    assert st.battle.layout.display != "none" and "Verdict" in st.battle.text()
    st.button("next").click()
    assert st.index == battle.index + 1
    assert st.text().startswith(f"Step {battle.index + 2} of {len(rep.game.events)}: ")
    st.button("last").click()
    assert st.index == len(rep.game.events) - 1
    assert rep.game.events[-1].text in rep.text() or "(hidden)" in rep.text()
    # one seat's view: only what that seat may see
    shared_app.set_view("seat", 2)
    assert not rep.stepper.reveal_all and rep.stepper.perspective == 2
    shared_app.set_view("players")
    assert rep.stepper.reveal_all


def bad_files() -> list[tuple[str, bytes, str]]:
    scenario = json.loads(SCENARIO_01.read_text("utf-8"))
    missing = dict(scenario)
    del missing["expect"]
    repeated = dict(scenario, deck="As Kd As")
    g = Game.new(players=3, seed=2)
    hand = g.to_dict()
    hand_repeat = dict(hand, deck=["As", "Kd", "As"])
    hand_bad = dict(hand, players=1)
    return [
        ("notes.json", b"this is not JSON", "not valid JSON"),
        ("huge.json", b" " * (MAX_BYTES + 1), "limit is 1,048,576 bytes"),
        ("missing.json", json.dumps(missing).encode(), "missing field 'expect'"),
        ("repeat.json", json.dumps(repeated).encode(), "appears as card 1"),
        ("hand-repeat.json", json.dumps(hand_repeat).encode(), "As appears twice"),
        ("hand-players.json", json.dumps(hand_bad).encode(), "players must be 2 to 10"),
        ("list.json", b"[1, 2]", "must be a JSON object"),
        ("other.json", b'{"format": "something/2"}', "field 'format' must be"),
        ("latin1.json", '{"x": "é"}'.encode("latin-1"), "not UTF-8"),
    ]


@pytest.mark.parametrize(("name", "data", "problem"), bad_files(), ids=lambda v: str(v)[:20])
def test_bad_upload_is_refused_and_the_replay_stays(name: str, data: bytes, problem: str) -> None:
    app = PalaceApp(advisor=None)
    rep = app.replay
    rep.stepper.button("next").click()
    before = (rep.current, rep.stepper, rep.choice.value, rep.stepper.index)
    rep.upload.value = upload_value(name, data)
    msg = html.unescape(rep.message.value)
    assert 'role="alert"' in msg and name in msg and problem in msg, msg
    assert "stays loaded" in msg
    assert (rep.current, rep.stepper, rep.choice.value, rep.stepper.index) == before
    # and the app keeps working: a good file loads after the bad one
    rep.upload.value = upload_value("good.json", SCENARIO_01.read_bytes())
    assert rep.current.scenario.id == "quiet-round-showdown"
    assert "Loaded good.json" in rep.message.value


def test_open_by_name_only_inside_data() -> None:
    app = PalaceApp(advisor=None)
    rep = app.replay
    first = rep.current
    for name in ("../pyproject.toml", "/etc/passwd", "scenarios/../../README.md", "nothere.json"):
        rep.name_box.value = name
        rep.open_button.click()
        assert 'role="alert"' in rep.message.value, name
        assert rep.current is first
    assert "no such file" in html.unescape(rep.message.value)  # the last one tried
    rep.name_box.value = "../pyproject.toml"
    rep.open_button.click()
    assert "'..'" in html.unescape(rep.message.value)
    rep.name_box.value = "scenarios/04-tie-banner-count.json"
    rep.open_button.click()
    assert rep.current.scenario.id == "tie-banner-count"
    assert rep.choice.label.startswith("data/scenarios/04-tie-banner-count.json")


def test_save_download_and_load_back() -> None:
    app = PalaceApp(advisor=None)
    play = app.play
    play.seed.value = 12
    play.deal_button.click()
    for _ in range(3):
        if not play.game.is_over:
            click_legal(app, "buy")
    play.save_button.click()
    link = play.download.value
    m = re.search(
        r'download="(palace-hand-12\.json)" href="data:application/json;base64,([^"]+)"', link
    )
    assert m, link
    saved = base64.b64decode(m.group(2)).decode("utf-8")
    assert saved == hand_json(play.game)
    again = Game.from_dict(json.loads(saved))
    assert again.actions == play.game.actions
    assert [e.text for e in again.events] == [e.text for e in play.game.events]
    # the saved hand is offered in Replay, and an upload of the file replays the same hand
    rep = app.replay
    assert any(k.startswith("hand:") for k in rep.entry_keys)
    rep.upload.value = upload_value("palace-hand-12.json", saved.encode())
    assert rep.current.kind == "hand"
    assert [e.text for e in rep.game.events] == [e.text for e in play.game.events]
    # acting makes the old link stale: it disappears until saved again
    if not play.game.is_over:
        click_legal(app)
        assert play.download.value == ""


def test_replay_save_and_play_on() -> None:
    app = PalaceApp(advisor=None)
    rep = app.replay
    g = Game.new(players=4, seed=9)
    g.apply(g.legal_actions()[0])
    rep.upload.value = upload_value("mid.json", json.dumps(g.to_dict()).encode())
    assert not rep.play_on_button.disabled
    rep.save_button.click()
    assert 'download="palace-hand-9.json"' in rep.download.value
    rep.play_on_button.click()
    assert app.tabs.selected_index == 0
    assert app.play.game.actions[: len(g.actions)] == g.actions
    assert "Playing on from the replay" in app.play.message.value


def test_load_hand_or_scenario_direct() -> None:
    loaded = load_hand_or_scenario(SCENARIO_01.read_bytes(), "s.json")
    assert loaded.kind == "scenario" and loaded.game.is_over
    g = Game.new(players=2, seed=1)
    play_out(g, {0: RuleBot(), 1: RuleBot()})
    loaded = load_hand_or_scenario(hand_json(g), "h.json")
    assert loaded.kind == "hand" and loaded.game.actions == g.actions
    with pytest.raises(LoadError, match="x.json"):
        load_hand_or_scenario(b"{", "x.json")


# ---------------------------------------------------------------------- battle lab
def test_battle_lab_armies_and_inline_errors() -> None:
    app = PalaceApp(advisor=None)
    lab = app.battle_lab
    assert "Bob wins" in lab.battle.text() and lab.message == ""
    att, dfn = lab.sides
    att["palace"].value = "9s 2c Kx"
    assert "Kx" in lab.message and 'role="alert"' in lab.error.value
    assert "Bob wins" in lab.battle.text()  # the last good battle stays
    att["palace"].value = "9s 2c As"
    assert "appears twice" in lab.message
    att["palace"].value = "9s 2c 3d"
    dfn["banner"].value = "2h"
    assert "R7.2" in lab.message
    dfn["banner"].value = "As Ad"
    assert "exactly one card" in lab.message
    dfn["banner"].value = "As"
    att["soldiers"].value = "Qs Js Ts 8s 7s 6s"
    assert "R6.7" in lab.message
    att["soldiers"].value = "Qh Jh"
    lab.show_button.click()
    assert lab.message == "" and lab.error.value == ""
    assert "Ann (attacker" in lab.battle.text()
    lab.explorer.cards_input.value = "Ah Kh Qh Jh 9h"
    assert "Flush" in app.battle_lab.text()


# ---------------------------------------------------------------------- explore
def test_explore_runs_a_small_comparison() -> None:
    app = PalaceApp(advisor=None)
    ex = app.explore
    ex.selected = ("no-limit", "standard")
    ex.hands.value = 20
    ex.run_button.click()
    assert ex.wait(timeout=120)
    assert ex.progress.value == ex.progress.max >= 2
    assert list(ex.result.columns) == ["standard (limit)", "no-limit (R3.3)"]
    assert "no-limit" in ex.table.value and "palace-df" in ex.table.value
    assert 'src="data:image/png;base64,' in ex.chart.value
    assert "Done: 20 hands" in ex.status.value
    ex.selected = ()
    ex.run_button.click()
    assert 'role="alert"' in ex.status.value


def test_explore_matches_compare_variants() -> None:
    from palace.analysis.studies import compare_variants
    from palace.analysis.variants import named

    app = PalaceApp(advisor=None)
    ex = app.explore
    ex.selected = ("standard", "free-discard")
    ex.hands.value = 15
    assert ex.run()
    want = compare_variants(
        named(["standard", "free-discard"]),
        hands=15,
        seed=ex.seed.value,
        progress=False,
        scheduler="serial",
    )
    assert ex.result.equals(want)


# ---------------------------------------------------------------------- lessons
def test_lessons_links(tmp_path: Path) -> None:
    def nb(title: str) -> str:
        cell = {"cell_type": "markdown", "metadata": {}, "source": [f"# {title}\n", "About it."]}
        return json.dumps({"cells": [cell], "metadata": {}, "nbformat": 4, "nbformat_minor": 5})

    (tmp_path / "01_first.ipynb").write_text(nb("Lesson one"))
    (tmp_path / "00_index.ipynb").write_text(nb("Index"))
    (tmp_path / "app.ipynb").write_text(nb("The app"))
    (tmp_path / "02_broken.ipynb").write_text("{not json")
    tab = LessonsTab(tmp_path)
    assert [lesson.file for lesson in tab.lessons] == [
        "00_index.ipynb",
        "01_first.ipynb",
        "02_broken.ipynb",
    ]
    value = tab.html.value
    assert 'href="./00_index.ipynb" target="_blank"' in value
    assert 'href="./01_first.ipynb"' in value and "app.ipynb" not in value
    assert "Lesson one" in value and "About it." in value and "02 broken" in value
    assert lesson_notebooks(tmp_path / "missing") == []


def test_lessons_warn_in_single_notebook_mode(tmp_path: Path, monkeypatch) -> None:
    (tmp_path / "01_x.ipynb").write_text("{}")
    monkeypatch.setenv("SCRIPT_NAME", "/")
    assert "serve the notebooks folder" in LessonsTab(tmp_path).html.value
    monkeypatch.setenv("SCRIPT_NAME", "/voila/render/app.ipynb")
    assert 'role="alert"' not in LessonsTab(tmp_path).html.value


def test_seat_switch_follows_the_hand_shown() -> None:
    app = PalaceApp(advisor=None)
    app.play.players.value = 6
    app.play.deal_button.click()
    assert [v for _, v in app.view_seat.options] == list(range(6))
    app.set_view("seat", 5)
    assert "seen by Fay" in app.play.table.html
    app.select("Replay")  # scenario 01 has four players: Fay is not there
    assert [v for _, v in app.view_seat.options] == list(range(4))
    assert app.replay.stepper.perspective == app.view_seat.value


def test_a_students_page_shows_a_scenario_whole_but_no_reveal_switch() -> None:
    """D29: a teaching position is shown whole to everyone; a played hand is not."""
    app = PalaceApp(teacher=False)
    rep = app.replay
    rep.choice.value = rep.choice.options[1][1]  # scenario 02, at its battle
    assert rep.stepper is not None and rep.stepper.reveal_all
    assert not rep.stepper.reveal_control
    assert "Ann wins with a pair of eights" in rep.text()
    rep.stepper.reveal_all = False  # a played or uploaded hand keeps the players' view
    assert "show their palace cards to each other" in rep.text()
