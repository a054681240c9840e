"""polychess.protocol.client: external engines driven from Python. Against a fake engine that
speaks Titan's dialect (tests/engines/titan_like.py) and misbehaves on demand, and against
`polychess uci` itself for every game. No failure of an engine may hang the caller."""

from __future__ import annotations

import os
import shlex
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from polychess import Colour, Game
from polychess.formats.fen4 import write_fen4
from polychess.protocol.client import (
    _KEPT_LINES,
    _QUEUED_LINES,
    BestMove,
    EngineProtocolError,
    EngineTerminatedError,
    EngineTimeoutError,
    UciEngine,
    parse_info,
)
from positions import cross_position

TITAN_LIKE = [sys.executable, str(Path(__file__).parents[1] / "engines" / "titan_like.py")]
POLYCHESS = [sys.executable, "-m", "polychess", "uci"]


def titan_like(*flags: str, **kwargs: object) -> UciEngine:
    return UciEngine([*TITAN_LIKE, *flags], variant="four-player", **kwargs)  # type: ignore[arg-type]


def within(seconds: float, call: Callable[[], object]) -> object:
    """What ``call()`` returns (or raises), run on a thread: a call still running after
    ``seconds`` fails the test instead of hanging the test run."""
    results: list[object] = []
    errors: list[BaseException] = []

    def run() -> None:
        try:
            results.append(call())
        except BaseException as error:  # noqa: BLE001 - raised again below, in the test's thread
            errors.append(error)

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(seconds)
    assert not thread.is_alive(), f"still waiting after {seconds} s"
    if errors:
        raise errors[0]
    return results[0]


def test_info_lines_in_every_dialect():
    info = parse_info(
        "info depth 9 seldepth 20 multipv 1 score cp 24 nodes 392341 nps 3056551 time 128 pv b1c3 b8c6 d2d4"
    )
    assert (info.depth, info.seldepth, info.score, info.mate, info.nodes, info.nps, info.time, info.pv) == (
        9,
        20,
        24,
        None,
        392341,
        3056551,
        0.128,
        ("b1c3", "b8c6", "d2d4"),
    )
    titan = parse_info("info depth 3 time 90 nodes 108 pv e1-f3 a10-c9 e14-f12 score 81 nps 1200")
    assert (titan.depth, titan.score, titan.pv, titan.nps) == (3, 81, ("e1-f3", "a10-c9", "e14-f12"), 1200)
    assert parse_info("info depth 4 score mate -2 pv a1a2").mate == -2
    assert parse_info("info score cp 15 lowerbound nodes 5").score == 15
    assert parse_info("info string Game completed. RY won.").string == "Game completed. RY won."
    garbled = parse_info("info depth x nodes 12 score frob wdl 1 2 3 currmove e2e4")
    assert (garbled.depth, garbled.nodes, garbled.score) == (None, 12, None)


def test_titans_dialect_is_recognised_and_spoken():
    with titan_like() as engine:
        assert engine.name == "4pChess 0.1" and engine.dialect.name == "titan"
        game = Game("four-player")
        # clocks become a time per move: Titan ignores rtime and friends
        command, _ = engine.go_command(game, clocks={c: 10.0 for c in game.colours})
        assert command.startswith("go movetime ") and "rtime" not in command
        with pytest.raises(ValueError, match="cannot limit nodes"):
            engine.go_command(game, nodes=1000)
        reply = engine.best_move(game, time=0.05)
        assert reply.move in game.legal_moves and "-" in reply.text and reply.fallback is None
        assert reply.last is not None and reply.last.score == 61  # 'score 61' without 'cp'
        game.push(reply.move)
        assert engine.best_move(game, depth=2).move in game.legal_moves


def test_a_promotion_written_with_an_equals_sign_is_read():
    start = cross_position({"h1": "rK", "e10": "rP", "g14": "yK", "a8": "bK", "n8": "gK"})
    game = Game("four-player", start=start)
    with titan_like() as engine:
        moves = {engine.best_move(game, depth=1).text}
    assert all("-" in text for text in moves)
    promotion = next(m for m in game.legal_moves if str(m) == "e10e11q")
    assert game.board.parse_move("e10-e11=Q") == promotion


def test_no_bestmove_from_an_unfinished_first_iteration_falls_back_to_depth_one():
    game = Game("four-player")
    with titan_like(dialect="uci") as engine:  # "uci" sends the 10 ms as it is; titan_like needs 30
        started = time.monotonic()
        reply = engine.best_move(game, time=0.01)
        assert reply.fallback == "go depth 1" and reply.move in game.legal_moves
        assert time.monotonic() - started < 8.0


def test_an_engine_that_dies_raises_and_never_hangs():
    game = Game("four-player")
    with titan_like("--die-on-go") as engine:
        with pytest.raises(EngineTerminatedError, match=r"4pChess 0.1' ended \(exit status 3\)"):
            engine.best_move(game, time=0.05)
        with pytest.raises(EngineTerminatedError):
            engine.best_move(game, time=0.05)


def test_a_hanging_engine_is_stopped_and_raises():
    game = Game("four-player")
    started = time.monotonic()
    with titan_like("--hang-on-go", timeout=1.0) as engine:
        with pytest.raises(EngineTimeoutError, match="no longer answers"):
            engine.best_move(game, time=0.05)
        assert engine._process.poll() is not None  # killed
    assert time.monotonic() - started < 15.0


@pytest.mark.parametrize("flag, message", [("--illegal", "played 'a1-a2'"), ("--garbage", "played '@@@'")])
def test_an_illegal_or_unreadable_move_raises(flag, message):
    with titan_like(flag) as engine:
        with pytest.raises(EngineProtocolError, match=message):
            engine.best_move(Game("four-player"), time=0.05)


def test_a_refused_position_or_option_raises():
    start = Game("four-player", start=cross_position({"h1": "rK", "g14": "yK", "a8": "bK", "n8": "gK"}))
    with titan_like("--refuse-fen") as engine:
        with pytest.raises(EngineProtocolError, match="refused the position .*Invalid FEN"):
            engine.best_move(start, time=0.05)
        assert engine.best_move(Game("four-player"), time=0.05).move is not None  # startpos is fine
    with pytest.raises(EngineProtocolError, match="refused setoption Colour: invalid command"):
        titan_like(options={"Colour": "red"})


def test_engines_that_cannot_start_or_never_finish_the_handshake():
    with pytest.raises(EngineTerminatedError, match="cannot start engine"):
        UciEngine(["/nonexistent/engine"])
    with pytest.raises(EngineTerminatedError, match="ended"):
        UciEngine([sys.executable, "-c", "print('id name Short')"])
    started = time.monotonic()
    with pytest.raises(EngineTimeoutError):
        UciEngine([sys.executable, "-c", "import time; time.sleep(60)"], timeout=1.0)
    assert time.monotonic() - started < 6.0
    with pytest.raises(ValueError, match="no engine command"):
        UciEngine([])


def test_an_engine_that_floods_its_output_is_held_to_the_deadlines():
    with pytest.raises(EngineTimeoutError, match=r"sent no 'uciok' within 1 s \(it sent \d+ other lines\)"):
        within(60, lambda: titan_like("--flood-on-uci", timeout=1.0))
    engine = titan_like("--flood-on-go", timeout=1.0)
    try:
        with pytest.raises(EngineTimeoutError, match="no longer answers"):  # no bestmove, no pv, no readyok
            within(60, lambda: engine.best_move(Game("four-player"), time=0.05))
        assert 0 < len(engine._last_infos) <= _KEPT_LINES
    finally:
        engine.close()


@pytest.mark.skipif(os.name != "posix", reason="non-blocking pipes")
def test_sending_to_an_engine_that_stopped_reading_raises_instead_of_blocking():
    engine = titan_like("--hang-on-go", timeout=1.0)
    try:
        engine.send("go movetime 1000")  # from here it reads nothing: its input pipe fills
        started = time.monotonic()
        with pytest.raises(EngineTerminatedError, match="does not read its input"):
            for _ in range(100):  # 100 x 8 KB: more than any pipe holds
                engine.send("isready " + "x" * 8192)
        assert time.monotonic() - started < 10.0
        within(30, engine.close)  # quit cannot be written either: it is killed
        assert engine._process.poll() is not None
    finally:
        engine.close()


def test_unread_output_is_bounded_and_close_ends_a_flooding_engine():
    engine = titan_like("--flood-on-go")
    try:
        engine.send("go movetime 1000")  # and nothing read: the queue fills, the engine waits on its pipe
        deadline = time.monotonic() + 60
        while engine._lines.qsize() < _QUEUED_LINES and time.monotonic() < deadline:
            time.sleep(0.05)
        time.sleep(0.5)  # the engine goes on printing meanwhile
        assert engine._lines.qsize() == _QUEUED_LINES
        within(60, engine.close)
        engine._reader.join(30)
        assert not engine._reader.is_alive()  # the reader waiting for room in the full queue has given up
    finally:
        engine.close()


@pytest.mark.skipif(os.name != "posix", reason="needs sh")
@pytest.mark.parametrize(
    "script",
    [
        "{engine} --ignore-quit; exit 0",  # a wrapper that does not exec the engine
        "sleep 600 & exec {engine}",
    ],
)  # a child that holds the engine's output
def test_close_ends_an_engine_behind_a_wrapper_and_what_holds_its_output(script):
    engine = UciEngine(["sh", "-c", script.format(engine=shlex.join(TITAN_LIKE))], variant="four-player")
    assert engine.name == "4pChess 0.1"
    within(60, engine.close)
    engine._reader.join(30)
    assert not engine._reader.is_alive()  # its output has ended: the engine and the sleep are gone


def test_an_engine_that_closes_its_output_but_runs_on_is_killed_and_raises():
    with titan_like("--close-stdout-on-go") as engine:
        with pytest.raises(EngineTerminatedError, match="closed its output but kept running; it has been killed"):
            within(60, lambda: engine.best_move(Game("four-player"), time=0.05))
        assert engine._process.poll() is not None
        with pytest.raises(EngineTerminatedError):
            engine.ping()


def test_an_over_long_line_is_cut():
    with titan_like("--long-name") as engine:  # an id name of a megabyte, then the rest of the handshake
        assert engine.name.startswith("4pChess 0.1!!!") and len(engine.name) < 100_000
        assert engine.dialect.name == "titan" and "Hash" in engine.options


def test_a_game_of_another_kind_is_refused_up_front():
    games = {
        "three-player": Game("three-player"),
        "four-player-ffa": Game("four-player", mode="ffa"),
        "four-player-teams-classic": Game("four-player", setup="classic"),
    }
    with titan_like() as engine:  # four-player teams, modern setup
        for kind, game in games.items():
            with pytest.raises(ValueError, match=f"'4pChess 0.1' plays four-player-teams, not {kind}$"):
                engine.best_move(game, time=0.05)
            with pytest.raises(ValueError, match=f"plays four-player-teams, not {kind}$"):
                engine.set_position(game)
        assert engine.best_move(Game("four-player"), time=0.05).move is not None
    with pytest.raises(ValueError, match="unknown variant 'five-player'"):
        UciEngine(TITAN_LIKE, variant="five-player")


def test_an_engine_that_ignores_quit_is_killed_on_close():
    engine = titan_like("--ignore-quit")
    started = time.monotonic()
    engine.close()
    assert engine._process.poll() is not None and time.monotonic() - started < 8.0


@pytest.mark.parametrize(
    "variant, mode", [("standard", None), ("three-player", None), ("four-player", "teams"), ("four-player", "ffa")]
)
def test_polychess_uci_through_the_client_on_its_clocks(variant, mode):
    game = Game(variant, mode=mode) if mode else Game(variant)
    with UciEngine(POLYCHESS, variant=variant, mode=mode) as engine:
        for _ in range(2 * len(game.colours)):
            clocks = {c: 2.0 for c in game.colours}
            command, _ = engine.go_command(game, clocks=clocks, increments={c: 0.1 for c in game.colours})
            assert all(f"{c.value[0]}time 2000" in command for c in game.colours)
            reply = engine.best_move(game, clocks=clocks, increments={c: 0.1 for c in game.colours})
            assert isinstance(reply, BestMove) and reply.move in game.legal_moves and reply.fallback is None
            assert reply.last is not None and reply.last.depth is not None and reply.seconds < 2.0
            game.push(reply.move)


def test_the_older_team_clocks_and_positions_with_points():
    game = Game(
        "four-player",
        mode="ffa",
        start=cross_position({"h1": "rK", "d2": "rP", "g14": "yK", "a8": "bK", "n8": "gK"}),
        points={"red": 4, "green": 9},
    )
    with UciEngine(POLYCHESS, variant="four-player", mode="ffa", dialect="4pc-teams-clocks") as engine:
        command, _ = engine.go_command(
            game, clocks={Colour.RED: 1.0, Colour.BLUE: 2.0, Colour.YELLOW: 3.0, Colour.GREEN: 4.0}
        )
        assert command == "go wtime 1000 winc 0 btime 2000 binc 0"
        engine.set_position(game)
        engine.send("d")
        lines = engine.read_until("Turn:", 10.0)
        assert f"Fen: {write_fen4(game.board, game.points)}" in lines


def test_an_infinite_analysis_ends_when_stopped():
    with UciEngine(POLYCHESS) as engine:
        depths: list[int] = []

        def watch(info) -> None:
            if info.depth is not None:
                depths.append(info.depth)
                if info.depth >= 5:
                    engine.stop()

        reply = engine.best_move(Game("standard"), infinite=True, info=watch)
        assert reply.move is not None and max(depths) >= 5
