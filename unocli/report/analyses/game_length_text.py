"""The game-length report's words: its answer, findings, tables and the captions of its charts, over the frame.

The numbers come from :func:`unocli.report.analyses.game_length.compute` (the
design's tidy frames read into tables); the charts are views
(:mod:`unocli.report.views`); the published figures it sets beside its own are
data in the experiment file (``[[published]]``), matched by their ``ours`` key:
``turns-with-skips-4`` (turns per round counting skipped turns, 4 players) and
``first-player-edge-5`` (the first player's win share minus 1/5, 5 players).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial
from typing import TYPE_CHECKING, Any

import pandas as pd

from unocli.report import fmt, views
from unocli.report.analyses.common import caption, dkw_eps, verdict_text
from unocli.report.analyses.fields import (
    fields_text,
    interactions_frame,
    sizes_text,
    templates_text,
)
from unocli.report.experiment import View
from unocli.report.model import Chart, Section, TableBlock, sentences
from unocli.report.words import agreement, change_word, verdict_matrix
from unocli.study.stats import LARGER, WITHIN_MARGIN

if TYPE_CHECKING:
    from unocli.report.analyses.game_length import GameLengthResult


def section(result: GameLengthResult, defaults: Sequence[View]) -> Section:
    """Charts of turns and rounds per match, the tables and findings (``defaults``: the views when the file has none)."""
    exp, base = result.exp, result.base
    setup = views.Setup(
        partial(_caption, result),
        base,
        _ours(result),
        f"Published figures side by side, with unocli's closest setup (official rules, every seat {result.ref})",
    )
    blocks: list = [
        *views.declared(views.chosen(exp, defaults), exp, {"": result.frame, "matches": result.match_frame}, setup),
        *([_verdicts_table(result)] if len(result.diffs) else []),
        *([_interactions_table(result)] if result.between else []),
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
        TableBlock("matches", f"Matches to {result.target} points", _matches_shown(result), result.matches),
    ]
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


# ---------------------------------------------------------------- tables


def _turns_shown(result: GameLengthResult) -> pd.DataFrame:
    def quantile(q: str) -> Any:
        return lambda r: fmt.quantile(r[q], r[f"{q}_low"], r[f"{q}_high"], r["top"])

    t = result.turns
    top = [len(result.hists[(r.field, r.players, r.rules)]) - 1 for r in t.itertuples()]  # the last bin: "or more"
    shares = {k: views.interval(fmt.share_ci, f"{k}_share", f"{k}_low", f"{k}_high", 2) for k in ("blocked", "capped", "stuck")}
    return views.shown(
        t.assign(top=top),
        {
            "field": "field",
            "players": "players",
            "rules": "rules",
            "n finished": lambda r: fmt.count(r["n"]),
            "mean turns [95% CI]": views.interval(fmt.ci, "mean_turns", "ci_low", "ci_high"),
            "mean turns + skips": lambda r: fmt.num(r["mean_with_skips"]),
            **{q: quantile(q) for q in ("median", "p90", "p99")},
            **shares,
        },
    )


def _matches_shown(result: GameLengthResult) -> pd.DataFrame:
    return views.shown(
        result.matches,
        {
            "field": "field",
            "players": "players",
            "rules": "rules",
            "matches": lambda r: fmt.count(r["n_matches"]),
            "rounds per match [95% CI]": views.interval(fmt.ci, "rounds", "rounds_low", "rounds_high"),
            "turns per match": views.interval(fmt.ci, "turns", "turns_low", "turns_high"),
            "blocked rounds per match": views.interval(fmt.ci, "blocked_rounds", "blocked_low", "blocked_high"),
            "capped matches": views.interval(fmt.share_ci, "capped_share", "capped_low", "capped_high", 2),
            "stuck matches": views.interval(fmt.share_ci, "stuck_share", "stuck_low", "stuck_high", 2),
        },
    )


# ---------------------------------------------------------------- charts


def _n_rounds(result: GameLengthResult) -> str:
    return f"{fmt.count(result.rounds[result.exp.players[0]])} rounds per rule set and table size"


def _caption(result: GameLengthResult, what: str, intervals: str) -> str:
    """A declared view's caption: every rule set under every field, the rounds per cell."""
    return caption(
        result.exp, what, _n_rounds(result), rules=", ".join(result.names), policies=_fields_caption(result), intervals=intervals
    )


def _fields_caption(result: GameLengthResult) -> str:
    return "every seat plays one field's policy: " + ", ".join(result.fields)


def _ref_caption(result: GameLengthResult) -> str:
    return f"every seat plays {result.ref} (the other fields are in the tables)"


def _percentiles_chart(result: GameLengthResult) -> Chart:
    base = result.base
    sub = result.turns[(result.turns["rules"] == base) & (result.turns["field"] == result.ref)]
    cap = caption(
        result.exp,
        f"Mean, median, 90th and 99th percentile of turns per round, {base} rules",
        _n_rounds(result),
        policies=_ref_caption(result),
        intervals="error bars are 95% intervals (t for the mean, binomial order statistics for percentiles)",
    )
    title = f"Turns per round: typical and long rounds ({base})"
    return views.percentiles(
        sub, result.exp.players, caption=cap, name="turns-percentiles", title=title, ylabel="turns per round"
    )


def _distribution_charts(result: GameLengthResult) -> list[Chart]:
    """The histogram and the ECDF of turns per round under the baseline at the detail table sizes."""
    exp, base = result.exp, result.base
    detail = [p for p in exp.options["detail_players"] if p in exp.players] or [exp.players[0]]
    hists = [(f"{p} players", result.hists[(result.ref, p, base)]) for p in detail]
    n, eps = result.rounds[detail[0]], dkw_eps(result.rounds[detail[0]])
    what = (f"Distribution of turns per round, {base} rules, bins of 5 turns", f"Empirical CDF of turns per round, {base} rules")
    bands = ("bands are 95% Wilson intervals for each bin's share", f"bands are 95% DKW bands (+/-{eps:.3f})")
    cap_h, cap_e = (
        caption(exp, w, _n_rounds(result), policies=_ref_caption(result), intervals=b) for w, b in zip(what, bands, strict=True)
    )
    title_h, title_e = f"How many turns a round takes ({base})", f"Share of rounds finished within N turns ({base})"
    return [
        views.histogram(
            hists,
            caption=cap_h,
            name="turns-histogram",
            title=title_h,
            xlabel="turns in the round",
            alt="histogram of turns per round",
        ),
        views.ecdf(
            hists, n, caption=cap_e, name="turns-ecdf", title=title_e, xlabel="turns in the round", alt="ECDF of turns by players"
        ),
    ]


def _ecdf_rules_chart(result: GameLengthResult) -> Chart:
    mid = result.mid
    hists = [(name, result.hists[(result.ref, mid, name)]) for name in result.names]
    cap = caption(
        result.exp,
        f"Empirical CDF of turns per finished round at {mid} players, one line per rule set",
        _n_rounds(result),
        rules=", ".join(result.names),
        policies=_ref_caption(result),
        intervals=f"bands are 95% DKW bands (+/-{dkw_eps(result.rounds[mid]):.3f})",
    )
    title = f"Share of rounds finished within N turns, {mid} players"
    return views.ecdf(
        hists,
        result.rounds[mid],
        caption=cap,
        name="turns-ecdf-rules",
        title=title,
        xlabel="turns in the round",
        alt="ECDF of turns by rule set",
        top=0.99,
    )


# ---------------------------------------------------------------- findings


def _answer(result: GameLengthResult) -> str:
    """The report's answer in one paragraph: the baseline's length under each field and each rule set's effect."""
    mid, base = result.mid, result.base
    t = result.turns[(result.turns["rules"] == base) & (result.turns["players"] == mid)].set_index("field")
    lengths = ", ".join(f"{fmt.num(t.loc[f, 'mean_turns'])} with `{f}`" for f in result.fields if f in t.index)
    text = f"**Answer.** A {mid}-player round under {base} rules takes {lengths} players at every seat"
    text += " (mean turns per finished round)."
    rules = _rule_words(result)
    if rules:
        text += f" Against {base} at {mid} players, on the same deals: " + "; ".join(rules) + " (figures in the findings)."
    return text


def _rule_words(result: GameLengthResult) -> list[str]:
    """Per rule set at the middle table size, its verdict in a word: the same under every field, or what the
    interaction of the fields says when the fields' verdicts differ (the answer's short form of :func:`agreement`)."""
    at = result.diffs[result.diffs["players"] == result.mid] if len(result.diffs) else result.diffs
    out = []
    for name in result.names:
        sub = at[at["rules"] == name].set_index("field")
        kinds = {_length_verdict(sub.loc[f]) for f in result.fields if f in sub.index}
        if not kinds:
            continue
        if len(kinds) == 1:
            out.append(f"{name} {next(iter(kinds))} under every field")
            continue
        differ = any(i.verdict == LARGER for i in result.between.get((result.mid, name), []))
        out.append(
            f"{name} " + ("differs between fields" if differ else "verdicts differ by field, but the fields cannot be told apart")
        )
    return out


def _rule_agreements(result: GameLengthResult) -> list[str]:
    """Per rule set at the middle table size: its change in length under every field and where the verdicts agree."""
    at = result.diffs[result.diffs["players"] == result.mid] if len(result.diffs) else result.diffs
    out = []
    for name in result.names:
        sub = at[at["rules"] == name].set_index("field")
        if not len(sub):
            continue
        verdicts = {f: _length_verdict(sub.loc[f]) for f in result.fields if f in sub.index}
        between = result.between.get((result.mid, name), [])
        out.append(f"{name} {agreement(verdicts, partial(_field_diff_text, sub), between)}")
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
        result.between,
    )
    return TableBlock(
        "turns-verdicts",
        f"Change in mean turns per finished round from {result.base}, by field of players: simultaneous {level}% "
        f"intervals over every field and table size, and the verdict at +/-{fmt.num(result.exp.margins['turns'])} turns; "
        "whether the effect differs between fields is read from their interaction (table turns-field-interactions)",
        shown,
        result.diffs,
    )


def _interactions_table(result: GameLengthResult) -> TableBlock:
    """Every rule set's effect on turns under one field minus under another, on common deals, judged as one family."""
    frame = interactions_frame({"turns": result.between}, {})
    shown = pd.DataFrame(
        {
            "players": frame["players"],
            "rules": frame["arm"],
            "fields": [f"{a} minus {b}" for a, b in zip(frame["field_a"], frame["field_b"], strict=True)],
            "interaction [simultaneous CI]": [
                fmt.signed_ci(d, lo, hi, 2)
                for d, lo, hi in zip(frame["interaction"], frame["sim_low"], frame["sim_high"], strict=True)
            ],
            "verdict": frame["verdict"],
            "p (Holm)": frame["p_holm"].map(fmt.pvalue),
        }
    )
    level = fmt.fixed(100 * frame["sim_level"].iloc[0], 2)
    return TableBlock(
        "turns-field-interactions",
        f"Does a rule set's effect on length differ between fields? Its change in mean turns under one field minus "
        f"under another, on the same deals (clustered by blocks of deals), simultaneous {level}% intervals over every "
        f"pair of fields, rule set and table size, against +/-{fmt.num(result.exp.margins['turns'])} turns",
        shown,
        frame,
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


# ---------------------------------------------------------------- unocli's figures beside the published ones


def _ours(result: GameLengthResult) -> dict[str, views.Ours]:
    """The figures the experiment file's ``[[published]]`` rows name (``ours``), where this run measured them."""
    t = result.turns[result.turns["field"] == result.ref].set_index(["players", "rules"])
    out = {}
    if (4, result.base) in t.index:
        r = t.loc[(4, result.base)]
        text = f"{fmt.num(r['mean_with_skips'])} turns + skips; {fmt.ci(r['mean_turns'], r['ci_low'], r['ci_high'])} "
        text += f"turns alone (n = {fmt.count(r['n'])} finished rounds)"
        out["turns-with-skips-4"] = views.Ours(text, int(r["n"]), r["ci_low"], r["ci_high"])
    if (5, result.base) in t.index:
        r = t.loc[(5, result.base)]
        low, high = r["first_low"] - 0.2, r["first_high"] - 0.2
        text = f"{fmt.pp_ci(r['first_share'] - 0.2, low, high, 2)} (n = {fmt.count(r['n_all'])} rounds)"
        out["first-player-edge-5"] = views.Ours(text, int(r["n_all"]), low, high)
    return out
