"""The web app's HTTP API, without a browser: a real server on an ephemeral port in a thread,
spoken to with http.client. Engine budgets are tiny (200 nodes)."""

from __future__ import annotations

import http.client
import json
import re
import selectors
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any, cast

import pytest

from polychess import Game
from polychess.board import Colour
from polychess.formats import write_record
from polychess.game import Elimination, Reason
from polychess.web import api
from polychess.web.errors import ApiError
from polychess.web.options import SeatOptions
from polychess.web.server import MAX_BODY, RequestHandler, WebServer
from polychess.web.session import Session
from polychess.web.store import Store
from polychess.web.view import _elimination_text, state
from web_server import running_server

NODES = 200
DOT = re.compile(r'class="dot[ "]')  # a target dot (the group holding them is class "dots")


@pytest.fixture(scope="module")
def server() -> Iterator[WebServer]:
    with running_server() as web:
        yield web


class Reply:
    def __init__(self, response: http.client.HTTPResponse) -> None:
        self.status = response.status
        self.headers = response.headers
        self.body = response.read()

    @property
    def json(self) -> Any:
        return json.loads(self.body)

    @property
    def error(self) -> str:
        data = self.json
        assert set(data) == {"error"}, data
        return str(data["error"])


def call(
    server: WebServer,
    method: str,
    path: str,
    body: object = None,
    raw: bytes | None = None,
    headers: dict[str, str] | None = None,
) -> Reply:
    """One request; a JSON ``body`` goes as application/json, as the page sends it."""
    connection = http.client.HTTPConnection("127.0.0.1", server.server_address[1], timeout=30)
    try:
        payload = raw if raw is not None else (None if body is None else json.dumps(body).encode())
        if body is not None and raw is None:
            headers = {"Content-Type": "application/json", **(headers or {})}
        connection.request(method, path, body=payload, headers=headers or {})
        return Reply(connection.getresponse())
    finally:
        connection.close()


def new_game(server: WebServer, **options: object) -> dict[str, Any]:
    options.setdefault("engine_nodes", NODES)
    reply = call(server, "POST", "/api/games", options)
    assert reply.status == 201, reply.body
    data: dict[str, Any] = reply.json
    return data


def post(server: WebServer, game: dict[str, Any], action: str, body: object = None) -> Reply:
    return call(server, "POST", f"/api/games/{game['id']}/{action}", {} if body is None else body)


# -- the page -------------------------------------------------------------------------------


def test_page_and_static_files(server: WebServer) -> None:
    page = call(server, "GET", "/")
    assert page.status == 200 and page.headers["Content-Type"].startswith("text/html")
    assert b'src="/static/app.js"' in page.body and b'href="/static/app.css"' in page.body
    assert "default-src 'self'" in page.headers["Content-Security-Policy"]
    for name, kind in (("app.js", "text/javascript"), ("app.css", "text/css")):
        reply = call(server, "GET", f"/static/{name}")
        assert reply.status == 200 and reply.headers["Content-Type"].startswith(kind) and reply.body
    assert call(server, "GET", "/static/secret.py").status == 404
    assert call(server, "GET", "/static/..%2f__init__.py").status == 404
    assert call(server, "HEAD", "/").status == 200


def test_meta_lists_the_seats() -> None:
    variants = api.meta()["variants"]
    assert isinstance(variants, dict)
    assert variants["three-player"] == {"colours": ["white", "red", "black"]}
    assert variants["four-player"] == {"colours": ["red", "blue", "yellow", "green"]}


# -- playing --------------------------------------------------------------------------------


def test_three_player_game_with_engine_replies(server: WebServer) -> None:
    game = new_game(server, variant="three-player", engines=["red", "black"])
    assert game["turn"] == "white" and game["human_to_move"] and not game["engine_to_move"]
    assert len(re.findall(r'class="cell (?:light|dark)"[^>]*data-cell=', game["svg"])) == 96
    assert {m["to"] for m in game["legal"]["E2"]} == {"E3", "E4"}

    game = post(server, game, "move", {"move": "E2E4"}).json
    assert game["turn"] == "red" and game["engine_to_move"] and game["legal"] == {}
    refused = post(server, game, "move", {"move": "L7L5"})
    assert refused.status == 409 and "engine" in refused.error
    for expected in ("black", "white"):
        game = post(server, game, "engine").json
        assert game["turn"] == expected
    assert [(m["number"], m["player"]) for m in game["moves"]] == [(1, "white"), (1, "red"), (1, "black")]
    refused = post(server, game, "engine")
    assert refused.status == 409 and "human" in refused.error

    game = post(server, game, "move", {"from": "d2", "to": "D4"}).json  # cell names in any case
    assert game["moves"][-1] == {"number": 2, "player": "white", "text": "D2D4", "notation": "D2D4"}
    again = call(server, "GET", f"/api/games/{game['id']}").json
    assert again["moves"] == game["moves"] and again["svg"] == game["svg"]


def test_selected_piece_shows_dots(server: WebServer) -> None:
    game = new_game(server, variant="standard")
    plain = call(server, "GET", f"/api/games/{game['id']}").json
    assert not DOT.findall(plain["svg"]) and plain["selected"] is None
    picked = call(server, "GET", f"/api/games/{game['id']}?selected=g1").json
    assert picked["selected"] == "g1" and len(DOT.findall(picked["svg"])) == 2
    # a cell without a movable piece selects nothing
    assert call(server, "GET", f"/api/games/{game['id']}?selected=e4").json["selected"] is None
    turned = call(server, "GET", f"/api/games/{game['id']}?orientation=black").json["svg"]
    assert turned != plain["svg"]


def test_four_player_free_for_all_keeps_points(server: WebServer) -> None:
    game = new_game(server, variant="four-player", mode="ffa", engines=["red", "blue", "yellow", "green"])
    assert game["mode"] == "ffa" and [s["points"] for s in game["seats"]] == [0, 0, 0, 0]
    assert len(re.findall(r'class="cell (?:light|dark)"', game["svg"])) == 160
    for _ in range(4):
        game = post(server, game, "engine").json
    assert len(game["moves"]) == 4 and game["turn"] == "red"


def test_clocks_in_the_state(server: WebServer) -> None:
    game = new_game(server, variant="three-player", time_control=60, increment=2)
    assert game["clock"]["running"] == "white"
    assert 59 < game["clock"]["remaining"]["white"] <= 60 and game["clock"]["remaining"]["red"] == 60
    game = post(server, game, "move", {"move": "E2E4"}).json
    assert game["clock"]["running"] == "red" and game["clock"]["remaining"]["white"] > 60


def test_a_flag_falls_when_the_state_is_read() -> None:
    now = [0.0]
    session = Session(Game("three-player", time_control=10, time_source=lambda: now[0]), SeatOptions())
    session.play("E2E4", None, None, None)
    now[0] = 11.0  # Red's time runs out while nobody moves
    view = state(session)
    assert view["turn"] == "black" and view["outcome"] is None  # two players play on
    assert view["moves"][-1] == {"number": 1, "player": None, "text": "timeout(red)", "notation": "timeout(red)"}  # type: ignore[index]
    assert any("Red loses on time" in entry["text"] for entry in view["log"])  # type: ignore[attr-defined]


def test_promotion_needs_a_choice(server: WebServer) -> None:
    record = '[Variant "standard"]\n[StartPosition "k7/7P/8/8/8/8/8/K7 w - - 0 1"]\n\n*\n'
    game = call(server, "POST", "/api/records", {"record": record}).json
    reply = post(server, game, "move", {"from": "h7", "to": "h8"})
    assert reply.status == 400 and "promotion" in reply.error
    assert post(server, game, "move", {"from": "h7", "to": "h8", "promotion": "X"}).status == 400
    game = post(server, game, "move", {"from": "h7", "to": "h8", "promotion": "q"}).json
    assert game["moves"][-1]["text"] == "h7h8q"
    assert {m["promotion"] for m in game["legal"].get("a8", [])} == {None}


def test_resign_and_the_message_log(server: WebServer) -> None:
    game = new_game(server, variant="three-player")
    assert post(server, game, "resign", {"player": "purple"}).status == 400
    game = post(server, game, "resign", {"player": "red"}).json
    red = next(s for s in game["seats"] if s["colour"] == "red")
    assert red["status"] == "out"
    assert game["log"][-1]["text"] == "Red resigns; the pieces stay on the board, inert."
    assert game["moves"][-1] == {"number": 1, "player": None, "text": "resign(red)", "notation": "resign(red)"}
    again = post(server, game, "resign", {"player": "red"})
    assert again.status == 409


def test_seats_can_change_hands(server: WebServer) -> None:
    game = new_game(server, variant="standard", engines=["black"])
    game = post(server, game, "move", {"move": "e2e4"}).json
    assert game["engine_to_move"]
    game = post(server, game, "seats", {"engines": []}).json
    assert game["human_to_move"] and not any(s["engine"] for s in game["seats"])
    assert post(server, game, "seats", {"engines": ["green"]}).status == 400
    assert post(server, game, "seats", {"engine_nodes": 0}).status == 400


def test_checkmate_outcome_and_places(server: WebServer) -> None:
    played = Game("standard")
    for move in ("f2f3", "e7e5", "g2g4", "d8h4"):
        played.push(move)
    game = call(server, "POST", "/api/records", {"record": write_record(played)}).json
    assert game["outcome"]["termination"] == "checkmate" and game["outcome"]["places"] == {"white": 2, "black": 1}
    # the move list in SAN, the game's own notation, beside the record's text
    assert [m["notation"] for m in game["moves"]] == ["f3", "e5", "g4", "Qh4#"]
    assert [m["text"] for m in game["moves"]] == ["f2f3", "e7e5", "g2g4", "d8h4"]
    assert [e["text"] for e in game["log"]] == [
        "White is checkmated by Black.",
        "Game over (checkmate): 1st Black, 2nd White.",
    ]
    assert post(server, game, "move", {"move": "e1e2"}).status == 409


def test_a_mated_army_passes_in_the_message() -> None:
    game = Game("three-player")
    text = _elimination_text(game, Elimination(Colour.RED, Reason.CHECKMATE, Colour.WHITE, 30))
    assert text == "Red is checkmated by White; Red's army passes to White."
    frozen = _elimination_text(game, Elimination(Colour.BLACK, Reason.STALEMATE, None, 31))
    assert "frozen" in frozen


# -- records --------------------------------------------------------------------------------


def test_record_round_trip(server: WebServer) -> None:
    game = new_game(server, variant="three-player", engines=["red", "black"], neutrality=True)
    game = post(server, game, "move", {"move": "E2E4"}).json
    game = post(server, game, "engine").json
    game = post(server, game, "engine").json
    reply = call(server, "GET", f"/api/games/{game['id']}/record")
    assert reply.status == 200 and reply.headers["Content-Type"].startswith("text/plain")
    assert "attachment" in reply.headers["Content-Disposition"]
    text = reply.body.decode()
    assert '[Variant "three-player"]' in text and '[Options "neutrality"]' in text
    assert '[Red "polychess engine"]' in text and '[White "Human"]' in text

    loaded = call(server, "POST", "/api/records", {"record": text, "engines": ["red"]})
    assert loaded.status == 201
    copy = loaded.json
    assert copy["id"] != game["id"] and copy["moves"] == game["moves"]
    assert copy["options"]["neutrality"] and copy["svg"] == game["svg"]
    assert [s["engine"] for s in copy["seats"]] == [False, True, False]


@pytest.mark.parametrize(
    "variant, mode, formats",
    [
        ("standard", None, ["own", "record", "position"]),
        ("four-player", "teams", ["own", "record", "position", "fen4"]),
        ("four-player", "ffa", ["own", "record", "position", "fen4"]),
        ("three-player", None, ["record", "position"]),
    ],
)
def test_every_format_out_loads_back_in(server: WebServer, variant: str, mode: str | None, formats: list[str]) -> None:
    options = {"variant": variant, **({"mode": mode} if mode else {})}
    game = new_game(server, **options)
    for _ in range(6):
        legal = [m["move"] for moves in game["legal"].values() for m in moves]
        game = post(server, game, "move", {"move": sorted(legal)[len(legal) // 2]}).json
    assert [e["name"] for e in game["exports"]] == formats
    for name in formats:
        reply = call(server, "GET", f"/api/games/{game['id']}/record?format={name}")
        assert reply.status == 200, (name, reply.body[:200])
        loaded = call(server, "POST", "/api/records", {"record": reply.body.decode()})
        assert loaded.status == 201, (name, loaded.body[:300])
        copy = loaded.json
        if name in ("position", "fen4"):  # the position as it stands, without the moves before it
            assert copy["variant"] == variant and not copy["moves"]
            drawn = [re.sub(r'<polygon class="lastmove"[^>]*>\n?', "", g["svg"]) for g in (copy, game)]
            assert drawn[0] == drawn[1] and copy["turn"] == game["turn"]  # the same board, the same mover
        else:
            assert (copy["variant"], copy["mode"], copy["moves"]) == (variant, game["mode"], game["moves"])
    assert call(server, "GET", f"/api/games/{game['id']}/record?format=pgn9").status == 400


def test_pgn_and_fen_pasted_load_as_standard_games(server: WebServer) -> None:
    loaded = call(server, "POST", "/api/records", {"record": "1. e4 e5 2. Nf3 Nc6 3. Bb5 *"})
    assert loaded.status == 201 and [m["notation"] for m in loaded.json["moves"]] == ["e4", "e5", "Nf3", "Nc6", "Bb5"]
    fen = "r1bqkbnr/pppp1ppp/2n5/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 3 3"
    loaded = call(server, "POST", "/api/records", {"record": fen})
    assert loaded.status == 201 and loaded.json["variant"] == "standard" and loaded.json["turn"] == "black"
    refused = call(server, "POST", "/api/records", {"record": "1. e4 zz *"})
    assert refused.status == 400 and "PGN" in refused.error and "zz" in refused.error


def test_a_chess_com_pgn4_loads(server: WebServer) -> None:
    text = (Path(__file__).parents[1] / "data" / "pgn4" / "cc_teams_519084_classic.pgn4").read_text()
    game = call(server, "POST", "/api/records", {"record": text}).json
    assert game["variant"] == "four-player" and game["mode"] == "teams" and game["setup"] == "classic"
    assert game["outcome"]["text"] == "Game over (checkmate): 1st Blue & Green, 3rd Red & Yellow."
    assert [m["player"] for m in game["moves"][:4]] == ["red", "blue", "yellow", "green"]


def test_bad_records_are_refused(server: WebServer) -> None:
    for body, status, words in (
        ({"record": ""}, 400, "record"),
        ({"record": 42}, 400, "record"),
        ({"record": '[Variant "three-player"]\n\n1. E2E5 *\n'}, 400, "line 3"),
        ({"record": '[Variant "hexagonal"]\n\n*\n'}, 400, "hexagonal"),
        ({"record": '[Variant "standard"]\n\n*\n', "engines": ["red"]}, 400, "red"),
    ):
        reply = call(server, "POST", "/api/records", body)
        assert reply.status == status and words in reply.error, reply.body


# -- refusals -------------------------------------------------------------------------------


def test_unknown_games_and_paths_are_404(server: WebServer) -> None:
    for method, path in (
        ("GET", "/api/games/nosuchgame"),
        ("POST", "/api/games/nosuchgame/move"),
        ("POST", "/api/games/nosuchgame/engine"),
        ("GET", "/api/games/nosuchgame/record"),
        ("GET", "/nothing/here"),
        ("GET", "/api/games/a%2Fb"),
    ):
        reply = call(server, method, path, {} if method == "POST" else None)
        assert reply.status == 404, (method, path)
        assert reply.error


def test_illegal_and_malformed_moves_are_400(server: WebServer) -> None:
    game = new_game(server, variant="three-player")
    for body, words in (
        ({"move": "E2E5"}, "illegal move 'E2E5'"),
        ({"move": "hello"}, "bad move text 'hello'"),
        ({"move": 42}, "move must be"),
        ({"move": "E2E4" * 10}, "move must be"),
        ({"from": "E2"}, "from and to"),
        ({"from": "Z9", "to": "E4"}, "no cell named 'Z9'"),
        ({"from": "E2", "to": "E5"}, "cannot move from E2 to E5"),
        ({"from": "E4", "to": "E5"}, "cannot move from E4 to E5"),
        ({"move": "E2E4", "player": "white"}, "unknown field 'player'"),
        ({}, "give either move"),
    ):
        reply = post(server, game, "move", body)
        assert reply.status == 400, (body, reply.body)
        assert words in reply.error, (body, reply.error)
        if isinstance(body.get("move"), str) and words.startswith(("illegal", "bad move")):
            assert reply.error.count(body["move"]) == 1, reply.error  # said once, not twice
    assert call(server, "GET", f"/api/games/{game['id']}").json["moves"] == []


def test_bad_game_options_are_400(server: WebServer) -> None:
    for body, words in (
        ({"variant": "five-player"}, "variant must be one of"),
        ({"variant": "standard", "mode": "ffa"}, "mode does not apply"),
        ({"variant": "four-player", "mode": "solo"}, "mode must be one of"),
        ({"variant": "three-player", "engines": ["blue"]}, "no seat 'blue'"),
        ({"variant": "three-player", "engines": "red"}, "engines must be a list"),
        ({"variant": "three-player", "time_control": -5}, "time_control must be between"),
        ({"variant": "three-player", "time_control": True}, "time_control must be a number"),
        ({"variant": "three-player", "increment": 3}, "increment does not apply"),
        ({"variant": "three-player", "engine_nodes": 10**9}, "engine_nodes must be between"),
        ({"variant": "three-player", "engine_nodes": 2.5}, "engine_nodes must be a whole number"),
        ({"variant": "three-player", "neutrality": "yes"}, "neutrality must be true or false"),
        ({"variant": "three-player", "colour": "red"}, "unknown field 'colour'"),
    ):
        reply = call(server, "POST", "/api/games", body)
        assert reply.status == 400, (body, reply.body)
        assert words in reply.error, (body, reply.error)


def test_malformed_json_is_400(server: WebServer) -> None:
    game = new_game(server, variant="standard")
    for raw, words in (
        (b"{not json", "malformed JSON"),
        (b"[1, 2]", "JSON object"),
        (b'"move"', "JSON object"),
        (b"\xff\xfe", "malformed JSON"),
        (b'{"time_control": NaN}', "malformed JSON"),
    ):
        for path in ("/api/games", f"/api/games/{game['id']}/move"):
            reply = call(server, "POST", path, raw=raw, headers={"Content-Type": "application/json"})
            assert reply.status == 400 and words in reply.error, (raw, path, reply.body)


def test_wrong_methods_are_405(server: WebServer) -> None:
    game = new_game(server, variant="standard")
    for method, path, allowed in (
        ("GET", f"/api/games/{game['id']}/move", "POST"),
        ("DELETE", f"/api/games/{game['id']}", "GET, HEAD"),
        ("PUT", "/api/games", "POST"),
        ("POST", "/", "GET, HEAD"),
        ("PATCH", "/api/meta", "GET, HEAD"),
    ):
        reply = call(server, method, path, {} if method != "GET" else None)
        assert reply.status == 405, (method, path)
        assert reply.headers["Allow"] == allowed and method in reply.error


def test_oversize_bodies_are_413(server: WebServer) -> None:
    # The server answers from the Content-Length alone, without reading the body.
    headers = {"Content-Length": str(MAX_BODY + 1), "Content-Type": "application/json"}
    connection = http.client.HTTPConnection("127.0.0.1", server.server_address[1], timeout=30)
    try:
        connection.putrequest("POST", "/api/games")
        for name, value in headers.items():
            connection.putheader(name, value)
        connection.endheaders(b"{}")
        reply = Reply(connection.getresponse())
    finally:
        connection.close()
    assert reply.status == 413 and str(MAX_BODY) in reply.error
    huge = {"record": "x" * (api.MAX_RECORD_CHARS + 1)}
    assert call(server, "POST", "/api/records", huge).status == 413
    assert call(server, "GET", "/api/meta").status == 200  # still serving


def test_bad_content_length_is_400(server: WebServer) -> None:
    connection = http.client.HTTPConnection("127.0.0.1", server.server_address[1], timeout=30)
    try:
        connection.putrequest("POST", "/api/games")
        connection.putheader("Content-Length", "lots")
        connection.endheaders()
        reply = Reply(connection.getresponse())
    finally:
        connection.close()
    assert reply.status == 400 and "Content-Length" in reply.error


def test_content_length_is_one_number_in_digits(server: WebServer) -> None:
    """int() read "+23" and "2_3" as 23, and of two Content-Length headers the first counted: a
    proxy in front that reads them otherwise sees another request's end."""
    body = b'{"variant": "standard"}'
    port = server.server_address[1]

    def post_with(*lengths: str) -> Reply:
        head = (
            f"POST /api/games HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\n"
            + "".join(f"Content-Length: {length}\r\n" for length in lengths)
            + "\r\n"
        )
        return send_raw(server, head.encode() + body)

    games = len(server.store)
    for lengths in (("2_3",), ("+23",), ("23", "2"), ("23", "23"), ("23, 23",)):
        reply = post_with(*lengths)
        assert reply.status == 400 and "Content-Length" in reply.error, (lengths, reply.body)
    assert len(server.store) == games
    assert post_with("23").status == 201


def test_a_body_nobody_reads_ends_the_connection(server: WebServer) -> None:
    """A GET's body would otherwise be read as the next request on the connection."""
    port = server.server_address[1]
    with socket.create_connection(("127.0.0.1", port), timeout=30) as sock:
        sock.sendall(
            f"GET /api/meta HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Length: 14\r\n\r\n".encode()
            + b"GET / HTTP/1.1"
        )
        response = http.client.HTTPResponse(sock)
        response.begin()
        assert response.status == 200
        response.read()
        assert sock.recv(100) == b""  # closed: the body was not taken for a request


def test_a_bug_is_a_500_and_the_server_lives_on(
    server: WebServer, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    def broken() -> dict[str, object]:
        raise RuntimeError("boom")

    monkeypatch.setattr(api, "meta", broken)
    with caplog.at_level("ERROR", logger="polychess.web"):
        reply = call(server, "GET", "/api/meta")
    assert reply.status == 500 and "internal server error" in reply.error and "boom" not in reply.error
    assert any("boom" in (r.exc_text or "") for r in caplog.records)
    monkeypatch.undo()
    assert call(server, "GET", "/api/meta").status == 200


def test_the_store_forgets_the_least_recently_used() -> None:
    store = Store(capacity=3)
    sessions = [Session(Game("standard"), SeatOptions()) for _ in range(4)]
    for session in sessions[:3]:
        store.add(session)
    with store.using(sessions[0].id):  # used: now the newest
        pass
    store.add(sessions[3])
    assert len(store) == 3
    with store.using(sessions[0].id) as kept:
        assert kept is sessions[0]
    with pytest.raises(ApiError) as error:
        with store.using(sessions[1].id):
            pass
    assert error.value.status == 404


def test_concurrent_engine_requests_play_once_each(server: WebServer) -> None:
    game = new_game(server, variant="three-player", engines=["white", "red", "black"])
    replies: list[int] = []

    def ask() -> None:
        replies.append(post(server, game, "engine").status)

    threads = [threading.Thread(target=ask) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    final = call(server, "GET", f"/api/games/{game['id']}").json
    assert len(final["moves"]) == replies.count(200) and set(replies) <= {200, 409}
    assert [m["player"] for m in final["moves"]] == ["white", "red", "black", "white"][: len(final["moves"])]


def test_the_command_line_has_serve() -> None:
    from polychess.cli import build_parser, main

    args = build_parser().parse_args(["serve", "--host", "127.0.0.1", "--port", "0"])
    assert (args.command, args.host, args.port) == ("serve", "127.0.0.1", 0)
    assert main(["serve", "--port", "70000"]) == 2


# -- hardening: input that used to hurt the server, and requests from other sites ------------


def send_raw(server: WebServer, data: bytes, timeout: float = 30) -> Reply:
    """Sends bytes as they are (a request http.client would not send) and reads the answer."""
    with socket.create_connection(("127.0.0.1", server.server_address[1]), timeout=timeout) as sock:
        sock.sendall(data)
        response = http.client.HTTPResponse(sock)
        response.begin()
        return Reply(response)


def post_bytes(server: WebServer, body: bytes, path: str = "/api/games", length: int | None = None) -> bytes:
    port = server.server_address[1]
    return (
        f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\n"
        f"Content-Length: {len(body) if length is None else length}\r\n\r\n"
    ).encode() + body


def test_deeply_nested_json_is_400(server: WebServer) -> None:
    for body in (b"[" * 100_000, b'{"engines": ' + b"[" * 100_000, b'{"engines": ' + b"[" * 40 + b"]" * 40 + b"}"):
        reply = send_raw(server, post_bytes(server, body))
        assert reply.status == 400 and "nested" in reply.error, (body[:20], reply.body)
    assert call(server, "GET", "/api/meta").status == 200


def test_a_body_shorter_than_its_content_length_is_400_at_once(
    server: WebServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    # raising=False: without the fix the attribute does not exist, and the server waits 60 s.
    monkeypatch.setattr(RequestHandler, "body_seconds", 0.5, raising=False)
    started = time.monotonic()
    reply = send_raw(server, post_bytes(server, b'{"variant"', length=100), timeout=10)
    assert reply.status == 400 and "10 of the 100 bytes" in reply.error, reply.body
    assert time.monotonic() - started < 5


def test_a_burst_of_connections_is_answered_every_one(server: WebServer) -> None:
    """200 connections opened at once (to 127.0.0.1 only) each get their answer: a listen
    backlog of 5 dropped most of them."""
    count, deadline = 200, time.monotonic() + 20
    port = server.server_address[1]
    request = f"GET /api/meta HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n\r\n".encode()
    selector = selectors.DefaultSelector()
    received: dict[socket.socket, bytes] = {}
    try:
        for _ in range(count):
            sock = socket.socket()
            sock.setblocking(False)
            sock.connect_ex(("127.0.0.1", port))
            selector.register(sock, selectors.EVENT_WRITE)
        while selector.get_map() and time.monotonic() < deadline:
            for key, _ in selector.select(0.1):
                sock = cast(socket.socket, key.fileobj)
                if sock not in received:  # connected (or failed): send the request
                    if sock.getsockopt(socket.SOL_SOCKET, socket.SO_ERROR):
                        selector.unregister(sock)
                        continue
                    sock.sendall(request)
                    received[sock] = b""
                    selector.modify(sock, selectors.EVENT_READ)
                    continue
                try:
                    chunk = sock.recv(4096)
                except OSError:
                    chunk = b""
                received[sock] += chunk
                if not chunk or b"\r\n\r\n" in received[sock]:
                    selector.unregister(sock)
    finally:
        for key in list(selector.get_map().values()):
            selector.unregister(key.fileobj)
        selector.close()
    answered = [data for data in received.values() if data.startswith(b"HTTP/1.1 200 ")]
    for sock in received:
        sock.close()
    assert len(answered) == count, f"{len(answered)} of {count} connections were answered"


def test_requests_for_another_host_are_403(server: WebServer) -> None:
    port = server.server_address[1]
    games = len(server.store)
    for host in ("evil.example", f"evil.example:{port}", f"127.0.0.1:{port + 1}", f"localhost.evil.example:{port}"):
        for method, path in (("GET", "/"), ("GET", "/api/meta"), ("POST", "/api/games")):
            reply = call(server, method, path, {} if method == "POST" else None, headers={"Host": host})
            assert reply.status == 403 and "is not this server" in reply.error, (host, path, reply.body)
    assert len(server.store) == games
    for host in (f"127.0.0.1:{port}", f"localhost:{port}", f"LocalHost:{port}"):
        assert call(server, "GET", "/api/meta", headers={"Host": host}).status == 200, host


def test_a_request_needs_one_host_header(server: WebServer) -> None:
    port = server.server_address[1]
    assert send_raw(server, b"GET /api/meta HTTP/1.1\r\n\r\n").status == 400
    twice = f"GET /api/meta HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nHost: evil.example\r\n\r\n".encode()
    assert send_raw(server, twice).status == 400


def test_requests_from_another_sites_page_are_403(server: WebServer) -> None:
    port = server.server_address[1]
    game = new_game(server, variant="three-player")
    for origin in (
        "http://evil.example",
        f"http://evil.example:{port}",
        "null",
        f"https://127.0.0.1:{port}",
        f"http://localhost:{port}",
        f"http://127.0.0.1:{port + 1}",
    ):
        for path, body in (("/api/games", {}), (f"/api/games/{game['id']}/resign", {"player": "white"})):
            reply = call(server, "POST", path, body, headers={"Origin": origin})
            assert reply.status == 403 and "another site" in reply.error, (origin, path, reply.body)
    assert call(server, "GET", f"/api/games/{game['id']}").json["outcome"] is None
    same = call(server, "POST", "/api/games", {"engine_nodes": NODES}, headers={"Origin": f"http://127.0.0.1:{port}"})
    assert same.status == 201


def test_post_bodies_must_be_json_415(server: WebServer) -> None:
    game = new_game(server, variant="three-player")
    games = len(server.store)
    resign = f"/api/games/{game['id']}/resign"
    for content_type in ("text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x"):
        for path in ("/api/games", resign):
            reply = call(server, "POST", path, raw=b"{}", headers={"Content-Type": content_type})
            assert reply.status == 415 and "application/json" in reply.error, (content_type, path, reply.body)
    # An empty POST without a content type (what a cross-site fetch in no-cors mode sends) would
    # resign the player to move.
    assert call(server, "POST", resign, raw=b"").status == 415
    assert len(server.store) == games
    assert call(server, "GET", f"/api/games/{game['id']}").json["outcome"] is None
    reply = call(server, "POST", "/api/games", raw=b"{}", headers={"Content-Type": "Application/JSON; charset=utf-8"})
    assert reply.status == 201


def test_the_page_sends_json_content_type() -> None:
    # The browser tests need Chromium; without it, this keeps the page's own POSTs acceptable.
    script = (Path(api.__file__).parent / "static" / "app.js").read_text()
    assert 'options.headers["Content-Type"] = "application/json";' in script


def test_the_hosts_a_server_answers_to() -> None:
    from polychess.web.server import OwnAddress

    loopback = OwnAddress.of("127.0.0.1", "127.0.0.1", 8000)
    assert all(loopback.is_own(h) for h in ("127.0.0.1:8000", "localhost:8000", "LOCALHOST:8000"))
    assert not any(
        loopback.is_own(h)
        for h in ("127.0.0.1", "localhost:8001", "192.168.1.5:8000", "evil.example:8000", "127.0.0.1:8000@evil", "")
    )
    assert OwnAddress.of("localhost", "127.0.0.1", 80).is_own("localhost")  # port 80 may be left out

    explicit = OwnAddress.of("192.168.1.5", "192.168.1.5", 8000)
    assert explicit.is_own("192.168.1.5:8000")
    assert not any(explicit.is_own(h) for h in ("localhost:8000", "127.0.0.1:8000", "10.0.0.1:8000"))

    # Bound to every address, it answers to any of them, typed as digits, and to its own names;
    # never to another name (which is how a DNS rebinding page would reach it).
    everywhere = OwnAddress.of("0.0.0.0", "0.0.0.0", 8000)
    assert all(
        everywhere.is_own(h)
        for h in ("192.168.1.5:8000", "10.0.0.1:8000", "localhost:8000", f"{socket.gethostname()}:8000", "[::1]:8000")
    )
    assert not any(everywhere.is_own(h) for h in ("evil.example:8000", "192.168.1.5:8001"))


def test_games_share_the_servers_engines(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every game used to make its own engine, and so its own 16 MB table."""
    from polychess.web import session as session_module

    made: list[object] = []

    class CountedEngine(session_module.Engine):  # type: ignore[name-defined,misc]
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            made.append(self)

    monkeypatch.setattr(session_module, "Engine", CountedEngine)
    games = 6
    with running_server() as web:
        for _ in range(games):
            game = new_game(web, variant="standard", engines=["white"])
            assert post(web, game, "engine").status == 200
        assert 1 <= len(made) < games
        assert web.engines.engines_made == len(made) <= web.engines.size


def test_the_engine_pool_lends_warm_tables_and_waits_for_a_free_engine(monkeypatch: pytest.MonkeyPatch) -> None:
    from polychess.web.session import EnginePool

    pool = EnginePool(size=1, hash_mb=1, wait=0.2)
    with pool.engine_for("game-a") as first:
        cleared: list[object] = []
        monkeypatch.setattr(first, "clear", lambda: cleared.append(first))
        with pytest.raises(ApiError) as busy:  # the only engine is searching for game a
            with pool.engine_for("game-b"):
                pass
        assert busy.value.status == 503
    with pool.engine_for("game-a") as again:
        assert again is first and cleared == []  # its own game's entries are kept
    with pool.engine_for("game-b") as other:
        assert other is first and cleared == [first]  # another game's entries are not
    assert pool.engines_made == 1

    # A request that waits gets the engine as soon as the search before it ends.
    pool = EnginePool(size=1, hash_mb=1, wait=10)
    got: list[object] = []
    with pool.engine_for("game-a") as engine:

        def wait_for_an_engine() -> None:
            with pool.engine_for("game-b") as lent:
                got.append(lent)

        waiter = threading.Thread(target=wait_for_an_engine)
        waiter.start()
        time.sleep(0.1)
        assert got == []
    waiter.join(5)
    assert got == [engine]
    with pytest.raises(ValueError):
        EnginePool(size=0)


# -- analysis -------------------------------------------------------------------------------


def _loaded(server: WebServer, name: str) -> dict[str, Any]:
    text = (Path(__file__).parents[1] / "data" / "pgn4" / name).read_text()
    reply = call(server, "POST", "/api/records", {"record": text})
    assert reply.status == 201, reply.body
    data: dict[str, Any] = reply.json
    return data


def test_analysis_of_a_ply_and_a_side_line(server: WebServer) -> None:
    game = _loaded(server, "cc_teams_26780486.pgn4")
    reply = post(server, game, "analysis", {"ply": 8, "lines": 3, "time": 0.3})
    assert reply.status == 200, reply.body
    data = reply.json
    assert data["ply"] == 8 and data["turn"] == "red" and data["depth"] >= 1 and len(data["lines"]) == 3
    moves = [line["move"] for line in data["lines"]]
    assert len(set(moves)) == 3 and all(line["pv"][0] == line["move"] for line in data["lines"])
    assert data["svg"].count('<g class="arrow" ') == 3
    best = data["lines"][0]
    assert set(best["players"]) == {"red", "blue", "yellow", "green"}
    assert best["players"]["red"] == best["players"]["yellow"]  # partners share one outlook
    assert best["players"]["red"]["win"] == pytest.approx(best["players"]["blue"]["loss"], abs=0.002)
    # a side line from there: the best move, then the analysis goes on after it
    after = post(server, game, "analysis", {"ply": 8, "line": [moves[0]], "lines": 1, "time": 0.2}).json
    assert after["turn"] == "blue" and after["line"] == [moves[0]] and len(after["lines"]) == 1
    assert any(targets for targets in after["legal"].values())


def test_analysis_requests_are_checked(server: WebServer) -> None:
    game = new_game(server, variant="three-player")
    for body, words in (
        ({"ply": 5}, "ply must be between 0 and 0"),
        ({"ply": "1"}, "ply must be a whole number"),
        ({"line": ["E2E5"]}, "line move 1 ('E2E5')"),
        ({"line": "E2E4"}, "line must be a list"),
        ({"lines": 9}, "lines must be a whole number from 1 to 5"),
        ({"time": 60}, "time must be a number of seconds"),
        ({"depth": 3}, "unknown field 'depth'"),
    ):
        reply = post(server, game, "analysis", body)
        assert reply.status == 400 and words in reply.error, (body, reply.body)


def test_review_gives_a_point_a_ply_and_the_graph(server: WebServer) -> None:
    game = new_game(server, variant="standard")
    for move in ("f2f3", "e7e5", "g2g4", "d8h4"):
        assert post(server, game, "move", {"move": move}).status == 200
    reply = post(server, game, "review", {"nodes": 1500})
    assert reply.status == 200, reply.body
    data = reply.json
    assert [m["move"] for m in data["moves"]] == ["f2f3", "e7e5", "g2g4", "d8h4"]
    assert data["moves"][2]["mark"] == "blunder"
    assert data["svg"].count("<polyline") == 2 and data["svg"].count('class="point"') == 2 * 4
    assert post(server, game, "review", {"nodes": 0}).status == 400


def test_a_line_of_the_analysis_saves_as_a_record(server: WebServer) -> None:
    loaded = call(server, "POST", "/api/records", {"record": "1. e4 e5 2. Nf3 Nc6 3. Bb5 *"})
    game_id = loaded.json["id"]
    # after 1...e5, 2.Bc4 Nf6 instead: the game to there, then the line
    reply = call(server, "GET", f"/api/games/{game_id}/record?format=own&ply=2&line=f1c4,g8f6")
    assert reply.status == 200 and "1. e4 e5 2. Bc4 Nf6" in reply.body.decode() and "Nf3" not in reply.body.decode()
    assert "line" in reply.headers["Content-Disposition"]
    position = call(server, "GET", f"/api/games/{game_id}/record?format=position&ply=1")
    assert position.body.decode().split()[:2] == ["rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR", "b"]
    for query, named in (
        ("ply=9", "ply"),
        ("ply=x", "ply"),
        ("ply=2&line=e2e4", "line move 1"),
        ("line=" + "a" * 20, "line"),
    ):
        refused = call(server, "GET", f"/api/games/{game_id}/record?format=own&{query}")
        assert refused.status == 400 and named in refused.error, query
