"""The libraries of :mod:`polychess.rl` are not polychess's own requirements: they come with its
extras (``pip install 'polychess[rl]'``: numpy, PettingZoo, Gymnasium; ``'polychess[openspiel]'``:
OpenSpiel). A module that needs them imports them under :func:`needs_extra`, so that a missing
one says which extra to install.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

__all__ = ["needs_extra"]


@contextlib.contextmanager
def needs_extra(extra: str) -> Iterator[None]:
    """Around imports of libraries that ``extra`` brings: a missing one raises
    ModuleNotFoundError (an ImportError) naming it and saying ``pip install 'polychess[extra]'``;
    the library's own error is its cause."""
    try:
        yield
    except ModuleNotFoundError as error:
        if error.name is None or error.name.partition(".")[0] == "polychess":
            raise  # a module of polychess itself: no extra brings it
        raise ModuleNotFoundError(
            f"polychess.rl needs {error.name}, which is not installed: pip install 'polychess[{extra}]'",
            name=error.name,
        ) from error
