"""The house-rules matrix: each house rule alone against the official rules, paired, at a few table sizes.

For every arm (a rule set differing from the baseline in one house rule) and
table size: the change in turns per round (paired t interval, and relative),
the change in the first player's win share (paired), and balance with its
change (block bootstrap).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from unocli.report.analyses.common import (
    Context,
    balance,
    caption,
    fair_balance,
    interval,
    pp_ci,
    pvalue,
    run_compare,
    seat_columns,
    signed_ci,
)
from unocli.report.render import Chart, Section, TableBlock
from unocli.study.experiments import Experiment, positive_int
from unocli.study.stats import holm

OPTIONS = {"replicates": (1000, positive_int)}


def check(exp: Experiment) -> str | None:
    if len(exp.arms) < 2:
        return "arms: the house-rules analysis needs the baseline arm and at least one house rule"
    return None


def run(exp: Experiment, ctx: Context) -> Section:
    from unocli.report import plots

    players = exp.players
    names = [a.name for a in exp.arms]
    base = exp.baseline or names[0]
    rules_only = [n for n in names if n != base]
    rows = []
    results = {}
    for p in players:
        comp = run_compare(
            exp,
            ctx,
            exp.arms_for(p),
            baseline=base,
            quantities=("turns", "cards_drawn", "won", "blocked", "capped", *(f"win_{s}" for s in range(p))),
            label=f"{p} players",
        )
        results[p] = comp
        boot = comp.boot_means(exp.options["replicates"], seed=exp.seed % (2**32) + p)
        cols = seat_columns(comp, p)
        bal, bal_b = balance(comp.means()[:, cols]), balance(boot[:, :, cols])
        kb = comp.index(base)
        base_turns = comp.mean(base, "turns")[0]
        for name in names:
            k = comp.index(name)
            t = comp.mean(name, "turns")
            w = comp.mean(name, "win_0")
            row = {
                "players": p,
                "rule": name,
                "n": comp.games,
                "turns": t[0],
                "turns_low": t[2],
                "turns_high": t[3],
                "first_player_share": w[0],
                "first_low": w[2],
                "first_high": w[3],
                "balance": bal[k],
                "balance_low": interval(bal_b[:, k])[0],
                "balance_high": interval(bal_b[:, k])[1],
                "blocked_share": comp.mean(name, "blocked")[0],
                "capped_share": comp.mean(name, "capped")[0],
            }
            if name != base:
                dt, dw = comp.diff(name, base, "turns"), comp.diff(name, base, "win_0")
                dl, dh = interval(bal_b[:, k] - bal_b[:, kb])
                row |= {
                    "d_turns": dt["diff"],
                    "d_turns_low": dt["ci_low"],
                    "d_turns_high": dt["ci_high"],
                    "d_turns_rel": dt["diff"] / base_turns,
                    "p_turns": dt["p"],
                    "d_first": dw["diff"],
                    "d_first_low": dw["ci_low"],
                    "d_first_high": dw["ci_high"],
                    "p_first": dw["p"],
                    "d_balance": bal[k] - bal[kb],
                    "d_balance_low": dl,
                    "d_balance_high": dh,
                }
            rows.append(row)
    table = pd.DataFrame(rows)
    eff = table[table["rule"] != base].copy()
    eff["p_turns_holm"] = holm(eff["p_turns"].to_numpy())
    eff["p_first_holm"] = holm(eff["p_first"].to_numpy())

    n_text = f"{results[players[0]].games:,} deals per table size, every rule set on the same deals"
    rel = np.array(
        [[eff[(eff["rule"] == r) & (eff["players"] == p)]["d_turns_rel"].iloc[0] for p in players] for r in rules_only]
    )
    rel_half = np.array(
        [
            [
                (
                    lambda r: (
                        (r["d_turns_high"].iloc[0] - r["d_turns_low"].iloc[0]) / 2 / (r["turns"].iloc[0] - r["d_turns"].iloc[0])
                    )
                )(eff[(eff["rule"] == rule) & (eff["players"] == p)])
                for p in players
            ]
            for rule in rules_only
        ]
    )
    annot = np.array(
        [
            [f"{100 * v:+.0f}% ±{100 * h:.0f}" for v, h in zip(row, hrow, strict=True)]
            for row, hrow in zip(rel, rel_half, strict=True)
        ]
    )
    cap = caption(
        exp,
        f"Change in mean turns per round from {base}, in percent, paired on the same deals",
        n_text,
        rules=f"each house rule alone on top of {base}",
        intervals="± is the half-width of each cell's paired 95% interval, in percent of the official mean",
    )
    charts = [
        Chart(
            "house-rules-turns-heatmap",
            plots.heatmap(
                100 * rel[::-1],
                [str(p) for p in players],
                rules_only[::-1],
                title="How each house rule changes the length of a round",
                xlabel="players at the table",
                ylabel="house rule (alone)",
                caption=cap,
                colour_label=f"change in mean turns vs {base} (%)",
                annotations=annot[::-1],
                height=max(3.5, 0.45 * len(rules_only) + 1.5),
            ),
            cap,
            "house rules turns heatmap",
        )
    ]
    mid = 4 if 4 in players else players[0]
    at = eff[eff["players"] == mid]
    cap2 = caption(
        exp,
        f"Change in mean turns per round from {base}, {mid} players",
        n_text,
        rules=f"each house rule alone on top of {base}",
        intervals="error bars are paired 95% t intervals",
    )
    charts.append(
        Chart(
            "house-rules-turns",
            plots.dot_chart(
                list(at["rule"]),
                [plots.Series("turns", at["d_turns"], at["d_turns_low"], at["d_turns_high"])],
                title=f"Change in turns per round, {mid} players",
                xlabel=f"turns per round minus {base}",
                caption=cap2,
            ),
            cap2,
            "change in turns",
        )
    )
    series = [
        plots.Series(
            f"{p} players",
            eff[eff["players"] == p]["d_first"],
            eff[eff["players"] == p]["d_first_low"],
            eff[eff["players"] == p]["d_first_high"],
        )
        for p in players
    ]
    cap3 = caption(
        exp,
        f"Change in the first player's win share from {base}, paired",
        n_text,
        rules=f"each house rule alone on top of {base}",
        intervals="error bars are paired 95% t intervals",
    )
    charts.append(
        Chart(
            "house-rules-first-player",
            plots.dot_chart(
                rules_only,
                series,
                title="Does a house rule change the first-player advantage?",
                xlabel="change in seat 0 win share",
                caption=cap3,
                percent=True,
            ),
            cap3,
            "first player change",
        )
    )
    series = [
        plots.Series(
            f"{p} players",
            table[table["players"] == p]["balance"],
            table[table["players"] == p]["balance_low"],
            table[table["players"] == p]["balance_high"],
        )
        for p in players
    ]
    fair = ", ".join(f"{fair_balance(results[p].games, p):.3f} at {p} players" for p in players)
    cap4 = caption(
        exp,
        "Balance: 1 minus the largest gap between two seats' win shares (1 = perfectly balanced); "
        f"sampling noise alone would make a perfectly fair game measure about {fair}",
        n_text,
        rules=f"each house rule alone on top of {base}",
        intervals="error bars are 95% block-bootstrap intervals",
    )
    charts.append(
        Chart(
            "house-rules-balance",
            plots.dot_chart(names, series, title="Balance under each house rule", xlabel="balance", caption=cap4, zero=None),
            cap4,
            "balance per rule",
        )
    )
    matrix = pd.DataFrame(
        {
            "rule": eff["rule"],
            "players": eff["players"],
            "n": eff["n"].map("{:,}".format),
            "turns per round": [
                signed_ci(*x, 1) for x in zip(eff["d_turns"], eff["d_turns_low"], eff["d_turns_high"], strict=True)
            ],
            "relative": eff["d_turns_rel"].map(lambda x: f"{100 * x:+.1f}%"),
            "first-player share": [pp_ci(*x) for x in zip(eff["d_first"], eff["d_first_low"], eff["d_first_high"], strict=True)],
            "balance": [
                f"{d:+.3f} [{lo:+.3f}, {hi:+.3f}]"
                for d, lo, hi in zip(eff["d_balance"], eff["d_balance_low"], eff["d_balance_high"], strict=True)
            ],
            "p turns (Holm)": eff["p_turns_holm"].map(pvalue),
            "p first player (Holm)": eff["p_first_holm"].map(pvalue),
        }
    )
    findings = []
    longest, shortest = at.loc[at["d_turns"].idxmax()], at.loc[at["d_turns"].idxmin()]
    findings.append(
        f"At {mid} players the longest rounds come with {longest['rule']} "
        f"({100 * longest['d_turns_rel']:+.0f}% turns) and the shortest with {shortest['rule']} "
        f"({100 * shortest['d_turns_rel']:+.0f}%)."
    )
    sig = eff[eff["p_first_holm"] < 0.05]
    if len(sig):
        top = sig.loc[sig["d_first"].abs().idxmax()]
        findings.append(
            f"{len(sig)} of {len(eff)} rule x table-size cells change the first player's win share "
            f"significantly (Holm); the largest is {top['rule']} at {top['players']} players: "
            f"{pp_ci(top['d_first'], top['d_first_low'], top['d_first_high'])}."
        )
    else:
        findings.append("No house rule changes the first player's win share significantly after Holm adjustment.")
    worst = eff.loc[eff["d_balance"].idxmin()]
    noise = "" if worst["d_balance_high"] < 0 else "; within sampling noise"
    findings.append(
        f"Largest loss of balance: {worst['rule']} at {worst['players']} players "
        f"({worst['d_balance']:+.3f} [{worst['d_balance_low']:+.3f}, {worst['d_balance_high']:+.3f}]"
        f"{noise}); balance barely depends on these rules."
    )
    blocks: list = [
        charts[0],
        TableBlock("house-rules-matrix", f"Each house rule alone against {base} (paired; 95% intervals)", matrix, eff),
        charts[1],
        charts[2],
        charts[3],
        TableBlock(
            "house-rules-arms",
            "Every rule set: levels",
            table[["players", "rule", "n", "turns", "first_player_share", "balance"]].round(4),
            table,
        ),
    ]
    games = sum(c.games * len(c.arms) for c in results.values())
    intro = (exp.description or "") + f"\n\nBaseline {base}; every seat plays `{exp.base.policy}`."
    return Section(name=exp.name, title=exp.title, intro=intro, findings=findings, blocks=blocks, meta={"games": games})
