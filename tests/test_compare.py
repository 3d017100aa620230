"""Paired comparisons: exact zeros for identical arms, a planted effect found, an absent one not."""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np
import pytest

from unocli.errors import ConfigError
from unocli.game.policies import preset
from unocli.game.rules import Rules
from unocli.study.arm import Arm
from unocli.study.compare import compare, quantity_names
from unocli.study.stats import wilson

BASIC = preset("basic")
FORGETFUL = BASIC.replace(forget_uno=0.3)


def arm(name: str, rules: Rules, policy=BASIC) -> Arm:
    return Arm(name, rules, (policy,) * rules.players)


def test_identical_arms_differ_by_exactly_zero():
    arms = [arm("a", Rules()), arm("b", Rules())]
    comp = compare(arms, games=600, seed=5)
    table = comp.table()
    rows = table[table["arm"] == "b"]
    assert len(rows) == len(quantity_names(4))
    assert (rows["diff"] == 0).all()
    assert (rows["diff_low"] == 0).all() and (rows["diff_high"] == 0).all()
    assert (rows["p"] == 1).all() and (rows["p_holm"] == 1).all()


def test_planted_effect_is_significant_and_absent_effect_is_not():
    """uno_penalty 10 against 2 with players who forget Uno 30% of the time must raise cards drawn.

    Each caught forgetter draws 8 more cards, and about one forgotten Uno is
    caught per round, so the true effect is several cards per round against
    a paired sd of about 10: with 1,500 paired deals the effect is dozens of
    standard errors from 0 (we only ask p < 0.001 after Holm). The absent
    effect changes target_score, which cannot matter in single rounds: the
    games are identical, so the difference is exactly 0 and p = 1, whatever
    the sample size.
    """
    arms = [
        arm("penalty2", Rules(), FORGETFUL),
        arm("penalty10", Rules(uno_penalty=10), FORGETFUL),
        arm("target100", Rules(target_score=100), FORGETFUL),
    ]
    comp = compare(arms, games=1500, seed=11)
    table = comp.table(["cards_drawn", "turns", "uno_caught"]).set_index(["arm", "metric"])
    planted = table.loc[("penalty10", "cards_drawn")]
    assert planted["diff"] > 2
    assert planted["diff_low"] > 0
    assert planted["p_holm"] < 0.001
    absent = table.loc["target100"]
    assert (absent["p_holm"] > 0.05).all()
    assert (absent["diff"] == 0).all()


def test_absent_behavioural_effect_is_not_significant():
    """A knob nobody can use (catch_uno when nobody forgets) leaves every game unchanged: p = 1."""
    arms = [arm("base", Rules()), arm("catch", Rules(), BASIC.replace(catch_uno=0.2))]
    comp = compare(arms, games=800, seed=2, quantities=("turns", "cards_drawn", "win_0"))
    assert (comp.table()["p_holm"].dropna() > 0.05).all()


def test_shard_layout_does_not_change_anything():
    arms = [arm("a", Rules()), arm("b", Rules(stacking="plus2"))]
    one = compare(arms, games=700, seed=3, batch_size=700)
    many = compare(arms, games=700, seed=3, batch_size=150)
    assert (one.sums.s1 == many.sums.s1).all()
    assert (one.sums.d2 == many.sums.d2).all()
    assert (one.sums.block_s1 == many.sums.block_s1).all()
    assert one.sums.accs[1].fingerprint == many.sums.accs[1].fingerprint
    np.testing.assert_array_equal(one.boot_means(20, seed=1), many.boot_means(20, seed=1))


def test_means_and_shares_match_simulate():
    from unocli import simulate

    comp = compare([arm("a", Rules(players=3))], games=500, seed=9)
    sim = simulate(Rules(players=3), BASIC, games=500, seed=9)
    assert comp.acc("a").fingerprint == sim.acc.fingerprint
    turns = sim.summary().set_index("metric").loc["turns"]
    assert comp.mean("a", "turns").mean == pytest.approx(turns["mean"])
    share = wilson(sim.acc.wins[0], 500)
    win = comp.mean("a", "win_0")
    assert win.method == "wilson" and win.n == 500
    assert win.mean == pytest.approx(share.share)
    assert (win.low, win.high) == pytest.approx((share.low, share.high))


def test_paired_interval_matches_per_game_differences():
    from unocli.kernel import ROW_NAMES, play_rows
    from unocli.study.stats import paired_diff

    a, b = arm("a", Rules()), arm("b", Rules(stacking="progressive"))
    comp = compare([a, b], games=400, seed=4)
    col = ROW_NAMES.index("cards_drawn")
    x = play_rows(b.rules, b.policies, seed=4, count=400)[:, col]
    y = play_rows(a.rules, a.policies, seed=4, count=400)[:, col]
    expected = paired_diff(x, y)
    d = comp.diff("b", "a", "cards_drawn")
    assert d.n == expected.n == 400
    assert d.diff == pytest.approx(expected.diff)
    assert (d.low, d.high, d.p, d.se) == pytest.approx((expected.low, expected.high, expected.p, expected.se))
    rev = comp.diff("a", "b", "cards_drawn")
    assert rev.diff == pytest.approx(-expected.diff)
    assert rev.p == pytest.approx(expected.p)


def test_target_error_reaches_its_target_reproducibly():
    arms = [arm("a", Rules()), arm("b", Rules(uno_penalty=10), FORGETFUL)]
    first = compare(arms, games=300, seed=1, target_error=1.5, metric="turns")
    again = compare(arms, games=300, seed=1, target_error=1.5, metric="turns")
    assert first.target is not None and first.target.reached
    assert first.target.half_width <= 1.5
    assert first.games == first.target.games == again.games > 300
    assert first.diff("b", "a", "turns").half_width <= 1.5
    capped = compare(arms, games=300, seed=1, target_error=0.01, metric="turns", max_games=600)
    assert capped.games == 600 and not capped.target.reached


@pytest.mark.parametrize(
    ("kwargs", "words"),
    [
        ({"target_error": 0.0}, "positive number"),
        ({"target_error": -2.0}, "positive number"),
        ({"target_error": 1.0, "metric": "speed"}, "unknown metric"),
        ({"quantities": ("turns", "win_7")}, "unknown metric 'win_7'"),
        ({"baseline": "zzz"}, "baseline 'zzz'"),
        ({"games": 0}, r"games must be a whole number from 1 to 2\*\*63 - 1, not 0"),
    ],
)
def test_bad_arguments(kwargs, words):
    args = {"games": 10, **kwargs}
    with pytest.raises(ConfigError, match=words):
        compare([arm("a", Rules()), arm("b", Rules())], **args)


def test_arms_must_match():
    with pytest.raises(ConfigError, match="same number of players"):
        compare([arm("a", Rules()), arm("b", Rules(players=3))], games=10)
    with pytest.raises(ConfigError, match="used twice"):
        compare([arm("a", Rules()), arm("a", Rules())], games=10)


def test_table_carries_intervals_and_sample_sizes():
    comp = compare(
        [arm("a", Rules()), arm("b", Rules(seven_o=True))], games=300, seed=7, quantities=("turns", "win_0", "blocked")
    )
    t = comp.table()
    for col in ("n", "mean", "ci_low", "ci_high", "diff", "diff_low", "diff_high", "p_holm"):
        assert col in t.columns
    assert (t["n"] == 300).all()
    assert (t["ci_low"] <= t["mean"]).all() and (t["mean"] <= t["ci_high"]).all()
    assert set(t[t["metric"] == "win_0"]["interval"]) == {"wilson"}
    b = t[t["arm"] == "b"]
    assert (b["p_holm"] >= b["p"]).all()
    assert math.isnan(t[t["arm"] == "a"]["diff"].iloc[0])


def test_bootstrap_keeps_pairing():
    comp = compare([arm("a", Rules()), arm("b", Rules())], games=400, seed=8, quantities=("turns", "win_0"))
    boot = comp.boot_means(50, seed=0)
    assert boot.shape == (50, 2, 2)
    np.testing.assert_array_equal(boot[:, 0], boot[:, 1])  # identical arms stay identical in every replicate


def test_arms_say_how_they_are_played_and_match_overrides():
    rounds = [arm("a", Rules()), arm("b", Rules(stacking="plus2"))]
    matches = [replace(a, match=True) for a in rounds]
    by_arms = compare(matches, games=40, seed=2, quantities=("rounds", "turns"))
    by_option = compare(rounds, games=40, seed=2, quantities=("rounds", "turns"), match=True)
    assert by_arms.match and by_option.match and all(a.match for a in by_option.arms)
    assert (by_arms.sums.s1 == by_option.sums.s1).all()
    assert by_arms.mean("a", "rounds").mean > 1  # matches last several rounds
    back = compare(matches, games=40, seed=2, quantities=("rounds",), match=False)
    assert not back.match and back.mean("a", "rounds").mean == 1
    with pytest.raises(ConfigError, match="all play single rounds or all play matches"):
        compare([rounds[0], matches[1]], games=10)
    with pytest.raises(ConfigError, match="rotates seats"):
        compare([replace(rounds[0], rotate_seats=True)], games=10)


def test_first_batch_of_a_target_run_respects_max_games():
    arms = [arm("a", Rules()), arm("b", Rules(stacking="plus2"))]
    capped = compare(arms, games=900, seed=1, target_error=0.01, metric="turns", max_games=600)
    assert capped.games == capped.target.games == 600 and not capped.target.reached


def _stuck_comparison(max_turns: int):
    """draw_until_playable against the official draw at 9 basic players, games 900..1099 of seed 20240501.

    Game 988 of this run locks under draw_until_playable (docs/rules.md §11.15).
    """
    official = Rules(players=9, max_turns=max_turns)
    arms = [arm("official", official), arm("dup", replace(official, draw_until_playable=True))]
    return compare(arms, games=200, seed=20240501, start=900, quantities=["turns", "cards_drawn", "stuck", "capped"])


def test_length_effects_are_over_finished_deals_and_do_not_depend_on_the_cap():
    """A stuck round must not enter a length: the effect is the same with caps of 5,000 and 20,000 turns.

    Exact equality (not a tolerance): finished rounds are played identically
    whatever the cap, so every sum over them is the same integer.
    """
    small, large = _stuck_comparison(5000), _stuck_comparison(20000)
    stuck = small.mean("dup", "stuck")
    assert stuck.mean * stuck.n >= 1  # the setup really has a stuck (or capped) round
    assert small.finished("dup") < small.games
    for q in ("turns", "cards_drawn"):
        a, b = small.diff("dup", "official", q), large.diff("dup", "official", q)
        assert (a.diff, a.low, a.high, a.n) == (b.diff, b.low, b.high, b.n)
        assert a.n == small.both_finished("dup", "official") < small.games
        assert small.mean("dup", q) == large.mean("dup", q)
    assert np.array_equal(small.means(), large.means())
    boot_small, boot_large = small.boot_means(50), large.boot_means(50)
    assert np.array_equal(boot_small, boot_large)


def test_paired_difference_over_finished_deals_matches_the_rows():
    """The masked paired difference equals one computed by hand from the kernel rows."""
    from unocli.kernel import ROW_NAMES, play_rows
    from unocli.run.accumulate import finished

    comp = _stuck_comparison(5000)
    rows = [play_rows(a.rules, a.policies, seed=20240501, start=900, count=200) for a in comp.arms]
    both = finished(rows[0]) & finished(rows[1])
    t = ROW_NAMES.index("turns")
    d = (rows[1][both, t] - rows[0][both, t]).astype(float)
    got = comp.diff("dup", "official", "turns")
    assert got.n == int(both.sum())
    assert got.diff == pytest.approx(d.mean(), rel=1e-12)
    assert got.sd == pytest.approx(d.std(ddof=1), rel=1e-9)
    reverse = comp.diff("official", "dup", "turns")
    assert reverse.diff == pytest.approx(-d.mean(), rel=1e-12)


def test_role_quantities_match_the_accumulator():
    """win_first, win_dealer and win_place_K count the same games as the accumulator's role counts."""
    comp = compare([arm("a", Rules())], games=800, seed=4, quantities=None)
    acc = comp.acc("a")
    n = comp.games
    assert comp.mean("a", "win_first").mean * n == pytest.approx(acc.first_player_wins)
    assert comp.mean("a", "win_dealer").mean * n == pytest.approx(acc.dealer_wins)
    for k in range(1, 5):
        assert comp.mean("a", f"win_place_{k}").mean * n == pytest.approx(acc.place_wins[k - 1])
    assert comp.mean("a", "win_place_4").mean == comp.mean("a", "win_dealer").mean
