"""Typed records of what happens in a round, for traces and scenario tests."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

HAND, DRAWN, STACKED, JUMP_IN = "hand", "drawn", "stacked", "jump_in"  # how a card is played (Event.how)


class RoundOver(Exception):
    """Raised to leave the turn loop when the round ends (reference/engine.py)."""


class Kind(StrEnum):
    DEAL = "deal"
    START = "start"  # the turned start card
    START_RETURN = "start_return"  # a start +4 goes back and the pile is shuffled
    PLAY = "play"
    DRAW = "draw"
    PASS = "pass"
    COLOUR = "colour"
    SKIP = "skip"
    REVERSE = "reverse"
    PENALTY = "penalty"  # a victim draws a +2/+4 penalty
    PENDING = "pending"  # a penalty grows and passes on (stacking)
    CHALLENGE = "challenge"
    UNO = "uno"
    UNO_FORGOTTEN = "uno_forgotten"
    UNO_CAUGHT = "uno_caught"
    RESHUFFLE = "reshuffle"
    ROTATE = "rotate"
    SWAP = "swap"
    END = "end"


@dataclass(frozen=True)
class Event:
    """One thing that happened. Fields not used by a kind keep their defaults.

    ``how`` says how a card was played (hand, drawn, stacked, jump_in) or why
    cards were drawn (turn, penalty, uno, challenge, start).
    """

    kind: Kind
    seat: int = -1
    cards: tuple[int, ...] = ()
    how: str = ""
    target: int = -1
    value: int = 0
    flag: bool = False
    hands: tuple[tuple[int, ...], ...] = field(default=())
