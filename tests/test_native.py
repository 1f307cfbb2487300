"""The compiled engine (`palace.native`) plays exactly the hands its source plays, is used
only while it is as new as its source, and ``PALACE_PURE=1`` runs the source instead."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from palace import native

# Every named variant, several table sizes, rule and random bots; then a searcher's loop:
# a view, a clone and a sampled world before every move. Everything a hand leaves behind
# (its saved form, every event's sentence, each seat's view at the end) goes into one digest.
PLAY = """
import hashlib, json, random
from palace.analysis.bot_hands import play_hand
from palace.analysis.variants import VARIANTS
from palace.game import Game
from palace.native import is_compiled

digest = hashlib.sha256()

def seal(game):
    digest.update(json.dumps(game.to_dict(), sort_keys=True, default=str).encode())
    for event in game.events:
        digest.update(str(event).encode())
    for seat in range(game.players):
        view = game.view(seat)
        digest.update(repr((view.seats, sorted(view.unseen), view.learned)).encode())

for k, v in enumerate(VARIANTS.values()):
    for i in range(30):
        seal(play_hand(v.rules, players=2 + (i + k) % 5, seed=100 * k, hand=i, bot="mixed"))

rng = random.Random(3)
for seed in range(80):
    g = Game.new(players=4, seed=seed)
    while not g.is_over:
        seat = g.to_act
        view = g.view(seat)
        world = view.sample_world(rng)
        for s in range(world.players):
            digest.update(repr(world.view(s).palace).encode())
        c = g.clone()
        legal = c.legal_actions()
        g.apply(legal[rng.randrange(len(legal))])
    seal(g)

print(json.dumps({"compiled": is_compiled(), "digest": digest.hexdigest()}))
"""


def clean_env() -> dict[str, str]:
    """This process's environment without the switches `palace.native` reads."""
    return {k: v for k, v in os.environ.items() if k not in (native.PURE_ENV, native.STALE_ENV)}


def run(code: str, **env: str) -> dict:
    """The JSON `code` prints last, run in a new process (pure only if `env` says so)."""
    base = clean_env()
    out = subprocess.run(
        [sys.executable, "-c", code],
        env={**base, **env},
        capture_output=True,
        text=True,
        check=True,
        timeout=600,
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


def needs_compiled() -> None:
    built = native.compiled_modules() == list(native.COMPILED) and native.helper_paths()
    if not built or native.stale_modules():
        message = "the engine is not compiled here (make native)"
        if os.environ.get("PALACE_REQUIRE_NATIVE") == "1":
            pytest.fail(message + " (PALACE_REQUIRE_NATIVE=1)", pytrace=False)
        pytest.skip(message)


def test_the_compiled_engine_plays_exactly_the_hands_the_source_plays() -> None:
    needs_compiled()
    compiled = run(PLAY)
    pure = run(PLAY, PALACE_PURE="1")
    assert compiled["compiled"] is True
    assert pure["compiled"] is False
    assert compiled["digest"] == pure["digest"]


RECORDS = """
import json
from palace.cards import parse_cards
from palace.events import Event, EventKind, Move, Phase
from dataclasses import FrozenInstanceError
from palace.battle import Army
from palace.records import new_record, set_fields
from palace.views import SeatInfo

cards = tuple(parse_cards("As Kd"))
move = new_record(Move, cards, "deck", "seat0.palace", (0,), False)
event = new_record(
    Event, 3, EventKind.PALACE, 0, cards, 0, "R5.1", Phase.PALACE_DEAL, None, (move,), (),
    {"round": 1}, ("Ann", "Bo"),
)
made = [move, event, new_record(SeatInfo, 1, "Bo", None, (), 2, True, 0, None)]
same = [
    tuple.__new__(Move, (cards, "deck", "seat0.palace", (0,), False)),
    tuple.__new__(
        Event,
        (3, EventKind.PALACE, 0, cards, 0, "R5.1", Phase.PALACE_DEAL, None, (move,), (),
         {"round": 1}, ("Ann", "Bo")),
    ),
    tuple.__new__(SeatInfo, (1, "Bo", None, (), 2, True, 0, None)),
]
refused = []
for bad in ((dict, 1), (3, 1), ()):
    try:
        new_record(*bad)
    except TypeError as e:
        refused.append(str(e))
army = Army(cards[0], cards[1:], ())
for bad in ((army, ("banner",)), (army, ["banner"], cards[0]), (army, ("banner", "palace"), 1)):
    try:
        set_fields(*bad)
    except TypeError as e:
        refused.append(str(e))
try:
    army.banner = cards[1]
    frozen = False
except FrozenInstanceError:
    frozen = True
print(json.dumps({
    "native": type(new_record).__name__ == "builtin_function_or_method",
    "same": [type(a) is type(b) and a == b and repr(a) == repr(b) for a, b in zip(made, same)],
    "fields": [event.kind, event.rule, event.moves[0].dst, made[2].name, len(event)],
    "refused": refused,
    "army": [str(army.banner), [str(c) for c in army.soldiers], list(army.palace), frozen],
}))
"""


def test_the_c_records_make_the_very_records_the_source_makes() -> None:
    """The compiled engine's records (`palace/_records.c`) and the source's `tuple.__new__`
    make the same events, moves and seat facts, and set a frozen dataclass's fields as
    ``object.__setattr__`` does; a class that is not a tuple, or names and values that do
    not pair up, are refused."""
    needs_compiled()
    compiled = run(RECORDS)
    pure = run(RECORDS, PALACE_PURE="1")
    assert compiled["native"] is True and pure["native"] is False
    for got in (compiled, pure):
        assert got["same"] == [True, True, True]
        assert got["fields"] == ["palace", "R5.1", "seat0.palace", "Bo", 12]
        assert got["army"] == ["As", ["Kd"], [], True]
        assert len(got["refused"]) == 6
        assert "1 names but 0 values" in got["refused"][3]
        assert "2 names but 1 values" in got["refused"][5]
    assert "dict is not a tuple subclass" in compiled["refused"][0]
    assert all("must be a class" in m for m in compiled["refused"][1:3])
    assert "names must be a tuple" in compiled["refused"][4]


def test_a_helper_older_than_its_c_source_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _isolated(tmp_path, monkeypatch, ("game",))
    _fake_package(tmp_path, native.COMPILED)
    source = tmp_path / f"{native.HELPER}.c"
    source.write_text("")
    os.utime(source, (time.time() - 60, time.time() - 60))
    helper = tmp_path / f"{native.HELPER}{native.extension_suffixes()[0]}"
    helper.write_text("")
    assert native.helper_paths() == [helper]
    native.check_fresh()
    source.write_text("/* edited after the build */\n")
    assert native.stale_modules() == [native.HELPER]
    with pytest.raises(ImportError, match=f"compiled {native.HELPER} is older than the source"):
        native.check_fresh()
    assert helper in native.remove()


def test_pure_switch_imports_every_compiled_module_from_its_source() -> None:
    code = (
        "import importlib, json; import palace; "
        "print(json.dumps({n: importlib.import_module('palace.' + n).__file__ "
        "for n in palace.native.COMPILED}))"
    )
    files = run(code, PALACE_PURE="1")
    assert files == {n: str(native.source_path(n)) for n in native.COMPILED}


def _isolated(tmp: Path, monkeypatch: pytest.MonkeyPatch, compiled: tuple[str, ...]) -> None:
    """`palace.native` looking at a package in `tmp` that compiles `compiled`, with neither
    switch set."""
    monkeypatch.setattr(native, "HERE", tmp)
    monkeypatch.setattr(native, "COMPILED", compiled)
    monkeypatch.delenv(native.PURE_ENV, raising=False)
    monkeypatch.delenv(native.STALE_ENV, raising=False)


def _fake_package(tmp: Path, names: tuple[str, ...]) -> None:
    suffix = native.extension_suffixes()[0]
    for name in names:
        src = tmp / f"{name.replace('.', '/')}.py"
        src.parent.mkdir(parents=True, exist_ok=True)
        src.write_text("")
        so = tmp / f"{name.replace('.', '/')}{suffix}"
        so.write_text("")
        os.utime(src, (time.time() - 60, time.time() - 60))


def test_a_compiled_module_older_than_its_source_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _isolated(tmp_path, monkeypatch, ("game", "analysis.bots"))
    _fake_package(tmp_path, native.COMPILED)
    assert native.compiled_modules() == ["game", "analysis.bots"]
    native.check_fresh()  # both built after their sources: fine

    (tmp_path / "analysis" / "bots.py").write_text("# edited after the build\n")
    assert native.stale_modules() == ["analysis.bots"]
    with pytest.raises(ImportError, match="compiled analysis.bots is older than the source"):
        native.check_fresh()
    monkeypatch.setenv(native.STALE_ENV, "1")
    native.check_fresh()  # the escape hatch the build itself uses

    removed = native.remove()
    assert {p.name for p in removed} >= {f"game{native.extension_suffixes()[0]}"}
    assert native.compiled_modules() == [] and native.stale_modules() == []


def test_a_build_older_than_an_engine_module_it_was_compiled_against_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _isolated(tmp_path, monkeypatch, ("game",))
    for name in ("rules.py", "native.py"):
        (tmp_path / name).write_text("")
        os.utime(tmp_path / name, (time.time() - 120, time.time() - 120))
    _fake_package(tmp_path, native.COMPILED)
    native.check_fresh()
    (tmp_path / "native.py").write_text("# the build tool itself: nothing is compiled against it\n")
    native.check_fresh()
    (tmp_path / "rules.py").write_text("# a field's type changed\n")
    assert native.newer_engine_sources() == ["rules.py"]
    with pytest.raises(ImportError, match="rules.py changed after the engine was compiled"):
        native.check_fresh()


def test_a_stale_build_stops_the_import_with_the_fix_in_the_message(tmp_path: Path) -> None:
    needs_compiled()
    # a copy of the package, so no other process ever sees the real build as stale
    shutil.copytree(native.HERE, tmp_path / "palace", ignore=shutil.ignore_patterns("__pycache__"))
    source = tmp_path / "palace" / "hands.py"
    so = next(p for p in (tmp_path / "palace").glob("hands.*") if p.suffix != ".py")
    os.utime(source, (so.stat().st_mtime + 10, so.stat().st_mtime + 10))  # edited after
    env = clean_env()
    code = f"import sys; sys.path.insert(0, {str(tmp_path)!r}); import palace"
    out = subprocess.run(
        [sys.executable, "-I", "-c", code], env=env, capture_output=True, text=True
    )
    assert out.returncode != 0
    assert "compiled hands is older than the source" in out.stderr
    assert "make native" in out.stderr and "make pure" in out.stderr
    shown = (
        f"import sys; sys.path.insert(0, {str(tmp_path)!r}); import palace; print(palace.__file__)"
    )
    fresh = subprocess.run(  # the escape hatch imports it, and from the copy
        [sys.executable, "-I", "-c", shown],
        env={**env, native.STALE_ENV: "1"},
        capture_output=True,
        text=True,
        check=True,
    )
    assert fresh.stdout.strip() == str(tmp_path / "palace" / "__init__.py")
