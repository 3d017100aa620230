"""Start-up: the light commands load none of the heavy libraries (issue 14, item 4).

``unocli --help``, ``--version``, ``rules list/show`` and ``policies
list/show`` must start in well under a second; numba, NumPy, pandas, SciPy
and matplotlib each cost 0.1-1 s to import, so none may load until a command
needs it. Each command runs in a fresh interpreter, which reports the heavy
modules it ended up with.
"""

from __future__ import annotations

import json
import subprocess
import sys

import click
import pytest

from unocli.cli.main import LAZY_COMMANDS, LAZY_HELP, cli

HEAVY = ("numba", "numpy", "pandas", "scipy", "matplotlib", "dask")

LIGHT = (
    ["--help"],
    ["--version"],
    ["rules", "list"],
    ["rules", "show"],
    ["rules", "show", "party", "--players", "6"],
    ["policies", "list"],
    ["policies", "show"],
    ["policies", "show", "basic:bluff=0.3"],
)

_PROBE = """
import json, sys
from unocli.cli.main import cli
try:
    cli.main(sys.argv[1:], prog_name="unocli", standalone_mode=False)
finally:
    heavy = sorted({m.partition(".")[0] for m in sys.modules} & set(HEAVY))
    print("\\nHEAVY=" + json.dumps(heavy))
"""


def heavy_modules(args: list[str]) -> list[str]:
    """The heavy top-level modules loaded by ``unocli ARGS`` in a fresh interpreter."""
    code = f"HEAVY = {HEAVY!r}\n" + _PROBE
    done = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, check=True, timeout=120)
    return json.loads(done.stdout.rpartition("HEAVY=")[2])


@pytest.mark.parametrize("args", LIGHT, ids=" ".join)
def test_light_commands_load_no_heavy_module(args: list[str]) -> None:
    assert heavy_modules(args) == []


def test_probe_sees_a_heavy_import() -> None:
    # The check above can fail: simulate's module loads pandas and numba's kernel wrapper.
    assert {"pandas", "numpy"} <= set(heavy_modules(["simulate", "--help"]))


def _help(group: click.Group) -> str:
    with click.Context(group, info_name="unocli") as ctx:
        return group.get_help(ctx)


def test_lazy_help_matches_the_commands() -> None:
    """LAZY_HELP is each command's own first docstring line, and --help reads the same either way."""
    lazy_text = _help(cli)
    with click.Context(cli) as ctx:
        for name in LAZY_COMMANDS:
            command = cli.get_command(ctx, name)
            assert command is not None and command.help is not None
            assert command.help.strip().splitlines()[0] == LAZY_HELP[name], name
    assert _help(cli) == lazy_text  # now every command is loaded and describes itself
    assert set(LAZY_HELP) == set(LAZY_COMMANDS)
