"""The stacking report's fields and strategy tables (unocli/analysis/stacking.py).

Checked by construction: every table has its n and intervals that hold their
points; the interaction contrast equals the same contrast computed deal by
deal from the kernel's rows; and a planted rule x strategy interaction is
recovered: a player who stacks against the same player who never stacks is
the same player when stacking is off (edge exactly 0) and can only gain when
penalties can be passed on.
"""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from unocli.analysis.stacking import contrast, field_rows
from unocli.game.policies import parse_policy_spec
from unocli.kernel import ROW_NAMES, play_rows
from unocli.report.analyses import Context, stacking
from unocli.report.analyses.stacking import play_field
from unocli.report.experiment import load_experiment
from unocli.run.backends import LocalBackend
from unocli.study.stats import paired_diff

WINNER = ROW_NAMES.index("winner")

TOML = """
analysis = "stacking"
games = {games}
seed = 23
players = [4]
baseline = "off"
[base]
policy = "basic"
[arms.off]
rules = "official"
[arms.any]
set = {{ stacking = "any" }}
[options]
fields = {fields}
adapted = "{adapted}"
reference = "{reference}"
versus_players = [4]
replicates = 40
"""


@pytest.fixture(scope="module")
def ctx() -> Context:
    return Context(backend=LocalBackend(), log=lambda _: None)


def experiment(tmp_path: Path, games: int, fields: str, adapted: str, reference: str = "basic"):
    path = tmp_path / "stacking.toml"
    path.write_text(TOML.format(games=games, fields=fields, adapted=adapted, reference=reference), encoding="utf-8")
    return load_experiment(path)


@pytest.fixture(scope="module")
def tiny(tmp_path_factory, ctx):
    exp = experiment(tmp_path_factory.mktemp("tiny"), 300, '["random", "basic", "adapted"]', "basic:keep_draws=true")
    return stacking.compute(exp, ctx)


def test_field_table_has_n_and_intervals_for_every_variant_and_field(tiny):
    f = tiny.fields
    assert len(f) == 2 * 3 and set(f["field"]) == {"random", "basic", "adapted"}
    assert (f["n"] == 300).all() and (f["finished"] <= 300).all() and (f["one_reached"] <= f["finished"]).all()
    for column in ("turns", "turns_skips", "cards_drawn", "p_draw_8", "p_draw_12", "comeback"):
        assert ((f[f"{column}_low"] <= f[column] + 1e-12) & (f[column] <= f[f"{column}_high"] + 1e-12)).all(), column
    changes = f[f["stacking"] == "any"]
    for column in ("d_turns", "d_turns_skips", "d_cards_drawn", "d_comeback"):
        assert changes[[column, f"{column}_low", f"{column}_high"]].notna().all().all(), column
    off = f[f["stacking"] == "off"]
    # without stacking the largest single penalty is 6 cards (a failed challenge): never 8 at once
    assert (off["p_draw_8"] == 0).all() and off["d_turns"].isna().all()


def test_strategy_table_has_edge_gap_and_interaction(tiny):
    s = tiny.strategy.set_index(["field", "stacking"])
    assert len(s) == 2 * 3 and (s["n"] == 300).all()
    for column in ("edge", "gap", "interaction"):
        rows = s.loc[(slice(None), "any"), :] if column == "interaction" else s
        assert ((rows[f"{column}_low"] <= rows[column] + 1e-12) & (rows[column] <= rows[f"{column}_high"] + 1e-12)).all()
    # keep_draws acts only when stacking is on: under off the adapted player is basic, deal for deal
    for field in ("random", "basic", "adapted"):
        assert tuple(s.loc[(field, "off"), ["edge", "edge_low", "edge_high"]]) == (0.0, 0.0, 0.0)


def test_contrast_equals_the_deal_by_deal_interaction(tmp_path, ctx):
    """The interaction from pairwise sums of squares is the paired mean and t interval of the per-deal contrast."""
    exp = experiment(tmp_path, 400, '["random"]', "basic")
    comp = play_field(exp, ctx, 4, "random", "off")
    names = {"any+adapted": 1, "any+reference": -1, "off+adapted": -1, "off+reference": 1}
    got = contrast(comp, names, "win_0")
    wins = {}
    for name in names:
        arm = comp.arms[comp.index(name)]
        rows = np.concatenate([play_rows(arm.rules, arm.policies, seed=23, start=i, count=1) for i in range(400)])
        wins[name] = (rows[:, WINNER] == 0).astype(np.int64)
    want = paired_diff(wins["any+adapted"] - wins["any+reference"], wins["off+adapted"] - wins["off+reference"])
    assert got.n == want.n == 400
    assert got.diff == pytest.approx(want.diff, abs=1e-12)
    assert (got.low, got.high) == pytest.approx((want.low, want.high), abs=1e-9)


def test_planted_interaction_is_recovered(tmp_path, ctx):
    """basic (stacks when it can) against basic:stack=0 (never stacks) at seat 0 among basic players: identical
    under off (edge exactly 0), and under any a player who can pass a penalty on instead of drawing it wins
    more. Measured at this seed: +3.2 pp [+2.1, +4.3] at 4 players over 3,000 deals, so the lower end is
    about 3 standard errors above 0 (and the seed is fixed: a failure is a change in the code)."""
    exp = experiment(tmp_path, 3000, '["basic"]', "basic", reference="basic:stack=0")
    assert parse_policy_spec(exp.options["reference"]) != parse_policy_spec(exp.options["adapted"])
    result = stacking.compute(exp, ctx)
    s = result.strategy.set_index("stacking")
    assert tuple(s.loc["off", ["edge", "edge_low", "edge_high"]]) == (0.0, 0.0, 0.0)
    assert s.loc["any", "interaction_low"] > 0
    assert s.loc["any", "interaction"] == pytest.approx(s.loc["any", "edge"])


def test_comeback_chance_against_a_hand_count_of_the_rows(tmp_path, ctx):
    """The field table's comeback chance (the first player left with one card does not win, docs/rules.md §9) is
    counted here by hand from the kernel's rows of the same deals: among the rounds with a ``first_to_one`` seat,
    the share whose winner is another seat (a blocked or capped round has no winner, so it counts as a comeback).
    Its interval is scipy's Wilson interval of that count; the count of rounds with a first player to one card is
    the table's ``one_reached``. The complement (the first to one card wins) would be about 1 - share, far off."""
    from scipy import stats as sps

    games = 400
    exp = experiment(tmp_path, games, '["random"]', "basic")
    comp = play_field(exp, ctx, 4, "random", "off")
    rows = {r["stacking"]: r for r in field_rows(comp, 4, "random", ["off", "any"], "off", 40, 23)}
    for name in ("off", "any"):
        arm = comp.arms[comp.index(name)]
        kernel = np.concatenate([play_rows(arm.rules, arm.policies, seed=23, start=i, count=1) for i in range(games)])
        first = kernel[:, ROW_NAMES.index("first_to_one")]
        reached = first >= 0
        lost = reached & (kernel[:, WINNER] != first)
        k, n = int(lost.sum()), int(reached.sum())
        assert 0 < k < n  # both kinds of round happen, so the complement cannot pass by accident
        r = rows[name]
        assert r["one_reached"] == n
        assert r["comeback"] == pytest.approx(k / n, abs=1e-12)
        ci = sps.binomtest(k, n).proportion_ci(0.95, method="wilson")
        assert (r["comeback_low"], r["comeback_high"]) == (pytest.approx(ci.low, abs=1e-9), pytest.approx(ci.high, abs=1e-9))


def test_the_shipped_published_figures_are_read_from_the_main_field(tiny):
    """The shipped file's [[published]] rows, moved onto the tiny run's variant ``any``, drawn by the report: chain
    shares (Wilson on the chain histogram), the longest chain, turns + skips, and the relative change from off
    (recomputed here from the two levels)."""
    from unocli.study.stats import wilson

    def on_any(ours):
        if isinstance(ours, str):
            return re.sub(r"-\d+-progressive$", "-4-any", ours)
        return {k: re.sub("plus2|progressive", "any", v) if isinstance(v, str) else v for k, v in ours.items()}

    shipped = load_experiment(Path(__file__).parents[1] / "sims" / "stacking.toml").published
    exp = replace(tiny.exp, published=tuple(replace(f, ours=on_any(f.ours)) for f in shipped))
    block = next(b for b in stacking.render(replace(tiny, exp=exp)).blocks if getattr(b, "name", "") == "published")
    rows = block.data.set_index("figure")
    hist = tiny.stack_hists[(4, "any")]
    for k in (2, 3):
        w = wilson(int(hist[k:].sum()), int(hist.sum()))
        row = rows.loc[f"rounds with a chain of {k} or more, 4 players, +2 on +2"]
        assert (row["ci_low"], row["ci_high"]) == (w.low, w.high) and row["unocli"].endswith("(any)")
    assert rows.loc["longest chain seen, 4 players, +2 on +2", "unocli"] == f"{int(np.flatnonzero(hist).max())} cards (any)"
    f = tiny.fields[tiny.fields["field"] == tiny.main_field].set_index("stacking")["turns_skips"]
    rel = 100 * (f["any"] - f["off"]) / f["off"]
    assert rows.loc["2 players: full stacking lengthens a round by", "unocli"].startswith(f"{rel:+.1f}%")
    off = rows.loc["turns per round, 4 players, no stacking"]
    assert off["n"] == 300 and off["unocli"].startswith(f"{f['off']:.1f} [")
    assert "not measured in this report" not in set(rows["unocli"])


def test_every_shipped_stacking_figure_names_a_figure_the_report_measures():
    exp = load_experiment(Path(__file__).parents[1] / "sims" / "stacking.toml")
    arms = {a.name for a in exp.arms}
    assert len(exp.published) >= 4  # the study's turns, chains and the two-player change
    for fig in exp.published:
        if isinstance(fig.ours, str):  # the one figure the report measures itself: a change from the baseline
            p, arm = re.fullmatch(r"longer-(\d+)-([a-z0-9]+)", fig.ours).groups()
            assert arm != exp.baseline, fig.ours
        else:  # one row of one of the report's frames
            p, arm = re.fullmatch(r"players == (\d+) and stacking == '([a-z0-9]+)'.*", fig.ours["where"]).groups()
            assert fig.ours["frame"] in stacking.FRAMES, fig.ours
        assert int(p) in exp.players and arm in arms, fig.ours


def test_the_interactions_the_findings_read_are_published_and_the_balance_is_worded_from_its_interval(tiny):
    """The findings say whether a variant's effect differs between fields from the interactions on common deals:
    those interactions are now a table (and CSV) of the report, one row per pair of fields (3 of 3 fields) and
    variant (1) at each table size (1), equal to the interactions the words read. The balance finding gives the
    furthest change with its bootstrap interval and no change word (it read "largest change from stacking 0.006"
    of an interval holding 0)."""
    section = stacking.render(tiny)
    for quantity in ("turns", "cards_drawn"):
        name = f"stacking-{quantity.replace('_', '-')}-field-interactions"
        block = next(b for b in section.blocks if getattr(b, "name", "") == name)
        found = tiny.between[quantity][(4, "any")]
        assert len(block.data) == 3 == len(found)
        assert block.data["interaction"].tolist() == [i.diff for i in found]
        assert block.data["verdict"].tolist() == [i.verdict for i in found]
    e = tiny.effects.iloc[0]  # one variant at one size: the furthest change is its own
    line = next(f for f in section.findings if f.startswith("Balance under off"))
    interval = f"[{e['d_balance_low']:+.3f}, {e['d_balance_high']:+.3f}]"
    assert f"{e['d_balance']:+.3f} {interval} (any, 4 players; 95% bootstrap interval, read alone" in line
    assert ("which holds 0" in line) == (e["d_balance_low"] <= 0 <= e["d_balance_high"]) and "largest change" not in line
    # a figure picked as the most of its family says that its 95% interval overstates it
    assert "95% CI of the highest of 3 cells: it overstates)" in section.intro
    assert any("the most of any field: a 95% CI of the highest of 3 fields overstates it" in f for f in section.findings)
    assert any("each read alone: at the two ends they overstate it" in f for f in section.findings)
    # the range of the effect on round length: its ends with their simultaneous intervals, variant and field
    from unocli.report import fmt

    line = next(f for f in section.findings if "the effect on round length lies between" in f)
    at = tiny.fields[(tiny.fields["players"] == 4) & (tiny.fields["stacking"] != "off")]
    low = at.loc[at["d_turns"].idxmin()]
    shown = fmt.signed_ci(low["d_turns"], low["d_turns_sim_low"], low["d_turns_sim_high"], 1)
    assert f"lies between {shown} ({low['stacking']}, {low['field']}) and " in line
    assert f"(simultaneous {100 * low['d_turns_sim_level']:.2f}% intervals)" in line


def test_the_longest_chain_is_said_at_the_table_size_of_its_sentence():
    """The findings' sentence is about one table size: its longest chain is that size's (a hand count of the frame),
    and a longer one elsewhere is named with its size and variant (it said 10 at 4 players, where 8 was seen)."""
    from unocli.report.analyses.stacking import _longest

    stacks = pd.DataFrame({"players": [4, 4, 6, 10], "stacking": ["plus2", "any", "any", "any"], "longest_seen": [5, 8, 10, 10]})
    said = _longest(stacks, 4)
    assert said == "the longest chain seen at 4 players was 8 cards, 10 at any table size (6 players (any), 10 players (any))"
    assert _longest(stacks[stacks["players"] == 4], 4) == "the longest chain seen at 4 players was 8 cards"
