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
def _children_ignore_interrupts(active: bool) -> Iterator[None]:
    """Ignore Ctrl-C in the processes started inside the block (a LocalCluster's workers).

    Ctrl-C reaches every process of the terminal's process group; the workers
    would each print a KeyboardInterrupt traceback. An ignored signal stays
    ignored in a child (and Python leaves an ignored SIGINT alone at start-up),
    so only this process sees the interrupt, prints one line, and closes the
    cluster. The handler is restored when the block ends.
    """
    import signal
    import threading

    if not active or threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


def make_backend(backend: str, scheduler: str | None) -> Backend:
    """The backend the options name (raises ConfigError with a clear sentence).

    Inside a click command, a backend that holds resources (a Dask client, a
    LocalCluster it started) is closed when the command ends.
    """
    if scheduler and backend != "dask":
        from unocli.errors import ConfigError

        raise ConfigError("--scheduler needs --backend dask")
    with _children_ignore_interrupts(backend == "dask" and not scheduler):
        runner = get_backend(backend, scheduler)
    close = getattr(runner, "close", None)
    ctx = click.get_current_context(silent=True)
    if close is not None and ctx is not None:
        ctx.call_on_close(close)
    return runner
