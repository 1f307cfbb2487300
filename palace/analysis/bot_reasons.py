"""Why a bot did what it did, in one sentence: `SearchBot` from its search, `OddsBot` from the
exact battle odds it plays by, `RuleBot` from the hands it compares. Each reason reads only
the bot's own view (what that seat may know, R5.3), and costs at most one odds count.

`Explaining` wraps any bot and hands every choice's reason to a callback (the app's
narration shows it under the move).

>>> from palace.game import Game
>>> from palace.analysis.bots import RuleBot
>>> g = Game.new(players=3, seed=4)
>>> view = g.view(g.to_act)
>>> said = []
>>> bot = Explaining(RuleBot(), lambda view, action, why: said.append(why))
>>> action = bot.choose(view)
>>> said == [because(RuleBot(), view, action)]
True
>>> reason(RuleBot(), view, action)
'Bob buys a soldier: its hand (high card jack) is below two pair, so it draws for more.'
"""

from __future__ import annotations

from collections.abc import Callable

from palace.actions import Action, Bet, Buy, Call, Discard, Fold, Raise, Stay, Trim
from palace.analysis.bots import Bot, RuleBot, my_hand_against, their_visible_against
from palace.analysis.odds import battle_odds
from palace.analysis.odds_bot import OddsBot
from palace.analysis.search_bot import SearchBot, action_words, explain_result
from palace.errors import PalaceError
from palace.hands import Category, Hand, describe_value, evaluate
from palace.views import SeatView

__all__ = ["Explaining", "because", "reason"]

Listener = Callable[[SeatView, Action, str], None]


def _words(hand: Hand) -> str:
    """``"two pair, kings and sevens"`` (R8 names; a short hand's note left out)."""
    text = describe_value(hand.value)
    return text[:1].lower() + text[1:]


def _opponent(view: SeatView, action: Action) -> int | None:
    """Whom the action is about: the target of an attack, the other side of a battle."""
    if isinstance(action, Bet):
        return action.target
    b = view.battle
    if (
        b is not None
        and isinstance(action, Call | Raise | Fold)
        and view.seat
        in (
            b.attacker,
            b.defender,
        )
    ):
        return b.attacker if view.seat == b.defender else b.defender
    return None


def _pct(x: float) -> str:
    return f"{round(100 * x)}%"


def reason(bot: Bot, view: SeatView, action: Action) -> str:
    """Why `bot` chose `action` from `view`, starting with the seat's name:
    ``"Bob attacks Cat (2 chips): 62% to win a battle against Cat (exact odds); ..."``."""
    head = f"{view.names[view.seat]} {action_words(view, action)}"
    why = because(bot, view, action)
    return f"{head}: {why}" if why else f"{head}."


def because(bot: Bot, view: SeatView, action: Action) -> str:
    """The reason alone (what follows the colon in `reason`), "" when the bot gives none."""
    head = f"{view.names[view.seat]} {action_words(view, action)}"
    if len(view.legal) == 1:
        text = f"{head}: it is the only legal choice."
    elif isinstance(bot, SearchBot):
        last = bot.last
        fresh = last is not None and last.best == action
        if last is None or not fresh or not {s.action for s in last.stats} <= set(view.legal):
            return ""  # no search of this decision to tell
        text = explain_result(view, last)
    elif isinstance(bot, OddsBot):
        text = _odds_reason(bot, view, action, head)
    elif isinstance(bot, RuleBot):
        text = _rule_reason(view, action, head)
    else:
        return ""
    return text.removeprefix(f"{head}: ").removeprefix(f"{head}; ")


def _odds_reason(bot: OddsBot, view: SeatView, action: Action, head: str) -> str:
    opp = _opponent(view, action)
    if opp is None:  # buys, stays, discards and trims are RuleBot's
        return _rule_reason(view, action, head)
    names = view.names
    floor = 0
    b = view.battle
    if b is not None and not isinstance(action, Bet):
        alive = sum(1 for s in view.seats if s.active)
        floor = bot.assume_raise if b.raises else (bot.assume_attack if alive > 2 else 0)
    try:
        odds = battle_odds(view, opp, at_least=floor) if floor else battle_odds(view, opp)
        assumed = f", if {names[opp]} holds what that move suggests" if floor else ""
    except PalaceError:  # no palace gives them that much: the bot counts them all
        odds, assumed = battle_odds(view, opp), ""
    chance = f"{_pct(odds.win)} to win a battle against {names[opp]} (exact odds{assumed})"
    if isinstance(action, Fold):
        little = "only " if odds.win > 0 else ""
        return f"{head}: {little}{chance}, not enough for what it costs."
    if isinstance(action, Raise):
        return f"{head}: {chance}, a clear favourite."
    return f"{head}: {chance}, enough for what it costs."


def _rule_reason(view: SeatView, action: Action, head: str) -> str:
    names = view.names
    opp = _opponent(view, action)
    if opp is not None:
        mine = my_hand_against(view, opp)
        shown = their_visible_against(view, opp)
        has = f"its {_words(mine)} against {names[opp]}'s banner suit"
        sees = f"what {names[opp]} shows ({_words(shown)})"
        if mine > shown and isinstance(action, Fold):
            return f"{head}: {has} beats {sees}, but less than a pair is too weak to call."
        if mine > shown:
            return f"{head}: {has} beats {sees}."
        if isinstance(action, Fold):
            return f"{head}: {has} does not beat {sees}."
        if isinstance(action, Bet):  # two left must battle (R9.3): its best target
            return f"{head}: two left must battle (R9.3); {has} is its best chance."
        return f"{head}: {has}, against {sees}."
    own = evaluate(list(view.my_cards))
    hand = _words(own)
    if isinstance(action, Buy):
        return f"{head}: its hand ({hand}) is below two pair, so it draws for more."
    if isinstance(action, Stay):
        if not any(isinstance(a, Bet) for a in view.legal):
            return f"{head}: there is no one it may attack now (R7.1, R7.2)."
        weak = own.category is None or own.category < Category.TWO_PAIR
        why = "is too weak to attack" if weak else "does not clearly beat what a target shows"
        return f"{head}: its hand ({hand}) {why}."
    if isinstance(action, Discard):
        return (
            f"{head}: those soldiers are not in its best five ({hand}); they would only "
            "raise what its attacks and calls cost (R7.3, R7.6)."
        )
    if isinstance(action, Trim):
        return f"{head}: it keeps the soldiers that make its best hand ({hand}) (R6.7)."
    if isinstance(action, Fold):
        return f"{head}: two left must battle or fold (R9.3), and it sees no battle to win."
    return f"{head}."


class Explaining:
    """A bot that plays exactly like `bot` and, after each choice, calls
    ``on_reason(view, action, why)`` with the reason alone (`because`; "" for none)."""

    def __init__(self, bot: Bot, on_reason: Listener) -> None:
        self.bot = bot
        self.on_reason = on_reason

    @property
    def name(self) -> str:
        return str(getattr(self.bot, "name", type(self.bot).__name__))

    def __repr__(self) -> str:
        return f"Explaining({self.bot!r})"

    def choose(self, view: SeatView) -> Action:
        action = self.bot.choose(view)
        self.on_reason(view, action, because(self.bot, view, action))
        return action
