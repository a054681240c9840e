"""Games played by invitation (polychess.web: api.py, invitations.py, storage.py): links that
only move their own seat, spectators who only watch, offers that need everyone's consent,
live updates as server-sent events, and games that survive a restart of the server.
Without a browser: a real server on an ephemeral port, spoken to with http.client."""

from __future__ import annotations

import http.client
import json
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest

from polychess.web import events as events_module
from polychess.web import server as server_module
from polychess.web.invitations import Invitations
from polychess.web.server import WebServer
from polychess.web.storage import SqliteStorage, StoredGame
from web.test_web_api import Reply, call
from web_server import running_server

TOKEN = "X-Polychess-Token"


@pytest.fixture()
def web() -> Iterator[WebServer]:
    with running_server() as server:
        yield server


def create(server: WebServer, **options: object) -> tuple[str, dict[str, str], dict[str, Any]]:
    """A game by invitation: its id, each role's secret, the answer."""
    reply = call(server, "POST", "/api/games", {"invite": True, "engine_nodes": 200, **options})
    assert reply.status == 201, reply.body
    answer = reply.json
    tokens = {}
    for role, link in answer["invitations"].items():
        fragment = parse_qs(urlsplit(link).fragment)
        assert fragment["game"] == [answer["id"]]
        tokens[role] = fragment["token"][0]
    return answer["id"], tokens, answer


def act(server: WebServer, game_id: str, action: str, token: str | None, body: object = None) -> Reply:
    headers = {TOKEN: token} if token else {}
    if action == "state":
        return call(server, "GET", f"/api/games/{game_id}", headers=headers)
    return call(server, "POST", f"/api/games/{game_id}/{action}", {} if body is None else body, headers=headers)


def test_invitations_name_every_human_seat_and_spectators(web: WebServer) -> None:
    game_id, tokens, answer = create(web, variant="three-player", engines=["black"])
    assert set(tokens) == {"white", "red", "spectator"}
    assert all(link.startswith(web.public_url + "#game=") for link in answer["invitations"].values())
    assert len(set(tokens.values())) == 3 and all(len(t) >= 40 for t in tokens.values())
    assert answer["invited"] is True
    # The secrets are shown once: the state never carries them.
    assert not any(t in act(web, game_id, "state", tokens["white"]).body.decode() for t in tokens.values())


def test_only_a_seats_secret_moves_that_seat(web: WebServer) -> None:
    game_id, tokens, _ = create(web, variant="three-player")
    other_id, other_tokens, _ = create(web, variant="three-player")
    for token, why in (
        (None, "invitation link"),
        ("forged-secret", "not one of this game's"),
        (other_tokens["white"], "not one of this game's"),
    ):
        for action in ("state", "move"):
            reply = act(web, game_id, action, token, {"move": "E2E4"} if action == "move" else None)
            assert reply.status == 403 and why in reply.error
    assert call(web, "GET", f"/api/games/{game_id}/record").status == 403
    red = act(web, game_id, "move", tokens["red"], {"move": "E2E4"})
    assert red.status == 403 and "red's invitation moves only red" in red.error
    spectator = act(web, game_id, "move", tokens["spectator"], {"move": "E2E4"})
    assert spectator.status == 403 and "spectator cannot move" in spectator.error
    white = act(web, game_id, "move", tokens["white"], {"move": "E2E4"})
    assert white.status == 200 and white.json["turn"] == "red"
    # Only the seat to move gets legal moves; the spectator watches the same game.
    assert act(web, game_id, "state", tokens["red"]).json["legal"]
    watched = act(web, game_id, "state", tokens["spectator"]).json
    assert watched["legal"] == {} and watched["moves"][0]["text"] == "E2E4" and watched["viewer"] == "spectator"
    assert act(web, other_id, "state", other_tokens["spectator"]).json["moves"] == []  # the other game is untouched
    seats = act(web, game_id, "seats", tokens["white"], {"engines": ["black"]})
    assert seats.status == 403 and "fixed" in seats.error


def test_resigning_is_for_ones_own_seat(web: WebServer) -> None:
    game_id, tokens, _ = create(web, variant="three-player")
    assert act(web, game_id, "resign", tokens["red"], {"player": "white"}).status == 403
    assert act(web, game_id, "resign", tokens["spectator"]).status == 403
    reply = act(web, game_id, "resign", tokens["red"])
    assert reply.status == 200
    assert {s["colour"]: s["status"] for s in reply.json["seats"]}["red"] == "out"
    assert reply.json["turn"] == "white"  # the game goes on between the other two


def test_a_draw_needs_every_other_humans_consent(web: WebServer) -> None:
    game_id, tokens, _ = create(web, variant="three-player")
    offered = act(web, game_id, "offer", tokens["red"], {"kind": "draw"})
    assert offered.status == 200 and offered.json["offer"] == {
        "kind": "draw",
        "by": "red",
        "waiting_for": ["black", "white"],
    }
    assert act(web, game_id, "offer", tokens["white"], {"kind": "draw"}).status == 409  # one at a time
    assert act(web, game_id, "answer", tokens["red"], {"accept": True}).status == 409  # not asked
    assert act(web, game_id, "answer", tokens["spectator"], {"accept": True}).status == 403
    accepted = act(web, game_id, "answer", tokens["white"], {"accept": True})
    assert accepted.json["offer"]["waiting_for"] == ["black"] and accepted.json["outcome"] is None
    done = act(web, game_id, "answer", tokens["black"], {"accept": True})
    assert done.json["offer"] is None and done.json["outcome"]["termination"] == "agreement"
    # A refusal drops the offer.
    game_id, tokens, _ = create(web, variant="three-player")
    act(web, game_id, "offer", tokens["white"], {"kind": "draw"})
    refused = act(web, game_id, "answer", tokens["black"], {"accept": False})
    assert refused.json["offer"] is None and refused.json["outcome"] is None


def test_a_takeback_undoes_the_askers_last_move_and_the_moves_after_it(web: WebServer) -> None:
    game_id, tokens, _ = create(web, variant="four-player", mode="ffa")
    for seat, move in (("red", "h2h3"), ("blue", "b8c8"), ("yellow", "g13g12")):
        assert act(web, game_id, "move", tokens[seat], {"move": move}).status == 200, seat
    assert act(web, game_id, "offer", tokens["green"], {"kind": "takeback"}).status == 409  # no move of his yet
    act(web, game_id, "offer", tokens["blue"], {"kind": "takeback"})
    for seat in ("red", "yellow"):
        act(web, game_id, "answer", tokens[seat], {"accept": True})
    waiting = act(web, game_id, "state", tokens["blue"]).json
    assert len(waiting["moves"]) == 3 and waiting["offer"]["waiting_for"] == ["green"]
    back = act(web, game_id, "answer", tokens["green"], {"accept": True}).json
    assert [m["text"] for m in back["moves"]] == ["h2h3"] and back["turn"] == "blue" and back["offer"] is None
    # A move cancels a pending offer: it was about another position.
    act(web, game_id, "offer", tokens["red"], {"kind": "draw"})
    assert act(web, game_id, "move", tokens["blue"], {"move": "b8c8"}).json["offer"] is None


def test_hot_seat_games_take_no_secret(web: WebServer) -> None:
    reply = call(web, "POST", "/api/games", {"variant": "three-player"})
    game_id = reply.json["id"]
    assert reply.json["invited"] is False and "invitations" not in reply.json
    assert act(web, game_id, "move", None, {"move": "E2E4"}).status == 200
    assert act(web, game_id, "offer", None, {"kind": "draw"}).status == 409
    assert call(web, "POST", "/api/games", {"invite": "yes"}).status == 400
    assert call(web, "POST", "/api/games", {"invite": True, "engines": ["white", "red", "black"]}).status == 400


# -- live updates ---------------------------------------------------------------------------


class EventStream:
    """A server-sent event stream read with http.client."""

    def __init__(self, server: WebServer, game_id: str, token: str, source: str | None = None) -> None:
        """``source``: the loopback address to connect from (another client), e.g. 127.0.0.2."""
        self.connection = http.client.HTTPConnection(
            "127.0.0.1", server.server_address[1], timeout=20, source_address=(source, 0) if source else None
        )
        self.connection.request("GET", f"/api/games/{game_id}/events?token={token}")
        self.response = self.connection.getresponse()

    def next_state(self) -> dict[str, Any]:
        fields: dict[str, str] = {}
        while True:
            line = self.response.readline().decode()
            if not line:
                raise EOFError("the stream ended")
            line = line.rstrip("\n")
            if line == "" and "data" in fields:
                assert fields["event"] == "state" and int(fields["id"]) >= 0
                data: dict[str, Any] = json.loads(fields["data"])
                assert data["version"] == int(fields["id"])
                return data
            if line and not line.startswith(":"):
                name, _, value = line.partition(": ")
                fields[name] = value

    def close(self) -> None:
        self.response.close()  # the socket stays open while the response holds it
        self.connection.close()


def refusal(server: WebServer, game_id: str, token: str) -> tuple[int, str]:
    """The status and error of a stream that should be refused; a stream let in is closed at
    once (read to its end, it would never end)."""
    stream = EventStream(server, game_id, token)
    try:
        if stream.response.status == 200:
            return 200, "let in"
        return stream.response.status, str(json.loads(stream.response.read())["error"])
    finally:
        stream.close()


def test_every_page_sees_every_move_live(web: WebServer) -> None:
    game_id, tokens, _ = create(web, variant="three-player")
    streams = {role: EventStream(web, game_id, tokens[role]) for role in ("white", "red", "black", "spectator")}
    try:
        assert streams["white"].response.headers["Content-Type"].startswith("text/event-stream")
        assert {role: s.next_state()["moves"] for role, s in streams.items()} == {r: [] for r in streams}
        for seat, move in (("white", "E2E4"), ("red", "N11N9")):
            act(web, game_id, "move", tokens[seat], {"move": move})
            for role, stream in streams.items():
                seen = stream.next_state()
                assert seen["moves"][-1]["text"] == move, role
                assert bool(seen["legal"]) == (role == seen["turn"])
    finally:
        for stream in streams.values():
            stream.close()


def test_a_stream_needs_a_secret_and_listeners_are_bounded(web: WebServer, monkeypatch: pytest.MonkeyPatch) -> None:
    game_id, tokens, _ = create(web, variant="three-player")
    assert call(web, "GET", f"/api/games/{game_id}/events").status == 403
    assert call(web, "GET", f"/api/games/{game_id}/events?token=nope").status == 403
    monkeypatch.setattr(web.listeners, "per_game", 2)
    first, second = EventStream(web, game_id, tokens["spectator"]), EventStream(web, game_id, tokens["white"])
    try:
        first.next_state(), second.next_state()
        status, error = refusal(web, game_id, tokens["red"])
        assert status == 503 and "live pages open" in error
    finally:
        first.close()
        second.close()


def test_a_closed_page_gives_its_slot_back(web: WebServer, monkeypatch: pytest.MonkeyPatch) -> None:
    """A closed page kept its slot until a write to it failed, some 30 s of heartbeats later."""
    monkeypatch.setattr(events_module, "HEARTBEAT", 3600.0)  # no write finds out here
    monkeypatch.setattr(web.listeners, "per_game", 1)
    game_id, tokens, _ = create(web, variant="three-player")
    stream = EventStream(web, game_id, tokens["white"])
    stream.next_state()
    stream.close()
    deadline = time.monotonic() + 30
    while web.listeners.in_use:
        assert time.monotonic() < deadline, "the closed page still holds its slot"
        time.sleep(0.05)
    again = EventStream(web, game_id, tokens["white"])  # the game's one slot is free again
    try:
        assert again.next_state()["viewer"] == "white"
    finally:
        again.close()


def test_strangers_filling_the_pool_do_not_keep_a_games_players_out(
    web: WebServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Anyone can make games: 8 hot-seat games with 32 streams each filled all 256 slots, and
    every page of every game played by invitation was refused."""
    monkeypatch.setattr(web.listeners, "total", 3)
    strangers = call(web, "POST", "/api/games", {"variant": "standard"}).json["id"]
    streams = [EventStream(web, strangers, "") for _ in range(3)]
    try:
        for stream in streams:
            stream.next_state()
        game_id, tokens, _ = create(web, variant="three-player")
        for seat in ("white", "red", "black"):  # each seat has a slot of its own
            streams.append(EventStream(web, game_id, tokens[seat]))
            assert streams[-1].next_state()["viewer"] == seat
        for token in (tokens["white"], tokens["spectator"]):  # a second tab, a spectator: from the full pool
            status, error = refusal(web, game_id, token)
            assert status == 503 and "live pages open" in error
    finally:
        for stream in streams:
            stream.close()


def test_one_address_cannot_take_every_slot(web: WebServer, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(web.listeners, "per_client", 2)
    game_id, tokens, _ = create(web, variant="four-player")
    streams = [EventStream(web, game_id, tokens[seat]) for seat in ("red", "blue")]
    try:
        for stream in streams:
            stream.next_state()
        status, error = refusal(web, game_id, tokens["yellow"])
        assert status == 503 and "from your address" in error
        try:
            streams.append(EventStream(web, game_id, tokens["yellow"], source="127.0.0.2"))
        except OSError as error:
            pytest.skip(f"cannot connect from a second loopback address here: {error}")
        assert streams[-1].next_state()["viewer"] == "yellow"  # another address is let in
    finally:
        for stream in streams:
            stream.close()


def test_a_stream_notices_a_clock_running_out(web: WebServer) -> None:
    game_id, tokens, _ = create(web, variant="three-player", time_control=1)
    stream = EventStream(web, game_id, tokens["spectator"])
    try:
        assert stream.next_state()["outcome"] is None
        ended = stream.next_state()  # nobody moves: White's second runs out, noticed by the stream
        assert ended["seats"][0]["status"] == "out" and ended["turn"] == "red"
    finally:
        stream.close()


def test_fifty_spectators_and_ten_games_at_once(web: WebServer, monkeypatch: pytest.MonkeyPatch) -> None:
    """Load: 10 games, 5 spectators each; every spectator sees every move of its game."""
    monkeypatch.setattr(web.listeners, "per_client", 50)  # they all come from this machine's one address
    games = [create(web, variant="three-player") for _ in range(10)]
    streams = [
        (game_id, EventStream(web, game_id, tokens["spectator"])) for game_id, tokens, _ in games for _ in range(5)
    ]
    seen: dict[int, list[str]] = {}
    errors: list[BaseException] = []

    def watch(index: int, stream: EventStream) -> None:
        try:
            moves: list[str] = []
            while len(moves) < 3:
                moves = [m["text"] for m in stream.next_state()["moves"]]
            seen[index] = moves
        except BaseException as error:  # reported by the test below
            errors.append(error)

    watchers = [threading.Thread(target=watch, args=(i, s)) for i, (_, s) in enumerate(streams)]
    started = time.monotonic()
    try:
        for thread in watchers:
            thread.start()
        for game_id, tokens, _ in games:
            for seat, move in (("white", "E2E4"), ("red", "N11N9"), ("black", "H7H5")):
                assert act(web, game_id, "move", tokens[seat], {"move": move}).status == 200
        for thread in watchers:
            thread.join(30)
    finally:
        for _, stream in streams:
            stream.close()
    assert not errors and len(seen) == 50
    assert all(moves == ["E2E4", "N11N9", "H7H5"] for moves in seen.values())
    assert time.monotonic() - started < 30


# -- storage and restarts -------------------------------------------------------------------


def test_a_restarted_server_serves_the_game_again(tmp_path: Path) -> None:
    database = str(tmp_path / "games.sqlite3")
    with running_server(database) as first:
        game_id, tokens, _ = create(first, variant="three-player", time_control=600)
        for seat, move in (("white", "E2E4"), ("red", "N11N9")):
            act(first, game_id, "move", tokens[seat], {"move": move})
        before = act(first, game_id, "state", tokens["black"]).json
    with running_server(database) as second:
        after = act(second, game_id, "state", tokens["black"]).json
        assert after["moves"] == before["moves"] and after["turn"] == "black"
        for seat in ("white", "red"):
            assert after["clock"]["remaining"][seat] == pytest.approx(before["clock"]["remaining"][seat], abs=0.5)
        # The secrets still work, and only for their seats.
        assert act(second, game_id, "move", tokens["white"], {"move": "D2D4"}).status == 403
        assert act(second, game_id, "move", tokens["black"], {"move": "H7H5"}).status == 200
        assert act(second, game_id, "state", "forged").status == 403


def test_storage_keeps_digests_not_secrets(tmp_path: Path) -> None:
    storage = SqliteStorage(tmp_path / "nested" / "games.sqlite3")
    invitations, tokens = Invitations.create(["white"])
    storage.save(StoredGame("abc", '[Variant "three-player"]\n', {}, dict(invitations.digests), None, False))
    stored = storage.load("abc")
    assert stored is not None and stored.invitations == dict(invitations.digests)
    assert Invitations(stored.invitations).role_of(tokens["white"]) == "white"
    raw = b"".join(path.read_bytes() for path in (tmp_path / "nested").iterdir())  # the file and its log
    assert invitations.digests["white"].encode() in raw and tokens["white"].encode() not in raw
    assert storage.load("nothing") is None and storage.count() == (1, 1)
    storage.close()


def test_connections_are_bounded(web: WebServer, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(server_module, "MAX_CONNECTIONS", 2)
    held = [http.client.HTTPConnection("127.0.0.1", web.server_address[1], timeout=10) for _ in range(2)]
    try:
        for connection in held:  # two kept-alive connections, each holding its thread
            connection.request("GET", "/api/meta")
            connection.getresponse().read()
        refused = call(web, "GET", "/api/meta")
        assert refused.status == 503 and "connections open" in refused.error
    finally:
        for connection in held:
            connection.close()
    deadline = time.monotonic() + 10
    while call(web, "GET", "/api/meta").status != 200:  # the server notices the closed ones
        assert time.monotonic() < deadline


def test_secrets_stay_out_of_the_log(web: WebServer, caplog: pytest.LogCaptureFixture) -> None:
    game_id, tokens, _ = create(web, variant="three-player")
    with caplog.at_level("INFO", logger="polychess.web"):
        stream = EventStream(web, game_id, tokens["spectator"])
        stream.next_state()
        stream.close()
        call(web, "GET", f"/api/games/{game_id}/events?token={tokens['white']}x")  # a wrong one: refused
        # A request's line is written once its answer has gone, so it may follow the answer by a moment.
        deadline = time.monotonic() + 10
        while (logged := "\n".join(record.getMessage() for record in caplog.records)).count(
            f"/api/games/{game_id}/events?token="
        ) < 2:
            assert time.monotonic() < deadline, logged
            time.sleep(0.01)
    assert not any(token in logged for token in tokens.values())


def test_a_server_for_every_address_names_this_machines_address() -> None:
    from polychess.web import make_server

    server = make_server("0.0.0.0", 0)
    try:
        assert server.public_host not in ("0.0.0.0", "") and str(server.server_address[1]) in server.public_url
        # The links' address is one the server answers to (its Host check lets them in).
        assert server.own_address.is_own(f"{server.public_host.lower()}:{server.server_address[1]}")
    finally:
        server.server_close()


def test_serve_keeps_games_in_the_user_data_directory_unless_told(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    import polychess.web
    from polychess.cli import main

    calls: list[tuple[object, ...]] = []
    monkeypatch.setattr(polychess.web, "serve", lambda *args: calls.append(args))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    assert main(["serve", "--port", "0"]) == 0
    assert main(["serve", "--port", "0", "--db", str(tmp_path / "mine.sqlite3")]) == 0
    assert main(["serve", "--port", "0", "--no-db"]) == 0
    assert calls == [
        ("127.0.0.1", 0, tmp_path / "polychess" / "web-games.sqlite3"),
        ("127.0.0.1", 0, str(tmp_path / "mine.sqlite3")),
        ("127.0.0.1", 0, None),
    ]
    assert main(["serve", "--db", "x.sqlite3", "--no-db"]) == 2


def test_a_server_that_died_without_closing_loses_nothing(tmp_path: Path) -> None:
    """Every change is saved as it happens: a second server on the same file, started while
    the first has not closed (as after a crash), has the game as the first left it."""
    database = str(tmp_path / "games.sqlite3")
    with running_server(database) as first:
        game_id, tokens, _ = create(first, variant="four-player", time_control=300, increment=2)
        for seat, move in (("red", "h2h3"), ("blue", "b8c8")):
            act(first, game_id, "move", tokens[seat], {"move": move})
        act(first, game_id, "offer", tokens["yellow"], {"kind": "draw"})
        seen = act(first, game_id, "state", tokens["spectator"]).json
        with running_server(database) as second:
            again = act(second, game_id, "state", tokens["spectator"]).json
            assert again["moves"] == seen["moves"] and again["version"] == seen["version"]
            assert seen["offer"] is not None and again["offer"] is None  # a pending offer is not kept
            assert again["clock"]["remaining"]["red"] == pytest.approx(seen["clock"]["remaining"]["red"], abs=0.5)
            assert act(second, game_id, "move", tokens["yellow"], {"move": "g13g12"}).status == 200
