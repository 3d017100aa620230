"""Seat advantage: who wins, by role, at every table size: the player who takes the first turn, the dealer,
each place after the dealer; a chi-square test of equal seat shares; and matches.

Every arm (by default policies, e.g. random and basic everywhere) is played at
every table size on the same deals. In a single round the dealer is seat n - 1
and seat 0 would play first, but a Skip or Draw Two start card hands the first
turn to seat 1 and a Reverse to the dealer (docs/rules.md §2): the "first
player" here is the seat that actually took the first turn (the row's
``first_player``). Seat ``s`` of a single round is place ``s + 1`` after the
dealer. Matches (``match_games`` per arm and table size) rotate the deal; their
per-seat match win shares say whether the rotation evens the advantage out.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from itertools import combinations

import pandas as pd

from unocli.analysis.seat_advantage import (
    differences_frame,
    field_differences,
    first_player_rows,
    match_quantities,
    match_verdicts,
    round_quantities,
    seat_rows,
)
from unocli.report import fmt, views
from unocli.report.analyses.common import (
    Context,
    caption,
    fair_balance,
)
from unocli.report.analyses.fields import FIELDS_OPTION, fields_text
from unocli.report.design import Design, play
from unocli.report.experiment import ArmSpec, Experiment
from unocli.report.model import Section, TableBlock, sentences
from unocli.report.options import positive_int
from unocli.report.words import between_text
from unocli.study.interaction import FieldInteraction
from unocli.study.stats import ALPHA, LARGER, WITHIN_MARGIN, holm

OPTIONS = {
    "fields": FIELDS_OPTION,
    "replicates": (1000, positive_int),
    "match_games": (2000, positive_int),
}
ROLE_QUANTITY = {"first": "win_first", "dealer": "win_dealer"}
VIEWS = "seat-advantage"  # a file without [[view]] tables draws the shipped file's
FRAMES = ("", "first-player", "balance", "seats", "field-differences")  # the rounds' design and its tables
KINDS = ("differences", "wide", "lines", "forest", "heatmap", "table", "report", "sizes", "bars", "csv")  # it can draw


@dataclass(frozen=True)
class SeatAdvantageResult:
    """The first player's share and balance per arm and table size, and every seat's share.

    ``table``: players, arm, n, first_player_share, ci_low, ci_high (Wilson;
    the seat that took the first turn), seat0_share, dealer_share with
    dealer_low/high, fair_share, ratio_to_fair (share x players) with
    ratio_low/high, chi2_p (chi-square test of equal seat shares among won
    rounds) and chi2_p_holm (Holm over the table's rows), balance with
    balance_low/high (block bootstrap). ``seats``: players, arm, seat, place
    (after the dealer), n, wins, share, ci_low, ci_high. ``matches``: the same
    per seat for matches (share of matches won), with chi2_p per (players,
    arm) and the columns of :func:`~unocli.analysis.seat_advantage.match_verdicts`.
    ``rounds``: rounds per arm at each table size; ``fair``: the balance a
    perfectly fair game would measure on that many. ``frame``: the rounds'
    tidy frame (:mod:`unocli.report.design`), which the declared views read. ``between``: per role
    (``first``, ``dealer``) and table size, the difference of its edge between
    every pair of fields (:func:`~unocli.analysis.seat_advantage.field_differences`).
    """

    exp: Experiment
    names: tuple[str, ...]
    table: pd.DataFrame
    seats: pd.DataFrame
    matches: pd.DataFrame
    rounds: dict[int, int]
    fair: dict[int, float]
    games: int
    between: dict[str, dict[int, list[FieldInteraction]]] = field(default_factory=dict)
    frame: pd.DataFrame | None = None


def check(exp: Experiment) -> str | None:
    """The fields are the arms: every seat plays one field's policy; no published figures to set beside."""
    if exp.arms:
        return "arms: the seat-advantage analysis plays every seat with each of options.fields; name the policies there"
    return views.refused(exp, KINDS, FRAMES)


def field_arms(exp: Experiment) -> Experiment:
    """``exp`` with one arm per field of ``options.fields``, named by the field: every seat plays its policy."""
    arms = tuple(ArmSpec(f, replace(exp.base, policy=f, seats=())) for f in exp.options["fields"])
    return replace(exp, arms=arms)


def compute(exp: Experiment, ctx: Context) -> SeatAdvantageResult:
    """Play every field at every table size, rounds and matches, and measure who wins by seat and role."""
    exp = field_arms(exp)
    names = tuple(a.name for a in exp.arms_for(exp.players[0]))
    # every pair of fields, for their paired differences (the baseline's pairs first, as compare records them alone)
    pairs = [(n, names[0]) for n in names[1:]] + [(a, b) for a, b in combinations(names[1:], 2)]
    rounds = play(Design.of(exp, round_quantities, options={"metric": "win_first", "pairs": pairs}), ctx)
    matches = play(Design.of(exp, match_quantities, match=True, games=exp.options["match_games"]), ctx, label="matches")
    comps = {p: c for (_, p), c in rounds.cells.items()}
    table = first_player_rows(rounds, exp.options["replicates"], exp.seed)
    table["chi2_p_holm"] = holm(table["chi2_p"].to_numpy())
    margin = exp.margins["win_share_pp"] / 100
    return SeatAdvantageResult(
        exp=exp,
        names=names,
        table=table,
        seats=seat_rows(rounds),
        matches=match_verdicts(seat_rows(matches), exp.margins["win_share_pp"]),
        rounds={p: c.games for p, c in comps.items()},
        fair={p: fair_balance(c.games, p) for p, c in comps.items()},
        games=rounds.games,
        between={role: field_differences(comps, names, q, margin) for role, q in ROLE_QUANTITY.items()},
        frame=rounds.frame,
    )


def render(result: SeatAdvantageResult) -> Section:
    """The declared views of the frames (sims/seat-advantage.toml), the report's own tables and charts, the findings."""
    exp = result.exp
    own: list = [
        _verdicts_table(result),
        TableBlock(
            "match-seats",
            f"Matches to {exp.arms_for(exp.players[0])[0].rules.target_score} points (the deal rotates every round): "
            "every seat's share of matches won",
            _matches_shown(result.matches),
            result.matches,
        ),
    ]
    blocks = {b.name: b for b in own}
    setup = views.Setup(lambda what, intervals: _caption(result, what, intervals), blocks=blocks)
    fair = result.table.assign(fair_balance=result.table["players"].map(result.fair))
    frames = {"": result.frame, "first-player": result.table, "balance": fair}
    frames |= {"seats": result.seats, "field-differences": differences_frame(result.between)}
    answer = _answer(result)
    intro = (
        answer
        + "\n\n"
        + (exp.description or "")
        + f"\n\nFields of players: {fields_text(result.names)} (every seat plays the field's policy); rules {exp.base.rules}."
    )
    return Section(
        name=exp.name,
        title=exp.title,
        intro=intro,
        findings=_findings(result),
        blocks=views.declared(views.chosen(exp, VIEWS), exp, frames, setup),
        meta={"games": result.games},
        answer=sentences(answer)[0],  # the first player's win share at the middle table size under each field
    )


def run(exp: Experiment, ctx: Context) -> Section:
    return render(compute(exp, ctx))


def _matches_shown(matches: pd.DataFrame) -> pd.DataFrame:
    """Per table size and policy: every seat's share of matches won, and the chi-square p of equal shares."""
    rows = []
    for (p, arm), sub in matches.groupby(["players", "field"], sort=False):
        rows.append(
            {
                "players": p,
                "field": arm,
                "matches": fmt.count(sub["n"].iloc[0]),
                "match win share by seat [Wilson 95%]": "; ".join(
                    f"{r.seat}: {fmt.share_ci(r.share, r.ci_low, r.ci_high, 1)}" for r in sub.itertuples()
                ),
                "each seat's verdict within +/-margin": ", ".join(dict.fromkeys(sub["edge_verdict"])),
                "equal seat shares (chi-square p, raw)": fmt.pvalue(sub["chi2_p"].iloc[0]),
                "equal seat shares (Holm-adjusted p)": fmt.pvalue(sub["chi2_p_holm"].iloc[0]),
            }
        )
    return pd.DataFrame(rows)


def _n_text(result: SeatAdvantageResult) -> str:
    return f"{fmt.count(result.rounds[result.exp.players[0]])} rounds per policy and table size"


def _caption(result: SeatAdvantageResult, what: str, intervals: str) -> str:
    return caption(result.exp, what, _n_text(result), policies=", ".join(result.names), intervals=intervals)


def side(share: float, low: float, high: float, fair: float) -> str:
    """Where a share's 95% interval lies against the fair share: "above fair", "below fair" or "includes fair".

    "includes fair" is not a finding of no advantage (that needs an equivalence verdict); it says only that this
    interval holds 1/n.
    """
    if low > fair:
        return "above fair"
    if high < fair:
        return "below fair"
    return "includes fair"


def _role_verdicts(result: SeatAdvantageResult, role: str) -> dict[int, dict[str, str]]:
    """Per table size and field: where the first player's (``role`` = first) or dealer's share lies against 1/n."""
    cols = ("first_player_share", "ci_low", "ci_high") if role == "first" else ("dealer_share", "dealer_low", "dealer_high")
    out: dict[int, dict[str, str]] = {}
    for r in result.table.itertuples():
        point, low, high = (getattr(r, c) for c in cols)
        out.setdefault(int(r.players), {})[str(r.field)] = side(point, low, high, r.fair_share)
    return out


def _sizes_text(result: SeatAdvantageResult, sizes: dict[str, list[int]]) -> str:
    """Table sizes per field: "at every table size (2-10) under every field", or field by field."""
    players = list(result.exp.players)

    def at(ps: list[int]) -> str:
        if ps == players and len(ps) > 1:
            return f"at every table size ({ps[0]}-{ps[-1]})"
        return "at " + (", ".join(map(str, ps)) or "no table size")

    values = list(sizes.values())
    if all(v == values[0] for v in values):
        return f"{at(values[0])} under " + ("every field" if len(values) > 1 else f"`{next(iter(sizes))}`")
    return "; ".join(f"{at(ps)} with `{f}`" for f, ps in sizes.items())


def _answer(result: SeatAdvantageResult) -> str:
    """The report's answer in one paragraph: where playing first (and dealing) helps, under which fields."""
    t = result.table
    parts = []
    for role, who in (("first", "The player who takes the first turn"), ("dealer", "The dealer")):
        verdicts = _role_verdicts(result, role)
        for kind in ("above fair", "below fair"):
            sizes = {f: [p for p, v in verdicts.items() if v[f] == kind] for f in result.names}
            every = [p for p in result.exp.players if all(p in v for v in sizes.values())]
            if every:  # the fields' own verdicts elsewhere are in the findings, with the test of their difference
                where = _sizes_text(result, dict.fromkeys(result.names, every))
                some = (
                    ""
                    if all(v == every for v in sizes.values())
                    else f"; at other sizes under some fields ({_differ_sizes(result, role)})"
                )
                parts.append(f"{who} wins {kind.replace('fair', 'the fair share 1/n')} {where}{some}.")
    mid = 4 if 4 in result.exp.players else result.exp.players[0]
    at = t[t["players"] == mid].set_index("field")
    shares = ", ".join(f"{fmt.share(at.loc[f, 'first_player_share'], 1)} `{f}`" for f in result.names)
    return (
        f"**Answer.** At {mid} players the first player wins {shares} of rounds (fair {fmt.share(1 / mid)}; "
        f"n = {fmt.count(result.rounds[mid])} each). "
        + (" ".join(parts) if parts else "No role's share differs from 1/n under any field.")
        + _even_text(result)
    )


def _differ_sizes(result: SeatAdvantageResult, role: str) -> str:
    """Where two fields' edges differ beyond the margin (paired on common deals), for the answer."""
    sizes = [p for p, items in result.between.get(role, {}).items() if any(i.verdict == LARGER for i in items)]
    if not sizes:
        return "but the fields cannot be told apart"
    return f"two fields' edges differ beyond the margin at {', '.join(map(str, sizes))} players"


def _even_text(result: SeatAdvantageResult) -> str:
    """Whether whole matches even the seats out: said only where every seat's match edge is equivalent to 0."""
    m = result.matches
    if not len(m):
        return ""
    even = [int(p) for p, v in m.groupby("players")["edge_verdict"].agg(lambda v: set(v) <= WITHIN_MARGIN).items() if v]
    margin, n = fmt.num(result.exp.margins["win_share_pp"]), fmt.count(m["n"].min())
    if len(even) == len(set(m["players"])):
        return f" Over whole matches the seats even out: every seat within +/-{margin} pp of 1/n (equivalence) at every size."
    shown = ", ".join(map(str, even)) if even else "no table size"
    return f" That whole matches even the seats out (every seat within +/-{margin} pp of 1/n) is shown at {shown} ({n} matches)."


def _verdicts_table(result: SeatAdvantageResult) -> TableBlock:
    """One row per table size, one column per field: the first player's share and where it lies against 1/n."""
    verdicts = _role_verdicts(result, "first")
    rows = []
    for p, sub in result.table.groupby("players", sort=False):
        row: dict = {"players": p, "n per field": fmt.count(sub["n"].iloc[0]), "fair": fmt.share(1 / p, 1)}
        for r in sub.itertuples():
            row[f"first player, {r.field}"] = (
                f"{fmt.share_ci(r.first_player_share, r.ci_low, r.ci_high, 1)} {verdicts[p][r.field]}"
            )
        row["do the fields' edges differ? (paired on the deals)"] = _between(result, "first", p)
        rows.append(row)
    return TableBlock(
        "first-player-by-field",
        "The first player's win share under each field of players against the fair share 1/n (95% Wilson intervals: "
        "above, below or including fair), and what the paired difference of the fields' edges says (simultaneous "
        "intervals over every pair of fields and table size; table field-differences): only it says the fields differ",
        pd.DataFrame(rows),
        result.table,
    )


def _agreement_findings(result: SeatAdvantageResult) -> list[str]:
    """Per role and table size, whether the verdict against 1/n holds under every field; where not, which way each goes."""
    out = []
    for role, who in (("first", "first player"), ("dealer", "dealer")):
        verdicts = _role_verdicts(result, role)
        same = [p for p, v in verdicts.items() if len(set(v.values())) == 1]
        split = {p: v for p, v in verdicts.items() if len(set(v.values())) > 1}
        text = f"The side of 1/n the {who}'s 95% interval lies on is the same under all fields at " + (
            ", ".join(f"{p} ({next(iter(verdicts[p].values()))})" for p in same) or "no table size"
        )
        if split:
            text += "; the labels differ between fields at " + "; ".join(
                f"{p} players (" + ", ".join(f"{v} with `{f}`" for f, v in vs.items()) + f"; {_between(result, role, p)})"
                for p, vs in split.items()
            )
        out.append(text + ".")
        out.append(_differ_text(result, role, who))
    return out


def _between(result: SeatAdvantageResult, role: str, p: int) -> str:
    """What the paired difference of the fields' edges says at ``p`` players (:func:`~fields.between_text`)."""
    said = between_text(result.between.get(role, {}).get(p))
    return said.replace("interactions on common deals", "paired differences").replace("interaction on common deals", "paired")


def _differ_text(result: SeatAdvantageResult, role: str, who: str) -> str:
    """Where the role's edge differs between fields beyond the margin: the only ground for "under X but not Y"."""
    found = result.between.get(role, {})
    differ = {p: [i for i in items if i.verdict == LARGER] for p, items in found.items()}
    differ = {p: items for p, items in differ.items() if items}
    within = [p for p, items in found.items() if all(i.verdict in WITHIN_MARGIN for i in items)]
    level = fmt.fixed(100 * next(iter(found.values()))[0].level, 2) if found else "95"
    head = (
        f"Between fields, the {who}'s edge (share minus 1/n), paired on the same deals (simultaneous {level}% intervals "
        f"over every pair of fields and table size, margin +/-{fmt.num(result.exp.margins['win_share_pp'])} pp): "
    )
    parts = [
        f"differs beyond the margin at {p} players ("
        + "; ".join(f"{i.field_a} minus {i.field_b} {fmt.pp_ci(i.diff, i.low, i.high, 2)}" for i in items)
        + ")"
        for p, items in differ.items()
    ]
    parts.append(f"every pair lies within the margin at {', '.join(map(str, within)) or 'no table size'}")
    rest = [p for p in found if p not in differ and p not in within]
    if rest:
        parts.append(f"the fields cannot be told apart (undecided) at {', '.join(map(str, rest))}")
    return head + "; ".join(parts) + "."


def _findings(result: SeatAdvantageResult) -> list[str]:
    findings = _agreement_findings(result)
    for name in result.names:
        sub = result.table[result.table["field"] == name].set_index("players")
        findings.append(
            f"{name}: the player who takes the first turn wins "
            + "; ".join(
                f"{fmt.share_ci(sub.loc[p, 'first_player_share'], sub.loc[p, 'ci_low'], sub.loc[p, 'ci_high'], 1)} at "
                f"{p} players (fair {fmt.share(1 / p)})"
                for p in result.exp.players
            )
            + f" (n = {fmt.count(sub['n'].iloc[0])} rounds per table size)."
        )
        findings.append(
            f"{name}: the dealer wins "
            + "; ".join(
                f"{fmt.share_ci(sub.loc[p, 'dealer_share'], sub.loc[p, 'dealer_low'], sub.loc[p, 'dealer_high'], 1)} at {p}"
                for p in result.exp.players
            )
            + " players; equal seat shares are rejected (chi-square, Holm-adjusted p < 0.05 over the table's "
            f"{len(result.table)} tests) at "
            + (", ".join(str(p) for p in result.exp.players if sub.loc[p, "chi2_p_holm"] < ALPHA) or "no table size")
            + "."
        )
    findings += _match_findings(result)
    return findings


def _match_findings(result: SeatAdvantageResult) -> list[str]:
    """Does the rotating deal even the seats out over a match? Only an equivalence verdict on every seat says so."""
    out = []
    m = result.matches
    margin = fmt.num(result.exp.margins["win_share_pp"])
    level = fmt.fixed(100 * m["sim_level"].iloc[0], 2) if len(m) else "95"
    for name in result.names:
        sub = m[m["field"] == name]
        uneven = sorted({int(p) for p in sub.loc[sub["chi2_p_holm"] < ALPHA, "players"]})
        within = sub.groupby("players")["edge_verdict"].agg(lambda v: set(v) <= WITHIN_MARGIN)
        beyond = sub.groupby("players")["edge_verdict"].agg(lambda v: LARGER in set(v))
        half = 100 * float(((sub["edge_sim_high"] - sub["edge_sim_low"]) / 2).median())
        even = [int(p) for p, ok in within.items() if ok]
        apart = [int(p) for p, bad in beyond.items() if bad]
        out.append(
            f"{name}, matches ({fmt.count(sub['n'].iloc[0])} per table size): every seat's match share is within "
            f"+/-{margin} pp of 1/n (equivalence, simultaneous {level}% intervals over every seat, size and field) at "
            f"{', '.join(map(str, even)) or 'no table size'}; some seat is further than the margin from 1/n at "
            f"{', '.join(map(str, apart)) or 'no table size'}; elsewhere whether the seats even out over a match is "
            f"not shown (median simultaneous half-width {fmt.fixed(half, 1)} pp, against the +/-{margin} pp margin). "
            f"Equal seat shares are rejected (chi-square, Holm-adjusted p < 0.05 over the table's "
            f"{m.groupby(['players', 'field']).ngroups} tests) at "
            f"{', '.join(map(str, uneven)) or 'no table size'}."
        )
    return out
