"""The hypothesis strategies of the test suite: rule sets, policies, tables, seeds.

One module, so the property tests (tests/test_properties.py) and the
differential tests (tests/test_differential.py) draw from the same space, and
that space is what the engines accept: every field over its whole valid range
(``Rules`` / ``Policy`` metadata), with the everyday values (small penalties,
small hands, short orders) drawn more often, because most bugs live there and
the large values are slow. A test that must exclude part of the space (a match
that has to end) says so with the keyword arguments, not with its own copy.
"""

from __future__ import annotations

from hypothesis import strategies as st

from unocli.game import policies as pol_module
from unocli.game.cards import DECK_SIZE
from unocli.game.policies import (
    CardClass,
    ColourChoice,
    MatchPreference,
    Objective,
    Policy,
    Respond,
    SearchMode,
    SwapTarget,
)
from unocli.game.rng import SEED_MAX
from unocli.game.rules import Rules, Stacking, WildDrawFour


def _bounds(cls: type, name: str) -> tuple[int, int]:
    meta = cls.__dataclass_fields__[name].metadata
    return meta["lo"], meta["hi"]


def _weighted_int(lo: int, hi: int, small: int) -> st.SearchStrategy[int]:
    """An integer in ``lo..hi``, drawn from ``lo..small`` half the time."""
    return st.one_of(st.integers(lo, min(small, hi)), st.integers(lo, hi))


# ---------------------------------------------------------------- seeds and game indices

seeds = st.one_of(st.sampled_from([0, 1, SEED_MAX]), st.integers(0, SEED_MAX))
"""A master seed: the edges, or any 64-bit value."""

game_indices = st.one_of(st.integers(0, 1000), st.integers(0, SEED_MAX))
"""The index of one game within a seed's run."""

starts = st.one_of(st.integers(0, 1000), st.integers(0, 2**62))
"""The first game index of a batch (room left for the batch above it)."""


# ---------------------------------------------------------------- rule sets

TURN_CAPS = st.one_of(st.integers(1, 60), st.integers(61, 3000), st.just(10_000))
"""``max_turns``: tiny caps (capped rounds, the jump-in window at the cap), moderate, the default.

Larger caps only cost time: a round that never ends (every Uno forgotten and
caught) runs to the cap in both engines.
"""

ROUND_CAPS = _weighted_int(*_bounds(Rules, "max_rounds"), small=5)
TARGET_SCORES = st.one_of(st.integers(1, 300), st.just(500), st.integers(*_bounds(Rules, "target_score")))


@st.composite
def rule_sets(
    draw,
    *,
    max_turns: st.SearchStrategy[int] = TURN_CAPS,
    target_score: st.SearchStrategy[int] = TARGET_SCORES,
    max_rounds: st.SearchStrategy[int] = ROUND_CAPS,
) -> Rules:
    """Any valid rule set: 2-10 players, any hand size that can be dealt, every house rule.

    Hand sizes: small ones mostly, sometimes the largest the deck allows (the
    draw pile runs dry, reshuffles, short draws). ``uno_penalty`` over its whole
    range 0-50, mostly 0-4.
    """
    players = draw(st.integers(*_bounds(Rules, "players")))
    largest = (DECK_SIZE - 1) // players
    hand_size = draw(
        st.one_of(st.integers(1, min(9, largest)), st.integers(max(1, largest - 5), largest), st.integers(1, largest))
    )
    return Rules(
        players=players,
        hand_size=hand_size,
        stacking=draw(st.sampled_from(list(Stacking))),
        seven_o=draw(st.booleans()),
        jump_in=draw(st.booleans()),
        draw_until_playable=draw(st.booleans()),
        no_action_finish=draw(st.booleans()),
        wild_draw_four=draw(st.sampled_from(list(WildDrawFour))),
        challenge=draw(st.booleans()),
        uno_penalty=draw(_weighted_int(*_bounds(Rules, "uno_penalty"), small=4)),
        target_score=draw(target_score),
        max_turns=draw(max_turns),
        max_rounds=draw(max_rounds),
    )


# ---------------------------------------------------------------- policies

probabilities = st.one_of(st.sampled_from([0.0, 0.5, 1.0]), st.floats(0.0, 1.0, allow_nan=False))
"""A probability knob: the values that draw no random number (0, 1) often."""


@st.composite
def orders(draw) -> str:
    """A play order: any prefix of a permutation of the card classes (not both high and low)."""
    classes = draw(st.permutations(list(CardClass)))
    chosen = classes[: draw(st.integers(1, len(classes)))]
    if CardClass.HIGH in chosen and CardClass.LOW in chosen:
        chosen.remove(CardClass.LOW if chosen.index(CardClass.HIGH) < chosen.index(CardClass.LOW) else CardClass.HIGH)
    return ">".join(c.value for c in chosen)


def _hand_knob(name: str) -> st.SearchStrategy[int]:
    """A hand-size knob (attack_at, challenge_if_hand) over its range 0-108, mostly 0-10."""
    return _weighted_int(*_bounds(Policy, name), small=10)


NO_SEARCH: st.SearchStrategy[SearchMode] = st.just(SearchMode.OFF)
ANY_SEARCH: st.SearchStrategy[SearchMode] = st.sampled_from(list(SearchMode))


@st.composite
def knob_policies(draw, *, finite: bool = False, search: st.SearchStrategy[SearchMode] = NO_SEARCH) -> Policy:
    """Any setting of the knobs.

    ``finite``: forget_uno at most 0.5, because a player who always forgets and
    is always caught draws at every Uno and never goes out (the round runs to
    max_turns, and a match never reaches its target).

    ``search``: off unless asked (:data:`ANY_SEARCH`), because a search seat
    plays ``budget`` rollouts per option at every turn (up to 100,000), which no
    property test can afford; tests/test_differential_search.py plays search
    on small budgets. ``budget`` is drawn either way (it only counts when search
    is on). A search seat always calls Uno, so forget_uno is 0 then.
    """
    next_range = sorted(draw(st.lists(_weighted_int(1, 108, small=8), min_size=2, max_size=2)))
    own_range = sorted(draw(st.lists(_weighted_int(1, 108, small=10), min_size=2, max_size=2)))
    mode = draw(search)
    return Policy(
        play=draw(st.one_of(st.just("random"), orders())),
        attack=draw(st.one_of(st.just(""), orders())),
        attack_at=draw(_hand_knob("attack_at")),
        colour=draw(st.sampled_from(list(ColourChoice))),
        bluff=draw(probabilities),
        bluff_next_min=next_range[0],
        bluff_next_max=next_range[1],
        bluff_own_min=own_range[0],
        bluff_own_max=own_range[1],
        respond=draw(st.sampled_from(list(Respond))),
        challenge=draw(probabilities),
        challenge_if_hand=draw(_hand_knob("challenge_if_hand")),
        challenge_if_own_colour=draw(st.booleans()),
        trust_if_lacked=draw(st.booleans()),
        trust_if_seen=draw(_hand_knob("trust_if_seen")),
        stack_from=draw(_weighted_int(0, 108, small=12)),
        keep_draws=draw(st.booleans()),
        aim_lacked=draw(st.booleans()),
        match=draw(st.sampled_from(list(MatchPreference))),
        forget_uno=0.0 if mode is not SearchMode.OFF else draw(st.floats(0.0, 0.5)) if finite else draw(probabilities),
        catch_uno=draw(probabilities),
        stack=draw(probabilities),
        jump_in=draw(probabilities),
        swap_target=draw(st.sampled_from(list(SwapTarget))),
        play_drawn=draw(probabilities),
        search=mode,
        budget=draw(_weighted_int(*_bounds(Policy, "budget"), small=16)),
        objective=draw(st.sampled_from(list(Objective))),  # as budget: it only counts when search is on
    )


def policies(*, finite: bool = False) -> st.SearchStrategy[Policy]:
    """A preset (``random``, ``basic``, ...) or any knob setting (see :func:`knob_policies`)."""
    presets = st.sampled_from(list(pol_module.PRESETS)).map(pol_module.preset)
    return st.one_of(presets, knob_policies(finite=finite))


@st.composite
def tables(draw, rules: st.SearchStrategy[Rules] | None = None, *, finite: bool = False) -> tuple[Rules, tuple[Policy, ...]]:
    """A rule set and one policy per seat: the same policy at every seat, or each its own."""
    rule_set = draw(rules if rules is not None else rule_sets())
    seat_policy = policies(finite=finite)
    if draw(st.booleans()):
        return rule_set, (draw(seat_policy),) * rule_set.players
    return rule_set, tuple(draw(seat_policy) for _ in range(rule_set.players))
