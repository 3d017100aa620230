"""A search's copy of a round (kernel/seen.py ``_copy_state``): two spans of the workspace record, copied whole.

The copy is two memory copies of constant size, so what it copies is decided by where the
fields sit in ``encode.WORKSPACE``: a field added inside a span would be copied, and a state
field added outside them would not. These tests pin both: the spans hold the state and one
field known to be harmless, and a copy leaves every state field equal and every other alone.
"""

from __future__ import annotations

import numpy as np
import pytest

from unocli.game.policies import parse_policy_spec
from unocli.game.rules import preset as rules_preset
from unocli.kernel.encode import NO_COLOUR, WORKSPACE, encode_policies, encode_rules
from unocli.kernel.seen import STATE_SPANS

# The round's state as a search copies it (the reference engine's Round less the policies).
STATE = {
    "direction", "current", "colour", "top", "top_player", "dead", "pending", "chain", "pile_pos", "pile_len",
    "disc_n", "p4_offender", "p4_bluff", "p4_hand", "p4_colour", "p4_shown", "p4_lacked", "p4_challengeable",
    "row", "hands", "held", "hsize", "ccount", "lacks", "shown", "disc", "pile",
}  # fmt: skip
# Inside the spans but harmless: the plain round's bit-sliced hands, never read by a search's workspaces.
HARMLESS = {"bits"}
# Copied one by one after the spans.
SCALARS = {"round_index", "force_colour"}


def test_the_spans_hold_the_state_and_one_harmless_field_only() -> None:
    inside = set()
    for name, (dtype, offset, *_) in WORKSPACE.fields.items():
        end = offset + dtype.itemsize
        if any(offset < stop and start < end for start, stop in STATE_SPANS):
            inside.add(name)
            assert any(start <= offset and end <= stop for start, stop in STATE_SPANS), f"{name} straddles a span"
    assert inside == STATE | HARMLESS


@pytest.mark.parametrize(
    ("name", "specs"),
    [("official", ("search:budget=2", "basic", "strong")), ("party", ("strong", "search:budget=1", "random", "bluffer"))],
)
def test_a_copy_makes_every_state_field_equal_and_leaves_the_rest(name: str, specs: tuple[str, ...]) -> None:
    from numba import njit

    from unocli.kernel.batch import new_workspace
    from unocli.kernel.search_round import seen_after
    from unocli.kernel.seen import _copy_state

    @njit
    def copy(src, dst):  # records by pointer, as the kernel passes them
        _copy_state(src[0], dst[0])

    rules = rules_preset(name).replace(players=len(specs))
    ru = np.append(encode_rules(rules), np.int64(0))
    probs, ints, prio = encode_policies(tuple(parse_policy_spec(s) for s in specs))
    rng = np.random.default_rng(5)
    for index, stop in ((0, 0), (1, 5), (2, 30), (3, 70)):
        ws, hs, ds = (new_workspace(ru, probs, ints, prio) for _ in range(3))
        seen_after(ws, hs, ds, 3, index, stop)
        dst = new_workspace(ru, probs, ints, prio)
        raw = dst.view(np.uint8)
        raw[:] = rng.integers(0, 256, raw.size, dtype=np.uint8)  # every byte other than the source's
        before = dst.copy()
        copy(ws, dst)
        for field in WORKSPACE.names:
            got, src, old = dst[field][0], ws[field][0], before[field][0]
            if field == "force_colour":
                assert got == NO_COLOUR
            elif field in HARMLESS:
                continue  # copied or not, never read
            elif field in STATE | SCALARS:
                assert np.array_equal(got, src), (field, index, stop)
            else:
                assert np.array_equal(got, old), (field, index, stop)
