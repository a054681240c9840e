"""The primitives the game layer applies between moves (docs/rules.md §1.8-1.10), each recorded in
the history so that pop() takes it back."""

import pytest

from polychess import Board, Colour, Status

START = Board("three-player").fen()


def test_set_controller_transfers_and_lapses_rights():
    board = Board("three-player")
    board.push("E2E4")  # White's en-passant right E3 is open for Red and Black
    board.set_controller(Colour.WHITE, Colour.RED)
    fields = board.fen().split()
    assert fields[2] == "rKQbKQ" and fields[3] == "-" and fields[6] == "rrb"
    assert board.controller(Colour.WHITE) is Colour.RED
    assert "E4E5" in board.legal_moves  # Red, to move, now moves White's pawns too
    board.set_controller(Colour.WHITE, None)
    assert board.controller(Colour.WHITE) is None and board.fen().split()[6] == "-rb"
    assert board.pop().from_cell == "E2"
    assert board.fen() == START


def test_remove_king():
    board = Board("three-player")
    board.remove_king(Colour.BLACK)
    assert board.king(Colour.BLACK) is None and board.piece_at("K8") is None
    assert board.fen().split()[2] == "wKQrKQ"  # castling needs the king on its cell
    with pytest.raises(ValueError, match="not on the board"):
        board.remove_king(Colour.BLACK)
    board._core.undo()
    assert board.fen() == START


def test_set_status_freezes_and_passes_the_turn():
    board = Board("three-player")
    board.push("E2E4")
    board.set_status(Colour.RED, Status.FROZEN)
    assert board.status(Colour.RED) == Status.FROZEN
    assert board.turn is Colour.BLACK
    assert board.fen().split()[7] == "afa"
    board.push("K7K6")
    assert board.turn is Colour.WHITE
    board.push("D2D4")
    assert board.turn is Colour.BLACK  # the frozen player is skipped
    board.pop()
    board.pop()
    board.pop()
    assert board.fen() == START


def test_eliminate_for_resignation_leaves_inert_pieces():
    board = Board("three-player")
    board.eliminate(Colour.WHITE, by=None)
    assert board.status(Colour.WHITE) == Status.OUT and board.king(Colour.WHITE) is None
    assert board.controller(Colour.WHITE) is None
    assert board.turn is Colour.RED
    assert board.fen().split()[6:] == ["-rb", "xaa"]
    assert len(board.legal_moves) == 20


def test_primitive_arguments_are_checked():
    board = Board("three-player")
    with pytest.raises(ValueError):
        board.eliminate(Colour.RED, by=Colour.RED)
    with pytest.raises(ValueError):
        board.set_controller("green", Colour.RED)
    board.eliminate(Colour.RED, by=Colour.WHITE)
    with pytest.raises(ValueError, match="already out"):
        board.eliminate(Colour.RED, by=Colour.BLACK)
    assert board.fen().split()[6:] == ["wwb", "axa"]
