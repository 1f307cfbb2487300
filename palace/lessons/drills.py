"""Drill questions from random positions: each generator takes a seeded `random.Random` and
returns an `Exercise` whose answer the engine worked out for that position.

Nothing here stores an answer: a battle's winner is `resolve_battle`'s, a legal action is
`Game.legal_actions`'s, a stake is the engine's own bet or call event, a banner card is
the engine's deal. `DRILLS` names the generators; `drill(...)` builds the panel a lesson
ends with.

>>> import random
>>> ex = battle_winner(random.Random(3))
>>> ex.answer in ex.choices and ex.kind
'battle'
"""

from __future__ import annotations

import random
from collections.abc import Callable

from palace.actions import Action, Bet, Buy, Call, Discard, Fold, Raise, Stay, Trim
from palace.battle import Army, resolve_battle
from palace.cards import Card, Suit, new_deck
from palace.deal import group_of
from palace.events import EventKind, Phase
from palace.game import Game
from palace.hands import Category, evaluate
from palace.rules import Rules
from palace.table import DEFAULT_NAMES
from palace.views import sentence_for
from palace.widgets.battle_view import exclusion_changed, hand_words
from palace.widgets.cards import cards_html, face, faces
from palace.widgets.drill import Drill, Exercise, Generator
from palace.widgets.quiz import army_html
from palace.widgets.table_view import TableView
from palace.words import plural

SUITS = (Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS)
TIE = "Still tied: both are out (R8.6)"
KIND_WORDS = {
    "buy": "Buy",
    "discard": "Discard",
    "bet": "Bet (attack)",
    "stay": "Stay",
    "fold": "Fold",
    "call": "Call",
    "raise": "Raise",
}
TURN_KINDS = ("buy", "discard", "bet", "stay", "fold")
ANSWER_KINDS = ("fold", "call", "raise")


# ---------------------------------------------------------------------- small helpers
def kinds_label(kinds: set[str] | frozenset[str]) -> str:
    """``"Buy, Stay or Fold"``: a set of action kinds in the order of R6.1 / R7.4."""
    order = [k for k in (*TURN_KINDS, "call", "raise") if k in kinds]
    words = [KIND_WORDS[k] for k in order]
    if not words:
        return "nothing"
    if len(words) == 1:
        return f"only {words[0]}"
    return ", ".join(words[:-1]) + " or " + words[-1]


def _deal(rng: random.Random, n: int, deck: list[Card]) -> list[Card]:
    return [deck.pop() for _ in range(n)]


def random_armies(rng: random.Random, *, excluded: bool = True) -> tuple[Army, Army]:
    """Two armies of different banner suits from one shuffled deck (0-3 soldiers each,
    three palace cards). `excluded`: redraw until banner-suit exclusion takes a card away."""
    for _ in range(200):
        deck = new_deck()
        rng.shuffle(deck)
        a_banner = deck.pop()
        b_banner = next(c for c in deck if c.suit != a_banner.suit)
        deck.remove(b_banner)
        armies = []
        for banner in (a_banner, b_banner):
            soldiers = tuple(_deal(rng, rng.randint(0, 3), deck))
            armies.append(Army(banner, soldiers, tuple(_deal(rng, 3, deck))))
        att, dfn = armies
        res = resolve_battle(att, dfn)
        if not excluded or res.attacker_hand.excluded or res.defender_hand.excluded:
            return att, dfn
    return att, dfn


def _names(rng: random.Random) -> tuple[str, str]:
    a, b = rng.sample(DEFAULT_NAMES[:6], 2)
    return a, b


# ---------------------------------------------------------------------- battles
def battle_winner(rng: random.Random) -> Exercise:
    """Who wins this battle? Two random armies, shown down by the engine (R8.2-R8.6)."""
    att, dfn = random_armies(rng)
    an, dn = _names(rng)
    res = resolve_battle(att, dfn)
    choices = (f"{an} wins", f"{dn} wins", TIE)
    answer = {"attacker": choices[0], "defender": choices[1], None: TIE}[res.winner]
    why = res.explain(an, dn)
    changed = exclusion_changed(att, dfn, (an, dn), res)
    if changed:
        why += " " + changed
    armies = (
        '<div class="palace-drill-armies">'
        f"{army_html(an, 'attacker', att)}{army_html(dn, 'defender', dfn)}</div>"
    )
    return Exercise(
        f"{an} attacks {dn} and {dn} calls. Who wins the showdown?",
        choices,
        answer,
        hint=(
            f"First cross out {an}'s cards of {dn}'s banner suit ({dfn.suit.symbol}) and "
            f"{dn}'s cards of {an}'s ({att.suit.symbol}) (R8.2); then compare the best five "
            "of what is left (R8.1, R8.4)."
        ),
        explanation=why,
        rules=("R8.2", res.rule),
        extra_html=armies,
        kind="battle",
        key=f"battle|{att}|{dfn}",
        position=(att, dfn, (an, dn)),
    )


def hand_against_banner(rng: random.Random) -> Exercise:
    """What does this hand count as against a banner of suit X? (R8.2, R8.3)"""
    for _ in range(200):
        deck = new_deck()
        rng.shuffle(deck)
        cards = tuple(_deal(rng, rng.randint(6, 9), deck))
        suit = rng.choice(SUITS)
        plain, ex = evaluate(cards), evaluate(cards, exclude_suit=suit)
        if ex.excluded and ex.category is not None:
            break
    answer = ex.category
    assert answer is not None and plain.category is not None  # six or more cards, some count
    cats = {plain.category, answer}
    others = [c for c in Category if c not in cats]
    rng.shuffle(others)
    while len(cats) < 4:
        near = min(others, key=lambda c: abs(int(c) - int(answer)))
        others.remove(near)
        cats.add(near)
    choices = tuple(c.label for c in sorted(cats, reverse=True))
    lost = faces(ex.excluded)
    why = (
        f"Against a {suit.symbol} banner {lost} {'does' if len(ex.excluded) == 1 else 'do'} not "
        f"count (R8.2); the best of the rest is {hand_words(ex)}: {faces(ex.best)}."
    )
    if ex.is_short:
        why += f" A short hand: {plural(len(ex.cards), 'counting card')} (R8.3)."
    if plain.category != ex.category:
        why += f" With every card counting it would be {hand_words(plain)}."
    return Exercise(
        f"In a battle against a player whose banner is {suit.symbol} ({suit.noun}), what do "
        "these cards count as?",
        choices,
        answer.label,
        hint=f"Take away every {suit.symbol} first (R8.2), then find the best five of the rest "
        "(R8.1); fewer than five left is a short hand (R8.3).",
        explanation=why,
        rules=("R8.2", "R8.3"),
        extra_html=cards_html(cards, small=True),
        kind="exclusion",
        key=f"exclusion|{cards}|{suit}",
        position=(cards, suit),
    )


def best_hand(rng: random.Random) -> Exercise:
    """What is the best five of these cards? (R1.3, R8.1; no exclusion)"""
    deck = new_deck()
    rng.shuffle(deck)
    cards = tuple(_deal(rng, rng.randint(6, 9), deck))
    hand = evaluate(cards)
    answer = hand.category
    assert answer is not None  # six or more cards always make a hand
    cats = {answer}
    others = sorted(Category, key=lambda c: abs(int(c) - int(answer)))
    for c in others:
        if len(cats) == 4:
            break
        cats.add(c)
    return Exercise(
        "A player holds these cards. What is their best hand of five?",
        tuple(c.label for c in sorted(cats, reverse=True)),
        answer.label,
        hint="Look for the highest category first: same suit five times? five in a row? "
        "then sets of the same rank (R1.3). Only five cards count (R8.1).",
        explanation=f"{hand.describe()}: {faces(hand.best)} (R1.3, R8.1).",
        rules=("R1.3", "R8.1"),
        extra_html=cards_html(cards, small=True),
        kind="best-five",
        key=f"best|{cards}",
        position=cards,
    )


# ---------------------------------------------------------------------- positions
def _pick_action(rng: random.Random, game: Game, weights: dict[str, float]) -> Action:
    """A legal action, its kind drawn with `weights` (so a hand does not end at once)."""
    legal = game.legal_actions()
    by_kind: dict[str, list[Action]] = {}
    for a in legal:
        by_kind.setdefault(a.kind, []).append(a)
    kinds = list(by_kind)
    kind = rng.choices(kinds, weights=[weights.get(k, 1.0) for k in kinds])[0]
    options = by_kind[kind]
    if kind == "trim":  # keep as many as the cap allows, mostly
        return min((a for a in options if isinstance(a, Trim)), key=lambda a: len(a.cards))
    return rng.choice(options)


def random_position(
    rng: random.Random,
    *,
    players: tuple[int, int] = (2, 5),
    steps: tuple[int, int] = (1, 14),
    phases: tuple[Phase, ...] = (Phase.TURN,),
    rules: Rules | None = None,
    weights: dict[str, float] | None = None,
    accept: Callable[[Game], bool] | None = None,
) -> Game:
    """A hand played a random number of random legal actions, stopped where a player
    decides in one of `phases` (and `accept` agrees)."""
    w = weights or {"buy": 3, "stay": 3, "discard": 1, "bet": 0.6, "fold": 0.3}
    for _ in range(400):
        n = rng.randint(*players)
        game = Game.new(players=n, seed=rng.randrange(1_000_000), rules=rules)
        target = rng.randint(*steps)
        done = 0
        while not game.is_over:
            if done >= target and game.phase in phases and (accept is None or accept(game)):
                return game
            game.apply(_pick_action(rng, game, w))
            done += 1
    raise RuntimeError("no position found: loosen the drill's conditions")


def _table_html(game: Game, seat: int) -> str:
    return TableView(game, perspective=seat).html


def _recent(game: Game, k: int = 4) -> str:
    """The last `k` turn or battle events as the table read them."""
    keep = ("buy", "trim", "discard", "stay", "fold", "bet", "raise", "call", "battle", "out")
    lines = [e for e in game.events if e.kind in keep][-k:]
    return " ".join(sentence_for(e, None) for e in lines)


def _reason(game: Game, kind: str) -> str | None:
    """The engine's reason a kind of action is refused now (None: some action of it is legal)."""
    legal = {a.kind for a in game.legal_actions()}
    if kind in legal:
        return None
    seat = game.to_act
    assert seat is not None
    probe: dict[str, Action] = {
        "buy": Buy(),
        "discard": Discard(cards=game.soldiers(seat) or ()),
        "stay": Stay(),
        "fold": Fold(),
        "call": Call(),
        "raise": Raise(),
    }
    if kind == "bet":
        others = [s for s in range(game.players) if s != seat and game.active[s]]
        action: Action = Bet(target=others[0] if others else (seat + 1) % game.players)
    else:
        action = probe[kind]
    return game.why_illegal(action) or "not offered now"


def legal_actions(rng: random.Random) -> Exercise:
    """Which actions may the player to act take now? (R6.1, R6.4, R7.2, R9.3)"""
    game = random_position(rng, phases=(Phase.TURN, Phase.BATTLE_RESPONSE))
    seat = game.to_act
    assert seat is not None
    name = game.names[seat]
    kinds = {a.kind for a in game.legal_actions()}
    pool = TURN_KINDS if game.phase is Phase.TURN else ANSWER_KINDS
    options = {frozenset(kinds)}
    candidates = [frozenset(kinds ^ {k}) for k in pool] + [frozenset(pool)]
    candidates += [frozenset({"bet", "fold"}), frozenset({"fold", "call"})]
    rng.shuffle(candidates)
    for c in candidates:
        if len(options) == 4:
            break
        if c and c <= set(pool):
            options.add(c)
    labels = sorted((kinds_label(o) for o in options), key=len)
    refused = [(k, _reason(game, k)) for k in pool if k not in kinds]
    why = f"The engine offers {name}: {kinds_label(kinds)}."
    if refused:
        why += " Not: " + "; ".join(f"{KIND_WORDS[k]}, {r}" for k, r in refused) + "."
    left = sum(game.active)
    situation = f"{plural(left, 'player')} still in the hand. " + _recent(game)
    return Exercise(
        f"{situation} What may {name} do now?",
        tuple(labels),
        kinds_label(kinds),
        hint=(
            "Answering an attack: Fold, Call or Raise (R7.4). "
            if game.phase is Phase.BATTLE_RESPONSE
            else "A turn offers Buy, Discard, Bet, Stay or Fold (R6.1); Discard needs soldiers "
            "(R6.4), a Bet an opponent of another banner suit (R7.2), and with two left the "
            "last two must battle once both took a quiet action one after the other (R9.3). "
        )
        + f"{name}'s seat is framed in gold.",
        explanation=why,
        rules=("R6.1", "R7.4", "R9.3"),
        extra_html=_table_html(game, seat),
        kind="legal",
        position=game,
        key=f"legal|{game.seed}|{len(game.actions)}|{game.players}",
    )


def must_bet_or_fold(rng: random.Random) -> Exercise:
    """Two players left: must the player to act Bet or Fold now? (R9.3)"""
    at_once = rng.random() < 0.25
    rules = Rules(two_left="at_once") if at_once else None

    def two_left(g: Game) -> bool:
        live = [s for s in range(g.players) if g.active[s]]
        if len(live) != 2:
            return False
        a, b = g.banner(live[0]), g.banner(live[1])
        return a is not None and b is not None and a.suit != b.suit

    weights = {"buy": 1.5, "stay": 4, "discard": 1, "bet": 0.15, "fold": 0.8}
    game = random_position(
        rng, players=(2, 3), steps=(1, 10), rules=rules, weights=weights, accept=two_left
    )
    seat = game.to_act
    assert seat is not None
    name = game.names[seat]
    kinds = {a.kind for a in game.legal_actions()}
    forced = kinds <= {"bet", "fold"}
    yes = f"Yes: {name} may only Bet or Fold"
    no = f"No: {name} may also Buy, Stay or Discard"
    r93 = [e for e in game.events if e.rule == "R9.3"]
    if forced and r93:
        why = r93[-1].text
    elif forced:
        why = f"Only two players of different banner suits are left, so {name} must battle (R9.3)."
    else:
        why = (
            f"Not yet: the last two have not both taken a quiet action one after the other, "
            f"so {name} may still {kinds_label(kinds - {'bet', 'fold'}).removeprefix('only ')} "
            "(R9.3)."
        )
    table = "This table plays two_left 'at once': " if at_once else ""
    rule_words = (
        "only Bet or Fold as soon as two are left. "
        if at_once
        else "the last two play on until both take a quiet action one after the other. "
    )
    return Exercise(
        f"{table}{'Only two players are left' if not at_once else 'Two players are left'}. "
        f"{_recent(game)} Must {name} Bet or Fold now?",
        (yes, no),
        yes if forced else no,
        hint=("Under R9.3 " if not at_once else "With 'at once' there is ")
        + rule_words
        + "Read the last actions: who took a quiet action (Stay, Discard, Fold) just before?",
        explanation=why,
        rules=("R9.3",),
        extra_html=_table_html(game, seat),
        kind="two-left",
        position=game,
        key=f"two|{game.seed}|{len(game.actions)}|{at_once}",
    )


def stake_amount(rng: random.Random) -> Exercise:
    """How much is this attack, or this call? (R7.3, R7.6) The engine's own bet or call."""
    no_limit = rng.random() < 0.3
    rules = Rules(structure="no-limit") if no_limit else None
    call = rng.random() < 0.5
    if call:
        game = random_position(rng, phases=(Phase.BATTLE_RESPONSE,), rules=rules)
        b = game.battle
        assert b is not None
        seat = b.to_act
        probe = game.replay()
        ev = next(e for e in probe.apply(Call()) if e.kind is EventKind.CALL)
        amount = ev.amount
        bet = next(e for e in reversed(game.events) if e.kind in (EventKind.BET, EventKind.RAISE))
        question = (
            f"{game.names[b.attacker]} ({plural(len(game.soldiers(b.attacker)), 'soldier')}) "
            f"attacked {game.names[b.defender]} "
            f"({plural(len(game.soldiers(b.defender)), 'soldier')}) for {bet.amount} chips. "
            f"How much does {game.names[seat]} pay to call?"
        )
        hint = (
            "In no-limit play the caller matches the attack (R7.6)."
            if game.rules.calls_match_attack
            else f"In limit play the caller pays (their own soldiers + 1) × s, with "
            f"s = {game.rules.small_bet} (R7.6)."
        )
        rule = "R7.6"
    else:

        def can_bet(g: Game) -> bool:
            return any(a.kind == "bet" for a in g.legal_actions())

        game = random_position(rng, phases=(Phase.TURN,), rules=rules, accept=can_bet)
        to_act = game.to_act
        assert to_act is not None
        seat = to_act
        bet = next(a for a in game.legal_actions() if isinstance(a, Bet))
        probe = game.replay()
        ev = next(e for e in probe.apply(Bet(target=bet.target)) if e.kind is EventKind.BET)
        amount = ev.amount
        who, whom = game.names[seat], game.names[bet.target]
        question = f"{who} has {plural(len(game.soldiers(seat)), 'soldier')}. " + (
            f"What is the least {who} can attack {whom} for?"
            if no_limit
            else f"How much does it cost {who} to attack {whom}?"
        )
        hint = (
            f"The minimum attack is (your soldiers + 1) × s, with s = {game.rules.small_bet} "
            "(R7.3)."
        )
        rule = "R7.3"
    assert amount is not None
    s = game.rules.small_bet
    options = {amount, amount + s, max(s, amount - s), amount + 2 * s}
    choices = tuple(f"{x} chips" for x in sorted(options)[:4])
    structure = "no-limit" if no_limit else "limit"
    return Exercise(
        f"Stakes {s}/{game.rules.big_bet}, {structure} play. {question}",
        choices,
        f"{amount} chips",
        hint=hint,
        explanation=f"{ev.text.rstrip('.')} ({ev.rule}).",
        rules=(rule,),
        extra_html=_table_html(game, seat),
        kind="stake",
        position=game,
        key=f"stake|{game.seed}|{len(game.actions)}|{call}|{no_limit}",
    )


def banner_kept(rng: random.Random) -> Exercise:
    """Kept or rejected? A card of the banner deal (R4.2, R4.3), from a random deal."""
    game = Game.new(players=rng.randint(4, 10), seed=rng.randrange(1_000_000))
    deal = [e for e in game.events if e.kind in (EventKind.BANNER, EventKind.REJECT)]
    ev = rng.choice(deal)
    n = game.players
    seat = ev.seat
    assert seat is not None
    name = game.names[seat]
    position = (seat - game.dealer - 1) % n
    group = group_of(position)
    so_far = [
        (e.seat, e)
        for e in game.events[: ev.index]
        if e.kind is EventKind.BANNER and e.seat is not None
    ]
    held: dict[str, list[str]] = {}
    for s, e in so_far:
        g = group_of((s - game.dealer - 1) % n)
        held.setdefault(g, []).append(f"{game.names[s]} {face(e.cards[0])}")
    listed = "; ".join(f"group {g}: {', '.join(v)}" for g, v in held.items()) or "none yet"
    card = ev.cards[0]
    kept, rejected = f"Kept as {name}'s banner", "Rejected: to the banner rejects"
    return Exercise(
        f"{n} players. Banners so far: {listed}. {name} is player {position + 1} in deal "
        f"order, so in group {group}, and is dealt {face(card)}. Kept or rejected?",
        (kept, rejected),
        rejected if ev.kind is EventKind.REJECT else kept,
        hint="Players 1-4 (player 1 sits left of the dealer) are group A, 5-8 group B, 9-10 "
        "group C. Only banners of the same group must differ in suit (R4.2).",
        explanation=f"{ev.text.rstrip('.')} ({ev.rule}).",
        rules=("R4.2", "R4.3"),
        extra_html=cards_html([card], small=True),
        kind="banner",
        key=f"banner|{game.seed}|{ev.index}",
        position=(game, ev.index),
    )


def keep_all(rng: random.Random) -> Exercise:
    """After a Buy: may the buyer keep every soldier? (R6.2, R6.7) The engine's trim rule."""

    least = rng.choice((0, 3, 4, 5))

    def can_buy(g: Game) -> bool:
        seat = g.to_act
        enough = seat is not None and len(g.soldiers(seat)) >= least
        return enough and any(a.kind == "buy" for a in g.legal_actions())

    weights = {"buy": 5, "stay": 2, "discard": 0.3, "bet": 0.1, "fold": 0.1}
    game = random_position(rng, steps=(2, 24), weights=weights, accept=can_buy)
    seat = game.to_act
    assert seat is not None
    name = game.names[seat]
    have = len(game.soldiers(seat))
    probe = game.replay()
    bought = next(e for e in probe.apply(Buy()) if e.kind is EventKind.BUY)
    refused = probe.why_illegal(Trim(cards=()))
    keep, must = f"{name} may keep all {have + 1}", f"{name} must discard at least one"
    cap = game.rules.max_soldiers
    return Exercise(
        f"{name} has {plural(have, 'soldier')} and buys one more. Which is true?",
        (keep, must),
        must if refused else keep,
        hint=f"Count the soldiers after the Buy; at most {cap} may stay (R6.7).",
        explanation=f"{bought.text} "
        + (f"Keeping all is refused: {refused}." if refused else f"At most {cap}: fine (R6.7)."),
        rules=("R6.2", "R6.7"),
        extra_html=_table_html(game, seat),
        kind="keep",
        position=game,
        key=f"keep|{game.seed}|{len(game.actions)}",
    )


DRILLS: dict[str, Generator] = {
    "battle": battle_winner,
    "exclusion": hand_against_banner,
    "best-five": best_hand,
    "legal": legal_actions,
    "two-left": must_bet_or_fold,
    "stake": stake_amount,
    "banner": banner_kept,
    "keep": keep_all,
}

LESSON_DRILLS: dict[int, tuple[str, ...]] = {
    1: ("best-five", "exclusion", "battle"),
    2: ("banner",),
    3: ("legal", "keep"),
    4: ("stake", "battle"),
    5: ("exclusion", "battle"),
    6: ("two-left", "legal", "battle"),
}


def drill(*kinds: str, lesson: int | None = None, seed: int = 0) -> Drill:
    """The drill panel for these kinds (names of `DRILLS`), or for a lesson's number."""
    if lesson is not None:
        kinds = kinds or LESSON_DRILLS[lesson]
    if not kinds:
        raise ValueError(f"name drill kinds from {', '.join(DRILLS)} or a lesson 1-6")
    unknown = [k for k in kinds if k not in DRILLS]
    if unknown:
        raise ValueError(f"unknown drill {unknown[0]!r}: one of {', '.join(DRILLS)}")
    title = "Drill: " + ", ".join(DRILL_TITLES[k] for k in kinds)
    return Drill({k: DRILLS[k] for k in kinds}, seed=seed, title=title)


DRILL_TITLES = {
    "battle": "who wins?",
    "exclusion": "what does it count as?",
    "best-five": "the best five",
    "legal": "what may you do?",
    "two-left": "two left",
    "stake": "how much?",
    "banner": "kept or rejected?",
    "keep": "the soldier cap",
}
