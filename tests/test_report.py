"""Reports: every chart file is written and non-empty, tables carry intervals and sample sizes, and the
commands compare, report and simulate --target-error behave (tiny game counts throughout)."""

from __future__ import annotations

import dataclasses
import json
import re
from pathlib import Path

import pandas as pd
import pytest
from click.testing import CliRunner

from unocli import __version__
from unocli.cli.main import cli
from unocli.report.experiment import load_experiment
from unocli.report.model import Chart, TableBlock
from unocli.report.render import DEFAULT_SET, render_section, run_experiment

ROOT = Path(__file__).resolve().parents[1]
TINY_OPTIONS = {
    "match_games": 20,
    "replicates": 40,
    "skill_games": 50,
    "bluff_rates": [0, 0.5, 1],
    "challenge_rates": [0, 0.5, 1],
}
TINY_PLAYERS = {"game-length": (2, 4), "stacking": (2, 4), "seat-advantage": (2, 4), "house-rules": (4,)}

COMPARE_TOML = """
title = "Planted effect"
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
"""


def tiny(name: str):
    exp = load_experiment(ROOT / "sims" / f"{name}.toml", quick=True)
    options = {k: (TINY_OPTIONS[k] if k in TINY_OPTIONS else v) for k, v in exp.options.items()}
    return dataclasses.replace(exp, games=200, players=TINY_PLAYERS.get(name, exp.players), options=options)


@pytest.fixture(scope="module")
def reports(tmp_path_factory):
    out = tmp_path_factory.mktemp("reports")
    done = {}
    for name in DEFAULT_SET:
        section = run_experiment(tiny(name))
        folder = out / name
        text = render_section(section, folder)
        done[name] = (section, folder, text)
    return done


@pytest.mark.parametrize("name", DEFAULT_SET)
def test_every_chart_file_is_written_and_not_empty(reports, name):
    section, folder, text = reports[name]
    charts = [b for b in section.blocks if isinstance(b, Chart)]
    assert len(charts) >= 3
    for chart in charts:
        png, svg = folder / f"{chart.name}.png", folder / f"{chart.name}.svg"
        assert png.stat().st_size > 5000, chart.name
        assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
        assert svg.stat().st_size > 5000 and b"<svg" in svg.read_bytes()[:2000]
        assert f"({chart.name}.png)" in text
        # every caption states n, the rules, the seed, the version and the intervals
        for words in ("n = ", "Rules:", "Seed ", f"unocli {__version__}", "95%"):
            assert words in chart.caption, (chart.name, words)


@pytest.mark.parametrize("name", DEFAULT_SET)
def test_tables_carry_intervals_and_sample_sizes(reports, name):
    section, folder, text = reports[name]
    tables = [b for b in section.blocks if isinstance(b, TableBlock)]
    assert tables
    for table in tables:
        data = pd.read_csv(folder / f"{table.name}.csv")
        assert len(data) > 0
        assert any(c == "n" or c.startswith("n_") for c in data.columns), table.name
        assert any(c.endswith(("_low", "_high")) or c in ("ci", "ci_low") for c in data.columns), table.name
    assert section.findings
    assert re.search(r"\[[-+0-9.]+%?, [-+0-9.]+%?\]", text)  # intervals shown in the Markdown


def _interval_triples(data: pd.DataFrame) -> list[tuple[str, str, str]]:
    """(point, low, high) column names: each ``S_low`` with ``S_high``; the point is ``S`` if there is one,
    else the column just before ``S_low`` (``mean_turns, ci_low, ci_high``; ``win_share, win_low, win_high``)."""
    cols = list(data.columns)
    out = []
    for i, low in enumerate(cols):
        if low.endswith("_low") and (high := low[:-4] + "_high") in cols:
            stem = low[:-4]
            # A simultaneous interval ("sim", "turns_sim") is around the paired difference ("diff", "d_turns").
            base = stem[: -len("_sim")] if stem.endswith("_sim") else ""
            named = [stem, *((f"d_{base}", f"d_win_{base}") if base else ()), *(("diff",) if stem.endswith("sim") else ())]
            point = next((c for c in named if c in cols), None) or _point_before(data, cols[:i])
            if point is not None:
                out.append((point, low, high))
    return out


def _point_before(data: pd.DataFrame, before: list[str]) -> str | None:
    """The nearest numeric column before an interval that is not itself a bound, a p-value or a verdict
    (``diff, ci_low, ci_high, p_holm, sim_low, sim_high``: both intervals are around ``diff``)."""
    for col in reversed(before):
        if col.endswith(("_low", "_high")) or col == "p" or col.startswith("p_"):
            continue
        if col == "n" or col.startswith("n_"):  # a count is no point estimate: a text column holds it
            return None
        if pd.api.types.is_numeric_dtype(data[col]):
            return col
    return None


# balance (1 - the largest gap between two seats' win shares) has a bootstrap percentile interval; a
# max-type statistic is biased under the bootstrap, so the point can fall outside it (e.g. stacking-arms,
# 2 players, off, 200 games: 0.99 [0.796, 0.985]). Reported in issue 16's closing note, checked by
# test_balance_lies_in_its_interval (expected to fail until the interval is changed).
KNOWN_OUTSIDE = ("balance",)


def _games(name: str, column: str, table: str = "") -> int:
    """Games behind a table's n: matches for ``n_matches`` and for the tables of matches, deals of the skill
    gap for its table (each played once per seat rotation), else rounds."""
    exp = tiny(name)
    if table.endswith("skill-gap"):
        return int(exp.options["skill_games"])
    matches = column == "n_matches" or table.startswith("match")
    return int(exp.options.get("match_games", exp.games)) if matches else exp.games


@pytest.mark.parametrize("name", DEFAULT_SET)
def test_table_values_are_consistent(reports, name):
    """n is the number of games played, every interval contains its point, p-values are p-values."""
    section, folder, _ = reports[name]
    checked = 0
    for table in (b for b in section.blocks if isinstance(b, TableBlock)):
        data = pd.read_csv(folder / f"{table.name}.csv")
        for column in ("n", "n_matches"):
            if column in data.columns:  # a published figure unocli did not measure has no n
                given = data[column].dropna() if table.name == "published" else data[column]
                assert (given == _games(name, column, table.name)).all(), (table.name, column, data[column].tolist())
        for point, low, high in _interval_triples(data):
            if point in KNOWN_OUTSIDE:
                continue
            rows = data[[point, low, high]].dropna()
            assert len(rows) > 0 or data[point].isna().all(), (table.name, point)
            eps = 1e-9
            bad = rows[(rows[low] > rows[point] + eps) | (rows[point] > rows[high] + eps)]
            assert bad.empty, f"{table.name}: {point} outside [{low}, {high}]:\n{bad}"
            checked += len(rows)
        for p in (c for c in data.columns if c == "p" or (c.startswith("p_") and not c.startswith("p_at_least"))):
            values = data[p].dropna()
            assert ((values >= 0) & (values <= 1)).all(), (table.name, p)
            if p.endswith("_holm") or p == "p_holm":
                raw = "p" if p == "p_holm" else p[: -len("_holm")]
                if raw in data.columns:
                    both = data[[raw, p]].dropna()
                    assert (both[p] >= both[raw] - 1e-12).all(), (table.name, p)
    assert checked > 0


@pytest.mark.xfail(reason="balance's bootstrap percentile interval can exclude the point (see KNOWN_OUTSIDE)", strict=False)
@pytest.mark.parametrize("name", ["stacking"])
def test_balance_lies_in_its_interval(reports, name):
    section, folder, _ = reports[name]
    for table in (b for b in section.blocks if isinstance(b, TableBlock)):
        data = pd.read_csv(folder / f"{table.name}.csv")
        if "balance" in data.columns:
            rows = data[["balance", "balance_low", "balance_high"]].dropna()
            assert ((rows["balance_low"] <= rows["balance"]) & (rows["balance"] <= rows["balance_high"])).all(), table.name


@pytest.mark.parametrize("name", DEFAULT_SET)
def test_every_report_opens_with_a_short_answer(reports, name):
    """Issue 30: the first paragraph is an answer a reader can quote, under about 80 words (85 with the numbers a
    tiny run may print longer, e.g. an extra field named); the evidence follows in later paragraphs."""
    section, _, _ = reports[name]
    first = section.intro.split("\n\n")[0]
    assert first.startswith("**"), first[:80]
    assert len(first.split()) <= 85, f"{name}: {len(first.split())} words: {first[:200]}"


def test_bluff_report_answers_its_questions(reports):
    section, folder, _ = reports["bluff"]
    text = " ".join(section.findings)
    assert "challenge" in text and "quilibrium" in text
    eq = pd.read_csv(folder / "equilibrium.csv")
    assert 0 <= eq["bluff_rate"].iloc[0] <= 1 and 0 <= eq["challenge_rate"].iloc[0] <= 1
    assert eq["bluff_low"].iloc[0] <= eq["bluff_high"].iloc[0]


def test_fictitious_play_finds_an_interior_equilibrium():
    import numpy as np

    from unocli.analysis.bluff_grid import crossing, fictitious_play, pure_path

    b, c = np.linspace(0, 1, 11), np.linspace(0, 1, 11)
    # W = 0.25 + b (0.04 - 0.1 c) + 0.02 c: bluffing pays below c = 0.4, challenging pays above b = 0.2
    w = 0.25 + np.outer(b, 0.04 - 0.1 * c) + 0.02 * c
    p, q = fictitious_play(w, 4000)
    assert p @ b == pytest.approx(0.2, abs=0.03)
    assert q @ c == pytest.approx(0.4, abs=0.03)
    path = pure_path(w)
    assert path[-1] in path[:-1]  # pure best responses cycle here
    assert crossing(c, (0.04 - 0.1 * c)[None])[0] == pytest.approx(0.4)
    assert crossing(c, -np.ones((1, 11)))[0] == -np.inf
    assert crossing(c, np.ones((1, 11)))[0] == np.inf


def run_cli(*args: str):
    return CliRunner().invoke(cli, list(args), catch_exceptions=False)


def test_report_command_one_experiment(tmp_path):
    exp = tmp_path / "planted.toml"
    exp.write_text(COMPARE_TOML, encoding="utf-8")
    out = tmp_path / "out"
    result = run_cli("report", str(exp), "--out", str(out), "--quiet")
    assert result.exit_code == 0, result.output
    readme = (out / "README.md").read_text(encoding="utf-8")
    assert "Planted effect" in readme and "seed 3" in readme
    assert (out / "diff-cards_drawn.png").stat().st_size > 0
    data = pd.read_csv(out / "comparison.csv")
    same = data[(data["arm"] == "same")]
    assert (same["difference"] == 0).all() and (same["diff_low"] == 0).all() and (same["diff_high"] == 0).all()
    planted = data[(data["arm"] == "penalty10") & (data["quantity"] == "cards_drawn")].iloc[0]
    assert planted["p_adj"] < 0.001


def test_report_command_several_experiments_write_an_index(tmp_path):
    a = tmp_path / "a.toml"
    a.write_text(COMPARE_TOML.replace("games = 300", "games = 100"), encoding="utf-8")
    b = tmp_path / "b.toml"
    b.write_text('title = "Sweep"\ngames = 100\nmetric = "cards_drawn"\n[grid]\nuno_penalty = [2, 4]\n', encoding="utf-8")
    out = tmp_path / "out"
    result = run_cli("report", str(a), str(b), "--out", str(out), "--quiet")
    assert result.exit_code == 0, result.output
    index = (out / "README.md").read_text(encoding="utf-8")
    assert "(a/README.md)" in index and "(b/README.md)" in index
    assert "](b/sweep.png)" in index
    assert (out / "a" / "README.md").exists() and (out / "b" / "sweep.png").stat().st_size > 0


def test_report_command_bad_experiment_is_one_clean_line(tmp_path):
    exp = tmp_path / "bad.toml"
    exp.write_text(COMPARE_TOML.replace("uno_penalty = 10", "uno_penlty = 10"), encoding="utf-8")
    result = CliRunner().invoke(cli, ["report", str(exp), "--out", str(tmp_path / "out")])
    assert result.exit_code == 1
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: ")
    assert str(exp) in lines[0] and "arms.penalty10.set.uno_penlty" in lines[0]
    assert not (tmp_path / "out").exists()


def test_compare_command(tmp_path):
    result = run_cli(
        "compare",
        "--arm",
        "official",
        "--arm",
        "p10: --set uno_penalty=10",
        "--arm",
        "same: --set target_score=100",
        "--policy",
        "basic:forget_uno=0.3",
        "--games",
        "300",
        "--metrics",
        "cards_drawn,turns",
        "--json",
        "--out",
        str(tmp_path / "c.csv"),
    )
    assert result.exit_code == 0, result.output
    payload = json.loads(result.stdout)
    rows = {(r["arm"], r["metric"]): r for r in payload["rows"]}
    assert rows[("same", "turns")]["diff"] == 0
    assert rows[("p10", "cards_drawn")]["p_holm"] < 0.001
    assert (tmp_path / "c.csv").stat().st_size > 0


def test_compare_command_text_and_target():
    result = run_cli("compare", "--arm", "official", "--arm", "stacking", "--games", "200", "--target-error", "4", "--quiet")
    assert result.exit_code == 0, result.output
    assert "minus official" in result.stdout and "target reached" in result.stdout


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["compare", "--arm", "official"], "at least two"),
        (["compare", "--arm", "official", "--arm", "nonsense"], "not a rules preset"),
        (["compare", "--arm", "official", "--arm", "x: --bogus 1"], "unknown option"),
        (["compare", "--arm", "official", "--arm", "party", "--metrics", "speed"], "unknown metric"),
        (["compare", "--arm", "official", "--arm", "party", "--target-error", "-1"], "positive number"),
        (["simulate", "--games", "100", "--target-error", "0"], "positive number"),
        (["simulate", "--games", "100", "--target-error", "1", "--metric", "speed"], "unknown metric"),
    ],
)
def test_bad_command_input(args, words):
    result = CliRunner().invoke(cli, args)
    assert result.exit_code != 0
    assert words in result.output


def test_simulate_target_error():
    result = run_cli("simulate", "--games", "500", "--target-error", "2", "--metric", "turns", "--quiet")
    assert result.exit_code == 0, result.output
    assert re.search(r"target reached: 95% CI half-width of turns is [0-9.]+ <= 2 after [0-9,]+ games", result.stdout)
    result = run_cli("simulate", "--games", "500", "--target-error", "2", "--json", "--quiet")
    target = json.loads(result.stdout)["target"]
    assert target["reached"] and target["half_width"] <= 2 and target["games"] >= 500
