"""A game's facts live in its definition (the core's list of games, read by the catalogue):
code that needs one asks the game's kind (``kind.sides``, ``kind.rules.ranking``,
``kind.record_format``, ``kind.default_algorithm``, ...) instead of comparing the game's name or
keying a table by it. This test finds every such comparison and table outside the catalogue;
STILL_TO_MOVE lists the modules that have some left (issue 57), and may only shrink."""

from __future__ import annotations

import ast
from collections import Counter
from pathlib import Path

PACKAGE = Path(__file__).parents[2] / "python" / "polychess"
GAME_NAMES = {"standard", "three-player", "four-player", "teams", "ffa", "four-player-teams", "four-player-ffa"}
# module -> comparisons and tables left in it: chess.com's PGN4 and FEN4 name the modes in their
# own tags, PGN its variants; bench.py keys its positions by game, rules.py its declarations
# (which issue 57 moves into the core); client.py's is the word "teams" of a clock dialect
STILL_TO_MOVE = {
    "formats/fen4.py": 1,
    "formats/pgn.py": 1,
    "formats/pgn4.py": 13,
    "protocol/bench.py": 2,
    "protocol/client.py": 1,
    "rules.py": 1,
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


def test_game_names_are_compared_only_where_still_listed() -> None:
    found = Counter()
    for path in sorted(PACKAGE.rglob("*.py")):
        module = path.relative_to(PACKAGE).as_posix()
        if module == "catalogue.py":
            continue
        found[module] += len(uses_of_game_names(ast.parse(path.read_text(encoding="utf-8"))))
    found = Counter({m: n for m, n in found.items() if n})
    grown = {m: n for m, n in found.items() if n > STILL_TO_MOVE.get(m, 0)}
    assert not grown, f"new comparisons of a game's name (ask the game's kind instead): {grown}"
    assert dict(found) == STILL_TO_MOVE, "fewer left: take them off STILL_TO_MOVE"


def test_the_scan_finds_comparisons_and_tables() -> None:
    code = 'a = x == "ffa"\nb = {"standard": 1}\nc = v in ("teams", "z")\nd = {("four-player", None): 2}\ne = y == "f"'
    assert uses_of_game_names(ast.parse(code)) == [1, 2, 3, 4]
