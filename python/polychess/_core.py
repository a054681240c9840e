"""Loads the compiled core built for this CPU.

The core's hot code is compiled once for each instruction-set level of its CPU family, the rest
once, and linked into one module a level (CMakeLists.txt): ``_core_x86_64``,
``_core_x86_64_v2``, ``_core_x86_64_v3`` and ``_core_x86_64_v4`` on x86-64, ``_core_generic``
elsewhere, or ``_core_native`` alone for a build made for its own machine
(``-DPOLYCHESS_NATIVE=ON``). This module imports the best one present that the CPU runs
(:mod:`polychess._cpu` tells) and puts it in its own place: ``polychess._core`` *is* that
module, which names itself so (its classes pickle by that name whichever level runs).
``polychess._core.LEVEL`` says which one was loaded. Setting ``POLYCHESS_LEVEL`` in the
environment to a level loads that one instead (to compare levels, or to test the baseline).
"""

from __future__ import annotations

import importlib
import importlib.util
import os
import sys
from types import ModuleType

from polychess import _cpu


def _load() -> ModuleType:
    wanted = os.environ.get("POLYCHESS_LEVEL")
    runs = _cpu.levels()
    if wanted and wanted not in ("native", *runs, "generic"):
        # Checked before any import: a level beyond the CPU dies of an illegal instruction.
        raise ImportError(
            f"POLYCHESS_LEVEL={wanted}: not a level this CPU runs (it runs "
            f"{', '.join((*runs, 'native or generic where built')) if runs else 'native or generic where built'})"
        )
    candidates = [wanted] if wanted else ["native", *runs, "generic"]
    for level in candidates:
        name = f"polychess._core_{level}"
        if importlib.util.find_spec(name) is not None:
            return importlib.import_module(name)
    if wanted:
        raise ImportError(f"POLYCHESS_LEVEL={wanted}: polychess has no core built for that level")
    raise ImportError(f"polychess has no compiled core this CPU runs (it runs {', '.join(runs) or 'none'})")


sys.modules[__name__] = _load()
