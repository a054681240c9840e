"""The reference in tests/reference is an oracle only while it is independent of the engine:
it must never import polychess (nor its compiled core), directly or through anything else.

Two checks: every import statement and import call in its source (parsed, so an import inside
a function counts too) names only the standard library or the reference itself; and in a
fresh interpreter where importing polychess fails, the reference imports and counts the
three-player perft to depth 2 with polychess never loaded.
"""

from __future__ import annotations

import ast
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

REFERENCE = Path(__file__).parents[1] / "reference"
SOURCES = sorted(REFERENCE.rglob("*.py"))
ENGINE_MODULES = ("polychess", "_core")  # the package and its compiled core, by either name


def imported_modules(source: str) -> list[tuple[int, str]]:
    """(line, module) for every import in `source`: import and from-import statements
    (relative ones as '.name') and calls of __import__ / importlib.import_module with a
    literal name."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            found.append((node.lineno, "." * node.level + (node.module or "")))
        elif isinstance(node, ast.Call):
            func = node.func
            name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else None
            if name in ("__import__", "import_module") and node.args:
                arg = node.args[0]
                found.append((node.lineno, arg.value if isinstance(arg, ast.Constant) else "<computed>"))
    return found


def top_level(module: str) -> str:
    return module.split(".")[0]


def test_the_reference_has_sources():
    assert REFERENCE / "three_player.py" in SOURCES


@pytest.mark.parametrize("path", SOURCES, ids=[p.relative_to(REFERENCE).as_posix() for p in SOURCES])
def test_reference_imports_only_the_standard_library(path):
    for line, module in imported_modules(path.read_text()):
        where = f"{path.relative_to(REFERENCE.parent)}:{line}"
        assert top_level(module) not in ENGINE_MODULES, f"{where} imports the engine ({module})"
        assert module != "<computed>", f"{where} imports a module whose name is computed"
        assert module.startswith(".") or top_level(module) in sys.stdlib_module_names | {"__future__"}, (
            f"{where} imports {module}, which is neither the standard library nor the reference"
        )


@pytest.mark.parametrize(
    "source",
    [
        "import polychess",
        "import polychess._core as core",
        "from polychess import Board",
        "from polychess._core import Board",
        "import _core",
        "def later():\n    from polychess.board import Board\n",
        "import importlib\nimportlib.import_module('polychess')",
        "__import__('polychess')",
    ],
)
def test_the_import_scan_sees_the_engine(source):
    assert any(top_level(m) in ENGINE_MODULES for _, m in imported_modules(source)), source


def test_reference_runs_without_polychess():
    """A fresh interpreter in which importing polychess raises: the reference still imports
    and counts, and polychess never appears in sys.modules."""
    script = textwrap.dedent(f"""
        import sys

        class NoEngine:
            def find_spec(self, name, path=None, target=None):
                if name.split(".")[0] in {ENGINE_MODULES!r}:
                    raise ImportError("the reference must not import " + name)
                return None

        sys.meta_path.insert(0, NoEngine())
        sys.path.insert(0, {str(REFERENCE.parent)!r})
        from reference import three_player
        assert three_player.perft(three_player.START, 2) == 400
        loaded = sorted(m for m in sys.modules if m.split(".")[0] in {ENGINE_MODULES!r})
        assert not loaded, loaded
        print("ok")
    """)
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0 and run.stdout.strip() == "ok", run.stderr
