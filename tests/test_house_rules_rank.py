"""The house rules as one ranking table (``analysis.house_rules.ranking``, worded by ``report.analyses.house_rules``): its
figures against a hand count of the kernel's rows, its intervals against scipy, its verdicts against the rule
written out in docs/statistics.md, its order against its stated key, and the answer paragraph generated from its
verdicts.

The planted rules: ``twin`` is the official rules under another name (every change exactly 0: equivalent on every
figure), draw-until-playable lengthens a 4-player round by far more than the 1-turn margin (+90% in the full
report; the simultaneous interval at 400 deals is a few turns wide), and the two 7-0 arms differ only in a policy
knob, so the skill gap (which seats its own policies) is not measured for the knob arm. Fixed seeds.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
from scipy import stats as sps

from unocli.errors import ConfigError
from unocli.game.policies import preset
from unocli.game.rules import resolve_rules
from unocli.kernel import play_rows
from unocli.kernel.encode import FIRST_PLAYER, WINNER
from unocli.report.analyses import Context, house_rules
from unocli.report.experiment import load_experiment
from unocli.report.model import TableBlock
from unocli.run.backends import LocalBackend

GAMES, SEED = 400, 21
TOML = f"""
analysis = "house-rules"
games = {GAMES}
seed = {SEED}
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
[arms.seven-o]
rules = "seven-o"
[arms.seven-o-next]
rules = "seven-o"
policy = "basic:swap_target=next"
[options]
fields = ["random", "basic"]
replicates = 200
skill_games = 100
"""
RULES = {"official": "official", "twin": "official", "draw-until-playable": "draw-until-playable", "seven-o": "seven-o"}


@pytest.fixture(scope="module")
def result(tmp_path_factory):
    path = Path(tmp_path_factory.mktemp("rank")) / "house.toml"
    path.write_text(TOML, encoding="utf-8")
    return house_rules.compute(load_experiment(path), Context(backend=LocalBackend(), log=lambda _: None))


def _rows(rule: str) -> np.ndarray:
    return play_rows(resolve_rules(RULES[rule], players=4), (preset("basic"),) * 4, seed=SEED, start=0, count=GAMES)


def _rule(label: str, low: float, high: float, m: float) -> bool:
    """docs/statistics.md's verdicts, clause by clause."""
    within, holds_zero = -m <= low and high <= m, low <= 0 <= high
    return {
        "larger": low > m or high < -m,
        "negligible": within and not holds_zero,
        "equivalent": within and holds_zero,
        "unsized": not holds_zero and not within and not (low > m or high < -m),
        "undecided": holds_zero and not within,
    }[label]


def test_the_ranking_is_played_under_the_reference_field(result):
    table = result.ranking
    assert set(table["field"]) == {"basic"} and set(table["players"]) == {4} and (table["n"] == GAMES).all()
    assert sorted(table["rule"]) == sorted(result.rules)


def test_seat_spread_and_first_player_against_a_hand_count_of_the_rows(result):
    table = result.ranking.set_index("rule")
    spreads, first = {}, {}
    for rule in ("official", "twin", "draw-until-playable", "seven-o"):
        rows = _rows(rule)
        wins = np.bincount(rows[:, WINNER][rows[:, WINNER] >= 0].astype(int), minlength=4) / GAMES
        spreads[rule] = 100 * (wins.max() - wins.min())
        first[rule] = float(np.mean(rows[:, WINNER] == rows[:, FIRST_PLAYER]))
    for rule in ("twin", "draw-until-playable", "seven-o"):
        r = table.loc[rule]
        assert r["spread"] == pytest.approx(spreads[rule] - spreads["official"], abs=1e-9)
        assert (r["spread_official"], r["spread_rule"]) == pytest.approx((spreads["official"], spreads[rule]), abs=1e-9)
        assert r["first_x_official"] == pytest.approx(4 * first["official"], rel=1e-12)  # relative to the fair 1/4
        assert r["first_x_rule"] == pytest.approx(4 * first[rule], rel=1e-12)
        assert r["first"] == pytest.approx(100 * (first[rule] - first["official"]), abs=1e-9)


def test_the_intervals_and_verdicts(result):
    table, m = result.ranking, result.exp.margins
    k = len(result.rules)
    z = sps.norm.ppf(1 - 0.05 / (2 * k))  # normal, simultaneous over the k rows
    for _, r in table.iterrows():
        half = (r["spread_high"] - r["spread_low"]) / 2
        assert r["spread_low"] == pytest.approx(r["spread"] - half) and r["level_spread"] == pytest.approx(1 - 0.05 / k)
        assert _rule(r["spread_verdict"], r["spread_low"], r["spread_high"], 100 * m["balance"])
        assert _rule(r["turns_verdict"], r["turns_low"], r["turns_high"], m["turns"])
        assert _rule(r["first_verdict"], r["first_low"], r["first_high"], m["win_share_pp"])
        if r["skill_verdict"]:
            assert _rule(r["skill_verdict"], r["skill_low"], r["skill_high"], m["win_share_pp"])
        assert r["larger"] == sum(r[f"{q}_verdict"] == "larger" for q in ("turns", "first", "spread", "skill"))
        if r["rule"] != "twin":
            assert half > 0 and half / z > 0  # a bootstrap standard error was found
    twin = table.set_index("rule").loc["twin"]
    # the same deals and the same bootstrap draws: every change of the twin is exactly 0, hence equivalent
    for q in ("turns", "first", "spread", "skill"):
        assert (twin[q], twin[f"{q}_low"], twin[f"{q}_high"], twin[f"{q}_verdict"]) == (0.0, 0.0, 0.0, "equivalent"), q
    planted = table.set_index("rule").loc["draw-until-playable"]
    assert planted["turns_verdict"] == "larger" and planted["turns_low"] > 1
    knob = table.set_index("rule").loc["seven-o-next"]
    assert knob["skill_verdict"] == "" and np.isnan(knob["skill"])


def test_the_table_is_sorted_by_its_stated_key(result):
    table = result.ranking
    assert list(table["rank"]) == list(range(1, len(table) + 1))
    keys = list(zip(-table["larger"], -table["turns"].abs(), strict=True))
    assert keys == sorted(keys)
    assert table["rule"].iloc[0] == "draw-until-playable" and table["rule"].iloc[-1] == "twin"


def test_the_answer_is_short_quotable_and_follows_the_verdicts(result):
    section = house_rules.render(result)
    answer = section.intro.split("\n\n")[0]
    assert answer.startswith("**Answer (4 players, every seat `basic`).**")
    assert len(answer.split()) < 80
    assert "Longer rounds (beyond +/-1 turn): draw-until-playable" in answer
    assert "Within every margin: twin." in answer  # equivalent on all four figures
    n = f"{result.ranking['n'].iloc[0]:,}"
    assert answer.endswith(
        f"(Each rule on the same {n} deals as official; every verdict reads the simultaneous intervals "
        "of the ranking table below, which gives their levels.)"
    )
    table = result.ranking.set_index("rule")
    for rule in ("seven-o", "seven-o-next"):
        # a rule named in a clause changes that figure beyond its margin, and only then
        if table.loc[rule, "first_verdict"] == "larger":
            assert "first-player edge" in answer
    blocks = [getattr(b, "name", "") for b in section.blocks]
    assert blocks[0] == "house-rules-ranking"
    shown = section.blocks[0].shown.set_index("rule")
    assert shown.loc["seven-o-next"].iloc[-2].startswith("not measured")
    assert shown.loc["draw-until-playable"].filter(like="length").iloc[0].endswith(": lengthens")


def test_the_matrix_balance_column_is_one_adjusted_family(result):
    eff, m = result.effects, result.exp.margins
    z = sps.norm.ppf(1 - 0.05 / (2 * len(eff)))  # every rule x size x field cell of the column, read together
    assert eff["balance_sim_low"].tolist() == pytest.approx((eff["d_balance"] - z * eff["balance_se"]).tolist())
    assert eff["balance_sim_high"].tolist() == pytest.approx((eff["d_balance"] + z * eff["balance_se"]).tolist())
    for _, r in eff.iterrows():
        assert _rule(r["balance_verdict"], r["balance_sim_low"], r["balance_sim_high"], m["balance"])
    basic = eff[eff["field"] == "basic"].set_index("rule")
    ranked = result.ranking.set_index("rule")
    for rule in result.rules:  # balance is 1 minus the spread: the same change with the other sign, the same error
        assert basic.loc[rule, "d_balance"] == pytest.approx(-ranked.loc[rule, "spread"] / 100, abs=1e-12)
    twin = eff.set_index(["field", "rule"]).loc[("basic", "twin")]
    assert (twin["balance_sim_low"], twin["balance_sim_high"], twin["balance_verdict"]) == (0.0, 0.0, "equivalent")
    finding = next(f for f in house_rules.render(result).findings if f.startswith("Balance (1 minus"))
    assert f"simultaneous over the {len(eff)} rule x table size x field cells" in finding


def _ranking(result) -> TableBlock:
    return next(b for b in house_rules.render(result).blocks if getattr(b, "name", "") == "house-rules-ranking")


def test_a_run_without_the_skill_gap_has_no_skill_column(result):
    blank = replace(result, ranking=result.ranking.assign(skill_verdict="", skill=np.nan, larger=0), skill=None)
    table = _ranking(blank)
    assert not [c for c in table.shown.columns if c.startswith("skill gap")]
    assert set(table.shown["beyond the margin"]) == {"0 of 3"}  # three figures measured, none beyond its margin
    assert "the skill gap: the skill gap was not played (options.skill_games = 0)." in table.title
    assert list(table.data.columns) == list(blank.ranking.columns)  # the CSV: the ranking as computed
    full = _ranking(result).shown
    column = next(c for c in full.columns if c.startswith("skill gap"))
    assert full.set_index("rule").loc["seven-o-next", column] == "not measured (a knob of the players, not a rule)"


def test_a_reference_field_ranks_and_answers_under_that_field(tmp_path):
    """``options.reference_field`` moves the ranking and the answer to a named field (here `random`, which the default
    would pass over for `basic`); its first-player figure against a hand count of `random`'s rows."""
    path = tmp_path / "house.toml"
    path.write_text(TOML.replace("skill_games = 100", 'skill_games = 0\nreference_field = "random"'), encoding="utf-8")
    res = house_rules.compute(load_experiment(path), Context(backend=LocalBackend(), log=lambda _: None))
    assert res.ref == "random" and set(res.ranking["field"]) == {"random"}
    rows = play_rows(resolve_rules("seven-o", players=4), (preset("random"),) * 4, seed=SEED, start=0, count=GAMES)
    first = float(np.mean(rows[:, WINNER] == rows[:, FIRST_PLAYER]))
    assert res.ranking.set_index("rule").loc["seven-o", "first_x_rule"] == pytest.approx(4 * first, rel=1e-12)
    assert house_rules.answer(res, res.ranking).startswith("**Answer (4 players, every seat `random`).**")


def test_a_reference_field_that_is_not_played_is_refused(tmp_path):
    path = tmp_path / "house.toml"
    path.write_text(TOML.replace("skill_games = 100", 'reference_field = "strong"'), encoding="utf-8")
    with pytest.raises(ConfigError, match=r"key 'options.reference_field': 'strong' is not one of the fields \(random, basic\)"):
        load_experiment(path)
