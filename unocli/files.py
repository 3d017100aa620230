"""Reading config files and writing output files, with every problem a one-sentence ConfigError.

- :func:`load_toml` / :func:`load_json`: the one loader of rules files, policy
  files, experiment files (TOML) and baselines (JSON). A missing file, a folder,
  a FIFO or device (refused before it is opened, so nothing waits on it), a
  file over :data:`MAX_INPUT_BYTES`, an unreadable or binary file, a syntax
  error (with its line), a number too long to read, nesting deeper than
  :data:`MAX_DEPTH` and (TOML) a number that is not finite each get a sentence
  naming the file.
- :func:`write_atomic` / :func:`write_text_atomic`: the one writer of outputs
  that must never be left half-written (tables, baselines): a temporary file in
  the same folder, flushed to disk, then renamed over the target (a link's
  target: the link stays). Within :func:`inputs_kept` (every CLI command) no
  output may be written over a file the command read.
- :func:`check_table_path` / :func:`write_table`: tables as Parquet or CSV.
"""

from __future__ import annotations

import datetime
import json
import math
import os
import re
import secrets
import stat
import sys
import tomllib
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path
from typing import TYPE_CHECKING, Any

from unocli.errors import ConfigError

if TYPE_CHECKING:
    import pandas as pd

TABLE_SUFFIXES = (".parquet", ".csv")


# ---------------------------------------------------------------- reading


MAX_INPUT_BYTES = 16 * 2**20  # the largest input file read: the shipped ones are under 40 KB
MAX_DEPTH = 32  # lists and tables nested deeper than any unocli file needs (a baseline nests 5 deep)
_LONG_NUMBER = re.compile(rf"\d{{{(sys.get_int_max_str_digits() or 4300) + 1},}}")  # what int() refuses to read


# The files read so far by the command running (None: outside inputs_kept, nothing is remembered).
_INPUTS: ContextVar[dict[str, str] | None] = ContextVar("unocli_inputs", default=None)


@contextmanager
def inputs_kept() -> Iterator[None]:
    """Within the block every file :func:`read_text` reads is remembered, and :func:`check_file_path` and
    :func:`write_atomic` refuse to write over one of them: a command's output never replaces its own input (a
    tuned policies file written over the policies file it read, a table over the experiment file)."""
    token = _INPUTS.set({})
    try:
        yield
    finally:
        _INPUTS.reset(token)


def _input_named(path: Path) -> str | None:
    """What ``path`` was read as by this command ("policies file"), or None."""
    read = _INPUTS.get()
    return None if not read else read.get(os.path.realpath(path))


def _refuse_input(path: Path, option: str = "") -> None:
    """Refuse to write ``path`` when this command read it as an input."""
    what = _input_named(path)
    if what:
        raise ConfigError(f"{option or 'output file'} {str(path)!r} is the {what} this command reads: write elsewhere")


def read_text(path: str | Path, what: str, error: type[ConfigError] = ConfigError) -> str:
    """The text of a UTF-8 file; ``what`` names it in errors ("rules file"), raised as ``error``.

    Only a regular file is read: a FIFO or a device is refused before anything
    waits on it (it is opened without blocking, then checked again, so a file
    swapped for a FIFO in between cannot hang either).
    """
    p = Path(path)
    name = f"{what} {str(p)!r}"
    try:
        _check_regular(os.stat(p), name, error)
        fd = os.open(p, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
        try:
            _check_regular(os.fstat(fd), name, error)
            with os.fdopen(fd, "rb", closefd=False) as f:
                data = f.read(MAX_INPUT_BYTES + 1)
        finally:
            os.close(fd)
    except ConfigError:
        raise
    except FileNotFoundError:
        raise error(f"{name} does not exist") from None
    except (IsADirectoryError, NotADirectoryError) as exc:
        if isinstance(exc, NotADirectoryError):
            raise error(f"{name} does not exist (a part of its path is a file, not a folder)") from None
        raise error(f"{name} is a folder, not a file") from None
    except PermissionError:
        raise error(f"{name} cannot be read: permission denied") from None
    except OSError as exc:
        raise error(f"{name} cannot be read: {_reason(exc)}") from None
    except ValueError as exc:  # a path too long or holding a NUL byte (os calls raise ValueError)
        raise error(f"{name} cannot be read: {_one_line(str(exc))}") from None
    if len(data) > MAX_INPUT_BYTES:
        raise error(f"{name} is larger than {MAX_INPUT_BYTES // 2**20} MB, far more than any unocli input file needs")
    if b"\0" in data:
        raise error(f"{name} is a binary file, not text")
    read = _INPUTS.get()
    if read is not None:
        read.setdefault(os.path.realpath(p), what)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise error(f"{name} is not UTF-8 text (a byte that is not UTF-8 on line {line})") from None


_KINDS = (
    (stat.S_ISFIFO, "a FIFO (named pipe)"),
    (stat.S_ISSOCK, "a socket"),
    (stat.S_ISCHR, "a device"),
    (stat.S_ISBLK, "a device"),
)


def _check_regular(st: os.stat_result, name: str, error: type[ConfigError]) -> None:
    """Refuse anything but a regular file (a folder raises IsADirectoryError, worded by the caller)."""
    if stat.S_ISREG(st.st_mode):
        return
    if stat.S_ISDIR(st.st_mode):
        raise IsADirectoryError
    kind = next((k for test, k in _KINDS if test(st.st_mode)), "a special file")
    raise error(f"{name} is {kind}, not a regular file")


def load_toml(path: str | Path, what: str, error: type[ConfigError] = ConfigError) -> dict[str, Any]:
    """A TOML file as a dict (see :func:`read_text`); a syntax error names its line.

    Every number in it must be finite (``inf`` and ``nan`` are TOML, but no
    unocli setting means them), and it may nest at most :data:`MAX_DEPTH` deep.
    """
    text = read_text(path, what, error)
    name = f"{what} {str(Path(path))!r}"
    try:
        doc = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        # tomllib's message ends "(at line L, column C)" or "(at end of document)".
        raise error(f"{name} is not valid TOML: {_one_line(str(exc))}") from None
    except (RecursionError, ValueError) as exc:
        raise error(_unreadable(name, text, exc)) from None
    _check_document(doc, name, error, finite=True)
    return doc


def load_json(path: str | Path, what: str, error: type[ConfigError] = ConfigError) -> Any:
    """A JSON file's value (see :func:`read_text`); a syntax error names its line; nesting as :func:`load_toml`."""
    text = read_text(path, what, error)
    name = f"{what} {str(Path(path))!r}"
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as exc:
        raise error(f"{name} is not valid JSON ({exc.msg} at line {exc.lineno})") from None
    except (RecursionError, ValueError) as exc:
        raise error(_unreadable(name, text, exc)) from None
    _check_document(doc, name, error, finite=False)
    return doc


def _unreadable(name: str, text: str, exc: BaseException) -> str:
    """Why a parser gave up on text it could not represent: nesting too deep, or an integer too long."""
    if isinstance(exc, RecursionError):
        return f"{name} nests lists or tables more than {MAX_DEPTH} deep"
    long = _LONG_NUMBER.search(text.replace("_", ""))
    if long is not None:
        line = text.replace("_", "")[: long.start()].count("\n") + 1
        return f"{name} holds a number of {long.end() - long.start():,} digits on line {line}, far beyond any setting"
    return f"{name} cannot be read: {_one_line(str(exc))}"  # pragma: no cover - no other ValueError is known


def _check_document(doc: Any, name: str, error: type[ConfigError], finite: bool) -> None:
    """Refuse nesting deeper than MAX_DEPTH and (``finite``: TOML) any number that is inf or nan or any date or time
    (no unocli setting is one; a loader's "not datetime.date(2024, 1, 1)" would show Python, not the file), naming
    its key."""
    todo: list[tuple[Any, str, int]] = [(doc, "", 0)]
    while todo:
        value, key, depth = todo.pop()
        if isinstance(value, dict | list):
            if depth >= MAX_DEPTH:
                raise error(f"{name} nests lists or tables more than {MAX_DEPTH} deep (at {key!r})")
            if isinstance(value, dict):
                todo.extend((v, f"{key}.{k}" if key else str(k), depth + 1) for k, v in value.items())
            else:
                todo.extend((v, f"{key}[{i}]", depth + 1) for i, v in enumerate(value))
        elif finite and isinstance(value, float) and not math.isfinite(value):
            raise error(f"{name}: {key!r} is {value}, but every number must be finite")
        elif finite and isinstance(value, datetime.date | datetime.time):
            raise error(f"{name}: {key!r} is a date or time ({value.isoformat()}), which no unocli setting is")


# ---------------------------------------------------------------- writing


def write_atomic(path: str | Path, write: Callable[[Path], object]) -> Path:
    """Have ``write(tmp)`` write a temporary file next to ``path``, then rename it to ``path``.

    The temporary file is created with mode 0666 less the user's umask (as
    ``open`` would create ``path``; ``tempfile.mkstemp`` would give 0600), is
    flushed to disk before the rename, and is removed on any error, so a failure
    leaves any previous ``path`` as it was. Errors become a ConfigError sentence
    (an interrupt is re-raised as it is, after the clean-up). A symbolic link is
    written where it points, and stays a link.
    """
    p = Path(path)
    target = Path(os.path.realpath(p)) if p.is_symlink() else p
    parent = target.parent
    if not parent.is_dir():
        raise ConfigError(f"cannot write {str(p)!r}: the folder {str(parent)!r} does not exist")
    if target.is_dir():
        raise ConfigError(f"cannot write {str(p)!r}: it is a folder")
    _refuse_input(p)
    tmp = _create_temp(target)
    try:
        write(tmp)
        fd = os.open(tmp, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(tmp, target)
    except BaseException as exc:
        tmp.unlink(missing_ok=True)
        if not isinstance(exc, Exception):
            raise
        raise ConfigError(f"cannot write {str(p)!r}: {_reason(exc)}") from exc
    _fsync_folder(parent)
    return p


def write_text_atomic(path: str | Path, text: str) -> Path:
    """Write ``text`` (UTF-8) to ``path`` with :func:`write_atomic`."""
    return write_atomic(path, lambda tmp: tmp.write_text(text, encoding="utf-8"))


def _create_temp(p: Path) -> Path:
    """An empty new file ``.NAME.XXXXXXXX.tmp`` beside ``p``, mode 0666 less the umask."""
    for _ in range(100):
        tmp = p.with_name(f".{p.name}.{secrets.token_hex(4)}.tmp")
        try:
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)  # the kernel applies the umask
        except FileExistsError:
            continue
        except OSError as exc:
            raise ConfigError(f"cannot write {str(p)!r}: {_reason(exc)}") from None
        os.close(fd)
        return tmp
    raise ConfigError(f"cannot write {str(p)!r}: no free temporary file name in {str(p.parent)!r}")  # pragma: no cover


def _fsync_folder(folder: Path) -> None:
    """Flush the rename itself to disk, where the system allows it (best effort)."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def _reason(exc: BaseException) -> str:
    """Why an operation failed, in a few lowercase words (``strerror`` for system errors)."""
    if isinstance(exc, PermissionError):
        return "permission denied"
    if isinstance(exc, OSError) and exc.strerror:
        return exc.strerror[:1].lower() + exc.strerror[1:]
    return _one_line(str(exc)) or type(exc).__name__


def _one_line(text: str) -> str:
    return " ".join(text.split())


# ---------------------------------------------------------------- tables


def check_file_path(path: str | Path, suffixes: tuple[str, ...] = (), what: str = "output file") -> Path:
    """Refuse, before any work is done, a file path that cannot be written.

    The folder must exist and take a new file (tried by creating and removing
    an empty temporary file there: ``os.access`` says yes to root everywhere,
    /proc and read-only mounts included), the path must not be a folder, and
    its extension must be one of ``suffixes`` when given.
    """
    p = Path(path)
    if suffixes and p.suffix.lower() not in suffixes:
        raise ConfigError(f"{what} {str(p)!r} must end in {' or '.join(suffixes)}")
    if not p.name:
        raise ConfigError(f"{what} {str(p)!r} names no file")
    parent = p.parent if str(p.parent) else Path(".")
    _check_folder_exists(p, parent)
    if p.is_dir():
        raise ConfigError(f"cannot write {str(p)!r}: it is a folder")
    _refuse_input(p, what)
    if p.exists() and not os.access(p, os.W_OK):
        raise ConfigError(f"cannot write {str(p)!r}: permission denied")
    _probe(p)
    return p


def check_folder_path(path: str | Path, what: str = "output folder") -> Path:
    """Refuse, before any work is done, an output folder that cannot be made or written into.

    A folder that does not exist yet is fine when its nearest existing
    ancestor is a folder that takes new entries (it is made when written).
    """
    p = Path(path)
    if p.exists() and not p.is_dir():
        raise ConfigError(f"{what} {str(p)!r} is a file, not a folder")
    ancestor = p
    while not ancestor.exists():
        if ancestor.parent == ancestor:
            break
        ancestor = ancestor.parent
    if not ancestor.is_dir():
        raise ConfigError(f"cannot make {what} {str(p)!r}: {str(ancestor)!r} is a file, not a folder")
    _probe(ancestor / ".unocli-probe", shown=p)
    return p


def _check_folder_exists(p: Path, parent: Path) -> None:
    try:
        ok = parent.is_dir()
    except OSError as exc:  # pragma: no cover - a path too long or a broken mount
        raise ConfigError(f"cannot write {str(p)!r}: {_reason(exc)}") from None
    if not ok:
        what = "is a file, not a folder" if parent.exists() else "does not exist"
        raise ConfigError(f"cannot write {str(p)!r}: the folder {str(parent)!r} {what}")


def _probe(p: Path, shown: Path | None = None) -> None:
    """Create and remove an empty temporary file beside ``p``: the one sure test that the folder takes files."""
    try:
        tmp = _create_temp(p)
    except ConfigError as exc:
        if shown is None:
            raise
        raise ConfigError(str(exc).replace(repr(str(p)), repr(str(shown)))) from None
    tmp.unlink(missing_ok=True)


def check_table_path(path: str | Path) -> Path:
    """Refuse, before any work is done, a table path (.parquet or .csv) that cannot be written."""
    return check_file_path(path, TABLE_SUFFIXES)


def write_table(df: pd.DataFrame, path: str | Path) -> Path:
    """Write ``df`` as Parquet or CSV with :func:`write_atomic`, so a failure leaves nothing half-written."""
    p = check_table_path(path)
    if p.suffix.lower() == ".parquet":
        return write_atomic(p, lambda tmp: df.to_parquet(tmp, index=False))
    return write_atomic(p, lambda tmp: df.to_csv(tmp, index=False))


def display_path(path: str | Path) -> str:
    """A file's name for text a user reads or shares (reports, captions, messages): never an absolute path.

    A file of unocli's package data is "unocli's shipped sims/tuned/tuned.toml"
    (the same words on every machine, wherever unocli is installed); a file
    under the working folder is its path relative to it; any other file is its
    name alone (the folders above it are the user's, and say nothing to a reader).
    """
    from importlib.resources import files

    p = Path(path)
    if not p.is_absolute():
        return p.as_posix()
    data = Path(str(files("unocli") / "data"))
    # In a source tree the data's entries are links (data/sims -> sims/): a path through either is shipped data.
    for entry in sorted(data.iterdir()) if data.is_dir() else ():
        for base in dict.fromkeys((entry, entry.resolve())):
            for candidate in dict.fromkeys((p, p.resolve())):
                if candidate.is_relative_to(base):
                    return f"unocli's shipped {Path(entry.name, candidate.relative_to(base)).as_posix()}"
    here = Path.cwd()
    for base in dict.fromkeys((here, here.resolve())):
        if p.is_relative_to(base):
            return p.relative_to(base).as_posix()
    return p.name
