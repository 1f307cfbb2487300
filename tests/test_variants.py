"""The one list of named rule variants (palace.analysis.variants.VARIANTS)."""

from __future__ import annotations

import re

import pytest

from palace import PalaceError, Rules
from palace.analysis.variants import STANDARD, VARIANTS, Variant, by_slug, named, variant


def test_the_list_starts_with_the_standard_rules() -> None:
    assert next(iter(VARIANTS)) == STANDARD and variant(STANDARD).rules == Rules()


@pytest.mark.parametrize("slug", list(VARIANTS))
def test_each_variant_is_named_for_code_and_for_people(slug: str) -> None:
    v = VARIANTS[slug]
    assert v.slug == slug and re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", slug)
    if slug != STANDARD:
        assert v.rules != Rules(), "a variant must change something"
        clauses = re.findall(r"R\d+(?:\.\d+)?", v.label)
        assert clauses, f"{v.label!r} should name the clause it changes"


def test_no_two_variants_share_rules_or_labels() -> None:
    rules = [v.rules for v in VARIANTS.values()]
    labels = [v.label for v in VARIANTS.values()]
    assert len(set(rules)) == len(rules) and len(set(labels)) == len(labels)
    with pytest.raises(PalaceError, match="named twice"):
        by_slug(Variant("a", "A", Rules()), Variant("a", "B", Rules(stacks=9)))


def test_named_gives_labels_and_rules_in_the_order_asked() -> None:
    got = named(["free-discard", "standard"])
    assert list(got) == ["free discard (R6.4)", "standard (limit)"]
    assert got["free discard (R6.4)"].discard_amount == 0
    assert list(named()) == [v.label for v in VARIANTS.values()]
    with pytest.raises(PalaceError, match="unknown variant 'pot-limit'; known: standard, no-limit"):
        variant("pot-limit")
