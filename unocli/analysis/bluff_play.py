"""What every study of the bluff report shares: how it plays, the situations, the challenge policies.

:class:`Play` carries what a study needs to play games (seed, size, backend,
threads, a log); the bands name the situations a bluff is confined to (the
next player's hand and the bluffer's own, the +4 included, docs/rules.md §13);
the challenge policies are knob sets laid on a field's policy by
:func:`challenging`.

``random`` answers a +4 with ``respond = uniform`` (docs/rules.md §10, §13): it
challenges one time in two whatever the challenge knobs say, so a challenge
policy cannot be laid on it as a knob change alone. Its opponents switch to
``respond = knobs`` and keep every other decision random; without stacking
``respond = knobs`` with ``challenge = 0.5`` is random's own behaviour.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from unocli.game.policies import Policy, Respond
from unocli.run.backends import Backend
from unocli.run.precision import DEFAULT_MAX_GAMES
from unocli.study.arm import Arm
from unocli.study.compare import Comparison, compare

BIG = 108  # the knobs' upper bound: "no limit"
ANY = "any"
# The next player's hand size and the bluffer's own (the +4 included; 1 is the +4 alone, never a bluff).
NEXT_BANDS: tuple[tuple[str, int, int], ...] = (("1", 1, 1), ("2", 2, 2), ("3", 3, 3), ("4", 4, 4), ("5+", 5, BIG))
OWN_BANDS: tuple[tuple[str, int, int], ...] = (("2-3", 2, 3), ("4-6", 4, 6), ("7+", 7, BIG), (ANY, 1, BIG))
# the knobs a challenge policy sets: all of them, so a field's own informed rules never leak into "never" or "always"
CHALLENGE_RESET: dict[str, Any] = {
    "challenge": 0.0,
    "trust_if_lacked": False,
    "challenge_if_hand": 0,
    "challenge_if_own_colour": False,
    "trust_if_seen": 0,
}
CHALLENGE_KNOBS = frozenset(CHALLENGE_RESET)
# The opponents' challenge policies (knobs on top of the field's policy; every challenge knob set).
CHALLENGERS: tuple[tuple[str, dict[str, Any]], ...] = (
    ("never", CHALLENGE_RESET),
    ("0.25", {**CHALLENGE_RESET, "challenge": 0.25}),
    ("0.5", {**CHALLENGE_RESET, "challenge": 0.5}),
    ("always", {**CHALLENGE_RESET, "challenge": 1.0}),
    ("informed", {**CHALLENGE_RESET, "challenge": 0.25, "challenge_if_own_colour": True, "trust_if_lacked": True}),
)


@dataclass(frozen=True)
class Play:
    """How a study plays its games: run ``seed``, ``games`` deals per arm unless a study names its own, the
    target error and cap of an adaptive run, the backend and threads, and ``log`` for progress lines
    (each prefixed with ``name``)."""

    seed: int
    games: int
    backend: Backend | None = None
    threads: int | None = None
    log: Callable[[str], None] = print
    name: str = "bluff"
    target_error: float | None = None
    max_games: int = DEFAULT_MAX_GAMES


def run(play: Play, arms: Sequence[Arm], *, games: int | None = None, label: str = "", **kwargs: Any) -> Comparison:
    """:func:`~unocli.study.compare.compare` on ``play``'s seed: ``games`` deals per arm (``play.games`` and its
    target error when None)."""
    n = games if games is not None else play.games
    play.log(f"{play.name}: {label or 'arms'}: {len(arms)} arms x {n:,} games")
    target = play.target_error if games is None else None
    return compare(
        arms,
        games=n,
        seed=play.seed,
        target_error=target,
        max_games=play.max_games,
        threads=play.threads,
        backend=play.backend,
        **kwargs,
    )


def challenging(policy: Policy, knobs: dict[str, Any]) -> Policy:
    """``policy`` with a challenge policy's knobs; one that responds uniformly (random) switches to ``respond = knobs``,
    since under ``uniform`` the challenge knobs have no effect (docs/rules.md §13)."""
    chal = {k: v for k, v in knobs.items() if k in CHALLENGE_KNOBS}
    if chal and policy.respond is Respond.UNIFORM:
        return policy.replace(**knobs, respond=Respond.KNOBS)
    return policy.replace(**knobs)
