"""``polychess play``: scripted sessions through stdin, seats, draw offers, announcements, and
the text board the session draws."""

from __future__ import annotations

import io
import re
import subprocess
import sys
from pathlib import Path

import pytest

import polychess
from polychess import Board, Colour, Game
from polychess.cli import main
from polychess.cli.common import DEFAULT_NODES, Budget, EngineSpec, UsageError
from polychess.cli.play import assign_seats, engine_accepts_draw
from polychess.formats import read_pgn4, read_record
from polychess.text_board import render
from positions import position

W, R, B = Colour.WHITE, Colour.RED, Colour.BLACK


def play(monkeypatch, capsys, args: list[str], script: str) -> tuple[int, str, str]:
    """Runs ``polychess play ARGS`` with SCRIPT as its standard input."""
    monkeypatch.setattr(sys, "stdin", io.StringIO(script))
    code = main(["play", "--no-color", *args])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def fen_lines(out: str) -> list[str]:
    """The position strings printed by the ``fen`` command (the lines after its prompt)."""
    lines = out.splitlines()
    return [lines[i + 1] for i, line in enumerate(lines) if line.endswith("> fen")]


# --------------------------------------------------------------------------- humans only


def test_humans_play_with_bad_input_undo_and_save(monkeypatch, capsys, tmp_path):
    record = tmp_path / "game.txt"
    script = (
        "\n".join(
            [
                "E2E4",
                "fen",
                "bogus",  # unreadable: a message, nothing changes
                "E2E5",  # readable but illegal for Red
                "fen",
                "M11M9",
                "undo",  # takes back Red's move only: every seat is human
                "M11M10",
                "H7H6",
                f"save {record}",
            ]
        )
        + "\n"
    )
    code, out, err = play(monkeypatch, capsys, ["--humans", "all"], script)
    assert code == 0 and err == ""
    assert "bad move text 'bogus'" in out and "'help' lists the commands" in out
    assert "illegal move 'E2E5' (red to move)" in out and "'moves' lists the legal moves" in out
    before, after = fen_lines(out)
    assert before == after  # the bad lines left the position alone
    assert "Took back M11M9." in out
    assert f"Saved the game to {record}." in out
    assert "End of input" in out
    game = read_record(record.read_text())
    assert game.history == ["E2E4", "M11M10", "H7H6"]
    assert not game.is_over() and game.turn == W
    assert 'White "human"' in record.read_text()


def test_board_is_drawn_with_cell_names_after_every_move(monkeypatch, capsys):
    code, out, _ = play(monkeypatch, capsys, ["--humans", "all"], "E2E4\n")
    assert code == 0
    boards = out.count("White\n")  # the label under White's side ends every drawing
    assert boards == 2  # the start and after E2E4
    first, second = out.split("E2E4\n", 1)
    for name in Board("three-player").layout.names:
        assert re.search(rf"\b{name}\b", first), name
    assert "last move E2E4" in second


def test_moves_and_help_commands(monkeypatch, capsys):
    _, out, _ = play(monkeypatch, capsys, ["--humans", "all"], "moves\nhelp\n")
    assert "20 legal moves: A2A3 A2A4" in out
    assert "save FILE" in out and "undo" in out and "resign" in out


def test_one_legal_move_is_counted_in_the_singular(monkeypatch, capsys):
    _, out, _ = play(
        monkeypatch,
        capsys,
        ["--variant", "standard", "--humans", "all", "--fen", "k7/8/2K5/8/8/8/8/1R6 b - - 0 1"],
        "moves\nquit\n",
    )
    assert "1 legal move: a8a7" in out


def test_draw_offer_needs_every_other_human(monkeypatch, capsys):
    script = "draw\nyes\nno\ndraw\ny\nyes\n"
    code, out, _ = play(monkeypatch, capsys, ["--humans", "all"], script)
    assert code == 0
    assert "Red (human) accepts the draw." in out
    assert "Black (human) declines the draw." in out
    assert out.count("White (human) offers") == 0  # the offer names the colour
    assert "Game over: agreement." in out
    assert "1st (shared): White (human); Red (human); Black (human)" in out


def test_resignation_in_standard_chess(monkeypatch, capsys, tmp_path):
    record = tmp_path / "r.txt"
    code, out, _ = play(
        monkeypatch, capsys, ["--variant", "standard", "--humans", "all", "--save", str(record)], "e2e4\nresign\n"
    )
    assert code == 0
    assert "Black resigns." in out and "Game over: resignation." in out
    assert "1st: White (human)" in out and "2nd: Black (human)" in out
    game = read_record(record.read_text())  # --save writes the record at the end
    assert game.is_over() and game.history == ["e2e4", "resign(black)"]


def test_mates_transfers_and_places_are_announced(monkeypatch, capsys):
    # tests/game/test_three_player_game.py's MATE_TWICE: White mates Black, inherits Black's rook, mates Red.
    start = position(
        {"A3": "wK", "B3": "wR", "G1": "rR", "N12": "rK", "N11": "rP", "M11": "rP", "H8": "bK", "K10": "bR"}
    )
    code, out, _ = play(
        monkeypatch,
        capsys,
        ["--humans", "all", "--fen", start, "--compact"],
        "B3H3\nG1G2\nA3A4\nG2G3\nK10K12\nundo\nquit\n",
    )
    assert code == 0
    assert "Black is checkmated by White. Black's army now plays for White." in out
    assert "black's army plays for white" in out  # the status line under the board
    assert "Red is checkmated by White. Red's army now plays for White." in out
    assert "Game over: checkmate." in out
    assert "1st: White (human)" in out and "2nd: Red (human)" in out and "3rd: Black (human)" in out
    assert "Took back K10K12." in out  # undo after the end resumes the game


def test_stalemate_freezes_a_player(monkeypatch, capsys):
    # Red's lone king on N12 has no move once White's queen reaches M10, and is not in check.
    start = position({"E1": "wK", "L10": "wQ", "N12": "rK", "E8": "bK", "H7": "bP"})
    board = Board("three-player", start)
    board.push("L10M10")
    assert board.is_stalemate(), "the test position must stalemate Red"
    _, out, _ = play(monkeypatch, capsys, ["--humans", "all", "--fen", start], "L10M10\nquit\n")
    assert "Red is stalemated. Red is frozen" in out
    assert "red frozen" in out


def test_free_for_all_points_are_announced(monkeypatch, capsys):
    # Red's queen takes Blue's pawn on b6 after f2f4 opened its diagonal: 1 point.
    code, out, _ = play(
        monkeypatch,
        capsys,
        ["--variant", "four-player", "--mode", "ffa", "--humans", "all"],
        "f2f4\nb9d9\ne14d12\nm7l7\ng1b6\nquit\n",
    )
    assert code == 0
    assert out.count("Points:") == 1
    assert "Points: Red 1, Blue 0, Yellow 0, Green 0" in out


# --------------------------------------------------------------------------- engines


def test_human_against_engines(monkeypatch, capsys, tmp_path):
    record = tmp_path / "vs.txt"
    script = f"E2E4\nsave {record}\nundo\nfen\nquit\n"
    code, out, _ = play(monkeypatch, capsys, ["--engines", "red,black", "--nodes", "200"], script)
    assert code == 0
    assert re.search(r"Red \(engine\) plays [A-N][0-9]+[A-N][0-9]+", out)
    assert re.search(r"Black \(engine\) plays [A-N][0-9]+[A-N][0-9]+", out)
    game = read_record(record.read_text())
    assert len(game.history) == 3 and game.history[0] == "E2E4"
    assert 'Red "polychess engine:nodes=200"' in record.read_text()
    # undo takes back the engines' replies and the human's move
    assert "Took back E2E4, " in out
    assert fen_lines(out) == [Board("three-player").fen()]
    assert "Game left unfinished." in out


def test_engine_plays_first_when_its_seat_moves_first(monkeypatch, capsys):
    code, out, _ = play(
        monkeypatch,
        capsys,
        ["--variant", "standard", "--seat", "white=engine:depth=1", "--seat", "black=human"],
        "undo\nquit\n",
    )
    assert code == 0
    assert "White (engine) plays" in out
    assert "There is no move of a human to take back." in out


def test_engines_only_play_to_the_end(monkeypatch, capsys):
    # White to move mates at once (the engine finds it at depth 1).
    code, out, _ = play(
        monkeypatch,
        capsys,
        ["--variant", "standard", "--engines", "all", "--depth", "2", "--fen", "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1"],
        "",
    )
    assert code == 0
    assert "White (engine) plays a1a8" in out and "Game over: checkmate." in out


def test_four_player_pgn4_save(monkeypatch, capsys, tmp_path):
    record = tmp_path / "g.pgn4"
    code, out, _ = play(
        monkeypatch,
        capsys,
        ["--variant", "four-player", "--engines", "blue,yellow,green", "--nodes", "200"],
        f"h2h3\nsave {record}\nquit\n",
    )
    assert code == 0 and "Saved the game" in out
    game = read_pgn4(record.read_text())
    assert game.history[0] == "h2h3" and len(game.history) == 4


def test_engine_draw_rule():
    game = Game("standard")
    assert engine_accepts_draw(game, W) and engine_accepts_draw(game, B)  # level material
    for move in ("e2e4", "d7d5", "e4d5"):
        game.push(move)
    assert not engine_accepts_draw(game, W)  # a pawn up: plays on
    assert engine_accepts_draw(game, B)
    teams = Game("four-player")
    assert engine_accepts_draw(teams, Colour.BLUE)


# --------------------------------------------------------------------------- seats and errors


def test_seat_assignment():
    spec = EngineSpec(Budget(nodes=DEFAULT_NODES))
    seats = (W, R, B)
    default = assign_seats(seats, None, None, [], spec)
    assert [default[c].human for c in seats] == [True, False, False]
    humans = assign_seats(seats, "red,black", None, [], spec)
    assert [humans[c].human for c in seats] == [False, True, True]
    engines = assign_seats(seats, None, "black", ["white=engine:depth=3", "red=human"], spec)
    assert [engines[c].human for c in seats] == [False, True, False]
    assert engines[W].spec == EngineSpec(Budget(depth=3))
    assert engines[B].spec == spec
    with pytest.raises(UsageError, match="not both"):
        assign_seats(seats, "white", "red", [], spec)
    with pytest.raises(UsageError, match="no seat 'blue'"):
        assign_seats(seats, None, "blue", [], spec)
    with pytest.raises(UsageError, match="unknown player"):
        assign_seats(seats, None, None, ["red=robot"], spec)
    with pytest.raises(UsageError, match="bad engine setting"):
        assign_seats(seats, None, None, ["red=engine:speed=9"], spec)


@pytest.mark.parametrize(
    "args, message",
    [
        (["--variant", "hexagonal"], "invalid choice"),
        (["--mode", "ffa"], "--mode is an option of four-player chess"),
        (["--variant", "standard", "--neutrality"], "--neutrality is an option of three-player chess"),
        (["--fen", "not a position"], "bad position string"),
        (["--seat", "red=engine:nodes=0"], "must be at least 1"),
        (["--nodes", "-5"], "must be at least 1"),
        (["--hourglass"], "--hourglass needs --clock"),
        (["--clock", "fast"], "SECONDS+INCREMENT"),
        (["--variant", "standard", "--orientation", "red"], "no colour 'red' in standard"),
    ],
)
def test_bad_command_lines_exit_2_without_traceback(monkeypatch, capsys, args, message):
    code, _, err = play(monkeypatch, capsys, args, "")
    assert code == 2
    assert message in err and "Traceback" not in err


# --------------------------------------------------------------------------- the text board


def rows_of(text: str) -> dict[str, int]:
    """The line number of every cell name in a drawing."""
    found = {}
    for number, line in enumerate(text.splitlines()):
        for name in re.findall(r"\b[A-N](?:1[0-2]|[1-9])\b", line):
            found[name] = number
    return found


def test_hexagon_shows_every_cell_once_in_its_place():
    board = Board("three-player")
    text = render(board)
    rows = rows_of(text)
    assert sorted(rows) == sorted(board.layout.names)
    assert sum(len(re.findall(r"\b[A-N](?:1[0-2]|[1-9])\b", line)) for line in text.splitlines()) == 96
    # White at the bottom: rank 1 lowest, the centre's rosette in the middle, the N file on top
    assert rows["A1"] == max(rows.values())
    assert rows["N12"] == rows["N8"] == min(rows.values())
    assert rows["A1"] > rows["D4"] > rows["N9"]
    # pieces sit on the line above their cell's name
    lines = text.splitlines()
    assert "wK" in lines[rows["E1"] - 1] and "rK" in lines[rows["D12"] - 1] and "bK" in lines[rows["K8"] - 1]
    # from Red's side, Red's back rank is at the bottom
    red = rows_of(render(board, orientation="red"))
    assert red["N12"] == max(red.values()) and red["H8"] == min(red.values())


def test_compact_hexagon_names_the_empty_cells():
    board = Board("three-player")
    text = render(board, compact=True)
    assert len(rows_of(text)) == 48  # 96 cells, 48 of them with a piece
    assert len(re.findall(r"\b[wrb][PNBRQK]\b", text)) == 48
    assert len(text.splitlines()) < 20


def test_square_boards_and_colour():
    four = render(Board("four-player"))
    assert four.count(" . ") + len(re.findall(r"\b[rbyg][PNBRQK]\b", four)) == 160
    assert four.splitlines()[-1].split() == list("abcdefghijklmn")
    blue = render(Board("four-player"), orientation="blue").splitlines()
    assert blue[-2].split()[0] == "a" and "bK" in blue[-2]  # Blue's back file at the bottom
    board = Board("standard")
    board.push("e2e4")
    coloured = render(board, color=True, lastmove=board.peek())
    assert "\x1b[" in coloured and "\x1b[" not in render(board)
    assert re.sub(r"\x1b\[[0-9;]*m", "", coloured).split() == render(board).split()


@pytest.mark.parametrize("variant", ["three-player", "standard", "four-player"])
def test_str_of_a_board_is_its_plain_text_drawing(variant):
    board = Board(variant)
    board.push(next(iter(sorted(board.legal_moves, key=str))))  # a last move, which only colour would mark
    text = str(board)
    assert text == render(board) and "\x1b" not in text
    assert len(text.splitlines()) > 8 and board.fen() not in text
    assert repr(board).startswith(f"Board({variant!r}, fen={board.fen()!r}")  # repr keeps the position string


def test_str_of_a_board_draws_the_hexagon_as_the_command_line_does(capsys):
    board = Board("three-player")
    assert main(["show", "--no-color"]) == 0
    assert capsys.readouterr().out == str(board) + "\n"
    assert rows_of(str(board))["A1"] == max(rows_of(str(board)).values())  # White's side at the bottom


# --------------------------------------------------------------------------- as a program


def test_play_as_a_subprocess_with_piped_input():
    env = {"PYTHONPATH": str(Path(polychess.__file__).resolve().parent.parent), "PATH": "/usr/bin:/bin"}
    result = subprocess.run(
        [sys.executable, "-m", "polychess", "play", "--variant", "standard", "--humans", "all"],
        input="e2e4\ne7e5\nxyz\nquit\n",
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert "bad move text 'xyz'" in result.stdout
    assert "last move e7e5" in result.stdout and "Game left unfinished." in result.stdout
    assert "\x1b[" not in result.stdout  # no colour when the output is not a terminal
