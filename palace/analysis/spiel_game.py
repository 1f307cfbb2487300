"""Palace Poker as an OpenSpiel game (`pyspiel`): ``pyspiel.load_game("palace_poker", {...})``.

The game wraps one `palace.Game` with manual chance, so the rules live in one place (the
engine) and OpenSpiel sees them through its standard API:

* **chance nodes** for every card dealt or bought (R2 draw, R4 banners, R5 palaces, R6.2
  buys): the outcome is the card's index (0-51), each card of the deck equally likely;
* **player actions** numbered in a fixed layout (`ActionCodec`): Buy, Stay, Fold, Call,
  Bet against a seat at one of the attack sizes, Raise at one of the raise sizes, Discard
  and Trim as a set of the player's soldiers (sorted high to low, as a bit mask);
* **information states** (perfect recall): every event of the hand as that seat saw it,
  one token each, hidden cards as ``?`` (R5.3, D7); **observations**: `game.view(seat)`
  rendered (what the seat knows now, with the D8 memory of where cards went); tensors of
  both for learning algorithms;
* `resample_from_infostate`: a world drawn by `SeatView.sample_world`, so OpenSpiel's
  ISMCTS (`open_spiel.python.algorithms.ismcts`) can search Palace.

Game parameters: ``players`` (2-10), ``dealer`` (-1: the R2 draw is chance; else that seat
deals, R2.3), every `Rules` field (``None`` is written -1 for numbers, 0 for ``stacks``;
``call_matches_attack`` as ``"default"``, ``"attack"`` (True) or ``"army"`` (False);
``quiet_actions`` as ``"stay/discard/fold"``),
and for no-limit the menu of sizes a player may choose (``bet_sizes``: multiples of the
minimum attack, ``raise_sizes``: multiples of the big bet; an all-in is added with stacks).
No-limit amounts are otherwise unbounded, and OpenSpiel needs a finite action set.

Importing this module registers the game; it needs the ``agents`` extra (``open-spiel``).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, fields
from functools import cached_property
from typing import Any

import numpy as np
import pyspiel

from palace.actions import Action, Bet, Buy, Call, Discard, Fold, Raise, Stay, Trim
from palace.cards import Card, format_cards
from palace.errors import PalaceError
from palace.events import Event, Phase
from palace.game import Game
from palace.rules import QUIET_KINDS, Rules
from palace.views import SeatView, sees_card

SHORT_NAME = "palace_poker"
MAX_PLAYERS = 10
CARDS = 52
PRACTICAL_RAISES = 50  # a bound for max_game_length / utilities when raises are unlimited
PHASES = tuple(Phase)
# call_matches_attack in a parameter (a string: OpenSpiel reads "true" in a game string as a bool)
CALL_SIZING: dict[str, bool | None] = {"default": None, "attack": True, "army": False}
KINDS = ("buy", "discard", "stay", "fold", "bet", "call", "raise", "trim")

DEFAULTS: dict[str, Any] = {
    "players": 2,
    "dealer": -1,
    "small_bet": 2,
    "big_bet": 4,
    "ante": -1,
    "structure": "limit",
    "stacks": 0,
    "discard_cost": -1,
    "call_matches_attack": "default",
    "max_raises": -1,
    "quiet_actions": "/".join(QUIET_KINDS),
    "two_left": "after_quiet_round",
    "max_turns": 200,
    "ranks": "23456789TJQKA",
    "suits": "cdhs",
    "palace_cards": 3,
    "max_soldiers": 5,
    "bet_sizes": "1/2",
    "raise_sizes": "1/2",
}

GAME_TYPE = pyspiel.GameType(
    short_name=SHORT_NAME,
    long_name="Palace Poker",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=MAX_PLAYERS,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=DEFAULTS,
)


# ------------------------------------------------------------------ parameters <-> Rules
def _none_if(value: int, marker: int) -> int | None:
    return None if value == marker else value


def rules_from_params(params: dict[str, Any]) -> Rules:
    """The `Rules` the game parameters describe (every field; see the module docstring)."""
    p = {**DEFAULTS, **params}
    cma = str(p["call_matches_attack"]).lower()
    cma = {"true": "attack", "false": "army"}.get(cma, cma)
    if cma not in CALL_SIZING:
        raise PalaceError(
            f"call_matches_attack must be 'default', 'attack' or 'army', got {cma!r} (R7.6)"
        )
    quiet = tuple(k.strip() for k in _split(p["quiet_actions"]) if k.strip())
    return Rules(
        small_bet=p["small_bet"],
        big_bet=p["big_bet"],
        ante=_none_if(p["ante"], -1),
        structure=p["structure"],
        stacks=_none_if(p["stacks"], 0),
        discard_cost=_none_if(p["discard_cost"], -1),
        call_matches_attack=CALL_SIZING[cma],
        max_raises=_none_if(p["max_raises"], -1),
        quiet_actions=quiet,
        two_left=p["two_left"],
        max_turns=p["max_turns"],
        ranks=p["ranks"],
        suits=p["suits"],
        palace_cards=p["palace_cards"],
        max_soldiers=p["max_soldiers"],
    )


def params_from_rules(
    rules: Rules | None = None,
    players: int = 2,
    dealer: int | None = None,
    *,
    bet_sizes: Sequence[int] = (1, 2),
    raise_sizes: Sequence[int] = (1, 2),
) -> dict[str, Any]:
    """Game parameters for `pyspiel.load_game(SHORT_NAME, params)` from a `Rules`."""
    r = Rules() if rules is None else rules
    cma = r.call_matches_attack
    out: dict[str, Any] = {
        "players": players,
        "dealer": -1 if dealer is None else dealer,
        "small_bet": r.small_bet,
        "big_bet": r.big_bet,
        "ante": -1 if r.ante is None else r.ante,
        "structure": r.structure,
        "stacks": 0 if r.stacks is None else r.stacks,
        "discard_cost": -1 if r.discard_cost is None else r.discard_cost,
        "call_matches_attack": {v: k for k, v in CALL_SIZING.items()}[cma],
        "max_raises": -1 if r.max_raises is None else r.max_raises,
        "quiet_actions": "/".join(r.quiet_actions),
        "two_left": r.two_left,
        "max_turns": r.max_turns,
        "ranks": r.ranks,
        "suits": r.suits,
        "palace_cards": r.palace_cards,
        "max_soldiers": r.max_soldiers,
        "bet_sizes": "/".join(str(int(x)) for x in bet_sizes),
        "raise_sizes": "/".join(str(int(x)) for x in raise_sizes),
    }
    assert set(out) == set(DEFAULTS)
    return out


def load(
    rules: Rules | None = None, players: int = 2, dealer: int | None = None, **sizes: Any
) -> pyspiel.Game:
    """``pyspiel.load_game("palace_poker", params_from_rules(...))``."""
    return pyspiel.load_game(SHORT_NAME, params_from_rules(rules, players, dealer, **sizes))


def _split(text: object) -> list[str]:
    """Lists in parameters are written with "/" (a comma would end the parameter in
    OpenSpiel's game string)."""
    return str(text).replace(",", "/").split("/")


def _sizes(text: str, name: str) -> tuple[int, ...]:
    try:
        out = tuple(int(x) for x in _split(text) if x.strip())
    except ValueError:
        raise PalaceError(f"{name} must be whole numbers separated by '/', got {text!r}") from None
    if not out or any(x < 1 for x in out) or len(set(out)) != len(out):
        raise PalaceError(f"{name} must list different whole numbers >= 1 (as 1/2), got {text!r}")
    return out


# ------------------------------------------------------------------ actions <-> ids
@dataclass(frozen=True)
class ActionCodec:
    """The fixed numbering of player actions for a table (see the module docstring)."""

    players: int
    rules: Rules
    bet_sizes: tuple[int, ...]
    raise_sizes: tuple[int, ...]

    BUY = 0
    STAY = 1
    FOLD = 2
    CALL = 3
    BET0 = 4

    @cached_property
    def attack_options(self) -> int:
        """Attack sizes per target: 1 in limit; the menu (plus all-in with stacks) in no-limit."""
        if not self.rules.no_limit:
            return 1
        return len(self.bet_sizes) + (1 if self.rules.stacks is not None else 0)

    @cached_property
    def raise_options(self) -> int:
        if not self.rules.no_limit:
            return 1
        return len(self.raise_sizes) + (1 if self.rules.stacks is not None else 0)

    @cached_property
    def raise0(self) -> int:
        return self.BET0 + MAX_PLAYERS * self.attack_options

    @cached_property
    def discard0(self) -> int:
        return self.raise0 + self.raise_options

    @cached_property
    def trim0(self) -> int:
        return self.discard0 + (1 << self.rules.max_soldiers) - 1

    @cached_property
    def size(self) -> int:
        """num_distinct_actions: a trim may face up to 2 × cap + 1 soldiers (a capture)."""
        return self.trim0 + (1 << (2 * self.rules.max_soldiers + 1))

    # ---------------------------------------------------------------- sizes
    def attack_amount(self, g: Game, seat: int, k: int) -> int | None:
        """The amount of attack option `k` (None: the minimum, or all-in when short)."""
        if not self.rules.no_limit or k == 0 and self.bet_sizes[0] == 1:
            return None
        if k < len(self.bet_sizes):
            return self.bet_sizes[k] * g.min_attack(seat)
        stack = g.stacks[seat] if g.stacks is not None else None
        return stack  # all-in

    def raise_amount(self, g: Game, seat: int, k: int) -> int | None:
        if not self.rules.no_limit or k == 0 and self.raise_sizes[0] == 1:
            return None
        if k < len(self.raise_sizes):
            return self.raise_sizes[k] * self.rules.big_bet
        stack = g.stacks[seat] if g.stacks is not None else 0
        return stack - g.owed()  # all-in: call and raise everything left

    # ---------------------------------------------------------------- engine <-> id
    @staticmethod
    def _mask(soldiers: Sequence[Card], cards: Sequence[Card]) -> int:
        order = sorted(soldiers, reverse=True)
        return sum(1 << order.index(c) for c in cards)

    @staticmethod
    def _cards(soldiers: Sequence[Card], mask: int) -> tuple[Card, ...]:
        order = sorted(soldiers, reverse=True)
        if mask >> len(order):
            raise PalaceError(f"soldier mask {mask} names more soldiers than the {len(order)} held")
        return tuple(c for i, c in enumerate(order) if mask >> i & 1)

    def legal(self, g: Game) -> dict[int, Action]:
        """Every legal action now, by id (sorted ids; the engine decides legality)."""
        seat = g.to_act
        if seat is None:
            return {}
        out: dict[int, Action] = {}
        soldiers = g.soldiers(seat)
        for a in g.legal_actions():
            t = type(a)
            if t is Buy:
                out[self.BUY] = a
            elif t is Stay:
                out[self.STAY] = a
            elif t is Fold:
                out[self.FOLD] = a
            elif t is Call:
                out[self.CALL] = a
            elif isinstance(a, Discard):
                out[self.discard0 + self._mask(soldiers, a.cards) - 1] = a
            elif isinstance(a, Trim):
                out[self.trim0 + self._mask(soldiers, a.cards)] = a
            elif isinstance(a, Bet):
                self._bets(g, seat, a.target, out)
            elif t is Raise:
                self._raises(g, seat, out)
        return dict(sorted(out.items()))

    def _bets(self, g: Game, seat: int, target: int, out: dict[int, Action]) -> None:
        amounts: set[int | None] = set()
        low = g.min_attack(seat)
        if g.stacks is not None:
            low = min(low, g.stacks[seat])  # a short stack's minimum bet is all-in (R3.4 b)
        for k in range(self.attack_options):
            amount = self.attack_amount(g, seat, k)
            bet = Bet(target=target, amount=amount)
            key = low if amount is None else amount
            if key in amounts or amount is not None and g.why_illegal(bet) is not None:
                continue
            amounts.add(key)
            out[self.BET0 + target * self.attack_options + k] = bet
        if not amounts:  # the engine's own minimum bet is always offered
            out[self.BET0 + target * self.attack_options] = Bet(target=target)

    def _raises(self, g: Game, seat: int, out: dict[int, Action]) -> None:
        seen: set[int] = set()
        for k in range(self.raise_options):
            amount = self.raise_amount(g, seat, k)
            r = Raise(amount=amount)
            key = g.raise_size() if amount is None else amount
            if key in seen or amount is not None and g.why_illegal(r) is not None:
                continue
            seen.add(key)
            out[self.raise0 + k] = r

    def decode(self, g: Game, action_id: int) -> Action:
        """The engine action an id stands for in this position (legal or not)."""
        seat = g.to_act if g.to_act is not None else 0
        if action_id == self.BUY:
            return Buy()
        if action_id == self.STAY:
            return Stay()
        if action_id == self.FOLD:
            return Fold()
        if action_id == self.CALL:
            return Call()
        if action_id < self.raise0:
            target, k = divmod(action_id - self.BET0, self.attack_options)
            return Bet(target=target, amount=self.attack_amount(g, seat, k))
        if action_id < self.discard0:
            return Raise(amount=self.raise_amount(g, seat, action_id - self.raise0))
        if action_id < self.trim0:
            return Discard(cards=self._cards(g.soldiers(seat), action_id - self.discard0 + 1))
        if action_id < self.size:
            return Trim(cards=self._cards(g.soldiers(seat), action_id - self.trim0))
        raise PalaceError(f"action id {action_id} is outside 0-{self.size - 1}")

    def encode(self, g: Game, action: Action) -> int:
        """The id of a legal engine action (the inverse of `decode` on legal actions)."""
        for aid, a in self.legal(g).items():
            if a == action or _same_bet(g, a, action):
                return aid
        raise PalaceError(f"{action} is not one of the legal actions with an id now")


def _same_bet(g: Game, a: Action, b: Action) -> bool:
    if type(a) is not type(b):
        return False
    if isinstance(a, Bet) and isinstance(b, Bet):
        low = g.min_attack(g.to_act) if g.to_act is not None else 0
        return a.target == b.target and (a.amount or low) == (b.amount or low)
    if isinstance(a, Raise) and isinstance(b, Raise):
        return (a.amount or g.raise_size()) == (b.amount or g.raise_size())
    return False


# ------------------------------------------------------------------ what a seat sees
def event_token(e: Event, viewer: int | None) -> str:
    """One event as `viewer` saw it: kind, seat, chips, target and the cards they could see
    (a card they could not see is ``?``: palaces R5.3, a battle's palaces D7)."""
    cards = " ".join(str(c) if sees_card(e, c, viewer) else "?" for c in e.cards)
    shown = []
    for mv in e.moves:
        if mv.src == mv.dst and mv.cards:  # cards shown in place (a battle, a showdown)
            if mv.seen_by is None or (viewer is not None and viewer in mv.seen_by):
                shown.append(format_cards(tuple(mv.cards)))
    target = e.detail.get("target", "") if e.detail else ""
    chips = ",".join(f"{s}{d:+d}" for s, d in e.chips)
    seat = "" if e.seat is None else e.seat
    return f"{e.kind}{seat}>{target}:{e.amount}:{chips}[{cards}]({' / '.join(shown)})"


def view_text(view: SeatView) -> str:
    """`game.view(seat)` as text: everything the view holds (R5.3, D8)."""
    lines = [
        f"seat {view.seat}; phase {view.phase}; to act {view.to_act}; dealer {view.dealer}; "
        f"pot {view.pot}; deck {view.deck_count}; discard {view.discard_count}"
    ]
    for s in view.seats:
        stack = "" if s.stack is None else f" stack {s.stack}"
        lines.append(
            f"{s.seat}:{'in' if s.active else 'out'} banner {s.banner or '-'} soldiers "
            f"[{format_cards(s.soldiers)}] palace {s.palace_count} put {s.put_in}{stack}"
        )
    lines.append(f"my palace [{format_cards(view.palace)}]; rejects [{format_cards(view.rejects)}]")
    learned = sorted(
        (c, z) for c, z in view.known.items() if not z.endswith(("banner", "soldiers"))
    )
    hidden = {f"seat{view.seat}.palace", "rejects"}
    lines.append("known: " + " ".join(f"{c}@{z}" for c, z in learned if z not in hidden))
    b = view.battle
    if b is not None:
        lines.append(
            f"battle {b.attacker}>{b.defender} to act {b.to_act} owed {b.owed} paid "
            f"{sorted(b.paid.items())} raises {b.raises}"
        )
    t = view.turn
    lines.append(f"quiet {list(t.quiet)} must_battle {t.must_battle} turns {t.turns}")
    return "\n".join(lines)


# ------------------------------------------------------------------ the game
class PalaceSpielGame(pyspiel.Game):
    """Palace Poker for OpenSpiel; see the module docstring for parameters and encodings."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        p = {**DEFAULTS, **(params or {})}
        unknown = set(p) - set(DEFAULTS)
        if unknown:
            raise PalaceError(f"unknown palace_poker parameter(s): {sorted(unknown)}")
        self.rules = rules_from_params(p)
        self.players = int(p["players"])
        if not 2 <= self.players <= MAX_PLAYERS:
            raise PalaceError(f"players must be 2 to 10, got {self.players} (R1.1)")
        self.dealer = None if p["dealer"] < 0 else int(p["dealer"])
        Game.new(players=self.players, seed=0, rules=self.rules, dealer=self.dealer)  # checks
        self.codec = ActionCodec(
            self.players,
            self.rules,
            _sizes(p["bet_sizes"], "bet_sizes"),
            _sizes(p["raise_sizes"], "raise_sizes"),
        )
        self.cards = {c.index: c for c in self.rules.deck()}
        bound = self._put_in_bound()
        info = pyspiel.GameInfo(
            num_distinct_actions=self.codec.size,
            max_chance_outcomes=CARDS,
            num_players=self.players,
            min_utility=-float(bound),
            max_utility=float(bound * (self.players - 1)),
            utility_sum=0.0,
            max_game_length=self._length_bound(),
        )
        super().__init__(GAME_TYPE, info, p)

    def _raises_bound(self) -> int:
        return self.rules.max_raises if self.rules.max_raises is not None else PRACTICAL_RAISES

    def _put_in_bound(self) -> int:
        """Most chips one seat can put in (utilities lie within it), R3.4 or a turn cap."""
        r = self.rules
        if r.stacks is not None:
            return r.stacks
        top_attack = (2 * r.max_soldiers + 2) * r.small_bet * max(self.codec.bet_sizes)
        top_raise = r.big_bet * max(self.codec.raise_sizes) + 2 * r.small_bet
        per_turn = r.small_bet + r.discard_amount + 2 * top_attack
        per_turn += (self._raises_bound() + 1) * (top_raise + top_attack)
        return r.ante_amount + r.max_turns * per_turn

    def _length_bound(self) -> int:
        deck = len(self.rules.deck())
        deal = 4 * deck + self.players * self.rules.palace_cards
        per_turn = 4 + self._raises_bound() + 2  # turn, buy card, trim, answers, trim
        return deal + self.rules.max_turns * per_turn

    def new_initial_state(self) -> PalaceSpielState:
        return PalaceSpielState(self)

    def make_py_observer(
        self, iig_obs_type: pyspiel.IIGObservationType | None = None, params: Any = None
    ) -> PalaceObserver:
        if params:
            raise ValueError(f"observation parameters are not supported, got {params}")
        return PalaceObserver(
            self, iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False)
        )


class _Box:
    """The engine game and each seat's observation log, copied with `Game.clone` (fast)
    when OpenSpiel clones a state, and pickled as the actions that rebuild it."""

    __slots__ = ("spiel", "game", "tokens", "read", "counts", "history", "world")

    def __init__(self, spiel: PalaceSpielGame, game: Game) -> None:
        self.spiel = spiel  # the OpenSpiel game (shared, never copied)
        self.game = game
        self.tokens: list[tuple[str, ...]] = [()] * game.players
        self.read = 0  # events turned into tokens so far
        self.counts = [[0] * len(KINDS) for _ in range(game.players)]
        self.history: list[int] = []  # every chance outcome and action id, in order
        self.world = False  # a sampled world (resample_from_infostate) has no true history

    def __deepcopy__(self, memo: dict) -> _Box:
        b = _Box.__new__(_Box)
        b.spiel = self.spiel
        b.game = self.game.clone()
        b.tokens = self.tokens[:]
        b.read = self.read
        b.counts = [c[:] for c in self.counts]
        b.history = self.history[:]
        b.world = self.world
        return b

    def __reduce__(self) -> tuple:
        if self.world:
            raise PalaceError("a sampled world cannot be serialised: it has no deal to replay")
        return (_rebuild_box, (dict(self.spiel.get_parameters()), list(self.history)))

    def catch_up(self) -> None:
        events = self.game.events
        if self.read == len(events):
            return
        new = events[self.read :]
        self.read = len(events)
        for seat in range(len(self.tokens)):
            self.tokens[seat] = self.tokens[seat] + tuple(event_token(e, seat) for e in new)


def _rebuild_box(params: dict[str, Any], history: list[int]) -> _Box:
    """Unpickling a state: replay its chance outcomes and actions on a fresh hand."""
    state = pyspiel.load_game(SHORT_NAME, params).new_initial_state()
    for a in history:
        state.apply_action(a)
    return state._box


class PalaceSpielState(pyspiel.State):
    """One Palace hand in OpenSpiel: a `palace.Game` with manual chance inside."""

    def __init__(self, game: PalaceSpielGame) -> None:
        super().__init__(game)
        g = Game.new(
            players=game.players, seed=0, rules=game.rules, dealer=game.dealer, manual_chance=True
        )
        self._box = _Box(game, g)
        self._box.catch_up()

    # ---------------------------------------------------------------- the engine
    @property
    def engine(self) -> Game:
        """The `palace.Game` inside (read it; change it only through OpenSpiel actions)."""
        return self._box.game

    def _codec(self) -> ActionCodec:
        return self._box.spiel.codec

    # ---------------------------------------------------------------- OpenSpiel API
    def current_player(self) -> int:
        g = self._box.game
        if g.is_over:
            return pyspiel.PlayerId.TERMINAL
        if g.to_act is None:  # a card is due
            return pyspiel.PlayerId.CHANCE
        return g.to_act

    def is_terminal(self) -> bool:
        return self._box.game.is_over

    def _legal_actions(self, player: int) -> list[int]:
        g = self._box.game
        if g.to_act != player:
            return []
        return list(self._codec().legal(g))

    def chance_outcomes(self) -> list[tuple[int, float]]:
        cards = self._box.game.chance_outcomes()
        p = 1.0 / len(cards)
        return [(c.index, p) for c in cards]

    def _apply_action(self, action: int) -> None:
        box = self._box
        g = box.game
        if g.is_chance:
            g.apply_chance(Card.from_index(action))
        else:
            legal = self._codec().legal(g)
            if action not in legal:
                raise PalaceError(f"action {action} is not legal now")
            a = legal[action]
            seat = g.to_act
            assert seat is not None
            g.apply(a)
            box.counts[seat][KINDS.index(a.kind)] += 1
        box.history.append(int(action))
        box.catch_up()

    def _action_to_string(self, player: int, action: int) -> str:
        g = self._box.game
        if player == pyspiel.PlayerId.CHANCE:
            return f"Deal {Card.from_index(action)}"
        legal = self._codec().legal(g) if g.to_act == player else {}
        if action in legal:
            return _words(g, legal[action])
        try:
            return f"{self._codec().decode(g, action)} (not legal now)"
        except PalaceError:
            return f"action {action}"

    def returns(self) -> list[float]:
        g = self._box.game
        if not g.is_over:
            return [0.0] * g.players
        return [float(g.won[s] - g.put_in[s]) for s in range(g.players)]

    def __str__(self) -> str:
        g = self._box.game
        z = g.zones()
        parts = [f"phase {g.phase}; to act {g.to_act}; pot {g.pot}; turns {g.turns}"]
        for s in range(g.players):
            banner = g.banner(s) or "-"
            parts.append(
                f"{s}:{'in' if g.active[s] else 'out'} {banner} [{format_cards(g.soldiers(s))}]"
                f" palace [{format_cards(g.palace(s))}] put {g.put_in[s]} won {g.won[s]}"
            )
        parts.append(f"deck [{format_cards(z['deck'])}] discard [{format_cards(z['discard'])}]")
        return "\n".join(parts)

    # ---------------------------------------------------------------- search support
    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> PalaceSpielState:
        """A state drawn uniformly from those `player_id` cannot tell from this one: the
        cards it has not seen are dealt at random (`SeatView.sample_world`). The player's
        own information state is the same; the others' logs start at the sampled position."""
        box = self._box
        g = box.game
        if g.is_chance or g.phase in (Phase.DEALER_SELECTION, Phase.BANNER_DEAL, Phase.PALACE_DEAL):
            raise PalaceError("a world can be resampled once the cards are dealt (R5)")
        rng = random.Random(int(probability_sampler() * 2**53))
        world = g.view(player_id).sample_world(rng)
        state = box.spiel.new_initial_state()
        nb = _Box(box.spiel, world)
        nb.tokens = [("(sampled world)",)] * g.players
        nb.tokens[player_id] = box.tokens[player_id]
        nb.read = len(world.events)
        nb.counts = [c[:] for c in box.counts]
        nb.history = []
        nb.world = True
        state._box = nb
        return state


def _words(g: Game, a: Action) -> str:
    if isinstance(a, Bet):
        return g.describe(a)
    if isinstance(a, Raise):
        size = g.raise_size() if a.amount is None else a.amount
        return f"Raise {size}"
    return str(a)


# ------------------------------------------------------------------ observations
class PalaceObserver:
    """OpenSpiel observer: the information state (perfect recall: every event as the seat
    saw it) or the observation (`game.view(seat)`), as a string and a tensor."""

    def __init__(self, game: PalaceSpielGame, iig_obs_type: pyspiel.IIGObservationType) -> None:
        self.perfect_recall = iig_obs_type.perfect_recall
        self.private = iig_obs_type.private_info == pyspiel.PrivateInfoType.SINGLE_PLAYER
        if iig_obs_type.private_info == pyspiel.PrivateInfoType.ALL_PLAYERS:
            raise ValueError("palace_poker observers show one seat's knowledge or public facts")
        if not iig_obs_type.public_info:
            raise ValueError("palace_poker observers always include public information")
        n = game.players
        zones = 4 + 3 * n  # unseen, deck, discard, rejects, each seat's banner/soldiers/palace
        self.zone_index = {"deck": 1, "discard": 2, "rejects": 3}
        for s in range(n):
            for k, part in enumerate(("banner", "soldiers", "palace")):
                self.zone_index[f"seat{s}.{part}"] = 4 + 3 * s + k
        pieces = [
            ("player", n, (n,)),
            ("to_act", n + 2, (n + 2,)),  # seats, chance, nobody
            ("phase", len(PHASES), (len(PHASES),)),
            ("cards", CARDS * zones, (CARDS, zones)),
            ("pot", 1, (1,)),
            ("put_in", n, (n,)),
            ("stacks", n, (n,)),
            ("active", n, (n,)),
            ("palace_count", n, (n,)),
            ("attacker", n, (n,)),
            ("defender", n, (n,)),
            ("owed", 1, (1,)),
            ("raises", 1, (1,)),
            ("quiet", n, (n,)),
            ("must_battle", 1, (1,)),
            ("turns", 1, (1,)),
        ]
        if self.perfect_recall:
            pieces.append(("actions", n * len(KINDS), (n, len(KINDS))))
        size = sum(p[1] for p in pieces)
        self.tensor = np.zeros(size, np.float32)
        self.dict: dict[str, np.ndarray] = {}
        at = 0
        for name, k, shape in pieces:
            self.dict[name] = self.tensor[at : at + k].reshape(shape)
            at += k

    def _view(self, state: PalaceSpielState, player: int) -> SeatView:
        return state.engine.view(player)

    def set_from(self, state: PalaceSpielState, player: int) -> None:
        self.tensor.fill(0)
        d = self.dict
        g = state.engine
        n = g.players
        d["player"][player] = 1
        d["to_act"][g.to_act if g.to_act is not None else (n if g.is_chance else n + 1)] = 1
        d["phase"][PHASES.index(g.phase)] = 1
        v = self._view(state, player)  # a view exists in every phase, the deal included
        known = v.known
        for c in v.rules.deck():
            where = known.get(c)
            if where is not None and not self.private and where == f"seat{player}.palace":
                where = None
            d["cards"][c.index, self.zone_index.get(where, 0) if where else 0] = 1
        self._public(v, d)
        if self.perfect_recall:
            d["actions"][:] = np.asarray(state._box.counts, np.float32)

    @staticmethod
    def _public(v: SeatView, d: dict[str, np.ndarray]) -> None:
        d["pot"][0] = v.pot
        for s in v.seats:
            d["put_in"][s.seat] = s.put_in
            d["stacks"][s.seat] = s.stack or 0
            d["active"][s.seat] = s.active
            d["palace_count"][s.seat] = s.palace_count
        if v.battle is not None:
            d["attacker"][v.battle.attacker] = 1
            d["defender"][v.battle.defender] = 1
            d["owed"][0] = v.battle.owed
            d["raises"][0] = v.battle.raises
        for q in v.turn.quiet:
            d["quiet"][q] = 1
        d["must_battle"][0] = v.turn.must_battle
        d["turns"][0] = v.turn.turns

    def string_from(self, state: PalaceSpielState, player: int) -> str:
        box = state._box
        if self.perfect_recall:
            box.catch_up()
            tokens = (
                box.tokens[player]
                if self.private
                else tuple(event_token(e, None) for e in state.engine.events)
            )
            return f"seat {player}|" + "|".join(tokens)
        g = state.engine
        text = view_text(self._view(state, player))
        if not self.private:
            text = text.replace(f"my palace [{format_cards(g.palace(player))}]", "my palace [?]")
        return text


pyspiel.register_game(GAME_TYPE, PalaceSpielGame)


def rules_fields() -> tuple[str, ...]:
    """Every `Rules` field: each has a game parameter of the same name."""
    return tuple(f.name for f in fields(Rules))
