"""Balance baselines: what a rule set's statistics were, stored for CI to check against.

A baseline file (JSON) holds, per arm, the full rules and policies, the games
and seed it was run with, n / mean / sd of every metric, each seat's wins, and
an exact fingerprint of every per-game result. ``unocli check`` reruns it
(see check.py).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from unocli import __version__
from unocli.errors import ConfigError
from unocli.files import load_json, write_text_atomic
from unocli.game.policies import POLICY_FIELDS, Policy
from unocli.game.rules import RULE_FIELDS, Rules
from unocli.run.backends import Backend
from unocli.study.arm import Arm
from unocli.study.simulate import SimulationResult, simulate

FORMAT = "unocli-baseline"
FORMAT_VERSION = 1


class BaselineError(ConfigError):
    """A baseline file that cannot be used (missing, corrupt, incompatible)."""


def run_arm(arm: Arm, games: int, seed: int, backend: Backend | None = None) -> SimulationResult:
    """Play one arm (as its ``match`` and ``rotate_seats`` say)."""
    return simulate(
        arm.rules,
        arm.policies,
        games=games,
        seed=seed,
        match=arm.match,
        rotate_seats=arm.rotate_seats,
        labels=arm.labels or None,
        backend=backend,
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


def make_baseline(arms: list[Arm], *, games: int, seed: int, source: str = "", backend: Backend | None = None) -> dict[str, Any]:
    """Run every arm and return the baseline document."""
    return {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "unocli_version": __version__,
        "source": source,
        "games": games,
        "seed": seed,
        "arms": [arm_record(arm, run_arm(arm, games, seed, backend)) for arm in arms],
    }


def save_baseline(doc: dict[str, Any], path: str | Path) -> Path:
    """Write atomically (a failure leaves any previous file intact)."""
    return write_text_atomic(path, json.dumps(doc, indent=2) + "\n")


def load_baseline(path: str | Path) -> tuple[dict[str, Any], list[Arm]]:
    """Read and validate a baseline; returns the document and its arms.

    Raises BaselineError for a missing or corrupt file, one written by an
    incompatible version, or one naming rules or knobs that no longer exist.
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
    arms = []
    try:
        for rec in doc["arms"]:
            unknown = sorted(set(rec["rules"]) - set(RULE_FIELDS))
            unknown += sorted({k for pol in rec["policies"] for k in pol} - set(POLICY_FIELDS))
            if unknown:
                raise BaselineError(
                    f"baseline file {str(p)!r}, arm {rec['name']!r}, names {unknown[0]!r}, which this unocli "
                    "no longer knows: write the baseline again with 'unocli baseline'"
                )
            rules = Rules(**rec["rules"])
            policies = tuple(Policy(**pol) for pol in rec["policies"])
            arms.append(Arm(rec["name"], rules, policies, match=bool(rec["match"]), rotate_seats=bool(rec["rotate_seats"])))
            for key in ("n", "metrics", "wins", "fingerprint"):
                rec[key]
        int(doc["games"]), int(doc["seed"])
    except BaselineError:
        raise
    except ConfigError as exc:
        raise BaselineError(f"baseline file {str(p)!r} names rules or policies this unocli does not know: {exc}") from None
    except (KeyError, TypeError, ValueError) as exc:
        raise BaselineError(f"baseline file {str(p)!r} is incomplete or corrupt (bad or missing {exc})") from None
    return doc, arms
