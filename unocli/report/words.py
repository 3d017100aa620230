"""The words reports share over verdicts: a change as a word, where a verdict holds across fields, the verdict matrix.

A verdict (:func:`~unocli.study.stats.classify`) is read from one interval;
labels that differ between fields do not show that an effect differs between
them. Only the fields' interaction on common deals (:mod:`unocli.study.interaction`)
can say that, so every phrase here that compares fields reads it.
Below :mod:`unocli.report.kinds` (which draws the verdict matrix as a declared
view) and above nothing of report's; it imports no matplotlib.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import pandas as pd

from unocli.report import fmt
from unocli.study.interaction import FieldInteraction
from unocli.study.stats import EQUIVALENT, LARGER, NEGLIGIBLE, UNDECIDED, UNSIZED, WITHIN_MARGIN


def listed(names: Sequence[str]) -> str:
    """Names as a reader lists them: ``a``, ``a and b``, ``a, b and c``."""
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def level(frame: pd.DataFrame) -> str:
    """A frame's simultaneous level (column ``sim_level``, its first row's that has one) in percent: ``99.98``."""
    return fmt.fixed(100 * frame["sim_level"].dropna().iloc[0], 2)


def change_word(verdict: str, value: float, up: str, down: str) -> str:
    """A verdict as the word for a change: ``up`` or ``down`` ("lengthens", "pays" ...) only when larger than the margin.

    A change inside the margin is "negligible", one whose interval excludes 0
    but crosses a margin "a change of undecided size"; the other two verdicts
    are "no change" (equivalent) and "undecided".
    """
    if verdict == LARGER:
        return up if value > 0 else down
    return {
        UNSIZED: "a change of undecided size",
        NEGLIGIBLE: "negligible",
        EQUIVALENT: "no change",
        UNDECIDED: "undecided",
    }[verdict]


def scope(verdicts: dict[str, str], between: Sequence[FieldInteraction] | None = None) -> str:
    """Where a verdict holds, without figures: "lengthens under all three fields", or, when the fields' verdicts
    differ, "by field: undecided under random, negligible under basic and strong" and what the test of the fields'
    difference says.

    Verdict labels that differ between fields do not show that the effect differs between them (each label reads
    its own interval). ``between`` is that test: the interactions (:mod:`unocli.study.interaction`) of this one
    effect for every pair of fields, judged with their family. Only an interaction ``larger`` than the margin
    makes the phrase say the effect differs between two fields; one that excludes 0 but crosses the margin is "a
    difference of undecided size"; otherwise the fields "cannot be told apart".
    Without ``between`` the phrase says the difference is untested.
    """
    fields = list(verdicts)
    kinds = list(dict.fromkeys(verdicts.values()))
    if len(kinds) == 1:
        count = {2: "both", 3: "all three", 4: "all four"}.get(len(fields))
        where = f"{count} fields" if count else ("all fields" if len(fields) > 1 else fields[0])
        differ = [i for i in between or () if i.verdict == LARGER]
        return f"{kinds[0]} under {where}" + (
            f", by amounts that differ beyond the margin between {_pairs(differ)}" if differ else ""
        )
    by = ", ".join(f"{k} under {' and '.join(f for f in fields if verdicts[f] == k)}" for k in kinds)
    return f"by field: {by} ({between_text(between)})"


#: Said wherever verdicts differ between fields and no test of their difference was made.
UNTESTED = "the fields' difference is not tested"
#: Said when no interaction of a family is larger than the margin and none excludes 0.
APART = "the fields cannot be told apart"
#: Said of interactions whose interval excludes 0 but crosses the margin (before the pairs of fields).
UNSIZED_BETWEEN = "a difference of undecided size between"


def _pairs(found: Sequence[FieldInteraction]) -> str:
    """ "random and basic" or "random and basic, and between random and tuned" (after "between")."""
    return ", and between ".join(f"{i.field_a} and {i.field_b}" for i in found)


def between_text(between: Sequence[FieldInteraction] | None) -> str:
    """What the interactions of one effect say about the fields: they differ (an interaction beyond the margin),
    differ by an amount of undecided size (one whose interval excludes 0 but crosses the margin: ``unsized``),
    cannot be told apart (within the margin, or undecided), or, with no interactions, that this is not tested."""
    if not between:
        return UNTESTED
    differ = [i for i in between if i.verdict == LARGER]
    if differ:
        return f"the effect differs by more than the margin between {_pairs(differ)} (interaction on common deals)"
    unsized = [i for i in between if i.verdict == UNSIZED]
    if unsized:  # told apart (0 is excluded), but not by how much: a difference worded as the verdict's own change
        return f"{UNSIZED_BETWEEN} {_pairs(unsized)} (interaction on common deals)"
    if all(i.verdict in WITHIN_MARGIN for i in between):
        return f"{APART}: every difference between fields lies within the margin (interaction on common deals)"
    return f"{APART}: the interactions on common deals are undecided"


def agreement(verdicts: dict[str, str], value: Callable[[str], str], between: Sequence[FieldInteraction] | None = None) -> str:
    """Where one effect holds across fields, with each field's figure.

    ``verdicts`` maps each field to its verdict (``larger``, ``lengthens``,
    ...); ``value(field)`` gives the figure shown for a field. The phrase:
    "lengthens under all three fields (+41 [..] basic; ...)" when every field
    agrees, else "undecided under random, lowers under basic and strong (...)";
    ``between``: the effect's interactions between fields (:func:`scope`).
    """
    return f"{scope(verdicts, between)} (" + "; ".join(f"{value(f)} {f}" for f in verdicts) + ")"


def holds_everywhere(verdicts: dict[str, str]) -> bool:
    """True when every field gives the same verdict."""
    return len(set(verdicts.values())) == 1


def verdict_matrix(
    effects: pd.DataFrame,
    keys: Sequence[str],
    fields: Sequence[str],
    cell: Callable[[pd.Series], str],
    between: dict[tuple, list[FieldInteraction]] | None = None,
) -> pd.DataFrame:
    """One row per value of ``keys``, one column per field: ``cell(row)`` of that field's row (blank when missing).

    A last column ``holds under`` says "all fields (verdict)" or lists each
    field's verdict (the ``verdict`` column of ``effects``) and what the test
    of the fields' difference says (``between``: the interactions of each key,
    :func:`between_text`; untested without them).
    """
    rows = []
    for key, sub in effects.groupby(list(keys), sort=False):
        values = key if isinstance(key, tuple) else (key,)
        row: dict[str, Any] = dict(zip(keys, values, strict=True))
        by = {r["field"]: r for _, r in sub.iterrows()}
        for f in fields:
            row[f] = cell(by[f]) if f in by else ""
        verdicts = {f: str(by[f]["verdict"]) for f in fields if f in by}
        counts = {f: int(by[f]["n"]) for f in fields if f in by}
        same = len(set(counts.values())) == 1
        row["n"] = f"{next(iter(counts.values())):,} each" if same else "; ".join(f"{f} {n:,}" for f, n in counts.items())
        row["holds under"] = _holds(verdicts, None if between is None else between.get(tuple(values), []))
        rows.append(row)
    return pd.DataFrame(rows)


def _holds(verdicts: dict[str, str], between: Sequence[FieldInteraction] | None = None) -> str:
    if holds_everywhere(verdicts):
        differ = [i for i in between or () if i.verdict == LARGER]
        amounts = f"; amounts differ beyond the margin between {_pairs(differ)}" if differ else ""
        return f"all fields ({next(iter(verdicts.values()))}){amounts}"
    kinds = list(dict.fromkeys(verdicts.values()))
    by = "; ".join(f"{k}: {', '.join(f for f, v in verdicts.items() if v == k)}" for k in kinds)
    return f"{by} ({between_text(between)})"


#: What every page's intervals are, said once for a report's README.md and index.html (the footer of both).
INTERVALS = (
    "Intervals are 95% unless a table, chart or sentence gives another level: a simultaneous interval, read together "
    "with its family, says its level and adjustment. Means have t intervals, shares Wilson or deal-clustered t "
    "intervals, differences between arms paired intervals on the same deals, derived figures block-bootstrap "
    "percentile intervals; a p-value is Holm-adjusted where its column says so."
)
