"""Engine speed beside its peers: uniformly random legal play, decisions per second, with Python
driving every engine, all in one run on the same machine.

Run: ``.venv/bin/python bench/bench_engine.py [--seconds S] [--rounds R]``. Every measure
runs R rounds of S seconds of CPU time, interleaved with the others, and keeps each one's
best round (the machine is shared: the best round is the one least disturbed). Peers that
are not installed are skipped with a note (``make bench`` installs them: the `bench` extra).

- Palace, 4 players: a random legal action (`legal_actions()`, a pick from one seeded
  generator for the whole run, as in the peers' loops, `apply()`), decisions per second of
  play (the deal, hand `i` dealt from seed `i`, timed apart, as the peers' decks are dealt
  inside their own loops), and with the deal included;
- `game.view(seat)` built before every decision (a bot's loop, the view timed alone, with
  its legal actions and the seat's memory read: a view fills them when first read), and
  in a searcher's loop `game.view(seat)`, `game.clone()` and `view.sample_world(rng)` (a
  determinization) before every decision, each timed apart;
- what the deal spends in the Mersenne Twister (seeding a hand's generator, three shuffles),
  the part of the deal that gives each seed its hand;
- the same three Palace measures on the pure-Python source (``PALACE_PURE=1``, in a second
  process, its rounds interleaved with the others) beside the compiled engine (`make
  native`, `palace.native`): what compiling the same source buys;
- OpenSpiel `universal_poker` (C++ core) in its default configuration, and as four-player
  limit hold'em; RLCard 1.2 limit hold'em (`env.run` with random agents); PokerKit no-limit
  hold'em, 2 and 6 players.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import time
from collections.abc import Callable

from palace import Game
from palace.native import PURE_ENV, is_compiled

Measure = Callable[[float], dict[str, float]]


def _palace_play(seconds: float) -> dict[str, float]:
    decisions = hands = 0
    play = deal = 0.0
    seed = 0
    clock = time.process_time
    rng = random.Random(1)  # one generator for the run's picks, as the peers' loops below
    while play + deal < seconds:
        t0 = clock()
        g = Game.new(players=4, seed=seed)
        t1 = clock()
        while not g.is_over:
            legal = g.legal_actions()
            g.apply(legal[rng.randrange(len(legal))])
            decisions += 1
        del g  # the played hand is freed in its own time, not the next deal's
        t2 = clock()
        deal += t1 - t0
        play += t2 - t1
        hands += 1
        seed += 1
    return {
        "decisions/s": decisions / play,
        "with deal": decisions / (play + deal),
        "per hand": decisions / hands,
        "deal us": 1e6 * deal / hands,
    }


def _palace_bot_loop(seconds: float) -> dict[str, float]:
    """A bot's loop: `game.view(seat)` before every move, the view timed alone."""
    clock = time.process_time
    views, spent, seed = 0, 0.0, 0
    while spent < seconds:
        g = Game.new(players=4, seed=seed)
        rng = random.Random(seed)
        while not g.is_over:
            t0 = clock()
            view = g.view(g.to_act)
            legal, _ = view.legal, view.learned  # a view fills these when first read
            spent += clock() - t0
            views += 1
            g.apply(legal[rng.randrange(len(legal))])
        seed += 1
    return {"view/s": views / spent}


def _palace_views(seconds: float) -> dict[str, float]:
    """A searcher's loop: a view, a clone and a sampled world before every move."""
    clock = time.process_time
    counts = {"view": 0, "clone": 0, "world": 0}
    spent = {"view": 0.0, "clone": 0.0, "world": 0.0}
    seed = 0
    while sum(spent.values()) < seconds:
        g = Game.new(players=4, seed=seed)
        rng = random.Random(seed)
        while not g.is_over:
            t0 = clock()
            view = g.view(g.to_act)
            legal, _ = view.legal, view.learned  # a view fills these when first read
            t1 = clock()
            g.clone()
            t2 = clock()
            view.sample_world(rng)
            t3 = clock()
            spent["view"] += t1 - t0
            spent["clone"] += t2 - t1
            spent["world"] += t3 - t2
            for k in counts:
                counts[k] += 1
            g.apply(legal[rng.randrange(len(legal))])
        seed += 1
    return {f"{k}/s": counts[k] / spent[k] for k in counts}


def _generator_floor(seconds: float) -> dict[str, float]:
    """What every seeded deal spends in the Mersenne Twister before a card moves: seeding a
    hand's generator from its seed (`palace.game.seeded_random`) and three Fisher-Yates
    shuffles of a 52-card deck (R2.1's draw for the dealer, R2.2's shuffle, R5.1's), the
    same draws that give today's hands for today's seeds."""
    from palace.game import seeded_random
    from palace.shuffle import shuffle

    clock = time.process_time
    seeds = shuffles = 0
    seeding = shuffling = 0.0
    deck = list(range(52))
    while seeding + shuffling < seconds:
        t0 = clock()
        for s in range(seeds, seeds + 1000):
            seeded_random(s)
        t1 = clock()
        rng = seeded_random(seeds)
        for _ in range(1000):
            shuffle(rng, deck)
        t2 = clock()
        seeding += t1 - t0
        shuffling += t2 - t1
        seeds += 1000
        shuffles += 1000
    return {"seed us": 1e6 * seeding / seeds, "shuffle us": 1e6 * shuffling / shuffles}


PALACE_MEASURES: dict[str, Measure] = {
    "play": _palace_play,
    "views": _palace_views,
    "bot loop": _palace_bot_loop,
}


class _Source:
    """The Palace measures on the pure-Python source, in a process of their own."""

    def __init__(self) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, __file__, "--serve"],
            env={**os.environ, PURE_ENV: "1"},
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )

    def measure(self, name: str) -> Measure:
        def run(seconds: float) -> dict[str, float]:
            assert self.proc.stdin is not None and self.proc.stdout is not None
            self.proc.stdin.write(json.dumps([name, seconds]) + "\n")
            self.proc.stdin.flush()
            return json.loads(self.proc.stdout.readline())

        return run

    def close(self) -> None:
        if self.proc.stdin is not None:
            self.proc.stdin.close()
        self.proc.wait(timeout=60)


def _serve() -> None:
    """The source process: one JSON request per line, one JSON row back."""
    assert not is_compiled()
    for line in sys.stdin:
        name, seconds = json.loads(line)
        print(json.dumps(PALACE_MEASURES[name](seconds)), flush=True)


def _openspiel(name: str, params: dict[str, object] | None = None) -> Measure | None:
    try:
        import pyspiel
    except ImportError:
        return None
    game = pyspiel.load_game(name, params or {})

    def measure(seconds: float) -> dict[str, float]:
        rng = random.Random(1)
        decisions = hands = 0
        clock = time.process_time
        t0 = clock()
        while clock() - t0 < seconds:
            s = game.new_initial_state()
            while not s.is_terminal():
                if s.is_chance_node():
                    outcomes = s.chance_outcomes()
                    s.apply_action(outcomes[rng.randrange(len(outcomes))][0])
                else:
                    legal = s.legal_actions()
                    s.apply_action(legal[rng.randrange(len(legal))])
                    decisions += 1
            hands += 1
        spent = clock() - t0
        return {"decisions/s": decisions / spent, "per hand": decisions / hands}

    return measure


def _rlcard() -> Measure | None:
    try:
        import rlcard
        from rlcard.agents import RandomAgent
    except ImportError:
        return None
    env = rlcard.make("limit-holdem", config={"seed": 1})
    env.set_agents([RandomAgent(num_actions=env.num_actions) for _ in range(env.num_players)])

    def measure(seconds: float) -> dict[str, float]:
        decisions = hands = 0
        clock = time.process_time
        t0 = clock()
        while clock() - t0 < seconds:
            trajectories, _ = env.run(is_training=False)
            decisions += sum((len(tr) - 1) // 2 for tr in trajectories)
            hands += 1
        spent = clock() - t0
        return {"decisions/s": decisions / spent, "per hand": decisions / hands}

    return measure


def _pokerkit(players: int) -> Measure | None:
    try:
        from pokerkit import Automation, NoLimitTexasHoldem
    except ImportError:
        return None
    automations = (
        Automation.ANTE_POSTING,
        Automation.BET_COLLECTION,
        Automation.BLIND_OR_STRADDLE_POSTING,
        Automation.CARD_BURNING,
        Automation.HOLE_DEALING,
        Automation.BOARD_DEALING,
        Automation.HOLE_CARDS_SHOWING_OR_MUCKING,
        Automation.HAND_KILLING,
        Automation.CHIPS_PUSHING,
        Automation.CHIPS_PULLING,
    )

    def measure(seconds: float) -> dict[str, float]:
        rng = random.Random(1)
        decisions = hands = 0
        clock = time.process_time
        t0 = clock()
        while clock() - t0 < seconds:
            state = NoLimitTexasHoldem.create_state(
                automations, True, 0, (1, 2), 2, (200,) * players, players
            )
            while state.status:
                moves = []
                if state.can_fold():
                    moves.append(state.fold)
                if state.can_check_or_call():
                    moves.append(state.check_or_call)
                if state.can_complete_bet_or_raise_to():
                    low = state.min_completion_betting_or_raising_to_amount
                    moves.append(lambda s=state, low=low: s.complete_bet_or_raise_to(low))
                if not moves:
                    break
                rng.choice(moves)()
                decisions += 1
            hands += 1
        spent = clock() - t0
        return {"decisions/s": decisions / spent, "per hand": decisions / hands}

    return measure


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=3.0, help="CPU seconds per round")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.serve:
        return _serve()
    compiled = is_compiled()
    source = _Source() if compiled else None
    measures: dict[str, Measure | None] = {
        "Palace, 4 players": _palace_play,
        "Palace views, clones, worlds": _palace_views,
        "Palace views in a bot's loop": _palace_bot_loop,
        "Palace generator floor": _generator_floor,
        "Palace (source), 4 players": source.measure("play") if source else None,
        "Palace (source) views, clones, worlds": source.measure("views") if source else None,
        "Palace (source) views in a bot's loop": source.measure("bot loop") if source else None,
        "OpenSpiel universal_poker (default)": _openspiel("universal_poker"),
        "OpenSpiel universal_poker, 4-player limit hold'em": _openspiel(
            "universal_poker",
            {
                "betting": "limit",
                "numPlayers": 4,
                "numRounds": 4,
                "blind": "10 5 0 0",
                "raiseSize": "10 10 20 20",
                "firstPlayer": "3 1 1 1",
                "maxRaises": "3 4 4 4",
                "numSuits": 4,
                "numRanks": 13,
                "numHoleCards": 2,
                "numBoardCards": "0 3 1 1",
                "stack": "2000 2000 2000 2000",
            },
        ),
        "RLCard 1.2 limit hold'em": _rlcard(),
        "PokerKit NLHE, 2 players": _pokerkit(2),
        "PokerKit NLHE, 6 players": _pokerkit(6),
    }
    best: dict[str, dict[str, float]] = {}
    for _ in range(args.rounds):
        for name, fn in measures.items():
            if fn is None:
                continue
            row = fn(args.seconds)
            old = best.get(name)
            key = next(iter(row))
            lower_is_better = key.endswith(" us")
            if old is None or (row[key] < old[key] if lower_is_better else row[key] > old[key]):
                best[name] = row
    if source is not None:
        source.close()
    engine = "compiled (make native)" if compiled else "pure Python (not compiled: make native)"
    print(f"Palace engine: {engine}")
    print(f"best of {args.rounds} rounds of {args.seconds:g} CPU s each\n")
    print(f"{'engine':<52} {'decisions/s':>12} {'per hand':>9}")
    for name, row in best.items():
        if "decisions/s" in row:
            print(f"{name:<52} {row['decisions/s']:>12,.0f} {row['per hand']:>9.1f}")
    for name, fn in measures.items():
        if fn is None and not name.startswith("Palace"):
            print(f"{name:<52} {'(not installed: make bench installs it)':>22}")
    palace = best["Palace, 4 players"]
    print(
        f"\nPalace with the deal included: {palace['with deal']:,.0f} decisions/s "
        f"(deal {palace['deal us']:.1f} µs a hand)"
    )
    views = best["Palace views, clones, worlds"]
    alone = best["Palace views in a bot's loop"]
    print(f"game.view(seat) before every move, timed alone: {alone['view/s']:,.0f}/s (goal 50,000)")
    print(
        f"with a clone and a sampled world between moves: game.view(seat): "
        f"{views['view/s']:,.0f}/s   "
        f"game.clone(): {views['clone/s']:,.0f}/s (goal 100,000)   "
        f"view.sample_world(rng): {views['world/s']:,.0f}/s (goal 20,000)"
    )
    if compiled:
        src_play = best["Palace (source), 4 players"]
        src_views = best["Palace (source) views, clones, worlds"]
        src_alone = best["Palace (source) views in a bot's loop"]
        pairs = [
            ("decisions/s", palace["decisions/s"], src_play["decisions/s"]),
            ("with the deal", palace["with deal"], src_play["with deal"]),
            ("game.view, a bot's loop", alone["view/s"], src_alone["view/s"]),
            ("game.clone", views["clone/s"], src_views["clone/s"]),
            ("view.sample_world", views["world/s"], src_views["world/s"]),
        ]
        print("\ncompiled engine vs its pure-Python source (PALACE_PURE=1), same run:")
        for what, fast, slow in pairs:
            print(f"  {what:<26} {fast:>10,.0f} vs {slow:>10,.0f}/s   {fast / slow:5.2f}x")
    rate, whole = palace["decisions/s"], palace["with deal"]
    print("\nratios, Palace 4 players over the peer (whole hands, the deal included; without it):")
    goals = {
        "RLCard 1.2 limit hold'em": 4.0,
        "OpenSpiel universal_poker (default)": 1.0,
        "OpenSpiel universal_poker, 4-player limit hold'em": 1.0,
    }
    for name, row in best.items():
        if name.startswith("Palace"):
            continue
        peer = row["decisions/s"]
        aim = goals.get(name)
        goal = (
            ""
            if aim is None
            else f"goal >= {aim:g}x: {'met' if whole / peer >= aim else 'not met'}"
        )
        print(f"  vs {name:<50} {whole / peer:>6.2f}x ({rate / peer:5.2f}x)  {goal}")
    deal = palace["deal us"]
    print(
        f"  the deal: {deal:.1f} µs a hand (goal <= 15 µs: {'met' if deal <= 15 else 'not met'}); "
        f"Palace with the deal {whole:,.0f} decisions/s, without it {rate:,.0f}"
    )
    floor = best["Palace generator floor"]
    fixed = floor["seed us"] + 3 * floor["shuffle us"]
    print(
        f"  of the deal, the Mersenne Twister alone: seeding {floor['seed us']:.1f} µs + three "
        f"52-card shuffles {3 * floor['shuffle us']:.1f} µs = {fixed:.1f} µs (the same draws as "
        f"random.Random(seed): what keeps every seed's hand), {deal - fixed:.1f} µs the rest"
    )


if __name__ == "__main__":
    main()
