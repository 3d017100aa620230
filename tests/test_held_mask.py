"""The held-types masks follow the hands: bit t of ``held[s]`` is set iff seat s holds a card of type t.

``primitives._best_legal`` reads a seat's legal types from ``encode.WORKSPACE``'s ``held``
mask, so every write to ``hands`` must keep it: a card drawn or played, the deal, a seven_o
rotation and swap, a search's copies of the state and its re-deal of the hidden cards
(kernel/seen.py). A stale bit would make the kernel choose another card only in the games
that reach it; the differential tests see that through whole games, this test checks the
invariant itself in all three workspaces (the game, a rollout's copy, the re-deal) after
every few decisions of real rounds with searching seats, where every one of those writes
happens.
"""

from __future__ import annotations

import numpy as np
import pytest

from unocli.game.policies import parse_policy_spec
from unocli.game.rules import preset as rules_preset
from unocli.kernel import _cache  # noqa: F401  (the kernel's cache locators, as unocli.kernel installs them)
from unocli.kernel.encode import N_TYPES, ROTATIONS, SWAPS, encode_policies, encode_rules

# a searching seat at each table (copies and re-deals), knob-heavy and uniform seats around it
TABLES = [
    ("seven-o", ("search:budget=2", "smart", "random:search=on,budget=1", "strong")),
    ("party", ("strong", "search:budget=1", "random", "bluffer")),
    ("official", ("random", "basic:search=peek,budget=2", "strong")),
]


def _mask(hand: np.ndarray) -> int:
    return sum(1 << t for t in range(N_TYPES) if hand[t] > 0)


@pytest.mark.parametrize(("name", "specs"), TABLES, ids=[n for n, _ in TABLES])
def test_held_masks_equal_the_hands(name: str, specs: tuple[str, ...]) -> None:
    from unocli.kernel.batch import new_workspace
    from unocli.kernel.search_round import seen_after

    rules = rules_preset(name).replace(players=len(specs))
    ru = np.append(encode_rules(rules), np.int64(0))
    probs, ints, prio = encode_policies(tuple(parse_policy_spec(s) for s in specs))
    moved = 0
    for index in range(12):
        for stop in (0, 1, 3, 8, 20, 45, 90):
            ws, hs, ds = (new_workspace(ru, probs, ints, prio) for _ in range(3))
            seen_after(ws, hs, ds, 11, index, stop)
            for label, w in (("game", ws), ("rollout", hs), ("re-deal", ds)):
                for s in range(rules.players):
                    held = int(w["held"][0][s])
                    assert held == _mask(w["hands"][0][s]), (name, index, stop, label, s)
            moved += int(ws["row"][0][ROTATIONS] + ws["row"][0][SWAPS])
    if name == "seven-o":
        assert moved > 0  # the rotations and swaps were exercised
