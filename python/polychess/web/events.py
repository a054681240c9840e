"""Live updates: a page follows its game as server-sent events (``GET /api/games/<id>/events``,
routed by server.py). It gets ``event: state`` with the version as the event's id and the
whole state as its data, at once and at every change, and a comment every ``HEARTBEAT``
seconds. A page that reconnects gets the current state first, so it resumes where the game
is. While a page listens, the server also notices a clock running out.

Every listener holds a thread and a connection, so there are only so many
(:class:`ListenerSlots`), and a page that closes gives its slot back within ``CLOCK_CHECK``
seconds: the stream looks at its connection that often, instead of finding out only when a
heartbeat fails to reach it (which took some 30 s).
"""

from __future__ import annotations

import json
import select
import socket
import threading
import time
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from io import BufferedIOBase

from polychess.web.errors import ApiError
from polychess.web.invitations import SPECTATOR
from polychess.web.session import Session
from polychess.web.view import state

__all__ = ["ListenerSlots", "follow", "MAX_LISTENERS", "MAX_LISTENERS_PER_GAME", "MAX_LISTENERS_PER_CLIENT"]

MAX_LISTENERS = 256  # the shared pool
MAX_LISTENERS_PER_GAME = 32
MAX_LISTENERS_PER_CLIENT = 32  # one address: a person's tabs, or one script
HEARTBEAT = 15.0  # seconds between keep-alive comments on an idle event stream
CLOCK_CHECK = 1.0  # seconds between a stream's looks at the clock and at its connection
RENDER_REUSE = 0.25  # seconds for which one drawing of a state serves every page woken with it


class ListenerSlots:
    """Who may follow a game live. Anyone can make games and follow them, so that nobody can
    keep the players of other games out:

    * every seat of a game played by invitation has one slot of its own, outside the pool:
      the first page of each player is always let in;
    * every other page (a seat's second tab, a spectator, whose link may be shared widely, a
      hot-seat game, whose own page does not listen) takes a slot of the shared pool of
      ``total``;
    * one game has at most ``per_game`` pages and one client address at most ``per_client``,
      slots of its own included, so that no game and no client takes the pool alone.

    The seats' own slots make the number of listeners exceed ``total``; what bounds them in
    the end is the server's limit on connections."""

    def __init__(
        self,
        total: int = MAX_LISTENERS,
        per_game: int = MAX_LISTENERS_PER_GAME,
        per_client: int = MAX_LISTENERS_PER_CLIENT,
    ) -> None:
        self.total = total
        self.per_game = per_game
        self.per_client = per_client
        self._lock = threading.Lock()
        self._by_game: Counter[str] = Counter()
        self._by_client: Counter[str] = Counter()
        self._seated: set[tuple[str, str]] = set()  # (game, seat) whose own slot is taken
        self._shared = 0

    @property
    def in_use(self) -> int:
        """The listeners there are now."""
        with self._lock:
            return sum(self._by_game.values())

    @contextmanager
    def slot(self, game_id: str, client: str, role: str | None) -> Iterator[None]:
        """A slot for one page of the game, from ``client`` (an address), with ``role`` (a
        seat's name, "spectator", or None in a hot-seat game), for the ``with`` block; raises
        ApiError(503) saying which limit is reached."""
        own = self._take(game_id, client, role)
        try:
            yield
        finally:
            with self._lock:
                self._by_game -= Counter({game_id: 1})
                self._by_client -= Counter({client: 1})
                if own:
                    self._seated.discard((game_id, str(role)))
                else:
                    self._shared -= 1

    def _take(self, game_id: str, client: str, role: str | None) -> bool:
        """Takes a slot; whether it is the seat's own."""
        with self._lock:
            if self._by_game[game_id] >= self.per_game:
                raise ApiError(503, f"this game has {self.per_game} live pages open, the most it may; try again later")
            if self._by_client[client] >= self.per_client:
                raise ApiError(
                    503,
                    f"{self.per_client} live pages are open from your address, the most one address may; close some",
                )
            own = role not in (None, SPECTATOR) and (game_id, str(role)) not in self._seated
            if own:
                self._seated.add((game_id, str(role)))
            elif self._shared >= self.total:
                raise ApiError(503, f"the server has {self.total} live pages open, the most it takes; try again later")
            else:
                self._shared += 1
            self._by_game[game_id] += 1
            self._by_client[client] += 1
            return own


def follow(
    session: Session,
    orientation: str | None,
    role: str | None,
    connection: socket.socket,
    out: BufferedIOBase,
    closing: threading.Event,
) -> None:
    """Writes the game's state to ``out`` now and at every change until the page closes its
    ``connection`` or the server is ``closing``. OSError: the page went away mid-write."""
    sent, quiet_since = -1, time.monotonic()
    while not closing.is_set() and not _closed_by_peer(connection):
        with session.lock:
            try:
                session.check_clock()
            except ApiError:  # a flag that could not be saved: logged, the game left as stored; tried again
                pass
            if session.version == sent:
                session.changed.wait(CLOCK_CHECK)
                data = None
            else:
                sent = session.version
                data = _rendered(session, orientation, role)
        if data is not None:
            out.write(f"id: {sent}\nevent: state\ndata: {data}\n\n".encode())
            quiet_since = time.monotonic()
        elif time.monotonic() - quiet_since >= HEARTBEAT:
            out.write(b": still here\n\n")
            quiet_since = time.monotonic()
        out.flush()


def _closed_by_peer(connection: socket.socket) -> bool:
    """Whether the page has closed its side of the connection: a page sends nothing after its
    request, so a connection that reads as ended (or failed) is gone."""
    try:
        readable, _, _ = select.select([connection], [], [], 0)
        return bool(readable) and connection.recv(1, socket.MSG_PEEK) == b""
    except (OSError, ValueError):  # reset, or already closed
        return True


def _rendered(session: Session, orientation: str | None, role: str | None) -> str:
    """The state as JSON for one kind of page (its seat and orientation), drawn once for all the
    pages of that kind that a change wakes at once (fifty spectators get one drawing). Kept for
    an instant only: the clocks in it must be the clocks now. Under the session's lock."""
    cache = session.rendered
    now = time.monotonic()
    if cache.get("version") != session.version or now - float(cache.get("at", 0.0)) > RENDER_REUSE:  # type: ignore[arg-type]
        cache.clear()
        cache.update(version=session.version, at=now)
    key = f"{orientation}/{role}"
    if key not in cache:
        cache[key] = json.dumps(state(session, orientation=orientation, viewer=role))
    return str(cache[key])
