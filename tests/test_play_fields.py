"""Play's number fields (issue #11 item 8): what was typed is dealt exactly, or refused.

Every test drives the tab as a user would: type into the public boxes, click Deal or Next
seed, read the message and the hand. A refused value names the field and its range and
leaves the hand on the table as it was.
"""

from __future__ import annotations

import pytest

from palace import Game
from palace.app.palace_app import PalaceApp, PlayTab

BIGGEST_SEED = 2**63 - 1


@pytest.fixture
def play() -> PlayTab:
    return PalaceApp(advisor=None).play


def refused(play: PlayTab, field: str, text: str, *, rng: str) -> str:
    """Type `text` into `field`, press Deal; the hand stays and the alert names the field."""
    before = play.game
    getattr(play, field).value = text
    play.deal_button.click()
    message = play.message.value
    assert play.game is before, f"{field}={text!r} dealt a new hand"
    assert 'role="alert"' in message and "Cannot deal" in message, message
    assert rng in message, message
    assert getattr(play, field).value == text, "the box must keep what was typed"
    return message


@pytest.mark.parametrize(
    ("field", "text", "label", "rng"),
    [
        ("players", "0", "Players", "from 2 to 10 (R1.1)"),  # was dealt as 2
        ("players", "11", "Players", "from 2 to 10 (R1.1)"),  # was dealt as 10
        ("players", "1e9", "Players", "from 2 to 10 (R1.1)"),  # was dealt as 19, then 10
        ("players", "3.0", "Players", "from 2 to 10 (R1.1)"),
        ("players", "", "Players", "from 2 to 10 (R1.1)"),
        ("seed", "3.7", "Seed", "from -9,223,372,036,854,775,807 to 9,223,372,036,854,775,807"),
        ("seed", "123456789012345678901234567890", "Seed", "to 9,223,372,036,854,775,807"),
        ("seed", "seven", "Seed", "to 9,223,372,036,854,775,807"),
        ("seed", "1" * 5000, "Seed", "to 9,223,372,036,854,775,807"),
        ("small_bet", "0", "Small bet", "from 1 to 1,000,000 (R3)"),  # was dealt as 1
        ("small_bet", "-2", "Small bet", "from 1 to 1,000,000 (R3)"),
        ("big_bet", "4.5", "Big bet", "from 1 to 1,000,000 (R3)"),
        ("big_bet", "10000000", "Big bet", "from 1 to 1,000,000 (R3)"),
        ("stacks", "-10", "Chips each", "from 0 to 1,000,000,000 (0 = unlimited, R3.4)"),
        ("stacks", "1_000", "Chips each", "from 0 to 1,000,000,000"),
    ],
)
def test_each_bad_value_is_refused_by_name(
    play: PlayTab, field: str, text: str, label: str, rng: str
) -> None:
    message = refused(play, field, text, rng=rng)
    assert f"{label} must be a whole number" in message
    assert len(message) < 400, "a long value is quoted short"


def test_the_value_typed_is_quoted(play: PlayTab) -> None:
    assert "got “1e9”" in refused(play, "players", "1e9", rng="from 2 to 10")
    play.players.value = "4"
    assert "the box is empty" in refused(play, "seed", "  ", rng="Seed must")


def test_a_refusal_then_a_good_value_deals_exactly_that(play: PlayTab) -> None:
    refused(play, "players", "0", rng="from 2 to 10")
    play.players.value = "5"
    play.seed.value = " 042 "
    play.small_bet.value, play.big_bet.value, play.stacks.value = "3", "7", "150"
    play.deal_button.click()
    g = play.game
    assert (g.players, g.seed) == (5, 42)
    assert (g.rules.small_bet, g.rules.big_bet, g.rules.stacks) == (3, 7, 150)
    dealt = [e.text for e in Game.new(players=5, seed=42, rules=g.rules).events]
    assert [e.text for e in g.events[: len(dealt)]] == dealt  # then the bots played on
    assert 'role="status"' in play.message.value and "Dealt seed 42: 5 players" in (
        play.message.value
    )


def test_big_seeds_are_dealt_exactly(play: PlayTab) -> None:
    for seed in (BIGGEST_SEED, -BIGGEST_SEED, 2**53 + 1):  # past 2**53 a browser number rounds
        play.seed.value = str(seed)
        play.deal_button.click()
        assert play.game.seed == seed
        assert f"Dealt seed {seed}:" in play.message.value


def test_next_seed_past_the_biggest_is_refused(play: PlayTab) -> None:
    play.seed.value = str(BIGGEST_SEED)
    play.deal_button.click()
    before = play.game
    play.next_button.click()
    assert play.game is before and play.seed.value == str(BIGGEST_SEED)
    assert "Seed must be a whole number" in play.message.value
    assert "got “9223372036854775808”" in play.message.value
    play.seed.value = "x"
    play.next_button.click()
    assert play.game is before and "got “x”" in play.message.value


def test_players_box_shows_bot_boxes_only_for_a_good_number(play: PlayTab) -> None:
    play.players.value = "3"
    shown = [b.layout.display != "none" for b in play.bots]
    assert shown == [True] * 3 + [False] * 7
    play.players.value = "12"  # refused at Deal; the boxes stay as they were
    assert [b.layout.display != "none" for b in play.bots] == shown


def test_python_may_still_assign_numbers(play: PlayTab) -> None:
    play.players.value = 3  # stored as the text "3"
    play.seed.value = 11
    play.deal_button.click()
    assert play.players.value == "3" and (play.game.players, play.game.seed) == (3, 11)
