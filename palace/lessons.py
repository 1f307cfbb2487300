"""Helpers for the lesson notebooks: the course map, scripted positions, quizzes, variant tables.

The notebooks in ``notebooks/`` stay thin: they import from here, build a widget and
show it. Everything that decides something — which event to stop at, what a quiz's
right answer is, how two rule variants differ — is computed here from the engine, so
each lesson's text can never disagree with the game.

>>> game = first_turn()
>>> game.names[game.to_act], game.soldiers(0)
('Ann', ())
>>> [lesson.file for lesson in LESSONS][:2]
['01_cards_and_hands.ipynb', '02_the_deal.ipynb']
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import pandas as pd
from ipywidgets import HTML, Button, Dropdown, HBox, IntSlider, Layout, VBox, Widget

from palace.actions import Bet, Buy, Call, Stay, Trim
from palace.battle import Army
from palace.bots import Bot, RandomBot, RuleBot, play_out
from palace.cards import Card, Suit, parse_cards
from palace.deal import group_of
from palace.errors import PalaceError
from palace.events import Event, Phase
from palace.game import Game
from palace.hands import Category, evaluate
from palace.rules import Rules
from palace.scenarios import SCENARIO_DIR, Scenario, load_scenario
from palace.script import deck_for
from palace.studies import compare_variants, play_hands
from palace.table import DEFAULT_NAMES
from palace.widgets.action_picker import ActionPicker
from palace.widgets.battle_view import BattleView
from palace.widgets.cards import CardRow
from palace.widgets.controller import PlayController
from palace.widgets.quiz import CheckYourself, name_sides
from palace.widgets.stepper import battle_visible, event_sentence
from palace.widgets.table_view import TableView
from palace.widgets.theme import esc, root, rule_badge, style_widget

ANN_BOB_CAT = ("Ann", "Bob", "Cat")


def show(widget: Widget) -> None:
    """Display a Palace panel with its plain text (``widget.text()``) as the text/plain
    alternative, instead of ipywidgets' cut-off repr: front ends without widgets show
    the text, and the notebook tests (nbval) compare it."""
    from IPython.display import display

    bundle = widget._repr_mimebundle_()
    bundle["text/plain"] = widget.text()  # type: ignore[attr-defined]
    display(bundle, raw=True)


def face(card: Card | str) -> str:
    """A card as printed on its face: ``"10♠"`` (the engine writes ``"T♠"``).

    >>> face("Ts"), face("Ah")
    ('10♠', 'A♥')
    """
    c = Card.parse(card)
    return c.symbol.replace("T", "10", 1) if c.rank.letter == "T" else c.symbol


def faces(cards: Sequence[Card] | str) -> str:
    """Cards as printed on their faces, space separated."""
    return " ".join(face(c) for c in parse_cards(cards))


class CardRows(VBox):
    """Labelled rows of cards (a `CardRow` each) with a plain-text `text()`."""

    def __init__(
        self,
        rows: Sequence[tuple[str, str]],
        *,
        four_color: bool = False,
        width: str | None = None,
    ) -> None:
        """width: give each row this width and let the rows flow side by side."""
        self._rows = [
            CardRow(cards, small=True, four_color=four_color, label=label) for label, cards in rows
        ]
        layout = Layout(grid_gap="2px")
        if width is not None:
            for row in self._rows:
                row.layout.width = width
            layout = Layout(display="flex", flex_flow="row wrap", grid_gap="6px 18px")
        super().__init__(self._rows, layout=layout)
        self.add_class("palace-cardrows")

    def text(self) -> str:
        return "\n".join(r.text() for r in self._rows)


# ---------------------------------------------------------------------------- course map
@dataclass(frozen=True)
class Lesson:
    """One notebook of the course: its file, title, one line on what it teaches, clauses."""

    file: str
    title: str
    line: str
    clauses: tuple[str, ...]


LESSONS: tuple[Lesson, ...] = (
    Lesson(
        "01_cards_and_hands.ipynb",
        "Cards and hands",
        "One deck, suits without rank, the nine poker hands and the best five of up to nine cards.",
        ("R1.1", "R1.2", "R1.3", "R8.1", "R8.3"),
    ),
    Lesson(
        "02_the_deal.ipynb",
        "The deal",
        "Choosing the dealer, the banner deal with its rejects and suit groups, the palace deal.",
        (
            "R2.1",
            "R2.2",
            "R2.3",
            "R3.1",
            "R4.1",
            "R4.2",
            "R4.3",
            "R4.4",
            "R4.5",
            "R5.1",
            "R5.2",
            "R5.3",
        ),
    ),
    Lesson(
        "03_your_turn.ipynb",
        "Your turn",
        "Buy, Discard, Stay or Fold — and the five-soldier cap.",
        ("R6.1", "R6.2", "R6.3", "R6.4", "R6.5", "R6.6", "R6.7"),
    ),
    Lesson(
        "04_battles.ipynb",
        "Battles",
        "Attack sizes, fold / call / raise, the showdown and the tie-breaks.",
        (
            "R3.2",
            "R7.1",
            "R7.2",
            "R7.3",
            "R7.4",
            "R7.5",
            "R7.6",
            "R7.7",
            "R7.8",
            "R7.9",
            "R8.1",
            "R8.4",
            "R8.5",
            "R8.6",
            "R8.7",
        ),
    ),
    Lesson(
        "05_banner_suit_exclusion.ipynb",
        "Banner-suit exclusion",
        "In a battle your opponent's banner suit does not count for you — and short hands.",
        ("R8.2", "R8.3", "R7.2"),
    ),
    Lesson(
        "06_play_a_hand.ipynb",
        "Play a hand",
        "Play one seat against the bots to the end; how a hand ends and who takes the pot.",
        ("R9.1", "R9.2", "R9.3", "R9.4", "R10.1", "R10.2", "R10.3", "R10.4"),
    ),
    Lesson(
        "07_rule_variants.ipynb",
        "Rule variants",
        "The same seeded hands under two rule variants, side by side.",
        ("R3.3", "R3.4", "R6.4", "R7.6", "R7.7", "R9.1"),
    ),
)

ALL_CLAUSES: tuple[str, ...] = tuple(
    f"R{s}.{k}"
    for s, n in ((1, 3), (2, 3), (3, 4), (4, 5), (5, 3), (6, 7), (7, 9), (8, 7), (9, 4), (10, 4))
    for k in range(1, n + 1)
)


def course_map() -> pd.DataFrame:
    """The lessons in order: title, what each teaches and the clauses it covers."""
    rows = [
        {
            "lesson": i,
            "title": lesson.title,
            "what you learn": lesson.line,
            "clauses": ", ".join(lesson.clauses),
        }
        for i, lesson in enumerate(LESSONS, start=1)
    ]
    return pd.DataFrame(rows).set_index("lesson")


SECTIONS: dict[int, str] = {
    1: "Players, cards",
    2: "Choosing the first dealer",
    3: "Stakes and ante",
    4: "Banner cards",
    5: "Palace cards",
    6: "The turn",
    7: "Bet / battle",
    8: "Battle showdown",
    9: "End of the hand",
    10: "Winning the pot",
}


def clause_index() -> pd.DataFrame:
    """Which lesson teaches which clause: one row per section of RULES.md (R1-R10), one
    column per lesson; "all" when a lesson covers every clause of the section."""
    rows = []
    for sec, title in SECTIONS.items():
        clauses = [c for c in ALL_CLAUSES if c.startswith(f"R{sec}.")]
        row: dict[str, str] = {}
        for i, lesson in enumerate(LESSONS, start=1):
            mine = [c for c in clauses if c in lesson.clauses]
            key = f"{i} {lesson.title}"
            if not mine:
                row[key] = ""
            elif len(mine) == len(clauses):
                row[key] = "all"
            else:
                row[key] = ", ".join(c[1:] for c in mine)
        rows.append({"rules": f"R{sec} {title}", **row})
    return pd.DataFrame(rows).set_index("rules")


# ---------------------------------------------------------------------------- lesson 1
CATEGORY_EXAMPLES: dict[Category, str] = {
    Category.STRAIGHT_FLUSH: "9h 8h 7h 6h 5h",
    Category.FOUR_OF_A_KIND: "Qs Qh Qd Qc 4s",
    Category.FULL_HOUSE: "Ts Th Tc 3d 3s",
    Category.FLUSH: "Kc Tc 8c 5c 2c",
    Category.STRAIGHT: "5d 4s 3h 2c Ad",
    Category.THREE_OF_A_KIND: "7s 7h 7d Kc 2h",
    Category.TWO_PAIR: "Js Jd 6h 6c As",
    Category.ONE_PAIR: "Ah Ac 9s 6d 3c",
    Category.HIGH_CARD: "Ks Jh 8d 5c 3s",
}


def category_gallery(*, four_color: bool = False) -> CardRows:
    """The nine example hands as rows of cards, best first (`category_examples`)."""
    rows = []
    for cat, cards in CATEGORY_EXAMPLES.items():
        name = evaluate(cards).describe()
        if not name.lower().startswith(cat.label.lower()):
            name = f"{cat.label}: {name}"
        rows.append((f"{9 - int(cat)}. {name}", cards))
    return CardRows(rows, four_color=four_color, width="330px")


def deck_rows(*, four_color: bool = False) -> CardRows:
    """The 52-card deck, one row per suit, ace high (R1.2)."""
    ranks = "A K Q J T 9 8 7 6 5 4 3 2".split()
    return CardRows(
        [
            (f"{suit.noun} {suit.symbol}", " ".join(r + suit.letter for r in ranks))
            for suit in (Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS)
        ],
        four_color=four_color,
    )


# ---------------------------------------------------------------------------- lesson 2
def event_index(game: Game, kind: str, nth: int = 0) -> int:
    """The index of the `nth` event of `kind` (negative `nth` counts from the end).

    >>> g = Game.new(players=5, seed=8)
    >>> g.events[event_index(g, "reject")].kind
    'reject'
    """
    found = [e.index for e in game.events if e.kind == kind]
    if not found or not -len(found) <= nth < len(found):
        raise PalaceError(f"the hand has no {kind!r} event number {nth}")
    return found[nth]


def events_text(game: Game, *kinds: str) -> str:
    """The hand's events of these kinds (all when none given), one ``#i sentence (rule)``
    a line: what a spectator reads (private sentences show their public form, R5.3)."""
    lines = []
    for e in game.events:
        if kinds and e.kind not in kinds:
            continue
        lines.append(f"#{e.index} {event_sentence(e, None, False)} ({e.rule})")
    return "\n".join(lines)


def banner_card_quiz(game: Game, index: int) -> CheckYourself:
    """Kept or rejected? The banner-deal card dealt at event `index` (R4.2, R4.3).

    The question lists the banners already dealt, with their groups; the explanation is
    the engine's sentence for that card.
    """
    ev = game.events[index]
    if ev.kind not in ("banner", "reject"):
        raise PalaceError(f"event #{index} is a {ev.kind!r} event, not a banner-deal card")
    n = game.players
    seat = ev.seat
    assert seat is not None
    position = (seat - game.dealer - 1) % n
    group = group_of(position)
    so_far = [e for e in game.events[:index] if e.kind == "banner" and e.seat is not None]
    groups: dict[str, list[str]] = {}
    for e in so_far:
        g = group_of((e.seat - game.dealer - 1) % n)
        groups.setdefault(g, []).append(f"{game.names[e.seat]} {face(e.cards[0])}")
    listed = "; ".join(f"group {g}: {', '.join(v)}" for g, v in groups.items())
    card = ev.cards[0]
    name = game.names[seat]
    question = (
        f"Banners so far — {listed or 'none'}. {name}, in group {group}, is dealt "
        f"{face(card)}. Is it kept as {name}'s banner, or rejected?"
    )
    choices = [
        f"Kept: {name}'s banner is {face(card)}",
        f"Rejected: {face(card)} goes to the rejects",
    ]
    answer = 1 if ev.kind == "reject" else 0
    why = f"{ev.text} ({ev.rule})"
    if ev.kind == "banner":
        same = [e for e in so_far if group_of((e.seat - game.dealer - 1) % n) == group]
        held = " ".join(face(e.cards[0]) for e in same) or "no banner"
        why += (
            f" Only banners of the same group must differ (R4.2): group {group} holds {held} "
            f"so far, so {card.suit.symbol} is free there."
        )
    return CheckYourself(
        question,
        choices,
        answer,
        why,
        title="Check yourself: kept or rejected?",
        rules=["R4.2", "R4.3"],
    )


# ---------------------------------------------------------------------------- lesson 3
def _three_player_game(
    palaces: Mapping[int, str], draws: str, seed: int, rules: Rules | None = None
) -> Game:
    deck = deck_for(
        players=3,
        dealer=2,
        banners={0: "Kh", 1: "9s", 2: "4d"},
        palaces=palaces,
        draws=draws,
    )
    return Game.new(players=list(ANN_BOB_CAT), seed=seed, rules=rules, deck=deck, dealer=2)


def first_turn() -> Game:
    """Ann's first turn: Cat deals, Ann (left of the dealer) acts first with no soldiers.

    Banners Ann K♥, Bob 9♠, Cat 4♦; Ann's palace Q♥ 7♣ 2♠; the top of the draw deck is K♦.
    """
    return _three_player_game({0: "Qh 7c 2s", 1: "As Ad 5c", 2: "Jc Tc 3h"}, "Kd 8h 6c 3s 2d 9c", 4)


def five_soldiers() -> Game:
    """Ann has bought five soldiers (Bob and Cat stayed each time); her turn again.

    Her soldiers K♦ 8♥ 6♣ 3♠ 2♦; the next card of the draw deck is 9♣ (R6.7).
    """
    game = first_turn()
    for _ in range(5):
        for action in (Buy(), Trim(cards=()), Stay(), Stay()):
            game.apply(action)
    return game


def keep_all_quiz(game: Game) -> CheckYourself:
    """Buy with the soldiers you have: may you keep them all? Answered by the engine (R6.7)."""
    seat = game.to_act
    if seat is None or game.phase is not Phase.TURN:
        raise PalaceError("keep_all_quiz needs a position where a player is on their turn")
    name = game.names[seat]
    have = game.soldiers(seat)
    n = len(have)
    listed = faces(have) or "none"
    plural = "s" if n != 1 else ""
    question = f"{name} holds {n} soldier{plural} ({listed}) and buys. Which is true?"
    choices = [
        f"{name} may keep all {n + 1} soldiers",
        f"{name} must discard at least one soldier before play goes on",
        f"{name} may not Buy now",
    ]
    why_buy = game.why_illegal(Buy())
    if why_buy is not None:
        return CheckYourself(question, choices, 2, why_buy, rules=["R6.2", "R6.7"])
    probe = game.replay()
    bought = probe.apply(Buy())[0]
    why = probe.why_illegal(Trim(cards=()))
    if why is None:
        explanation = f"{bought.text} Keeping all {n + 1} is legal: at most five (R6.7)."
        answer = 0
    else:
        explanation = f"{bought.text} Keeping all is refused: {why}."
        answer = 1
    return CheckYourself(question, choices, answer, explanation, rules=["R6.2", "R6.7"])


class TurnDesk(VBox):
    """A scripted position for one learner seat: the table (their view), their action
    buttons, the latest battle, and a Start again button.

    bots: seats that answer automatically (e.g. an attacker facing a raise); seats with
    neither a bot nor the learner wait, so the exercise stops there.
    """

    def __init__(
        self,
        game: Game,
        seat: int | None = None,
        *,
        bots: Mapping[int, Bot] | None = None,
        four_color: bool = False,
    ) -> None:
        seat = game.to_act if seat is None else seat
        if seat is None:
            raise PalaceError("TurnDesk needs a seat: the hand is over")
        self._start = len(game.actions)
        self._ctl = PlayController(game, human=seat, bots=dict(bots or {}), auto=bool(bots))
        self._seat = seat
        self._css = style_widget()
        self._table = TableView(four_color=four_color)
        self._picker = ActionPicker(self._ctl, seat, four_color=four_color)
        self._battle = BattleView(four_color=four_color)
        self._battle_title = HTML()
        self._battle_box = VBox([self._battle_title, self._battle])
        self._again = Button(
            description="Start again",
            icon="undo",
            tooltip="back to the lesson's position",
            layout=Layout(width="140px"),
        )
        self._again.on_click(lambda _: self.start_again())
        self._ctl.add_listener(lambda _events: self._draw())
        super().__init__(
            [self._css, self._table, self._picker, self._again, self._battle_box],
            layout=Layout(width="100%", grid_gap="8px"),
        )
        self.add_class("palace-panel")
        self.add_class("palace-desk")
        self._draw()

    @property
    def game(self) -> Game:
        return self._ctl.game

    @property
    def picker(self) -> ActionPicker:
        return self._picker

    @property
    def table(self) -> TableView:
        return self._table

    @property
    def battle(self) -> BattleView:
        return self._battle

    def start_again(self) -> None:
        """Take back everything done since the lesson's position."""
        while len(self._ctl.game.actions) > self._start:
            self._ctl.undo()

    def _latest_battle(self) -> Event | None:
        for ev in reversed(self.game.events):
            if ev.kind == "battle" and "battle" in ev.detail:
                if battle_visible(ev, self._seat, False):
                    return ev
        return None

    def _draw(self) -> None:
        self._table.show(self.game, perspective=self._seat)
        self._again.disabled = len(self.game.actions) <= self._start
        ev = self._latest_battle()
        if ev is None:
            self._battle_box.layout.display = "none"
        else:
            self._battle.show_event(ev, self.game.names)
            self._battle_title.value = root(
                f'<div class="palace-section">The showdown (event #{ev.index})</div>'
            )
            self._battle_box.layout.display = None

    def text(self) -> str:
        """The table, the buttons and the latest battle in plain text."""
        parts = ["== Table ==", self._table.text(), "== Actions ==", self._picker.text()]
        if self._battle_box.layout.display != "none":
            parts += ["== Showdown ==", self._battle.text()]
        return "\n".join(parts)


# ---------------------------------------------------------------------------- lesson 4
def attack_position(rules: Rules | None = None) -> Game:
    """Ann (2 soldiers: K♦ 5♠) to act; Bob has 1 soldier (9♦), Cat none.

    Banners Ann K♥, Bob 9♠, Cat 4♦. Palaces Ann Q♥ 7♣ 2♠, Bob A♠ A♦ 5♣, Cat J♣ 10♣ 3♥.
    """
    palaces = {0: "Qh 7c 2s", 1: "As Ad 5c", 2: "Jc Tc 3h"}
    game = _three_player_game(palaces, "Kd 9d 5s", 4, rules)
    t = Trim(cards=())
    for action in (Buy(), t, Buy(), t, Stay(), Buy(), t, Stay(), Stay()):
        game.apply(action)
    return game


def under_attack(rules: Rules | None = None) -> Game:
    """`attack_position` after Ann attacks Bob: Bob must Fold, Call or Raise (R7.4)."""
    game = attack_position(rules)
    game.apply(Bet(target=1))
    return game


def stake_table(game: Game) -> pd.DataFrame:
    """For the player to act: each opponent they may attack, what the attack costs (R7.3),
    what that opponent pays to call (R7.6) and the raise size (R7.7) — from the engine."""
    me = game.to_act
    if me is None or game.phase is not Phase.TURN:
        raise PalaceError("stake_table needs a player on their turn")
    rows = []
    for target in range(game.players):
        if target == me or not game.active[target]:
            continue
        why = game.why_illegal(Bet(target=target))
        attacker = game.names[me]
        row: dict[str, object] = {
            "defender": game.names[target],
            "soldiers": f"{attacker} {len(game.soldiers(me))}, "
            f"{game.names[target]} {len(game.soldiers(target))}",
        }
        if why is not None:
            row.update(
                {
                    "attack (R7.3)": "—",
                    "call (R7.6)": "—",
                    "call + raise (R7.7)": "—",
                    "not allowed": why,
                }
            )
        else:
            probe = game.replay()
            probe.apply(Bet(target=target))
            row.update(
                {
                    "attack (R7.3)": probe.events[-1].amount,
                    "call (R7.6)": probe.owed(),
                    "call + raise (R7.7)": f"{probe.owed()} + {probe.raise_size()}",
                    "not allowed": "",
                }
            )
        rows.append(row)
    df = pd.DataFrame(rows).set_index("defender")
    if not df["not allowed"].any():
        df = df.drop(columns="not allowed")
    return df


def call_amount_quiz(game: Game) -> CheckYourself:
    """How much does the defender pay to call? The engine's answer (R7.6)."""
    b = game.battle
    if b is None or game.phase is not Phase.BATTLE_RESPONSE:
        raise PalaceError("call_amount_quiz needs a position where an attack is being answered")
    att, dfn = game.names[b.attacker], game.names[b.defender]
    bet = next(e for e in reversed(game.events) if e.kind == "bet")
    owed = game.owed()
    # the same hand replayed under the other R7.6 rule: what the call would cost there
    record = game.to_dict()
    record["rules"]["call_matches_attack"] = not game.rules.call_matches_attack
    other = Game.from_dict(record).owed()
    options = sorted({owed, other, bet.amount, owed + bet.amount})
    probe = game.replay()
    called = probe.apply(Call())[0]
    question = (
        f"{att} ({len(game.soldiers(b.attacker))} soldiers) attacks {dfn} "
        f"({len(game.soldiers(b.defender))} soldier"
        f"{'s' if len(game.soldiers(b.defender)) != 1 else ''}) with {bet.amount} chips. "
        f"How much must {dfn} pay to call?"
    )
    rule = (
        "the defender matches the attack (variant call_matches_attack)"
        if game.rules.call_matches_attack
        else "each player's stake is sized by their own army: (soldiers + 1) × s"
    )
    return CheckYourself(
        question,
        [f"{x} chips" for x in options],
        f"{owed} chips",
        f"{called.text} Under these rules {rule} (R7.6).",
        title="Check yourself: the call",
        rules=["R7.3", "R7.6"],
    )


def battle_event(game: Game, nth: int = -1) -> Event:
    """The `nth` battle showdown of a hand (the last by default)."""
    return game.events[event_index(game, "battle", nth)]


def armies_of(event: Event) -> tuple[Army, Army]:
    """The attacker's and defender's armies shown down in a ``"battle"`` event."""
    res = event.detail.get("battle")
    if res is None:
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


def battle_quiz(
    game: Game,
    nth: int = -1,
    *,
    question: str | None = None,
    note: str = "",
    without_exclusion: bool = False,
) -> CheckYourself:
    """Predict the winner of a hand's battle; Reveal shows the engine's showdown.

    note and without_exclusion: as for `CheckYourself.battle`.
    """
    ev = battle_event(game, nth)
    att, dfn = armies_of(ev)
    names = (game.names[ev.detail["attacker"]], game.names[ev.detail["defender"]])
    return CheckYourself.battle(
        att, dfn, names, question=question, note=note, without_exclusion=without_exclusion
    )


def scenario(name: str) -> Scenario:
    """A teaching scenario by id or file stem: ``scenario("tie-banner-count")``."""
    for path in sorted(SCENARIO_DIR.glob("*.json")):
        if path.stem == name or path.stem.split("-", 1)[-1] == name:
            return load_scenario(path)
    raise PalaceError(f"no scenario called {name!r} in {SCENARIO_DIR.name}/")


# ---------------------------------------------------------------------------- lesson 6
def bot_hand(players: int = 4, seed: int = 1, rules: Rules | None = None) -> Game:
    """A hand played to the end by `RuleBot`s (to watch before playing)."""
    game = Game.new(players=players, seed=seed, rules=rules)
    return play_out(game, {s: RuleBot() for s in range(players)})


def pot_winner_quiz(scn: Scenario, question: str | None = None) -> CheckYourself:
    """Who takes the pot at the end of a scenario? Choices: the players still in the hand."""
    game = scn.game()
    res = game.result
    if res is None:
        raise PalaceError(f"scenario {scn.id} does not reach the end of the hand")
    left = [s for s in range(game.players) if game.active[s] or s in res.winners]
    choices = [f"{game.names[s]} takes the pot" for s in left]
    if len(res.winners) == 1:
        answer = f"{game.names[res.winners[0]]} takes the pot"
    else:
        choices.append("They share it")
        answer = "They share it"
    return CheckYourself(
        question or scn.question or "Who takes the pot?",
        choices,
        answer,
        f"{res.text} ({res.rule}) {scn.answer or ''}".strip(),
        title=f"Check yourself: {scn.title}",
        rules=scn.rules,
    )


def legal_kinds_quiz(scn: Scenario, k: int, question: str | None = None) -> CheckYourself:
    """What may the player to act do after the scenario's first `k` actions? (the engine's
    legal actions, grouped by kind)."""
    game = scn.game_at(k)
    if game.to_act is None:
        raise PalaceError(f"scenario {scn.id}: nobody acts after {k} actions")
    name = game.names[game.to_act]
    kinds = {a.kind for a in game.legal_actions()}
    options = {
        "any action: Buy, Discard, Bet, Stay or Fold": {"buy", "discard", "bet", "stay", "fold"},
        "Buy, Bet, Stay or Fold (no soldiers to discard)": {"buy", "bet", "stay", "fold"},
        "only Bet or Fold": {"bet", "fold"},
        "nothing: the hand is over": set(),
    }
    answer = next((label for label, ks in options.items() if ks == kinds), None)
    if answer is None:
        raise PalaceError(f"scenario {scn.id}: no choice matches the legal kinds {sorted(kinds)}")
    return CheckYourself(
        question or scn.question or f"What may {name} do?",
        list(options),
        answer,
        scn.answer or "",
        title=f"Check yourself: {scn.title}",
        rules=scn.rules,
    )


# ---------------------------------------------------------------------------- lesson 7
def _winner_names(row: pd.Series, hand: int, players: int) -> str:
    """Winners of a `play_hands` row, by name: position p (1 = left of the dealer) is seat
    (dealer + p) % players, and `play_hands` deals hand i with dealer i % players."""
    dealer = hand % players
    won = [
        DEFAULT_NAMES[(dealer + p) % players]
        for p in range(1, players + 1)
        if row[f"won pos {p}"] > 0
    ]
    return " & ".join(sorted(won, key=DEFAULT_NAMES.index)) or "—"


def side_by_side(
    seed: int,
    rules_a: Rules,
    rules_b: Rules,
    *,
    hands: int = 8,
    players: int = 4,
    bot: str = "rules",
) -> pd.DataFrame:
    """The same seeded bot hands under two rule sets, one row per hand, and what changed.

    Both columns come from `palace.studies.play_hands` (same seeds, same bots), so a
    difference is the rules' doing. Columns: pot, battles, winner, ending under each
    variant (labelled by `Rules.label()`), then "what changed".
    """
    a = play_hands(rules_a, hands, players, seed, bot)
    b = play_hands(rules_b, hands, players, seed, bot)
    la, lb = rules_a.label(), rules_b.label()
    if la == lb:
        lb += " (B)"
    rows = []
    for i in range(hands):
        ra, rb = a.iloc[i], b.iloc[i]
        wa, wb = _winner_names(ra, i, players), _winner_names(rb, i, players)
        changes = []
        if wa != wb:
            changes.append(f"winner {wa}→{wb}")
        if ra["ending"] != rb["ending"]:
            changes.append(f"ends by {rb['ending']}")
        if ra["battles"] != rb["battles"]:
            changes.append(f"battles {ra['battles']}→{rb['battles']}")
        if ra["pot"] != rb["pot"]:
            changes.append(f"pot {ra['pot']}→{rb['pot']}")
        rows.append(
            {
                (la, "pot"): int(ra["pot"]),
                (la, "battles"): int(ra["battles"]),
                (la, "winner"): wa,
                (la, "ending"): ra["ending"],
                (lb, "pot"): int(rb["pot"]),
                (lb, "battles"): int(rb["battles"]),
                (lb, "winner"): wb,
                (lb, "ending"): rb["ending"],
                ("", "what changed"): "; ".join(changes) or "nothing",
            }
        )
    df = pd.DataFrame(rows)
    df.columns = pd.MultiIndex.from_tuples(df.columns)
    df.index = pd.RangeIndex(hands, name="hand")
    return df


def variant_game(
    rules: Rules, seed: int, hand: int = 0, *, players: int = 4, bot: str = "rules"
) -> Game:
    """Hand `hand` of `side_by_side` / `play_hands` (same seed, dealer and bots), replayed."""
    game = Game.new(players=players, seed=seed + hand, rules=rules, dealer=hand % players)
    bots: dict[int, Bot]
    if bot == "rules":
        bots = {s: RuleBot() for s in range(players)}
    elif bot == "random":
        bots = {s: RandomBot(seed + 31 * hand + s) for s in range(players)}
    elif bot == "mixed":
        bots = {
            s: RuleBot() if s % 2 == 0 else RandomBot(seed + 31 * hand + s) for s in range(players)
        }
    else:
        raise PalaceError(f"bot must be 'rules', 'random' or 'mixed', got {bot!r}")
    return play_out(game, bots)


SUMMARY_ROWS = (
    "pot",
    "battles per hand",
    "showdowns per hand",
    "ended by showdown %",
    "last standing %",
    "pot shared %",
    "actions per hand",
)


def variant_summary(
    variants: Mapping[str, Rules],
    *,
    hands: int = 200,
    seed: int = 2026,
    players: int = 4,
    bot: str = "rules",
) -> pd.DataFrame:
    """`palace.studies.compare_variants` over many seeded hands, the rows a lesson reads:
    average pot, battles and showdowns per hand, how hands end, actions per hand."""
    df = compare_variants(
        variants, hands=hands, players=players, seed=seed, bot=bot, progress=False
    )
    return df.loc[list(SUMMARY_ROWS)]


@dataclass(frozen=True)
class Divergence:
    """Where two replays of one hand first differ: the event number and both sentences."""

    index: int | None
    a: str
    b: str

    def __str__(self) -> str:
        if self.index is None:
            return "The two hands are event for event the same."
        return f"First difference at event #{self.index}:\n  A: {self.a}\n  B: {self.b}"


def first_difference(game_a: Game, game_b: Game) -> Divergence:
    """The first event whose sentence differs between two games (None when none does)."""
    ea, eb = game_a.events, game_b.events
    for i in range(max(len(ea), len(eb))):
        ta = f"{ea[i].text} ({ea[i].rule})" if i < len(ea) else "(the hand is over)"
        tb = f"{eb[i].text} ({eb[i].rule})" if i < len(eb) else "(the hand is over)"
        if ta != tb:
            return Divergence(i, ta, tb)
    return Divergence(None, "", "")


VARIANTS: dict[str, Rules] = {
    "no-limit (R3.3)": Rules(structure="no-limit"),
    "20 chips each (R3.4)": Rules(stacks=20),
    "no-limit, 20 chips each (R3.3, R3.4)": Rules(structure="no-limit", stacks=20),
    "call matches attack (R7.6)": Rules(call_matches_attack=True),
    "free discard (R6.4)": Rules(discard_cost=0),
    "one raise per battle (R7.7)": Rules(max_raises=1),
    "only Stay is quiet (R9.1)": Rules(quiet_actions=("stay",)),
}


class VariantComparer(VBox):
    """Pick a variant and a hand: the hand under standard rules and under the variant,
    what changed, and the first event where they part."""

    def __init__(
        self,
        seed: int = 2026,
        hands: int = 8,
        *,
        players: int = 4,
        bot: str = "rules",
        variant: str = "no-limit (R3.3)",
    ) -> None:
        self._seed, self._hands, self._players, self._bot = seed, hands, players, bot
        self._cache: dict[str, pd.DataFrame] = {}
        self._variant = Dropdown(
            options=list(VARIANTS),
            value=variant,
            description="Variant",
            layout=Layout(width="330px"),
        )
        self._hand = IntSlider(
            value=0, min=0, max=hands - 1, description="Hand", layout=Layout(width="360px")
        )
        self._out = HTML(layout=Layout(width="100%"))
        self._variant.observe(lambda _: self._draw(), names="value")
        self._hand.observe(lambda _: self._draw(), names="value")
        super().__init__(
            [
                style_widget(),
                HBox([self._variant, self._hand], layout=Layout(flex_flow="row wrap")),
                self._out,
            ],
            layout=Layout(width="100%", grid_gap="6px"),
        )
        self.add_class("palace-panel")
        self.add_class("palace-variants")
        self._draw()

    @property
    def variant(self) -> Dropdown:
        return self._variant

    @property
    def hand(self) -> IntSlider:
        return self._hand

    def table(self) -> pd.DataFrame:
        """`side_by_side` for the chosen variant (computed once per variant)."""
        name = self._variant.value
        if name not in self._cache:
            self._cache[name] = side_by_side(
                self._seed,
                Rules(),
                VARIANTS[name],
                hands=self._hands,
                players=self._players,
                bot=self._bot,
            )
        return self._cache[name]

    def divergence(self) -> Divergence:
        rules_b = VARIANTS[self._variant.value]
        kw = {"players": self._players, "bot": self._bot}
        a = variant_game(Rules(), self._seed, self._hand.value, **kw)  # type: ignore[arg-type]
        b = variant_game(rules_b, self._seed, self._hand.value, **kw)  # type: ignore[arg-type]
        return first_difference(a, b)

    def _rows(self) -> list[tuple[str, str, str]]:
        row = self.table().iloc[self._hand.value]
        top = [c for c in row.index.get_level_values(0).unique() if c]
        out = []
        for field in ("pot", "battles", "winner", "ending"):
            out.append((field, str(row[(top[0], field)]), str(row[(top[1], field)])))
        return out

    def _draw(self) -> None:
        rows = self._rows()
        changed = self.table().iloc[self._hand.value][("", "what changed")]
        div = self.divergence()
        cells = "".join(
            f"<tr><th style='text-align:left;padding:3px 14px 3px 0'>{esc(f)}</th>"
            f"<td style='padding:3px 14px'>{esc(a)}</td>"
            f"<td style='padding:3px 14px{';font-weight:700' if a != b else ''}'>{esc(b)}</td>"
            "</tr>"
            for f, a, b in rows
        )
        name = self._variant.value
        if div.index is None:
            where = '<div class="palace-note">The two hands are event for event the same.</div>'
        else:
            where = (
                f'<div class="palace-taken"><b>First difference at event #{div.index}</b>'
                f"<div>standard: {esc(div.a)}</div><div>{esc(name)}: {esc(div.b)}</div></div>"
            )
        self._out.value = root(
            f'<div class="palace-side"><div class="palace-side-head"><b>Hand '
            f"{self._hand.value} (seed {self._seed + self._hand.value})</b>"
            f"{rule_badge('R3')}</div>"
            "<table style='border-collapse:collapse;font-size:15px'>"
            f"<tr><th></th><th style='padding:3px 14px'>standard</th>"
            f"<th style='padding:3px 14px'>{esc(name)}</th></tr>{cells}</table>"
            f'<div class="palace-note" style="margin-top:6px">What changed: '
            f"<b>{esc(changed)}</b></div>{where}</div>"
        )

    def text(self) -> str:
        """The comparison for the chosen variant and hand, in plain text."""
        lines = [f"Hand {self._hand.value}: standard vs {self._variant.value}"]
        lines += [f"  {f}: {a} | {b}" for f, a, b in self._rows()]
        lines.append(f"  what changed: {self.table().iloc[self._hand.value][('', 'what changed')]}")
        lines.append(str(self.divergence()))
        return "\n".join(lines)


__all__ = [
    "ALL_CLAUSES",
    "CATEGORY_EXAMPLES",
    "SECTIONS",
    "SUMMARY_ROWS",
    "CardRows",
    "LESSONS",
    "VARIANTS",
    "Divergence",
    "Lesson",
    "TurnDesk",
    "VariantComparer",
    "armies_of",
    "attack_position",
    "banner_card_quiz",
    "battle_event",
    "battle_quiz",
    "bot_hand",
    "call_amount_quiz",
    "category_gallery",
    "clause_index",
    "course_map",
    "deck_rows",
    "event_index",
    "events_text",
    "first_difference",
    "face",
    "faces",
    "first_turn",
    "five_soldiers",
    "keep_all_quiz",
    "legal_kinds_quiz",
    "name_sides",
    "pot_winner_quiz",
    "scenario",
    "show",
    "side_by_side",
    "stake_table",
    "under_attack",
    "variant_game",
    "variant_summary",
]
