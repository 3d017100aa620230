"""The ladder: the Luce fit against values computed another way, its intervals' coverage, the skill measures, the command."""

from __future__ import annotations

import itertools
import json
import math

import numpy as np
import pytest
from click.testing import CliRunner
from scipy import stats

from unocli.cli.main import cli
from unocli.errors import ConfigError
from unocli.study.ladder import LadderData, fit, log_likelihood, plan_tables, ratings_frame
from unocli.study.ladder_skill import rounds_to_lead, skill_share


def _data(names: list[str], players: int, wins: np.ndarray) -> LadderData:
    return LadderData(tuple(names), plan_tables(len(names), players), wins, players)


def _synthetic(ratings: np.ndarray, players: int, deals: int, rng: np.random.Generator, copy: float = 0.0) -> LadderData:
    """Winners drawn from the Luce model itself: per table, deal and rotation, slot s wins with exp(r_s) / sum.

    With ``copy`` > 0 a rotation repeats the deal's first rotation's winner with that chance (else a fresh
    draw): each rotation's winner still has the model's distribution, but the rotations of a deal are
    positively correlated, as a deal's rounds are in play.
    """
    tables = plan_tables(len(ratings), players)
    wins = np.zeros((len(tables), deals, players), dtype=np.int16)
    for t, tb in enumerate(tables):
        w = np.exp(ratings[list(tb.slots)])
        p = w / w.sum()
        first = rng.choice(players, size=deals, p=p)
        for k in range(players):
            fresh = rng.choice(players, size=deals, p=p)
            winner = first if k == 0 else np.where(rng.random(deals) < copy, first, fresh)
            np.add.at(wins[t], (np.arange(deals), winner), 1)
    return LadderData(tuple(f"p{i}" for i in range(len(ratings))), tables, wins, players)


def _direct_loglik(r: np.ndarray, data: LadderData) -> float:
    """sum over tables, deals and slots of wins * log P(slot wins), written as the formula reads."""
    total = 0.0
    for t, tb in enumerate(data.tables):
        denom = sum(math.exp(r[p]) for p in tb.slots)
        for s, p in enumerate(tb.slots):
            total += float(data.wins[t, :, s].sum()) * math.log(math.exp(r[p]) / denom)
    return total


def test_heads_up_rating_difference_is_the_log_odds_of_the_wins() -> None:
    # One heads-up table, 2 policies: 70 and 30 rounds won over 50 deals (2 rotations each).
    wins = np.zeros((1, 50, 2), dtype=np.int16)
    wins[0, :35, 0] = 2  # deals 0-34: policy 0 wins both rotations (70)
    wins[0, 35:, 1] = 2  # deals 35-49: policy 1 wins both (30)
    result = fit(_data(["a", "b"], 2, wins))
    assert result.ratings[0] == 0.0  # the first policy is the anchor when random does not play
    assert result.ratings[1] == pytest.approx(math.log(30 / 70), abs=1e-7)
    frame = ratings_frame(_data(["a", "b"], 2, wins), result).set_index("policy")
    assert frame.loc["a", "field_share"] == pytest.approx(0.7) and frame.loc["b", "field_share"] == pytest.approx(0.3)
    assert frame.loc["a", "field_model"] == pytest.approx(0.7, abs=1e-7)  # one pair: the fit reproduces it exactly
    assert frame.loc["a", "games"] == 100  # 50 deals x 2 rotations


def test_three_player_fit_matches_a_brute_force_grid_search() -> None:
    rng = np.random.default_rng(3)
    data = _synthetic(np.array([0.0, 0.4, -0.3]), 3, 200, rng)
    result = fit(data)
    data = data.rated()  # the grid searches the likelihood of the tables the ratings are fitted to
    assert {t.kind for t in data.tables} == {"field"}
    grid = np.arange(-1.5, 1.5, 0.005)
    best = max(itertools.product(grid, grid), key=lambda ab: _direct_loglik(np.array([0.0, ab[0], ab[1]]), data))
    assert result.ratings[1] == pytest.approx(best[0], abs=0.005)
    assert result.ratings[2] == pytest.approx(best[1], abs=0.005)
    assert result.loglik >= _direct_loglik(np.array([0.0, *best]), data) - 1e-9


def test_log_likelihood_matches_the_direct_formula() -> None:
    data = _synthetic(np.array([0.0, 0.5, 1.0, -0.2]), 4, 30, np.random.default_rng(1))
    r = np.array([0.1, -0.3, 0.7, 0.0])
    v = data.by_policy()
    got = log_likelihood(r, v.sum(axis=1), v.sum(axis=(1, 2)), data.seats())
    assert got == pytest.approx(_direct_loglik(r, data), rel=1e-12)


def test_a_policy_that_always_wins_has_no_finite_rating_and_is_named() -> None:
    wins = np.zeros((1, 10, 2), dtype=np.int16)
    wins[0, :, 0] = 2  # policy a wins every round
    with pytest.raises(ConfigError, match="a won every round it played"):
        fit(_data(["a", "b"], 2, wins))


def test_anchor_is_random_when_it_plays() -> None:
    data = _synthetic(np.array([0.3, 0.0, 0.6]), 3, 100, np.random.default_rng(2))
    data = LadderData(("basic", "random", "smart"), data.tables, data.wins, 3)
    result = fit(data)
    assert result.anchor == 1 and result.ratings[1] == 0.0 and result.se[1] == 0.0


def test_planted_ratings_are_recovered_within_four_standard_errors() -> None:
    # 4 SE: each of the 4 free ratings is outside with chance 6e-5 if the fit and its SE are right.
    truth = np.array([0.0, 0.2, 0.5, -0.4, 0.8])
    result = fit(_synthetic(truth, 4, 3000, np.random.default_rng(7), copy=0.3))
    z = (result.ratings[1:] - truth[1:]) / result.se[1:]
    assert np.all(np.abs(z) < 4), z
    assert np.all(result.se[1:] < 0.05)  # and the data pin them down (not a pass by huge intervals)


def test_cluster_robust_interval_covers_95_percent_of_known_ratings() -> None:
    # 200 replications of a 4-player ladder whose rotations of a deal are correlated (copy = 0.6).
    # Expected 190 covered; binomial SE sqrt(200 * 0.95 * 0.05) = 3.1, so [181, 199] is within 3 SE below and
    # 2.9 above. The model-based (information only) interval ignores the clustering and covers far less
    # (about 80% here), so it would fail the lower bound.
    truth = np.array([0.0, 0.3, -0.2])
    rng = np.random.default_rng(11)
    covered = naive = 0
    for _ in range(200):
        data = _synthetic(truth, 4, 300, rng, copy=0.6)
        result = fit(data)
        data = data.rated()
        low, high = result.interval()
        covered += bool(low[1] <= truth[1] <= high[1])
        v = data.by_policy()
        from unocli.study.ladder import _information

        info = _information(result.ratings, v.sum(axis=(1, 2)), data.seats())[1:, 1:]  # of the rated tables
        se = math.sqrt(np.linalg.inv(info)[0, 0])
        naive += bool(abs(result.ratings[1] - truth[1]) <= 1.96 * se)
    assert 181 <= covered <= 199, covered
    assert naive < 181, naive  # the clustering matters in this design: the test can tell the two apart


def test_rounds_to_lead_is_the_first_count_scipy_binom_puts_ahead_90_percent() -> None:
    for p in (0.52, 0.55, 0.6, 0.75, 0.9, 0.99):
        m = 1
        while stats.binom.sf(m // 2, m, p) < 0.9:  # P(X > m/2), X ~ Bin(m, p)
            m += 1
        assert rounds_to_lead(p) == m, p
    assert rounds_to_lead(0.5) == math.inf and rounds_to_lead(0.3) == math.inf
    # the normal approximation by hand: (1.2816 * sqrt(0.24) / 0.1)^2 = 39.4; the exact count is near it
    assert abs(rounds_to_lead(0.6) - 39.4) < 4


def test_skill_share_recovers_the_planted_variance_of_true_shares() -> None:
    # Heads-up round robin of 4 policies: policy i's true share is the mean over j of 1 / (1 + exp(r_j - r_i)).
    truth = np.array([0.0, 0.3, 0.6, -0.3])
    p = np.array([np.mean([1 / (1 + math.exp(truth[j] - truth[i])) for j in range(4) if j != i]) for i in range(4)])
    planted = np.var(p, ddof=1) / (p.mean() * (1 - p.mean()))
    s = skill_share(_synthetic(truth, 2, 20000, np.random.default_rng(5), copy=0.3), replicates=400)
    assert s["skill_low"] <= planted <= s["skill_high"], (planted, s)
    assert s["skill_high"] - s["skill_low"] < 0.5 * planted  # informative, not a pass by a huge interval


def test_skill_share_is_near_zero_without_skill() -> None:
    # Equal ratings: observed variance is all luck; the estimate is centred on 0 (Var(luck) is subtracted).
    s = skill_share(_synthetic(np.zeros(5), 2, 4000, np.random.default_rng(9)), replicates=400)
    assert s["skill_low"] <= 0.0 <= s["skill_high"], s
    assert s["var_observed"] > 0 and abs(s["skill_share"]) < 0.005


def test_two_copies_of_one_policy_get_one_rating() -> None:
    """Two copies of `strong` (as `tuned-official-4` is in sims/tuned/tuned.toml) play bit-identical games wherever
    one stands for the other, since a seat's random stream does not depend on which slot sits there: the field
    tables the ratings are fitted to are the same under the swap, so the two ratings are one. The mixed tables seat
    one copy always just before the other, and a fit to them too rates the copies apart (0.016 in the shipped
    official 4-player ladder): they are the model's check, not its data."""
    from dataclasses import replace

    from unocli.game.policies import preset as policy_preset
    from unocli.game.rules import preset as rules_preset
    from unocli.study.ladder import LadderTable, play_ladder

    names = ["random", "basic", "strong", "copy"]
    policies = [policy_preset(n) for n in ("random", "basic", "strong", "strong")]
    data = play_ladder(rules_preset("official").replace(players=4), policies, names, games=300, seed=3)
    assert {t.kind for t in data.tables} == {"field", "mixed"}
    result = fit(data)
    assert result.ratings[3] == pytest.approx(result.ratings[2], abs=1e-7)
    assert result.se[3] == pytest.approx(result.se[2], rel=1e-6)
    everything = replace(data, tables=tuple(LadderTable("field", t.slots) for t in data.tables))
    apart = fit(everything)
    assert abs(apart.ratings[3] - apart.ratings[2]) > 1e-3  # the mixed tables, were they fitted, tell them apart


def test_gaps_take_the_covariance_of_the_two_ratings() -> None:
    """Every pair's gap, the higher rated first, with se sqrt(var_a + var_b - 2 cov_ab) worked out by hand; a bound is
    left out."""
    from unocli.study.ladder import Fit, gaps_frame

    cov = np.array([[0.0, 0.0, 0.0, 0.0], [0.0, 0.04, 0.03, 0.0], [0.0, 0.03, 0.09, 0.0], [0.0, 0.0, 0.0, 0.01]])
    result = Fit(("random", "a", "b", "peek"), 0, np.array([0.0, 0.5, 0.8, 2.0]), cov, 0.0, 100)
    g = gaps_frame(result, bounds=[3])
    assert list(zip(g["better"], g["other"], strict=True)) == [("b", "a"), ("b", "random"), ("a", "random")]
    assert g["se"].tolist() == pytest.approx([math.sqrt(0.04 + 0.09 - 0.06), 0.3, 0.2])
    assert g["gap"].tolist() == pytest.approx([0.3, 0.8, 0.5])
    # 0.3 - 1.96 x 0.2646 < 0: b's lead over a is not clear; the others are
    assert g["clear"].tolist() == [False, True, True]


def test_plan_tables_counts() -> None:
    assert len(plan_tables(5, 2)) == 10  # every unordered pair heads-up
    tables = plan_tables(6, 4)
    assert sum(t.kind == "field" for t in tables) == 30  # every ordered pair
    mixed = [t for t in tables if t.kind == "mixed"]
    assert len(mixed) == 3 and sorted(s for t in mixed for s in t.slots) == sorted(list(range(6)) * 2)


# ---------------------------------------------------------------- the command


def test_ladder_command_writes_a_folder_and_rates_basic_above_random(tmp_path) -> None:
    out = tmp_path / "lad"
    args = ["ladder", "--players", "3", "--policy", "random", "--policy", "basic", "--games", "300", "--out", str(out)]
    res = CliRunner().invoke(cli, args)
    assert res.exit_code == 0, res.output
    files = {"README.md", "ratings.csv", "gaps.csv", "skill.csv", "ladder.png", ".unocli-manifest.json"}
    assert {p.name for p in out.iterdir()} == files
    import pandas as pd

    df = pd.read_csv(out / "ratings.csv")
    row = df.set_index("policy")
    assert row.loc["random", "rating"] == 0.0 and row.loc["basic", "low"] > 0  # basic beats random by far (~+0.3)
    # by hand: tables (r,b,b), (b,r,r) and mixed (r,b,r), (b,r,b): 6 seats each, x 3 rotations x 300 deals
    assert (row["games"] == 6 * 3 * 300).all()
    # one pair: its gap is basic's rating over the anchor's, whose se is 0, so the gap's se is basic's
    gap = pd.read_csv(out / "gaps.csv").iloc[0]
    assert (gap["better"], gap["other"]) == ("basic", "random") and bool(gap["clear"])
    assert gap["gap"] == pytest.approx(row.loc["basic", "rating"]) and gap["se"] == pytest.approx(row.loc["basic", "se"])
    assert gap["low"] == pytest.approx(gap["gap"] - 1.959964 * gap["se"], rel=1e-6)
    text = (out / "README.md").read_text()
    assert "unocli ladder" in text and "300 deals" in text
    shown = f"{gap['gap']:+.3f} [{gap['low']:+.3f}, {gap['high']:+.3f}]"
    assert f"its lead over the next, `random`, is {shown}, an interval that excludes 0" in text
    again = CliRunner().invoke(cli, args)  # a folder the ladder wrote may be written again
    assert again.exit_code == 0, again.output
    from unocli.report.ladder import write_index

    skill = pd.read_csv(out / "skill.csv")
    index = write_index(tmp_path).read_text()
    assert "[lad](lad/README.md)" in index and f"{100 * skill['value'][0]:.2f}%" in index


def test_ladder_json() -> None:
    res = CliRunner().invoke(cli, ["ladder", "--policy", "random", "--policy", "basic", "--games", "200", "--json"])
    assert res.exit_code == 0, res.output
    body = json.loads(res.stdout)
    assert [r["policy"] for r in body["ratings"]] == ["basic", "random"]
    assert body["skill"][0]["measure"].startswith("skill share")


@pytest.mark.parametrize(
    "args",
    [
        ["--policy", "random"],
        ["--policy", "random", "--policy", "nope"],
        ["--policy", "random", "--policy", "basic", "--out", "x", "--json"],
        ["--policy", "random", "--policy", "random"],
    ],
)
def test_ladder_bad_input_is_one_sentence(args: list[str]) -> None:
    res = CliRunner().invoke(cli, ["ladder", "--games", "50", *args])
    assert res.exit_code == 2, res.output
    lines = [line for line in res.output.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("Error: ") and "Traceback" not in res.output


def test_ladder_refuses_a_folder_it_did_not_write(tmp_path) -> None:
    (tmp_path / "README.md").write_text("mine")
    res = CliRunner().invoke(cli, ["ladder", "--policy", "random", "--policy", "basic", "--games", "50", "--out", str(tmp_path)])
    assert res.exit_code != 0 and "did not write" in res.output
    assert (tmp_path / "README.md").read_text() == "mine" and not (tmp_path / "ratings.csv").exists()


def test_ladder_refuses_its_own_folder_once_a_file_in_it_was_changed_or_added(tmp_path) -> None:
    """A ladder's folder trusted its README's mark alone: a rerun wrote over a note added to ratings.csv and
    deleted a file of the user's. Its files are now listed with their SHA-256; a rerun of an untouched folder
    replaces it, a changed or added file refuses it by name and is kept."""
    out = tmp_path / "lad"
    args = ["ladder", "--policy", "random", "--policy", "basic", "--games", "50", "--out", str(out)]
    assert CliRunner().invoke(cli, args).exit_code == 0
    assert (out / ".unocli-manifest.json").is_file()
    assert CliRunner().invoke(cli, args).exit_code == 0  # untouched: replaced
    with (out / "ratings.csv").open("a", encoding="utf-8") as f:
        f.write("my annotation\n")
    res = CliRunner().invoke(cli, args)
    assert res.exit_code != 0 and "'ratings.csv'" in res.output and "untouched" in res.output
    assert (out / "ratings.csv").read_text(encoding="utf-8").endswith("my annotation\n")
    (out / "ratings.csv").write_text("mine", encoding="utf-8")
    (out / ".unocli-manifest.json").unlink()  # a folder of an older unocli: the mark, and the ladder's files alone
    (out / "notes.md").write_text("mine", encoding="utf-8")
    res = CliRunner().invoke(cli, args)
    assert res.exit_code != 0 and "holds 'notes.md'" in res.output and (out / "notes.md").is_file()
