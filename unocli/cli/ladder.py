"""Command ``ladder``: rate policies by a fitted Luce model (a thin layer over study/ladder.py and report/ladder.py)."""

from __future__ import annotations

import json
import math
import shlex
import sys
from typing import TYPE_CHECKING

import click

if TYPE_CHECKING:
    import pandas as pd

from unocli.cli.backend import backend_options, make_backend
from unocli.cli.options import UnoCommand, build_rules, games_type, rules_options, seed_option


@click.command(cls=UnoCommand)
@rules_options
@click.option(
    "--policy",
    "specs",
    multiple=True,
    metavar="SPEC",
    help="A policy to rate: NAME or NAME:knob=value,... (repeat, at least twice).",
)
@click.option(
    "--policies",
    "policies_file",
    type=click.Path(dir_okay=False),
    default=None,
    help="TOML file of named policies usable in --policy.",
)
@click.option(
    "--games",
    type=games_type(lo=2),
    default=2000,
    show_default=True,
    help="Deals per table, 2 to 2**63 - 1 (as memory allows); every table plays the same deals, each once per seat rotation.",
)
@seed_option
@click.option("--match", "as_match", is_flag=True, help="Rate by matches to target_score instead of single rounds.")
@click.option(
    "--out",
    "out",
    type=click.Path(file_okay=False),
    default=None,
    help="Write ratings.csv, skill.csv, ladder.png and README.md into this folder.",
)
@click.option("--json", "as_json", is_flag=True, help="Print the ratings and skill measures as JSON.")
@backend_options
def ladder_cmd(
    rules_spec: str,
    sets: tuple[str, ...],
    players: int | None,
    specs: tuple[str, ...],
    policies_file: str | None,
    games: int,
    seed: int,
    as_match: bool,
    out: str | None,
    as_json: bool,
    backend: str,
    scheduler: str | None,
) -> None:
    """Rate policies by a Luce model fitted to tables of one policy against fields of another and mixed tables.

    Every ordered pair plays one policy against a field of the other (heads-up: every pair), and at
    three or more players mixed tables seat the policies in turn; all tables play the same deals, each
    once per seat rotation. Ratings are log-odds of winning a decided round (random = 0 when it plays,
    else the first policy), by maximum likelihood, with 95% cluster-robust intervals over deals. Also
    printed: the share of one round's outcome variance due to skill, and the rounds until the best
    player leads with 90% chance. See docs/ladder.md.
    """
    from unocli.cli.options import load_extra_policies
    from unocli.game.policies import parse_policy_spec
    from unocli.report import ladder as output
    from unocli.study import ladder as lad
    from unocli.study.ladder_skill import skill_frame

    if out is not None and as_json:
        raise click.UsageError("--out and --json cannot be used together: choose one")
    if len(specs) < 2:
        raise click.UsageError(f"a ladder needs at least two --policy options, not {len(specs)}")
    twice = sorted({s for s in specs if specs.count(s) > 1})
    if twice:
        raise click.UsageError(f"--policy {twice[0]} is given twice: each policy once")
    if out is not None:
        output.check_out(out)
    extra = load_extra_policies(policies_file)
    rules = build_rules(rules_spec, sets, players)
    policies = [parse_policy_spec(s, extra) for s in specs]
    tables = lad.plan_tables(len(specs), rules.players)
    head = f"Ladder: {len(specs)} policies, {len(tables)} tables of {rules.players}, {games:,} deals each, seed {seed}"
    click.echo(head, err=True)
    data = lad.play_ladder(
        rules,
        policies,
        list(specs),
        games=games,
        seed=seed,
        match=as_match,
        backend=make_backend(backend, scheduler),
        progress=lambda text: click.echo("  " + text, err=True),
    )
    result = lad.fit(data)
    frame = lad.ratings_frame(data, result, list(specs))
    skill = skill_frame(data, result, seed=seed)
    if as_json:
        click.echo(json.dumps({"ratings": _records(frame), "skill": _records(skill)}, indent=2))
        return
    click.echo(_text(frame, skill))
    if out is not None:
        args = sys.argv[2:] if sys.argv[1:2] == ["ladder"] else list(_args(rules_spec, sets, rules.players, specs, games, seed))
        run = output.LadderRun(rules_spec, rules.players, seed, games, len(tables), as_match, "unocli ladder " + shlex.join(args))
        for path in output.write(out, frame, skill, run):
            click.echo(f"wrote {path}", err=True)


def _args(rules: str, sets: tuple[str, ...], players: int, specs: tuple[str, ...], games: int, seed: int) -> list[str]:
    """The command's arguments when argv is not ours (under a test runner)."""
    out = ["--rules", rules, "--players", str(players), *(a for s in sets for a in ("--set", s))]
    return [*out, *(a for s in specs for a in ("--policy", s)), "--games", str(games), "--seed", str(seed)]


def _records(df: pd.DataFrame) -> list[dict]:
    """Rows as JSON-safe dicts: infinities and NaN become null."""
    rows = df.to_dict(orient="records")
    return [{k: (None if isinstance(v, float) and not math.isfinite(v) else v) for k, v in r.items()} for r in rows]


def _text(frame: pd.DataFrame, skill: pd.DataFrame) -> str:
    lines = [f"{'policy':<24} {'rating':>8} {'95% interval':>20} {'games':>10} {'lone vs field':>14}"]
    for r in frame.itertuples():
        interval = "(anchor)" if r.anchor else f"[{r.low:+.3f}, {r.high:+.3f}]"
        lines.append(f"{r.policy:<24} {r.rating:>+8.3f} {interval:>20} {r.games:>10,} {100 * r.field_share:>13.2f}%")
    lines.append("")
    for r in skill.itertuples():
        if "share" in r.measure:
            lines.append(f"{r.measure}: {100 * r.value:.2f}% [{100 * r.low:.2f}, {100 * r.high:.2f}] (n = {r.n:,} deals)")
        else:
            lines.append(f"{r.measure}: {_n(r.value)} [{_n(r.low)}, {_n(r.high)}] (n = {r.n:,} deals)")
    return "\n".join(lines)


def _n(x: float) -> str:
    return "inf" if math.isinf(x) else f"{int(x):,}"
