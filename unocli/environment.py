"""The environment variables unocli's libraries read, checked before they read them.

numba reads ``NUMBA_NUM_THREADS`` when it is imported and matplotlib reads
``MPLBACKEND`` when it is imported; a bad value would surface as numba's own
warning with a traceback (``abc``), an exception in the middle of a run
(``0``), or a failure after every game was played (an unknown backend). The
CLI checks both before it imports either (``unocli.cli.main``), so each gets
one sentence and nothing is played.
"""

from __future__ import annotations

import os

from unocli.errors import ConfigError


def max_env_threads() -> int:
    """The most threads ``NUMBA_NUM_THREADS`` may ask for: a thread pool of that size is made on first use."""
    return max(1024, os.cpu_count() or 1)


def numba_threads() -> int | None:
    """``NUMBA_NUM_THREADS`` as a number (None when it is unset or empty); raises ConfigError for a bad value.

    A value is read as numba reads it (``int(value)``, so `` 2`` is 2), and must
    lie from 1 to :func:`max_env_threads`.
    """
    text = os.environ.get("NUMBA_NUM_THREADS", "")
    if not text.strip():
        return None
    hi = max_env_threads()
    try:
        value = int(text)
    except ValueError:
        value = None
    if value is None or not 1 <= value <= hi:
        raise ConfigError(
            f"the environment variable NUMBA_NUM_THREADS must be a whole number from 1 to {hi:,}, not {text!r}: "
            "set it to the number of threads to use, or unset it to use every core"
        )
    return value


def check_mplbackend() -> None:
    """Refuse a ``MPLBACKEND`` that matplotlib does not know (raises ConfigError); imports matplotlib only when one is set.

    unocli draws every chart with Agg whatever the variable says, but
    matplotlib validates it on import and would fail after the games were played.
    """
    name = os.environ.get("MPLBACKEND", "")
    if not name:
        return
    try:
        import matplotlib  # noqa: F401 (imported for its check of MPLBACKEND)
    except ValueError:
        raise ConfigError(
            f"the environment variable MPLBACKEND names {name!r}, a backend matplotlib does not know: "
            "unset it (unocli draws its charts with Agg) or name a backend such as agg"
        ) from None


def check_environment(draws: bool = False) -> None:
    """Check ``NUMBA_NUM_THREADS``, and ``MPLBACKEND`` too when the command ``draws`` charts (raises ConfigError)."""
    numba_threads()
    if draws:
        check_mplbackend()
