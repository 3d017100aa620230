"""The interaction of a rule with the fields of players (study/interaction.py), against a hand count and scipy.

Two fields (every seat ``basic``, every seat ``random``) play the official rules and the seven-o rules on games
0 .. 59 of one seed, so each field's effect of seven-o is paired deal by deal and the two fields' effects are paired
too. The hand computation rebuilds everything from the kernel's per-game rows (game i in block i mod 6): each arm's
mean over its finished games, each block's delta-method contribution, and scipy's one-sample t test on the blocks'
pseudo-values; for seat 0's share (10 games in every block) that is Student's t over the blocks' own interactions.
Rounds are capped at 40 turns, so the blocks' finished counts differ and the length exercises the weighting.
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest
from scipy import stats as sps

from unocli.errors import ConfigError
from unocli.game.policies import preset
from unocli.game.rules import resolve_rules
from unocli.kernel import ROW_NAMES, play_rows
from unocli.kernel.encode import OUTCOME, OUTCOME_BLOCKED, OUTCOME_WON, WINNER
from unocli.study.arm import Arm
from unocli.study.compare import compare
from unocli.study.interaction import block_effects, interaction, judge_family
from unocli.study.stats import EQUIVALENT, LARGER, UNDECIDED, Difference, holm

SEED, GAMES, BLOCKS, PLAYERS = 11, 60, 6, 3
# capped at 40 turns, so some rounds do not finish and the blocks' finished counts differ
RULES = {name: dataclasses.replace(resolve_rules(name, players=PLAYERS), max_turns=40) for name in ("official", "seven-o")}
FIELDS = ("basic", "random")


def _arms(field: str) -> list[Arm]:
    return [Arm(name, rules, (preset(field),) * PLAYERS) for name, rules in RULES.items()]


@pytest.fixture(scope="module")
def comps():
    quantities = ("turns", "won", "win_0")
    return {f: compare(_arms(f), games=GAMES, seed=SEED, blocks=BLOCKS, quantities=quantities) for f in FIELDS}


def _rows(field: str) -> dict[str, np.ndarray]:
    return {name: play_rows(rules, (preset(field),) * PLAYERS, seed=SEED, start=0, count=GAMES) for name, rules in RULES.items()}


def _values(row: np.ndarray, quantity: str) -> tuple[float, bool]:
    """(value, counted): a length counts only when the round finished; seat 0's win over every round."""
    if quantity == "turns":
        return float(row[ROW_NAMES.index("turns")]), int(row[OUTCOME]) in (OUTCOME_WON, OUTCOME_BLOCKED)
    return float(int(row[WINNER]) == 0), True


def _hand_pseudo_values(quantity: str) -> np.ndarray:
    """The blocks' pseudo-values point + B * sum_k c_k (S_kb - m_k F_kb) / F_k, written out from the rows."""
    point, contrib = 0.0, np.zeros(BLOCKS)
    for field, sign_field in (("basic", 1.0), ("random", -1.0)):
        for name, rows in _rows(field).items():
            sign = sign_field * (1.0 if name == "seven-o" else -1.0)
            vals = [_values(r, quantity) for r in rows]
            s_b = np.array([sum(v for g, (v, c) in enumerate(vals) if c and g % BLOCKS == b) for b in range(BLOCKS)])
            f_b = np.array([sum(1 for g, (_, c) in enumerate(vals) if c and g % BLOCKS == b) for b in range(BLOCKS)])
            mean = s_b.sum() / f_b.sum()
            point += sign * mean
            contrib += sign * BLOCKS * (s_b - mean * f_b) / f_b.sum()
    return point + contrib


def _hand_block_effects(field: str, quantity: str) -> np.ndarray:
    """Per block: seven-o's mean minus official's, from the rows, lengths over each arm's finished games of the block."""
    rows = _rows(field)
    out = []
    for b in range(BLOCKS):
        games = [g for g in range(GAMES) if g % BLOCKS == b]
        means = {}
        for name, r in rows.items():
            if quantity == "turns":
                done = [g for g in games if int(r[g][OUTCOME]) in (OUTCOME_WON, OUTCOME_BLOCKED)]
                means[name] = sum(int(r[g][ROW_NAMES.index("turns")]) for g in done) / len(done)
            else:  # win_0: seat 0 won, over every game of the block
                means[name] = sum(int(r[g][WINNER]) == 0 for g in games) / len(games)
        out.append(means["seven-o"] - means["official"])
    return np.array(out)


@pytest.mark.parametrize("quantity", ["turns", "win_0"])
def test_block_effects_counted_by_hand(comps, quantity):
    for field in FIELDS:
        got = block_effects(comps[field], "seven-o", "official", quantity)
        assert got == pytest.approx(_hand_block_effects(field, quantity), rel=1e-12, abs=1e-15)


@pytest.mark.parametrize("quantity", ["turns", "win_0"])
def test_interaction_against_scipy_on_the_hand_made_pseudo_values(comps, quantity):
    v = _hand_pseudo_values(quantity)
    res = sps.ttest_1samp(v, 0.0)
    ci = res.confidence_interval(0.95)
    got = interaction(comps["basic"], comps["random"], "seven-o", "official", quantity)
    assert got.n == BLOCKS
    assert got.diff == pytest.approx(v.mean(), rel=1e-12, abs=1e-15)
    assert (got.low, got.high, got.p) == pytest.approx((ci.low, ci.high, res.pvalue), rel=1e-9)
    back = interaction(comps["random"], comps["basic"], "seven-o", "official", quantity)  # A and B swapped: sign flips
    assert back.diff == pytest.approx(-got.diff, abs=1e-12) and back.p == pytest.approx(got.p, rel=1e-9)


def test_a_length_is_the_contrast_of_the_four_means_over_finished_rounds(comps):
    c = comps
    means = {(f, a): c[f].mean(a, "turns").mean for f in FIELDS for a in RULES}
    point = (
        means[("basic", "seven-o")] - means[("basic", "official")] - means[("random", "seven-o")] + means[("random", "official")]
    )
    assert interaction(c["basic"], c["random"], "seven-o", "official", "turns").diff == pytest.approx(point, rel=1e-12)
    # some rounds were capped, so the blocks' finished counts differ: the weighting is exercised
    assert len({int(x) for x in c["basic"].sums.block_fin[:, 0]}) > 1


def test_equal_blocks_give_students_t_over_the_blocks_own_interactions(comps):
    x = _hand_block_effects("basic", "win_0") - _hand_block_effects("random", "win_0")
    res = sps.ttest_1samp(x, 0.0)
    got = interaction(comps["basic"], comps["random"], "seven-o", "official", "win_0")
    assert got.diff == pytest.approx(x.mean(), abs=1e-15)
    assert (got.low, got.high, got.p) == pytest.approx((*res.confidence_interval(0.95), res.pvalue), rel=1e-9)


def test_a_share_over_every_game_is_the_difference_of_the_two_paired_means(comps):
    # 60 games in 6 blocks of 10: equal blocks, so the mean of the block interactions is the two effects' difference
    a = comps["basic"].diff("seven-o", "official", "win_0").diff
    b = comps["random"].diff("seven-o", "official", "win_0").diff
    assert interaction(comps["basic"], comps["random"], "seven-o", "official", "win_0").diff == pytest.approx(a - b, abs=1e-15)


def test_fields_on_other_deals_are_refused(comps):
    other = compare(_arms("random"), games=GAMES, seed=SEED + 1, blocks=BLOCKS, quantities=("turns",))
    with pytest.raises(ConfigError, match="same deals"):
        interaction(comps["basic"], other, "seven-o", "official", "turns")
    fewer = compare(_arms("random"), games=GAMES - 1, seed=SEED, blocks=BLOCKS, quantities=("turns",))
    with pytest.raises(ConfigError, match="same deals"):
        interaction(comps["basic"], fewer, "seven-o", "official", "turns")


def _diff(diff: float, se: float, df: float = 255.0, p: float = 0.5) -> Difference:
    return Difference(diff, se, int(df) + 1, diff - 1.96 * se, diff + 1.96 * se, p, df)


def test_a_family_is_judged_on_simultaneous_intervals_with_holm_p():
    found = [
        (("a", 4), "basic", "random", _diff(3.0, 0.5, p=1e-6)),  # far beyond a margin of 1
        (("b", 4), "basic", "random", _diff(0.05, 0.1, p=0.6)),  # tight around 0
        (("c", 4), "basic", "random", _diff(0.5, 0.6, p=0.4)),  # crosses the margin
    ]
    out = judge_family(found, margin=1.0)
    # Bonferroni over 3: the two-sided 1 - 0.05/3 t quantile at 255 df, worked out by scipy
    q = sps.t.ppf(1 - 0.05 / 6, 255)
    assert [o.verdict for o in out] == [LARGER, EQUIVALENT, UNDECIDED]
    assert (out[0].low, out[0].high) == pytest.approx((3.0 - q * 0.5, 3.0 + q * 0.5), rel=1e-12)
    assert out[0].level == pytest.approx(1 - 0.05 / 3) and all(o.family == 3 for o in out)
    assert [o.p_holm for o in out] == pytest.approx(list(holm([1e-6, 0.6, 0.4])))
    assert [o.p for o in out] == [1e-6, 0.6, 0.4]
    assert judge_family([], margin=1.0) == []
    assert dataclasses.asdict(out[1])["key"] == ("b", 4)
