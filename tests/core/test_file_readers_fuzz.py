"""Every reader of what a file or a user hands the core, fuzzed for a fixed budget: network files,
training data, position strings of every game (FEN, the three-player strings, FEN4), move text,
and the game records whose moves and positions go to the core (polychess records, PGN, PGN4).
Valid inputs are mutated (bits flipped, bytes overwritten with edge values, cut short, chunks
repeated or dropped, random bytes inserted) by a seeded generator, so every run tries the same
inputs; each must be read or refused with a ValueError, never anything else. CI runs this folder
against the core built with AddressSanitizer and UBSan (.ci/sanitized-tests), where any read out
of bounds or undefined behaviour ends the run."""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path

import pytest

from polychess import Board, Game, _core
from polychess.catalogue import kind_of
from polychess.formats import read_pgn, read_pgn4, read_record, write_record
from polychess.nnue import Network, random_network
from polychess.training.data import data_header, decode, play_batch

ROUNDS = 600  # mutants per reader and seed input: the fixed budget
EDGE_BYTES = (0x00, 0x01, 0x7F, 0x80, 0xFE, 0xFF)


def _mutants(data: bytes, rng: random.Random, rounds: int = ROUNDS) -> list[bytes]:
    """``rounds`` mutations of ``data``, each a few edits of the kinds a damaged or hostile file shows."""
    result = []
    for _ in range(rounds):
        mutant = bytearray(data)
        for _ in range(rng.randint(1, 4)):
            kind = rng.randrange(6)
            at = rng.randrange(len(mutant)) if mutant else 0
            if kind == 0 and mutant:  # a flipped bit
                mutant[at] ^= 1 << rng.randrange(8)
            elif kind == 1 and mutant:  # an edge value, or a little-endian field of them
                for k in range(rng.choice((1, 2, 4))):
                    if at + k < len(mutant):
                        mutant[at + k] = rng.choice(EDGE_BYTES)
            elif kind == 2:  # cut short
                del mutant[at:]
            elif kind == 3 and mutant:  # a chunk repeated
                end = min(len(mutant), at + rng.randint(1, 64))
                mutant[at:at] = mutant[at:end]
            elif kind == 4 and mutant:  # a chunk dropped
                del mutant[at : at + rng.randint(1, 64)]
            else:  # random bytes inserted
                mutant[at:at] = bytes(rng.randrange(256) for _ in range(rng.randint(1, 8)))
        result.append(bytes(mutant))
    return result


def _read_or_refuse(read: Callable[[bytes], object], inputs: list[bytes]) -> int:
    """Feeds every input to ``read``: a ValueError is a refusal, anything else than a value a
    failure. Returns how many were refused (a fuzz whose every input is read tests nothing)."""
    refused = 0
    for data in inputs:
        try:
            read(data)
        except ValueError:
            refused += 1
    return refused


def test_network_files():
    rng = random.Random(1)
    for network in (
        random_network("standard", hidden=16, seed=1),
        random_network("three-player", hidden=16, seed=2, on_classic=True),
        random_network("four-player-ffa", hidden=16, seed=3, king_buckets=4),
    ):
        data = network.to_bytes()
        assert _read_or_refuse(Network.from_bytes, _mutants(data, rng)) > ROUNDS // 2
        assert _read_or_refuse(_core.Network.file_size, _mutants(data[:200], rng)) > 0


def test_training_data():
    rng = random.Random(2)
    for variant, mode in (("standard", None), ("three-player", None), ("four-player", "teams")):
        kind = kind_of(variant, mode)
        data = data_header(kind) + play_batch(kind, [Game.from_kind(kind).board.fen()] * 2, nodes=50, max_plies=12)

        def read(data: bytes) -> None:
            decode(data)  # every record's moves made into moves of the game
            _core.TrainingData(data)

        assert _read_or_refuse(read, _mutants(data, rng)) > 0


def _positions() -> list[tuple[str, str | None, str]]:
    """(variant, mode, position string) of every game: the start and a position after random play."""
    rng = random.Random(3)
    result = []
    for variant, mode in (("standard", None), ("three-player", None), ("four-player", "teams"), ("four-player", "ffa")):
        game = Game(variant, mode=mode) if mode else Game(variant)
        result.append((variant, mode, game.board.fen()))
        for _ in range(30):
            if game.is_over():
                break
            game.push(rng.choice(list(game.legal_moves)))
        result.append((variant, mode, game.board.fen()))
    return result


@pytest.mark.parametrize("variant, mode, text", _positions())
def test_position_strings_and_move_text(variant, mode, text):
    rng = random.Random(text)

    def read(data: bytes) -> None:
        board = Board(variant, data.decode("utf-8", "replace"), mode=mode)
        len(board.legal_moves)
        board.copy()

    _read_or_refuse(read, _mutants(text.encode(), rng, ROUNDS // 2))
    board = Board(variant, text, mode=mode)
    moves = [str(m) for m in board.legal_moves][:8] or ["e2e4"]

    def parse(data: bytes) -> None:
        board.parse_move(data.decode("utf-8", "replace"))

    for move in moves:
        _read_or_refuse(parse, _mutants(move.encode(), rng, 40))


RECORDS = Path(__file__).parents[1] / "data" / "pgn4"


def _records() -> list[tuple[str, bytes]]:
    rng = random.Random(4)
    game = Game("three-player")
    for _ in range(24):
        game.push(rng.choice(list(game.legal_moves)))
    pgn = b'[Event "?"]\n[Result "*"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 *\n'
    return [
        ("record", write_record(game, {}).encode()),
        ("pgn", pgn),
        *(("pgn4", path.read_bytes()) for path in sorted(RECORDS.glob("*.pgn4"))[:2]),
    ]


@pytest.mark.parametrize("kind, data", _records(), ids=lambda value: value if isinstance(value, str) else "")
def test_game_records(kind, data):
    reader = {"record": read_record, "pgn": read_pgn, "pgn4": read_pgn4}[kind]
    rng = random.Random(kind)

    def read(data: bytes) -> None:
        reader(data.decode("utf-8", "replace"))

    _read_or_refuse(read, _mutants(data, rng, ROUNDS // 3))
