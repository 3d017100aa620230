"""Reports say when no field searches: their findings are then measured under scripted play only (issue 30), and
how the stored ladders rate `search` at budget 512 against the scripted and tuned players: by the interval of the
rating gap, never from point estimates alone (a made-up set of ladders worked out by hand)."""

from __future__ import annotations

from pathlib import Path

import pytest

from unocli.game.policies import is_searching
from unocli.report.analyses.fields import strength_text
from unocli.report.experiment import load_experiment

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize(
    ("spec", "searching"),
    [
        ("search", True),
        ("search:budget=512", True),
        ("peek:budget=16", True),
        ("basic:search=on,budget=64", True),
        ("basic", False),
        ("strong:bluff=0.3", False),
        ("tuned-{rules}-{players}", False),  # a template is not a preset spec
        ("tuned-official-4", False),  # a policies-file name: the tuned players never search
        ("search the hand", False),  # prose
    ],
)
def test_is_searching(spec: str, searching: bool) -> None:
    assert is_searching(spec) is searching


def test_the_sentence_comes_only_where_no_field_searches() -> None:
    scripted = load_experiment(ROOT / "sims" / "house-rules.toml")
    searched = load_experiment(ROOT / "sims" / "house-rules-search.toml")
    assert strength_text(searched) == ""
    text = strength_text(scripted)
    assert text.startswith(" No field here searches, so these findings are measured under scripted play only")
    assert "sims/house-rules-search.toml" in text
    for name in ("game-length", "bluff", "stacking", "seat-advantage"):  # every shipped debate played by scripted fields
        assert strength_text(load_experiment(ROOT / "sims" / f"{name}.toml")) == text


# ---------------------------------------------------------------- how the stored ladders rate search, by interval

MARK = "<!-- written by unocli ladder -->"
RATINGS = "policy,spec,rating,low,high,se,anchor,games,deals,players,bound\n"
SKILL = "key,level,measure,value,low,high,n,better,other,detail\n"


def _plant(root: Path, name: str, ratings: list[tuple[str, float, float]], second: tuple[str, str, float, float] | None) -> None:
    """One made-up ladder: ``ratings`` (policy, rating, se; ``random`` is added at 0), and the rounds-to-lead row
    against the second (better, other, and the 95% interval of their rating gap, which the row gives in words, as
    study.ladder_skill.lead_rows writes it; its rounds' upper end is "inf" when that interval reaches 0)."""
    folder = root / name
    folder.mkdir(parents=True)
    (folder / "README.md").write_text(f"# Ladder\n{MARK}\n", encoding="utf-8")
    rows = [f"{p},{p},{r},{r - 1.96 * se},{r + 1.96 * se},{se},False,1,800,4,False" for p, r, se in ratings]
    rows += ["peek:budget=16,peek:budget=16,1.5,1.4,1.6,0.05,False,1,800,4,True", "random,random,0,0,0,0,True,1,800,4,False"]
    (folder / "ratings.csv").write_text(RATINGS + "\n".join(rows) + "\n", encoding="utf-8")
    lead = ""
    if second:
        better, other, low, high = second
        words = f'"p = 0.51 that {better} wins (rating gap {(low + high) / 2:.3f} [{low:.3f}, {high:.3f}])"'
        lead = f"lead_second,round,l,99,50,{'inf' if low <= 0 else 900},800,{better},{other},{words}\n"
    (folder / "skill.csv").write_text(
        SKILL + "skill_share,round,s,0.01,0.009,0.011,800,,,x\n" + lead + "lead_anchor,round,l,9,7,11,800,a,random,x\n",
        encoding="utf-8",
    )


S, S128 = "search:budget=512", "search:budget=128"


@pytest.fixture
def planted(tmp_path: Path) -> Path:
    """Five ladders read together: simultaneous intervals over 5, z = 2.576 (Bonferroni, 0.05 / 5 two-sided)."""
    root = tmp_path / "ladders"
    # above: its own interval over the tuned player, 0.100 [0.060, 0.140] (se 0.0204), excludes 0 at z = 2.576 too;
    # over strong the worst case, 0.15 -/+ z (0.02 + 0.006): 0.15 - 0.067 > 0
    alpha = [(S, 0.40, 0.02), ("tuned-alpha-4", 0.30, 0.006), ("strong", 0.25, 0.006)]
    _plant(root, "alpha-4", alpha, (S, "tuned-alpha-4", 0.060, 0.140))
    # its own interval over the tuned player includes 0, though the point estimate is higher
    _plant(root, "beta-4", [(S, 0.33, 0.02), ("tuned-beta-4", 0.30, 0.006)], (S, "tuned-beta-4", -0.010, 0.070))
    # the second is search at 128: over the tuned player only the worst case, 0.05 -/+ 1.96 (0.02 + 0.01) = 0.0588
    _plant(root, "gamma-2", [(S, 0.40, 0.02), (S128, 0.38, 0.02), ("tuned-gamma-2", 0.35, 0.01)], (S, S128, 0.0, 0.04))
    # the same but the gap 0.25 clears the worst case
    _plant(root, "delta-2", [(S, 0.60, 0.02), (S128, 0.50, 0.02), ("tuned-delta-2", 0.35, 0.01)], (S, S128, 0.06, 0.14))
    # its own 95% interval over the tuned player, 0.050 [0.005, 0.095] (se 0.023), excludes 0 read alone, but not
    # read with the other four: 0.05 - 2.576 x 0.023 < 0
    _plant(root, "theta-4", [(S, 0.35, 0.02), ("tuned-theta-4", 0.30, 0.006)], (S, "tuned-theta-4", 0.005, 0.095))
    # left out: no search at 512; not a ladder's folder; a ratings file without ratings; a stray file
    _plant(root, "epsilon-6", [("tuned-epsilon-6", 0.30, 0.006)], None)
    _plant(root, "zeta-6", [(S, 0.40, 0.02), ("basic", 0.1, 0.006)], None)
    (root / "zeta-6" / "README.md").write_text("# notes\n", encoding="utf-8")
    _plant(root, "eta-6", [(S, 0.40, 0.02), ("basic", 0.1, 0.006)], None)
    (root / "eta-6" / "ratings.csv").write_text("policy,spec\nbasic,basic\n", encoding="utf-8")
    (root / "notes.txt").write_text("not a ladder", encoding="utf-8")
    return root


def test_the_gaps_of_search_are_read_by_their_interval(planted: Path) -> None:
    from unocli.analysis.skill_stored import search_gaps  # new with the reading by interval

    gaps = search_gaps(planted)
    assert list(gaps) == ["alpha-4", "beta-4", "delta-2", "gamma-2", "theta-4"]
    signs = {k: [(g.other, g.sign(), g.exact) for g in v] for k, v in gaps.items()}  # each read alone, 95%
    for k in gaps:  # random is a scripted player too: 0.33 or more above it, by at most 1.96 x 0.02 each side
        assert signs[k].pop() == ("random", 1, False)
    assert signs["alpha-4"] == [("tuned-alpha-4", 1, True), ("strong", 1, False)]
    assert signs["beta-4"] == [("tuned-beta-4", 0, True)]  # gap +0.03 by point estimate: not read as above
    assert signs["gamma-2"] == [("tuned-gamma-2", 0, False)]  # 0.05 - 0.0588 < 0: the worst case includes 0
    assert signs["delta-2"] == [("tuned-delta-2", 1, False)]
    assert signs["theta-4"] == [("tuned-theta-4", 1, True)]
    assert gaps["gamma-2"][0].gap == pytest.approx(0.05)
    assert gaps["theta-4"][0].se == pytest.approx(0.09 / (2 * 1.959964), rel=1e-6)  # from the row's own interval
    assert gaps["theta-4"][0].sign(2.576) == 0  # read with four others


def test_a_gaps_file_gives_every_pair_its_own_interval(planted: Path) -> None:
    """A ladder that stores gaps.csv (every pair, with the covariance) is read from it: strong's gap is exact."""
    from unocli.analysis.skill_stored import search_gaps

    (planted / "alpha-4" / "gaps.csv").write_text(
        "better,other,gap,se,low,high,clear\n"
        f"{S},tuned-alpha-4,0.1,0.05,0.002,0.198,True\n{S},strong,0.15,0.01,0.13,0.17,True\n{S},random,0.4,0.02,0.36,0.44,True\n",
        encoding="utf-8",
    )
    alpha = {g.other: g for g in search_gaps(planted)["alpha-4"]}
    assert all(g.exact for g in alpha.values())
    assert alpha["strong"].se == 0.01 and alpha["tuned-alpha-4"].se == 0.05  # the file's, not the README row's


def test_the_sentence_counts_the_ladders_by_interval_and_names_the_others(planted: Path) -> None:
    exp = load_experiment(ROOT / "sims" / "game-length.toml")
    text = strength_text(exp, ladders=planted)
    assert "every shipped ladder" not in text
    assert "interval (simultaneous 99.00% over the 5, Bonferroni) excludes 0 in 2 of the 5 stored ladders" in text
    assert "in the other 3 (beta-4, gamma-2, theta-4) the interval of its gap over at least one of them includes 0" in text
    assert "for gamma-2 that interval is the worst case over the two ratings' unknown correlation" in text
    assert "beta-4 that interval is the worst case" not in text  # beta-4's is the ladder's own


def test_a_ladder_where_search_rates_below_is_named(tmp_path: Path) -> None:
    root = tmp_path / "ladders"
    _plant(root, "alpha-4", [(S, 0.40, 0.02), ("tuned-alpha-4", 0.30, 0.006)], (S, "tuned-alpha-4", 0.060, 0.140))
    _plant(root, "omega-4", [(S, 0.20, 0.02), ("tuned-omega-4", 0.40, 0.006)], ("tuned-omega-4", S, 0.15, 0.25))
    text = strength_text(load_experiment(ROOT / "sims" / "game-length.toml"), ladders=root)
    assert "excludes 0 in 1 of the 2 stored ladders" in text
    assert "in the other one (omega-4) it rates below at least one of them by an interval that excludes 0" in text


def test_without_readable_ladders_the_sentence_says_less(tmp_path: Path) -> None:
    exp = load_experiment(ROOT / "sims" / "game-length.toml")
    for root in (tmp_path / "missing", tmp_path):  # no folder; a folder without ladders
        text = strength_text(exp, ladders=root)
        assert text == (
            " No field here searches, so these findings are measured under scripted play only (the house rules are "
            "also played under `search:budget=512`: sims/house-rules-search.toml)."
        )


def test_the_shipped_sentence_reads_the_intervals_not_the_point_estimates() -> None:
    text = strength_text(load_experiment(ROOT / "sims" / "game-length.toml"))
    assert "in every shipped ladder" not in text and "(simultaneous 99.86% over the 36, Bonferroni) excludes 0 in" in text
    # the audit's cells, whose stored gap over the tuned player includes 0 (e.g. official-4: 0.036 [-0.008, 0.080]),
    # and those whose gap excludes 0 read alone but not with the other 35 (e.g. official-6: 0.040 [0.006, 0.075])
    for cell in ("official-4", "stack-plus2-4", "stack-any-4", "stacking-4", "jump-in-6", "stack-plus2-6", "stack-same-6"):
        assert cell in text
    for cell in ("free-plus4-4", "no-action-finish-6", "no-challenge-4", "official-6", "stack-same-4", "stacking-6"):
        assert cell in text
