"""The shipped tuned players: sims/tuned/tuned.toml and the `strong` preset (issue 12 item 3)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from naive import first_difference, reference_rows

from unocli.game import rules as rules_module
from unocli.game.policies import load_policies_file, preset
from unocli.kernel import play_rows

ROOT = Path(__file__).resolve().parent.parent
TUNED = ROOT / "sims" / "tuned" / "tuned.toml"
MADE_BY = re.compile(r"^# Made by: unocli tune sims/spaces/strong\.toml --rules (\S+) --players (\d+) --field basic --seed \d+")


def _entries() -> list[tuple[str, str, int]]:
    """(policy name, rules preset, players) of every entry, read from its 'Made by' line."""
    out = []
    text = TUNED.read_text(encoding="utf-8")
    for block in text.split("\n# Made by: ")[1:]:
        first = "# Made by: " + block.splitlines()[0]
        m = MADE_BY.match(first)
        assert m, f"an entry of {TUNED.name} does not start with the command that made it: {first!r}"
        name = re.search(r"^\[(.+)\]$", block, re.M)
        assert name
        out.append((name.group(1), m.group(1), int(m.group(2))))
    return out


def test_every_tuned_player_records_how_it_was_made_and_is_named_for_its_table():
    entries = _entries()
    assert entries
    loaded = load_policies_file(TUNED)
    assert set(loaded) == {name for name, _, _ in entries}
    for name, rules, players in entries:
        assert name == f"tuned-{rules}-{players}"
        rules_module.preset(rules)  # a real rule preset


def test_the_official_four_player_tuned_players_exist():
    names = {name for name, _, _ in _entries()}
    assert {"tuned-official-2", "tuned-official-4", "tuned-official-6"} <= names


@pytest.mark.parametrize("which", [0, -1])
def test_a_tuned_player_plays_identically_in_both_engines(which):
    name, rules_name, players = _entries()[which]
    rules = rules_module.preset(rules_name).replace(players=players)
    policies = (load_policies_file(TUNED)[name],) + (preset("basic"),) * (players - 1)
    kernel = play_rows(rules, policies, seed=5, start=0, count=40, threads=1)
    assert first_difference(kernel, reference_rows(rules, policies, 5, 0, 40)) is None


def test_the_strong_preset_is_the_winner_the_tune_report_wrote():
    """reports/tune/tuned.toml is `unocli tune`'s output; the `strong` preset must be that policy, not a copy that drifted."""
    assert load_policies_file(ROOT / "reports" / "tune" / "tuned.toml")["strong"] == preset("strong")
