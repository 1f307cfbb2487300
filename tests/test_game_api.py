"""The public engine API: parsing, errors that name the rule or field, atomicity, saving, views."""

from __future__ import annotations

import json

import pytest
from conftest import scripted

from palace import (
    Bet,
    Buy,
    Card,
    CardError,
    DeckError,
    Discard,
    Game,
    IllegalActionError,
    PalaceError,
    Phase,
    RandomBot,
    Rank,
    RuleBot,
    Rules,
    RulesError,
    StateError,
    Stay,
    Suit,
    Trim,
    new_deck,
    parse_cards,
    play_out,
)
from palace.actions import Action
from palace.views import SeatView, TurnState


def test_cards_parse_and_print():
    assert [str(c) for c in parse_cards("As kd 10h 7C Td")] == ["As", "Kd", "Th", "7c", "Td"]
    c = Card.parse("K♠")
    assert (c.rank, c.suit, c.name, c.symbol) == (Rank.KING, Suit.SPADES, "King of spades", "K♠")
    assert repr(parse_cards("As Kd")) == "(As, Kd)"
    assert all(Card.from_index(c.index) == c for c in new_deck())
    assert len(set(new_deck())) == 52


@pytest.mark.parametrize("bad", ["1x", "Zs", "A", "", "Ax", "11h"])
def test_malformed_card_names_the_problem(bad):
    with pytest.raises(CardError, match="R1.2"):
        Card.parse(bad)


def test_rules_validation_names_the_field():
    for kwargs, field in [
        ({"small_bet": 0}, "small_bet"),
        ({"big_bet": 1}, "big_bet"),
        ({"structure": "pot"}, "structure"),
        ({"stacks": -5}, "stacks"),
        ({"max_raises": "two"}, "max_raises"),
        ({"quiet_actions": ("buy",)}, "quiet_actions"),
        ({"call_matches_attack": "yes"}, "call_matches_attack"),
    ]:
        with pytest.raises(RulesError, match=f"Rules.{field}"):
            Rules(**kwargs)
    with pytest.raises(TypeError):
        Rules(2, 4)  # keyword-only
    assert Rules.from_dict(Rules(structure="no-limit").to_dict()) == Rules(structure="no-limit")
    with pytest.raises(RulesError, match="bogus"):
        Rules.from_dict({"bogus": 1})


def test_scripted_deck_errors():
    with pytest.raises(DeckError, match="As appears twice"):
        Game.new(players=2, deck="As Kd As")
    with pytest.raises(DeckError, match="1x"):
        Game.new(players=2, deck="As 1x")


def test_illegal_action_leaves_state_exactly_as_it_was():
    g = Game.new(players=4, seed=3)
    bot = RandomBot(3)
    for _ in range(6):
        g.apply(bot.choose(g.view(g.to_act)))
    before = json.dumps(g.to_dict())
    zones, pot, events = g.zones(), g.pot, len(g.events)
    for bad in [
        Bet(target=g.to_act),
        Discard(cards="As Ks Qs Js Ts 9s"),
        Trim(cards="2c"),
        Bet(target=99),
        Bet(target=0, amount=-3),
    ]:
        if g.why_illegal(bad) is None:
            continue
        with pytest.raises(IllegalActionError, match=r"\(R\d"):
            g.apply(bad)
        assert json.dumps(g.to_dict()) == before
        assert g.zones() == zones and g.pot == pot and len(g.events) == events


def test_not_an_action_is_refused():
    g = Game.new(players=2, seed=1)
    with pytest.raises(IllegalActionError):
        g.apply("stay")  # type: ignore[arg-type]


def test_from_dict_rejects_malformed_payloads():
    g = Game.new(players=3, seed=5)
    g.apply(Stay())
    good = g.to_dict()
    cases = [
        ([], "JSON object"),
        ({**good, "format": "other/9"}, "format"),
        ({k: v for k, v in good.items() if k != "seed"}, "seed"),
        ({**good, "players": 1}, "R1.1"),
        ({**good, "rules": {"structure": "pot"}}, "Rules.structure"),
        ({**good, "actions": [{"kind": "jump"}]}, "actions\\[0\\].kind"),
        ({**good, "actions": [{"kind": "bet", "target": "Bob"}]}, "target"),
        ({**good, "actions": [{"kind": "trim"}]}, "actions\\[0\\]"),
        ({**good, "deck": ["As", "As"]}, "twice"),
    ]
    for payload, message in cases:
        with pytest.raises(StateError, match=message):
            Game.from_dict(payload)
    assert Game.from_dict(good).to_dict() == good


def test_replay_and_undo():
    g = Game.new(players=4, seed=8)
    play_out(g, {s: RuleBot() for s in range(4)})
    assert g.replay().to_dict() == g.to_dict()
    u = g.undo()
    assert len(u.actions) == len(g.actions) - 1 and u.actions == g.actions[:-1]
    with pytest.raises(PalaceError, match="nothing to undo"):
        Game.new(players=2, seed=1).undo()


def test_every_chance_step_is_its_own_event():
    g = Game.new(players=5, seed=12)
    kinds = [e.kind for e in g.events]
    assert kinds.count("palace") == 15
    assert kinds.count("banner") == 5
    assert all(e.rule.startswith("R") and e.text for e in g.events)
    assert [e.index for e in g.events] == list(range(len(g.events)))


def test_state_at_steps_through_the_deal_card_by_card():
    g = Game.new(players=3, seed=2)
    banners = [e for e in g.events if e.kind == "banner"]
    before = g.state_at(banners[0].index - 1)
    after = g.state_at(banners[0].index)
    seat = banners[0].seat
    assert before.zones[f"seat{seat}.banner"] == ()
    assert after.zones[f"seat{seat}.banner"] == banners[0].cards
    assert after.phase is Phase.BANNER_DEAL
    with pytest.raises(PalaceError):
        g.state_at(10_000)


def test_view_hides_others_palaces_and_deck_order(three):
    v = three.view(0)
    assert v.palace == three.palace(0)
    assert not hasattr(v, "zones")
    assert v.deck_count == len(three.zones()["deck"])
    for s in (1, 2):
        assert v.seats[s].palace_count == 3
        assert not set(three.palace(s)) & set(v.known)
    assert len(v.unseen) == 52 - 3 - 3


def test_bots_see_only_the_view():
    """Changing cards hidden from a bot does not change its choice."""
    base = {0: "As", 1: "Kh", 2: "Qd"}
    a = scripted(3, base, {0: "2c 3c 4c", 1: "Kc Kd 7c", 2: "8c 9c Tc"}, draws="Jh")
    b = scripted(3, base, {0: "5h 6h 7h", 1: "Kc Kd 7c", 2: "2d 3d 4d"}, draws="Jh")
    for bot in (RuleBot(), RandomBot(5)):
        seat = a.to_act
        va, vb = a.view(seat), b.view(seat)
        assert va.unseen == vb.unseen  # the same knowledge
        choice_a = bot.choose(va)
        if isinstance(bot, RandomBot):
            bot = RandomBot(5)
        assert bot.choose(vb) == choice_a


def test_describe_uses_names():
    g = Game.new(players=["Ada", "Max"], seed=1)
    bet = next(a for a in g.legal_actions() if isinstance(a, Bet))
    assert g.names[bet.target] in g.describe(bet)
    assert str(Buy()) == "Buy"


def test_from_dict_garbage_in_any_field_gives_a_palace_error():
    import copy
    import random

    g = Game.new(players=4, seed=3)
    play_out(g, {s: RuleBot() for s in range(4)})
    good = g.to_dict()
    junk = [
        None,
        1,
        -1,
        1.5,
        "x",
        "",
        [],
        {},
        [1, 2],
        {"a": 1},
        True,
        "As",
        ["As", "As"],
        10**30,
        [None],
        [[1]],
    ]
    rng = random.Random(7)
    for _ in range(600):
        d = copy.deepcopy(good)
        key = rng.choice(list(d))
        if key == "actions" and rng.random() < 0.7:
            action = rng.choice(d["actions"])
            action[rng.choice(list(action))] = rng.choice(junk)
        elif key == "rules" and rng.random() < 0.7:
            d["rules"][rng.choice(list(d["rules"]))] = rng.choice(junk)
        else:
            d[key] = rng.choice(junk)
        try:
            Game.from_dict(d)
        except PalaceError:
            pass  # a clear refusal; anything else (TypeError, KeyError...) fails the test


@pytest.mark.parametrize("structure", ["limit", "no-limit"])
def test_actions_with_malformed_fields_are_refused_by_rule(structure):
    from palace import Raise

    g = Game.new(players=3, seed=1, rules=Rules(structure=structure))
    before = g.to_dict()
    for bad, rule in [
        (Bet(target=1, amount="x"), "R7.3"),
        (Bet(target=1, amount=2.5), "R7.3"),
        (Bet(target="Bob"), "R7.1"),
        (Bet(target=None), "R7.1"),
    ]:
        with pytest.raises(IllegalActionError, match=rule):
            g.apply(bad)
    assert g.to_dict() == before
    g.apply(Bet(target=1))
    for bad in (Raise(amount="x"), Raise(amount=True)):
        with pytest.raises(IllegalActionError, match="R7.7"):
            g.apply(bad)
    with pytest.raises(CardError):
        Discard(cards=5)


def test_a_hands_records_pickle_copy_and_stay_frozen():
    """A hand's result, its battle results, the armies and hands in them: what a study or a
    saved lesson may send to another process comes back equal, on the compiled engine too,
    and none of them can be changed in place."""
    import copy
    import dataclasses
    import pickle

    from palace.events import EventKind

    shown = []
    for seed in range(40):
        g = play_out(Game.new(players=4, seed=seed), {s: RuleBot() for s in range(4)})
        shown += [e.detail for e in g.events if e.kind is EventKind.BATTLE]
        if shown:
            break
    assert shown, "no battle shown down in 40 rule-bot hands"
    res, battle, armies = g.result, shown[0]["battle"], shown[0]["armies"]
    for record in (res, battle, battle.attacker_hand, *armies):
        for back in (pickle.loads(pickle.dumps(record)), copy.deepcopy(record)):
            assert back == record and type(back) is type(record)
    assert pickle.loads(pickle.dumps(res)).text == res.text
    assert pickle.loads(pickle.dumps(battle)).explain("Ann", "Bob") == battle.explain("Ann", "Bob")
    for record, field in ((res, "pot"), (battle, "winner"), (armies[0], "palace")):
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(record, field, None)
    assert dataclasses.replace(armies[0], soldiers=()).soldiers == ()


def test_views_dropped_unread_leave_the_views_kept_as_of_their_moment():
    """A view's legal actions and turn facts are worked out when it reads them, or by the
    game before its table changes while the view is alive; a view dropped unread is not (it
    says so when it goes): dropping views between moves changes nothing for the views kept
    or the game."""
    g, same = Game.new(players=4, seed=3), Game.new(players=4, seed=3)
    kept: list[tuple[SeatView, tuple[Action, ...], TurnState]] = []
    bot = RandomBot(3)
    while not g.is_over:
        seat = g.to_act
        assert seat is not None
        g.view(seat)  # made and dropped at once, as a bot's loop does
        view = g.view(seat)
        kept.append((view, tuple(g.legal_actions()), g.view(seat).turn))
        if len(kept) % 3 == 0:
            assert view.legal  # some read their legal actions now, their turn facts late
        g.view(seat)
        action = bot.choose(same.view(seat))
        same.apply(action)
        g.apply(action)
    assert g.to_dict() == same.to_dict()
    assert len(kept) > 10
    assert len({turn.turns for _, _, turn in kept}) > 5  # the turn facts moved on
    for view, legal, turn in reversed(kept):  # read late, the last first
        assert view.turn == turn
        assert view.legal == legal
