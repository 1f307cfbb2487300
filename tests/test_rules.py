"""One or more tests per clause of RULES.md (R1-R10), on scripted decks."""

from __future__ import annotations

import pytest
from conftest import scripted

from palace import (
    Bet,
    Buy,
    Call,
    Discard,
    Fold,
    Game,
    IllegalActionError,
    Match,
    OddsBot,
    Phase,
    Raise,
    RuleBot,
    Rules,
    RulesError,
    Stay,
    Trim,
    parse_cards,
    play_out,
)
from palace.script import deck_for


def kinds(g: Game) -> set[str]:
    return {a.kind for a in g.legal_actions()}


def last(g: Game, kind: str):
    return [e for e in g.events if e.kind == kind][-1]


# ---------------------------------------------------------------- R1
@pytest.mark.parametrize("n", [0, 1, 11, 52])
def test_R1_1_player_count_outside_two_to_ten_is_an_error(n):
    with pytest.raises(Exception, match=r"R1\.1"):
        Game.new(players=n)


# ---------------------------------------------------------------- R2
def test_R2_1_highest_card_deals():
    for seed in range(20):
        g = Game.new(players=5, seed=seed)
        cuts = {}
        for e in g.events:
            if e.kind == "cut":
                cuts.setdefault(e.seat, []).append(e.cards[0].rank)
        final = {s: r[-1] for s, r in cuts.items() if len(r) == max(map(len, cuts.values()))}
        assert g.dealer == max(final, key=final.get)
        assert last(g, "dealer").rule == "R2.1"


def test_R2_2_only_tied_players_draw_again_and_cards_go_back():
    seed = next(
        s for s in range(500) if any(e.kind == "cut_tie" for e in Game.new(6, seed=s).events)
    )
    g = Game.new(6, seed=seed)
    evs = list(g.events)
    tie = next(i for i, e in enumerate(evs) if e.kind == "cut_tie")
    first_round = [e for e in evs[:tie] if e.kind == "cut"]
    top = max(e.cards[0].rank for e in first_round)
    tied = {e.seat for e in first_round if e.cards[0].rank == top}
    redraws = []
    for e in evs[tie + 1 :]:
        if e.kind != "cut":
            break
        redraws.append(e.seat)
    assert set(redraws) == tied and len(tied) >= 2
    assert all(e.rule == "R2.2" for e in evs[tie + 1 : tie + 1 + len(redraws)])
    # the cut cards went back into the deck before the banner deal
    gather = next(e for e in evs if e.kind == "gather")
    snap = g.state_at(gather.index)
    assert all(not snap.zones[f"seat{s}.cut"] for s in range(6))
    assert len(snap.zones["deck"]) == 52


def test_R2_3_the_deal_passes_one_seat_left():
    m = Match(players=4, seed=3)
    dealers = [m.play_hand({s: RuleBot() for s in range(4)}).dealer for _ in range(5)]
    assert [(d - dealers[0]) % 4 for d in dealers] == [0, 1, 2, 3, 0]


# ---------------------------------------------------------------- R3
def test_R3_1_everyone_antes_half_the_small_bet(three):
    assert three.pot == 3 and three.put_in == (1, 1, 1)
    g = Game.new(players=4, seed=2, rules=Rules(small_bet=5, big_bet=10))
    assert g.pot == 4 * 2
    g = Game.new(players=4, seed=2, rules=Rules(ante=3))
    assert g.pot == 12


def test_R3_2_a_battle_moves_no_chips_to_the_winner(three):
    g = three
    g.apply(Bet(target=0))  # Bob attacks Ann
    g.apply(Fold())
    assert g.won == (0, 0, 0)  # Bob captured cards, not chips
    assert g.pot == 3 + 2


def test_R3_3_no_limit_attack_may_exceed_the_minimum(three):
    g = scripted(
        3,
        {0: "As", 1: "Kh", 2: "Qd"},
        {0: "2c 3c 4c", 1: "5c 6c 7c", 2: "8c 9c Tc"},
        rules=Rules(structure="no-limit"),
    )
    assert g.why_illegal(Bet(target=0, amount=1)) is not None
    assert "R7.3" in g.why_illegal(Bet(target=0, amount=1))
    g.apply(Bet(target=0, amount=30))
    assert g.pot == 33
    limit = three
    assert "exactly" in limit.why_illegal(Bet(target=0, amount=30))


def test_R3_4_stacks_make_unaffordable_actions_illegal():
    rules = Rules(stacks=3, structure="no-limit")
    g = scripted(
        3, {0: "As", 1: "Kh", 2: "Qd"}, {0: "2c 3c 4c", 1: "5c 6c 7c", 2: "8c 9c Tc"}, rules=rules
    )
    assert g.stacks == (2, 2, 2)  # after the ante of 1
    assert g.why_illegal(Bet(target=0, amount=3)).endswith("(R3.4)")
    g.apply(Bet(target=0, amount=2))  # Bob all in
    assert g.stacks == (2, 0, 2)
    poor = scripted(
        3,
        {0: "As", 1: "Kh", 2: "Qd"},
        {0: "2c 3c 4c", 1: "5c 6c 7c", 2: "8c 9c Tc"},
        rules=Rules(stacks=2),
    )
    assert poor.stacks[1] == 1
    assert "R3.4" in poor.why_illegal(Buy())
    # R3.4 b: the minimum attack (2) is more than Bob has, so he may attack all-in with 1
    assert {a.kind for a in poor.legal_actions()} == {"bet", "stay", "fold"}
    assert "all-in with exactly 1" in poor.why_illegal(Bet(target=0, amount=2))


def test_R3_4_a_defender_may_always_call_all_in():
    rules = Rules(stacks=5, call_matches_attack=True, structure="no-limit")
    g = scripted(
        3, {0: "As", 1: "Kh", 2: "Qd"}, {0: "2c 3c 4c", 1: "5c 6c 7c", 2: "8c 9c Tc"}, rules=rules
    )
    g.apply(Stay())  # Bob
    g.apply(Stay())  # Cat
    g.apply(Bet(target=1, amount=4))  # Ann attacks Bob for 4 of her 4
    g2 = g.replay()
    assert g.owed() == 4 and g.stacks[1] == 4
    g.apply(Call())
    assert g.stacks[1] == 0
    assert g2.to_dict() != g.to_dict()
    # a smaller stack still calls, for what is left
    r2 = Rules(stacks=3, call_matches_attack=True, structure="no-limit")
    h = scripted(
        3,
        {0: "As", 1: "Kh", 2: "Qd"},
        {0: "2c 3c 4c", 1: "5c 6c 7c", 2: "8c 9c Tc"},
        rules=r2,
        draws="Jd",
    )
    h.apply(Stay())
    h.apply(Buy())  # Cat pays 2: 0 left
    h.apply(Trim())
    h.apply(Bet(target=2, amount=2))  # Ann attacks Cat, who has nothing left
    assert Call() in h.legal_actions()
    h.apply(Call())
    call = last(h, "call")
    assert call.amount == 0 and "all-in" in call.text


def _chips_conserved(g: Game) -> None:
    assert sum(g.put_in) == g.pot + sum(g.won)
    assert sum(g.stacks) + g.pot == g.rules.stacks * g.players


def test_R3_4_a_call_all_in_for_less_refunds_the_unmatched_part():
    # no-limit: the call matches the attack (R7.6); Bob cannot match all of it
    g = scripted(
        3,
        {0: "As", 1: "Kh", 2: "Qd"},
        {0: "2c 3c 4c", 1: "5c 6c 7c", 2: "8c 9c Tc"},
        draws="Jd",
        rules=Rules(stacks=8, structure="no-limit"),
    )
    g.apply(Buy())  # Bob pays 2: 5 left
    g.apply(Trim())
    g.apply(Stay())  # Cat
    g.apply(Bet(target=1, amount=7))  # Ann attacks Bob with all of her 7
    assert g.owed() == 7 and g.stacks == (0, 5, 7)
    assert Call() in g.legal_actions()
    g.apply(Call())
    call = last(g, "call")
    assert call.rule == "R3.4" and call.amount == 5
    assert call.text == (
        "Bob calls with 5 chips (all-in); the 2 chips of Ann's attack that this call does not "
        "match go back to Ann."
    )
    assert g.put_in[0] == 1 + 7 - 2  # ante, attack, less the refund
    _chips_conserved(g)


def _stacked(players: int, stacks: list[int], rules: Rules, draws: str = "") -> Game:
    """Ann deals (seat 0), Bob acts first; banners of four suits, each seat its own stack."""
    deck = deck_for(
        players=players,
        dealer=0,
        banners={0: "As", 1: "Kh", 2: "Qd"},
        palaces={0: "2c 3c 4c", 1: "5c 6c 7c", 2: "8c 9c Tc"},
        draws=draws,
    )
    return Game.new(players=players, seed=1, rules=rules, deck=deck, dealer=0, stacks=stacks)


def test_R3_4_a_an_attack_of_2_called_all_in_with_3_gives_nothing_back():
    # RULES.md R3.4 a (settled 2026-12-04): the refund is chip for chip. In limit Bob's call
    # is sized by his own army (R7.6): with a soldier he owes 4 against Ann's attack of 2,
    # but his 3 chips match all of it, so nothing goes back (min(owed - paid, attack) gave 1).
    g = _stacked(3, [20, 6, 20], Rules(stacks=20), draws="Jd")
    g.apply(Buy())  # Bob pays 2: 3 chips left, one soldier
    g.apply(Trim())
    g.apply(Stay())  # Cat
    g.apply(Bet(target=1))  # Ann, no soldiers: (0 + 1) x 2 = 2
    assert g.owed() == 4 and g.stacks[1] == 3
    assert g.describe(Call()) == "Call all-in (3 chips)"
    g.apply(Call())
    call = last(g, "call")
    assert call.rule == "R3.4" and call.amount == 3 and call.detail["allin"]
    assert "back" not in call.detail and not call.chips[1:]
    assert call.text == "Bob calls with 3 chips (all-in)."
    assert g.put_in[0] == 1 + 2  # ante and the whole attack: none of it came back
    _chips_conserved_at(g, 20 + 6 + 20)


def test_R3_4_a_an_attack_of_6_called_all_in_with_4_gives_2_back():
    # Ann, two soldiers, attacks with (2 + 1) x 2 = 6; Bob, three soldiers, owes (3 + 1) x 2
    # = 8 but has 4: his 4 match 4 of the 6, and the other 2 go back to Ann (R3.4 a); the
    # formula min(owed - paid, attack) gave 4 back.
    g = _stacked(2, [20, 11], Rules(stacks=20), draws="Jd Qd Kd 2h 3h")
    for _ in range(5):  # Bob, Ann, Bob, Ann, Bob each buy and keep the card
        g.apply(Buy())
        g.apply(Trim())
    assert [len(g.soldiers(s)) for s in (0, 1)] == [2, 3] and g.stacks == (15, 4)
    g.apply(Bet(target=1))
    assert last(g, "bet").amount == 6 and g.owed() == 8
    g.apply(Call())
    call = last(g, "call")
    assert call.amount == 4 and call.detail["back"] == 2 and call.chips == ((1, -4), (0, 2))
    assert call.text == (
        "Bob calls with 4 chips (all-in); the 2 chips of Ann's attack that this call does not "
        "match go back to Ann."
    )
    assert g.put_in[0] == 1 + 4 + 6 - 2
    _chips_conserved_at(g, 31)


def test_R3_4_a_the_refund_is_never_more_than_the_call_fell_short_of_what_was_owed():
    # D4: in limit a defender with no soldiers owes 2 against an attack of 6 (R7.6), and a
    # full call of 2 gives nothing back; called all-in with 1, the call is 1 short, so 1 chip
    # goes back (not 5: a defender with fewer chips never costs the attacker less than one
    # who could pay in full, by more than the chip they lacked).
    g = _stacked(2, [20, 2], Rules(stacks=20), draws="Jd Qd")
    for _ in range(2):  # Bob (1 chip left after the ante) stays, Ann buys and keeps the card
        g.apply(Stay())
        g.apply(Buy())
        g.apply(Trim())
    g.apply(Stay())
    g.apply(Bet(target=1))  # Ann: (2 + 1) x 2 = 6
    assert g.owed() == 2 and g.stacks[1] == 1
    g.apply(Call())
    call = last(g, "call")
    assert call.amount == 1 and call.detail["back"] == 1
    assert g.put_in[0] == 1 + 4 + 6 - 1 and g.put_in[1] == 1 + 1
    _chips_conserved_at(g, 22)


def test_R3_4_b_an_attack_that_puts_its_maker_all_in_caps_the_call_whatever_its_size():
    # Limit: Ann's 2 chips are exactly her minimum attack, and all she has; Bob, with two
    # soldiers, would owe (2 + 1) x 2 = 6 (R7.6) but never more than Ann put in.
    g = _stacked(3, [3, 20, 20], Rules(stacks=20), draws="Jd 9d")
    g.apply(Buy())  # Bob
    g.apply(Trim())
    g.apply(Stay())  # Cat
    g.apply(Stay())  # Ann
    g.apply(Buy())  # Bob: two soldiers
    g.apply(Trim())
    g.apply(Stay())  # Cat
    g.apply(Bet(target=1))  # Ann: 2, all-in at the minimum
    assert g.stacks[0] == 0 and g.owed() == 2
    bet = last(g, "bet")
    assert bet.rule == "R7.3" and not bet.detail["allin"] and bet.detail["all_in"]
    assert "Bob's call is at most 2" in bet.text
    assert g.describe(Call()) == "Call (2 chips)"
    # no-limit with the call sized by the defender's own army: an attack above the minimum
    # that is everything its maker has caps the call the same way
    h = _stacked(
        3,
        [6, 20, 20],
        Rules(stacks=20, structure="no-limit", call_matches_attack=False),
        draws="Jd 9d 8d",
    )
    for _ in range(3):  # Bob buys three soldiers; Cat and Ann stay
        h.apply(Buy())
        h.apply(Trim())
        h.apply(Stay())
        if len(h.soldiers(1)) < 3:
            h.apply(Stay())
    h.apply(Bet(target=1, amount=5))  # Ann: all of her 5, more than her minimum of 2
    assert h.stacks[0] == 0 and h.owed() == 5  # Bob's own call would be (3 + 1) x 2 = 8


def test_R3_4_b_a_raise_that_puts_its_maker_all_in_is_called_for_at_most_the_raise():
    g = _stacked(3, [30, 13, 20], Rules(stacks=20, structure="no-limit"))
    g.apply(Bet(target=0, amount=4))  # Bob: 8 left
    g.apply(Raise(amount=4))  # Ann calls 4 and raises 4
    assert g.owed() == 4 and g.stacks[1] == 8
    g.apply(Raise(amount=4))  # Bob calls 4 and raises 4: all-in
    assert g.stacks[1] == 0 and g.owed() == 4  # Ann never owes more than Bob's raise
    assert kinds(g) == {"fold", "call"}  # and nobody raises a player with no chips (R3.4 c)
    g.apply(Call())
    assert last(g, "call").amount == 4 and g.put_in[1] == 1 + 4 + 8
    _chips_conserved_at(g, 63)


def _chips_conserved_at(g: Game, total: int) -> None:
    assert sum(g.put_in) == g.pot + sum(g.won)
    assert sum(g.stacks) + g.pot == total


def test_R3_4_a_raise_called_all_in_for_less_goes_back_to_the_raiser():
    deck = deck_for(
        players=3,
        dealer=0,
        banners={0: "As", 1: "Kh", 2: "Qd"},
        palaces={0: "2c 3c 4c", 1: "5c 6c 7c", 2: "8c 9c Tc"},
    )
    rules = Rules(stacks=20, structure="no-limit")
    g = Game.new(players=3, seed=1, rules=rules, deck=deck, dealer=0, stacks=[20, 6, 20])
    g.apply(Bet(target=0, amount=3))  # Bob attacks Ann with 3 of his 5
    g.apply(Raise(amount=4))  # Ann calls 3 and raises 4: Bob owes 4 but has 2
    assert g.owed() == 4 and g.stacks == (12, 2, 19)
    g.apply(Call())
    call = last(g, "call")
    assert call.rule == "R3.4" and call.amount == 2 and call.detail["back"] == 2
    assert g.put_in[0] == 1 + 7 - 2
    assert sum(g.put_in) == g.pot + sum(g.won)
    assert sum(g.stacks) + g.pot == 46


def test_R3_4_b_a_short_stack_attacks_all_in_and_the_call_is_at_most_that():
    g = scripted(
        3,
        {0: "As", 1: "Kh", 2: "Qd"},
        {0: "2c 3c 4c", 1: "5c 6c 7c", 2: "8c 9c Tc"},
        draws="Jd",
        rules=Rules(stacks=4),
    )
    g.apply(Buy())  # Bob pays 2: 1 chip left, one soldier: the minimum attack is 4
    g.apply(Trim())
    g.apply(Stay())  # Cat
    g.apply(Stay())  # Ann
    assert g.min_attack(1) == 4 and g.stacks[1] == 1
    assert Bet(target=0) in g.legal_actions()
    assert g.describe(Bet(target=0)) == "Attack Ann all-in (1 chip)"
    g.apply(Bet(target=0))
    bet = last(g, "bet")
    assert bet.rule == "R3.4" and bet.amount == 1 and bet.detail["allin"]
    assert bet.text == (
        "Bob attacks Ann all-in with 1 chip, less than the minimum of 4: Ann's call is at most 1."
    )
    assert g.owed() == 1  # Ann's own call would be 2 (R7.6), but at most the all-in attack
    _chips_conserved(g)


def test_R3_4_b_two_left_a_short_stack_need_not_fold():
    g = scripted(
        2,
        {0: "As", 1: "Kh"},
        {0: "2c 3c 4c", 1: "5c 6c 7c"},
        rules=Rules(stacks=2, two_left="at_once"),
    )
    assert g.stacks == (1, 1) and g.min_attack(1) == 2
    assert kinds(g) == {"bet", "fold"}  # before the revision (D6) Fold was the only choice
    g.apply(Bet(target=0))
    g.apply(Call())
    assert g.is_over and last(g, "battle").detail["battle"].winner is not None


def test_R3_4_c_no_raise_against_a_player_with_no_chips_left():
    g = scripted(
        3,
        {0: "As", 1: "Kh", 2: "Qd"},
        {0: "2c 3c 4c", 1: "5c 6c 7c", 2: "8c 9c Tc"},
        rules=Rules(stacks=3),
    )
    g.apply(Bet(target=0))  # Bob attacks Ann with his 2: nothing left
    assert g.stacks[1] == 0
    assert kinds(g) == {"fold", "call"}
    assert "no chips left" in g.why_illegal(Raise()) and "R3.4" in g.why_illegal(Raise())


def test_R4_1_one_face_up_banner_each_starting_left_of_dealer():
    g = Game.new(players=4, seed=9, dealer=2)
    banners = [e for e in g.events if e.kind == "banner"]
    assert [e.seat for e in banners] == [3, 0, 1, 2]
    assert all(g.banner(s) is not None for s in range(4))
    assert banners[0].rule == "R4.1"


@pytest.mark.parametrize("n", [2, 3, 4])
def test_R4_2_two_to_four_players_all_banner_suits_differ(n):
    for seed in range(30):
        g = Game.new(players=n, seed=seed)
        assert len({g.banner(s).suit for s in range(n)}) == n


def test_R4_2_groups_of_four_may_repeat_suits_across_groups():
    repeats = 0
    for seed in range(40):
        g = Game.new(players=10, seed=seed, dealer=0)
        order = [(1 + k) % 10 for k in range(10)]
        groups = [order[0:4], order[4:8], order[8:10]]
        for grp in groups:
            assert len({g.banner(s).suit for s in grp}) == len(grp)
        repeats += len({g.banner(s).suit for s in range(10)}) < 10
    assert repeats == 40  # ten players cannot all differ: suits repeat across groups (R4.5)


def test_R4_3_a_card_of_a_suit_taken_in_the_group_is_rejected_with_the_reason():
    g = scripted(
        3,
        {0: "Qd", 1: "As", 2: "Kh"},
        {0: "2c 3c 4c", 1: "5c 6c 7c", 2: "8c 9c Tc"},
        rejects={2: "7s", 0: "9h 4s"},
    )
    rej = [e for e in g.events if e.kind == "reject"]
    assert [(e.seat, str(e.cards[0])) for e in rej] == [(2, "7s"), (0, "9h"), (0, "4s")]
    assert rej[0].rule == "R4.3"
    assert "♠ is already Bob's banner in group A" in rej[0].text
    assert g.banner(2) == parse_cards("Kh")[0]


def test_R4_4_banner_rejects_are_reshuffled_when_the_deck_runs_out():
    spades = [f"{r}s" for r in "KQJT98765432"]
    hearts = [f"{r}h" for r in "QJT98765432"]
    diamonds = [f"{r}d" for r in "QJT98765432"]
    clubs_rest = [f"{r}c" for r in "AKQJT98765"]
    # deal order for dealer 0 of 6: seats 1-4 group A, seats 5, 0 group B
    deck = [
        "As",
        "Kh",
        "Kd",
        *spades,
        *hearts,
        *diamonds,
        "Ah",
        "Ad",
        "2c",
        "3c",
        "4c",
        *clubs_rest,
    ]
    g = Game.new(players=6, seed=4, deck=deck, dealer=0)
    resh = [e for e in g.events if e.kind == "reshuffle"]
    assert len(resh) == 1 and resh[0].rule == "R4.4"
    assert g.banner(0).suit.letter != "c"  # seat 0 (group B) needed a non-club banner
    assert sum(len(v) for v in g.zones().values()) == 52


# ---------------------------------------------------------------- R5
def test_R5_1_three_face_down_palace_cards_each_one_at_a_time():
    g = Game.new(players=4, seed=5, dealer=1)
    pal = [e for e in g.events if e.kind == "palace"]
    assert [e.seat for e in pal] == [2, 3, 0, 1] * 3
    assert all(len(g.palace(s)) == 3 for s in range(4))
    gather = next(e for e in g.events if e.kind == "gather" and e.rule == "R5.1")
    assert gather.index < pal[0].index


def test_R5_2_rest_is_the_draw_deck_and_discard_starts_empty():
    g = Game.new(players=4, seed=5)
    z = g.zones()
    assert len(z["deck"]) == 52 - 4 - 12 and z["discard"] == () and z["rejects"] == ()


def test_R5_3_a_seat_sees_only_its_own_palace(three):
    v = three.view(1)
    assert v.palace == three.palace(1)
    assert not set(three.palace(0)) & set(v.known)  # Ann's palace unknown to Bob
    assert set(three.palace(0)) <= v.unseen
    told = " ".join(three.history(v.seat))
    assert not any(c.symbol in told for c in three.palace(0))  # the log never names them


# ---------------------------------------------------------------- R6
def test_R6_1_play_starts_left_of_dealer_and_passes_left(three):
    assert three.to_act == 1
    three.apply(Stay())
    assert three.to_act == 2


def test_R6_2_buy_pays_small_bet_takes_top_card_then_discards_any(three):
    g = three
    g.apply(Buy())
    assert g.soldiers(1) == parse_cards("Jc") and g.pot == 5
    assert g.phase is Phase.TRIM_TO_FIVE and g.to_act == 1
    assert kinds(g) == {"trim"}
    g.apply(Trim(cards="Jc"))  # the new card itself may go
    assert g.soldiers(1) == () and g.zones()["discard"] == parse_cards("Jc")
    assert g.to_act == 2 and last(g, "trim").rule == "R6.2"


def test_R6_3_empty_deck_reshuffles_discards_and_buy_ends_when_both_are_empty():
    g = scripted(3, {0: "As", 1: "Kh", 2: "Qd"}, {0: "2c 3c 4c", 1: "5c 6c 7c", 2: "8c 9c Tc"})
    deck_size = len(g.zones()["deck"])
    for _ in range(deck_size):
        g.apply(Buy())
        g.apply(Trim(cards=g.soldiers(g.to_act)))
    assert g.zones()["deck"] == ()
    g.apply(Buy())
    resh = last(g, "reshuffle")
    assert resh.rule == "R6.3" and resh.index < last(g, "buy").index
    # eight players keeping every card empty both piles
    g8 = Game.new(players=8, seed=3, dealer=0)
    while g8.zones()["deck"] or g8.zones()["discard"]:
        g8.apply(Buy())
        g8.apply(Trim())
    assert "R6.3" in g8.why_illegal(Buy())
    assert Buy() not in g8.legal_actions()


def test_R6_4_discard_pays_and_needs_soldiers(three):
    g = three
    assert "R6.4" in g.why_illegal(Discard(cards="Jc"))
    g.apply(Buy())
    g.apply(Trim())
    g.apply(Stay())
    g.apply(Stay())
    paid = g.put_in[1]
    twice = Discard(cards="Jc Jc")
    assert g.why_illegal(twice) == "a card is named twice in J♣ J♣ (R6.4)"
    assert twice not in g.legal_actions()
    g.apply(Discard(cards="Jc"))  # quiet: Cat, Ann, Bob in turn -> the hand ends (R9.1)
    assert g.put_in[1] == paid + 2 and g.soldiers(1) == ()
    assert (
        last(g, "discard").rule == "R6.4" and Discard(cards="Jc").cards[0] in g.zones()["discard"]
    )
    g2 = scripted(
        3,
        {0: "As", 1: "Kh", 2: "Qd"},
        {0: "2c 3c 4c", 1: "5c 6c 7c", 2: "8c 9c Tc"},
        draws="Jc",
        rules=Rules(discard_cost=0),
    )
    g2.apply(Buy())
    g2.apply(Trim())
    g2.apply(Stay())
    g2.apply(Stay())
    paid = g2.put_in[1]
    g2.apply(Discard(cards="Jc"))
    assert g2.put_in[1] == paid


def test_R6_5_stay_does_nothing(three):
    before = three.zones()
    three.apply(Stay())
    assert three.zones() == before and three.pot == 3


def test_R6_6_fold_sends_all_cards_to_discard_and_chips_stay(three):
    three.apply(Fold())
    z = three.zones()
    assert set(z["discard"]) == set(parse_cards("Kh 5c 6c 7c"))
    assert three.pot == 3 and not three.active[1]


def test_R6_7_never_more_than_five_soldiers():
    g = scripted(
        3,
        {0: "As", 1: "Kh", 2: "Qd"},
        {0: "2c 3c 4c", 1: "5c 6c 7c", 2: "8c 9c Tc"},
        draws="8h 9h Th Jh Qh Kd",
    )
    # Bob buys six times; his buys keep restarting the quiet count (R9.1)
    for _ in range(5):
        g.apply(Buy())
        g.apply(Trim())
        g.apply(Stay())
        g.apply(Stay())
    g.apply(Buy())
    assert len(g.soldiers(1)) == 6
    assert "R6.7" in g.why_illegal(Trim())
    assert "R6.7" in g.why_illegal(Stay())
    g.apply(Trim(cards="8h"))
    assert len(g.soldiers(1)) == 5 and last(g, "trim").rule == "R6.7"


def test_R6_7_capture_over_five_must_trim():
    g = scripted(
        4,
        {0: "As", 1: "Kh", 2: "Qd", 3: "Jc"},
        {0: "2c 3c 4c", 1: "5c 6c 7c", 2: "8c 9c Tc", 3: "2s 3s 4s"},
        draws="8h 9h Th Jh 2d",
    )
    for _ in range(4):  # Bob buys four soldiers
        g.apply(Buy())
        g.apply(Trim())
        g.apply(Stay())
        g.apply(Stay())
        g.apply(Stay())
    g.apply(Bet(target=0))  # Bob attacks Ann
    g.apply(Fold())  # Ann folds: Bob captures As -> 5 soldiers: may keep all
    assert len(g.soldiers(1)) == 5 and Trim() in g.legal_actions()
    g.apply(Trim())
    g.apply(Buy())  # Cat buys 2d
    g.apply(Trim())
    g.apply(Stay())  # Dan
    g.apply(Bet(target=2))  # Bob attacks Cat
    g.apply(Fold())  # Cat folds: Bob captures Qd + 2d -> 7 soldiers
    assert len(g.soldiers(1)) == 7 and g.phase is Phase.TRIM_TO_FIVE
    assert last(g, "capture").text.endswith("must discard down to five (R6.7).")
    assert "R6.7" in g.why_illegal(Trim(cards="2d"))
    g.apply(Trim(cards="2d 8h"))
    assert len(g.soldiers(1)) == 5 and g.to_act == 3


# ---------------------------------------------------------------- R7
def test_R7_1_the_target_must_be_an_opponent_still_in(three):
    assert "R7.1" in three.why_illegal(Bet(target=1))
    assert "R7.1" in three.why_illegal(Bet(target=7))
    three.apply(Stay())
    three.apply(Fold())  # Cat folds
    assert "R7.1" in three.why_illegal(Bet(target=2))


def test_R7_2_same_banner_suit_may_not_battle():
    g = scripted(
        5,
        {1: "As", 2: "Kh", 3: "Qd", 4: "Jc", 0: "Ks"},
        {s: p for s, p in enumerate(["2c 3c 4c", "5c 6c 7c", "8c 9c Tc", "2d 3d 4d", "5d 6d 7d"])},
    )
    # seat 1 (group A) and seat 0 (group B) both have spade banners
    assert "R7.2" in g.why_illegal(Bet(target=0))
    assert Bet(target=0) not in g.legal_actions()
    assert Bet(target=2) in g.legal_actions()


def test_R7_3_minimum_attack_is_soldiers_plus_one_times_small_bet(three):
    g = three
    g.apply(Buy())
    g.apply(Trim())
    g.apply(Stay())
    g.apply(Stay())
    assert g.min_attack(1) == 4
    g.apply(Bet(target=2))
    assert last(g, "bet").amount == 4 and last(g, "bet").rule == "R7.3"


def test_R7_4_defender_answers_fold_call_or_raise(three):
    three.apply(Bet(target=0))
    assert three.phase is Phase.BATTLE_RESPONSE and three.to_act == 0
    assert kinds(three) == {"fold", "call", "raise"}
    assert "R7.4" in three.why_illegal(Stay())


def test_R7_5_defender_folds_attacker_captures_banner_and_soldiers(three):
    g = three
    g.apply(Bet(target=0))
    pot = g.pot
    g.apply(Fold())
    assert not g.active[0]
    assert set(g.soldiers(1)) == set(parse_cards("As"))
    assert set(g.zones()["discard"]) == set(parse_cards("2c 3c 4c"))
    assert g.pot == pot  # the attack stays in the pot
    assert g.phase is Phase.TRIM_TO_FIVE and g.to_act == 1
    g.apply(Trim())
    assert g.to_act == 2  # R8.7: left of the attacker


def test_R7_6_call_is_sized_by_the_callers_own_army(three):
    g = three
    g.apply(Buy())
    g.apply(Trim())
    g.apply(Stay())
    g.apply(Stay())
    g.apply(Bet(target=0))  # Bob has 1 soldier: attack 4
    assert g.owed() == 2  # Ann has no soldiers: (0 + 1) * 2
    g2 = scripted(
        3,
        {0: "As", 1: "Kh", 2: "Qd"},
        {0: "2c 3c 4c", 1: "5c 6c 7c", 2: "8c 9c Tc"},
        draws="Jc",
        rules=Rules(call_matches_attack=True),
    )
    g2.apply(Buy())
    g2.apply(Trim())
    g2.apply(Stay())
    g2.apply(Stay())
    g2.apply(Bet(target=0))
    assert g2.owed() == 4


def test_R7_6_a_no_limit_overbet_must_be_matched(three):
    g = scripted(
        3,
        {0: "As", 1: "Kh", 2: "Qd"},
        {0: "2c 3c 4c", 1: "5c 6c 7c", 2: "8c 9c Tc"},
        rules=Rules(structure="no-limit"),
    )
    g.apply(Bet(target=0, amount=12))  # Bob's minimum is 2: he attacks with 12
    assert g.owed() == 12  # the defender matches the attack (revised 2026-12)
    g.apply(Call())
    assert last(g, "call").amount == 12
    old = scripted(
        3,
        {0: "As", 1: "Kh", 2: "Qd"},
        {0: "2c 3c 4c", 1: "5c 6c 7c", 2: "8c 9c Tc"},
        rules=Rules(structure="no-limit", call_matches_attack=False),
    )
    old.apply(Bet(target=0, amount=12))
    assert old.owed() == 2  # forced False: each stake sized by its own army


def test_R7_6_call_matches_attack_none_means_by_structure():
    assert Rules().calls_match_attack is False
    assert Rules(structure="no-limit").calls_match_attack is True
    assert Rules(call_matches_attack=True).calls_match_attack is True
    assert Rules(structure="no-limit", call_matches_attack=False).calls_match_attack is False
    with pytest.raises(RulesError, match=r"R7\.6"):
        Rules(call_matches_attack="yes")


def test_R7_7_limit_raise_is_big_bet_or_two_small_without_soldiers(three):
    g = three
    g.apply(Bet(target=0))  # Ann has no soldiers
    g.apply(Raise())
    r = last(g, "raise")
    assert r.amount == 2 + 4 and r.rule == "R7.7"  # call 2, then 2 x s = 4
    g3 = scripted(
        3,
        {0: "As", 1: "Kh", 2: "Qd"},
        {0: "2c 3c 4c", 1: "5c 6c 7c", 2: "8c 9c Tc"},
        draws="Jc Qc",
        rules=Rules(max_raises=1),
    )
    g3.apply(Stay())
    g3.apply(Stay())
    g3.apply(Buy())  # Ann buys Jc
    g3.apply(Trim())
    g3.apply(Bet(target=0))  # Bob attacks Ann (1 soldier)
    g3.apply(Raise())
    assert last(g3, "raise").amount == 4 + 4  # call (1+1)*2, raise b = 4
    assert "R7.7" in g3.why_illegal(Raise())  # max_raises reached


def test_R7_7_no_limit_raise_at_least_big_bet(three):
    g = scripted(
        3,
        {0: "As", 1: "Kh", 2: "Qd"},
        {0: "2c 3c 4c", 1: "5c 6c 7c", 2: "8c 9c Tc"},
        rules=Rules(structure="no-limit"),
    )
    g.apply(Bet(target=0))
    assert "R7.7" in g.why_illegal(Raise(amount=3))
    g.apply(Raise(amount=20))
    assert last(g, "raise").amount == 22


def test_R7_8_raises_go_back_and_forth_until_call(three):
    g = three
    g.apply(Bet(target=0))
    g.apply(Raise())
    assert g.to_act == 1 and kinds(g) == {"fold", "call", "raise"}
    g.apply(Raise())
    assert last(g, "raise").rule == "R7.8" and g.to_act == 0
    pot = g.pot
    g.apply(Call())
    assert g.pot == pot + 4
    assert last(g, "call").rule == "R7.8"


def test_R7_9_folding_to_a_raise_returns_the_uncalled_raise(three):
    g = three
    g.apply(Bet(target=0))  # Bob 2
    g.apply(Raise())  # Ann 2 + 4
    pot = g.pot
    g.apply(Fold())  # Bob folds to the raise
    assert last(g, "fold").rule == "R7.9"
    assert g.pot == pot - 4 and g.won[0] == 0 and g.put_in[0] == 1 + 2
    assert not g.active[1] and set(g.soldiers(0)) == set(parse_cards("Kh"))


# ---------------------------------------------------------------- R8
def battle(att_banner, att_pal, def_banner, def_pal, cat="Jd 3d 4d 5d"):
    """Bob (1) attacks Ann (0) at once; Cat (2) watches."""
    cb, *cp = cat.split()
    g = scripted(
        3, {0: def_banner, 1: att_banner, 2: cb}, {0: def_pal, 1: att_pal, 2: " ".join(cp)}
    )
    g.apply(Bet(target=0))
    g.apply(Call())
    return g, last(g, "battle")


def test_R8_1_the_whole_army_counts():
    g, ev = battle("Kh", "Kc Kd 2c", "As", "Ac 3c 7d")
    res = ev.detail["battle"]
    assert res.attacker_hand.describe().startswith("Three kings")
    assert res.winner == "attacker"


def test_R8_2_cards_of_the_opponents_banner_suit_do_not_count():
    g, ev = battle("Kh", "Qs Js Ts", "As", "Ac Ad 2c")
    res = ev.detail["battle"]  # Ann's spade banner takes Bob's three spades away
    assert res.attacker_hand.excluded == parse_cards("Qs Js Ts")
    assert res.attacker_hand.counting == parse_cards("Kh") and res.winner == "defender"
    g, ev = battle("Ks", "Qs Js Ts", "Ah", "9s 2c 3c")
    res = ev.detail["battle"]
    assert res.defender_hand.excluded == parse_cards("9s")
    assert "lost: 9♠" in ev.text


def test_R8_3_short_hands_rank_from_the_cards_they_have():
    g, ev = battle("Kh", "Kc Kd 7h", "As", "Ah Ad Qh")
    res = ev.detail["battle"]
    # Ann loses Ah, Qh to Bob's hearts: pair of aces, short; Bob: three kings
    assert res.defender_hand.is_short and res.defender_hand.describe().startswith("Pair of aces")
    assert res.winner == "attacker"


def test_R8_4_loser_is_out_and_winner_captures():
    g, ev = battle("Kh", "Kc Kd 2c", "As", "Ac 3c 7d")
    assert ev.rule == "R8.4" and not g.active[0]
    assert set(g.soldiers(1)) == set(parse_cards("As"))
    assert set(parse_cards("Ac 3c 7d")) <= set(g.zones()["discard"])


def test_R8_5_tie_goes_to_more_cards_of_own_banner_suit():
    g, ev = battle("Kh", "Qh 9c 2c", "Ks", "Qd 9d 2d", cat="Jc 3c 4c 5c")
    res = ev.detail["battle"]
    assert res.attacker_hand == res.defender_hand  # K Q 9 2 each
    assert (res.attacker_banner_count, res.defender_banner_count) == (2, 1)
    assert ev.rule == "R8.5" and res.decided_by == "banner_count" and res.winner == "attacker"
    assert not g.active[0]


def test_R8_6_still_tied_both_out_unless_last_two():
    g, ev = battle("Kh", "Qc 9c 2c", "Ks", "Qd 9d 2d", cat="Jc 3d 4d 5d")
    assert ev.rule == "R8.6" and ev.detail["battle"].winner is None
    assert not g.active[0] and not g.active[1]
    assert g.is_over and g.result.winners == (2,)  # Cat is the last one standing (R10.1)


def test_R8_6_last_two_tied_share_the_pot():
    g = scripted(2, {0: "Ks", 1: "Kh"}, {0: "Qd 9d 2d", 1: "Qc 9c 2c"})
    g.apply(Bet(target=0))
    g.apply(Call())
    assert g.is_over and g.result.reason == "battle tie"
    assert sorted(g.result.winners) == [0, 1]
    assert sum(g.result.shares.values()) == g.won[0] + g.won[1]


def test_R8_7_play_passes_left_of_the_attacker():
    g = scripted(
        4,
        {0: "As", 1: "Kh", 2: "Qd", 3: "Jc"},
        {0: "2c 3c 4c", 1: "5c 6c 7c", 2: "8c 9c Tc", 3: "2d 3d 4d"},
    )
    g.apply(Stay())  # Bob
    g.apply(Bet(target=0))  # Cat attacks Ann
    g.apply(Fold())
    g.apply(Trim())
    assert g.to_act == 3


# ---------------------------------------------------------------- R9
def test_R9_1_quiet_round_ends_in_showdown(three):
    g = three
    g.apply(Stay())
    g.apply(Stay())
    assert not g.is_over
    g.apply(Stay())
    assert g.is_over and any(e.kind == "quiet_round" and e.rule == "R9.1" for e in g.events)


def test_R9_1_a_buy_restarts_the_count(three):
    g = three
    g.apply(Stay())
    g.apply(Buy())
    g.apply(Trim())
    g.apply(Stay())
    g.apply(Stay())
    assert not g.is_over
    g.apply(Stay())
    assert g.is_over


def test_R9_1_variant_quiet_actions():
    g = scripted(
        3,
        {0: "As", 1: "Kh", 2: "Qd"},
        {0: "2c 3c 4c", 1: "5c 6c 7c", 2: "8c 9c Tc"},
        rules=Rules(quiet_actions=("discard",)),
    )
    for _ in range(6):
        g.apply(Stay())
    assert not g.is_over


def test_R9_2_last_one_standing_ends_the_hand(three):
    three.apply(Fold())
    three.apply(Fold())
    assert three.is_over and three.result.winners == (0,) and three.result.rule == "R10.1"


def test_R9_3_at_once_two_left_must_bet_or_fold_at_once():
    g = scripted(
        3,
        banners={0: "As", 1: "Kh", 2: "Qd"},
        palaces={0: "2c 3c 4c", 1: "5c 6c 7c", 2: "8c 9c Tc"},
        rules=Rules(two_left="at_once"),
    )
    g.apply(Fold())  # Bob folds: Cat and Ann are left
    assert kinds(g) == {"bet", "fold"}
    assert "R9.3" in g.why_illegal(Stay()) and "R9.3" in g.why_illegal(Buy())
    told = last(g, "two_left")
    assert told.rule == "R9.3" and told.seat == 2
    assert told.text == (
        "Only Ann and Cat are left, with different banner suits: they must battle, so Cat may "
        "only Bet or Fold."
    )
    g.apply(Bet(target=0))
    g.apply(Call())
    assert g.is_over


def test_R9_3_at_once_makes_a_two_player_hand_one_battle_without_soldiers():
    g = Game.new(players=2, seed=3, rules=Rules(two_left="at_once"))
    assert g.must_battle and kinds(g) == {"bet", "fold"}
    assert last(g, "two_left").index == len(g.events) - 1


def test_R9_3_two_players_buy_soldiers_before_the_forced_battle():
    g = scripted(
        2,
        banners={0: "As", 1: "Kh"},
        palaces={0: "2c 3c 4c", 1: "5c 6c 7c"},
        draws="Qs Qh",
    )
    assert not g.must_battle and "buy" in kinds(g)  # R9.3 default: play goes on as usual
    g.apply(Buy())  # Bob (seat 1) buys Qs
    g.apply(Trim())
    g.apply(Buy())  # Ann buys Qh
    g.apply(Trim())
    g.apply(Stay())  # Bob
    assert "stay" in kinds(g)  # one quiet action is not yet both
    g.apply(Stay())  # Ann stayed after Bob: now Bob must battle
    assert g.must_battle and kinds(g) == {"bet", "fold"} and g.to_act == 1
    told = last(g, "two_left")
    assert told.text == "Ann stayed after Bob: with two left, Bob must now Bet or Fold."
    assert str(told).endswith("(R9.3)")
    assert "R9.3" in g.why_illegal(Buy())
    assert g.soldiers(0) == parse_cards("Qh") and g.soldiers(1) == parse_cards("Qs")
    g.apply(Bet(target=0))
    g.apply(Call())
    assert g.is_over and last(g, "battle") is not None


def test_R9_3_a_quiet_round_no_longer_ends_a_hand_of_two():
    g = scripted(2, banners={0: "As", 1: "Kh"}, palaces={0: "2c 3c 4c", 1: "5c 6c 7c"})
    g.apply(Stay())
    g.apply(Stay())
    assert not g.is_over and not any(e.kind == "quiet_round" for e in g.events)
    assert kinds(g) == {"bet", "fold"}


def test_R9_3_three_players_become_two_by_a_fold(three):
    three.apply(Stay())  # Bob
    three.apply(Fold())  # Cat: Ann and Bob are left
    assert not three.must_battle  # Ann has not yet taken a quiet action
    assert {"buy", "stay", "bet", "fold"} <= kinds(three)
    three.apply(Stay())  # Ann stays after Bob: both quiet, one after the other
    assert three.must_battle and three.to_act == 1
    assert last(three, "two_left").text == (
        "Ann stayed after Bob: with two left, Bob must now Bet or Fold."
    )


@pytest.mark.parametrize("two_left", ["after_quiet_round", "at_once"])
def test_R9_3_bots_play_heads_up_under_both_readings(two_left):
    buys = battles = 0
    for seed in range(60):
        g = Game.new(players=2, seed=seed, rules=Rules(two_left=two_left))
        play_out(g, {0: RuleBot(), 1: OddsBot()})
        assert g.is_over
        buys += sum(e.kind == "buy" for e in g.events)
        battles += sum(e.kind == "battle" for e in g.events)
    if two_left == "at_once":
        assert buys == 0  # only Bet and Fold are ever offered
    else:
        assert buys >= 60  # the bots build an army before the forced battle
    assert battles > 0


def test_R9_3_a_buy_restarts_the_count(three):
    three.apply(Fold())  # Bob folds: Cat and Ann are left
    three.apply(Stay())  # Cat
    three.apply(Buy())  # Ann buys: not quiet
    three.apply(Trim())
    assert not three.must_battle
    three.apply(Stay())  # Cat
    assert not three.must_battle  # Ann's last action was a Buy
    three.apply(Stay())  # Ann
    assert three.must_battle and three.to_act == 2


def test_R9_4_same_banner_left_share_the_pot():
    g = scripted(
        5,
        {1: "As", 2: "Kh", 3: "Qd", 4: "Jc", 0: "Ks"},
        {s: p for s, p in enumerate(["2c 3c 4c", "5c 6c 7c", "8c 9c Tc", "2d 3d 4d", "5d 6d 7d"])},
        rules=Rules(ante=1),
    )
    g.apply(Stay())  # seat 1
    g.apply(Fold())  # 2
    g.apply(Fold())  # 3
    g.apply(Fold())  # 4 -> seats 0 and 1, both spades
    assert g.is_over and g.result.reason == "same banner" and g.result.rule == "R10.2"
    assert g.result.shares == {1: 3, 0: 2}  # R10.4: odd chip to the sharer nearest dealer's left


def test_D22_a_hand_without_quiet_actions_ends_at_its_turn_limit():
    g = Game.new(players=3, seed=4, rules=Rules(quiet_actions=(), max_turns=12))
    while not g.is_over:
        g.apply(Stay())  # nothing is quiet, so stays never end the hand by R9.1
    assert g.turns == 12
    limit = last(g, "turn_limit")
    assert limit.rule == "D22" and "limit of 12 turns" in limit.text
    assert g.result.reason == "showdown" and last(g, "showdown").rule == "R10.3"


def test_D22_max_turns_is_validated():
    with pytest.raises(RulesError, match="max_turns"):
        Rules(max_turns=0)


# ---------------------------------------------------------------- R10
def test_R10_3_showdown_without_exclusion_best_hand_wins(three):
    g = three  # Ann 2c3c4c+As, Bob 5c6c7c+Kh, Cat 8c9cTc+Qd
    g.apply(Stay())
    g.apply(Stay())
    g.apply(Stay())
    assert g.result.reason == "showdown" and g.result.winners == (0,)  # ace high
    sd = last(g, "showdown")
    assert sd.rule == "R10.3" and "no exclusion" in sd.text


def test_R10_4_odd_chips_go_to_sharers_nearest_the_dealers_left():
    from palace.play import split

    assert split(7, (0, 2), dealer=1, players=4) == {2: 4, 0: 3}
    assert split(7, (0, 2), dealer=3, players=4) == {0: 4, 2: 3}
    assert split(10, (1, 2, 3), dealer=0, players=4) == {1: 4, 2: 3, 3: 3}


def test_R11_illegal_action_names_the_rule_and_changes_nothing(three):
    before = three.to_dict()
    with pytest.raises(IllegalActionError, match=r"R7\.1"):
        three.apply(Bet(target=1))
    assert three.to_dict() == before


def test_R4_5_same_suit_banners_across_groups_never_battle():
    g = Game.new(players=8, seed=4, dealer=0)
    pairs = [
        (a, b)
        for a in range(8)
        for b in range(8)
        if a != b and g.banner(a).suit == g.banner(b).suit
    ]
    assert pairs  # eight players: suits repeat (R4.5)
    seat = g.to_act
    for a, b in pairs:
        if a == seat:
            assert "R7.2" in g.why_illegal(Bet(target=b))


def test_R10_1_last_player_standing_takes_the_whole_pot(three):
    three.apply(Bet(target=0))  # Bob attacks Ann: 2 more chips
    three.apply(Fold())
    three.apply(Trim())
    three.apply(Fold())  # Cat folds: Bob is alone
    assert three.result.rule == "R10.1" and three.result.shares == {1: 5}
    assert three.won == (0, 5, 0) and three.pot == 0


def test_R10_2_same_banner_players_share_equally():
    g = scripted(
        5,
        {1: "As", 2: "Kh", 3: "Qd", 4: "Jc", 0: "Ks"},
        {s: p for s, p in enumerate(["2c 3c 4c", "5c 6c 7c", "8c 9c Tc", "2d 3d 4d", "5d 6d 7d"])},
        rules=Rules(ante=2),
    )
    g.apply(Stay())  # Bob (seat 1, spades)
    g.apply(Fold())
    g.apply(Fold())
    g.apply(Fold())  # only the two spade banners are left (R9.4)
    assert g.is_over and g.result.rule == "R10.2"
    assert g.result.shares == {1: 5, 0: 5} and g.won == (5, 5, 0, 0, 0)
