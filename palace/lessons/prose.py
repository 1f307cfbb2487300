"""Lesson sentences written from the engine: every figure a lesson states about a position.

A lesson's Markdown keeps only what no position can contradict (a rule and its clause);
whatever it says about the position or table on the page — a stake, a card, a count, an
outcome — is printed by one of these helpers, at execution time, from the game. Where a
sentence also states the rule's arithmetic ("(1 soldier + 1) × 3 = 6"), the helper checks
the engine's figure against that arithmetic and refuses (`LessonError`) rather than print
a sentence the engine contradicts; a changed engine then fails the lesson's notebook test.

>>> print(ante_sentence(Rules(small_bet=5, big_bet=10)))
At stakes 5/10 every player antes 2 chips: half the small bet, 5 / 2 = 2.5, rounded down (R3.1).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from palace.actions import Bet, Call, Raise
from palace.battle import BattleResult
from palace.cards import Card
from palace.errors import PalaceError
from palace.events import EventKind, Phase
from palace.game import Game
from palace.hands import Hand
from palace.rules import Rules
from palace.words import number_word, plural

if TYPE_CHECKING:  # pandas is loaded by the study tables these helpers read
    import pandas as pd


class LessonError(PalaceError):
    """A lesson sentence the engine contradicts: the lesson must not print it."""


def join(words: Iterable[str]) -> str:
    """Words joined as English lists them.

    >>> join(["Ann"]), join(["Ann", "Bob"]), join(["Ann", "Bob", "Cat"])
    ('Ann', 'Ann and Bob', 'Ann, Bob and Cat')
    """
    items = list(words)
    if len(items) <= 2:
        return " and ".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def cards_text(cards: Iterable[Card]) -> str:
    """Cards as the lessons write them: ``K♥ 10♣``."""
    return " ".join(c.symbol for c in cards)


def named_hand(hand: Hand) -> str:
    """A hand's name inside a sentence: "a pair of aces", "high card king (short: ...)".

    >>> from palace.hands import evaluate
    >>> named_hand(evaluate("Ah Ad 9c 4s 2h"))
    'a pair of aces'
    """
    text = hand.describe()
    text = text[:1].lower() + text[1:]
    return "a " + text if text.startswith(("pair", "flush", "straight", "full house")) else text


def _check(ok: bool, rule: str, said: str) -> None:
    if not ok:
        raise LessonError(f"{rule}: the engine contradicts the lesson sentence {said!r}")


# ---------------------------------------------------------------------- stakes (R3, R7)
def ante_sentence(rules: Rules) -> str:
    """What every player antes at these stakes, from a dealt game (R3.1)."""
    game = Game.new(players=2, seed=1, rules=rules)
    ante = game.put_in[0]
    s, b = rules.small_bet, rules.big_bet
    if rules.ante is not None:
        return (
            f"At stakes {s}/{b} with the variant ante={rules.ante}, every player antes "
            f"{plural(ante, 'chip')} (R3.1)."
        )
    _check(ante == s // 2, "R3.1", f"the ante is floor({s} / 2)")
    return (
        f"At stakes {s}/{b} every player antes {plural(ante, 'chip')}: half the small bet, "
        f"{s} / 2 = {s / 2:g}, rounded down (R3.1)."
    )


def _army(n: int) -> str:
    return f"({plural(n, 'soldier')} + 1)"


def stakes_story(game: Game) -> str:
    """For the player to act, one line per opponent they may attack: the attack (R7.3), what
    that defender pays to call (R7.6) and raises (R7.7), with the all-in limits (R3.4); each
    figure is the engine's, checked against the rule's arithmetic.

    >>> from palace.lessons.positions import attack_position
    >>> print(stakes_story(attack_position(Rules(small_bet=3, big_bet=8))))
    ... # doctest: +NORMALIZE_WHITESPACE
    At stakes 3/8 Ann, with 2 soldiers, attacks for (2 soldiers + 1) × 3 = 9 chips (R7.3).
    Bob (1 soldier) calls with (1 soldier + 1) × 3 = 6 chips (R7.6); Bob's raise is b = 8 (R7.7).
    Cat (0 soldiers) calls with (0 soldiers + 1) × 3 = 3 chips (R7.6); with no soldiers
    Cat's raise is 2 × s = 2 × 3 = 6, not b = 8 (R7.7).
    """
    me = game.to_act
    if me is None or game.phase is not Phase.TURN:
        raise PalaceError("stakes_story needs a player on their turn")
    rules = game.rules
    s, b = rules.small_bet, rules.big_bet
    name = game.names[me]
    mine = len(game.soldiers(me))
    least = (mine + 1) * s
    _check(game.min_attack(me) == least, "R7.3", f"{name}'s attack costs {least}")
    head = f"At stakes {s}/{b} {name}, with {plural(mine, 'soldier')}, attacks for "
    if rules.no_limit:
        head += f"at least {_army(mine)} × {s} = {plural(least, 'chip')}, or more (R7.3)."
    else:
        head += f"{_army(mine)} × {s} = {plural(least, 'chip')} (R7.3)."
    left = None if game.stacks is None else game.stacks[me]
    if left is not None and left < least:
        head += (
            f" But {name} has only {plural(left, 'chip')} left: {name} may attack all-in "
            f"with {'it' if left == 1 else 'them'} (R3.4)."
        )
    lines = [head]
    for target in range(game.players):
        if target != me and game.active[target]:
            lines.append(_defender_line(game, me, target))
    return "\n".join(lines)


def _defender_line(game: Game, me: int, target: int) -> str:
    """One defender's call and raise against the minimum attack of `me` (R3.4, R7.6, R7.7)."""
    rules = game.rules
    s, b = rules.small_bet, rules.big_bet
    name, who = game.names[me], game.names[target]
    theirs = len(game.soldiers(target))
    why = game.why_illegal(Bet(target=target))
    if why is not None:
        return f"{who}: no attack ({why})."
    probe = game.replay()
    bet = probe.apply(Bet(target=target))[-1]
    attack, owed = bet.amount, probe.owed()
    allin = bool(bet.detail.get("allin"))
    line = f"{who} ({plural(theirs, 'soldier')}) "
    if allin:
        left = game.stacks[me] if game.stacks is not None else None
        _check(attack == left, "R3.4", f"{name} attacks all-in with {attack}")
    if rules.calls_match_attack:
        sized, how = attack, f"matches the attack: {plural(attack, 'chip')} (R7.6)"
    else:
        sized = (theirs + 1) * s
        how = f"calls with {_army(theirs)} × {s} = {plural(sized, 'chip')} (R7.6)"
    if allin and sized > attack:
        _check(owed == attack, "R3.4", f"{who}'s call is at most {attack}")
        how = (
            f"would call with {plural(sized, 'chip')}, but never puts in more than the "
            f"all-in attack: {plural(owed, 'chip')} (R3.4)"
        )
    else:
        _check(owed == sized, "R7.6", f"{who} calls with {sized}")
    line += how
    if Raise() not in probe.legal_actions():
        why_not = probe.why_illegal(Raise()) or ""
        capped = rules.max_raises is not None or "R3.4" in why_not
        _check(capped, "R7.7", f"{who} may raise")
        return f"{line}; no raise: {why_not}."
    size = probe.raise_size()
    if rules.no_limit:
        _check(size == b, "R7.7", f"a raise is at least b = {b}")
        return f"{line}; {who}'s raise is at least b = {b} (R7.7)."
    if theirs == 0:
        _check(size == 2 * s, "R7.7", f"a raise without soldiers is 2 × {s}")
        same = f", not b = {b}" if size != b else f", the same as b = {b} at these stakes"
        return f"{line}; with no soldiers {who}'s raise is 2 × s = 2 × {s} = {size}{same} (R7.7)."
    _check(size == b, "R7.7", f"a raise is b = {b}")
    return f"{line}; {who}'s raise is b = {b} (R7.7)."


def all_in_call(game: Game) -> str:
    """The player answering a bet or raise calls with what they have left: the call's events,
    then what it matched and what went back to the bettor, checked chip for chip (R3.4 a).
    Plays the Call on `game`."""
    from palace.lessons.facts import said  # a sibling module (events as the game says them)

    seat, owed = game.to_act, game.owed()
    if seat is None or game.stacks is None or game.phase is not Phase.BATTLE_RESPONSE:
        raise PalaceError("all_in_call needs a battle to answer at a table with stacks (R3.4)")
    left = game.stacks[seat]
    events = game.apply(Call())
    call = events[0]
    back = sum(d for _, d in call.chips if d > 0)
    paid = call.amount
    _check(paid == min(owed, left), "R3.4", f"the call is {min(owed, left)}")
    _check(back == owed - paid, "R3.4", f"{owed - paid} go back")
    who = game.names[seat]
    if not back:
        tail = f"{who} owed {plural(owed, 'chip')} and pays them all: nothing goes back (R3.4)."
    else:
        tail = (
            f"{who} owed {plural(owed, 'chip')} but had {plural(left, 'chip')} left: the call "
            f"matches {paid} of them chip for chip, and the other {back} go back to "
            f"{game.names[int(call.detail.get('bettor', 0))]} (R3.4)."
        )
    return said(events[:1]) + "\n" + tail


# ---------------------------------------------------------------------- the deal (R2, R4)
def cut_story(game: Game) -> str:
    """Who drew what for the deal, the ties that drew again, and who deals (R2.1, R2.2).

    >>> print(cut_story(Game.new(players=5, seed=8)))
    Cat and Dan tie with kings, so only they draw again (R2.2): Cat's A♠ beats Dan's 7♦.
    Cat has the highest card and deals (R2.1).
    """
    lines = []
    draws: dict[int, Card] = {}
    for e in game.events:
        if e.kind == EventKind.CUT and e.seat is not None:
            draws[e.seat] = e.cards[0]
        elif e.kind == EventKind.CUT_TIE:
            tied = sorted(draws, key=lambda seat: -draws[seat].rank)
            top = draws[tied[0]].rank
            tied = [seat for seat in tied if draws[seat].rank == top]
            lines.append((tied, draws[tied[0]]))
            draws = {}
        elif e.kind == EventKind.DEALER:
            break
    dealer = game.dealer
    out = []
    for i, (tied, card) in enumerate(lines):
        text = (
            f"{join(game.names[t] for t in tied)} tie with {_rank_plural(card)}, so only they "
            f"draw again (R2.2)"
        )
        if i == len(lines) - 1:
            others = [s for s in draws if s != dealer]
            beaten = join(f"{game.names[s]}'s {draws[s].symbol}" for s in others)
            text += f": {game.names[dealer]}'s {draws[dealer].symbol} beats {beaten}"
        out.append(text + ".")
    out.append(f"{game.names[dealer]} has the highest card and deals (R2.1).")
    return "\n".join(out)


_RANK_PLURAL = {
    14: "aces",
    13: "kings",
    12: "queens",
    11: "jacks",
    10: "tens",
    9: "nines",
    8: "eights",
    7: "sevens",
    6: "sixes",
    5: "fives",
    4: "fours",
    3: "threes",
    2: "twos",
}


def _rank_plural(card: Card) -> str:
    return _RANK_PLURAL[int(card.rank)]


def deal_order(game: Game) -> list[int]:
    """Seats in deal order: player 1 sits left of the dealer (R4.1)."""
    return [(game.dealer + k) % game.players for k in range(1, game.players + 1)]


def _group(position: int) -> str:
    """R4.2: players 1-4 group A, 5-8 group B, 9-10 group C."""
    return "ABC"[(position - 1) // 4]


def banner_story(game: Game) -> str:
    """The banner deal in words: who opens it, every rejection and why, and where a later
    group keeps a suit an earlier group flies (R4.1-R4.3).

    >>> print(banner_story(Game.new(players=5, seed=8)))  # doctest: +NORMALIZE_WHITESPACE
    Dealing starts left of Cat, the dealer, with Dan (player 1, group A).
    Dan keeps J♠.
    Eve rejects 7♠ (♠ is already taken in group A) and keeps 7♦.
    Ann keeps 4♥.
    Bob rejects 2♠ 6♠ 10♠ (♠ is already taken in group A) and keeps 6♣.
    Cat is player 5, the first of group B, and keeps 9♣ although Bob flies ♣ in group A (R4.2).
    """
    order = deal_order(game)
    position = {seat: k + 1 for k, seat in enumerate(order)}
    first = order[0]
    lines = [
        f"Dealing starts left of {game.names[game.dealer]}, the dealer, with "
        f"{game.names[first]} (player 1, group A)."
    ]
    rejected: dict[int, list[Card]] = {}
    flown: dict[int, Card] = {}
    for e in game.events:
        if e.kind == EventKind.REJECT and e.seat is not None:
            rejected.setdefault(e.seat, []).append(e.cards[0])
        elif e.kind == EventKind.BANNER and e.seat is not None:
            seat, card = e.seat, e.cards[0]
            who, pos = game.names[seat], position[seat]
            earlier = [s for s in flown if _group(position[s]) != _group(pos)]
            same = [s for s in earlier if flown[s].suit == card.suit]
            text = f"{who} "
            if seat in rejected:
                suits = join(sorted({c.suit.symbol for c in rejected[seat]}))
                text += (
                    f"rejects {cards_text(rejected[seat])} ({suits} is already taken in group "
                    f"{_group(pos)}) and "
                )
            if pos > 4 and (pos - 1) % 4 == 0:
                text = (
                    f"{who} is player {pos}, the first of group {_group(pos)}, and "
                    + text[len(who) + 1 :]
                )
            text += f"keeps {card.symbol}"
            if same:
                s0 = same[0]
                text += (
                    f" although {game.names[s0]} flies {card.suit.symbol} in group "
                    f"{_group(position[s0])} (R4.2)"
                )
            lines.append(text + ".")
            flown[seat] = card
        elif e.kind == EventKind.PALACE:
            break
    return "\n".join(lines)


def shared_suits(game: Game) -> str:
    """Which players fly the same banner suit, and so can never battle each other (R4.5, R7.2).

    >>> shared_suits(Game.new(players=5, seed=8))
    'Bob and Cat both fly ♣: they can never battle each other (R7.2).'
    """
    by_suit: dict[str, list[str]] = {}
    for seat in range(game.players):
        by_suit.setdefault(game.banner_suit(seat).symbol, []).append(game.names[seat])
    shared = [(suit, names) for suit, names in by_suit.items() if len(names) > 1]
    if not shared:
        return "Every banner suit differs: any two players may battle (R4.5)."
    return " ".join(
        f"{join(names)} {'both' if len(names) == 2 else 'all'} fly {suit}: they can never "
        f"battle each other (R7.2)."
        for suit, names in shared
    )


# ---------------------------------------------------------------------- turns and hands
def deck_story(game: Game) -> str:
    """How the draw deck ran out in a hand: the cards left after the deal, the Buys that
    emptied it, each reshuffle of the discard pile, and whether Buy is still possible (R6.3)."""
    start = next(e for e in game.events if e.kind == EventKind.START)
    deck = len(game.state_at(start.index).zones["deck"])
    lines = [f"After the deal the draw deck holds {plural(deck, 'card')} (R5.2)."]
    buys = 0
    for e in game.events:
        if e.kind == EventKind.BUY:
            buys += 1
        elif e.kind == EventKind.RESHUFFLE and e.index > start.index:
            pile = len(game.state_at(e.index - 1).zones["discard"])
            lines.append(
                f"After {plural(buys, 'Buy')} the draw deck is empty: the discard pile "
                f"({plural(pile, 'card')}) becomes the new draw deck (R6.3)."
            )
            buys = 0
    zones = game.zones()
    if not zones["deck"] and not zones["discard"]:
        lines.append(
            f"{number_word(buys).capitalize()} {'Buy' if buys == 1 else 'Buys'} later the draw "
            f"deck and the discard pile are both empty: "
            f"nobody may Buy (R6.3)."
        )
    return "\n".join(lines)


def battle_outcome(game: Game, nth: int = -1) -> str:
    """Who a battle put out and who plays on (R8.4, R8.6)."""
    from palace.lessons.facts import event_index  # a sibling module (events by kind)

    at = event_index(game, "battle", nth)
    result = game.events[at].detail["battle"]
    assert isinstance(result, BattleResult)
    after = game.state_at(min(at + 2, len(game.events) - 1)).active
    out = [game.names[s] for s in range(game.players) if not after[s]]
    on = [game.names[s] for s in range(game.players) if after[s]]
    if result.winner is None:
        _check(len(on) != 1 or not on, "R8.6", "both are out")
        return (
            f"Still tied, so {join(out)} are out and capture nothing (R8.6); "
            f"{join(on) if on else 'nobody'} {'play' if len(on) > 1 else 'plays'} on."
        )
    return f"{join(out)} {'is' if len(out) == 1 else 'are'} out; {join(on)} play on (R8.4)."


def cap_story(game: Game) -> str:
    """Who ends a finished hand with more than five soldiers, and why that is allowed: the
    capture that ended the hand leaves no next action to trim before (R6.7, R9.2)."""
    if not game.is_over:
        raise PalaceError("cap_story needs a finished hand")
    cap = game.rules.max_soldiers
    over = [s for s in range(game.players) if len(game.soldiers(s)) > cap]
    if not over:
        return f"Nobody ends the hand with more than {number_word(cap)} soldiers (R6.7)."
    last = [e for e in game.events if e.kind == EventKind.CAPTURE][-1]
    _check(last.seat in over, "R6.7", "the last capture took the winner over the cap")
    who = game.names[over[0]]
    return (
        f"{who} ends the hand with {plural(len(game.soldiers(over[0])), 'soldier')}: "
        f"{who}'s last capture ended the hand ({_end_rule(game)}), "
        f"so no action follows it, and the cap of {number_word(cap)} (R6.7) is kept by "
        f"trimming before the next action: with the hand over there is none, and the soldiers "
        f"stay as captured."
    )


def _end_rule(game: Game) -> str:
    return next(e.rule for e in reversed(game.events) if e.kind == EventKind.HAND_END)


# ---------------------------------------------------------------------- variants (lesson 7)
def _hands(rows: Sequence[int]) -> str:
    if not rows:
        return ""
    return f" (hand{'s' if len(rows) > 1 else ''} {join(str(r) for r in rows)})"


def _count(rows: Sequence[int]) -> str:
    return number_word(len(rows)) if rows else "none"


def changes_story(df: pd.DataFrame) -> str:
    """What a `side_by_side` table shows changing from its first rule set to its second: in
    how many hands the pot, the battles, the ending and the winner change, and which.

    Counts come from the table itself, so the sentence cannot disagree with it."""
    a, b = df.columns.get_level_values(0)[0], df.columns.get_level_values(0)[4]
    n = len(df)
    parts = []
    grew = [int(i) for i in df.index if df.loc[i, (b, "pot")] > df.loc[i, (a, "pot")]]
    shrank = [int(i) for i in df.index if df.loc[i, (b, "pot")] < df.loc[i, (a, "pot")]]
    parts.append(
        f"the pot grows in {_count(grew)}{_hands(grew)} and shrinks in "
        f"{_count(shrank)}{_hands(shrank)}"
    )
    for field, what in (
        ("battles", "the number of battles"),
        ("ending", "the ending"),
        ("winner", "the winner"),
    ):
        moved = [int(i) for i in df.index if df.loc[i, (a, field)] != df.loc[i, (b, field)]]
        parts.append(f"{what} changes in {_count(moved)}{_hands(moved)}")
    endings = sorted(set(df[(b, "ending")]))
    tail = f" Under {b} every hand ends by {endings[0]}." if len(endings) == 1 else ""
    return f"Of the {number_word(n)} hands under {b}, " + "; ".join(parts) + "." + tail


def moved(df: pd.DataFrame, column: str) -> list[str]:
    """The rows of a `variant_summary` table where `column` differs from the first column."""
    base = df.columns[0]
    return [str(row) for row in df.index if df.loc[row, base] != df.loc[row, column]]


def summary_story(df: pd.DataFrame) -> str:
    """Each column of a `variant_summary` table against the first: the rows that move, with
    their figures, and the rows that stay."""
    base = df.columns[0]
    lines = []
    for col in df.columns[1:]:
        moved, same = [], []
        for row in df.index:
            x, y = float(df.loc[row, base]), float(df.loc[row, col])
            if x == y:
                same.append(row)
            else:
                moved.append(f"{row} {x:.2f} → {y:.2f} ({'more' if y > x else 'less'})")
        text = f"{col}: " + ("; ".join(moved) if moved else "nothing moves")
        if same and moved:
            text += f"; the same: {join(same)}"
        lines.append(text + ".")
    return "\n".join(lines)


def divergence_story(game_a: Game, game_b: Game) -> str:
    """Why two replays of one deal part where they do, from the first differing event:
    for an all-in attack, what the attacker had left and what it changes (R3.4)."""
    from palace.analysis.variants import first_difference

    div = first_difference(game_a, game_b)
    if div.index is None:
        return "The two hands are event for event the same."
    i = div.index
    ea, eb = game_a.events[i], game_b.events[i]
    if eb.kind == EventKind.BET and eb.detail.get("allin") and eb.seat is not None:
        stacks = game_b.rules.stacks
        assert stacks is not None
        who, target = game_b.names[eb.seat], game_b.names[int(eb.detail["target"])]
        left = stacks - game_b.state_at(i - 1).put_in[eb.seat]
        _check(left == eb.amount, "R3.4", f"{who} attacks all-in with {left}")
        return (
            f"With {stacks} chips each, {who} has {plural(left, 'chip')} left at event #{i}. "
            f"Under the standard rules {who} attacks {target} for {plural(ea.amount, 'chip')}; "
            f"here {who} cannot pay that, so {who} attacks all-in with "
            f"{'that chip' if left == 1 else f'those {left} chips'} (R3.4), and {target} never "
            f"puts in more than {plural(left, 'chip')} to call. From there on the two hands "
            f"differ."
        )
    return f"The two hands part at event #{i}: {div.a} / {div.b}"


def exclusion_story(game: Game, nth: int = -1) -> str:
    """A battle's banner-suit exclusion in words: what each side lost to the other's banner
    suit, what it kept, who won, and whether the rule decided it (R8.2, R8.4)."""
    from palace.lessons.facts import event_index  # a sibling module (events by kind)

    event = game.events[event_index(game, "battle", nth)]
    result = event.detail["battle"]
    assert isinstance(result, BattleResult)
    attacker, defender = event.detail["armies"]
    names = game.names
    a, d = names[int(event.detail["attacker"])], names[int(event.detail["defender"])]
    lines = []
    for who, hand, other, suit in (
        (a, result.attacker_hand, d, result.defender_suit),
        (d, result.defender_hand, a, result.attacker_suit),
    ):
        lost = cards_text(hand.excluded) if hand.excluded else "nothing"
        lines.append(
            f"{other}'s banner suit is {suit.symbol}: {who} loses {lost} and keeps "
            f"{named_hand(hand)} (R8.2)."
        )
    unstruck = result.without_exclusion(attacker, defender)
    side = {"attacker": a, "defender": d}
    if result.winner is None:
        lines.append("Still tied after the banner count (R8.6).")
    else:
        lines.append(f"{side[result.winner]} wins ({result.rule}).")
    if unstruck.winner != result.winner:
        won = unstruck.winner
        hand = unstruck.attacker_hand if won == "attacker" else unstruck.defender_hand
        lines.append(
            f"Without exclusion {side[won] if won else 'nobody'} would have won, with "
            f"{named_hand(hand)}: the rule decided this battle."
            if won
            else "Without exclusion the battle would have been tied: the rule decided it."
        )
    else:
        lines.append("Without exclusion the winner would be the same.")
    return "\n".join(lines)


# ---------------------------------------------------------------------- the rule explorer
def rejects_story(dist: pd.DataFrame, players: Sequence[int] = (2, 4, 5, 10)) -> str:
    """From a `banner_deal_distribution` table (% of deals by cards rejected, a column per
    player count): how often a deal rejects at least one card, and more than one."""
    lines = []
    for n in players:
        col = dist[n]
        some = 100 - float(col.loc[0])
        many = some - float(col.loc[1])
        lines.append(
            f"{n} players: {some:.1f}% of deals reject at least one card, {many:.1f}% more "
            f"than one."
        )
    return "\n".join(lines)


def flips_story(flips: pd.DataFrame) -> str:
    """From an `exclusion_flip_rate` table: how often exclusion changes a battle's winner,
    for the smallest and the largest armies (R8.2)."""
    small, large = flips.index.min(), flips.index.max()
    a, b = float(flips.loc[small, "winner changed %"]), float(flips.loc[large, "winner changed %"])
    return (
        f"Banner-suit exclusion changes the winner of {a:.1f}% of battles (one in "
        f"{100 / a:.1f}) with armies of {small} cards, and of {b:.1f}% (one in {100 / b:.1f}) "
        f"with armies of {large} (R8.2)."
    )


PLAY_ROWS = ("actions per hand", "battles per hand", "ended by showdown %")


def _num(df: pd.DataFrame, row: object, col: object) -> float:
    """One cell of a numeric table as a float."""
    return float(df.loc[[row], [col]].to_numpy(dtype=float)[0, 0])


def variants_findings(df: pd.DataFrame, tolerance: float = 0.02) -> str:
    """From a `compare_variants` table: the variants whose play (actions, battles, showdown
    endings, each within `tolerance`) is that of the first column, with their pots, then those
    that change play, with the figures that move."""
    base = df.columns[0]
    same: list[tuple[str, list[str]]] = []
    changed: list[tuple[str, list[str]]] = []
    for col in df.columns[1:]:
        moves = [
            row for row in PLAY_ROWS if abs(_num(df, row, col) - _num(df, row, base)) > tolerance
        ]
        (changed if moves else same).append((col, moves))
    pot = _num(df, "pot", base)
    lines = [
        f"Play as under {base} (actions, battles and showdown endings within {tolerance} a "
        f"hand): {join(c for c, _ in same) or 'none'}. Their pots against {pot:.1f}: "
        + "; ".join(f"{c} {_num(df, 'pot', c):.1f}" for c, _ in same)
        + "."
    ]
    for col, moves in changed:
        figures = "; ".join(
            f"{row} {_num(df, row, base):.2f} → {_num(df, row, col):.2f}" for row in (*moves, "pot")
        )
        lines.append(f"Play changes under {col}: {figures}.")
    seats = [r for r in df.index if str(r).startswith("chips to pos")]
    if seats:
        shares = ", ".join(f"{str(r)[9:-2]} {_num(df, r, base):.1f}%" for r in seats)
        lines.append(
            f"Chips won by seat position under {base} (position 1 sits left of the dealer; an "
            f"even share is {100 / len(seats):.0f}%): {shares}."
        )
    return "\n".join(lines)


def effect(differences: pd.DataFrame, variant: str, key: str, column: str = "difference") -> float:
    """One cell of a variant-effects differences table (`variant_effects.load(...).differences`):
    the paired difference of figure `key` under `variant`, or its `relative %`, `baseline`,
    `significant`; for a lesson's `assert` on what its text says about the shown findings."""
    hit = differences[(differences["variant"] == variant) & (differences["key"] == key)]
    if len(hit) != 1:
        raise PalaceError(f"no figure {key!r} for {variant!r} in the differences table")
    return float(hit.iloc[0][column])
