"""The one adaptive-precision loop (run.precision.play_to_target) that simulate, compare and sweep share."""

from __future__ import annotations

import math

import pytest

from unocli.run.precision import DEFAULT_FIRST_BATCH, next_batch, play_to_target


class FakeRun:
    """Games whose metric has sd 10: the 95% half-width after n games is about 19.6 / sqrt(n)."""

    def __init__(self) -> None:
        self.batches: list[tuple[int, int]] = []
        self.games = 0

    def play(self, done: int, count: int) -> None:
        assert done == self.games, "batches must follow each other without gaps"
        self.batches.append((done, count))
        self.games += count

    def half_width(self) -> float:
        return 19.6 / math.sqrt(self.games)


def test_without_a_target_one_batch_is_played():
    run = FakeRun()
    assert play_to_target(run.play, run.half_width, first=1234, target_error=None, metric="turns") is None
    assert run.batches == [(0, 1234)]


def test_batches_grow_until_the_target_is_reached():
    run = FakeRun()
    info = play_to_target(run.play, run.half_width, first=100, target_error=0.5, metric="turns", max_games=10**6)
    assert info is not None and info.reached
    assert info.games == run.games and info.half_width == run.half_width() <= 0.5
    assert run.games >= (19.6 / 0.5) ** 2  # 1,537 games are needed
    # after the first, each batch is what next_batch asked for after the games before it
    assert run.batches[0] == (0, 100) and len(run.batches) > 2
    for done, count in run.batches[1:]:
        assert count == next_batch(done, 19.6 / math.sqrt(done), 0.5, 10**6)


def test_max_games_caps_the_run_and_the_first_batch():
    run = FakeRun()
    info = play_to_target(run.play, run.half_width, first=100, target_error=0.01, metric="turns", max_games=5000)
    assert info is not None and not info.reached and info.games == run.games == 5000
    assert "NOT reached" in info.describe()
    capped = FakeRun()
    info = play_to_target(capped.play, capped.half_width, first=9000, target_error=0.01, metric="turns", max_games=5000)
    assert capped.batches == [(0, 5000)] and info is not None and info.games == 5000


def test_zero_first_batch_means_the_default():
    run = FakeRun()
    play_to_target(run.play, run.half_width, first=0, target_error=100.0, metric="turns")
    assert run.batches == [(0, DEFAULT_FIRST_BATCH)]


def test_simulate_and_compare_use_it(monkeypatch):
    """Both runners go through the shared loop (a target forwarded to it is all they do about precision)."""
    import unocli.study.compare as compare_mod
    import unocli.study.simulate as simulate_mod
    from unocli.game.policies import preset
    from unocli.game.rules import Rules
    from unocli.study.arm import Arm

    calls = []

    def spy(play, half_width, **kwargs):
        calls.append(kwargs)
        play(0, kwargs["first"])
        return None

    monkeypatch.setattr(simulate_mod, "play_to_target", spy)
    monkeypatch.setattr(compare_mod, "play_to_target", spy)
    simulate_mod.simulate(Rules(), games=50, seed=1, target_error=2.0, max_games=70)
    arm = Arm("a", Rules(), (preset("basic"),) * 4)
    compare_mod.compare([arm], games=60, seed=1, target_error=3.0, metric="cards_drawn")
    assert [(c["first"], c["target_error"], c["metric"]) for c in calls] == [(50, 2.0, "turns"), (60, 3.0, "cards_drawn")]
    assert calls[0]["max_games"] == 70


@pytest.mark.parametrize("games", [0, 300])
def test_simulate_with_a_target_keeps_every_game(games):
    from unocli.game.rules import Rules
    from unocli.study.simulate import simulate

    result = simulate(Rules(), games=games, seed=3, target_error=4.0, keep_games=True, max_games=4000)
    assert result.target is not None
    assert result.games == result.target.games == len(result.games_frame)
    assert list(result.games_frame["game"]) == list(range(result.games))


@pytest.mark.parametrize("target", [1e-300, 5e-324, 1e-200])
def test_a_tiny_target_error_asks_for_as_many_games_as_allowed_instead_of_overflowing(target):
    """(half-width / target)^2 of a target of 1e-300 overflows a float (OverflowError, which the CLI called an
    internal error): the next batch is then the most the rules allow, 3 x the games so far within max_games."""
    assert next_batch(100, 1.0, target, 10**6) == 300
    assert next_batch(100, 1.0, target, 150) == 50
    assert next_batch(100, 1.0, 1e-30, 10**6) == 300  # a small target that does not overflow: the same cap
