"""``polychess selfplay``, ``bench`` and ``show``, run through main() with captured output."""

from __future__ import annotations

import importlib
import io
import re
import shutil
import sys
import xml.etree.ElementTree as ET

import pytest

from polychess import Board, Game, png
from polychess.cli import main
from polychess.formats import read_record, write_record

SVG = "{http://www.w3.org/2000/svg}"


class _Terminal(io.StringIO):
    """A captured stream that says it is a terminal, for the output meant for terminals only."""

    def isatty(self) -> bool:
        return True


# --------------------------------------------------------------------------- selfplay


def test_selfplay_writes_records_that_read_back(capsys, tmp_path):
    out_dir = tmp_path / "games"
    code = main(["selfplay", "--games", "2", "--nodes", "200", "--max-plies", "40", "--out", str(out_dir)])
    captured = capsys.readouterr()
    assert code == 0
    files = sorted(out_dir.iterdir())
    assert [f.name for f in files] == ["game-001.txt", "game-002.txt"]
    reported = re.findall(r"^game (\d): (\S+) \((.*), (\d+) plies\)", captured.out, re.MULTILINE)
    assert [r[0] for r in reported] == ["1", "2"]
    histories = []
    for path, (_, result, _, plies) in zip(files, reported, strict=True):
        game = read_record(path.read_text())
        assert game.ply == int(plies) <= 40
        assert ("-".join(str(p) for p in game.outcome().places.values()) if game.is_over() else "*") == result
        histories.append(game.history)
    assert histories[0][:2] != histories[1][:2]  # the random openings differ
    # the summary: one row per seat, and the count of games
    for seat in ("white", "red", "black"):
        assert re.search(rf"^{seat}\s+\d+\s+\d+\s+\d+", captured.out, re.MULTILINE)
    finished = sum(1 for r in reported if r[1] != "*")
    assert f"finished {finished}, unfinished {2 - finished}" in captured.out
    # progress on stderr, one bar per game when stderr is not a terminal
    assert captured.err.count("games") == 2 and "[" in captured.err and "2/2 games" in captured.err


def test_selfplay_to_the_end_counts_places(capsys):
    # Standard chess from a position White mates in one: every game ends at once.
    code = main(
        [
            "selfplay",
            "--variant",
            "standard",
            "--games",
            "2",
            "--depth",
            "2",
            "--opening-plies",
            "0",
            "--fen",
            "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1",
        ]
    )
    out = capsys.readouterr().out
    assert code == 0
    assert out.count("(checkmate, 1 ply)") == 2 and "plies" not in out  # one ply, in the singular
    assert re.search(r"^white\s+2\s+0\s+1\.00\s+\+1\.00", out, re.MULTILINE)
    assert re.search(r"^black\s+0\s+2\s+2\.00\s+-1\.00", out, re.MULTILINE)


def test_selfplay_counts_one_game_in_the_singular(capsys):
    code = main(
        [
            "selfplay",
            "--variant",
            "standard",
            "--games",
            "1",
            "--depth",
            "1",
            "--opening-plies",
            "0",
            "--fen",
            "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1",
        ]
    )
    captured = capsys.readouterr()
    assert code == 0
    assert captured.out.startswith("1 game of standard") and "1/1 game, 0s spent\n" in captured.err
    assert "1 games" not in captured.out + captured.err


def test_selfplay_progress_bar_is_redrawn_in_place_on_a_terminal(capsys, monkeypatch):
    terminal = _Terminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    code = main(
        [
            "selfplay",
            "--variant",
            "standard",
            "--games",
            "2",
            "--depth",
            "1",
            "--opening-plies",
            "0",
            "--fen",
            "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1",
        ]
    )
    assert code == 0
    drawn = terminal.getvalue()
    assert "\r[" in drawn and "2/2 games" in drawn and "\n" not in drawn  # redrawn, never a new line
    assert drawn.endswith("\r")  # and wiped at the end


def test_selfplay_rejects_bad_options(capsys):
    assert main(["selfplay", "--games", "0"]) == 2
    assert main(["selfplay", "--variant", "standard", "--mode", "ffa"]) == 2
    err = capsys.readouterr().err
    assert "must be at least 1" in err and "--mode is an option of four-player chess" in err


# --------------------------------------------------------------------------- bench


def test_bench_prints_a_table(capsys):
    arguments = ["--variant", "standard", "--variant", "three-player", "--time", "0.1", "--hash", "1"]
    code = main(["bench", *arguments, "--tree-time", "0.01", "--tree-depth", "2"])
    captured = capsys.readouterr()
    assert code == 0
    speed, tree = captured.out.strip().split("\n\n")
    tree_header, *tree_rows = tree.splitlines()
    assert tree_header.split()[:2] == ["game", "positions"]
    assert [row.split()[0] for row in tree_rows] == ["three-player", "standard"]  # the catalogue's order
    for row in tree_rows:
        _, positions, depth_in_time, depth, nodes, rate = row.split()
        assert int(positions) >= 4 and float(depth_in_time) >= 1 and depth == "2" and int(nodes.replace(",", "")) > 0
        assert 0 <= float(rate.rstrip("%")) <= 100
    header, *rows = speed.splitlines()
    assert header.split()[:3] == ["variant", "perft", "depth"]
    assert [row.split()[0] for row in rows] == ["standard", "three-player"]
    for row in rows:
        depth, nodes, rate, _, search_nodes, _ = row.split()[1:]
        assert int(depth) >= 1 and int(nodes.replace(",", "")) >= 20 and int(rate.replace(",", "")) > 0
        assert int(search_nodes.replace(",", "")) > 0
    assert "perft depth 1: 20 nodes" in captured.err and "search: depth" in captured.err


# --------------------------------------------------------------------------- show


def test_show_writes_svg_of_a_position(capsys, tmp_path):
    path = tmp_path / "start.svg"
    assert main(["show", "--variant", "three-player", "-o", str(path)]) == 0
    root = ET.fromstring(path.read_text())
    assert root.tag == f"{SVG}svg"
    cells = [e for e in root.iter(f"{SVG}polygon") if "cell" in e.get("class", "").split()]
    assert len(cells) == 96
    assert {e.get("data-cell") for e in cells} == set(Board("three-player").layout.names)


def test_show_a_record_at_a_ply(capsys, tmp_path):
    game = Game("standard")
    for move in ("e2e4", "e7e5", "g1f3"):
        game.push(move)
    record = tmp_path / "g.txt"
    record.write_text(write_record(game))
    svg = tmp_path / "g.svg"
    assert main(["show", "--record", str(record), "--ply", "2", "-o", str(svg)]) == 0
    root = ET.fromstring(svg.read_text())
    pieces = {e.get("data-cell") for e in root.iter(f"{SVG}g") if "piece" in e.get("class", "").split()}
    assert "e5" in pieces and "f3" not in pieces and "g1" in pieces  # after e2e4 e7e5 only
    lastmove = {e.get("data-cell") for e in root.iter() if "lastmove" in e.get("class", "").split()}
    assert lastmove == {"e7", "e5"}
    # as text, without -o
    assert main(["show", "--record", str(record), "--no-color"]) == 0
    rank_2 = next(line for line in capsys.readouterr().out.splitlines() if line.startswith(" 2 "))
    assert rank_2.split() == ["2", "wP", "wP", "wP", "wP", ".", "wP", "wP", "wP", "2"]
    assert main(["show", "--record", str(record), "--ply", "4"]) == 2
    assert "the game has 3 moves" in capsys.readouterr().err
    game.pop()
    game.pop()
    record.write_text(write_record(game))
    assert main(["show", "--record", str(record), "--ply", "2"]) == 2
    assert "the game has 1 move (0 to 1)" in capsys.readouterr().err


def _converter() -> str | None:
    if shutil.which("rsvg-convert"):
        return "rsvg-convert"
    try:
        importlib.import_module("cairosvg")
    except (ImportError, OSError):
        return None
    return "cairosvg"


@pytest.mark.skipif(_converter() is None, reason="no SVG to PNG converter (rsvg-convert or cairosvg) installed")
def test_show_writes_png(capsys, tmp_path):
    path = tmp_path / "start.png"
    assert main(["show", "--variant", "four-player", "--size", "200", "-o", str(path)]) == 0
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_png_without_a_converter_says_how_to_get_one(capsys, tmp_path, monkeypatch):
    monkeypatch.setattr(png.shutil, "which", lambda name: None)

    def no_module(name: str) -> object:
        raise ImportError(name)

    monkeypatch.setattr(png.importlib, "import_module", no_module)
    path = tmp_path / "start.png"
    assert main(["show", "-o", str(path)]) == 1
    err = capsys.readouterr().err
    assert "rsvg-convert" in err and "pip install cairosvg" in err and "Traceback" not in err
    assert not path.exists()


@pytest.mark.parametrize(
    "args, message",
    [
        (["show", "--variant", "standard", "--fen", "nonsense"], "bad position string"),
        (["show", "--variant", "chess960"], "invalid choice"),
        (["show", "-o", "board.gif"], "must end in .svg or .png"),
        (["show", "--ply", "3"], "--ply needs --record"),
        (["show", "--record", "/nonexistent/game.txt"], "No such file"),
        (["perft", "--depth", "-1"], "must be >= 0"),
        (["bench", "--time", "0"], "must be positive"),
        (["frobnicate"], "invalid choice"),
    ],
)
def test_bad_input_is_a_message_and_status_2(capsys, args, message):
    assert main(args) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err


def test_bad_record_is_reported(capsys, tmp_path):
    path = tmp_path / "bad.txt"
    path.write_text('[Variant "three-player"]\n\n1. E2E5 *\n')
    assert main(["show", "--record", str(path)]) == 2
    assert "line 3" in capsys.readouterr().err


def test_selfplay_scores_a_teams_win_as_a_win_for_both_partners():
    # The teams summary scored the winners +1.00 and the losers -0.33.
    from polychess.cli.selfplay import Summary
    from polychess.game import Outcome, Termination

    board = Board("four-player")
    red, blue, yellow, green = board.colours
    summary = Summary(board.colours, board.kind.sides)
    summary.add(Outcome(Termination.CHECKMATE, {red: 1, blue: 3, yellow: 1, green: 3}, ()))
    assert summary.scores == {red: 1.0, blue: -1.0, yellow: 1.0, green: -1.0}
    three = Board("three-player")
    white, red3, black = three.colours
    summary = Summary(three.colours, three.kind.sides)
    summary.add(Outcome(Termination.CHECKMATE, {white: 1, red3: 2, black: 3}, ()))
    assert summary.scores == {white: 1.0, red3: 0.0, black: -1.0}


def test_progress_says_the_time_spent_and_left_also_in_a_log(monkeypatch):
    # Long commands printed their progress only on a terminal, and with no time at all.
    import io

    from polychess.cli import status_line

    clock = [100.0]
    monkeypatch.setattr(status_line.time, "monotonic", lambda: clock[0])
    log = io.StringIO()  # no terminal: a line every LOG_EVERY seconds, none sooner
    line = status_line.StatusLine(log)
    line.progress(1, 10, "games")
    assert log.getvalue() == ""
    clock[0] += 65
    line.progress(5, 10, "games", "300 positions")
    assert log.getvalue() == "5/10 games, 300 positions, 1m05s spent, about 1m05s left\n"
    clock[0] += 1
    line.progress(6, 10, "games")
    assert log.getvalue().count("\n") == 1
    assert status_line.duration(7500) == "2h05m"


def test_every_command_names_its_options_alike(capsys):
    # --games was N in one command and GAMES in others, --time TIME in one and SECONDS in others.
    from polychess.cli import METAVARS, build_parser

    def commands(parser, path=()):
        for action in parser._actions:
            if action.__class__.__name__ == "_SubParsersAction":
                for name, sub in action.choices.items():
                    yield from commands(sub, (*path, name))
        yield path, parser

    seen = 0
    for path, parser in commands(build_parser()):
        help_text = parser.format_help()
        for flag, metavar in METAVARS.items():
            for action in parser._actions:
                if flag in action.option_strings and action.nargs != 0:
                    assert f"{flag} {metavar}" in help_text, (path, flag)
                    seen += 1
    assert seen > 20
