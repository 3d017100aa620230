"""Sweeps: a grid over rule fields and policy knobs, played on the same deals, as a tidy table.

A grid has one or more *axes*; every combination of their values is a *cell*.
An axis is named by what it changes:

- a rule field (``stacking``, ``uno_penalty``, ``players``, ...) or
  ``rule.FIELD``;
- ``rules``: a rules preset or TOML file, replacing the base rule set;
- a policy knob for every seat (``bluff``, ``challenge``, ...) or
  ``policy.KNOB``; ``KNOB@S`` for seat S only, ``KNOB@S-T`` for seats S to T,
  ``KNOB@opponents`` for every seat but seat 0;
- ``policy`` (every seat's policy spec) or ``policy@S`` (seat S's); the
  names may come from the base table's policies file (``--policies FILE``).

``challenge`` and ``jump_in`` are both a rule field and a policy knob; a bare
name means the knob, ``rule.challenge`` the rule field.

Values are a list (``0,0.25,0.5`` on the command line, a TOML array in a file)
or an inclusive range ``START:STOP:STEP`` (``0:1:0.1``).

Cells with the same number of players are played on the same games of the
same seed (common random numbers) and each is compared, paired, with the first
cell of its table size.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import pandas as pd

from unocli.errors import ConfigError
from unocli.game.policies import POLICY_FIELDS, UnknownPolicy
from unocli.game.rules import RULE_FIELDS, resolve_rules
from unocli.run.backends import Backend
from unocli.run.precision import DEFAULT_MAX_GAMES, TargetInfo
from unocli.study.arm import Arm, PolicyFile, TableSpec, parse_policy, plain
from unocli.study.compare import Comparison, compare

Progress = Callable[[int, int], None]


@dataclass(frozen=True)
class Axis:
    """One grid axis: what it changes (``kind``, ``target``, ``seats``) and its values."""

    name: str
    kind: str  # rule | players | rules | knob | policy
    target: str
    seats: str
    values: tuple[Any, ...]

    def apply(self, table: TableSpec, value: Any) -> TableSpec:
        if self.kind == "rule":
            return table.with_set(self.target, value)
        if self.kind == "players":
            return replace(table, players=int(value))
        if self.kind == "rules":
            return replace(table, rules=str(value))
        if self.kind == "policy":
            if self.seats == "all":
                return replace(table, policy=str(value))
            out = table
            for s in _seat_range(self.seats):
                out = out.with_seat(s, str(value))
            return out
        knobs = [k for k in table.knobs if not (k[0] == self.seats and k[1] == self.target)]
        return replace(table, knobs=(*knobs, (self.seats, self.target, plain(value))))


def _seat_range(sel: str) -> list[int]:
    lo, _, hi = sel.partition("-")
    return list(range(int(lo), int(hi or lo) + 1))


MAX_AXIS_VALUES = 10_000  # values on one axis (a range with a tiny step is refused before it is built)
CONFIRM_CELLS = 1_000  # a grid with more cells than this is played only with --yes


def grid_cells(axes: Sequence[Axis]) -> int:
    """The number of cells of a grid (the product of its axes' lengths)."""
    return math.prod(len(a.values) for a in axes)


def parse_values(text: Any) -> tuple[Any, ...]:
    """``a,b,c`` or ``START:STOP:STEP`` (inclusive), or a list, into values."""
    if isinstance(text, list | tuple):
        return tuple(text)
    if not isinstance(text, str):
        return (text,)
    s = text.strip()
    if s.count(":") == 2 and "," not in s:
        try:
            start, stop, step = (float(x) for x in s.split(":"))
        except ValueError:
            raise ConfigError(f"range {s!r} must be START:STOP:STEP with numbers") from None
        if step <= 0 or not all(map(math.isfinite, (start, stop, step))):
            raise ConfigError(f"range {s!r} needs a positive step")
        count = math.floor((stop - start) / step + 1e-9) + 1
        if count > MAX_AXIS_VALUES:  # refused before the values are built: 0:1:1e-12 would not fit in memory
            raise ConfigError(f"range {s!r} has {count:,} values; an axis takes at most {MAX_AXIS_VALUES:,}")
        values = [round(start + i * step, 10) for i in range(max(count, 0))]
        if all(float(v).is_integer() for v in (start, stop, step)):
            values = [int(v) for v in values]
        return tuple(values)
    items = tuple(v.strip() for v in s.split(","))
    if len(items) > 1 and not all(items):  # "0,,1" or "0,1,": a value left out, not one value fewer
        raise ConfigError(f"values {s!r} hold an empty item between commas")
    return tuple(v for v in items if v)


def parse_axis(name: str, values: Any, policies: PolicyFile | None = None) -> Axis:
    """An axis from its name and values; raises ConfigError for an unknown name, an empty grid or a bad value.

    ``policies``: the policies file whose names a ``policy`` axis may take.
    """
    raw = name.strip()
    try:
        vals = parse_values(values)
    except ConfigError as exc:
        raise ConfigError(f"grid axis {raw!r}: {exc}") from None
    if not vals:
        raise ConfigError(f"grid axis {raw!r} is empty: give at least one value")
    base, _, seats = raw.partition("@")
    seats = seats.strip() or "all"
    if seats != "all" and seats != "opponents":
        lo, _, hi = seats.partition("-")
        if not lo.isdigit() or (hi and not hi.isdigit()) or (hi and int(hi) < int(lo)):
            raise ConfigError(f"grid axis {raw!r}: seats must be S, S-T or opponents, not {seats!r}")
    if base.startswith("rule."):
        kind, target = "rule", base[5:]
        if target not in RULE_FIELDS:
            raise ConfigError(f"grid axis {raw!r}: unknown rule field {target!r}; the fields are: {', '.join(RULE_FIELDS)}")
    elif base.startswith("policy."):
        kind, target = "knob", base[7:]
    elif base == "policy":
        kind, target = "policy", "policy"
    elif base == "rules":
        kind, target = "rules", "rules"
    elif base in POLICY_FIELDS:
        kind, target = "knob", base
    elif base in RULE_FIELDS:
        kind, target = ("players", "players") if base == "players" else ("rule", base)
    else:
        raise ConfigError(
            f"unknown grid axis {raw!r}: not a rule field ({', '.join(RULE_FIELDS)}), "
            f"a policy knob ({', '.join(POLICY_FIELDS)}), 'rules' or 'policy'"
        )
    if kind == "knob" and target not in POLICY_FIELDS:
        raise ConfigError(f"grid axis {raw!r}: unknown policy knob {target!r}; the knobs are: {', '.join(POLICY_FIELDS)}")
    if kind in ("rule", "players", "rules") and seats != "all":
        raise ConfigError(f"grid axis {raw!r}: only policy knobs and 'policy' take @seats")
    axis = Axis(name=raw, kind=kind, target=target, seats=seats, values=vals)
    _check_values(axis, policies)
    return axis


def _check_values(axis: Axis, policies: PolicyFile | None = None) -> None:
    """Build a throwaway table for every value so a bad value fails before any game is played."""
    from unocli.game.policies import Policy
    from unocli.game.rules import Rules

    for v in axis.values:
        try:
            if axis.kind in ("rule", "players"):
                Rules().replace(**{axis.target: plain(v)})
            elif axis.kind == "knob":
                Policy().replace(**{axis.target: plain(v)})
            elif axis.kind == "policy":
                parse_policy(str(v), policies)
            else:
                resolve_rules(str(v))
        except ConfigError as exc:
            # a bare name read as a policy knob that is a rule field too; a rule axis needs no hint
            ambiguous = axis.kind == "knob" and axis.target in RULE_FIELDS
            hint = " (for the rule field write rule." + axis.target + ")" if ambiguous else ""
            cls = UnknownPolicy if isinstance(exc, UnknownPolicy) else ConfigError  # an unknown name stays a usage error
            raise cls(f"grid axis {axis.name!r}, value {v!r}: {exc}{hint}") from None


def parse_grid_option(text: str, policies: PolicyFile | None = None) -> Axis:
    """``--grid NAME=VALUES`` (a ``policy`` axis may name the policies of ``policies``)."""
    name, sep, values = text.partition("=")
    if not sep or not name.strip():
        raise ConfigError(f"--grid takes NAME=VALUES (a,b,c or START:STOP:STEP), not {text!r}")
    return parse_axis(name, values, policies)


def check_grid(axes: Sequence[Axis]) -> None:
    names = [a.name for a in axes]
    if not axes:
        raise ConfigError("a sweep needs at least one --grid axis")
    dup = sorted({n for n in names if names.count(n) > 1})
    if dup:
        raise ConfigError(f"grid axis {dup[0]!r} is given twice")


def cell_name(values: dict[str, Any]) -> str:
    return ", ".join(f"{k}={plain(v)}" for k, v in values.items())


@dataclass
class SweepResult:
    """Every cell's comparison, grouped by table size."""

    axes: tuple[Axis, ...]
    cells: list[dict[str, Any]]  # axis name -> value, in grid order
    groups: dict[int, Comparison]  # players -> comparison of that size's cells
    cell_players: list[int]
    metrics: tuple[str, ...]
    metric: str
    seed: int
    base: TableSpec
    targets: dict[int, TargetInfo] = field(default_factory=dict)

    @property
    def games(self) -> int:
        """Games played in all: each table size's games per cell times its cells."""
        return sum(c.games * len(c.arms) for c in self.groups.values())

    def table(self) -> pd.DataFrame:
        """Tidy rows (cell x metric) with the mean, its interval, n, and the paired difference from the
        first cell of the same table size (Holm-adjusted within that table size)."""
        frames = []
        for players, comp in self.groups.items():
            df = comp.table(self.metrics)
            df.insert(0, "players", players)
            frames.append(df)
        df = pd.concat(frames, ignore_index=True)
        by_name = {cell_name(c): c for c in self.cells}
        for axis in self.axes:
            if axis.name != "players":
                df.insert(0, axis.name, [by_name[a][axis.name] for a in df["arm"]])
        return df.rename(columns={"arm": "cell", "baseline": "baseline_cell"})


def sweep(
    base: TableSpec,
    axes: Sequence[Axis],
    *,
    games: int,
    seed: int = 0,
    metrics: Sequence[str] | None = None,
    metric: str = "turns",
    match: bool = False,
    target_error: float | None = None,
    max_games: int = DEFAULT_MAX_GAMES,
    threads: int | None = None,
    backend: Backend | None = None,
    progress: Progress | None = None,
) -> SweepResult:
    """Play every cell of the grid and compare the cells of each table size, paired.

    Parameters
    ----------
    base
        The table every cell starts from.
    axes
        The grid (see the module docstring).
    games, seed
        Games per cell (the first batch with ``target_error``) and the run seed.
    metrics
        Metrics in the table (default: ``metric``, win_0, cards_drawn).
    metric
        The metric plotted and targeted.
    target_error, max_games
        Play until every cell's 95% half-width of ``metric`` is at most ``target_error``.
    """
    axes = tuple(axes)
    check_grid(axes)
    combos, arms = grid_arms(base, axes, match)
    chosen = tuple(dict.fromkeys([metric, *(metrics or ("win_0", "cards_drawn"))]))
    groups: dict[int, list[Arm]] = {}
    for arm in arms:
        groups.setdefault(arm.players, []).append(arm)
    done: dict[int, Comparison] = {}
    planned = games * len(arms)
    offset = 0
    for players, group in groups.items():

        def report(d: int, total: int, _o: int = offset, _k: int = len(group)) -> None:
            if progress is not None:
                progress(_o + d * _k, max(planned, _o + total * _k))

        done[players] = compare(
            group,
            games=games,
            seed=seed,
            quantities=chosen,
            target_error=target_error,
            metric=metric,
            max_games=max_games,
            target_on="mean",
            threads=threads,
            backend=backend,
            progress=report,
        )
        offset += done[players].games * len(group)
    return SweepResult(
        axes=axes,
        cells=combos,
        groups=done,
        cell_players=[a.players for a in arms],
        metrics=chosen,
        metric=metric,
        seed=seed,
        base=base,
        targets={p: c.target for p, c in done.items() if c.target is not None},
    )


def grid_arms(base: TableSpec, axes: Sequence[Axis], match: bool = False) -> tuple[list[dict[str, Any]], list[Arm]]:
    """Every cell of the grid, in grid order: its axis values and its arm (named by :func:`cell_name`)."""
    combos = [dict(zip([a.name for a in axes], vals, strict=True)) for vals in itertools.product(*[a.values for a in axes])]
    arms = []
    for combo in combos:
        table = base
        for axis in axes:
            table = axis.apply(table, combo[axis.name])
        arms.append(table.build(name=cell_name(combo), match=match))
    return combos, arms
