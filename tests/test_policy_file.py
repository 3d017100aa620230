"""sims/policies.toml ships the presets as data: it must say what the code does."""

from pathlib import Path

from unocli.game.policies import PRESETS, load_policies_file, preset

FILE = Path(__file__).resolve().parent.parent / "sims" / "policies.toml"


def test_shipped_policy_file_matches_the_presets():
    loaded = load_policies_file(FILE)
    assert set(loaded) == set(PRESETS)
    for name, policy in loaded.items():
        assert policy == preset(name), name


def test_user_policy_file_builds_on_a_preset(tmp_path):
    f = tmp_path / "mine.toml"
    f.write_text('[mine]\nbase = "basic"\nbluff = 0.3\n[theirs]\nbase = "mine"\nchallenge = 1\n', encoding="utf-8")
    loaded = load_policies_file(f)
    assert loaded["mine"] == preset("basic").replace(bluff=0.3)
    assert loaded["theirs"] == preset("basic").replace(bluff=0.3, challenge=1.0)
