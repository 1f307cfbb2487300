"""`TableView`: the felt table — every seat's banner, soldiers and palace, the pot and the piles."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from ipywidgets import HTML, VBox

from palace.cards import Card
from palace.events import Phase
from palace.game import Game
from palace.table import DEFAULT_NAMES, Snapshot
from palace.views import SeatView
from palace.widgets.cards import backs_html, card_html, cards_html
from palace.widgets.theme import esc, root, shared_layout, style_widget, symbols

_WAITING = {
    Phase.TURN: "to act",
    Phase.BATTLE_RESPONSE: "to answer the attack",
    Phase.TRIM_TO_FIVE: "to choose discards",
}


@dataclass
class _Seat:
    seat: int
    name: str
    banner: Card | None
    soldiers: tuple[Card, ...]
    shown: tuple[Card, ...]  # palace cards this view may show face up
    hidden: int  # palace cards shown face down
    cut: tuple[Card, ...]
    active: bool
    put_in: int
    won: int
    stack: int | None
    seen: frozenset[Card] = field(default_factory=frozenset)  # shown only because seen in battle


@dataclass
class _Table:
    seats: list[_Seat]
    pot: int
    deck: int
    discard: int
    rejects: tuple[Card, ...]
    phase: Phase
    to_act: int | None
    dealer: int | None
    perspective: int | None
    reveal_all: bool
    battle: str | None
    index: int | None
    focus: int | None = None


def _zone(zones: dict[str, tuple[Card, ...]], seat: int, part: str) -> tuple[Card, ...]:
    return tuple(zones.get(f"seat{seat}.{part}", ()))


def _seats(
    zones: dict[str, tuple[Card, ...]],
    names: Sequence[str],
    active: Sequence[bool],
    put_in: Sequence[int],
    won: Sequence[int],
    stacks: Sequence[int | None] | None,
    perspective: int | None,
    reveal_all: bool,
    view: SeatView | None = None,
) -> list[_Seat]:
    """Every seat as shown: palaces face up for `reveal_all` and the perspective's own seat,
    the palace cards `view` saw in its battles, the rest face down."""
    seats = []
    for s, name in enumerate(names):
        palace = _zone(zones, s, "palace")
        seen: frozenset[Card] = frozenset()  # shown only because seen in a battle
        if reveal_all or s == perspective:
            shown = palace
        elif view is not None:
            shown = view.known_palace(s)
            seen = frozenset(shown)
        else:
            shown = ()
        banner = _zone(zones, s, "banner")
        seats.append(
            _Seat(
                s,
                name,
                banner[0] if banner else None,
                _zone(zones, s, "soldiers"),
                shown,
                len(palace) - len(shown),
                _zone(zones, s, "cut"),
                active[s],
                put_in[s],
                won[s],
                None if stacks is None else stacks[s],
                seen,
            )
        )
    return seats


def _from_game(game: Game, perspective: int | None, reveal_all: bool) -> _Table:
    zones = game.zones()
    view = game.view(perspective) if perspective is not None else None
    seats = _seats(
        zones,
        game.names,
        game.active,
        game.put_in,
        game.won,
        game.stacks,
        perspective,
        reveal_all,
        view,
    )
    battle = None
    b = game.battle
    if b is not None:
        names = game.names
        battle = (
            f"{names[b.attacker]} attacks {names[b.defender]}: {names[b.to_act]} owes "
            f"{b.owed} to call"
        )
    return _Table(
        seats,
        game.pot,
        len(zones["deck"]),
        len(zones["discard"]),
        tuple(zones["rejects"]),
        game.phase,
        game.to_act,
        game.dealer,
        perspective,
        reveal_all,
        battle,
        None,
    )


def _from_snapshot(
    snap: Snapshot,
    perspective: int | None,
    reveal_all: bool,
    names: Sequence[str] | None,
    dealer: int | None,
    stacks: Sequence[int | None] | None,
) -> _Table:
    zones = snap.zones
    n = len(snap.active)
    names = tuple(names) if names is not None else DEFAULT_NAMES[:n]
    seats = _seats(
        zones, names[:n], snap.active, snap.put_in, snap.won, stacks, perspective, reveal_all
    )
    return _Table(
        seats,
        snap.pot,
        len(zones["deck"]),
        len(zones["discard"]),
        tuple(zones["rejects"]),
        snap.phase,
        snap.to_act,
        dealer,
        perspective,
        reveal_all,
        None,
        snap.index,
    )


def _status(t: _Table) -> str:
    """Phase and whose decision it is, in words."""
    phase = str(t.phase).capitalize()
    if t.to_act is not None and t.phase in _WAITING:
        who = t.seats[t.to_act].name
        return f"{phase} · {who} {_WAITING[t.phase]}"
    return phase


def _palace_text(s: _Seat) -> str:
    shown = " ".join(c.symbol for c in s.shown)
    if s.hidden:
        return f"{shown} + {s.hidden} face-down" if shown else f"{s.hidden} face-down"
    return shown or "none"


class TableView(VBox):
    """The table at one moment: from a `Game` (live) or a `Snapshot` (`game.state_at(i)`).

    perspective None shows only public cards; a seat shows that seat's palace (and the
    palace cards it saw in its battles); `reveal_all` shows every card (instructor).
    """

    def __init__(
        self,
        source: Game | Snapshot | None = None,
        *,
        perspective: int | None = None,
        reveal_all: bool = False,
        four_color: bool = False,
        names: Sequence[str] | None = None,
        dealer: int | None = None,
    ) -> None:
        self._css = style_widget()
        self._html = HTML(layout=shared_layout(width="100%"))
        super().__init__([self._css, self._html], layout=shared_layout(width="100%"))
        self.add_class("palace-panel")
        self.add_class("palace-tableview")
        self.four_color = four_color
        self._table: _Table | None = None
        if source is not None:
            self.show(source, perspective, reveal_all, names=names, dealer=dealer)
        else:
            self._html.value = root('<div class="palace-table">No hand yet.</div>')

    # ------------------------------------------------------------------ showing
    def show(
        self,
        source: Game | Snapshot,
        perspective: int | None = None,
        reveal_all: bool = False,
        *,
        names: Sequence[str] | None = None,
        dealer: int | None = None,
        stacks: Sequence[int | None] | None = None,
        focus: int | None = None,
    ) -> None:
        """Draw `source`. A `Snapshot` knows no names or dealer: pass them (the stepper does).

        focus: a seat to ring (the seat the current event is about).
        """
        if isinstance(source, Game):
            self._table = _from_game(source, perspective, reveal_all)
        elif isinstance(source, Snapshot):
            self._table = _from_snapshot(source, perspective, reveal_all, names, dealer, stacks)
        else:
            raise TypeError(
                f"TableView.show needs a Game or a Snapshot, got {type(source).__name__}"
            )
        self._table.focus = focus
        self._html.value = root(self._render(self._table))

    def refresh(self) -> None:
        """Redraw (after `four_color` changed)."""
        if self._table is not None:
            self._html.value = root(self._render(self._table))

    @property
    def html(self) -> str:
        """The HTML of the table (without the style sheet)."""
        return self._html.value

    # ------------------------------------------------------------------ html
    def _render(self, t: _Table) -> str:
        fc = self.four_color
        pile = card_html("As", face_down=True, small=True)
        top = [
            f'<div class="palace-pot"><span class="palace-chip"></span>Pot <b>{t.pot}</b></div>',
            f'<div class="palace-pile">{pile}<span>Draw deck<br><b>{t.deck}</b></span></div>',
            f'<div class="palace-pile">{pile}<span>Discards<br><b>{t.discard}</b></span></div>',
        ]
        status = esc(_status(t))
        if t.battle:
            status += f"<br><b>Battle:</b> {esc(t.battle)}"
        mode = (
            "all cards shown"
            if t.reveal_all
            else "public cards only"
            if t.perspective is None
            else f"seen by {t.seats[t.perspective].name}"
        )
        top.append(
            f'<div class="palace-status">{status}<br>'
            f'<span style="opacity:.75;font-size:13px">View: {esc(mode)}</span></div>'
        )
        out = [f'<div class="palace-table"><div class="palace-table-top">{"".join(top)}</div>']
        if t.rejects:
            out.append(
                '<div class="palace-rejects"><span><b>Banner rejects</b> (face up, R4.3)</span>'
                f"{cards_html(t.rejects, four_color=fc, small=True)}</div>"
            )
        out.append('<div class="palace-seats">')
        for s in t.seats:
            out.append(self._seat(t, s))
        out.append("</div></div>")
        return "".join(out)

    def _seat(self, t: _Table, s: _Seat) -> str:
        fc = self.four_color
        classes = ["palace-seat"]
        tags = []
        if t.dealer == s.seat:
            tags.append('<span class="palace-dealer" title="Dealer" aria-label="dealer">D</span>')
        if t.perspective == s.seat:
            classes.append("palace-is-you")
            tags.append('<span class="palace-tag palace-tag-you">you</span>')
        if t.to_act == s.seat and t.phase in _WAITING:
            classes.append("palace-to-act")
            tags.append(f'<span class="palace-tag palace-tag-act">{_WAITING[t.phase]}</span>')
        if t.focus == s.seat:
            classes.append("palace-focus")
        if not s.active:
            classes.append("palace-is-out")
            tags.append('<span class="palace-tag palace-tag-out">out</span>')
        money = f"put in <b>{s.put_in}</b>"
        if s.won:
            money += f" · won <b>{s.won}</b>"
        if s.stack is not None:
            money += f" · stack <b>{s.stack}</b>"
        head = (
            f'<div class="palace-seat-head"><span class="palace-name">{esc(s.name)}</span>'
            f'{"".join(tags)}<span class="palace-money">{money}</span></div>'
        )
        zones = []
        if s.cut:
            zones.append(
                self._zone("Drew for the deal", cards_html(s.cut, four_color=fc, small=True))
            )
        banner = cards_html([s.banner] if s.banner else [], four_color=fc, small=True, empty="—")
        zones.append(self._zone("Banner", banner))
        zones.append(
            self._zone(
                f"Soldiers ({len(s.soldiers)})",
                cards_html(s.soldiers, four_color=fc, small=True, empty="none"),
            )
        )
        palace = ""
        if s.shown:
            notes = {c: "seen in a battle" for c in s.seen}
            palace += cards_html(s.shown, four_color=fc, small=True, notes=notes)
        if s.hidden:
            palace += backs_html(s.hidden, small=True)
        if not palace:
            palace = '<span class="palace-none">none</span>'
        zones.append(self._zone("Palace", palace))
        return (
            f'<div class="{" ".join(classes)}" data-seat="{s.seat}">{head}'
            f'<div class="palace-zones">{"".join(zones)}</div></div>'
        )

    @staticmethod
    def _zone(label: str, body: str) -> str:
        return f'<div><div class="palace-zone-label">{esc(label)}</div>{body}</div>'

    # ------------------------------------------------------------------ text
    def text(self) -> str:
        """A plain-text summary of what is shown (for tests and notebooks)."""
        t = self._table
        if t is None:
            return "No hand yet."
        lines = [
            f"Pot {t.pot} · draw deck {t.deck} · discards {t.discard} · {_status(t)}",
        ]
        if t.battle:
            lines.append(f"Battle: {t.battle}")
        if t.rejects:
            lines.append(f"Banner rejects: {symbols(t.rejects)}")
        for s in t.seats:
            marks = []
            if t.dealer == s.seat:
                marks.append("dealer")
            if t.perspective == s.seat:
                marks.append("you")
            if t.to_act == s.seat and t.phase in _WAITING:
                marks.append(_WAITING[t.phase])
            if not s.active:
                marks.append("out")
            who = s.name + (f" ({', '.join(marks)})" if marks else "")
            parts = []
            if s.cut:
                parts.append(f"drew {symbols(s.cut)}")
            parts += [
                f"banner {s.banner.symbol if s.banner else 'none'}",
                f"soldiers {symbols(s.soldiers)}",
                f"palace {_palace_text(s)}",
                f"put in {s.put_in}",
            ]
            if s.won:
                parts.append(f"won {s.won}")
            if s.stack is not None:
                parts.append(f"stack {s.stack}")
            lines.append(f"{who}: " + " · ".join(parts))
        return "\n".join(lines)
