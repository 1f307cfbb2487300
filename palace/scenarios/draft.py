"""Authoring: a scenario dict drafted from a hand played in a notebook, ready to trim and save."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from palace.events import EventKind
from palace.game import Game
from palace.scenarios.record import action_json
from palace.scenarios.schema import FORMAT


def draft_from_game(
    game: Game,
    *,
    id: str,
    title: str,
    summary: str,
    rules: Sequence[str],
    question: str | None = None,
    answer: str | None = None,
) -> dict[str, Any]:
    """A scenario dict that replays `game`, with an `expect` recording how it stands now.

    Play a hand in a notebook, then save ``json.dumps(draft_from_game(g, ...))`` as
    ``data/scenarios/NN-<id>.json`` and trim `expect` to the points the lesson makes.
    """
    saved = game.to_dict()
    expect: dict[str, Any] = {"over": game.is_over, "phase": game.phase.value}
    if game.to_act is not None:
        expect["to_act"] = game.names[game.to_act]
    expect["active"] = [game.names[s] for s in range(game.players) if game.active[s]]
    res = game.result
    if res is not None:
        expect["winners"] = [game.names[s] for s in res.winners]
        expect["reason"] = res.reason
        expect["result_rule"] = res.rule
        expect["shares"] = {game.names[s]: v for s, v in res.shares.items()}
    battles = []
    for e in game.events:
        if e.kind is EventKind.BATTLE:
            battles.append(
                {
                    "attacker": game.names[e.detail["attacker"]],
                    "defender": game.names[e.detail["defender"]],
                    "winner": None if e.seat is None else game.names[e.seat],
                    "rule": e.rule,
                }
            )
    if battles:
        expect["battles"] = battles
    d: dict[str, Any] = {
        "format": FORMAT,
        "id": id,
        "title": title,
        "summary": summary,
        "rules": list(rules),
        "players": saved["players"],
        "dealer": saved["dealer"],
        "seed": saved["seed"],
    }
    if game.rules.changes():
        d["variant"] = game.rules.changes()
    if saved["deck"] is not None:
        d["deck"] = " ".join(saved["deck"])
    d["actions"] = [action_json(a) for a in game.actions]
    d["expect"] = expect
    if question is not None:
        d["question"] = question
        d["answer"] = answer
    return d
