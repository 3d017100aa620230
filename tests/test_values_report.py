"""The report computations against values computed another way (the mutation group ``report``, mutation/run.sh).

Every figure of the stacking report's field, strategy, arm and chain tables is recounted here from the
kernel's own rows of the same deals (``play_rows``: one row per game, docs/rules.md §9) with scipy's t,
Wilson and Welch formulas; the skill cells (shared with the house-rules report's skill gap) from the
per-deal counts of rotations won that the shards return (a spy on ``run_shard``), with the cluster-robust
variance written from the observations and scipy's paired t; the bluff report's game theory on worked
grids solved by hand; and the fields' verdict matrix on a frame written by hand. Small runs (a few hundred
deals, fixed seeds): every test is fast, so a mutation run can afford them.

Bootstrap intervals (turns counting skips, balance) are the percentiles of ``Comparison.boot_means``
(tested with compare) at the report's own replicate seed: the test checks which replicates and which
quantile the report reads, not the bootstrap itself.
"""

from __future__ import annotations

import math
import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from scipy import stats as sps

from unocli.analysis import house_rules_gap
from unocli.analysis import skill as skill_cells
from unocli.analysis import stacking as stacking_mod
from unocli.analysis.bluff_grid import crossing, fictitious_play, pure_path, rate_bounds
from unocli.analysis.stacking import field_rows, strategy_rows
from unocli.game.counters import Outcome
from unocli.kernel import ROW_NAMES, play_rows
from unocli.report.analyses import Context, skill
from unocli.report.analyses.skill import plan
from unocli.report.analyses.stacking import play_field
from unocli.report.experiment import load_experiment
from unocli.report.words import holds_everywhere, verdict_matrix
from unocli.run.backends import LocalBackend

COL = {name: i for i, name in enumerate(ROW_NAMES)}
GAMES, SEED, P = 300, 23, 4
Z_LEVEL = 0.95

STACKING = f"""
analysis = "stacking"
games = {GAMES}
seed = {SEED}
players = [{P}]
baseline = "off"
[base]
policy = "basic"
[arms.off]
rules = "official"
[arms.any]
set = {{ stacking = "any" }}
[options]
fields = ["random"]
adapted = "basic"
reference = "basic:stack=0"
versus_players = [{P}]
replicates = 40
"""


@pytest.fixture(scope="module")
def ctx() -> Context:
    return Context(backend=LocalBackend(), log=lambda _: None)


@pytest.fixture(scope="module")
def stack_run(tmp_path_factory, ctx):
    """The random field's comparison at 4 players (six arms: off, any and seat 0 swapped) and each arm's kernel rows."""
    path = tmp_path_factory.mktemp("stacking") / "stacking.toml"
    path.write_text(STACKING, encoding="utf-8")
    exp = load_experiment(path)
    comp = play_field(exp, ctx, P, "random", "off")
    rows = {}
    for arm in comp.arms:
        rows[arm.name] = play_rows(arm.rules, arm.policies, seed=SEED, start=0, count=GAMES)
    assert set(rows) == {"off", "any", "off+adapted", "off+reference", "any+adapted", "any+reference"}
    return exp, comp, rows


def finished(r: np.ndarray) -> np.ndarray:
    return np.isin(r[:, COL["outcome"]], (int(Outcome.WON), int(Outcome.BLOCKED)))


def t_ci(x: np.ndarray, level: float = Z_LEVEL) -> tuple[float, float, float]:
    """Mean and Student t interval of a sample (scipy), 95% unless told."""
    x = np.asarray(x, float)
    if not x.std() > 0:  # no spread (a player that wins every match): the interval is the point
        return float(x.mean()), float(x.mean()), float(x.mean())
    lo, hi = sps.t.interval(level, len(x) - 1, loc=x.mean(), scale=sps.sem(x))
    return float(x.mean()), float(lo), float(hi)


def paired(x: np.ndarray) -> tuple[float, float, float, float]:
    """Mean of per-deal differences, its 95% t interval and the two-sided p of scipy's one-sample t test."""
    mean, lo, hi = t_ci(x)
    return mean, lo, hi, float(sps.ttest_1samp(np.asarray(x, float), 0.0).pvalue)


def wilson(k: int, n: int) -> tuple[float, float]:
    ci = sps.binomtest(k, n).proportion_ci(Z_LEVEL, method="wilson")
    return float(ci.low), float(ci.high)


def close(got, want, tol=1e-9) -> bool:
    return abs(float(got) - float(want)) <= tol


# ---------------------------------------------------------------- stacking: the field table


def test_field_rows_levels_counted_from_the_rows(stack_run):
    _, comp, rows = stack_run
    out = {r["stacking"]: r for r in field_rows(comp, P, "random", ["off", "any"], "off", 40, SEED)}
    boot = comp.boot_means(40, seed=SEED % (2**32) + 7 * P)
    q = comp.quantities
    for name in ("off", "any"):
        r, got = rows[name], out[name]
        fin = finished(r)
        assert (got["players"], got["field"], got["stacking"], got["n"]) == (P, "random", name, GAMES)
        assert got["finished"] == int(fin.sum())
        for col in ("turns", "cards_drawn"):
            mean, lo, hi = t_ci(r[fin, COL[col]])
            assert close(got[col], mean, 1e-12) and close(got[f"{col}_low"], lo) and close(got[f"{col}_high"], hi), col
        long = r[fin, COL["turns"]] + r[fin, COL["skips"]]
        assert close(got["turns_skips"], long.mean(), 1e-9)
        k = comp.index(name)
        reps = boot[:, k, q.index("turns")] + boot[:, k, q.index("skips")]
        assert close(got["turns_skips_low"], np.quantile(reps, 0.025)) and close(
            got["turns_skips_high"], np.quantile(reps, 0.975)
        )
        for at in (8, 12):
            hits = int((r[:, COL["max_draw"]] >= at).sum())
            assert close(got[f"p_draw_{at}"], hits / GAMES, 1e-12), at
            lo, hi = wilson(hits, GAMES)
            assert close(got[f"p_draw_{at}_low"], lo) and close(got[f"p_draw_{at}_high"], hi), at
        first = r[:, COL["first_to_one"]]
        reached = first >= 0
        lost = reached & (r[:, COL["winner"]] != first)
        assert got["one_reached"] == int(reached.sum())
        assert close(got["comeback"], lost.sum() / reached.sum(), 1e-12)
        lo, hi = wilson(int(lost.sum()), int(reached.sum()))
        assert close(got["comeback_low"], lo) and close(got["comeback_high"], hi)
    # the figures the checks lean on occur: big draws under any (none under off), comebacks and wins by the first
    assert out["any"]["p_draw_8"] > 0 and out["off"]["p_draw_8"] == 0 and out["any"]["p_draw_12"] > 0
    assert 0 < out["any"]["comeback"] < 1 and "d_turns" not in out["off"]


def test_field_rows_fold_a_large_seed_into_32_bits_for_the_bootstrap(stack_run):
    """The replicates' seed is the report's seed modulo 2**32 plus 7 per player: (2**32 + 100) gives 100 + 28."""
    _, comp, _ = stack_run
    (got,) = field_rows(comp, P, "random", ["any"], "off", 40, 2**32 + 100)
    q, k = comp.quantities, comp.index("any")

    def interval(seed: int) -> tuple[float, float]:
        boot = comp.boot_means(40, seed=seed)
        reps = boot[:, k, q.index("turns")] + boot[:, k, q.index("skips")]
        return float(np.quantile(reps, 0.025)), float(np.quantile(reps, 0.975))

    want, other = interval(100 + 7 * P), interval(36 + 7 * P)  # 36 = (2**32 + 100) mod 64: a wrong modulus
    assert want != other  # the seed shows in the interval, so a wrong one would be seen
    assert close(got["turns_skips_low"], want[0]) and close(got["turns_skips_high"], want[1])


def test_field_rows_changes_paired_on_the_deals_comebacks_as_a_paired_ratio(stack_run):
    _, comp, rows = stack_run
    got = {r["stacking"]: r for r in field_rows(comp, P, "random", ["off", "any"], "off", 40, SEED)}["any"]
    a, b = rows["any"], rows["off"]
    both = finished(a) & finished(b)
    for col in ("turns", "cards_drawn"):
        mean, lo, hi, p = paired(a[both, COL[col]] - b[both, COL[col]])
        assert close(got[f"d_{col}"], mean, 1e-12) and close(got[f"d_{col}_low"], lo) and close(got[f"d_{col}_high"], hi)
        assert close(got[f"d_{col}_p"], p, 1e-9), col
    # turns counting skips: each arm's mean over its own finished rounds, minus the baseline's
    fa, fb = finished(a), finished(b)
    want = (a[fa, COL["turns"]] + a[fa, COL["skips"]]).mean() - (b[fb, COL["turns"]] + b[fb, COL["skips"]]).mean()
    assert close(got["d_turns_skips"], want, 1e-9)
    boot = comp.boot_means(40, seed=SEED % (2**32) + 7 * P)
    q, ka, kb = comp.quantities, comp.index("any"), comp.index("off")
    reps = (boot[:, ka, q.index("turns")] + boot[:, ka, q.index("skips")]) - (
        boot[:, kb, q.index("turns")] + boot[:, kb, q.index("skips")]
    )
    assert close(got["d_turns_skips_low"], np.quantile(reps, 0.025)) and close(
        got["d_turns_skips_high"], np.quantile(reps, 0.975)
    )
    # comebacks: the difference of two ratios (comebacks over rounds a seat reached one card), paired on the deals:
    # each ratio linearised per block of deals (game i in block i mod blocks), scipy's t test on the pseudo-values
    blocks = comp.sums.blocks
    block = np.arange(comp.start, comp.start + GAMES) % blocks
    used = np.bincount(block, minlength=blocks) > 0
    point, contrib = 0.0, np.zeros(int(used.sum()))
    for r, sign in ((a, 1.0), (b, -1.0)):
        first = r[:, COL["first_to_one"]]
        reached = first >= 0
        lost = reached & (r[:, COL["winner"]] != first)
        lb, rb = np.bincount(block, lost, blocks)[used], np.bincount(block, reached, blocks)[used]
        share = lb.sum() / rb.sum()
        point += sign * share
        contrib += sign * used.sum() * (lb - share * rb) / rb.sum()
    test = sps.ttest_1samp(point + contrib, 0.0)
    ci = test.confidence_interval(0.95)
    assert close(got["d_comeback"], point, 1e-12) and close(got["d_comeback_p"], test.pvalue)
    assert close(got["d_comeback_low"], ci.low) and close(got["d_comeback_high"], ci.high)


def test_strategy_rows_edge_gap_and_interaction_from_the_rows(stack_run):
    exp, comp, rows = stack_run
    out = {r["stacking"]: r for r in strategy_rows(comp, P, "random", ["off", "any"], "off", exp.options)}
    won = {name: (r[:, COL["winner"]] == 0).astype(float) for name, r in rows.items()}
    for v in ("off", "any"):
        got = out[v]
        assert (got["players"], got["field"], got["stacking"], got["n"]) == (P, "random", v, GAMES)
        d = won[f"{v}+adapted"] - won[f"{v}+reference"]
        if v == "off":  # stack=0 changes nothing without stacking: the same player, deal for deal
            assert not d.any() and (got["edge"], got["edge_low"], got["edge_high"]) == (0.0, 0.0, 0.0)
        else:
            mean, lo, hi, p = paired(d)
            assert close(got["edge"], mean, 1e-12) and close(got["edge_low"], lo) and close(got["edge_high"], hi)
            assert close(got["edge_p"], p)
        k = int(won[f"{v}+adapted"].sum())
        lo, hi = wilson(k, GAMES)
        assert close(got["gap"], k / GAMES - 1 / P, 1e-12)
        assert close(got["gap_low"], min(lo, k / GAMES) - 1 / P) and close(got["gap_high"], max(hi, k / GAMES) - 1 / P)
    c = won["any+adapted"] - won["any+reference"] - won["off+adapted"] + won["off+reference"]
    mean, lo, hi, p = paired(c)
    got = out["any"]
    assert close(got["interaction"], mean, 1e-12) and close(got["interaction_low"], lo) and close(got["interaction_high"], hi)
    assert close(got["interaction_p"], p)
    assert all(math.isnan(out["off"][key]) for key in ("interaction", "interaction_low", "interaction_high", "interaction_p"))
    assert mean != 0 and out["any"]["edge"] != out["off"]["edge"]  # the figures differ, so a swapped arm shows


def test_contrast_with_any_coefficients_in_any_order_is_the_per_deal_paired_t(stack_run):
    from unocli.analysis.stacking import contrast

    _, comp, rows = stack_run
    won = {name: (r[:, COL["winner"]] == 0).astype(float) for name, r in rows.items()}
    for coefs in (
        {"off+reference": 1, "off+adapted": -1, "any+reference": -1, "any+adapted": 1},  # the recorded pairs reversed
        {"any+adapted": 1, "any+reference": 2, "off+adapted": -3, "off": 0},  # weights other than +-1; a 0 is left out
    ):
        got = contrast(comp, coefs, "win_0")
        mean, lo, hi, p = paired(sum(c * won[n] for n, c in coefs.items()))
        assert got.n == GAMES and close(got.diff, mean, 1e-12) and close(got.low, lo) and close(got.high, hi), coefs
        assert close(got.p, p), coefs


# ---------------------------------------------------------------- stacking: the arm and chain tables


def test_arm_rows_add_skips_stuck_capped_and_paired_effects(stack_run):
    _, comp, rows = stack_run
    out = {r["stacking"]: r for r in stacking_mod._arm_rows(comp, P, ("off", "any"), "off", 40, SEED)}
    for name in ("off", "any"):
        r, got = rows[name], out[name]
        fin = finished(r)
        assert close(got["turns_with_skips"], r[fin, COL["turns"]].mean() + r[fin, COL["skips"]].mean(), 1e-9)
        assert close(got["stuck_share"], (r[:, COL["outcome"]] == int(Outcome.STUCK)).mean(), 1e-12)
        assert close(got["capped_share"], (r[:, COL["outcome"]] == int(Outcome.CAPPED)).mean(), 1e-12)
    a, b, got = rows["any"], rows["off"], out["any"]
    both = finished(a) & finished(b)
    for metric, x in (
        ("turns", a[both, COL["turns"]] - b[both, COL["turns"]]),
        ("cards_drawn", a[both, COL["cards_drawn"]] - b[both, COL["cards_drawn"]]),
        (
            "win_first",
            (a[:, COL["winner"]] == a[:, COL["first_player"]]).astype(float) - (b[:, COL["winner"]] == b[:, COL["first_player"]]),
        ),
    ):
        mean, lo, hi, p = paired(x)
        assert close(got[f"d_{metric}"], mean, 1e-12) and close(got[f"d_{metric}_low"], lo), metric
        assert close(got[f"d_{metric}_high"], hi) and close(got[f"p_{metric}"], p), metric
    assert "d_turns" not in out["off"] and "d_balance" in got


def test_stack_row_chain_lengths_counted_from_the_rows(stack_run):
    _, comp, rows = stack_run
    r = rows["any"]
    got = stacking_mod._stack_row(comp, P, "any")
    chain = r[:, COL["max_stack"]]
    assert (got["players"], got["stacking"], got["n"]) == (P, "any", GAMES)
    mean, lo, hi = t_ci(chain[finished(r)])
    assert close(got["mean_max_stack"], mean, 1e-12) and close(got["mean_low"], lo) and close(got["mean_high"], hi)
    for k in (2, 3, 4):
        hits = int((chain >= k).sum())
        lo, hi = wilson(hits, GAMES)
        assert close(got[f"p_at_least_{k}"], hits / GAMES, 1e-12) and close(got[f"p_at_least_{k}_low"], lo), k
        assert close(got[f"p_at_least_{k}_high"], hi), k
    for k in range(8):
        assert close(got[f"share_{k}"], (chain == k).mean(), 1e-12), k
    assert close(got["share_8_or_more"], (chain >= 8).mean(), 1e-12)
    assert got["longest_seen"] == int(chain.max())
    assert 0 < got["p_at_least_3"] < got["p_at_least_2"] < 1  # chains of 2 and 3 occur: the bins are exercised


class _Stub:
    """A comparison reduced to what ``_stack_row`` reads: one arm's chain histogram and its mean chain."""

    def __init__(self, hist: np.ndarray, mean) -> None:
        self.hist, self._mean = hist, mean

    def acc(self, name: str):
        return type("Acc", (), {"stack_hist": self.hist})()

    def mean(self, arm: str, quantity: str):
        assert quantity == "max_stack"
        return self._mean


def test_stack_row_bins_on_a_histogram_written_by_hand():
    # chains 0..12 and one of 20 (the accumulator keeps 33 bins); the table shows 0..7 and "8 or more"
    from unocli.study.stats import t_interval

    hist = np.zeros(33, dtype=np.int64)
    hist[:13] = [50, 20, 10, 6, 4, 3, 2, 1, 1, 1, 1, 0, 1]
    hist[20] = 1
    est = t_interval(101, 300, 2000)
    got = stacking_mod._stack_row(_Stub(hist, est), 4, "any")
    assert got["n"] == 101 and got["longest_seen"] == 20
    assert [got[f"share_{k}"] for k in range(8)] == pytest.approx([h / 101 for h in (50, 20, 10, 6, 4, 3, 2, 1)], abs=1e-15)
    assert got["share_8_or_more"] == pytest.approx(5 / 101, abs=1e-15)  # chains of 8, 9, 10, 12 and 20
    assert got["p_at_least_2"] == pytest.approx(31 / 101) and got["p_at_least_4"] == pytest.approx(15 / 101)
    assert (got["mean_max_stack"], got["mean_low"], got["mean_high"]) == (est.mean, est.low, est.high)


# ---------------------------------------------------------------- skill cells (skill and house-rules reports)

SKILL = """
analysis = "skill"
seed = 29
games = 120
players = [2, 3]
baseline = "official"
[arms.official]
rules = "official"
[arms.stacking]
rules = "stacking"
[options]
player = "basic"
fields = ["random", "basic"]
match_games = 12
"""


def _spy(monkeypatch) -> list:
    seen: list = []
    real = skill_cells.run_shard

    def spy(spec, shard):
        part = real(spec, shard)
        seen.append((spec, part))
        return part

    monkeypatch.setattr(skill_cells, "run_shard", spy)
    return seen


def _cell_values(parts: list) -> dict:
    """A cell recomputed from the shards' per-deal counts of rotations won (slot 0 is the player)."""
    parts = sorted(parts, key=lambda sp: sp[1].start)
    wins = np.concatenate([np.array(p.wins) for _, p in parts]).astype(float)
    g, n = wins.shape
    mine, anyone = wins[:, 0], wins.sum(axis=1)
    ybar = mine.sum() / (g * n)
    v = g / (g - 1) * ((mine - n * ybar) ** 2).sum() / (g * n) ** 2  # CR1 variance of a mean over g clusters
    half = sps.t.ppf(0.975, g - 1) * math.sqrt(v)
    e = (mine - anyone / n) / n
    em, elo, ehi = t_ci(e)
    rounds = sum(p.acc.metric_sums("rounds")[0] for _, p in parts)
    squares = sum(p.acc.metric_sums("rounds")[1] for _, p in parts)
    fin = sum(p.acc.finished for _, p in parts)
    # rounds per match, bounded for the rotations' correlation: SS / (N - n) x n / N, t over the g deals
    rounds_half = sps.t.ppf(0.975, g - 1) * math.sqrt(n * (squares - rounds**2 / fin) / ((fin - n) * fin)) if fin else math.nan
    return {
        "n": g,
        "games": sum(p.acc.games for _, p in parts),
        "share": ybar,
        "share_low": ybar - half,
        "share_high": ybar + half,
        "fair": anyone.sum() / (g * n * n),
        "gap": em,
        "gap_low": elo,
        "gap_high": ehi,
        "per_deal": e,
        "rounds": rounds / fin if fin else math.nan,
        "rounds_low": rounds / fin - rounds_half if fin else math.nan,
        "rounds_high": rounds / fin + rounds_half if fin else math.nan,
    }


@pytest.fixture
def skill_run(tmp_path, ctx, monkeypatch):
    # function-scoped: mutmut ties each function to the tests that call it, and a module fixture's calls
    # would be tied to the first test using it only
    seen = _spy(monkeypatch)
    path = tmp_path / "skill.toml"
    path.write_text(SKILL, encoding="utf-8")
    exp = load_experiment(path)
    result = skill.compute(exp, ctx)
    # one shard per cell (fewer deals than a shard holds), played in compute's order
    keys = [
        (p, f, name, kind)
        for p in (2, 3)
        for f in ("random", "basic")
        for name in ("official", "stacking")
        for kind in ("round", "match")
    ]
    assert len(seen) == len(keys)
    cells = {key: _cell_values([sp]) for key, sp in zip(keys, seen, strict=True)}
    for (p, _, _, kind), (spec, _) in zip(keys, seen, strict=True):
        assert len(spec.policies) == p and spec.match == (kind == "match") and spec.rotate_seats
    return exp, result, cells


def test_skill_gaps_table_against_cluster_robust_counts(skill_run):
    _, result, cells = skill_run
    g = result.gaps.set_index(["players", "field", "rules"])
    assert len(g) == 8
    for (p, f, name, kind), want in cells.items():
        row = g.loc[(p, f, name)]
        assert row[f"{kind}_n"] == want["n"] and row[f"{kind}_games"] == want["games"] == want["n"] * p
        for key in ("share", "share_low", "share_high", "fair", "gap", "gap_low", "gap_high"):
            assert close(row[f"{kind}_{key}"], want[key]), (p, f, name, kind, key)
        if kind == "match":
            assert close(row["match_rounds"], want["rounds"], 1e-12)
            assert close(row["match_rounds_low"], want["rounds_low"]) and close(row["match_rounds_high"], want["rounds_high"])
            assert row["match_rounds_low"] < row["match_rounds"] < row["match_rounds_high"]
    # a planted edge: basic against random wins more than an average seat (the figures are not all alike)
    assert g.loc[(2, "random", "official"), "round_gap_low"] > 0


def test_skill_changes_paired_with_bonferroni_simultaneous_intervals(skill_run):
    exp, result, cells = skill_run
    ch = result.changes.set_index(["kind", "players", "field", "rules"])
    assert len(ch) == 2 * 2 * 2 and set(ch.index.get_level_values("rules")) == {"stacking"}
    for kind, margin in (("round", exp.margins["win_share_pp"]), ("match", float(exp.options["match_margin_pp"]))):
        family = 4  # the kind's rows read together: 2 sizes x 2 fields
        for p in (2, 3):
            for f in ("random", "basic"):
                row = ch.loc[(kind, p, f, "stacking")]
                d = cells[(p, f, "stacking", kind)]["per_deal"] - cells[(p, f, "official", kind)]["per_deal"]
                mean, lo, hi = t_ci(d)
                assert row["n"] == len(d) and close(row["d_gap"], mean, 1e-12)
                assert close(row["d_low"], lo) and close(row["d_high"], hi)
                level = 1 - 0.05 / family
                _, slo, shi = t_ci(d, level)
                assert close(row["sim_low"], slo, 1e-7) and close(row["sim_high"], shi, 1e-7), (kind, p, f)
                assert close(row["sim_level"], level, 1e-12) and row["margin_pp"] == margin
                # TOST against +-margin with scipy's one-sided t tests, Bonferroni over the family of four
                m = margin / 100
                p_low = sps.ttest_1samp(d, -m, alternative="greater").pvalue
                p_high = sps.ttest_1samp(d, m, alternative="less").pvalue
                assert close(row["p_tost"], min(1.0, family * max(p_low, p_high)), 1e-7), (kind, p, f)
                # the verdict read off the simultaneous interval, by the definitions of docs/statistics.md
                if slo > m or shi < -m:
                    want = "larger"
                elif -m <= slo and shi <= m:
                    want = "negligible" if slo > 0 or shi < 0 else "equivalent"
                else:
                    want = "unsized" if slo > 0 or shi < 0 else "undecided"
                assert row["verdict"] == want, (kind, p, f)


HOUSE = """
analysis = "house-rules"
seed = 31
games = 50
players = [3]
baseline = "official"
[base]
policy = "basic"
[arms.official]
rules = "official"
[arms.stacking]
rules = "stacking"
[arms.seven-o-next]
rules = "seven-o"
policy = "basic:swap_target=next"
[options]
fields = ["basic"]
replicates = 20
skill_player = "smart"
skill_field = "random"
skill_games = 90
"""


def test_house_rules_skill_gaps_against_the_cells_counted_by_hand(tmp_path, ctx, monkeypatch):
    path = tmp_path / "house.toml"
    path.write_text(HOUSE, encoding="utf-8")
    exp = load_experiment(path)
    assert house_rules_gap.gap_rules(plan(exp)) == ["official", "stacking"]  # the knob-only arm is left out
    seen = _spy(monkeypatch)
    said: list[str] = []
    frame = house_rules_gap.skill_gaps(plan(exp), Context(backend=LocalBackend(), log=said.append), "official").set_index("rule")
    assert said == [f"{exp.name}: skill gap, 3 players, smart against random: 2 rule sets"]
    assert len(seen) == 2 and [len(spec.policies) for spec, _ in seen] == [3, 3]
    assert all(spec.match is False and spec.rotate_seats for spec, _ in seen)  # rounds, seats rotated
    cells = {name: _cell_values([sp]) for name, sp in zip(("official", "stacking"), seen, strict=True)}
    for name, want in cells.items():
        row = frame.loc[name]
        assert (row["players"], row["player"], row["field"], row["n"], row["games"]) == (3, "smart", "random", 90, 270)
        for key in ("gap", "gap_low", "gap_high"):
            assert close(row[key], want[key]), (name, key)
    d = cells["stacking"]["per_deal"] - cells["official"]["per_deal"]
    mean, lo, hi = t_ci(d)
    row = frame.loc["stacking"]
    assert close(row["d_gap"], mean, 1e-12) and close(row["d_low"], lo) and close(row["d_high"], hi)
    # one change in the family: the simultaneous interval is the 95% one
    assert close(row["sim_low"], lo, 1e-7) and close(row["sim_high"], hi, 1e-7) and close(row["sim_level"], 0.95, 1e-12)
    assert row["verdict"] in ("larger", "unsized", "negligible", "equivalent", "undecided")
    assert math.isnan(frame.loc["official", "d_gap"]) and pd.isna(frame.loc["official", "verdict"])


# ---------------------------------------------------------------- bluff: game theory on worked grids


def test_fictitious_play_first_steps_by_hand_and_its_equilibrium():
    w = np.array([[3.0, 0.0], [0.0, 1.0]])
    p, q = fictitious_play(w, 0)
    assert p.tolist() == [1.0, 0.0] and q.tolist() == [1.0, 0.0]
    # step 1: rows answer column 0 (payoffs 3, 0) -> row 0; columns answer rows [2, 0] (6, 0) -> column 1
    p, q = fictitious_play(w, 1)
    assert p.tolist() == [1.0, 0.0] and q.tolist() == [0.5, 0.5]
    # step 2: against columns [1, 1] rows pay 3, 1 -> row 0; columns against [3, 0] pay 9, 0 -> column 1
    p, q = fictitious_play(w, 2)
    assert p.tolist() == [1.0, 0.0] and q == pytest.approx([1 / 3, 2 / 3])
    # steps 3 and 4: rows pay 3, 2 then 3, 3 (a tie: the first) -> row 0; columns -> 1 (rows [4, 0], [5, 0]);
    # step 5: against columns [1, 4] rows pay 3, 4 -> row 1, so rows [5, 1]; columns against it pay 15, 1 -> 1
    p, q = fictitious_play(w, 5)
    assert p == pytest.approx([5 / 6, 1 / 6], abs=1e-15) and q == pytest.approx([1 / 6, 5 / 6], abs=1e-15)
    # the mixed equilibrium by hand: 3q = 1 - q and 3p = 1 - p, so p = q = 1/4. Fictitious play converges in
    # zero-sum games (Robinson 1951); at the report's 3,000 iterations it is within 0.005 here (measured 0.0004).
    p, q = fictitious_play(w)
    assert p == pytest.approx([0.25, 0.75], abs=0.005) and q == pytest.approx([0.25, 0.75], abs=0.005)
    # leading axes are independent games: a stack gives each game's own answer (three games of 2 x 2, so that a
    # normalisation along the wrong axis could not broadcast by chance)
    w2 = np.stack([w, w.T[::-1], w[::-1]])
    p2, q2 = fictitious_play(w2, 50)
    for g in range(3):
        pg, qg = fictitious_play(w2[g], 50)
        assert p2[g].tolist() == pg.tolist() and q2[g].tolist() == qg.tolist()
    assert p2.shape == q2.shape == (3, 2)


def test_pure_path_best_responses_by_hand():
    w = np.array([[0.5, 0.2], [0.3, 0.6]])
    # from (0, 0): best row against column 0 is 0 (0.5 > 0.3), best column against row 0 is 1 (0.2 < 0.5);
    # against column 1 row 1 (0.6), against row 1 column 0 (0.3); then row 0, column 1 again: a repeat
    assert pure_path(w) == [(0, 0), (0, 1), (1, 0), (0, 1)]
    assert pure_path(np.array([[0.4, 0.9], [0.1, 0.2]])) == [(0, 0), (0, 0)]  # a saddle point at once


def test_crossing_interpolates_the_first_fall_to_zero():
    xs = np.array([0.0, 0.1, 0.2, 0.3])
    ys = np.array(
        [
            [0.3, 0.1, -0.1, -0.3],  # between 0.1 and 0.2: 0.1 + 0.1 * 0.1 / 0.2 = 0.15
            [0.2, 0.0, 0.1, -0.2],  # 0 reached at 0.1 exactly (the first point at or below 0)
            [0.0, 0.2, 0.3, 0.4],  # at or below 0 already at the first rate: -inf
            [0.1, 0.2, 0.3, 0.4],  # never falls: inf
            [0.4, 0.3, 0.2, -0.1],  # 0.2 + 0.1 * 0.2 / 0.3
        ]
    )
    got = crossing(xs, ys)
    assert got[0] == pytest.approx(0.15, abs=1e-12) and got[1] == pytest.approx(0.1, abs=1e-12)
    assert got[2] == -np.inf and got[3] == np.inf and got[4] == pytest.approx(0.2 + 0.02 / 0.3, abs=1e-12)
    assert crossing(xs, ys[0]) == pytest.approx([0.15])  # one row given flat


def test_rate_bounds_are_the_order_statistics_written_out():
    # 11 samples: the lower bound is sorted[int(0.025 * 10)] = sorted[0], the upper sorted[ceil(9.75)] = sorted[10]
    s = np.array([5.0, 1.0, 9.0, 3.0, 7.0, 0.0, 2.0, 8.0, 4.0, 6.0, 10.0])
    assert rate_bounds(s) == (0.0, 10.0)
    # 81 samples 0..80 shuffled: sorted[int(2.0)] = 2 and sorted[ceil(78.0)] = 78
    assert rate_bounds(np.random.default_rng(1).permutation(81).astype(float)) == (2.0, 78.0)
    # 39 samples: sorted[int(0.95)] = sorted[0] (not sorted[1]) and sorted[ceil(37.05)] = sorted[38]
    assert rate_bounds(np.arange(39.0)[::-1]) == (0.0, 38.0)
    # infinite break-even rates sort to the ends
    assert rate_bounds([np.inf] * 3 + [0.5] * 5 + [-np.inf] * 3) == (-np.inf, np.inf)
    assert rate_bounds([0.3, 0.3, np.inf]) == (0.3, np.inf)


# ---------------------------------------------------------------- fields: verdicts across fields


def test_holds_everywhere_and_the_verdict_matrix_on_a_frame_written_by_hand():
    assert holds_everywhere({"random": "larger", "basic": "larger"})
    assert not holds_everywhere({"random": "larger", "basic": "negligible"})
    effects = pd.DataFrame(
        [
            {"players": 6, "rule": "a", "field": "basic", "verdict": "larger", "n": 800, "x": "5"},  # first: kept first
            {"players": 4, "rule": "a", "field": "random", "verdict": "larger", "n": 1000, "x": "1"},
            {"players": 4, "rule": "a", "field": "basic", "verdict": "larger", "n": 1000, "x": "2"},
            {"players": 4, "rule": "b", "field": "random", "verdict": "negligible", "n": 1000, "x": "3"},
            {"players": 4, "rule": "b", "field": "basic", "verdict": "undecided", "n": 2500, "x": "4"},
        ]
    )
    m = verdict_matrix(effects, ("players", "rule"), ("random", "basic"), lambda r: r["x"])
    assert list(m.columns) == ["players", "rule", "random", "basic", "n", "holds under"]
    assert m.to_dict("records") == [
        {"players": 6, "rule": "a", "random": "", "basic": "5", "n": "800 each", "holds under": "all fields (larger)"},
        {"players": 4, "rule": "a", "random": "1", "basic": "2", "n": "1,000 each", "holds under": "all fields (larger)"},
        {
            "players": 4,
            "rule": "b",
            "random": "3",
            "basic": "4",
            "n": "random 1,000; basic 2,500",
            "holds under": "negligible: random; undecided: basic (the fields' difference is not tested)",
        },
    ]
    one = verdict_matrix(effects[effects["players"] == 6], ("rule",), ("random", "basic"), lambda r: r["x"])
    assert one.to_dict("records") == [
        {"rule": "a", "random": "", "basic": "5", "n": "800 each", "holds under": "all fields (larger)"}
    ]


def test_the_verdict_matrix_reads_each_keys_interactions_between_the_fields():
    """``between`` keyed by the row's key values: a larger interaction is named where every field agrees; an
    effect whose verdicts differ says what its interactions say; a key with none is untested, as without them."""
    from unocli.study.interaction import FieldInteraction

    def inter(verdict: str) -> FieldInteraction:
        return FieldInteraction((), "random", "basic", 0.1, 0.01, 100, 0.08, 0.12, 0.95, 2, 0.05, verdict, 0.0, 0.0)

    effects = pd.DataFrame(
        [
            {"players": 6, "rule": "a", "field": "random", "verdict": "larger", "n": 800, "x": "5"},
            {"players": 6, "rule": "a", "field": "basic", "verdict": "larger", "n": 800, "x": "6"},
            {"players": 4, "rule": "a", "field": "random", "verdict": "larger", "n": 1000, "x": "1"},
            {"players": 4, "rule": "a", "field": "basic", "verdict": "larger", "n": 1000, "x": "2"},
            {"players": 4, "rule": "b", "field": "random", "verdict": "negligible", "n": 1000, "x": "3"},
            {"players": 4, "rule": "b", "field": "basic", "verdict": "undecided", "n": 1000, "x": "4"},
        ]
    )
    between = {(6, "a"): [inter("larger")], (4, "b"): [inter("negligible")]}
    m = verdict_matrix(effects, ("players", "rule"), ("random", "basic"), lambda r: r["x"], between)
    assert list(m["holds under"]) == [
        "all fields (larger); amounts differ beyond the margin between random and basic",
        "all fields (larger)",
        "negligible: random; undecided: basic (the fields cannot be told apart: every difference between fields"
        " lies within the margin (interaction on common deals))",
    ]


def test_module_paths_exist():
    # the group's files, as mutation/run.sh's report group names them (a rename would silently empty the group)
    root = Path(__file__).resolve().parents[1]
    script = (root / "mutation" / "run.sh").read_text(encoding="utf-8")
    group = script[script.index("    report)") :]
    paths = re.findall(r'"(unocli/[^"]+\.py)"', group[: group.index(";;")])
    assert len(paths) >= 4, paths  # stacking, skill, bluff, house rules, fields: wherever they live
    for path in paths:
        assert (root / path).is_file(), path
