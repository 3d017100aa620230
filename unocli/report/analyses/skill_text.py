"""The skill report's words: the quotable answer, the findings and the ladder section's sentences.

"Raises" and "lowers" are said only of a change larger than its margin
(verdict ``larger`` from :func:`~unocli.study.stats.classify`); a count of
cells above or below 0 reads intervals simultaneous over the cells counted.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
import pandas as pd

from unocli.analysis import skill_stored
from unocli.analysis.skill import beyond_zero, magnified
from unocli.analysis.skill_ladder import LadderMeasures
from unocli.report import fmt
from unocli.report.words import level
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


def _reference(result: SkillResult) -> tuple[int, dict[str, pd.Series]]:
    """The table size the answer quotes (4 when played) and, per field, its row under the baseline rules."""
    sizes, g = result.exp.players, result.gaps
    p = 4 if 4 in sizes else sizes[len(sizes) // 2]
    return p, {f: g[(g["players"] == p) & (g["field"] == f) & (g["rules"] == result.baseline)].iloc[0] for f in result.fields}


def answer(result: SkillResult) -> str:
    """The quotable answer (under about 80 words): is it luck? The round edge at the reference size per field, and
    how many cells show one; the match edges, the ranges and what house rules do follow in :func:`details`."""
    g = result.gaps
    p, rows = _reference(result)
    above, below, simultaneous = beyond_zero(g)
    edge = {f: fmt.pp_ci(r["round_gap"], r["round_gap_low"], r["round_gap_high"], 2) for f, r in rows.items()}
    per_round = "; ".join(f"{fmt.share(r['round_share'])} against {p - 1} `{f}` (edge {edge[f]})" for f, r in rows.items())
    lead = "Not pure luck" if above or below else "No skill detected at this sample size"
    return (
        f"**{lead}.** Under the {result.baseline} rules at {p} players (fair share {fmt.share(1 / p)}), one "
        f"`{result.player}` player wins {per_round} of rounds. Its per-round edge is above 0 in {above} and below 0 in "
        f"{below} of all {len(g)} cells of table size, field and rule set (simultaneous "
        f"{fmt.fixed(100 * simultaneous, 2)}% intervals)."
    )


def details(result: SkillResult) -> str:
    """The answer's evidence: match edges at the reference size, the ranges over cells, and the rule sets' changes."""
    g = result.gaps
    p, rows = _reference(result)
    shown = [
        f"against `{f}` {fmt.share(r['match_share'])} of matches (edge {gap_text(r, 'match')}; per round {gap_text(r, 'round')})"
        for f, r in rows.items()
    ]
    larger, clear = magnified(g)
    magnify = (
        f"larger than the per-round edge, same sign, by an interval that excludes 0 in {larger} of the {clear} cells "
        f"whose per-round edge excludes 0 (simultaneous {fmt.fixed(100 * (1 - 0.05 / len(g)), 2)}% intervals over the "
        f"{len(g)} cells; the difference at the worst case of the two edges' correlation)"
        if clear
        else "with no per-round edge to magnify"
    )
    text = (
        f"At {p} players the `{result.player}` player wins {'; '.join(shown)} (edges are the player's share minus the "
        f"fair share, 95% intervals over deals, seats rotated). Over the cells the per-round edge ranges from "
        f"{fmt.pp(g['round_gap'].min())} to {fmt.pp(g['round_gap'].max())}; per match it ranges from "
        f"{fmt.pp(g['match_gap'].min())} to {fmt.pp(g['match_gap'].max())}, {magnify}. "
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
        ends = [sub.loc[sub["d_gap"].idxmin()], sub.loc[sub["d_gap"].idxmax()]]
        span = " to ".join(fmt.pp_ci(e["d_gap"], e["sim_low"], e["sim_high"], 2) for e in ends)
        parts.append(
            f"{name} raises it beyond the margin in {up}, lowers it beyond the margin in {down} and changes it by no "
            f"more than the margin in {within} of {len(sub)} ({span})"
        )
    lead = f"With one fixed `{result.fixed}` player instead, under every rule set: " if fixed else ""
    return (
        f"{lead}{'against' if fixed else 'Against'} the {result.baseline} rules on the same deals "
        "(the per-round edge, over the cells of table size and field): "
        + "; ".join(parts)
        + f" (simultaneous {level(r)}% intervals, equivalence margin "
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
    lines.append(
        f"- Sizes: {fmt.count(exp.games)} deals per cell for rounds and {fmt.count(exp.options['match_games'])} for "
        f"matches to {fmt.count(target)} points, each deal played once per seat rotation; a match took on average "
        + "; ".join(_rounds(sub, p) for p, sub in g.groupby("players"))
        + f" ({_cells(g)}95% intervals clustered by deal, bounded for the rotations' unknown correlation)."
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


def _rounds(cells: pd.DataFrame, players: int) -> str:
    """Rounds per match at one table size: its one cell, or the cells' lowest and highest, each with its interval."""
    ends = cells.sort_values("match_rounds", kind="stable").iloc[[0, -1]]
    shown = [fmt.ci(r.match_rounds, r.match_rounds_low, r.match_rounds_high) for r in ends.itertuples()]
    return f"{shown[0] if len(cells) == 1 else ' to '.join(shown)} rounds at {players} players"


def _cells(gaps: pd.DataFrame) -> str:
    """What a table size's rounds per match range over, when it has more than one cell of rule set and field."""
    per = gaps.groupby("players").size()
    if per.max() == 1:
        return ""
    counts = str(per.iloc[0]) if per.nunique() == 1 else "/".join(map(str, per))
    return f"the lowest and highest of each size's {counts} cells of rule set and field; "


def share(row: pd.Series, key: str) -> str:
    """A skill share in percent with its interval (``-`` where the ladder has none, as a ladder not played as matches)."""
    if pd.isna(row[key]):
        return "-"
    return f"{100 * row[key]:.2f}% [{100 * row[key + '_low']:.2f}, {100 * row[key + '_high']:.2f}]"


def relative(row: pd.Series) -> str:
    """The relative skill with its interval, ``0.485 [0.453, 0.518]``; empty where the ladder has no bound."""
    if pd.isna(row.get("relative_skill")):
        return ""
    return f"{row['relative_skill']:.3f} [{row['relative_skill_low']:.3f}, {row['relative_skill_high']:.3f}]"


def stored(m: LadderMeasures) -> bool:
    """True when the measures were read from stored ladders (:mod:`unocli.analysis.skill_stored`), not played."""
    return "source" in m.cells


def ladder_findings(m: LadderMeasures, baseline: str) -> str:
    """Sentences for the ladder section: each measure under the baseline, and how the rule sets' changes fall."""
    parts = []
    for _, r in m.cells[m.cells["rules"] == baseline].iterrows():
        rel = f"relative skill {relative(r)}; " if relative(r) else ""
        shares = f"{share(r, 'share_round')} of a round and {share(r, 'share_match')} of a match"
        parts.append(f"at {r['players']} players {rel}skill share {shares}")
    text = best_players(m) + f"Under the {baseline} rules, " + "; ".join(parts) + "."
    if m.changes.empty:
        return text
    ch = m.changes
    up, down, within = _counts(ch, "ratio", 1.0)
    biggest = ch[ch["verdict"] == LARGER].sort_values("ratio", key=lambda s: -np.abs(np.log(s))).head(4)
    moved = ", ".join(f"{r.rules} at {r.players} players ({MEASURES[r.measure]}, x{r.ratio:.2f})" for r in biggest.itertuples())
    how = pairing(ch)
    stay = "stays" if within == 1 else "stay"
    return (
        text + f" Against {baseline} {how}, of {len(ch)} changes (rule set x table size x measure), {up} raise "
        f"a measure and {down} lower it beyond x1/{fmt.num(m.margin_ratio)} to x{fmt.num(m.margin_ratio)}, {within} {stay} "
        "within that margin, the rest are undecided at this size" + (f"; the largest: {moved}." if moved else ".")
    )


def best_players(m: LadderMeasures) -> str:
    """Which best player each cell's measures were taken with, naming every cell rated without a search player.

    Empty for ladders the report played itself (their players are the experiment's ``ladder_lone``).
    """
    if not stored(m):
        return ""
    c = m.cells
    counts = c[c["searched"].astype(bool)]["best"].value_counts()
    with_search = ", ".join(f"`{b}` in {n}" for b, n in counts.items())
    lacking = skill_stored.without_search(c)
    text = (
        f"The ladders are the stored ones ({', '.join(dict.fromkeys(c['source'].str.rsplit('/', n=1).str[0]))}/, seed "
        f"{', '.join(str(s) for s in dict.fromkeys(c['seed']))}): their measures are read, not played again (only their "
        "round robin is, to pair the changes below). Their best player, per round: "
        f"{with_search} of the {int(c['searched'].sum())} cells that rate `search`. " + clear_leads(c)
    )
    if lacking:
        bests = ", ".join(f"`{r.best}`" for r in c[~c["searched"].astype(bool)].itertuples())
        cells, its, has = ("cell was", "its", "it has") if len(lacking) == 1 else ("cells were", "their", "they have")
        text += (
            f"{fmt.count(len(lacking))} {cells} stored without any search player ({', '.join(lacking)}): {its} best "
            f"is a round-robin policy ({bests}), not the strongest player unocli has, so {has} no relative skill and "
            f"{its} rounds to lead are measured with a weaker best player and not compared with the official rules'. "
        )
    return text


def clear_leads(c: pd.DataFrame) -> str:
    """In how many stored cells the best player's lead over the next-rated one has an interval that excludes 0, on
    simultaneous (Bonferroni) intervals over the cells read together, naming the others (their best is the highest
    point estimate only); empty where the ladders store no such gap."""
    if "best_gap_se" not in c:
        return ""
    known = c[c["best_gap_se"].notna()]
    if known.empty:
        return ""
    z = skill_stored.family_z(len(known))
    unclear = known[~(known["best_gap"] - z * known["best_gap_se"] > 0)]
    text = (
        "The best leads the next-rated player by a rating gap whose interval excludes 0 in "
        f"{len(known) - len(unclear)} of the {len(known)} cells (simultaneous {100 * (1 - 0.05 / len(known)):.2f}% "
        f"intervals over the {len(known)}, Bonferroni, from each ladder's clustered standard error)"
    )
    if unclear.empty:
        return text + ". "
    named = "; ".join(f"{r.rules} at {r.players} players, over `{r.second}`" for r in unclear.itertuples())
    other = "the other one" if len(unclear) == 1 else f"the other {len(unclear)}"
    return text + f"; in {other} ({named}) that interval includes 0: the best is the highest point estimate only. "


def pairing(ch: pd.DataFrame) -> str:
    """How the changes against the baseline were taken: all paired, none (worst case), or paired where replayed."""
    if ch["paired"].all():
        return "on the same deals"
    if not ch["paired"].any():
        return "on common deals, not paired (worst-case intervals: the stored ladders hold no per-deal figures)"
    paired = ", ".join(MEASURES[m] for m in dict.fromkeys(ch.loc[ch["paired"].astype(bool), "measure"]))
    return f"on common deals (paired deal by deal: {paired}; worst-case intervals for the rest)"
