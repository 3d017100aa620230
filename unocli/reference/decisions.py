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

from unocli.game.cards import DRAW_TWO, N_COLOURS, WILD_DRAW_FOUR, colour_of, rank_of
from unocli.game.policies import ColourChoice, MatchPreference, Respond, SwapTarget

if TYPE_CHECKING:
    from unocli.reference.engine import Round

STACK, CHALLENGE, ACCEPT = "stack", "challenge", "accept"


class PolicyDecider:
    """Decisions from policies and the round's play stream."""

    #: Are the decisions a function of the round's state and play stream alone? The
    #: engine's stuck-round test (docs/rules.md §11.15) relies on it; a scripted decider
    #: that remembers what it did must set this to False.
    stateless = True

    #: A colour already chosen for the Wild about to be played (by a search, with the card),
    #: declared by :meth:`colour` once without a draw; None: the policy's colour knob decides.
    forced_colour: int | None = None

    # --- cards ------------------------------------------------------------

    def bluff(self, rnd: Round, seat: int) -> bool:
        """Play an illegal Wild Draw Four now (a bluff)? Only in the policy's situations (§13)."""
        pol = rnd.policies[seat]
        if not pol.bluffs_at(rnd.hand_size(rnd.next_seat(seat)), rnd.hand_size(seat)):
            return False
        return rnd.rng.chance(pol.bluff)

    def choose_card(self, rnd: Round, seat: int, options: list[int]) -> int:
        """One of ``options`` (legal card types with multiplicity, sorted), to play or to stack.

        Unless attacking, the policy's filters narrow the options first (§13
        ``keep_draws``, ``match``, then ``aim_lacked``); none leaves the options empty.
        """
        pol = rnd.policies[seat]
        if _attacking(rnd, seat):
            return _preferred(rnd, seat, options, rnd.priorities[seat][1])
        options = _aim_lacked(rnd, seat, _match(rnd, seat, _keep_draws(rnd, seat, options)))
        if pol.play == "random":
            return options[rnd.rng.below(len(options))]
        return _preferred(rnd, seat, options, rnd.priorities[seat][0])

    def play_drawn(self, rnd: Round, seat: int, card: int) -> bool:
        return rnd.rng.chance(rnd.policies[seat].play_drawn)

    def colour(self, rnd: Round, seat: int) -> int:
        """Colour declared for a Wild or Wild Draw Four just played by ``seat``."""
        if self.forced_colour is not None:
            forced, self.forced_colour = self.forced_colour, None
            return forced
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
        if stackable and rnd.pending >= pol.stack_from and rnd.rng.chance(pol.stack):
            return STACK, self.choose_card(rnd, seat, stackable)
        return ACCEPT, -1

    def _wants_challenge(self, rnd: Round, seat: int) -> bool:
        """§13: the first informed rule that applies decides; else challenge with probability ``challenge``."""
        pol = rnd.policies[seat]
        info = rnd.plus4
        if pol.trust_if_lacked and info.lacked:
            return False
        if pol.challenge_if_hand and info.hand_before >= pol.challenge_if_hand:
            return True
        if pol.challenge_if_own_colour and info.shown:
            return True
        if pol.trust_if_seen and _in_sight(rnd, seat, info.colour_before) >= pol.trust_if_seen:
            return False
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


def _attacking(rnd: Round, seat: int) -> bool:
    """Does the attack preference apply (the next player holds at most ``attack_at`` cards)?"""
    pol = rnd.policies[seat]
    return bool(pol.attack) and 0 < pol.attack_at and rnd.hand_size(rnd.next_seat(seat)) <= pol.attack_at


def _keep_draws(rnd: Round, seat: int, options: list[int]) -> list[int]:
    """``keep_draws`` under stacking: the options without Draw Twos and Wild Draw Fours, if any are left."""
    if not (rnd.policies[seat].keep_draws and rnd.rules.stacking_on):
        return options
    rest = [c for c in options if c != WILD_DRAW_FOUR and rank_of(c) != DRAW_TWO]
    return rest or options


def _match(rnd: Round, seat: int, options: list[int]) -> list[int]:
    """``match``: drop the kind of match the policy does not prefer, when the other kind is there."""
    pref = rnd.policies[seat].match
    if pref is MatchPreference.ANY:
        return options
    colour = rnd.colour
    same = [c for c in options if colour_of(c) == colour]
    other = [c for c in options if colour_of(c) >= 0 and colour_of(c) != colour]  # twins of the top card's symbol
    if not same or not other:
        return options
    drop = other if pref is MatchPreference.COLOUR else same
    return [c for c in options if c not in drop]


def _aim_lacked(rnd: Round, seat: int, options: list[int]) -> list[int]:
    """``aim_lacked``: the options of the colour the next player last failed to match, if any."""
    if not rnd.policies[seat].aim_lacked:
        return options
    lacked = rnd.lacks[rnd.next_seat(seat)]
    aimed = [c for c in options if lacked >= 0 and colour_of(c) == lacked]
    return aimed or options


def _in_sight(rnd: Round, seat: int, colour: int) -> int:
    """Cards of ``colour`` ``seat`` can see: in the discard pile under the top card, and in its own hand."""
    if colour < 0:
        return 0
    under = sum(1 for c in rnd.discard[:-1] if colour_of(c) == colour)
    return under + rnd.colour_counts(seat)[colour]


def _preferred(rnd: Round, seat: int, options: list[int], priority: list[int]) -> int:
    """The option of lowest priority; ties go to the colour held most, then the lowest colour."""
    counts = rnd.colour_counts(seat)
    best = min(priority[c] for c in options)
    tied = [c for c in options if priority[c] == best]
    return min(tied, key=lambda c: (-counts[colour_of(c)] if colour_of(c) >= 0 else 0, c))
