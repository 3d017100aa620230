"""The ladder's numbers (unocli/study/ladder.py, unocli/report/ladder.py) against values computed another way.

Written for the mutation group ``ladder`` (mutation/run.sh): hand-solved fits (a three-policy
round robin whose counts are exactly the Bradley-Terry chances of known ratings, and a three-seat
table whose maximum is the observed shares), the cluster-robust covariance against the delta
method and against a sandwich built from finite differences of the likelihood written out per deal,
the win shares and the model's shares counted by hand, the planned tables listed by hand, and the
index of the ladder folders on files written by hand. No game is played: every test is fast.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
from scipy import stats as sps

from unocli.errors import ConfigError
from unocli.report import ladder as report_ladder
from unocli.study.ladder import (
    Fit,
    LadderData,
    LadderTable,
    anchor_index,
    fit,
    fit_counts,
    plan_tables,
    ratings_frame,
    win_shares,
)


def _round_robin(deals: int = 30) -> LadderData:
    """Three policies heads-up, strengths exp(r) = 1, 2, 4: every table's counts are exactly its BT chances.

    Tables (plan_tables(3, 2)): (0, 1), (0, 2), (1, 2); two rotations a deal, so 2 * deals rounds a table.
    P(1 beats 0) = 2/3, P(2 beats 0) = 4/5, P(2 beats 1) = 2/3. The wins are spread over the deals
    unevenly (some deals won twice by one slot) so the clustering is not trivial.
    """
    rounds = 2 * deals
    targets = [(rounds // 3, 2 * rounds // 3), (rounds // 5, 4 * rounds // 5), (rounds // 3, 2 * rounds // 3)]
    wins = np.zeros((3, deals, 2), dtype=np.int16)
    for t, (first, _) in enumerate(targets):
        left = first
        for d in range(deals):  # slot 0 takes both rotations of the first deals, then none
            take = min(2, left)
            wins[t, d, 0], wins[t, d, 1] = take, 2 - take
            left -= take
        assert left == 0
    return LadderData(("a", "b", "c"), plan_tables(3, 2), wins, 2)


# Ratings are compared to 1e-6: the fit stops at a gradient of 1e-9 (trust-exact, gtol), which leaves them
# about 1e-8 from the exact maximum; a wrong term of the likelihood moves them by far more.


def test_the_round_robin_fit_is_the_hand_solved_bradley_terry_ratings():
    # At r = (0, log 2, log 4) every policy's expected wins equal its observed wins (the score is 0), and the
    # likelihood is strictly concave in the free ratings, so that is the maximum.
    data = _round_robin()
    result = fit(data)
    assert result.anchor == 0
    assert result.ratings == pytest.approx([0.0, math.log(2), math.log(4)], abs=1e-6)
    # the log-likelihood there, written out: sum over tables of wins * log(chance)
    want = 20 * math.log(1 / 3) + 40 * math.log(2 / 3) + 12 * math.log(1 / 5) + 48 * math.log(4 / 5)
    want += 20 * math.log(1 / 3) + 40 * math.log(2 / 3)
    assert result.loglik == pytest.approx(want, abs=1e-9)
    assert result.deals == 30 and result.names == ("a", "b", "c")


def test_an_anchor_other_than_the_first_shifts_every_rating_by_the_same_amount():
    result = fit(_round_robin(), anchor=2)
    assert result.anchor == 2
    assert result.ratings == pytest.approx([-math.log(4), math.log(2) - math.log(4), 0.0], abs=1e-6)
    assert result.se[2] == 0.0 and result.se[0] > 0 and result.se[1] > 0


def _per_deal_loglik(r: np.ndarray, data: LadderData, d: int) -> float:
    total = 0.0
    for t, tb in enumerate(data.tables):
        denom = sum(math.exp(r[p]) for p in tb.slots)
        for s, p in enumerate(tb.slots):
            total += float(data.wins[t, d, s]) * (r[p] - math.log(denom))
    return total


def _numeric_sandwich(r: np.ndarray, data: LadderData, free: list[int], h: float = 1e-3) -> np.ndarray:
    """CR1 sandwich from central differences of the per-deal log-likelihood (no analytic gradient or Hessian)."""

    def at(step: dict[int, float]) -> np.ndarray:
        x = r.copy()
        for i, v in step.items():
            x[i] += v
        return x

    g = data.deals
    scores = np.array(
        [
            [(_per_deal_loglik(at({i: h}), data, d) - _per_deal_loglik(at({i: -h}), data, d)) / (2 * h) for i in free]
            for d in range(g)
        ]
    )

    def total(x: np.ndarray) -> float:
        return sum(_per_deal_loglik(x, data, d) for d in range(g))

    hess = np.zeros((len(free), len(free)))
    for a, i in enumerate(free):
        for b, j in enumerate(free):
            hess[a, b] = (
                total(at({i: h, j: h}) if i != j else at({i: 2 * h}))
                - total(at({i: h, j: -h}) if i != j else r)
                - total(at({i: -h, j: h}) if i != j else r)
                + total(at({i: -h, j: -h}) if i != j else at({i: -2 * h}))
            ) / (4 * h * h)
    bread = np.linalg.inv(-hess)
    return bread @ (scores.T @ scores * g / (g - 1)) @ bread


def test_the_sandwich_over_two_deals_has_its_small_sample_factor_of_two():
    # G/(G - 1) = 2 with two deals: the smallest ladder the factor changes most
    data = _round_robin(deals=2)
    result = fit(data)
    want = _numeric_sandwich(result.ratings, data, [1, 2])
    assert result.cov[np.ix_([1, 2], [1, 2])] == pytest.approx(want, rel=1e-4, abs=1e-8)


def test_the_cluster_robust_covariance_is_the_sandwich_of_finite_differences():
    # Finite differences of the likelihood written out per deal. Step 1e-3: a central difference's truncation
    # error is ~h^2 = 1e-6 relative and its rounding error ~1e-16 * |loglik| / h^2 ~ 1e-8, both far below the
    # 1e-4 relative tolerance, which in turn is far below what any wrong term of the sandwich would change.
    data = _round_robin()
    result = fit(data)
    want = _numeric_sandwich(result.ratings, data, [1, 2])
    assert result.cov[np.ix_([1, 2], [1, 2])] == pytest.approx(want, rel=1e-4, abs=1e-6)
    assert (result.cov[0] == 0).all() and (result.cov[:, 0] == 0).all()
    assert result.se == pytest.approx(np.sqrt(np.diag(result.cov)), abs=0)
    low, high = result.interval()
    assert low == pytest.approx(result.ratings - 1.959963984540054 * result.se, abs=1e-12)
    assert high == pytest.approx(result.ratings + 1.959963984540054 * result.se, abs=1e-12)
    low90, _ = result.interval(1.6448536269514722)
    assert low90 == pytest.approx(result.ratings - 1.6448536269514722 * result.se, abs=1e-12)
    # diff_se: Var(r_b - r_c) = Var r_b + Var r_c - 2 Cov, here from the numeric sandwich
    assert result.diff_se(1, 2) == pytest.approx(math.sqrt(want[0, 0] + want[1, 1] - 2 * want[0, 1]), rel=1e-4)
    assert result.diff_se(0, 1) == pytest.approx(math.sqrt(want[0, 0]), rel=1e-4)


def _three_seat_table(rng_seed: int = 4, deals: int = 60) -> LadderData:
    """Three policies at three seats with rounds decided only at one table seating them once each, (0, 1, 2).

    Rotation winners drawn at random per deal, so the deals' counts vary; the other tables decide nothing
    (every round locked), so they add nothing to the likelihood. The table is the plan's mixed one, which the
    ratings are not fitted to, so here it is named a field table: the fit reads it.
    """
    tables = plan_tables(3, 3)
    assert tables[-1] == LadderTable("mixed", (0, 1, 2))
    tables = (*tables[:-1], LadderTable("field", (0, 1, 2)))
    rng = np.random.default_rng(rng_seed)
    wins = np.zeros((len(tables), deals, 3), dtype=np.int16)
    for d in range(deals):
        for _ in range(rng.integers(1, 4)):  # 1 to 3 decided rotations of the deal's 3
            wins[-1, d, rng.choice(3, p=[0.5, 0.3, 0.2])] += 1
    return LadderData(("a", "b", "c"), tables, wins, 3)


def test_a_three_seat_table_fit_is_the_log_ratio_of_the_shares_with_a_delta_method_interval():
    # One table with every policy once: the model is saturated, the maximum is at the observed shares
    # p_k (r_k = log(p_k / p_0)), and the cluster-robust covariance is the delta method on the clustered
    # means: Cov(p) = G/(G-1) sum_d (y_d - m_d p)(y_d - m_d p)' / N^2, J = d log(p_k/p_0) / dp.
    data = _three_seat_table()
    result = fit(data)
    y = data.wins[-1].astype(float)  # [deals, slots]; slot s is policy s at that table
    n_total = y.sum()
    p = y.sum(axis=0) / n_total
    assert result.ratings == pytest.approx([0.0, math.log(p[1] / p[0]), math.log(p[2] / p[0])], abs=1e-6)
    m = y.sum(axis=1)
    resid = y - m[:, None] * p[None, :]
    g = data.deals
    cov_p = g / (g - 1) * resid.T @ resid / n_total**2
    jac = np.array([[-1 / p[0], 1 / p[1], 0.0], [-1 / p[0], 0.0, 1 / p[2]]])
    want = jac @ cov_p @ jac.T
    assert result.cov[1:, 1:] == pytest.approx(want, rel=1e-6)


def test_fit_counts_names_a_policy_with_no_seat_or_no_win():
    seats = np.array([[1.0, 1.0, 0.0]])
    with pytest.raises(ConfigError, match=r"^z sits at no table of the ladder$"):
        fit_counts(np.array([[3.0, 2.0, 0.0]]), seats, names=["x", "y", "z"])
    with pytest.raises(ConfigError, match=r"^y won none of its rounds, so its rating is -infinity: play more games$"):
        fit_counts(np.array([[3.0, 0.0, 2.0]]), np.array([[1.0, 1.0, 1.0]]), names=["x", "y", "z"])
    with pytest.raises(ConfigError, match=r"^policy 0 won every round it played"):
        fit_counts(np.array([[5.0, 0.0]]), np.array([[1.0, 1.0]]))
    # the default anchor is the first policy
    r, _ = fit_counts(np.array([[30.0, 10.0]]), np.array([[1.0, 1.0]]))
    assert r[0] == 0.0 and r[1] == pytest.approx(-math.log(3), abs=1e-6)
    # a policy that won every round at one table but not at another has a finite rating
    r, _ = fit_counts(np.array([[4.0, 0.0], [1.0, 3.0]]), np.array([[1.0, 1.0], [1.0, 1.0]]))
    assert math.isfinite(r[1])


def test_fit_counts_heads_up_is_the_log_odds_and_its_log_likelihood_by_hand():
    r, ll = fit_counts(np.array([[30.0, 10.0]]), np.array([[1.0, 1.0]]), anchor=1)
    assert r == pytest.approx([math.log(3), 0.0], abs=1e-6)
    assert ll == pytest.approx(30 * math.log(0.75) + 10 * math.log(0.25), abs=1e-9)
    # two seats of the second policy against one of the first: P(first) = e^r0 / (e^r0 + 2), 10 of 40
    r, _ = fit_counts(np.array([[10.0, 30.0]]), np.array([[1.0, 2.0]]), anchor=1)
    assert r[0] == pytest.approx(math.log(2 * 10 / 30), abs=1e-6)


def test_the_chances_survive_ratings_far_apart():
    # exp(r - max r): ratings 400 apart give chances 0 and 1, where exp(r) alone (or r + max r) overflows to inf / inf
    from unocli.study.ladder import _probabilities

    pi = _probabilities(np.array([0.0, 400.0]), np.array([[1.0, 1.0], [2.0, 1.0]]))
    assert pi == pytest.approx(np.array([[0.0, 1.0], [0.0, 1.0]]), abs=1e-12)
    assert _probabilities(np.array([0.0, math.log(2)]), np.array([[2.0, 1.0]])) == pytest.approx(np.array([[0.5, 0.5]]))


def test_anchor_index_is_random_when_it_plays_else_the_first():
    assert anchor_index(["basic", "smart", "random"]) == 2
    assert anchor_index(("basic", "smart")) == 0


def test_plan_tables_listed_by_hand():
    assert plan_tables(3, 2) == (LadderTable("field", (0, 1)), LadderTable("field", (0, 2)), LadderTable("field", (1, 2)))
    assert plan_tables(2, 4) == (
        LadderTable("field", (0, 1, 1, 1)),
        LadderTable("field", (1, 0, 0, 0)),
        LadderTable("mixed", (0, 1, 0, 1)),
    )
    # k = 3 policies, n = 3 seats: gcd 3, one mixed table; k = 4, n = 3: gcd 1, four mixed tables
    assert [t.slots for t in plan_tables(3, 3) if t.kind == "mixed"] == [(0, 1, 2)]
    assert [t.slots for t in plan_tables(4, 3) if t.kind == "mixed"] == [(0, 1, 2), (3, 0, 1), (2, 3, 0), (1, 2, 3)]
    assert [t.slots for t in plan_tables(3, 3) if t.kind == "field"][:2] == [(0, 1, 1), (0, 2, 2)]
    with pytest.raises(ConfigError, match=r"^a ladder needs at least two policies, not 1$"):
        plan_tables(1, 3)
    with pytest.raises(ConfigError, match=r"^a ladder needs at least two players, not 1$"):
        plan_tables(3, 1)
    assert len(plan_tables(2, 2)) == 1


def test_design_by_policy_and_seats_counted_by_hand():
    tables = (LadderTable("field", (0, 1, 1)), LadderTable("mixed", (2, 0, 1)))
    wins = np.zeros((2, 2, 3), dtype=np.int16)
    wins[0, 0] = (1, 1, 1)
    wins[0, 1] = (0, 2, 0)
    wins[1, 0] = (3, 0, 0)
    wins[1, 1] = (0, 1, 2)
    data = LadderData(("a", "b", "c"), tables, wins, 3)
    assert data.deals == 2
    assert data.seats().tolist() == [[1, 2, 0], [1, 1, 1]]
    v = data.by_policy()
    # table 0: policy b holds slots 1 and 2; table 1: slot 0 is c, slot 1 a, slot 2 b
    assert v.tolist() == [[[1, 2, 0], [0, 2, 0]], [[0, 0, 3], [1, 2, 0]]]


def _share_data() -> LadderData:
    """Two policies at three seats: fields (a, b, b), (b, a, a), mixed (a, b, a), (b, a, b); hand-set wins, 3 deals."""
    tables = plan_tables(2, 3)
    assert [t.slots for t in tables] == [(0, 1, 1), (1, 0, 0), (0, 1, 0), (1, 0, 1)]
    wins = np.zeros((4, 3, 3), dtype=np.int16)
    wins[0, :, 0] = (3, 1, 0)  # a as the lone player at (a, b, b): 3, 1 and 0 rotations of the deals
    wins[0, :, 1] = (0, 1, 2)
    wins[1, :, 0] = (2, 2, 0)  # b alone at (b, a, a)
    wins[1, :, 2] = (1, 0, 3)
    wins[2, :, 0] = (1, 0, 1)  # mixed (a, b, a): slots 0 and 2 are a
    wins[2, :, 1] = (1, 1, 0)
    wins[2, :, 2] = (1, 2, 0)
    wins[3, :, 0] = (1, 0, 0)  # mixed (b, a, b): slot 1 is a
    wins[3, :, 1] = (0, 1, 1)
    wins[3, :, 2] = (1, 1, 0)
    return LadderData(("a", "b"), tables, wins, 3)


def _cluster_t(per_deal: np.ndarray, per: int) -> tuple[float, float, float]:
    """Student's t over the deals' shares (successes / per), from scipy."""
    x = per_deal / per
    half = sps.t.ppf(0.975, len(x) - 1) * x.std(ddof=1) / math.sqrt(len(x))
    return x.mean(), x.mean() - half, x.mean() + half


def test_win_shares_and_the_model_share_counted_by_hand():
    data = _share_data()
    field = win_shares(data, "field")
    # a alone at (a, b, b): rotations won per deal 3, 1, 0 of 3 seats' rounds -> 4 of 9
    mean, low, high = _cluster_t(np.array([3.0, 1.0, 0.0]), 3)
    assert field[0]["share"] == pytest.approx(4 / 9) and field[0]["games"] == 9
    assert (field[0]["low"], field[0]["high"]) == (pytest.approx(low, abs=1e-12), pytest.approx(high, abs=1e-12))
    assert math.isnan(field[0]["model"])  # without ratings
    mean, low, high = _cluster_t(np.array([2.0, 2.0, 0.0]), 3)
    assert field[1]["share"] == pytest.approx(mean) and field[1]["low"] == pytest.approx(low)
    mixed = win_shares(data, "mixed", ratings=np.array([0.0, math.log(2)]))
    # a holds three seats of the mixed tables: per deal (1+1) + 0, (0+2) + 1, (1+0) + 1 -> 2, 3, 2 of
    # 3 seats x 3 rotations; b: 1 + (1+1), 1 + (0+1), 0 + 0 -> 3, 2, 0 of 9
    mean, low, high = _cluster_t(np.array([2.0, 3.0, 2.0]), 9)
    assert mixed[0]["share"] == pytest.approx(7 / 27) and mixed[0]["games"] == 27
    assert (mixed[0]["low"], mixed[0]["high"]) == (pytest.approx(low, abs=1e-12), pytest.approx(high, abs=1e-12))
    assert mixed[1]["share"] == pytest.approx(5 / 27) and mixed[1]["games"] == 27
    # model, ratings a = 0, b = log 2: (a, b, a) has weights 1, 2, 1 and 7 decided rounds (a's chance 1/2);
    # (b, a, b) weights 2, 1, 2 and 5 decided rounds (a's chance 1/5)
    assert mixed[0]["model"] == pytest.approx((7 * 0.5 + 5 * 0.2) / 27)
    assert mixed[1]["model"] == pytest.approx((7 * 0.5 + 5 * 0.8) / 27)
    field = win_shares(data, "field", ratings=np.array([0.0, math.log(2)]))
    # a alone among two b's: weights 1, 2, 2 -> a's chance 1/5 of the 3 + 2 + 2 decided rounds of (a, b, b)
    assert field[0]["model"] == pytest.approx(7 * 0.2 / 9)
    # b alone among two a's: weights 2, 1, 1 -> 1/2 of the 3 + 2 + 3 decided rounds of (b, a, a)
    assert field[1]["model"] == pytest.approx(8 * 0.5 / 9)


def test_heads_up_field_shares_count_every_pair_and_a_kind_without_tables_is_nan():
    data = _round_robin()
    field = win_shares(data, "field")
    # b: 40 of 60 against a and 20 of 60 against c -> 60 of 120 rounds
    assert field[1]["share"] == pytest.approx(0.5) and field[1]["games"] == 120
    assert field[0]["share"] == pytest.approx(32 / 120) and field[2]["share"] == pytest.approx(88 / 120)
    mixed = win_shares(data, "mixed")
    assert all(math.isnan(row[key]) for row in mixed for key in ("share", "low", "high", "model"))
    assert all(row["games"] == 0 for row in mixed)


def test_ratings_frame_values_and_order_by_hand():
    data = _round_robin()
    result = fit(data)
    frame = ratings_frame(data, result, specs=["a:x=1", "b", "c"])
    assert list(frame["policy"]) == ["c", "b", "a"]  # best first
    row = frame.set_index("policy")
    assert row.loc["a", "spec"] == "a:x=1" and bool(row.loc["a", "anchor"]) and not bool(row.loc["c", "anchor"])
    assert (row["games"] == 120).all()  # each policy: 2 tables x 1 seat x 2 rotations x 30 deals
    assert (row["deals"] == 30).all() and (row["players"] == 2).all()
    low, high = result.interval()
    assert row.loc["c", "rating"] == pytest.approx(math.log(4), abs=1e-6)
    assert row.loc["c", "low"] == low[2] and row.loc["c", "high"] == high[2] and row.loc["c", "se"] == result.se[2]
    assert row.loc["a", "low"] == 0.0 and row.loc["a", "high"] == 0.0
    assert row.loc["c", "field_share"] == pytest.approx(88 / 120)
    shares = win_shares(data, "field", result.ratings)[2]
    for key in ("low", "high", "games", "model"):
        assert row.loc["c", f"field_{key}"] == pytest.approx(shares[key]), key
    # the fitted model reproduces each policy's total wins (the score equations): model share = observed share
    assert row["field_model"].to_numpy() == pytest.approx(row["field_share"].to_numpy(), abs=1e-6)
    assert row["mixed_share"].isna().all() and row["mixed_model"].isna().all()
    assert list(ratings_frame(data, result)["spec"]) == ["c", "b", "a"]  # without specs, the names


def test_ratings_frame_sort_is_stable_for_tied_ratings():
    data = LadderData(("a", "b"), plan_tables(2, 2), np.array([[[1, 1], [2, 0], [0, 2]]], dtype=np.int16), 2)
    result = Fit(("a", "b"), 0, np.array([0.0, 0.0]), np.zeros((2, 2)), 0.0, 3)
    frame = ratings_frame(data, result)
    assert list(frame["policy"]) == ["a", "b"]
    assert list(frame.index) == [0, 1] and "index" not in frame.columns  # a fresh index, the old one dropped
    # 40 policies in ten tied groups of four: within a group the given order stays (a quicksort would not keep it)
    names = tuple(f"p{i:02d}" for i in range(40))
    ratings = np.array([float((7 * i) % 10) for i in range(40)])
    wins = np.ones((len(plan_tables(40, 2)), 1, 2), dtype=np.int16)
    big = LadderData(names, plan_tables(40, 2), wins, 2)
    order = list(ratings_frame(big, Fit(names, 0, ratings, np.zeros((40, 40)), 0.0, 1))["policy"])
    assert order == sorted(names, key=lambda n: -ratings[int(n[1:])])  # Python's sort is stable


def test_the_ladders_index_on_folders_written_by_hand(tmp_path):
    lad = tmp_path / "official-4"
    lad.mkdir()
    ratings = pd.DataFrame(
        {
            "policy": ["strong", "basic", "random"],
            "rating": [0.812, 0.3, 0.0],
            "low": [0.7, 0.2, 0.0],
            "high": [0.9, 0.4, 0.0],
            "players": [4, 4, 4],
            "deals": [12000, 12000, 12000],
        }
    )
    ratings.to_csv(lad / "ratings.csv", index=False)
    skill = pd.DataFrame(
        {
            "measure": ["skill share", "rounds to lead", "rounds to lead"],
            "other": ["", "basic", "random"],
            "value": [0.0512, 37.0, math.inf],
            "low": [0.04, 20.0, 10.0],
            "high": [0.06, 90.0, math.inf],
        }
    )
    skill.to_csv(lad / "skill.csv", index=False)
    (tmp_path / "not-a-ladder").mkdir()  # no csv files: left out
    (tmp_path / "half").mkdir()  # ratings without skill (a ladder still being written): left out
    ratings.to_csv(tmp_path / "half" / "ratings.csv", index=False)
    text = report_ladder.index(tmp_path)
    head = text.splitlines()
    assert head[0] == "# Ladders" and head[1] == report_ladder.MARK
    at = head.index(
        "| ladder | players | deals per table | best rating [95%] (anchor random = 0) | relative skill [95%] | "
        "skill share of a round [95%] | of a match [95%] | rounds until the best leads with 90% chance [95%] |"
    )
    assert head[at + 1] == "|---|---|---|---|---|---|---|---|" and head[at + 2].startswith("| [official-4]")
    row = next(line for line in text.splitlines() if line.startswith("| [official-4]"))
    assert row == (
        "| [official-4](official-4/README.md) | 4 | 12,000 | `strong` +0.812 [+0.700, +0.900]; next `basic` +0.300 | - | "
        "5.12% [4.00, 6.00] | - | vs `basic`: 37 [20, 90] ; vs `random`: inf [10, inf] |"
    )
    assert "not-a-ladder" not in text and "[half]" not in text
    # a second ladder folder is a row of its own, after the first (folders in name order)
    (tmp_path / "stacking-4").mkdir()
    ratings.to_csv(tmp_path / "stacking-4" / "ratings.csv", index=False)
    skill.to_csv(tmp_path / "stacking-4" / "skill.csv", index=False)
    lines = report_ladder.index(tmp_path).splitlines()
    at = lines.index(row)
    assert lines[at + 1].startswith("| [stacking-4](stacking-4/README.md) | 4 | 12,000 |")
    assert report_ladder.write_index(tmp_path).read_text() == "\n".join(lines) + "\n"


def test_the_ladders_index_leaves_out_the_bound_and_prints_relative_skill_and_the_match_share(tmp_path):
    # A folder of the current layout: ratings with a `bound` column (peek rated highest, never "the best") and
    # keyed skill measures at round and match level; every figure of the row is written here by hand.
    lad = tmp_path / "party-2"
    lad.mkdir()
    pd.DataFrame(
        {
            "policy": ["peek", "search", "basic", "random"],
            "rating": [2.5, 0.9, 0.4, 0.0],
            "low": [2.3, 0.8, 0.3, 0.0],
            "high": [2.7, 1.0, 0.5, 0.0],
            "players": [2] * 4,
            "deals": [5000] * 4,
            "bound": [True, False, False, False],
        }
    ).to_csv(lad / "ratings.csv", index=False)
    pd.DataFrame(
        {
            "key": ["skill_share", "relative_skill", "lead", "skill_share"],
            "level": ["round", "round", "round", "match"],
            "other": ["", "", "random", ""],
            "value": [0.0734, 0.36, 12.0, 0.2468],
            "low": [0.0612, 0.321, 9.0, 0.1357],
            "high": [0.0845, 0.402, 15.0, 0.3579],
        }
    ).to_csv(lad / "skill.csv", index=False)
    row = next(line for line in report_ladder.index(tmp_path).splitlines() if line.startswith("| [party-2]"))
    assert row == (
        "| [party-2](party-2/README.md) | 2 | 5,000 | `search` +0.900 [+0.800, +1.000]; next `basic` +0.400 | "
        "0.360 [0.321, 0.402] | 7.34% [6.12, 8.45] | 24.68% [13.57, 35.79] | vs `random`: 12 [9, 15] |"
    )
