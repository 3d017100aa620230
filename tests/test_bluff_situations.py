"""The bluff report's situation table, one-player deviations and best-response search (analysis/bluff_situations.py).

One small run of the bluff analysis under three fields (module fixture); every
assertion is either exact by construction or a planted effect far larger than
its interval at these sizes (each says how much larger). Fixed seeds: a failure
is a change in the code, not bad luck.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from unocli.analysis import bluff_situations
from unocli.analysis.bluff_play import ANY, CHALLENGERS, NEXT_BANDS, OWN_BANDS
from unocli.errors import ConfigError
from unocli.game.policies import load_policies_file, parse_policy_spec
from unocli.report.analyses import Context, bluff
from unocli.report.experiment import load_experiment
from unocli.report.model import Chart, TableBlock
from unocli.run.backends import LocalBackend

ROOT = Path(__file__).resolve().parents[1]
GAMES = 3000  # deals per situation under every field (the planted effects below are sized for it)
FIELDS = ["basic", "random", "tuned-official-4"]  # the last from the shipped policies file
TOML = f"""
analysis = "bluff"
policies = "{(ROOT / "sims" / "tuned" / "tuned.toml").as_posix()}"
games = 1000
seed = 23
players = [4]
[base]
rules = "official"
policy = "basic"
[options]
bluff_rates = [0, 1]
challenge_rates = [0, 1]
replicates = 60
also_players = [4]
fields = {json.dumps(FIELDS)}
situation_games = {GAMES}
deviation_games = {GAMES}
eq_games = 400
eq_rounds = 1
"""


@pytest.fixture(scope="module")
def result(tmp_path_factory) -> bluff.BluffResult:
    path: Path = tmp_path_factory.mktemp("bluffsit") / "bluff.toml"
    path.write_text(TOML)
    exp = load_experiment(path)
    return bluff.compute(exp, Context(backend=LocalBackend(), log=lambda _: None))


@pytest.fixture(scope="module")
def table(result) -> pd.DataFrame:
    """The situation table as the report writes it (bluff-by-situation.csv: the analysis's frame with its words)."""
    section = bluff.render(result)
    return next(b.data for b in section.blocks if isinstance(b, TableBlock) and b.name == "bluff-by-situation")


def cell(table: pd.DataFrame, challenger: str, next_hand: str, own_hand: str, field: str = "basic") -> pd.Series:
    rows = table[
        (table["field"] == field)
        & (table["challenge_policy"] == challenger)
        & (table["next_hand"] == next_hand)
        & (table["own_hand"] == own_hand)
    ]
    assert len(rows) == 1
    return rows.iloc[0]


def test_situation_table_has_every_cell_of_every_field_with_its_columns_and_n(table, tmp_path):
    for column in ("field", "gain_pp", "ci_low", "ci_high", "n", "challenge_policy", "next_hand", "own_hand", "bluffs_per_game"):
        assert column in table.columns, column
    # every field x challenge policy x (next band x own band, plus bluffing at every chance)
    cells = len(CHALLENGERS) * (len(NEXT_BANDS) * len(OWN_BANDS) + 1)
    assert len(table) == len(FIELDS) * cells
    assert list(table["field"].drop_duplicates()) == FIELDS
    assert (table.groupby("field")["challenge_policy"].count() == cells).all()
    # every field on the same situation_games deals (so the fields' gains can be compared deal by deal)
    assert (table["n"] == GAMES).all()
    # the answer's words: "pays"/"loses" only for a gain larger than the margin, as the label says (docs/statistics.md)
    words = {"pays", "loses", "a change of undecided size", "negligible", "no change", "undecided"}
    assert set(table["verdict"]) <= words
    moved = table["verdict"].isin(["pays", "loses"])
    assert (moved == (table["gain_verdict"] == "larger")).all()
    assert ((table["verdict"] == "pays") == (moved & (table["gain_pp"] > 0))).all()
    # one simultaneous level over the whole table, every field
    assert table["sim_level"].nunique() == 1
    # the CSV the report writes carries the same columns
    path = tmp_path / "bluff-by-situation.csv"
    table.to_csv(path, index=False)
    back = pd.read_csv(path)
    assert set(back["field"]) == set(FIELDS) and back["n"].notna().all()


def test_the_fields_interactions_are_the_differences_of_their_gains(table, result):
    """For a 0/1 quantity the interaction's point is the difference of the two fields' paired differences
    (study/interaction.py), here read off the situation table, a per-field comparison each; one family over
    every pair of fields, challenge policy and pooled situation (own hand any), on simultaneous intervals."""
    between = result.situations.between
    pooled = table[table["own_hand"] == ANY].set_index(["field", "challenge_policy", "next_hand"])["gain_pp"]
    assert len(between) == 3 * len(CHALLENGERS) * (len(NEXT_BANDS) + 1)
    assert (between["family"] == len(between)).all() and between["sim_level"].nunique() == 1
    assert set(zip(between["field_a"], between["field_b"], strict=True)) == {
        ("basic", "random"),
        ("basic", "tuned-official-4"),
        ("random", "tuned-official-4"),
    }
    for r in between.itertuples():
        expected = pooled[(r.field_a, r.challenge_policy, r.next_hand)] - pooled[(r.field_b, r.challenge_policy, r.next_hand)]
        assert r.interaction_pp == pytest.approx(expected, abs=1e-9)
        assert r.sim_low <= r.interaction_pp <= r.sim_high
    assert (between["p_holm"] >= between["p"]).all()


def test_a_difference_between_fields_is_said_only_from_their_interaction(result):
    """The answer says the fields differ only where an interaction is larger than the margin: planted on one cell
    (bluffing at every chance against always-challengers), the answer names the pair; every other cell as played."""
    from dataclasses import replace

    from unocli.report.analyses import bluff_text

    sit = result.situations
    cell = (sit.between["challenge_policy"] == "always") & (sit.between["next_hand"] == ANY)
    assert cell.sum() == 3  # one interaction per pair of fields
    calm = sit.between.assign(verdict="undecided")
    assert "margin between" not in bluff_text.answer(replace(sit, between=calm))
    planted = sit.between.copy()
    first = planted.index[cell][0]
    planted.loc[first, ["verdict", "sim_low", "sim_high"]] = ["larger", 1.0, 3.0]
    assert (planted.loc[first, "field_a"], planted.loc[first, "field_b"]) == ("basic", "random")
    text = bluff_text.answer(replace(sit, between=planted))
    assert "margin between basic and random" in text
    # and where the fields' words differ but no interaction is beyond the margin, they cannot be told apart
    undecided = planted.assign(verdict="undecided")
    words = replace(sit, situations=sit.situations.assign(gain_verdict="undecided"))
    words.situations.loc[words.situations["field"] == "basic", "gain_verdict"] = "larger"
    assert "the fields cannot be told apart" in bluff_text.answer(replace(words, between=undecided))


def test_intervals_contain_their_points(table, result):
    assert ((table["ci_low"] <= table["gain_pp"]) & (table["gain_pp"] <= table["ci_high"])).all()
    # the simultaneous interval (Bonferroni over the table) contains the per-cell one
    assert ((table["gain_sim_low"] <= table["ci_low"]) & (table["ci_high"] <= table["gain_sim_high"])).all()
    per = table.dropna(subset=["gain_per_bluff_pp"])
    assert len(per) > 0
    assert ((per["per_bluff_low"] <= per["gain_per_bluff_pp"]) & (per["gain_per_bluff_pp"] <= per["per_bluff_high"])).all()
    dev = result.situations.deviations
    assert ((dev["win_sim_low"] <= dev["diff_pp"]) & (dev["diff_pp"] <= dev["win_sim_high"])).all()


def test_a_bluff_is_caught_exactly_when_challenged(table):
    # the opponents never bluff, so a successful challenge is one of seat 0's bluffs caught: none against
    # never-challengers, every one against always-challengers (same games, same denominator: exact). Under the
    # random field too: random answers uniformly, so its opponents must be switched to respond = knobs for the
    # challenge policy to apply; left uniform they would catch about half of the bluffs in both rows.
    never, always = table[table["challenge_policy"] == "never"], table[table["challenge_policy"] == "always"]
    assert set(never["field"]) == set(FIELDS)
    assert (never["caught_per_game"] == 0).all()
    assert np.allclose(always["caught_per_game"], always["bluffs_per_game"])
    assert (always.loc[always["field"] == "random", "bluffs_per_game"] > 0).any()
    assert (table.loc[table["field"] == "random", "opponents"].str.contains("respond=knobs")).all()


def test_unknown_field_is_a_clear_error(tmp_path):
    path = tmp_path / "bluff.toml"
    path.write_text(TOML.replace('"tuned-official-4"', '"tuned-nowhere"'))
    with pytest.raises(
        ConfigError,
        match=r"key 'options\.fields': unknown policy 'tuned-nowhere'; the policies are: tuned-.*"
        r"\(the nearest 12 of \d+: the 8 presets, the 2 search players and \d+ "
        r"from \"unocli's shipped sims/tuned/tuned\.toml\"\)",
    ):
        load_experiment(path)
    # without a policies file the default fields name a policy it would hold: the error says where it is
    path.write_text('analysis = "bluff"\nplayers = [4]\n')
    with pytest.raises(ConfigError, match=r"key 'options\.fields': unknown policy 'tuned-official-4'.*policies = \"FILE\""):
        load_experiment(path)


def test_a_view_naming_a_frame_the_report_lacks_or_a_design_kind_is_refused(tmp_path):
    """The bluff report hands its views the frames it names (bluff.FRAMES) and plays no design: a typo in a frame, or
    a view of the design's frame, is refused when the file is loaded, not drawn as nothing."""
    path = tmp_path / "bluff.toml"
    path.write_text(TOML + '[[view]]\nkind = "table"\nframe = "per-bluf"\noptions = { columns = [["n", "count", "n"]] }\n')
    with pytest.raises(ConfigError, match=r"view\[0\]\.frame': this report has no frame 'per-bluf'; its frames are: 'decisions'"):
        load_experiment(path)
    path.write_text(TOML + '[[view]]\nkind = "differences"\nquantity = "turns"\n')
    with pytest.raises(ConfigError, match=r"view\[0\]\.kind': this report draws only .*not 'differences'"):
        load_experiment(path)


def test_situations_restrict_the_bluffs(table):
    # a next player with 1 card is a rare moment: bluffing only then bluffs about a tenth as often as bluffing at
    # every chance (0.03 against 0.33 per game in the full report; sampling error at 3,000 deals about 0.01)
    every = cell(table, "never", ANY, ANY)["bluffs_per_game"]
    one = cell(table, "never", "1", ANY)["bluffs_per_game"]
    assert 0 < one < every / 3
    # and every next-hand band, pooled over own hands, sees bluffs at this size
    assert (table.loc[table["own_hand"] == ANY, "bluffs_per_game"] > 0).all()


def test_bluffing_everywhere_against_always_challengers_loses(table):
    # every bluff is challenged and caught: the bluffer draws 4 where its honest twin plays a card, and keeps
    # the +4 no longer; about -8 pp in the full report, and at 3,000 deals the interval is about +-1.2 pp wide
    row = cell(table, "always", ANY, ANY)
    assert row["ci_high"] < -3
    assert row["verdict"] == "loses"


def test_bluffing_when_next_holds_one_does_not_lose_against_never_challengers(table):
    # docs/rules.md §4, §5: an unchallenged +4 makes the next player draw 4 and lose its turn. When that player
    # holds 1 card, it is the one turn on which it could go out; the honest twin's card of the current colour
    # leaves it that chance. So the bluff's immediate effect favours the bluffer; its cost (the +4 spent early)
    # is the same as anywhere. Bluffing at every chance costs about 4 pp against never-challengers; here the
    # gain must not be significantly negative, and must beat bluffing everywhere by far more than both intervals.
    one = cell(table, "never", "1", ANY)
    every = cell(table, "never", ANY, ANY)
    assert one["ci_high"] >= 0
    assert one["bluffs_per_game"] > 0
    assert one["ci_low"] > every["ci_high"] + 1


def test_deviations_every_seat_and_who_pays(result):
    dev = result.situations.deviations
    n = result.players
    assert list(dev["field"].drop_duplicates()) == FIELDS
    for _, sub in dev.groupby(["field", "effect"], sort=False):
        assert list(sub["seat"]) == list(range(n))
        assert (sub["n"] == GAMES).all()
        # the seats' changes add up to the change in rounds won by anyone: 0 up to blocked or stuck rounds,
        # which are rare under the official rules (none in 1.8 million game-length rounds): a loose 0.5 pp
        assert abs(sub["diff_pp"].sum()) < 0.5
    # seat 0 bluffing at every chance alone costs it about 4-6 pp (3,000 deals: interval about +-1.9 pp)
    basic = dev[dev["field"] == "basic"]
    own = basic[(basic["effect"] == "seat 0 alone bluffs at every chance") & (basic["seat"] == 0)].iloc[0]
    assert own["win_sim_high"] < 0
    # the tuned player never challenges already: "never challenges" would be the field itself, so it is not played
    tuned = set(dev.loc[dev["field"] == "tuned-official-4", "effect"])
    assert "seat 1 alone never challenges, seat 0 bluffing" not in tuned
    assert "seat 1 alone never challenges, seat 0 bluffing" in set(basic["effect"])


def test_best_response_turns(result):
    it = result.situations.iterations
    n = result.players
    assert len(it) == len(FIELDS) * len(bluff_situations.START_POINTS) * n  # eq_rounds = 1
    assert (it["n_deals"] == 400).all()
    # a seat switches exactly when the best strategy's interval against its current one lies above 0
    assert (it["switches"] == (it["gain_low"] > 0)).all()
    assert (it["best_win_share"] >= it["current_win_share"]).all()
    assert ((it["gain_low"] <= it["gain_pp"]) & (it["gain_pp"] <= it["gain_high"])).all()
    ends = result.situations.fixed_points
    assert list(ends["start"]) == [s for s, _ in bluff_situations.START_POINTS] * len(FIELDS)
    assert list(ends["field"].drop_duplicates()) == FIELDS


def test_report_opens_with_the_answer_and_the_situation_chart(result):
    section = bluff.render(result)
    assert section.intro.startswith("**Answer.**")
    first = section.blocks[0]
    assert isinstance(first, Chart) and first.name == "bluff-by-situation"
    names = [b.name for b in section.blocks if isinstance(b, TableBlock)]
    assert "bluff-by-situation" in names and "one-player-deviations" in names and "best-response-iterations" in names
    text = " ".join(section.findings)
    assert "not a Nash equilibrium" in text
    # what holds under which field is read from the fields' interactions, never said to be untested
    assert "not tested" not in text + section.intro
    assert "Between fields, situation by situation (interactions on common deals" in text
    # the answer and the findings say the fields they hold under, and random's challenge knobs are explained
    assert all(f"`{f}`" in section.intro for f in FIELDS)
    assert "Under field `random`" in text and "Under field `tuned-official-4`" in text
    assert "respond = uniform" in section.intro
    # a field named from the policies file is defined in the report, and only the fields are (not the whole file)
    # (the entry's knobs come from the shipped file, which tune re-verifies: read them there, not as a copy)
    defined = re.search(r"Policies from tuned\.toml: `tuned-official-4` = `([^`]+)`\.", section.intro)
    assert defined, section.intro
    shipped = load_policies_file(ROOT / "sims" / "tuned" / "tuned.toml")["tuned-official-4"]
    assert parse_policy_spec(defined.group(1)) == shipped
    assert "tuned-official-6" not in section.intro
    # the grid's equilibrium bounds are a spread over resamples, not a confidence interval
    eq = next(b for b in section.blocks if isinstance(b, TableBlock) and b.name == "equilibrium")
    assert "not confidence intervals" in eq.note
