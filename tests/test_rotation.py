"""Rotated-seat win shares: intervals over deals (the unit of independence), checked against scipy."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats as sps

from unocli.game.policies import preset
from unocli.game.rules import Rules
from unocli.run.shards import RunSpec, run_shard
from unocli.study.simulate import RotationStats, simulate


def test_rotated_shares_are_t_intervals_over_deals():
    rules, labels = Rules(players=3), ("smart", "basic", "basic")
    policies = (preset("smart"), preset("basic"), preset("basic"))
    result = simulate(rules, policies, games=600, seed=4, rotate_seats=True, labels=labels)
    wins = run_shard(RunSpec(rules, policies, 4, rotate_seats=True), (0, 600)).wins
    assert wins is not None
    shares = result.rotation.shares().set_index("policy")
    for label, slots in (("smart", [0]), ("basic", [1, 2])):
        per_deal = wins[:, slots].sum(axis=1) / (3 * len(slots))  # the policy's share of its games in each deal
        mean, sem = per_deal.mean(), sps.sem(per_deal)
        low, high = sps.t.interval(0.95, len(per_deal) - 1, loc=mean, scale=sem)
        row = shares.loc[label]
        assert (row["share"], row["ci_low"], row["ci_high"]) == pytest.approx((mean, low, high), rel=1e-9)
        assert row["n"] == 600


def test_an_empty_rotation_has_no_interval():
    row = RotationStats(labels=("a", "b")).shares().iloc[0]
    assert row["wins"] == 0 and np.isnan(row["ci_low"])


def test_a_rules_file_with_fields_in_both_places_is_refused(tmp_path):
    from unocli.errors import ConfigError
    from unocli.game.rules import load_rules_file

    path = tmp_path / "r.toml"
    path.write_text('stacking = "plus2"\n[rules]\nbase = "seven-o"\n')
    with pytest.raises(ConfigError, match="not both"):
        load_rules_file(path)
