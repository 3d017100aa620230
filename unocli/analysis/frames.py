"""Reading a design's tidy frame (one row per field, players, arm and quantity) into the tables computations return.

:class:`Played` is what a played design offers (``unocli.report.design.Played``
is one): the frame, the comparisons behind it by (field, players), the arms.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol

import numpy as np
import pandas as pd

from unocli.analysis.measures import hist_quantile
from unocli.study.compare import Comparison


class Played(Protocol):
    """A played design: its tidy frame, its comparisons by (field, players) and its arms' names."""

    @property
    def frame(self) -> pd.DataFrame: ...

    @property
    def cells(self) -> dict[tuple[str, int], Comparison]: ...

    @property
    def names(self) -> tuple[str, ...]: ...


def wide(frame: pd.DataFrame, columns: Mapping[str, tuple[str, ...]], arm: str = "arm", n: str = "") -> pd.DataFrame:
    """One row per (field, players, arm) in the frame's order; ``columns``: quantity -> names of its mean[, low, high].

    ``arm`` renames the arm column (a report of rule sets calls it ``rules``);
    ``n`` names the quantity whose n becomes the row's ``n`` column.
    """
    out: dict[tuple[Any, ...], dict[str, Any]] = {}
    for r in frame.itertuples(index=False):
        row = out.setdefault((r.field, r.players, r.arm), {"field": r.field, "players": r.players, arm: r.arm})
        if r.quantity == n:
            row["n"] = r.n
        if r.quantity in columns:
            row |= dict(zip(columns[r.quantity], (r.mean, r.low, r.high), strict=False))
    return pd.DataFrame(list(out.values()))


def differences(frame: pd.DataFrame, quantity: str, arm: str = "arm") -> pd.DataFrame:
    """The frame's paired differences of ``quantity`` with the relative change from the baseline's mean.

    Columns: field, players, ``arm``, baseline, n (pairs), diff, diff_low, diff_high, relative, p,
    p_holm, sim_low, sim_high, sim_level, margin, verdict, p_tost.
    """
    rows = frame[frame["quantity"] == quantity]
    base = rows[rows["arm"] == rows["baseline"]].set_index(["field", "players"])["mean"]
    d = rows[rows["arm"] != rows["baseline"]]
    of = base.loc[list(zip(d["field"], d["players"], strict=True))].to_numpy(dtype=float)
    diff = d["difference"].to_numpy(dtype=float)
    # a change relative to a baseline of 0 is undefined: NaN, and no division (numpy would warn on the terminal)
    relative = np.divide(diff, of, out=np.full_like(diff, np.nan), where=of != 0)
    out = pd.DataFrame(
        {
            "field": d["field"],
            "players": d["players"],
            arm: d["arm"],
            "baseline": d["baseline"],
            "n": d["diff_n"].astype(int),
            "diff": d["difference"],
            "diff_low": d["diff_low"],
            "diff_high": d["diff_high"],
            "relative": relative,
            "p": d["p"],
            "p_holm": d["p_adj"],
        }
    )
    for key in ("sim_low", "sim_high", "sim_level", "margin", "verdict", "p_tost"):
        out[key] = d[key]
    return out.reset_index(drop=True)


def quantile_columns(hist: np.ndarray, quantiles: Mapping[str, float]) -> dict[str, int]:
    """Each named quantile of a histogram with its distribution-free 95% interval (``name``, ``name_low``, ``name_high``)."""
    out: dict[str, int] = {}
    for key, q in quantiles.items():
        point, lo, hi = hist_quantile(hist, q)
        out |= {key: point, f"{key}_low": lo, f"{key}_high": hi}
    return out
