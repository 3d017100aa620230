"""Make numba's on-disk cache of the kernel depend on everything compiled into it.

Numba decides whether a cached function is stale from the source of the file
that defines it alone. ``play_batch`` lives in batch.py but compiles in code
from step.py and primitives.py, and constants from encode.py, which derives
them from the rule fields, policy knobs, counters and enums of ``unocli.game``
(numba freezes module globals at compile time). An edit anywhere there (say,
two rule fields swapped) would silently run the old kernel with the new
encoding. These locators stamp the cache with a hash of every unocli module
the kernel package imports, directly or not, found by reading the import
statements (so a new import is covered without a list to keep), and of the
numba and numpy versions. Imported by ``unocli.kernel`` before any kernel
function is defined.

Finding those modules means parsing them (about 0.1 s, a tenth of a warm
``unocli simulate``), so the list is remembered in a small file beside the
cache (:func:`stamped_sources`), with the size and modification time of each
file on it and of the folders holding them; it is reused only while all of
those are unchanged. The stamp itself is always a hash of the files' current
contents, so a stale list could only miss a module that an unchanged file
newly imports, which cannot happen.
"""

from __future__ import annotations

import ast
import functools
import hashlib
import json
import os
import stat
import tempfile
from pathlib import Path
from typing import Any

import numba
import numpy
from numba.core import caching

_PACKAGE = Path(__file__).resolve().parent.parent  # the unocli package folder
_ROOT = _PACKAGE.parent


def _module_file(name: str) -> Path | None:
    """The file of the unocli module NAME (a package's ``__init__.py``), or None."""
    parts = name.split(".")
    if parts[0] != "unocli":
        return None
    base = _ROOT.joinpath(*parts)
    for candidate in (base.with_suffix(".py"), base / "__init__.py"):
        if candidate.is_file():
            return candidate
    return None


def _imports(path: Path, module: str) -> set[str]:
    """Every unocli module named by an import statement in PATH (anywhere in it), with its parent packages."""
    tree = ast.parse(path.read_bytes())
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    for node in ast.walk(tree):  # imports only for type checkers never run: drop them
        if isinstance(node, ast.If) and ast.unparse(node.test) in ("TYPE_CHECKING", "typing.TYPE_CHECKING"):
            node.body = []
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            found.add(target)
            found.update(f"{target}.{alias.name}" for alias in node.names)  # ``from pkg import module``
    out: set[str] = set()
    for name in found:
        parts = name.split(".")
        out.update(".".join(parts[:i]) for i in range(1, len(parts) + 1))  # a package's __init__ runs too
    return {name for name in out if _module_file(name) is not None}


def kernel_sources() -> list[Path]:
    """Every unocli source file the kernel is built from: the kernel package and all it imports."""
    todo = [f"unocli.kernel.{p.stem}" if p.stem != "__init__" else "unocli.kernel" for p in (_PACKAGE / "kernel").glob("*.py")]
    seen: dict[str, Path] = {}
    while todo:
        name = todo.pop()
        path = _module_file(name)
        if name in seen or path is None:
            continue
        seen[name] = path
        todo.extend(_imports(path, name) - seen.keys())
    return sorted(set(seen.values()))


def _signature(files: list[Path]) -> list[list[object]]:
    """Size and modification time of FILES, of every kernel module, and of the folders that hold them.

    A folder's time changes when a file is added to it or removed, so a new
    kernel module (or one shadowing a package) changes the signature too.
    """
    kernel = sorted((_PACKAGE / "kernel").glob("*.py"))
    folders = {_PACKAGE, *(p.parent for p in files), *(p.parent for p in files if p.name == "__init__.py")}
    out: list[list[object]] = []
    for path in sorted({*files, *kernel}) + sorted(folders):
        st = path.stat()
        out.append([str(path), st.st_mtime_ns, st.st_size if stat.S_ISREG(st.st_mode) else 0])
    return out


def _memo_file() -> Path | None:
    """Where the list of kernel sources is remembered: beside numba's in-tree cache, else the private temporary folder."""
    name = f"unocli-kernel-sources-{hashlib.sha256(str(_PACKAGE).encode()).hexdigest()[:16]}.json"
    for folder in (_PACKAGE / "kernel" / "__pycache__", _temp_cache_root()):
        try:
            # The in-tree folder is the package's own __pycache__: made as Python makes it (0777 less the
            # umask; 0700 would lock other users of an editable install out). The temporary one is private.
            folder.mkdir(mode=0o700 if folder == _temp_cache_root() else 0o777, exist_ok=True)
            st = folder.stat()
        except OSError:
            continue
        # The temporary folder is shared: a list planted there by someone else could hide a source.
        if folder == _temp_cache_root() and (st.st_uid != os.getuid() or st.st_mode & 0o077):
            continue
        if os.access(folder, os.W_OK):
            return folder / name
    return None


def stamped_sources() -> list[Path]:
    """:func:`kernel_sources`, remembered while no file on the list (or folder holding one) has changed."""
    memo = _memo_file()
    try:
        saved = json.loads(memo.read_text(encoding="utf-8")) if memo is not None else None
        if isinstance(saved, dict):
            files = [Path(f) for f in saved["files"]]
            if saved["signature"] == _signature(files):
                return files
    except (OSError, ValueError, KeyError, TypeError):  # missing, unreadable or not ours: find them again
        pass
    files = kernel_sources()
    if memo is not None:
        tmp = memo.with_name(f".{memo.name}.{os.getpid()}.tmp")
        try:  # best effort, and atomic: a concurrent reader sees the old list or the new one
            tmp.write_text(json.dumps({"files": [str(p) for p in files], "signature": _signature(files)}), encoding="utf-8")
            os.replace(tmp, memo)
        except OSError:
            tmp.unlink(missing_ok=True)
    return files


def kernel_stamp() -> str:
    """A hash of every source file the kernel is built from, and of the numba and numpy versions."""
    h = hashlib.sha256(f"numba {numba.__version__} numpy {numpy.__version__}".encode())
    for path in stamped_sources():
        h.update(str(path.relative_to(_ROOT)).encode())
        h.update(path.read_bytes())
    return h.hexdigest()


@functools.cache  # asked for every kernel function by each locator class: ~100 path resolutions, 5 files
def _ours(py_file: str) -> bool:
    try:
        return Path(py_file).resolve().parent == _PACKAGE / "kernel"
    except OSError:
        return False


class _KernelStampMixin:
    def get_source_stamp(self) -> str:
        return _STAMP

    @classmethod
    def from_function(cls, py_func, py_file):
        if not _ours(py_file):
            return None
        return super().from_function(py_func, py_file)


class KernelUserProvidedLocator(_KernelStampMixin, caching.UserProvidedCacheLocator):
    pass


class KernelInTreeLocator(_KernelStampMixin, caching.InTreeCacheLocator):
    pass


class KernelUserWideLocator(_KernelStampMixin, caching.UserWideCacheLocator):
    pass


class KernelTempLocator(_KernelStampMixin, caching.UserWideCacheLocator):
    """The last resort: a private folder in the system's temporary folder.

    When the package folder is read-only (a system-wide install) and so is the
    user's cache folder (a read-only home), numba finds no locator and every
    command, ``--help`` included, would fail at import. This one caches in
    ``$TMPDIR/unocli-numba-UID``, made with mode 0700 and used only when it is
    this user's and writable by no one else (the cache holds pickles).
    """

    def __init__(self, py_func, py_file):
        super().__init__(py_func, py_file)
        self._cache_path = str(_temp_cache_root() / self.get_suitable_cache_subpath(py_file))

    def ensure_cache_path(self) -> None:
        root = _temp_cache_root()
        root.mkdir(mode=0o700, exist_ok=True)
        st = root.stat()
        if st.st_uid != os.getuid() or st.st_mode & 0o077:
            raise PermissionError(f"{root} is not this user's private folder")
        super().ensure_cache_path()


def _temp_cache_root() -> Path:
    return Path(tempfile.gettempdir()) / f"unocli-numba-{os.getuid()}"


_STAMP = kernel_stamp()


def install() -> None:
    """Put the kernel locators first (idempotent): user-provided, in-tree, user-wide, then the temporary folder."""
    classes = caching.CacheImpl._locator_classes
    for cls in (KernelUserWideLocator, KernelInTreeLocator, KernelUserProvidedLocator):
        if cls not in classes:
            classes.insert(0, cls)
    if KernelTempLocator not in classes:
        classes.insert(classes.index(KernelUserWideLocator) + 1, KernelTempLocator)


install()


def in_cache(dispatcher: Any) -> bool:
    """Is a cached kernel function in numba's on-disk cache (or compiled here), so its next call will not compile?

    Reads numba's cache index through private attributes; if they ever change, this answers False
    and the CLI merely says it is compiling. Two closures of one source (batch.play_batch and
    play_batch_search) share an index file: each looks for its own key in it.
    """
    if dispatcher.signatures:
        return True
    try:
        codegen = dispatcher.targetctx.codegen()
        return any(dispatcher._cache._index_key(key[0], codegen) == key for key in dispatcher._cache._cache_file._load_index())
    except Exception:  # pragma: no cover - depends on numba internals
        return False
