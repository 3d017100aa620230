"""The numba internals unocli relies on are still there.

pyproject.toml pins numba to the range these tests pass on. A numba release
that drops or changes one of these would otherwise fail quietly: the cache
stamp would stop applying (a stale kernel could run), or ``_nrt=False`` would
be ignored (a large slow-down). Each test names what breaks if it fails.
"""

from __future__ import annotations

import numba
import numpy as np
from numba.core import caching, cgutils

from unocli.kernel import _cache


def test_locator_list_is_a_mutable_class_attribute_and_ours_come_first() -> None:
    # Breaks: kernel/_cache.py cannot stamp the cache; edits to game/ would load a stale kernel.
    classes = caching.CacheImpl._locator_classes
    assert isinstance(classes, list)
    assert classes[0] in (_cache.KernelUserWideLocator, _cache.KernelInTreeLocator, _cache.KernelUserProvidedLocator)
    for base in (caching.UserProvidedCacheLocator, caching.InTreeCacheLocator, caching.UserWideCacheLocator):
        assert hasattr(base, "get_source_stamp") and hasattr(base, "from_function")


def test_the_kernel_cache_uses_our_stamp() -> None:
    # Breaks: same as above, seen from the compiled function's side.
    from unocli.kernel.batch import play_batch

    locator = play_batch._cache._impl._locator
    assert isinstance(locator, _cache._KernelStampMixin)
    assert locator.get_source_stamp() == _cache.kernel_stamp()


def test_compiled_without_the_runtime() -> None:
    # Breaks: the step functions would reference-count their arrays again (up to 40% slower).
    f = numba.njit(_nrt=False)(lambda a, i: a[i] + 1)
    assert f(np.arange(3), 1) == 2
    assert f.targetoptions.get("_nrt") is False


def test_cache_index_reader_for_is_compiled() -> None:
    # Breaks: ``unocli simulate`` cannot tell whether it will compile (it then always says so).
    from unocli.kernel.batch import play_batch

    assert callable(play_batch._cache._cache_file._load_index)


def test_pointer_intrinsic_helpers() -> None:
    # Breaks: batch.py's pointer intrinsic (workspace views) does not compile.
    assert cgutils.voidptr_t is not None
    assert hasattr(numba.extending, "intrinsic")
