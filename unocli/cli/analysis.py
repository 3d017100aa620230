"""Commands for rule debates: ``compare``, ``sweep`` and ``report`` (thin layers over the library)."""

from __future__ import annotations

import functools
import json
import math
import shlex
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click
import pandas as pd

from unocli.cli.backend import backend_options, make_backend
from unocli.cli.options import (
    F,
    UnoCommand,
    bundled,
    games_type,
    given,
    load_policy_file,
    match_option,
    policies_file_option,
    policy_options,
    refuse_without_target,
    repeatable_option,
    rules_options,
    seed_option,
    table_spec,
    target_options,
    threads_option,
)
from unocli.errors import ConfigError
from unocli.files import check_table_path, write_table
from unocli.folders import check_out_folder, writing
from unocli.game.policies import UnknownPolicy, parse_seats
from unocli.game.rules import PRESETS as RULE_PRESETS
from unocli.report import fmt
from unocli.run.precision import check_target
from unocli.study.arm import Arm, TableSpec, known_policies, parse_policy
from unocli.study.compare import Comparison, check_arms, compare, is_binary, quantity_names
from unocli.study.sweep import CONFIRM_CELLS, SweepResult, grid_cells, parse_grid_option, sweep

if TYPE_CHECKING:
    from unocli.report.experiment import Experiment

ARM_OPTIONS = ("--rules", "--set", "--players", "--policy", "--seat")


def parse_arm(text: str, base: TableSpec) -> tuple[str, TableSpec]:
    """``--arm`` text: ``NAME`` (a rules preset), a policy spec (a preset's or ``base.policies``'), or
    ``NAME: --set F=V --policy P ...``."""
    name, sep, rest = text.partition(":")
    name = name.strip()
    if not name:
        raise ConfigError(f"--arm needs a name: {text!r}")
    if sep and rest.strip().startswith("--"):
        try:
            tokens = shlex.split(rest)
        except ValueError as exc:
            raise ConfigError(f"--arm {text!r}: {exc}") from None
        table = base
        it = iter(tokens)
        seen: set[tuple[str, str]] = set()  # (option, what it sets) within this arm: a second would win unsaid
        for token in it:
            if token not in ARM_OPTIONS:
                raise ConfigError(f"--arm {text!r}: unknown option {token!r}; an arm takes {', '.join(ARM_OPTIONS)}")
            value = next(it, None)
            if value is None:
                raise ConfigError(f"--arm {text!r}: {token} needs a value")
            what = (token, value.partition("=")[0].strip() if token in ("--set", "--seat") else "")
            if what in seen:
                raise ConfigError(f"--arm {text!r}: {token} {what[1] + ' ' if what[1] else ''}is given twice: give it once")
            seen.add(what)
            table = _apply_arm_option(table, token, value, text)
        return name, table
    if not sep and name in RULE_PRESETS:
        return name, replace(base, rules=name, sets=())
    spec = text.strip()
    try:
        parse_policy(spec, base.policies)
    except UnknownPolicy:
        raise UnknownPolicy(
            f"--arm {text!r}: not a rules preset ({', '.join(RULE_PRESETS)}), a policy "
            f"({known_policies(base.policies, spec.partition(':')[0].strip())}) or NAME: --set FIELD=VALUE ..."
        ) from None
    return spec, replace(base, policy=spec)


def _apply_arm_option(table: TableSpec, option: str, value: str, text: str) -> TableSpec:
    from unocli.game.rules import parse_assignment

    if option == "--rules":
        return replace(table, rules=value, sets=())
    if option == "--set":
        field, v = parse_assignment(value)
        return table.with_set(field, v)
    if option == "--players":
        try:
            return replace(table, players=int(value))
        except ValueError:
            raise ConfigError(f"--arm {text!r}: --players needs a whole number, not {value!r}") from None
    if option == "--policy":
        return replace(table, policy=value)
    try:
        ((seat, spec),) = parse_seats([value])
    except ConfigError as exc:
        raise ConfigError(f"--arm {text!r}: {exc}") from None
    return table.with_seat(seat, spec)


def _metrics(text: str | None) -> tuple[str, ...] | None:
    """``--metrics A,B``: the names in order; an empty name or one given twice is refused (each would be a row)."""
    if not text:
        return None
    names = tuple(m.strip() for m in text.split(","))
    if "" in names:
        raise ConfigError(f"--metrics {text!r} has an empty name: write A,B,... with one metric between commas")
    twice = next((m for i, m in enumerate(names) if m in names[:i]), None)
    if twice is not None:
        raise ConfigError(f"--metrics {text!r} names {twice!r} twice")
    return names


@dataclass(frozen=True)
class StudyOptions:
    """The options ``compare`` and ``sweep`` share, as given: the table, size, seed, metrics and how to play."""

    rules_spec: str
    sets: tuple[str, ...]
    players: int | None
    policy: str
    seats: tuple[str, ...]
    policies_file: str | None
    games: int | None
    seed: int
    metrics_text: str | None
    target_error: float | None
    metric: str
    max_games: int
    match: bool
    threads: int | None

    @property
    def metrics(self) -> tuple[str, ...] | None:
        return _metrics(self.metrics_text)

    def table(self) -> TableSpec:
        """The table ``--rules``, ``--set``, ``--players``, ``--policy``, ``--seat`` and ``--policies`` describe (checked)."""
        policies = load_policy_file(self.policies_file)
        return table_spec(self.rules_spec, self.sets, self.players, self.policy, self.seats, policies)

    def experiment_policies(self) -> str | None:
        """What replaces an experiment file's ``policies``: ``--policies`` when given (``""``: none), else None."""
        return (self.policies_file or "") if given("policies_file") else None


def study_options(*, games_help: str, metrics_help: str) -> Callable[[F], F]:
    """The options of :class:`StudyOptions`, handed to the command as ``study``."""
    metrics_option = click.option("--metrics", "metrics_text", default=None, metavar="A,B,...", help=metrics_help)
    games_option = click.option("--games", type=games_type(), default=None, help=games_help)
    play = (target_options, match_option, threads_option)
    policies_option = functools.partial(policies_file_option, help=POLICIES_HELP)
    table = (rules_options, policy_options, policies_option)
    return bundled("study", StudyOptions, *table, games_option, seed_option, metrics_option, *play)


POLICIES_HELP = (
    "TOML file of extra named policies, usable in --policy, --seat, --arm and a 'policy' grid axis "
    "(replaces an EXPERIMENT file's policies; --policies '' leaves it none)."
)


def _log(quiet: bool, kernels: tuple[str, ...] = ("batch",)):
    """A progress printer on stderr (after the compile notice, when one of ``kernels`` is not cached yet)."""
    from unocli.cli.run import announce_compile, end_compile_notice

    announce_compile(quiet, kernels=kernels)

    def say(message: str) -> None:
        if not quiet:
            end_compile_notice()  # the spinner's line ends before a message starts its own
            click.echo(message, err=True)

    return say


def _progress(quiet: bool) -> Any:
    """A progress bar on stderr (on a terminal, after two seconds; never with --quiet or --json)."""
    from unocli.cli.run import Progress  # run.py loads the kernel wrapper: only when a command plays

    return Progress(enabled=not quiet)


def format_comparison(df: pd.DataFrame) -> str:
    """The comparison table for a terminal (shares as percentages, their differences in points)."""
    base = df["baseline"].iloc[0]
    share = [is_binary(q) for q in df["metric"]]
    out = pd.DataFrame(
        {
            "arm": df["arm"],
            "metric": df["metric"],
            "mean [95% CI]": [
                fmt.estimate(m, lo, hi, is_share=s)
                for m, lo, hi, s in zip(df["mean"], df["ci_low"], df["ci_high"], share, strict=True)
            ],
            f"minus {base} [paired 95% CI]": [
                "(baseline)" if pd.isna(d) else fmt.difference(d, lo, hi, is_share=s)
                for d, lo, hi, s in zip(df["diff"], df["diff_low"], df["diff_high"], share, strict=True)
            ],
            "p (Holm)": df["p_holm"].map(fmt.pvalue),
        }
    )
    return out.to_string(index=False)


@click.command(cls=UnoCommand)
@click.argument("experiment", required=False, type=click.Path(dir_okay=False))
@repeatable_option(
    "--arm",
    "arm_texts",
    "SPEC",
    "An arm: a rules preset (stacking), a policy (basic:bluff=0.3), or 'NAME: --set F=V --policy P "
    "--seat S=P' on top of the base options (repeatable; at least two, or an EXPERIMENT file).",
)
@click.option("--baseline", default=None, help="The arm the others are compared with (default: the first).")
@study_options(
    games_help="Games per arm, 1 to 2**63 - 1 [default: 20000; with a file, the file's, 10000 if it names none].",
    metrics_help="Metrics to show (default: turns, cards_drawn, win_0; or the file's).",
)
@click.option(
    "--out",
    "out_path",
    type=click.Path(dir_okay=False),
    default=None,
    help="Also write the tidy table to FILE.csv or FILE.parquet.",
)
@click.option("--json", "as_json", is_flag=True, help="Print the table as JSON records.")
@click.option("--quiet", is_flag=True, help="No progress messages.")
@backend_options
def compare_cmd(
    experiment: str | None,
    arm_texts: tuple[str, ...],
    baseline: str | None,
    study: StudyOptions,
    out_path: str | None,
    as_json: bool,
    quiet: bool,
    backend: str,
    scheduler: str | None,
) -> None:
    """Play arms on the same deals and report every metric with its paired difference from a baseline.

    Every arm plays the same games of the same seed, so game i of every arm
    starts from the same deal; differences are paired per game, with 95%
    intervals and Holm-adjusted p-values. Arms that play identically differ
    by exactly 0.
    """
    check_target(study.target_error, study.max_games)
    if out_path:
        check_table_path(out_path)
    asked = CompareAsked(games=study.games, seed=study.seed, baseline=baseline, metrics=study.metrics, match=study.match)
    if experiment:
        plan = _plan_from_file(experiment, arm_texts, study, asked)
    else:
        plan = _plan_from_arms(arm_texts, study, asked)
    refuse_without_target(plan.precision.target_error, "metric", "max_games")
    _check_metrics(plan.arms, (*plan.metrics, plan.precision.metric))
    say = _log(quiet or as_json)
    if plan.note:
        say(plan.note)
    say(f"unocli compare: {len(plan.arms)} arms x {fmt.count(plan.games)} games, seed {plan.seed}")
    bar = _progress(quiet or as_json)
    result = compare(
        plan.arms,
        games=plan.games,
        seed=plan.seed,
        baseline=plan.baseline,
        quantities=None,
        match=plan.match,
        target_error=plan.precision.target_error,
        metric=plan.precision.metric,
        max_games=plan.precision.max_games,
        threads=study.threads,
        backend=make_backend(backend, scheduler),
        progress=bar,
    )
    bar.close()
    table = result.table(plan.metrics)
    if out_path:
        write_table(table, out_path)
    click.echo(_comparison_json(result, table) if as_json else _comparison_text(result, table))


@dataclass(frozen=True)
class CompareAsked:
    """The options of ``compare`` as given (None, 0 or False where the user gave none)."""

    games: int | None
    seed: int
    baseline: str | None
    metrics: tuple[str, ...] | None
    match: bool


@dataclass(frozen=True)
class Precision:
    """``--target-error``, ``--max-games`` and ``--metric``: each the experiment file's where not given."""

    target_error: float | None
    max_games: int
    metric: str

    @classmethod
    def of(cls, study: StudyOptions, exp: Experiment | None = None) -> Precision:
        if exp is None:
            return cls(study.target_error, study.max_games, study.metric)
        return cls(
            study.target_error if given("target_error") else exp.target_error,
            study.max_games if given("max_games") else exp.max_games,
            study.metric if given("metric") else exp.metric,
        )


@dataclass(frozen=True)
class ComparePlan:
    """What ``compare`` plays."""

    arms: tuple[Arm, ...]
    games: int
    seed: int
    baseline: str | None
    metrics: tuple[str, ...]
    match: bool
    precision: Precision
    note: str = ""  # said on stderr before playing: which of the file's table sizes this plays


#: The options that shape the table; an experiment file names its own ([base], [arms]), so with one they are refused.
TABLE_OPTIONS = (("rules_spec", "--rules"), ("sets", "--set"), ("policy", "--policy"), ("seats", "--seat"))


def _refuse_table_options(path: str) -> None:
    """Refuse a table option given beside an experiment file: it would be ignored without a word."""
    named = [option for param, option in TABLE_OPTIONS if given(param)]
    if named:
        raise ConfigError(
            f"{' and '.join(named)} would be ignored: {path!r} names its own tables ([base], [arms]); edit the file, "
            "or describe the table with options and no file"
        )


DEFAULT_COMPARE_METRICS = ("turns", "cards_drawn", "win_0")


def file_size(path: str, sizes: tuple[int, ...], players: int | None) -> tuple[int, str]:
    """The one table size a compare or sweep of an experiment file plays: ``--players``, which must be one of the
    file's ``sizes``, or its first; and a note to say when the file names several and none was chosen (a report of
    the file plays every one)."""
    shown = ", ".join(map(str, sizes))
    if players is not None and players not in sizes:
        raise ConfigError(f"--players {players}: {path!r} plays at {shown} players only")
    if players is not None or len(sizes) == 1:
        return players or sizes[0], ""
    note = f"{path!r} names {shown} players: this plays {sizes[0]} (--players N for another; 'unocli report' plays each)"
    return sizes[0], note


def _plan_from_file(path: str, arm_texts: tuple[str, ...], study: StudyOptions, asked: CompareAsked) -> ComparePlan:
    """The experiment file's arms at ``--players`` (or its first table size); options given override the file."""
    from unocli.report.experiment import load_experiment

    if arm_texts:
        raise ConfigError("give either an EXPERIMENT file or --arm options, not both")
    _refuse_table_options(path)
    players = study.players
    exp = load_experiment(path, policies_file=study.experiment_policies())
    if exp.grid:
        raise ConfigError(f"{path!r} is a sweep (it has a [grid]): run it with 'unocli sweep {path}'")
    if not exp.arms:
        raise ConfigError(f"{path!r} has no [arms] to compare (its analysis {exp.analysis!r} runs with 'unocli report')")
    size, note = file_size(path, exp.players, players)
    return ComparePlan(
        arms=tuple(exp.arms_for(size)),
        games=asked.games if asked.games is not None else exp.games,
        seed=asked.seed if given("seed") else exp.seed,
        baseline=asked.baseline if asked.baseline is not None else exp.baseline,
        metrics=tuple(asked.metrics or exp.metrics or DEFAULT_COMPARE_METRICS),
        match=asked.match if given("match") else exp.match,
        precision=Precision.of(study, exp),
        note=note,
    )


def _plan_from_arms(arm_texts: tuple[str, ...], study: StudyOptions, asked: CompareAsked) -> ComparePlan:
    """The ``--arm`` options on top of the table the common options describe."""
    if len(arm_texts) < 2:
        raise ConfigError("name at least two --arm options (or an EXPERIMENT file)")
    base = study.table()
    parsed = [parse_arm(t, base) for t in arm_texts]
    return ComparePlan(
        arms=tuple(spec.build(name=name) for name, spec in parsed),
        games=asked.games or 20_000,
        seed=asked.seed,
        baseline=asked.baseline,
        metrics=tuple(asked.metrics or DEFAULT_COMPARE_METRICS),
        match=asked.match,
        precision=Precision.of(study),
    )


def _check_metrics(arms: tuple[Arm, ...], metrics: tuple[str, ...]) -> None:
    """Refuse bad arms and metrics the arms do not record, before any game is played."""
    check_arms(arms)
    known = quantity_names(arms[0].players)
    for m in metrics:
        if m not in known:
            raise ConfigError(f"unknown metric {m!r}; the metrics are: {', '.join(known)}")


def _comparison_json(result: Comparison, table: pd.DataFrame) -> str:
    payload: dict[str, Any] = {
        "games": result.games,
        "seed": result.seed,
        "baseline": table["baseline"].iloc[0],
        # Every float as repr writes it (exact when read back; to_json rounds to 10 digits), NaN as null.
        "rows": [{k: _json_value(v) for k, v in rec.items()} for rec in table.to_dict(orient="records")],
    }
    if result.target is not None:
        payload["target"] = result.target.to_dict()
    return json.dumps(payload, indent=2, default=float)


def _json_value(value: Any) -> Any:
    """A table cell as a plain JSON value: NumPy scalars as Python ones, NaN and None as null."""
    if hasattr(value, "item"):
        value = value.item()
    if isinstance(value, float) and math.isnan(value):
        return None
    return value


def _comparison_text(result: Comparison, table: pd.DataFrame) -> str:
    lines = [
        f"{fmt.count(result.games)} {'matches' if result.match else 'rounds'} per arm, {result.arms[0].players} players, "
        f"seed {result.seed}; all arms on the same deals.",
        format_comparison(table),
    ]
    if result.target is not None:
        lines.append(result.target.describe())
    return "\n".join(lines)


OUT_FOLDER_HELP = (
    "The folder is replaced whole, and only when it is empty or a folder unocli wrote that nobody changed "
    "(every file listed with its SHA-256 in its .unocli-manifest.json); any other folder is refused, "
    "a file you added inside one included. A symbolic link to a folder is written where it points (the link stays)."
)
force_option = click.option(
    "--force",
    is_flag=True,
    help="Write --out even when it is a folder unocli would refuse: the old folder is first moved aside "
    "to DIR.old-YYYYmmdd-HHMMSS beside it, never deleted.",
)


@click.command(cls=UnoCommand)
@click.argument("experiment", required=False, type=click.Path(dir_okay=False))
@repeatable_option(
    "--grid",
    "grid_texts",
    "NAME=VALUES",
    "A grid axis: a rule field or policy knob (KNOB@SEAT, KNOB@opponents) with values a,b,c or "
    "START:STOP:STEP, e.g. --grid bluff=0:1:0.1 (repeatable).",
)
@study_options(
    games_help="Games per cell, 1 to 2**63 - 1 [default: 5000; with a file, the file's, 10000 if it names none].",
    metrics_help="Metrics in the table (default: --metric, win_0, cards_drawn).",
)
@click.option(
    "--out",
    "out_dir",
    type=click.Path(file_okay=False),
    default="sweep",
    show_default=True,
    help="Folder for sweep.csv, sweep.parquet, sweep.png and sweep.svg. " + OUT_FOLDER_HELP,
)
@force_option
@click.option("--quiet", is_flag=True, help="No progress messages.")
@click.option("--yes", is_flag=True, help=f"Play a grid of more than {CONFIRM_CELLS:,} cells.")
@backend_options
def sweep_cmd(
    experiment: str | None,
    grid_texts: tuple[str, ...],
    study: StudyOptions,
    out_dir: str,
    force: bool,
    quiet: bool,
    yes: bool,
    backend: str,
    scheduler: str | None,
) -> None:
    """Play every cell of a grid of rule fields and policy knobs; write a tidy table and plot it.

    Cells of one table size play the same deals. The table (CSV and Parquet)
    has one row per cell and metric with the mean, its 95% interval, n, and
    the paired difference from the first cell. The chart is a line plot for
    one axis and a heatmap for two. --out is written as report's is: whole,
    with a manifest, replacing only an untouched folder unocli wrote.
    """
    check_target(study.target_error, study.max_games)
    dest = check_out_folder(out_dir, force=force)
    metrics, seed = study.metrics, study.seed
    if experiment:
        from unocli.report.experiment import load_experiment

        _refuse_table_options(experiment)
        exp = load_experiment(experiment, policies_file=study.experiment_policies())
        precision = Precision.of(study, exp)
        players, note = file_size(experiment, exp.players, study.players)
        base = replace(exp.base, players=players)
        axes = list(exp.grid) + [parse_grid_option(t, base.policies) for t in grid_texts]
        if exp.arms:
            raise ConfigError(f"{experiment!r} has [arms], which a sweep does not play: run it with 'unocli compare'")
        if not axes:
            raise ConfigError(f"{experiment!r} has no [grid] and no --grid was given: nothing to sweep")
        games, seed = study.games or exp.games, seed if given("seed") else exp.seed
        match = study.match if given("match") else exp.match
        metrics = metrics or exp.metrics
    else:
        base, note = study.table(), ""
        axes = [parse_grid_option(t, base.policies) for t in grid_texts]
        games = study.games or 5_000
        match, precision = study.match, Precision.of(study)
    refuse_without_target(precision.target_error, "max_games")  # sweep's --metric is also the metric it plots
    cells = grid_cells(axes)
    size = f"{' x '.join(f'{a.name} ({len(a.values)})' for a in axes)} = {fmt.count(cells)} cells x {fmt.count(games)} games"
    if cells > CONFIRM_CELLS and not yes:
        raise ConfigError(f"the grid is {size}, over {fmt.count(CONFIRM_CELLS)} cells: give --yes to play it")
    say = _log(quiet)
    if note:
        say(note)
    say(f"unocli sweep: {size}")
    bar = _progress(quiet)
    result = sweep(
        base,
        axes,
        games=games,
        seed=seed,
        metrics=metrics,
        metric=precision.metric,
        match=match,
        target_error=precision.target_error,
        max_games=precision.max_games,
        threads=study.threads,
        backend=make_backend(backend, scheduler),
        progress=bar,
    )
    bar.close()
    with writing(dest, "unocli sweep") as (tmp, done):
        text = _write_sweep(result, tmp, precision.metric, seed, base, shown=dest.shown)
    click.echo(text)
    if done.aside_note():
        click.echo(done.aside_note(), err=True)


def _write_sweep(result: SweepResult, folder: Path, metric: str, seed: int, base: TableSpec, shown: Path) -> str:
    """Write the sweep's table and chart into ``folder`` (a fresh temporary folder that becomes ``shown``);
    return the table and what was written, for the terminal."""
    from unocli import __version__
    from unocli.report.analyses.generic_sweep import sweep_chart, table_shown
    from unocli.report.plots import save  # matplotlib loads only when a sweep is drawn

    table = result.table()
    folder.mkdir(parents=True, exist_ok=True)
    write_table(table, folder / "sweep.csv")
    write_table(table, folder / "sweep.parquet")
    cap = (
        f"Mean {metric} per cell. n = at least {fmt.count(table['n'].min())} games per cell. Table: {base.describe()}. "
        f"Seed {seed}, unocli {__version__}. Bands, bars and ± are 95% intervals (t for means, Wilson for shares); "
        "every cell's interval is in sweep.csv."
    )
    fig = sweep_chart(table, result.axes, metric, cap)
    lines = [table_shown(table, [a.name for a in result.axes if a.name != "players"]).to_string(index=False)]
    lines += [info.describe() for info in result.targets.values()]
    if fig is not None:
        save(fig, folder, "sweep")
        lines.append(f"Wrote {shown / 'sweep.csv'}, sweep.parquet, sweep.png and sweep.svg")
    else:
        lines.append(f"Wrote {shown / 'sweep.csv'} and sweep.parquet (no chart for more than two axes)")
    return "\n".join(lines)


@click.command(cls=UnoCommand)
@click.argument("experiments", nargs=-1, type=click.Path(dir_okay=False))
@click.option(
    "--out",
    "out_dir",
    type=click.Path(file_okay=False),
    default="reports/latest",
    show_default=True,
    help="Folder for README.md, index.html, the charts (PNG and SVG), the tables (CSV) and the share cards (PNG). "
    + OUT_FOLDER_HELP,
)
@force_option
@click.option(
    "--quick/--full",
    default=None,
    help="Use the experiments' [quick] sizes (default with no EXPERIMENT: quick; with files: full).",
)
@threads_option
@click.option("--quiet", is_flag=True, help="No progress messages.")
@backend_options
def report_cmd(
    experiments: tuple[str, ...],
    out_dir: str,
    force: bool,
    quick: bool | None,
    threads: int | None,
    quiet: bool,
    backend: str,
    scheduler: str | None,
) -> None:
    """Run experiment files (default: the shipped set, quick) and write a report with charts and tables.

    With no EXPERIMENT, runs sims/game-length, bluff, stacking,
    seat-advantage and house-rules at their quick sizes (under a minute on
    two cores once the kernel is compiled) into reports/latest/.

    Each report folder holds README.md and index.html, the same report as
    one page that opens offline in any browser (charts inline, nothing
    fetched), and share-card.png, a 1200x630 image with the question, the
    answer and its numbers, for a chat or a social post. With several
    experiments, the folder's own index.html opens each debate with its
    answer and headline chart and links its full page.

    The report is written into a temporary folder beside --out and takes
    its place only when complete, with a .unocli-manifest.json of its files:
    an error, Ctrl-C, SIGTERM or SIGHUP (exit 130, 143, 129) leaves the old
    folder as it was. A folder without a manifest, such as the reports/ of a
    checkout (which also holds reports/tune and reports/skill, made by
    other commands), is refused: choose a new --out, or give --force to
    move it aside whole. See docs/reports-folders.md.
    """
    from unocli.report.render import default_paths, kernels_for, write_report

    check_out_folder(out_dir, force=force)
    paths = list(experiments) or default_paths()
    if quick is None:
        quick = not experiments
    say = _log(quiet, kernels_for(paths))
    import time

    t0 = time.perf_counter()
    written = write_report(
        paths,
        out_dir,
        quick=quick,
        backend=make_backend(backend, scheduler),
        log=say,
        threads=threads,
        force=force,
        note=lambda line: click.echo(line, err=True),
        command=command_line(click.get_current_context()),
    )
    click.echo(f"Wrote {written[0]} ({len(paths)} experiment{'s' if len(paths) > 1 else ''}) in {time.perf_counter() - t0:.0f} s")


def command_line(ctx: click.Context) -> str:
    """The command as the user gave it, for a report's reproducibility block: the options given, paths as
    :func:`~unocli.files.display_path` names them (never an absolute path)."""
    from click.core import ParameterSource

    from unocli.files import display_path

    words = ["unocli", *ctx.command_path.split()[1:]]  # the program by its name, however it was started
    for param in ctx.command.params:
        if not isinstance(param, click.Option | click.Argument) or param.name is None:
            continue
        if ctx.get_parameter_source(param.name) is not ParameterSource.COMMANDLINE:
            continue
        value = ctx.params[param.name]
        if isinstance(param, click.Argument):
            words += [display_path(v) for v in (value if isinstance(value, tuple) else (value,))]
        elif param.is_flag:
            words.append(param.opts[0] if value or not param.secondary_opts else param.secondary_opts[0])
        else:
            shown = display_path(value) if isinstance(param.type, click.Path) else str(value)
            words += [param.opts[0], shown]
    import shlex

    return shlex.join(words)


def register(group: click.Group) -> None:
    """Add compare, sweep and report to the CLI group."""
    group.add_command(compare_cmd, "compare")
    group.add_command(sweep_cmd, "sweep")
    group.add_command(report_cmd, "report")
