"""The bluff report's fields: the situation table, deviations and best responses under several kinds of player.

A *field* is the policy every seat plays (``random``, ``basic``, the tuned
player of the rule set): seat 0 bluffs with the field's policy plus the bluff
knobs, the opponents play the field's policy with each challenge policy. A
finding about bluffing should hold for more than one kind of player, so the
report says under which fields each holds and where the answer flips.

Field names resolve against the experiment's policies file (``policies =
"tuned/tuned.toml"`` at the top of the experiment file), like every table's
policy; an unknown name is one clear error at load time.

``random`` answers a +4 with ``respond = uniform`` (docs/rules.md §10, §13):
it challenges one time in two whatever the challenge knobs say, so a
challenge policy cannot be laid on it as a knob change alone. Its opponents
switch to ``respond = knobs`` (:func:`challenging`) and keep every other
decision random; without stacking ``respond = knobs`` with ``challenge =
0.5`` is random's own behaviour, so the ``0.5`` row is the random field
proper. The ``bluff`` knobs apply to any policy (§12.7 step 1), random's
too, and random plays a +4 honestly only when it is legal (§10).

Nothing here imports matplotlib outside the chart function.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd

from unocli.errors import ConfigError
from unocli.game.policies import Policy, Respond
from unocli.report import fmt
from unocli.report.analyses.common import caption, verdict_text
from unocli.report.analyses.fields import fields_text, scope
from unocli.report.experiment import Experiment
from unocli.report.model import Chart
from unocli.study.arm import PolicyFile, parse_policy

DEFAULT_FIELDS = ["random", "basic", "tuned-official-4"]
# the knobs a challenge policy sets: all of them, so a field's own informed rules never leak into "never" or "always"
CHALLENGE_RESET: dict[str, Any] = {
    "challenge": 0.0,
    "trust_if_lacked": False,
    "challenge_if_hand": 0,
    "challenge_if_own_colour": False,
    "trust_if_seen": 0,
}
CHALLENGE_KNOBS = frozenset(CHALLENGE_RESET)


def spec_text(value: Any) -> str | None:
    """A policy spec as text; its name is resolved by the analysis's check, against the policies file."""
    if not isinstance(value, str) or not value.strip():
        return f"must be a policy spec, not {value!r}"
    return None


def spec_list(value: Any) -> str | None:
    """A non-empty list of distinct policy specs (the fields)."""
    if not isinstance(value, list) or not value:
        return f"must be a non-empty list of policy specs, not {value!r}"
    problems = [m for m in map(spec_text, value) if m]  # every item a string before the set below hashes them
    if not problems and len(set(value)) < len(value):
        problems.append(f"names a field twice: {value!r}")
    return problems[0] if problems else None


def check_specs(exp: Experiment, keys: Sequence[str]) -> str | None:
    """The policy options ``keys`` resolved against the experiment's policies file: ``None``, or ``options.KEY: message``."""
    specs = [(key, spec) for key in keys for spec in (exp.options[key] if key == "fields" else [exp.options[key]])]
    for key, spec in specs:
        try:
            parse_policy(spec, exp.base.policies)
        except ConfigError as exc:
            hint = "" if exp.base.policies else '; an experiment names its policies file with policies = "FILE"'
            if key == "fields" and exp.options["fields"] == DEFAULT_FIELDS:
                hint += f" (the default fields are {', '.join(DEFAULT_FIELDS)}; {DEFAULT_FIELDS[-1]} is in sims/tuned/tuned.toml)"
            return f"options.{key}: {exc}{hint}"
    return None


def resolve(exp: Experiment, spec: str) -> Policy:
    """A policy option's policy, names from the experiment's policies file included."""
    return parse_policy(spec, exp.base.policies)


def field_policies(exp: Experiment) -> list[tuple[str, Policy]]:
    """(name, policy) of every field, in the option's order."""
    return [(str(f), resolve(exp, str(f))) for f in exp.options["fields"]]


def field_definitions(exp: Experiment) -> str:
    """What the fields named from the policies file are, as specs on their nearest preset, or ''."""
    policies = exp.base.policies
    if policies is None:
        return ""
    names = {str(f).partition(":")[0].strip() for f in exp.options["fields"]}
    own = PolicyFile(path=policies.path, entries=tuple((n, p) for n, p in policies.entries if n in names))
    return own.summary() if own.entries else ""


def challenging(policy: Policy, knobs: dict[str, Any]) -> Policy:
    """``policy`` with a challenge policy's knobs; one that responds uniformly (random) switches to ``respond = knobs``,
    since under ``uniform`` the challenge knobs have no effect (docs/rules.md §13)."""
    chal = {k: v for k, v in knobs.items() if k in CHALLENGE_KNOBS}
    if chal and policy.respond is Respond.UNIFORM:
        return policy.replace(**knobs, respond=Respond.KNOBS)
    return policy.replace(**knobs)


def own_challenge(policy: Policy) -> str:
    """What a field's own policy does facing a +4 (no stacking), in words."""
    if policy.respond is Respond.UNIFORM:
        return "challenges one time in two (uniform over challenge and accept)"
    informed = {k: getattr(policy, k) for k in CHALLENGE_KNOBS if k != "challenge"}
    extra = " plus informed rules" if any(v != CHALLENGE_RESET[k] for k, v in informed.items()) else ""
    rate = policy.challenge
    words = {0.0: "never challenges", 1.0: "always challenges"}.get(rate, f"challenges with probability {rate:g}")
    return words + extra


def uniform_note(fields: Sequence[tuple[str, Policy]]) -> str:
    """The report's note on fields whose own policy ignores the challenge knobs (random), or ''."""
    names = [f"`{name}`" for name, pol in fields if pol.respond is Respond.UNIFORM]
    if not names:
        return ""
    return (
        f"{' and '.join(names)} answers a +4 with `respond = uniform` (docs/rules.md §10, §13): it challenges one time "
        "in two and ignores the challenge knobs, so under that field a challenge policy other than 0.5 is not "
        "random's own play. Its opponents then play `respond = knobs` with the challenge policy and every other "
        "decision random; the `0.5` column is random's own behaviour (no stacking under these rules). The bluff knobs "
        "apply to random as to any policy (§12.7), and random plays a +4 honestly only when it holds no card of the "
        "current colour (§3, §10)."
    )


# ---------------------------------------------------------------- where the answer holds and where it flips


def verdicts_by_field(table: pd.DataFrame, fields: Sequence[str]) -> pd.DataFrame:
    """One row per (challenge policy, next hand, own hand), one column per field: the verdict word."""
    wide = table.pivot_table(
        index=["challenge_policy", "next_hand", "own_hand"], columns="field", values="verdict", aggfunc="first", sort=False
    )
    return wide[list(fields)].reset_index()


def flips(table: pd.DataFrame, fields: Sequence[str]) -> pd.DataFrame:
    """The cells (own hand pooled, plus bluffing at every chance) whose verdict is "pays" under some fields, not all.

    Only the labels differ there: no test of the difference between fields is made, so the findings list these
    cells without claiming the effect differs between fields.
    """
    wide = verdicts_by_field(table, fields)
    wide = wide[wide["own_hand"] == "any"]
    values = wide[list(fields)]
    paying = (values == "pays").any(axis=1)
    return wide[paying & ~(values == "pays").all(axis=1)]


def field_scope(row: pd.Series, fields: Sequence[str]) -> str:
    """Where one cell's verdict holds: "loses under all three fields", or each field's verdict (:func:`scope`)."""
    return scope({f: str(row[f]) for f in fields})


def flip_findings(table: pd.DataFrame, fields: Sequence[str], challengers: Sequence[str]) -> list[str]:
    """Per challenge policy: bluffing at every chance and bluffing only when the next player holds 1, across fields."""
    if len(fields) < 2:
        return []
    wide = verdicts_by_field(table, fields)
    t = table.set_index(["field", "challenge_policy", "next_hand", "own_hand"])
    out = []
    for label, nb in (("Bluffing at every chance", "any"), ("Bluffing only when the next player holds 1 card", "1")):
        parts = []
        for ch in challengers:
            row = wide[(wide["challenge_policy"] == ch) & (wide["next_hand"] == nb) & (wide["own_hand"] == "any")].iloc[0]
            figures = "; ".join(f"{f} {_pp(t.loc[(f, ch, nb, 'any')])}" for f in fields if (f, ch, nb, "any") in t.index)
            parts.append(f"against '{ch}' challengers, {field_scope(row, fields)} ({figures})")
        out.append(f"{label}, across {fields_text(fields)} (simultaneous intervals): " + "; ".join(parts) + ".")
    flipped = flips(table, fields)
    if len(flipped):
        where = "; ".join(
            f"next holds {r['next_hand']}, '{r['challenge_policy']}' challengers: {field_scope(r, fields)}"
            for _, r in flipped.iterrows()
        )
        out.append(
            "Where a bluff's verdict is 'pays' under some fields, not all (the labels differ; the fields' difference "
            f"is not tested): {where}."
        )
    else:
        out.append("No bluff situation (own hand pooled) is labelled 'pays' under some fields and not others.")
    return out


def _pp(r: pd.Series) -> str:
    return fmt.pp_ci(r["gain_pp"] / 100, r["gain_sim_low"] / 100, r["gain_sim_high"] / 100, 2)


# ---------------------------------------------------------------- the headline chart: one panel per field


def gain_panels(
    table: pd.DataFrame,
    exp: Experiment,
    fields: Sequence[str],
    challengers: Sequence[str],
    next_bands: Sequence[str],
    games: dict[str, int],
    informed_text: str,
) -> Chart:
    """Gain by the next player's hand size, one line per challenge policy, one panel per field (shared y axis)."""
    from unocli.report import plots  # matplotlib only when drawing

    pooled = table[(table["own_hand"] == "any") & (table["next_hand"] != "any")]
    n_text = "; ".join(f"{f} {fmt.count(games[f])}" for f in fields)
    cap = caption(
        exp,
        "Seat 0's win share when it bluffs (bluff = 1) only while the next player holds the given number of cards, "
        "whatever its own hand, minus its honest twin's on the same deals, in percentage points; one panel per field "
        "(every seat plays the field's policy, the opponents with the challenge policy and never bluffing), one line "
        f"per challenge policy ({informed_text})",
        f"deals per point: {n_text} ({exp.players[0]} players)",
        rules=exp.base.rules,
        policies="per panel, every seat the field's policy",
        intervals="error bars are paired 95% t intervals (per point; the table gives simultaneous ones)",
    )
    # plots has no small-multiples line chart; its figure and layout helpers keep the caption and look the same
    fig, bottom = plots._figure(4.4, cap)
    axes = fig.subplots(1, len(fields), sharey=True, squeeze=False)[0]
    xs = np.arange(1, len(next_bands) + 1, dtype=float)
    offsets = np.linspace(-0.16, 0.16, len(challengers)) if len(challengers) > 1 else np.zeros(1)
    for ax, field in zip(axes, fields, strict=True):
        for k, ch in enumerate(challengers):
            sub = pooled[(pooled["field"] == field) & (pooled["challenge_policy"] == ch)]
            y = sub["gain_pp"].to_numpy(float)
            err = np.clip(np.vstack([y - sub["ci_low"].to_numpy(float), sub["ci_high"].to_numpy(float) - y]), 0, None)
            colour = plots.COLOURS[k % len(plots.COLOURS)]
            ax.errorbar(xs + offsets[k], y, yerr=err, marker="o", ms=3.5, lw=1.2, capsize=2, color=colour, label=ch)
        ax.axhline(0.0, color="#555555", lw=1, ls=":")
        ax.set_title(f"field {field}", fontsize=10, loc="left")
        ax.set_xticks(list(xs))
        ax.set_xticklabels(list(next_bands))
        ax.set_xlabel("cards in the next player's hand", fontsize=9)
        ax.grid(True, alpha=0.3, lw=0.6)
        ax.spines[["top", "right"]].set_visible(False)
    axes[0].set_ylabel("seat 0's win-share change vs honest twin (pp)", fontsize=9)
    axes[0].legend(fontsize=7.5, frameon=False, title="challenge policy", title_fontsize=7.5)
    fig.suptitle("Does a +4 bluff pay? By the next player's hand size, per field", fontsize=12, x=0.01, ha="left")
    return Chart(
        "bluff-by-situation",
        plots._finish(fig, bottom),
        cap,
        "bluffer's gain by the next player's hand size, per challenge policy, one panel per field",
    )


def per_seat_findings(ps: pd.DataFrame, margin_pp: float) -> list[str]:
    """One sentence per effect of the per-seat table: every seat's change on its simultaneous interval, with the verdict."""
    if not len(ps):
        return []
    margin = f"{fmt.num(margin_pp)} pp"
    level = fmt.fixed(100 * ps["sim_level"].iloc[0], 2)
    out = []
    for what, sub in ps.groupby("effect", sort=False):
        parts = [
            f"{r.role} {fmt.pp_ci(r.diff, r.win_sim_low, r.win_sim_high, 2)} ({verdict_text(r.win_verdict, margin)})"
            for r in sub.itertuples()
        ]
        out.append(
            f"{what}, per seat (simultaneous {level}% intervals, n = {fmt.count(sub['n'].iloc[0])} deals): "
            + "; ".join(parts)
            + "."
        )
    return out


def per_seat_shown(ps: pd.DataFrame, margin_pp: float) -> pd.DataFrame:
    """The per-seat table as the report shows it."""
    margin = fmt.num(margin_pp)
    return pd.DataFrame(
        {
            "effect": ps["effect"],
            "seat": ps["role"],
            "n": ps["n"].map(fmt.count),
            "win-share change [simultaneous CI]": [
                fmt.pp_ci(*x, 2) for x in zip(ps["diff"], ps["win_sim_low"], ps["win_sim_high"], strict=True)
            ],
            f"verdict (+/-{margin} pp)": ps["win_verdict"],
        }
    )
