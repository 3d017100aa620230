"""Issue 10: no function in the study and balance layers (or the precision loop) is longer than 80 lines."""

from __future__ import annotations

import ast
from pathlib import Path

import unocli

LIMIT = 80
ROOT = Path(unocli.__file__).parent
CHECKED = [*sorted((ROOT / "study").glob("*.py")), *sorted((ROOT / "balance").glob("*.py")), ROOT / "run" / "precision.py"]


def long_functions(text: str, name: str) -> list[str]:
    """``name:line function is N lines`` for every function (or method) over LIMIT lines, decorators excluded."""
    out = []
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            lines = node.end_lineno - node.lineno + 1
            if lines > LIMIT:
                out.append(f"{name}:{node.lineno} {node.name} is {lines} lines")
    return out


def test_no_long_functions():
    assert len(CHECKED) > 8
    found = [msg for path in CHECKED for msg in long_functions(path.read_text(encoding="utf-8"), path.name)]
    assert not found, "\n".join(found)


def test_the_check_sees_a_long_method():
    body = "\n".join(f"        x{i} = {i}" for i in range(LIMIT))
    assert long_functions(f"class C:\n    def f(self):\n{body}\n", "c.py") == ["c.py:2 f is 81 lines"]
    assert long_functions(f"class C:\n    def f(self):\n{body[: body.rfind(chr(10))]}\n", "c.py") == []
