"""unocli: settle Uno rule debates with evidence."""

from .policies import Policy
from .rules import Rules

__version__ = "0.1.0"

__all__ = ["Policy", "Rules", "__version__"]
