"""`Later`: an empty box that builds its panel the first time the panel is needed.

A page draws faster when it builds only what is on screen: the app's tabs behind the
first, the teacher's tools on a student's page and the presenter are built when first
opened (issue 26). `Later.get()` builds the panel (once) and shows it in the box.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Generic, TypeVar

from ipywidgets import Layout, VBox, Widget

W = TypeVar("W", bound=Widget)

__all__ = ["Later"]


class Later(VBox, Generic[W]):
    """A box that holds the panel `build()` makes, made on the first `get()`.

    >>> from ipywidgets import HTML
    >>> box = Later(lambda: HTML("hello"))
    >>> box.built, len(box.children)
    (False, 0)
    >>> box.get().value, box.built, len(box.children)
    ('hello', True, 1)
    """

    def __init__(
        self,
        build: Callable[[], W],
        *,
        on_built: Callable[[W], None] | None = None,
        layout: Layout | None = None,
    ) -> None:
        super().__init__(layout=layout or Layout(width="100%"))
        self._build = build
        self._on_built = on_built
        self._panel: W | None = None

    @property
    def built(self) -> bool:
        """Has the panel been built yet?"""
        return self._panel is not None

    @property
    def panel(self) -> W | None:
        """The panel if built, else None (never builds it)."""
        return self._panel

    def get(self) -> W:
        """The panel, built and shown on the first call."""
        if self._panel is None:
            panel = self._build()
            self._panel = panel
            self.children = (panel,)
            if self._on_built is not None:
                self._on_built(panel)
        return self._panel

    def text(self) -> str:
        """The panel's plain text (building it: the text is what the panel shows)."""
        panel: Any = self.get()
        return str(panel.text())
