"""``compare``'s numbers against values computed another way (issue 29 item 3: the survivors of
``mutation/run.sh compare``): every sum of a shard counted game by game in plain Python from the kernel's rows,
on a table where some rounds are capped (so the finished-only masking shows); the means and paired differences
against scipy on those rows; the role and place quantities on rows built by hand; Holm's column written out."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats as sps

from unocli.game.policies import preset
from unocli.game.rules import Rules
from unocli.kernel import ROW_NAMES, play_rows
from unocli.kernel.encode import DEALER, FIRST_PLAYER, OUTCOME, OUTCOME_BLOCKED, OUTCOME_CAPPED, OUTCOME_WON, WINNER
from unocli.run import shards
from unocli.study import compare as cmp
from unocli.study.arm import Arm

# 3 seats capped at 30 turns: of games 5 .. 44 of seed 3, 23 end capped under basic (so about half are unfinished)
RULES = Rules(players=3, max_turns=30)
ARMS = (
    Arm("basic", RULES, (preset("basic"),) * 3),
    Arm("smart", RULES, (preset("smart"), preset("basic"), preset("basic"))),
    Arm("strong", RULES, (preset("strong"),) * 3),
)
QUANTITIES = ("turns", "cards_drawn", "won", "capped", "win_0", "lose_1", "win_first", "win_place_2", "points_0")
CROSS = (("turns", "cards_drawn"), ("win_0", "turns"))
START, COUNT, BLOCKS, SEED = 5, 40, 4, 3


def _value(row: np.ndarray, name: str) -> int:
    """One game's quantity, from its row, written out case by case."""
    w = int(row[WINNER])
    if name == "won":
        return int(row[OUTCOME] == OUTCOME_WON)
    if name == "capped":
        return int(row[OUTCOME] == OUTCOME_CAPPED)
    if name == "win_0":
        return int(w == 0)
    if name == "lose_1":
        return int(w >= 0 and w != 1)
    if name == "win_first":
        return int(w == row[FIRST_PLAYER])
    if name == "win_place_2":  # two seats after the dealer, going round three seats
        return int(w >= 0 and w == (row[DEALER] + 2) % 3)
    return int(row[ROW_NAMES.index(name)])


def _rows() -> list[np.ndarray]:
    return [play_rows(a.rules, a.policies, seed=SEED, start=START, count=COUNT) for a in ARMS]


def _done(row: np.ndarray) -> bool:
    return int(row[OUTCOME]) in (OUTCOME_WON, OUTCOME_BLOCKED)


def _spec(pairs=((1, 0), (2, 0), (2, 1))) -> shards.PairSpec:
    return shards.PairSpec(
        tables=tuple((a.rules, a.policies) for a in ARMS),
        seed=SEED,
        match=False,
        quantities=QUANTITIES,
        pairs=pairs,
        cross=tuple((QUANTITIES.index(a), QUANTITIES.index(b)) for a, b in CROSS),
        blocks=BLOCKS,
    )


def test_a_shards_sums_counted_game_by_game():
    rows = _rows()
    assert sum(not _done(r) for r in rows[0]) > 5  # capped rounds present: the masking is exercised
    spec = _spec()
    part = shards.run_pair_shard(spec, (START, COUNT))
    binary = {"won", "capped", "win_0", "lose_1", "win_first", "win_place_2"}

    def v(k: int, g: int, name: str) -> int:  # finished-only quantities count 0 in a game the arm did not finish
        row = rows[k][g]
        return _value(row, name) if name in binary or _done(row) else 0

    assert part.start == START and part.count == COUNT
    for k in range(3):
        assert part.fin[k] == sum(_done(r) for r in rows[k])
        for j, name in enumerate(QUANTITIES):
            assert part.s1[k, j] == sum(v(k, g, name) for g in range(COUNT)), (k, name)
            assert part.s2[k, j] == sum(v(k, g, name) ** 2 for g in range(COUNT)), (k, name)
        for c, (x, y) in enumerate(CROSS):
            assert part.sx[k, c] == sum(v(k, g, x) * v(k, g, y) for g in range(COUNT))
        for b in range(BLOCKS):  # game i is in block i mod 4
            games = [g for g in range(COUNT) if (START + g) % BLOCKS == b]
            assert part.block_n[b] == len(games)
            assert part.block_fin[b, k] == sum(_done(rows[k][g]) for g in games)
            for j, name in enumerate(QUANTITIES):
                assert part.block_s1[b, k, j] == sum(v(k, g, name) for g in games)
    for p, (a, b) in enumerate(spec.pairs):
        common = [g for g in range(COUNT) if _done(rows[a][g]) and _done(rows[b][g])]
        assert part.both[p] == len(common)
        for j, name in enumerate(QUANTITIES):
            games = range(COUNT) if name in binary else common  # lengths: over deals both arms finished
            d = [v(a, g, name) - v(b, g, name) for g in games]
            assert part.d1[p, j] == sum(d) and part.d2[p, j] == sum(x * x for x in d), (a, b, name)
    assert len(part.accs) == 3 and [acc.games for acc in part.accs] == [COUNT] * 3


def test_sums_of_two_shards_are_the_sums_of_one():
    spec = _spec()
    whole = shards.run_pair_shard(spec, (START, COUNT))
    sums = cmp.PairedSums(arms=3, quantities=QUANTITIES, pairs=spec.pairs, cross=spec.cross, players=3, blocks=BLOCKS)
    for shard in [(START + 17, COUNT - 17), (START, 17)]:  # out of order, as a backend may return them
        sums.add(shards.run_pair_shard(spec, shard))
    assert sums.games == COUNT
    # exact: a shard's sums are int64 and the running totals Python integers, never floats (which would round
    # sums of squares once they pass 2**53, as a long run's do)
    assert all(getattr(whole, name).dtype == np.int64 for name in ("s1", "s2", "d1", "d2", "both", "fin", "sx"))
    assert all(type(x) is int for name in ("s1", "s2", "d1", "d2", "sx") for x in np.asarray(getattr(sums, name)).flat)
    for name in ("s1", "s2", "d1", "d2", "both", "fin", "sx"):
        assert np.array_equal(np.asarray(getattr(sums, name), dtype=np.int64), getattr(whole, name)), name
    assert np.array_equal(sums.block_s1, whole.block_s1) and np.array_equal(sums.block_games, whole.block_n)
    assert np.array_equal(sums.block_fin, whole.block_fin)
    assert [a.fingerprint for a in sums.accs] == [a.fingerprint for a in whole.accs]


def _comparison() -> cmp.Comparison:
    return cmp.compare(list(ARMS), games=COUNT, seed=SEED, start=START, quantities=QUANTITIES, blocks=BLOCKS)


def test_means_and_paired_differences_against_scipy_on_the_rows():
    rows = _rows()
    comp = _comparison()
    assert comp.games == COUNT
    for k, arm in enumerate(ARMS):
        done = [g for g in range(COUNT) if _done(rows[k][g])]
        assert comp.finished(arm.name) == len(done)
        x = np.array([_value(rows[k][g], "turns") for g in done], dtype=float)
        est = comp.mean(arm.name, "turns")
        ci = sps.t.interval(0.95, len(x) - 1, loc=x.mean(), scale=sps.sem(x))
        assert est.n == len(done) and est.mean == pytest.approx(x.mean(), rel=1e-12)
        assert (est.low, est.high) == pytest.approx(ci, rel=1e-9)
        wins = sum(_value(r, "win_0") for r in rows[k])
        share = comp.mean(arm.name, "win_0")
        wilson = sps.binomtest(wins, COUNT).proportion_ci(0.95, method="wilson")
        assert share.n == COUNT and share.mean == wins / COUNT and share.method == "wilson"
        assert (share.low, share.high) == pytest.approx((wilson.low, wilson.high), abs=1e-12)
        assert comp.means()[k, QUANTITIES.index("turns")] == pytest.approx(x.mean(), rel=1e-12)
        assert comp.means()[k, QUANTITIES.index("win_0")] == wins / COUNT  # over every game, not the finished ones
    for a, b in [(1, 0), (2, 0)]:
        common = [g for g in range(COUNT) if _done(rows[a][g]) and _done(rows[b][g])]
        d = np.array([_value(rows[a][g], "turns") - _value(rows[b][g], "turns") for g in common], dtype=float)
        res = sps.ttest_rel(d, np.zeros_like(d))
        ci = res.confidence_interval(0.95)
        got = comp.diff(ARMS[a].name, ARMS[b].name, "turns")
        assert got.n == len(common) == comp.both_finished(ARMS[a].name, ARMS[b].name)
        assert got.diff == pytest.approx(d.mean(), rel=1e-12)
        assert (got.low, got.high, got.p) == pytest.approx((ci.low, ci.high, res.pvalue), rel=1e-9)
        back = comp.diff(ARMS[b].name, ARMS[a].name, "turns")  # the other way round: the sign flips, nothing else
        assert back.diff == pytest.approx(-d.mean(), rel=1e-12) and back.p == pytest.approx(res.pvalue, rel=1e-9)
        assert (back.low, back.high) == pytest.approx((-ci.high, -ci.low), rel=1e-9)
        assert comp.both_finished(ARMS[b].name, ARMS[a].name) == len(common)
        w = np.array([_value(rows[a][g], "win_0") - _value(rows[b][g], "win_0") for g in range(COUNT)], dtype=float)
        assert comp.diff(ARMS[a].name, ARMS[b].name, "win_0").n == COUNT
        assert comp.diff(ARMS[a].name, ARMS[b].name, "win_0").diff == pytest.approx(w.mean(), abs=1e-15)
    same = comp.diff("smart", "smart", "turns")
    assert (same.diff, same.low, same.high, same.p, same.n) == (0.0, 0.0, 0.0, 1.0, comp.finished("smart"))
    assert comp.diff("smart", "smart", "win_0").n == COUNT and comp.both_finished("smart", "smart") == comp.finished("smart")
    with pytest.raises(cmp.ConfigError, match="were not compared"):
        comp.diff("smart", "strong", "turns")


def test_the_table_and_its_holm_column_written_out():
    comp = _comparison()
    t = comp.table(["turns", "win_0"])
    assert list(t["arm"]) == ["basic", "basic", "smart", "smart", "strong", "strong"]
    columns = ["arm", "metric", "n", "mean", "sd", "ci_low", "ci_high", "interval", "baseline"]
    columns += ["diff", "diff_low", "diff_high", "p", "n_pairs", "p_holm"]
    assert list(t.columns) == columns  # the baseline's rows carry the same columns as the others (no stray one)
    base = t[t["arm"] == "basic"]
    assert base["diff"].isna().all() and base["p_holm"].isna().all() and (base["n_pairs"] == 0).all()
    assert t["p_holm"].dtype == np.float64 and t["p"].dtype == np.float64  # numbers, NaN where none applies
    others = t[t["arm"] != "basic"]
    for _, row in others.iterrows():
        d = comp.diff(row["arm"], "basic", row["metric"])
        m = comp.mean(row["arm"], row["metric"])
        assert (row["diff"], row["diff_low"], row["diff_high"], row["p"], row["n_pairs"]) == (d.diff, d.low, d.high, d.p, d.n)
        assert (row["n"], row["mean"], row["sd"], row["ci_low"], row["ci_high"]) == (m.n, m.mean, m.sd, m.low, m.high)
        assert row["baseline"] == "basic" and row["interval"] == ("wilson" if row["metric"] == "win_0" else "t")
    # Holm over the four non-baseline rows: sort, multiply the k-th smallest by (4 - k), keep the running maximum
    p = list(others["p"])
    order = sorted(range(4), key=lambda i: p[i])
    expected, running = [0.0] * 4, 0.0
    for rank, i in enumerate(order):
        running = max(running, (4 - rank) * p[i])
        expected[i] = min(1.0, running)
    assert list(others["p_holm"]) == pytest.approx(expected, rel=1e-12)


def test_quantities_of_rows_built_by_hand():
    """Four games at 3 seats: winner, first player and dealer chosen so each role and place differs."""
    rows = np.zeros((4, len(ROW_NAMES)), dtype=np.int64)
    # (outcome, winner, first player, dealer)
    games = [(OUTCOME_WON, 0, 1, 0), (OUTCOME_WON, 2, 2, 1), (OUTCOME_CAPPED, -1, 1, 0), (OUTCOME_BLOCKED, 1, 0, 2)]
    for g, (o, w, f, d) in enumerate(games):
        rows[g, [OUTCOME, WINNER, FIRST_PLAYER, DEALER]] = (o, w, f, d)
    names = ("won", "blocked", "capped", "stuck", "win_first", "win_dealer", "win_place_1", "win_place_2", "win_place_3")
    names += ("win_0", "win_1", "win_2", "lose_0", "lose_1", "lose_2")
    got = cmp.quantity_matrix(rows, names, 3)
    assert got.dtype == np.int64 and got.shape == (4, len(names))  # int64[games, quantities], as documented
    expected = {
        "won": [1, 1, 0, 0],
        "blocked": [0, 0, 0, 1],
        "capped": [0, 0, 1, 0],
        "stuck": [0, 0, 0, 0],
        "win_first": [0, 1, 0, 0],
        "win_dealer": [1, 0, 0, 0],
        # place K: the seat K after the dealer (dealer 0: place 1 is seat 1 ...; place 3 is the dealer)
        "win_place_1": [0, 1, 0, 0],
        "win_place_2": [0, 0, 0, 1],
        "win_place_3": [1, 0, 0, 0],
        "win_0": [1, 0, 0, 0],
        "win_1": [0, 0, 0, 1],
        "win_2": [0, 1, 0, 0],
        "lose_0": [0, 1, 0, 1],  # a capped game has no loser
        "lose_1": [1, 1, 0, 0],
        "lose_2": [1, 0, 0, 1],
    }
    for j, name in enumerate(names):
        assert list(got[:, j]) == expected[name], name
    assert cmp.is_binary("lose_2") and cmp.is_binary("stuck") and not cmp.is_binary("cards_left_0")


def test_the_widest_half_width_is_over_the_pairs_or_else_the_means():
    comp = _comparison()
    halves = [comp.diff(ARMS[a].name, ARMS[b].name, "turns").half_width for a, b in comp.sums.pairs]
    assert cmp._widest(comp, "turns") == max(halves) and len(halves) == 2
    means = [comp.mean(a.name, "turns").half_width for a in ARMS]
    assert cmp._widest(comp, "turns", on="mean") == max(means)
    alone = cmp.compare([ARMS[0]], games=COUNT, seed=SEED, start=START, quantities=("turns",))
    assert cmp._widest(alone, "turns") == alone.mean("basic", "turns").half_width
    assert math.isfinite(cmp._widest(alone, "turns"))


def test_the_means_of_a_single_game_are_its_values():
    """One game (a mean over n = 1): the point means are that game's quantities, as counted from its row."""
    comp = cmp.compare([ARMS[1]], games=1, seed=SEED, start=6, quantities=QUANTITIES)
    row = play_rows(ARMS[1].rules, ARMS[1].policies, seed=SEED, start=6, count=1)[0]
    assert _done(row)  # game 6 is finished, so its lengths count (n = 1, not 0)
    assert list(comp.means()[0]) == [float(_value(row, q)) for q in QUANTITIES]
