"""Where the web app keeps its games so that a restarted server serves them again: a small
interface (:class:`GameStorage`) and its SQLite implementation (the standard library's
``sqlite3``; one file).

The server keeps the games it used last in memory and reads any other from here when it is
asked for, so every stored game, finished or not, is served again after a restart.

A stored game is what it takes to rebuild its session: the game record (which replays the
game with its options), who plays which seat, the digests of its invitations, and every
player's remaining time when it was saved, so that the clocks are paused while the server is
down. Another database serves the app by implementing the same three methods.
"""

from __future__ import annotations

import json
import os
import sqlite3
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

__all__ = ["GameStorage", "SqliteStorage", "StoredGame", "default_database"]


@dataclass(frozen=True)
class StoredGame:
    id: str
    record: str                      # polychess's game record: options and every move
    seats: dict[str, object]         # the seat options, as the API takes them
    invitations: dict[str, str] | None  # role -> secret digest; None for a hot-seat game
    clock: dict[str, float] | None   # colour -> seconds left when saved; None without a clock
    finished: bool
    version: int = 0                 # the session's version: pages never take a restored game for an older one


class GameStorage(Protocol):
    def save(self, game: StoredGame) -> None:
        """Stores the game, replacing what was stored under its id."""

    def load(self, game_id: str) -> StoredGame | None:
        """The game stored under ``game_id``, or None."""

    def close(self) -> None:
        """Releases the storage."""


def default_database() -> Path:
    """The default database file: in the user's data directory ($XDG_DATA_HOME, else
    ~/.local/share; %LOCALAPPDATA% on Windows), under polychess/."""
    if os.name == "nt" and os.environ.get("LOCALAPPDATA"):
        base = Path(os.environ["LOCALAPPDATA"])
    else:
        base = Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share")
    return base / "polychess" / "web-games.sqlite3"


_SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id TEXT PRIMARY KEY,
    data TEXT NOT NULL,
    finished INTEGER NOT NULL,
    saved REAL NOT NULL
)
"""


class SqliteStorage:
    """Games in one SQLite file (created with its folder if missing). One connection, shared by
    the server's threads under a lock; every save is its own transaction."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = Path(path)
        if str(path) != ":memory:":
            self.path.parent.mkdir(parents=True, exist_ok=True)
        self._connection = sqlite3.connect(str(path), check_same_thread=False, isolation_level=None)
        self._lock = threading.Lock()
        with self._lock:
            self._connection.execute("PRAGMA journal_mode=WAL")
            self._connection.execute(_SCHEMA)

    def save(self, game: StoredGame) -> None:
        data = json.dumps({"record": game.record, "seats": game.seats, "invitations": game.invitations,
                           "clock": game.clock, "version": game.version})
        with self._lock:
            self._connection.execute(
                "INSERT INTO games (id, data, finished, saved) VALUES (?, ?, ?, ?) "
                "ON CONFLICT(id) DO UPDATE SET data = excluded.data, finished = excluded.finished, "
                "saved = excluded.saved", (game.id, data, int(game.finished), time.time()))

    def load(self, game_id: str) -> StoredGame | None:
        with self._lock:
            row = self._connection.execute("SELECT data, finished FROM games WHERE id = ?", (game_id,)).fetchone()
        if row is None:
            return None
        fields = json.loads(row[0])
        return StoredGame(game_id, fields["record"], fields["seats"], fields["invitations"], fields["clock"],
                          bool(row[1]), int(fields.get("version", 0)))

    def count(self) -> tuple[int, int]:
        """(games stored, of which unfinished)."""
        with self._lock:
            total, unfinished = self._connection.execute(
                "SELECT COUNT(*), COALESCE(SUM(finished = 0), 0) FROM games").fetchone()
        return int(total), int(unfinished)

    def close(self) -> None:
        with self._lock:
            self._connection.close()
