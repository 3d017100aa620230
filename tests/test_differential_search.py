"""Differential tests for search players: the kernel and the reference engine agree game by game.

The same games as ``tests/test_differential.py`` (kernel rows against rows built
from the reference engine), with ``search`` and ``peek`` seats at small budgets,
under several rules presets and table sizes, mixed tables included. The
reference engine plays every rollout in Python, so the game counts are small.
"""

from __future__ import annotations

import os
from collections.abc import Callable

import pytest
from naive import first_difference, reference_rows

from unocli.game import rules as rules_module
from unocli.game.policies import parse_policy_spec
from unocli.kernel import ROW_NAMES, play_rows
from unocli.reference import engine, search

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
    # searched +4 challenges without stacking (bluffers at the table), jump-ins, 7 targets at 4 players
    ("official", ("bluffer", "search:budget=2", "bluffer")),
    ("jump-in", ("search:budget=2", "basic", "basic", "smart:search=on,budget=1")),
    ("seven-o", ("basic", "search:budget=2", "basic", "basic")),
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


# Each decision a search makes inside a card's effects, with a table where it comes up: (the engine's name for
# the search's function, rules, seat specs, match). The match objective is searched by every decision of its seat.
COVER: dict[str, tuple[str, str, tuple[str, ...], bool]] = {
    "plus4": ("plus4_choice", "official", ("bluffer", "search:budget=1", "bluffer"), False),
    "jump-in": ("jump_choice", "jump-in", ("basic", "search:budget=1", "basic"), False),
    "swap": ("swap_choice", "seven-o", ("search:budget=1", "basic", "basic"), False),
    "match-objective": ("search_choice", "official", ("search:budget=1,objective=match", "bluffer"), True),
}


def _counting(calls: list[int], fn: Callable) -> Callable:
    def counted(*args, **kwargs):
        calls[0] += 1
        return fn(*args, **kwargs)

    return counted


@pytest.mark.parametrize("name", list(COVER))
def test_every_searched_decision_is_played_and_agrees(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The tables' games search each decision (counted in the reference engine) and both engines agree on them."""
    fn, preset, specs, match = COVER[name]
    rules = rules_module.preset(preset).replace(players=len(specs), target_score=150)
    policies = _policies(specs)
    calls = [0]
    owner = engine if hasattr(engine, fn) else search  # search_choice is called from search.hand_choice
    monkeypatch.setattr(owner, fn, _counting(calls, getattr(owner, fn)))
    kernel = play_rows(rules, policies, seed=SEED, start=0, count=GAMES, match=match, threads=1)
    reference = reference_rows(rules, policies, SEED, 0, GAMES, match=match)
    assert first_difference(kernel, reference, 0) is None
    assert calls[0] > 0, f"no {fn} in {GAMES} games"
