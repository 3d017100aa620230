"""Every input file and the environment checked before any game (issue 25, items 3-5).

Each example of the issue in this scope gives one sentence naming the file, the
field and the problem, a documented non-zero exit (1 for a bad file or
environment, 2 for a policy name that names nothing) and no traceback. Cases
where the environment matters run the real ``unocli`` in a subprocess.
"""

from __future__ import annotations

import os
import shutil
import signal
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from unocli.cli.main import LAZY_COMMANDS, cli
from unocli.errors import ConfigError
from unocli.files import MAX_DEPTH, load_json, load_toml
from unocli.game.limits import GAMES_MAX, SEED_MAX, check_games, check_seed
from unocli.game.policies import MAX_LISTED, PRESETS, check_policy_name, load_policies_file
from unocli.game.rules import resolve_rules
from unocli.report.experiment import load_experiment

ROOT = Path(__file__).resolve().parents[1]
SIMS = ROOT / "sims"
TINY = 'games = 20\nplayers = [3]\n[base]\npolicy = "basic"\n[arms.a]\n[arms.b]\nrules = "stacking"\n'


def one_line_error(result, exit_code: int = 1) -> str:
    """The single ``Error: ...`` line of a failed CliRunner run (no traceback, no internal error)."""
    assert result.exit_code == exit_code, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1, result.output
    assert lines[0].startswith("Error: "), result.output
    assert "internal error" not in lines[0] and "Traceback" not in result.output
    return lines[0]


def invoke(*args: str):
    return CliRunner().invoke(cli, list(args))


# ---------------------------------------------------------------- numbers that are not finite, nesting, long numbers


@pytest.mark.parametrize("value", ["inf", "-inf", "nan", "+inf", "1e400"])
def test_margins_must_be_finite(tmp_path, value):
    path = tmp_path / "exp.toml"
    path.write_text(TINY + f"[margins]\nturns = {value}\n")
    line = one_line_error(invoke("compare", str(path), "--games", "5"))
    shown = {"inf": "inf", "+inf": "inf", "1e400": "inf", "-inf": "-inf", "nan": "nan"}[value]
    assert line == f"Error: experiment file {str(path)!r}: 'margins.turns' is {shown}, but every number must be finite"


@pytest.mark.parametrize(
    ("text", "key", "shown"),
    [
        ("games = 2024-01-01\n", "games", "2024-01-01"),
        ("games = 20\n[options]\nx = 1979-05-27T07:32:00\n", "options.x", "1979-05-27T07:32:00"),
        ("games = 20\n[grid]\nbluff = [0, 07:32:00]\n", "grid.bluff[1]", "07:32:00"),
    ],
)
def test_a_date_or_time_anywhere_in_a_toml_file_is_named_in_the_files_words(tmp_path, text, key, shown):
    """A TOML date reached a loader's check and came back as "not datetime.date(2024, 1, 1)"."""
    path = tmp_path / "exp.toml"
    path.write_text(text)
    line = one_line_error(invoke("compare", str(path), "--games", "5"))
    assert line == f"Error: experiment file {str(path)!r}: {key!r} is a date or time ({shown}), which no unocli setting is"


def test_a_number_that_is_not_finite_anywhere_in_a_toml_file(tmp_path):
    for what, loader, text in [
        ("rules file", resolve_rules, "players = 3\nhand_size = nan\n"),
        ("policy file", load_policies_file, "[mine]\nbluff = inf\n"),
        ("experiment file", load_experiment, 'games = 20\n[grid]\n"bluff@0" = [0, nan]\n'),
    ]:
        path = tmp_path / "f.toml"
        path.write_text(text)
        with pytest.raises(ConfigError, match=f"^{what} .*'.*' is (nan|inf), but every number must be finite$"):
            loader(str(path))


def _nested(depth: int) -> str:
    return "[" * depth + "]" * depth


@pytest.mark.parametrize("depth", [MAX_DEPTH + 1, 2000, 100_000])
@pytest.mark.parametrize("kind", ["rules", "policies", "experiment"])
def test_deep_nesting_is_one_sentence(tmp_path, kind, depth):
    path = tmp_path / "deep.toml"
    path.write_text(f"[mine]\nplay = {_nested(depth)}\n" if kind == "policies" else f"players = {_nested(depth)}\n")
    args = {
        "rules": ["rules", "show", str(path)],
        "policies": ["policies", "show", "mine", "--policies", str(path)],
        "experiment": ["compare", str(path)],
    }[kind]
    what = {"rules": "rules file", "policies": "policy file", "experiment": "experiment file"}[kind]
    line = one_line_error(invoke(*args))
    assert line.startswith(f"Error: {what} {str(path)!r} nests lists or tables more than {MAX_DEPTH} deep")


def test_nesting_up_to_the_limit_is_read(tmp_path):
    path = tmp_path / "ok.toml"
    path.write_text(f"x = {_nested(MAX_DEPTH - 1)}\n")  # the document itself is the first level
    assert load_toml(path, "rules file") == {"x": eval(_nested(MAX_DEPTH - 1))}


def test_deep_json_is_one_sentence(tmp_path):
    path = tmp_path / "deep.json"
    path.write_text(_nested(100_000))
    with pytest.raises(ConfigError, match=f"^baseline file .* nests lists or tables more than {MAX_DEPTH} deep$"):
        load_json(path, "baseline file")


@pytest.mark.parametrize("kind", ["rules", "policies", "experiment", "json"])
def test_a_5001_digit_number_is_one_sentence(tmp_path, kind):
    digits = "9" * 5001
    path = tmp_path / ("big.json" if kind == "json" else "big.toml")
    text = {
        "rules": f"# a comment\nmax_turns = {digits}\n",
        "policies": f"# a comment\n[mine]\nattack_at = {digits}\n",
        "experiment": f"# a comment\ngames = {digits}\n",
        "json": f'{{"a":\n {digits}}}',
    }[kind]
    path.write_text(text)
    what = {"rules": "rules file", "policies": "policy file", "experiment": "experiment file", "json": "baseline file"}[kind]
    with pytest.raises(ConfigError) as info:
        {
            "rules": resolve_rules,
            "policies": load_policies_file,
            "experiment": load_experiment,
            "json": lambda p: load_json(p, "baseline file"),
        }[kind](str(path))
    line = 3 if kind == "policies" else 2
    assert str(info.value) == f"{what} {str(path)!r} holds a number of 5,001 digits on line {line}, far beyond any setting"


def test_a_5001_digit_number_on_the_command_line_of_a_policies_file(tmp_path):
    path = tmp_path / "big.toml"
    path.write_text("[mine]\nattack_at = " + "1" * 5001 + "\n")
    line = one_line_error(invoke("simulate", "--policies", str(path), "--policy", "mine", "--games", "5"))
    assert "5,001 digits on line 2" in line


def test_a_file_over_the_size_limit_is_one_sentence(tmp_path, monkeypatch):
    import unocli.files

    monkeypatch.setattr(unocli.files, "MAX_INPUT_BYTES", 2**20)  # 1 MB here, so the test writes little
    path = tmp_path / "big.toml"
    path.write_text("# padding\n" * (2**20 // 10 + 1))
    with pytest.raises(ConfigError) as info:
        load_policies_file(path)
    assert str(info.value) == f"policy file {str(path)!r} is larger than 1 MB, far more than any unocli input file needs"
    path.write_text("# padding\n" * (2**20 // 10 - 1) + "[mine]\n")  # just under the limit: read
    assert list(load_policies_file(path)) == ["mine"]


# ---------------------------------------------------------------- a list or a table where a scalar belongs


@pytest.mark.parametrize("base", ['["basic"]', "{ name = 'basic' }", "3", "true"])
def test_a_policy_base_that_is_not_text(tmp_path, base):
    path = tmp_path / "p.toml"
    path.write_text(f"[mine]\nbase = {base}\nbluff = 0.5\n")
    line = one_line_error(invoke("policies", "show", "mine", "--policies", str(path)))
    assert line.startswith(f"Error: policy file {str(path)!r}, policy 'mine': 'base' must name a preset or an earlier policy")


def test_a_policy_base_naming_nothing_lists_the_presets_and_earlier_policies(tmp_path):
    path = tmp_path / "p.toml"
    path.write_text('[first]\nbluff = 0.1\n[mine]\nbase = "firts"\n')
    with pytest.raises(ConfigError) as info:
        load_policies_file(path)
    assert str(info.value) == (
        f"policy file {str(path)!r}, policy 'mine': 'base' names no policy: 'firts'; "
        f"it may be {', '.join(PRESETS)}, search, peek, first"
    )


def test_a_policy_base_may_be_a_search_player(tmp_path):
    path = tmp_path / "p.toml"
    path.write_text('[deep]\nbase = "search"\nbudget = 64\n')
    deep = load_policies_file(path)["deep"]
    assert deep.search == "on" and deep.budget == 64


def test_a_policy_base_may_be_an_earlier_policy(tmp_path):
    path = tmp_path / "p.toml"
    path.write_text('[first]\nbase = "basic"\nbluff = 0.1\n[second]\nbase = "first"\nchallenge = 1.0\n')
    got = load_policies_file(path)
    assert (got["second"].bluff, got["second"].challenge, got["second"].colour) == (0.1, 1.0, PRESETS["basic"][1]["colour"])


@pytest.mark.parametrize("value", ["[0.5]", "{ p = 0.5 }", "2020-01-01"])
def test_a_knob_value_that_is_not_a_scalar(tmp_path, value):
    path = tmp_path / "p.toml"
    path.write_text(f'[mine]\nbase = "basic"\nbluff = {value}\n')
    line = one_line_error(invoke("policies", "show", "mine", "--policies", str(path)))
    if value == "2020-01-01":  # refused where the file is read, as in any TOML file
        said = "'mine.bluff' is a date or time (2020-01-01), which no unocli setting is"
        assert line == f"Error: policy file {str(path)!r}: {said}"
    else:
        assert line.startswith(f"Error: policy file {str(path)!r}, policy 'mine': policy knob 'bluff' must be a probability")


@pytest.mark.parametrize("value", ["{ a = 1 }", "3", "[1, 2]"])
def test_a_play_order_that_is_not_text_or_a_list_of_classes(tmp_path, value):
    path = tmp_path / "p.toml"
    path.write_text(f"[mine]\nplay = {value}\n")
    line = one_line_error(invoke("policies", "show", "mine", "--policies", str(path)))
    assert line.startswith(f"Error: policy file {str(path)!r}, policy 'mine': policy knob 'play' must be a play order such as")


def test_a_description_that_is_not_text(tmp_path):
    path = tmp_path / "p.toml"
    path.write_text("[mine]\ndescription = [1, 2]\n")
    with pytest.raises(ConfigError, match=r"policy 'mine': 'description' must be a string, not \[1, 2\]$"):
        load_policies_file(path)


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("players = [4]\n", "rule field 'players' must be a whole number between 2 and 10, not [4]"),
        ("stacking = { a = 1 }\n", "rule field 'stacking' must be one of off, plus2, same, progressive, any, not {'a': 1}"),
        ('base = ["official"]\n', "'base' must name a preset"),
        ("jump_in = [true]\n", "rule field 'jump_in' must be true or false, not [True]"),
    ],
)
def test_a_rules_field_that_is_not_a_scalar(tmp_path, text, words):
    path = tmp_path / "r.toml"
    path.write_text(text)
    line = one_line_error(invoke("rules", "show", str(path)))
    assert line == f"Error: rules file {str(path)!r}: {words}"


def test_a_rules_spec_too_long_to_be_a_path_is_an_unknown_preset():
    line = one_line_error(invoke("simulate", "--rules", "a" * 5000, "--games", "5"))
    assert line.startswith("Error: unknown rules preset 'aaaa") and line.endswith(", party")


def test_a_probability_list_holding_a_list(tmp_path):
    path = tmp_path / "bluff.toml"
    path.write_text('analysis = "bluff"\nplayers = [4]\n[options]\nbluff_rates = [[1]]\n')
    with pytest.raises(ConfigError, match=r"key 'options.bluff_rates': must be a list of probabilities"):
        load_experiment(path)


# ---------------------------------------------------------------- policy names


@pytest.mark.parametrize(
    ("name", "problem"),
    [
        ("", "a policy name must not be empty"),
        ("  ", "a policy name must not be empty"),
        (" mine", "a policy name must not start or end with a space"),
        ("a:b", "a policy name must not hold ':' (no : , = { } or control characters)"),
        ("a,b=c", "a policy name must not hold ',', '=' (no : , = { } or control characters)"),
        ("tuned-{rules}", "a policy name must not hold '{', '}' (no : , = { } or control characters)"),
        ("two\nlines", "a policy name must not hold '\\n' (no : , = { } or control characters)"),
        ("x" * 101, "a policy name must be at most 100 characters, not 101"),
    ],
)
def test_a_policy_name_that_no_spec_could_name_is_refused(tmp_path, name, problem):
    assert check_policy_name(name) == problem
    path = tmp_path / "p.toml"
    escaped = name.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
    path.write_text(f'["{escaped}"]\nbase = "basic"\n')
    with pytest.raises(ConfigError) as info:
        load_policies_file(path)
    assert str(info.value) == f"policy file {str(path)!r}, policy {name!r}: {problem}"


def test_every_shipped_policy_name_and_hostile_but_usable_names_are_accepted():
    import tomllib

    names = [*PRESETS]
    for path in [SIMS / "policies.toml", *SIMS.glob("tuned/*.toml")]:
        names += list(tomllib.loads(path.read_text()))
    names += ["qu\"ote 'x'", "é☃ #1", "a b", "a.b", "x" * 100, "a@0", "back\\slash"]
    assert [n for n in names if check_policy_name(n) is not None] == []


# ---------------------------------------------------------------- an unknown name among many


@pytest.fixture(scope="module")
def many_policies(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("many") / "many.toml"
    path.write_text("".join(f'[p{i:04d}]\nbase = "basic"\nbluff = {i / 5000}\n' for i in range(5000)))
    return path


def test_an_unknown_name_among_5000_lists_the_nearest_ten(many_policies):
    line = one_line_error(invoke("simulate", "--policies", str(many_policies), "--policy", "p0042x", "--games", "5"), 2)
    head, _, listed = line.partition("; the policies are: ")
    assert head == "Error: unknown policy 'p0042x'"
    names, _, count = listed.partition(" (")
    # simulate reads the options as compare and sweep do (cli/options.py table_spec), so the file is named
    assert count == f"the nearest {MAX_LISTED} of 5,010: the 8 presets, the 2 search players and 5,000 from 'many.toml')"
    shown = names.split(", ")
    assert len(shown) == MAX_LISTED and "p0042" in shown  # the one a character away is among them
    assert len(line) < 400  # it listed all 5,008 names in 34 KB before


def test_a_name_near_nothing_gets_the_presets(many_policies):
    line = one_line_error(invoke("policies", "show", "zzzzzzzzzzzzzz", "--policies", str(many_policies)), 2)
    assert line == (
        f"Error: unknown policy 'zzzzzzzzzzzzzz'; the policies are: {', '.join(PRESETS)} "
        "(the nearest 8 of 5,010: the 8 presets, the 2 search players and 5,000 from the policies file)"
    )


def test_a_few_policies_are_all_listed(tmp_path):
    path = tmp_path / "p.toml"
    path.write_text('[mine]\nbase = "basic"\n')
    line = one_line_error(invoke("simulate", "--policies", str(path), "--policy", "nope", "--games", "5"), 2)
    assert line == f"Error: unknown policy 'nope'; the policies are: {', '.join(PRESETS)}, search, peek and, from 'p.toml', mine"
    exp = tmp_path / "exp.toml"
    exp.write_text('policies = "p.toml"\n' + TINY.replace('policy = "basic"', 'policy = "nope"'))
    line = one_line_error(invoke("compare", str(exp), "--games", "5"), 2)
    assert line == (
        f"Error: experiment file {str(exp)!r}, key 'base.policy': unknown policy 'nope'; the policies are: "
        f"{', '.join(PRESETS)}, search, peek and, from 'p.toml', mine"
    )


# ---------------------------------------------------------------- FIFOs and devices


class Hung(BaseException):
    pass


def _alarm(signum, frame):
    raise Hung


@pytest.fixture
def fifo(tmp_path) -> Path:
    path = tmp_path / "pipe.toml"
    os.mkfifo(path)
    return path


@pytest.mark.parametrize("where", ["policies", "rules", "experiment"])
def test_a_fifo_is_refused_without_waiting(fifo, where):
    args = {
        "policies": ["simulate", "--policies", str(fifo), "--games", "5"],
        "rules": ["rules", "show", str(fifo)],
        "experiment": ["compare", str(fifo)],
    }[where]
    what = {"policies": "policy file", "rules": "rules file", "experiment": "experiment file"}[where]
    previous = signal.signal(signal.SIGALRM, _alarm)
    signal.alarm(20)  # opening a FIFO for reading waits for a writer: for ever, before
    try:
        result = invoke(*args)
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)
    assert not isinstance(result.exception, Hung), "the FIFO was opened and waited on"
    assert one_line_error(result) == f"Error: {what} {str(fifo)!r} is a FIFO (named pipe), not a regular file"


def test_a_device_is_refused():
    assert stat.S_ISCHR(os.stat("/dev/null").st_mode)
    line = one_line_error(invoke("rules", "show", "/dev/null"))
    assert line == "Error: rules file '/dev/null' is a device, not a regular file"


def test_a_symbolic_link_to_a_regular_file_is_read(tmp_path):
    (tmp_path / "real.toml").write_text("players = 3\n")
    (tmp_path / "link.toml").symlink_to(tmp_path / "real.toml")
    assert resolve_rules(str(tmp_path / "link.toml")).players == 3


# ---------------------------------------------------------------- one bound for game counts and seeds


def test_one_bound_for_games_on_the_command_line_and_in_files(tmp_path):
    too_many = str(GAMES_MAX + 1)
    cli_line = one_line_error(invoke("simulate", "--games", too_many), 2)
    assert cli_line == f"Error: Invalid value for '--games': must be a whole number from 1 to 2**63 - 1, not {too_many!r}"
    path = tmp_path / "exp.toml"
    path.write_text(TINY.replace("games = 20", f"games = {too_many}"))
    file_line = one_line_error(invoke("compare", str(path)), 2)
    assert file_line == (
        f"Error: experiment file {str(path)!r}, key 'games': must be a whole number from 1 to 2**63 - 1, not {GAMES_MAX + 1}"
    )
    path.write_text(TINY.replace("games = 20", "max_games = 9_223_372_036_854_775_808"))
    assert "key 'max_games': must be a whole number from 1 to 2**63 - 1" in one_line_error(invoke("compare", str(path)), 2)
    line = one_line_error(invoke("compare", "--arm", "basic", "--max-games", "0"), 2)
    assert line == "Error: Invalid value for '--max-games': must be a whole number from 1 to 2**63 - 1, not '0'"


def test_the_bounds_themselves_pass():
    assert check_games(GAMES_MAX) == GAMES_MAX and check_games(1) == 1
    assert check_seed(SEED_MAX) == 2**64 - 1 and check_seed(0) == 0
    for bad in (0, GAMES_MAX + 1, True, 1.0, "3", None):
        with pytest.raises(ConfigError):
            check_games(bad if bad != "3" else [3])
    with pytest.raises(ConfigError, match=r"^seed must be a whole number from 0 to 2\*\*64 - 1, not 18446744073709551616$"):
        check_seed(2**64)


def test_a_seed_in_a_file_is_checked_like_the_option(tmp_path):
    path = tmp_path / "exp.toml"
    path.write_text(TINY + "")
    path.write_text("seed = -1\n" + TINY)
    line = one_line_error(invoke("compare", str(path)), 2)
    assert line == f"Error: experiment file {str(path)!r}, key 'seed': must be a whole number from 0 to 2**64 - 1, not -1"
    line = one_line_error(invoke("simulate", "--seed", "-1"), 2)
    assert line == "Error: Invalid value for '--seed': must be a whole number from 0 to 2**64 - 1, not '-1'"


# ---------------------------------------------------------------- subgroups' help


@pytest.mark.parametrize(("group", "own"), [("rules", {"list", "show", "text"}), ("policies", {"list", "show"})])
def test_a_subgroup_lists_only_its_own_commands(group, own):
    result = invoke(group, "--help")
    assert result.exit_code == 0
    listed = result.output.split("Commands:")[1].split()
    assert {w for w in listed if w in LAZY_COMMANDS or w in own} == own  # none of simulate, compare, tune, ...
    assert one_line_error(invoke(group, "simulate"), 2) == "Error: No such command 'simulate'."


# ---------------------------------------------------------------- the environment (a real process)


def unocli(*args: str, env: dict[str, str], cwd: Path | None = None, timeout: float = 600) -> subprocess.CompletedProcess:
    full = {**os.environ, **env}
    code = "from unocli.cli.main import main; main()"
    return subprocess.run(
        [sys.executable, "-c", code, *args], capture_output=True, text=True, env=full, cwd=cwd, timeout=timeout, check=False
    )


def process_error(done: subprocess.CompletedProcess, exit_code: int = 1) -> str:
    assert done.returncode == exit_code, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: "), done.stderr
    assert "Traceback" not in done.stderr and "internal error" not in done.stderr
    return lines[0]


@pytest.mark.parametrize("value", ["0", "-1", "abc", "1.5", "100000"])
def test_a_bad_numba_num_threads_is_one_sentence(value):
    done = unocli("simulate", "--games", "5", env={"NUMBA_NUM_THREADS": value})
    assert process_error(done) == (
        f"Error: the environment variable NUMBA_NUM_THREADS must be a whole number from 1 to {max(1024, os.cpu_count() or 1):,}, "
        f"not {value!r}: set it to the number of threads to use, or unset it to use every core"
    )
    assert done.stdout == ""


def test_a_good_numba_num_threads_runs():
    done = unocli("simulate", "--games", "5", "--quiet", "--json", env={"NUMBA_NUM_THREADS": "1"})
    assert done.returncode == 0, done.stderr
    assert '"games": 5' in done.stdout


def test_an_unknown_mplbackend_is_refused_before_any_game(tmp_path):
    done = unocli("sweep", "--grid", "bluff@0=0,1", "--games", "5", "--out", "sw", env={"MPLBACKEND": "nosuch"}, cwd=tmp_path)
    assert process_error(done) == (
        "Error: the environment variable MPLBACKEND names 'nosuch', a backend matplotlib does not know: "
        "unset it (unocli draws its charts with Agg) or name a backend such as agg"
    )
    assert list(tmp_path.iterdir()) == []  # nothing was played or written
    assert "unocli sweep:" not in done.stderr


def test_a_known_mplbackend_still_draws_with_agg(tmp_path):
    done = unocli(
        "sweep", "--grid", "bluff@0=0,1", "--games", "5", "--out", "sw", "--quiet", env={"MPLBACKEND": "TkAgg"}, cwd=tmp_path
    )
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "sw" / "sweep.png").read_bytes()[:4] == b"\x89PNG"


# ---------------------------------------------------------------- the kernel's cache folder


def test_the_in_tree_kernel_cache_folder_follows_the_umask(tmp_path):
    """An editable install: the package's own kernel/__pycache__ is made 0777 less the umask, not 0700."""
    copy = tmp_path / "src"
    shutil.copytree(ROOT / "unocli", copy / "unocli", ignore=shutil.ignore_patterns("__pycache__"))
    code = "import os; os.umask(0o022); import unocli.kernel._cache"
    env = {**os.environ, "PYTHONPATH": str(copy), "PYTHONDONTWRITEBYTECODE": "1", "TMPDIR": str(tmp_path)}
    env.pop("NUMBA_CACHE_DIR", None)
    subprocess.run([sys.executable, "-c", code], check=True, env=env, cwd=tmp_path, timeout=600)
    folder = copy / "unocli" / "kernel" / "__pycache__"
    assert stat.S_IMODE(folder.stat().st_mode) == 0o755
    private = tmp_path / f"unocli-numba-{os.getuid()}"
    assert not private.exists() or stat.S_IMODE(private.stat().st_mode) == 0o700  # the shared temporary one stays private


# ---------------------------------------------------------------- messages name the user's folder, not the temporary one


@pytest.mark.parametrize("failure", ["config", "os"])
def test_a_report_that_cannot_be_written_names_the_out_folder(tmp_path, monkeypatch, failure):
    """The report is written in a temporary ``.NAME.XXXX.tmp`` folder; a failure there names ``--out``."""
    from unocli.report import render

    def full_disk(path: Path, text: str) -> Path:
        if failure == "os":
            raise OSError(28, "No space left on device", str(path))
        raise ConfigError(f"cannot write {str(path)!r}: no space left on device")

    monkeypatch.setattr(render, "_write", full_disk)
    monkeypatch.chdir(tmp_path)
    (tmp_path / "exp.toml").write_text(TINY)
    result = invoke("report", "exp.toml", "--out", "rep")
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert result.output.strip().splitlines()[-1] == "Error: cannot write 'rep/README.md': no space left on device"
    assert ".tmp" not in result.output
    assert sorted(p.name for p in tmp_path.iterdir()) == ["exp.toml"]  # and no temporary folder is left


@pytest.mark.parametrize("name", ["../escaped", "a/b", "..", ".", ".hidden", "", "back\\slash", "two\nlines"])
def test_an_experiment_name_that_is_not_a_plain_folder_name_is_refused(tmp_path, monkeypatch, name):
    """A report of several experiments writes each into OUT/NAME/: '../escaped' wrote beside the report before."""
    monkeypatch.chdir(tmp_path)
    escaped = name.replace("\\", "\\\\").replace("\n", "\\n")
    (tmp_path / "e1.toml").write_text(f'name = "{escaped}"\n' + TINY)
    (tmp_path / "e2.toml").write_text('name = "fine"\n' + TINY)
    (tmp_path / "sub").mkdir()
    line = one_line_error(invoke("report", "e1.toml", "e2.toml", "--out", "sub/rep", "--quiet"))
    assert line.startswith("Error: experiment file 'e1.toml', key 'name': ")
    assert list((tmp_path / "sub").iterdir()) == []  # nothing written, inside or beside the report folder


TOO_MANY = str(GAMES_MAX + 1)
BOUND = "must be a whole number from 1 to 2**63 - 1, not"


@pytest.mark.parametrize(
    "args",
    [
        ("simulate", "--games", TOO_MANY),
        ("compare", "--arm", "basic", "--games", TOO_MANY),
        ("sweep", "--grid", "players=3,4", "--games", TOO_MANY),
        ("ladder", "--policy", "basic", "--policy", "smart", "--games", TOO_MANY),
        ("baseline", "sims/balance.toml", "-o", "never.json", "--games", TOO_MANY),
        ("check", "--games", TOO_MANY, "sims/baselines/balance.json"),
    ],
    ids=lambda a: a[0],
)
def test_every_games_option_has_the_one_bound(args):
    """Each command's --games takes 1 (2 for ladder and check) to 2**63 - 1, refused in one sentence, exit 2."""
    line = one_line_error(invoke(*args), 2)
    lo = 2 if args[0] in ("ladder", "check") else 1
    assert line == f"Error: Invalid value for '--games': must be a whole number from {lo} to 2**63 - 1, not {TOO_MANY!r}"


def test_ladder_games_below_two_and_above_the_old_2_40(tmp_path):
    assert "from 2 to 2**63 - 1" in one_line_error(invoke("ladder", "--policy", "basic", "--policy", "smart", "--games", "1"), 2)
    # 2**41 deals pass the bound (2**40 was the ladder's own); the ladder then refuses the memory they need
    result = invoke("ladder", "--policy", "basic", "--policy", "smart", "--games", str(2**41))
    assert result.exit_code == 2 and "Traceback" not in result.output
    line = result.output.strip().splitlines()[-1]  # after the ladder's heading
    assert (
        line.startswith("Error: a ladder of 2,199,023,255,552 deals")
        and "GiB of win counts, more than this machine's" in line
        and "play fewer deals" in line
    )


def test_a_baseline_file_has_the_one_bound(tmp_path):
    """A baseline's games: 10**13 (above the old 10**12) is read; 2**63 is refused in the CLI's words."""
    import json

    from unocli.balance import schema

    doc = json.loads(Path("sims/baselines/balance.json").read_text())
    schema.validate({**doc, "games": 10**13})
    path = tmp_path / "b.json"
    path.write_text(json.dumps({**doc, "games": GAMES_MAX + 1}))
    line = one_line_error(invoke("check", "--exact", str(path)), 2)
    assert line.endswith(f"'games' {BOUND} {GAMES_MAX + 1}") or f"{BOUND} {GAMES_MAX + 1}" in line, line


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ('[a]\nbase = "b"\n[b]\nbase = "basic"\n', "'base' must name a preset or an earlier policy of the file; 'b' comes later"),
        ('[a]\nbase = "a"\n', "'a' is this policy itself"),
    ],
)
def test_a_base_naming_a_later_policy_of_the_file_says_so(tmp_path, text, said):
    """A base naming a policy further down the file said it "names no policy" and listed the presets, though the
    name is right there: the file is read top down, so a base must come first."""
    from unocli.game.policies import load_policies_file

    path = tmp_path / "p.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ConfigError, match=said):
        load_policies_file(path)


def test_a_spec_with_knobs_on_top_names_each_knob_once():
    """Knobs set on top of a spec (an arm's own on a field, a sweep's knob on a policy) replace the spec's value of
    the same knob instead of naming it twice, which parse_policy_spec now refuses."""
    from unocli.game.policies import parse_policy_spec, spec_with

    assert spec_with("basic", "bluff=0.5") == "basic:bluff=0.5"
    assert spec_with("basic:bluff=0.3,swap_target=next", {"bluff": 0.5}) == "basic:bluff=0.5,swap_target=next"
    assert spec_with("random:jump_in=0", "swap_target=next") == "random:jump_in=0,swap_target=next"
    assert parse_policy_spec(spec_with("basic:bluff=0.3", {"bluff": 0.5})).bluff == 0.5
    with pytest.raises(ConfigError, match="knob 'bluff' is given twice"):
        parse_policy_spec("basic:bluff=0.3,bluff=0.5")
