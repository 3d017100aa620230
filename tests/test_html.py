"""The HTML report and the share cards: what a page holds, that it links nothing outside its folder, that no
report text names an absolute path, and that each debate's card is a 1200 x 630 PNG (tiny game counts)."""

from __future__ import annotations

import os
import re
import sysconfig
from html.parser import HTMLParser
from pathlib import Path

import pytest
from click.testing import CliRunner
from test_report import COMPARE_TOML, tiny

from unocli import __version__
from unocli.cli.main import cli
from unocli.files import display_path
from unocli.report.card import CARD, chart_numbers, plain
from unocli.report.html import PAGE, inline, is_inside, paragraphs, write_shareable
from unocli.report.model import Chart, TableBlock, sentences
from unocli.report.render import DEFAULT_SET, _footer, _write, render_section, run_experiment
from unocli.report.repro import players_text

ROOT = Path(__file__).resolve().parents[1]
SIX = (*DEFAULT_SET, "skill")


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """The six shipped debates at tiny sizes, written as one run (Markdown, HTML, cards) from inside the run's folder."""
    base = tmp_path_factory.mktemp("site")
    out = base / "report"
    with pytest.MonkeyPatch.context() as mp:
        mp.chdir(base)  # a report run from its parent folder, as `unocli report --out report` would be
        done = []
        for name in SIX:
            exp = tiny(name)
            section = run_experiment(exp)
            folder = out / name
            _write(folder / "README.md", render_section(section, folder) + _footer())
            done.append((exp, section, folder))
        write_shareable(done, out, "unocli report --out report")
    return base, out, {exp.name: (exp, section, folder) for exp, section, folder in done}


# ---------------------------------------------------------------- reading a page


class Page(HTMLParser):
    """Every link target of a page (href, src, srcset, CSS url(...)), its element ids, and its tags in order."""

    def __init__(self, text: str) -> None:
        super().__init__(convert_charrefs=True)
        self.targets: list[str] = []
        self.ids: list[str] = []
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.feed(text)
        self.targets += re.findall(r"url\(\s*['\"]?([^'\")]+)", text)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        self.tags.append((tag, a))
        for key in ("href", "src", "xlink:href", "action", "data", "poster"):
            if a.get(key):
                self.targets.append(str(a[key]))
        if a.get("srcset"):
            self.targets += [part.split()[0] for part in str(a["srcset"]).split(",") if part.strip()]
        if tag == "meta" and a.get("property") == "og:image" and a.get("content"):
            self.targets.append(str(a["content"]))
        if a.get("id"):
            self.ids.append(str(a["id"]))


def outside_links(page: Path) -> list[str]:
    """The links of ``page`` that leave its folder or need the network, or name a file that is not there."""
    bad = []
    for target in Page(page.read_text(encoding="utf-8")).targets:
        if target.startswith(("#", "data:")):
            continue  # a fragment of the page itself (an SVG's glyphs, clip paths) or data inline (a heatmap's image)
        if re.match(r"^[a-z][a-z0-9+.-]*:", target, re.I) or target.startswith(("/", "\\")) or ".." in re.split(r"[/\\]", target):
            bad.append(target)
        elif not (page.parent / target.split("#")[0]).is_file():
            bad.append(f"{target} (missing)")
    return bad


def test_the_link_check_sees_every_kind_of_outside_link(tmp_path):
    (tmp_path / "here.svg").write_text("<svg/>", encoding="utf-8")
    page = tmp_path / "p.html"
    page.write_text(
        '<a href="here.svg">ok</a><a href="#x">ok</a><img src="https://example.org/a.png"><a href="/etc/passwd">x</a>'
        '<link rel="stylesheet" href="../style.css"><img src="gone.png"><div style="background: url(http://x/y.png)"></div>'
        '<img srcset="file:///tmp/a.png 2x"><meta property="og:image" content="//cdn/x.png"><img src="data:image/png;base64,AA">',
        encoding="utf-8",
    )
    assert outside_links(page) == [
        "https://example.org/a.png",
        "/etc/passwd",
        "../style.css",
        "gone.png (missing)",
        "file:///tmp/a.png",
        "//cdn/x.png",
        "http://x/y.png",
    ]


# ---------------------------------------------------------------- the pages


def test_every_page_links_nothing_outside_its_folder(site):
    _, out, done = site
    pages = [out / PAGE] + [folder / PAGE for _, _, folder in done.values()]
    assert all(p.is_file() for p in pages) and len(pages) == 7
    for page in pages:
        text = page.read_text(encoding="utf-8")
        assert not re.search(r"https?:|//", text), page  # no web address, not even an XML namespace
        assert "<script" not in text and "<link" not in text, page  # no script, no style sheet to fetch
        assert outside_links(page) == [], page


def test_a_section_page_holds_the_answer_first_then_findings_every_chart_table_and_how_to_reproduce(site):
    _, _, done = site
    for name, (exp, section, folder) in done.items():
        text = (folder / PAGE).read_text(encoding="utf-8")
        page = Page(text)
        tags = [t for t, _ in page.tags]
        # the answer is the first paragraph after the question
        assert tags[tags.index("h1") + 1] == "p" and page.tags[tags.index("h1") + 1][1].get("class") == "answer", name
        assert str(inline(section.answer)) in text
        charts = [b for b in section.blocks if isinstance(b, Chart)]
        tables = [b for b in section.blocks if isinstance(b, TableBlock)]
        svgs = re.findall(r"<svg\b", text)
        assert len(svgs) == len(charts) > 0 and tags.count("table") == len(tables), name
        for block in tables:
            assert f'href="{block.name}.csv"' in text
        assert text.index('class="answer"') < text.index("<svg") < text.index('class="repro"')
        if section.findings:
            assert text.index('class="answer"') < text.index(">Findings<") < text.index("<svg")
        repro = text[text.index('class="repro"') :]
        for fact in (__version__, exp.path.name, str(exp.seed), "unocli report --out report", f"{section.meta['games']:,}"):
            assert fact in repro, (name, fact)


def test_every_page_ends_with_what_its_intervals_are(site):
    """The footer of index.html, as of README.md, says intervals are 95% unless a level is given (simultaneous ones
    say theirs), in the one text both read."""
    from html import escape

    from unocli.report.words import INTERVALS

    _, out, done = site
    assert "unless a table, chart or sentence gives another level" in INTERVALS
    for page in [out / PAGE] + [folder / PAGE for _, _, folder in done.values()]:
        footer = page.read_text(encoding="utf-8").split("<footer>")[-1]
        assert escape(INTERVALS, quote=False) in " ".join(footer.split()), page


def test_ids_are_unique_on_every_page(site):
    # matplotlib names glyphs and clip paths alike in every SVG; two inlined charts must not share one
    _, out, done = site
    for page in [out / PAGE] + [folder / PAGE for _, _, folder in done.values()]:
        ids = Page(page.read_text(encoding="utf-8")).ids
        assert len(ids) > 100 and len(ids) == len(set(ids)), page


def test_the_run_page_opens_each_debate_with_its_answer_and_links_its_page(site):
    _, out, done = site
    text = (out / PAGE).read_text(encoding="utf-8")
    for name, (_, section, _) in done.items():
        assert f'href="{name}/{PAGE}"' in text and f'href="{name}/{CARD}"' in text
        assert text.index(f'id="{name}"') < text.index(str(inline(section.answer)))
    assert len(re.findall(r"<svg\b", text)) == len(SIX)  # each debate's headline chart, the rest on its own page


def test_markdown_marks_become_html_after_escaping():
    got = str(inline("a <b> & `x*y*<z>` **bold** *it* [here](table.csv) [away](https://x.org/) [up](../r.md)"))
    assert got == (
        'a &lt;b&gt; &amp; <code>x*y*&lt;z&gt;</code> <strong>bold</strong> <em>it</em> <a href="table.csv">here</a> away up'
    )
    assert is_inside("a/b.svg") and not is_inside("/a") and not is_inside("a/../../b") and not is_inside("data:x")


def test_prose_becomes_paragraphs_and_lists():
    got = paragraphs("One\nparagraph.\n\n- a\n- b that\n  wraps\n\nLast `x`.")
    assert got == [{"text": "One paragraph."}, {"bullets": ["a", "b that wraps"]}, {"text": "Last <code>x</code>."}]


def test_players_text_is_a_range_or_a_list():
    assert [players_text(p) for p in ((4,), (2, 4), (2, 4, 6), tuple(range(2, 11)))] == ["4", "2 and 4", "2, 4 and 6", "2-10"]


# ---------------------------------------------------------------- the answers and the cards


def test_sentences_split_at_full_stops_outside_brackets():
    paragraph = (
        "**Answer.** A round takes 50.9 turns (n = 1,000. Wilson) [-0.8, +0.3]. `tuned` wins 26.5% of rounds. "
        "Under e.g. stacking it is shorter."
    )
    assert sentences(paragraph) == [
        "A round takes 50.9 turns (n = 1,000. Wilson) [-0.8, +0.3].",
        "`tuned` wins 26.5% of rounds.",
        "Under e.g. stacking it is shorter.",
    ]


def test_each_of_the_six_debates_has_a_one_sentence_answer_from_its_own_text(site):
    _, _, done = site
    assert sorted(done) == sorted(SIX)
    for name, (_, section, _) in done.items():
        a = section.answer
        assert a and a in section.intro, name  # taken from the report's answer paragraph, not written anew
        assert sentences(a) == [a] and re.search(r"\d", a), name  # one sentence, with its figures


def test_every_debate_has_a_share_card_of_1200_by_630(site):
    from matplotlib.image import imread

    _, _, done = site
    for name, (_, _, folder) in done.items():
        image = imread(folder / CARD)
        assert image.shape[:2] == (630, 1200), name
        assert image[..., :3].std() > 0.05, name  # not a blank card: text and a chart on white


def test_a_card_names_the_charts_sample_size_and_intervals():
    caption = (
        "Turns per round, 4 players. n = 2,000 rounds per rule set. Rules: official. Policies: basic. Seed 7, "
        "game-length.toml, unocli 0.1.0. Bands are 95% t intervals."
    )
    assert chart_numbers(caption) == ("n = 2,000 rounds per rule set", "Bands are 95% t intervals.")
    assert plain("**Answer.** `tuned` wins *more*") == "Answer. tuned wins more"


# ---------------------------------------------------------------- no absolute paths


def _texts(folder: Path) -> dict[Path, str]:
    return {
        p: p.read_text(encoding="utf-8")
        for p in sorted(folder.rglob("*"))
        if p.is_file() and p.suffix in {".md", ".html", ".csv", ".toml", ".json", ".txt"}
    }


ABSOLUTE = re.compile(r"(?<![\w.~-])/(?:home|root|tmp|usr|opt|work|var|Users|private|nix|srv|mnt)/")


def _absolute_paths(texts: dict[Path, str], extra: list[str]) -> list[str]:
    found = []
    for path, text in texts.items():
        for needle in extra:
            if needle and needle in text:
                found.append(f"{path}: {needle}")
        found += [f"{path}: {m.group(0)}..." for m in ABSOLUTE.finditer(text)]
    return found


def _machine_paths(*more: Path) -> list[str]:
    return [str(p) for p in (*more, ROOT, Path(sysconfig.get_paths()["purelib"]), Path.home()) if len(str(p)) > 1]


def test_the_committed_reports_name_no_absolute_path():
    texts = _texts(ROOT / "reports")
    assert len(texts) > 40 and any(p.name == "tuned.toml" for p in texts)
    assert _absolute_paths(texts, _machine_paths()) == []


def test_a_fresh_report_names_no_absolute_path(site):
    base, out, _ = site
    texts = _texts(out)
    assert len([p for p in texts if p.name in ("README.md", PAGE)]) == 6 + 7  # each debate's two, and the run's page
    assert any("tuned.toml" in t for t in texts.values())  # the tuned players' file is named, by its shipped name
    assert _absolute_paths(texts, _machine_paths(base, base.resolve())) == []


def test_the_path_check_sees_an_absolute_path(tmp_path):
    texts = {tmp_path / "a.md": f"from {tmp_path}/x.toml", tmp_path / "b.md": "see /home/ann/p.toml; 1/n is fair; ~/x/"}
    assert len(_absolute_paths(texts, [str(tmp_path)])) == 2 + (1 if str(tmp_path).startswith("/tmp/") else 0)


def test_display_path_names_shipped_data_and_relative_paths(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert display_path(ROOT / "sims" / "tuned" / "tuned.toml") == "unocli's shipped sims/tuned/tuned.toml"
    assert display_path(ROOT / "unocli" / "data" / "sims" / "skill.toml") == "unocli's shipped sims/skill.toml"
    assert display_path(tmp_path / "exp" / "a.toml") == "exp/a.toml"
    assert display_path("exp/a.toml") == "exp/a.toml"
    assert display_path(Path(os.sep, "elsewhere", "p.toml")) == "p.toml"


# ---------------------------------------------------------------- the command


def test_report_command_writes_the_page_and_card_with_the_command_as_given(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    Path("planted.toml").write_text(COMPARE_TOML.replace("games = 300", "games = 100"), encoding="utf-8")
    result = CliRunner().invoke(cli, ["report", "planted.toml", "--out", "out", "--quiet"], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    page = (tmp_path / "out" / PAGE).read_text(encoding="utf-8")
    assert "<code>unocli report planted.toml --out out --quiet</code>" in page
    assert (tmp_path / "out" / CARD).stat().st_size > 10_000
    readme = (tmp_path / "out" / "README.md").read_text(encoding="utf-8")
    assert PAGE not in readme and CARD not in readme  # the Markdown is as it was
    assert outside_links(tmp_path / "out" / PAGE) == []


def test_a_report_written_from_python_shows_the_command_that_writes_it(tmp_path, monkeypatch):
    from unocli.report.html import default_command

    monkeypatch.chdir(tmp_path)
    assert default_command([tmp_path / "exp" / "a.toml"], tmp_path / "out", True) == "unocli report exp/a.toml --out out --quick"
    assert default_command([], "out", False) == "unocli report --out out --full"
