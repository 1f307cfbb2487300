"""The rule studies' stored tables (``data/studies/``), read back as the studies return them.

`palace.analysis.studies` computes each table from a seed (minutes for the full sizes);
``python -m palace.analysis.studies`` stores them in ``data/studies/``. A page that shows a
study reads the stored table (`load_study`, a fraction of a second) and computes it again
only when the reader asks (issue 26): the table read back has the same index, columns and
column types as the function's own result, so the charts and stories take either.

>>> load_study("exclusion_flips").index.name
'army size'
>>> sorted(STUDIES)
['banner_deal', 'banner_rejects', 'categories', 'exclusion_flips', 'variants']
>>> stored_sizes()["seed"], run_words("categories")
(2026, '500,000 random hands for each hand size, seed 2026')
"""

from __future__ import annotations

import re
from pathlib import Path

import pandas as pd

from palace.errors import PalaceError

DATA = Path(__file__).resolve().parents[2] / "data" / "studies"

STUDIES: dict[str, str] = {
    "banner_deal": "cards dealt and rejected in the banner deal, by players (R4.3, R4.4)",
    "banner_rejects": "share of deals by the number of banner rejects, by players (R4.3)",
    "exclusion_flips": "battles whose winner banner-suit exclusion changes, by army (R8.2)",
    "categories": "hand categories with every card counting and one suit excluded (R8.2)",
    "variants": "the named rule variants compared on the same seeded bot hands",
}
"""Each stored study (``data/studies/NAME.csv``) and what it holds."""


def load_study(name: str, folder: Path = DATA) -> pd.DataFrame:
    """The stored table `name` as its study function returns it (PalaceError if unknown)."""
    if name not in STUDIES:
        raise PalaceError(f"no stored study {name!r}: the studies are {', '.join(STUDIES)}")
    path = Path(folder) / f"{name}.csv"
    if name == "categories":
        table = pd.read_csv(path, header=[0, 1], index_col=0)
        table.columns = pd.MultiIndex.from_tuples(
            [(int(column[0]), column[1]) for column in table.columns], names=["cards", ""]
        )
        table.index.name = None
        return table
    table = pd.read_csv(path, index_col=0)
    if name == "banner_rejects":
        table.columns = pd.Index([int(c) for c in table.columns], name="players")
    return table


def stored_command(folder: Path = DATA) -> str:
    """The command that made the stored tables (from their README), or "" if it says none."""
    readme = Path(folder) / "README.md"
    text = readme.read_text("utf-8") if readme.exists() else ""
    found = re.search(r"```\s*\n(python -m palace\.analysis\.studies[^\n]*)\n```", text)
    return found.group(1) if found else ""


SIZES = {"seed": 2026, "hands": 2_000, "samples": 500_000, "deals": 20_000}
"""The seed and sizes ``python -m palace.analysis.studies`` stores the tables with unless
told otherwise (its defaults)."""


def stored_sizes(folder: Path = DATA) -> dict[str, int]:
    """The seed and sizes the stored tables were made with (their README's command)."""
    sizes = dict(SIZES)
    for flag, value in re.findall(r"--(seed|hands|samples|deals) (\d+)", stored_command(folder)):
        sizes[flag] = int(value)
    return sizes


def run_words(name: str, folder: Path = DATA) -> str:
    """What computing study `name` again at the stored sizes does, in words."""
    z = stored_sizes(folder)
    deals = f"{z['deals']:,} banner deals for each player count"
    return {
        "banner_deal": deals,
        "banner_rejects": deals,
        "exclusion_flips": f"{z['samples']:,} pairs of armies dealt for each army size (a pair "
        "whose banners share a suit cannot battle, R7.2: it is left out)",
        "categories": f"{z['samples']:,} random hands for each hand size",
        "variants": f"{z['hands']:,} bot hands under each named variant",
    }[name] + f", seed {z['seed']}"
