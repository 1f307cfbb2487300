"""Scripted positions the lessons start from (Ann, Bob and Cat), bot hands and scenarios by name."""

from __future__ import annotations

from collections.abc import Mapping

from palace.actions import Bet, Buy, Fold, Stay, Trim
from palace.analysis.bots import RuleBot, play_out
from palace.errors import PalaceError
from palace.events import EventKind
from palace.game import Game
from palace.rules import Rules
from palace.scenarios import SCENARIO_DIR, Scenario, load_scenario
from palace.script import deck_for

ANN_BOB_CAT = ("Ann", "Bob", "Cat")


def _three_player_game(
    palaces: Mapping[int, str], draws: str, seed: int, rules: Rules | None = None
) -> Game:
    deck = deck_for(
        players=3,
        dealer=2,
        banners={0: "Kh", 1: "9s", 2: "4d"},
        palaces=palaces,
        draws=draws,
    )
    return Game.new(players=list(ANN_BOB_CAT), seed=seed, rules=rules, deck=deck, dealer=2)


def first_turn() -> Game:
    """Ann's first turn: Cat deals, Ann (left of the dealer) acts first with no soldiers.

    Banners Ann K♥, Bob 9♠, Cat 4♦; Ann's palace Q♥ 7♣ 2♠; the top of the draw deck is K♦.
    """
    return _three_player_game({0: "Qh 7c 2s", 1: "As Ad 5c", 2: "Jc Tc 3h"}, "Kd 8h 6c 3s 2d 9c", 4)


def five_soldiers() -> Game:
    """Ann has bought five soldiers (Bob and Cat stayed each time); her turn again.

    Her soldiers K♦ 8♥ 6♣ 3♠ 2♦; the next card of the draw deck is 9♣ (R6.7).
    """
    game = first_turn()
    for _ in range(5):
        for action in (Buy(), Trim(cards=()), Stay(), Stay()):
            game.apply(action)
    return game


def attack_position(rules: Rules | None = None) -> Game:
    """Ann (2 soldiers: K♦ 5♠) to act; Bob has 1 soldier (9♦), Cat none.

    Banners Ann K♥, Bob 9♠, Cat 4♦. Palaces Ann Q♥ 7♣ 2♠, Bob A♠ A♦ 5♣, Cat J♣ 10♣ 3♥.
    """
    palaces = {0: "Qh 7c 2s", 1: "As Ad 5c", 2: "Jc Tc 3h"}
    game = _three_player_game(palaces, "Kd 9d 5s", 4, rules)
    t = Trim(cards=())
    for action in (Buy(), t, Buy(), t, Stay(), Buy(), t, Stay(), Stay()):
        game.apply(action)
    return game


def under_attack(rules: Rules | None = None) -> Game:
    """`attack_position` after Ann attacks Bob: Bob must Fold, Call or Raise (R7.4)."""
    game = attack_position(rules)
    game.apply(Bet(target=1))
    return game


def scenario(name: str) -> Scenario:
    """A teaching scenario by id or file stem: ``scenario("tie-banner-count")``."""
    for path in sorted(SCENARIO_DIR.glob("*.json")):
        if path.stem == name or path.stem.split("-", 1)[-1] == name:
            return load_scenario(path)
    raise PalaceError(f"no scenario called {name!r} in {SCENARIO_DIR.name}/")


def bot_hand(players: int = 4, seed: int = 1, rules: Rules | None = None) -> Game:
    """A hand played to the end by `RuleBot`s (to watch before playing)."""
    game = Game.new(players=players, seed=seed, rules=rules)
    return play_out(game, {s: RuleBot() for s in range(players)})


def two_left_story(rules: Rules | None = None) -> str:
    """Two players left (R9.3), move by move: after each action, what the player to act may
    do, from the engine. Ann buys, Bob stays, Cat folds; then Ann buys again, Bob and Ann
    stay. Where the rules refuse the next scripted action, the story ends with the reason."""
    from palace.lessons.drills import kinds_label  # a sibling module (words for action sets)

    game = _three_player_game(
        {0: "Qh 7c 2s", 1: "As Ad 5c", 2: "Jc Tc 3h"}, "Kd 8h 6c 3s 2d 9c", 4, rules
    )
    keep = Trim(cards=())
    lines = []
    for step in ((Buy(), keep), (Stay(),), (Fold(),), (Buy(), keep), (Stay(),), (Stay(),)):
        who = game.names[game.to_act] if game.to_act is not None else "nobody"
        why = game.why_illegal(step[0])
        if why is not None:
            lines.append(f"{who} may not {step[0].kind.capitalize()}: {why}")
            break
        events = [e for action in step for e in game.apply(action)]
        said = " ".join(
            e.text
            for e in events
            if e.kind in (EventKind.STAY, EventKind.FOLD, EventKind.BUY, EventKind.TWO_LEFT)
        )
        nxt = game.names[game.to_act] if game.to_act is not None else "nobody"
        kinds = {a.kind for a in game.legal_actions()}
        lines.append(f"{said}  →  {nxt} may {kinds_label(kinds).removeprefix('only ')}.")
    return "\n".join(lines)
