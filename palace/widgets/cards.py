"""HTML/CSS playing cards with text alternatives, four-colour suits, backs and struck-out cards."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from ipywidgets import HTML, HBox

from palace.cards import Card, Suit, parse_cards
from palace.widgets.theme import CARD_CSS, esc, shared_layout, symbols

RED_SUITS = (Suit.HEARTS, Suit.DIAMONDS)
FACE_DOWN_LABEL = "face-down card"


def _rank_text(card: Card) -> str:
    letter = card.rank.letter
    return "10" if letter == "T" else letter


def face(card: Card | str) -> str:
    """A card as printed on its face: ``"10♠"`` (the engine writes ``"T♠"``).

    >>> face("Ts"), face("Ah")
    ('10♠', 'A♥')
    """
    c = Card.parse(card)
    return _rank_text(c) + c.suit.symbol


def faces(cards: Iterable[Card | str] | str) -> str:
    """Cards as printed on their faces, space separated: ``"10♠ A♥"``."""
    return " ".join(face(c) for c in parse_cards(cards))


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
    if face_down:  # backs only: any placeholders will do, nothing is parsed
        backs = list(cards) if not isinstance(cards, str) else cards.split()
        if not backs:
            return f'<span class="palace-none">{esc(empty)}</span>' if empty else ""
        one = card_html("As", face_down=True, small=small)  # a back shows no card
        return f'<span class="palace-cards">{one * len(backs)}</span>'
    row = parse_cards(cards)
    if not row:
        return f'<span class="palace-none">{esc(empty)}</span>' if empty else ""
    if isinstance(highlight, bool):
        lit: set[Card] | bool = highlight
    else:
        lit = set(highlight)
    parts = []
    for c in row:
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
        self._html = HTML(layout=shared_layout(width="100%"))
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
