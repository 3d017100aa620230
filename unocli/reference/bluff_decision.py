"""The bluff at the decision, in the reference engine: the twin of ``unocli/kernel/bluff_decision.py``.

Games are played by a field (every seat one policy); at every turn where the
acting seat could bluff (a Wild Draw Four and a card of the colour in play,
docs/rules.md §3) the position is measured by rollouts with the search
machinery of :mod:`unocli.reference.search` (its re-deal, its copies, its
stream key), and the game goes on untouched. The kernel module's docstring
describes the measurement (selection and evaluation halves, the victim's
accepting and challenging answers); this one makes the same rows, draw for
draw, for the differential test.
"""

from __future__ import annotations

from unocli.game.cards import N_COLOURS, WILD_DRAW_FOUR
from unocli.game.policies import Policy
from unocli.game.rng import PURPOSE_DETERMINISE, PURPOSE_ROLLOUT, Stream, search_key
from unocli.game.rules import Rules
from unocli.reference.decisions import PolicyDecider
from unocli.reference.engine import HAND, Round
from unocli.reference.events import RoundOver
from unocli.reference.search import RolloutDecider, clone, determinise, options, rollout

#: The columns of a decision row, as the kernel's ``bluff_decision.COLUMNS``.
COLUMNS: tuple[str, ...] = (
    "game",
    "seat",
    "turn",
    "own_hand",
    "next_hand",
    "options",
    "alt_card",
    "alt_colour",
    "alt_select",
    *(f"accept_select_{c}" for c in range(N_COLOURS)),
    *(f"challenge_select_{c}" for c in range(N_COLOURS)),
    *(f"accept_{c}" for c in range(N_COLOURS)),
    *(f"challenge_{c}" for c in range(N_COLOURS)),
    "alt",
)


def _with_policies(sim: Round, policies: tuple[Policy, ...]) -> None:
    sim.policies = policies
    sim.priorities = [(p.priorities(False), p.priorities(True)) for p in policies]


def plus4_rollout(base: Round, seat: int, colour: int, field: tuple[Policy, ...], response: Policy, stream: Stream) -> int:
    """``seat`` plays its +4 naming ``colour``; the victim answers by ``response``'s knobs; the field plays out. 1 on a win."""
    victim = base.next_seat(seat)
    answering = tuple(response if s == victim else p for s, p in enumerate(field))
    sim = clone(base, answering, stream, RolloutDecider(colour))
    try:
        sim._play(seat, WILD_DRAW_FOUR, HAND)
    except RoundOver:
        return int(sim.stats.winner == seat)
    _with_policies(sim, field)
    return int(sim.run().winner == seat)


def measure(rnd: Round, seat: int, budget: int, accept: Policy, challenge: Policy) -> list[int]:
    """The row of ``seat``'s bluff position in ``rnd`` (column ``game`` left 0)."""
    field = (rnd.policies[seat],) * rnd.n  # search.search_scores: every seat plays the acting seat's knobs
    opts = options(rnd, seat, rnd.legal_cards(seat))
    key = search_key(rnd.rng.s0, rnd.rng.s1, rnd.rng.s2, rnd.rng.s3, rnd.round_index, rnd.stats.turns)
    row = dict.fromkeys(COLUMNS, 0)
    row |= {"seat": seat, "turn": rnd.stats.turns, "own_hand": rnd.hand_size(seat)}
    row |= {"next_hand": rnd.hand_size(rnd.next_seat(seat)), "options": len(opts)}
    scores = [0] * len(opts)
    for r in range(2 * budget):
        base = clone(rnd, field, Stream(0, 0, 0), PolicyDecider())
        determinise(base, seat, Stream(key, r, PURPOSE_DETERMINISE, 0), rnd.seen)
        if r == budget:
            best = max(range(len(opts)), key=lambda o: (scores[o], -o))  # the first of the most
            row |= {"alt_card": opts[best][0], "alt_colour": opts[best][1], "alt_select": scores[best]}
        half = "_select" if r < budget else ""
        for c in range(N_COLOURS):
            for name, response in (("accept", accept), ("challenge", challenge)):
                stream = Stream(key, r, PURPOSE_ROLLOUT, 0)
                row[f"{name}{half}_{c}"] += plus4_rollout(base, seat, c, field, response, stream)
        if r < budget:
            for o, (card, colour) in enumerate(opts):
                sim = clone(base, field, Stream(key, r, PURPOSE_ROLLOUT, 0), RolloutDecider(colour))
                scores[o] += rollout(sim, seat, card, HAND)
        else:
            sim = clone(base, field, Stream(key, r, PURPOSE_ROLLOUT, 0), RolloutDecider(row["alt_colour"]))
            row["alt"] += rollout(sim, seat, row["alt_card"], HAND)
    return [row[c] for c in COLUMNS]


def decisions(
    rules: Rules, field: Policy, accept: Policy, challenge: Policy, *, seed: int, start: int = 0, count: int, budget: int
) -> list[list[int]]:
    """The bluff positions of games ``start .. start + count - 1`` played by ``field`` at every seat, measured."""
    rows = []
    for index in range(start, start + count):
        rnd = Round.deal(rules, (field,) * rules.players, seed, index, log=False)
        while True:
            seat = rnd.current
            # the position as the kernel's loop measures it: before the step's stuck test
            if rnd.stats.turns < rules.max_turns and not rnd.pending and rnd.can_bluff(seat):
                rows.append([index, *measure(rnd, seat, budget, accept, challenge)[1:]])
            if not rnd.step():
                break
    return rows


__all__ = ["COLUMNS", "decisions", "measure", "plus4_rollout"]
