"""``unocli tune``: the best knob setting for one seat against a field of players.

A *candidate* is a policy: a base policy with some knobs changed, drawn from a
search space (a TOML file of knobs and the values to try). Each candidate sits
at one seat of a table whose other seats play the *field* policy, and every
deal is played once per rotation of the seats, so seat advantage cancels. Its
*gain* on a deal is its share of that deal's rotations won minus the field's
per-seat share: the same estimand as ``simulate --rotate-seats``' paired
difference, with the deal as the unit of independence.

The search is a race. Round ``r`` plays every surviving candidate on the same
new deals (common random numbers), twice as many as round ``r - 1``; after
each round the candidate with the highest mean gain so far leads, and every
other is dropped when its paired difference to the leader is below zero at
family-wise level ``alpha`` (one-sided t tests over the deals so far, Holm
over the candidates of that round). The race ends when one candidate is left
or the deal budget is spent; the winner is the leader then.

The leader is picked on the same data the tests use, so this is the usual
racing heuristic, not an exact guarantee; and any search overrates its winner
(the winner's curse). So the winner is **re-measured on fresh deals** that the
search never played (game indices from :data:`FRESH_START`, far beyond any
search index), with the base policy and ``smart`` on the same fresh deals for
comparison; the figures reported rest on that re-measurement alone.
"""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

import numpy as np

from unocli.errors import ConfigError
from unocli.files import load_toml
from unocli.game.policies import POLICY_FIELDS, Policy, parse_policy_spec
from unocli.game.rules import Rules
from unocli.run.backends import Backend, LocalBackend
from unocli.run.shards import RunSpec, run_shard, split
from unocli.study.stats import Difference, holm, paired_diff, paired_t

FRESH_START = 1 << 62  # fresh deals for the re-measurement: no search ever reaches this index
MAX_SEARCH_DEALS = 1 << 40  # search deals per candidate at most (so search and fresh deals never meet)
SHARD = 4096
Progress = Callable[[str], None]


# ---------------------------------------------------------------- the search space


@dataclass(frozen=True)
class Candidate:
    """One point of the space: the base policy with ``changes``."""

    name: str
    base: str
    changes: tuple[tuple[str, Any], ...]
    policy: Policy

    @property
    def spec(self) -> str:
        """``BASE:knob=value,...``, usable wherever a policy is (``--seat 0=SPEC``)."""
        if not self.changes:
            return self.base
        return self.base + ":" + ",".join(f"{k}={_plain(v)}" for k, v in self.changes)


def _plain(value: Any) -> Any:
    return str(value) if not isinstance(value, bool | int | float) else value


@dataclass(frozen=True)
class SearchSpace:
    """Knobs and the values to try, around a base policy (see ``sims/tune-*.toml``)."""

    base: str
    knobs: dict[str, tuple[Any, ...]]
    candidates: int = 32

    @classmethod
    def load(cls, path: str | Path, extra: dict[str, Policy] | None = None) -> SearchSpace:
        """Read and validate a search-space file (every value is tried on the base policy)."""
        data = load_toml(Path(path), "search space")
        where = f"search space {str(path)!r}"
        unknown = set(data) - {"base", "candidates", "knobs", "description"}
        if unknown:
            raise ConfigError(f"{where}: unknown key {sorted(unknown)[0]!r}; the keys are base, candidates, knobs")
        base = data.get("base", "basic")
        knobs = data.get("knobs")
        if not isinstance(base, str) or not isinstance(knobs, dict) or not knobs:
            raise ConfigError(f'{where}: needs base = "POLICY" and a [knobs] table of knob = [values]')
        count = data.get("candidates", 32)
        if not isinstance(count, int) or isinstance(count, bool) or not 2 <= count <= 4096:
            raise ConfigError(f"{where}: candidates must be a whole number from 2 to 4096, not {count!r}")
        space = cls(base, {k: _values(where, k, v) for k, v in knobs.items()}, count)
        start = parse_policy_spec(base, extra)
        for knob, values in space.knobs.items():
            for value in values:
                start.replace(**{knob: value})  # raises a one-sentence ConfigError for a bad value
        return space

    @property
    def size(self) -> int:
        return math.prod(len(v) for v in self.knobs.values())

    def sample(self, seed: int, extra: dict[str, Policy] | None = None) -> list[Candidate]:
        """The base and up to ``candidates - 1`` distinct points: all of them when the space is that small,
        else every change of one knob of the base, then points drawn at random (seeded)."""
        base_policy = parse_policy_spec(self.base, extra)
        names = list(self.knobs)
        if self.size <= self.candidates:
            points = list(itertools.product(*self.knobs.values()))
        else:
            # Every single-knob change of the base first (a local search around it), then random points.
            here = tuple(getattr(base_policy, k) for k in names)
            chosen: set[tuple[Any, ...]] = {
                (*here[:i], v, *here[i + 1 :]) for i, k in enumerate(names) for v in self.knobs[k] if v != here[i]
            }
            chosen = set(sorted(chosen, key=repr)[: self.candidates - 1])
            rng = random.Random(seed)
            for _ in range(100 * self.candidates):  # distinct points that differ from the base
                if len(chosen) == self.candidates - 1:
                    break
                point = tuple(rng.choice(self.knobs[k]) for k in names)
                if any(getattr(base_policy, k) != v for k, v in zip(names, point, strict=True)):
                    chosen.add(point)
            points = sorted(chosen, key=repr)
        out = [Candidate("c00", self.base, (), base_policy)]
        seen = {base_policy}
        for point in points:
            changes = tuple((k, v) for k, v in zip(names, point, strict=True) if getattr(base_policy, k) != v)
            policy = base_policy.replace(**dict(changes)) if changes else base_policy
            if policy in seen:
                continue
            seen.add(policy)
            out.append(Candidate(f"c{len(out):02d}", self.base, changes, policy))
        return out


def _values(where: str, knob: str, value: Any) -> tuple[Any, ...]:
    if knob not in POLICY_FIELDS:
        raise ConfigError(f"{where}: unknown knob {knob!r}; the knobs are: {', '.join(POLICY_FIELDS)}")
    if not isinstance(value, list) or not value:
        raise ConfigError(f"{where}: knob {knob!r} takes a non-empty list of values to try, not {value!r}")
    return tuple(dict.fromkeys(value))


# ---------------------------------------------------------------- measuring


@dataclass(frozen=True)
class Table:
    """What every candidate is measured in: rules, the field's policy, the run's seed."""

    rules: Rules
    field_policy: Policy
    seed: int
    backend: Backend = field(default_factory=LocalBackend)
    threads: int | None = None


def deal_gains(table: Table, policy: Policy, start: int, count: int) -> np.ndarray:
    """Per deal ``start .. start + count - 1``: ``policy``'s share of the rotations won minus the field's per-seat share."""
    n = table.rules.players
    spec = RunSpec(table.rules, (policy, *(table.field_policy,) * (n - 1)), table.seed, rotate_seats=True, threads=table.threads)
    out = np.empty(count, dtype=np.float64)
    for part in table.backend.map_unordered(partial(run_shard, spec), split(start, count, SHARD)):
        assert part.wins is not None
        wins = part.wins.astype(np.float64)
        out[part.start - start : part.start - start + part.count] = wins[:, 0] / n - wins[:, 1:].sum(axis=1) / (n * (n - 1))
    return out


def gain_of(gains: np.ndarray) -> Difference:
    """The mean gain with its 95% t interval over deals (the deals are independent)."""
    return paired_t(int(gains.size), float(gains.sum()), float((gains * gains).sum()))


# ---------------------------------------------------------------- the race


@dataclass(frozen=True)
class RaceRound:
    """One round of the race: deals played per candidate so far, who was left, who was dropped."""

    round: int
    deals: int
    alive: int
    leader: str
    dropped: tuple[str, ...]


@dataclass
class Race:
    """The search's state and its history."""

    candidates: list[Candidate]
    gains: dict[str, list[np.ndarray]] = field(default_factory=dict)
    dropped_in: dict[str, int] = field(default_factory=dict)
    rounds: list[RaceRound] = field(default_factory=list)

    def alive(self) -> list[Candidate]:
        return [c for c in self.candidates if c.name not in self.dropped_in]

    def all_gains(self, name: str) -> np.ndarray:
        return np.concatenate(self.gains[name])

    def estimate(self, name: str) -> Difference:
        return gain_of(self.all_gains(name))


def race(
    table: Table,
    candidates: Sequence[Candidate],
    *,
    first: int = 2000,
    max_deals: int = 64_000,
    alpha: float = 0.05,
    progress: Progress | None = None,
) -> Race:
    """Race ``candidates`` on deals ``0 ..`` of the table's seed (module docstring); returns the finished race."""
    if not 1 <= first <= max_deals <= MAX_SEARCH_DEALS:
        raise ConfigError(f"the first round's deals ({first}) must be at least 1 and at most the budget ({max_deals})")
    state = Race(list(candidates))
    used, deals = 0, first
    while True:
        for cand in state.alive():
            state.gains.setdefault(cand.name, []).append(deal_gains(table, cand.policy, used, deals))
        used += deals
        dropped = _eliminate(state, len(state.rounds) + 1, alpha)
        leader = max(state.alive(), key=lambda c: state.all_gains(c.name).mean())
        state.rounds.append(RaceRound(len(state.rounds) + 1, used, len(state.alive()), leader.name, dropped))
        if progress is not None:
            progress(f"round {len(state.rounds)}: {used:,} deals, {len(state.alive())} candidates left")
        if len(state.alive()) == 1 or used + 2 * deals > max_deals:
            return state
        deals *= 2


def _eliminate(state: Race, round_no: int, alpha: float) -> tuple[str, ...]:
    """Drop every candidate significantly worse than the current leader (one-sided, Holm)."""
    alive = state.alive()
    if len(alive) < 2:
        return ()
    means = {c.name: state.all_gains(c.name).mean() for c in alive}
    leader = max(alive, key=lambda c: means[c.name])
    others = [c for c in alive if c is not leader]
    lead = state.all_gains(leader.name)
    pvalues = []
    for c in others:
        d = paired_diff(state.all_gains(c.name), lead)
        pvalues.append(d.p / 2 if d.diff < 0 else 1.0 - d.p / 2)  # one-sided: c worse than the leader
    dropped = tuple(c.name for c, p in zip(others, holm(pvalues), strict=True) if p < alpha)
    for name in dropped:
        state.dropped_in[name] = round_no
    return dropped


# ---------------------------------------------------------------- the whole job


@dataclass(frozen=True)
class FreshMeasure:
    """Gains re-measured on fresh deals: the winner's, the base's and smart's, and winner minus smart (paired)."""

    start: int
    deals: int
    winner: Difference
    base: Difference
    smart: Difference
    winner_vs_smart: Difference


@dataclass(frozen=True)
class TuneResult:
    """A finished tune: the race, the winner, and its re-measurement on fresh deals."""

    table: Table
    space: SearchSpace
    race: Race
    winner: Candidate
    fresh: FreshMeasure


def measure_fresh(table: Table, winner: Candidate, base: Policy, deals: int) -> FreshMeasure:
    """The winner, the base and ``smart`` on the same fresh deals (game indices from FRESH_START)."""
    g_win = deal_gains(table, winner.policy, FRESH_START, deals)
    g_base = deal_gains(table, base, FRESH_START, deals)
    g_smart = deal_gains(table, parse_policy_spec("smart"), FRESH_START, deals)
    return FreshMeasure(FRESH_START, deals, gain_of(g_win), gain_of(g_base), gain_of(g_smart), paired_diff(g_win, g_smart))


def tune(
    table: Table,
    space: SearchSpace,
    *,
    first: int = 2000,
    max_deals: int = 64_000,
    fresh_deals: int = 100_000,
    alpha: float = 0.05,
    extra: dict[str, Policy] | None = None,
    progress: Progress | None = None,
) -> TuneResult:
    """Search ``space`` against the table's field, then re-measure the winner on fresh deals."""
    candidates = space.sample(table.seed, extra)
    state = race(table, candidates, first=first, max_deals=max_deals, alpha=alpha, progress=progress)
    winner = max(state.alive(), key=lambda c: state.all_gains(c.name).mean())
    if progress is not None:
        progress(f"re-measuring {winner.spec} on {fresh_deals:,} fresh deals")
    fresh = measure_fresh(table, winner, candidates[0].policy, fresh_deals)
    return TuneResult(table, space, state, winner, fresh)


def iterate(table: Table, space: SearchSpace, times: int, **options: Any) -> list[TuneResult]:
    """Best responses in turn: each search's winner becomes the next field (toward a symmetric fixed point)."""
    history = []
    for _ in range(times):
        result = tune(table, space, **options)
        history.append(result)
        table = Table(table.rules, result.winner.policy, table.seed, table.backend, table.threads)
    return history


def candidates_table(result: TuneResult) -> list[dict[str, Any]]:
    """One row per candidate: its search estimate (over the deals it played) and the round it was dropped in."""
    rows = []
    for c in result.race.candidates:
        est = result.race.estimate(c.name)
        rows.append(
            {
                "candidate": c.name,
                "policy": c.spec,
                "deals": est.n,
                "gain_pp": 100 * est.diff,
                "ci_low_pp": 100 * est.low,
                "ci_high_pp": 100 * est.high,
                "dropped_in_round": result.race.dropped_in.get(c.name, 0),
                "winner": c.name == result.winner.name,
            }
        )
    return sorted(rows, key=lambda r: -r["gain_pp"])


def policy_toml(result: TuneResult, name: str, command: str) -> str:
    """The winner as a policy file for ``--policies FILE``, with how it was made."""
    f = result.fresh
    lines = [
        f"# Made by: {command}",
        f"# Search: {len(result.race.candidates)} candidates, {result.race.rounds[-1].deals:,} deals at most each,"
        f" seed {result.table.seed}; fresh deals from index {f.start} ({f.deals:,}).",
        f"# Gain over the field on the fresh deals: {100 * f.winner.diff:+.2f} pp"
        f" [{100 * f.winner.low:+.2f}, {100 * f.winner.high:+.2f}] (smart: {100 * f.smart.diff:+.2f} pp).",
        f"[{name}]",
        f'base = "{result.space.base}"',
    ]
    for knob, value in result.winner.changes:
        lines.append(f"{knob} = {_toml_value(value)}")
    return "\n".join(lines) + "\n"


def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return repr(value)
    return '"' + str(value).replace("\\", "\\\\").replace('"', '\\"') + '"'
