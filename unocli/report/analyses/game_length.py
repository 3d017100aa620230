"""How long is a game? Turns per round by table size and rule set, and rounds per match to 500.

Every arm (rule set) is played at every table size on the same deals; each
table size also plays ``match_games`` whole matches per arm. Reports the mean
(t interval), median, p90 and p99 (order-statistic intervals) of turns per
round over *finished* rounds (won or blocked), the share of blocked, capped
and stuck rounds beside them (Wilson), the paired change of every rule set
from the baseline over the deals both finished with an equivalence verdict
(margin ``[margins] turns``), histograms and ECDFs (DKW bands), and the
rounds a match to ``target_score`` takes. A stuck round (docs/rules.md
§11.15) has no length of play, so no length here depends on ``max_turns``.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import partial

import numpy as np
import pandas as pd

from unocli.report import fmt
from unocli.report.analyses.common import (
    Context,
    arm_diff,
    arm_mean,
    caption,
    change_word,
    dkw_eps,
    forest_chart,
    hist_quantile,
    interval_series,
    judged,
    players_chart,
    run_compare,
    total_games,
    verdict_text,
)
from unocli.report.analyses.fields import (
    FIELDS_OPTION,
    agreement,
    check_fields,
    field_experiment,
    field_sizes,
    field_specs,
    fields_text,
    sizes_text,
    templates_text,
    verdict_matrix,
)
from unocli.report.experiment import Experiment, players_list, positive_int
from unocli.report.model import Chart, Section, TableBlock, sentences
from unocli.study.compare import Comparison
from unocli.study.stats import WITHIN_MARGIN, holm

OPTIONS = {
    "fields": FIELDS_OPTION,
    "match_games": (1000, positive_int),
    "detail_players": ([2, 4, 7, 10], players_list),
}
ROUND_Q = ("turns", "skips", "cards_drawn", "reshuffles", "won", "blocked", "capped", "stuck", "win_first")
MATCH_Q = ("rounds", "rounds_blocked", "rounds_capped", "rounds_stuck", "turns", "capped", "stuck")


@dataclass(frozen=True)
class GameLengthResult:
    """Turns per round and rounds per match, per rule set and table size.

    Every table has a ``field`` column: the policy every seat played (``options.fields``).
    ``turns``: one row per (field, players, rules): n (finished rounds), n_all,
    mean_turns with ci_low/high, mean_with_skips (turns plus skipped turns),
    median, p90 and p99 with ``_low``/``_high`` (order statistics, finished
    rounds), blocked_share, capped_share and stuck_share with intervals (all
    rounds). ``diffs``: the paired change in mean turns of each rule set from
    the baseline over deals both finished (diff, diff_low, diff_high,
    relative, p, p_holm, and the equivalence fields of ``common.judged``). ``matches``: rounds, turns and blocked
    rounds per match and the share of capped matches, with intervals.
    ``hists``: the histogram of turns per round of each (field, players, rules).
    ``rounds``: rounds per arm at each table size; ``blocked``, ``capped``,
    ``total_rounds``: outcome counts over every round played.
    """

    exp: Experiment
    names: tuple[str, ...]
    base: str
    turns: pd.DataFrame
    diffs: pd.DataFrame
    matches: pd.DataFrame
    hists: dict[tuple[str, int, str], np.ndarray]
    rounds: dict[int, int]
    blocked: int
    capped: int
    stuck: int
    total_rounds: int
    target: int
    games: int
    fields: tuple[str, ...] = ("basic",)

    @property
    def ref(self) -> str:
        """The field the single-field charts (percentiles, distributions) show: ``basic`` when played, else the first."""
        return "basic" if "basic" in self.fields else self.fields[0]

    @property
    def mid(self) -> int:
        """The table size the comparisons of rule sets are shown at."""
        players = self.exp.players
        return 4 if 4 in players else players[len(players) // 2]


def check(exp: Experiment) -> str | None:
    if not exp.arms:
        return "arms: the game-length analysis needs at least one [arms.NAME] rule set"
    return check_fields(exp, partial=True)


def compute(exp: Experiment, ctx: Context) -> GameLengthResult:
    """Play rounds and matches of every rule set at every table size, under every field of players."""
    players, specs = exp.players, field_specs(exp)
    fields = tuple(specs)
    names = tuple(a.name for a in exp.arms_for(players[0]))
    base = exp.baseline or names[0]
    rounds: dict[tuple[str, int], Comparison] = {}
    matches: dict[tuple[str, int], Comparison] = {}
    for field in fields:
        fexp = field_experiment(exp, specs[field])
        for p in field_sizes(exp, specs[field]):  # a template field only where its players exist
            rounds[(field, p)] = run_compare(
                fexp, ctx, fexp.arms_for(p), baseline=base, quantities=ROUND_Q, target_on="mean", label=f"{field}, {p} players"
            )
            matches[(field, p)] = run_compare(
                fexp,
                ctx,
                fexp.arms_for(p),
                games=exp.options["match_games"],
                baseline=base,
                match=True,
                quantities=MATCH_Q,
                label=f"{field}, {p} players, matches",
            )
    games = total_games(list(rounds.values()))
    games += sum(int(c.sums.s1[:, c.quantities.index("rounds")].sum()) for c in matches.values())
    every = [c.acc(a.name) for c in rounds.values() for a in c.arms]
    keys = [(f, p, name) for f in fields for p in players for name in names if (f, p) in rounds]
    return GameLengthResult(
        exp=exp,
        names=names,
        base=base,
        turns=pd.DataFrame([{"field": f} | _turns_row(rounds[(f, p)], p, name) for f, p, name in keys]),
        diffs=_diffs(rounds, names, base, exp.margins["turns"]),
        matches=pd.DataFrame([{"field": f} | _match_row(matches[(f, p)], p, name) for f, p, name in keys]),
        hists={(f, p, name): rounds[(f, p)].acc(name).turns_hist for f, p, name in keys},
        rounds={p: rounds[(fields[0], p)].games for p in players},
        blocked=sum(int(a.outcomes[1]) for a in every),
        capped=sum(int(a.outcomes[2]) for a in every),
        stuck=sum(int(a.outcomes[3]) for a in every),
        total_rounds=total_games(list(rounds.values())),
        target=exp.arms_for(players[0])[0].rules.target_score,
        games=games,
        fields=fields,
    )


def _turns_row(comp: Comparison, p: int, name: str) -> dict:
    hist = comp.acc(name).turns_hist
    t, blk, cap = arm_mean(comp, name, "turns"), arm_mean(comp, name, "blocked"), arm_mean(comp, name, "capped")
    stuck, skips, first = arm_mean(comp, name, "stuck"), arm_mean(comp, name, "skips"), arm_mean(comp, name, "win_first")
    row = {"players": p, "rules": name, "n": t.n, "n_all": comp.games, "mean_turns": t.mean, "ci_low": t.low}
    row |= {"ci_high": t.high, "mean_with_skips": t.mean + skips.mean}
    row |= {"first_share": first.mean, "first_low": first.low, "first_high": first.high}
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
        "stuck_share": stuck.mean,
        "stuck_low": stuck.low,
        "stuck_high": stuck.high,
    }


def _diffs(rounds: dict[tuple[str, int], Comparison], names: tuple[str, ...], base: str, margin: float) -> pd.DataFrame:
    """Each rule set's paired change in mean turns, over deals both finished, judged against ``margin`` turns.

    One family over every field and table size: the simultaneous intervals cover all rows together.
    """
    rows, found = [], []
    for (field, p), comp in rounds.items():
        for name in names:
            if name == base:
                continue
            d = arm_diff(comp, name, base, "turns")
            found.append(d)
            rows.append(
                {
                    "field": field,
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
        diffs = pd.concat([diffs, pd.DataFrame(judged(found, margin))], axis=1)
    return diffs


def _match_row(comp: Comparison, p: int, name: str) -> dict:
    r, b = arm_mean(comp, name, "rounds"), arm_mean(comp, name, "rounds_blocked")
    c, t = arm_mean(comp, name, "capped"), arm_mean(comp, name, "turns")
    st, rs = arm_mean(comp, name, "stuck"), arm_mean(comp, name, "rounds_stuck")
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
        "stuck_share": st.mean,
        "stuck_low": st.low,
        "stuck_high": st.high,
        "stuck_rounds": rs.mean,
    }


def render(result: GameLengthResult) -> Section:
    """Charts of turns and rounds per match, the tables and findings."""
    exp, base = result.exp, result.base
    blocks: list = [
        *([_forest(result)] if len(result.diffs) else []),
        *([_verdicts_table(result)] if len(result.diffs) else []),
        _field_chart(result),
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
    published = _published(result)
    if len(published):
        blocks.append(
            TableBlock(
                "published",
                f"Published figures side by side, with unocli's closest setup (official rules, every seat {result.ref})",
                published.drop(columns=["ci_low", "ci_high"]),
                published,
            )
        )
    answer = _answer(result)
    intro = (
        answer
        + "\n\n"
        + (exp.description or "")
        + (
            f"\n\nRule sets: {', '.join(result.names)}; baseline {base}. Fields of players: {fields_text(result.fields)} "
            f"(every seat plays the field's policy). Each table size plays the same deals under every rule set and field; "
            f"the single-field charts show `{result.ref}`." + templates_text(exp) + sizes_text(exp)
        )
    )
    return Section(
        name=exp.name,
        title=exp.title,
        intro=intro,
        findings=_findings(result),
        blocks=blocks,
        meta={"games": result.games},
        answer=sentences(answer)[0],  # the baseline's length under each field
    )


def run(exp: Experiment, ctx: Context) -> Section:
    return render(compute(exp, ctx))


# ---------------------------------------------------------------- tables


def _turns_shown(result: GameLengthResult) -> pd.DataFrame:
    rows = []
    for r in result.turns.itertuples():
        top = len(result.hists[(r.field, r.players, r.rules)]) - 1
        rows.append(
            {
                "field": r.field,
                "players": r.players,
                "rules": r.rules,
                "n finished": fmt.count(r.n),
                "mean turns [95% CI]": fmt.ci(r.mean_turns, r.ci_low, r.ci_high),
                "mean turns + skips": fmt.num(r.mean_with_skips),
                "median": fmt.quantile(r.median, r.median_low, r.median_high, top),
                "p90": fmt.quantile(r.p90, r.p90_low, r.p90_high, top),
                "p99": fmt.quantile(r.p99, r.p99_low, r.p99_high, top),
                "blocked": fmt.share_ci(r.blocked_share, r.blocked_low, r.blocked_high, 2),
                "capped": fmt.share_ci(r.capped_share, r.capped_low, r.capped_high, 2),
                "stuck": fmt.share_ci(r.stuck_share, r.stuck_low, r.stuck_high, 2),
            }
        )
    return pd.DataFrame(rows)


def _diffs_shown(result: GameLengthResult) -> pd.DataFrame:
    diffs = result.diffs
    level = fmt.fixed(100 * diffs["sim_level"].iloc[0], 2).rstrip("0").rstrip(".")
    margin = fmt.num(result.exp.margins["turns"])
    return pd.DataFrame(
        {
            "field": diffs["field"],
            "players": diffs["players"],
            "rules": diffs["rules"],
            f"change in mean turns vs {result.base} [simultaneous {level}% CI]": [
                fmt.signed_ci(d, lo, hi, 2) for d, lo, hi in zip(diffs["diff"], diffs["sim_low"], diffs["sim_high"], strict=True)
            ],
            "relative": [fmt.fixed(100 * r, 1, sign=True) + "%" for r in diffs["relative"]],
            "n (deals both finished)": diffs["n"].map(fmt.count),
            f"verdict (margin {margin} turns)": diffs["verdict"],
        }
    )


def _matches_shown(result: GameLengthResult) -> pd.DataFrame:
    return pd.DataFrame(
        [
            {
                "field": r.field,
                "players": r.players,
                "rules": r.rules,
                "matches": fmt.count(r.n_matches),
                "rounds per match [95% CI]": fmt.ci(r.rounds, r.rounds_low, r.rounds_high),
                "turns per match": fmt.ci(r.turns, r.turns_low, r.turns_high),
                "blocked rounds per match": fmt.ci(r.blocked_rounds, r.blocked_low, r.blocked_high),
                "capped matches": fmt.share_ci(r.capped_share, r.capped_low, r.capped_high, 2),
                "stuck matches": fmt.share_ci(r.stuck_share, r.stuck_low, r.stuck_high, 2),
            }
            for r in result.matches.itertuples()
        ]
    )


# ---------------------------------------------------------------- charts


def _n_rounds(result: GameLengthResult) -> str:
    return f"{fmt.count(result.rounds[result.exp.players[0]])} rounds per rule set and table size"


def _forest(result: GameLengthResult) -> Chart:
    """Each rule set's change in mean turns per finished round at the middle table size, one row per rule set and field."""
    margin = result.exp.margins["turns"]
    at = result.diffs[result.diffs["players"] == result.mid]
    d = at.assign(label=[f"{r.rules}, {r.field}" for r in at.itertuples()])
    level = fmt.fixed(100 * d["sim_level"].iloc[0], 2)
    cap = caption(
        result.exp,
        f"Change in mean turns per finished round from {result.base} at {result.mid} players, per rule set and field of "
        f"players (every seat plays the field's policy), paired on the deals both finished; the grey band is the "
        f"equivalence margin +/-{fmt.num(margin)} turns (every table size is in the verdict table)",
        _n_rounds(result),
        rules=", ".join(result.names),
        policies=_fields_caption(result),
        intervals=f"bars are simultaneous {level}% intervals (95% for the whole family of every field and size)",
    )
    panels = [(f"turns per finished round minus {result.base}", "diff", "sim_low", "sim_high", margin, False)]
    title = f"Each rule set's effect on length under each field, {result.mid} players"
    return forest_chart(d, "label", panels, cap, name="turns-forest", title=title)


def _fields_caption(result: GameLengthResult) -> str:
    return "every seat plays one field's policy: " + ", ".join(result.fields)


def _ref_caption(result: GameLengthResult) -> str:
    return f"every seat plays {result.ref} (the other fields are in the tables)"


def _field_chart(result: GameLengthResult) -> Chart:
    """Mean turns under the baseline rules by table size, one line per field of players."""
    t = result.turns[result.turns["rules"] == result.base]
    series = interval_series(t, "field", result.fields, ("mean_turns", "ci_low", "ci_high"))
    # a field played at some table sizes only (a template without players for the others) has its own x
    series = [replace(s, x=t[t["field"] == f]["players"]) for s, f in zip(series, result.fields, strict=True)]
    cap = caption(
        result.exp,
        f"Mean turns per finished round under {result.base} rules, one line per field of players",
        _n_rounds(result),
        rules=result.base,
        policies=_fields_caption(result),
        intervals="error bars are 95% t intervals",
    )
    return players_chart(
        result.exp,
        series,
        cap,
        name="turns-by-field",
        alt="mean turns per round by field",
        title=f"Mean turns per round by field of players ({result.base})",
        ylabel="turns per round (mean)",
    )


def _turns_chart(result: GameLengthResult) -> Chart:
    from unocli.report import plots  # matplotlib only when drawing: compute() runs without it

    t, players = result.turns[result.turns["field"] == result.ref], result.exp.players
    series = interval_series(t, "rules", result.names, ("mean_turns", "ci_low", "ci_high"))
    cap = caption(
        result.exp,
        "Mean turns per finished round (won or blocked), one line per rule set" + _unfinished_note(t),
        _n_rounds(result),
        rules=", ".join(result.names),
        policies=_ref_caption(result),
    )
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


def _unfinished_note(t: pd.DataFrame) -> str:
    """Where rounds did not finish (stuck or capped): the rule sets and the largest share, for a caption."""
    bad = t[(t["capped_share"] + t["stuck_share"]) > 0]
    if not len(bad):
        return "; every round finished"
    worst = bad.loc[(bad["capped_share"] + bad["stuck_share"]).idxmax()]
    return (
        f"; rounds that never finished (stuck or capped) are left out: under {', '.join(sorted(set(bad['rules'])))}, "
        f"at most {fmt.share(worst['stuck_share'] + worst['capped_share'], 2)} of rounds ({worst['rules']}, "
        f"{worst['players']} players)"
    )


def _percentiles_chart(result: GameLengthResult) -> Chart:
    from unocli.report import plots  # matplotlib only when drawing

    base, players = result.base, result.exp.players
    sub = result.turns[(result.turns["rules"] == base) & (result.turns["field"] == result.ref)]
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
        policies=_ref_caption(result),
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
    hists = [(f"{p} players", result.hists[(result.ref, p, base)]) for p in detail]
    xmax = max(hist_quantile(h, 0.995)[0] for _, h in hists) + 10
    cap_h = caption(
        exp,
        f"Distribution of turns per round, {base} rules, bins of 5 turns",
        _n_rounds(result),
        policies=_ref_caption(result),
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
        policies=_ref_caption(result),
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
    arm_h = [(name, result.hists[(result.ref, mid, name)]) for name in result.names]
    xmax = max(hist_quantile(h, 0.99)[0] for _, h in arm_h) + 10
    eps = dkw_eps(result.rounds[mid])
    cap = caption(
        result.exp,
        f"Empirical CDF of turns per finished round at {mid} players, one line per rule set",
        _n_rounds(result),
        rules=", ".join(result.names),
        policies=_ref_caption(result),
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

    m, players = result.matches[result.matches["field"] == result.ref], result.exp.players
    series = [
        plots.Series(
            name, m[m["rules"] == name]["rounds"], m[m["rules"] == name]["rounds_low"], m[m["rules"] == name]["rounds_high"]
        )
        for name in result.names
    ]
    n_m = f"{fmt.count(result.exp.options['match_games'])} matches per rule set and table size"
    cap = caption(
        result.exp,
        f"Mean rounds per match to {result.target} points, one line per rule set",
        n_m,
        rules=", ".join(result.names),
        policies=_ref_caption(result),
    )
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


def _answer(result: GameLengthResult) -> str:
    """The report's answer in one paragraph: the baseline's length under each field and each rule set's effect."""
    mid, base = result.mid, result.base
    t = result.turns[(result.turns["rules"] == base) & (result.turns["players"] == mid)].set_index("field")
    lengths = ", ".join(f"{fmt.num(t.loc[f, 'mean_turns'])} with `{f}`" for f in result.fields if f in t.index)
    text = f"**Answer.** A {mid}-player round under {base} rules takes {lengths} players at every seat"
    text += " (mean turns per finished round)."
    rules = _rule_agreements(result)
    if rules:
        text += f" Against {base} at {mid} players, on the same deals: " + "; ".join(rules) + "."
    return text


def _rule_agreements(result: GameLengthResult) -> list[str]:
    """Per rule set at the middle table size: its change in length under every field and where the verdicts agree."""
    at = result.diffs[result.diffs["players"] == result.mid] if len(result.diffs) else result.diffs
    out = []
    for name in result.names:
        sub = at[at["rules"] == name].set_index("field")
        if not len(sub):
            continue
        verdicts = {f: _length_verdict(sub.loc[f]) for f in result.fields if f in sub.index}
        out.append(f"{name} {agreement(verdicts, partial(_field_diff_text, sub))}")
    return out


def _field_diff_text(sub: pd.DataFrame, field: str) -> str:
    return _diff_text(sub.loc[field])


def _length_verdict(row: pd.Series) -> str:
    """The verdict as a direction: "lengthens"/"shortens" only beyond the margin (:func:`change_word`)."""
    return change_word(str(row["verdict"]), float(row["diff"]), "lengthens", "shortens")


def _diff_text(row: pd.Series) -> str:
    return f"{fmt.signed_ci(row['diff'], row['sim_low'], row['sim_high'], 1)}"


def _verdicts_table(result: GameLengthResult) -> TableBlock:
    """One row per (players, rules), one column per field: the change in mean turns and its verdict."""
    level = fmt.fixed(100 * result.diffs["sim_level"].iloc[0], 2)
    shown = verdict_matrix(
        result.diffs,
        ("players", "rules"),
        result.fields,
        lambda r: f"{_diff_text(r)} {_length_verdict(r)}",
    )
    return TableBlock(
        "turns-verdicts",
        f"Change in mean turns per finished round from {result.base}, by field of players: simultaneous {level}% "
        f"intervals over every field and table size, and the verdict at +/-{fmt.num(result.exp.margins['turns'])} turns",
        shown,
        result.diffs,
    )


def _findings(result: GameLengthResult) -> list[str]:
    base, players = result.base, result.exp.players
    turns = result.turns[result.turns["field"] == result.ref]
    b = turns[turns["rules"] == base].set_index("players")
    parts = [
        f"{p} players {fmt.num(b.loc[p, 'mean_turns'])} (median {int(b.loc[p, 'median'])}, p90 {int(b.loc[p, 'p90'])})"
        for p in players
    ]
    out = [f"Turns per round under {base} rules, every seat `{result.ref}`, mean: " + "; ".join(parts) + "."]
    out += _field_findings(result)
    m = result.matches[(result.matches["rules"] == base) & (result.matches["field"] == result.ref)].set_index("players")
    out.append(
        f"A match to {result.target} points (every seat `{result.ref}`) takes on average "
        + "; ".join(f"{fmt.num(m.loc[p, 'rounds'])} rounds at {p} players" for p in players)
        + "."
    )
    out += _diff_findings(result)
    out += [f"At {result.mid} players, {line}." for line in _rule_agreements(result)]
    out.append(
        f"Blocked rounds: {fmt.count(result.blocked)} of {fmt.count(result.total_rounds)} "
        f"({fmt.share(result.blocked / result.total_rounds, 3)}); rounds that locked (stuck, docs/rules.md §11.15): "
        f"{fmt.count(result.stuck)}; rounds capped unfinished after max_turns: {fmt.count(result.capped)}. "
        f"Lengths are over finished rounds, so none depends on max_turns."
    )
    every = result.turns
    worst = every[every["stuck_share"] + every["capped_share"] > 0]
    if len(worst):
        top = worst.loc[(worst["stuck_share"] + worst["capped_share"]).idxmax()]
        out.append(
            f"Rounds that never finish occur under {', '.join(sorted(set(worst['rules'])))}, most at {top['players']} "
            f"players under {top['rules']} with `{top['field']}`: "
            f"{fmt.share_ci(top['stuck_share'], top['stuck_low'], top['stuck_high'], 2)} "
            f"stuck and {fmt.share(top['capped_share'], 2)} capped (n = {fmt.count(top['n_all'])})."
        )
    return out


def _field_findings(result: GameLengthResult) -> list[str]:
    """The baseline's mean length under each field at every table size: how much the players' skill matters."""
    t = result.turns[result.turns["rules"] == result.base]
    out = []
    for f in result.fields:
        if f == result.ref:
            continue
        sub = t[t["field"] == f].set_index("players")
        out.append(
            f"Every seat `{f}`, {result.base} rules, mean turns: "
            + "; ".join(
                f"{p} players {fmt.ci(sub.loc[p, 'mean_turns'], sub.loc[p, 'ci_low'], sub.loc[p, 'ci_high'])}" for p in sub.index
            )
            + f" (n = {fmt.count(sub['n'].min())} finished rounds or more)."
        )
    return out


def _diff_findings(result: GameLengthResult) -> list[str]:
    """The rule set that changes length most at the middle table size (reference field), and which are equivalent."""
    diffs = result.diffs[result.diffs["field"] == result.ref] if len(result.diffs) else result.diffs
    at = diffs[diffs["players"] == result.mid] if len(diffs) else diffs
    if not len(at):
        return []
    margin = fmt.num(result.exp.margins["turns"]) + " turns"
    top = at.loc[at["diff"].abs().idxmax()]
    out = [
        f"At {result.mid} players, every seat `{result.ref}`, the rule set that changes length most is {top['rules']}: "
        f"{fmt.signed(top['diff'], 1)} turns per finished round ({fmt.fixed(100 * top['relative'], 0, sign=True)}%, "
        f"simultaneous {fmt.fixed(100 * top['sim_level'], 2)}% CI {fmt.bounds(top['sim_low'], top['sim_high'], 1, 'signed')}, "
        f"n = {fmt.count(top['n'])} deals both finished): {verdict_text(top['verdict'], margin)}."
    ]
    same = at[at["verdict"].isin(sorted(WITHIN_MARGIN))]
    if len(same):
        out.append(
            f"At {result.mid} players, no change beyond +/-{margin} from {result.base} in mean length "
            f"(simultaneous interval within the margin): {', '.join(same['rules'])}."
        )
    return out


# ---------------------------------------------------------------- published figures


def _published(result: GameLengthResult) -> pd.DataFrame:
    """everygamemade's 4-player length and the 2010 five-player study's first-player edge beside unocli's."""
    t = result.turns[result.turns["field"] == result.ref].set_index(["players", "rules"])
    rows = []
    if (4, result.base) in t.index:
        r = t.loc[(4, result.base)]
        rows.append(
            {
                "figure": "turns per round, 4 players, no stacking (everygamemade)",
                "published": "55.1 (skipped turns counted as turns)",
                "unocli": f"{fmt.num(r['mean_with_skips'])} turns + skips; {fmt.ci(r['mean_turns'], r['ci_low'], r['ci_high'])} "
                f"turns alone (n = {fmt.count(r['n'])} finished rounds)",
                "difference of definition": "unocli's turn is a card played or a pass; skipped players take no turn",
                "n": fmt.count(r["n"]),
                "ci_low": r["ci_low"],
                "ci_high": r["ci_high"],
            }
        )
    if (5, result.base) in t.index:
        r = t.loc[(5, result.base)]
        edge = fmt.pp_ci(r["first_share"] - 0.2, r["first_low"] - 0.2, r["first_high"] - 0.2, 2)
        rows.append(
            {
                "figure": "first player's win share minus 1/5, 5 players (2010 study, 10,000 games)",
                "published": "+0.30 pp (standard error about 0.4)",
                "unocli": f"{edge} (n = {fmt.count(r['n_all'])} rounds)",
                "difference of definition": "unocli's first player is the seat that took the first turn; the study's "
                "players and rules differ",
                "n": fmt.count(r["n_all"]),
                "ci_low": r["first_low"] - 0.2,
                "ci_high": r["first_high"] - 0.2,
            }
        )
        rows.append(
            {
                "figure": "playing draw cards eagerly, 5 players (2010 study)",
                "published": "-0.76 pp of win share",
                "unocli": "not measured in this report (see the policies experiment)",
                "difference of definition": "-",
                "n": "-",
            }
        )
    return pd.DataFrame(rows)
