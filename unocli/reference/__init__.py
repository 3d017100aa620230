"""The readable reference engine: the oracle for the numba kernel."""

from unocli.reference.engine import Round, play_match, play_round

__all__ = ["Round", "play_match", "play_round"]
