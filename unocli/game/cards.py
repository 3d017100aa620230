"""The 108-card Uno deck as 54 card *types* (docs/rules.md §1).

A card type is a small integer. Coloured types are ``colour * 13 + rank`` with
colours red, yellow, green, blue (0-3) and ranks 0-9 (numbers), 10 Skip,
11 Reverse, 12 Draw Two; type 52 is the Wild and 53 the Wild Draw Four.
Identical physical cards share a type, so a hand is a multiset of types.
Both engines use these numbers; the tables below are the single source.
"""

from __future__ import annotations

from typing import Any

N_COLOURS = 4
N_RANKS = 13
N_TYPES = 54
DECK_SIZE = 108

RED, YELLOW, GREEN, BLUE = 0, 1, 2, 3
COLOUR_NAMES = ("red", "yellow", "green", "blue")
COLOUR_LETTERS = "RYGB"

SKIP, REVERSE, DRAW_TWO = 10, 11, 12
WILD = 52
WILD_DRAW_FOUR = 53
NO_COLOUR = -1

RANK_NAMES = (*tuple(str(r) for r in range(10)), "Skip", "Reverse", "Draw Two")
RANK_SHORT = (*tuple(str(r) for r in range(10)), "S", "R", "+2")


def card_type(colour: int, rank: int) -> int:
    """Type id of a coloured card."""
    return colour * N_RANKS + rank


def colour_of(card: int) -> int:
    """Colour of a card type, or ``NO_COLOUR`` for the two Wilds."""
    return card // N_RANKS if card < WILD else NO_COLOUR


def rank_of(card: int) -> int:
    """Rank 0-12 of a coloured card type, or -1 for the two Wilds."""
    return card % N_RANKS if card < WILD else -1


def is_wild(card: int) -> bool:
    return card >= WILD


def is_number(card: int) -> bool:
    return card < WILD and card % N_RANKS <= 9


def is_action_or_wild(card: int) -> bool:
    """Skip, Reverse, Draw Two, Wild or Wild Draw Four (docs/rules.md §8 no_action_finish)."""
    return card >= WILD or card % N_RANKS >= SKIP


def is_draw_two(card: int) -> bool:
    return card < WILD and card % N_RANKS == DRAW_TWO


def penalty_value(card: int) -> int:
    """Cards a Draw Two (2) or Wild Draw Four (4) makes the victim draw; 0 otherwise."""
    if card == WILD_DRAW_FOUR:
        return 4
    return 2 if is_draw_two(card) else 0


def points(card: int) -> int:
    """Score of a card left in a hand (docs/rules.md §1)."""
    if card >= WILD:
        return 50
    rank = card % N_RANKS
    return rank if rank <= 9 else 20


def copies(card: int) -> int:
    """How many physical cards of this type a deck holds."""
    if card >= WILD:
        return 4
    return 1 if card % N_RANKS == 0 else 2


def short_name(card: int) -> str:
    """Compact name: ``R5``, ``GS``, ``BR``, ``Y+2``, ``W``, ``W+4``."""
    if card == WILD:
        return "W"
    if card == WILD_DRAW_FOUR:
        return "W+4"
    return COLOUR_LETTERS[colour_of(card)] + RANK_SHORT[rank_of(card)]


def long_name(card: int) -> str:
    """Readable name: ``red 5``, ``green Skip``, ``Wild Draw Four``."""
    if card == WILD:
        return "Wild"
    if card == WILD_DRAW_FOUR:
        return "Wild Draw Four"
    return f"{COLOUR_NAMES[colour_of(card)]} {RANK_NAMES[rank_of(card)]}"


_SHORT_TO_TYPE = {short_name(t): t for t in range(N_TYPES)}
_ALIASES = {"+4": WILD_DRAW_FOUR, "WD4": WILD_DRAW_FOUR, "W4": WILD_DRAW_FOUR}


def parse_card(name: str) -> int:
    """Card type from a short name such as ``R5``, ``G+2``, ``YS``, ``W+4``."""
    key = name.strip().upper()
    if key in _SHORT_TO_TYPE:
        return _SHORT_TO_TYPE[key]
    if key in _ALIASES:
        return _ALIASES[key]
    raise ValueError(f"unknown card {name!r}: use a colour letter R/Y/G/B with 0-9, S, R or +2, or W, W+4")


def parse_cards(names: str | list[str]) -> list[int]:
    """Card types from a space-separated string or a list of short names."""
    if isinstance(names, str):
        names = names.split()
    return [parse_card(n) for n in names]


def canonical_deck() -> list[int]:
    """The 108 cards in type order: the deck before any shuffle."""
    return [t for t in range(N_TYPES) for _ in range(copies(t))]


# Tables for the kernel: small integer types keep them in L1 cache. Built on
# first use (module __getattr__), so the light CLI commands never load NumPy.
_TABLES = {
    "COLOUR_TABLE": (lambda: [colour_of(t) for t in range(N_TYPES)], "int8"),
    "RANK_TABLE": (lambda: [rank_of(t) for t in range(N_TYPES)], "int8"),
    "POINTS_TABLE": (lambda: [points(t) for t in range(N_TYPES)], "int16"),
    "COPIES_TABLE": (lambda: [copies(t) for t in range(N_TYPES)], "int8"),
    "CANONICAL_DECK": (canonical_deck, "int8"),
}


def __getattr__(name: str) -> Any:
    if name in _TABLES:
        import numpy as np  # only the kernel reads these tables

        values, dtype = _TABLES[name]
        table = np.array(values(), dtype=dtype)
        globals()[name] = table
        return table
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
