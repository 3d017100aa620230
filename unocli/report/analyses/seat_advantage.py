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

import math
from collections.abc import Callable
from dataclasses import dataclass, replace

import pandas as pd
from scipy import stats as sps

from unocli.report import fmt, views
from unocli.report.analyses.common import (
    Context,
    add_verdicts,
    balance,
    balance_chart,
    caption,
    fair_balance,
    first_player_chart,
    interval_series,
    percentile_interval,
    players_chart,
    seat_columns,
)
from unocli.report.analyses.fields import FIELDS_OPTION, UNTESTED, fields_text
from unocli.report.design import Design, Played, play
from unocli.report.experiment import ArmSpec, Experiment, players_list, positive_int
from unocli.report.model import Chart, Section, TableBlock, sentences
from unocli.study.stats import ALPHA, LARGER, WITHIN_MARGIN, holm, paired_t

# The design frame's quantities as the first-player table's columns (mean, low, high).
ROLES = {
    "win_first": ("first_player_share", "ci_low", "ci_high"),
    "win_0": ("seat0_share",),
    "win_dealer": ("dealer_share", "dealer_low", "dealer_high"),
}
OPTIONS = {
    "fields": FIELDS_OPTION,
    "seat_players": ([4, 7], players_list),
    "replicates": (1000, positive_int),
    "match_games": (2000, positive_int),
}


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
    arm) and the columns of :func:`match_verdicts`. ``rounds``: rounds per arm at each table size;
    ``fair``: the balance a perfectly fair game would measure on that many.
    """

    exp: Experiment
    names: tuple[str, ...]
    table: pd.DataFrame
    seats: pd.DataFrame
    matches: pd.DataFrame
    rounds: dict[int, int]
    fair: dict[int, float]
    games: int


def check(exp: Experiment) -> str | None:
    """The fields are the arms: every seat plays one field's policy."""
    if exp.arms:
        return "arms: the seat-advantage analysis plays every seat with each of options.fields; name the policies there"
    return None


def field_arms(exp: Experiment) -> Experiment:
    """``exp`` with one arm per field of ``options.fields``, named by the field: every seat plays its policy."""
    arms = tuple(ArmSpec(f, replace(exp.base, policy=f, seats=())) for f in exp.options["fields"])
    return replace(exp, arms=arms)


def round_quantities(players: int) -> tuple[str, ...]:
    """What a round records at a table of ``players``: the roles (first player, dealer, each place) and every seat."""
    roles = ("win_first", "win_dealer", *(f"win_place_{k}" for k in range(1, players + 1)))
    return ("won", "turns", *roles, *(f"win_{s}" for s in range(players)))


def match_quantities(players: int) -> tuple[str, ...]:
    """What a match records: whether it was won, and by which seat."""
    return ("won", *(f"win_{s}" for s in range(players)))


def compute(exp: Experiment, ctx: Context) -> SeatAdvantageResult:
    """Play every field at every table size, rounds and matches, and measure who wins by seat and role."""
    exp = field_arms(exp)
    names = tuple(a.name for a in exp.arms_for(exp.players[0]))
    rounds = play(Design.of(exp, round_quantities, options={"metric": "win_first"}), ctx)
    matches = play(Design.of(exp, match_quantities, match=True, games=exp.options["match_games"]), ctx, label="matches")
    comps = {p: c for (_, p), c in rounds.cells.items()}
    table = _first_player_rows(rounds, exp.options["replicates"], exp.seed)
    table["chi2_p_holm"] = holm(table["chi2_p"].to_numpy())
    return SeatAdvantageResult(
        exp=exp,
        names=names,
        table=table,
        seats=_seat_rows(rounds),
        matches=match_verdicts(_seat_rows(matches), exp.margins["win_share_pp"]),
        rounds={p: c.games for p, c in comps.items()},
        fair={p: fair_balance(c.games, p) for p, c in comps.items()},
        games=rounds.games,
    )


def equal_shares_p(wins: list[int]) -> float:
    """Chi-square test that every seat wins equally often, over the won games (NaN with fewer than 2 seats or no wins).

    The seats' counts are one multinomial sample, so the test respects that
    the shares sum to one (unlike comparing seats pairwise).
    """
    total = sum(wins)
    if len(wins) < 2 or total == 0:
        return math.nan
    return float(sps.chisquare(wins).pvalue)


def match_verdicts(matches: pd.DataFrame, margin_pp: float) -> pd.DataFrame:
    """``matches`` with each seat's edge (share minus 1/n) judged against ``+-margin_pp`` and Holm's chi-square p.

    A seat's edge is the mean of (won - 1/n) over its ``n`` matches, so its
    interval is Student's t on those 0/1-minus-1/n values; every seat of every
    table size and field is one family (:func:`~unocli.study.stats.equivalence`,
    simultaneous intervals). "The seats even out over a match" may be said only
    where every seat's verdict lies within the margin. ``chi2_p_holm`` adjusts
    the chi-square p of each (players, field) over the table's groups.
    Adds ``edge`` with ``edge_sim_low``/``edge_sim_high`` (shares), ``sim_level``,
    ``edge_verdict`` and ``edge_p_tost``.
    """
    out = matches.copy()
    if not len(out):
        return out
    fair = 1 / out["players"]
    out["edge"] = out["share"] - fair
    diffs = []
    for r in out.itertuples():
        f = 1 / r.players
        diffs.append(paired_t(int(r.n), r.wins - r.n * f, r.wins * (1 - f) ** 2 + (r.n - r.wins) * f * f))
    add_verdicts(out, diffs, "edge", margin_pp, scale=100)
    groups = out.groupby(["players", "field"], sort=False)["chi2_p"].first()
    adjusted = dict(zip(groups.index, holm(groups.to_numpy()), strict=True))
    out["chi2_p_holm"] = [adjusted[(p, f)] for p, f in zip(out["players"], out["field"], strict=True)]
    return out


def _seat_rows(played: Played) -> pd.DataFrame:
    """Every seat's share of the games (Wilson), its place after the dealer of the first round, and the chi-square p."""
    f = played.frame[played.frame["quantity"].str.fullmatch(r"win_\d+")]
    seats = f.assign(seat=f["quantity"].str.removeprefix("win_").astype(int))
    wins = [int(played.cells[(r.field, r.players)].acc(r.arm).wins[r.seat]) for r in seats.itertuples()]
    out = pd.DataFrame({"players": seats["players"], "field": seats["arm"], "seat": seats["seat"], "place": seats["seat"] + 1})
    out = out.assign(n=seats["n"], wins=wins, share=seats["mean"], ci_low=seats["low"], ci_high=seats["high"])
    out = out.sort_values(["players", "field", "seat"], kind="stable", key=_in_order(played)).reset_index(drop=True)
    chi2 = {k: equal_shares_p(list(g["wins"])) for k, g in out.groupby(["players", "field"], sort=False)}
    out["chi2_p"] = [chi2[k] for k in zip(out["players"], out["field"], strict=True)]
    return out


def _in_order(played: Played) -> Callable[[pd.Series], pd.Series]:
    """A sort key keeping the design's order of fields (the arms) and table sizes rather than the alphabet's."""
    order = {name: i for i, name in enumerate(played.names)}
    return lambda col: col.map(order) if col.name == "field" else col


def _first_player_rows(played: Played, replicates: int, seed: int) -> pd.DataFrame:
    """Per table size and field: the first player's, the dealer's and seat 0's shares, the chi-square p, balance."""
    t = views.wide(played.frame, ROLES, arm="field", n="won")
    rows = []
    for r in t.itertuples():
        comp = played.cells[("", r.players)]
        boot = comp.boot_means(replicates, seed=seed % (2**32) + r.players)
        cols = seat_columns(comp, r.players)
        k = comp.index(r.field)
        bl, bh = percentile_interval(balance(boot[:, k, cols]))
        rows.append(
            {
                "chi2_p": equal_shares_p([int(w) for w in comp.acc(r.field).wins[: r.players]]),
                "balance": balance(comp.means()[:, cols])[k],
                "balance_low": bl,
                "balance_high": bh,
            }
        )
    p = t["players"]
    t = t.assign(fair_share=1 / p, ratio_to_fair=t["first_player_share"] * p, ratio_low=t["ci_low"] * p)
    t = t.assign(ratio_high=t["ci_high"] * p)
    head = ["players", "field", "n", "first_player_share", "ci_low", "ci_high", "seat0_share", "dealer_share"]
    rest = ["dealer_low", "dealer_high", "fair_share", "ratio_to_fair", "ratio_low", "ratio_high"]
    return pd.concat([t[head + rest], pd.DataFrame(rows)], axis=1)


def render(result: SeatAdvantageResult) -> Section:
    """Charts of the first player's share, its ratio to a fair share, every seat and balance; tables; findings."""
    exp = result.exp
    seat_charts = [_seat_chart(result, sp) for sp in exp.options["seat_players"] if sp in exp.players]
    blocks: list = [
        _share_chart(result),
        _verdicts_table(result),
        _ratio_chart(result),
        TableBlock(
            "first-player",
            "Win share of the player who took the first turn, of the dealer and of seat 0 (Wilson 95% intervals), "
            "and a chi-square test that every seat wins equally often",
            _shown(result.table),
            result.table,
        ),
        *seat_charts,
        TableBlock(
            "match-seats",
            f"Matches to {exp.arms_for(exp.players[0])[0].rules.target_score} points (the deal rotates every round): "
            "every seat's share of matches won",
            _matches_shown(result.matches),
            result.matches,
        ),
        _balance_chart(result),
        TableBlock(
            "seat-shares",
            "Every seat's win share (in the CSV)",
            pd.DataFrame([{"rows": len(result.seats), "file": "seat-shares.csv"}]),
            result.seats,
        ),
    ]
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
        blocks=blocks,
        meta={"games": result.games},
        answer=sentences(answer)[0],  # the first player's win share at the middle table size under each field
    )


def run(exp: Experiment, ctx: Context) -> Section:
    return render(compute(exp, ctx))


def _shown(table: pd.DataFrame) -> pd.DataFrame:
    return pd.DataFrame(
        {
            "players": table["players"],
            "field": table["field"],
            "n": table["n"].map(fmt.count),
            "first player wins [Wilson 95%]": [
                fmt.share_ci(*x, 1) for x in zip(table["first_player_share"], table["ci_low"], table["ci_high"], strict=True)
            ],
            "dealer wins [Wilson 95%]": [
                fmt.share_ci(*x, 1) for x in zip(table["dealer_share"], table["dealer_low"], table["dealer_high"], strict=True)
            ],
            "seat 0 wins": table["seat0_share"].map(lambda x: fmt.share(x, 1)),
            "fair": table["fair_share"].map(lambda x: fmt.share(x, 1)),
            "x fair": [
                fmt.interval(*x, 3) for x in zip(table["ratio_to_fair"], table["ratio_low"], table["ratio_high"], strict=True)
            ],
            "equal seat shares (chi-square p, raw)": table["chi2_p"].map(fmt.pvalue),
            "equal seat shares (Holm-adjusted p)": table["chi2_p_holm"].map(fmt.pvalue),
        }
    )


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


def _lines(result: SeatAdvantageResult, columns: tuple[str, str, str]) -> list:
    """One line per policy across table sizes: the table's ``columns`` (point, low, high)."""
    return interval_series(result.table, "field", result.names, columns)


def _caption(result: SeatAdvantageResult, what: str, intervals: str) -> str:
    return caption(result.exp, what, _n_text(result), policies=", ".join(result.names), intervals=intervals)


def _share_chart(result: SeatAdvantageResult) -> Chart:
    cap = _caption(
        result,
        "Share of single rounds won by the player who took the first turn (seat 0, or seat 1 behind a Skip or "
        "Draw Two start card, or the dealer behind a Reverse)",
        "error bars are 95% Wilson intervals; dashed line: fair share 1/n",
    )
    series = _lines(result, ("first_player_share", "ci_low", "ci_high"))
    return first_player_chart(
        result.exp,
        series,
        cap,
        name="first-player-share",
        title="How much does playing first help?",
        ylabel="first player's win share",
    )


def _ratio_chart(result: SeatAdvantageResult) -> Chart:
    cap = _caption(
        result,
        "First player's win share divided by the fair share 1/n (1 = no advantage)",
        "error bars are 95% Wilson intervals scaled by n",
    )
    return players_chart(
        result.exp,
        _lines(result, ("ratio_to_fair", "ratio_low", "ratio_high")),
        cap,
        name="first-player-ratio",
        alt="first player ratio",
        title="First-player advantage relative to a fair share",
        ylabel="win share x players",
        hline=(1.0, "no advantage"),
    )


def _seat_chart(result: SeatAdvantageResult, sp: int) -> Chart:
    from unocli.report import plots  # matplotlib only when drawing

    sub = result.seats[result.seats["players"] == sp]
    series = interval_series(sub, "field", result.names, ("share", "ci_low", "ci_high"))
    cap = caption(
        result.exp,
        f"Share of rounds won by each seat, {sp} players: seat s is place s + 1 after the dealer (seat {sp - 1}), "
        f"and seat 0 takes the first turn unless the start card is a Skip, Draw Two or Reverse",
        f"{fmt.count(result.rounds[sp])} rounds per policy",
        policies=", ".join(result.names),
        intervals="error bars are 95% Wilson intervals; dotted line: fair share 1/n",
    )
    figure = plots.grouped_bars(
        [str(s) for s in range(sp)],
        series,
        title=f"Win share by seat, {sp} players",
        xlabel=f"seat (the dealer is seat {sp - 1})",
        ylabel="win share",
        percent=True,
        caption=cap,
        hline=1 / sp,
        hline_label="fair share 1/n",
    )
    return Chart(f"seat-shares-{sp}p", figure, cap, f"win share by seat at {sp} players")


def _balance_chart(result: SeatAdvantageResult) -> Chart:
    cap = _caption(
        result,
        "Balance: 1 minus the largest gap between two seats' win shares (1 = perfectly balanced). "
        "Sampling noise alone keeps measured balance below 1: the dashed line is what a perfectly fair "
        "game would show at this sample size",
        "error bars are 95% block-bootstrap intervals",
    )
    series = _lines(result, ("balance", "balance_low", "balance_high"))
    return balance_chart(result.exp, series, result.fair, cap, name="balance", title="Balance between seats by table size")


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
    """Table sizes per field: "at every table size (2-10) under all three fields", or field by field."""
    players = list(result.exp.players)

    def at(ps: list[int]) -> str:
        if ps == players and len(ps) > 1:
            return f"at every table size ({ps[0]}-{ps[-1]})"
        return "at " + (", ".join(map(str, ps)) or "no table size")

    values = list(sizes.values())
    if all(v == values[0] for v in values):
        return f"{at(values[0])} under {'all ' if len(values) > 1 else ''}{fields_text(list(sizes)).removeprefix('the ')}"
    return "; ".join(f"{at(ps)} with `{f}`" for f, ps in sizes.items())


def _answer(result: SeatAdvantageResult) -> str:
    """The report's answer in one paragraph: where playing first (and dealing) helps, under which fields."""
    t = result.table
    parts = []
    for role, who in (("first", "The player who takes the first turn"), ("dealer", "The dealer")):
        verdicts = _role_verdicts(result, role)
        for kind in ("above fair", "below fair"):
            sizes = {f: [p for p, v in verdicts.items() if v[f] == kind] for f in result.names}
            if any(sizes.values()):
                parts.append(f"{who} wins {kind.replace('fair', 'the fair share 1/n')} {_sizes_text(result, sizes)}.")
    mid = 4 if 4 in result.exp.players else result.exp.players[0]
    at = t[t["players"] == mid].set_index("field")
    shares = ", ".join(
        f"{fmt.share_ci(at.loc[f, 'first_player_share'], at.loc[f, 'ci_low'], at.loc[f, 'ci_high'], 1)} `{f}`"
        for f in result.names
    )
    return (
        f"**Answer.** At {mid} players the first player wins {shares} of rounds (fair {fmt.share(1 / mid)}; "
        f"n = {fmt.count(result.rounds[mid])} rounds per field; 95% Wilson intervals). "
        + (" ".join(parts) if parts else "No role's share differs from 1/n under any field.")
    )


def _verdicts_table(result: SeatAdvantageResult) -> TableBlock:
    """One row per table size, one column per field: the first player's share and where it lies against 1/n."""
    verdicts = _role_verdicts(result, "first")
    dealer = _role_verdicts(result, "dealer")
    rows = []
    for p, sub in result.table.groupby("players", sort=False):
        row: dict = {"players": p, "n per field": fmt.count(sub["n"].iloc[0]), "fair": fmt.share(1 / p, 1)}
        for r in sub.itertuples():
            row[f"first player, {r.field}"] = (
                f"{fmt.share_ci(r.first_player_share, r.ci_low, r.ci_high, 1)} {verdicts[p][r.field]}"
            )
        row["first player: same under all fields"] = "yes" if len(set(verdicts[p].values())) == 1 else "no"
        row["dealer: same under all fields"] = "yes" if len(set(dealer[p].values())) == 1 else "no"
        rows.append(row)
    return TableBlock(
        "first-player-by-field",
        "The first player's win share under each field of players against the fair share 1/n (95% Wilson intervals), "
        "and whether the side of 1/n its interval lies on (above fair, below fair, includes fair) is the same under "
        "every field",
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
            text += f"; the labels differ between fields ({UNTESTED}) at " + "; ".join(
                f"{p} players (" + ", ".join(f"{v} with `{f}`" for f, v in vs.items()) + ")" for p, vs in split.items()
            )
        out.append(text + ".")
    return out


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
