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

from collections.abc import Sequence
from dataclasses import replace
from functools import lru_cache
from pathlib import Path

from unocli.analysis import skill_stored
from unocli.analysis.fields import field_interactions as field_interactions  # re-exported
from unocli.analysis.fields import interactions_frame as interactions_frame
from unocli.analysis.skill_stored import SEARCHER
from unocli.errors import ConfigError
from unocli.files import display_path
from unocli.game.policies import is_searching, spec_with
from unocli.report import fmt
from unocli.report.experiment import ArmSpec, Experiment
from unocli.report.options import policy_list
from unocli.study.arm import has_placeholders, template_name

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


def by_field(exp: Experiment, option: str = "fields") -> tuple[dict[str, Experiment], dict[str, tuple[int, ...]]]:
    """Each field's experiment (:func:`field_experiment`) and the table sizes it is played at (:func:`field_sizes`),
    by the field's name: a design's first two arguments (:class:`unocli.report.design.Design`)."""
    specs = field_specs(exp, option)
    return {f: field_experiment(exp, s) for f, s in specs.items()}, {f: field_sizes(exp, s) for f, s in specs.items()}


def field_notes(exp: Experiment, option: str = "fields") -> str:
    """What a reader must know of the fields played: templates (:func:`templates_text`), fields missing at some
    table sizes (:func:`sizes_text`) and scripted play only (:func:`strength_text`); empty when none applies."""
    return templates_text(exp, option) + sizes_text(exp, option) + strength_text(exp, option)


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


#: The shipped ladders (sims/ladder.sh) in a source checkout; absent from an installed wheel (the sentence says less).
LADDERS = Path(__file__).resolve().parents[3] / "reports" / "ladder"


def strength_text(exp: Experiment, option: str = "fields", ladders: Path = LADDERS) -> str:
    """A sentence when no field searches: the findings are measured under scripted play only, and how the stored
    ladders under ``ladders`` rate `search` at budget 512 against every scripted and tuned player, by the interval
    of the rating gap (:func:`search_standing`)."""
    if any(is_searching(spec) for spec in field_specs(exp, option).values()):
        return ""
    standing = search_standing(ladders)
    if not standing:
        return (
            " No field here searches, so these findings are measured under scripted play only (the house rules are "
            f"also played under `{SEARCHER}`: sims/house-rules-search.toml)."
        )
    return (
        f" No field here searches, so these findings are measured under scripted play only: {standing} The house "
        "rules are also played under `search`: sims/house-rules-search.toml."
    )


def search_standing(ladders: Path) -> str:
    """How the stored ladders rate `search` at budget 512 against every scripted and tuned player: in how many every
    gap's 95% interval lies above 0, and which ladders have one that includes 0 or lies below it; empty when no
    ladder under ``ladders`` rates it or can be read (:func:`unocli.analysis.skill_stored.search_gaps`).

    Read once per state of the folder (its files' modification times): every report of a run says it, and reading
    the 36 shipped ladders takes about half a second."""
    try:
        stamp = tuple(sorted((str(f), f.stat().st_mtime_ns) for f in ladders.glob("*/*") if f.is_file()))
    except OSError:
        stamp = ()
    return _standing(ladders, stamp)


@lru_cache(maxsize=4)
def _standing(ladders: Path, stamp: tuple[tuple[str, int], ...]) -> str:
    gaps = skill_stored.search_gaps(ladders)
    if not gaps:
        return ""
    shipped = ladders == LADDERS
    where = "reports/ladder" if shipped else display_path(ladders)
    kind = "shipped" if shipped else "stored"
    # a count over the ladders is read together: simultaneous (Bonferroni) intervals over them; within one ladder,
    # "above every one" needs each gap above 0 at that level (an intersection of tests, no further adjustment)
    z = skill_stored.family_z(len(gaps))
    above = [k for k, g in gaps.items() if all(x.sign(z) > 0 for x in g)]
    below = [k for k, g in gaps.items() if any(x.sign(z) < 0 for x in g)]
    unclear = [k for k in gaps if k not in above and k not in below]
    if len(gaps) == 1:
        rated = f"the one {kind} ladder that rates it ({where}/)"
        count = rated if above else f"none of {rated}"
        level = "95% interval"
    else:
        rated = f"the {fmt.count(len(gaps))} {kind} ladders that rate it ({where}/)"
        count = f"each of {rated}" if len(above) == len(gaps) else f"{fmt.count(len(above))} of {rated}"
        level = f"interval (simultaneous {100 * (1 - 0.05 / len(gaps)):.2f}% over the {fmt.count(len(gaps))}, Bonferroni)"
    text = f"`{SEARCHER}` rates above every scripted and tuned player by a rating gap whose {level} excludes 0 in " + count
    alone = bool(above) and not (unclear and below)  # one kind of exception after some above: "the other N"
    parts = []
    if unclear:
        parts.append(f"in {_ladders(unclear, alone)} the interval of its gap over at least one of them includes 0")
    if below:
        parts.append(f"in {_ladders(below, alone)} it rates below at least one of them by an interval that excludes 0")
    worst = [k for k in unclear if all(not x.exact for x in gaps[k] if x.sign(z) <= 0)]
    if worst:
        its = "that ladder stores" if len(worst) == 1 else "those ladders store"
        parts.append(
            f"for {', '.join(worst)} that interval is the worst case over the two ratings' unknown correlation, as "
            f"{its} no interval of that gap"
        )
    return text + ("; " + "; ".join(parts) if parts else "") + "."


def _ladders(names: list[str], other: bool) -> str:
    """ "official-4", "the other one (official-4)", "2 (official-4, stacking-4)" or "the other 2 (...)"."""
    if len(names) == 1:
        return f"the other one ({names[0]})" if other else names[0]
    return ("the other " if other else "") + f"{fmt.count(len(names))} ({', '.join(names)})"


def on_field(policy: str, field: str) -> str:
    """``field`` with the knob changes of ``policy`` (``NAME:knob=v,...``) applied on top of it: a knob both set is
    the policy's (a spec names each knob once)."""
    knobs = policy.partition(":")[2].strip()
    return spec_with(field, knobs) if knobs else field


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
