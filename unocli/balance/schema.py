"""The baseline file's schema, written once: types, ranges, sizes and consistency rules.

:data:`BASELINE` describes the JSON document field by field (each node says its
type, its allowed range or size, and whether it is required);
:data:`CONSISTENCY` lists the rules that tie fields together (win counts
against games, one policy per player). :func:`validate` walks a parsed
document against both and raises :class:`SchemaError` naming the field and the
problem; :func:`parse_json` reads the text with limits on number sizes and
nesting, so that no input reaches a traceback. docs/ci.md shows the same schema
as a table.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from unocli.errors import ConfigError
from unocli.game.counters import COUNTERS
from unocli.game.limits import GAMES_MAX, check_games, check_seed
from unocli.kernel.encode import METRICS

FORMAT = "unocli-baseline"
FORMAT_VERSION = 2  # 2 adds each metric's smallest detectable change; version 1 files still load
FORMATS_READ = (1, 2)

ARMS_LIMIT = 1000
NAME_LIMIT = 1000  # characters of an arm name (free text: experiments' table keys)
TEXT_LIMIT = 4096  # characters of any other string
NUMBER_DIGITS = 40  # digits of a number in the file (64-bit values need 20; more is never ours)
DEPTH_LIMIT = 64  # nesting of the document (ours is 5 deep)
VALUE_LIMIT = 1e15  # a metric's mean, sd or detectable change (a count per game)


class SchemaError(ValueError):
    """A field that breaks the schema: ``path`` names it (``arms[1].n``), ``problem`` says how."""

    def __init__(self, path: str, problem: str) -> None:
        super().__init__(f"field {path!r} {problem}" if path else f"the document {problem}")
        self.path = path
        self.problem = problem


# ---------------------------------------------------------------- the node types


@dataclass(frozen=True)
class Whole:
    """A whole number (JSON integer, never a bool) from ``lo`` to ``hi``."""

    lo: int
    hi: int

    def describe(self) -> str:
        return f"whole number from {self.lo:,} to {self.hi:,}"


@dataclass(frozen=True)
class Limit:
    """A game count or a seed, checked by :mod:`unocli.game.limits` (the check, and bound, of the CLI and experiment files)."""

    check: Callable[[Any, str], int]

    def describe(self) -> str:
        return "whole number"


@dataclass(frozen=True)
class Real:
    """A finite number (integer or fraction, never a bool) from ``lo`` to ``hi``."""

    lo: float
    hi: float

    def describe(self) -> str:
        return f"finite number from {self.lo:g} to {self.hi:g}"


@dataclass(frozen=True)
class Text:
    """A string of ``min_len`` to ``max_len`` characters, one of ``choices`` when given."""

    max_len: int = TEXT_LIMIT
    min_len: int = 0
    choices: tuple[str, ...] = ()
    charset: str = ""

    def describe(self) -> str:
        if self.choices:
            return " or ".join(repr(c) for c in self.choices)
        if self.charset:
            return f"{self.min_len} characters of {self.charset!r}"
        return f"string of {self.min_len} to {self.max_len} characters"


@dataclass(frozen=True)
class Flag:
    """true or false."""

    def describe(self) -> str:
        return "true or false"


@dataclass(frozen=True)
class Scalar:
    """A rule's or knob's value: a bool, a 64-bit whole number, a finite number or a short string (the Rules and
    Policy classes then check its range)."""

    def describe(self) -> str:
        return "true/false, a number or a string"


@dataclass(frozen=True)
class ListOf:
    """A list of ``min_len`` to ``max_len`` items, each an ``item``."""

    item: Node
    min_len: int
    max_len: int

    def describe(self) -> str:
        return f"list of {self.min_len} to {self.max_len} items"


@dataclass(frozen=True)
class Table:
    """A JSON object with the ``fields`` given (``optional`` ones may be missing); other keys are refused unless
    ``keys`` is given, when every key must be one of ``keys`` and every value a ``values``."""

    fields: Mapping[str, Node] = field(default_factory=dict)
    optional: frozenset[str] = frozenset()
    keys: tuple[str, ...] = ()
    values: Node | None = None
    max_len: int = 1000

    def describe(self) -> str:
        return "table" if not self.keys else f"table keyed by {len(self.keys)} known names"


Node = Whole | Limit | Real | Text | Flag | Scalar | ListOf | Table

INT64 = 2**63 - 1
STAT = Real(0.0, VALUE_LIMIT)  # every metric is a count per game: never negative

METRIC = Table({"mean": STAT, "sd": STAT, "detectable": STAT}, optional=frozenset({"detectable"}))

ARM = Table(
    {
        "name": Text(NAME_LIMIT, 1),
        "rules": Table(keys=(), values=Scalar()),  # keys checked against RULE_FIELDS by the loader
        "policies": ListOf(Table(keys=(), values=Scalar()), 2, 10),
        "match": Flag(),
        "rotate_seats": Flag(),
        "n": Whole(1, GAMES_MAX * 10),  # games x rotations (at most 10 seats)
        "metrics": Table(keys=METRICS, values=METRIC),
        "wins": ListOf(Whole(0, GAMES_MAX * 10), 2, 10),
        "win_detectable": ListOf(STAT, 2, 10),
        "fingerprint": Text(16, 16, charset="0123456789abcdef"),
    },
    optional=frozenset({"win_detectable"}),
)

DETECTABLE = Table({"alpha": Real(1e-12, 0.5), "power": Real(0.5, 1 - 1e-12), "metrics": Whole(1, 10**6)})

BASELINE = Table(
    {
        "format": Text(choices=(FORMAT,)),
        "format_version": Whole(1, 10**6),  # newer than FORMATS_READ is refused by the loader with its own sentence
        "unocli_version": Text(64),
        "source": Text(),
        "games": Limit(check_games),
        "seed": Limit(check_seed),
        "detectable": DETECTABLE,
        "arms": ListOf(ARM, 1, ARMS_LIMIT),
    },
    optional=frozenset({"detectable"}),
)


# ---------------------------------------------------------------- consistency rules (fields against fields)


def _arm_rules(i: int, arm: dict[str, Any], doc: dict[str, Any]) -> None:
    at = f"arms[{i}]"
    players = len(arm["policies"])
    if len(arm["wins"]) != players:
        raise SchemaError(f"{at}.wins", f"has {len(arm['wins'])} counts for {players} players (one per seat)")
    if "win_detectable" in arm and len(arm["win_detectable"]) != players:
        raise SchemaError(f"{at}.win_detectable", f"has {len(arm['win_detectable'])} values for {players} players")
    rounds = doc["games"] * (players if arm["rotate_seats"] else 1)
    if arm["n"] > rounds:
        raise SchemaError(f"{at}.n", f"is {arm['n']:,}, more than the {rounds:,} games the baseline's 'games' allows")
    if sum(arm["wins"]) > arm["n"]:
        raise SchemaError(f"{at}.wins", f"sum to {sum(arm['wins']):,}, more than the arm's n = {arm['n']:,} games")
    if not arm["match"]:
        extra = sorted(set(arm["metrics"]) - set(COUNTERS))
        if extra:
            raise SchemaError(f"{at}.metrics.{extra[0]}", "is a metric of matches, but this arm plays single rounds")
    for name, stats in arm["metrics"].items():
        # every metric counts something and is never negative, so a mean of 0 means every game had 0
        if stats["sd"] > 0 and stats["mean"] == 0:
            raise SchemaError(f"{at}.metrics.{name}.sd", "is above 0 with a mean of 0 (a count that never happened)")


def _unique_names(doc: dict[str, Any]) -> None:
    seen: set[str] = set()
    for i, arm in enumerate(doc["arms"]):
        if arm["name"] in seen:
            raise SchemaError(f"arms[{i}].name", f"{arm['name']!r} is the name of an earlier arm (names must be unique)")
        seen.add(arm["name"])


def _each_arm(doc: dict[str, Any]) -> None:
    for i, arm in enumerate(doc["arms"]):
        _arm_rules(i, arm, doc)


CONSISTENCY: tuple[tuple[str, Callable[[dict[str, Any]], None]], ...] = (
    ("arm names are unique", _unique_names),
    (
        "each arm: one win count per policy; n at most games (x players when seats rotate); "
        "wins sum to at most n; match metrics only for matches; a zero mean has a zero sd",
        _each_arm,
    ),
)


# ---------------------------------------------------------------- walking


def check_node(node: Node, value: Any, path: str) -> None:
    """Check ``value`` against ``node``; raise SchemaError naming ``path`` at the first problem."""
    if isinstance(node, Whole):
        if isinstance(value, bool) or not isinstance(value, int):
            raise SchemaError(path, f"must be a {node.describe()}, not {_show(value)}")
        if not node.lo <= value <= node.hi:
            raise SchemaError(path, f"is {_show(value)}, outside {node.lo:,} to {node.hi:,}")
    elif isinstance(node, Limit):
        if isinstance(value, bool) or not isinstance(value, int):  # JSON text is not a number, though the CLI reads "10_000"
            raise SchemaError(path, f"must be a {node.describe()}, not {_show(value)}")
        try:
            node.check(value, "it")
        except ConfigError as exc:
            raise SchemaError(path, str(exc).removeprefix("it ")) from None
    elif isinstance(node, Real):
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise SchemaError(path, f"must be a {node.describe()}, not {_show(value)}")
        if not math.isfinite(value):
            raise SchemaError(path, f"is {_show(value)}, not a finite number")
        if not node.lo <= value <= node.hi:
            raise SchemaError(path, f"is {_show(value)}, outside {node.lo:g} to {node.hi:g}")
    elif isinstance(node, Text):
        if not isinstance(value, str):
            raise SchemaError(path, f"must be a string, not {_show(value)}")
        if node.choices and value not in node.choices:
            raise SchemaError(path, f"is {_show(value)}, not {node.describe()}")
        if not node.min_len <= len(value) <= node.max_len:
            raise SchemaError(path, f"has {len(value):,} characters, not {node.min_len} to {node.max_len}")
        if node.charset and any(c not in node.charset for c in value):
            raise SchemaError(path, f"is {_show(value)}, not {node.describe()}")
    elif isinstance(node, Flag):
        if not isinstance(value, bool):
            raise SchemaError(path, f"must be true or false, not {_show(value)}")
    elif isinstance(node, Scalar):
        if isinstance(value, bool):
            return
        if isinstance(value, int):
            check_node(Whole(-INT64 - 1, INT64), value, path)
        elif isinstance(value, float):
            if not math.isfinite(value):
                raise SchemaError(path, f"is {_show(value)}, not a finite number")
        elif isinstance(value, str):
            check_node(Text(), value, path)
        else:
            raise SchemaError(path, f"must be {node.describe()}, not {_show(value)}")
    elif isinstance(node, ListOf):
        if not isinstance(value, list):
            raise SchemaError(path, f"must be a list, not {_show(value)}")
        if not node.min_len <= len(value) <= node.max_len:
            raise SchemaError(path, f"has {len(value):,} items, not {node.min_len} to {node.max_len}")
        for i, item in enumerate(value):
            check_node(node.item, item, f"{path}[{i}]")
    else:
        _check_table(node, value, path)


def _check_table(node: Table, value: Any, path: str) -> None:
    if not isinstance(value, dict):
        raise SchemaError(path, f"must be a table, not {_show(value)}")
    if len(value) > node.max_len:
        raise SchemaError(path, f"has {len(value):,} entries, more than {node.max_len}")
    dot = f"{path}." if path else ""
    if node.values is not None:
        for key, item in value.items():
            if node.keys and key not in node.keys:
                raise SchemaError(f"{dot}{key}", f"is not one of the {path.rsplit('.', 1)[-1]} this unocli knows")
            check_node(node.values, item, f"{dot}{key}")
        return
    for key in value:
        if key not in node.fields:
            raise SchemaError(f"{dot}{key}", "is not a field of this table (allowed: " + ", ".join(node.fields) + ")")
    for key, sub in node.fields.items():
        if key not in value:
            if key in node.optional:
                continue
            raise SchemaError(f"{dot}{key}", "is missing")
        check_node(sub, value[key], f"{dot}{key}")


def validate(doc: Any) -> dict[str, Any]:
    """Check a parsed baseline document against :data:`BASELINE` and :data:`CONSISTENCY`."""
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise SchemaError("", "is not a unocli baseline (its 'format' is not 'unocli-baseline')")
    version = doc.get("format_version")
    check_node(BASELINE.fields["format_version"], version, "format_version")
    if version not in FORMATS_READ:
        raise SchemaError("format_version", f"is {version}, newer than the versions this unocli reads ({FORMATS_READ})")
    check_node(BASELINE, doc, "")
    for _, rule in CONSISTENCY:
        rule(doc)
    return doc


def _show(value: Any) -> str:
    """A value for a message, cut to 40 characters (a 5,000-digit number or a long string stays one line)."""
    if isinstance(value, dict):
        return "a table"
    if isinstance(value, list):
        return "a list"
    try:
        text = repr(value)
    except ValueError:  # an int past Python's digit limit for str()
        return "a number too long to show"
    return text if len(text) <= 40 else f"{text[:37]}..."


# ---------------------------------------------------------------- reading the text


def parse_json(text: str) -> Any:
    """Parse JSON with limits: numbers of at most NUMBER_DIGITS digits, no NaN or Infinity, nesting at most
    DEPTH_LIMIT. Raises SchemaError (path "") for any of these or a syntax error."""

    def whole(digits: str) -> int:
        if len(digits) > NUMBER_DIGITS:
            raise SchemaError("", f"holds a number of {len(digits):,} digits (at most {NUMBER_DIGITS} are allowed)")
        return int(digits)

    def real(digits: str) -> float:
        if len(digits) > NUMBER_DIGITS:
            raise SchemaError("", f"holds a number of {len(digits):,} characters (at most {NUMBER_DIGITS} are allowed)")
        return float(digits)

    def constant(name: str) -> float:
        raise SchemaError("", f"holds {name}, which is not a finite number")

    def once(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        """An object whose keys are each given once (json keeps the last of two silently)."""
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise SchemaError("", f"gives the key {key!r} twice in one object")
            seen.add(key)
        return dict(pairs)

    depth = _depth(text)
    if depth > DEPTH_LIMIT:
        raise SchemaError("", f"is nested {depth:,} levels deep (at most {DEPTH_LIMIT} are allowed)")
    try:
        return json.loads(text, parse_int=whole, parse_float=real, parse_constant=constant, object_pairs_hook=once)
    except json.JSONDecodeError as exc:
        raise SchemaError("", f"is not valid JSON ({exc.msg}: line {exc.lineno}, column {exc.colno})") from None
    except RecursionError:  # pragma: no cover - _depth refuses such documents first
        raise SchemaError("", "is nested too deeply") from None


def _depth(text: str) -> int:
    """The deepest nesting of brackets outside strings (a scan, so that a deep document never recurses)."""
    depth = deepest = 0
    for c in _BRACKETS.findall(_STRING.sub("", text)):
        depth += 1 if c in "[{" else -1
        deepest = max(deepest, depth)
    return deepest


_STRING = re.compile(r'"(?:[^"\\]|\\.)*"')
_BRACKETS = re.compile(r"[\[\]{}]")
