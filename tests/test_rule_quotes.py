"""The rule sentences that the scenario tests quote in their docstrings are docs/rules.md's current wording.

A scenario test names the clause it pins by quoting it ("..." in double quotes, with its section number), so
that searching docs/rules.md's wording finds the test. When docs/rules.md is reworded, these quotes have to
follow; this test fails on any quote that is no longer in docs/rules.md word for word.

A quote is a double-quoted run of 12 or more characters, whatever its first character (lower case, a digit,
a bracket or a backtick too); shorter ones ("free", "+2 on +2") name a value rather than quote a clause and
are not checked. In the files checked, double quotes of that length are kept for docs/rules.md: a docstring
that quotes anything else (a code docstring, a README heading) uses single quotes or none. The double quotes
of a docstring are paired left to right, each closing mark consumed with its quote, so the text between two
quotes is never read as one; a docstring whose double quotes cannot pair that way (an odd number, or a
"quote" starting or ending with a space, the trace of a nested or stray mark) fails the test. Inside a quote
"..." marks left-out words and [brackets] an insertion, so each part between them (longer than 8
characters) is looked up on its own. Whitespace, backticks and Markdown emphasis (`*`) are ignored on both
sides, and a double quote inside a backticked span (`wild_draw_four = "restricted"`) neither opens nor
closes a quote."""

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

QUOTE = re.compile(r'"([^"]*)"')  # finditer/findall consume each pair, so quotes pair up left to right
MIN_LENGTH = 12
CODE_SPAN = re.compile(r"`[^`]*`")
HIDDEN_QUOTE = "\x00"


def normalise(text: str) -> str:
    """Whitespace runs become one space; backticks and Markdown emphasis go."""
    return re.sub(r"\s+", " ", text).replace("`", "").replace("*", "")


def _marked(doc: str) -> str:
    """A docstring with whitespace runs made one space and the double quotes of backticked spans hidden."""
    doc = re.sub(r"\s+", " ", doc)
    return CODE_SPAN.sub(lambda m: m.group().replace('"', HIDDEN_QUOTE), doc)


def quotes(doc: str) -> list[str]:
    """The rule quotes of a docstring, as written (whitespace runs made one space): every double-quoted run of
    MIN_LENGTH or more characters, the double quotes paired left to right."""
    return [q.replace(HIDDEN_QUOTE, '"') for q in QUOTE.findall(_marked(doc)) if len(q) >= MIN_LENGTH]


def unpaired(doc: str) -> list[str]:
    """Why the double quotes of a docstring do not pair up left to right; empty when they do."""
    doc = _marked(doc)
    count = doc.count('"')
    problems = [f"an odd number ({count}) of double quotes"] if count % 2 else []
    spaced = [q for q in QUOTE.findall(doc) if q != q.strip()]
    problems += [f'"{q}" starts or ends with a space (a nested or stray double quote)' for q in spaced]
    return problems


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
    """'name: "quote"' for every quote of the file with a part not found in the (normalised) rules, and
    'name: problem' for every docstring whose double quotes do not pair up."""
    bad = []
    for name, doc in docstrings(path):
        bad += [f"{name}: {problem}" for problem in unpaired(doc)]
        bad += [f'{name}: "{q}"' for q in quotes(doc) if not all(p in rules for p in parts(q))]
    return bad


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
    assert not all(p in rules for p in parts("Numbers score their face value in every hand."))


def test_the_quote_finder_takes_short_and_lower_case_quotes_but_not_the_text_between_quotes():
    assert quotes('§3: "a player may bluff" and "(the +4 included)"') == ["a player may bluff", "(the +4 included)"]
    assert quotes('"exactly 12 c" but not "only 11 chr"') == ["exactly 12 c"]
    # The text between two short quotes is long, but each closing mark is consumed with its quote.
    assert quotes('§1: "0", one per colour, and "1 to 9", two of each, then "Skip"') == []
    assert unpaired('§1: "0", one per colour, and "1 to 9", two of each, then "Skip"') == []


def test_double_quotes_that_do_not_pair_up_are_reported():
    assert unpaired('§8: "free" or "restricted') == ["an odd number (3) of double quotes"]
    nested = unpaired('§8: ""free" (legal anytime; no bluff exists)." ')
    assert nested == ['" (legal anytime; no bluff exists)." starts or ends with a space (a nested or stray double quote)']
    assert unpaired('§8: "`"free"`: legal at any time, so bluffs do not exist"') == []
