"""`ActionPicker`: the learner's buttons — legal ones enabled, the others disabled with the rule."""

from __future__ import annotations

import html
import re
from collections.abc import Callable

from ipywidgets import (
    HTML,
    BoundedIntText,
    Button,
    HBox,
    Layout,
    ToggleButton,
    VBox,
)

from palace.actions import Action, Bet, Buy, Call, Discard, Fold, Raise, Stay, Trim
from palace.cards import Card
from palace.errors import PalaceError
from palace.events import Event, Phase
from palace.game import Game
from palace.widgets.cards import card_html
from palace.widgets.session import PlayController
from palace.widgets.theme import esc, root, style_widget, symbols

Advisor = Callable[[Game, int, int], str]
ActionCallback = Callable[[Action, list[Event]], None]
BIG = 10**9
BUTTON_WIDTH = "250px"


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
    ) -> None:
        if isinstance(controller, Game):
            controller = PlayController(
                controller, human=seat if seat is not None else 0, bots={}, auto=False
            )
        self._ctl = controller
        self._seat = controller.seat if seat is None else seat
        self._advisor = advisor
        self.four_color = four_color
        self._callbacks: list[ActionCallback] = []
        self._choosing: str | None = None  # "discard" while picking soldiers to discard
        self._reasons: dict[str, str] = {}
        self._status_text = ""
        self._status_ok = True

        self._css = style_widget()
        self._prompt = HTML()
        self._buy = Button(layout=Layout(width=BUTTON_WIDTH, flex="none"))
        self._discard = Button(layout=Layout(width=BUTTON_WIDTH, flex="none"))
        self._stay = Button(description="Stay", layout=Layout(width=BUTTON_WIDTH, flex="none"))
        self._fold = Button(description="Fold", layout=Layout(width=BUTTON_WIDTH, flex="none"))
        self._call = Button(layout=Layout(width=BUTTON_WIDTH, flex="none"))
        self._raise = Button(layout=Layout(width=BUTTON_WIDTH, flex="none"))
        self._bet_amount = BoundedIntText(
            description="Attack with", min=0, max=BIG, layout=Layout(width="210px")
        )
        self._raise_amount = BoundedIntText(
            description="Raise by", min=0, max=BIG, layout=Layout(width="210px")
        )
        self._confirm = Button(
            description="Discard selected",
            button_style="danger",
            icon="trash",
            layout=Layout(width="200px"),
        )
        self._keep = Button(
            description="Keep all", button_style="success", layout=Layout(width="150px")
        )
        self._cancel = Button(description="Cancel", layout=Layout(width="120px"))
        self._status = HTML()
        self._notes: dict[str, HTML] = {
            k: HTML() for k in ("buy", "discard", "stay", "fold", "call", "raise")
        }
        self._bets: dict[int, Button] = {}
        self._bet_notes: dict[int, HTML] = {}
        self._toggles: dict[Card, ToggleButton] = {}
        self._toggle_cards: dict[Card, HTML] = {}

        for btn, fn in (
            (self._buy, self._on_buy),
            (self._discard, self._on_discard),
            (self._stay, self._on_stay),
            (self._fold, self._on_fold),
            (self._call, self._on_call),
            (self._raise, self._on_raise),
            (self._confirm, self._on_confirm),
            (self._keep, self._on_keep),
            (self._cancel, self._on_cancel),
        ):
            btn.on_click(fn)
        self._actions_box = VBox(layout=Layout(grid_gap="8px"))
        self._choose_box = VBox()
        super().__init__(
            [self._css, self._prompt, self._choose_box, self._actions_box, self._status],
            layout=Layout(width="100%", grid_gap="4px"),
        )
        self.add_class("palace-panel")
        self.add_class("palace-picker")
        controller.add_listener(self._on_game_changed)
        self.refresh()

    # ------------------------------------------------------------------ public
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
        return self._reasons.get(kind if kind != "bet" else f"bet:{target}", "")

    @property
    def toggles(self) -> dict[Card, ToggleButton]:
        """The soldier toggles shown while choosing discards (True = discard it)."""
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
        return True

    # ------------------------------------------------------------------ callbacks
    def _on_game_changed(self, events: list[Event]) -> None:
        if not events:  # undo or a new hand: the old message no longer applies
            self._set_status("", ok=True)
        self.refresh()

    def _on_buy(self, _: Button) -> None:
        self.act(Buy())

    def _on_discard(self, _: Button) -> None:
        self._choosing = "discard"
        for t in self._toggles.values():
            t.value = False
        self._set_status("Choose the soldiers to discard, then press Discard selected.", ok=True)
        self.refresh()

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
        self._status_text, self._status_ok = text, ok
        cls = "palace-status-ok" if ok else "palace-status-bad"
        mark = "" if not text else ("✓ " if ok else "✗ ")
        self._status.value = root(
            f'<div class="palace-status-line {cls}" role="status">{mark}{esc(text)}</div>'
        )

    def _why(self, action: Action) -> str | None:
        """The engine's reason, or why it is not this seat's decision."""
        g = self.game
        if g.is_over or g.to_act == self._seat:
            return g.why_illegal(action)
        return f"wait: it is {g.names[g.to_act]}'s decision, not yours"  # type: ignore[index]

    def _setup_button(
        self, key: str, btn: Button, action: Action, help_text: str, note: HTML, style: str
    ) -> None:
        why = self._why(action)
        btn.disabled = why is not None
        btn.button_style = "" if why else style
        btn.tooltip = why or help_text
        self._reasons[key] = why or ""
        if why:
            note.value = f'<span class="palace-reason palace-reason-off">✗ {esc(why)}</span>'
        elif help_text:
            note.value = f'<span class="palace-reason">{esc(help_text)}</span>'
        else:
            note.value = ""

    def _row(self, btn: Button, note: HTML) -> HBox:
        return HBox([btn, note], layout=Layout(align_items="center", grid_gap="10px"))

    def _ensure_bets(self) -> None:
        n = self.game.players
        if len(self._bets) == n - 1 and all(t < n for t in self._bets):
            return
        for b in self._bets.values():
            b.close()
        self._bets, self._bet_notes = {}, {}
        for t in range(n):
            if t == self._seat:
                continue
            b = Button(icon="crosshairs", layout=Layout(width=BUTTON_WIDTH, flex="none"))
            b.on_click(self._on_bet)
            self._bets[t] = b
            self._bet_notes[t] = HTML()

    def _toggle(self, card: Card) -> ToggleButton:
        if card not in self._toggles:
            t = ToggleButton(
                value=False,
                description="keep",
                tooltip=f"discard {card.name}?",
                layout=Layout(width="76px"),
            )
            t.observe(self._on_toggle, names="value")
            self._toggles[card] = t
            self._toggle_cards[card] = HTML()
        return self._toggles[card]

    def _style_toggle(self, t: ToggleButton) -> None:
        card = next(c for c, x in self._toggles.items() if x is t)
        t.description = "discard" if t.value else "keep"
        t.button_style = "danger" if t.value else ""
        why = "to be discarded" if t.value else None
        self._toggle_cards[card].value = root(
            card_html(card, four_color=self.four_color, struck=why)
        )

    def _section(self, title: str, rows: list[tuple[str, Button, HTML]], extra: list) -> VBox:
        """A titled group of action rows; one shared reason is said once, under the title."""
        reasons = {self._reasons.get(k, "") for k, _, _ in rows}
        shared = len(rows) > 1 and all(b.disabled for _, b, _ in rows) and len(reasons) == 1
        head = f'<div class="palace-section">{esc(title)}</div>'
        if shared:
            head += f'<div class="palace-reason palace-reason-off">✗ {esc(reasons.pop())}</div>'
            for _, _, note in rows:
                note.value = ""
        children = [HTML(root(head)), *extra]
        children += [self._row(b, note) for _, b, note in rows]
        return VBox(children, layout=Layout(grid_gap="3px"))

    def refresh(self) -> None:
        """Redraw from the controller's game."""
        g, me = self.game, self._seat
        name = g.names[me]
        mine = not g.is_over and g.to_act == me
        phase = g.phase
        if not mine:
            self._choosing = None
        self._reasons = {}
        rules = g.rules
        soldiers = g.soldiers(me)

        # prompt ---------------------------------------------------------------
        if g.is_over:
            prompt = "The hand is over: no more actions (R9, R10)."
        elif not mine:
            prompt = f"Waiting for {g.names[g.to_act]}…"  # type: ignore[index]
        elif phase is Phase.BATTLE_RESPONSE:
            b = g.battle
            opp = b.attacker if me == b.defender else b.defender
            verb = "attacks you" if me == b.defender else "raises"
            prompt = f"{g.names[opp]} {verb}! Pay {g.owed()} to call, raise, or fold (R7.4)."
        elif phase is Phase.TRIM_TO_FIVE:
            prompt = f"{name}, choose soldiers to discard — keep at most five (R6.7)."
        else:
            prompt = f"Your turn, {name}: pick one action (R6.1)."
        self._prompt.value = root(f'<div class="palace-prompt">{esc(prompt)}</div>')

        # soldier chooser (Trim after Buy / capture, or Discard) ------------------
        trim = mine and phase is Phase.TRIM_TO_FIVE
        choosing = trim or (mine and self._choosing == "discard" and phase is Phase.TURN)
        if choosing:
            cols = []
            for c in soldiers:
                t = self._toggle(c)
                self._style_toggle(t)
                cols.append(
                    VBox(
                        [self._toggle_cards[c], t],
                        layout=Layout(align_items="center", width="84px"),
                    )
                )
            captured = bool(g.events) and g.events[-1].kind == "capture"
            if trim and captured:
                rule = g.events[-1].rule
                title = f"Captured: discard any soldiers? ({rule}; at most five stay, R6.7)"
            elif trim:
                title = "Bought: discard any soldiers? (R6.2; at most five stay, R6.7)"
            else:
                title = f"Discard which soldiers? (pays {rules.discard_amount}, R6.4)"
            buttons = [self._confirm, self._keep] if trim else [self._confirm, self._cancel]
            self._choose_box.children = [
                HTML(root(f'<div class="palace-section">{esc(title)}</div>')),
                HBox(cols, layout=Layout(flex_flow="row wrap", grid_gap="6px")),
                HBox(buttons, layout=Layout(grid_gap="8px")),
            ]
            self._choose_box.layout.display = None
        else:
            self._choose_box.children = []
            self._choose_box.layout.display = "none"

        # turn actions ---------------------------------------------------------------
        self._buy.description = f"Buy ({rules.small_bet} chips)"
        self._buy.icon = "plus"
        self._setup_button(
            "buy",
            self._buy,
            Buy(),
            "pay, draw a soldier, then discard any (R6.2)",
            self._notes["buy"],
            "info",
        )
        self._discard.description = f"Discard… ({rules.discard_amount} chips)"
        self._discard.icon = "trash"
        self._setup_button(
            "discard",
            self._discard,
            Discard(cards=soldiers),
            "pay and discard one or more soldiers (R6.4)",
            self._notes["discard"],
            "info",
        )
        self._stay.icon = "hand-paper-o"
        self._setup_button(
            "stay",
            self._stay,
            Stay(),
            "do nothing; the turn passes (R6.5)",
            self._notes["stay"],
            "info",
        )
        if phase is Phase.BATTLE_RESPONSE:
            fold_help = "give up the battle: you are out and lose your banner and soldiers (R7.5)"
        else:
            fold_help = "leave the hand: all your cards go to the discard pile (R6.6)"
        self._fold.icon = "flag"
        self._setup_button("fold", self._fold, Fold(), fold_help, self._notes["fold"], "")

        # bets ------------------------------------------------------------------
        self._ensure_bets()
        low = g.min_attack(me)
        bet_extra: list = []
        if rules.no_limit:
            stack = g.stacks[me] if g.stacks is not None else BIG
            self._bet_amount.min = min(low, stack)
            self._bet_amount.max = max(stack, low)
            if self._bet_amount.value < low:
                self._bet_amount.value = low
            bet_extra.append(self._bet_amount)
        for t, b in self._bets.items():
            b.description = f"Attack {g.names[t]}" + ("" if rules.no_limit else f" ({low} chips)")
            bet = Bet(target=t, amount=self._bet_amount.value if rules.no_limit else None)
            self._setup_button(
                f"bet:{t}",
                b,
                bet,
                "",
                self._bet_notes[t],
                "danger",
            )
            if not b.disabled and self._advisor is not None:
                try:
                    advice = self._advisor(g, me, t)
                except Exception as exc:  # an advisor bug must not break the game
                    advice = f"(advisor failed: {exc})"
                self._bet_notes[t].value = f'<span class="palace-advice">{esc(advice)}</span>'

        # answering an attack ---------------------------------------------------------
        owed = g.owed() if phase is Phase.BATTLE_RESPONSE else 0
        self._call.description = f"Call ({owed} chips)" if owed else "Call"
        self._call.icon = "check"
        self._setup_button(
            "call",
            self._call,
            Call(),
            "pay and show the battle down (R7.6)",
            self._notes["call"],
            "success",
        )
        self._call_advice = ""
        if owed and not self._call.disabled and self._advisor is not None and g.battle:
            b = g.battle
            foe = b.attacker if me == b.defender else b.defender
            try:
                self._call_advice = self._advisor(g, me, foe)
            except Exception as exc:  # an advisor bug must not break the game
                self._call_advice = f"(advisor failed: {exc})"
            self._notes[
                "call"
            ].value += f'<br><span class="palace-advice">{esc(self._call_advice)}</span>'
        size = g.raise_size() if owed else 0
        self._raise.description = "Raise" + (f" (call {owed} + raise {size})" if owed else "")
        self._raise.icon = "arrow-up"
        raise_extra: list = []
        if rules.no_limit:
            self._raise_amount.min = rules.big_bet
            if self._raise_amount.value < rules.big_bet:
                self._raise_amount.value = rules.big_bet
            raise_extra.append(self._raise_amount)
        raise_action = Raise(amount=self._raise_amount.value if rules.no_limit else None)
        self._setup_button(
            "raise",
            self._raise,
            raise_action,
            "pay the call, then raise; the other side must answer (R7.7)",
            self._notes["raise"],
            "warning",
        )

        n = self._notes
        sections = [
            (
                "On your turn",
                [
                    ("buy", self._buy, n["buy"]),
                    ("discard", self._discard, n["discard"]),
                    ("stay", self._stay, n["stay"]),
                ],
                [],
            ),
            (
                f"Attack a player (minimum {low} chips, R7.3): they fold, call or raise (R7.4)",
                [(f"bet:{t}", b, self._bet_notes[t]) for t, b in self._bets.items()],
                bet_extra,
            ),
            (
                "Answering an attack",
                [("call", self._call, n["call"]), ("raise", self._raise, n["raise"])],
                raise_extra,
            ),
            ("Leave", [("fold", self._fold, n["fold"])], []),
        ]
        if phase is Phase.BATTLE_RESPONSE:  # the answer first
            sections = sections[2:] + sections[:2]
        every = [row for _, rows, _ in sections for row in rows]
        reasons = {self._reasons.get(k, "") for k, _, _ in every}
        if all(b.disabled for _, b, _ in every) and len(reasons) == 1:
            # one reason for everything (choosing discards, waiting, hand over): say it once
            head = (
                '<div class="palace-section">Other actions</div>'
                f'<div class="palace-reason palace-reason-off">✗ {esc(reasons.pop())}</div>'
            )
            for _, _, note in every:
                note.value = ""
            self._actions_box.children = [
                HTML(root(head)),
                HBox([b for _, b, _ in every], layout=Layout(flex_flow="row wrap", grid_gap="6px")),
            ]
        else:
            self._actions_box.children = [self._section(*sec) for sec in sections]
        self._actions_box.layout.display = "none" if g.is_over else None
        if not self._status_text:
            self._set_status("", ok=True)

    # ------------------------------------------------------------------ text
    def text(self) -> str:
        """Every action with enabled/disabled and the reason, then the status line."""
        g = self.game
        prompt = re.sub(r"<[^>]+>", "", self._prompt.value)
        lines = [prompt.strip()]
        if self._choose_box.layout.display != "none":
            chosen = [c for c, t in self.toggles.items() if t.value]
            lines.append(
                f"Choosing discards from {symbols(g.soldiers(self._seat))}; "
                f"selected: {symbols(chosen)}"
            )
        items: list[tuple[str, Button]] = [
            ("buy", self._buy),
            ("discard", self._discard),
            ("stay", self._stay),
        ]
        items += [(f"bet:{t}", b) for t, b in self._bets.items()]
        items += [("call", self._call), ("raise", self._raise), ("fold", self._fold)]
        for key, b in items:
            state = "off" if b.disabled else "on"
            why = self._reasons.get(key, "")
            extra = f" — {why}" if why else ""
            if key == "call" and getattr(self, "_call_advice", ""):
                extra = f" — {self._call_advice}"
            if key.startswith("bet:") and not b.disabled and self._advisor is not None:
                advice = html.unescape(re.sub(r"<[^>]+>", "", self._bet_notes[int(key[4:])].value))
                extra = f" — {advice}"
            lines.append(f"[{state}] {b.description}{extra}")
        if self._status_text:
            lines.append(f"Status: {self._status_text}")
        return "\n".join(lines)
