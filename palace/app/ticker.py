"""`Ticker`: a hidden `Play` widget that ticks in the browser while its page is open.

The dashboard's live refresh and a student's check for a pushed position are driven by the
page itself: every `interval` ms the browser moves the widget's value and the kernel's
observer runs (no thread in the kernel; a closed tab stops ticking). ipywidgets starts a
Play's timer only when `playing` turns true under a drawn view, so the ticker counts its
views (`_view_count`) and switches itself on once the first one is drawn.
"""

from __future__ import annotations

from ipywidgets import Layout, Play


class Ticker(Play):
    """A hidden Play that starts ticking once the browser has drawn it."""

    def __init__(self, interval: int, *, live: bool = True) -> None:
        super().__init__(
            value=0,
            min=0,
            max=10**9,
            step=1,
            interval=interval,
            playing=False,
            repeat=False,
            layout=Layout(display="none"),
        )
        self.live = live
        self._view_count = 0  # the frontend counts the views it draws
        self.observe(self._on_views, names="_view_count")

    def _on_views(self, change: dict) -> None:
        if self.live and (change["new"] or 0) > 0 and not getattr(self, "playing", False):
            self.set_trait("playing", True)
