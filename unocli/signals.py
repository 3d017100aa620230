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
from types import FrameType


class Terminated(KeyboardInterrupt):
    """SIGTERM or SIGHUP arrived: a KeyboardInterrupt, so every clean-up that Ctrl-C runs runs for it too."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


# The signals raised as Terminated since the command started. Python prints and drops an exception raised where
# it cannot propagate (a weakref callback such as the import system's module-lock clean-up, a __del__), so a
# signal can be lost; signals_held raises it again before a step that must not run after it.
_raised: list[int] = []


def terminate(signum: int, _frame: FrameType | None) -> None:
    """The handler of SIGTERM and SIGHUP: raise :class:`Terminated`, and remember that it was raised."""
    _raised.append(signum)
    raise Terminated(signum)


def forget_raised() -> None:
    """A command starts (or ends): no signal has been raised in it."""
    _raised.clear()


@contextmanager
def signals_held() -> Iterator[None]:
    """Hold back Ctrl-C, SIGTERM and SIGHUP for the block: each one that arrives is raised again when it ends.

    A SIGTERM or SIGHUP whose :class:`Terminated` was raised and lost (:data:`_raised`) is raised again before the
    block, so a report interrupted at any moment never swaps its folder in.

    Python runs signal handlers in the main thread only, so recording them
    there holds them back whichever thread the system delivered them to (a
    signal mask would hold back only the main thread's). Outside the main
    thread no handler can be set, and the block runs as it is.
    """
    import threading

    if _raised:  # a Terminated that was raised and dropped: the command stops here, before the step
        raise Terminated(_raised[0])
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
