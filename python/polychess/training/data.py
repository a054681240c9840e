"""Self-play training data for the networks: games the core plays against itself at a fixed
node budget, kept as compact records (``cpp/nnue/training_data.h``: each move with its search
score, every player's result; six bytes a position).

>>> from polychess.catalogue import kind_of
>>> kind = kind_of("standard")
>>> batch = play_batch(kind, [kind.new_game().board.fen()], nodes=200, max_plies=6)
>>> game, records = decode(data_header(kind) + batch)
>>> game, len(records), len(records[0].moves)
('standard', 1, 6)
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from polychess import _core
from polychess._core import InvalidTrainingDataError, Move
from polychess.catalogue import GameKind
from polychess.nnue import Network

__all__ = [
    "InvalidTrainingDataError",
    "MATE_SCORE",
    "Record",
    "data_header",
    "decode",
    "generate",
    "play_batch",
    "read_data",
    "starts_of",
]


@dataclass(frozen=True)
class Record:
    """One self-play game: its start position, each move with the mover's side's search score
    in centipawns (a found win ``MATE_SCORE``, a found loss its negative), and each seat's
    result: the share of the other seats he finished ahead of, a tie counting half."""

    start: str
    moves: tuple[Move, ...]
    scores: tuple[int, ...]
    results: tuple[float, ...]


MATE_SCORE = 32000


def data_header(kind: GameKind) -> bytes:
    """The bytes a data file of the game begins with."""
    return _core.training_data_header(kind.family)


def play_batch(
    kind: GameKind,
    starts: Sequence[str],
    *,
    nodes: int,
    max_plies: int = 300,
    threads: int = 1,
    network: Network | None = None,
) -> bytes:
    """Plays one game from each start position (the game's position strings) on ``threads``
    threads of the core, without the GIL, and returns their records."""
    rules = kind.new_game().rules.to_core()
    return _core.self_play(
        kind.variant,
        kind.mode or "",
        kind.setup or "",
        rules,
        list(starts),
        nodes,
        max_plies,
        threads,
        16,
        network._core if network is not None else None,
    )


def decode(data: bytes) -> tuple[str, list[Record]]:
    """A data file's game and records (a record cut short at the end left out);
    :class:`InvalidTrainingDataError` says what is wrong with data that cannot be read."""
    game, games, _ = _core.read_training_data(data)
    records = []
    for start, results, moves, scores in games:
        scale = 2 * (len(results) - 1)
        records.append(Record(start, tuple(moves), tuple(scores), tuple(r / scale for r in results)))
    return game, records


def read_data(path: str | os.PathLike[str]) -> tuple[str, list[Record]]:
    with open(path, "rb") as f:
        return decode(f.read())


def _complete_bytes(path: Path, kind: GameKind) -> tuple[int, int]:
    """(games, bytes) of a data file's whole records; ValueError if it is another game's."""
    data = path.read_bytes()
    game, games, complete = _core.read_training_data(data)
    if game != kind.family:
        raise InvalidTrainingDataError(f"{path} holds {game} data, not {kind.family}")
    return len(games), complete


def generate(
    path: str | os.PathLike[str],
    kind: GameKind,
    starts: Sequence[str],
    *,
    nodes: int,
    max_plies: int = 300,
    threads: int = 1,
    network: Network | None = None,
    batch: int | None = None,
) -> Iterator[int]:
    """Plays one game from each start position into the data file at ``path``, a batch at a
    time (``batch`` games, by default four per thread), yielding the games written so far.

    Resumable: a file that exists (of the same game) keeps its whole records and goes on with
    the start after them, so run with the same starts to finish a run that was stopped."""
    target = Path(path)
    done = 0
    if target.exists() and target.stat().st_size > 0:
        done, complete = _complete_bytes(target, kind)
        with target.open("r+b") as f:
            f.truncate(complete)  # a record cut short by the stop goes
    else:
        target.write_bytes(data_header(kind))
    size = batch or 4 * threads
    yield done
    with target.open("ab") as f:
        for first in range(done, len(starts), size):
            chunk = starts[first : first + size]
            f.write(play_batch(kind, chunk, nodes=nodes, max_plies=max_plies, threads=threads, network=network))
            f.flush()
            done += len(chunk)
            yield done


def starts_of(kind: GameKind, openings: Iterable[object]) -> list[str]:
    """The position strings the openings (``polychess.protocol.games.Position``) lead to."""
    return [opening.game(kind).board.fen() for opening in openings]  # type: ignore[attr-defined]
