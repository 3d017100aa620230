"""Precision on demand: how many more games a run needs to reach a target interval width.

``simulate``, ``compare`` and ``sweep`` accept ``target_error``: through
:func:`play_to_target`, the one loop they share, they play a first batch,
measure the 95% interval half-width of the named metric, and keep adding
batches until it is at most the target or ``max_games`` is reached.
Each next batch is sized from the current spread (the half-width shrinks as
1/sqrt(n)), growing at most fourfold per step so a noisy early estimate cannot
overshoot badly. The schedule depends only on the results so far, which depend
only on the games played, so a run with a target is as reproducible as one
without.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from unocli.errors import ConfigError

DEFAULT_MAX_GAMES = 10_000_000
DEFAULT_FIRST_BATCH = 2_000


@dataclass(frozen=True)
class TargetInfo:
    """What a run with a target error achieved."""

    metric: str
    target: float
    half_width: float
    games: int
    reached: bool
    max_games: int

    def describe(self, unit: str = "games") -> str:
        """One sentence for the user."""
        if self.reached:
            return (
                f"target reached: 95% CI half-width of {self.metric} is {self.half_width:.4g} <= {self.target:g} "
                f"after {self.games:,} {unit}"
            )
        return (
            f"target NOT reached: 95% CI half-width of {self.metric} is {self.half_width:.4g} > {self.target:g} "
            f"after {self.games:,} {unit} (the max_games limit {self.max_games:,})"
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "metric": self.metric,
            "target_error": self.target,
            "half_width": self.half_width,
            "games": self.games,
            "reached": self.reached,
            "max_games": self.max_games,
        }


def check_target(target_error: float | None, max_games: int, where: str = "--target-error") -> None:
    """Refuse a target error that is not a positive number, or a bad ``max_games``."""
    if target_error is None:
        return
    if (
        isinstance(target_error, bool)
        or not isinstance(target_error, int | float)
        or not (math.isfinite(target_error) and target_error > 0)
    ):
        raise ConfigError(f"{where} must be a positive number, not {target_error!r}")
    if isinstance(max_games, bool) or not isinstance(max_games, int) or max_games < 1:
        raise ConfigError(f"max_games must be a positive whole number, not {max_games!r}")


def next_batch(done: int, half_width: float, target: float, max_games: int) -> int:
    """Games to add after ``done`` games whose half-width is ``half_width`` (0: stop)."""
    if done >= max_games:
        return 0
    if math.isfinite(half_width) and half_width <= target:
        return 0
    if not math.isfinite(half_width) or half_width <= 0:
        more = done
    else:
        ratio = half_width / target  # a tiny target (1e-300) makes its square overflow: then as many as allowed
        more = math.ceil(done * ratio * ratio * 1.05) - done if ratio < 1e100 else max_games
    more = max(more, math.ceil(done / 4), 1)
    return min(more, 3 * done, max_games - done)


def play_to_target(
    play: Callable[[int, int], None],
    half_width: Callable[[], float],
    *,
    first: int,
    target_error: float | None,
    metric: str,
    max_games: int = DEFAULT_MAX_GAMES,
) -> TargetInfo | None:
    """The adaptive-precision loop every run with ``target_error`` goes through.

    ``play(done, count)`` plays games ``done .. done + count - 1`` (counted
    from the run's first game) and folds them into the caller's running
    totals; ``half_width()`` measures the current 95% interval half-width of
    ``metric`` from those totals.

    Without a target, ``first`` games are played and None is returned. With
    one, the first batch is ``first`` games (at most ``max_games``; 0 means
    :data:`DEFAULT_FIRST_BATCH`), and batches sized by :func:`next_batch`
    follow until the half-width is at most ``target_error`` or ``max_games``
    games were played; the returned :class:`TargetInfo` says how it went.
    """
    if target_error is None:
        play(0, first)
        return None
    batch = min(first, max_games) if first else DEFAULT_FIRST_BATCH
    done = 0
    half = math.inf
    while batch > 0:
        play(done, batch)
        done += batch
        half = half_width()
        batch = next_batch(done, half, target_error, max_games)
    return TargetInfo(
        metric=metric, target=target_error, half_width=half, games=done, reached=half <= target_error, max_games=max_games
    )
