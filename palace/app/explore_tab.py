"""The app's Explore tab: compare rule variants on the same seeded bot hands, table and chart.

The players are rule-based bots (`palace.analysis.studies.compare_variants`: averages per
hand) or search bots that adapt to the rules (`palace.analysis.variant_effects`: every
figure with its 95% interval, each variant's paired difference from the first one ticked,
and the findings in words beside the table).

The study runs off the widget thread (a background thread driving the shards, on a Dask
`LocalCluster` by default, see `palace.analysis.cluster`), so the page keeps answering; a
progress bar follows the shards, Cancel stops the run within about a shard, and the work is
bounded: a study whose estimated computing (`palace.app.study_budget`, from the engine's
measured speed) is over about four minutes is refused, with the number of hands that fit.
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
from palace.app.study_budget import (
    MAX_STUDY_SECONDS,
    SEARCH,
    SEARCH_SIMULATIONS,
    hands_that_fit,
    round_down,
    said,
    study_seconds,
)
from palace.widgets.theme import esc, root
from palace.words import plural

log = logging.getLogger("palace.app")

MAX_PLAYERS, MIN_PLAYERS = 10, 2
TICKED = ("standard", "no-limit", "free-discard", "call-matches-attack", "only-stay-quiet")

MAX_SIMULATIONS = 200
SEARCH_SHARD_SECONDS = 1.0
"""About how long one shard of a search-bot comparison plays (so Cancel is prompt)."""
SEARCH_BUDGET_SECONDS = 60.0
"""Choosing search bots lowers Hands each to what fits in about this much computing."""


def format_table(df: Any) -> Any:
    """Counts as whole numbers, averages and percentages with two decimals."""
    out = df.astype(object)
    for row in df.index:
        whole = row == "hands"
        out.loc[row] = [f"{v:,.0f}" if whole else f"{v:,.2f}" for v in df.loc[row]]
    return out


def check_setup(
    hands: object,
    players: object,
    seed: object,
    *,
    bot: str = "mixed",
    simulations: object = SEARCH_SIMULATIONS,
    variants: int = 1,
) -> str | None:
    """Why a setup is refused (naming the field and the limit), or None if it may run."""
    fields: list[tuple[str, object, int, int | None]] = [
        ("Players", players, MIN_PLAYERS, MAX_PLAYERS),
        ("Hands each", hands, 1, None),
        ("Seed", seed, 0, None),
    ]
    if bot == SEARCH:
        fields.append(("Simulations", simulations, 1, MAX_SIMULATIONS))
    for name, value, low, high in fields:
        if not isinstance(value, int) or isinstance(value, bool):
            return f"{name} must be a whole number, got {value!r}."
        if value < low or (high is not None and value > high):
            span = f"from {low:,} to {high:,}" if high is not None else f"{low:,} or more"
            return f"{name} must be {span}, got {value:,}."
    assert isinstance(hands, int) and isinstance(players, int)
    sims = simulations if isinstance(simulations, int) else SEARCH_SIMULATIONS  # rules: unused
    need = study_seconds(bot, hands, players, variants, sims)
    if need <= MAX_STUDY_SECONDS:
        return None
    fit = hands_that_fit(bot, players, variants, sims)
    if bot == SEARCH:
        return (
            f"The search bots would think for about {said(need)} (Hands each × variants × "
            f"Simulations × Players² = {hands:,} × {variants} × {sims} × {players}²); the cap "
            f"is about {said(MAX_STUDY_SECONDS)} of computing (for example {fit:,} hands "
            "each). Lower Hands each, Simulations, Players or the number of variants."
        )
    return (
        f"The bots would play for about {said(need)} (Hands each × variants × Players = "
        f"{hands:,} × {variants} × {players}); the cap is about {said(MAX_STUDY_SECONDS)} of "
        f"computing (for example {fit:,} hands each). Lower Hands each, Players or the number "
        "of variants."
    )


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
                ("search bots (adapt to the rules; 95% CIs)", SEARCH),
            ],
            value="mixed",
            description="Bots",
            layout=Layout(width="340px"),
        )
        self.simulations = IntText(
            value=SEARCH_SIMULATIONS,
            description="Simulations",
            tooltip="worlds each search bot searches per decision",
            style=WIDE_LABEL,
            layout=Layout(width="190px", display="none"),
        )
        self.bot.observe(self._on_bot, names="value")
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
        self.findings = HTML()
        self.chart = HTML()
        self.run_button.on_click(self._on_run)
        self.cancel_button.on_click(self._on_cancel)
        self.result: Any = None  # the last table (a pandas DataFrame)
        self.differences: Any = None  # search bots: each variant minus the first, paired
        self.finding_list: list[Any] = []  # search bots: the findings (variant_effects.Finding)
        self._text = "No comparison run yet."
        self._thread: threading.Thread | None = None
        self._watch: Any = None
        rule_hands = round_down(hands_that_fit("rules", 4, 5))
        search_hands = round_down(hands_that_fit(SEARCH, 4, 5, seconds=SEARCH_BUDGET_SECONDS))
        note = HTML(
            root(
                '<div class="palace-note">Each variant plays the <b>same</b> seeded hands with the '
                "same bots, so differences come from the rules. The chart shows each variant as "
                "a change from the first one ticked. A study may compute for about "
                f"{said(MAX_STUDY_SECONDS)}: here that is about {rule_hands:,} hands of 4 "
                "players for each of 5 variants. Cancel stops a long run.<br>"
                "Rule bots play the same way whatever the prices, so a rule that changes only "
                "prices hardly shows. <b>Search bots</b> think ahead under the table's rules, "
                "so they change their play when the rules change: every figure then comes with "
                "its 95% interval, and the findings are said in words. They are slower: here a "
                f"minute of computing plays about {search_hands:,} hands of 4 players for each of "
                "5 variants.</div>"
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
                            self.simulations,
                            flow_row(self.run_button, self.cancel_button),
                            self.progress,
                        ]
                    ),
                ],
                layout=Layout(flex_flow="row wrap", grid_gap="20px"),
            ),
            self.status,
        )
        results = HBox(
            [self.table, self.findings],
            layout=Layout(flex_flow="row wrap", grid_gap="16px", align_items="flex-start"),
        )
        super().__init__([form, results, self.chart], layout=Layout(width="100%", grid_gap="12px"))
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
        bot, simulations = self.bot.value, self.simulations.value
        refused = check_setup(
            hands, players, seed, bot=bot, simulations=simulations, variants=len(slugs)
        )
        if refused:
            self.say(refused, ok=False)
            return False
        from palace.analysis.shards import Watch

        setup: dict[str, Any] = {"hands": hands, "players": players, "seed": seed, "bot": bot}
        if bot == SEARCH:
            setup["simulations"] = simulations
        self._watch = Watch(on_progress=self._on_progress)
        self.run_button.disabled, self.cancel_button.disabled = True, False
        self.progress.value, self.progress.max, self.progress.bar_style = 0, 1, "info"
        need = study_seconds(bot, hands, players, len(slugs), simulations)
        about = f" (about {said(need)} of computing)"
        self.say(
            f"Playing {hands:,} hands × {len(slugs)} variants with {players} players{about}…",
            ok=True,
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
            if setup["bot"] == SEARCH:
                self._show_effects(self._play_search(slugs, setup, watch), slugs, setup)
            else:
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

    def _play_search(
        self, slugs: list[str], setup: dict[str, Any], watch: Any
    ) -> dict[str, list[dict[str, Any]]]:
        from palace.analysis.variant_effects import run_study
        from palace.analysis.variants import named

        hands, players, sims = setup["hands"], setup["players"], setup["simulations"]
        per_hand = study_seconds(SEARCH, 1, players, 1, sims)
        per_shard = max(1, min(hands, int(SEARCH_SHARD_SECONDS / per_hand)))
        return run_study(
            named(slugs),
            hands=hands,
            players=players,
            seed=setup["seed"],
            bot="search",
            simulations=sims,
            per_shard=per_shard,
            progress=False,
            scheduler=self._scheduler,
            watch=watch,
        )

    def _show_effects(
        self, rows: dict[str, list[dict[str, Any]]], slugs: list[str], setup: dict[str, Any]
    ) -> None:
        from palace.analysis.variant_effects import (
            ci_table,
            differences,
            effects_chart,
            finding_list,
            summarise,
        )

        summary = summarise(rows)
        first = VARIANTS[slugs[0]].label
        self.result = summary
        table = ci_table(summary).to_html(classes="palace-df-table", border=0)
        self.table.value = root(
            '<div class="palace-section">Mean per hand [95% interval], the same seeded hands '
            f"under each variant ({setup['hands']:,} hands, {setup['players']} players, seed "
            f"{setup['seed']}, search bots with {setup['simulations']} simulations)</div>"
            f'<div class="palace-df" style="overflow-x:auto">{table}</div>'
        )
        if len(slugs) >= 2:
            diffs = differences(rows)
            self.differences = diffs
            self.finding_list = finding_list(diffs, baseline=first)
            items = "".join(
                f"<li><b>{esc(f.variant)}</b>: "
                + (esc("; ".join(f.changes)) if f.changes else "no significant difference")
                + "."
                + (
                    '<details style="color:#555"><summary>Not significant: '
                    f"{plural(len(f.unchanged), 'figure')}</summary>"
                    f"{esc(', '.join(f.unchanged))}.</details>"
                    if f.unchanged
                    else ""
                )
                + "</li>"
                for f in self.finding_list
            )
            self.findings.value = root(
                f'<div class="palace-section">Findings: each variant against {esc(first)}, '
                "paired by deal</div>"
                f'<ul style="max-width:560px;margin:4px 0;padding-left:20px">{items}</ul>'
                '<div class="palace-note" style="max-width:560px">A change is significant '
                "when its 95% interval leaves out 0. With many figures tested, about one in "
                "twenty may look significant by chance: run more hands to be sure.</div>"
            )
            self.chart.value = _png(
                effects_chart(diffs),
                f"bar chart: each variant as a % change from {first}, with 95% intervals",
            )
        else:
            self.differences, self.finding_list = None, []
            self.findings.value = ""
            self.chart.value = root(
                '<div class="palace-note">Pick two or more variants to see '
                "what each changes, with findings in words.</div>"
            )
        lines = [str(ci_table(summary).to_string())]
        if self.finding_list:
            lines += ["== Findings ==", *(str(f) for f in self.finding_list)]
        self._text = "\n".join(lines)
        self.progress.bar_style = "success"
        self.say(
            f"Done: {setup['hands']:,} hands × {len(slugs)} variants with search bots "
            f"({setup['simulations']} simulations).",
            ok=True,
        )

    def _show(self, df: Any, slugs: list[str], setup: dict[str, Any]) -> None:
        self.result = df
        self._text = str(df.to_string())
        self.differences, self.finding_list = None, []
        self.findings.value = ""
        table = format_table(df).to_html(classes="palace-df-table", border=0)
        self.table.value = root(
            '<div class="palace-section">Averages per hand, same seeded hands under each '
            f"variant ({setup['hands']:,} hands, {setup['players']} players, seed "
            f"{setup['seed']}, {esc(setup['bot'])} bots)</div>"
            f'<div class="palace-df" style="overflow-x:auto">{table}</div>'
        )
        if len(slugs) >= 2:
            from palace.analysis.charts import variants_chart

            first = VARIANTS[slugs[0]].label
            self.chart.value = _png(
                variants_chart(df), f"bar chart: each variant as a % change from {first}"
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
    def _on_bot(self, change: dict) -> None:
        search = change["new"] == SEARCH
        self.simulations.layout.display = None if search else "none"
        if not search:
            return
        hands, players = self.hands.value, self.players.value
        sims, n = self.simulations.value, max(1, len(self.selected))
        ok = isinstance(players, int) and MIN_PLAYERS <= players <= MAX_PLAYERS
        ok = ok and isinstance(sims, int) and 1 <= sims <= MAX_SIMULATIONS
        if not ok or not isinstance(hands, int):
            return
        if study_seconds(SEARCH, hands, players, n, sims) > SEARCH_BUDGET_SECONDS:
            fit = hands_that_fit(SEARCH, players, n, sims, seconds=SEARCH_BUDGET_SECONDS)
            self.hands.value = min(hands, round_down(fit))
            self.say(
                f"Search bots think about every move: Hands each is now {self.hands.value:,} "
                "(about a minute of computing).",
                ok=True,
            )

    @guard
    def _on_cancel(self, _: Button) -> None:
        self.cancel()

    def text(self) -> str:
        """The last table in plain text, and the findings under it (search bots)."""
        return self._text


def _png(fig: Any, alt: str) -> str:
    """A matplotlib figure as an inline image with its words for screen readers."""
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=110, bbox_inches="tight")
    b64 = base64.b64encode(buf.getvalue()).decode("ascii")
    return root(
        f'<img alt="{esc(alt)}" src="data:image/png;base64,{b64}" '
        'style="max-width:100%;height:auto">'
    )
