"""Start-up: the light commands load none of the heavy libraries (issue 14, item 4).

``unocli --help``, ``--version``, ``rules list/show`` and ``policies
list/show`` must start in well under a second; numba, NumPy, pandas, SciPy
and matplotlib each cost 0.1-1 s to import, so none may load until a command
needs it. Each command runs in a fresh interpreter, which reports the heavy
modules it ended up with.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

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


def heavy_modules(args: list[str], timeout: float = 120) -> list[str]:
    """The heavy top-level modules loaded by ``unocli ARGS`` in a fresh interpreter."""
    code = f"HEAVY = {HEAVY!r}\n" + _PROBE
    done = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, check=True, timeout=timeout)
    return json.loads(done.stdout.rpartition("HEAVY=")[2])


@pytest.mark.parametrize("args", LIGHT, ids=" ".join)
def test_light_commands_load_no_heavy_module(args: list[str]) -> None:
    assert heavy_modules(args) == []


def test_probe_sees_a_heavy_import() -> None:
    # The check above can fail: simulate's module loads numba's kernel wrapper, and compare's pandas.
    assert {"numba", "numpy"} <= set(heavy_modules(["simulate", "--help"]))
    assert "pandas" in heavy_modules(["compare", "--help"])


@pytest.mark.parametrize("extra", [[], ["--json"]], ids=["text", "json"])
def test_simulate_prints_its_summary_without_pandas(extra: list[str]) -> None:
    # pandas takes ~0.6 s to import, as long as the rest of a short run; --out and --rotate-seats still use it.
    # The kernel may have to compile first (a minute or two on a busy machine).
    assert "pandas" not in heavy_modules(["simulate", "--games", "20", "--quiet", *extra], timeout=900)


def test_simulate_json_without_pandas_equals_the_tables() -> None:
    """--json is built from plain rows; its figures are the DataFrame methods' figures."""
    from unocli.game.rules import Rules
    from unocli.study.simulate import simulate

    res = simulate(Rules(), games=300, seed=5)
    doc = res.to_json()
    summary = res.summary().set_index("metric")
    assert set(doc["metrics"]) == set(summary.index)
    for metric, entry in doc["metrics"].items():
        row = summary.loc[metric]
        assert [entry["mean"], entry["sd"], *entry["ci95"]] == [row["mean"], row["sd"], row["ci_low"], row["ci_high"]]
    shares = res.win_shares()
    assert [e["wins"] for e in doc["win_share"]] == shares["wins"].tolist()
    assert [e["ci95"] for e in doc["win_share"]] == shares[["ci_low", "ci_high"]].values.tolist()
    places = res.place_shares()
    assert [e["share"] for e in doc["win_share_by_place_after_dealer"]] == places["share"].tolist()


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

    from unocli.cli.run import policy_name
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
            "policy": [
                "(rotated)" if result.rotation is not None else policy_name(result, s) for s in range(len(result.policies))
            ],
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


# ---------------------------------------------------------------- the remembered list of kernel sources


@pytest.fixture
def package_copy(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A copy of the package that ``unocli.kernel._cache`` reads instead of this one (nothing is imported from it)."""
    from unocli.kernel import _cache

    dest = tmp_path / "src" / "unocli"
    shutil.copytree(_cache._PACKAGE, dest, ignore=shutil.ignore_patterns("__pycache__", "*.nbi", "*.nbc"))
    monkeypatch.setattr(_cache, "_PACKAGE", dest)
    monkeypatch.setattr(_cache, "_ROOT", dest.parent)
    return dest


def _parses(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Count the calls of the parsing search behind the memo."""
    from unocli.kernel import _cache

    calls: list[int] = []
    real = _cache.kernel_sources
    monkeypatch.setattr(_cache, "kernel_sources", lambda: calls.append(1) or real())
    return calls


def test_kernel_sources_are_remembered_until_a_file_changes(package_copy: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from unocli.kernel import _cache

    calls = _parses(monkeypatch)
    first = _cache.stamped_sources()
    assert len(calls) == 1 and package_copy / "game" / "rules.py" in first
    assert _cache.stamped_sources() == first and len(calls) == 1  # remembered: no parsing
    # A kernel module that starts importing another unocli module: the list is found again and grows.
    encode = package_copy / "kernel" / "encode.py"
    encode.write_text(encode.read_text() + "\nfrom unocli.report import fmt  # noqa: E402\n")
    second = _cache.stamped_sources()
    assert len(calls) == 2 and package_copy / "report" / "fmt.py" in second
    assert _cache.stamped_sources() == second and len(calls) == 2


def test_a_new_kernel_module_or_a_bad_memo_is_noticed(package_copy: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from unocli.kernel import _cache

    calls = _parses(monkeypatch)
    _cache.stamped_sources()
    (package_copy / "kernel" / "extra.py").write_text("X = 1\n")
    assert package_copy / "kernel" / "extra.py" in _cache.stamped_sources() and len(calls) == 2
    memo = _cache._memo_file()
    assert memo is not None and memo.is_relative_to(package_copy)
    for text in ("not json", "[]", '{"files": ["/nonexistent.py"], "signature": []}'):
        memo.write_text(text)
        assert package_copy / "kernel" / "extra.py" in _cache.stamped_sources()
    assert len(calls) == 5


def test_the_stamp_hashes_the_files_contents_even_when_the_list_is_remembered(
    package_copy: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from unocli.kernel import _cache

    before = _cache.kernel_stamp()
    rules = package_copy / "game" / "rules.py"
    stat = rules.stat()
    rules.write_text(rules.read_text().replace("seven_o", "seven_0"))  # same size
    os.utime(rules, ns=(stat.st_atime_ns, stat.st_mtime_ns))  # and the same time: the memo is reused
    calls = _parses(monkeypatch)
    assert _cache.kernel_stamp() != before and calls == []


# ---------------------------------------------------------------- the garbage collector during start-up


def test_commands_run_with_the_collector_on() -> None:
    """main() pauses the collector only while the command loads: a long run must still free its cycles."""
    code = """
import gc, sys, click
from unocli.cli import main as m

@m.cli.command("probe-gc")
def probe() -> None:
    click.echo(f"enabled={gc.isenabled()} frozen={gc.get_freeze_count()}")

sys.argv = ["unocli", "probe-gc"]
m.main()
"""
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    enabled, frozen = (part.partition("=")[2] for part in done.stdout.split())
    assert enabled == "True"
    assert int(frozen) > 10_000  # the start-up objects (click, unocli) are set aside
