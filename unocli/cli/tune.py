"""Command ``tune``: the best knob setting for one seat against a field (a thin layer over study/tune.py)."""

from __future__ import annotations

import shlex
import sys

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
    help="Search budget: deals per candidate at most.",
)
@click.option(
    "--fresh",
    "fresh_deals",
    type=click.IntRange(min=100),
    default=100_000,
    show_default=True,
    help="Fresh deals (never used by the search) to re-measure the winner, the base and smart on.",
)
@click.option(
    "--alpha",
    type=click.FloatRange(0, 1, min_open=True, max_open=True),
    default=0.05,
    show_default=True,
    help="Family-wise level at which a candidate worse than the leader is dropped in a round.",
)
@click.option(
    "--iterate",
    type=click.IntRange(min=1, max=20),
    default=1,
    show_default=True,
    help="Best responses in turn: each winner becomes the next search's field.",
)
@click.option("--name", default="tuned", show_default=True, help="Name of the tuned policy in the written file.")
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
    iterate: int,
    name: str,
    out: str | None,
    table_path: str | None,
    chart_path: str | None,
    backend: str,
    scheduler: str | None,
) -> None:
    """Find the best knob setting in SPACE (a TOML file) for one seat against a field of --field players.

    Candidates are raced on common deals with seats rotated; those worse than the leader are dropped
    as the race goes; the winner is re-measured on fresh deals the search never played, beside the
    space's base policy and smart. Gains are win share minus the field's per-seat share, in points,
    with 95% intervals over deals.
    """
    from unocli.cli.options import load_extra_policies
    from unocli.files import check_file_path, check_table_path, write_table, write_text_atomic
    from unocli.game.policies import parse_policy_spec
    from unocli.study import tune as tuning

    # Refuse an unwritable destination before any game is played.
    if out is not None:
        check_file_path(out, (".toml",), "policy file")
    if chart_path is not None:
        check_file_path(chart_path, (".png", ".svg"), "chart")
    if table_path is not None:
        check_table_path(table_path)
    extra = load_extra_policies(policies_file)
    rules = build_rules(rules_spec, sets, players)
    table = tuning.Table(rules, parse_policy_spec(field_spec, extra), seed, make_backend(backend, scheduler))
    search_space = tuning.SearchSpace.load(space, extra)
    click.echo(
        f"Searching {search_space.size:,} settings ({search_space.candidates} sampled) of {len(search_space.knobs)} "
        f"knobs around {search_space.base}, {rules.players} players, field {field_spec}, seed {seed}",
        err=True,
    )
    options = {
        "first": first,
        "max_deals": max_deals,
        "fresh_deals": fresh_deals,
        "alpha": alpha,
        "extra": extra,
        "progress": lambda text: click.echo("  " + text, err=True),
    }
    history = tuning.iterate(table, search_space, iterate, **options)
    result = history[-1]
    click.echo(_summary(history))
    args = sys.argv[2:] if sys.argv[1:2] == ["tune"] else [space, "..."]  # under a test runner argv is not ours
    command = "unocli tune " + " ".join(shlex.quote(a) for a in args)
    text = tuning.policy_toml(result, name, command)
    if out is None:
        click.echo("\n" + text, nl=False)
    else:
        write_text_atomic(out, text)
        click.echo(f"wrote {out}: the policy {name!r} (use --policies {out} --seat 0={name})")
    if table_path is not None:
        import pandas as pd  # lazily: pandas only when a table is written

        write_table(pd.DataFrame(tuning.candidates_table(result)), table_path)
    if chart_path is not None:
        from unocli.report.tune_chart import search_chart

        search_chart(result, chart_path)


def _summary(history: list) -> str:
    from unocli.report import fmt

    lines = []
    for i, result in enumerate(history, 1):
        f = result.fresh
        head = f"Best response {i} of {len(history)}" if len(history) > 1 else "Result"
        rounds = ", ".join(f"{r.alive}" for r in result.race.rounds)
        lines += [
            f"{head}: {len(result.race.candidates)} candidates raced (left after each round: {rounds})",
            f"  winner      {result.winner.spec}",
            f"  on {fmt.count(f.deals)} fresh deals (game indices from 2**62), gain over the field in points, 95% CI:",
            f"    winner    {fmt.interval(f.winner.diff, f.winner.low, f.winner.high, kind='pp')}",
            f"    base      {fmt.interval(f.base.diff, f.base.low, f.base.high, kind='pp')}",
            f"    smart     {fmt.interval(f.smart.diff, f.smart.low, f.smart.high, kind='pp')}",
            f"    winner - smart (paired) "
            f"{fmt.interval(f.winner_vs_smart.diff, f.winner_vs_smart.low, f.winner_vs_smart.high, kind='pp')}",
        ]
    return "\n".join(lines)
