"""Experiments as files: ``sims/*.toml`` name the arms, the grid, the size, the seed and the report.

The format, every key and each ``[[view]]`` kind's options, is docs/experiments.md.
:func:`load_experiment` validates everything before any game is played; an
unknown key, rule field, policy knob, metric or analysis, an empty grid or a
target error that is not positive raises :class:`~unocli.errors.ConfigError`
naming the file and the key.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, TypeVar

from unocli.errors import ConfigError
from unocli.files import load_toml
from unocli.game.limits import OutOfRange, check_games, check_seed
from unocli.game.policies import UnknownPolicy
from unocli.report import registry
from unocli.report.options import (
    MARGINS,
    VIEW_OPTIONS,
    Check,
    file_name,
    needs_quantity,
    table_problem,
    template_problem,
    view_problem,
)
from unocli.report.registry import DEFAULT_SET, REPORTS
from unocli.run.precision import DEFAULT_MAX_GAMES, check_target
from unocli.study.arm import Arm, PolicyFile, TableSpec, check_spec, plain
from unocli.study.compare import quantity_names, recordable
from unocli.study.sweep import Axis, parse_axis

T = TypeVar("T")

TOP_KEYS = (
    "name",
    "title",
    "description",
    "analysis",
    "seed",
    "games",
    "target_error",
    "metric",
    "max_games",
    "match",
    "players",
    "baseline",
    "metrics",
    "policies",
    "base",
    "arms",
    "grid",
    "options",
    "margins",
    "published",
    "view",
    "quick",
)
PUBLISHED_KEYS = ("source", "figure", "value", "interval", "definition", "ours", "reconciliation")
PUBLISHED_REQUIRED = ("source", "figure", "value", "reconciliation")
VIEW_KEYS = ("kind", "name", "quantity", "title", "frame", "where", "options")
QUICK_KEYS = ("games", "target_error", "max_games", "players", "metrics", "grid", "options")
TABLE_KEYS = ("rules", "set", "policy", "seats", "description")


@dataclass(frozen=True)
class ArmSpec:
    """An ``[arms.NAME]`` table of the file: a name, the table as text, and a description.

    It is not an :class:`~unocli.study.arm.Arm` yet: one ArmSpec builds an Arm
    at each of the experiment's table sizes.
    """

    name: str
    table: TableSpec
    description: str = ""

    def build(self, players: int, match: bool = False) -> Arm:
        return self.table.build(name=self.name, players=players, match=match)


@dataclass(frozen=True)
class Published:
    """A ``[[published]]`` figure: a source's value, beside which a report sets its own (``ours``), reconciled.

    ``ours`` names a figure the report measures itself, or is a table (:data:`OURS_KEYS`) that reads it from
    one row of one of the report's frames.
    """

    source: str
    figure: str
    value: str
    reconciliation: str
    interval: str = ""
    definition: str = ""
    ours: str | dict[str, Any] = ""


@dataclass(frozen=True)
class View:
    """A ``[[view]]`` table: a table or chart of the report's frame, its kind, quantity, file name, title and options;
    ``where``: a pandas query keeping the frame's rows it draws."""

    kind: str
    name: str
    quantity: str = ""
    title: str = ""
    options: dict[str, Any] = field(default_factory=dict)
    frame: str = ""
    where: str = ""


@dataclass(frozen=True)
class Experiment:
    """A validated experiment file."""

    path: Path
    name: str
    title: str
    description: str
    analysis: str
    seed: int
    games: int
    target_error: float | None
    metric: str
    max_games: int
    match: bool
    players: tuple[int, ...]
    baseline: str | None
    metrics: tuple[str, ...]
    base: TableSpec
    arms: tuple[ArmSpec, ...]
    grid: tuple[Axis, ...]
    options: dict[str, Any] = field(default_factory=dict)
    quick: bool = False
    margins: dict[str, float] = field(default_factory=lambda: dict(MARGINS))
    published: tuple[Published, ...] = ()
    views: tuple[View, ...] = ()

    def arms_for(self, players: int) -> tuple[Arm, ...]:
        """Every arm at a table of ``players`` (the [base] table alone when the file names no arms).

        The arms play single rounds; a caller playing matches says so
        (``compare(..., match=exp.match)``), as one report plays the same arms both ways.
        """
        if not self.arms:
            return (self.base.build(name="base", players=players),)
        return tuple(a.build(players) for a in self.arms)

    @property
    def intro(self) -> str:
        """The description, then the file's own policies when it names a policies file (what a report opens with)."""
        policies = self.base.policies.summary() if self.base.policies else ""
        return "\n\n".join(part for part in (self.description, policies) if part)


class _Where:
    """Builds ConfigErrors that name the file and the key, and checks what every table of the file shares."""

    def __init__(self, path: Path, quick: Collection[str] = ()) -> None:
        self.path, self.quick = path, quick

    def error(self, key: str, message: str, like: ConfigError | None = None) -> ConfigError:
        """The error naming the file and key; ``like``: keep the class of the error it rewords (an unknown policy).

        Building the quick experiment, a key ``[quick]`` overrides is named there (``quick.games``): the file's
        own value was checked first, so the override is what failed.
        """
        cls = UnknownPolicy if isinstance(like, UnknownPolicy) else ConfigError
        if re.split(r"[.\[]", key, maxsplit=1)[0] in self.quick:
            key = f"quick.{key}"
        return cls(f"experiment file {str(self.path)!r}, key {key!r}: {message}")

    def check(self, key: str, message: str | None) -> None:
        """Raise the error at ``key`` when a check said why a value will not do (None: it will)."""
        if message:
            raise self.error(key, message)

    def table(self, value: Any, key: str, why: str = "must be a table") -> dict[str, Any]:
        """``value`` if it is a table; ``why``: the words when it is not."""
        if not isinstance(value, dict):
            raise self.error(key, why)
        return value

    def tables(self, value: Any, key: str, why: str) -> list[dict[str, Any]]:
        """``value`` if it is a list of tables (``[[key]]``); ``why``: the words when it is not."""
        if not isinstance(value, list) or not all(isinstance(t, dict) for t in value):
            raise self.error(key, why)
        return value

    def keys(self, table: dict[str, Any], allowed: Mapping[str, Check | None], key: str, unknown: str) -> None:
        """Refuse the first key not ``allowed`` ("``unknown``: the allowed keys") or whose value its check refuses."""
        self.problem(key, table_problem(table, allowed, unknown))

    def problem(self, key: str, found: tuple[str, str] | None) -> None:
        """Raise the error at ``key.SUBKEY`` for the (SUBKEY, why) a check found (None: nothing)."""
        if found:
            raise self.error(f"{key}.{found[0]}" if key else found[0], found[1])

    def one_of(self, value: Any, known: Collection[str], key: str, what: str, plural: str) -> None:
        """Refuse a ``value`` (a ``what``) that is not one of ``known`` (the ``plural``), naming them."""
        if value not in known:
            raise self.error(key, f"unknown {what} {value!r}; the {plural} are: {', '.join(known)}")


def _text(value: Any) -> str | None:
    return None if isinstance(value, str) else f"must be text (in quotes), not {value!r}"


def load_experiment(path: str | Path, quick: bool = False, policies_file: str | None = None) -> Experiment:
    """Read and validate an experiment file (``quick``: apply its ``[quick]`` overrides).

    ``policies_file`` replaces the file's own ``policies`` key (a path as given,
    relative to the working folder; ``""``: no policies file); None keeps the key.
    """
    p = Path(path)
    raw = load_toml(p, "experiment file")
    where = _Where(p)
    where.keys(raw, dict.fromkeys(TOP_KEYS), "", "unknown key; the keys are")
    policies = PolicyFile.load(policies_file) if policies_file else None
    if policies_file is None:
        policies = _policy_file(raw.get("policies"), p, where)
    overrides = where.table(raw.get("quick", {}), "quick", "must be a table of overrides")
    where.keys(overrides, dict.fromkeys(QUICK_KEYS), "quick", "cannot be overridden in [quick]; these can")
    full = _build(p, raw, where, quick=False, policies=policies)
    merged = dict(raw)
    for key, value in overrides.items():
        if key in ("grid", "options") and isinstance(value, dict) and isinstance(raw.get(key), dict):
            merged[key] = {**raw[key], **value}
        else:
            merged[key] = value
    quick_exp = _build(p, merged, _Where(p, quick=set(overrides)), quick=True, policies=policies)
    return quick_exp if quick else full


def _policy_file(value: Any, p: Path, where: _Where) -> PolicyFile | None:
    """The file's ``policies`` key: a policies file, relative to the experiment file's folder."""
    if value is None:
        return None
    if not isinstance(value, str) or not value.strip():
        raise where.error("policies", f"must name a policies file, not {value!r}")
    target = Path(value)
    if not target.is_absolute():
        target = p.parent / target
    try:
        return PolicyFile.load(target)
    except ConfigError as exc:
        raise where.error("policies", str(exc)) from None


def _build(p: Path, raw: dict[str, Any], where: _Where, quick: bool, policies: PolicyFile | None) -> Experiment:
    """Validate every key of one (possibly quick-merged) file, in the order a reader meets them."""
    g = _Getter(raw, where)
    name = g.string("name", p.stem)
    where.check("name", check_experiment_name(name))
    default_analysis = "sweep" if "grid" in raw and "arms" not in raw else "compare"
    title, description, analysis = g.string("title", name), g.string("description", ""), g.string("analysis", default_analysis)
    where.one_of(analysis, REPORTS, "analysis", "analysis", "analyses")
    module = registry.analysis(analysis)
    seed = g.checked("seed", 0, check_seed)
    games = g.checked("games", 10_000, check_games)
    max_games = g.checked("max_games", DEFAULT_MAX_GAMES, check_games)
    target_error = _target_error(raw.get("target_error"), max_games, where)
    match = g.boolean("match", False)
    base = _table(raw.get("base", {}), "base", TableSpec(base_dir=str(p.parent), policies=policies), where)
    players = _players(raw.get("players", [4]), where)
    metric, metrics = _metrics(g, raw, quantity_names(min(players)))
    arms = _arm_specs(raw.get("arms", {}), base, players, where)
    baseline = raw.get("baseline")
    if baseline is not None and baseline not in [a.name for a in arms]:
        names = ", ".join(a.name for a in arms) or "(none)"
        raise where.error("baseline", f"{baseline!r} is not an arm; the arms are: {names}")
    exp = Experiment(
        path=p,
        name=name,
        title=title,
        description=description,
        analysis=analysis,
        seed=seed,
        games=games,
        target_error=target_error,
        metric=metric,
        max_games=max_games,
        match=match,
        players=players,
        baseline=baseline,
        metrics=metrics,
        base=base,
        arms=arms,
        grid=_grid(raw.get("grid", {}), where, policies),
        options=_options(raw.get("options", {}), module, where),
        quick=quick,
        margins=_margins(raw.get("margins", {}), where),
        published=_published(raw.get("published", []), where),
        views=_views(raw.get("view", []), where, recordable(min(players))),
    )
    if "{target}" in exp.description:  # the rules' own score, so the words cannot go stale
        target = str(exp.arms_for(players[0])[0].rules.target_score)
        exp = replace(exp, description=exp.description.replace("{target}", target))
    _check_used(raw, analysis, where)  # after the tables themselves were checked, so their errors come first
    check = getattr(module, "check", None)
    message = check(exp) if check is not None else None
    if message:
        key, _, text = message.partition(": ")
        raise where.error(key, text)
    return exp


MAX_NAME = 100


def check_experiment_name(name: str) -> str | None:
    """Why ``name`` cannot name an experiment (None: it can).

    A report of several experiments writes each into ``OUT/NAME/``: a name with
    a slash or starting with a dot (``..``) would write outside the report
    folder, over whatever is there.
    """
    if not name:
        return "must not be empty (it names the experiment's folder in a report)"
    if "/" in name or "\\" in name or name.startswith("."):
        return f"{name!r} must be a plain folder name: no slash or backslash, not starting with a dot"
    if len(name) > MAX_NAME or not name.isprintable():
        return f"must be at most {MAX_NAME} printable characters (it names the experiment's folder in a report)"
    return None


def _check_used(raw: dict[str, Any], analysis: str, where: _Where) -> None:
    """Refuse [arms] or [grid] in a file whose analysis does not play them."""
    used = REPORTS[analysis].uses
    for key in ("arms", "grid"):
        if key in raw and key not in used:
            plays = " and ".join(f"[{u}]" for u in used) or "its own built-in grid"
            raise where.error(key, f"the {analysis!r} analysis does not use [{key}] (it plays {plays}): remove it")


def _positive(value: Any) -> str | None:
    ok = isinstance(value, int | float) and not isinstance(value, bool) and value > 0
    return None if ok else "must be a positive number"


def _margins(raw: Any, where: _Where) -> dict[str, float]:
    """The ``[margins]`` table over the defaults: known keys, positive numbers."""
    table = where.table(raw, "margins")
    where.keys(table, dict.fromkeys(MARGINS, _positive), "margins", "unknown margin; the margins are")
    return MARGINS | {k: float(v) for k, v in table.items()}


def _published(raw: Any, where: _Where) -> tuple[Published, ...]:
    """The ``[[published]]`` tables: known keys, text values (``ours`` text or a table), the required ones present."""
    out = []
    tables = where.tables(raw, "published", "must be tables ([[published]] with source, figure, value, reconciliation)")
    for i, table in enumerate(tables):
        key = f"published[{i}]"
        checks = dict.fromkeys(PUBLISHED_KEYS, _text) | {"ours": _ours(f"{key}.ours", where)}
        where.keys(table, checks, key, "unknown key; a published figure takes")
        missing = [k for k in PUBLISHED_REQUIRED if not table.get(k, "").strip()]
        if missing:
            raise where.error(f"{key}.{missing[0]}", "is required (source, figure, value and reconciliation)")
        out.append(Published(**table))
    return tuple(out)


def _two_columns(value: Any) -> str | None:
    ok = isinstance(value, list) and len(value) == 2 and all(isinstance(c, str) for c in value)
    return None if ok else f"must be two column names [low, high], not {value!r}"


def _formulas(value: Any) -> str | None:
    ok = isinstance(value, dict) and all(isinstance(e, str) for e in value.values())
    return None if ok else f"must be a table of column = formula (text), not {value!r}"


def _query(value: Any) -> str | None:
    """Why a ``where`` will not do: not text, or a query pandas cannot read at all (its names are known only later)."""
    import pandas as pd
    from pandas.errors import UndefinedVariableError

    if not isinstance(value, str):
        return _text(value)
    try:
        pd.DataFrame().query(value.replace("{", "_").replace("}", "_")) if value else None  # {word}s are filled later
    except UndefinedVariableError:
        pass
    except Exception as bad:  # a syntax pandas cannot read
        return f"is not a query pandas can read ({bad}): {value!r}"
    return None


# ``ours`` as a table: unocli's figure read from one row of a frame of the report (docs/experiments.md)
OURS_KEYS: dict[str, Check] = dict(
    frame=_text, where=_query, assign=_formulas, text=template_problem, n=_text, interval=_two_columns
)


def _ours(key: str, where: _Where) -> Check:
    """The check of ``ours``: text, or a table reading the figure from a frame's row (checked at its own keys)."""
    return lambda v: _ours_table(v, key, where) if isinstance(v, dict) else _text(v)


def _ours_table(table: dict[str, Any], key: str, where: _Where) -> None:
    """A ``[published.ours]`` table: known keys, ``text`` and ``where`` present, text values, a two-column interval."""
    where.keys(table, OURS_KEYS, key, "unknown key; ours as a table takes")
    for k in ("text", "where"):
        if k not in table:
            raise where.error(f"{key}.{k}", "is required (the row is where's, the figure is text's)")


def _views(raw: Any, where: _Where, known: tuple[str, ...]) -> tuple[View, ...]:
    """The ``[[view]]`` tables: a known kind, a known quantity (but for published), text, the kind's own options."""
    out: list[View] = []
    for i, table in enumerate(where.tables(raw, "view", "must be tables ([[view]] with kind, quantity and options)")):
        key = f"view[{i}]"
        where.keys(table, dict.fromkeys(VIEW_KEYS, _text) | {"options": None}, key, "unknown key; a view takes")
        kind, quantity = table.get("kind", ""), table.get("quantity", "")
        where.one_of(kind, VIEW_OPTIONS, f"{key}.kind", "view", "views")
        given = table.get("options", {})
        if needs_quantity(kind, given if isinstance(given, dict) else {}):
            where.one_of(quantity, known, f"{key}.quantity", "quantity", "quantities")
        options = where.table(table.get("options", {}), f"{key}.options", "must be a table, e.g. { players = 4 }")
        where.problem(f"{key}.options", view_problem(kind, options))
        where.check(f"{key}.where", _query(table.get("where", "")))
        name = table.get("name") or "-".join(x for x in (kind, quantity.replace("_", "-")) if x)
        where.check(f"{key}.name", file_name(name))
        if name in {v.name for v in out}:
            raise where.error(f"{key}.name", f"two views are both named {name!r}: give one a name of its own")
        out.append(
            View(kind, name, quantity, table.get("title", ""), dict(options), table.get("frame", ""), table.get("where", ""))
        )
    return tuple(out)


def _target_error(value: Any, max_games: int, where: _Where) -> float | None:
    """The target standard error (None: play ``games``), worded as the file's key rather than the CLI's option."""
    if value is None:
        return None
    try:
        check_target(value, max_games, where="target_error")
    except ConfigError:
        raise where.error("target_error", f"must be a positive number, not {value!r}") from None
    return float(value)


def _players(raw: Any, where: _Where) -> tuple[int, ...]:
    """The table sizes: a whole number from 2 to 10, or a non-empty list of them."""
    players = raw if isinstance(raw, list) else [raw]
    if not players:
        raise where.error("players", "must name at least one table size")
    for n in players:
        if isinstance(n, bool) or not isinstance(n, int) or not 2 <= n <= 10:
            raise where.error("players", f"table sizes must be whole numbers from 2 to 10, not {n!r}")
    return tuple(players)


def _metrics(g: _Getter, raw: dict[str, Any], known: tuple[str, ...]) -> tuple[str, tuple[str, ...]]:
    """The targeted ``metric`` and the table's ``metrics``, each one of ``known``."""
    metric = g.string("metric", "turns")
    g.where.one_of(metric, known, "metric", "metric", "metrics")
    metrics = raw.get("metrics", ["turns", "cards_drawn", "win_0"])
    if not isinstance(metrics, list) or not metrics:
        raise g.where.error("metrics", "must be a non-empty list of metric names")
    for i, m in enumerate(metrics):
        g.where.one_of(m, known, "metrics", "metric", "metrics")
        if m in metrics[:i]:
            raise g.where.error("metrics", f"names {m!r} twice")
    return metric, tuple(metrics)


def _arm_specs(raw: Any, base: TableSpec, players: tuple[int, ...], where: _Where) -> tuple[ArmSpec, ...]:
    """The [arms.NAME] tables on top of [base], each built once at every table size so a bad one fails now."""
    arms = []
    for arm_name, table in where.table(raw, "arms", "must be a table of arm tables ([arms.NAME])").items():
        spec = _table(table, f"arms.{arm_name}", base, where)
        arms.append(ArmSpec(name=arm_name, table=spec, description=str(table.get("description", ""))))
        for n in players:
            try:
                arms[-1].build(n)
            except ConfigError as exc:
                raise where.error(f"arms.{arm_name}", f"at {n} players: {exc}", like=exc) from None
    return tuple(arms)


def _grid(raw: Any, where: _Where, policies: PolicyFile | None) -> tuple[Axis, ...]:
    """The [grid] table's axes, each parsed now so a bad one fails before any game is played."""
    axes = []
    for axis_name, values in where.table(raw, "grid", 'must be a table of axes (NAME = [values] or "START:STOP:STEP")').items():
        try:
            axes.append(parse_axis(axis_name, values, policies))
        except ConfigError as exc:
            raise where.error(f"grid.{axis_name}", str(exc), like=exc) from None
    return tuple(axes)


class _Getter:
    """The file's single values: each of its type, or checked as the CLI checks its option, else the error at its key."""

    def __init__(self, raw: dict[str, Any], where: _Where) -> None:
        self.raw, self.where = raw, where

    def _typed(self, key: str, default: T, kind: type[T], wording: str) -> T:
        value = self.raw.get(key, default)
        if not isinstance(value, kind):
            raise self.where.error(key, f"must be {wording}, not {value!r}")
        return value

    def string(self, key: str, default: str) -> str:
        return self._typed(key, default, str, "a string")

    def boolean(self, key: str, default: bool) -> bool:
        return self._typed(key, default, bool, "true or false")

    def checked(self, key: str, default: int, check: Callable[[Any, str], int]) -> int:
        """A value checked by one of :mod:`unocli.game.limits`' checks (the ones the CLI's options use)."""
        value = self.raw.get(key, default)
        if isinstance(value, str):  # the CLI reads text; a file's number is a TOML integer
            raise OutOfRange(str(self.where.error(key, f"must be a whole number, not the text {value!r}")))
        try:
            return check(value, "it")
        except OutOfRange as exc:
            raise OutOfRange(str(self.where.error(key, str(exc).removeprefix("it ")))) from None


def _table(raw: Any, key: str, parent: TableSpec, where: _Where) -> TableSpec:
    """A [base] or [arms.NAME] table on top of ``parent``."""
    where.keys(where.table(raw, key), dict.fromkeys(TABLE_KEYS), key, "unknown key; an arm table takes")
    table = parent
    if "rules" in raw:
        if not isinstance(raw["rules"], str):
            raise where.error(f"{key}.rules", "must name a preset or a rules file")
        table = replace(parent, rules=raw["rules"], sets=())
    sets = where.table(raw.get("set", {}), f"{key}.set", 'must be a table of rule fields, e.g. { stacking = "plus2" }')
    from unocli.game.rules import RULE_FIELDS, Rules

    for field_name, value in sets.items():
        where.one_of(field_name, RULE_FIELDS, f"{key}.set.{field_name}", "rule field", "fields")
        if field_name == "players":  # each arm is built at every size the file names, which would override it
            raise where.error(f"{key}.set.players", "the table sizes are the file's own key: players = [4] (or a list)")
        try:  # the value alone (hand_size is checked against each table size when the arm is built)
            Rules().replace(**{field_name: plain(value), **({"players": 2} if field_name == "hand_size" else {})})
        except ConfigError as exc:
            raise where.error(f"{key}.set.{field_name}", str(exc)) from None
        table = table.with_set(field_name, value)
    if "policy" in raw:
        if not isinstance(raw["policy"], str):
            raise where.error(f"{key}.policy", 'must be a policy spec, e.g. "basic:bluff=0.3"')
        _check_policy(raw["policy"], f"{key}.policy", where, table.policies)
        table = replace(table, policy=raw["policy"])
    seats = raw.get("seats", {})
    if isinstance(seats, list):
        pairs = []
        for item in seats:
            s, sep, spec = str(item).partition("=")
            if not sep:
                raise where.error(f"{key}.seats", f"entries take SEAT=POLICY, not {item!r}")
            pairs.append((s.strip(), spec.strip()))
        seats = dict(pairs)
    seats = where.table(seats, f"{key}.seats", 'must be a table { 0 = "bluffer" } or a list ["0=bluffer"]')
    named: dict[int, str] = {}
    for s, spec in seats.items():
        if not str(s).isdigit():
            raise where.error(f"{key}.seats.{s}", "seats are numbers from 0")
        if int(s) in named:  # "0" and "00" are one seat: the last would win without a word
            raise where.error(f"{key}.seats.{s}", f"seat {int(s)} is given twice ({named[int(s)]!r} and {s!r})")
        named[int(s)] = str(s)
        _check_policy(str(spec), f"{key}.seats.{s}", where, table.policies)
        table = table.with_seat(int(s), str(spec))
    return table


def _check_policy(spec: str, key: str, where: _Where, policies: PolicyFile | None) -> None:
    """A policy spec worded at its key; an unknown policy stays an UnknownPolicy (the CLI suggests the nearest)."""
    try:
        check_spec(spec, policies)  # a {rules}/{players} template's name is checked as each arm is built
    except ConfigError as exc:
        raise where.error(key, str(exc), like=exc) from None


def _options(raw: Any, module: Any, where: _Where) -> dict[str, Any]:
    """The analysis options, checked against the analysis module's ``OPTIONS`` (name -> (default, check))."""
    schema: dict[str, tuple[Any, Check]] = getattr(module, "OPTIONS", {})
    table, checks = where.table(raw, "options"), {k: check for k, (_, check) in schema.items()}
    where.keys(table, checks, "options", "unknown option for this analysis; the options are")
    return {k: default for k, (default, _) in schema.items()} | table


def shipped_dir() -> Path:
    """The folder of the shipped experiments: the package's data (``unocli/data/sims``, a link to ``sims/`` in the
    source tree, copied into a wheel), ``sims/`` of the source tree, or of the working directory."""
    from importlib.resources import files

    packaged = Path(str(files("unocli") / "data" / "sims"))
    for candidate in (packaged, Path(__file__).resolve().parents[2] / "sims", Path.cwd() / "sims"):
        if all((candidate / f"{name}.toml").is_file() for name in DEFAULT_SET):
            return candidate
    raise ConfigError("cannot find the shipped experiments (sims/*.toml); name experiment files explicitly")
