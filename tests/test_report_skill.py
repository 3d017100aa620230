"""The skill report (``unocli.report.analyses.skill``) on a tiny run: planted and absent edges, and its tables.

One player against a field, every deal played once per seat rotation. A
planted edge must show: `basic` against a field of `random` wins far more than
the fair share. No edge must show where there is none: a `basic` player
against a field of `basic` is the same policy in every seat, so by the seat
rotation its expected gap is exactly 0. Two rule sets that are the same
(`official` and its twin) must differ by exactly 0 on the same deals. The
runs have fixed seeds, so a failure is a change in the code, not bad luck.
"""

from __future__ import annotations

import math
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from unocli.analysis import skill as skill_cells
from unocli.errors import ConfigError
from unocli.report.analyses import ANALYSES, Context, skill
from unocli.report.analyses.skill import plan
from unocli.report.experiment import load_experiment
from unocli.report.model import Chart, TableBlock
from unocli.run.backends import LocalBackend
from unocli.study.stats import VERDICTS

GAMES, MATCHES = 1200, 40
TOML = f"""
analysis = "skill"
seed = 23
games = {GAMES}
players = [2, 4]
baseline = "official"
[arms.official]
rules = "official"
[arms.twin]
rules = "official"
[arms.stacking]
rules = "stacking"
[options]
player = "basic"
fields = ["random", "basic"]
match_games = {MATCHES}
"""


@pytest.fixture(scope="module")
def result(tmp_path_factory) -> skill.SkillResult:
    path = tmp_path_factory.mktemp("skill") / "skill.toml"
    path.write_text(TOML, encoding="utf-8")
    exp = load_experiment(path)
    return skill.compute(exp, Context(backend=LocalBackend(), log=lambda _: None))


def cell(result: skill.SkillResult, players: int, field: str, rules: str = "official") -> pd.Series:
    g = result.gaps
    return g[(g["players"] == players) & (g["field"] == field) & (g["rules"] == rules)].iloc[0]


def test_registered():
    assert ANALYSES["skill"] is skill


def test_table_has_n_and_intervals(result):
    g = result.gaps
    assert len(g) == 2 * 2 * 3  # table sizes x fields x rule sets
    for kind in ("round", "match"):
        for col in ("n", "games", "share", "share_low", "share_high", "gap", "gap_low", "gap_high", "fair"):
            assert f"{kind}_{col}" in g.columns, (kind, col)
        assert (g[f"{kind}_gap_low"] <= g[f"{kind}_gap"]).all() and (g[f"{kind}_gap"] <= g[f"{kind}_gap_high"]).all()
        assert (g[f"{kind}_share_low"] <= g[f"{kind}_share"]).all() and (g[f"{kind}_share"] <= g[f"{kind}_share_high"]).all()
    assert (g["round_n"] == GAMES).all()
    assert (g["round_games"] == GAMES * g["players"]).all()


def test_planted_edge_is_recovered(result):
    # basic against random at 2 players wins about 70% of rounds heads-up: a gap near +20 pp whose 95% interval
    # over 1,200 deals is about +-2 pp wide, so its lower end is far above 0
    row = cell(result, 2, "random")
    assert row["round_gap_low"] > 0.05
    assert row["round_gap"] == pytest.approx(row["round_share"] - 0.5, abs=1e-3)  # every round finishes heads-up
    # and at 4 players too (a smaller edge, still clear)
    assert cell(result, 4, "random")["round_gap_low"] > 0


def test_no_edge_where_none_exists(result):
    # basic against a field of basic: every seat plays the same policy, so with the seats rotated over each deal
    # the expected gap is exactly 0, and its 95% interval must cover 0. (Here every rotation of a deal replays the
    # same game, as the seats' random streams do not depend on which slot sits there, so the player wins exactly
    # one rotation per won deal and the gap is 0 on every deal: the interval is [0, 0]. A fresh seed cannot
    # change that; were the rotations to differ, a correct 95% interval would still cover 0 at this fixed seed
    # with probability 95%, so a failure would be a change in the code, to look at, not bad luck.)
    for p in (2, 4):
        for kind in ("round", "match"):
            row = cell(result, p, "basic")
            assert row[f"{kind}_gap_low"] <= 0 <= row[f"{kind}_gap_high"], (p, kind)
            assert row[f"{kind}_share_low"] <= 1 / p <= row[f"{kind}_share_high"], (p, kind)


def test_match_shares_and_sizes(result):
    g = result.gaps
    assert ((g["match_share"] >= 0) & (g["match_share"] <= 1)).all()
    assert (g["match_n"] == MATCHES).all()
    assert (g["match_games"] == MATCHES * g["players"]).all()
    assert (g["match_rounds"] > 1).all()  # a match to 500 points takes several rounds
    # the planted edge grows over a match: basic wins most heads-up matches against random
    assert cell(result, 2, "random")["match_gap_low"] > 0.1


def test_the_sizes_finding_gives_each_table_sizes_lowest_and_highest_rounds_per_match(result):
    """The findings' rounds per match are a table size's lowest and highest cells, each with its interval, read off
    the gaps frame by hand."""
    from unocli.report import fmt
    from unocli.report.analyses.skill_text import findings

    line = next(x for x in findings(result, 500).splitlines() if x.startswith("- Sizes:"))
    for p, sub in result.gaps.groupby("players"):
        lo, hi = sub.loc[sub["match_rounds"].idxmin()], sub.loc[sub["match_rounds"].idxmax()]
        ends = [fmt.ci(r["match_rounds"], r["match_rounds_low"], r["match_rounds_high"]) for r in (lo, hi)]
        assert f"{ends[0]} to {ends[1]} rounds at {p} players" in line
    cells = len(result.gaps) // result.gaps["players"].nunique()
    assert f"the lowest and highest of each size's {cells} cells of rule set and field; 95% intervals clustered" in line


def test_each_rule_set_s_range_of_changes_carries_its_ends_intervals(result):
    """The rules sentence counts each rule set's cells by verdict and gives its lowest and highest change with their
    simultaneous intervals (read off the changes frame by hand)."""
    from unocli.report import fmt
    from unocli.report.analyses.skill_text import details

    text = details(result)
    r = result.changes[result.changes["kind"] == "round"]
    for name, sub in r.groupby("rules", sort=False):
        lo, hi = sub.loc[sub["d_gap"].idxmin()], sub.loc[sub["d_gap"].idxmax()]
        ends = [fmt.pp_ci(e["d_gap"], e["sim_low"], e["sim_high"], 2) for e in (lo, hi)]
        assert f"of {len(sub)} ({ends[0]} to {ends[1]})" in text, name


def test_identical_rule_sets_differ_by_exactly_zero(result):
    ch = result.changes
    assert set(ch["rules"]) == {"twin", "stacking"}
    twin = ch[ch["rules"] == "twin"]
    assert len(twin) == 2 * 2 * 2  # kinds x table sizes x fields
    assert (twin["d_gap"] == 0).all() and (twin["d_low"] == 0).all() and (twin["d_high"] == 0).all()
    assert (twin["verdict"] == "equivalent").all()
    assert (ch["n"] == ch["kind"].map({"round": GAMES, "match": MATCHES})).all()
    assert set(ch["verdict"]) <= set(VERDICTS)


def test_render_has_chart_and_tables(result):
    section = skill.render(result)
    assert section.intro.startswith("**Not pure luck.**")  # the planted edge makes the answer
    first, second = section.intro.split("\n\n")[:2]
    assert len(first.split()) < 80  # a short answer a reader can quote (issue 30); the evidence follows
    assert "of matches (edge" in second and "of matches" not in first
    assert isinstance(section.blocks[0], Chart) and section.blocks[0].name == "skill-gap"
    tables = {b.name: b for b in section.blocks if isinstance(b, TableBlock)}
    assert set(tables) == {"skill-gaps", "skill-vs-baseline"}
    shown = tables["skill-gaps"].shown
    assert {"n deals (rounds)", "round edge [95%]", "n deals (matches)", "match edge [95%]"} <= set(shown.columns)
    assert len(shown) == len(result.gaps)


def test_the_declared_views_name_each_kind_with_its_own_margin(result):
    """The views of sims/skill.toml: the changes table says each row's kind and the margin it was judged at (the
    [margins] win_share_pp, 0.5 by default, per round; options.match_margin_pp, 3 by default, per match), as the
    charts' captions do; the edges' chart has a row for every cell, at every table size."""
    section = skill.render(result)
    shown = next(b for b in section.blocks if isinstance(b, TableBlock) and b.name == "skill-vs-baseline").shown
    margins = dict(zip(shown["kind"], shown["verdict"].str.extract(r"\(\+/-(.*) pp\)$")[0], strict=True))
    assert margins == {"per round": "0.50", "per match": "3"}
    charts = {b.name: b for b in section.blocks if isinstance(b, Chart)}
    assert set(charts) == {"skill-gap", "skill-vs-baseline"}
    for chart in charts.values():
        assert "+/-0.50 pp per round, +/-3 pp per match" in chart.caption
    labels = [t.get_text() for t in charts["skill-gap"].figure.axes[0].get_yticklabels()]
    assert labels == [f"{r.rules}, {r.players}p vs {r.field}" for r in result.gaps.itertuples()]


def test_arms_with_policies_are_refused(tmp_path):
    path = tmp_path / "bad.toml"
    path.write_text(TOML.replace('[arms.twin]\nrules = "official"', '[arms.twin]\nrules = "official"\npolicy = "basic"'))
    with pytest.raises(ConfigError, match=r"arms\.twin"):
        load_experiment(path)
    path.write_text('analysis = "skill"\n[base]\npolicy = "basic"\n')
    with pytest.raises(ConfigError, match="'base'"):
        load_experiment(path)


def test_shipped_experiment_loads():
    root = Path(__file__).resolve().parents[1]
    exp = load_experiment(root / "sims" / "skill.toml")
    assert exp.analysis == "skill" and exp.options["player"] == "tuned-{rules}-{players}"
    assert exp.options["fields"] == ["basic", "random"] and exp.players == (2, 4, 6)
    quick = load_experiment(root / "sims" / "skill.toml", quick=True)
    assert quick.games < exp.games and quick.options["match_games"] < exp.options["match_games"]
    # every rule set and table size seats its own tuned player at seat 0, the field everywhere else
    for arm in exp.arms:
        for p in exp.players:
            table = skill.table_arm(exp, arm.name, p, exp.options["player"], "basic")
            assert table.labels == (f"tuned-{arm.table.rules}-{p}",) + ("basic",) * (p - 1)


def test_template_player_is_named_without_placeholders_and_checked_per_cell(tmp_path):
    assert skill.player_name("tuned-{rules}-{players}") == "tuned"
    assert skill.player_name("strong") == "strong"
    tuned = Path(__file__).resolve().parents[1] / "sims" / "tuned" / "tuned.toml"
    path = tmp_path / "t.toml"
    text = TOML.replace('player = "basic"', 'player = "tuned-{rules}-{players}"')
    path.write_text(f"policies = {str(tuned)!r}\n" + text.replace("players = [2, 4]", "players = [2, 3]"))
    with pytest.raises(ConfigError, match=r"options.*tuned-official-3"):  # no tuned player for 3 players
        load_experiment(path)


def test_compute_does_not_import_matplotlib(tmp_path):
    """compute in a fresh interpreter leaves matplotlib unloaded (only render draws)."""
    path = tmp_path / "tiny.toml"
    path.write_text(TOML.replace(f"games = {GAMES}", "games = 50").replace("players = [2, 4]", "players = [2]"))
    script = """
import sys
from unocli.report.analyses import Context, skill
from unocli.run.backends import LocalBackend
from unocli.report.experiment import load_experiment

result = skill.compute(load_experiment(sys.argv[1]), Context(backend=LocalBackend(), log=lambda _: None))
print(type(result).__name__, "matplotlib" in sys.modules)
"""
    proc = subprocess.run([sys.executable, "-c", script, str(path)], capture_output=True, text=True, check=False, timeout=600)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.split() == ["SkillResult", "False"]


def test_fixed_player_is_measured_beside_the_player(tmp_path):
    # the fixed player is basic, the player random: against a field of random, basic's gap must be clearly
    # positive (the planted edge, as above) and random's covers 0 (the same policy as the field: exactly 0 here)
    path = tmp_path / "fixed.toml"
    text = TOML.replace('player = "basic"', 'player = "random"\nfixed_player = "basic"')
    text = text.replace("players = [2, 4]", "players = [2]")
    path.write_text(text.replace('fields = ["random", "basic"]', 'fields = ["random"]'))
    res = skill.compute(load_experiment(path), Context(backend=LocalBackend(), log=lambda _: None))
    assert res.fixed == "basic" and len(res.fixed_gaps) == len(res.gaps) == 3
    official = res.fixed_gaps[res.fixed_gaps["rules"] == "official"].iloc[0]
    assert official["round_gap_low"] > 0.05
    assert (res.gaps["round_gap"] == 0).all()
    assert set(res.fixed_changes["rules"]) == {"twin", "stacking"}
    names = {b.name for b in skill.render(res).blocks if isinstance(b, TableBlock)}
    assert {"skill-fixed-gaps", "skill-fixed-vs-baseline"} <= names
    path.write_text(text.replace('fixed_player = "basic"', 'fixed_player = "tuned-{rules}-{players}"'))
    with pytest.raises(ConfigError, match="fixed_player"):
        load_experiment(path)


def test_clustered_share_and_edge_intervals_against_a_cluster_robust_formula(monkeypatch, tmp_path):
    """The skill report's share is over rotations clustered by deal. Recomputed here from the rows of a small run
    (the kernel's per-deal counts of rotations won, seen by a spy on run_shard) with the cluster-robust (CR1)
    variance of a mean, written from the observations: V = G/(G-1) * sum_g (sum_i (y_gi - ybar))^2 / N^2, with G
    deals, N = G n observations and y_gi = 1 when the player won rotation i of deal g; the interval is
    ybar +- t(0.975, G - 1) sqrt(V) (scipy.stats.t). With equal clusters this is the t interval over the deals'
    shares, so the two agree to rounding (1e-9). A sum of a deal's wins put in place of its sum of squares keeps
    the mean and changes the interval (basic against random wins 0 to 4 rotations of a deal, not only 0 or 1)."""
    from scipy import stats as sps

    path = tmp_path / "skill.toml"
    path.write_text(TOML, encoding="utf-8")
    exp = load_experiment(path)
    seen: list[tuple[int, np.ndarray]] = []
    real = skill_cells.run_shard

    def spy(spec, shard):
        part = real(spec, shard)
        seen.append((part.start, np.array(part.wins)))
        return part

    monkeypatch.setattr(skill_cells, "run_shard", spy)
    n, deals = 4, 400
    arm = skill.table_arm(exp, "official", n, "basic", "random")
    cell = skill_cells.play_cell(plan(exp), Context(backend=LocalBackend(), log=lambda _: None), arm, deals, False)
    wins = np.concatenate([w for _, w in sorted(seen, key=lambda s: s[0])])
    assert wins.shape == (deals, n)
    mine = wins[:, 0].astype(float)
    assert len(set(mine)) > 2  # some deals won in 2+ rotations: the planted bug would show
    big_n = deals * n
    ybar = mine.sum() / big_n
    v = deals / (deals - 1) * ((mine - n * ybar) ** 2).sum() / big_n**2
    half = sps.t.ppf(0.975, deals - 1) * math.sqrt(v)
    assert cell.share.mean == pytest.approx(ybar, abs=1e-12)
    assert (cell.share.low, cell.share.high) == (pytest.approx(ybar - half, abs=1e-9), pytest.approx(ybar + half, abs=1e-9))
    # the edge (share minus an average seat's share) per deal, the same way: residuals of (won - won by anyone / n)
    anyone = wins.sum(axis=1).astype(float)
    e = (mine - anyone / n) / n  # the deal's edge: its rotations' mean of (player won - anybody won / n)
    ebar = e.mean()
    ve = deals / (deals - 1) * ((e - ebar) ** 2).sum() / deals**2
    he = sps.t.ppf(0.975, deals - 1) * math.sqrt(ve)
    assert cell.gap.mean == pytest.approx(ebar, abs=1e-12)
    assert (cell.gap.low, cell.gap.high) == (pytest.approx(ebar - he, abs=1e-9), pytest.approx(ebar + he, abs=1e-9))
