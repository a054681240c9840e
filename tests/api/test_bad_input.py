"""Bad input at every entry point gives a ValueError subclass with a short message that says
what was expected: never pybind11's TypeError, an AssertionError, a crash or a hang."""

import math
import subprocess
import sys
import textwrap

import pytest

import polychess
from polychess import Board, Engine, Game, IllegalMoveError, InvalidMoveError, InvalidPositionError, Move
from polychess.formats import Pgn4Error, parse_pgn4, read_fen4, read_record

VARIANTS = ["standard", "three-player", "four-player"]
SURROGATE = "\ud800"
MEGABYTE = "x" * (1 << 20)


# -- move text --------------------------------------------------------------------------------


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("e4", "only one cell is given"),
        ("O-O", "castling is written as the king's move"),
        ("0-0-0", "castling is written as the king's move"),
        ("Nf3", "does not start with a cell name"),
        ("E2E4 extra", "unexpected 'extra' after the move"),
        ("e2z9", "'z9' is not a cell"),
        ("e2e4k", "'k' is not a piece a pawn promotes to"),
        ("", "empty move text"),
        ("   ", "empty move text"),
    ],
)
def test_unreadable_move_text_says_what_is_expected(variant, text, reason):
    board = Board(variant)
    before = board.fen()
    with pytest.raises(InvalidMoveError) as caught:
        board.push(text)
    message = str(caught.value)
    assert reason in message
    assert "expected the from-cell and the to-cell" in message
    assert board.fen() == before


@pytest.mark.parametrize("text", ["e2-e4", "e2xe4", "E2E4", " e2e4 ", "e2 e4"])
def test_move_text_separators_and_spaces(text):
    assert str(Board("standard").push(text)) == "e2e4"


def test_promotion_letter_with_equals_sign_and_space():
    board = Board("standard", "8/4P3/8/8/8/8/8/K6k w - - 0 1")
    assert str(board.parse_move("e7e8=Q")) == "e7e8q"
    assert str(board.parse_move("e7e8 n")) == "e7e8n"


def test_illegal_move_message_says_it_once():
    with pytest.raises(IllegalMoveError) as caught:
        Game("standard").push("E2E5")
    message = str(caught.value)
    assert message.count("E2E5") == 1
    assert "white to move" in message


@pytest.mark.parametrize("variant", VARIANTS)
def test_examples_in_the_message_are_moves_of_the_variant(variant):
    """The message's examples come from the board: the first one is a legal start move."""
    board = Board(variant)
    with pytest.raises(InvalidMoveError) as caught:
        board.push("e4")
    example = str(caught.value).split("e.g. '")[1].split("'")[0]
    assert example in board.legal_moves


# -- text that is not Unicode, and long text ------------------------------------------------


@pytest.mark.parametrize("variant", VARIANTS)
def test_lone_surrogate_in_a_position_string(variant):
    with pytest.raises(InvalidPositionError, match="lone surrogate .* at index 3"):
        Board(variant, "abc" + SURROGATE + MEGABYTE)


@pytest.mark.parametrize("variant", VARIANTS)
def test_lone_surrogate_in_move_text(variant):
    board = Board(variant)
    for read in (board.push, board.parse_move, lambda text: Move.from_text(text, variant)):
        with pytest.raises(InvalidMoveError, match="lone surrogate"):
            read("e2" + SURROGATE)
    assert (SURROGATE + "e2e4") not in board.legal_moves
    assert board.move_stack == []


def test_lone_surrogate_in_names():
    for call in (
        lambda: Board(SURROGATE),
        lambda: Board("four-player", mode=SURROGATE),
        lambda: polychess.Layout("standard").index(SURROGATE),
        lambda: Board("standard").piece_at(SURROGATE),
    ):
        with pytest.raises(ValueError, match="surrogate|no cell|unknown variant"):
            call()


def test_lone_surrogate_in_records():
    with pytest.raises(ValueError):
        read_record('[Variant "three-player"]\n1. E2E4' + SURROGATE)
    with pytest.raises(ValueError):
        parse_pgn4('[Variant "Teams"]\n1. h2-h3' + SURROGATE)
    with pytest.raises(ValueError):
        read_fen4("R-0,0,0,0-1,1,1,1-1,1,1,1-0,0,0,0-0-" + SURROGATE)


@pytest.mark.parametrize("variant", VARIANTS)
def test_long_input_is_cut_in_messages(variant):
    for call, error in (
        (lambda: Board(variant, MEGABYTE), InvalidPositionError),
        (lambda: Board(variant).push(MEGABYTE), InvalidMoveError),
        (lambda: Board(variant).push("e2" + MEGABYTE), InvalidMoveError),
        (lambda: Board(MEGABYTE), ValueError),
    ):
        with pytest.raises(error) as caught:
            call()
        assert len(str(caught.value)) < 600


def test_long_placement_row_is_cut():
    row = "8" * 5000
    with pytest.raises(InvalidPositionError) as caught:
        Board("standard", f"{row}/8/8/8/8/8/8/8 w - - 0 1")
    assert len(str(caught.value)) < 400
    assert "(5000 bytes)" in str(caught.value)


# -- PGN4 ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("text", ["1. ]", "]", '[Variant "Teams"]]\n1. h2-h3', '[Variant "Teams"]\n1. h2-h3 ] 2.'])
def test_pgn4_stray_bracket(text):
    with pytest.raises(Pgn4Error, match=r"'\]' without '\['"):
        parse_pgn4(text)


def test_pgn4_stray_bracket_under_optimisation():
    """`assert` must not validate input: under ``python -O`` the same error comes."""
    script = textwrap.dedent("""
        from polychess.formats import Pgn4Error, parse_pgn4
        try:
            parse_pgn4("1. ]")
        except Pgn4Error as error:
            print("Pgn4Error", error)
    """)
    result = subprocess.run([sys.executable, "-O", "-c", script], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("Pgn4Error")


# -- the engine's limits and options ------------------------------------------------------------


@pytest.mark.parametrize(
    ("limits", "message"),
    [
        ({"time": math.nan}, "time must be a positive, finite number"),
        ({"time": math.inf}, "time must be a positive, finite number"),
        ({"time": -1.0}, "time must be a positive, finite number"),
        ({"time": 10**400}, "time must be a positive, finite number"),
        ({"time": "1"}, "time must be a number of seconds"),
        ({"nodes": 2**62 + 1}, "nodes must be between 1 and"),
        ({"nodes": 0}, "nodes must be between 1 and"),
        ({"nodes": 1.5}, "nodes must be a whole number"),
        ({"depth": 2**31}, "depth must be between 1 and"),
        ({"depth": -1}, "depth must be between 1 and"),
        ({"depth": True}, "depth must be a whole number"),
    ],
)
def test_search_limits_are_validated(limits, message):
    with pytest.raises(ValueError, match=message):
        Engine(hash_mb=1).search(Board("standard"), **limits)


def test_largest_limits_are_accepted():
    engine = Engine(hash_mb=1)
    result = engine.search(
        Board("standard", "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1"),
        depth=polychess._core.MAX_DEPTH,
        nodes=polychess._core.MAX_NODES,
        time=2.0,
    )
    assert str(result.best_move) == "a1a8"


def test_hash_size_is_bounded_by_the_machine():
    from polychess.engine import max_hash_mb

    most = max_hash_mb()
    assert 0 < most <= polychess._core.MAX_HASH_MB
    with pytest.raises(ValueError, match="half of this machine's memory"):
        Engine(hash_mb=most + 1)
    for bad in (-1, 2.5, True, "16"):
        with pytest.raises(ValueError, match="hash_mb"):
            Engine(hash_mb=bad)
    with pytest.raises(ValueError, match="threads"):
        Engine(threads=0)


@pytest.mark.parametrize("threads", [1, 2])
def test_an_info_callback_that_raises(threads):
    """The callback's exception comes out of search(); with helper threads the process used to
    abort (threads left joinable). Run in a subprocess so an abort fails the test, not pytest."""
    script = textwrap.dedent(f"""
        import polychess
        engine = polychess.Engine(hash_mb=4, threads={threads})
        try:
            engine.search(polychess.Board("three-player"), depth=6, info=lambda result: 1 / 0)
        except ZeroDivisionError:
            print("raised")
        print(engine.search(polychess.Board("three-player"), depth=2).best_move is not None)
    """)
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["raised", "True"]


def test_record_reader_names_an_illegal_move_once():
    with pytest.raises(ValueError) as caught:
        read_record('[Variant "three-player"]\n\n1. E2E5 *\n')
    assert str(caught.value) == "line 3: illegal move 'E2E5' (white to move)"
