"""The numba kernel: the engine users run.

Three layers (DESIGN.md §3, after stumpy): ``step.py`` plays one round on
arrays (``@njit``), ``batch.py`` plays a batch of games over threads
(``@njit(parallel=True)``), and this module is the plain-Python wrapper.
Nothing outside the kernel imports ``step`` or ``batch`` directly.
"""

from __future__ import annotations

import numba
import numpy as np

from ..policies import Policy, policies_to_arrays
from ..rules import Rules
from .batch import play_batch
from .layout import ROW_NAMES, ROW_WIDTH

__all__ = ["ROW_NAMES", "ROW_WIDTH", "is_compiled", "max_threads", "play_rows"]


def is_compiled() -> bool:
    """Is the batch kernel in numba's on-disk cache (so the next call will not compile)?

    Reads numba's cache index through a private attribute; if that ever
    changes, this answers False and the CLI merely says it is compiling.
    """
    if play_batch.signatures:
        return True
    try:
        return bool(play_batch._cache._cache_file._load_index())
    except Exception:  # pragma: no cover - depends on numba internals
        return False


def max_threads() -> int:
    """Threads numba may use on this machine."""
    return numba.config.NUMBA_NUM_THREADS


def play_rows(
    rules: Rules,
    policies: tuple[Policy, ...] | list[Policy],
    *,
    seed: int = 0,
    start: int = 0,
    count: int,
    match: bool = False,
    threads: int | None = None,
    out: np.ndarray | None = None,
) -> np.ndarray:
    """Play games ``start .. start + count - 1``; one int64 row per game (``layout.ROW_NAMES``).

    Parameters
    ----------
    rules, policies
        The rule set and one policy per seat.
    seed
        Run seed, 0 to 2**64 - 1.
    start, count
        First game index and number of games.
    match
        Play each game as a match to ``rules.target_score`` instead of one round.
    threads
        Numba threads (default: all). Results do not depend on it.
    out
        Optional preallocated ``int64[>= count, ROW_WIDTH]`` array to fill.
    """
    if len(policies) != rules.players:
        raise ValueError(f"{len(policies)} policies for {rules.players} players")
    probs, ints, prio = policies_to_arrays(tuple(policies))
    rows = out[:count] if out is not None else np.empty((count, ROW_WIDTH), dtype=np.int64)
    n_threads = threads or max_threads()
    previous = numba.get_num_threads()
    numba.set_num_threads(min(n_threads, max_threads()))
    try:
        nchunks = max(1, min(count, 4 * n_threads))
        play_batch(rules.to_array(), probs, ints, prio, np.uint64(seed), np.int64(start), np.int64(count), bool(match),
                   np.int64(nchunks), rows)
    finally:
        numba.set_num_threads(previous)
    return rows
