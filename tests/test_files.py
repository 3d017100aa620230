"""unocli/files.py: the one config loader and the one atomic writer (issue 10 item 4, issue 15).

Every file a user hands unocli (rules, policies, experiments, baselines) goes
through ``load_toml`` / ``load_json``, so each problem with the file itself is
one sentence naming the file; every output that must not be left half-written
(tables, baselines) goes through ``write_atomic``.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterator
from pathlib import Path

import pandas as pd
import pytest

from unocli.balance.baseline import BaselineError, load_baseline, save_baseline
from unocli.errors import ConfigError
from unocli.files import load_json, load_toml, write_atomic, write_table, write_text_atomic
from unocli.game.policies import load_policies_file
from unocli.game.rules import load_rules_file
from unocli.report.experiment import load_experiment

ROOT = os.geteuid() == 0  # root reads and writes regardless of permission bits

# (loader, what it calls the file in messages, syntax it parses)
LOADERS: dict[str, tuple[Callable[[Path], object], str, str]] = {
    "rules": (load_rules_file, "rules file", "TOML"),
    "policies": (load_policies_file, "policy file", "TOML"),
    "experiment": (load_experiment, "experiment file", "TOML"),
    "baseline": (load_baseline, "baseline file", "JSON"),
}


def _error(loader: Callable[[Path], object], path: Path) -> str:
    with pytest.raises(ConfigError) as info:
        loader(path)
    message = str(info.value)
    assert "\n" not in message and "Errno" not in message, message
    assert repr(str(path)) in message, message
    return message


# ---------------------------------------------------------------- loading


@pytest.mark.parametrize("kind", list(LOADERS))
def test_missing_file(kind, tmp_path):
    loader, what, _ = LOADERS[kind]
    assert _error(loader, tmp_path / "missing.x") == f"{what} {str(tmp_path / 'missing.x')!r} does not exist"


@pytest.mark.parametrize("kind", list(LOADERS))
def test_a_folder(kind, tmp_path):
    loader, what, _ = LOADERS[kind]
    folder = tmp_path / "sims.toml"
    folder.mkdir()
    assert _error(loader, folder) == f"{what} {str(folder)!r} is a folder, not a file"


@pytest.mark.parametrize("kind", list(LOADERS))
def test_a_binary_file(kind, tmp_path):
    loader, what, _ = LOADERS[kind]
    path = tmp_path / "results.parquet"
    path.write_bytes(b"PAR1\x00\x15\x04\x00\x00")
    assert _error(loader, path) == f"{what} {str(path)!r} is a binary file, not text"


@pytest.mark.parametrize("kind", list(LOADERS))
def test_not_utf8(kind, tmp_path):
    loader, what, _ = LOADERS[kind]
    path = tmp_path / "latin1.txt"
    path.write_bytes("# first line\nname = 'Bj\xf6rn'\n".encode("latin-1"))
    assert _error(loader, path) == f"{what} {str(path)!r} is not UTF-8 text (a byte that is not UTF-8 on line 2)"


@pytest.mark.parametrize("kind", list(LOADERS))
def test_syntax_error_names_the_line(kind, tmp_path):
    loader, what, syntax = LOADERS[kind]
    path = tmp_path / "broken"
    path.write_text("a = 1\nb = \n" if syntax == "TOML" else '{"a": 1,\n "b": }\n', encoding="utf-8")
    message = _error(loader, path)
    assert message.startswith(f"{what} {str(path)!r} is not valid {syntax}")
    assert "line 2" in message


@pytest.mark.parametrize("kind", list(LOADERS))
def test_permission_denied(kind, tmp_path, monkeypatch):
    loader, what, _ = LOADERS[kind]
    path = tmp_path / "secret"
    path.write_text("", encoding="utf-8")

    real_open = os.open

    def refuse(name, *args, **kwargs):
        if str(name) == str(path):
            raise PermissionError(13, "Permission denied", str(name))
        return real_open(name, *args, **kwargs)

    monkeypatch.setattr("unocli.files.os.open", refuse)
    assert _error(loader, path) == f"{what} {str(path)!r} cannot be read: permission denied"


@pytest.mark.skipif(ROOT, reason="root can read a file of mode 000")
def test_permission_denied_for_real(tmp_path):
    path = tmp_path / "secret.toml"
    path.write_text("players = 3\n", encoding="utf-8")
    path.chmod(0)
    with pytest.raises(ConfigError, match="cannot be read: permission denied"):
        load_rules_file(path)


def test_baseline_errors_are_baseline_errors(tmp_path):
    with pytest.raises(BaselineError):
        load_baseline(tmp_path / "missing.json")


def test_loaders_return_the_data(tmp_path):
    toml = tmp_path / "a.toml"
    toml.write_text('x = 1\n[t]\ny = "é"\n', encoding="utf-8")
    assert load_toml(toml, "file") == {"x": 1, "t": {"y": "é"}}
    js = tmp_path / "a.json"
    js.write_text('[1, {"a": null}]', encoding="utf-8")
    assert load_json(js, "file") == [1, {"a": None}]


# ---------------------------------------------------------------- writing


@pytest.fixture
def umask() -> Iterator[Callable[[int], None]]:
    """Set the process umask for one test (restored after it)."""
    old = os.umask(0o022)
    try:
        yield os.umask
    finally:
        os.umask(old)


def _mode(path: Path) -> int:
    return path.stat().st_mode & 0o777


@pytest.mark.parametrize("mask", [0o022, 0o002, 0o077, 0o027])
def test_written_files_get_the_umask_permissions(tmp_path, umask, mask):
    """Issue 15: an atomically written file came out 0600 whatever the umask (tempfile.mkstemp's mode)."""
    umask(mask)
    expected = 0o666 & ~mask
    text = tmp_path / "t.txt"
    write_text_atomic(text, "hello\n")
    assert _mode(text) == expected and text.read_text() == "hello\n"
    csv = write_table(pd.DataFrame({"a": [1, 2]}), tmp_path / "t.csv")
    parquet = write_table(pd.DataFrame({"a": [1, 2]}), tmp_path / "t.parquet")
    doc = json.loads((Path(__file__).resolve().parent.parent / "sims" / "baselines" / "balance.json").read_text())
    baseline = save_baseline(doc, tmp_path / "b.json")  # a valid baseline: save_baseline refuses what check cannot read
    assert [_mode(p) for p in (csv, parquet, baseline)] == [expected] * 3
    assert json.loads(baseline.read_text()) == doc


def test_overwriting_replaces_the_content(tmp_path):
    path = tmp_path / "t.txt"
    path.write_text("old\n")
    write_text_atomic(path, "new\n")
    assert path.read_text() == "new\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["t.txt"]


def test_a_failing_writer_leaves_the_old_file_and_no_temp_file(tmp_path):
    path = tmp_path / "t.txt"
    path.write_text("old\n")

    def half_then_fail(tmp: Path) -> None:
        tmp.write_text("half a")
        raise ValueError("disk on fire\nsecond line")

    with pytest.raises(ConfigError) as info:
        write_atomic(path, half_then_fail)
    assert str(info.value) == f"cannot write {str(path)!r}: disk on fire second line"
    assert path.read_text() == "old\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["t.txt"]


def test_a_table_that_cannot_be_written_leaves_the_old_file(tmp_path):
    """pyarrow refuses a column of arbitrary objects half-way through writing."""
    path = tmp_path / "t.parquet"
    write_table(pd.DataFrame({"a": [1]}), path)
    before = path.read_bytes()
    with pytest.raises(ConfigError, match=r"cannot write .*t\.parquet"):
        write_table(pd.DataFrame({"a": [object()]}), path)
    assert path.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["t.parquet"]


def test_an_interrupt_is_not_swallowed_but_cleans_up(tmp_path):
    path = tmp_path / "t.txt"

    def interrupted(tmp: Path) -> None:
        tmp.write_text("part")
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        write_atomic(path, interrupted)
    assert list(tmp_path.iterdir()) == []


def test_a_failed_rename_leaves_the_old_file_and_no_temp_file(tmp_path, monkeypatch):
    path = tmp_path / "t.txt"
    path.write_text("old\n")

    def no_space(src, dst):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", no_space)
    with pytest.raises(ConfigError, match=r"^cannot write .*t\.txt': no space left on device$"):
        write_text_atomic(path, "new\n")
    assert path.read_text() == "old\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["t.txt"]


def test_writing_where_it_cannot(tmp_path):
    with pytest.raises(ConfigError, match=r"the folder .* does not exist"):
        write_text_atomic(tmp_path / "no" / "t.txt", "x")
    (tmp_path / "d").mkdir()
    with pytest.raises(ConfigError, match="it is a folder"):
        write_text_atomic(tmp_path / "d", "x")


@pytest.mark.skipif(ROOT, reason="root can write into a folder of mode 500")
def test_writing_into_a_read_only_folder(tmp_path):
    folder = tmp_path / "ro"
    folder.mkdir()
    folder.chmod(0o500)
    try:
        with pytest.raises(ConfigError, match="permission denied"):
            write_text_atomic(folder / "t.txt", "x")
    finally:
        folder.chmod(0o700)


# ---------------------------------------------------------------- a command never writes over its own input


def test_within_a_command_no_output_is_written_over_a_file_it_read(tmp_path):
    """Inside inputs_kept (every CLI command) a file read as input may not be written, before the work
    (check_file_path) or at the end (write_atomic); the file is left as it was. Outside, nothing is remembered."""
    from unocli.files import check_file_path, inputs_kept

    rules = tmp_path / "house.toml"
    rules.write_text("stacking = 'plus2'\n", encoding="utf-8")
    via = tmp_path / "via.toml"
    via.symlink_to(rules)
    with inputs_kept():
        load_rules_file(via)  # read through a link: the file it points to is the input
        for path in (rules, via):
            with pytest.raises(ConfigError, match=r"is the rules file this command reads: write elsewhere"):
                check_file_path(path)
            with pytest.raises(ConfigError, match=r"is the rules file this command reads"):
                write_text_atomic(path, "lost")
        write_text_atomic(tmp_path / "other.toml", "fine")
    assert rules.read_text(encoding="utf-8") == "stacking = 'plus2'\n" and via.is_symlink()
    write_text_atomic(rules, "outside a command, a library call may")  # nothing remembered now
    assert rules.read_text(encoding="utf-8").startswith("outside")


def test_a_link_given_as_an_output_file_is_written_where_it_points_and_stays_a_link(tmp_path):
    target = tmp_path / "target.csv"
    target.write_text("old", encoding="utf-8")
    link = tmp_path / "link.csv"
    link.symlink_to(target)
    write_text_atomic(link, "new")
    assert link.is_symlink() and target.read_text(encoding="utf-8") == "new"  # the link was replaced by a file before
