"""The rule sentences that the scenario tests quote in their docstrings are docs/rules.md's current wording.

A scenario test names the clause it pins by quoting it ("..." in double quotes, with its section number), so
that searching docs/rules.md's wording finds the test. When docs/rules.md is reworded, these quotes have to
follow; this test fails on any quote that is no longer in docs/rules.md word for word.

A quote is a double-quoted run of 30 or more characters starting with a capital letter. Inside it "..." marks
left-out words and [brackets] an insertion, so each part between them (longer than 8 characters) is looked
up on its own. Whitespace, backticks and Markdown emphasis (`*`) are ignored on both sides, and a double
quote inside a backticked span (`wild_draw_four = "restricted"`) neither opens nor closes a quote."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
RULES = ROOT / "docs" / "rules.md"
FILES = [
    *sorted(p.name for p in (ROOT / "tests").glob("test_scenarios_*.py")),
    "test_situational_knobs.py",
    "test_engine_mutants.py",
]

QUOTE = re.compile(r'"([^"]{30,})"')
CODE_SPAN = re.compile(r"`[^`]*`")
HIDDEN_QUOTE = "\x00"


def normalise(text: str) -> str:
    """Whitespace runs become one space; backticks and Markdown emphasis go."""
    return re.sub(r"\s+", " ", text).replace("`", "").replace("*", "")


def quotes(doc: str) -> list[str]:
    """The rule quotes of a docstring, as written (whitespace runs made one space)."""
    doc = re.sub(r"\s+", " ", doc)
    doc = CODE_SPAN.sub(lambda m: m.group().replace('"', HIDDEN_QUOTE), doc)
    return [q.replace(HIDDEN_QUOTE, '"') for q in QUOTE.findall(doc) if q[:1].isupper()]


def parts(quote: str) -> list[str]:
    """The pieces of a quote that have to be in docs/rules.md: split at "..." and at [insertions]."""
    text = normalise(quote).strip(" .…")
    pieces = (p.strip(" .") for p in re.split(r"\.\.\.|…|\[.*?\]", text))
    return [p for p in pieces if len(p) > 8]


def docstrings(path: Path):
    """(name, docstring) of the module and of every class and function of a file."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            doc = ast.get_docstring(node)
            if doc:
                yield getattr(node, "name", "<module>"), doc


def stale(path: Path, rules: str) -> list[str]:
    """'name: "quote"' for every quote of the file with a part not found in the (normalised) rules."""
    return [f'{name}: "{q}"' for name, doc in docstrings(path) for q in quotes(doc) if not all(p in rules for p in parts(q))]


@pytest.fixture(scope="module")
def rules() -> str:
    return normalise(RULES.read_text(encoding="utf-8"))


@pytest.mark.parametrize("name", FILES)
def test_every_quoted_rule_sentence_is_in_rules_md(name, rules):
    path = ROOT / "tests" / name
    assert path.is_file(), f"{name} is gone: update FILES"
    found = [q for _, doc in docstrings(path) for q in quotes(doc)]
    bad = stale(path, rules)
    assert not bad, f"{len(bad)} of {len(found)} quotes in {name} are not in docs/rules.md:\n" + "\n".join(bad)


def test_the_quote_finder_reads_ellipses_insertions_and_code_spans():
    rules = normalise('Under `wild_draw_four = "restricted"` a player may **bluff**. Numbers score their value.')
    doc = '§3: "Under `wild_draw_four = "restricted"` a player may bluff." and "Under ... a player [then] may bluff."'
    assert quotes(doc) == ['Under `wild_draw_four = "restricted"` a player may bluff.', "Under ... a player [then] may bluff."]
    assert all(p in rules for q in quotes(doc) for p in parts(q))
    assert quotes('"lower-case fragments are not rule quotes at all"') == []
    assert quotes('"Too short to be a rule quote."') == []
    assert not all(p in rules for p in parts("Numbers score their face value in every hand."))
