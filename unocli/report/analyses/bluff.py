"""When does bluffing a +4 pay? The bluff report: its options, the experiment unpacked, the blocks in order.

The computations are in :mod:`unocli.analysis` (``bluff_decision``: the value
of the +4 now at the decision; ``bluff_situations``: bluffs confined to a
situation, one-player deviations and best responses, under every field;
``bluff_grid``: blind bluff rates against a shared challenge rate and its
equilibrium); the words in :mod:`unocli.report.analyses.bluff_text`. Its
tables and charts are views of the frames the analysis returned (their CSVs):
sims/bluff.toml declares them in order, and each part of the report here
(:func:`decision_views`, :func:`situation_views`, :func:`grid_views`) hands
them its frames and the words they name.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

import numpy as np
import pandas as pd

from unocli.analysis.bluff_decision import DecisionResult, play_decisions
from unocli.analysis.bluff_grid import Grid, cell, play_grid
from unocli.analysis.bluff_play import ANY, Play
from unocli.analysis.bluff_situations import MIN_BLUFFS, SituationResult, Sizes, play_situations, strategies
from unocli.errors import ConfigError
from unocli.game.policies import Policy, Respond, SearchMode
from unocli.game.rules import WildDrawFour
from unocli.report import fmt, kinds
from unocli.report.analyses import bluff_text as text
from unocli.report.analyses.common import Context, caption
from unocli.report.analyses.fields import strength_text
from unocli.report.experiment import Experiment
from unocli.report.model import Section, sentences
from unocli.report.options import players_list, positive_int, probability_list
from unocli.study.arm import PolicyFile, parse_policy
from unocli.study.sweep import parse_values

DEFAULT_FIELDS = ["random", "basic", "tuned-official-4"]
VIEWS = "bluff"  # a file without [[view]] tables draws the shipped file's (sims/bluff.toml)
# the frames its views may name: the decision's (with decision_games), the situations' and the grid's ("": a report view)
FRAMES: tuple[str, ...] = ("", "decisions", "bluff-decision", "bluff-decision-interactions", "situations", "bluff-by-situation")
FRAMES += ("bluff-field-interactions", "one-player-deviations", "iterations", "best-response-ends", "bluff-gain")
FRAMES += ("break-even", "per-bluff", "equilibrium", "per-seat-effects", "other-table-sizes", "gains")
KINDS = ("table", "panels", "sizes", "bars", "dots", "curves", "heatmap", "csv", "report")  # views of a frame: it plays no design


def games_or_zero(value: Any) -> str | None:
    """A number of games, or 0 for the experiment's ``games``."""
    return None if value == 0 and not isinstance(value, bool) else positive_int(value)


def spec_text(value: Any) -> str | None:
    """A policy spec as text; its name is resolved by :func:`check`, against the policies file."""
    if not isinstance(value, str) or not value.strip():
        return f"must be a policy spec, not {value!r}"
    return None


def spec_list(value: Any, empty: bool = False) -> str | None:
    """A non-empty list of distinct policy specs (the fields); ``empty``: the empty list is allowed too."""
    if not isinstance(value, list) or not (value or empty):
        return f"must be a {'' if empty else 'non-empty '}list of policy specs, not {value!r}"
    problems = [m for m in map(spec_text, value) if m]  # every item a string before the set below hashes them
    if not problems and len(set(value)) < len(value):
        problems.append(f"names a field twice: {value!r}")
    return problems[0] if problems else None


OPTIONS = {
    "bluff_rates": ("0:1:0.1", probability_list),
    "challenge_rates": ("0:1:0.1", probability_list),
    # the grid's players; names resolve against the experiment's policies file (checked by check())
    "bluffer": ("basic", spec_text),
    "opponents": ("basic", spec_text),
    # the situation table, deviations and best responses are played under each field (every seat its policy)
    "fields": (DEFAULT_FIELDS, spec_list),
    "replicates": (1000, positive_int),
    "also_players": ([2, 6], players_list),
    # deals per arm of the situation table, the one-player deviations and each best-response turn (0: ``games``)
    "situation_games": (0, games_or_zero),
    "deviation_games": (0, games_or_zero),
    "eq_games": (0, games_or_zero),
    "eq_rounds": (3, positive_int),
    # the decision table: fresh deals per field (0: none), rollouts per option in each half, its fields (default: all)
    "decision_games": (0, games_or_zero),
    "decision_budget": (16, positive_int),
    "decision_fields": ([], lambda v: spec_list(v, empty=True)),
}


@dataclass(frozen=True)
class BluffResult:
    """The three parts of the report: the decision table (when ``decision_games`` is set), the situations under every
    field, and the grid of blind bluff rates."""

    exp: Experiment
    grid: Grid
    situations: SituationResult
    decisions: DecisionResult | None = None

    @property
    def players(self) -> int:
        return self.grid.players


def resolve(exp: Experiment, spec: str) -> Policy:
    """A policy option's policy, names from the experiment's policies file included."""
    return parse_policy(spec, exp.base.policies)


def field_policies(exp: Experiment, key: str = "fields") -> list[tuple[str, Policy]]:
    """(name, policy) of every field of option ``key`` (``decision_fields`` empty: every field), in order."""
    names = exp.options[key] or exp.options["fields"]
    return [(str(f), resolve(exp, str(f))) for f in names]


def check(exp: Experiment) -> str | None:
    b = [float(v) for v in parse_values(exp.options["bluff_rates"])]
    c = [float(v) for v in parse_values(exp.options["challenge_rates"])]
    if 0.0 not in b or len(b) < 2:
        return "options.bluff_rates: must hold 0 (the honest twin) and at least one other rate"
    if 0.0 not in c or len(c) < 2:
        return "options.challenge_rates: must hold 0 (never challenging) and at least one other rate"
    if len(exp.players) != 1:
        return "players: the bluff analysis plays one table size"
    message = _check_specs(exp, ("bluffer", "opponents"))
    if message:
        return message
    if resolve(exp, exp.options["opponents"]).respond is not Respond.KNOBS:
        return "options.opponents: the challenge rate needs a policy with respond=knobs (such as basic)"
    return _check_specs(exp, ("fields",)) or _check_decisions(exp) or kinds.refused(exp, KINDS, FRAMES)


def _check_specs(exp: Experiment, keys: Sequence[str]) -> str | None:
    """The policy options ``keys`` resolved against the experiment's policies file: ``None``, or ``options.KEY: message``."""
    specs = [(key, spec) for key in keys for spec in (exp.options[key] if key == "fields" else [exp.options[key]])]
    for key, spec in specs:
        try:
            parse_policy(spec, exp.base.policies)
        except ConfigError as exc:
            hint = "" if exp.base.policies else '; an experiment names its policies file with policies = "FILE"'
            if key == "fields" and exp.options["fields"] == DEFAULT_FIELDS:
                hint += f" (the default fields are {', '.join(DEFAULT_FIELDS)}; {DEFAULT_FIELDS[-1]} is in sims/tuned/tuned.toml)"
            return f"options.{key}: {exc}{hint}"
    return None


def _check_decisions(exp: Experiment) -> str | None:
    """The decision options: rules where a +4 can be a bluff and is answered at once, fields that play by their knobs."""
    if not int(exp.options["decision_games"] or 0):
        return None
    rules = exp.base.build(players=exp.players[0]).rules
    if not (rules.challenge and not rules.stacking_on and rules.wild_draw_four is WildDrawFour.RESTRICTED):
        return (
            "options.decision_games: the decision table needs rules where a +4 can be a bluff and is challenged at once "
            "(wild_draw_four = restricted, challenge = true, stacking off)"
        )
    for spec in exp.options["decision_fields"] or exp.options["fields"]:
        try:
            policy = resolve(exp, str(spec))
        except ConfigError as exc:
            return f"options.decision_fields: {exc}"
        if policy.search is not SearchMode.OFF:
            return f"options.decision_fields: {spec} searches; the decision table's fields play by their knobs"
    return None


def _games(exp: Experiment, key: str) -> int:
    """A game count from the options, or the experiment's ``games`` when unset (0)."""
    value = int(exp.options.get(key) or 0)
    return value if value > 0 else exp.games


def compute(exp: Experiment, ctx: Context) -> BluffResult:
    """Play the grid, the situations under every field and (when asked) the decision table."""
    opt, n = exp.options, exp.players[0]
    play = Play(exp.seed, exp.games, ctx.backend, ctx.threads, ctx.log, exp.name, exp.target_error, exp.max_games)
    sizes = (n, *(p for p in opt["also_players"] if p != n))
    rules = {p: exp.base.build(players=p).rules for p in sizes}
    margin = float(exp.margins["win_share_pp"])
    bvals = np.array(sorted({float(v) for v in parse_values(opt["bluff_rates"])}))
    cvals = np.array(sorted({float(v) for v in parse_values(opt["challenge_rates"])}))
    bluffer, opponent = resolve(exp, opt["bluffer"]), resolve(exp, opt["opponents"])
    grid = play_grid(play, rules, bvals, cvals, bluffer, opponent, int(opt["replicates"]), margin)
    study = Sizes(_games(exp, "situation_games"), _games(exp, "deviation_games"), _games(exp, "eq_games"), int(opt["eq_rounds"]))
    situations = play_situations(play, rules[n], field_policies(exp), study, int(opt["replicates"]), margin)
    decisions = None
    if int(opt["decision_games"] or 0):
        best, games, budget = grid.equilibrium.challenge_rate, int(opt["decision_games"]), int(opt["decision_budget"])
        decisions = play_decisions(play, rules[n], field_policies(exp, "decision_fields"), best, games, budget, margin)
    return BluffResult(exp, grid, situations, decisions)


def field_definitions(exp: Experiment) -> str:
    """What the fields named from the policies file are, as specs on their nearest preset, or ''."""
    policies = exp.base.policies
    if policies is None:
        return ""
    names = {str(f).partition(":")[0].strip() for f in exp.options["fields"]}
    own = PolicyFile(path=policies.path, entries=tuple((n, p) for n, p in policies.entries if n in names))
    return own.summary() if own.entries else ""


def render(result: BluffResult) -> Section:
    """The decision (rule, chart, table), then the situations (answer, chart, tables), then the grid."""
    exp, sit, dec = result.exp, result.situations, result.decisions
    policies = dict(field_policies(exp))
    answer = text.answer(sit)
    parts = (answer, exp.description or "", field_definitions(exp), text.grid_intro(result), text.note(policies))
    intro = "\n\n".join(x for x in (*parts, strength_text(exp).strip()) if x)
    findings = text.situation_findings(sit, policies) + text.grid_findings(result.grid, exp)
    games, one = result.grid.games + sit.games, sentences(answer)[1]
    views = [situation_views(sit, policies), grid_views(result.grid, exp)]
    if dec is not None:
        # the decision opens the report: the rule a player can use, then its chart and table
        rule = text.rule(dec)
        intro = rule + "\n\n" + text.rule_values(dec) + "\n\n" + intro
        findings = text.decision_findings(dec) + findings
        games, one = games + sum(dec.games.values()), sentences(rule)[0]
        views.append(decision_views(dec))

    def cap(what: str, intervals: str, n: str = "", policies: str | None = None) -> str:
        return caption(exp, what, n, rules=exp.base.rules, policies=policies, intervals=intervals)

    frames = {k: f for v in views for k, f in v.frames.items()}
    setup = kinds.Setup(caption=cap, words={k: w for v in views for k, w in v.words.items()})
    drawn = kinds.declared(kinds.chosen(exp, VIEWS), exp, frames, setup)
    return Section(exp.name, exp.title, intro, findings, drawn, {"games": games}, one)


class Views(NamedTuple):
    """What one part of the report hands the views sims/bluff.toml declares, by name: the frames they read and the
    words their titles, notes and captions name (``{key}``)."""

    frames: dict[str, pd.DataFrame]
    words: dict[str, str]


def chart_frame(t: pd.DataFrame, players: int, every: str, fields: bool) -> pd.DataFrame:
    """The rows of every own hand (own ``any``) at their table size, each named for the forest of panels sims/bluff.toml
    declares (column ``row``): its field (with ``fields``) and the next player's hand (``every``: any hand)."""
    rows = t[t["own_hand"] == ANY]
    names = [
        (f"{r.field}: " if fields else "") + (every if r.next_hand == ANY else f"next holds {r.next_hand}")
        for r in rows.itertuples()
    ]
    return rows.assign(players=players, row=names)


def verdicts_by_pair(between: pd.DataFrame) -> pd.DataFrame:
    """The fields' interactions (every row in the CSV), each with its pair of fields' verdict counts (``by_verdict``,
    which sims/bluff.toml shows once per pair); none when there is one field."""
    if not len(between):
        return between
    pairs = between.groupby(["field_a", "field_b"], sort=False)["verdict"]
    return between.assign(by_verdict=pairs.transform(text.verdict_counts))


# ---------------------------------------------------------------- the decision


def decision_views(dec: DecisionResult) -> Views:
    """The decision's chart and table (every cell with its answer) and the fields' interactions."""
    table = dec.table.copy()
    table.insert(len(table.columns) - 1, "answer", text.decision_answers(dec.table))
    chart = chart_frame(dec.table, dec.players, "every position", len(dec.fields) > 1)
    every = dec.table[dec.table["next_hand"] == ANY].drop_duplicates("field")
    words = {
        "decision_n": ", ".join(f"{fmt.count(int(r.n_positions))} positions under {r.field}" for r in every.itertuples()),
        "decision_policies": ", ".join(f"every seat {f}, nobody bluffing" for f in dec.fields),
        "best_rate": f"{dec.best_rate:.2f}",
        "best_note": text.best_note(dec),
        "best_panel": text.best_panel(dec),
        "decision_deals": fmt.count(sum(dec.games.values())),
        "decision_budget": str(dec.budget),
    }
    frames = {"decisions": table, "bluff-decision": chart, "bluff-decision-interactions": verdicts_by_pair(dec.between)}
    return Views(frames, words)


# ---------------------------------------------------------------- the situations


def situation_views(sit: SituationResult, policies: dict[str, Policy]) -> Views:
    """The situations' chart and table (every cell with its verdict), the one-player deviations, the fields'
    interactions and the best-response search."""
    table = sit.situations.copy()
    table.insert(list(table.columns).index("gain_verdict"), "verdict", text.situation_words(sit.situations))
    chart = chart_frame(sit.situations, sit.players, "every chance", True)
    frames = {"situations": table, "bluff-by-situation": chart, "one-player-deviations": sit.deviations}
    deals = fmt.count(sit.sizes.situations)
    words = {"situation_n": f"{deals} deals per point ({sit.players} players)", "situation_deals": deals}
    words |= {"informed": text.INFORMED, "random_note": text.note(policies), "min_bluffs": str(MIN_BLUFFS)}
    words |= {"own": "; ".join(f"{f} {text.own_challenge(p)}" for f, p in policies.items())}
    words |= {"strategies": str(len(strategies())), "alternatives": str(len(strategies()) - 1)}
    words |= {"turn_deals": fmt.count(sit.sizes.turn)}
    ends = sit.fixed_points.melt(["field", "start", "rounds", "fixed_point"], var_name="seat", value_name="plays")
    frames |= {"iterations": sit.iterations, "bluff-field-interactions": verdicts_by_pair(sit.between)}
    return Views(frames | {"best-response-ends": ends.assign(seat=ends["seat"].str.removeprefix("seat_"))}, words)


# ---------------------------------------------------------------- the grid


def grid_views(g: Grid, exp: Experiment) -> Views:
    """The grid's frames (its gains by cell, break-even rates, cards per bluff, equilibrium, per-seat effects, other
    table sizes and the gains judged on simultaneous intervals), each with the shown-only columns sims/bluff.toml
    reads."""
    cells = [text.cell_text(g, i, j) if i else "0" for i in range(len(g.bvals)) for j in range(len(g.cvals))]
    top, rates = g.cvals[-1], g.break_even_by_rate
    texts = [text.rate_ci_text(lo, hi, top, g.replicates) for lo, hi in zip(rates["ci_low"], rates["ci_high"], strict=True)]
    frames = {
        "bluff-gain": g.table.assign(c=g.table["challenge_rate"].map("{:g}".format), cell=cells),
        "break-even": rates[["bluff_rate", "break_even_challenge"]].assign(
            ci=texts, n=rates["n"], rate=rates["break_even_challenge"].map(lambda x: text.rate_text(x, top))
        ),
        "per-bluff": g.per_bluff.assign(bluffer=4 * g.per_bluff["caught"], victim=4 * (1 - g.per_bluff["caught"])),
        "equilibrium": _equilibrium(g),
        "per-seat-effects": g.per_seat,
        "other-table-sizes": g.others,
        "gains": g.gains,
    }
    path = " -> ".join(f"(b={g.bvals[i]:g}, c={g.cvals[j]:g})" for i, j in g.equilibrium.path)
    words = {"top_bluff": f"{g.bvals[-1]:g}", "grid_deals": fmt.count(g.deals), "grid_replicates": str(g.replicates)}
    words |= {"grid_cells": str(g.gain.size), "grid_players": str(g.players), "grid_policies": text.grid_policies(g, exp)}
    return Views(frames, words | {"equilibrium_path": path})


def _equilibrium(g: Grid) -> pd.DataFrame:
    """The equilibrium in one row: its rates and value with their spreads (the CSV), then the value's spread, the
    nearest grid point and what either side gains by deviating there (shown only)."""
    eq = g.equilibrium
    keys = ("bluff_rate", "bluff_low", "bluff_high", "challenge_rate", "challenge_low", "challenge_high", "value")
    row = {k: getattr(eq, k) for k in keys} | {"n": g.deals, "replicates": g.replicates}
    row["bounds"] = "middle 95% of the equilibrium over block-bootstrap resamples (a spread, not a CI)"
    bi, cj = eq.nearest
    row |= {"value_low": eq.value_low, "value_high": eq.value_high, "nearest": cell(g.bvals[bi], g.cvals[cj])}
    for side, gain in (("bluffer", eq.bluffer_gain), ("opponent", eq.opponent_gain)):
        row |= dict(zip((side, f"{side}_low", f"{side}_high"), gain, strict=True))
    return pd.DataFrame([row])
