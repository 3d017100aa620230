"""What :class:`~unocli.game.rules.Rules` and :class:`~unocli.game.policies.Policy` share.

Both are frozen dataclasses of user-settable attributes (rule fields, policy
knobs), built from presets, TOML files and ``NAME=VALUE`` text. ("Field"
alone means a line-up of players in the reports.) This module holds the
machinery once:

- :func:`meta`: an attribute's help text and bounds (its dataclass metadata);
- :class:`Attributes`: the base class that checks and converts every attribute
  on construction, and gives ``replace``, ``to_dict``, ``names``, ``kinds`` and
  ``describe``;
- :class:`Presets`: a named registry of attribute values with its own error message.

How an attribute is converted follows from its annotation: ``bool``, ``int``
(within ``lo``..``hi``), ``float`` (a probability, 0 to 1), a ``StrEnum``, or
any type with a ``coerce`` function in its metadata. Every invalid value raises
:class:`~unocli.errors.ConfigError` with one sentence naming the attribute and
what is allowed.
"""

from __future__ import annotations

import dataclasses
import numbers
import sys
import typing
from collections.abc import Callable, Iterable
from enum import StrEnum
from typing import Any, ClassVar, Self

from unocli.errors import ConfigError
from unocli.game.limits import parse_whole

TRUE_WORDS = frozenset({"true", "yes", "on", "1"})
FALSE_WORDS = frozenset({"false", "no", "off", "0"})

Coerce = Callable[[str, Any], Any]  # (attribute name, value) -> converted value, or raise ConfigError


def meta(help: str, *, lo: int | None = None, hi: int | None = None, coerce: Coerce | None = None) -> dict[str, Any]:
    """The metadata of one attribute: help text, bounds (whole numbers) and an optional converter."""
    out: dict[str, Any] = {"help": help}
    if lo is not None:
        out["lo"], out["hi"] = lo, hi
    if coerce is not None:
        out["coerce"] = coerce
    return out


class Attributes:
    """Base of a frozen dataclass whose attributes a user sets.

    Subclasses name what an attribute is called in messages (``WHAT``, ``WHAT_PLURAL``:
    "rule field"/"fields", "policy knob"/"knobs").
    """

    WHAT: ClassVar[str] = "attribute"
    WHAT_PLURAL: ClassVar[str] = "attributes"

    def __post_init__(self) -> None:
        hints = _hints(type(self))
        for f in dataclasses.fields(self):  # type: ignore[arg-type]
            value = _coerce(self.WHAT, f, hints[f.name], getattr(self, f.name))
            object.__setattr__(self, f.name, value)

    @classmethod
    def names(cls) -> tuple[str, ...]:
        """Every attribute name, in declaration order."""
        return tuple(f.name for f in dataclasses.fields(cls))  # type: ignore[arg-type]

    @classmethod
    def kinds(cls) -> dict[str, Any]:
        """Every attribute's resolved annotation (``int``, ``float``, ``bool``, an enum, ``str``), in declaration order."""
        hints = _hints(cls)
        return {name: hints[name] for name in cls.names()}

    @classmethod
    def describe(cls) -> list[tuple[str, str]]:
        """(attribute, meaning) for every attribute, in order."""
        return [(f.name, f.metadata["help"]) for f in dataclasses.fields(cls)]  # type: ignore[arg-type]

    @classmethod
    def unknown_message(cls, name: str) -> str:
        return f"unknown {cls.WHAT} {name!r}; the {cls.WHAT_PLURAL} are: {', '.join(cls.names())}"

    @classmethod
    def check_names(cls, names: Iterable[str]) -> None:
        """Raise ConfigError naming the first unknown attribute (alphabetically) among ``names``."""
        unknown = set(names) - set(cls.names())
        if unknown:
            raise ConfigError(cls.unknown_message(sorted(unknown)[0]))

    def replace(self, **changes: Any) -> Self:
        """A copy with some attributes changed (validated)."""
        self.check_names(changes)
        return dataclasses.replace(self, **changes)  # type: ignore[type-var]

    def to_dict(self) -> dict[str, Any]:
        """Every attribute as plain JSON/TOML values (enums as their text)."""
        return {name: _plain(getattr(self, name)) for name in self.names()}


class Presets(dict[str, tuple[str, dict[str, Any]]]):
    """Named attribute values: ``{name: (description, {attribute: value})}``.

    ``what``/``plural`` name the registry in the unknown-name message
    ("rules preset"/"presets", "policy"/"policies").
    """

    def __init__(self, cls: type[Attributes], what: str, plural: str, entries: dict[str, tuple[str, dict[str, Any]]]) -> None:
        super().__init__(entries)
        self.cls, self.what, self.plural = cls, what, plural

    def build(self, name: str) -> Any:
        """The object of a named preset."""
        try:
            _, values = self[name]
        except KeyError:
            raise ConfigError(f"unknown {self.what} {name!r}; the {self.plural} are: {', '.join(self)}") from None
        return self.cls(**values)


# ---------------------------------------------------------------- conversion

_HINTS: dict[type, dict[str, Any]] = {}


def _hints(cls: type) -> dict[str, Any]:
    """The resolved annotations of ``cls`` (``from __future__ import annotations`` leaves strings), cached."""
    if cls not in _HINTS:
        _HINTS[cls] = typing.get_type_hints(cls)
    return _HINTS[cls]


def _plain(value: Any) -> Any:
    return str(value) if isinstance(value, StrEnum) else value


def _coerce(what: str, f: dataclasses.Field, kind: Any, value: Any) -> Any:
    """Check and convert one attribute's value, or raise ConfigError naming it."""
    label = f"{what} {f.name!r}"
    if "coerce" in f.metadata:
        return f.metadata["coerce"](label, value)
    if kind is bool:
        return to_bool(label, value)
    if kind is int:
        return to_int(label, value, f.metadata["lo"], f.metadata["hi"])
    if kind is float:
        return to_probability(label, value)
    if isinstance(kind, type) and issubclass(kind, StrEnum):
        return to_enum(label, value, kind)
    raise TypeError(f"no conversion for {f.name}: {kind}")  # pragma: no cover - a new field type without a coerce


def _numpy_bool(value: Any) -> bool:
    # A NumPy bool exists only once NumPy is loaded; not importing it keeps the light commands fast.
    np = sys.modules.get("numpy")
    return np is not None and isinstance(value, np.bool_)


def to_bool(label: str, value: Any) -> bool:
    """true/false, yes/no, on/off, 1/0 (text, a bool or the numbers 0 and 1)."""
    if isinstance(value, bool) or _numpy_bool(value):
        return bool(value)
    if isinstance(value, numbers.Integral) and value in (0, 1):
        return bool(value)
    if isinstance(value, str) and value.strip().lower() in TRUE_WORDS | FALSE_WORDS:
        return value.strip().lower() in TRUE_WORDS
    raise ConfigError(f"{label} must be true or false, not {value!r}")


def to_int(label: str, value: Any, lo: int, hi: int) -> int:
    """A whole number in ``lo..hi`` (a number or text such as ``"10_000"``; not a bool, not a float).

    Text is read by :func:`~unocli.game.limits.parse_whole`, as TOML reads a number (``"1__0"`` is refused).
    """
    number: Any = parse_whole(value) if isinstance(value, str) else value
    if isinstance(number, bool) or not isinstance(number, numbers.Integral):
        raise ConfigError(f"{label} must be a whole number between {lo} and {hi}, not {value!r}")
    number = int(number)
    if not lo <= number <= hi:
        raise ConfigError(f"{label} must be between {lo} and {hi}, not {number}")
    return number


def to_probability(label: str, value: Any) -> float:
    """A number from 0 to 1 (or text of one)."""
    try:
        p = None if isinstance(value, bool) else float(value)
    except (TypeError, ValueError):
        p = None
    if p is None or not 0.0 <= p <= 1.0:  # NaN fails the comparison too
        raise ConfigError(f"{label} must be a probability between 0 and 1, not {value!r}")
    return p


def to_enum(label: str, value: Any, enum: type[StrEnum]) -> Any:
    """A member of ``enum`` by its text, any case."""
    try:
        return enum(str(value).strip().lower())
    except ValueError:
        allowed = ", ".join(e.value for e in enum)
        raise ConfigError(f"{label} must be one of {allowed}, not {value!r}") from None
