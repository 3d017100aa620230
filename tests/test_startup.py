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
    # The check above can fail: simulate's module loads numba's kernel wrapper, and compare's pandas.
    assert {"numba", "numpy"} <= set(heavy_modules(["simulate", "--help"]))
    assert "pandas" in heavy_modules(["compare", "--help"])


def test_simulate_prints_its_summary_without_pandas() -> None:
    # pandas takes ~0.6 s to import, as long as the rest of a short run; --json and --out still use it.
    assert "pandas" not in heavy_modules(["simulate", "--games", "20", "--quiet"])


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


# ---------------------------------------------------------------- simulate's text summary without pandas


@pytest.mark.parametrize(
    "columns",
    [
        {"metric": ["turns", "challenges_won"], "mean": ["50.7", "0.00"], "sd": ["25.29", "0"]},
        {"seat": [0, 1, 10], "policy": ["random", "(rotated)", "x"], "wins": ["1,000", "3", "27"]},
        {"policy": ["a", "bb"], "seats": [2, 12], "deals": ["3,000", "7"]},
        {"a": ["x", "yy"], "n": [-1, 100000]},
        {"a": ["x", "yy"], "n": [1, 100000]},
        {"nnnn": [-1, 1], "m": [-100000, 1]},
        {"threads": [1, 2], "rules": ["official", "party"]},
    ],
)
def test_text_table_prints_what_pandas_prints(columns: dict[str, list]) -> None:
    pd = pytest.importorskip("pandas")
    from unocli.cli.run import text_table

    assert text_table(columns) == pd.DataFrame(columns).to_string(index=False)


def _pandas_tables(result) -> list[str]:
    """The summary and seat tables as the CLI printed them from the result's DataFrames before it dropped pandas."""
    import pandas as pd

    from unocli.cli.run import _short
    from unocli.report import fmt

    s = result.summary()
    metrics = pd.DataFrame(
        {
            "metric": s["metric"],
            "mean": [fmt.point(m, lo, hi) for m, lo, hi in zip(s["mean"], s["ci_low"], s["ci_high"], strict=True)],
            "95% CI": [fmt.bounds(lo, hi) for lo, hi in zip(s["ci_low"], s["ci_high"], strict=True)],
            "sd": s["sd"].map(fmt.sig),
        }
    )
    w = result.win_shares()
    seats = pd.DataFrame(
        {
            "seat": w["seat"],
            "policy": ["(rotated)" if result.rotation is not None else _short(p) for p in result.policies],
            "wins": w["wins"].map(fmt.count),
            "win share": [
                fmt.point(p, lo, hi, kind="share") for p, lo, hi in zip(w["share"], w["ci_low"], w["ci_high"], strict=True)
            ],
            "95% CI (Wilson)": [fmt.bounds(lo, hi, kind="share") for lo, hi in zip(w["ci_low"], w["ci_high"], strict=True)],
        }
    )
    return [metrics.to_string(index=False), seats.to_string(index=False)]


@pytest.mark.parametrize("match", [False, True], ids=["rounds", "matches"])
def test_text_summary_shows_the_results_summary(match: bool) -> None:
    """format_result computes its figures without DataFrames; they are those of summary() and win_shares()."""
    from unocli.cli.run import format_result
    from unocli.game.policies import preset
    from unocli.game.rules import Rules
    from unocli.study.simulate import simulate

    rules = Rules(players=3, seven_o=True)
    result = simulate(rules, (preset("basic"), preset("random"), preset("smart")), games=300, seed=5, match=match)
    text = format_result(result)
    for table in _pandas_tables(result):
        assert table in text
