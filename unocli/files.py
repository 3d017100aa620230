"""Writing tables to files: checked before a run, written atomically after it."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import pandas as pd

from unocli.errors import ConfigError

TABLE_SUFFIXES = (".parquet", ".csv")


def check_table_path(path: str | Path) -> Path:
    """Refuse, before any work is done, an output path that cannot be written."""
    p = Path(path)
    if p.suffix.lower() not in TABLE_SUFFIXES:
        raise ConfigError(f"output file {str(p)!r} must end in .parquet or .csv")
    parent = p.parent if str(p.parent) else Path(".")
    if not parent.is_dir():
        raise ConfigError(f"cannot write {str(p)!r}: the folder {str(parent)!r} does not exist")
    if p.is_dir():
        raise ConfigError(f"cannot write {str(p)!r}: it is a folder")
    if not os.access(parent, os.W_OK) or (p.exists() and not os.access(p, os.W_OK)):
        raise ConfigError(f"cannot write {str(p)!r}: permission denied")
    return p


def write_table(df: pd.DataFrame, path: str | Path) -> Path:
    """Write ``df`` as Parquet or CSV via a temporary file, so a failure leaves nothing half-written."""
    p = check_table_path(path)
    fd, tmp = tempfile.mkstemp(prefix=f".{p.name}.", suffix=".tmp", dir=p.parent if str(p.parent) else ".")
    os.close(fd)
    try:
        if p.suffix.lower() == ".parquet":
            df.to_parquet(tmp, index=False)
        else:
            df.to_csv(tmp, index=False)
        os.replace(tmp, p)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return p
