"""Fuzzing the output-folder guarantees (issue 25): random changes to a folder unocli wrote, random look-alike
temporary folders beside it, and (slow) signals at random moments of a real ``unocli report``.

The oracle is the list of changes applied, not the code under test: a folder may be replaced exactly when every
change was the deletion of one of unocli's files. After every case: a refused run changed nothing anywhere; a
replaced folder holds exactly the new files and a manifest that matches them; with ``force`` the old folder is
moved aside byte for byte; nothing outside the destination changed except the removal of provably stale
temporary folders of unocli's; and no temporary folder is left.

Examples: ``UNOCLI_FOLDER_EXAMPLES`` (default 300) for the folder changes; the slow signal test plays
``UNOCLI_SIGNAL_CASES`` (default 8) real reports.
"""

from __future__ import annotations

import hashlib
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from unocli.errors import ConfigError
from unocli.folders import MANIFEST, MARKER, check_out_folder, writing

EXAMPLES = int(os.environ.get("UNOCLI_FOLDER_EXAMPLES", "300"))
SIGNAL_CASES = int(os.environ.get("UNOCLI_SIGNAL_CASES", "8"))
OURS = {"README.md": b"# report\n", "table.csv": b"a,b\n1,2\n", "sub/chart.svg": b"<svg/>"}

NAME = st.text(alphabet=st.sampled_from([*"abcXYZ019 ._-'\"$*?é€", "\u202e", "\n"]), min_size=1, max_size=12).filter(
    lambda s: s not in (".", "..") and "/" not in s
)
CHANGE = st.one_of(
    st.tuples(st.just("add"), st.sampled_from(["", "sub/", "sub/deeper/", "new/"]), NAME, st.binary(max_size=20)),
    st.tuples(st.just("edit"), st.sampled_from(sorted(OURS)), st.sampled_from(["append", "same-size", "empty"])),
    st.tuples(st.just("delete"), st.sampled_from(sorted(OURS))),
    st.tuples(st.just("link"), st.sampled_from(["", "sub/"]), NAME, st.sampled_from(["inside", "outside", "dangling"])),
    st.tuples(st.just("replace-with-link"), st.sampled_from(sorted(OURS))),
    st.tuples(st.just("folder"), st.sampled_from(["", "sub/"]), NAME),
    st.tuples(st.just("manifest"), st.sampled_from(["garbage", "empty", "list", "v2", "extra-entry", "dropped-entry"])),
)
LOOKALIKE = st.tuples(
    st.sampled_from([".rep.{}.tmp", ".rep.{}.old", ".rep.{}.TMP", ".rep-{}.tmp", ".other.{}.tmp", "rep.{}.tmp"]),
    st.sampled_from(["abcd1234", "a_b_c_d_", "short", "ABCD1234", "abcd12345"]),
    st.sampled_from(["dead", "live", "none", "folder-marker", "bad-json", "other-host", "link"]),
)


def snapshot(root: Path) -> dict[str, tuple[str, str]]:
    out = {}
    for folder, dirs, files in os.walk(root):
        for name in dirs + files:
            p = Path(folder, name)
            rel = str(p.relative_to(root))
            if p.is_symlink():
                out[rel] = ("link", os.readlink(p))
            elif p.is_dir():
                out[rel] = ("dir", "")
            else:
                out[rel] = ("file", hashlib.sha256(p.read_bytes()).hexdigest())
    return out


def under(snap: dict, prefix: str) -> dict:
    """The entries of ``snap`` under the folder ``prefix``, relative to it."""
    return {k[len(prefix) + 1 :]: v for k, v in snap.items() if k.startswith(prefix + os.sep)}


def outside(snap: dict, *prefixes: str) -> dict:
    return {k: v for k, v in snap.items() if not any(k == p or k.startswith(p + os.sep) for p in prefixes)}


def write_ours(dest, files: dict[str, bytes]):
    with writing(dest, "test") as (tmp, done):
        for rel, data in files.items():
            (tmp / rel).parent.mkdir(parents=True, exist_ok=True)
            (tmp / rel).write_bytes(data)
    return done


def apply(change: tuple, out: Path, root: Path, listed: set[str]) -> bool:
    """Apply one change to the folder ``out``; False when it spoils the manifest (``listed``: the paths it lists)."""
    kind = change[0]
    if kind == "add":
        _, sub, name, data = change
        path = out / sub / name
        if not (path.exists() or path.is_symlink()):
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(data)
    elif kind == "edit":
        _, rel, how = change
        path = out / rel
        if path.is_file() and not path.is_symlink():
            data = path.read_bytes()
            path.write_bytes({"append": data + b"!", "same-size": bytes(b ^ 1 for b in data), "empty": b""}[how])
    elif kind == "delete":
        path = out / change[1]
        if path.is_file() and not path.is_symlink():
            path.unlink()
    elif kind == "link":
        _, sub, name, where = change
        path = out / sub / name
        if not (path.exists() or path.is_symlink()) and path.parent.is_dir():
            target = {"inside": out / "README.md", "outside": root / "outside.txt", "dangling": root / "nowhere"}[where]
            path.symlink_to(target)
    elif kind == "replace-with-link":
        path = out / change[1]
        if path.is_file() and not path.is_symlink():
            path.unlink()
            path.symlink_to(root / "outside.txt")
    elif kind == "folder":
        _, sub, name = change
        path = out / sub / name
        if not (path.exists() or path.is_symlink()) and path.parent.is_dir():
            path.mkdir()
    else:
        return _spoil_manifest(change[1], out, listed)
    return True


def _spoil_manifest(how: str, out: Path, listed: set[str]) -> bool:
    path = out / MANIFEST
    doc = json.loads(path.read_text(encoding="utf-8")) if path.is_file() else None
    if doc is None or not isinstance(doc, dict):
        return False  # already spoiled
    if how == "extra-entry":  # lists a file that is not there: harmless, nothing of the user's is in it
        doc["files"].append({"path": "ghost.csv", "size": 1, "sha256": "0" * 64})
        listed.add("ghost.csv")
    elif how == "dropped-entry":  # a file of ours no longer listed is, for all unocli knows, the user's
        if doc["files"]:
            listed.discard(doc["files"].pop(0)["path"])
    else:
        data = {"garbage": b"\x00{not json", "empty": b"", "list": b"[]"}.get(how)
        path.write_bytes(data if data is not None else json.dumps({**doc, "format_version": 2}).encode())
        return False
    path.write_text(json.dumps(doc), encoding="utf-8")
    return True


def expected_foreign(out: Path, listed: set[str], intact: bool) -> bool:
    """The oracle: does ``out`` hold anything but files of OURS, unchanged, at paths its manifest lists?"""
    if not intact:
        return True
    folders = {str(Path(p).parent) for p in listed} | {str(a) for p in listed for a in Path(p).parents}
    for folder, dirs, files in os.walk(out):
        for name in dirs + files:
            path = Path(folder, name)
            rel = str(path.relative_to(out))
            if rel == MANIFEST:
                continue
            if path.is_symlink():
                return True
            if path.is_dir():
                if rel not in folders:
                    return True
            elif rel not in listed or rel not in OURS or path.read_bytes() != OURS[rel]:
                return True
    return False


def make_lookalike(root: Path, pattern: str, token: str, marker: str, live_pid: int, dead_pid: int) -> tuple[str, bool]:
    """A folder beside ``rep`` that may look like a temporary folder of ours; (its name, whether it is provably stale)."""
    name = pattern.format(token)
    path = root / name
    if path.exists() or path.is_symlink():
        return name, False
    ours_name = pattern in (".rep.{}.tmp", ".rep.{}.old") and len(token) == 8 and token == token.lower()
    if marker == "link":
        target = root / f"target-{name}"
        target.mkdir()
        _write_marker(target, dead_pid)
        path.symlink_to(target)
        return name, False
    path.mkdir()
    (path / "content.txt").write_text("something", encoding="utf-8")
    if marker == "none":
        return name, False
    if marker == "folder-marker":
        (path / MARKER).mkdir()
        return name, False
    if marker == "bad-json":
        (path / MARKER).write_text("{", encoding="utf-8")
        return name, False
    _write_marker(path, live_pid if marker == "live" else dead_pid, host="elsewhere" if marker == "other-host" else None)
    return name, ours_name and marker == "dead"


def _write_marker(folder: Path, pid: int, host: str | None = None) -> None:
    doc = {"kind": "unocli partial output folder", "pid": pid, "host": host or socket.gethostname()}
    (folder / MARKER).write_text(json.dumps(doc), encoding="utf-8")


@pytest.fixture(scope="module")
def pids():
    """A process that runs for the whole module, and the id of one that ended."""
    live = subprocess.Popen(["sleep", "600"])
    dead = subprocess.Popen(["true"])
    dead.wait()
    yield live.pid, dead.pid
    live.kill()
    live.wait()


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    changes=st.lists(CHANGE, max_size=3),
    lookalikes=st.lists(LOOKALIKE, max_size=3),
    force=st.booleans(),
    via_link=st.booleans(),
)
def test_random_changes_to_a_folder_of_ours(pids, changes, lookalikes, force, via_link) -> None:
    live_pid, dead_pid = pids
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        (root / "outside.txt").write_text("the user's", encoding="utf-8")
        out = root / "rep"
        write_ours(check_out_folder(out), OURS)
        listed, intact = set(OURS), True
        for change in changes:
            if intact or change[0] != "manifest":  # a spoiled manifest stays spoiled
                intact &= apply(change, out, root, listed)
        foreign = expected_foreign(out, listed, intact)
        stale = set()
        for pattern, token, marker in lookalikes:
            name, is_stale = make_lookalike(root, pattern, token, marker, live_pid, dead_pid)
            if is_stale:
                stale.add(name)
        named = out
        if via_link:
            named = root / "link-to-rep"
            named.symlink_to(out, target_is_directory=True)
        event(f"foreign={foreign} force={force}")
        before = snapshot(root)
        new = {"README.md": b"# new\n", "other.csv": b"x\n"}
        try:
            done = write_ours(check_out_folder(named, force=force), new)
        except ConfigError as exc:
            assert foreign and not force, exc
            assert str(named) in str(exc) and ".tmp" not in str(exc)
            assert snapshot(root) == before  # refused: nothing anywhere changed
            return
        assert force or not foreign
        after = snapshot(root)
        assert {k for k, v in under(after, "rep").items() if v[0] == "file"} == {*new, MANIFEST}
        listed = json.loads((out / MANIFEST).read_text(encoding="utf-8"))["files"]
        assert {e["path"]: e["sha256"] for e in listed} == {k: hashlib.sha256(v).hexdigest() for k, v in new.items()}
        aside = [p.name for p in root.iterdir() if p.name.startswith("rep.old-")]
        if foreign:
            assert len(aside) == 1 and done.moved_aside is not None
            assert under(after, aside[0]) == under(before, "rep")  # moved aside byte for byte
        else:
            assert aside == [] and done.moved_aside is None
        kept = outside(before, "rep", *stale)
        assert outside(after, "rep", *aside) == kept  # only provably stale folders of ours went
        assert not [k for k in after if Path(k).name.startswith(".rep.") and Path(k).name[-4:] in (".tmp", ".old")
                    and k not in kept]  # fmt: skip


# ---------------------------------------------------------------- signals at random moments (slow)


def default_signals() -> None:
    """In the child: the signals as a foreground job has them (a background job or nohup starts with some ignored)."""
    for s in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(s, signal.SIG_DFL)


TINY = (
    'name = "tiny"\nseed = {seed}\ngames = {games}\nplayers = [3]\n[base]\npolicy = "basic"\n'
    '[arms.a]\n[arms.b]\nrules = "stacking"\n'
)


@pytest.mark.slow
@settings(max_examples=SIGNAL_CASES, deadline=None, suppress_health_check=list(HealthCheck))
@given(
    sig=st.sampled_from([signal.SIGTERM, signal.SIGHUP, signal.SIGINT]),
    delay=st.floats(min_value=0.0, max_value=6.0),
    games=st.sampled_from([2_000, 200_000]),
)
def test_a_signal_at_a_random_moment_of_a_report(sig, delay, games) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        out = root / "rep"
        exe = str(Path(sys.executable).with_name("unocli"))
        (root / "old.toml").write_text(TINY.format(seed=1, games=200), encoding="utf-8")
        (root / "new.toml").write_text(TINY.format(seed=2, games=games), encoding="utf-8")
        subprocess.run([exe, "report", str(root / "old.toml"), "--out", str(out), "--quiet"], check=True)
        before = snapshot(root)
        proc = subprocess.Popen(
            [exe, "report", str(root / "new.toml"), "--out", str(out), "--quiet"],
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            start_new_session=True,
            preexec_fn=default_signals,
        )
        time.sleep(delay)
        if proc.poll() is None:
            proc.send_signal(sig)
        try:
            text = proc.communicate(timeout=180)[0].decode()
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.communicate()
            pytest.fail(f"{sig.name} after {delay:.2f} s: the run did not end")
        after = snapshot(root)
        assert not [k for k in after if Path(k).name.endswith((".tmp", ".old")) or ".unocli-probe" in k], after
        if proc.returncode == 0:  # it finished first: the new report, whole
            event("finished before the signal")
            assert "seed 2" in (out / "README.md").read_text(encoding="utf-8")
            assert outside(after, "rep") == outside(before, "rep")
            return
        if proc.returncode == -sig or (sig == signal.SIGINT and "KeyboardInterrupt" in text):
            # Python was still starting up (before unocli's handlers): the system's default action, nothing written
            event(f"{sig.name} during start-up")
            assert after == before
            return
        event(f"interrupted by {sig.name}")
        assert proc.returncode == 128 + sig, text
        lines = [line for line in text.splitlines() if line.strip()]
        assert lines == ["Interrupted." if sig == signal.SIGINT else f"Interrupted by {sig.name}."], text
        assert after == before  # the old report byte for byte, nothing else touched
