"""The house-rules matrix and ranking: each house rule alone against the baseline rules, paired, per field and size.

:func:`measure` reads the comparisons of a design played once per (field,
table size), every rule set on the same deals, into typed frames:

- ``table``: every rule set's levels (turns, the first player's and the
  dealer's win shares, balance with its block-bootstrap interval);
- ``effects``: each house rule's paired changes from the baseline (turns,
  relative turns, first player, dealer, balance), Holm-adjusted p-values and
  equivalence verdicts judged as one family per quantity over every field and
  table size (:mod:`unocli.analysis.verdicts`); a balance change is judged on
  a normal interval with its block-bootstrap standard error
  (:func:`add_balance_verdicts`);
- ``ranking``: one row per house rule at the middle table size under the
  reference field (:func:`ranking`): length, the first player's edge, the
  seat spread and the skill gap, each with its interval and verdict.

Nothing here writes prose or draws.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from unocli.analysis.seats import arm_rows, balance, fair_balance, identical_arms, seat_columns
from unocli.analysis.verdicts import add_verdicts
from unocli.study.compare import Comparison
from unocli.study.stats import ALPHA, LARGER, Difference, classify, holm, norm_quantile

#: What every cell records (and win_0 .. win_{n-1} for the seats).
QUANTITIES = ("turns", "cards_drawn", "won", "blocked", "capped", "stuck", "win_first", "win_dealer")
#: The ranking's four figures, in its column order.
FIGURES = ("turns", "first", "spread", "skill")


def quantities(players: int) -> tuple[str, ...]:
    """The quantities a cell at a table of ``players`` records: :data:`QUANTITIES` and every seat's win share."""
    return (*QUANTITIES, *(f"win_{s}" for s in range(players)))


@dataclass(frozen=True)
class HouseRules:
    """Every rule set's levels and every house rule's paired effects (see the module docstring).

    ``rounds``: rounds per arm at each table size; ``fair``: the balance a
    perfectly fair game measures at that size and n; ``identical``: (field,
    arm, arm) that played bit-identical rounds under that field; ``spreads``:
    per (field, players) each rule's seat spread change with its bootstrap
    standard error (:func:`spread_changes`); ``reference``: the field the
    ranking reads (:attr:`ref`; empty: the default).
    """

    names: tuple[str, ...]
    base: str
    fields: tuple[str, ...]
    players: tuple[int, ...]
    table: pd.DataFrame
    effects: pd.DataFrame
    rounds: dict[int, int]
    fair: dict[int, float]
    identical: tuple[tuple[str, str, str], ...]
    spreads: dict[tuple[str, int], pd.DataFrame]
    reference: str

    @property
    def rules(self) -> list[str]:
        """The house rules (every arm but the baseline)."""
        return [n for n in self.names if n != self.base]

    @property
    def ref(self) -> str:
        """The field the ranking and the answer show: ``reference`` when set, else ``basic`` when played, else the first."""
        if self.reference:
            return self.reference
        return "basic" if "basic" in self.fields else self.fields[0]

    @property
    def mid(self) -> int:
        """The table size the ranking and the single-size charts use: 4 when played, else the first."""
        return 4 if 4 in self.players else self.players[0]


def measure(
    cells: Mapping[tuple[str, int], Comparison],
    names: Sequence[str],
    base: str,
    margins: Mapping[str, float],
    replicates: int,
    seed: int,
    reference: str = "",
) -> HouseRules:
    """The levels, effects and verdicts of a played design (``cells``: (field, players) -> its comparison).

    ``margins``: the experiment's ``turns``, ``win_share_pp`` and ``balance``;
    ``replicates`` and ``seed``: the block bootstrap of balance; ``reference``:
    the field the ranking reads (empty: ``basic`` when played, else the first).
    """
    names = tuple(names)
    fields = tuple(dict.fromkeys(f for f, _ in cells))
    players = tuple(dict.fromkeys(p for _, p in cells))
    rows: list[dict] = []
    diffs: dict[str, list[Difference]] = {"turns": [], "win_first": [], "win_dealer": []}
    spreads: dict[tuple[str, int], pd.DataFrame] = {}
    for (field, p), comp in cells.items():
        spreads[(field, p)] = spread_changes(comp, p, list(names), base, replicates, seed)
        rows += [{"field": field} | r for r in _rows(comp, p, names, base, replicates, seed)]
        for q, found in diffs.items():
            found += [comp.diff(name, base, q) for name in names if name != base]
    identical = [
        (field, a, b) for field in fields for a, b in identical_arms([c for (f, _), c in cells.items() if f == field], names)
    ]
    table = pd.DataFrame(rows)
    effects = table[table["rule"] != base].copy().reset_index(drop=True)
    effects["p_turns_holm"] = holm(effects["p_turns"].to_numpy())
    effects["p_first_holm"] = holm(effects["p_first"].to_numpy())
    add_verdicts(effects, diffs["turns"], "turns", margins["turns"])
    add_verdicts(effects, diffs["win_first"], "first", margins["win_share_pp"], scale=100)
    add_verdicts(effects, diffs["win_dealer"], "dealer", margins["win_share_pp"], scale=100)
    add_balance_verdicts(effects, spreads, margins["balance"])
    return HouseRules(
        names=names,
        base=base,
        fields=fields,
        players=players,
        table=table,
        effects=effects,
        rounds={p: cells[(fields[0], p)].games for p in players},
        fair={p: fair_balance(cells[(fields[0], p)].games, p) for p in players},
        identical=tuple(identical),
        spreads=spreads,
        reference=reference,
    )


def _rows(comp: Comparison, p: int, names: tuple[str, ...], base: str, replicates: int, seed: int) -> list[dict]:
    base_turns = comp.mean(base, "turns").mean
    rows = []
    for name, row, change in arm_rows(comp, p, names, base, replicates, seed, "rule"):
        row |= {"blocked_share": comp.mean(name, "blocked").mean, "capped_share": comp.mean(name, "capped").mean}
        row |= {"stuck_share": comp.mean(name, "stuck").mean, "dealer_share": comp.mean(name, "win_dealer").mean}
        if name != base:
            dt, dw = comp.diff(name, base, "turns"), comp.diff(name, base, "win_first")
            dd = comp.diff(name, base, "win_dealer")
            row |= {"d_dealer": dd.diff, "d_dealer_low": dd.low, "d_dealer_high": dd.high}
            row |= {
                "d_turns": dt.diff,
                "d_turns_low": dt.low,
                "d_turns_high": dt.high,
                "d_turns_rel": dt.diff / base_turns,
                "p_turns": dt.p,
                "d_first": dw.diff,
                "d_first_low": dw.low,
                "d_first_high": dw.high,
                "p_first": dw.p,
            }
        rows.append(row | change)
    return rows


def spread_changes(comp: Comparison, p: int, names: list[str], base: str, replicates: int, seed: int) -> pd.DataFrame:
    """Each rule's change of the seat spread from ``base`` (in shares), with its bootstrap standard error.

    The spread is the largest gap between two seats' win shares
    (``1 - balance``). The replicates resample blocks of deals (every arm of a
    block on the same deals, so the change stays paired); they are the
    matrix's own replicates (the same seed as :func:`~unocli.analysis.seats.arm_rows`).
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


def add_balance_verdicts(effects: pd.DataFrame, spreads: Mapping[tuple[str, int], pd.DataFrame], margin: float) -> None:
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


def ranking(result: HouseRules, margins: Mapping[str, float], skill: pd.DataFrame | None) -> pd.DataFrame:
    """The ranking table's numbers: per rule its four changes with intervals and verdicts, sorted.

    At the middle table size under the reference field; ``skill``: the skill
    gaps (:func:`~unocli.analysis.house_rules_gap.skill_gaps`) or None. The
    spread's interval is normal with the bootstrap standard error at the
    simultaneous level 1 - 0.05 / rules. Sorted by how many of the four
    figures change by more than their margin, then by the size of the length
    change; ``larger`` counts them.
    """
    mid, ref, m = result.mid, result.ref, margins
    eff = result.effects
    at = eff[(eff["players"] == mid) & (eff["field"] == ref)].set_index("rule")
    sp = result.spreads[(ref, mid)].set_index("rule")
    k = len(result.rules)
    z = norm_quantile(1 - ALPHA / (2 * k))
    sk = skill
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
