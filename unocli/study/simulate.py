"""The typed Python API the CLI and reports are thin layers over."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING, Any

import numpy as np

from unocli.errors import ConfigError
from unocli.game.counters import COUNTERS, Outcome
from unocli.game.limits import check_games, check_seed
from unocli.game.policies import Policy
from unocli.game.policies import preset as policy_preset
from unocli.game.rules import Rules
from unocli.kernel import ROW_NAMES
from unocli.run.accumulate import METRICS, Accumulator
from unocli.run.backends import Backend, LocalBackend
from unocli.run.precision import DEFAULT_FIRST_BATCH, DEFAULT_MAX_GAMES, TargetInfo, check_target, play_to_target
from unocli.run.shards import RunSpec, run_shard, split
from unocli.study.arm import Arm
from unocli.study.stats import Difference, Proportion, clustered_share, paired_t, t_interval, wilson
from unocli.version import __version__

if TYPE_CHECKING:
    import pandas as pd

DEFAULT_BATCH = 1 << 18  # games per shard when no per-game rows are made
ROWS_BATCH = 1 << 16  # ... and when they are (kept games, seat rotation): a shard's rows are 47 int64 per game
MATCH_METRICS = ("rounds", "rounds_blocked", "rounds_capped", "rounds_stuck")

Progress = Callable[[int, int], None]


def check_run_args(games: int, seed: int) -> None:
    """Refuse a game count or seed the kernel cannot take (the checks of the CLI and experiment files)."""
    for value in (games, seed):
        if isinstance(value, str):
            raise ConfigError(f"games and seed must be whole numbers, not the text {value!r}")
    check_games(games)
    check_seed(seed)


def seat_policies(rules: Rules, policies: Policy | Sequence[Policy] | None) -> tuple[Policy, ...]:
    """One policy per seat: None means random everywhere; one policy is copied to every seat."""
    if policies is None:
        return (policy_preset("random"),) * rules.players
    if isinstance(policies, Policy):
        return (policies,) * rules.players
    policies = tuple(policies)
    if len(policies) != rules.players:
        raise ConfigError(f"{len(policies)} policies given for {rules.players} players: give one per seat")
    return policies


@dataclass
class RotationStats:
    """Per-deal win counts of each policy when every deal is played once per seat rotation.

    ``s1[L]`` sums, over deals, the number of rotations policy ``L`` won;
    ``s2[L, M]`` sums the products, so every paired difference has an exact
    per-deal variance. Deals are independent; the rotations of one deal are not,
    so paired intervals are computed over deals.
    """

    labels: tuple[str, ...]
    deals: int = 0
    s1: np.ndarray | None = None
    s2: np.ndarray | None = None

    def add(self, wins: np.ndarray) -> None:
        """``wins[g, L]``: rotations of deal g won by policy L."""
        w = wins.astype(np.int64)
        s1, s2 = w.sum(axis=0), w.T @ w
        self.s1 = s1 if self.s1 is None else self.s1 + s1
        self.s2 = s2 if self.s2 is None else self.s2 + s2
        self.deals += w.shape[0]

    @property
    def rotations(self) -> int:
        return len(self.labels)

    def groups(self) -> dict[str, list[int]]:
        """Seat slots of each distinct policy label, in order of first appearance."""
        out: dict[str, list[int]] = {}
        for slot, label in enumerate(self.labels):
            out.setdefault(label, []).append(slot)
        return out

    def shares(self) -> pd.DataFrame:
        """Each policy's share of the games it played that it won, with a 95% interval clustered by deal.

        A label held by several seats pools their games. The rotations of one
        deal are not independent (its seat shares sum to one), so the interval
        is Student's t over deals, each deal contributing its share of that
        policy's games won (``stats.clustered_share``); ``n`` counts deals.
        """
        import pandas as pd  # pandas costs ~0.6 s to import; the CLI's text summary does without

        rows = []
        for label, slots in self.groups().items():
            per_deal = self.rotations * len(slots)
            if self.s1 is None or self.s2 is None:
                wins, share = 0, clustered_share(0, 0.0, 0.0, per_deal)
            else:
                c = np.zeros(len(self.labels))
                c[slots] = 1.0
                wins = int(c @ self.s1)
                share = clustered_share(self.deals, float(wins), float(c @ self.s2 @ c), per_deal)
            rows.append(
                {
                    "policy": label,
                    "seats": len(slots),
                    "wins": wins,
                    "share": share.mean,
                    "ci_low": share.low,
                    "ci_high": share.high,
                    "n": self.deals,
                }
            )
        return pd.DataFrame(rows)

    def difference(self, a: str, b: str) -> Difference:
        """Win share of policy ``a`` minus policy ``b``, paired over deals, with a 95% t interval.

        Per deal, each policy's share is its wins over the rotations divided by
        (rotations x its seats); the interval comes from the spread of the
        per-deal differences, which are independent across deals (deals are
        the clusters; ``n`` counts deals).
        """
        if self.s1 is None or self.s2 is None:  # no deals yet
            return paired_t(0, 0.0, 0.0)
        groups = self.groups()
        coef = np.zeros(len(self.labels))
        for s in groups[a]:
            coef[s] += 1.0 / (self.rotations * len(groups[a]))
        for s in groups[b]:
            coef[s] -= 1.0 / (self.rotations * len(groups[b]))
        return paired_t(self.deals, float(coef @ self.s1), float(coef @ self.s2 @ coef))


@dataclass
class SimulationResult:
    """The outcome of :func:`simulate`: exact aggregates, and per-game rows when kept."""

    rules: Rules
    policies: tuple[Policy, ...]
    seed: int
    match: bool
    acc: Accumulator
    games_frame: pd.DataFrame | None = None
    rotation: RotationStats | None = None
    target: TargetInfo | None = None
    labels: tuple[str, ...] = ()  # each seat's policy as the table named it (a spec); empty: none given

    @property
    def games(self) -> int:
        return self.acc.games

    @property
    def metric_names(self) -> tuple[str, ...]:
        return METRICS if self.match else COUNTERS

    def summary(self) -> pd.DataFrame:
        """One row per metric: mean, sd, 95% CI and n, over the finished games (won or blocked).

        Per round, or per match with --match. Capped and stuck games are left out:
        their length is the cap or the moment the loop was noticed, not a length
        of play; their shares are in :meth:`outcomes`.
        """
        import pandas as pd  # see RotationStats.shares

        return pd.DataFrame(self._summary_rows())

    def _summary_rows(self) -> list[dict[str, Any]]:
        rows = []
        for name in self.metric_names:
            est = t_interval(self.acc.finished, *self.acc.metric_sums(name))
            rows.append({"metric": name, "mean": est.mean, "sd": est.sd, "ci_low": est.low, "ci_high": est.high, "n": est.n})
        return rows

    def win_shares(self) -> pd.DataFrame:
        """Each seat's share of all games won, with a Wilson 95% interval."""
        import pandas as pd  # see RotationStats.shares

        return pd.DataFrame(self._share_rows())

    def _share_rows(self) -> list[dict[str, Any]]:
        rows = []
        for seat in range(self.rules.players):
            w = wilson(self.acc.wins[seat], self.acc.games)
            rows.append({"seat": seat, "wins": w.successes, "share": w.share, "ci_low": w.low, "ci_high": w.high, "n": w.n})
        return rows

    def points(self) -> pd.DataFrame:
        """Each seat's mean points per game, with a 95% interval."""
        import pandas as pd  # see RotationStats.shares

        rows = []
        for seat in range(self.rules.players):
            est = t_interval(self.acc.games, self.acc.points[seat], self.acc.points_sq[seat])
            rows.append({"seat": seat, "mean": est.mean, "sd": est.sd, "ci_low": est.low, "ci_high": est.high, "n": est.n})
        return pd.DataFrame(rows)

    def outcomes(self) -> dict[str, int]:
        return {str(o): self.acc.outcomes[o] for o in Outcome}

    def opening_shares(self) -> dict[str, Proportion]:
        """Share of all games won by the seat that took the first turn, and by the dealer (Wilson 95%)."""
        return {
            "first_player": wilson(self.acc.first_player_wins, self.acc.games),
            "dealer": wilson(self.acc.dealer_wins, self.acc.games),
        }

    def place_shares(self) -> pd.DataFrame:
        """Win share by place after the dealer: 1 is the seat after the dealer, ``players`` the dealer."""
        import pandas as pd  # see RotationStats.shares

        return pd.DataFrame(self._place_rows())

    def _place_rows(self) -> list[dict[str, Any]]:
        rows = []
        for k in range(self.rules.players):
            w = wilson(self.acc.place_wins[k], self.acc.games)
            rows.append({"place": k + 1, "wins": w.successes, "share": w.share, "ci_low": w.low, "ci_high": w.high, "n": w.n})
        return rows

    def to_json(self) -> dict[str, Any]:
        """The stable machine-readable summary (documented in the README).

        Built from plain rows, not the DataFrames: ``simulate --json`` need not import pandas.
        """
        return {
            "unocli_version": __version__,
            "games": self.games,
            "seed": self.seed,
            "match": self.match,
            "rules": self.rules.to_dict(),
            "policies": [p.to_dict() for p in self.policies],
            "metrics": {
                r["metric"]: {"mean": r["mean"], "sd": r["sd"], "ci95": [r["ci_low"], r["ci_high"]]} for r in self._summary_rows()
            },
            "win_share": [
                {"seat": int(r["seat"]), "wins": int(r["wins"]), "share": r["share"], "ci95": [r["ci_low"], r["ci_high"]]}
                for r in self._share_rows()
            ],
            **{
                name: {"wins": w.successes, "share": w.share, "ci95": [w.low, w.high]}
                for name, w in self.opening_shares().items()
            },
            "win_share_by_place_after_dealer": [
                {"place": int(r["place"]), "wins": int(r["wins"]), "share": r["share"], "ci95": [r["ci_low"], r["ci_high"]]}
                for r in self._place_rows()
            ],
            "finished": self.acc.finished,
            "outcomes": self.outcomes(),
            **({"rotate_seats": self._rotation_json()} if self.rotation is not None else {}),
            **({"target": self.target.to_dict()} if self.target is not None else {}),
        }

    def _rotation_json(self) -> dict[str, Any]:
        rot = self.rotation
        assert rot is not None
        shares = rot.shares()
        names = list(rot.groups())
        pairs = [(a, b, rot.difference(a, b)) for i, a in enumerate(names) for b in names[i + 1 :]]
        return {
            "deals": rot.deals,
            "policies": [
                {
                    "policy": r.policy,
                    "seats": int(r.seats),
                    "wins": int(r.wins),
                    "share": r.share,
                    "ci95": [r.ci_low, r.ci_high],
                    "n": int(r.n),
                }
                for r in shares.itertuples()
            ],
            "paired_differences": [
                {"a": a, "b": b, "diff": d.diff, "ci95": [d.low, d.high], "n_deals": d.n} for a, b, d in pairs
            ],
        }


def games_frame(rows: np.ndarray, players: int, first_index: int, rotated: bool = False) -> pd.DataFrame:
    """Per-game rows as a DataFrame (unused seats' columns dropped)."""
    import pandas as pd  # see RotationStats.shares

    columns = [*ROW_NAMES, "rotation"] if rotated else list(ROW_NAMES)
    df = pd.DataFrame(rows, columns=columns)
    unused = [f"{prefix}_{s}" for prefix in ("cards_left", "points") for s in range(players, 10)]
    df = df.drop(columns=unused)
    if rotated:
        # rows come batch by batch, rotation by rotation: recover each row's game index
        games = np.empty(len(df), dtype=np.int64)
        pos, index = 0, first_index
        rot = df["rotation"].to_numpy()
        while pos < len(df):
            end = pos
            while end < len(df) and rot[end] == rot[pos]:
                end += 1
            length = end - pos
            games[pos:end] = np.arange(index, index + length)
            if end == len(df) or rot[end] == 0:
                index += length
            pos = end
        df.insert(0, "game", games)
    else:
        df.insert(0, "game", np.arange(first_index, first_index + len(df), dtype=np.int64))
    df["outcome"] = pd.Categorical.from_codes(df["outcome"], [str(o) for o in Outcome])
    return df


def simulate(
    table: Rules | Arm,
    policies: Policy | Sequence[Policy] | None = None,
    *,
    games: int,
    seed: int = 0,
    threads: int | None = None,
    keep_games: bool = False,
    match: bool = False,
    start: int = 0,
    batch_size: int | None = None,
    progress: Progress | None = None,
    rotate_seats: bool = False,
    labels: Sequence[str] | None = None,
    backend: Backend | None = None,
    target_error: float | None = None,
    metric: str = "turns",
    max_games: int = DEFAULT_MAX_GAMES,
) -> SimulationResult:
    """Play ``games`` games (rounds, or matches with ``match=True``) with the numba kernel.

    Parameters
    ----------
    table, policies
        An :class:`~unocli.study.arm.Arm`, as ``compare`` and ``sweep`` play (it holds the
        policies, labels, match and rotate_seats); or a rule set and one policy per seat
        (one policy is copied to every seat; None plays the canonical random policy).
    games, seed, start
        Games ``start .. start + games - 1`` of run ``seed``; each is a pure
        function of (rules, policies, seed, index).
    threads
        Numba threads (default all). Results do not depend on it.
    keep_games
        Also return every game's row as a DataFrame (memory grows with games).
    batch_size
        Games per shard; only memory, progress granularity and speed depend
        on it. By default :data:`DEFAULT_BATCH` (2**18), or
        :data:`ROWS_BATCH` (2**16) when per-game rows are made (``keep_games``,
        ``rotate_seats``). Every shard costs a few milliseconds of Python
        around the kernel call: on one thread, 1,000,000 official rounds ran
        at 619k rounds per CPU-second in shards of 2**16 and 638k in shards of
        2**18 (median of 5 alternated runs).
    progress
        Called as ``progress(done, total)`` after each shard.
    rotate_seats
        Play every deal once per rotation of the seat assignment (the policy of
        seat ``s`` sits at ``(s + k) mod n`` in rotation ``k``), on the same
        streams, so seat advantage cancels when policies are compared. Each
        game index then yields ``n`` rounds (or matches).
    labels
        Names of the policies by seat, for reports (default ``seat0`` ...).
    backend
        Where shards run (default: this process).
    target_error, metric, max_games
        Precision on demand: ``games`` is then the first batch, and batches
        are added until the 95% CI half-width of ``metric`` (one of
        ``metric_names``) is at most ``target_error`` or ``max_games`` games
        were played; ``result.target`` says how it went.
    """
    rules, policies, labels, match, rotate_seats = _table(table, policies, labels, match, rotate_seats)
    if target_error is not None:
        _check_target(target_error, metric, max_games, match)
    # with a target, games is only the first batch and 0 means the default one
    check_run_args((games or DEFAULT_FIRST_BATCH) if target_error is not None else games, seed)
    seats = seat_policies(rules, policies)
    spec = RunSpec(
        rules=rules,
        policies=seats,
        seed=int(seed),
        match=match,
        rotate_seats=rotate_seats,
        keep_games=keep_games,
        threads=threads,
    )
    run = _Run(spec, tuple(labels or ()), backend or LocalBackend(), start, _shard_size(batch_size, spec), progress)
    target = play_to_target(
        run.play, partial(run.half_width, metric), first=games, target_error=target_error, metric=metric, max_games=max_games
    )
    return run.result(seed, target)


def _table(
    table: Rules | Arm, policies: Any, labels: Sequence[str] | None, match: bool, rotate_seats: bool
) -> tuple[Rules, Any, Sequence[str] | None, bool, bool]:
    """:func:`simulate`'s table as rules, policies, labels (None: seat0 ...), match and rotate_seats."""
    if not isinstance(table, Arm):
        return table, policies, labels, match, rotate_seats
    if policies is not None or labels is not None or match or rotate_seats:
        raise ConfigError("an Arm holds its policies, labels, match and rotate_seats: give them in the Arm")
    return table.rules, table.policies, table.labels or None, table.match, table.rotate_seats


def _shard_size(batch_size: int | None, spec: RunSpec) -> int:
    """The games per shard asked for, or the default for this run (see :func:`simulate`)."""
    if batch_size is None:
        return ROWS_BATCH if spec.keep_games or spec.rotate_seats else DEFAULT_BATCH
    if isinstance(batch_size, bool) or not isinstance(batch_size, int) or batch_size < 1:
        raise ConfigError(f"batch_size must be a positive whole number, not {batch_size!r}")
    return batch_size


def _check_target(target_error: float, metric: str, max_games: int, match: bool) -> None:
    """Refuse a bad target error or ``max_games``, or a metric a run of this kind does not measure."""
    check_target(target_error, max_games)
    names = METRICS if match else COUNTERS
    if metric not in names:
        raise ConfigError(f"unknown metric {metric!r} for --target-error; the metrics are: {', '.join(names)}")


class _Run:
    """The running totals of one :func:`simulate` call, played batch by batch."""

    def __init__(
        self, spec: RunSpec, labels: tuple[str, ...], runner: Backend, start: int, batch_size: int, progress: Progress | None
    ) -> None:
        self.spec, self.runner, self.start, self.batch_size, self.progress = spec, runner, start, batch_size, progress
        self.labels = labels  # the seats' policy specs as the caller named them (empty: none), for the result
        self.acc = Accumulator(players=spec.rules.players)
        names = labels or tuple(f"seat{s}" for s in range(spec.rules.players))
        self.rotation = RotationStats(labels=names) if spec.rotate_seats else None
        self.kept: dict[int, np.ndarray] = {}

    def play(self, done: int, count: int) -> None:
        """Play games ``start + done .. start + done + count - 1`` and fold them in."""
        played = 0
        for part in self.runner.map_unordered(partial(run_shard, self.spec), split(self.start + done, count, self.batch_size)):
            self.acc = self.acc.merge(part.acc)
            if self.rotation is not None and part.wins is not None:
                self.rotation.add(part.wins)
            if part.rows is not None:
                self.kept[part.start] = part.rows
            played += part.count
            if self.progress is not None:
                self.progress(done + played, done + count)

    def half_width(self, metric: str) -> float:
        """The 95% interval half-width of ``metric`` over the games so far."""
        return t_interval(self.acc.finished, *self.acc.metric_sums(metric)).half_width

    def result(self, seed: int, target: TargetInfo | None) -> SimulationResult:
        spec, frame = self.spec, None
        if spec.keep_games:
            rows = np.concatenate([self.kept[k] for k in sorted(self.kept)])
            frame = games_frame(rows, spec.rules.players, self.start, rotated=spec.rotate_seats)
        return SimulationResult(
            rules=spec.rules,
            policies=spec.policies,
            seed=seed,
            match=spec.match,
            acc=self.acc,
            games_frame=frame,
            rotation=self.rotation,
            target=target,
            labels=self.labels,
        )
