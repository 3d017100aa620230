"""``unocli tune``: the best knob setting for one seat against a field of players.

A *candidate* is a policy. Each candidate sits at one seat of a table whose
other seats play the *field* policy, and every deal is played once per
rotation of the seats, so seat advantage cancels. Its *gain* on a deal is its
share of that deal's rotations won minus the field's per-seat share: the same
estimand as ``simulate --rotate-seats``' paired difference, with the deal as
the unit of independence. Under ``objective = "match"`` a deal is a whole
match to the target score, won by whoever reaches it.

The candidates are points of a search space (a TOML file of knobs and the
values to try around a base policy), and always the field's own policy and
every preset as well. The search is a race in stages:

- Round ``r`` of a race plays every surviving candidate on the same new deals
  (common random numbers), twice as many as round ``r - 1`` and disjoint from
  every earlier round of every stage (:func:`deal_schedule`). After each round
  the candidate with the highest mean gain so far leads; every other is dropped
  when its paired difference to the leader is below zero at family-wise level
  ``alpha`` (one-sided paired t tests over the deals so far, Holm's step-down
  over the candidates of that round: :func:`holm_drops`); then, successive
  halving, at most half of those who were alive at the round's start stay (the
  best by mean). A race ends when one candidate is left or its deals are spent.
- Then local search: the best few of the last race (several starts) and every
  setting one knob away from them that no race has played are raced again, on
  new deals, until no neighbour overtakes the leader or the steps are spent.

The leader is picked on the same data the tests use, so this is the usual
racing heuristic, not an exact guarantee; and any search overrates its winner
(the winner's curse). So the winner is **re-measured on fresh deals** that the
search never played (game indices from :data:`FRESH_START`, far beyond any
search index), beside ``basic``, ``smart``, ``strong`` and the field's own
policy on the same deals. It ships only if its paired difference to each of
them is above zero (95% interval); otherwise the best of them by fresh gain
ships in its place, and says so. The shipped player is also measured against a
field it was not tuned on (:func:`other_field`).
"""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from enum import Enum
from functools import partial
from pathlib import Path
from typing import Any

import numpy as np

from unocli.errors import ConfigError
from unocli.files import load_toml
from unocli.game.policies import POLICY_FIELDS, PRESETS, Policy, parse_policy_spec, preset
from unocli.game.rules import Rules
from unocli.run.backends import Backend, LocalBackend
from unocli.run.shards import RunSpec, run_shard, split
from unocli.study.stats import Difference, holm, paired_diff, paired_t

FRESH_START = 1 << 62  # fresh deals for the re-measurement: no search ever reaches this index
CHECK_START = FRESH_START + (1 << 61)  # the shipped file's re-verification: beyond every tune's fresh deals too
MAX_SEARCH_DEALS = 1 << 40  # search deals in all stages at most (so search and fresh deals never meet)
SHARD = 4096
REFERENCES = ("basic", "smart", "strong")  # a shipped player must beat each of these on fresh deals
STARTS = 3  # local search starts from the best this many of the last race
Progress = Callable[[str], None]


# ---------------------------------------------------------------- policies as text


def knob_changes(start: Policy, end: Policy) -> list[tuple[str, Any]]:
    """``(knob, value)`` for every knob ``end`` sets otherwise than ``start``, values as TOML holds them."""
    out: list[tuple[str, Any]] = []
    for knob in Policy.names():
        value = getattr(end, knob)
        if getattr(start, knob) != value:
            out.append((knob, value.value if isinstance(value, Enum) else value))
    return out


def nearest_preset(policy: Policy) -> str:
    """The preset ``policy`` differs from in the fewest knobs (the first preset on a tie)."""
    return min(PRESETS, key=lambda name: len(knob_changes(preset(name), policy)))


def policy_spec(policy: Policy) -> str:
    """``PRESET:knob=value,...`` on the nearest preset: a spec that loads on its own anywhere."""
    base = nearest_preset(policy)
    changes = knob_changes(preset(base), policy)
    return base + (":" + ",".join(f"{k}={_text(v)}" for k, v in changes) if changes else "")


def _text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return repr(value) if isinstance(value, float) else str(value)


# ---------------------------------------------------------------- the search space


@dataclass(frozen=True)
class Candidate:
    """One policy in the race, under a short name (``c017``, or a preset's name, or ``field``)."""

    name: str
    policy: Policy

    @property
    def spec(self) -> str:
        """``PRESET:knob=value,...``, usable wherever a policy is (``--seat 0=SPEC``)."""
        return policy_spec(self.policy)


@dataclass(frozen=True)
class SearchSpace:
    """Knobs and the values to try, around a base policy (see ``sims/spaces/*.toml``)."""

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
        if not isinstance(base, str):
            raise ConfigError(f'{where}: base must be one policy spec in quotes (base = "basic"), not {base!r}')
        if not isinstance(knobs, dict) or not knobs:
            raise ConfigError(f'{where}: needs base = "POLICY" and a [knobs] table of knob = [values]')
        count = data.get("candidates", 32)
        if not isinstance(count, int) or isinstance(count, bool) or not 2 <= count <= 4096:
            raise ConfigError(f"{where}: candidates must be a whole number from 2 to 4096, not {count!r}")
        space = cls(base, {k: _values(where, k, v) for k, v in knobs.items()}, count)
        start = parse_policy_spec(base, extra)
        for knob, values in space.knobs.items():
            for value in values:
                start.replace(**{knob: value})  # raises a one-sentence ConfigError for a bad value
        if space.size < 2:
            raise ConfigError(
                f"{where}: the space holds one setting only, so there is nothing to search; give a knob two or more values"
            )
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
        out = [Candidate("c000", base_policy)]
        seen = {base_policy}
        for point in points:
            policy = base_policy.replace(**dict(zip(names, point, strict=True)))
            if policy in seen:
                continue
            seen.add(policy)
            out.append(Candidate(f"c{len(out):03d}", policy))
        return out

    def neighbours(self, policy: Policy) -> list[Policy]:
        """Every setting one knob of the space away from ``policy``."""
        out = []
        for knob, values in self.knobs.items():
            for value in values:
                other = policy.replace(**{knob: value})
                if other != policy:
                    out.append(other)
        return out

    def covers(self, policy: Policy, base: Policy) -> bool:
        """Is ``policy`` a point of the space: ``base`` with each of the space's knobs at one of its values?"""
        point = {k: getattr(policy, k) for k in self.knobs}
        if base.replace(**point) != policy:
            return False
        return all(point[k] in {getattr(base.replace(**{k: v}), k) for v in values} for k, values in self.knobs.items())


def _values(where: str, knob: str, value: Any) -> tuple[Any, ...]:
    if knob not in POLICY_FIELDS:
        raise ConfigError(f"{where}: unknown knob {knob!r}; the knobs are: {', '.join(POLICY_FIELDS)}")
    if not isinstance(value, list) or not value:
        raise ConfigError(f"{where}: knob {knob!r} takes a non-empty list of values to try, not {value!r}")
    for item in value:
        if not isinstance(item, bool | int | float | str):
            raise ConfigError(f"{where}: knob {knob!r} lists {item!r}; each value to try must be one number, true/false or text")
        if isinstance(item, float) and not math.isfinite(item):
            raise ConfigError(f"{where}: knob {knob!r} lists {item!r}; values must be finite numbers")
    return tuple(dict.fromkeys(value))


def pool(space: SearchSpace, seed: int, field_policy: Policy, extra: dict[str, Policy] | None = None) -> list[Candidate]:
    """The first race's candidates: the space's sample, then every preset and the field's own policy (each once)."""
    out = space.sample(seed, extra)
    seen = {c.policy for c in out}
    for name, policy in [*((n, preset(n)) for n in PRESETS), ("field", field_policy)]:
        if policy not in seen:
            seen.add(policy)
            out.append(Candidate(name, policy))
    return out


# ---------------------------------------------------------------- measuring


@dataclass(frozen=True)
class Table:
    """What every candidate is measured in: rules, the field's policy, the run's seed, round or match."""

    rules: Rules
    field_policy: Policy
    seed: int
    backend: Backend = field(default_factory=LocalBackend)
    threads: int | None = None
    match: bool = False

    def against(self, field_policy: Policy) -> Table:
        """The same table with another field."""
        return Table(self.rules, field_policy, self.seed, self.backend, self.threads, self.match)


def deal_gains(table: Table, policy: Policy, start: int, count: int) -> np.ndarray:
    """Per deal ``start .. start + count - 1``: ``policy``'s share of the rotations won minus the field's per-seat share."""
    n = table.rules.players
    spec = RunSpec(
        table.rules,
        (policy, *(table.field_policy,) * (n - 1)),
        table.seed,
        match=table.match,
        rotate_seats=True,
        threads=table.threads,
    )
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


def deal_schedule(first: int, max_deals: int, start: int = 0) -> list[tuple[int, int]]:
    """``(first game index, deals)`` of each round of a race: ``first`` deals, then twice as many each round,
    each round's deals right after the last round's (so no deal is ever played twice), as long as the total
    stays within ``max_deals``."""
    if not 1 <= first <= max_deals:
        raise ConfigError(f"the first round's deals ({first}) must be at least 1 and at most the budget ({max_deals})")
    out, used, deals = [], 0, first
    while True:
        out.append((start + used, deals))
        used += deals
        if used + 2 * deals > max_deals:
            return out
        deals *= 2


def holm_drops(pvalues: Sequence[float], alpha: float) -> list[bool]:
    """Which hypotheses Holm's step-down rejects at family-wise level ``alpha`` (in the order given)."""
    if not pvalues:
        return []
    return [bool(p < alpha) for p in holm(list(pvalues))]


def check_alpha(alpha: float) -> None:
    """Refuse a level that is not a number strictly between 0 and 1 (NaN compares false with everything)."""
    if not (isinstance(alpha, int | float) and math.isfinite(alpha) and 0 < alpha < 1):
        raise ConfigError(f"alpha must be a number strictly between 0 and 1, not {alpha!r}")


@dataclass(frozen=True)
class RaceRound:
    """One round of a race: its new deals, who was left, who led, who was dropped (Holm) and cut (halving)."""

    round: int
    start: int
    deals: int  # deals played per candidate in this race so far
    alive: int
    leader: str
    dropped: tuple[str, ...]
    cut: tuple[str, ...] = ()


@dataclass
class Race:
    """One race's state and its history."""

    candidates: list[Candidate]
    gains: dict[str, list[np.ndarray]] = field(default_factory=dict)
    dropped_in: dict[str, int] = field(default_factory=dict)
    rounds: list[RaceRound] = field(default_factory=list)
    end: int = 0  # the first game index after this race's deals

    def alive(self) -> list[Candidate]:
        return [c for c in self.candidates if c.name not in self.dropped_in]

    def all_gains(self, name: str) -> np.ndarray:
        return np.concatenate(self.gains[name])

    def estimate(self, name: str) -> Difference:
        return gain_of(self.all_gains(name))

    def leader(self) -> Candidate:
        return max(self.alive(), key=lambda c: self.all_gains(c.name).mean())

    def ranking(self) -> list[Candidate]:
        """Survivors by mean gain, then the others, the last dropped first (each group by mean gain)."""
        return sorted(
            self.candidates,
            key=lambda c: (-self.dropped_in.get(c.name, len(self.rounds) + 1), -self.all_gains(c.name).mean()),
        )

    def games(self, players: int) -> int:
        """Games played in this race (each deal once per rotation of the seats)."""
        return players * sum(int(a.size) for parts in self.gains.values() for a in parts)


def race(
    table: Table,
    candidates: Sequence[Candidate],
    *,
    first: int = 2000,
    max_deals: int = 64_000,
    alpha: float = 0.05,
    start: int = 0,
    halve: bool = True,
    progress: Progress | None = None,
) -> Race:
    """Race ``candidates`` on deals from ``start`` of the table's seed (module docstring); returns the finished race."""
    check_alpha(alpha)
    schedule = deal_schedule(first, max_deals, start)
    if schedule[-1][0] + schedule[-1][1] > MAX_SEARCH_DEALS:
        raise ConfigError(f"the search would play more than {MAX_SEARCH_DEALS:,} deals; give a smaller --max-deals")
    state = Race(list(candidates))
    for number, (begin, deals) in enumerate(schedule, 1):
        before = state.alive()
        for cand in before:
            state.gains.setdefault(cand.name, []).append(deal_gains(table, cand.policy, begin, deals))
        state.end = begin + deals
        dropped = _eliminate(state, number, alpha)
        cut = _halve(state, number, len(before)) if halve else ()
        leader = state.leader()
        used = sum(d for _, d in schedule[:number])
        state.rounds.append(RaceRound(number, begin, used, len(state.alive()), leader.name, dropped, cut))
        if progress is not None:
            progress(f"round {number}: {used:,} deals, {len(state.alive())} of {len(state.candidates)} candidates left")
        if len(state.alive()) == 1:
            break
    return state


def _eliminate(state: Race, round_no: int, alpha: float) -> tuple[str, ...]:
    """Drop every candidate significantly worse than the current leader (one-sided, Holm)."""
    alive = state.alive()
    if len(alive) < 2:
        return ()
    leader = state.leader()
    others = [c for c in alive if c is not leader]
    lead = state.all_gains(leader.name)
    pvalues = []
    for c in others:
        d = paired_diff(state.all_gains(c.name), lead)
        # one-sided: c worse than the leader; a difference with no spread is decided by its sign
        p = (d.p / 2 if d.diff < 0 else 1.0 - d.p / 2) if math.isfinite(d.p) else (0.0 if d.diff < 0 else 1.0)
        pvalues.append(p)
    dropped = tuple(c.name for c, drop in zip(others, holm_drops(pvalues, alpha), strict=True) if drop)
    for name in dropped:
        state.dropped_in[name] = round_no
    return dropped


def _halve(state: Race, round_no: int, before: int) -> tuple[str, ...]:
    """Successive halving: keep at most half (rounded up) of the ``before`` who started the round, the best by mean."""
    alive = sorted(state.alive(), key=lambda c: -state.all_gains(c.name).mean())
    keep = max(1, math.ceil(before / 2))
    cut = tuple(c.name for c in alive[keep:])
    for name in cut:
        state.dropped_in[name] = round_no
    return cut


# ---------------------------------------------------------------- fresh deals and what ships


@dataclass(frozen=True)
class FreshCheck:
    """Gains on fresh deals, with seats rotated: each policy's gain over the field, and the candidate minus each
    reference (paired on the same deals)."""

    start: int
    deals: int
    gains: dict[str, Difference]
    versus: dict[str, Difference]
    arrays: dict[str, np.ndarray] = field(repr=False, compare=False, default_factory=dict)

    def beats_all(self) -> bool:
        """Is the paired 95% interval above zero against every reference?"""
        return all(d.low > 0 for d in self.versus.values())


def references(field_policy: Policy) -> dict[str, Policy]:
    """What a shipped player must beat: basic, smart, strong, and the field's own policy when it is none of them."""
    out = {name: preset(name) for name in REFERENCES}
    if field_policy not in out.values():
        out["field"] = field_policy
    return out


def fresh_check(table: Table, policy: Policy, refs: dict[str, Policy], deals: int, start: int = FRESH_START) -> FreshCheck:
    """``policy`` and every reference on the same fresh deals from ``start``; paired differences to each."""
    arrays = {"candidate": deal_gains(table, policy, start, deals)}
    for name, ref in refs.items():
        # the field's own policy gains exactly 0 on every deal (each rotation replays one game)
        arrays[name] = np.zeros(deals) if ref == table.field_policy else deal_gains(table, ref, start, deals)
    gains = {name: gain_of(a) for name, a in arrays.items()}
    versus = {name: paired_diff(arrays["candidate"], arrays[name]) for name in refs}
    return FreshCheck(start, deals, gains, versus, arrays)


@dataclass(frozen=True)
class Shipped:
    """The policy a tune hands out: the search's winner when it beat every reference, else the best reference."""

    policy: Policy
    winner: bool
    label: str  # "the search's winner" or the reference's name
    versus: dict[str, Difference]  # the shipped policy minus each reference, on the fresh deals


def choose(check: FreshCheck, winner: Policy, refs: dict[str, Policy]) -> Shipped:
    """The winner if it beat every reference on fresh deals; else the reference with the highest fresh gain."""
    if check.beats_all():
        return Shipped(winner, True, "the search's winner", check.versus)
    best = max(refs, key=lambda name: check.gains[name].diff)  # the first on a tie: basic, smart, strong, field
    versus = {name: paired_diff(check.arrays[best], check.arrays[name]) for name in refs}
    return Shipped(refs[best], False, best, versus)


def other_field(field_policy: Policy, shipped: Policy | None = None) -> tuple[str, Policy]:
    """A field the player was not tuned on: the first of smart, basic, strong that is neither the field nor
    the shipped player itself (against itself a player gains exactly 0, which says nothing)."""
    name = next(n for n in ("smart", "basic", "strong") if preset(n) not in (field_policy, shipped))
    return name, preset(name)


# ---------------------------------------------------------------- the whole job


@dataclass(frozen=True)
class TuneResult:
    """A finished tune: the races, the winner, its fresh check, what ships and how it does elsewhere."""

    table: Table
    space: SearchSpace
    races: list[Race]
    winner: Candidate
    fresh: FreshCheck
    shipped: Shipped
    elsewhere: tuple[str, Difference]  # (field name, shipped policy's gain over that field on fresh deals)

    @property
    def race(self) -> Race:
        return self.races[0]

    def tried(self) -> list[Candidate]:
        """Every distinct candidate of every stage, first appearance first."""
        seen: dict[Policy, Candidate] = {}
        for r in self.races:
            for c in r.candidates:
                seen.setdefault(c.policy, c)
        return list(seen.values())

    def covered(self) -> int:
        """How many of the space's settings some race played (the first race's first candidate is the base)."""
        base = self.races[0].candidates[0].policy
        return sum(1 for c in self.tried() if self.space.covers(c.policy, base))

    def games(self) -> int:
        """Games (or matches) the search played, every stage, every rotation."""
        return sum(r.games(self.table.rules.players) for r in self.races)


def search(
    table: Table,
    space: SearchSpace,
    *,
    first: int = 2000,
    max_deals: int = 64_000,
    alpha: float = 0.05,
    local_steps: int = 2,
    extra: dict[str, Policy] | None = None,
    progress: Progress | None = None,
) -> list[Race]:
    """The first race over :func:`pool`, then local search from the best :data:`STARTS` (module docstring)."""
    options: dict[str, Any] = {"first": first, "max_deals": max_deals, "alpha": alpha, "progress": progress}
    races = [race(table, pool(space, table.seed, table.field_policy, extra), **options)]
    tried = {c.policy for c in races[0].candidates}
    number = len(races[0].candidates)
    for step in range(1, local_steps + 1):
        starts = races[-1].ranking()[:STARTS]
        fresh: list[Candidate] = []
        for start in starts:
            for policy in space.neighbours(start.policy):
                if policy not in tried:
                    tried.add(policy)
                    fresh.append(Candidate(f"c{number:03d}", policy))
                    number += 1
        if not fresh:
            break
        if progress is not None:
            progress(f"local search {step}: {len(fresh)} settings one knob from the best {len(starts)}")
        races.append(race(table, [*starts, *fresh], start=races[-1].end, **options))
        if races[-1].leader().policy == starts[0].policy:  # no neighbour overtook the leader: a local optimum
            break
    return races


def tune(
    table: Table,
    space: SearchSpace,
    *,
    first: int = 2000,
    max_deals: int = 64_000,
    fresh_deals: int = 100_000,
    alpha: float = 0.05,
    local_steps: int = 2,
    extra: dict[str, Policy] | None = None,
    progress: Progress | None = None,
) -> TuneResult:
    """Search ``space`` against the table's field, check the winner on fresh deals, choose what ships."""
    check_alpha(alpha)
    races = search(
        table, space, first=first, max_deals=max_deals, alpha=alpha, local_steps=local_steps, extra=extra, progress=progress
    )
    winner = races[-1].leader()
    refs = references(table.field_policy)
    if progress is not None:
        progress(f"re-measuring {winner.spec} and {', '.join(refs)} on {fresh_deals:,} fresh deals")
    check = fresh_check(table, winner.policy, refs, fresh_deals)
    shipped = choose(check, winner.policy, refs)
    name, other = other_field(table.field_policy, shipped.policy)
    elsewhere = gain_of(deal_gains(table.against(other), shipped.policy, FRESH_START, fresh_deals))
    return TuneResult(table, space, races, winner, check, shipped, (name, elsewhere))


def iterate(table: Table, space: SearchSpace, times: int, **options: Any) -> list[TuneResult]:
    """Best responses in turn: each search's shipped player becomes the next field (toward a symmetric fixed point)."""
    history = []
    for _ in range(times):
        result = tune(table, space, **options)
        history.append(result)
        table = table.against(result.shipped.policy)
    return history


def candidates_table(result: TuneResult) -> list[dict[str, Any]]:
    """One row per candidate and stage: its search estimate (over the deals it played there) and the round it left."""
    rows = []
    for stage, r in enumerate(result.races):
        for c in r.candidates:
            est = r.estimate(c.name)
            rows.append(
                {
                    "candidate": c.name,
                    "policy": c.spec,
                    "stage": stage,
                    "deals": est.n,
                    "gain_pp": 100 * est.diff,
                    "ci_low_pp": 100 * est.low,
                    "ci_high_pp": 100 * est.high,
                    "dropped_in_round": r.dropped_in.get(c.name, 0),
                    "winner": stage == len(result.races) - 1 and c.name == result.winner.name,
                }
            )
    return sorted(rows, key=lambda r: (-r["stage"], -r["gain_pp"]))
