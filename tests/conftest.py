"""Shared test helpers: scripted games built from who-gets-what."""

from __future__ import annotations

import pytest

from palace import Game, Rules
from palace.script import deck_for


def scripted(
    players: int,
    banners: dict,
    palaces: dict,
    draws: str = "",
    *,
    dealer: int = 0,
    rules: Rules | None = None,
    rejects: dict | None = None,
    seed: int = 1,
) -> Game:
    """A game whose banners, palaces and first draws are exactly these."""
    deck = deck_for(
        players=players,
        dealer=dealer,
        banners=banners,
        palaces=palaces,
        draws=draws,
        rejects=rejects,
    )
    return Game.new(players=players, seed=seed, rules=rules, deck=deck, dealer=dealer)


@pytest.fixture
def three() -> Game:
    """Three players, dealer Ann (seat 0): play starts with Bob (seat 1)."""
    return scripted(
        3,
        banners={0: "As", 1: "Kh", 2: "Qd"},
        palaces={0: "2c 3c 4c", 1: "5c 6c 7c", 2: "8c 9c Tc"},
        draws="Jc Qc Kc",
    )
