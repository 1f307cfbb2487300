"""`CardRows`: labelled rows of cards (a `CardRow` each), stacked or flowing side by side."""

from __future__ import annotations

from collections.abc import Sequence

from ipywidgets import Layout, VBox

from palace.widgets.cards import CardRow


class CardRows(VBox):
    """Labelled rows of cards (a `CardRow` each) with a plain-text `text()`.

    >>> rows = CardRows([("Banner", "Kh"), ("Soldiers", "Qs Js")])
    >>> print(rows.text())
    Banner: K♥
    Soldiers: Q♠ J♠
    """

    def __init__(
        self,
        rows: Sequence[tuple[str, str]],
        *,
        four_color: bool = False,
        width: str | None = None,
    ) -> None:
        """width: give each row this width and let the rows flow side by side."""
        self._rows = [
            CardRow(cards, small=True, four_color=four_color, label=label) for label, cards in rows
        ]
        layout = Layout(grid_gap="2px")
        if width is not None:
            for row in self._rows:
                row.layout.width = width
            layout = Layout(display="flex", flex_flow="row wrap", grid_gap="6px 18px")
        super().__init__(self._rows, layout=layout)
        self.add_class("palace-cardrows")

    def text(self) -> str:
        """Each row as ``label: cards``, one a line."""
        return "\n".join(r.text() for r in self._rows)
