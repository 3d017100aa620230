"""The analyses behind the reports: one module per question.

Each module declares ``OPTIONS`` (the keys its experiments may set under
``[options]``: name -> (default, check)), optionally ``check(experiment)``
(returns ``"key: message"`` for a bad experiment, or None), and three
functions:

- ``compute(experiment, context)`` plays the games and returns a typed result
  (a frozen dataclass of numbers and DataFrames with named columns); it does
  not import matplotlib, so it can be tested and reused without it;
- ``render(result) -> Section`` writes the prose, tables and charts
  (:mod:`unocli.report.model`), formatting numbers with :mod:`unocli.report.fmt`;
- ``run(experiment, context) -> Section`` is ``render(compute(...))``.
"""

from __future__ import annotations

from types import ModuleType

from unocli.report.analyses import (
    bluff,
    game_length,
    generic_compare,
    generic_sweep,
    house_rules,
    seat_advantage,
    skill,
    stacking,
)
from unocli.report.analyses.common import Context

ANALYSES: dict[str, ModuleType] = {
    "compare": generic_compare,
    "sweep": generic_sweep,
    "game-length": game_length,
    "bluff": bluff,
    "stacking": stacking,
    "seat-advantage": seat_advantage,
    "house-rules": house_rules,
    "skill": skill,
}

__all__ = ["ANALYSES", "Context"]
