"""Skill or luck: one better player's edge against a field, seats rotated, per table size, field and rule set.

One *player* (a policy spec) sits at a table whose other seats all play the
*field* policy, under each rule set and at each table size. Each deal is
played once per seat rotation (the player at seat 0, 1, ..., n - 1 on the
same shuffled deck), so seat effects cancel, and every rule set and field
plays the same deals (game ``i`` of the seed), so rule sets are compared deal
by deal.

The *edge* (the frames' ``gap`` columns; docs/statistics.md) is the player's
win share minus the fair share, the share an average seat of the same games
won (1/n when every game has a winner). Per deal the gap is
``(w - W / n) / n``, with ``w`` the rotations the player won and ``W`` the
rotations anybody won. The rotations of one deal are not independent, so
intervals are Student's t over deals (clustered by deal, as
``stats.clustered_share``), ``n`` counting deals. A rule set's change of the
edge is the paired difference over deals against the baseline's, judged on
simultaneous intervals against ``margins["win_share_pp"]`` per round and
``options["match_margin_pp"]`` per match (:func:`~unocli.analysis.verdicts.judged`).

:class:`Plan` holds what these computations read of an experiment;
:class:`Runner` is where they run (a backend, threads and a progress log).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from functools import partial
from typing import Any, Protocol

import numpy as np
import pandas as pd

from unocli.analysis.verdicts import judged
from unocli.run.accumulate import Accumulator
from unocli.run.backends import Backend
from unocli.run.shards import RunSpec, run_shard, split
from unocli.study.arm import Arm, TableSpec
from unocli.study.stats import (
    ALPHA,
    Difference,
    Estimate,
    cluster_bound_mean,
    clustered_share,
    norm_quantile,
    paired_diff,
    t_interval,
    t_quantile,
)

SHARD = 1 << 14  # deals per shard: each is played once per rotation, so a shard is n kernel calls
KINDS = ("round", "match")


class Runner(Protocol):
    """Where a computation runs: the backend its shards go to, their threads, and a log for progress lines."""

    @property
    def backend(self) -> Backend: ...
    @property
    def log(self) -> Callable[[str], None]: ...
    @property
    def threads(self) -> int | None: ...


@dataclass(frozen=True)
class RuleSet:
    """One rule set of the design: its name and its table (the policies are the computation's own)."""

    name: str
    table: TableSpec


@dataclass(frozen=True)
class Plan:
    """What the skill computations read of an experiment.

    ``name`` labels the log; ``games`` deals per cell for single rounds;
    ``arms`` the rule sets (empty: the ``base`` table alone, named ``base``);
    ``options`` the analysis options (``fields``, ``match_games``,
    ``match_margin_pp``, the skill gap's ``skill_*`` and the ladders'
    ``ladder_*``); ``margins`` the experiment's equivalence margins.
    """

    name: str
    seed: int
    games: int
    players: tuple[int, ...]
    base: TableSpec
    arms: tuple[RuleSet, ...]
    options: Mapping[str, Any]
    margins: Mapping[str, float]


@dataclass(frozen=True)
class _Cell:
    """One (kind, players, field, rules) cell: its estimates and the per-deal gaps for paired differences."""

    share: Estimate
    gap: Estimate
    fair: float
    per_deal: np.ndarray
    acc: Accumulator


@dataclass(frozen=True)
class Edges:
    """One player's edges: ``gaps`` one row per (players, field, rules), ``changes`` one per (kind, players, field,
    rules other than the baseline), ``games`` the games played.

    ``gaps``: for ``kind`` in round and match, ``{kind}_n`` (deals),
    ``{kind}_games`` (deals x players), ``{kind}_share`` with ``_low``/``_high``
    (clustered 95% t), ``{kind}_fair`` and ``{kind}_gap`` with ``_low``/``_high``
    (95% t over deals); ``match_rounds`` the mean rounds per match with ``_low``/``_high`` (a 95% interval clustered
    by deal that cannot be too narrow, :func:`~unocli.study.stats.cluster_bound_mean`).
    ``changes``: ``n`` (deals), ``d_gap`` with ``d_low``/``d_high`` (paired 95%),
    ``sim_low``/``sim_high``/``sim_level`` (simultaneous over the kind's rows),
    ``margin_pp``, ``verdict``, ``p_tost``.
    """

    gaps: pd.DataFrame
    changes: pd.DataFrame
    games: int


def table_arm(exp: Plan, rules_arm: str, players: int, player: str, field: str) -> Arm:
    """The table of one cell: ``rules_arm``'s rule set, the player at seat 0 and the field everywhere else."""
    spec = next(a for a in exp.arms if a.name == rules_arm).table if exp.arms else exp.base
    spec = replace(spec, policy=field, seats=((0, player),), knobs=())
    return spec.build(name=rules_arm, players=players)


def play_cell(exp: Plan, ctx: Runner, arm: Arm, games: int, match: bool) -> _Cell:
    """Play deals ``0 .. games - 1`` once per seat rotation and measure the seat-0 policy's share and gap."""
    n = arm.players
    spec = RunSpec(rules=arm.rules, policies=arm.policies, seed=exp.seed, match=match, rotate_seats=True, threads=ctx.threads)
    wins = np.zeros((games, n), dtype=np.int64)  # rotations of each deal won by each policy slot
    acc = Accumulator(players=n)
    for part in ctx.backend.map_unordered(partial(run_shard, spec), split(0, games, SHARD)):
        assert part.wins is not None  # rotate_seats always counts them
        wins[part.start : part.start + part.count] = part.wins
        acc = acc.merge(part.acc)
    mine, anyone = wins[:, 0].astype(np.float64), wins.sum(axis=1).astype(np.float64)
    gap = (mine - anyone / n) / n
    share = clustered_share(games, float(mine.sum()), float((mine * mine).sum()), n)
    return _Cell(
        share=share,
        gap=t_interval(games, float(gap.sum()), float((gap * gap).sum())),
        fair=float(anyone.sum()) / (games * n * n),
        per_deal=gap,
        acc=acc,
    )


def measure(exp: Plan, ctx: Runner, player: str, baseline: str) -> Edges:
    """One player's edges per cell (rounds and matches), and each rule set's change of the edge against ``baseline``."""
    fields = tuple(exp.options["fields"])
    names = tuple(a.name for a in exp.arms) or ("base",)
    sizes = {"round": exp.games, "match": exp.options["match_games"]}
    cells: dict[tuple[str, int, str, str], _Cell] = {}
    for p in exp.players:
        for field in fields:
            ctx.log(f"{exp.name}: {p} players, {player} against {field}: {len(names)} rule sets")
            for name in names:
                arm = table_arm(exp, name, p, player, field)
                for kind in KINDS:
                    cells[(kind, p, field, name)] = play_cell(exp, ctx, arm, sizes[kind], kind == "match")
    gaps = pd.DataFrame([_gap_row(cells, p, field, name) for p in exp.players for field in fields for name in names])
    changes = pd.DataFrame([row for kind in KINDS for row in _change_rows(exp, cells, kind, names, baseline)])
    return Edges(gaps, changes, sum(c.acc.games for c in cells.values()))


def _gap_row(cells: dict[tuple[str, int, str, str], _Cell], p: int, field: str, name: str) -> dict[str, Any]:
    row: dict[str, Any] = {"players": p, "field": field, "rules": name}
    for kind in KINDS:
        c = cells[(kind, p, field, name)]
        row |= {
            f"{kind}_n": c.gap.n,
            f"{kind}_games": c.acc.games,
            f"{kind}_share": c.share.mean,
            f"{kind}_share_low": c.share.low,
            f"{kind}_share_high": c.share.high,
            f"{kind}_fair": c.fair,
            f"{kind}_gap": c.gap.mean,
            f"{kind}_gap_low": c.gap.low,
            f"{kind}_gap_high": c.gap.high,
        }
    match = cells[("match", p, field, name)].acc
    # the rotations of a deal are matches of one deck, so the interval is clustered by deal (a bound: see the function)
    rounds = cluster_bound_mean(match.finished, *match.metric_sums("rounds"), per_cluster=p)
    row |= {"match_rounds": rounds.mean, "match_rounds_low": rounds.low, "match_rounds_high": rounds.high}
    return row


def _change_rows(
    exp: Plan, cells: dict[tuple[str, int, str, str], _Cell], kind: str, names: tuple[str, ...], baseline: str
) -> list[dict[str, Any]]:
    """Each rule set's edge minus the baseline's on the same deals, with simultaneous intervals and verdicts."""
    keys = [(p, field, name) for p in exp.players for field in exp.options["fields"] for name in names if name != baseline]
    diffs: list[Difference] = [
        paired_diff(cells[(kind, p, field, name)].per_deal, cells[(kind, p, field, baseline)].per_deal) for p, field, name in keys
    ]
    margin = exp.margins["win_share_pp"] if kind == "round" else float(exp.options["match_margin_pp"])
    rows = []
    for (p, field, name), d, v in zip(keys, diffs, judged(diffs, margin, scale=100.0), strict=True):
        rows.append(
            {
                "kind": kind,
                "players": p,
                "field": field,
                "rules": name,
                "n": d.n,
                "d_gap": d.diff,
                "d_low": d.low,
                "d_high": d.high,
                "sim_low": v["sim_low"] / 100,
                "sim_high": v["sim_high"] / 100,
                "sim_level": v["sim_level"],
                "margin_pp": margin,
                "verdict": v["verdict"],
                "p_tost": v["p_tost"],
            }
        )
    return rows


def beyond_zero(gaps: pd.DataFrame) -> tuple[int, int, float]:
    """How many cells' per-round edge lies above 0 and below 0 on intervals simultaneous over all of them, and that level.

    Each cell's 95% t half-width is rescaled to level 1 - 0.05 / cells with its own degrees of freedom (Bonferroni:
    the cells are read together).
    """
    k = len(gaps)
    scale = [t_quantile(1 - ALPHA / (2 * k), n - 1) / t_quantile(0.975, n - 1) if n > 1 else math.inf for n in gaps["round_n"]]
    half = (gaps["round_gap_high"] - gaps["round_gap_low"]) / 2 * scale
    return int((gaps["round_gap"] - half > 0).sum()), int((gaps["round_gap"] + half < 0).sum()), 1 - ALPHA / k


def _se(gaps: pd.DataFrame, kind: str) -> pd.Series:
    """A kind's edge standard errors, from its 95% t intervals (``{kind}_n`` deals, n - 1 degrees of freedom)."""
    t = [t_quantile(0.975, n - 1) if n > 1 else math.inf for n in gaps[f"{kind}_n"]]
    return (gaps[f"{kind}_gap_high"] - gaps[f"{kind}_gap_low"]) / 2 / t


def magnified(gaps: pd.DataFrame) -> tuple[int, int]:
    """Of the cells whose per-round edge is clear of 0, how many have a per-match edge of the same sign larger by an
    interval that excludes 0, and how many cells are clear; both read over every cell at once.

    Every interval is simultaneous over the cells (Bonferroni, normal quantile: thousands of deals a cell). A match
    edge and a round edge come from different games of overlapping deals, whose correlation is not kept, so the
    difference's standard error is the worst case ``se_round + se_match``, which holds whatever that correlation is.
    """
    if not len(gaps):
        return 0, 0
    z = norm_quantile(1 - ALPHA / (2 * len(gaps)))
    se_round, se_match = _se(gaps, "round"), _se(gaps, "match")
    clear = ((gaps["round_gap"] - z * se_round > 0) | (gaps["round_gap"] + z * se_round < 0)).to_numpy()
    sign = np.sign(gaps["round_gap"])
    beyond = (sign * gaps["match_gap"] - sign * gaps["round_gap"] - z * (se_round + se_match) > 0).to_numpy()
    return int((clear & beyond).sum()), int(clear.sum())
