"""The ladder's skill measures against values computed another way: a hand-solved relative skill, planted
populations whose measures are known, scipy's paired t interval, and the delta method against the bootstrap."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
from click.testing import CliRunner
from scipy import stats

from unocli.cli.main import cli
from unocli.study.ladder import LONE, Fit, LadderData, LadderTable, fit, plan_lone_tables, plan_tables, ratings_frame
from unocli.study.ladder_skill import (
    Linear,
    lead_linear,
    paired_change,
    relative_skill,
    rounds_to_lead,
    skill_share,
    skill_share_linear,
)


def _synthetic(
    ratings: np.ndarray,
    tables: tuple[LadderTable, ...],
    players: int,
    deals: int,
    rng: np.random.Generator,
    copy: float = 0.0,
    names: tuple[str, ...] | None = None,
) -> LadderData:
    """Winners drawn from the Luce model itself (slot s wins with exp(r_s) / sum); with ``copy`` a rotation
    repeats the deal's first winner with that chance, so a deal's rounds are correlated as in play."""
    wins = np.zeros((len(tables), deals, players), dtype=np.int16)
    for t, tb in enumerate(tables):
        w = np.exp(ratings[list(tb.slots)])
        p = w / w.sum()
        first = rng.choice(players, size=deals, p=p)
        for k in range(players):
            fresh = rng.choice(players, size=deals, p=p)
            winner = first if k == 0 else np.where(rng.random(deals) < copy, first, fresh)
            np.add.at(wins[t], (np.arange(deals), winner), 1)
    return LadderData(names or tuple(f"p{i}" for i in range(len(ratings))), tables, wins, players)


def test_plan_lone_tables_adds_one_table_per_field_and_none_between_lone_policies() -> None:
    tables = plan_lone_tables(4, 2, 4)
    base = plan_tables(4, 4)
    assert tables[: len(base)] == base
    lone = [t for t in tables if t.kind == LONE]
    assert len(lone) == 2 * 4  # each lone-only policy against a field of each of the 4
    assert all(t.slots[0] in (4, 5) and set(t.slots[1:]) <= {0, 1, 2, 3} and len(set(t.slots[1:])) == 1 for t in lone)
    assert [t.slots for t in plan_lone_tables(2, 1, 2) if t.kind == LONE] == [(2, 0), (2, 1)]


def test_relative_skill_hand_solved_heads_up() -> None:
    # Heads-up, random and a in the round robin, the bound b lone against each. Wins chosen to fit the model
    # exactly: a beats random 70:30 (r_a = log 7/3), b beats random 90:10 (r_b = log 9), so b beats a with odds
    # 9 / (7/3) = 27/7: 270:70 over 170 deals. The likelihood's score is then 0 at the planted ratings, so they
    # are the maximum and the relative skill is log(7/3) / log(9) = 0.3856.
    tables = plan_lone_tables(2, 1, 2)  # (random, a), (b, random), (b, a)
    deals = 170
    wins = np.zeros((3, deals, 2), dtype=np.int16)

    def fill(t: int, first: int) -> None:  # `first` rotations to slot 0 of the 2 * deals, the rest to slot 1
        flat = np.zeros(2 * deals, dtype=np.int16)
        flat[:first] = 1
        wins[t, :, 0] = flat.reshape(deals, 2).sum(axis=1)
        wins[t, :, 1] = 2 - wins[t, :, 0]

    fill(0, 102)  # random 102 : a 238 (30:70)
    fill(1, 306)  # b 306 : random 34 (90:10)
    fill(2, 270)  # b 270 : a 70 (27:7)
    data = LadderData(("random", "a", "b"), tables, wins, 2)
    result = fit(data)
    assert result.ratings[1] == pytest.approx(math.log(7 / 3), abs=1e-6)
    assert result.ratings[2] == pytest.approx(math.log(9), abs=1e-6)
    rel = relative_skill(data, result, bound=2)
    assert rel.value == pytest.approx(math.log(7 / 3) / math.log(9), abs=1e-6)
    assert 0 < rel.se < 0.1


def test_relative_skill_interval_covers_the_planted_ratio_95_percent() -> None:
    # Planted: random 0, a 0.3, c 0.5 (the best player), the bound 2.0 lone against each field: relative skill
    # 0.5 / 2.0 = 0.25. 200 replications with correlated rotations (copy 0.5); expected 190 covered, binomial
    # SE 3.1, so [181, 199] is 3 SE below and 2.9 above.
    truth = np.array([0.0, 0.3, 0.5, 2.0])
    tables = plan_lone_tables(3, 1, 4)
    rng = np.random.default_rng(5)
    covered, values = 0, []
    for _ in range(200):
        data = _synthetic(truth, tables, 4, 300, rng, copy=0.5, names=("random", "a", "c", "bound"))
        result = fit(data)
        rel = relative_skill(data, result, bound=3)
        low, high = rel.interval()
        covered += bool(low <= 0.25 <= high)
        values.append(rel.value)
    assert 181 <= covered <= 199, covered
    # the estimator is centred: the mean of 200 is within 4 of its standard errors of 0.25
    assert abs(np.mean(values) - 0.25) < 4 * np.std(values) / math.sqrt(200)


def test_the_best_player_is_never_the_bound() -> None:
    truth = np.array([0.0, 0.3, 0.5, 2.0])
    data = _synthetic(truth, plan_lone_tables(3, 1, 4), 4, 400, np.random.default_rng(1), names=("random", "a", "c", "bound"))
    from unocli.study.ladder_skill import skill_frame

    frame = skill_frame(data, fit(data), replicates=200, bounds=[3]).set_index("key")
    assert frame.loc["relative_skill", "better"] == "c"
    assert frame.loc["lead_second", "better"] == "c" and frame.loc["lead_second", "other"] == "a"
    # the bound's tables are not the round robin: the skill share is over random, a and c only
    assert "over 3 policies" in frame.loc["skill_share", "detail"]


def test_skill_share_delta_method_agrees_with_the_bootstrap() -> None:
    # The same skill share two ways: its delta-method standard error against the percentile bootstrap's spread
    # (95% interval half-width / 1.96). 2,000 replicates put the bootstrap half-width within about 3% of its
    # limit; 15% leaves room for that and for the skew the bootstrap sees.
    truth = np.array([0.0, 0.2, 0.45, 0.6, -0.3])
    data = _synthetic(truth, plan_tables(5, 4), 4, 3000, np.random.default_rng(9), copy=0.3)
    lin = skill_share_linear(data)
    boot = skill_share(data, replicates=2000, seed=3)
    assert lin.value == pytest.approx(boot["skill_share"], rel=1e-12)
    half = (boot["skill_high"] - boot["skill_low"]) / 2
    assert lin.se * 1.96 == pytest.approx(half, rel=0.15)


def test_lead_linear_is_the_exact_count_and_its_log_moves_with_the_gap() -> None:
    truth = np.array([0.0, 0.25, 0.4])
    data = _synthetic(truth, plan_tables(3, 2), 2, 4000, np.random.default_rng(4))
    result = fit(data)
    lead = lead_linear(data, result, 2, 1)
    gap = float(result.ratings[2] - result.ratings[1])
    assert lead.value == rounds_to_lead(1 / (1 + math.exp(-gap)))
    # computed another way: the normal approximation's log, differenced numerically over the gap's se
    se_gap = result.diff_se(2, 1)

    def log_m(d: float) -> float:
        p = 1 / (1 + math.exp(-d))
        return 2 * math.log(stats.norm.ppf(0.9) * math.sqrt(p * (1 - p)) / (p - 0.5))

    slope = (log_m(gap + 1e-5) - log_m(gap - 1e-5)) / 2e-5
    assert lead.log().se == pytest.approx(abs(slope) * se_gap, rel=1e-6)


def test_paired_change_of_means_is_scipys_paired_t() -> None:
    rng = np.random.default_rng(2)
    a = rng.normal(1.0, 1.0, 400)
    b = a * 0.8 + rng.normal(0.1, 0.5, 400)
    la = Linear(float(a.mean()), (a - a.mean()) / a.size)
    lb = Linear(float(b.mean()), (b - b.mean()) / b.size)
    d = paired_change(la, lb, log=False)
    ref = stats.ttest_rel(a, b)
    ci = ref.confidence_interval(0.95)
    assert d.diff == pytest.approx(a.mean() - b.mean(), rel=1e-12)
    assert (d.low, d.high) == (pytest.approx(ci.low, rel=1e-9), pytest.approx(ci.high, rel=1e-9))
    assert d.p == pytest.approx(ref.pvalue, rel=1e-7)
    # unequal deals: independent, Welch-like variance sum
    lc = Linear(float(b[:300].mean()), (b[:300] - b[:300].mean()) / 300)
    ind = paired_change(la, lc, log=False)
    assert ind.se == pytest.approx(math.hypot(la.se, lc.se), rel=1e-12) and math.isnan(ind.sd)


def test_paired_change_of_the_same_ladder_is_exactly_zero() -> None:
    data = _synthetic(np.array([0.0, 0.3, 0.5, 2.0]), plan_lone_tables(3, 1, 4), 4, 300, np.random.default_rng(8))
    data = LadderData(("random", "a", "c", "bound"), data.tables, data.wins, 4)
    result = fit(data)
    rel = relative_skill(data, result, bound=3)
    d = paired_change(rel, rel)
    assert d.diff == 0.0 and d.se == 0.0


def test_lone_tables_on_fewer_deals_leave_the_round_robin_unchanged() -> None:
    # The lone policy's tables play the first 100 of 400 deals; the rest hold zero wins and must add nothing:
    # the other policies' shares and games are those of the round robin alone.
    truth = np.array([0.0, 0.3, 1.5])
    tables = plan_lone_tables(2, 1, 3)
    full = _synthetic(truth, tables, 3, 400, np.random.default_rng(6), names=("random", "a", "bound"))
    wins = full.wins.copy()
    lone = [t for t, tb in enumerate(tables) if tb.kind == LONE]
    wins[lone, 100:] = 0
    data = LadderData(full.names, tables, wins, 3, tuple(100 if t in lone else 400 for t in range(len(tables))))
    frame = ratings_frame(data, fit(data)).set_index("policy")
    assert frame.loc["bound", "games"] == 2 * 1 * 3 * 100  # 2 lone tables x its 1 seat x 3 rotations x 100 deals
    assert frame.loc["bound", "deals"] == 100 and frame.loc["a", "deals"] == 400
    robin = LadderData(full.names[:2], plan_tables(2, 3), full.wins[: len(plan_tables(2, 3))], 3)
    alone = ratings_frame(robin, fit(robin)).set_index("policy")
    assert frame.loc["a", "field_share"] == alone.loc["a", "field_share"]
    # a's games: the round robin's, plus its 2 field seats at the bound's table x 3 rotations x 100 deals
    assert frame.loc["a", "games"] == alone.loc["a", "games"] + 2 * 3 * 100
    # the lone policy's share is over its 100 deals: 100 x 2 tables x 3 rotations rounds
    assert frame.loc["bound", "field_games"] == 600


def test_ladder_command_with_a_bound_a_searcher_and_matches() -> None:
    args = [
        "ladder", "--players", "2", "--policy", "random", "--policy", "basic", "--lone", "search:budget=2",
        "--lone", "peek:budget=2", "--games", "300", "--lone-games", "60", "--match-games", "40", "--json",
    ]  # fmt: skip
    res = CliRunner().invoke(cli, args)
    assert res.exit_code == 0, res.output
    body = json.loads(res.stdout)
    ratings = {r["policy"]: r for r in body["ratings"]}
    assert ratings["peek:budget=2"]["bound"] and not ratings["basic"]["bound"]
    assert ratings["peek:budget=2"]["deals"] == 60 and ratings["basic"]["deals"] == 300
    keys = {(s["level"], s["key"]) for s in body["skill"]}
    assert {("round", "relative_skill"), ("round", "skill_share"), ("match", "skill_share"), ("match", "lead_second")} <= keys
    rel = next(s for s in body["skill"] if s["key"] == "relative_skill")
    assert rel["other"] == "peek:budget=2" and rel["better"] != "peek:budget=2"
    assert [r["policy"] for r in body["match_ratings"]] == ["basic", "random"]


@pytest.mark.parametrize(
    "args",
    [
        ["--lone-games", "20"],
        ["--lone", "peek:budget=2", "--lone-games", "500"],
        ["--lone", "basic"],
        ["--match", "--match-games", "20"],
    ],
)
def test_ladder_lone_and_match_options_refuse_bad_input_in_one_sentence(args: list[str]) -> None:
    res = CliRunner().invoke(cli, ["ladder", "--games", "50", "--policy", "random", "--policy", "basic", *args])
    assert res.exit_code == 2, res.output
    lines = [line for line in res.output.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("Error: ") and "Traceback" not in res.output


def test_ladder_folder_and_index_give_the_bound_the_relative_skill_and_the_match_share(tmp_path) -> None:
    import pandas as pd

    from unocli.report.ladder import write_index

    out = tmp_path / "lad"
    args = [
        "ladder", "--players", "3", "--policy", "random", "--policy", "basic", "--lone", "peek:budget=2",
        "--games", "200", "--lone-games", "50", "--match-games", "30", "--out", str(out),
    ]  # fmt: skip
    res = CliRunner().invoke(cli, args)
    assert res.exit_code == 0, res.output
    assert {p.name for p in out.iterdir()} == {
        "README.md",
        "ratings.csv",
        "gaps.csv",
        "skill.csv",
        "ladder.png",
        "match-ratings.csv",
        ".unocli-manifest.json",
    }
    text = (out / "README.md").read_text()
    assert "`peek:budget=2` (bound, not a player)" in text and "on the first 50 deals" in text and "--lone-games 50" in text
    skill = pd.read_csv(out / "skill.csv").set_index(["level", "key"])
    rel, share = skill.loc[("round", "relative_skill")], skill.loc[("match", "skill_share")]
    index = write_index(tmp_path).read_text()
    assert f"{rel['value']:.3f} [{rel['low']:.3f}, {rel['high']:.3f}]" in index
    assert f"{100 * share['value']:.2f}% [" in index


# ---------------------------------------------------------------- a deal's influence on the ratings


def _influence_case() -> tuple[LadderData, Fit]:
    tables = plan_lone_tables(3, 1, 3)
    data = _synthetic(np.array([0.0, 0.4, 0.9, 1.6]), tables, 3, 300, np.random.default_rng(11), copy=0.3)
    return data, fit(data, anchor=1)  # an anchor other than the first: its column must be the zero one


def test_deal_influence_rows_rebuild_the_cluster_robust_covariance() -> None:
    # fit's covariance is G/(G-1) sum_d psi_d psi_d' over the free ratings (its docstring's identity): the same
    # matrix to rounding, though fit builds it as bread @ meat @ bread and never forms a deal's row
    from unocli.study.ladder import deal_influence

    data, result = _influence_case()
    psi = deal_influence(data, result)
    g = data.deals
    assert psi.shape == (g, 4)
    assert (psi[:, 1] == 0).all() and np.abs(psi[:, [0, 2, 3]]).min(axis=0).max() > 0
    assert psi.T @ psi * g / (g - 1) == pytest.approx(result.cov, rel=1e-9, abs=1e-14)


def test_deal_influence_is_the_jackknife_change_of_the_ratings() -> None:
    # Refitting without deal d moves the ratings by -psi_d to first order (the score equation less g_d, solved
    # with the same information); the neglected term is O(1/G) of the move (0.2-0.4% here at G = 300), so a 2%
    # relative tolerance (1e-5 absolute, about 0.3% of a typical move, for a rating a deal hardly moves) is wide
    # for the method and narrow for a wrong sign, factor or bread.
    from unocli.study.ladder import deal_influence

    data, result = _influence_case()
    psi = deal_influence(data, result)
    for d in (0, 7, 150):
        keep = np.arange(data.deals) != d
        rest = fit(LadderData(data.names, data.tables, data.wins[:, keep], data.players), anchor=1)
        moved = rest.ratings - result.ratings
        assert moved[[0, 2, 3]] == pytest.approx(-psi[d, [0, 2, 3]], rel=0.02, abs=1e-5)


def test_table_deals_is_every_deal_or_the_ones_each_table_played() -> None:
    tables = plan_tables(2, 3)
    wins = np.zeros((len(tables), 5, 3), dtype=np.int16)
    assert LadderData(("a", "b"), tables, wins, 3).deals == 5
    assert LadderData(("a", "b"), tables, wins, 3).table_deals().tolist() == [5] * len(tables)
    played = tuple(range(1, len(tables) + 1))
    assert LadderData(("a", "b"), tables, wins, 3, played).table_deals().tolist() == list(played)


def test_plan_lone_tables_without_lone_policies_is_the_round_robin_and_a_negative_count_is_named() -> None:
    from unocli.errors import ConfigError

    assert plan_lone_tables(3, 0, 4) == plan_tables(3, 4)
    with pytest.raises(ConfigError, match="cannot number -1"):
        plan_lone_tables(3, -1, 4)


def test_a_skill_share_below_zero_is_said_to_be_one_where_printed(tmp_path) -> None:
    """At 4 deals (seed 1) the unclipped estimate is below 0; the command and the README say what that means, and a
    share above 0 gets no such words. The sign is read from the CSV the same run writes, not from the text. (Seed 1
    also has bootstrap resamples in which every lone player won no round: they crashed the command, dividing by 0.)"""
    args = ["ladder", "--games", "4", "--seed", "1", "--policy", "random", "--policy", "basic"]
    res = CliRunner().invoke(cli, [*args, "--out", str(tmp_path / "low")])
    assert res.exit_code == 0, res.output
    share = float(next(r for r in _csv_rows(tmp_path / "low" / "skill.csv") if r["key"] == "skill_share")["value"])
    assert share < 0
    note = "(below 0: the shares spread less than luck alone makes them; not clipped)"
    assert note in res.output and note in (tmp_path / "low" / "README.md").read_text()
    res = CliRunner().invoke(cli, ["ladder", "--games", "400", "--seed", "2", "--policy", "random", "--policy", "basic"])
    assert res.exit_code == 0 and "skill share of one round's outcome variance: 2.91%" in res.output
    assert "below 0" not in res.output


def _csv_rows(path):
    import csv

    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def test_a_skill_share_without_variance_is_undefined_not_a_division_by_zero() -> None:
    from types import SimpleNamespace

    from unocli.report.ladder import skill_value
    from unocli.study.ladder_skill import _skill_share

    for shares in (np.zeros(3), np.ones(3)):  # every lone player won none (or all) of its rounds
        value, true, observed = _skill_share(shares, np.zeros(3))
        assert math.isnan(value) and true == observed == 0.0
    assert _skill_share(np.array([0.25, 0.75]), np.zeros(2))[0] == pytest.approx(0.125 / 0.25)  # Var 0.125 by hand
    row = SimpleNamespace(key="skill_share", value=math.nan, low=math.nan, high=math.nan)
    assert skill_value(row) == "undefined: every policy won all or none of its rounds as the lone player"
