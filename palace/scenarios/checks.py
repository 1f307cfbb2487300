"""Checking a scenario's expectations against the games its actions reach.

`checkpoints` says which expectations are due after how many actions and `check_state`
checks one of them against a game (read-only); the record steps through its hand once and
calls them (`palace.scenarios.record`), so this module needs no `Scenario`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from palace.battle import BattleResult
from palace.cards import Card, parse_cards
from palace.errors import CardError
from palace.events import Event, EventKind
from palace.game import Game
from palace.hands import evaluate
from palace.numbers import is_whole
from palace.scenarios.fields import actions, seat_of
from palace.scenarios.schema import ACTION_KINDS, ScenarioError

Due = dict[int, list[tuple[str, dict[str, Any]]]]


def checkpoints(expect: Mapping[str, Any], where: str) -> Due:
    """The expectations due after k actions: ``{k: [(label, state), ...]}``; the final
    expectation (everything but ``checkpoints``) is due after the last action."""
    due: Due = {}
    for i, cp in enumerate(expect.get("checkpoints", [])):
        state = {k: v for k, v in cp.items() if k != "after"}
        label = f"{where}: expect.checkpoints[{i}] (after {cp['after']} actions)"
        due.setdefault(cp["after"], []).append((label, state))
    return due


def final_state(expect: Mapping[str, Any]) -> dict[str, Any]:
    """What must hold after the last action: `expect` without its checkpoints."""
    return {k: v for k, v in expect.items() if k != "checkpoints"}


def _fail(where: str, key: str, want: Any, got: Any) -> ScenarioError:
    return ScenarioError(f"{where}.{key} does not hold: expected {want}, got {got}")


def _seat_name(players: Sequence[str], seat: int | None) -> str:
    return "nobody" if seat is None else f"{players[seat]} (seat {seat})"


def _cards_set(v: Any, where: str) -> frozenset[Card]:
    try:
        return frozenset(parse_cards(v))
    except (CardError, TypeError) as exc:
        raise ScenarioError(f"{where}: {exc}") from None


def _fmt(cards: Any) -> str:
    return " ".join(sorted((str(c) for c in cards), key=lambda c: Card.parse(c).index)) or "none"


def check_state(g: Game, exp: Mapping[str, Any], players: Sequence[str], where: str) -> None:
    """Check every key of one expectation object (no checkpoints) against `g`."""
    res = g.result

    def seat(ref: Any, key: str) -> int:
        return seat_of(ref, players, f"{where}.{key}")

    def need_result(key: str) -> Any:
        if res is None:
            raise ScenarioError(f"{where}.{key} does not hold: the hand is not over ({g.phase})")
        return res

    for key, want in exp.items():
        check = _STATE_CHECKS[key]
        check(g, want, players, where, key, seat, need_result)


_Check = Callable[..., None]


def _c_over(g: Game, want: Any, players: Any, where: str, key: str, *_: Any) -> None:
    if not isinstance(want, bool):
        raise ScenarioError(f"{where}.{key} must be true or false, got {want!r}")
    if g.is_over != want:
        raise _fail(where, key, want, g.is_over)


def _c_phase(g: Game, want: Any, players: Any, where: str, key: str, *_: Any) -> None:
    if g.phase.value != want:
        raise _fail(where, key, repr(want), repr(g.phase.value))


def _c_to_act(g: Game, want: Any, players: Any, where: str, key: str, seat: Any, _r: Any) -> None:
    w = None if want is None else seat(want, key)
    if g.to_act != w:
        raise _fail(where, key, _seat_name(players, w), _seat_name(players, g.to_act))


def _c_pot(g: Game, want: Any, players: Any, where: str, key: str, *_: Any) -> None:
    if not is_whole(want):
        raise ScenarioError(f"{where}.{key} must be a whole number, got {want!r}")
    if g.pot != want:
        raise _fail(where, key, want, g.pot)


def _c_winner(g: Game, want: Any, players: Any, where: str, key: str, seat: Any, res: Any) -> None:
    r = res(key)
    w = seat(want, key)
    if r.winners != (w,):
        got = ", ".join(_seat_name(players, s) for s in r.winners)
        raise _fail(where, key, f"{_seat_name(players, w)} alone", got)


def _c_winners(g: Game, want: Any, players: Any, where: str, key: str, seat: Any, res: Any) -> None:
    r = res(key)
    w = {seat(x, key) for x in want}
    if set(r.winners) != w:
        raise _fail(
            where, key, sorted(players[s] for s in w), sorted(players[s] for s in r.winners)
        )


def _c_reason(g: Game, want: Any, players: Any, where: str, key: str, seat: Any, res: Any) -> None:
    r = res(key)
    if r.reason != want:
        raise _fail(where, key, repr(want), repr(r.reason))


def _c_result_rule(
    g: Game, want: Any, players: Any, where: str, key: str, seat: Any, res: Any
) -> None:
    r = res(key)
    if r.rule != want:
        raise _fail(where, key, repr(want), repr(r.rule))


def _c_shares(g: Game, want: Any, players: Any, where: str, key: str, seat: Any, res: Any) -> None:
    r = res(key)
    w = {seat(k, key): v for k, v in want.items()}
    got = {s: v for s, v in r.shares.items()}
    if w != got:
        show = lambda d: {players[s]: v for s, v in sorted(d.items())}  # noqa: E731
        raise _fail(where, key, show(w), show(got))


def _c_active(g: Game, want: Any, players: Any, where: str, key: str, seat: Any, _r: Any) -> None:
    w = {seat(x, key) for x in want}
    got = {s for s in range(g.players) if g.active[s]}
    if w != got:
        raise _fail(where, key, sorted(players[s] for s in w), sorted(players[s] for s in got))


def _c_banners(g: Game, want: Any, players: Any, where: str, key: str, seat: Any, _r: Any) -> None:
    for ref, card in want.items():
        s = seat(ref, key)
        w = _cards_set(card, f"{where}.{key}.{ref}")
        got = g.banner(s)
        if got is None or frozenset({got}) != w:
            raise _fail(where, f"{key}.{players[s]}", _fmt(w), got)


def _c_soldiers(g: Game, want: Any, players: Any, where: str, key: str, seat: Any, _r: Any) -> None:
    for ref, w in want.items():
        s = seat(ref, key)
        got = g.soldiers(s)
        if is_whole(w):
            if len(got) != w:
                raise _fail(
                    where, f"{key}.{players[s]}", f"{w} soldiers", f"{len(got)} ({_fmt(got)})"
                )
        elif _cards_set(w, f"{where}.{key}.{ref}") != frozenset(got):
            raise _fail(where, f"{key}.{players[s]}", _fmt(_cards_set(w, where)), _fmt(got))


def _c_zones(g: Game, want: Any, players: Any, where: str, key: str, *_: Any) -> None:
    zones = g.zones()
    for name, w in want.items():
        if name not in zones:
            raise ScenarioError(
                f"{where}.{key}: unknown zone {name!r} "
                "(deck, discard, rejects, seat0.soldiers, ...)"
            )
        if not is_whole(w):
            raise ScenarioError(f"{where}.{key}.{name} must be a card count, got {w!r}")
        if len(zones[name]) != w:
            raise _fail(where, f"{key}.{name}", f"{w} cards", len(zones[name]))


def _c_legal(g: Game, want: Any, players: Any, where: str, key: str, *_: Any) -> None:
    got = sorted({a.kind for a in g.legal_actions()}, key=ACTION_KINDS.index)
    if set(got) != set(want):
        raise _fail(where, key, sorted(want, key=ACTION_KINDS.index), got)


def _c_illegal(g: Game, want: Any, players: Any, where: str, key: str, *_: Any) -> None:
    for i, item in enumerate(want):
        w = f"{where}.{key}[{i}]"
        (a,) = actions([item["action"]], players, w)
        reason = g.why_illegal(a)
        if reason is None:
            raise ScenarioError(f"{w} does not hold: {g.describe(a)} is legal here")
        part = item.get("reason")
        if part is not None and not isinstance(part, str):
            raise ScenarioError(f'{w}.reason must be text such as "R9.3", got {part!r}')
        if part is not None and part not in reason:
            raise _fail(w, "reason", f"a reason containing {part!r}", repr(reason))


def _event_matches(e: Event, m: dict[str, Any], players: Sequence[str], where: str) -> bool:
    for k, v in m.items():
        if k == "kind" and e.kind != v:
            return False
        if k == "rule" and e.rule != v:
            return False
        if k == "seat" and e.seat != (None if v is None else seat_of(v, players, f"{where}.seat")):
            return False
        if k == "cards" and frozenset(e.cards) != _cards_set(v, f"{where}.cards"):
            return False
        if k == "amount" and e.amount != v:
            return False
        if k == "text" and str(v) not in e.text:
            return False
    return True


def _c_events(g: Game, want: Any, players: Any, where: str, key: str, *_: Any) -> None:
    events = g.events
    pos = 0
    for i, m in enumerate(want):
        w = f"{where}.{key}[{i}]"
        while pos < len(events) and not _event_matches(events[pos], m, players, w):
            pos += 1
        if pos == len(events):
            earlier = any(_event_matches(e, m, players, w) for e in events)
            where_ = " (it happens, but before the previous expected event)" if earlier else ""
            raise ScenarioError(f"{w} does not hold: no event matches {m}{where_}")
        pos += 1


def _c_no_events(g: Game, want: Any, players: Any, where: str, key: str, *_: Any) -> None:
    for i, m in enumerate(want):
        w = f"{where}.{key}[{i}]"
        for e in g.events:
            if _event_matches(e, m, players, w):
                raise ScenarioError(f"{w} does not hold: event #{e.index} matches: {e.text}")


def _no_exclusion_winner(r: BattleResult, a: int, d: int) -> int | None:
    """Who would win the battle if R8.2 did not exist (R8.4, then R8.5)."""
    ah, dh = evaluate(r.attacker_hand.cards), evaluate(r.defender_hand.cards)
    if ah != dh:
        return a if ah > dh else d
    if r.attacker_banner_count != r.defender_banner_count:
        return a if r.attacker_banner_count > r.defender_banner_count else d
    return None


def _c_battles(g: Game, want: Any, players: Any, where: str, key: str, seat: Any, _r: Any) -> None:
    battles = [e for e in g.events if e.kind is EventKind.BATTLE]
    if len(battles) != len(want):
        raise _fail(where, f"{key} (how many)", len(want), len(battles))
    for i, (e, m) in enumerate(zip(battles, want, strict=True)):
        w = f"{where}.{key}[{i}]"
        r: BattleResult = e.detail["battle"]
        a, d = e.detail["attacker"], e.detail["defender"]
        facts: dict[str, Any] = {
            "attacker": a,
            "defender": d,
            "winner": e.seat,
            "rule": e.rule,
            "decided_by": r.decided_by,
        }
        for k, v in m.items():
            if k in ("attacker", "defender", "winner"):
                ws = None if v is None else seat_of(v, players, f"{w}.{k}")
                if facts[k] != ws:
                    raise _fail(w, k, _seat_name(players, ws), _seat_name(players, facts[k]))
            elif k in ("rule", "decided_by"):
                if facts[k] != v:
                    raise _fail(w, k, repr(v), repr(facts[k]))
            elif k in ("attacker_hand", "defender_hand"):
                h = r.attacker_hand if k == "attacker_hand" else r.defender_hand
                if str(v) not in h.describe():
                    raise _fail(w, k, f"a hand described with {v!r}", repr(h.describe()))
            elif k in ("attacker_excluded", "defender_excluded"):
                h = r.attacker_hand if k == "attacker_excluded" else r.defender_hand
                if _cards_set(v, f"{w}.{k}") != frozenset(h.excluded):
                    raise _fail(w, k, _fmt(_cards_set(v, w)), _fmt(h.excluded))
            elif k == "without_exclusion":
                ws = None if v is None else seat_of(v, players, f"{w}.{k}")
                got = _no_exclusion_winner(r, a, d)
                if got != ws:
                    raise _fail(w, k, _seat_name(players, ws), _seat_name(players, got))


_STATE_CHECKS: dict[str, _Check] = {
    "over": _c_over,
    "phase": _c_phase,
    "to_act": _c_to_act,
    "pot": _c_pot,
    "winner": _c_winner,
    "winners": _c_winners,
    "reason": _c_reason,
    "result_rule": _c_result_rule,
    "shares": _c_shares,
    "active": _c_active,
    "banners": _c_banners,
    "soldiers": _c_soldiers,
    "zones": _c_zones,
    "legal": _c_legal,
    "illegal": _c_illegal,
    "events": _c_events,
    "no_events": _c_no_events,
    "battles": _c_battles,
}
