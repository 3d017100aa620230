"""docs/api.md's examples run as written: its ```python blocks, in order, in one namespace (as a notebook runs
them), each printing exactly the ```text block that follows it."""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

import pytest

DOC = Path(__file__).resolve().parents[1] / "docs" / "api.md"
FENCE = re.compile(r"^```(\w*)\n(.*?)^```$", re.M | re.S)


def examples(text: str) -> list[tuple[str, str | None]]:
    """Each python block with the text block right after it (None when prose or another python block follows)."""
    blocks = [(m.group(1), m.group(2), m.start(), m.end()) for m in FENCE.finditer(text)]
    out = []
    for k, (lang, body, _, end) in enumerate(blocks):
        if lang != "python":
            continue
        nxt = blocks[k + 1] if k + 1 < len(blocks) else None
        shown = nxt[1] if nxt and nxt[0] == "text" and not text[end : nxt[2]].strip() else None
        out.append((body, shown))
    return out


def _lines(text: str) -> list[str]:
    return [line.rstrip() for line in text.strip("\n").splitlines()]


def test_the_reader_finds_code_and_its_output():
    text = "a\n```python\nprint(1)\n```\n\n```text\n1\n```\nb\n```python\nx = 2\n```\nprose\n```text\nnot output\n```\n"
    assert examples(text) == [("print(1)\n", "1\n"), ("x = 2\n", None)]


def test_every_example_of_the_api_page_prints_what_it_shows():
    found = examples(DOC.read_text(encoding="utf-8"))
    assert len(found) >= 7 and sum(shown is not None for _, shown in found) >= 7
    namespace: dict[str, object] = {"__name__": "api_docs"}
    for k, (code, shown) in enumerate(found):
        printed = io.StringIO()
        with contextlib.redirect_stdout(printed):
            exec(compile(code, f"docs/api.md example {k + 1}", "exec"), namespace)
        if shown is not None:
            assert _lines(printed.getvalue()) == _lines(shown), f"example {k + 1}:\n{code}"


@pytest.mark.parametrize("name", ["simulate", "compare", "summary()", "win_shares()", "table()", "games_frame", "DataFrame"])
def test_the_page_shows_the_notebook_api(name):
    assert name in DOC.read_text(encoding="utf-8")
