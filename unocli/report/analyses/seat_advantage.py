"""Does playing first help? The seat-advantage report's design and its own sentences over the frames.

Every field of players (``options.fields``, every seat playing its policy) is
an arm, played at every table size on the same deals, as rounds and as
``match_games`` whole matches (:mod:`unocli.report.design`);
:mod:`unocli.analysis.seat_advantage` reads them into a typed
:class:`~unocli.analysis.seat_advantage.SeatAdvantage`. The "first player" is
the seat that took the first turn (a Skip, Draw Two or Reverse start card moves
it; docs/rules.md §2). Every table and chart is a ``[[view]]`` of
sims/seat-advantage.toml; what is left here is what only this report says,
the words of two tables (where a share lies against 1/n, whether the fields
differ, each seat's match share) among them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from dataclasses import fields as fields_of
from itertools import combinations

import pandas as pd

from unocli.analysis.seat_advantage import (
    ROLE_COLUMNS,
    SeatAdvantage,
    even_sizes,
    evenness,
    family_level,
    match_quantities,
    round_quantities,
    seat_advantage,
    sides,
    split,
)
from unocli.report import fmt, kinds
from unocli.report.analyses.common import Context, caption, section
from unocli.report.analyses.fields import FIELDS_OPTION, fields_text, strength_text
from unocli.report.design import Design, play
from unocli.report.experiment import ArmSpec, Experiment
from unocli.report.model import Section
from unocli.report.options import positive_int
from unocli.report.words import between_text
from unocli.study.stats import ALPHA

OPTIONS = {"fields": FIELDS_OPTION, "replicates": (1000, positive_int), "match_games": (2000, positive_int)}
VIEWS = "seat-advantage"  # a file without [[view]] tables draws the shipped file's
FRAMES = ("", "first-player", "balance", "seats", "field-differences", "by-field", "matches")  # the design and its tables
ROLES = (("first", "first player"), ("dealer", "dealer"))


@dataclass(frozen=True)
class SeatAdvantageResult(SeatAdvantage):
    """The played rounds and matches read as :class:`~unocli.analysis.seat_advantage.SeatAdvantage`, with the
    experiment (its fields as arms)."""

    exp: Experiment


def check(exp: Experiment) -> str | None:
    """The fields are the arms: every seat plays one field's policy; no published figures to set beside."""
    if exp.arms:
        return "arms: the seat-advantage analysis plays every seat with each of options.fields; name the policies there"
    return kinds.refused(exp, kinds.FRAME_KINDS, FRAMES)


def field_arms(exp: Experiment) -> Experiment:
    """``exp`` with one arm per field of ``options.fields``, named by the field: every seat plays its policy."""
    return replace(exp, arms=tuple(ArmSpec(f, replace(exp.base, policy=f, seats=())) for f in exp.options["fields"]))


def compute(exp: Experiment, ctx: Context) -> SeatAdvantageResult:
    """Play every field at every table size, rounds and matches, and measure who wins by seat and role."""
    exp = field_arms(exp)
    names = tuple(a.name for a in exp.arms_for(exp.players[0]))
    # every pair of fields, for their paired differences (the baseline's pairs first, as compare records them alone)
    pairs = [(n, names[0]) for n in names[1:]] + [(a, b) for a, b in combinations(names[1:], 2)]
    rounds = play(Design.of(exp, round_quantities, options={"metric": "win_first", "pairs": pairs}), ctx)
    matches = play(Design.of(exp, match_quantities, match=True, games=exp.options["match_games"]), ctx, label="matches")
    played = seat_advantage(rounds, matches, exp.options["replicates"], exp.seed, exp.margins["win_share_pp"])
    return SeatAdvantageResult(**{f.name: getattr(played, f.name) for f in fields_of(SeatAdvantage)}, exp=exp)


def render(r: SeatAdvantageResult) -> Section:
    """The declared views of the frames (sims/seat-advantage.toml) and the findings."""
    exp = r.exp
    n = f"{fmt.count(r.rounds[exp.players[0]])} rounds per policy and table size"

    def cap(what: str, intervals: str) -> str:
        return caption(exp, what, n, policies=", ".join(r.names), intervals=intervals)

    frames = {"": r.frame, "first-player": r.table, "balance": r.balance_table, "seats": r.seats}
    frames |= {"field-differences": r.differences, "by-field": _by_field(r), "matches": _by_match(r.matches)}
    played = f"Fields of players: {fields_text(r.names)} (every seat plays the field's policy); rules {exp.base.rules}."
    # the answer's first sentence: the first player's win share at the middle table size under each field
    return section(exp, _answer(r), played + strength_text(exp), _findings(r), r.games, frames, kinds.Setup(cap), VIEWS)


def _by_field(r: SeatAdvantageResult) -> pd.DataFrame:
    """The first-player table with the words of its table by field: where each first player's share lies against
    1/n (``side``) and what the paired difference of the fields' edges says at its table size (``differ``)."""
    verdicts = sides(r.table, "first")
    said = [verdicts[p][f] for p, f in zip(r.table["players"], r.table["field"], strict=True)]
    return r.table.assign(side=said, differ=[_between(r, "first", p) for p in r.table["players"]])


def _by_match(matches: pd.DataFrame) -> pd.DataFrame:
    """The seats' match shares with the words of its table, on each row of a table size and field: every seat's
    share (``seats``) and the seats' verdicts (``verdicts``)."""
    shares = [f"{s.seat}: {fmt.share_ci(s.share, s.ci_low, s.ci_high, 1)}" for s in matches.itertuples()]
    group = pd.Series(shares, index=matches.index).groupby([matches["players"], matches["field"]], sort=False)
    verdicts = matches.groupby(["players", "field"], sort=False)["edge_verdict"]
    return matches.assign(seats=group.transform("; ".join), verdicts=verdicts.transform(lambda v: ", ".join(dict.fromkeys(v))))


def _listed(ps: Sequence[object]) -> str:
    """Table sizes (or what is said of each) joined by commas, or "no table size"."""
    return ", ".join(map(str, ps)) or "no table size"


def _sizes(r: SeatAdvantageResult, ps: list[int]) -> str:
    """Table sizes: "at every table size (2-10)" when they are all, else listed."""
    return f"at every table size ({ps[0]}-{ps[-1]})" if ps == list(r.exp.players) and len(ps) > 1 else f"at {_listed(ps)}"


def _answer(r: SeatAdvantageResult) -> str:
    """The report's answer in one paragraph: where playing first (and dealing) helps, under which fields."""
    parts, level = [], family_level(r.table)  # a claim over every table size and field reads them as one family
    read = f" (each share's simultaneous {fmt.fixed(100 * level, 2)}% interval over the {len(r.table)} cells)"
    for role, who in (("first", "The player who takes the first turn"), ("dealer", "The dealer")):
        verdicts = sides(r.table, role, level)
        for kind in ("above fair", "below fair"):
            sizes = {f: [p for p, v in verdicts.items() if v[f] == kind] for f in r.names}
            every = [p for p in r.exp.players if all(p in v for v in sizes.values())]
            if every:  # the fields' own verdicts elsewhere are in the findings, with the test of their difference
                where = _sizes(r, every) + " under " + ("every field" if len(r.names) > 1 else f"`{r.names[0]}`")
                found = split(r.between.get(role, {}))
                differ, unsized = list(found.differ), list(found.unsized)
                apart = f"two fields' edges differ beyond the margin at {_listed(differ)} players"
                sized = f"two fields' edges differ by an amount of undecided size at {_listed(unsized)} players"
                said = apart if differ else sized if unsized else "but the fields cannot be told apart"
                some = "" if all(v == every for v in sizes.values()) else f"; at other sizes under some fields ({said})"
                parts.append(f"{who} wins {kind.replace('fair', 'the fair share 1/n')} {where}{read}{some}.")
    mid = 4 if 4 in r.exp.players else r.exp.players[0]
    at = r.table[r.table["players"] == mid].set_index("field")
    shares = ", ".join(
        f"{fmt.share_ci(x['first_player_share'], x['ci_low'], x['ci_high'], 1)} `{f}`" for f in r.names for x in [at.loc[f]]
    )
    text = f"**Answer.** At {mid} players the first player wins {shares} of rounds (fair {fmt.share(1 / mid)}; "
    text += f"95% CI, n = {fmt.count(r.rounds[mid])} each). "
    return text + (" ".join(parts) if parts else f"No role's share differs from 1/n under any field{read}.") + _even_text(r)


def _even_text(r: SeatAdvantageResult) -> str:
    """Whether whole matches even the seats out: said only where every seat's match edge is equivalent to 0."""
    m = r.matches
    if not len(m):
        return ""
    even, margin = even_sizes(m), fmt.num(r.exp.margins["win_share_pp"])
    if len(even) == len(set(m["players"])):
        return f" Over whole matches the seats even out: every seat within +/-{margin} pp of 1/n (equivalence) at every size."
    every = " under every field at once" if len(r.names) > 1 else ""
    alone = [f"`{f}` at {', '.join(map(str, e))}" for f in r.names for e in [evenness(m, f).even] if e and e != even]
    some = f"; under one field: {'; '.join(alone)}" if alone and every else ""
    shown = f"{_listed(even)}{every} ({fmt.count(m['n'].min())} matches{some})"
    return f" That whole matches even the seats out (every seat within +/-{margin} pp of 1/n) is shown at {shown}."


def _between(r: SeatAdvantageResult, role: str, p: int) -> str:
    """What the paired difference of the fields' edges says at ``p`` players (:func:`~words.between_text`)."""
    said = between_text(r.between.get(role, {}).get(p))
    return said.replace("interactions on common deals", "paired differences").replace("interaction on common deals", "paired")


def _differ_text(r: SeatAdvantageResult, role: str, who: str) -> str:
    """Where the role's edge differs between fields beyond the margin: the only ground for "under X but not Y"."""
    found = split(r.between.get(role, {}))
    level = fmt.fixed(100 * found.level, 2) if found.level is not None else "95"
    head = f"Between fields, the {who}'s edge (share minus 1/n), paired on the same deals (simultaneous {level}% "
    head += f"intervals over every pair of fields and table size, margin +/-{fmt.num(r.exp.margins['win_share_pp'])} pp): "
    parts = [
        f"{how} at {p} players ("
        + "; ".join(f"{i.field_a} minus {i.field_b} {fmt.pp_ci(i.diff, i.low, i.high, 2)}" for i in items)
        + ")"
        for how, pairs in (("differs beyond the margin", found.differ), ("differs by an amount of undecided size", found.unsized))
        for p, items in pairs.items()
    ]
    parts.append(f"every pair lies within the margin at {_listed(found.within)}")
    if found.undecided:
        parts.append(f"the fields cannot be told apart (undecided) at {_listed(found.undecided)}")
    return head + "; ".join(parts) + "."


def _findings(r: SeatAdvantageResult) -> list[str]:
    """Per role whether its side of 1/n holds under every field; each field's shares; the matches."""
    out, players, level = [], r.exp.players, family_level(r.table)  # read over every size and field: one family
    for role, who in ROLES:
        verdicts = sides(r.table, role, level)
        same = [f"{p} ({next(iter(v.values()))})" for p, v in verdicts.items() if len(set(v.values())) == 1]
        text = (
            f"The side of 1/n the {who}'s interval (simultaneous {fmt.fixed(100 * level, 2)}% over the {len(r.table)} "
            f"cells) lies on is the same under all fields at {_listed(same)}"
        )
        split_at = [(p, v) for p, v in verdicts.items() if len(set(v.values())) > 1]
        if split_at:
            text += "; the labels differ between fields at " + "; ".join(
                f"{p} players (" + ", ".join(f"{v} with `{f}`" for f, v in vs.items()) + f"; {_between(r, role, p)})"
                for p, vs in split_at
            )
        out += [text + ".", _differ_text(r, role, who)]
    for name in r.names:
        s = r.table[r.table["field"] == name].set_index("players")
        first = "; ".join(f"{_share(s, p, 'first')} at {p} players (fair {fmt.share(1 / p)})" for p in players)
        n = fmt.count(s["n"].iloc[0])
        out.append(f"{name}: the player who takes the first turn wins {first} (n = {n} rounds per table size).")
        dealer = "; ".join(f"{_share(s, p, 'dealer')} at {p}" for p in players)
        rejected = _listed([p for p in players if s.loc[p, "chi2_p_holm"] < ALPHA])
        out.append(
            f"{name}: the dealer wins {dealer} players; equal seat shares are rejected (chi-square, Holm-adjusted p < 0.05 "
            f"over the table's {len(r.table)} tests) at {rejected}."
        )
    return out + _match_findings(r)


def _share(table: pd.DataFrame, p: int, role: str) -> str:
    """The ``role``'s win share at ``p`` players with its Wilson interval, from a field's rows indexed by players."""
    point, low, high = (table.loc[p, c] for c in ROLE_COLUMNS[role])
    return fmt.share_ci(point, low, high, 1)


def _match_findings(r: SeatAdvantageResult) -> list[str]:
    """Does the rotating deal even the seats out over a match? Only an equivalence verdict on every seat says so."""
    m, out = r.matches, []
    margin, level = fmt.num(r.exp.margins["win_share_pp"]), fmt.fixed(100 * m["sim_level"].iloc[0], 2) if len(m) else "95"
    for name in r.names:
        e, n = evenness(m, name), fmt.count(m.loc[m["field"] == name, "n"].iloc[0])
        out.append(
            f"{name}, matches ({n} per table size): every seat's match share is within +/-{margin} pp of 1/n "
            f"(equivalence, simultaneous {level}% intervals over every seat, size and field) at {_listed(e.even)}; some "
            f"seat is further than the margin from 1/n at {_listed(e.apart)}; elsewhere whether the seats even out over a "
            f"match is not shown (median simultaneous half-width {fmt.fixed(100 * e.half_width, 1)} pp, against the "
            f"+/-{margin} pp margin). Equal seat shares are rejected (chi-square, Holm-adjusted p < 0.05 over the "
            f"table's {m.groupby(['players', 'field']).ngroups} tests) at {_listed(e.uneven)}."
        )
    return out
