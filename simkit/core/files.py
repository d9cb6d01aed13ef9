"""Files written all at once or not at all: result tables, plots, checkpoints, manifests.

Every output goes to a temporary file in the destination's own directory and is renamed over
the destination only once it is complete and flushed to disk (``os.replace`` is atomic on one
filesystem). A crash, a kill or an exception in the middle of writing leaves either the old
file or nothing -- never a half-written CSV -- and the temporary file is removed on error.

This module imports neither numba nor the runner, so the command line can use it without
pulling numba into a Dask worker before the worker's environment is set (see ``backends``).
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path

from .errors import UserInputError


@contextlib.contextmanager
def atomic_path(path: str | Path):
    """Yield a temporary path beside ``path``; on success it replaces ``path`` atomically,
    on any exception it is deleted and ``path`` is left untouched."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    os.close(fd)
    tmp = Path(tmp)
    try:
        yield tmp
        with open(tmp, "rb+") as f:  # the data must be on disk before the rename is
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            tmp.unlink()
        raise


def atomic_write(path: str | Path, data: bytes | str) -> Path:
    """Write ``data`` to ``path`` atomically."""
    with atomic_path(path) as tmp:
        if isinstance(data, str):
            tmp.write_text(data)
        else:
            tmp.write_bytes(data)
    return Path(path)


def write_frame(frame, path: str | Path) -> Path:
    """Write a result frame as CSV or Parquet (by extension), atomically."""
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix not in (".csv", ".parquet"):
        raise UserInputError("output must end in .csv or .parquet", where=str(path),
                             field="--out")
    if suffix == ".parquet":
        try:
            import pyarrow  # noqa: F401
        except ImportError:
            raise UserInputError("Parquet output needs pyarrow (pip install 'simkit[parquet]')",
                                 where=str(path), field="--out") from None
    with atomic_path(path) as tmp:
        if suffix == ".csv":
            frame.to_csv(tmp, index=False)
        else:
            frame.to_parquet(tmp, index=False)
    return path


def save_figure(fig, path: str | Path, **kwargs) -> Path:
    """``fig.savefig(path)`` atomically (the format comes from the real suffix, since the
    temporary name ends in ``.tmp``)."""
    path = Path(path)
    kwargs.setdefault("format", path.suffix.lstrip(".").lower() or None)
    with atomic_path(path) as tmp:
        fig.savefig(tmp, **kwargs)
    return path
