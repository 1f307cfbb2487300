"""`StoredStudy`: a rule study's table, read from ``data/studies/`` until the reader runs it.

A lesson that shows a study opens at once with the stored table (`load_study`); the
"Run it again" button computes the same study live (seeded: the same sizes and seed give
the same table) and shows that instead (issue 26).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import pandas as pd
from ipywidgets import HTML, Button, Layout, VBox

from palace.analysis.stored_studies import STUDIES, load_study, run_words, stored_command
from palace.analysis.studies import rerun_stored
from palace.errors import PalaceError
from palace.widgets.theme import esc, root, style_widget

Listener = Callable[[pd.DataFrame], None]


def _two_places(x: float) -> str:
    """A table's figures as the page shows them: two decimals (no 4.01e+01)."""
    return f"{x:.2f}"


class StoredStudy(VBox):
    """The stored table of study `name`, and a button that runs `run()` instead.

    run: computes the study live (for instance ``lambda: exclusion_flip_rate(battles=200_000,
    seed=2026, progress=False)``); `runs` says in words what it computes ("200,000 battles,
    seed 2026"). `on_run(fn)` calls ``fn(table)`` after each new run (redraw a chart).
    `rows` and `columns` choose what the page shows of a big table (its first `rows` rows,
    those top-level columns); `table` is always the whole table.
    """

    def __init__(
        self,
        name: str,
        run: Callable[[], pd.DataFrame],
        *,
        runs: str,
        rows: int | None = None,
        columns: Sequence[object] | None = None,
    ) -> None:
        if name not in STUDIES:
            raise PalaceError(f"no stored study {name!r}: the studies are {', '.join(STUDIES)}")
        if rows is not None and rows < 1:
            raise PalaceError(f"rows={rows}: a study panel shows at least one row")
        self.name = name
        self._rows = rows
        self._columns = list(columns) if columns is not None else None
        self._run = run
        self._runs = runs
        self._listeners: list[Listener] = []
        self.table: pd.DataFrame = load_study(name)
        self._check_columns()
        self.source = "stored"
        self._note = HTML()
        self._table_html = HTML(layout=Layout(overflow="auto"))
        self.run_button = Button(
            description="Run it again",
            icon="refresh",
            tooltip=f"compute this study now: {runs}",
            layout=Layout(width="auto", align_self="flex-start"),
        )
        self.run_button.on_click(self._on_run)
        super().__init__([style_widget(), self._note, self.run_button, self._table_html])
        self.add_class("palace-panel")
        self.add_class("palace-study")
        self._draw()

    @classmethod
    def of(
        cls, name: str, *, rows: int | None = None, columns: Sequence[object] | None = None
    ) -> StoredStudy:
        """The stored study `name`, whose button computes it again at the stored seed and
        sizes (the same table, figure for figure: the reader can check it)."""
        return cls(name, rerun_stored(name), runs=run_words(name), rows=rows, columns=columns)

    def _check_columns(self) -> None:
        if self._columns is None:
            return
        top = list(dict.fromkeys(self.table.columns.get_level_values(0)))
        missing = [c for c in self._columns if c not in top]
        if missing:
            raise PalaceError(
                f"study {self.name!r} has no column {missing[0]!r}: its columns are "
                f"{', '.join(map(str, top))}"
            )

    @property
    def shown(self) -> pd.DataFrame:
        """The part of `table` the page shows (`rows`, `columns`)."""
        part = self.table if self._columns is None else self.table[self._columns]
        return part if self._rows is None else part.head(self._rows)

    def on_run(self, fn: Listener) -> None:
        """Call ``fn(table)`` after each new run."""
        self._listeners.append(fn)

    def rerun(self) -> pd.DataFrame:
        """Compute the study now and show it (the stored table stays on disk)."""
        self.run_button.disabled = True
        self._note.value = root(
            f'<div class="palace-note" role="status">Running: {esc(self._runs)}…</div>'
        )
        try:
            self.table = self._run()
        finally:
            self.run_button.disabled = False
        self.source = "run"
        self._draw()
        for fn in self._listeners:
            fn(self.table)
        return self.table

    def _on_run(self, _: Button) -> None:
        self.rerun()

    def _draw(self) -> None:
        self._note.value = root(f'<div class="palace-note">{esc(self.text_note())}</div>')
        html = self.shown.to_html(float_format=_two_places, classes="palace-df-table", border=0)
        self._table_html.value = root(html)

    def text_note(self) -> str:
        """Where the table shown comes from, in words (and how much of it is shown)."""
        if self.source == "run":
            said = f"Computed just now: {self._runs}."
        else:
            made = stored_command()
            by = f", made by {made}" if made else ""
            said = (
                f"Stored table (data/studies/{self.name}.csv{by}). Run it again to compute "
                f"{self._runs} here."
            )
        total, shown = len(self.table), len(self.shown)
        return said + (f" Shown: the first {shown} of {total} rows." if shown < total else "")

    def text(self) -> str:
        """The note and the table shown, in plain text."""
        return f"{self.text_note()}\n{self.shown.to_string(float_format=_two_places)}"
