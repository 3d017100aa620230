"""A plain paired comparison of the experiment's arms at each table size: every metric, every arm."""

from __future__ import annotations

import pandas as pd

from unocli.report.analyses.common import Context, caption, ci, pct_ci, pp_ci, pvalue, run_compare, signed_ci
from unocli.report.render import Chart, Section, TableBlock
from unocli.study.experiments import Experiment
from unocli.study.stats import holm

OPTIONS: dict = {}


def check(exp: Experiment) -> str | None:
    if not exp.arms:
        return "arms: a comparison needs at least one [arms.NAME] table"
    return None


def run(exp: Experiment, ctx: Context) -> Section:
    from unocli.report import plots
    from unocli.study.compare import is_binary

    frames = []
    for p in exp.players:
        comp = run_compare(
            exp, ctx, exp.arms_for(p), baseline=exp.baseline, quantities=exp.metrics, match=exp.match, label=f"{p} players"
        )
        df = comp.table(exp.metrics)
        df.insert(0, "players", p)
        frames.append(df)
    table = pd.concat(frames, ignore_index=True)
    mask = table["diff"].notna()
    table.loc[mask, "p_holm"] = holm(table.loc[mask, "p"].to_numpy()) if mask.any() else []
    base = table["baseline"].iloc[0]
    shown = pd.DataFrame(
        {
            "players": table["players"],
            "arm": table["arm"],
            "metric": table["metric"],
            "n": table["n"].map("{:,}".format),
            "mean [95% CI]": [
                pct_ci(m, lo, hi, 2) if is_binary(q) else ci(m, lo, hi)
                for m, lo, hi, q in zip(table["mean"], table["ci_low"], table["ci_high"], table["metric"], strict=True)
            ],
            f"difference from {base} [paired 95% CI]": [
                "" if pd.isna(d) else (pp_ci(d, lo, hi) if is_binary(q) else signed_ci(d, lo, hi))
                for d, lo, hi, q in zip(table["diff"], table["diff_low"], table["diff_high"], table["metric"], strict=True)
            ],
            "p (Holm)": table["p_holm"].map(pvalue),
        }
    )
    unit = "matches" if exp.match else "rounds"
    n_text = f"{int(table['n'].iloc[0]):,} {unit} per arm and table size, all arms on the same deals"
    blocks: list = []
    others = [a.name for a in exp.arms if a.name != base]
    for metric in exp.metrics:
        if not others:
            break
        sub = table[(table["metric"] == metric) & table["diff"].notna()]
        series = [
            plots.Series(
                f"{p} players",
                sub[sub["players"] == p]["diff"],
                sub[sub["players"] == p]["diff_low"],
                sub[sub["players"] == p]["diff_high"],
            )
            for p in exp.players
        ]
        cap = caption(
            exp, f"Paired difference in {metric} from {base}", n_text, intervals="error bars are paired 95% t intervals"
        )
        blocks.append(
            Chart(
                f"diff-{metric}",
                plots.dot_chart(
                    others,
                    series,
                    title=f"Change in {metric} from {base}",
                    xlabel=f"{metric} minus {base}",
                    caption=cap,
                    percent=is_binary(metric),
                ),
                cap,
                f"difference in {metric}",
            )
        )
    blocks.append(TableBlock("comparison", "Every arm and metric", shown, table))
    findings = []
    for r in table[mask].itertuples():
        if r.p_holm < 0.05:
            findings.append(
                f"{r.arm} changes {r.metric} by {r.diff:+.4g} [{r.diff_low:+.4g}, {r.diff_high:+.4g}] "
                f"at {r.players} players (Holm p {pvalue(r.p_holm)})."
            )
    if not findings:
        findings.append(f"No arm differs significantly from {base} in any metric after Holm adjustment.")
    games = int(table.groupby("players")["n"].first().sum()) * len(exp.arms)
    return Section(
        name=exp.name, title=exp.title, intro=exp.description, findings=findings[:12], blocks=blocks, meta={"games": games}
    )
