"""How long is a game? Turns per round by table size and rule set, and rounds per match to 500.

Every arm (rule set) is played at every table size on the same deals, under
every field of players (:mod:`unocli.report.design`); each table size also
plays ``match_games`` whole matches per arm. Reports the mean (t interval),
median, p90 and p99 (order-statistic intervals) of turns per round over
*finished* rounds (won or blocked), the share of blocked, capped and stuck
rounds beside them (Wilson), the paired change of every rule set from the
baseline over the deals both finished with an equivalence verdict (margin
``[margins] turns``), histograms and ECDFs (DKW bands), and the rounds a match
to ``target_score`` takes. A stuck round (docs/rules.md §11.15) has no length
of play, so no length here depends on ``max_turns``. The sentences are in
:mod:`unocli.report.analyses.game_length_text`.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from unocli.analysis.frames import differences
from unocli.analysis.game_length import MATCH_Q, ROUND_Q, length_interactions, match_rounds, matches_table, outcomes, turns_table
from unocli.report import views
from unocli.report.analyses.common import Context
from unocli.report.analyses.fields import FIELDS_OPTION, check_fields, field_experiment, field_sizes, field_specs
from unocli.report.design import Design, play
from unocli.report.experiment import Experiment, View, players_list, positive_int
from unocli.report.model import Section
from unocli.study.interaction import FieldInteraction

OPTIONS = {
    "fields": FIELDS_OPTION,
    "match_games": (1000, positive_int),
    "detail_players": ([2, 4, 7, 10], players_list),
}


# The views drawn when the experiment file declares none ([[view]]; sims/game-length.toml declares these).
VIEWS = (
    View("forest", "turns-forest", "turns", "Each rule set's effect on length under each field", {"arm": "rules"}),
    View("differences", "turns-vs-baseline", "turns", "Change in mean turns from {base}, paired on the deals", {"arm": "rules"}),
    View("lines", "turns-by-field", "turns", "Mean turns per round by field ({base})", {"by": "field", "arm": "official"}),
    View("lines", "turns-by-players", "turns", "Mean turns per round by table size", {"field": "basic"}),
    View("lines", "rounds-per-match", "rounds", "Rounds to finish a match", {"field": "basic"}, "matches"),
    View("published", "published"),
)


@dataclass(frozen=True)
class GameLengthResult:
    """Turns per round and rounds per match, per rule set and table size.

    Every table has a ``field`` column: the policy every seat played (``options.fields``).
    ``turns``: one row per (field, players, rules): n (finished rounds), n_all,
    mean_turns with ci_low/high, mean_with_skips (turns plus skipped turns),
    first_share (the first player's win share) with first_low/high, median,
    p90 and p99 with ``_low``/``_high`` (order statistics, finished rounds),
    blocked_share, capped_share and stuck_share with intervals (all rounds).
    ``diffs``: the paired change in mean turns of each rule set from the
    baseline over deals both finished (:func:`unocli.report.views.differences`).
    ``matches``: rounds, turns and blocked rounds per match and the share of
    capped and stuck matches, with intervals. ``hists``: the histogram of turns
    per round of each (field, players, rules). ``rounds``: rounds per arm at
    each table size; ``blocked``, ``capped``, ``stuck``, ``total_rounds``:
    outcome counts over every round played. ``frame`` and ``match_frame``: the
    design's tidy frames the tables are read from. ``between``: per (players,
    rules), the rule's effect on turns under one field minus under another
    (:func:`~unocli.analysis.game_length.length_interactions`).
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
    frame: pd.DataFrame | None = None
    match_frame: pd.DataFrame | None = None
    between: dict[tuple, list[FieldInteraction]] = field(default_factory=dict)

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
    kinds = ("differences", "wide", "lines", "forest", "heatmap", "published")
    return check_fields(exp, partial=True) or views.refused(exp, kinds, ("", "matches"))


def compute(exp: Experiment, ctx: Context) -> GameLengthResult:
    """Play rounds and matches of every rule set at every table size, under every field of players."""
    specs = field_specs(exp)
    fields = tuple(specs)
    names = tuple(a.name for a in exp.arms_for(exp.players[0]))
    base = exp.baseline or names[0]
    fexps = {f: field_experiment(exp, specs[f]) for f in fields}
    sizes = {f: field_sizes(exp, specs[f]) for f in fields}  # a template field only where its players exist
    rounds = play(Design(fexps, sizes, ROUND_Q, base, options={"target_on": "mean"}), ctx, {"turns": exp.margins["turns"]})
    matches = play(Design(fexps, sizes, MATCH_Q, base, match=True, games=exp.options["match_games"]), ctx, label="matches")
    keys = [(f, p, name) for (f, p) in rounds.cells for name in names]
    counts = outcomes(rounds)
    return GameLengthResult(
        exp=exp,
        names=names,
        base=base,
        turns=turns_table(rounds),
        diffs=differences(rounds.frame, "turns", arm="rules"),
        matches=matches_table(matches),
        hists={(f, p, name): rounds.cells[(f, p)].acc(name).turns_hist for f, p, name in keys},
        rounds={p: rounds.cells[(fields[0], p)].games for p in exp.players},
        blocked=counts["blocked"],
        capped=counts["capped"],
        stuck=counts["stuck"],
        total_rounds=rounds.games,
        target=exp.arms_for(exp.players[0])[0].rules.target_score,
        games=rounds.games + match_rounds(matches),
        fields=fields,
        frame=rounds.frame,
        match_frame=matches.frame,
        between=length_interactions(rounds, fields, base, exp.margins["turns"]),
    )


def render(result: GameLengthResult) -> Section:
    from unocli.report.analyses.game_length_text import section  # the sentences and the charts' words

    return section(result, VIEWS)


def run(exp: Experiment, ctx: Context) -> Section:
    return render(compute(exp, ctx))
