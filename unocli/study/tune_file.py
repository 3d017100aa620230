"""The policy files ``unocli tune`` writes, and the fresh-deal verdicts their entries record.

An entry is a TOML table under a quoted name, with the policy's knobs written
out on its nearest preset (never a reference to the space's base or to another
file's policy, so the entry loads on its own), after comment lines that say how
it was made and how it did on fresh deals:

    # Made by: unocli tune ...
    # Search: ...
    # Fresh deals: 100,000 from game index ..., seats rotated, field basic; pp, 95% CI:
    # Shipped: the search's winner, which beat basic, smart and strong ...
    #   over basic +1.234 [+1.000, +1.468]; over smart +0.511 [+0.280, +0.742]; over strong ...
    ["tuned-official-4"]
    base = "strong"
    attack_at = 2

:func:`read_verdicts` reads the ``Shipped`` and ``over`` lines back, so a test
can check a shipped file without playing a game.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Any

from unocli.errors import ConfigError
from unocli.game import policies
from unocli.game.policies import PRESETS, Policy, preset
from unocli.study.stats import Difference
from unocli.study.tune import FreshCheck, Shipped, TuneResult, knob_changes, nearest_preset


def check_policy_name(name: str) -> None:
    """Refuse a name ``--policies FILE`` with ``--seat 0=NAME`` could not use (raises ConfigError).

    Quotes, dots, backslashes and any printable text are fine (the key is quoted);
    a name must not be empty, padded with spaces, hold a control character or a
    spec's separator, or be a preset's name (the file would redefine the preset).
    """
    problem = policies.check_policy_name(name)
    if problem:
        raise ConfigError(f"--name {name!r}: {problem}")
    if name in PRESETS or name in policies.SEARCH_PRESETS:
        raise ConfigError(f"the policy name {name!r} is a preset's; give the tuned policy a name of its own")


def toml_string(text: str) -> str:
    """``text`` as a TOML basic string: quotes, backslashes and control characters escaped."""
    out = []
    for ch in text:
        if ch in '"\\':
            out.append("\\" + ch)
        elif ord(ch) < 0x20 or ord(ch) == 0x7F:
            out.append(f"\\u{ord(ch):04x}")
        else:
            out.append(ch)
    return '"' + "".join(out) + '"'


def toml_value(value: Any) -> str:
    """A knob's value as TOML (numbers must be finite)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if not math.isfinite(value):
            raise ConfigError(f"a knob value of {value!r} cannot be written: values must be finite")
        return repr(value)
    return toml_string(str(value))


def policy_table(name: str, policy: Policy) -> list[str]:
    """The ``[name]`` table: ``base`` the nearest preset, then every knob that differs from it."""
    check_policy_name(name)
    base = nearest_preset(policy)
    lines = [f"[{toml_string(name)}]", f"base = {toml_string(base)}"]
    lines += [f"{knob} = {toml_value(value)}" for knob, value in knob_changes(preset(base), policy)]
    return lines


def pp(d: Difference) -> str:
    return f"{100 * d.diff:+.3f} [{100 * d.low:+.3f}, {100 * d.high:+.3f}]"


def verdict_lines(shipped: Shipped, check: FreshCheck, winner_spec: str, field_label: str) -> list[str]:
    """The ``Fresh deals`` / ``Shipped`` / ``over`` comment lines of an entry."""
    refs = ", ".join(shipped.versus)
    lines = [
        f"# Fresh deals: {check.deals:,} from game index {check.start}, seats rotated, field {field_label}; pp, paired 95% CI:"
    ]
    if shipped.winner:
        lines.append(f"# Shipped: the search's winner, which beat {refs} on these deals (interval above 0 against each).")
    else:
        lines.append(
            f"# Shipped: the preset {shipped.label}, the best of {refs} on these deals; the search's winner"
            f" ({winner_spec}, {pp(check.versus[shipped.label])} over it) did not beat all of them."
        )
    lines.append("#   " + "; ".join(f"over {name} {pp(d)}" for name, d in shipped.versus.items()))
    return lines


def policy_toml(result: TuneResult, name: str, command: str, field_label: str = "basic") -> str:
    """What a tune ships, as a policy file for ``--policies FILE``, with how it was made and how it did."""
    t = result.table
    other, elsewhere = result.elsewhere
    lines = [
        f"# Made by: {' '.join(command.splitlines())}",
        f"# Search: {len(result.tried()):,} candidates in {len(result.races)} races ({result.covered():,} of the space's"
        f" {result.space.size:,} settings, {_share(result.covered(), result.space.size)}), {result.games():,}"
        f" {'matches' if t.match else 'rounds'}, seed {t.seed}, objective {'match' if t.match else 'round'}.",
        *verdict_lines(result.shipped, result.fresh, result.winner.spec, field_label),
        f"# On a field it was not tuned on ({other}): gain {pp(elsewhere)} pp over {elsewhere.n:,} fresh deals.",
        *policy_table(name, result.shipped.policy),
    ]
    return "\n".join(lines) + "\n"


def _share(part: int, whole: int) -> str:
    share = 100 * part / whole
    return f"{share:.2g}%" if share < 1 else f"{share:.1f}%"


# ---------------------------------------------------------------- reading verdicts back

_OVER = re.compile(r"over (\S+) ([+-]\d+\.\d+) \[([+-]\d+\.\d+), ([+-]\d+\.\d+)\]")
_SHIPPED = re.compile(r"^# Shipped: (?:the preset (\S+),|the search's winner)")
_TABLE = re.compile(r'^\["((?:[^"\\]|\\.)*)"\]$|^\[([^\]"]+)\]$')


@dataclass(frozen=True)
class Verdict:
    """One entry's recorded fresh-deal verdict: what shipped, and its gain over each reference (pp)."""

    name: str
    preset: str | None  # the preset shipped in the winner's place, or None for a tuned winner
    over: dict[str, tuple[float, float, float]]  # reference -> (difference, low, high), in pp


def read_verdicts(text: str) -> list[Verdict]:
    """The verdict of every entry of a file :func:`policy_toml` (or the shipped file's maker) wrote."""
    out = []
    shipped: str | bool | None = False
    over: dict[str, tuple[float, float, float]] = {}
    for line in text.splitlines():
        m = _SHIPPED.match(line)
        if m:
            shipped = m.group(1)
            continue
        if line.startswith("#   over "):
            over = {n: (float(a), float(b), float(c)) for n, a, b, c in _OVER.findall(line)}
            continue
        t = _TABLE.match(line)
        if t:
            if shipped is False:
                raise ConfigError(f"the entry {line} records no 'Shipped' verdict")
            raw = t.group(1) if t.group(1) is not None else t.group(2)
            name = re.sub(r"\\(.)", r"\1", raw) if t.group(1) is not None else raw
            out.append(Verdict(name, shipped if isinstance(shipped, str) else None, over))
            shipped, over = False, {}
    return out
