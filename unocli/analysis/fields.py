"""Does an effect differ between fields of players? Every arm's interaction with the fields, judged as one family.

A *field* is the policy every seat plays. :func:`field_interactions` takes each
(field, table size)'s comparison (all on the same deals) and returns the
difference of the fields' paired differences for every pair of fields, arm and
table size (:mod:`unocli.study.interaction`), judged together on simultaneous
intervals against the margin; only such an interaction lets a finding say an
effect differs between fields. :func:`interactions_frame` lays them out as one
table.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

import pandas as pd

from unocli.study.compare import Comparison
from unocli.study.interaction import FieldInteraction, interaction, judge_family


def field_interactions(
    comps: dict[tuple[str, int], Comparison],
    fields: Sequence[str],
    arms: Sequence[str],
    base: str,
    quantity: str,
    margin: float,
    per: str | None = None,
) -> dict[tuple, list[FieldInteraction]]:
    """Every arm's effect on ``quantity`` under each field minus under each other field, per table size (with
    ``per``: on the ratio of ``quantity`` to ``per``, as :func:`~unocli.study.interaction.interaction` reads it).

    ``comps`` holds each (field, players)'s comparison, all on the same deals;
    the key of the result is (players, arm), its value the interactions of
    every pair of fields played at that size. All of them are one family
    (:func:`~unocli.study.interaction.judge_family`: simultaneous intervals
    against ``+-margin``, in the quantity's own units, and Holm's p), because
    a report reads them together.
    """
    found = []
    sizes = sorted({p for _, p in comps})
    for p in sizes:
        played = [f for f in fields if (f, p) in comps]
        for a, b in combinations(played, 2):
            for arm in arms:
                if arm != base:
                    found.append(((p, arm), a, b, interaction(comps[(a, p)], comps[(b, p)], arm, base, quantity, per=per)))
    out: dict[tuple, list[FieldInteraction]] = {}
    for i in judge_family(found, margin):
        out.setdefault(i.key, []).append(i)
    return out


def interactions_frame(found: dict[str, dict[tuple, list[FieldInteraction]]], scale: dict[str, float]) -> pd.DataFrame:
    """The interactions of several quantities as one table: quantity, players, arm, the two fields, the
    interaction with its simultaneous interval (times ``scale[quantity]``, 100 for pp), verdict, raw and Holm p."""
    rows = []
    for quantity, by_key in found.items():
        k = scale.get(quantity, 1.0)
        for (p, arm), items in by_key.items():
            for i in items:
                rows.append(
                    {"quantity": quantity, "players": p, "arm": arm, "field_a": i.field_a, "field_b": i.field_b}
                    | {"interaction": k * i.diff, "sim_low": k * i.low, "sim_high": k * i.high, "sim_level": i.level}
                    | {"margin": k * i.margin, "verdict": i.verdict, "n_blocks": i.n, "p_raw": i.p, "p_holm": i.p_holm}
                    | {"family": i.family}
                )
    return pd.DataFrame(rows)
