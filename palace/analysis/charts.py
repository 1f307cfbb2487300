"""Matplotlib charts for the rule explorer: each takes a study table and returns a Figure."""

from __future__ import annotations

import matplotlib.pyplot as plt
import pandas as pd
from matplotlib.figure import Figure

SUIT_COLOURS = ("#1b7f3b", "#1f5fbf", "#c62828", "#222222")
ACCENT = "#7a1fa2"
VARIANT_COLOURS = (
    "#7a1fa2",
    "#1f5fbf",
    "#f0a202",
    "#1b7f3b",
    "#c62828",
    "#555555",
    "#56b4e9",
    "#cc79a7",
    "#8c564b",
    "#bcbd22",
    "#000000",
    "#e377c2",
)
"""One colour per variant in `variants_chart`: no two variants share one."""
VARIANT_ROWS = ("pot", "battles per hand", "actions per hand", "battle showdowns per hand")


def _figure(width: float = 7.5, height: float = 3.6) -> tuple[Figure, plt.Axes]:
    fig, ax = plt.subplots(figsize=(width, height), dpi=100)
    ax.spines[["top", "right"]].set_visible(False)
    ax.grid(axis="y", alpha=0.3)
    return fig, ax


def banner_deal_chart(df: pd.DataFrame) -> Figure:
    """Cards dealt and rejected in the banner deal by player count (R4)."""
    fig, ax = _figure()
    x = df.index.to_numpy()
    ax.bar(x, df["mean cards dealt"] - df["mean rejects"], color="#1f5fbf", label="banners")
    ax.bar(
        x,
        df["mean rejects"],
        bottom=df["mean cards dealt"] - df["mean rejects"],
        color="#f0a202",
        label="rejects (R4.3)",
    )
    ax.set_xlabel("players")
    ax.set_ylabel("cards dealt (mean)")
    ax.set_title("Banner deal: a new group (5+, 9+ players) starts with free suits (R4.2)")
    ax.set_xticks(x)
    ax.legend(frameon=False)
    fig.tight_layout()
    plt.close(fig)
    return fig


def banner_rejects_chart(dist: pd.DataFrame) -> Figure:
    """How many cards the banner deal rejects, by player count (R4.3): % of deals."""
    fig, ax = _figure()
    cmap = plt.get_cmap("viridis")
    cols = list(dist.columns)
    for i, n in enumerate(cols):
        ax.plot(
            dist.index, dist[n], color=cmap(i / max(1, len(cols) - 1)), lw=1.6, label=f"{n} players"
        )
    ax.set_xlabel("cards rejected in the banner deal (R4.3)")
    ax.set_ylabel("% of deals")
    ax.set_xlim(0, min(int(dist.index.max()), 30))
    ax.set_title("The banner deal's rejects: the fourth player of a group waits longest")
    ax.legend(frameon=False, fontsize=8, ncols=3)
    fig.tight_layout()
    plt.close(fig)
    return fig


def exclusion_chart(df: pd.DataFrame) -> Figure:
    """How often banner-suit exclusion changes a battle's winner, by army size (R8.2)."""
    fig, ax = _figure()
    x = df.index.to_numpy()
    ax.plot(x, df["winner changed %"], marker="o", color=ACCENT, label="winner changed")
    ax.plot(x, df["win became loss %"], marker="s", color="#c62828", label="attacker's win → loss")
    ax.plot(x, df["loss became win %"], marker="^", color="#1b7f3b", label="attacker's loss → win")
    ax.set_xlabel("cards in each army (banner + soldiers + palace)")
    ax.set_ylabel("% of battles")
    ax.set_title("Banner-suit exclusion decides more battles as armies grow (R8.2)")
    ax.set_xticks(x)
    ax.legend(frameon=False)
    fig.tight_layout()
    plt.close(fig)
    return fig


def categories_chart(df: pd.DataFrame, cards: int) -> Figure:
    """Category frequencies for `cards` cards, with and without one suit excluded."""
    fig, ax = _figure(height=4.0)
    sub = df[cards]
    names = [n for n in sub.index if sub.loc[n].max() > 0]
    y = range(len(names))
    ax.barh(
        [i + 0.2 for i in y],
        sub.loc[names, "all count"],
        height=0.4,
        color="#1f5fbf",
        label="all cards count",
    )
    ax.barh(
        [i - 0.2 for i in y],
        sub.loc[names, "one suit excluded"],
        height=0.4,
        color="#f0a202",
        label="opponent's suit excluded (R8.2)",
    )
    ax.set_yticks(list(y), names)
    ax.set_xscale("log")
    ax.set_xlabel("% of hands (log scale)")
    ax.set_title(f"What {cards} cards make, with and without exclusion")
    ax.legend(frameon=False, loc="upper right")
    ax.grid(axis="x", alpha=0.3)
    fig.tight_layout()
    plt.close(fig)
    return fig


def variants_chart(df: pd.DataFrame, rows: tuple[str, ...] = VARIANT_ROWS) -> Figure:
    """Each variant's averages as a change from the first column (the standard rules), one
    colour per variant (`VARIANT_COLOURS`; more variants than colours is an error)."""
    fig, ax = _figure(width=8.0, height=3.8)
    others = list(df.columns[1:])
    if len(others) > len(VARIANT_COLOURS):
        plt.close(fig)
        raise ValueError(f"variants_chart has {len(VARIANT_COLOURS)} colours, not {len(others)}")
    width = 0.8 / max(1, len(others))
    values = df.loc[list(rows)].to_numpy(dtype=float)  # rows x variants, the standard first
    for i, name in enumerate(others):
        change = [
            100 * (values[j, i + 1] / values[j, 0] - 1) if values[j, 0] else 0.0
            for j in range(len(rows))
        ]
        ax.bar(
            [j + (i - (len(others) - 1) / 2) * width for j in range(len(rows))],
            change,
            width=width,
            color=VARIANT_COLOURS[i],
            label=name,
        )
    ax.axhline(0, color="#333", lw=0.8)
    ax.set_xticks(range(len(rows)), rows)
    ax.set_ylabel(f"% change from {df.columns[0]}")
    ax.set_title("The same seeded hands under each variant")
    ax.legend(frameon=False, fontsize=8, ncols=2)
    fig.tight_layout()
    plt.close(fig)
    return fig


def variants_caption(df: pd.DataFrame, rows: tuple[str, ...] = VARIANT_ROWS) -> str:
    """Words for `variants_chart` naming only what it draws: the rows, the baseline, the
    variants, and which variants leave every row but the pot unchanged."""
    base = df.columns[0]
    others = list(df.columns[1:])
    play = [r for r in rows if r != "pot"]
    values = df.loc[play].to_numpy(dtype=float)  # rows x variants, the standard first
    flat = [c for i, c in enumerate(others) if (values[:, i + 1] == values[:, 0]).all()]
    text = (
        f"Bars: the change, in % of {base}, of {', '.join(rows[:-1])} and {rows[-1]} under "
        f"each of {len(others)} named variants, one colour each."
    )
    if flat:
        text += f" Only the pot moves under: {'; '.join(flat)}."
    return text
