"""The kernel's disk cache cannot go stale.

numba freezes module globals (the rule field order, knob order, enum codes,
counter layout) into the compiled kernel, and on its own it checks only the
source of the file that defines a cached function. These tests change a
compiled-in value in a temporary copy of the package: the order of two rule
fields, ``seven_o`` and ``jump_in``. With the old stamp (kernel sources, rng.py
and cards.py only) the stamp stayed the same, the stale kernel loaded, and all
games under 7-0 differed from the reference engine (the kernel played jump-in).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import unocli
from unocli.kernel._cache import kernel_sources

PACKAGE = Path(unocli.__file__).resolve().parent
TESTS = Path(__file__).resolve().parent

SEVEN_O = """    seven_o: bool = field(
        default=False, metadata=_meta("a played 0 passes every hand on; a played 7 swaps hands with an opponent")
    )
"""
JUMP_IN = """    jump_in: bool = field(
        default=False, metadata=_meta("a player holding a card identical to the top card may play it out of turn")
    )
"""

PROBE = """
import json, sys
sys.path.insert(0, {tests!r})
import unocli
from unocli.kernel._cache import kernel_stamp
out = {{"file": unocli.__file__, "stamp": kernel_stamp()}}
if {play}:
    from naive import reference_rows
    from unocli.game.policies import preset
    from unocli.game.rules import Rules
    from unocli.kernel import play_rows
    rules, policies = Rules(seven_o=True), (preset("basic"),) * 4
    kernel = play_rows(rules, policies, seed=11, count=100, threads=1)
    reference = reference_rows(rules, policies, 11, 0, 100)
    out["differ"] = int((kernel != reference).any(axis=1).sum())
    # helpers compiled more than once (numba specialises on a literal argument, a constant 0 or 4)
    from numba.core.registry import CPUDispatcher
    import unocli.kernel.batch, unocli.kernel.fold, unocli.kernel.primitives, unocli.kernel.step
    out["twice"] = sorted(
        f"{{m.__name__}}.{{n}}"
        for m in (unocli.kernel.batch, unocli.kernel.fold, unocli.kernel.primitives, unocli.kernel.step)
        for n, f in vars(m).items()
        if isinstance(f, CPUDispatcher) and len(f.signatures) > 1
    )
print(json.dumps(out))
"""


def _copy_package(tmp: Path) -> Path:
    dest = tmp / "src"
    shutil.copytree(PACKAGE, dest / "unocli", ignore=shutil.ignore_patterns("__pycache__", "*.nbi", "*.nbc"))
    return dest / "unocli" / "game" / "rules.py"


def _swap_fields(rules_py: Path) -> None:
    text = rules_py.read_text()
    assert SEVEN_O + JUMP_IN in text, "the field definitions this test swaps have changed; update the test"
    rules_py.write_text(text.replace(SEVEN_O + JUMP_IN, JUMP_IN + SEVEN_O))


def _probe(tmp: Path, play: bool) -> dict:
    env = {**os.environ, "PYTHONPATH": str(tmp / "src"), "NUMBA_CACHE_DIR": str(tmp / "cache")}
    code = PROBE.format(tests=str(TESTS), play=play)
    done = subprocess.run([sys.executable, "-c", code], env=env, cwd=tmp, capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stderr[-3000:]
    out = json.loads(done.stdout.strip().splitlines()[-1])
    assert Path(out["file"]).resolve().is_relative_to((tmp / "src").resolve()), "the probe imported the wrong unocli"
    return out


def test_every_module_that_encodes_the_kernel_is_stamped() -> None:
    names = {str(p.relative_to(PACKAGE)) for p in kernel_sources()}
    for module in (
        "game/rules.py",
        "game/policies.py",
        "game/counters.py",
        "game/cards.py",
        "game/rng.py",
        "kernel/encode.py",
        "kernel/step.py",
        "kernel/batch.py",
    ):
        assert module in names
    # Modules the kernel never imports stay out, so editing them does not force a recompile.
    assert "study/simulate.py" not in names and "cli/main.py" not in names


def test_reordering_rule_fields_changes_the_stamp(tmp_path: Path) -> None:
    rules_py = _copy_package(tmp_path)
    before = _probe(tmp_path, play=False)["stamp"]
    _swap_fields(rules_py)
    after = _probe(tmp_path, play=False)["stamp"]
    assert before != after


# Slow: two first compiles of the whole kernel into an empty cache (about 70 s of the default run on a loaded
# machine, the slowest test). The default run keeps the cheap guard of the same fault,
# test_reordering_rule_fields_changes_the_stamp: the stamp that decides whether the cache is reused changes.
@pytest.mark.slow
def test_reordered_rule_fields_recompile_and_still_agree_with_the_reference(tmp_path: Path) -> None:
    """Compile and cache the kernel, reorder two rule fields, run again from the same cache."""
    rules_py = _copy_package(tmp_path)
    first = _probe(tmp_path, play=True)
    assert first["differ"] == 0
    # Compiled into an empty cache, each kernel function once: a constant argument typed as a literal
    # compiles a helper again (it cost about 3 s of the first compile, issue 14).
    assert first["twice"] == [], first["twice"]
    _swap_fields(rules_py)
    second = _probe(tmp_path, play=True)
    assert second["stamp"] != first["stamp"]
    assert second["differ"] == 0, f"{second['differ']} of 100 games differ: a stale kernel was loaded"


ONCE = """
import json
from numba.core.registry import CPUDispatcher
from unocli.game.policies import parse_policy_spec, preset
from unocli.game.rules import preset as rules_preset
from unocli.kernel import play_rows
from unocli.kernel import batch, bluff_decision, fold, plain, primitives, search, search_round, seen, step
for name in ("official", "party", "stacking", "seven-o"):
    rules = rules_preset(name)
    play_rows(rules, (preset("basic"),) * 4, count=20, threads=1)
    play_rows(rules, (parse_policy_spec("search:budget=2"),) + (preset("basic"),) * 3, count=5, threads=1)
print(json.dumps(sorted({
    f"{f.py_func.__module__}.{f.py_func.__name__}"
    for m in (batch, bluff_decision, fold, plain, primitives, search, search_round, seen, step)
    for f in vars(m).values()
    if isinstance(f, CPUDispatcher) and len(f.signatures) > 1
})))
"""


# Slow: a first compile of both batch kernels into an empty cache (about a minute and a half on a loaded machine).
@pytest.mark.slow
def test_every_kernel_function_compiles_once(tmp_path: Path) -> None:
    """Under four rule sets, with and without a searching seat, no kernel function is compiled for two signatures.

    A value numba types as a literal (a bare 0 or True, or a global constant left in a variable) compiles its
    callee again: ``play(g, rs, True)`` cost 12 s of the first compile, a drawn card typed ``Literal[int](-1)``
    compiled ``search.drawn_decision`` twice.
    """
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "cache")}
    out = subprocess.run([sys.executable, "-c", ONCE], env=env, capture_output=True, text=True, check=True, timeout=900)
    assert json.loads(out.stdout.splitlines()[-1]) == []
