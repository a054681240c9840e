"""The web server's games in memory and in storage (polychess.web: store.py, storage.py): one
live copy of every game whatever is in memory, clocks that run on when a game is read back,
changes acknowledged only once stored, a database checked when the server starts, and a
damaged stored game that is a clear error while the others are served on (issue 24)."""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from polychess import Game
from polychess.board import Colour
from polychess.web.options import SeatOptions
from polychess.web.session import Session
from polychess.web.storage import SqliteStorage, StorageError, StoredGame
from polychess.web.store import Store
from web.test_web_api import call
from web.test_web_multiplayer import EventStream, act, create
from web_server import running_server


class MemoryStorage:
    """A GameStorage in a dict, told by ``failing`` to refuse to save (as a full disk does)."""

    def __init__(self) -> None:
        self.games: dict[str, StoredGame] = {}
        self.failing = False

    def save(self, game: StoredGame) -> None:
        if self.failing:
            raise StorageError("the disk is full (a test)")
        self.games[game.id] = game

    def load(self, game_id: str) -> StoredGame | None:
        return self.games.get(game_id)

    def close(self) -> None:
        pass


def moves(state: dict[str, object]) -> list[str]:
    return [str(m["text"]) for m in state["moves"]]  # type: ignore[attr-defined]


# -- one live copy per game ---------------------------------------------------------------


def test_a_game_followed_by_a_page_stays_the_one_live_copy(tmp_path: Path) -> None:
    """The server dropped from memory a game whose page followed it: the page's stream kept the
    old copy, the next request read a second one from the file, the page never saw the move,
    and the old copy's clock ran out and saved itself over the stored game, move and all."""
    database = str(tmp_path / "games.sqlite3")
    with running_server(database, capacity=2) as web:
        game_id, tokens, _ = create(web, variant="three-player", time_control=15)
        stream = EventStream(web, game_id, tokens["spectator"])
        try:
            assert moves(stream.next_state()) == []
            for _ in range(3):  # more games than the server keeps in memory
                create(web, variant="three-player")
            assert act(web, game_id, "move", tokens["white"], {"move": "E2E4"}).status == 200
            assert moves(stream.next_state()) == ["E2E4"]  # (was: White's time forfeit, 15 s later)
        finally:
            stream.close()
        with running_server(database) as after_a_crash:  # the file as a server killed now leaves it
            assert moves(act(after_a_crash, game_id, "state", tokens["spectator"]).json) == ["E2E4"]


def test_a_game_in_use_stays_in_memory_and_a_dropped_copy_never_saves() -> None:
    storage = MemoryStorage()
    store = Store(capacity=1, storage=storage)
    followed = Session(Game("three-player"), SeatOptions())
    store.add(followed)
    with store.using(followed.id) as session:  # a page follows it
        store.add(Session(Game("standard"), SeatOptions()))
        store.add(Session(Game("standard"), SeatOptions()))
        with store.using(followed.id) as again:
            assert again is session is followed  # the same copy, not a second one from the storage
    store.add(Session(Game("standard"), SeatOptions()))  # nobody uses it now: it leaves memory
    assert len(store) == 1
    with store.using(followed.id) as read_back:
        assert read_back is not followed
        read_back.play("E2E4", None, None, None)
    # The dropped copy is no longer the game: it never writes over what the live one saved.
    with pytest.raises(RuntimeError, match="no longer live"):
        followed.play("E2E4", None, None, None)
    assert storage.games[followed.id].record == read_back.record()[0]


def test_a_game_read_back_has_its_clock_run_on(tmp_path: Path) -> None:
    """A game dropped from memory and read back had the clock of the player to move set back to
    what it was at the last save."""
    with running_server(str(tmp_path / "games.sqlite3"), capacity=1) as web:
        game_id, tokens, _ = create(web, variant="three-player", time_control=600)
        deadline = time.monotonic() + 30
        while (left := act(web, game_id, "state", tokens["white"]).json["clock"]["remaining"]["white"]) > 599.7:
            assert time.monotonic() < deadline
            time.sleep(0.05)
        create(web, variant="three-player")  # the game leaves memory
        read_back = act(web, game_id, "state", tokens["white"]).json
        assert read_back["clock"]["running"] == "white" and read_back["clock"]["remaining"]["white"] <= left


def test_the_clocks_run_while_a_server_runs_and_stop_while_none_does() -> None:
    now = [1000.0]
    storage = MemoryStorage()
    store = Store(capacity=1, storage=storage, wall_clock=lambda: now[0])
    game = Session(Game("three-player", time_control=600), SeatOptions())
    store.add(game)  # saved at 1000 with White to move
    store.add(Session(Game("standard"), SeatOptions()))  # it leaves memory
    now[0] = 1030.0
    with store.using(game.id) as session:
        assert session.game.clock is not None
        assert session.game.clock.remaining_now(Colour.WHITE) == pytest.approx(570, abs=1)
    # A server started at 5000 on the same storage charges White only from then on.
    now[0] = 5000.0
    restarted = Store(storage=storage, wall_clock=lambda: now[0])
    now[0] = 5010.0
    with restarted.using(game.id) as session:
        assert session.game.clock is not None
        assert session.game.clock.remaining_now(Colour.WHITE) == pytest.approx(590, abs=1)


def test_a_game_read_back_in_the_hourglass_mode_credits_the_others_when_the_mover_moves() -> None:
    # The time its clock ran while the game was out of memory counts as the mover's thinking
    # time: charged to him, and shared out among the others by the hourglass when he moves.
    now = [1000.0]
    store = Store(capacity=1, storage=MemoryStorage(), wall_clock=lambda: now[0])
    game = Session(Game("three-player", time_control=600, hourglass=True), SeatOptions())
    store.add(game)
    store.add(Session(Game("standard"), SeatOptions()))  # it leaves memory
    now[0] = 1030.0
    with store.using(game.id) as session:
        clock = session.game.clock
        assert clock is not None and clock.hourglass
        session.game.push("E2E4")
        assert clock.remaining[Colour.WHITE] == pytest.approx(570, abs=1)
        assert clock.remaining[Colour.RED] == clock.remaining[Colour.BLACK] == pytest.approx(615, abs=1)


# -- a change is acknowledged once stored ---------------------------------------------------


def test_a_change_the_database_refuses_is_not_made(tmp_path: Path) -> None:
    """Every failed save used to be only logged: the move answered 200, and was gone after a
    restart. Here another program holds the database's write lock."""
    database = tmp_path / "games.sqlite3"
    with running_server(storage=SqliteStorage(database, timeout=0.2)) as web:
        game_id, tokens, _ = create(web, variant="three-player")
        games = len(web.store)
        locker = sqlite3.connect(database, isolation_level=None)
        locker.execute("BEGIN EXCLUSIVE")
        try:
            refused = act(web, game_id, "move", tokens["white"], {"move": "E2E4"})
            assert refused.status == 500, refused.body
            assert game_id in refused.error and "database is locked" in refused.error
            assert moves(act(web, game_id, "state", tokens["white"]).json) == []
            assert call(web, "POST", "/api/games", {"variant": "standard"}).status == 500
            assert len(web.store) == games
        finally:
            locker.execute("ROLLBACK")
            locker.close()
        assert act(web, game_id, "move", tokens["white"], {"move": "E2E4"}).status == 200
    with running_server(str(database)) as again:
        assert moves(act(again, game_id, "state", tokens["white"]).json) == ["E2E4"]


def test_every_change_that_cannot_be_saved_is_undone() -> None:
    storage = MemoryStorage()
    with running_server(storage=storage) as web:
        game_id, tokens, _ = create(web, variant="three-player")
        hot_seat = call(
            web, "POST", "/api/games", {"variant": "standard", "engines": ["white"], "engine_nodes": 200}
        ).json["id"]
        timed = call(web, "POST", "/api/games", {"variant": "three-player", "time_control": 1}).json["id"]
        storage.failing = True
        stored = dict(storage.games)
        for game, token, action, body in (
            (game_id, tokens["white"], "move", {"move": "E2E4"}),
            (game_id, tokens["red"], "resign", {}),
            (game_id, tokens["black"], "offer", {"kind": "draw"}),
            (hot_seat, None, "seats", {"engines": []}),
            (hot_seat, None, "engine", {}),
        ):
            before = act(web, game, "state", token).json
            reply = act(web, game, action, token, body)
            assert reply.status == 500 and "could not save" in reply.error, (action, reply.body)
            after = act(web, game, "state", token).json
            assert {k: after[k] for k in ("moves", "seats", "offer", "outcome")} == {
                k: before[k] for k in ("moves", "seats", "offer", "outcome")
            }, action
        # White's second runs out, and the forfeit cannot be saved: the game stays as stored.
        deadline = time.monotonic() + 30
        while (reply := act(web, timed, "state", None)).status == 200:
            assert reply.json["outcome"] is None and time.monotonic() < deadline
            time.sleep(0.05)
        assert reply.status == 500 and "could not save" in reply.error
        assert storage.games == stored
        storage.failing = False
        assert moves(act(web, timed, "state", None).json) == ["timeout(white)"]


# -- damaged stored games -------------------------------------------------------------------


def test_a_damaged_stored_game_is_a_clear_error_and_the_others_play_on(tmp_path: Path) -> None:
    database = str(tmp_path / "games.sqlite3")
    with running_server(database) as first:
        damaged = [call(first, "POST", "/api/games", {"variant": "standard"}).json["id"] for _ in range(4)]
        healthy = call(first, "POST", "/api/games", {"variant": "standard"}).json["id"]
    with sqlite3.connect(database) as connection:
        (data,) = connection.execute("SELECT data FROM games WHERE id = ?", (healthy,)).fetchone()
        fields = json.loads(data)
        for game_id, broken in zip(
            damaged,
            (
                "not JSON",
                json.dumps({**fields, "record": 42}),
                json.dumps({**fields, "record": '[Variant "hexagonal"]\n\n*\n'}),
                json.dumps({**fields, "seats": {"engines": "red"}}),
            ),
            strict=True,
        ):
            connection.execute("UPDATE games SET data = ? WHERE id = ?", (broken, game_id))
    connection.close()
    with running_server(database) as second:
        for game_id in damaged:
            reply = call(second, "GET", f"/api/games/{game_id}")
            assert reply.status == 500 and f"game {game_id!r} cannot be read back" in reply.error, reply.body
        assert call(second, "POST", f"/api/games/{healthy}/move", {"move": "e2e4"}).status == 200


# -- the database, checked when the server starts --------------------------------------------


def _serve(database: Path) -> subprocess.CompletedProcess[str]:
    """``polychess serve`` on ``database``; a server that starts is stopped after 30 s."""
    command = [sys.executable, "-m", "polychess", "serve", "--port", "0", "--db", str(database)]
    try:
        return subprocess.run(command, capture_output=True, text=True, timeout=30)
    except subprocess.TimeoutExpired as expired:
        pytest.fail(f"the server started on {database.name}: {expired.stdout!r}")


def _assert_refused(database: Path, reason: str) -> None:
    result = _serve(database)
    lines = result.stderr.strip().splitlines()
    assert result.returncode == 2 and len(lines) == 1, result.stderr
    assert lines[0].startswith(f"polychess: cannot keep the games in {database}: {reason}"), lines[0]


def _games_database(path: Path, games: int = 1) -> Path:
    storage = SqliteStorage(path)
    for number in range(games):
        storage.save(StoredGame(f"game{number}", "x" * 2000, {}, None, None, False))
    storage.close()
    return path


def test_a_database_that_cannot_serve_stops_the_server_with_one_line(tmp_path: Path) -> None:
    folder = tmp_path / "folder"
    folder.mkdir()
    _assert_refused(folder, "it is a folder")
    text = tmp_path / "notes.txt"
    text.write_text("not a database\n" * 100)
    _assert_refused(text, "SQLite cannot read it (file is not a database)")
    truncated = _games_database(tmp_path / "truncated.sqlite3", games=500)
    with truncated.open("r+b") as file:
        file.truncate(truncated.stat().st_size // 2)
    _assert_refused(truncated, "SQLite cannot read it (database disk image is malformed)")
    foreign = tmp_path / "foreign.sqlite3"
    with sqlite3.connect(foreign) as connection:
        connection.execute("CREATE TABLE games (id INTEGER PRIMARY KEY, name TEXT, score REAL)")
    connection.close()
    _assert_refused(foreign, "its table 'games' is not polychess's (its columns: id, name, score)")


@contextmanager
def _read_only(path: Path) -> Iterator[None]:
    """The file made unwritable for this process: by its mode, or for root (whom modes do not
    stop) by the immutable attribute, where the file system and the capabilities allow it."""
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        chattr = shutil.which("chattr")
        if chattr is None or subprocess.run([chattr, "+i", str(path)], capture_output=True).returncode != 0:
            pytest.skip("running as root, and chattr +i cannot make a file immutable here")
        try:
            yield
        finally:
            subprocess.run([chattr, "-i", str(path)], check=True)
    else:
        path.chmod(0o444)
        try:
            yield
        finally:
            path.chmod(0o644)


def test_a_database_that_cannot_be_written_stops_the_server(tmp_path: Path) -> None:
    """Every save failed and was only logged: moves were answered 200, then lost."""
    database = _games_database(tmp_path / "games.sqlite3")
    with _read_only(database):
        _assert_refused(database, "it cannot be written (attempt to write a readonly database)")
