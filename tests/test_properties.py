"""Property tests: random seeds, player counts and variants, random legal play to the end."""

from __future__ import annotations

import json
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from palace import Game, Phase, RandomBot, Rules
from palace.actions import Bet, Buy, Discard, Fold, Stay, Trim, action_from_dict
from palace.checks import listed_trim, trim_sets
from palace.hands import card_set

variants = st.builds(
    Rules,
    structure=st.sampled_from(["limit", "no-limit"]),
    stacks=st.sampled_from([None, None, 12, 40]),
    discard_cost=st.sampled_from([None, 0, 1]),
    call_matches_attack=st.sampled_from([None, None, True, False]),
    max_raises=st.sampled_from([None, 0, 1, 3]),
    quiet_actions=st.sampled_from(
        [("stay", "discard", "fold"), ("stay",), ("stay", "fold"), ("fold",), ()]
    ),
    two_left=st.sampled_from(["after_quiet_round", "at_once"]),
    max_turns=st.sampled_from([200, 200, 30]),
)


def check_table(g: Game) -> None:
    zones = g.zones()
    cards = [c for cs in zones.values() for c in cs]
    n = len(g.rules.deck())
    assert len(cards) == n and len(set(cards)) == n, "every card in exactly one zone"
    assert sum(g.put_in) == g.pot + sum(g.won), "chips are conserved"
    if g.stacks is not None:
        assert all(s >= 0 for s in g.stacks)
        assert sum(g.stacks) + g.pot == g.rules.stacks * g.players


def check_card_sets(legal: list) -> None:
    """A listed Discard or Trim carries its cards' card set (the rule bot reads it), equal
    to the one a player's own action of those cards gets; the saved form leaves it out."""
    for a in legal:
        if isinstance(a, Discard | Trim):
            assert a.bits == card_set(a.cards) and a.bits.bit_count() == len(a.cards)
            again = action_from_dict(a.to_dict())
            assert "bits" not in a.to_dict() and again == a and again.bits == a.bits


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), players=st.integers(2, 10), rules=variants)
def test_random_legal_play_conserves_cards_and_chips_and_ends(seed, players, rules):
    g = Game.new(players=players, seed=seed, rules=rules)
    check_table(g)
    rng = random.Random(seed)
    bots = {s: RandomBot(rng) for s in range(players)}
    for _ in range(3000):
        if g.is_over:
            break
        legal = g.legal_actions()
        assert legal, f"no legal action in phase {g.phase}"
        check_card_sets(legal)
        if g.phase is Phase.TRIM_TO_FIVE:  # the one statement of R6.7's trims, in order
            soldiers = g.soldiers(g.to_act)
            assert trim_sets(soldiers, g.rules) == [a.bits for a in legal]
            assert all(listed_trim(a.bits) == a for a in legal)
        action = bots[g.to_act].choose(g.view(g.to_act))
        assert action in legal
        g.apply(action)
        check_table(g)
    assert g.is_over and g.phase is Phase.HAND_OVER and g.legal_actions() == []
    assert g.pot == 0 and sum(g.result.shares.values()) == sum(g.won)
    # the log alone rebuilds the final table
    snap = g.state_at(len(g.events) - 1)
    assert snap.zones == {k: tuple(v) for k, v in g.zones().items()} or {
        k: sorted(v, key=lambda c: c.index) for k, v in snap.zones.items()
    } == {k: sorted(v, key=lambda c: c.index) for k, v in g.zones().items()}
    assert snap.pot == g.pot and snap.put_in == g.put_in and snap.active == g.active
    # replay from the saved record gives the same hand, byte for byte
    data = json.dumps(g.to_dict(), sort_keys=True)
    again = Game.from_dict(json.loads(data))
    assert json.dumps(again.to_dict(), sort_keys=True) == data
    assert again.events == g.events or [e.to_dict() for e in again.events] == [
        e.to_dict() for e in g.events
    ]


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10**6), players=st.integers(2, 10))
def test_same_seed_same_hand(seed, players):
    a = Game.new(players=players, seed=seed)
    b = Game.new(players=players, seed=seed)
    assert [e.to_dict() for e in a.events] == [e.to_dict() for e in b.events]
    assert a.zones() == b.zones()


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10**6), players=st.integers(2, 6), steps=st.integers(0, 40))
def test_state_at_matches_replay_at_every_action(seed, players, steps):
    g = Game.new(players=players, seed=seed)
    rng = random.Random(seed)
    bot = RandomBot(rng)
    marks = [(len(g.events) - 1, g.zones())]
    for _ in range(steps):
        if g.is_over:
            break
        g.apply(bot.choose(g.view(g.to_act)))
        marks.append((len(g.events) - 1, g.zones()))
    for index, zones in marks:
        snap = g.state_at(index)
        assert snap.zones == zones


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), players=st.integers(2, 6), rules=variants)
def test_a_views_turn_outline_is_its_legal_turn_in_outline(seed, players, rules):
    """`view.turn_outline` (what the rule bot reads) says of every turn what `legal` lists:
    Buy, any Discard, the very Bet objects, Stay; None when the seat has no turn. A view
    read only after the game has moved on still answers as of its own moment."""
    g = Game.new(players=players, seed=seed, rules=rules)
    rng = random.Random(seed)
    bots = {s: RandomBot(rng) for s in range(players)}
    while not g.is_over:
        seat = g.to_act
        views = [g.view(s) for s in range(players)]
        unread = g.view(seat)  # its outline is read after the move below
        for view in views:
            outline, legal = view.turn_outline, view.legal
            if view.phase is not Phase.TURN or not legal:
                assert outline is None
                continue
            buy, discard, bets, stay = outline
            assert buy == any(type(a) is Buy for a in legal)
            assert discard == any(type(a) is Discard for a in legal)
            assert list(bets) == [a for a in legal if type(a) is Bet]
            assert all(any(b is a for a in legal) for b in bets)
            assert stay == any(type(a) is Stay for a in legal)
            assert type(legal[-1]) is Fold  # Fold is always legal on a turn (R6.6)
            # and each is what the checks accept (why_illegal names the rule otherwise)
            assert buy == (g.why_illegal(Buy()) is None)
            assert stay == (g.why_illegal(Stay()) is None)
            soldiers = view.me.soldiers
            assert discard == bool(soldiers and g.why_illegal(Discard(cards=soldiers)) is None)
            assert [b.target for b in bets] == [
                s for s in range(players) if g.why_illegal(Bet(target=s)) is None
            ]
        before = [v.turn_outline for v in views if v.seat == seat]
        g.apply(bots[seat].choose(g.view(seat)))
        assert unread.turn_outline == before[0]
