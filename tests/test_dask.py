"""The Dask backend: bit-identical to the local one, whatever the workers, shards and faults.

One LocalCluster of 2 single-threaded worker processes serves the module
(the README's "Running on a Dask cluster" describes the real thing).
"""

from __future__ import annotations

import json
import logging
import os
import signal
import time

import pytest

pytest.importorskip("distributed")

from click.testing import CliRunner
from distributed import LocalCluster

from unocli.cli.main import cli
from unocli.cli.run import bench_cmd, simulate_cmd
from unocli.errors import ConfigError
from unocli.game.policies import preset as policy_preset
from unocli.game.rules import preset as rules_preset
from unocli.run import dask as dask_backend
from unocli.run.backends import LocalBackend, get_backend
from unocli.run.dask import DaskBackend
from unocli.study.simulate import simulate

UNREACHABLE = "tcp://127.0.0.1:9"  # the discard port: nothing listens there


@pytest.fixture(scope="module")
def cluster():
    dask_backend.load_kernel()  # compile (if the cache is stale) here once, before the workers load it
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0", silence_logs=logging.ERROR) as c:
        yield c


@pytest.fixture(scope="module")
def backend(cluster):
    with DaskBackend(cluster.scheduler_address) as b:
        yield b


def command(name, fallback):
    """The registered ``unocli NAME`` command (or its function, before it is registered)."""
    return cli.commands.get(name, fallback)


def assert_same(a, b):
    """Bit-identical aggregates: every exact sum and histogram, and the fingerprint of every game's row."""
    assert a.acc.fingerprint == b.acc.fingerprint
    assert a.acc.to_dict() == b.acc.to_dict()
    assert a.to_json() == b.to_json()


# ---------------------------------------------------------------- local and Dask agree bit for bit

CASES = {
    "rounds": dict(rules="official", games=3000, seed=11),
    "matches": dict(rules="official", games=120, seed=12, match=True),
    "rotated": dict(
        rules="party", games=900, seed=2**64 - 5, rotate_seats=True, policies=("random", "aggressive", "random", "hoarder")
    ),
}


def run_case(case, backend, shard, keep_games=False):
    c = dict(CASES[case])
    rules = rules_preset(c.pop("rules"))
    names = c.pop("policies", None)
    policies = tuple(policy_preset(n) for n in names) if names else None
    labels = names
    return simulate(rules, policies, batch_size=shard, backend=backend, keep_games=keep_games, labels=labels, **c)


@pytest.mark.parametrize("case", sorted(CASES))
@pytest.mark.parametrize("shard", [97, 1000])
def test_dask_equals_local(backend, case, shard):
    local = run_case(case, LocalBackend(), shard=1 << 16)
    remote = run_case(case, backend, shard=shard)
    assert_same(local, remote)
    if case == "rotated":
        assert (local.rotation.s1 == remote.rotation.s1).all()
        assert (local.rotation.s2 == remote.rotation.s2).all()


def test_kept_games_come_back_in_order(backend):
    local = run_case("rounds", LocalBackend(), shard=1 << 16, keep_games=True)
    remote = run_case("rounds", backend, shard=211, keep_games=True)
    assert local.games_frame.equals(remote.games_frame)


def test_progress_counts_every_shard_once(backend):
    seen = []
    result = simulate(
        rules_preset("official"),
        games=1000,
        seed=1,
        batch_size=90,
        backend=backend,
        progress=lambda done, total: seen.append((done, total)),
    )
    assert result.games == 1000
    assert [d for d, _ in seen] == sorted(d for d, _ in seen)
    assert seen[-1] == (1000, 1000) and len(seen) == 12


# ---------------------------------------------------------------- workers: kernel loaded once, one thread a shard


def test_workers_load_the_kernel_once_on_joining(backend):
    simulate(rules_preset("official"), games=200, seed=0, batch_size=50, backend=backend)

    def state(dask_worker):
        from unocli import kernel
        from unocli.kernel.batch import play_batch

        return getattr(dask_worker, "unocli_warm_up", None), bool(play_batch.signatures), kernel._default_threads

    states = backend.client.run(state)
    assert len(states) == 2
    for warm, loaded, threads in states.values():
        assert warm is not None and loaded and threads == 1


# ---------------------------------------------------------------- errors


def test_unreachable_scheduler_is_a_config_error():
    t0 = time.perf_counter()
    with pytest.raises(ConfigError, match=r"cannot reach the Dask scheduler at tcp://127\.0\.0\.1:9 within 1 s"):
        DaskBackend(UNREACHABLE, timeout=1)
    assert time.perf_counter() - t0 < 30


def test_cli_unreachable_scheduler_is_one_line(monkeypatch):
    monkeypatch.setattr(dask_backend, "CONNECT_TIMEOUT", 1.0)
    result = CliRunner().invoke(
        command("simulate", simulate_cmd), ["--games", "100", "--backend", "dask", "--scheduler", UNREACHABLE]
    )
    assert result.exit_code == 1
    assert "Error: cannot reach the Dask scheduler at tcp://127.0.0.1:9" in result.output
    assert "dask scheduler" in result.output and "Traceback" not in result.output


@pytest.mark.parametrize(
    ("greeting", "words"),
    [
        (None, "within 1.5 s (no Dask handshake: is it a Dask scheduler's port?)"),  # accepts, then stays silent
        (b"SSH-2.0-OpenSSH_9.6p1\r\n", "the other end does not answer as a Dask scheduler"),  # speaks first
        (b"HTTP/1.0 200 OK\r\n\r\nhello", "within 1 s ("),  # a web server's reply
    ],
)
def test_a_port_that_is_no_dask_scheduler_is_one_sentence_not_a_hang(monkeypatch, greeting, words):
    """A port that accepts and then stays silent (a dashboard, a proxy) hung the command for good, and one that
    speaks first made distributed fail with an internal error (a banner read as a frame length: MemoryError)."""
    import socket
    import threading

    server = socket.create_server(("127.0.0.1", 0))
    port, held = server.getsockname()[1], []

    def serve() -> None:
        while True:
            try:
                conn, _ = server.accept()
            except OSError:
                return
            held.append(conn)
            if greeting is not None:
                conn.sendall(greeting)

    threading.Thread(target=serve, daemon=True).start()
    monkeypatch.setattr(dask_backend, "HANDSHAKE_GRACE", 0.5)
    t0 = time.perf_counter()
    try:
        with pytest.raises(ConfigError, match=r"cannot reach the Dask scheduler at tcp://127\.0\.0\.1:\d+ within") as info:
            DaskBackend(f"tcp://127.0.0.1:{port}", timeout=1)
    finally:
        server.close()
        for conn in held:
            conn.close()
    assert words in str(info.value) and time.perf_counter() - t0 < 20


def test_a_tls_scheduler_is_refused_by_its_scheme():
    with pytest.raises(ConfigError, match=r"over tcp:// only \(a tls:// one needs security settings"):
        DaskBackend("tls://127.0.0.1:8786", timeout=1)


def test_scheduler_needs_the_dask_backend():
    result = CliRunner().invoke(command("simulate", simulate_cmd), ["--games", "100", "--scheduler", UNREACHABLE])
    assert result.exit_code == 1
    assert "--scheduler needs --backend dask" in result.output
    result = CliRunner().invoke(command("bench", bench_cmd), ["--scheduler", UNREACHABLE])
    assert result.exit_code == 1
    assert "--scheduler needs --backend dask" in result.output


def test_unknown_backend_is_a_config_error():
    with pytest.raises(ConfigError, match="unknown backend"):
        get_backend("spark")


# ---------------------------------------------------------------- the CLI


def test_cli_simulate_dask_json_equals_local(cluster):
    sim = command("simulate", simulate_cmd)
    args = ["--games", "2000", "--seed", "5", "--json"]
    local = CliRunner().invoke(sim, args, catch_exceptions=False)
    # no --scheduler: a LocalCluster sized to the machine, closed when the command ends
    remote = CliRunner().invoke(sim, [*args, "--backend", "dask"], catch_exceptions=False)
    assert local.exit_code == remote.exit_code == 0
    assert json.loads(remote.stdout) == json.loads(local.stdout)
    on_fixture = CliRunner().invoke(
        sim, [*args, "--rotate-seats", "--backend", "dask", "--scheduler", cluster.scheduler_address], catch_exceptions=False
    )
    local_rot = CliRunner().invoke(sim, [*args, "--rotate-seats"], catch_exceptions=False)
    assert json.loads(on_fixture.stdout) == json.loads(local_rot.stdout)


def test_bench_dask_reports_throughput_and_overhead_per_shard(cluster):
    args = ["--backend", "dask", "--scheduler", cluster.scheduler_address, "--games", "2000", "--repeats", "1", "--json"]
    result = CliRunner().invoke(command("bench", bench_cmd), args, catch_exceptions=False)
    assert result.exit_code == 0
    d = json.loads(result.stdout)["dask"]
    assert d["cluster"]["workers"] == 2 and d["cluster"]["threads"] == 2
    assert {(r["run"], r["backend"]) for r in d["throughput"]} == {
        (run, b) for run in ("throughput", "big", "tiny") for b in ("local", "dask")
    }
    assert all(r["rounds_per_second"] > 0 for r in d["throughput"])
    assert set(d["overhead_per_shard_seconds"]) == {"local", "dask"} and d["efficiency"] > 0


# ---------------------------------------------------------------- a worker killed mid-run


def test_killing_a_worker_mid_run_leaves_the_result_unchanged(backend):
    """SIGKILL one worker as the first shard comes back: Dask reruns its shards elsewhere."""
    rules = rules_preset("official")
    expected = simulate(rules, games=24_000, seed=99, batch_size=1 << 16)
    pids = backend.client.run(os.getpid)
    victim, victim_pid = sorted(pids.items())[0]
    killed = []

    def progress(done, total):
        if not killed:
            os.kill(victim_pid, signal.SIGKILL)
            killed.append(done)

    result = simulate(rules, games=24_000, seed=99, batch_size=1000, backend=backend, progress=progress)
    assert killed and killed[0] < 24_000  # the kill came with shards still to run
    assert_same(expected, result)
    survivors = backend.client.run(os.getpid)
    assert victim not in survivors and victim_pid not in survivors.values()
    # the nanny restarts the worker, which loads the kernel again before taking shards
    backend.client.wait_for_workers(2, timeout=60)
    again = simulate(rules, games=3000, seed=99, batch_size=500, backend=backend)
    assert_same(simulate(rules, games=3000, seed=99), again)


# ---------------------------------------------------------------- the scheduler lost mid-run


@pytest.mark.slow
def test_losing_the_scheduler_mid_run_is_one_clear_error():
    with LocalCluster(
        n_workers=1, threads_per_worker=1, processes=True, dashboard_address=":0", silence_logs=logging.CRITICAL
    ) as c:
        b = DaskBackend(c.scheduler_address, timeout=2)
        closed = []

        def progress(done, total):
            if not closed:
                closed.append(done)
                c.close()

        with pytest.raises(dask_backend.ClusterError, match="lost the Dask scheduler at tcp://"):
            simulate(rules_preset("official"), games=100_000, batch_size=1000, backend=b, progress=progress)
        b.close()


def test_a_run_whose_workers_all_leave_stops_in_one_sentence(monkeypatch):
    """Every worker gone in the middle of a run: the shards wait for one for ever, and the command hung without a
    word; it now stops once the cluster has had no worker for WORKER_TIMEOUT (here 2 s, looked at every 0.5 s)."""
    from unocli.run.dask import ClusterError

    monkeypatch.setattr(dask_backend, "WORKER_TIMEOUT", 2.0)
    monkeypatch.setattr(dask_backend, "WATCH_SECONDS", 0.5)
    cluster = dict(processes=False, protocol="tcp", dashboard_address=":0", silence_logs=logging.ERROR)
    with LocalCluster(n_workers=1, threads_per_worker=1, **cluster) as c:
        with DaskBackend(c.scheduler_address) as b:
            b._warmed = True  # these shards are sleeps, not games: no kernel to load
            results = b.map_unordered(time.sleep, [0.05] + [0.5] * 20)
            assert next(results) is None  # a first shard finishes; then the only worker leaves
            c.scale(0)
            t0 = time.perf_counter()
            with pytest.raises(ClusterError, match=r"every Dask worker of tcp://[\d.:]+ has been gone for 2 s"):
                list(results)
            assert time.perf_counter() - t0 < 30


def test_a_worker_that_cannot_load_the_kernel_is_one_sentence(monkeypatch):
    """A worker whose Python lacks unocli (or has a broken one) failed the warm-up plugin, and the command said
    "internal error"; it now says which cluster, what the worker raised, and what every worker needs."""
    from unocli.run.dask import ClusterError

    def broken(threads=None):
        raise ImportError("this unocli is broken")

    monkeypatch.setattr(dask_backend, "warm_up_kernel", broken)  # the workers run in this process here
    cluster = dict(processes=False, protocol="tcp", dashboard_address=":0", silence_logs=logging.CRITICAL)
    with LocalCluster(n_workers=1, threads_per_worker=1, **cluster) as c, DaskBackend(c.scheduler_address) as b:
        with pytest.raises(ClusterError, match=r"could not load unocli's kernel \(.*this unocli is broken.*every worker needs"):
            b.warm_up()
