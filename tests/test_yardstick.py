"""The pure helpers of benchmarks/yardstick.py and benchmarks/configs.py, and (slow) the C engine's build and output.

The benchmark scripts are maintainer's tools outside the package; these tests
hold their arithmetic (standard errors, pooling, the agreement check, the
table's figures) to values worked out by hand or by the standard library.
"""

from __future__ import annotations

import importlib.util
import json
import math
import shutil
import statistics
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _load(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(f"bench_{name}", ROOT / "benchmarks" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


yardstick = _load("yardstick")
configs = _load("configs")


def _summary(values: dict[str, list[float]], wins: list[int], first: int, stuck: int = 0) -> dict:
    """A unocli JSON summary (the fields the yardstick reads) of the given per-round values."""
    n = len(next(iter(values.values())))
    return {
        "games": n,
        "metrics": {m: {"mean": statistics.fmean(v), "sd": statistics.stdev(v)} for m, v in values.items()},
        "win_share": [{"seat": s, "wins": w} for s, w in enumerate(wins)],
        "first_player": {"wins": first},
        "outcomes": {"won": sum(wins), "blocked": 0, "capped": n - sum(wins) - stuck, "stuck": stuck},
    }


def test_unocli_summary_gives_back_the_sums_and_sums_of_squares() -> None:
    turns = [40.0, 52.0, 61.0, 47.0, 50.0]
    stats = yardstick.unocli_stats(_summary({"turns": turns}, [2, 1, 1, 0], 3, stuck=1), ("turns",))
    total, sumsq = stats["metrics"]["turns"]
    assert stats["n"] == 5 and math.isclose(total, 250.0) and math.isclose(sumsq, sum(t * t for t in turns))
    assert stats["wins"] == [2, 1, 1, 0] and stats["first"] == 3 and stats["stuck"] == 1 and stats["capped"] == 0


def test_mean_and_standard_error_match_the_statistics_module() -> None:
    xs = [3.0, 9.0, 4.0, 4.0, 10.0, 0.0]
    mean, se = yardstick.mean_se(sum(xs), sum(x * x for x in xs), len(xs))
    assert math.isclose(mean, statistics.fmean(xs)) and math.isclose(se, statistics.stdev(xs) / math.sqrt(len(xs)))
    p, se = yardstick.share_se(30, 120)
    assert p == 0.25 and math.isclose(se, math.sqrt(0.25 * 0.75 / 120))


def test_pool_adds_runs() -> None:
    a = {"n": 2, "metrics": {"turns": (10.0, 52.0)}, "wins": [1, 1], "first": 1, "blocked": 0, "capped": 0, "stuck": 0}
    b = {"n": 3, "metrics": {"turns": (20.0, 150.0)}, "wins": [0, 2], "first": 2, "blocked": 1, "capped": 0, "stuck": 0}
    p = yardstick.pool([a, b])
    assert p["n"] == 5 and p["metrics"]["turns"] == (30.0, 202.0) and p["wins"] == [1, 3] and p["first"] == 3
    assert p["blocked"] == 1


def test_comparisons_cover_every_metric_seat_and_outcome() -> None:
    c = {"n": 100, "metrics": {"turns": (5000.0, 260000.0), "swaps": (0.0, 0.0)}, "wins": [30, 25, 25, 20]}
    c |= {"first": 27, "blocked": 0, "capped": 0, "stuck": 0}
    u = {**c, "capped": 1, "stuck": 2}
    rows = yardstick.comparisons(c, u)
    labels = [r[0] for r in rows]
    assert labels == [
        "mean turns",
        "mean swaps",
        *(f"win share seat {s}" for s in range(4)),
        "first player's win share",
        "share blocked",
        "share capped or stuck",
    ]
    assert rows[-1][2][0] == 0.03  # unocli's stuck rounds count with its capped ones
    assert rows[0][1] == yardstick.mean_se(5000.0, 260000.0, 100)


def test_agreement_counts_z_by_hand() -> None:
    rows = [
        ("a", (10.0, 0.3), (9.0, 0.4)),  # z = 1 / 0.5 = 2
        ("b", (0.0, 0.0), (0.0, 0.0)),  # the same constant: identical, not compared
        ("c", (5.0, 0.6), (5.0, 0.8)),  # z = 0
    ]
    check = yardstick.agreement(rows, 4.0)
    assert check["compared"] == 2 and check["identical"] == 1 and check["ok"]
    assert math.isclose(check["worst"], 2.0) and math.isclose(check["chi2"], 4.0)
    bad = yardstick.agreement([*rows, ("d", (3.0, 0.3), (1.0, 0.4))], 4.0)  # z = 4: not below the limit
    assert not bad["ok"] and bad["failing"] == ["d"]
    const = yardstick.agreement([("e", (0.0, 0.0), (0.5, 0.0))], 4.0)  # two different constants
    assert not const["ok"] and const["worst"] == math.inf


def test_the_c_command_names_the_game() -> None:
    cmd = yardstick.c_command(Path("uno"), 1000, 3, 4, 2, "party/basic", eager=True)
    assert cmd == ["uno", "1000", "3", "4", "2", "--policy", "basic", "--rules", "party"]  # --eager: random only
    assert yardstick.c_command(Path("uno"), 10, 0, 4, 1, "official/random", eager=True)[-1] == "--eager"


def test_configs_figures_by_hand() -> None:
    m = configs.summarise([2.0, 1.0, 3.0], 1_000_000, 50.0)
    assert m["ns_per_round"] == 1000.0 and m["ns_per_round_median"] == 2000.0 and m["ns_per_turn"] == 20.0
    table = configs.markdown([("party, `basic`", m)], {"party, `basic`": {"ns_per_round": 4000.0, "ns_per_turn": 50.0}})
    assert table.splitlines()[2] == "| party, `basic` | 1,000 | 2,000 | 50.0 | 20.0 | 4,000 | 50.0 | 0.25 |"
    assert [c[1:] for c in configs.CONFIGS][3] == ("official", "basic", 10) and len(configs.CONFIGS) == 9


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("cc") is None, reason="no C compiler")
def test_the_c_engine_builds_and_its_counters_add_up(tmp_path: Path) -> None:
    exe = yardstick.build("cc", tmp_path)
    for config in yardstick.CONFIGS:
        out = json.loads(
            subprocess.run(
                yardstick.c_command(exe, 20_000, 1, 4, 2, config, False), capture_output=True, text=True, check=True
            ).stdout
        )
        rules, policy = yardstick.CONFIGS[config]
        assert (out["rules"], out["policy"], out["rounds"]) == (rules, policy, 20_000)
        m = {k: v["sum"] for k, v in out["metrics"].items()}
        assert m["turns"] == m["cards_played"] + m["passes"]  # §9
        assert sum(out["wins"]) == out["outcomes"]["won"] == 20_000 - out["outcomes"]["blocked"] - out["outcomes"]["capped"]
        assert ("jump_ins" in m) == (policy == "basic")
        if rules == "official" and policy == "basic":
            assert m["jump_ins"] == m["swaps"] == m["rotations"] == 0
        if rules == "party":
            assert m["jump_ins"] > 0 and m["swaps"] > 0 and m["rotations"] > 0 and out["metrics"]["max_stack"]["mean"] > 1
    bad = subprocess.run([str(exe), "10", "0", "4", "1", "--rules", "party"], capture_output=True, text=True)
    assert bad.returncode == 2 and "usage" in bad.stderr  # house rules need --policy basic
