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


def _signalled(delay: float, signum: int, *, group: bool) -> tuple[int, str]:
    """A Dask run of ``unocli simulate`` sent ``signum`` after ``delay`` seconds (to its whole process group, as a
    terminal's Ctrl-C, or to it alone); its exit status and output."""
    unocli = Path(sys.executable).with_name("unocli")
    proc = subprocess.Popen(
        [str(unocli), "simulate", "--backend", "dask", "--games", "20000000", "--quiet"],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        start_new_session=True,  # its own process group, as a terminal's foreground job: Ctrl-C reaches every process
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),  # a background job would start with it ignored
    )
    time.sleep(delay)
    if group:
        os.killpg(proc.pid, signum)
    else:
        proc.send_signal(signum)
    try:
        out, _ = proc.communicate(timeout=120)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        out, _ = proc.communicate()
        pytest.fail(f"the run did not stop on signal {signum}")
    return proc.returncode, out.decode()


@pytest.mark.slow
def test_ctrl_c_on_the_dask_backend_is_one_line() -> None:
    code, text = _signalled(40, signal.SIGINT, group=True)  # the cluster is up and the workers are playing
    assert code == 130, text
    assert "Traceback" not in text and "KeyboardInterrupt" not in text, text
    assert [line for line in text.splitlines() if line.strip()] == ["Interrupted."]


@pytest.mark.slow
@pytest.mark.parametrize("delay", [1.5, 2.5, 3.5])
def test_sigterm_while_the_local_cluster_starts_is_one_line(delay: float) -> None:
    """SIGTERM (a CI runner's timeout) while the LocalCluster starts and its workers load the kernel: exit 143 and
    the one line; it cut the cluster's start in two and printed Dask's tracebacks (asyncio, worker plugins)."""
    code, text = _signalled(delay, signal.SIGTERM, group=False)
    assert code == 143, text
    assert [line for line in text.splitlines() if line.strip()] == ["Interrupted by SIGTERM."], text
