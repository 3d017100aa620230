"""How long is a game: turns per round and rounds per match, read from the played designs' frames.

The report plays two designs (rounds and matches, every rule set under every
field at every table size, on the same deals; ``unocli.report.design``) and
hands them here: :func:`turns_table` and :func:`matches_table` lay the tidy
frames out as one row per (field, players, rules), with the percentiles of
each cell's histogram of turns (order-statistic intervals); :func:`outcomes`
counts blocked, capped and stuck rounds; :func:`length_interactions` is each
rule's effect on length under one field minus under another (the only ground
for saying it differs between fields). :func:`lengths` reads all of them into
one typed :class:`Lengths`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from unocli.analysis.fields import field_interactions
from unocli.analysis.frames import Played, differences, quantile_columns, wide
from unocli.study.interaction import FieldInteraction

ROUND_Q = ("turns", "skips", "cards_drawn", "reshuffles", "won", "blocked", "capped", "stuck", "win_first")
MATCH_Q = ("rounds", "rounds_blocked", "rounds_capped", "rounds_stuck", "turns", "capped", "stuck")
QUANTILES = {"median": 0.5, "p90": 0.9, "p99": 0.99}
# The design frame's quantities as the columns of the turns and matches tables (mean, low, high).
TURNS = {
    "turns": ("mean_turns", "ci_low", "ci_high"),
    "skips": ("skips",),
    "win_first": ("first_share", "first_low", "first_high"),
    "blocked": ("blocked_share", "blocked_low", "blocked_high"),
    "capped": ("capped_share", "capped_low", "capped_high"),
    "stuck": ("stuck_share", "stuck_low", "stuck_high"),
}
MATCHES = {
    "rounds": ("rounds", "rounds_low", "rounds_high"),
    "turns": ("turns", "turns_low", "turns_high"),
    "rounds_blocked": ("blocked_rounds", "blocked_low", "blocked_high"),
    "capped": ("capped_share", "capped_low", "capped_high"),
    "stuck": ("stuck_share", "stuck_low", "stuck_high"),
    "rounds_stuck": ("stuck_rounds",),
}


def turns_table(rounds: Played) -> pd.DataFrame:
    """The turns table: the design's means as columns, with the percentiles of each cell's histogram."""
    t = wide(rounds.frame, TURNS, arm="rules", n="turns")
    t["n_all"] = [rounds.cells[(f, p)].games for f, p in zip(t["field"], t["players"], strict=True)]
    t["mean_with_skips"] = t["mean_turns"] + t.pop("skips")
    hists = [rounds.cells[(r.field, r.players)].acc(r.rules).turns_hist for r in t.itertuples()]
    q = pd.DataFrame([quantile_columns(h, QUANTILES) for h in hists])
    head = ["field", "players", "rules", "n", "n_all", *TURNS["turns"], "mean_with_skips", *TURNS["win_first"]]
    return pd.concat([t[head], q, t[[c for k in ("blocked", "capped", "stuck") for c in TURNS[k]]]], axis=1)


def matches_table(matches: Played) -> pd.DataFrame:
    """Rounds, turns and blocked rounds per match and the shares of capped and stuck matches, with intervals."""
    m = wide(matches.frame, MATCHES, arm="rules")
    m["n_matches"] = [matches.cells[(f, p)].games for f, p in zip(m["field"], m["players"], strict=True)]
    return m[["field", "players", "rules", "n_matches", *(c for cols in MATCHES.values() for c in cols)]]


def outcomes(rounds: Played) -> dict[str, int]:
    """Rounds blocked, capped and stuck over every round played (``blocked``, ``capped``, ``stuck``)."""
    every = [c.acc(a.name) for c in rounds.cells.values() for a in c.arms]
    return {key: sum(int(a.outcomes[k]) for a in every) for k, key in ((1, "blocked"), (2, "capped"), (3, "stuck"))}


def match_rounds(matches: Played) -> int:
    """Rounds played in all the matches."""
    return sum(int(c.sums.s1[:, c.quantities.index("rounds")].sum()) for c in matches.cells.values())


def length_interactions(rounds: Played, fields: Sequence[str], base: str, margin: float) -> dict[tuple, list[FieldInteraction]]:
    """Each rule set's effect on turns under one field minus under another, per table size, judged as one family."""
    return field_interactions(dict(rounds.cells), fields, rounds.names, base, "turns", margin)


@dataclass(frozen=True)
class Lengths:
    """Turns per round and rounds per match of every (field, players, rules), read from the two played designs.

    ``frame``/``match_frame``: the designs' tidy frames; ``turns``, ``matches``: their tables
    (:func:`turns_table`, :func:`matches_table`); ``diffs``: each rule set's paired change in turns from the
    baseline; ``hists``: each cell's histogram of turns; ``rounds``: rounds per rule set at each table size;
    outcome counts over every round; ``between``: per (players, rules), the rule's effect on turns under one
    field minus under another (:func:`length_interactions`).
    """

    names: tuple[str, ...]
    base: str
    fields: tuple[str, ...]
    players: tuple[int, ...]
    frame: pd.DataFrame
    match_frame: pd.DataFrame
    turns: pd.DataFrame
    diffs: pd.DataFrame
    matches: pd.DataFrame
    hists: dict[tuple[str, int, str], np.ndarray]
    rounds: dict[int, int]
    blocked: int
    capped: int
    stuck: int
    total_rounds: int
    games: int
    between: dict[tuple, list[FieldInteraction]]

    @property
    def ref(self) -> str:
        """The field the one-field charts and findings show: ``basic`` when played, else the first."""
        return "basic" if "basic" in self.fields else self.fields[0]

    @property
    def mid(self) -> int:
        """The table size the rule sets are compared at: 4 when played, else the middle one."""
        return 4 if 4 in self.players else self.players[len(self.players) // 2]


def lengths(
    rounds: Played, matches: Played, fields: Sequence[str], players: tuple[int, ...], base: str, margin: float
) -> Lengths:
    """The tables, histograms and counts of the played rounds and matches (``margin``: turns, for the interactions)."""
    played = sum(c.games * len(c.arms) for c in rounds.cells.values())
    counts = outcomes(rounds)
    return Lengths(
        names=rounds.names,
        base=base,
        fields=tuple(fields),
        players=players,
        frame=rounds.frame,
        match_frame=matches.frame,
        turns=turns_table(rounds),
        diffs=differences(rounds.frame, "turns", arm="rules"),
        matches=matches_table(matches),
        hists={(f, p, n): rounds.cells[(f, p)].acc(n).turns_hist for (f, p) in rounds.cells for n in rounds.names},
        rounds={p: rounds.cells[(fields[0], p)].games for p in players},
        blocked=counts["blocked"],
        capped=counts["capped"],
        stuck=counts["stuck"],
        total_rounds=played,
        games=played + match_rounds(matches),
        between=length_interactions(rounds, fields, base, margin),
    )
