"""The interaction of a rule with the fields of players (study/interaction.py), against a hand count and scipy.

Two fields (every seat ``basic``, every seat ``random``) play the official rules and the seven-o rules on games
0 .. 59 of one seed, so each field's effect of seven-o is paired deal by deal and the two fields' effects are paired
too. The hand computation rebuilds each block's effect from the kernel's per-game rows (game i in block i mod 6),
and scipy's one-sample t test on the per-block interactions gives the interval and p-value.
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
RULES = {"official": resolve_rules("official", players=PLAYERS), "seven-o": resolve_rules("seven-o", players=PLAYERS)}
FIELDS = ("basic", "random")


def _arms(field: str) -> list[Arm]:
    return [Arm(name, rules, (preset(field),) * PLAYERS) for name, rules in RULES.items()]


@pytest.fixture(scope="module")
def comps():
    quantities = ("turns", "won", "win_0")
    return {f: compare(_arms(f), games=GAMES, seed=SEED, blocks=BLOCKS, quantities=quantities) for f in FIELDS}


def _hand_block_effects(field: str, quantity: str) -> np.ndarray:
    """Per block: seven-o's mean minus official's, from the rows, lengths over each arm's finished games of the block."""
    rows = {name: play_rows(rules, (preset(field),) * PLAYERS, seed=SEED, start=0, count=GAMES) for name, rules in RULES.items()}
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
def test_interaction_against_scipy_on_the_blocks(comps, quantity):
    x = _hand_block_effects("basic", quantity) - _hand_block_effects("random", quantity)
    res = sps.ttest_1samp(x, 0.0)
    ci = res.confidence_interval(0.95)
    got = interaction(comps["basic"], comps["random"], "seven-o", "official", quantity)
    assert got.n == BLOCKS
    assert got.diff == pytest.approx(x.mean(), rel=1e-12, abs=1e-15)
    assert (got.low, got.high, got.p) == pytest.approx((ci.low, ci.high, res.pvalue), rel=1e-9)
    back = interaction(comps["random"], comps["basic"], "seven-o", "official", quantity)  # A and B swapped: sign flips
    assert back.diff == pytest.approx(-got.diff, abs=1e-15) and back.p == pytest.approx(got.p, rel=1e-12)


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
