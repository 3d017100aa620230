"""Balance baselines: what a rule set's statistics were, stored for CI to check against.

A baseline file (JSON) holds, per arm, the full rules and policies, the games
and seed it was run with, n / mean / sd of every metric, each seat's wins, and
an exact fingerprint of every per-game result. ``unocli check`` reruns it
(see check.py).
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from pathlib import Path
from typing import Any

from unocli.errors import ConfigError
from unocli.files import load_json, write_text_atomic
from unocli.game.policies import POLICY_FIELDS, Policy
from unocli.game.rng import SEED_MAX
from unocli.game.rules import RULE_FIELDS, Rules
from unocli.run.backends import Backend
from unocli.study.arm import Arm
from unocli.study.simulate import SimulationResult, simulate
from unocli.version import __version__

FORMAT = "unocli-baseline"
FORMAT_VERSION = 1


class BaselineError(ConfigError):
    """A baseline file that cannot be used (missing, corrupt, incompatible)."""


Progress = Callable[[int, int], None]


def run_arm(
    arm: Arm, games: int, seed: int, backend: Backend | None = None, progress: Progress | None = None
) -> SimulationResult:
    """Play one arm (as its ``match`` and ``rotate_seats`` say); ``progress(done, total)`` after each shard."""
    return simulate(
        arm.rules,
        arm.policies,
        games=games,
        seed=seed,
        match=arm.match,
        rotate_seats=arm.rotate_seats,
        labels=arm.labels or None,
        backend=backend,
        progress=progress,
    )


def arm_record(arm: Arm, result: SimulationResult) -> dict[str, Any]:
    """What a baseline keeps of one arm."""
    summary = result.summary()
    return {
        "name": arm.name,
        "rules": arm.rules.to_dict(),
        "policies": [p.to_dict() for p in arm.policies],
        "match": arm.match,
        "rotate_seats": arm.rotate_seats,
        "n": result.games,
        "metrics": {r.metric: {"mean": r.mean, "sd": r.sd} for r in summary.itertuples()},
        "wins": list(result.acc.wins[: arm.rules.players]),
        "fingerprint": f"{result.acc.fingerprint:016x}",
    }


def of_arms(progress: Progress | None, index: int, arms: int) -> Progress | None:
    """``progress`` for arm ``index`` of ``arms`` equal arms: one bar over all of them."""
    if progress is None:
        return None
    report = progress
    return lambda done, total: report(index * total + done, arms * total)


def make_baseline(
    arms: list[Arm], *, games: int, seed: int, source: str = "", backend: Backend | None = None, progress: Progress | None = None
) -> dict[str, Any]:
    """Run every arm and return the baseline document."""
    return {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "unocli_version": __version__,
        "source": source,
        "games": games,
        "seed": seed,
        "arms": [
            arm_record(arm, run_arm(arm, games, seed, backend, of_arms(progress, i, len(arms)))) for i, arm in enumerate(arms)
        ],
    }


def save_baseline(doc: dict[str, Any], path: str | Path) -> Path:
    """Write atomically (a failure leaves any previous file intact)."""
    return write_text_atomic(path, json.dumps(doc, indent=2) + "\n")


def load_baseline(path: str | Path) -> tuple[dict[str, Any], list[Arm]]:
    """Read and validate a baseline against its schema; returns the document and its arms.

    Raises BaselineError, one sentence naming the file and the first problem,
    for a missing or corrupt file, one written by an incompatible version, or
    one naming rules or knobs that no longer exist.
    """
    p = Path(path)
    doc = load_json(p, "baseline file", BaselineError)
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise BaselineError(f"{str(p)!r} is not a unocli baseline file")
    if doc.get("format_version") != FORMAT_VERSION:
        raise BaselineError(
            f"baseline file {str(p)!r} has format version {doc.get('format_version')!r}, but this unocli "
            f"({__version__}) reads version {FORMAT_VERSION}: write it again with 'unocli baseline'"
        )
    where = f"baseline file {str(p)!r}"
    try:
        _whole(doc, "games", 1)
        _whole(doc, "seed", 0, SEED_MAX)
        records = doc.get("arms")
        if not isinstance(records, list) or not records:
            raise _Bad('"arms" must be a non-empty list')
        arms = [_arm(rec, i) for i, rec in enumerate(records)]
    except _Bad as exc:
        raise BaselineError(f"{where} is corrupt: {exc}; write it again with 'unocli baseline'") from None
    except BaselineError as exc:
        raise BaselineError(f"{where}, {exc}") from None
    except ConfigError as exc:
        raise BaselineError(f"{where} names rules or policies this unocli does not know: {exc}") from None
    return doc, arms


class _Bad(Exception):
    """A schema violation (turned into a BaselineError naming the file)."""


def _whole(rec: dict[str, Any], key: str, lo: int, hi: int | None = None, where: str = "") -> int:
    value = rec.get(key)
    if isinstance(value, bool) or not isinstance(value, int) or value < lo or (hi is not None and value > hi):
        top = f"from {lo} to {hi}" if hi is not None else f"of at least {lo}"
        raise _Bad(f"{where}{key!r} must be a whole number {top}, not {value!r}")
    return value


def _number(value: Any, what: str, lo: float = -math.inf) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value) or value < lo:
        raise _Bad(f"{what} must be a finite number{'' if lo == -math.inf else f' of at least {lo:g}'}, not {value!r}")
    return float(value)


def _arm(rec: Any, i: int) -> Arm:
    """One arm record, checked field by field (the schema arm_record writes)."""
    if not isinstance(rec, dict):
        raise _Bad(f"arm {i} must be a table, not {rec!r}")
    name = rec.get("name")
    if not isinstance(name, str) or not name:
        raise _Bad(f"arm {i} needs a name")
    at = f"arm {name!r}: "
    kinds = (("rules", dict), ("policies", list), ("metrics", dict), ("wins", list), ("match", bool), ("rotate_seats", bool))
    for key, kind in kinds:
        if not isinstance(rec.get(key), kind):
            raise _Bad(f"{at}{key!r} must be a {kind.__name__}, not {rec.get(key)!r}")
    n = _whole(rec, "n", 1, None, at)
    fingerprint = rec.get("fingerprint")
    if not isinstance(fingerprint, str) or len(fingerprint) != 16 or any(c not in "0123456789abcdef" for c in fingerprint):
        raise _Bad(f"{at}'fingerprint' must be 16 hexadecimal digits, not {fingerprint!r}")
    for metric, stats in rec["metrics"].items():
        if not isinstance(stats, dict):
            raise _Bad(f"{at}metric {metric!r} must be a table with mean and sd")
        _number(stats.get("mean"), f"{at}{metric!r} mean")
        _number(stats.get("sd"), f"{at}{metric!r} sd", 0.0)
    for w in rec["wins"]:
        if isinstance(w, bool) or not isinstance(w, int) or not 0 <= w <= n:
            raise _Bad(f"{at}'wins' must be whole numbers from 0 to n = {n}, not {w!r}")
    if not all(isinstance(pol, dict) for pol in rec["policies"]):
        raise _Bad(f"{at}'policies' must be a list of tables")
    unknown = sorted(set(rec["rules"]) - set(RULE_FIELDS))
    unknown += sorted({k for pol in rec["policies"] for k in pol} - set(POLICY_FIELDS))
    if unknown:
        raise BaselineError(
            f"arm {name!r}, names {unknown[0]!r}, which this unocli no longer knows: "
            "write the baseline again with 'unocli baseline'"
        )
    try:
        rules = Rules(**rec["rules"])
        policies = tuple(Policy(**pol) for pol in rec["policies"])
    except (TypeError, ValueError) as exc:
        if isinstance(exc, ConfigError):
            raise
        raise _Bad(f"{at}bad rules or policies ({exc})") from None
    if len(policies) != rules.players or len(rec["wins"]) != rules.players:
        raise _Bad(f"{at}needs one policy and one win count per player ({rules.players})")
    return Arm(name, rules, policies, match=rec["match"], rotate_seats=rec["rotate_seats"])
