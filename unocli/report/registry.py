"""The reports unocli can write: one line per analysis, imported only when it is used.

Each entry names the module under ``unocli/report/analyses/`` that answers the
question, the tables of an experiment file it plays (an ``[arms]`` or
``[grid]`` table it does not play is refused, not silently ignored), and
whether it belongs to the default set ``unocli report`` writes with no file
(from ``sims/NAME.toml``, in the order of this table).

An analysis module declares ``OPTIONS`` (the keys its experiments may set
under ``[options]``: name -> (default, check)), optionally
``check(experiment)`` (``"key: message"`` for a bad experiment, or None), and
``compute(experiment, context)`` (plays the games, returns a typed result,
without matplotlib) and ``render(result) -> Section``.

Nothing here imports an analysis: :func:`analysis` imports the one asked for,
so loading an experiment file or importing one analysis never runs the others.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from types import ModuleType


@dataclass(frozen=True)
class Report:
    """One registered analysis: its module (under ``unocli.report.analyses``), the tables it plays, default or not.

    ``kernels``: the compiled kernels its games use (``unocli.kernel.KERNELS``), for the compile notice.
    """

    module: str
    uses: tuple[str, ...]
    shipped: bool = False
    kernels: tuple[str, ...] = ("batch",)


# Adding a report: one line here, its experiment file in sims/ and its module in analyses/ (docs/design.md).
REPORTS: dict[str, Report] = {
    "compare": Report("generic_compare", ("arms",)),
    "sweep": Report("generic_sweep", ("grid",)),
    "game-length": Report("game_length", ("arms",), shipped=True),
    # its own bluff x challenge grid, sized by [options]; its decision table's rollouts search
    "bluff": Report("bluff", (), shipped=True, kernels=("batch", "decision")),
    "stacking": Report("stacking", ("arms",), shipped=True),
    "seat-advantage": Report("seat_advantage", ("arms",), shipped=True),  # refuses arms itself: the fields are its arms
    "house-rules": Report("house_rules", ("arms",), shipped=True),
    "skill": Report("skill", ("arms",)),  # the arms are rule sets; the player and fields are [options]
}

# The experiments `unocli report` writes with no file named, in report order (sims/NAME.toml).
DEFAULT_SET: tuple[str, ...] = tuple(name for name, r in REPORTS.items() if r.shipped)


def kernels(names: Iterable[str]) -> tuple[str, ...]:
    """The compiled kernels the registered analyses ``names`` use, each once (unknown names add none)."""
    return tuple(dict.fromkeys(k for name in names if name in REPORTS for k in REPORTS[name].kernels)) or ("batch",)


def analysis(name: str) -> ModuleType:
    """The module of the analysis registered as ``name`` (imported now, once)."""
    return importlib.import_module(f"unocli.report.analyses.{REPORTS[name].module}")


class _Analyses(Mapping[str, ModuleType]):
    """The registry as a read-only mapping name -> module; a module is imported when it is looked up."""

    def __getitem__(self, name: str) -> ModuleType:
        return analysis(name)

    def __iter__(self) -> Iterator[str]:
        return iter(REPORTS)

    def __len__(self) -> int:
        return len(REPORTS)

    def __contains__(self, name: object) -> bool:
        return name in REPORTS


ANALYSES: Mapping[str, ModuleType] = _Analyses()
