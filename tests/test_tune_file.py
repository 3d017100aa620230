"""What ``unocli tune`` writes is read back by unocli (issue 25): hostile names are quoted or refused with one
sentence, the knobs are written out so a file loads on its own, and bad options and space values are refused
before any game."""

from __future__ import annotations

import tomllib

import numpy as np
import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import policies

from unocli.cli.main import cli
from unocli.errors import ConfigError
from unocli.game.policies import PRESETS, load_policies_file, parse_policy_spec, preset, resolve_policies
from unocli.study import tune as tuning
from unocli.study import tune_file
from unocli.study.arm import PolicyFile

HOSTILE = ['we"ird', "a.b", "back\\slash", "x]\ny = 1", "", " pad", "tab\t", "é-ü 名", "[t]", "#hash", "it's", "a:b", "a,b"]


def _round_trip(tmp_path, name: str, policy) -> None:
    path = tmp_path / "p.toml"
    path.write_text("# head\n" + "\n".join(tune_file.policy_table(name, policy)) + "\n", encoding="utf-8")
    assert list(tomllib.loads(path.read_text(encoding="utf-8"))) == [name]  # one table, under exactly this name
    loaded = load_policies_file(path)
    assert loaded == {name: policy}
    extra = PolicyFile.load(path).policies  # what --policies FILE gives every command
    assert parse_policy_spec(name, extra) == policy
    assert resolve_policies(3, "basic", [f"0={name}"], extra)[0] == policy  # --seat 0=NAME


@pytest.mark.parametrize("name", HOSTILE)
def test_a_hostile_name_is_written_so_policies_reads_it_back_or_refused(tmp_path, name):
    policy = preset("strong").replace(attack_at=2)
    try:
        tune_file.check_policy_name(name)
    except ConfigError as exc:
        assert "\n" not in str(exc) and "policy name" in str(exc)
        assert name in {"x]\ny = 1", "", " pad", "tab\t", "a:b", "a,b"}  # the ones a spec cannot name
        return
    _round_trip(tmp_path, name, policy)


@settings(max_examples=150, deadline=None)
@given(name=st.text(min_size=0, max_size=30), policy=policies(finite=True))
def test_any_name_and_policy_round_trip_through_the_written_file(tmp_path_factory, name, policy):
    try:
        tune_file.check_policy_name(name)
    except ConfigError:
        with pytest.raises(ConfigError):
            tune_file.policy_table(name, policy)  # the writer refuses it too: no broken file is written
        return
    _round_trip(tmp_path_factory.mktemp("rt"), name, policy)


def test_a_preset_name_is_refused():
    for name in PRESETS:
        with pytest.raises(ConfigError, match="preset"):
            tune_file.check_policy_name(name)


def test_the_written_entry_holds_the_knobs_not_a_reference_to_the_spaces_base(tmp_path):
    """A base with knobs (basic:challenge=0) or from another policies file must not be written as base = ..."""
    mine = tmp_path / "mine.toml"
    mine.write_text('[house]\nbase = "basic"\nchallenge = 0.0\nplay_drawn = 0.0\n')
    extra = load_policies_file(mine)
    for spec in ["basic:challenge=0", "house"]:
        policy = parse_policy_spec(spec, extra).replace(attack_at=2)
        text = "\n".join(tune_file.policy_table("tuned", policy))
        assert "house" not in text and "challenge" in text
        assert tomllib.loads(text)["tuned"]["base"] in PRESETS
        _round_trip(tmp_path, "tuned", policy)


# ---------------------------------------------------------------- the command


def _fake_gains(monkeypatch) -> None:
    """Planted gains instead of games, so the command's checks and its file can be tested in a moment."""

    def fake(table, policy, start, count):
        rng = np.random.default_rng([start, len(tuning.policy_spec(policy))])
        return rng.normal(0.01 if policy == preset("strong") else 0.0, 0.1, count)

    monkeypatch.setattr(tuning, "deal_gains", fake)


def _space(tmp_path, text: str = 'base = "basic:challenge=0"\n[knobs]\ncolour = ["most_held", "next_lacks"]\n'):
    path = tmp_path / "space.toml"
    path.write_text(text)
    return str(path)


FAST = ["--first", "100", "--max-deals", "300", "--fresh", "200"]


@pytest.mark.parametrize("name", ['we"ird.na me', "a.b", "é#[x]"])
def test_the_cli_writes_a_file_simulate_reads_back_under_a_hostile_name(tmp_path, monkeypatch, name):
    _fake_gains(monkeypatch)
    out = tmp_path / "p.toml"
    result = CliRunner().invoke(cli, ["tune", _space(tmp_path), *FAST, "--name", name, "-o", str(out)])
    assert result.exit_code == 0, result.output
    loaded = load_policies_file(out)
    assert list(loaded) == [name]
    sim = CliRunner().invoke(
        cli, ["simulate", "--games", "20", "--policies", str(out), "--seat", f"0={name}", "--policy", "basic"]
    )
    assert sim.exit_code == 0, sim.output


@pytest.mark.parametrize("name", ["", "x\ny = 1", "basic", "a:b", " pad"])
def test_the_cli_refuses_a_name_policies_could_not_load_before_any_game(tmp_path, monkeypatch, name):
    monkeypatch.setattr(tuning, "deal_gains", lambda *a: pytest.fail("a game was played"))
    out = tmp_path / "p.toml"
    result = CliRunner().invoke(cli, ["tune", _space(tmp_path), "--name", name, "-o", str(out)])
    assert result.exit_code == 2 and "--name" in result.output and "Traceback" not in result.output
    assert not out.exists()


@pytest.mark.parametrize("alpha", ["nan", "inf", "-inf", "0", "1", "1.5"])
def test_the_cli_refuses_a_level_that_is_not_between_0_and_1(tmp_path, alpha):
    result = CliRunner().invoke(cli, ["tune", _space(tmp_path), "--alpha", alpha])
    assert result.exit_code == 2 and "--alpha" in result.output and "Traceback" not in result.output


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ('base = ["basic"]\n[knobs]\ncolour = ["most_held", "next_lacks"]\n', "base must be one policy spec"),
        ('base = {a = 1}\n[knobs]\ncolour = ["most_held", "next_lacks"]\n', "base must be one policy spec"),
        ('base = "basic"\n[knobs]\ncolour = [["most_held"], "next_lacks"]\n', "each value to try must be one"),
        ('base = "basic"\n[knobs]\ncolour = [{a = 1}, "next_lacks"]\n', "each value to try must be one"),
        ('base = "basic"\n[knobs]\nchallenge = [nan, 0.5]\n', "finite"),
        ('base = "basic"\n[knobs]\ncolour = ["most_held"]\nchallenge = [0.5]\n', "one setting only"),
        ('base = "basic"\n[knobs]\ncolour = ["most_held", "most_held"]\n', "one setting only"),
    ],
)
def test_a_space_value_of_the_wrong_kind_gets_one_sentence(tmp_path, monkeypatch, text, words):
    monkeypatch.setattr(tuning, "deal_gains", lambda *a: pytest.fail("a game was played"))
    result = CliRunner().invoke(cli, ["tune", _space(tmp_path, text)])
    assert result.exit_code == 1, result.output
    assert words in result.output and "internal error" not in result.output and len(result.output.strip().splitlines()) == 1


def test_quiet_prints_the_result_and_nothing_on_stderr(tmp_path, monkeypatch):
    _fake_gains(monkeypatch)
    out = tmp_path / "p.toml"
    result = CliRunner().invoke(cli, ["tune", _space(tmp_path), *FAST, "--quiet", "-o", str(out)])
    assert result.exit_code == 0
    assert result.stderr == "" and result.stdout.startswith("Result:") and "round 1" not in result.stdout
    loud = CliRunner().invoke(cli, ["tune", _space(tmp_path), *FAST, "-o", str(out)])
    assert "round 1:" in loud.stderr and "Searching" in loud.stderr
