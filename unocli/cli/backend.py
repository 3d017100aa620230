"""``--backend`` and ``--scheduler``: where a command's shards run."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import click

from unocli.run.backends import Backend, get_backend

F = Callable[..., Any]


def backend_options(f: F) -> F:
    """``--backend local|dask`` and ``--scheduler ADDRESS``."""
    f = click.option(
        "--scheduler",
        default=None,
        metavar="ADDRESS",
        help="Dask scheduler address (tcp://host:8786); without it, --backend dask starts a LocalCluster.",
    )(f)
    return click.option(
        "--backend",
        type=click.Choice(["local", "dask"]),
        default="local",
        show_default=True,
        help="Run shards here (local threads) or on a Dask cluster.",
    )(f)


@contextmanager
def _signals_held_while_starting(active: bool) -> Iterator[None]:
    """Keep Ctrl-C from the processes a LocalCluster starts, and SIGTERM and SIGHUP from cutting its start in two.

    Ctrl-C reaches every process of the terminal's process group; the workers would each print a KeyboardInterrupt
    traceback. An ignored signal stays ignored in a child (and Python leaves an ignored SIGINT alone at start-up),
    so SIGINT is ignored while the cluster starts: the price is that a Ctrl-C in those seconds is not seen. SIGTERM
    and SIGHUP (sent to this process, by a CI runner's timeout or a closing terminal) are blocked instead, not
    ignored: one that comes meanwhile is taken as soon as the cluster is whole, and the command ends with its one
    line and closes the cluster, where a cluster cut off half-started printed Dask's tracebacks.
    """
    import signal
    import threading

    if not active or threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    mask = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGTERM, signal.SIGHUP})
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
        signal.pthread_sigmask(signal.SIG_SETMASK, mask)


def _quiet_dask_logs() -> None:
    """Silence Dask's loggers and asyncio's in this process: the client logs a lost scheduler's reconnects, and a
    LocalCluster, whose scheduler runs here, leaves futures unread when a run is interrupted, which asyncio logs
    with their tracebacks. unocli says what went wrong itself, in one line. distributed sets its loggers' levels as
    it is imported, so this runs after the backend is made, on every logger it has by then."""
    import logging

    names = ["asyncio", *(n for n in list(logging.root.manager.loggerDict) if n.split(".")[0] == "distributed")]
    for name in names:
        logging.getLogger(name).setLevel(logging.CRITICAL)


def make_backend(backend: str, scheduler: str | None) -> Backend:
    """The backend the options name (raises ConfigError with a clear sentence).

    Inside a click command, a backend that holds resources (a Dask client, a
    LocalCluster it started) is closed when the command ends.
    """
    if scheduler and backend != "dask":
        from unocli.errors import ConfigError

        raise ConfigError("--scheduler needs --backend dask")
    with _signals_held_while_starting(backend == "dask" and not scheduler):
        runner = get_backend(backend, scheduler)
    if backend == "dask":
        _quiet_dask_logs()
    close = getattr(runner, "close", None)
    ctx = click.get_current_context(silent=True)
    if close is not None and ctx is not None:
        ctx.call_on_close(close)
    return runner
