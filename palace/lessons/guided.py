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

from palace.actions import Action, Buy, Call, Fold, Trim
from palace.analysis.bots import Bot
from palace.errors import PalaceError
from palace.game import Game
from palace.script import deck_for
from palace.views import SeatView
from palace.widgets.guided import GuidedHand, GuideStep

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


FIRST_HAND_STEPS: tuple[GuideStep, ...] = (
    GuideStep(
        "Meet the table",
        "You are Ann, playing against Bob and Cat. Everyone has put 1 chip into the pot (the "
        "ante). Your banner, K♥, lies face up for all to see. Your three palace cards lie "
        "face down: only you see them, K♠ 8♣ 3♣. Bob and Cat have a banner and a palace too.",
        rules=("R3.1", "R4.1", "R5.3"),
    ),
    GuideStep(
        "Buy a soldier",
        "Cat dealt, so you, on her left, play first. On your turn you take one action. "
        "Buy: pay the small bet (2 chips) and draw the top card of the deck face up as a "
        "soldier. Soldiers are part of your army.",
        do="Press Buy (2 chips).",
        expect="buy",
        rules=("R6.1", "R6.2"),
    ),
    GuideStep(
        "Keep your soldier",
        "You drew Q♠. After a Buy you may throw soldiers away; you may keep up to five.",
        do="Press Keep all.",
        expect="keep",
        rules=("R6.2", "R6.7"),
    ),
    GuideStep(
        "Bob and Cat play",
        "Play passes left: Bob bought 5♣ and Cat bought A♥. Soldiers are face up, so "
        "everyone sees Cat's ace. The purple box says what they did; the blue frame on the "
        "table marks who acted last.",
        rules=("R6.1",),
    ),
    GuideStep(
        "Attack Cat",
        "Instead of buying you may attack one player: a battle. An attack costs (your "
        "soldiers + 1) × the small bet, here (1 + 1) × 2 = 4 chips.",
        do="Press Attack Cat (4 chips).",
        expect="bet:2",
        rules=("R7.1", "R7.3"),
    ),
    GuideStep(
        "The showdown",
        "Cat called: she paid 4 chips to fight. Each of you shows every card, and the best "
        "five count. Now the twist of Palace Poker: a card of your opponent's banner suit "
        "does not count for its holder. Your banner is a heart, so Cat's A♥ and 6♥ are "
        "struck out, and her pair of aces is gone. Your pair of kings wins. Press Show "
        "both hands unstruck under the battle to see what would have happened without the "
        "rule.",
        rules=("R7.6", "R8.1", "R8.2", "R8.4"),
        battle=True,
    ),
    GuideStep(
        "Your capture",
        "Cat lost, so she is out of the hand. You capture her banner 4♦ and her soldier A♥: "
        "they become your soldiers. You may throw some away; keep them.",
        do="Press Keep all.",
        expect="keep",
        rules=("R8.4", "R6.7"),
        battle=True,
    ),
    GuideStep(
        "The pot is yours",
        "Bob folded rather than fight your army of three soldiers. You are the last player "
        "standing, and the last player standing takes the pot. That was a whole hand of "
        "Palace Poker. The next lessons go deeper: the nine poker hands just below, then the "
        "deal (lesson 2), your turn (3), battles (4), banner-suit exclusion (5) and how a "
        "hand ends (6).",
        do="Done! Press Start over to play it again.",
        rules=("R9.2", "R10.1"),
        battle=True,
    ),
)


def guided_first_hand(*, four_color: bool = False) -> GuidedHand:
    """Lesson 1's guided first hand, ready to show."""
    return GuidedHand(first_hand, FIRST_HAND_STEPS, seat=0, four_color=four_color)
