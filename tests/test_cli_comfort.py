"""Command-line comfort: the progress bar's ETA and shell completion for bash, zsh and fish (click's)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import unocli.cli.run as run_mod
from unocli.cli.run import Progress, duration

# ---------------------------------------------------------------- the ETA


def test_duration_reads_like_a_clock_and_rounds_up():
    assert [duration(s) for s in (0, 0.2, 7, 59.5, 65, 725, 3723, -3)] == [
        "0:00",
        "0:01",
        "0:07",
        "1:00",
        "1:05",
        "12:05",
        "1:02:03",
        "0:00",
    ]


def test_the_bar_shows_the_time_left_at_the_rate_so_far(monkeypatch, capsys):
    clock = iter([100.0, 110.0, 110.0, 140.0, 140.0])  # start; 10 s in (check, rate); 40 s in (check, rate)
    monkeypatch.setattr(run_mod.time, "perf_counter", lambda: next(clock))
    monkeypatch.setattr(run_mod, "end_compile_notice", lambda: None)
    bar = Progress(enabled=True)
    bar.enabled = True  # as on a terminal
    bar(250, 1000)  # 25 games/s, 750 left: 30 s
    bar(1000, 1000)
    err = capsys.readouterr().err
    assert "250/1,000 games, 25/s, ETA 0:30 " in err
    assert "1,000/1,000 games, 25/s, ETA 0:00 " in err


# ---------------------------------------------------------------- completion


def complete(shell: str, words: str, cwd: Path | None = None) -> list[str]:
    """What the installed ``unocli`` answers a shell asking to complete ``words`` (click's protocol), one item a line."""
    env = {**os.environ, "_UNOCLI_COMPLETE": f"{shell}_complete", "COMP_WORDS": words}
    if shell == "fish":
        env["COMP_CWORD"] = "" if words.endswith(" ") else words.split()[-1]  # fish passes the word itself
    else:
        env["COMP_CWORD"] = str(len(words.split()) - (0 if words.endswith(" ") else 1))
    done = subprocess.run([UNOCLI], env=env, capture_output=True, text=True, timeout=120, cwd=cwd, check=False)
    assert done.returncode == 0, done.stderr
    return done.stdout.splitlines()


UNOCLI = str(Path(sys.executable).with_name("unocli"))


@pytest.mark.parametrize(
    ("shell", "mark"),
    [
        ("bash", "complete -o nosort -F _unocli_completion unocli"),
        ("zsh", "compdef _unocli_completion unocli"),
        ("fish", "complete --no-files --command unocli"),
    ],
)
def test_the_completion_script_is_printed_for_each_shell(shell, mark):
    done = subprocess.run(
        [UNOCLI], env={**os.environ, "_UNOCLI_COMPLETE": f"{shell}_source"}, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0 and mark in done.stdout and f"{shell}_complete" in done.stdout, done.stderr


def test_bash_completes_commands_including_the_lazy_ones():
    got = complete("bash", "unocli ")
    commands = {"simulate", "bench", "compare", "sweep", "report", "check", "baseline", "tune", "rules", "policies", "trace"}
    assert {f"plain,{c}" for c in commands} <= set(got)
    assert complete("bash", "unocli rep") == ["plain,report"]


def test_bash_completes_options_of_a_lazy_command():
    assert complete("bash", "unocli report --qu") == ["plain,--quick", "plain,--quiet"]


def test_zsh_completes_options_with_their_help():
    got = complete("zsh", "unocli report --qu")
    # zsh reads type, value and help, one a line
    assert got[:3] == [
        "plain",
        "--quick",
        "Use the experiments' [quick] sizes (default with no EXPERIMENT: quick; with files: full).",
    ]
    assert got[3:5] == ["plain", "--quiet"]


def test_fish_completes_rule_presets_and_files_for_rules_show():
    from unocli.game.rules import PRESETS

    expected = sorted(n for n in PRESETS if n.startswith("s"))
    assert len(expected) >= 3  # stacking and its variants, seven-o, ...
    got = complete("fish", "unocli rules show s")
    assert sorted(line.split(",", 1)[1] for line in got if line.startswith("plain,")) == expected
    assert "file,s" in got  # or a TOML rule set: the shell lists the files


def test_bash_completes_policy_presets_for_policy():
    from unocli.game.policies import PRESETS

    assert complete("bash", "unocli simulate --policy b") == [f"plain,{n}" for n in PRESETS if n.startswith("b")]


def test_bash_completes_experiment_files_as_paths(tmp_path):
    assert complete("bash", "unocli report ", cwd=tmp_path) == ["file,"]  # click's path type: the shell lists files


@pytest.mark.skipif(shutil.which("bash") is None, reason="no bash")
def test_the_bash_script_defines_a_function_bash_accepts(tmp_path):
    script = subprocess.run(
        [UNOCLI], env={**os.environ, "_UNOCLI_COMPLETE": "bash_source"}, capture_output=True, text=True
    ).stdout
    (tmp_path / "c.bash").write_text(script, encoding="utf-8")
    done = subprocess.run(["bash", "-c", f"source {tmp_path / 'c.bash'} && complete -p unocli"], capture_output=True, text=True)
    assert done.returncode == 0 and "_unocli_completion" in done.stdout, done.stderr


def test_the_completion_page_gives_each_shells_command():
    text = (Path(__file__).resolve().parents[1] / "docs" / "cli-completion.md").read_text(encoding="utf-8")
    for shell in ("bash", "zsh", "fish"):
        assert f"_UNOCLI_COMPLETE={shell}_source unocli" in text, shell
