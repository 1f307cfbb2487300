"""What the app's tabs share: view and variant names, alerts, error guard, boxes and rows."""

from __future__ import annotations

import logging
from collections.abc import Callable
from functools import wraps
from typing import Any

from ipywidgets import HTML, HBox, Layout, VBox, Widget

from palace.analysis.variants import VARIANTS
from palace.widgets.theme import esc, root

log = logging.getLogger("palace.app")

# The instructor switch: what the Play and Replay tables show.
VIEW_PLAYERS, VIEW_SEAT, VIEW_ALL = "players", "seat", "all"
VARIANT_NAMES = tuple(VARIANTS)  # the slugs of the one list, palace.analysis.variants


def _message(text: str, *, ok: bool) -> str:
    """An alert-styled (or green) line; empty text clears it."""
    if not text:
        return ""
    if ok:
        return root(f'<div class="palace-okay" role="status">✓ {esc(text)}</div>')
    return root(f'<div class="palace-alert" role="alert">✗ {esc(text)}</div>')


def _close_tree(widget: Widget) -> None:
    """Close a widget and its children (a replaced panel should not linger in the kernel)."""
    for child in getattr(widget, "children", ()):
        _close_tree(child)
    widget.close()


def _guard(method: Callable[..., Any]) -> Callable[..., Any]:
    """Widget callbacks: an unexpected error becomes an alert in the tab, not a dead app."""

    @wraps(method)
    def wrapper(self: Any, *args: Any, **kwargs: Any) -> Any:
        try:
            return method(self, *args, **kwargs)
        except Exception as exc:  # noqa: BLE001 - shown to the user, logged for the teacher
            log.exception("palace app: %s failed", method.__name__)
            self._say(f"Something went wrong ({type(exc).__name__}: {exc}).", ok=False)
            return None

    return wrapper


def _box(title: str, *children: Widget, **layout: Any) -> VBox:
    head = HTML(root(f'<div class="palace-box-title">{esc(title)}</div>')) if title else None
    kids = [head, *children] if head is not None else list(children)
    box = VBox(kids, layout=Layout(grid_gap="6px", **layout))
    box.add_class("palace-box")
    return box


def _row(*children: Widget, gap: str = "10px") -> HBox:
    return HBox(
        list(children), layout=Layout(flex_flow="row wrap", align_items="center", grid_gap=gap)
    )


_WIDE = {"description_width": "initial"}
