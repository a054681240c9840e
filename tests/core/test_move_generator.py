"""Random playouts: the C++ generator against the pure-Python reference, move for move, and
the invariants of make/unmake, hashing, position strings and bulk counting.

Playouts go on past mates and stalemates the way the game layer will play them (the mated
player eliminated and his army transferred, the stalemated one frozen), so transferred
armies, frozen pieces and king captures are covered too.
"""

import random

import pytest

from polychess import Board, PieceType, Status
from reference import three_player as ref

SEEDS = range(16)
PLIES = 200
EVERY_GAME = [("three-player", {}), ("standard", {}), ("four-player", {}), ("four-player", {"mode": "ffa"})]


def advance_past_game_end(board: Board) -> bool:
    """Applies the game-layer consequence of a player having no move; False if the game is over."""
    mater = board.mated_by()
    if mater is not None:
        board.eliminate(board.turn, by=mater)
    else:
        board.set_status(board.turn, Status.FROZEN)
    return sum(board.status(p) == Status.ACTIVE for p in board.colours) >= 2


def playout(seed: int, plies: int):
    """Yields (board, move_text) along a random game; the caller may inspect the board."""
    rng = random.Random(seed)
    board = Board("three-player")
    for _ in range(plies):
        moves = sorted(board.legal_moves, key=str)
        if not moves:
            if not advance_past_game_end(board):
                return
            continue
        # favour captures a little so that armies thin out and kings get exposed
        captures = [m for m in moves if board.piece_at(m.to_cell) is not None]
        move = str(rng.choice(captures if captures and rng.random() < 0.4 else moves))
        yield board, move
        board.push(move)


@pytest.mark.parametrize("seed", SEEDS)
def test_generator_matches_reference(seed):
    checked = 0
    for board, move in playout(seed, PLIES):
        fen = board.fen()
        assert {str(m) for m in board.legal_moves} == ref.legal_moves(fen), fen
        assert board.is_check() == ref.is_check(fen), fen
        assert len(board.legal_moves) == len(ref.legal_moves(fen))
        expected = ref.apply(fen, move)
        board_after = board.copy()
        board_after.push(move)
        assert board_after.fen() == expected, (fen, move)
        checked += 1
    assert checked > 50


def test_mate_attribution_matches_reference():
    mates = 0
    for seed in range(40):
        rng = random.Random(1000 + seed)
        board = Board("three-player")
        for _ in range(400):
            moves = list(board.legal_moves)
            if not moves:
                fen = board.fen()
                mater = board.mated_by()
                assert (None if mater is None else mater.value[0]) == ref.mater(fen), fen
                mates += mater is not None
                if not advance_past_game_end(board):
                    break
                continue
            board.push(rng.choice(moves))
    assert mates > 0


@pytest.mark.parametrize("seed", SEEDS)
def test_make_unmake_restores_position_and_hash(seed):
    rng = random.Random(seed)
    for variant in ("three-player", "standard"):
        board = Board(variant)
        start = board.fen()
        history = []
        for _ in range(120):
            moves = list(board.legal_moves)
            if not moves:
                break
            before = (board.fen(), board.zobrist_key)
            move = rng.choice(moves)
            board.push(move)
            assert board.zobrist_key == board._core.compute_key()
            assert Board(variant, board.fen()).fen() == board.fen()
            assert Board(variant, board.fen()).zobrist_key == board.zobrist_key
            history.append(before)
        while history:
            board.pop()
            assert (board.fen(), board.zobrist_key) == history.pop()
        assert board.fen() == start


@pytest.mark.parametrize("variant,options", EVERY_GAME)
def test_capture_generator_matches_the_full_one(variant, options):
    rng = random.Random(9)
    board = Board(variant, **options)
    for _ in range(300):
        moves = list(board.legal_moves)
        if not moves:
            break
        expected, pieces = set(), len(board.pieces())
        for move in moves:
            after = board.copy()
            after.push(move)
            captured = len(after.pieces()) < pieces  # a piece left the board
            if captured or move.promotion is not None:
                expected.add(str(move))
        assert {str(m) for m in board._core.legal_captures()} == expected, board.fen()
        captures = [m for m in moves if str(m) in expected]
        board.push(rng.choice(captures if captures and rng.random() < 0.5 else moves))


@pytest.mark.parametrize("seed", range(4))
def test_bulk_and_full_perft_agree(seed):
    rng = random.Random(seed)
    for variant in ("three-player", "standard"):
        board = Board(variant)
        for _ in range(rng.randrange(10, 60)):
            moves = list(board.legal_moves)
            if not moves:
                break
            board.push(rng.choice(moves))
        depth = 3
        assert board.perft(depth) == board._core.perft_full(depth)
        assert sum(board.divide(depth).values()) == board.perft(depth)


@pytest.mark.parametrize("variant,options", EVERY_GAME)
def test_counted_moves_are_the_listed_ones(variant, options):
    """Counting takes the unpinned pawns' moves as whole sets, a shift for each distance a pawn
    moves (topology.h), where listing takes one pawn at a time: the two agree in every position
    of pawn-heavy random games, checks and promotions among them."""
    rng = random.Random(21)
    in_check = promotions = 0
    for _ in range(8):
        board = Board(variant, **options)
        for _ in range(300):
            moves = list(board.legal_moves)
            assert board._core.count_legal_moves() == len(moves), board.fen()
            if not moves or board.is_game_over():
                break
            in_check += board.is_check()
            promotions += any(m.promotion is not None for m in moves)
            pawn_moves = [m for m in moves if board.piece_at(m.from_index).piece_type == PieceType.PAWN]
            board.push(rng.choice(pawn_moves if pawn_moves and rng.random() < 0.6 else moves))
    assert in_check > 0 and promotions > 0


def test_events_are_undone_by_pop():
    board = Board("three-player")
    board.push("E2E4")
    fen = board.fen()
    board.eliminate("red", by="white")
    assert board.status("red") == Status.OUT and board.controller("red").value == "white"
    assert board.king("red") is None and board.turn.value == "black"
    assert board.zobrist_key == board._core.compute_key()
    board.pop()
    assert board.fen() == Board("three-player").fen()
    board.push("E2E4")
    assert board.fen() == fen
