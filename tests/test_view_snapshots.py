"""A view is what its seat knew at the moment it was made, however late it is read.

A game lists a view's legal actions and reads the seat's memory only when they are first
read (most players never read what the seat remembers; the rule bot does not list the trims
it weighs). These tests read views late, in every order, and compare them with views read
at once: they must be the same, and a view kept across moves must not change.
"""

from __future__ import annotations

import copy
import pickle

import pytest

from palace import Game, RandomBot
from palace.analysis.variants import named
from palace.views import SeatView

VARIANTS = dict(list(named().items())[:4])


def now(view: SeatView) -> tuple:
    """What a view says, read at once."""
    return view.legal, dict(view.learned), view.unseen


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("seed", range(6))
def test_views_read_late_say_what_views_read_at_once_said(variant: str, seed: int) -> None:
    game = Game.new(players=2 + seed % 4, seed=seed, rules=VARIANTS[variant])
    bot = RandomBot(seed)
    late: list[tuple[SeatView, tuple]] = []
    while not game.is_over:
        seat = game.to_act
        assert seat is not None
        for s in range(game.players):  # every seat's view, read later (not yet)
            late.append((game.view(s), now(game.view(s))))
        game.apply(bot.choose(game.view(seat)))
    assert late
    # read the oldest last: the seats' memories are long past them by then
    for view, then in reversed(late):
        assert now(view) == then


def test_a_view_kept_while_the_game_moves_keeps_its_legal_actions() -> None:
    game = Game.new(players=3, seed=4)
    seat = game.to_act
    assert seat is not None
    kept = game.view(seat)  # not read yet
    listed = tuple(game.legal_actions())
    game.apply(listed[0])
    assert tuple(game.legal_actions()) != listed  # the game moved on
    assert kept.legal == listed and kept.to_act == seat


def test_a_view_pickles_and_copies_with_everything_filled_in() -> None:
    game = Game.new(players=4, seed=9)
    seat = game.to_act
    assert seat is not None
    view = game.view(seat)
    for other in (pickle.loads(pickle.dumps(view)), copy.copy(view), copy.deepcopy(view)):
        assert other == view
        assert other.legal == view.legal and other.learned == view.learned
    # a copy of a view not read yet says what the view said then, after the game moves on
    unread = game.view(seat)
    copies = (pickle.loads(pickle.dumps(unread)), copy.copy(unread), copy.deepcopy(unread))
    game.apply(view.legal[0])
    for other in copies:
        assert other.legal == view.legal and other.learned == view.learned


def test_a_view_still_says_which_attributes_it_does_not_have() -> None:
    view = Game.new(players=2, seed=1).view(0)
    with pytest.raises(AttributeError, match="no attribute 'nonsense'"):
        view.nonsense  # noqa: B018
    assert not hasattr(view, "nonsense")


@pytest.mark.parametrize("variant", VARIANTS)
def test_every_view_shows_the_table_as_it_stands(variant: str) -> None:
    """A view reads each seat's cards from lists it keeps for the table's life, and reuses
    a seat's facts while they hold: at every step of random games, every seat's view
    shows what the game's zones hold, and its own palace."""
    for seed in range(4):
        game = Game.new(players=2 + seed, seed=seed, rules=VARIANTS[variant])
        bot = RandomBot(seed)
        while not game.is_over:
            zones = game.zones()
            for s in range(game.players):
                view = game.view(s)
                for info in view.seats:
                    seat = info.seat
                    assert info.banner == game.banner(seat)
                    assert info.soldiers == zones[f"seat{seat}.soldiers"]
                    assert info.palace_count == len(zones[f"seat{seat}.palace"])
                    assert info.active == game.active[seat]
                assert view.palace == zones[f"seat{s}.palace"]
                assert view.deck_count == len(zones["deck"])
            seat = game.to_act
            assert seat is not None
            game.apply(bot.choose(game.view(seat)))
