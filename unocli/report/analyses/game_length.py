"""How long is a game? Turns per round by table size and rule set, and rounds per match to 500.

Every arm (rule set) is played at every table size on the same deals; each
table size also plays ``match_games`` whole matches per arm. Reports the mean
(t interval), median, p90 and p99 (order-statistic intervals) of turns per
round, the share of blocked and capped rounds (Wilson), the paired change of
every rule set from the baseline, histograms and ECDFs (DKW bands), and the
rounds a match to ``target_score`` takes.
"""

from __future__ import annotations

import pandas as pd

from unocli.report.analyses.common import (
    Context,
    caption,
    ci,
    dkw_eps,
    hist_quantile,
    num,
    pct,
    pct_ci,
    pvalue,
    quantile_text,
    run_compare,
    signed_ci,
)
from unocli.report.render import Chart, Section, TableBlock
from unocli.study.experiments import Experiment, players_list, positive_int
from unocli.study.stats import holm

OPTIONS = {
    "match_games": (1000, positive_int),
    "detail_players": ([2, 4, 7, 10], players_list),
}
ROUND_Q = ("turns", "cards_drawn", "reshuffles", "won", "blocked", "capped")
MATCH_Q = ("rounds", "rounds_blocked", "rounds_capped", "turns", "capped")


def run(exp: Experiment, ctx: Context) -> Section:
    from unocli.report import plots

    players = exp.players
    names = [a.name for a in exp.arms_for(players[0])]
    base = exp.baseline or names[0]
    rounds, matches = {}, {}
    for p in players:
        rounds[p] = run_compare(
            exp, ctx, exp.arms_for(p), baseline=base, quantities=ROUND_Q, target_on="mean", label=f"{p} players, rounds"
        )
    for p in players:
        matches[p] = run_compare(
            exp,
            ctx,
            exp.arms_for(p),
            games=exp.options["match_games"],
            baseline=base,
            match=True,
            quantities=MATCH_Q,
            label=f"{p} players, matches",
        )
    games = sum(c.games * len(c.arms) for c in rounds.values())
    games += sum(int(c.sums.s1[:, c.quantities.index("rounds")].sum()) for c in matches.values())

    # ------------------------------------------------------------ tables
    rows, shown = [], []
    for p in players:
        comp = rounds[p]
        for name in names:
            acc = comp.acc(name)
            m, _, lo, hi = comp.mean(name, "turns")
            med, p90, p99 = (hist_quantile(acc.turns_hist, q) for q in (0.5, 0.9, 0.99))
            blk, clo, chi = comp.mean(name, "blocked")[0], *comp.mean(name, "blocked")[2:]
            cap, kl, kh = comp.mean(name, "capped")[0], *comp.mean(name, "capped")[2:]
            rows.append(
                {
                    "players": p,
                    "rules": name,
                    "n": comp.games,
                    "mean_turns": m,
                    "ci_low": lo,
                    "ci_high": hi,
                    "median": med[0],
                    "median_low": med[1],
                    "median_high": med[2],
                    "p90": p90[0],
                    "p90_low": p90[1],
                    "p90_high": p90[2],
                    "p99": p99[0],
                    "p99_low": p99[1],
                    "p99_high": p99[2],
                    "blocked_share": blk,
                    "blocked_low": clo,
                    "blocked_high": chi,
                    "capped_share": cap,
                    "capped_low": kl,
                    "capped_high": kh,
                }
            )
            shown.append(
                {
                    "players": p,
                    "rules": name,
                    "n": f"{comp.games:,}",
                    "mean turns [95% CI]": ci(m, lo, hi),
                    "median": quantile_text(acc.turns_hist, 0.5),
                    "p90": quantile_text(acc.turns_hist, 0.9),
                    "p99": quantile_text(acc.turns_hist, 0.99),
                    "blocked": pct_ci(blk, clo, chi, 2),
                    "capped": pct_ci(cap, kl, kh, 2),
                }
            )
    turns_table = pd.DataFrame(rows)

    diff_rows = []
    for p in players:
        for name in names:
            if name == base:
                continue
            d = rounds[p].diff(name, base, "turns")
            bm = rounds[p].mean(base, "turns")[0]
            diff_rows.append(
                {
                    "players": p,
                    "rules": name,
                    "baseline": base,
                    "n": d["n"],
                    "diff": d["diff"],
                    "diff_low": d["ci_low"],
                    "diff_high": d["ci_high"],
                    "relative": d["diff"] / bm,
                    "p": d["p"],
                }
            )
    diffs = pd.DataFrame(diff_rows)
    if len(diffs):
        diffs["p_holm"] = holm(diffs["p"].to_numpy())

    match_rows, match_shown = [], []
    for p in players:
        comp = matches[p]
        for name in names:
            r, _, rlo, rhi = comp.mean(name, "rounds")
            b, _, blo, bhi = comp.mean(name, "rounds_blocked")
            c, _, clo, chi = comp.mean(name, "capped")
            t, _, tlo, thi = comp.mean(name, "turns")
            match_rows.append(
                {
                    "players": p,
                    "rules": name,
                    "n_matches": comp.games,
                    "rounds": r,
                    "rounds_low": rlo,
                    "rounds_high": rhi,
                    "turns": t,
                    "turns_low": tlo,
                    "turns_high": thi,
                    "blocked_rounds": b,
                    "blocked_low": blo,
                    "blocked_high": bhi,
                    "capped_share": c,
                    "capped_low": clo,
                    "capped_high": chi,
                }
            )
            match_shown.append(
                {
                    "players": p,
                    "rules": name,
                    "matches": f"{comp.games:,}",
                    "rounds per match [95% CI]": ci(r, rlo, rhi),
                    "turns per match": ci(t, tlo, thi),
                    "blocked rounds per match": ci(b, blo, bhi),
                    "capped matches": pct_ci(c, clo, chi, 2),
                }
            )
    match_table = pd.DataFrame(match_rows)

    # ------------------------------------------------------------ charts
    n_rounds = f"{rounds[players[0]].games:,} rounds per rule set and table size"
    charts = []
    series = []
    for name in names:
        sub = turns_table[turns_table["rules"] == name]
        series.append(plots.Series(name, sub["mean_turns"], sub["ci_low"], sub["ci_high"]))
    capped = turns_table[turns_table["capped_share"] > 0]
    note = ""
    if len(capped):
        note = (
            f"; {', '.join(sorted(set(capped['rules'])))} leaves up to {pct(capped['capped_share'].max(), 2)} of "
            f"rounds unfinished at the max_turns cap, counted at the cap, which inflates its mean"
        )
    cap_t = caption(exp, "Mean turns per round, one line per rule set" + note, n_rounds)
    charts.append(
        Chart(
            "turns-by-players",
            plots.line_chart(
                players,
                series,
                title="Mean turns per round by table size",
                xlabel="players at the table",
                ylabel="turns per round (mean)",
                xticks=players,
                caption=cap_t,
            ),
            cap_t,
            "mean turns per round by players",
        )
    )
    sub = turns_table[turns_table["rules"] == base]
    q_series = [
        plots.Series("mean", sub["mean_turns"], sub["ci_low"], sub["ci_high"]),
        plots.Series("median", sub["median"], sub["median_low"], sub["median_high"]),
        plots.Series("90th percentile", sub["p90"], sub["p90_low"], sub["p90_high"]),
        plots.Series("99th percentile", sub["p99"], sub["p99_low"], sub["p99_high"]),
    ]
    cap_q = caption(
        exp,
        f"Mean, median, 90th and 99th percentile of turns per round, {base} rules",
        n_rounds,
        intervals="error bars are 95% intervals (t for the mean, binomial order statistics for percentiles)",
    )
    charts.append(
        Chart(
            "turns-percentiles",
            plots.line_chart(
                players,
                q_series,
                band=False,
                title=f"Turns per round: typical and long rounds ({base})",
                xlabel="players at the table",
                ylabel="turns per round",
                xticks=players,
                caption=cap_q,
            ),
            cap_q,
            "percentiles of turns per round",
        )
    )
    detail = [p for p in exp.options["detail_players"] if p in players] or [players[0]]
    hists = [(f"{p} players", rounds[p].acc(base).turns_hist) for p in detail]
    xmax = max(hist_quantile(h, 0.995)[0] for _, h in hists) + 10
    cap_h = caption(
        exp,
        f"Distribution of turns per round, {base} rules, bins of 5 turns",
        n_rounds,
        intervals="bands are 95% Wilson intervals for each bin's share",
    )
    charts.append(
        Chart(
            "turns-histogram",
            plots.distribution_chart(
                hists,
                title=f"How many turns a round takes ({base})",
                xlabel="turns in the round",
                ylabel="share of rounds",
                bin_width=5,
                xmax=xmax,
                caption=cap_h,
            ),
            cap_h,
            "histogram of turns per round",
        )
    )
    n0 = rounds[detail[0]].games
    cap_e = caption(
        exp,
        f"Empirical CDF of turns per round, {base} rules",
        n_rounds,
        intervals=f"bands are 95% DKW bands (+/-{dkw_eps(n0):.3f})",
    )
    charts.append(
        Chart(
            "turns-ecdf",
            plots.ecdf_chart(
                [(label, h, dkw_eps(n0)) for label, h in hists],
                title=f"Share of rounds finished within N turns ({base})",
                xlabel="turns in the round",
                xmax=xmax,
                caption=cap_e,
            ),
            cap_e,
            "ECDF of turns by players",
        )
    )
    mid = 4 if 4 in players else players[len(players) // 2]
    arm_h = [(name, rounds[mid].acc(name).turns_hist) for name in names]
    xmax2 = max(hist_quantile(h, 0.99)[0] for _, h in arm_h) + 10
    cap_e2 = caption(
        exp,
        f"Empirical CDF of turns per round at {mid} players, one line per rule set",
        n_rounds,
        intervals=f"bands are 95% DKW bands (+/-{dkw_eps(rounds[mid].games):.3f})",
    )
    charts.append(
        Chart(
            "turns-ecdf-rules",
            plots.ecdf_chart(
                [(label, h, dkw_eps(rounds[mid].games)) for label, h in arm_h],
                title=f"Share of rounds finished within N turns, {mid} players",
                xlabel="turns in the round",
                xmax=xmax2,
                caption=cap_e2,
            ),
            cap_e2,
            "ECDF of turns by rule set",
        )
    )
    m_series = []
    for name in names:
        sub = match_table[match_table["rules"] == name]
        m_series.append(plots.Series(name, sub["rounds"], sub["rounds_low"], sub["rounds_high"]))
    target = exp.arms_for(players[0])[0].rules.target_score
    n_m = f"{exp.options['match_games']:,} matches per rule set and table size"
    cap_m = caption(exp, f"Mean rounds per match to {target} points, one line per rule set", n_m)
    charts.append(
        Chart(
            "rounds-per-match",
            plots.line_chart(
                players,
                m_series,
                title=f"Rounds to finish a match to {target} points",
                xlabel="players at the table",
                ylabel="rounds per match (mean)",
                xticks=players,
                caption=cap_m,
            ),
            cap_m,
            "rounds per match by players",
        )
    )

    # ------------------------------------------------------------ findings
    findings = _findings(turns_table, diffs, match_table, base, players, mid, target, rounds)
    diff_shown = (
        pd.DataFrame(
            {
                "players": diffs["players"],
                "rules": diffs["rules"],
                f"change in mean turns vs {base} [95% CI]": [
                    signed_ci(d, lo, hi) for d, lo, hi in zip(diffs["diff"], diffs["diff_low"], diffs["diff_high"], strict=True)
                ],
                "relative": [f"{100 * r:+.1f}%" for r in diffs["relative"]],
                "n (paired deals)": diffs["n"].map("{:,}".format),
                "p (Holm)": diffs["p_holm"].map(pvalue),
            }
        )
        if len(diffs)
        else pd.DataFrame()
    )
    blocks: list = [
        charts[0],
        charts[1],
        TableBlock(
            "turns",
            "Turns per round",
            pd.DataFrame(shown),
            turns_table,
            "Intervals: t for the mean, binomial order statistics for percentiles, Wilson for shares.",
        ),
        charts[2],
        charts[3],
        charts[4],
    ]
    if len(diffs):
        blocks.append(
            TableBlock("turns-vs-baseline", f"Change in mean turns from {base}, paired on the same deals", diff_shown, diffs)
        )
    blocks += [charts[5], TableBlock("matches", f"Matches to {target} points", pd.DataFrame(match_shown), match_table)]
    intro = (exp.description or "") + (
        f"\n\nRule sets: {', '.join(names)}; baseline {base}. Policy: every seat "
        f"plays `{exp.base.policy}`. Each table size plays the same deals under "
        f"every rule set."
    )
    return Section(name=exp.name, title=exp.title, intro=intro, findings=findings, blocks=blocks, meta={"games": games})


def _findings(
    turns: pd.DataFrame,
    diffs: pd.DataFrame,
    matches: pd.DataFrame,
    base: str,
    players: tuple[int, ...],
    mid: int,
    target: int,
    rounds: dict,
) -> list[str]:
    out = []
    b = turns[turns["rules"] == base].set_index("players")
    parts = [
        f"{p} players {num(b.loc[p, 'mean_turns'])} (median {int(b.loc[p, 'median'])}, p90 {int(b.loc[p, 'p90'])})"
        for p in players
    ]
    out.append(f"Turns per round under {base} rules, mean: " + "; ".join(parts) + ".")
    m = matches[matches["rules"] == base].set_index("players")
    out.append(
        f"A match to {target} points takes on average "
        + "; ".join(f"{num(m.loc[p, 'rounds'])} rounds at {p} players" for p in players)
        + "."
    )
    if len(diffs):
        at = diffs[diffs["players"] == mid]
        if len(at):
            top = at.loc[at["diff"].abs().idxmax()]
            sig = "significant" if top["p_holm"] < 0.05 else "not significant"
            out.append(
                f"At {mid} players the rule set that changes length most is {top['rules']}: "
                f"{top['diff']:+.1f} turns per round ({100 * top['relative']:+.0f}%, 95% CI "
                f"[{top['diff_low']:+.1f}, {top['diff_high']:+.1f}], {sig} after Holm)."
            )
    total = sum(c.games * len(c.arms) for c in rounds.values())
    blocked = sum(sum(c.sums.accs[k].outcomes[1] for k in range(len(c.arms))) for c in rounds.values())
    capped = sum(sum(c.sums.accs[k].outcomes[2] for k in range(len(c.arms))) for c in rounds.values())
    out.append(
        f"Blocked rounds: {blocked:,} of {total:,} ({pct(blocked / total, 3)}); rounds capped unfinished "
        f"after max_turns: {capped:,}."
    )
    worst = turns[turns["capped_share"] > 0]
    if len(worst):
        top = worst.loc[worst["capped_share"].idxmax()]
        rules_with = ", ".join(sorted(set(worst["rules"])))
        out.append(
            f"Capped rounds occur only under {rules_with}, most at {top['players']} players under "
            f"{top['rules']} ({pct(top['capped_share'], 2)} of rounds, each counted at the turn cap): they "
            f"inflate its mean, so read its median and percentiles instead."
        )
    return out


def check(exp: Experiment) -> str | None:
    if not exp.arms:
        return "arms: the game-length analysis needs at least one [arms.NAME] rule set"
    return None
