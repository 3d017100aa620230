"""Commands ``baseline`` and ``check``: balance regression for CI (thin layers over baseline.py and check.py)."""

from __future__ import annotations

import sys
from typing import Any

import click
import pandas as pd

from unocli.balance.baseline import load_baseline, make_baseline, save_baseline
from unocli.balance.check import MIN_GAMES, CheckReport, CheckRow, Verdict, check_exact, check_statistical, write_junit
from unocli.cli.backend import backend_options, make_backend
from unocli.cli.options import GAMES_MAX, BigInt, UnoCommand
from unocli.errors import ConfigError
from unocli.files import check_file_path
from unocli.report import fmt
from unocli.study.arm import Arm
from unocli.study.compare import is_binary
from unocli.study.experiments import load_experiment

ADVISED_GAMES = 10_000  # below this a baseline can only show large changes


class UsageProblem(click.ClickException):
    """A user error of ``check``: exit status 2 (1 and 3 are verdicts)."""

    exit_code = 2


class CheckCommand(UnoCommand):
    """``check``: every user error (a bad baseline, option or destination) exits 2, as CI reads 1 as "fail"."""

    def invoke(self, ctx: click.Context) -> object:
        try:
            return super().invoke(ctx)
        except UsageProblem:
            raise
        except click.ClickException as exc:
            raise UsageProblem(exc.format_message()) from None


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
@click.option(
    "--games", type=click.IntRange(min=1, max=GAMES_MAX), default=None, help="Games per arm (default: the experiment's)."
)
@click.option("--seed", type=BigInt(), default=None, help="Seed (default: the experiment's).")
@backend_options
def baseline_cmd(experiment: str, output: str, games: int | None, seed: int | None, backend: str, scheduler: str | None) -> None:
    """Run EXPERIMENT and store its per-arm statistics and exact fingerprint."""
    check_file_path(output, (".json",), "baseline file")
    arms, exp_games, exp_seed = experiment_arms(experiment)
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


def _row_cells(r: CheckRow) -> dict[str, str]:
    """A check row's figures: shares as percentages and their differences in points, differences signed, the
    difference and its interval with the decimals the interval warrants (an exact rerun's difference, which has
    no interval, to four significant figures)."""
    share = is_binary(r.metric)
    kind: fmt.Kind = "pp" if share else "signed"
    scale = 100 if share else 1
    k = fmt.decimals_for(scale * r.ci_low, scale * r.ci_high, default=fmt.sig_decimals(scale * r.diff))
    return {
        "baseline": fmt.share(r.baseline, 2) if share else fmt.sig(r.baseline),
        "now": fmt.share(r.now, 2) if share else fmt.sig(r.now),
        "difference": fmt.value(r.diff, k, kind),
        "interval": fmt.bounds(r.ci_low, r.ci_high, k, kind),
    }


def format_report(name: str, report: CheckReport) -> str:
    """The check's verdicts as a table for a terminal, with the counts of each verdict."""
    head = f"{name}: {report.mode} check, {fmt.count(report.games)} games per arm, seed {report.seed}" + (
        f", family-wise alpha {report.alpha:g}, tolerance {report.tolerance:g}" if report.mode != "exact" else ""
    )
    cells = [_row_cells(r) for r in report.rows]
    table = pd.DataFrame(
        {
            "arm": [r.arm for r in report.rows],
            "metric": [r.metric for r in report.rows],
            **{column: [c[column] for c in cells] for column in ("baseline", "now", "difference", "interval")},
            "verdict": [str(r.verdict) for r in report.rows],
        }
    )
    counts = {v: sum(r.verdict is v for r in report.rows) for v in Verdict}
    tail = ", ".join(f"{counts[v]} {v}" for v in Verdict)
    return f"{head}\n{table.to_string(index=False)}\n{tail}"


@click.command(cls=CheckCommand)
@click.argument("baselines", nargs=-1, required=True, type=click.Path(dir_okay=False))
@click.option("--exact", is_flag=True, help="Rerun on the baseline's seed; the fingerprint must match bit for bit.")
@click.option(
    "--alpha",
    type=click.FloatRange(0, 1, min_open=True, max_open=True),
    default=0.001,
    show_default=True,
    help="Family-wise false-alarm rate over all metrics and arms.",
)
@click.option(
    "--tolerance",
    type=click.FloatRange(0, min_open=True),
    default=0.05,
    show_default=True,
    help="Smallest difference that matters, relative to max(|baseline mean|, baseline sd).",
)
@click.option("--games", type=click.IntRange(min=2, max=GAMES_MAX), default=None, help="Games per arm (default: the baseline's).")
@click.option("--seed", type=BigInt(), default=None, help="Seed for the statistical check (default: a fresh one).")
@click.option("--junit", "junit", type=click.Path(dir_okay=False), default=None, help="Also write JUnit XML here.")
@backend_options
def check_cmd(
    baselines: tuple[str, ...],
    exact: bool,
    alpha: float,
    tolerance: float,
    games: int | None,
    seed: int | None,
    junit: str | None,
    backend: str,
    scheduler: str | None,
) -> None:
    """Rerun BASELINE files and give every metric a verdict: pass, fail or inconclusive.

    Exit status: 0 all pass, 1 any fail, 3 only inconclusive results, 2 usage errors.
    """
    try:
        if junit:
            check_file_path(junit, (".xml",), "--junit file")
        loaded = [(path, *load_baseline(path)) for path in baselines]
        runner = make_backend(backend, scheduler)
    except ConfigError as exc:
        raise UsageProblem(str(exc)) from None
    reports = []
    for path, doc, arms in loaded:
        bar = _bar()
        if exact:
            report = check_exact(doc, arms, backend=runner, progress=bar)
        else:
            report = check_statistical(
                doc, arms, seed=seed, games=games, alpha=alpha, tolerance=tolerance, backend=runner, progress=bar
            )
        bar.close()
        reports.append(report)
        click.echo(format_report(path, report))
    if junit:
        merged = CheckReport(
            reports[0].mode, reports[0].seed, reports[0].games, alpha, tolerance, [r for rep in reports for r in rep.rows]
        )
        write_junit(merged, junit)
    codes = [r.exit_code for r in reports]
    sys.exit(1 if 1 in codes else 3 if 3 in codes else 0)
