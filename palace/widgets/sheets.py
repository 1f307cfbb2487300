"""Panel style sheets added once to the page's one style widget (`theme.style_widget`).

Every panel shows the same hidden style widget; a panel with rules of its own adds them to
it, once per kernel, so building many drills or steppers never grows the sheet.

>>> a = with_sheets("<style>.x { color: red; }</style>")
>>> b = with_sheets("<style>.x { color: red; }</style>")
>>> a is b and a.value.count(".x { color: red; }") == 1
True
"""

from __future__ import annotations

from ipywidgets import HTML

from palace.widgets.theme import style_widget


def with_sheets(*sheets: str) -> HTML:
    """The shared style widget, holding each of `sheets` once."""
    widget = style_widget()
    extra = "".join(s for s in dict.fromkeys(sheets) if s not in widget.value)
    if extra:
        widget.value += extra
    return widget
