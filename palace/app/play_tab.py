"""The app's Play tab: set up a hand, play it against bots or hot seat, with optional odds.

The computer players are rule bots, odds bots or search bots (`BOT_KINDS`); each bot's move
is narrated with its reason (`palace.analysis.bot_reasons`) unless "Bots explain" is off.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ipywidgets import HTML, Button, Checkbox, Dropdown, HBox, Layout, ToggleButton, VBox

from palace.analysis.bot_reasons import Explaining
from palace.analysis.bots import Bot, RuleBot
from palace.analysis.variants import STANDARD, VARIANTS, variant
from palace.app.common import (
    VIEW_ALL,
    VIEW_PLAYERS,
    VIEW_SEAT,
    WIDE_LABEL,
    close_tree,
    flow_row,
    guard,
    message_html,
    titled_box,
)
from palace.app.files import download_link, download_name, hand_json
from palace.app.lazy import Later
from palace.app.number_fields import MAX_CHIPS, MAX_STAKE, SEED_LIMIT, FieldError, WholeField
from palace.errors import PalaceError
from palace.events import Event
from palace.game import Game
from palace.rules import Rules
from palace.table import DEFAULT_NAMES
from palace.views import SeatView
from palace.widgets.action_picker import ActionPicker, Advisor
from palace.widgets.battle_view import BattleView
from palace.widgets.hand_log import HandLog
from palace.widgets.hand_review import HandReview
from palace.widgets.labels import legend_html, rules_words
from palace.widgets.narration import Narration
from palace.widgets.pacing import BOT_SPEEDS, BotPacer
from palace.widgets.session import PlayController
from palace.widgets.table_view import TableView
from palace.widgets.theme import esc, root, shared_layout

BOT_KINDS: dict[str, str] = {
    "rules": "Rule bots",
    "odds": "Odds bots (exact odds)",
    "search": "Search bots (think ahead)",
}
"""Who plays the computer seats, by the name the setup menu shows."""
APP_SIMULATIONS = 40
"""Worlds a search bot of the Play tab searches a decision: a small budget, so a move takes
a few hundredths of a second here."""


# ---------------------------------------------------------------------------- play
class PlayTab(VBox):
    """Set up a hand (players, seed, variant, stakes, which seats are bots) and play it.

    Several seats may be human: they take turns at the same screen ("hot seat"); the
    action buttons always belong to the human whose decision it is, and between two human
    seats a cover hides the table's palaces until the next player presses to reveal. The
    bots play one action at a time (Bot speed), narrated, the last to act ringed.
    """

    def __init__(
        self,
        *,
        players: int = 4,
        seed: int = 7,
        advisor: Advisor | None = None,
        on_save: Callable[[Game], None] | None = None,
        on_game: Callable[[], None] | None = None,
        log_lines: int = 10,
        bot: str = "rules",
    ) -> None:
        if bot not in BOT_KINDS:
            raise ValueError(f"bot must be one of {', '.join(BOT_KINDS)}, got {bot!r}")
        self._advisor = advisor
        self._on_save = on_save
        self.on_game = on_game  # called after a new hand is dealt or loaded
        self._view_mode, self._view_seat = VIEW_PLAYERS, 0
        self.players = WholeField(
            players,
            label="Players",
            low=2,
            high=10,
            note="(R1.1)",
            layout=shared_layout(width="150px"),
        )
        self.seed = WholeField(
            seed,
            label="Seed",
            low=-(SEED_LIMIT - 1),
            high=SEED_LIMIT - 1,
            layout=shared_layout(width="240px"),
        )
        self.variant = Dropdown(
            options=[(v.label, slug) for slug, v in VARIANTS.items()],
            value=STANDARD,
            description="Variant",
            layout=shared_layout(width="290px"),
        )
        self._bot_default = bot
        self._bots: list[Checkbox] = []  # made with the stakes and bots (_build_more)
        # stakes, seats and bots: built when first opened (or asked for from code)
        self._more: Later[VBox] = Later(self._build_more, layout=shared_layout())
        self.more_button = ToggleButton(
            description="Stakes and bots…",
            icon="sliders",
            value=False,
            tooltip="stakes, which seats the computer plays, and how",
            layout=shared_layout(width="170px"),
        )
        self._reasons: dict[int, str] = {}  # event index -> the reason of the bot's move
        self._bot_seed = seed
        self.deal_button = Button(
            description="Deal",
            icon="play",
            button_style="primary",
            layout=shared_layout(width="120px"),
        )
        self.next_button = Button(
            description="Next seed",
            icon="forward",
            tooltip="seed + 1, then deal",
            layout=shared_layout(width="130px"),
        )
        self.undo_button = Button(
            description="Undo",
            icon="undo",
            tooltip="take back the last human decision",
            layout=shared_layout(width="110px"),
        )
        self.save_button = Button(
            description="Save hand",
            icon="download",
            tooltip="make a download link for this hand",
            layout=shared_layout(width="140px"),
        )
        self.odds = Checkbox(
            value=advisor is not None,
            disabled=advisor is None,
            description="Show battle odds",
            indent=False,
            layout=shared_layout(width="170px"),
        )
        self.bot_speed = Dropdown(
            options=[(name.capitalize(), name) for name in BOT_SPEEDS],
            value="normal",
            description="Bot speed",
            style=WIDE_LABEL,
            layout=shared_layout(width="190px"),
        )
        # the hot-seat cover, built the first time two humans share the screen
        self._cover_slot: Later[VBox] = Later(self._build_cover, layout=shared_layout())
        self._shown_for: int | None = None
        self.four_color = False
        self.narration = Narration("Since your last move")
        self.review = HandReview()
        self._since = 0
        self._legend = HTML(
            root(legend_html("best", "struck", "act", "focus", "seen")), layout=shared_layout()
        )
        self.message = HTML(layout=shared_layout())
        self.download = HTML(layout=shared_layout())
        self._title = HTML(layout=shared_layout())
        self._all_bots: HTML | None = None  # "Every seat is a computer player" when needed
        self._hand_log = HandLog(
            again="Press <b>Deal</b> or <b>Next seed</b> to play again, "
            "or <b>Save hand</b> to keep it.",
            lines=log_lines,
        )
        self.table = TableView()
        self._pickers_box = VBox(layout=shared_layout(flex="1 1 560px", min_width="480px"))
        self.battle: BattleView = self._hand_log.battle

        self.deal_button.on_click(self._on_deal)
        self.next_button.on_click(self._on_next)
        self.undo_button.on_click(self._on_undo)
        self.save_button.on_click(self._on_save_click)
        self.players.observe(self._on_players, names="value")
        self.odds.observe(self._on_odds, names="value")
        self.bot_speed.observe(self._on_speed, names="value")
        self.more_button.observe(self._on_more, names="value")

        setup = titled_box(
            "Set up a hand",
            flow_row(self.players, self.seed, self.variant, self.more_button),
            self._more,
            flow_row(
                self.deal_button,
                self.next_button,
                self.undo_button,
                self.save_button,
                self.odds,
                self.bot_speed,
            ),
            self.download,
        )
        lower = HBox(
            [
                self._pickers_box,
                VBox(
                    [self._hand_log.log],
                    layout=shared_layout(flex="1 1 380px", min_width="320px"),
                ),
            ],
            layout=shared_layout(flex_flow="row wrap", grid_gap="14px", width="100%"),
        )
        super().__init__(
            [
                setup,
                self.message,
                self._title,
                self._hand_log.result,
                self.review,
                self.narration,
                self._cover_slot,
                self.table,
                self._legend,
                lower,
                self._hand_log.battle_box,
            ],
            layout=shared_layout(width="100%", grid_gap="10px"),
        )
        self.add_class("palace-panel")
        self.add_class("palace-app-play")
        self._ctl: PlayController | None = None
        self._pacer: BotPacer | None = None
        self._pickers: dict[int, ActionPicker] = {}
        self._on_players({"new": players})
        self.deal()

    # ------------------------------------------------------------------ public
    @property
    def controller(self) -> PlayController:
        assert self._ctl is not None
        return self._ctl

    @property
    def game(self) -> Game:
        return self.controller.game

    @property
    def humans(self) -> tuple[int, ...]:
        return tuple(sorted(self.controller.humans))

    @property
    def pickers(self) -> dict[int, ActionPicker]:
        return dict(self._pickers)

    @property
    def picker(self) -> ActionPicker | None:
        """The action buttons shown now (the human whose decision it is), if any."""
        seat = self._acting_human()
        return None if seat is None else self._pickers[seat]

    @property
    def hand_log(self) -> HandLog:
        """The latest events, the latest battle and the result box."""
        return self._hand_log

    def rules(self) -> Rules:
        """The Rules of the setup: the chosen variant with the stakes fields (RulesError)."""
        base = variant(self.variant.value).rules.to_dict()
        small, big, chips = self._stakes()
        base.update(
            small_bet=small,
            big_bet=big,
            stacks=chips or None,
        )
        return Rules.from_dict(base)

    def deal(self, seed: int | None = None) -> bool:
        """Deal exactly the hand the setup asks for; False (with an alert, and the hand on the
        table kept) if a field is refused: the message names the field and its range."""
        try:
            if seed is not None:
                self.seed.value = self.seed.check(seed)
            n = self.players.read()
            game = Game.new(players=n, seed=self.seed.read(), rules=self.rules())
        except PalaceError as exc:
            self.say(f"Cannot deal: {exc}", ok=False)
            return False
        humans = [s for s in range(n) if not self._is_bot(s)]
        self.start(game, humans)
        who = ", ".join(game.names[s] for s in humans) or "nobody (all bots)"
        self.say(f"Dealt seed {game.seed}: {n} players; human: {who}.", ok=True)
        return True

    def start(self, game: Game, humans: Sequence[int]) -> None:
        """Play `game` with these human seats (bots for the others) from where it stands."""
        old = list(self._pickers.values())
        if self._pacer is not None:
            self._pacer.cancel()
        self._reasons = {}
        self._bot_seed = game.seed
        ctl = PlayController(
            game,
            human=[s for s in humans if 0 <= s < game.players],
            auto=False,
            bot_factory=self.make_bot,
        )
        self._ctl = ctl  # before the bots play: their reasons are about this game
        opening = len(game.events)  # the bots' moves before the first human decision are told
        ctl.advance_bots(notify=False)  # the bots before the first human decision: at once
        self._pacer = BotPacer(ctl, self.bot_speed.value)
        self._pickers = {}
        for s in sorted(ctl.humans):  # the last hand's pickers are reused (issue 26)
            if old:
                picker = old.pop(0)
                picker.four_color = self.four_color
                picker.rebind(ctl, s, advisor=self._active_advisor())
            else:
                picker = ActionPicker(
                    ctl, s, advisor=self._active_advisor(), four_color=self.four_color
                )
                picker.on_action(self._on_action)
            self._pickers[s] = picker
        ctl.add_listener(self._on_change)
        self.download.value = ""
        self._shown_for = None
        self._since = opening
        self.redraw()
        first = self.picker
        if first is not None and not self.covered:
            first.focus_prompt()  # the keyboard starts at the first decision
        for p in old:
            close_tree(p)
        if self.on_game is not None:
            self.on_game()

    def make_bot(self, seat: int) -> Bot:
        """A computer player of the kind chosen in the setup, whose reasons are narrated."""
        kind = self._bot_kind_value()
        bot: Bot
        if kind == "search":
            from palace.analysis.search_bot import SearchBot  # loaded when first chosen

            seed = self._bot_seed * 16 + seat
            bot = SearchBot(APP_SIMULATIONS, seed=seed)
        elif kind == "odds":
            from palace.analysis.odds_bot import OddsBot

            bot = OddsBot()
        else:
            bot = RuleBot()
        return Explaining(bot, self._on_reason)

    @property
    def reasons(self) -> dict[int, str]:
        """The bots' reasons so far, by the index of the first event of each move."""
        return dict(self._reasons)

    def set_view(self, mode: str, seat: int) -> None:
        """The instructor switch: players' view, one seat's view or all cards."""
        self._view_mode, self._view_seat = mode, seat
        self.redraw()

    def perspective(self) -> tuple[int | None, bool]:
        """(seat whose view the table shows, reveal all)."""
        g = self.game
        if self._view_mode == VIEW_ALL:
            return self._acting_human(), True
        if self._view_mode == VIEW_SEAT:
            return (self._view_seat if 0 <= self._view_seat < g.players else None), False
        return self._acting_human(), False

    def save(self) -> str:
        """Refresh the download link for the current hand; returns the JSON saved."""
        g = self.game
        self.download.value = root(download_link(g))
        if self._on_save is not None:
            self._on_save(g.replay())
        return hand_json(g)

    def undo(self) -> bool:
        """Take back the last human decision; False (with an alert) if there is none."""
        try:
            self.controller.undo()
        except PalaceError as exc:
            self.say(str(exc), ok=False)
            return False
        self.say("The last human decision was taken back.", ok=True)
        return True

    def say(self, text: str, *, ok: bool) -> None:
        """Show `text` above the table (an alert unless `ok`; "" clears it)."""
        self.message.value = message_html(text, ok=ok)

    @property
    def covered(self) -> bool:
        """Is the hot-seat cover up (the next human's cards hidden until they reveal)?"""
        cover = self._cover_slot.panel
        return cover is not None and cover.layout.display != "none"

    def uncover(self) -> None:
        """The next human has the screen: show their cards and buttons."""
        self._shown_for = self._acting_human()
        self.redraw()
        p = self.picker
        if p is not None:
            p.focus_prompt()

    def set_four_color(self, value: bool) -> None:
        """Four-colour suits on the table, the buttons and the battle."""
        self.four_color = bool(value)
        self.table.four_color = self.four_color
        self._hand_log.battle.four_color = self.four_color
        for picker in self._pickers.values():
            picker.four_color = self.four_color
        self.redraw()

    # ------------------------------------------------------------------ stakes and bots
    def _build_more(self) -> VBox:
        """The setup's second part (stakes, computer seats, bot kind), built when opened."""
        self._small_bet = WholeField(
            2,
            label="Small bet",
            low=1,
            high=MAX_STAKE,
            note="(R3)",
            description="Small bet s",
            style=WIDE_LABEL,
            layout=Layout(width="170px"),
        )
        self._big_bet = WholeField(
            4,
            label="Big bet",
            low=1,
            high=MAX_STAKE,
            note="(R3)",
            description="Big bet b",
            style=WIDE_LABEL,
            layout=Layout(width="160px"),
        )
        self._stacks = WholeField(
            0,
            label="Chips each",
            low=0,
            high=MAX_CHIPS,
            note="(0 = unlimited, R3.4)",
            description="Chips each (0 = unlimited)",
            style=WIDE_LABEL,
            layout=Layout(width="300px"),
        )
        self._bots = [
            Checkbox(
                value=i != 0,
                description=f"{name} is a bot",
                indent=False,
                layout=Layout(width="135px"),
            )
            for i, name in enumerate(DEFAULT_NAMES)
        ]
        self._bot_kind = Dropdown(
            options=[(label, kind) for kind, label in BOT_KINDS.items()],
            value=self._bot_default,
            description="Computer",
            tooltip="who plays the computer seats",
            layout=Layout(width="330px"),  # the longest label whole: "Search bots (think ahead)"
        )
        self._explain = Checkbox(
            value=True,
            description="Bots explain their moves (gives away what they hold)",
            indent=False,
            layout=Layout(width="auto"),
        )
        self._bot_row = flow_row(*self._bots, gap="2px 6px")
        self._bot_kind.observe(self._on_bot_kind, names="value")
        self._explain.observe(self._on_explain, names="value")
        more = VBox(
            [
                flow_row(self._small_bet, self._big_bet, self._stacks),
                HTML(
                    root(
                        '<div class="palace-section">Computer players (untick a seat to play '
                        "it yourself; several humans take turns)</div>"
                    )
                ),
                self._bot_row,
                flow_row(self._bot_kind, self._explain),
            ],
            layout=Layout(grid_gap="6px", display="none"),
        )
        self._show_seats()
        return more

    def _build_cover(self) -> VBox:
        """ "Pass the screen to Bob": hides the next human's cards until they reveal them."""
        self._reveal_button = Button(
            description="Show my cards",
            icon="eye",
            button_style="primary",
            tooltip="only when the screen is yours alone",
            layout=Layout(width="auto"),
        )
        self._reveal_button.on_click(self._on_reveal)
        self._cover_text = HTML(layout=shared_layout())
        cover = VBox(
            [self._cover_text, self._reveal_button],
            layout=Layout(display="none", grid_gap="10px", align_items="center"),
        )
        cover.add_class("palace-cover")
        return cover

    @property
    def reveal_button(self) -> Button:
        """The cover's "I am Bob: show my cards" button."""
        self._cover_slot.get()
        return self._reveal_button

    def _settings(self) -> VBox:
        self._more.get()
        return self._more

    @property
    def small_bet(self) -> WholeField:
        self._settings()
        return self._small_bet

    @small_bet.setter
    def small_bet(self, value: WholeField) -> None:
        self._small_bet = value

    @property
    def big_bet(self) -> WholeField:
        self._settings()
        return self._big_bet

    @big_bet.setter
    def big_bet(self, value: WholeField) -> None:
        self._big_bet = value

    @property
    def stacks(self) -> WholeField:
        self._settings()
        return self._stacks

    @stacks.setter
    def stacks(self, value: WholeField) -> None:
        self._stacks = value

    @property
    def bots(self) -> list[Checkbox]:
        """One "is a bot" box per seat (Ann to Jon)."""
        self._settings()
        return self._bots

    @bots.setter
    def bots(self, value: list[Checkbox]) -> None:
        self._bots = value

    @property
    def bot_kind(self) -> Dropdown:
        self._settings()
        return self._bot_kind

    @bot_kind.setter
    def bot_kind(self, value: Dropdown) -> None:
        self._bot_kind = value

    @property
    def explain(self) -> Checkbox:
        self._settings()
        return self._explain

    @explain.setter
    def explain(self, value: Checkbox) -> None:
        self._explain = value

    def _is_bot(self, seat: int) -> bool:
        """Is `seat` a computer player in the setup (by default every seat but Ann's)?"""
        return self.bots[seat].value if self._more.built else seat != 0

    def _bot_kind_value(self) -> str:
        return self.bot_kind.value if self._more.built else self._bot_default

    def _explaining(self) -> bool:
        return self.explain.value if self._more.built else True

    def _stakes(self) -> tuple[int, int, int]:
        if not self._more.built:
            return 2, 4, 0
        return self.small_bet.read(), self.big_bet.read(), self.stacks.read()

    @guard
    def _on_more(self, change: dict) -> None:
        if change["new"] or self._more.built:
            self._more.get().layout.display = None if change["new"] else "none"

    # ------------------------------------------------------------------ callbacks
    @guard
    def _on_deal(self, _: Button) -> None:
        self.deal()

    @guard
    def _on_next(self, _: Button) -> None:
        try:
            seed = self.seed.read()
        except FieldError as exc:
            self.say(f"Cannot deal: {exc}", ok=False)
            return
        self.deal(seed + 1)  # refused (box unchanged) past the largest seed

    @guard
    def _on_undo(self, _: Button) -> None:
        self.undo()

    @guard
    def _on_save_click(self, _: Button) -> None:
        self.save()
        self.say(f"Saved: download {download_name(self.game)} below the buttons.", ok=True)

    def _on_players(self, change: dict) -> None:
        self._show_seats()

    def _show_seats(self) -> None:
        """Show one "is a bot" box per seat of the Players box (once they are built)."""
        n = self.players.peek()
        if n is None:
            return  # Deal will say what is wrong with the box
        for i, box in enumerate(self._bots):
            box.layout.display = None if i < n else "none"

    @guard
    def _on_odds(self, change: dict) -> None:
        for p in self._pickers.values():
            p.advisor = self._active_advisor()

    @guard
    def _on_speed(self, change: dict) -> None:
        if self._pacer is not None:
            self._pacer.speed = change["new"]

    @guard
    def _on_reveal(self, _: Button) -> None:
        self.uncover()

    @guard
    def _on_bot_kind(self, change: dict) -> None:
        ctl = self._ctl
        if ctl is not None:  # the bots of this hand change from their next move on
            for s in list(ctl.bots):
                ctl.bots[s] = self.make_bot(s)
        self.say(
            f"The computer seats are now played by {BOT_KINDS[change['new']].lower()}.", ok=True
        )

    @guard
    def _on_explain(self, change: dict) -> None:
        self.redraw()

    def _on_reason(self, view: SeatView, action: object, why: str) -> None:
        ctl = self._ctl
        if ctl is not None and why:
            self._reasons[len(ctl.game.events)] = why  # the move's first event comes next

    def _on_action(self, _action: object, events: list[Event]) -> None:
        self._since = events[0].index if events else len(self.game.events)
        self.redraw()

    @guard
    def _on_change(self, events: list[Event]) -> None:
        if events:
            self.say("", ok=True)
        else:  # an undo or a new game: nothing to narrate
            self._since = len(self.game.events)
            self._reasons = {i: w for i, w in self._reasons.items() if i < self._since}
        self.download.value = ""  # a saved link would be stale
        self.redraw()
        if self._pacer is not None:
            self._pacer.run()

    # ------------------------------------------------------------------ drawing
    def _active_advisor(self) -> Advisor | None:
        return self._advisor if self.odds.value else None

    def _cover_needed(self) -> bool:
        """Hot seat: another human's decision, and their cards not revealed yet."""
        ctl = self.controller
        g = ctl.game
        if len(ctl.humans) < 2 or self._view_mode != VIEW_PLAYERS or g.is_over:
            return False
        return g.to_act in ctl.humans and g.to_act != self._shown_for

    def _acting_human(self) -> int | None:
        """The human whose decision it is, else the last human who acted, else the first."""
        ctl = self.controller
        g = ctl.game
        if not ctl.humans:
            return None
        if g.to_act in ctl.humans:
            return g.to_act
        for s in reversed(ctl.actors):
            if s in ctl.humans:
                return s
        return min(ctl.humans)

    def redraw(self) -> None:
        """Draw the table, the buttons of the human to act, the log, battle and result."""
        ctl = self.controller
        g = ctl.game
        seat, reveal = self.perspective()
        humans = sorted(ctl.humans)
        bots = [g.names[s] for s in range(g.players) if s not in ctl.humans]
        parts = [f"seed {g.seed}", f"{g.players} players", rules_words(g.rules)]
        if humans:
            parts.append("you play " + ", ".join(g.names[s] for s in humans))
        if bots:
            parts.append("computer: " + ", ".join(bots))
        self._title.value = root(
            '<span class="palace-title">The hand</span> '
            f'<span class="palace-subtitle">{esc(" · ".join(parts))}</span>'
        )
        covered = self._cover_needed()
        if covered:
            nxt = g.names[g.to_act] if g.to_act is not None else "the next player"
            cover = self._cover_slot.get()
            self._cover_text.value = root(
                f'<div role="status">Pass the screen to {esc(nxt)}. {esc(nxt)}, press '
                f"Show my cards when only you can see it.</div>"
            )
            self.reveal_button.description = f"I am {nxt}: show my cards"
            self.reveal_button.tooltip = f"show {nxt}'s palace and buttons"
            cover.layout.display = None
            seat = None  # the table shows public cards only while covered
        else:
            if self._cover_slot.panel is not None:
                self._cover_slot.panel.layout.display = "none"
            if len(humans) > 1 and g.to_act in ctl.humans:
                self._shown_for = g.to_act
        viewer = seat if not reveal else seat
        notes = self._reasons if self._explaining() else None
        self.narration.show(g, viewer, self._since, reveal=reveal, notes=notes)
        self.table.show(g, perspective=seat, reveal_all=reveal, focus=self.narration.last_seat)
        ps = self._acting_human()
        if ps is None:
            if self._all_bots is None:
                self._all_bots = HTML(
                    root(
                        '<div class="palace-prompt">Every seat is a computer player: the hand '
                        "was played out. Untick a seat above to play it yourself.</div>"
                    ),
                    layout=shared_layout(),
                )
            self._pickers_box.children = [self._all_bots]
        elif covered:
            self._pickers_box.children = []
        else:
            self._pickers_box.children = [self._pickers[ps]]
        self.undo_button.disabled = not any(s in ctl.humans for s in ctl.actors)
        self._hand_log.show(g, seat, reveal, since=self._since)
        if g.is_over and humans:
            self.review.show(g, ps if ps is not None else humans[0], ctl.actors)
        else:
            self.review.clear()

    # ------------------------------------------------------------------ text
    def text(self) -> str:
        """What the tab shows, in plain text."""
        g = self.game
        seat, reveal = self.perspective()
        parts: list[str] = []
        if self.covered:
            nxt = g.names[g.to_act] if g.to_act is not None else "the next player"
            parts.append(f"[cover] Pass the screen to {nxt}.")
            seat = None
        parts += [*self.narration.text(), "== Table ==", self.table.text()]
        p = self.picker
        if self.covered:
            parts += ["== Actions ==", "(hidden until the next player shows their cards)"]
        else:
            parts += ["== Actions ==", p.text() if p is not None else "Every seat is a bot."]
        parts += self._hand_log.text(g, seat, reveal)
        parts += self.review.text()
        return "\n".join(parts)
