"""Play-by-play narration of a round's event log (``unocli trace``).

:func:`narrate` turns the :class:`~unocli.reference.events.Event` list of one
round into lines a person can follow next to docs/rules.md; :func:`format_match`
does the same for every round of a match, with running scores.

The narrator replays the log on its own copy of the hands (the deal, every
draw, play, rotation and swap), so it can say how many cards each player
holds and what is left at the end. Lines that start a turn carry the turn
number, so the last number equals the round's ``turns`` counter.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from unocli.game.cards import COLOUR_NAMES, WILD_DRAW_FOUR, colour_of, long_name, points, rank_of
from unocli.game.rules import Rules, WildDrawFour
from unocli.reference.events import Event, Kind

if TYPE_CHECKING:
    from unocli.game.counters import MatchStats
    from unocli.game.policies import Policy

INDENT = "      "


def narrate(events: Sequence[Event], rules: Rules) -> list[str]:
    """The play-by-play of one round's events, one line per thing that happened."""
    narrator = Narrator(rules)
    narrator.feed(events)
    return narrator.lines


TRACE_TURNS = 200_000  # turns one trace plays at most: a match of capped rounds would run max_rounds x max_turns


def trace_game(
    rules: Rules, policies: Sequence[Policy], seed: int, index: int, *, as_match: bool = False, cap: int = TRACE_TURNS
) -> list[str]:
    """The narration of game ``index`` (a round, or a match with ``as_match``), at most ``cap`` turns of it.

    A game that would run past the cap (rounds that cannot end until
    ``max_turns``, a match of such rounds to ``max_rounds``) is played only up
    to the cap, and the last line says so and why; the turns narrated are the
    game's own, as the play stream does not depend on where it stops.
    """
    from dataclasses import replace

    from unocli.game.counters import MatchStats, Outcome
    from unocli.game.rng import PURPOSE_PLAY, Stream
    from unocli.reference.engine import Round, play_round

    if not as_match:
        capped = replace(rules, max_turns=min(rules.max_turns, cap))
        rnd = play_round(capped, tuple(policies), seed, index, log=True)
        lines = narrate(rnd.events, capped)
        if rnd.stats.outcome is Outcome.CAPPED and capped.max_turns < rules.max_turns:
            lines.append(_stopped(cap, f"the round was still going; it would run on to max_turns ({rules.max_turns:,})"))
        return lines
    rng = Stream(seed, index, PURPOSE_PLAY, 0)
    match = MatchStats(players=rules.players, scores=[0] * rules.players)
    rounds: list[Round] = []
    left = cap
    played = replace(rules, max_turns=min(rules.max_turns, cap))  # the cap is checked between rounds: at most 2 x cap turns
    for r in range(rules.max_rounds):
        rnd = Round.deal(played, tuple(policies), seed, index, round_index=r, rng=rng, log=True)
        stats = rnd.run()
        rounds.append(rnd)
        match.rounds.append(stats)
        left -= stats.turns
        if stats.outcome is Outcome.WON:
            match.scores[stats.winner] += stats.winner_points
            if match.scores[stats.winner] >= rules.target_score:
                match.winner, match.outcome = stats.winner, Outcome.WON
                return format_match(match, rounds, rules)
        if left <= 0 and r + 1 < rules.max_rounds:
            match.outcome = Outcome.CAPPED
            lines = format_match(match, rounds, rules)[:-1]
            return [*lines, _stopped(cap, f"no one has reached {rules.target_score} points after {len(rounds)} rounds")]
    match.outcome = Outcome.CAPPED
    return format_match(match, rounds, rules)


def _stopped(cap: int, why: str) -> str:
    return f"The trace stops here, at its cap of {cap:,} turns: {why}. No winner."


def format_match(match: MatchStats, rounds: Sequence, rules: Rules) -> list[str]:
    """Every round of a match narrated, with a header, running scores and the match result.

    ``rounds`` are the finished rounds (objects with ``.events`` and ``.stats``)
    as :func:`~unocli.reference.engine.play_match` returns them.
    """
    n = rules.players
    scores = [0] * n
    lines = [f"Match to {rules.target_score} points, {n} players."]
    for r, rnd in enumerate(rounds):
        dealer = (n - 1 + r) % n
        first = r % n
        lines.append("")
        lines.append(f"=== Round {r + 1}: seat {dealer} deals, seat {first} plays first ===")
        lines.extend(narrate(rnd.events, rules))
        stats = rnd.stats
        if int(stats.outcome) == 0 and stats.winner >= 0:
            scores[stats.winner] += stats.winner_points
        totals = ", ".join(f"seat {s} {scores[s]}" for s in range(n))
        lines.append(f"Scores after round {r + 1}: {totals}.")
    lines.append("")
    if match.winner >= 0:
        lines.append(
            f"Seat {match.winner} wins the match with {match.scores[match.winner]} points "
            f"after {len(rounds)} round{_s(len(rounds))}."
        )
    else:
        lines.append(
            f"No one reached {rules.target_score} points in {len(rounds)} rounds "
            f"(max_rounds): the match ends capped, with no winner."
        )
    return lines


def _s(k: int) -> str:
    return "" if k == 1 else "s"


def _cards(cards: Iterable[int]) -> str:
    return ", ".join(long_name(c) for c in cards)


def _count(k: int, what: str = "card") -> str:
    return f"{k} {what}{_s(k)}"


class Narrator:
    """Replays an event log on its own hands and writes one line per event."""

    def __init__(
        self,
        rules: Rules,
        *,
        hands: Sequence[Iterable[int]] | None = None,
        colour: int = -1,
        direction: int = 1,
    ) -> None:
        """``hands``, ``colour`` and ``direction`` describe the position when the log
        does not start with the deal (a scenario built with ``Round.from_position``)."""
        self.rules = rules
        self.n = rules.players
        self.hands: list[Counter[int]] = [Counter(h) for h in hands] if hands else [Counter() for _ in range(self.n)]
        self.lines: list[str] = []
        self.turn = 0
        self.colour = colour
        self.direction = direction
        self.started = hands is not None  # a card has been played (the start card's effects are over)
        self.last_play: Event | None = None
        self.evidence: tuple[int, ...] | None = None  # colour-in-force cards behind the last +4
        # A turn's draws: (seat, cards, continues after a reshuffle, ran dry); flushed as one line.
        self._run: tuple[int, list[int], bool, bool] | None = None
        self._run_continues = -1

    # ------------------------------------------------------------ plumbing

    def feed(self, events: Sequence[Event]) -> None:
        events = list(events)
        for i, event in enumerate(events):
            nxt = events[i + 1] if i + 1 < len(events) else None
            if not (event.kind is Kind.DRAW and event.how == "turn" and self._run and self._run[0] == event.seat):
                self._flush_draws(continued=event.kind is Kind.RESHUFFLE)
            getattr(self, f"_on_{event.kind.value}")(event, nxt)
        self._flush_draws()

    def _line(self, text: str, new_turn: bool = False) -> None:
        text = text[0].upper() + text[1:]
        if new_turn:
            self.turn += 1
            self.lines.append(f"{self.turn:>4}. {text}")
        else:
            self.lines.append(INDENT + text)

    def size(self, seat: int) -> int:
        return sum(self.hands[seat].values())

    def _left(self, seat: int) -> str:
        k = self.size(seat)
        return "no cards left" if k == 0 else f"{_count(k)} left"

    def _order(self, start: int) -> str:
        seats = [(start + k * self.direction) % self.n for k in range(self.n)]
        return " -> ".join(str(s) for s in seats)

    # ------------------------------------------------------------ set-up

    def _on_deal(self, e: Event, nxt: Event | None) -> None:
        self.n = len(e.hands) or self.n
        self.hands = [Counter(h) for h in e.hands]
        dealer = (e.seat - 1) % self.n
        size = len(e.hands[0]) if e.hands else self.rules.hand_size
        self._line(f"seat {dealer} deals {_count(size)} to each of {self.n} players; seat {e.seat} plays first.")
        for seat, hand in enumerate(e.hands):
            self._line(f"  seat {seat}: {_cards(hand)}")

    def _on_start_return(self, e: Event, nxt: Event | None) -> None:
        self._line("the turned card is a Wild Draw Four: it goes back into the draw pile, which is shuffled.")

    def _on_start(self, e: Event, nxt: Event | None) -> None:
        card = e.cards[0]
        first = e.seat
        dealer = (first - 1) % self.n
        name = long_name(card)
        if card == WILD_DRAW_FOUR:
            text = (
                f"start card: {name}. Only Wild Draw Fours are left to turn, so it stays and acts as a "
                f"Wild: seat {first} declares the colour."
            )
        elif colour_of(card) < 0:
            text = f"start card: {name}: seat {first} declares the colour, then plays."
        else:
            self.colour = colour_of(card)
            rank = rank_of(card)
            effect = {
                10: f"seat {first} loses the turn",
                11: f"the direction reverses and the dealer, seat {dealer}, plays first",
                12: f"seat {first} draws 2 and loses the turn",
            }.get(rank, f"{COLOUR_NAMES[self.colour]} is the colour")
            text = f"start card: {name}: {effect}."
        self._line(text)

    # ------------------------------------------------------------ plays

    def _on_play(self, e: Event, nxt: Event | None) -> None:
        self.started = True
        card = e.cards[0]
        seat = e.seat
        colour_before = self.colour
        if card == WILD_DRAW_FOUR and e.how != "stacked":
            self.evidence = tuple(sorted(c for c in self.hands[seat].elements() if colour_of(c) == colour_before))
        self.hands[seat][card] -= 1
        if self.hands[seat][card] <= 0:
            del self.hands[seat][card]
        if colour_of(card) >= 0:
            self.colour = colour_of(card)
        name = long_name(card)
        if e.how == "drawn":
            text, new_turn = f"seat {seat} plays the drawn {name}", False
        elif e.how == "stacked":
            text, new_turn = f"seat {seat} stacks {name} on the penalty", True
        elif e.how == "jump_in":
            text, new_turn = f"seat {seat} jumps in out of turn with {name}", True
        else:
            text, new_turn = f"seat {seat} plays {name}", True
        text += f" ({self._left(seat)})"
        if e.flag:
            text += f": a bluff, as seat {seat} holds {COLOUR_NAMES[colour_before]}"
        self.last_play = e
        self._line(text + ".", new_turn)

    def _on_colour(self, e: Event, nxt: Event | None) -> None:
        self.colour = e.value
        what = " for the start card" if not self.started else ""
        self._line(f"seat {e.seat} declares {COLOUR_NAMES[e.value]}{what}.")

    def _on_skip(self, e: Event, nxt: Event | None) -> None:
        self._line(f"seat {e.seat} loses the turn.")

    def _on_reverse(self, e: Event, nxt: Event | None) -> None:
        self.direction = -self.direction
        if not self.started:
            self._line(f"play runs the other way: {self._order(e.seat)}.")
        elif self.n == 2:
            self._line(f"the direction reverses; with two players that is a Skip: seat {e.seat} plays again.")
        else:
            self._line(f"the direction reverses: play now runs {self._order(e.seat)}.")

    # ------------------------------------------------------------ drawing

    def _on_draw(self, e: Event, nxt: Event | None) -> None:
        seat, got, wanted = e.seat, e.cards, e.value
        self.hands[seat].update(got)
        short = f" (only {len(got)} could be drawn)" if len(got) < wanted else ""
        if e.how == "turn":  # one line for a turn's draws (several under draw_until_playable)
            if self._run is None:
                self._run = (seat, [], self._run_continues == seat, False)
            self._run[1].extend(got)
            self._run = (*self._run[:3], not got)
            self._run_continues = -1
            return
        reason = {
            "penalty": "as the penalty",
            "uno": "as the Uno penalty",
            "challenge": "for the challenge",
            "start": "for the start Draw Two",
        }.get(e.how, f"({e.how})")
        listed = f": {_cards(got)}" if got else ""
        self._line(f"seat {seat} draws {_count(len(got))} {reason}{short}{listed}.")

    def _flush_draws(self, continued: bool = False) -> None:
        """Write the pending line of a turn's draws; ``continued``: a reshuffle interrupts it."""
        if self._run is None:
            return
        seat, got, goes_on, dry = self._run
        self._run = None
        self._run_continues = seat if continued else -1
        if goes_on:
            text = f"seat {seat} draws on: {_cards(got)}" if got else f"seat {seat} finds no card to draw"
        elif not got:
            text = f"seat {seat} cannot play, and there is no card left to draw"
        elif len(got) == 1:
            text = f"seat {seat} cannot play and draws {_cards(got)}"
        else:
            text = f"seat {seat} cannot play and draws {len(got)} cards: {_cards(got)}"
        if got and dry:
            text += "; then no card is left to draw"
        self._line(text + ".", new_turn=not goes_on)

    def _on_pass(self, e: Event, nxt: Event | None) -> None:
        self._line(f"seat {e.seat} passes ({_count(self.size(e.seat))} in hand).")

    def _on_reshuffle(self, e: Event, nxt: Event | None) -> None:
        self._line(
            f"the draw pile is empty: the discard pile but its top card is shuffled into a new draw pile of {_count(e.value)}."
        )

    # ------------------------------------------------------------ penalties

    def _on_pending(self, e: Event, nxt: Event | None) -> None:
        options = "stack or draw"
        last = self.last_play
        if (
            last is not None
            and last.cards[0] == WILD_DRAW_FOUR
            and last.how != "stacked"
            and self.rules.challenge
            and self.rules.wild_draw_four is WildDrawFour.RESTRICTED
        ):
            options = "stack, challenge or draw"
        self._line(f"a penalty of {_count(e.value)} is pending: seat {e.seat} must {options}.")

    def _on_penalty(self, e: Event, nxt: Event | None) -> None:  # pragma: no cover - not emitted today
        self._line(f"seat {e.seat} takes a penalty of {_count(e.value)}.")

    def _on_challenge(self, e: Event, nxt: Event | None) -> None:
        victim, offender, colour = e.seat, e.target, COLOUR_NAMES[e.value]
        evidence = self.evidence if self.evidence is not None else e.cards
        text = f"seat {victim} challenges seat {offender}'s Wild Draw Four. "
        if e.flag:
            shown = _cards(evidence) if evidence else f"a {colour} card"
            text += (
                f"Seat {offender} held {shown} of the colour in force ({colour}): it was a bluff, "
                f"the challenge succeeds and seat {offender} draws the penalty."
            )
        else:
            text += (
                f"Seat {offender} held no {colour} card (the colour in force): the +4 was legal, "
                f"the challenge fails and seat {victim} draws the penalty plus 2."
            )
        self._line(text)

    # ------------------------------------------------------------ Uno

    def _on_uno(self, e: Event, nxt: Event | None) -> None:
        self._line(f'seat {e.seat} calls "Uno!"')

    def _on_uno_forgotten(self, e: Event, nxt: Event | None) -> None:
        if nxt is not None and nxt.kind is Kind.UNO_CAUGHT:
            self._line(f"seat {e.seat} forgets to call Uno...")
        else:
            self._line(f"seat {e.seat} forgets to call Uno, and no one notices.")

    def _on_uno_caught(self, e: Event, nxt: Event | None) -> None:
        self._line(f"seat {e.target} catches seat {e.seat} not calling Uno.")

    # ------------------------------------------------------------ seven_o

    def _on_rotate(self, e: Event, nxt: Event | None) -> None:
        d = e.value
        self.hands = [self.hands[(seat - d) % self.n] for seat in range(self.n)]
        moves = ", ".join(f"{s} -> {(s + d) % self.n}" for s in range(self.n))
        sizes = ", ".join(f"seat {s} {self.size(s)}" for s in range(self.n))
        self._line(f"the 0 passes every hand on ({moves}); cards now: {sizes}.")

    def _on_swap(self, e: Event, nxt: Event | None) -> None:
        a, b = e.seat, e.target
        self.hands[a], self.hands[b] = self.hands[b], self.hands[a]
        self._line(
            f"the 7: seat {a} swaps hands with seat {b} (seat {a} now holds {_count(self.size(a))}, "
            f"seat {b} {_count(self.size(b))})."
        )

    # ------------------------------------------------------------ the end

    def _on_end(self, e: Event, nxt: Event | None) -> None:
        outcome = e.how
        if outcome == "won":
            self._line(f"seat {e.seat} has no cards left and wins the round, scoring {e.value} points.")
            for seat in range(self.n):
                if seat == e.seat:
                    continue
                held = sorted(self.hands[seat].elements())
                worth = sum(points(c) for c in held)
                self._line(f"  seat {seat} holds {_count(len(held))} worth {worth}: {_cards(held) or '-'}")
        elif outcome == "blocked":
            self._line(f"no one can play or draw: after {self.n} passes in a row the round is blocked. No winner, no points.")
        elif outcome == "stuck":
            self._line(
                "the round is back in a state it was in before, with nothing left to change it: it would repeat "
                "for ever, so it ends stuck. No winner, no points."
            )
        else:
            self._line(f"the round reaches max_turns ({self.rules.max_turns} turns) and ends capped. No winner, no points.")
