"""Random, malformed and extreme arguments and files through every command (hypothesis drives the CLI in-process).

Every case must end with a documented exit code (0, 1 or 2; check also 3), print no traceback and no "internal
error" (a bug in unocli), and leave no temporary or half-written file behind; a destination that did not exist is
still absent after a failed run. Game counts are kept small (the fuzzer's own ``--games`` values are small or
invalid) and each case has a time limit. The default run tries a short budget; ``-m slow`` a long one.
"""

from __future__ import annotations

import json
import os
import re
import signal
import uuid
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from unocli.cli.main import cli

CASE_SECONDS = 120  # one case's limit: the slowest legal case (a report of a tiny experiment) takes a few seconds
PLACEHOLDER = re.compile(r"\{(\w+)\}")
TEMP_NAME = re.compile(r"^\..*\.(tmp|old)$|^\.unocli-probe")

TINY_EXPERIMENT = (
    'seed = 5\ngames = 20\nplayers = [3]\n[base]\nrules = "official"\npolicy = "basic"\n[arms.a]\n[arms.b]\nrules = "stacking"\n'
)
TINY_SWEEP = 'games = 20\n[grid]\n"bluff@0" = [0, 1]\n'
TINY_BASELINE_EXPERIMENT = TINY_EXPERIMENT.replace("games = 20", "games = 500")


@pytest.fixture(scope="module")
def world(tmp_path_factory) -> dict[str, str]:
    """Files of every kind the fuzzer names: valid, malformed, binary, missing, a folder, a baseline."""
    d = tmp_path_factory.mktemp("fuzz")
    files = {
        "exp": ("exp.toml", TINY_EXPERIMENT),
        "sweep_exp": ("sweep.toml", TINY_SWEEP),
        "bad_toml": ("bad.toml", "games = [\n"),
        "unknown_key": ("unknown.toml", "gmaes = 3\n"),
        "rules_file": ("rules.toml", "hand_size = 5\nplayers = 3\n"),
        "policies_file": ("policies.toml", '[cautious]\nbase = "basic"\nbluff = 0.0\n'),
        "redefining": ("redef.toml", "[basic]\nbluff = 1.0\n"),
        "bad_json": ("bad.json", "{"),
        "not_baseline": ("other.json", '{"format": "x"}'),
        "empty": ("empty.toml", ""),
    }
    paths = {}
    for key, (name, text) in files.items():
        (d / name).write_text(text, encoding="utf-8")
        paths[key] = str(d / name)
    (d / "binary.bin").write_bytes(bytes(range(256)) * 4)
    paths["binary"] = str(d / "binary.bin")
    (d / "folder").mkdir()
    paths["folder"] = str(d / "folder")
    paths["missing"] = str(d / "missing.toml")
    (d / "base.toml").write_text(TINY_BASELINE_EXPERIMENT, encoding="utf-8")
    result = CliRunner().invoke(cli, ["baseline", str(d / "base.toml"), "-o", str(d / "baseline.json")])
    assert result.exit_code == 0, result.output
    paths["baseline"] = str(d / "baseline.json")
    doc = json.loads((d / "baseline.json").read_text())
    doc["arms"][0]["n"] = "many"
    (d / "corrupt.json").write_text(json.dumps(doc))
    paths["corrupt"] = str(d / "corrupt.json")
    paths["root"] = str(d)
    return paths


# ---------------------------------------------------------------- values

GARBAGE = st.sampled_from(["", " ", "-", "--", "nan", "inf", "-inf", "1e309", "0x10", "١٢", "☃", "a=b=c", "0=", "=", ":", "\t"])
SMALL = st.integers(-3, 40).map(str)
HUGE = st.sampled_from(["9223372036854775807", "9223372036854775808", "18446744073709551615", "18446744073709551616", "1" * 40])
NUMBER = st.one_of(SMALL, HUGE, GARBAGE, st.floats(allow_nan=True, allow_infinity=True).map(str))
GAMES = st.one_of(st.integers(1, 30).map(str), st.sampled_from(["0", "-1", "x", "1.5", "9223372036854775808", "1" * 30]))
SEED = st.one_of(st.integers(0, 2**64 + 2).map(str), st.sampled_from(["-1", "x", "18446744073709551616"]))
RULES = st.sampled_from(
    ["official", "stacking", "party", "seven-o", "nope", "{rules_file}", "{bad_toml}", "{binary}", "{folder}", "{missing}"]
)
SETS = st.sampled_from(
    [
        "hand_size=5",
        "hand_size=0",
        "hand_size=99",
        "stacking=progressive",
        "stacking=maybe",
        "nofield=1",
        "players=3",
        "x",
        "max_turns=50",
    ]
)
POLICY = st.sampled_from(
    ["random", "basic", "smart", "basic:bluff=0.3", "basic:bluff=2", "basic:nope=1", "cautious", "nope", ":", "basic:"]
)
SEAT = st.sampled_from(["0=basic", "0=smart", "1=cautious", "9=basic", "x=basic", "0=", "-1=basic", "0=nope"])
POLICIES_FILE = st.sampled_from(["{policies_file}", "{redefining}", "{binary}", "{bad_toml}", "{missing}", "{folder}", "{empty}"])
OUT_FILE = st.sampled_from(
    ["{out}/o.csv", "{out}/o.parquet", "{out}/o.txt", "{out}/no/o.csv", "/proc/o.csv", "{folder}", "{out}"]
)
OUT_DIR = st.sampled_from(["{out}/d", "{out}/no/d", "/proc/d", "{exp}", "{out}"])
GRID = st.sampled_from(
    ["bluff=0,1", "bluff=0:1:0.5", "bluff=", "nope=1", "bluff=0:1:0.0000001", "bluff=0:1:-1", "hand_size=5,7", "bluff@9=0,1"]
)
ARM = st.sampled_from(
    ["official", "stacking", "basic:bluff=0.3", "cautious", "p4: --set uno_penalty=4", "bad", "x: --bogus 1", ":", "s: --seat 0"]
)
METRICS = st.sampled_from(["turns", "win_0", "turns,cards_drawn", "nope", "", ",", "win_9"])
EXPERIMENT = st.sampled_from(
    ["{exp}", "{sweep_exp}", "{bad_toml}", "{unknown_key}", "{binary}", "{missing}", "{folder}", "{empty}"]
)
BASELINE = st.sampled_from(["{baseline}", "{corrupt}", "{bad_json}", "{not_baseline}", "{binary}", "{missing}", "{exp}"])
FRACTION = st.sampled_from(["0.001", "0.5", "0", "1", "-1", "2", "nan", "x"])
THREADS = st.sampled_from(["1", "2", "0", "1000", "x"])

TABLE = {"--rules": RULES, "--set": SETS, "--players": NUMBER, "--policy": POLICY, "--seat": SEAT}
PLAY = {"--games": GAMES, "--seed": SEED, "--threads": THREADS}
FLAGS = {"--match", "--no-match", "--json", "--quiet", "--rotate-seats", "--exact", "--quick", "--full", "--yes"}

COMMANDS: dict[tuple[str, ...], dict[str, st.SearchStrategy[str] | None]] = {
    ("simulate",): {
        **TABLE,
        **PLAY,
        "--policies": POLICIES_FILE,
        "--out": OUT_FILE,
        "--metric": METRICS,
        "--target-error": FRACTION,
        "--match": None,
        "--rotate-seats": None,
        "--json": None,
    },
    ("compare",): {
        **TABLE,
        **PLAY,
        "--policies": POLICIES_FILE,
        "--arm": ARM,
        "--baseline": ARM,
        "--metrics": METRICS,
        "--out": OUT_FILE,
        "--json": None,
    },
    ("sweep",): {
        **TABLE,
        **PLAY,
        "--policies": POLICIES_FILE,
        "--grid": GRID,
        "--metrics": METRICS,
        "--out": OUT_DIR,
        "--yes": None,
    },
    ("report",): {"--out": OUT_DIR, "--threads": THREADS, "--quick": None, "--full": None},
    ("baseline",): {"-o": OUT_FILE, "--seed": SEED, "--games": st.sampled_from(["1", "499", "0", "x", "9223372036854775808"])},
    ("check",): {
        "--games": GAMES,
        "--seed": SEED,
        "--alpha": FRACTION,
        "--tolerance": FRACTION,
        "--junit": OUT_FILE,
        "--exact": None,
    },
    ("trace",): {**TABLE, "--seed": SEED, "--game": SEED, "--policies": POLICIES_FILE},
    ("rules", "show"): {"--set": SETS, "--players": NUMBER},
    ("rules", "list"): {},
    ("policies", "show"): {"--policies": POLICIES_FILE},
    ("policies", "list"): {},
}
POSITIONAL = {
    ("compare",): st.one_of(st.none(), EXPERIMENT),
    ("sweep",): st.one_of(st.none(), EXPERIMENT),
    ("report",): EXPERIMENT,  # never none: the shipped set takes minutes
    ("baseline",): EXPERIMENT,
    ("check",): BASELINE,
    ("rules", "show"): RULES,
    ("policies", "show"): POLICY,
}
SMALL_GAMES = {("simulate",): "5", ("compare",): "5", ("sweep",): "5", ("check",): "20"}
TARGETED = {("simulate",), ("compare",), ("sweep",)}  # take --target-error: at most a few hundred games per arm


@st.composite
def invocations(draw) -> list[str]:
    """A command line: a command, maybe its positional argument, then options (sometimes garbage tokens)."""
    command = draw(st.sampled_from(sorted(COMMANDS)))
    options = COMMANDS[command]
    args = list(command)
    if command in SMALL_GAMES:
        args += ["--games", SMALL_GAMES[command]]  # a later --games from the fuzzer (small or invalid) wins
    if command in TARGETED:
        args += ["--max-games", "300"]  # --target-error 0.001 would otherwise play to the default limit
    if command in (("sweep",), ("report",)):
        args += ["--out", "{out}/default"]  # never the default folder in the working directory; a later --out wins
    if command == ("baseline",):
        args += ["-o", "{out}/b.json"]  # required; a later -o from the fuzzer wins
    if command == ("trace",):
        args += ["--set", "max_turns=2000"]  # a trace of a few thousand turns at most
    if command in POSITIONAL:
        value = draw(POSITIONAL[command])
        if value is not None:
            args.append(value)
    names = sorted(options)
    for _ in range(draw(st.integers(0, 4)) if names else 0):
        name = draw(st.sampled_from(names))
        strategy = options[name]
        args += [name] if strategy is None else [name, draw(strategy)]
    if draw(st.integers(0, 3)) == 0:  # a quarter of the cases get one stray token somewhere
        token = draw(st.one_of(GARBAGE, st.sampled_from(sorted(FLAGS)), st.text(max_size=8)))
        args.insert(draw(st.integers(len(command), len(args))), token)
    return args


# ---------------------------------------------------------------- the property


class CaseTooSlow(BaseException):  # not an Exception: the CLI's last-resort handler must not swallow it
    pass


def _alarm(signum, frame):
    raise CaseTooSlow(f"a case took over {CASE_SECONDS} s")


def _leftovers(root: Path) -> list[str]:
    return [str(p) for p in root.rglob("*") if TEMP_NAME.match(p.name)]


TRIED: list[int] = [0]


def _one_case(world: dict[str, str], args: list[str]) -> None:
    out = Path(world["root"]) / "runs" / uuid.uuid4().hex
    out.mkdir(parents=True)
    names = {**world, "out": str(out)}
    filled = [PLACEHOLDER.sub(lambda m: names.get(m.group(1), m.group(0)), a) for a in args]
    # Each case runs in a folder of its own: a stray token can turn a flag into a relative path
    # (`--out --quiet`), which must land there, never in the folder the tests were started from.
    here = Path(world["root"]) / "cwd" / out.name
    here.mkdir(parents=True)
    started_in = os.getcwd()
    previous = signal.signal(signal.SIGALRM, _alarm)
    signal.alarm(CASE_SECONDS)
    try:
        os.chdir(here)
        result = CliRunner().invoke(cli, filled)
    finally:
        os.chdir(started_in)
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)
    TRIED[0] += 1
    event(f"{' '.join(args[: 2 if args[0] in ('rules', 'policies') else 1])}: exit {result.exit_code}")
    shown = f"unocli {' '.join(filled)}\n{result.output}"
    assert not isinstance(result.exception, CaseTooSlow), shown
    allowed = {0, 1, 2, 3} if filled[0] == "check" else {0, 1, 2}
    assert result.exit_code in allowed, shown
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise AssertionError(shown) from result.exception
    assert "Traceback" not in result.output, shown
    assert "internal error" not in result.output, shown
    assert _leftovers(Path(world["root"])) == [], shown
    if result.exit_code not in (0, 3):
        assert list(out.iterdir()) == [], shown  # a failed run leaves nothing in a folder it was given


SETTINGS = {
    "deadline": None,
    "derandomize": True,  # the same cases on every run: a finding is reproducible
    "suppress_health_check": [HealthCheck.too_slow, HealthCheck.data_too_large],
}


@settings(max_examples=150, **SETTINGS)
@given(args=invocations())
def test_fuzz_short(world, args) -> None:
    _one_case(world, args)


@pytest.mark.slow
@settings(max_examples=1500, **{**SETTINGS, "derandomize": False})
@given(args=invocations())
def test_fuzz_long(world, args) -> None:
    _one_case(world, args)


@pytest.mark.parametrize(
    "args",
    [
        ["simulate", "--policies", "a\x00b", "--games", "10"],
        ["baseline", "\x00", "-o", "x.json"],
        ["simulate", "--games", "10", "--out", "a\x00.csv"],
        ["compare", "\x00"],
    ],
)
def test_a_nul_byte_in_an_argument_is_one_sentence_and_exit_2(args) -> None:
    """Found by the long fuzz run: a NUL byte reached os calls and came back as an internal error."""
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 2
    assert result.output.strip() == "Error: an argument contains a NUL byte (\\x00), which no file name or value may hold"


@pytest.mark.parametrize(
    ("args", "name"),
    [
        (["simulate", "--games", "10", "--rules", ""], "--rules"),  # pathlib read '' as '.': "'.' is a folder"
        (["simulate", "--games", "10", "--rules=  "], "--rules"),
        (["report", "--quick", "--out", ""], "--out"),  # '.': "the current folder"
        (["report", ""], "EXPERIMENTS"),
        (["tune", "-o", "", "space.toml"], "--out"),
        (["simulate", "--games", "10", "--set", "hand_size=5", "--set", ""], "--set"),
        (["sweep", "--games", "10", "--grid", ""], "--grid"),
        (["rules", "show", ""], "NAME_OR_FILE"),
        (["simulate", "--games", "10", "--policy", " "], "--policy"),
    ],
)
def test_an_empty_value_is_refused_by_its_name_before_anything_reads_it(args, name, tmp_path, monkeypatch) -> None:
    """An empty value names no file, preset or policy; before, '' was read as '.', the current folder."""
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 2, result.output
    assert result.output.strip() == f"Error: {name} is given an empty value, which names nothing"
    assert list(tmp_path.iterdir()) == []  # nothing written


def test_given_values_pass_the_empty_value_check(tmp_path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    ok = CliRunner().invoke(cli, ["simulate", "--games", "10", "--rules", "official", "--set", "hand_size=5"])
    assert ok.exit_code == 0, ok.output


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["simulate", "--games", "1__0"], "Invalid value for '--games': must be a whole number from 1 to 2**63 - 1, not '1__0'"),
        (["simulate", "--games", "10", "--seed", "\u0663"], "Invalid value for '--seed': must be a whole number from 0"),
        (["simulate", "--games", "10", "--players", "\u0663"], "Invalid value for '--players': '\u0663' is not a whole number"),
        (["simulate", "--games", "_4"], "Invalid value for '--games': must be a whole number from 1 to 2**63 - 1, not '_4'"),
        (["simulate", "--games", "10", "--seed", "100_"], "Invalid value for '--seed': must be a whole number from 0"),
        (["tune", "space.toml", "--first", "\u0663"], "Invalid value for '--first': '\u0663' is not a whole number"),
        (["simulate", "--games", "10", "--set", "hand_size=5__0"], "rule field 'hand_size' must be a whole number between 1"),
        (["simulate", "--games", "10", "--players", "four"], "Invalid value for '--players': 'four' is not a valid integer"),
    ],
)
def test_a_whole_number_is_written_as_in_toml(args, said, tmp_path, monkeypatch) -> None:
    """Game counts, seeds, rule fields and knobs dropped every underscore ("1__0", "_4" and "100_" read as 10, 4 and
    100) and int() reads an Arabic-Indic three as 3, which no TOML file can say; an underscore between digits reads
    as TOML reads it ("1_0" is 10 on the command line and in a file)."""
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(cli, args)
    assert result.exit_code != 0, result.output
    assert result.output.startswith(f"Error: {said}"), result.output
    grouped = CliRunner().invoke(cli, ["simulate", "--games", "10_000", "--players", "3", "--set", "hand_size=1_0"])
    assert grouped.exit_code == 0 and "won 10,000" in grouped.output, grouped.output


def test_an_empty_policies_file_means_none_and_says_so() -> None:
    """--policies '' is the one empty value with a meaning (no policies file, in place of an experiment file's)."""
    result = CliRunner().invoke(cli, ["simulate", "--games", "10", "--policies", ""])
    assert result.exit_code == 0, result.output
    for command in ("compare", "sweep"):
        assert "--policies '' leaves it none" in " ".join(CliRunner().invoke(cli, [command, "--help"]).output.split())
