"""The package's layout rules: short functions outside the kernel, no import circle, imports point down.

- No function (or method) outside ``unocli/kernel`` is longer than 80 lines,
  decorators excluded. The numba kernels are exempt: a kernel is one compiled
  loop, and splitting it costs calls the compiler may not inline.
- Every import is read, at module level and inside functions (an import in a
  function keeps numba, pandas or matplotlib off the start-up path, but the
  module still depends on what it imports). Importing ``a.b.c`` also runs
  ``a/__init__.py`` and ``a/b/__init__.py``, so those packages count as
  imported too, except the packages of the importing module itself (Python has
  started them before the module runs). Imports under ``if TYPE_CHECKING:``
  never run and are left out.
- No circle among the unocli modules (a strongly connected group of two or
  more), and every import points down the layers of docs/design.md §3:
  ``__main__`` -> ``cli`` -> the package face -> ``report``, ``balance`` ->
  ``study`` -> ``run`` -> ``kernel``, ``reference`` -> ``game`` -> ``files`` ->
  ``errors``, ``version``. A package imports its own modules freely; two
  packages of one layer do not import each other.

The violations that remain are listed below, each with the issue that removes
it; the test fails on any other, and on a listed one that no longer exists.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import numpy as np
from scipy.sparse import csr_matrix
from scipy.sparse.csgraph import connected_components

import unocli

LIMIT = 80
ROOT = Path(unocli.__file__).parent

# Top to bottom. A module belongs to the longest name that is it or its package;
# "unocli" is the package face alone (unocli/__init__.py), which sits above
# study because it re-exports simulate() and the rule and policy types (lazily,
# through importlib, which the reading below does not follow).
LAYERS: tuple[tuple[str, ...], ...] = (
    ("unocli.__main__",),
    ("unocli.cli",),
    ("unocli",),
    # balance's CI outputs format numbers as the reports do (report.fmt).
    ("unocli.balance",),
    ("unocli.report",),
    ("unocli.analysis",),
    ("unocli.study",),
    ("unocli.run",),
    ("unocli.kernel", "unocli.reference"),
    ("unocli.game",),
    # Output folders are written as files are (files' one-sentence errors), and hold back signals for their swap.
    ("unocli.folders",),
    ("unocli.files", "unocli.environment"),
    ("unocli.errors", "unocli.version", "unocli.signals"),
)

# Known violations, each "importer -> imported" with the issue that removes it (none left).
ALLOWED_UPWARD: set[str] = set()
ALLOWED_CIRCLES: set[frozenset[str]] = set()


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


def _statements(body: list[ast.stmt]) -> Iterator[ast.stmt]:
    """Every statement of ``body``, nested ones and function bodies included, but not those under ``if TYPE_CHECKING:``."""
    for node in body:
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            yield from _statements(node.orelse)
            continue
        yield node
        for field in ("body", "orelse", "finalbody", "handlers"):
            for item in getattr(node, field, []):
                if isinstance(item, ast.ExceptHandler):
                    yield from _statements(item.body)
                elif isinstance(item, ast.stmt):
                    yield from _statements([item])


def _named(node: ast.Import | ast.ImportFrom, package: str, modules: set[str]) -> list[str]:
    """The modules an import statement names: ``import m`` gives m; ``from m import x`` gives m.x if it is a module, else m."""
    if isinstance(node, ast.Import):
        return [a.name for a in node.names]
    if node.level:  # relative: from . import x, from ..y import z
        base = package.split(".")[: len(package.split(".")) - (node.level - 1)]
        source = ".".join([*base, *([node.module] if node.module else [])])
    else:
        source = node.module or ""
    return [f"{source}.{a.name}" if f"{source}.{a.name}" in modules else source for a in node.names]


def module_imports(text: str, module: str, modules: set[str], is_package: bool = False) -> dict[str, int]:
    """The unocli modules (of ``modules``) that ``module`` imports, each with the line of its first import.

    A module named in an import counts, and so does every package above it,
    except the packages ``module`` itself belongs to.
    """
    package = module if is_package else module.rpartition(".")[0]
    own = {".".join(module.split(".")[:i]) for i in range(1, module.count(".") + 1)}
    found: dict[str, int] = {}
    for node in _statements(ast.parse(text).body):
        if not isinstance(node, ast.Import | ast.ImportFrom):
            continue
        for name in _named(node, package, modules):
            parts = name.split(".")
            above = {".".join(parts[:i]) for i in range(1, len(parts))} - own
            for target in (name, *sorted(above)):
                if target in modules and target != module:
                    found.setdefault(target, node.lineno)
    return found


def import_graph() -> dict[str, dict[str, int]]:
    """Module -> the unocli modules it imports, each with a line number."""
    files = {module_name(p): p for p in sorted(ROOT.rglob("*.py"))}
    return {
        name: module_imports(path.read_text(encoding="utf-8"), name, set(files), path.name == "__init__.py")
        for name, path in files.items()
    }


def circles(graph: dict[str, dict[str, int]]) -> set[frozenset[str]]:
    """The groups of two or more modules that import each other, directly or round a circle."""
    names = sorted(graph)
    index = {n: i for i, n in enumerate(names)}
    pairs = [(index[a], index[b]) for a in graph for b in graph[a] if b in index]
    rows, cols = zip(*pairs, strict=True) if pairs else ((), ())
    matrix = csr_matrix((np.ones(len(pairs)), (rows, cols)), shape=(len(names), len(names)))
    count, labels = connected_components(matrix, directed=True, connection="strong")
    groups = [frozenset(n for n, label in zip(names, labels, strict=True) if label == k) for k in range(count)]
    return {g for g in groups if len(g) > 1}


def layer(module: str) -> tuple[int, str]:
    """(rank from the top, the LAYERS entry) of a module: the longest entry that is it or one of its packages."""
    found = [
        (rank, name)
        for rank, names in enumerate(LAYERS)
        for name in names
        if module == name or (name != "unocli" and module.startswith(name + "."))
    ]
    assert found, f"{module} is in no layer: add its package to LAYERS"
    return max(found, key=lambda f: len(f[1]))


def wrong_way(graph: dict[str, dict[str, int]]) -> dict[str, int]:
    """``importer -> imported`` -> line, for every import that points up a layer or across to a sibling package."""
    out = {}
    for importer, imported in graph.items():
        low = layer(importer)
        for target, line in imported.items():
            high = layer(target)
            if high[0] < low[0] or (high[0] == low[0] and high[1] != low[1]):
                out[f"{importer} -> {target}"] = line
    return out


# ---------------------------------------------------------------- the rules


def test_no_function_longer_than_80_lines_outside_the_kernel():
    paths = [p for p in sorted(ROOT.rglob("*.py")) if p.relative_to(ROOT).parts[0] != "kernel"]
    assert len(paths) > 40  # the whole package is read, not a corner of it
    found = [msg for p in paths for msg in long_functions(p.read_text(encoding="utf-8"), str(p.relative_to(ROOT)))]
    assert not found, "\n".join(found)


def test_no_import_circle_among_unocli_modules():
    graph = import_graph()
    assert len(graph) > 50 and "unocli.study.arm" in graph["unocli.study.compare"]  # the graph is the package's
    found = circles(graph)
    new = [" <-> ".join(sorted(c)) for c in found - ALLOWED_CIRCLES]
    gone = [" <-> ".join(sorted(c)) for c in ALLOWED_CIRCLES - found]
    assert not new, "import circles:\n" + "\n".join(new)
    assert not gone, "allowed circles that no longer exist (remove them from ALLOWED_CIRCLES):\n" + "\n".join(gone)
    # The report's layers: model and fmt import nothing of report/, and only the CLI imports render.
    report = {m for m in graph if m.startswith("unocli.report.")}
    assert not graph["unocli.report.model"].keys() & report and not graph["unocli.report.fmt"].keys() & report
    assert {m for m in graph if "unocli.report.render" in graph[m]} <= {m for m in graph if m.startswith("unocli.cli.")}


def test_every_import_points_down_the_layers():
    graph = import_graph()
    assert all(layer(m) for m in graph)  # every module has a layer
    found = wrong_way(graph)
    path = {module_name(p): p.relative_to(ROOT.parent) for p in ROOT.rglob("*.py")}
    new = [f"{path[k.split(' -> ')[0]]}:{line}: {k}" for k, line in sorted(found.items()) if k not in ALLOWED_UPWARD]
    gone = sorted(ALLOWED_UPWARD - found.keys())
    assert not new, "imports that point up a layer or across to a sibling:\n" + "\n".join(new)
    assert not gone, "allowed imports that no longer exist (remove them from ALLOWED_UPWARD):\n" + "\n".join(gone)


# ---------------------------------------------------------------- the checks can fail


def test_the_length_check_sees_a_long_method():
    body = "\n".join(f"        x{i} = {i}" for i in range(LIMIT))
    assert long_functions(f"class C:\n    def f(self):\n{body}\n", "c.py") == ["c.py:2 f is 81 lines"]
    assert long_functions(f"class C:\n    def f(self):\n{body[: body.rfind(chr(10))]}\n", "c.py") == []


MODULES = {
    "unocli",
    "unocli.game",
    "unocli.game.rules",
    "unocli.study",
    "unocli.study.arm",
    "unocli.study.sibling",
    "unocli.study.compare",
    "unocli.run",
    "unocli.run.dask",
    "unocli.report",
    "unocli.report.plots",
    "unocli.kernel",
}


def test_the_import_reader_sees_function_imports_and_packages_but_not_type_checking():
    text = (
        "from typing import TYPE_CHECKING\n"
        "import unocli.game.rules\n"
        "from unocli.study import arm\n"
        "from . import sibling\n"
        "try:\n    import unocli.run.dask\nexcept ImportError:\n    pass\n"
        "if TYPE_CHECKING:\n    import unocli.report.plots\n"
        "def f():\n    import unocli.kernel\n"
        "from unocli import __version__\n"
    )
    got = module_imports(text, "unocli.study.compare", MODULES)
    # unocli.game comes with unocli.game.rules; unocli.study and unocli (its own packages) only when named;
    # unocli.run with unocli.run.dask; the function's import counts; TYPE_CHECKING's does not.
    assert got == {
        "unocli.game.rules": 2,
        "unocli.game": 2,
        "unocli.study.arm": 3,
        "unocli.study.sibling": 4,
        "unocli.run.dask": 6,
        "unocli.run": 6,
        "unocli.kernel": 12,
        "unocli": 13,
    }


def test_the_circle_check_sees_a_circle_through_a_package_init():
    # c imports a.x, which runs package a, whose __init__ imports b, which imports c.
    text_c = "def f():\n    from a.x import y\n"
    got = module_imports(text_c, "c", {"a", "a.x", "b", "c"})
    assert got == {"a.x": 2, "a": 2}
    graph = {"a": {"b": 1}, "a.x": {}, "b": {"c": 1}, "c": got, "d": {"a": 1}}
    assert circles(graph) == {frozenset({"a", "b", "c"})}
    assert circles({"a": {"b": 1, "c": 1}, "b": {"c": 1}, "c": {}}) == set()


def test_the_layer_check_sees_an_upward_and_a_sibling_import():
    graph = {
        "unocli.study.simulate": {"unocli": 12, "unocli.run.shards": 13},
        "unocli.run.bench": {"unocli.study.simulate": 148},
        "unocli.kernel.step": {"unocli.reference.engine": 5, "unocli.kernel.encode": 6},
        "unocli.cli.main": {"unocli": 1, "unocli.version": 2},
    }
    assert wrong_way(graph) == {
        "unocli.study.simulate -> unocli": 12,
        "unocli.run.bench -> unocli.study.simulate": 148,
        "unocli.kernel.step -> unocli.reference.engine": 5,
    }
    assert layer("unocli") == (2, "unocli") and layer("unocli.version") == (12, "unocli.version")
