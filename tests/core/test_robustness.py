"""No input from Python can crash the process or corrupt a board: malformed position strings
and move texts raise ValueError subclasses, and the game-layer primitives, applied in any
order, leave a board that still generates moves, counts perft and undoes exactly.
(CI also runs this file against a build with AddressSanitizer and UBSan.)"""

import random

import pytest

from polychess import Board, Status

ALPHABET = "wrbPNBRQKpnbrqk12345678/ -aefxABCDEFGHKLMN0912,"


def mutations(text: str, rng: random.Random, count: int):
    for _ in range(count):
        chars = list(text)
        for _ in range(rng.randrange(1, 4)):
            i = rng.randrange(len(chars))
            action = rng.randrange(3)
            if action == 0:
                chars[i] = rng.choice(ALPHABET)
            elif action == 1:
                del chars[i]
            else:
                chars.insert(i, rng.choice(ALPHABET))
        yield "".join(chars)


@pytest.mark.parametrize("variant", ["three-player", "standard"])
def test_mutated_position_strings(variant):
    rng = random.Random(7)
    start = Board(variant)
    for _ in range(15):
        start.push(rng.choice(list(start.legal_moves)))
    accepted = 0
    for text in mutations(start.fen(), rng, 600):
        try:
            board = Board(variant, text)
        except ValueError as error:
            assert str(error)
            continue
        accepted += 1
        assert Board(variant, board.fen()).fen() == board.fen()
        board.perft(2)
        for move in list(board.legal_moves)[:5]:
            board.push(move)
            board.pop()
    assert accepted > 0


def test_garbage_move_texts():
    rng = random.Random(3)
    board = Board("three-player")
    fen = board.fen()
    for _ in range(2000):
        text = "".join(rng.choice("ABCDEFGHIKLMNQRxX-=0123456789 ") for _ in range(rng.randrange(0, 9)))
        try:
            board.push(text)
        except ValueError:
            assert board.fen() == fen
        else:
            board.pop()
    assert board.fen() == fen


def test_primitives_in_any_order():
    rng = random.Random(11)
    for _ in range(60):
        board = Board("three-player")
        for _ in range(rng.randrange(0, 20)):
            moves = list(board.legal_moves)
            if moves:
                board.push(rng.choice(moves))
        before = board.fen()
        applied = 0
        for _ in range(rng.randrange(1, 6)):
            player = rng.choice(board.colours)
            other = rng.choice(list(board.colours) + [None])
            action = rng.randrange(4)
            try:
                if action == 0:
                    board.eliminate(player, by=other)
                elif action == 1:
                    board.set_status(player, rng.choice([Status.ACTIVE, Status.FROZEN, Status.OUT]))
                elif action == 2:
                    board.set_controller(player, other)
                else:
                    board.remove_king(player)
                applied += 1
            except ValueError:
                continue
            assert board.zobrist_key == board._core.compute_key()
            board.perft(2)
            board.is_check()
            board.mated_by()
            moves = list(board.legal_moves)
            if moves:
                board.push(rng.choice(moves))
                board.pop()
        for _ in range(applied):
            board._core.undo()
        assert board.fen() == before
