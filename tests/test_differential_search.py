"""Differential tests for search players: the kernel and the reference engine agree game by game.

The same games as ``tests/test_differential.py`` (kernel rows against rows built
from the reference engine), with ``search`` and ``peek`` seats at small budgets,
under several rules presets and table sizes, mixed tables included. The
reference engine plays every rollout in Python, so the game counts are small.
"""

from __future__ import annotations

import os

import pytest
from naive import first_difference, reference_rows

from unocli.game import rules as rules_module
from unocli.game.policies import parse_policy_spec
from unocli.kernel import ROW_NAMES, play_rows

GAMES = int(os.environ.get("UNOCLI_DIFFERENTIAL_SEARCH_GAMES", "12"))
SEED = 20261201
COL = {name: i for i, name in enumerate(ROW_NAMES)}

# (rules preset, seat specs): every table has a searching seat somewhere, not always seat 0
TABLES: list[tuple[str, tuple[str, ...]]] = [
    ("official", ("search:budget=2", "basic", "basic", "basic")),
    ("official", ("basic", "peek:budget=2")),
    ("official", ("random:search=on,budget=2", "random", "random")),  # uniform knobs: never the plain round
    ("stacking", ("smart", "search:budget=2", "strong")),
    ("seven-o", ("search:budget=1", "basic", "peek:budget=1", "smart")),
    ("jump-in", ("basic", "smart:search=on,budget=2")),
    ("draw-until-playable", ("search:budget=1", "hoarder", "basic")),
    ("no-action-finish", ("bluffer", "search:budget=2")),
    ("party", ("search:budget=1", "basic", "random:search=peek,budget=1")),
    ("free-plus4", ("aggressive", "skeptic", "search:budget=1", "basic", "basic")),
    # searched +4 challenges and stacks facing bluffs (stacking), a searched drawn card kept or played
    ("stacking", ("bluffer", "search:budget=2,challenge=0.5", "bluffer:search=on,budget=1")),
    ("draw-until-playable", ("basic", "hoarder:search=on,budget=2", "random:search=on,budget=1")),
]


def _policies(specs: tuple[str, ...]) -> tuple:
    return tuple(parse_policy_spec(s) for s in specs)


@pytest.mark.parametrize(("name", "specs"), TABLES, ids=[f"{n}-{len(s)}p-{i}" for i, (n, s) in enumerate(TABLES)])
def test_search_tables_agree(name: str, specs: tuple[str, ...]) -> None:
    rules = rules_module.preset(name).replace(players=len(specs))
    policies = _policies(specs)
    kernel = play_rows(rules, policies, seed=SEED, start=0, count=GAMES, threads=1)
    reference = reference_rows(rules, policies, SEED, 0, GAMES)
    problem = first_difference(kernel, reference, 0)
    assert problem is None, f"kernel and reference disagree:\n{problem}\nrules: {rules}\npolicies: {specs}"
    assert kernel[:, COL["turns"]].min() > 0


def test_search_matches_agree() -> None:
    """A match runs the search key's round index and the play stream on across rounds."""
    rules = rules_module.preset("official").replace(players=2, target_score=120)
    policies = _policies(("search:budget=1", "basic"))
    kernel = play_rows(rules, policies, seed=SEED, start=5, count=4, match=True, threads=1)
    reference = reference_rows(rules, policies, SEED, 5, 4, match=True)
    assert first_difference(kernel, reference, 5) is None
    assert kernel[:, COL["rounds"]].max() > 1  # some match went past its first round
