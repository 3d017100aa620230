"""Where shards of games run: here (local threads) or on a Dask cluster.

A run is split into shards of consecutive game indices. Each shard is a pure
function of (spec, start, count) and returns mergeable aggregates, so the
backend may run shards in any order, anywhere, and retry them: the merged
result is the same bit for bit.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import Protocol, TypeVar

T = TypeVar("T")
R = TypeVar("R")


class Backend(Protocol):
    """Runs ``fn`` over items and yields the results as they finish (any order)."""

    name: str

    def map_unordered(self, fn: Callable[[T], R], items: Iterable[T]) -> Iterator[R]: ...


class LocalBackend:
    """Shards one after another in this process; each uses all the kernel's threads."""

    name = "local"

    def map_unordered(self, fn: Callable[[T], R], items: Iterable[T]) -> Iterator[R]:
        for item in items:
            yield fn(item)


def get_backend(name: str = "local", scheduler: str | None = None) -> Backend:
    """The backend called ``name`` ('local' or 'dask')."""
    if name == "local":
        return LocalBackend()
    if name == "dask":
        from unocli.run.dask import DaskBackend  # optional dependency

        return DaskBackend(scheduler)
    from unocli.errors import ConfigError

    raise ConfigError(f"unknown backend {name!r}: use local or dask")
