"""The analyses behind the reports: one module per question, each ``run(experiment, context) -> Section``.

Each module declares ``OPTIONS`` (the keys its experiments may set under
``[options]``: name -> (default, check)), optionally ``check(experiment)``
(returns ``"key: message"`` for a bad experiment, or None) and ``run``.
"""

from __future__ import annotations

from types import ModuleType

from unocli.report.analyses import bluff, game_length, generic_compare, generic_sweep, house_rules, seat_advantage, stacking
from unocli.report.analyses.common import Context

ANALYSES: dict[str, ModuleType] = {
    "compare": generic_compare,
    "sweep": generic_sweep,
    "game-length": game_length,
    "bluff": bluff,
    "stacking": stacking,
    "seat-advantage": seat_advantage,
    "house-rules": house_rules,
}

__all__ = ["ANALYSES", "Context"]
