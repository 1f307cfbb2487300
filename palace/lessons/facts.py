"""What the engine says about a hand, for lesson text: events by kind, battle events, stakes."""

from __future__ import annotations

from collections.abc import Iterable

import pandas as pd

from palace.actions import Bet, Raise
from palace.errors import PalaceError
from palace.events import Event, Phase
from palace.game import Game
from palace.views import sentence_for


def event_index(game: Game, kind: str, nth: int = 0) -> int:
    """The index of the `nth` event of `kind` (negative `nth` counts from the end).

    >>> g = Game.new(players=5, seed=8)
    >>> g.events[event_index(g, "reject")].kind.value
    'reject'
    """
    found = [e.index for e in game.events if e.kind == kind]
    if not found or not -len(found) <= nth < len(found):
        raise PalaceError(f"the hand has no {kind!r} event number {nth}")
    return found[nth]


def events_text(game: Game, *kinds: str) -> str:
    """The hand's events of these kinds (all when none given), one ``Step n: sentence (rule)``
    a line, numbered as the stepper counts them (from 1): what a spectator reads (private
    sentences show their public form, R5.3)."""
    lines = []
    for e in game.events:
        if kinds and e.kind not in kinds:
            continue
        lines.append(f"Step {e.index + 1}: {sentence_for(e, None).rstrip('.')} ({e.rule}).")
    return "\n".join(lines)


def said(events: Iterable[Event]) -> str:
    """Events as the game says them, one sentence a line with its rule: ``Bob calls with 4
    chips (R7.6).`` (what a lesson prints after applying an action)."""
    return "\n".join(f"{e.text.rstrip('.')} ({e.rule})." for e in events)


def stake_table(game: Game) -> pd.DataFrame:
    """For the player to act: each opponent they may attack, what the attack costs (R7.3),
    what that opponent pays to call (R7.6) and the raise size (R7.7; none where R3.4 forbids
    one) — from the engine."""
    me = game.to_act
    if me is None or game.phase is not Phase.TURN:
        raise PalaceError("stake_table needs a player on their turn")
    rows = []
    for target in range(game.players):
        if target == me or not game.active[target]:
            continue
        why = game.why_illegal(Bet(target=target))
        attacker = game.names[me]
        row: dict[str, object] = {
            "defender": game.names[target],
            "soldiers": f"{attacker} {len(game.soldiers(me))}, "
            f"{game.names[target]} {len(game.soldiers(target))}",
        }
        if why is not None:
            row.update(
                {
                    "attack (R7.3)": "—",
                    "call (R7.6)": "—",
                    "call + raise (R7.7)": "—",
                    "not allowed": why,
                }
            )
        else:
            probe = game.replay()
            probe.apply(Bet(target=target))
            raising = probe.why_illegal(Raise())
            at_least = "at least " if game.rules.no_limit else ""
            row.update(
                {
                    "attack (R7.3)": probe.events[-1].amount,
                    "call (R7.6)": probe.owed(),
                    "call + raise (R7.7)": f"{probe.owed()} + {at_least}{probe.raise_size()}"
                    if raising is None
                    else "no raise (R3.4)"
                    if "R3.4" in raising
                    else "no raise",
                    "not allowed": "",
                }
            )
        rows.append(row)
    df = pd.DataFrame(rows).set_index("defender")
    if not df["not allowed"].any():
        df = df.drop(columns="not allowed")
    return df


def battle_event(game: Game, nth: int = -1) -> Event:
    """The `nth` battle showdown of a hand (the last by default)."""
    return game.events[event_index(game, "battle", nth)]
