"""Reusable click options (sqlite-utils style) and the error plumbing of the CLI.

Commands stack the decorators they need::

    @cli.command()
    @rules_options
    @policy_options
    @seed_option
    def simulate(rules_spec, sets, players, policy, seats, seed): ...

and turn the values into objects with :func:`build_rules` and
:func:`build_policies`. Every :class:`~unocli.errors.ConfigError` raised while a
command runs becomes a one-line ``Error: ...`` (see :class:`UnoGroup`).
"""

from __future__ import annotations

import dataclasses
import functools
import sys
from collections.abc import Callable
from typing import Any

import click

from unocli.cli.interrupts import interrupted, terminating_signals_interrupt
from unocli.errors import ConfigError
from unocli.game.limits import OutOfRange, check_games, check_seed, parse_whole
from unocli.game.policies import Policy, UnknownPolicy, parse_seats, resolve_policies
from unocli.game.rules import Rules, parse_assignment, resolve_rules
from unocli.run.precision import DEFAULT_MAX_GAMES as _DEFAULT_MAX_GAMES
from unocli.study.arm import PolicyFile, TableSpec

F = Callable[..., Any]


# ---------------------------------------------------------------- error plumbing


# The options whose empty value means something: --policies '' is no policies file (in place of an experiment file's).
EMPTY_MEANS_NONE = frozenset({"policies_file"})


def _int_reads(text: str) -> bool:
    try:
        int(text)
    except ValueError:
        return False
    return True


class UnoCommand(click.Command):
    """A command whose ConfigErrors become click errors (one line, exit 1; exit 2 for a policy name that names
    nothing or a game count or seed out of its bound, wherever it was written)."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        # Checked on the words as given, before any callback reads a file or a preset by that name: an empty value
        # names no file, preset, policy or grid (pathlib would read '' as '.', the current folder; but see
        # EMPTY_MEANS_NONE), and a whole number is written as in TOML (limits.parse_whole: click's int() also reads
        # "\u0663", an Arabic-Indic three, as 3).
        if not ctx.resilient_parsing:
            given, _, _ = self.make_parser(ctx).parse_args(args=list(args))
            for param in self.get_params(ctx):
                value = given.get(param.name) if param.name else None
                values = [v for v in (value if isinstance(value, list | tuple) else [value]) if isinstance(v, str)]
                if param.name not in EMPTY_MEANS_NONE and any(not v.strip() for v in values):
                    name = max(param.opts, key=len) if isinstance(param, click.Option) else param.human_readable_name
                    raise click.UsageError(f"{name} is given an empty value, which names nothing", ctx)
                if isinstance(param.type, click.types.IntParamType):
                    for v in values:  # what int() refuses, click refuses in its own words
                        if parse_whole(v) is None and _int_reads(v):
                            raise click.BadParameter(f"{v!r} is not a whole number", ctx, param)
        return super().parse_args(ctx, args)

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except (UnknownPolicy, OutOfRange) as exc:  # a usage error, like any other option value click refuses
            raise click.UsageError(str(exc)) from None
        except ConfigError as exc:
            raise click.ClickException(str(exc)) from None


class UnoGroup(click.Group):
    """A group that reports every user error as one line ``Error: ...`` on stderr.

    Click normally prints the usage and a hint before a usage error; here every
    error, ours or click's, is a single sentence and a non-zero exit.
    """

    command_class = UnoCommand
    group_class: type[click.Group] | type[type] = type  # subgroups are of the same class (_Cli sets UnoGroup)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.lazy_commands: dict[str, tuple[str, str]] = {}  # name -> (module, attribute), imported when used

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*super().list_commands(ctx), *self.lazy_commands})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name in self.lazy_commands and cmd_name not in self.commands:
            import importlib

            module, attr = self.lazy_commands[cmd_name]
            self.add_command(getattr(importlib.import_module(module), attr), cmd_name)
        return super().get_command(ctx, cmd_name)

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except ConfigError as exc:
            raise click.ClickException(str(exc)) from None

    def main(
        self,
        args: Any = None,
        prog_name: str | None = None,
        complete_var: str | None = None,
        standalone_mode: bool = True,
        **extra: Any,
    ) -> Any:
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
        given = sys.argv[1:] if args is None else list(args)
        if any("\x00" in str(a) for a in given):  # no file name or value can hold one; os calls would raise ValueError
            click.echo("Error: an argument contains a NUL byte (\\x00), which no file name or value may hold", err=True)
            sys.exit(2)
        try:
            with terminating_signals_interrupt():  # SIGTERM and SIGHUP unwind as Ctrl-C does
                rv = super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
        except (click.exceptions.Abort, KeyboardInterrupt) as exc:  # click turns Ctrl-C into Abort
            line, code = interrupted(exc)
            click.echo(f"\n{line}", err=True)
            sys.exit(code)
        except click.ClickException as exc:
            click.echo(f"Error: {one_line(exc.format_message())}", err=True)
            sys.exit(exc.exit_code)
        except ConfigError as exc:  # raised outside a command's invoke (e.g. in a callback)
            click.echo(f"Error: {one_line(str(exc))}", err=True)
            sys.exit(1)
        except OSError as exc:  # the system refused something (a full disk, a vanished folder): one sentence
            click.echo(f"Error: {os_error_sentence(exc)}", err=True)
            sys.exit(1)
        except Exception as exc:  # a bug in unocli: say so in one line, with what to send
            click.echo(f"Error: {internal_error_sentence(exc)}", err=True)
            sys.exit(1)
        sys.exit(rv if isinstance(rv, int) else 0)


ISSUES_HINT = "please report it with the command you ran (set UNOCLI_TRACEBACK=1 to see the traceback)"


def os_error_sentence(exc: OSError) -> str:
    """An ``OSError`` as one sentence: what failed, on which file, and why."""
    reason = exc.strerror or type(exc).__name__
    reason = reason[:1].lower() + reason[1:]
    name = f" {exc.filename!r}" if exc.filename else ""
    return one_line(f"the system refused an operation on{name or ' a file'}: {reason}")


def internal_error_sentence(exc: BaseException) -> str:
    """An unexpected exception as one sentence (a bug in unocli), or the traceback when UNOCLI_TRACEBACK is set."""
    import os

    if os.environ.get("UNOCLI_TRACEBACK"):
        import traceback

        traceback.print_exception(exc)
    return one_line(f"unocli hit an internal error ({type(exc).__name__}: {exc}); {ISSUES_HINT}")


def one_line(text: str) -> str:
    """Collapse a message onto one line."""
    return " ".join(text.split())


# ---------------------------------------------------------------- parameter types


class BigInt(click.ParamType):
    """A seed or game index (``check_seed``, the default) or a game count (:func:`games_type`).

    The check is one of :mod:`unocli.game.limits`, the ones experiment and
    baseline files use, so a value gets the same bound and sentence everywhere.
    """

    name = "integer"

    def __init__(self, check: Callable[[Any, str], int] = check_seed) -> None:
        self.check = check

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> int:
        try:
            return self.check(value, "it")
        except ConfigError as exc:
            self.fail(str(exc).removeprefix("it "), param, ctx)


def games_type(lo: int = 1) -> BigInt:
    """The type of a ``--games`` or ``--max-games`` option: a game count from ``lo`` to GAMES_MAX."""
    return BigInt(functools.partial(check_games, lo=lo))


# ---------------------------------------------------------------- decorators


def repeatable_option(flag: str, dest: str, metavar: str, help: str) -> Callable[[F], F]:
    """An option given any number of times, its values collected into a tuple called ``dest``."""
    return click.option(flag, dest, multiple=True, metavar=metavar, help=help)


def complete_rules(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[Any]:
    """Shell completion of a rule set: the presets that start with what is typed, and files (a TOML rule set)."""
    from click.shell_completion import CompletionItem

    from unocli.game.rules import PRESETS

    return [CompletionItem(n) for n in PRESETS if n.startswith(incomplete)] + [CompletionItem(incomplete, type="file")]


def complete_policy(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[Any]:
    """Shell completion of a policy spec: the preset names that start with what is typed."""
    from click.shell_completion import CompletionItem

    from unocli.game.policies import PRESETS

    return [CompletionItem(n) for n in PRESETS if n.startswith(incomplete)]


rules_option = click.option(
    "--rules",
    "rules_spec",
    default="official",
    show_default=True,
    metavar="PRESET_OR_TOML",
    shell_complete=complete_rules,
    help="Rule set: a preset name (see 'unocli rules list') or a TOML file.",
)
set_option = repeatable_option(
    "--set", "sets", "FIELD=VALUE", "Override one rule field, e.g. --set stacking=progressive (repeatable)."
)
players_option = click.option(
    "--players",
    type=int,
    default=None,
    help="Number of players, 2-10 (overrides the rule set; default 4).",
)
policy_option = click.option(
    "--policy",
    default="random",
    show_default=True,
    metavar="SPEC",
    shell_complete=complete_policy,
    help="Policy for every seat: NAME or NAME:knob=value,... (see 'unocli policies list').",
)
seat_option = repeatable_option("--seat", "seats", "S=SPEC", "Policy for one seat, e.g. --seat 0=basic:bluff=0.3 (repeatable).")
seed_option = click.option(
    "--seed",
    type=BigInt(),
    default=0,
    show_default=True,
    help="Master seed, 0 to 2**64-1: the same seed replays the same games.",
)
game_option = click.option(
    "--game",
    "game",
    type=BigInt(),
    default=0,
    show_default=True,
    metavar="INDEX",
    help="Index of the game within the seed's run (0 to 2**64-1).",
)


def available_threads() -> int:
    """The most threads numba can run here: NUMBA_NUM_THREADS when set, else the number of cores."""
    import os

    from unocli.environment import numba_threads

    return numba_threads() or os.cpu_count() or 1


def _check_threads(ctx: click.Context, param: click.Parameter, value: int | None) -> int | None:
    """Refuse more threads than numba can run, rather than silently running fewer."""
    if value is not None and value > available_threads():
        raise click.BadParameter(f"{value} threads asked for, but this machine runs at most {available_threads()}")
    return value


threads_option = click.option(
    "--threads",
    type=click.IntRange(min=1),
    default=None,
    callback=_check_threads,
    help="Threads to play on (default: all cores; at most the number of cores).",
)
match_option = click.option("--match/--no-match", default=False, help="Play matches to target_score instead of single rounds.")


def given(name: str) -> bool:
    """Whether the option called ``name`` (its parameter name) was given on the command line or by the environment.

    Experiment files supply defaults; an option overrides them by being given, not
    by being truthy (``--seed 0`` and ``--no-match`` override too).
    """
    from click.core import ParameterSource

    ctx = click.get_current_context(silent=True)
    source = ctx.get_parameter_source(name) if ctx is not None else None
    return source in (ParameterSource.COMMANDLINE, ParameterSource.ENVIRONMENT)


def rules_options(f: F) -> F:
    """``--rules``, ``--set`` and ``--players``."""
    return rules_option(set_option(players_option(f)))


def policy_options(f: F) -> F:
    """``--policy`` and ``--seat``."""
    return policy_option(seat_option(f))


def policies_file_option(f: F, help: str = "TOML file of extra named policies, usable in --policy and --seat.") -> F:
    """``--policies FILE``: extra named policies, usable in ``--policy`` and ``--seat``."""
    return click.option("--policies", "policies_file", type=click.Path(dir_okay=False), default=None, help=help)(f)


def load_policy_file(policies_file: str | None) -> PolicyFile | None:
    """The policies file ``--policies FILE`` names, loaded (see :meth:`PolicyFile.load`), or None without one."""
    return PolicyFile.load(policies_file) if policies_file else None


def load_extra_policies(policies_file: str | None) -> dict[str, Policy] | None:
    """The policies of ``--policies FILE``; a name that is a preset must define the preset itself."""
    loaded = load_policy_file(policies_file)
    return loaded.policies if loaded else None


def build_rules(rules_spec: str = "official", sets: tuple[str, ...] = (), players: int | None = None) -> Rules:
    """The rule set the options describe (raises ConfigError)."""
    return resolve_rules(rules_spec, sets, players)


def table_spec(
    rules_spec: str = "official",
    sets: tuple[str, ...] = (),
    players: int | None = None,
    policy: str = "random",
    seats: tuple[str, ...] = (),
    policies: PolicyFile | None = None,
) -> TableSpec:
    """The table ``--rules``, ``--set``, ``--players``, ``--policy``, ``--seat`` and ``--policies`` describe.

    The one way the options become a table, for ``simulate``, ``compare`` and
    ``sweep`` alike (``.build()`` gives the :class:`~unocli.study.arm.Arm` to
    play). Checked here, so bad options fail before any game is played.
    """
    table = TableSpec(
        rules=rules_spec,
        sets=tuple(parse_assignment(s) for s in sets),
        players=players,
        policy=policy,
        seats=parse_seats(seats),
        policies=policies,
    )
    table.build()
    return table


def build_policies(
    rules: Rules, policy: str = "random", seats: tuple[str, ...] = (), policies_file: str | None = None
) -> tuple[Policy, ...]:
    """One policy per seat from ``--policy``, ``--seat`` and ``--policies FILE`` (raises ConfigError)."""
    return resolve_policies(rules.players, policy, seats, load_extra_policies(policies_file))


def refuse_without_target(target_error: float | None, *params: str) -> None:
    """Refuse ``--metric`` or ``--max-games`` (by parameter name) given when there is no target error to apply to."""
    for param in params:
        if given(param) and target_error is None:
            raise ConfigError(f"--{param.replace('_', '-')} applies to --target-error: give both, or neither")


def target_options(f: F) -> F:
    """``--target-error X``, ``--metric NAME`` and ``--max-games N`` (precision on demand)."""
    f = click.option(
        "--max-games",
        type=games_type(),
        default=_DEFAULT_MAX_GAMES,
        show_default=True,
        help="With --target-error: stop after this many games per arm even if not reached.",
    )(f)
    f = click.option(
        "--metric",
        default="turns",
        show_default=True,
        help="The metric --target-error applies to (sweep: also the metric plotted).",
    )(f)
    return click.option(
        "--target-error",
        type=float,
        default=None,
        metavar="X",
        help="Play batches until the 95% CI half-width of --metric is at most X; --games is the first batch.",
    )(f)


def bundled(name: str, record: type, *options: Callable[[F], F]) -> Callable[[F], F]:
    """Stack ``options`` on a command and hand their values to it as one argument ``name``, a ``record``.

    ``record`` is a dataclass whose fields are the options' parameter names; the
    options keep their order in ``--help`` (the first given is listed first).
    """
    names = [field.name for field in dataclasses.fields(record)]

    def decorate(f: F) -> F:
        @functools.wraps(f)  # also carries the options already stacked on f (click keeps them on the function)
        def command(*args: Any, **kwargs: Any) -> Any:
            values = {key: kwargs.pop(key) for key in names}
            return f(*args, **kwargs, **{name: record(**values)})

        decorated: F = command
        for option in reversed(options):
            decorated = option(decorated)
        return decorated

    return decorate
