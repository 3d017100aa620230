"""Make numba's on-disk cache of the kernel depend on every kernel source file.

Numba decides whether a cached function is stale from the source of the file
that defines it alone. ``play_batch`` lives in batch.py but compiles in code
from step.py, layout.py, rng.py and cards.py: an edit there (or an upgrade that
keeps batch.py's bytes) would silently run the old kernel. These locators
stamp the cache with a hash of all those files and the numba version instead.
Imported by ``unocli.kernel`` before any kernel function is defined.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

import numba
from numba.core import caching

_PACKAGE = Path(__file__).resolve().parent.parent
_SOURCES = [*sorted((_PACKAGE / "kernel").glob("*.py")), _PACKAGE / "rng.py", _PACKAGE / "cards.py"]


def kernel_stamp() -> str:
    """A hash of every file the kernel is compiled from, and of the numba version."""
    h = hashlib.sha256(numba.__version__.encode())
    for path in _SOURCES:
        h.update(path.name.encode())
        h.update(path.read_bytes())
    return h.hexdigest()


_STAMP = kernel_stamp()


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


def install() -> None:
    """Put the kernel locators first (idempotent)."""
    classes = caching.CacheImpl._locator_classes
    for cls in (KernelUserWideLocator, KernelInTreeLocator, KernelUserProvidedLocator):
        if cls not in classes:
            classes.insert(0, cls)


install()
