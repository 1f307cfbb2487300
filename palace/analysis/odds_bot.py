"""`OddsBot`: a computer player that battles by the exact odds of `palace.analysis.odds`.

It sees only `game.view(seat)` (R5.3) and returns one of `view.legal`, like every bot.

* **Attacks** (R7.1-R7.3): for each legal target it counts, over every palace the
  target could hold, how often it would win, tie or lose (`battle_odds`). It attacks
  the target it is most likely to beat when that chance clears a bar that rises with
  the players still in the hand and with the chips it risks (the attack, against the
  pot the battle builds). With two players left (R9.3) it weighs the pot directly: a
  battle then decides the whole pot.
* **Defences** (R7.4-R7.8): the same, with the chance counted only over the palaces
  that would have made the attack (or raise) sensible: it assumes an attacker holds at
  least `assume_attack` and a raiser at least `assume_raise`. It raises a clear
  favourite's hand, calls when the chance clears the bar, and folds otherwise.
* **Buy, Trim, Stay** (R6): as `RuleBot`.

The default thresholds were tuned in `bench/bot_match.py` against `RuleBot` (four
players, two of each); see `data/bot_match.md`.

>>> from palace.game import Game
>>> from palace.analysis.bots import RuleBot, play_out
>>> g = Game.new(players=4, seed=3)
>>> play_out(g, {0: OddsBot(), 1: RuleBot(), 2: OddsBot(), 3: RuleBot()}).is_over
True
"""

from __future__ import annotations

from palace.actions import Action, Bet, Call, Fold, Raise
from palace.analysis.bots import RuleBot
from palace.analysis.odds import Odds, battle_odds
from palace.errors import PalaceError
from palace.events import Phase
from palace.hands import TRIPS, TWO_PAIR
from palace.views import SeatView

__all__ = ["OddsBot"]


class OddsBot:
    """Attacks and defends by exact battle odds; buys, trims and stays like `RuleBot`.

    With ``n`` players in the hand (three or more) it attacks when its win chance is at
    least ``attack_at + crowd * (n - 3) + risk * stake / pot``, and calls when it is at
    least ``call_at + crowd * (n - 3) + risk * stake / pot`` (``stake``: the chips it
    puts in now; ``pot``: the pot once both sides have paid). Heads-up (two left) it
    attacks or calls when the expected share of the pot beats the chips it pays.
    It raises from a win chance of ``raise_at``, at most ``max_raises`` times a battle.

    ``assume_attack`` / ``assume_raise`` are hand values (`palace.hands.TWO_PAIR`, `TRIPS`, ...;
    0 for none): when an opponent chose to attack it (with three or more in the hand:
    two left must battle, R9.3) or to raise, it counts only the palaces that give the
    opponent that much (`battle_odds(..., at_least=)`); if none does, all of them.
    """

    name = "odds"

    def __init__(
        self,
        *,
        attack_at: float = 0.5,
        call_at: float = 0.6,
        crowd: float = 0.2,
        risk: float = 0.5,
        raise_at: float = 0.8,
        max_raises: int = 2,
        assume_attack: int = TWO_PAIR,
        assume_raise: int = TRIPS,
        rules_bot: RuleBot | None = None,
    ) -> None:
        self.attack_at = attack_at
        self.call_at = call_at
        self.crowd = crowd
        self.risk = risk
        self.raise_at = raise_at
        self.max_raises = max_raises
        self.assume_attack = assume_attack
        self.assume_raise = assume_raise
        self.rules_bot = rules_bot if rules_bot is not None else RuleBot()

    def __repr__(self) -> str:
        return (
            f"OddsBot(attack_at={self.attack_at}, call_at={self.call_at}, crowd={self.crowd}, "
            f"risk={self.risk}, raise_at={self.raise_at}, max_raises={self.max_raises}, "
            f"assume_attack={self.assume_attack}, assume_raise={self.assume_raise})"
        )

    # ------------------------------------------------------------------ entry
    def choose(self, view: SeatView) -> Action:
        if not view.legal:
            raise PalaceError(f"seat {view.seat} has no decision to make now")
        if view.phase is Phase.BATTLE_RESPONSE:
            return self._answer(view)
        if view.phase is Phase.TURN:
            return self._turn(view)
        return self.rules_bot.choose(view)  # R6.7 trims

    # ------------------------------------------------------------------ helpers
    @staticmethod
    def _odds(view: SeatView, opp: int, floor: int = 0) -> Odds:
        """The battle odds, counting only palaces worth `floor` when any are."""
        if floor > 0:
            try:
                return battle_odds(view, opp, at_least=floor)
            except PalaceError:  # no palace gives them that much: count them all
                pass
        return battle_odds(view, opp)

    def _bar(self, start: float, alive: int, stake: int, pot: int) -> float:
        """The win chance needed with `alive` players in the hand (three or more)."""
        return start + self.crowd * (alive - 3) + self.risk * stake / max(pot, 1)

    @staticmethod
    def _heads_up_gain(odds: Odds, pot: int, stake: int) -> float:
        """Two left: a win takes the pot (R10.1), a tie shares it (R8.6, R10.4)."""
        return (odds.win + odds.tie / 2) * pot - stake

    @staticmethod
    def _call_cost(view: SeatView, target: int, attack: int) -> int:
        """What `target` pays to call an attack (R7.6; at most an all-in attack, R3.4)."""
        if view.rules.calls_match_attack:
            return attack
        return min(attack, (len(view.seats[target].soldiers) + 1) * view.rules.small_bet)

    # ------------------------------------------------------------------ turn
    def _turn(self, view: SeatView) -> Action:
        bets = [a for a in view.legal if isinstance(a, Bet)]
        others = tuple(a for a in view.legal if not isinstance(a, Bet))
        alive = sum(1 for s in view.seats if s.active)
        attack = (len(view.me.soldiers) + 1) * view.rules.small_bet  # R7.3
        if view.me.stack is not None:
            attack = min(attack, view.me.stack)  # a short stack attacks all-in (R3.4)
        best: tuple[float, Bet] | None = None
        for a in bets:
            stake = attack if a.amount is None else a.amount
            pot = view.pot + stake + self._call_cost(view, a.target, stake)
            odds = self._odds(view, a.target)
            if alive <= 2:
                score = self._heads_up_gain(odds, pot, stake)
            else:
                score = odds.win - self._bar(self.attack_at, alive, stake, pot)
            if best is None or score > best[0]:
                best = (score, a)
        if best is not None and best[0] >= 0:
            return best[1]
        if not others or all(isinstance(a, Fold) for a in others):  # R9.3: Bet or Fold
            return best[1] if not others and best is not None else Fold()
        return self.rules_bot.choose(view.replace(legal=others))

    # ------------------------------------------------------------------ defence
    def _answer(self, view: SeatView) -> Action:
        b = view.battle
        assert b is not None
        opp = b.attacker if view.seat == b.defender else b.defender
        alive = sum(1 for s in view.seats if s.active)
        if b.raises:
            floor = self.assume_raise
        else:
            floor = self.assume_attack if alive > 2 else 0
        odds = self._odds(view, opp, floor)
        kinds = {a.kind for a in view.legal}
        pot = view.pot + b.owed  # once I have paid what I owe
        if alive <= 2:
            ok = self._heads_up_gain(odds, pot, b.owed) > 0
        else:
            ok = odds.win >= self._bar(self.call_at, alive, b.owed, pot)
        if ok and odds.win >= self.raise_at and "raise" in kinds and b.raises < self.max_raises:
            return Raise()
        return Call() if ok else Fold()
