"""The games the server has in play: one live session per game, whatever is in memory.

**Memory.** The sessions used last are kept, at most ``capacity`` of them beyond those in use,
so that a page left open to make games forever cannot exhaust the memory. A session is in
use while a request works on it or a page follows its live updates (:meth:`Store.using`
pins it); a session in use is never dropped, so nobody ever holds a copy of a game that the
next request would read again as a second one. A dropped session is no longer live and can
never save.

**Storage** (a :class:`~polychess.web.storage.GameStorage`). A new game is stored before it
is served, and every change before it is acknowledged: a change that cannot be saved is
undone (the session goes back to what was stored last) and its request fails (500). A game
that is not in memory (dropped, or from before a restart) is read back when it is asked for.
The clock of the player to move runs while the server runs, in memory or not: a game read
back is charged the time since it was saved, or since this server started if it was saved by
an earlier run (the clocks stop while the server is down).
"""

from __future__ import annotations

import logging
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from polychess.board import Colour
from polychess.formats.record import read_record
from polychess.web.errors import ApiError
from polychess.web.invitations import Invitations
from polychess.web.options import parse_seat_options
from polychess.web.session import Session
from polychess.web.storage import GameStorage, StorageError, StoredGame

__all__ = ["Store", "MAX_GAMES"]

MAX_GAMES = 100
log = logging.getLogger("polychess.web")


class Store:
    """Sessions by id, least recently used first, saved to ``storage`` if given. ``wall_clock``
    (seconds since the epoch) dates the saves, so that a clock read back goes on right."""

    def __init__(
        self, capacity: int = MAX_GAMES, storage: GameStorage | None = None, wall_clock: Callable[[], float] = time.time
    ) -> None:
        if capacity < 1:
            raise ValueError(f"capacity must be at least 1, got {capacity}")
        self.capacity = capacity
        self.storage = storage
        self._wall_clock = wall_clock
        self.started = wall_clock()
        self._lock = threading.Lock()
        self._sessions: OrderedDict[str, Session] = OrderedDict()
        self._users: dict[str, int] = {}  # game id -> requests and pages using its session now
        self._stored: dict[str, StoredGame] = {}  # game id -> what was stored last (a failed save goes back to it)

    def add(self, session: Session) -> None:
        """Keeps a new session, stored first: a game that cannot be stored is not made (500)."""
        stored = None
        if self.storage is not None:
            stored = stored_of(session, self._wall_clock())
            self._write(stored)
            session.on_change = self._save
        with self._lock:
            self._sessions[session.id] = session
            if stored is not None:
                self._stored[session.id] = stored
            self._drop_unused()

    @contextmanager
    def using(self, game_id: str) -> Iterator[Session]:
        """The live session of the game, read back from the storage if it is not in memory, and
        kept in memory for the ``with`` block. Unknown ids raise ApiError(404); a stored game
        that cannot be read back, ApiError(500) naming it."""
        session = self._pin(game_id)
        try:
            yield session
        finally:
            with self._lock:
                self._users[game_id] -= 1
                if not self._users[game_id]:
                    del self._users[game_id]
                self._drop_unused()

    def save_all(self) -> None:
        """Saves every game in memory now (a server shutting down: the clocks as they stand)."""
        if self.storage is None:
            return
        with self._lock:
            sessions = list(self._sessions.values())
        for session in sessions:
            with session.lock:
                if self._last_stored(session) is None:  # dropped meanwhile
                    continue
                try:
                    self._write(stored_of(session, self._wall_clock()))
                except ApiError:  # logged; the game keeps what was saved at its last change
                    pass

    def __len__(self) -> int:
        with self._lock:
            return len(self._sessions)

    # -- memory -----------------------------------------------------------------------------

    def _pin(self, game_id: str) -> Session:
        with self._lock:
            session = self._sessions.get(game_id)
            if session is not None:
                return self._use(session)
        stored, read = self._read(game_id)  # outside the lock: a slow read holds up no other game
        with self._lock:
            session = self._sessions.get(game_id)
            if session is None:  # else another request read it meanwhile, and that copy is the live one
                session = read
                session.on_change = self._save
                self._sessions[game_id] = session
                self._stored[game_id] = stored
            return self._use(session)

    def _use(self, session: Session) -> Session:
        """Marks the session used now and in use (under the lock)."""
        self._sessions.move_to_end(session.id)
        self._users[session.id] = self._users.get(session.id, 0) + 1
        self._drop_unused()
        return session

    def _drop_unused(self) -> None:
        """Drops the least recently used sessions beyond the capacity that nobody is using
        (under the lock)."""
        excess = len(self._sessions) - self.capacity
        if excess <= 0:
            return
        for game_id in [game_id for game_id in self._sessions if game_id not in self._users][:excess]:
            del self._sessions[game_id]
            self._stored.pop(game_id, None)

    # -- storage ----------------------------------------------------------------------------

    def _read(self, game_id: str) -> tuple[StoredGame, Session]:
        """The stored game and a session rebuilt from it."""
        if self.storage is None:
            raise ApiError(404, f"no game {game_id!r} (the server keeps the {self.capacity} games used last)")
        try:
            stored = self.storage.load(game_id)
        except StorageError as error:
            raise _unreadable(game_id, str(error)) from None
        if stored is None:
            raise ApiError(404, f"no game {game_id!r}")
        try:
            return stored, restore(stored, self._wall_clock(), self.started)
        except ApiError as error:  # the stored seats are checked as a request's: a refusal means a damaged row
            raise _unreadable(game_id, error.message) from None
        except (ValueError, TypeError, KeyError) as error:
            raise _unreadable(game_id, str(error)) from None

    def _save(self, session: Session) -> None:
        """Saves a change of a live session (its ``on_change``, under its lock); a change that
        cannot be saved is undone and raises ApiError(500)."""
        last = self._last_stored(session)
        if last is None:
            # Sessions in use are never dropped, so this is a bug; whatever it is, a copy of a game
            # that is no longer the live one must not write over what the live one saved.
            raise RuntimeError(f"game {session.id}: a copy that is no longer live tried to save")
        try:
            stored = stored_of(session, self._wall_clock())
            self._write(stored)
        except Exception:
            session.reset_to(restore(last, self._wall_clock(), self.started))
            raise
        with self._lock:
            if self._sessions.get(session.id) is session:
                self._stored[session.id] = stored

    def _last_stored(self, session: Session) -> StoredGame | None:
        """What was stored last of a live session; None for a copy that is no longer live."""
        with self._lock:
            return self._stored.get(session.id) if self._sessions.get(session.id) is session else None

    def _write(self, stored: StoredGame) -> None:
        assert self.storage is not None
        try:
            self.storage.save(stored)
        except StorageError as error:
            log.error("game %s could not be saved: %s", stored.id, error)
            raise ApiError(
                500, f"the server could not save game {stored.id!r}, so the request was not carried out: {error}"[:400]
            ) from None


def _unreadable(game_id: str, reason: str) -> ApiError:
    """The answer about a stored game that cannot be read back (the others are served on)."""
    log.error("game %s cannot be read back: %s", game_id, reason)
    return ApiError(500, f"game {game_id!r} cannot be read back from the server's storage: {reason}"[:400])


def stored_of(session: Session, now: float) -> StoredGame:
    """What a session is stored as, its clocks read at ``now`` (called under its lock)."""
    game, seats = session.game, session.seats
    clock = None
    if game.clock is not None:
        clock = {
            c.value: (game.clock.remaining_now(c) if c == game.turn and not game.is_over() else game.clock.remaining[c])
            for c in game.seats
        }
    seat_fields: dict[str, object] = {
        "engines": sorted(c.value for c in seats.engines),
        "engine_nodes": seats.engine_nodes,
        "engine_time": seats.engine_time,
        "engine_level": seats.engine_level,
    }
    invitations = dict(session.invitations.digests) if session.invitations is not None else None
    open_analysis = session.invitations is not None and session.invitations.open_analysis
    return StoredGame(
        session.id,
        session.record()[0],
        seat_fields,
        invitations,
        clock,
        game.is_over(),
        session.version,
        now,
        open_analysis,
    )


def restore(stored: StoredGame, now: float, started: float) -> Session:
    """The session of a stored game at ``now``: replayed from its record, its clocks set to the
    times saved, less for the player to move the time the server has run since (since the save,
    or since ``started`` for a game saved before this server started)."""
    game = read_record(stored.record)
    if game.clock is not None and stored.clock is not None:
        for name, seconds in stored.clock.items():
            game.clock.remaining[Colour(name)] = float(seconds)
        running_since = started if stored.saved_at is None else max(stored.saved_at, started)
        game.clock.restart(running_for=0.0 if game.is_over() else max(0.0, now - running_since))
    seats = parse_seat_options(stored.seats, game.colours)
    invitations = Invitations(stored.invitations, stored.open_analysis) if stored.invitations is not None else None
    session = Session.from_game(game, seats, invitations, stored.id)
    session.version = stored.version
    return session
