"""The accumulator folded inside the parallel kernel equals the one built from the rows (issue 14, item 3)."""

from __future__ import annotations

import numpy as np
import pytest

from unocli.game.policies import preset as policy
from unocli.game.rules import preset
from unocli.kernel import play_folded, play_rows
from unocli.kernel.encode import (
    A_SUMS,
    ACC_WIDTH,
    DEALER,
    FIRST_PLAYER,
    FIRST_TO_ONE,
    FOLD_BLOCK,
    METRIC_COLS,
    N_METRICS,
    N_OUTCOMES,
    NMAX,
    OUTCOME,
    OUTCOME_BLOCKED,
    OUTCOME_WON,
    ROW_NAMES,
    ROW_WIDTH,
    SCORES,
    WINNER,
)
from unocli.kernel.fold import fold_block
from unocli.run.accumulate import Accumulator
from unocli.run.shards import RunSpec, run_shard

CASES = [
    # rules, players, policies, match, tag
    ("official", 4, ("random",), False, 0),
    ("official", 2, ("basic", "smart"), False, 1),
    ("party", 6, ("smart", "bluffer", "random"), False, 2),
    ("stack-any", 10, ("aggressive", "skeptic"), False, 0),
    ("seven-o", 3, ("hoarder",), True, 0),
    ("official", 5, ("basic",), True, 4),
]


def _policies(names: tuple[str, ...], players: int) -> tuple:
    return tuple(policy(names[s % len(names)]) for s in range(players))


@pytest.mark.parametrize(("rules_name", "players", "names", "match", "tag"), CASES)
def test_kernel_accumulator_equals_add_rows(rules_name: str, players: int, names: tuple, match: bool, tag: int) -> None:
    rules = preset(rules_name).replace(players=players)
    pols = _policies(names, players)
    count = 300 if match else 3000
    words, rows = play_folded(rules, pols, seed=11, start=1234, count=count, match=match, threads=2, tag=tag, keep=True)
    assert rows is not None
    expected = Accumulator(players=players)
    expected.add_rows(rows, first_index=1234, tag=tag)
    _same(expected, Accumulator.from_kernel(players, words))
    # Without rows: the same accumulator, and the rows are those play_rows gives.
    words_only, none = play_folded(rules, pols, seed=11, start=1234, count=count, match=match, threads=1, tag=tag)
    assert none is None
    assert Accumulator.from_kernel(players, words_only).to_dict() == expected.to_dict()
    assert (play_rows(rules, pols, seed=11, start=1234, count=count, match=match) == rows).all()


def _same(expected: Accumulator, got: Accumulator) -> None:
    """Field by field, as plain values (dataclass == cannot compare the histogram arrays)."""
    assert got.to_dict() == expected.to_dict()
    assert expected.games > 0 and expected.finished > 0 and expected.fingerprint != 0


def test_run_shard_matches_rows_path() -> None:
    """run_shard (folded in the kernel) gives the accumulator add_rows gives, rotations included."""
    rules = preset("official").replace(players=3)
    pols = _policies(("smart", "random", "basic"), 3)
    for rotate in (False, True):
        spec = RunSpec(rules=rules, policies=pols, seed=5, rotate_seats=rotate, keep_games=True)
        result = run_shard(spec, (100, 500))
        expected = Accumulator(players=3)
        assert result.rows is not None
        for k in range(3 if rotate else 1):
            part = result.rows[k * 500 : (k + 1) * 500]
            expected.add_rows(part[:, : part.shape[1] - 1] if rotate else part, first_index=100, tag=k)
        assert result.acc.to_dict() == expected.to_dict()


def test_wide_sums_are_exact_past_64_bits() -> None:
    """Sums are 128-bit (lo, hi) words: a carry and a negative value come out as exact Python ints."""
    words = np.zeros((3, ACC_WIDTH), dtype=np.uint64)
    top = (1 << 64) - 1
    words[0, A_SUMS] = top  # 2**64 - 1
    words[1, A_SUMS] = 1
    words[2, A_SUMS + 2] = top - 4  # -5 as (lo, hi) = (2**64 - 5, 2**64 - 1)
    words[2, A_SUMS + 3] = top
    words[0, A_SUMS + 2 * N_METRICS - 1] = 3  # the high word of the last metric: 3 * 2**64
    acc = Accumulator.from_kernel(4, words)
    assert acc.sums[0] == 1 << 64
    assert acc.sums[1] == -5
    assert acc.sums[N_METRICS - 1] == 3 << 64


@pytest.mark.parametrize("scale", [10, 1 << 26, (1 << 27) - 1, 1 << 27, (1 << 27) + 1, 1 << 31, 1 << 40, 1 << 50])
def test_fold_block_is_add_rows_for_any_values(scale: int) -> None:
    """fold_block's per-column int64 sums (values under 2**27) and its one-by-one 128-bit path are exact, as add_rows is.

    Real games never reach the slow path, so synthetic rows do: values up to
    ``scale`` in size either sign, every outcome, and blocks of every length
    up to FOLD_BLOCK. The sums are checked against Python integers (the
    accumulator holds 128 bits: 700 squares of 2**50 fit, of 2**62 would not).
    """
    rng = np.random.default_rng(scale)
    players = 5
    rows = rng.integers(-scale, scale, size=(700, ROW_WIDTH), dtype=np.int64)
    rows[:, OUTCOME] = rng.integers(0, N_OUTCOMES, size=len(rows))
    rows[:, WINNER] = rng.integers(-1, players, size=len(rows))
    rows[:, DEALER] = rng.integers(-players, 3 * players, size=len(rows))  # off the table too: the modulo path
    rows[:, FIRST_PLAYER] = rng.integers(0, players, size=len(rows))
    rows[:, FIRST_TO_ONE] = rng.integers(-1, players, size=len(rows))
    rows[:, SCORES + players :] = 0  # no seat past the table scores
    for name in ("turns", "cards_drawn", "max_stack", "max_draw"):  # histogrammed: never negative
        rows[:, ROW_NAMES.index(name)] = np.abs(rows[:, ROW_NAMES.index(name)])
    words = np.zeros((1, ACC_WIDTH), dtype=np.uint64)
    hashes = np.zeros(FOLD_BLOCK, dtype=np.uint64)
    finished = np.zeros(FOLD_BLOCK, dtype=np.int64)
    at = 0
    while at < len(rows):
        count = min(int(rng.integers(1, FOLD_BLOCK + 1)), len(rows) - at)
        block = np.zeros((ROW_WIDTH, FOLD_BLOCK), dtype=np.int64)
        block[:, :count] = rows[at : at + count].T
        fold_block(block, count, 77 + at, 2, players, words[0], hashes, finished)
        at += count
    expected = Accumulator(players=players)
    expected.add_rows(rows, first_index=77, tag=2)
    want = expected.to_dict()
    # the sums, independently, in Python ints (add_rows's must be the same)
    done = [[int(v) for v in row] for row in rows if row[OUTCOME] in (OUTCOME_WON, OUTCOME_BLOCKED)]
    assert len(done) > 0
    want["sums"] = [sum(row[c] for row in done) for c in METRIC_COLS]
    want["sumsq"] = [sum(row[c] ** 2 for row in done) for c in METRIC_COLS]
    want["points"] = [sum(row[SCORES + s] for row in done) for s in range(NMAX)]
    want["points_sq"] = [sum(row[SCORES + s] ** 2 for row in done) for s in range(NMAX)]
    assert want == expected.to_dict()
    got = Accumulator.from_kernel(players, words).to_dict()
    assert got == want
    if scale > 1 << 32:  # the sums of squares are past what int64 holds
        assert max(got["sumsq"]) >= 1 << 63
