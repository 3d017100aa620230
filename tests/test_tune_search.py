"""The search and what it ships (issue 26 item 2): the field's policy and every preset always race; a
candidate better by construction is found, also where only local search reaches it; a winner that does not
beat basic, smart and strong on fresh deals is not shipped; a field that is already the best ships itself;
matches are won by whoever reaches the target score."""

from __future__ import annotations

import numpy as np
from click.testing import CliRunner

from unocli.cli.main import cli
from unocli.game.policies import PRESETS, Policy, preset
from unocli.game.rules import Rules
from unocli.kernel import ROW_NAMES, play_rows
from unocli.run.shards import rotated
from unocli.study import tune as tuning

RULES = Rules(players=3)
BASIC = preset("basic")
SPACE = tuning.SearchSpace(
    "basic",
    {
        "colour": ("most_held", "next_lacks", "random"),
        "attack_at": (0, 1, 2, 3),
        "challenge": (0.25, 0.0, 0.5, 1.0),
        "play_drawn": (1.0, 0.5, 0.0),
    },
    candidates=12,
)


def _planted(monkeypatch, value) -> None:
    """Gains by construction: ``value(policy, field)`` plus seeded noise (sd 0.3), no games played."""

    def fake(table, policy, start, count):
        rng = np.random.default_rng([start, count, len(tuning.policy_spec(policy)), sum(map(ord, tuning.policy_spec(policy)))])
        if policy == table.field_policy:
            return np.zeros(count)  # as in a real game: the field against itself gains 0 on every deal
        return value(policy, table.field_policy) + rng.normal(0.0, 0.3, count)

    monkeypatch.setattr(tuning, "deal_gains", fake)


def test_the_first_race_holds_the_field_and_every_preset():
    field = BASIC.replace(challenge=0.75)  # not a point of the space, not a preset
    pool = tuning.pool(SPACE, 1, field)
    policies = [c.policy for c in pool]
    assert all(preset(name) in policies for name in PRESETS) and field in policies
    assert len(set(policies)) == len(policies)  # each once
    assert pool[0].name == "c000" and pool[0].policy == BASIC and pool[-1].name == "field"  # the base first, the field last


def test_a_candidate_better_by_construction_is_found_and_ships(monkeypatch):
    target = BASIC.replace(colour="random", attack_at=3, challenge=1.0, play_drawn=0.5)
    _planted(monkeypatch, lambda p, f: 0.05 if p == target else -0.02)
    whole = tuning.SearchSpace(SPACE.base, SPACE.knobs, candidates=200)  # every one of the 144 settings races
    result = tuning.tune(tuning.Table(RULES, BASIC, 3), whole, first=400, max_deals=6000, fresh_deals=4000)
    outside = [n for n in PRESETS if not whole.covers(preset(n), BASIC)]  # skeptic is basic:challenge=1, a point
    assert len(result.races[0].candidates) == 144 + len(outside) and result.covered() == 144
    assert result.winner.policy == target
    assert result.shipped.winner and result.shipped.policy == target
    assert all(d.low > 0 for d in result.shipped.versus.values()) and set(result.shipped.versus) == {"basic", "smart", "strong"}


def test_local_search_climbs_to_a_setting_the_first_race_never_played(monkeypatch):
    """Gain grows with every knob set as in ``target`` (three knobs from the base), so the best of the first race
    is a step toward it and each local-search step one knob closer; the sample (12 of 144) lacks the target."""
    target = BASIC.replace(colour="random", attack_at=3, play_drawn=0.0)

    def closeness(p: Policy, field: Policy) -> float:
        same = sum(getattr(p, k) == getattr(target, k) for k in ("colour", "attack_at", "play_drawn"))
        return 0.04 * same - 0.1 * (p.challenge != BASIC.challenge) - 0.1 * (p in {preset(n) for n in PRESETS})

    _planted(monkeypatch, closeness)
    result = tuning.tune(tuning.Table(RULES, BASIC, 3), SPACE, first=400, max_deals=6000, fresh_deals=4000, local_steps=4)
    assert target not in {c.policy for c in result.races[0].candidates}
    assert result.winner.policy == target and result.shipped.policy == target
    assert result.covered() < SPACE.size  # and the coverage counts only the space's settings
    assert result.covered() == sum(1 for c in result.tried() if c.name.startswith("c"))


def test_a_winner_that_does_not_beat_all_three_presets_ships_the_best_of_them(monkeypatch):
    """The winner beats basic and smart but not strong: strong ships, under the tune's name, and says so."""
    best = BASIC.replace(attack_at=2)
    # best is 0.005 above strong: under one standard error of a paired difference over 4,000 fresh deals
    # (0.3 * sqrt(2) / sqrt(4000) = 0.0067), far from the 1.96 the interval needs to clear 0
    gains = {preset("smart"): 0.01, preset("strong"): 0.03, best: 0.035}
    _planted(monkeypatch, lambda p, f: gains.get(p, -0.05))
    result = tuning.tune(tuning.Table(RULES, BASIC, 3), SPACE, first=400, max_deals=6000, fresh_deals=4000)
    assert result.winner.policy in {best, preset("strong")}
    assert result.fresh.versus["basic"].low > 0 and result.fresh.versus["smart"].low > 0
    assert result.fresh.versus["strong"].low <= 0
    assert not result.shipped.winner and result.shipped.policy == preset("strong") and result.shipped.label == "strong"
    from unocli.study.tune_file import policy_toml, read_verdicts

    text = policy_toml(result, "tuned-x", "unocli tune test")
    (verdict,) = read_verdicts(text)
    assert verdict.preset == "strong" and verdict.over["strong"] == (0.0, 0.0, 0.0)


def test_a_field_that_is_already_the_best_policy_ships_the_field_policy(monkeypatch):
    field = preset("hoarder")
    _planted(monkeypatch, lambda p, f: -0.03)  # every other policy loses to the field by construction
    result = tuning.tune(tuning.Table(RULES, field, 3), SPACE, first=400, max_deals=6000, fresh_deals=4000)
    assert result.winner.policy == field
    assert result.shipped.policy == field and result.shipped.label == "field" and not result.shipped.winner
    assert set(result.fresh.versus) == {"basic", "smart", "strong", "field"}


def test_the_shipped_player_is_measured_on_a_field_it_was_not_tuned_on(monkeypatch):
    seen: list[Policy] = []
    real = tuning.deal_gains

    def spy(table, policy, start, count):
        seen.append(table.field_policy)
        return real(table, policy, start, count)

    monkeypatch.setattr(tuning, "deal_gains", spy)
    space = tuning.SearchSpace("basic", {"colour": ("most_held", "next_lacks")}, candidates=2)
    result = tuning.tune(tuning.Table(RULES, BASIC, 3), space, first=50, max_deals=100, fresh_deals=200, local_steps=0)
    expected = "strong" if result.shipped.policy == preset("smart") else "smart"  # never the shipped player itself
    assert result.elsewhere[0] == expected and seen[-1] == preset(expected) and result.elsewhere[1].n == 200
    assert tuning.other_field(preset("smart"))[0] == "basic"
    assert tuning.other_field(preset("basic"), preset("smart"))[0] == "strong"  # not the shipped player itself


def test_a_match_gain_counts_who_reached_the_target_score_by_hand():
    """Under objective match a deal is a match; its gain from the kernel's rows, counted here by hand."""
    rules = Rules(players=3, target_score=120)
    smart = preset("smart")
    table = tuning.Table(rules, BASIC, 11, match=True)
    gains = tuning.deal_gains(table, smart, 40, 30)
    winner = ROW_NAMES.index("winner")
    for i in range(30):
        won = [0, 0, 0]  # matches won by smart (slot 0) and the two basic slots, over the three rotations
        for k in range(3):
            row = play_rows(rules, rotated((smart, BASIC, BASIC), k), seed=11, start=40 + i, count=1, match=True)[0]
            if row[winner] >= 0:
                won[(int(row[winner]) - k) % 3] += 1
        assert gains[i] == won[0] / 3 - (won[1] + won[2]) / 6
    assert np.any(gains != tuning.deal_gains(tuning.Table(rules, BASIC, 11), smart, 40, 30))  # rounds differ


def test_the_cli_prints_the_budget_and_the_share_of_the_space_covered(tmp_path, monkeypatch):
    _planted(monkeypatch, lambda p, f: 0.0)
    space = tmp_path / "space.toml"
    space.write_text(
        'base = "basic"\ncandidates = 4\n[knobs]\ncolour = ["most_held", "next_lacks", "random"]\nattack_at = [0, 1, 2]\n'
    )
    args = ["tune", str(space), "--players", "3", "--first", "100", "--max-deals", "300", "--fresh", "200", "--local-steps", "0"]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, result.output
    # 4 of the 9 settings, plus 7 presets (basic is the base): 11 candidates. Halving: 11 play 100 deals, 6 play 200.
    assert "4 of the space's 9 settings tried (44.4%)" in result.output
    assert f"budget: {3 * (11 * 100 + 6 * 200):,} rounds played by the search" in result.output


def test_the_cli_objective_match_plays_matches_and_says_so(tmp_path, monkeypatch):
    kinds: set[bool] = set()

    def spy(table, policy, start, count):
        kinds.add(table.match)
        return np.zeros(count)

    monkeypatch.setattr(tuning, "deal_gains", spy)
    space = tmp_path / "space.toml"
    space.write_text('base = "basic"\n[knobs]\ncolour = ["most_held", "next_lacks"]\n')
    out = tmp_path / "p.toml"
    args = ["tune", str(space), "--objective", "match", "--first", "100", "--max-deals", "100", "--fresh", "100", "-o", str(out)]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, result.output
    assert kinds == {True} and "matches played by the search" in result.output
    assert "objective match." in out.read_text()
