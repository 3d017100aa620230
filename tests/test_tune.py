"""``unocli tune``: the race keeps what is better and drops what is worse, the re-measurement uses
deals the search never saw, and the tuned policy file plays the same in both engines."""

from __future__ import annotations

import numpy as np
import pytest
from click.testing import CliRunner
from naive import first_difference, reference_rows

from unocli.cli.main import cli
from unocli.game.policies import load_policies_file, preset
from unocli.game.rules import Rules
from unocli.kernel import play_rows
from unocli.study import tune as tuning
from unocli.study import tune_file

RULES = Rules(players=3)
BASIC = preset("basic")


def _table(seed: int = 5) -> tuning.Table:
    return tuning.Table(RULES, BASIC, seed)


def test_the_base_against_itself_gains_exactly_zero_on_every_deal():
    """With every seat alike, each rotation replays one game, so every slot wins it exactly once."""
    gains = tuning.deal_gains(_table(), BASIC, 0, 300)
    assert np.all(gains == 0.0)


def test_the_race_drops_a_worse_candidate_and_keeps_a_better_one():
    """``random`` play is worse than basic by construction (several points at 3 players); smart is better
    (README: +1.8 points at 4 players). Both by far more than the race's resolution at these deal counts."""
    candidates = [
        tuning.Candidate("c00", BASIC),
        tuning.Candidate("c01", preset("random")),
        tuning.Candidate("c02", preset("smart")),
    ]
    state = tuning.race(_table(), candidates, first=1000, max_deals=8000, alpha=0.05)
    assert "c01" in state.dropped_in  # the worse one goes
    assert "c02" not in state.dropped_in  # the better one stays
    leader = max(state.alive(), key=lambda c: state.all_gains(c.name).mean())
    assert leader.name == "c02"


def test_the_fresh_deals_are_disjoint_from_the_search(monkeypatch):
    starts: list[tuple[int, int]] = []
    real = tuning.deal_gains

    def spy(table, policy, start, count):
        starts.append((start, count))
        return real(table, policy, start, count)

    monkeypatch.setattr(tuning, "deal_gains", spy)
    space = tuning.SearchSpace("basic", {"colour": ("most_held", "next_lacks")}, candidates=2)
    result = tuning.tune(_table(), space, first=200, max_deals=600, fresh_deals=300)
    search = [(s, c) for s, c in starts if s < tuning.FRESH_START]
    fresh = [(s, c) for s, c in starts if s >= tuning.FRESH_START]
    # the winner, smart and strong against the field, and the shipped player against smart (basic is the field:
    # its gain is 0 on every deal, so it is not played)
    assert search and len(fresh) == 4
    assert max(s + c for s, c in search) <= result.races[-1].end <= tuning.MAX_SEARCH_DEALS < tuning.FRESH_START
    assert all(s == tuning.FRESH_START for s, _ in fresh)


def test_the_tuned_policy_file_loads_and_plays_identically_in_both_engines(tmp_path):
    space = tuning.SearchSpace(
        "basic",
        {
            "play": ("low>draw_two>skip>reverse>wild>wild_draw_four",),
            "attack_at": (1,),
            "attack": ("draw_two>skip>reverse>wild_draw_four>wild>low",),
        },
        candidates=4,
    )
    result = tuning.tune(_table(), space, first=100, max_deals=200, fresh_deals=200)
    path = tmp_path / "tuned.toml"
    path.write_text(tune_file.policy_toml(result, "mine", "unocli tune test"))
    loaded = load_policies_file(path)["mine"]
    assert loaded == result.shipped.policy
    policies = (loaded, BASIC, BASIC)
    kernel = play_rows(RULES, policies, seed=9, start=0, count=60, threads=1)
    assert first_difference(kernel, reference_rows(RULES, policies, 9, 0, 60)) is None


def test_a_space_file_is_validated_before_any_game(tmp_path):
    bad = tmp_path / "space.toml"
    bad.write_text('base = "basic"\n[knobs]\ncolour = ["most_held", "purple"]\n')
    result = CliRunner().invoke(cli, ["tune", str(bad)])
    assert result.exit_code == 1 and "purple" in result.output and "Traceback" not in result.output
    bad.write_text('base = "basic"\n[knobs]\nno_such_knob = [1]\n')
    result = CliRunner().invoke(cli, ["tune", str(bad)])
    assert result.exit_code == 1 and "no_such_knob" in result.output


@pytest.mark.parametrize("missing", ["out", "table"])
def test_an_unwritable_destination_is_refused_before_any_game(tmp_path, missing):
    space = tmp_path / "space.toml"
    space.write_text('base = "basic"\n[knobs]\ncolour = ["most_held", "next_lacks"]\n')  # the inputs are read first
    flag, name = ("-o", "p.toml") if missing == "out" else ("--table", "t.csv")
    result = CliRunner().invoke(cli, ["tune", str(space), flag, str(tmp_path / "nowhere" / name)])
    assert result.exit_code == 1 and "does not exist" in result.output


def test_cli_writes_the_policy_table_and_chart(tmp_path):
    space = tmp_path / "space.toml"
    space.write_text('base = "basic"\ncandidates = 3\n[knobs]\ncolour = ["most_held", "next_lacks"]\nchallenge = [0.0, 0.25]\n')
    args = [
        "tune",
        str(space),
        "--players",
        "3",
        "--first",
        "100",
        "--max-deals",
        "200",
        "--fresh",
        "200",
        "-o",
        str(tmp_path / "p.toml"),
        "--table",
        str(tmp_path / "t.csv"),
        "--chart",
        str(tmp_path / "c.png"),
    ]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, result.output
    assert "shipped - smart (paired)" in result.output
    assert '["tuned"]' in (tmp_path / "p.toml").read_text()
    table = (tmp_path / "t.csv").read_text().splitlines()
    assert table[0].startswith("candidate,policy,stage,deals,gain_pp,ci_low_pp,ci_high_pp")
    # the first race: 3 points of the space and the 8 presets (basic is the space's base, so 7 more)
    assert sum(1 for row in table[1:] if row.split(",")[2] == "0") == 3 + 7
    assert (tmp_path / "c.png").stat().st_size > 1000


def test_the_sample_holds_every_single_knob_change_of_the_base():
    space = tuning.SearchSpace(
        "basic",
        {"colour": ("most_held", "next_lacks", "random"), "challenge": (0.0, 0.25, 1.0), "bluff": (0.0, 0.5)},
        candidates=8,
    )
    sampled = {c.policy for c in space.sample(seed=1)}
    neighbours = {
        BASIC.replace(colour="next_lacks"),
        BASIC.replace(colour="random"),
        BASIC.replace(challenge=0.0),
        BASIC.replace(challenge=1.0),
        BASIC.replace(bluff=0.5),
    }
    assert neighbours <= sampled and BASIC in sampled and len(sampled) == 8


def test_tune_refuses_to_write_its_policy_file_over_an_input_before_any_game(tmp_path):
    """`tune -o FILE` naming the --policies file it reads (or its own search space) is refused before any game,
    and the file keeps every policy (it was replaced by the tuned one alone, the others lost)."""
    from unocli.cli.main import cli as main_cli

    lib = tmp_path / "lib.toml"
    lib.write_text('[mine]\nbase = "basic"\nbluff = 0.3\n[other]\nbase = "smart"\n', encoding="utf-8")
    space = tmp_path / "space.toml"
    space.write_text('base = "basic"\ncandidates = 2\n[knobs]\nbluff = [0.0, 1.0]\n', encoding="utf-8")
    before = {p: p.read_text(encoding="utf-8") for p in (lib, space)}
    common = [str(space), "--first", "10", "--max-deals", "20", "--fresh", "100", "--local-steps", "0", "-q"]
    for out, what in ((lib, "policy file"), (space, "search space")):
        result = CliRunner().invoke(main_cli, ["tune", *common, "--policies", str(lib), "--field", "mine", "-o", str(out)])
        assert result.exit_code != 0 and f"is the {what} this command reads" in result.output, result.output
        assert "Result:" not in result.output  # refused before the search
    assert {p: p.read_text(encoding="utf-8") for p in (lib, space)} == before
