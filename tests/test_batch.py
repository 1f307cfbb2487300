"""The numpy batch evaluator agrees with the scalar one, hand by hand (R1.3, R8.1-R8.5)."""

from __future__ import annotations

import itertools
from collections import Counter

import numpy as np
import pytest

from palace import Card, CardError, Category, IllegalActionError, Suit, evaluate, hand_value
from palace.analysis import batch
from palace.analysis.batch import (
    Showdown,
    default_threads,
    evaluate_batch,
    resolve_battles_batch,
    showdown_batch,
)
from palace.hands import category_of, value_of_bits

SEED = 20240611


def random_rows(rng: np.random.Generator, n: int, width: int = 9) -> np.ndarray:
    """``n`` rows of ``width`` distinct random card indices (int8), in random order."""
    parts = []
    for start in range(0, n, 200_000):
        keys = rng.random((min(200_000, n - start), 52), dtype=np.float32)
        parts.append(np.argpartition(keys, width, axis=1)[:, :width].astype(np.int8))
    return rng.permuted(np.concatenate(parts), axis=1)


def padded(rng: np.random.Generator, rows: np.ndarray) -> np.ndarray:
    """Keep 0-9 cards per row (uniform sizes); the pads (-1) land anywhere in the row."""
    sizes = rng.integers(0, rows.shape[1] + 1, rows.shape[0])
    out = np.where(np.arange(rows.shape[1]) < sizes[:, None], rows, -1).astype(np.int8)
    return rng.permuted(out, axis=1)


def scalar_values(rows: np.ndarray, exclude: np.ndarray) -> np.ndarray:
    """The reference: `hand_value` on each row without its pads."""
    pairs = zip(rows.tolist(), exclude.tolist(), strict=True)
    return np.array([hand_value([c for c in row if c >= 0], e) for row, e in pairs], dtype=np.int64)


def first_mismatches(
    rows: np.ndarray, exclude: np.ndarray, got: np.ndarray, want: np.ndarray
) -> str:
    """The first few rows where the two evaluators differ, readably."""
    bad = np.flatnonzero(got != want)[:5]
    return "; ".join(
        f"row {i} {[str(Card.from_index(int(c))) for c in rows[i] if c >= 0]} "
        f"exclude {int(exclude[i])}: batch {int(got[i]):#x} scalar {int(want[i]):#x}"
        for i in bad
    )


# ---------------------------------------------------------------- evaluate_batch
@pytest.mark.slow
def test_one_million_random_hands_match_hand_value() -> None:
    rng = np.random.default_rng(SEED)
    n = 1_000_000
    rows = padded(rng, random_rows(rng, n))
    exclude = rng.integers(-1, 4, n)
    exclude[: n // 4] = -1  # no exclusion in 40% of the rows
    got = evaluate_batch(rows, exclude)
    want = scalar_values(rows, exclude)
    assert got.shape == (n,)
    assert np.array_equal(got, want), first_mismatches(rows, exclude, got, want)
    # the sample covers every category, short hands and the empty hand
    cats = Counter(v >> 20 for v in np.unique(got).tolist())
    assert set(cats) == set(range(10))


@pytest.mark.slow
def test_every_five_card_hand_matches_value_of_bits() -> None:
    combos = itertools.combinations(range(52), 5)
    rows = np.fromiter(combos, dtype=np.dtype((np.int8, 5)), count=2_598_960)
    got = evaluate_batch(rows)
    want = np.fromiter(
        (
            value_of_bits((1 << a) | (1 << b) | (1 << c) | (1 << d) | (1 << e))
            for a, b, c, d, e in itertools.combinations(range(52), 5)
        ),
        dtype=np.int64,
        count=2_598_960,
    )
    none = np.full(len(rows), -1)
    assert np.array_equal(got, want), first_mismatches(rows, none, got, want)
    counts = dict(zip(*np.unique(got >> 20, return_counts=True), strict=True))
    textbook = [1_302_540, 1_098_240, 123_552, 54_912, 10_200, 5_108, 3_744, 624, 40]
    assert [int(counts[c + 1]) for c in Category] == textbook


def test_random_hands_match_evaluate_with_suit_objects() -> None:
    rng = np.random.default_rng(SEED + 1)
    rows = padded(rng, random_rows(rng, 20_000))
    exclude = rng.integers(-1, 4, len(rows))
    got = evaluate_batch(rows, exclude)
    for row, ex, value in zip(rows.tolist(), exclude.tolist(), got.tolist(), strict=True):
        cards = [Card.from_index(c) for c in row if c >= 0]
        hand = evaluate(cards, None if ex < 0 else Suit(ex))
        assert hand.value == value, (cards, ex)


def test_every_hand_size_without_pads() -> None:
    rng = np.random.default_rng(SEED + 2)
    for width in range(10):
        rows = random_rows(rng, 30_000, width)
        exclude = rng.integers(-1, 4, len(rows))
        assert np.array_equal(evaluate_batch(rows, exclude), scalar_values(rows, exclude))


@pytest.mark.parametrize("threads", [1, 2, 3])
@pytest.mark.parametrize("chunk", [7, 997, 16_384])
def test_threads_and_chunks_do_not_change_the_result(threads: int, chunk: int) -> None:
    rng = np.random.default_rng(SEED + 3)
    rows = padded(rng, random_rows(rng, 20_011))
    exclude = rng.integers(-1, 4, len(rows))
    want = evaluate_batch(rows, exclude, threads=1, chunk=len(rows))
    assert np.array_equal(evaluate_batch(rows, exclude, threads=threads, chunk=chunk), want)


@pytest.mark.parametrize("dtype", [np.int8, np.int16, np.int32, np.int64, np.intp])
def test_signed_dtypes_and_layouts(dtype: type) -> None:
    rng = np.random.default_rng(SEED + 4)
    rows = padded(rng, random_rows(rng, 5_000))
    exclude = rng.integers(-1, 4, len(rows)).astype(dtype)
    want = scalar_values(rows, exclude)
    typed = rows.astype(dtype)
    assert np.array_equal(evaluate_batch(typed, exclude), want)
    fortran = np.asfortranarray(typed)
    assert np.array_equal(evaluate_batch(fortran, exclude), want)
    wide = np.full((len(rows), 18), -1, dtype=dtype)
    wide[:, ::2] = typed  # a strided view: every other column
    assert np.array_equal(evaluate_batch(wide[:, ::2], exclude), want)
    assert np.array_equal(evaluate_batch(typed[::-1], exclude[::-1]), want[::-1])


@pytest.mark.parametrize("dtype", [np.uint8, np.uint16, np.uint32, np.uint64])
def test_unsigned_dtypes(dtype: type) -> None:
    rng = np.random.default_rng(SEED + 5)
    rows = random_rows(rng, 5_000, 7)
    exclude = rng.integers(0, 4, len(rows))
    want = scalar_values(rows, exclude)
    assert np.array_equal(evaluate_batch(rows.astype(dtype), exclude.astype(dtype)), want)


def test_lists_ragged_lists_scalars_and_none() -> None:
    hands = [[12, 25, 38, 51, 11], [0, 13], [], [50, 49, 48, 47, 46, 45, 44, 43, 42]]
    want = [hand_value(h) for h in hands]
    assert evaluate_batch(hands).tolist() == want  # ragged rows are padded with -1
    assert evaluate_batch(hands, None).tolist() == want
    assert evaluate_batch(hands, -1).tolist() == want
    assert evaluate_batch(hands, Suit.SPADES).tolist() == [hand_value(h, 3) for h in hands]
    assert evaluate_batch(hands, [0, 1, 2, 3]).tolist() == [
        hand_value(h, s) for h, s in zip(hands, range(4), strict=True)
    ]
    assert evaluate_batch([[]]).tolist() == [0]
    assert evaluate_batch([]).tolist() == []


def test_empty_shapes_and_result_dtype() -> None:
    assert evaluate_batch(np.zeros((0, 9), dtype=np.int8)).shape == (0,)
    out = evaluate_batch(np.zeros((3, 0), dtype=np.int8), [0, 1, -1])
    assert out.tolist() == [0, 0, 0] and out.dtype == np.int32
    assert evaluate_batch(np.full((4, 9), -1)).tolist() == [0] * 4
    assert default_threads() >= 1


def test_table_fallback_for_pads_gives_the_same_values(monkeypatch: pytest.MonkeyPatch) -> None:
    """Where numpy's shift by -1 were not 0, pads go through a lookup table instead."""
    rng = np.random.default_rng(SEED + 7)
    rows = padded(rng, random_rows(rng, 20_000))
    exclude = rng.integers(-1, 4, len(rows))
    want = evaluate_batch(rows, exclude)
    monkeypatch.setattr(batch, "_SHIFT_PADS", False)
    assert np.array_equal(evaluate_batch(rows, exclude), want)
    assert np.array_equal(want, scalar_values(rows, exclude))


def test_repeated_cards_count_once_like_hand_value() -> None:
    rows = [[12, 12, 12, 12, 12, 12, 12, 12, 12], [0, 0, 13, 13, 26, -1, -1, -1, -1]]
    assert evaluate_batch(rows).tolist() == [hand_value(r for r in row if r >= 0) for row in rows]


def test_wheel_six_high_and_ace_high_straights() -> None:
    def idx(text: str) -> list[int]:
        return [Card.parse(t).index for t in text.split()]

    hands = ["Ah 2c 3d 4s 5h", "2c 3d 4s 5h 6h", "Th Jc Qd Ks Ah", "As 2s 3s 4s 5s Kd 9c"]
    got = evaluate_batch([idx(h) for h in hands]).tolist()
    assert got == [evaluate(h).value for h in hands]
    assert got[0] < got[1] < got[2] < got[3]
    assert category_of(got[3]) is Category.STRAIGHT_FLUSH


# ---------------------------------------------------------------- validation
@pytest.mark.parametrize(
    ("cards", "exclude", "fragment"),
    [
        (np.zeros((2, 5), dtype=float), None, "cards must be an integer array"),
        (np.zeros((2, 5), dtype=bool), None, "cards must be an integer array"),
        ([["As", "Kd"]], None, "cards must be an integer array"),
        (np.zeros(5, dtype=int), None, "cards must be 2-D"),
        (np.zeros((2, 2, 2), dtype=int), None, "cards must be 2-D"),
        (np.zeros((2, 10), dtype=int), None, "at most 9 cards (R8.1)"),
        (np.array([[0, 52]]), None, "cards[0, 1] = 52"),
        (np.array([[0, 1], [-2, 3]]), None, "cards[1, 0] = -2"),
        (np.zeros((2, 5), dtype=int), [0, 4], "exclude_suits[1] = 4"),
        (np.zeros((2, 5), dtype=int), [-2, 0], "exclude_suits[0] = -2"),
        (np.zeros((2, 5), dtype=int), [0, 1, 2], "exclude_suits must have shape (2,)"),
        (np.zeros((2, 5), dtype=int), [0.0, 1.0], "exclude_suits must be an integer array"),
        (np.zeros((2, 5), dtype=int), "s", "exclude_suits must be an integer array"),
    ],
)
def test_bad_input_raises_card_error_naming_the_argument(
    cards: object, exclude: object, fragment: str
) -> None:
    with pytest.raises(CardError) as info:
        evaluate_batch(cards, exclude)  # type: ignore[arg-type]
    assert fragment in str(info.value)


@pytest.mark.parametrize("dtype", [np.int8, np.int64, np.uint64])
def test_bad_card_deep_in_a_big_threaded_batch_is_located(dtype: type) -> None:
    rows = np.zeros((50_000, 9), dtype=dtype)
    rows[31_234, 7] = 52
    with pytest.raises(CardError, match=r"cards\[31234, 7\] = 52 is not card indices 0-51"):
        evaluate_batch(rows, threads=2, chunk=1_000)


@pytest.mark.parametrize(
    "kwargs", [{"threads": 0}, {"chunk": 0}, {"threads": 1.5}, {"chunk": True}]
)
def test_bad_threads_or_chunk(kwargs: dict[str, object]) -> None:
    with pytest.raises(ValueError, match=next(iter(kwargs))):
        evaluate_batch(np.zeros((2, 5), dtype=int), **kwargs)  # type: ignore[arg-type]


# ---------------------------------------------------------------- battles
def scalar_battle(att: list[int], s_att: int, dfn: list[int], s_def: int) -> tuple[int, int, int]:
    """The reference showdown: `evaluate` with exclusion (R8.2), then R8.4-R8.6."""
    h_att = evaluate([Card.from_index(c) for c in att if c >= 0], Suit(s_def))
    h_def = evaluate([Card.from_index(c) for c in dfn if c >= 0], Suit(s_att))
    if h_att != h_def:
        return (1 if h_att > h_def else -1), h_att.value, h_def.value
    own_att = sum(1 for c in att if c >= 0 and Card.from_index(c).suit == s_att)
    own_def = sum(1 for c in dfn if c >= 0 and Card.from_index(c).suit == s_def)
    return (own_att > own_def) - (own_att < own_def), h_att.value, h_def.value


def random_battles(rng: np.random.Generator, n: int) -> tuple[np.ndarray, ...]:
    """Real deals: disjoint cards, each side holding its banner card plus 0-8 more."""
    att = np.full((n, 9), -1, dtype=np.int8)
    dfn = np.full((n, 9), -1, dtype=np.int8)
    s_att = rng.integers(0, 4, n)
    s_def = (s_att + rng.integers(1, 4, n)) % 4
    for i in range(n):
        deck = rng.permutation(52)
        banner_a = next(c for c in deck if c // 13 == s_att[i])
        banner_d = next(c for c in deck if c // 13 == s_def[i])
        rest = [c for c in deck if c not in (banner_a, banner_d)]
        ka, kd = rng.integers(0, 9, 2)
        att[i, : ka + 1] = [banner_a, *rest[:ka]]
        dfn[i, : kd + 1] = [banner_d, *rest[ka : ka + kd]]
    return att, s_att, dfn, s_def


def tied_battles(rng: np.random.Generator, n: int) -> tuple[np.ndarray, ...]:
    """Equal values by construction: the defender holds the attacker's cards with the
    suits relabelled so that the excluded suits match; the banner counts then differ
    or not at random, so all three outcomes of the R8.5 tie-break occur."""
    att = padded(rng, random_rows(rng, n))
    s_att = rng.integers(0, 4, n)
    s_def = (s_att + rng.integers(1, 4, n)) % 4
    dfn = np.empty_like(att)
    for i in range(n):
        perm = rng.permutation(4)
        j = int(np.flatnonzero(perm == s_att[i])[0])
        perm[j], perm[s_def[i]] = perm[s_def[i]], perm[j]  # now perm[s_def] == s_att
        row = att[i].astype(np.int64)
        dfn[i] = np.where(row >= 0, perm[row // 13] * 13 + row % 13, -1)
    return att, s_att, dfn, s_def


def test_twenty_thousand_battles_match_the_scalar_showdown() -> None:
    rng = np.random.default_rng(SEED + 6)
    real = random_battles(rng, 12_000)
    ties = tied_battles(rng, 8_000)
    att, s_att, dfn, s_def = (np.concatenate(pair) for pair in zip(real, ties, strict=True))
    result = showdown_batch(att, s_att, dfn, s_def, chunk=4096)
    assert isinstance(result, Showdown)
    assert result.outcome.dtype == np.int8
    want = [
        scalar_battle(a, sa, d, sd)
        for a, sa, d, sd in zip(
            att.tolist(), s_att.tolist(), dfn.tolist(), s_def.tolist(), strict=True
        )
    ]
    assert result.values_att.tolist() == [w[1] for w in want]
    assert result.values_def.tolist() == [w[2] for w in want]
    assert result.outcome.tolist() == [w[0] for w in want]
    assert np.array_equal(resolve_battles_batch(att, s_att, dfn, s_def), result.outcome)
    tie_outcomes = Counter(result.outcome[12_000:].tolist())
    assert np.array_equal(result.values_att[12_000:], result.values_def[12_000:])
    assert min(tie_outcomes[k] for k in (-1, 0, 1)) > 500, tie_outcomes
    assert Counter(result.outcome[:12_000].tolist())[0] < 120  # real deals rarely tie


def test_R8_5_tie_broken_by_cards_of_own_banner_suit() -> None:
    def idx(text: str) -> list[int]:
        return [Card.parse(t).index for t in text.split()]

    # equal pairs of kings; the attacker (hearts) holds 2 hearts, the defender (spades) 1
    att, dfn = idx("Kh Kd 2h 7s"), idx("Ks Kc 2d 7h")
    s = showdown_batch([att], [2], [dfn], [3])
    assert s.values_att.tolist() == s.values_def.tolist()
    assert (s.banner_att.tolist(), s.banner_def.tolist(), s.outcome.tolist()) == ([2], [1], [1])
    # short hands (R8.3): ace-nine each once the banner suits are left out
    att = idx("Ah 9d 4s 3s")
    s = showdown_batch([att, att], [2, 2], [idx("As 9c 2h 7h 8h"), idx("As 9s 2h")], [3, 3])
    assert s.values_att.tolist() == s.values_def.tolist()
    assert s.outcome.tolist() == [0, -1]  # one heart vs one spade: still tied (R8.6)
    # no counting cards on either side
    s = showdown_batch([idx("Ks 2s")], [2], [idx("Ah 3h 4h")], [3])
    assert (s.values_att.tolist(), s.values_def.tolist(), s.outcome.tolist()) == ([0], [0], [0])


@pytest.mark.parametrize(
    ("args", "error", "fragment"),
    [
        (([[0]], [0], [[13], [14]], [1, 1]), CardError, "att_cards has 1 rows but def_cards has 2"),
        (([[0]], [-1], [[13]], [1]), CardError, "att_banner_suits[0] = -1"),
        (([[0]], [0], [[13]], [4]), CardError, "def_banner_suits[0] = 4"),
        (([[0]], [0, 1], [[13]], [1]), CardError, "att_banner_suits must have shape (1,)"),
        (([[60]], [0], [[13]], [1]), CardError, "att_cards[0, 0] = 60"),
        (([[0]], [0], [[13.0]], [1]), CardError, "def_cards must be an integer array"),
        (([[0], [1]], [0, 2], [[13], [40]], [1, 2]), IllegalActionError, "(R7.2)"),
    ],
)
def test_bad_battle_input(args: tuple[object, ...], error: type, fragment: str) -> None:
    with pytest.raises(error) as info:
        resolve_battles_batch(*args)  # type: ignore[arg-type]
    assert fragment in str(info.value)
