"""The command line through click's CliRunner: every command, and clean errors."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from unocli import __version__
from unocli.cli.main import cli
from unocli.game.policies import resolve_policies
from unocli.game.rules import PRESETS as RULE_PRESETS
from unocli.game.rules import RULE_FIELDS, resolve_rules
from unocli.reference.engine import play_round

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture
def run():
    runner = CliRunner()

    def invoke(*args: str):
        return runner.invoke(cli, list(args), catch_exceptions=False)

    return invoke


# ---------------------------------------------------------------- commands that work


def test_version(run):
    result = run("--version")
    assert result.exit_code == 0
    assert result.stdout.strip() == f"unocli {__version__}"


def test_root_help_lists_commands(run):
    result = run("--help")
    assert result.exit_code == 0
    for name in ("rules", "policies", "trace"):
        assert name in result.stdout


def test_rules_list(run):
    result = run("rules", "list")
    assert result.exit_code == 0
    lines = result.stdout.strip().splitlines()
    assert len(lines) == len(RULE_PRESETS)
    for line, (name, (description, _)) in zip(lines, RULE_PRESETS.items(), strict=True):
        assert line.split()[0] == name
        assert description in line


def test_rules_show_every_field(run):
    result = run("rules", "show", "party")
    assert result.exit_code == 0
    out = result.stdout
    for name in RULE_FIELDS:
        assert re.search(rf"^  {name}\s", out, re.M), name
    assert re.search(r"^  stacking\s+progressive\*", out, re.M)
    assert re.search(r"^  seven_o\s+true\*", out, re.M)
    assert re.search(r"^  challenge\s+true\s", out, re.M)
    assert "number of players" in out  # meanings are shown


def test_rules_show_honours_set_and_players(run):
    result = run("rules", "show", "official", "--set", "hand_size=9", "--set", "stacking=any", "--players", "3")
    assert result.exit_code == 0
    assert re.search(r"^  hand_size\s+9\*", result.stdout, re.M)
    assert re.search(r"^  stacking\s+any\*", result.stdout, re.M)
    assert re.search(r"^  players\s+3\*", result.stdout, re.M)


def test_rules_show_toml_file(run, tmp_path):
    path = tmp_path / "house.toml"
    path.write_text('base = "seven-o"\nstacking = "plus2"\nhand_size = 5\n')
    result = run("rules", "show", str(path))
    assert result.exit_code == 0
    assert re.search(r"^  seven_o\s+true\*", result.stdout, re.M)
    assert re.search(r"^  stacking\s+plus2\*", result.stdout, re.M)
    assert re.search(r"^  hand_size\s+5\*", result.stdout, re.M)


def _documented_presets() -> list[str]:
    """The preset names of docs/rules.md §13's Presets table, in its order (the user's reference, not the code)."""
    text = (Path(__file__).resolve().parents[1] / "docs" / "rules.md").read_text(encoding="utf-8")
    table = text.split("### Presets", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"^\| `([a-z_-]+)` \|", table, re.M)


def test_policies_list(run):
    """The listing names the presets docs/rules.md §13 documents, in that order, each with a description."""
    result = run("policies", "list")
    assert result.exit_code == 0
    lines = result.stdout.strip().splitlines()
    documented = _documented_presets()
    assert documented[:2] == ["random", "basic"] and len(documented) >= 8  # the table was found and read
    assert [line.split()[0] for line in lines] == [*documented, "search", "peek"]  # the search players last
    assert all(len(line.split()) > 3 for line in lines)


def test_policies_show(run):
    result = run("policies", "show", "basic:bluff=0.3,challenge=0.75")
    assert result.exit_code == 0
    out = result.stdout
    assert re.search(r"^  bluff\s+0\.3\*", out, re.M)
    assert re.search(r"^  challenge\s+0\.75\*", out, re.M)
    assert re.search(r"^  colour\s+most_held\*", out, re.M)
    assert "probability of forgetting to call Uno" in out
    for name in ("play", "attack", "forget_uno", "catch_uno", "swap_target", "play_drawn"):
        assert re.search(rf"^  {name}\s", out, re.M), name


def test_trace_round_is_readable_and_ends_with_the_winner(run):
    result = run("trace", "--players", "4", "--seed", "7")
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "deals 7 cards to each of 4 players" in out
    for seat in range(4):
        assert f"seat {seat}: " in out  # each hand of the deal
    assert "Start card:" in out
    assert re.search(r"^\s+1\. Seat 0 ", out, re.M)  # seat 0 plays first in round 0
    last = out.strip().splitlines()
    ends = [line for line in last if "wins the round" in line]
    assert len(ends) == 1
    # The narration agrees with the engine: winner, points, turn count.
    rules = resolve_rules("official", (), 4)
    rnd = play_round(rules, resolve_policies(4), 7, 0, log=True)
    assert f"Seat {rnd.stats.winner} has no cards left and wins the round, scoring {rnd.stats.winner_points}" in out
    numbers = [int(m) for m in re.findall(r"^\s*(\d+)\. ", out, re.M)]
    assert numbers == list(range(1, rnd.stats.turns + 1))


def test_trace_is_deterministic_and_seeded(run):
    a = run("trace", "--seed", "11", "--game", "3").stdout
    b = run("trace", "--seed", "11", "--game", "3").stdout
    c = run("trace", "--seed", "12", "--game", "3").stdout
    assert a == b
    assert a != c


def test_trace_match_party_reaches_500(run):
    result = run("trace", "--rules", "party", "--players", "6", "--seed", "3", "--match")
    assert result.exit_code == 0, result.output
    out = result.stdout
    headers = re.findall(r"^=== Round (\d+):", out, re.M)
    assert headers and headers == [str(i) for i in range(1, len(headers) + 1)]
    scores = re.findall(r"^Scores after round \d+: (.*)\.$", out, re.M)
    assert len(scores) == len(headers)
    final = [int(x) for x in re.findall(r"seat \d+ (\d+)", scores[-1])]
    assert len(final) == 6 and max(final) >= 500
    winner = final.index(max(final))
    ending = rf"^Seat {winner} wins the match with {max(final)} points after {len(headers)} rounds\.$"
    assert re.search(ending, out, re.M)


def test_trace_with_seat_policies_and_house_rules(run):
    result = run(
        "trace",
        "--rules",
        "stacking",
        "--set",
        "seven_o=true",
        "--players",
        "3",
        "--policy",
        "basic",
        "--seat",
        "1=random:forget_uno=0.5",
        "--seed",
        "5",
    )
    assert result.exit_code == 0, result.output
    assert "seat 1: random:forget_uno=0.5" in result.stdout


def test_python_dash_m_unocli():
    proc = subprocess.run([sys.executable, "-m", "unocli", "--version"], capture_output=True, text=True, check=False, cwd=ROOT)
    assert proc.returncode == 0
    assert proc.stdout.strip() == f"unocli {__version__}"


# ---------------------------------------------------------------- bad input


def _toml(tmp_path: Path, text: str) -> str:
    path = tmp_path / "bad.toml"
    path.write_text(text)
    return str(path)


BAD_INPUT = [
    pytest.param(["trace", "--rules", "nosuch"], ["nosuch", "presets are", "official", "party"], id="unknown-preset"),
    pytest.param(["rules", "show", "nosuch"], ["nosuch", "presets are"], id="unknown-preset-show"),
    pytest.param(["trace", "--set", "colour=red"], ["'colour'", "fields are", "stacking"], id="unknown-field"),
    pytest.param(["trace", "--set", "stacking"], ["--set", "FIELD=VALUE"], id="malformed-set"),
    pytest.param(["trace", "--set", "seven_o=maybe"], ["seven_o", "true or false", "maybe"], id="wrong-type-bool"),
    pytest.param(["trace", "--set", "hand_size=lots"], ["hand_size", "whole number", "lots"], id="wrong-type-int"),
    pytest.param(["trace", "--set", "stacking=sometimes"], ["stacking", "off, plus2, same, progressive, any"], id="wrong-enum"),
    pytest.param(
        ["rules", "show", "official", "--set", "wild_draw_four=never"],
        ["wild_draw_four", "restricted, free"],
        id="wrong-enum-show",
    ),
    pytest.param(["trace", "--players", "11"], ["players", "between 2 and 10", "11"], id="too-many-players"),
    pytest.param(["trace", "--players", "1"], ["players", "between 2 and 10", "1"], id="too-few-players"),
    pytest.param(["trace", "--players", "four"], ["--players", "integer"], id="players-not-a-number"),
    pytest.param(["trace", "--players", "10", "--set", "hand_size=11"], ["hand_size", "at most 10", "108"], id="hand-too-large"),
    pytest.param(["trace", "--rules", "{toml:stacking = }"], ["not valid TOML", "bad.toml"], id="malformed-toml"),
    pytest.param(["trace", "--rules", "{toml:stacking = 'weird'}"], ["bad.toml", "stacking", "off, plus2"], id="bad-toml-value"),
    pytest.param(["trace", "--rules", "{toml:base = 'nosuch'}"], ["nosuch", "presets are"], id="bad-toml-base"),
    pytest.param(["trace", "--rules", "no/such/file.toml"], ["no/such/file.toml", "does not exist"], id="missing-toml"),
    pytest.param(["trace", "--policy", "clever"], ["clever", "policies are", "random", "basic"], id="unknown-policy"),
    pytest.param(["policies", "show", "clever"], ["clever", "policies are"], id="unknown-policy-show"),
    pytest.param(["trace", "--policy", "basic:nerve=1"], ["nerve", "knobs are", "bluff"], id="unknown-knob"),
    pytest.param(["trace", "--policy", "basic:bluff"], ["knob=value", "bluff"], id="malformed-knob"),
    pytest.param(["trace", "--policy", "random:bluff=1.5"], ["bluff", "between 0 and 1", "1.5"], id="probability-high"),
    pytest.param(["trace", "--seat", "0=basic:catch_uno=-0.1"], ["catch_uno", "between 0 and 1", "-0.1"], id="probability-low"),
    pytest.param(["trace", "--seat", "4=basic"], ["seat 4", "0 to 3"], id="seat-outside-table"),
    pytest.param(["trace", "--players", "2", "--seat", "2=basic"], ["seat 2", "0 to 1"], id="seat-outside-2"),
    pytest.param(["trace", "--seat", "x=basic"], ["--seat", "seat number", "'x'"], id="seat-not-a-number"),
    pytest.param(["trace", "--seat", "basic"], ["--seat", "SEAT=POLICY"], id="seat-malformed"),
    pytest.param(["trace", "--seed", "18446744073709551616"], ["--seed", "0 to 2**64 - 1"], id="seed-too-large"),
    pytest.param(["trace", "--seed", "-1"], ["--seed", "0 to 2**64 - 1"], id="seed-negative"),
    pytest.param(["trace", "--seed", "abc"], ["--seed", "whole number"], id="seed-not-a-number"),
    pytest.param(["trace", "--game", "-5"], ["--game", "0 to 2**64 - 1"], id="game-negative"),
    pytest.param(["nosuchcommand"], ["No such command", "nosuchcommand"], id="unknown-command"),
]


@pytest.mark.parametrize(("args", "expected"), BAD_INPUT)
def test_bad_input_is_one_clean_line(run, tmp_path, args, expected):
    args = [_toml(tmp_path, a[6:-1]) if a.startswith("{toml:") else a for a in args]
    result = run(*args)
    assert result.exit_code != 0
    assert "Traceback" not in result.output
    assert result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("Error: ")
    for text in expected:
        assert text in lines[0], (text, lines[0])


def test_bad_input_in_a_real_process_has_no_traceback():
    proc = subprocess.run(
        [sys.executable, "-m", "unocli", "trace", "--set", "stacking=sometimes"],
        capture_output=True,
        text=True,
        check=False,
        cwd=ROOT,
    )
    assert proc.returncode == 1
    assert proc.stdout == ""
    assert proc.stderr.strip().splitlines() == [
        "Error: rule field 'stacking' must be one of off, plus2, same, progressive, any, not 'sometimes'"
    ]


# ---------------------------------------------------------------- help and README


def _commands(group: click.Group, prefix: tuple[str, ...] = ()):
    for name, command in group.commands.items():
        path = (*prefix, name)
        yield path, command
        if isinstance(command, click.Group):
            yield from _commands(command, path)


def test_every_command_has_help_and_is_in_the_readme(run):
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    paths = list(_commands(cli))
    assert {" ".join(p) for p, _ in paths} >= {"rules", "rules list", "rules show", "policies", "trace"}
    for path, command in paths:
        assert command.help and command.help.strip(), f"{' '.join(path)} has no help text"
        result = run(*path, "--help")
        assert result.exit_code == 0
        first = " ".join(command.help.strip().split("\n\n")[0].split())
        assert first in " ".join(result.stdout.split())
        assert f"unocli {' '.join(path)}" in readme, f"'unocli {' '.join(path)}' is not in README.md"
        for param in command.params:
            if isinstance(param, click.Option):
                assert param.help, f"{' '.join(path)} {param.opts[0]} has no help text"


# ---------------------------------------------------------------- one number format across commands

INTERVAL = r"[+-]?[\d,]+\.?\d*(?:%| pp)? \[[+-]?[\d,.]+%?, [+-]?[\d,.]+%?\]"


def _mean_cells(text: str) -> list[tuple[str, str]]:
    """(metric, "mean [low, high]") of each row of a compare or sweep table, in order."""
    cells = []
    for line in text.splitlines():
        m = re.search(rf"\b(win_0|turns)\s+(?:[\d,]+\s+)?({INTERVAL})", line)
        if m:
            cells.append((m.group(1), m.group(2)))
    return cells


def test_compare_and_sweep_print_the_same_cells_alike(run, tmp_path):
    """The same games through compare and sweep print the same means the same way: shares as percentages."""
    compare = run(
        "compare",
        "--arm",
        "official",
        "--arm",
        "any: --set stacking=any",
        "--games",
        "400",
        "--metrics",
        "turns,win_0",
        "--quiet",
    )
    sweep = run(
        "sweep",
        "--grid",
        "stacking=off,any",
        "--games",
        "400",
        "--metrics",
        "turns,win_0",
        "--quiet",
        "--out",
        str(tmp_path / "s"),
    )
    assert compare.exit_code == 0 and sweep.exit_code == 0, compare.output + sweep.output
    cells = _mean_cells(compare.stdout)
    assert len(cells) == 4 and cells == _mean_cells(sweep.stdout)
    for metric, text in cells:
        assert text.endswith("%]") == (metric == "win_0"), text
    assert re.search(r"win_0 .*% \[.*\]\s+[+-][\d.]+ pp \[[+-][\d.]+, [+-][\d.]+\]", compare.stdout)


def test_simulate_prints_win_shares_as_percentages(run):
    result = run("simulate", "--games", "2000", "--quiet")
    assert result.exit_code == 0, result.output
    rows = [line for line in result.stdout.splitlines() if re.match(r"\s+\d+ random ", line)]
    assert len(rows) == 4
    for line in rows:
        assert re.search(r" [\d,]+ +\d+\.\d+% +\[\d+\.\d+%, \d+\.\d+%\]$", line), line
    assert "e-" not in result.stdout and "nan" not in result.stdout


def test_check_table_signs_its_differences(run):
    """Every difference and interval bound is signed and positional (no 2.5e-05), shares in points."""
    result = run("check", "--games", "500", "--seed", "1", str(ROOT / "sims" / "baselines" / "balance.json"))
    assert result.exit_code in (0, 3), result.output
    lines = result.stdout.splitlines()
    assert re.fullmatch(r"\d+ pass, \d+ fail, \d+ inconclusive", lines[-1])
    rows = [line for line in lines[:-1] if line.rstrip().endswith(("pass", "fail", "inconclusive"))]
    assert len(rows) > 20
    number = r"[+-][\d,]+\.?\d*"
    for line in rows:
        # ... then the smallest detectable change (unsigned: a size, not a difference)
        m = re.search(rf" ({number})( pp)? +\[({number}), ({number})\] +[\d,]+\.?\d*( pp)? +(pass|fail|inconclusive)$", line)
        assert m, line
        assert (m.group(2) is not None) == ("win_share" in line), line
    assert not re.search(r"\de-\d", result.stdout)


def test_simulate_names_each_seats_policy_as_given(run):
    """The seat table names a knob-changed policy, a search player and a policies-file player by their specs (it said
    "custom" for anything but a bare preset)."""
    policies = str(ROOT / "sims" / "tuned" / "tuned.toml")
    args = ["simulate", "--games", "6", "--seed", "3", "--policy", "basic:bluff=0.3", "--policies", policies]
    result = run(*args, "--seat", "1=search:budget=4", "--seat", "2=tuned-official-4", "--seat", "3=random")
    assert result.exit_code == 0, result.output
    rows = result.output.split("Seat win shares")[1].splitlines()[2:6]
    assert [r.split()[:2] for r in rows] == [
        ["0", "basic:bluff=0.3"],
        ["1", "search:budget=4"],
        ["2", "tuned-official-4"],
        ["3", "random"],
    ]
