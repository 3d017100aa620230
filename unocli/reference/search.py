"""Search players in the reference engine: determinised rollouts (docs/search.md).

A seat whose ``search`` knob is on chooses the card it plays from its hand (and
a Wild's colour with it), a drawn card, its response to a pending penalty or to
a +4, whether to jump in and a 7's target by rollouts. Every option is tried
``budget`` times: rollout ``r`` re-deals the cards the seat cannot see
(:func:`determinise`, from its own stream), takes the option, then plays the
round to its end with every seat on the searcher's other knobs; the option whose
rollouts have the largest total value (:func:`value`: wins, or with the match
objective points) is taken. Ties go to the option the seat's own knobs would
take (:func:`policy_option` and the like), else to the first option (card-type
order, then colours red, yellow, green, blue). ``peek`` skips the re-deal: it
rolls out from the true state, an upper bound on what search can gain.

The kernel (``unocli/kernel/search.py``) does the same, draw for draw.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Iterable
from typing import TYPE_CHECKING

from unocli.game.cards import N_COLOURS, WILD, WILD_DRAW_FOUR, canonical_deck, colour_of
from unocli.game.counters import Outcome, RoundStats
from unocli.game.policies import ColourChoice, Objective, SearchMode, SwapTarget
from unocli.game.rng import PURPOSE_DETERMINISE, PURPOSE_ROLLOUT, Stream, search_key
from unocli.game.rules import WildDrawFour
from unocli.reference.decisions import ACCEPT, CHALLENGE, STACK, PolicyDecider
from unocli.reference.events import HAND, JUMP_IN, STACKED, RoundOver

if TYPE_CHECKING:
    from unocli.reference.engine import Round

Option = tuple[int, int]  # (card, colour); colour -1 when the card names none
CHALLENGE_CODE, ACCEPT_CODE = -2, -1  # a pending penalty's options other than a card (encode.RESPOND_*)
NO_CAP = 127  # no bound on a seat's cards of a colour (the kernel's encode.NO_CAP)
PLUS4, SWAP = "plus4", "swap"  # a rollout's option only (play_out): the response to the +4 just played, a 7's target
# a decision's kind, for its rollouts' streams (:func:`sub`; the kernel's search.DECIDE_*)
DECIDE_CARD, DECIDE_P4, DECIDE_JUMP, DECIDE_SWAP = range(4)
NMAX = 10  # most players at a table (encode.NMAX)


def searches(rnd: Round, seat: int) -> bool:
    """Does ``seat`` decide by search (``search`` on or ``peek``)?"""
    return rnd.policies[seat].search is not SearchMode.OFF


def sub(kind: int, seat: int) -> int:
    """The rollout streams' last word: 0 for a card, a drawn card or a pending penalty, else one per kind and seat."""
    return 0 if kind == DECIDE_CARD else kind * NMAX + seat


class Seen:
    """What the table has seen of the hands, for a search's re-deal (docs/search.md, "What the re-deal uses").

    ``cap[s][c]``: seat ``s`` holds at most that many cards of colour ``c`` (``NO_CAP``: no
    bound). Public: every seat sees the passes, draws and plays it comes from.
    ``known[s]``: cards seat ``s`` certainly holds, seen by seat ``known_by[s]`` alone (the
    challenger of its +4, §5), or -1. Every entry is a fact about the true hands, kept true
    as they change; a 7 swap or a 0 rotation forgets all of them.
    """

    def __init__(self, n: int) -> None:
        self.n = n
        self.forget()

    def forget(self) -> None:
        self.cap = [[NO_CAP] * N_COLOURS for _ in range(self.n)]
        self.known: list[Counter[int]] = [Counter() for _ in range(self.n)]
        self.known_by = [-1] * self.n

    def drew(self, seat: int, k: int) -> None:
        """``seat`` drew ``k`` unseen cards: each bound grows by ``k``."""
        if k:
            self.cap[seat] = [min(c + k, NO_CAP) for c in self.cap[seat]]

    def played(self, seat: int, card: int) -> None:
        """``seat`` put ``card`` down: one card of its colour fewer, and one fewer known if it was known."""
        c = colour_of(card)
        if c >= 0 and self.cap[seat][c] < NO_CAP:
            self.cap[seat][c] = max(self.cap[seat][c] - 1, 0)
        if self.known[seat][card] > 0:
            self.known[seat][card] -= 1

    def failed(self, seat: int, colour: int, kept: int, playing: int = -1) -> None:
        """``seat`` had no legal card on ``colour`` (so none of it), drew, and kept ``kept`` drawn cards.

        Only the last card drawn can have been playable, so it alone may be of ``colour``:
        at most 1 after a pass that kept cards, 0 when nothing was drawn; ``playing`` is the
        drawn card it is about to play (then only that card may be of ``colour``).
        """
        if playing >= 0:
            bound = 1 if colour_of(playing) == colour else 0
        else:
            bound = min(kept, 1)
        self.cap[seat][colour] = min(self.cap[seat][colour], bound)

    def challenged(self, offender: int, victim: int, hand: Iterable[int]) -> None:
        """The victim of ``offender``'s +4 challenged it and saw its hand (the cards after the +4)."""
        self.known[offender] = Counter(hand)
        self.known_by[offender] = victim


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


def determinise(rnd: Round, seat: int, stream: Stream, seen: Seen | None = None) -> None:
    """Re-deal what ``seat`` cannot see, keeping every hand's size, the draw pile's length and ``seen``.

    The unseen cards (the deck less ``seat``'s hand, the discard pile, top card
    included, and the opponents' cards ``seat`` was shown) are listed in card-type
    order and shuffled. Each opponent in seat order keeps the cards ``seat`` was
    shown and takes the first cards of the list its colour bounds allow; if they
    allow too few (the order starved it), the first cards left. The rest form the
    draw pile, top first, in list order. An opponent's last +4 was a bluff in the
    re-deal when its re-dealt hand holds the colour it was played on.
    """
    shown = [seen.known[s] if seen is not None and s != seat and seen.known_by[s] == seat else Counter() for s in range(rnd.n)]
    seen_cards = Counter(rnd.hands[seat])
    seen_cards.update(rnd.discard)
    for hand in shown:
        seen_cards.update(hand)
    unseen: list[int] = sorted((Counter(canonical_deck()) - seen_cards).elements())
    stream.shuffle(unseen)
    taken = [False] * len(unseen)
    for s in range(rnd.n):
        if s == seat:
            continue
        hand = Counter(shown[s])
        need = rnd.hand_size(s) - sum(hand.values())
        counts = [0] * N_COLOURS
        for card in hand.elements():
            if colour_of(card) >= 0:
                counts[colour_of(card)] += 1
        cap = seen.cap[s] if seen is not None else [NO_CAP] * N_COLOURS
        for bounded in (True, False):
            for i, card in enumerate(unseen):
                c = colour_of(card)
                if need <= 0 or taken[i] or (bounded and c >= 0 and counts[c] >= cap[c]):
                    continue
                taken[i] = True
                hand[card] += 1
                need -= 1
                if c >= 0:
                    counts[c] += 1
        rnd.hands[s] = hand
    rnd.draw_pile = [card for i, card in enumerate(unseen) if not taken[i]]
    p4 = rnd.plus4  # whether an opponent's last +4 was a bluff is hidden too: it follows from the re-dealt hand (§5)
    if p4.offender >= 0 and p4.offender != seat:
        restricted = rnd.rules.wild_draw_four is WildDrawFour.RESTRICTED
        bluff = restricted and p4.colour_before >= 0 and rnd.holds_colour(p4.offender, p4.colour_before)
        rnd.plus4 = dataclasses.replace(p4, bluff=bluff)


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


def play_out(rnd: Round, seat: int, card: int, how: str = HAND) -> RoundStats:
    """``seat`` takes option ``card`` now (``how``), then the round is played out (a rollout; kernel search._rollout).

    From the hand (HAND) a negative card is none: the card just drawn is kept. Facing a pending
    penalty (STACKED) a card is stacked, ``CHALLENGE_CODE`` challenges it and -1 accepts it;
    PLUS4: the same codes, ``seat`` being the victim of the +4 just played; SWAP: the 7's
    player ``seat`` swaps with seat ``card``; JUMP_IN: ``seat`` jumps in with ``card``, or
    (-1) lets the window go on to the seats after it.
    """
    respond = CHALLENGE if card == CHALLENGE_CODE else ACCEPT
    try:
        if how == STACKED:
            rnd._respond_with(seat, STACK if card >= 0 else respond, card)
        elif how == PLUS4:
            offender = rnd.plus4.offender
            last = rnd.hand_size(offender) == 0
            if not rnd._plus4_answer(seat, 4, last, respond) and last:
                rnd._end(Outcome.WON, offender)
        elif how == SWAP:
            rnd._swap_with(seat, card)
            rnd.current = rnd.next_seat(seat)
            rnd._jump_in_window(seat)
        elif how == JUMP_IN and card < 0:
            opener = rnd.top_player  # the window goes on from the seat after ``seat``
            jumper = rnd._jumper(opener, (seat - opener) * rnd.direction % rnd.n + 1)
            if jumper is not None:
                rnd._play(jumper, rnd.top, JUMP_IN)
        elif card < 0:
            rnd._pass(seat, True)
        else:
            rnd._play(seat, card, how)
    except RoundOver:
        return rnd.stats
    return rnd.run()


def rollout(sim: Round, seat: int, card: int, how: str) -> int:
    """``seat`` takes option ``card`` (:func:`play_out`), then the round is played out: 1 if ``seat`` wins, else 0."""
    return int(play_out(sim, seat, card, how).winner == seat)


def value(rnd: Round, stats: RoundStats, seat: int) -> int:
    """A finished rollout's value to ``seat`` (kernel search._value; docs/search.md, "The objective").

    The round objective: 1 if it won, else 0. The match objective: the points the round gives
    its winner, up to what the winner still needed to reach the target, times (players - 1)
    when the winner is ``seat`` and negated when it is another seat; 0 when nobody won.
    """
    if rnd.policies[seat].objective is Objective.ROUND:
        return int(stats.winner == seat)
    if stats.outcome is not Outcome.WON:
        return 0
    w = stats.winner
    gain = min(stats.winner_points, rnd.rules.target_score - rnd.match_scores[w])
    return (rnd.n - 1) * gain if w == seat else -gain


def search_scores(rnd: Round, seat: int, legal: list[int]) -> list[tuple[Option, int]]:
    """Every option of a card from the hand with the number of its ``budget`` rollouts that ``seat`` won."""
    return score_options(rnd, seat, options(rnd, seat, legal))


def score_options(
    rnd: Round, seat: int, opts: list[Option], how: str = HAND, kind: int = DECIDE_CARD
) -> list[tuple[Option, int]]:
    """Every option with the total value (:func:`value`) of its ``budget`` rollouts to ``seat`` (one re-deal per rollout).

    ``how``: how an option is taken (:func:`play_out`); ``kind``: the decision's, for the streams (:func:`sub`).
    """
    pol = rnd.policies[seat]
    rollout_policies = (pol.replace(search=SearchMode.OFF),) * rnd.n
    key = search_key(rnd.rng.s0, rnd.rng.s1, rnd.rng.s2, rnd.rng.s3, rnd.round_index, rnd.stats.turns)
    scores = [0] * len(opts)
    last = sub(kind, seat)
    for r in range(pol.budget):
        base = clone(rnd, rollout_policies, Stream(0, 0, 0), PolicyDecider())
        if pol.search is not SearchMode.PEEK:
            determinise(base, seat, Stream(key, r, PURPOSE_DETERMINISE, last), rnd.seen)
        for o, (card, colour) in enumerate(opts):
            sim = clone(base, rollout_policies, Stream(key, r, PURPOSE_ROLLOUT, last), RolloutDecider(colour))
            scores[o] += value(rnd, play_out(sim, seat, card, how), seat)
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


def hand_choice(rnd: Round, seat: int, legal: list[int]) -> int:
    """§12.7 step 2: the card a turn plays from the hand; a searching seat's by search, its Wild's colour with it."""
    if not searches(rnd, seat):
        return rnd.decider.choose_card(rnd, seat, legal)
    card, colour = search_choice(rnd, seat, legal)
    rnd.decider.forced_colour = colour if colour >= 0 else None
    return card


def plays_drawn(rnd: Round, seat: int, card: int) -> bool:
    """Play the playable card just drawn? A searching seat decides by search (with a Wild's colour)."""
    if not searches(rnd, seat):
        return rnd.decider.play_drawn(rnd, seat, card)
    chosen, colour = drawn_choice(rnd, seat, card)
    rnd.decider.forced_colour = colour if colour >= 0 else None
    return chosen >= 0


def search_choice(rnd: Round, seat: int, legal: list[int]) -> Option:
    """The option ``seat`` plays: the most rollouts won; of those tied, its knobs' own choice, else the first."""
    opts = options(rnd, seat, legal)
    if len(opts) == 1:
        return opts[0]
    return _best(score_options(rnd, seat, opts), policy_option(rnd, seat, legal))


def _best(scored: list[tuple[Option, int]], pref: Option) -> Option:
    best = max(score for _, score in scored)
    if dict(scored)[pref] == best:
        return pref
    return next(option for option, score in scored if score == best)


def drawn_options(card: int) -> list[Option]:
    """A playable drawn card's options: play it (a Wild once per colour: the hand is not empty after it), keep it."""
    play = [(card, c) for c in range(N_COLOURS)] if card >= WILD else [(card, -1)]
    return [*play, (-1, -1)]


def drawn_preference(rnd: Round, seat: int, card: int) -> Option:
    """The knobs' choice for a drawn card: play at ``play_drawn`` 1, keep at 0, else (a draw) the first option."""
    pol = rnd.policies[seat]
    opts = drawn_options(card)
    if pol.play_drawn <= 0.0:
        return opts[-1]
    if pol.play_drawn >= 1.0 and card >= WILD and pol.colour is not ColourChoice.RANDOM:
        return (card, PolicyDecider().colour(rnd, seat))
    return opts[0]


def drawn_choice(rnd: Round, seat: int, card: int) -> Option:
    """Play the drawn playable ``card`` (with a Wild's colour) or keep it (-1), by rollouts (kernel drawn_decision)."""
    return _best(score_options(rnd, seat, drawn_options(card)), drawn_preference(rnd, seat, card))


def pending_options(stackable: list[int], challenge_open: bool) -> list[Option]:
    """Facing a pending penalty: each distinct stackable card (a +4 once per colour), challenging when open, accepting."""
    out: list[Option] = []
    for card in sorted(set(stackable)):
        out.extend([(card, c) for c in range(N_COLOURS)] if card == WILD_DRAW_FOUR else [(card, -1)])
    if challenge_open:
        out.append((CHALLENGE_CODE, -1))
    return [*out, (ACCEPT_CODE, -1)]


def pending_preference(rnd: Round, seat: int, stackable: list[int], challenge_open: bool) -> Option:
    """The knobs' response, worked out on a copy of the play stream (the game's is not moved); else accepting."""
    saved = rnd.rng
    copy = Stream(0, 0, 0)
    copy.s0, copy.s1, copy.s2, copy.s3 = saved.s0, saved.s1, saved.s2, saved.s3
    rnd.rng = copy
    try:
        action, card = PolicyDecider().respond(rnd, seat, list(stackable), challenge_open)
        colour = PolicyDecider().colour(rnd, seat) if action == "stack" and card == WILD_DRAW_FOUR else -1
    finally:
        rnd.rng = saved
    option = (card, colour) if action == "stack" else (CHALLENGE_CODE if action == "challenge" else ACCEPT_CODE, -1)
    opts = pending_options(stackable, challenge_open)
    return option if option in opts else opts[-1]


def pending_choice(rnd: Round, seat: int, stackable: list[int], challenge_open: bool) -> tuple[str, int, int]:
    """(action, card, colour) facing a pending penalty, by rollouts (kernel pending_decision); one option: the knobs."""
    opts = pending_options(stackable, challenge_open)
    if len(opts) == 1:
        action, card = rnd.decider.respond(rnd, seat, stackable, challenge_open)
        return action, card, -1
    pref = pending_preference(rnd, seat, stackable, challenge_open)
    card, colour = _best(score_options(rnd, seat, opts, "stacked"), pref)
    if card >= 0:
        return "stack", card, colour
    return ("challenge" if card == CHALLENGE_CODE else "accept"), -1, -1


def plus4_choice(rnd: Round, victim: int) -> str:
    """A searching victim's response to the challengeable +4 just played (not stacked): CHALLENGE or ACCEPT.

    The options are challenging, then accepting; ties go to the knobs' response, worked out on
    a copy of the play stream (kernel search.p4_choice).
    """
    opts = [(CHALLENGE_CODE, -1), (ACCEPT_CODE, -1)]
    pref = pending_preference(rnd, victim, [], True)
    card, _ = _best(score_options(rnd, victim, opts, PLUS4, DECIDE_P4), pref)
    return CHALLENGE if card == CHALLENGE_CODE else ACCEPT


def jump_options(rnd: Round) -> list[Option]:
    """A jump-in window's options: jump in with the top card's twin, or not (-1)."""
    return [(rnd.top, -1), (-1, -1)]


def jump_choice(rnd: Round, seat: int) -> bool:
    """Does the searching ``seat``, offered a jump-in window, jump in (kernel search.jump_choice)?

    Ties go to the knobs: not with ``jump_in`` 0, else jumping (strictly between 0 and 1 they
    would draw: the first option).
    """
    opts = jump_options(rnd)
    pref = opts[1] if rnd.policies[seat].jump_in <= 0.0 else opts[0]
    return _best(score_options(rnd, seat, opts, JUMP_IN, DECIDE_JUMP), pref)[0] >= 0


def swap_options(rnd: Round, seat: int) -> list[Option]:
    """A 7's options: each opponent, in the direction of play from the next seat on."""
    return [(rnd.seat_after(seat, k), -1) for k in range(1, rnd.n)]


def swap_choice(rnd: Round, seat: int) -> int:
    """The opponent the searching ``seat``'s 7 swaps with (kernel search.swap_choice); ties to the knobs' target
    (``swap_target = random`` would draw: the first option)."""
    opts = swap_options(rnd, seat)
    pref = opts[0]
    if rnd.policies[seat].swap_target is not SwapTarget.RANDOM:
        pref = (PolicyDecider().swap_target(rnd, seat), -1)  # draws nothing but for random
    return _best(score_options(rnd, seat, opts, SWAP, DECIDE_SWAP), pref)[0]
