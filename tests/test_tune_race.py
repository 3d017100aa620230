"""The tune race against its definition (issue 29 item 2): every round plays new deals, disjoint from every
earlier round, stage and the fresh re-measurement; and a round drops exactly what Holm's step-down drops.

The deal spy records what ``deal_gains`` is asked to play; replaying the same deals every round (the planted
bug) makes the rounds overlap and fails the first tests. The Holm test plants candidates whose one-sided
p-values are set by construction to straddle Holm's thresholds, and writes the step-down out by hand; testing
each candidate at alpha alone (the other planted bug) drops four where Holm drops two.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from scipy import stats as sps

from unocli.errors import ConfigError
from unocli.game.policies import preset
from unocli.game.rules import Rules
from unocli.study import tune as tuning

RULES = Rules(players=3)
BASIC = preset("basic")


def _table() -> tuning.Table:
    return tuning.Table(RULES, BASIC, 5)


def test_the_deal_schedule_written_out_by_hand():
    # 100 deals, then 200 (300 so far; 300 + 400 <= 1000), then 400 (700; 700 + 800 > 1000: stop)
    assert tuning.deal_schedule(100, 1000) == [(0, 100), (100, 200), (300, 400)]
    assert tuning.deal_schedule(100, 1000, start=5000) == [(5000, 100), (5100, 200), (5300, 400)]
    assert tuning.deal_schedule(10, 10) == [(0, 10)]


def _disjoint(intervals: list[tuple[int, int]]) -> bool:
    spans = sorted(intervals)
    return all(a + n <= b for (a, n), (b, _) in itertools.pairwise(spans))


def _spy(monkeypatch) -> list[tuple[str, int, int]]:
    """Record (policy spec, start, count) of every deal_gains call; play planted gains, no games."""
    calls: list[tuple[str, int, int]] = []

    def fake(table, policy, start, count):
        calls.append((tuning.policy_spec(policy), start, count))
        rng = np.random.default_rng([start, hash(policy) & 0xFFFFFFFF])
        return rng.normal(0.0, 0.3, count) + (0.0 if policy == table.field_policy else -0.01)

    monkeypatch.setattr(tuning, "deal_gains", fake)
    return calls


def test_every_round_of_a_race_plays_new_deals_shared_by_all_its_candidates(monkeypatch):
    calls = _spy(monkeypatch)
    candidates = [tuning.Candidate(f"c{i}", preset(n)) for i, n in enumerate(["basic", "smart", "strong", "hoarder"])]
    state = tuning.race(_table(), candidates, first=100, max_deals=1500, halve=False, alpha=1e-9)
    rounds = sorted({(s, c) for _, s, c in calls})
    assert rounds == [(0, 100), (100, 200), (300, 400), (700, 800)]  # the schedule, played in full
    for s, c in rounds:  # common random numbers: every candidate alive in the round plays the same deals
        assert {spec for spec, s2, c2 in calls if (s2, c2) == (s, c)} == {c_.spec for c_ in candidates}
    assert _disjoint(rounds)
    assert [r.start for r in state.rounds] == [0, 100, 300, 700] and state.end == 1500
    assert all(state.all_gains(c.name).size == 1500 for c in candidates)  # n counts each deal once


def test_the_stages_and_the_fresh_check_never_replay_a_deal(monkeypatch):
    calls = _spy(monkeypatch)
    space = tuning.SearchSpace("basic", {"colour": ("most_held", "next_lacks"), "attack_at": (0, 1, 2, 3)}, candidates=3)
    result = tuning.tune(_table(), space, first=50, max_deals=400, fresh_deals=300, local_steps=3)
    assert len(result.races) >= 2  # local search ran, so there are several stages to keep apart
    search = sorted({(s, c) for _, s, c in calls if s < tuning.FRESH_START})
    stage_rounds = [(r.start, d) for race in result.races for r, d in zip(race.rounds, _round_sizes(race), strict=True)]
    assert search == sorted(stage_rounds)
    assert _disjoint(search)
    fresh = {(s, c) for _, s, c in calls if s >= tuning.FRESH_START}
    assert fresh == {(tuning.FRESH_START, 300)}  # the winner, the references, the other field: one set of fresh deals
    assert max(s + c for s, c in search) <= tuning.MAX_SEARCH_DEALS < tuning.FRESH_START


def _round_sizes(race: tuning.Race) -> list[int]:
    totals = [r.deals for r in race.rounds]
    return [b - a for a, b in zip([0, *totals], totals, strict=False)]


# ---------------------------------------------------------------- Holm's step-down, by hand

N = 400
ALPHA = 0.05
# One-sided p-values of "worse than the leader", planted: Holm over 4 compares the sorted p-values with
# alpha/4, alpha/3, alpha/2, alpha = 0.0125, 0.0167, 0.025, 0.05.
PLANTED = {"a": 0.004, "b": 0.015, "c": 0.03, "d": 0.04}


def _planted_gains() -> dict[str, np.ndarray]:
    """Gains whose paired difference to the leader has exactly the planted one-sided t test p-value."""
    rng = np.random.default_rng(7)
    z = rng.normal(size=N)
    z = (z - z.mean()) / z.std(ddof=1)  # mean 0, sd 1 exactly
    lead = 0.05 + rng.normal(0.0, 0.2, N)
    out = {"lead": lead}
    for name, p in PLANTED.items():
        t = sps.t.ppf(p, N - 1)  # the t statistic whose lower tail is p
        out[name] = lead + z + t / np.sqrt(N)  # difference: mean t/sqrt(N), sd 1
    return out


def test_the_planted_p_values_are_what_scipy_says():
    gains = _planted_gains()
    for name, p in PLANTED.items():
        got = sps.ttest_rel(gains[name], gains["lead"], alternative="less").pvalue
        assert got == pytest.approx(p, rel=1e-9)


def test_a_round_drops_what_holms_step_down_written_out_by_hand_drops(monkeypatch):
    gains = _planted_gains()
    policies = {
        "lead": preset("strong"),
        "a": preset("basic"),
        "b": preset("smart"),
        "c": preset("hoarder"),
        "d": preset("aggressive"),
    }
    by_policy = {policies[k]: v for k, v in gains.items()}
    monkeypatch.setattr(tuning, "deal_gains", lambda table, policy, start, count: by_policy[policy][start : start + count])
    candidates = [tuning.Candidate(k, v) for k, v in policies.items()]
    state = tuning.race(_table(), candidates, first=N, max_deals=N, alpha=ALPHA, halve=False)

    # Holm by hand: sort the p-values; reject while the k-th smallest (k = 0, 1, ...) is below alpha / (m - k).
    ordered = sorted(PLANTED.items(), key=lambda kv: kv[1])
    m, expected = len(ordered), set()
    for k, (name, p) in enumerate(ordered):
        if p >= ALPHA / (m - k):
            break
        expected.add(name)
    assert expected == {"a", "b"}  # 0.004 < 0.0125, 0.015 < 0.0167, 0.03 >= 0.025: stop
    assert set(state.dropped_in) == expected
    assert state.rounds[0].dropped == tuple(n for n in policies if n in expected)
    # each at alpha alone would drop all four; Bonferroni (alpha / 4 for every one) only "a"
    assert sum(p < ALPHA for p in PLANTED.values()) == 4 and sum(p < ALPHA / 4 for p in PLANTED.values()) == 1


def test_holm_drops_is_the_step_down_on_a_worked_example():
    # m = 3: thresholds 0.05/3, 0.05/2, 0.05 on the sorted values 0.01, 0.02, 0.04: all three rejected
    assert tuning.holm_drops([0.04, 0.01, 0.02], 0.05) == [True, True, True]
    # 0.01 < 0.0167 rejected; 0.03 >= 0.025 stops, so 0.04 stays although it is below 0.05
    assert tuning.holm_drops([0.04, 0.01, 0.03], 0.05) == [False, True, False]
    assert tuning.holm_drops([], 0.05) == []


def test_successive_halving_keeps_at_most_half_of_a_round(monkeypatch):
    """Twenty alike candidates (no one significantly worse): halving alone makes 20 -> 10 -> 5 -> 3 -> 2 -> 1."""
    monkeypatch.setattr(
        tuning,
        "deal_gains",
        lambda table, policy, start, count: np.random.default_rng([start, hash(policy) & 0xFFFF]).normal(0, 1, count),
    )
    candidates = [tuning.Candidate(f"c{i}", BASIC.replace(challenge=i / 20)) for i in range(20)]
    state = tuning.race(_table(), candidates, first=10, max_deals=10_000, alpha=1e-12)
    assert [r.alive for r in state.rounds] == [10, 5, 3, 2, 1]
    assert all(not r.dropped for r in state.rounds)  # all by the cut, none by the test


@pytest.mark.parametrize("alpha", [float("nan"), float("inf"), 0.0, 1.0, -0.5])
def test_a_level_outside_0_1_is_refused(alpha):
    with pytest.raises(ConfigError, match="alpha"):
        tuning.race(_table(), [tuning.Candidate("a", BASIC), tuning.Candidate("b", preset("smart"))], alpha=alpha)
