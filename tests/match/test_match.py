"""The match runner (polychess.match) and its players: seat assignments, scoring, players,
openings, whole matches on every backend, SPRT, resumption, records, and `polychess match`."""

from __future__ import annotations

import functools
import json
import os
import random
import re
import signal
import statistics
import subprocess
import sys
import time
from pathlib import Path

import pytest

from polychess import Board, Colour, Game, Move
from polychess.cli import main as cli_main
from polychess.formats import read_pgn, read_pgn4, read_record
from polychess.match import backends, scoring
from polychess.match.openings import random_openings, read_openings, shipped_openings
from polychess.match.players import (
    EnginePlayer,
    GreedyPlayer,
    Player,
    PlayerSpec,
    RandomPlayer,
    UciPlayer,
    capture_value,
    parse_player,
)
from polychess.match.report import format_report
from polychess.match.runner import GameResult, MatchConfig, Task, play_game, run_match
from polychess.match.stats import Sprt
from polychess.protocol.games import GAME_KINDS
from positions import position

W, R, B = Colour.WHITE, Colour.RED, Colour.BLACK


# --------------------------------------------------------------------------- seat assignments


@pytest.mark.parametrize(
    "variant, mode, expected",
    [
        ("standard", None, ["AB", "BA"]),
        ("three-player", None, ["AAB", "ABA", "BAA", "BBA", "BAB", "ABB"]),
        ("four-player", "teams", ["ABAB", "BABA"]),
        ("four-player", "ffa", ["AABB", "ABAB", "ABBA", "BAAB", "BABA", "BBAA"]),
    ],
)
def test_seat_assignments(variant, mode, expected):
    assignments = scoring.seat_assignments(variant, mode)
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
    first, second = scoring.seat_assignments("four-player", "teams")
    assert {s for s, c in zip(seats, first, strict=True) if c == "A"} == {Colour.RED, Colour.YELLOW}
    assert {s for s, c in zip(seats, second, strict=True) if c == "A"} == {Colour.BLUE, Colour.GREEN}


def test_free_for_all_one_against_three():
    assert scoring.seat_assignments("four-player", "ffa", "1+3") == ["ABBB", "BABB", "BBAB", "BBBA"]
    with pytest.raises(ValueError, match="split"):
        scoring.seat_assignments("four-player", "ffa", "4+0")


def test_no_assignments_for_unknown_variant():
    with pytest.raises(ValueError):
        scoring.seat_assignments("four-player", "chaos")


# --------------------------------------------------------------------------- scoring


def test_head_to_head_standard():
    owners = {W: "A", Colour.BLACK: "B"}
    assert scoring.head_to_head({W: 1, Colour.BLACK: 2}, owners) == {"A": 1.0, "B": 0.0}
    assert scoring.head_to_head({W: 2, Colour.BLACK: 1}, owners) == {"A": 0.0, "B": 1.0}
    assert scoring.head_to_head({W: 1, Colour.BLACK: 1}, owners) == {"A": 0.5, "B": 0.5}


def test_head_to_head_three_player():
    owners = {W: "A", R: "A", B: "B"}  # AAB
    # B last: both A seats ahead of it
    assert scoring.head_to_head({W: 1, R: 2, B: 3}, owners) == {"A": 1.0, "B": 0.0}
    # B second: one A seat ahead, one behind
    assert scoring.head_to_head({W: 1, R: 3, B: 2}, owners) == {"A": 0.5, "B": 0.5}
    # B first
    assert scoring.head_to_head({W: 3, R: 2, B: 1}, owners) == {"A": 0.0, "B": 1.0}
    # a draw after an A seat was mated: (1/2 + 0) / 2
    assert scoring.head_to_head({W: 1, R: 3, B: 1}, owners) == {"A": 0.25, "B": 0.75}
    # ABB: A's single seat against both B seats
    owners = {W: "A", R: "B", B: "B"}
    assert scoring.head_to_head({W: 2, R: 1, B: 3}, owners) == {"A": 0.5, "B": 0.5}
    assert scoring.head_to_head({W: 1, R: 1, B: 1}, owners) == {"A": 0.5, "B": 0.5}


def test_head_to_head_four_player():
    Rd, Bl, Ye, Gr = Colour.RED, Colour.BLUE, Colour.YELLOW, Colour.GREEN
    teams = {Rd: "A", Bl: "B", Ye: "A", Gr: "B"}
    assert scoring.head_to_head({Rd: 1, Bl: 3, Ye: 1, Gr: 3}, teams) == {"A": 1.0, "B": 0.0}
    assert scoring.head_to_head({Rd: 3, Bl: 1, Ye: 3, Gr: 1}, teams) == {"A": 0.0, "B": 1.0}
    ffa = {Rd: "A", Bl: "A", Ye: "B", Gr: "B"}
    # places 1 2 3 4: A beats B in all 4 pairs
    assert scoring.head_to_head({Rd: 1, Bl: 2, Ye: 3, Gr: 4}, ffa) == {"A": 1.0, "B": 0.0}
    # places 1 3 2 4: A wins 3 of 4 pairs
    assert scoring.head_to_head({Rd: 1, Bl: 3, Ye: 2, Gr: 4}, ffa) == {"A": 0.75, "B": 0.25}


def test_scores_add_up_to_one():
    rng = random.Random(5)
    for _ in range(200):
        n = rng.choice([2, 3, 4])
        seats = list(Colour)[:n]
        owners = {s: rng.choice("AB") for s in seats}
        if len(set(owners.values())) < 2:
            continue
        places = {s: rng.randint(1, n) for s in seats}
        scores = scoring.head_to_head(places, owners)
        assert scores["A"] + scores["B"] == pytest.approx(1.0)
        assert 0.0 <= scores["A"] <= 1.0


def test_place_scores():
    owners = {W: "A", R: "A", B: "B"}
    # (n - place) / (n - 1): first 1, second 1/2, last 0
    assert scoring.place_scores({W: 1, R: 2, B: 3}, owners) == {"A": 0.75, "B": 0.0}
    assert scoring.place_scores({W: 1, R: 1, B: 1}, owners) == {"A": 1.0, "B": 1.0}
    assert scoring.place_scores({W: 1, Colour.BLACK: 2}, {W: "A", Colour.BLACK: "B"}) == {"A": 1.0, "B": 0.0}


def test_capped_places_is_a_draw_among_the_players_still_in():
    game = Game("three-player")
    assert scoring.capped_places(game) == {W: 1, R: 1, B: 1}
    game.resign("black")
    assert scoring.capped_places(game) == {W: 1, R: 1, B: 3}
    game = Game("four-player", mode="ffa")
    game.resign("blue")
    game.resign("green")
    places = scoring.capped_places(game)
    assert places == {Colour.RED: 1, Colour.YELLOW: 1, Colour.GREEN: 3, Colour.BLUE: 4}


def config(
    game: str, a: str, b: str, games: int, *, plies: int = 0, max_plies: int = 300, seed: int = 1, **settings: object
) -> MatchConfig:
    kind = GAME_KINDS[game]
    return MatchConfig(
        kind,
        parse_player(a),
        parse_player(b),
        games,
        tuple(random_openings(kind, 8, plies, seed)),
        f"{plies} random plies",
        max_plies,
        seed=seed,
        **settings,
    )  # type: ignore[arg-type]


@pytest.mark.parametrize("mode", ["ffa", "teams"])
def test_four_player_cap_is_the_games_move_limit(mode):
    # docs/rules.md §2.4: at the move limit free-for-all ranks by points and teams draw; the match's
    # ply cap is that limit.
    settings = config(f"four-player-{mode}", "greedy", "greedy", 4, max_plies=40)
    for opening in range(4):
        result = play_game(settings, Task(opening, "AABB"))
        assert result.termination == "move limit" and result.plies == 40
        game = read_pgn4(result.record)
        if mode == "teams":
            assert set(result.places.values()) == {1}
        else:
            points = {seat.value: game.points[seat] for seat in game.seats}
            for a in points:
                for b in points:
                    assert (points[a] > points[b]) == (result.places[a] < result.places[b])


def test_parse_player():
    assert parse_player("random").kind == "random"
    assert parse_player("greedy").kind == "greedy"
    spec = parse_player("engine:nodes=2000")
    assert spec.kind == "engine" and spec.options == {"nodes": 2000}
    assert parse_player("engine:depth=2,hash=8").options == {"depth": 2, "hash": 8}
    assert parse_player("engine:time=0.2,algo=brs").algorithm == "brs"
    assert parse_player("engine").options == {}  # thinks on the match's clock
    uci = parse_player("uci:/path/to/engine --flag,time=0.2,dialect=titan,option.Hash=64")
    assert (uci.kind, uci.command, uci.dialect, uci.options, uci.engine_options) == (
        "uci",
        "/path/to/engine --flag",
        "titan",
        {"time": 0.2},
        {"Hash": "64"},
    )
    for bad in (
        "engine:nodes=0",
        "engine:speed=3",
        "engine:nodes=x",
        "engine:algo=best",
        "random:nodes=2",
        "alpha",
        "uci:",
        "uci:x,dialect=klingon",
        "uci:x,colour=red",
        "uci:x,time",
    ):
        with pytest.raises(ValueError):
            parse_player(bad)


def test_an_engine_needs_a_budget_or_a_clock():
    with pytest.raises(ValueError, match="budget"):
        config("standard", "engine", "random", 2)
    assert config("standard", "engine", "random", 2, time_control=5.0).time_control == 5.0


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


@pytest.mark.parametrize(
    "variant, mode", [("three-player", None), ("standard", None), ("four-player", "teams"), ("four-player", "ffa")]
)
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

ROW = re.compile(
    r"^(?P<config>[AB])  (?P<spec>\S+)\s+(?P<games>\d+)\s+(?P<score>[\d.]+)\s+"
    r"\[(?P<low>[\d.]+), (?P<high>[\d.]+)\]\s+(?P<elo>[-+]\S+) \[\S+, \S+\]\s+(?P<place>[\d.]+)\s+"
    r"(?P<w>\d+)/(?P<d>\d+)/(?P<l>\d+)\s+(?P<moves>\d+)\s+(?P<seconds>[\d.]+)"
)


def run_cli(capsys, *args: str) -> tuple[int, str, dict[str, dict[str, str]]]:
    code = cli_main(["match", *args])
    out = capsys.readouterr().out
    rows = {m["config"]: m.groupdict() for m in map(ROW.match, out.splitlines()) if m}
    return code, out, rows


@pytest.mark.parametrize("variant, games, assignments", [("standard", "2", 2), ("three-player", "3", 6)])
def test_tiny_match(capsys, variant, games, assignments):
    args = [
        "--variant",
        variant,
        "--games",
        games,
        "--a",
        "random",
        "--b",
        "greedy",
        "--max-plies",
        "30",
        "--seed",
        "7",
        "--openings",
        "random",
    ]
    code, out, rows = run_cli(capsys, *args)
    assert code == 0
    assert set(rows) == {"A", "B"}
    assert rows["A"]["spec"] == "random" and rows["B"]["spec"] == "greedy"
    for row in rows.values():
        assert int(row["games"]) == assignments  # rounded up to a multiple of the assignments
        assert 0.0 <= float(row["low"]) <= float(row["high"]) <= 1.0
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
    _, again, rows_again = run_cli(capsys, *args)
    assert {c: dict(r, seconds="") for c, r in rows_again.items()} == {c: dict(r, seconds="") for c, r in rows.items()}

    def others(text: str) -> list[str]:
        return [line for line in text.splitlines() if not line.startswith(("A  ", "B  ", "wall time"))]

    assert others(again) == others(out)


def test_tiny_engine_match():
    settings = config("three-player", "engine:nodes=300", "random", 6, plies=6, max_plies=24, seed=2)
    result = run_match(settings, backends.local)
    assert len(result.games) == 6
    assert [g.assignment for g in result.games] == scoring.seat_assignments("three-player")
    opening = settings.openings[0].moves
    assert len(opening) == 6
    for g in result.games:
        assert not g.illegal
        replayed = read_record(g.record)
        assert replayed.history[:6] == list(opening) and replayed.ply == g.plies
        assert g.nodes["A"] > 0 and g.nodes["B"] == 0
        # every engine move's search depth is kept; a random player reports none
        assert len(g.depths["A"]) == g.moves["A"] and min(g.depths["A"]) >= 1 and g.depths["B"] == []
        assert g.scores["A"] + g.scores["B"] == pytest.approx(1.0)
    report = format_report(result)
    assert "A  engine:nodes=300" in report and "B  random" in report
    rows = {line[0]: line.split() for line in report.splitlines() if line[:3] in ("A  ", "B  ")}
    every_depth = sorted(d for g in result.games for d in g.depths["A"])
    assert float(rows["A"][-1]) == statistics.median(every_depth) and rows["B"][-1] == "-"
    # an output file written before depths were kept still reads
    line = json.loads(result.games[0].to_json())
    del line["depths"]
    assert GameResult.from_json(json.dumps(line)).depths == {}


class _BadPlayer(Player):
    def __call__(self, game: Game) -> Move:
        return Board("three-player").parse_move("E2E4") if game.ply > 6 else next(iter(game.legal_moves))


class _BadSpec(PlayerSpec):
    """A player that plays legal moves for a few plies, then a move of another game."""

    def make(self, rng: random.Random) -> Player:
        return _BadPlayer()


def test_illegal_moves_forfeit():
    settings = config("standard", "random", "random", 2, plies=2, max_plies=50)
    settings = MatchConfig(settings.kind, settings.a, _BadSpec("bad", "random"), 2, settings.openings, "", 50)
    result = play_game(settings, Task(0, "AB"))
    assert len(result.illegal) == 1 and result.illegal[0].startswith("B black ply 7: illegal move")
    assert result.termination == "resignation"
    assert result.scores == {"A": 1.0, "B": 0.0}


# --------------------------------------------------------------------------- openings


@pytest.mark.parametrize("name", sorted(GAME_KINDS))
def test_every_game_ships_balanced_openings(name):
    kind = GAME_KINDS[name]
    openings = read_openings(shipped_openings(kind), kind)  # each one played: none ends the game
    assert len(openings) >= 50 and len({o.moves for o in openings}) == len(openings)


def test_openings_files_say_which_line_is_wrong(tmp_path):
    kind = GAME_KINDS["standard"]
    path = tmp_path / "openings.txt"
    path.write_text("# comment\n\nstartpos moves e2e4\nfen 8/8/8/8/8/8/8/8 w - - 0 1\n")
    with pytest.raises(ValueError, match=r"openings.txt, line 4: bad position"):
        read_openings(path, kind)
    path.write_text("startpos moves e2e4 e2e4\n")
    with pytest.raises(ValueError, match=r"line 1: move 2 'e2e4'"):
        read_openings(path, kind)
    path.write_text("startpos moves f2f3 e7e5 g2g4 d8h4\n")
    with pytest.raises(ValueError, match=r"line 1: the game is over after it"):
        read_openings(path, kind)
    path.write_text("# nothing\n")
    with pytest.raises(ValueError, match="no openings"):
        read_openings(path, kind)
    # a bare position string, as Titan's opening files hold FEN4s
    path.write_text("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1 moves e7e5\n")
    (opening,) = read_openings(path, kind)
    assert opening.moves == ("e7e5",) and opening.start is not None


def test_titans_balanced_four_player_openings_are_read(tmp_path):
    data = Path(__file__).resolve().parents[3] / "shared" / "data" / "4pc_teams_balanced.fen4"
    if not data.exists():
        pytest.skip("../shared/data is not here (a user's clone)")
    sample = "\n".join(data.read_text().splitlines()[:20])
    kind = GAME_KINDS["four-player-teams"]
    openings = read_openings(_written(tmp_path / "titan-openings.fen4", sample), kind)
    assert len(openings) == 20 and all(o.start is not None for o in openings)


def _written(path: Path, text: str) -> Path:
    path.write_text(text)
    return path


# --------------------------------------------------------------------------- backends, SPRT, resumption

QUICK = {
    "standard": "engine:depth=1",
    "three-player": "engine:nodes=200",
    "four-player-teams": "engine:nodes=200",
    "four-player-ffa": "engine:nodes=200",
}


@pytest.fixture(scope="module")
def ray_instance():
    ray = pytest.importorskip("ray", reason="the ray backend needs pip install 'polychess[ray]'")
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, configure_logging=False)
    yield ray
    ray.shutdown()


def _same_games(first: list[GameResult], second: list[GameResult]) -> None:
    def played(g: GameResult) -> tuple[object, ...]:
        return g.key, g.termination, g.plies, g.places, g.scores, g.moves, g.nodes, g.record.split("\n\n", 1)[1]

    assert [played(g) for g in first] == [played(g) for g in second]


def test_worker_processes_start_from_a_fork_server_not_a_fork_of_the_match():
    # The match has threads of its own (a status line; the engines' helpers): a fork copies them
    # half-way (Python 3.12 warns of it), so the pool's workers start from a fork server.
    import multiprocessing

    context = backends._worker_context()
    expected = "forkserver" if "forkserver" in multiprocessing.get_all_start_methods() else "spawn"
    assert context.get_start_method() == expected != "fork"


@pytest.mark.parametrize("game", sorted(QUICK))
def test_four_quick_games_on_every_backend_are_the_same_games(game, ray_instance):
    settings = config(game, QUICK[game], "random", 4, plies=2, max_plies=40)
    here = run_match(settings, backends.local)
    assert len(here.games) == len(settings.tasks()) >= 4
    processes = run_match(settings, functools.partial(backends.local, jobs=2))
    on_ray = run_match(settings, backends.ray)
    _same_games(here.games, processes.games)
    _same_games(here.games, on_ray.games)


def test_the_ray_backend_counts_a_retried_game_once(ray_instance, tmp_path):
    settings = config("standard", "engine:depth=1", "random", 4, plies=2, max_plies=30)

    def twice(config: MatchConfig, tasks: list[Task]):
        for result in backends.ray(config, tasks):
            yield result
            yield result  # as a task retried after its first result came back

    result = run_match(settings, twice, output=tmp_path / "out.jsonl")
    assert len(result.games) == 4 == len({g.key for g in result.games})
    assert len((tmp_path / "out.jsonl").read_text().splitlines()) == 1 + 4


def test_sprt_stops_once_a_clearly_decided_pairing_is_decided():
    settings = config("standard", "engine:depth=2", "random", 200, plies=2, max_plies=120)
    sprt = Sprt(0, 200)
    result = run_match(settings, functools.partial(backends.local, jobs=2), sprt=sprt)
    assert result.decision == "H1"
    assert len(result.games) < len(settings.tasks())
    report = format_report(result)
    assert "H1 accepted" in report and str(sprt) in report
    # The LLR has passed the upper bound: the report must not read as if it lay between the bounds.
    assert f", bounds ({sprt.lower_bound:+.2f}, {sprt.upper_bound:+.2f}) after" in report


def test_a_match_resumes_from_its_output(tmp_path):
    output = tmp_path / "match.jsonl"
    short = config("three-player", "engine:nodes=200", "greedy", 6, plies=3, max_plies=30)
    run_match(short, backends.local, output=output)
    longer = config("three-player", "engine:nodes=200", "greedy", 12, plies=3, max_plies=30)
    played: list[str] = []
    resumed = run_match(
        longer, backends.local, output=output, resume=True, progress=lambda match, game: played.append(game.key)
    )
    assert resumed.resumed == 6 and len(played) == 6 and len(resumed.games) == 12
    _same_games(resumed.games, run_match(longer, backends.local).games)
    lines = output.read_text().splitlines()
    assert json.loads(lines[0])["format"] == "polychess-match/1" and len(lines) == 13
    other = config("three-player", "engine:nodes=300", "greedy", 12, plies=3, max_plies=30)
    with pytest.raises(ValueError, match="other settings"):
        run_match(other, backends.local, output=output, resume=True)


def test_a_torn_last_line_is_cut_off_and_its_game_played_again(tmp_path):
    # A run killed while writing a game leaves a line without its newline; the games appended
    # by the resumed run must start on a line of their own, so that every later run reads the file.
    output = tmp_path / "match.jsonl"
    settings = config("standard", "greedy", "random", 4, plies=2, max_plies=20)
    run_match(settings, backends.local, output=output)
    lines = output.read_text().splitlines(keepends=True)
    assert len(lines) == 1 + 4
    for torn in (lines[-1][:20], lines[-1].rstrip("\n")):  # cut anywhere, even just before its newline
        output.write_text("".join(lines[:-1]) + torn)
        again = run_match(settings, backends.local, output=output, resume=True)
        assert again.resumed == 3 and len(again.games) == 4
        assert output.read_text().endswith("\n") and len(output.read_text().splitlines()) == 1 + 4
        later = run_match(settings, backends.local, output=output, resume=True)
        assert later.resumed == 4
        _same_games(later.games, again.games)


def test_a_file_of_something_else_is_neither_resumed_nor_changed(tmp_path):
    output = _written(tmp_path / "notes.txt", "my notes\nhalf a line")
    with pytest.raises(ValueError, match="not the output of a polychess match"):
        run_match(config("standard", "greedy", "random", 2), backends.local, output=output, resume=True)
    assert output.read_text() == "my notes\nhalf a line"


def _processes() -> dict[tuple[int, str], int]:
    """Every process of this machine, (pid, start time) -> parent pid, from /proc. The start time
    tells a process from a later one that got its pid."""
    found = {}
    for name in filter(str.isdigit, os.listdir("/proc")):
        try:
            stat = Path(f"/proc/{name}/stat").read_text()
        except OSError:
            continue  # gone meanwhile
        fields = stat.rsplit(")", 1)[1].split()  # after the command's name, which may hold anything
        if fields[0] != "Z":  # a zombie has ended; only its exit status is left
            found[(int(name), fields[19])] = int(fields[1])
    return found


def _descendants(pid: int) -> set[tuple[int, str]]:
    processes = _processes()
    found: set[tuple[int, str]] = set()
    parents = {pid}
    while parents:
        children = {p for p, parent in processes.items() if parent in parents} - found
        found |= children
        parents = {p for p, _ in children}
    return found


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads the processes from /proc")
def test_the_workers_end_with_a_match_killed_outright(tmp_path):
    # SIGKILL runs no clean-up in the match's process: its workers must notice by themselves.
    command = [
        sys.executable,
        "-m",
        "polychess",
        "match",
        "--variant",
        "standard",
        "--a",
        "engine:nodes=3000",
        "--b",
        "engine:nodes=3000",
        "--games",
        "400",
        "--jobs",
        "2",
    ]
    with open(tmp_path / "stderr", "w") as stderr:
        match = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=stderr)
    workers: set[tuple[int, str]] = set()
    try:
        deadline = time.monotonic() + 120
        while len(workers) < 2:
            assert match.poll() is None, (tmp_path / "stderr").read_text()
            assert time.monotonic() < deadline, f"no workers started: {workers}"
            time.sleep(0.1)
            workers = _descendants(match.pid)
        time.sleep(1)  # the workers are playing their games
        workers |= _descendants(match.pid)
        match.kill()
        match.wait(timeout=60)
        deadline = time.monotonic() + 60
        while workers & _processes().keys() and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not workers & _processes().keys(), "workers outlived the match"
    finally:
        match.kill()
        for pid, _ in workers & _processes().keys():  # only the processes this test made
            os.kill(pid, signal.SIGKILL)


def test_polychess_match_writes_records_that_read_back(capsys, tmp_path):
    for game, reader in (("standard", read_pgn), ("three-player", read_record), ("four-player-ffa", read_pgn4)):
        records = tmp_path / game
        code, out, rows = run_cli(
            capsys,
            "--variant",
            game,
            "--games",
            "2",
            "--a",
            "greedy",
            "--b",
            "random",
            "--max-plies",
            "30",
            "--records",
            str(records),
            "--output",
            str(tmp_path / "o"),
        )
        assert code == 0 and set(rows) == {"A", "B"}
        files = sorted(records.iterdir())
        assert len(files) == int(rows["A"]["games"])
        for path in files:
            replayed = reader(path.read_text())
            assert replayed.ply <= 30 and "A: greedy" in path.read_text()


def test_polychess_match_takes_an_external_engine(capsys):
    engine = f"uci:{sys.executable} {Path(__file__).parents[1] / 'engines' / 'titan_like.py'},time=0.04"
    code, out, _ = run_cli(
        capsys,
        "--variant",
        "four-player",
        "--games",
        "2",
        "--a",
        engine,
        "--b",
        "greedy",
        "--max-plies",
        "16",
        "--openings",
        "random",
    )
    assert code == 0, out
    assert "illegal moves or player errors: 0" in out
    row = next(line for line in out.splitlines() if line.startswith("A  uci:"))
    assert row.split(",time=0.04")[1].split()[0] == "2"  # games
    assert row.split()[-1] == "1"  # the median depth of its info lines (it searches one ply)


def test_an_external_engine_is_told_the_setup_of_the_game():
    # A classic four-player game is refused by an engine started for the modern setup; the
    # player once started it so (and, before the client checked, it played the modern start).
    player = UciPlayer(f"{sys.executable} -m polychess uci --variant four-player", nodes=500)
    game = Game("four-player", setup="classic")
    try:
        assert player(game) in game.legal_moves
    finally:
        player.close()


def test_polychess_match_usage_errors(capsys):
    for args, message in (
        (["--a", "alpha", "--b", "random"], "unknown player"),
        (["--a", "random", "--b", "random", "--sprt", "10"], "--sprt"),
        (["--a", "random", "--b", "random", "--tc", "fast"], "--tc"),
        (["--a", "random", "--b", "random", "--resume"], "--resume needs --output"),
        (["--a", "random", "--b", "random", "--variant", "chess960"], "unknown variant"),
    ):
        assert cli_main(["match", *args]) == 2
        assert message in capsys.readouterr().err


def test_engines_think_on_the_match_clock():
    settings = config("standard", "engine", "greedy", 2, plies=2, max_plies=60, time_control=1.0, increment=0.02)
    result = run_match(settings, backends.local)
    for game in result.games:
        assert not game.illegal and game.termination != "time forfeit"
        moves = game.moves["A"]
        assert 0 < game.seconds["A"] < 1.0 + 0.02 * moves  # within its clock
        assert game.nodes["A"] > 0
    text = format_report(result)
    assert "clock 1+0.02 s" in text
