"""The rule bot decides exactly as its plain description says, and the study loop's shortcuts
(hand values as integers, a paused cycle collector) change nothing but the time taken."""

from __future__ import annotations

import gc
import random
import subprocess
import sys
from types import MappingProxyType

import pytest

from palace import Game, RuleBot, Rules
from palace.actions import Action, Bet, Buy, Call, Discard, Fold, Raise, Stay, Trim
from palace.analysis.bot_hands import collector_paused
from palace.analysis.bots import (
    RandomBot,
    best_trim,
    my_hand_against,
    play_out,
    their_visible_against,
)
from palace.analysis.variants import named
from palace.checks import subset_sets
from palace.errors import PalaceError
from palace.events import Phase
from palace.hands import Category, cards_of, evaluate, value_of_bits
from palace.views import SeatView


class ReadableRuleBot:
    """The rule bot written plainly with `Hand` objects (R8.1-R8.3), one decision at a time:
    the reference the fast `RuleBot` (integer hand values, worked out once) must agree with."""

    def choose(self, view: SeatView) -> Action:
        if view.phase is Phase.TRIM_TO_FIVE:
            whole = evaluate(list(view.my_cards)).cards

            def kept_score(a: Trim) -> tuple[int, int]:
                kept = [c for c in whole if c not in a.cards]
                return (evaluate(kept).value, -len(kept))

            return max((a for a in view.legal if isinstance(a, Trim)), key=kept_score)
        if view.phase is Phase.BATTLE_RESPONSE:
            b = view.battle
            assert b is not None
            opp = b.attacker if view.seat == b.defender else b.defender
            mine, floor = my_hand_against(view, opp), their_visible_against(view, opp)
            cat = -1 if mine.category is None else mine.category
            can_raise = any(isinstance(a, Raise) for a in view.legal)
            if cat >= Category.THREE_OF_A_KIND and mine > floor and can_raise and b.raises < 2:
                return Raise()
            return Call() if mine > floor and cat >= Category.ONE_PAIR else Fold()
        return self._turn(view)

    def _turn(self, view: SeatView) -> Action:
        bets = [a for a in view.legal if isinstance(a, Bet)]
        best: tuple[int, Bet] | None = None
        for a in bets:
            mine = my_hand_against(view, a.target)
            margin = mine.value - their_visible_against(view, a.target).value
            strong = mine.category is not None and mine.category >= Category.TWO_PAIR
            if strong and margin > 0 and (best is None or margin > best[0]):
                best = (margin, a)
        kinds = {a.kind for a in view.legal}
        if kinds <= {"bet", "fold"}:  # R9.3
            if not bets:
                return Fold()
            return best[1] if best else max(bets, key=lambda a: my_hand_against(view, a.target))
        if best is not None:
            bet = best[1]
            mine = my_hand_against(view, bet.target)
            if not view.rules.no_limit or mine.category is None:
                return bet
            if mine.category < Category.THREE_OF_A_KIND:
                return bet
            amount = 2 * (len(view.me.soldiers) + 1) * view.rules.small_bet
            if view.me.stack is not None and amount > view.me.stack:
                return bet
            return Bet(target=bet.target, amount=amount)
        own = evaluate(list(view.my_cards))
        if "buy" in kinds and (own.category is None or own.category < Category.TWO_PAIR):
            if len(view.me.soldiers) < 5:
                return Buy()
        idle = {c for c in view.me.soldiers if c not in own.best}
        for d in view.legal:
            if idle and isinstance(d, Discard) and set(d.cards) == idle:
                return d
        return Stay()


VARIANT_RULES = named()
SHORT_DECK = Rules(ranks="9TJQKA")  # a deck without twos to eights: other hands, more flushes


@pytest.mark.parametrize("name", [*VARIANT_RULES, "short deck"])
def test_the_rule_bot_decides_as_its_plain_description(name: str) -> None:
    rules = VARIANT_RULES[name] if name in VARIANT_RULES else SHORT_DECK
    fast, plain = RuleBot(), ReadableRuleBot()
    decisions = 0
    for seed in range(40):
        game = Game.new(players=2 + seed % 4, seed=seed, rules=rules)
        others = RandomBot(seed)
        while not game.is_over:
            seat = game.to_act
            assert seat is not None
            view = game.view(seat)
            if seat % 2 == 0:
                choice = fast.choose(view)
                assert choice == plain.choose(view), (name, seed, game.history(None)[-3:])
                decisions += 1
            else:
                choice = others.choose(view)
            game.apply(choice)
    assert decisions > 400


class Delegate:
    """A bot of the user's own (not an `EngineBot`) that asks an engine bot what to do."""

    def __init__(self, inner: RuleBot | RandomBot) -> None:
        self.inner = inner

    def choose(self, view: SeatView) -> Action:
        return self.inner.choose(view)


def test_play_out_plays_the_same_hand_for_the_engines_bots_and_a_users() -> None:
    """`play_out` calls the engine's own bots from a dict as compiled code, and any other bot
    from any mapping as a Python method call: the same choices give the same hand."""
    for seed in range(12):
        players = 2 + seed % 4

        def bots(seat: int, seed: int = seed) -> RuleBot | RandomBot:
            return RuleBot() if seat % 2 == 0 else RandomBot(seed * 10 + seat)

        straight = play_out(
            Game.new(players=players, seed=seed), {s: bots(s) for s in range(players)}
        )
        delegated = play_out(
            Game.new(players=players, seed=seed),
            MappingProxyType({s: Delegate(bots(s)) for s in range(players)}),
        )
        assert straight.is_over and delegated.is_over
        assert straight.to_dict() == delegated.to_dict()


def _weighed_every_trim(whole: int, soldiers: int, low: int) -> int:
    """The plain rule: every legal trim weighed (strongest kept hand, then fewest cards
    kept, then the first listed), as the readable bot does through `view.legal`."""
    listed = subset_sets(soldiers, low)
    if not listed:
        return -1
    return max(listed, key=lambda b: (value_of_bits(whole & ~b), -(whole & ~b).bit_count()))


def test_the_rule_bot_trims_as_weighing_every_listed_trim() -> None:
    """`best_trim` builds the trims' card sets itself (no list) and grows only the trims
    that keep the best hand; on random hands of 5-13 cards (a banner, three palace cards and
    up to nine soldiers after a capture), some with two suits of five, and every kind of
    floor, it picks what weighing every trim `subset_sets` lists picks."""
    rng = random.Random(2026)
    for i in range(4000):
        if i % 4 == 0:  # five cards in each of two suits: two flushes to choose between
            a, b = rng.sample(range(4), 2)
            cards = [s * 13 + r for s in (a, b) for r in rng.sample(range(13), 5)]
            cards += rng.sample([c for c in range(52) if c not in cards], rng.randint(0, 3))
        else:
            cards = rng.sample(range(52), rng.randint(5, 13))
        whole = sum(1 << c for c in cards)
        soldiers = sum(1 << c for c in rng.sample(cards, rng.randint(0, min(9, len(cards)))))
        n = soldiers.bit_count()
        low = rng.choice([0, max(0, n - 5), 1, n, n + 1])
        assert best_trim(whole, soldiers, low) == _weighed_every_trim(whole, soldiers, low), (
            cards_of(whole),
            cards_of(soldiers),
            low,
        )


CYCLE_CHECK = """
import gc
from palace.analysis.bot_hands import play_hand
from palace.analysis.variants import named

gc.collect()
gc.disable()
for bot in ("rules", "mixed", "random"):
    for name, rules in list(named().items())[:6]:
        for i in range(12):
            play_hand(rules, 2 + i % 5, 3, i, bot)
        print(bot, name, gc.collect(), sep="|")
"""


def test_hands_leave_no_reference_cycles_so_the_collector_may_pause() -> None:
    """`hand_totals` pauses the cycle collector; that is safe only while a hand's objects
    are freed by reference counting alone. (In a process of its own: other tests' threads
    may make garbage of their own meanwhile.)"""
    out = subprocess.run(
        [sys.executable, "-c", CYCLE_CHECK], capture_output=True, text=True, check=True
    ).stdout.splitlines()
    assert len(out) == 18
    for line in out:
        bot, name, found = line.split("|")
        assert found == "0", f"{name}: a {bot} hand left {found} objects only a cycle holds"


def test_the_collector_comes_back_after_a_study_even_one_that_fails() -> None:
    assert gc.isenabled()
    with collector_paused():
        assert not gc.isenabled()
        with collector_paused():  # nested: a shard inside a study
            assert not gc.isenabled()
        assert not gc.isenabled()  # the outer one still runs
    assert gc.isenabled()
    with pytest.raises(PalaceError), collector_paused():
        raise PalaceError("a broken shard")
    assert gc.isenabled()
    gc.disable()
    try:
        with collector_paused():
            pass
        assert not gc.isenabled()  # it was off before: it stays off
    finally:
        gc.enable()
