"""Each policy knob does what it says (issue 4), in the kernel and, where a count of
opportunities is needed, in the reference engine."""

from __future__ import annotations

import numpy as np

from unocli.game.policies import preset as policy_preset
from unocli.game.rules import preset as rules_preset
from unocli.kernel import ROW_NAMES, play_rows
from unocli.reference.decisions import PolicyDecider
from unocli.reference.engine import Round, play_round
from unocli.reference.events import Kind

COL = {name: i for i, name in enumerate(ROW_NAMES)}


def _rows(rules, policy, games=3000, seed=4):
    return play_rows(rules, (policy,) * rules.players, seed=seed, count=games)


def test_bluff_zero_never_bluffs():
    rows = _rows(rules_preset("official"), policy_preset("basic").replace(bluff=0.0))
    assert rows[:, COL["bluffs"]].sum() == 0
    assert rows[:, COL["plus4_played"]].sum() > 0  # +4s were played, honestly


class _BluffSpy(PolicyDecider):
    def __init__(self) -> None:
        self.asked = 0
        self.said_yes = 0

    def bluff(self, rnd, seat):
        self.asked += 1
        answer = super().bluff(rnd, seat)
        self.said_yes += answer
        return answer


def test_bluff_one_bluffs_at_every_chance():
    rules = rules_preset("official")
    policies = (policy_preset("bluffer"),) * 4
    asked = bluffs = 0
    for game in range(300):
        spy = _BluffSpy()
        rnd = Round.deal(rules, policies, 21, game, decider=spy, log=False)
        rnd.run()
        assert spy.said_yes == spy.asked  # every chance taken
        asked += spy.asked
        bluffs += rnd.stats.bluffs
    assert asked > 50 and bluffs == asked


def test_skeptic_challenges_every_plus4_it_faces():
    rows = _rows(rules_preset("official"), policy_preset("skeptic"))
    assert rows[:, COL["plus4_played"]].sum() > 100
    np.testing.assert_array_equal(rows[:, COL["challenges"]], rows[:, COL["plus4_played"]])


def test_forget_uno_one_with_catch_one_gives_one_penalty_per_forgotten_call():
    rules = rules_preset("official").replace(max_turns=300)  # nobody can ever go out: rounds cap
    policy = policy_preset("basic").replace(forget_uno=1.0, catch_uno=1.0)
    rows = _rows(rules, policy, games=300)
    assert rows[:, COL["uno_forgotten"]].sum() > 300
    np.testing.assert_array_equal(rows[:, COL["uno_caught"]], rows[:, COL["uno_forgotten"]])


def test_forgotten_uno_is_never_caught_when_nobody_looks():
    policy = policy_preset("basic").replace(forget_uno=1.0, catch_uno=0.0)
    rows = _rows(rules_preset("official"), policy)
    assert rows[:, COL["uno_forgotten"]].sum() > 1000
    assert rows[:, COL["uno_caught"]].sum() == 0


def test_stack_zero_never_stacks():
    policy = policy_preset("basic").replace(stack=0.0)
    for name in ("stack-plus2", "stack-same", "stacking", "stack-any"):
        rows = _rows(rules_preset(name), policy, games=2000)
        assert rows[:, COL["max_stack"]].max() <= 1, name
    # and stack=1 does stack
    rows = _rows(rules_preset("stacking"), policy_preset("basic"), games=2000)
    assert rows[:, COL["max_stack"]].max() >= 2


def test_jump_in_zero_never_jumps_and_one_does():
    rules = rules_preset("jump-in")
    assert _rows(rules, policy_preset("basic").replace(jump_in=0.0))[:, COL["jump_ins"]].sum() == 0
    assert _rows(rules, policy_preset("basic").replace(jump_in=1.0))[:, COL["jump_ins"]].sum() > 100


def _turn_draws(rules, policy, seed, index):
    """(passes, turns that drew) of one game, the second counted from the reference engine's play-by-play."""
    rnd = play_round(rules, (policy,) * rules.players, seed, index, log=True)
    drew = sum(1 for e in rnd.events if e.kind is Kind.DRAW and e.how == "turn")
    return rnd.stats.passes, drew


def test_play_drawn_zero_keeps_every_drawn_card():
    """With play_drawn 0 a turn that draws never plays: passes equal the turns that drew.

    Official rules draw one card per such turn, so the turns that drew are the
    "turn" draws of the play-by-play (one per turn, empty when the pile is
    out, which also ends in a pass). bluff 0, so a drawn +4 is not played as a
    bluff either. The kernel's passes are held to the same games.
    """
    rules = rules_preset("official")
    policy = policy_preset("basic").replace(play_drawn=0.0, bluff=0.0)
    games = [_turn_draws(rules, policy, 4, index) for index in range(200)]
    assert sum(drew for _, drew in games) > 1000
    assert [passes for passes, _ in games] == [drew for _, drew in games]
    rows = _rows(rules, policy, games=200)
    assert rows[:, COL["passes"]].tolist() == [passes for passes, _ in games]
    # play_drawn 1 plays some drawn cards: fewer passes than turns that drew (the count can tell).
    keep = [_turn_draws(rules, policy.replace(play_drawn=1.0), 4, index) for index in range(200)]
    assert sum(passes for passes, _ in keep) < sum(drew for _, drew in keep)
