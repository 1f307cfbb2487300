"""`BattleView`: two armies side by side — excluded cards struck out (R8.2), best five, verdict."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from ipywidgets import HTML, Layout, ToggleButton, VBox

from palace.battle import Army, BattleResult, resolve_battle
from palace.cards import Card, Suit
from palace.errors import PalaceError
from palace.events import Event, EventKind, Phase
from palace.hands import Hand
from palace.views import sees_event
from palace.widgets.cards import cards_html
from palace.widgets.theme import esc, root, rule_badge, shared_layout, style_widget, symbols


def shows_battle(event: Event, seat: int | None, reveal: bool = False) -> bool:
    """Is `event` a battle showdown whose armies `seat` may see (any battle if `reveal`)?"""
    return (
        event.kind is EventKind.BATTLE
        and "battle" in event.detail
        and (reveal or sees_event(event, seat))
    )


def armies_of(event: Event) -> tuple[Army, Army]:
    """The attacker's and defender's armies shown down in a ``"battle"`` event."""
    res = event.detail.get("battle")
    if not isinstance(res, BattleResult):
        raise PalaceError(f"event #{event.index} ({event.kind}) is not a battle showdown")
    armies = []
    for seat, hand in (
        (event.detail["attacker"], res.attacker_hand),
        (event.detail["defender"], res.defender_hand),
    ):
        palace: tuple[Card, ...] = ()
        for mv in event.moves:
            if mv.src == mv.dst == f"seat{seat}.palace":
                palace = tuple(mv.cards)
        banner = hand.cards[0]  # the engine lists banner, soldiers, palace in that order
        soldiers = tuple(c for c in hand.cards[1:] if c not in palace)
        armies.append(Army(banner, soldiers, palace))
    return armies[0], armies[1]


def side_head_html(name: str, role: str, suit: Suit, tag: str = "") -> str:
    """A battler's heading: name, role and banner suit (and a tag such as "wins")."""
    return (
        f'<div class="palace-side-head"><span class="palace-name">{esc(name)}</span>'
        f'<span class="palace-subtitle">{esc(role)} · banner suit {suit.symbol} '
        f"{esc(suit.noun)}</span>{tag}</div>"
    )


def army_rows_html(
    army: Army,
    *,
    four_color: bool = False,
    small: bool = False,
    struck: Mapping[Card, str] | None = None,
    highlight: Iterable[Card] | bool = False,
) -> str:
    """An army's banner, soldiers and palace, each under its label."""
    rows = []
    for label, cards in (
        ("Banner", (army.banner,)),
        ("Soldiers", army.soldiers),
        ("Palace", army.palace),
    ):
        rows.append(f'<div class="palace-row-label">{label}</div>')
        rows.append(
            cards_html(
                cards, four_color=four_color, small=small, struck=struck, highlight=highlight
            )
        )
    return "".join(rows)


def hand_words(hand: Hand) -> str:
    """A hand's name inside a sentence: "two pair (fours and threes)", "pair of kings"."""
    text = hand.describe()
    head, _, rest = text.partition(", ")
    head = head[:1].lower() + head[1:]
    return f"{head} ({rest})" if rest else head


def exclusion_changed(
    attacker: Army, defender: Army, names: Sequence[str], result: BattleResult | None = None
) -> str:
    """The counterfactual sentence when banner-suit exclusion (R8.2) changed who won, else "".

    >>> ann, cat = Army.parse("Kh", "4s 4d", "3s 3c 9d"), Army.parse("Ks", "Kd", "Qc 2h 7c")
    >>> print(exclusion_changed(ann, cat, ("Ann", "Cat")))  # doctest: +NORMALIZE_WHITESPACE
    Without banner-suit exclusion Ann's two pair (fours and threes) would beat
    Cat's pair of kings.
    """
    res = result if result is not None else resolve_battle(attacker, defender)
    plain = resolve_battle(attacker, defender, exclusion=False)
    if plain.winner == res.winner:
        return ""
    an, dn = names[0], names[1]
    hands = {"attacker": (an, plain.attacker_hand), "defender": (dn, plain.defender_hand)}
    if plain.winner is None:
        return (
            f"Without banner-suit exclusion the battle would be tied: both would hold "
            f"{hand_words(plain.attacker_hand)} and as many cards of their own banner suit "
            f"(R8.6)."
        )
    win_name, win_hand = hands[plain.winner]
    lose_name, lose_hand = hands["defender" if plain.winner == "attacker" else "attacker"]
    if plain.decided_by == "banner_count":
        return (
            f"Without banner-suit exclusion both would hold {hand_words(win_hand)}, and "
            f"{win_name} would win the tie-break on their own banner suit (R8.5)."
        )
    return (
        f"Without banner-suit exclusion {win_name}'s {hand_words(win_hand)} would beat "
        f"{lose_name}'s {hand_words(lose_hand)}."
    )


@dataclass(frozen=True)
class _Side:
    name: str
    role: str  # "attacker" / "defender"
    army: Army
    hand: Hand
    banner_count: int
    opponent: str
    opponent_suit: Suit

    @property
    def banner(self) -> Card:
        return self.army.banner

    @property
    def soldiers(self) -> tuple[Card, ...]:
        return self.army.soldiers

    @property
    def palace(self) -> tuple[Card, ...]:
        return self.army.palace

    @property
    def reason(self) -> str:
        s = self.opponent_suit
        return f"{s.symbol} is {self.opponent}'s banner suit — does not count, R8.2"


def _sides(
    attacker: Army, defender: Army, names: tuple[str, str], res: BattleResult
) -> tuple[_Side, _Side]:
    an, dn = names
    return (
        _Side(
            an,
            "attacker",
            attacker,
            res.attacker_hand,
            res.attacker_banner_count,
            dn,
            defender.suit,
        ),
        _Side(
            dn,
            "defender",
            defender,
            res.defender_hand,
            res.defender_banner_count,
            an,
            attacker.suit,
        ),
    )


class BattleView(VBox):
    """A battle showdown: call `show_result(att, dfn, names)` or `show_event(event, names)`."""

    def __init__(self, *, four_color: bool = False) -> None:
        self._css = style_widget()
        self._html = HTML(layout=shared_layout(width="100%"))
        self._unstruck = ToggleButton(
            value=False,
            description="Show both hands unstruck",
            tooltip="every card counting, as if there were no banner-suit exclusion (R8.2)",
            layout=Layout(width="auto", display="none"),
        )
        self._unstruck.observe(self._on_unstruck, names="value")
        super().__init__([self._css, self._html, self._unstruck], layout=Layout(width="100%"))
        self.add_class("palace-panel")
        self.add_class("palace-battleview")
        self.four_color = four_color
        self._sides: tuple[_Side, _Side] | None = None
        self._result: BattleResult | None = None
        self._plain: BattleResult | None = None
        self._verdict = ""
        self._rule = ""
        self._last_two: bool | None = None  # were the battlers the last two? (None: unknown)
        self._html.value = root('<div class="palace-note">No battle yet.</div>')

    # ------------------------------------------------------------------ input
    def show_result(
        self,
        attacker: Army,
        defender: Army,
        names: Sequence[str] = ("Attacker", "Defender"),
        result: BattleResult | None = None,
    ) -> BattleResult:
        """Resolve (or take) the battle of two armies and show it; returns the result."""
        res = result if result is not None else resolve_battle(attacker, defender)
        names = (names[0], names[1])
        self._set(*_sides(attacker, defender, names, res), res, res.explain(*names))
        self._last_two = None  # unknown outside a game
        return res

    def show_event(self, event: Event, names: Sequence[str] | None = None) -> None:
        """Show a game's ``"battle"`` event (its detail holds the `BattleResult`)."""
        attacker, defender = armies_of(event)
        res = event.detail["battle"]
        a, d = event.detail["attacker"], event.detail["defender"]
        sides = ("Attacker", "Defender") if names is None else (names[a], names[d])
        text = event.text if names is not None else res.explanation
        self._set(*_sides(attacker, defender, sides, res), res, text)
        # a still-tied battle ends the hand only between the last two (R8.6)
        self._last_two = event.phase is Phase.HAND_OVER

    def clear(self) -> None:
        """Show nothing (no battle yet)."""
        self._sides = None
        self._result = None
        self._plain = None
        self._unstruck.layout.display = "none"
        self._html.value = root('<div class="palace-note">No battle yet.</div>')

    @property
    def result(self) -> BattleResult | None:
        return self._result

    @property
    def html(self) -> str:
        return self._html.value

    @property
    def counterfactual(self) -> str:
        """The sentence saying who would have won without banner-suit exclusion (R8.2), when
        that differs from the real result; "" when exclusion changed nothing or no battle."""
        if self._sides is None or self._result is None:
            return ""
        att, dfn = self._sides
        return exclusion_changed(att.army, dfn.army, (att.name, dfn.name), self._result)

    @property
    def unstruck_button(self) -> ToggleButton:
        """Show both hands unstruck: every card counting (shown when a card was excluded)."""
        return self._unstruck

    @property
    def unstruck(self) -> bool:
        """Are both hands drawn with every card counting (the counterfactual)?"""
        return bool(self._unstruck.value)

    @unstruck.setter
    def unstruck(self, value: bool) -> None:
        self._unstruck.value = bool(value)

    # ------------------------------------------------------------------ drawing
    def _set(self, att: _Side, dfn: _Side, res: BattleResult, verdict: str) -> None:
        self._sides = (att, dfn)
        self._result = res
        self._plain = resolve_battle(att.army, dfn.army, exclusion=False)
        self._verdict = verdict
        self._rule = res.rule
        excluded = bool(res.attacker_hand.excluded or res.defender_hand.excluded)
        self._unstruck.layout.display = None if excluded else "none"
        if not excluded and self._unstruck.value:
            self._unstruck.value = False  # the observer redraws
        self._html.value = root(self._render())

    def _on_unstruck(self, change: dict) -> None:
        self._unstruck.description = (
            "Show the battle as played" if change["new"] else "Show both hands unstruck"
        )
        self.refresh()

    def refresh(self) -> None:
        """Redraw (after `four_color` changed)."""
        if self._sides is not None:
            self._html.value = root(self._render())

    def _winner_loser(self) -> tuple[_Side | None, _Side | None]:
        assert self._sides is not None and self._result is not None
        att, dfn = self._sides
        if self._result.winner == "attacker":
            return att, dfn
        if self._result.winner == "defender":
            return dfn, att
        return None, None

    def _side_html(self, s: _Side, state: str, plain: Hand | None = None) -> str:
        """One side; `plain`: draw it unstruck with this hand (every card counting)."""
        fc = self.four_color
        hand = plain if plain is not None else s.hand
        struck = {} if plain is not None else {c: s.reason for c in s.hand.excluded}
        best = set(hand.best)
        role_tag = (
            '<span class="palace-tag palace-tag-win">wins</span>' if state == "winner" else ""
        )
        rows = [
            side_head_html(s.name, s.role, s.banner.suit, role_tag),
            army_rows_html(s.army, four_color=fc, struck=struck, highlight=best),
        ]
        rows.append(
            f'<div class="palace-hand-name">{esc(hand.describe())}</div>'
            f'<div class="palace-note">Best five: {esc(symbols(hand.best))}</div>'
        )
        if plain is not None:
            rows.append(
                '<div class="palace-unstruck-note">Every card counts here: no banner-suit '
                f"exclusion {rule_badge('R8.2')}</div>"
            )
        elif s.hand.excluded:
            rows.append(
                f'<div class="palace-lost">✗ {esc(symbols(s.hand.excluded))}: '
                f"{esc(s.opponent_suit.symbol)} is {esc(s.opponent)}'s banner suit, so "
                f"{'it does' if len(s.hand.excluded) == 1 else 'they do'} not count "
                f"{rule_badge('R8.2')}</div>"
            )
        else:
            rows.append(
                f'<div class="palace-note">No {esc(s.opponent_suit.noun)}: nothing excluded '
                f"{rule_badge('R8.2')}</div>"
            )
        cls = "palace-side" + {"winner": " palace-winner", "loser": " palace-loser"}.get(state, "")
        return f'<div class="{cls}">{"".join(rows)}</div>'

    def _render(self) -> str:
        assert self._sides is not None and self._result is not None
        att, dfn = self._sides
        if self.unstruck and self._plain is not None:
            return self._render_unstruck()
        win, lose = self._winner_loser()
        state = {
            id(att): "winner" if win is att else "loser" if lose is att else "tie",
            id(dfn): "winner" if win is dfn else "loser" if lose is dfn else "tie",
        }
        grid = (
            f'<div class="palace-battle">{self._side_html(att, state[id(att)])}'
            f'<div class="palace-vs" aria-hidden="true">vs</div>'
            f"{self._side_html(dfn, state[id(dfn)])}</div>"
        )
        lines = [f"<div>{rule_badge(self._rule)} {esc(self._verdict)}</div>"]
        tb = self._tiebreak()
        if tb:
            lines.append(f'<div class="palace-verdict-line">{esc(tb)} {rule_badge("R8.5")}</div>')
        lines.append(f'<div class="palace-verdict-line">{esc(self._capture())}</div>')
        cf = self.counterfactual
        if cf:
            lines.append(f'<div class="palace-counterfactual">{esc(cf)} {rule_badge("R8.2")}</div>')
        cls = "palace-verdict" + (" palace-tie" if win is None else "")
        return grid + f'<div class="{cls}">{"".join(lines)}</div>'

    def _render_unstruck(self) -> str:
        """Both hands with every card counting, and who would have won that way."""
        assert self._sides is not None and self._plain is not None
        att, dfn = self._sides
        plain = self._plain
        state = {
            "attacker": "winner" if plain.winner == "attacker" else "loser",
            "defender": "winner" if plain.winner == "defender" else "loser",
        }
        if plain.winner is None:
            state = {"attacker": "tie", "defender": "tie"}
        grid = (
            f'<div class="palace-battle">'
            f"{self._side_html(att, state['attacker'], plain.attacker_hand)}"
            f'<div class="palace-vs" aria-hidden="true">vs</div>'
            f"{self._side_html(dfn, state['defender'], plain.defender_hand)}</div>"
        )
        cf = self.counterfactual or (
            "Without banner-suit exclusion the result would be the same: "
            + plain.explain(att.name, dfn.name, cite=False)
        )
        return grid + (
            '<div class="palace-verdict palace-tie"><div><b>What if every card counted?</b> '
            f'{esc(cf)}</div><div class="palace-verdict-line">In the real battle: '
            f"{esc(self._verdict)} {rule_badge(self._rule)}</div></div>"
        )

    def _tiebreak(self) -> str:
        assert self._sides is not None and self._result is not None
        if self._result.decided_by == "hand":
            return ""
        att, dfn = self._sides
        return (
            f"Equal hands, so count the cards of each player's own banner suit: "
            f"{att.name} {att.banner_count} {att.banner.suit.symbol}, "
            f"{dfn.name} {dfn.banner_count} {dfn.banner.suit.symbol}."
        )

    def _capture(self) -> str:
        win, lose = self._winner_loser()
        if win is None or lose is None:
            if self._last_two is True:
                return "No capture: they were the last two, so they share the pot (R8.6, R10.4)."
            if self._last_two is False:
                return (
                    "No capture: both leave the hand and their cards go to the discard pile (R8.6)."
                )
            return (
                "No capture: both leave the hand, or share the pot if they were the last two "
                "(R8.6)."
            )
        taken = (lose.banner, *lose.soldiers)
        return (
            f"{win.name} captures {symbols(taken)} ({lose.name}'s banner and soldiers) as "
            f"soldiers; {lose.name}'s palace cards go to the discard pile (R8.4)."
        )

    # ------------------------------------------------------------------ text
    def text(self) -> str:
        """A plain-text account of the battle shown."""
        if self._sides is None:
            return "No battle yet."
        lines = []
        for s in self._sides:
            lines.append(
                f"{s.name} ({s.role}, banner {s.banner.symbol}): banner {s.banner.symbol} · "
                f"soldiers {symbols(s.soldiers)} · palace {symbols(s.palace)}"
            )
            if s.hand.excluded:
                lines.append(
                    f"  does not count ({s.opponent_suit.symbol} is {s.opponent}'s banner suit, "
                    f"R8.2): {symbols(s.hand.excluded)}"
                )
            lines.append(f"  best five: {symbols(s.hand.best)} — {s.hand.describe()}")
        tb = self._tiebreak()
        if tb:
            lines.append(f"Tie-break (R8.5): {tb}")
        lines.append(f"Verdict ({self._rule}): {self._verdict}")
        lines.append(self._capture())
        if self.counterfactual:
            lines.append(f"What exclusion changed (R8.2): {self.counterfactual}")
        return "\n".join(lines)
