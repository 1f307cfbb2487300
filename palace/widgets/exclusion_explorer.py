"""`ExclusionExplorer`: type or pick cards and banner suits; the best hand with and without R8.2."""

from __future__ import annotations

from ipywidgets import HTML, Dropdown, HBox, Layout, Text, ToggleButton, VBox
from ipywidgets.widgets.widget_bool import ToggleButtonStyle

from palace.cards import Card, Rank, Suit, parse_cards
from palace.errors import CardError
from palace.hands import Hand, evaluate
from palace.widgets.cards import cards_html, face
from palace.widgets.theme import esc, root, rule_badge, style_widget, symbols
from palace.words import plural

NO_SUIT = "none"  # the opponent dropdown's "no battle" choice (a Dropdown value cannot be None)
MAX_CARDS = 9  # banner + five soldiers + three palace cards (R8.1)
_SUITS = [
    (f"{s.symbol} {s.noun}", s) for s in (Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS)
]
_RANKS = sorted(Rank, reverse=True)


def _suit_colour(suit: Suit, four_color: bool) -> str:
    """Text colour of a suit (matches the card faces)."""
    if four_color:
        return {Suit.CLUBS: "#15803d", Suit.DIAMONDS: "#1d4ed8", Suit.HEARTS: "#c81e1e"}.get(
            suit, "#111111"
        )
    return "#c81e1e" if suit in (Suit.HEARTS, Suit.DIAMONDS) else "#111111"


def _opponent_options(own: Suit) -> list[tuple[str, object]]:
    """The opponent's banner suits a player of banner suit `own` can battle: never their own
    (R7.2), or no battle at all."""
    return [("none (no battle)", NO_SUIT)] + [(label, s) for label, s in _SUITS if s != own]


class ExclusionExplorer(VBox):
    """Live best hand of some cards, as dealt and against an opponent's banner suit (R8.2).

    The opponent's suit is never the player's own: players of the same banner suit never
    battle (R7.2), so that choice is not offered.
    """

    def __init__(
        self,
        cards: str = "As Ks Qs Js 9s 2h",
        *,
        own: Suit | str = "h",
        opponent: Suit | str | None = "s",
        four_color: bool = False,
    ) -> None:
        self.four_color = four_color
        own_suit = Suit.parse(own)
        opp_suit = None if opponent is None else Suit.parse(opponent)
        if opp_suit == own_suit:
            raise ValueError(
                f"the opponent's banner suit cannot be {own_suit.noun}, the player's own: "
                "players of the same banner suit never battle (R7.2)"
            )
        self._css = style_widget()
        self._cards = Text(
            style={"description_width": "initial"},
            value=cards,
            description="Cards",
            placeholder="e.g. As Ks Qs Js 9s 2h",
            continuous_update=True,
            layout=Layout(width="420px"),
        )
        self._own = Dropdown(
            options=_SUITS,
            value=own_suit,
            description="Own banner suit",
            style={"description_width": "initial"},
            layout=Layout(width="240px"),
        )
        self._opp = Dropdown(
            options=_opponent_options(own_suit),
            value=NO_SUIT if opp_suit is None else opp_suit,
            description="Opponent's banner suit",
            style={"description_width": "initial"},
            layout=Layout(width="310px"),
        )
        self._show_grid = ToggleButton(
            value=False,
            description="Pick cards…",
            icon="th",
            tooltip="pick the cards from a grid of the deck",
            layout=Layout(width="130px"),
        )
        self._grid_buttons: dict[Card, ToggleButton] = {}
        self._grid = VBox(layout=Layout(display="none", grid_gap="2px"))  # built when opened
        self._error = HTML()
        self._out = HTML(layout=Layout(width="100%"))
        self._current: tuple[Card, ...] = ()
        self._message = ""
        self._syncing = False

        self._cards.observe(self._on_input, names="value")
        self._own.observe(self._on_own, names="value")
        self._opp.observe(self._on_input, names="value")
        self._show_grid.observe(self._on_show_grid, names="value")
        super().__init__(
            [
                self._css,
                HBox([self._cards, self._show_grid], layout=Layout(flex_flow="row wrap")),
                HBox([self._own, self._opp], layout=Layout(flex_flow="row wrap")),
                self._grid,
                self._error,
                self._out,
            ],
            layout=Layout(width="100%", grid_gap="6px"),
        )
        self.add_class("palace-panel")
        self.add_class("palace-explorer")
        self._update()

    # ------------------------------------------------------------------ public
    @property
    def cards_input(self) -> Text:
        return self._cards

    @property
    def own_suit(self) -> Dropdown:
        return self._own

    @property
    def opponent_suit(self) -> Dropdown:
        return self._opp

    @property
    def grid(self) -> dict[Card, ToggleButton]:
        self._build_grid()
        """One toggle per card of the deck, kept in step with the typed cards."""
        return dict(self._grid_buttons)

    @property
    def cards(self) -> tuple[Card, ...]:
        """The cards of the last valid input."""
        return self._current

    @property
    def error(self) -> str:
        """The message about the last bad input ("" when the input is valid)."""
        return self._message

    @property
    def html(self) -> str:
        """What the panel draws under the inputs: the input's alert (if any) and both hands."""
        return self._error.value + self._out.value

    def hands(self) -> tuple[Hand, Hand | None]:
        """The best hand without exclusion, and with it (None when no opponent suit)."""
        opp = self._opp_suit()
        return evaluate(self._current), (
            None if opp is None else evaluate(self._current, exclude_suit=opp)
        )

    def _opp_suit(self) -> Suit | None:
        v = self._opp.value
        return None if v == NO_SUIT else v

    def refresh(self) -> None:
        """Redraw (after `four_color` changed)."""
        self._update()

    # ------------------------------------------------------------------ callbacks
    def _on_input(self, _: dict) -> None:
        if not self._syncing:
            self._update()

    def _on_own(self, change: dict) -> None:
        """A new own suit: the opponent's choices leave it out (R7.2)."""
        own = change["new"]
        keep = self._opp.value
        self._syncing = True
        try:
            self._opp.options = _opponent_options(own)
            self._opp.value = NO_SUIT if keep == own else keep
        finally:
            self._syncing = False
        self._update()

    def _on_show_grid(self, change: dict) -> None:
        if change["new"]:
            self._build_grid()
        self._grid.layout.display = None if change["new"] else "none"

    def _build_grid(self) -> None:
        """The deck as 52 toggles, built the first time the grid is opened (issue 26)."""
        if self._grid_buttons:
            return
        rows = []
        for suit in (Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS):
            row = []
            for rank in _RANKS:
                c = Card.from_index(int(suit) * 13 + int(rank) - 2)
                b = ToggleButton(
                    value=False,
                    description=face(c),
                    tooltip=c.name,
                    style=ToggleButtonStyle(),  # its own: its text colour changes
                    layout=Layout(width="46px", height="30px"),
                )
                b.observe(self._on_grid, names="value")
                self._grid_buttons[c] = b
                row.append(b)
            rows.append(HBox(row, layout=Layout(grid_gap="2px")))
        self._grid.children = rows
        self._sync_grid()

    def _on_grid(self, change: dict) -> None:
        if self._syncing:
            return
        card = next(c for c, b in self._grid_buttons.items() if b is change["owner"])
        cards = [c for c in self._current if c != card]
        if change["new"]:
            cards.append(card)
        self._cards.value = " ".join(str(c) for c in cards)  # observer updates the rest

    # ------------------------------------------------------------------ logic
    def _parse(self, text: str) -> tuple[Card, ...]:
        cards = parse_cards(text)
        seen: set[Card] = set()
        for c in cards:
            if c in seen:
                raise CardError(f"{c} appears twice: a deck has each card once (R1.2)")
            seen.add(c)
        if len(cards) > MAX_CARDS:
            raise CardError(
                f"{len(cards)} cards: a player holds at most {MAX_CARDS} — banner, five soldiers "
                f"and three palace cards (R8.1)"
            )
        return cards

    def _update(self) -> None:
        try:
            cards = self._parse(self._cards.value)
        except CardError as exc:
            self._message = str(exc)
            self._error.value = root(
                f'<div class="palace-error" role="alert">✗ {esc(exc)} — showing the last good '
                f"cards.</div>"
            )
            self._render()
            return
        self._message = ""
        self._error.value = ""
        self._current = cards
        self._sync_grid()
        self._render()

    def _sync_grid(self) -> None:
        """The grid's toggles as the cards say (nothing to do before it is built)."""
        cards = self._current
        self._syncing = True
        try:
            for c, b in self._grid_buttons.items():
                b.value = c in cards
                b.button_style = "info" if c in cards else ""
                b.style.text_color = (
                    "white" if c in cards else _suit_colour(c.suit, self.four_color)
                )
        finally:
            self._syncing = False

    # ------------------------------------------------------------------ drawing
    def _column(self, title: str, hand: Hand, struck: dict[Card, str]) -> str:
        fc = self.four_color
        row = cards_html(
            self._current, four_color=fc, struck=struck, highlight=hand.best, empty="no cards"
        )
        return (
            f'<div class="palace-side"><div class="palace-side-head"><b>{title}</b></div>{row}'
            f'<div class="palace-hand-name">{esc(hand.describe())}</div>'
            f'<div class="palace-note">Best five: {esc(symbols(hand.best))}</div></div>'
        )

    def _render(self) -> None:
        plain, ex = self.hands()
        own, opp = self._own.value, self._opp_suit()
        left = self._column("As dealt: every card counts", plain, {})
        if ex is None or opp is None:
            right = (
                '<div class="palace-side"><div class="palace-side-head"><b>No opponent</b></div>'
                '<div class="palace-note">Choose the opponent\'s banner suit to see what the '
                f"banner-suit exclusion takes away {rule_badge('R8.2')}.</div></div>"
            )
            taken = ""
        else:
            reason = f"{opp.symbol} is the opponent's banner suit — does not count, R8.2"
            right = self._column(
                f"Against a {esc(opp.symbol)} banner {rule_badge('R8.2')}",
                ex,
                {c: reason for c in ex.excluded},
            )
            if ex.excluded:
                taken = (
                    f'<div class="palace-taken">The rule takes away '
                    f"<b>{esc(symbols(ex.excluded))}</b>: {esc(plain.describe())} → "
                    f"<b>{esc(ex.describe())}</b> {rule_badge('R8.2')}"
                    + (f" {rule_badge('R8.3')}" if ex.is_short else "")
                    + "</div>"
                )
            else:
                taken = (
                    f'<div class="palace-taken">No {esc(opp.noun)} here: the exclusion takes '
                    "nothing away.</div>"
                )
        notes = []
        count = sum(1 for c in self._current if c.suit == own)
        notes.append(
            f"Own banner suit {esc(own.symbol)}: {plural(count, 'card')} for the "
            f"tie-break count {rule_badge('R8.5')}"
        )
        notes.append(f"the opponent is never of your own banner suit {rule_badge('R7.2')}")
        body = (
            f'<div class="palace-compare">{left}{right}</div>{taken}'
            f'<div class="palace-note" style="margin-top:8px">{" · ".join(notes)}</div>'
        )
        self._out.value = root(body)

    # ------------------------------------------------------------------ text
    def text(self) -> str:
        """The comparison in plain text (and the input error, if any)."""
        plain, ex = self.hands()
        own, opp = self._own.value, self._opp_suit()
        lines = [
            f"Cards: {symbols(self._current)}",
            f"Own banner {own.symbol} · opponent's banner {opp.symbol if opp else 'none'}",
            f"Without exclusion: {plain.describe()} — best five {symbols(plain.best)}",
        ]
        if ex is not None and opp is not None:
            lines.append(
                f"With {opp.symbol} excluded (R8.2): {ex.describe()} — best five {symbols(ex.best)}"
            )
            lines.append(f"Taken away: {symbols(ex.excluded)}")
        lines.append(f"Own-banner cards (R8.5): {sum(1 for c in self._current if c.suit == own)}")
        if self._message:
            lines.append(f"Error: {self._message}")
        return "\n".join(lines)
