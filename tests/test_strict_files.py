"""One strict schema for every file a user can load: saved hands and scenarios (issue #11).

Each refusal is the project's own error (`PalaceError`), names the field, and has a short
message whatever the file held; a Hypothesis fuzz of both formats checks that nothing else
ever comes out. The app keeps working after a hostile upload: every widget state it sends
to the browser packs as the kernel packs it (`jupyter_client`'s `json_packer`).
"""

from __future__ import annotations

import copy
import html
import json
from collections.abc import Iterator
from typing import Any

import comm
import pytest
from comm import DummyComm
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from ipywidgets import Dropdown, FileUpload
from jupyter_client.session import json_packer

from palace import Bet, Buy, Call, Game, Rules, Stay, action_from_dict, strict
from palace.app import PalaceApp
from palace.app.files import Loaded, LoadError, hand_json, load_hand_or_scenario
from palace.app.replay_tab import ReplayTab
from palace.errors import PalaceError, RulesError, StateError
from palace.scenarios import SCENARIO_DIR, ScenarioError, load_scenario, load_scenario_text

LIMIT = strict.MAX_MESSAGE


def saved_hand() -> dict[str, Any]:
    """A short saved hand with stacks, a scripted deck and a battle."""
    g = Game.new(players=["Ann", "Bob", "Cat"], seed=5, rules=Rules(stacks=40), dealer=2)
    g.apply(Buy())
    g.apply(g.legal_actions()[0])  # keep or trim
    g.apply(Bet(target=0))
    g.apply(Call())
    return g.to_dict()


def scenario() -> dict[str, Any]:
    """A small valid scenario (three players, Bob attacks Ann, Ann wins the tie-break)."""
    return {
        "format": "palace-scenario/1",
        "id": "small-battle",
        "title": "A small battle",
        "summary": "Bob attacks Ann; Ann's three hearts win the tie-break.",
        "rules": ["R8.5"],
        "players": ["Ann", "Bob", "Cat"],
        "dealer": 2,
        "seed": 4,
        "deck": "Ah Kc 5s 9h 9c 2d 9s 9d 3d Kh Ad 4c",
        "actions": [{"kind": "stay"}, {"kind": "bet", "target": "Ann"}, {"kind": "call"}],
        "expect": {"battles": [{"winner": "Ann", "rule": "R8.5"}]},
    }


def hand_refused(data: Any, *parts: str) -> str:
    """`Game.from_dict` refuses `data` with a StateError holding every part, bounded."""
    before = copy.deepcopy(data) if not _self_containing(data) else None
    with pytest.raises(StateError) as info:
        Game.from_dict(data)
    msg = str(info.value)
    assert len(msg) <= LIMIT, len(msg)
    for part in parts:
        assert part in msg, f"{part!r} not in {msg!r}"
    if before is not None:
        assert data == before, "from_dict changed its input"
    return msg


def scenario_refused(data: Any, *parts: str) -> str:
    with pytest.raises(ScenarioError) as info:
        load_scenario(data)
    msg = str(info.value)
    assert len(msg) <= LIMIT, len(msg)
    for part in parts:
        assert part in msg, f"{part!r} not in {msg!r}"
    return msg


def upload_refused(text: str | bytes, *parts: str) -> str:
    with pytest.raises(LoadError) as info:
        load_hand_or_scenario(text, "up.json")
    msg = str(info.value)
    assert len(msg) <= LIMIT and msg.startswith("up.json"), msg[:200]
    for part in parts:
        assert part in msg, f"{part!r} not in {msg!r}"
    return msg


def _self_containing(data: Any) -> bool:
    return isinstance(data, dict) and any(v is data for v in data.values())


def test_the_bases_are_valid() -> None:
    g = Game.from_dict(saved_hand())
    assert g.to_dict() == saved_hand() and g.stacks is not None
    assert load_scenario(scenario()).id == "small-battle"
    assert load_hand_or_scenario(json.dumps(saved_hand()), "h.json").kind == "hand"


# ------------------------------------------------------------------ names (R1.1)
@pytest.mark.parametrize(
    ("name", "parts"),
    [
        ({"first": "Ann"}, ("players[0] must be a name", "an object")),
        (None, ("players[0] must be a name", "null")),
        (7, ("players[0] must be a name", "the number 7")),
        (["Ann"], ("players[0] must be a name", "a list")),
        ("", ("players[0] must be a non-empty name",)),
        ("   ", ("players[0] must be a non-empty name",)),
        ("A\x00n", ("players[0]", "U+0000")),
        ("A\nn", ("players[0]", "U+000A")),
        ("\ud800", ("players[0]", "U+D800")),
        ("x\u202eevil", ("players[0]", "U+202E")),
        ("A" * 41, ("players[0] is 41 characters long; a name has at most 40",)),
        ("A" * 200_000, ("players[0] is 200,000 characters long",)),
    ],
    ids=lambda v: repr(v)[:20],
)
def test_bad_names_are_refused_in_both_formats(name: Any, parts: tuple[str, ...]) -> None:
    hand = saved_hand()
    hand["players"][0] = name
    hand_refused(hand, *parts)
    sc = scenario()
    sc["players"][0] = name
    scenario_refused(sc, *parts)
    with pytest.raises(PalaceError, match=r"players\[0\]"):
        Game.new(players=[name, "Bob"])


def test_players_must_be_a_list_of_names() -> None:
    for players, part in [
        (b"AB", "bytes b'AB'"),
        ("AB", "players must be 2 to 10 names in a list, got text"),
        (3, "players must be 2 to 10 names in a list, got the number 3"),
        ({"Ann": 1, "Bob": 2}, "got an object"),
        (["Ann"], "names 1 players; Palace needs 2 to 10 (R1.1)"),
        (["Ann", " Ann "], "players[1] 'Ann' is named twice"),
    ]:
        hand_refused({**saved_hand(), "players": players}, "players", part)
    with pytest.raises(PalaceError, match="bytes b'AB'"):
        Game.new(players=b"AB")  # type: ignore[arg-type]
    with pytest.raises(PalaceError, match="R1.1"):
        Game.new(players=bytearray(b"AB"))  # type: ignore[arg-type]
    assert Game.new(players=[" Ann ", "Bob"]).names == ("Ann", "Bob")
    assert Game.new(players=("Zoë", "李")).names == ("Zoë", "李")


# ------------------------------------------------------------------ numbers
def test_booleans_are_not_numbers() -> None:
    hand = saved_hand()
    hand["stacks"] = [True, 40, 40]
    hand_refused(hand, "stacks[0] must be a whole number 0 to 1,000,000,000", "got true")
    hand = saved_hand()
    hand["seed"] = True
    hand_refused(hand, "seed must be a whole number", "got true")
    hand = saved_hand()
    hand["rules"]["small_bet"] = True
    hand_refused(hand, "rules: Rules.small_bet must be a whole number 1 to 1,000,000")
    sc = scenario()
    sc["dealer"] = False
    scenario_refused(sc, "field 'dealer' must be a seat 0-2 or null")


@pytest.mark.parametrize(
    ("field", "value", "part"),
    [
        ("small_bet", 10**300, "rules.small_bet: a 301-digit number is out of range"),
        ("small_bet", 10**12, "Rules.small_bet must be a whole number 1 to 1,000,000"),
        ("big_bet", 2_000_000, "Rules.big_bet must be a whole number 1 to 1,000,000"),
        ("ante", -1, "Rules.ante must be a whole number 0 to 1,000,000"),
        ("stacks", 10**10, "Rules.stacks must be a whole number 1 to 1,000,000,000"),
        ("discard_cost", 2.0, "Rules.discard_cost must be a whole number"),
        ("max_raises", 10**6, "Rules.max_raises must be a whole number 0 to 1,000"),
        ("structure", ["limit"], "Rules.structure must be 'limit' or 'no-limit', got a list"),
        ("call_matches_attack", 1, "Rules.call_matches_attack must be null, true or false"),
        ("quiet_actions", [["stay"]], "Rules.quiet_actions must be a list of stay"),
        ("quiet_actions", "stay", "Rules.quiet_actions must be a list of stay"),
    ],
)
def test_stakes_and_rules_in_documented_ranges(field: str, value: Any, part: str) -> None:
    hand = saved_hand()
    hand["rules"][field] = value
    hand_refused(hand, part)
    sc = scenario()
    sc["variant"] = {field: value}
    scenario_refused(sc, part.replace("rules.", "variant."))
    if field != "small_bet" or value < 2**63:
        with pytest.raises(RulesError, match=part.split(" must")[0]):
            Rules.from_dict({field: value})


def test_stakes_at_the_limits_are_accepted() -> None:
    r = Rules.from_dict({"small_bet": strict.MAX_STAKE, "big_bet": strict.MAX_STAKE})
    assert r.small_bet == 1_000_000
    g = Game.new(players=2, seed=1, rules=Rules(stacks=strict.MAX_CHIPS))
    assert Game.from_dict(g.to_dict()).to_dict() == g.to_dict()


def test_seeds_are_bounded() -> None:
    for seed in (2**63 - 1, -(2**63) + 1, 0):
        g = Game.from_dict({**saved_hand(), "seed": seed, "actions": []})
        assert g.seed == seed
    for seed, part in [
        (2**63, "seed: 9223372036854775808 is out of range (|n| < 2**63)"),
        (10**300, "seed: a 301-digit number is out of range"),
        ("7", "seed must be a whole number with |seed| < 2**63, got text"),
        (7.0, "seed must be a whole number with |seed| < 2**63, got the number 7.0"),
    ]:
        hand_refused({**saved_hand(), "seed": seed}, part)
        scenario_refused({**scenario(), "seed": seed}, part.replace("seed must", "'seed' must"))


def test_a_5000_digit_number_names_its_field() -> None:
    text = json.dumps({**saved_hand(), "seed": 0}).replace('"seed": 0', '"seed": ' + "1" * 5000)
    upload_refused(text, "seed: a 5,000-digit number is out of range")
    text = json.dumps(scenario()).replace('"seed": 4', '"seed": -' + "9" * 5000)
    upload_refused(text, "seed: a 5,000-digit number is out of range")
    hand = json.dumps(saved_hand()).replace('"target": 0', '"target": ' + "1" * 5000)
    upload_refused(hand, "actions[2].target: a 5,000-digit number")


def test_dealer_is_a_seat() -> None:
    for dealer in (3, -1, 10**18, "Ann", True):
        hand_refused({**saved_hand(), "dealer": dealer}, "dealer must be a seat 0-2 or null")


def test_action_amounts_and_targets_are_bounded() -> None:
    hand = saved_hand()
    hand["actions"][2]["amount"] = 10**15
    hand_refused(hand, "actions[2].amount must be a whole number 0 to 1,000,000,000")
    hand = saved_hand()
    hand["actions"][2]["target"] = 12
    hand_refused(hand, "actions[2].target must be a whole number 0 to 9")
    hand = saved_hand()
    hand["actions"][2]["target"] = None
    hand_refused(hand, "actions[2].target must be a whole number 0 to 9, got null")
    sc = scenario()
    sc["actions"][1]["target"] = None
    scenario_refused(sc, "actions[1].target must be a whole number 0 to 9, got null")
    hand = saved_hand()
    del hand["actions"][2]["target"]
    hand_refused(hand, "actions[2]", "(R7.1)")  # no target at all: the engine names the rule


# ------------------------------------------------------------------ structure
def test_duplicate_keys_are_refused_in_both_formats() -> None:
    hand = json.dumps(saved_hand())
    upload_refused(
        hand.replace('"seed": 5', '"seed": 5, "seed": 6'), "the key 'seed' appears twice"
    )
    nested = hand.replace('"small_bet": 2', '"small_bet": 2, "small_bet": 3')
    upload_refused(nested, "the key 'small_bet' appears twice")
    sc = json.dumps(scenario()).replace('"id": "small-battle"', '"id": "a", "id": "small-battle"')
    upload_refused(sc, "the key 'id' appears twice")
    with pytest.raises(ScenarioError, match="appears twice"):
        load_scenario_text(sc)


def test_unknown_fields_and_formats() -> None:
    hand_refused({**saved_hand(), "sede": 3}, "unknown field 'sede' (did you mean 'seed'?)")
    hand_refused({**saved_hand(), "x" * 900_000: 1}, "is not a usable key")
    no_format = {k: v for k, v in saved_hand().items() if k != "format"}
    hand_refused(no_format, "missing the field 'format'")
    hand_refused({**saved_hand(), "format": "x" * 900_000}, "format is 900,000 characters long")
    hand_refused({**saved_hand(), "format": "x" * 3000}, "format must be 'palace-hand/1'")


def test_list_valued_rules_are_refused() -> None:
    hand_refused({**saved_hand(), "rules": [["R1"]]}, "rules must be an object of Rules fields")
    scenario_refused({**scenario(), "rules": [["R1"]]}, "rules[0] a list of 1 item is not a clause")
    scenario_refused({**scenario(), "rules": [{"R1": 1}]}, "rules[0] an object with 1 key")
    scenario_refused({**scenario(), "variant": [["R1"]]}, "field 'variant' must be an object")
    upload_refused(json.dumps({**scenario(), "rules": [["R1"]]}), "rules[0]")


def test_deep_nesting_is_refused_without_recursion() -> None:
    deep: Any = []
    for _ in range(40):
        deep = [deep]
    hand_refused({**saved_hand(), "events": deep}, "nested more than 32 deep")
    scenario_refused({**scenario(), "expect": {"shares": {"Ann": deep}}}, "nested more than 32")
    loop: dict[str, Any] = dict(saved_hand())
    loop["events"] = loop  # a dict that holds itself
    hand_refused(loop, "nested more than 32 deep")
    text = '{"format": "palace-hand/1", "events": ' + "[" * 200_000 + "]" * 200_000 + "}"
    upload_refused(text, "nested more than 32 deep")
    upload_refused("[" * 50 + "]" * 50, "nested more than 32 deep")


def test_too_many_values_are_refused() -> None:
    hand_refused({**saved_hand(), "events": [0] * (strict.MAX_VALUES + 1)}, "too big to load")
    hand_refused({**saved_hand(), "actions": [{"kind": "stay"}] * 5001}, "at most 5,000")


def test_a_900_kb_action_kind_gives_a_short_message() -> None:
    big = "x" * 900_000
    hand = saved_hand()
    hand["actions"][0]["kind"] = big
    hand_refused(hand, "actions[0].kind is 900,000 characters long")
    upload_refused(json.dumps(hand), "actions[0].kind is 900,000 characters long")
    with pytest.raises(StateError) as info:
        action_from_dict({"kind": big}, where="actions[3]")
    assert str(info.value).startswith("actions[3].kind 'xxx") and len(str(info.value)) < 200
    with pytest.raises(StateError) as info:
        action_from_dict({"kind": "discard", "cards": "Zz" * 400_000})
    assert "action.cards is 800,000 characters" in str(info.value)
    sc = scenario()
    sc["actions"][0] = {"kind": big[:3000]}
    scenario_refused(sc, "actions[0].kind 'xxx", "(3,000 characters) is not one of")
    sc = scenario()
    sc["expect"] = {"events": [{"text": big[:3999]}]}
    scenario_refused(sc, "expect.events[0] does not hold")


def test_nan_infinity_and_non_json_values() -> None:
    upload_refused('{"format": "palace-hand/1", "seed": NaN}', "NaN is not allowed")
    upload_refused('{"format": "palace-hand/1", "seed": 1e999}', "seed: inf is not allowed")
    hand_refused({**saved_hand(), "deck": {1, 2}}, "deck must be a JSON value", "a set")
    with pytest.raises(StateError, match=r"events\[0\] must be a JSON value"):
        Game.from_dict({**saved_hand(), "events": [object()]})
    hand_refused({**saved_hand(), "rules": {1: 2}}, "rules: a key must be text, got 1")


def test_text_in_scenarios_is_clean_and_bounded() -> None:
    scenario_refused({**scenario(), "title": "T" * 201}, "field 'title' is 201 characters long")
    scenario_refused({**scenario(), "summary": "a\x00b"}, "summary holds the character U+0000")
    scenario_refused({**scenario(), "answer": "\udfff", "question": "q"}, "U+DFFF")
    scenario_refused({**scenario(), "id": "a" * 65}, "field 'id' must be lower-case words")
    scenario_refused({**scenario(), "deck": "Ah " * 100}, "field 'deck' is 300 characters long")
    sc = load_scenario({**scenario(), "summary": "Line one.\n\tLine two."})
    assert sc.summary == "Line one.\n\tLine two."


def test_the_data_scenarios_pass_the_strict_schema() -> None:
    paths = sorted(SCENARIO_DIR.glob("*.json"))
    assert len(paths) >= 10
    for p in paths:
        s = load_scenario(p)
        s.check()
        assert load_hand_or_scenario(p.read_bytes(), p.name).scenario == s


# ------------------------------------------------------------------ the app
class WireComm(DummyComm):
    """A comm that packs each message as the kernel does before sending it to the browser."""

    def publish_msg(self, msg_type: str, data: Any = None, metadata: Any = None, **_: Any) -> None:
        json_packer({"msg_type": msg_type, "data": data, "metadata": metadata or {}})


@pytest.fixture
def wire(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Widgets created inside the test send their messages through `WireComm`."""
    monkeypatch.setattr(comm, "create_comm", lambda *a, **k: WireComm(*a, **k))
    yield


def upload(widget: FileUpload, name: str, data: bytes) -> None:
    """Deliver one file as the browser does: a state update from the front end (not echoed)."""
    js = {
        "name": name,
        "type": "application/json",
        "size": len(data),
        "content": memoryview(data),
        "last_modified": 1767225600000,
    }
    widget.set_state({"value": [js]})


def surrogate_hand() -> bytes:
    g = Game.new(players=["Ann", "Bob", "Cat"], seed=3)
    g.apply(Stay())
    text = json.dumps(g.to_dict())  # ASCII: the name travels as the escape \\ud800
    return text.replace('"Ann"', '"\\ud800"').encode("ascii")


def test_wire_comm_fails_like_the_kernel_on_a_lone_surrogate(wire: None) -> None:
    """The check below means something: a label holding U+D800 cannot be sent."""
    d = Dropdown(options=[("ok", 1)])
    with pytest.raises(UnicodeEncodeError):
        d.options = [("\ud800", 1)]


def test_a_surrogate_hand_is_refused_and_the_app_keeps_working(wire: None) -> None:
    app = PalaceApp(advisor=None)
    rep = app.replay
    shown = (rep.current, rep.choice.value, list(rep.entry_keys))
    upload(rep.upload, "evil.json", surrogate_hand())
    msg = html.unescape(rep.message.value)
    assert 'role="alert"' in msg and "evil.json" in msg, msg
    assert "players[0] holds the character U+D800" in msg
    assert "stays loaded" in msg and "Something went wrong" not in msg
    assert (rep.current, rep.choice.value, list(rep.entry_keys)) == shown
    # the same page still loads a good file ...
    good = json.dumps(saved_hand()).encode()
    upload(rep.upload, "good.json", good)
    assert "Loaded good.json" in html.unescape(rep.message.value)
    assert rep.current is not None and rep.current.kind == "hand"
    assert rep.game is not None and rep.game.names == ("Ann", "Bob", "Cat")
    # ... and Play's Save hand still works, and its hand is offered in Replay
    play = app.play
    play.save_button.click()
    assert "Saved: download" in html.unescape(play.message.value)
    assert 'download="palace-hand-' in play.download.value
    assert sum(k.startswith("hand:") for k in rep.entry_keys) == 2
    assert json.loads(hand_json(play.game)) == play.game.to_dict()
    # and a file name holding a lone surrogate is shown cleaned, not sent as it is
    upload(rep.upload, "bad\ud800name.json", b"{")
    assert "bad\ufffdname.json" in html.unescape(rep.message.value)
    upload(rep.upload, "good2.json", good)
    assert "Loaded good2.json" in html.unescape(rep.message.value)


def test_labels_are_cleaned_before_they_are_sent(wire: None) -> None:
    """Even a label the loaders would refuse cannot break the list (defence in depth)."""
    rep = ReplayTab()
    g = Game.from_dict(saved_hand())
    key = rep.add(Loaded("hand", "t", g, None, "x"), "odd \ud800 label")
    assert rep.current is not None and rep.game is g
    assert dict((v, k) for k, v in rep.choice.options)[key] == "odd \ufffd label"
    rep.add_saved(g)  # the list still takes new entries
    assert len(rep.entry_keys) == len(list(SCENARIO_DIR.glob("*.json"))) + 2


def test_a_hostile_scenario_upload_leaves_the_list_as_it_was(wire: None) -> None:
    app = PalaceApp(advisor=None)
    rep = app.replay
    keys = list(rep.entry_keys)
    sc = json.dumps({**scenario(), "title": "\ud800"}).encode()
    upload(rep.upload, "title.json", sc)
    assert "title holds the character U+D800" in html.unescape(rep.message.value)
    assert rep.entry_keys == keys
    upload(rep.upload, "ok.json", json.dumps(scenario()).encode())
    assert rep.current is not None and rep.current.scenario is not None
    assert rep.current.scenario.id == "small-battle"


# ------------------------------------------------------------------ fuzz
def json_values() -> st.SearchStrategy[Any]:
    scalars = st.one_of(
        st.none(),
        st.booleans(),
        st.integers(),
        st.sampled_from([2**63, -(2**63), 10**300, 10**19, -1, 0, 2, 10]),
        st.floats(allow_nan=True, allow_infinity=True),
        st.text(st.characters(exclude_categories=()), max_size=30),
        st.sampled_from(["\ud800", "A\x00", "\udfff" * 3, "x" * 5000, "Ann", "As", "stay", ""]),
    )
    return st.recursive(
        scalars,
        lambda inner: st.one_of(
            st.lists(inner, max_size=4),
            st.dictionaries(st.text(max_size=8), inner, max_size=4),
        ),
        max_leaves=12,
    )


def paths(data: Any, here: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    """Every position in a JSON tree: keys of objects and indices of lists."""
    yield here
    if isinstance(data, dict):
        for k, v in data.items():
            yield from paths(v, (*here, k))
    elif isinstance(data, list):
        for i, v in enumerate(data):
            yield from paths(v, (*here, i))


def nested(depth: int) -> Any:
    out: Any = "deep"
    for _ in range(depth):
        out = [out]
    return out


@st.composite
def mutated(draw: st.DrawFn, base: dict[str, Any]) -> Any:
    """`base` with 1-3 positions replaced by random JSON, hostile text or deep nesting."""
    data = copy.deepcopy(base)
    for _ in range(draw(st.integers(1, 3))):
        spots = list(paths(data))
        if draw(st.integers(0, 9)):  # mostly the fields that are read, not the event log
            spots = [p for p in spots if not p or p[0] != "events"]
        where = draw(st.sampled_from(spots))
        value = draw(
            st.one_of(
                json_values(),
                st.integers(20, 60).map(nested),
                st.sampled_from(["__HUGE__", "__DEEP__"]),
            )
        )
        if not where:
            data = value
            continue
        parent = data
        for step in where[:-1]:
            parent = parent[step]
        if draw(st.booleans()) and isinstance(parent, dict):
            parent[draw(st.text(max_size=6))] = value  # an added key
        else:
            parent[where[-1]] = value
    return data


def as_text(data: Any) -> str:
    """JSON text, with the placeholders turned into a 5,000-digit number and deep nesting."""
    text = json.dumps(data)
    return text.replace('"__HUGE__"', "-" + "7" * 5000).replace(
        '"__DEEP__"', "[" * 3000 + "]" * 3000
    )


def only_short_palace_errors(load: Any, data: Any) -> Any:
    try:
        result = load(data)
    except PalaceError as exc:
        assert len(str(exc)) <= LIMIT, len(str(exc))
        str(exc).encode("utf-8")  # a message can always be shown
        return None
    return result


FUZZ = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
BASE_HAND = saved_hand()
BASE_SCENARIO = scenario()


@FUZZ
@given(mutated(BASE_HAND))
def test_fuzz_saved_hands(data: Any) -> None:
    g = only_short_palace_errors(Game.from_dict, data)
    if g is not None:
        json_packer(g.to_dict())  # whatever loaded can be sent to a browser
    loaded = only_short_palace_errors(lambda t: load_hand_or_scenario(t, "f.json"), as_text(data))
    if loaded is not None:
        json_packer({"title": loaded.title, "game": loaded.game.to_dict()})


@FUZZ
@given(mutated(BASE_SCENARIO))
def test_fuzz_scenarios(data: Any) -> None:
    sc = None if isinstance(data, str) else only_short_palace_errors(load_scenario, data)
    if sc is not None:
        json_packer(sc.to_dict())
    text = as_text(data)
    only_short_palace_errors(load_scenario_text, text)
    loaded = only_short_palace_errors(lambda t: load_hand_or_scenario(t, "f.json"), text)
    if loaded is not None:
        json_packer({"title": loaded.title, "game": loaded.game.to_dict()})


def test_the_documented_saved_hand_loads() -> None:
    """docs/scenarios.md shows a saved hand: it is a real one."""
    from pathlib import Path

    doc = (Path(__file__).resolve().parents[1] / "docs" / "scenarios.md").read_text("utf-8")
    start = doc.index('```json\n{\n "format": "palace-hand/1"') + len("```json\n")
    g = Game.from_dict(json.loads(doc[start : doc.index("```", start)]))
    assert g.names == ("Ann", "Bob", "Cat") and len(g.actions) == 3
    assert g.phase.value == "battle response"
