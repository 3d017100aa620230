"""The kernel compile notice (issue 14, item 5): one line, and on a terminal a spinner until the compile ends."""

from __future__ import annotations

import io
import threading

from unocli.cli.run import COMPILE_NOTICE, CompileNotice


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_off_a_terminal_the_notice_is_one_line_and_no_thread() -> None:
    out = io.StringIO()
    notice = CompileNotice(stream=out, done=lambda: False).start()
    notice.finish()
    assert out.getvalue() == COMPILE_NOTICE + "\n"
    assert notice._thread is None


def test_on_a_terminal_the_spinner_turns_until_the_kernel_is_compiled() -> None:
    out = Terminal()
    compiled = threading.Event()
    turns = []

    def done() -> bool:
        turns.append(1)
        if len(turns) >= 4:  # compiled after the spinner has drawn three frames
            compiled.set()
        return compiled.is_set()

    notice = CompileNotice(stream=out, done=done, interval=0.001).start()
    assert compiled.wait(10)
    notice._thread.join(10)
    frames = out.getvalue().split("\r")[1:]
    assert len(frames) == 4  # three spinner frames and the closing line
    assert [f[len(COMPILE_NOTICE) + 1] for f in frames[:3]] == ["|", "/", "-"]
    assert all(f.startswith(COMPILE_NOTICE) for f in frames)
    assert frames[-1].endswith(" s \n")  # the line ends once the compile has
    notice.finish()  # finishing after the end is harmless
    assert out.getvalue().count("\n") == 1


def test_finish_stops_the_spinner_and_ends_its_line() -> None:
    out = Terminal()
    notice = CompileNotice(stream=out, done=lambda: False, interval=0.001).start()
    notice.finish()
    assert notice._thread is None
    assert out.getvalue().endswith(" s \n") and out.getvalue().count("\n") == 1


def test_a_new_process_finds_the_kernel_this_one_compiled() -> None:
    """The compiled kernel is in the on-disk cache under a key the next process computes too.

    The batch kernel is a closure (kernel/batch.py); numba keys a cached closure by its captured
    values, pickled, and a captured compiled function pickles with an id of its process: such a
    kernel compiled again in every process (a warm start of 4 s instead of 0.6). ``is_compiled``
    reads the same key the load would.
    """
    import subprocess
    import sys

    from unocli.game.policies import preset
    from unocli.game.rules import Rules
    from unocli.kernel import is_compiled, play_rows

    play_rows(Rules(), (preset("basic"),) * 4, seed=0, count=1, threads=1)  # loaded from the cache, or compiled into it
    assert is_compiled()
    code = "from unocli.kernel import is_compiled; print(is_compiled())"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120)
    assert out.stdout.strip() == "True", out.stderr


def test_the_notice_names_the_search_kernels_when_they_are_missing_too(monkeypatch, capsys) -> None:
    """One kernel to compile: the short notice; the search players' too: the longer one, once."""
    from unocli.cli import run

    for compiled, kernels, want in [
        (set(), ("batch",), run.COMPILE_NOTICE),
        ({"batch"}, ("batch", "decision"), run.COMPILE_NOTICE_MORE),
        (set(), ("batch", "search"), run.COMPILE_NOTICE_MORE),
        ({"batch", "search"}, ("batch", "search"), None),
    ]:
        monkeypatch.setattr(run, "compiled", lambda k, c=compiled: k in c)
        run.announce_compile(False, spinner=False, kernels=kernels)
        assert capsys.readouterr().err == ("" if want is None else want + "\n"), (compiled, kernels)
    run.announce_compile(True, spinner=False, kernels=("search",))  # quiet: nothing
    assert capsys.readouterr().err == ""


def test_reports_name_the_kernels_their_games_use(tmp_path) -> None:
    from unocli.kernel import KERNELS, is_compiled
    from unocli.report.registry import REPORTS, kernels
    from unocli.report.render import default_paths, kernels_for

    assert all(set(r.kernels) <= set(KERNELS) for r in REPORTS.values())
    from unocli.cli.run import compiled

    assert all(isinstance(compiled(k), bool) for k in KERNELS) and isinstance(is_compiled("search"), bool)
    assert kernels_for(default_paths()) == ("batch", "decision")  # the bluff report's decision table searches
    length = tmp_path / "length.toml"
    length.write_text('analysis = "game-length"\n')
    broken = tmp_path / "broken.toml"
    broken.write_text("analysis = \n")
    assert kernels_for([length, broken]) == ("batch",)  # a file that cannot be read names none here
    fields = tmp_path / "fields.toml"  # a field, a table's policy or a seat that searches compiles the search kernel
    for searching in (
        '[options]\nfields = ["basic", "search:budget=512"]',
        '[base]\npolicy = "peek"',
        '[arms.a]\nseats = ["0=basic:search=on"]',
    ):
        fields.write_text(f'analysis = "house-rules"\n{searching}\n')
        assert kernels_for([fields]) == ("batch", "search"), searching
    fields.write_text('analysis = "house-rules"\ntitle = "search"\n[options]\nfields = ["basic", "tuned-{rules}-{players}"]\n')
    assert kernels_for([fields]) == ("batch",)  # prose and templates are not policies that search
    assert kernels(["game-length", "bluff", "sweep"]) == ("batch", "decision")
    assert kernels(["no-such-report"]) == ("batch",)
