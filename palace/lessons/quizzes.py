"""Check-yourself quizzes answered by the engine: banner deal, buying, the call, battles, pots."""

from __future__ import annotations

from palace.actions import Buy, Call, Trim
from palace.deal import group_of
from palace.errors import PalaceError
from palace.events import EventKind, Phase
from palace.game import Game
from palace.lessons.facts import battle_event
from palace.scenarios import Scenario
from palace.widgets.battle_view import armies_of
from palace.widgets.cards import face, faces
from palace.widgets.quiz import CheckYourself
from palace.words import plural


def banner_card_quiz(game: Game, index: int) -> CheckYourself:
    """Kept or rejected? The banner-deal card dealt at event `index` (R4.2, R4.3).

    The question lists the banners already dealt, with their groups; the explanation is
    the engine's sentence for that card.
    """
    ev = game.events[index]
    if ev.kind not in (EventKind.BANNER, EventKind.REJECT):
        raise PalaceError(f"event #{index} is a {ev.kind!r} event, not a banner-deal card")
    n = game.players
    seat = ev.seat
    assert seat is not None
    position = (seat - game.dealer - 1) % n
    group = group_of(position)
    so_far = [
        (e.seat, e)
        for e in game.events[:index]
        if e.kind is EventKind.BANNER and e.seat is not None
    ]
    groups: dict[str, list[str]] = {}
    for s, e in so_far:
        g = group_of((s - game.dealer - 1) % n)
        groups.setdefault(g, []).append(f"{game.names[s]} {face(e.cards[0])}")
    listed = "; ".join(f"group {g}: {', '.join(v)}" for g, v in groups.items())
    card = ev.cards[0]
    name = game.names[seat]
    question = (
        f"Banners so far — {listed or 'none'}. {name}, in group {group}, is dealt "
        f"{face(card)}. Is it kept as {name}'s banner, or rejected?"
    )
    choices = [
        f"Kept: {name}'s banner is {face(card)}",
        f"Rejected: {face(card)} goes to the rejects",
    ]
    answer = 1 if ev.kind is EventKind.REJECT else 0
    why = f"{ev.text.rstrip('. ')} ({ev.rule})."
    if ev.kind is EventKind.BANNER:
        same = [e for s, e in so_far if group_of((s - game.dealer - 1) % n) == group]
        held = " ".join(face(e.cards[0]) for e in same) or "no banner"
        why += (
            f" Only banners of the same group must differ (R4.2): group {group} holds {held} "
            f"so far, so {card.suit.symbol} is free there."
        )
    return CheckYourself(
        question,
        choices,
        answer,
        why,
        title="Check yourself: kept or rejected?",
        rules=["R4.2", "R4.3"],
    )


def keep_all_quiz(game: Game) -> CheckYourself:
    """Buy with the soldiers you have: may you keep them all? Answered by the engine (R6.7)."""
    seat = game.to_act
    if seat is None or game.phase is not Phase.TURN:
        raise PalaceError("keep_all_quiz needs a position where a player is on their turn")
    name = game.names[seat]
    have = game.soldiers(seat)
    n = len(have)
    listed = faces(have) or "none"
    question = f"{name} holds {plural(n, 'soldier')} ({listed}) and buys. Which is true?"
    kept = f"all {n + 1} soldiers" if n else "the one soldier"
    choices = [
        f"{name} may keep {kept}",
        f"{name} must discard at least one soldier before play goes on",
        f"{name} may not Buy now",
    ]
    why_buy = game.why_illegal(Buy())
    if why_buy is not None:
        return CheckYourself(question, choices, 2, why_buy, rules=["R6.2", "R6.7"])
    probe = game.replay()
    bought = probe.apply(Buy())[0]
    why = probe.why_illegal(Trim(cards=()))
    if why is None:
        explanation = f"{bought.text} Keeping {kept} is legal: at most five (R6.7)."
        answer = 0
    else:
        explanation = f"{bought.text} Keeping all is refused: {why}."
        answer = 1
    return CheckYourself(question, choices, answer, explanation, rules=["R6.2", "R6.7"])


def call_amount_quiz(game: Game) -> CheckYourself:
    """How much does the defender pay to call? The engine's answer (R7.6)."""
    b = game.battle
    if b is None or game.phase is not Phase.BATTLE_RESPONSE:
        raise PalaceError("call_amount_quiz needs a position where an attack is being answered")
    att, dfn = game.names[b.attacker], game.names[b.defender]
    bet = next(e for e in reversed(game.events) if e.kind is EventKind.BET)
    owed = game.owed()
    # the same hand replayed under the other R7.6 rule: what the call would cost there
    record = game.to_dict()
    record["rules"]["call_matches_attack"] = not game.rules.calls_match_attack
    other = Game.from_dict(record).owed()
    options = sorted({owed, other, bet.amount, owed + bet.amount})
    probe = game.replay()
    called = probe.apply(Call())[0]
    question = (
        f"{att} ({len(game.soldiers(b.attacker))} soldiers) attacks {dfn} "
        f"({plural(len(game.soldiers(b.defender)), 'soldier')}) with {bet.amount} chips. "
        f"How much must {dfn} pay to call?"
    )
    rule = (
        "the defender matches the attack (R7.6: no-limit, or the call-matches-attack variant)"
        if game.rules.calls_match_attack
        else "each player's stake is sized by their own army: (soldiers + 1) × s"
    )
    return CheckYourself(
        question,
        [f"{x} chips" for x in options],
        f"{owed} chips",
        f"{called.text} Under these rules {rule} (R7.6).",
        title="Check yourself: the call",
        rules=["R7.3", "R7.6"],
    )


def battle_quiz(
    game: Game,
    nth: int = -1,
    *,
    question: str | None = None,
    note: str = "",
    without_exclusion: bool = False,
) -> CheckYourself:
    """Predict the winner of a hand's battle; Reveal shows the engine's showdown.

    note and without_exclusion: as for `CheckYourself.battle`.
    """
    ev = battle_event(game, nth)
    att, dfn = armies_of(ev)
    names = (game.names[ev.detail["attacker"]], game.names[ev.detail["defender"]])
    return CheckYourself.battle(
        att, dfn, names, question=question, note=note, without_exclusion=without_exclusion
    )


def pot_winner_quiz(scn: Scenario, question: str | None = None) -> CheckYourself:
    """Who takes the pot at the end of a scenario? Choices: the players still in the hand."""
    game = scn.game()
    res = game.result
    if res is None:
        raise PalaceError(f"scenario {scn.id} does not reach the end of the hand")
    left = [s for s in range(game.players) if game.active[s] or s in res.winners]
    choices = [f"{game.names[s]} takes the pot" for s in left]
    if len(res.winners) == 1:
        answer = f"{game.names[res.winners[0]]} takes the pot"
    else:
        choices.append("They share it")
        answer = "They share it"
    # The engine's sentence says who takes the pot; a scenario answer that opens by
    # naming the winner ("Ann. Banner-suit exclusion ...") would say it twice.
    why = scn.answer or ""
    lead, _, rest = why.partition(". ")
    if rest and lead.strip() in {game.names[s] for s in res.winners}:
        why = rest
    return CheckYourself(
        question or scn.question or "Who takes the pot?",
        choices,
        answer,
        f"{res.text.rstrip('. ')} ({res.rule}). {why}".strip(),
        title=f"Check yourself: {scn.title}",
        rules=scn.rules,
    )


def legal_kinds_quiz(scn: Scenario, k: int, question: str | None = None) -> CheckYourself:
    """What may the player to act do after the scenario's first `k` actions? (the engine's
    legal actions, grouped by kind)."""
    game = scn.game_at(k)
    if game.to_act is None:
        raise PalaceError(f"scenario {scn.id}: nobody acts after {k} actions")
    name = game.names[game.to_act]
    kinds = {a.kind for a in game.legal_actions()}
    options = {
        "any action: Buy, Discard, Bet, Stay or Fold": {"buy", "discard", "bet", "stay", "fold"},
        "Buy, Bet, Stay or Fold (no soldiers to discard)": {"buy", "bet", "stay", "fold"},
        "only Bet or Fold": {"bet", "fold"},
        "nothing: the hand is over": set(),
    }
    answer = next((label for label, ks in options.items() if ks == kinds), None)
    if answer is None:
        raise PalaceError(f"scenario {scn.id}: no choice matches the legal kinds {sorted(kinds)}")
    return CheckYourself(
        question or scn.question or f"What may {name} do?",
        list(options),
        answer,
        scn.answer or "",
        title=f"Check yourself: {scn.title}",
        rules=scn.rules,
    )
