"""``tune``'s numbers against values computed another way (issue 29 item 3: the survivors of
``mutation/run.sh tune``): the gain's interval against scipy, a deal's gain counted by hand from the kernel's
rows across shards, the candidates' table and the race's bookkeeping on planted gains, the fresh check and
what ships written out by hand, and the verdict lines of a policy file read back to the digit."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats as sps

from unocli.game.policies import preset
from unocli.game.rules import Rules
from unocli.kernel import ROW_NAMES, play_rows
from unocli.run.shards import rotated
from unocli.study import tune as tuning
from unocli.study import tune_file
from unocli.study.stats import Difference

RULES = Rules(players=3)
BASIC, SMART, STRONG = preset("basic"), preset("smart"), preset("strong")


def _scipy_t(x: np.ndarray) -> tuple[float, float, float]:
    """(low, high, two-sided p) of the one-sample t interval of the mean of ``x`` (scipy)."""
    res = sps.ttest_1samp(x, 0.0)
    ci = res.confidence_interval(0.95)
    return float(ci.low), float(ci.high), float(res.pvalue)


def test_gain_of_is_scipys_one_sample_t_interval():
    x = np.random.default_rng(3).normal(0.02, 0.4, 250)
    g = tuning.gain_of(x)
    low, high, p = _scipy_t(x)
    assert g.n == 250
    assert g.diff == pytest.approx(x.mean(), rel=1e-12)
    assert (g.low, g.high, g.p) == pytest.approx((low, high, p), rel=1e-9)


def test_a_deals_gain_is_counted_by_hand_from_the_rows_whatever_the_shards(monkeypatch):
    """Deals 5 .. 24 in shards of 7 (so the pieces come back in pieces, at offsets): each deal's gain is the
    candidate's share of the three rotations won minus a field seat's, counted here from ``play_rows``."""
    monkeypatch.setattr(tuning, "SHARD", 7)
    table = tuning.Table(RULES, BASIC, 21)
    gains = tuning.deal_gains(table, SMART, 5, 20)
    assert gains.shape == (20,)
    winner = ROW_NAMES.index("winner")
    for i in range(20):
        won = [0, 0, 0]  # rounds won by smart (slot 0) and the two basic slots over the three rotations
        for k in range(3):
            row = play_rows(RULES, rotated((SMART, BASIC, BASIC), k), seed=21, start=5 + i, count=1)[0]
            if row[winner] >= 0:
                won[(int(row[winner]) - k) % 3] += 1
        assert gains[i] == won[0] / 3 - (won[1] + won[2]) / 6
    assert np.any(gains != 0)  # smart and basic differ on some of these deals, so the test can see a swap


# ---------------------------------------------------------------- the race's bookkeeping, planted gains


def _planted(monkeypatch, means: dict, sd: float = 0.2) -> None:
    """Gains by construction: ``means[policy]`` plus seeded noise; the field's own policy gains 0 exactly."""

    def fake(table, policy, start, count):
        if policy == table.field_policy:
            return np.zeros(count)
        rng = np.random.default_rng([start, count, sum(map(ord, tuning.policy_spec(policy)))])
        return means[policy] + rng.normal(0.0, sd, count)

    monkeypatch.setattr(tuning, "deal_gains", fake)


def test_race_ranking_games_and_the_candidates_table_by_hand(monkeypatch):
    hoarder = preset("hoarder")
    means = {SMART: 0.05, STRONG: 0.04, hoarder: -0.3}
    _planted(monkeypatch, means)
    cands = [tuning.Candidate("a", SMART), tuning.Candidate("b", STRONG), tuning.Candidate("c", hoarder)]
    state = tuning.race(tuning.Table(RULES, BASIC, 1), cands, first=100, max_deals=300, halve=False)
    # hoarder is 0.3 below the leader with sd 0.2 * sqrt(2) per deal: t of about -15 after 100 deals
    assert state.dropped_in == {"c": 1}
    assert [r.deals for r in state.rounds] == [100, 300] and [r.alive for r in state.rounds] == [2, 2]
    # a and b played 100 + 200 deals, c only the first 100; three rotations each
    assert state.games(3) == 3 * (300 + 300 + 100)
    by_mean = sorted(["a", "b"], key=lambda n: -state.all_gains(n).mean())
    assert [c.name for c in state.ranking()] == [*by_mean, "c"]
    assert state.leader().name == by_mean[0] and state.rounds[-1].leader == by_mean[0]

    space = tuning.SearchSpace("basic", {"colour": ("most_held", "next_lacks")}, 2)
    fresh = tuning.fresh_check(tuning.Table(RULES, BASIC, 1), SMART, tuning.references(BASIC), 50)
    shipped = tuning.choose(fresh, SMART, tuning.references(BASIC))
    result = tuning.TuneResult(
        tuning.Table(RULES, BASIC, 1), space, [state], state.leader(), fresh, shipped, ("smart", fresh.gains["smart"])
    )
    rows = {r["candidate"]: r for r in tuning.candidates_table(result)}
    for name in "abc":
        g = state.all_gains(name)
        low, high, _ = _scipy_t(g)
        row = rows[name]
        assert row["deals"] == g.size and row["stage"] == 0
        assert row["gain_pp"] == pytest.approx(100 * g.mean(), rel=1e-12)
        assert (row["ci_low_pp"], row["ci_high_pp"]) == pytest.approx((100 * low, 100 * high), rel=1e-9)
        assert row["dropped_in_round"] == (1 if name == "c" else 0)
        assert row["winner"] == (name == by_mean[0])
    assert [r["candidate"] for r in tuning.candidates_table(result)] == [*by_mean, "c"]  # by gain, best first

    # a second stage (local search) with the same two leaders and a new one: its rows first, and "winner" marks
    # only the last stage's leader, not its namesake in the first stage
    means[BASIC.replace(attack_at=2)] = -0.2
    cands2 = [*cands[:2], tuning.Candidate("d", BASIC.replace(attack_at=2))]
    later = tuning.race(tuning.Table(RULES, BASIC, 1), cands2, first=100, max_deals=100, start=state.end, halve=False)
    two = tuning.TuneResult(result.table, space, [state, later], later.leader(), fresh, shipped, result.elsewhere)
    rows2 = tuning.candidates_table(two)
    assert [r["stage"] for r in rows2] == [1, 1, 1, 0, 0, 0]
    assert [r["winner"] for r in rows2] == [True, False, False, False, False, False]
    assert rows2[0]["candidate"] == later.leader().name and rows2[2]["candidate"] == "d"
    assert rows2[0]["deals"] == 100 and rows2[0]["gain_pp"] == pytest.approx(100 * later.all_gains(rows2[0]["candidate"]).mean())


@pytest.mark.parametrize(("alpha", "dropped"), [(0.5, {}), (0.55, {"b": 1})])
def test_a_candidate_tied_with_the_leader_has_a_one_sided_p_of_one_half(monkeypatch, alpha, dropped):
    """Equal gains on every deal: the paired difference is exactly 0, so t = 0 and the one-sided p is 1/2
    (half the t distribution lies below 0); alone in its family it is dropped at a level above 1/2, kept at 1/2."""
    monkeypatch.setattr(tuning, "deal_gains", lambda table, policy, start, count: np.linspace(-1, 1, count))
    cands = [tuning.Candidate("a", SMART), tuning.Candidate("b", STRONG)]
    state = tuning.race(tuning.Table(RULES, BASIC, 1), cands, first=50, max_deals=50, alpha=alpha, halve=False)
    assert state.dropped_in == dropped and state.rounds[0].dropped == tuple(dropped)


def test_a_race_of_one_deal_a_round_and_holm_at_exactly_alpha():
    assert tuning.deal_schedule(1, 3) == [(0, 1), (1, 2)]  # one deal first is allowed
    with pytest.raises(tuning.ConfigError, match="at least 1"):
        tuning.deal_schedule(0, 3)
    # Holm's adjusted p of 0.025 among two is 2 x 0.025 = 0.05 exactly: not below alpha = 0.05, so kept
    assert tuning.holm_drops([0.025, 0.04], 0.05) == [False, False]
    assert tuning.holm_drops([0.025, 0.04], 0.0501) == [True, True]


def test_a_one_sided_p_value_by_hand_decides_a_drop(monkeypatch):
    """Two candidates, the worse one's paired t statistic planted at -1.8 over 400 deals: its one-sided
    p (scipy: 0.036) is below 0.05 but its two-sided p (0.072) is not, so it is dropped at 0.05 and kept
    at 0.03; a race that used the two-sided p, or the upper tail, would keep it at 0.05."""
    n = 400
    rng = np.random.default_rng(11)
    z = rng.normal(size=n)
    z = (z - z.mean()) / z.std(ddof=1)
    lead = rng.normal(0.0, 0.3, n)
    worse = lead + z - 1.8 / math.sqrt(n)
    p = sps.ttest_rel(worse, lead, alternative="less").pvalue
    assert 0.03 < p < 0.05 < 2 * p
    gains = {SMART: lead, STRONG: worse}
    monkeypatch.setattr(tuning, "deal_gains", lambda table, policy, start, count: gains[policy][start : start + count])
    cands = [tuning.Candidate("lead", SMART), tuning.Candidate("worse", STRONG)]
    at_05 = tuning.race(tuning.Table(RULES, BASIC, 1), cands, first=n, max_deals=n, alpha=0.05, halve=False)
    at_03 = tuning.race(tuning.Table(RULES, BASIC, 1), cands, first=n, max_deals=n, alpha=0.03, halve=False)
    assert at_05.dropped_in == {"worse": 1} and at_03.dropped_in == {}


# ---------------------------------------------------------------- fresh deals and what ships


def test_the_fresh_check_and_what_ships_written_out_by_hand(monkeypatch):
    means = {SMART: 0.0, STRONG: 0.1, BASIC.replace(attack_at=2): 0.09}
    _planted(monkeypatch, means)
    table = tuning.Table(RULES, BASIC, 1)
    refs = tuning.references(BASIC)
    assert list(refs) == ["basic", "smart", "strong"]  # basic is the field: no fourth reference
    winner = BASIC.replace(attack_at=2)
    check = tuning.fresh_check(table, winner, refs, 300, start=777)
    assert check.start == 777 and check.deals == 300
    cand = tuning.deal_gains(table, winner, 777, 300)
    assert np.array_equal(check.arrays["candidate"], cand) and np.array_equal(check.arrays["basic"], np.zeros(300))
    for name, ref in refs.items():
        x = cand - tuning.deal_gains(table, ref, 777, 300)
        low, high, p = _scipy_t(x)
        v = check.versus[name]
        assert v.n == 300 and v.diff == pytest.approx(x.mean(), abs=1e-15)
        if name != "basic" or np.ptp(x) > 0:
            assert (v.low, v.high, v.p) == pytest.approx((low, high, p), rel=1e-9)
        assert check.gains[name].diff == pytest.approx(tuning.deal_gains(table, ref, 777, 300).mean(), abs=1e-15)
    # 0.09 against strong's 0.1: 0.6 standard errors (0.2 * sqrt(2) / sqrt(300) = 0.016) below, nowhere near
    # the +1.96 that would put the interval above 0; strong's fresh gain is 6 standard errors above smart's
    assert check.versus["strong"].low <= 0 and not check.beats_all()
    shipped = tuning.choose(check, winner, refs)
    assert not shipped.winner and shipped.label == "strong" and shipped.policy == STRONG
    strong = check.arrays["strong"]
    for name in refs:
        x = strong - check.arrays[name]
        assert shipped.versus[name].diff == pytest.approx(x.mean(), abs=1e-15)
    assert shipped.versus["strong"] == tuning.paired_diff(strong, strong)  # itself: exactly 0


def test_beats_all_needs_every_lower_bound_strictly_above_zero():
    def d(low: float) -> Difference:
        return Difference(low + 0.01, 0.005, 100, low, low + 0.02, 0.01, 99)

    def check(*lows: float) -> tuning.FreshCheck:
        return tuning.FreshCheck(0, 100, {}, {f"r{i}": d(lo) for i, lo in enumerate(lows)})

    assert check(0.001, 0.002).beats_all()
    assert not check(0.001, 0.0).beats_all()  # a bound at exactly 0 does not clear it
    assert not check(-0.001, 0.5).beats_all()


def test_the_references_add_the_field_only_when_it_is_none_of_them():
    assert list(tuning.references(SMART)) == ["basic", "smart", "strong"]
    field = BASIC.replace(challenge=0.75)
    refs = tuning.references(field)
    assert list(refs) == ["basic", "smart", "strong", "field"] and refs["field"] == field


# ---------------------------------------------------------------- the verdict lines of a policy file


def test_pp_and_the_share_of_the_space_to_the_digit():
    d = Difference(0.012345, 0.001, 100, -0.01234, 0.0251, 0.2, 99)
    assert tune_file.pp(d) == "+1.234 [-1.234, +2.510]"  # points: 100 x, three decimals, signed
    assert tune_file._share(1, 3) == "33.3%"
    assert tune_file._share(1, 1000) == "0.1%"  # under one per cent: two significant digits
    assert tune_file._share(7, 1000) == "0.7%" and tune_file._share(123, 100_000) == "0.12%"
    assert tune_file._share(1, 100) == "1.0%" and tune_file._share(3, 3) == "100.0%"


WORKED = """\
# Made by: unocli tune sims/spaces/basic.toml
# Shipped: the search's winner, which beat basic, smart, strong on these deals (interval above 0 against each).
#   over basic +1.234 [+1.000, +1.468]; over smart +0.511 [-0.280, +0.742]; over strong -0.010 [-0.200, +0.180]
["we\\"ird\\\\name"]
base = "strong"

# Shipped: the preset strong, the best of basic, smart, strong on these deals; the search's winner did not.
[tuned-plain-4]
base = "strong"
"""


def test_read_verdicts_on_a_worked_file():
    first, second = tune_file.read_verdicts(WORKED)
    assert first.name == 'we"ird\\name' and first.preset is None  # the quoted key unescaped
    assert first.over == {"basic": (1.234, 1.0, 1.468), "smart": (0.511, -0.28, 0.742), "strong": (-0.01, -0.2, 0.18)}
    assert second == tune_file.Verdict("tuned-plain-4", "strong", {})  # a bare key; no 'over' line: nothing carried over


def test_read_verdicts_refuses_an_entry_without_its_own_shipped_line():
    with pytest.raises(tuning.ConfigError, match=r"the entry \[lonely\] records no 'Shipped' verdict"):
        tune_file.read_verdicts("[lonely]\nbase = 'basic'\n")
    # the first entry's verdict does not stand for the next entry's
    second = "\n".join(line for line in WORKED.splitlines() if not line.startswith("# Shipped: the preset"))
    with pytest.raises(tuning.ConfigError, match=r"\[tuned-plain-4\] records no 'Shipped'"):
        tune_file.read_verdicts(second)
    assert tune_file.read_verdicts(WORKED.split("\n\n")[0] + "\n")[0].over["basic"] == (1.234, 1.0, 1.468)
    # a first entry with no 'over' line records no figures (an empty table, not a missing one)
    (only,) = tune_file.read_verdicts(WORKED.split("\n\n")[1])
    assert only.over == {} and only.preset == "strong"


def test_the_ranking_puts_survivors_first_then_the_last_dropped_whatever_their_means(monkeypatch):
    """L leads throughout; X is dropped in round 1 with mean 0; S ties L in round 1 and collapses in round 2
    (dropped then, mean -0.33 over its 300 deals). By mean alone X would come before S."""
    z = np.random.default_rng(5).normal(size=300)
    z = (z - z.mean()) / z.std(ddof=1)
    lead = 1.0 + 0.1 * z
    gains = {
        SMART: lead,
        STRONG: np.concatenate([lead[:100], -1.0 + 0.1 * z[100:]]),
        preset("hoarder"): 0.1 * z[::-1],
    }
    monkeypatch.setattr(tuning, "deal_gains", lambda table, policy, start, count: gains[policy][start : start + count])
    cands = [tuning.Candidate("L", SMART), tuning.Candidate("S", STRONG), tuning.Candidate("X", preset("hoarder"))]
    state = tuning.race(tuning.Table(RULES, BASIC, 1), cands, first=100, max_deals=300, halve=False)
    assert state.dropped_in == {"X": 1, "S": 2}
    assert state.all_gains("X").mean() > state.all_gains("S").mean()
    assert [c.name for c in state.ranking()] == ["L", "S", "X"]
