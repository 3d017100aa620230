"""The rule set: a frozen, self-validating dataclass (docs/rules.md §2, §7, §8).

A rule set is built from a named preset or a TOML file, then single fields are
overridden (``--set stacking=progressive``). Every invalid value raises
:class:`~unocli.errors.ConfigError` with a sentence naming the field.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path
from typing import Any

from unocli.errors import ConfigError
from unocli.files import load_toml
from unocli.game.attributes import Attributes, Presets
from unocli.game.attributes import meta as _meta  # the name tests/test_cache_stamp.py finds two field definitions by
from unocli.game.cards import DECK_SIZE


class Stacking(StrEnum):
    """Which penalty cards may be answered with another (docs/rules.md §8)."""

    OFF = "off"
    PLUS2 = "plus2"
    SAME = "same"
    PROGRESSIVE = "progressive"
    ANY = "any"


class WildDrawFour(StrEnum):
    """When a Wild Draw Four is a legal play (docs/rules.md §3)."""

    RESTRICTED = "restricted"
    FREE = "free"


@dataclass(frozen=True)
class Rules(Attributes):
    """One rule set. Defaults are the official Mattel rules for 4 players.

    The field order is the kernel's encoding (``RULE_FIELDS``, kernel/encode.py).
    """

    WHAT = "rule field"
    WHAT_PLURAL = "fields"

    players: int = field(default=4, metadata=_meta("number of players, 2-10", lo=2, hi=10))
    hand_size: int = field(default=7, metadata=_meta("cards dealt to each player (players * hand_size + 1 <= 108)", lo=1, hi=107))
    stacking: Stacking = field(
        default=Stacking.OFF,
        metadata=_meta(
            "answer a +2/+4 with another: off, plus2 (+2 on +2), same (+2 on +2, +4 on +4), "
            "progressive (same, and +4 on +2), any (progressive, and +2 of the declared colour on +4)"
        ),
    )
    seven_o: bool = field(
        default=False, metadata=_meta("a played 0 passes every hand on; a played 7 swaps hands with an opponent")
    )
    jump_in: bool = field(
        default=False, metadata=_meta("a player holding a card identical to the top card may play it out of turn")
    )
    draw_until_playable: bool = field(
        default=False, metadata=_meta("a player with no legal play draws until a drawn card is playable")
    )
    no_action_finish: bool = field(default=False, metadata=_meta("an action card or Wild may not be a player's last card"))
    wild_draw_four: WildDrawFour = field(
        default=WildDrawFour.RESTRICTED,
        metadata=_meta("restricted: +4 only without a card of the current colour (bluffs possible); free: any time"),
    )
    challenge: bool = field(default=True, metadata=_meta("the victim of a +4 may challenge it"))
    uno_penalty: int = field(default=2, metadata=_meta("cards drawn by a player caught not calling Uno", lo=0, hi=50))
    target_score: int = field(default=500, metadata=_meta("points that win a match", lo=1, hi=1_000_000))
    max_turns: int = field(
        default=10_000, metadata=_meta("turns after which a round ends capped (no winner)", lo=1, hi=10_000_000)
    )
    max_rounds: int = field(
        default=1000,
        metadata=_meta("rounds after which a match ends capped with no winner (a unocli safeguard)", lo=1, hi=100_000),
    )

    def __post_init__(self) -> None:
        super().__post_init__()
        if self.players * self.hand_size + 1 > DECK_SIZE:
            raise ConfigError(
                f"hand_size {self.hand_size} is too large for {self.players} players: "
                f"players * hand_size + 1 must be at most {DECK_SIZE} "
                f"(hand_size at most {(DECK_SIZE - 1) // self.players})"
            )

    @property
    def stacking_on(self) -> bool:
        return self.stacking is not Stacking.OFF


RULE_FIELDS: tuple[str, ...] = Rules.names()


# ---------------------------------------------------------------- presets

PRESETS = Presets(
    Rules,
    "rules preset",
    "presets",
    {
        "official": ("the Mattel rules: no house rules", {}),
        "stack-plus2": ("stacking +2 on +2", {"stacking": "plus2"}),
        "stack-same": ("stacking +2 on +2 and +4 on +4", {"stacking": "same"}),
        "stacking": ("progressive stacking: +2 on +2, +4 on +4 and +4 on +2", {"stacking": "progressive"}),
        "stack-any": ("stacking any penalty card, +2 on +4 in the declared colour", {"stacking": "any"}),
        "seven-o": ("0 rotates every hand, 7 swaps hands", {"seven_o": True}),
        "jump-in": ("play an identical card out of turn", {"jump_in": True}),
        "draw-until-playable": ("draw until a card can be played", {"draw_until_playable": True}),
        "no-action-finish": ("no going out on an action card or Wild", {"no_action_finish": True}),
        "free-plus4": ("Wild Draw Four legal at any time (no bluffs, no challenges)", {"wild_draw_four": "free"}),
        "no-challenge": ("a Wild Draw Four cannot be challenged", {"challenge": False}),
        "party": (
            "progressive stacking, 7-0, jump-in, draw until playable, no action finish",
            {
                "stacking": "progressive",
                "seven_o": True,
                "jump_in": True,
                "draw_until_playable": True,
                "no_action_finish": True,
            },
        ),
    },
)


def preset(name: str) -> Rules:
    """The rule set of a named preset."""
    rules: Rules = PRESETS.build(name)
    return rules


def parse_assignment(text: str, what: str = "--set") -> tuple[str, str]:
    """Split ``FIELD=VALUE``."""
    name, sep, value = text.partition("=")
    if not sep or not name.strip():
        raise ConfigError(f"{what} takes FIELD=VALUE, not {text!r}")
    return name.strip(), value.strip()


def load_rules_file(path: str | Path) -> Rules:
    """A rule set from a TOML file: optional ``base = "PRESET"`` plus fields.

    Fields may sit at the top level or under a ``[rules]`` table.
    """
    p = Path(path)
    data = load_toml(p, "rules file")
    if "rules" in data and isinstance(data["rules"], dict):
        # Rule fields in both places at once: the ones outside [rules] would be silently dropped.
        others = sorted(k for k in data if k in RULE_FIELDS or k == "base")
        if others:
            raise ConfigError(
                f"rules file {str(p)!r}: fields go at the top level or under [rules], not both ({others[0]!r} is outside [rules])"
            )
        data = data["rules"]
    base = data.pop("base", "official")
    if not isinstance(base, str):
        raise ConfigError(f"rules file {str(p)!r}: 'base' must name a preset")
    rules = preset(base)
    try:
        return rules.replace(**data)
    except ConfigError as exc:
        raise ConfigError(f"rules file {str(p)!r}: {exc}") from None


def resolve_rules(spec: str = "official", sets: tuple[str, ...] | list[str] = (), players: int | None = None) -> Rules:
    """Rules from ``--rules PRESET_OR_FILE``, ``--set FIELD=VALUE`` and ``--players``."""
    if spec in PRESETS:
        rules = preset(spec)
    elif spec.endswith(".toml") or _exists(spec):
        rules = load_rules_file(spec)
    else:
        rules = preset(spec)  # raises the unknown-preset message
    changes: dict[str, Any] = {}
    for item in sets:
        name, value = parse_assignment(item)
        Rules.check_names([name])
        changes[name] = value
    check_sets([parse_assignment(item)[0] for item in sets], players)
    if players is not None:
        changes["players"] = players
    return rules.replace(**changes) if changes else rules


def check_sets(names: list[str], players: int | None = None) -> None:
    """Refuse ``--set`` naming a field twice, or the table size both by ``--set players=`` and ``--players``: one
    of the two values would win without a word."""
    twice = next((n for i, n in enumerate(names) if n in names[:i]), None)
    if twice is not None:
        raise ConfigError(f"--set {twice}=... is given twice: give each rule field once")
    if players is not None and "players" in names:
        raise ConfigError("--players and --set players=... both give the table size: give it once")


def _exists(spec: str) -> bool:
    """Is ``spec`` a path that exists? (A name too long to be a path is not one: ``os.stat`` would raise.)"""
    try:
        return Path(spec).exists()
    except (OSError, ValueError):
        return False


def describe_fields() -> list[tuple[str, str]]:
    """(field, meaning) for every rule field, in order."""
    return Rules.describe()
