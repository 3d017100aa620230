"""The shipped experiments and policy files are package data: a wheel install runs ``unocli report --quick`` from
any folder (the slow test builds the wheel and installs it in a fresh venv)."""

from __future__ import annotations

import os
import subprocess
import sys
import sysconfig
from importlib.resources import files
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def test_the_shipped_experiments_are_package_data() -> None:
    from unocli.report.render import DEFAULT_SET, shipped_dir

    packaged = files("unocli") / "data" / "sims"
    names = {p.name for p in (ROOT / "sims").glob("*.toml")}
    assert names >= {f"{n}.toml" for n in DEFAULT_SET} | {"policies.toml"}
    for name in names:
        assert (packaged / name).read_text(encoding="utf-8") == (ROOT / "sims" / name).read_text(encoding="utf-8")
    assert shipped_dir() == Path(str(packaged))


def test_pyproject_ships_them() -> None:
    import tomllib

    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    patterns = config["tool"]["setuptools"]["package-data"]["unocli"]
    package = ROOT / "unocli"
    for name in ("sims/stacking.toml", "sims/policies.toml", "rules.md"):
        assert any((package / "data").joinpath(name).match(str(package / p)) for p in patterns), name
    templates = sorted((package / "report" / "templates").glob("*"))
    assert len(templates) >= 4  # the HTML report's templates
    for path in templates:
        assert any(path.match(str(package / p)) for p in patterns), path.name


@pytest.mark.slow
def test_a_wheel_install_runs_the_quick_report_from_any_folder(tmp_path: Path) -> None:
    wheels = tmp_path / "wheels"
    build = [sys.executable, "-m", "pip", "wheel", str(ROOT), "--no-deps", "-q", "-w", str(wheels)]
    subprocess.run(build, check=True, capture_output=True)
    (wheel,) = wheels.glob("unocli-*.whl")
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    pip = venv / "bin" / "pip"
    subprocess.run([str(pip), "install", "-q", "--no-deps", str(wheel)], check=True, capture_output=True)
    # The dependencies from this venv as a plain path (its .pth files, the editable install's among them, not read).
    purelib = Path(
        subprocess.check_output(
            [str(venv / "bin" / "python"), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"], text=True
        ).strip()
    )
    (purelib / "deps.pth").write_text(sysconfig.get_paths()["purelib"] + "\n", encoding="utf-8")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "NUMBA_CACHE_DIR")}
    where = subprocess.run(
        [str(venv / "bin" / "python"), "-c", "import unocli; print(unocli.__file__)"],
        cwd=elsewhere,
        env=env,
        capture_output=True,
        text=True,
    )
    assert Path(where.stdout.strip()).is_relative_to(purelib), where.stdout + where.stderr
    result = subprocess.run(
        [str(venv / "bin" / "unocli"), "report", "--quick", "--quiet", "--threads", "1", "--out", "rep"],
        cwd=elsewhere,
        env=env,
        capture_output=True,
        text=True,
        timeout=3600,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert (elsewhere / "rep" / "README.md").is_file() and (elsewhere / "rep" / "stacking" / "README.md").is_file()
    assert (elsewhere / "rep" / "index.html").is_file() and (elsewhere / "rep" / "stacking" / "share-card.png").is_file()
    # the installed package's path (site-packages) and the folders it ran in are named nowhere in the text
    for page in [*(elsewhere / "rep").rglob("*.md"), *(elsewhere / "rep").rglob("*.html")]:
        text = page.read_text(encoding="utf-8")
        for path in (purelib, tmp_path, tmp_path.resolve(), Path.home()):
            assert str(path) not in text, (page, path)
