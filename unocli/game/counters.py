"""What each round reports (docs/rules.md §9), shared by both engines and the API."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import IntEnum


class Outcome(IntEnum):
    """How a round (or match) ended."""

    WON = 0
    BLOCKED = 1
    CAPPED = 2
    STUCK = 3  # the round's whole state came back: it would repeat for ever (docs/rules.md §11.15)

    def __str__(self) -> str:
        return self.name.lower()


# The §9 counters, in the order of the kernel's per-game row.
COUNTERS: tuple[str, ...] = (
    "cards_played",
    "passes",
    "turns",
    "cards_drawn",
    "winner_points",
    "reshuffles",
    "plus4_played",
    "bluffs",
    "challenges",
    "challenges_won",
    "uno_forgotten",
    "uno_caught",
    "max_stack",
    "jump_ins",
    "swaps",
    "rotations",
    "skips",
    "max_draw",
)


@dataclass
class RoundStats:
    """The §9 counters of one round, plus its outcome and each seat's cards left."""

    players: int
    cards_played: int = 0
    passes: int = 0
    turns: int = 0
    cards_drawn: int = 0
    winner_points: int = 0
    reshuffles: int = 0
    plus4_played: int = 0
    bluffs: int = 0
    challenges: int = 0
    challenges_won: int = 0
    uno_forgotten: int = 0
    uno_caught: int = 0
    max_stack: int = 0
    jump_ins: int = 0
    swaps: int = 0
    rotations: int = 0
    skips: int = 0  # turns lost to a Skip, Draw Two, Wild Draw Four or two-player Reverse
    max_draw: int = 0  # the most cards one player drew at once as a penalty
    outcome: Outcome = Outcome.WON
    winner: int = -1
    first_player: int = -1  # the seat that took the first turn (after the start card's effect)
    dealer: int = -1
    first_to_one: int = -1  # the seat first left with one card by its own play (-1: nobody)
    cards_left: list[int] = field(default_factory=list)

    def counters(self) -> dict[str, int]:
        return {name: getattr(self, name) for name in COUNTERS}

    def as_row(self) -> dict[str, int]:
        """A flat record: counters, outcome, winner and ``cards_left_<seat>``."""
        row = {
            "outcome": int(self.outcome),
            "winner": self.winner,
            "first_player": self.first_player,
            "dealer": self.dealer,
            "first_to_one": self.first_to_one,
            **self.counters(),
        }
        for seat, left in enumerate(self.cards_left):
            row[f"cards_left_{seat}"] = left
        return row


@dataclass
class MatchStats:
    """A match to ``target_score``: its rounds and each seat's total."""

    players: int
    rounds: list[RoundStats] = field(default_factory=list)
    scores: list[int] = field(default_factory=list)
    winner: int = -1
    outcome: Outcome = Outcome.WON
