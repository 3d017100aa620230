"""``{rules}`` and ``{players}`` in policy specs: expanded per table when it is built, refused clearly otherwise.

``tuned-{rules}-{players}`` must seat, at every arm and table size, exactly the
tuned player of sims/tuned/tuned.toml made for that rule preset and size; a
template that cannot be filled in (unknown braces, a rules file, a name that
does not exist) is one sentence naming the spec, exit 2 through the CLI.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from unocli.errors import ConfigError
from unocli.game.policies import UnknownPolicy
from unocli.report.experiment import load_experiment
from unocli.study.arm import PolicyFile, TableSpec, expand_spec

ROOT = Path(__file__).resolve().parents[1]
TUNED = ROOT / "sims" / "tuned" / "tuned.toml"


@pytest.fixture(scope="module")
def tuned() -> PolicyFile:
    return PolicyFile.load(TUNED)


@pytest.mark.parametrize("rules", ["official", "stacking", "seven-o"])
@pytest.mark.parametrize("players", [2, 4, 6])
def test_table_seats_its_own_tuned_player(tuned, rules, players):
    arm = TableSpec(rules=rules, policy="basic", seats=((0, "tuned-{rules}-{players}:bluff=0.2"),), policies=tuned).build(
        players=players
    )
    assert arm.policies[0] == tuned.policies[f"tuned-{rules}-{players}"].replace(bluff="0.2")
    assert arm.labels[0] == f"tuned-{rules}-{players}:bluff=0.2"  # reports name the player actually seated
    assert set(arm.labels[1:]) == {"basic"}
    every = TableSpec(rules=rules, policy="tuned-{rules}-{players}", policies=tuned).build(players=players)
    assert set(every.policies) == {tuned.policies[f"tuned-{rules}-{players}"]}


def test_tuned_players_differ_between_cells(tuned):
    # the expansion must reach different players, or the test above could pass with one player everywhere
    assert tuned.policies["tuned-official-2"] != tuned.policies["tuned-official-4"]
    assert len({tuned.policies[f"tuned-{r}-4"] for r in ("official", "stacking", "seven-o", "draw-until-playable")}) > 1


def test_expansion_per_arm_and_table_size_in_an_experiment_file(tmp_path):
    path = tmp_path / "exp.toml"
    path.write_text(
        f"""
games = 10
players = [2, 4, 6]
policies = {str(TUNED)!r}
[base]
policy = "basic"
[arms.official]
rules = "official"
[arms.stacking]
rules = "stacking"
seats = {{ 0 = "tuned-{{rules}}-{{players}}" }}
""",
        encoding="utf-8",
    )
    exp = load_experiment(path)
    for n in (2, 4, 6):
        official, stacking = exp.arms_for(n)
        assert official.labels == ("basic",) * n
        assert stacking.labels == (f"tuned-stacking-{n}",) + ("basic",) * (n - 1)


def test_a_spec_without_braces_is_unchanged():
    assert expand_spec("basic:bluff=0.3", "official", 4) == "basic:bluff=0.3"


@pytest.mark.parametrize(
    ("spec", "rules", "players", "words"),
    [
        ("tuned-{foo}", "official", 4, r"unknown placeholder \{foo\}"),
        ("tuned-{rules", "official", 4, "unmatched brace"),
        ("tuned-{rules}-{players}", "sims/custom.toml", 4, r"\{rules\} needs the rules to be a preset name"),
        ("tuned-{rules}-{players}", "official", 3, "names 'tuned-official-3', which is not in"),
    ],
)
def test_errors_name_the_spec(tuned, spec, rules, players, words):
    with pytest.raises(UnknownPolicy, match=words) as info:
        expand_spec(spec, rules, players, tuned)
    assert repr(spec) in str(info.value)
    assert "\n" not in str(info.value)


def test_template_without_a_policies_file_is_refused():
    with pytest.raises(UnknownPolicy, match="no policies file is named"):
        TableSpec(rules="official", policy="tuned-{rules}-{players}").build(players=4)


def test_experiment_file_refuses_a_missing_player_naming_file_and_arm(tmp_path):
    path = tmp_path / "exp.toml"
    path.write_text(
        f'players = [2, 3]\npolicies = {str(TUNED)!r}\n[arms.a]\npolicy = "tuned-{{rules}}-{{players}}"\n', encoding="utf-8"
    )
    with pytest.raises(ConfigError, match=r"key 'arms\.a': at 3 players: policy 'tuned-\{rules\}-\{players\}'"):
        load_experiment(path)
    path.write_text('[arms.a]\npolicy = "basic-{size}"\n', encoding="utf-8")
    with pytest.raises(ConfigError, match=r"arms\.a\.policy.*unknown placeholder \{size\}"):
        load_experiment(path)


def test_cli_refuses_a_missing_player_with_exit_2_and_one_line(tmp_path):
    path = tmp_path / "exp.toml"
    path.write_text(
        f'players = [3]\npolicies = {str(TUNED)!r}\n[arms.a]\nseats = {{ 0 = "tuned-{{rules}}-{{players}}" }}\n',
        encoding="utf-8",
    )
    cmd = [sys.executable, "-m", "unocli", "report", str(path), "--quick", "--quiet", "--out", str(tmp_path / "out")]
    proc = subprocess.run(cmd, capture_output=True, text=True, check=False, timeout=600, cwd=ROOT)
    assert proc.returncode == 2, proc.stderr
    assert "tuned-official-3" in proc.stderr and "Traceback" not in proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1
    assert not (tmp_path / "out").exists()  # refused before any game was played
