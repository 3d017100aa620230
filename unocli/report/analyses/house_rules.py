"""The house-rules matrix: each house rule alone against the official rules, paired, at a few table sizes.

For every arm (a rule set differing from the baseline in one house rule) and
table size: the change in turns per round (paired t interval, and relative),
the change in the first player's win share (paired), and balance with its
change (block bootstrap).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from unocli.report import fmt
from unocli.report.analyses.common import (
    Context,
    add_verdicts,
    arm_diff,
    arm_mean,
    arm_rows,
    caption,
    effect_forest,
    fair_balance,
    identical_arms,
    interval_series,
    run_compare,
    total_games,
)
from unocli.report.model import Chart, Section, TableBlock
from unocli.study.compare import Comparison
from unocli.study.experiments import Experiment, positive_int
from unocli.study.stats import holm

OPTIONS = {"replicates": (1000, positive_int)}
QUANTITIES = ("turns", "cards_drawn", "won", "blocked", "capped", "stuck", "win_first", "win_dealer")


@dataclass(frozen=True)
class HouseRulesResult:
    """Every rule set's levels and every house rule's paired effects.

    ``table``: one row per (players, rule): n, turns, first_player_share and
    balance with their intervals (``_low``/``_high``), blocked_share,
    capped_share; and for the rules other than the baseline the paired
    changes d_turns, d_turns_rel, d_first, d_balance with intervals and
    p-values p_turns, p_first. ``effects``: those rows, with p_turns_holm and
    p_first_holm adjusted over all of them. ``rounds``: rounds per arm at each
    table size; ``fair``: the balance of a perfectly fair game at that size.
    """

    exp: Experiment
    names: tuple[str, ...]
    base: str
    table: pd.DataFrame
    effects: pd.DataFrame
    rounds: dict[int, int]
    fair: dict[int, float]
    games: int
    identical: tuple[tuple[str, str], ...] = ()

    @property
    def rules(self) -> list[str]:
        """The house rules (every arm but the baseline)."""
        return [n for n in self.names if n != self.base]

    @property
    def mid(self) -> int:
        """The table size the single-size chart and findings use."""
        return 4 if 4 in self.exp.players else self.exp.players[0]


def check(exp: Experiment) -> str | None:
    if len(exp.arms) < 2:
        return "arms: the house-rules analysis needs the baseline arm and at least one house rule"
    return None


def compute(exp: Experiment, ctx: Context) -> HouseRulesResult:
    """Play every rule set at every table size on the same deals and measure the effects."""
    names = tuple(a.name for a in exp.arms)
    base = exp.baseline or names[0]
    rows, comps, dts, dws = [], {}, [], []
    for p in exp.players:
        quantities = (*QUANTITIES, *(f"win_{s}" for s in range(p)))
        comp = run_compare(exp, ctx, exp.arms_for(p), baseline=base, quantities=quantities, label=f"{p} players")
        comps[p] = comp
        rows += _rows(comp, p, names, base, exp.options["replicates"], exp.seed)
        dts += [arm_diff(comp, name, base, "turns") for name in names if name != base]
        dws += [arm_diff(comp, name, base, "win_first") for name in names if name != base]
    table = pd.DataFrame(rows)
    effects = table[table["rule"] != base].copy().reset_index(drop=True)
    effects["p_turns_holm"] = holm(effects["p_turns"].to_numpy())
    effects["p_first_holm"] = holm(effects["p_first"].to_numpy())
    add_verdicts(effects, dts, "turns", exp.margins["turns"])
    add_verdicts(effects, dws, "first", exp.margins["win_share_pp"], scale=100)
    return HouseRulesResult(
        exp=exp,
        names=names,
        base=base,
        table=table,
        effects=effects,
        rounds={p: c.games for p, c in comps.items()},
        fair={p: fair_balance(c.games, p) for p, c in comps.items()},
        games=total_games(list(comps.values())),
        identical=tuple(identical_arms(list(comps.values()), names)),
    )


def _rows(comp: Comparison, p: int, names: tuple[str, ...], base: str, replicates: int, seed: int) -> list[dict]:
    base_turns = arm_mean(comp, base, "turns").mean
    rows = []
    for name, row, change in arm_rows(comp, p, names, base, replicates, seed, "rule"):
        row |= {"blocked_share": arm_mean(comp, name, "blocked").mean, "capped_share": arm_mean(comp, name, "capped").mean}
        row |= {"stuck_share": arm_mean(comp, name, "stuck").mean, "dealer_share": arm_mean(comp, name, "win_dealer").mean}
        if name != base:
            dt, dw = arm_diff(comp, name, base, "turns"), arm_diff(comp, name, base, "win_first")
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


def render(result: HouseRulesResult) -> Section:
    """The heatmap of turns, the matrix, the first-player and balance charts, the levels and findings."""
    exp, base, table = result.exp, result.base, result.table
    blocks: list = [
        _forest(result),
        _turns_heatmap(result),
        TableBlock(
            "house-rules-matrix",
            f"Each house rule alone against {base}, paired on the same deals: changes with simultaneous "
            f"{fmt.fixed(100 * result.effects['sim_level'].iloc[0], 2)}% intervals (Bonferroni over the "
            f"{len(result.effects)} cells of a column) and equivalence verdicts (margins from the experiment file)",
            _matrix(result),
            result.effects,
        ),
        _turns_chart(result),
        _first_player_chart(result),
        _balance_chart(result),
        TableBlock(
            "house-rules-arms",
            "Every rule set: levels",
            _levels(table),
            table,
        ),
    ]
    intro = (exp.description or "") + f"\n\nBaseline {base}; every seat plays `{exp.base.policy}`."
    return Section(
        name=exp.name, title=exp.title, intro=intro, findings=_findings(result), blocks=blocks, meta={"games": result.games}
    )


def run(exp: Experiment, ctx: Context) -> Section:
    return render(compute(exp, ctx))


def _n_text(result: HouseRulesResult) -> str:
    return f"{fmt.count(result.rounds[result.exp.players[0]])} deals per table size, every rule set on the same deals"


def _caption(result: HouseRulesResult, title: str, intervals: str) -> str:
    return caption(
        result.exp, title, _n_text(result), rules=f"each house rule alone on top of {result.base}", intervals=intervals
    )


def _cell(result: HouseRulesResult, rule: str, p: int) -> pd.DataFrame:
    eff = result.effects
    return eff[(eff["rule"] == rule) & (eff["players"] == p)]


def _relative_half_width(cell: pd.DataFrame) -> float:
    """Half-width of a cell's paired interval of turns, relative to the baseline's mean (turns minus the change)."""
    r = cell.iloc[0]
    return (r["d_turns_high"] - r["d_turns_low"]) / 2 / (r["turns"] - r["d_turns"])


def _forest(result: HouseRulesResult) -> Chart:
    """Each house rule's effect at the middle table size on turns, the first player's share and balance, with bands."""
    mid, m = result.mid, result.exp.margins
    at = result.effects[result.effects["players"] == mid]
    return effect_forest(
        at,
        "rule",
        "d_first",
        m,
        lambda what, intervals: _caption(result, what, intervals),
        what=f"Each house rule's effect at {mid} players against {result.base}",
        name="house-rules-forest",
        title=f"Each house rule's effect, {mid} players",
    )


def _turns_heatmap(result: HouseRulesResult) -> Chart:
    from unocli.report import plots  # matplotlib only when drawing: compute() runs without it

    players, rules = result.exp.players, result.rules
    rel = np.array([[_cell(result, r, p)["d_turns_rel"].iloc[0] for p in players] for r in rules])
    rel_half = np.array([[_relative_half_width(_cell(result, r, p)) for p in players] for r in rules])
    annot = np.array(
        [
            [f"{100 * v:+.0f}% ±{100 * h:.0f}" for v, h in zip(row, hrow, strict=True)]
            for row, hrow in zip(rel, rel_half, strict=True)
        ]
    )
    cap = _caption(
        result,
        f"Change in mean turns per round from {result.base}, in percent, paired on the same deals",
        "± is the half-width of each cell's paired 95% interval, in percent of the official mean",
    )
    figure = plots.heatmap(
        100 * rel[::-1],
        [str(p) for p in players],
        rules[::-1],
        title="How each house rule changes the length of a round",
        xlabel="players at the table",
        ylabel="house rule (alone)",
        caption=cap,
        colour_label=f"change in mean turns vs {result.base} (%)",
        annotations=annot[::-1],
        height=max(3.5, 0.45 * len(rules) + 1.5),
    )
    return Chart("house-rules-turns-heatmap", figure, cap, "house rules turns heatmap")


def _turns_chart(result: HouseRulesResult) -> Chart:
    from unocli.report import plots  # matplotlib only when drawing

    mid = result.mid
    at = result.effects[result.effects["players"] == mid]
    cap = _caption(
        result, f"Change in mean turns per round from {result.base}, {mid} players", "error bars are paired 95% t intervals"
    )
    figure = plots.dot_chart(
        list(at["rule"]),
        [plots.Series("turns", at["d_turns"], at["d_turns_low"], at["d_turns_high"])],
        title=f"Change in turns per round, {mid} players",
        xlabel=f"turns per round minus {result.base}",
        caption=cap,
    )
    return Chart("house-rules-turns", figure, cap, "change in turns")


def _first_player_chart(result: HouseRulesResult) -> Chart:
    from unocli.report import plots  # matplotlib only when drawing

    players = result.exp.players
    labels = [f"{p} players" for p in players]
    series = interval_series(result.effects, "players", players, ("d_first", "d_first_low", "d_first_high"), labels)
    cap = _caption(
        result, f"Change in the first player's win share from {result.base}, paired", "error bars are paired 95% t intervals"
    )
    figure = plots.dot_chart(
        result.rules,
        series,
        title="Does a house rule change the first-player advantage?",
        xlabel="change in seat 0 win share",
        caption=cap,
        percent=True,
    )
    return Chart("house-rules-first-player", figure, cap, "first player change")


def _balance_chart(result: HouseRulesResult) -> Chart:
    from unocli.report import plots  # matplotlib only when drawing

    players = result.exp.players
    labels = [f"{p} players" for p in players]
    series = interval_series(result.table, "players", players, ("balance", "balance_low", "balance_high"), labels)
    fair = ", ".join(f"{fmt.fixed(result.fair[p], 3)} at {p} players" for p in players)
    cap = _caption(
        result,
        "Balance: 1 minus the largest gap between two seats' win shares (1 = perfectly balanced); "
        f"sampling noise alone would make a perfectly fair game measure about {fair}",
        "error bars are 95% block-bootstrap intervals",
    )
    figure = plots.dot_chart(
        list(result.names), series, title="Balance under each house rule", xlabel="balance", caption=cap, zero=None
    )
    return Chart("house-rules-balance", figure, cap, "balance per rule")


def _levels(table: pd.DataFrame) -> pd.DataFrame:
    """Every rule set's point estimates (intervals in the CSV): counts with separators, the share as a percentage."""
    shown = table[["players", "rule", "n", "turns", "first_player_share", "balance"]].round(4)
    return shown.assign(
        n=shown["n"].map(fmt.count), first_player_share=table["first_player_share"].map(lambda x: fmt.share(x, 2))
    )


def _matrix(result: HouseRulesResult) -> pd.DataFrame:
    """The effects on simultaneous intervals with their equivalence verdicts (the bootstrap balance change at 95%)."""
    eff, m = result.effects, result.exp.margins
    return pd.DataFrame(
        {
            "rule": eff["rule"],
            "players": eff["players"],
            "n": eff["n"].map(fmt.count),
            "turns per finished round": [
                fmt.signed_ci(*x, 1) for x in zip(eff["d_turns"], eff["turns_sim_low"], eff["turns_sim_high"], strict=True)
            ],
            "relative": eff["d_turns_rel"].map(lambda x: fmt.fixed(100 * x, 1, sign=True) + "%"),
            f"turns verdict (+/-{fmt.num(m['turns'])})": eff["turns_verdict"],
            "first player's win share": [
                fmt.pp_ci(*x, 2) for x in zip(eff["d_first"], eff["first_sim_low"], eff["first_sim_high"], strict=True)
            ],
            f"first player verdict (+/-{fmt.num(m['win_share_pp'])} pp)": eff["first_verdict"],
            "balance (95% bootstrap)": [
                fmt.signed_ci(*x, 3) for x in zip(eff["d_balance"], eff["d_balance_low"], eff["d_balance_high"], strict=True)
            ],
        }
    )


def _findings(result: HouseRulesResult) -> list[str]:
    eff, mid = result.effects, result.mid
    at = eff[eff["players"] == mid]
    longest, shortest = at.loc[at["d_turns"].idxmax()], at.loc[at["d_turns"].idxmin()]
    findings = [
        f"At {mid} players the longest rounds come with {longest['rule']} "
        f"({fmt.fixed(100 * longest['d_turns_rel'], 0, sign=True)}% turns) and the shortest with {shortest['rule']} "
        f"({fmt.fixed(100 * shortest['d_turns_rel'], 0, sign=True)}%)."
    ]
    findings += _first_findings(result)
    for a, b in result.identical:
        findings.append(
            f"{a} and {b} played bit-identical rounds on every deal at every table size (same result of every "
            f"round), so they are one effect shown twice: with `{result.exp.base.policy}` players "
            + (
                "nobody plays a Wild Draw Four while holding the colour (bluff = 0), so making it legal at any time "
                "changes nothing, and both rules remove the challenge."
                if {a, b} == {"free-plus4", "no-challenge"}
                else "the rules differ only in situations these players never create."
            )
        )
    worst = eff.loc[eff["d_balance"].idxmin()]
    noise = "" if worst["d_balance_high"] < 0 else "; its 95% bootstrap interval holds 0"
    findings.append(
        f"Largest loss of balance: {worst['rule']} at {worst['players']} players "
        f"({fmt.signed_ci(worst['d_balance'], worst['d_balance_low'], worst['d_balance_high'], 3)}"
        f"{noise})."
    )
    return findings


def _first_findings(result: HouseRulesResult) -> list[str]:
    """Which rules change the first player's win share, which are equivalent, and which are undecided (verdicts)."""
    eff, margin = result.effects, f"{fmt.num(result.exp.margins['win_share_pp'])} pp"
    out = []
    diff = eff[eff["first_verdict"] == "different"]
    if len(diff):
        top = diff.loc[diff["d_first"].abs().idxmax()]
        out.append(
            f"{len(diff)} of {len(eff)} rule x table-size cells change the win share of the player who takes the first "
            f"turn (simultaneous interval excludes 0); the largest is {top['rule']} at {top['players']} players: "
            f"{fmt.pp_ci(top['d_first'], top['first_sim_low'], top['first_sim_high'], 2)} (n = {fmt.count(top['n'])})."
        )
    same = eff[eff["first_verdict"] == "equivalent"]
    undecided = eff[eff["first_verdict"] == "undecided"]
    out.append(
        f"Equivalent to {result.base} in the first player's win share (within +/-{margin}, equivalence test): "
        f"{len(same)} of {len(eff)} cells; undecided at this sample size: {len(undecided)}"
        + (f" ({', '.join(f'{r.rule} at {r.players}' for r in undecided.itertuples())})" if len(undecided) else "")
        + "."
    )
    return out
