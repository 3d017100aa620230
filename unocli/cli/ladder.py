"""Command ``ladder``: rate policies by a fitted Luce model (a thin layer over study/ladder.py and report/ladder.py)."""

from __future__ import annotations

import json
import math
import shlex
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import click

if TYPE_CHECKING:
    import pandas as pd

    from unocli.game.policies import Policy
    from unocli.game.rules import Rules
    from unocli.run.backends import Backend

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
@click.option(
    "--lone",
    "lone_specs",
    multiple=True,
    metavar="SPEC",
    help="A costly policy (search, peek) rated only as the lone player against a field of each --policy (repeat).",
)
@click.option(
    "--lone-games",
    type=click.IntRange(min=2, max=1 << 40),
    default=None,
    help="Deals for the --lone tables (the first of --games' deals; default: --games).",
)
@click.option(
    "--match-games",
    type=click.IntRange(min=2, max=1 << 40),
    default=None,
    help="Also play the --policy tables as matches on this many deals, for the match-level skill measures.",
)
@seed_option
@click.option("--match", "as_match", is_flag=True, help="Rate by matches to target_score instead of single rounds.")
@click.option(
    "--out",
    "out",
    type=click.Path(file_okay=False),
    default=None,
    help="Write ratings.csv, gaps.csv (every pair's rating gap), skill.csv, ladder.png and README.md (with --match-games, "
    "match-ratings.csv) into this folder, with a manifest of their SHA-256; a folder holding anything else, or a file "
    "changed since, is refused.",
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
    lone_specs: tuple[str, ...],
    lone_games: int | None,
    match_games: int | None,
    seed: int,
    as_match: bool,
    out: str | None,
    as_json: bool,
    backend: str,
    scheduler: str | None,
) -> None:
    """Rate policies by a Luce model fitted to tables of one policy against a field of another.

    Every ordered pair plays one policy against a field of the other (heads-up: every pair), and at
    three or more players mixed tables seat the policies in turn, a check of the model that its fit
    leaves out; all tables play the same deals, each once per seat rotation. Ratings are log-odds of
    winning a decided round (random = 0 when it plays, else the first policy), by maximum likelihood,
    with 95% cluster-robust intervals over deals. Also printed: the share of one round's outcome
    variance due to skill, and the rounds until the best player leads with 90% chance. A --lone policy
    (search, or the clairvoyant bound peek) plays only as the lone player against a field of each
    --policy, on the first --lone-games deals; with a peek among them the relative skill (the best
    player's gain over random over the bound's) is given. With --match-games the --policy tables are
    also played as matches, for the match-level measures.
    See docs/ladder.md.
    """
    import pandas as pd

    from unocli.cli.options import load_extra_policies
    from unocli.game.policies import SearchMode, parse_policy_spec
    from unocli.report import ladder as output
    from unocli.study import ladder as lad
    from unocli.study.ladder_skill import skill_frame

    everyone = (*specs, *lone_specs)
    _check(specs, lone_specs, games, lone_games, match_games, as_match, out is not None and as_json)
    if out is not None:
        output.check_out(out)
    extra = load_extra_policies(policies_file)
    rules = build_rules(rules_spec, sets, players)
    policies = [parse_policy_spec(s, extra) for s in everyone]
    tables = lad.plan_lone_tables(len(specs), len(lone_specs), rules.players)
    per_table = [games if t.kind != lad.LONE else (lone_games or games) for t in tables]
    bounds = [i for i, p in enumerate(policies) if p.search is SearchMode.PEEK]
    head = f"Ladder: {len(everyone)} policies, {len(tables)} tables of {rules.players}, {games:,} deals each, seed {seed}"
    click.echo(head + (f" (lone tables: {lone_games:,})" if lone_games else ""), err=True)
    progress = _progress(any(p.search is not SearchMode.OFF for p in policies))
    runner = make_backend(backend, scheduler)
    data = lad.play_tables(
        rules, policies, list(everyone), tables, per_table, seed=seed, match=as_match, backend=runner, progress=progress
    )
    result = lad.fit(data)
    frame = lad.ratings_frame(data, result, list(everyone)).assign(
        bound=lambda f: f["policy"].isin([everyone[b] for b in bounds])
    )
    gaps = lad.gaps_frame(result, bounds)
    skill = skill_frame(data, result, seed=seed, bounds=bounds, level="match" if as_match else "round")
    match_frame = None
    if match_games is not None:
        match_frame, match_skill = _match_ladder(rules, policies[: len(specs)], specs, match_games, seed, runner, progress)
        skill = pd.concat([skill, match_skill], ignore_index=True)
    if as_json:
        body = {"ratings": _records(frame), "gaps": _records(gaps), "skill": _records(skill)}
        body |= {"match_ratings": _records(match_frame)} if match_frame is not None else {}
        click.echo(json.dumps(body, indent=2))
        return
    click.echo(_text(frame, skill))
    if out is not None:
        command = _command(rules_spec, sets, rules.players, specs, games, seed, lone_specs, lone_games, match_games)
        lone = (lone_games or games) if lone_specs else 0
        run = output.LadderRun(
            rules_spec, rules.players, seed, games, len(tables), as_match, command, lone, match_games or 0, lone_specs
        )
        for path in output.write(out, frame, skill, run, match_frame, gaps):
            click.echo(f"wrote {path}", err=True)


def _command(
    rules: str,
    sets: tuple[str, ...],
    players: int,
    specs: tuple[str, ...],
    games: int,
    seed: int,
    lone_specs: tuple[str, ...],
    lone_games: int | None,
    match_games: int | None,
) -> str:
    """The command line that remakes the folder: argv, or (under a test runner) the options rebuilt."""
    args = sys.argv[2:] if sys.argv[1:2] == ["ladder"] else _args(rules, sets, players, specs, games, seed)
    if sys.argv[1:2] != ["ladder"]:
        args += _lone_args(lone_specs, lone_games, match_games)
    return "unocli ladder " + shlex.join(args)


def _progress(searching: bool) -> Callable[[str], None]:
    """The tables' progress lines on stderr, after the compile notice (the search kernel too when a seat searches)."""
    from unocli.cli.run import announce_compile, end_compile_notice

    announce_compile(False, kernels=("batch", "search") if searching else ("batch",))

    def say(text: str) -> None:
        end_compile_notice()  # the spinner's line ends before a table's line starts its own
        click.echo("  " + text, err=True)

    return say


def _match_ladder(
    rules: Rules, policies: list[Policy], specs: tuple[str, ...], games: int, seed: int, runner: Backend, progress: Any
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The round robin again as matches: its ratings and its (match-level) skill measures."""
    from unocli.study import ladder as lad
    from unocli.study.ladder_skill import skill_frame

    click.echo(f"Matches: {len(specs)} policies, {games:,} deals each", err=True)
    data = lad.play_ladder(rules, policies, list(specs), games=games, seed=seed, match=True, backend=runner, progress=progress)
    result = lad.fit(data)
    return lad.ratings_frame(data, result, list(specs)), skill_frame(data, result, seed=seed, level="match")


def _check(
    specs: tuple[str, ...],
    lone_specs: tuple[str, ...],
    games: int,
    lone_games: int | None,
    match_games: int | None,
    as_match: bool,
    out_and_json: bool,
) -> None:
    """Refuse, in one sentence each, options that do not go together (before any game is played)."""
    if out_and_json:
        raise click.UsageError("--out and --json cannot be used together: choose one")
    if len(specs) < 2:
        raise click.UsageError(f"a ladder needs at least two --policy options, not {len(specs)}")
    everyone = (*specs, *lone_specs)
    twice = sorted({s for s in everyone if everyone.count(s) > 1})
    if twice:
        raise click.UsageError(f"--policy {twice[0]} is given twice: each policy once")
    if lone_games is not None and not lone_specs:
        raise click.UsageError("--lone-games needs at least one --lone policy")
    if lone_games is not None and lone_games > games:
        raise click.UsageError(f"--lone-games {lone_games:,} is more than --games {games:,}: the lone tables play a subset")
    if match_games is not None and as_match:
        raise click.UsageError("--match-games and --match cannot be used together: --match already rates by matches")


def _lone_args(lone_specs: tuple[str, ...], lone_games: int | None, match_games: int | None) -> list[str]:
    out = [a for s in lone_specs for a in ("--lone", s)]
    out += ["--lone-games", str(lone_games)] if lone_games else []
    return out + (["--match-games", str(match_games)] if match_games else [])


def _args(rules: str, sets: tuple[str, ...], players: int, specs: tuple[str, ...], games: int, seed: int) -> list[str]:
    """The command's arguments when argv is not ours (under a test runner)."""
    out = ["--rules", rules, "--players", str(players), *(a for s in sets for a in ("--set", s))]
    return [*out, *(a for s in specs for a in ("--policy", s)), "--games", str(games), "--seed", str(seed)]


def _records(df: pd.DataFrame) -> list[dict]:
    """Rows as JSON-safe dicts: infinities and NaN become null."""
    rows = df.to_dict(orient="records")
    return [{k: (None if isinstance(v, float) and not math.isfinite(v) else v) for k, v in r.items()} for r in rows]


def _text(frame: pd.DataFrame, skill: pd.DataFrame) -> str:
    from unocli.report.ladder import skill_value

    lines = [f"{'policy':<24} {'rating':>8} {'95% interval':>20} {'games':>10} {'lone vs field':>14}"]
    for r in frame.itertuples():
        interval = "(anchor)" if r.anchor else f"[{r.low:+.3f}, {r.high:+.3f}]"
        name = f"{r.policy} (bound)" if r.bound else r.policy
        lines.append(f"{name:<24} {r.rating:>+8.3f} {interval:>20} {r.games:>10,} {100 * r.field_share:>13.2f}%")
    lines.append("")
    lines += [f"{r.measure}: {skill_value(r)} (n = {r.n:,} deals)" for r in skill.itertuples()]
    return "\n".join(lines)
