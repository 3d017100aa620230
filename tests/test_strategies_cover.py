"""tests/strategies.py draws every rule field and every knob (the lists are read from the dataclasses).

A field added to ``Rules`` or a knob added to ``Policy`` that the strategies
never set stays at its default in every property and differential test, so
those tests would say nothing about it; this test fails until the strategy
draws it. "Drawn" means hypothesis finds an example off the default value.
"""

from __future__ import annotations

import dataclasses

import pytest
import strategies
from hypothesis import HealthCheck, find, settings
from hypothesis.errors import NoSuchExample

from unocli.game.policies import Policy
from unocli.game.rules import Rules

# hypothesis's own search, no example database (the result must not depend on earlier runs)
SEARCH = settings(database=None, max_examples=2000, suppress_health_check=list(HealthCheck))


def _defaults(cls: type) -> dict[str, object]:
    return {f.name: f.default for f in dataclasses.fields(cls)}


@pytest.mark.parametrize("name", list(_defaults(Rules)))
def test_rule_sets_draw_every_rule_field(name: str) -> None:
    default = _defaults(Rules)[name]
    found = find(strategies.rule_sets(), lambda r: getattr(r, name) != default, settings=SEARCH)
    assert getattr(found, name) != default


@pytest.mark.parametrize("name", list(_defaults(Policy)))
def test_knob_policies_draw_every_knob(name: str) -> None:
    default = _defaults(Policy)[name]
    space = strategies.knob_policies(search=strategies.ANY_SEARCH)
    found = find(space, lambda p: getattr(p, name) != default, settings=SEARCH)
    assert getattr(found, name) != default


def test_the_default_space_plays_no_search() -> None:
    """Search is opt-in (its rollouts are too slow for property tests): the default strategy never draws it."""
    with pytest.raises(NoSuchExample):
        find(strategies.knob_policies(), lambda p: p.search.value != "off", settings=settings(SEARCH, max_examples=300))
