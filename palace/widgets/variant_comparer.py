"""`VariantComparer`: pick a variant and a hand, see what the rules changed and where."""

from __future__ import annotations

import pandas as pd
from ipywidgets import HTML, BoundedIntText, Dropdown, HBox, Layout, VBox

from palace.analysis.variants import (
    STANDARD,
    VARIANTS,
    Divergence,
    first_difference,
    named,
    side_by_side,
    variant_game,
)
from palace.rules import Rules
from palace.widgets.theme import esc, root, rule_badge, style_widget

CHOICES = named(slug for slug in VARIANTS if slug != STANDARD)  # {label: Rules}, menu order


class VariantComparer(VBox):
    """Pick a variant and a hand: the hand under standard rules and under the variant,
    what changed, and the first event where they part."""

    def __init__(
        self,
        seed: int = 2026,
        hands: int = 8,
        *,
        players: int = 4,
        bot: str = "rules",
        variant: str = "no-limit (R3.3)",
    ) -> None:
        self._seed, self._hands, self._players, self._bot = seed, hands, players, bot
        self._cache: dict[str, pd.DataFrame] = {}
        self._variant = Dropdown(
            options=list(CHOICES),
            value=variant,
            description="Variant",
            layout=Layout(width="330px"),
        )
        # a labelled number box (ipywidgets' slider handle has no accessible name); the
        # hands are numbered as in the side-by-side table
        self._hand = BoundedIntText(
            value=0,
            min=0,
            max=hands - 1,
            description="Hand",
            tooltip="the hand's number in the table",
            layout=Layout(width="160px"),
        )
        self._out = HTML(layout=Layout(width="100%"))
        self._variant.observe(lambda _: self._draw(), names="value")
        self._hand.observe(lambda _: self._draw(), names="value")
        super().__init__(
            [
                style_widget(),
                HBox([self._variant, self._hand], layout=Layout(flex_flow="row wrap")),
                self._out,
            ],
            layout=Layout(width="100%", grid_gap="6px"),
        )
        self.add_class("palace-panel")
        self.add_class("palace-variants")
        self._draw()

    @property
    def variant(self) -> Dropdown:
        return self._variant

    @property
    def hand(self) -> BoundedIntText:
        return self._hand

    @property
    def html(self) -> str:
        """The comparison drawn for the chosen variant and hand."""
        return self._out.value

    def table(self) -> pd.DataFrame:
        """`side_by_side` for the chosen variant (computed once per variant)."""
        name = self._variant.value
        if name not in self._cache:
            self._cache[name] = side_by_side(
                self._seed,
                Rules(),
                CHOICES[name],
                hands=self._hands,
                players=self._players,
                bot=self._bot,
            )
        return self._cache[name]

    def divergence(self) -> Divergence:
        rules_b = CHOICES[self._variant.value]
        hand = self._hand.value
        a = variant_game(Rules(), self._seed, hand, players=self._players, bot=self._bot)
        b = variant_game(rules_b, self._seed, hand, players=self._players, bot=self._bot)
        return first_difference(a, b)

    def _rows(self) -> list[tuple[str, str, str]]:
        row = self.table().iloc[self._hand.value]
        top = [c for c in row.index.get_level_values(0).unique() if c]
        out = []
        for field in ("pot", "battles", "winner", "ending"):
            out.append((field, str(row[(top[0], field)]), str(row[(top[1], field)])))
        return out

    def _draw(self) -> None:
        rows = self._rows()
        changed = self.table().iloc[self._hand.value][("", "what changed")]
        div = self.divergence()
        cells = "".join(
            f"<tr><th style='text-align:left;padding:3px 14px 3px 0'>{esc(f)}</th>"
            f"<td style='padding:3px 14px'>{esc(a)}</td>"
            f"<td style='padding:3px 14px{';font-weight:700' if a != b else ''}'>{esc(b)}</td>"
            "</tr>"
            for f, a, b in rows
        )
        name = self._variant.value
        if div.index is None:
            where = '<div class="palace-note">The two hands are event for event the same.</div>'
        else:
            where = (
                f'<div class="palace-taken"><b>First difference at step {div.index + 1}</b>'
                f"<div>standard: {esc(div.a)}</div><div>{esc(name)}: {esc(div.b)}</div></div>"
            )
        self._out.value = root(
            f'<div class="palace-side"><div class="palace-side-head"><b>Hand '
            f"{self._hand.value} (seed {self._seed + self._hand.value})</b>"
            f"{rule_badge('R3')}</div>"
            "<table style='border-collapse:collapse;font-size:15px'>"
            f"<tr><th></th><th style='padding:3px 14px'>standard</th>"
            f"<th style='padding:3px 14px'>{esc(name)}</th></tr>{cells}</table>"
            f'<div class="palace-note" style="margin-top:6px">What changed: '
            f"<b>{esc(changed)}</b></div>{where}</div>"
        )

    def text(self) -> str:
        """The comparison for the chosen variant and hand, in plain text."""
        lines = [f"Hand {self._hand.value}: standard vs {self._variant.value}"]
        lines += [f"  {f}: {a} | {b}" for f, a, b in self._rows()]
        lines.append(f"  what changed: {self.table().iloc[self._hand.value][('', 'what changed')]}")
        lines.append(str(self.divergence()))
        return "\n".join(lines)
