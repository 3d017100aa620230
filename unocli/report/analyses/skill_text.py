"""The skill report's words: the quotable answer, the findings and the ladder section's sentences.

"Raises" and "lowers" are said only of a change larger than its margin
(verdict ``larger`` from :func:`~unocli.study.stats.classify`); a count of
cells above or below 0 reads intervals simultaneous over the cells counted.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
import pandas as pd

from unocli.analysis.skill import beyond_zero, magnified
from unocli.analysis.skill_ladder import LadderMeasures
from unocli.report import fmt
from unocli.study.stats import LARGER, WITHIN_MARGIN

if TYPE_CHECKING:
    from unocli.report.analyses.skill import SkillResult

#: The ladders' measures as a reader names them.
MEASURES = {
    "relative_skill": "relative skill (best gain over random / the bound's)",
    "share_round": "skill share of a round's outcome variance",
    "share_match": "skill share of a match's outcome variance",
    "lead_round": "rounds until the best leads random with 90% chance",
    "lead_match": "matches until the best leads random with 90% chance",
}


def _counts(frame: pd.DataFrame, value: str, centre: float = 0.0) -> tuple[int, int, int]:
    """Changes larger than the margin up and down (``value`` above / below ``centre``), and those within it."""
    larger = frame["verdict"] == LARGER
    up, down = int((larger & (frame[value] > centre)).sum()), int((larger & (frame[value] < centre)).sum())
    return up, down, int(frame["verdict"].isin(sorted(WITHIN_MARGIN)).sum())


def gap_text(row: pd.Series, kind: str) -> str:
    """The edge in pp with its interval, and relative to the fair share: ``+1.52 pp [+1.21, +1.83], x1.06 fair``."""
    fair = float(row[f"{kind}_fair"])
    text = fmt.pp_ci(row[f"{kind}_gap"], row[f"{kind}_gap_low"], row[f"{kind}_gap_high"], 2)
    return text + f", x{fmt.fixed(1 + row[f'{kind}_gap'] / fair, 2)} fair" if fair > 0 else text


def answer(result: SkillResult) -> str:
    """One paragraph: is it luck? The gap at the reference size per field, its range, and what house rules do."""
    sizes, g, base = result.exp.players, result.gaps, result.baseline
    p = 4 if 4 in sizes else sizes[len(sizes) // 2]
    rows = {f: g[(g["players"] == p) & (g["field"] == f) & (g["rules"] == base)].iloc[0] for f in result.fields}
    shown = [
        f"against {p - 1} `{f}` player{'s' if p > 2 else ''} it wins {fmt.share(r['round_share'])} of rounds "
        f"(edge {gap_text(r, 'round')}) and {fmt.share(r['match_share'])} of matches (edge {gap_text(r, 'match')})"
        for f, r in rows.items()
    ]
    above, below, level = beyond_zero(g)
    larger, clear = magnified(g)
    magnify = (
        f"larger than the per-round edge, same sign, in {larger} of the {clear} cells with a clear per-round edge"
        if clear
        else "with no per-round edge to magnify"
    )
    lead = "Not pure luck" if above or below else "No skill detected at this sample size"
    text = (
        f"**{lead}.** Under the {base} rules at {p} players, where the fair share is {fmt.share(1 / p)}, "
        f"one `{result.player}` player {'; '.join(shown)} (edges are the player's share minus the fair share, "
        f"95% intervals over deals, seats rotated). Over all {len(g)} cells of table size, field and rule set the "
        f"per-round edge is above 0 in {above} and below 0 in {below} (simultaneous {fmt.fixed(100 * level, 2)}% "
        f"intervals over the cells), and ranges from {fmt.pp(g['round_gap'].min())} to {fmt.pp(g['round_gap'].max())}; "
        f"per match it ranges from {fmt.pp(g['match_gap'].min())} to {fmt.pp(g['match_gap'].max())}, {magnify}. "
    )
    return text + _rules_sentence(result) + _per_rules_caveat(result)


def _per_rules_caveat(result: SkillResult) -> str:
    """With a ``{rules}``/``{players}`` player, what a rule set's change of the edge compares (two different players)."""
    if not result.per_rules:
        return ""
    elsewhere = (
        f" {_rules_sentence(result, fixed=True)}"
        if not result.fixed_changes.empty
        else " (for that, the house-rules report measures one fixed player's edge under each rule)."
    )
    return (
        f" The player is a template, `{result.player_spec}`: each rule set and table size seats its own `{result.player}` "
        f"player, so a rule set's change of the edge compares two players, each made for its own rules: it says whether "
        f"skill pays more or less under that rule for a player who knows the rule, not what the rule does to one fixed "
        f"player.{elsewhere}"
    )


def _rules_sentence(result: SkillResult, fixed: bool = False) -> str:
    """What each rule set does to the per-round edge against the baseline, over table sizes and fields, by verdict.

    "Raises" is toward the player (a larger edge, or a smaller deficit where the player trails the fair share).
    ``fixed``: of the fixed player's gap instead.
    """
    ch = result.fixed_changes if fixed else result.changes
    if ch.empty:
        return ""
    r = ch[ch["kind"] == "round"]
    parts = []
    for name in dict.fromkeys(r["rules"]):
        sub = r[r["rules"] == name]
        up, down, within = _counts(sub, "d_gap")
        parts.append(
            f"{name} raises it beyond the margin in {up}, lowers it beyond the margin in {down} and changes it by no "
            f"more than the margin in {within} of {len(sub)} ({fmt.pp(sub['d_gap'].min())} to {fmt.pp(sub['d_gap'].max())})"
        )
    lead = f"With one fixed `{result.fixed}` player instead, under every rule set: " if fixed else ""
    return (
        f"{lead}{'against' if fixed else 'Against'} the {result.baseline} rules on the same deals "
        "(the per-round edge, over the cells of table size and field): "
        + "; ".join(parts)
        + f" (simultaneous {fmt.fixed(100 * r['sim_level'].iloc[0], 2)}% intervals, equivalence margin "
        f"+/-{fmt.num(r['margin_pp'].iloc[0])} pp; the rest undecided, with or without a change of undecided size)."
    )


def findings(result: SkillResult, target: int) -> str:
    """The findings, as a block under the headline chart (``target``: the points a match is played to)."""
    g, exp = result.gaps, result.exp
    lines = ["**Findings**", ""]
    for field in result.fields:
        sub = g[(g["field"] == field) & (g["rules"] == result.baseline)]
        lines.append(
            f"- {result.player} against {field}, {result.baseline} rules, per round: "
            + "; ".join(f"{gap_text(x, 'round')} at {x['players']} players" for _, x in sub.iterrows())
            + "; per match: "
            + "; ".join(f"{gap_text(x, 'match')} at {x['players']}" for _, x in sub.iterrows())
            + "."
        )
    rounds = g.groupby("players")["match_rounds"].mean()
    lines.append(
        f"- Sizes: {fmt.count(exp.games)} deals per cell for rounds and {fmt.count(exp.options['match_games'])} for "
        f"matches to {fmt.count(target)} points, each deal played once per seat rotation; a match took "
        + ", ".join(f"{fmt.num(v)} rounds at {p} players" for p, v in rounds.items())
        + " on average (over rule sets and fields)."
    )
    if not result.changes.empty:
        m = result.changes[result.changes["kind"] == "match"]
        up, down, within = _counts(m, "d_gap")
        lines.append(
            f"- Per match against {result.baseline}: {up} rule set cells raise the gap beyond the margin "
            f"(+/-{fmt.num(m['margin_pp'].iloc[0])} pp), {down} lower it beyond the margin, {within} change it by no "
            f"more than the margin (negligible or equivalent), of {len(m)}."
        )
    return "\n".join(lines)


def share(row: pd.Series, key: str) -> str:
    """A skill share in percent with its interval."""
    return f"{100 * row[key]:.2f}% [{100 * row[key + '_low']:.2f}, {100 * row[key + '_high']:.2f}]"


def ladder_findings(m: LadderMeasures, baseline: str) -> str:
    """Sentences for the ladder section: each measure under the baseline, and how the rule sets' changes fall."""
    parts = []
    for _, r in m.cells[m.cells["rules"] == baseline].iterrows():
        rel = (
            f"relative skill {r['relative_skill']:.3f} [{r['relative_skill_low']:.3f}, {r['relative_skill_high']:.3f}]; "
            if "relative_skill" in r and pd.notna(r["relative_skill"])
            else ""
        )
        shares = f"{share(r, 'share_round')} of a round and {share(r, 'share_match')} of a match"
        parts.append(f"at {r['players']} players {rel}skill share {shares}")
    text = f"Under the {baseline} rules, " + "; ".join(parts) + "."
    if m.changes.empty:
        return text
    ch = m.changes
    up, down, within = _counts(ch, "ratio", 1.0)
    biggest = ch[ch["verdict"] == LARGER].sort_values("ratio", key=lambda s: -np.abs(np.log(s))).head(4)
    moved = ", ".join(f"{r.rules} at {r.players} players ({MEASURES[r.measure]}, x{r.ratio:.2f})" for r in biggest.itertuples())
    return (
        text + f" Against {baseline} on the same deals, of {len(ch)} changes (rule set x table size x measure), {up} raise "
        f"a measure and {down} lower it beyond x1/{fmt.num(m.margin_ratio)} to x{fmt.num(m.margin_ratio)}, {within} stay "
        "within that margin, the rest are undecided at this size" + (f"; the largest: {moved}." if moved else ".")
    )
