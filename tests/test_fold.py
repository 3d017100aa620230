"""The accumulator folded inside the parallel kernel equals the one built from the rows (issue 14, item 3)."""

from __future__ import annotations

import numpy as np
import pytest

from unocli.game.policies import preset as policy
from unocli.game.rules import preset
from unocli.kernel import play_folded, play_rows
from unocli.kernel.encode import A_SUMS, ACC_WIDTH, N_METRICS
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
