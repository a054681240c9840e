"""Game review (polychess.review, its graph, and ``polychess review``)."""

from __future__ import annotations

import json
import shutil
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from polychess import Game, review
from polychess.cli import main
from polychess.formats import read_pgn, read_pgn4, write_record
from polychess.review import GLYPHS, THRESHOLDS, VERIFY_FACTOR, move_accuracy, review_game
from polychess.review_chart import MARK_COLOURS, review_svg

SVG = "{http://www.w3.org/2000/svg}"
TEAMS_RECORD = Path(__file__).parent.parent / "data" / "pgn4" / "cc_teams_26780486.pgn4"


def _fools_mate() -> Game:
    game = Game("standard")
    for move in ("f2f3", "e7e5", "g2g4", "d8h4"):
        game.push(move)
    return game


def test_the_move_that_allows_mate_is_a_blunder_and_the_mate_is_best():
    game = _fools_mate()
    review = review_game(game, nodes=3000)
    assert [str(m.move) for m in review.moves] == ["f2f3", "e7e5", "g2g4", "d8h4"]
    assert game.ply == 4 and game.is_over()  # the game reviewed is left as it was
    blunder, mate = review.moves[2], review.moves[3]
    assert blunder.mark == "blunder" and blunder.expected == 0.0 and blunder.best_move != blunder.move
    assert mate.mark is None and mate.best_move == mate.move and mate.expected == 1.0
    assert review.marks(blunder.player)["blunder"] == 1
    # two sides: the other side's standing is the rest
    assert blunder.standings[mate.player] == 1.0 - blunder.expected


LEGALS_MATE = "1. e4 e5 2. Nf3 d6 3. Bc4 Bg4 4. Nc3 g6 5. Nxe5 Bxd1 6. Bxf7+ Ke7 7. Nd5# 1-0"


def test_a_mark_is_checked_by_a_longer_search():
    # At 300 nodes 5.Nxe5!, which gives the queen for a mate, looks like a blunder; the search
    # that checks the mark, 50 times as long, sees the mate and clears it.
    game = read_pgn(LEGALS_MATE)
    marks = {verify: {m.ply: m.mark for m in review_game(game, nodes=300, verify=verify).moves} for verify in (1, 50)}
    assert marks[1][9] == "blunder" and marks[50][9] is None
    # deep enough to see the mate, 5...Bxd1?? stays a blunder once checked
    checked = review_game(game, nodes=1000)
    assert checked.moves[9].mark == "blunder" and checked.moves[8].mark is None
    assert f"{VERIFY_FACTOR}x" in checked.budget
    with pytest.raises(ValueError, match="verify"):
        review_game(game, nodes=300, verify=0)


def test_a_time_budgets_check_is_bounded(monkeypatch):
    # A review at a time budget checks a mark at most VERIFY_SECONDS a search (200 x 1 s would
    # be 200 s a mark)
    times = []
    search = review.Engine.search

    def timed(self, game, **limits):
        times.append(limits.get("time"))
        return search(self, game, **{**limits, "time": None, "nodes": 300})

    monkeypatch.setattr(review.Engine, "search", timed)
    review_game(read_pgn(LEGALS_MATE), time=1.0)
    assert set(times) <= {1.0, review.VERIFY_SECONDS} and review.VERIFY_SECONDS in times


def test_every_mark_follows_from_the_share_given_away():
    review = review_game(read_pgn4(TEAMS_RECORD.read_text()), nodes=400)
    assert len(review.moves) == read_pgn4(TEAMS_RECORD.read_text()).ply
    for m in review.moves:
        expected_mark = next((mark for mark, least in THRESHOLDS.items() if m.given_away >= least), None)
        assert m.mark == expected_mark
        assert (m.move == m.best_move) <= (m.given_away == 0)
        (red, yellow), (blue, green) = ([m.standings[c] for c in side] for side in review.game.kind.sides)
        assert red == yellow and blue == green and red + blue == pytest.approx(1.0)


def test_events_are_replayed_between_the_moves():
    game = Game("three-player")
    played = []
    for ply in range(5):
        if ply == 3:
            game.resign("red")  # then White and Black play on
        played.append(game.push(list(game.legal_moves)[0]))
    review = review_game(game, depth=1)
    assert [m.move for m in review.moves] == played
    assert [m.player.value for m in review.moves] == ["white", "red", "black", "white", "black"]
    assert all(len(m.standings) == 3 for m in review.moves)


def test_the_graph_has_a_curve_a_side_with_a_point_a_ply():
    review = review_game(_fools_mate(), nodes=2000)
    root = ET.fromstring(review_svg(review))
    curves = root.findall(f"{SVG}polyline")
    assert len(curves) == 2  # White, Black
    assert all(len(curve.get("points", "").split()) == len(review.moves) + 1 for curve in curves)
    assert len(root.findall(f"{SVG}circle[@class='blunder']")) == 1
    # each mark circled in a hue of its own, its glyph above, and a legend naming both
    texts = [t.text for t in root.iter(f"{SVG}text")]
    assert "??" in texts and all(f"{GLYPHS[mark]} {mark}" in texts for mark in GLYPHS)
    assert root.find(f"{SVG}circle[@class='blunder']").get("stroke") == MARK_COLOURS["blunder"]


def test_accuracy_is_lichesss_from_the_chances_given_away():
    # lila's AccuracyPercent.fromWinPercents, its one point of bonus included, within 0 and 100
    assert move_accuracy(0.0) == 100.0 and move_accuracy(-0.1) == 100.0
    for share in (0.02, 0.10, 0.15, 0.40):
        assert move_accuracy(share) == pytest.approx(
            103.1668100711649 * 2.718281828459045 ** (-4.354415386753951 * share) - 2.166924740191411
        )
    assert move_accuracy(1.0) == 0.0
    review = review_game(_fools_mate(), nodes=2000)
    white, black = review.game.kind.colours
    # White's blunder costs far more than a few good moves make up: the harmonic mean sees to it
    assert review.accuracy(white) < 50 < review.accuracy(black) <= 100
    summary = review.summary()
    assert summary["white"]["marks"]["blunder"] == 1 and summary["white"]["accuracy"] == round(
        review.accuracy(white), 1
    )
    assert set(summary) == {"white", "black"}
    # a player without a move has no accuracy
    opening = Game("standard")
    opening.push("e2e4")
    assert review_game(opening, nodes=500).accuracy(black) is None


def test_review_command_writes_text_graph_and_json(capsys, tmp_path):
    record = tmp_path / "game.txt"
    record.write_text(write_record(_fools_mate(), {}))
    graph, data = tmp_path / "graph.svg", tmp_path / "moves.json"
    assert main(["review", str(record), "--nodes", "2000", "--graph", str(graph), "--json", str(data)]) == 0
    out = capsys.readouterr().out
    assert "g2g4" in out and "?? blunder" in out and "white: 1 blunder, 0 mistakes, " in out and "; accuracy " in out
    assert ET.fromstring(graph.read_text()).tag == f"{SVG}svg"
    written = json.loads(data.read_text())
    assert written["players"]["white"]["marks"]["blunder"] == 1 and 0 <= written["players"]["white"]["accuracy"] < 50
    moves = written["moves"]
    assert [m["mark"] for m in moves][2:] == ["blunder", None]  # the first two are judged by a hair


def test_review_command_refuses_what_it_cannot_do(capsys, tmp_path):
    assert main(["review", str(tmp_path / "missing.txt")]) == 2
    record = tmp_path / "game.txt"
    record.write_text(write_record(_fools_mate(), {}))
    assert main(["review", str(record), "--graph", str(tmp_path / "graph.gif")]) == 2
    assert main(["review", str(record), "--time", "0"]) == 2
    err = capsys.readouterr().err
    assert "missing.txt" in err and ".svg or .png" in err and "--time" in err


@pytest.mark.parametrize("name", ["game.txt", "game.pgn4", "game.pgn"])
def test_an_empty_record_is_refused_in_every_format(capsys, tmp_path, name):
    # An empty .txt or .pgn4 was reviewed as a game of no moves (exit 0) where an empty .pgn was refused.
    record = tmp_path / name
    for text in ("", "  \n\n"):
        record.write_text(text)
        assert main(["review", str(record)]) == 2
        assert "the file is empty" in capsys.readouterr().err


def test_a_record_that_is_not_a_regular_file_is_refused_unread(capsys, tmp_path):
    import os

    fifo = tmp_path / "game.txt"
    os.mkfifo(fifo)  # reading it would block until a writer came
    assert main(["review", str(fifo)]) == 2
    assert "not a regular file" in capsys.readouterr().err


@pytest.mark.skipif(shutil.which("rsvg-convert") is None, reason="rsvg-convert is not installed")
def test_review_graph_as_png(tmp_path):
    record = tmp_path / "game.txt"
    record.write_text(write_record(_fools_mate(), {}))
    png = tmp_path / "graph.png"
    assert main(["review", str(record), "--depth", "2", "--graph", str(png)]) == 0
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_module_docstring_examples():
    import doctest

    from polychess import engine, outlook, review

    for module in (engine, outlook, review):
        failures, tried = doctest.testmod(module, verbose=False)
        assert tried > 0 and failures == 0, module.__name__
