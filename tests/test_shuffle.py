"""The deal's shuffle and seeded generator are the standard library's, draw for draw (R2.2, R5.1):
the same seed deals the same cards as ``random.Random(seed).shuffle`` would, and leaves the
generator where it would (a later Buy draws the same card)."""

from __future__ import annotations

import random

import pytest

from palace.game import seeded_random
from palace.shuffle import shuffle

SIZES = (0, 1, 2, 3, 4, 5, 13, 20, 51, 52, 53, 64, 100, 255, 256, 700, 1023, 1024, 1500)


@pytest.mark.parametrize("size", SIZES)
def test_shuffle_is_random_shuffle_and_leaves_the_generator_in_the_same_state(size: int) -> None:
    for seed in range(200):
        ours, theirs = list(range(size)), list(range(size))
        a, b = random.Random(seed), random.Random(seed)
        shuffle(a, ours)
        b.shuffle(theirs)
        assert ours == theirs, (seed, size)
        assert a.getstate() == b.getstate(), (seed, size)


def test_shuffle_draws_from_a_generator_already_in_use() -> None:
    a, b = random.Random(5), random.Random(5)
    for _ in range(50):
        a.random()
        b.random()
        ours, theirs = list("abcdefghijklmnopqrstuvwxyz"), list("abcdefghijklmnopqrstuvwxyz")
        shuffle(a, ours)
        b.shuffle(theirs)
        assert ours == theirs
    assert a.getrandbits(64) == b.getrandbits(64)


def test_a_subclass_of_random_shuffles_its_own_way() -> None:
    class Reversing(random.Random):
        def shuffle(self, x: list[object]) -> None:  # type: ignore[override]
            x.reverse()

    x = [1, 2, 3]
    shuffle(Reversing(1), x)
    assert x == [3, 2, 1]


@pytest.mark.parametrize("seed", [0, 1, 7, 12345, -3, 2**40 + 1, 2**70])
def test_seeded_random_is_random_random(seed: int) -> None:
    ours, theirs = seeded_random(seed), random.Random(seed)
    assert ours.getstate() == theirs.getstate()
    assert [ours.random() for _ in range(5)] == [theirs.random() for _ in range(5)]
    assert type(ours) is random.Random
