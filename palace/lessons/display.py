"""Lesson material on the page: show() with plain text, the gallery of the nine hands, the deck."""

from __future__ import annotations

import base64
import io
from typing import Any

from ipywidgets import HTML, Widget
from matplotlib.figure import Figure

from palace.cards import Suit
from palace.hands import Category, evaluate
from palace.lessons.course_map import clause_index
from palace.widgets.card_rows import CardRows
from palace.widgets.theme import CARD_CSS, LINK_RULE, PANEL_CSS, esc, quiet_tooltips, root


def show(widget: Widget) -> None:
    """Display a Palace panel with its plain text (``widget.text()``) as the text/plain
    alternative, instead of ipywidgets' cut-off repr: front ends without widgets show
    the text, and the notebook tests (nbval) compare it."""
    from IPython.display import display

    quiet_tooltips(widget)
    bundle = widget._repr_mimebundle_()
    describe = getattr(widget, "text", None)  # every Palace panel says what it shows
    if not callable(describe):
        raise TypeError(f"show() needs a Palace panel with text(), got {type(widget).__name__}")
    bundle["text/plain"] = describe()
    display(bundle, raw=True)


CATEGORY_EXAMPLES: dict[Category, str] = {
    Category.STRAIGHT_FLUSH: "9h 8h 7h 6h 5h",
    Category.FOUR_OF_A_KIND: "Qs Qh Qd Qc 4s",
    Category.FULL_HOUSE: "Ts Th Tc 3d 3s",
    Category.FLUSH: "Kc Tc 8c 5c 2c",
    Category.STRAIGHT: "5d 4s 3h 2c Ad",
    Category.THREE_OF_A_KIND: "7s 7h 7d Kc 2h",
    Category.TWO_PAIR: "Js Jd 6h 6c As",
    Category.ONE_PAIR: "Ah Ac 9s 6d 3c",
    Category.HIGH_CARD: "Ks Jh 8d 5c 3s",
}


class Chart:
    """A chart for a lesson page: the picture with its words (``alt``) for screen readers,
    and the same words as its plain text (what nbval compares and a text front end shows).

    >>> import matplotlib.pyplot as plt
    >>> fig, ax = plt.subplots(); _ = ax.plot([1, 2]); plt.close(fig)
    >>> Chart(fig, "A rising line.")
    Chart: A rising line.
    """

    def __init__(self, figure: Figure, alt: str) -> None:
        if not alt.strip():
            raise ValueError("a chart needs words for readers who cannot see it (alt)")
        buffer = io.BytesIO()
        figure.savefig(buffer, format="png", dpi=100, bbox_inches="tight")
        self.png = base64.b64encode(buffer.getvalue()).decode("ascii")
        self.alt = alt.strip()

    def _repr_mimebundle_(self, **kwargs: Any) -> dict[str, str]:
        html = (
            f"<style>{LINK_RULE}</style>"
            f'<img src="data:image/png;base64,{self.png}" alt="{esc(self.alt)}" '
            'style="max-width:100%;height:auto">'
        )
        return {"text/html": html, "text/plain": repr(self)}

    def __repr__(self) -> str:
        return f"Chart: {self.alt}"


def chart(figure: Figure, alt: str) -> Chart:
    """Show a matplotlib figure in a lesson with words for screen readers (WCAG 1.1.1)."""
    return Chart(figure, alt)


def category_gallery(*, four_color: bool = False) -> CardRows:
    """The nine example hands as rows of cards, best first (`category_examples`).

    Each row starts with the category's name (R1.3): the engine's own name where it
    already does ("Full house, tens over threes"), otherwise the category and the rank
    of its set ("Four of a kind, queens" where the engine says "Four queens").
    """
    rows = []
    for cat, cards in CATEGORY_EXAMPLES.items():
        hand = evaluate(cards)
        name = hand.describe()
        if not name.lower().startswith(cat.label.lower()):
            # Four / three of a kind and one pair: best[0] is a card of the set.
            name = f"{cat.label}, {hand.best[0].rank.plural}"
        rows.append((f"{9 - int(cat)}. {name}", cards))
    return CardRows(rows, four_color=four_color, width="330px")


def deck_rows(*, four_color: bool = False) -> CardRows:
    """The 52-card deck, one row per suit, ace high (R1.2)."""
    ranks = "A K Q J T 9 8 7 6 5 4 3 2".split()
    return CardRows(
        [
            (f"{suit.noun} {suit.symbol}", " ".join(r + suit.letter for r in ranks))
            for suit in (Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS)
        ],
        four_color=four_color,
    )


class ClauseTable(HTML):
    """Which lesson teaches which clause (`clause_index`) as a styled table, with its plain
    text for front ends without widgets."""

    def __init__(self) -> None:
        df = clause_index()
        head = "".join(f'<th scope="col">{esc(c)}</th>' for c in df.columns)
        rows = "".join(
            f'<tr><th scope="row">{esc(idx)}</th>'
            + "".join(f"<td>{esc(v)}</td>" for v in row)
            + "</tr>"
            for idx, row in df.iterrows()
        )
        table = (
            '<div class="palace-scroll" tabindex="0" role="region" '
            'aria-label="Which lesson teaches which rule">'
            '<table class="palace-clause-table"><thead><tr><th scope="col">Rules</th>'
            f"{head}</tr></thead><tbody>{rows}</tbody></table></div>"
        )
        super().__init__(CARD_CSS + PANEL_CSS + root(table))
        self.add_class("palace-panel")
        self._text = df.to_string()

    def text(self) -> str:
        return self._text
