"""A match ends on the round in which a total *reaches* target_score (§7), in both engines.

The target is set to exactly what a match's leader holds after a given round,
so "reaches" and "exceeds" differ on that round: a match that ended only when
a total went past the target would play on. The expected round and winner come
from replaying the same match with an unreachable target and reading the
running totals, not from the code under test's own stopping rule.
"""

from __future__ import annotations

import numpy as np
import pytest

from unocli.game.counters import Outcome
from unocli.game.policies import preset
from unocli.game.rules import Rules
from unocli.kernel import ROW_NAMES, play_rows
from unocli.reference.engine import play_match

COL = {name: i for i, name in enumerate(ROW_NAMES)}
POLICIES = (preset("basic"),) * 4


def _running_totals(seed: int, index: int, rounds: int) -> list[list[int]]:
    """Each seat's total after each of the first ROUNDS rounds, from a match nobody can win."""
    match, _ = play_match(Rules(target_score=1_000_000, max_rounds=rounds), POLICIES, seed, index)
    totals, out = [0] * 4, []
    for stats in match.rounds:
        if stats.outcome is Outcome.WON:
            totals[stats.winner] += stats.winner_points
        out.append(list(totals))
    return out


@pytest.mark.parametrize(("seed", "index", "after"), [(3, 0, 0), (3, 1, 1), (8, 5, 2)])
def test_a_total_equal_to_the_target_wins(seed: int, index: int, after: int) -> None:
    totals = _running_totals(seed, index, after + 1)[after]
    target = max(totals)
    assert target > 0 and all(max(t) < target for t in _running_totals(seed, index, after + 1)[:after]), (
        "pick a round after which the leader is strictly ahead of every earlier total"
    )
    leader = totals.index(target)
    rules = Rules(target_score=target)

    match, rounds = play_match(rules, POLICIES, seed, index)
    assert match.outcome is Outcome.WON
    assert (len(rounds), match.winner, match.scores[leader]) == (after + 1, leader, target)

    row = play_rows(rules, POLICIES, seed=seed, start=index, count=1, match=True, threads=1)[0]
    assert row[COL["rounds"]] == after + 1
    assert row[COL["winner"]] == leader
    assert row[COL[f"points_{leader}"]] == target
    assert int(row[COL["outcome"]]) == int(Outcome.WON)


def test_one_point_short_of_the_target_plays_on() -> None:
    totals = _running_totals(3, 0, 1)[0]
    rules = Rules(target_score=max(totals) + 1)
    match, rounds = play_match(rules, POLICIES, 3, 0)
    assert len(rounds) > 1
    row = play_rows(rules, POLICIES, seed=3, start=0, count=1, match=True, threads=1)[0]
    assert row[COL["rounds"]] > 1
    assert np.all(row[[COL[f"points_{s}"] for s in range(4)]] == match.scores)
