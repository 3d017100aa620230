"""The numba kernel: the engine users run.

Three layers (docs/design.md §3, after stumpy): ``step.py`` plays one round on
arrays (``@njit``), ``batch.py`` plays a run of games in one workspace
(``@njit(nogil=True)``), and this module is the plain-Python wrapper, which
splits a call into chunks and plays them on its threads in parallel.
``plain.py`` is the step specialised to the official rules' shape with
uniform players (the same rows, faster; ``specialise=False`` turns it off).
Nothing outside the kernel imports ``step``, ``plain`` or ``batch`` directly.

Every constant the compiled code uses comes from ``encode.py``, which takes
the card numbers from ``unocli.game.cards`` and the outcomes from
``unocli.game.counters``. A game's mutable state is one aligned NumPy record,
``encode.WORKSPACE`` (``g.current``, ``g.hands[seat, t]``,
``g.prio[seat, table, t]``), not a flat int64 array addressed by computed
offsets: about 1.09x the rounds per second of the flat array. A record is
passed by pointer, so it needs neither reference counting nor the
unmanaged-view workaround the rng and probability arrays still use.

Its card tables (hands, colour counts, discard counts, the draw pile, the
options, the stuck test's copies) are int8 and the hand sizes and priority
tables int16, so a four-player workspace is under 5 KB rather than about
20 KB (x1.16 rounds per CPU-second on one thread). docs/performance.md gives
how both were measured.
"""

from __future__ import annotations

import os
import threading
from concurrent.futures import ThreadPoolExecutor

import numba
import numpy as np

from unocli.game.policies import Policy
from unocli.game.rules import Rules
from unocli.kernel._cache import in_cache  # (must come before the kernel modules: cache stamps)
from unocli.kernel.batch import play_batch, play_batch_search
from unocli.kernel.encode import (
    ACC_WIDTH,
    FAULT_NONE,
    FAULT_PLUS4_ANYTIME,
    FAULT_REVERSE_2P,
    FAULT_SKIP,
    FAULT_STACK_COLOUR,
    FAULT_UNO_PENALTY,
    I_SEARCH,
    ROW_NAMES,
    ROW_WIDTH,
    SEARCH_OFF,
    encode_policies,
    encode_rules,
)
from unocli.signals import signals_held

# Deliberately broken rules, for tests that must show a broken kernel is
# caught (differential test, balance check). Chosen with the environment
# variable UNOCLI_TEST_FAULT; never set it outside tests.
FAULTS = {
    "none": FAULT_NONE,
    "reverse_2p": FAULT_REVERSE_2P,  # a 2-player Reverse does not skip
    "uno_penalty": FAULT_UNO_PENALTY,  # a caught player draws nothing
    "plus4_anytime": FAULT_PLUS4_ANYTIME,  # +4 legal whatever the hand
    "skip": FAULT_SKIP,  # a Skip skips nobody
    "stack_colour": FAULT_STACK_COLOUR,  # +2 on +4 ignores the declared colour
}


def _fault() -> int:
    name = os.environ.get("UNOCLI_TEST_FAULT", "none")
    if name not in FAULTS:
        raise ValueError(f"UNOCLI_TEST_FAULT must be one of {', '.join(FAULTS)}, not {name!r}")
    return FAULTS[name]


__all__ = ["ROW_NAMES", "ROW_WIDTH", "is_compiled", "max_threads", "play_folded", "play_rows", "rollouts", "set_default_threads"]

_default_threads: int | None = None  # threads when a caller names none; None means all


#: The compiled kernels a run may need, by name: every run without a searching seat ("batch"), the batch kernel
#: with the search players ("search"), and the bluff report's decision table ("decision", which compiles the
#: search machinery too; its module answers for it: ``bluff_decision.is_compiled``).
KERNELS = ("batch", "search", "decision")


def is_compiled(kernel: str = "batch") -> bool:
    """Is the batch kernel ``kernel`` ("batch" or "search") in numba's on-disk cache, so the next call will not compile?"""
    return in_cache(play_batch_search if kernel == "search" else play_batch)


def max_threads() -> int:
    """Threads numba may use on this machine."""
    return numba.config.NUMBA_NUM_THREADS


def set_default_threads(threads: int | None) -> None:
    """Threads for calls that name none, in this process (None: all).

    A Dask worker sets 1: its worker threads already run one shard per core.
    """
    global _default_threads
    _default_threads = threads


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
    specialise: bool = True,
) -> np.ndarray:
    """Play games ``start .. start + count - 1``; one int64 row per game (``encode.ROW_NAMES``).

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
        Threads (default: all, or what :func:`set_default_threads` set). Results do not depend on it.
    out
        Optional preallocated ``int64[>= count, ROW_WIDTH]`` array to fill.
    specialise
        Play the rounds of the official rules' shape with uniform players by
        the specialised plain round (``kernel/plain.py``), which gives the
        same rows faster; False plays every round with the general one (for
        tests and measurements).
    """
    rows = out[:count] if out is not None else np.empty((count, ROW_WIDTH), dtype=np.int64)
    _play(rules, policies, seed, start, count, match, threads, 0, rows, specialise)
    return rows


def rollouts(rules: Rules, policy: Policy, count: int, *, seed: int = 0, index: int = 0) -> int:
    """Play ``count`` search rollouts with ``policy`` at every seat from the start of a dealt round (one thread).

    What ``unocli bench`` times as rollouts per second; returns the wins of seat 0 (whose
    view the hidden cards are re-dealt from).
    """
    from unocli.kernel.batch import rollout_batch

    ru = np.append(encode_rules(rules), np.int64(_fault()))
    probs, ints, prio = encode_policies((policy,) * rules.players)
    return int(rollout_batch(ru, probs, ints, prio, np.uint64(seed), np.int64(index), np.int64(count)))


def searched_rollouts(rules: Rules, policy: Policy, budget: int, games: int, *, seed: int = 0, start: int = 0) -> int:
    """Play the first rounds of ``games`` games with ``policy`` at every seat, searching seat 0's cards; the rollouts played.

    What ``unocli bench`` times as rollouts per second from the positions a search meets: at each of seat
    0's turns with two options or more, ``budget`` rollouts of each option (one thread).
    """
    from unocli.kernel.batch import searched_rollout_batch

    ru = np.append(encode_rules(rules), np.int64(_fault()))
    probs, ints, prio = encode_policies((policy,) * rules.players)
    return int(searched_rollout_batch(ru, probs, ints, prio, np.uint64(seed), np.int64(start), np.int64(games), np.int64(budget)))


def play_folded(
    rules: Rules,
    policies: tuple[Policy, ...] | list[Policy],
    *,
    seed: int = 0,
    start: int = 0,
    count: int,
    match: bool = False,
    threads: int | None = None,
    tag: int = 0,
    keep: bool = False,
    specialise: bool = True,
) -> tuple[np.ndarray, np.ndarray | None]:
    """Play games ``start .. start + count - 1`` and return their per-chunk accumulators.

    The accumulators (``uint64[chunks, encode.ACC_WIDTH]``, ``encode.A_*``)
    are folded inside the compiled kernel, one per chunk; ``Accumulator.from_kernel`` merges
    them into what ``Accumulator.add_rows`` would make of the rows (``tag``:
    the seat rotation, as there). With ``keep`` the rows are returned too,
    else ``None``: no per-game array is made. Parameters as :func:`play_rows`.
    """
    rows = np.empty((count if keep else 0, ROW_WIDTH), dtype=np.int64)
    acc = _play(rules, policies, seed, start, count, match, threads, tag, rows, specialise)
    return acc, (rows if keep else None)


def _play(
    rules: Rules,
    policies: tuple[Policy, ...] | list[Policy],
    seed: int,
    start: int,
    count: int,
    match: bool,
    threads: int | None,
    tag: int,
    rows: np.ndarray,
    specialise: bool = True,
) -> np.ndarray:
    """Run the batch kernel; ``rows`` with ``count`` rows are filled, with none left alone. Returns the accumulators."""
    if len(policies) != rules.players:
        raise ValueError(f"{len(policies)} policies for {rules.players} players")
    if rows.shape[0] > 0 and not rows.flags.c_contiguous:
        # the batch writes rows through a raw C-ordered view of the array (batch._unmanaged)
        dense = np.ascontiguousarray(rows)
        acc = _play(rules, policies, seed, start, count, match, threads, tag, dense, specialise)
        rows[...] = dense
        return acc
    probs, ints, prio = encode_policies(tuple(policies))
    n_threads = min(threads or _default_threads or max_threads(), max_threads())
    nchunks = max(1, min(count, 4 * n_threads))
    acc = np.zeros((nchunks, ACC_WIDTH), dtype=np.uint64)
    ru = np.append(encode_rules(rules), np.int64(_fault()))
    keep = rows.shape[0] > 0
    per = (count + nchunks - 1) // nchunks

    # the kernel with the search players only when a seat searches: the other is compiled without them
    batch = play_batch_search if bool((ints[:, I_SEARCH] != SEARCH_OFF).any()) else play_batch

    def chunk(c: int) -> None:
        lo = min(count, c * per)
        hi = min(count, lo + per)
        batch(
            ru,
            probs,
            ints,
            prio,
            np.uint64(seed),
            np.int64(start + lo),
            np.int64(hi - lo),
            bool(match),
            np.int64(tag),
            keep,
            bool(specialise),
            rows[lo:hi] if keep else rows,
            acc[c],
        )

    if n_threads == 1 or nchunks == 1:
        for c in range(nchunks):
            chunk(c)
        return acc
    # play_batch runs without the GIL, so plain threads play the chunks in
    # parallel: n_threads workers of the pool each take the next chunk until
    # none is left. Which thread plays a chunk changes nothing in its results.
    chunks = iter(range(nchunks))
    lock = threading.Lock()

    def worker() -> None:
        while True:
            with lock:
                c = next(chunks, None)
            if c is None:
                return
            chunk(c)

    pool = _thread_pool()
    with signals_held():  # an interrupt inside submit could orphan a thread it starts: exit would wait on it
        futures = [pool.submit(worker) for _ in range(min(n_threads, nchunks))]
    try:
        for future in futures:
            future.result()
    except BaseException:  # Ctrl-C in this thread: no new chunk starts, the ones under way finish
        with lock:
            for _ in chunks:
                pass
        raise
    return acc


_pool: tuple[int, ThreadPoolExecutor] | None = None  # (process id, pool)


def _thread_pool() -> ThreadPoolExecutor:
    """The process's pool of max_threads() threads, made on first use (again in a forked child).

    Kept for the life of the process: a thread's first call into the kernel
    costs tens of milliseconds, so a pool made per call scaled to 1.5-1.65x on
    two cores where this one scales like numba's own threads (1.85x).
    """
    global _pool
    if _pool is None or _pool[0] != os.getpid():
        _pool = (os.getpid(), ThreadPoolExecutor(max_workers=max_threads(), thread_name_prefix="unocli-kernel"))
    return _pool[1]
