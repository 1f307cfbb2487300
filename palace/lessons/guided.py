"""The guided first hand of lesson 1: a scripted deal, scripted opponents and one idea a step.

Ann (the learner) buys a soldier, attacks Cat and wins the battle because Cat's two hearts
do not count against Ann's heart banner (R8.2) — without exclusion Cat's pair of aces
would have won —, captures Cat's cards, and takes the pot when Bob folds (R9.2).

>>> g, bots = first_hand()
>>> g.names[g.to_act], g.banner(0), g.palace(0)
('Ann', Kh, (Ks, 8c, 3c))
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from palace.actions import Action, Bet, Buy, Call, Fold, Trim
from palace.analysis.bots import Bot
from palace.battle import BattleResult
from palace.errors import PalaceError
from palace.events import Event, EventKind
from palace.game import Game
from palace.lessons.prose import cards_text
from palace.lessons.prose import named_hand as _named
from palace.script import deck_for
from palace.views import SeatView
from palace.widgets.guided import GuidedHand, GuideStep
from palace.words import number_word, plural

FIRST_HAND_DECK = deck_for(
    players=3,
    dealer=2,
    banners={0: "Kh", 1: "9s", 2: "4d"},
    palaces={0: "Ks 8c 3c", 1: "Jd 7d 2h", 2: "Ac 6h 2s"},
    draws="Qs 5c Ah",
)


class ScriptBot:
    """A bot that plays a fixed list of actions (a lesson's script); refuses to go off it."""

    name = "script"

    def __init__(self, actions: Iterable[Action]) -> None:
        self._actions = list(actions)
        self._next = 0

    def choose(self, view: SeatView) -> Action:
        if self._next >= len(self._actions):
            raise PalaceError(f"the script for {view.me.name} has no action left")
        action = self._actions[self._next]
        if action not in view.legal:
            raise PalaceError(f"the script's {action} is not legal for {view.me.name} now")
        self._next += 1
        return action


def first_hand() -> tuple[Game, Mapping[int, Bot]]:
    """The scripted hand and its two scripted opponents (Bob and Cat); Ann acts first."""
    game = Game.new(players=["Ann", "Bob", "Cat"], seed=1, deck=FIRST_HAND_DECK, dealer=2)
    keep = Trim(cards=())
    bots: dict[int, Bot] = {
        1: ScriptBot([Buy(), keep, Fold()]),
        2: ScriptBot([Buy(), keep, Call()]),
    }
    return game, bots


ANN_SCRIPT: tuple[Action, ...] = (Buy(), Trim(cards=()), Bet(target=2), Trim(cards=()))
"""What the guide asks Ann to press, in order: Buy, Keep all, Attack Cat, Keep all."""


def played_first_hand() -> Game:
    """The guided hand played to its end as the guide asks (Ann's script and the bots')."""
    game, bots = first_hand()
    mine = iter(ANN_SCRIPT)
    while not game.is_over:
        seat = game.to_act
        if seat is None:
            raise PalaceError("the guided hand stopped with nobody to act")
        game.apply(next(mine) if seat == 0 else bots[seat].choose(game.view(seat)))
    return game


def _of(game: Game, kind: EventKind, seat: int | None = None) -> list[Event]:
    return [e for e in game.events if e.kind == kind and (seat is None or e.seat == seat)]


def first_hand_steps() -> tuple[GuideStep, ...]:
    """The guide's eight steps, every card, chip and count in them read from the played hand
    (so the guide cannot say what the engine does not do)."""
    game = played_first_hand()
    rules = game.rules
    s = rules.small_bet
    names = game.names
    mine = game.state_at(_of(game, EventKind.START)[0].index)
    ante = mine.put_in[0]
    bought = {e.seat: e.cards[0] for e in _of(game, EventKind.BUY)}
    bet = _of(game, EventKind.BET, 0)[0]
    call = _of(game, EventKind.CALL)[0]
    battle = _of(game, EventKind.BATTLE)[0]
    result = battle.detail["battle"]
    if not isinstance(result, BattleResult):
        raise PalaceError("the guided hand's battle has no result")
    attacker, defender = battle.detail["armies"]
    unstruck = result.without_exclusion(attacker, defender)
    target = names[int(bet.detail["target"])]
    capture = _of(game, EventKind.CAPTURE, 0)[0]
    folder = _of(game, EventKind.FOLD)[-1]
    soldiers = len(game.soldiers(0))
    struck = cards_text(result.defender_hand.excluded)
    lost_cat = _named(unstruck.defender_hand)
    ann_hand = _named(result.attacker_hand)
    if result.winner != "attacker" or unstruck.winner != "defender":
        raise PalaceError("R8.2: the guided battle must be one that exclusion decides")
    suit = game.banner_suit(0)
    palace = cards_text(mine.zones["seat0.palace"])
    return (
        GuideStep(
            "Meet the table",
            f"You are {names[0]}, playing against {names[1]} and {names[2]}. Everyone has put "
            f"{plural(ante, 'chip')} into the pot (the ante: half the small bet of {s}, "
            f"rounded down). Your banner, {cards_text(mine.zones['seat0.banner'])}, "
            f"lies face up for all to see. Your three palace cards lie face down: only you see "
            f"them, {palace}. {names[1]} and {names[2]} have a banner and a palace too.",
            rules=("R3.1", "R4.1", "R5.3"),
        ),
        GuideStep(
            "Buy a soldier",
            f"{names[game.dealer]} dealt, so you, on her left, play first. On your turn you "
            f"take one action. Buy: pay the small bet ({plural(s, 'chip')}) and draw the top "
            f"card of the deck face up as a soldier. Soldiers are part of your army.",
            do=f"Press Buy ({plural(s, 'chip')}).",
            expect="buy",
            rules=("R6.1", "R6.2"),
        ),
        GuideStep(
            "Keep your soldier",
            f"You drew {bought[0].symbol}. After a Buy you may throw soldiers away; you may "
            f"keep up to {number_word(rules.max_soldiers)}.",
            do="Press Keep all.",
            expect="keep",
            rules=("R6.2", "R6.7"),
        ),
        GuideStep(
            "Bob and Cat play",
            f"Play passes left: {names[1]} bought {bought[1].symbol} and {names[2]} bought "
            f"{bought[2].symbol}. Soldiers are face up, so everyone sees them. The purple box "
            f"says what they did; the blue frame on the table marks who acted last.",
            rules=("R6.1",),
        ),
        GuideStep(
            f"Attack {target}",
            f"Instead of buying you may attack one player: a battle. An attack costs (your "
            f"soldiers + 1) × the small bet, here ({bet.detail['soldiers']} + 1) × {s} = "
            f"{plural(bet.amount, 'chip')}.",
            do=f"Press Attack {target} ({plural(bet.amount, 'chip')}).",
            expect=f"bet:{bet.detail['target']}",
            rules=("R7.1", "R7.3"),
        ),
        GuideStep(
            "The showdown",
            f"{target} called: she paid {plural(call.amount, 'chip')} to fight. Each of you "
            f"shows every card, and the best five count. Now the twist of Palace Poker: a card "
            f"of your opponent's banner suit does not count for its holder. Your banner is a "
            f"{suit.noun.rstrip('s')}, so {target}'s {struck} are struck out, and her "
            f"{lost_cat.removeprefix('a ')} is gone. Your {ann_hand.removeprefix('a ')} wins. "
            f"Press Show both hands unstruck under the battle to see what would have happened "
            f"without the rule.",
            rules=("R7.6", "R8.1", "R8.2", "R8.4"),
            battle=True,
        ),
        GuideStep(
            "Your capture",
            f"{target} lost, so she is out of the hand. You capture her banner and soldiers, "
            f"{cards_text(capture.cards)}: they become your soldiers. You may throw some away; "
            f"keep them.",
            do="Press Keep all.",
            expect="keep",
            rules=("R8.4", "R6.7"),
            battle=True,
        ),
        GuideStep(
            "The pot is yours",
            f"{names[folder.seat if folder.seat is not None else 1]} folded rather than fight "
            f"your army of {plural(soldiers, 'soldier')}. You are the last player standing, "
            f"and the last player standing takes the pot ({plural(game.won[0], 'chip')}). "
            f"That was a whole hand of Palace Poker. The next lessons go deeper: the nine "
            f"poker hands just below, then the deal (lesson 2), your turn (3), battles (4), "
            f"banner-suit exclusion (5) and how a hand ends (6).",
            do="Done! Press Start over to play it again.",
            rules=("R9.2", "R10.1"),
            battle=True,
        ),
    )


FIRST_HAND_STEPS: tuple[GuideStep, ...] = first_hand_steps()
"""The guide's steps, written from the played hand when the module is loaded."""


def first_battle_story() -> str:
    """The guided hand's battle in one sentence, for the lesson text after it (R8.2)."""
    game = played_first_hand()
    battle = _of(game, EventKind.BATTLE)[0]
    result = battle.detail["battle"]
    if not isinstance(result, BattleResult):
        raise PalaceError("the guided hand's battle has no result")
    names = game.names
    a, d = names[int(battle.detail["attacker"])], names[int(battle.detail["defender"])]
    unstruck = result.without_exclusion(*battle.detail["armies"])
    return (
        f"In the guided battle {d}'s {cards_text(result.defender_hand.excluded)} were struck "
        f"out: they are of {a}'s banner suit, {game.banner_suit(0).noun} (R8.2). Without the "
        f"rule {d}'s {_named(unstruck.defender_hand).removeprefix('a ')} would have beaten "
        f"{a}'s {_named(result.attacker_hand).removeprefix('a ')}."
    )


def guided_first_hand(*, four_color: bool = False) -> GuidedHand:
    """Lesson 1's guided first hand, ready to show."""
    return GuidedHand(first_hand, FIRST_HAND_STEPS, seat=0, four_color=four_color)
