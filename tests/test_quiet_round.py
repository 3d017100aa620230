"""The general round without the stuck test (step.quiet_rules): the same rows as with it.

Under the plain round's rules (encode.FAST_RULES) a round cannot come back to an earlier
state unless it reshuffles a discard pile of one card, so ``step.play`` skips the stuck test
(§11.15) there and hands the round back when that reshuffle happens; the batch layer plays it
again with the test. ``specialise=False`` keeps the test on, so the two must give the same rows,
for any policies, on tables where the one-card reshuffle is common.
"""

from __future__ import annotations

import numpy as np
import pytest

from unocli.game.policies import preset as policy_preset
from unocli.game.rules import Stacking, WildDrawFour, preset
from unocli.kernel import _cache  # noqa: F401  (the kernel's cache locators, as unocli.kernel installs them)
from unocli.kernel.encode import FAULT_NONE, encode_policies, encode_rules


@pytest.fixture(scope="module")
def kernel():
    from unocli import kernel

    return kernel


def _quiet(rules, policies) -> bool:
    from unocli.kernel.batch import new_workspace
    from unocli.kernel.step import quiet_rules

    probs, ints, prio = encode_policies(policies)
    ws = new_workspace(np.append(encode_rules(rules), np.int64(FAULT_NONE)), probs, ints, prio)
    return bool(quiet_rules(ws[0]))


def _handbacks(rules, policies, seed: int, count: int) -> int:
    """How many of ``count`` rounds ``step.play`` without the stuck test hands back (a one-card reshuffle)."""
    from numba import njit

    from unocli.kernel.batch import new_workspace
    from unocli.kernel.encode import PURPOSE_DEAL, PURPOSE_PLAY
    from unocli.kernel.step import deal, play, set_stream

    @njit
    def run(ws, seed, count):
        g = ws[0]
        rs = np.zeros(4, np.uint64)
        deal_rs = np.zeros(4, np.uint64)
        n = 0
        for i in range(count):
            set_stream(rs, seed, np.uint64(i), np.int64(PURPOSE_PLAY), np.int64(0))
            set_stream(deal_rs, seed, np.uint64(i), np.int64(PURPOSE_DEAL), np.int64(0))
            deal(g, rs, deal_rs, np.int64(0))
            if not play(g, rs, False):
                n += 1
        return n

    probs, ints, prio = encode_policies(policies)
    ws = new_workspace(np.append(encode_rules(rules), np.int64(FAULT_NONE)), probs, ints, prio)
    return int(run(ws, np.uint64(seed), count))


CROWDED = preset("official").replace(players=8, hand_size=13)  # a one-card reshuffle in about 3% of rounds
CASES = {
    "basic-4": (preset("official"), ("basic",) * 4),
    "crowded-basic": (CROWDED, ("basic",) * 8),
    "crowded-mixed": (CROWDED, ("strong", "smart", "bluffer", "skeptic", "hoarder", "aggressive", "basic", "random")),
    "free-plus4-crowded": (CROWDED.replace(wild_draw_four=WildDrawFour.FREE), ("strong",) * 8),
    "no-challenge-7": (preset("official").replace(players=7, challenge=False, hand_size=12), ("bluffer",) * 7),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_rows_without_the_stuck_test_are_the_rows_with_it(kernel, name: str) -> None:
    rules, names = CASES[name]
    policies = tuple(policy_preset(p) for p in names)
    assert _quiet(rules, policies)
    quiet = kernel.play_rows(rules, policies, seed=11, count=3000, threads=1)
    tested = kernel.play_rows(rules, policies, seed=11, count=3000, threads=1, specialise=False)
    differ = np.nonzero((quiet != tested).any(axis=1))[0]
    assert differ.size == 0, f"games {differ[:5].tolist()} differ"


def test_crowded_tables_hand_rounds_back() -> None:
    """The hand-back path is exercised by the tables above: a one-card reshuffle does happen."""
    policies = (policy_preset("basic"),) * 8
    assert _handbacks(CROWDED, policies, 11, 3000) > 0


@pytest.mark.parametrize(
    "rules",
    [preset("party"), preset("seven-o"), preset("official").replace(stacking=Stacking.PLUS2), preset("jump-in")],
    ids=["party", "seven-o", "stacking", "jump-in"],
)
def test_house_rules_keep_the_stuck_test(rules) -> None:
    assert not _quiet(rules, (policy_preset("basic"),) * rules.players)


def test_search_rollouts_without_the_stuck_test_are_the_rollouts_with_it(kernel) -> None:
    """A searching seat's rollouts skip the stuck test under the same rules, and hand a rollout back the same way.

    On the crowded table about 3% of rounds reshuffle a discard pile of one card (the test above),
    and each search decision plays budget x options rollouts to the round's end, so these 60 games
    (about 40,000 rollouts) replay some; a rollout left unfinished would change the search's totals
    and with them its choices and the rows.
    """
    from unocli.game.policies import parse_policy_spec

    policies = (parse_policy_spec("search:budget=4"),) + (policy_preset("basic"),) * 7
    assert _quiet(CROWDED, policies)
    quiet = kernel.play_rows(CROWDED, policies, seed=5, count=60, threads=1)
    tested = kernel.play_rows(CROWDED, policies, seed=5, count=60, threads=1, specialise=False)
    differ = np.nonzero((quiet != tested).any(axis=1))[0]
    assert differ.size == 0, f"games {differ[:5].tolist()} differ"
