"""The Python package's layers, checked over every import statement of its modules, those inside
functions included (they run too, only later): no module imports one of a layer above its own,
so no two modules import each other, directly or around a circle, and nothing below the command
line imports it. Imports under ``if TYPE_CHECKING:`` are left out: they never run, and only name
the types a module is handed. The layers are docs/architecture.md's table."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

PACKAGE = Path(__file__).parents[2] / "python" / "polychess"

# From the bottom up; a module belongs to the first layer one of whose names is it or a package
# holding it. A module may import modules of its own layer and of the layers below.
LAYERS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("the core", ("_core", "_cpu", "pieces", "files", "deprecation")),
    ("the games' list", ("rules", "catalogue", "options", "errors")),
    ("a position's views", ("outcome", "notation", "text_board", "svg")),  # handed boards, never making one
    ("boards and games", ("board", "clock", "game")),
    ("formats", ("formats", "png")),
    ("engine", ("evaluation", "nnue", "engine", "outlook", "strength", "simulate", "review", "review_chart")),
    ("the package's names", ("",)),  # polychess/__init__.py: Board, Game, Engine, ... in one place
    ("tools", ("match", "training", "tune", "rl", "protocol", "web")),
    ("commands", ("cli", "__main__")),
)


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(p): p for p in PACKAGE.rglob("*.py")}


def layer_of(module: str) -> int:
    top = module.split(".")[0]
    for index, (_, names) in enumerate(LAYERS):
        if top in names:
            return index
    raise AssertionError(f"polychess.{module} is in no layer: add it to LAYERS and docs/architecture.md")


def _type_checking_only(tree: ast.AST) -> set[int]:
    """The ids of the nodes under ``if TYPE_CHECKING:``."""
    skipped: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and ast.unparse(node.test) in ("TYPE_CHECKING", "typing.TYPE_CHECKING"):
            for statement in node.body:
                skipped.update(id(n) for n in ast.walk(statement))
    return skipped


def imports_of(module: str, source: str) -> Iterator[tuple[str, int]]:
    """(the package's module imported, line) for each import of ``module`` that runs, at its top
    or in a function; ``from polychess import Board`` imports the package itself ("")."""
    tree = ast.parse(source)
    skipped = _type_checking_only(tree)
    is_package = MODULES.get(module, Path()).name == "__init__.py"
    for node in ast.walk(tree):
        if id(node) in skipped:
            continue
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name == "polychess" or alias.name.startswith("polychess."):
                    yield alias.name.removeprefix("polychess").removeprefix("."), node.lineno
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                here = module.split(".") if module else []
                base = here if is_package else here[:-1]
                base = base[: len(base) - (node.level - 1)]
                target = ".".join([*base, *([node.module] if node.module else [])])
            elif node.module == "polychess" or (node.module or "").startswith("polychess."):
                target = node.module.removeprefix("polychess").removeprefix(".")
            else:
                continue
            for alias in node.names:
                submodule = f"{target}.{alias.name}" if target else alias.name
                if submodule in MODULES:
                    yield submodule, node.lineno
                elif not alias.name.startswith("_"):  # a compiled module (_cpu, _core_native) is a leaf
                    yield target, node.lineno


def _graph() -> dict[str, dict[str, int]]:
    graph: dict[str, dict[str, int]] = {}
    for module, path in MODULES.items():
        edges: dict[str, int] = {}
        for target, line in imports_of(module, path.read_text(encoding="utf-8")):
            if target in MODULES and target != module:
                edges.setdefault(target, line)
        graph[module] = edges
    return graph


def test_no_module_imports_a_layer_above_its_own() -> None:
    upward = [
        f"polychess.{module or '__init__'} ({LAYERS[layer_of(module)][0]}) imports polychess.{target or '__init__'} "
        f"({LAYERS[layer_of(target)][0]}) at line {line}"
        for module, edges in _graph().items()
        for target, line in edges.items()
        if layer_of(target) > layer_of(module)
    ]
    assert not upward, "\n".join(upward)


def cycles(graph: dict[str, dict[str, int]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for other in graph.get(node, {}):
            if other not in index:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for node in graph:
        if node not in index:
            visit(node)
    return found


def test_no_import_cycles() -> None:
    graph = _graph()
    found = cycles(graph)
    assert not found, "import cycles: " + "; ".join(
        ", ".join(f"{m} -> {sorted(set(graph[m]) & set(group))}" for m in group) for group in found
    )


def test_nothing_below_the_command_line_imports_it() -> None:
    commands = LAYERS.index(next(layer for layer in LAYERS if layer[0] == "commands"))
    found = [
        f"polychess.{module} imports polychess.{target} at line {line}"
        for module, edges in _graph().items()
        if layer_of(module) < commands
        for target, line in edges.items()
        if layer_of(target) == commands
    ]
    assert not found, "\n".join(found)


def test_the_scan_sees_function_local_imports_and_skips_type_checking_ones() -> None:
    source = (
        "from typing import TYPE_CHECKING\n"
        "from polychess import _core, pieces\n"
        "if TYPE_CHECKING:\n"
        "    from polychess.game import Game\n"
        "def f():\n"
        "    from polychess.formats import pgn\n"
        "    import polychess.svg\n"
        "from . import clock\n"
        "from polychess import Board\n"
    )
    assert sorted(imports_of("board", source)) == [
        ("", 9),
        ("_core", 2),
        ("clock", 8),
        ("formats.pgn", 6),
        ("pieces", 2),
        ("svg", 7),
    ]
    assert cycles({"a": {"b": 1}, "b": {"c": 1}, "c": {"a": 1}, "d": {"a": 1}}) == [["a", "b", "c"]]
