"""The evaluation's weights, per game: data the core evaluates with.

The evaluation is a sum of terms, each a feature the core counts on the board (material,
placement, mobility, king safety, threats; ``cpp/core/evaluation_weights.h`` lists them) times the
game's weight for it; each term has a late twin (``king_centre_late``), the same feature times how
far into the endgame the player is, so that a term's weight tapers from the middlegame to the
endgame. A game may also have **cell weights**: each kind's value on each cell beyond what the
terms give it (a piece-square table, with a late twin), in the frame of the first seat, so that
every army's table is the first one's turned to face it. The weights live in
``polychess/data/evaluation/<game>.json``, one file per game (standard, three-player,
four-player-teams, four-player-ffa; a four-player setup shares its mode's file), written by
``polychess tune fit``. The package hands them to the core when it is imported, before any
position is made; a position keeps the weights it was made with.

>>> from polychess import Board
>>> board = Board("standard")
>>> features = features_of(board)
>>> weights = weights_of(board)
>>> dot = [sum(w * f for w, f in zip(weights.values(), player)) for player in features]
>>> [d + c for d, c in zip(dot, cell_values_of(board))] == evaluate(board)
True
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from polychess import _core
from polychess.catalogue import KINDS

if TYPE_CHECKING:
    from polychess.board import Board

__all__ = [
    "CELL_TABLES",
    "LATE_TWINS",
    "TERMS",
    "DATA_DIR",
    "GAMES",
    "cell_values_of",
    "evaluate",
    "features_of",
    "game_cells",
    "game_weights",
    "load_cells",
    "load_weights",
    "set_game_weights",
    "weights_file",
    "weights_of",
    "write_weights",
]

TERMS: tuple[str, ...] = tuple(_core.evaluation_terms())
# The terms' late twins: the same feature times the player's lateness, LATE_PIECES (8) less the
# enemy pieces he faces beside pawns and kings (cpp/core/evaluation_weights.h).
LATE_TWINS: tuple[str, ...] = TERMS[len(TERMS) // 2 :]
# The cell tables a game may have, in the core's order: a base and a late table for each kind.
_CELL_KINDS = ("pawn", "knight", "bishop", "rook", "queen", "king")
CELL_TABLES: tuple[str, ...] = _CELL_KINDS + tuple(f"{kind}_late" for kind in _CELL_KINDS)
DATA_DIR = Path(__file__).parent / "data" / "evaluation"
# Each game's weights file name (its family: the setups of a four-player mode share their weights)
# and the core's (variant, mode, setups) it applies to, from the catalogue of games.
GAMES: dict[str, tuple[str, str, tuple[str, ...]]] = {
    kind.family: (kind.variant, kind.mode or "", tuple(k.setup or "" for k in KINDS if k.family == kind.family))
    for kind in KINDS
}


def weights_file(game: str) -> Path:
    _check_game(game)
    return DATA_DIR / f"{game}.json"


def game_weights(game: str) -> dict[str, int]:
    """The weights positions of ``game`` made from now on evaluate with."""
    variant, mode, setups = GAMES[_check_game(game)]
    return dict(zip(TERMS, _core.evaluation_weights(variant, mode, setups[0]), strict=True))


def game_cells(game: str) -> dict[str, list[int]]:
    """The cell weights positions of ``game`` made from now on evaluate with: each table of
    :data:`CELL_TABLES` (a value per cell, by cell index, as the first seat sees the board), or
    none where the game has no cell weights."""
    variant, mode, setups = GAMES[_check_game(game)]
    flat = _core.evaluation_cell_weights(variant, mode, setups[0])
    if not flat:
        return {}
    cells = len(flat) // len(CELL_TABLES)
    return {table: flat[i * cells : (i + 1) * cells] for i, table in enumerate(CELL_TABLES)}


def set_game_weights(game: str, weights: Mapping[str, int], cells: Mapping[str, Sequence[int]] | None = None) -> None:
    """Makes ``weights`` (every term, in centipawns per unit) and ``cells`` (tables of
    :data:`CELL_TABLES`, a table left out counting 0 on every cell; ``{}`` for none; ``None``
    keeps the game's own) the game's weights for positions made from now on; a late twin left out
    (a term's name with ``_late``, the evaluation's taper toward the endgame) weighs 0, as in
    weights written before the twins. A ValueError names a missing, unknown or out-of-range term
    or table."""
    variant, mode, setups = GAMES[_check_game(game)]
    unknown = sorted(set(weights) - set(TERMS))
    weights = {**{t: 0 for t in LATE_TWINS}, **weights}
    missing = [t for t in TERMS if t not in weights]
    if unknown or missing:
        raise ValueError(f"{game} evaluation weights: unknown terms {unknown}, missing terms {missing}")
    values = []
    for term in TERMS:
        value = weights[term]
        if not isinstance(value, int) or isinstance(value, bool):
            raise ValueError(f"{game} evaluation weight {term} must be a whole number, got {value!r}")
        values.append(value)
    if cells is None:
        cells = game_cells(game)
    flat = _flat_cells(game, cells, _core.Layout(variant, mode=mode, setup=setups[0]).cell_count)
    for setup in setups:
        _core.set_evaluation_weights(variant, mode, setup, values, flat)


def _flat_cells(game: str, cells: Mapping[str, Sequence[int]], cell_count: int) -> list[int]:
    """The core's list of cell weights for ``cells``: empty for none."""
    unknown = sorted(set(cells) - set(CELL_TABLES))
    if unknown:
        raise ValueError(f"{game} cell weights: unknown tables {unknown} (the tables are {', '.join(CELL_TABLES)})")
    if not cells:
        return []
    flat = []
    for table in CELL_TABLES:
        values = list(cells.get(table, [0] * cell_count))
        if len(values) != cell_count:
            raise ValueError(f"{game} cell weights: {table} has {len(values)} values, the board {cell_count} cells")
        for value in values:
            if not isinstance(value, int) or isinstance(value, bool):
                raise ValueError(f"{game} cell weight in {table} must be a whole number, got {value!r}")
        flat += values
    return flat


def load_weights(path: Path) -> tuple[str, dict[str, int]]:
    """A weights file's game and weights. A ValueError names what is wrong with it."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        game, weights = data["game"], data["weights"]
    except (OSError, ValueError, KeyError, TypeError) as error:
        raise ValueError(f"{path}: not an evaluation weights file ({error})") from error
    _check_game(game)
    if not isinstance(weights, dict):
        raise ValueError(f"{path}: 'weights' must map term names to numbers")
    return game, weights


def load_cells(path: Path) -> dict[str, list[int]]:
    """A weights file's cell weights (its ``cells``: tables of :data:`CELL_TABLES`), none where it
    has none. A ValueError names what is wrong with them."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        cells = data.get("cells", {})
    except (OSError, ValueError, AttributeError) as error:
        raise ValueError(f"{path}: not an evaluation weights file ({error})") from error
    if not isinstance(cells, dict) or not all(isinstance(table, list) for table in cells.values()):
        raise ValueError(f"{path}: 'cells' must map table names to lists of numbers")
    return cells


def write_weights(
    path: Path, game: str, weights: Mapping[str, int], about: str, cells: Mapping[str, Sequence[int]] | None = None
) -> None:
    """Writes a weights file: the game, what the weights come from, every term's weight and the
    cell weights where there are any (a table a line)."""
    _check_game(game)
    data = {"game": game, "about": about, "weights": {t: int(weights[t]) for t in TERMS}}
    text = json.dumps(data, indent=2)
    if cells:
        tables = ",\n".join(f'    "{t}": {json.dumps([int(v) for v in cells[t]])}' for t in CELL_TABLES if t in cells)
        text = text[: text.rindex("}")].rstrip() + ',\n  "cells": {\n' + tables + "\n  }\n}"
    path.write_text(text + "\n", encoding="utf-8")


def load_shipped() -> None:
    """Hands the package's weights files to the core (done once, on import)."""
    for game in GAMES:
        path = weights_file(game)
        if path.exists():
            file_game, weights = load_weights(path)
            if file_game != game:
                raise ValueError(f"{path} holds the weights of {file_game}")
            set_game_weights(game, weights, load_cells(path))


def features_of(board: Board) -> list[list[int]]:
    """Every player's features (in seat order), in the order of :data:`TERMS`."""
    return _core.evaluation_features(board.core)


def cell_values_of(board: Board) -> list[int]:
    """Every player's part of the evaluation from the game's cell weights (in seat order): what
    :func:`evaluate` adds to the dot product of :func:`features_of` and :func:`weights_of`."""
    return _core.evaluation_cell_values(board.core)


def weights_of(board: Board) -> dict[str, int]:
    """The weights the board's position evaluates with."""
    return dict(zip(TERMS, _core.board_evaluation_weights(board.core), strict=True))


def evaluate(board: Board) -> list[int]:
    """Every player's evaluation (material and positional terms), in seat order."""
    return _core.evaluate(board.core)


def _check_game(game: str) -> str:
    if game not in GAMES:
        raise ValueError(f"unknown game {game!r} for evaluation weights (one of {', '.join(GAMES)})")
    return game


load_shipped()
