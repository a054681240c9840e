"""Action codes (polychess.rl.actions, cpp/learn/actions.h): every legal move has exactly one code,
decoding gives the move back, the codes are read in the mover's frame (a seat whose army
stands as the first seat's does gets the first seat's codes), and bad input is refused."""

from __future__ import annotations

import random
import re

import pytest

from polychess import Board, Game, IllegalMoveError
from polychess.rl import ActionSpace

numpy = pytest.importorskip("numpy")

GAMES = [
    ("standard", None, None),
    ("three-player", None, None),
    ("four-player", "teams", "modern"),
    ("four-player", "ffa", "modern"),
    ("four-player", "teams", "classic"),
]


def _random_boards(variant: str, mode: str | None, setup: str | None, games: int, seed: int) -> list[Board]:
    """Positions of random games, through eliminations and transferred armies."""
    rng = random.Random(seed)
    boards = []
    for _ in range(games):
        game = Game(variant, mode=mode, setup=setup)
        while not game.is_over() and game.ply < 400:
            boards.append(game.board)
            game.push(rng.choice(list(game.legal_moves)))
    return boards


@pytest.mark.parametrize(("variant", "mode", "setup"), GAMES)
def test_every_legal_move_has_one_code_and_decodes_back(variant: str, mode: str | None, setup: str | None) -> None:
    space = ActionSpace(variant, mode, setup)
    for board in _random_boards(variant, mode, setup, games=6, seed=3)[::3]:
        moves = list(board.legal_moves)
        codes = [space.encode(board, move) for move in moves]
        assert all(0 <= code < space.size for code in codes)
        assert len(set(codes)) == len(codes), f"two moves share a code in {board.fen()}"
        assert [space.decode(board, code) for code in codes] == moves
        assert space.legal_actions(board) == sorted(codes)
        mask = space.mask(board)
        assert mask.dtype == numpy.int8 and mask.shape == (space.size,)
        assert set(numpy.flatnonzero(mask)) == set(codes)


def test_the_three_player_centre_forks_get_one_code_per_move() -> None:
    # A bishop beside the centre reaches cells on both branches of a forked diagonal.
    space = ActionSpace("three-player")
    board = Board("three-player", "rK7/8/8/8/bK7/8/8/8/3wB4/8/8/wK7 w - - 0 1 wrb aaa")
    bishop = [move for move in board.legal_moves if str(move).startswith("D4")]
    assert {"D4K9", "D4C9", "D4L10", "D4B10"} <= {str(move) for move in bishop}
    codes = [space.encode(board, move) for move in bishop]
    assert len(set(codes)) == len(codes)
    assert {space.action(code) for code in codes} == {str(move) for move in bishop}  # White is seat 0


@pytest.mark.parametrize(
    ("variant", "mode", "turn_field", "other"),
    [
        ("standard", None, " w ", " b "),
        ("three-player", None, " w ", " r "),
        ("three-player", None, " w ", " b "),
        ("four-player", "teams", " r ", " b "),
        ("four-player", "teams", " r ", " y "),
        ("four-player", "ffa", " r ", " g "),
    ],
)
def test_codes_are_read_in_the_movers_frame(variant: str, mode: str | None, turn_field: str, other: str) -> None:
    # The start positions are symmetric: each seat's army stands as the first seat's does, so
    # with another seat to move the same codes are legal, for moves on other cells.
    space = ActionSpace(variant, mode)
    start = Board(variant, mode=mode)
    turned = Board(variant, start.fen().replace(turn_field, other, 1), mode=mode)
    assert turned.turn != start.turn
    assert space.legal_actions(turned) == space.legal_actions(start)
    assert {str(m) for m in turned.legal_moves}.isdisjoint({str(m) for m in start.legal_moves})


def test_under_promotions_have_their_own_codes() -> None:
    space = ActionSpace("standard")
    board = Board("standard", "8/P6k/8/8/8/8/8/K7 w - - 0 1")
    codes = {str(move): space.encode(board, move) for move in board.legal_moves if str(move).startswith("a7a8")}
    assert sorted(codes) == ["a7a8b", "a7a8n", "a7a8q", "a7a8r"]
    assert len(set(codes.values())) == 4
    assert space.action(codes["a7a8q"]) == "a7a8"  # the plain code promotes to a queen
    # Black's promotion is White's, seen from Black's side.
    black = Board("standard", "7K/8/8/8/8/8/p6k/8 b - - 0 1")
    assert space.encode(black, "a2a1n") == codes["a7a8n"]


def test_free_for_all_promotes_to_the_one_point_queen_only() -> None:
    teams, ffa = ActionSpace("four-player", "teams"), ActionSpace("four-player", "ffa")
    assert ffa.size < teams.size  # no under-promotion codes


def test_bad_input_is_refused() -> None:
    space = ActionSpace("standard")
    board = Board("standard")
    with pytest.raises(IllegalMoveError, match="not a legal move"):
        space.decode(board, _illegal_code(space, board))
    with pytest.raises(IllegalMoveError, match="the action codes are whole numbers from 0 to"):
        space.decode(board, space.size)
    with pytest.raises(ValueError, match="not for a three-player board"):
        space.legal_actions(Board("three-player"))
    with pytest.raises(IllegalMoveError):
        space.encode(board, "e2e5")
    with pytest.raises(ValueError, match="contiguous one-byte array"):
        space._core.write_mask(board._core, numpy.zeros(space.size, dtype=numpy.int32))
    fen = board.fen()
    assert board.fen() == fen  # nothing above touched the board


def _beyond(code: int) -> list[object]:
    """Numbers that are no action codes, among them some that a cast to 32 or 64 bits would turn
    into ``code``, and values that are no whole numbers at all."""
    return [
        2**32 + code,
        -(2**32) + code,
        2**64 + code,
        numpy.int64(2**32 + code),
        2**31 + code,
        -1,
        3006,
        2**100,
        numpy.uint64(2**64 - 1),
        numpy.int64(-1),
        float(code),
        numpy.float32(code),
        True,
        numpy.True_,
        str(code),
        None,
    ]


def test_every_code_entry_point_takes_whole_numbers_in_range_only() -> None:
    space = ActionSpace("three-player")
    board = Board("three-player")
    code = space.legal_actions(board)[0]
    move = space.decode(board, code)
    for same in (code, numpy.int8(code), numpy.uint16(code), numpy.int32(code), numpy.uint64(code)):
        assert space.decode(board, same) == move and space.is_legal(board, same)
        assert space.action(same) == str(move)  # White is seat 0
    range_text = "the action codes are whole numbers from 0 to 3005"
    for value in _beyond(code):
        for entry_point in (space.action, lambda v: space.decode(board, v)):
            with pytest.raises(IllegalMoveError, match=f"^no action {re.escape(repr(value))}: {range_text}$"):
                entry_point(value)
        if isinstance(value, (int, numpy.integer)) and not isinstance(value, (bool, numpy.bool_)):
            assert space.is_legal(board, value) is False  # any whole number may be asked
        else:
            with pytest.raises(IllegalMoveError, match=range_text):
                space.is_legal(board, value)
    for long_value in ("7" * 1000, 10**5000):  # the second has more digits than Python writes
        with pytest.raises(IllegalMoveError, match=range_text) as refused:
            space.action(long_value)
        assert len(str(refused.value)) < 200  # a long input is cut in the message


def _illegal_code(space: ActionSpace, board: Board) -> int:
    legal = set(space.legal_actions(board))
    return next(code for code in range(space.size) if code not in legal)
