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
from polychess.engine import default_algorithm
from polychess.match.backends import ray_session
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
    threads of the core, without the GIL, and returns their records. The engine plays as it
    plays by default (``polychess.engine.default_algorithm``), so that the data is its own."""
    game = kind.new_game()
    rules = game.rules.to_core()
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
        default_algorithm(game.board),
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
    data = _core.TrainingData(path.read_bytes())
    if data.game != kind.family:
        raise InvalidTrainingDataError(f"{path} holds {data.game} data, not {kind.family}")
    return data.games, data.complete_bytes


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
    backend: str = "local",
    address: str | None = None,
) -> Iterator[int]:
    """Plays one game from each start position into the data file at ``path``, a batch at a
    time (``batch`` games, by default four per thread), yielding the games written so far.

    ``backend`` ``"local"`` plays on ``threads`` threads of this process; ``"ray"`` plays each
    batch as a Ray task (one CPU) on the cluster at ``address`` (``"auto"``: the one this
    machine belongs to), or on a Ray instance started here with ``threads`` CPUs. The batches
    are written in order either way.

    Resumable: a file that exists (of the same game) keeps its whole records and goes on with
    the start after them, so run with the same starts to finish a run that was stopped."""
    if backend not in ("local", "ray"):
        raise ValueError(f"unknown backend {backend!r} (local or ray)")
    target = Path(path)
    done = 0
    if target.exists() and target.stat().st_size > 0:
        done, complete = _complete_bytes(target, kind)
        with target.open("r+b") as f:
            f.truncate(complete)  # a record cut short by the stop goes
    else:
        target.write_bytes(data_header(kind))
    size = batch or 4 * threads
    chunks = [list(starts[first : first + size]) for first in range(done, len(starts), size)]
    yield done
    if backend == "local":
        played: Iterator[bytes] = (
            play_batch(kind, chunk, nodes=nodes, max_plies=max_plies, threads=threads, network=network)
            for chunk in chunks
        )
    else:
        network_bytes = network.to_bytes() if network is not None else None
        played = _ray_batches(kind, chunks, nodes, max_plies, network_bytes, address, threads)
    with target.open("ab") as f:
        for chunk, records in zip(chunks, played, strict=True):
            f.write(records)
            f.flush()
            done += len(chunk)
            yield done


def _play_remote(kind: GameKind, chunk: list[str], nodes: int, max_plies: int, network: bytes | None) -> bytes:
    """A batch in a Ray worker (the network crosses as its file's bytes)."""
    loaded = Network.from_bytes(network) if network is not None else None
    return play_batch(kind, chunk, nodes=nodes, max_plies=max_plies, network=loaded)


def _ray_batches(
    kind: GameKind,
    chunks: list[list[str]],
    nodes: int,
    max_plies: int,
    network: bytes | None,
    address: str | None,
    cpus: int,
) -> Iterator[bytes]:
    """The batches' records, played as Ray tasks and handed out in order."""
    with ray_session(address, cpus) as ray:
        remote = ray.remote(num_cpus=1, max_retries=3)(_play_remote)
        pending = [remote.remote(kind, chunk, nodes, max_plies, network) for chunk in chunks]
        collected = 0
        try:
            for reference in pending:  # in order: the file stays a prefix of the starts
                yield ray.get(reference)
                collected += 1
        finally:  # stopped early: the batches not written are not played
            for reference in pending[collected:]:
                ray.cancel(reference, force=True)


def starts_of(kind: GameKind, openings: Iterable[object]) -> list[str]:
    """The position strings the openings (``polychess.protocol.games.Position``) lead to."""
    return [opening.game(kind).board.fen() for opening in openings]  # type: ignore[attr-defined]
