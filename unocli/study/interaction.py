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
on the same seed and games hold the same deals in each block. The blocks hold
disjoint deals, so they are independent clusters. The interaction's point is
the four means' contrast (each arm's mean over its finished games for a length,
over every game for a 0/1 quantity); its standard error is the cluster-robust
(delta-method) one over blocks: each mean ``S / F`` contributes, per block,
``(S_b - mean * F_b) / F``, and the interaction's variance is
``B / (B - 1)`` times the sum of the squared per-block contrasts of those
contributions, with a t interval on ``B - 1`` degrees of freedom. With blocks of
equal size this is exactly Student's t over the blocks' own interactions
(batch means); with unequal ones (fewer games than blocks, capped rounds) it
weights every game alike. For a 0/1 quantity the point equals the difference
of the two fields' paired differences; for a length it is over each arm's
finished games rather than the deals both arms finished (the same when no
round is capped or stuck).

A family of interactions read together (every field pair of a table, at every
rule and table size) is judged on simultaneous intervals against the
experiment's margin (:func:`unocli.study.stats.equivalence`), with Holm-adjusted
p-values beside the raw ones.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from unocli.errors import ConfigError
from unocli.run.quantities import over_finished
from unocli.study.compare import Comparison
from unocli.study.stats import Difference, Equivalence, equivalence, holm, paired_t


def block_effects(comp: Comparison, arm: str, ref: str, quantity: str) -> np.ndarray:
    """Per block of deals, ``arm``'s mean of ``quantity`` minus ``ref``'s (blocks neither arm played are left out).

    Lengths and counters are means over each arm's finished games of the
    block (:func:`~unocli.run.quantities.over_finished`), 0/1 quantities over
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


def _linearised(comp: Comparison, arm: str, quantity: str, per: str | None = None) -> tuple[float, np.ndarray]:
    """An arm's mean ``S / F`` of ``quantity`` and its per-block contributions ``B * (S_b - mean * F_b) / F``.

    ``F`` counts the arm's finished games for a length, every game for a 0/1
    quantity, or with ``per`` the sum of that quantity (a ratio such as
    comebacks per round in which a seat reached one card); the contributions
    sum to 0 and their sample variance over ``B`` is the cluster-robust variance
    of the mean (``B`` blocks with games).
    """
    k, j = comp.index(arm), comp.quantities.index(quantity)
    sums = comp.sums
    used = sums.block_games > 0
    s_b = sums.block_s1[used, k, j].astype(np.float64)
    if per is not None:
        f_b = sums.block_s1[used, k, comp.quantities.index(per)].astype(np.float64)
    else:
        f_b = (sums.block_fin[used, k] if over_finished(quantity) else sums.block_games[used]).astype(np.float64)
    total = float(f_b.sum())
    if total == 0:
        return math.nan, np.full(s_b.size, math.nan)
    mean = float(s_b.sum()) / total
    return mean, s_b.size * (s_b - mean * f_b) / total


def interaction(
    first: Comparison, second: Comparison, arm: str, ref: str, quantity: str, level: float = 0.95, per: str | None = None
) -> Difference:
    """(``arm`` - ``ref`` under ``first``) - (the same under ``second``), clustered over blocks of common deals.

    ``n`` of the result counts the blocks (the independent clusters); its
    interval is a t interval at ``level`` on ``n - 1`` degrees of freedom with
    the cluster-robust standard error (module docstring). Built as the t
    interval of the blocks' pseudo-values ``point + contribution``, whose mean
    is the point and whose spread is the contributions'.
    """
    return contrast_interaction(first, second, {arm: 1, ref: -1}, {arm: 1, ref: -1}, quantity, level, per)


def contrast_interaction(
    first: Comparison,
    second: Comparison,
    coefs_first: Mapping[str, float],
    coefs_second: Mapping[str, float],
    quantity: str,
    level: float = 0.95,
    per: str | None = None,
) -> Difference:
    """(sum_k c_k mean_k under ``first``) - (sum_k c'_k mean_k under ``second``), clustered over blocks of common deals.

    The arms' means are linearised as in :func:`interaction` (which is the
    contrast arm - ref under both); a contrast of four arms, such as a seat's
    gain under a rule minus its gain under the baseline, gives the difference
    of that interaction between two fields (a difference of paired
    differences of paired differences, on the same deals). ``per``: each mean
    is the ratio of ``quantity`` to that quantity (:func:`_linearised`).
    """
    check_common_deals(first, second)
    terms = [(first, n, float(c)) for n, c in coefs_first.items()] + [(second, n, -float(c)) for n, c in coefs_second.items()]
    return _contrast(terms, quantity, level, per)


def contrast(
    comp: Comparison, coefs: Mapping[str, float], quantity: str, level: float = 0.95, per: str | None = None
) -> Difference:
    """sum_k c_k mean_k of one comparison's arms, clustered over its blocks of deals (the arms share them): a paired
    difference of means, or with ``per`` of ratios (:func:`_linearised`), such as a comeback chance under a rule
    minus under the baseline."""
    return _contrast([(comp, n, float(c)) for n, c in coefs.items()], quantity, level, per)


def _contrast(terms: Sequence[tuple[Comparison, str, float]], quantity: str, level: float, per: str | None) -> Difference:
    """The t interval over blocks of the pseudo-values ``point + contribution`` of a contrast of linearised means."""
    point, contrib = 0.0, np.zeros(int((terms[0][0].sums.block_games > 0).sum()))
    for comp, name, sign in terms:
        if sign == 0.0:
            continue
        mean, u = _linearised(comp, name, quantity, per)
        point, contrib = point + sign * mean, contrib + sign * u
    values = point + contrib
    return paired_t(values.size, float(values.sum()), float((values * values).sum()), level)


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
