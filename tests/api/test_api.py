"""The Python API: values, views, copies, errors."""

import copy
import pickle
import threading

import pytest

import polychess
from polychess import Board, Colour, IllegalMoveError, InvalidMoveError, InvalidPositionError, Move

THREE = "three-player"


def test_move_values():
    move = Move.from_text("e2-e4", THREE)
    assert str(move) == "E2E4" and move.from_cell == "E2" and move.to_cell == "E4" and move.promotion is None
    assert eval(repr(move), {"Move": Move}) == move
    assert hash(move) == hash(Move.from_text("E2E4", THREE))
    assert Move.from_text("A11xA12=q", THREE).promotion == "Q"
    assert str(Move.from_text("A11A12Q", THREE)) == "A11A12Q"
    assert str(Move.from_text("E7E8Q", "standard")) == "e7e8q"
    assert Move.from_text("e2e4", "standard") != Move.from_text("e2e4", THREE)
    assert pickle.loads(pickle.dumps(move)) == move
    with pytest.raises(AttributeError):
        move.from_cell = "E3"


@pytest.mark.parametrize("text", ["", "E2", "E2E", "I2I4", "E2E4K", "E2E4QQ", "Z9Z9", "E13E14"])
def test_bad_move_text(text):
    board = Board(THREE)
    with pytest.raises(InvalidMoveError) as info:
        board.push(text)
    assert isinstance(info.value, ValueError)
    assert board.fen() == Board(THREE).fen()


def test_illegal_moves_leave_the_board_unchanged():
    board = Board(THREE)
    fen = board.fen()
    for text in ["E2E5", "D12D11", "E1E2", "B1B3"]:
        with pytest.raises(IllegalMoveError):
            board.push(text)
        assert board.fen() == fen and board.move_stack == []
    with pytest.raises(IllegalMoveError):
        board.push(Move.from_text("e2e4", "standard"))
    with pytest.raises(TypeError):
        board.push(42)
    standard = Board("standard", "8/4P1k1/8/8/8/8/8/4K3 w - - 0 1")
    with pytest.raises(IllegalMoveError, match="promotion"):
        standard.push("e7e8")


@pytest.mark.parametrize(
    "fen,fragment",
    [
        ("", "fields"),
        ("8/8/8/8/8/8/8/8 w - - 0 1", "kings"),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1", "player to move"),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNZ w KQkq - 0 1", "piece"),
        ("rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "cells"),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1", "rows"),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkqX - 0 1", "castling"),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN1 w KQkq - 0 1", "castling"),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e3 0 1", "en-passant"),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - x 1", "halfmove"),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 0", "fullmove"),
        ("4k3/4R3/8/8/8/8/8/4K3 w - - 0 1", "check"),
        ("Pnbqkbnr/pppppppp/8/8/8/8/1PPPPPPP/RNBQKBNR w KQkq - 0 1", "pawn"),
    ],
)
def test_bad_standard_positions(fen, fragment):
    with pytest.raises(InvalidPositionError, match=fragment):
        Board("standard", fen)


START3 = Board(THREE).fen()


@pytest.mark.parametrize(
    "mutate,fragment",
    [
        (lambda f: f.replace(" w ", " q ", 1), "player to move"),
        (lambda f: f.replace("wKQrKQbKQ", "wKQrKQbKZ"), "castling"),
        (lambda f: f.replace(" wrb aaa", " wrb aax"), "out"),
        (lambda f: f.replace(" wrb aaa", " wwb aaa"), "kings"),
        (lambda f: f.replace(" wrb aaa", " wrb afa").replace(" w ", " r ", 1), "not active"),
        (lambda f: f.replace(" - 0 1", " E3 0 1"), "en-passant"),
        (lambda f: f.replace("wRwNwBwQwKwBwNwR", "wRwNwBwQwKwBwN1"), "castling"),
        (
            lambda f: f.replace("bQbBbNbRbKbBbNbR", "wPbBbNbRbKbBbNbR").replace("wPwPwPwPwPwPwPwP", "1wPwPwPwPwPwPwP"),
            "pawn cannot stand on E8",
        ),
        (lambda f: f.replace("/8/8/8/8/wP", "/wQwQwQwQwQwQwQwQ/8/8/8/wP"), "at most 16"),
        (lambda f: f.replace(" wrb aaa", " wrb aaq"), "status"),
        (lambda f: f.replace(" wrb aaa", " wrz aaa"), "controller"),
    ],
)
def test_bad_three_player_positions(mutate, fragment):
    with pytest.raises(InvalidPositionError, match=fragment):
        Board(THREE, mutate(START3))


def test_unknown_variant():
    with pytest.raises(ValueError, match="unknown variant"):
        Board("hexchess")


def test_position_string_round_trip():
    board = Board(THREE)
    for move in ["E2E4", "M11M9", "F7F5", "E4F5", "N11N9"]:
        board.push(move)
    again = Board(THREE, board.fen())
    assert again.fen() == board.fen() and again.zobrist_key == board.zobrist_key
    assert {str(m) for m in again.legal_moves} == {str(m) for m in board.legal_moves}
    assert repr(board) == f"Board('three-player', fen={board.fen()!r})"


def test_board_value_semantics():
    board = Board(THREE)
    other = board.copy()
    other.push("E2E4")
    assert board != other and board.fen() == START3
    assert copy.deepcopy(other) == other
    assert pickle.loads(pickle.dumps(other)) == other
    assert pickle.loads(pickle.dumps(other)).move_stack == other.move_stack
    assert board.peek if not board.move_stack else True
    with pytest.raises(IndexError):
        board.pop()
    with pytest.raises(IndexError):
        board.peek()


def test_legal_moves_view():
    board = Board(THREE)
    view = board.legal_moves
    assert len(view) == 20 and bool(view)
    assert "E2E4" in view and "E2E5" not in view and "nonsense" not in view
    assert Move.from_text("E2E4", THREE) in view
    board.push("E2E4")
    assert "E2E4" not in view  # live
    assert all(isinstance(m, Move) for m in view)


def test_players_and_state():
    board = Board(THREE)
    assert board.colours == (Colour.WHITE, Colour.RED, Colour.BLACK)
    assert board.turn is Colour.WHITE
    board.push("E2E4")
    assert board.turn is Colour.RED and board.fullmove_number == 1 and board.halfmove_clock == 0
    assert board.piece_at("E4") == polychess.Piece(Colour.WHITE, polychess.PieceType.PAWN)
    assert board.king("black") == "K8"
    assert board.controller(Colour.RED) is Colour.RED
    with pytest.raises(ValueError, match="no colour"):
        board.status("green")
    with pytest.raises(ValueError, match="no cell"):
        board.piece_at("Z1")
    with pytest.raises(ValueError):
        board.eliminate("red", by="red")
    with pytest.raises(ValueError):
        board.perft(-1)


def test_perft_releases_the_gil():
    board = Board(THREE)
    span = []

    def count():
        span.append("counting")
        span.append(board.perft(5))

    thread = threading.Thread(target=count)
    thread.start()
    ran_meanwhile = False
    while thread.is_alive():
        # Python code runs here while the other thread is inside perft only if the GIL is free
        ran_meanwhile |= len(span) == 1
    thread.join()
    assert span == ["counting", 3960896]
    assert ran_meanwhile


def test_board_usable_during_perft_in_another_thread():
    board = Board(THREE)
    thread = threading.Thread(target=board.perft, args=(4,))
    thread.start()
    for _ in range(200):
        board.push("E2E4")
        board.pop()
    thread.join()
    assert board.fen() == START3


def test_package_docstring_examples():
    import doctest

    failures, tried = doctest.testmod(polychess, verbose=False)
    assert tried > 0 and failures == 0
