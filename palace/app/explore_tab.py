"""The app's Explore tab: compare rule variants on the same seeded bot hands, table and chart.

The study runs off the widget thread (a background thread driving the shards, on a Dask
`LocalCluster` by default, see `palace.analysis.cluster`), so the page keeps answering; a
progress bar follows the shards, Cancel stops the run within about a shard, and the work is
bounded: at most `MAX_HAND_SEATS` hands x players per variant.
"""

from __future__ import annotations

import base64
import io
import logging
import threading
from collections.abc import Sequence
from typing import Any

from ipywidgets import (
    HTML,
    Button,
    Checkbox,
    Dropdown,
    HBox,
    IntProgress,
    IntText,
    Layout,
    VBox,
)

from palace.analysis.variants import VARIANTS
from palace.app.common import WIDE_LABEL, flow_row, guard, message_html, titled_box
from palace.widgets.theme import esc, root

log = logging.getLogger("palace.app")

MAX_HAND_SEATS = 20_000
"""The cap on Hands each x Players (per variant): 5,000 hands at 4 players, 2,000 at 10."""
MAX_PLAYERS, MIN_PLAYERS = 10, 2
TICKED = ("standard", "no-limit", "free-discard", "call-matches-attack", "only-stay-quiet")


def format_table(df: Any) -> Any:
    """Counts as whole numbers, averages and percentages with two decimals."""
    out = df.astype(object)
    for row in df.index:
        whole = row == "hands"
        out.loc[row] = [f"{v:,.0f}" if whole else f"{v:,.2f}" for v in df.loc[row]]
    return out


def check_setup(hands: object, players: object, seed: object) -> str | None:
    """Why a setup is refused (naming the field and the limit), or None if it may run."""
    for name, value, low, high in (
        ("Players", players, MIN_PLAYERS, MAX_PLAYERS),
        ("Hands each", hands, 1, MAX_HAND_SEATS),
        ("Seed", seed, 0, None),
    ):
        if not isinstance(value, int) or isinstance(value, bool):
            return f"{name} must be a whole number, got {value!r}."
        if value < low or (high is not None and value > high):
            span = f"from {low:,} to {high:,}" if high is not None else f"{low:,} or more"
            return f"{name} must be {span}, got {value:,}."
    assert isinstance(hands, int) and isinstance(players, int)
    if hands * players > MAX_HAND_SEATS:
        return (
            f"Hands each × Players is {hands:,} × {players} = {hands * players:,}; the cap is "
            f"{MAX_HAND_SEATS:,} per variant (for example {MAX_HAND_SEATS // players:,} hands "
            f"at {players} players). Lower Hands each or Players."
        )
    return None


class ExploreTab(VBox):
    """Rule-variant comparisons: the same seeded bot hands under each chosen variant.

    `scheduler` is where the study runs ("serial", "local" or a Dask scheduler address;
    None: `palace.analysis.cluster`'s default, a local Dask cluster).
    """

    def __init__(self, *, hands: int = 200, scheduler: str | None = None) -> None:
        self._scheduler = scheduler
        self.variant_boxes = {
            slug: Checkbox(
                value=slug in TICKED,
                description=v.label,
                indent=False,
                layout=Layout(width="280px"),
            )
            for slug, v in VARIANTS.items()
        }
        self.hands = IntText(
            value=hands, description="Hands each", style=WIDE_LABEL, layout=Layout(width="190px")
        )
        self.players = IntText(value=4, description="Players", layout=Layout(width="150px"))
        self.seed = IntText(value=2026, description="Seed", layout=Layout(width="170px"))
        self.bot = Dropdown(
            options=[
                ("mixed (rule + random bots)", "mixed"),
                ("rule bots", "rules"),
                ("random bots", "random"),
            ],
            value="mixed",
            description="Bots",
            layout=Layout(width="290px"),
        )
        self.run_button = Button(
            description="Run", icon="play", button_style="primary", layout=Layout(width="120px")
        )
        self.cancel_button = Button(
            description="Cancel", icon="stop", disabled=True, layout=Layout(width="120px")
        )
        self.progress = IntProgress(
            value=0,
            min=0,
            max=1,
            description="Progress",
            bar_style="info",
            layout=Layout(width="340px"),
        )
        self.status = HTML()
        self.table = HTML()
        self.chart = HTML()
        self.run_button.on_click(self._on_run)
        self.cancel_button.on_click(self._on_cancel)
        self.result = None  # the last pandas DataFrame
        self._thread: threading.Thread | None = None
        self._watch: Any = None
        note = HTML(
            root(
                '<div class="palace-note">Each variant plays the <b>same</b> seeded hands with the '
                "same bots, so differences come from the rules. The chart shows each variant as "
                "a change from the first one ticked. 200 hands take a few seconds; Cancel stops "
                f"a long run. At most {MAX_HAND_SEATS:,} hands × players per variant.</div>"
            )
        )
        form = titled_box(
            "Compare rule variants",
            note,
            HBox(
                [
                    VBox(
                        [
                            HTML(root('<div class="palace-section">Variants</div>')),
                            *self.variant_boxes.values(),
                        ]
                    ),
                    VBox(
                        [
                            self.hands,
                            self.players,
                            self.seed,
                            self.bot,
                            flow_row(self.run_button, self.cancel_button),
                            self.progress,
                        ]
                    ),
                ],
                layout=Layout(flex_flow="row wrap", grid_gap="20px"),
            ),
            self.status,
        )
        super().__init__(
            [form, self.table, self.chart], layout=Layout(width="100%", grid_gap="12px")
        )
        self.add_class("palace-panel")
        self.add_class("palace-app-explore")

    # ------------------------------------------------------------------ choices
    @property
    def selected(self) -> list[str]:
        """The ticked variants' slugs, in list order (the first is the chart's baseline)."""
        return [slug for slug, box in self.variant_boxes.items() if box.value]

    @selected.setter
    def selected(self, slugs: Sequence[str]) -> None:
        unknown = set(slugs) - set(VARIANTS)
        if unknown:
            raise ValueError(f"unknown variants: {sorted(unknown)}; known: {', '.join(VARIANTS)}")
        for slug, box in self.variant_boxes.items():
            box.value = slug in slugs

    @property
    def running(self) -> bool:
        """True while a study runs in the background."""
        return self._thread is not None and self._thread.is_alive()

    def say(self, text: str, *, ok: bool) -> None:
        self.status.value = message_html(text, ok=ok)

    # ------------------------------------------------------------------ running
    def start(self) -> bool:
        """Check the setup and start the study in the background; False (with the reason
        in the status line) when it is refused or a run is already going."""
        if self.running:
            self.say("A comparison is already running: wait for it or press Cancel.", ok=False)
            return False
        slugs = self.selected
        if not slugs:
            self.say("Pick at least one variant.", ok=False)
            return False
        hands, players, seed = self.hands.value, self.players.value, self.seed.value
        refused = check_setup(hands, players, seed)
        if refused:
            self.say(refused, ok=False)
            return False
        from palace.analysis.shards import Watch

        setup = {"hands": hands, "players": players, "seed": seed, "bot": self.bot.value}
        self._watch = Watch(on_progress=self._on_progress)
        self.run_button.disabled, self.cancel_button.disabled = True, False
        self.progress.value, self.progress.max, self.progress.bar_style = 0, 1, "info"
        self.say(
            f"Playing {hands:,} hands × {len(slugs)} variants with {players} players…", ok=True
        )
        self._thread = threading.Thread(
            target=self._work, args=(slugs, setup, self._watch), name="palace-explore", daemon=True
        )
        self._thread.start()
        return True

    def cancel(self) -> None:
        """Stop the running study (it stops after the shards already being played)."""
        if self.running and self._watch is not None:
            self._watch.cancel.set()
            self.cancel_button.disabled = True
            self.say("Cancelling…", ok=True)

    def wait(self, timeout: float | None = None) -> bool:
        """Wait for the running study; True once nothing runs."""
        if self._thread is not None:
            self._thread.join(timeout)
        return not self.running

    def run(self) -> bool:
        """Start the study and wait for it: True if it finished and its table is shown."""
        if not self.start():
            return False
        self.wait()
        return self.progress.bar_style == "success"

    def _on_progress(self, done: int, total: int) -> None:
        self.progress.max = max(1, total)
        self.progress.value = done

    def _work(self, slugs: list[str], setup: dict[str, Any], watch: Any) -> None:
        from palace.analysis.shards import Cancelled
        from palace.analysis.studies import compare_variants
        from palace.analysis.variants import named

        try:
            df = compare_variants(
                named(slugs), progress=False, scheduler=self._scheduler, watch=watch, **setup
            )
            self._show(df, slugs, setup)
        except Cancelled as exc:
            self.progress.bar_style = "warning"
            self.say(
                f"Cancelled after {exc.done} of {exc.total} parts; nothing new shown. "
                "Press Run to start again.",
                ok=False,
            )
        except Exception as exc:  # noqa: BLE001 - shown to the user, logged for the teacher
            log.exception("palace app: Explore failed")
            self.progress.bar_style = "danger"
            self.say(f"Something went wrong ({type(exc).__name__}: {exc}).", ok=False)
        finally:
            self.run_button.disabled, self.cancel_button.disabled = False, True

    def _show(self, df: Any, slugs: list[str], setup: dict[str, Any]) -> None:
        self.result = df
        table = format_table(df).to_html(classes="palace-df-table", border=0)
        self.table.value = root(
            '<div class="palace-section">Averages per hand, same seeded hands under each '
            f"variant ({setup['hands']:,} hands, {setup['players']} players, seed "
            f"{setup['seed']}, {esc(setup['bot'])} bots)</div>"
            f'<div class="palace-df" style="overflow-x:auto">{table}</div>'
        )
        if len(slugs) >= 2:
            from palace.analysis.charts import variants_chart

            fig = variants_chart(df)
            buf = io.BytesIO()
            fig.savefig(buf, format="png", dpi=110, bbox_inches="tight")
            b64 = base64.b64encode(buf.getvalue()).decode("ascii")
            first = VARIANTS[slugs[0]].label
            self.chart.value = root(
                f'<img alt="bar chart: each variant as a % change from {esc(first)}" '
                f'src="data:image/png;base64,{b64}" style="max-width:100%;height:auto">'
            )
        else:
            self.chart.value = root(
                '<div class="palace-note">Pick two or more variants to see '
                "the chart of changes from the first.</div>"
            )
        self.progress.bar_style = "success"
        self.say(f"Done: {setup['hands']:,} hands × {len(slugs)} variants.", ok=True)

    @guard
    def _on_run(self, _: Button) -> None:
        self.start()

    @guard
    def _on_cancel(self, _: Button) -> None:
        self.cancel()

    def text(self) -> str:
        if self.result is None:
            return "No comparison run yet."
        return self.result.to_string()
