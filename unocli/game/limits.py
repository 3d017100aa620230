"""The one bound of a game count and of a seed, and the one check of each.

Every place a count of games or a seed comes in checks it here: the CLI's
options (``--games``, ``--max-games``, ``--seed``, ``--game``; cli/options.py's
``BigInt``), an experiment file's ``games``, ``max_games`` and ``seed``, a
baseline file's ``games`` and ``seed`` (balance/schema.py) and
:func:`~unocli.study.simulate.simulate`, so a value is refused with the same
sentence wherever it is written.

Why these bounds: a seed is a 64-bit word of the random streams
(``unocli.game.rng``), so 0 to 2**64 - 1. A game count is at most
:data:`GAMES_MAX` = 2**63 - 1 because game indices, counts and sums are int64
words in the kernel and the accumulators: that is the largest count that is
played correctly, and any smaller bound would be a guess at how long someone
is willing to wait (which a precision target or Ctrl-C already answers;
tests/test_scale.py starts 10**13 games on purpose). A command that keeps
something per game in memory (the ladder) checks that memory on its own.
"""

from __future__ import annotations

import numbers
import re
from typing import Any

from unocli.errors import ConfigError
from unocli.game.rng import SEED_MAX

# Game counts are int64 in the kernel and the accumulators: 10**30 (or 2**63) is refused before anything runs.
GAMES_MAX = 2**63 - 1

__all__ = ["GAMES_MAX", "SEED_MAX", "OutOfRange", "check_games", "check_seed", "parse_whole", "whole_number"]


class OutOfRange(ConfigError):
    """A game count or seed outside its bound, or not a whole number (or more games than a command can hold in
    memory): a usage error, so the CLI exits 2."""


def _shown(n: int) -> str:
    return {SEED_MAX: "2**64 - 1", GAMES_MAX: "2**63 - 1"}.get(n, f"{n:,}")


# Text of a whole number as TOML writes one: ASCII digits, an underscore only between two digits ("10_000"), so a
# value reads the same on the command line and in a file (dropping every underscore read "1__0", "_4" and "100_";
# int() alone reads other scripts' digits, "\u0663", an Arabic-Indic three, as 3).
_WHOLE = re.compile(r"[+-]?[0-9]+(?:_[0-9]+)*")


def parse_whole(text: str) -> int | None:
    """The whole number ``text`` writes (:data:`_WHOLE`, blanks around it allowed), or None."""
    text = text.strip()
    if not _WHOLE.fullmatch(text):
        return None
    try:
        return int(text.replace("_", ""))
    except ValueError:  # more digits than int() reads
        return None


def whole_number(value: Any, lo: int, hi: int, label: str) -> int:
    """``value`` as an int in ``lo..hi`` (an int, NumPy integer or text such as ``"10_000"``; not a bool or float)."""
    number: Any = parse_whole(value) if isinstance(value, str) else value
    if isinstance(number, bool) or not isinstance(number, numbers.Integral) or not lo <= int(number) <= hi:
        raise OutOfRange(f"{label} must be a whole number from {_shown(lo)} to {_shown(hi)}, not {value!r}")
    return int(number)


def check_games(value: Any, label: str = "games", lo: int = 1) -> int:
    """A game count from ``lo`` (1 unless a command needs more) to :data:`GAMES_MAX` (raises ConfigError)."""
    return whole_number(value, lo, GAMES_MAX, label)


def check_seed(value: Any, label: str = "seed") -> int:
    """A seed (or game index) from 0 to :data:`SEED_MAX` (raises ConfigError)."""
    return whole_number(value, 0, SEED_MAX, label)
