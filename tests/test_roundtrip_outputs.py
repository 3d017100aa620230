"""What unocli writes comes back identical when read (issue 25, item 2: tables and ``--json``).

``simulate --out``, ``compare --out`` and ``sweep`` write tables as CSV and
Parquet (unocli/files.py); ``simulate --json`` and ``compare --json`` print
JSON. Each is written here with hostile names and values: policy names with
quotes, backslashes, ``#`` and non-ASCII letters (from a policies file), arm
names with newlines, commas and quotes (from an experiment file), and an
empty string where a knob allows one (``attack = ""``). Each is read back,
by pandas or by unocli, and compared exactly: the CSV against the Parquet
(pandas reads the CSV with the Parquet's column types), the JSON against the
table, the names against the names given. Baselines, tuned policy files and
report folders are tested by their owners.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import pandas as pd
import pytest
from click.testing import CliRunner
from pandas.testing import assert_frame_equal

from unocli.cli.main import cli
from unocli.game.policies import Policy, load_policies_file
from unocli.game.rules import Rules, resolve_rules

# Names a policies file may hold (tests/test_input_checks.py: the ones it may not).
POLICY_NAMES = ["qu\"ote 'x'", "é☃ 🂠 #1", "back\\slash", "semi;colon x.y"]
# Names an arm may have in an experiment file: anything, a newline included.
ARM_NAMES = ["two\nlines", 'a,"b"', "é☃", "#hash", " padded "]


def toml_string(text: str) -> str:
    return json.dumps(text, ensure_ascii=False)  # a JSON string of these names is a TOML basic string


@pytest.fixture(scope="module")
def files(tmp_path_factory) -> dict[str, Path]:
    d = tmp_path_factory.mktemp("roundtrip")
    policies = d / "hostile.toml"
    policies.write_text(
        "".join(
            f'[{toml_string(name)}]\nbase = "basic"\nbluff = {i / 10}\nattack = ""\ndescription = {toml_string(name * 2)}\n'
            for i, name in enumerate(POLICY_NAMES)
        ),
        encoding="utf-8",
    )
    compare = d / "compare.toml"
    compare.write_text(
        'policies = "hostile.toml"\nseed = 3\ngames = 30\nplayers = [3]\n[base]\npolicy = "basic"\n'
        + "".join(
            f"[arms.{toml_string(name)}]\npolicy = {toml_string(POLICY_NAMES[i % len(POLICY_NAMES)])}\n"
            for i, name in enumerate(ARM_NAMES)
        ),
        encoding="utf-8",
    )
    sweep = d / "sweep.toml"
    sweep.write_text(
        'policies = "hostile.toml"\nseed = 4\ngames = 20\nplayers = [3]\n[grid]\n'
        f'"policy@0" = [{", ".join(toml_string(n) for n in POLICY_NAMES[:3])}]\n'
        '"attack@1" = ["", "draw_two>skip"]\n',
        encoding="utf-8",
    )
    return {"root": d, "policies": policies, "compare": compare, "sweep": sweep}


def run(*args: str) -> str:
    result = CliRunner().invoke(cli, list(args))
    assert result.exit_code == 0, result.output
    return result.output


def read_csv_like(path: Path, like: pd.DataFrame) -> pd.DataFrame:
    """The CSV at ``path`` read with the column types of ``like`` (the Parquet of the same table).

    A text column keeps an empty cell as "" (pandas would read NaN); a number
    column reads one as NaN. ``float_precision="round_trip"``: the parser that
    reads back exactly the shortest repr pandas wrote.
    """
    text = [c for c in like.columns if not pd.api.types.is_numeric_dtype(like[c])]
    numbers = {c: [""] for c in like.columns if c not in text}
    df = pd.read_csv(path, keep_default_na=False, na_values=numbers, dtype={c: str for c in text})
    return df.astype(like.dtypes.to_dict())


def test_the_hostile_policies_file_loads_with_every_name_as_written(files):
    loaded = load_policies_file(files["policies"])
    assert list(loaded) == POLICY_NAMES
    assert [p.attack for p in loaded.values()] == [""] * len(POLICY_NAMES)


# ---------------------------------------------------------------- compare


def test_compare_tables_and_json_come_back_identical(files):
    d = files["root"]
    run("compare", str(files["compare"]), "--out", str(d / "c.csv"))
    run("compare", str(files["compare"]), "--out", str(d / "c.parquet"))
    doc = json.loads(run("compare", str(files["compare"]), "--json"))
    parquet = pd.read_parquet(d / "c.parquet")
    assert list(dict.fromkeys(parquet["arm"])) == ARM_NAMES  # every name exactly as given, newline and padding kept
    assert set(parquet["baseline"]) == {ARM_NAMES[0]}
    assert_frame_equal(read_csv_like(d / "c.csv", parquet), parquet, check_exact=True)
    assert doc["baseline"] == ARM_NAMES[0]
    from_json = pd.DataFrame(doc["rows"]).astype(parquet.dtypes.to_dict())  # null comes back as NaN
    # Every float exactly (to_json rounded to 10 decimals before: an sd of 26.281071835868968 came back 26.2810718359).
    assert_frame_equal(from_json, parquet, check_exact=True)


# ---------------------------------------------------------------- sweep


def test_sweep_csv_and_parquet_come_back_identical(files):
    out = files["root"] / "sw"
    run("sweep", str(files["sweep"]), "--out", str(out), "--quiet")
    parquet = pd.read_parquet(out / "sweep.parquet")
    assert sorted(set(parquet["policy@0"])) == sorted(POLICY_NAMES[:3])
    assert set(parquet["attack@1"]) == {"", "draw_two>skip"}  # the empty string stays an empty string
    assert len(parquet.drop_duplicates(["policy@0", "attack@1"])) == 6  # every cell, each with a row per metric
    assert_frame_equal(read_csv_like(out / "sweep.csv", parquet), parquet, check_exact=True)


# ---------------------------------------------------------------- simulate


@pytest.mark.parametrize("extra", [[], ["--rotate-seats"], ["--match"]], ids=["rounds", "rotated", "matches"])
def test_simulate_rows_come_back_identical(files, extra):
    d = files["root"]
    args = ["simulate", "--policies", str(files["policies"]), "--seat", f"0={POLICY_NAMES[0]}", "--seat", f"1={POLICY_NAMES[1]}"]
    args += ["--games", "12", "--seed", "9", "--players", "3", "--set", "target_score=60", *extra]
    run(*args, "--out", str(d / "rows.csv"), "--quiet")
    run(*args, "--out", str(d / "rows.parquet"), "--quiet")
    parquet = pd.read_parquet(d / "rows.parquet")
    assert len(parquet) == 12 * (3 if extra == ["--rotate-seats"] else 1)
    assert_frame_equal(read_csv_like(d / "rows.csv", parquet), parquet, check_exact=True)


def test_simulate_json_rules_and_policies_rebuild_what_was_played(files):
    """The JSON's rules and policies, read back by unocli, are the rules and policies the run resolved."""
    sets = ["--set", "stacking=progressive", "--set", "uno_penalty=3", "--players", "3"]
    doc = json.loads(
        run(
            "simulate",
            "--policies",
            str(files["policies"]),
            "--policy",
            POLICY_NAMES[2],
            "--seat",
            f"1={POLICY_NAMES[3]}:bluff=0.123456789012345,attack=",
            "--games",
            "10",
            "--json",
            *sets,
        )
    )
    assert Rules(**doc["rules"]) == resolve_rules("official", ["stacking=progressive", "uno_penalty=3"], 3)
    loaded = load_policies_file(files["policies"])
    expected = [
        loaded[POLICY_NAMES[2]],
        loaded[POLICY_NAMES[3]].replace(bluff="0.123456789012345", attack=""),
        loaded[POLICY_NAMES[2]],
    ]
    assert [Policy(**p) for p in doc["policies"]] == expected
    assert doc["policies"][1]["bluff"] == 0.123456789012345 and doc["policies"][1]["attack"] == ""
    for value in doc["win_share"] if isinstance(doc["win_share"], list) else []:
        assert not (isinstance(value, float) and math.isnan(value))  # NaN is written as null, JSON has no NaN
