"""``unocli bench``'s rollouts at a search's positions (kernel.searched_rollouts) count what a search plays.

At each of seat 0's turns with no pending penalty and two options or more, a search of budget
b plays b rollouts of each of its k options. The count is checked against the reference
engine's rounds, stepped decision by decision with its own option list (reference
search.options), so a bench that skipped or doubled positions would be caught.
"""

from __future__ import annotations

import pytest

from unocli.game.policies import preset as policy_preset
from unocli.game.rules import preset as rules_preset
from unocli.reference.engine import Round
from unocli.reference.search import options

GAMES = 25
SEED = 3


def _options_weighed(name: str) -> int:
    """Options of seat 0's searched decisions over the first rounds of GAMES games, by the reference engine."""
    rules = rules_preset(name).replace(players=4)
    basic = policy_preset("basic")
    total = 0
    for index in range(GAMES):
        rnd = Round.deal(rules, (basic,) * 4, SEED, index, log=False)
        while True:
            if rnd.current == 0 and not rnd.pending:
                k = len(options(rnd, 0, rnd.legal_cards(0)))
                total += k if k > 1 else 0
            if not rnd.step():
                break
    return total


@pytest.mark.parametrize("name", ["official", "stacking", "seven-o"])
def test_searched_rollouts_are_budget_times_the_options_weighed(name: str) -> None:
    from unocli.kernel import searched_rollouts

    rules = rules_preset(name).replace(players=4)
    basic = policy_preset("basic")
    want = _options_weighed(name)
    assert want > GAMES  # several searched decisions a round
    assert searched_rollouts(rules, basic, 1, GAMES, seed=SEED) == want
    assert searched_rollouts(rules, basic, 3, GAMES, seed=SEED) == 3 * want
