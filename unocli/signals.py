"""Holding back Ctrl-C, SIGTERM and SIGHUP for a few statements that must not be cut in two.

The CLI turns SIGTERM and SIGHUP into an exception as Ctrl-C is (``unocli.cli.interrupts``); an exception can
then arrive between any two bytecodes of the main thread. A few steps must run whole: the renames that swap a
finished output folder in (``unocli.folders``), and starting the kernel's worker threads (a thread started but
not yet registered with its pool would never be told to stop, and the process would wait for it for ever at
exit).
"""

from __future__ import annotations

import signal
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def signals_held() -> Iterator[None]:
    """Hold back Ctrl-C, SIGTERM and SIGHUP for the block: each one that arrives is raised again when it ends.

    Python runs signal handlers in the main thread only, so recording them
    there holds them back whichever thread the system delivered them to (a
    signal mask would hold back only the main thread's). Outside the main
    thread no handler can be set, and the block runs as it is.
    """
    import threading

    if threading.current_thread() is not threading.main_thread():
        yield
        return
    wanted = [signal.SIGINT, signal.SIGTERM, *([signal.SIGHUP] if hasattr(signal, "SIGHUP") else [])]
    held = [s for s in wanted if signal.getsignal(s) is not None]  # None: a handler set outside Python, left alone
    arrived: list[int] = []
    previous = {s: signal.signal(s, lambda signum, _frame: arrived.append(signum)) for s in held}
    try:
        yield
    finally:
        for s, handler in previous.items():
            signal.signal(s, handler)
        for signum in dict.fromkeys(arrived):
            signal.raise_signal(signum)  # now handled as it would have been (an ignored one stays ignored)
