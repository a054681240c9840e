"""Fair play and capacity in the browser (polychess.web: fairplay.py, session.EnginePool,
analysis.py, server.py): the engine's analysis and review of a game in progress only where it
helps nobody against a human opponent, engine seats before analyses, bounded analyses per client
and per game, reviews within a time cap, searches stopped when their page has gone, and a log
with one line a request and no secret."""

from __future__ import annotations

import json
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from polychess.web import analysis as analysis_module
from polychess.web.errors import ApiError
from polychess.web.server import WebServer
from polychess.web.session import ANALYSES_PER_CLIENT, EnginePool
from web.test_web_api import call
from web.test_web_multiplayer import act, create
from web_server import running_server

QUICK = {"lines": 1, "time": 0.05}


@pytest.fixture()
def web() -> Iterator[WebServer]:
    with running_server() as server:
        yield server


def test_no_engine_lines_against_a_human_opponent_while_the_game_runs(web: WebServer) -> None:
    # Everyone, spectators too, got the engine's best lines for the live position before.
    game_id, tokens, answer = create(web, variant="standard")
    assert answer["open_analysis"] is False
    for role in ("white", "black", "spectator"):
        for action, body in (("analysis", QUICK), ("review", {"nodes": 100})):
            reply = act(web, game_id, action, tokens[role], body)
            assert reply.status == 403, (role, action)
            assert ("spectators" if role == "spectator" else "opens when it ends") in reply.error
    state = act(web, game_id, "state", tokens["white"]).json
    assert state["analysis_refused"] and "opens when it ends" in state["analysis_refused"]
    assert act(web, game_id, "resign", tokens["black"]).status == 200  # the game ends: analysis opens to all
    for role in ("white", "black", "spectator"):
        assert act(web, game_id, "analysis", tokens[role], QUICK).status == 200, role
        assert act(web, game_id, "state", tokens[role]).json["analysis_refused"] is None


def test_analysis_where_no_human_opponent_plays_or_all_agreed(web: WebServer) -> None:
    # against engines only (a partner may be human): open to the seats, not to spectators
    game_id, tokens, _ = create(web, variant="four-player", engines=["blue", "green"])
    for seat in ("red", "yellow"):
        assert act(web, game_id, "analysis", tokens[seat], QUICK).status == 200, seat
    assert act(web, game_id, "analysis", tokens["spectator"], QUICK).status == 403
    # every player agreed when the game was made: the invitations say so, the pages show it
    game_id, tokens, answer = create(web, variant="three-player", analysis=True)
    assert answer["open_analysis"] is True
    for seat in ("white", "red", "black"):
        assert act(web, game_id, "analysis", tokens[seat], QUICK).status == 200, seat
        assert act(web, game_id, "state", tokens[seat]).json["open_analysis"] is True
    assert act(web, game_id, "analysis", tokens["spectator"], QUICK).status == 403
    # at one screen there is nobody to hide it from
    hot_seat = call(web, "POST", "/api/games", {"variant": "standard"}).json
    assert call(web, "POST", f"/api/games/{hot_seat['id']}/analysis", QUICK).status == 200
    refused = call(web, "POST", "/api/games", {"variant": "standard", "analysis": True})
    assert refused.status == 400 and "played by invitation" in refused.error


def test_the_agreement_survives_a_restart(tmp_path: Path) -> None:
    database = str(tmp_path / "games.sqlite3")
    with running_server(database) as first:
        game_id, tokens, _ = create(first, variant="standard", analysis=True)
    with running_server(database) as second:
        assert act(second, game_id, "analysis", tokens["black"], QUICK).status == 200
        assert act(second, game_id, "analysis", tokens["spectator"], QUICK).status == 403


def _holding(pool: EnginePool, game_id: str, client: str | None, release: threading.Event) -> threading.Thread:
    """A thread that takes an engine of the pool (for an analysis by ``client``, or a seat) and
    keeps it until ``release``."""
    taken = threading.Event()

    def hold() -> None:
        with pool.engine_for(game_id, for_analysis=client):
            taken.set()
            release.wait(10)

    thread = threading.Thread(target=hold, daemon=True)
    thread.start()
    assert taken.wait(10)
    return thread


def test_engine_seats_come_before_analyses() -> None:
    # 50 analyses made another game's engine move wait 25 s: now one engine of several is the
    # seats' alone, and a seat waiting for an engine is served before every analysis.
    pool = EnginePool(size=2, hash_mb=1, wait=0.3)
    release = threading.Event()
    holder = _holding(pool, "game-a", "10.0.0.1", release)
    with pytest.raises(ApiError) as refused:  # the second engine is kept for the seats
        with pool.engine_for("game-b", for_analysis="10.0.0.2"):
            pass
    assert refused.value.status == 503
    with pool.engine_for("game-c"):  # a seat gets it at once
        pass
    release.set()
    holder.join()

    pool = EnginePool(size=1, hash_mb=1, wait=5.0)
    release = threading.Event()
    holder = _holding(pool, "game-a", None, release)  # a seat searching
    order: list[str] = []

    def take(name: str, client: str | None) -> None:
        with pool.engine_for(name, for_analysis=client):
            order.append(name)

    analysis = threading.Thread(target=take, args=("analysis", "10.0.0.3"))
    analysis.start()
    time.sleep(0.1)  # the analysis waits first,
    seat = threading.Thread(target=take, args=("seat", None))
    seat.start()
    time.sleep(0.1)
    release.set()  # yet the seat that came after it goes first
    for thread in (holder, analysis, seat):
        thread.join(10)
    assert order == ["seat", "analysis"]


def test_analyses_are_bounded_per_client_and_per_game() -> None:
    pool = EnginePool(size=4, hash_mb=1, wait=5.0)
    release = threading.Event()
    held = [_holding(pool, f"game-{i}", "10.0.0.1", release) for i in range(ANALYSES_PER_CLIENT)]
    with pytest.raises(ApiError) as refused:
        with pool.engine_for("game-x", for_analysis="10.0.0.1"):
            pass
    assert refused.value.status == 429 and "analyses of yours" in refused.value.message
    release.set()
    for thread in held:
        thread.join()
    release = threading.Event()
    held = [_holding(pool, "one-game", f"10.0.1.{i}", release) for i in range(2)]
    with pytest.raises(ApiError) as refused:
        with pool.engine_for("one-game", for_analysis="10.0.1.9"):
            pass
    assert refused.value.status == 429 and "analyses of this game" in refused.value.message
    release.set()
    for thread in held:
        thread.join()
    with pool.engine_for("one-game", for_analysis="10.0.0.1"):  # every count given back
        pass


def test_a_review_stops_at_its_time_cap(web: WebServer, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(analysis_module, "MAX_REVIEW_SECONDS", 0.3)
    record = (Path(__file__).parents[1] / "data" / "pgn4" / "cc_teams_26780486.pgn4").read_text()
    game = call(web, "POST", "/api/records", {"record": record}).json
    started = time.monotonic()
    reply = call(web, "POST", f"/api/games/{game['id']}/review", {"nodes": 20_000})
    assert reply.status == 200 and reply.json["complete"] is False
    assert 0 < len(reply.json["moves"]) < len([m for m in game["moves"] if m["player"]])
    assert time.monotonic() - started < 10


def _post_and_hang_up(server: WebServer, path: str, body: dict[str, object], after: float) -> None:
    """Sends a request and closes the connection ``after`` seconds, without reading the answer."""
    data = json.dumps(body).encode()
    with socket.create_connection(("127.0.0.1", server.server_address[1])) as connection:
        connection.sendall(
            f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1:{server.server_address[1]}\r\n"
            f"Content-Type: application/json\r\nContent-Length: {len(data)}\r\n\r\n".encode()
            + data
        )
        time.sleep(after)


def test_a_search_whose_page_has_gone_is_stopped(caplog: pytest.LogCaptureFixture) -> None:
    with running_server() as web:
        web.engines = EnginePool(size=1, hash_mb=1)
        game = call(web, "POST", "/api/games", {"variant": "standard"}).json
        with caplog.at_level("INFO", logger="polychess.web"):
            _post_and_hang_up(web, f"/api/games/{game['id']}/analysis", {"lines": 1, "time": 5.0}, after=0.5)
            started = time.monotonic()
            # the engine is free again long before the 5 s the gone page asked for
            assert call(web, "POST", f"/api/games/{game['id']}/analysis", QUICK).status == 200
            assert time.monotonic() - started < 2.5
            time.sleep(0.2)
        logged = [record.getMessage() for record in caplog.records]
        analysis_lines = [line for line in logged if "/analysis" in line]
        # one line a request; no traceback, no 500 for the page that went away
        assert len(analysis_lines) == 2, logged
        assert not any(record.exc_info for record in caplog.records)
        assert not any(" 500" in line for line in logged)


def test_invitation_links_never_reach_the_log(capsys: pytest.CaptureFixture[str], caplog) -> None:
    # The console printed every link with its secret, while docs/web.md said no secret is logged.
    with running_server() as web, caplog.at_level("INFO", logger="polychess.web"):
        _, tokens, _ = create(web, variant="three-player")
    out = capsys.readouterr()
    logged = "\n".join(record.getMessage() for record in caplog.records)
    for token in tokens.values():
        assert token not in out.out and token not in out.err and token not in logged
    assert "played by invitation" in logged
