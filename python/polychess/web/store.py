"""The games the server keeps: at most a fixed number, the least recently used dropped first,
so that a page left open to make games forever cannot exhaust the memory."""

from __future__ import annotations

import threading
from collections import OrderedDict

from polychess.web.errors import ApiError
from polychess.web.session import Session

__all__ = ["Store", "MAX_GAMES"]

MAX_GAMES = 100


class Store:
    """Sessions by id, least recently used first."""

    def __init__(self, capacity: int = MAX_GAMES) -> None:
        if capacity < 1:
            raise ValueError(f"capacity must be at least 1, got {capacity}")
        self.capacity = capacity
        self._sessions: OrderedDict[str, Session] = OrderedDict()
        self._lock = threading.Lock()

    def add(self, session: Session) -> None:
        with self._lock:
            self._sessions[session.id] = session
            while len(self._sessions) > self.capacity:
                self._sessions.popitem(last=False)

    def get(self, game_id: str) -> Session:
        """The session, now the most recently used; unknown ids raise ApiError(404)."""
        with self._lock:
            session = self._sessions.get(game_id)
            if session is None:
                raise ApiError(404, f"no game {game_id!r} (the server keeps the {self.capacity} games used last)")
            self._sessions.move_to_end(game_id)
            return session

    def __len__(self) -> int:
        with self._lock:
            return len(self._sessions)
