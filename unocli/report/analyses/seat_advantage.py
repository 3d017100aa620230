"""Seat advantage: the first player's share of wins by table size, with Wilson intervals, and balance.

Every arm (by default policies, e.g. random and basic everywhere) is played at
every table size on the same deals. In a single round seat 0 plays first.
"""

from __future__ import annotations

import pandas as pd

from unocli.report.analyses.common import (
    Context,
    balance,
    caption,
    fair_balance,
    interval,
    pct,
    pct_ci,
    run_compare,
    seat_columns,
)
from unocli.report.render import Chart, Section, TableBlock
from unocli.study.experiments import Experiment, players_list, positive_int
from unocli.study.stats import wilson

OPTIONS = {
    "seat_players": ([4, 7], players_list),
    "replicates": (1000, positive_int),
}


def run(exp: Experiment, ctx: Context) -> Section:
    from unocli.report import plots

    players = exp.players
    names = [a.name for a in exp.arms_for(players[0])]
    rows, shown, seats = [], [], []
    results = {}
    for p in players:
        comp = run_compare(
            exp,
            ctx,
            exp.arms_for(p),
            baseline=exp.baseline,
            quantities=("won", "turns", *(f"win_{s}" for s in range(p))),
            metric="win_0",
            label=f"{p} players",
        )
        results[p] = comp
        boot = comp.boot_means(exp.options["replicates"], seed=exp.seed % (2**32) + p)
        cols = seat_columns(comp, p)
        bal = balance(comp.means()[:, cols])
        for name in names:
            k = comp.index(name)
            acc = comp.acc(name)
            share, lo, hi = wilson(acc.wins[0], comp.games)
            bl, bh = interval(balance(boot[:, k, cols]))
            rows.append(
                {
                    "players": p,
                    "arm": name,
                    "n": comp.games,
                    "first_player_share": share,
                    "ci_low": lo,
                    "ci_high": hi,
                    "fair_share": 1 / p,
                    "ratio_to_fair": share * p,
                    "ratio_low": lo * p,
                    "ratio_high": hi * p,
                    "balance": bal[k],
                    "balance_low": bl,
                    "balance_high": bh,
                }
            )
            shown.append(
                {
                    "players": p,
                    "policy": name,
                    "n": f"{comp.games:,}",
                    "first player wins [Wilson 95%]": pct_ci(share, lo, hi),
                    "fair": pct(1 / p),
                    "x fair": f"{share * p:.3f} [{lo * p:.3f}, {hi * p:.3f}]",
                    "balance": f"{bal[k]:.3f} [{bl:.3f}, {bh:.3f}]",
                }
            )
            for s in range(p):
                w, wl, wh = wilson(acc.wins[s], comp.games)
                seats.append({"players": p, "arm": name, "seat": s, "n": comp.games, "share": w, "ci_low": wl, "ci_high": wh})
    table = pd.DataFrame(rows)
    seat_table = pd.DataFrame(seats)
    n_text = f"{results[players[0]].games:,} rounds per policy and table size"
    charts = []
    series = [
        plots.Series(
            name,
            table[table["arm"] == name]["first_player_share"],
            table[table["arm"] == name]["ci_low"],
            table[table["arm"] == name]["ci_high"],
        )
        for name in names
    ]
    cap = caption(
        exp,
        "Share of single rounds won by the first player (seat 0)",
        n_text,
        policies=", ".join(names),
        intervals="error bars are 95% Wilson intervals; dashed line: fair share 1/n",
    )
    charts.append(
        Chart(
            "first-player-share",
            plots.line_chart(
                players,
                series,
                band=False,
                title="How much does playing first help?",
                xlabel="players at the table",
                ylabel="first player's win share",
                xticks=players,
                percent=True,
                caption=cap,
                reference=plots.Series("fair share 1/n", [1 / p for p in players]),
            ),
            cap,
            "first player win share",
        )
    )
    series = [
        plots.Series(
            name,
            table[table["arm"] == name]["ratio_to_fair"],
            table[table["arm"] == name]["ratio_low"],
            table[table["arm"] == name]["ratio_high"],
        )
        for name in names
    ]
    cap2 = caption(
        exp,
        "First player's win share divided by the fair share 1/n (1 = no advantage)",
        n_text,
        policies=", ".join(names),
        intervals="error bars are 95% Wilson intervals scaled by n",
    )
    charts.append(
        Chart(
            "first-player-ratio",
            plots.line_chart(
                players,
                series,
                band=False,
                title="First-player advantage relative to a fair share",
                xlabel="players at the table",
                ylabel="win share x players",
                xticks=players,
                hline=1.0,
                hline_label="no advantage",
                caption=cap2,
            ),
            cap2,
            "first player ratio",
        )
    )
    for sp in [p for p in exp.options["seat_players"] if p in players]:
        sub = seat_table[seat_table["players"] == sp]
        series = [
            plots.Series(
                name, sub[sub["arm"] == name]["share"], sub[sub["arm"] == name]["ci_low"], sub[sub["arm"] == name]["ci_high"]
            )
            for name in names
        ]
        cap3 = caption(
            exp,
            f"Share of rounds won by each seat, {sp} players (seat 0 plays first, then 1, 2, ...)",
            f"{results[sp].games:,} rounds per policy",
            policies=", ".join(names),
            intervals="error bars are 95% Wilson intervals; dotted line: fair share 1/n",
        )
        charts.append(
            Chart(
                f"seat-shares-{sp}p",
                plots.grouped_bars(
                    [str(s) for s in range(sp)],
                    series,
                    title=f"Win share by seat, {sp} players",
                    xlabel="seat",
                    ylabel="win share",
                    percent=True,
                    caption=cap3,
                    hline=1 / sp,
                    hline_label="fair share 1/n",
                ),
                cap3,
                f"win share by seat at {sp} players",
            )
        )
    series = [
        plots.Series(
            name,
            table[table["arm"] == name]["balance"],
            table[table["arm"] == name]["balance_low"],
            table[table["arm"] == name]["balance_high"],
        )
        for name in names
    ]
    cap4 = caption(
        exp,
        "Balance: 1 minus the largest gap between two seats' win shares (1 = perfectly balanced). "
        "Sampling noise alone keeps measured balance below 1: the dashed line is what a perfectly fair "
        "game would show at this sample size",
        n_text,
        policies=", ".join(names),
        intervals="error bars are 95% block-bootstrap intervals",
    )
    fair = plots.Series("a perfectly fair game at this n", [fair_balance(results[p].games, p) for p in players])
    charts.append(
        Chart(
            "balance",
            plots.line_chart(
                players,
                series,
                band=False,
                title="Balance between seats by table size",
                xlabel="players at the table",
                ylabel="balance",
                xticks=players,
                caption=cap4,
                reference=fair,
            ),
            cap4,
            "balance by players",
        )
    )
    findings = []
    for name in names:
        sub = table[table["arm"] == name].set_index("players")
        findings.append(
            f"{name}: the first player wins "
            + "; ".join(f"{pct(sub.loc[p, 'first_player_share'])} at {p} players (fair {pct(1 / p)})" for p in players)
            + "."
        )
        biggest = sub["ratio_to_fair"].idxmax()
        ratio = sub.loc[biggest, ["ratio_to_fair", "ratio_low", "ratio_high"]]
        findings.append(
            f"{name}: the advantage is largest at {biggest} players, {ratio.iloc[0]:.2f}"
            f" times a fair share [{ratio.iloc[1]:.2f}, {ratio.iloc[2]:.2f}]"
            f"; balance ranges from {sub['balance'].min():.3f} to {sub['balance'].max():.3f}."
        )
    blocks: list = [
        charts[0],
        charts[1],
        TableBlock("first-player", "First player's win share (Wilson 95% intervals)", pd.DataFrame(shown), table),
        *charts[2:],
        TableBlock(
            "seat-shares",
            "Every seat's win share (in the CSV)",
            pd.DataFrame([{"rows": len(seat_table), "file": "seat-shares.csv"}]),
            seat_table,
        ),
    ]
    games = sum(c.games * len(c.arms) for c in results.values())
    intro = (exp.description or "") + f"\n\nPolicies compared (every seat the same): {', '.join(names)}; rules {exp.base.rules}."
    return Section(name=exp.name, title=exp.title, intro=intro, findings=findings, blocks=blocks, meta={"games": games})
