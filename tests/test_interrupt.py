"""Ctrl-C during a Dask run: one line 'Interrupted.', exit 130, no worker tracebacks (slow: starts a LocalCluster)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytest.importorskip("distributed")


@pytest.mark.slow
def test_ctrl_c_on_the_dask_backend_is_one_line() -> None:
    unocli = Path(sys.executable).with_name("unocli")
    proc = subprocess.Popen(
        [str(unocli), "simulate", "--backend", "dask", "--games", "20000000", "--quiet"],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        start_new_session=True,  # its own process group, as a terminal's foreground job: Ctrl-C reaches every process
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),  # a background job would start with it ignored
    )
    time.sleep(40)  # the cluster is up and the workers are playing
    os.killpg(proc.pid, signal.SIGINT)
    try:
        out, _ = proc.communicate(timeout=120)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        out, _ = proc.communicate()
        pytest.fail("the run did not stop on Ctrl-C")
    text = out.decode()
    assert proc.returncode == 130, text
    assert "Traceback" not in text and "KeyboardInterrupt" not in text, text
    assert [line for line in text.splitlines() if line.strip()] == ["Interrupted."]


@pytest.mark.slow
@pytest.mark.parametrize("delay", [1.5, 2.5, 3.5])
def test_sigterm_while_the_local_cluster_starts_is_one_line(delay: float) -> None:
    """SIGTERM (a CI runner's timeout) while the LocalCluster starts and its workers load the kernel: exit 143 and
    the one line; it cut the cluster's start in two and printed Dask's tracebacks (asyncio, worker plugins)."""
    unocli = Path(sys.executable).with_name("unocli")
    proc = subprocess.Popen(
        [str(unocli), "simulate", "--backend", "dask", "--games", "20000000", "--quiet"],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        start_new_session=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    time.sleep(delay)
    proc.send_signal(signal.SIGTERM)
    try:
        out, _ = proc.communicate(timeout=120)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        out, _ = proc.communicate()
        pytest.fail("the run did not stop on SIGTERM")
    text = out.decode()
    assert proc.returncode == 143, text
    assert [line for line in text.splitlines() if line.strip()] == ["Interrupted by SIGTERM."], text
