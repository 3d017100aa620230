"""The edges of issue 15, each from a real run through the CLI: destinations checked before any game is played,
every system error one sentence, corrupt baselines exit 2, and check never fails unchanged code for want of games."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from unocli.cli.main import cli

TINY = """
name = "tiny"
seed = 5
games = 600
players = [3]

[base]
rules = "official"
policy = "basic"

[arms.a]
[arms.b]
rules = "stacking"
"""


def run(*args: str, env: dict[str, str] | None = None):
    return CliRunner().invoke(cli, list(args), env=env)


def one_error_line(result) -> str:
    """The output is one ``Error: ...`` line and no traceback from unocli.

    The first-run compile notice may come before it (a test run in another order than the whole
    suite's meets a kernel variant nothing compiled yet): it is not an error line.
    """
    assert "Traceback" not in result.output, result.output
    assert "internal error" not in result.output, result.output
    lines = [line for line in result.output.splitlines() if line.strip() and not line.startswith("unocli: compiling")]
    assert len(lines) == 1 and lines[0].startswith("Error: "), result.output
    return lines[0]


@pytest.fixture(scope="module")
def tiny(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("edges")
    (folder / "tiny.toml").write_text(TINY, encoding="utf-8")
    return folder / "tiny.toml"


@pytest.fixture(scope="module")
def baseline(tiny: Path) -> Path:
    out = tiny.with_name("tiny.json")
    result = run("baseline", str(tiny), "-o", str(out))
    assert result.exit_code == 0, result.output
    return out


# ---------------------------------------------------------------- destinations, before any game


def _never_plays(monkeypatch) -> None:
    """Any game played makes the test fail: the destination must be refused first."""
    import unocli.cli.analysis  # noqa: F401  (imported before the patch, so that no module binds the patched function)
    import unocli.cli.run as run_mod
    import unocli.study.simulate as sim

    def boom(*args, **kwargs):
        raise AssertionError("a game was played before the destination was checked")

    monkeypatch.setattr(sim, "simulate", boom)
    monkeypatch.setattr(run_mod, "simulate", boom)


@pytest.mark.parametrize(
    "args",
    [
        ("simulate", "--games", "2000000", "--out", "/proc/x.csv"),
        ("simulate", "--games", "10", "--out", "/sys/x.csv"),
        ("simulate", "--games", "10", "--out", "NO_SUCH_FOLDER/x.csv"),
        ("simulate", "--games", "10", "--out", "x.txt"),
        ("compare", "--arm", "official", "--arm", "stacking", "--games", "10", "--out", "/proc/c.csv"),
        ("sweep", "--grid", "bluff=0,1", "--games", "10", "--out", "/proc/sw"),
        ("report", "--out", "/proc/rep"),
    ],
)
def test_destination_refused_before_any_game(args, monkeypatch) -> None:
    _never_plays(monkeypatch)
    import unocli.study.compare as cmp

    monkeypatch.setattr(cmp, "simulate", lambda *a, **k: pytest.fail("played"), raising=False)
    result = run(*args)
    assert result.exit_code == 1
    line = one_error_line(result)
    assert "cannot" in line or "must end in" in line


def test_report_destination_checked_before_the_first_experiment(tiny: Path, monkeypatch) -> None:
    import unocli.report.render as render

    monkeypatch.setattr(render, "write_report", lambda *a, **k: pytest.fail("report started"))
    result = run("report", str(tiny), "--out", "/proc/rep")
    assert result.exit_code == 1
    assert "/proc/rep" in one_error_line(result)


def test_baseline_destination_checked_first(tiny: Path, monkeypatch) -> None:
    import unocli.cli.balance as bal

    monkeypatch.setattr(bal, "make_baseline", lambda *a, **k: pytest.fail("baseline played"))
    for dest in ("/proc/b.json", "nowhere/b.json", str(tiny.with_name("b.txt"))):
        result = run("baseline", str(tiny), "-o", dest)
        assert result.exit_code == 1, result.output
        one_error_line(result)


def test_check_junit_destination_exits_2_before_checking(baseline: Path, monkeypatch) -> None:
    import unocli.cli.balance as bal

    monkeypatch.setattr(bal, "check_statistical", lambda *a, **k: pytest.fail("check ran"))
    monkeypatch.setattr(bal, "check_exact", lambda *a, **k: pytest.fail("check ran"))
    for dest in ("DIR_THAT_DOES_NOT_EXIST/j.xml", "/proc/j.xml", str(baseline.with_name("j.txt"))):
        result = run("check", "--junit", dest, str(baseline))
        assert result.exit_code == 2, result.output
        one_error_line(result)


def test_binary_policies_file_is_one_sentence(tmp_path: Path) -> None:
    f = tmp_path / "p.toml"
    f.write_bytes(bytes(range(256)))
    result = run("simulate", "--games", "10", "--policies", str(f))
    assert result.exit_code == 1
    assert "binary" in one_error_line(result)


def test_games_bound() -> None:
    for games in ("9223372036854775808", str(2**64 + 1), "0", "-1"):
        result = run("simulate", "--games", games)
        assert result.exit_code == 2, result.output
        one_error_line(result)


def test_written_files_get_the_umask(tmp_path: Path) -> None:
    out = tmp_path / "g.csv"
    old = os.umask(0o022)
    try:
        result = run("simulate", "--games", "20", "--quiet", "--out", str(out))
    finally:
        os.umask(old)
    assert result.exit_code == 0, result.output
    assert out.stat().st_mode & 0o777 == 0o644


def test_os_error_inside_a_command_is_one_sentence(monkeypatch) -> None:
    import unocli.cli.run as run_mod

    def full(*args, **kwargs):
        raise OSError(28, "No space left on device", "/tmp/x")

    monkeypatch.setattr(run_mod, "simulate", full)
    result = run("simulate", "--games", "10", "--quiet")
    assert result.exit_code == 1
    assert "no space left on device" in one_error_line(result)


def test_a_bug_is_one_line_with_a_hint(monkeypatch) -> None:
    import unocli.cli.run as run_mod

    monkeypatch.setattr(run_mod, "simulate", lambda *a, **k: {}["missing"])
    result = run("simulate", "--games", "10", "--quiet")
    assert result.exit_code == 1
    assert "internal error" in result.output and "report it" in result.output
    assert "Traceback" not in result.output


# ---------------------------------------------------------------- corrupt baselines exit 2


@pytest.mark.parametrize(
    "corrupt",
    [
        lambda d: d["arms"][0].update(n="many"),
        lambda d: d.update(arms=[]),
        lambda d: d["arms"][0]["metrics"]["turns"].update(sd=None),
        lambda d: d["arms"][0]["metrics"]["turns"].update(sd=-1),
        lambda d: d.update(seed=-1),
        lambda d: d.update(games="x"),
        lambda d: d["arms"][0].update(fingerprint="zz"),
        lambda d: d["arms"][0].update(wins=[1]),
        lambda d: d["arms"][0].update(policies=[1, 2, 3]),
        lambda d: d["arms"][0]["rules"].update(players="four"),
        lambda d: d["arms"][0].update(name=None),
        lambda d: d["arms"].append(7),
        lambda d: d.pop("arms"),
    ],
)
def test_corrupt_baseline_exits_2(baseline: Path, tmp_path: Path, corrupt) -> None:
    doc = json.loads(baseline.read_text())
    corrupt(doc)
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(doc))
    for extra in ((), ("--exact",), ("--games", "1000")):
        result = run("check", *extra, str(bad))
        assert result.exit_code == 2, result.output
        assert "bad.json" in one_error_line(result)


def test_baseline_of_one_arm_with_n_1_is_refused_not_a_math_error(baseline: Path, tmp_path: Path) -> None:
    doc = json.loads(baseline.read_text())
    for arm in doc["arms"]:
        arm["n"] = 1
        arm["wins"] = [1] + [0] * (len(arm["wins"]) - 1)  # at most n wins in all (more is refused as corrupt)
    bad = tmp_path / "n1.json"
    bad.write_text(json.dumps(doc))
    result = run("check", "--games", "1000", "--seed", "3", str(bad))
    assert result.exit_code in (0, 3), result.output  # too small to decide: inconclusive, never a crash or a fail
    assert "Traceback" not in result.output


def test_baseline_refuses_tiny_sizes(tiny: Path, tmp_path: Path) -> None:
    out = tmp_path / "b.json"
    result = run("baseline", str(tiny), "-o", str(out), "--games", "1")
    assert result.exit_code == 1 and not out.exists()
    assert "too small" in one_error_line(result)


# ---------------------------------------------------------------- check never fails unchanged code


@pytest.mark.parametrize("games", [2, 10, 100, 1000])
def test_check_on_unchanged_code_never_fails(baseline: Path, games: int) -> None:
    """Unchanged code: the verdicts may be inconclusive at small sizes, but never fail.

    The baseline has 600 games per arm and the family-wise alpha is 0.001, so
    a fail here is a false alarm of probability at most 0.001 per size (seeds
    fixed: the outcome is the same on every run)."""
    for seed in ("1", "2"):
        result = run("check", "--games", str(games), "--seed", seed, str(baseline))
        assert result.exit_code in (0, 3), result.output
        assert " 0 fail" in result.output, result.output


def test_check_on_the_shipped_baseline_at_two_games_is_inconclusive_not_failed() -> None:
    baseline = Path(__file__).resolve().parents[1] / "sims" / "baselines" / "balance.json"
    result = run("check", "--games", "2", "--seed", "1", str(baseline))
    assert result.exit_code == 3, result.output
    assert " 0 fail" in result.output


# ---------------------------------------------------------------- no silent wrong runs

SIMS = Path(__file__).resolve().parents[1] / "sims"


def test_compare_seed_0_overrides_the_file() -> None:
    result = run("compare", str(SIMS / "stacking.toml"), "--seed", "0", "--games", "20", "--json", "--quiet")
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["seed"] == 0
    result = run("compare", str(SIMS / "stacking.toml"), "--games", "20", "--json", "--quiet")
    assert json.loads(result.output)["seed"] == 20240503


def test_match_can_be_turned_off(tmp_path: Path) -> None:
    exp = tmp_path / "m.toml"
    exp.write_text(TINY.replace('name = "tiny"', 'name = "tiny"\nmatch = true'), encoding="utf-8")
    on = run("compare", str(exp), "--games", "3", "--quiet")
    off = run("compare", str(exp), "--games", "3", "--quiet", "--no-match")
    assert on.exit_code == 0 and off.exit_code == 0, on.output + off.output
    assert "matches per arm" in on.output and "rounds per arm" in off.output


@pytest.mark.parametrize(
    "args",
    [
        ("simulate", "--games", "10", "--seat", "0=basic", "--seat", "0=smart"),
        ("compare", "--arm", "official", "--arm", "stacking", "--seat", "0=basic", "--seat", "0=smart"),
        ("simulate", "--games", "10", "--metric", "cards_drawn"),
        ("compare", "--arm", "official", "--arm", "stacking", "--metric", "cards_drawn"),
        ("simulate", "--games", "10", "--threads", "1000"),
        ("compare", str(SIMS / "bluff.toml")),
    ],
)
def test_silently_dropped_options_are_refused(args) -> None:
    result = run(*args)
    assert result.exit_code in (1, 2), result.output
    one_error_line(result)


def test_compare_and_sweep_of_a_file_of_several_sizes_say_which_they_play(tmp_path: Path) -> None:
    """A file naming 3 and 5 players: compare and sweep play one size (the first, or --players), and say so on
    stderr when none was chosen; a size the file does not name is refused by both, in one sentence."""
    arms = tmp_path / "a.toml"
    arms.write_text(TINY.replace("players = [3]", "players = [3, 5]"), encoding="utf-8")
    grid = tmp_path / "g.toml"
    grid.write_text('games = 10\nplayers = [3, 5]\n[grid]\n"bluff@0" = [0, 1]\n', encoding="utf-8")
    for command, path in (("compare", arms), ("sweep", grid)):
        out = ["--out", str(tmp_path / "sw")] if command == "sweep" else []
        first = run(command, str(path), "--games", "5", *out)
        assert first.exit_code == 0, first.output
        assert f"{str(path)!r} names 3, 5 players: this plays 3 (--players N for another" in first.stderr
        chosen = run(command, str(path), "--games", "5", "--players", "5", *(["--force"] if out else []), *out)
        assert chosen.exit_code == 0 and "names 3, 5 players" not in chosen.stderr, chosen.output
        refused = run(command, str(path), "--players", "4", *out)
        assert refused.exit_code == 1
        assert f"--players 4: {str(path)!r} plays at 3, 5 players only" in one_error_line(refused)
    import pandas as pd

    assert set(pd.read_csv(tmp_path / "sw" / "sweep.csv")["players"]) == {5}  # the sweep chosen at 5 players


def test_a_sweep_file_is_refused_by_compare(tmp_path: Path) -> None:
    exp = tmp_path / "s.toml"
    exp.write_text('games = 10\n[grid]\n"bluff@0" = [0, 1]\n', encoding="utf-8")
    result = run("compare", str(exp))
    assert result.exit_code == 1 and "sweep" in one_error_line(result)


@pytest.mark.parametrize("analysis", ["bluff", "sweep"])
def test_arms_an_analysis_ignores_are_refused(tmp_path: Path, analysis: str) -> None:
    exp = tmp_path / "x.toml"
    grid = '[grid]\n"bluff@0" = [0, 1]\n' if analysis == "sweep" else ""
    exp.write_text(f'analysis = "{analysis}"\ngames = 10\n[arms.a]\n[arms.b]\n{grid}', encoding="utf-8")
    result = run("report", str(exp), "--out", str(tmp_path / "rep"))
    assert result.exit_code == 1 and "arms" in one_error_line(result)
    assert not (tmp_path / "rep").exists()


def test_every_analysis_says_what_it_plays() -> None:
    from unocli.report.registry import REPORTS

    assert all(set(r.uses) <= {"arms", "grid"} for r in REPORTS.values())


def test_a_policies_file_cannot_redefine_a_preset(tmp_path: Path) -> None:
    f = tmp_path / "p.toml"
    f.write_text("[basic]\nbluff = 1.0\n", encoding="utf-8")
    result = run("simulate", "--games", "10", "--policies", str(f), "--policy", "basic")
    assert result.exit_code == 1 and "redefines the preset 'basic'" in one_error_line(result)
    # The shipped file restates the presets as they are: accepted.
    result = run("simulate", "--games", "10", "--quiet", "--policies", str(SIMS / "policies.toml"), "--policy", "basic")
    assert result.exit_code == 0, result.output


# ---------------------------------------------------------------- bounded work


def test_a_trace_that_cannot_end_stops_at_the_cap() -> None:
    from unocli.game.policies import resolve_policies
    from unocli.game.rules import resolve_rules
    from unocli.reference.trace import trace_game

    rules = resolve_rules("official", (), 3)
    policies = resolve_policies(3, "basic:forget_uno=1,catch_uno=1")
    lines = trace_game(rules, policies, 0, 0, as_match=True, cap=3000)
    assert "cap of 3,000 turns" in lines[-1] and "No winner" in lines[-1]
    lines = trace_game(rules, policies, 0, 0, cap=500)
    assert "cap of 500 turns" in lines[-1] and "max_turns" in lines[-1]


def test_a_trace_that_ends_is_unchanged_by_the_cap() -> None:
    from unocli.game.policies import resolve_policies
    from unocli.game.rules import resolve_rules
    from unocli.reference.engine import play_match
    from unocli.reference.trace import format_match, trace_game

    rules = resolve_rules("official", (), 3)
    policies = resolve_policies(3, "basic")
    match, rounds = play_match(rules, policies, 4, 2, log=True)
    assert trace_game(rules, policies, 4, 2, as_match=True) == format_match(match, rounds, rules)


def test_a_huge_grid_needs_yes_and_says_its_size(tmp_path: Path) -> None:
    result = run("sweep", "--grid", "bluff=0:1:0.000001", "--out", str(tmp_path / "s"))
    assert result.exit_code == 1 and "1,000,001 values" in one_error_line(result)
    result = run("sweep", "--grid", "bluff=0:1:0.01", "--grid", "challenge=0:1:0.01", "--out", str(tmp_path / "s"))
    line = one_error_line(result)
    assert result.exit_code == 1 and "10,201 cells" in line and "--yes" in line


def _two_experiments(folder: Path) -> list[str]:
    paths = []
    for name in ("one", "two"):
        p = folder / f"{name}.toml"
        p.write_text(TINY.replace('name = "tiny"', f'name = "{name}"'), encoding="utf-8")
        paths.append(str(p))
    return paths


def test_report_replaces_its_folder_whole_and_an_interrupt_leaves_it_as_it_was(tmp_path: Path, monkeypatch) -> None:
    import unocli.report.render as render

    paths = _two_experiments(tmp_path)
    out = tmp_path / "rep"
    first = run("report", *paths, "--out", str(out), "--quiet")
    assert first.exit_code == 0, first.output
    assert "(2 experiments)" in first.output
    before = sorted(p.relative_to(out) for p in out.rglob("*"))

    real = render.run_experiment
    calls = []

    def interrupted(exp, *args, **kwargs):
        calls.append(exp.name)
        if len(calls) == 2:
            raise KeyboardInterrupt
        return real(exp, *args, **kwargs)

    monkeypatch.setattr(render, "run_experiment", interrupted)
    result = run("report", *paths, "--out", str(out), "--quiet")
    assert result.exit_code == 130 and "Traceback" not in result.output
    assert sorted(p.relative_to(out) for p in out.rglob("*")) == before  # untouched
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []  # no temporary folder left
    monkeypatch.setattr(render, "run_experiment", real)
    again = run("report", paths[0], "--out", str(out), "--quiet")  # one experiment: the folders one/ and two/ go
    assert again.exit_code == 0, again.output
    assert not (out / "two").exists() and not (out / "one").exists() and (out / "README.md").exists()
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []


def test_report_never_replaces_a_folder_that_is_not_a_report(tmp_path: Path) -> None:
    paths = _two_experiments(tmp_path)
    (tmp_path / "mine").mkdir()
    (tmp_path / "mine" / "thesis.tex").write_text("precious", encoding="utf-8")
    result = run("report", *paths, "--out", str(tmp_path / "mine"))
    assert result.exit_code == 1 and "not a folder unocli wrote" in one_error_line(result)
    assert (tmp_path / "mine" / "thesis.tex").read_text() == "precious"


# ---------------------------------------------------------------- progress


@pytest.fixture
def terminal(monkeypatch):
    """Progress as on a terminal, from the first shard (CliRunner's stderr is no terminal)."""
    import unocli.cli.run as run_mod

    monkeypatch.setattr(run_mod, "PROGRESS_AFTER", 0.0)
    real = run_mod.Progress.__init__

    def init(self, enabled: bool) -> None:
        real(self, enabled)
        self.enabled = enabled

    monkeypatch.setattr(run_mod.Progress, "__init__", init)


@pytest.mark.parametrize(
    ("args", "shown"),
    [
        (("compare", "--arm", "official", "--arm", "stacking", "--games", "3000"), True),
        (("compare", "--arm", "official", "--arm", "stacking", "--games", "3000", "--json"), False),
        (("sweep", "--grid", "bluff=0,1", "--games", "3000", "--out", "{tmp}/sw"), True),
        (("check", "--games", "1000", "--seed", "3", "{baseline}"), True),
    ],
)
def test_progress_on_a_terminal_never_with_json(terminal, tmp_path: Path, baseline: Path, args, shown: bool) -> None:
    args = tuple(a.format(tmp=tmp_path, baseline=baseline) for a in args)
    result = run(*args)
    assert result.exit_code in (0, 3), result.output
    assert ("games, " in result.output and "/s" in result.output) is shown, result.output


def test_policies_file_on_trace_and_policies_show(tmp_path: Path) -> None:
    f = tmp_path / "p.toml"
    f.write_text('[cautious]\nbase = "basic"\nbluff = 0.0\n', encoding="utf-8")
    shown = run("policies", "show", "cautious", "--policies", str(f))
    assert shown.exit_code == 0 and "Policy cautious:" in shown.output, shown.output
    traced = run("trace", "--players", "2", "--policy", "cautious", "--policies", str(f))
    assert traced.exit_code == 0 and "cautious for every seat" in traced.output, traced.output
    assert run("trace", "--policy", "cautious").exit_code == 2  # unknown without the file: a usage error
    f.write_text("[basic]\nbluff = 1.0\n", encoding="utf-8")
    assert "redefines the preset" in one_error_line(run("policies", "show", "basic", "--policies", str(f)))


@pytest.mark.parametrize(
    ("metrics", "said"),
    [("turns,,cards_drawn", "has an empty name"), ("turns,turns", "names 'turns' twice"), (" turns, turns", "twice")],
)
def test_metrics_given_twice_or_empty_are_refused_before_any_game(metrics, said):
    """--metrics with a name twice printed each row twice (and a report's view of it failed after every game); an
    empty name between commas was dropped without a word."""
    result = run("compare", "--games", "10", "--arm", "a: --rules official", "--arm", "b: --rules party", "--metrics", metrics)
    assert result.exit_code != 0 and said in one_error_line(result)


COMPARE_FILE = 'games = 100\ntarget_error = 1e-9\nmax_games = 300\n[arms.a]\nrules = "official"\n[arms.b]\nrules = "party"\n'
SWEEP_FILE = 'games = 20\n[grid]\n"rule.stacking" = ["off", "plus2"]\n'


TABLE_OPTIONS = [["--rules", "party"], ["--set", "stacking=any"], ["--policy", "smart"], ["--seat", "0=smart"]]


@pytest.mark.parametrize("option", TABLE_OPTIONS)
@pytest.mark.parametrize(("command", "text"), [("compare", COMPARE_FILE), ("sweep", SWEEP_FILE)])
def test_a_table_option_beside_an_experiment_file_is_refused_not_ignored(tmp_path, command, text, option):
    """compare FILE and sweep FILE played the file's tables whatever --rules, --set, --policy or --seat said
    (byte-identical output, no word): each is refused before any game, naming the option."""
    path = tmp_path / "e.toml"
    path.write_text(text, encoding="utf-8")
    out = ["--out", str(tmp_path / "out")] if command == "sweep" else []
    result = run(command, str(path), *option, "--threads", "1", *out)
    assert result.exit_code != 0 and f"{option[0]} would be ignored" in one_error_line(result)


def test_compare_of_a_file_plays_to_the_files_own_target_error_unless_the_options_say_otherwise(tmp_path):
    """The file's target_error and max_games were ignored by compare (100 games) though report honoured them
    (300): the same file now plays the same n under both; an option given overrides the file."""
    path = tmp_path / "e.toml"
    path.write_text(COMPARE_FILE, encoding="utf-8")
    result = run("compare", str(path), "--threads", "1", "--quiet")
    assert result.exit_code == 0 and "after 300 games (the max_games limit 300)" in result.output
    result = run("compare", str(path), "--threads", "1", "--quiet", "--max-games", "200")
    assert result.exit_code == 0 and "after 200 games (the max_games limit 200)" in result.output


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["simulate", "--games", "5", "--max-games", "10"], "--max-games applies to --target-error"),
        (["sweep", "--grid", "bluff=0,1", "--games", "5", "--max-games", "10"], "--max-games applies to --target-error"),
        (["simulate", "--games", "5", "--set", "players=5", "--players", "3"], "both give the table size: give it once"),
        (["simulate", "--games", "5", "--set", "hand_size=5", "--set", "hand_size=6"], "--set hand_size=... is given twice"),
        (["simulate", "--games", "5", "--policy", "basic:bluff=0.3,bluff=0.5"], "knob 'bluff' is given twice"),
        (
            ["compare", "--games", "5", "--arm", "a: --rules official", "--arm", "b: --set stacking=any --set stacking=off"],
            "twice",
        ),
        (["compare", "--games", "5", "--arm", "a: --seat 0=smart --seat 0=basic", "--arm", "b"], "--seat 0 is given twice"),
    ],
)
def test_two_values_of_which_one_would_win_without_a_word_are_refused(tmp_path, args, said):
    """--max-games with no target error to cap, the table size given by --players and --set players=, a rule field
    or a knob given twice: the last value won (or the option did nothing) without a word; each is refused now."""
    out = ["--out", str(tmp_path / "out")] if args[0] == "sweep" else []
    result = run(*args, "--threads", "1", *out)
    assert result.exit_code != 0 and said in one_error_line(result)


def test_a_seat_named_twice_in_an_experiment_file_is_refused(tmp_path):
    """seats = { 0 = "basic", "00" = "smart" }: two keys, one seat; the last won without a word."""
    path = tmp_path / "e.toml"
    path.write_text('games = 10\n[base]\nseats = { 0 = "basic", "00" = "smart" }\n[arms.a]\n[arms.b]\nrules = "party"\n')
    result = run("compare", str(path), "--threads", "1")
    assert result.exit_code != 0 and "key 'base.seats.00': seat 0 is given twice" in one_error_line(result)


def test_check_exact_refuses_a_seed_it_would_ignore():
    """--exact replays the baseline's own seed: a --seed beside it did nothing; refused with a usage error."""
    result = run(
        "check", "--exact", "--seed", "5", str(Path(__file__).resolve().parents[1] / "sims" / "baselines" / "balance.json")
    )
    assert result.exit_code == 2 and "--seed cannot be combined with --exact" in one_error_line(result)


@pytest.mark.parametrize("option", [["--alpha", "0.2"], ["--tolerance", "0.9"], ["--games", "600"]])
def test_check_exact_refuses_what_it_would_ignore_before_a_cluster_starts(option, monkeypatch):
    """--exact judges the fingerprint alone: --alpha and --tolerance beside it did nothing (accepted silently) and
    --games was refused only after --backend dask had started a LocalCluster; each is a usage error first."""
    from unocli.cli import balance

    monkeypatch.setattr(balance, "make_backend", lambda *a: pytest.fail("a backend was made before the refusal"))
    baseline = str(Path(__file__).resolve().parents[1] / "sims" / "baselines" / "balance.json")
    result = run("check", "--exact", *option, baseline, "--backend", "dask")
    assert result.exit_code == 2 and f"{option[0]} cannot be combined with --exact" in one_error_line(result)
