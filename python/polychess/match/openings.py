"""Openings for matches: random plies, a file of positions, or the balanced sets shipped
with polychess (``python/polychess/match/openings/<game>.txt``, made by
``polychess openings``).

An openings file holds one opening per line in the arguments of the UCI ``position`` command
(``startpos moves e2e4 e7e5``, ``fen <position> [moves ...]``) or as a bare position string
(FEN, FEN4 or polychess's own, as Titan's opening files are); blank lines and lines starting
with ``#`` are skipped.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path

from polychess.engine import Engine
from polychess.game import Game
from polychess.protocol.games import GameKind, Position, PositionError, parse_position

__all__ = [
    "OPENINGS_DIR",
    "balanced_openings",
    "random_openings",
    "read_openings",
    "shipped_openings",
    "write_openings",
]

OPENINGS_DIR = Path(__file__).resolve().parent / "openings"


def random_openings(kind: GameKind, count: int, plies: int, seed: int) -> list[Position]:
    """``count`` openings of ``plies`` random moves from the start, none of which ends the
    game; the same seed gives the same openings."""
    rng = random.Random(f"openings/{kind.name}/{seed}")
    openings: list[Position] = []
    while len(openings) < count:
        game, moves = _random_plies(kind, plies, rng)
        if not game.is_over():
            openings.append(Position(None, None, moves))
    return openings


def _random_plies(kind: GameKind, plies: int, rng: random.Random) -> tuple[Game, tuple[str, ...]]:
    """A game after up to ``plies`` random moves from the start (fewer if it ends), and them."""
    game = Game.from_kind(kind)
    moves: list[str] = []
    for _ in range(plies):
        if game.is_over():
            break
        move = rng.choice(list(game.legal_moves))
        game.push(move)
        moves.append(str(move))
    return game, tuple(moves)


def read_openings(path: str | Path, kind: GameKind) -> list[Position]:
    """The openings of a file, each checked by playing it; a ValueError names the line that
    cannot be read or has already ended the game."""
    openings: list[Position] = []
    for number, line in enumerate(Path(path).read_text(encoding="utf-8").splitlines(), 1):
        text = line.strip()
        if not text or text.startswith("#"):
            continue
        try:
            opening = parse_position(kind, text.split())
            if opening.game(kind).is_over():
                raise PositionError("the game is over after it")
        except PositionError as error:
            raise ValueError(f"{path}, line {number}: {error}") from None
        openings.append(opening)
    if not openings:
        raise ValueError(f"{path}: no openings in it")
    return openings


def shipped_openings(kind: GameKind) -> Path:
    """The balanced openings shipped for this game (the four-player setups share the modern
    start's set only when they are the modern setup)."""
    path = OPENINGS_DIR / f"{kind.name}.txt"
    if not path.exists():
        raise ValueError(f"no openings are shipped for {kind.name}; give a file or random plies")
    return path


def balanced_openings(
    kind: GameKind,
    count: int,
    plies: int,
    seed: int,
    nodes: int = 20_000,
    margin: int = 60,
    progress: Callable[[int, int], None] | None = None,
) -> list[Position]:
    """``count`` different openings of ``plies`` random moves after which our engine, searching
    ``nodes`` nodes, scores the player to move within ``margin`` centipawns of even."""
    rng = random.Random(f"balanced/{kind.name}/{seed}")
    engine = Engine(hash_mb=16)
    found: dict[tuple[str, ...], Position] = {}
    tried = 0
    while len(found) < count:
        tried += 1
        game, moves = _random_plies(kind, plies, rng)
        if game.is_over() or moves in found:
            continue
        engine.clear()
        if abs(engine.search(game, nodes=nodes).score) <= margin:
            found[moves] = Position(None, None, moves)
            if progress is not None:
                progress(len(found), tried)
    return list(found.values())


def write_openings(openings: list[Position], header: str) -> str:
    """The text of an openings file (``startpos moves ...`` lines after ``#`` comments)."""
    lines = [f"# {line}" for line in header.splitlines()]
    for opening in openings:
        if opening.start is not None:
            raise ValueError("write_openings writes openings from the start position only")
        lines.append("startpos" + (" moves " + " ".join(opening.moves) if opening.moves else ""))
    return "\n".join(lines) + "\n"
