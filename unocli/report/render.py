"""Reports: run experiments and write README.md, PNG and SVG charts and CSV tables.

``write_report(paths, out)`` runs each experiment file through its analysis
(registered in :mod:`unocli.report.registry`: compute, then render into a
:class:`~unocli.report.model.Section`) and writes the sections out. One
experiment writes everything into ``out``; several write one folder each
(``out/<name>/``, a complete report of its own) and ``out/README.md``
holding all of them in order, so the combined page can be read top to
bottom.

The charts of a report each have a title, axis labels, 95% intervals (bands or
error bars) and a caption with the sample size, rules, seed and unocli
version; each table of figures is also written as CSV with its intervals and
sample sizes.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from pathlib import Path

from unocli.errors import ConfigError
from unocli.files import load_toml
from unocli.folders import check_out_folder, writing
from unocli.game.policies import is_searching
from unocli.report import fmt
from unocli.report.analyses.common import Context
from unocli.report.experiment import Experiment, load_experiment, shipped_dir
from unocli.report.model import Chart, Section, TableBlock, md_table
from unocli.report.registry import DEFAULT_SET, analysis, kernels
from unocli.report.words import INTERVALS
from unocli.run.backends import Backend, LocalBackend
from unocli.version import __version__

Log = Callable[[str], None]


def default_paths() -> list[Path]:
    """The default set of experiments, in report order."""
    folder = shipped_dir()
    return [folder / f"{name}.toml" for name in DEFAULT_SET]


def kernels_for(paths: Sequence[str | Path]) -> tuple[str, ...]:
    """The compiled kernels the experiment files ``paths`` will use (``registry.kernels``), for the compile notice.

    A file that cannot be read names none here: loading it before any game is played says why.
    """
    names, searching = [], False
    for path in paths:
        try:
            raw = load_toml(path, "experiment file")
        except ConfigError:
            continue
        names.append(str(raw.get("analysis", "")))
        searching = searching or any(is_searching(spec) for spec in _policy_specs(raw))
    found = kernels(names)
    return (*found, "search") if searching and "search" not in found else found


def _policy_specs(raw: dict) -> list[str]:
    """The strings where an experiment file names policies: [options] (fields, players), and the policy and seats of
    [base] and of every arm (a seat is "N=SPEC")."""
    tables = [raw.get("base", {}), *(raw.get("arms", {}) or {}).values()]
    found = _strings(raw.get("options", {})) + _strings(
        [t.get(k) for t in tables if isinstance(t, dict) for k in ("policy", "seats")]
    )
    return [s.partition("=")[2] if s[:1].isdigit() else s for s in found]


def _strings(raw: object) -> list[str]:
    if isinstance(raw, str):
        return [raw]
    if isinstance(raw, dict):
        return [s for v in raw.values() for s in _strings(v)]
    if isinstance(raw, list):
        return [s for v in raw for s in _strings(v)]
    return []


def run_experiment(
    exp: Experiment, backend: Backend | None = None, log: Log | None = None, threads: int | None = None
) -> Section:
    """Run one experiment through its analysis."""
    ctx = Context(backend=backend or LocalBackend(), log=log or (lambda _: None), threads=threads)
    t0 = time.perf_counter()
    module = analysis(exp.analysis)
    section = module.render(module.compute(exp, ctx))
    section.meta.setdefault("seconds", time.perf_counter() - t0)
    section.meta.setdefault("file", exp.path.name)
    section.meta.setdefault("seed", exp.seed)
    section.meta.setdefault("quick", exp.quick)
    return section


def save_section(section: Section, folder: Path) -> None:
    """Write the section's charts (PNG and SVG) and tables (CSV) into ``folder``."""
    from unocli.report.plots import save  # matplotlib loads only when a report is written

    folder.mkdir(parents=True, exist_ok=True)
    for block in section.blocks:
        if isinstance(block, Chart):
            save(block.figure, folder, block.name)
        elif isinstance(block, TableBlock):
            block.data.to_csv(folder / f"{block.name}.csv", index=False)


def section_markdown(section: Section, link_prefix: str = "", heading: int = 1) -> str:
    """The section as Markdown, linking its files under ``link_prefix``."""
    h = "#" * heading
    out = [f"{h} {section.title}", ""]
    meta = section.meta
    size = " (quick run: small samples, wide intervals)" if meta.get("quick") else ""
    out += [
        f"*Experiment `{meta.get('file', section.name)}`, seed {meta.get('seed')}, unocli {__version__}{size}; "
        f"{fmt.count(meta.get('games', 0))} games played.*",
        "",
    ]
    if section.intro:
        out += [section.intro.strip(), ""]
    if section.findings:
        out += [f"{h}# Findings", ""] + [f"- {f}" for f in section.findings] + [""]
    for block in section.blocks:
        if isinstance(block, str):
            out += [block.strip(), ""]
        elif isinstance(block, Chart):
            out += [
                f"![{block.alt}]({link_prefix}{block.name}.png)",
                "",
                f"*{block.caption}* ([SVG]({link_prefix}{block.name}.svg))",
                "",
            ]
        else:
            out += [f"**{block.title}** ([CSV]({link_prefix}{block.name}.csv))", "", md_table(block.shown), ""]
            if block.note:
                out += [f"*{block.note}*", ""]
    return "\n".join(out)


def render_section(section: Section, folder: Path, link_prefix: str = "", heading: int = 1) -> str:
    """Write the section's files into ``folder`` and return its Markdown."""
    save_section(section, folder)
    return section_markdown(section, link_prefix, heading)


def write_report(
    paths: Sequence[str | Path],
    out: str | Path,
    *,
    quick: bool = False,
    backend: Backend | None = None,
    log: Log | None = None,
    threads: int | None = None,
    force: bool = False,
    note: Log | None = None,
    command: str | None = None,
) -> list[Path]:
    """Run experiment files and write their report into ``out``; return the Markdown files written.

    All files are loaded and validated, and ``out`` checked, before any game
    is played. ``out`` is replaced only when it is empty or an untouched
    folder unocli wrote (see :mod:`unocli.folders`); with ``force`` any other
    folder is moved aside, never deleted, and ``note`` is told where. Each
    report folder also gets an ``index.html`` and a share card
    (:mod:`unocli.report.html`); ``command`` is the command line its
    reproducibility block shows (default: the ``unocli report`` command that
    writes the same report).
    """
    if not paths:
        raise ConfigError("name at least one experiment file")
    experiments = [load_experiment(p, quick=quick) for p in paths]
    names = [e.name for e in experiments]
    dup = sorted({n for n in names if names.count(n) > 1})
    if dup:
        raise ConfigError(f"two experiments are named {dup[0]!r}: give them different 'name' keys")
    dest = check_out_folder(out, force=force)
    say = log or (lambda _: None)
    if command is None:
        from unocli.report.html import default_command

        shipped = [Path(p).resolve() for p in paths] == [p.resolve() for p in default_paths()]
        command = default_command([] if shipped else paths, out, quick)
    with writing(dest, "unocli report") as (tmp, done):
        written = _write_all(experiments, tmp, backend, say, threads, command)
    if note is not None and done.aside_note():
        note(str(done.aside_note()))
    return [dest.shown / path.relative_to(tmp) for path in written]


def _write_all(
    experiments: Sequence[Experiment], out: Path, backend: Backend | None, say: Log, threads: int | None, command: str
) -> list[Path]:
    """Run the experiments and write their report into ``out`` (a fresh temporary folder)."""
    from unocli.report.html import write_shareable

    written: list[Path] = []
    if len(experiments) == 1:
        section = run_experiment(experiments[0], backend, say, threads)
        text = render_section(section, out)
        written.append(_write(out / "README.md", text + _footer()))
        write_shareable([(experiments[0], section, out)], out, command)
        return written
    parts = [_index(experiments)]
    done = []
    for exp in experiments:
        say(f"{exp.name}: running {exp.path.name}")
        section = run_experiment(exp, backend, say, threads)
        folder = out / exp.name
        written.append(_write(folder / "README.md", render_section(section, folder) + _footer()))
        parts.append(section_markdown(section, link_prefix=f"{exp.name}/", heading=2))
        done.append((exp, section, folder))
        say(f"{exp.name}: done in {section.meta['seconds']:.0f} s")
    written.insert(0, _write(out / "README.md", "\n".join(parts) + _footer()))
    write_shareable(done, out, command)
    return written


def _index(experiments: Sequence[Experiment]) -> str:
    lines = [
        "# unocli report",
        "",
        "Each section below is one experiment; its folder holds the same section with PNG and SVG charts and the CSV tables.",
        "",
    ]
    for exp in experiments:
        lines.append(f"- [{exp.title}]({exp.name}/README.md)")
    return "\n".join(lines) + "\n"


def _footer() -> str:
    return f"\n---\nGenerated by unocli {__version__} (`unocli report`). {INTERVALS}\n"


def _write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path
