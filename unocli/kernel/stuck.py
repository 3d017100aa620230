"""Stuck rounds (docs/rules.md §11.15): has the round come back to a state it was in before?

``step.play`` asks before every decision (Brent's cycle detection over the whole state) unless the
rules are the quiet ones (``step.quiet_rules``); the search's rollouts and the bluff table ask too.
The twin of the reference engine's ``_repeats``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from unocli.kernel.bits import _move
from unocli.kernel.encode import (
    DECK_SIZE,
    KEPT_CHAIN,
    KEPT_COLOUR,
    KEPT_CURRENT,
    KEPT_DEAD,
    KEPT_DIRECTION,
    KEPT_DISC_N,
    KEPT_P4_BLUFF,
    KEPT_P4_CHALLENGEABLE,
    KEPT_P4_COLOUR,
    KEPT_P4_HAND,
    KEPT_P4_LACKED,
    KEPT_P4_OFFENDER,
    KEPT_P4_SHOWN,
    KEPT_PENDING,
    KEPT_PILE_LEFT,
    KEPT_PILE_POS,
    KEPT_TOP,
    KEPT_TOP_PLAYER,
    N_TYPES,
)


@njit(cache=True, _nrt=False)
def _keep_state(g, rs):
    """Keep the round's whole state (everything the next move depends on) for ``_repeats``."""
    g.kept[KEPT_CURRENT] = g.current
    g.kept[KEPT_DIRECTION] = g.direction
    g.kept[KEPT_COLOUR] = g.colour
    g.kept[KEPT_TOP] = g.top
    g.kept[KEPT_PILE_LEFT] = g.pile_len - g.pile_pos
    g.kept[KEPT_DISC_N] = g.disc_n
    g.kept[KEPT_PENDING] = g.pending
    g.kept[KEPT_TOP_PLAYER] = g.top_player
    g.kept[KEPT_DEAD] = g.dead
    g.kept[KEPT_CHAIN] = g.chain
    g.kept[KEPT_P4_OFFENDER] = g.p4_offender
    g.kept[KEPT_P4_BLUFF] = g.p4_bluff
    g.kept[KEPT_P4_HAND] = g.p4_hand
    g.kept[KEPT_P4_COLOUR] = g.p4_colour
    g.kept[KEPT_P4_SHOWN] = g.p4_shown
    g.kept[KEPT_P4_LACKED] = g.p4_lacked
    g.kept[KEPT_P4_CHALLENGEABLE] = g.p4_challengeable
    # Only the seated players: the seats past them stay empty for the whole run. Block copies
    # (_move): numba's loops over the fields' bytes stayed loops of single bytes.
    n = g.players
    _move(g.kept_lacks, np.int64(0), g.lacks, np.int64(0), n)
    _move(g.kept_shown, np.int64(0), g.shown, np.int64(0), n)
    _move(g.kept_hands, np.int64(0), g.hands, np.int64(0), n * N_TYPES)
    _move(g.kept_disc, np.int64(0), g.disc, np.int64(0), np.int64(N_TYPES))
    g.kept[KEPT_PILE_POS] = g.pile_pos
    for i in range(DECK_SIZE):  # the whole pile: a constant-size copy compiles to a few vector moves
        g.kept_pile[i] = g.pile[i]
    for i in range(4):
        g.kept_rs[i] = rs[i]
    g.kept_valid = 1


@njit(cache=True, _nrt=False)
def _same_rest(g):
    """The parts of the state ``_repeats`` did not compare yet equal the kept ones."""
    if (
        g.kept[KEPT_TOP_PLAYER] != g.top_player
        or g.kept[KEPT_DEAD] != g.dead
        or g.kept[KEPT_CHAIN] != g.chain
        or g.kept[KEPT_P4_OFFENDER] != g.p4_offender
        or g.kept[KEPT_P4_BLUFF] != g.p4_bluff
        or g.kept[KEPT_P4_HAND] != g.p4_hand
        or g.kept[KEPT_P4_COLOUR] != g.p4_colour
        or g.kept[KEPT_P4_SHOWN] != g.p4_shown
        or g.kept[KEPT_P4_LACKED] != g.p4_lacked
        or g.kept[KEPT_P4_CHALLENGEABLE] != g.p4_challengeable
    ):
        return False
    for s in range(g.players):  # as _keep_state: the seats past them never change
        if g.kept_lacks[s] != g.lacks[s] or g.kept_shown[s] != g.shown[s]:
            return False
        for t in range(N_TYPES):
            if g.kept_hands[s, t] != g.hands[s, t]:
                return False
    for t in range(N_TYPES):
        if g.kept_disc[t] != g.disc[t]:
            return False
    kept_pos = g.kept[KEPT_PILE_POS]
    for i in range(g.pile_len - g.pile_pos):  # the live cards (_repeats compared how many there are)
        if g.kept_pile[kept_pos + i] != g.pile[g.pile_pos + i]:
            return False
    return True


@njit(cache=True, inline="always", _nrt=False)
def _repeats(g, rs):
    """§11.15: is the round back in the state kept earlier (Brent's method)?

    The state is kept before the 1st, 2nd, 4th, 8th, ... decision; every
    decision compares with it. The cheap fields come first, so a state that
    differs costs a handful of comparisons; the play stream's first word
    leads: once a random draw has been made since the state was kept, it
    differs at every decision until the next keep, a branch the processor
    predicts (the seat to play, first before, matched one decision in n and
    cost ~10% of a random-policy round in mispredictions).
    """
    if (
        g.kept_valid != 0
        and g.kept_rs[0] == rs[0]
        and g.kept[KEPT_CURRENT] == g.current
        and g.kept[KEPT_TOP] == g.top
        and g.kept[KEPT_COLOUR] == g.colour
        and g.kept[KEPT_DIRECTION] == g.direction
        and g.kept[KEPT_PILE_LEFT] == g.pile_len - g.pile_pos
        and g.kept[KEPT_DISC_N] == g.disc_n
        and g.kept[KEPT_PENDING] == g.pending
        and g.kept_rs[1] == rs[1]
        and g.kept_rs[2] == rs[2]
        and g.kept_rs[3] == rs[3]
        and _same_rest(g)
    ):
        return True
    g.brent_since += 1
    if g.brent_since == g.brent_power:
        _keep_state(g, rs)
        g.brent_power *= 2
        g.brent_since = 0
    return False
