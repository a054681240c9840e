"""Old names kept for one release after a rename: each use warns and says the new name.

A renamed module attribute is served by the module's ``__getattr__`` (:func:`renamed_names`),
a renamed property or function calls :func:`warn_renamed` and forwards. The warning is a
:class:`PolychessDeprecationWarning` (a DeprecationWarning: shown under pytest and ``-W``), and
the project's tests turn it into an error, so that nothing of polychess's own uses an old name.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Mapping

__all__ = ["REMOVED_IN", "PolychessDeprecationWarning", "renamed_names", "warn_renamed"]

REMOVED_IN = "0.3"  # the release that drops the names renamed before 0.2


class PolychessDeprecationWarning(DeprecationWarning):
    """A name of polychess that was renamed: the message says which name replaces it."""


def warn_renamed(old: str, new: str, *, stacklevel: int = 3) -> None:
    """Warns that ``old`` is ``new`` now (``stacklevel`` 3: the caller of the function that
    warns, which is where the old name was written)."""
    warnings.warn(
        f"{old} is deprecated, use {new} (the old name goes in polychess {REMOVED_IN})",
        PolychessDeprecationWarning,
        stacklevel=stacklevel,
    )


def renamed_names(module: str, renamed: Mapping[str, tuple[str, Callable[[], object]]]) -> Callable[[str], object]:
    """A module ``__getattr__`` that serves each old name of ``renamed`` (old name -> the new
    name and a function that returns its object) with a warning, and raises AttributeError for
    any other name, as a module without one does."""

    def __getattr__(name: str) -> object:
        if name not in renamed:
            raise AttributeError(f"module {module!r} has no attribute {name!r}")
        new, value = renamed[name]
        warn_renamed(f"{module}.{name}", f"{module}.{new}")
        return value()

    return __getattr__
