"""Battle odds for one seat: win, tie and lose chances against an opponent (R7, R8).

`battle_odds(view, target)` answers "if I battled this player now, how often would I
win?" from what the seat may know (R5.3): its own cards, every face-up card, and what
it remembers (`SeatView.known`). The target's hidden palace cards are unknown, so it
goes through *every* set of them that could be there, drawn from `view.unseen` (the
cards whose place the seat cannot know), and shows each battle down:

* each side loses the cards of the other's banner suit (R8.2),
* the higher hand wins (R8.3, R8.4),
* equal hands go to the side with more cards of its own banner suit, counting banner,
  soldiers and palace (R8.5, the hypothetical palace cards included),
* still equal is a tie (R8.6).

Every set counts once: the odds treat each as equally likely (they ignore what the
opponent's betting might say about their cards; `at_least` narrows the sets to the
hands an opponent's attack suggests). This seat's own hand is fixed and evaluated once;
the target's hand is evaluated for each set, in numpy by `palace.analysis.batch` when it imports
(about 1-2 ms a target on a 4-player table), else in pure Python (a few ms more):
`bench/bench_odds.py` measures both.

>>> from palace.game import Game
>>> g = Game.new(players=3, seed=1)
>>> o = battle_odds(g.view(g.to_act), 1)
>>> round(o.win + o.tie + o.lose, 9), o.sets == comb(len(g.view(g.to_act).unseen), 3)
(1.0, True)
>>> o.text("Bob").endswith("against Bob")
True
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from itertools import chain, combinations
from math import comb
from typing import Any, Literal

import numpy as np

from palace.actions import Bet
from palace.analysis import batch
from palace.cards import Card
from palace.errors import PalaceError
from palace.events import Phase
from palace.hands import (
    SUIT_MASKS,
    Category,
    Hand,
    card_set,
    category_of,
    describe_value,
    evaluate,
    value_of_bits,
)
from palace.numbers import is_whole
from palace.views import SeatView

__all__ = ["Odds", "advise", "battle_odds", "battle_targets", "odds_from"]


@dataclass(frozen=True)
class Odds:
    """The chances of one battle against `target`, over `sets` possible hidden palaces.

    `win`, `tie` and `lose` are fractions of the `sets` palaces (they sum to 1);
    `wins`, `ties` and `losses` are the counts behind them. `my_hand` is this seat's
    hand with the target's banner suit left out (R8.2).
    """

    win: float
    tie: float
    lose: float
    sets: int
    target: int
    my_hand: Hand
    explanation: str
    wins: int = 0
    ties: int = 0
    losses: int = 0
    target_name: str = ""

    def text(self, name: str | None = None) -> str:
        """``"win 62% · tie 1% · lose 37% against Bob"``."""
        who = name if name is not None else (self.target_name or f"seat {self.target}")
        return f"win {_pct(self.win)} · tie {_pct(self.tie)} · lose {_pct(self.lose)} against {who}"


def _pct(x: float) -> str:
    """A percentage that never rounds a possibility away: 0.3% shows as "<1%"."""
    if 0 < x < 0.005:
        return "<1%"
    if 0.995 <= x < 1:
        return ">99%"
    return f"{round(100 * x)}%"


def _check_target(view: SeatView, target: object) -> None:
    """Raise `PalaceError` unless `target` is an opponent this seat may battle (R7.1, R7.2)."""
    me = view.me
    if not me.active or me.banner is None:
        raise PalaceError(f"{me.name} is out of the hand and cannot battle (R7.1)")
    n = len(view.seats)
    if not is_whole(target) or not 0 <= target < n:
        raise PalaceError(f"target must name a seat 0-{n - 1}, got {target!r} (R7.1)")
    if target == view.seat:
        raise PalaceError(f"{me.name} cannot battle themselves: name an opponent (R7.1)")
    them = view.seats[target]
    if not them.active or them.banner is None:
        raise PalaceError(f"{them.name} is out of the hand and cannot be battled (R7.1)")
    if them.suit == me.suit:
        raise PalaceError(
            f"{me.name} and {them.name} both have {me.suit.symbol} banners: players of "
            f"the same banner suit may not battle (R7.2)"
        )


def battle_targets(view: SeatView) -> list[int]:
    """The seats this seat could battle now: active opponents of another banner suit.

    (Whether a Bet is legal *now* also depends on whose turn it is: see `advise`.)
    """
    me = view.me
    if not me.active or me.banner is None:
        return []
    return [
        s.seat
        for s in view.seats
        if s.seat != view.seat and s.active and s.banner is not None and s.suit != me.suit
    ]


def battle_odds(view: SeatView, target: int, *, at_least: int = 0) -> Odds:
    """This seat's chances in a battle with `target` now, over every possible hidden palace.

    Works for an attacker choosing a target and for a defender against the attacker.
    Raises `PalaceError` naming R7.1 / R7.2 when `target` is not an active opponent with
    a different banner suit.

    `at_least` (a hand value such as ``palace.hands.TWO_PAIR``; 0 for none) keeps only
    the palaces that give the target at least that hand against this seat (R8.2): the
    odds *if* the target holds that much, say because they attacked.
    """
    return odds_from(view, target, view.unseen, at_least=at_least)


def odds_from(
    view: SeatView,
    target: int,
    unseen: Iterable[Card],
    *,
    engine: Literal["auto", "python", "numpy"] = "auto",
    at_least: int = 0,
) -> Odds:
    """`battle_odds` with an explicit pool of cards the target's hidden palace comes from.

    For lessons ("what if I had forgotten that discard?") and tests. The target's known
    palace cards (if any) are fixed; the others are every set of the right size from
    `unseen`, leaving out cards this seat can see elsewhere (its own, and every face-up
    card). `engine` picks the evaluator: "python" (`value_of_bits`, one set at a time),
    "numpy" (`palace.analysis.batch.evaluate_batch`, all sets at once) or "auto" (numpy).
    Both count exactly the same sets. `at_least`
    is as in `battle_odds`; raises `PalaceError` when no palace gives that much.
    """
    _check_target(view, target)
    if not is_whole(at_least) or not 0 <= at_least < (len(Category) + 1) << 20:
        raise PalaceError(
            f"at_least must be a hand value (0, or palace.hands.PAIR and up), got {at_least!r}"
        )
    if engine not in ("auto", "python", "numpy"):
        raise PalaceError(f"engine must be 'auto', 'python' or 'numpy', got {engine!r}")
    use_numpy = engine != "python"
    me, them = view.me, view.seats[target]
    my_suit, their_suit = int(me.suit), int(them.suit)
    mine_cards = list(view.my_cards)
    my_bits = card_set(mine_cards)
    my_value = value_of_bits(my_bits, their_suit)
    my_count = sum(1 for c in mine_cards if c.suit == me.suit)

    known = view.known_palace(target)
    k = max(0, them.palace_count - len(known))
    public = [them.flag, *them.soldiers, *known]
    on_table = set(view.my_cards) | set(view.rejects)
    for info in view.seats:
        on_table.update(info.soldiers)
        if info.banner is not None:
            on_table.add(info.banner)
    pool = [c for c in set(unseen) if c not in known and c not in on_table]
    if len(pool) < k:
        raise PalaceError(
            f"only {len(pool)} unseen cards for {them.name}'s {k} hidden palace cards (R5.1)"
        )
    keep = ~SUIT_MASKS[my_suit]  # my banner suit never counts for the target (R8.2)
    base = card_set(public) & keep
    # Cards of my banner suit change neither the target's hand nor its R8.5 count (its
    # suit differs from mine, R7.2): group the sets by how many such "blind" cards they
    # hold, evaluate each set of the other ("live") cards once and weight it.
    live_cards = sorted((c for c in pool if c.suit != me.suit), reverse=True)
    live = [c.bit for c in live_cards]
    blind = len(pool) - len(live)
    tmask = SUIT_MASKS[their_suit]
    wins = ties = losses = 0
    for j in range(min(k, len(live)) + 1):
        weight = comb(blind, k - j)
        if not weight:
            continue
        if use_numpy and j >= 2:  # small groups are quicker one by one
            public_idx = [c.index for c in public]
            live_idx = [c.index for c in live_cards]
            w, t, lo = _tally_numpy(
                public_idx, live_idx, j, my_suit, my_value, my_count, their_suit, at_least
            )
        else:
            w, t, lo = _tally(base, live, j, my_value, my_count, tmask, at_least)
        wins += w * weight
        ties += t * weight
        losses += lo * weight
    sets = wins + ties + losses
    if at_least <= 0:
        assert sets == comb(len(pool), k)
    elif sets == 0:
        raise PalaceError(
            f"no palace {them.name} could hold gives them at least "
            f"{_floor_text(at_least)} against {me.name}"
        )
    my_hand = evaluate(mine_cards, exclude_suit=them.suit)
    why = _explain(
        view,
        target,
        my_hand,
        my_count,
        base,
        live,
        tmask,
        losses,
        ties,
        at_least,
        pool_size=len(pool),
        hidden=k,
    )
    return Odds(
        win=wins / sets,
        tie=ties / sets,
        lose=losses / sets,
        sets=sets,
        target=target,
        my_hand=my_hand,
        explanation=why,
        wins=wins,
        ties=ties,
        losses=losses,
        target_name=them.name,
    )


@lru_cache(maxsize=64)
def _combo_table(n: int, j: int) -> Any:
    """Every ``j``-subset of ``range(n)`` as rows of an (C(n, j), j) numpy index array."""
    flat = np.fromiter(chain.from_iterable(combinations(range(n), j)), dtype=np.intp)
    return flat.reshape(-1, j)


def _tally_numpy(
    public: list[int],
    live: list[int],
    j: int,
    my_suit: int,
    my_value: int,
    my_count: int,
    their_suit: int,
    at_least: int,
) -> tuple[int, int, int]:
    """`_tally` for card indices, with every set evaluated at once by `evaluate_batch`."""
    picks = np.asarray(live, dtype=np.int64)[_combo_table(len(live), j)]
    rows = np.empty((picks.shape[0], len(public) + j), dtype=np.int64)
    rows[:, : len(public)] = public
    rows[:, len(public) :] = picks
    values = batch.evaluate_batch(rows, my_suit, threads=1).astype(np.int64)
    if at_least > 0:
        consistent = values >= at_least
        rows, values = rows[consistent], values[consistent]
    lose = int(np.count_nonzero(values > my_value))
    equal = values == my_value
    n_equal = int(np.count_nonzero(equal))
    win = len(values) - lose - n_equal
    tie = 0
    if n_equal:  # R8.5: cards of their own banner suit, the hypothetical palace included
        theirs = np.count_nonzero(rows[equal] // 13 == their_suit, axis=1)
        win += int(np.count_nonzero(theirs < my_count))
        lose += int(np.count_nonzero(theirs > my_count))
        tie = int(np.count_nonzero(theirs == my_count))
    return win, tie, lose


def _set_bits(base: int, live: list[int], j: int) -> list[int]:
    """The card sets ``base`` plus every ``j`` of the ``live`` bits."""
    if j == 0:
        return [base]
    if j == 1:
        return [base | a for a in live]
    if j == 2:
        return [base | a | b for a, b in combinations(live, 2)]
    if j == 3:
        return [base | a | b | c for a, b, c in combinations(live, 3)]
    out = []
    for combo in combinations(live, j):
        bits = base
        for b in combo:
            bits |= b
        out.append(bits)
    return out


def _tally(
    base: int, live: list[int], j: int, my_value: int, my_count: int, tmask: int, at_least: int
) -> tuple[int, int, int]:
    """(wins, ties, losses) of this seat over the sets of ``j`` live palace cards.

    Sets giving the target less than ``at_least`` are left out.
    """
    sets = _set_bits(base, live, j)
    values = list(map(value_of_bits, sets))
    if at_least > 0:
        kept = [(v, b) for v, b in zip(values, sets, strict=True) if v >= at_least]
        values = [v for v, _ in kept]
        sets = [b for _, b in kept]
    equal = values.count(my_value)
    lose = sum(1 for v in values if v > my_value)
    win = len(values) - lose - equal
    tie = 0
    if equal:  # R8.5: cards of their own banner suit, the hypothetical palace included
        for v, bits in zip(values, sets, strict=True):
            if v == my_value:
                theirs = (bits & tmask).bit_count()
                if my_count > theirs:
                    win += 1
                elif my_count < theirs:
                    lose += 1
                else:
                    tie += 1
    return win, tie, lose


def _floor_text(value: int) -> str:
    """A hand-value floor in words: ``"two pair"``, ``"a pair of kings"``."""
    cat = category_of(value)
    if cat is None:
        return "any hand"
    if value & 0xFFFFF:  # ranks given
        return _lower(describe_value(value))
    return cat.label.lower()


def _lower(text: str) -> str:
    text = text[:1].lower() + text[1:]
    if text.startswith(("pair", "flush", "straight", "full house")):
        return "a " + text
    return text


def _explain(
    view: SeatView,
    target: int,
    mine: Hand,
    my_count: int,
    base: int,
    live: list[int],
    tmask: int,
    losses: int,
    ties: int,
    at_least: int = 0,
    *,
    pool_size: int = 0,
    hidden: int = 3,
) -> str:
    """One true sentence on what drives the odds: the exclusion and what beats this seat."""
    them = view.seats[target]
    suit = them.suit
    who = them.name
    lost = mine.excluded
    desc = _lower(describe_value(mine.value))
    if lost:
        whole = _lower(describe_value(evaluate(list(view.my_cards)).value))
        cards = f"{len(lost)} {suit.noun if len(lost) > 1 else suit.noun[:-1]}"
        if whole != desc:
            whole = whole[2:] if whole.startswith("a ") else whole
            head = f"Your {whole} loses {cards} to {who}'s banner suit, leaving {desc}"
        else:
            head = f"{who}'s banner suit takes {cards} from you, leaving {desc}"
    else:
        head = f"You hold {desc} against {who}"

    def beats_me(bits: int) -> bool:
        v = value_of_bits(bits)
        if v != mine.value:
            return v > mine.value
        return (bits & tmask).bit_count() > my_count

    if losses == 0:
        tail = "no palace {who} could hold beats you"
        if ties:
            tail += ", though some would tie"
    elif beats_me(base):
        seen = "face-up cards" if not view.known_palace(target) else "cards you know of"
        tail = "{who}'s " + seen + " already beat you"
    else:
        singles = [b for b in live if beats_me(base | b)]
        names = [Card.from_index(b.bit_length() - 1).symbol for b in singles]
        # a palace holding one of these always beats you (more cards never make a hand
        # worse, R8.1): any loss beyond those sets comes from other combinations
        with_single = comb(pool_size, hidden) - comb(pool_size - len(names), hidden)
        more = at_least <= 0 and losses > with_single
        if not names:
            tail = "{who} needs at least two fitting palace cards to beat you"
        elif len(names) == 1:
            tail = f"{names[0]} alone in {{who}}'s palace beats you"
        elif len(names) <= 3:
            tail = f"{', '.join(names[:-1])} or {names[-1]} alone in {{who}}'s palace beats you"
        else:
            tail = f"any one of {len(names)} cards you have not seen, alone in {{who}}'s palace, "
            tail += "beats you"
        if names and more:
            tail += ", and so do some palaces without them (a pair, for instance)"
            tail = (
                tail
                if _pair_beats(base, live, beats_me)
                else tail.replace(" (a pair, for instance)", "")
            )
    if at_least > 0:
        head = head[:1].lower() + head[1:] if head.startswith("You") else head
        head = f"If {who} holds at least {_floor_text(at_least)}, {head}"
    return f"{head}; {tail.format(who=who)}."


def _pair_beats(base: int, live: list[int], beats_me: Any) -> bool:
    """Whether some pair of equal ranks among the live cards beats this seat."""
    by_rank: dict[int, list[int]] = {}
    for b in live:
        by_rank.setdefault((b.bit_length() - 1) % 13, []).append(b)
    return any(beats_me(base | bits[0] | bits[1]) for bits in by_rank.values() if len(bits) >= 2)


def advise(view: SeatView) -> list[Odds]:
    """Odds against every legal Bet target, in seat order.

    When this seat is answering a battle (no Bet is legal), the odds against the other
    side of that battle. Empty when the seat has no battle to choose or answer.
    """
    targets = [a.target for a in view.legal if isinstance(a, Bet)]
    if not targets and view.phase is Phase.BATTLE_RESPONSE and view.battle is not None:
        b = view.battle
        if view.seat in (b.attacker, b.defender) and view.to_act == view.seat:
            targets = [b.attacker if view.seat == b.defender else b.defender]
    seen: list[int] = []
    for t in targets:
        if t not in seen:
            seen.append(t)
    return [battle_odds(view, t) for t in seen]


def odds_advisor(game: Any, seat: int, target: int) -> str:
    """The ActionPicker's advisor hook: the odds and what drives them.

    >>> from palace.game import Game
    >>> g = Game.new(players=4, seed=7)
    >>> odds_advisor(g, 0, 1).split(". ")[0]
    'win 25% · tie <1% · lose 75% against Bob'
    """
    odds = battle_odds(game.view(seat), target)
    return f"{odds.text(game.names[target])}. {odds.explanation}"
