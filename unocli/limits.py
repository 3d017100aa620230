"""The bounds of a run's size and seed, and the one check of each, shared by the CLI, experiment files and the API.

``--games``, ``--max-games``, an experiment file's ``games`` and ``max_games``
and :func:`~unocli.study.simulate.simulate` all take a game count from 1 to
:data:`GAMES_MAX`; ``--seed``, ``--game`` and a file's ``seed`` take 0 to
:data:`SEED_MAX`. Each refusal is one sentence naming the value's place.
"""

from __future__ import annotations

import numbers
from typing import Any

from unocli.errors import ConfigError
from unocli.game.rng import SEED_MAX

# Game counts are int64 in the kernel and the accumulators: 10**30 (or 2**63) is refused before anything runs.
GAMES_MAX = 2**63 - 1

__all__ = ["GAMES_MAX", "SEED_MAX", "check_games", "check_seed", "whole_number"]


def _shown(n: int) -> str:
    return {SEED_MAX: "2**64 - 1", GAMES_MAX: "2**63 - 1"}.get(n, f"{n:,}")


def whole_number(value: Any, lo: int, hi: int, label: str) -> int:
    """``value`` as an int in ``lo..hi`` (an int, NumPy integer or text such as ``"10_000"``; not a bool or float)."""
    number: Any = value
    if isinstance(value, str):
        try:
            number = int(value.strip().replace("_", ""))
        except ValueError:  # not a number, or more digits than int() reads
            number = None
    if isinstance(number, bool) or not isinstance(number, numbers.Integral) or not lo <= int(number) <= hi:
        raise ConfigError(f"{label} must be a whole number from {_shown(lo)} to {_shown(hi)}, not {value!r}")
    return int(number)


def check_games(value: Any, label: str = "games", lo: int = 1) -> int:
    """A game count from ``lo`` (1 unless a command needs more) to :data:`GAMES_MAX` (raises ConfigError)."""
    return whole_number(value, lo, GAMES_MAX, label)


def check_seed(value: Any, label: str = "seed") -> int:
    """A seed (or game index) from 0 to :data:`SEED_MAX` (raises ConfigError)."""
    return whole_number(value, 0, SEED_MAX, label)
