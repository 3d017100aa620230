"""The slow oracle: kernel-layout rows built from the reference engine.

``reference_rows`` plays the same games as :func:`unocli.kernel.play_rows`
with the plain-Python reference engine and lays each one out exactly as the
kernel's ``play_game`` (unocli/kernel/batch.py) does, so the two arrays can be
compared with ``==``. It is deliberately written from the reference engine's
public results (``Round.stats``, ``MatchStats``) and the documented row
layout, not from the kernel's code.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from unocli.game.counters import COUNTERS, Outcome, RoundStats
from unocli.game.policies import Policy
from unocli.game.rules import Rules
from unocli.kernel import ROW_NAMES, ROW_WIDTH
from unocli.reference.engine import play_match, play_round

NMAX = 10
COL = {name: i for i, name in enumerate(ROW_NAMES)}
CARDS_LEFT = [COL[f"cards_left_{s}"] for s in range(NMAX)]
POINTS = [COL[f"points_{s}"] for s in range(NMAX)]


def round_row(stats: RoundStats) -> np.ndarray:
    """The kernel row of one round played alone (``match=False``)."""
    row = np.zeros(ROW_WIDTH, dtype=np.int64)
    for name in COUNTERS:
        row[COL[name]] = getattr(stats, name)
    row[COL["outcome"]] = int(stats.outcome)
    row[COL["winner"]] = stats.winner
    row[COL["first_player"]] = stats.first_player
    row[COL["dealer"]] = stats.dealer
    row[COL["first_to_one"]] = stats.first_to_one
    for seat, left in enumerate(stats.cards_left):
        row[CARDS_LEFT[seat]] = left
    row[COL["rounds"]] = 1
    row[COL["rounds_blocked"]] = int(stats.outcome is Outcome.BLOCKED)
    row[COL["rounds_capped"]] = int(stats.outcome is Outcome.CAPPED)
    row[COL["rounds_stuck"]] = int(stats.outcome is Outcome.STUCK)
    if stats.winner >= 0:
        row[POINTS[stats.winner]] = stats.winner_points
    return row


def match_row(rules: Rules, policies: Sequence[Policy], seed: int, index: int) -> np.ndarray:
    """The kernel row of one match (``match=True``): counters summed (max_stack, max_draw: the max) over rounds."""
    match, _ = play_match(rules, tuple(policies), seed, index)
    row = np.zeros(ROW_WIDTH, dtype=np.int64)
    for stats in match.rounds:
        for name in COUNTERS:
            value = getattr(stats, name)
            if name in ("max_stack", "max_draw"):
                row[COL[name]] = max(row[COL[name]], value)
            else:
                row[COL[name]] += value
        row[COL["rounds_blocked"]] += int(stats.outcome is Outcome.BLOCKED)
        row[COL["rounds_capped"]] += int(stats.outcome is Outcome.CAPPED)
        row[COL["rounds_stuck"]] += int(stats.outcome is Outcome.STUCK)
    row[COL["rounds"]] = len(match.rounds)
    # A match row names the dealer and first player of its opening round.
    row[COL["first_player"]] = match.rounds[0].first_player
    row[COL["dealer"]] = match.rounds[0].dealer
    row[COL["first_to_one"]] = match.rounds[0].first_to_one
    last = match.rounds[-1]
    for seat, left in enumerate(last.cards_left):
        row[CARDS_LEFT[seat]] = left
    row[COL["outcome"]] = int(match.outcome)
    row[COL["winner"]] = match.winner
    for seat, total in enumerate(match.scores):
        row[POINTS[seat]] = total
    return row


def reference_rows(
    rules: Rules, policies: Sequence[Policy], seed: int, start: int, count: int, match: bool = False
) -> np.ndarray:
    """Rows of games ``start .. start + count - 1`` in the layout of ``unocli.kernel.play_rows``."""
    policies = tuple(policies)
    out = np.zeros((count, ROW_WIDTH), dtype=np.int64)
    for i in range(count):
        index = start + i
        if match:
            out[i] = match_row(rules, policies, seed, index)
        else:
            out[i] = round_row(play_round(rules, policies, seed, index).stats)
    return out


def first_difference(kernel: np.ndarray, reference: np.ndarray, start: int = 0) -> str | None:
    """A readable description of the first game whose rows differ, or None when equal."""
    if kernel.shape != reference.shape:
        return f"shapes differ: kernel {kernel.shape}, reference {reference.shape}"
    bad = np.nonzero((kernel != reference).any(axis=1))[0]
    if bad.size == 0:
        return None
    i = int(bad[0])
    cols = np.nonzero(kernel[i] != reference[i])[0]
    diffs = ", ".join(f"{ROW_NAMES[c]}: kernel {kernel[i, c]} != reference {reference[i, c]}" for c in cols)
    return f"{bad.size} of {len(kernel)} games differ; first is game index {start + i}: {diffs}"
