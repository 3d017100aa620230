"""The analyses behind the reports: one module per question, registered in :mod:`unocli.report.registry`.

This package imports none of them: ``from unocli.report.analyses import bluff``
imports bluff alone. :class:`Context` (the run context every analysis takes)
and the registry's lazy ``ANALYSES`` mapping are re-exported here for callers
that know them by this name.
"""

from __future__ import annotations

from unocli.report.analyses.common import Context
from unocli.report.registry import ANALYSES

__all__ = ["ANALYSES", "Context"]
