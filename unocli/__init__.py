"""unocli: settle Uno rule debates with evidence."""

__version__ = "0.1.0"

from .api import SimulationResult, simulate
from .policies import Policy
from .rules import Rules

__all__ = ["Policy", "Rules", "SimulationResult", "__version__", "simulate"]
