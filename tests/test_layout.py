"""The package's layout rules (issue 10): short functions outside the kernel, and no import cycle.

- No function (or method) outside ``unocli/kernel`` is longer than 80 lines,
  decorators excluded. The numba kernels are exempt: a kernel is one compiled
  loop, and splitting it costs calls the compiler may not inline.
- No cycle among the unocli modules' module-level imports. Imports inside
  functions (deliberate: they keep numba, pandas or matplotlib off the start-up
  path) and imports under ``if TYPE_CHECKING:`` never run at import time, so
  they cannot close a cycle and are left out.
"""

from __future__ import annotations

import ast
from pathlib import Path

import unocli

LIMIT = 80
ROOT = Path(unocli.__file__).parent


def module_name(path: Path) -> str:
    """``unocli/study/arm.py`` -> ``unocli.study.arm``; a package's ``__init__.py`` is the package."""
    parts = ("unocli", *path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts).removesuffix(".__init__")


def long_functions(text: str, name: str) -> list[str]:
    """``name:line function is N lines`` for every function (or method) over LIMIT lines, decorators excluded."""
    out = []
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            lines = node.end_lineno - node.lineno + 1
            if lines > LIMIT:
                out.append(f"{name}:{node.lineno} {node.name} is {lines} lines")
    return out


def _runs_at_import(body: list[ast.stmt]) -> list[ast.stmt]:
    """The statements of ``body`` that run when the module is imported, nested ones included.

    Function bodies do not run; class bodies, ``if``/``try``/``with`` blocks do,
    except the body of ``if TYPE_CHECKING:``.
    """
    out: list[ast.stmt] = []
    for node in body:
        out.append(node)
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            out += _runs_at_import(node.orelse)
            continue
        for field in ("body", "orelse", "finalbody", "handlers"):
            block = getattr(node, field, [])
            out += _runs_at_import([s for s in block if isinstance(s, ast.stmt)])
            for handler in (h for h in block if isinstance(h, ast.ExceptHandler)):
                out += _runs_at_import(handler.body)
    return out


def module_imports(text: str, module: str, is_package: bool = False) -> set[str]:
    """Every ``unocli`` module or name the module imports at import time (``from m import x`` gives m and m.x)."""
    package = module if is_package else module.rpartition(".")[0]
    names: set[str] = set()
    for node in _runs_at_import(ast.parse(text).body):
        if isinstance(node, ast.Import):
            names.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:  # relative: from . import x, from ..y import z
                base = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                source = ".".join([*base, *([node.module] if node.module else [])])
            else:
                source = node.module or ""
            names.add(source)
            names.update(f"{source}.{a.name}" for a in node.names)
    return {n for n in names if n == "unocli" or n.startswith("unocli.")}


def import_graph() -> dict[str, set[str]]:
    """Module -> the unocli modules it imports at import time."""
    files = {module_name(p): p for p in sorted(ROOT.rglob("*.py"))}
    graph = {}
    for name, path in files.items():
        imported = module_imports(path.read_text(encoding="utf-8"), name, path.name == "__init__.py")
        graph[name] = {m for m in imported if m in files and m != name}
    return graph


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import cycle (``[a, b, ..., a]``), or None when the graph has none."""
    done: set[str] = set()

    def visit(node: str, path: list[str]) -> list[str] | None:
        if node in path:
            return [*path[path.index(node) :], node]
        if node in done:
            return None
        for nxt in sorted(graph.get(node, ())):
            cycle = visit(nxt, [*path, node])
            if cycle:
                return cycle
        done.add(node)
        return None

    for start in sorted(graph):
        cycle = visit(start, [])
        if cycle:
            return cycle
    return None


# ---------------------------------------------------------------- the rules


def test_no_function_longer_than_80_lines_outside_the_kernel():
    paths = [p for p in sorted(ROOT.rglob("*.py")) if p.relative_to(ROOT).parts[0] != "kernel"]
    assert len(paths) > 40  # the whole package is read, not a corner of it
    found = [msg for p in paths for msg in long_functions(p.read_text(encoding="utf-8"), str(p.relative_to(ROOT)))]
    assert not found, "\n".join(found)


def test_no_import_cycle_among_unocli_modules():
    graph = import_graph()
    assert len(graph) > 50 and "unocli.study.arm" in graph["unocli.study.compare"]  # the graph is the package's
    cycle = find_cycle(graph)
    assert cycle is None, "import cycle: " + " -> ".join(cycle or [])
    # The report's layers: model and fmt import nothing of report/, and only the CLI imports render.
    report = {m for m in graph if m.startswith("unocli.report.")}
    assert not graph["unocli.report.model"] & report and not graph["unocli.report.fmt"] & report
    assert {m for m in graph if "unocli.report.render" in graph[m]} <= {m for m in graph if m.startswith("unocli.cli.")}


# ---------------------------------------------------------------- the checks can fail


def test_the_length_check_sees_a_long_method():
    body = "\n".join(f"        x{i} = {i}" for i in range(LIMIT))
    assert long_functions(f"class C:\n    def f(self):\n{body}\n", "c.py") == ["c.py:2 f is 81 lines"]
    assert long_functions(f"class C:\n    def f(self):\n{body[: body.rfind(chr(10))]}\n", "c.py") == []


def test_the_cycle_check_sees_a_cycle_and_only_imports_that_run():
    text = (
        "from typing import TYPE_CHECKING\n"
        "import unocli.game.rules\n"
        "from unocli.study import arm\n"
        "from . import sibling\n"
        "try:\n    import unocli.run.dask\nexcept ImportError:\n    pass\n"
        "if TYPE_CHECKING:\n    import unocli.report.plots\n"
        "def f():\n    import unocli.kernel\n"
    )
    got = module_imports(text, "unocli.study.compare")
    assert got == {"unocli.game.rules", "unocli.study", "unocli.study.arm", "unocli.study.sibling", "unocli.run.dask"}
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b", "c"}, "b": {"c"}, "c": set()}) is None
