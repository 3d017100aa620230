"""Balance regression: ``unocli baseline`` and ``unocli check`` (issue 6)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from unocli.balance.baseline import BaselineError, load_baseline, make_baseline, save_baseline
from unocli.balance.check import Verdict, check_exact, check_statistical
from unocli.cli.main import cli
from unocli.game.policies import preset as policy_preset
from unocli.game.rules import preset as rules_preset
from unocli.study.arm import Arm

GAMES = 4000

FORGETFUL = policy_preset("basic").replace(forget_uno=0.5)


def _arms(uno_penalty: int = 2) -> list[Arm]:
    rules = rules_preset("official").replace(uno_penalty=uno_penalty)
    return [
        Arm("forgetful", rules, (FORGETFUL,) * 4),
        Arm("party", rules_preset("party"), (policy_preset("random"),) * 4),
    ]


@pytest.fixture(scope="module")
def baseline_file(tmp_path_factory) -> Path:
    doc = make_baseline(_arms(), games=GAMES, seed=11, source="test")
    return save_baseline(doc, tmp_path_factory.mktemp("b") / "base.json")


def test_exact_passes_on_unchanged_code(baseline_file):
    doc, arms = load_baseline(baseline_file)
    report = check_exact(doc, arms)
    assert report.exit_code == 0
    assert all(r.verdict is Verdict.PASS for r in report.rows)


def test_exact_fails_when_one_game_changes(baseline_file, tmp_path):
    doc, _ = load_baseline(baseline_file)
    doc["games"] = GAMES + 1  # one more game changes the per-game fingerprint
    path = save_baseline(doc, tmp_path / "b.json")
    report = check_exact(*load_baseline(path))
    assert report.exit_code == 1


def test_exact_fails_on_a_broken_kernel_rule(baseline_file, monkeypatch):
    monkeypatch.setenv("UNOCLI_TEST_FAULT", "uno_penalty")
    report = check_exact(*load_baseline(baseline_file))
    assert report.exit_code == 1


def test_statistical_passes_on_unchanged_code(baseline_file):
    # A wide tolerance so that 4000 games can show equivalence; the false-alarm
    # rate itself is measured in the slow test below.
    doc, arms = load_baseline(baseline_file)
    report = check_statistical(doc, arms, seed=12345, tolerance=0.5)
    assert report.exit_code == 0, [r for r in report.rows if r.verdict is not Verdict.PASS]


def test_statistical_fails_on_planted_uno_penalty_change(baseline_file, tmp_path):
    """uno_penalty 2 -> 4 with forgetful players: cards drawn rise by ~0.5 * catches * 2 per round."""
    doc, _ = load_baseline(baseline_file)
    doc["arms"][0]["rules"]["uno_penalty"] = 4  # the code now plays 4 where the baseline saw 2
    path = save_baseline(doc, tmp_path / "planted.json")
    report = check_statistical(*load_baseline(path), seed=777)
    failed = {(r.arm, r.metric) for r in report.rows if r.verdict is Verdict.FAIL}
    assert ("forgetful", "cards_drawn") in failed
    assert report.exit_code == 1
    # the untouched arm does not fail
    assert not any(arm == "party" for arm, _ in failed)


def test_statistical_fails_on_a_broken_kernel_rule(baseline_file, monkeypatch):
    monkeypatch.setenv("UNOCLI_TEST_FAULT", "uno_penalty")
    report = check_statistical(*load_baseline(baseline_file), seed=99)
    assert report.exit_code == 1


def test_inconclusive_when_too_few_games(baseline_file):
    """200 games cannot show a 1% difference is absent: inconclusive, exit status 3."""
    report = check_statistical(*load_baseline(baseline_file), seed=5, games=200, tolerance=0.01)
    assert Verdict.INCONCLUSIVE in {r.verdict for r in report.rows}
    assert Verdict.FAIL not in {r.verdict for r in report.rows}
    assert report.exit_code == 3


# ---------------------------------------------------------------- CLI


def test_cli_baseline_and_check(tmp_path):
    exp = tmp_path / "e.toml"
    exp.write_text(
        'seed = 3\ngames = 3000\nplayers = [3]\n[base]\nrules = "official"\n[arms.a]\n[arms.b]\nrules = "stacking"\n',
        encoding="utf-8",
    )
    out = tmp_path / "b.json"
    runner = CliRunner()
    r = runner.invoke(cli, ["baseline", str(exp), "-o", str(out)])
    assert r.exit_code == 0, r.output
    doc = json.loads(out.read_text())
    assert {a["name"] for a in doc["arms"]} == {"a", "b"} and doc["seed"] == 3
    junit = tmp_path / "j.xml"
    r = runner.invoke(cli, ["check", str(out), "--exact", "--junit", str(junit)])
    assert r.exit_code == 0, r.output
    assert "pass" in r.output and junit.read_text().count("<testcase") == sum(len(a["metrics"]) + 1 for a in doc["arms"])
    r = runner.invoke(cli, ["check", str(out), "--seed", "8", "--tolerance", "0.5"])
    assert r.exit_code in (0, 3), r.output


def test_baseline_refuses_to_write_over_its_experiment_before_any_game(tmp_path, monkeypatch):
    """-o naming the experiment file itself is refused before a game is played (it was refused only at the write,
    after every game), and the file is left as it was."""
    from unocli.cli import balance

    exp = tmp_path / "e.json"  # an experiment file is TOML whatever it is named
    exp.write_text('seed = 3\ngames = 3000\nplayers = [3]\n[arms.a]\n[arms.b]\nrules = "stacking"\n', encoding="utf-8")
    before = exp.read_bytes()
    monkeypatch.setattr(balance, "make_baseline", lambda *a, **k: pytest.fail("a game was played"))
    r = CliRunner().invoke(cli, ["baseline", str(exp), "-o", str(exp)])
    assert r.exit_code == 1 and "is the experiment file this command reads" in r.output, r.output
    assert exp.read_bytes() == before


@pytest.mark.parametrize(
    "content, needle",
    [
        (None, "does not exist"),
        ("{not json", "not valid JSON"),
        ('{"format": "something-else"}', "not a unocli baseline"),
        ('{"format": "unocli-baseline", "format_version": 99}', "format version"),
    ],
)
def test_bad_baseline_files_exit_2(tmp_path, content, needle):
    path = tmp_path / "b.json"
    if content is not None:
        path.write_text(content)
    r = CliRunner().invoke(cli, ["check", str(path)])
    assert r.exit_code == 2
    assert needle in r.output and "Traceback" not in r.output


def test_baseline_naming_unknown_rule_is_refused(baseline_file, tmp_path):
    doc = json.loads(baseline_file.read_text())
    doc["arms"][0]["rules"]["house_rule_from_the_future"] = True
    path = tmp_path / "future.json"
    path.write_text(json.dumps(doc))
    with pytest.raises(BaselineError, match="house_rule_from_the_future"):
        load_baseline(path)
    r = CliRunner().invoke(cli, ["check", str(path)])
    assert r.exit_code == 2 and "no longer knows" in r.output


@pytest.mark.slow
def test_false_alarm_rate_within_alpha(baseline_file):
    """Against its own baseline over 200 fresh seeds, the check fails at most as often as alpha allows.

    With family-wise alpha = 0.01 the expected number of failing runs is at most
    2; P(Binomial(200, 0.01) > 6) < 0.005, so 6 is a safe ceiling.
    """
    doc, arms = load_baseline(baseline_file)
    fails = sum(check_statistical(doc, arms, seed=10_000 + i, alpha=0.01).exit_code == 1 for i in range(200))
    print(f"false alarms: {fails} of 200 checks at alpha 0.01")
    assert fails <= 6


def test_each_metric_is_a_z_test_with_the_larger_spread(baseline_file):
    """The per-metric test (before Holm) is a two-sample z test whose variance is the larger of the two sample
    variances (under "no change" they share one; the larger keeps a fresh sample that saw no rare event from making
    a rare count look significant); shares use the pooled score test, as scipy's normal tail computes it."""
    from scipy import stats as sps

    from unocli.balance.baseline import run_arm
    from unocli.balance.check import MetricTest, arm_tests

    doc, arms = load_baseline(baseline_file)
    rec = doc["arms"][0]
    result = run_arm(arms[0], 1500, 31)
    tests = arm_tests(arms[0].name, rec, result)
    assert len(tests) == len(rec["metrics"]) + 4 and all(isinstance(t, MetricTest) for t in tests)
    summary = result.summary().set_index("metric")
    n1 = result.acc.finished
    checked = 0
    for t in tests[: len(rec["metrics"])]:
        base = rec["metrics"][t.metric]
        assert (t.baseline, t.baseline_sd, t.now) == (base["mean"], base["sd"], summary.loc[t.metric, "mean"])
        sd = max(base["sd"], summary.loc[t.metric, "sd"])
        if sd == 0:
            assert t.test.p == (1.0 if t.test.diff == 0 else 0.0)
            continue
        z = (t.now - t.baseline) / (sd * (1 / n1 + 1 / GAMES) ** 0.5)
        assert t.test.diff / t.test.se == pytest.approx(z, rel=1e-9)
        assert t.test.p == pytest.approx(2 * sps.norm.sf(abs(z)), rel=1e-6, abs=1e-300)
        checked += 1
    assert checked >= 8
    for seat, t in enumerate(tests[len(rec["metrics"]) :]):
        k0, k1 = rec["wins"][seat], int(result.acc.wins[seat])
        pooled = (k0 + k1) / (GAMES + result.acc.games)
        z = (k1 / result.acc.games - k0 / GAMES) / (pooled * (1 - pooled) * (1 / GAMES + 1 / result.acc.games)) ** 0.5
        assert t.test.p == pytest.approx(2 * sps.norm.sf(abs(z)), rel=1e-6)


def test_small_samples_and_zero_variance_are_inconclusive_never_failed():
    from unocli.balance.check import mean_test, share_test

    # A rare count: the baseline saw some, a fresh 2-game sample none (sd 0) or one in both games.
    for now, sd_now in ((0.0, 0.0), (1.0, 0.0)):
        _, decidable = mean_test(now, sd_now, 2, 0.0047, 0.07, 40_000)
        assert not decidable
    # Decidable with enough games, and then a real shift is significant.
    d, decidable = mean_test(51.0, 25.0, 5000, 48.0, 25.0, 40_000)
    assert decidable and d.p < 1e-10
    # Both samples without spread: equal is p = 1, different is p = 0.
    assert mean_test(0.0, 0.0, 1000, 0.0, 0.0, 1000)[0].p == 1.0
    assert mean_test(1.0, 0.0, 1000, 0.0, 0.0, 1000)[0].p == 0.0
    # Win shares: two games cannot decide; 10,000 can.
    assert not share_test(2, 2, 10_000, 40_000)[1]
    assert share_test(2600, 10_000, 10_000, 40_000)[1]
