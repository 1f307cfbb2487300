"""The Voilà instructor app: `PalaceApp` and one module per tab."""

from __future__ import annotations

from palace.app.palace_app import PalaceApp

__all__ = ["PalaceApp"]
