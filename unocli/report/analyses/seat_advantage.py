"""Seat advantage: the first player's share of wins by table size, with Wilson intervals, and balance.

Every arm (by default policies, e.g. random and basic everywhere) is played at
every table size on the same deals. In a single round seat 0 plays first.
"""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd

from unocli.report import fmt
from unocli.report.analyses.common import (
    Context,
    balance,
    balance_chart,
    caption,
    fair_balance,
    first_player_chart,
    interval_series,
    percentile_interval,
    players_chart,
    run_compare,
    seat_columns,
    total_games,
)
from unocli.report.model import Chart, Section, TableBlock
from unocli.study.compare import Comparison
from unocli.study.experiments import Experiment, players_list, positive_int
from unocli.study.stats import wilson

OPTIONS = {
    "seat_players": ([4, 7], players_list),
    "replicates": (1000, positive_int),
}


@dataclass(frozen=True)
class SeatAdvantageResult:
    """The first player's share and balance per arm and table size, and every seat's share.

    ``table``: players, arm, n, first_player_share, ci_low, ci_high (Wilson),
    fair_share, ratio_to_fair (share x players) with ratio_low/high, balance
    with balance_low/high (block bootstrap). ``seats``: players, arm, seat, n,
    share, ci_low, ci_high. ``rounds``: rounds per arm at each table size;
    ``fair``: the balance a perfectly fair game would measure on that many.
    """

    exp: Experiment
    names: tuple[str, ...]
    table: pd.DataFrame
    seats: pd.DataFrame
    rounds: dict[int, int]
    fair: dict[int, float]
    games: int


def compute(exp: Experiment, ctx: Context) -> SeatAdvantageResult:
    """Play every arm at every table size and measure the seats' shares and balance."""
    names = tuple(a.name for a in exp.arms_for(exp.players[0]))
    rows, seats, comps = [], [], {}
    for p in exp.players:
        comp = run_compare(
            exp,
            ctx,
            exp.arms_for(p),
            baseline=exp.baseline,
            quantities=("won", "turns", *(f"win_{s}" for s in range(p))),
            metric="win_0",
            label=f"{p} players",
        )
        comps[p] = comp
        rows += _first_player_rows(comp, p, names, exp.options["replicates"], exp.seed)
        for name in names:
            acc = comp.acc(name)
            for s in range(p):
                w = wilson(acc.wins[s], comp.games)
                seats.append(
                    {"players": p, "arm": name, "seat": s, "n": comp.games, "share": w.share, "ci_low": w.low, "ci_high": w.high}
                )
    return SeatAdvantageResult(
        exp=exp,
        names=names,
        table=pd.DataFrame(rows),
        seats=pd.DataFrame(seats),
        rounds={p: c.games for p, c in comps.items()},
        fair={p: fair_balance(c.games, p) for p, c in comps.items()},
        games=total_games(list(comps.values())),
    )


def _first_player_rows(comp: Comparison, p: int, names: tuple[str, ...], replicates: int, seed: int) -> list[dict]:
    boot = comp.boot_means(replicates, seed=seed % (2**32) + p)
    cols = seat_columns(comp, p)
    bal = balance(comp.means()[:, cols])
    rows = []
    for name in names:
        k = comp.index(name)
        first = wilson(comp.acc(name).wins[0], comp.games)
        share, lo, hi = first.share, first.low, first.high
        bl, bh = percentile_interval(balance(boot[:, k, cols]))
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
    return rows


def render(result: SeatAdvantageResult) -> Section:
    """Charts of the first player's share, its ratio to a fair share, every seat and balance; tables; findings."""
    exp = result.exp
    seat_charts = [_seat_chart(result, sp) for sp in exp.options["seat_players"] if sp in exp.players]
    blocks: list = [
        _share_chart(result),
        _ratio_chart(result),
        TableBlock("first-player", "First player's win share (Wilson 95% intervals)", _shown(result.table), result.table),
        *seat_charts,
        _balance_chart(result),
        TableBlock(
            "seat-shares",
            "Every seat's win share (in the CSV)",
            pd.DataFrame([{"rows": len(result.seats), "file": "seat-shares.csv"}]),
            result.seats,
        ),
    ]
    intro = (
        exp.description or ""
    ) + f"\n\nPolicies compared (every seat the same): {', '.join(result.names)}; rules {exp.base.rules}."
    return Section(
        name=exp.name, title=exp.title, intro=intro, findings=_findings(result), blocks=blocks, meta={"games": result.games}
    )


def run(exp: Experiment, ctx: Context) -> Section:
    return render(compute(exp, ctx))


def _shown(table: pd.DataFrame) -> pd.DataFrame:
    return pd.DataFrame(
        {
            "players": table["players"],
            "policy": table["arm"],
            "n": table["n"].map(fmt.count),
            "first player wins [Wilson 95%]": [
                fmt.share_ci(*x, 1) for x in zip(table["first_player_share"], table["ci_low"], table["ci_high"], strict=True)
            ],
            "fair": table["fair_share"].map(lambda x: fmt.share(x, 1)),
            "x fair": [
                fmt.interval(*x, 3) for x in zip(table["ratio_to_fair"], table["ratio_low"], table["ratio_high"], strict=True)
            ],
            "balance": [
                fmt.interval(*x, 3) for x in zip(table["balance"], table["balance_low"], table["balance_high"], strict=True)
            ],
        }
    )


def _n_text(result: SeatAdvantageResult) -> str:
    return f"{fmt.count(result.rounds[result.exp.players[0]])} rounds per policy and table size"


def _lines(result: SeatAdvantageResult, columns: tuple[str, str, str]) -> list:
    """One line per policy across table sizes: the table's ``columns`` (point, low, high)."""
    return interval_series(result.table, "arm", result.names, columns)


def _caption(result: SeatAdvantageResult, what: str, intervals: str) -> str:
    return caption(result.exp, what, _n_text(result), policies=", ".join(result.names), intervals=intervals)


def _share_chart(result: SeatAdvantageResult) -> Chart:
    cap = _caption(
        result,
        "Share of single rounds won by the first player (seat 0)",
        "error bars are 95% Wilson intervals; dashed line: fair share 1/n",
    )
    series = _lines(result, ("first_player_share", "ci_low", "ci_high"))
    return first_player_chart(
        result.exp,
        series,
        cap,
        name="first-player-share",
        title="How much does playing first help?",
        ylabel="first player's win share",
    )


def _ratio_chart(result: SeatAdvantageResult) -> Chart:
    cap = _caption(
        result,
        "First player's win share divided by the fair share 1/n (1 = no advantage)",
        "error bars are 95% Wilson intervals scaled by n",
    )
    return players_chart(
        result.exp,
        _lines(result, ("ratio_to_fair", "ratio_low", "ratio_high")),
        cap,
        name="first-player-ratio",
        alt="first player ratio",
        title="First-player advantage relative to a fair share",
        ylabel="win share x players",
        hline=(1.0, "no advantage"),
    )


def _seat_chart(result: SeatAdvantageResult, sp: int) -> Chart:
    from unocli.report import plots  # matplotlib only when drawing

    sub = result.seats[result.seats["players"] == sp]
    series = interval_series(sub, "arm", result.names, ("share", "ci_low", "ci_high"))
    cap = caption(
        result.exp,
        f"Share of rounds won by each seat, {sp} players (seat 0 plays first, then 1, 2, ...)",
        f"{fmt.count(result.rounds[sp])} rounds per policy",
        policies=", ".join(result.names),
        intervals="error bars are 95% Wilson intervals; dotted line: fair share 1/n",
    )
    figure = plots.grouped_bars(
        [str(s) for s in range(sp)],
        series,
        title=f"Win share by seat, {sp} players",
        xlabel="seat",
        ylabel="win share",
        percent=True,
        caption=cap,
        hline=1 / sp,
        hline_label="fair share 1/n",
    )
    return Chart(f"seat-shares-{sp}p", figure, cap, f"win share by seat at {sp} players")


def _balance_chart(result: SeatAdvantageResult) -> Chart:
    cap = _caption(
        result,
        "Balance: 1 minus the largest gap between two seats' win shares (1 = perfectly balanced). "
        "Sampling noise alone keeps measured balance below 1: the dashed line is what a perfectly fair "
        "game would show at this sample size",
        "error bars are 95% block-bootstrap intervals",
    )
    series = _lines(result, ("balance", "balance_low", "balance_high"))
    return balance_chart(result.exp, series, result.fair, cap, name="balance", title="Balance between seats by table size")


def _findings(result: SeatAdvantageResult) -> list[str]:
    findings = []
    for name in result.names:
        sub = result.table[result.table["arm"] == name].set_index("players")
        findings.append(
            f"{name}: the first player wins "
            + "; ".join(
                f"{fmt.share(sub.loc[p, 'first_player_share'])} at {p} players (fair {fmt.share(1 / p)})"
                for p in result.exp.players
            )
            + "."
        )
        biggest = sub["ratio_to_fair"].idxmax()
        ratio = sub.loc[biggest, ["ratio_to_fair", "ratio_low", "ratio_high"]]
        findings.append(
            f"{name}: the advantage is largest at {biggest} players, {fmt.fixed(ratio.iloc[0], 2)}"
            f" times a fair share {fmt.bounds(ratio.iloc[1], ratio.iloc[2], 2)}"
            f"; balance ranges from {fmt.fixed(sub['balance'].min(), 3)} to {fmt.fixed(sub['balance'].max(), 3)}."
        )
    return findings
