"""Who wins, by seat and by role: the first player, the dealer, every place after the dealer, over rounds and matches.

Computed from a played design (:class:`Played`: the tidy frame of
``unocli.report.design`` and the comparisons behind it, every field an arm on
the same deals): every seat's share with the chi-square test of equal shares,
the first player's, the dealer's and seat 0's shares with balance
(block-bootstrap interval), each seat's match edge judged against the margin
(:func:`match_verdicts`), and the difference of the first player's (or the
dealer's) edge between two fields, paired on the common deals and judged as one
family (:func:`field_differences`), the only ground for saying a field differs.
:func:`seat_advantage` reads them all into one typed :class:`SeatAdvantage`;
:func:`sides`, :func:`split` and :func:`evenness` read its verdicts: where a
role's share lies against 1/n, where the fields' edges differ, and where whole
matches even the seats out.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import combinations

import pandas as pd
from scipy import stats as sps

from unocli.analysis.frames import Played, wide
from unocli.analysis.seats import balance, fair_balance, percentile_interval, seat_columns
from unocli.analysis.verdicts import add_verdicts
from unocli.study.compare import Comparison
from unocli.study.interaction import FieldInteraction, judge_family
from unocli.study.stats import ALPHA, LARGER, UNSIZED, WITHIN_MARGIN, holm, paired_t, wilson

# The design frame's quantities as the first-player table's columns (mean, low, high).
ROLES = {
    "win_first": ("first_player_share", "ci_low", "ci_high"),
    "win_0": ("seat0_share",),
    "win_dealer": ("dealer_share", "dealer_low", "dealer_high"),
}
# The roles whose edges the fields are compared on: their quantity, and their columns in the first-player table.
ROLE_QUANTITY = {"first": "win_first", "dealer": "win_dealer"}
ROLE_COLUMNS = {"first": ROLES["win_first"], "dealer": ROLES["win_dealer"]}


def field_differences(
    cells: Mapping[int, Comparison], fields: Sequence[str], quantity: str, margin: float
) -> dict[int, list[FieldInteraction]]:
    """Per table size, the difference of ``quantity`` (a role's win share) between every pair of fields.

    The fields are arms of one comparison per table size, on the same deals, so
    the difference of two fields' edges (share minus 1/n: the 1/n cancels) is
    their paired difference deal by deal. Every pair at every size is one
    family (:func:`~unocli.study.interaction.judge_family`: simultaneous
    intervals against ``+-margin``, a share, and Holm's p).
    """
    found = [((p,), a, b, comp.diff(a, b, quantity)) for p, comp in cells.items() for a, b in combinations(fields, 2)]
    out: dict[int, list[FieldInteraction]] = {}
    for i in judge_family(found, margin):
        out.setdefault(i.key[0], []).append(i)
    return out


def round_quantities(players: int) -> tuple[str, ...]:
    """What a round records at a table of ``players``: the roles (first player, dealer, each place) and every seat."""
    roles = ("win_first", "win_dealer", *(f"win_place_{k}" for k in range(1, players + 1)))
    return ("won", "turns", *roles, *(f"win_{s}" for s in range(players)))


def match_quantities(players: int) -> tuple[str, ...]:
    """What a match records: whether it was won, and by which seat."""
    return ("won", *(f"win_{s}" for s in range(players)))


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


def seat_rows(played: Played) -> pd.DataFrame:
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


def first_player_rows(played: Played, replicates: int, seed: int) -> pd.DataFrame:
    """Per table size and field: the first player's, the dealer's and seat 0's shares, the chi-square p, balance."""
    t = wide(played.frame, ROLES, arm="field", n="won")
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


def differences_frame(between: Mapping[str, Mapping[int, Sequence[FieldInteraction]]]) -> pd.DataFrame:
    """:func:`field_differences` of every role as one table: role, players, the two fields, the difference of their
    edges with its simultaneous interval and level, the verdict against the margin, deals, raw and Holm p."""
    rows = [
        {"role": role, "players": p, "field_a": i.field_a, "field_b": i.field_b, "difference": i.diff}
        | {"sim_low": i.low, "sim_high": i.high, "sim_level": i.level, "margin": i.margin, "verdict": i.verdict}
        | {"n": i.n, "p_raw": i.p, "p_holm": i.p_holm, "family": i.family}
        for role, by_size in between.items()
        for p, items in by_size.items()
        for i in items
    ]
    return pd.DataFrame(rows)


@dataclass(frozen=True)
class SeatAdvantage:
    """Who wins by seat and role, over the rounds and matches of every field at every table size.

    ``table``: players, field, n, first_player_share, ci_low, ci_high (Wilson;
    the seat that took the first turn), seat0_share, dealer_share with
    dealer_low/high, fair_share, ratio_to_fair (share x players) with
    ratio_low/high, chi2_p (chi-square test of equal seat shares among won
    rounds) and chi2_p_holm (Holm over the table's rows), balance with
    balance_low/high (block bootstrap) (:func:`first_player_rows`). ``seats``:
    every seat's share (:func:`seat_rows`); ``matches``: the same for matches,
    judged (:func:`match_verdicts`). ``rounds``: rounds per field at each
    table size; ``fair``: the balance a perfectly fair game would measure on
    that many. ``between``: per role (``first``, ``dealer``) and table size,
    the difference of its edge between every pair of fields
    (:func:`field_differences`), and ``differences`` the same as one table
    (:func:`differences_frame`). ``frame``: the rounds' tidy frame.
    """

    names: tuple[str, ...]
    table: pd.DataFrame
    seats: pd.DataFrame
    matches: pd.DataFrame
    rounds: dict[int, int]
    fair: dict[int, float]
    games: int
    between: dict[str, dict[int, list[FieldInteraction]]]
    differences: pd.DataFrame
    frame: pd.DataFrame

    @property
    def balance_table(self) -> pd.DataFrame:
        """The first-player table with ``fair_balance``: the balance a perfectly fair game shows at its size."""
        return self.table.assign(fair_balance=self.table["players"].map(self.fair))


def seat_advantage(rounds: Played, matches: Played, replicates: int, seed: int, margin_pp: float) -> SeatAdvantage:
    """The played rounds and matches read as shares by role and seat, judged against ``+-margin_pp`` (pp).

    ``replicates`` block-bootstrap replicates (seeded by ``seed``) give balance its interval.
    """
    comps = {p: c for (_, p), c in rounds.cells.items()}
    table = first_player_rows(rounds, replicates, seed)
    table["chi2_p_holm"] = holm(table["chi2_p"].to_numpy())
    between = {role: field_differences(comps, rounds.names, q, margin_pp / 100) for role, q in ROLE_QUANTITY.items()}
    return SeatAdvantage(
        names=rounds.names,
        table=table,
        seats=seat_rows(rounds),
        matches=match_verdicts(seat_rows(matches), margin_pp),
        rounds={p: c.games for p, c in comps.items()},
        fair={p: fair_balance(c.games, p) for p, c in comps.items()},
        games=sum(c.games * len(c.arms) for c in rounds.cells.values()),
        between=between,
        differences=differences_frame(between),
        frame=rounds.frame,
    )


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


def sides(table: pd.DataFrame, role: str, level: float | None = None) -> dict[int, dict[str, str]]:
    """Per table size and field: where the ``role``'s (first or dealer) share lies against 1/n (:func:`side`).

    ``level``: read each share's Wilson interval at that level (its wins are share x n) rather than the table's
    95% one: a claim over every cell at once reads them at :func:`family_level`.
    """
    out: dict[int, dict[str, str]] = {}
    for r in table.itertuples():
        point, low, high = (getattr(r, c) for c in ROLE_COLUMNS[role])
        if level is not None:
            w = wilson(round(point * int(r.n)), int(r.n), level)
            low, high = w.low, w.high
        out.setdefault(int(r.players), {})[str(r.field)] = side(point, low, high, r.fair_share)
    return out


def family_level(table: pd.DataFrame) -> float:
    """The simultaneous level of the shares of every row of ``table`` read together (Bonferroni: 1 - 0.05/k)."""
    return 1 - ALPHA / max(1, len(table))


@dataclass(frozen=True)
class Split:
    """Where the fields' edges of one role differ: per table size the pairs beyond the margin (``differ``), else
    those whose interval excludes 0 but crosses the margin (``unsized``: a difference of undecided size), the sizes
    where every pair lies within it (``within``), the rest (``undecided``), and the family's level."""

    differ: dict[int, list[FieldInteraction]]
    within: list[int]
    undecided: list[int]
    level: float | None
    unsized: dict[int, list[FieldInteraction]] = field(default_factory=dict)


def split(found: Mapping[int, Sequence[FieldInteraction]]) -> Split:
    """The paired differences of one role's edge between fields (:func:`field_differences`) by their verdicts."""

    def pairs(verdict: str, sizes: Iterable[int]) -> dict[int, list[FieldInteraction]]:
        return {p: items for p in sizes for items in [[i for i in found[p] if i.verdict == verdict]] if items}

    differ = pairs(LARGER, found)
    unsized = pairs(UNSIZED, (p for p in found if p not in differ))
    within = [p for p, items in found.items() if all(i.verdict in WITHIN_MARGIN for i in items)]
    rest = [p for p in found if p not in differ and p not in unsized and p not in within]
    return Split(differ, within, rest, next(iter(found.values()))[0].level if found else None, unsized)


@dataclass(frozen=True)
class Evenness:
    """Whether whole matches even the seats out, per table size: every seat's match edge within the margin
    (``even``), some seat's beyond it (``apart``), equal shares rejected by the Holm-adjusted chi-square
    (``uneven``), and the median simultaneous half-width of the edges (a share)."""

    even: list[int]
    apart: list[int]
    uneven: list[int]
    half_width: float


def even_sizes(matches: pd.DataFrame) -> list[int]:
    """The table sizes where every seat's match edge (``edge_verdict``) lies within the margin."""
    return [int(p) for p, ok in matches.groupby("players")["edge_verdict"].agg(lambda v: set(v) <= WITHIN_MARGIN).items() if ok]


def evenness(matches: pd.DataFrame, field: str) -> Evenness:
    """The judged matches (:func:`match_verdicts`) of one field."""
    sub = matches[matches["field"] == field]
    return Evenness(
        even=even_sizes(sub),
        apart=[int(p) for p, bad in sub.groupby("players")["edge_verdict"].agg(lambda v: LARGER in set(v)).items() if bad],
        uneven=sorted({int(p) for p in sub.loc[sub["chi2_p_holm"] < ALPHA, "players"]}),
        half_width=float(((sub["edge_sim_high"] - sub["edge_sim_low"]) / 2).median()),
    )
