"""Self-play training data for the networks: games the core plays against itself at a fixed
node budget, kept as compact records (``cpp/nnue/training_data.h``: each move with its search
score, every player's result; six bytes a position).

>>> from polychess.catalogue import kind_of
>>> kind = kind_of("standard")
>>> batch = play_batch(kind, [Game.from_kind(kind).board.fen()], nodes=200, max_plies=6)
>>> game, records = decode(data_header(kind) + batch)
>>> game, len(records), len(records[0].moves)
('standard', 1, 6)
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from polychess import _core
from polychess._core import InvalidTrainingDataError, Move, StopFlag
from polychess.catalogue import GameKind
from polychess.engine import default_algorithm
from polychess.files import open_regular
from polychess.game import Game
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
    "read_file",
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
    stop: StopFlag | None = None,
) -> bytes:
    """Plays one game from each start position (the game's position strings) on ``threads``
    threads of the core, without the GIL, and returns their records. The engine plays as it
    plays by default (``polychess.engine.default_algorithm``), so that the data is its own.
    ``stop``, set from another thread, ends the batch with the games finished."""
    game = Game.from_kind(kind)
    rules = game.rules.to_text()
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
        stop,
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


def read_file(path: str | os.PathLike[str]) -> bytes:
    """A data file's bytes, from a regular file only (:class:`InvalidTrainingDataError` for a
    FIFO, a device, a folder)."""
    with open_regular(path, "training data", InvalidTrainingDataError) as (file, _):
        return file.read()


def read_data(path: str | os.PathLike[str]) -> tuple[str, list[Record]]:
    return decode(read_file(path))


def _complete_bytes(path: Path, kind: GameKind) -> tuple[int, int]:
    """(games, bytes) of a data file's whole records; ValueError if it is another game's."""
    data = _core.TrainingData(read_file(path))
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
    played: Iterator[bytes | _Stopped]
    if backend == "local":
        played = _local_batches(kind, chunks, nodes, max_plies, threads, network)
    else:
        network_bytes = network.to_bytes() if network is not None else None
        played = _ray_batches(kind, chunks, nodes, max_plies, network_bytes, address, threads)
    with target.open("ab") as f:
        for chunk, records in zip(chunks, played, strict=True):
            if isinstance(records, _Stopped):  # Ctrl-C or SIGTERM: the batch's finished games kept
                f.write(records.records)
                f.flush()
                raise KeyboardInterrupt
            f.write(records)
            f.flush()
            done += len(chunk)
            yield done


def _local_batches(
    kind: GameKind, chunks: list[list[str]], nodes: int, max_plies: int, threads: int, network: Network | None
) -> Iterator[bytes | _Stopped]:
    """The batches' records, played here, each stoppable by an interrupt (``_interruptible``)."""
    for chunk in chunks:

        def play(stop: StopFlag, chunk: list[str] = chunk) -> bytes:
            return play_batch(
                kind, chunk, nodes=nodes, max_plies=max_plies, threads=threads, network=network, stop=stop
            )

        yield _interruptible(play)


@dataclass(frozen=True)
class _Stopped:
    """What a batch stopped by an interrupt had finished."""

    records: bytes


def _interruptible(play: Callable[[StopFlag], bytes]) -> bytes | _Stopped:
    """``play(stop)`` on a thread of its own while this one waits, so that an interrupt (which
    Python delivers only to the main thread, and only between its own steps) stops the core's
    batch at once instead of after it: the games finished then are returned as ``_Stopped``."""
    stop = StopFlag()
    finished = threading.Event()
    done: list[bytes] = []
    failed: list[BaseException] = []

    def run() -> None:
        try:
            done.append(play(stop))
        except BaseException as error:  # noqa: BLE001 - handed to the waiting thread
            failed.append(error)
        finally:
            finished.set()

    worker = threading.Thread(target=run, name="polychess self-play", daemon=True)
    worker.start()
    # (An event, not Thread.join: a join that an interrupt cuts short takes the thread for
    # stopped while it runs on, in Python 3.11 (bpo-45274's fix), and the interpreter would end under it.)
    try:
        while not finished.wait(0.1):
            pass
    except KeyboardInterrupt:
        stop.set()
        while not finished.wait(0.1):
            pass
        worker.join()
        if failed:
            raise failed[0] from None
        return _Stopped(done[0] if done else b"")
    worker.join()
    if failed:
        raise failed[0]
    return done[0]


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
