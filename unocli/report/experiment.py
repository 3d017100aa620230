"""Experiments as files: ``sims/*.toml`` name the arms, the grid, the size, the seed and the report.

The format, every key and each ``[[view]]`` kind's options, is docs/experiments.md.
:func:`load_experiment` validates everything before any game is played; an
unknown key, rule field, policy knob, metric or analysis, an empty grid or a
target error that is not positive raises :class:`~unocli.errors.ConfigError`
naming the file and the key.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from unocli.errors import ConfigError
from unocli.files import load_toml
from unocli.game.limits import OutOfRange, check_games, check_seed
from unocli.game.policies import UnknownPolicy
from unocli.report import registry
from unocli.report.options import FILE_NAME, MARGINS, NO_QUANTITY, VIEW_OPTIONS, view_problem
from unocli.report.registry import DEFAULT_SET, REPORTS
from unocli.run.precision import DEFAULT_MAX_GAMES, check_target
from unocli.study.arm import Arm, PolicyFile, TableSpec, check_spec, plain
from unocli.study.compare import quantity_names
from unocli.study.sweep import Axis, parse_axis

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
# ``ours`` as a table: unocli's figure read from one row of a frame of the report (docs/experiments.md)
OURS_KEYS = ("frame", "where", "assign", "text", "n", "interval")
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
    """Builds ConfigErrors that name the file and the key."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def error(self, key: str, message: str, like: ConfigError | None = None) -> ConfigError:
        """The error naming the file and key; ``like``: keep the class of the error it rewords (an unknown policy)."""
        cls = UnknownPolicy if isinstance(like, UnknownPolicy) else ConfigError
        return cls(f"experiment file {str(self.path)!r}, key {key!r}: {message}")


def load_experiment(path: str | Path, quick: bool = False, policies_file: str | None = None) -> Experiment:
    """Read and validate an experiment file (``quick``: apply its ``[quick]`` overrides).

    ``policies_file`` replaces the file's own ``policies`` key (a path as given,
    relative to the working folder; ``""``: no policies file); None keeps the key.
    """
    p = Path(path)
    raw = load_toml(p, "experiment file")
    where = _Where(p)
    for key in raw:
        if key not in TOP_KEYS:
            raise where.error(key, f"unknown key; the keys are: {', '.join(TOP_KEYS)}")
    policies = PolicyFile.load(policies_file) if policies_file else None
    if policies_file is None:
        policies = _policy_file(raw.get("policies"), p, where)
    overrides = raw.get("quick", {})
    if not isinstance(overrides, dict):
        raise where.error("quick", "must be a table of overrides")
    for key in overrides:
        if key not in QUICK_KEYS:
            raise where.error(f"quick.{key}", f"cannot be overridden in [quick]; these can: {', '.join(QUICK_KEYS)}")
    full = _build(p, raw, where, quick=False, policies=policies)
    merged = dict(raw)
    for key, value in overrides.items():
        if key in ("grid", "options") and isinstance(value, dict) and isinstance(raw.get(key), dict):
            merged[key] = {**raw[key], **value}
        else:
            merged[key] = value
    quick_exp = _build(p, merged, where, quick=True, policies=policies)
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
    problem = check_experiment_name(name)
    if problem:
        raise where.error("name", problem)
    default_analysis = "sweep" if "grid" in raw and "arms" not in raw else "compare"
    title, description, analysis = g.string("title", name), g.string("description", ""), g.string("analysis", default_analysis)
    if analysis not in REPORTS:
        raise where.error("analysis", f"unknown analysis {analysis!r}; the analyses are: {', '.join(REPORTS)}")
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
        views=_views(raw.get("view", []), where, quantity_names(min(players))),
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


def _margins(raw: Any, where: _Where) -> dict[str, float]:
    """The ``[margins]`` table over the defaults: known keys, positive numbers."""
    if not isinstance(raw, dict):
        raise where.error("margins", "must be a table")
    out = dict(MARGINS)
    for key, value in raw.items():
        if key not in MARGINS:
            raise where.error(f"margins.{key}", f"unknown margin; the margins are: {', '.join(MARGINS)}")
        if isinstance(value, bool) or not isinstance(value, int | float) or not value > 0:
            raise where.error(f"margins.{key}", "must be a positive number")
        out[key] = float(value)
    return out


def _published(raw: Any, where: _Where) -> tuple[Published, ...]:
    """The ``[[published]]`` tables: known keys, text values, the required ones present."""
    if not isinstance(raw, list) or not all(isinstance(t, dict) for t in raw):
        raise where.error("published", "must be tables ([[published]] with source, figure, value, reconciliation)")
    out = []
    for i, table in enumerate(raw):
        key = f"published[{i}]"
        for k, value in table.items():
            if k not in PUBLISHED_KEYS:
                raise where.error(f"{key}.{k}", f"unknown key; a published figure takes: {', '.join(PUBLISHED_KEYS)}")
            if k == "ours" and isinstance(value, dict):
                _ours_table(value, f"{key}.ours", where)
            elif not isinstance(value, str):
                raise where.error(f"{key}.{k}", f"must be text (in quotes), not {value!r}")
        missing = [k for k in PUBLISHED_REQUIRED if not table.get(k, "").strip()]
        if missing:
            raise where.error(f"{key}.{missing[0]}", "is required (source, figure, value and reconciliation)")
        out.append(Published(**table))
    return tuple(out)


def _ours_table(table: dict[str, Any], key: str, where: _Where) -> None:
    """A ``[published.ours]`` table: known keys, ``text`` and ``where`` present, text values, a two-column interval."""
    for k, value in table.items():
        if k not in OURS_KEYS:
            raise where.error(f"{key}.{k}", f"unknown key; ours as a table takes: {', '.join(OURS_KEYS)}")
        if k == "interval":
            if not (isinstance(value, list) and len(value) == 2 and all(isinstance(c, str) for c in value)):
                raise where.error(f"{key}.{k}", f"must be two column names [low, high], not {value!r}")
        elif k == "assign":
            if not (isinstance(value, dict) and all(isinstance(e, str) for e in value.values())):
                raise where.error(f"{key}.{k}", f"must be a table of column = formula (text), not {value!r}")
        elif not isinstance(value, str):
            raise where.error(f"{key}.{k}", f"must be text (in quotes), not {value!r}")
        elif k == "where":
            _check_query(value, f"{key}.{k}", where)
    for k in ("text", "where"):
        if k not in table:
            raise where.error(f"{key}.{k}", "is required (the row is where's, the figure is text's)")


def _views(raw: Any, where: _Where, known: tuple[str, ...]) -> tuple[View, ...]:
    """The ``[[view]]`` tables: a known kind, a known quantity (but for published), text, the kind's own options."""
    if not isinstance(raw, list) or not all(isinstance(t, dict) for t in raw):
        raise where.error("view", "must be tables ([[view]] with kind, quantity and options)")
    out: list[View] = []
    for i, table in enumerate(raw):
        key = f"view[{i}]"
        for k, value in table.items():
            if k not in VIEW_KEYS:
                raise where.error(f"{key}.{k}", f"unknown key; a view takes: {', '.join(VIEW_KEYS)}")
            if k != "options" and not isinstance(value, str):
                raise where.error(f"{key}.{k}", f"must be text (in quotes), not {value!r}")
        kind = table.get("kind", "")
        if kind not in VIEW_OPTIONS:
            raise where.error(f"{key}.kind", f"unknown view {kind!r}; the views are: {', '.join(VIEW_OPTIONS)}")
        quantity = table.get("quantity", "")
        if kind not in NO_QUANTITY and quantity not in known:
            raise where.error(f"{key}.quantity", f"unknown quantity {quantity!r}; the quantities are: {', '.join(known)}")
        options = table.get("options", {})
        if not isinstance(options, dict):
            raise where.error(f"{key}.options", "must be a table, e.g. { players = 4 }")
        problem = view_problem(kind, options)
        if problem:
            raise where.error(f"{key}.options.{problem[0]}", problem[1])
        _check_query(table.get("where", ""), f"{key}.where", where)
        name = table.get("name") or "-".join(x for x in (kind, quantity.replace("_", "-")) if x)
        if not FILE_NAME.fullmatch(name):
            raise where.error(f"{key}.name", f"{name!r} must be a plain file name: letters, digits, - and _ only")
        if name in {v.name for v in out}:
            raise where.error(f"{key}.name", f"two views are both named {name!r}: give one a name of its own")
        out.append(
            View(kind, name, quantity, table.get("title", ""), dict(options), table.get("frame", ""), table.get("where", ""))
        )
    return tuple(out)


def _check_query(query: str, key: str, where: _Where) -> None:
    """Refuse a pandas query that cannot be read at all (its names are known only when the report draws it)."""
    import pandas as pd
    from pandas.errors import UndefinedVariableError

    try:
        pd.DataFrame().query(query.replace("{", "_").replace("}", "_")) if query else None  # {word}s are filled later
    except UndefinedVariableError:
        pass
    except Exception as bad:  # a syntax pandas cannot read
        raise where.error(key, f"is not a query pandas can read ({bad}): {query!r}") from None


def _target_error(value: Any, max_games: int, where: _Where) -> float | None:
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
    if metric not in known:
        raise g.where.error("metric", f"unknown metric {metric!r}; the metrics are: {', '.join(known)}")
    metrics = raw.get("metrics", ["turns", "cards_drawn", "win_0"])
    if not isinstance(metrics, list) or not metrics:
        raise g.where.error("metrics", "must be a non-empty list of metric names")
    for m in metrics:
        if m not in known:
            raise g.where.error("metrics", f"unknown metric {m!r}; the metrics are: {', '.join(known)}")
    return metric, tuple(metrics)


def _arm_specs(raw: Any, base: TableSpec, players: tuple[int, ...], where: _Where) -> tuple[ArmSpec, ...]:
    """The [arms.NAME] tables on top of [base], each built once at every table size so a bad one fails now."""
    if not isinstance(raw, dict):
        raise where.error("arms", "must be a table of arm tables ([arms.NAME])")
    arms = []
    for arm_name, table in raw.items():
        if not isinstance(table, dict):
            raise where.error(f"arms.{arm_name}", "must be a table")
        spec = _table(table, f"arms.{arm_name}", base, where)
        arms.append(ArmSpec(name=arm_name, table=spec, description=str(table.get("description", ""))))
        for n in players:
            try:
                arms[-1].build(n)
            except ConfigError as exc:
                raise where.error(f"arms.{arm_name}", f"at {n} players: {exc}", like=exc) from None
    return tuple(arms)


def _grid(raw: Any, where: _Where, policies: PolicyFile | None) -> tuple[Axis, ...]:
    if not isinstance(raw, dict):
        raise where.error("grid", 'must be a table of axes (NAME = [values] or "START:STOP:STEP")')
    axes = []
    for axis_name, values in raw.items():
        try:
            axes.append(parse_axis(axis_name, values, policies))
        except ConfigError as exc:
            raise where.error(f"grid.{axis_name}", str(exc), like=exc) from None
    return tuple(axes)


class _Getter:
    def __init__(self, raw: dict[str, Any], where: _Where) -> None:
        self.raw, self.where = raw, where

    def string(self, key: str, default: str) -> str:
        value = self.raw.get(key, default)
        if not isinstance(value, str):
            raise self.where.error(key, f"must be a string, not {value!r}")
        return value

    def checked(self, key: str, default: int, check: Callable[[Any, str], int]) -> int:
        """A value checked by one of :mod:`unocli.game.limits`' checks (the ones the CLI's options use)."""
        value = self.raw.get(key, default)
        if isinstance(value, str):  # the CLI reads text; a file's number is a TOML integer
            raise OutOfRange(str(self.where.error(key, f"must be a whole number, not the text {value!r}")))
        try:
            return check(value, "it")
        except OutOfRange as exc:
            raise OutOfRange(str(self.where.error(key, str(exc).removeprefix("it ")))) from None

    def boolean(self, key: str, default: bool) -> bool:
        value = self.raw.get(key, default)
        if not isinstance(value, bool):
            raise self.where.error(key, f"must be true or false, not {value!r}")
        return value


def _table(raw: Any, key: str, parent: TableSpec, where: _Where) -> TableSpec:
    """A [base] or [arms.NAME] table on top of ``parent``."""
    if not isinstance(raw, dict):
        raise where.error(key, "must be a table")
    for k in raw:
        if k not in TABLE_KEYS:
            raise where.error(f"{key}.{k}", f"unknown key; an arm table takes: {', '.join(TABLE_KEYS)}")
    table = parent
    if "rules" in raw:
        if not isinstance(raw["rules"], str):
            raise where.error(f"{key}.rules", "must name a preset or a rules file")
        table = replace(parent, rules=raw["rules"], sets=())
    sets = raw.get("set", {})
    if not isinstance(sets, dict):
        raise where.error(f"{key}.set", 'must be a table of rule fields, e.g. { stacking = "plus2" }')
    from unocli.game.rules import RULE_FIELDS, Rules

    for field_name, value in sets.items():
        if field_name not in RULE_FIELDS:
            raise where.error(
                f"{key}.set.{field_name}", f"unknown rule field {field_name!r}; the fields are: {', '.join(RULE_FIELDS)}"
            )
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
    if not isinstance(seats, dict):
        raise where.error(f"{key}.seats", 'must be a table { 0 = "bluffer" } or a list ["0=bluffer"]')
    for s, spec in seats.items():
        if not str(s).isdigit():
            raise where.error(f"{key}.seats.{s}", "seats are numbers from 0")
        _check_policy(str(spec), f"{key}.seats.{s}", where, table.policies)
        table = table.with_seat(int(s), str(spec))
    return table


def _check_policy(spec: str, key: str, where: _Where, policies: PolicyFile | None) -> None:
    try:
        check_spec(spec, policies)  # a {rules}/{players} template's name is checked as each arm is built
    except ConfigError as exc:
        raise where.error(key, str(exc), like=exc) from None


def _options(raw: Any, module: Any, where: _Where) -> dict[str, Any]:
    """The analysis options, checked against the analysis module's ``OPTIONS`` (name -> (default, check))."""
    if not isinstance(raw, dict):
        raise where.error("options", "must be a table")
    schema: dict[str, tuple[Any, Any]] = getattr(module, "OPTIONS", {})
    out = {k: default for k, (default, _) in schema.items()}
    for key, value in raw.items():
        if key not in schema:
            allowed = ", ".join(schema) or "(none)"
            raise where.error(f"options.{key}", f"unknown option for this analysis; the options are: {allowed}")
        message = schema[key][1](value)
        if message:
            raise where.error(f"options.{key}", message)
        out[key] = value
    return out


def shipped_dir() -> Path:
    """The folder of the shipped experiments: the package's data (``unocli/data/sims``, a link to ``sims/`` in the
    source tree, copied into a wheel), ``sims/`` of the source tree, or of the working directory."""
    from importlib.resources import files

    packaged = Path(str(files("unocli") / "data" / "sims"))
    for candidate in (packaged, Path(__file__).resolve().parents[2] / "sims", Path.cwd() / "sims"):
        if all((candidate / f"{name}.toml").is_file() for name in DEFAULT_SET):
            return candidate
    raise ConfigError("cannot find the shipped experiments (sims/*.toml); name experiment files explicitly")
