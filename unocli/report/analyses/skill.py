"""The skill report: one better player against fields of another, seats rotated, under each rule set; and ladders.

The numbers come from :mod:`unocli.analysis.skill` (the player's edge, its
share minus the fair share, per table size, field and rule set, and each rule
set's paired change of it) and :mod:`unocli.analysis.skill_ladder` (the
ladders' relative skill, skill shares and leads; :mod:`~unocli.analysis.skill_stored`
reads stored ones); this module checks the options, unpacks the experiment into
their :class:`~unocli.analysis.skill.Plan` and hands the frames to the views
sims/skill.toml declares (the ladders' with the text their tables show); the
findings are in :mod:`unocli.report.analyses.skill_text`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from dataclasses import field as dc_field
from functools import partial
from typing import Any

import pandas as pd

from unocli.analysis import skill, skill_ladder, skill_stored
from unocli.analysis.skill import Plan, RuleSet
from unocli.analysis.skill_ladder import LadderMeasures
from unocli.errors import ConfigError
from unocli.game.policies import parse_policy_spec
from unocli.report import fmt, kinds
from unocli.report.analyses import skill_text as text
from unocli.report.analyses.common import Context, caption
from unocli.report.experiment import Experiment
from unocli.report.forms import shown
from unocli.report.model import Block, Section, sentences
from unocli.report.options import policy_list, policy_spec, positive_int
from unocli.study.arm import Arm, check_spec, template_name
from unocli.study.ladder import ANCHOR


def _above(low: float, what: str) -> Any:
    """A check of a number above ``low`` (``what`` it must be, in the message)."""

    def check(value: Any) -> str | None:
        if isinstance(value, bool) or not isinstance(value, int | float) or not value > low:
            return f"must be {what}, not {value!r}"
        return None

    return check


def _fixed_spec(value: Any) -> str | None:
    """``""`` (none) or a policy spec without placeholders: one player for every rule set and table size."""
    if value == "":
        return None
    if isinstance(value, str) and ("{" in value or "}" in value):
        return f"must be one player for every rule set, without {{rules}} or {{players}}, not {value!r}"
    return policy_spec(value)


def _specs(parse: Any) -> Any:
    """A check of a list of policy specs, each read by ``parse`` (possibly empty, no name twice)."""

    def check(value: Any) -> str | None:
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            return f"must be a list of policy specs, not {value!r}"
        for v in value:
            try:
                parse(v)
            except ConfigError as exc:
                return str(exc)
        return f"names a policy twice: {value!r}" if len(set(value)) != len(value) else None

    return check


def _folder(value: Any) -> str | None:
    """``""`` (play the ladders) or a folder of stored ladders, relative to the experiment file."""
    if not isinstance(value, str):
        return f'must be a folder of stored ladders (as sims/ladder.sh writes them), or "" to play them, not {value!r}'
    return None


def _boolean(value: Any) -> str | None:
    return None if isinstance(value, bool) else f"must be true or false, not {value!r}"


OPTIONS = {
    "player": ("strong", policy_spec),
    "fixed_player": ("", _fixed_spec),
    "fields": (["basic", "random"], policy_list),
    "match_games": (2000, positive_int),
    "match_margin_pp": (3.0, _above(0, "a positive number")),
    # the ladders (docs/ladder.md); no ladder_policies: no ladder section. Lone players may be search players.
    "ladder_policies": ([], _specs(check_spec)),
    "ladder_lone": ([], _specs(parse_policy_spec)),
    "ladder_games": (10000, positive_int),
    "ladder_lone_games": (1000, positive_int),
    "ladder_match_games": (2000, positive_int),
    "ladder_margin_ratio": (1.2, _above(1, "a ratio above 1 (1.2: a change within 1/1.2 to 1.2 times is no change)")),
    # the ladders read from stored `unocli ladder` folders (<folder>/<rules>-<players>/) instead of played: their
    # lone players (search at 512, the bound) are theirs; ladder_policies names the round robin each must rate
    "ladders": ("", _folder),
    # with ladders: play each stored ladder's round robin again (seconds a cell) to pair the changes it allows
    "ladder_replay": (True, _boolean),
}
PLAYED_ONLY = ("ladder_lone", "ladder_games", "ladder_lone_games", "ladder_match_games")
VIEWS = "skill"  # a file without [[view]] tables draws the shipped file's (sims/skill.toml)
# the ladders' tables' frames, one per variant: each drawn only when its frame is not empty
LADDER_FRAMES = ("ladder-cells", "ladder-changes", "ladder-changes-unpaired")
FRAMES = ("", "changes", "fixed-gaps", "fixed-changes", "gaps-by-cell", "changes-by-cell", *LADDER_FRAMES)


def plan(exp: Experiment) -> Plan:
    """The experiment as the computations read it: seed, sizes, rule sets, options and margins."""
    arms = tuple(RuleSet(a.name, a.table) for a in exp.arms)
    return Plan(exp.name, exp.seed, exp.games, exp.players, exp.base, arms, exp.options, exp.margins)


def table_arm(exp: Experiment, rules_arm: str, players: int, player: str, field: str) -> Arm:
    """The table of one cell (:func:`unocli.analysis.skill.table_arm`)."""
    return skill.table_arm(plan(exp), rules_arm, players, player, field)


def check(exp: Experiment) -> str | None:
    """The arms are rule sets only (this analysis seats its own player and field), and every cell can be built.

    Every cell's table (and ladder) is built here, so a ``{rules}``/``{players}``
    template naming a player that does not exist is refused before any game is played.
    """
    for key, table in [(f"arms.{a.name}", a.table) for a in exp.arms] or [("base", exp.base)]:
        if table.policy != "random" or table.seats or table.knobs:
            return (
                f"{key}: the skill analysis seats options.player against options.fields itself; "
                "remove policy and seats from [base] and [arms] (the arms are rule sets)"
            )
    opts, names = exp.options, [a.name for a in exp.arms] or ["base"]
    ladder = bool(opts["ladder_policies"])
    if ladder and ANCHOR not in opts["ladder_policies"]:
        return f"options.ladder_policies must include {ANCHOR!r}: the relative skill and the leads are gains over it"
    if ladder and opts["ladder_lone"] and opts["ladder_lone_games"] > opts["ladder_games"]:
        return "options.ladder_lone_games must not exceed options.ladder_games: the lone tables play a subset of the deals"
    if not opts["ladder_replay"] and not opts["ladders"]:
        return "options.ladder_replay is for stored ladders (options.ladders): played ladders are always paired"
    if opts["ladders"]:
        problem = _check_stored(exp)
        if problem:
            return problem
    try:
        for p in exp.players:
            for name in names:
                for field in opts["fields"]:
                    table_arm(exp, name, p, opts["player"], field)
                if ladder and exp.arms and not opts["ladders"]:
                    skill_ladder.policies(plan(exp), name, p)
    except ConfigError as exc:
        return f"options: {exc}"
    return kinds.refused(exp, kinds.FRAME_KINDS, FRAMES)


def _check_stored(exp: Experiment) -> str | None:
    """With ``options.ladders``: a round robin to check, no option only played ladders use, and every cell stored
    with the experiment's rules and policies (each folder's command read, nothing played)."""
    opts = exp.options
    if not opts["ladder_policies"] or not exp.arms:
        return "options.ladders needs options.ladder_policies (the round robin each stored ladder must rate) and [arms]"
    given = [k for k in PLAYED_ONLY if opts[k] != OPTIONS[k][0]]
    if given:
        return f"options.{given[0]} is for played ladders: with options.ladders each stored ladder's own is used; remove it"
    try:
        root = skill_stored.root_of(exp.path, opts["ladders"])
        for w in skill_stored.wanted(plan(exp)):
            skill_stored.check_cell(root, w)
    except ConfigError as exc:
        return f"options.ladders: {exc}"
    return None


def player_name(spec: str) -> str:
    """The player's name in the report: a template without its placeholders (``tuned-{rules}-{players}`` -> ``tuned``)."""
    return template_name(spec)


@dataclass(frozen=True)
class SkillResult:
    """The player's edges (``gaps``) and each rule set's change of them (``changes``;
    :class:`unocli.analysis.skill.Edges`), the same for ``options.fixed_player`` (empty when not set: one
    player under every rule set, so a change of its gap is the rule's effect on one player), and the ladders'
    measures (``ladder``, with ``options.ladder_policies``)."""

    exp: Experiment
    player: str
    fields: tuple[str, ...]
    rule_sets: tuple[str, ...]
    baseline: str
    gaps: pd.DataFrame
    changes: pd.DataFrame
    games: int
    fixed_gaps: pd.DataFrame = dc_field(default_factory=pd.DataFrame)
    fixed_changes: pd.DataFrame = dc_field(default_factory=pd.DataFrame)
    ladder: LadderMeasures | None = None

    @property
    def fixed(self) -> str:
        """The fixed player's spec, ``""`` when none."""
        return str(self.exp.options.get("fixed_player", ""))

    @property
    def player_spec(self) -> str:
        """The player as the experiment names it (``player`` is its name in the report)."""
        return str(self.exp.options["player"])

    @property
    def per_rules(self) -> bool:
        """True when the player is a template: each rule set and table size seats its own player."""
        return self.player != self.player_spec


def compute(exp: Experiment, ctx: Context) -> SkillResult:
    """Every (table size, field, rule set) cell, rounds and matches, for the player (and the fixed player), and the
    ladders; each rule set's changes against the baseline's on the same deals."""
    setup, names = plan(exp), tuple(a.name for a in exp.arms) or ("base",)
    baseline, opts = exp.baseline or names[0], exp.options
    edges = skill.measure(setup, ctx, opts["player"], baseline)
    result = SkillResult(
        exp, player_name(opts["player"]), tuple(opts["fields"]), names, baseline, edges.gaps, edges.changes, edges.games
    )
    if opts.get("ladders"):
        root = skill_stored.root_of(exp.path, opts["ladders"])
        margin = float(opts["ladder_margin_ratio"])
        replay = ctx if opts["ladder_replay"] else None
        stored = skill_stored.measure(root, skill_stored.wanted(setup), baseline, margin, replay)
        result = replace(result, ladder=stored)
    elif opts.get("ladder_policies"):
        result = replace(result, ladder=skill_ladder.measure(setup, ctx, baseline))
    if not opts.get("fixed_player"):
        return result
    fixed = skill.measure(setup, ctx, opts["fixed_player"], baseline)
    return replace(result, fixed_gaps=fixed.gaps, fixed_changes=fixed.changes, games=edges.games + fixed.games)


def render(result: SkillResult) -> Section:
    """The answer in one paragraph, then the declared views (sims/skill.toml): the edges' chart, the findings, the
    tables of edges and of changes against the baseline, the ladders' measures, the fixed player's tables."""
    exp, ladder = result.exp, result.ladder
    target = table_arm(exp, result.baseline, exp.players[0], result.player_spec, result.fields[0]).rules.target_score
    own: dict[str, Block] = {"skill-findings": text.findings(result, target)}
    if ladder is not None:
        own["skill-ladder-findings"] = text.ladder_findings(ladder, result.baseline)
    frames = {"": result.gaps, "changes": result.changes, "fixed-gaps": result.fixed_gaps}
    frames |= {"fixed-changes": result.fixed_changes, "gaps-by-cell": _by_cell(result.gaps)}
    frames |= {"changes-by-cell": _by_cell(result.changes), **_ladder_frames(ladder)}
    words = {"player": result.player, "fixed": result.fixed, "match_margin": fmt.num(exp.options["match_margin_pp"])}
    words |= _ladder_words(ladder)
    setup = kinds.Setup(partial(_caption, result), result.baseline, blocks=own, words=words)
    blocks = kinds.declared(kinds.chosen(exp, VIEWS), exp, frames, setup)
    said = text.answer(result)
    intro = (said + "\n\n" + text.details(result) + "\n\n" + (exp.description or "").strip()).strip()
    return Section(exp.name, exp.title, intro, blocks=blocks, meta={"games": result.games}, answer=sentences(said)[0])


def _caption(result: SkillResult, what: str, intervals: str) -> str:
    exp = result.exp
    n = (
        f"{fmt.count(exp.games)} deals per cell for rounds, {fmt.count(exp.options['match_games'])} for matches, "
        "each played once per seat rotation"
    )
    own = f" ({result.player_spec}: each rule set's and table size's own)" if result.per_rules else ""
    policies = f"one {result.player}{own} against a field of " + " or ".join(result.fields)
    return caption(exp, what, n, rules=", ".join(result.rule_sets), policies=policies, intervals=intervals)


def _by_cell(frame: pd.DataFrame) -> pd.DataFrame:
    """``frame`` with each row named for the charts (column ``cell``): ``official, 4p vs basic``."""
    return frame.assign(cell=[f"{r.rules}, {r.players}p vs {r.field}" for r in frame.itertuples()])


def _lead(row: pd.Series, key: str) -> str:
    """Rounds (``lead_round``) or matches to lead with the interval and the best player: ``7 [7, 9] (strong)``."""

    def c(x: float) -> str:
        return "inf" if not math.isfinite(x) else fmt.count(int(x))

    if pd.isna(row[key]):
        return "- (not played as matches)" if key.endswith("match") else "-"
    return f"{c(row[key])} [{c(row[key + '_low'])}, {c(row[key + '_high'])}] ({row['best_' + key.split('_')[1]]})"


def _with_text(frame: pd.DataFrame, columns: dict[str, Any]) -> pd.DataFrame:
    """``frame`` with a column of text per item of ``columns`` (a function of the row), for a table that shows it
    and leaves it out of its CSV (``shown_only``)."""
    return frame.assign(**shown(frame, columns).to_dict("list"))


def _ladder_frames(m: LadderMeasures | None) -> dict[str, pd.DataFrame]:
    """The ladders' cells and changes with the text their tables show (a played ladder's cells leave the stored
    ones' best player and folder blank: their table drops those columns); the changes under the frame of their
    variant (all paired or not), the other empty, so its table is not drawn."""
    out = dict.fromkeys(LADDER_FRAMES, pd.DataFrame())
    if m is None:
        return out
    read = text.stored(m)
    cells = {
        "deals_text": lambda r: " / ".join(fmt.count(r[k]) for k in ("n_round", "n_lone", "n_match")),
        "relative_text": lambda r: (
            f"{text.relative(r)} ({r['best']} / {r['bound']})"
            if text.relative(r)
            else ("- (no bound in this ladder)" if read else "-")
        ),
        **{f"{k}_text": partial(text.share, key=k) for k in ("share_round", "share_match")},
        **{f"{k}_text": partial(_lead, key=k) for k in ("lead_round", "lead_match")},
    }
    cells["best_text"] = lambda r: "" if not read else r["best"] + ("" if r["searched"] else " (no search player in this ladder)")
    cells["ladder_text"] = lambda r: f"{r['source']} (seed {r['seed']})" if read else ""
    out["ladder-cells"] = _with_text(m.cells, cells)
    ch = m.changes
    if not ch.empty:
        changes = {
            "measure_text": lambda r: text.MEASURES[r["measure"]],
            "ratio_text": lambda r: f"x{r['ratio']:.3f} [{r['ratio_low']:.3f}, {r['ratio_high']:.3f}]",
            "sim_text": lambda r: f"[{r['sim_low']:.3f}, {r['sim_high']:.3f}]",
            "paired_text": lambda r: "yes" if r["paired"] else "no: worst case",
        }
        out["ladder-changes" if ch["paired"].all() else "ladder-changes-unpaired"] = _with_text(ch, changes)
    return out


def _ladder_words(m: LadderMeasures | None) -> dict[str, str]:
    """The ladder tables' words: the ratio margin, how the changes were paired, and the cells stored without search."""
    if m is None:
        return {}
    lacking = skill_stored.without_search(m.cells) if text.stored(m) else []
    caveat = (
        f"{'; '.join(lacking)}: the stored ladder rates no search player and no bound, so its best player is a "
        "round-robin policy, not the strongest player, it has no relative skill, and it was not played as matches. "
    )
    pairing = text.pairing(m.changes) if not m.changes.empty else ""
    source = "the stored ladders (sims/ladder.sh; each row names its folder and seed)" if text.stored(m) else ""
    words = {"ladder_margin": fmt.num(m.margin_ratio), "pairing": pairing, "caveat": caveat if lacking else ""}
    return words | {"cells_source": source or "ladders on common deals"}
