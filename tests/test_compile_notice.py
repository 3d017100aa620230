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
