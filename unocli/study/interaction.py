"""Does a rule act differently under two fields of players? The interaction, on common deals.

A rule's effect under a field is a paired difference (the rule's arm minus the
baseline's, on the same deals). Two fields of players (every seat ``random``,
every seat ``basic`` ...) are played on the same seed, so game ``i`` deals the
same cards under both (docs/design.md §1): the two paired differences are
themselves paired, deal by deal. The *interaction* of the rule with the fields
is the difference of the two paired differences,

    (arm - base under field A) - (arm - base under field B),

and only it shows that a rule "holds under A but not under B".

The comparisons keep no per-game rows, but they keep per-block sums (game
``i`` is in block ``i mod blocks``, :mod:`unocli.study.compare`), and two runs
on the same seed and games hold the same deals in each block. Each block gives
one interaction (its arm-minus-base difference of means under A minus the same
under B); the blocks hold disjoint deals, so they are independent clusters and
the interaction's interval is Student's t over the blocks (``paired_diff`` of
the two fields' per-block effects, a clustered paired statistic). With blocks
of equal size its point estimate is the difference of the two fields' paired
means for a 0/1 quantity over every game; for a length over finished games it
weights each block's mean equally.

A family of interactions read together (every field pair of a table, at every
rule and table size) is judged on simultaneous intervals against the
experiment's margin (:func:`unocli.study.stats.equivalence`), with Holm-adjusted
p-values beside the raw ones.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from unocli.errors import ConfigError
from unocli.study.compare import Comparison, over_finished
from unocli.study.stats import Difference, Equivalence, equivalence, holm, paired_diff


def block_effects(comp: Comparison, arm: str, ref: str, quantity: str) -> np.ndarray:
    """Per block of deals, ``arm``'s mean of ``quantity`` minus ``ref``'s (blocks neither arm played are left out).

    Lengths and counters are means over each arm's finished games of the
    block (:func:`~unocli.study.compare.over_finished`), 0/1 quantities over
    every game of the block. A block in which either arm finished no game has
    no length and is NaN.
    """
    a, b, j = comp.index(arm), comp.index(ref), comp.quantities.index(quantity)
    sums = comp.sums
    used = sums.block_games > 0
    s1 = sums.block_s1[used].astype(np.float64)
    if over_finished(quantity):
        fin = sums.block_fin[used].astype(np.float64)
        with np.errstate(invalid="ignore", divide="ignore"):
            return s1[:, a, j] / np.where(fin[:, a] > 0, fin[:, a], np.nan) - s1[:, b, j] / np.where(
                fin[:, b] > 0, fin[:, b], np.nan
            )
    games = sums.block_games[used].astype(np.float64)
    return (s1[:, a, j] - s1[:, b, j]) / games


def check_common_deals(first: Comparison, second: Comparison) -> None:
    """Refuse two comparisons that were not played on the same deals (seed, first game, games, blocks)."""
    same = (
        first.seed == second.seed
        and first.start == second.start
        and first.games == second.games
        and first.sums.blocks == second.sums.blocks
        and np.array_equal(first.sums.block_games, second.sums.block_games)
    )
    if not same:
        raise ConfigError(
            "the two fields were not played on the same deals (seed, first game, number of games and blocks must agree), "
            "so their effects cannot be compared deal by deal"
        )


def interaction(first: Comparison, second: Comparison, arm: str, ref: str, quantity: str, level: float = 0.95) -> Difference:
    """(``arm`` - ``ref`` under ``first``) - (the same under ``second``), paired over blocks of common deals.

    ``n`` of the result counts the blocks (the independent clusters), its
    interval is a t interval over them at ``level``. Blocks without a
    figure in either field (no finished game) are left out.
    """
    check_common_deals(first, second)
    x, y = block_effects(first, arm, ref, quantity), block_effects(second, arm, ref, quantity)
    keep = np.isfinite(x) & np.isfinite(y)
    return paired_diff(x[keep], y[keep], level)


@dataclass(frozen=True)
class FieldInteraction:
    """One interaction of a family: the rule's effect under ``field_a`` minus under ``field_b``, judged.

    ``diff`` and ``se`` are the interaction's, ``n`` its blocks of deals;
    ``low``/``high`` its simultaneous interval over the family (``family``
    interactions, level ``1 - alpha / family``) and ``verdict`` reads that
    interval against ``+-margin`` (:func:`~unocli.study.stats.classify`);
    ``p`` is the raw two-sided p-value of no interaction, ``p_holm`` that
    p Holm-adjusted over the family.
    """

    key: tuple
    field_a: str
    field_b: str
    diff: float
    se: float
    n: int
    low: float
    high: float
    level: float
    family: int
    margin: float
    verdict: str
    p: float
    p_holm: float


def judge_family(
    found: Sequence[tuple[tuple, str, str, Difference]], margin: float, alpha: float = 0.05
) -> list[FieldInteraction]:
    """Judge interactions read together: simultaneous intervals over the whole family, Holm-adjusted p-values.

    ``found``: (key, field A, field B, interaction) per member, where key
    names the cell (for example the rule and the table size).
    """
    if not found:
        return []
    adjusted = holm([d.p for *_, d in found])
    out = []
    for (key, fa, fb, d), p_holm in zip(found, adjusted, strict=True):
        e: Equivalence = equivalence(d, margin, family=len(found), alpha=alpha)
        out.append(
            FieldInteraction(
                key, fa, fb, d.diff, d.se, d.n, e.low, e.high, e.level, e.family, margin, e.verdict, d.p, float(p_holm)
            )
        )
    return out
