"""When does bluffing a +4 pay? The bluff report: its options, the experiment unpacked, the blocks in order.

The computations are in :mod:`unocli.analysis` (``bluff_decision``: the value
of the +4 now at the decision; ``bluff_situations``: bluffs confined to a
situation, one-player deviations and best responses, under every field;
``bluff_grid``: blind bluff rates against a shared challenge rate and its
equilibrium); the words in :mod:`unocli.report.analyses.bluff_text`, the
tables and charts in :mod:`unocli.report.analyses.bluff_views`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from unocli.analysis.bluff_decision import DecisionResult, play_decisions
from unocli.analysis.bluff_grid import Grid, play_grid
from unocli.analysis.bluff_play import Play
from unocli.analysis.bluff_situations import SituationResult, Sizes, play_situations
from unocli.errors import ConfigError
from unocli.game.policies import Policy, Respond, SearchMode
from unocli.game.rules import WildDrawFour
from unocli.report import fmt, kinds
from unocli.report.analyses import bluff_text as text
from unocli.report.analyses import bluff_views as views
from unocli.report.analyses.common import Context, caption
from unocli.report.experiment import Experiment
from unocli.report.model import Section, sentences
from unocli.report.options import players_list, positive_int, probability_list
from unocli.study.arm import PolicyFile, parse_policy
from unocli.study.sweep import parse_values

DEFAULT_FIELDS = ["random", "basic", "tuned-official-4"]
VIEWS = "bluff"  # a file without [[view]] tables draws the shipped file's (sims/bluff.toml)


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
    return _check_specs(exp, ("fields",)) or _check_decisions(exp)


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


def run(exp: Experiment, ctx: Context) -> Section:
    return render(compute(exp, ctx))


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
    defined = field_definitions(exp)
    answer = text.answer(sit)
    intro = "\n\n".join(x for x in (answer, exp.description or "", defined, text.grid_intro(result), text.note(policies)) if x)
    named = views.situation_blocks(sit, exp, policies) | views.grid_blocks(result.grid, exp)
    findings = text.situation_findings(sit, policies) + text.grid_findings(result.grid, exp)
    games, one = result.grid.games + sit.games, sentences(answer)[1]
    if dec is not None:
        # the decision opens the report: the rule a player can use, then its chart and table
        rule = text.rule(dec)
        intro = rule + "\n\n" + text.rule_values(dec) + "\n\n" + intro
        named = views.decision_blocks(dec, exp) | named
        findings = text.decision_findings(dec) + findings
        games, one = games + sum(dec.games.values()), sentences(rule)[0]
    words = {"own": views.own_challenges(policies), "top_bluff": f"{result.grid.bvals[-1]:g}", "informed": text.INFORMED}
    words |= {"situation_n": f"{fmt.count(sit.sizes.situations)} deals per point ({sit.players} players)"}
    words |= views.decision_words(dec) if dec is not None else {}
    g = result.grid
    frames = {"per-seat-effects": g.per_seat, "one-player-deviations": sit.deviations, "other-table-sizes": g.others}
    frames["bluff-by-situation"] = views.chart_frame(sit.situations, sit.players, "every chance", True)
    if dec is not None:
        frames["bluff-decision"] = views.chart_frame(dec.table, dec.players, "every position", len(dec.fields) > 1)

    def cap(what: str, intervals: str, n: str = "", policies: str | None = None) -> str:
        return caption(exp, what, n, rules=exp.base.rules, policies=policies, intervals=intervals)

    setup = kinds.Setup(caption=cap, blocks=named, words=words)
    blocks = kinds.declared(kinds.chosen(exp, VIEWS), exp, frames, setup)
    return Section(exp.name, exp.title, intro, findings, blocks, {"games": games}, one)
