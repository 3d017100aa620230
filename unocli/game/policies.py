"""Scripted player policies: frozen, self-validating dataclasses of knobs.

A policy is data, not code: every preset (and every user policy) is a
:class:`Policy` whose knobs both engines read. The canonical ``random`` policy
of docs/rules.md §10 is one setting of these knobs.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path
from typing import Any

from unocli.errors import ConfigError
from unocli.files import load_toml
from unocli.game.attributes import Attributes, Presets, meta
from unocli.game.cards import DECK_SIZE, N_TYPES, WILD, WILD_DRAW_FOUR, rank_of


class CardClass(StrEnum):
    """Card classes a play preference orders."""

    HIGH = "high"  # number cards, highest face value first
    LOW = "low"  # number cards, lowest face value first
    SKIP = "skip"
    REVERSE = "reverse"
    DRAW_TWO = "draw_two"
    WILD = "wild"
    WILD_DRAW_FOUR = "wild_draw_four"


class ColourChoice(StrEnum):
    """How a player picks the colour for a Wild or Wild Draw Four."""

    RANDOM = "random"
    MOST_HELD = "most_held"
    NEXT_LACKS = "next_lacks"


class Respond(StrEnum):
    """How a player facing a +2/+4 decides between stacking, challenging, accepting."""

    UNIFORM = "uniform"
    KNOBS = "knobs"


class MatchPreference(StrEnum):
    """Which legal cards a player prefers when the top card can be matched both ways."""

    ANY = "any"  # no preference: the play order decides
    COLOUR = "colour"  # keep the colour: drop off-colour twins of the top card's symbol
    NUMBER = "number"  # change the colour: drop cards of the current colour


class SearchMode(StrEnum):
    """Whether a seat searches its card choices by rollouts (docs/search.md)."""

    OFF = "off"  # a scripted player: its knobs decide everything
    ON = "on"  # determinised rollouts: hidden cards re-dealt consistently with what the seat has seen
    PEEK = "peek"  # rollouts from the true hidden state: an upper bound on search, not a player


class Objective(StrEnum):
    """What a search maximises (docs/search.md, "The objective")."""

    ROUND = "round"  # the chance of winning the current round
    MATCH = "match"  # in a match: the points that count towards the target, the searcher's against the winner's


class SwapTarget(StrEnum):
    """Whom a 7 swaps hands with (seven_o)."""

    RANDOM = "random"
    FEWEST = "fewest"
    MOST = "most"
    NEXT = "next"


DEFAULT_BUDGET = 512  # rollouts per option: chosen from the strength/speed curve (docs/search.md)
MAX_BUDGET = 100_000

DEFAULT_CLASS_ORDER = (
    CardClass.HIGH,
    CardClass.SKIP,
    CardClass.REVERSE,
    CardClass.DRAW_TWO,
    CardClass.WILD,
    CardClass.WILD_DRAW_FOUR,
)


def _play_order(label: str, value: Any) -> str:
    """'random' (also for empty text), or a full play order (see :func:`parse_order`)."""
    text = _order_text(label, value)
    return "random" if text in ("", "random") else _full_order(text)


def _attack_order(label: str, value: Any) -> str:
    """A full play order, or '' (no attack preference)."""
    text = _order_text(label, value)
    return "" if text == "" else _full_order(text)


def _order_text(label: str, value: Any) -> str:
    """A play order as text: 'a>b>c' or a list of class names (anything else, a table or a number, is refused)."""
    if isinstance(value, list | tuple) and all(isinstance(v, str) for v in value):
        value = ">".join(value)
    if not isinstance(value, str):
        raise ConfigError(f"{label} must be a play order such as 'draw_two>skip' or a list of card classes, not {value!r}")
    return value.strip().lower()


def _full_order(text: str) -> str:
    return ">".join(c.value for c in parse_order(text))


@dataclass(frozen=True)
class Policy(Attributes):
    """The knobs of one scripted player. Defaults are the ``random`` policy (docs/rules.md §10).

    The kernel reads the knobs by name (kernel/encode.py).
    """

    WHAT = "policy knob"
    WHAT_PLURAL = "knobs"

    play: str = field(
        default="random",
        metadata=meta(
            "card preference: 'random' (uniform over legal cards) or classes in order, e.g. "
            "'draw_two>skip>reverse>high>wild>wild_draw_four' (classes: high, low, skip, reverse, "
            "draw_two, wild, wild_draw_four); ties go to the colour held most",
            coerce=_play_order,
        ),
    )
    attack: str = field(
        default="",
        metadata=meta(
            "preference used instead of 'play' when the next player holds at most attack_at cards", coerce=_attack_order
        ),
    )
    attack_at: int = field(
        default=0, metadata=meta("hand size of the next player at or below which 'attack' applies (0: never)", lo=0, hi=DECK_SIZE)
    )
    colour: ColourChoice = field(
        default=ColourChoice.RANDOM,
        metadata=meta(
            "colour declared for a Wild: random, most_held, or next_lacks (the colour the next player "
            "last could not match, if held; else most held)"
        ),
    )
    bluff: float = field(
        default=0.0,
        metadata=meta(
            "probability of playing a +4 as a bluff when holding the current colour, in the situations "
            "bluff_next_min..bluff_next_max and bluff_own_min..bluff_own_max"
        ),
    )
    bluff_next_min: int = field(
        default=1, metadata=meta("bluff only when the next player holds at least this many cards", lo=1, hi=DECK_SIZE)
    )
    bluff_next_max: int = field(
        default=DECK_SIZE, metadata=meta("bluff only when the next player holds at most this many cards", lo=1, hi=DECK_SIZE)
    )
    bluff_own_min: int = field(
        default=1, metadata=meta("bluff only when holding at least this many cards (the +4 included)", lo=1, hi=DECK_SIZE)
    )
    bluff_own_max: int = field(
        default=DECK_SIZE,
        metadata=meta("bluff only when holding at most this many cards (the +4 included)", lo=1, hi=DECK_SIZE),
    )
    respond: Respond = field(
        default=Respond.UNIFORM,
        metadata=meta(
            "facing a +2/+4: uniform (one uniform choice over each stackable card, challenge, accept; "
            "docs/rules.md §10) or knobs (challenge by the challenge knobs, else stack with probability 'stack')"
        ),
    )
    challenge: float = field(
        default=0.5,
        metadata=meta("probability of challenging a +4 when no informed rule below decides (respond=knobs)"),
    )
    trust_if_lacked: bool = field(
        default=False,
        metadata=meta(
            "never challenge when the +4's player was seen failing to match the colour under it and has not "
            "played that colour since (checked first)"
        ),
    )
    challenge_if_hand: int = field(
        default=0,
        metadata=meta("always challenge when the +4's player held at least this many cards (0: off)", lo=0, hi=DECK_SIZE),
    )
    challenge_if_own_colour: bool = field(
        default=False,
        metadata=meta(
            "always challenge when the +4's player's own last play showed the colour under the +4 (a card of "
            "that colour, or that colour declared for a Wild)"
        ),
    )
    trust_if_seen: int = field(
        default=0,
        metadata=meta(
            "never challenge when at least this many cards of the colour under the +4 are in sight: in the "
            "discard pile under the +4 or in one's own hand (0: off; checked after the always-rules)",
            lo=0,
            hi=DECK_SIZE,
        ),
    )
    forget_uno: float = field(default=0.0, metadata=meta("probability of forgetting to call Uno"))
    catch_uno: float = field(default=1.0, metadata=meta("probability of noticing an opponent's forgotten Uno"))
    stack: float = field(default=1.0, metadata=meta("probability of stacking when able (respond=knobs)"))
    stack_from: int = field(
        default=0,
        metadata=meta(
            "stack only when the pending penalty is at least this many cards; below it, draw (respond=knobs; 0: always)",
            lo=0,
            hi=DECK_SIZE,
        ),
    )
    keep_draws: bool = field(
        default=False,
        metadata=meta(
            "when stacking is on, play Draw Twos and Wild Draw Fours only when nothing else plays (unless "
            "attacking), to answer a penalty with them"
        ),
    )
    aim_lacked: bool = field(
        default=False,
        metadata=meta(
            "play a card of the colour the next player last failed to match (see colour=next_lacks) when one is "
            "legal (after keep_draws and match; not when attacking)"
        ),
    )
    match: MatchPreference = field(
        default=MatchPreference.ANY,
        metadata=meta(
            "when the top card can be matched both by colour and by its number or symbol in another colour: "
            "any (the play order decides), colour (keep the colour) or number (change it); Wilds are neither"
        ),
    )
    jump_in: float = field(default=0.5, metadata=meta("probability of jumping in when able"))
    swap_target: SwapTarget = field(
        default=SwapTarget.RANDOM, metadata=meta("whom a 7 swaps with: random, fewest, most or next (cards)")
    )
    play_drawn: float = field(default=1.0, metadata=meta("probability of playing a legal drawn card"))
    search: SearchMode = field(
        default=SearchMode.OFF,
        metadata=meta(
            "off; on: choose each card (and a Wild's colour), a drawn card, a pending penalty's or a +4's response, "
            "jumping in and a 7's swap target by rollouts that re-deal the hidden cards "
            "consistently with what the seat has seen, every seat played by this policy's other knobs "
            "(docs/search.md); peek: the same from the true hidden state, an upper bound, not a player"
        ),
    )
    budget: int = field(
        default=DEFAULT_BUDGET,
        metadata=meta("rollouts per option when search is on or peek", lo=1, hi=MAX_BUDGET),
    )
    objective: Objective = field(
        default=Objective.ROUND,
        metadata=meta(
            "what a search maximises: round (the chance of winning the round) or match (in a match, the points "
            "that count towards the target: its own if it wins, against the winner's; docs/search.md)"
        ),
    )

    def __post_init__(self) -> None:
        super().__post_init__()
        for who in ("next", "own"):
            lo, hi = getattr(self, f"bluff_{who}_min"), getattr(self, f"bluff_{who}_max")
            if lo > hi:
                raise ConfigError(f"bluff_{who}_min ({lo}) is above bluff_{who}_max ({hi}): no hand could ever bluff")
        if self.search is not SearchMode.OFF and self.forget_uno > 0:
            raise ConfigError(
                f"a search player always calls Uno: forget_uno must be 0 with search={self.search}, not {self.forget_uno}"
            )

    def bluffs_at(self, next_hand: int, own_hand: int) -> bool:
        """Is a bluff open to this policy when the next player holds ``next_hand`` and it holds ``own_hand``?"""
        return (
            self.bluff > 0
            and self.bluff_next_min <= next_hand <= self.bluff_next_max
            and self.bluff_own_min <= own_hand <= self.bluff_own_max
        )

    @property
    def play_order(self) -> tuple[CardClass, ...] | None:
        """The play preference, or None for uniform random play."""
        return None if self.play == "random" else parse_order(self.play)

    def priorities(self, attack: bool = False) -> list[int]:
        """Priority of each card type (lower plays first) under 'play' or 'attack'."""
        order = parse_order(self.attack) if attack and self.attack else self.play_order
        if order is None:
            return [0] * N_TYPES
        return priority_table(order)


POLICY_FIELDS: tuple[str, ...] = Policy.names()


def parse_order(text: str) -> tuple[CardClass, ...]:
    """Parse 'a>b>c' (or 'a,b,c') into card classes; unlisted classes follow in default order."""
    parts = [p.strip().lower() for p in text.replace(",", ">").split(">") if p.strip()]
    classes: list[CardClass] = []
    for p in parts:
        try:
            c = CardClass(p)
        except ValueError:
            allowed = ", ".join(c.value for c in CardClass)
            raise ConfigError(f"unknown card class {p!r} in a play order; the classes are: {allowed}") from None
        if c in classes:
            raise ConfigError(f"card class {p!r} appears twice in the play order {text!r}")
        classes.append(c)
    if CardClass.HIGH in classes and CardClass.LOW in classes:
        raise ConfigError(f"a play order may name 'high' or 'low', not both: {text!r}")
    has_numbers = CardClass.HIGH in classes or CardClass.LOW in classes
    for c in DEFAULT_CLASS_ORDER:
        if c not in classes and not (c is CardClass.HIGH and has_numbers):
            classes.append(c)
    return tuple(classes)


def card_class(card: int) -> CardClass | None:
    """Class of a card type (numbers give None: high or low decides)."""
    if card == WILD:
        return CardClass.WILD
    if card == WILD_DRAW_FOUR:
        return CardClass.WILD_DRAW_FOUR
    r = rank_of(card)
    return {10: CardClass.SKIP, 11: CardClass.REVERSE, 12: CardClass.DRAW_TWO}.get(r)


def priority_table(order: tuple[CardClass, ...]) -> list[int]:
    """Priority per card type: 16 * position of its class + place within numbers."""
    pos = {c: i for i, c in enumerate(order)}
    numbers_high = CardClass.HIGH in pos
    table = []
    for t in range(N_TYPES):
        cls = card_class(t)
        if cls is None:
            v = rank_of(t)
            key = CardClass.HIGH if numbers_high else CardClass.LOW
            table.append(16 * pos[key] + (9 - v if numbers_high else v))
        else:
            table.append(16 * pos[cls])
    return table


# ---------------------------------------------------------------- presets

_DUMP = "draw_two>skip>reverse>high>wild>wild_draw_four"
_ATTACK = "draw_two>wild_draw_four>skip>reverse>wild>high"
_BASIC: dict[str, Any] = {
    "play": _DUMP,
    "colour": "most_held",
    "respond": "knobs",
    "challenge": 0.25,
    "stack": 1.0,
    "jump_in": 1.0,
    "swap_target": "fewest",
}

_SMART: dict[str, Any] = {
    **_BASIC,
    "play": "low>draw_two>skip>reverse>wild>wild_draw_four",
    "attack": "draw_two>skip>reverse>wild_draw_four>wild>low",
    "attack_at": 1,
    "colour": "next_lacks",
    "challenge": 0.0,
}

PRESETS = Presets(
    Policy,
    "policy",
    "policies",
    {
        "random": ("docs/rules.md §10: every decision uniform over the options open", {}),
        "basic": (
            "dumps high points, keeps Wilds for when nothing else plays, declares the colour held most; the "
            "documented baseline, with known faults: it challenges one +4 in four though nobody at its table "
            "bluffs, and spends its Draw Twos first even when stacking would reward keeping them",
            _BASIC,
        ),
        "aggressive": (
            "action and draw cards first, above all against a next player with 3 cards or fewer",
            {**_BASIC, "play": "draw_two>skip>reverse>wild_draw_four>high>wild", "attack": _ATTACK, "attack_at": 3},
        ),
        "hoarder": (
            "plays low numbers first, keeps Wilds and +4s to the end, never stacks, keeps drawn cards",
            {**_BASIC, "play": "low>skip>reverse>draw_two>wild>wild_draw_four", "stack": 0.0, "play_drawn": 0.0},
        ),
        "bluffer": ("basic, but plays a +4 as a bluff at every chance", {**_BASIC, "bluff": 1.0}),
        "skeptic": ("basic, but challenges every +4", {**_BASIC, "challenge": 1.0}),
        "smart": (
            "uses what it sees: attacks a next player holding 1 card with draw cards, Skips and Reverses, declares "
            "the colour the next player last failed to match, sheds low numbers first, never challenges",
            _SMART,
        ),
        "strong": (
            "smart, and plays the colour the next player last failed to match when it can (aim_lacked); found by "
            "unocli tune against basic, official rules, 4 players (reports/tune)",
            {**_SMART, "aim_lacked": True},
        ),
    },
)


# Search players are not in PRESETS: every preset is cheap to play, and studies that try every
# preset (tune, the differential test) must not play thousands of rollouts per turn by accident.
SEARCH_PRESETS = Presets(
    Policy,
    "policy",
    "policies",
    {
        "search": (
            "basic's knobs, but each card and Wild colour, drawn card and response to a pending penalty is chosen "
            "by determinised rollouts: the hidden cards "
            "re-dealt consistently with what it has seen, every seat played by basic to the round's end; the "
            "option that wins most rollouts is played (docs/search.md)",
            {**_BASIC, "search": "on"},
        ),
        "peek": (
            "search rolling out from the true hidden state: an upper bound on what search can gain, not a player",
            {**_BASIC, "search": "peek"},
        ),
    },
)


class UnknownPolicy(ConfigError):
    """A policy name that is neither a preset nor in the policies file: a usage error (the CLI exits 2)."""


def preset(name: str) -> Policy:
    """The policy of a named preset."""
    policy: Policy = (SEARCH_PRESETS if name in SEARCH_PRESETS else PRESETS).build(name)
    return policy


MAX_LISTED = 12  # names an unknown-policy message lists: a file of 5,000 policies gets the nearest 12, not 34 KB


def policy_choices(name: str, own: Sequence[str] = (), source: str | None = None) -> str:
    """The policy names to offer after an unknown ``name``: the presets, then ``own`` (from the file ``source``).

    All of them when there are at most :data:`MAX_LISTED`; else the nearest
    ones by :func:`difflib.get_close_matches` (the presets when none is near),
    with how many exist.
    """
    builtin = [*PRESETS, *SEARCH_PRESETS]
    own = [n for n in own if n not in builtin]
    names = [*builtin, *own]
    if len(names) <= MAX_LISTED:
        if source is None:
            return ", ".join(names)
        return f"{', '.join(builtin)} and, from {source!r}, {', '.join(own) or '(none)'}"
    near = difflib.get_close_matches(name, names, n=MAX_LISTED, cutoff=0.5) or list(PRESETS)
    where = f" from {source!r}" if source is not None else " from the policies file"
    count = f"the {len(PRESETS)} presets, the {len(SEARCH_PRESETS)} search players and {len(own):,}{where}"
    return f"{', '.join(near)} (the nearest {len(near)} of {len(names):,}: {count})"


def parse_policy_spec(spec: str, extra: dict[str, Policy] | None = None) -> Policy:
    """``NAME`` or ``NAME:knob=value,knob=value``; NAME is a preset or a policy from ``extra``."""
    name, _, rest = spec.partition(":")
    name = name.strip()
    if not (extra and name in extra) and name not in PRESETS and name not in SEARCH_PRESETS:
        known = policy_choices(name, list(extra or ()))
        raise UnknownPolicy(f"unknown policy {name!r}; the policies are: {known}")
    policy = extra[name] if extra and name in extra else preset(name)
    if not rest.strip():
        return policy
    changes: dict[str, Any] = {}
    for item in rest.split(","):
        key, sep, value = item.partition("=")
        if not sep:
            raise ConfigError(f"policy settings take knob=value, not {item!r} in {spec!r}")
        key = key.strip()
        Policy.check_names([key])
        if key in changes:  # the last would win without a word
            raise ConfigError(f"knob {key!r} is given twice in {spec!r}: give each knob once")
        changes[key] = value.strip()
    return policy.replace(**changes)


def spec_with(spec: str, knobs: str | dict[str, Any]) -> str:
    """``spec`` (``NAME`` or ``NAME:knob=v,...``) with ``knobs`` (``k=v,...`` or a dict) set on top: a knob both set
    is the later one's, named once (:func:`parse_policy_spec` refuses a knob twice)."""

    def pairs(text: str) -> dict[str, str]:
        return {k.strip(): v.strip() for k, _, v in (item.partition("=") for item in text.split(",") if item.strip())}

    name, _, own = spec.partition(":")
    merged = pairs(own) | (pairs(knobs) if isinstance(knobs, str) else {k: str(v) for k, v in knobs.items()})
    return name + (":" + ",".join(f"{k}={v}" for k, v in merged.items()) if merged else "")


def is_searching(spec: str) -> bool:
    """Whether ``spec`` names a searching preset (``search``, ``peek``, or a knob ``search=...``). Anything that is not
    a preset spec (a policies-file name, a ``{rules}`` template, prose) is not one."""
    try:
        return parse_policy_spec(spec).search is not SearchMode.OFF
    except (ConfigError, ValueError, TypeError, KeyError):
        return False


NAME_FORBIDDEN = ":,={}"  # a spec is NAME:knob=value,...; lists split at commas; braces are placeholders
MAX_NAME = 100


def check_policy_name(name: str) -> str | None:
    """Why ``name`` cannot name a policy in a policies file (None: it can).

    A name must be usable where policies are named: in ``--policy NAME:knob=v``,
    in ``--seat S=NAME``, in a comma-separated ``policy@S`` axis and in a
    ``{rules}``/``{players}`` template; and shown on one line.
    """
    if not name.strip():
        return "a policy name must not be empty"
    if name != name.strip():
        return "a policy name must not start or end with a space"
    if len(name) > MAX_NAME:
        return f"a policy name must be at most {MAX_NAME} characters, not {len(name):,}"
    bad = sorted({c for c in name if c in NAME_FORBIDDEN or not c.isprintable()})
    if bad:
        shown = ", ".join(repr(c) for c in bad)
        return f"a policy name must not hold {shown} (no {' '.join(NAME_FORBIDDEN)} or control characters)"
    return None


def load_policies_file(path: str | Path) -> dict[str, Policy]:
    """Policies from TOML: one table per policy, optional ``base = "PRESET"`` (or an earlier policy of the file)."""
    p = Path(path)
    data = load_toml(p, "policy file")
    out: dict[str, Policy] = {}
    for name, table in data.items():
        where = f"policy file {str(p)!r}, policy {name!r}"
        problem = check_policy_name(name)
        if problem:
            raise ConfigError(f"{where}: {problem}")
        if not isinstance(table, dict):
            raise ConfigError(f"policy file {str(p)!r}: {name!r} must be a table of knobs")
        table = dict(table)
        description = table.pop("description", "")
        if not isinstance(description, str):
            raise ConfigError(f"{where}: 'description' must be a string, not {description!r}")
        base = table.pop("base", "random")
        if not isinstance(base, str):
            raise ConfigError(f"{where}: 'base' must name a preset or an earlier policy of the file, not {base!r}")
        if base in data and base not in out and base not in PRESETS and base not in SEARCH_PRESETS:  # not yet read
            later = "is this policy itself" if base == name else "comes later"
            raise ConfigError(f"{where}: 'base' must name a preset or an earlier policy of the file; {base!r} {later}")
        if base not in out and base not in PRESETS and base not in SEARCH_PRESETS:
            raise ConfigError(f"{where}: 'base' names no policy: {base!r}; it may be {policy_choices(base, list(out))}")
        try:
            out[name] = (out[base] if base in out else preset(base)).replace(**table)
        except ConfigError as exc:
            raise ConfigError(f"{where}: {exc}") from None
    return out


def parse_seats(items: Sequence[str]) -> tuple[tuple[int, str], ...]:
    """``--seat S=SPEC`` texts as ``(seat, spec)`` pairs: the one place the option's text is read.

    Refuses (ConfigError) an item without ``=``, a seat that is not a whole
    number, and a seat given twice (the last would silently win). Whether the
    seat is at the table is checked against the rules (:func:`seat_specs`).
    """
    given: dict[int, str] = {}
    pairs: list[tuple[int, str]] = []
    for item in items:
        seat_text, sep, spec = item.partition("=")
        if not sep:
            raise ConfigError(f"--seat takes SEAT=POLICY, not {item!r}")
        seat_text = seat_text.strip()
        if not re.fullmatch(r"-?[0-9]+", seat_text):  # ASCII digits only (int() also reads '٣'); -1 is off the table
            raise ConfigError(f"--seat needs a seat number, not {seat_text!r}")
        seat = int(seat_text)
        if seat in given:
            raise ConfigError(f"--seat {seat} is given twice ({given[seat]!r} and {item!r}): give each seat once")
        given[seat] = item
        pairs.append((seat, spec.strip()))
    return tuple(pairs)


def seat_specs(n_players: int, policy: str, seats: Sequence[tuple[int, str]] = ()) -> tuple[str, ...]:
    """The policy spec of each seat: ``policy`` everywhere but the ``(seat, spec)`` pairs (each seat at the table)."""
    specs = [policy.strip()] * n_players
    for seat, spec in seats:
        if not 0 <= seat < n_players:
            raise ConfigError(f"seat {seat} is not at the table: seats are 0 to {n_players - 1}")
        specs[seat] = spec.strip()
    return tuple(specs)


def resolve_policies(
    n_players: int,
    policy: str = "random",
    seats: Sequence[str] = (),
    extra: dict[str, Policy] | None = None,
) -> tuple[Policy, ...]:
    """One policy per seat from ``--policy``, ``--seat S=SPEC`` and policies loaded from ``--policies FILE``."""
    base = parse_policy_spec(policy, extra)
    specs = seat_specs(n_players, policy, parse_seats(seats))
    return tuple(base if spec == policy.strip() else parse_policy_spec(spec, extra) for spec in specs)


def seat_labels(n_players: int, policy: str = "random", seats: Sequence[str] = ()) -> tuple[str, ...]:
    """The spec text of each seat's policy (for reports)."""
    return seat_specs(n_players, policy, parse_seats(seats))


def describe_knobs() -> list[tuple[str, str]]:
    """(knob, meaning) for every policy knob, in order."""
    return Policy.describe()
