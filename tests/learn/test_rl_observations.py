"""Observations (polychess.rl.observations, cpp/learn/observation.h): the planes of docs/rl.md, seen
from the player to move. A seat whose army stands as the first seat's does sees exactly what
the first seat sees; pieces, en passant, repetitions and points land where the docs say."""

from __future__ import annotations

import pytest

from polychess import Board, Game
from polychess.rl import observation_shape, observe

numpy = pytest.importorskip("numpy")


@pytest.mark.parametrize(
    ("variant", "mode", "grid", "cells"),
    [
        ("standard", None, (8, 8), 64),
        ("three-player", None, (12, 8), 96),
        ("four-player", "teams", (14, 14), 160),
        ("four-player", "ffa", (14, 14), 160),
    ],
)
def test_shape_cells_and_pieces(variant: str, mode: str | None, grid: tuple[int, int], cells: int) -> None:
    game = Game(variant, mode=mode)
    planes = observe(game)
    assert planes.dtype == numpy.float32 and planes.shape == observation_shape(game)
    assert planes.shape[1:] == grid
    assert planes[0].sum() == cells  # the board's cells
    colours = len(game.board.colours)
    kinds = 7 if mode == "ffa" else 6
    assert planes[1 : 1 + colours * kinds].sum() == len(game.board.pieces())
    # The mover's pawns stand on his second row, in his own frame.
    assert planes[1].sum() == 8 and planes[1][1].sum() == 8


@pytest.mark.parametrize(
    ("variant", "mode", "turn_field", "other"),
    [
        ("standard", None, " w ", " b "),
        ("three-player", None, " w ", " r "),
        ("three-player", None, " w ", " b "),
        ("four-player", "teams", " r ", " b "),
        ("four-player", "ffa", " r ", " y "),
    ],
)
def test_every_seat_sees_a_symmetric_start_alike(variant: str, mode: str | None, turn_field: str, other: str) -> None:
    start = Game(variant, mode=mode)
    turned = Game(variant, mode=mode, start=start.board.fen().replace(turn_field, other, 1))
    assert turned.turn != start.turn
    assert numpy.array_equal(observe(turned), observe(start))


def test_en_passant_and_the_quiet_move_clock() -> None:
    game = Game("standard")
    game.push("e2e4")
    planes = observe(game)
    colours, kinds, players = 2, 6, 2
    en_passant = 1 + colours * kinds + colours * players + 3 * players + 2 * colours
    # Black to move: e3, White's third rank, is the sixth row of Black's mirrored frame.
    assert planes[en_passant].sum() == 1 and planes[en_passant][5][4] == 1
    game.push("g8f6")
    assert planes[en_passant + 2].max() == 0
    assert observe(game)[en_passant + 2].max() == pytest.approx(1 / 100)  # one quiet ply of the fifty moves


def test_repetitions_count() -> None:
    game = Game("standard")
    colours, kinds, players = 2, 6, 2
    repetition = 1 + colours * kinds + colours * players + 3 * players + 2 * colours + 1
    assert observe(game)[repetition].max() == 0
    for move in ("g1f3", "g8f6", "f3g1", "f6g8"):
        game.push(move)
    assert observe(game)[repetition].max() == pytest.approx(0.5)


def test_statuses_and_points_in_free_for_all() -> None:
    game = Game("four-player", mode="ffa", points={"red": 0, "blue": 7, "yellow": 0, "green": 0})
    planes = observe(game)
    colours = players = 4
    status = 1 + colours * 7 + colours * players
    assert all(planes[status + 3 * p].min() == 1 for p in range(players))  # everybody active
    points = status + 3 * players + 2 * colours + 3
    assert planes.shape[0] == points + players
    assert [planes[points + p].max() for p in range(players)] == pytest.approx([0, 0.07, 0, 0])  # Blue is next


def test_bad_buffers_are_refused() -> None:
    game = Game("three-player")
    shape = observation_shape(game)
    with pytest.raises(ValueError, match="float32"):
        observe(game, numpy.zeros(shape, dtype=numpy.float64))
    with pytest.raises(ValueError, match="float32"):
        observe(game, numpy.zeros(shape[0], dtype=numpy.float32))
    with pytest.raises(ValueError, match="contiguous"):
        observe(game, numpy.zeros(shape[::-1], dtype=numpy.float32).transpose())
    out = numpy.full(shape, 7.0, dtype=numpy.float32)
    assert observe(game, out) is out and out.max() == 1.0
    with pytest.raises(TypeError):
        observe(Board("three-player"))  # type: ignore[arg-type]


def test_any_player_sees_from_his_own_seat() -> None:
    game = Game("three-player")
    game.push("E2E4")  # Red to move; White's view is the one of the player who just moved
    white = observe(game, player="white")
    assert not numpy.array_equal(white, observe(game))
    assert numpy.array_equal(observe(game, player="red"), observe(game))
    # White's own pawn on E4 is on his fourth row, in his frame (the same cell as at his turn).
    start = observe(Game("three-player"))
    assert white[1].sum() == 8 and white[1][3].sum() == 1 and start[1][3].sum() == 0
    with pytest.raises(ValueError, match="does not play"):
        observe(game, player="blue")


def test_uint8_planes_hold_the_counts() -> None:
    game = Game("standard")
    for move in ("g1f3", "g8f6", "f3g1", "f6g8", "g1f3"):
        game.push(move)
    floats, counts = observe(game), observe(game, dtype="uint8")
    assert counts.dtype == numpy.uint8 and counts.shape == floats.shape
    colours, kinds, players = 2, 6, 2
    repetition = 1 + colours * kinds + colours * players + 3 * players + 2 * colours + 1
    # The 0/1 planes are the same; the counting planes hold the counts themselves.
    assert numpy.array_equal(counts[:repetition], floats[:repetition].astype(numpy.uint8))
    assert counts[repetition].max() == 1 and floats[repetition].max() == pytest.approx(0.5)  # stood once before
    assert counts[repetition + 1].max() == 5 and floats[repetition + 1].max() == pytest.approx(5 / 100)  # quiet plies
    out = numpy.zeros(floats.shape, dtype=numpy.uint8)
    assert observe(game, out) is out and numpy.array_equal(out, counts)
    with pytest.raises(ValueError, match="dtype"):
        observe(game, dtype="int64")


def test_points_count_in_uint8_up_to_255() -> None:
    game = Game("four-player", mode="ffa", points={"red": 300, "blue": 7, "yellow": 0, "green": 0})
    planes = observe(game, dtype="uint8")
    assert [planes[-4 + p].max() for p in range(4)] == [255, 7, 0, 0]
    assert observe(game)[-4].max() == pytest.approx(3.0)  # the float plane is not capped
