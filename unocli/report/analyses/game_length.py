"""How long is a game? Turns per round by table size and rule set, and rounds per match to 500.

Every arm (rule set) is played at every table size on the same deals; each
table size also plays ``match_games`` whole matches per arm. Reports the mean
(t interval), median, p90 and p99 (order-statistic intervals) of turns per
round, the share of blocked and capped rounds (Wilson), the paired change of
every rule set from the baseline, histograms and ECDFs (DKW bands), and the
rounds a match to ``target_score`` takes.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from unocli.report import fmt
from unocli.report.analyses.common import (
    Context,
    arm_diff,
    arm_mean,
    caption,
    dkw_eps,
    hist_quantile,
    interval_series,
    run_compare,
    total_games,
)
from unocli.report.model import Chart, Section, TableBlock
from unocli.study.compare import Comparison
from unocli.study.experiments import Experiment, players_list, positive_int
from unocli.study.stats import holm

OPTIONS = {
    "match_games": (1000, positive_int),
    "detail_players": ([2, 4, 7, 10], players_list),
}
ROUND_Q = ("turns", "cards_drawn", "reshuffles", "won", "blocked", "capped")
MATCH_Q = ("rounds", "rounds_blocked", "rounds_capped", "turns", "capped")


@dataclass(frozen=True)
class GameLengthResult:
    """Turns per round and rounds per match, per rule set and table size.

    ``turns``: one row per (players, rules): n, mean_turns with ci_low/high,
    median, p90 and p99 with ``_low``/``_high`` (order statistics),
    blocked_share and capped_share with intervals. ``diffs``: the paired
    change in mean turns of each rule set from the baseline (diff, diff_low,
    diff_high, relative, p, p_holm). ``matches``: rounds, turns and blocked
    rounds per match and the share of capped matches, with intervals.
    ``hists``: the histogram of turns per round of each (players, rules).
    ``rounds``: rounds per arm at each table size; ``blocked``, ``capped``,
    ``total_rounds``: outcome counts over every round played.
    """

    exp: Experiment
    names: tuple[str, ...]
    base: str
    turns: pd.DataFrame
    diffs: pd.DataFrame
    matches: pd.DataFrame
    hists: dict[tuple[int, str], np.ndarray]
    rounds: dict[int, int]
    blocked: int
    capped: int
    total_rounds: int
    target: int
    games: int

    @property
    def mid(self) -> int:
        """The table size the comparisons of rule sets are shown at."""
        players = self.exp.players
        return 4 if 4 in players else players[len(players) // 2]


def check(exp: Experiment) -> str | None:
    if not exp.arms:
        return "arms: the game-length analysis needs at least one [arms.NAME] rule set"
    return None


def compute(exp: Experiment, ctx: Context) -> GameLengthResult:
    """Play rounds and matches of every rule set at every table size."""
    players = exp.players
    names = tuple(a.name for a in exp.arms_for(players[0]))
    base = exp.baseline or names[0]
    rounds = {
        p: run_compare(
            exp, ctx, exp.arms_for(p), baseline=base, quantities=ROUND_Q, target_on="mean", label=f"{p} players, rounds"
        )
        for p in players
    }
    matches = {
        p: run_compare(
            exp,
            ctx,
            exp.arms_for(p),
            games=exp.options["match_games"],
            baseline=base,
            match=True,
            quantities=MATCH_Q,
            label=f"{p} players, matches",
        )
        for p in players
    }
    games = total_games(list(rounds.values()))
    games += sum(int(c.sums.s1[:, c.quantities.index("rounds")].sum()) for c in matches.values())
    every = [c.acc(a.name) for c in rounds.values() for a in c.arms]
    return GameLengthResult(
        exp=exp,
        names=names,
        base=base,
        turns=pd.DataFrame([_turns_row(rounds[p], p, name) for p in players for name in names]),
        diffs=_diffs(rounds, names, base),
        matches=pd.DataFrame([_match_row(matches[p], p, name) for p in players for name in names]),
        hists={(p, name): rounds[p].acc(name).turns_hist for p in players for name in names},
        rounds={p: c.games for p, c in rounds.items()},
        blocked=sum(int(a.outcomes[1]) for a in every),
        capped=sum(int(a.outcomes[2]) for a in every),
        total_rounds=total_games(list(rounds.values())),
        target=exp.arms_for(players[0])[0].rules.target_score,
        games=games,
    )


def _turns_row(comp: Comparison, p: int, name: str) -> dict:
    hist = comp.acc(name).turns_hist
    t, blk, cap = arm_mean(comp, name, "turns"), arm_mean(comp, name, "blocked"), arm_mean(comp, name, "capped")
    row = {"players": p, "rules": name, "n": comp.games, "mean_turns": t.mean, "ci_low": t.low, "ci_high": t.high}
    for key, q in (("median", 0.5), ("p90", 0.9), ("p99", 0.99)):
        point, lo, hi = hist_quantile(hist, q)
        row |= {key: point, f"{key}_low": lo, f"{key}_high": hi}
    return row | {
        "blocked_share": blk.mean,
        "blocked_low": blk.low,
        "blocked_high": blk.high,
        "capped_share": cap.mean,
        "capped_low": cap.low,
        "capped_high": cap.high,
    }


def _diffs(rounds: dict[int, Comparison], names: tuple[str, ...], base: str) -> pd.DataFrame:
    rows = []
    for p, comp in rounds.items():
        for name in names:
            if name == base:
                continue
            d = arm_diff(comp, name, base, "turns")
            rows.append(
                {
                    "players": p,
                    "rules": name,
                    "baseline": base,
                    "n": d.n,
                    "diff": d.diff,
                    "diff_low": d.low,
                    "diff_high": d.high,
                    "relative": d.diff / arm_mean(comp, base, "turns").mean,
                    "p": d.p,
                }
            )
    diffs = pd.DataFrame(rows)
    if len(diffs):
        diffs["p_holm"] = holm(diffs["p"].to_numpy())
    return diffs


def _match_row(comp: Comparison, p: int, name: str) -> dict:
    r, b = arm_mean(comp, name, "rounds"), arm_mean(comp, name, "rounds_blocked")
    c, t = arm_mean(comp, name, "capped"), arm_mean(comp, name, "turns")
    return {
        "players": p,
        "rules": name,
        "n_matches": comp.games,
        "rounds": r.mean,
        "rounds_low": r.low,
        "rounds_high": r.high,
        "turns": t.mean,
        "turns_low": t.low,
        "turns_high": t.high,
        "blocked_rounds": b.mean,
        "blocked_low": b.low,
        "blocked_high": b.high,
        "capped_share": c.mean,
        "capped_low": c.low,
        "capped_high": c.high,
    }


def render(result: GameLengthResult) -> Section:
    """Charts of turns and rounds per match, the tables and findings."""
    exp, base = result.exp, result.base
    blocks: list = [
        _turns_chart(result),
        _percentiles_chart(result),
        TableBlock(
            "turns",
            "Turns per round",
            _turns_shown(result),
            result.turns,
            "Intervals: t for the mean, binomial order statistics for percentiles, Wilson for shares.",
        ),
        *_distribution_charts(result),
        _ecdf_rules_chart(result),
    ]
    if len(result.diffs):
        blocks.append(
            TableBlock(
                "turns-vs-baseline",
                f"Change in mean turns from {base}, paired on the same deals",
                _diffs_shown(result),
                result.diffs,
            ),
        )
    blocks += [
        _matches_chart(result),
        TableBlock("matches", f"Matches to {result.target} points", _matches_shown(result), result.matches),
    ]
    intro = (exp.description or "") + (
        f"\n\nRule sets: {', '.join(result.names)}; baseline {base}. Policy: every seat "
        f"plays `{exp.base.policy}`. Each table size plays the same deals under "
        f"every rule set."
    )
    return Section(
        name=exp.name, title=exp.title, intro=intro, findings=_findings(result), blocks=blocks, meta={"games": result.games}
    )


def run(exp: Experiment, ctx: Context) -> Section:
    return render(compute(exp, ctx))


# ---------------------------------------------------------------- tables


def _turns_shown(result: GameLengthResult) -> pd.DataFrame:
    rows = []
    for r in result.turns.itertuples():
        top = len(result.hists[(r.players, r.rules)]) - 1
        rows.append(
            {
                "players": r.players,
                "rules": r.rules,
                "n": fmt.count(r.n),
                "mean turns [95% CI]": fmt.ci(r.mean_turns, r.ci_low, r.ci_high),
                "median": fmt.quantile(r.median, r.median_low, r.median_high, top),
                "p90": fmt.quantile(r.p90, r.p90_low, r.p90_high, top),
                "p99": fmt.quantile(r.p99, r.p99_low, r.p99_high, top),
                "blocked": fmt.share_ci(r.blocked_share, r.blocked_low, r.blocked_high, 2),
                "capped": fmt.share_ci(r.capped_share, r.capped_low, r.capped_high, 2),
            }
        )
    return pd.DataFrame(rows)


def _diffs_shown(result: GameLengthResult) -> pd.DataFrame:
    diffs = result.diffs
    return pd.DataFrame(
        {
            "players": diffs["players"],
            "rules": diffs["rules"],
            f"change in mean turns vs {result.base} [95% CI]": [
                fmt.signed_ci(d, lo, hi, 2)
                for d, lo, hi in zip(diffs["diff"], diffs["diff_low"], diffs["diff_high"], strict=True)
            ],
            "relative": [fmt.fixed(100 * r, 1, sign=True) + "%" for r in diffs["relative"]],
            "n (paired deals)": diffs["n"].map(fmt.count),
            "p (Holm)": diffs["p_holm"].map(fmt.pvalue),
        }
    )


def _matches_shown(result: GameLengthResult) -> pd.DataFrame:
    return pd.DataFrame(
        [
            {
                "players": r.players,
                "rules": r.rules,
                "matches": fmt.count(r.n_matches),
                "rounds per match [95% CI]": fmt.ci(r.rounds, r.rounds_low, r.rounds_high),
                "turns per match": fmt.ci(r.turns, r.turns_low, r.turns_high),
                "blocked rounds per match": fmt.ci(r.blocked_rounds, r.blocked_low, r.blocked_high),
                "capped matches": fmt.share_ci(r.capped_share, r.capped_low, r.capped_high, 2),
            }
            for r in result.matches.itertuples()
        ]
    )


# ---------------------------------------------------------------- charts


def _n_rounds(result: GameLengthResult) -> str:
    return f"{fmt.count(result.rounds[result.exp.players[0]])} rounds per rule set and table size"


def _turns_chart(result: GameLengthResult) -> Chart:
    from unocli.report import plots  # matplotlib only when drawing: compute() runs without it

    t, players = result.turns, result.exp.players
    series = interval_series(t, "rules", result.names, ("mean_turns", "ci_low", "ci_high"))
    capped = t[t["capped_share"] > 0]
    note = ""
    if len(capped):
        note = (
            f"; {', '.join(sorted(set(capped['rules'])))} leaves up to {fmt.share(capped['capped_share'].max(), 2)} of "
            f"rounds unfinished at the max_turns cap, counted at the cap, which inflates its mean"
        )
    cap = caption(result.exp, "Mean turns per round, one line per rule set" + note, _n_rounds(result))
    figure = plots.line_chart(
        players,
        series,
        title="Mean turns per round by table size",
        xlabel="players at the table",
        ylabel="turns per round (mean)",
        xticks=players,
        caption=cap,
    )
    return Chart("turns-by-players", figure, cap, "mean turns per round by players")


def _percentiles_chart(result: GameLengthResult) -> Chart:
    from unocli.report import plots  # matplotlib only when drawing

    base, players = result.base, result.exp.players
    sub = result.turns[result.turns["rules"] == base]
    series = [
        plots.Series("mean", sub["mean_turns"], sub["ci_low"], sub["ci_high"]),
        plots.Series("median", sub["median"], sub["median_low"], sub["median_high"]),
        plots.Series("90th percentile", sub["p90"], sub["p90_low"], sub["p90_high"]),
        plots.Series("99th percentile", sub["p99"], sub["p99_low"], sub["p99_high"]),
    ]
    cap = caption(
        result.exp,
        f"Mean, median, 90th and 99th percentile of turns per round, {base} rules",
        _n_rounds(result),
        intervals="error bars are 95% intervals (t for the mean, binomial order statistics for percentiles)",
    )
    figure = plots.line_chart(
        players,
        series,
        band=False,
        title=f"Turns per round: typical and long rounds ({base})",
        xlabel="players at the table",
        ylabel="turns per round",
        xticks=players,
        caption=cap,
    )
    return Chart("turns-percentiles", figure, cap, "percentiles of turns per round")


def _distribution_charts(result: GameLengthResult) -> list[Chart]:
    """The histogram and the ECDF of turns per round under the baseline at the detail table sizes."""
    from unocli.report import plots  # matplotlib only when drawing

    exp, base = result.exp, result.base
    detail = [p for p in exp.options["detail_players"] if p in exp.players] or [exp.players[0]]
    hists = [(f"{p} players", result.hists[(p, base)]) for p in detail]
    xmax = max(hist_quantile(h, 0.995)[0] for _, h in hists) + 10
    cap_h = caption(
        exp,
        f"Distribution of turns per round, {base} rules, bins of 5 turns",
        _n_rounds(result),
        intervals="bands are 95% Wilson intervals for each bin's share",
    )
    histogram = plots.distribution_chart(
        hists,
        title=f"How many turns a round takes ({base})",
        xlabel="turns in the round",
        ylabel="share of rounds",
        bin_width=5,
        xmax=xmax,
        caption=cap_h,
    )
    eps = dkw_eps(result.rounds[detail[0]])
    cap_e = caption(
        exp,
        f"Empirical CDF of turns per round, {base} rules",
        _n_rounds(result),
        intervals=f"bands are 95% DKW bands (+/-{eps:.3f})",
    )
    ecdf = plots.ecdf_chart(
        [(label, h, eps) for label, h in hists],
        title=f"Share of rounds finished within N turns ({base})",
        xlabel="turns in the round",
        xmax=xmax,
        caption=cap_e,
    )
    return [
        Chart("turns-histogram", histogram, cap_h, "histogram of turns per round"),
        Chart("turns-ecdf", ecdf, cap_e, "ECDF of turns by players"),
    ]


def _ecdf_rules_chart(result: GameLengthResult) -> Chart:
    from unocli.report import plots  # matplotlib only when drawing

    mid = result.mid
    arm_h = [(name, result.hists[(mid, name)]) for name in result.names]
    xmax = max(hist_quantile(h, 0.99)[0] for _, h in arm_h) + 10
    eps = dkw_eps(result.rounds[mid])
    cap = caption(
        result.exp,
        f"Empirical CDF of turns per round at {mid} players, one line per rule set",
        _n_rounds(result),
        intervals=f"bands are 95% DKW bands (+/-{eps:.3f})",
    )
    figure = plots.ecdf_chart(
        [(label, h, eps) for label, h in arm_h],
        title=f"Share of rounds finished within N turns, {mid} players",
        xlabel="turns in the round",
        xmax=xmax,
        caption=cap,
    )
    return Chart("turns-ecdf-rules", figure, cap, "ECDF of turns by rule set")


def _matches_chart(result: GameLengthResult) -> Chart:
    from unocli.report import plots  # matplotlib only when drawing

    m, players = result.matches, result.exp.players
    series = [
        plots.Series(
            name, m[m["rules"] == name]["rounds"], m[m["rules"] == name]["rounds_low"], m[m["rules"] == name]["rounds_high"]
        )
        for name in result.names
    ]
    n_m = f"{fmt.count(result.exp.options['match_games'])} matches per rule set and table size"
    cap = caption(result.exp, f"Mean rounds per match to {result.target} points, one line per rule set", n_m)
    figure = plots.line_chart(
        players,
        series,
        title=f"Rounds to finish a match to {result.target} points",
        xlabel="players at the table",
        ylabel="rounds per match (mean)",
        xticks=players,
        caption=cap,
    )
    return Chart("rounds-per-match", figure, cap, "rounds per match by players")


# ---------------------------------------------------------------- findings


def _findings(result: GameLengthResult) -> list[str]:
    base, players, turns = result.base, result.exp.players, result.turns
    b = turns[turns["rules"] == base].set_index("players")
    parts = [
        f"{p} players {fmt.num(b.loc[p, 'mean_turns'])} (median {int(b.loc[p, 'median'])}, p90 {int(b.loc[p, 'p90'])})"
        for p in players
    ]
    out = [f"Turns per round under {base} rules, mean: " + "; ".join(parts) + "."]
    m = result.matches[result.matches["rules"] == base].set_index("players")
    out.append(
        f"A match to {result.target} points takes on average "
        + "; ".join(f"{fmt.num(m.loc[p, 'rounds'])} rounds at {p} players" for p in players)
        + "."
    )
    at = result.diffs[result.diffs["players"] == result.mid] if len(result.diffs) else result.diffs
    if len(at):
        top = at.loc[at["diff"].abs().idxmax()]
        sig = "significant" if top["p_holm"] < 0.05 else "not significant"
        out.append(
            f"At {result.mid} players the rule set that changes length most is {top['rules']}: "
            f"{fmt.signed(top['diff'], 1)} turns per round ({fmt.fixed(100 * top['relative'], 0, sign=True)}%, 95% CI "
            f"{fmt.bounds(top['diff_low'], top['diff_high'], 1, 'signed')}, {sig} after Holm)."
        )
    out.append(
        f"Blocked rounds: {fmt.count(result.blocked)} of {fmt.count(result.total_rounds)} "
        f"({fmt.share(result.blocked / result.total_rounds, 3)}); rounds capped unfinished "
        f"after max_turns: {fmt.count(result.capped)}."
    )
    worst = turns[turns["capped_share"] > 0]
    if len(worst):
        top = worst.loc[worst["capped_share"].idxmax()]
        out.append(
            f"Capped rounds occur only under {', '.join(sorted(set(worst['rules'])))}, most at {top['players']} players under "
            f"{top['rules']} ({fmt.share(top['capped_share'], 2)} of rounds, each counted at the turn cap): they "
            f"inflate its mean, so read its median and percentiles instead."
        )
    return out
