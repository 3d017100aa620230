"""The bluff report's words: the rule a player can use, the answer, the findings, over the analysis's frames.

Every word of change ("pays", "loses") comes from a verdict of
:func:`~unocli.study.stats.classify` (:func:`~unocli.report.words.change_word`):
only a change larger than the margin is one. A claim that a bluff holds under
one field and not another comes from the fields' interaction on common deals
(its own simultaneous interval, :func:`~unocli.report.analyses.fields.scope`),
never from two verdict labels.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Any

import numpy as np
import pandas as pd

from unocli.analysis.bluff_decision import BEST, FINE_OWN, MIN_GAMES, DecisionResult, best_column, challengers
from unocli.analysis.bluff_grid import Grid
from unocli.analysis.bluff_play import ANY, CHALLENGE_RESET, CHALLENGERS, NEXT_BANDS
from unocli.analysis.bluff_situations import SituationResult
from unocli.game.policies import Policy, Respond
from unocli.report import fmt
from unocli.report.analyses.common import verdict_text
from unocli.report.analyses.fields import fields_text
from unocli.report.experiment import Experiment
from unocli.report.words import between_text, change_word, level, listed, scope
from unocli.study.interaction import FieldInteraction
from unocli.study.stats import LARGER, VERDICTS

INFORMED = (
    "informed = challenges when the +4's player last showed the colour under it, trusts when that player "
    "was seen lacking it, otherwise challenges one in four"
)
RATE_WORDS = {0.0: "never", 0.25: "one in four", 0.5: "one in two", 0.75: "three in four", 1.0: "always"}
#: The verdict words of the situation table, in the order the findings count them.
WORDS = ("pays", "loses", "a change of undecided size", "negligible", "no change", "undecided")


def pp(x: float, lo: float, hi: float, decimals: int | None = 2) -> str:
    """A gain already in pp with its interval: ``+0.12 pp [-0.05, +0.29]``."""
    return fmt.pp_ci(x / 100, lo / 100, hi / 100, decimals)


def verdict_counts(verdicts: pd.Series, words: Iterable[str] = VERDICTS) -> str:
    """How many of ``verdicts`` are each of ``words``: "larger 5, unsized 2, ..."."""
    return ", ".join(f"{v} {int((verdicts == v).sum())}" for v in words)


def between_summary(between: pd.DataFrame, what: str) -> str:
    """A family of interactions in one sentence: its verdict counts, and the pairs of fields that differ beyond the
    margin with how many cells (or that the fields cannot be told apart)."""
    head = f"Between fields, {what} by {what} (interactions on common deals, simultaneous {level(between)}% intervals "
    head += f"over {len(between)})"
    larger = between[between["verdict"] == LARGER].groupby(["field_a", "field_b"], sort=False).size()
    if len(larger):
        pairs = "; ".join(f"{a} and {b} in {k} {what}(s)" for (a, b), k in larger.items())
        return f"{head}: {verdict_counts(between['verdict'])}; the value differs by more than the margin between {pairs}."
    return f"{head}: {verdict_counts(between['verdict'])}; {between_text(judged(between))}."


def _rows(frame: pd.DataFrame, **key: Any) -> pd.DataFrame:
    for col, value in key.items():
        frame = frame[frame[col] == value]
    return frame


# an interactions frame's columns, in the order FieldInteraction takes them after its standard error and n
_JUDGED = ("sim_low", "sim_high", "sim_level", "family", "margin_pp", "verdict", "p", "p_holm")


def judged(between: pd.DataFrame, **key: Any) -> list[FieldInteraction]:
    """The interactions of one cell (``key``: column values), as :func:`~unocli.report.analyses.fields.scope` reads them."""
    return [
        FieldInteraction((), r.field_a, r.field_b, r.interaction_pp, math.nan, 0, *(getattr(r, k) for k in _JUDGED))
        for r in _rows(between, **key).itertuples()
    ]


# ---------------------------------------------------------------- the fields' own play


def own_challenge(policy: Policy) -> str:
    """What a field's own policy does facing a +4 (no stacking), in words."""
    if policy.respond is Respond.UNIFORM:
        return "challenges one time in two (uniform over challenge and accept)"
    informed = any(getattr(policy, k) != v for k, v in CHALLENGE_RESET.items() if k != "challenge")
    words = {0.0: "never challenges", 1.0: "always challenges"}.get(
        policy.challenge, f"challenges with probability {policy.challenge:g}"
    )
    return words + (" plus informed rules" if informed else "")


def note(policies: dict[str, Policy]) -> str:
    """The note on fields whose own policy ignores the challenge knobs (random), or ''."""
    names = [f"`{name}`" for name, pol in policies.items() if pol.respond is Respond.UNIFORM]
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


# ---------------------------------------------------------------- the decision


def decision_answers(t: pd.DataFrame) -> list[str]:
    few = f"too few games (< {MIN_GAMES})"
    return [
        change_word(v, x, "the +4 pays", "the other card pays") if isinstance(v, str) else few
        for v, x in zip(t["verdict"], t["value_pp"], strict=True)
    ]


def _fine(t: pd.DataFrame) -> pd.DataFrame:
    """A decision table's cells of one band of the next player's hand and one of the acting seat's (neither any)."""
    return t[(t["next_hand"] != ANY) & (t["own_hand"] != ANY)]


def _paying(dec: DecisionResult, field: str, name: str) -> list[tuple[str, str]]:
    fine = _fine(_rows(dec.table, field=field, challenger=name))
    return [(r.next_hand, r.own_hand) for r in fine.itertuples() if r.verdict == LARGER and r.value_pp > 0]


def _where(cells: list[tuple[str, str]]) -> str:
    """Fine cells (next band, own band) in words: a whole next band as one clause."""
    parts = []
    for nb, _, _ in NEXT_BANDS:
        own = [ob for n, ob in cells if n == nb]
        holds = f"{nb} card" if nb == "1" else f"{nb} cards"
        if own:
            parts.append(
                f"the next player holds {holds}" + ("" if len(own) == len(FINE_OWN) else f" and you hold {' or '.join(own)}")
            )
    return "; or ".join(parts)


def _rate_text(names: list[str], best: float) -> str:
    words = [RATE_WORDS[float(n)] for n in names if n != BEST]
    rates = (words[0] if len(words) == 1 else f"{words[0]} to {words[-1]}") if words else ""
    if best_column(best) in names:  # the best response is one of these rates, never a column of its own
        rates += f" (the best-response rate {best:.2f}{' among them' if len(words) > 1 else ''})"
    extra = [f"at the best-response rate {best:.2f}"] if BEST in names else []
    return " and ".join(t for t in [rates and f"who challenges {rates}", *extra] if t)


def advice(dec: DecisionResult, field: str) -> str:
    """The advice under one field: "bluff" only where the +4 now beats the best other card beyond the margin (verdict
    larger); a run of challenge rates with the same cells is one clause, and the best-response rate joins the clause
    with its cells; everything else is "otherwise"."""
    clauses: list[tuple[list[str], list[tuple[str, str]]]] = []
    for name, _ in challengers(dec.best_rate):
        pays = _paying(dec, field, name)
        same = (
            [c for c in clauses if c[1] == pays] if name == BEST else clauses[-1:] if clauses and clauses[-1][1] == pays else []
        )
        if same:
            same[0][0].append(name)
        else:
            clauses.append(([name], pays))
    said = [f"against a victim {_rate_text(names, dec.best_rate)}, when {_where(cells)}" for names, cells in clauses if cells]
    return (
        "bluff " + "; ".join(said) + "; otherwise play your best other card" if said else "never bluff; play your best other card"
    )


def _apart(dec: DecisionResult) -> str:
    """Where the fields' advice differs: what the interactions of the cells whose verdicts differ say."""
    differing = []
    for name, _ in challengers(dec.best_rate):
        sets = {f: set(_paying(dec, f, name)) for f in dec.fields}
        union = set().union(*sets.values())
        differing += [(name, nb, ob) for nb, ob in union if not all((nb, ob) in s for s in sets.values())]
    found = [i for name, nb, ob in differing for i in judged(dec.between, challenger=name, next_hand=nb, own_hand=ob)]
    if not found:
        return "the fields cannot be told apart: the cells that differ have too few games"
    pairs = list(dict.fromkeys(f"{i.field_a} and {i.field_b}" for i in found if i.verdict == LARGER))
    if pairs:  # each pair once, however many of its cells differ
        return f"the value differs by more than the margin between {'; '.join(pairs)}, by interactions on common deals"
    return between_text(found)


def _span(dec: DecisionResult, challenger: str) -> str:
    """The +4 now minus the best other card over every position, lowest field to highest."""
    every = _rows(dec.table, next_hand=ANY, challenger=challenger).sort_values("value_pp")
    ends = [_end(r) for r in every.iloc[[0, -1]].itertuples()]
    return ends[0].removesuffix(f" ({every['field'].iloc[0]})") if len(every) == 1 else f"{ends[0]} to {ends[1]}"


def _end(r: Any) -> str:
    """One field's value over every position: ``-5.7 pp [-6.2, -5.2] (basic)``, or without an interval, why not."""
    if math.isfinite(r.sim_low):
        return f"{pp(r.value_pp, r.sim_low, r.sim_high, 1)} ({r.field})"
    return f"{fmt.pp(r.value_pp / 100, 1)} ({r.field}; no interval, under {MIN_GAMES} deals)"


def _positions(dec: DecisionResult) -> str:
    """ "n = 154,007 positions under random, ..." (every position of each field, pooled over situations)."""
    every = _rows(dec.table, next_hand=ANY, challenger="0").drop_duplicates("field")
    return "n = " + ", ".join(f"{fmt.count(int(r.n_positions))} positions under {r.field}" for r in every.itertuples())


def rule(dec: DecisionResult) -> str:
    """The rule a player can use (under ~80 words): one clause for the fields whose advice agrees, and where it does
    not, what the fields' interactions say. Its values over every position follow in :func:`rule_values`."""
    groups: dict[str, list[str]] = {}
    for f in dec.fields:
        groups.setdefault(advice(dec, f), []).append(f)
    names = {a: listed([f"`{f}`" for f in fields]) for a, fields in groups.items()}
    if len(groups) == 1:
        alike = " alike" if len(dec.fields) > 1 else ""
        body = f"({next(iter(names.values()))} players{alike}, {dec.players} at the table): {next(iter(groups))}."
    else:
        body = f"({dec.players} at the table): " + "; ".join(f"under {names[a]}, {a}" for a in groups) + f" ({_apart(dec)})."
    return "**Rule.** Holding a +4 and a card of the colour in play " + body


def rule_values(dec: DecisionResult) -> str:
    """The rule's evidence: the +4 now minus the best other card over every position; what "bluff" and "play your
    best other card" rest on; where the best-response rate comes from."""
    return (
        f"Over every position the +4 now minus the best other card is {_span(dec, '0')} of round wins if never "
        f"challenged, {_span(dec, '1')} if always (simultaneous intervals over the decision table; {_positions(dec)}). "
        f"The rule says bluff only where the +4 is shown to beat the best other card by more than the margin "
        f"(+/-{fmt.num(dec.margin_pp)} pp); elsewhere playing the other card is the advice, not a play shown better: in "
        "some cells neither is (the decision table's verdicts). The best-response rate is the equilibrium challenge "
        "rate of the grid of blind bluff rates below, played by `basic` against `basic`."
    )


def challenger_text(dec: DecisionResult) -> str:
    """The decision table's challenger columns in words: the rates, and the best response, a column of its own only
    when its rate is not one of them (else that column: never the same cells twice)."""
    rates = ", ".join(name for name, _ in challengers(dec.best_rate) if name != BEST)
    same = best_column(dec.best_rate)
    if same is None:
        return f"c = {rates} and the best response c = {dec.best_rate:.2f}"
    return f"c = {rates}; the best response c = {dec.best_rate:.2f} is the c = {same} column, counted once"


def best_note(dec: DecisionResult) -> str:
    """The decision table's note on its best-response column: the grid's equilibrium rate, or the rate's column it is."""
    same = best_column(dec.best_rate)
    said = f"The best response c = {dec.best_rate:.2f} is the equilibrium challenge rate of the grid below"
    return f"{said}." if same is None else f"{said}: the column c={same}, shown and counted once."


def best_panel(dec: DecisionResult) -> str:
    """The decision chart's words on the best response when its rate is one of the rates (then it has no panel), or ''."""
    same = best_column(dec.best_rate)
    return "" if same is None else f"; the best response c = {dec.best_rate:.2f} is c = {same}, no panel of its own"


def decision_findings(dec: DecisionResult) -> list[str]:
    out = []
    for f in dec.fields:
        cells = _fine(_rows(dec.table, field=f))
        words = pd.Series(decision_answers(cells))
        counts = verdict_counts(words, words.drop_duplicates())
        out.append(
            f"At the decision under `{f}`, {advice(dec, f)}; over the {len(cells)} situation x challenger cells "
            f"({challenger_text(dec)}): {counts} "
            f"(margin +/-{fmt.num(dec.margin_pp)} pp of round wins; a position's value is the +4 now minus the best other "
            "card, not a policy's effect divided by its bluffs)."
        )
    if len(dec.between):
        out.append(between_summary(dec.between, "cell"))
    return out


# ---------------------------------------------------------------- the situations


def situation_words(t: pd.DataFrame) -> list[str]:
    """The situation table's verdicts as the answer to "does the bluff pay?": "pays"/"loses" only beyond the margin."""
    return [change_word(v, g, "pays", "loses") for v, g in zip(t["gain_verdict"], t["gain_pp"], strict=True)]


def _by_field(sit: SituationResult, ch: str, nb: str) -> str:
    """Where one pooled cell's verdict holds across fields, with the fields' interactions, then each field's figure."""
    t = _rows(sit.situations, challenge_policy=ch, next_hand=nb, own_hand=ANY)
    words = dict(zip(t["field"], situation_words(t), strict=True))
    figures = "; ".join(f"{r.field} {pp(r.gain_pp, r.gain_sim_low, r.gain_sim_high)}" for r in t.itertuples())
    between = judged(sit.between, challenge_policy=ch, next_hand=nb, own_hand=ANY) if len(sit.fields) > 1 else None
    return f"{scope(words, between)} ({figures})"


def answer(sit: SituationResult) -> str:
    """The situations' answer: bluffing at every chance against never and always challengers, across fields."""
    fields = "`, `".join(sit.fields)
    return (
        f"**Answer.** Every seat plays the same field (`{fields}`); seat 0 bluffs, the opponents never do. Bluffing a +4 "
        f"at every chance, against opponents who never challenge: {_by_field(sit, 'never', ANY)}; against opponents who "
        f"always challenge: {_by_field(sit, 'always', ANY)}. Bluffing only when the next player holds 1 card, against "
        f"never-challengers: {_by_field(sit, 'never', '1')}. Simultaneous {level(sit.situations)}% "
        f"intervals over the whole situation table; {sit.players} players, n = {fmt.count(sit.sizes.situations)} paired "
        "deals per cell."
    )


def situation_findings(sit: SituationResult, policies: dict[str, Policy]) -> list[str]:
    t, n, m = sit.situations.assign(verdict=situation_words(sit.situations)), sit.players, fmt.num(sit.margin_pp)
    out = []
    if len(sit.fields) > 1:
        for label, nb in (("Bluffing at every chance", ANY), ("Bluffing only when the next player holds 1 card", "1")):
            parts = [f"against '{ch}' challengers, {_by_field(sit, ch, nb)}" for ch, _ in CHALLENGERS]
            out.append(f"{label}, across {fields_text(sit.fields)} (simultaneous intervals): " + "; ".join(parts) + ".")
        out.append(between_summary(sit.between, "situation"))
    for f in sit.fields:
        parts = []
        for ch, _ in CHALLENGERS:
            sub = _rows(t, field=f, challenge_policy=ch)
            sub = sub[sub["next_hand"] != ANY]
            groups = []
            for word in WORDS:
                names = ", ".join(f"{r.next_hand}/{r.own_hand}" for r in sub[sub["verdict"] == word].itertuples())
                listed = names and word in ("pays", "negligible", "no change")
                groups.append(f"{word} {int((sub['verdict'] == word).sum())}" + (f" ({names})" if listed else ""))
            parts.append(f"'{ch}': " + ", ".join(groups))
        out.append(
            f"Under field `{f}` (seat 0 and opponents 1-{n - 1} play {f}; the opponents never bluff), bluffing only in one "
            "situation (next holds / own hand), by challenge policy: " + "; ".join(parts) + "."
        )
    out.append(
        "Why a bluff can pay when the next player holds 1 card: an unchallenged +4 makes the victim take 4 cards and "
        "miss a turn (docs/rules.md §4), the very turn on which a player holding one card could go out, where the honest "
        "twin's card of the current colour leaves it that chance. A challenged bluff is caught (§5) and the bluffer "
        "takes the 4 instead, so the more the field challenges, the less any situation is worth."
    )
    cells = t[t["next_hand"] != ANY]
    half = float(((cells["gain_sim_high"] - cells["gain_sim_low"]) / 2).median())
    games = sit.sizes.situations
    need = [math.ceil(games * (half / x) ** 2) for x in (sit.margin_pp, 0.05)]
    out.append(
        f"Sample size: n = {fmt.count(games)} deals per cell give a median simultaneous half-width of {fmt.fixed(half, 2)} "
        f"pp (about {fmt.count(need[0])} deals would tell a gain from +/-{m} pp in every cell, {fmt.count(need[1])} a "
        f"0.05 pp gain); bluffs are rare in any one situation (at most {fmt.fixed(cells['bluffs_per_game'].max(), 2)} "
        f"per game in one cell). 'no change' and 'negligible' are equivalence verdicts (simultaneous interval inside "
        f"+/-{m} pp, without and with 0 excluded); 'pays' and 'loses' say the interval lies entirely beyond the margin."
    )
    return out + _deviation_findings(sit, policies) + _fixed_point_findings(sit)


def _deviation_findings(sit: SituationResult, policies: dict[str, Policy]) -> list[str]:
    d, out = sit.deviations, []

    def said(r: Any) -> str:
        return f"{pp(r.diff_pp, r.win_sim_low, r.win_sim_high)} ({r.win_verdict})"

    for f in sit.fields:
        sub = d[d["field"] == f]
        own = [said(_rows(sub, effect=f"seat {s} alone bluffs at every chance", seat=s).iloc[0]) for s in range(sit.players)]
        pay = _rows(sub, effect="seat 0 alone bluffs at every chance")
        out.append(
            f"Who pays under field `{f}` (every other seat plays {f} and {own_challenge(policies[f])}, honest; simultaneous "
            f"intervals, n = {fmt.count(sit.sizes.deviations)} deals): a seat bluffing at every chance alone changes its own "
            "win share by, per seat, " + "; ".join(f"seat {s} {x}" for s, x in enumerate(own))
            + "; seat 0's bluffs move each seat by " + "; ".join(f"{r.role} {said(r)}" for r in pay.itertuples()) + "."
        )  # fmt: skip
        moves = sub[sub["effect"].str.contains("challenges") & (sub["seat"] == sub["deviator"])]
        changes = "; ".join(f"{r.effect.removesuffix(', seat 0 bluffing')}: {said(r)}" for r in moves.itertuples())
        out.append(f"Under field `{f}`, against an always-bluffing seat 0, the deviating seat's own gain when {changes}.")
    return out


def _fixed_point_findings(sit: SituationResult) -> list[str]:
    out, seats = [], [f"seat_{s}" for s in range(sit.players)]
    for f in sit.fields:
        ends = sit.fixed_points[sit.fixed_points["field"] == f]
        texts = []
        for r in ends.itertuples():
            profile = ", ".join(f"seat {s}: {getattr(r, k)}" for s, k in enumerate(seats))
            state = f"a fixed point after {r.rounds} round(s)" if r.fixed_point else f"no fixed point in {r.rounds} rounds"
            texts.append(f"from '{r.start}', {state}: {profile}")
        agree = "agree" if len(ends[seats].drop_duplicates()) == 1 else "end at different profiles"
        out.append(f"Best responses under field `{f}`: " + "; ".join(texts) + f" (the start points {agree}).")
    out.append(
        f"Where start points end at different profiles, at {fmt.count(sit.sizes.turn)} deals per turn the search cannot "
        "tell them apart (the remaining gains lie inside their intervals in the iteration table): what they share is "
        "what the search supports. A fixed point here is a best response over the knobs searched (bluff: honest, only "
        "when the next player holds 1 card, always; challenge: never, one in four, informed, always), at the sample "
        "size used: no seat had a strategy in that space that beat its own by a margin the sample could detect. It is "
        "not a Nash equilibrium of Uno."
    )
    return out


# ---------------------------------------------------------------- the grid


def grid_policies(g: Grid, exp: Experiment) -> str:
    opt = exp.options
    seats = f"seats 1-{g.players - 1}: {opt['opponents']} with challenge rate c, never bluffing"
    return f"seat 0: {opt['bluffer']} with bluff rate b; {seats}"


def grid_intro(result: Any) -> str:
    exp = result.exp
    grid = f"The grid of blind bluff rates (the last part, `{exp.options['bluffer']}` against `{exp.options['opponents']}` only)"
    return f"{grid}: {grid_policies(result.grid, exp)}; rules {exp.base.rules}; {result.players} players."


def cell_text(g: Grid, i: int, j: int) -> str:
    """A cell's gain in points, starred when significant after Holm."""
    return fmt.fixed(100 * g.gain[i, j], 2, sign=True) + ("*" if g.p_holm[i, j] < 0.05 else "")


def rate_text(x: float, top: float) -> str:
    """A break-even challenge rate in words where it is not a number."""
    if x == -np.inf:
        return "never pays"
    return f"pays beyond {top:g}" if x == np.inf else fmt.fixed(x, 2)


def rate_ci_text(lo: float, hi: float, top: float, replicates: int) -> str:
    """The bootstrap interval of a break-even rate; a bound past the grid on both sides is said in words."""
    if lo == hi and not math.isfinite(lo):
        return f"({rate_text(lo, top)} in at least 97.5% of {replicates} bootstrap replicates)"
    return f"[{rate_text(lo, top)}, {rate_text(hi, top)}]"


def _break_even(g: Grid) -> str:
    """Where the bluffer's gain pooled over bluff rates crosses 0 (point estimates; a bootstrap interval of the rate)."""
    c_star, c_text = g.break_even, rate_ci_text(g.break_even_low, g.break_even_high, g.cvals[-1], g.replicates)
    if math.isfinite(c_star):
        said = f"crosses 0 at a challenge rate of {c_star:.2f} (95% CI {c_text})"
    elif c_star < 0:
        said = "is at or below 0 already against opponents who never challenge, so there is no break-even challenge "
        said += f"rate {c_text}"
    else:
        said = f"stays above 0 at every challenge rate of the grid ({c_text})"
    return f"The bluffer's gain, pooled over bluff rates, {said}."


def grid_findings(g: Grid, exp: Experiment) -> list[str]:
    """The grid's findings, each prefixed with the one pair of policies it plays."""
    never, always, v = (fmt.pp_ci(x[0], x[1], x[2], 2) for x in (g.gain_ci[-1, 0], g.gain_ci[-1, -1], g.value_ci[-1, -1]))
    m = exp.margins["win_share_pp"]
    half = int(np.argmin(abs(g.cvals - 0.5)))
    caught = g.per_bluff.iloc[half]
    out = [
        f"Against opponents who never challenge, bluffing at every chance (b={g.bvals[-1]:g}) changes the bluffer's win "
        f"share by {never} (paired 95% interval, {g.players} players, n = {fmt.count(g.deals)} deals).",
        f"Against opponents who always challenge (c={g.cvals[-1]:g}), the same bluffing changes it by {always}.",
        _break_even(g),
        f"A bluff is caught about as often as it is challenged (share caught at c={g.cvals[half]:g}: "
        f"{fmt.share_ci(caught['caught'], caught['caught_low'], caught['caught_high'], 0)}, block-bootstrap 95%, "
        f"n = {fmt.count(g.deals)} deals per cell): a caught bluff costs the bluffer 4 cards, an uncaught one "
        "costs the victim 4, so counted in cards alone a bluff breaks even at a challenge rate of one half.",
        "A bluff does not add a +4 to the game: it plays earlier a card the honest twin keeps for when it holds nothing "
        "of the current colour, and then plays anyway. What that is worth at one decision is in the decision table.",
        f"For the victims, always challenging an always-bluffing seat 0 is worth {v} of win share per "
        "opponent on average; per seat it is not shared evenly:",
    ]
    for what, sub in g.per_seat.groupby("effect", sort=False):
        parts = [
            f"{r.role} {fmt.pp_ci(r.diff, r.win_sim_low, r.win_sim_high, 2)} ({verdict_text(r.win_verdict, f'{fmt.num(m)} pp')})"
            for r in sub.itertuples()
        ]
        out.append(
            f"{what}, per seat (simultaneous intervals, n = {fmt.count(sub['n'].iloc[0])} deals): " + "; ".join(parts) + "."
        )
    eq = g.equilibrium
    out.append(
        f"Equilibrium (neither side gains by changing its rate): bluff rate {eq.bluff_rate:.2f}, challenge rate "
        f"{eq.challenge_rate:.2f}, when the three opponents share one challenge rate and the bluffer bluffs blind "
        "(the equilibrium table gives the spread of these over bootstrap resamples, not a confidence interval); plain "
        f"alternating best responses between grid points {'cycle' if eq.path[-1] != eq.path[-2] else 'settle'}."
    )
    others = g.others[g.others["players"] != g.players] if len(g.others) else g.others
    sizes = [
        f"{r.players} players, c={r.challenge_rate:g}: {fmt.pp_ci(r.diff, r.diff_low, r.diff_high, 2)} (n = {fmt.count(r.n)})"
        for r in others.itertuples()
    ]
    said = "paired 95% intervals, each read alone; the other-table-sizes table gives Holm-adjusted p"
    out += [f"Other table sizes, the bluffer's gain at b={g.bvals[-1]:g}: {'; '.join(sizes)} ({said})."] if sizes else []
    pair = f"Grid, `{exp.options['bluffer']}` against `{exp.options['opponents']}` only: "
    return [pair + f[0].lower() + f[1:] for f in out]
