"""``search``, ``tune`` and ``iterate`` against their definitions (issue 29 item 3: the survivors of
``mutation/run.sh tune`` in the orchestration): a spy on :func:`unocli.study.tune.race` records the candidates,
options and first deal of every race, and each is checked against what the module docstring says the stages
are: the first race over the pool (the space's seeded sample with the caller's extra players, every preset,
the field), then local races of the last race's best ``STARTS`` and their untried neighbours, numbered on,
on the deals after the last race's, with the caller's options, until no neighbour overtakes the leader or
the steps are spent. Gains are planted (no game is played), so every race is cheap and its outcome known."""

from __future__ import annotations

import itertools
from typing import Any

import numpy as np
import pytest

from unocli.game.policies import PRESETS, Policy, preset
from unocli.game.rules import Rules
from unocli.study import tune as tuning

RULES = Rules(players=3)
BASIC = preset("basic")
KNOBS = ("colour", "attack_at", "play_drawn")
# basic is colour=most_held, attack_at=0, play_drawn=1.0; the target differs from it in all three knobs
TARGET = BASIC.replace(colour="random", attack_at=3, play_drawn=0.0)
# 36 settings; the base's seven one-knob changes fill the sample of 8 exactly (no random point is drawn)
CLIMB = tuning.SearchSpace(
    "basic", {"colour": ("most_held", "next_lacks", "random"), "attack_at": (0, 1, 2, 3), "play_drawn": (1.0, 0.5, 0.0)}, 8
)
OTHER_PRESETS = {preset(n) for n in PRESETS} - {BASIC}


def _closeness(policy: Policy) -> float:
    """0.1 per knob set as in TARGET; the presets other than the base far below (-0.5)."""
    if policy in OTHER_PRESETS:
        return -0.5
    return 0.1 * sum(getattr(policy, k) == getattr(TARGET, k) for k in KNOBS)


def _plant(monkeypatch, mean=_closeness, sd: float = 0.01) -> None:
    """Gains by construction: ``mean(policy)`` plus seeded noise; the field's own policy gains 0 exactly.

    Steps of 0.1 between settings against a noise of sd 0.01 per deal: after 50 deals a paired difference of
    0.1 is about 50 standard errors, so which level a setting is on is never in doubt; only the order within a
    level is left to the noise."""

    def fake(table, policy, start, count):
        if policy == table.field_policy:
            return np.zeros(count)
        rng = np.random.default_rng([start, count, sum(map(ord, tuning.policy_spec(policy)))])
        return mean(policy) + rng.normal(0.0, sd, count)

    monkeypatch.setattr(tuning, "deal_gains", fake)


def _spy(monkeypatch) -> list[dict[str, Any]]:
    """Record every call of ``race`` (its candidates, keyword options and the race it returned)."""
    calls: list[dict[str, Any]] = []
    real = tuning.race

    def spy(table, candidates, **options):
        state = real(table, candidates, **options)
        calls.append({"table": table, "candidates": list(candidates), "options": dict(options), "race": state})
        return state

    monkeypatch.setattr(tuning, "race", spy)
    return calls


def _expected_pool(space: tuning.SearchSpace, seed: int, field: Policy, extra=None) -> list[Policy]:
    """The first race's candidates by the definition: the space's sample (seeded), then each preset and the
    field that is not in it yet."""
    out = [c.policy for c in space.sample(seed, extra)]
    for policy in [*(preset(n) for n in PRESETS), field]:
        if policy not in out:
            out.append(policy)
    return out


def test_the_local_search_climbs_with_the_callers_options_on_new_deals_numbered_on(monkeypatch):
    _plant(monkeypatch)
    calls = _spy(monkeypatch)
    said: list[str] = []
    table = tuning.Table(RULES, BASIC, 5)
    races = tuning.search(table, CLIMB, first=50, max_deals=350, alpha=0.2, local_steps=6, progress=said.append)
    assert [c["race"] for c in calls] == races
    # two steps up (one knob each: the best of the first race matches the target in one knob) and a third that
    # finds nothing better: the first race and three local ones, though six steps were allowed
    assert len(races) == 4 and races[-1].leader().policy == TARGET
    first = calls[0]
    assert [c.policy for c in first["candidates"]] == _expected_pool(CLIMB, 5, BASIC)
    assert first["options"] == {"first": 50, "max_deals": 350, "alpha": 0.2, "progress": said.append}
    tried = {c.policy for c in first["candidates"]}
    number = len(first["candidates"])
    for before, call in itertools.pairwise(calls):
        starts = before["race"].ranking()[: tuning.STARTS]
        fresh = []
        for s in starts:
            for p in CLIMB.neighbours(s.policy):
                if p not in tried:
                    tried.add(p)
                    fresh.append(p)
        names = [f"c{number + i:03d}" for i in range(len(fresh))]
        number += len(fresh)
        assert call["candidates"][: len(starts)] == starts  # the same candidates, under their names
        assert [(c.name, c.policy) for c in call["candidates"][len(starts) :]] == list(zip(names, fresh, strict=True))
        options = {"first": 50, "max_deals": 350, "alpha": 0.2, "progress": said.append, "start": before["race"].end}
        assert call["options"] == options
    # the stop: every local race but the last was won by a neighbour; in the last, the first start kept the lead
    for call in calls[1:-1]:
        assert call["race"].leader().policy != call["candidates"][0].policy
    assert calls[-1]["race"].leader().policy == calls[-1]["candidates"][0].policy == TARGET
    assert len(said) > len(races)  # the races' rounds and the local steps were reported


def test_a_local_search_of_two_steps_plays_two_local_races(monkeypatch):
    """The climb reaches the target in two steps; given two, both are played (and no more), each won by a
    neighbour; given none or one, that many."""
    _plant(monkeypatch)
    races = tuning.search(tuning.Table(RULES, BASIC, 5), CLIMB, first=50, max_deals=350, alpha=0.05, local_steps=2)
    assert len(races) == 3
    assert sum(getattr(races[-1].leader().policy, k) == getattr(TARGET, k) for k in KNOBS) == 3
    assert all(r.leader().policy != r.candidates[0].policy for r in races[1:])
    assert len(tuning.search(tuning.Table(RULES, BASIC, 5), CLIMB, first=50, max_deals=50, local_steps=0)) == 1
    assert len(tuning.search(tuning.Table(RULES, BASIC, 5), CLIMB, first=50, max_deals=50, local_steps=1)) == 2


def test_no_setting_races_twice_across_the_stages(monkeypatch):
    """Every local race's new candidates are settings no earlier race played, each once; names never repeat."""
    _plant(monkeypatch)
    races = tuning.search(tuning.Table(RULES, BASIC, 5), CLIMB, first=50, max_deals=350, local_steps=6)
    seen = {c.policy for c in races[0].candidates}
    names = {c.name for c in races[0].candidates}
    for r in races[1:]:
        new = r.candidates[tuning.STARTS :]
        assert len({c.policy for c in new}) == len(new) and not seen & {c.policy for c in new}
        assert not names & {c.name for c in new}
        seen |= {c.policy for c in new}
        names |= {c.name for c in new}


def test_the_first_race_is_the_seeded_pool_with_the_callers_extra_players(monkeypatch):
    """A space whose base is a player from a policy file (``extra``), larger than its sample so that random
    points are drawn: the first race holds exactly the sample drawn with the table's seed, under ``search``
    and under ``tune`` (which must hand ``extra`` on)."""
    mine = BASIC.replace(challenge=0.75)
    extra = {"mine": mine}
    space = tuning.SearchSpace(
        "mine",
        {"colour": ("most_held", "next_lacks", "random"), "attack_at": (0, 1, 2, 3), "play_drawn": (1.0, 0.5, 0.0)},
        20,  # 7 one-knob changes and 12 random points of the other 28 settings
    )
    _plant(monkeypatch, lambda p: -0.5 if p in OTHER_PRESETS else 0.0)
    calls = _spy(monkeypatch)
    expected = _expected_pool(space, 9, BASIC, extra)
    assert expected[0] == mine and len(expected) == 20 + len(PRESETS) - 1 + 1  # basic is not the base here
    assert expected[1:20] != [c.policy for c in space.sample(10, extra)][1:20]  # the seed matters
    tuning.search(tuning.Table(RULES, BASIC, 9), space, first=20, max_deals=20, local_steps=0, extra=extra)
    assert [c.policy for c in calls[-1]["candidates"]] == expected
    tuning.tune(tuning.Table(RULES, BASIC, 9), space, first=20, max_deals=20, fresh_deals=30, local_steps=0, extra=extra)
    assert [c.policy for c in calls[-1]["candidates"]] == expected


def test_tune_hands_its_options_to_every_race(monkeypatch):
    _plant(monkeypatch)
    calls = _spy(monkeypatch)
    result = tuning.tune(tuning.Table(RULES, BASIC, 5), CLIMB, first=40, max_deals=280, fresh_deals=60, alpha=0.3, local_steps=1)
    assert len(calls) == 2 and result.races == [c["race"] for c in calls]
    for c in calls:
        assert (c["options"]["first"], c["options"]["max_deals"], c["options"]["alpha"]) == (40, 280, 0.3)
    assert result.fresh.deals == 60 and result.elsewhere[1].n == 60


def test_the_defaults_of_search_and_tune_are_the_documented_ones(monkeypatch):
    """2,000 first deals, a budget of 64,000, alpha 0.05, two local steps, 100,000 fresh deals (``--help``)."""
    _plant(monkeypatch, lambda p: 0.0 if p == BASIC else -0.5)  # everything loses to the field at once
    calls = _spy(monkeypatch)
    space = tuning.SearchSpace("basic", {"colour": ("most_held", "next_lacks")}, 2)
    result = tuning.tune(tuning.Table(RULES, BASIC, 5), space)
    for c in calls:
        assert (c["options"]["first"], c["options"]["max_deals"], c["options"]["alpha"]) == (2000, 64_000, 0.05)
    assert result.fresh.deals == 100_000
    calls.clear()
    tuning.search(tuning.Table(RULES, BASIC, 5), space)
    assert (calls[0]["options"]["first"], calls[0]["options"]["max_deals"], calls[0]["options"]["alpha"]) == (2000, 64_000, 0.05)


@pytest.mark.parametrize("steps", [1, 2, 3])
def test_the_default_local_steps_are_two(monkeypatch, steps):
    """Each of the climb's first three steps has untried settings to race (the third finds none better): so
    ``steps`` local races are played, and the default is two."""
    _plant(monkeypatch)
    races = tuning.search(tuning.Table(RULES, BASIC, 5), CLIMB, first=50, max_deals=50, local_steps=steps)
    assert len(races) == 1 + steps
    if steps == 2:
        assert len(tuning.search(tuning.Table(RULES, BASIC, 5), CLIMB, first=50, max_deals=50)) == 3
        result = tuning.tune(tuning.Table(RULES, BASIC, 5), CLIMB, first=50, max_deals=50, fresh_deals=50)
        assert len(result.races) == 3


def test_iterate_makes_each_shipped_player_the_next_field(monkeypatch):
    """Against basic the climb's target ships; against the target as the field, everything else is worse."""
    _plant(monkeypatch)
    fields: list[Policy] = []
    real = tuning.tune

    def spy(table, space, **options):
        fields.append(table.field_policy)
        return real(table, space, **options)

    monkeypatch.setattr(tuning, "tune", spy)
    history = tuning.iterate(tuning.Table(RULES, BASIC, 5), CLIMB, 2, first=50, max_deals=350, fresh_deals=200, local_steps=6)
    assert len(history) == 2 and history[0].shipped.policy == TARGET
    assert fields == [BASIC, TARGET] and history[1].table.field_policy == TARGET
    assert history[1].table.seed == 5 and history[1].table.rules == RULES


def test_the_candidates_table_names_each_policy_by_its_spec(monkeypatch):
    """The ``policy`` column is the spec a user can pass back (``--seat 0=SPEC``), written out here by hand (and
    the progress line that announces the fresh deals)."""
    _plant(monkeypatch)
    said: list[str] = []
    table = tuning.Table(RULES, BASIC, 5)
    result = tuning.tune(table, CLIMB, first=50, max_deals=350, fresh_deals=100, local_steps=6, progress=said.append)
    assert said[-1] == "re-measuring basic:attack_at=3,colour=random,play_drawn=0.0 and basic, smart, strong on 100 fresh deals"
    rows = tuning.candidates_table(result)
    spec = {(r["stage"], r["candidate"]): r["policy"] for r in rows}
    assert spec[(0, "smart")] == "smart" and spec[(0, "c000")] == "basic"
    (winner,) = [r for r in rows if r["winner"]]
    assert winner["policy"] == "basic:attack_at=3,colour=random,play_drawn=0.0"


def test_the_local_search_goes_on_when_another_start_takes_the_lead(monkeypatch):
    """The stop reads the *first* start: a local race won by the second start (better on the new deals than on
    the first race's) is no local optimum, so the next step is played; there the leader is the first start."""
    x1, x2, x3 = (BASIC.replace(**{k: getattr(TARGET, k)}) for k in KNOBS)  # the base's one-knob steps to TARGET
    first_race = {x1: 0.12, x2: 0.11, x3: 0.10}  # the first race ranks them x1, x2, x3: the starts, in order

    def fake(table, policy, start, count):
        if policy == table.field_policy:
            return np.zeros(count)
        rng = np.random.default_rng([start, count, sum(map(ord, tuning.policy_spec(policy)))])
        mean = 0.5 if policy == x2 and start >= 50 else first_race.get(policy, _closeness(policy))
        return mean + rng.normal(0.0, 0.001, count)

    monkeypatch.setattr(tuning, "deal_gains", fake)
    races = tuning.search(tuning.Table(RULES, BASIC, 5), CLIMB, first=50, max_deals=350, local_steps=4)
    # the first race ends after its first round of 50 deals (the others fall 0.01 behind x1 at sd 0.001)
    assert races[0].end == 50 and [c.policy for c in races[1].candidates[:3]] == [x1, x2, x3]
    assert races[1].leader().policy == x2  # the second start leads the first local race: go on
    assert len(races) == 3 and races[2].candidates[0].policy == x2 and races[2].leader().policy == x2


def test_a_race_by_default_and_its_rounds_record(monkeypatch):
    """By default a race's first round plays 2,000 deals; each round records its number and whom halving cut."""
    played: list[tuple[int, int]] = []

    def fake(table, policy, start, count):
        played.append((start, count))
        return np.full(count, 0.01 * len(tuning.policy_spec(policy)))  # no spread: the order is the spec's length

    monkeypatch.setattr(tuning, "deal_gains", fake)
    cands = [tuning.Candidate(n, preset(n)) for n in ("smart", "strong", "hoarder", "bluffer")]
    state = tuning.race(tuning.Table(RULES, BASIC, 1), cands, alpha=1e-9)
    assert played[0] == (0, 2000)
    # equal gains within a candidate: no spread, so each difference is decided by its sign (dropped at once);
    # the first round leaves the leader alone and the race ends there
    assert [r.round for r in state.rounds] == list(range(1, len(state.rounds) + 1))
    kept = tuning.race(tuning.Table(RULES, BASIC, 1), cands, first=10, max_deals=70, alpha=1e-300, halve=True)
    assert all(isinstance(r.cut, tuple) for r in kept.rounds)
    assert [r.round for r in kept.rounds] == list(range(1, len(kept.rounds) + 1))


def test_a_race_halves_and_records_whom_it_cut(monkeypatch):
    """Gains with a spread and means close together (no drop at alpha 1e-12): halving alone thins the field,
    the best half by mean stays each round, and the round records whom it cut, in order of mean."""
    means = {"smart": 0.04, "strong": 0.03, "hoarder": 0.02, "bluffer": 0.01}

    def fake(table, policy, start, count):
        name = next(n for n in means if preset(n) == policy)
        # +-1 in an order of its own per candidate: each round's noise sums to exactly 0 (the counts are even),
        # so the means are the planted ones, while a paired difference's spread (about 1.4) hides a 0.01 gap
        rng = np.random.default_rng([start, count, len(name)])
        return means[name] + rng.permutation(np.resize([-1.0, 1.0], count))

    monkeypatch.setattr(tuning, "deal_gains", fake)
    cands = [tuning.Candidate(n, preset(n)) for n in means]
    state = tuning.race(tuning.Table(RULES, BASIC, 1), cands, first=10, max_deals=70, alpha=1e-12)
    assert [(r.round, r.dropped, r.cut) for r in state.rounds] == [(1, (), ("hoarder", "bluffer")), (2, (), ("strong",))]


def test_the_search_budget_stops_at_the_last_deal_index(monkeypatch):
    """A race may end exactly at MAX_SEARCH_DEALS (its deals stay below the fresh ones), not one deal beyond."""
    monkeypatch.setattr(tuning, "deal_gains", lambda table, policy, start, count: np.zeros(count))
    cands = [tuning.Candidate("a", preset("smart"))]
    top = tuning.MAX_SEARCH_DEALS
    assert tuning.race(tuning.Table(RULES, BASIC, 1), cands, first=10, max_deals=10, start=top - 10).end == top
    with pytest.raises(tuning.ConfigError, match=r"^the search would play more than 1,099,511,627,776 deals; give a smaller"):
        tuning.race(tuning.Table(RULES, BASIC, 1), cands, first=10, max_deals=10, start=top - 9)
