"""``check --sequential``: the SPRT's error rates on a synthetic stream, and a planted change caught in fewer games.

The synthetic streams are not the kernel: a baseline mean over n0 normal draws and a fresh stream of batch means,
exactly the statistics the check sees, so thousands of streams cost a second. The kernel tests plant a change
(the code plays uno_penalty 4 where the baseline recorded 2, with players who forget UNO) and compare the games
the sequential check plays with the fixed check's.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from click.testing import CliRunner

from unocli.balance.baseline import load_baseline, make_baseline, save_baseline
from unocli.balance.check import Verdict, check_statistical
from unocli.balance.sequential import Design, check_sequential, log_ratios, looks, new_state, step
from unocli.cli.main import cli
from unocli.game.policies import preset as policy_preset
from unocli.game.rules import preset as rules_preset
from unocli.study.arm import Arm


def _stream_verdicts(delta: float, streams: int, design: Design, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Verdicts and games used of ``streams`` synthetic metrics (sd 1, band 0.05, baseline of 40,000 draws)."""
    rng = np.random.default_rng(seed)
    n0, band, sd = 40_000, 0.05, 1.0
    points = looks(n0)
    verdicts = np.empty(streams, dtype=object)
    used = np.zeros(streams, dtype=np.int64)
    base = rng.normal(0.0, sd / math.sqrt(n0), streams)
    sizes = np.diff([0, *points])
    batch_means = delta + rng.normal(0.0, 1.0, (streams, len(sizes))) * sd / np.sqrt(sizes)
    cumulative = np.cumsum(batch_means * sizes, axis=1) / np.array(points)
    for i in range(streams):
        state = new_state()
        for j, k in enumerate(points):
            se = sd * math.sqrt(1 / k + 1 / n0)
            step(state, design, float(cumulative[i, j] - base[i]), se, band, True, k)
            if state.verdict is not None:
                break
        verdicts[i] = state.verdict or Verdict.INCONCLUSIVE
        used[i] = state.games
    return verdicts, used


def test_log_ratios_match_the_normal_densities() -> None:
    """log LR(+Δ) of a difference d with standard error se, against scipy's normal log densities."""
    from scipy import stats as sps

    d, se, band = 0.013, 0.01, 0.02
    up, down = log_ratios(d, se, band)
    assert up == pytest.approx(sps.norm.logpdf(d, band, se) - sps.norm.logpdf(d, 0, se), rel=1e-12)
    assert down == pytest.approx(sps.norm.logpdf(d, -band, se) - sps.norm.logpdf(d, 0, se), rel=1e-12)


def test_design_bounds() -> None:
    design = Design(alpha=0.001, beta=0.05, tests=66)
    assert design.upper == pytest.approx(math.log(2 * 66 / 0.001))
    assert design.lower == pytest.approx(math.log(0.05))


STREAMS = 4000


def test_sprt_false_alarm_rate_is_at_most_alpha_on_a_synthetic_stream() -> None:
    """No change: the share of streams failed is at most alpha = 0.05 (one metric, so each side 0.025) plus 3
    binomial standard errors (sqrt(0.05 * 0.95 / 4000) = 0.0034; a false alarm of the test itself 0.13%)."""
    alpha = 0.05
    verdicts, used = _stream_verdicts(0.0, STREAMS, Design(alpha, 0.05, 1), seed=1)
    fails = float(np.mean(verdicts == Verdict.FAIL))
    assert fails <= alpha + 3 * math.sqrt(alpha * (1 - alpha) / STREAMS), fails
    # and the test decides: nearly every stream passes before the fixed size, on far fewer games on average
    assert float(np.mean(verdicts == Verdict.PASS)) >= 0.9
    assert float(np.mean(used)) < 0.5 * 40_000


def test_sprt_false_pass_rate_is_at_most_beta_at_the_tolerance() -> None:
    """A change of exactly the tolerance (+0.05 sd): passed by at most beta = 0.1 of the streams plus 3 binomial
    standard errors (sqrt(0.1 * 0.9 / 4000) = 0.0047)."""
    beta = 0.1
    for delta in (0.05, -0.05):
        verdicts, _ = _stream_verdicts(delta, STREAMS, Design(0.05, beta, 1), seed=2 if delta > 0 else 3)
        passes = float(np.mean(verdicts == Verdict.PASS))
        assert passes <= beta + 3 * math.sqrt(beta * (1 - beta) / STREAMS), (delta, passes)


def test_sprt_catches_a_large_change_early() -> None:
    """A change of twice the tolerance is failed by nearly every stream, on fewer games than the fixed 40,000."""
    verdicts, used = _stream_verdicts(0.1, 1000, Design(0.001, 0.05, 66), seed=4)
    assert float(np.mean(verdicts == Verdict.FAIL)) >= 0.95
    assert float(np.mean(used[verdicts == Verdict.FAIL])) < 20_000


def test_looks_are_equal_batches_ending_at_the_fixed_size() -> None:
    assert looks(40_000) == list(range(2000, 40_001, 2000))
    assert looks(600) == [500, 600]
    assert looks(500) == [500]


# ---------------------------------------------------------------- on the kernel

GAMES = 20_000
FORGETFUL = policy_preset("basic").replace(forget_uno=0.5)


@pytest.fixture(scope="module")
def planted(tmp_path_factory):
    """A one-arm baseline of forgetful basic players at uno_penalty 2 (``same``), and a copy whose rules say 4
    (``changed``): its rerun plays 4 against figures recorded at 2, as code that changed the penalty would. Every
    caught UNO then draws 2 more cards, so cards_drawn rises by at least 2 x uno_caught per round."""
    rules = rules_preset("official")
    arm = Arm("forgetful", rules, (FORGETFUL,) * 4)
    doc = make_baseline([arm], games=GAMES, seed=17, source="test")
    folder = tmp_path_factory.mktemp("seq")
    same = save_baseline(doc, folder / "same.json")
    doc["arms"][0]["rules"]["uno_penalty"] = 4  # the rerun plays 4 cards of penalty where 2 were recorded
    changed = save_baseline(doc, folder / "changed.json")
    return same, changed


def test_a_planted_change_is_caught_sequentially_with_fewer_games(planted) -> None:
    """Over 4 seeds: every sequential check fails cards_drawn, on fewer games on average than the fixed check's
    20,000 (the seeds are fixed, so the figures are the same every run: 5,000, 20,000, 12,000 and 7,000)."""
    _, changed = planted
    played = []
    for seed in (1, 2, 3, 4):
        report = check_sequential(*load_baseline(changed), seed=seed)
        failed = {r.metric for r in report.rows if r.verdict is Verdict.FAIL}
        assert "cards_drawn" in failed, report.rows
        assert report.exit_code == 1
        played.append(report.played)
    assert max(played) <= GAMES
    assert sum(played) / len(played) < GAMES, played


def test_a_no_change_run_passes_sequentially(planted) -> None:
    """At tolerance 0.1 a metric stays open only when its difference is near half the band, 5 standard errors
    away at the full 20,000 games (0.5 x 0.1 sd / (sd sqrt(2 / 20,000))): unchanged code passes."""
    same, _ = planted
    report = check_sequential(*load_baseline(same), seed=99, tolerance=0.1)
    assert report.exit_code == 0, [r for r in report.rows if r.verdict is not Verdict.PASS]
    assert report.played <= GAMES


def test_sequential_at_full_size_sees_the_fixed_checks_sample(planted) -> None:
    """The batches are games 0..k-1 of the check's seed: when the sequential check plays all its games, its
    figures are the fixed check's, to the last digit."""
    same, _ = planted
    doc, arms = load_baseline(same)
    seq = check_sequential(doc, arms, seed=5, games=1200, tolerance=0.001)  # a tiny band: nothing passes early
    fixed = check_statistical(doc, arms, seed=5, games=1200, tolerance=0.001)
    assert seq.played == 1200
    for a, b in zip(seq.rows, fixed.rows, strict=True):
        assert (a.metric, a.now, a.diff) == (b.metric, b.now, b.diff)


def test_cli_sequential_says_how_many_games_it_played(planted) -> None:
    _, changed = planted
    result = CliRunner().invoke(cli, ["check", "--sequential", "--seed", "3", str(changed)])
    assert result.exit_code == 1, result.output
    line = next(s for s in result.output.splitlines() if s.startswith("played "))
    assert line.endswith(")") and f"of at most {GAMES:,} games" in line


def test_exact_and_sequential_cannot_be_combined(planted) -> None:
    same, _ = planted
    result = CliRunner().invoke(cli, ["check", "--exact", "--sequential", str(same)])
    assert result.exit_code == 2 and "cannot be combined" in result.output
    result = CliRunner().invoke(cli, ["check", "--beta", "0.1", str(same)])  # beta means nothing to the fixed check
    assert result.exit_code == 2 and "--sequential" in result.output
    result = CliRunner().invoke(cli, ["check", "--exact", "--games", "600", str(same)])
    assert result.exit_code == 2 and "--games" in result.output


# ---------------------------------------------------------------- the figures of docs/ci.md (pytest -m slow -s)

REAL = __import__("pathlib").Path(__file__).resolve().parent.parent / "sims" / "baselines" / "balance.json"
PLANTS = {"no change": None, "play_drawn 1 -> 0.8": 0.8, "play_drawn 1 -> 0.9": 0.9}


@pytest.mark.slow
@pytest.mark.parametrize("plant", list(PLANTS))
def test_sequential_against_fixed_on_the_real_baseline(plant, tmp_path) -> None:
    """The repository's baseline (3 arms x 40,000 games), its 'official' arm's players planted with a lower
    play_drawn (the rerun plays it where 1 was recorded: passes per round rise by about 1.1 or 0.5, measured over
    40,000 games each, against a tolerance band of 0.42), 8 seeds: the sequential check plays fewer games on
    average than the fixed check's 120,000, and fails every planted run."""
    import json

    doc = json.loads(REAL.read_text())
    if PLANTS[plant] is not None:
        for policy in doc["arms"][0]["policies"]:
            policy["play_drawn"] = PLANTS[plant]
    path = tmp_path / "planted.json"
    path.write_text(json.dumps(doc))
    seq_games, seq_codes, fixed_codes = [], [], []
    for seed in range(1, 9):
        seq = check_sequential(*load_baseline(path), seed=seed)
        fixed = check_statistical(*load_baseline(path), seed=seed)
        seq_games.append(seq.played)
        seq_codes.append(seq.exit_code)
        fixed_codes.append(fixed.exit_code)
    mean = sum(seq_games) / len(seq_games)
    print(f"\n{plant}: sequential games {seq_games} (mean {mean:,.0f}) exit {seq_codes}; fixed 120,000 exit {fixed_codes}")
    assert mean < 120_000
    if PLANTS[plant] is not None:
        assert all(code == 1 for code in seq_codes)


def test_step_decides_by_the_bounds() -> None:
    """Hand-computed cases: with se 0.01 and band 0.02, I = 10,000 and log LR(+band) = 200 (d - 0.01)."""
    design = Design(alpha=0.001, beta=0.05, tests=10)  # upper log(20,000) = 9.90, lower log(0.05) = -3.00
    state = new_state()
    step(state, design, 0.059, 0.01, 0.02, True, 1000)  # 200 x 0.049 = 9.8: below 9.90, still open
    assert state.verdict is None and state.up.open and not state.down.open  # down: 200 x (-0.069) = -13.8
    step(state, design, 0.06, 0.01, 0.02, True, 2000)  # 200 x 0.05 = 10.0: fails
    assert state.verdict is Verdict.FAIL and state.games == 2000
    state = new_state()
    step(state, design, 0.0, 0.01, 0.02, False, 1000)  # not decidable yet: untouched
    assert state.verdict is None and state.games == 0
    step(state, design, 0.0, 0.01, 0.02, True, 1000)  # both sides -2.0: open
    assert state.verdict is None
    step(state, design, 0.0, 0.005, 0.02, True, 4000)  # I = 40,000: both -8.0: passes
    assert state.verdict is Verdict.PASS
    state = new_state()
    step(state, design, 0.0, 0.0, 0.0, True, 500)  # no spread anywhere, equal: pass (as the fixed check)
    assert state.verdict is Verdict.PASS
    state = new_state()
    step(state, design, 0.1, 0.0, 0.0, True, 500)  # no spread, different: fail
    assert state.verdict is Verdict.FAIL
