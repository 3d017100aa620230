"""The bluff at the decision (kernel/bluff_decision.py, reference/bluff_decision.py, analysis/bluff_decision.py).

Positions whose values are known by hand, measured by both engines; the two engines' rows game by game; the
decision table's n and means against a hand count over the kept rows; the clustered interval against the
sandwich formula written out cluster by cluster.
"""

from __future__ import annotations

import math
import re

import numpy as np
import pandas as pd
import pytest
from scipy import stats as sps
from test_search import kernel_position, rest_of_deck

from unocli.analysis import bluff_decision as bd
from unocli.game.cards import parse_card, parse_cards
from unocli.game.policies import parse_policy_spec
from unocli.game.rng import Stream
from unocli.game.rules import preset as rules_preset
from unocli.reference import bluff_decision as ref
from unocli.reference.engine import HAND, Round
from unocli.reference.search import clone
from unocli.study.stats import LARGER

RED = 0
BUDGET = 8


def kernel_row(rnd: Round, seat: int, budget: int, accept, challenge) -> list[int]:
    """The kernel's measurement of ``rnd``'s position, loaded into a workspace as tests/test_search.py loads one (the
    seen-records included: the re-deal reads them)."""
    from unocli.kernel.bluff_decision import measure_at
    from unocli.kernel.encode import encode_policies

    ws, hs, ds, rs = kernel_position(rnd)
    fprobs, fints, fprio = encode_policies((accept, challenge))
    return [int(x) for x in measure_at(ws, hs, ds, rs, seat, budget, fprobs, fints, fprio)]


def _last_red(spec: str = "basic") -> Round:
    """Two players; seat 0 holds W+4 R5 on R3, and every card it cannot see is red: R7 in the opponent's hand,
    R1 R2 R4 R6 in the draw pile (each a card of some rank the discard pile leaves)."""
    rules = rules_preset("official").replace(players=2)
    hands, draw, top = ["W+4 R5", "R7"], "R1 R2 R4 R6", "R3"
    discard = [*rest_of_deck(*hands, draw, top), parse_card(top)]
    pols = [parse_policy_spec(spec).replace(bluff=0.0)] * 2
    return Round.from_position(rules, pols, hands, discard=discard, draw=parse_cards(draw))


def _both(rnd: Round) -> dict[str, int]:
    accept, challenge = bd.responders(rnd.policies[0])
    row = ref.measure(rnd, 0, BUDGET, accept, challenge)
    assert kernel_row(rnd, 0, BUDGET, accept, challenge)[1:] == row[1:], "kernel and reference measure differently"
    return dict(zip(ref.COLUMNS, row, strict=True))


def test_a_bluff_accepted_before_the_last_card_wins_and_the_other_card_loses() -> None:
    """By hand (every unseen card red, whatever the re-deal): the +4 naming red, accepted, makes the opponent draw 4
    and miss its turn, and R5 goes out: every rollout wins. Challenged, the bluff is shown (seat 0 holds R5 of the
    colour under it): seat 0 draws the 4 and the opponent, keeping its turn on red, plays its red card and wins:
    every rollout loses. R5 now lets the opponent's red card go out at once: every rollout loses."""
    row = _both(_last_red())
    assert row["own_hand"] == 2 and row["next_hand"] == 1 and row["options"] == 1
    assert row["alt_card"] == parse_card("R5") and row["alt_colour"] == -1
    for half in ("_select", ""):
        assert row[f"accept{half}_{RED}"] == BUDGET
        assert row[f"challenge{half}_{RED}"] == 0
    assert row["alt"] == 0 and row["alt_select"] == 0
    frame = pd.DataFrame([row])
    # never challenged: +4 (red, the best colour) minus R5 = 1 - 0; as many wins accepted as the other colours can give
    assert bd.values(frame, 0.0, BUDGET)[0] == 1.0
    # c = 1/2 with red: (1/2) 1 + (1/2) 0 - 0; another colour can only be chosen if it does at least as well
    assert bd.values(frame, 0.5, BUDGET)[0] >= 0.5


def test_a_challenged_bluff_costs_the_bluffer_the_penalty() -> None:
    """The challenge branch itself, in the reference engine: the bluff is caught, seat 0 draws 4 and the opponent
    keeps its turn (then wins with its red card)."""
    rnd = _last_red()
    _, challenge = bd.responders(rnd.policies[0])
    sim = clone(rnd, (rnd.policies[0], challenge), Stream(1, 2, 3), ref.RolloutDecider(RED))
    sim._play(0, parse_card("W+4"), HAND)
    assert sim.stats.challenges == 1 and sim.stats.challenges_won == 1
    assert sim.hand_size(0) == 1 + 4 and sim.current == 1 and sim.colour == RED


def test_measuring_leaves_the_game_alone() -> None:
    """A game with its positions measured ends as the same game unmeasured (the measurement reads the play stream,
    never draws from it): its last turn count and winner, in the reference engine."""
    from unocli.reference.engine import play_round

    rules = rules_preset("official")
    field = parse_policy_spec("basic")
    accept, challenge = bd.responders(field)
    for index in range(3):
        plain = play_round(rules, (field,) * 4, 11, index)
        rnd = Round.deal(rules, (field,) * 4, 11, index, log=False)
        measured = 0
        while True:
            if not rnd.pending and rnd.can_bluff(rnd.current):
                ref.measure(rnd, rnd.current, 1, accept, challenge)
                measured += 1
            if not rnd.step():
                break
        assert (rnd.stats.turns, rnd.stats.winner) == (plain.stats.turns, plain.stats.winner)
        assert rnd.stats.cards_left == plain.stats.cards_left


@pytest.mark.parametrize(
    ("players", "spec", "house"),
    [
        (4, "basic", {}),
        (4, "random", {}),
        (3, "smart", {}),
        (2, "basic", {}),
        (4, "strong:challenge_if_own_colour=true", {}),
        (4, "basic", {"jump_in": True, "seven_o": True, "draw_until_playable": True}),
    ],
)
def test_the_engines_measure_the_same_positions_game_by_game(players: int, spec: str, house: dict) -> None:
    """The kernel driver composes search.py's re-deal and rollouts with its own +4 rollout and game loop: the same rows
    as the reference twin, game by game, at budget 2 (every column: positions, options, chosen card, every total)."""
    from unocli.kernel.bluff_decision import decisions

    rules = rules_preset("official").replace(players=players, **house)
    field = parse_policy_spec(spec).replace(bluff=0.0)
    accept, challenge = bd.responders(field)
    kernel = decisions(rules, field, accept, challenge, seed=7, start=bd.START, count=4, budget=2, threads=2)
    reference = np.array(ref.decisions(rules, field, accept, challenge, seed=7, start=bd.START, count=4, budget=2))
    assert len(reference) > 0
    assert kernel.shape == reference.shape and (kernel == reference).all()


# ---------------------------------------------------------------- the table


@pytest.fixture(scope="module")
def kept() -> pd.DataFrame:
    from unocli.kernel.bluff_decision import COLUMNS, decisions

    rules = rules_preset("official")
    field = parse_policy_spec("basic")
    accept, challenge = bd.responders(field)
    rows = decisions(rules, field, accept, challenge, seed=3, start=bd.START, count=300, budget=4, threads=2)
    frame = pd.DataFrame(rows, columns=list(COLUMNS))
    frame.insert(0, "field", "basic")
    return frame


def test_the_tables_n_and_means_are_a_hand_count_of_the_kept_rows(kept: pd.DataFrame) -> None:
    """Every cell's n, games and mean, recounted from the kept rows with plain loops (never challenged: +4 accepted in
    its best selection colour minus the other card, over the budget; always challenged likewise)."""
    table = bd.table(kept, 4, 0.3, 0.5)
    bands = {"1": (1, 1), "2": (2, 2), "3": (3, 3), "4": (4, 4), "5+": (5, 108), "any": (1, 108)}
    own = {"2-3": (2, 3), "4-6": (4, 6), "7+": (7, 108), "any": (1, 108)}
    for r in table[table["challenger"].isin(["0", "1"])].itertuples():
        total, n, games = 0.0, 0, set()
        branch = "accept" if r.challenger == "0" else "challenge"
        for row in kept.itertuples():
            if not (bands[r.next_hand][0] <= row.next_hand <= bands[r.next_hand][1]):
                continue
            if not (own[r.own_hand][0] <= row.own_hand <= own[r.own_hand][1]):
                continue
            sel = [getattr(row, f"{branch}_select_{c}") for c in range(4)]
            best = sel.index(max(sel))
            total += (getattr(row, f"{branch}_{best}") - row.alt) / 4
            n += 1
            games.add(row.game)
        assert (r.n_positions, r.n_games) == (n, len(games))
        assert r.value_pp == pytest.approx(100 * total / n, abs=1e-9)
    # the fine cells partition the positions; "any" holds them all
    every = table[(table["next_hand"] == "any") & (table["challenger"] == "0")]
    assert int(every["n_positions"].iloc[0]) == len(kept)


def test_the_clustered_interval_is_the_sandwich_written_out() -> None:
    """CR1 by hand: deviations summed per cluster, squared, times G / (G - 1), over n^2; t with G - 1 df (scipy)."""
    rng = np.random.default_rng(4)
    clusters = np.repeat(np.arange(40), rng.integers(1, 6, 40))
    effect = rng.normal(0, 1, 40)[clusters]  # a shared effect per cluster: the clustered se is larger
    x = effect + rng.normal(0, 0.5, len(clusters))
    d = bd.clustered_mean(x, clusters)
    mean = x.mean()
    sums = [sum(x[i] - mean for i in range(len(x)) if clusters[i] == g) for g in range(40)]
    var = 40 / 39 * sum(s * s for s in sums) / len(x) ** 2
    half = sps.t.ppf(0.975, 39) * math.sqrt(var)
    assert d.se == pytest.approx(math.sqrt(var), rel=1e-12)
    assert (d.low, d.high) == pytest.approx((mean - half, mean + half), rel=1e-12)
    assert d.p == pytest.approx(2 * sps.t.sf(abs(mean) / math.sqrt(var), 39), rel=1e-9)
    # positions of one game move together here, so ignoring the clusters would understate the se
    assert d.se > x.std(ddof=1) / math.sqrt(len(x)) * 1.2


def test_verdicts_read_the_simultaneous_interval(kept: pd.DataFrame) -> None:
    full = bd.table(kept, 4, 0.3, 0.5)
    few = full[full["n_games"] < bd.MIN_GAMES]
    assert len(few) > 0 and few["verdict"].isna().all() and few["sim_low"].isna().all() and few["p_holm"].isna().all()
    table = full[full["n_games"] >= bd.MIN_GAMES]
    assert table["sim_level"].nunique() == 1 and table["sim_level"].iloc[0] == pytest.approx(1 - 0.05 / len(table))
    assert ((table["sim_low"] <= table["ci_low"]) & (table["ci_high"] <= table["sim_high"])).all()
    larger = (table["sim_low"] > 0.5) | (table["sim_high"] < -0.5)
    assert ((table["verdict"] == LARGER) == larger).all()
    assert (table["p_holm"] >= table["p"]).all()


def test_the_clustered_difference_of_paired_cells_is_the_paired_t() -> None:
    """One position of each field per deal: the CR1 difference clustered by deal is exactly the paired t interval
    (scipy.stats.ttest_rel), since each cluster's contribution is its pair's difference minus the mean, over G."""
    rng = np.random.default_rng(8)
    deal = rng.normal(0, 1, 50)  # a shared effect of the deal: pairing removes it
    x, y = deal + rng.normal(0.3, 0.5, 50), deal + rng.normal(0, 0.5, 50)
    games = np.arange(50)
    d = bd.clustered_difference(x, games, y, games)
    ci = sps.ttest_rel(x, y).confidence_interval(0.95)
    assert d.diff == pytest.approx(x.mean() - y.mean(), rel=1e-12)
    assert (d.low, d.high) == (pytest.approx(ci.low, rel=1e-9), pytest.approx(ci.high, rel=1e-9))
    assert d.p == pytest.approx(sps.ttest_rel(x, y).pvalue, rel=1e-9)
    # the same values with the deals unshared (every position its own cluster) lose the pairing: a wider interval
    apart = bd.clustered_difference(x, games, y, games + 50)
    assert apart.high - apart.low > 2 * (d.high - d.low)


def test_the_clustered_difference_is_the_sandwich_written_out() -> None:
    """Several positions per deal, deals shared in part: per deal, the x deviations over n_x minus the y deviations
    over n_y, squared and summed over every deal either side has, times G / (G - 1); t with G - 1 df."""
    rng = np.random.default_rng(5)
    gx, gy = rng.integers(0, 40, 120), rng.integers(10, 50, 90)
    x, y = rng.normal(0, 1, 120), rng.normal(0.2, 1, 90)
    d = bd.clustered_difference(x, gx, y, gy)
    deals = sorted(set(gx) | set(gy))
    u = [sum(x[gx == g] - x.mean()) / len(x) - sum(y[gy == g] - y.mean()) / len(y) for g in deals]
    var = len(deals) / (len(deals) - 1) * sum(v * v for v in u)
    half = sps.t.ppf(0.975, len(deals) - 1) * math.sqrt(var)
    assert len(set(gx) & set(gy)) > 20 and len(deals) > len(set(gx))  # deals shared and deals of one side only
    assert d.n == len(deals) and d.se == pytest.approx(math.sqrt(var), rel=1e-12)
    assert (d.low, d.high) == pytest.approx((x.mean() - y.mean() - half, x.mean() - y.mean() + half), rel=1e-12)


def test_the_interactions_pair_every_cell_of_two_fields(kept: pd.DataFrame) -> None:
    """Two fields with the same positions: every interaction is exactly 0 and within the margin (equivalent);
    one family over the cells both fields saw MIN_GAMES games in."""
    two = pd.concat([kept, kept.assign(field="smart")], ignore_index=True)
    between = bd.interactions(two, 4, 0.3, 0.5)
    table = bd.table(kept, 4, 0.3, 0.5)
    assert len(between) == int((table["n_games"] >= bd.MIN_GAMES).sum())
    assert (between["interaction_pp"] == 0).all() and (between["family"] == len(between)).all()
    assert set(between["verdict"]) == {"equivalent"} and set(between["field_a"]) == {"basic"}


def test_the_rule_is_written_from_the_verdicts(kept: pd.DataFrame) -> None:
    """The rule says "bluff" only for cells whose +4 beats the other card beyond the margin; planted verdicts show it.
    Where two fields' advice differs, the rule says what the fields' interactions say, not that the advice differs."""
    from unocli.report.analyses.bluff_text import rule

    table = bd.table(kept, 4, 0.3, 0.5)
    none = pd.DataFrame()
    result = bd.DecisionResult(4, {"basic": 300}, 4, 0.3, 0.5, kept, table, none)
    assert "never bluff" in rule(result)
    planted = table.copy()
    cell = (planted["next_hand"] == "1") & (planted["challenger"].isin(["0", "0.25"]))
    planted.loc[cell, ["verdict", "value_pp"]] = [LARGER, 2.0]
    text = rule(bd.DecisionResult(4, {"basic": 300}, 4, 0.3, 0.5, kept, planted, none))
    assert "(`basic` players, 4 at the table): bluff against a victim who challenges never to one in four, when the next" in text
    assert "when the next player holds 1 card; otherwise play your best other card." in text
    assert len(text.split()) < 80
    # the best-response rate with the same cells as c = 0 joins that clause
    best = cell | ((planted["next_hand"] == "1") & (planted["challenger"] == "best response"))
    planted.loc[best, ["verdict", "value_pp"]] = [LARGER, 2.0]
    joined = rule(bd.DecisionResult(4, {"basic": 300}, 4, 0.3, 0.5, kept, planted, none))
    assert "challenges never to one in four and at the best-response rate 0.30, when the next player holds 1 card;" in joined
    planted.loc[best & ~cell, ["verdict", "value_pp"]] = ["undecided", 0.0]
    # two fields whose advice differs: one clause each, and the interactions of the cells that differ
    other = planted[planted["field"] == "basic"].assign(field="smart")
    other["verdict"] = other["verdict"].where(~cell[other.index], "undecided")
    both = pd.concat([planted, other])
    cells = planted[cell & (planted["own_hand"] != "any")][["challenger", "next_hand", "own_hand"]]
    between = cells.assign(field_a="basic", field_b="smart", interaction_pp=1.0, sim_low=-1.0, sim_high=3.0)
    between = between.assign(sim_level=0.99, family=len(cells), margin_pp=0.5, verdict="undecided", p=0.2, p_holm=1.0)
    text = rule(bd.DecisionResult(4, {"basic": 300, "smart": 300}, 4, 0.3, 0.5, kept, both, between))
    assert "under `basic`, bluff against a victim" in text and "under `smart`, never bluff" in text
    assert "the fields cannot be told apart" in text and "differs" not in text
    # one of those interactions beyond the margin: now the rule says the fields differ, and between which
    between.loc[between.index[0], ["sim_low", "verdict"]] = [0.6, LARGER]
    text = rule(bd.DecisionResult(4, {"basic": 300, "smart": 300}, 4, 0.3, 0.5, kept, both, between))
    assert "differs by more than the margin between basic and smart" in text and "cannot be told apart" not in text
    assert len(text.split()) < 80  # two fields' clauses and the interactions' word still make a quotable answer


# ---------------------------------------------------------------- the best response, one column per challenge rate

GAMES = 40  # one position per game, MIN_GAMES or more in every cell it falls in


def _planted_rows(field: str = "basic", shift: int = 0) -> pd.DataFrame:
    """GAMES positions, one per game, every one with the victim on 1 card and the acting seat on 7 (cells 1/7+, 1/any and
    any/any, nothing elsewhere); budget 4. Colour 0 is best at every c (selection ties go to the first); accepted, the
    +4 wins 3 or 4 rollouts of 4, challenged none; the other card wins 0 or 1 (``shift`` moves it under a second
    field)."""
    from unocli.kernel.bluff_decision import COLUMNS

    rows = []
    for g in range(GAMES):
        row = dict.fromkeys(COLUMNS, 0) | {"game": g, "own_hand": 7, "next_hand": 1, "alt_card": 1, "alt_colour": -1}
        row |= {"accept_select_0": 4, "challenge_select_0": 1, "accept_0": 4 - g % 2, "alt": (g + shift) % 3 % 2}
        rows.append(row)
    return pd.DataFrame(rows, columns=list(COLUMNS)).assign(field=field)


def test_a_best_response_at_a_listed_rate_is_that_column_once() -> None:
    """The grid's best response c = 0 is the c = 0 column: the table has 5 columns, not a sixth copy of c = 0, and
    its family (the simultaneous level, Holm) is over the distinct cells only; the interactions' family likewise.
    Counted by hand: 3 situations with positions (1/7+, 1/any, any/any) x 5 rates = 15 cells, one pair of fields."""
    rows = _planted_rows()
    table = bd.table(rows, 4, 0.0, 0.5)
    assert sorted(table["challenger"]) == sorted(["0", "0.25", "0.5", "0.75", "1"] * 3)
    assert len(table) == 15 and not table.duplicated(["field", "next_hand", "own_hand", "challenge_rate"]).any()
    assert table["sim_level"].unique().tolist() == [pytest.approx(1 - 0.05 / 15)]
    # the c = 0 cell by hand: accepted wins minus the other card's, over the budget of 4
    zero = table[(table["challenger"] == "0") & (table["next_hand"] == "1") & (table["own_hand"] == "7+")].iloc[0]
    by_hand = sum((4 - g % 2) - g % 3 % 2 for g in range(GAMES)) / 4 / GAMES
    assert (zero.n_positions, zero.n_games) == (GAMES, GAMES) and zero.value_pp == pytest.approx(100 * by_hand)
    # within a few parts in 1e9 of a rate is that rate (the equilibrium's rate is the mean of a mixture)
    assert bd.challengers(1.0 - 1e-12) == bd.challengers(0.0) and bd.best_column(1.0 - 1e-12) == "1"
    two = pd.concat([rows, _planted_rows("smart", shift=1)], ignore_index=True)
    between = bd.interactions(two, 4, 0.0, 0.5)
    assert len(between) == 15 and set(between["family"]) == {15}
    assert between["sim_level"].unique().tolist() == [pytest.approx(1 - 0.05 / 15)]
    assert "best response" not in set(between["challenger"])


def test_a_best_response_off_the_rates_keeps_its_column() -> None:
    """The best response c = 0.3 is no listed rate: a sixth column (its own cells), 3 x 6 = 18 in each family."""
    rows = _planted_rows()
    table = bd.table(rows, 4, 0.3, 0.5)
    assert len(table) == 18 and table["sim_level"].unique().tolist() == [pytest.approx(1 - 0.05 / 18)]
    best = table[table["challenger"] == "best response"]
    assert len(best) == 3 and set(best["challenge_rate"]) == {0.3}
    cell = best[(best["next_hand"] == "1") & (best["own_hand"] == "7+")].iloc[0]
    by_hand = sum(0.7 * (4 - g % 2) - g % 3 % 2 for g in range(GAMES)) / 4 / GAMES  # (1 - c) x accepted, c x 0
    assert cell.value_pp == pytest.approx(100 * by_hand)
    between = bd.interactions(pd.concat([rows, _planted_rows("smart", shift=1)], ignore_index=True), 4, 0.3, 0.5)
    assert len(between) == 18 and set(between["family"]) == {18}


def test_the_words_count_a_best_response_at_a_listed_rate_once() -> None:
    """The findings count the fine cells over distinct columns (1/7+ x 5 rates = 5, not 6) and say which column the
    best response is; the rule names the best-response rate inside its rate's clause; the table's note and the
    chart's caption say it too. A best response off the rates keeps its own clause and column (6 cells)."""
    from unocli.report.analyses.bluff import decision_views
    from unocli.report.analyses.bluff_text import decision_findings, rule

    rows = pd.concat([_planted_rows(), _planted_rows("smart", shift=1)], ignore_index=True)

    def result(best: float) -> bd.DecisionResult:
        table, between = bd.table(rows, 4, best, 0.5), bd.interactions(rows, 4, best, 0.5)
        return bd.DecisionResult(4, {"basic": GAMES, "smart": GAMES}, 4, best, 0.5, rows, table, between)

    same = result(0.0)
    found = decision_findings(same)
    assert all("over the 5 situation x challenger cells" in f for f in found[:2])
    assert "(c = 0, 0.25, 0.5, 0.75, 1; the best response c = 0.00 is the c = 0 column, counted once)" in found[0]
    assert "over 15)" in found[2]  # the interactions: 3 situations x 5 rates, one pair of fields
    # the +4 pays at c = 0 in 1/7+ by far (about +80 pp): its clause names the best response once, inside
    text = rule(same)
    assert "bluff against a victim who challenges never" in text and "at the best-response rate" not in text
    assert text.count("best-response rate 0.00") == 1
    words = decision_views(same).words
    assert words["best_note"].endswith("the column c=0, shown and counted once.")
    assert words["best_panel"] == "; the best response c = 0.00 is c = 0, no panel of its own"
    apart = result(0.3)
    found = decision_findings(apart)
    assert "over the 6 situation x challenger cells (c = 0, 0.25, 0.5, 0.75, 1 and the best response c = 0.30)" in found[0]
    assert "over 18)" in found[2]
    assert "at the best-response rate 0.30" in rule(apart)
    words = decision_views(apart).words
    assert words["best_panel"] == "" and "shown and counted once" not in words["best_note"]


def test_a_field_under_min_games_is_said_without_an_interval() -> None:
    """The rule's evidence over every position: a field with an interval shows it; one of fewer than MIN_GAMES deals
    says it has none and why, where it printed "[n/a, n/a]"."""
    from unocli.report.analyses.bluff_text import rule_values

    few = _planted_rows("few").iloc[: bd.MIN_GAMES - 1]
    rows = pd.concat([_planted_rows(), few], ignore_index=True)
    table = bd.table(rows, 4, 0.3, 0.5)
    text = rule_values(bd.DecisionResult(4, {"basic": GAMES, "few": len(few)}, 4, 0.3, 0.5, rows, table, pd.DataFrame()))
    assert "n/a" not in text
    assert f"(few; no interval, under {bd.MIN_GAMES} deals)" in text
    # what the rule's words rest on: "bluff" beyond the margin only, the other card the advice elsewhere
    assert "bluff only where the +4 is shown to beat the best other card by more than the margin (+/-0.50 pp)" in text
    assert "the equilibrium challenge rate of the grid of blind bluff rates below" in text
    assert re.search(r"pp \[[-+]\d+\.\d, [-+]\d+\.\d\] \(basic\)", text), text


# ---------------------------------------------------------------- the experiment's options

BLUFF_TOML = """
analysis = "bluff"
games = 100
seed = 1
players = [4]
[base]
rules = "{rules}"
[options]
bluff_rates = [0, 1]
challenge_rates = [0, 1]
fields = ["basic"]
decision_games = 50
{extra}
"""


@pytest.mark.parametrize(
    ("rules", "extra", "words"),
    [
        ("stacking", "", "needs rules where a +4 can be a bluff"),
        ("free-plus4", "", "needs rules where a +4 can be a bluff"),
        ("official", 'decision_fields = ["nosuch"]', "options.decision_fields"),
        ("official", 'decision_fields = ["basic:search=on"]', "basic:search=on searches"),
        ("official", "decision_budget = 0", "options.decision_budget"),
        ("official", 'decision_fields = "basic"', "must be a list of policy specs"),
    ],
)
def test_a_bad_decision_option_is_one_sentence(tmp_path, rules: str, extra: str, words: str) -> None:
    """Refused before any game is played, with the key named (the CLI prints it and exits 2)."""
    from unocli.errors import ConfigError
    from unocli.report.experiment import load_experiment

    path = tmp_path / "bad.toml"
    path.write_text(BLUFF_TOML.format(rules=rules, extra=extra), encoding="utf-8")
    with pytest.raises(ConfigError, match=re.escape(words)) as err:
        load_experiment(path)
    assert "\n" not in str(err.value)


def test_the_shipped_decision_options_load(tmp_path) -> None:
    from unocli.report.experiment import load_experiment

    path = tmp_path / "ok.toml"
    path.write_text(BLUFF_TOML.format(rules="official", extra='decision_fields = ["basic", "smart"]'), encoding="utf-8")
    exp = load_experiment(path)
    assert exp.options["decision_games"] == 50 and exp.options["decision_budget"] == 16
