"""Each analysis's ``compute`` on a tiny run, checked against what holds by construction.

Arms that play identically (a rule set under two names, an honest bluffer
against its honest twin) must differ by exactly 0; a planted effect must show
with the right sign; and figures must agree with the same games played through
a different code path (``simulate``). ``compute`` must not import matplotlib
(checked in a fresh interpreter).

The planted effects are large against their sampling error at these sizes;
each assertion says how large. Every run has a fixed seed, so a failure is a
change in the code, not bad luck.
"""

from __future__ import annotations

import math
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from unocli.analysis.bluff_grid import grid_arms
from unocli.analysis.game_length import Lengths
from unocli.analysis.seat_advantage import equal_shares_p
from unocli.game.policies import resolve_policies
from unocli.game.rules import resolve_rules
from unocli.report.analyses import (
    ANALYSES,
    Context,
    bluff,
    game_length,
    generic_compare,
    generic_sweep,
    house_rules,
    seat_advantage,
    stacking,
)
from unocli.report.experiment import Experiment, load_experiment
from unocli.run.backends import LocalBackend
from unocli.study.simulate import simulate
from unocli.study.stats import VERDICTS

ROOT = Path(__file__).resolve().parents[1]

TOMLS = {
    "compare": """
analysis = "compare"
games = 300
seed = 3
baseline = "penalty2"
metrics = ["cards_drawn", "turns", "win_0"]
[base]
policy = "basic:forget_uno=0.3"
[arms.penalty2]
rules = "official"
[arms.penalty10]
set = { uno_penalty = 10 }
[arms.same]
set = { target_score = 100 }
""",
    "sweep": """
analysis = "sweep"
games = 300
seed = 3
metric = "cards_drawn"
metrics = ["cards_drawn", "turns"]
[base]
policy = "basic:forget_uno=0.3"
[grid]
uno_penalty = [2, 10]
target_score = [500, 100]
""",
    "game-length": """
analysis = "game-length"
games = 300
seed = 5
players = [2, 4]
baseline = "official"
[base]
policy = "basic"
[arms.official]
rules = "official"
[arms.twin]
rules = "official"
[arms.draw-until-playable]
rules = "draw-until-playable"
[options]
fields = ["basic"]
match_games = 20
""",
    "seat-advantage": """
analysis = "seat-advantage"
games = 400
seed = 11
players = [2, 4]
[base]
rules = "official"
[options]
fields = ["random", "basic", "basic:bluff=0"]   # the last is basic itself under another name
replicates = 40
match_games = 30
""",
    "house-rules": """
analysis = "house-rules"
games = 300
seed = 13
players = [4]
baseline = "official"
[base]
policy = "basic"
[arms.official]
rules = "official"
[arms.twin]
rules = "official"
[arms.draw-until-playable]
rules = "draw-until-playable"
[options]
fields = ["basic"]
replicates = 40
skill_games = 60
""",
    "stacking": """
analysis = "stacking"
games = 300
seed = 17
players = [4]
baseline = "off"
[base]
policy = "basic"
[arms.off]
rules = "official"
[arms.twin]
rules = "official"
[arms.any]
set = { stacking = "any" }
[options]
versus_players = [4]
replicates = 40
""",
    "bluff": """
analysis = "bluff"
games = 600
seed = 19
players = [4]
[base]
rules = "official"
policy = "basic"
[options]
bluff_rates = [0, 1]
challenge_rates = [0, 1]
replicates = 40
also_players = [2]
fields = ["basic"]  # the default's tuned-official-4 needs the shipped policies file
""",
}


@pytest.fixture(scope="module")
def files(tmp_path_factory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("experiments")
    out = {}
    for name, text in TOMLS.items():
        path = folder / f"{name}.toml"
        path.write_text(text, encoding="utf-8")
        out[name] = path
    return out


@pytest.fixture(scope="module")
def ctx() -> Context:
    return Context(backend=LocalBackend(), log=lambda _: None)


def experiment(files: dict[str, Path], name: str) -> Experiment:
    return load_experiment(files[name])


def test_every_analysis_has_compute_and_render():
    for name, module in ANALYSES.items():
        for attr in ("compute", "render"):
            assert callable(getattr(module, attr, None)), (name, attr)


def test_compute_does_not_import_matplotlib(files):
    """Every analysis's compute in a fresh interpreter: matplotlib is not loaded by the imports nor by any compute."""
    script = """
import sys
from unocli.report.analyses import ANALYSES, Context
from unocli.run.backends import LocalBackend
from unocli.report.experiment import load_experiment

print("after import:", "matplotlib" in sys.modules)
ctx = Context(backend=LocalBackend(), log=lambda _: None)
for path in sys.argv[1:]:
    exp = load_experiment(path)
    result = ANALYSES[exp.analysis].compute(exp, ctx)
    print(exp.analysis, type(result).__name__, "matplotlib" in sys.modules)
"""
    paths = [str(files[name]) for name in TOMLS]
    proc = subprocess.run(
        [sys.executable, "-c", script, *paths], capture_output=True, text=True, check=False, cwd=ROOT, timeout=600
    )
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.strip().splitlines()
    assert lines[0] == "after import: False"
    assert len(lines) == 1 + len(TOMLS)
    for line in lines[1:]:
        name, kind, loaded = line.split()
        assert kind.endswith(("Result", "Outcome")), line
        assert loaded == "False", f"compute of {name} imported matplotlib"


# ---------------------------------------------------------------- one test per analysis


def test_compare_planted_penalty_and_identical_arm(files, ctx):
    result = generic_compare.compute(experiment(files, "compare"), ctx)
    assert isinstance(result, generic_compare.CompareResult)
    t = result.table.set_index(["arm", "quantity"])
    # target_score only matters in matches: in single rounds "same" plays the baseline's games exactly
    for metric in ("cards_drawn", "turns", "win_0"):
        row = t.loc[("same", metric)]
        assert (row["difference"], row["diff_low"], row["diff_high"]) == (0.0, 0.0, 0.0)
        assert row["mean"] == t.loc[("penalty2", metric), "mean"]
    # a forgetful player caught without Uno draws 10 instead of 2: the mean difference is about +14 cards
    # per round with a 95% interval about +-4 wide at 300 rounds, so its lower end is far above 0
    planted = t.loc[("penalty10", "cards_drawn")]
    assert planted["diff_low"] > 0 and planted["p_adj"] < 0.001
    assert result.games == 3 * 300
    # verdicts on simultaneous intervals: the identical arm is equivalent everywhere; cards drawn has no margin
    # (generic_compare.margin_for), so the planted change, clear of 0, is larger than it
    assert (t.loc["same", "verdict"] == "equivalent").all()
    assert planted["verdict"] == "larger" and planted["sim_low"] < planted["diff_low"]


def test_bluff_per_seat_effects_against_a_hand_count_of_the_rows(files, ctx):
    """Every seat's win-share change of the per-seat table, counted from the kernel's rows of the four corner arms
    on the same deals (game i of seed 19): the paired mean of (seat won under the arm) - (seat won under the
    reference) and scipy's paired t interval (scipy.stats.ttest_rel(...).confidence_interval())."""
    from scipy import stats as sps

    from unocli.kernel import ROW_NAMES, play_rows

    exp = experiment(files, "bluff")
    result = bluff.compute(exp, ctx).grid
    n, games = result.players, 600
    arms, _ = grid_arms(
        exp.base.build(players=n).rules,
        result.bvals,
        result.cvals,
        bluff.resolve(exp, exp.options["bluffer"]),
        bluff.resolve(exp, exp.options["opponents"]),
    )
    winner = {a.name: play_rows(a.rules, a.policies, seed=19, count=games)[:, ROW_NAMES.index("winner")] for a in arms}
    checked = 0
    for r in result.per_seat.itertuples():
        arm, ref = {
            "challenging: c=1 vs c=0, at b=1": ("b=1,c=1", "b=1,c=0"),
            "bluffing: b=1 vs b=0, at c=0": ("b=1,c=0", "b=0,c=0"),
            "bluffing: b=1 vs b=0, at c=1": ("b=1,c=1", "b=0,c=1"),
        }[r.effect]
        x, y = (winner[arm] == r.seat).astype(float), (winner[ref] == r.seat).astype(float)
        assert r.diff == pytest.approx(x.mean() - y.mean(), abs=1e-12)
        if (x != y).any():
            ci = sps.ttest_rel(x, y).confidence_interval(0.95)
            assert (r.diff_low, r.diff_high) == (pytest.approx(ci.low, abs=1e-9), pytest.approx(ci.high, abs=1e-9))
            checked += 1
    assert checked >= 3 * n - 2  # (nearly) every seat's change is a real one to check


def test_seat_advantage_shares_against_a_hand_count_of_the_rows(files, ctx):
    """The first player's, the dealer's and every seat's share, the chi-square p and its Holm adjustment, counted
    here from the kernel's rows of the same deals (game i of seed 11) and computed with scipy: shares and
    Wilson intervals (scipy.stats.binomtest), chisquare over the seats' wins, Holm over the table's rows written
    out (sorted p times m, m - 1, ..., made monotone)."""
    from scipy import stats as sps

    from unocli.kernel import ROW_NAMES, play_rows

    result = seat_advantage.compute(experiment(files, "seat-advantage"), ctx)
    table = result.table.set_index(["players", "field"])
    col = {name: i for i, name in enumerate(ROW_NAMES)}
    for p in (2, 4):
        rows = play_rows(resolve_rules("official", (), p), resolve_policies(p, "basic", ()), seed=11, count=400)
        winner = rows[:, col["winner"]]
        row = table.loc[(p, "basic")]
        for key, who in (("first_player_share", col["first_player"]), ("dealer_share", col["dealer"])):
            k = int((winner == rows[:, who]).sum())
            assert row[key] == k / 400, (p, key)
        k = int((winner == rows[:, col["first_player"]]).sum())
        ci = sps.binomtest(k, 400).proportion_ci(0.95, method="wilson")
        assert (row["ci_low"], row["ci_high"]) == (pytest.approx(ci.low, abs=1e-12), pytest.approx(ci.high, abs=1e-12))
        seat_wins = [int((winner == s).sum()) for s in range(p)]
        seats = result.seats[(result.seats["players"] == p) & (result.seats["field"] == "basic")]
        assert list(seats["wins"]) == seat_wins and list(seats["share"]) == [w / 400 for w in seat_wins]
        assert row["chi2_p"] == pytest.approx(sps.chisquare(seat_wins).pvalue, rel=1e-12)
    raw = result.table["chi2_p"].to_numpy()
    m = len(raw)
    order = np.argsort(raw)
    stepped = np.maximum.accumulate(np.minimum(1.0, raw[order] * (m - np.arange(m))))
    holm = np.empty(m)
    holm[order] = stepped
    assert result.table["chi2_p_holm"].to_numpy() == pytest.approx(holm, abs=1e-15)
    # matches: a seat's edge is its share minus 1/n, and no verdict says the seats even out on 30 matches:
    # a share's simultaneous interval there is tens of pp wide against the 0.5 pp margin
    mt = result.matches
    assert (mt["edge"] == mt["share"] - 1 / mt["players"]).all()
    assert not mt["edge_verdict"].isin(["negligible", "equivalent"]).any()
    assert ((mt["edge_sim_high"] - mt["edge_sim_low"]) > 0.2).all()
    findings = " ".join(seat_advantage.render(result).findings)
    # the side of 1/n each role's share lies on, read over every size and field at once: Wilson (scipy) at the
    # simultaneous level 1 - 0.05 / cells, and the sizes where every field's side agrees
    level, cells = 1 - 0.05 / len(result.table), len(result.table)
    for role, key, who in (
        ("first", "first_player_share", "first player"),
        ("dealer", "dealer_share", "dealer"),
    ):
        labels: dict[int, set[str]] = {}
        for r in result.table.itertuples():
            k, n = round(getattr(r, key) * r.n), int(r.n)
            ci = sps.binomtest(k, n).proportion_ci(level, method="wilson")
            side = "above fair" if ci.low > 1 / r.players else "below fair" if ci.high < 1 / r.players else "includes fair"
            labels.setdefault(int(r.players), set()).add(side)
        same = ", ".join(f"{p} ({next(iter(v))})" for p, v in labels.items() if len(v) == 1) or "no table size"
        head = f"The side of 1/n the {who}'s interval (simultaneous {100 * level:.2f}% over the {cells} cells) lies on"
        assert f"{head} is the same under all fields at {same}" in findings, role
    assert "every seat's match share is within +/-0.50 pp of 1/n" in findings
    assert "at no table size; some seat" in findings
    assert "elsewhere whether the seats even out over a match is not shown" in findings


def test_seat_advantage_field_differences_paired_on_the_deals(files, ctx):
    """The difference of two fields' first-player edges (the 1/n cancels), counted here from the kernel's rows of
    the same deals (game i of seed 11): the paired mean of (first player won under A) - (under B), its simultaneous
    interval at 1 - 0.05/k with scipy's t quantile (k = 3 pairs of fields x 2 table sizes, the family read
    together). `basic` and `basic:bluff=0` are one player under two names: their difference is exactly 0 and
    within the margin, and the findings say so for that pair only."""
    from scipy import stats as sps

    from unocli.kernel import ROW_NAMES, play_rows

    result = seat_advantage.compute(experiment(files, "seat-advantage"), ctx)
    col = {name: i for i, name in enumerate(ROW_NAMES)}
    assert set(result.between) == {"first", "dealer"} and set(result.between["first"]) == {2, 4}
    for p in (2, 4):
        won = {}
        for f in ("random", "basic"):
            rows = play_rows(resolve_rules("official", (), p), resolve_policies(p, f, ()), seed=11, count=400)
            won[f] = (rows[:, col["winner"]] == rows[:, col["first_player"]]).astype(float)
        by_pair = {(i.field_a, i.field_b): i for i in result.between["first"][p]}
        assert len(by_pair) == 3 and all(i.family == 6 for i in by_pair.values())
        d = won["random"] - won["basic"]
        half = sps.t.ppf(1 - 0.05 / 12, 399) * d.std(ddof=1) / np.sqrt(400)
        got = by_pair[("random", "basic")]
        assert got.diff == pytest.approx(d.mean(), abs=1e-12)
        assert (got.low, got.high) == (pytest.approx(d.mean() - half, abs=1e-9), pytest.approx(d.mean() + half, abs=1e-9))
        same = by_pair[("basic", "basic:bluff=0")]
        assert (same.diff, same.low, same.high, same.verdict) == (0.0, 0.0, 0.0, "equivalent")
    text = seat_advantage._differ_text(result, "first", "first player")
    assert "every pair lies within the margin at no table size" in text  # random against basic is undecided at 400
    section = seat_advantage.render(result)
    table = next(b for b in section.blocks if getattr(b, "name", "") == "field-differences").data
    assert len(table) == 2 * 2 * 3 and (table["family"] == 6).all() and (table["p_holm"] >= table["p_raw"]).all()
    row = table[(table["role"] == "first") & (table["players"] == 4) & (table["field_a"] == "random")].iloc[0]
    assert row["difference"] == by_pair[("random", "basic")].diff  # the last size checked above is 4
    answer = section.intro.split("\n\n")[0]
    assert len(answer.split()) < 80 and "is shown at no table size under every field at once (30 matches)" in answer
    assert "not tested" not in answer + " ".join(section.findings)


def test_sweep_planted_axis_and_idle_axis(files, ctx):
    outcome = generic_sweep.compute(experiment(files, "sweep"), ctx)
    assert isinstance(outcome, generic_sweep.SweepOutcome)
    t = outcome.table.set_index(["uno_penalty", "target_score", "metric"])
    first = t.loc[(2, 500, "cards_drawn")]
    assert math.isnan(first["diff"])  # the first cell is the reference
    for metric in ("cards_drawn", "turns"):
        idle = t.loc[(2, 100, metric)]  # target_score does not change a single round
        assert (idle["diff"], idle["diff_low"], idle["diff_high"]) == (0.0, 0.0, 0.0)
        assert t.loc[(10, 100, metric), "diff"] == t.loc[(10, 500, metric), "diff"]
    # the bigger Uno penalty: about +14 cards per round, interval about +-4 at 300 rounds
    assert t.loc[(10, 500, "cards_drawn"), "diff_low"] > 0
    assert outcome.axis_names == ["uno_penalty", "target_score"]


def test_game_length_agrees_with_simulate_and_planted_rules(files, ctx):
    exp = experiment(files, "game-length")
    result = game_length.compute(exp, ctx)
    assert isinstance(result, game_length.GameLengthResult) and isinstance(result, Lengths)
    turns = result.turns.set_index(["players", "rules"])
    # the same games through simulate(): the same mean and the same order statistics
    sim = simulate(resolve_rules("official", (), 4), resolve_policies(4, "basic", ()), games=300, seed=5, keep_games=True)
    row = turns.loc[(4, "official")]
    assert row["mean_turns"] == sim.summary().set_index("metric").loc["turns", "mean"]
    ordered = np.sort(sim.games_frame["turns"].to_numpy())
    assert row["median"] == ordered[math.ceil(0.5 * 300) - 1]
    assert row["p90"] == ordered[math.ceil(0.9 * 300) - 1]
    assert row["median_low"] <= row["median"] <= row["median_high"]
    diffs = result.diffs.set_index(["players", "rules"])
    for p in (2, 4):
        twin = diffs.loc[(p, "twin")]
        assert (twin["diff"], twin["diff_low"], twin["diff_high"], twin["p"]) == (0.0, 0.0, 0.0, 1.0)
        # draw until playable nearly doubles a round (+91% at 4 players in the full report); at 300 paired
        # rounds the interval is a few turns wide against a change of tens of turns
        planted = diffs.loc[(p, "draw-until-playable")]
        assert planted["diff_low"] > 0 and planted["relative"] > 0.3
        # the verdicts: an identical arm is equivalent (exact zeros); the planted rule, tens of turns against a
        # 1-turn margin, is larger than the margin
        assert twin["verdict"] == "equivalent" and planted["verdict"] == "larger" and planted["sim_low"] > 1
        assert planted["sim_low"] < planted["diff_low"] and planted["sim_high"] > planted["diff_high"]
    assert (turns["n"] <= turns["n_all"]).all()
    assert (turns["stuck_share"] >= 0).all() and (turns["mean_with_skips"] >= turns["mean_turns"]).all()
    matches = result.matches.set_index(["players", "rules"])
    assert matches.loc[(4, "twin"), "rounds"] == matches.loc[(4, "official"), "rounds"]
    assert result.blocked == 0 and result.capped == 0 and result.total_rounds == 2 * 3 * 300


def test_seat_advantage_agrees_with_simulate_and_seat_table(files, ctx):
    result = seat_advantage.compute(experiment(files, "seat-advantage"), ctx)
    assert isinstance(result, seat_advantage.SeatAdvantageResult)
    table = result.table.set_index(["players", "field"])
    sim = simulate(resolve_rules("official", (), 4), resolve_policies(4, "basic", ()), games=400, seed=11)
    shares = sim.win_shares().set_index("seat")
    row = table.loc[(4, "basic")]
    # "first player" is the seat that took the first turn, as simulate's opening shares count it; seat 0 is apart
    first, dealer = sim.opening_shares()["first_player"], sim.opening_shares()["dealer"]
    assert (row["first_player_share"], row["ci_low"], row["ci_high"]) == (first.share, first.low, first.high)
    assert (row["dealer_share"], row["dealer_low"], row["dealer_high"]) == (dealer.share, dealer.low, dealer.high)
    assert row["seat0_share"] == shares.loc[0, "share"]
    assert row["dealer_share"] == shares.loc[3, "share"]  # in a single round the dealer is seat n - 1
    assert 0 <= row["chi2_p"] <= 1
    # matches: every seat's share of matches won, summing to the share of matches won
    m = result.matches[(result.matches["players"] == 4) & (result.matches["field"] == "basic")]
    assert list(m["seat"]) == [0, 1, 2, 3] and m["share"].sum() <= 1 + 1e-12
    assert row["ratio_to_fair"] == pytest.approx(4 * row["first_player_share"], rel=1e-12)
    seats = result.seats
    for (p, arm), sub in seats.groupby(["players", "field"]):
        shown = table.loc[(p, arm)]
        # balance is 1 minus the gap between the best and the worst seat, from the seat table's own shares
        assert shown["balance"] == pytest.approx(1 - (sub["share"].max() - sub["share"].min()), abs=1e-12)
        assert sub["share"].sum() == pytest.approx(1.0, abs=1e-12)  # every official round has a winner here
        assert shown["balance_low"] <= shown["balance_high"]
    twin, basic = table.xs("basic:bluff=0", level="field"), table.xs("basic", level="field")
    assert (twin.to_numpy() == basic.to_numpy()).all()
    assert result.games == 2 * 3 * 400


def test_house_rules_identical_and_planted_rule(files, ctx):
    result = house_rules.compute(experiment(files, "house-rules"), ctx)
    assert isinstance(result, house_rules.HouseRulesResult)
    eff = result.effects.set_index("rule")
    twin = eff.loc["twin"]
    for column in ("d_turns", "d_turns_low", "d_turns_high", "d_first", "d_first_low", "d_first_high"):
        assert twin[column] == 0.0, column
    # the same bootstrap draws for both arms: the balance change and its interval are exactly 0
    assert (twin["d_balance"], twin["d_balance_low"], twin["d_balance_high"]) == (0.0, 0.0, 0.0)
    planted = eff.loc["draw-until-playable"]
    # +91% turns at 4 players in the full report; the paired interval at 300 rounds is a few turns wide
    assert planted["d_turns_low"] > 0 and planted["d_turns_rel"] > 0.3 and planted["p_turns_holm"] < 0.05
    assert result.rules == ["twin", "draw-until-playable"]
    # the skill gap (strong among basic, seats rotated): the twin's change is exactly 0 on the same deals
    sk = result.skill.set_index("rule")
    assert (sk.loc["twin", "d_gap"], sk.loc["twin", "verdict"]) == (0.0, "equivalent")
    assert (sk["n"] == 60).all() and (sk["games"] == 60 * 4).all() and (sk["gap_low"] <= sk["gap_high"]).all()
    assert (result.effects["field"] == "basic").all()


def test_stacking_chains_only_with_stacking(files, ctx):
    result = stacking.compute(experiment(files, "stacking"), ctx)
    assert isinstance(result, stacking.StackingResult)
    stacks = result.stacks.set_index("stacking")
    for name in ("off", "twin"):
        # without stacking a +2 or +4 cannot be answered: no chain is ever longer than one card
        assert stacks.loc[name, "p_at_least_2"] == 0.0 and stacks.loc[name, "longest_seen"] <= 1
    # with stacking "any" about 65% of 4-player rounds see a chain of two or more (full report)
    assert stacks.loc["any", "p_at_least_2_low"] > 0.3
    twin = result.effects.set_index("stacking").loc["twin"]
    for column in ("d_turns", "d_cards_drawn", "d_win_first", "d_balance", "d_balance_low", "d_balance_high"):
        assert twin[column] == 0.0, column
    assert twin["turns_verdict"] == "equivalent" and twin["first_verdict"] == "equivalent"  # exact zeros
    # seat 0's adapted player against basic: the twin of off gives the same edge, and an interaction of exactly 0
    strategy = result.strategy[result.strategy["field"] == "basic"].set_index("stacking")
    assert (
        strategy.loc["off", ["edge", "edge_low", "edge_high"]] == strategy.loc["twin", ["edge", "edge_low", "edge_high"]]
    ).all()
    assert tuple(strategy.loc["twin", ["interaction", "interaction_low", "interaction_high"]]) == (0.0, 0.0, 0.0)
    assert set(result.stack_hists) == {(4, "off"), (4, "twin"), (4, "any")}


def test_bluff_honest_twin_and_caught_bluffs(files, ctx):
    full = bluff.compute(experiment(files, "bluff"), ctx)
    assert isinstance(full, bluff.BluffResult)
    result = full.grid
    # per seat: every seat of each effect, and the seats' changes add up to the change in rounds won by anyone
    # (an identity: every won round has exactly one winning seat), to rounding of a few sums (1e-12)
    ps = result.per_seat
    assert len(ps) == 3 * result.players and set(ps["win_verdict"]) <= set(VERDICTS)
    for _, sub in ps.groupby("effect"):
        assert list(sub["seat"]) == list(range(result.players))
        assert sub["diff"].sum() == pytest.approx(sub["won_diff"].iloc[0], abs=1e-12)
        assert (sub["won_diff"] == sub["won_diff"].iloc[0]).all()
        assert (sub["win_sim_low"] <= sub["diff_low"]).all() and (sub["win_sim_high"] >= sub["diff_high"]).all()
    # b = 0 is the honest twin itself; c = 0 is never challenging itself
    assert (result.gain[0] == 0).all() and (result.gain_ci[0] == 0).all()
    assert (result.value_ci[:, 0] == 0).all()
    # a challenge succeeds exactly when the +4 was a bluff: never caught unchallenged, always caught at c = 1
    per = result.per_bluff.set_index("challenge_rate")
    assert per.loc[0.0, "caught"] == 0.0 and per.loc[1.0, "caught"] == 1.0
    # always bluffing against always-challenging opponents costs about 8 points of win share at 4 players
    # (full report); at 600 paired deals the interval is about +-4 points wide
    assert result.gain_ci[1, 1, 2] < 0
    assert 0 <= result.equilibrium.bluff_rate <= 1 and 0 <= result.equilibrium.challenge_rate <= 1
    assert sorted(set(result.others["players"])) == [2, 4] and len(result.others) == 4
    assert result.games == 4 * 600 + 4 * 600


def test_equal_shares_test_finds_a_planted_edge_and_holds_its_level():
    """The chi-square test of equal seat shares: a planted 28/24/24/24 split over 20,000 wins is found
    (chi-square about 33 on 3 df, p ~ 1e-7); under equal shares p < 0.05 in about 5% of 400 samples
    (bound 9%: over 3 binomial sds above 5%)."""
    rng = np.random.default_rng(2)
    planted = rng.multinomial(20000, [0.28, 0.24, 0.24, 0.24])
    assert equal_shares_p(list(planted)) < 1e-4
    rejections = sum(equal_shares_p(list(rng.multinomial(5000, [0.25] * 4))) < 0.05 for _ in range(400))
    assert rejections / 400 < 0.09
    assert math.isnan(equal_shares_p([0, 0, 0]))


def test_game_length_report_does_not_depend_on_max_turns(tmp_path, ctx):
    """The game-length report's tables are identical with max_turns 5,000 and 20,000 on a setup with a locked
    round (9 players, draw until playable, basic, seed 20240501: game 988 locks), and that round is counted stuck."""
    results = []
    for cap in (5000, 20000):
        path = tmp_path / f"cap{cap}.toml"
        path.write_text(
            f"""
analysis = "game-length"
games = 1000
seed = 20240501
players = [9]
baseline = "official"
[base]
policy = "basic"
set = {{ max_turns = {cap} }}
[arms.official]
rules = "official"
[arms.draw-until-playable]
set = {{ draw_until_playable = true }}
[options]
fields = ["basic"]
match_games = 4
""",
            encoding="utf-8",
        )
        results.append(game_length.compute(load_experiment(path), ctx))
    small, large = results
    pd.testing.assert_frame_equal(small.turns, large.turns)
    pd.testing.assert_frame_equal(small.diffs, large.diffs)
    assert small.stuck >= 1 and small.capped == 0
    row = small.turns.set_index("rules").loc["draw-until-playable"]
    assert row["n"] < row["n_all"] and row["stuck_share"] > 0


def test_margins_come_from_the_experiment_file(tmp_path):
    """[margins] overrides the documented defaults; an unknown margin or a non-positive one is refused, naming the key."""
    from unocli.errors import ConfigError
    from unocli.report.experiment import MARGINS

    head = 'analysis = "compare"\n[arms.a]\nrules = "official"\n'
    path = tmp_path / "m.toml"
    path.write_text(head + "[margins]\nturns = 2.5\n", encoding="utf-8")
    exp = load_experiment(path)
    assert exp.margins == {**MARGINS, "turns": 2.5}
    assert MARGINS == {"win_share_pp": 0.5, "turns": 1.0, "balance": 0.01}
    for bad, words in (("speed = 1", "margins.speed"), ("turns = 0", "margins.turns"), ("turns = true", "margins.turns")):
        path.write_text(head + f"[margins]\n{bad}\n", encoding="utf-8")
        with pytest.raises(ConfigError, match=words):
            load_experiment(path)


def test_matches_even_the_seats_out_only_from_every_seats_equivalence_verdict():
    """The answer says the seats even out over whole matches only where every seat of every field is equivalent
    (or negligible) within the margin; one undecided seat at a size keeps that size out."""
    from types import SimpleNamespace

    rows = [(p, s, "equivalent") for p in (2, 4) for s in range(p)]
    frame = pd.DataFrame(rows, columns=["players", "seat", "edge_verdict"]).assign(n=200000, field="a")
    frame = frame.assign(chi2_p_holm=1.0, edge_sim_low=-0.003, edge_sim_high=0.003)
    result = SimpleNamespace(matches=frame, exp=SimpleNamespace(margins={"win_share_pp": 0.5}), names=("a",))
    assert "Over whole matches the seats even out" in seat_advantage._even_text(result)
    frame.loc[(frame["players"] == 4) & (frame["seat"] == 3), "edge_verdict"] = "undecided"
    text = seat_advantage._even_text(result)
    assert "even out:" not in text and "is shown at 2 (200,000 matches)" in text
    # two fields: the claim is of every field at once, and a field that shows it at more sizes is named (field b
    # is equivalent at 2 and 4; it said "shown at 2" as if of every field, and nothing of b's 4)
    b = frame.assign(field="b", edge_verdict="equivalent")
    two = SimpleNamespace(matches=pd.concat([frame, b]), exp=result.exp, names=("a", "b"))
    text = seat_advantage._even_text(two)
    assert "is shown at 2 under every field at once (200,000 matches; under one field: `b` at 2, 4)." in text


def _wilson_by_hand(share: float, n: int, level: float) -> tuple[float, float]:
    """The Wilson score interval written out from its formula, with scipy's normal quantile."""
    from scipy.stats import norm

    z = norm.ppf(0.5 + level / 2)
    centre, half = share + z * z / (2 * n), z * (share * (1 - share) / n + z * z / (4 * n * n)) ** 0.5
    return (centre - half) / (1 + z * z / n), (centre + half) / (1 + z * z / n)


def test_a_claim_over_every_cell_reads_the_shares_as_one_family():
    """ "Wins above 1/n at every table size under every field" reads the k cells together: each share's Wilson
    interval at 1 - 0.05/k. A share of 25.9% of 10,000 is above 1/4 on its own 95% interval (low 25.05%) but not on
    the 98.33% one of a family of three (low 24.87%), which the answer of the seat report read alone before."""
    from unocli.analysis.seat_advantage import family_level, sides

    shares = [0.259, 0.27, 0.21]
    lows, highs = zip(*(_wilson_by_hand(x, 10_000, 0.95) for x in shares), strict=True)
    table = pd.DataFrame(
        {"players": [4, 4, 5], "field": ["a", "b", "a"], "n": 10_000, "first_player_share": shares}
        | {"ci_low": lows, "ci_high": highs, "fair_share": [0.25, 0.25, 0.2]}
    )
    assert lows[0] == pytest.approx(0.25051, abs=1e-5)
    assert family_level(table) == pytest.approx(1 - 0.05 / 3)
    assert _wilson_by_hand(0.259, 10_000, 1 - 0.05 / 3)[0] == pytest.approx(0.24865, abs=1e-5)
    assert sides(table, "first") == {4: {"a": "above fair", "b": "above fair"}, 5: {"a": "above fair"}}
    assert sides(table, "first", family_level(table)) == {4: {"a": "includes fair", "b": "above fair"}, 5: {"a": "above fair"}}


def test_the_seat_verdicts_are_read_from_intervals_and_judged_families():
    """Where a role's interval lies against 1/n; which sizes' paired field differences are beyond the margin,
    all within it, or undecided; where every seat's match edge is within the margin, some beyond, or equal shares
    are rejected (Holm p < 0.05), with the median simultaneous half-width."""
    from types import SimpleNamespace

    from unocli.analysis.seat_advantage import evenness, sides, split

    table = pd.DataFrame(
        {"players": [2, 2], "field": ["a", "b"], "first_player_share": [0.6, 0.5], "ci_low": [0.55, 0.45]}
        | {"ci_high": [0.65, 0.55], "dealer_share": [0.4, 0.3], "dealer_low": [0.35, 0.25], "dealer_high": [0.45, 0.35]}
        | {"fair_share": [0.5, 0.5]}
    )
    assert sides(table, "first") == {2: {"a": "above fair", "b": "includes fair"}}
    assert sides(table, "dealer") == {2: {"a": "below fair", "b": "below fair"}}
    pair = lambda verdict: SimpleNamespace(verdict=verdict, level=0.99)  # noqa: E731
    found = split({2: [pair("larger"), pair("equivalent")], 4: [pair("negligible")], 6: [pair("undecided")]})
    assert (list(found.differ), found.within, found.undecided, found.level) == ([2], [4], [6], 0.99)
    # a pair whose interval excludes 0 but crosses the margin is a difference of undecided size, not "undecided"
    found = split({2: [pair("larger"), pair("unsized")], 4: [pair("unsized"), pair("undecided")], 6: [pair("undecided")]})
    assert (list(found.differ), list(found.unsized), found.within, found.undecided) == ([2], [4], [], [6])
    assert split({}).level is None
    rows = [(2, "a", "equivalent", 0.5), (2, "a", "negligible", 0.5), (4, "a", "larger", 0.01), (4, "a", "undecided", 0.01)]
    m = pd.DataFrame(rows, columns=["players", "field", "edge_verdict", "chi2_p_holm"]).assign(edge_sim_low=-0.01)
    m = m.assign(edge_sim_high=[0.01, 0.01, 0.03, 0.03])
    e = evenness(pd.concat([m, m.assign(field="b", edge_verdict="undecided")]), "a")
    assert (e.even, e.apart, e.uneven, e.half_width) == ([2], [4], [4], pytest.approx(0.015))
