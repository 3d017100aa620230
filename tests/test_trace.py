"""The play-by-play narration of the reference engine's event log."""

from __future__ import annotations

import re

from unocli.game.cards import BLUE
from unocli.game.policies import Policy
from unocli.game.rules import Rules, preset
from unocli.reference.decisions import CHALLENGE, PolicyDecider
from unocli.reference.engine import Round, play_match, play_round
from unocli.reference.events import Kind
from unocli.reference.trace import Narrator, format_match, narrate

P2, P3 = (Policy(),) * 2, (Policy(),) * 3


class Scripted(PolicyDecider):
    """Seat 0 bluffs and forgets Uno; everyone declares blue, challenges and catches."""

    def bluff(self, rnd, seat):
        return True

    def colour(self, rnd, seat):
        return BLUE

    def respond(self, rnd, seat, stackable, challenge_open):
        return (CHALLENGE, -1) if challenge_open else ("accept", -1)

    def forget_uno(self, rnd, seat):
        return seat == 0

    def catch_uno(self, rnd, seat, offender):
        return True


def _narrate_turn(hands, draw="R1 R2 R3 R4 R5 R6 R7 R8", rules=None):
    rules = rules or Rules(players=3)
    rnd = Round.from_position(rules, P3, hands, discard="R9", draw=draw, decider=Scripted())
    narrator = Narrator(rules, hands=[list(h.elements()) for h in rnd.hands], colour=rnd.colour)
    rnd._turn(0)
    narrator.feed(rnd.events)
    return rnd, narrator.lines


def test_a_caught_bluff_is_marked_and_shows_the_colour_cards():
    rnd, lines = _narrate_turn(["W+4 R5 G3", "G1 G2", "Y1 Y2"])
    text = "\n".join(lines)
    assert "   1. Seat 0 plays Wild Draw Four (2 cards left): a bluff, as seat 0 holds red." in text
    assert "Seat 0 declares blue." in text
    assert "Seat 1 challenges seat 0's Wild Draw Four." in text
    assert "Seat 0 held red 5 of the colour in force (red): it was a bluff" in text
    assert "Seat 0 draws 4 cards for the challenge: red 1, red 2, red 3, red 4." in text
    assert rnd.stats.challenges_won == 1


def test_a_failed_challenge_shows_no_colour_card_even_after_an_uno_penalty():
    # Seat 0's +4 is legal (no red held); it forgets Uno and draws two reds as the penalty
    # before the challenge. The verdict rests on the hand when the +4 was played.
    rnd, lines = _narrate_turn(["W+4 G3", "G1 G2", "Y1 Y2"])
    text = "\n".join(lines)
    assert "Seat 0 plays Wild Draw Four (1 card left)." in text
    assert "Seat 0 forgets to call Uno..." in text
    assert "Seat 1 catches seat 0 not calling Uno." in text
    assert "Seat 0 draws 2 cards as the Uno penalty: red 1, red 2." in text
    assert "Seat 0 held no red card (the colour in force): the +4 was legal" in text
    assert "Seat 1 draws 6 cards for the challenge" in text
    assert "Seat 1 loses the turn." in text
    challenge = next(e for e in rnd.events if e.kind is Kind.CHALLENGE)
    assert not challenge.flag


def _start(deck: str, players: int = 2):
    rules = Rules(players=players, hand_size=1)
    rnd = Round.from_deck(rules, (Policy(),) * players, deck, decider=Scripted())
    return "\n".join(narrate(rnd.events, rules))


def test_start_cards():
    assert "Start card: red 4: red is the colour." in _start("R1 G2 R4 B5")
    text = _start("R1 G2 YS B5")
    assert "Start card: yellow Skip: seat 0 loses the turn." in text and "Seat 0 loses the turn." in text
    text = _start("R1 G2 Y+2 B5 B6")
    assert "seat 0 draws 2 and loses the turn" in text
    assert "Seat 0 draws 2 cards for the start Draw Two: blue 5, blue 6." in text
    text = _start("R1 G2 G3 YR B5", players=3)
    assert "the direction reverses and the dealer, seat 2, plays first" in text
    assert "Play runs the other way: 2 -> 1 -> 0." in text
    text = _start("R1 G2 W B5")
    assert "Start card: Wild: seat 0 declares the colour" in text and "Seat 0 declares blue for the start card." in text
    text = _start("R1 G2 W+4 W+4 W+4")
    assert "Only Wild Draw Fours are left to turn, so it stays and acts as a Wild" in text
    text = _start("R1 G2 W+4 B5")
    assert "The turned card is a Wild Draw Four: it goes back into the draw pile" in text


def test_narrator_follows_a_house_rules_round():
    rules = preset("party").replace(players=5)
    for index in range(30):
        rnd = play_round(rules, (Policy(),) * 5, 99, index, log=True)
        narrator = Narrator(rules)
        narrator.feed(rnd.events)
        assert narrator.turn == rnd.stats.turns
        assert narrator.hands == rnd.hands
        assert len(narrator.lines) >= rnd.stats.turns


def test_every_event_kind_has_words():
    seen: set[Kind] = set()
    rules = preset("party").replace(players=4, seven_o=True)
    for index in range(60):
        for r in (rules, Rules(), Rules(stacking="any")):
            pols = (Policy(forget_uno=0.5, catch_uno=0.5, bluff=0.5),) * r.players
            rnd = play_round(r, pols, 5, index, log=True)
            seen |= {e.kind for e in rnd.events}
            lines = narrate(rnd.events, r)
            assert all(line.strip() for line in lines)
    assert seen >= set(Kind) - {Kind.PENALTY, Kind.START_RETURN}


def test_format_match():
    rules = Rules(players=3, target_score=150)
    match, rounds = play_match(rules, P3, 4, 2, log=True)
    lines = format_match(match, rounds, rules)
    text = "\n".join(lines)
    assert lines[0] == "Match to 150 points, 3 players."
    assert len(re.findall(r"^=== Round \d+: seat \d deals, seat \d plays first ===$", text, re.M)) == len(rounds)
    assert text.count("Scores after round") == len(rounds)
    last = [line for line in lines if line.startswith("Scores after")][-1]
    assert last.endswith(", ".join(f"seat {s} {match.scores[s]}" for s in range(3)) + ".")
    assert lines[-1] == (
        f"Seat {match.winner} wins the match with {match.scores[match.winner]} points after {len(rounds)} "
        f"round{'s' if len(rounds) > 1 else ''}."
    )


def test_format_capped_match():
    rules = Rules(players=2, target_score=1_000_000, max_rounds=2)
    match, rounds = play_match(rules, P2, 1, 1, log=True)
    assert match.winner == -1 and len(rounds) == 2
    assert "the match ends capped, with no winner" in format_match(match, rounds, rules)[-1]


def test_blocked_and_capped_round_endings():
    rules = Rules(players=2, max_turns=3)
    rnd = play_round(rules, P2, 1, 1, log=True)
    assert "reaches max_turns (3 turns) and ends capped" in narrate(rnd.events, rules)[-1]
    # Nothing to draw and nothing to play: two dead passes block a 2-player round.
    blocked = Round.from_position(Rules(players=2), P2, ["G1", "Y1"], discard="R9", draw="")
    narrator = Narrator(Rules(players=2), hands=[[4], [14]], colour=0)
    blocked.run()
    narrator.feed(blocked.events)
    lines = narrator.lines
    assert "Seat 0 cannot play, and there is no card left to draw." in lines[0]
    assert "the round is blocked" in lines[-1]
