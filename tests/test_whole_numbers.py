"""A whole number's text reads as TOML reads it (game/limits.parse_whole), checked against tomllib itself."""

from __future__ import annotations

import tomllib

from hypothesis import example, given
from hypothesis import strategies as st

from unocli.game.limits import parse_whole


def _toml(text: str) -> int | None:
    try:
        value = tomllib.loads(f"x = {text}")["x"]
    except tomllib.TOMLDecodeError:
        return None
    return value if isinstance(value, int) and not isinstance(value, bool) else None


@given(st.text(alphabet="0123456789_+-\u0663 ", max_size=12))
@example("1_000")
@example("1__0")
@example("_4")
@example("100_")
@example("\u0663")
@example("+7")
def test_parse_whole_reads_what_toml_reads(text: str) -> None:
    """Equal to tomllib's reading of ``x = TEXT`` wherever TOML reads an integer; where it does not, None, but for
    two liberties taken on purpose: blanks around the number, and leading zeros ("007", which TOML refuses and int()
    reads as 7)."""
    ours, toml = parse_whole(text), _toml(text.strip())
    digits = text.strip().lstrip("+-")
    if len(digits) > 1 and digits.startswith("0") and ours is not None:
        assert ours == int(text)
        return
    assert ours == toml, (text, ours, toml)
