"""Commands ``baseline`` and ``check``: balance regression for CI (thin layers over baseline.py and check.py)."""

from __future__ import annotations

import math
import os
import sys
from typing import Any

import click
from click.core import ParameterSource

from unocli.balance.baseline import baseline_warnings, load_baseline, make_baseline, save_baseline
from unocli.balance.check import MIN_GAMES, CheckReport, check_exact, check_statistical, write_junit
from unocli.balance.outputs import (
    append_summary,
    format_report,
    github_annotations,
    report_json,
    summary_markdown,
    write_json,
)
from unocli.balance.sequential import check_sequential
from unocli.cli.backend import backend_options, make_backend
from unocli.cli.options import BigInt, UnoCommand, games_type
from unocli.errors import ConfigError
from unocli.files import check_file_path
from unocli.report import fmt
from unocli.report.experiment import load_experiment
from unocli.study.arm import Arm

ADVISED_GAMES = 10_000  # below this a baseline can only show large changes


class UsageProblem(click.ClickException):
    """A ``check`` that could not run: exit status 2 (1 and 3 are verdicts)."""

    exit_code = 2


class CheckCommand(UnoCommand):
    """``check``: whatever stops it from giving verdicts (a bad baseline, option or destination, a lost cluster, the
    system refusing a file, a bug) exits 2, as CI reads 1 as "a metric failed"."""

    def invoke(self, ctx: click.Context) -> object:
        from unocli.cli.options import internal_error_sentence, os_error_sentence

        try:
            return super().invoke(ctx)
        except UsageProblem:
            raise
        except click.ClickException as exc:
            raise UsageProblem(exc.format_message()) from None
        except OSError as exc:
            raise UsageProblem(os_error_sentence(exc)) from None
        except Exception as exc:  # a bug in unocli is not a failed metric either (sys.exit is no Exception)
            raise UsageProblem(internal_error_sentence(exc)) from None


def _bar() -> Any:
    """A progress bar on stderr (on a terminal, after two seconds)."""
    from unocli.cli.run import Progress  # run.py loads the kernel wrapper: only when a command plays

    return Progress(enabled=True)


def experiment_arms(path: str) -> tuple[list[Arm], int, int]:
    """The arms of an experiment file at each of its table sizes, its games and its seed."""
    exp = load_experiment(path)
    arms = []
    for players in exp.players:
        for arm in exp.arms_for(players):
            name = arm.name if len(exp.players) == 1 else f"{arm.name}@{players}p"
            arms.append(Arm(name, arm.rules, arm.policies, match=exp.match))
    return arms, exp.games, exp.seed


@click.command(cls=UnoCommand)
@click.argument("experiment", type=click.Path(dir_okay=False))
@click.option(
    "-o",
    "--output",
    "output",
    required=True,
    type=click.Path(dir_okay=False),
    help="Baseline file to write (JSON), e.g. sims/baselines/NAME.json.",
)
@click.option("--games", type=games_type(), default=None, help="Games per arm, 1 to 2**63 - 1 (default: the experiment's).")
@click.option("--seed", type=BigInt(), default=None, help="Seed (default: the experiment's).")
@backend_options
def baseline_cmd(experiment: str, output: str, games: int | None, seed: int | None, backend: str, scheduler: str | None) -> None:
    """Run EXPERIMENT and store its per-arm statistics and exact fingerprint."""
    arms, exp_games, exp_seed = experiment_arms(experiment)
    check_file_path(output, (".json",), "baseline file")  # after the files it reads: -o may not name one of them
    games = games or exp_games
    if games < MIN_GAMES:
        raise ConfigError(
            f"a baseline of {fmt.count(games)} games per arm is too small for 'check' to judge any metric: "
            f"use --games {MIN_GAMES} or more ({fmt.count(ADVISED_GAMES)} or more is advised)"
        )
    if games < ADVISED_GAMES:
        click.echo(
            f"Warning: {fmt.count(games)} games per arm can only catch large changes; "
            f"{fmt.count(ADVISED_GAMES)} or more is advised.",
            err=True,
        )
    doc = make_baseline(
        arms,
        games=games,
        seed=exp_seed if seed is None else seed,
        source=experiment,
        backend=make_backend(backend, scheduler),
        progress=_bar(),
    )
    save_baseline(doc, output)
    click.echo(f"wrote {output}: {len(arms)} arms x {fmt.count(doc['games'])} games, seed {doc['seed']}")
    click.echo(detectable_table(doc))


def detectable_table(doc: dict[str, Any]) -> str:
    """Each metric's mean and the smallest change a check of the baseline's size detects (stored in the file)."""
    import pandas as pd

    d = doc["detectable"]
    rows: dict[str, dict[str, str]] = {}
    for arm in doc["arms"]:
        column = rows.setdefault(arm["name"], {})
        for name, stats in arm["metrics"].items():
            column[name] = f"{fmt.sig(stats['mean'])} +- {fmt.sig(stats['detectable'], 2)}"
        for seat, (w, change) in enumerate(zip(arm["wins"], arm["win_detectable"], strict=True)):
            column[f"win_share_seat{seat}"] = f"{fmt.share(w / arm['n'], 1)} +- {fmt.fixed(100 * change, 1)} pp"
    table = pd.DataFrame(rows).fillna("")
    return (
        f"Smallest change each metric can detect (mean +- change; a check of {fmt.count(doc['games'])} games per arm "
        f"fails it with probability {d['power']:.0%} at family-wise alpha {d['alpha']:g} over {d['metrics']} tests):\n"
        f"{table.to_string()}"
    )


class Finite(click.FloatRange):
    """A float range that also refuses NaN and infinities (every comparison with NaN is false, so FloatRange
    alone lets ``nan`` through)."""

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        number = super().convert(value, param, ctx)  # not a number, or an infinity out of range: FloatRange says so
        if not math.isfinite(number):
            self.fail(f"{value!r} is not a finite number in the range {self._describe_range()}", param, ctx)
        return number


@click.command(cls=CheckCommand)
@click.argument("baselines", nargs=-1, required=True, type=click.Path(dir_okay=False))
@click.option("--exact", is_flag=True, help="Rerun on the baseline's seed; the fingerprint must match bit for bit.")
@click.option(
    "--sequential",
    is_flag=True,
    help="Play in batches and stop as soon as every metric passes or fails (an SPRT at --alpha and --beta; "
    "at most the fixed check's games; see docs/ci.md).",
)
@click.option(
    "--alpha",
    type=Finite(0, 1, min_open=True, max_open=True),
    default=0.001,
    show_default=True,
    help="Family-wise false-alarm rate over all metrics and arms.",
)
@click.option(
    "--beta",
    type=Finite(0, 0.5, min_open=True, max_open=True),
    default=0.05,
    show_default=True,
    help="With --sequential: each metric's chance to pass a change of exactly the tolerance.",
)
@click.option(
    "--tolerance",
    type=Finite(0, 1, min_open=True),
    default=0.05,
    show_default=True,
    help="Smallest difference that matters, relative to max(|baseline mean|, baseline sd).",
)
@click.option("--games", type=games_type(lo=2), default=None, help="Games per arm, 2 to 2**63 - 1 (default: the baseline's).")
@click.option("--seed", type=BigInt(), default=None, help="Seed for the statistical check (default: a fresh one).")
@click.option("--junit", "junit", type=click.Path(dir_okay=False), default=None, help="Also write JUnit XML here.")
@click.option(
    "--json",
    "json_file",
    type=click.Path(dir_okay=False),
    default=None,
    help="Also write every metric's verdict and numbers here as JSON (schema in docs/ci.md).",
)
@click.option(
    "--summary",
    "summary",
    type=click.Path(dir_okay=False),
    default=None,
    help="Append a Markdown summary (verdict counts, failing and inconclusive metrics) to this file, e.g. $GITHUB_STEP_SUMMARY.",
)
@click.option(
    "--annotations",
    type=click.Choice(["github"]),
    default=None,
    help="Also print a workflow command per failing (::error) and inconclusive (::warning) metric.",
)
@backend_options
def check_cmd(
    baselines: tuple[str, ...],
    exact: bool,
    sequential: bool,
    alpha: float,
    beta: float,
    tolerance: float,
    games: int | None,
    seed: int | None,
    junit: str | None,
    json_file: str | None,
    summary: str | None,
    annotations: str | None,
    backend: str,
    scheduler: str | None,
) -> None:
    """Rerun BASELINE files and give every metric a verdict: pass, fail or inconclusive.

    Exit status: 0 all pass, 1 any fail, 3 only inconclusive results, 2 the check could not run (a usage error,
    an unusable baseline or output path, a lost cluster, a system or internal error).
    """
    given = click.get_current_context().get_parameter_source
    if exact and sequential:
        raise UsageProblem("--exact and --sequential cannot be combined: --exact replays the baseline's own games")
    if not sequential and given("beta") is ParameterSource.COMMANDLINE:
        raise UsageProblem("--beta is the sequential check's error rate: give it with --sequential")
    # every conflict of options before a file is read or a cluster started
    if exact and games is not None:
        raise UsageProblem("--games cannot be combined with --exact: the fingerprint is of the baseline's own games")
    if exact and seed is not None:
        raise UsageProblem("--seed cannot be combined with --exact: --exact replays the baseline's own seed")
    for name in ("alpha", "tolerance"):
        if exact and given(name) is ParameterSource.COMMANDLINE:
            raise UsageProblem(f"--{name} cannot be combined with --exact: its verdict is the fingerprint's, bit for bit")
    try:
        for path, suffixes, what in ((junit, (".xml",), "--junit file"), (json_file, (".json",), "--json file")):
            if path:
                check_file_path(path, suffixes, what)
        if summary:
            check_file_path(summary, (), "--summary file")
        _distinct_files(baselines, {"--junit": junit, "--json": json_file, "--summary": summary})
        loaded = [(path, *load_baseline(path)) for path in baselines]
        runner = make_backend(backend, scheduler)
    except ConfigError as exc:
        raise UsageProblem(str(exc)) from None
    for _, doc, _ in loaded:
        for warning in baseline_warnings(doc):
            click.echo(f"Warning: {warning}", err=True)
    checks = []
    for path, doc, arms in loaded:
        bar = _bar()
        if exact:
            report = check_exact(doc, arms, backend=runner, progress=bar)
        elif sequential:
            report = check_sequential(
                doc, arms, seed=seed, games=games, alpha=alpha, beta=beta, tolerance=tolerance, backend=runner, progress=bar
            )
        else:
            report = check_statistical(
                doc, arms, seed=seed, games=games, alpha=alpha, tolerance=tolerance, backend=runner, progress=bar
            )
        bar.close()
        checks.append((path, report))
        click.echo(format_report(path, report))
    codes = [r.exit_code for _, r in checks]
    code = 1 if 1 in codes else 3 if 3 in codes else 0
    _write_outputs(checks, code, junit, json_file, summary, annotations)
    sys.exit(code)


def _distinct_files(baselines: tuple[str, ...], outputs: dict[str, str | None]) -> None:
    """Refuse an output that would overwrite (or append to) a baseline being checked, or another output."""
    seen: dict[str, str] = {}
    for option, path in outputs.items():
        if not path:
            continue
        where = os.path.realpath(path)
        for baseline in baselines:
            if where == os.path.realpath(baseline):
                raise UsageProblem(f"{option} {path!r} is the baseline file being checked: choose another file")
        if where in seen:
            raise UsageProblem(f"{option} and {seen[where]} name the same file {path!r}: choose two files")
        seen[where] = option


def _write_outputs(
    checks: list[tuple[str, CheckReport]],
    code: int,
    junit: str | None,
    json_file: str | None,
    summary: str | None,
    annotations: str | None,
) -> None:
    """The files and workflow commands CI reads, after the verdicts are known."""
    if junit:
        write_junit(checks, junit)
    if json_file:
        write_json(report_json(checks, code), json_file)
    if summary:
        try:
            append_summary(summary_markdown(checks), summary)
        except OSError as exc:
            raise UsageProblem(f"cannot append to --summary file {summary!r}: {exc.strerror or exc}") from None
    if annotations == "github":
        for line in github_annotations(checks):
            click.echo(line)
