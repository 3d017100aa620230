"""One design runner: fields x table sizes x arms, played once, as one tidy frame.

A report's design is the experiment's arms (rule sets, or policies) at each of
its table sizes, under each field of players (every seat plays the field's
policy; a report without fields plays the experiment's own ``[base]`` table as
the one field ``""``). :func:`play` runs one
:func:`~unocli.study.compare.compare` per (field, table size), every arm on
the same deals; :func:`tidy` reads the typed results (``Comparison.mean`` and
``Comparison.diff``) into one row per (field, players, arm, quantity):

========== ==============================================================
column     meaning
========== ==============================================================
field      the field of players ("" when the report has none)
players    the table size
arm        the arm (rule set or policy)
quantity   the measured quantity (``turns``, ``win_first``, ...)
n          games behind the mean (finished ones for lengths and counters)
mean       the arm's mean; ``low``/``high`` its 95% interval (t, or Wilson for 0/1)
baseline   the arm the differences are from
diff_n     pairs behind the difference (deals both arms finished, for lengths)
difference the paired difference arm minus baseline; ``diff_low``/``diff_high`` its 95% interval
p          the paired t test's two-sided p; ``p_adj`` Holm-adjusted over the family
sim_low    the simultaneous interval the verdict reads (``sim_high``, ``sim_level``)
margin     the equivalence margin, in the quantity's units
verdict    :func:`~unocli.study.stats.classify` of the simultaneous interval against the margin
p_tost     the Bonferroni-adjusted two one-sided tests' p
========== ==============================================================

The baseline's own rows have no difference (NaN). The family a quantity's
adjustment and simultaneous intervals cover is every non-baseline row of that
quantity in the frame (every field, size and arm), the whole table a report
reads together; a quantity without a margin gets no verdict. Every figure is
in the quantity's own units (shares 0..1); a view scales them for display.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import pandas as pd

from unocli.report.analyses.common import Context, run_compare
from unocli.report.experiment import Experiment
from unocli.study.compare import Comparison
from unocli.study.stats import equivalence, holm

COLUMNS = (
    "field",
    "players",
    "arm",
    "quantity",
    "n",
    "mean",
    "low",
    "high",
    "baseline",
    "diff_n",
    "difference",
    "diff_low",
    "diff_high",
    "p",
    "p_adj",
    "sim_low",
    "sim_high",
    "sim_level",
    "margin",
    "verdict",
    "p_tost",
)


@dataclass(frozen=True)
class Design:
    """What one design plays: per field, the experiment it plays (the field's policy at every seat) and its sizes."""

    fields: Mapping[str, Experiment]
    sizes: Mapping[str, tuple[int, ...]]
    quantities: tuple[str, ...] | Callable[[int], tuple[str, ...]]  # or per table size (seats differ by size)
    baseline: str
    match: bool | None = None  # None: as the arms say (single rounds)
    games: int | None = None  # None: the experiment's size (and its target error)
    options: Mapping[str, Any] = field(default_factory=dict)

    @classmethod
    def of(cls, exp: Experiment, quantities: Sequence[str] | Callable[[int], tuple[str, ...]], **kwargs: Any) -> Design:
        """The experiment's own table as the one field ``""``, at every table size; arms and baseline from the file."""
        names = [a.name for a in exp.arms_for(exp.players[0])]
        qs = quantities if callable(quantities) else tuple(quantities)
        return cls({"": exp}, {"": exp.players}, qs, exp.baseline or names[0], **kwargs)

    def at(self, players: int) -> tuple[str, ...]:
        """The quantities recorded at a table of ``players``."""
        return self.quantities(players) if callable(self.quantities) else self.quantities


@dataclass(frozen=True)
class Played:
    """A played design: the tidy frame and the comparisons behind it (for histograms and bootstrap blocks)."""

    frame: pd.DataFrame
    cells: dict[tuple[str, int], Comparison]
    names: tuple[str, ...]
    baseline: str

    @property
    def fields(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(f for f, _ in self.cells))

    @property
    def games(self) -> int:
        """Games played: games per arm times arms, summed over the cells."""
        return sum(c.games * len(c.arms) for c in self.cells.values())


def play(
    design: Design, ctx: Context, margins: Mapping[str, float] | None = None, label: str = "", family: str = "quantity"
) -> Played:
    """Play every (field, table size) of ``design`` once and read the results into the tidy frame (:func:`tidy`).

    ``margins``: quantity -> equivalence margin in its own units (a share's
    margin in pp is ``pp / 100``); ``label`` names the design in the log;
    ``family``: what one family of adjusted verdicts is (see :func:`tidy`).
    """
    cells: dict[tuple[str, int], Comparison] = {}
    for name, fexp in design.fields.items():
        for p in design.sizes[name]:
            where = ", ".join(x for x in (name, f"{p} players", label) if x)
            cells[(name, p)] = run_compare(
                fexp,
                ctx,
                fexp.arms_for(p),
                games=design.games,
                baseline=design.baseline,
                match=design.match,
                quantities=design.at(p),
                label=where,
                **design.options,
            )
    first = next(iter(cells.values()))
    frame = tidy(cells, design.at, design.baseline, margins or {}, family)
    return Played(frame, cells, first.names, design.baseline)


def tidy(
    cells: Mapping[tuple[str, int], Comparison],
    quantities: Callable[[int], tuple[str, ...]],
    baseline: str,
    margins: Mapping[str, float],
    family: str = "quantity",
) -> pd.DataFrame:
    """One row per (field, players, arm, quantity) of ``cells`` (``quantities`` at each table size), with its
    difference from ``baseline`` and verdict.

    ``family``: ``"quantity"`` adjusts each quantity's differences together (a
    report reads one quantity's table at a time), ``"all"`` every difference of
    the frame (a report that reads one table of every quantity).
    """
    rows: list[dict[str, Any]] = []
    diffs: dict[str, list[tuple[int, Any]]] = {}
    for (name, p), comp in cells.items():
        for q in quantities(p):
            for arm in comp.names:
                est = comp.mean(arm, q)
                row: dict[str, Any] = {"field": name, "players": p, "arm": arm, "quantity": q, "n": est.n}
                row |= {"mean": est.mean, "low": est.low, "high": est.high, "baseline": baseline}
                if arm != baseline:
                    d = comp.diff(arm, baseline, q)
                    row |= {"diff_n": d.n, "difference": d.diff, "diff_low": d.low, "diff_high": d.high, "p": d.p}
                    diffs.setdefault(q if family == "quantity" else "", []).append((len(rows), d))
                rows.append(row)
    for found in diffs.values():
        adjusted: list[float] = list(holm([d.p for _, d in found])) if found else []
        for (i, d), p_adj in zip(found, adjusted, strict=True):
            rows[i]["p_adj"] = float(p_adj)
            q = rows[i]["quantity"]
            if q in margins:
                e = equivalence(d, margins[q], family=len(found))
                rows[i] |= {"sim_low": e.low, "sim_high": e.high, "sim_level": e.level, "margin": margins[q]}
                rows[i] |= {"verdict": e.verdict, "p_tost": e.p_tost_adj}
    frame = pd.DataFrame(rows).reindex(columns=list(COLUMNS))
    frame["diff_n"] = frame["diff_n"].astype("Int64")
    return frame
