"""The shipped tuned players: sims/tuned/tuned.toml and the `strong` preset (issue 12 item 3; issue 26 item 2).

The cheap checks read each entry's recorded fresh-deal verdict: an entry that ships a search's winner must
have beaten basic, smart and strong (paired 95% interval above 0 against each); one that ships a preset
must be that preset and the best of the three. The slow check replays every entry's verdict on its fresh
deals and requires the recorded figures exactly (benchmarks/verify_tuned.py makes them the same way).
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest
from naive import first_difference, reference_rows

from unocli.game import rules as rules_module
from unocli.game.policies import load_policies_file, preset
from unocli.kernel import play_rows
from unocli.study import tune as tuning
from unocli.study.tune_file import pp, read_verdicts

ROOT = Path(__file__).resolve().parent.parent
TUNED = ROOT / "sims" / "tuned" / "tuned.toml"
MADE_BY = re.compile(
    r"^# Made by: unocli tune sims/spaces/(?:strong|basic)\.toml --rules (\S+) --players (\d+) --field basic --seed \d+"
)
FRESH = re.compile(r"^# Fresh deals: ([\d,]+) from game index (\d+), seats rotated, field basic;", re.M)


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
        out.append((tomllib.loads(name.group(0)).popitem()[0], m.group(1), int(m.group(2))))
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


def test_the_tune_report_ships_the_strong_preset():
    """reports/tune/tuned.toml is `unocli tune`'s output: its winner did not beat `strong` on fresh deals, so it
    ships `strong` itself, and says so (reports/tune/README.md)."""
    path = ROOT / "reports" / "tune" / "tuned.toml"
    assert load_policies_file(path)["tuned-official-4"] == preset("strong")
    (verdict,) = read_verdicts(path.read_text(encoding="utf-8"))
    assert verdict.preset == "strong" and verdict.over["strong"] == (0.0, 0.0, 0.0)


def test_the_installed_package_reads_the_same_file():
    """unocli/data/sims links to sims/ (package data), so what a user's unocli loads is what is checked here."""
    assert (ROOT / "unocli" / "data" / "sims" / "tuned" / "tuned.toml").read_bytes() == TUNED.read_bytes()


def test_every_entry_beat_basic_smart_and_strong_on_fresh_deals_or_is_the_best_of_them():
    loaded = load_policies_file(TUNED)
    verdicts = read_verdicts(TUNED.read_text(encoding="utf-8"))
    assert [v.name for v in verdicts] == list(loaded) and len(verdicts) == 36  # 12 rule presets x 2, 4, 6 players
    for v in verdicts:
        assert set(v.over) == {"basic", "smart", "strong"}, v.name
        if v.preset is None:  # a search's winner: the paired interval above 0 against each preset
            assert all(low > 0 for _, low, _ in v.over.values()), f"{v.name} does not beat all three: {v.over}"
        else:  # the best of the three on the fresh deals, and nothing else
            assert loaded[v.name] == preset(v.preset), v.name
            assert v.over[v.preset] == (0.0, 0.0, 0.0) and all(d >= 0 for d, _, _ in v.over.values()), v.name


@pytest.mark.slow
@pytest.mark.parametrize("index", range(36))
def test_an_entrys_recorded_verdict_is_what_its_fresh_deals_give(index):
    """Replays the entry's fresh check (its deals, its seed) and compares every recorded figure (slow: about a
    minute an entry on two busy cores)."""
    text = TUNED.read_text(encoding="utf-8")
    block = text.split("\n# Made by: ")[1:][index]
    name, rules_name, players = _entries()[index]
    deals_text, start = FRESH.search(block).groups()  # type: ignore[union-attr]
    seed = int(re.search(r"--seed (\d+)", block).group(1))  # type: ignore[union-attr]
    rules = rules_module.preset(rules_name).replace(players=players)
    table = tuning.Table(rules, preset("basic"), seed)
    refs = tuning.references(table.field_policy)
    verdict = next(v for v in read_verdicts(text) if v.name == name)
    shipped = load_policies_file(TUNED)[name]
    check = tuning.fresh_check(table, shipped, refs, int(deals_text.replace(",", "")), start=int(start))
    for ref, d in check.versus.items():
        assert f"over {ref} {pp(d)}" in block, (name, ref, pp(d))
    assert check.beats_all() == (verdict.preset is None)
