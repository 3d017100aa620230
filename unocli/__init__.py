"""unocli: settle Uno rule debates with evidence.

The package layout, from the bottom up:

- ``unocli.game``: cards, rules, policies, counters and random streams (plain data);
- ``unocli.reference``: the readable reference engine, the oracle, and traces;
- ``unocli.kernel``: the numba kernel, checked game by game against the reference;
- ``unocli.run``: shards, backends (local threads, Dask), accumulators, adaptive precision;
- ``unocli.study``: simulate, compare, sweep, tune and their statistics;
- ``unocli.report``: experiment files, the registry, the design runner and its views, plots and the analyses;
- ``unocli.balance``: balance baselines and the regression check for CI;
- ``unocli.cli``: the click commands, thin over the layers above.

``Rules``, ``Policy``, ``simulate`` and ``SimulationResult`` are importable from
here; they load lazily, so ``import unocli`` (and ``unocli --help``) does not
pay for numba, numpy or pandas.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from unocli.version import __version__

__all__ = ["Policy", "Rules", "SimulationResult", "__version__", "simulate"]

_LAZY = {
    "Policy": "unocli.game.policies",
    "Rules": "unocli.game.rules",
    "SimulationResult": "unocli.study.simulate",
    "simulate": "unocli.study.simulate",
}

if TYPE_CHECKING:
    from unocli.game.policies import Policy
    from unocli.game.rules import Rules
    from unocli.study.simulate import SimulationResult, simulate


def __getattr__(name: str) -> Any:
    # Lazy: the public names pull in numba and pandas, which light commands never need.
    if name in _LAZY:
        import importlib

        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(f"module 'unocli' has no attribute {name!r}")
