"""HTML/CSS playing cards with text alternatives, four-colour suits, backs and struck-out cards."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from ipywidgets import HTML, HBox, Layout

from palace.cards import Card, Suit, parse_cards
from palace.widgets.theme import esc, symbols

CARD_CSS = """<style>
.palace-card { position: relative; display: inline-block; flex: none; width: 62px; height: 88px;
  border-radius: 8px; background: linear-gradient(160deg, #ffffff 0%, #f7f5ee 100%);
  border: 1px solid #cfcabc; box-shadow: 0 2px 4px rgba(0,0,0,.28);
  font-family: Georgia, "DejaVu Serif", "Times New Roman", serif; color: #111;
  vertical-align: top; user-select: none; line-height: 1; }
.palace-card .palace-corner { position: absolute; display: flex; flex-direction: column;
  align-items: center; width: 22px; }
.palace-card .palace-tl { top: 5px; left: 3px; }
.palace-card .palace-br { bottom: 5px; right: 3px; transform: rotate(180deg); }
.palace-card .palace-rank { font-size: 20px; font-weight: 700; letter-spacing: -1px; }
.palace-card .palace-pip { font-size: 16px; margin-top: 1px; }
.palace-card .palace-center { position: absolute; left: 0; right: 0; top: 50%;
  transform: translateY(-50%); text-align: center; font-size: 32px; }
.palace-card.palace-small { width: 42px; height: 60px; border-radius: 6px; }
.palace-card.palace-small .palace-rank { font-size: 15px; }
.palace-card.palace-small .palace-pip { font-size: 12px; }
.palace-card.palace-small .palace-tl { top: 3px; left: 1px; width: 18px; }
.palace-card.palace-small .palace-br { display: none; }
.palace-card.palace-small .palace-center { font-size: 22px; top: 62%; }
.palace-card.palace-red { color: #c81e1e; }
.palace-card.palace-4c.palace-suit-c { color: #15803d; }
.palace-card.palace-4c.palace-suit-d { color: #1d4ed8; }
.palace-card.palace-4c.palace-suit-h { color: #c81e1e; }
.palace-card.palace-4c.palace-suit-s { color: #111111; }
.palace-card.palace-4c.palace-suit-c, .palace-card.palace-4c.palace-suit-d {
  background: linear-gradient(160deg, #ffffff 0%, #f2f6f4 100%); }
.palace-card.palace-back { background-color: #1e3a8a; border: 1px solid #0b1a4a;
  background-image: repeating-linear-gradient(45deg, rgba(255,255,255,.16) 0 3px,
  transparent 3px 9px), repeating-linear-gradient(-45deg, rgba(255,255,255,.16) 0 3px,
  transparent 3px 9px); box-shadow: inset 0 0 0 3px #fdfcf7, inset 0 0 0 4px #0b1a4a,
  0 2px 4px rgba(0,0,0,.3); }
.palace-card.palace-hl { box-shadow: 0 0 0 3px #f2b705, 0 3px 8px rgba(0,0,0,.35);
  transform: translateY(-3px); }
.palace-card.palace-struck { background: #ecebe6; opacity: .82; }
.palace-card.palace-struck > .palace-corner, .palace-card.palace-struck > .palace-center {
  opacity: .45; }
.palace-card.palace-struck::after { content: ""; position: absolute; inset: 0;
  border-radius: inherit; background: linear-gradient(to top right, transparent calc(50% - 2.5px),
  #dc2626 calc(50% - 2.5px), #dc2626 calc(50% + 2.5px), transparent calc(50% + 2.5px)); }
.palace-card.palace-seen { box-shadow: 0 0 0 2px #60a5fa, 0 2px 4px rgba(0,0,0,.28); }
.palace-cards { display: inline-flex; flex-wrap: wrap; gap: 6px; align-items: flex-start;
  padding-top: 3px; }
.palace-cards.palace-tight { gap: 4px; }
</style>"""

RED_SUITS = (Suit.HEARTS, Suit.DIAMONDS)
FACE_DOWN_LABEL = "face-down card"


def _rank_text(card: Card) -> str:
    letter = card.rank.letter
    return "10" if letter == "T" else letter


def card_label(card: Card, struck: str | None = None, extra: str | None = None) -> str:
    """The text alternative of a card: ``"King of spades"`` (plus why it is struck out)."""
    label = card.name
    if struck:
        label += f" (struck out: {struck})"
    elif extra:
        label += f" ({extra})"
    return label


def card_html(
    card: Card | str,
    *,
    four_color: bool = False,
    face_down: bool = False,
    struck: str | None = None,
    highlight: bool = False,
    small: bool = False,
    note: str | None = None,
) -> str:
    """One playing card as HTML (needs `CARD_CSS` once on the page).

    >>> html = card_html("Ks")
    >>> 'role="img"' in html and 'aria-label="King of spades"' in html
    True
    >>> 'aria-label="face-down card"' in card_html("Ks", face_down=True)
    True

    struck: the reason the card does not count (drawn crossed out, reason in the title).
    highlight: ring the card (a best-five card). note: extra words for the title.
    """
    size = " palace-small" if small else ""
    if face_down:
        return (
            f'<span class="palace-card palace-back{size}" role="img" '
            f'aria-label="{FACE_DOWN_LABEL}" title="{FACE_DOWN_LABEL}"></span>'
        )
    c = Card.parse(card)
    classes = ["palace-card", f"palace-suit-{c.suit.letter}"]
    if four_color:
        classes.append("palace-4c")
    elif c.suit in RED_SUITS:
        classes.append("palace-red")
    if small:
        classes.append("palace-small")
    if highlight:
        classes.append("palace-hl")
    if struck:
        classes.append("palace-struck")
    label = esc(card_label(c, struck, note))
    rank, pip = esc(_rank_text(c)), c.suit.symbol
    corner = f'<span class="palace-rank">{rank}</span><span class="palace-pip">{pip}</span>'
    return (
        f'<span class="{" ".join(classes)}" role="img" aria-label="{label}" title="{label}" '
        f'data-card="{c}">'
        f'<span class="palace-corner palace-tl" aria-hidden="true">{corner}</span>'
        f'<span class="palace-center" aria-hidden="true">{pip}</span>'
        f'<span class="palace-corner palace-br" aria-hidden="true">{corner}</span>'
        "</span>"
    )


def cards_html(
    cards: Iterable[Card | str] | str,
    *,
    four_color: bool = False,
    face_down: bool = False,
    struck: Mapping[Card, str] | str | None = None,
    highlight: Iterable[Card] | bool = False,
    small: bool = False,
    empty: str = "none",
    notes: Mapping[Card, str] | None = None,
) -> str:
    """A row of cards. `struck` maps cards to reasons (or one reason for all);
    `highlight` is a set of cards to ring (or True for all); `empty` shows for no cards."""
    row = parse_cards(cards) if not face_down else tuple(cards)  # type: ignore[arg-type]
    if not row:
        return f'<span class="palace-none">{esc(empty)}</span>' if empty else ""
    if isinstance(highlight, bool):
        lit: set[Card] | bool = highlight
    else:
        lit = set(highlight)
    parts = []
    for c in row:
        if face_down:
            parts.append(card_html(c, face_down=True, small=small))
            continue
        why = struck if isinstance(struck, str) else (struck or {}).get(c)
        hl = lit if isinstance(lit, bool) else c in lit
        parts.append(
            card_html(
                c,
                four_color=four_color,
                struck=why,
                highlight=hl,
                small=small,
                note=(notes or {}).get(c),
            )
        )
    return f'<span class="palace-cards">{"".join(parts)}</span>'


def backs_html(count: int, *, small: bool = False, empty: str = "none") -> str:
    """`count` face-down cards in a row."""
    if count <= 0:
        return f'<span class="palace-none">{esc(empty)}</span>' if empty else ""
    one = card_html("As", face_down=True, small=small)
    return f'<span class="palace-cards palace-tight">{one * count}</span>'


def with_css(html: str) -> str:
    """Prefix `CARD_CSS` so a lone HTML output shows the cards styled."""
    return CARD_CSS + html


class CardRow(HBox):
    """A row of cards as a widget: ``CardRow("As Kd 7h")``; set `.cards` to change it."""

    def __init__(
        self,
        cards: Iterable[Card | str] | str = (),
        *,
        four_color: bool = False,
        small: bool = False,
        label: str | None = None,
    ) -> None:
        self._cards: tuple[Card, ...] = parse_cards(cards)
        self._four_color = four_color
        self._small = small
        self._label = label
        self._html = HTML(layout=Layout(width="100%"))
        super().__init__([self._html])
        self.add_class("palace-panel")
        self.add_class("palace-cardrow")
        self._render()

    @property
    def cards(self) -> tuple[Card, ...]:
        return self._cards

    @cards.setter
    def cards(self, value: Iterable[Card | str] | str) -> None:
        self._cards = parse_cards(value)
        self._render()

    @property
    def four_color(self) -> bool:
        return self._four_color

    @four_color.setter
    def four_color(self, value: bool) -> None:
        self._four_color = bool(value)
        self._render()

    def _render(self) -> None:
        label = f'<div class="palace-zone-label">{esc(self._label)}</div>' if self._label else ""
        row = cards_html(self._cards, four_color=self._four_color, small=self._small)
        self._html.value = with_css(f'<div class="palace-root">{label}{row}</div>')

    @property
    def html(self) -> str:
        """The HTML shown (style sheet included)."""
        return self._html.value

    def text(self) -> str:
        """The cards as symbols: ``"A♠ K♦ 7♥"``."""
        prefix = f"{self._label}: " if self._label else ""
        return prefix + symbols(self._cards)
