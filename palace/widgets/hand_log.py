"""`HandLog` and `LatestBattle`: the latest events, battle and result of a hand being played.

`HandLog` is shared by `PlayPanel` (the learner's panel) and `PlayTab` (the app's Play tab).
It is not a container: it owns the widgets (`log`, `battle_box`, `result`) and each panel
places them where it likes; `show` redraws them and `text` gives the same in plain text.
`LatestBattle` (the "Latest battle" box) also stands alone in `TurnDesk`.
"""

from __future__ import annotations

from ipywidgets import HTML, VBox

from palace.events import Event
from palace.game import Game
from palace.views import sentence_for
from palace.widgets.battle_view import BattleView, shows_battle
from palace.widgets.theme import esc, root, rule_badge, shared_layout


def latest_battle(game: Game, seat: int | None, reveal: bool) -> Event | None:
    """The last battle event whose armies `seat` may see (every battle if `reveal`)."""
    for ev in reversed(game.events):
        if shows_battle(ev, seat, reveal):
            return ev
    return None


class LatestBattle(VBox):
    """The last battle showdown a seat may see, under a title; hidden while there is none.

    title: the box's heading, followed by the event number ("Latest battle (step 41)").
    heading: the same in `text()` ("== Latest battle ==").
    """

    def __init__(
        self, title: str = "Latest battle", *, heading: str | None = None, four_color: bool = False
    ) -> None:
        self._title = title
        self._heading = heading or title
        self._head = HTML(layout=shared_layout())  # never hidden: the box around it is
        self._battle = BattleView(four_color=four_color)
        super().__init__([self._head, self._battle])
        self.layout.display = "none"

    @property
    def battle(self) -> BattleView:
        return self._battle

    @property
    def shown(self) -> bool:
        """Is a battle shown (False until `seat` has seen one)?"""
        return self.layout.display != "none"

    def show(self, game: Game, seat: int | None, reveal: bool) -> None:
        """Show the last battle of `game` that `seat` may see (any battle if `reveal`)."""
        ev = latest_battle(game, seat, reveal)
        if ev is None:
            self.layout.display = "none"
            return
        self._battle.show_event(ev, game.names)
        self._head.value = root(
            f'<div class="palace-section">{esc(self._title)} (step {ev.index + 1})</div>'
        )
        self.layout.display = None

    def text(self) -> list[str]:
        """The heading and the battle as plain-text lines (none while hidden)."""
        return [f"== {self._heading} ==", self._battle.text()] if self.shown else []


class HandLog:
    """The "Latest events" log, the "Latest battle" box and the hand result box.

    `again` is the HTML of the result line's closing instruction, e.g.
    ``"Press <b>New hand</b> to play again."``; `lines` is how many events the log shows.
    """

    def __init__(self, *, again: str, lines: int = 8, four_color: bool = False) -> None:
        self.again = again
        self.lines = lines
        self.log = HTML(layout=shared_layout(width="100%"))
        self.battle_box = LatestBattle(four_color=four_color)
        self.result = HTML(layout=shared_layout())

    @property
    def battle(self) -> BattleView:
        return self.battle_box.battle

    @property
    def battle_shown(self) -> bool:
        return self.battle_box.shown

    def pairs(self, game: Game, seat: int | None, reveal: bool) -> list[tuple[Event, str]]:
        """The log's last events with their sentences as `seat` reads them (all if `reveal`)."""
        return [
            (ev, ev.text if reveal else sentence_for(ev, seat)) for ev in game.events[-self.lines :]
        ]

    def show(self, game: Game, seat: int | None, reveal: bool, since: int | None = None) -> None:
        """Draw the log, the latest battle and the result of `game` as `seat` sees it.

        since: the first event since the learner's last move; those lines are highlighted
        (what changed)."""
        start = len(game.events) if since is None else since
        rows = [
            f'<div class="palace-log-line{" palace-new" if ev.index >= start else ""}">'
            f'<span class="palace-log-num">{ev.index + 1}</span>'
            f"{rule_badge(ev.rule)}<span>{esc(text)}</span></div>"
            for ev, text in self.pairs(game, seat, reveal)
        ]
        self.log.value = root(
            '<div class="palace-section">Latest events</div>'
            f'<div class="palace-log" aria-live="polite">{"".join(rows)}</div>'
        )
        self.battle_box.show(game, seat, reveal)
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

    def text(self, game: Game, seat: int | None, reveal: bool) -> list[str]:
        """The log, the battle (if shown) and the result, as plain-text lines."""
        parts = ["== Latest events =="]
        parts += [
            f"{ev.index + 1}. {text} ({ev.rule})" for ev, text in self.pairs(game, seat, reveal)
        ]
        parts += self.battle_box.text()
        if game.is_over and game.result is not None:
            parts += ["== Result ==", f"{game.result.text} ({game.result.rule})"]
        return parts
