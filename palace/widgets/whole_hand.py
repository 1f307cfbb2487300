"""A whole hand in one ``<details>`` block: every step's sentence and each battle's cards.

A stepping panel draws one step at a time; this block, an HTML child that is always in the
panel, holds the whole story, so the stored widget state (a notebook on GitHub, nbviewer,
JupyterLab without a kernel, a handout) and a screen reader show every step, and a reader
can open it at any time. It is plain HTML (no widget per step) and respects what a seat
may see: sentences as `sentence_for` gives them, battles only where `shows_battle` allows.

>>> from palace.game import Game
>>> from palace.analysis.bots import RuleBot, play_out
>>> g = play_out(Game.new(players=3, seed=4), {s: RuleBot() for s in range(3)})
>>> html = story_html(g, None, True, title="The whole hand")
>>> html.startswith('<details class="palace-whole-hand"') and html.count("<li") == len(g.events)
True
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from palace.events import Event
from palace.game import Game
from palace.views import sentence_for
from palace.widgets.battle_view import armies_of, army_rows_html, shows_battle, side_head_html
from palace.widgets.theme import esc, symbols

WHOLE_CSS = """<style>
.palace-whole-hand { margin-top: 6px; border: 1px solid #cbd5e1; border-radius: 12px;
  background: #f8fafc; padding: 6px 12px; }
.palace-whole-hand > summary { cursor: pointer; font-weight: 700; color: #1e3a8a;
  font-size: 15px; padding: 2px 0; }
.palace-whole-hand ol { margin: 6px 0 4px; padding-left: 0; list-style: none; }
.palace-whole-hand li { padding: 2px 0; }
.palace-whole-step { margin: 10px 0 4px; padding-top: 6px; border-top: 1px solid #e2e8f0; }
.palace-whole-step-head { font-weight: 750; color: #92400e; }
.palace-whole-battle { margin: 4px 0 8px 42px; display: grid; gap: 10px;
  grid-template-columns: repeat(auto-fit, minmax(min(240px, 100%), 1fr)); }
</style>"""


def pill(rule: str) -> str:
    """A clause number as a plain pill (the story names many; the panel's badges open them)."""
    return f'<span class="palace-badge">{esc(rule)}</span>' if rule else ""


def battle_html(event: Event, names: Sequence[str], *, four_color: bool = False) -> str:
    """Both armies of a battle showdown, struck-out cards (R8.2) and best five marked."""
    res = event.detail["battle"]
    sides = []
    for role, seat, army, hand in (
        ("attacker", event.detail["attacker"], armies_of(event)[0], res.attacker_hand),
        ("defender", event.detail["defender"], armies_of(event)[1], res.defender_hand),
    ):
        struck = {c: "the opponent's banner suit (R8.2)" for c in hand.excluded}
        rows = army_rows_html(
            army, four_color=four_color, small=True, struck=struck, highlight=set(hand.best)
        )
        sides.append(
            f'<div class="palace-side">{side_head_html(names[seat], role, army.banner.suit)}'
            f'{rows}<div class="palace-note">{esc(hand.describe())}: best five '
            f"{esc(symbols(hand.best))}</div></div>"
        )
    return f'<div class="palace-whole-battle">{"".join(sides)}</div>'


def event_rows(
    game: Game,
    events: Iterable[Event],
    seat: int | None,
    reveal: bool,
    *,
    four_color: bool = False,
) -> str:
    """One ``<li>`` per event (step number, clause, sentence as `seat` reads it), with the
    battle's cards under a showdown `seat` may see."""
    rows = []
    for ev in events:
        text = ev.text if reveal else sentence_for(ev, seat)
        battle = (
            battle_html(ev, game.names, four_color=four_color)
            if shows_battle(ev, seat, reveal)
            else ""
        )
        rows.append(
            f'<li><div class="palace-log-line"><span class="palace-log-num">{ev.index + 1}'
            f"</span>{pill(ev.rule)}<span>{esc(text)}</span></div>{battle}</li>"
        )
    return "".join(rows)


def details_html(summary: str, body: str, *, opened: bool = False) -> str:
    """The ``<details>`` block around a story (closed unless `opened`)."""
    return (
        f'<details class="palace-whole-hand"{" open" if opened else ""}>'
        f"<summary>{esc(summary)}</summary>{body}</details>"
    )


def story_html(
    game: Game,
    seat: int | None,
    reveal: bool,
    *,
    title: str = "The whole hand, step by step",
    four_color: bool = False,
) -> str:
    """Every event of `game` as `seat` may read it (all cards if `reveal`), in a block."""
    body = f"<ol>{event_rows(game, game.events, seat, reveal, four_color=four_color)}</ol>"
    return details_html(f"{title} ({len(game.events)} steps)", body)
