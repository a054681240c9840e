"""The match runner of bench/match.py and its players (bench/baselines.py): seat assignments,
scoring, a tiny match end to end, the greedy baseline's choice, the engine player's legality."""

from __future__ import annotations

import random
import re
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))

import match
from baselines import (
    EnginePlayer,
    GreedyPlayer,
    Player,
    PlayerSpec,
    RandomPlayer,
    capture_value,
    parse_player,
)
from polychess import Board, Colour, Game, Move
from positions import position

W, R, B = Colour.WHITE, Colour.RED, Colour.BLACK


# --------------------------------------------------------------------------- seat assignments

@pytest.mark.parametrize("variant, mode, expected", [
    ("standard", None, ["AB", "BA"]),
    ("three-player", None, ["AAB", "ABA", "BAA", "BBA", "BAB", "ABB"]),
    ("four-player", "teams", ["ABAB", "BABA"]),
    ("four-player", "ffa", ["AABB", "ABAB", "ABBA", "BAAB", "BABA", "BBAA"]),
])
def test_seat_assignments(variant, mode, expected):
    assignments = match.seat_assignments(variant, mode)
    assert assignments == expected
    seats = (Game(variant, mode=mode) if mode else Game(variant)).seats
    assert all(len(a) == len(seats) for a in assignments)
    # every configuration plays every seat equally often
    for i in range(len(seats)):
        column = [a[i] for a in assignments]
        assert column.count("A") == column.count("B")


def test_four_player_teams_assignment_puts_a_on_partners():
    seats = Game("four-player", mode="teams").seats
    assert seats == (Colour.RED, Colour.BLUE, Colour.YELLOW, Colour.GREEN)
    first, second = match.seat_assignments("four-player", "teams")
    assert {s for s, c in zip(seats, first, strict=True) if c == "A"} == {Colour.RED, Colour.YELLOW}
    assert {s for s, c in zip(seats, second, strict=True) if c == "A"} == {Colour.BLUE, Colour.GREEN}


def test_free_for_all_one_against_three():
    assert match.seat_assignments("four-player", "ffa", "1+3") == ["ABBB", "BABB", "BBAB", "BBBA"]
    with pytest.raises(ValueError, match="split"):
        match.seat_assignments("four-player", "ffa", "4+0")


def test_no_assignments_for_unknown_variant():
    with pytest.raises(ValueError):
        match.seat_assignments("four-player", "chaos")


# --------------------------------------------------------------------------- scoring

def test_head_to_head_standard():
    owners = {W: "A", Colour.BLACK: "B"}
    assert match.head_to_head({W: 1, Colour.BLACK: 2}, owners) == {"A": 1.0, "B": 0.0}
    assert match.head_to_head({W: 2, Colour.BLACK: 1}, owners) == {"A": 0.0, "B": 1.0}
    assert match.head_to_head({W: 1, Colour.BLACK: 1}, owners) == {"A": 0.5, "B": 0.5}


def test_head_to_head_three_player():
    owners = {W: "A", R: "A", B: "B"}  # AAB
    # B last: both A seats ahead of it
    assert match.head_to_head({W: 1, R: 2, B: 3}, owners) == {"A": 1.0, "B": 0.0}
    # B second: one A seat ahead, one behind
    assert match.head_to_head({W: 1, R: 3, B: 2}, owners) == {"A": 0.5, "B": 0.5}
    # B first
    assert match.head_to_head({W: 3, R: 2, B: 1}, owners) == {"A": 0.0, "B": 1.0}
    # a draw after an A seat was mated: (1/2 + 0) / 2
    assert match.head_to_head({W: 1, R: 3, B: 1}, owners) == {"A": 0.25, "B": 0.75}
    # ABB: A's single seat against both B seats
    owners = {W: "A", R: "B", B: "B"}
    assert match.head_to_head({W: 2, R: 1, B: 3}, owners) == {"A": 0.5, "B": 0.5}
    assert match.head_to_head({W: 1, R: 1, B: 1}, owners) == {"A": 0.5, "B": 0.5}


def test_head_to_head_four_player():
    Rd, Bl, Ye, Gr = Colour.RED, Colour.BLUE, Colour.YELLOW, Colour.GREEN
    teams = {Rd: "A", Bl: "B", Ye: "A", Gr: "B"}
    assert match.head_to_head({Rd: 1, Bl: 3, Ye: 1, Gr: 3}, teams) == {"A": 1.0, "B": 0.0}
    assert match.head_to_head({Rd: 3, Bl: 1, Ye: 3, Gr: 1}, teams) == {"A": 0.0, "B": 1.0}
    ffa = {Rd: "A", Bl: "A", Ye: "B", Gr: "B"}
    # places 1 2 3 4: A beats B in all 4 pairs
    assert match.head_to_head({Rd: 1, Bl: 2, Ye: 3, Gr: 4}, ffa) == {"A": 1.0, "B": 0.0}
    # places 1 3 2 4: A wins 3 of 4 pairs
    assert match.head_to_head({Rd: 1, Bl: 3, Ye: 2, Gr: 4}, ffa) == {"A": 0.75, "B": 0.25}


def test_scores_add_up_to_one():
    rng = random.Random(5)
    for _ in range(200):
        n = rng.choice([2, 3, 4])
        seats = list(Colour)[:n]
        owners = {s: rng.choice("AB") for s in seats}
        if len(set(owners.values())) < 2:
            continue
        places = {s: rng.randint(1, n) for s in seats}
        scores = match.head_to_head(places, owners)
        assert scores["A"] + scores["B"] == pytest.approx(1.0)
        assert 0.0 <= scores["A"] <= 1.0


def test_place_scores():
    owners = {W: "A", R: "A", B: "B"}
    # (n - place) / (n - 1): first 1, second 1/2, last 0
    assert match.place_scores({W: 1, R: 2, B: 3}, owners) == {"A": 0.75, "B": 0.0}
    assert match.place_scores({W: 1, R: 1, B: 1}, owners) == {"A": 1.0, "B": 1.0}
    assert match.place_scores({W: 1, Colour.BLACK: 2}, {W: "A", Colour.BLACK: "B"}) == {"A": 1.0, "B": 0.0}


def test_capped_places_is_a_draw_among_the_players_still_in():
    game = Game("three-player")
    assert match.capped_places(game) == {W: 1, R: 1, B: 1}
    game.resign("black")
    assert match.capped_places(game) == {W: 1, R: 1, B: 3}
    game = Game("four-player", mode="ffa")
    game.resign("blue")
    game.resign("green")
    places = match.capped_places(game)
    assert places == {Colour.RED: 1, Colour.YELLOW: 1, Colour.GREEN: 3, Colour.BLUE: 4}


@pytest.mark.parametrize("mode", ["ffa", "teams"])
def test_four_player_cap_is_the_games_move_limit(mode):
    # docs/rules.md §2.4: at the move limit free-for-all ranks by points and teams draw; the match's
    # ply cap is that limit.
    spec = parse_player("greedy")
    for opening in range(4):
        result = match.play_game("four-player", mode, {"A": spec, "B": spec}, opening, [], "AABB", 40, 1)
        assert result.termination == "move limit" and result.plies == 40
        game = Game("four-player", mode=mode)
        for text in result.record:
            game.push(text)
        if mode == "teams":
            assert set(result.places.values()) == {1}
        else:
            points = {seat: game.points[seat] for seat in game.seats}
            for a in game.seats:
                for b in game.seats:
                    assert (points[a] > points[b]) == (result.places[a] < result.places[b])

def test_parse_player():
    assert parse_player("random").kind == "random"
    assert parse_player("greedy").kind == "greedy"
    spec = parse_player("engine:nodes=2000")
    assert spec.kind == "engine" and spec.options == {"nodes": 2000}
    assert parse_player("engine:depth=2,hash=8").options == {"depth": 2, "hash": 8}
    for bad in ("engine", "engine:", "engine:nodes=0", "engine:speed=3", "engine:nodes=x", "random:nodes=2", "alpha"):
        with pytest.raises(ValueError):
            parse_player(bad)


def test_greedy_takes_the_queen():
    # The knight on d4 can take a pawn (b5), a rook (c6) or the queen (e6).
    fen = "7k/8/2r1q3/1p6/3N4/8/8/K7 w - - 0 1"
    game = Game("standard", start=fen)
    board = game.board
    values = {str(m): capture_value(board, m) for m in game.legal_moves}
    assert values["d4e6"] == 9 and values["d4c6"] == 5 and values["d4b5"] == 1 and values["d4f5"] is None
    for seed in range(20):
        assert str(GreedyPlayer(random.Random(seed))(game)) == "d4e6"


def test_greedy_breaks_ties_at_random():
    # Two rooks to take, nothing better: both get chosen over the seeds; never a quiet move.
    fen = "4k3/8/8/2r1r3/8/3N4/8/K7 w - - 0 1"
    game = Game("standard", start=fen)
    chosen = {str(GreedyPlayer(random.Random(seed))(game)) for seed in range(40)}
    assert chosen == {"d3c5", "d3e5"}


def test_greedy_takes_en_passant_and_otherwise_moves_at_random():
    game = Game("standard", start="4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1")
    assert str(GreedyPlayer(random.Random(1))(game)) == "e5d6"
    quiet = Game("standard", start="4k3/8/8/8/8/8/4P3/4K3 w - - 0 1")
    chosen = {str(GreedyPlayer(random.Random(seed))(quiet)) for seed in range(40)}
    assert len(chosen) > 1 and chosen <= {str(m) for m in quiet.legal_moves}


def test_greedy_captures_a_king_first_in_three_player_chess():
    # Red's knight leaves E3: Black's rook on E6 then sees White's king on E1 (rules §1.6)
    # and can also take White's queen on H6.
    pieces = {"E1": "wK", "H1": "wR", "E3": "rN", "D12": "rK", "E6": "bR", "K8": "bK", "H6": "wQ"}
    game = Game("three-player", start=position(pieces, turn="r"))
    game.push("E3C4")
    assert game.turn is B
    board = game.board
    values = {str(m): capture_value(board, m) for m in game.legal_moves if capture_value(board, m)}
    assert values == {"E6H6": 9, "E6E1": 1000}
    assert str(GreedyPlayer(random.Random(0))(game)) == "E6E1"


def test_greedy_does_not_count_own_pieces():
    # Castling is not a capture even where it is written as the king's move onto its rook.
    game = Game("standard", start="4k3/8/8/8/8/8/8/4K2R w K - 0 1")
    board = game.board
    assert all(capture_value(board, m) is None for m in game.legal_moves)


@pytest.mark.parametrize("variant, mode", [("three-player", None), ("standard", None), ("four-player", "teams"),
                                           ("four-player", "ffa")])
def test_players_return_legal_moves(variant, mode):
    rng = random.Random(3)
    game = Game(variant, mode=mode) if mode else Game(variant)
    players = [EnginePlayer(nodes=300), GreedyPlayer(rng), RandomPlayer(rng), parse_player("engine:depth=1").make(rng)]
    for ply in range(24):
        if game.is_over():
            break
        move = players[ply % len(players)](game)
        assert move in game.legal_moves
        game.push(move)
    engine = players[0]
    assert isinstance(engine, EnginePlayer) and engine.searches > 0 and engine.nodes_searched > 0


# --------------------------------------------------------------------------- a match end to end

ROW = re.compile(r"^(?P<config>[AB])  (?P<spec>\S+)\s+(?P<games>\d+)\s+(?P<score>[\d.]+)\s+"
                 r"\[(?P<low>[\d.]+), (?P<high>[\d.]+)\]\s+(?P<place>[\d.]+)\s+(?P<w>\d+)/(?P<d>\d+)/(?P<l>\d+)\s+"
                 r"(?P<moves>\d+)\s+(?P<seconds>[\d.]+)")


def run_main(capsys, *args: str) -> tuple[int, str, dict[str, dict[str, str]]]:
    code = match.main(list(args))
    out = capsys.readouterr().out
    rows = {m["config"]: m.groupdict() for m in map(ROW.match, out.splitlines()) if m}
    return code, out, rows


@pytest.mark.parametrize("variant, games, assignments", [("standard", "2", 2), ("three-player", "3", 6)])
def test_tiny_match(capsys, variant, games, assignments):
    args = ["--variant", variant, "--games", games, "--a", "random", "--b", "greedy", "--max-plies", "30",
            "--seed", "7"]
    code, out, rows = run_main(capsys, *args)
    assert code == 0
    assert set(rows) == {"A", "B"}
    assert rows["A"]["spec"] == "random" and rows["B"]["spec"] == "greedy"
    for row in rows.values():
        assert int(row["games"]) == assignments  # rounded up to a multiple of the assignments
        assert 0.0 <= float(row["low"]) <= float(row["score"]) <= float(row["high"]) <= 1.0
        assert int(row["w"]) + int(row["d"]) + int(row["l"]) == assignments
        assert int(row["moves"]) > 0
    assert float(rows["A"]["score"]) + float(rows["B"]["score"]) == pytest.approx(1.0, abs=0.002)
    assert rows["A"]["w"] == rows["B"]["l"] and rows["A"]["d"] == rows["B"]["d"]
    capped = re.search(r"^ply cap: (\d+) of (\d+) games reached 30 plies and count as a draw", out, re.MULTILINE)
    assert capped and int(capped[2]) == assignments
    assert "illegal moves or player errors: 0" in out
    if int(games) != assignments:
        assert f"{games} games requested, rounded up to {assignments}" in out
    # the same seed plays the same games (only the timings differ)
    _, again, rows_again = run_main(capsys, *args)
    assert {c: dict(r, seconds="") for c, r in rows_again.items()} == {c: dict(r, seconds="") for c, r in rows.items()}
    def others(text: str) -> list[str]:
        return [line for line in text.splitlines() if not line.startswith(("A  ", "B  ", "wall time"))]

    assert others(again) == others(out)


def test_tiny_engine_match():
    result = match.run_match("three-player", None, parse_player("engine:nodes=300"), parse_player("random"), 6,
                             max_plies=24, seed=2)
    assert len(result.games) == 6
    assert [g.assignment for g in result.games] == match.seat_assignments("three-player")
    assert len({tuple(o) for o in result.openings}) == 1 and len(result.openings[0]) == 6
    for g in result.games:
        assert not g.illegal
        assert g.record[:6] == result.openings[0]
        assert g.nodes["A"] > 0 and g.nodes["B"] == 0
        assert g.scores["A"] + g.scores["B"] == pytest.approx(1.0)
    report = match.format_report(result)
    assert "A  engine:nodes=300" in report and "B  random" in report


class _BadSpec(PlayerSpec):
    """A player that plays legal moves for a few plies, then a move of another game."""

    def make(self, rng: random.Random) -> Player:
        def bad_player(game: Game) -> Move:
            return Board("three-player").parse_move("E2E4") if game.ply > 6 else next(iter(game.legal_moves))
        return bad_player


def test_illegal_moves_forfeit():
    specs = {"A": parse_player("random"), "B": _BadSpec("bad", "random")}
    opening = match.make_openings("standard", None, 1, 2, 1)[0]
    result = match.play_game("standard", None, specs, 0, opening, "AB", 50, 1)
    assert len(result.illegal) == 1 and result.illegal[0].startswith("B black ply 7: illegal move")
    assert result.termination == "resignation"
    assert result.scores == {"A": 1.0, "B": 0.0}
