"""SIGTERM and SIGHUP handled as Ctrl-C: the command unwinds (temporary files removed, outputs left as they
were), prints one line and exits with 128 + the signal's number (130 for Ctrl-C, 143 for SIGTERM, 129 for SIGHUP)."""

from __future__ import annotations

import signal
import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import partial
from typing import Any

from unocli.signals import Terminated, forget_raised, terminate

__all__ = ["Terminated", "interrupted", "terminating_signals_interrupt"]


@contextmanager
def terminating_signals_interrupt() -> Iterator[None]:
    """While the block runs, SIGTERM and SIGHUP raise :class:`Terminated` in the main thread.

    A signal that is ignored when the command starts stays ignored (``nohup``
    ignores SIGHUP so that the run outlives its terminal). Outside the main
    thread (no handler can be set there) the block runs as it is. The previous
    handlers are restored when it ends.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = {}
    forget_raised()
    hook = sys.unraisablehook
    sys.unraisablehook = partial(_quiet_terminated, hook)
    for s in (signal.SIGTERM, getattr(signal, "SIGHUP", None)):
        if s is not None and signal.getsignal(s) is not signal.SIG_IGN:
            previous[s] = signal.signal(s, terminate)
    try:
        yield
    finally:
        for s, handler in previous.items():
            signal.signal(s, handler)
        sys.unraisablehook = hook
        forget_raised()


def _quiet_terminated(hook: Callable[[Any], object], unraisable: Any) -> None:
    """Python's report of an exception it had to drop, but for :class:`Terminated`: that one is raised again at the
    next held step (:func:`unocli.signals.signals_held`), so the command still ends with one line, not a traceback."""
    if not isinstance(unraisable.exc_value, Terminated):
        hook(unraisable)


def interrupted(exc: BaseException) -> tuple[str, int]:
    """The one line and exit code for an interrupt (``exc``: click's Abort or the KeyboardInterrupt itself)."""
    cause = exc if isinstance(exc, KeyboardInterrupt) else exc.__cause__ or exc.__context__
    if isinstance(cause, Terminated):
        return f"Interrupted by {signal.Signals(cause.signum).name}.", 128 + cause.signum
    return "Interrupted.", 130
