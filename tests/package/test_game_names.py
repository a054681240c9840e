"""A game's facts live in its definition (the core's list of games, read by the catalogue):
code that needs one asks the game's kind (``kind.sides``, ``kind.rules.ranking``,
``kind.record_format``, ``kind.default_algorithm``, ...) instead of comparing the game's name or
keying a table by it. This test finds every such comparison and table outside the catalogue:
there are none."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).parents[2] / "python" / "polychess"
GAME_NAMES = {
    "chess",
    "standard",
    "three-player",
    "four-player",
    "teams",
    "ffa",
    "four-player-teams",
    "four-player-ffa",
}


def _names_game(node: ast.AST) -> bool:
    return isinstance(node, ast.Constant) and node.value in GAME_NAMES


def uses_of_game_names(tree: ast.AST) -> list[int]:
    """The lines that compare something with a game's name, or key a table by one."""
    lines = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare):
            sides = [node.left, *node.comparators]
            inside = [e for s in sides if isinstance(s, ast.Tuple | ast.List | ast.Set) for e in s.elts]
            if any(_names_game(n) for n in sides + inside):
                lines.append(node.lineno)
        elif isinstance(node, ast.Dict):
            keys = [k for k in node.keys if k is not None]
            parts = keys + [e for k in keys if isinstance(k, ast.Tuple) for e in k.elts]
            if any(_names_game(k) for k in parts):
                lines.append(node.lineno)
    return lines


def test_no_module_but_the_catalogue_compares_a_game_name() -> None:
    found = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        module = path.relative_to(PACKAGE).as_posix()
        if module == "catalogue.py":
            continue
        lines = uses_of_game_names(ast.parse(path.read_text(encoding="utf-8")))
        if lines:
            found[module] = lines
    assert not found, f"comparisons of a game's name (ask the game's kind instead), by module and line: {found}"


def test_the_scan_finds_comparisons_and_tables() -> None:
    code = 'a = x == "ffa"\nb = {"standard": 1}\nc = v in ("teams", "z")\nd = {("four-player", None): 2}\ne = y == "f"'
    assert uses_of_game_names(ast.parse(code)) == [1, 2, 3, 4]
