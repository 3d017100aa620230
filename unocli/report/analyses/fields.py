"""Fields of players: the same question answered with every seat playing each of several policies.

A finding about the rules should hold for more than one kind of player. The
game-length, seat-advantage and house-rules analyses take an option
``fields`` (policy specs, default ``random``, ``basic``, ``strong``): every
arm is played once per field, every seat playing that field's policy. An
arm's own knob changes (``policy = "basic:swap_target=fewest"``) are kept on
top of the field's policy (``strong:swap_target=fewest``), so an arm can vary
a knob that only matters under its rule. The helpers here build the per-field
experiment, say for a family of effects under which fields each holds, and
test whether an effect differs between fields (:func:`field_interactions`: the
difference of the fields' paired differences on common deals, judged as one
family); only that test lets a finding say the fields differ.

A field may be a template, ``tuned-{rules}-{players}``: each arm's rule set and
each table size then plays its own tuned player (``unocli.study.arm.expand_spec``).
Reports name such a field without its placeholders (``tuned``: :func:`field_name`).

Nothing here imports matplotlib.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any

import pandas as pd

from unocli.analysis.fields import field_interactions as field_interactions  # re-exported
from unocli.analysis.fields import interactions_frame as interactions_frame
from unocli.errors import ConfigError
from unocli.files import display_path
from unocli.report.experiment import ArmSpec, Experiment, policy_list
from unocli.study.arm import has_placeholders, template_name
from unocli.study.interaction import FieldInteraction
from unocli.study.stats import LARGER, WITHIN_MARGIN

DEFAULT_FIELDS = ["random", "basic", "strong"]


# the skill report's check of its own ``fields`` option: a non-empty list of distinct policy specs
FIELDS_OPTION = (DEFAULT_FIELDS, policy_list)


def field_name(spec: str) -> str:
    """A field's name in reports: the spec without its placeholders (``tuned-{rules}-{players}`` -> ``tuned``)."""
    return template_name(spec)


def field_specs(exp: Experiment, option: str = "fields") -> dict[str, str]:
    """The fields of ``options[option]`` by the name reports give them (:func:`field_name`), in order."""
    specs = [str(f) for f in exp.options[option]]
    return {field_name(f): f for f in specs}


def check_fields(exp: Experiment, option: str = "fields", partial: bool = False) -> str | None:
    """``option: message`` when two fields share a name or a field cannot be built at a table size, else None.

    A template field is built here under every arm and table size, so a
    missing tuned player is named before any game is played. ``partial``: a
    template field may be missing at some table sizes (it is played at the
    others, :func:`field_sizes`), but not at all of them.
    """
    specs = [str(f) for f in exp.options[option]]
    names = [field_name(f) for f in specs]
    if len(set(names)) != len(names):
        return f"options.{option}: two fields would both be named {next(n for n in names if names.count(n) > 1)!r}"
    for spec in specs:
        if not has_placeholders(spec):
            continue
        errors = _build_errors(exp, spec)
        if errors and (not partial or len(errors) == len(exp.players)):
            return f"options.{option}: {next(iter(errors.values()))}"
    return None


def _build_errors(exp: Experiment, spec: str) -> dict[int, str]:
    """The error of every table size at which some arm of field ``spec`` cannot be built."""
    fexp, out = field_experiment(exp, spec), {}
    for p in exp.players:
        try:
            fexp.arms_for(p)
        except ConfigError as exc:
            out[p] = str(exc)
    return out


def field_sizes(exp: Experiment, spec: str) -> tuple[int, ...]:
    """The table sizes at which every arm of field ``spec`` can be built (all of them unless it is a template)."""
    if not has_placeholders(spec):
        return exp.players
    missing = _build_errors(exp, spec)
    return tuple(p for p in exp.players if p not in missing)


def sizes_text(exp: Experiment, option: str = "fields") -> str:
    """A sentence per field played at only some table sizes: " `tuned` is played at 2, 4 and 6 players only ..."."""
    out = []
    for name, spec in field_specs(exp, option).items():
        sizes = field_sizes(exp, spec)
        if sizes != exp.players:
            shown = ", ".join(map(str, sizes[:-1])) + (" and " if len(sizes) > 1 else "") + str(sizes[-1])
            out.append(
                f" `{name}` is played at {shown} players only: the policies file has no `{spec}` player for the other sizes."
            )
    return "".join(out)


def templates_text(exp: Experiment, option: str = "fields") -> str:
    """A sentence per template field: what its name stands for, and that a rule's effect under it changes players too."""
    out = []
    source = display_path(exp.base.policies.path) if exp.base.policies else "the policies file"
    for name, spec in field_specs(exp, option).items():
        if spec != name:
            out.append(
                f" `{name}` is `{spec}`: each rule set and table size seats its own player of that name (from "
                f"{source}), so under `{name}` a rule's "
                "effect includes the change of player it brings (the rule set's own player instead of the baseline's)."
            )
    return "".join(out)


def on_field(policy: str, field: str) -> str:
    """``field`` with the knob changes of ``policy`` (``NAME:knob=v,...``) applied on top of it."""
    knobs = policy.partition(":")[2].strip()
    if not knobs:
        return field
    return field + ("," if ":" in field else ":") + knobs


def field_experiment(exp: Experiment, field: str) -> Experiment:
    """``exp`` with every seat of the base table and of every arm playing ``field`` (arms keep their own knobs)."""
    base = replace(exp.base, policy=on_field(exp.base.policy, field), seats=())
    arms = tuple(
        ArmSpec(a.name, replace(a.table, policy=on_field(a.table.policy, field), seats=()), a.description) for a in exp.arms
    )
    return replace(exp, base=base, arms=arms)


def fields_text(fields: Sequence[str]) -> str:
    """ "the three fields random, basic and strong" (or "the field basic")."""
    names = [f"`{f}`" for f in fields]
    if len(names) == 1:
        return f"the field {names[0]}"
    count = {2: "two", 3: "three", 4: "four", 5: "five"}.get(len(names), str(len(names)))
    return f"the {count} fields {', '.join(names[:-1])} and {names[-1]}"


def scope(verdicts: dict[str, str], between: Sequence[FieldInteraction] | None = None) -> str:
    """Where a verdict holds, without figures: "lengthens under all three fields", or, when the fields' verdicts
    differ, "by field: undecided under random, negligible under basic and strong" and what the test of the fields'
    difference says.

    Verdict labels that differ between fields do not show that the effect differs between them (each label reads
    its own interval). ``between`` is that test: the interactions (:mod:`unocli.study.interaction`) of this one
    effect for every pair of fields, judged with their family. Only an interaction ``larger`` than the margin
    makes the phrase say the effect differs between two fields; otherwise the fields "cannot be told apart".
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
#: Said when no interaction of a family is larger than the margin.
APART = "the fields cannot be told apart"


def _pairs(found: Sequence[FieldInteraction]) -> str:
    """ "random and basic" or "random and basic, and between random and tuned" (after "between")."""
    return ", and between ".join(f"{i.field_a} and {i.field_b}" for i in found)


def between_text(between: Sequence[FieldInteraction] | None) -> str:
    """What the interactions of one effect say about the fields: they differ (an interaction beyond the margin),
    cannot be told apart (within the margin, or undecided), or, with no interactions, that this is not tested."""
    if not between:
        return UNTESTED
    differ = [i for i in between if i.verdict == LARGER]
    if differ:
        return f"the effect differs by more than the margin between {_pairs(differ)} (interaction on common deals)"
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
