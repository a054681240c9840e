"""Reading the files a user names (networks, records, training data) without trusting them: only
regular files are opened (a FIFO would block, ``/dev/zero`` never ends), and never more of one than
the largest file of its kind can be, checked before it is read."""

from __future__ import annotations

import contextlib
import os
import stat
from collections.abc import Iterator
from typing import BinaryIO

__all__ = ["open_regular", "read_regular"]


@contextlib.contextmanager
def open_regular(
    path: str | os.PathLike[str], what: str, error: type[Exception] = ValueError
) -> Iterator[tuple[BinaryIO, int]]:
    """The file at ``path`` opened for reading, and its size; ``error`` (a message naming the path
    and ``what`` the file should be) where it is not a regular file. Opened without blocking and
    checked on its descriptor, so that nothing is read from what was swapped in between."""
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise error(f"{os.fspath(path)}: not a regular file, so not {what}")
        if hasattr(os, "set_blocking"):
            os.set_blocking(fd, True)
        file = os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise
    with file:
        yield file, info.st_size


def read_regular(
    path: str | os.PathLike[str], most_bytes: int, what: str, error: type[Exception] = ValueError
) -> bytes:
    """The bytes of the regular file at ``path``: ``error`` where it is not one, or holds more
    than ``most_bytes`` (more than any ``what`` can), said before anything is read."""
    with open_regular(path, what, error) as (file, size):
        if size > most_bytes:
            raise error(f"{os.fspath(path)}: {size:,} bytes, more than {what} can be ({most_bytes:,} at most)")
        data = file.read(most_bytes + 1)
    if len(data) > most_bytes:  # it grew while being read
        raise error(f"{os.fspath(path)}: more than {what} can be ({most_bytes:,} bytes at most)")
    return data
