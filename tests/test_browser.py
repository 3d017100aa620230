"""The HTML report in a real browser (headless Chromium, Debian's ``chromium``; slow: run with ``-m slow``).

Each page of a tiny two-debate run is opened with a probe added (a copy beside it, so its links resolve the
same): the probe records every uncaught error and every resource that fails to load, then the size of every
SVG chart once the page has loaded; Chromium's own console log must be empty too. A screenshot of the run's
page is saved (its path is printed). The probe is first shown to catch a broken page.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from test_report import tiny

from unocli.report.html import PAGE, write_shareable
from unocli.report.render import _footer, _write, render_section, run_experiment

pytestmark = pytest.mark.slow

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
BEFORE = """<script>
window.__errors = [];
window.addEventListener("error", e => __errors.push(String(e.message || (e.target && (e.target.src || e.target.href)))), true);
const __consoleError = console.error;
console.error = (...a) => { __errors.push(a.join(" ")); __consoleError(...a); };
</script>"""
AFTER = """<script>
window.addEventListener("load", () => {
  const size = s => { const r = s.getBoundingClientRect(); return [r.width, r.height]; };
  const svgs = [...document.querySelectorAll("svg")].map(size);
  const p = document.createElement("pre"); p.id = "probe";
  p.textContent = JSON.stringify({errors: __errors, svgs: svgs});
  document.body.appendChild(p);
});
</script>"""


def chromium(*args: str) -> subprocess.CompletedProcess[str]:
    with tempfile.TemporaryDirectory() as profile:  # an empty profile: nothing of anyone's browser
        return subprocess.run(
            [str(CHROMIUM), *FLAGS, f"--user-data-dir={profile}", *args],
            capture_output=True,
            text=True,
            timeout=180,
            check=False,
        )


def probe(page: Path) -> tuple[dict, list[str]]:
    """Open ``page`` with the probe: what it recorded, and Chromium's console lines."""
    text = page.read_text(encoding="utf-8")
    head = text.index("<head>") + len("<head>")
    copy = page.with_name(f".probe-{page.name}")
    copy.write_text(text[:head] + BEFORE + text[head:].replace("</body>", AFTER + "</body>"), encoding="utf-8")
    try:
        done = chromium("--enable-logging=stderr", "--v=0", "--virtual-time-budget=5000", "--dump-dom", copy.as_uri())
    finally:
        copy.unlink()
    m = re.search(r'<pre id="probe">(.*?)</pre>', done.stdout, re.S)
    assert m, f"the probe did not report (exit {done.returncode}): {done.stderr[-2000:]}"
    console = [line for line in done.stderr.splitlines() if ":CONSOLE" in line]
    return json.loads(m.group(1).replace("&quot;", '"').replace("&amp;", "&")), console


@pytest.fixture(scope="module")
def browser():
    if CHROMIUM is None:
        reason = "no chromium on this machine (Debian: apt-get install chromium); the browser test is skipped"
        print(f"SKIPPED: {reason}", file=sys.stderr)
        pytest.skip(reason)
    return CHROMIUM


def test_the_probe_sees_errors_missing_files_and_empty_charts(browser, tmp_path):
    page = tmp_path / "broken.html"
    page.write_text(
        '<!DOCTYPE html><html><head></head><body><svg width="0" height="0"></svg><svg width="40" height="20"></svg>'
        '<img src="gone.png"><script>nosuch()</script></body></html>',
        encoding="utf-8",
    )
    seen, console = probe(page)
    assert any("nosuch" in e for e in seen["errors"]) and any(e.endswith("gone.png") for e in seen["errors"])
    assert seen["svgs"] == [[0, 0], [40, 20]]
    assert any("nosuch" in line for line in console)


def test_every_page_opens_without_errors_and_every_chart_has_a_size(browser, tmp_path):
    out = tmp_path / "report"
    done = []
    with pytest.MonkeyPatch.context() as mp:
        mp.chdir(tmp_path)
        for name in ("bluff", "seat-advantage"):  # a heatmap (images inline) and line charts
            exp = tiny(name)
            section = run_experiment(exp)
            folder = out / name
            _write(folder / "README.md", render_section(section, folder) + _footer())
            done.append((exp, section, folder))
        write_shareable(done, out, "unocli report --out report")
    pages = [out / PAGE] + [folder / PAGE for _, _, folder in done]
    for page in pages:
        seen, console = probe(page)
        charts = len(re.findall(r"<svg\b", page.read_text(encoding="utf-8")))
        assert seen["errors"] == [] and console == [], (page, seen["errors"], console)
        assert len(seen["svgs"]) == charts > 0, page
        assert all(w > 100 and h > 100 for w, h in seen["svgs"]), (page, seen["svgs"])
    shot = tmp_path / "screenshot.png"
    done_shot = chromium("--window-size=1280,2400", f"--screenshot={shot}", pages[0].as_uri())
    assert shot.is_file() and shot.stat().st_size > 20_000, done_shot.stderr[-2000:]
    kept = Path(tempfile.gettempdir()) / "unocli-report-screenshot.png"
    shutil.copyfile(shot, kept)
    print(f"screenshot of {pages[0].name}: {kept} ({pages[0].stat().st_size:,} bytes)", file=sys.stderr)
