"""The compiled core is built once per instruction-set level of its CPU family, and
polychess._core is the best of them the CPU runs (python/polychess/_core.py): every level built
counts alike, each names itself polychess._core (so that pickles travel between machines), and
a level asked for that is not there is a clear ImportError."""

from __future__ import annotations

import os
import pickle
import subprocess
import sys
from pathlib import Path

import pytest

import polychess
from polychess import _core, _cpu
from polychess.board import Board

X86_64_LEVELS = ("x86_64_v4", "x86_64_v3", "x86_64_v2", "x86_64")
COUNTS = [("three-player", None, 3), ("four-player", "teams", 3), ("standard", None, 4)]


def built_levels() -> set[str]:
    folder = Path(_core.__file__).parent
    return {path.name.split(".")[0].removeprefix("_core_") for path in folder.glob("_core_*.*") if path.suffix != ".py"}


# Run at each level in a process of its own: perft counts and single-threaded searches at a node
# budget (deterministic), the level's move generation and search called through the bindings,
# which are compiled once for every level (CMakeLists.txt).
REPORT = f"""
from polychess import _core
from polychess.board import Board
from polychess.engine import Engine
report = [_core.LEVEL]
for variant, mode, depth in {COUNTS!r}:
    report.append(Board(variant, mode=mode).perft(depth))
    result = Engine(hash_mb=1, threads=1).search(Board(variant, mode=mode), nodes=3000)
    report += [result.best_move, result.score, result.nodes]
print(*report)
"""


def report_at(level: str) -> list[str]:
    env = {**os.environ, "POLYCHESS_LEVEL": level}
    out = subprocess.run(
        [sys.executable, "-c", REPORT], capture_output=True, text=True, timeout=300, env=env, check=True
    )
    loaded, *report = out.stdout.split()
    assert loaded == level
    return report


def test_the_cpu_levels_are_the_x86_64_levels_best_first() -> None:
    levels = _cpu.levels()
    if levels:  # an x86-64 CPU runs the baseline and every level below the best it runs
        assert levels == X86_64_LEVELS[X86_64_LEVELS.index(levels[0]) :]


def test_the_core_loaded_is_the_best_built_that_the_cpu_runs() -> None:
    built = built_levels()
    assert _core.LEVEL in built
    if "POLYCHESS_LEVEL" not in os.environ:
        best = next(level for level in ("native", *_cpu.levels(), "generic") if level in built)
        assert _core.LEVEL == best


def test_every_level_built_that_the_cpu_runs_counts_and_searches_alike() -> None:
    runnable = sorted(built_levels() & {*_cpu.levels(), "native", "generic"})
    assert runnable
    reports = {level: report_at(level) for level in runnable}
    expected = [str(Board(variant, mode=mode).perft(depth)) for variant, mode, depth in COUNTS]
    for level, report in reports.items():
        assert report[::4] == expected, level  # the perft counts, as this process counts them
        assert report == reports[runnable[0]], level


def test_the_core_names_itself_polychess_core_whichever_level_runs() -> None:
    assert sys.modules["polychess._core"] is _core is polychess._core
    assert _core.__name__ == "polychess._core"
    assert _core.Board.__module__ == _core.Move.__module__ == "polychess._core"
    assert _core.InvalidMoveError.__module__ == "polychess._core"
    move = next(iter(Board("three-player").legal_moves))
    assert pickle.loads(pickle.dumps(move)) == move
    assert b"_core_" not in pickle.dumps(move)  # by polychess._core's name, not the level's


def _import_with_level(level: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "POLYCHESS_LEVEL": level}
    return subprocess.run([sys.executable, "-c", "import polychess.board"], capture_output=True, text=True, env=env)


@pytest.mark.parametrize("level", ["z80", "x86_64_v9", "../x86_64", "x86_64.v2", "_core_x86_64"])
def test_a_level_the_cpu_does_not_run_is_a_clear_import_error(level) -> None:
    out = _import_with_level(level)
    assert out.returncode == 1
    assert f"ImportError: POLYCHESS_LEVEL={level}: not a level this CPU runs (it runs " in out.stderr


def test_a_level_above_the_cpu_is_refused_before_it_is_loaded() -> None:
    # Loading x86_64_v4 on a CPU without AVX-512 died of SIGILL at import.
    levels = _cpu.levels()
    above = [level for level in X86_64_LEVELS if level not in levels]
    if not levels or not above:
        pytest.skip("this CPU runs every x86-64 level")
    out = _import_with_level(above[0])
    assert out.returncode == 1, out
    assert f"not a level this CPU runs (it runs {', '.join(levels)}" in out.stderr


def test_a_level_the_cpu_runs_but_not_built_is_a_clear_import_error() -> None:
    missing = [level for level in _cpu.levels() if level not in built_levels()]
    if not missing:
        pytest.skip("every level this CPU runs is built")
    out = _import_with_level(missing[0])
    assert out.returncode == 1
    assert f"ImportError: POLYCHESS_LEVEL={missing[0]}: polychess has no core built for that level" in out.stderr
