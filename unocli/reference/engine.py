"""The reference engine: plain Python, written to be read next to docs/rules.md.

It is the oracle the numba kernel is checked against game by game, so it
favours clarity over speed. Section marks (§) point into docs/rules.md.

A :class:`Round` holds the whole state of one round. ``Round.deal`` sets one
up from the per-game random streams; ``Round.from_position`` builds any
position for scenario tests. ``run()`` plays to the end and returns the §9
counters; ``events`` is the play-by-play that ``unocli trace`` prints.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from unocli.game.cards import (
    DRAW_TWO,
    N_COLOURS,
    N_TYPES,
    REVERSE,
    SKIP,
    WILD,
    WILD_DRAW_FOUR,
    canonical_deck,
    colour_of,
    is_action_or_wild,
    is_draw_two,
    is_wild,
    parse_cards,
    penalty_value,
    points,
    rank_of,
)
from unocli.game.counters import MatchStats, Outcome, RoundStats
from unocli.game.policies import Policy
from unocli.game.rng import PURPOSE_DEAL, PURPOSE_PLAY, Stream
from unocli.game.rules import Rules, Stacking, WildDrawFour
from unocli.reference.decisions import CHALLENGE, STACK, PolicyDecider
from unocli.reference.events import DRAWN, HAND, JUMP_IN, STACKED, Event, Kind, RoundOver
from unocli.reference.search import (
    Seen,
    hand_choice,
    jump_choice,
    pending_choice,
    plays_drawn,
    plus4_choice,
    searches,
    swap_choice,
)


@dataclass
class Plus4Info:
    """What a victim may look at, and the truth, about the last Wild Draw Four."""

    offender: int = -1
    bluff: bool = False
    hand_before: int = 0  # cards the offender held before playing it
    colour_before: int = -1  # the colour in force before it
    shown: bool = False  # the offender's own last play showed colour_before (§13 challenge_if_own_colour)
    lacked: bool = False  # the offender was seen failing to match colour_before, not played since (§13 trust_if_lacked)
    evidence: tuple[int, ...] = ()  # the offender's cards of that colour when playing it (shown if challenged)
    challengeable: bool = False
    hand: tuple[int, ...] = ()  # the offender's cards after it, which a challenge shows


class Round:
    """One round of Uno under a rule set, with one policy per seat."""

    def __init__(
        self,
        rules: Rules,
        policies: tuple[Policy, ...] | list[Policy],
        rng: Stream,
        *,
        decider: PolicyDecider | None = None,
        round_index: int = 0,
        log: bool = True,
    ) -> None:
        if len(policies) != rules.players:
            raise ValueError(f"{len(policies)} policies for {rules.players} players")
        self.rules = rules
        self.n = rules.players
        self.policies = tuple(policies)
        self.priorities = [(p.priorities(False), p.priorities(True)) for p in self.policies]
        self.rng = rng
        self.decider = decider or PolicyDecider()
        self.round_index = round_index
        self.log = log
        self.events: list[Event] = []
        self.stats = RoundStats(players=self.n)

        self.hands: list[Counter[int]] = [Counter() for _ in range(self.n)]
        self.draw_pile: list[int] = []  # index 0 is the top
        self.discard: list[int] = []  # the last card is the top
        self.colour = -1  # the current colour (§3)
        self.direction = 1
        self.current = 0  # whose turn (or pending decision) is next
        self.top_player = -1  # who played the top card (-1: the start card)
        self.lacks = [-1] * self.n  # colour each seat last could not match
        self.shown = [-1] * self.n  # colour each seat's last play showed (its card's, or declared for a Wild)
        self.dead_passes = 0  # passes in a row that drew no card (§11.6)
        self.pending = 0  # pending penalty under stacking (§8)
        self.chain = 0  # +2/+4 cards in the current penalty chain
        self.plus4 = Plus4Info()
        self.seen = Seen(self.n)  # what the table has seen of the hands, for a search's re-deal (reference/search.py)
        self.match_scores = [0] * self.n  # a match's scores before this round, for a search's match objective
        # Cycle detection (§11.15), Brent's method: the state at a power-of-two step is kept
        # and every later decision point is compared with it.
        self._kept: tuple | None = None
        self._kept_quick: tuple | None = None
        self._power = 1
        self._since = 0
        # A jump-in window opened while a jump-in is being played: the seat whose card opens it (see
        # _jump_in_window). None outside a window.
        self._window_after: int | None = None
        self._in_window = False

    # ------------------------------------------------------------ set-up (§2)

    @classmethod
    def deal(
        cls,
        rules: Rules,
        policies: tuple[Policy, ...] | list[Policy],
        seed: int,
        index: int,
        *,
        round_index: int = 0,
        rng: Stream | None = None,
        decider: PolicyDecider | None = None,
        log: bool = True,
    ) -> Round:
        """Shuffle and deal round ``round_index`` of game ``index`` from its streams."""
        deal_stream = Stream(seed, index, PURPOSE_DEAL, round_index)
        deck = canonical_deck()
        deal_stream.shuffle(deck)
        rng = rng if rng is not None else Stream(seed, index, PURPOSE_PLAY, 0)
        rnd = cls(rules, policies, rng, decider=decider, round_index=round_index, log=log)
        rnd._deal_from(deck, deal_stream)
        return rnd

    @classmethod
    def from_deck(
        cls,
        rules: Rules,
        policies: tuple[Policy, ...] | list[Policy],
        deck: list[int] | str,
        *,
        round_index: int = 0,
        rng: Stream | None = None,
        deal_stream: Stream | None = None,
        decider: PolicyDecider | None = None,
    ) -> Round:
        """Deal from a scripted deck (top card first); the rest becomes the draw pile."""
        cards = parse_cards(deck) if isinstance(deck, str) else list(deck)
        rnd = cls(rules, policies, rng or Stream(0, 0, PURPOSE_PLAY), decider=decider, round_index=round_index)
        rnd._deal_from(cards, deal_stream or Stream(0, 0, PURPOSE_DEAL))
        return rnd

    @classmethod
    def from_position(
        cls,
        rules: Rules,
        policies: tuple[Policy, ...] | list[Policy],
        hands: list[str | list[int]],
        *,
        discard: str | list[int],
        draw: str | Sequence[int] = (),
        colour: int | None = None,
        current: int = 0,
        direction: int = 1,
        rng: Stream | None = None,
        decider: PolicyDecider | None = None,
    ) -> Round:
        """A position for scenario tests: hands, discard pile (top last), draw pile (top first)."""
        rnd = cls(rules, policies, rng or Stream(0, 0, PURPOSE_PLAY), decider=decider)
        for seat, hand in enumerate(hands):
            rnd.hands[seat].update(parse_cards(hand) if isinstance(hand, str) else hand)
        rnd.discard = parse_cards(discard) if isinstance(discard, str) else list(discard)
        rnd.draw_pile = parse_cards(draw) if isinstance(draw, str) else list(draw)
        top = rnd.discard[-1]
        rnd.colour = colour if colour is not None else colour_of(top)
        rnd.current, rnd.direction = current, direction
        return rnd

    def _deal_from(self, deck: list[int], deal_stream: Stream) -> None:
        """§11.14: one card at a time, first player first; then the start card (§2)."""
        first = self.round_index % self.n
        pos = 0
        for _ in range(self.rules.hand_size):
            for k in range(self.n):
                self.hands[(first + k) % self.n][deck[pos]] += 1
                pos += 1
        self._emit(Kind.DEAL, seat=first, hands=tuple(tuple(sorted(h.elements())) for h in self.hands))
        rest = deck[pos:]
        # A start +4 goes back and the pile is shuffled, until another card
        # turns up. If nothing but +4s is left, the +4 stays and acts as a
        # Wild (a unocli ruling, docs/rules.md §12.1).
        while rest[0] == WILD_DRAW_FOUR and any(c != WILD_DRAW_FOUR for c in rest):
            self._emit(Kind.START_RETURN, cards=(rest[0],))
            deal_stream.shuffle(rest)
        start = rest.pop(0)
        self.draw_pile = rest
        self.discard = [start]
        self.current, self.direction = first, 1
        self._emit(Kind.START, seat=first, cards=(start,))
        self._start_effect(start, first)

    def _start_effect(self, start: int, first: int) -> None:
        """§2: the start card's effect on the first player (§11.1: not a played card)."""
        dealer = (first - 1) % self.n
        self.stats.dealer = dealer
        self._start_card(start, first, dealer)
        self.stats.first_player = self.current

    def _start_card(self, start: int, first: int, dealer: int) -> None:
        if is_wild(start):
            self.colour = self.decider.colour(self, first)
            self._emit(Kind.COLOUR, seat=first, value=self.colour)
            return
        self.colour = colour_of(start)
        rank = rank_of(start)
        if rank == DRAW_TWO:
            self._draw(first, 2, "start")
            self._lose_turn(first)
            self.current = self.seat_after(first, 1)
        elif rank == SKIP:
            self._lose_turn(first)
            self.current = self.seat_after(first, 1)
        elif rank == REVERSE:
            self.direction = -1
            self._emit(Kind.REVERSE, seat=dealer)
            if self.n == 2:  # §2: with two players the first player is skipped
                self.stats.skips += 1
            self.current = dealer

    # ------------------------------------------------------------ helpers

    def seat_after(self, seat: int, k: int = 1) -> int:
        """The seat ``k`` places after ``seat`` in the current direction."""
        return (seat + k * self.direction) % self.n

    def next_seat(self, seat: int) -> int:
        return self.seat_after(seat, 1)

    def hand_size(self, seat: int) -> int:
        return sum(self.hands[seat].values())

    def colour_counts(self, seat: int) -> list[int]:
        counts = [0] * N_COLOURS
        for card, k in self.hands[seat].items():
            if colour_of(card) >= 0:
                counts[colour_of(card)] += k
        return counts

    def holds_colour(self, seat: int, colour: int) -> bool:
        return any(k > 0 and colour_of(c) == colour for c, k in self.hands[seat].items())

    @property
    def top(self) -> int:
        return self.discard[-1]

    def _lose_turn(self, seat: int) -> None:
        """``seat`` is skipped (§4): counted in ``skips``."""
        self.stats.skips += 1
        self._emit(Kind.SKIP, seat=seat)

    def _emit(self, kind: Kind, **data) -> None:
        if self.log:
            self.events.append(Event(kind, **data))

    # ------------------------------------------------------------ legality (§3)

    def is_legal(self, seat: int, card: int) -> bool:
        """Is ``card`` (held by ``seat``) a legal play on the current top card?"""
        if self.rules.no_action_finish and self.hand_size(seat) == 1 and is_action_or_wild(card):
            return False  # §8 no_action_finish, §11.12
        if card == WILD:
            return True
        if card == WILD_DRAW_FOUR:
            return self.rules.wild_draw_four is WildDrawFour.FREE or not self.holds_colour(seat, self.colour)
        if colour_of(card) == self.colour:
            return True
        top = self.top
        return not is_wild(top) and rank_of(card) == rank_of(top)  # §11.2

    def legal_cards(self, seat: int) -> list[int]:
        """Legal plays, one entry per card held (duplicates included), in type order."""
        return [c for c in sorted(self.hands[seat].elements()) if self.is_legal(seat, c)]

    def can_bluff(self, seat: int) -> bool:
        """Could ``seat`` play a Wild Draw Four illegally (§3 bluff)?"""
        return (
            self.rules.wild_draw_four is WildDrawFour.RESTRICTED
            and self.hands[seat][WILD_DRAW_FOUR] > 0
            and not self.is_legal(seat, WILD_DRAW_FOUR)
            and not (self.rules.no_action_finish and self.hand_size(seat) == 1)
        )

    def stackable_cards(self, seat: int) -> list[int]:
        """Cards ``seat`` may stack on the pending penalty (§8, §11.10)."""
        mode, top = self.rules.stacking, self.top
        if self.rules.no_action_finish and self.hand_size(seat) == 1:
            return []  # every stackable card is an action card or Wild (§11.12)
        out = []
        for card in sorted(self.hands[seat].elements()):
            if is_draw_two(card):
                ok = is_draw_two(top) or (top == WILD_DRAW_FOUR and mode is Stacking.ANY and colour_of(card) == self.colour)
            elif card == WILD_DRAW_FOUR:
                ok = (top == WILD_DRAW_FOUR and mode is not Stacking.PLUS2) or (
                    is_draw_two(top) and mode in (Stacking.PROGRESSIVE, Stacking.ANY)
                )
            else:
                ok = False
            if ok:
                out.append(card)
        return out

    # ------------------------------------------------------------ drawing (§7, §11.5)

    def _draw_one(self) -> int | None:
        if not self.draw_pile and len(self.discard) > 1:
            pile = sorted(self.discard[:-1])
            self.discard = self.discard[-1:]
            self.rng.shuffle(pile)
            self.draw_pile = pile
            self.stats.reshuffles += 1
            self._emit(Kind.RESHUFFLE, value=len(pile))
        if not self.draw_pile:
            return None
        return self.draw_pile.pop(0)

    def _draw(self, seat: int, k: int, why: str) -> list[int]:
        """``seat`` draws up to ``k`` cards one at a time (what there is)."""
        got = []
        for _ in range(k):
            card = self._draw_one()
            if card is None:
                break
            self.hands[seat][card] += 1
            got.append(card)
        self.stats.cards_drawn += len(got)
        self.seen.drew(seat, len(got))
        if why != "turn":  # a penalty (start, penalty, challenge, uno): §9 max_draw
            self.stats.max_draw = max(self.stats.max_draw, len(got))
        self._emit(Kind.DRAW, seat=seat, cards=tuple(got), how=why, value=k)
        return got

    # ------------------------------------------------------------ the loop

    def run(self) -> RoundStats:
        """Play the round to its end and return its counters."""
        try:
            while True:
                self._step()
        except RoundOver:
            pass
        return self.stats

    def step(self) -> bool:
        """One decision point of the round (a turn or a pending-penalty decision); False once it is over."""
        try:
            self._step()
        except RoundOver:
            return False
        return True

    def _step(self) -> None:
        if self.stats.turns >= self.rules.max_turns:  # §11.7
            self._end(Outcome.CAPPED)
        if self.decider.stateless and self._repeats():  # §11.15
            self._end(Outcome.STUCK)
        if self.pending:
            self._pending_decision(self.current)
        else:
            self._turn(self.current)

    def _quick_state(self) -> tuple:
        """A few fields of the state, enough to tell most unequal states apart cheaply."""
        return (
            self.current,
            self.direction,
            self.colour,
            self.discard[-1],
            len(self.draw_pile),
            len(self.discard),
            self.pending,
            self.rng.draws,
        )

    def _full_state(self) -> tuple:
        """Everything the rest of the round depends on (§11.15), and nothing it does not.

        The order of the discard pile under the top card cannot matter (§12.3: it is
        sorted before it is shuffled); the play stream's position is its draw count.
        """
        p4 = self.plus4
        return (
            self._quick_state(),
            tuple(tuple(sorted(hand.elements())) for hand in self.hands),
            tuple(self.draw_pile),
            tuple(sorted(self.discard[:-1])),
            tuple(self.lacks),
            tuple(self.shown),
            self.top_player,
            self.dead_passes,
            self.chain,
            (p4.offender, p4.bluff, p4.hand_before, p4.colour_before, p4.shown, p4.lacked, p4.challengeable),
        )

    def _repeats(self) -> bool:
        """Has the round come back to a state it was in before (Brent's cycle detection)?"""
        quick = self._quick_state()
        if quick == self._kept_quick and self._full_state() == self._kept:
            return True
        self._since += 1
        if self._since == self._power:
            self._kept, self._kept_quick = self._full_state(), quick
            self._power *= 2
            self._since = 0
        return False

    def _end(self, outcome: Outcome, winner: int = -1) -> None:
        s = self.stats
        s.outcome, s.winner = outcome, winner
        s.cards_left = [self.hand_size(seat) for seat in range(self.n)]
        if outcome is Outcome.WON:
            s.winner_points = sum(points(c) * k for seat in range(self.n) for c, k in self.hands[seat].items())
        self._emit(Kind.END, seat=winner, value=s.winner_points, how=str(outcome))
        raise RoundOver

    def _turn(self, seat: int) -> None:
        """A normal turn (§3)."""
        if self.can_bluff(seat) and self.decider.bluff(self, seat):
            self._play(seat, WILD_DRAW_FOUR, HAND)
            return
        legal = self.legal_cards(seat)
        if legal:
            self._play(seat, hand_choice(self, seat, legal), HAND)
            return
        self.lacks[seat] = self.colour
        before = self.hand_size(seat)
        drew_any = False
        while True:
            got = self._draw(seat, 1, "turn")
            if not got:
                break
            drew_any = True
            card = got[0]
            if self.is_legal(seat, card):
                if plays_drawn(self, seat, card):
                    self._failed(seat, before, card)
                    self._play(seat, card, DRAWN)
                    return
                break
            if not self.rules.draw_until_playable:
                if card == WILD_DRAW_FOUR and self.can_bluff(seat) and self.decider.bluff(self, seat):
                    self._failed(seat, before, card)
                    self._play(seat, card, DRAWN)
                    return
                break
        self._failed(seat, before)
        self._pass(seat, drew_any)

    def _pass(self, seat: int, drew_any: bool) -> None:
        """The turn ends without a card played (§3, §11.6)."""
        self.stats.passes += 1
        self.stats.turns += 1
        self._emit(Kind.PASS, seat=seat)
        self.dead_passes = 0 if drew_any else self.dead_passes + 1
        if self.dead_passes >= self.n:
            self._end(Outcome.BLOCKED)
        self.current = self.next_seat(seat)

    def _failed(self, seat: int, before: int, playing: int = -1) -> None:
        """Seen: ``seat`` held ``before`` cards, none legal, so none of the colour (unless §11.12 held its one card)."""
        if not (self.rules.no_action_finish and before == 1):
            self.seen.failed(seat, self.colour, self.hand_size(seat) - before, playing)

    # ------------------------------------------------------------ playing a card

    def _play(self, seat: int, card: int, how: str) -> None:
        """``seat`` puts ``card`` on the discard pile: Uno (§6), then its effects (§4)."""
        hand_before = self.hand_size(seat)
        bluff = (
            card == WILD_DRAW_FOUR
            and how != STACKED
            and self.rules.wild_draw_four is WildDrawFour.RESTRICTED
            and self.holds_colour(seat, self.colour)
        )
        if card == WILD_DRAW_FOUR and how != STACKED:
            self.plus4 = Plus4Info(
                offender=seat,
                bluff=bluff,
                hand_before=hand_before,
                colour_before=self.colour,
                shown=self.shown[seat] == self.colour,
                lacked=self.lacks[seat] == self.colour,
                evidence=tuple(c for c in sorted(self.hands[seat].elements()) if colour_of(c) == self.colour),
                challengeable=self.rules.challenge and self.rules.wild_draw_four is WildDrawFour.RESTRICTED,
                hand=tuple(sorted((self.hands[seat] - Counter({card: 1})).elements())),
            )
        self.hands[seat][card] -= 1
        if self.hands[seat][card] == 0:
            del self.hands[seat][card]
        self.seen.played(seat, card)
        self.discard.append(card)
        self.top_player = seat
        s = self.stats
        s.cards_played += 1
        s.turns += 1
        self.dead_passes = 0
        if card == WILD_DRAW_FOUR:
            s.plus4_played += 1
            s.bluffs += bluff
        if how == JUMP_IN:
            s.jump_ins += 1
        if colour_of(card) >= 0 and colour_of(card) == self.lacks[seat]:
            self.lacks[seat] = -1
        self._emit(Kind.PLAY, seat=seat, cards=(card,), how=how, flag=bluff)
        if hand_before == 2 and self.stats.first_to_one < 0:  # §9 first_to_one
            self.stats.first_to_one = seat
        if hand_before == 2:
            self._uno(seat)
        self._effects(seat, card, how)

    def _uno(self, seat: int) -> None:
        """§6: a player left with one card calls Uno, or may be caught."""
        if not self.decider.forget_uno(self, seat):
            self._emit(Kind.UNO, seat=seat)
            return
        self.stats.uno_forgotten += 1
        self._emit(Kind.UNO_FORGOTTEN, seat=seat)
        for k in range(1, self.n):
            other = self.seat_after(seat, k)
            if self.decider.catch_uno(self, other, seat):
                self.stats.uno_caught += 1
                self._emit(Kind.UNO_CAUGHT, seat=seat, target=other)
                self._draw(seat, self.rules.uno_penalty, "uno")
                return

    def _effects(self, seat: int, card: int, how: str) -> None:
        """§4 effects of a card ``seat`` just played, then the jump-in window (§8)."""
        out = self.hand_size(seat) == 0
        if card == WILD_DRAW_FOUR or (card == WILD and not out):
            self.colour = self.decider.colour(self, seat)
            self._emit(Kind.COLOUR, seat=seat, value=self.colour)
        elif card != WILD:
            self.colour = colour_of(card)
        self.shown[seat] = self.colour
        value = penalty_value(card)

        if out:  # §7: the last card's penalty still applies
            if value and self._final_penalty(seat, card, how, value):
                return  # a final bluff was challenged: the round goes on
            self._end(Outcome.WON, seat)

        rank = rank_of(card)
        if value and self.rules.stacking_on:  # §8: the penalty is left pending
            self.pending = self.pending + value if how == STACKED else value
            self.chain = self.chain + 1 if how == STACKED else 1
            self.stats.max_stack = max(self.stats.max_stack, self.chain)
            self.current = self.next_seat(seat)
            self._emit(Kind.PENDING, seat=self.current, value=self.pending)
            return  # §11.8: no jump-in window
        if value:  # stacking off: resolved at once (§11.8)
            self.stats.max_stack = max(self.stats.max_stack, 1)
            victim = self.next_seat(seat)
            if card == WILD_DRAW_FOUR:
                self._plus4_victim(victim, 4)
            else:
                self._draw(victim, 2, "penalty")
                self._lose_turn(victim)
                self.current = self.next_seat(victim)
        elif rank == SKIP:
            self._lose_turn(self.next_seat(seat))
            self.current = self.seat_after(seat, 2)
        elif rank == REVERSE:
            self.direction = -self.direction
            self._emit(Kind.REVERSE, seat=seat)
            if self.n == 2:  # §11.13: the same player plays again, the other loses the turn
                self.stats.skips += 1
                self.current = seat
            else:
                self.current = self.next_seat(seat)
        else:
            if self.rules.seven_o and rank == 0:
                self._rotate()
            elif self.rules.seven_o and rank == 7:
                self._swap(seat)
            self.current = self.next_seat(seat)
        self._jump_in_window(seat)

    def _final_penalty(self, seat: int, card: int, how: str, value: int) -> bool:
        """A +2/+4 as the last card: the next player faces it (§7, §11.10).

        Returns True when the round goes on (a final bluff challenged).
        """
        victim = self.next_seat(seat)
        stacked = how == STACKED and self.rules.stacking_on
        total = self.pending + value if stacked else value
        chain = self.chain + 1 if stacked else 1
        self.stats.max_stack = max(self.stats.max_stack, chain)
        self.pending, self.chain = 0, 0
        if card == WILD_DRAW_FOUR and how != STACKED:
            return self._plus4_victim(victim, total, last=True)
        self._draw(victim, total, "penalty")  # §9: the round is over, so the victim loses no turn
        return False

    def _plus4_victim(self, victim: int, total: int, last: bool = False) -> bool:
        """The victim of a non-stacked +4 challenges or accepts it at once (§5, §11.8).

        Sets whose turn is next; returns True when the challenge caught a bluff.
        ``last``: the +4 was its player's last card, so unless a bluff is caught
        the round is over and the victim loses no turn (§9 ``skips``).
        """
        info = self.plus4
        if info.challengeable and searches(self, victim):
            action = plus4_choice(self, victim)
        else:
            action, _ = self.decider.respond(self, victim, [], info.challengeable)
        return self._plus4_answer(victim, total, last, action)

    def _plus4_answer(self, victim: int, total: int, last: bool, action: str) -> bool:
        """The victim's ``action`` (CHALLENGE or ACCEPT) on the +4 (``_plus4_victim``): True when a bluff was caught."""
        info = self.plus4
        if action == CHALLENGE:
            self._challenge(victim, total, last)
            self.current = victim if info.bluff else self.next_seat(victim)
            return info.bluff
        self._draw(victim, total, "penalty")
        if not last:
            self._lose_turn(victim)
        self.current = self.next_seat(victim)
        return False

    def _challenge(self, victim: int, total: int, last: bool = False) -> None:
        """§5: the offender shows the hand; a bluff costs them, an honest +4 costs the victim.

        ``last``: the +4 ended its player's hand; an honest one then ends the
        round, and the victim loses no turn (§9 ``skips``).
        """
        info = self.plus4
        self.seen.challenged(info.offender, victim, info.hand)
        s = self.stats
        s.challenges += 1
        evidence = info.evidence
        self._emit(Kind.CHALLENGE, seat=victim, target=info.offender, flag=info.bluff, cards=evidence, value=info.colour_before)
        if info.bluff:
            s.challenges_won += 1
            self._draw(info.offender, total, "challenge")
        else:
            self._draw(victim, total + 2, "challenge")
            if not last:
                self._lose_turn(victim)
        self.pending, self.chain = 0, 0

    def _pending_decision(self, victim: int) -> None:
        """§8 stacking: the victim stacks, challenges or draws the pending penalty (a searching victim: by search)."""
        # Only a +4 played normally can be challenged; a stacked one makes the chain longer.
        challenge_open = self.top == WILD_DRAW_FOUR and self.chain == 1 and self.plus4.challengeable
        stackable = self.stackable_cards(victim)
        if not searches(self, victim):
            action, card = self.decider.respond(self, victim, stackable, challenge_open)
        else:
            action, card, colour = pending_choice(self, victim, stackable, challenge_open)
            self.decider.forced_colour = colour if colour >= 0 else None
        self._respond_with(victim, action, card)

    def _respond_with(self, victim: int, action: str, card: int) -> None:
        if action == STACK:
            self._play(victim, card, STACKED)
        elif action == CHALLENGE:
            self._challenge(victim, self.pending)
            self.current = victim if self.plus4.bluff else self.next_seat(victim)
        else:
            self._draw(victim, self.pending, "penalty")
            self._lose_turn(victim)
            self.pending, self.chain = 0, 0
            self.current = self.next_seat(victim)

    # ------------------------------------------------------------ house rules

    def _jump_in_window(self, seat: int) -> None:
        """§8 jump-in: others holding the top card's twin may play it out of turn (§11.9).

        A jump-in opens the next window, so a chain of jump-ins is played here in
        a loop, not by recursion: with big hands two twins can bounce between
        players (each drawn back from the reshuffled pile) for hundreds of plays,
        deeper than Python's recursion limit. Every window is the last thing its
        play does, so looping plays the same sequence recursion would.
        """
        if self._in_window:  # opened by the jump-in this loop is playing: the loop offers it next
            self._window_after = seat
            return
        self._in_window = True
        try:
            opener: int | None = seat
            while opener is not None:
                self._window_after = None
                jumper = self._jumper(opener)
                if jumper is None:
                    return
                self._play(jumper, self.top, JUMP_IN)
                opener = self._window_after  # None when the play opened no window (stacking, or the round ended)
        finally:
            self._in_window = False

    def _jumper(self, seat: int, first: int = 1) -> int | None:
        """Who jumps in on the card ``seat`` just played (the first in turn order who holds its twin and wants to).

        ``first``: the window is offered from the ``first``-th seat after ``seat`` on (a rollout of
        a search's not jumping in). A searching seat decides by search.
        """
        if not self.rules.jump_in or is_wild(self.top):
            return None
        if self.stats.turns >= self.rules.max_turns:  # §11.7: none offered when capped
            return None
        top = self.top
        for k in range(first, self.n):
            other = self.seat_after(seat, k)
            if self.hands[other][top] == 0:
                continue
            if self.rules.no_action_finish and self.hand_size(other) == 1 and is_action_or_wild(top):
                continue
            if jump_choice(self, other) if searches(self, other) else self.decider.jump_in(self, other):
                return other
        return None

    def _rotate(self) -> None:
        """seven_o 0: every hand passes to the next player in the direction of play."""
        self.hands = [self.hands[(seat - self.direction) % self.n] for seat in range(self.n)]
        self.lacks = [self.lacks[(seat - self.direction) % self.n] for seat in range(self.n)]
        self.shown = [self.shown[(seat - self.direction) % self.n] for seat in range(self.n)]
        self.stats.rotations += 1
        self.seen.forget()
        self._emit(Kind.ROTATE, value=self.direction)

    def _swap(self, seat: int) -> None:
        """seven_o 7: ``seat`` swaps hands with an opponent of its choice (compulsory)."""
        other = swap_choice(self, seat) if self.n > 2 and searches(self, seat) else self.decider.swap_target(self, seat)
        self._swap_with(seat, other)

    def _swap_with(self, seat: int, other: int) -> None:
        self.hands[seat], self.hands[other] = self.hands[other], self.hands[seat]
        self.lacks[seat], self.lacks[other] = self.lacks[other], self.lacks[seat]
        self.shown[seat], self.shown[other] = self.shown[other], self.shown[seat]
        self.stats.swaps += 1
        self.seen.forget()
        self._emit(Kind.SWAP, seat=seat, target=other)


# ---------------------------------------------------------------- games


def play_round(rules: Rules, policies: tuple[Policy, ...] | list[Policy], seed: int, index: int, *, log: bool = False) -> Round:
    """Play game ``index`` as a single round (round 0: seat 0 starts). Returns the finished round."""
    rnd = Round.deal(rules, policies, seed, index, log=log)
    rnd.run()
    return rnd


def play_match(
    rules: Rules, policies: tuple[Policy, ...] | list[Policy], seed: int, index: int, *, log: bool = False
) -> tuple[MatchStats, list[Round]]:
    """Play game ``index`` as a match to ``target_score`` (§7).

    Round ``r`` deals from its own deal stream; the play stream runs on
    across rounds. Returns the match totals and the rounds played.
    """
    rng = Stream(seed, index, PURPOSE_PLAY, 0)
    match = MatchStats(players=rules.players, scores=[0] * rules.players)
    rounds = []
    for r in range(rules.max_rounds):
        rnd = Round.deal(rules, policies, seed, index, round_index=r, rng=rng, log=log)
        rnd.match_scores = list(match.scores)
        stats = rnd.run()
        rounds.append(rnd)
        match.rounds.append(stats)
        if stats.outcome is Outcome.WON:
            match.scores[stats.winner] += stats.winner_points
            if match.scores[stats.winner] >= rules.target_score:
                match.winner = stats.winner
                match.outcome = Outcome.WON
                return match, rounds
    match.outcome = Outcome.CAPPED
    return match, rounds


__all__ = ["DRAWN", "HAND", "JUMP_IN", "N_TYPES", "STACKED", "Plus4Info", "Round", "play_match", "play_round"]
