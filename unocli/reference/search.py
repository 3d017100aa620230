"""Search players in the reference engine: determinised rollouts (docs/search.md).

A seat whose ``search`` knob is on chooses the card it plays from its hand, and
a Wild's colour with it, by rollouts. Every option is tried ``budget`` times:
rollout ``r`` re-deals the cards the seat cannot see (:func:`determinise`, from
its own stream), plays the option, then plays the round to its end with every
seat on the searcher's other knobs; the option that wins most rollouts is
played. Ties go to the option the seat's own knobs would play
(:func:`policy_option`), else to the first option (card-type order, then
colours red, yellow, green, blue). ``peek`` skips the re-deal: it rolls out from the true
state, an upper bound on what search can gain.

The kernel (``unocli/kernel/search.py``) does the same, draw for draw.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from typing import TYPE_CHECKING

from unocli.game.cards import N_COLOURS, WILD, WILD_DRAW_FOUR, canonical_deck
from unocli.game.policies import ColourChoice, SearchMode
from unocli.game.rng import PURPOSE_DETERMINISE, PURPOSE_ROLLOUT, Stream, search_key
from unocli.reference.decisions import PolicyDecider

if TYPE_CHECKING:
    from unocli.reference.engine import Round

Option = tuple[int, int]  # (card, colour); colour -1 when the card names none


class RolloutDecider(PolicyDecider):
    """The policies' decisions, except the colour of the option's Wild, which the search fixed."""

    def __init__(self, colour: int) -> None:
        self.forced_colour = colour if colour >= 0 else None


def options(rnd: Round, seat: int, legal: list[int]) -> list[Option]:
    """Each distinct legal card, a Wild once per colour (unless it is the last card: §12.9), in order."""
    out: list[Option] = []
    for card in sorted(set(legal)):
        if card == WILD_DRAW_FOUR or (card == WILD and rnd.hand_size(seat) > 1):
            out.extend((card, c) for c in range(N_COLOURS))
        else:
            out.append((card, -1))
    return out


def determinise(rnd: Round, seat: int, stream: Stream) -> None:
    """Re-deal what ``seat`` cannot see, keeping every hand's size and the draw pile's length.

    The unseen cards (the deck less ``seat``'s hand and the discard pile, top card
    included) are listed in card-type order, shuffled, dealt to the opponents in
    seat order, and the rest form the draw pile, top first.
    """
    seen = Counter(rnd.hands[seat])
    seen.update(rnd.discard)
    unseen = sorted((Counter(canonical_deck()) - seen).elements())
    stream.shuffle(unseen)
    pos = 0
    for s in range(rnd.n):
        if s == seat:
            continue
        size = rnd.hand_size(s)
        rnd.hands[s] = Counter(unseen[pos : pos + size])
        pos += size
    rnd.draw_pile = unseen[pos:]


def clone(rnd: Round, policies: tuple, rng: Stream, decider: PolicyDecider) -> Round:
    """A copy of the round's state to play on, with other policies, stream and decider, and no log."""
    sim = type(rnd)(rnd.rules, policies, rng, decider=decider, round_index=rnd.round_index, log=False)
    sim.stats = dataclasses.replace(rnd.stats, cards_left=list(rnd.stats.cards_left))
    sim.hands = [Counter(h) for h in rnd.hands]
    sim.draw_pile = list(rnd.draw_pile)
    sim.discard = list(rnd.discard)
    sim.colour, sim.direction, sim.current, sim.top_player = rnd.colour, rnd.direction, rnd.current, rnd.top_player
    sim.lacks, sim.shown = list(rnd.lacks), list(rnd.shown)
    sim.dead_passes, sim.pending, sim.chain = rnd.dead_passes, rnd.pending, rnd.chain
    sim.plus4 = dataclasses.replace(rnd.plus4)
    return sim


def rollout(sim: Round, seat: int, card: int) -> int:
    """``seat`` plays ``card`` from its hand, then the round is played out: 1 if ``seat`` wins, else 0."""
    return int(sim.play_out(seat, card).winner == seat)


def search_scores(rnd: Round, seat: int, legal: list[int]) -> list[tuple[Option, int]]:
    """Every option with the number of its ``budget`` rollouts that ``seat`` won."""
    pol = rnd.policies[seat]
    opts = options(rnd, seat, legal)
    rollout_policies = (pol.replace(search=SearchMode.OFF),) * rnd.n
    key = search_key(rnd.rng.s0, rnd.rng.s1, rnd.rng.s2, rnd.rng.s3, rnd.round_index, rnd.stats.turns)
    scores = [0] * len(opts)
    for r in range(pol.budget):
        base = clone(rnd, rollout_policies, Stream(0, 0, 0), PolicyDecider())
        if pol.search is not SearchMode.PEEK:
            determinise(base, seat, Stream(key, r, PURPOSE_DETERMINISE, 0))
        for o, (card, colour) in enumerate(opts):
            sim = clone(base, rollout_policies, Stream(key, r, PURPOSE_ROLLOUT, 0), RolloutDecider(colour))
            scores[o] += rollout(sim, seat, card)
    return list(zip(opts, scores, strict=True))


def policy_option(rnd: Round, seat: int, legal: list[int]) -> Option:
    """The option the seat's own knobs would play; the first option when they would draw a random number.

    Ties between rollout totals go to it (the kernel's ``search._policy_option``).
    """
    pol = rnd.policies[seat]
    opts = options(rnd, seat, legal)
    if pol.play == "random":
        return opts[0]
    card = PolicyDecider().choose_card(rnd, seat, list(legal))  # draws nothing without random play
    colour = -1
    if card == WILD_DRAW_FOUR or (card == WILD and rnd.hand_size(seat) > 1):
        colour = 0 if pol.colour is ColourChoice.RANDOM else PolicyDecider().colour(rnd, seat)
    return (card, colour) if (card, colour) in opts else opts[0]


def search_choice(rnd: Round, seat: int, legal: list[int]) -> Option:
    """The option ``seat`` plays: the most rollouts won; of those tied, its knobs' own choice, else the first."""
    opts = options(rnd, seat, legal)
    if len(opts) == 1:
        return opts[0]
    pref = policy_option(rnd, seat, legal)
    scored = search_scores(rnd, seat, legal)
    best = max(score for _, score in scored)
    if dict(scored)[pref] == best:
        return pref
    return next(option for option, score in scored if score == best)
