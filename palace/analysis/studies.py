"""Rule studies for the explorer: banner-deal statistics, exclusion effects, variant comparisons.

Every study is a plan of seeded shards, each shard named by (seed, shard index) and its
inputs (`palace.analysis.shards`), run in this process, on a Dask `LocalCluster` (the
default) or on any Dask cluster (`palace.analysis.cluster`); the shards' whole-number
results are added up in shard order, so a table is the same wherever it ran. Each study
returns a pandas DataFrame. ``python -m palace.analysis.studies`` regenerates the tables in
``data/studies/`` (the command is written beside them); ``--scheduler tcp://HOST:PORT`` or
``DASK_SCHEDULER_ADDRESS`` runs it on a cluster, ``--scheduler serial`` without Dask.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from palace.analysis import cluster
from palace.analysis.batch import evaluate_batch, showdown_batch
from palace.analysis.bot_hands import BOTS, averages, check_bot, hand_totals
from palace.analysis.shards import Plan, Shard, Watch, add_up, run
from palace.analysis.stored_studies import SIZES, STUDIES, stored_sizes
from palace.analysis.variants import VARIANTS, named
from palace.deal import group_of
from palace.errors import PalaceError
from palace.hands import Category
from palace.native import is_compiled
from palace.numbers import whole_in
from palace.rules import Rules

DATA = Path(__file__).resolve().parents[2] / "data" / "studies"
CACHE = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "palace" / "studies"
CATEGORY_NAMES = ["no counting cards"] + [c.label for c in Category]

DEAL_BLOCK = 5_000  # banner deals per shard
SAMPLE_BLOCK = 100_000  # random battles or hands per shard
# Bot hands x players per shard: about a second of rule-bot play on the engine this process
# runs (compiled: make native; or its pure-Python source, about a fifth as fast). Fewer,
# longer shards cost the scheduler less (at a quarter of a second a shard, the scheduler's
# process took about 5% of a core); a shard running when a study is cancelled still finishes.
HAND_SEATS_PER_SHARD = 16_000 if is_compiled() else 4_000


def _run(plan: Plan, run_options: dict[str, Any]) -> list[Any]:
    return run(plan, **run_options)


def _sum_of(shards: tuple[Shard, ...], results: list[Any], key: str, value: int) -> Any:
    """The shard results whose input `key` is `value`, added up in shard order."""
    return add_up(r for s, r in zip(shards, results, strict=True) if s.kwargs[key] == value)


def _blocks(total: int, size: int) -> list[int]:
    """`total` split into blocks of `size` (the last one shorter)."""
    return [min(size, total - start) for start in range(0, total, size)]


def random_hands(rng: np.random.Generator, n: int, k: int) -> np.ndarray:
    """`n` rows of `k` distinct card indices (0-51), uniformly at random."""
    keys = rng.random((n, 52))
    return np.argpartition(keys, k, axis=1)[:, :k].astype(np.int16) if k < 52 else keys.argsort(1)


# ---------------------------------------------------------------- R4 banner deal
def simulate_banner_deal(deck: list[int], players: int) -> tuple[int, int, int]:
    """Cards dealt, cards rejected and R4.4 reshuffles for one banner deal (R4.1-R4.4).

    `deck` lists card indices top first. The rejects pile is shuffled back in a fixed
    order here (only the counts are studied).
    """
    deck = list(deck)
    rejects: list[int] = []
    dealt = rejected = reshuffles = 0
    taken: dict[str, set[int]] = {}
    for pos in range(players):
        suits = taken.setdefault(group_of(pos), set())
        while True:
            if not deck:
                deck, rejects = rejects, []
                reshuffles += 1
            card = deck.pop(0)
            dealt += 1
            if card // 13 in suits:
                rejected += 1
                rejects.append(card)
                continue
            suits.add(card // 13)
            break
    return dealt, rejected, reshuffles


def banner_deal_shard(players: int, deals: int, seed: int, block: int) -> dict[str, Any]:
    """One shard of banner deals: how many deals rejected 0, 1, 2, ... cards, and how many
    needed an R4.4 reshuffle. The decks come from (seed, players, block)."""
    rng = np.random.default_rng([seed, players, block])
    rejects: list[int] = []
    reshuffled = 0
    for deck in rng.random((deals, 52)).argsort(axis=1).tolist():
        _, rejected, reshuffles = simulate_banner_deal(deck, players)
        rejects.append(rejected)
        reshuffled += reshuffles > 0
    return {"rejects": np.bincount(rejects).tolist(), "reshuffled": reshuffled}


@dataclass(frozen=True)
class BannerCounts:
    """Banner deals for one player count: deals by rejected cards, and R4.4 reshuffles."""

    players: int
    rejects: tuple[int, ...]  # rejects[r]: deals that rejected r cards
    reshuffled: int

    @property
    def deals(self) -> int:
        return sum(self.rejects)

    def dealt(self) -> np.ndarray:
        """Cards dealt in each deal, sorted (a deal deals one banner per player + rejects)."""
        return np.repeat(self.players + np.arange(len(self.rejects)), self.rejects)


def banner_deal_counts(
    players: Iterable[int] = range(2, 11),
    deals: int = 20_000,
    seed: int = 0,
    *,
    progress: bool = True,
    scheduler: str | None = None,
    cache: Path | str | None = None,
    watch: Watch | None = None,
) -> dict[int, BannerCounts]:
    """Per player count, `deals` shuffled banner deals counted by rejects (R4.3, R4.4)."""
    counts = [whole_in("players", n, 2) for n in players]
    seed, deals = whole_in("seed", seed, 0), whole_in("deals", deals, 1)
    shards = tuple(
        Shard(banner_deal_shard, {"players": n, "deals": size, "seed": seed, "block": b})
        for n in counts
        for b, size in enumerate(_blocks(deals, DEAL_BLOCK))
    )
    results = _run(
        Plan("banner-deals", shards),
        {"progress": progress, "scheduler": scheduler, "cache": cache, "watch": watch},
    )
    out = {}
    for n in counts:
        t = _sum_of(shards, results, "players", n)
        out[n] = BannerCounts(n, tuple(t["rejects"]), t["reshuffled"])
    return out


def banner_deal_stats(counts: Mapping[int, BannerCounts]) -> pd.DataFrame:
    """Per player count: cards dealt and rejected in the banner deal, and R4.4's frequency."""
    rows = []
    for n, c in counts.items():
        dealt = c.dealt()
        rejects = np.arange(len(c.rejects))
        resh = c.reshuffled
        rows.append(
            {
                "players": n,
                "deals": c.deals,
                "mean cards dealt": float(dealt.mean()),
                "median": float(np.median(dealt)),
                "90th pct": float(np.percentile(dealt, 90)),
                "99th pct": float(np.percentile(dealt, 99)),
                "mean rejects": float((rejects * np.array(c.rejects)).sum() / c.deals),
                "max rejects": int(np.flatnonzero(c.rejects).max()),
                "no reject %": 100 * c.rejects[0] / c.deals,
                "R4.4 reshuffles": resh,
                # impossible below six players (group A leaves at least 12 cards and player
                # 5 takes the next one); else none in n deals bounds it by 3/n at 95%
                "R4.4 chance % (95% bound)": 0.0
                if n <= 5
                else 100 * (3.0 if resh == 0 else resh) / c.deals,
            }
        )
    return pd.DataFrame(rows).set_index("players")


def banner_deal_distribution(counts: Mapping[int, BannerCounts]) -> pd.DataFrame:
    """% of banner deals by the number of rejected cards (R4.3), one column per player count.

    Cards dealt = players + rejects, so this is also the distribution of cards dealt.
    """
    top = max(len(c.rejects) for c in counts.values())
    cols = {
        n: np.pad(np.array(c.rejects, dtype=float), (0, top - len(c.rejects))) / c.deals * 100
        for n, c in counts.items()
    }
    df = pd.DataFrame(cols, index=pd.RangeIndex(top, name="rejects"))
    df.columns.name = "players"
    return df


# ---------------------------------------------------------------- R8.2 exclusion
def _battles(rng: np.random.Generator, n: int, k: int) -> tuple[np.ndarray, ...]:
    cards = random_hands(rng, n, 2 * k)
    att, dfn = cards[:, :k], cards[:, k:]
    sa, sd = att[:, 0] // 13, dfn[:, 0] // 13  # the first card of each army is its banner
    keep = sa != sd  # R7.2: same-suit banners never battle
    return att[keep], dfn[keep], sa[keep], sd[keep]


def exclusion_shard(size: int, battles: int, seed: int, block: int) -> dict[str, int]:
    """One shard of random battles between armies of `size` cards, shown down with and
    without exclusion (R8.2): counts of each outcome. Cards come from (seed, size, block)."""
    rng = np.random.default_rng([seed, size, block])
    att, dfn, sa, sd = _battles(rng, battles, size)
    real = showdown_batch(att, sa, dfn, sd)
    va, vd = evaluate_batch(att), evaluate_batch(dfn)
    plain = np.sign(va.astype(np.int64) - vd).astype(np.int8)
    tied = plain == 0
    plain[tied] = np.sign(real.banner_att[tied] - real.banner_def[tied])
    return {
        "battles": int(len(att)),
        "changed": int((real.outcome != plain).sum()),
        "win became loss": int(((plain == 1) & (real.outcome == -1)).sum()),
        "loss became win": int(((plain == -1) & (real.outcome == 1)).sum()),
        "attacker wins": int((real.outcome == 1).sum()),
        "still tied": int((real.outcome == 0).sum()),
        "cards lost": int((att // 13 == sd[:, None]).sum() + (dfn // 13 == sa[:, None]).sum()),
    }


def exclusion_flip_rate(
    sizes: Iterable[int] = range(4, 10),
    battles: int = 200_000,
    seed: int = 0,
    *,
    progress: bool = True,
    scheduler: str | None = None,
    cache: Path | str | None = None,
    watch: Watch | None = None,
) -> pd.DataFrame:
    """How often banner-suit exclusion changes a battle's winner, by army size (R8.2).

    Both armies have `size` cards (banner, soldiers, palace); each battle is shown
    down with exclusion (R8.2) and without it, the R8.5 tie-break applied to both.
    Battles whose banners share a suit never happen (R7.2) and are left out.
    """
    sizes = [whole_in("army size", k, 1) for k in sizes]
    seed, battles = whole_in("seed", seed, 0), whole_in("battles", battles, 1)
    shards = tuple(
        Shard(exclusion_shard, {"size": k, "battles": n, "seed": seed, "block": b})
        for k in sizes
        for b, n in enumerate(_blocks(battles, SAMPLE_BLOCK))
    )
    results = _run(
        Plan("exclusion", shards),
        {"progress": progress, "scheduler": scheduler, "cache": cache, "watch": watch},
    )
    rows = []
    for k in sizes:
        t = _sum_of(shards, results, "size", k)
        n = t["battles"]
        rows.append(
            {
                "army size": k,
                "battles": n,
                "winner changed %": 100 * t["changed"] / n,
                "win became loss %": 100 * t["win became loss"] / n,
                "loss became win %": 100 * t["loss became win"] / n,
                "attacker wins % (R8.2)": 100 * t["attacker wins"] / n,
                "still tied % (R8.6)": 100 * t["still tied"] / n,
                "cards lost per side": t["cards lost"] / (2 * n),
            }
        )
    return pd.DataFrame(rows).set_index("army size")


# ---------------------------------------------------------------- hand categories
def category_shard(size: int, hands: int, seed: int, block: int) -> dict[str, Any]:
    """One shard of random `size`-card hands counted by category, as dealt and with a random
    other suit excluded; index 0 counts hands with no counting cards."""
    rng = np.random.default_rng([seed, size, block])
    cards = random_hands(rng, hands, size)
    own = cards[:, 0] // 13
    other = (own + rng.integers(1, 4, size=len(cards))) % 4
    out: dict[str, Any] = {"hands": hands}
    for label, ex in (("all count", None), ("one suit excluded", other)):
        v = evaluate_batch(cards, ex)
        cat = np.where(v == 0, 0, (v >> 20))  # 0 = no counting cards, 1..9 categories
        out[label] = np.bincount(cat, minlength=10).tolist()
    return out


def category_frequencies(
    sizes: Iterable[int] = range(4, 10),
    hands: int = 200_000,
    seed: int = 0,
    *,
    progress: bool = True,
    scheduler: str | None = None,
    cache: Path | str | None = None,
    watch: Watch | None = None,
) -> pd.DataFrame:
    """Hand-category frequencies (%) for 4-9 cards, without and with one suit excluded.

    The first card of each hand is the player's banner; the excluded suit is a random
    other suit (an opponent's banner, R8.2).
    """
    sizes = [whole_in("hand size", k, 1) for k in sizes]
    seed, hands = whole_in("seed", seed, 0), whole_in("hands", hands, 1)
    shards = tuple(
        Shard(category_shard, {"size": k, "hands": n, "seed": seed, "block": b})
        for k in sizes
        for b, n in enumerate(_blocks(hands, SAMPLE_BLOCK))
    )
    results = _run(
        Plan("categories", shards),
        {"progress": progress, "scheduler": scheduler, "cache": cache, "watch": watch},
    )
    cols = {}
    for k in sizes:
        t = _sum_of(shards, results, "size", k)
        for label in ("all count", "one suit excluded"):
            cols[(k, label)] = np.array(t[label]) / t["hands"] * 100
    df = pd.DataFrame(cols, index=CATEGORY_NAMES)
    df.columns = pd.MultiIndex.from_tuples(list(cols), names=["cards", ""])
    return df.round(3)


# ---------------------------------------------------------------- variants
def hands_per_shard(players: int, hands: int) -> int:
    """Bot hands in one shard of a variant study: at most `HAND_SEATS_PER_SHARD` hand-seats
    (a second or so of play), and at least 16 shards per variant when there are hands
    enough, so every worker gets a share. Hands are seeded one by one, so the shard size
    never changes a table."""
    return max(1, min(HAND_SEATS_PER_SHARD // players, -(-hands // 16)))


def compare_variants(
    variants: Mapping[str, Rules] | None = None,
    hands: int = 1_000,
    players: int = 4,
    seed: int = 0,
    bot: str = "mixed",
    *,
    progress: bool = True,
    scheduler: str | None = None,
    cache: Path | str | None = None,
    watch: Watch | None = None,
) -> pd.DataFrame:
    """The same seeded bot hands under each variant (``{label: Rules}``; None: every named
    variant of `palace.analysis.variants`): averages per hand, one column per variant.

    Hand i is dealt with seed ``seed + i`` by dealer ``i % players`` and played by the same
    bots (`palace.analysis.bot_hands`) under every variant, so differences are the rules'.
    """
    variants = named() if variants is None else dict(variants)
    if not variants:
        raise PalaceError("variants must name at least one variant")
    for label, rules in variants.items():
        if not isinstance(rules, Rules):
            raise PalaceError(f"variant {label!r} must map to a Rules, got {type(rules).__name__}")
    hands, players = whole_in("hands", hands, 1), whole_in("players", players, 2)
    seed, bot = whole_in("seed", seed, 0), check_bot(bot)
    per = hands_per_shard(players, hands)
    shards = tuple(
        Shard(
            hand_totals,
            {
                "rules": rules,
                "players": players,
                "seed": seed,
                "bot": bot,
                "start": start,
                "stop": min(hands, start + per),
            },
        )
        for rules in variants.values()
        for start in range(0, hands, per)
    )
    results = _run(
        Plan("variants", shards),
        {"progress": progress, "scheduler": scheduler, "cache": cache, "watch": watch},
    )
    blocks = len(range(0, hands, per))
    cols = {
        label: averages(add_up(results[v * blocks : (v + 1) * blocks]))
        for v, label in enumerate(variants)
    }
    return pd.DataFrame(cols).round(2)


# ---------------------------------------------------------------- the command line
def rerun_stored(name: str, folder: Path = DATA) -> Callable[[], pd.DataFrame]:
    """A function that computes study `name` now, at the stored seed and sizes: the table it
    returns is the stored one, figure for figure (the studies are seeded)."""
    if name not in STUDIES:
        raise PalaceError(f"no stored study {name!r}: the studies are {', '.join(STUDIES)}")
    z = stored_sizes(folder)
    seed = z["seed"]

    def banner_counts() -> dict:
        return banner_deal_counts(deals=z["deals"], seed=seed, progress=False)

    def flips() -> pd.DataFrame:
        return exclusion_flip_rate(battles=z["samples"], seed=seed, progress=False)

    def categories() -> pd.DataFrame:
        return category_frequencies(hands=z["samples"], seed=seed, progress=False)

    def variants() -> pd.DataFrame:
        return compare_variants(hands=z["hands"], seed=seed, progress=False)

    runs: dict[str, Callable[[], pd.DataFrame]] = {
        "banner_deal": lambda: banner_deal_stats(banner_counts()),
        "banner_rejects": lambda: banner_deal_distribution(banner_counts()),
        "exclusion_flips": flips,
        "categories": categories,
        "variants": variants,
    }
    return runs[name]


def main(argv: list[str] | None = None) -> int:
    """Regenerate the study tables in data/studies/ (shards cached, so a rerun resumes)."""
    ap = argparse.ArgumentParser(
        prog="python -m palace.analysis.studies",
        description="Regenerate Palace's rule-study tables, as seeded shards on Dask.",
    )
    ap.add_argument("--seed", type=int, default=SIZES["seed"])
    ap.add_argument("--hands", type=int, default=SIZES["hands"], help="bot hands per variant")
    ap.add_argument(
        "--samples", type=int, default=SIZES["samples"], help="random hands/battles per size"
    )
    ap.add_argument(
        "--deals", type=int, default=SIZES["deals"], help="banner deals per player count"
    )
    ap.add_argument(
        "--variants",
        nargs="+",
        default=list(VARIANTS),
        metavar="SLUG",
        help=f"variants to compare (default: all of {', '.join(VARIANTS)})",
    )
    ap.add_argument("--bot", choices=BOTS, default="mixed", help="who plays the variant hands")
    cluster.add_arguments(ap, cache=CACHE, out=DATA)
    args = ap.parse_args(argv)
    cluster.use_arguments(args)
    try:
        variants = named(args.variants)
        for flag in ("hands", "samples", "deals"):
            whole_in(f"--{flag}", getattr(args, flag), 1)
        whole_in("--seed", args.seed, 0)
    except PalaceError as exc:
        ap.error(str(exc))
    run_options: dict[str, Any] = {
        "progress": not args.quiet,
        "scheduler": args.scheduler,
        "cache": None if args.no_cache else args.cache,
    }
    cmd = (
        f"python -m palace.analysis.studies --seed {args.seed} --hands {args.hands} "
        f"--samples {args.samples} --deals {args.deals}"
    )
    if args.variants != list(VARIANTS):
        cmd += " --variants " + " ".join(args.variants)
    if args.bot != "mixed":
        cmd += f" --bot {args.bot}"
    args.out.mkdir(parents=True, exist_ok=True)
    start = time.perf_counter()
    try:
        counts = banner_deal_counts(deals=args.deals, seed=args.seed, **run_options)
        tables = {
            "banner_deal.csv": banner_deal_stats(counts),
            "banner_rejects.csv": banner_deal_distribution(counts),
            "exclusion_flips.csv": exclusion_flip_rate(
                battles=args.samples, seed=args.seed, **run_options
            ),
            "categories.csv": category_frequencies(
                hands=args.samples, seed=args.seed, **run_options
            ),
            "variants.csv": compare_variants(
                variants, hands=args.hands, seed=args.seed, bot=args.bot, **run_options
            ),
        }
    except KeyboardInterrupt:
        where = "" if args.no_cache else f"; finished shards are kept in {args.cache}"
        print(f"interrupted{where}: run the same command again to resume", file=sys.stderr)
        return 130
    except PalaceError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    for name, df in tables.items():
        df.to_csv(args.out / name)
        print(f"wrote {args.out / name}")
    (args.out / "README.md").write_text(
        "# Study tables\n\nGenerated by the rule explorer (`palace/analysis/studies.py`) with:\n\n"
        f"```\n{cmd}\n```\n\nSame command, same numbers: every table comes from the seed, "
        "whether it runs serially (`--scheduler serial`), on a local Dask cluster (the "
        "default) or on a remote one (`--scheduler tcp://HOST:PORT`).\n"
        + "".join(f"\n- `{n}`: {tables[n].shape[0]} rows" for n in tables)
        + "\n"
    )
    print(f"done in {time.perf_counter() - start:.0f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
