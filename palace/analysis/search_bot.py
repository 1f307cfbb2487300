"""`SearchBot`: information-set Monte Carlo tree search over sampled worlds (any `Rules`).

Each decision it sees only `game.view(seat)`, like every bot, and searches from it:

1. **Sample a world** (`view.sample_world`): the cards it has not seen (others' palaces,
   the deck's order) dealt at random, uniformly (R5.3, D8).
2. **Walk the tree** (single-observer ISMCTS, Cowling, Powley and Whitehouse 2012): one
   tree of public action sequences shared by all worlds; at every seat's turn pick the
   candidate action with the best UCB score *for that seat* (so opponents are modelled as
   playing to win too), counting each action's availability in the worlds where it was
   legal. A bought card comes from the world's own deck (open-loop chance).
3. **Play out** the rest of the hand with a fast rule player (`rollout_action`: the
   `RuleBot` heuristics, reading only what the acting seat may see).
4. **Back up** each seat's net chips from that point (R3.2, R10).

After `simulations` worlds it plays the root action visited most. The budget is a count,
not a clock, so the same seed gives the same choice on a fast machine and a busy one (an
optional `time_limit` trades that away for a bound on time). Because every playout follows
the table's own `Rules` (limit or no-limit, call sizing, `two_left`, stacks, turn limit),
the bot adapts to whatever rules the table uses. `explain(view)` says why in words, from
the same search.

Candidate actions keep the tree small: Buy, Stay, Discard of the soldiers outside the best
five, each attack (in no-limit also twice the minimum), Fold (only when Stay is not
allowed or in a battle: folding on a turn is never better than staying, which keeps every
option open), Call, Raise, and the two trims that keep the best hand (R6.7).

>>> from palace.game import Game
>>> g = Game.new(players=3, seed=4)
>>> bot = SearchBot(simulations=24, seed=1)
>>> bot.choose(g.view(g.to_act)) in g.legal_actions()
True
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass, field

from palace.actions import Action, Bet, Buy, Call, Discard, Fold, Raise, Stay, Trim
from palace.analysis.odds import battle_odds
from palace.cards import Card
from palace.errors import PalaceError
from palace.events import Phase
from palace.game import Game
from palace.hands import PAIR, TRIPS, TWO_PAIR, card_set, evaluate, value_of_bits
from palace.views import SeatView

__all__ = [
    "RootStats",
    "SearchBot",
    "SearchResult",
    "action_words",
    "explain_result",
    "rollout_action",
]

TURN, ANSWER, TRIM = Phase.TURN, Phase.BATTLE_RESPONSE, Phase.TRIM_TO_FIVE


# ------------------------------------------------------------------ the playout policy
def _flag(g: Game, seat: int) -> Card:
    """The seat's banner card (dealt before any decision a search makes)."""
    card = g.banner(seat)
    assert card is not None
    return card


def _army_bits(g: Game, seat: int) -> int:
    banner = g.banner(seat)
    return card_set(g.soldiers(seat)) | card_set(g.palace(seat)) | (banner.bit if banner else 0)


def _public_bits(g: Game, seat: int) -> int:
    banner = g.banner(seat)
    return card_set(g.soldiers(seat)) | (banner.bit if banner else 0)


def rollout_action(g: Game, legal: list[Action]) -> Action:
    """`RuleBot`'s choices, read straight off a game for the seat to act, using only what
    that seat may see (its own palace and the face-up cards): buy towards two pair, attack
    with two pair or better when ahead of what the target shows, call with a pair that
    beats what the attacker shows, raise with trips (R6, R7)."""
    seat = g.to_act
    assert seat is not None
    phase = g.phase
    if phase is TRIM:
        base = card_set(g.palace(seat)) | _flag(g, seat).bit
        soldiers = card_set(g.soldiers(seat))

        def keep_score(a: Trim) -> tuple[int, int]:
            return (value_of_bits(base | (soldiers & ~a.bits)), len(a.cards))

        return max((a for a in legal if isinstance(a, Trim)), key=keep_score)
    mine_bits = _army_bits(g, seat)
    my_suit = int(g.banner_suit(seat))
    if phase is ANSWER:
        b = g.battle
        assert b is not None
        opp = b.attacker if seat == b.defender else b.defender
        mine = value_of_bits(mine_bits, int(g.banner_suit(opp)))
        floor = value_of_bits(_public_bits(g, opp), my_suit)
        kinds = {type(a) for a in legal}
        if mine >= TRIPS and mine > floor and Raise in kinds and b.raises < 2:
            return next(a for a in legal if type(a) is Raise)
        if mine > floor and mine >= PAIR:
            return Call()
        return Fold()
    best: tuple[int, Action] | None = None
    bets = [a for a in legal if isinstance(a, Bet)]
    for a in bets:
        t = a.target
        mine = value_of_bits(mine_bits, int(g.banner_suit(t)))
        margin = mine - value_of_bits(_public_bits(g, t), my_suit)
        if mine >= TWO_PAIR and margin > 0 and (best is None or margin > best[0]):
            best = (margin, a)
    if best is not None:
        return best[1]
    kinds = {type(a) for a in legal}
    if Stay not in kinds and Buy not in kinds:  # R9.3: Bet or Fold
        if bets:
            return max(bets, key=lambda a: value_of_bits(mine_bits, int(g.banner_suit(a.target))))
        return Fold()
    if (
        Buy in kinds
        and value_of_bits(mine_bits) < TWO_PAIR
        and len(g.soldiers(seat)) < g.rules.max_soldiers
    ):
        return Buy()
    return Stay() if Stay in kinds else legal[0]


def candidates(g: Game, legal: list[Action]) -> list[Action]:
    """The actions the search considers (see the module docstring)."""
    phase = g.phase
    if phase is TRIM:
        if len(legal) <= 2:
            return legal
        seat = g.to_act
        assert seat is not None
        base = card_set(g.palace(seat)) | _flag(g, seat).bit
        soldiers = card_set(g.soldiers(seat))
        trims = [a for a in legal if isinstance(a, Trim)]
        scored = sorted(
            trims,
            key=lambda a: (
                value_of_bits(base | (soldiers & ~a.bits)),
                -len(a.cards),
            ),
            reverse=True,
        )
        return list(scored[:2])
    if phase is ANSWER:
        return [a for a in legal if not isinstance(a, Raise) or a.amount is None]
    kinds = {type(a) for a in legal}
    out: list[Action] = []
    seat = g.to_act
    assert seat is not None
    for a in legal:
        t = type(a)
        if t is Fold and Stay in kinds:
            continue
        if t is Discard:
            continue
        out.append(a)
        if isinstance(a, Bet) and g.rules.no_limit:
            double = Bet(target=a.target, amount=2 * g.min_attack(seat))
            if g.why_illegal(double) is None:
                out.append(double)
    if Discard in kinds:
        idle = _idle_soldiers(g, seat)
        if idle:
            d = Discard(cards=idle)
            if g.why_illegal(d) is None:
                out.append(d)
    return out


def _idle_soldiers(g: Game, seat: int) -> tuple[Card, ...]:
    """Soldiers outside the best five: they only raise what attacks and calls cost (R7.3)."""
    cards = [_flag(g, seat), *g.soldiers(seat), *g.palace(seat)]
    best = set(evaluate(cards).best)
    return tuple(c for c in g.soldiers(seat) if c not in best)


# ------------------------------------------------------------------ the search
class _Node:
    __slots__ = ("children", "visits", "total", "avail")

    def __init__(self) -> None:
        self.children: dict[Action, _Node] = {}
        self.visits = 0
        self.total = 0.0
        self.avail = 0


@dataclass(frozen=True)
class RootStats:
    """One root action after a search: how often it was tried, what it returned."""

    action: Action
    words: str
    visits: int
    mean: float  # the searching seat's net chips from here, on average over its visits
    favourable: int  # visits whose result beat the best average of the other actions


@dataclass(frozen=True)
class SearchResult:
    """A finished search: the choice, every root action's statistics, and the effort."""

    best: Action
    stats: tuple[RootStats, ...]
    simulations: int
    seconds: float
    worlds: int
    notes: dict[str, str] = field(default_factory=dict)


class SearchBot:
    """Information-set MCTS over sampled worlds; see the module docstring.

    simulations: worlds searched per decision (the budget); time_limit: if given, CPU
    seconds a decision may take at most (whichever comes first; the choice then depends on
    the machine's speed, so the app and the studies never set it); exploration: the UCB constant, in
    units of `scale` chips (default the big bet times four); seed: every world and
    playout is drawn from it, so a bot with a seed plays the same hand the same way.
    """

    name = "search"

    def __init__(
        self,
        simulations: int = 200,
        *,
        time_limit: float | None = None,
        exploration: float = 0.7,
        seed: int = 0,
    ) -> None:
        if simulations < 1:
            raise PalaceError(f"simulations must be at least 1, got {simulations}")
        if time_limit is not None and time_limit <= 0:
            raise PalaceError(f"time_limit must be positive seconds, got {time_limit}")
        self.simulations = simulations
        self.time_limit = time_limit
        self.exploration = exploration
        self.rng = random.Random(seed)
        self.last: SearchResult | None = None

    def __repr__(self) -> str:
        limit = "" if self.time_limit is None else f", time_limit={self.time_limit}"
        return f"SearchBot(simulations={self.simulations}{limit})"

    # ---------------------------------------------------------------- the bot protocol
    def choose(self, view: SeatView) -> Action:
        legal = list(view.legal)
        if not legal:
            raise PalaceError(f"seat {view.seat} has no decision to make now")
        if len(legal) == 1:
            return legal[0]
        return self.search(view).best

    def search(self, view: SeatView) -> SearchResult:
        """Run the search from this view and return its statistics (also kept in `last`)."""
        start = time.process_time()
        rng = self.rng
        me = view.seat
        scale = max(4 * view.rules.big_bet, 1)
        c = self.exploration * scale
        root = _Node()
        root_returns: dict[Action, list[float]] = {}
        done = 0
        for done in range(1, self.simulations + 1):  # noqa: B007
            world = view.sample_world(rng)
            base = [world.won[s] - world.put_in[s] for s in range(world.players)]
            path: list[tuple[_Node, int]] = []
            node = root
            first: Action | None = None
            while not world.is_over:
                seat = world.to_act
                assert seat is not None
                legal = world.legal_actions()
                cands = candidates(world, legal) if len(legal) > 1 else legal
                for a in cands:
                    child = node.children.get(a)
                    if child is not None:
                        child.avail += 1
                untried = [a for a in cands if a not in node.children]
                if untried:
                    a = rng.choice(untried)
                    child = node.children[a] = _Node()
                    child.avail = 1
                    world.apply(a)
                    path.append((child, seat))
                    if first is None:
                        first = a
                    break
                log_n = math.log(max(1, sum(node.children[a].avail for a in cands)))
                kids = node.children
                a = max(
                    cands,
                    key=lambda x: (
                        kids[x].total / kids[x].visits + c * math.sqrt(log_n / kids[x].visits)
                    ),
                )
                if first is None:
                    first = a
                node = node.children[a]
                world.apply(a)
                path.append((node, seat))
            while not world.is_over:
                world.apply(rollout_action(world, world.legal_actions()))
            net = [world.won[s] - world.put_in[s] - base[s] for s in range(world.players)]
            for n, seat in path:
                n.visits += 1
                n.total += net[seat]
            if first is not None:
                root_returns.setdefault(first, []).append(net[me])
            if self.time_limit is not None and time.process_time() - start >= self.time_limit:
                break
        result = self._result(view, root, root_returns, done, time.process_time() - start)
        self.last = result
        return result

    @staticmethod
    def _result(
        view: SeatView,
        root: _Node,
        returns: dict[Action, list[float]],
        done: int,
        seconds: float,
    ) -> SearchResult:
        ranked = sorted(
            root.children.items(),
            key=lambda kv: (kv[1].visits, kv[1].total / max(kv[1].visits, 1)),
            reverse=True,
        )
        means = {a: n.total / n.visits for a, n in ranked if n.visits}
        stats = []
        for a, n in ranked:
            if not n.visits:
                continue
            others = [m for b, m in means.items() if b != a]
            bar = max(others) if others else 0.0
            fav = sum(1 for x in returns.get(a, ()) if x > bar)
            stats.append(RootStats(a, action_words(view, a), n.visits, means[a], fav))
        if not stats:
            legal = list(view.legal)
            return SearchResult(legal[0], (), done, seconds, done)
        return SearchResult(stats[0].action, tuple(stats), done, seconds, done)

    # ---------------------------------------------------------------- words
    def explain(self, view: SeatView) -> str:
        """Why the bot does what it does here, in one or two sentences (it searches the
        view again unless the last search was of this very decision)."""
        result = self.last
        if result is None or not self._same_decision(result, view):
            result = self.search(view)
        return explain_result(view, result)

    @staticmethod
    def _same_decision(result: SearchResult, view: SeatView) -> bool:
        legal = set(view.legal)
        return all(s.action in legal for s in result.stats) and result.best in legal


def action_words(view: SeatView, a: Action) -> str:
    """An action as a phrase after the seat's name: ``"attacks Cat (4 chips)"``."""
    names = view.names
    if isinstance(a, Bet):
        amount = (
            a.amount if a.amount is not None else (len(view.me.soldiers) + 1) * view.rules.small_bet
        )
        return f"attacks {names[a.target]} ({amount} chips)"
    if isinstance(a, Buy):
        return "buys a soldier"
    if isinstance(a, Stay):
        return "stays"
    if isinstance(a, Fold):
        return "folds"
    if isinstance(a, Call):
        return "calls"
    if isinstance(a, Raise):
        return "raises"
    if isinstance(a, Discard):
        return f"discards {' '.join(str(c) for c in a.cards)}"
    if isinstance(a, Trim):
        return "keeps every soldier" if not a.cards else f"discards {' '.join(map(str, a.cards))}"
    return str(a)


def _times(n: int) -> str:
    return "once" if n == 1 else f"{n} times"


def explain_result(view: SeatView, result: SearchResult) -> str:
    """A search's choice in words: ``"Ann attacks Cat (4 chips): 62% to win a battle against
    Cat (exact odds); in 120 sampled worlds it tried this 90 times for +3.1 chips on average,
    and 74 of those tries beat every other choice's average; next most tried: stays, 20 times
    for +0.4."``

    The choice is the most tried one (the search tries most what does best); a choice tried
    less may show a higher average on fewer worlds, and the sentence says so."""
    name = view.names[view.seat]
    if not result.stats:
        return f"{name} {action_words(view, result.best)}: it is the only choice."
    top = result.stats[0]
    head = f"{name} {top.words}"
    odds = ""
    target = None
    if isinstance(top.action, Bet):
        target = top.action.target
    elif view.battle is not None and isinstance(top.action, Call | Raise | Fold):
        b = view.battle
        target = b.attacker if view.seat == b.defender else b.defender
    if target is not None:
        o = battle_odds(view, target)
        odds = f": {round(100 * o.win)}% to win a battle against {view.names[target]} (exact odds)"
    lead = f"{odds}{';' if odds else ':'} in {result.simulations} sampled worlds"
    if len(result.stats) == 1:
        body = f"{lead} it averages {top.mean:+.1f} chips"
    else:
        nxt = result.stats[1]
        body = (
            f"{lead} it tried this {_times(top.visits)} for {top.mean:+.1f} chips on average, "
            f"and {top.favourable} of those tries beat every other choice's average; next most "
            f"tried: {nxt.words}, {_times(nxt.visits)} for {nxt.mean:+.1f}"
        )
        if nxt.mean > top.mean:  # tried less: its average rests on fewer worlds
            body += " (fewer tries, so a less certain average)"
    return head + body + "."
