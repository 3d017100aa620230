"""Every verdict label in the committed reports agrees with its interval and margin (issue 30, "done when").

The reports' CSVs carry each verdict beside the simultaneous interval it was
read from. The margin comes from the experiment file that made the report
(sims/*.toml ``[margins]``, else the documented defaults), or from the row's
own ``margin``/``margin_pp`` column where the report writes one. The rule
each label must satisfy is written out here from docs/statistics.md, clause by
clause, not taken from ``stats.classify``:

- ``larger``: the interval lies entirely beyond +margin or entirely beyond -margin;
- ``negligible``: it lies within [-margin, +margin] and excludes 0;
- ``equivalent``: it lies within [-margin, +margin] and includes 0;
- ``unsized``: it excludes 0 and reaches past a margin without lying beyond it;
- ``undecided``: it includes 0 and reaches past a margin.

The words the findings use ("pays", "loses") are checked too: only for ``larger``.
"""

from __future__ import annotations

import math
import tomllib
from pathlib import Path

import pandas as pd
import pytest

from unocli.report.experiment import MARGINS

ROOT = Path(__file__).resolve().parents[1]
REPORTS, SIMS = ROOT / "reports", ROOT / "sims"


def _margins(experiment: str) -> dict[str, float]:
    raw = tomllib.loads((SIMS / f"{experiment}.toml").read_text()).get("margins", {})
    return dict(MARGINS) | raw


def _rule(label: str, low: float, high: float, m: float) -> bool:
    within = -m <= low and high <= m
    holds_zero = low <= 0 <= high
    beyond = low > m or high < -m
    return {
        "larger": beyond,
        "negligible": within and not holds_zero,
        "equivalent": within and holds_zero,
        "unsized": not holds_zero and not within and not beyond,
        "undecided": holds_zero and not within,
    }[label]


# (report folder/csv, experiment file, verdict column, low, high, margin: a key of [margins] / "col:<column>",
#  the factor from the margin's unit to the interval's)
TURNS, SHARE = ("turns", 1.0), ("win_share_pp", 0.01)
CHECKS = [
    ("game-length/turns-verdicts.csv", "game-length", "verdict", "sim_low", "sim_high", ("col:margin", 1.0)),
    ("game-length/turns-vs-baseline.csv", "game-length", "verdict", "sim_low", "sim_high", ("col:margin", 1.0)),
    ("stacking/stacking-effects.csv", "stacking", "turns_verdict", "turns_sim_low", "turns_sim_high", TURNS),
    ("stacking/stacking-effects.csv", "stacking", "first_verdict", "first_sim_low", "first_sim_high", SHARE),
    ("house-rules/house-rules-matrix.csv", "house-rules", "turns_verdict", "turns_sim_low", "turns_sim_high", TURNS),
    ("house-rules/house-rules-matrix.csv", "house-rules", "first_verdict", "first_sim_low", "first_sim_high", SHARE),
    ("house-rules/house-rules-matrix.csv", "house-rules", "dealer_verdict", "dealer_sim_low", "dealer_sim_high", SHARE),
    ("house-rules/house-rules-skill-gap.csv", "house-rules", "verdict", "sim_low", "sim_high", SHARE),
    ("skill/skill-vs-baseline.csv", "skill", "verdict", "sim_low", "sim_high", ("col:margin_pp", 0.01)),
    ("skill/skill-fixed-vs-baseline.csv", "skill", "verdict", "sim_low", "sim_high", ("col:margin_pp", 0.01)),
    ("bluff/bluff-by-situation.csv", "bluff", "gain_verdict", "gain_sim_low", "gain_sim_high", ("win_share_pp", 1.0)),
    ("bluff/one-player-deviations.csv", "bluff", "win_verdict", "win_sim_low", "win_sim_high", ("win_share_pp", 1.0)),
    ("bluff/per-seat-effects.csv", "bluff", "win_verdict", "win_sim_low", "win_sim_high", SHARE),
    ("seat-advantage/match-seats.csv", "seat-advantage", "edge_verdict", "edge_sim_low", "edge_sim_high", SHARE),
    ("bluff/bluff-decision.csv", "bluff", "verdict", "sim_low", "sim_high", ("win_share_pp", 1.0)),
    ("house-rules/house-rules-ranking.csv", "house-rules", "turns_verdict", "turns_low", "turns_high", TURNS),
    ("house-rules/house-rules-ranking.csv", "house-rules", "first_verdict", "first_low", "first_high", ("win_share_pp", 1.0)),
    ("house-rules/house-rules-ranking.csv", "house-rules", "spread_verdict", "spread_low", "spread_high", ("balance", 100.0)),
    ("house-rules/house-rules-ranking.csv", "house-rules", "skill_verdict", "skill_low", "skill_high", ("win_share_pp", 1.0)),
    ("house-rules/house-rules-fields-interaction.csv", "house-rules", "verdict", "sim_low", "sim_high", ("col:margin", 1.0)),
    ("stacking/stacking-fields.csv", "stacking", "d_turns_verdict", "d_turns_sim_low", "d_turns_sim_high", TURNS),
    ("stacking/stacking-fields.csv", "stacking", "d_comeback_verdict", "d_comeback_sim_low", "d_comeback_sim_high", SHARE),
    ("stacking/stacking-strategy.csv", "stacking", "edge_verdict", "edge_sim_low", "edge_sim_high", SHARE),
    ("stacking/stacking-strategy.csv", "stacking", "interaction_verdict", "interaction_sim_low", "interaction_sim_high", SHARE),
    # the house rules under the strongest player (sims/house-rules-search.toml): the same tables, one table size
    *[
        (f"house-rules-search/house-rules-{csv}.csv", "house-rules-search", f"{q}_verdict", f"{q}{lo}", f"{q}{hi}", margin)
        for csv, lo, hi, quantities in (
            ("matrix", "_sim_low", "_sim_high", (("turns", TURNS), ("first", SHARE), ("dealer", SHARE))),
            ("ranking", "_low", "_high", (("turns", TURNS), ("first", ("win_share_pp", 1.0)), ("spread", ("balance", 100.0)))),
        )
        for q, margin in quantities
    ],
    (
        "house-rules-search/house-rules-fields-interaction.csv",
        "house-rules-search",
        "verdict",
        "sim_low",
        "sim_high",
        ("col:margin", 1.0),
    ),
    # the interactions of fields (a difference of paired differences), in the unit of their own margin column
    ("game-length/turns-field-interactions.csv", "game-length", "verdict", "sim_low", "sim_high", ("col:margin", 1.0)),
    ("seat-advantage/field-differences.csv", "seat-advantage", "verdict", "sim_low", "sim_high", ("col:margin", 1.0)),
    ("bluff/bluff-field-interactions.csv", "bluff", "verdict", "sim_low", "sim_high", ("col:margin_pp", 1.0)),
    ("bluff/bluff-decision-interactions.csv", "bluff", "verdict", "sim_low", "sim_high", ("col:margin_pp", 1.0)),
    # the skill measures' changes are ratios, judged on the log scale against [1/margin, margin]
    ("skill/skill-measures-vs-baseline.csv", "skill", "verdict", "sim_low", "sim_high", ("log:margin_ratio", 1.0)),
]


def _wrong(csv: str, experiment: str, column: str, low: str, high: str, margin: tuple[str, float]) -> list[str]:
    table = pd.read_csv(REPORTS / csv)
    assert column in table.columns, f"{csv} has no {column} column"
    key, factor = margin
    wrong = []
    for i, r in table.iterrows():
        label = r[column]
        if not isinstance(label, str) and math.isnan(label):
            continue  # the baseline's own rows carry no change
        lo, hi = r[low], r[high]
        if key.startswith("log:"):  # a ratio: its interval and margin on the log scale, where 0 is no change
            m, lo, hi = math.log(r[key.removeprefix("log:")]), math.log(lo), math.log(hi)
        else:
            m = (r[key.removeprefix("col:")] if key.startswith("col:") else _margins(experiment)[key]) * factor
        if label not in ("larger", "negligible", "equivalent", "unsized", "undecided") or not _rule(label, lo, hi, m):
            wrong.append(f"row {i}: {label} with [{r[low]:.4g}, {r[high]:.4g}] against +-{m:.4g}")
    return wrong


@pytest.mark.parametrize("check", CHECKS, ids=[f"{c[0]}:{c[2]}" for c in CHECKS])
def test_committed_verdicts_agree_with_their_intervals(check):
    wrong = _wrong(*check)
    assert not wrong, f"{check[0]}: {len(wrong)} verdicts disagree with their interval, e.g. " + "; ".join(wrong[:3])


def test_committed_bluff_words_say_pays_or_loses_only_beyond_the_margin():
    t = pd.read_csv(REPORTS / "bluff/bluff-by-situation.csv")
    moved = t["verdict"].isin(["pays", "loses"])
    assert (t.loc[moved, "gain_verdict"] == "larger").all()
    assert ((t["verdict"] == "pays") == (moved & (t["gain_pp"] > 0))).all()
