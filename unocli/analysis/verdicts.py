"""Equivalence verdicts of a family of paired differences read together, as row fields or frame columns.

Each difference is judged by :func:`~unocli.study.stats.equivalence` on its
simultaneous interval (Bonferroni over the family) against the experiment's
margin; the verdict words come from :func:`~unocli.study.stats.classify`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd

from unocli.study.stats import Difference, Equivalence, equivalence


def judged(diffs: Sequence[Difference], margin: float, scale: float = 1.0) -> list[dict[str, Any]]:
    """Equivalence verdicts of a family of differences read together (one table), as row fields.

    Each difference is judged against ``+-margin`` (in the units of the shown
    figure: ``scale`` times the difference, e.g. 100 for percentage points)
    on its simultaneous interval at level 1 - 0.05 / len(diffs)
    (:func:`~unocli.study.stats.equivalence`). The fields: ``sim_low``,
    ``sim_high`` (that interval, scaled), ``margin``, ``verdict``, ``p_tost``
    (Bonferroni-adjusted TOST p-value).
    """
    out = []
    for d in diffs:
        e: Equivalence = equivalence(d, margin / scale, family=len(diffs))
        out.append(
            {
                "sim_low": e.low * scale,
                "sim_high": e.high * scale,
                "sim_level": e.level,
                "margin": margin,
                "verdict": e.verdict,
                "p_tost": e.p_tost_adj,
            }
        )
    return out


def add_verdicts(df: pd.DataFrame, diffs: Sequence[Difference], prefix: str, margin: float, scale: float = 1.0) -> None:
    """Put :func:`judged` verdicts of ``diffs`` (one per row of ``df``, in order) into ``df`` as ``{prefix}_*`` columns.

    The columns: ``{prefix}_sim_low``, ``{prefix}_sim_high`` (the simultaneous
    interval, in the units of the difference), ``{prefix}_verdict`` and
    ``{prefix}_p_tost``; the level is in ``sim_level``.
    """
    rows = judged(diffs, margin, scale)
    for key in rows[0].keys() if rows else ():
        values = [r[key] for r in rows]
        if key in ("sim_low", "sim_high"):
            df[f"{prefix}_{key}"] = np.asarray(values) / scale
        elif key in ("verdict", "p_tost"):
            df[f"{prefix}_{key}"] = values
        elif key == "sim_level":
            df["sim_level"] = values
