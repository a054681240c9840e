"""`polychess uci`, the engine side of the protocols (docs/protocol.md): python-chess's UCI
client through a whole game and an analysis, scripted sessions of the three- and four-player
extensions (every command, bad input, a finished game), the time management on a clock the
test moves by hand, and the bench signature."""

from __future__ import annotations

import queue
import subprocess
import sys
import time

import pytest

from network_files import renamed
from polychess import Board, Colour, Game
from polychess.catalogue import kind_of
from polychess.formats.fen4 import write_fen4
from polychess.nnue import Network, random_network
from polychess.protocol.client import UciEngine
from polychess.protocol.games import GAME_KINDS
from polychess.protocol.server import DEFAULT_MOVETIME_MS, UciServer, mover_clock, parse_go
from polychess.protocol.timeman import think_time
from polychess.strength import LEVELS
from positions import cross_position, position

chess = pytest.importorskip("chess")
pytest.importorskip("chess.engine")  # loaded as chess.engine

UCI = [sys.executable, "-m", "polychess", "uci"]
# A teams game in which Green is mated on the last move (from a greedy playout).
TEAMS_MATE = (
    "g2g3",
    "b4d4",
    "j14k12",
    "m9k9",
    "f1m8",
    "a5c4",
    "k12m11",
    "n9m8",
    "d2d3",
    "c4e3",
    "i13i11",
    "m10l10",
    "f2e3",
    "d4e3",
    "h14l10",
)


class FakeClock:
    """A time source the test moves by hand."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


class Session:
    """A server in this process; its output lines are read as they come."""

    def __init__(self, game: str = "standard", time_source: FakeClock | None = None) -> None:
        self.lines: queue.Queue[str] = queue.Queue()
        kwargs = {} if time_source is None else {"time_source": time_source}
        self.server = UciServer(GAME_KINDS[game], self.lines.put, **kwargs)

    def send(self, *commands: str) -> None:
        for command in commands:
            assert self.server.handle(command)

    def until(self, prefix: str, seconds: float = 20.0) -> list[str]:
        """The lines up to and including the first that starts with ``prefix``."""
        deadline = time.monotonic() + seconds
        seen = []
        while True:
            line = self.lines.get(timeout=max(0.01, deadline - time.monotonic()))
            seen.append(line)
            if line.startswith(prefix):
                return seen

    def quiet(self, seconds: float = 0.3) -> list[str]:
        """What arrives within ``seconds``."""
        time.sleep(seconds)
        seen = []
        while not self.lines.empty():
            seen.append(self.lines.get())
        return seen

    def close(self) -> None:
        assert not self.server.handle("quit")


@pytest.fixture
def session():
    sessions: list[Session] = []

    def make(game: str = "standard", time_source: FakeClock | None = None) -> Session:
        sessions.append(Session(game, time_source))
        return sessions[-1]

    yield make
    for s in sessions:
        s.server.finish()


# --------------------------------------------------------------------------- python-chess as the GUI


def test_python_chess_plays_a_whole_game_against_polychess_uci():
    engine = chess.engine.SimpleEngine.popen_uci(UCI, timeout=30)
    try:
        assert engine.id["name"].startswith("polychess")
        assert {"Hash", "Threads", "UCI_Variant", "Algorithm"} <= set(engine.options)
        engine.configure({"Hash": 8, "Threads": 1})
        board = chess.Board()
        clock = {chess.WHITE: 3.0, chess.BLACK: 3.0}
        while not board.is_game_over(claim_draw=True) and board.ply() < 160:
            if board.ply() % 2:
                limit = chess.engine.Limit(nodes=3000)
            else:
                limit = chess.engine.Limit(
                    white_clock=clock[chess.WHITE], black_clock=clock[chess.BLACK], white_inc=0.05, black_inc=0.05
                )
            started = time.monotonic()
            result = engine.play(board, limit)
            clock[board.turn] += 0.05 - (time.monotonic() - started)
            assert result.move in board.legal_moves
            board.push(result.move)
        assert board.is_game_over(claim_draw=True) or board.ply() == 160
        assert min(clock.values()) > 0, "the engine ran out of its clock"
    finally:
        engine.quit()


def test_python_chess_analyses_with_polychess_uci():
    engine = chess.engine.SimpleEngine.popen_uci(UCI, timeout=30)
    try:
        board = chess.Board("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1")
        info = engine.analyse(board, chess.engine.Limit(depth=4))
        assert info["score"].white() == chess.engine.Mate(1)
        assert info["pv"][0] == chess.Move.from_uci("a1a8")
        info = engine.analyse(chess.Board(), chess.engine.Limit(depth=5))
        assert info["depth"] == 5 and info["seldepth"] >= 5 and info["nodes"] > 0
        assert isinstance(info["score"].white().score(), int)
        with engine.analysis(chess.Board()) as analysis:  # go infinite, then stop
            for info in analysis:
                if info.get("depth", 0) >= 4:
                    break
        assert analysis.wait().move in chess.Board().legal_moves
    finally:
        engine.quit()


def test_python_chess_analyses_several_lines():
    engine = chess.engine.SimpleEngine.popen_uci(UCI, timeout=30)
    try:
        board = chess.Board()
        infos = engine.analyse(board, chess.engine.Limit(depth=4), multipv=3)
        assert [info["multipv"] for info in infos] == [1, 2, 3]
        first_moves = [info["pv"][0] for info in infos]
        assert len(set(first_moves)) == 3 and all(move in board.legal_moves for move in first_moves)
        scores = [info["score"].white().score() for info in infos]
        assert scores == sorted(scores, reverse=True)
        # searchmoves: python-chess's root_moves
        info = engine.analyse(board, chess.engine.Limit(depth=3), root_moves=[chess.Move.from_uci("a2a3")])
        assert info["pv"][0] == chess.Move.from_uci("a2a3")
        # win/draw/loss in thousandths (polychess.outlook)
        engine.configure({"UCI_ShowWDL": True})
        info = engine.analyse(chess.Board("6k1/5ppp/8/8/8/8/8/R5K1 b - - 0 1"), chess.engine.Limit(depth=2))
        wdl = info["wdl"].white()
        assert wdl.wins + wdl.draws + wdl.losses == 1000 and wdl.wins > wdl.losses
    finally:
        engine.quit()


def test_garbage_on_stdin_is_answered_and_survived():
    garbage = (
        b"\x00\xff\xfe garbage\n"
        + b"position\n"
        + b"position fen\n"
        + b"position startpos moves e2e5\n"
        + b"go depth banana\n"
        + b"setoption name\n"
        + b"setoption name Hash value lots\n"
        + b"x" * 100_000
        + b"\n"
        + b"go wtime -5 btime\n"
    )
    process = subprocess.run(
        UCI, input=garbage + b"isready\nposition startpos\ngo depth 2\nisready\nquit\n", capture_output=True, timeout=60
    )
    out = process.stdout.decode()
    assert process.returncode == 0, process.stderr.decode()
    assert "Traceback" not in process.stderr.decode()
    assert out.count("readyok") == 2
    assert "info string unknown command" in out
    assert "info string invalid position: move 1 'e2e5'" in out
    assert "bestmove (none)" in out  # the go after the bad position: nothing to search
    after = out.split("readyok", 1)[1]
    assert any(line.startswith("bestmove ") and "(none)" not in line for line in after.splitlines())


# --------------------------------------------------------------------------- scripted sessions


def test_handshake_options_and_their_errors(session):
    s = session()
    s.send("uci")
    lines = s.until("uciok")
    assert lines[0].startswith("id name polychess")
    names = [line.split("name ", 1)[1].split(" type")[0] for line in lines if line.startswith("option")]
    strength = ["Skill Level"] + (["UCI_LimitStrength", "UCI_Elo"] if any(lv.elo for lv in LEVELS) else [])
    assert names == [
        "Hash",
        "Threads",
        "MultiPV",
        "Algorithm",
        "UCI_Variant",
        "Move Overhead",
        "Ponder",
        "UCI_ShowWDL",
        "Clear Hash",
        "EvalFile",
        *strength,
    ]
    s.send(
        "setoption name Hash value 8",
        "setoption name Threads value 2",
        "setoption name MultiPV value 3",
        "setoption name Algorithm value maxn",
        "setoption name Move Overhead value 10",
        "setoption name Clear Hash",
        "isready",
    )
    assert s.until("readyok") == ["readyok"]
    assert (s.server.hash_mb, s.server.engine.threads, s.server.multipv, s.server.engine.algorithm) == (8, 2, 3, "maxn")
    assert s.server.overhead == 0.01
    for command, message in (
        ("setoption name Hash value -1", "expected a whole number from 0"),
        ("setoption name Threads value many", "expected a whole number from 1"),
        ("setoption name MultiPV value 0", "expected a whole number from 1"),
        ("setoption name Algorithm value alphazero", "unknown algorithm"),
        ("setoption name UCI_Variant value chess960", "unknown variant"),
        ("setoption name Colour value red", "no such option"),
        ("setoption Hash 8", "expected 'setoption name"),
    ):
        s.send(command)
        assert message in s.until("info string")[-1]


def test_evalfile_searches_with_a_network(session, tmp_path):
    network = random_network("standard", hidden=16, seed=2)
    path = tmp_path / "standard.nnue"
    network.save(path)
    s = session()
    s.send(f"setoption name EvalFile value {path}", "position startpos", "go depth 1")
    lines = s.until("bestmove")
    # a one-ply search from the start scores each move by the network's values after it
    best = max(v[0] - v[1] for v in (network.evaluate(_after(m)) for m in Board("standard").legal_moves))
    assert f"score cp {best} " in next(line for line in lines if line.startswith("info depth 1"))
    s.send("setoption name UCI_Variant value three-player", "position startpos", "go depth 1")
    assert "standard network: three-player is searched with the classic evaluation" in s.until("info string")[-1]
    s.until("bestmove")
    s.send("setoption name EvalFile value <classic>", "isready")
    s.until("readyok")
    assert s.server.evaluation == "classic"
    s.send("setoption name EvalFile value <shipped>", "isready")
    s.until("readyok")
    assert s.server.evaluation == "network"
    (tmp_path / "bad.nnue").write_bytes(b"PCNN\x01")
    s.send(f"setoption name EvalFile value {tmp_path / 'bad.nnue'}")
    assert "truncated" in s.until("info string")[-1]


def test_evalfile_refuses_what_is_not_a_network_and_go_still_answers(session, tmp_path):
    # Accepted before, these left every go failing in its thread without a bestmove (a GUI waits
    # forever), or blocked the session (a FIFO), or took the machine's memory (/dev/zero).
    import os

    three = random_network("three-player", hidden=16, seed=2).to_bytes()
    cases = {
        "latin1.nnue": (renamed(three, b"th\xe9ree-player"), "is not UTF-8 text"),
        "posing.nnue": (renamed(three, b"standard"), "header names standard"),
    }
    s = session()
    for name, (data, why) in cases.items():
        (tmp_path / name).write_bytes(data)
        s.send(f"setoption name EvalFile value {tmp_path / name}")
        assert why in s.until("info string")[-1]
    fifo = tmp_path / "fifo.nnue"
    os.mkfifo(fifo)
    for special in (fifo, "/dev/zero"):
        s.send(f"setoption name EvalFile value {special}", "isready")
        lines = s.until("readyok", 5.0)
        assert "not a regular file" in lines[0], lines
    assert s.server.evaluation == "classic"
    s.send("position startpos", "go depth 2")
    assert s.until("bestmove")[-1].split()[1] in {str(m) for m in Board("standard").legal_moves}
    # a file whose path has two spaces in a row
    spaced = tmp_path / "my  net.nnue"
    random_network("standard", hidden=16, seed=2).save(spaced)
    s.send(f"setoption name EvalFile value {spaced}", "isready")
    assert s.until("readyok") == ["readyok"] and s.server.evaluation.hash == Network.load(spaced).hash


def test_an_error_in_a_search_still_ends_with_bestmove(session, monkeypatch):
    s = session()

    def broken(*args, **kwargs):
        raise RuntimeError("something the search did not expect")

    monkeypatch.setattr(s.server.engine, "search", broken)
    s.send("position startpos", "go depth 3")
    lines = s.until("bestmove")
    assert "search failed: RuntimeError: something the search did not expect" in lines[-2]
    assert lines[-1].split()[1] in {str(m) for m in Board("standard").legal_moves}


def test_numbers_are_ascii_digits_only(session):
    s = session()
    s.send("setoption name MultiPV value \u0665")  # ARABIC-INDIC DIGIT FIVE, which int() reads as 5
    assert "expected a whole number from 1" in s.until("info string")[-1]
    assert s.server.multipv == 1
    s.send("go depth \u0663")
    assert "ignored" in s.until("info string")[-1]
    s.until("bestmove")


def _after(move) -> Board:
    board = Board("standard")
    board.push(move)
    return board


@pytest.mark.parametrize("game", sorted(GAME_KINDS))
def test_every_game_searches_and_reports(session, game):
    s = session(game)
    s.send("ucinewgame", "position startpos", "go depth 3")
    lines = s.until("bestmove")
    infos = [line for line in lines if line.startswith("info depth")]
    assert [int(line.split()[2]) for line in infos] == [1, 2, 3]
    for line in infos:
        words = line.split()
        for field in ("seldepth", "score", "nodes", "nps", "time", "pv"):
            assert field in words
        assert words[words.index("score") + 1] in ("cp", "mate")
    move = lines[-1].split()[1]
    assert move in {str(m) for m in Game.from_kind(GAME_KINDS[game]).legal_moves}


@pytest.mark.parametrize("game", ["three-player", "four-player-teams", "four-player-ffa"])
def test_multipv_info_lines_in_the_multi_player_games(session, game):
    s = session(game)
    legal = [str(m) for m in Game.from_kind(GAME_KINDS[game]).legal_moves]
    s.send("setoption name MultiPV value 2", "position startpos", f"go depth 2 searchmoves {' '.join(legal[:3])}")
    lines = s.until("bestmove")
    infos = [line.split() for line in lines if line.startswith("info depth")]
    assert [(int(words[2]), int(words[words.index("multipv") + 1])) for words in infos] == [
        (1, 1),
        (1, 2),
        (2, 1),
        (2, 2),
    ]
    for first, second in (infos[0:2], infos[2:4]):
        first_move, second_move = first[first.index("pv") + 1], second[second.index("pv") + 1]
        assert first_move != second_move and {first_move, second_move} <= set(legal[:3])
    assert lines[-1].split()[1] in legal[:3]


def test_four_player_session(session):
    s = session("four-player-teams")
    # moves with or without '-', 'x' and '='
    s.send("position startpos moves h2-h3 b7c7 i13-i12 m8xl8", "legalmoves")
    game = Game("four-player")
    for move in ("h2h3", "b7c7", "i13i12", "m8l8"):
        game.push(move)
    line = s.until("legalmoves")[-1]
    assert line.split()[1:] == [str(m) for m in game.legal_moves]
    s.send("d")
    shown = s.until("Turn:")
    assert f"Fen: {write_fen4(game.board)}" in shown and any(line.startswith("Key: ") for line in shown)
    s.send("gameresult")
    assert s.until("gameresult") == ["gameresult ongoing"]
    # per-colour clocks: Red (to move) has 2 s, the others a minute
    s.send("go rtime 2000 btime 60000 ytime 60000 gtime 60000 rinc 0 binc 0 yinc 0 ginc 0")
    assert s.until("bestmove")[-1].split()[1] in {str(m) for m in game.legal_moves}
    # a finished game: Red and Yellow mate Green, who is to move and hears he has lost (as Stockfish's mated side)
    s.send(f"position startpos moves {' '.join(TEAMS_MATE)}", "go depth 3")
    assert s.until("bestmove")[-3:] == [
        "info string Game completed. RY won. (checkmate)",
        "info depth 0 score mate 0",
        "bestmove (none)",
    ]
    s.send("gameresult")
    assert s.until("gameresult") == ["gameresult ry_win"]
    # the FEN4 chess.com writes after a teams mate (Green's pieces dead, his king gone) is finished too
    after = Game(
        "four-player",
        start=cross_position({"h1": "rK", "g14": "yK", "a8": "bK", "n5": "gR"}, controllers="rby-", statuses="aaax"),
    )
    s.send(f"position fen {write_fen4(after.board)}", "go depth 3", "gameresult")
    assert s.until("gameresult") == [
        "info string Game completed. RY won. (decided)",
        "bestmove (none)",
        "gameresult ry_win",
    ]
    # what cannot be read is said, and leaves no position to search
    s.send("position fen R-0,0", "go depth 1")
    lines = s.until("bestmove")
    assert lines[0].startswith("info string invalid position: bad FEN4") and lines[-1] == "bestmove (none)"
    s.send("legalmoves", "gameresult")
    assert s.until("gameresult")[-1] == "gameresult invalid"


def test_free_for_all_session_ranks_by_points(session):
    s = session()
    s.send("setoption name UCI_Variant value four-player-ffa")
    game = Game("four-player", mode="ffa", points={"red": 7, "blue": 3})
    start = write_fen4(game.board, game.points)
    s.send(f"position fen {start} moves h2h3", "d")
    assert f"Fen: {write_fen4(s.server.game.board, {Colour.RED: 7, Colour.BLUE: 3})}" in s.until("Turn:")
    # Yellow and Green are out; Red mates Blue and wins the mate's 20 points
    start = cross_position({"h1": "rK", "e8": "rQ", "b11": "rR", "a4": "bK"}, controllers="rb--", statuses="aaxx")
    end = Game("four-player", mode="ffa", start=start)
    s.send(
        f"position fen {write_fen4(end.board, {Colour.RED: 7, Colour.BLUE: 3})} moves e8b5", "go depth 1", "gameresult"
    )
    lines = s.until("gameresult")
    assert lines[0] == "info string Game completed. ranking red=1 blue=2 points red=27 blue=3 (checkmate)"
    assert lines[-1] == "gameresult ranking red=1 blue=2 points red=27 blue=3"


def test_three_player_session(session):
    s = session("three-player")
    s.send("position startpos moves E2E4 l11-l9 h7h5", "legalmoves")
    game = Game("three-player")
    for move in ("E2E4", "L11L9", "H7H5"):
        game.push(move)
    assert s.until("legalmoves")[-1].split()[1:] == [str(m) for m in game.legal_moves]
    s.send("go wtime 1000 rtime 1000 btime 1000 winc 10 rinc 10 binc 10")
    assert s.until("bestmove")[-1].split()[1] in {str(m) for m in game.legal_moves}
    # Black is out; White takes Red's king (rules §1.6) and the game is over
    start = position({"E1": "wK", "H1": "wR", "H4": "rK"}, controllers="wr-", statuses="aax")
    s.send(f"position fen {start} moves H1H4", "go depth 1", "gameresult")
    assert s.until("gameresult") == [
        "info string Game completed. places white=1 red=2 (king capture)",
        "bestmove (none)",
        "gameresult places white=1 red=2",
    ]


def test_perft_and_bench(session):
    s = session()
    s.send("position startpos", "go perft 3")
    lines = s.until("Nodes searched")
    assert lines[-1] == "Nodes searched: 8902" and len(lines) == 20 + 2
    process = subprocess.run([*UCI, "bench", "3"], capture_output=True, text=True, timeout=120, check=True)
    again = subprocess.run([*UCI, "bench", "3"], capture_output=True, text=True, timeout=120, check=True)
    last = process.stdout.splitlines()[-1].split()
    assert last[1] == "nodes" and last[3] == "nps" and int(last[0]) > 0
    assert again.stdout.splitlines()[-1].split()[0] == last[0]  # the node count is a signature
    assert f"Nodes searched  : {last[0]}" in process.stdout


@pytest.mark.parametrize(
    "command, stopped", [("bench 30", "info string bench stopped"), ("go perft 10", "info string perft stopped")]
)
def test_bench_and_perft_run_off_the_command_loop(command, stopped):
    with UciEngine(UCI, timeout=30.0) as engine:  # each would take hours
        engine.send("position startpos")
        engine.send(command)
        engine.ping()  # readyok while it runs
        engine.send("stop")
        assert engine.read_until("info", 30.0)[-1] == stopped
        engine.send(command)
        engine.send("quit")
        assert engine._process.wait(timeout=30) == 0  # it ended on quit, not killed


def test_what_is_refused_is_not_echoed_in_full(session):
    s = session()
    token = "e2e4" + "x" * 1_000_000
    for command in (
        f"go {token}",
        f"go searchmoves {token}",
        token,
        f"setoption name Hash value {token}",
        f"bench {token}",
        f"position startpos moves {token}",
    ):
        s.send(command, "stop", "isready")
        lines = s.until("readyok")
        refusals = [line for line in lines if line.startswith("info string")]
        assert "e2e4xxx" in refusals[0]  # what is refused is named by its start
        assert all(len(line) <= 600 for line in lines)


# --------------------------------------------------------------------------- time management


def test_think_time_spreads_the_clock():
    budget = think_time(60.0)
    assert 0 < budget.soft <= budget.hard < 60.0
    assert think_time(120.0).hard > budget.hard
    assert think_time(60.0, increment=2.0).soft > budget.soft
    assert think_time(60.0, moves_to_go=1).hard > 0.5 * 60
    assert think_time(60.0, moves_to_go=5).soft > think_time(60.0, moves_to_go=40).soft
    tiny = think_time(0.01)
    assert 0 < tiny.soft <= tiny.hard <= 0.01
    with pytest.raises(ValueError):
        think_time(-1.0)
    with pytest.raises(ValueError):
        think_time(1.0, moves_to_go=0)


def test_the_movers_clock_is_chosen_by_colour_initial_or_team():
    four = kind_of("four-player")
    go = parse_go("rtime 1000 btime 2000 ytime 3000 gtime 4000 rinc 10 binc 20 yinc 30 ginc 40".split())
    assert [mover_clock(four, c, go) for c in (Colour.RED, Colour.BLUE, Colour.YELLOW, Colour.GREEN)] == [
        (1.0, 0.01),
        (2.0, 0.02),
        (3.0, 0.03),
        (4.0, 0.04),
    ]
    teams = parse_go("wtime 1000 btime 2000 winc 10 binc 20".split())
    assert [mover_clock(four, c, teams) for c in (Colour.RED, Colour.BLUE, Colour.YELLOW, Colour.GREEN)] == [
        (1.0, 0.01),
        (2.0, 0.02),
        (1.0, 0.01),
        (2.0, 0.02),
    ]
    three = kind_of("three-player")
    go = parse_go("wtime 1000 rtime 2000 btime 3000".split())
    assert [mover_clock(three, c, go) for c in (Colour.WHITE, Colour.RED, Colour.BLACK)] == [
        (1.0, 0.0),
        (2.0, 0.0),
        (3.0, 0.0),
    ]
    assert mover_clock(kind_of("standard"), Colour.BLACK, parse_go(["wtime", "5"])) is None
    odd = parse_go("depth x wtime 5 frobnicate searchmoves e2e4 d2d4 nodes 7".split())
    assert odd.limits == {"nodes": 7} and odd.times == {"w": 0.005} and odd.searchmoves == ["e2e4", "d2d4"]
    assert odd.ignored == ["'depth x': expected a whole number from 1", "'frobnicate': not a parameter of go"]


def test_a_clocked_search_stops_at_its_hard_limit_on_the_fake_clock(session):
    clock = FakeClock()
    s = session("standard", clock)
    s.send("position startpos moves e2e4", "go wtime 1000 btime 60000 winc 0 binc 1000")
    budget = think_time(60.0, 1.0, None, 0.03)  # Black moves: his clock counts
    assert not [line for line in s.quiet() if line.startswith("bestmove")]
    clock.now += budget.soft * 0.3  # not yet the time to stop after an iteration, however sure the search is
    assert not [line for line in s.quiet() if line.startswith("bestmove")]
    clock.now += budget.hard
    assert s.until("bestmove", 5.0)[-1].startswith("bestmove ")


@pytest.mark.parametrize(
    "go, said",
    [
        ("go depth 0", "'depth 0': expected a whole number from 1"),
        ("go nodes 0", "'nodes 0': expected a whole number from 1"),
        ("go depth -1", "'depth -1': expected a whole number from 1"),
        ("go depth 1.5", "'depth 1.5': expected a whole number from 1"),
        ("go depth 1e2", "'depth 1e2': expected a whole number from 1"),
        ("go depth", "'depth': expected a whole number from 1"),
        ("go movetime abc", "'movetime abc': expected a whole number from 0"),
        ("go searchmoves e7e5 d7d5", None),
        ("go searchmoves e2e4 e7e5", "searchmoves 'e2e4': not a legal move here"),
        ("go", None),
        ("go wtime 60000 winc 0", None),  # no clock for Black, who moves
    ],
)
def test_a_go_without_a_limit_searches_for_the_default_time(session, go, said):
    clock = FakeClock()
    s = session("standard", clock)
    s.send("position startpos moves e2e4", go)
    lines = s.until("info string go: no limit")
    assert lines[:-1] == ([f"info string go: ignored {said}"] if said else [])
    assert not [line for line in s.quiet() if line.startswith("bestmove")]  # the fake clock has not moved
    clock.now += DEFAULT_MOVETIME_MS / 1000
    assert s.until("bestmove", 20.0)[-1].startswith("bestmove ")


def test_pondering_without_a_limit_gets_the_default_time_after_ponderhit(session):
    clock = FakeClock()
    s = session("standard", clock)
    s.send("position startpos", "go ponder")
    assert s.until("info string go: no limit")[-1].endswith(f"searching for {DEFAULT_MOVETIME_MS} ms after ponderhit")
    clock.now += 100.0
    assert not [line for line in s.quiet() if line.startswith("bestmove")]
    s.send("ponderhit")
    assert not [line for line in s.quiet() if line.startswith("bestmove")]
    clock.now += DEFAULT_MOVETIME_MS / 1000
    assert s.until("bestmove", 20.0)[-1].startswith("bestmove ")


def test_pondering_waits_for_ponderhit_then_keeps_to_the_clock(session):
    clock = FakeClock()
    s = session("standard", clock)
    s.send("position startpos", "go ponder wtime 10000 btime 10000")
    clock.now += 100.0  # far past any limit: pondering is not on the clock
    assert not [line for line in s.quiet() if line.startswith("bestmove")]
    s.send("ponderhit")
    assert not [line for line in s.quiet() if line.startswith("bestmove")]
    clock.now += think_time(10.0).hard + 0.01
    assert s.until("bestmove", 5.0)[-1].startswith("bestmove ")


def test_an_infinite_search_waits_for_stop_even_when_it_is_done(session):
    s = session()
    s.send("position fen 6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", "go infinite")
    lines = s.quiet(0.5)
    assert any("score mate 1" in line for line in lines) and not any(line.startswith("bestmove") for line in lines)
    s.send("isready")
    assert s.until("readyok")[-1] == "readyok"  # answered while it waits
    s.send("stop")
    assert s.until("bestmove")[-1].startswith("bestmove a1a8")


def test_movetime_and_stop_right_after_go(session):
    s = session()
    s.send("position startpos", "go movetime 100")
    started = time.monotonic()
    assert s.until("bestmove", 5.0)[-1].startswith("bestmove ")
    assert time.monotonic() - started < 2.0
    for _ in range(20):  # a stop that comes before the search has begun is not lost
        s.send("go infinite", "stop")
        assert s.until("bestmove", 5.0)[-1].startswith("bestmove")


def test_movetime_is_the_time_to_use_even_with_a_mate_found(session):
    s = session()
    s.send("position fen 6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", "go movetime 400")  # mate in one, found at once
    started = time.monotonic()
    lines = s.until("bestmove", 5.0)
    assert time.monotonic() - started >= 0.38 and lines[-1].startswith("bestmove a1a8")
    s.send("go movetime 60000", "stop")  # stop still ends it at once
    started = time.monotonic()
    assert s.until("bestmove", 5.0)[-1].startswith("bestmove a1a8") and time.monotonic() - started < 5


@pytest.mark.parametrize(
    "position, termination",
    [
        ("fen 8/8/4k3/8/8/3K4/8/8 w - - 0 1", "insufficient material"),
        ("fen 8/8/4k3/8/8/3K4/8/7R w - - 100 80", "fifty moves"),
        ("startpos moves g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1 f6g8", "threefold repetition"),
    ],
)
def test_a_game_drawn_by_rule_still_gets_a_legal_move_and_a_score_of_zero(position, termination):
    # Stockfish's answer, which python-chess's analysis reads: a legal move, and the draw's score.
    engine = chess.engine.SimpleEngine.popen_uci(UCI, timeout=30)
    try:
        s = subprocess.run(
            UCI, input=f"position {position}\ngo depth 3\nquit\n", capture_output=True, text=True, timeout=60
        )
        assert f"info string Game completed. Draw. ({termination})" in s.stdout
        board = chess.Board(position.removeprefix("fen ")) if position.startswith("fen") else chess.Board()
        for move in position.split(" moves ")[1].split() if " moves " in position else []:
            board.push_uci(move)
        info = engine.analyse(board, chess.engine.Limit(depth=3))
        assert info["score"].white() == chess.engine.Cp(0)
        result = engine.play(board, chess.engine.Limit(depth=3))
        assert result.move in board.legal_moves
    finally:
        engine.quit()


def test_quit_ends_a_running_search():
    process = subprocess.Popen(UCI, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    assert process.stdin is not None
    process.stdin.write("position startpos\ngo infinite\n")
    process.stdin.flush()
    time.sleep(0.3)
    process.stdin.write("quit\n")
    process.stdin.flush()
    out, _ = process.communicate(timeout=30)
    assert process.returncode == 0 and "bestmove" in out
