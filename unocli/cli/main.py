"""The command line: a thin click adapter over the library (no game logic here)."""

from __future__ import annotations

import gc
import textwrap
from dataclasses import fields

import click

from unocli import __version__
from unocli.cli.options import (
    UnoGroup,
    build_policies,
    build_rules,
    complete_rules,
    game_option,
    load_extra_policies,
    players_option,
    policies_file_option,
    policy_options,
    rules_options,
    seed_option,
    set_option,
)
from unocli.environment import check_environment
from unocli.files import inputs_kept
from unocli.game.policies import PRESETS as POLICY_PRESETS
from unocli.game.policies import SEARCH_PRESETS, Policy, describe_knobs, parse_policy_spec
from unocli.game.rules import PRESETS as RULE_PRESETS
from unocli.game.rules import Rules, describe_fields

WIDTH = 100


class _Cli(UnoGroup):
    """The top-level group: ``--help`` lists the lazy commands without importing them."""

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        # Importing a lazy command's module to read its one-line help would load numba,
        # pandas and matplotlib on every `unocli --help`; LAZY_HELP holds those lines
        # (tests/test_startup.py checks they match the commands' own).
        names = [n for n in self.list_commands(ctx) if n in self.commands or n not in LAZY_HELP]
        commands = [(n, c) for n in names if (c := self.get_command(ctx, n)) is not None and not c.hidden]
        listed = sorted([*((n, None) for n in LAZY_HELP if n not in self.commands), *commands], key=lambda nc: nc[0])
        if not listed:
            return
        limit = formatter.width - 6 - max(len(n) for n, _ in listed)
        rows = [(n, (c or click.Command(n, help=LAZY_HELP[n])).get_short_help_str(limit)) for n, c in listed]
        with formatter.section("Commands"):
            formatter.write_dl(rows)

    group_class = UnoGroup  # the subgroups (rules, policies) list their own commands, not these

    def resolve_command(self, ctx: click.Context, args: list[str]) -> tuple[str | None, click.Command | None, list[str]]:
        if args and args[0] in LAZY_COMMANDS:  # before its module imports numba (and matplotlib)
            check_environment(draws=args[0] in DRAWS)
        found = super().resolve_command(ctx, args)
        _end_of_start_up()  # the command's modules are imported now
        return found


@click.group(cls=_Cli, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, "--version", prog_name="unocli", message="%(prog)s %(version)s")
@click.pass_context
def cli(ctx: click.Context) -> None:
    """unocli: settle Uno rule debates with evidence.

    Simulate Uno under the official rules and house rules, with scripted
    players, and narrate any single game move by move.
    """
    ctx.with_resource(inputs_kept())  # no command writes its output over a file it read


_gc_paused = False


def main() -> None:
    """Console-script entry point.

    Python's cyclic garbage collector is paused while the command's modules
    load and frozen at exit. Start-up creates some 150,000 objects that live
    as long as the process (click, NumPy, numba, SciPy); the collector would
    walk them all several times while they are imported and once more at
    exit, where nothing needs freeing: 0.4-0.5 s of CPU in a 1.3 s
    ``simulate --games 1000``. Library users keep the normal collector.
    """
    global _gc_paused
    gc.disable()
    _gc_paused = True
    try:
        cli.main(prog_name="unocli")
    finally:
        gc.freeze()  # exit without walking them: what is left is freed when the process ends


def _end_of_start_up() -> None:
    """Freeze the objects made so far (the collector never walks them again) and resume collecting."""
    global _gc_paused
    if _gc_paused:
        _gc_paused = False
        gc.freeze()
        gc.enable()


# ---------------------------------------------------------------- formatting


def _table(rows: list[tuple[str, str, str]], mark: frozenset[str] | set[str] = frozenset()) -> list[str]:
    """Rows of (name, value, meaning) with the meaning wrapped in its own column.

    A value too long for its column pushes the meaning onto the next line.
    """
    w_name = max(len(r[0]) for r in rows) + 2
    w_value = min(max(len(r[1]) + 1 for r in rows), 16) + 2
    indent = " " * (2 + w_name + w_value)
    out = []
    for name, value, meaning in rows:
        shown = value + ("*" if name in mark else "")
        body = textwrap.wrap(meaning, width=max(40, WIDTH - len(indent))) or [""]
        if len(shown) + 2 > w_value:
            out.append(f"  {name:<{w_name}}{shown}")
            out.extend(indent + line for line in body)
        else:
            out.append(f"  {name:<{w_name}}{shown:<{w_value}}{body[0]}")
            out.extend(indent + line for line in body[1:])
    return out


def _value(v: object) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    return str(v) if v != "" else "''"


# ---------------------------------------------------------------- rules


@cli.group()
def rules() -> None:
    """List the rule presets and show every field of a rule set."""


@rules.command("list")
def rules_list() -> None:
    """List the rule presets with a one-line description each."""
    width = max(len(name) for name in RULE_PRESETS) + 2
    for name, (description, _) in RULE_PRESETS.items():
        click.echo(f"{name:<{width}}{description}")


@rules.command("show")
@click.argument("name_or_file", metavar="NAME_OR_FILE", default="official", shell_complete=complete_rules)
@set_option
@players_option
def rules_show(name_or_file: str, sets: tuple[str, ...], players: int | None) -> None:
    """Show every field of a rule set (a preset or TOML file) with its value and meaning.

    --set and --players change fields before showing them. Fields marked *
    differ from the official rules.
    """
    chosen = build_rules(name_or_file, sets, players)
    official = Rules()
    changed = {f.name for f in fields(Rules) if getattr(chosen, f.name) != getattr(official, f.name)}
    values = chosen.to_dict()
    click.echo(f"Rule set {name_or_file}" + (f" with {', '.join(sets)}" if sets else "") + ":")
    for line in _table([(name, _value(values[name]), meaning) for name, meaning in describe_fields()], changed):
        click.echo(line)
    if changed:
        click.echo("* differs from the official rules")
    click.echo("The full rules: unocli rules text (docs/rules.md; house rules in §8).")


@rules.command("text")
def rules_text() -> None:
    """Print the rules document the engines play (docs/rules.md), every clause numbered."""
    from importlib.resources import files

    click.echo(files("unocli").joinpath("data/rules.md").read_text(encoding="utf-8"), nl=False)


# ---------------------------------------------------------------- policies


@cli.group()
def policies() -> None:
    """List the player policies and show every knob of one."""


@policies.command("list")
def policies_list() -> None:
    """List the policy presets with a one-line description each."""
    entries = {**POLICY_PRESETS, **SEARCH_PRESETS}  # search players last: they play thousands of rollouts a turn
    width = max(len(name) for name in entries) + 2
    for name, (description, _) in entries.items():
        click.echo(f"{name:<{width}}{description}")


@policies.command("show")
@policies_file_option
@click.argument("spec", metavar="NAME[:KNOB=VALUE,...]", default="random")
def policies_show(spec: str, policies_file: str | None) -> None:
    """Show every knob of a policy with its value and meaning.

    NAME may carry knob settings, e.g. basic:bluff=0.3,challenge=0.5.
    Knobs marked * differ from the random policy.
    """
    policy = parse_policy_spec(spec, load_extra_policies(policies_file))
    base = Policy()
    changed = {f.name for f in fields(Policy) if getattr(policy, f.name) != getattr(base, f.name)}
    values = policy.to_dict()
    click.echo(f"Policy {spec}:")
    for line in _table([(name, _value(values[name]), meaning) for name, meaning in describe_knobs()], changed):
        click.echo(line)
    if changed:
        click.echo("* differs from the random policy")


# ---------------------------------------------------------------- trace


@cli.command()
@rules_options
@policy_options
@policies_file_option
@seed_option
@game_option
@click.option("--match", "as_match", is_flag=True, help="Play a whole match to target_score, round by round.")
def trace(
    rules_spec: str,
    sets: tuple[str, ...],
    players: int | None,
    policy: str,
    seats: tuple[str, ...],
    policies_file: str | None,
    seed: int,
    game: int,
    as_match: bool,
) -> None:
    """Narrate one game move by move: the deal, every play, draw and penalty, the winner.

    The game is fully determined by the rules, the policies, --seed and
    --game, so any game of a large run can be replayed here. With --match
    the game is a whole match to target_score points.
    """
    from unocli.reference.trace import trace_game

    chosen = build_rules(rules_spec, sets, players)
    seat_policies = build_policies(chosen, policy, seats, policies_file)
    click.echo(f"Rules: {rules_spec}" + (f" with {', '.join(sets)}" if sets else "") + f"; {chosen.players} players.")
    click.echo("Policies: " + _policy_summary(policy, seats) + ".")
    click.echo(f"Seed {seed}, game {game}.")
    click.echo("")
    click.echo("\n".join(trace_game(chosen, seat_policies, seed, game, as_match=as_match)))


def _policy_summary(policy: str, seats: tuple[str, ...]) -> str:
    text = f"{policy} for every {'other ' if seats else ''}seat"
    if seats:
        text += "; " + ", ".join(f"seat {s.partition('=')[0].strip()}: {s.partition('=')[2]}" for s in seats)
    return text


# ---------------------------------------------------------------- commands defined in their own modules

# Imported only when used: the analysis commands pull in matplotlib and the
# cluster code, which would slow down every start of the CLI.
LAZY_COMMANDS = {
    "simulate": ("unocli.cli.run", "simulate_cmd"),
    "bench": ("unocli.cli.run", "bench_cmd"),
    "compare": ("unocli.cli.analysis", "compare_cmd"),
    "sweep": ("unocli.cli.analysis", "sweep_cmd"),
    "report": ("unocli.cli.analysis", "report_cmd"),
    "baseline": ("unocli.cli.balance", "baseline_cmd"),
    "check": ("unocli.cli.balance", "check_cmd"),
    "tune": ("unocli.cli.tune", "tune_cmd"),
    "ladder": ("unocli.cli.ladder", "ladder_cmd"),
}
# Their one-line help, for `unocli --help` (the first line of each command's docstring).
LAZY_HELP = {
    "simulate": "Play many games with the numba kernel and summarise them with intervals.",
    "bench": "Measure rounds per second on fixed configurations (random policy), and search rollouts per second.",
    "compare": "Play arms on the same deals and report every metric with its paired difference from a baseline.",
    "sweep": "Play every cell of a grid of rule fields and policy knobs; write a tidy table and plot it.",
    "report": "Run experiment files (default: the shipped set, quick) and write a report with charts and tables.",
    "baseline": "Run EXPERIMENT and store its per-arm statistics and exact fingerprint.",
    "check": "Rerun BASELINE files and give every metric a verdict: pass, fail or inconclusive.",
    "tune": "Find the best knob setting in SPACE (a TOML file) for one seat against a field of --field players.",
    "ladder": "Rate policies by a Luce model fitted to tables of one policy against a field of another.",
}
# The commands that draw charts with matplotlib, which reads MPLBACKEND when imported.
DRAWS = frozenset({"sweep", "report", "tune"})
cli.lazy_commands.update(LAZY_COMMANDS)
