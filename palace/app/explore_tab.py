"""The app's Explore tab: compare rule variants on the same seeded bot hands, table and chart."""

from __future__ import annotations

import base64
import io
from collections.abc import Sequence
from typing import Any

from ipywidgets import (
    HTML,
    BoundedIntText,
    Button,
    Checkbox,
    Dropdown,
    HBox,
    IntProgress,
    IntText,
    Layout,
    VBox,
)

from palace.app.common import VARIANT_NAMES, WIDE_LABEL, flow_row, guard, message_html, titled_box
from palace.widgets.theme import esc, root


def format_table(df: Any) -> Any:
    """Counts as whole numbers, averages and percentages with two decimals."""
    out = df.astype(object)
    for row in df.index:
        whole = row == "hands"
        out.loc[row] = [f"{v:,.0f}" if whole else f"{v:,.2f}" for v in df.loc[row]]
    return out


class ExploreTab(VBox):
    """Rule-variant comparisons: the same seeded bot hands under each chosen variant."""

    def __init__(self, *, hands: int = 200) -> None:
        self.variant_boxes = {
            name: Checkbox(value=True, description=name, indent=False, layout=Layout(width="260px"))
            for name in VARIANT_NAMES
        }
        self.hands = BoundedIntText(
            value=hands,
            min=10,
            max=20_000,
            step=50,
            description="Hands each",
            style=WIDE_LABEL,
            layout=Layout(width="190px"),
        )
        self.players = BoundedIntText(
            value=4, min=2, max=10, description="Players", layout=Layout(width="150px")
        )
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
        self.result = None  # the last pandas DataFrame
        note = HTML(
            root(
                '<div class="palace-note">Each variant plays the <b>same</b> seeded hands with the '
                "same bots, so differences come from the rules. The chart shows each variant as "
                "a change from the first one ticked. 200 hands take a few seconds.</div>"
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
                            flow_row(self.run_button, self.progress),
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

    @property
    def selected(self) -> list[str]:
        """The ticked variants, in `VARIANT_NAMES` order (the first is the chart's baseline)."""
        return [n for n, box in self.variant_boxes.items() if box.value]

    @selected.setter
    def selected(self, names: Sequence[str]) -> None:
        unknown = set(names) - set(VARIANT_NAMES)
        if unknown:
            raise ValueError(f"unknown variants: {sorted(unknown)}")
        for n, box in self.variant_boxes.items():
            box.value = n in names

    def say(self, text: str, *, ok: bool) -> None:
        self.status.value = message_html(text, ok=ok)

    def run(self) -> bool:
        """Play the hands for each chosen variant; show the table and the chart."""
        from palace.analysis.studies import STANDARD_VARIANTS, compare_variants

        names = self.selected
        if not names:
            self.say("Pick at least one variant.", ok=False)
            return False
        self.run_button.disabled = True
        self.progress.max = len(names)
        self.progress.value = 0
        self.progress.bar_style = "info"
        frames = []
        try:
            for i, name in enumerate(names):
                self.say(
                    f"Playing {self.hands.value} hands: variant {i + 1} of {len(names)} ({name})…",
                    ok=True,
                )
                frames.append(
                    compare_variants(
                        {name: STANDARD_VARIANTS[name]},
                        hands=self.hands.value,
                        players=self.players.value,
                        seed=self.seed.value,
                        bot=self.bot.value,
                        progress=False,
                    )
                )
                self.progress.value = i + 1
        finally:
            self.run_button.disabled = False
        import pandas as pd

        df = pd.concat(frames, axis=1)
        self.result = df
        self.progress.bar_style = "success"
        table = format_table(df).to_html(classes="palace-df-table", border=0)
        self.table.value = root(
            '<div class="palace-section">Averages per hand, same seeded hands under each '
            f"variant ({self.hands.value} hands, {self.players.value} players, seed "
            f"{self.seed.value}, {esc(self.bot.value)} bots)</div>"
            f'<div class="palace-df" style="overflow-x:auto">{table}</div>'
        )
        if len(names) >= 2:
            from palace.analysis.charts import variants_chart

            fig = variants_chart(df)
            buf = io.BytesIO()
            fig.savefig(buf, format="png", dpi=110, bbox_inches="tight")
            b64 = base64.b64encode(buf.getvalue()).decode("ascii")
            self.chart.value = root(
                f'<img alt="bar chart: each variant as a % change from {esc(names[0])}" '
                f'src="data:image/png;base64,{b64}" style="max-width:100%;height:auto">'
            )
        else:
            self.chart.value = root(
                '<div class="palace-note">Pick two or more variants to see '
                "the chart of changes from the first.</div>"
            )
        self.say(f"Done: {self.hands.value} hands × {len(names)} variants.", ok=True)
        return True

    @guard
    def _on_run(self, _: Button) -> None:
        self.run()

    def text(self) -> str:
        if self.result is None:
            return "No comparison run yet."
        return self.result.to_string()
