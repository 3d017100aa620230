"""Commands that run the kernel: ``simulate`` and ``bench`` (thin layers over ``study.simulate`` and ``run.bench``)."""

from __future__ import annotations

import json
import math
import sys
import time
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

import click

from unocli.cli.backend import backend_options, make_backend
from unocli.cli.options import (
    UnoCommand,
    games_type,
    load_policy_file,
    match_option,
    policies_file_option,
    policy_options,
    refuse_without_target,
    rules_options,
    seed_option,
    table_spec,
    target_options,
    threads_option,
)
from unocli.errors import ConfigError
from unocli.files import check_table_path, write_table
from unocli.game.policies import SearchMode
from unocli.kernel import is_compiled
from unocli.report import fmt
from unocli.run import bench as bench_mod
from unocli.run.precision import DEFAULT_MAX_GAMES
from unocli.study.simulate import RotationStats, SimulationResult, simulate
from unocli.study.stats import Proportion, t_interval, wilson

PROGRESS_AFTER = 2.0  # seconds before a progress bar appears


def games_option(default: int):
    return click.option(
        "--games",
        type=games_type(),
        default=default,
        show_default=True,
        help="Games to play (rounds, or matches with --match), 1 to 2**63 - 1.",
    )


def duration(seconds: float) -> str:
    """Seconds as a clock reads them: ``0:07``, ``12:05``, ``1:02:03`` (rounded up: an ETA is not early)."""
    total = max(math.ceil(seconds), 0)
    h, rest = divmod(total, 3600)
    m, s = divmod(rest, 60)
    return f"{h}:{m:02d}:{s:02d}" if h else f"{m}:{s:02d}"


class Progress:
    """A progress bar on stderr, shown only on a terminal and once a run passes a couple of seconds."""

    def __init__(self, enabled: bool) -> None:
        self.enabled = enabled and sys.stderr.isatty()
        self.t0 = time.perf_counter()
        self.shown = False

    def __call__(self, done: int, total: int) -> None:
        if not self.enabled or time.perf_counter() - self.t0 < PROGRESS_AFTER:
            return
        if not self.shown:
            end_compile_notice()  # the bar takes the line after the compile notice's
        self.shown = True
        width = 30
        filled = int(width * done / total)
        rate = done / max(time.perf_counter() - self.t0, 1e-9)
        eta = f", ETA {duration(max(total - done, 0) / rate)}" if rate > 0 else ""
        sys.stderr.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done:,}/{total:,} games, {rate:,.0f}/s{eta} ")
        sys.stderr.flush()

    def close(self) -> None:
        if self.shown:
            sys.stderr.write("\n")


COMPILE_NOTICE = "unocli: compiling the simulation kernel (first run only; about half a minute)..."
# The search players' kernels (about half a minute more on a quiet machine: docs/performance.md).
COMPILE_NOTICE_MORE = "unocli: compiling the simulation kernels, search players included (first run only; about a minute)..."
SPINNER = "|/-\\"


class CompileNotice:
    """The compile notice: one line, and on a terminal a spinner with the seconds elapsed on that line.

    The spinner runs in a daemon thread (numba's compiler releases the GIL in
    LLVM, so it keeps turning) until the kernel is compiled or :meth:`finish`
    is called, whichever comes first; ``finish`` also ends the line, so
    whatever prints next starts on a line of its own.
    """

    def __init__(self, stream: Any = None, done: Any = None, interval: float = 0.25, text: str = COMPILE_NOTICE) -> None:
        self.stream = stream if stream is not None else sys.stderr
        self.text = text
        self.done = done if done is not None else is_compiled
        self.interval = interval
        self._stop: Any = None
        self._thread: Any = None
        self.t0 = time.perf_counter()

    def start(self) -> CompileNotice:
        if not self.stream.isatty():
            self.stream.write(self.text + "\n")
            self.stream.flush()
            return self
        import threading  # only when a terminal shows the spinner

        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._spin, daemon=True)
        self._thread.start()
        return self

    def _spin(self) -> None:
        k = 0
        while not self._stop.is_set() and not self.done():
            elapsed = time.perf_counter() - self.t0
            self.stream.write(f"\r{self.text} {SPINNER[k % len(SPINNER)]} {elapsed:.0f} s ")
            self.stream.flush()
            k += 1
            self._stop.wait(self.interval)
        self.stream.write(f"\r{self.text} {time.perf_counter() - self.t0:.0f} s \n")
        self.stream.flush()

    def finish(self) -> None:
        if self._thread is not None:
            self._stop.set()
            self._thread.join()
            self._thread = None


_notice: CompileNotice | None = None


def compiled(kernel: str) -> bool:
    """Is ``kernel`` (``unocli.kernel.KERNELS``) in numba's cache? The decision kernel's module answers for it."""
    if kernel == "decision":
        from unocli.kernel import bluff_decision

        return bluff_decision.is_compiled()
    return is_compiled(kernel)


def announce_compile(quiet: bool, spinner: bool = True, kernels: Sequence[str] = ("batch",)) -> None:
    """Say that kernels compile (with a spinner on a terminal), unless quiet or all of ``kernels`` are compiled.

    ``kernels`` names what the run will use (``kernel.KERNELS``: "search" when a seat searches,
    "decision" for the bluff report's decision table); the spinner turns until they are all compiled
    or something else prints. ``spinner=False`` for commands that print their own progress while the
    kernel compiles (bench).
    """
    global _notice
    missing = [k for k in kernels if not compiled(k)]
    if quiet or not missing:
        return
    text = COMPILE_NOTICE if missing == ["batch"] else COMPILE_NOTICE_MORE
    if spinner:
        _notice = CompileNotice(done=lambda: all(compiled(k) for k in missing), text=text).start()
    else:
        click.echo(text, err=True)


def end_compile_notice() -> None:
    """Stop the spinner and end its line, before anything else is printed to stderr."""
    if _notice is not None:
        _notice.finish()


def text_table(columns: Mapping[str, Sequence[object]]) -> str:
    """Columns as ``DataFrame(columns).to_string(index=False)`` prints them, without importing pandas.

    Every column is right-aligned under its header, columns one space apart;
    a column of whole numbers has its header one space further right, as
    pandas prints it. tests/test_startup.py compares the two.
    """
    cells: list[list[str]] = []
    for name, values in columns.items():
        numeric = bool(values) and all(isinstance(v, int) and not isinstance(v, bool) for v in values)
        column = [f" {name}" if numeric else name, *(str(v) for v in values)]
        width = max(len(c) for c in column)
        cells.append([c.rjust(width) for c in column])
    return "\n".join(" ".join(row) for row in zip(*cells, strict=True))


def format_result(result: SimulationResult) -> str:
    """The human-readable report of a simulation (see :mod:`unocli.report.fmt` for the number formats).

    Built from the accumulator through :mod:`unocli.study.stats`, as
    ``SimulationResult.summary`` and ``win_shares`` are, but without their
    DataFrames: pandas alone would double the time of a short run
    (tests/test_startup.py checks the figures are the same).
    """
    r = result
    unit = "matches" if r.match else "rounds"
    lines = [f"{fmt.count(r.games)} {unit}, {r.rules.players} players, seed {r.seed}"]
    estimates = [t_interval(r.acc.finished, *r.acc.metric_sums(name)) for name in r.metric_names]
    table = {
        "metric": list(r.metric_names),
        "mean": [fmt.point(e.mean, e.low, e.high) for e in estimates],
        "95% CI": [fmt.bounds(e.low, e.high) for e in estimates],
        "sd": [fmt.sig(e.sd) for e in estimates],
    }
    left_out = r.games - r.acc.finished
    scope = f", finished {unit} only: {fmt.count(left_out)} capped or stuck left out" if left_out else ""
    lines += [
        "",
        f"Per {unit[:-2] if r.match else 'round'} (n = {fmt.count(r.acc.finished)}{scope}):",
        text_table(table),
    ]
    shares = [wilson(r.acc.wins[seat], r.acc.games) for seat in range(r.rules.players)]
    seat_table: dict[str, Sequence[object]] = {
        "seat": list(range(r.rules.players)),
        "policy": ["(rotated)" if r.rotation is not None else policy_name(r, s) for s in range(r.rules.players)],
        "wins": [fmt.count(w.successes) for w in shares],
        **_share_columns([(w.share, w.low, w.high) for w in shares]),
    }
    lines += [
        "",
        f"Seat win shares (n = {fmt.count(r.games)}; seat 0 is dealt to first, the dealer is the last seat):",
        text_table(seat_table),
    ]
    if not r.match:
        lines += ["", "Who wins, by role (the first player takes the first turn once the start card has acted):"]
        lines += [_role_line(name, w) for name, w in r.opening_shares().items()]
    lines += ["", "Outcomes: " + ", ".join(f"{k} {fmt.count(v)}" for k, v in r.outcomes().items())]
    if r.rotation is not None:
        lines += _rotation_lines(r.rotation)
    return "\n".join(lines)


def _role_line(name: str, w: Proportion) -> str:
    share = fmt.point(w.share, w.low, w.high, kind="share")
    return f"  {name.replace('_', ' '):<13}{share} {fmt.bounds(w.low, w.high, kind='share')}"


def _share_columns(shares: list[tuple[float, float, float]], how: str = "Wilson") -> dict[str, list[str]]:
    """Win shares (share, low, high) and their 95% intervals (computed ``how``) as percentages, in two columns."""
    return {
        "win share": [fmt.point(p, lo, hi, kind="share") for p, lo, hi in shares],
        f"95% CI ({how})": [fmt.bounds(lo, hi, kind="share") for _, lo, hi in shares],
    }


def _rotation_lines(rot: RotationStats) -> list[str]:
    """Each policy's win share with seats rotated, and the paired differences between policies."""
    sh = rot.shares()
    lines = ["", f"Policies with seats rotated ({fmt.count(rot.deals)} deals x {rot.rotations} rotations; intervals over deals):"]
    columns = _share_columns(list(zip(sh["share"], sh["ci_low"], sh["ci_high"], strict=True)), "t over deals")
    table = {
        "policy": list(sh["policy"]),
        "seats": [int(n) for n in sh["seats"]],
        **columns,
        "deals": [fmt.count(n) for n in sh["n"]],
    }
    lines.append(text_table(table))
    names = list(rot.groups())
    for i, a in enumerate(names):
        for b in names[i + 1 :]:
            d = rot.difference(a, b)
            lines.append(
                f"  {a} - {b}: {fmt.point(d.diff, d.low, d.high, kind='pp')}  95% CI {fmt.bounds(d.low, d.high, kind='pp')}"
                f"  (paired over {fmt.count(d.n)} deals)"
            )
    return lines


def policy_name(result: SimulationResult, seat: int) -> str:
    """A seat's policy as the table named it (``basic:bluff=0.3``, ``search:budget=512``, a policies-file name), else
    the preset it equals, else "custom" (a table built from Policy objects without labels)."""
    from unocli.game.policies import PRESETS, SEARCH_PRESETS, preset

    if result.labels:
        return result.labels[seat]
    policy = result.policies[seat]
    return next((name for name in (*PRESETS, *SEARCH_PRESETS) if preset(name) == policy), "custom")


@click.command(cls=UnoCommand)
@rules_options
@policy_options
@policies_file_option
@games_option(100_000)
@seed_option
@threads_option
@match_option
@click.option("--rotate-seats", is_flag=True, help="Play each deal once per rotation of the seats (fair policy comparison).")
@click.option(
    "--out",
    "out_path",
    type=click.Path(dir_okay=False),
    default=None,
    help="Also write one row per game to FILE.parquet or FILE.csv.",
)
@click.option("--json", "as_json", is_flag=True, help="Print the machine-readable summary (see README).")
@click.option("--quiet", is_flag=True, help="No progress bar or compile notice.")
@backend_options
@target_options
def simulate_cmd(
    rules_spec: str,
    sets: tuple[str, ...],
    players: int | None,
    policy: str,
    seats: tuple[str, ...],
    policies_file: str | None,
    games: int,
    seed: int,
    threads: int | None,
    match: bool,
    rotate_seats: bool,
    out_path: str | None,
    as_json: bool,
    quiet: bool,
    backend: str,
    scheduler: str | None,
    target_error: float | None = None,
    metric: str = "turns",
    max_games: int = DEFAULT_MAX_GAMES,
) -> None:
    """Play many games with the numba kernel and summarise them with intervals.

    With --target-error X, --games is the first batch and batches are added
    until the 95% CI half-width of --metric is at most X.
    """
    arm = table_spec(rules_spec, sets, players, policy, seats, load_policy_file(policies_file)).build("simulate", match=match)
    refuse_without_target(target_error, "metric", "max_games")
    if out_path:
        check_table_path(out_path)
    runner = make_backend(backend, scheduler)
    announce_compile(quiet, kernels=("search",) if any(p.search is not SearchMode.OFF for p in arm.policies) else ("batch",))
    bar = Progress(enabled=not quiet and not as_json)
    try:
        result = simulate(
            replace(arm, rotate_seats=rotate_seats),
            games=games,
            seed=seed,
            threads=threads,
            keep_games=bool(out_path),
            progress=bar,
            backend=runner,
            target_error=target_error,
            metric=metric,
            max_games=max_games,
        )
    finally:
        bar.close()
    if out_path and result.games_frame is not None:
        write_table(result.games_frame, out_path)
    if as_json:
        click.echo(json.dumps(_jsonable(result.to_json()), indent=2))
    else:
        click.echo(format_result(result))
        if result.target is not None:
            click.echo(result.target.describe("matches" if match else "games"))


def _jsonable(obj: Any) -> Any:
    """Plain floats for JSON (NaN becomes null)."""
    if isinstance(obj, dict):
        return {k: _jsonable(v) for k, v in obj.items()}
    if isinstance(obj, list | tuple):
        return [_jsonable(v) for v in obj]
    if isinstance(obj, float):
        return None if math.isnan(obj) else obj
    if hasattr(obj, "item"):
        return _jsonable(obj.item())
    return obj


@click.command(cls=UnoCommand)
@click.option("--games", type=click.IntRange(min=1000), default=200_000, show_default=True, help="Rounds per measurement.")
@click.option(
    "--repeats",
    type=click.IntRange(min=1),
    default=5,
    show_default=True,
    help="Measurements per configuration (the median is reported).",
)
@click.option("--no-cli", is_flag=True, help="Skip timing the CLI's warm start.")
@click.option("--cold", is_flag=True, help="Also time the CLI's cold start: the kernel compiled into an empty cache (~30 s).")
@click.option("--json", "as_json", is_flag=True, help="Print the figures as JSON.")
@backend_options
def bench_cmd(games: int, repeats: int, no_cli: bool, cold: bool, as_json: bool, backend: str, scheduler: str | None) -> None:
    """Measure rounds per second on fixed configurations (random policy), and search rollouts per second.

    With --backend dask: the Dask backend (a LocalCluster of 2 single-threaded
    workers, or the cluster at --scheduler) against the local backend with as
    many threads, and the overhead each shard adds.
    """
    if scheduler and backend != "dask":
        raise ConfigError("--scheduler needs --backend dask")
    announce_compile(as_json, spinner=False)
    if backend == "dask":
        result = bench_mod.run_dask(games=games, repeats=repeats, scheduler=scheduler)
    else:
        result = bench_mod.run(games=games, repeats=repeats, include_cli=not no_cli, cold=cold)
    if as_json:
        click.echo(json.dumps(_jsonable(result), indent=2))
        return
    m = result["machine"]
    click.echo(f"Machine: {m['processor']}, {m['cpus']} CPUs, Python {m['python']}, numba threads {m['numba_threads']}")
    click.echo(f"Kernel load (compile if not cached): {result['kernel_load_seconds']:.2f} s")
    if backend == "dask":
        click.echo(format_dask_bench(result["dask"]))
        return
    import pandas as pd  # lays out the tables; a bench runs for minutes, its start-up does not matter

    rows = pd.DataFrame(result["throughput"])
    table = pd.DataFrame(
        {
            "rules": rows["rules"],
            "players": rows["players"],
            "threads": rows["threads"],
            "rounds/s (median)": rows["rounds_per_second"].map(lambda x: fmt.fixed(x, 0)),
            "range": [f"{fmt.fixed(lo, 0)}-{fmt.fixed(hi, 0)}" for lo, hi in rows["spread"]],
            "games x repeats": [f"{fmt.count(g)} x {r}" for g, r in zip(rows["games"], rows["repeats"], strict=True)],
        }
    )
    click.echo(table.to_string(index=False))
    for r in result["rollouts"]:
        lo, hi = r["spread"]
        where = "from a round's start" if r["start"] == "round" else f"at a search's positions (budget {bench_mod.SEARCH_BUDGET})"
        click.echo(
            f"Search rollouts, {r['rules']}, {r['players']} players, {r['policy']}, {where}: "
            f"{fmt.fixed(r['rollouts_per_cpu_second'], 0)} per CPU-second per thread "
            f"(median of {r['repeats']} x {fmt.count(r['rollouts'])}, range {fmt.fixed(lo, 0)}-{fmt.fixed(hi, 0)})"
        )
    if "cli" in result:
        c = result["cli"]
        cold_text = f"cold (compiling) {c['cold_seconds']:.2f} s, " if "cold_seconds" in c else ""
        click.echo(f"CLI 'simulate --games 1000': {cold_text}warm {c['warm_seconds']:.2f} s")


def format_dask_bench(d: dict[str, Any]) -> str:
    """The human-readable report of ``bench --backend dask``."""
    import pandas as pd  # see bench_cmd

    c = d["cluster"]
    rows = pd.DataFrame(d["throughput"])
    table = pd.DataFrame(
        {
            "run": rows["run"],
            "backend": rows["backend"],
            "threads": rows["threads"],
            "shards x games": [
                f"{fmt.count(n)} x {fmt.count(g)}" for n, g in zip(rows["shards"], rows["shard_games"], strict=True)
            ],
            "seconds (median)": rows["median_seconds"].map(lambda x: fmt.fixed(x, 2)),
            "rounds/s": rows["rounds_per_second"].map(lambda x: fmt.fixed(x, 0)),
            "range": [f"{fmt.fixed(lo, 0)}-{fmt.fixed(hi, 0)}" for lo, hi in rows["spread"]],
        }
    )
    over = d["overhead_per_shard_seconds"]
    return "\n".join(
        [
            f"Dask cluster: {c['scheduler']}, {c['workers']} workers, {c['threads']} threads "
            f"(started in {c['start_seconds']:.1f} s, kernel warm-up on every worker {c['warm_up_seconds']:.1f} s)",
            f"Official rules, 4 players, random policy; median of {rows['repeats'].iloc[0]} repeats:",
            table.to_string(index=False),
            f"Efficiency (dask / local rounds per second, throughput run): {d['efficiency']:.2f}; "
            f"workers busy in the kernel {d['worker_busy']:.0%} of the time",
            "Overhead per shard (tiny-shard run minus big-shard run, per extra shard): "
            f"local {over['local'] * 1000:.1f} ms, dask {over['dask'] * 1000:.1f} ms",
        ]
    )
