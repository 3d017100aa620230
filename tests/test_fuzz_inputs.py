"""Hostile values in the files unocli reads: the shipped experiments, policies and a rules file, mutated (issue 25).

Hypothesis starts from a real file (``sims/*.toml``, ``sims/policies.toml``, a
rules file), parses it, and applies one to three mutations: a value replaced
by a hostile one (a list or a table where a scalar belongs, ``inf``, ``nan``,
a 40-digit number, a date, a newline, a long or empty string, deep nesting), a
key deleted, an unknown or hostile key added, a value wrapped in a list or a
table. The file is written back as TOML and handed to the command that reads
it (``compare``, ``rules show``, ``simulate --rules``, ``policies show``,
``simulate --policies``), in-process through click's CliRunner.

Every case must end with exit 0, or 1 (a bad file) or 2 (a policy name that
names nothing, a bad option) with exactly one ``Error: ...`` line; no
traceback, no "internal error", no temporary file left, the input file
unchanged. Games are kept to a handful per arm and each case has a time
limit. The default run tries a short budget; ``-m slow`` a long one.
"""

from __future__ import annotations

import copy
import datetime
import math
import re
import shutil
import signal
import tomllib
import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from unocli.cli.main import cli

ROOT = Path(__file__).resolve().parents[1]
SIMS = ROOT / "sims"
CASE_SECONDS = 120  # one case's limit: the slowest legal case (many arms at three table sizes) takes a second or two
TEMP_NAME = re.compile(r"^\..*\.(tmp|old)$|^\.unocli-probe")
EXPERIMENTS = sorted(p.name for p in SIMS.glob("*.toml") if p.name != "policies.toml")
RULES_DOC = {"base": "official", "players": 3, "hand_size": 5, "stacking": "plus2", "uno_penalty": 4, "max_turns": 400}


# ---------------------------------------------------------------- writing TOML (the tests' own, small writer)


def toml_string(text: str) -> str:
    """A TOML basic string: quotes, backslashes and control characters escaped."""
    out = []
    for c in text:
        if c in '"\\':
            out.append("\\" + c)
        elif ord(c) < 0x20 or ord(c) == 0x7F:
            out.append(f"\\u{ord(c):04x}")
        else:
            out.append(c)
    return '"' + "".join(out) + '"'


@dataclass(frozen=True)
class Deep:
    """``value`` inside ``depth`` nested lists, written without recursion (the nesting the loader must refuse)."""

    value: Any
    depth: int


def toml_value(value: Any) -> str:
    if isinstance(value, Deep):
        return "[" * value.depth + toml_value(value.value) + "]" * value.depth
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        if math.isnan(value):
            return "nan"
        if math.isinf(value):
            return "inf" if value > 0 else "-inf"
        return repr(value)
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return toml_string(value)
    if isinstance(value, datetime.datetime | datetime.date | datetime.time):
        return value.isoformat()
    if isinstance(value, list):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{toml_string(str(k))} = {toml_value(v)}" for k, v in value.items()) + "}"
    raise TypeError(f"no TOML for {value!r}")  # pragma: no cover


def dump(doc: dict[str, Any]) -> str:
    """``doc`` as TOML, every table inline (so any key and any nesting can be written)."""
    return "".join(f"{toml_string(str(k))} = {toml_value(v)}\n" for k, v in doc.items())


def test_the_writer_round_trips_what_it_is_given():
    doc = {"a\n\"b'": [1, 2.5, "x\\y\x7f", {"é☃": True}], "t": {"d": datetime.date(2020, 1, 2)}, "": -3}
    assert tomllib.loads(dump(doc)) == doc


# ---------------------------------------------------------------- hostile values and mutations

SCALARS = st.one_of(
    st.sampled_from(
        [
            0,
            -1,
            1,
            2,
            7,
            10**30,
            2**63,
            2**64,
            -(2**63),
            10**40,
            0.5,
            1e300,
            -0.0,
            float("inf"),
            float("-inf"),
            float("nan"),
            True,
            False,
            "",
            " ",
            "x\ny",
            "é☃🂠",
            "'\"",
            "a" * 5000,
            "0:1:0",
            "0:1:1e-9",
            "{rules}",
            "{x}",
            "basic:bluff=nan",
            "basic:",
            ":",
            "official",
            "stacking",
            "basic",
            "tuned-official-4",
            "turns",
            "win_0",
            "sweep",
            "compare",
            "policies.toml",
            "tuned/tuned.toml",
            "missing.toml",
            "../",
            "/dev/null",
            datetime.date(2020, 1, 1),
            datetime.time(1, 2, 3),
            datetime.datetime(2020, 1, 1, 1, 2, 3),
        ]
    ),
    st.integers(),
    st.floats(),
    st.text(max_size=12),
)
VALUES = st.recursive(
    SCALARS,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4),
        st.dictionaries(st.one_of(st.text(max_size=6), st.sampled_from(["0", "a", "basic"])), inner, max_size=3),
    ),
    max_leaves=6,
)
HOSTILE_KEYS = st.one_of(
    st.sampled_from(["", " ", "zz", "a\nb", "é☃", "'\"", "0", "-1", "games", "rules", "base"]), st.text(max_size=8)
)


def _paths(doc: Any, prefix: tuple = ()) -> list[tuple]:
    """Every key path in ``doc`` (into tables and lists)."""
    out = []
    items = doc.items() if isinstance(doc, dict) else enumerate(doc) if isinstance(doc, list) else []
    for k, v in items:
        out.append((*prefix, k))
        out += _paths(v, (*prefix, k))
    return out


def _parent(doc: Any, path: tuple) -> Any:
    for k in path[:-1]:
        doc = doc[k]
    return doc


@st.composite
def mutated(draw, doc: dict[str, Any]) -> dict[str, Any]:
    """``doc`` after one to three mutations (a fresh copy; ``doc`` is left as it was)."""
    doc = copy.deepcopy(doc)
    for _ in range(draw(st.integers(1, 3))):
        paths = _paths(doc)
        kind = draw(st.sampled_from(["replace", "replace", "replace", "delete", "add", "wrap", "deep"]))
        if not paths:
            kind = "add"
        if kind == "add":
            tables = [p for p in paths if isinstance(_parent(doc, (*p, None)), dict)]
            table = doc if not tables or draw(st.booleans()) else _parent(doc, (*draw(st.sampled_from(tables)), None))
            table[draw(HOSTILE_KEYS)] = draw(VALUES)
            continue
        path = draw(st.sampled_from(paths))
        parent, key = _parent(doc, path), path[-1]
        if kind == "delete":
            del parent[key]
        elif kind == "replace":
            parent[key] = draw(VALUES)
        elif kind == "wrap":
            parent[key] = draw(st.sampled_from([[parent[key]], {"x": parent[key]}, [parent[key], parent[key]]]))
        else:
            parent[key] = Deep(parent[key], draw(st.sampled_from([33, 200, 3000])))
    event(f"{kind}")
    return doc


# ---------------------------------------------------------------- the cases


@pytest.fixture(scope="module")
def folder(tmp_path_factory) -> Path:
    """A copy of sims/ (so an experiment's relative ``policies`` and rules files resolve), and a place for runs."""
    d = tmp_path_factory.mktemp("fuzz_inputs")
    shutil.copytree(SIMS, d / "sims", ignore=shutil.ignore_patterns("baselines", "cells"))
    return d


def _doc(kind: str, name: str) -> dict[str, Any]:
    if kind == "rules":
        return dict(RULES_DOC)
    return tomllib.loads((SIMS / name).read_text(encoding="utf-8"))


@st.composite
def cases(draw) -> tuple[str, str, dict[str, Any], list[str]]:
    """(kind, file name, mutated document, command line with {file} for the file)."""
    kind = draw(st.sampled_from(["experiment", "experiment", "policies", "rules"]))
    name = draw(st.sampled_from(EXPERIMENTS)) if kind == "experiment" else "policies.toml" if kind == "policies" else "r.toml"
    doc = draw(mutated(_doc(kind, name)))
    if kind == "experiment":
        args = ["compare", "{file}", "--games", "3", "--max-games", "30", "--threads", "1"]
    elif kind == "rules":
        args = draw(st.sampled_from([["rules", "show", "{file}"], ["simulate", "--rules", "{file}", "--games", "3", "--quiet"]]))
    else:
        names = [k for k in doc if isinstance(k, str)] or ["random"]
        policy = draw(st.sampled_from([*names, "random", "nope"]))
        args = draw(
            st.sampled_from(
                [
                    ["policies", "show", policy, "--policies", "{file}"],
                    ["simulate", "--policies", "{file}", "--policy", policy, "--games", "3", "--quiet", "--threads", "1"],
                ]
            )
        )
    return kind, name, doc, args


class CaseTooSlow(BaseException):  # not an Exception: the CLI's last-resort handler must not swallow it
    pass


def _alarm(signum, frame):
    raise CaseTooSlow(f"a case took over {CASE_SECONDS} s")


def _leftovers(root: Path) -> list[str]:
    return [str(p) for p in root.rglob("*") if TEMP_NAME.match(p.name)]


TRIED = {"cases": 0, "exit 0": 0, "exit 1": 0, "exit 2": 0}


def _one_case(folder: Path, case: tuple[str, str, dict[str, Any], list[str]]) -> None:
    kind, name, doc, args = case
    run = folder / "sims" / f"fuzz-{uuid.uuid4().hex[:8]}-{name}"
    text = dump(doc)
    run.write_text(text, encoding="utf-8")
    before = {p: p.stat().st_mtime_ns for p in folder.rglob("*") if p.is_file()}
    filled = [str(run) if a == "{file}" else a for a in args]
    previous = signal.signal(signal.SIGALRM, _alarm)
    signal.alarm(CASE_SECONDS)
    try:
        result = CliRunner().invoke(cli, filled)
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)
    TRIED["cases"] += 1
    TRIED[f"exit {result.exit_code}"] = TRIED.get(f"exit {result.exit_code}", 0) + 1
    event(f"{kind} {args[0]}: exit {result.exit_code}")
    shown = f"unocli {' '.join(filled)}\n--- {run.name}:\n{text[:3000]}\n--- output:\n{result.output[:3000]}"
    assert not isinstance(result.exception, CaseTooSlow), shown
    assert result.exit_code in (0, 1, 2), shown
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise AssertionError(shown) from result.exception
    assert "Traceback" not in result.output and "internal error" not in result.output, shown
    if result.exit_code != 0:
        lines = result.output.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("Error: "), shown
    assert run.read_text(encoding="utf-8") == text, shown  # the input is never touched
    after = {p: p.stat().st_mtime_ns for p in folder.rglob("*") if p.is_file()}
    assert after == before, shown  # nothing written anywhere (no command here writes a file)
    assert _leftovers(folder) == [], shown
    run.unlink()


@pytest.fixture(scope="module", autouse=True)
def tally():
    yield
    print(f"\ntest_fuzz_inputs: {TRIED}")  # seen with -s: how many cases ran, by exit code


SETTINGS = {
    "deadline": None,
    "derandomize": True,  # the same cases on every run: a finding is reproducible
    "suppress_health_check": [HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much],
}


@settings(max_examples=120, **SETTINGS)
@given(case=cases())
def test_fuzz_input_files_short(folder, case) -> None:
    _one_case(folder, case)


@pytest.mark.slow
@settings(max_examples=2000, **{**SETTINGS, "derandomize": False})
@given(case=cases())
def test_fuzz_input_files_long(folder, case) -> None:
    _one_case(folder, case)
