"""What does stacking change? Each stacking variant against ``off``, paired, at every table size.

The arms are the stacking variants (rule sets differing in ``stacking``); at
each table size they play the same deals. Reported per variant and table
size: the paired change in turns and cards drawn, the distribution of the
longest penalty chain (``max_stack``), the first player's win share (Wilson)
and its paired change, and balance in Ludii's sense (1 minus the largest gap
between two seats' win shares, block-bootstrap interval). At
``versus_players``, seat 0 also plays the ``challenger`` policy (default
``aggressive``) among the base policy, and its win-share change against the
base policy at the same seat on the same deals measures how the challenger
fares under each variant.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from unocli.game.policies import parse_policy_spec
from unocli.report.analyses.common import (
    Context,
    balance,
    caption,
    ci,
    fair_balance,
    interval,
    pct_ci,
    pp_ci,
    pvalue,
    run_compare,
    seat_columns,
    signed_ci,
)
from unocli.report.render import Chart, Section, TableBlock
from unocli.study.compare import Arm
from unocli.study.experiments import Experiment, players_list, policy_spec, positive_int
from unocli.study.stats import wilson

OPTIONS = {
    "versus_players": ([4], players_list),
    "challenger": ("aggressive", policy_spec),
    "stack_players": ([4], players_list),
    "replicates": (1000, positive_int),
}
STACK_BINS = 9  # longest stack 0..7, and 8 or more


def check(exp: Experiment) -> str | None:
    if len(exp.arms) < 2:
        return "arms: the stacking analysis needs a baseline arm and at least one stacking variant"
    return None


def run(exp: Experiment, ctx: Context) -> Section:
    from unocli.report import plots

    opt = exp.options
    players = exp.players
    names = [a.name for a in exp.arms]
    base = exp.baseline or names[0]
    challenger = parse_policy_spec(opt["challenger"])
    results, shown, diff_rows, versus_rows, stack_rows = {}, [], [], [], []
    for p in players:
        arms = list(exp.arms_for(p))
        quantities = ("turns", "cards_drawn", "max_stack", "won", *(f"win_{s}" for s in range(p)))
        pairs = [(a.name, base) for a in arms if a.name != base]
        if p in opt["versus_players"]:
            for a in list(arms):
                arms.append(Arm(f"{a.name}+{opt['challenger']}", a.rules, (challenger, *a.policies[1:])))
                pairs.append((arms[-1].name, a.name))
        comp = run_compare(exp, ctx, arms, baseline=base, quantities=quantities, pairs=pairs, label=f"{p} players")
        results[p] = comp
        boot = comp.boot_means(opt["replicates"], seed=exp.seed % (2**32) + p)
        cols = seat_columns(comp, p)
        bal = balance(comp.means()[:, cols])
        bal_b = balance(boot[:, :, cols])
        kb = comp.index(base)
        for name in names:
            k = comp.index(name)
            t = comp.mean(name, "turns")
            w = comp.mean(name, "win_0")
            bl, bh = interval(bal_b[:, k])
            row = {
                "players": p,
                "stacking": name,
                "n": comp.games,
                "turns": t[0],
                "turns_low": t[2],
                "turns_high": t[3],
                "first_player_share": w[0],
                "first_low": w[2],
                "first_high": w[3],
                "balance": bal[k],
                "balance_low": bl,
                "balance_high": bh,
            }
            if name != base:
                for metric in ("turns", "cards_drawn", "win_0"):
                    d = comp.diff(name, base, metric)
                    row |= {
                        f"d_{metric}": d["diff"],
                        f"d_{metric}_low": d["ci_low"],
                        f"d_{metric}_high": d["ci_high"],
                        f"p_{metric}": d["p"],
                    }
                dl, dh = interval(bal_b[:, k] - bal_b[:, kb])
                row |= {"d_balance": bal[k] - bal[kb], "d_balance_low": dl, "d_balance_high": dh}
            diff_rows.append(row)
            shown.append(
                {
                    "players": p,
                    "stacking": name,
                    "n": f"{comp.games:,}",
                    "turns": ci(*t[:1], *t[2:]),
                    "first player wins": pct_ci(w[0], w[2], w[3]),
                    "balance": f"{bal[k]:.3f} [{bl:.3f}, {bh:.3f}]",
                }
            )
            hist = comp.acc(name).stack_hist
            total = hist.sum()
            dist = np.append(hist[: STACK_BINS - 1], hist[STACK_BINS - 1 :].sum()) / total
            ms = comp.mean(name, "max_stack")
            at_least = {f"p_at_least_{k}": wilson(int(hist[k:].sum()), int(total)) for k in (2, 3, 4)}
            stack_rows.append(
                {
                    "players": p,
                    "stacking": name,
                    "n": int(total),
                    "mean_max_stack": ms[0],
                    "mean_low": ms[2],
                    "mean_high": ms[3],
                    **{key: w[0] for key, w in at_least.items()},
                    **{f"{key}_low": w[1] for key, w in at_least.items()},
                    **{f"{key}_high": w[2] for key, w in at_least.items()},
                    **{f"share_{k}" if k < STACK_BINS - 1 else f"share_{k}_or_more": dist[k] for k in range(STACK_BINS)},
                    "longest_seen": int(np.flatnonzero(hist).max()),
                }
            )
            if p in opt["versus_players"]:
                d = comp.diff(f"{name}+{opt['challenger']}", name, "win_0")
                versus_rows.append(
                    {
                        "players": p,
                        "stacking": name,
                        "n": comp.games,
                        "diff": d["diff"],
                        "diff_low": d["ci_low"],
                        "diff_high": d["ci_high"],
                        "p": d["p"],
                    }
                )
    table = pd.DataFrame(diff_rows)
    from unocli.study.stats import holm

    variants = [n for n in names if n != base]
    effects = table[table["stacking"] != base].copy()
    for metric in ("turns", "cards_drawn", "win_0"):
        effects[f"p_{metric}_holm"] = holm(effects[f"p_{metric}"].to_numpy())
    versus = pd.DataFrame(versus_rows)
    if len(versus):
        versus["p_holm"] = holm(versus["p"].to_numpy())

    # ------------------------------------------------------------ charts
    n_text = f"{results[players[0]].games:,} deals per table size, every variant on the same deals"
    charts = []

    def effect_chart(metric: str, label: str, name: str, title: str) -> Chart:
        series = [
            plots.Series(
                v,
                effects[effects["stacking"] == v][f"d_{metric}"],
                effects[effects["stacking"] == v][f"d_{metric}_low"],
                effects[effects["stacking"] == v][f"d_{metric}_high"],
            )
            for v in variants
        ]
        cap = caption(
            exp,
            f"Change in {label} per round against stacking {base}, paired on the same deals",
            n_text,
            intervals="error bars are paired 95% t intervals",
        )
        fig = plots.line_chart(
            players,
            series,
            band=False,
            title=title,
            xlabel="players at the table",
            ylabel=f"change in {label} vs {base}",
            xticks=players,
            hline=0.0,
            caption=cap,
        )
        return Chart(name, fig, cap, title)

    charts.append(effect_chart("turns", "turns", "stacking-turns", "Stacking changes how long a round lasts"))
    charts.append(effect_chart("cards_drawn", "cards drawn", "stacking-cards-drawn", "Stacking changes how many cards are drawn"))
    for sp in [p for p in opt["stack_players"] if p in players] or [players[0]]:
        comp = results[sp]
        ks = list(range(1, STACK_BINS))
        series = []
        for v in names:
            hist = comp.acc(v).stack_hist
            total = int(hist.sum())
            ws = [wilson(int(hist[k:].sum()), total) for k in ks]
            ys = [w[0] if w[0] > 0 else np.nan for w in ws]
            series.append(
                plots.Series(v, ys, [w[1] if w[0] > 0 else np.nan for w in ws], [w[2] if w[0] > 0 else np.nan for w in ws])
            )
        cap = caption(
            exp,
            f"Share of rounds whose longest penalty chain (+2/+4 cards answered in one chain) has at least k cards, {sp} players",
            f"{comp.games:,} rounds per variant",
            intervals="bands are 95% Wilson intervals; log scale; shares of 0 are not drawn",
        )
        charts.append(
            Chart(
                f"longest-stack-{sp}p",
                plots.line_chart(
                    ks,
                    series,
                    title=f"How long do penalty chains get? {sp} players",
                    xlabel="k: cards in the chain",
                    ylabel="share of rounds with a chain of k or more",
                    log=True,
                    percent=True,
                    xticks=ks,
                    caption=cap,
                ),
                cap,
                "longest stack distribution",
            )
        )
    series = [
        plots.Series(
            v,
            table[table["stacking"] == v]["first_player_share"],
            table[table["stacking"] == v]["first_low"],
            table[table["stacking"] == v]["first_high"],
        )
        for v in names
    ]
    fair = plots.Series("fair share 1/n", [1 / p for p in players])
    cap = caption(
        exp,
        "First player's (seat 0) share of rounds won",
        n_text,
        intervals="error bars are 95% Wilson intervals; dashed line: a fair share 1/n",
    )
    charts.append(
        Chart(
            "stacking-first-player",
            plots.line_chart(
                players,
                series,
                band=False,
                title="First-player advantage under each stacking variant",
                xlabel="players at the table",
                ylabel="seat 0 win share",
                xticks=players,
                percent=True,
                reference=fair,
                caption=cap,
            ),
            cap,
            "first player win share",
        )
    )
    series = [
        plots.Series(
            v,
            table[table["stacking"] == v]["balance"],
            table[table["stacking"] == v]["balance_low"],
            table[table["stacking"] == v]["balance_high"],
        )
        for v in names
    ]
    fair = plots.Series("a perfectly fair game at this n", [fair_balance(results[p].games, p) for p in players])
    cap = caption(
        exp,
        "Balance (1 minus the largest gap between two seats' win shares; 1 = perfectly balanced). "
        "Sampling noise alone keeps measured balance below 1: the dashed line is what a perfectly fair "
        "game would show at this sample size",
        n_text,
        intervals="error bars are 95% block-bootstrap intervals",
    )
    charts.append(
        Chart(
            "stacking-balance",
            plots.line_chart(
                players,
                series,
                band=False,
                title="Balance between seats",
                xlabel="players at the table",
                ylabel="balance",
                xticks=players,
                caption=cap,
                reference=fair,
            ),
            cap,
            "balance by players",
        )
    )
    if len(versus):
        vp = versus["players"].iloc[0]
        cap = caption(
            exp,
            f"Win-share change of one {opt['challenger']} player at seat 0 among "
            f"{exp.base.policy} players, against {exp.base.policy} at the same seat on the same deals, "
            f"{vp} players",
            f"{versus['n'].iloc[0]:,} paired deals per variant",
            intervals="error bars are paired 95% t intervals",
        )
        charts.append(
            Chart(
                "challenger-vs-base",
                plots.dot_chart(
                    [f"{r.stacking} ({r.players}p)" for r in versus.itertuples()],
                    [plots.Series("change", versus["diff"], versus["diff_low"], versus["diff_high"])],
                    title=f"How {opt['challenger']} fares against {exp.base.policy} under each variant",
                    xlabel="win-share change (share of rounds)",
                    caption=cap,
                    percent=True,
                ),
                cap,
                "challenger vs base",
            )
        )

    # ------------------------------------------------------------ tables and findings
    eff_shown = pd.DataFrame(
        {
            "players": effects["players"],
            "stacking": effects["stacking"],
            "turns": [
                signed_ci(*x, 1) for x in zip(effects["d_turns"], effects["d_turns_low"], effects["d_turns_high"], strict=True)
            ],
            "cards drawn": [
                signed_ci(*x, 1)
                for x in zip(effects["d_cards_drawn"], effects["d_cards_drawn_low"], effects["d_cards_drawn_high"], strict=True)
            ],
            "first player wins": [
                pp_ci(*x) for x in zip(effects["d_win_0"], effects["d_win_0_low"], effects["d_win_0_high"], strict=True)
            ],
            "balance": [
                f"{d:+.3f} [{lo:+.3f}, {hi:+.3f}]"
                for d, lo, hi in zip(effects["d_balance"], effects["d_balance_low"], effects["d_balance_high"], strict=True)
            ],
            "p turns (Holm)": effects["p_turns_holm"].map(pvalue),
            "p first player (Holm)": effects["p_win_0_holm"].map(pvalue),
        }
    )
    stacks = pd.DataFrame(stack_rows)
    stack_shown = stacks[["players", "stacking", "n"]].copy()
    stack_shown["mean longest stack"] = [
        ci(m, lo, hi) for m, lo, hi in zip(stacks["mean_max_stack"], stacks["mean_low"], stacks["mean_high"], strict=True)
    ]
    for k in (2, 3, 4):
        stack_shown[f"P(longest >= {k})"] = [
            pct_ci(m, lo, hi, 2)
            for m, lo, hi in zip(
                stacks[f"p_at_least_{k}"], stacks[f"p_at_least_{k}_low"], stacks[f"p_at_least_{k}_high"], strict=True
            )
        ]
    stack_shown["longest seen"] = stacks["longest_seen"]
    findings = _findings(effects, versus, table, base, players, opt["challenger"], exp.base.policy, stacks)
    blocks: list = [
        charts[0],
        charts[1],
        TableBlock("stacking-effects", f"Change from stacking {base}, paired on the same deals (95% CI)", eff_shown, effects),
        *[c for c in charts if c.name.startswith("longest-stack")],
        TableBlock("longest-stack", "Longest penalty chain per round", stack_shown, stacks),
        *[c for c in charts if c.name in ("stacking-first-player", "stacking-balance")],
        TableBlock("stacking-arms", "Each variant: turns, first-player share and balance", pd.DataFrame(shown), table),
    ]
    if len(versus):
        blocks.append(charts[-1])
        blocks.append(
            TableBlock(
                "challenger-vs-base",
                f"{opt['challenger']} at seat 0 against {exp.base.policy}, paired",
                pd.DataFrame(
                    {
                        "players": versus["players"],
                        "stacking": versus["stacking"],
                        "win-share change [95% CI]": [
                            pp_ci(*x) for x in zip(versus["diff"], versus["diff_low"], versus["diff_high"], strict=True)
                        ],
                        "n (paired deals)": versus["n"].map("{:,}".format),
                        "p (Holm)": versus["p_holm"].map(pvalue),
                    }
                ),
                versus,
            )
        )
    games = sum(c.games * len(c.arms) for c in results.values())
    intro = (exp.description or "") + f"\n\nVariants: {', '.join(names)} (baseline {base}); every seat plays `{exp.base.policy}`."
    return Section(name=exp.name, title=exp.title, intro=intro, findings=findings, blocks=blocks, meta={"games": games})


def _findings(
    effects: pd.DataFrame,
    versus: pd.DataFrame,
    table: pd.DataFrame,
    base: str,
    players,
    challenger: str,
    policy: str,
    stacks: pd.DataFrame,
) -> list[str]:
    out = []
    mid = 4 if 4 in players else players[0]
    at_mid = stacks[stacks["players"] == mid]
    parts = [f"{r.stacking} {100 * r.p_at_least_3:.1f}%" for r in at_mid.itertuples() if r.stacking != base]
    out.append(
        f"Penalty chains: at {mid} players the share of rounds with a chain of 3 or more +2/+4 cards is "
        + ", ".join(parts)
        + f" (impossible with stacking {base}); the longest chain seen was "
        f"{int(stacks['longest_seen'].max())} cards."
    )
    for metric, label in (("turns", "turns per round"), ("cards_drawn", "cards drawn per round")):
        lo_row = effects.loc[effects[f"d_{metric}"].idxmin()]
        hi_row = effects.loc[effects[f"d_{metric}"].idxmax()]
        out.append(
            f"Change in {label} against {base}: from {lo_row[f'd_{metric}']:+.1f} ({lo_row['stacking']}, "
            f"{lo_row['players']} players) to {hi_row[f'd_{metric}']:+.1f} ({hi_row['stacking']}, "
            f"{hi_row['players']} players)."
        )
    at = effects[effects["players"] == mid]
    parts = [f"{r.stacking} {r.d_turns:+.1f} turns [{r.d_turns_low:+.1f}, {r.d_turns_high:+.1f}]" for r in at.itertuples()]
    out.append(f"At {mid} players: " + "; ".join(parts) + ".")
    sig = effects[effects["p_win_0_holm"] < 0.05]
    out.append(
        f"First-player advantage: {len(sig)} of {len(effects)} variant x table-size changes are significant "
        f"after Holm" + (f" (largest {100 * sig['d_win_0'].abs().max():.2f} pp)" if len(sig) else "") + "."
    )
    b = table[table["stacking"] == base]
    out.append(
        f"Balance under {base}: from {b['balance'].min():.3f} to {b['balance'].max():.3f} across table sizes; "
        f"largest change from stacking {effects['d_balance'].abs().max():.3f}."
    )
    if len(versus):
        parts = [
            f"{r.stacking} {100 * r.diff:+.2f} pp [{100 * r.diff_low:+.2f}, {100 * r.diff_high:+.2f}]"
            for r in versus.itertuples()
        ]
        spread = 100 * (versus["diff"].max() - versus["diff"].min())
        verdict = "better" if (versus["diff_low"] > 0).all() else "worse" if (versus["diff_high"] < 0).all() else None
        summary = (
            f"{challenger} does {verdict} than {policy} under every variant, and the variants move its "
            f"margin by at most {spread:.2f} pp"
            if verdict
            else f"{challenger} against {policy}"
        )
        out.append(
            f"One {challenger} player among {policy} players (seat 0, against {policy} at the same seat on "
            f"the same deals): {summary}: " + "; ".join(parts) + "."
        )
    return out
