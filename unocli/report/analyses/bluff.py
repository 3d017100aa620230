"""When does bluffing a +4 pay? A bluffer at seat 0 against opponents with a challenge rate.

Every cell of the grid bluff rate b x challenge rate c is one arm: seat 0 plays
the ``bluffer`` policy with ``bluff = b``; every other seat plays the
``opponents`` policy with ``challenge = c`` and never bluffs. All cells are
played on the same deals, so:

- the bluffer's gain is its win share minus that of its *honest twin*
  (``b = 0``, same c, same deals): a paired difference;
- the value of challenging for the victims is an opponent's win share at
  (b, c) minus at (b, 0), also paired;
- the break-even challenge rate is where the gain, averaged over the bluff
  rates above 0, crosses zero (linear interpolation between grid points);
- the equilibrium is found by alternating best responses: the bluffer picks
  the bluff rate that maximises its win share against the opponents' history
  of challenge rates, the opponents the challenge rate that minimises it
  against the bluffer's history (fictitious play, which converges in a
  zero-sum game such as this one: the opponents win exactly when the bluffer
  does not, up to blocked rounds). Plain alternating best responses between
  single grid points are reported too; they cycle when no grid point is stable.

Uncertainty of every derived figure (break-even rate, equilibrium, per-bluff
ratios) comes from a bootstrap over blocks of deals, which keeps the pairing.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from unocli.game.policies import Respond, parse_policy_spec
from unocli.report.analyses.common import Context, caption, interval, pp, pp_ci, pvalue, run_compare
from unocli.report.render import Chart, Section, TableBlock
from unocli.study.compare import Arm
from unocli.study.experiments import Experiment, players_list, policy_spec, positive_int, probability_list
from unocli.study.stats import holm
from unocli.study.sweep import parse_values

OPTIONS = {
    "bluff_rates": ("0:1:0.1", probability_list),
    "challenge_rates": ("0:1:0.1", probability_list),
    "bluffer": ("basic", policy_spec),
    "opponents": ("basic", policy_spec),
    "replicates": (1000, positive_int),
    "also_players": ([2, 6], players_list),
}
QUANTITIES = ("win_0", "lose_0", "won", "bluffs", "challenges", "challenges_won", "plus4_played", "cards_left_0")
FP_ITERATIONS = 3000


def check(exp: Experiment) -> str | None:
    b = [float(v) for v in parse_values(exp.options["bluff_rates"])]
    c = [float(v) for v in parse_values(exp.options["challenge_rates"])]
    if 0.0 not in b or len(b) < 2:
        return "options.bluff_rates: must hold 0 (the honest twin) and at least one other rate"
    if 0.0 not in c or len(c) < 2:
        return "options.challenge_rates: must hold 0 (never challenging) and at least one other rate"
    if len(exp.players) != 1:
        return "players: the bluff analysis plays one table size"
    if parse_policy_spec(exp.options["opponents"]).respond is not Respond.KNOBS:
        return "options.opponents: the challenge rate needs a policy with respond=knobs (such as basic)"
    return None


def cell(b: float, c: float) -> str:
    return f"b={b:g},c={c:g}"


def fictitious_play(w: np.ndarray, iterations: int = FP_ITERATIONS) -> tuple[np.ndarray, np.ndarray]:
    """Mixtures over rows (maximiser) and columns (minimiser) after alternating best responses to the
    other side's history; ``w`` is ``[..., rows, cols]`` (leading axes are independent games)."""
    lead = w.shape[:-2]
    rows, cols = w.shape[-2:]
    cr = np.zeros((*lead, rows))
    cc = np.zeros((*lead, cols))
    cr[..., 0] = 1
    cc[..., 0] = 1
    flat_r, flat_c = cr.reshape(-1, rows), cc.reshape(-1, cols)
    ww = w.reshape(-1, rows, cols)
    at = np.arange(ww.shape[0])
    for _ in range(iterations):
        i = np.argmax(np.einsum("grc,gc->gr", ww, flat_c), axis=1)
        flat_r[at, i] += 1
        j = np.argmin(np.einsum("gr,grc->gc", flat_r, ww), axis=1)
        flat_c[at, j] += 1
    return cr / cr.sum(axis=-1, keepdims=True), cc / cc.sum(axis=-1, keepdims=True)


def pure_path(w: np.ndarray) -> list[tuple[int, int]]:
    """Alternating pure best responses from (0, 0) until a grid point repeats."""
    i, j = 0, 0
    seen = [(i, j)]
    while True:
        i = int(np.argmax(w[:, j]))
        j = int(np.argmin(w[i, :]))
        if (i, j) in seen:
            return [*seen, (i, j)]
        seen.append((i, j))


def crossing(xs: np.ndarray, ys: np.ndarray) -> np.ndarray:
    """Where each row of ``ys`` first falls from above 0 to 0 or below (interpolated between grid points).

    ``-inf``: at or below 0 already at ``xs[0]`` (bluffing never pays); ``inf``: never falls (always pays).
    """
    ys = np.atleast_2d(ys)
    out = np.full(ys.shape[0], np.inf)
    for r, y in enumerate(ys):
        if y[0] <= 0:
            out[r] = -np.inf
            continue
        below = np.flatnonzero(y <= 0)
        if below.size:
            k = below[0]
            out[r] = xs[k - 1] + (xs[k] - xs[k - 1]) * y[k - 1] / (y[k - 1] - y[k])
    return out


def rate_text(x: float, top: float) -> str:
    if x == -np.inf:
        return "never pays"
    if x == np.inf:
        return f"pays beyond {top:g}"
    return f"{x:.2f}"


def rate_ci(samples: np.ndarray, top: float) -> tuple[float, float, str]:
    """Percentile interval of bootstrap break-even rates (which may be -inf or inf), with its text."""
    s = np.sort(np.asarray(samples, float))
    lo, hi = s[int(0.025 * (len(s) - 1))], s[int(np.ceil(0.975 * (len(s) - 1)))]
    if lo == hi and not math.isfinite(lo):
        return float(lo), float(hi), f"({rate_text(lo, top)} in at least 97.5% of {len(s)} bootstrap replicates)"
    return float(lo), float(hi), f"[{rate_text(lo, top)}, {rate_text(hi, top)}]"


def run(exp: Experiment, ctx: Context) -> Section:
    from unocli.report import plots

    opt = exp.options
    bvals = np.array(sorted({float(v) for v in parse_values(opt["bluff_rates"])}))
    cvals = np.array(sorted({float(v) for v in parse_values(opt["challenge_rates"])}))
    n = exp.players[0]
    rules = exp.base.build(players=n).rules
    bluffer, opponent = parse_policy_spec(opt["bluffer"]), parse_policy_spec(opt["opponents"])
    arms, idx = [], np.zeros((len(bvals), len(cvals)), int)
    for i, b in enumerate(bvals):
        for j, c in enumerate(cvals):
            idx[i, j] = len(arms)
            pols = (bluffer.replace(bluff=b),) + (opponent.replace(challenge=c, bluff=0.0),) * (n - 1)
            arms.append(Arm(cell(b, c), rules, pols))
    pairs = [(cell(b, c), cell(0.0, c)) for b in bvals[1:] for c in cvals]
    pairs += [(cell(b, c), cell(b, 0.0)) for b in bvals for c in cvals[1:]]
    comp = run_compare(
        exp,
        ctx,
        arms,
        quantities=QUANTITIES,
        pairs=pairs,
        metric="win_0",
        label=f"{len(bvals)} bluff x {len(cvals)} challenge rates",
    )
    q = {name: comp.quantities.index(name) for name in QUANTITIES}
    means = comp.means()
    boot = comp.boot_means(opt["replicates"], seed=exp.seed % (2**32))
    w, wb = means[idx, q["win_0"]], boot[:, idx, q["win_0"]]
    gain, gain_b = w - w[0], wb - wb[:, :1]
    gain_ci = np.zeros((len(bvals), len(cvals), 3))
    value_ci = np.zeros((len(bvals), len(cvals), 3))
    pvals = np.ones((len(bvals), len(cvals)))
    for i, b in enumerate(bvals):
        for j, c in enumerate(cvals):
            if i:
                d = comp.diff(cell(b, c), cell(0.0, c), "win_0")
                gain_ci[i, j], pvals[i, j] = (d["diff"], d["ci_low"], d["ci_high"]), d["p"]
            if j:
                d = comp.diff(cell(b, c), cell(b, 0.0), "lose_0")
                value_ci[i, j] = np.array([d["diff"], d["ci_low"], d["ci_high"]]) / (n - 1)
    p_holm = np.ones_like(pvals)
    p_holm[1:] = holm(pvals[1:].ravel()).reshape(pvals[1:].shape)

    # break-even challenge rate: pooled over bluff rates > 0, and per bluff rate
    pooled, pooled_b = gain[1:].mean(axis=0), gain_b[:, 1:].mean(axis=1)
    c_star = float(crossing(cvals, pooled)[0])
    c_star_b = crossing(cvals, pooled_b)
    _, _, c_text = rate_ci(c_star_b, cvals[-1])
    row_cross = []
    for i, b in enumerate(bvals[1:], start=1):
        point = float(crossing(cvals, gain[i])[0])
        _, _, text = rate_ci(crossing(cvals, gain_b[:, i]), cvals[-1])
        row_cross.append({"bluff_rate": b, "break_even_challenge": point, "ci": text, "n": comp.games})

    # equilibrium: fictitious play on the point estimate and on each bootstrap replicate
    p_mix, q_mix = fictitious_play(w)
    b_eq, c_eq = float(p_mix @ bvals), float(q_mix @ cvals)
    pb, qb = fictitious_play(wb)
    b_eq_b, c_eq_b = pb @ bvals, qb @ cvals
    value, value_b = float(p_mix @ w @ q_mix), np.einsum("gr,grc,gc->g", pb, wb, qb)
    bi, cj = int(np.argmin(abs(bvals - b_eq))), int(np.argmin(abs(cvals - c_eq)))
    gain_bluffer = w[:, cj].max() - w[bi, cj]
    gain_opp = (w[bi, cj] - w[bi, :].min()) / (n - 1)
    gbl = interval(wb[:, :, cj].max(axis=1) - wb[:, bi, cj])
    gop = interval((wb[:, bi, cj] - wb[:, bi, :].min(axis=1)) / (n - 1))
    path = pure_path(w)

    # per bluff, pooled over bluff rates > 0, by challenge rate
    def per_bluff(m: np.ndarray) -> dict[str, np.ndarray]:
        bl = m[..., idx[1:], q["bluffs"]].sum(axis=-2)
        won = m[..., idx[1:], q["challenges_won"]].sum(axis=-2)
        dwin = (m[..., idx[1:], q["win_0"]] - m[..., idx[:1], q["win_0"]]).sum(axis=-2)
        dcards = (m[..., idx[1:], q["cards_left_0"]] - m[..., idx[:1], q["cards_left_0"]]).sum(axis=-2)
        with np.errstate(invalid="ignore", divide="ignore"):
            return {"caught": won / bl, "win": dwin / bl, "cards": dcards / bl}

    pb_point, pb_boot = per_bluff(means), per_bluff(boot)
    bluff_rows, bluff_shown = [], []
    for j, c in enumerate(cvals):
        row = {"challenge_rate": c, "n": comp.games}
        shown = {"challenge rate": f"{c:g}"}
        for key, label, scale in (
            ("caught", "share of bluffs caught", 1),
            ("win", "win share per bluff", 100),
            ("cards", "bluffer's cards left per bluff", 1),
        ):
            lo, hi = interval(pb_boot[key][:, j])
            row |= {key: pb_point[key][j], f"{key}_low": lo, f"{key}_high": hi}
            unit = " pp" if scale == 100 else ""
            shown[label] = (
                f"{scale * pb_point[key][j]:+.3f}{unit} [{scale * lo:+.3f}, {scale * hi:+.3f}]"
                if key != "caught"
                else f"{pb_point[key][j]:.3f} [{lo:.3f}, {hi:.3f}]"
            )
        shown["cards the bluffer draws per bluff"] = f"{4 * pb_point['caught'][j]:.2f}"
        shown["cards the victim draws per bluff"] = f"{4 * (1 - pb_point['caught'][j]):.2f}"
        bluff_rows.append(row)
        bluff_shown.append(shown)

    # ------------------------------------------------------------ report
    grid_rows = []
    for i, b in enumerate(bvals):
        for j, c in enumerate(cvals):
            k = idx[i, j]
            m0, _, lo0, hi0 = comp.mean(arms[k].name, "win_0")
            grid_rows.append(
                {
                    "bluff_rate": b,
                    "challenge_rate": c,
                    "n": comp.games,
                    "win_share": m0,
                    "win_low": lo0,
                    "win_high": hi0,
                    "gain_vs_honest": gain_ci[i, j, 0],
                    "gain_low": gain_ci[i, j, 1],
                    "gain_high": gain_ci[i, j, 2],
                    "p_holm": p_holm[i, j] if i else math.nan,
                    "challenge_value_per_opponent": value_ci[i, j, 0],
                    "value_low": value_ci[i, j, 1],
                    "value_high": value_ci[i, j, 2],
                    "bluffs_per_round": means[k, q["bluffs"]],
                    "caught_per_round": means[k, q["challenges_won"]],
                }
            )
    grid = pd.DataFrame(grid_rows)
    pivot = pd.DataFrame({"bluff rate": [f"{b:g}" for b in bvals[::-1]]})
    for j, c in enumerate(cvals):
        pivot[f"c={c:g}"] = [
            ("0" if i == 0 else f"{100 * gain[i, j]:+.2f}" + ("*" if p_holm[i, j] < 0.05 else "")) for i in range(len(bvals))
        ][::-1]
    n_text = f"{comp.games:,} deals per cell, {len(arms)} cells on the same deals ({n} players)"
    pol_text = (
        f"seat 0: {opt['bluffer']} with bluff rate b; seats 1-{n - 1}: {opt['opponents']} with challenge rate c, never bluffing"
    )
    rules_text = exp.base.rules
    half = 50 * (gain_ci[:, :, 2] - gain_ci[:, :, 1])
    annot = np.array(
        [
            [
                "" if i == 0 else f"{100 * gain[i, j]:+.1f}" + ("*" if p_holm[i, j] < 0.05 else "") + f"\n±{half[i, j]:.1f}"
                for j in range(len(cvals))
            ]
            for i in range(len(bvals))
        ]
    )
    pos_c = float(np.interp(c_star, cvals, np.arange(len(cvals)))) if math.isfinite(c_star) else None
    marks = [
        (
            float(np.interp(c_eq, cvals, np.arange(len(cvals)))),
            float(np.interp(b_eq, bvals, np.arange(len(bvals)))),
            f"equilibrium (b={b_eq:.2f}, c={c_eq:.2f})",
            "o",
        )
    ]
    if pos_c is not None:
        line_text = f"; dashed line: break-even challenge rate {c_star:.2f} {c_text}"
    elif c_star < 0:
        line_text = "; bluffing loses at every challenge rate, so there is no break-even rate"
    else:
        line_text = "; bluffing gains at every challenge rate of the grid"
    cap1 = caption(
        exp,
        "Bluffer's win share minus its honest twin's on the same deals, in percentage points "
        "(* = paired 95% interval excludes 0 after Holm adjustment)" + line_text,
        n_text,
        rules=rules_text,
        policies=pol_text,
        intervals="± is the half-width of each cell's paired 95% interval (full intervals in bluff-gain.csv)",
    )
    ylabels = [("0 (honest)" if b == 0 else f"{b:g}") for b in bvals]
    heat1 = Chart(
        "bluff-gain-heatmap",
        plots.heatmap(
            100 * gain,
            [f"{c:g}" for c in cvals],
            ylabels,
            title="Does bluffing a +4 pay? Bluffer's win-share gain (pp)",
            xlabel="opponents' challenge rate",
            ylabel="bluffer's bluff rate",
            caption=cap1,
            colour_label="win-share change vs honest twin (pp)",
            annotations=annot,
            marks=marks,
            vline=(pos_c, "break-even challenge rate") if pos_c is not None else None,
            height=max(5.6, 0.62 * len(bvals) + 1.4),
        ),
        cap1,
        "heatmap of the bluffer's win-share gain by bluff and challenge rate",
    )
    half2 = 50 * (value_ci[:, :, 2] - value_ci[:, :, 1])
    annot2 = np.array(
        [
            ["" if j == 0 else f"{100 * value_ci[i, j, 0]:+.1f}\n±{half2[i, j]:.1f}" for j in range(len(cvals))]
            for i in range(len(bvals))
        ]
    )
    cap2 = caption(
        exp,
        "Each opponent's win share at challenge rate c minus at c = 0, same deals, in percentage points",
        n_text,
        rules=rules_text,
        policies=pol_text,
        intervals="± is the half-width of each cell's paired 95% interval (full intervals in bluff-gain.csv)",
    )
    heat2 = Chart(
        "challenge-value-heatmap",
        plots.heatmap(
            100 * value_ci[:, :, 0],
            [f"{c:g}" for c in cvals],
            ylabels,
            title="Does challenging pay for the victims? Opponent's win-share change (pp)",
            xlabel="opponents' challenge rate",
            ylabel="bluffer's bluff rate",
            caption=cap2,
            colour_label="win-share change per opponent vs never challenging (pp)",
            annotations=annot2,
            height=max(5.6, 0.62 * len(bvals) + 1.4),
        ),
        cap2,
        "heatmap of the value of challenging for each opponent",
    )
    picks = sorted({len(bvals) - 1, max(1, len(bvals) // 2), 1})
    series = [
        plots.Series(f"bluff rate {bvals[i]:g}", 100 * gain_ci[i, :, 0], 100 * gain_ci[i, :, 1], 100 * gain_ci[i, :, 2])
        for i in picks
    ]
    cap3 = caption(
        exp,
        "Bluffer's win-share change against its honest twin by challenge rate",
        n_text,
        rules=rules_text,
        policies=pol_text,
        intervals="bands are paired 95% t intervals",
    )
    line = Chart(
        "bluff-gain-lines",
        plots.line_chart(
            cvals,
            series,
            title="Bluffer's gain against its honest twin",
            xlabel="opponents' challenge rate",
            ylabel="win-share change vs honest twin (pp)",
            hline=0.0,
            hline_label="no gain",
            caption=cap3,
        ),
        cap3,
        "bluffer's gain by challenge rate",
    )
    per_win = [
        plots.Series(
            "win-share change per bluff",
            [100 * r["win"] for r in bluff_rows],
            [100 * r["win_low"] for r in bluff_rows],
            [100 * r["win_high"] for r in bluff_rows],
        )
    ]
    cap4 = caption(
        exp,
        "Win-share change per bluff played, pooled over bluff rates above 0",
        n_text,
        rules=rules_text,
        policies=pol_text,
        intervals="bands are 95% block-bootstrap intervals",
    )
    line2 = Chart(
        "per-bluff",
        plots.line_chart(
            cvals,
            per_win,
            title="What one bluff is worth",
            xlabel="opponents' challenge rate",
            ylabel="bluffer's win share per bluff (pp)",
            hline=0.0,
            caption=cap4,
        ),
        cap4,
        "win share per bluff by challenge rate",
    )
    eq_table = pd.DataFrame(
        [
            {
                "bluff rate": f"{b_eq:.2f} [{np.quantile(b_eq_b, 0.025):.2f}, {np.quantile(b_eq_b, 0.975):.2f}]",
                "challenge rate": f"{c_eq:.2f} [{np.quantile(c_eq_b, 0.025):.2f}, {np.quantile(c_eq_b, 0.975):.2f}]",
                "bluffer's win share": f"{value:.4f} [{interval(value_b)[0]:.4f}, {interval(value_b)[1]:.4f}]",
                "nearest grid point": cell(bvals[bi], cvals[cj]),
                "bluffer's gain from deviating there": f"{pp(gain_bluffer)} [{100 * gbl[0]:+.2f}, {100 * gbl[1]:+.2f}]",
                "an opponent's gain from deviating there": f"{pp(gain_opp)} [{100 * gop[0]:+.2f}, {100 * gop[1]:+.2f}]",
            }
        ]
    )
    eq_data = pd.DataFrame(
        [
            {
                "bluff_rate": b_eq,
                "bluff_low": np.quantile(b_eq_b, 0.025),
                "bluff_high": np.quantile(b_eq_b, 0.975),
                "challenge_rate": c_eq,
                "challenge_low": np.quantile(c_eq_b, 0.025),
                "challenge_high": np.quantile(c_eq_b, 0.975),
                "value": value,
                "n": comp.games,
                "replicates": opt["replicates"],
            }
        ]
    )
    path_text = " -> ".join(f"(b={bvals[i]:g}, c={cvals[j]:g})" for i, j in path)
    findings = _findings(gain_ci, p_holm, bvals, cvals, c_star, c_text, pb_point, b_eq, c_eq, eq_table, path, n, value_ci)
    other_rows = _other_sizes(exp, ctx, bluffer, opponent, n)
    if other_rows:
        top = max(bvals)
        here = [
            {
                "players": n,
                "challenge_rate": c,
                "n": comp.games,
                "diff": gain_ci[-1, j, 0],
                "diff_low": gain_ci[-1, j, 1],
                "diff_high": gain_ci[-1, j, 2],
                "p": pvals[-1, j],
            }
            for j, c in enumerate(cvals)
            if c in (cvals[0], cvals[-1])
        ]
        others = pd.DataFrame(here + other_rows)
        others["p_holm"] = holm(others["p"].to_numpy())
        others_shown = pd.DataFrame(
            {
                "players": others["players"],
                "challenge rate": others["challenge_rate"].map("{:g}".format),
                f"gain of bluffing at rate {top:g} [paired 95% CI]": [
                    pp_ci(d, lo, hi) for d, lo, hi in zip(others["diff"], others["diff_low"], others["diff_high"], strict=True)
                ],
                "n (paired deals)": others["n"].map("{:,}".format),
                "p (Holm)": others["p_holm"].map(pvalue),
            }
        )
        findings.append(
            "Other table sizes agree: "
            + "; ".join(
                f"{r.players} players, c={r.challenge_rate:g}: {pp_ci(r.diff, r.diff_low, r.diff_high)}"
                for r in others.itertuples()
                if r.players != n
            )
            + "."
        )
    blocks: list = [
        heat1,
        line,
        TableBlock(
            "bluff-gain",
            "Bluffer's win-share change against its honest twin, percentage points (* significant after Holm)",
            pivot,
            grid,
            f"n = {comp.games:,} paired deals per cell; full intervals and p-values in the CSV.",
        ),
        TableBlock(
            "break-even",
            "Break-even challenge rate by bluff rate (bootstrap 95% CI)",
            pd.DataFrame(row_cross).assign(
                break_even_challenge=lambda d: d["break_even_challenge"].map(lambda x: rate_text(x, cvals[-1]))
            ),
            pd.DataFrame(row_cross),
        ),
        line2,
        TableBlock(
            "per-bluff",
            "Cards and wins per bluff, by challenge rate (pooled over bluff rates > 0)",
            pd.DataFrame(bluff_shown),
            pd.DataFrame(bluff_rows),
            "A caught bluff makes the bluffer draw 4; an uncaught one makes the victim draw 4.",
        ),
        heat2,
        TableBlock(
            "equilibrium",
            "Equilibrium of bluff and challenge rates (fictitious play; 95% bootstrap intervals)",
            eq_table,
            eq_data,
            f"Plain alternating best responses from (0, 0): {path_text}.",
        ),
    ]
    if other_rows:
        blocks.append(
            TableBlock(
                "other-table-sizes",
                "Bluffing at every chance against never and always "
                "challenging opponents, other table sizes (paired on the same deals)",
                others_shown,
                others,
            )
        )
    intro = (exp.description or "") + f"\n\n{pol_text}; rules {rules_text}; {n} players."
    extra = sum(4 * r["n"] for r in other_rows) // 2
    return Section(
        name=exp.name,
        title=exp.title,
        intro=intro,
        findings=findings,
        blocks=blocks,
        meta={"games": comp.games * len(arms) + extra},
    )


def _other_sizes(exp: Experiment, ctx: Context, bluffer, opponent, n: int) -> list[dict]:
    """The corners (bluff 0 or the top rate, challenge 0 or 1) at the other table sizes of ``also_players``."""
    rows = []
    top = max(float(v) for v in parse_values(exp.options["bluff_rates"]))
    c_top = max(float(v) for v in parse_values(exp.options["challenge_rates"]))
    for p in exp.options["also_players"]:
        if p == n:
            continue
        rules = exp.base.build(players=p).rules
        arms = [
            Arm(cell(b, c), rules, (bluffer.replace(bluff=b),) + (opponent.replace(challenge=c, bluff=0.0),) * (p - 1))
            for b in (0.0, top)
            for c in (0.0, c_top)
        ]
        pairs = [(cell(top, c), cell(0.0, c)) for c in (0.0, c_top)]
        comp = run_compare(exp, ctx, arms, quantities=("win_0",), pairs=pairs, metric="win_0", label=f"{p} players, corners")
        for c in (0.0, c_top):
            d = comp.diff(cell(top, c), cell(0.0, c), "win_0")
            rows.append(
                {
                    "players": p,
                    "challenge_rate": c,
                    "n": comp.games,
                    "diff": d["diff"],
                    "diff_low": d["ci_low"],
                    "diff_high": d["ci_high"],
                    "p": d["p"],
                }
            )
    return rows


def _findings(gain_ci, p_holm, bvals, cvals, c_star, c_text, pb, b_eq, c_eq, eq_table, path, n, value_ci) -> list[str]:
    top = len(bvals) - 1
    g0 = gain_ci[top, 0]
    out = [
        f"Against opponents who never challenge, bluffing at every chance (b={bvals[top]:g}) changes the "
        f"bluffer's win share by {pp_ci(g0[0], g0[1], g0[2])} (paired, {n} players; Holm p "
        f"{pvalue(p_holm[top, 0])})."
    ]
    g1 = gain_ci[top, -1]
    out.append(
        f"Against opponents who always challenge (c={cvals[-1]:g}), the same bluffing changes it by {pp_ci(g1[0], g1[1], g1[2])}."
    )
    if math.isfinite(c_star):
        out.append(
            f"Bluffing a +4 stops paying once opponents challenge more than {c_star:.2f} of +4s "
            f"(95% CI {c_text}; pooled over bluff rates)."
        )
    elif c_star < 0:
        out.append(
            f"Bluffing a +4 does not pay at any challenge rate, not even against opponents who never "
            f"challenge, so there is no break-even challenge rate {c_text}."
        )
    else:
        out.append(f"Bluffing pays at every challenge rate of the grid (break-even rate {c_text}).")
    half = int(np.argmin(abs(cvals - 0.5)))
    out.append(
        f"A bluff is caught about as often as it is challenged (share caught at c={cvals[half]:g}: "
        f"{pb['caught'][half]:.2f}): a caught bluff costs the bluffer 4 cards, an uncaught one costs the "
        f"victim 4, so counted in cards alone a bluff breaks even at a challenge rate of one half."
    )
    if pb["win"][0] < 0:
        out.append(
            f"In wins, one bluff costs the bluffer {-100 * pb['win'][0]:.1f} pp of win share even when never "
            f"challenged: a bluff does not add a +4 to the game, it plays earlier a card the honest twin "
            f"keeps for when it holds nothing of the current colour, and then plays anyway."
        )
    v = value_ci[top, -1]
    out.append(
        f"For the victims, always challenging an always-bluffing seat 0 is worth {pp_ci(v[0], v[1], v[2])} "
        f"of win share per opponent."
    )
    kind = "cycle" if path[-1] != path[-2] else "settle"
    out.append(
        f"Equilibrium (neither side gains by changing its rate): bluff rate {b_eq:.2f}, challenge rate "
        f"{c_eq:.2f} (bootstrap intervals in the equilibrium table); plain alternating best responses "
        f"between grid points {kind}."
    )
    return out
