"""Shared helpers for the docs/rules.md scenario tests (tests/test_scenarios_*.py).

Scenario tests build a position (``Round.from_position``) or a scripted deck
(``Round.from_deck``), script the players' choices with a
:class:`ScriptedDecider`, play, and assert on concrete state. Expected values
come from the rule text, never from what the engine happened to print.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from unocli.game.cards import COLOUR_LETTERS, parse_card, parse_cards, short_name
from unocli.game.counters import Outcome
from unocli.game.policies import Policy
from unocli.game.rules import Rules
from unocli.reference.decisions import ACCEPT, CHALLENGE, STACK, PolicyDecider
from unocli.reference.engine import Round
from unocli.reference.events import Event, Kind

RED, YELLOW, GREEN, BLUE = 0, 1, 2, 3

# A policy that never draws a random number: plays the highest number first,
# declares the colour held most, never challenges, stacks, bluffs, jumps in or
# forgets Uno, always catches a forgotten Uno and plays a legal drawn card.
DET = Policy(
    play="high",
    colour="most_held",
    respond="knobs",
    challenge=0.0,
    stack=0.0,
    jump_in=0.0,
    bluff=0.0,
    forget_uno=0.0,
    catch_uno=1.0,
    play_drawn=1.0,
    swap_target="next",
)


def policies(n: int, **changes: Any) -> list[Policy]:
    """``n`` copies of :data:`DET`, with knob changes applied to every seat."""
    pol = DET.replace(**changes) if changes else DET
    return [pol] * n


def names(cards: Counter[int] | list[int]) -> list[str]:
    """Short names of a hand (a Counter) or a list of cards, sorted by card type."""
    items = sorted(cards.elements()) if isinstance(cards, Counter) else sorted(cards)
    return [short_name(c) for c in items]


def cards(text: str) -> list[str]:
    """``"R5 G+2"`` as the sorted short names :func:`names` returns."""
    return names(parse_cards(text))


def hand(rnd: Round, seat: int) -> list[str]:
    """Sorted short names of what ``seat`` holds."""
    return names(rnd.hands[seat])


def pile(rnd: Round) -> list[str]:
    """The draw pile, top first, as short names (not sorted)."""
    return [short_name(c) for c in rnd.draw_pile]


def discard(rnd: Round) -> list[str]:
    """The discard pile, top last, as short names."""
    return [short_name(c) for c in rnd.discard]


def colour(letter: str) -> int:
    """Colour index of ``"R"``, ``"Y"``, ``"G"`` or ``"B"``."""
    return COLOUR_LETTERS.index(letter)


def events(rnd: Round, kind: Kind | None = None) -> list[Event]:
    """The round's events, or only those of one kind."""
    return [e for e in rnd.events if kind is None or e.kind is kind]


def plays(rnd: Round) -> list[tuple[int, str, str]]:
    """Every card played: ``(seat, card, how)`` in order."""
    return [(e.seat, short_name(e.cards[0]), e.how) for e in events(rnd, Kind.PLAY)]


def draws(rnd: Round) -> list[tuple[int, int, str]]:
    """Every draw event: ``(seat, cards actually drawn, why)`` in order."""
    return [(e.seat, len(e.cards), e.how) for e in events(rnd, Kind.DRAW)]


def step(rnd: Round) -> bool:
    """One pass of ``Round.run``'s loop (cap check, stuck check, then a turn or a pending decision).

    Returns False once the round is over.
    """
    return rnd.step()


def steps(rnd: Round, k: int) -> bool:
    """Up to ``k`` steps; False if the round ended on the way."""
    for _ in range(k):
        if not step(rnd):
            return False
    return True


def deck_for(hands: list[str], start: str, rest: str = "") -> str:
    """A scripted deck that deals ``hands`` (listed from the first player on) one
    card at a time round the table (§11.14), then turns ``start``; ``rest`` is the
    draw pile, top first. Every hand must have the same size."""
    split = [h.split() for h in hands]
    size = len(split[0])
    assert all(len(h) == size for h in split), "hands must be the same size"
    dealt = [split[k][i] for i in range(size) for k in range(len(split))]
    return " ".join([*dealt, start, rest]).strip()


class ScriptedDecider(PolicyDecider):
    """A decider answering from queues of scripted answers, else from the policies.

    Each keyword names a decision method and gives a list of answers, popped in
    order, or a dict ``{seat: [answers]}`` for per-seat queues. When a queue is
    empty the parent :class:`PolicyDecider` answers. Answers:

    - ``bluff``, ``play_drawn``, ``forget_uno``, ``catch_uno``, ``jump_in``: bool
    - ``choose_card``: a card name, which must be one of the options offered
    - ``colour``: a colour letter ``"R"``/``"Y"``/``"G"``/``"B"`` or an index
    - ``respond``: ``"accept"``, ``"challenge"`` or a card name to stack
    - ``swap_target``: a seat

    Every call is recorded in ``calls`` as ``(method, seat, detail)``.
    """

    stateless = False  # it works through a script

    METHODS = (
        "bluff",
        "choose_card",
        "play_drawn",
        "colour",
        "forget_uno",
        "catch_uno",
        "respond",
        "jump_in",
        "swap_target",
    )

    def __init__(self, **queues: Any) -> None:
        unknown = set(queues) - set(self.METHODS)
        assert not unknown, f"unknown decision(s) {unknown}"
        self.queues: dict[str, Any] = {}
        for key, value in queues.items():
            self.queues[key] = {s: list(v) for s, v in value.items()} if isinstance(value, dict) else list(value)
        self.calls: list[tuple[str, int, Any]] = []

    def _next(self, method: str, seat: int) -> tuple[bool, Any]:
        queue = self.queues.get(method)
        if isinstance(queue, dict):
            queue = queue.get(seat)
        if queue:
            return True, queue.pop(0)
        return False, None

    def called(self, method: str) -> list[tuple[int, Any]]:
        """``(seat, detail)`` of every call of one decision method, in order."""
        return [(seat, detail) for m, seat, detail in self.calls if m == method]

    def bluff(self, rnd: Round, seat: int) -> bool:
        self.calls.append(("bluff", seat, None))
        got, answer = self._next("bluff", seat)
        return bool(answer) if got else super().bluff(rnd, seat)

    def choose_card(self, rnd: Round, seat: int, options: list[int]) -> int:
        self.calls.append(("choose_card", seat, names(options)))
        got, answer = self._next("choose_card", seat)
        if not got:
            return super().choose_card(rnd, seat, options)
        card = parse_card(answer)
        assert card in options, f"scripted {answer} is not among the options {names(options)}"
        return card

    def play_drawn(self, rnd: Round, seat: int, card: int) -> bool:
        self.calls.append(("play_drawn", seat, short_name(card)))
        got, answer = self._next("play_drawn", seat)
        return bool(answer) if got else super().play_drawn(rnd, seat, card)

    def colour(self, rnd: Round, seat: int) -> int:
        self.calls.append(("colour", seat, None))
        got, answer = self._next("colour", seat)
        if not got:
            return super().colour(rnd, seat)
        return COLOUR_LETTERS.index(answer) if isinstance(answer, str) else int(answer)

    def forget_uno(self, rnd: Round, seat: int) -> bool:
        self.calls.append(("forget_uno", seat, None))
        got, answer = self._next("forget_uno", seat)
        return bool(answer) if got else super().forget_uno(rnd, seat)

    def catch_uno(self, rnd: Round, seat: int, offender: int) -> bool:
        self.calls.append(("catch_uno", seat, offender))
        got, answer = self._next("catch_uno", seat)
        return bool(answer) if got else super().catch_uno(rnd, seat, offender)

    def respond(self, rnd: Round, seat: int, stackable: list[int], challenge_open: bool) -> tuple[str, int]:
        self.calls.append(("respond", seat, (names(stackable), challenge_open)))
        got, answer = self._next("respond", seat)
        if not got:
            return super().respond(rnd, seat, stackable, challenge_open)
        if answer == ACCEPT:
            return ACCEPT, -1
        if answer == CHALLENGE:
            assert challenge_open, "scripted a challenge that is not open"
            return CHALLENGE, -1
        card = parse_card(answer)
        assert card in stackable, f"scripted stack {answer} is not among {names(stackable)}"
        return STACK, card

    def jump_in(self, rnd: Round, seat: int) -> bool:
        self.calls.append(("jump_in", seat, short_name(rnd.top)))
        got, answer = self._next("jump_in", seat)
        return bool(answer) if got else super().jump_in(rnd, seat)

    def swap_target(self, rnd: Round, seat: int) -> int:
        self.calls.append(("swap_target", seat, None))
        got, answer = self._next("swap_target", seat)
        return int(answer) if got else super().swap_target(rnd, seat)


def position(
    hands: list[str],
    discard: str,
    draw: str = "",
    *,
    rules: Rules | None = None,
    pols: list[Policy] | None = None,
    decider: PolicyDecider | None = None,
    **kwargs: Any,
) -> Round:
    """``Round.from_position`` with as many players as hands and deterministic policies.

    Rule fields may be given as keywords (``stacking="plus2"``); ``colour`` may be a letter.
    """
    rule_fields = {k: kwargs.pop(k) for k in list(kwargs) if k in Rules.__dataclass_fields__}
    base = rules or Rules(players=len(hands))
    rules = base.replace(players=len(hands), **rule_fields)
    if isinstance(kwargs.get("colour"), str):
        kwargs["colour"] = colour(kwargs["colour"])
    return Round.from_position(
        rules,
        pols or policies(len(hands)),
        hands,
        discard=discard,
        draw=draw,
        decider=decider,
        **kwargs,
    )


__all__ = [
    "ACCEPT",
    "BLUE",
    "CHALLENGE",
    "DET",
    "GREEN",
    "RED",
    "STACK",
    "YELLOW",
    "Kind",
    "Outcome",
    "Round",
    "Rules",
    "ScriptedDecider",
    "cards",
    "colour",
    "deck_for",
    "discard",
    "draws",
    "events",
    "hand",
    "names",
    "pile",
    "plays",
    "policies",
    "position",
    "step",
    "steps",
]
