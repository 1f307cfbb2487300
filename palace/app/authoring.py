"""Scenarios without JSON: "Save as scenario" from any moment in Play or Replay (teacher only).

The teacher types a title, a summary, a question and its answer and the clauses the moment
shows; `build_scenario` drafts the scenario from the hand up to that moment
(`palace.scenarios.draft_from_game`) and loads it back through the strict scenario loader,
so only a scenario that passes its own checks is offered. `save_scenario` writes it into
``data/scenarios/`` under a sanitised name (``NN-<id>.json``), never over another file
unless asked (`overwrite=True`, the panel's Replace button), or the panel offers it as a
download.
"""

from __future__ import annotations

import base64
import json
import os
import re
import tempfile
import unicodedata
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ipywidgets import HTML, Button, Layout, Text, Textarea, VBox

from palace import strict
from palace.app.common import WIDE_LABEL, flow_row, message_html, titled_box
from palace.errors import PalaceError
from palace.game import Game
from palace.scenarios import SCENARIO_DIR, Scenario, ScenarioError, draft_from_game, load_scenario
from palace.scenarios.schema import MAX_ID
from palace.widgets.theme import esc, root

CLAUSE = re.compile(r"R\d+(?:\.\d+)?")


class ScenarioExists(ScenarioError):
    """A scenario with this id is already in the folder (replace it only when asked)."""

    def __init__(self, message: str, path: Path) -> None:
        super().__init__(message)
        self.path = path


def scenario_id(title: str) -> str:
    """A scenario id from a title: lower-case ASCII words joined by '-' (at most 64 chars).

    >>> scenario_id("Exclusion turns a win into a loss!")
    'exclusion-turns-a-win-into-a-loss'
    >>> scenario_id("../../etc/passwd"), scenario_id("Ça déçoit: égalité"), scenario_id("♠♠")
    ('etc-passwd', 'ca-decoit-egalite', 'scenario')
    """
    ascii_text = unicodedata.normalize("NFKD", title).encode("ascii", "ignore").decode()
    words = re.findall(r"[a-z0-9]+", ascii_text.lower())
    out = ""
    for w in words:
        nxt = f"{out}-{w}" if out else w
        if len(nxt) > MAX_ID:
            break
        out = nxt
    return out or "scenario"


def clauses(text: str) -> list[str]:
    """The clauses typed in a box: "R8.2, R8.4 r7" -> ["R8.2", "R8.4", "R7"] (order kept)."""
    found = CLAUSE.findall(text.upper())
    return list(dict.fromkeys(found))


def game_at(game: Game, event: int | None) -> Game:
    """The hand as it stood at event `event`: the fewest actions whose events reach it."""
    if event is None or event >= len(game.events) - 1:
        return game.replay()
    for k in range(len(game.actions) + 1):
        g = game.replay(k)
        if len(g.events) > event:
            return g
    return game.replay()


def build_scenario(
    game: Game,
    *,
    title: str,
    summary: str,
    question: str = "",
    answer: str = "",
    rules: list[str] | str,
    event: int | None = None,
) -> tuple[dict[str, Any], Scenario]:
    """The scenario dict of the moment and the `Scenario` the loader made of it.

    Raises `ScenarioError` naming the field when something is missing or wrong (a title,
    a clause that is not in RULES.md, a question without its answer, ...).
    """
    tags = clauses(rules) if isinstance(rules, str) else list(rules)
    moment = game_at(game, event)
    data = draft_from_game(
        moment,
        id=scenario_id(title),
        title=title.strip(),
        summary=summary.strip(),
        rules=tags,
        question=question.strip() or None,
        answer=answer.strip() or None,
    )
    if data.get("answer") is None:
        data.pop("answer", None)
        if "question" in data and data["question"] is None:
            data.pop("question")
    return data, load_scenario(data)


def scenario_text(data: dict[str, Any]) -> str:
    return json.dumps(data, ensure_ascii=False, indent=1) + "\n"


def existing(folder: Path, sid: str) -> Path | None:
    """The file of scenario `sid` in `folder` (``sid.json`` or ``NN-sid.json``), if any."""
    for path in sorted(folder.glob("*.json")):
        stem = path.stem
        if stem == sid or re.fullmatch(rf"\d+-{re.escape(sid)}", stem):
            return path
    return None


def next_name(folder: Path, sid: str) -> str:
    """``NN-<id>.json`` with NN one past the highest number in the folder."""
    numbers = [int(m.group(1)) for p in folder.glob("*.json") if (m := re.match(r"(\d+)-", p.name))]
    return f"{(max(numbers) + 1 if numbers else 1):02d}-{sid}.json"


def save_scenario(
    data: dict[str, Any], folder: str | Path = SCENARIO_DIR, *, overwrite: bool = False
) -> Path:
    """Write a checked scenario into `folder`; `ScenarioExists` if its id is taken (unless
    `overwrite`). The file is written whole or not at all, then loaded back and checked."""
    folder = Path(folder)
    sid = data["id"]
    load_scenario(data)  # the loader has the last word on what is written
    if not scenario_id(sid) == sid:
        raise ScenarioError(f"the id {strict.shown(sid)} is not a sanitised name")
    old = existing(folder, sid)
    if old is not None and not overwrite:
        raise ScenarioExists(
            f"a scenario {sid!r} is already in data/scenarios ({old.name}): press Replace to "
            "overwrite it, or change the title",
            old,
        )
    folder.mkdir(parents=True, exist_ok=True)
    target = old if old is not None else folder / next_name(folder, sid)
    fd, tmp = tempfile.mkstemp(dir=folder, prefix=".saving-", suffix=".json")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(scenario_text(data))
        if old is None:
            try:
                os.link(tmp, target)  # fails if another teacher took the name meanwhile
            except FileExistsError:
                raise ScenarioExists(
                    f"{target.name} appeared meanwhile: try again", target
                ) from None
            except OSError:  # no hard links here: an exclusive create instead
                with open(target, "x", encoding="utf-8") as f:
                    f.write(scenario_text(data))
        else:
            os.replace(tmp, target)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)
    load_scenario(target)  # the file on disk loads and passes its checks
    return target


# ---------------------------------------------------------------------------- the panel
class ScenarioAuthor(VBox):
    """Save the moment shown (Play or Replay) as a scenario: fields, Check, Save, Download.

    moment: returns (game, event index or None) for the moment to save. on_saved(path):
    called after a file is written (the Replay list adds it).
    """

    def __init__(
        self,
        moment: Callable[[], tuple[Game | None, int | None]],
        *,
        folder: str | Path = SCENARIO_DIR,
        on_saved: Callable[[Path], None] | None = None,
    ) -> None:
        self._moment = moment
        self._folder = Path(folder)
        self._on_saved = on_saved
        self.title_box = Text(description="Title", layout=Layout(width="min(640px, 100%)"))
        self.summary_box = Textarea(
            description="Summary", rows=2, layout=Layout(width="min(640px, 100%)")
        )
        self.question_box = Textarea(
            description="Question", rows=2, layout=Layout(width="min(640px, 100%)")
        )
        self.answer_box = Textarea(
            description="Answer", rows=2, layout=Layout(width="min(640px, 100%)")
        )
        self.rules_box = Text(
            description="Clauses",
            placeholder="R8.2, R8.4",
            style=WIDE_LABEL,
            layout=Layout(width="320px"),
        )
        self.check_button = Button(description="Check", icon="check", layout=Layout(width="110px"))
        self.save_button = Button(
            description="Save in data/scenarios",
            icon="save",
            button_style="primary",
            layout=Layout(width="210px"),
        )
        self.replace_button = Button(
            description="Replace it",
            icon="exclamation-triangle",
            button_style="danger",
            layout=Layout(width="130px", display="none"),
        )
        self.download_button = Button(
            description="Download", icon="download", layout=Layout(width="130px")
        )
        self.message = HTML()
        self.download = HTML()
        self.check_button.on_click(lambda _: self.check())
        self.save_button.on_click(lambda _: self.save())
        self.replace_button.on_click(lambda _: self.save(overwrite=True))
        self.download_button.on_click(lambda _: self.offer_download())
        box = titled_box(
            "Save this moment as a scenario",
            HTML(
                root(
                    '<div class="palace-note">The hand up to the event shown in Replay (or the '
                    "hand in Play), with your words; it is checked by the scenario loader "
                    "before it is saved.</div>"
                )
            ),
            self.title_box,
            self.summary_box,
            self.question_box,
            self.answer_box,
            self.rules_box,
            flow_row(
                self.check_button, self.save_button, self.replace_button, self.download_button
            ),
            self.message,
            self.download,
        )
        super().__init__([box], layout=Layout(width="100%"))
        self.add_class("palace-authoring")
        self.saved: Path | None = None

    def say(self, text: str, *, ok: bool) -> None:
        self.message.value = message_html(strict.printable(text, 1200), ok=ok)

    def _build(self) -> tuple[dict[str, Any], Scenario] | None:
        game, event = self._moment()
        if game is None:
            self.say("There is no hand to save: deal one in Play or open one in Replay.", ok=False)
            return None
        if not self.title_box.value.strip():
            self.say("Give the scenario a title.", ok=False)
            return None
        try:
            return build_scenario(
                game,
                title=self.title_box.value,
                summary=self.summary_box.value or self.title_box.value,
                question=self.question_box.value,
                answer=self.answer_box.value,
                rules=self.rules_box.value,
                event=event,
            )
        except PalaceError as exc:
            self.say(f"Not a scenario yet: {exc}", ok=False)
            return None

    def check(self) -> Scenario | None:
        """Check the fields and the moment with the scenario loader (nothing written)."""
        built = self._build()
        if built is None:
            return None
        data, sc = built
        self.say(
            f"“{sc.title}” passes its checks: {sc.n_actions} actions, clauses "
            f"{', '.join(sc.rules)}; it would be saved as id {data['id']}.",
            ok=True,
        )
        return sc

    def save(self, *, overwrite: bool = False) -> Path | None:
        """Save into the folder; an existing id is replaced only with `overwrite`."""
        built = self._build()
        if built is None:
            return None
        data, _ = built
        try:
            path = save_scenario(data, self._folder, overwrite=overwrite)
        except ScenarioExists as exc:
            self.replace_button.layout.display = None
            self.say(str(exc), ok=False)
            return None
        except (PalaceError, OSError) as exc:
            self.say(f"Not saved: {exc}", ok=False)
            return None
        self.replace_button.layout.display = "none"
        self.saved = path
        verb = "Replaced" if overwrite else "Saved"
        self.say(
            f"{verb} data/scenarios/{path.name}; it loads back and passes its checks.", ok=True
        )
        if self._on_saved is not None:
            self._on_saved(path)
        return path

    def offer_download(self) -> str | None:
        """A download link for the scenario (for a teacher without write access)."""
        built = self._build()
        if built is None:
            return None
        data, _ = built
        text = scenario_text(data)
        b64 = base64.b64encode(text.encode("utf-8")).decode("ascii")
        name = f"{data['id']}.json"
        self.download.value = root(
            f'<a class="palace-download" download="{esc(name)}" '
            f'href="data:application/json;base64,{b64}">⬇ Download {esc(name)}</a>'
        )
        self.say(f"Download {name} below; put it in data/scenarios/ to share it.", ok=True)
        return text
