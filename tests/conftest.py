"""Shared pytest set-up.

Hypothesis runs derandomised by default (profile ``ci``), so the default test
run (and CI) is the same run every time: a failure in CI is a change in the
code, never a new random example. Examples per test in the default run
(each module sets its own, overridable by environment variable for a longer
hunt):

- tests/test_properties.py (``UNOCLI_PROPERTY_EXAMPLES``, default 300):
  ``test_round_invariants`` 300, ``test_later_rounds_of_a_match_deal_correctly``
  100, ``test_every_match_ends_with_one_player_at_target`` 30 (whole matches in the reference
  engine: 100 took up to four minutes in the full run);
- tests/test_differential.py (``UNOCLI_DIFFERENTIAL_EXAMPLES``, default 40):
  ``test_hypothesis_rounds`` 40, ``test_hypothesis_matches`` 10; the slow
  variants (``pytest -m slow``) 1000 and 250.

``--hypothesis-profile=explore`` draws fresh random examples for a bug hunt,
and prints the seed to reproduce any failure.

The numba kernel is loaded (compiled on a cold cache, about half a minute; loaded
from numba's cache otherwise, under a second) once per session, before the
first test, by :func:`kernel`: ``pytest --durations=20`` then shows that cost
as the set-up of the first test instead of hiding it inside whichever test
happened to call the kernel first.
"""

from __future__ import annotations

import sys

import pytest
from hypothesis import settings

settings.register_profile("ci", derandomize=True, print_blob=True)
settings.register_profile("explore", derandomize=False, print_blob=True)
settings.load_profile("ci")


@pytest.fixture(scope="session", autouse=True)
def kernel() -> None:
    """Compile or load the kernel once, if any collected test module imported it (a stats-only run does not pay)."""
    if "unocli.kernel" not in sys.modules:
        return
    from unocli.game.policies import preset
    from unocli.game.rules import Rules
    from unocli.kernel import play_rows

    rules = Rules()
    for match in (False, True):
        play_rows(rules, (preset("random"),) * rules.players, seed=0, count=1, match=match, threads=1)
