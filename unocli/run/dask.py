"""The Dask backend: shards of games on a dask.distributed cluster.

The client submits one task per shard, each a pure function of (spec, start,
count), and merges the mergeable aggregates as the tasks finish, in whatever
order. Because a shard's result depends on nothing but its arguments, Dask may
run it on any worker, run it again after a worker dies, or retry it after an
error: the merged result is the same bit for bit as the local backend's.

Each worker loads (or, the first time on a machine, compiles) the numba kernel
once, when it joins: a :class:`KernelWarmUp` worker plugin does it before the
worker takes tasks, so no shard pays for it. On a worker, a shard runs on one
kernel thread unless the run names ``threads``: the worker's Dask threads (one
per core with ``dask worker --nthreads 1 --nworkers N``) are the parallelism.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
import os
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import CancelledError
from contextlib import contextmanager
from typing import Any, TypeVar

from unocli.errors import ConfigError

try:  # optional dependency: pip install 'unocli[dask]'
    from distributed import Client, KilledWorker, LocalCluster, WorkerPlugin, get_worker, wait
except ImportError:  # pragma: no cover - exercised only without the extra
    Client = None  # type: ignore[assignment,misc]
    WorkerPlugin = object  # type: ignore[assignment,misc]

T = TypeVar("T")
R = TypeVar("R")

CONNECT_TIMEOUT = 10.0  # seconds to reach a scheduler before giving up
HANDSHAKE_GRACE = 5.0  # seconds more for the handshake after the connect, before a silent port is given up
WORKER_TIMEOUT = 60.0  # seconds to wait for a first worker at a scheduler that has none, or for one to come back
WATCH_SECONDS = 5.0  # a run that finishes no shard for this long looks whether any worker is left
IN_FLIGHT_PER_WORKER = 4  # shards submitted ahead per worker thread: enough to keep it busy, few enough to stream
RETRIES = 2  # extra tries of a shard that raised; a dead worker's shards are rescheduled regardless
WORKER_THREADS = 1  # kernel threads per shard on a worker (see the module docstring)
PLUGIN_NAME = "unocli-kernel-warm-up"


def machine_cores() -> int:
    """Cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not Linux
        return os.cpu_count() or 1


@contextmanager
def _machine_lock() -> Iterator[None]:
    """One process of this machine at a time: the first worker compiles, the others load its cache."""
    try:
        import fcntl
    except ImportError:  # pragma: no cover - not POSIX
        yield
        return
    path = os.path.join(tempfile.gettempdir(), f"unocli-kernel-{os.getuid()}.lock")
    with open(path, "a") as f:
        fcntl.flock(f, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(f, fcntl.LOCK_UN)


def load_kernel() -> float:
    """Load the kernel from numba's cache, or compile it (one process per machine at a time); returns seconds."""
    from unocli.game.policies import preset as policy_preset
    from unocli.game.rules import preset as rules_preset
    from unocli.kernel import play_rows

    t0 = time.perf_counter()
    with _machine_lock():
        rules = rules_preset("official")
        play_rows(rules, (policy_preset("random"),) * rules.players, count=2, threads=1)
    return time.perf_counter() - t0


def warm_up_kernel(threads: int | None = WORKER_THREADS) -> float:
    """Set this process's default kernel threads and load (or compile) the kernel; returns seconds."""
    from unocli.kernel import set_default_threads

    set_default_threads(threads)
    return load_kernel()


class ClusterError(ConfigError):
    """The cluster failed under a run (scheduler lost, a shard that kills its workers): one line, like bad input."""


class KernelWarmUp(WorkerPlugin):
    """Loads the kernel on every worker once, as it joins (before it takes shards).

    The load runs in a thread so that a first-time compile (about half a minute)
    does not stall the worker's heartbeat. ``worker.unocli_warm_up`` keeps the
    seconds it took.
    """

    def __init__(self, threads: int | None = WORKER_THREADS) -> None:
        self.threads = threads

    async def setup(self, worker: Any) -> None:
        seconds = await asyncio.get_running_loop().run_in_executor(None, warm_up_kernel, self.threads)
        worker.unocli_warm_up = seconds


def _shard_task(fn: Callable[[T], R], item: T) -> tuple[str, float, R]:
    """Run one shard on a worker; also say where and how long it computed."""
    try:
        where = get_worker().address
    except ValueError:  # pragma: no cover - not on a worker
        where = "client"
    t0 = time.perf_counter()
    result = fn(item)
    return where, time.perf_counter() - t0, result


class DaskBackend:
    """Runs shards on a Dask cluster: the one at ``scheduler``, or a LocalCluster sized to this machine.

    Parameters
    ----------
    scheduler
        Address of a running scheduler (``tcp://host:8786``). None starts a
        LocalCluster of one single-threaded worker process per core.
    timeout
        Seconds to wait for the scheduler before raising :class:`ConfigError` (default 10).
    n_workers
        Workers of the LocalCluster (default: one per core); ignored with ``scheduler``.

    After a run, :attr:`shards_by_worker` counts the shards each worker
    finished and :attr:`compute_seconds` sums the time they spent in the kernel.
    """

    name = "dask"

    def __init__(self, scheduler: str | None = None, *, timeout: float | None = None, n_workers: int | None = None) -> None:
        if Client is None:
            raise ConfigError("--backend dask needs dask.distributed: pip install 'unocli[dask]'")
        self.scheduler = scheduler
        self.cluster: Any = None
        self._warmed = False
        self.shards_by_worker: Counter[str] = Counter()
        self.compute_seconds = 0.0
        if scheduler:
            self.client = self._connect(scheduler, CONNECT_TIMEOUT if timeout is None else timeout)
        else:
            self.cluster = LocalCluster(
                n_workers=n_workers or machine_cores(),
                threads_per_worker=1,
                processes=True,
                dashboard_address=":0",
                silence_logs=logging.CRITICAL,  # its workers say nothing: unocli says what went wrong, once
            )
            self.client = Client(self.cluster, set_as_default=False)

    @staticmethod
    def _connect(address: str, timeout: float) -> Any:
        from distributed.comm.addressing import get_address_host_port

        try:
            get_address_host_port(address)
        except ValueError as exc:
            raise ConfigError(
                f"--scheduler {address!r} is not a Dask scheduler address ({exc}): give tcp://HOST:PORT, as "
                f"'dask scheduler' prints it"
            ) from None
        if not address.startswith("tcp://") and "://" in address:
            raise ConfigError(
                f"--scheduler {address!r}: unocli connects to a Dask scheduler over tcp:// only (a tls:// one needs "
                "security settings it does not pass); give tcp://HOST:PORT, as 'dask scheduler' prints it"
            )
        done: list[Any] = []

        def connect() -> None:
            try:
                done.append(Client(address, timeout=timeout, set_as_default=False))
            except Exception as exc:  # whatever the other end made distributed raise, said in one sentence below
                done.append(exc)

        # Client's own timeout covers the TCP connect, not the handshake after it: a port that accepts and then
        # stays silent (a dashboard, a web server, a proxy) would hang the command, so the whole connect has a
        # deadline, in a daemon thread that a hung handshake cannot keep alive at exit
        thread = threading.Thread(target=connect, name="unocli-dask-connect", daemon=True)
        thread.start()
        thread.join(timeout + HANDSHAKE_GRACE)
        if done and not isinstance(done[0], BaseException):
            return done[0]
        if not done:
            why, timeout = "no Dask handshake: is it a Dask scheduler's port?", timeout + HANDSHAKE_GRACE
        elif isinstance(done[0], OSError | TimeoutError | ValueError):
            why = f"{type(done[0]).__name__}: {str(done[0])[:120]}"
        else:  # a banner, an HTTP reply read as a frame length: distributed fails in whatever way it does
            why = f"the other end does not answer as a Dask scheduler: {type(done[0]).__name__}"
        raise ConfigError(
            f"cannot reach the Dask scheduler at {address} within {timeout:g} s ({why}): start one with 'dask "
            f"scheduler' and pass the address it prints (tcp://HOST:8786), or leave out --scheduler to run on a "
            f"LocalCluster"
        )

    @property
    def workers(self) -> int:
        """Workers now connected to the scheduler."""
        return len(self.client.scheduler_info(n_workers=-1)["workers"])

    def warm_up(self) -> None:
        """Load the kernel on every worker now and on every worker that joins later (idempotent)."""
        if not self._warmed:
            if self.cluster is None and not self.workers:
                try:
                    self.client.wait_for_workers(1, timeout=WORKER_TIMEOUT)
                except TimeoutError:
                    raise ConfigError(
                        f"the Dask scheduler at {self.scheduler} has had no worker for {WORKER_TIMEOUT:g} s: start "
                        f"some with 'dask worker {self.scheduler} --nthreads 1 --nworkers -1'"
                    ) from None
            if self.cluster is not None:
                load_kernel()  # its workers share this machine's cache: compile here once, not in each of them
            try:
                self.client.register_plugin(KernelWarmUp(), name=PLUGIN_NAME)
            except Exception as exc:  # raised on a worker: its Python cannot load unocli (or not this one)
                raise ClusterError(
                    f"a Dask worker of {self.scheduler or 'the LocalCluster'} could not load unocli's kernel "
                    f"({type(exc).__name__}: {str(exc)[:160]}): every worker needs this unocli installed"
                ) from None
            self._warmed = True

    def map_unordered(self, fn: Callable[[T], R], items: Iterable[T]) -> Iterator[R]:
        """Submit one task per item and yield the results as they finish (any order)."""
        self.warm_up()
        # Shards are submitted a window at a time, each finished one making room
        # for the next: a run of 10**13 games never lists its 10**8 shards.
        todo = iter(items)
        window = IN_FLIGHT_PER_WORKER * max(1, sum(self.client.nthreads().values()))
        first = [self._submit(fn, item) for _, item in zip(range(window), todo, strict=False)]
        if not first:
            return
        pending = set(first)
        del first  # the set holds the only references: each result is released once merged
        alone_since: float | None = None  # when the cluster was last seen without a worker
        try:
            while pending:
                try:
                    with self.client.as_current():  # distributed.wait asks for the current client: this one
                        done = wait(pending, timeout=WATCH_SECONDS, return_when="FIRST_COMPLETED").done
                except CancelledError as exc:  # the scheduler went away under the wait: every future is cancelled
                    raise self._lost(exc) from exc
                except TimeoutError:  # nothing finished for a while: a run stalls for good when every worker is gone
                    alone_since = None if self.workers else (alone_since or time.monotonic())
                    if alone_since is not None and time.monotonic() - alone_since > WORKER_TIMEOUT:
                        raise ClusterError(
                            f"every Dask worker of {self.scheduler or 'the LocalCluster'} has been gone for "
                            f"{WORKER_TIMEOUT:g} s in the middle of the run: start workers again and run the command again"
                        ) from None
                    continue
                for future in done:
                    pending.discard(future)
                    for item in itertools.islice(todo, 1):
                        pending.add(self._submit(fn, item))
                    yield self._result(future)
                del done
        finally:
            remaining = list(pending)  # left when the caller stopped early or a shard failed
            pending.clear()
            if remaining:
                self.client.cancel(remaining)

    def _result(self, future: Any) -> Any:
        """A finished shard's result (counted by worker), or the cluster's failure in one sentence."""
        try:
            where, seconds, result = future.result()
        except KilledWorker as exc:
            raise ClusterError(
                f"a shard killed every Dask worker that ran it ({exc}); the cluster is unhealthy or a "
                f"worker runs out of memory: try smaller shards or more memory per worker"
            ) from exc
        except CancelledError as exc:
            raise self._lost(exc) from exc
        self.shards_by_worker[where] += 1
        self.compute_seconds += seconds
        return result

    def _lost(self, exc: CancelledError) -> BaseException:
        """What a cancelled shard means: the scheduler lost (one sentence), or, cancelled for another reason while
        the client still runs, the error itself."""
        if "scheduler-connection-lost" not in f"{getattr(exc, 'reason', '')} {exc}" and self.client.status == "running":
            return exc
        return ClusterError(
            f"lost the Dask scheduler at {self.scheduler or 'the LocalCluster'} in the middle of the run: check it is "
            "still up and run the command again"
        )

    def _submit(self, fn: Callable[[T], R], item: T) -> Any:
        return self.client.submit(_shard_task, fn, item, pure=False, retries=RETRIES)

    def close(self) -> None:
        """Close the client, and the LocalCluster if this backend started it."""
        self.client.close()
        if self.cluster is not None:
            self.cluster.close()
            self.cluster = None

    def __enter__(self) -> DaskBackend:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
