"""The evaluation's weights, per game: data the core evaluates with.

The evaluation is a sum of terms, each a feature the core counts on the board (material,
placement, mobility, king safety, threats; ``cpp/core/evaluation_weights.h`` lists them) times the
game's weight for it; each term has a late twin (``king_centre_late``), the same feature times how
far into the endgame the player is, so that a term's weight tapers from the middlegame to the
endgame. The weights live in ``polychess/data/evaluation/<game>.json``, one file
per game (standard, three-player, four-player-teams, four-player-ffa; a four-player setup
shares its mode's file), written by ``polychess tune fit``. The package hands them to the core
when it is imported, before any position is made; a position keeps the weights it was made
with.

>>> from polychess import Board
>>> board = Board("standard")
>>> features = features_of(board)
>>> weights = weights_of(board)
>>> [sum(w * f for w, f in zip(weights.values(), player)) for player in features] == evaluate(board)
True
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING

from polychess import _core
from polychess.catalogue import KINDS

if TYPE_CHECKING:
    from polychess.board import Board

__all__ = [
    "LATE_TWINS",
    "TERMS",
    "DATA_DIR",
    "GAMES",
    "evaluate",
    "features_of",
    "game_weights",
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


def set_game_weights(game: str, weights: Mapping[str, int]) -> None:
    """Makes ``weights`` (every term, in centipawns per unit) the game's weights for positions
    made from now on; a late twin left out (a term's name with ``_late``, the evaluation's taper
    toward the endgame) weighs 0, as in weights written before the twins. A ValueError names a
    missing, unknown or out-of-range term."""
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
    for setup in setups:
        _core.set_evaluation_weights(variant, mode, setup, values)


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


def write_weights(path: Path, game: str, weights: Mapping[str, int], about: str) -> None:
    """Writes a weights file: the game, what the weights come from, and every term's weight."""
    _check_game(game)
    data = {"game": game, "about": about, "weights": {t: int(weights[t]) for t in TERMS}}
    path.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")


def load_shipped() -> None:
    """Hands the package's weights files to the core (done once, on import)."""
    for game in GAMES:
        path = weights_file(game)
        if path.exists():
            file_game, weights = load_weights(path)
            if file_game != game:
                raise ValueError(f"{path} holds the weights of {file_game}")
            set_game_weights(game, weights)


def features_of(board: Board) -> list[list[int]]:
    """Every player's features (in seat order), in the order of :data:`TERMS`."""
    return _core.evaluation_features(board.core)


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
