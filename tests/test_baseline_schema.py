"""Corrupt baselines are refused before any game (issue 25): exit 2, one sentence naming the file, field and problem.

The crafted baselines are mutations of the real one (sims/baselines/balance.json): every field of the document,
of one arm, one rule set, one policy and one metric is replaced by each value of a hostile list (wrong types,
out-of-range, huge, non-finite, nested, missing). Each must be refused with a BaselineError naming the field, or
accepted and then checked without error. The slow variant draws random multi-field mutations with hypothesis and
runs ``check`` on every accepted one.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from unocli.balance import schema
from unocli.balance.baseline import BaselineError, load_baseline, parse_baseline
from unocli.cli.main import cli

ROOT = Path(__file__).resolve().parent.parent
REAL = ROOT / "sims" / "baselines" / "balance.json"
DOC: dict[str, Any] = json.loads(REAL.read_text())


@pytest.fixture
def no_games(monkeypatch):
    """Any game played fails the test: refusals must come before the first game."""

    def refuse(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("a game was played before the baseline was refused")

    monkeypatch.setattr("unocli.balance.baseline.simulate", refuse)
    monkeypatch.setattr("unocli.balance.sequential.simulate", refuse)


def _write(tmp_path: Path, doc: Any = None, text: str | None = None, name: str = "crafted.json") -> Path:
    path = tmp_path / name
    path.write_text(text if text is not None else json.dumps(doc))
    return path


def _refused(result: Any, path: Path, *needles: str) -> str:
    """Exit 2 with one line that names the file and every needle (the field and the problem), no traceback."""
    out = result.output
    assert result.exit_code == 2, out
    assert "Traceback" not in out and "internal error" not in out, out
    lines = [line for line in out.splitlines() if line.strip()]
    assert len(lines) == 1, out
    assert str(path) in out, out
    for needle in needles:
        assert needle in out, (needle, out)
    return out


def _mutated(change: Any) -> dict[str, Any]:
    doc = copy.deepcopy(DOC)
    change(doc)
    return doc


N = DOC["arms"][0]["n"]

# (description, mutation, text of the file or None, needles that the one-line message must hold)
CASES: list[tuple[str, Any, list[str]]] = [
    ("games 10^30", lambda d: d.update(games=10**30), ["'games'", "from 1 to 2**63 - 1"]),
    ("games 2^63", lambda d: d.update(games=2**63), ["'games'", "from 1 to 2**63 - 1"]),
    ("seed 2^64", lambda d: d.update(seed=2**64), ["'seed'", "from 0 to 2**64 - 1"]),
    ("arm n 10^30", lambda d: d["arms"][0].update(n=10**30), ["arms[0].n", "outside"]),
    ("arm n 2^63", lambda d: d["arms"][0].update(n=2**63), ["arms[0].n", "'games' allows"]),
    ("wins four times n", lambda d: d["arms"][0].update(wins=[N] * 4), ["arms[0].wins", "more than the arm's n"]),
    ("one win count above n", lambda d: d["arms"][0]["wins"].__setitem__(0, N + 1), ["arms[0].wins", "more than"]),
    ("format_version true", lambda d: d.update(format_version=True), ["format_version", "not True"]),
    ("unknown metric", lambda d: d["arms"][0]["metrics"].update(fun={"mean": 1, "sd": 1}), ["metrics.fun", "metrics"]),
    ("negative mean", lambda d: d["arms"][0]["metrics"]["turns"].update(mean=-1.0), ["metrics.turns.mean", "outside"]),
    ("negative sd", lambda d: d["arms"][0]["metrics"]["turns"].update(sd=-0.5), ["metrics.turns.sd", "outside"]),
    ("negative win count", lambda d: d["arms"][1]["wins"].__setitem__(2, -3), ["arms[1].wins[2]", "outside"]),
    ("n beyond games", lambda d: d["arms"][2].update(n=DOC["games"] + 1), ["arms[2].n", "'games' allows"]),
    ("two arms of one name", lambda d: d["arms"][1].update(name="official"), ["arms[1].name", "earlier arm"]),
    ("a metric of matches on rounds", lambda d: d["arms"][0]["metrics"].update(rounds={"mean": 1, "sd": 0}), ["rounds"]),
    ("a missing field", lambda d: d["arms"][0].pop("fingerprint"), ["arms[0].fingerprint", "missing"]),
    ("an extra field", lambda d: d.update(extra=1), ["extra", "not a field"]),
    ("wins of a bool", lambda d: d["arms"][0]["wins"].__setitem__(0, True), ["arms[0].wins[0]", "True"]),
    ("a list for a rule", lambda d: d["arms"][0]["rules"].update(hand_size=[7]), ["arms[0].rules.hand_size"]),
    ("a table for a knob", lambda d: d["arms"][0]["policies"][0].update(play={"a": 1}), ["policies[0].play"]),
    ("arms empty", lambda d: d.update(arms=[]), ["arms", "0 items"]),
    ("too few policies", lambda d: d["arms"][0]["policies"].pop(), ["arms[0]", "4 counts for 3 players"]),
    ("a bad fingerprint", lambda d: d["arms"][0].update(fingerprint="XYZ"), ["arms[0].fingerprint"]),
    ("an unreadable rule value", lambda d: d["arms"][0]["rules"].update(stacking="sideways"), ["arms[0]", "stacking"]),
]


@pytest.mark.parametrize(("what", "change", "needles"), CASES, ids=[c[0] for c in CASES])
def test_a_crafted_baseline_is_refused_before_any_game(what, change, needles, tmp_path, no_games) -> None:
    path = _write(tmp_path, _mutated(change))
    for mode in ([], ["--exact"], ["--sequential"]):
        _refused(CliRunner().invoke(cli, ["check", *mode, str(path)]), path, *needles)


TEXT_CASES = [
    ("a 5,001-digit number", json.dumps(DOC).replace('"seed": 20261129', '"seed": ' + "7" * 5001), ["5,001 digits"]),
    (
        "a deeply nested document",
        json.dumps(DOC).replace('"source": "sims/balance.toml"', '"source": ' + "[" * 100_000 + "]" * 100_000),
        ["nested 100,001 levels"],
    ),
    ("NaN", json.dumps(DOC).replace('"mean": 51.14535', '"mean": NaN'), ["NaN", "finite"]),
    ("Infinity", json.dumps(DOC).replace('"sd": 25.532945808514565', '"sd": -Infinity'), ["Infinity", "finite"]),
    ("1e999", json.dumps(DOC).replace('"mean": 51.14535', '"mean": 1e999'), ["metrics.turns.mean", "inf", "finite"]),
    ("a newer format", json.dumps({**DOC, "format_version": 3}), ["format version 3", "newer", "upgrade unocli"]),
    ("not a baseline", json.dumps({**DOC, "format": "other"}), ["is not a unocli baseline"]),
    ("truncated", json.dumps(DOC)[:-10], ["not valid JSON", ": line 1, column"]),
    # a key given twice: json keeps the last silently, and the message said "format version 2, newer than 1, 2"
    (
        "a key twice",
        json.dumps(DOC).replace('"format_version": 2', '"format_version": 2, "format_version": 3'),
        ["gives the key 'format_version' twice in one object"],
    ),
    ("a list", "[1, 2]", ["is not a unocli baseline"]),
]


@pytest.mark.parametrize(("what", "text", "needles"), TEXT_CASES, ids=[c[0] for c in TEXT_CASES])
def test_a_crafted_text_is_refused_before_any_game(what, text, needles, tmp_path, no_games) -> None:
    assert text != json.dumps(DOC)  # the replacement found its target
    path = _write(tmp_path, text=text)
    _refused(CliRunner().invoke(cli, ["check", "--exact", str(path)]), path, *needles)


def test_a_file_over_the_input_limit_is_refused_by_its_size(tmp_path, no_games) -> None:
    from unocli.files import MAX_INPUT_BYTES

    path = _write(tmp_path, text=json.dumps(DOC) + " " * MAX_INPUT_BYTES)
    _refused(CliRunner().invoke(cli, ["check", str(path)]), path, f"at most {MAX_INPUT_BYTES:,} are read")


def test_a_fifo_is_refused_without_blocking(tmp_path, no_games) -> None:
    import os

    path = tmp_path / "pipe.json"
    os.mkfifo(path)
    _refused(CliRunner().invoke(cli, ["check", str(path)]), path, "not a regular file")


@pytest.mark.parametrize(
    "option",
    [
        ["--alpha", "nan"],
        ["--alpha", "inf"],
        ["--alpha", "-inf"],
        ["--alpha", "0"],
        ["--alpha", "1"],
        ["--alpha", "1.5"],
        ["--tolerance", "nan"],
        ["--tolerance", "inf"],
        ["--tolerance", "0"],
        ["--tolerance", "-0.1"],
        ["--tolerance", "2"],
        ["--beta", "nan"],
        ["--beta", "0.5"],
        ["--beta", "0"],
    ],
)
def test_non_finite_or_out_of_range_error_rates_are_refused(option, no_games) -> None:
    result = CliRunner().invoke(cli, ["check", *option, str(REAL)])
    assert result.exit_code == 2, result.output
    assert option[0] in result.output and "Traceback" not in result.output
    assert len(result.output.strip().splitlines()) <= 3  # click's usage line, the hint and the one sentence


def test_the_real_baseline_is_valid_and_every_consistency_rule_is_named() -> None:
    _, arms = load_baseline(REAL)
    assert [a.name for a in arms] == ["official", "party", "smart-vs-basic"]
    assert len(schema.CONSISTENCY) == 2 and all(text for text, _ in schema.CONSISTENCY)


def test_version_1_baselines_still_load() -> None:
    """A version 1 file (no detectable changes) is read; check computes what it shows."""
    doc, _ = parse_baseline(json.dumps(_version_1(DOC)), "v1.json")
    assert doc["format_version"] == 1


def _version_1(doc: dict[str, Any]) -> dict[str, Any]:
    """``doc`` as format version 1 wrote it (no detectable changes)."""
    doc = copy.deepcopy(doc)
    doc["format_version"] = 1
    doc.pop("detectable", None)
    for arm in doc["arms"]:
        arm.pop("win_detectable", None)
        for stats in arm["metrics"].values():
            stats.pop("detectable", None)
    return doc


def test_a_baseline_from_a_newer_unocli_warns(tmp_path) -> None:
    """Same format, newer unocli_version: a warning on stderr (the verdicts may differ by version), then the check;
    a version 1 file is checked as well (its exact fingerprint passes)."""
    from unocli.balance.baseline import baseline_warnings

    doc = {**DOC, "unocli_version": "99.0.0"}
    assert baseline_warnings(doc) and "99.0.0" in baseline_warnings(doc)[0]
    assert baseline_warnings(DOC) == []
    assert baseline_warnings({**DOC, "unocli_version": "0.0.9"}) == []
    one_arm = {**doc, "arms": doc["arms"][:1]}
    for name, content in (("newer.json", one_arm), ("v1.json", _version_1({**DOC, "arms": DOC["arms"][:1]}))):
        path = _write(tmp_path, content, name=name)
        result = CliRunner().invoke(cli, ["check", "--exact", str(path)])
        assert result.exit_code == 0, result.output
        assert ("Warning: the baseline was written by unocli 99.0.0" in result.output) == (name == "newer.json")


# ---------------------------------------------------------------- every field mutated


def _leaves(node: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every path of the document to mutate: all of the top level and arm 0, policy 0 of each arm's first."""
    out = [path] if path else []
    if isinstance(node, dict):
        for key, value in node.items():
            out += _leaves(value, (*path, key))
    elif isinstance(node, list):
        keep = node[:1] if path and path[-1] in ("arms", "policies") else node
        for i, value in enumerate(keep):
            out += _leaves(value, (*path, i))
    return out


HOSTILE: list[Any] = [
    None,
    True,
    False,
    0,
    -1,
    1,
    2**63,
    10**30,
    0.5,
    -1e300,
    1e300,
    "",
    "x",
    "x" * 5000,
    [],
    [1],
    {},
    {"a": {"b": []}},
    "__delete__",
    "__duplicate__",
]


def _apply(doc: dict[str, Any], path: tuple[Any, ...], value: Any) -> dict[str, Any]:
    out = copy.deepcopy(doc)
    node = out
    for key in path[:-1]:
        node = node[key]
    last = path[-1]
    if value == "__delete__":
        if isinstance(node, list):
            node.pop(last)
        else:
            node.pop(last)
    elif value == "__duplicate__":
        if isinstance(node, list):
            node.append(copy.deepcopy(node[last]))
        else:
            node[f"{last}_copy"] = copy.deepcopy(node[last])
    else:
        node[last] = value
    return out


def _load_or_refuse(doc: dict[str, Any]) -> bool:
    """True when accepted; a refusal must be one BaselineError sentence naming the file (never another exception)."""
    try:
        parse_baseline(json.dumps(doc), "mutant.json")
    except BaselineError as exc:
        message = str(exc)
        assert "mutant.json" in message and "\n" not in message, message
        assert len(message) < 600, message
        return False
    return True


def test_every_field_mutated_is_refused_cleanly_or_accepted() -> None:
    paths = _leaves(DOC)
    assert len(paths) > 100  # the top level, an arm, its rules, a policy and its metrics
    accepted = []
    for path in paths:
        for value in HOSTILE:
            doc = _apply(DOC, path, value)
            if _load_or_refuse(doc):
                accepted.append((path, value))
    # What may be accepted: free text (source, names, unocli_version), a rule or knob set to another valid value.
    for path, value in accepted:
        assert path[0] in ("source", "unocli_version", "arms", "format_version", "seed", "detectable"), (path, value)
    assert len(accepted) < len(paths) * len(HOSTILE) / 4


def test_accepted_mutations_run_correctly(tmp_path) -> None:
    """A few accepted mutants (another free-text name, another valid rule) run through check without error."""
    mutants = [
        _apply(DOC, ("arms", 0, "name"), 'ofi|cial "\n%0A::error::'),
        _apply(DOC, ("source",), ""),
        _apply(DOC, ("arms", 0, "rules", "uno_penalty"), 4),
    ]
    for i, doc in enumerate(mutants):
        doc["arms"] = doc["arms"][:1]
        path = _write(tmp_path, doc, name=f"m{i}.json")
        result = CliRunner().invoke(cli, ["check", "--games", "600", "--seed", "1", str(path)])
        assert result.exit_code in (0, 1, 3), result.output
        assert "internal error" not in result.output


# ---------------------------------------------------------------- the long fuzz (pytest -m slow)

PATHS = _leaves(DOC)


@pytest.mark.slow
@settings(max_examples=2000, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(
    st.lists(
        st.tuples(st.sampled_from(PATHS), st.sampled_from(HOSTILE) | st.integers() | st.floats() | st.text(max_size=30)),
        min_size=1,
        max_size=4,
    )
)
def test_long_fuzz_of_mutated_baselines(changes) -> None:
    """Random multi-field mutants: refused cleanly, or accepted and checked (small --games) without error."""
    doc = DOC
    for path, value in changes:
        try:
            doc = _apply(doc, path, value)
        except (KeyError, IndexError, TypeError):  # an earlier change removed the path
            continue
    if not _load_or_refuse(doc):
        event("refused")
        return
    event("accepted and checked")
    doc = copy.deepcopy(doc)
    doc["arms"] = doc["arms"][:1]
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        path = _write(Path(folder), doc)
        result = CliRunner().invoke(cli, ["check", "--games", "500", "--seed", "3", str(path)])
    assert result.exit_code in (0, 1, 2, 3), result.output
    assert "internal error" not in result.output and "Traceback" not in result.output
