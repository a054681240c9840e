"""The games the server keeps: at most a fixed number in memory, the least recently used
dropped first, so that a page left open to make games forever cannot exhaust the memory.

With a :class:`~polychess.web.storage.GameStorage` every change of a game is saved, and a
game that is not in memory (dropped, or from before a restart) is read back from the storage
when it is asked for, its clocks going on from where they were saved."""

from __future__ import annotations

import logging
import threading
from collections import OrderedDict

from polychess.board import Colour
from polychess.formats.record import read_record
from polychess.web.errors import ApiError
from polychess.web.invitations import Invitations
from polychess.web.options import parse_seat_options
from polychess.web.session import Session
from polychess.web.storage import GameStorage, StoredGame

__all__ = ["Store", "MAX_GAMES"]

MAX_GAMES = 100
log = logging.getLogger("polychess.web")


class Store:
    """Sessions by id, least recently used first, saved to ``storage`` if given."""

    def __init__(self, capacity: int = MAX_GAMES, storage: GameStorage | None = None) -> None:
        if capacity < 1:
            raise ValueError(f"capacity must be at least 1, got {capacity}")
        self.capacity = capacity
        self.storage = storage
        self._sessions: OrderedDict[str, Session] = OrderedDict()
        self._lock = threading.Lock()

    def add(self, session: Session) -> None:
        if self.storage is not None:
            session.on_change = self._save
            self._save(session)
        with self._lock:
            self._keep(session)

    def get(self, game_id: str) -> Session:
        """The session, now the most recently used; unknown ids raise ApiError(404)."""
        with self._lock:
            session = self._sessions.get(game_id)
            if session is not None:
                self._sessions.move_to_end(game_id)
                return session
        stored = self.storage.load(game_id) if self.storage is not None else None
        if stored is None:
            kept = f"the server keeps the {self.capacity} games used last" if self.storage is None else \
                "nor stored"
            raise ApiError(404, f"no game {game_id!r} ({kept})")
        with self._lock:
            session = self._sessions.get(game_id)  # another request may have read it meanwhile
            if session is None:
                session = restore(stored)
                session.on_change = self._save
                self._keep(session)
            return session

    def _keep(self, session: Session) -> None:
        """Keeps the session in memory, dropping the least recently used beyond the capacity
        (under the lock)."""
        self._sessions[session.id] = session
        while len(self._sessions) > self.capacity:
            self._sessions.popitem(last=False)

    def save_all(self) -> None:
        """Saves every game in memory now (a server shutting down: the clocks as they stand)."""
        with self._lock:
            sessions = list(self._sessions.values())
        if self.storage is None:
            return
        for session in sessions:
            with session.lock:
                self._save(session)

    def __len__(self) -> int:
        with self._lock:
            return len(self._sessions)

    def _save(self, session: Session) -> None:
        assert self.storage is not None
        try:
            self.storage.save(stored_of(session))
        except Exception:  # a full disk must not stop the game; the log says what was lost
            log.exception("could not save game %s", session.id)


def stored_of(session: Session) -> StoredGame:
    """What a session is stored as (called under its lock)."""
    game, seats = session.game, session.seats
    clock = None
    if game.clock is not None:
        clock = {c.value: (game.clock.remaining_now(c) if c == game.turn and not game.is_over()
                           else game.clock.remaining[c]) for c in game.seats}
    seat_fields: dict[str, object] = {"engines": sorted(c.value for c in seats.engines),
                                      "engine_nodes": seats.engine_nodes, "engine_time": seats.engine_time,
                                      "engine_level": seats.engine_level}
    invitations = dict(session.invitations.digests) if session.invitations is not None else None
    return StoredGame(session.id, session.record(), seat_fields, invitations, clock, game.is_over(), session.version)


def restore(stored: StoredGame) -> Session:
    """The session of a stored game: replayed from its record, its clocks set to the times
    saved (so they were paused while it was stored)."""
    game = read_record(stored.record)
    if game.clock is not None and stored.clock is not None:
        for name, seconds in stored.clock.items():
            game.clock.remaining[Colour(name)] = float(seconds)
        game.clock.restart()
    seats = parse_seat_options(stored.seats, game.colours)
    invitations = Invitations(stored.invitations) if stored.invitations is not None else None
    session = Session.from_game(game, seats, invitations, stored.id)
    session.version = stored.version
    return session
