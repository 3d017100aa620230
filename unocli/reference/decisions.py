"""How scripted players decide: every choice a policy knob controls.

The engine asks a *decider* at each decision point. :class:`PolicyDecider`
answers from the seat's :class:`~unocli.policies.Policy` and the play stream,
drawing random numbers in a fixed order that the kernel reproduces exactly.
Scenario tests can subclass it to script individual choices.

Randomness is consumed only where a choice is open: a uniform choice among one
option and a probability of 0 or 1 draw nothing.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from unocli.game.cards import N_COLOURS, colour_of
from unocli.game.policies import ColourChoice, Respond, SwapTarget

if TYPE_CHECKING:
    from unocli.reference.engine import Round

STACK, CHALLENGE, ACCEPT = "stack", "challenge", "accept"


class PolicyDecider:
    """Decisions from policies and the round's play stream."""

    #: Are the decisions a function of the round's state and play stream alone? The
    #: engine's stuck-round test (docs/rules.md §11.15) relies on it; a scripted decider
    #: that remembers what it did must set this to False.
    stateless = True

    # --- cards ------------------------------------------------------------

    def bluff(self, rnd: Round, seat: int) -> bool:
        """Play an illegal Wild Draw Four now (a bluff)?"""
        return rnd.rng.chance(rnd.policies[seat].bluff)

    def choose_card(self, rnd: Round, seat: int, options: list[int]) -> int:
        """One of ``options`` (legal card types with multiplicity, sorted)."""
        pol = rnd.policies[seat]
        nxt = rnd.hand_size(rnd.next_seat(seat))
        if pol.attack and 0 < pol.attack_at and nxt <= pol.attack_at:
            return _preferred(rnd, seat, options, rnd.priorities[seat][1])
        if pol.play == "random":
            return options[rnd.rng.below(len(options))]
        return _preferred(rnd, seat, options, rnd.priorities[seat][0])

    def play_drawn(self, rnd: Round, seat: int, card: int) -> bool:
        return rnd.rng.chance(rnd.policies[seat].play_drawn)

    def colour(self, rnd: Round, seat: int) -> int:
        """Colour declared for a Wild or Wild Draw Four just played by ``seat``."""
        pol = rnd.policies[seat]
        if pol.colour is ColourChoice.RANDOM:
            return rnd.rng.below(N_COLOURS)
        counts = rnd.colour_counts(seat)
        if pol.colour is ColourChoice.NEXT_LACKS:
            lacked = rnd.lacks[rnd.next_seat(seat)]
            if lacked >= 0 and counts[lacked] > 0:
                return lacked
        return max(range(N_COLOURS), key=lambda c: (counts[c], -c))

    # --- Uno --------------------------------------------------------------

    def forget_uno(self, rnd: Round, seat: int) -> bool:
        return rnd.rng.chance(rnd.policies[seat].forget_uno)

    def catch_uno(self, rnd: Round, seat: int, offender: int) -> bool:
        return rnd.rng.chance(rnd.policies[seat].catch_uno)

    # --- penalties ----------------------------------------------------------

    def respond(self, rnd: Round, seat: int, stackable: list[int], challenge_open: bool) -> tuple[str, int]:
        """Facing a +2/+4: ``(STACK, card)``, ``(CHALLENGE, -1)`` or ``(ACCEPT, -1)``."""
        pol = rnd.policies[seat]
        if pol.respond is Respond.UNIFORM:
            k = rnd.rng.below(len(stackable) + int(challenge_open) + 1)
            if k < len(stackable):
                return STACK, stackable[k]
            if challenge_open and k == len(stackable):
                return CHALLENGE, -1
            return ACCEPT, -1
        if challenge_open and self._wants_challenge(rnd, seat):
            return CHALLENGE, -1
        if stackable and rnd.rng.chance(pol.stack):
            return STACK, self.choose_card(rnd, seat, stackable)
        return ACCEPT, -1

    def _wants_challenge(self, rnd: Round, seat: int) -> bool:
        pol = rnd.policies[seat]
        info = rnd.plus4
        if pol.challenge_if_hand and info.hand_before >= pol.challenge_if_hand:
            return True
        if pol.challenge_if_own_colour and info.under_by_offender:
            return True
        return rnd.rng.chance(pol.challenge)

    # --- house rules --------------------------------------------------------

    def jump_in(self, rnd: Round, seat: int) -> bool:
        return rnd.rng.chance(rnd.policies[seat].jump_in)

    def swap_target(self, rnd: Round, seat: int) -> int:
        """Opponent a played 7 swaps hands with."""
        opponents = [rnd.seat_after(seat, k) for k in range(1, rnd.n)]
        target = rnd.policies[seat].swap_target
        if target is SwapTarget.RANDOM:
            return opponents[rnd.rng.below(len(opponents))]
        if target is SwapTarget.NEXT:
            return opponents[0]
        sizes = [rnd.hand_size(o) for o in opponents]
        best = min(sizes) if target is SwapTarget.FEWEST else max(sizes)
        return opponents[sizes.index(best)]


def _preferred(rnd: Round, seat: int, options: list[int], priority: list[int]) -> int:
    """The option of lowest priority; ties go to the colour held most, then the lowest colour."""
    counts = rnd.colour_counts(seat)
    best = min(priority[c] for c in options)
    tied = [c for c in options if priority[c] == best]
    return min(tied, key=lambda c: (-counts[colour_of(c)] if colour_of(c) >= 0 else 0, c))
