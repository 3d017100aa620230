"""How long is a game? The game-length report's design and its own sentences over the frames.

Every rule set is played at every table size on the same deals under every field of players, as rounds and as
``match_games`` matches (:mod:`unocli.report.design`), laid out by :mod:`unocli.analysis.game_length`. Its tables,
charts and published figures are declared in sims/game-length.toml; here are only its answer and findings.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial

import pandas as pd

from unocli.analysis.game_length import MATCH_Q, ROUND_Q, Lengths, lengths
from unocli.report import fmt, kinds
from unocli.report.analyses.common import Context, caption, section, verdict_text
from unocli.report.analyses.fields import FIELDS_OPTION, by_field, check_fields, field_notes, fields_text
from unocli.report.design import Design, play
from unocli.report.experiment import Experiment
from unocli.report.model import Section
from unocli.report.options import positive_int
from unocli.report.words import agreement, change_word, level, listed
from unocli.study.stats import LARGER, UNSIZED, WITHIN_MARGIN

OPTIONS = {"fields": FIELDS_OPTION, "match_games": (1000, positive_int)}
VIEWS = "game-length"  # a file without [[view]] tables draws the shipped file's
FRAMES = ("", "matches", "turns", "per-match")  # the design's rounds and matches, the turns and matches tables


@dataclass(frozen=True)
class GameLengthResult(Lengths):
    """The played designs read as :class:`~unocli.analysis.game_length.Lengths`, with the experiment."""

    exp: Experiment


def check(exp: Experiment) -> str | None:
    if not exp.arms:
        return "arms: the game-length analysis needs at least one [arms.NAME] rule set"
    return check_fields(exp, partial=True) or kinds.refused(exp, tuple(kinds.KINDS), FRAMES)


def compute(exp: Experiment, ctx: Context) -> GameLengthResult:
    """Play rounds and matches of every rule set at every table size, under every field of players."""
    fexps, sizes = by_field(exp)  # a template field only at the sizes where its players exist
    base = exp.baseline or exp.arms[0].name
    rounds = play(Design(fexps, sizes, ROUND_Q, base, options={"target_on": "mean"}), ctx, {"turns": exp.margins["turns"]})
    matches = play(Design(fexps, sizes, MATCH_Q, base, match=True, games=exp.options["match_games"]), ctx, label="matches")
    played = lengths(rounds, matches, tuple(fexps), exp.players, base, exp.margins["turns"])
    return GameLengthResult(**vars(played), exp=exp)


def render(r: GameLengthResult) -> Section:
    exp, base = r.exp, r.base
    n = f"{fmt.count(r.rounds[exp.players[0]])} rounds per rule set and table size"

    def cap(what: str, intervals: str, field: str | None = None, arms: bool = True, **own: str) -> str:
        """A chart's caption; ``own``: a view's own ``n`` or ``policies`` (the matches chart counts matches)."""
        one = f"every seat plays {field} (the other fields are in the tables)"
        policies = own.get("policies") or (one if field else "every seat plays one field's policy: " + ", ".join(r.fields))
        rules = ", ".join(r.names) if arms else None
        return caption(exp, what, own.get("n") or n, rules=rules, policies=policies, intervals=intervals)

    setup = kinds.Setup(cap, base, hists=r.hists, counts=r.rounds, between={"turns": r.between}, words={"ref": r.ref})
    frames = {"": r.frame, "matches": r.match_frame, "turns": r.turns, "per-match": r.matches}
    played = f"Rule sets: {', '.join(r.names)}; baseline {base}. Fields of players: {fields_text(r.fields)} (every seat "
    played += "plays the field's policy). Each table size plays the same deals under every rule set and field; the "
    played += f"single-field charts show `{r.ref}`." + field_notes(exp)
    return section(exp, _answer(r), played, _findings(r), r.games, frames, setup, VIEWS)


def _word(row: pd.Series) -> str:
    return change_word(str(row["verdict"]), float(row["diff"]), "lengthens", "shortens")


def _at_mid(r: GameLengthResult) -> dict[str, pd.DataFrame]:
    """Each rule set's changes at the middle table size, by field."""
    at = r.diffs[r.diffs["players"] == r.mid] if len(r.diffs) else r.diffs
    return {name: sub for name in r.names for sub in [at[at["rules"] == name].set_index("field")] if len(sub)}


def _answer(r: GameLengthResult) -> str:
    """The baseline's length under each field and each rule set's verdict in a word."""
    t = r.turns[(r.turns["rules"] == r.base) & (r.turns["players"] == r.mid)].set_index("field")
    (first, f0), *rest = [(fmt.ci(*t.loc[f, ["mean_turns", "ci_low", "ci_high"]]), f) for f in r.fields if f in t.index]
    text = f"**Answer.** A {r.mid}-player round under {r.base} rules takes {first} turns with every seat `{f0}`"
    text += "".join(f", {x} `{f}`" for x, f in rest)
    words, at = [], _at_mid(r)
    for name, sub in at.items():
        kinds = {_word(sub.loc[f]) for f in r.fields if f in sub.index}
        between = r.between.get((r.mid, name), [])
        larger = [f"{i.field_a} and {i.field_b}" for i in between if i.verdict == LARGER]
        if len(kinds) == 1:
            words.append(f"{name} {next(iter(kinds))} under every field")
        elif larger:
            words.append(f"{name}'s effect differs by more than the margin between {listed(larger)}")
        elif any(i.verdict == UNSIZED for i in between):
            words.append(f"{name}'s effect differs between fields by an amount of undecided size")
        else:
            words.append(f"{name} verdicts differ by field, but the fields cannot be told apart")
    text += f" (mean per finished round, 95% CI, n = {fmt.count(t['n'].min())} or more each)."
    on = f" Against {r.base} at {r.mid} players, on the same deals: "
    n = min((int(sub["n"].min()) for sub in at.values()), default=0)
    margin = fmt.num(r.exp.margins["turns"])
    how = f" (n = {fmt.count(n)} deals a rule set; simultaneous {level(r.diffs)}% intervals, +/-{margin}-turn margin)"
    return text + (on + "; ".join(words) + how + "." if words else "")


def _findings(r: GameLengthResult) -> list[str]:
    base, players, ref = r.base, r.exp.players, r.ref
    b = r.turns[(r.turns["field"] == ref) & (r.turns["rules"] == base)].set_index("players")
    parts = [
        f"{p} players {fmt.ci(*b.loc[p, ['mean_turns', 'ci_low', 'ci_high']])} (median {int(b.loc[p, 'median'])}, "
        f"p90 {int(b.loc[p, 'p90'])})"
        for p in players
    ]
    n = f"n = {fmt.count(b['n'].min())} finished rounds or more"
    out = [f"Turns per round under {base} rules, every seat `{ref}`, mean [95% CI]: " + "; ".join(parts) + f" ({n})."]
    for f in (f for f in r.fields if f != ref):  # the baseline under the other fields: how much skill matters
        sub = r.turns[(r.turns["rules"] == base) & (r.turns["field"] == f)].set_index("players")
        each = "; ".join(f"{p} players {fmt.ci(*sub.loc[p, ['mean_turns', 'ci_low', 'ci_high']])}" for p in sub.index)
        out.append(
            f"Every seat `{f}`, {base} rules, mean turns: {each} (n = {fmt.count(sub['n'].min())} finished rounds or more)."
        )
    m = r.matches[(r.matches["rules"] == base) & (r.matches["field"] == ref)].set_index("players")
    each = "; ".join(f"{fmt.ci(*m.loc[p, ['rounds', 'rounds_low', 'rounds_high']])} rounds at {p} players" for p in players)
    target = r.exp.arms_for(players[0])[0].rules.target_score
    n = f"mean [95% CI], n = {fmt.count(m['n_matches'].min())} matches per table size"
    out.append(f"A match to {target} points (every seat `{ref}`) takes on average {each} ({n}).")
    at = r.diffs[(r.diffs["field"] == ref) & (r.diffs["players"] == r.mid)] if len(r.diffs) else r.diffs
    if len(at):
        margin, top = fmt.num(r.exp.margins["turns"]) + " turns", at.loc[at["diff"].abs().idxmax()]
        out.append(
            f"At {r.mid} players, every seat `{ref}`, the rule set that changes length most is {top['rules']}: "
            f"{fmt.signed(top['diff'], 1)} turns per finished round ({fmt.fixed(100 * top['relative'], 0, sign=True)}%, "
            f"simultaneous {fmt.fixed(100 * top['sim_level'], 2)}% CI "
            f"{fmt.bounds(top['sim_low'], top['sim_high'], 1, 'signed')}, "
            f"n = {fmt.count(top['n'])} deals both finished): {verdict_text(top['verdict'], margin)}."
        )
        if len(same := at[at["verdict"].isin(sorted(WITHIN_MARGIN))]):
            out.append(
                f"At {r.mid} players, no change beyond +/-{margin} from {base} in mean length (simultaneous interval "
                f"within the margin): {', '.join(same['rules'])}."
            )
    for name, sub in _at_mid(r).items():
        verdicts = {f: _word(sub.loc[f]) for f in r.fields if f in sub.index}
        text = partial(lambda s, f: fmt.signed_ci(s.loc[f, "diff"], s.loc[f, "sim_low"], s.loc[f, "sim_high"], 1), sub)
        out.append(f"At {r.mid} players, {name} {agreement(verdicts, text, r.between.get((r.mid, name), []))}.")
    out.append(
        f"Blocked rounds: {fmt.count(r.blocked)} of {fmt.count(r.total_rounds)} ({fmt.share(r.blocked / r.total_rounds, 3)}); "
        f"rounds that locked (stuck, docs/rules.md §11.15): {fmt.count(r.stuck)}; rounds capped unfinished after "
        f"max_turns: {fmt.count(r.capped)}. Lengths are over finished rounds, so none depends on max_turns."
    )
    if len(worst := r.turns[r.turns["stuck_share"] + r.turns["capped_share"] > 0]):
        w = worst.loc[(worst["stuck_share"] + worst["capped_share"]).idxmax()]
        out.append(
            f"Rounds that never finish occur under {', '.join(sorted(set(worst['rules'])))}, most at {w['players']} "
            f"players under {w['rules']} with `{w['field']}`: "
            f"{fmt.share_ci(w['stuck_share'], w['stuck_low'], w['stuck_high'], 2)} "
            f"stuck and {fmt.share(w['capped_share'], 2)} capped (n = {fmt.count(w['n_all'])})."
        )
    return out
