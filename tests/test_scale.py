"""Scale: a huge --games starts at once, in constant memory (issue 14, item 6)."""

from __future__ import annotations

import itertools
import tracemalloc

import pytest

from unocli.game.rules import Rules
from unocli.run.shards import split
from unocli.study.simulate import simulate


def test_split_is_lazy_and_covers_the_games() -> None:
    shards = split(10, 1000, 64)
    assert not isinstance(shards, list)
    pairs = list(shards)
    assert pairs[0] == (10, 64) and pairs[-1] == (10 + 960, 40)
    assert sum(c for _, c in pairs) == 1000 and all(a + c == b for (a, c), (b, _) in itertools.pairwise(pairs))
    # 10**13 games in shards of 2**16: the first shards come at once, nothing else is made.
    huge = split(0, 10**13, 1 << 16)
    assert next(huge) == (0, 1 << 16) and next(huge) == (1 << 16, 1 << 16)


class _Stop(Exception):
    pass


def test_simulate_ten_trillion_games_starts_at_once() -> None:
    """simulate(games=10**13) plays its first shard without listing 10**8 shards first.

    Stopped from the progress callback after the first shard. The memory
    bound is loose: a list of the shards alone would be over 10 GB, one shard
    takes a few MB.
    """
    simulate(Rules(), games=100, seed=1)  # load the kernel outside the measurement
    seen: list[tuple[int, int]] = []

    def progress(done: int, total: int) -> None:
        seen.append((done, total))
        raise _Stop

    tracemalloc.start()
    with pytest.raises(_Stop):
        simulate(Rules(), games=10**13, seed=1, progress=progress, threads=1)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert seen and seen[0][1] == 10**13 and seen[0][0] > 0
    assert peak < 50 * 2**20, peak


@pytest.mark.parametrize(
    ("kwargs", "size"),
    [({}, 1 << 18), ({"keep_games": True}, 1 << 16), ({"rotate_seats": True}, 1 << 16), ({"batch_size": 7}, 7)],
)
def test_shards_are_larger_when_no_rows_are_made(monkeypatch: pytest.MonkeyPatch, kwargs: dict, size: int) -> None:
    """Shards of 2**18 games, or 2**16 when per-game rows are made (kept games, seat rotation), or the size asked for."""
    import unocli.study.simulate as module

    sizes: list[int] = []

    def spy(start: int, games: int, shard: int):  # type: ignore[no-untyped-def]
        sizes.append(shard)
        return split(start, games, shard)

    monkeypatch.setattr(module, "split", spy)
    simulate(Rules(), games=20, seed=1, **kwargs)
    assert sizes == [size]


@pytest.mark.parametrize("bad", [0, -5, 2.5, True, "64"])
def test_a_bad_batch_size_is_refused(bad: object) -> None:
    from unocli.errors import ConfigError

    with pytest.raises(ConfigError, match="batch_size must be a positive whole number"):
        simulate(Rules(), games=20, seed=1, batch_size=bad)  # type: ignore[arg-type]
