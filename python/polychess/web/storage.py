"""Where the web app keeps its games so that a restarted server serves them again: a small
interface (:class:`GameStorage`) and its SQLite implementation (the standard library's
``sqlite3``; one file).

The server keeps the games it used last in memory and reads any other from here when it is
asked for, so every stored game, finished or not, is served again after a restart.

A stored game is what it takes to rebuild its session: the game record (which replays the
game with its options), who plays which seat, the digests of its invitations, and every
player's remaining time at the moment it was saved (``saved_at``), so that the clock of the
player to move goes on from there. Another database serves the app by implementing the same
three methods, raising :class:`StorageError` when it cannot do what is asked.
"""

from __future__ import annotations

import json
import os
import sqlite3
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

__all__ = ["GameStorage", "SqliteStorage", "StorageError", "StoredGame", "default_database"]


class StorageError(Exception):
    """The storage cannot do what was asked: a file that is no games database of ours, a disk
    that refuses to write, a damaged stored game. The message says what."""


@dataclass(frozen=True)
class StoredGame:
    id: str
    record: str  # polychess's game record: options and every move
    seats: dict[str, object]  # the seat options, as the API takes them
    invitations: dict[str, str] | None  # role -> secret digest; None for a hot-seat game
    clock: dict[str, float] | None  # colour -> seconds left at saved_at; None without a clock
    finished: bool
    version: int = 0  # the session's version: pages never take a restored game for an older one
    saved_at: float | None = None  # when the clock was read (time.time()); None: not known
    open_analysis: bool = False  # its players agreed to engine analysis during the game


class GameStorage(Protocol):
    def save(self, game: StoredGame) -> None:
        """Stores the game, replacing what was stored under its id; raises StorageError if it cannot."""

    def load(self, game_id: str) -> StoredGame | None:
        """The game stored under ``game_id``, or None; raises StorageError if it cannot be read."""

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
_COLUMNS = ("id", "data", "finished", "saved")
# The row the check at opening writes and takes back: no game has this id (ids have no spaces).
_WRITE_CHECK_ID = "polychess write check"


class SqliteStorage:
    """Games in one SQLite file (created with its folder if missing). One connection, shared by
    the server's threads under a lock; every save is its own transaction.

    Opening checks that the file can serve: a readable SQLite database, undamaged, whose
    ``games`` table (if it has one) is ours, and which this process can write. Otherwise it
    raises :class:`StorageError` at once, instead of a server that loses every game it is given.
    ``timeout`` is how long a save waits for another program's lock on the file."""

    def __init__(self, path: str | os.PathLike[str], timeout: float = 5.0) -> None:
        self.path = Path(path)
        self._lock = threading.Lock()
        if self.path.is_dir():
            raise StorageError(f"cannot keep the games in {path}: it is a folder, not a file")
        try:
            if str(path) != ":memory:":
                self.path.parent.mkdir(parents=True, exist_ok=True)
            self._connection = sqlite3.connect(
                str(path), check_same_thread=False, isolation_level=None, timeout=timeout
            )
        except (sqlite3.Error, OSError) as error:
            raise StorageError(f"cannot keep the games in {path}: cannot open it ({error})") from None
        try:
            self._check()
        except StorageError as error:
            self._connection.close()
            raise StorageError(f"cannot keep the games in {path}: {error}") from None

    def _check(self) -> None:
        """Makes sure the file is a games database this process can write (module docstring)."""
        connection = self._connection
        try:
            verdict = [str(row[0]) for row in connection.execute("PRAGMA quick_check")]
            columns = [str(row[1]) for row in connection.execute("PRAGMA table_info(games)")]
        except sqlite3.Error as error:
            raise StorageError(f"SQLite cannot read it ({error})") from None
        if verdict != ["ok"]:
            raise StorageError(f"the database is damaged (SQLite's check: {'; '.join(verdict[:3])})")
        if columns and sorted(columns) != sorted(_COLUMNS):
            raise StorageError(f"its table 'games' is not polychess's (its columns: {', '.join(columns)})")
        try:
            connection.execute("PRAGMA journal_mode=WAL")
            connection.execute(_SCHEMA)
            # A file may open for reading only (a read-only mount, an immutable file): only a
            # write says so. This one is taken back at once.
            connection.execute("BEGIN IMMEDIATE")
            try:
                connection.execute(
                    "INSERT INTO games (id, data, finished, saved) VALUES (?, '{}', 1, 0) ON CONFLICT(id) DO NOTHING",
                    (_WRITE_CHECK_ID,),
                )
            finally:
                connection.execute("ROLLBACK")
        except sqlite3.Error as error:
            raise StorageError(f"it cannot be written ({error})") from None

    def save(self, game: StoredGame) -> None:
        data = json.dumps(
            {
                "record": game.record,
                "seats": game.seats,
                "invitations": game.invitations,
                "clock": game.clock,
                "version": game.version,
                "open_analysis": game.open_analysis,
            }
        )
        try:
            with self._lock:
                self._connection.execute(
                    "INSERT INTO games (id, data, finished, saved) VALUES (?, ?, ?, ?) "
                    "ON CONFLICT(id) DO UPDATE SET data = excluded.data, finished = excluded.finished, "
                    "saved = excluded.saved",
                    (game.id, data, int(game.finished), game.saved_at or 0.0),
                )
        except sqlite3.Error as error:
            raise StorageError(f"the database refused to write ({error})") from None

    def load(self, game_id: str) -> StoredGame | None:
        try:
            with self._lock:
                row = self._connection.execute(
                    "SELECT data, finished, saved FROM games WHERE id = ?", (game_id,)
                ).fetchone()
        except sqlite3.Error as error:
            raise StorageError(f"the database cannot be read ({error})") from None
        if row is None:
            return None
        try:
            return _decode(game_id, *row)
        except (ValueError, TypeError) as error:
            raise StorageError(f"its stored data is damaged ({error})"[:300]) from None

    def count(self) -> tuple[int, int]:
        """(games stored, of which unfinished)."""
        with self._lock:
            total, unfinished = self._connection.execute(
                "SELECT COUNT(*), COALESCE(SUM(finished = 0), 0) FROM games"
            ).fetchone()
        return int(total), int(unfinished)

    def close(self) -> None:
        with self._lock:
            self._connection.close()


def _decode(game_id: str, data: object, finished: object, saved: object) -> StoredGame:
    """A stored row as a StoredGame; ValueError or TypeError naming the first field that is not
    what save() writes."""
    if not isinstance(data, str):
        raise TypeError(f"data is {type(data).__name__}, not text")
    fields = json.loads(data)
    if not isinstance(fields, dict):
        raise TypeError("data is not a JSON object")
    kinds: dict[str, tuple[type, ...]] = {
        "record": (str,),
        "seats": (dict,),
        "invitations": (dict, type(None)),
        "clock": (dict, type(None)),
        "version": (int,),
    }
    for name, kind in kinds.items():
        if not isinstance(fields.get(name), kind):
            raise TypeError(f"{name} is {type(fields.get(name)).__name__}")
    clock = fields["clock"]
    if clock is not None and not all(isinstance(v, (int, float)) for v in clock.values()):
        raise TypeError("clock holds a time that is not a number")
    if not isinstance(saved, (int, float)):
        raise TypeError(f"saved is {type(saved).__name__}")
    open_analysis = fields.get("open_analysis", False)  # (games stored before it was an option: none)
    if not isinstance(open_analysis, bool):
        raise TypeError(f"open_analysis is {type(open_analysis).__name__}")
    return StoredGame(
        game_id,
        fields["record"],
        fields["seats"],
        fields["invitations"],
        clock,
        bool(finished),
        fields["version"],
        float(saved) if saved else None,
        open_analysis,
    )
