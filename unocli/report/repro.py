"""What a reader needs to play a report's games again: the figures of its reproducibility block (page and card)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from unocli.report.experiment import Experiment
from unocli.report.model import Section
from unocli.version import __version__


@dataclass(frozen=True)
class Reproduce:
    """What a reader needs to play a section's games again: the figures of its reproducibility block."""

    version: str
    experiment: str
    seed: int
    rules: str
    players: str
    games: int
    quick: bool
    command: str

    @classmethod
    def of(cls, exp: Experiment, section: Section, command: str) -> Reproduce:
        base = exp.base
        sets = ", ".join(f"{k}={v}" for k, v in base.sets)
        rules = base.rules + (f" with {sets}" if sets else "")
        if exp.arms:
            rules += "; arms: " + ", ".join(a.name for a in exp.arms)
        return cls(
            version=__version__,
            experiment=exp.path.name,
            seed=exp.seed,
            rules=rules,
            players=players_text(exp.players),
            games=int(section.meta.get("games", 0)),
            quick=exp.quick,
            command=command,
        )


def players_text(players: Sequence[int]) -> str:
    """``2-10``, ``2, 4 and 6`` or ``4``: the table sizes an experiment plays."""
    ps = sorted(players)
    if len(ps) > 2 and ps == list(range(ps[0], ps[-1] + 1)):
        return f"{ps[0]}-{ps[-1]}"
    return " and ".join([", ".join(map(str, ps[:-1])), str(ps[-1])]) if len(ps) > 1 else str(ps[0])
