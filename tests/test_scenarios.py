"""Teaching scenarios: every data/scenarios file loads and proves its point; bad input is refused.

The loader (`palace.scenarios`) replays each scenario and checks its `expect`; these
tests also check the required topics independently of the files' own expectations, so
a scenario cannot "prove" a point by asserting nothing.
"""

from __future__ import annotations

import copy
import dataclasses
import json
import os
from pathlib import Path

import pytest

from palace import Bet, Buy, Call, Category, Game, Stay, Trim, evaluate
from palace.errors import PalaceError, StateError
from palace.scenarios import (
    DATA,
    FORMAT,
    MAX_ACTIONS,
    MAX_BYTES,
    MAX_CHECKPOINTS,
    SCENARIO_DIR,
    Scenario,
    ScenarioError,
    data_path,
    draft_from_game,
    list_scenarios,
    load_scenario,
    load_scenario_text,
    main,
    open_data_file,
)

FILES = sorted(SCENARIO_DIR.glob("*.json"))


def base() -> dict:
    """A small valid scenario: three players, Ann stays, Bob attacks Ann."""
    return {
        "format": FORMAT,
        "id": "small-battle",
        "title": "A small battle",
        "summary": "Bob attacks Ann; Ann's three hearts win the tie-break.",
        "rules": ["R8.5"],
        "players": ["Ann", "Bob", "Cat"],
        "dealer": 2,
        "seed": 4,
        "deck": "Ah Kc 5s 9h 9c 2d 9s 9d 3d Kh Ad 4c",
        "actions": [{"kind": "stay"}, {"kind": "bet", "target": 0}, {"kind": "call"}],
        "expect": {"battles": [{"winner": "Ann", "rule": "R8.5"}]},
    }


def folder_state() -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(SCENARIO_DIR.iterdir())}


def refused(data: dict, *parts: str) -> str:
    """Loading `data` raises ScenarioError whose message holds every part; nothing changes."""
    before = copy.deepcopy(data)
    files = folder_state()
    with pytest.raises(ScenarioError) as info:
        load_scenario(data)
    assert data == before, "the loader changed its input"
    assert folder_state() == files
    msg = str(info.value)
    for part in parts:
        assert part in msg, f"{part!r} not in {msg!r}"
    return msg


# ---------------------------------------------------------------------------- the files
def test_at_least_ten_files_in_teaching_order() -> None:
    assert len(FILES) >= 10
    names = [p.name for p in FILES]
    for k, name in enumerate(names[:10], start=1):
        assert name.startswith(f"{k:02d}-"), names


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_every_scenario_loads_and_holds(path: Path) -> None:
    s = load_scenario(path)
    s.check()
    assert path.stem.endswith(s.id)
    assert s.title and s.summary and s.question and s.answer
    assert s.rules and all(tag.startswith("R") for tag in s.rules)
    assert s.expect, "a scenario must assert something"
    g = s.game()
    assert len(g.actions) == s.n_actions
    # game_at steps through the same hand
    assert s.game_at(s.n_actions).to_dict() == g.to_dict()
    start = s.game_at(0)
    assert start.actions == ()
    assert [e.to_dict() for e in start.events] == [e.to_dict() for e in g.events][
        : len(start.events)
    ]
    # every card is somewhere exactly once
    assert sorted(c.index for z in g.zones().values() for c in z) == list(range(52))


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_every_scenario_round_trips(path: Path) -> None:
    s = load_scenario(path)
    again = load_scenario(s.to_dict())
    assert again == s
    assert again.game().to_dict() == s.game().to_dict()
    text = json.dumps(s.to_dict())
    assert load_scenario_text(text) == s


def test_list_scenarios_sorted_and_unique() -> None:
    all_ = list_scenarios()
    assert [s.source for s in all_] == [p.name for p in FILES]
    ids = [s.id for s in all_]
    assert len(set(ids)) == len(ids)


def test_scenario_is_frozen() -> None:
    s = load_scenario(FILES[0])
    with pytest.raises(dataclasses.FrozenInstanceError):
        s.id = "other"  # type: ignore[misc]
    with pytest.raises(TypeError):
        s.expect["over"] = False  # type: ignore[index]
    assert s.game() is not s.game()


def test_game_at_bounds() -> None:
    s = load_scenario(FILES[0])
    for k in (-1, s.n_actions + 1, "2", True):
        with pytest.raises(ScenarioError, match="game_at needs a whole number"):
            s.game_at(k)  # type: ignore[arg-type]


def test_cli_checks_all_files(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([]) == 0
    out = capsys.readouterr().out
    assert out.count("ok   ") == len(FILES)


# ---------------------------------------------------------------------------- topics
def by_rule(tag: str) -> list[Scenario]:
    found = [s for s in list_scenarios() if tag in s.rules]
    assert found, f"no scenario teaches {tag}"
    return found


def battles(g: Game) -> list:
    return [e for e in g.events if e.kind == "battle"]


def no_exclusion_hand(hand):
    return evaluate(hand.cards)


def test_topic_a_exclusion_kills_a_flush() -> None:
    """R8.2: a battle where a hand is a flush in full but the flush suit is excluded."""
    hits = []
    for s in by_rule("R8.2"):
        for e in battles(s.game()):
            r = e.detail["battle"]
            for h in (r.attacker_hand, r.defender_hand):
                full = no_exclusion_hand(h)
                lost = h.category is None or h.category < Category.FLUSH
                if full.category == Category.FLUSH and lost and len(h.excluded) >= 5:
                    hits.append(s.id)
    assert hits


def test_topic_b_exclusion_turns_a_win_into_a_loss() -> None:
    """R8.2: the winner with exclusion is not the winner without it, and expect says so."""
    hits = []
    for s in by_rule("R8.2"):
        for i, e in enumerate(battles(s.game())):
            r = e.detail["battle"]
            a, d = e.detail["attacker"], e.detail["defender"]
            full_a, full_d = no_exclusion_hand(r.attacker_hand), no_exclusion_hand(r.defender_hand)
            if full_a == full_d or e.seat is None:
                continue
            without = a if full_a > full_d else d
            if without != e.seat:
                recorded = s.expect["battles"][i]
                assert recorded["winner"] in (e.seat, s.players[e.seat])
                assert recorded["without_exclusion"] in (without, s.players[without])
                hits.append(s.id)
    assert len(hits) >= 2  # the flush scenario and the straight scenario


def test_topic_c_tie_decided_by_banner_count() -> None:
    hits = [
        s.id
        for s in by_rule("R8.5")
        for e in battles(s.game())
        if e.rule == "R8.5" and e.detail["battle"].decided_by == "banner_count"
    ]
    assert hits


def test_topic_d_tie_puts_both_out_and_play_goes_on() -> None:
    hits = []
    for s in by_rule("R8.6"):
        g = s.game()
        for e in battles(g):
            if e.rule == "R8.6" and e.seat is None:
                assert g.players >= 3
                both = next(x for x in g.events if x.kind == "both_out")
                assert set(both.detail["out"]) == {e.detail["attacker"], e.detail["defender"]}
                assert not g.is_over and sum(g.active) >= 2
                hits.append(s.id)
    assert hits


def test_topic_e_same_banner_share() -> None:
    hits = []
    for s in by_rule("R9.4"):
        g = s.game()
        r = g.result
        if r is not None and r.reason == "same banner":
            assert g.players >= 5
            assert len(r.winners) >= 2
            assert len({g.zones()[f"seat{w}.banner"][0].suit for w in r.winners}) == 1
            assert r.rule == "R10.2" and sum(r.shares.values()) > 0
            hits.append(s.id)
    assert hits


def test_topic_f_banner_rejects_reshuffled() -> None:
    hits = []
    for s in by_rule("R4.4"):
        g = s.game()
        ev = [e for e in g.events if e.kind == "reshuffle" and e.rule == "R4.4"]
        if ev:
            assert g.players >= 6  # the fewest players for which it can happen
            hits.append(s.id)
    assert hits


def test_topic_f_five_players_never_run_out() -> None:
    """The proof in the R4.4 scenario: even the worst deck leaves 12 cards for player five."""
    worst = (
        "Ac Kc Qc Jc Tc 9c 8c 7c 6c 5c 4c 3c 2c Ad Kd Qd Jd Td 9d 8d 7d 6d 5d 4d 3d 2d "
        "Ah Kh Qh Jh Th 9h 8h 7h 6h 5h 4h 3h 2h As"
    )
    g = Game.new(players=5, seed=1, deck=worst, dealer=4)
    assert not [e for e in g.events if e.rule == "R4.4"]
    assert len([e for e in g.events if e.kind == "reject"]) == 36


def test_topic_g_discard_pile_reshuffled_then_no_buy() -> None:
    hits = []
    for s in by_rule("R6.3"):
        g = s.game()
        if any(e.kind == "reshuffle" and e.rule == "R6.3" for e in g.events):
            z = g.zones()
            assert not z["deck"] and not z["discard"]
            reason = g.why_illegal(Buy())
            assert reason is not None and "R6.3" in reason
            assert all(a.kind != "buy" for a in g.legal_actions())
            hits.append(s.id)
    assert hits


def test_topic_h_capture_over_five() -> None:
    hits = []
    for s in by_rule("R6.7"):
        g = s.game()
        for i, e in enumerate(g.events):
            if e.kind == "capture":
                nxt = g.events[i + 1 :]
                trims = [x for x in nxt if x.kind == "trim" and x.seat == e.seat]
                if trims and trims[0].rule == "R6.7":
                    assert len(g.soldiers(e.seat)) == 5
                    hits.append(s.id)
    assert hits


def test_topic_i_two_left_must_battle() -> None:
    hits = []
    for s in by_rule("R9.3"):
        for k in range(s.n_actions + 1):
            g = s.game_at(k)
            if g.is_over or sum(g.active) != 2 or g.phase.value != "turn":
                continue
            kinds = {a.kind for a in g.legal_actions()}
            if kinds == {"bet", "fold"}:
                reason = g.why_illegal(Stay())
                assert reason is not None and "R9.3" in reason
                hits.append(s.id)
    assert {"two-left-must-battle"} <= set(hits)


def test_topic_j_quiet_round_showdown() -> None:
    hits = []
    for s in by_rule("R9.1"):
        g = s.game()
        if any(e.kind == "quiet_round" for e in g.events):
            assert g.result is not None and g.result.rule == "R10.3"
            assert g.result.reason == "showdown"
            hits.append(s.id)
    assert hits


# ---------------------------------------------------------------------------- bad input
def test_base_is_valid() -> None:
    s = load_scenario(base())
    assert s.game().result is None
    assert s.id == "small-battle"


def test_not_json_names_line_and_column() -> None:
    with pytest.raises(
        ScenarioError, match=r"upload: the scenario is not valid JSON at line 2, column 13"
    ):
        load_scenario_text('{"format":\n  "x", "id" 3}')
    with pytest.raises(ScenarioError, match="not valid JSON at line 1, column 1"):
        load_scenario_text("")
    with pytest.raises(ScenarioError, match="NaN is not allowed"):
        load_scenario_text('{"seed": NaN}')
    with pytest.raises(ScenarioError, match="not UTF-8"):
        load_scenario_text(b"\xff\xfe{")
    with pytest.raises(ScenarioError, match="the key 'seed' appears twice"):
        load_scenario_text('{"seed": 1, "seed": 2}')


def test_not_json_file(tmp_path: Path) -> None:
    p = tmp_path / "small-battle.json"
    p.write_text("{\n  'id': 1\n}\n")
    with pytest.raises(
        ScenarioError,
        match=r"small-battle.json: the scenario is not valid JSON at line 2, column 3",
    ):
        load_scenario(p)
    assert p.read_text() == "{\n  'id': 1\n}\n"


def test_too_big_is_refused_before_parsing(tmp_path: Path) -> None:
    big = "{" + " " * MAX_BYTES + "}"
    with pytest.raises(ScenarioError, match="the limit is 1,048,576 bytes"):
        load_scenario_text(big)
    with pytest.raises(ScenarioError, match="upload: the scenario is"):
        load_scenario_text(big.encode())
    with pytest.raises(ScenarioError, match="the limit is 100 bytes"):
        load_scenario_text(json.dumps(base()), max_bytes=100)
    # multi-byte characters count as bytes, not characters
    with pytest.raises(ScenarioError, match="limit"):
        load_scenario_text('"' + "é" * (MAX_BYTES // 2 + 1) + '"')
    p = tmp_path / "big.json"
    p.write_text(big)
    with pytest.raises(ScenarioError, match="big.json: the scenario is 1,048,578 bytes"):
        load_scenario(p)


def test_wrong_top_level_type() -> None:
    with pytest.raises(ScenarioError, match=r"must be a JSON object \{...\}, got a list"):
        load_scenario_text("[1, 2]")
    with pytest.raises(ScenarioError, match="got text"):
        load_scenario_text('"hello"')
    with pytest.raises(ScenarioError, match="needs a file path or a dict"):
        load_scenario(42)  # type: ignore[arg-type]
    with pytest.raises(ScenarioError, match="use load_scenario_text"):
        load_scenario(json.dumps(base()))


def test_missing_field() -> None:
    d = base()
    del d["actions"]
    refused(d, "missing field 'actions'")


def test_unknown_field() -> None:
    d = base()
    d["decks"] = "As"
    refused(d, "unknown field 'decks'", "did you mean 'deck'?")
    d = base()
    d["expect"] = {"winnner": "Ann"}
    refused(d, "expect: unknown key 'winnner'", "did you mean 'winner'?")
    d = base()
    d["actions"][1] = {"kind": "bet", "target": 0, "amout": 2}
    refused(d, "actions[1]: unknown field 'amout' for a bet action")


def test_wrong_format_and_id() -> None:
    d = base()
    d["format"] = "palace-hand/1"
    refused(d, "field 'format' must be 'palace-scenario/1'")
    d = base()
    d["id"] = "Small Battle"
    refused(d, "field 'id' must be lower-case words joined by '-'")


def test_unknown_card_is_named() -> None:
    d = base()
    d["deck"] = "Ah Kc 1x 9h"
    refused(d, "deck card 3 is not a card", "'1x'")
    d = base()
    d["deck"] = ["Ah", "Kc", "Zz"]
    refused(d, "deck card 3", "'Zz'")
    d = base()
    d["actions"] = [{"kind": "buy"}, {"kind": "trim", "cards": "1x"}]
    refused(d, "actions[1]", "'1x'")


def test_duplicate_card_is_named() -> None:
    d = base()
    d["deck"] = "Ah Kc 5s 9h Kc"
    refused(d, "deck card 5 is Kc, which already appears as card 2", "(R1.2)")


@pytest.mark.parametrize(
    ("players", "part"),
    [
        (1, "Palace needs 2 to 10 players, got 1 (R1.1)"),
        (11, "got 11 (R1.1)"),
        (["Ann"], "names 1 players; Palace needs 2 to 10 (R1.1)"),
        ([f"P{k}" for k in range(11)], "names 11 players"),
        (["Ann", "Ann"], "players[1] 'Ann' is named twice"),
        ("Ann, Bob", "must be a number 2-10 or a list of names"),
        (True, "must be a number 2-10 or a list of names"),
    ],
)
def test_wrong_player_count(players: object, part: str) -> None:
    d = base()
    d["players"] = players
    refused(d, "field 'players'" if "players[" not in part else "", part)


def test_dealer_and_seed() -> None:
    d = base()
    d["dealer"] = 3
    refused(d, "field 'dealer' must be a seat 0-2 or null", "(R2.3)")
    d = base()
    d["seed"] = "7"
    refused(d, "field 'seed' must be a whole number")


def test_variant_unknown_field_and_bad_value() -> None:
    d = base()
    d["variant"] = {"small_bets": 3}
    refused(d, "variant: unknown Rules field 'small_bets'")
    d = base()
    d["variant"] = {"structure": "pot-limit"}
    refused(d, "variant: Rules.structure must be 'limit' or 'no-limit'", "(R3.3)")
    d = base()
    d["variant"] = {"small_bet": 0}
    refused(d, "variant: Rules.small_bet")
    d = base()
    d["variant"] = ["no-limit"]
    refused(d, "field 'variant' must be an object of Rules fields")


def test_variant_is_used() -> None:
    d = base()
    d["variant"] = {"small_bet": 4, "big_bet": 8}
    d["expect"] = {"events": [{"kind": "bet", "amount": 4}], "pot": 3 * 2 + 4 + 4}
    s = load_scenario(d)
    assert s.variant.small_bet == 4


def test_illegal_action_names_index_and_reason() -> None:
    d = base()
    d["actions"] = [{"kind": "stay"}, {"kind": "bet", "target": 1}]
    refused(d, "actions[1] (Attack Bob", "by Bob) is illegal", "cannot attack themselves", "(R7.1)")
    d = base()
    d["actions"] = [{"kind": "call"}]
    refused(d, "actions[0] (Call by Ann) is illegal", "(R7.4)")
    d = base()
    d["actions"] = [{"kind": "stay"}, {"kind": "bet", "target": "Zed"}]
    refused(d, "actions[1].target: 'Zed' is not a player")
    d = base()
    d["actions"] = [{"kind": "jump"}]
    refused(d, "actions[0].kind 'jump' is not one of")
    d = base()
    d["actions"] = base()["actions"] + [{"kind": "trim"}, {"kind": "stay"}]
    d["variant"] = {"two_left": "at_once"}
    # Ann beat Bob: only Ann and Cat are left, so Cat must Bet or Fold (R9.3, "at_once")
    refused(d, "actions[4] (Stay by Cat) is illegal", "must Bet or Fold (R9.3)")


def test_expectation_that_does_not_hold() -> None:
    d = base()
    d["expect"] = {"battles": [{"winner": "Bob"}]}
    refused(d, "expect.battles[0].winner does not hold", "expected Bob (seat 1)", "got Ann")
    d["expect"] = {"over": True}
    refused(d, "expect.over does not hold: expected True, got False")
    d["expect"] = {"winner": "Ann"}
    refused(d, "expect.winner does not hold: the hand is not over")
    d["expect"] = {"events": [{"kind": "quiet_round"}]}
    refused(d, "expect.events[0] does not hold: no event matches")
    d["expect"] = {"no_events": [{"kind": "battle"}]}
    refused(d, "expect.no_events[0] does not hold", "Ann wins the tie-break")
    d["expect"] = {"legal": ["stay"]}
    refused(d, "expect.legal does not hold")
    d["expect"] = {"illegal": [{"action": {"kind": "trim"}}]}
    refused(d, "expect.illegal[0] does not hold: Keep all soldiers is legal here")
    d["expect"] = {"battles": [{"without_exclusion": "Bob"}]}
    refused(d, "without_exclusion does not hold")
    d["expect"] = {"battles": []}
    refused(d, "expect.battles (how many) does not hold: expected 0, got 1")
    d["expect"] = {"checkpoints": [{"after": 1, "to_act": "Ann"}]}
    refused(d, "expect.checkpoints[0] (after 1 actions).to_act does not hold", "got Bob")
    d["expect"] = {"checkpoints": [{"after": 9}]}
    refused(d, "checkpoints[0].after must be a number of actions 0-3")
    d["expect"] = {"phase": "battle"}
    refused(d, "expect.phase must be one of")
    d["expect"] = {"zones": {"attic": 1}}
    refused(d, "unknown zone 'attic'")
    d["expect"] = []
    refused(d, "field 'expect' must be an object, got a list")


def test_rules_tags_checked() -> None:
    d = base()
    d["rules"] = ["R8.5", "R8.9"]
    refused(d, "rules[1] 'R8.9' is not a clause of RULES.md")
    d["rules"] = []
    refused(d, "field 'rules' must be a non-empty list")


def test_question_needs_answer() -> None:
    d = base()
    d["question"] = "Who wins?"
    refused(d, "a 'question' needs an 'answer'")
    d["answer"] = "Ann."
    assert load_scenario(d).answer == "Ann."
    d = base()
    d["title"] = "  "
    refused(d, "field 'title' must be non-empty text")


def test_file_name_must_match_id(tmp_path: Path) -> None:
    good = tmp_path / "07-small-battle.json"
    good.write_text(json.dumps(base()))
    assert load_scenario(good).id == "small-battle"
    bad = tmp_path / "07-other.json"
    bad.write_text(json.dumps(base()))
    with pytest.raises(ScenarioError, match="the file name must be the id"):
        load_scenario(bad)
    with pytest.raises(ScenarioError, match="no such scenario file"):
        load_scenario(tmp_path / "missing.json")


def test_scenario_error_is_a_state_error() -> None:
    assert issubclass(ScenarioError, StateError)
    assert issubclass(ScenarioError, PalaceError)
    assert issubclass(ScenarioError, ValueError)


# ---------------------------------------------------------------------------- paths
@pytest.mark.parametrize(
    ("name", "part"),
    [
        ("../../etc/passwd", "uses '..'"),
        ("scenarios/../../pyproject.toml", "uses '..'"),
        ("/etc/passwd", "is an absolute path"),
        (str(SCENARIO_DIR / "01-quiet-round-showdown.json"), "is an absolute path"),
        ("C:/Windows/win.ini", "is an absolute path"),
        ("~/secret.json", "is an absolute path"),
        ("..\\..\\etc\\passwd", "use '/'"),
        ("", "must not be empty"),
        ("scen\x00arios", "not a usable file name"),
        ("scenarios/none.json", "no such file in the data folder"),
        ("scenarios", "is not a file"),
    ],
)
def test_open_data_file_refuses(name: str, part: str) -> None:
    with pytest.raises(ScenarioError) as info:
        open_data_file(name)
    assert part in str(info.value)


def test_open_data_file_resolves_inside_data() -> None:
    p = open_data_file("scenarios/01-quiet-round-showdown.json")
    assert p == (SCENARIO_DIR / "01-quiet-round-showdown.json").resolve()
    assert p.is_relative_to(DATA.resolve())
    assert load_scenario(p).id == "quiet-round-showdown"
    assert data_path("scenarios/./01-quiet-round-showdown.json") == p


@pytest.mark.skipif(not hasattr(os, "symlink"), reason="needs symbolic links")
def test_open_data_file_refuses_symlink_escape(tmp_path: Path) -> None:
    root = tmp_path / "data"
    (root / "scenarios").mkdir(parents=True)
    secret = tmp_path / "secret.txt"
    secret.write_text("secret")
    inside = root / "scenarios" / "ok.json"
    inside.write_text("{}")
    try:
        (root / "escape.json").symlink_to(secret)
        (root / "up").symlink_to(tmp_path, target_is_directory=True)
        (root / "alias.json").symlink_to(inside)
    except OSError:
        pytest.skip("cannot create symbolic links here")
    for name in ("escape.json", "up/secret.txt"):
        with pytest.raises(ScenarioError, match="leads outside the data folder"):
            open_data_file(name, root=root)
    assert open_data_file("alias.json", root=root) == inside.resolve()
    assert secret.read_text() == "secret"


# ---------------------------------------------------------------------------- authoring
def test_draft_from_game_round_trips() -> None:
    g = Game.new(players=3, seed=11, dealer=0)
    g.apply(Buy())
    g.apply(Trim())
    g.apply(Bet(target=0))
    g.apply(Call())
    d = draft_from_game(
        g,
        id="my-first-battle",
        title="My first battle",
        summary="Bob buys, then Cat attacks Ann.",
        rules=["R7.3", "R8.4"],
        question="Who wins?",
        answer="See the battle event.",
    )
    s = load_scenario(json.loads(json.dumps(d)))
    assert s.game().to_dict()["events"] == g.to_dict()["events"]
    assert len(s.expect["battles"]) == 1


def test_too_many_actions_or_checkpoints() -> None:
    d = base()
    d["actions"] = [{"kind": "stay"}] * (MAX_ACTIONS + 1)
    refused(d, f"has {MAX_ACTIONS + 1:,} actions; at most {MAX_ACTIONS:,}")
    d = base()
    d["expect"] = {"checkpoints": [{"after": 0}] * (MAX_CHECKPOINTS + 1)}
    refused(d, "checkpoints has 101 entries")


def test_expectations_are_bounded() -> None:
    d = base()
    d["expect"] = {"no_events": [{"kind": "nope"}] * 300, "checkpoints": [{"after": 1}] * 2}
    d["expect"]["checkpoints"][1] = {"after": 2, "no_events": [{"kind": "nope"}] * 201}
    refused(d, "expect asks 501 things", "at most 500")
    d["expect"]["checkpoints"][1]["no_events"].pop()
    assert load_scenario(d).id == "small-battle"


def test_checkpoints_are_checked_on_the_way() -> None:
    """Checkpoints are checked when their action count is reached, in any list order."""
    d = base()
    d["expect"] = {
        "checkpoints": [
            {"after": 2, "phase": "battle response", "to_act": "Ann"},
            {"after": 0, "to_act": "Ann", "legal": ["buy", "bet", "stay", "fold"]},
            {"after": 1, "to_act": "Bob"},
        ],
        "battles": [{"winner": "Ann"}],
    }
    assert load_scenario(d).id == "small-battle"
    d["expect"]["checkpoints"][2]["to_act"] = "Cat"
    refused(d, "expect.checkpoints[2] (after 1 actions).to_act does not hold", "got Bob")


def test_no_private_names_cross_modules_in_the_package() -> None:
    """The package shares helpers by public names only (issue #9)."""
    import ast

    pkg = Path(__file__).resolve().parents[1] / "palace" / "scenarios"
    crossing = []
    for path in sorted(pkg.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("palace"):
                crossing += [f"{path.name}: {a.name}" for a in node.names if a.name[0] == "_"]
    assert crossing == []


def test_deep_nesting_is_refused() -> None:
    deep = "[" * 100_000 + "]" * 100_000
    with pytest.raises(ScenarioError, match="nested more than 32 deep"):
        load_scenario_text(deep)
    d = base()
    inner: list = []
    for _ in range(900):
        inner = [inner]
    d["expect"] = {"shares": {"Ann": inner}}
    text = json.dumps(d)
    with pytest.raises(ScenarioError):
        load_scenario_text(text)
