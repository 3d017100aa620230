"""The house rules as one ranking table against the official rules, and the report's quotable answer from it.

One row per house rule at the middle table size, every seat playing the
reference field (``basic`` when played): four figures, each a change from the
baseline on the same deals with its interval and verdict against the
experiment's margin (:func:`~unocli.study.stats.classify`):

- the length of a round (turns per finished round; the house-rules matrix's
  simultaneous interval, Bonferroni over all its cells);
- the first player's edge (its win share minus the fair share 1/n: the
  change of the edge is the change of the share, in pp; beside it the edge
  relative to the fair share, official and under the rule, as x n * share);
- the seat spread (the largest gap between two seats' win shares, 1 minus
  Ludii's balance, in pp): a bootstrap over blocks of deals gives its standard
  error, and the interval is normal at the simultaneous level over the
  table's rows (a percentile interval at that level would rest on the one or
  two most extreme of 1,000 replicates);
- the skill gap (one ``skill_player``'s edge among ``skill_field``, seats
  rotated; the skill report's share of outcome variance due to skill is not
  measured per house rule here, so the ranking uses the skill gap and says so).

The rows are sorted by how many of the four figures change by more than their
margin, then by the size of the length change. Nothing here imports matplotlib.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from unocli.report import fmt
from unocli.report.analyses.common import balance, change_word, seat_columns
from unocli.study.compare import Comparison
from unocli.study.stats import ALPHA, LARGER, WITHIN_MARGIN, classify, norm_quantile

if TYPE_CHECKING:
    from unocli.report.analyses.house_rules import HouseRulesResult

#: The four figures of the ranking: key -> (column title, margin key of [margins], words for up / down).
FIGURES = {
    "turns": ("length of a round (turns)", "turns", ("lengthens", "shortens")),
    "first": ("first player's edge (pp)", "win_share_pp", ("raises", "lowers")),
    "spread": ("seat spread (pp)", "balance", ("widens", "narrows")),
    "skill": ("skill gap (pp)", "win_share_pp", ("widens", "narrows")),
}
SORT_KEY = "how many of the four figures change by more than their margin, then the size of the length change"


def spread_changes(comp: Comparison, p: int, names: list[str], base: str, replicates: int, seed: int) -> pd.DataFrame:
    """Each rule's change of the seat spread from ``base`` (in shares), with its bootstrap standard error.

    The spread is the largest gap between two seats' win shares
    (``1 - balance``). The replicates resample blocks of deals (every arm of a
    block on the same deals, so the change stays paired); they are the
    matrix's own replicates (the same seed as
    :func:`~unocli.report.analyses.common.arm_rows`).
    """
    cols = seat_columns(comp, p)
    spread = 1.0 - balance(comp.means()[:, cols])
    boot = 1.0 - balance(comp.boot_means(replicates, seed=seed % (2**32) + p)[:, :, cols])
    kb = comp.index(base)
    rows = []
    for name in names:
        k = comp.index(name)
        change = boot[:, k] - boot[:, kb]
        rows.append({"rule": name, "spread": spread[k], "d_spread": spread[k] - spread[kb], "se": float(np.std(change, ddof=1))})
    return pd.DataFrame(rows)


def add_balance_verdicts(effects: pd.DataFrame, spreads: dict[tuple[str, int], pd.DataFrame], margin: float) -> None:
    """The balance changes of the matrix judged as one family, in place: ``balance_se``, ``balance_sim_low``,
    ``balance_sim_high``, ``balance_verdict``.

    A balance change is minus the spread's change (balance is 1 minus the
    spread), so its standard error is the spread's (:func:`spread_changes`
    of that field and table size). The interval is normal, simultaneous over
    every row of ``effects`` (Bonferroni), and judged against ``+-margin``.
    """
    se = [float(spreads[(r.field, r.players)].set_index("rule").loc[r.rule, "se"]) for r in effects.itertuples()]
    z = norm_quantile(1 - ALPHA / (2 * max(len(effects), 1)))
    effects["balance_se"] = se
    effects["balance_sim_low"] = effects["d_balance"] - z * effects["balance_se"]
    effects["balance_sim_high"] = effects["d_balance"] + z * effects["balance_se"]
    effects["balance_verdict"] = [
        classify(lo, hi, margin) for lo, hi in zip(effects["balance_sim_low"], effects["balance_sim_high"], strict=True)
    ]


def ranking(result: HouseRulesResult, spread: pd.DataFrame) -> pd.DataFrame:
    """The ranking table's numbers: per rule its four changes with intervals and verdicts, sorted (:data:`SORT_KEY`).

    ``spread``: :func:`spread_changes` of the reference field at the middle
    table size. The spread's interval is normal with the bootstrap standard
    error at the simultaneous level 1 - 0.05 / rules.
    """
    mid, ref, m = result.mid, result.ref, result.exp.margins
    eff = result.effects
    at = eff[(eff["players"] == mid) & (eff["field"] == ref)].set_index("rule")
    sp = spread.set_index("rule")
    k = len(result.rules)
    z = norm_quantile(1 - ALPHA / (2 * k))
    sk = result.skill
    skill = sk[sk["players"] == mid].set_index("rule") if sk is not None and len(sk) else None
    fair = 1 / mid
    base_first = float(
        result.table.query("players == @mid and field == @ref and rule == @result.base")["first_player_share"].iloc[0]
    )
    rows: list[dict[str, Any]] = []
    for rule in result.rules:
        r = at.loc[rule]
        row: dict[str, Any] = {"rule": rule, "players": mid, "field": ref, "n": int(r["n"])}
        row |= _fig("turns", r["d_turns"], r["turns_sim_low"], r["turns_sim_high"], str(r["turns_verdict"]))
        row["turns_rel"] = r["d_turns_rel"]
        row |= _fig("first", 100 * r["d_first"], 100 * r["first_sim_low"], 100 * r["first_sim_high"], str(r["first_verdict"]))
        row |= {"first_x_official": base_first / fair, "first_x_rule": float(r["first_player_share"]) / fair}
        d, se = 100 * float(sp.loc[rule, "d_spread"]), 100 * float(sp.loc[rule, "se"])
        row |= _fig("spread", d, d - z * se, d + z * se, classify(d - z * se, d + z * se, 100 * m["balance"]))
        row |= {"spread_official": 100 * float(sp.loc[result.base, "spread"]), "spread_rule": 100 * float(sp.loc[rule, "spread"])}
        if skill is not None and rule in skill.index and not pd.isna(skill.loc[rule].get("d_gap")):
            s = skill.loc[rule]
            row |= _fig("skill", 100 * s["d_gap"], 100 * s["sim_low"], 100 * s["sim_high"], str(s["verdict"]))
        else:
            row |= _fig("skill", math.nan, math.nan, math.nan, "")
        row["larger"] = sum(row[f"{q}_verdict"] == LARGER for q in FIGURES)
        rows.append(row)
    table = pd.DataFrame(rows)
    table["level_spread"] = 1 - ALPHA / k
    table = table.assign(_size=table["turns"].abs()).sort_values(["larger", "_size"], ascending=[False, False], kind="stable")
    table = table.drop(columns="_size").reset_index(drop=True)
    table.insert(0, "rank", range(1, len(table) + 1))
    return table


def _fig(q: str, d: float, low: float, high: float, verdict: str) -> dict[str, Any]:
    return {q: float(d), f"{q}_low": float(low), f"{q}_high": float(high), f"{q}_verdict": verdict}


def word(row: pd.Series, q: str) -> str:
    """A figure's verdict as the word for its change ("lengthens" only beyond the margin; "negligible", ...)."""
    if not row[f"{q}_verdict"]:
        return "not measured"
    up, down = FIGURES[q][2]
    return change_word(str(row[f"{q}_verdict"]), float(row[q]), up, down)


def shown(table: pd.DataFrame, margins: dict[str, float]) -> pd.DataFrame:
    """The ranking as a reader sees it: each figure with its interval and its word."""
    out = pd.DataFrame({"rank": table["rank"], "rule": table["rule"], "n (deals)": table["n"].map(fmt.count)})
    played = bool(table["skill_verdict"].astype(bool).any())  # options.skill_games = 0 plays no skill gap at all
    missing = "not measured (a knob of the players, not a rule)" if played else "not played (options.skill_games = 0)"
    for q, (title, key, _words) in FIGURES.items():
        margin = fmt.num(margins[key] if key != "balance" else 100 * margins[key])
        unit = " turns" if q == "turns" else " pp"
        cells = []
        for _, r in table.iterrows():
            if not r[f"{q}_verdict"]:
                cells.append(missing)
                continue
            if q == "turns":
                text = fmt.signed_ci(r[q], r[f"{q}_low"], r[f"{q}_high"], 1)
            else:  # the ranking keeps pp; fmt's pp figures take shares
                text = fmt.pp_ci(r[q] / 100, r[f"{q}_low"] / 100, r[f"{q}_high"] / 100, 2)
            extra = {
                "turns": f" ({fmt.fixed(100 * r['turns_rel'], 1, sign=True)}%)",
                "first": f" (x{r['first_x_official']:.2f} -> x{r['first_x_rule']:.2f} of the fair share)",
                "spread": f" ({fmt.fixed(r['spread_official'], 1)} -> {fmt.fixed(r['spread_rule'], 1)} pp)",
                "skill": "",
            }[q]
            cells.append(f"{text}{extra}: {word(r, q)}")
        out[f"{title}, margin +/-{margin}{unit}"] = cells
    out["beyond the margin"] = [
        f"{n} of 4" if r["skill_verdict"] else f"{n} of 3" for n, (_, r) in zip(table["larger"], table.iterrows(), strict=True)
    ]
    return out


# ---------------------------------------------------------------- the answer


def _grouped(result: HouseRulesResult, rules: list[str]) -> list[str]:
    """Rule names with every arm of one rules preset shown once ("seven-o (all 5 swap targets)") when all are there."""
    preset = {a.name: a.table.rules for a in result.exp.arms}
    out, seen = [], set()
    for rule in rules:
        family = [a for a in result.rules if preset.get(a) == preset.get(rule)]
        if len(family) > 1 and all(a in rules for a in family):
            if preset[rule] not in seen:
                seen.add(preset[rule])
                out.append(f"{preset[rule]} (all {len(family)} variants)")
        else:
            out.append(rule)
    return out


def _names(result: HouseRulesResult, rules: list[str], most: int = 3) -> str:
    names = _grouped(result, rules)
    if len(names) > most:
        names = [*names[:most], f"{len(names) - most} more"]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def answer(result: HouseRulesResult, table: pd.DataFrame) -> str:
    """The report's first paragraph: which rules change which figure beyond its margin, from the ranking's verdicts.

    Under about 80 words: at most three names a list (a rules preset's arms
    shown once when all of them are in it), only the clauses that have a rule;
    then the rules within every margin, and those with no figure beyond its
    margin but some figure undecided.
    """
    m, player = result.exp.margins, result.exp.options["skill_player"]
    clauses = []
    for q, (up, down), what in (
        ("turns", ("longer", "shorter"), f"rounds (beyond +/-{fmt.num(m['turns'])} turn)"),
        ("first", ("larger", "smaller"), f"first-player edge (beyond +/-{fmt.num(m['win_share_pp'])} pp)"),
        ("spread", ("wider", "narrower"), f"seat spread (beyond +/-{fmt.num(100 * m['balance'])} pp)"),
        ("skill", ("wider", "narrower"), f"`{player}` skill gap (beyond +/-{fmt.num(m['win_share_pp'])} pp)"),
    ):
        big = table[table[f"{q}_verdict"] == LARGER]
        sides = [(w, list(big.loc[sign * big[q] > 0, "rule"])) for w, sign in ((up, 1), (down, -1))]
        sides = [(w, rules) for w, rules in sides if rules]
        if sides:
            (w0, r0), rest = sides[0], sides[1:]
            clauses.append(
                f"{w0.capitalize()} {what}: {_names(result, r0)}" + "".join(f"; {w}: {_names(result, r)}" for w, r in rest)
            )
    text = f"**Answer ({result.mid} players, every seat `{result.ref}`).** "
    text += ". ".join(clauses) + "." if clauses else "No house rule changes any figure beyond its margin."
    quiet = table[table["larger"] == 0]
    verdicts = quiet[[f"{q}_verdict" for q in FIGURES]].isin([*WITHIN_MARGIN, ""]).all(axis=1)
    within, open_ = list(quiet.loc[verdicts, "rule"]), list(quiet.loc[~verdicts, "rule"])
    if within:
        text += f" Within every margin: {_names(result, within)}."
    if open_ and clauses:
        text += f" Undecided on some figure, none beyond its margin: {_names(result, open_)}."
    return text
