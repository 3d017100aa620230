"""``unocli check --sequential``: the statistical check as a sequential probability ratio test (Wald's SPRT).

The fixed check asks, per metric: has it moved (fail), or is the move inside
the tolerance band ``±Δ`` (pass)? The sequential check asks the same question
as two hypotheses, H0: no change (δ = 0) against H1: a change of the
tolerance (|δ| = Δ), and plays in batches until every metric is decided.

Why an SPRT applies to a fresh sample against a *fixed* baseline. With the
baseline's mean m0 over n0 games (error variance σ²/n0) and the fresh mean
over k games, the difference D_k has variance σ²(1/k + 1/n0) and
Cov(D_j, D_k) = Var(D_k) for j < k (the baseline's error is shared). So the
score S = D·I, with information I = 1/Var(D), has independent increments in
I: it is a Brownian motion with drift δ in information time, and its
likelihood ratio for δ = Δ against δ = 0, exp(ΔS - Δ²I/2), is a martingale
under H0, whatever the looks (Jennison & Turnbull 2000, ch. 3 and 11).

Per metric, two one-sided SPRTs (for +Δ and -Δ; Sobel & Wald 1949), with
bounds taken from Ville's inequality, so they hold at any stopping time:

* a side whose log ratio reaches log(2m/α) *fails* the metric; under H0 this
  happens with probability at most α/(2m) per side, so at most α over the m
  metrics and seat shares of the file (Bonferroni, as the fixed check's
  interval): the family-wise false-alarm rate is α;
* a side whose log ratio falls to log β is closed ("no change that way");
  the metric *passes* when both sides are closed. When the change is exactly
  the tolerance this happens with probability at most β per metric (the
  inverse ratio is a martingale under H1).

A metric between 0 and Δ may go either way. A metric the baseline never saw
move (mean and sd 0) has no band; its alternative is ``tolerance`` times the
fresh sample's spread. Metrics are only judged when the
samples are large enough for the normal approximation (the fixed check's
``decidable``); a metric still open after the fixed check's number of games is
*inconclusive*. The variance is the plug-in one the fixed check uses (the
larger of the two sample spreads), re-estimated at every look.

Each arm plays games ``0 .. k-1`` of the check's seed, the same deal stream as
the fixed check's; an arm stops as soon as its metrics are decided, so at most
the fixed check's games are played.
"""

from __future__ import annotations

import math
import secrets
from dataclasses import dataclass, replace
from typing import Any

from unocli.balance.baseline import Progress
from unocli.balance.check import MIN_GAMES, CheckReport, CheckRow, MetricTest, Verdict, arm_tests, row_detectable, unchecked
from unocli.run.backends import Backend
from unocli.study.arm import Arm
from unocli.study.simulate import SimulationResult, simulate
from unocli.study.stats import norm_quantile

LOOKS = 20  # at most this many looks: a batch is games / LOOKS (at least MIN_GAMES games)


@dataclass(frozen=True)
class Design:
    """The SPRT's bounds on the log likelihood ratio: ``upper`` fails, ``lower`` closes a side."""

    alpha: float  # family-wise false-alarm rate
    beta: float  # each metric's chance to pass a change of exactly the tolerance
    tests: int  # metrics and seat shares in the family

    @property
    def upper(self) -> float:
        return math.log(2 * self.tests / self.alpha)

    @property
    def lower(self) -> float:
        return math.log(self.beta)


@dataclass
class Side:
    """One one-sided SPRT of a metric: open until its ratio crosses a bound."""

    open: bool = True


@dataclass
class MetricState:
    """The two sides of one metric's test, its verdict once decided and the games it took."""

    up: Side
    down: Side
    verdict: Verdict | None = None
    games: int = 0


def new_state() -> MetricState:
    return MetricState(Side(), Side())


def log_ratios(diff: float, se: float, band: float) -> tuple[float, float]:
    """The log likelihood ratios of δ = +band and δ = -band against δ = 0, for ``diff`` with standard error ``se``.

    log LR(±Δ) = ±Δ S - Δ² I / 2 with I = 1/se² and S = diff I.
    """
    info = 1.0 / (se * se)
    return band * info * (diff - band / 2), band * info * (-diff - band / 2)


def step(state: MetricState, design: Design, diff: float, se: float, band: float, decidable: bool, games: int) -> None:
    """Update one metric's test with its difference after ``games`` fresh games (nothing once decided)."""
    if state.verdict is not None or not decidable or not math.isfinite(diff):
        return
    state.games = games
    if not se > 0:  # no spread on either side: equal values pass, any difference fails (as the fixed check)
        state.verdict = Verdict.PASS if diff == 0 else Verdict.FAIL
        return
    if not band > 0:  # no alternative to test against (a zero band and a zero fresh spread): leave it open
        return
    for side, ratio in zip((state.up, state.down), log_ratios(diff, se, band), strict=True):
        if not side.open:
            continue
        if ratio >= design.upper:
            state.verdict = Verdict.FAIL
            return
        if ratio <= design.lower:
            side.open = False
    if not state.up.open and not state.down.open:
        state.verdict = Verdict.PASS


def band(t: MetricTest, tolerance: float) -> float:
    """The tolerance the SPRT's alternative sits at: the fixed check's band, or, for a metric the baseline never
    saw move (mean and sd 0, where that band is 0 and no alternative exists), ``tolerance`` times the spread the
    test uses, which is then the fresh sample's."""
    return tolerance * (t.band if t.band > 0 else t.sd)


def looks(games: int) -> list[int]:
    """The cumulative game counts at which the check looks: equal batches, the last one the full ``games``."""
    batch = max(MIN_GAMES, math.ceil(games / LOOKS))
    points = list(range(batch, games, batch))
    return [*points, games]


def _row(t: MetricTest, state: MetricState, design: Design) -> CheckRow:
    """The metric's figures at its last look: the Bonferroni interval the fixed check would show at that size."""
    d = t.test
    z = norm_quantile(1 - design.alpha / (2 * design.tests))
    verdict = state.verdict or Verdict.INCONCLUSIVE
    return CheckRow(
        t.arm,
        t.metric,
        t.baseline,
        t.now,
        d.diff,
        d.diff - z * d.se,
        d.diff + z * d.se,
        math.nan,  # p-values of a sequential test are not the fixed test's: the verdict reads the SPRT's bounds
        verdict,
        detectable=row_detectable(t, design.alpha, design.tests),
        games=t.n_now,
    )


def check_sequential(
    doc: dict[str, Any],
    arms: list[Arm],
    *,
    seed: int | None = None,
    games: int | None = None,
    alpha: float = 0.001,
    beta: float = 0.05,
    tolerance: float = 0.05,
    backend: Backend | None = None,
    progress: Progress | None = None,
) -> CheckReport:
    """Play every arm in batches on the fixed check's deal stream until each metric passes or fails (see module)."""
    seed = secrets.randbits(64) if seed is None else seed
    games = games or int(doc["games"])
    tests = sum(len(rec["metrics"]) + len(rec["wins"]) for rec in doc["arms"])
    design = Design(alpha, beta, tests)
    rows: list[CheckRow] = []
    missing: list[str] = []
    played = 0
    for i, (arm, rec) in enumerate(zip(arms, doc["arms"], strict=True)):
        arm_rows, arm_played, arm_missing = _run_arm(arm, rec, design, tolerance, seed, games, backend, progress, i, len(arms))
        rows += arm_rows
        missing += arm_missing
        played += arm_played
    return CheckReport(
        "sequential", seed, games, alpha, tolerance, rows, beta=beta, played=played, arms=len(arms), unchecked=missing
    )


def _run_arm(
    arm: Arm,
    rec: dict[str, Any],
    design: Design,
    tolerance: float,
    seed: int,
    games: int,
    backend: Backend | None,
    progress: Progress | None,
    index: int,
    count: int,
) -> tuple[list[CheckRow], int, list[str]]:
    """One arm's batches: games ``done .. k-1`` of ``seed`` are added at each look until every metric is decided."""
    result: SimulationResult | None = None
    states: list[MetricState] = []
    tests: list[MetricTest] = []
    done = 0
    for k in looks(games):
        batch = simulate(
            arm.rules,
            arm.policies,
            games=k - done,
            seed=seed,
            start=done,
            match=arm.match,
            rotate_seats=arm.rotate_seats,
            labels=arm.labels or None,
            backend=backend,
        )
        result = batch if result is None else replace(result, acc=result.acc.merge(batch.acc))
        done = k
        if progress is not None:
            progress(index * games + done, count * games)
        tests = arm_tests(arm.name, rec, result)
        states = states or [new_state() for _ in tests]
        for t, state in zip(tests, states, strict=True):
            step(state, design, t.test.diff, t.test.se, band(t, tolerance), t.decidable, done)
        if all(s.verdict is not None for s in states):
            break
    assert result is not None  # looks() is never empty
    return [_row(t, s, design) for t, s in zip(tests, states, strict=True)], done, unchecked(arm.name, rec, result)
