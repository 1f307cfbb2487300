"""`HandLog`: the latest events, the latest battle and the result of a hand being played.

Shared by `PlayPanel` (the learner's panel) and `PlayTab` (the app's Play tab). It is not a
container: it owns the widgets (`log`, `battle_box` with `battle`, `result`) and each panel
places them where it likes; `show` redraws them and `text` gives the same in plain text.
"""

from __future__ import annotations

from collections.abc import Sequence

from ipywidgets import HTML, Layout, VBox

from palace.events import Event
from palace.game import Game
from palace.views import sees_event
from palace.widgets.battle_view import BattleView
from palace.widgets.theme import esc, root, rule_badge


def latest_battle(game: Game, seat: int | None, reveal: bool) -> Event | None:
    """The last battle event whose armies `seat` may see (every battle if `reveal`)."""
    for ev in reversed(game.events):
        if ev.kind == "battle" and "battle" in ev.detail and (reveal or sees_event(ev, seat)):
            return ev
    return None


class HandLog:
    """The "Latest events" log, the "Latest battle" box and the hand result box.

    `again` is the HTML of the result line's closing instruction, e.g.
    ``"Press <b>New hand</b> to play again."``.
    """

    def __init__(self, *, again: str, four_color: bool = False) -> None:
        self.again = again
        self.log = HTML(layout=Layout(width="100%"))
        self.battle_title = HTML()
        self.battle = BattleView(four_color=four_color)
        self.battle_box = VBox([self.battle_title, self.battle])
        self.result = HTML()

    @property
    def battle_shown(self) -> bool:
        return self.battle_box.layout.display != "none"

    def show(
        self, game: Game, pairs: Sequence[tuple[Event, str]], seat: int | None, reveal: bool
    ) -> None:
        """Draw the log lines `pairs` (event, text as seen) and the battle and result of `game`."""
        rows = [
            f'<div class="palace-log-line"><span class="palace-log-num">#{ev.index}</span>'
            f"{rule_badge(ev.rule)}<span>{esc(text)}</span></div>"
            for ev, text in pairs
        ]
        self.log.value = root(
            '<div class="palace-section">Latest events</div>'
            f'<div class="palace-log" aria-live="polite">{"".join(rows)}</div>'
        )
        battle = latest_battle(game, seat, reveal)
        if battle is None:
            self.battle_box.layout.display = "none"
        else:
            self.battle.show_event(battle, game.names)
            self.battle_title.value = root(
                f'<div class="palace-section">Latest battle (event #{battle.index})</div>'
            )
            self.battle_box.layout.display = None
        if game.is_over and game.result is not None:
            r = game.result
            shares = ", ".join(f"{game.names[s]} +{v}" for s, v in r.shares.items())
            self.result.value = root(
                '<div class="palace-result" role="status">'
                '<span class="palace-trophy" aria-hidden="true">★</span>'
                f"{esc(r.text)} {rule_badge(r.rule)}"
                f'<div class="palace-verdict-line">Shares: {esc(shares)}. '
                f"{self.again}</div></div>"
            )
        else:
            self.result.value = ""

    def text(self, game: Game, pairs: Sequence[tuple[Event, str]]) -> list[str]:
        """The log, the battle (if shown) and the result, as plain-text lines."""
        parts = ["== Latest events =="]
        parts += [f"#{ev.index} {text} ({ev.rule})" for ev, text in pairs]
        if self.battle_shown:
            parts += ["== Latest battle ==", self.battle.text()]
        if game.is_over and game.result is not None:
            parts += ["== Result ==", f"{game.result.text} ({game.result.rule})"]
        return parts
