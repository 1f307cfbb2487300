"""What the app's tabs share: view and variant names, alerts, error guard, boxes and rows."""

from __future__ import annotations

import logging
from collections.abc import Callable
from functools import wraps
from typing import Any, Protocol

from ipywidgets import HTML, HBox, Layout, VBox, Widget

from palace.analysis.variants import VARIANTS
from palace.widgets.theme import esc, is_shared, root, shared_layout

log = logging.getLogger("palace.app")

# The instructor switch: what the Play and Replay tables show.
VIEW_PLAYERS, VIEW_SEAT, VIEW_ALL = "players", "seat", "all"
VARIANT_NAMES = tuple(VARIANTS)  # the slugs of the one list, palace.analysis.variants


def message_html(text: str, *, ok: bool) -> str:
    """An alert-styled (or green) line; empty text clears it."""
    if not text:
        return ""
    if ok:
        return root(f'<div class="palace-okay" role="status">✓ {esc(text)}</div>')
    return root(f'<div class="palace-alert" role="alert">✗ {esc(text)}</div>')


def close_tree(widget: Widget) -> None:
    """Close a widget, its children and their own layouts and styles (a replaced panel
    should not linger in the kernel); what panels share stays open (`theme.is_shared`)."""
    for child in getattr(widget, "children", ()):
        close_tree(child)
    if is_shared(widget):
        return
    for part in (getattr(widget, "layout", None), getattr(widget, "style", None)):
        if isinstance(part, Widget) and not is_shared(part):
            part.close()
    widget.close()


class Says(Protocol):
    """A tab with a message line: `say` shows a sentence there (an alert unless `ok`)."""

    def say(self, text: str, *, ok: bool) -> None: ...


def guard(method: Callable[..., Any]) -> Callable[..., Any]:
    """Widget callbacks of a tab (`Says`): an unexpected error becomes an alert in the tab,
    not a dead app."""

    @wraps(method)
    def wrapper(self: Says, *args: Any, **kwargs: Any) -> Any:
        try:
            return method(self, *args, **kwargs)
        except Exception as exc:  # noqa: BLE001 - shown to the user, logged for the teacher
            log.exception("palace app: %s failed", method.__name__)
            self.say(f"Something went wrong ({type(exc).__name__}: {exc}).", ok=False)
            return None

    return wrapper


def titled_box(title: str, *children: Widget, **layout: Any) -> VBox:
    """A white box of `children` under a bold title (no title line when `title` is "")."""
    head = (
        HTML(root(f'<div class="palace-box-title">{esc(title)}</div>'), layout=shared_layout())
        if title
        else None
    )
    kids = [head, *children] if head is not None else list(children)
    box = VBox(kids, layout=shared_layout(grid_gap="6px", **layout))  # a box is never hidden
    box.add_class("palace-box")
    return box


def flow_row(*children: Widget, gap: str = "10px") -> HBox:
    """`children` side by side, wrapping onto the next line when the tab is narrow."""
    return HBox(
        list(children),
        layout=shared_layout(flex_flow="row wrap", align_items="center", grid_gap=gap),
    )  # a row that never changes its own layout: shared (theme.shared_layout)


def own_row(*children: Widget, gap: str = "10px") -> HBox:
    """A `flow_row` with a layout of its own: for a row that is ever hidden."""
    return HBox(
        list(children), layout=Layout(flex_flow="row wrap", align_items="center", grid_gap=gap)
    )


WIDE_LABEL = {"description_width": "initial"}
"""A control's `style` that gives its description the room it needs (long labels)."""
