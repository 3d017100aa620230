"""The knob order of the policy arrays is derived from ``Policy`` (kernel/encode.py ``knob_order``).

A knob added to ``Policy`` must reach the kernel's arrays without anyone
remembering to list it; these tests add knobs to a temporary copy of
``Policy`` and read them back from the encoding.
"""

from __future__ import annotations

import dataclasses
from enum import StrEnum

import pytest

from unocli.game.attributes import meta
from unocli.game.policies import ColourChoice, Policy, Respond, SearchMode
from unocli.kernel import encode
from unocli.kernel.encode import FAST_KNOBS, INT_KNOBS, PROB_KNOBS, encode_policies, fast_round_tables, knob_order

# Written by hand (not read from the code): the knobs whose values are probabilities.
PROBABILITY_KNOBS = {"bluff", "challenge", "forget_uno", "catch_uno", "stack", "jump_in", "play_drawn"}


class Tone(StrEnum):
    CALM = "calm"
    LOUD = "loud"


def _with(cls: type, *fields: tuple[str, type, object]) -> type:
    """A temporary copy of ``cls`` with more knobs, the way a new knob would be added to Policy."""
    spec = [(name, kind, dataclasses.field(default=default, metadata=meta("test", lo=0, hi=9))) for name, kind, default in fields]
    return dataclasses.make_dataclass(f"New{cls.__name__}", spec, bases=(cls,), frozen=True)


def test_every_knob_has_a_slot_in_policy_order() -> None:
    names = [f.name for f in dataclasses.fields(Policy)]
    assert set(PROB_KNOBS) == PROBABILITY_KNOBS
    assert [n for n in names if n in PROBABILITY_KNOBS] == list(PROB_KNOBS)
    # every other knob has an integer slot of its name, but play (random_play) and attack (through attack_at)
    others = [("random_play" if n == "play" else n) for n in names if n not in PROBABILITY_KNOBS and n != "attack"]
    assert others == list(INT_KNOBS)
    assert len(set(INT_KNOBS)) == len(INT_KNOBS) == encode.N_INTS


def test_new_knobs_reach_the_encoding() -> None:
    cls = _with(Policy, ("new_count", int, 0), ("new_flag", bool, False), ("new_tone", Tone, Tone.CALM), ("new_p", float, 0.0))
    probs_order, ints_order = order = knob_order(cls)
    assert probs_order == (*PROB_KNOBS, "new_p")
    assert ints_order == (*INT_KNOBS, "new_count", "new_flag", "new_tone")
    pol = cls(new_count=7, new_flag=True, new_tone="loud", new_p=0.25, colour="next_lacks", respond="knobs", attack_at=2)
    probs, ints, _ = encode_policies((pol,), order)
    assert probs[0, probs_order.index("new_p")] == 0.25
    assert ints[0, ints_order.index("new_count")] == 7
    assert ints[0, ints_order.index("new_flag")] == 1
    assert ints[0, ints_order.index("new_tone")] == 1  # LOUD is the second member
    # the old knobs keep their values under the derived order (attack_at counts only with an attack order)
    assert ints[0, ints_order.index("colour")] == list(ColourChoice).index(ColourChoice.NEXT_LACKS)
    assert ints[0, ints_order.index("respond")] == list(Respond).index(Respond.KNOBS)
    assert ints[0, ints_order.index("attack_at")] == 0
    assert ints[0, ints_order.index("random_play")] == 1


def test_a_new_knob_can_be_restricted_in_the_fast_round() -> None:
    cls = _with(Policy, ("new_count", int, 0))
    tables = fast_round_tables(policy_cls=cls, knobs={**FAST_KNOBS, "new_count": (0,)})
    slots, codes = tables["ints"]
    slot = knob_order(cls)[1].index("new_count")
    assert slot in slots.tolist()
    assert codes[slots.tolist().index(slot)].tolist()[0] == 0


def test_a_knob_the_arrays_cannot_hold_is_refused() -> None:
    with pytest.raises(TypeError, match="new_text"):
        knob_order(_with(Policy, ("new_text", str, "")))


def test_the_derived_order_feeds_the_kernel_constants() -> None:
    assert encode.I["search"] == INT_KNOBS.index("search") and encode.I_SEARCH == encode.I["search"]
    assert encode.P_PLAY_DRAWN == PROB_KNOBS.index("play_drawn")
    probs, ints, _ = encode_policies((Policy(search=SearchMode.ON, budget=9, play_drawn=0.5),))
    assert ints[0, encode.I_SEARCH] == list(SearchMode).index(SearchMode.ON) and ints[0, encode.I_BUDGET] == 9
    assert probs[0, encode.P_PLAY_DRAWN] == 0.5
