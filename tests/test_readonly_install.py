"""A read-only install (package folder, home and user cache folder all read-only) still runs: the kernel caches in a
private temporary folder instead of failing at import with "cannot cache function ...: no locator available".

The package is copied and made read-only: with ``chmod`` for an ordinary user, and with a read-only bind mount in a
private mount namespace (``unshare -m``) for root, whom permissions do not stop.
"""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

PROBE = """
import sys, unocli
assert unocli.__file__.startswith(sys.argv[1]), unocli.__file__
from unocli.kernel.batch import play_batch
print(play_batch._cache._cache_path)
"""


def _read_only_world(tmp_path: Path) -> tuple[Path, Path, list[str]]:
    """A read-only copy of the package (and a read-only home), a writable TMPDIR, and the command prefix to use."""
    ro = tmp_path / "ro"
    shutil.copytree(ROOT / "unocli", ro / "unocli", ignore=shutil.ignore_patterns("__pycache__", "*.nbi", "*.nbc"))
    (ro / "home" / ".cache").mkdir(parents=True)
    writable = tmp_path / "tmp"
    writable.mkdir()
    if os.geteuid() != 0:
        for path in [*sorted(ro.rglob("*"), reverse=True), ro]:
            path.chmod(path.stat().st_mode & ~(stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH))
        return ro, writable, []
    if shutil.which("unshare") is None:
        pytest.skip("root, and no unshare for a read-only mount")
    probe = subprocess.run(["unshare", "-m", "true"], capture_output=True)
    if probe.returncode != 0:
        pytest.skip("root, and no private mount namespace for a read-only mount")
    mount = f'mount --bind {ro} {ro} && mount -o remount,bind,ro {ro} && exec "$@"'
    return ro, writable, ["unshare", "-m", "sh", "-c", mount, "sh"]


def test_a_read_only_install_caches_in_a_private_temporary_folder(tmp_path: Path) -> None:
    ro, writable, prefix = _read_only_world(tmp_path)
    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": str(ro / "home"),
        "XDG_CACHE_HOME": str(ro / "home" / ".cache"),
        "TMPDIR": str(writable),
        # -S below: no site module, so the editable install's finder (which would win over PYTHONPATH) is not loaded;
        # the dependencies come from site-packages as a plain path.
        "PYTHONPATH": os.pathsep.join([str(ro), sysconfig.get_paths()["purelib"]]),
    }
    result = subprocess.run(
        [*prefix, sys.executable, "-S", "-c", PROBE, str(ro)], env=env, cwd=writable, capture_output=True, text=True
    )
    assert result.returncode == 0, result.stderr
    cache = Path(result.stdout.strip())
    assert cache.is_relative_to(writable / f"unocli-numba-{os.getuid()}"), cache
    assert (writable / f"unocli-numba-{os.getuid()}").stat().st_mode & 0o777 == 0o700
    result = subprocess.run(
        [*prefix, sys.executable, "-S", "-m", "unocli", "--help"], env=env, cwd=writable, capture_output=True, text=True
    )
    assert result.returncode == 0 and "simulate" in result.stdout, result.stderr


def test_a_temporary_cache_folder_someone_else_can_write_is_not_used(tmp_path: Path, monkeypatch) -> None:
    from unocli.kernel import _cache

    monkeypatch.setattr(_cache.tempfile, "gettempdir", lambda: str(tmp_path))
    root = tmp_path / f"unocli-numba-{os.getuid()}"
    root.mkdir(mode=0o777)
    root.chmod(0o777)

    def f():  # a stand-in kernel function from the kernel folder's point of view
        return 0

    kernel_file = str(Path(_cache.__file__).with_name("batch.py"))
    assert _cache.KernelTempLocator.from_function(f, kernel_file) is None
    root.chmod(0o700)
    assert _cache.KernelTempLocator.from_function(f, kernel_file) is not None
