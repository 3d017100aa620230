"""The version of unocli, in a module of its own so that every layer may import it."""

__version__ = "0.1.0"
