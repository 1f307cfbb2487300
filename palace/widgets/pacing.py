"""`BotPacer`: the computer players act one at a time, a moment apart, so a learner can follow.

In a running kernel (Voilà, JupyterLab) each bot action is scheduled on the kernel's event
loop `delay` seconds after the last, and every listener of the `PlayController` redraws
after each one. Outside a kernel (tests, scripts) or at speed "instant", the bots play on
at once.

>>> from palace.widgets.session import PlayController
>>> ctl = PlayController(players=3, human=0, seed=2, auto=False)
>>> pacer = BotPacer(ctl, "normal")
>>> pacer.run(); ctl.bot_to_act   # no kernel here: the bots played on at once
False
"""

from __future__ import annotations

import asyncio

from palace.events import Phase
from palace.widgets.session import PlayController

BOT_SPEEDS: dict[str, float] = {"instant": 0.0, "fast": 0.5, "normal": 1.0, "slow": 2.2}
"""Seconds between two bot actions, by the name shown in the speed setting."""


class BotPacer:
    """Plays the bots of `controller` one action at a time, `BOT_SPEEDS[speed]` apart."""

    def __init__(self, controller: PlayController, speed: str = "normal") -> None:
        self.controller = controller
        self._speed = "normal"
        self.speed = speed
        self._handle: asyncio.TimerHandle | None = None

    @property
    def speed(self) -> str:
        return self._speed

    @speed.setter
    def speed(self, value: str) -> None:
        if value not in BOT_SPEEDS:
            raise ValueError(f"bot speed must be one of {', '.join(BOT_SPEEDS)}, got {value!r}")
        self._speed = value

    @property
    def running(self) -> bool:
        """Is a bot action waiting for its moment?"""
        return self._handle is not None

    def cancel(self) -> None:
        """Stop pacing (a new hand, an undo)."""
        if self._handle is not None:
            self._handle.cancel()
            self._handle = None

    def run(self) -> None:
        """Let the bots play until a human decides: paced when a loop runs, else at once."""
        if self._handle is not None or not self.controller.bot_to_act:
            return
        delay = BOT_SPEEDS[self._speed]
        loop = kernel_loop()
        if delay <= 0 or loop is None:
            self.controller.advance_bots()
            return
        self._handle = loop.call_later(delay, self._tick)

    def finish(self) -> None:
        """Play every waiting bot action now (the learner pressed Skip)."""
        self.cancel()
        self.controller.advance_bots()

    def _tick(self) -> None:
        self._handle = None
        ctl = self.controller
        seat = ctl.game.to_act
        ctl.bot_step()  # listeners redraw, and may call run() again
        # a bot's choice of discards after its Buy or capture is part of the same turn
        while ctl.bot_to_act and ctl.game.to_act == seat and ctl.game.phase is Phase.TRIM_TO_FIVE:
            ctl.bot_step()
        self.run()


def kernel_loop() -> asyncio.AbstractEventLoop | None:
    """The event loop of the Jupyter kernel this code runs in, else None (a plain Python
    process, pytest: even when another library runs a loop there, as Playwright does)."""
    try:
        from IPython import get_ipython
    except ImportError:  # pragma: no cover - IPython comes with ipywidgets
        return None
    shell = get_ipython()
    if shell is None or getattr(shell, "kernel", None) is None:
        return None
    try:
        return asyncio.get_running_loop()
    except RuntimeError:
        return None
