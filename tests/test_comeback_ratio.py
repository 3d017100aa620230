"""The comeback chance as a paired ratio (run/quantities.COMEBACK_PARTS, study/interaction.contrast with ``per``),
rebuilt from the kernel's per-game rows and checked with scipy and a delete-one-block jackknife.

The chance is comebacks (the first seat left with one card did not win) over rounds in which a seat was left with
one card. Two rule sets play the same deals under two fields; game i is in block i mod BLOCKS. The hand computation
counts each block's comebacks and reached rounds from the rows, linearises each arm's ratio
(``B (L_b - p R_b) / R``) and runs scipy's one-sample t test on the blocks' pseudo-values; the jackknife, a method
that never linearises, gives a standard error the linearised one must match closely at 40 blocks.
"""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats as sps

from unocli.game.policies import preset
from unocli.game.rules import resolve_rules
from unocli.kernel import play_rows
from unocli.kernel.encode import FIRST_TO_ONE, WINNER
from unocli.run.quantities import COMEBACK_PARTS, is_binary, quantity_names, recordable
from unocli.study.arm import Arm
from unocli.study.compare import compare
from unocli.study.interaction import contrast, interaction

SEED, GAMES, BLOCKS, PLAYERS = 5, 2000, 40, 4
RULES = {name: resolve_rules(name, players=PLAYERS) for name in ("official", "stacking")}
FIELDS = ("basic", "random")


def _arms(field: str) -> list[Arm]:
    return [Arm(name, rules, (preset(field),) * PLAYERS) for name, rules in RULES.items()]


@pytest.fixture(scope="module")
def comps():
    return {f: compare(_arms(f), games=GAMES, seed=SEED, blocks=BLOCKS, quantities=("won", *COMEBACK_PARTS)) for f in FIELDS}


@pytest.fixture(scope="module")
def counts():
    """Per field and rule set, per block: (comebacks, rounds a seat reached one card), counted from the rows."""
    out = {}
    for field in FIELDS:
        for name, rules in RULES.items():
            rows = play_rows(rules, (preset(field),) * PLAYERS, seed=SEED, start=0, count=GAMES)
            reached = rows[:, FIRST_TO_ONE] >= 0
            lost = reached & (rows[:, WINNER] != rows[:, FIRST_TO_ONE])
            block = np.arange(GAMES) % BLOCKS
            out[(field, name)] = (np.bincount(block, lost, BLOCKS), np.bincount(block, reached, BLOCKS))
    return out


def _pseudo(terms, counts) -> np.ndarray:
    """point + B * sum_k c_k (L_kb - p_k R_kb) / R_k over (sign, field, rule set) terms."""
    point, contrib = 0.0, np.zeros(BLOCKS)
    for sign, field, name in terms:
        lost, reached = counts[(field, name)]
        p = lost.sum() / reached.sum()
        point += sign * p
        contrib += sign * BLOCKS * (lost - p * reached) / reached.sum()
    return point + contrib


def _jackknife_se(terms, counts) -> float:
    """The delete-one-block jackknife standard error of sum_k c_k L_k / R_k."""

    def value(keep: np.ndarray) -> float:
        return sum(s * counts[(f, n)][0][keep].sum() / counts[(f, n)][1][keep].sum() for s, f, n in terms)

    leave = np.array([value(np.arange(BLOCKS) != b) for b in range(BLOCKS)])
    return float(np.sqrt((BLOCKS - 1) / BLOCKS * ((leave - leave.mean()) ** 2).sum()))


def test_the_parts_are_recordable_binary_and_not_in_the_default_list():
    assert set(COMEBACK_PARTS) <= set(recordable(PLAYERS)) and not set(COMEBACK_PARTS) & set(quantity_names(PLAYERS))
    assert all(is_binary(q) for q in COMEBACK_PARTS)


def test_the_parts_sum_to_the_rows_counts_and_to_the_accumulators(comps, counts):
    for field in FIELDS:
        comp = comps[field]
        for name in RULES:
            lost, reached = counts[(field, name)]
            k = comp.index(name)
            got = comp.sums.block_s1[:, k, [comp.quantities.index(q) for q in ("comeback", "one_reached")]]
            assert got[:, 0].tolist() == lost.tolist() and got[:, 1].tolist() == reached.tolist()
            acc = comp.acc(name)  # the accumulator counts them on its own path
            assert (acc.one_lost, acc.one_reached) == (lost.sum(), reached.sum())


def test_a_paired_change_of_the_chance_against_scipy_and_a_jackknife(comps, counts):
    terms = [(1.0, "basic", "stacking"), (-1.0, "basic", "official")]
    v = _pseudo(terms, counts)
    res = sps.ttest_1samp(v, 0.0)
    ci = res.confidence_interval(0.95)
    got = contrast(comps["basic"], {"stacking": 1, "official": -1}, "comeback", per="one_reached")
    (l1, r1), (l0, r0) = counts[("basic", "stacking")], counts[("basic", "official")]
    assert got.diff == pytest.approx(l1.sum() / r1.sum() - l0.sum() / r0.sum(), rel=1e-12)  # the two shares' difference
    assert (got.low, got.high, got.p, got.n) == pytest.approx((ci.low, ci.high, res.pvalue, BLOCKS), rel=1e-9)
    # linearised and jackknife standard errors of a smooth ratio agree to O(1/B); 10% is several times that at B = 40
    assert got.se == pytest.approx(_jackknife_se(terms, counts), rel=0.10)


def test_the_change_between_two_fields_against_scipy_and_a_jackknife(comps, counts):
    terms = [(1.0, "basic", "stacking"), (-1.0, "basic", "official"), (-1.0, "random", "stacking"), (1.0, "random", "official")]
    v = _pseudo(terms, counts)
    res = sps.ttest_1samp(v, 0.0)
    ci = res.confidence_interval(0.95)
    got = interaction(comps["basic"], comps["random"], "stacking", "official", "comeback", per="one_reached")
    assert got.diff == pytest.approx(v.mean(), rel=1e-12)
    assert (got.low, got.high, got.p) == pytest.approx((ci.low, ci.high, res.pvalue), rel=1e-9)
    assert got.se == pytest.approx(_jackknife_se(terms, counts), rel=0.10)
