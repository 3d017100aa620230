"""The per-game quantities a paired comparison sums, and how each is read from a game's row.

A quantity is a metric of ``run.accumulate.METRICS``, an outcome indicator,
who won by role, or a per-seat figure (docs/design.md; the list and its
summary rules are in :mod:`unocli.study.compare`'s docstring). They live in
the run layer because the pair shard (``run.shards.run_pair_shard``) computes
them from the kernel's rows.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from unocli.kernel import ROW_NAMES
from unocli.kernel.encode import DEALER, FIRST_PLAYER, OUTCOME, WINNER
from unocli.run.accumulate import METRICS, first_to_one

BINARY_PREFIXES = ("win_", "lose_")
OUTCOME_QUANTITIES = ("won", "blocked", "capped", "stuck")
# Who won, by role: the seat that took the first turn, the dealer (docs/rules.md §2).
ROLE_QUANTITIES = ("win_first", "win_dealer")
# The parts of the comeback chance (run.accumulate.first_to_one, in this order): a seat was left with one card by its
# own play, and that seat did not win. The chance is their ratio, not the mean of either, so they are recorded only when a
# computation asks for them (:func:`recordable`), never in a comparison's default list.
COMEBACK_PARTS = ("one_reached", "comeback")


def quantity_names(players: int) -> tuple[str, ...]:
    """Every quantity a comparison can report for a table of ``players``."""
    return (
        *METRICS,
        *OUTCOME_QUANTITIES,
        *ROLE_QUANTITIES,
        *(f"win_place_{k}" for k in range(1, players + 1)),
        *(f"win_{s}" for s in range(players)),
        *(f"lose_{s}" for s in range(players)),
        *(f"cards_left_{s}" for s in range(players)),
        *(f"points_{s}" for s in range(players)),
    )


def recordable(players: int) -> tuple[str, ...]:
    """Every quantity a comparison can record for a table of ``players``: :func:`quantity_names` and the parts of a
    ratio a computation reads (:data:`COMEBACK_PARTS`)."""
    return (*quantity_names(players), *COMEBACK_PARTS)


def is_binary(name: str) -> bool:
    """Is the quantity a 0/1 indicator (summarised as a share with a Wilson interval)?"""
    return name in OUTCOME_QUANTITIES or name in COMEBACK_PARTS or name.startswith(BINARY_PREFIXES)


def over_finished(name: str) -> bool:
    """Is the quantity summarised over finished (won or blocked) games only?

    Lengths, counters and per-seat cards or points are: a capped game's length
    is the cap and a stuck one's is when the loop was noticed, so averaging
    them in would make a figure depend on ``max_turns`` (docs/rules.md §9,
    §11.15). Outcome and win indicators are over every game.
    """
    return not is_binary(name)


def quantity_matrix(rows: np.ndarray, names: Sequence[str], players: int, out: np.ndarray | None = None) -> np.ndarray:
    """The named quantities of each game at a table of ``players``: ``int64[games, len(names)]`` (into ``out`` if given).

    ``win_first``: the seat that took the first turn won; ``win_dealer``: the
    dealer won; ``win_place_K``: the seat ``K`` places after the dealer won
    (``K = players`` is the dealer).
    """
    out = np.empty((rows.shape[0], len(names)), dtype=np.int64) if out is None else out
    for j, name in enumerate(names):
        if name in ROW_NAMES:
            out[:, j] = rows[:, ROW_NAMES.index(name)]
        elif name in OUTCOME_QUANTITIES:
            out[:, j] = rows[:, OUTCOME] == OUTCOME_QUANTITIES.index(name)
        elif name in COMEBACK_PARTS:
            out[:, j] = first_to_one(rows)[COMEBACK_PARTS.index(name)]
        elif name in ROLE_QUANTITIES:
            out[:, j] = rows[:, WINNER] == rows[:, FIRST_PLAYER if name == "win_first" else DEALER]
        elif name.startswith("win_place_"):
            w = rows[:, WINNER]
            out[:, j] = (w >= 0) & ((w - rows[:, DEALER] - 1) % players == int(name[10:]) - 1)
        elif name.startswith("win_"):
            out[:, j] = rows[:, WINNER] == int(name[4:])
        elif name.startswith("lose_"):
            w = rows[:, WINNER]
            out[:, j] = (w >= 0) & (w != int(name[5:]))
        else:  # pragma: no cover - names are checked before a run
            raise ValueError(f"unknown quantity {name!r}")
    return out
