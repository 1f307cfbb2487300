"""Plain-English text of every rule clause (R1.1-R11) and project decision (D1-D29), as data.

The rule badges of the lessons and the app open these texts (a Voilà user cannot open
``RULES.md``). They restate ``RULES.md`` and ``docs/rules.md`` in the project's own words;
the clause numbers are the same. This module is data only: it imports nothing of Palace.

>>> clause_text("R7.2")
'A player may not attack a player whose banner has the same suit as theirs.'
>>> clause_ids("R7.1-R7.3, R3.4 a")
('R7.1', 'R7.2', 'R7.3', 'R3.4')
"""

from __future__ import annotations

import re

SECTION_TITLES: dict[str, str] = {
    "R1": "Players, cards",
    "R2": "Choosing the first dealer",
    "R3": "Stakes and ante",
    "R4": "Banner cards",
    "R5": "Palace cards",
    "R6": "The turn",
    "R7": "Bet / battle",
    "R8": "Battle showdown",
    "R9": "End of the hand",
    "R10": "Winning the pot",
    "R11": "What the game shows",
}

CLAUSES: dict[str, str] = {
    # R1 Players, cards
    "R1.1": "Two to ten players play.",
    "R1.2": "One standard 52-card deck: A K Q J 10 9 8 7 6 5 4 3 2 in four suits. Suits have "
    "no rank anywhere in the game.",
    "R1.3": "Hands rank as in ordinary poker: straight flush, four of a kind, full house, "
    "flush, straight, three of a kind, two pair, one pair, high card. The ace is high, and "
    "also low in A-2-3-4-5, the lowest straight.",
    # R2 Choosing the first dealer
    "R2.1": "Everyone gets one face-up card; the highest rank deals.",
    "R2.2": "Players tied for highest draw again, only they, until one is highest. The cards "
    "go back and the deck is reshuffled.",
    "R2.3": "After each hand the deal passes one seat to the left.",
    # R3 Stakes and ante
    "R3": "Stakes and ante: the small bet s and the big bet b (by default 2 and 4 chips, "
    "written 2/4).",
    "R3.1": "Before the banner deal everyone antes half the small bet, rounded down (1 chip "
    "when s is 2).",
    "R3.2": "All chips go into one pot. Nobody wins chips from a battle itself: the pot is "
    "won only at the end of the hand.",
    "R3.3": "Betting is limit (the default) or no-limit.",
    "R3.4": "Chips are unlimited by default. With a chip stack each, an action you cannot "
    "afford is not allowed, but you may always call a bet all-in for what you have (the "
    "part of the bet you do not match, chip for chip, goes back to the bettor: an attack of "
    "6 called all-in with 4 gives 2 back, an attack of 2 called all-in with 3 gives nothing "
    "back), attack all-in when you cannot afford the minimum, and never pay more to call "
    "than an all-in attacker or raiser put in; nobody raises a player who has no chips left.",
    # R4 Banner cards
    "R4.1": "Starting left of the dealer and going round once, each player receives one "
    "face-up banner card.",
    "R4.2": "Players 1-4 in deal order (player 1 sits left of the dealer) form group A, "
    "players 5-8 group B, players 9-10 group C. Inside a group every banner has a "
    "different suit.",
    "R4.3": "A player keeps receiving cards until one has a suit no earlier player of their "
    "group holds as a banner; the rejected cards go face up to the banner rejects pile.",
    "R4.4": "If the deck runs out during the banner deal, the banner rejects are shuffled "
    "into a new deck and the deal goes on.",
    "R4.5": "With two to four players every banner suit differs; with five or more some "
    "suits repeat, and players with the same banner suit can never battle each other.",
    # R5 Palace cards
    "R5.1": "All cards that are not banners are shuffled; everyone gets three face-down "
    "palace cards, one at a time, starting left of the dealer.",
    "R5.2": "The rest is the face-down draw deck. The discard pile starts empty.",
    "R5.3": "You see only your own palace cards. Banners and soldiers are face up for all.",
    # R6 The turn
    "R6.1": "Play starts left of the dealer and passes left. On your turn you take exactly "
    "one action: Buy, Discard, Bet (attack), Stay or Fold.",
    "R6.2": "Buy: pay s, take the top card of the draw deck face up as a soldier, then "
    "discard any soldiers you like.",
    "R6.3": "If the draw deck is empty when a card is needed, the discard pile is shuffled "
    "into a new draw deck. If both are empty, you cannot Buy.",
    "R6.4": "Discard: pay s, draw nothing, discard one or more soldiers. Impossible without "
    "soldiers.",
    "R6.5": "Stay: do nothing; the turn passes.",
    "R6.6": "Fold: leave the hand. Your palace, banner and soldiers go to the discard pile; "
    "your chips stay in the pot.",
    "R6.7": "You may never end an action with more than five soldiers: after a Buy or a "
    "capture you discard down to five, your choice of which.",
    # R7 Bet / battle
    "R7.1": "The attacker names one opponent still in the hand: the defender.",
    "R7.2": "A player may not attack a player whose banner has the same suit as theirs.",
    "R7.3": "The minimum attack is (attacker's soldiers + 1) × s. In limit play the attack "
    "is exactly that; in no-limit play it may be more.",
    "R7.4": "The defender answers: Fold, Call or Raise.",
    "R7.5": "If the defender folds, they are out: their palace goes to the discard pile and "
    "the attacker captures their banner and soldiers as new soldiers. The attack stays in "
    "the pot.",
    "R7.6": "To call in limit play, the defender pays (their own soldiers + 1) × s. In "
    "no-limit play the defender matches the attack. Then the battle is shown down.",
    "R7.7": "To raise, the defender first pays the call, then raises by b (2 × s for a player "
    "with no soldiers; at least b in no-limit play).",
    "R7.8": "Facing a raise, the other player folds, calls or raises again, back and forth "
    "until someone calls or folds.",
    "R7.9": "A player who folds to a raise is out; the raiser captures their banner and "
    "soldiers and gets the uncalled raise back. Everything called stays in the pot.",
    # R8 Battle showdown
    "R8.1": "In a battle each player's hand is all their cards: banner, soldiers and palace, "
    "up to nine. The best five count.",
    "R8.2": "Banner-suit exclusion: in a battle, a card of the opponent's banner suit does "
    "not count for the player holding it.",
    "R8.3": "After exclusion a hand may have fewer than five cards. It is ranked from the "
    "cards it has (high card, pairs, three or four of a kind); a missing card ranks below "
    "every card.",
    "R8.4": "The higher hand wins. The loser is out, their palace goes to the discard pile, "
    "and the winner captures their banner and soldiers.",
    "R8.5": "Tie: the player with more cards of their own banner suit (banner, soldiers and "
    "palace) wins.",
    "R8.6": "Still tied: both are out and their cards go to the discard pile, unless they are "
    "the last two in the hand: then they share the pot.",
    "R8.7": "After a battle, play passes to the left of the attacker.",
    # R9 End of the hand
    "R9.1": "Quiet round: if every player still in the hand, one after the other, takes a "
    "quiet action (Stay, Discard or Fold), the hand ends in a showdown. A Buy or a Bet "
    "starts the count again.",
    "R9.2": "When one player remains, the hand ends.",
    "R9.3": "Two left must battle: when exactly two players of different banner suits "
    "remain, a quiet round no longer ends the hand. By default they play on as usual, and "
    "once both have taken a quiet action one after the other, the player to act may only "
    "Bet or Fold (variant two_left; 'at once' offers only Bet or Fold as soon as two remain).",
    "R9.4": "When every remaining player has the same banner suit, no battle is possible: "
    "the hand ends at once and the pot is shared.",
    # R10 Winning the pot
    "R10.1": "The last player standing takes the pot.",
    "R10.2": "When only one banner suit is left (R9.4), the pot is shared equally.",
    "R10.3": "Quiet-round showdown: every remaining player's best five of all their cards, "
    "with no banner-suit exclusion and no banner-count tie-break. The best hand takes the "
    "pot; equal best hands share it.",
    "R10.4": "A shared pot is split evenly; odd chips go one each to the sharers nearest the "
    "dealer's left.",
    # R11
    "R11": "Every change is an event naming who, what, which cards and which rule; an "
    "illegal action is refused with the rule that forbids it, and nothing changes.",
    # Project decisions (docs/rules.md)
    "D1": "Lessons may script the deck: the listed cards come first, and the palace deal "
    "does not reshuffle them.",
    "D2": "After a Buy or a capture you choose which soldiers to discard (maybe none) before "
    "play passes; only down to five is compulsory. A capture that ends the hand leaves "
    "nothing to trim, so the winner may end with more than five soldiers.",
    "D3": "When a player folds to a raise, the raise goes back to the raiser as a refund.",
    "D4": "With chip stacks, either battler may call all-in for what they have left; the "
    "bet or raise less the call goes back to its maker, chip for chip, but never more than "
    "the call fell short of what was owed (an attack of 6 called all-in with 4 gives 2 back; "
    "with 1, by a defender who owed 2, 1 back). A player who cannot pay the ante antes "
    "what they have.",
    "D5": "An action left out of the quiet actions restarts the quiet-round count; a player "
    "who folds leaves the count.",
    "D6": "With chip stacks, a player who cannot afford the minimum attack may attack all-in "
    "with what they have left (R3.4). Any attack or raise that puts its maker all-in caps "
    "the other side's call at that amount, even where their own army would owe more.",
    "D7": "The two battlers show their palace cards to each other only; at a quiet-round "
    "showdown every remaining palace is shown to all.",
    "D8": "Each seat remembers every card it has seen and where it went (perfect recall).",
    "D9": "A battle still tied between the last two ends the hand and they share the pot; "
    "equal best hands at a quiet-round showdown share it the same way.",
    "D10": "Every event sentence names its rule; a banner rejection says whose banner the "
    "suit already is. Every battle and showdown names each side's best five and, where two "
    "hands are of one category, the card that decided it; every action that costs chips "
    "says how many.",
    "D11": "A match carries chip stacks from hand to hand; it ends when fewer than two "
    "players have chips.",
    "D12": "An all-in call for less: the part of the bet or raise it does not match, chip "
    "for chip, goes back to whoever made it (R3.4): a raise of 4 called with 2 gives 2 back.",
    "D13": "A player with no chips left is still dealt in and may Stay, Fold or call "
    "all-in for nothing.",
    "D14": "After a battle the next player still in the hand to the left of the attacker's "
    "seat acts.",
    "D15": "Hands of fewer than five cards are ranked by the short-hand rule R8.3, also "
    "where nothing is excluded.",
    "D16": "Without Stay among the quiet actions, Stay restarts the quiet-round count.",
    "D17": "The raise cap counts the raises of both battlers together in one battle.",
    "D18": "In no-limit play the defender matches an attack above the minimum by default "
    "(R7.6); with call_matches_attack off, the extra stays in the pot.",
    "D19": "The big bet must be at least the small bet.",
    "D20": "The trim after a capture cites the capture's rule (R7.5, R7.9 or R8.4).",
    "D21": "Each end of a hand (R9.1, R9.2, R9.4) is an event, followed by the pot event.",
    "D22": "A hand that reaches the table's turn limit ends in a showdown, as a quiet round does.",
    "D23": "Two players of different banner suits play on as usual; once both have taken a "
    "quiet action one after the other, the player to act may only Bet or Fold (two_left, "
    "after_quiet_round). With at_once, only Bet and Fold as soon as two remain.",
    "D24": "Every card dealt or bought is a chance step and an event: a seeded game takes the "
    "top card of the shuffled deck; a search may choose each card, all equally likely.",
    "D25": "Names are 1 to 40 characters of plain text; stakes, chips and seeds in files stay "
    "within set bounds.",
    "D26": "The app's number boxes keep exactly what was typed; a value out of range is "
    "refused, never rounded or clamped.",
    "D27": "The small game the solver plays: a smaller deck, one palace card, a low soldier "
    "cap and few turns; no-limit amounts come from a menu.",
    "D28": "A quiet-round showdown is not a battle: equal best hands share the pot, with no "
    "banner-count tie-break.",
    "D29": "In a class, a student's page never shows every card of a played hand; only the "
    "teacher's page has that switch. Teaching positions are shown whole.",
}

_TOKEN = re.compile(r"([RD])(\d+)(?:\.(\d+))?(?:\s*[-–]\s*(?:\1)?(\d+)?\.?(\d+)?)?")


def clause_ids(text: str | None) -> tuple[str, ...]:
    """The clause numbers named in `text`, ranges expanded, in order, each once:
    ``"R7.1-R7.3"`` -> R7.1, R7.2, R7.3. Unknown numbers are left out."""
    out: list[str] = []
    for m in _TOKEN.finditer(text or ""):
        letter, sec, sub, end_sec, end_sub = m.groups()
        ids = [f"{letter}{sec}" + (f".{sub}" if sub else "")]
        if sub and end_sub and (end_sec in (None, sec)):
            ids = [f"{letter}{sec}.{k}" for k in range(int(sub), int(end_sub) + 1)]
        elif sub and end_sec and not end_sub and int(end_sec) > int(sub):
            ids = [f"{letter}{sec}.{k}" for k in range(int(sub), int(end_sec) + 1)]
        for cid in ids:
            if cid in CLAUSES and cid not in out:
                out.append(cid)
    return tuple(out)


def clause_text(cid: str) -> str:
    """The plain-English text of one clause; KeyError names an unknown clause."""
    if cid not in CLAUSES:
        raise KeyError(f"no clause {cid!r}: R1.1-R10.4, R11 or D1-D29")
    return CLAUSES[cid]
