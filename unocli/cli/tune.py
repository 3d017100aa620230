"""Command ``tune``: the best knob setting for one seat against a field (a thin layer over study/tune.py)."""

from __future__ import annotations

import math
import shlex
import sys
from typing import Any

import click

from unocli.cli.backend import backend_options, make_backend
from unocli.cli.options import UnoCommand, build_rules, rules_options, seed_option


@click.command(cls=UnoCommand)
@click.argument("space", type=click.Path(dir_okay=False))
@rules_options
@click.option(
    "--field",
    "field_spec",
    default="basic",
    show_default=True,
    metavar="SPEC",
    help="The policy at every other seat: NAME or NAME:knob=value,...",
)
@click.option(
    "--policies",
    "policies_file",
    type=click.Path(dir_okay=False),
    default=None,
    help="TOML file of named policies usable as --field and as the space's base.",
)
@seed_option
@click.option(
    "--first",
    type=click.IntRange(min=10),
    default=2000,
    show_default=True,
    help="Deals per candidate in the race's first round (each round doubles it).",
)
@click.option(
    "--max-deals",
    type=click.IntRange(min=10, max=1 << 40),
    default=64_000,
    show_default=True,
    help="Search budget: deals per candidate at most in each race (the first race and each local-search step).",
)
@click.option(
    "--fresh",
    "fresh_deals",
    type=click.IntRange(min=100),
    default=100_000,
    show_default=True,
    help="Fresh deals (never used by the search) to re-measure the winner, basic, smart, strong and the field on.",
)
@click.option(
    "--alpha",
    type=click.FloatRange(0, 1, min_open=True, max_open=True),
    default=0.05,
    show_default=True,
    callback=lambda ctx, param, value: _finite(value, "--alpha"),
    help="Family-wise level at which a candidate worse than the leader is dropped in a round.",
)
@click.option(
    "--objective",
    type=click.Choice(["round", "match"]),
    default="round",
    show_default=True,
    help="What a deal's winner wins: a round, or a match (the first to reach the target score, --set target_score=N).",
)
@click.option(
    "--local-steps",
    type=click.IntRange(min=0, max=20),
    default=2,
    show_default=True,
    help="Local search after the first race: steps that race every setting one knob from the best 3 so far.",
)
@click.option(
    "--iterate",
    type=click.IntRange(min=1, max=20),
    default=1,
    show_default=True,
    help="Best responses in turn: each shipped player becomes the next search's field.",
)
@click.option(
    "--name",
    default="tuned",
    show_default=True,
    callback=lambda ctx, param, value: _policy_name(value),
    help="Name of the tuned policy in the written file (not a preset's name; no control characters or : , = { }).",
)
@click.option("-q", "--quiet", is_flag=True, help="Print only the result: no header, no progress.")
@click.option(
    "-o",
    "--out",
    "out",
    type=click.Path(dir_okay=False),
    default=None,
    help="Write the tuned policy here (TOML for --policies); default: print it.",
)
@click.option(
    "--table",
    "table_path",
    type=click.Path(dir_okay=False),
    default=None,
    help="Write the candidates' estimates here (.csv or .parquet).",
)
@click.option(
    "--chart",
    "chart_path",
    type=click.Path(dir_okay=False),
    default=None,
    help="Draw the search here (.png or .svg): each candidate's gain, the winner and its fresh re-measurement.",
)
@backend_options
def tune_cmd(
    space: str,
    rules_spec: str,
    sets: tuple[str, ...],
    players: int | None,
    field_spec: str,
    policies_file: str | None,
    seed: int,
    first: int,
    max_deals: int,
    fresh_deals: int,
    alpha: float,
    objective: str,
    local_steps: int,
    iterate: int,
    name: str,
    quiet: bool,
    out: str | None,
    table_path: str | None,
    chart_path: str | None,
    backend: str,
    scheduler: str | None,
) -> None:
    """Find the best knob setting in SPACE (a TOML file) for one seat against a field of --field players.

    The candidates are a sample of SPACE's settings, every preset and the field's own policy. They
    are raced on common deals with seats rotated: those significantly worse than the leader (Holm) are
    dropped and at most half stay each round (successive halving), then local search races the
    settings one knob from the best three. The winner is re-measured on fresh deals the search never
    played beside basic, smart, strong and the field's policy; it ships only if its paired 95%
    interval is above 0 against each, else the best of those ships under --name and the file says
    so. The shipped player is also measured against a field it was not tuned on (smart, basic or strong).
    Gains are win share minus the field's per-seat share, in pp (percentage points), with 95% intervals over deals.
    """
    from unocli.cli.options import load_extra_policies
    from unocli.files import check_file_path, check_table_path
    from unocli.game.policies import parse_policy_spec
    from unocli.study import tune as tuning
    from unocli.study import tune_file

    extra = load_extra_policies(policies_file)
    rules = build_rules(rules_spec, sets, players)
    field_policy = parse_policy_spec(field_spec, extra)
    table = tuning.Table(rules, field_policy, seed, make_backend(backend, scheduler), match=objective == "match")
    search_space = tuning.SearchSpace.load(space, extra)
    # Refuse an unwritable destination, or one of the files just read, before any game is played.
    if out is not None:
        check_file_path(out, (".toml",), "policy file")
    if chart_path is not None:
        check_file_path(chart_path, (".png", ".svg"), "chart")
    if table_path is not None:
        check_table_path(table_path)
    if not quiet:
        click.echo(
            f"Searching {search_space.size:,} settings of {len(search_space.knobs)} knobs around {search_space.base}"
            f" ({search_space.candidates} sampled, plus every preset and the field), {rules.players} players,"
            f" field {field_spec}, objective {objective}, seed {seed}; budget {max_deals:,} deals per candidate"
            f" per race, {local_steps} local-search steps",
            err=True,
        )
    options: dict[str, Any] = {
        "first": first,
        "max_deals": max_deals,
        "fresh_deals": fresh_deals,
        "alpha": alpha,
        "local_steps": local_steps,
        "extra": extra,
        "progress": None if quiet else (lambda text: click.echo("  " + text, err=True)),
    }
    history = tuning.iterate(table, search_space, iterate, **options)
    result = history[-1]
    click.echo(_summary(history))
    args = sys.argv[2:] if sys.argv[1:2] == ["tune"] else [space, "..."]  # under a test runner argv is not ours
    command = "unocli tune " + " ".join(shlex.quote(a) for a in args)
    field_label = field_spec if iterate == 1 else f"best response {iterate - 1}"
    _write(result, tune_file.policy_toml(result, name, command, field_label), name, out, table_path, chart_path, quiet)


def _write(
    result: Any, text: str, name: str, out: str | None, table_path: str | None, chart_path: str | None, quiet: bool
) -> None:
    """The policy file (or stdout), the candidates' table and the chart."""
    from unocli.files import write_table, write_text_atomic
    from unocli.study.tune import candidates_table

    if out is None:
        click.echo("\n" + text, nl=False)
    else:
        write_text_atomic(out, text)
        if not quiet:
            click.echo(f"wrote {out}: the policy {name!r} (use --policies {out} --seat 0={shlex.quote(name)})")
    if table_path is not None:
        import pandas as pd  # lazily: pandas only when a table is written

        write_table(pd.DataFrame(candidates_table(result)), table_path)
    if chart_path is not None:
        from unocli.report.tune_chart import search_chart

        search_chart(result, chart_path)


def _finite(value: float, flag: str) -> float:
    if not math.isfinite(value):  # NaN passes every range check: each comparison with it is false
        raise click.BadParameter(f"{value!r} is not a number between 0 and 1", param_hint=flag)
    return value


def _policy_name(value: str) -> str:
    from unocli.errors import ConfigError
    from unocli.study.tune_file import check_policy_name

    try:
        check_policy_name(value)
    except ConfigError as exc:
        raise click.BadParameter(str(exc), param_hint="--name") from None
    return value


def _summary(history: list) -> str:
    from unocli.report import fmt

    def line(label: str, d: Any) -> str:
        return f"    {label:<26}{fmt.interval(d.diff, d.low, d.high, kind='pp')}"

    lines = []
    for i, result in enumerate(history, 1):
        f, shipped = result.fresh, result.shipped
        head = f"Best response {i} of {len(history)}" if len(history) > 1 else "Result"
        rounds = "; ".join(", ".join(f"{r.alive}" for r in race.rounds) for race in result.races)
        covered, size = result.covered(), result.space.size
        unit = "matches" if result.table.match else "rounds"
        lines += [
            f"{head}: {len(result.tried()):,} candidates in {len(result.races)} races (left after each round: {rounds})",
            f"  budget: {result.games():,} {unit} played by the search; {covered:,} of the space's {size:,} settings"
            f" tried ({100 * covered / size:.3g}%)",
            f"  winner      {result.winner.spec}",
            f"  on {fmt.count(f.deals)} fresh deals (game indices from 2**62), gain over the field in pp, 95% CI:",
            line("winner", f.gains["candidate"]),
            *(line(name, d) for name, d in f.gains.items() if name != "candidate"),
        ]
        if shipped.winner:
            lines.append("  shipped: the winner, which beat each of them (paired 95% CI above 0):")
        else:
            lines.append(f"  shipped: {shipped.label} (the best of them here); the winner did not beat each (paired 95% CI):")
            lines += [line(f"winner - {name} (paired)", d) for name, d in f.versus.items()]
            lines.append(f"  {shipped.label} against each (paired):")
        lines += [line(f"shipped - {name} (paired)", d) for name, d in shipped.versus.items()]
        other, d = result.elsewhere
        lines.append(f"  on a field of {other} (not tuned on), {fmt.count(d.n)} fresh deals:")
        lines.append(line("shipped", d))
    return "\n".join(lines)
