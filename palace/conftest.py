"""pytest: the doctests of compiled engine modules run in the pure-Python pass only.

A module compiled by mypyc keeps no doctests pytest can import (`palace.native`); the
``PALACE_PURE=1`` pass of ``make test-unit`` runs them against the source.
"""

from __future__ import annotations

import os

from palace.native import PURE_ENV, compiled_modules

collect_ignore = (
    []
    if os.environ.get(PURE_ENV) == "1"
    else [f"{m.replace('.', '/')}.py" for m in compiled_modules()]
)
