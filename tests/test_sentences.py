"""Every sentence Palace says is grammatical and complete (R11): events, action labels, refusals.

Seeded random hands under every named variant, and under each with small chip stacks (so
all-in attacks and calls occur, R3.4), give thousands of event sentences, action labels and
refusal reasons. Each is checked for number agreement, zero counts, joined lists, one card
notation (the suit symbols), the cost on every label of an action that costs chips, and,
for every battle and quiet-round showdown, each side's best five and the cards that decided
it. The checks are tested first on the sentences they must refuse.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from dataclasses import dataclass, field, replace

import pytest
from conftest import scripted

from palace import (
    Army,
    Bet,
    Buy,
    Call,
    Discard,
    Game,
    Hand,
    IllegalActionError,
    Phase,
    Raise,
    Rules,
    Stay,
    Trim,
    resolve_battle,
)
from palace.analysis.variants import VARIANTS
from palace.table import DEFAULT_NAMES
from palace.widgets.labels import rules_words

NAMES = DEFAULT_NAMES
NOUNS = r"(?:chip|soldier|card|turn|raise|banner reject|counting card|player)"

# ------------------------------------------------------------------ the checks


def agreement(text: str) -> list[str]:
    """Number agreement: "1 chip", "2 chips"; "the 1 chip ... goes", "the 2 chips ... go"."""
    bad = [m.group(0) for m in re.finditer(rf"(?<![\d.,])1 {NOUNS}s\b", text)]
    bad += [m.group(0) for m in re.finditer(rf"(?<![\d.,])(?:[02-9]|\d\d+) {NOUNS}\b(?!s)", text)]
    one_verb = rf"\b[Tt]he 1 {NOUNS}\b[^.;:,]*?\b(?:go|are|were|have)\b"
    many_verb = rf"\b[Tt]he (?:[02-9]|\d\d+) {NOUNS}s\b[^.;:,]*?\b(?:goes|is|was|has)\b"
    bad += [m.group(0) for m in re.finditer(one_verb, text)]
    bad += [m.group(0) for m in re.finditer(many_verb, text)]
    return bad


def zero_counts(text: str) -> list[str]:
    """A count of nothing said as a number: "0 banner rejects", "with 0 chips"."""
    return [m.group(0) for m in re.finditer(r"(?<![\d.,/+-])0 (?=[a-z])\w+", text)]


_ITEM = rf"(?:{'|'.join(NAMES)})(?: (?:\d+|nothing))?"
_RUN = re.compile(rf"\b{_ITEM}(?:(?:, | and ){_ITEM})+\b")


def lists(text: str) -> list[str]:
    """Players joined as in English: "Ann, Bob and Cat" (not "Ann and Bob and Cat", nor a
    list without "and")."""
    bad = []
    for m in _RUN.finditer(text):
        seps = re.findall(r", | and ", m.group(0))
        if seps != [", "] * (len(seps) - 1) + [" and "]:
            bad.append(m.group(0))
    return bad


def notation(text: str) -> list[str]:
    """Cards in letters ("Kc", "Th") where Palace writes suit symbols ("K♣", "10♥")."""
    return re.findall(r"\b(?:[2-9TJQKA][cdhs])\b", text)


def complete(text: str) -> list[str]:
    """An event sentence starts with a capital (or a card) and ends with a full stop."""
    bad = []
    if not re.match(r"[A-Z0-9]", text):
        bad.append(f"starts with {text[:1]!r}")
    if not text.endswith("."):
        bad.append("no full stop at the end")
    if "  " in text or " ." in text or " ," in text or ".." in text:
        bad.append("stray spacing or stops")
    return bad


def faults(text: str, *, sentence: bool = False) -> list[str]:
    found = agreement(text) + zero_counts(text) + lists(text) + notation(text)
    return found + (complete(text) if sentence else [])


def cards(hand: Hand) -> str:
    return " ".join(c.symbol for c in hand.best)


def decided_by(a: Hand, b: Hand) -> tuple[str, str] | None:
    """The first cards where two hands of one category differ, as symbols ("" for a
    missing card of a short hand, R8.3); None when the categories differ or they are equal."""
    if a.category != b.category or a == b:
        return None
    for i in range(5):
        ca = a.best[i].symbol if i < len(a.best) else ""
        cb = b.best[i].symbol if i < len(b.best) else ""
        if not ca or not cb or a.best[i].rank != b.best[i].rank:
            return ca, cb
    return None


def test_the_checks_catch_the_sentences_the_issue_quotes():
    assert agreement("Attack Bob (1 chips)")
    assert agreement("Ann has 1 chips, less than the minimum attack of 2")
    assert agreement("cannot afford a Buy of 2 with 1 chips left")
    assert agreement("the 1 chip this call does not match go back to Ann")
    assert agreement("Ann captures K♣ as 1 soldiers") and not agreement("Bob has 2 chips left")
    assert zero_counts("The 0 banner rejects are gathered with the rest of the deck.")
    assert zero_counts("Bob calls with 0 chips (all-in).") and not zero_counts("(0 + 1) × 2")
    assert lists("Ann and Bob and Cat tie with aces: only they draw again.")
    assert lists("Only ♥ banners are left (Ann, Bob): no battle is possible.")
    assert lists("The pot of 11 chips is shared (Ann 6, Bob 5): their best hands are equal.")
    assert not lists("Ann, Bob and Cat tie with aces.") and not lists("Ann 6 and Bob 5")
    assert notation("Discard Kc 7h") and not notation("Discard K♣ 7♥")
    assert complete("Ann stays") and not complete("Ann stays.")
    # a cost the label does not say, and a showdown without the best five
    assert not re.search(r"\b2 chips\b", "Call")
    assert "9♠" not in "Showdown, no exclusion: Ann: Pair of nines; Bob: Pair of nines."


# ------------------------------------------------------------------ battles and showdowns


@pytest.mark.parametrize(
    ("ann", "bob", "says"),
    [
        # the category ties: the first card that differs decides it (R8.4)
        (("Kh", "", "9h 9c 5d"), ("As", "", "9d 9s 3c"), "Bob's A♠ beats Ann's K♥."),
        # a missing card ranks below every card (R8.3)
        (("Kh", "", "Qd 7s 6s"), ("2s", "", "Kd Qc 3h"), "as Ann has only 2 counting cards."),
        # equal card for card: the banner count decides it (R8.5), or nothing does (R8.6)
        (("Kh", "", "9h 9c 2h"), ("Ks", "", "9d 9s 2c"), "(3 against 2)."),
        (("Kh", "", "9h 9c 2d"), ("Ks", "", "9d 9s 2c"), "each holds 2 cards of their own"),
        # another category: the names of the hands say why
        (("Kh", "Kd 7c", "9d 4c 2c"), ("As", "Qs 3h", "Jd 8h 5c"), "spades lost)"),
    ],
)
def test_a_battle_names_both_best_fives_and_what_decided_it(ann, bob, says):
    ah, bh = Army.parse(*ann), Army.parse(*bob)
    res = resolve_battle(ah, bh)
    text = res.explain("Ann", "Bob", cite=False)
    assert cards(res.attacker_hand) in text and cards(res.defender_hand) in text
    assert says in text and not faults(text, sentence=True)


def test_a_showdown_names_every_best_five_and_the_kicker_that_won():
    g = scripted(3, {0: "As", 1: "Kh", 2: "Qd"}, {0: "9c 9h 2c", 1: "9d 9s 3c", 2: "8c 7c 4c"})
    for _ in range(3):
        g.apply(Stay())  # a quiet round (R9.1): the hand ends in a showdown (R10.3)
    (e,) = [e for e in g.events if e.kind == "showdown"]
    assert e.text == (
        "Showdown, no exclusion: Ann: Pair of nines (9♥ 9♣ A♠ 2♣; short: 4 counting cards); "
        "Bob: Pair of nines (9♠ 9♦ K♥ 3♣; short: 4 counting cards); Cat: High card queen "
        "(Q♦ 8♣ 7♣ 4♣; short: 4 counting cards). Ann's hand is best: Ann's A♠ beats Bob's K♥."
    )
    assert g.result.text == "Ann takes the pot of 3 chips with the best hand."


# ------------------------------------------------------------------ the hands


def rule_sets() -> dict[str, Rules]:
    """Every named variant as it is, and with small stacks (all-in attacks and calls)."""
    out: dict[str, Rules] = {}
    for i, (slug, v) in enumerate(VARIANTS.items()):
        out[slug] = v.rules
        out[f"{slug}, {3 + i % 5} chips"] = replace(v.rules, stacks=3 + i % 5)
    return out


@dataclass
class Said:
    """What one rule set's hands said, with the faults found."""

    faults: list[str] = field(default_factory=list)
    events: int = 0
    labels: int = 0
    refusals: int = 0
    costs: set[str] = field(default_factory=set)
    kinds: set[str] = field(default_factory=set)
    seen: set[str] = field(default_factory=set)

    def check(self, what: str, text: str, *, sentence: bool = False) -> None:
        if text in self.seen:
            return
        self.seen.add(text)
        for fault in faults(text, sentence=sentence):
            self.faults.append(f"{what} {text!r}: {fault!r}")


def cost_of(g: Game, action: object) -> int | None:
    """What an action costs its player, worked out from the rules (not from the label)."""
    seat = g.to_act
    stack = g.stacks[seat] if g.stacks is not None else None
    r = g.rules
    if isinstance(action, Buy):
        return r.small_bet
    if isinstance(action, Discard):
        return r.discard_amount or None
    if isinstance(action, Bet):
        low = g.min_attack(seat)
        if action.amount is not None:
            return action.amount
        return stack if stack is not None and stack < low else low
    if isinstance(action, Call):
        return g.owed() if stack is None else min(g.owed(), stack)
    if isinstance(action, Raise):
        return g.owed() + (action.amount if action.amount is not None else g.raise_size())
    return None


def says_cost(label: str, cost: int) -> bool:
    if cost == 0:
        return "no chips" in label
    return re.search(rf"\b{cost} chips?\b", label) is not None


def probes(g: Game, rng: random.Random) -> Iterator[object]:
    """Actions to ask about now, legal or not, for the refusals they give."""
    seat = g.to_act
    assert seat is not None
    soldiers = g.soldiers(seat)
    yield from (Buy(), Stay(), Call(), Raise(), Trim(), Trim(cards=soldiers))
    if soldiers:
        yield Discard(cards=soldiers[:1])
    yield Discard(cards=g.palace(seat)[:1])
    for t in range(g.players):
        yield Bet(target=t)
    low = g.min_attack(seat)
    yield Bet(target=(seat + 1) % g.players, amount=low + 1 + rng.randrange(9))
    yield Bet(target=(seat + 1) % g.players, amount=max(low - 1, 0))
    yield Raise(amount=1 + rng.randrange(3 * g.rules.big_bet))


def choose(g: Game, rng: random.Random) -> object:
    """A random legal action: a kind first (so no kind crowds out the others), then one of it;
    in no-limit, sometimes an attack or raise of another size, all-in ones included."""
    legal = g.legal_actions()
    seat = g.to_act
    if g.rules.no_limit and rng.random() < 0.4:
        stack = g.stacks[seat] if g.stacks is not None else 30
        bets = [a for a in legal if isinstance(a, Bet)]
        if bets and rng.random() < 0.5:
            amount = rng.choice([stack, g.min_attack(seat) + rng.randrange(6)])
            bet = Bet(target=rng.choice(bets).target, amount=amount)
            if g.why_illegal(bet) is None:
                return bet
        if any(isinstance(a, Raise) for a in legal):
            room = stack - g.owed()
            raise_ = Raise(amount=rng.choice([room, g.rules.big_bet + rng.randrange(5)]))
            if g.why_illegal(raise_) is None:
                return raise_
    kinds = sorted({a.kind for a in legal})
    kind = rng.choice(kinds)
    return rng.choice([a for a in legal if a.kind == kind])


def check_battle(said: Said, e) -> None:
    res = e.detail["battle"]
    a, d = e.names[e.detail["attacker"]], e.names[e.detail["defender"]]
    ah, dh = res.attacker_hand, res.defender_hand
    for who, h in ((a, ah), (d, dh)):
        if cards(h) not in e.text:
            said.faults.append(f"battle {e.text!r}: {who}'s best five {cards(h)} not named")
    deciding = decided_by(ah, dh) if res.winner == "attacker" else decided_by(dh, ah)
    for c in deciding or ():
        if c and c not in e.text.split(":")[-1]:
            said.faults.append(f"battle {e.text!r}: the deciding card {c} is not named")
    if res.decided_by == "banner_count":
        counts = sorted((res.attacker_banner_count, res.defender_banner_count), reverse=True)
        if f"{counts[0]} against {counts[1]}" not in e.text:
            said.faults.append(f"battle {e.text!r}: the banner counts (R8.5) are not named")


def check_showdown(said: Said, e) -> None:
    hands = e.detail["hands"]
    for s, h in hands.items():
        if f"{e.names[s]}: " not in e.text or cards(h) not in e.text:
            said.faults.append(f"showdown {e.text!r}: {e.names[s]}'s best five not named")
    best = max(hands.values())
    top = [s for s, h in hands.items() if h == best]
    verdict = e.text.split(". ", 1)[-1]
    if len(top) == 1:
        (w,) = top
        if f"{e.names[w]}'s hand is best" not in verdict:
            said.faults.append(f"showdown {e.text!r}: the best hand's player is not named")
        for s, h in hands.items():
            deciding = decided_by(best, h) if s != w else None
            for c in deciding or ():
                if c and c not in verdict:
                    said.faults.append(f"showdown {e.text!r}: the deciding card {c} not named")


def play(rules: Rules, hands: int, seed: int) -> Said:
    said = Said()
    rng = random.Random(seed)
    for i in range(hands):
        players = 2 + i % 5
        g = Game.new(players=players, seed=seed * 1000 + i, rules=rules)
        while not g.is_over:
            for probe in probes(g, rng):
                why = g.why_illegal(probe)
                if why is not None:
                    said.refusals += 1
                    said.check("refusal", why)
            action = choose(g, rng)  # a no-limit size of its own, maybe: labelled too
            for offered in [*g.legal_actions(), action]:
                label = g.describe(offered)
                said.labels += 1
                said.check("label", label)
                cost = cost_of(g, offered)
                if cost is not None:
                    said.costs.add(offered.kind)
                    if not says_cost(label, cost):
                        said.faults.append(f"label {label!r}: does not say its cost {cost}")
            if g.phase is Phase.TURN and rng.random() < 0.05:
                try:
                    g.apply(Trim())  # refused on a turn: the refusal is said in full
                except IllegalActionError as exc:
                    said.check("refusal", str(exc))
            g.apply(action)
        for e in g.events:
            said.events += 1
            said.kinds.add(e.kind)
            said.check("event", e.text, sentence=True)
            if e.kind == "battle":
                check_battle(said, e)
            elif e.kind == "showdown":
                check_showdown(said, e)
        said.check("pot", g.result.text, sentence=True)
    return said


@pytest.mark.parametrize(("name", "rules"), list(rule_sets().items()))
def test_every_sentence_of_random_hands_is_grammatical_and_complete(name, rules):
    said = play(rules, hands=140, seed=sum(map(ord, name)))
    assert not said.faults, f"{len(said.faults)} faults, e.g.\n" + "\n".join(said.faults[:12])
    # the hands said enough for the checks to mean something
    assert said.events > 5_000 and said.labels > 1_000 and said.refusals > 1_000
    assert {"buy", "bet", "call"} <= said.costs
    assert {"battle", "capture", "pot"} <= said.kinds


def test_the_stacks_hands_reach_all_in_attacks_calls_and_refunds():
    """The small-stack hands above do reach the R3.4 protections whose sentences they check."""
    seen: set[str] = set()
    rules = Rules(stacks=4)
    for i in range(140):
        g = Game.new(players=2 + i % 5, seed=i, rules=rules)
        rng = random.Random(i)
        while not g.is_over:
            g.apply(choose(g, rng))
        for e in g.events:
            if e.kind == "bet" and e.detail["allin"]:
                seen.add("all-in attack")
            if e.kind == "call" and e.detail.get("allin"):
                seen.add("all-in call")
            if e.kind == "call" and e.detail.get("back"):
                seen.add("refund")
    assert seen == {"all-in attack", "all-in call", "refund"}


def test_the_words_for_a_tables_rules_agree_in_number():
    tables = [
        *rule_sets().values(),
        Rules(stacks=1, ante=1, discard_cost=1, max_raises=1, max_turns=1),
        Rules(ante=0, max_raises=0, quiet_actions=("stay", "discard")),
    ]
    said = {rules_words(r) for r in tables}
    assert "at most 1 raise a battle" in rules_words(tables[-2])
    assert [f for words in said for f in faults(words)] == []
