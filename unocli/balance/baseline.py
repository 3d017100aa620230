"""Balance baselines: what a rule set's statistics were, stored for CI to check against.

A baseline file (JSON) holds, per arm, the full rules and policies, the games
and seed it was run with, n / mean / sd of every metric, each seat's wins, and
an exact fingerprint of every per-game result. ``unocli check`` reruns it
(see check.py).
"""

from __future__ import annotations

import json
import re
import stat
from collections.abc import Callable
from pathlib import Path
from typing import Any

from unocli.balance import schema
from unocli.balance.power import ALPHA, POWER, detectable
from unocli.errors import ConfigError
from unocli.files import MAX_INPUT_BYTES, read_text, write_text_atomic
from unocli.game.policies import POLICY_FIELDS, Policy
from unocli.game.rules import RULE_FIELDS, Rules
from unocli.run.backends import Backend
from unocli.study.arm import Arm
from unocli.study.simulate import SimulationResult, simulate
from unocli.version import __version__

FORMAT = schema.FORMAT
FORMAT_VERSION = schema.FORMAT_VERSION


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
    """Run every arm and return the baseline document, with each metric's smallest detectable change."""
    doc = {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "unocli_version": __version__,
        "source": source,
        "games": games,
        "seed": seed,
        "detectable": {},
        "arms": [
            arm_record(arm, run_arm(arm, games, seed, backend, of_arms(progress, i, len(arms)))) for i, arm in enumerate(arms)
        ],
    }
    add_detectable(doc)
    return doc


def count_tests(doc: dict[str, Any]) -> int:
    """How many tests a check of this baseline makes: every metric and every seat's win share of every arm."""
    return sum(len(arm["metrics"]) + len(arm["wins"]) for arm in doc["arms"])


def add_detectable(doc: dict[str, Any], alpha: float = ALPHA, power: float = POWER) -> None:
    """Store, per metric and seat, the smallest change a check of the same size at ``alpha`` fails with ``power``."""
    tests = count_tests(doc)
    doc["detectable"] = {"alpha": alpha, "power": power, "metrics": tests}
    for arm in doc["arms"]:
        n = arm["n"]
        for stats in arm["metrics"].values():
            stats["detectable"] = detectable(stats["sd"], n, n, alpha=alpha, tests=tests, power=power)
        shares = [w / n for w in arm["wins"]]
        arm["win_detectable"] = [detectable((p * (1 - p)) ** 0.5, n, n, alpha=alpha, tests=tests, power=power) for p in shares]


def save_baseline(doc: dict[str, Any], path: str | Path) -> Path:
    """Check against the schema (a file check cannot read is never written), then write atomically (a failure
    leaves any previous file intact)."""
    try:
        schema.validate(json.loads(json.dumps(doc)))
    except schema.SchemaError as exc:
        raise BaselineError(f"the baseline for {str(Path(path))!r} would not be readable, so it was not written: {exc}") from None
    return write_text_atomic(path, json.dumps(doc, indent=2) + "\n")


def load_baseline(path: str | Path) -> tuple[dict[str, Any], list[Arm]]:
    """Read and validate a baseline against its schema (schema.py); returns the document and its arms.

    Raises BaselineError, one sentence naming the file, the field and the
    problem, for a missing, oversized or corrupt file, one written in a newer
    format, or one naming rules or knobs that no longer exist. Nothing is
    played before the whole file has been checked.
    """
    p = Path(path)
    return parse_baseline(_read(p), str(p))


def parse_baseline(text: str, name: str) -> tuple[dict[str, Any], list[Arm]]:
    """:func:`load_baseline` on the text of the file called ``name``."""
    p = Path(name)
    where = f"baseline file {name!r}"
    try:
        doc = schema.validate(schema.parse_json(text))
    except schema.SchemaError as exc:
        if exc.path == "" and "is not a unocli baseline" in exc.problem:
            raise BaselineError(f"{str(p)!r} is not a unocli baseline file") from None
        if exc.path == "" and exc.problem.startswith("is not valid JSON"):
            raise BaselineError(f"{where} {exc.problem}") from None
        if exc.path == "format_version" and "newer" in exc.problem:
            raise BaselineError(
                f"{where} has format version {doc_version(text)}, newer than this unocli ({__version__}) reads "
                f"({', '.join(map(str, schema.FORMATS_READ))}): upgrade unocli, or write it again with 'unocli baseline'"
            ) from None
        raise BaselineError(f"{where} is corrupt: {exc}; write it again with 'unocli baseline'") from None
    try:
        arms = [_arm(rec, i) for i, rec in enumerate(doc["arms"])]
    except schema.SchemaError as exc:
        raise BaselineError(f"{where} is corrupt: {exc}; write it again with 'unocli baseline'") from None
    except BaselineError as exc:
        raise BaselineError(f"{where}, {exc}") from None
    except ConfigError as exc:
        raise BaselineError(f"{where} names rules or policies this unocli does not know: {exc}") from None
    return doc, arms


def baseline_warnings(doc: dict[str, Any]) -> list[str]:
    """Warnings about a valid baseline: one written by a newer unocli (same format) may hold figures of rules this
    version plays differently, so its verdicts may be wrong."""
    written, here = _version(str(doc.get("unocli_version", ""))), _version(__version__)
    if written is not None and here is not None and written > here:
        return [
            f"the baseline was written by unocli {doc['unocli_version']}, newer than this one ({__version__}): "
            "a failure may be a difference between the versions, not a regression"
        ]
    return []


def _version(text: str) -> tuple[int, ...] | None:
    match = re.match(r"(\d{1,9})\.(\d{1,9})(?:\.(\d{1,9}))?", text)
    return None if match is None else tuple(int(g or 0) for g in match.groups())


def doc_version(text: str) -> str:
    """The format_version of a baseline's text, for a message (already known to be a whole number)."""
    match = re.search(r'"format_version"\s*:\s*(\d{1,40})', text)
    return match.group(1) if match else "?"


def _read(p: Path) -> str:
    """The file's text; refuses what is not a regular file (a FIFO would block for ever) or is too large."""
    try:
        info = p.stat()
    except OSError:
        info = None  # read_text says why (missing, permission, ...)
    if info is not None and stat.S_ISDIR(info.st_mode):
        raise BaselineError(f"baseline file {str(p)!r} is a folder, not a file")
    if info is not None and not stat.S_ISREG(info.st_mode):
        raise BaselineError(f"baseline file {str(p)!r} is not a regular file (a pipe or a device?)")
    if info is not None and info.st_size > MAX_INPUT_BYTES:
        raise BaselineError(
            f"baseline file {str(p)!r} is {info.st_size:,} bytes, larger than any baseline "
            f"(at most {MAX_INPUT_BYTES:,} are read, as of every file unocli reads)"
        )
    return read_text(p, "baseline file", BaselineError)


def _arm(rec: dict[str, Any], i: int) -> Arm:
    """One arm record (already checked against the schema): its rules and policies built and range-checked."""
    name = rec["name"]
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
            raise schema.SchemaError(f"arms[{i}]", f"(arm {name!r}) has bad rules or policies: {exc}") from None
        raise schema.SchemaError(f"arms[{i}]", f"(arm {name!r}) has bad rules or policies ({exc})") from None
    if len(policies) != rules.players:
        raise schema.SchemaError(f"arms[{i}].policies", f"has {len(policies)} policies for {rules.players} players")
    return Arm(name, rules, policies, match=rec["match"], rotate_seats=rec["rotate_seats"])
