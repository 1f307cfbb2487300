"""`ActionPicker`: the learner's buttons — legal ones enabled, the others disabled with the rule."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ipywidgets import (
    HTML,
    BoundedIntText,
    Box,
    Button,
    Checkbox,
    GridBox,
    HBox,
    Layout,
    VBox,
    Widget,
)

from palace.actions import Action, Bet, Buy, Call, Discard, Fold, Raise, Stay, Trim
from palace.analysis.odds import Odds, battle_odds
from palace.cards import Card
from palace.errors import PalaceError
from palace.events import Event, Phase
from palace.game import Game
from palace.widgets.cards import card_html, face
from palace.widgets.session import PlayController
from palace.widgets.theme import esc, quiet_tooltips, root, shared_layout, style_widget, symbols

Advisor = Callable[[Game, int, int], Any]
"""``advisor(game, seat, target)``: words (a str), or odds with ``win``/``tie``/``lose`` and
``text(name)`` (drawn as a bar beside the words), about battling `target` now."""
ActionCallback = Callable[[Action, list[Event]], None]
Coach = Callable[[Action], str | None]
"""``coach(action)``: a reason to hold back an action the engine allows (a guided lesson
step), or None to leave it to the engine."""
BIG = 10**9
BUTTON_WIDTH = "250px"


@dataclass
class _Offer:
    """One action button as drawn now: the engine's reason when it is off, else what it does
    and the advisor's words. The button's note (HTML) and `text()` are both made from it."""

    key: str  # "buy", "discard", "stay", "fold", "call", "raise" or "bet:<seat>"
    button: Button
    note: HTML
    reason: str = ""  # why the engine refuses it now ("" when enabled)
    help: str = ""  # what it does (shown while enabled)
    advice: str = ""  # the advisor's odds (shown while enabled)
    odds: tuple[float, float, float] | None = None  # win, tie, lose: drawn as a bar

    def note_html(self) -> str:
        if self.reason:
            return f'<span class="palace-reason palace-reason-off">✗ {esc(self.reason)}</span>'
        parts = []
        if self.help:
            parts.append(f'<span class="palace-reason">{esc(self.help)}</span>')
        if self.advice:
            bar = odds_bar_html(*self.odds) if self.odds is not None else ""
            parts.append(
                f'<span class="palace-odds">{bar}<span class="palace-advice">'
                f"{esc(self.advice)}</span></span>"
            )
        return "<br>".join(parts)

    def line(self) -> str:
        """``[on] Buy (2 chips)`` or ``[off] Call — <the engine's reason>``."""
        state = "off" if self.button.disabled else "on"
        extra = self.reason or self.advice
        return f"[{state}] {self.button.description}" + (f" — {extra}" if extra else "")


def exact_odds(game: Game, seat: int, target: int) -> Odds:
    """The advisor the app and the lessons use: the exact odds of battling `target` now,
    as `seat` may know them (`palace.analysis.odds.battle_odds`), drawn as a bar and words."""
    return battle_odds(game.view(seat), target)


def odds_bar_html(win: float, tie: float, lose: float) -> str:
    """Win, tie and lose as a bar (green, yellow, red) with its words for screen readers."""
    pct = [max(0.0, min(100.0, 100 * x)) for x in (win, tie, lose)]
    label = f"win {pct[0]:.0f}%, tie {pct[1]:.0f}%, lose {pct[2]:.0f}%"
    return (
        f'<span class="palace-odds-bar" role="img" aria-label="{esc(label)}">'
        f'<span class="palace-odds-win" style="width:{pct[0]:.1f}%"></span>'
        f'<span class="palace-odds-tie" style="width:{pct[1]:.1f}%"></span>'
        f'<span class="palace-odds-lose" style="width:{pct[2]:.1f}%"></span></span>'
    )


def _action_button(description: str = "", *, icon: str) -> Button:
    return Button(
        description=description,
        icon=icon,
        layout=shared_layout(width=BUTTON_WIDTH, flex="none"),
    )


# A group of action rows under a title, with controls shown above the rows (amounts).
Section = tuple[str, list[_Offer], list[Widget]]


def _set_children(box: Box, children: list[Widget]) -> None:
    """Set a box's children only when they changed (no needless redraw in the page)."""
    if tuple(box.children) != tuple(children):
        box.children = tuple(children)


class ActionPicker(VBox):
    """Buttons for `seat`'s decisions in `controller.game`; only legal actions are enabled.

    Every action kind is always listed; a disabled one shows the engine's reason
    (`game.why_illegal`) beside it. Buy / capture lead to choosing discards (Trim);
    Discard chooses soldiers. `advisor(game, seat, target)` text is shown by each target.
    """

    def __init__(
        self,
        controller: PlayController | Game,
        seat: int | None = None,
        *,
        advisor: Advisor | None = None,
        four_color: bool = False,
        coach: Coach | None = None,
    ) -> None:
        if isinstance(controller, Game):
            controller = PlayController(
                controller, human=seat if seat is not None else 0, bots={}, auto=False
            )
        self._ctl = controller
        self._seat = controller.seat if seat is None else seat
        self._advisor = advisor
        self._coach = coach
        self._was_mine = False
        self.four_color = four_color
        self._callbacks: list[ActionCallback] = []
        self._choosing: str | None = None  # "discard" while picking soldiers to discard
        self._offers: dict[str, _Offer] = {}  # what each action button shows now
        self._prompt_text = ""
        self._status_text = ""

        self._css = style_widget()
        self._prompt = HTML(layout=shared_layout())
        self._buy = _action_button(icon="plus")
        self._discard = _action_button(icon="trash")
        self._stay = _action_button("Stay", icon="hand-paper-o")
        self._fold = _action_button("Fold", icon="flag")
        self._call = _action_button(icon="check")
        self._raise = _action_button(icon="arrow-up")
        self._made: dict[str, Widget] = {}  # amounts and discard buttons, made when needed
        self._status = HTML(layout=shared_layout())
        self._notes: dict[str, HTML] = {  # beside each button (and "bet:<seat>")
            k: HTML(layout=shared_layout())
            for k in ("buy", "discard", "stay", "fold", "call", "raise")
        }
        self._bets: dict[int, Button] = {}
        self._toggles: dict[Card, Checkbox] = {}
        self._toggle_cards: dict[Card, HTML] = {}
        self._parts: dict[str, Widget] = {}  # containers kept across redraws

        for btn, fn in (
            (self._buy, self._on_buy),
            (self._discard, self._on_discard),
            (self._stay, self._on_stay),
            (self._fold, self._on_fold),
            (self._call, self._on_call),
            (self._raise, self._on_raise),
        ):
            btn.on_click(fn)
        self._actions_box = VBox(layout=Layout(grid_gap="8px"))
        self._choose_box = VBox()
        super().__init__(
            [self._css, self._prompt, self._choose_box, self._actions_box, self._status],
            layout=shared_layout(width="100%", grid_gap="4px"),
        )
        self.add_class("palace-panel")
        self.add_class("palace-picker")
        controller.add_listener(self._on_game_changed)
        self.refresh()

    # ------------------------------------------------------------------ made when needed
    def _amount(self, key: str, description: str) -> BoundedIntText:
        w = self._made.get(key)
        if w is None:
            w = BoundedIntText(
                description=description, min=0, max=BIG, tooltip="", layout=Layout(width="210px")
            )
            self._made[key] = w
        assert isinstance(w, BoundedIntText)
        return w

    @property
    def _bet_amount(self) -> BoundedIntText:
        """How much to attack with (no-limit, R7.3)."""
        return self._amount("bet", "Attack with")

    @property
    def _raise_amount(self) -> BoundedIntText:
        """How much to raise by (no-limit, R7.7)."""
        return self._amount("raise", "Raise by")

    def _made_button(self, key: str, on_click: Callable[[Button], None], **kwargs: Any) -> Button:
        w = self._made.get(key)
        if w is None:
            w = Button(tooltip="", **kwargs)
            w.on_click(on_click)
            self._made[key] = w
        assert isinstance(w, Button)
        return w

    @property
    def _confirm(self) -> Button:
        return self._made_button(
            "confirm",
            self._on_confirm,
            description="Discard selected",
            button_style="danger",
            icon="trash",
            layout=Layout(width="200px"),
        )

    @property
    def _keep(self) -> Button:
        return self._made_button(
            "keep",
            self._on_keep,
            description="Keep all",
            button_style="success",
            layout=Layout(width="150px"),
        )

    @property
    def _cancel(self) -> Button:
        return self._made_button(
            "cancel", self._on_cancel, description="Cancel", layout=Layout(width="120px")
        )

    # ------------------------------------------------------------------ public
    def rebind(
        self, controller: PlayController, seat: int, *, advisor: Advisor | None = None
    ) -> None:
        """Show `seat`'s decisions in another hand, keeping this picker's widgets (the page
        redraws only what changed)."""
        self._ctl.remove_listener(self._on_game_changed)
        self._ctl, self._seat, self._advisor = controller, seat, advisor
        self._choosing = None
        self._was_mine = False
        self._offers = {}
        self._set_status("", ok=True)
        controller.add_listener(self._on_game_changed)
        self.refresh()

    @property
    def controller(self) -> PlayController:
        return self._ctl

    @property
    def game(self) -> Game:
        return self._ctl.game

    @property
    def seat(self) -> int:
        return self._seat

    @property
    def advisor(self) -> Advisor | None:
        return self._advisor

    @advisor.setter
    def advisor(self, fn: Advisor | None) -> None:
        self._advisor = fn
        self.refresh()

    def on_action(self, fn: ActionCallback) -> None:
        """Call `fn(action, events)` after each action this picker carried out."""
        self._callbacks.append(fn)

    def button(self, kind: str, target: int | None = None) -> Button:
        """The button for an action kind: buy, discard, stay, fold, call, raise, bet (with
        `target`), or the soldier chooser's confirm / keep / cancel."""
        if kind == "bet":
            if target is None or target not in self._bets:
                raise KeyError(f"no Bet button for target {target!r}")
            return self._bets[target]
        table = {
            "buy": self._buy,
            "discard": self._discard,
            "stay": self._stay,
            "fold": self._fold,
            "call": self._call,
            "raise": self._raise,
            "confirm": self._confirm,
            "keep": self._keep,
            "cancel": self._cancel,
        }
        return table[kind]

    def reason(self, kind: str, target: int | None = None) -> str:
        """Why that action is disabled now ("" when it is enabled)."""
        offer = self._offers.get(kind if kind != "bet" else f"bet:{target}")
        return "" if offer is None else offer.reason

    @property
    def coach(self) -> Coach | None:
        return self._coach

    @coach.setter
    def coach(self, fn: Coach | None) -> None:
        self._coach = fn
        self.refresh()

    @property
    def toggles(self) -> dict[Card, Checkbox]:
        """The soldier toggles shown while choosing discards (True = discard it), each named
        by its card ("Discard K♦")."""
        if self._choose_box.layout.display == "none":
            return {}
        return {c: t for c, t in self._toggles.items() if c in self.game.soldiers(self._seat)}

    @property
    def bet_amount(self) -> BoundedIntText:
        """The no-limit attack amount (R7.3)."""
        return self._bet_amount

    @property
    def raise_amount(self) -> BoundedIntText:
        """The no-limit raise amount (R7.7)."""
        return self._raise_amount

    @property
    def status(self) -> str:
        """The last message: why a click was refused, or what was done."""
        return self._status_text

    def act(self, action: Action) -> bool:
        """Try `action` for the seat; a refusal is shown in the status line. True if done."""
        held = self._coach(action) if self._coach is not None and self._mine() else None
        if held:
            self._set_status(f"Not now: {held}", ok=False)
            return False
        try:
            desc = self.game.describe(action)
            events = self._ctl.act(action)
        except PalaceError as exc:
            self._set_status(f"Refused: {exc}", ok=False)
            return False
        self._choosing = None
        for t in self._toggles.values():
            t.value = False
        self._set_status(f"Done: {desc}.", ok=True)
        self.refresh()
        for fn in list(self._callbacks):
            fn(action, events)
        self.focus_prompt()
        return True

    def focus_prompt(self) -> None:
        """Move the keyboard focus to the first thing to press now (after each action)."""
        if not self._mine():
            return
        if self._choose_box.layout.display != "none":
            target: Widget | None = next(iter(self.toggles.values()), self._confirm)
        else:
            order = [o.button for o in self._offers.values() if not o.button.disabled]
            target = order[0] if order else None
        if target is not None:
            target.focus()

    # ------------------------------------------------------------------ callbacks
    def _on_game_changed(self, events: list[Event]) -> None:
        if not events:  # undo or a new hand: the old message no longer applies
            self._set_status("", ok=True)
        was = self._was_mine
        self.refresh()
        if self._mine() and not was:
            self.focus_prompt()  # the learner's turn again: the prompt takes the focus

    def _on_buy(self, _: Button) -> None:
        self.act(Buy())

    def _on_discard(self, _: Button) -> None:
        self._choosing = "discard"
        for t in self._toggles.values():
            t.value = False
        self._set_status("Choose the soldiers to discard, then press Discard selected.", ok=True)
        self.refresh()
        self.focus_prompt()

    def _on_stay(self, _: Button) -> None:
        self.act(Stay())

    def _on_fold(self, _: Button) -> None:
        self.act(Fold())

    def _on_call(self, _: Button) -> None:
        self.act(Call())

    def _on_raise(self, _: Button) -> None:
        amount = self._raise_amount.value if self.game.rules.no_limit else None
        self.act(Raise(amount=amount))

    def _on_bet(self, button: Button) -> None:
        target = next(t for t, b in self._bets.items() if b is button)
        amount = self._bet_amount.value if self.game.rules.no_limit else None
        self.act(Bet(target=target, amount=amount))

    def _selected(self) -> tuple[Card, ...]:
        return tuple(c for c, t in self.toggles.items() if t.value)

    def _on_confirm(self, _: Button) -> None:
        if self.game.phase is Phase.TRIM_TO_FIVE:
            self.act(Trim(cards=self._selected()))
        else:
            self.act(Discard(cards=self._selected()))

    def _on_keep(self, _: Button) -> None:
        self.act(Trim(cards=()))

    def _on_cancel(self, _: Button) -> None:
        self._choosing = None
        self._set_status("", ok=True)
        self.refresh()

    def _on_toggle(self, change: dict) -> None:
        self._style_toggle(change["owner"])

    # ------------------------------------------------------------------ drawing
    def _set_status(self, text: str, *, ok: bool) -> None:
        self._status_text = text
        cls = "palace-status-ok" if ok else "palace-status-bad"
        mark = "" if not text else ("✓ " if ok else "✗ ")
        self._status.value = root(
            f'<div class="palace-status-line {cls}" role="status">{mark}{esc(text)}</div>'
        )

    def _mine(self) -> bool:
        """Is it this seat's decision now?"""
        g = self.game
        return not g.is_over and g.to_act == self._seat

    def _waiting_for(self) -> str:
        """The name of the player whose decision it is (while it is not this seat's)."""
        g = self.game
        assert g.to_act is not None, "a hand that is not over has a player to act"
        return g.names[g.to_act]

    def refresh(self) -> None:
        """Redraw from the controller's game: the prompt, the soldier chooser, the actions."""
        if not self._mine():
            self._choosing = None
        self._draw_prompt()
        self._draw_chooser()
        self._offers = {}
        self._draw_actions(self._sections())
        self._actions_box.layout.display = "none" if self.game.is_over else None
        if not self._status_text:
            self._set_status("", ok=True)
        self._was_mine = self._mine()
        quiet_tooltips(self)

    # the prompt ---------------------------------------------------------------------
    def _draw_prompt(self) -> None:
        g, me = self.game, self._seat
        if g.is_over:
            prompt = "The hand is over: no more actions (R9, R10)."
        elif not self._mine():
            prompt = f"Waiting for {self._waiting_for()}…"
        elif g.phase is Phase.BATTLE_RESPONSE:
            b = g.battle
            assert b is not None
            opp = b.attacker if me == b.defender else b.defender
            verb = "attacks you" if me == b.defender else "raises"
            prompt = f"{g.names[opp]} {verb}! Pay {g.owed()} to call, raise, or fold (R7.4)."
        elif g.phase is Phase.TRIM_TO_FIVE:
            prompt = f"{g.names[me]}, choose soldiers to discard — keep at most five (R6.7)."
        else:
            prompt = f"Your turn, {g.names[me]}: pick one action (R6.1)."
        self._prompt_text = prompt
        self._prompt.value = root(
            f'<div class="palace-prompt" role="status" aria-live="polite">{esc(prompt)}</div>'
        )

    # the soldier chooser (Trim after a Buy or capture, or Discard) --------------------
    def _draw_chooser(self) -> None:
        g = self.game
        trim = self._mine() and g.phase is Phase.TRIM_TO_FIVE
        discard = self._mine() and self._choosing == "discard" and g.phase is Phase.TURN
        if not (trim or discard):
            self._choose_box.children = []
            self._choose_box.layout.display = "none"
            return
        cols = []
        for c in g.soldiers(self._seat):
            t = self._toggle(c)
            self._style_toggle(t)
            cols.append(self._part(f"col:{c}", VBox, [self._toggle_cards[c], t], "center"))
        buttons = [self._confirm, self._keep] if trim else [self._confirm, self._cancel]
        title = self._part("chooser-title", HTML)
        title.value = root(f'<div class="palace-section">{esc(self._chooser_title(trim))}</div>')
        _set_children(
            self._choose_box,
            [
                title,
                self._part("chooser-cards", HBox, cols, wrap=True),
                self._part("chooser-buttons", HBox, buttons),
            ],
        )
        self._choose_box.layout.display = None

    def _part(
        self,
        key: str,
        kind: type,
        children: list[Widget] | None = None,
        align: str | None = None,
        *,
        wrap: bool = False,
    ) -> Any:
        """A container (or HTML) of the picker kept from one redraw to the next, so the page
        keeps its elements (and the keyboard focus) when only their contents change."""
        w = self._parts.get(key)
        if w is None:
            if kind is HTML:
                w = HTML(layout=shared_layout())
            else:
                props = {"grid_gap": "8px" if kind is HBox else "3px"}
                if kind is GridBox:
                    props = {
                        "grid_template_columns": f"minmax(0, {BUTTON_WIDTH}) minmax(0, 1fr)",
                        "grid_gap": "3px 8px",
                        "align_items": "center",
                    }
                if wrap:
                    props["flex_flow"] = "row wrap"
                if align:
                    props["align_items"] = align
                w = kind(layout=shared_layout(**props))  # never resized: shared
            self._parts[key] = w
        if children is not None:
            _set_children(w, children)
        return w

    def _chooser_title(self, trim: bool) -> str:
        g = self.game
        if trim and g.events and g.events[-1].kind == "capture":
            return f"Captured: discard any soldiers? ({g.events[-1].rule}; at most five stay, R6.7)"
        if trim:
            return "Bought: discard any soldiers? (R6.2; at most five stay, R6.7)"
        return f"Discard which soldiers? (pays {g.rules.discard_amount}, R6.4)"

    def _toggle(self, card: Card) -> Checkbox:
        if card not in self._toggles:
            t = Checkbox(
                value=False,
                description=f"Discard {face(card)}",
                tooltip=f"discard the {card.name.lower()}",
                indent=False,
                layout=Layout(width="auto"),
            )
            t.observe(self._on_toggle, names="value")
            self._toggles[card] = t
            self._toggle_cards[card] = HTML()
        return self._toggles[card]

    def _style_toggle(self, t: Checkbox) -> None:
        card = next(c for c, x in self._toggles.items() if x is t)
        why = "to be discarded" if t.value else None
        self._toggle_cards[card].value = root(
            card_html(card, four_color=self.four_color, struck=why)
        )

    # the action buttons ---------------------------------------------------------------
    def _why(self, action: Action) -> str | None:
        """The engine's reason, or why it is not this seat's decision."""
        g = self.game
        if g.is_over or g.to_act == self._seat:
            why = g.why_illegal(action)
            if why is None and self._coach is not None:
                why = self._coach(action)
            return why
        return f"wait: it is {self._waiting_for()}'s decision, not yours"

    def _advice(self, target: int) -> tuple[str, tuple[float, float, float] | None]:
        """The advisor's words about fighting `target`, and its odds when it gives them (an
        advisor bug must not break the game)."""
        assert self._advisor is not None
        try:
            said = self._advisor(self.game, self._seat, target)
        except Exception as exc:  # noqa: BLE001 - the advisor is the caller's code
            return f"(advisor failed: {exc})", None
        if isinstance(said, str):
            return said, None
        odds = (float(said.win), float(said.tie), float(said.lose))
        words = said.text(self.game.names[target])
        extra = getattr(said, "explanation", "")
        return (f"{words}. {extra}" if extra else words), odds

    def _offer(
        self,
        key: str,
        button: Button,
        action: Action,
        help_text: str,
        style: str,
        *,
        advise: int | None = None,
    ) -> _Offer:
        """Enable `button` if the engine allows `action` (else say why); `advise`: a seat to
        ask the advisor about while it is enabled."""
        why = self._why(action)
        button.disabled = why is not None
        button.button_style = "" if why else style
        button.tooltip = why or help_text
        offer = _Offer(key, button, self._notes[key], why or "", help_text)
        if why is None and advise is not None and self._advisor is not None:
            offer.advice, offer.odds = self._advice(advise)
        offer.note.value = offer.note_html()
        self._offers[key] = offer
        return offer

    def _sections(self) -> list[Section]:
        """The action groups, the answer to an attack first while one is open."""
        low = self.game.min_attack(self._seat)
        sections: list[Section] = [
            ("On your turn", self._turn_offers(), []),
            (
                f"Attack a player (minimum {low} chips, R7.3): they fold, call or raise (R7.4)",
                *self._bet_offers(low),
            ),
            ("Answering an attack", *self._answer_offers()),
            ("Leave", [self._fold_offer()], []),
        ]
        if self.game.phase is Phase.BATTLE_RESPONSE:
            sections = sections[2:] + sections[:2]
        return sections

    def _turn_offers(self) -> list[_Offer]:
        """Buy, Discard and Stay (R6.2, R6.4, R6.5)."""
        g = self.game
        self._buy.description = f"Buy ({g.rules.small_bet} chips)"
        self._discard.description = f"Discard… ({g.rules.discard_amount} chips)"
        return [
            self._offer(
                "buy", self._buy, Buy(), "pay, draw a soldier, then discard any (R6.2)", "info"
            ),
            self._offer(
                "discard",
                self._discard,
                Discard(cards=g.soldiers(self._seat)),
                "pay and discard one or more soldiers (R6.4)",
                "info",
            ),
            self._offer("stay", self._stay, Stay(), "do nothing; the turn passes (R6.5)", "info"),
        ]

    def _bet_offers(self, low: int) -> tuple[list[_Offer], list[Widget]]:
        """An Attack button per opponent (R7.3) with the advisor's odds; the amount (no-limit)."""
        g, me, no_limit = self.game, self._seat, self.game.rules.no_limit
        self._ensure_bets()
        extra: list[Widget] = []
        if no_limit:
            stack = g.stacks[me] if g.stacks is not None else BIG
            self._bet_amount.min = min(low, stack)
            self._bet_amount.max = max(stack, low)
            if self._bet_amount.value < low:
                self._bet_amount.value = low
            extra.append(self._bet_amount)
        offers = []
        for t, b in self._bets.items():
            b.description = f"Attack {g.names[t]}" + ("" if no_limit else f" ({low} chips)")
            bet = Bet(target=t, amount=self._bet_amount.value if no_limit else None)
            offers.append(self._offer(f"bet:{t}", b, bet, "", "danger", advise=t))
        return offers, extra

    def _ensure_bets(self) -> None:
        """An Attack button (and its note and row) per opponent, reusing the ones there are
        when the players or the seat change (a new hand)."""
        targets = [t for t in range(self.game.players) if t != self._seat]
        if list(self._bets) == targets:
            return
        old = [(b, self._notes.pop(f"bet:{t}")) for t, b in self._bets.items()]
        self._bets = {}
        for i, t in enumerate(targets):
            if i < len(old):
                b, note = old[i]
            else:
                b, note = _action_button(icon="crosshairs"), HTML(layout=shared_layout())
                b.on_click(self._on_bet)
            self._bets[t] = b
            self._notes[f"bet:{t}"] = note
        for b, note in old[len(targets) :]:
            b.close()
            note.close()

    def _answer_offers(self) -> tuple[list[_Offer], list[Widget]]:
        """Call (with the advisor's odds) and Raise (R7.6, R7.7); the raise amount (no-limit)."""
        g, me, rules = self.game, self._seat, self.game.rules
        owed = g.owed() if g.phase is Phase.BATTLE_RESPONSE else 0
        foe = None
        if owed and g.battle is not None:
            foe = g.battle.attacker if me == g.battle.defender else g.battle.defender
        self._call.description = f"Call ({owed} chips)" if owed else "Call"
        call = self._offer(
            "call", self._call, Call(), "pay and show the battle down (R7.6)", "success", advise=foe
        )
        size = g.raise_size() if owed else 0
        self._raise.description = "Raise" + (f" (call {owed} + raise {size})" if owed else "")
        extra: list[Widget] = []
        if rules.no_limit:
            self._raise_amount.min = rules.big_bet
            if self._raise_amount.value < rules.big_bet:
                self._raise_amount.value = rules.big_bet
            extra.append(self._raise_amount)
        raise_ = self._offer(
            "raise",
            self._raise,
            Raise(amount=self._raise_amount.value if rules.no_limit else None),
            "pay the call, then raise; the other side must answer (R7.7)",
            "warning",
        )
        return [call, raise_], extra

    def _fold_offer(self) -> _Offer:
        """Fold: leave the hand (R6.6), or give up a battle (R7.5)."""
        if self.game.phase is Phase.BATTLE_RESPONSE:
            why = "give up the battle: you are out and lose your banner and soldiers (R7.5)"
        else:
            why = "leave the hand: all your cards go to the discard pile (R6.6)"
        return self._offer("fold", self._fold, Fold(), why, "")

    def _draw_actions(self, sections: list[Section]) -> None:
        every = [o for _, offers, _ in sections for o in offers]
        reasons = {o.reason for o in every}
        if all(o.button.disabled for o in every) and len(reasons) == 1:
            # one reason for everything (choosing discards, waiting, hand over): say it once
            head = self._part("all-head", HTML)
            head.value = root(
                '<div class="palace-section">Other actions</div>'
                f'<div class="palace-reason palace-reason-off">✗ {esc(reasons.pop())}</div>'
            )
            for o in every:
                o.note.value = ""
            flow = self._part("all-flow", HBox, [o.button for o in every], wrap=True)
            _set_children(self._actions_box, [head, flow])
        else:
            boxes = [self._section(i, *s) for i, s in enumerate(sections)]
            _set_children(self._actions_box, boxes)

    def _section(self, i: int, title: str, offers: list[_Offer], extra: list[Widget]) -> VBox:
        """A titled group of action rows; one shared reason is said once, under the title."""
        reasons = {o.reason for o in offers}
        shared = len(offers) > 1 and all(o.button.disabled for o in offers) and len(reasons) == 1
        head = f'<div class="palace-section">{esc(title)}</div>'
        if shared:
            head += f'<div class="palace-reason palace-reason-off">✗ {esc(reasons.pop())}</div>'
            for o in offers:
                o.note.value = ""
        head_w = self._part(f"head:{title.split(' (')[0]}", HTML)
        head_w.value = root(head)
        name = title.split(" (")[0]
        # a row per action: the note beside its button (wraps under it on a phone)
        rows = [self._part(f"row:{o.key}", HBox, [o.button, o.note], "center") for o in offers]
        return self._part(f"section:{name}", VBox, [head_w, *extra, *rows])

    # ------------------------------------------------------------------ text
    def text(self) -> str:
        """Every action with enabled/disabled and the reason (or the advice), then the status
        line: the same words the buttons and their notes show."""
        lines = [self._prompt_text]
        if self._choose_box.layout.display != "none":
            chosen = [c for c, t in self.toggles.items() if t.value]
            lines.append(
                f"Choosing discards from {symbols(self.game.soldiers(self._seat))}; "
                f"selected: {symbols(chosen)}"
            )
        order = ["buy", "discard", "stay", *(f"bet:{t}" for t in self._bets), "call", "raise"]
        lines += [self._offers[k].line() for k in [*order, "fold"]]
        if self._status_text:
            lines.append(f"Status: {self._status_text}")
        return "\n".join(lines)
