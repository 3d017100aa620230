"""Arms: the one type for "a table to play", and :class:`TableSpec`, the same table as option text.

An :class:`Arm` is what :func:`~unocli.study.simulate.simulate`,
:func:`~unocli.study.compare.compare` and the balance baselines play: a rule
set, one policy per seat, names for reports, and how it is played (single
rounds or matches, seats rotated or not). A :class:`TableSpec` is a table as
the command line or an experiment file writes it (``--rules``, ``--set``,
``--policy``, ``--seat``, knob changes, the ``--policies FILE`` it may name
policies from); :meth:`TableSpec.build` resolves it into an Arm, once per table
size. A :class:`PolicyFile` is such a file, loaded once and carried by every
table built from the same options or experiment file.

A policy spec may hold the placeholders ``{rules}`` (the table's rules preset,
as written) and ``{players}`` (the table size), expanded when the table is
built (:func:`expand_spec`): ``tuned-{rules}-{players}`` names each rule set's
and table size's own tuned player from ``sims/tuned/tuned.toml``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from enum import Enum
from pathlib import Path
from typing import Any

from unocli.errors import ConfigError
from unocli.files import display_path
from unocli.game.policies import (
    PRESETS,
    SEARCH_PRESETS,
    Policy,
    UnknownPolicy,
    load_policies_file,
    parse_policy_spec,
    policy_choices,
    preset,
    seat_specs,
    spec_with,
)
from unocli.game.rules import PRESETS as RULE_PRESETS
from unocli.game.rules import Rules, resolve_rules

PLACEHOLDERS = ("rules", "players")
_BRACED = re.compile(r"\{([^{}]*)\}")
_NAMED = re.compile(r"[-_ ]*\{(?:rules|players)\}")  # a placeholder and the separator before it


@dataclass(frozen=True)
class Arm:
    """A table to play: rules, one policy per seat, names for reports, and how it is played.

    ``labels`` name the seats' policies in reports (empty: ``seat0`` ...).
    ``match`` plays matches to ``target_score`` instead of single rounds;
    ``rotate_seats`` plays every deal once per rotation of the seats (see
    :func:`~unocli.study.simulate.simulate`).
    """

    name: str
    rules: Rules
    policies: tuple[Policy, ...]
    labels: tuple[str, ...] = ()
    match: bool = False
    rotate_seats: bool = False

    def __post_init__(self) -> None:
        if len(self.policies) != self.rules.players:
            raise ConfigError(f"arm {self.name!r}: {len(self.policies)} policies for {self.rules.players} players")
        if self.labels and len(self.labels) != self.rules.players:
            raise ConfigError(f"arm {self.name!r}: {len(self.labels)} seat labels for {self.rules.players} players")

    @property
    def players(self) -> int:
        return self.rules.players


def plain(value: Any) -> str:
    """A TOML/CLI value as the text ``Rules.replace`` and ``Policy.replace`` coerce."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return f"{value:g}"
    return str(value)


def seat_selection(sel: str, players: int) -> list[int]:
    """The seats ``sel`` (``all``, ``opponents``, ``S`` or ``S-T``) names at a table of ``players``."""
    if sel == "all":
        return list(range(players))
    if sel == "opponents":
        return list(range(1, players))
    lo, _, hi = sel.partition("-")
    first, last = int(lo), int(hi or lo)
    if not 0 <= first <= last < players:
        raise ConfigError(f"seats {sel} are not at the table: seats are 0 to {players - 1}")
    return list(range(first, last + 1))


@dataclass(frozen=True)
class PolicyFile:
    """The named policies of a policies file (``--policies FILE``, an experiment's ``policies = FILE``).

    Loaded once and carried in :class:`TableSpec`, so every arm and grid cell
    resolves names against the same policies (and nothing re-reads the file).
    """

    path: str
    entries: tuple[tuple[str, Policy], ...]

    @classmethod
    def load(cls, path: str | Path) -> PolicyFile:
        """Read ``path``; a name that is a preset must define the preset itself (raises ConfigError).

        A file that redefined ``basic`` differently would play its own policy
        while every table still said ``basic``, so it is refused.
        """
        extra = load_policies_file(path)
        for name, pol in extra.items():
            if name in PRESETS and pol != preset(name):
                raise ConfigError(
                    f"policy file {str(path)!r} redefines the preset {name!r} with other knobs: give it another name"
                )
        return cls(path=str(path), entries=tuple(extra.items()))

    @property
    def policies(self) -> dict[str, Policy]:
        return dict(self.entries)

    def summary(self) -> str:
        """The file's own policies as specs on their nearest preset (``tuned = basic:bluff=0.3``), for reports."""
        own = []
        for name, pol in self.entries:
            if name in PRESETS:
                continue
            changes = {p: _changes(preset(p), pol) for p in PRESETS}
            nearest = min(changes, key=lambda p: len(changes[p]))  # the first preset on a tie
            own.append(f"`{name}` = `{nearest}" + (":" + ",".join(changes[nearest]) if changes[nearest] else "") + "`")
        return f"Policies from {Path(self.path).name}: {'; '.join(own) or '(only presets)'}."


def _changes(start: Policy, end: Policy) -> list[str]:
    """``knob=value`` for every knob ``end`` sets otherwise than ``start`` (the text ``Policy.replace`` reads)."""
    out = []
    for knob in Policy.names():
        value = getattr(end, knob)
        if getattr(start, knob) != value:
            text = value.value if isinstance(value, Enum) else repr(value) if isinstance(value, float) else plain(value)
            out.append(f"{knob}={text}")
    return out


def known_policies(policies: PolicyFile | None, near: str = "") -> str:
    """The policy names a spec may start with, as text: the presets, then the file's own (the nearest to ``near`` when many)."""
    own = [name for name, _ in policies.entries] if policies is not None else []
    return policy_choices(near, own, display_path(policies.path) if policies is not None else None)


def check_placeholders(spec: str) -> None:
    """Refuse a spec whose braces are not ``{rules}`` or ``{players}`` (raises UnknownPolicy, a usage error)."""
    for inner in _BRACED.findall(spec):
        if inner not in PLACEHOLDERS:
            raise UnknownPolicy(
                f"policy {spec!r}: unknown placeholder {{{inner}}}; the placeholders are {{rules}} and {{players}}"
            )
    if "{" in _BRACED.sub("", spec) or "}" in _BRACED.sub("", spec):
        raise UnknownPolicy(f"policy {spec!r}: an unmatched brace; the placeholders are {{rules}} and {{players}}")


def has_placeholders(spec: str) -> bool:
    """True when ``spec`` holds a brace: a template to expand per table (or a malformed one, refused on expansion)."""
    return "{" in spec or "}" in spec


def template_name(spec: str) -> str:
    """A spec's name in reports: without its placeholders (``tuned-{rules}-{players}`` -> ``tuned``)."""
    return _NAMED.sub("", spec) if has_placeholders(spec) else spec


def expand_spec(spec: str, rules: str, players: int, policies: PolicyFile | None = None) -> str:
    """``spec`` with ``{rules}`` and ``{players}`` filled in for a table of ``rules`` (as written) and ``players``.

    Raises UnknownPolicy, one sentence naming the spec, for an unknown
    placeholder, for ``{rules}`` when the rules are not a preset name (a rules
    file has no name to fill in), or when the expanded name is not a policy.
    """
    if not has_placeholders(spec):
        return spec
    check_placeholders(spec)
    if "{rules}" in spec and rules not in RULE_PRESETS:
        raise UnknownPolicy(
            f"policy {spec!r}: {{rules}} needs the rules to be a preset name ({', '.join(RULE_PRESETS)}), not {rules!r}"
        )
    out = spec.replace("{rules}", rules).replace("{players}", str(players))
    name = out.partition(":")[0].strip()
    if name not in PRESETS and name not in SEARCH_PRESETS and not (policies and name in policies.policies):
        where = f"in {policies.path!r}" if policies else "a preset (no policies file is named)"
        raise UnknownPolicy(f"policy {spec!r} at {players} players under {rules} rules names {name!r}, which is not {where}")
    return out


def parse_policy(spec: str, policies: PolicyFile | None = None) -> Policy:
    """``NAME`` or ``NAME:knob=value,...`` where NAME is a preset or in ``policies``.

    An unknown NAME raises :class:`UnknownPolicy`, one sentence listing every known name.
    """
    name = spec.partition(":")[0].strip()
    if name not in PRESETS and name not in SEARCH_PRESETS and not (policies and name in policies.policies):
        raise UnknownPolicy(f"unknown policy {name!r}; the policies are: {known_policies(policies, name)}")
    return parse_policy_spec(spec, policies.policies if policies else None)


def check_spec(spec: str, policies: PolicyFile | None = None) -> None:
    """Check a spec before any table is built: a template's placeholders and knobs, else the whole spec.

    A template's name is checked when a table is built (:func:`expand_spec`), as
    only then are the rules and the table size known.
    """
    if not has_placeholders(spec):
        parse_policy(spec, policies)
        return
    check_placeholders(spec)
    knobs = spec.partition(":")[2]
    try:
        parse_policy_spec("random" + (":" + knobs if knobs.strip() else ""))
    except ConfigError as exc:
        raise ConfigError(f"policy {spec!r}: {exc}") from None


@dataclass(frozen=True)
class TableSpec:
    """A table described by option text (what ``--rules``, ``--set``, ``--policy``, ``--seat`` say).

    ``knobs`` holds ``(seats, knob, value)`` changes applied after the
    policies are resolved; ``seats`` is ``"all"``, ``"opponents"``, ``"S"`` or ``"S-T"``.
    ``policies`` is the policies file whose names ``policy`` and ``seats`` may use.
    """

    rules: str = "official"
    sets: tuple[tuple[str, str], ...] = ()
    players: int | None = None
    policy: str = "random"
    seats: tuple[tuple[int, str], ...] = ()
    knobs: tuple[tuple[str, str, str], ...] = ()
    base_dir: str | None = None
    policies: PolicyFile | None = None

    def with_set(self, name: str, value: Any) -> TableSpec:
        return replace(self, sets=(*[s for s in self.sets if s[0] != name], (name, plain(value))))

    def with_seat(self, seat: int, spec: str) -> TableSpec:
        return replace(self, seats=(*[s for s in self.seats if s[0] != seat], (seat, spec)))

    def build(self, name: str = "arm", players: int | None = None, match: bool = False) -> Arm:
        """Resolve the text into an :class:`Arm` (raises ConfigError)."""
        spec = self.rules
        if self.base_dir and spec.endswith(".toml") and not Path(spec).is_absolute():
            spec = str(Path(self.base_dir) / spec)
        rules = resolve_rules(spec, [f"{k}={v}" for k, v in self.sets], players or self.players)
        policy = expand_spec(self.policy, self.rules, rules.players, self.policies)
        seats = [(s, expand_spec(p, self.rules, rules.players, self.policies)) for s, p in self.seats]
        labels = list(seat_specs(rules.players, policy, seats))
        parsed = {spec: parse_policy(spec, self.policies) for spec in dict.fromkeys((policy, *labels))}
        policies = [parsed[spec] for spec in labels]
        for sel, knob, value in self.knobs:
            for s in seat_selection(sel, rules.players):
                policies[s] = policies[s].replace(**{knob: value})
                labels[s] = spec_with(labels[s], {knob: value})
        return Arm(name=name, rules=rules, policies=tuple(policies), labels=tuple(labels), match=match)

    def describe(self) -> str:
        """The table in the words of the command line."""
        parts = [f"rules {self.rules}"] + [f"{k}={v}" for k, v in self.sets]
        parts.append(f"policy {self.policy}")
        if self.policies is not None:
            parts.append(f"policies from {display_path(self.policies.path)}")
        parts += [f"seat {s}: {p}" for s, p in self.seats]
        parts += [f"{k}={v} at {'every seat' if sel == 'all' else 'seats ' + sel}" for sel, k, v in self.knobs]
        return "; ".join(parts)
