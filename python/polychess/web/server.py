"""The HTTP side of ``polychess serve``: the page, its static files and the JSON API, on the
standard library's threading HTTP server (one thread per request, so a thinking engine does
not hold up the page; the engine releases the GIL while it searches).

Every request is answered, whatever happens: refusals as JSON ``{"error": "..."}`` with a
4xx status, and anything unexpected as a 500 that is logged with its traceback, never as a
dead server.

Only the server's own page may use it. Any web page the user visits can send requests to
127.0.0.1, so a request is refused (403) unless its Host names this server (a page on another
name that resolves to 127.0.0.1, "DNS rebinding", sends its own name) and its Origin, when
the browser sends one, is the server's too. POST bodies must be ``application/json`` (415):
a browser sends that content type across origins only after asking first (a CORS preflight,
which this server never grants), so another site cannot post even blindly.

==========================================  ======  ==============================================
path                                        method  what
==========================================  ======  ==============================================
``/``, ``/static/app.js|app.css``           GET     the page
``/api/meta``                               GET     variants and their seats, engine limits
``/api/games``                              POST    a new game from the form's options (201)
``/api/records``                            POST    a game from a record: {"record": text, ...} (201)
``/api/games/<id>``                         GET     the game's state (``?selected=E2`` adds dots)
``/api/games/<id>/move``                    POST    a human's move: {"move": "E2E4"} or {"from", "to", "promotion"}
``/api/games/<id>/engine``                  POST    the engine plays the seat to move
``/api/games/<id>/analysis``                POST    best lines: {"ply": N, "line": [moves], "lines": 3, "time": 1}
``/api/games/<id>/review``                  POST    every move judged, the evaluation graph: {"nodes": 3000}
``/api/games/<id>/seats``                   POST    who plays which seat: {"engines": ["red"], "engine_level": N}
``/api/games/<id>/resign``                  POST    {"player": "red"} resigns
``/api/games/<id>/offer``                   POST    {"kind": "draw" | "takeback"} (games by invitation)
``/api/games/<id>/answer``                  POST    {"accept": true | false} to the pending offer
``/api/games/<id>/events``                  GET     live updates: the state at every change (server-sent events)
``/api/games/<id>/record``                  GET     the game as a download: ?format=own|record|position|fen4
                                                    (&ply=N&line=m1,m2: to a ply, then a side line)
==========================================  ======  ==============================================

Every answer about a game is its whole state (see view.py); ``?orientation=red`` turns the
board to a seat. A game played by invitation (api.py) takes its secret in the
``X-Polychess-Token`` header, or as ``?token=`` on ``/events`` (a browser's EventSource sends
no headers); the server never writes a secret to its log.

Live updates are server-sent events (events.py), bounded per game, per client address and in
all (503 beyond), every seat of a game played by invitation keeping a slot of its own.

A request's body is framed by one Content-Length of plain digits; anything else (chunked, two
lengths, ``+5``, ``1_0``) is refused, since a proxy in front could read it differently.
"""

from __future__ import annotations

import ipaddress
import json
import logging
import re
import select
import socket
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, cast
from urllib.parse import parse_qsl, urlsplit

from polychess.web import api
from polychess.web.analysis import Cancellation
from polychess.web.errors import ApiError
from polychess.web.events import ListenerSlots, follow
from polychess.web.session import EnginePool
from polychess.web.storage import GameStorage
from polychess.web.store import MAX_GAMES, Store

__all__ = ["WebServer", "make_server", "serve", "MAX_BODY"]

log = logging.getLogger("polychess.web")

MAX_BODY = 1 << 20  # a long record is some tens of kilobytes
BODY_SECONDS = 10.0  # for the whole body; a megabyte takes well under a second on a LAN
# The API's bodies are two levels deep ({"engines": [...]}); far deeper nesting is an attack.
MAX_JSON_DEPTH = 16
# Open connections in all (each holds a thread); one more is answered 503 and closed.
MAX_CONNECTIONS = 512
TOKEN_HEADER = "X-Polychess-Token"
_CLIENT_WATCH_SECONDS = 0.1  # how often a long request looks whether its client is still there
_TOKEN_IN_PATH = re.compile(r"(token=)[^&\s]*")
STATIC = Path(__file__).parent / "static"
_STATIC_TYPES = {
    "index.html": "text/html; charset=utf-8",
    "app.js": "text/javascript; charset=utf-8",
    "app.css": "text/css; charset=utf-8",
}
# The page loads nothing from elsewhere; the board's SVG may carry style attributes.
_CSP = "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; frame-ancestors 'none'"
_GAME = r"/api/games/(?P<id>[A-Za-z0-9_-]{1,32})"

Json = dict[str, object]
Handler = Callable[["RequestHandler", dict[str, str]], None]


class WebServer(ThreadingHTTPServer):
    """The HTTP server with the games it keeps and the engines they share."""

    daemon_threads = True  # a request still running does not keep the process alive
    # The listen backlog: a burst of connections (tabs reopened at once, a script) waits in the
    # kernel's queue while threads are started for them, instead of being dropped once more
    # than the standard library's 5 are waiting. Linux caps it at net.core.somaxconn.
    request_queue_size = 1024

    def __init__(
        self,
        address: tuple[str, int],
        capacity: int = MAX_GAMES,
        storage: GameStorage | None = None,
        public_host: str | None = None,
    ) -> None:
        super().__init__(address, RequestHandler)
        self.store = Store(capacity, storage)
        self.engines = EnginePool()
        host, port = self.server_address[:2]
        self.own_address = OwnAddress.of(address[0], host if isinstance(host, str) else host.decode(), port)
        # The address the invitation links name: the one the server was asked to listen on,
        # or for every address (0.0.0.0) this machine's address on its network.
        self.public_host = public_host or _public_host(address[0], host if isinstance(host, str) else host.decode())
        self.closing = threading.Event()
        self.listeners = ListenerSlots()
        self._connections: set[socket.socket] = set()
        self._connections_lock = threading.Lock()

    @property
    def url(self) -> str:
        host, port = self.server_address[:2]
        host = host if isinstance(host, str) else host.decode()
        return f"http://{'[' + host + ']' if ':' in host else host}:{port}/"

    @property
    def public_url(self) -> str:
        """The server's address as the invitation links give it."""
        host = self.public_host
        return f"http://{'[' + host + ']' if ':' in host else host}:{self.server_address[1]}/"

    def shutdown(self) -> None:
        self.closing.set()  # the event streams end, so their threads do not outlive the server
        super().shutdown()

    def server_close(self) -> None:
        """Stops listening and ends every open connection: a closed server serves nobody, not
        even a browser's kept-alive connection (which would reach a stale copy of its games)."""
        self.closing.set()
        super().server_close()
        with self._connections_lock:
            for connection in self._connections:
                try:
                    connection.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass
        if self.store.storage is not None:
            self.store.save_all()
            self.store.storage.close()

    def verify_request(self, request: Any, client_address: Any) -> bool:
        """Takes a connection only while fewer than MAX_CONNECTIONS are open; else tells it so."""
        with self._connections_lock:
            if len(self._connections) < MAX_CONNECTIONS:
                return True
        body = json.dumps({"error": f"the server has {MAX_CONNECTIONS} connections open; try again shortly"})
        try:
            request.sendall(
                f"HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json\r\n"
                f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n{body}".encode()
            )
        except OSError:
            pass
        return False

    def process_request(self, request: Any, client_address: Any) -> None:
        with self._connections_lock:  # counted before its thread starts, so a burst is counted too
            self._connections.add(request)
        super().process_request(request, client_address)

    def process_request_thread(self, request: Any, client_address: Any) -> None:
        try:
            super().process_request_thread(request, client_address)
        finally:
            with self._connections_lock:
                self._connections.discard(request)


@dataclass(frozen=True)
class OwnAddress:
    """The names by which a browser may reach this server: ``names`` on ``port``, and with
    ``any_ip`` any IP address (a server on 0.0.0.0 is reached by whichever address of the
    machine; an address typed as digits cannot be a rebinding attacker's name)."""

    names: frozenset[str]
    port: int
    any_ip: bool = False

    @classmethod
    def of(cls, requested: str, bound: str, port: int) -> OwnAddress:
        """The names of a server asked to listen on ``requested`` and bound to ``bound``."""
        names = {requested.strip("[]").lower(), bound.lower()} - {""}
        if bound in ("0.0.0.0", "::", ""):
            names -= {"0.0.0.0", "::"}
            names |= {"localhost", "127.0.0.1", socket.gethostname().lower()} - {""}
            return cls(frozenset(names), port, any_ip=True)
        if _is_loopback(bound):
            names |= {"localhost", "127.0.0.1"}
        return cls(frozenset(names), port)

    def is_own(self, netloc: str) -> bool:
        """Whether a Host header (``name[:port]``) names this server."""
        split = _split_netloc(netloc)
        if split is None or split[1] != self.port:
            return False
        return split[0] in self.names or (self.any_ip and _is_ip(split[0]))

    def describe(self) -> str:
        hosts = [f"[{name}]" if ":" in name else name for name in sorted(self.names)]
        listed = ", ".join(f"{host}:{self.port}" for host in hosts)
        return f"{listed} or any IP address of this machine" if self.any_ip else listed


class RequestHandler(BaseHTTPRequestHandler):
    server_version = "polychess"
    protocol_version = "HTTP/1.1"
    timeout = 60  # a client that stops sending mid-request frees its thread
    unread_body = 0  # bytes of the request's body not read yet
    body_seconds = BODY_SECONDS  # a class attribute, so that a test can shorten it

    # -- dispatch -------------------------------------------------------------------------

    def do_GET(self) -> None:
        self._dispatch("GET")

    def do_HEAD(self) -> None:
        self._dispatch("HEAD")

    def do_POST(self) -> None:
        self._dispatch("POST")

    def do_PUT(self) -> None:
        self._dispatch("PUT")

    def do_DELETE(self) -> None:
        self._dispatch("DELETE")

    def do_PATCH(self) -> None:
        self._dispatch("PATCH")

    def do_OPTIONS(self) -> None:
        self._dispatch("OPTIONS")

    def _dispatch(self, method: str) -> None:
        self._status: int | None = None  # the answer's, logged once the request is done
        self._dispatching = True
        gone = False
        try:
            self._require_own_origin()
            self.unread_body = self._body_length()
            path = urlsplit(self.path).path
            handler, params = _route(method, path)
            handler(self, params)
            if self.unread_body:  # a body nobody asked for (a GET's) must not be taken for the next request
                self.close_connection = True
        except ApiError as error:
            self._error(error.status, error.message)
        except ConnectionError:  # the page closed (mid-analysis, say) before its answer was written
            self.close_connection = gone = True
        except Exception:  # a bug: answer, log it and keep serving
            log.exception("%s %s failed", method, _TOKEN_IN_PATH.sub(r"\1…", self.path))
            self._error(500, "internal server error (the server log has the details)")
        finally:
            self._dispatching = False
            self._log_done(gone)

    def log_request(self, code: int | str = "-", size: int | str = "-") -> None:
        # Within a request kept for _log_done: one line a request, once its fate is known.
        if getattr(self, "_dispatching", False):
            self._status = int(code) if str(code).isdigit() else None
        else:  # a request line that could not be read at all
            super().log_request(code, size)

    def _log_done(self, gone: bool) -> None:
        status = "-" if self._status is None else str(self._status)
        self.log_message('"%s" %s%s', self.requestline, status, " (the client went away first)" if gone else "")

    def _require_own_origin(self) -> None:
        """Refuses a request that does not name this server (DNS rebinding) or comes from
        another site's page (cross-site request forgery)."""
        own = cast(WebServer, self.server).own_address
        hosts = self.headers.get_all("Host") or []
        if len(hosts) != 1:
            self.close_connection = True
            raise ApiError(400, "a request needs exactly one Host header")
        host = hosts[0]
        if not own.is_own(host):
            raise ApiError(403, f"Host {host[:100]!r} is not this server (it answers to {own.describe()})"[:400])
        origins = self.headers.get_all("Origin") or []
        if len(origins) > 1:
            raise ApiError(403, "a request may carry one Origin header")
        # The page uses relative URLs, so its requests come from the very origin it was read from.
        if origins and not _same_origin(origins[0], host):
            raise ApiError(403, f"requests from another site's page are refused (Origin {origins[0][:100]!r})")

    @property
    def store(self) -> Store:
        return cast(WebServer, self.server).store

    @property
    def engines(self) -> EnginePool:
        return cast(WebServer, self.server).engines

    @property
    def query(self) -> dict[str, str]:
        return dict(parse_qsl(urlsplit(self.path).query))

    @property
    def client(self) -> str:
        """The client's address, which the engine pool's limits on analyses count by."""
        return str(self.client_address[0])

    @property
    def token(self) -> str | None:
        """The game secret the request carries: in its header, or (event streams) its query."""
        return self.headers.get(TOKEN_HEADER) or self.query.get("token")

    # -- reading --------------------------------------------------------------------------

    def _body_length(self) -> int:
        """The length of the request's body: its one Content-Length, in plain digits (0 without
        one). Any other framing is refused: a server and a proxy in front of it that read a
        request's end differently would take the rest of it for another request. (Every refusal
        closes the connection, the body unread.)"""
        if "chunked" in self.headers.get("Transfer-Encoding", "").lower():
            raise ApiError(411, "send the body with a Content-Length, not chunked")
        lengths = self.headers.get_all("Content-Length") or []
        if len(lengths) > 1:
            raise ApiError(400, f"a request may carry one Content-Length header, not {len(lengths)}")
        text = lengths[0].strip() if lengths else "0"
        if not (text.isascii() and text.isdigit()):
            raise ApiError(400, f"Content-Length must be a number of bytes in digits, got {text[:20]!r}")
        length = int(text)
        if length > MAX_BODY:
            raise ApiError(413, f"the body is {length} bytes; the limit is {MAX_BODY}")
        return length

    def read_json(self) -> Json:
        """The request body as a JSON object (an empty body is an empty object)."""
        length, self.unread_body = self.unread_body, 0
        # Checked even for an empty body: an empty POST resigns or moves for the player to move.
        if self.headers.get_content_type() != "application/json":
            self.close_connection = True
            given = self.headers.get("Content-Type")
            raise ApiError(
                415, "send the body with Content-Type: application/json" + (f", not {given[:60]!r}" if given else "")
            )
        body = self._read_body(length) if length else b""
        if not body.strip():
            return {}
        try:
            data = json.loads(body.decode("utf-8"), parse_constant=_refuse_constant)
        except RecursionError:
            raise ApiError(400, f"the JSON is nested more than {MAX_JSON_DEPTH} levels deep") from None
        except (UnicodeDecodeError, ValueError) as error:
            raise ApiError(400, f"malformed JSON: {error}") from None
        # json.loads only gives up near Python's recursion limit; a structure just inside it
        # would still overflow whatever walks it next (the repr in an error message).
        if _deeper_than(data, MAX_JSON_DEPTH):
            raise ApiError(400, f"the JSON is nested more than {MAX_JSON_DEPTH} levels deep")
        if not isinstance(data, dict):
            raise ApiError(400, f"the body must be a JSON object, not {type(data).__name__}")
        return data

    def _read_body(self, length: int) -> bytes:
        """The body's ``length`` bytes, within ``body_seconds`` in all: a Content-Length that
        promises more than the client sends must not hold the thread for the whole idle timeout
        (nor a body dribbled a byte at a time)."""
        deadline = time.monotonic() + self.body_seconds
        chunks: list[bytes] = []
        received = 0
        try:
            while received < length:
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    break
                self.connection.settimeout(remaining)
                chunk = self.rfile.read1(length - received)
                if not chunk:  # the client closed its side
                    break
                chunks.append(chunk)
                received += len(chunk)
        except (TimeoutError, ConnectionError):  # answered below as a short body
            pass
        finally:
            self.connection.settimeout(self.timeout)
        if received < length:
            self.close_connection = True
            raise ApiError(
                400,
                f"the body ended after {received} of the {length} bytes of its Content-Length "
                f"(waited {self.body_seconds:g} s)",
            )
        return b"".join(chunks)

    # -- writing --------------------------------------------------------------------------

    def send_json(self, status: int, data: Json) -> None:
        self.send_body(status, json.dumps(data).encode(), "application/json")

    def send_body(self, status: int, body: bytes, content_type: str, extra: dict[str, str] | None = None) -> None:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.send_header("X-Content-Type-Options", "nosniff")
        self.send_header("Content-Security-Policy", _CSP)
        for name, value in (extra or {}).items():
            self.send_header(name, value)
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def _error(self, status: int, message: str, extra: dict[str, str] | None = None) -> None:
        # The body of a refused request may be unread, and would be taken for the next request.
        self.close_connection = True
        try:
            self.send_body(status, json.dumps({"error": message}).encode(), "application/json", extra)
        except OSError:  # the client has gone; nothing left to tell it
            self.close_connection = True

    def log_message(self, format: str, *args: object) -> None:
        # A request line may carry a game's secret (?token=, on event streams): never logged.
        log.info("%s %s", self.address_string(), _TOKEN_IN_PATH.sub(r"\1…", format % args))


# -- the routes ---------------------------------------------------------------------------


def _page(handler: RequestHandler, params: dict[str, str]) -> None:
    _static(handler, {"name": "index.html"})


def _static(handler: RequestHandler, params: dict[str, str]) -> None:
    name = params["name"]
    if name not in _STATIC_TYPES:
        raise ApiError(404, f"no file {name!r}")
    handler.send_body(200, (STATIC / name).read_bytes(), _STATIC_TYPES[name])


def _meta(handler: RequestHandler, params: dict[str, str]) -> None:
    handler.send_json(200, api.meta())


def _new_game(handler: RequestHandler, params: dict[str, str]) -> None:
    _send_new(handler, *api.new_game(handler.store, handler.read_json(), _public_url(handler)))


def _load(handler: RequestHandler, params: dict[str, str]) -> None:
    _send_new(handler, *api.load_record(handler.store, handler.read_json(), _public_url(handler)))


def _public_url(handler: RequestHandler) -> str:
    return cast(WebServer, handler.server).public_url


def _send_new(handler: RequestHandler, status: int, answer: dict[str, object]) -> None:
    """The answer about a new game. Its invitation links go to the page that asked only: the
    console is a log (often kept in a file), and the server writes no secret to its log."""
    if "invitations" in answer:
        roles = ", ".join(cast(dict[str, str], answer["invitations"]))
        log.info("game %s made, played by invitation (%s); the links went to its maker's page", answer["id"], roles)
    handler.send_json(status, answer)


def _get_game(handler: RequestHandler, params: dict[str, str]) -> None:
    handler.send_json(*api.get_game(handler.store, params["id"], handler.query, handler.token))


def _move(handler: RequestHandler, params: dict[str, str]) -> None:
    handler.send_json(*api.move(handler.store, params["id"], handler.read_json(), handler.query, handler.token))


def _engine(handler: RequestHandler, params: dict[str, str]) -> None:
    handler.send_json(
        *api.engine(handler.store, handler.engines, params["id"], handler.read_json(), handler.query, handler.token)
    )


def _analysis(handler: RequestHandler, params: dict[str, str]) -> None:
    data = handler.read_json()
    with _client_watch(handler) as cancel:
        answer = api.analysis(
            handler.store, handler.engines, params["id"], data, handler.query, handler.token, handler.client, cancel
        )
    handler.send_json(*answer)


def _review(handler: RequestHandler, params: dict[str, str]) -> None:
    data = handler.read_json()
    with _client_watch(handler) as cancel:
        answer = api.review(handler.store, handler.engines, params["id"], data, handler.token, handler.client, cancel)
    handler.send_json(*answer)


@contextmanager
def _client_watch(handler: RequestHandler) -> Iterator[Cancellation]:
    """A cancellation raised when the request's client closes its connection while the ``with``
    block searches for it: nobody is left to read the answer, and the engine is wanted elsewhere.
    (Bytes the client sends meanwhile, a next request on the connection, end the watch: they
    say the client is there.)"""
    cancel = Cancellation()
    done = threading.Event()

    def watch() -> None:
        connection = handler.connection
        while not done.is_set():
            try:
                readable, _, _ = select.select([connection], [], [], _CLIENT_WATCH_SECONDS)
                if readable:
                    if connection.recv(1, socket.MSG_PEEK) == b"":
                        cancel.cancel()
                    return
            except (OSError, ValueError):  # closed under us
                cancel.cancel()
                return

    watcher = threading.Thread(target=watch, name="polychess client watch", daemon=True)
    watcher.start()
    try:
        yield cancel
    finally:
        done.set()
        watcher.join()


def _resign(handler: RequestHandler, params: dict[str, str]) -> None:
    handler.send_json(*api.resign(handler.store, params["id"], handler.read_json(), handler.query, handler.token))


def _seats(handler: RequestHandler, params: dict[str, str]) -> None:
    handler.send_json(*api.set_seats(handler.store, params["id"], handler.read_json(), handler.query, handler.token))


def _offer(handler: RequestHandler, params: dict[str, str]) -> None:
    handler.send_json(*api.offer(handler.store, params["id"], handler.read_json(), handler.query, handler.token))


def _answer(handler: RequestHandler, params: dict[str, str]) -> None:
    handler.send_json(*api.answer(handler.store, params["id"], handler.read_json(), handler.query, handler.token))


def _events(handler: RequestHandler, params: dict[str, str]) -> None:
    """The game's state now and at every change, as server-sent events (events.py), until the
    page goes or the server closes."""
    server = cast(WebServer, handler.server)
    with handler.store.using(params["id"]) as session:  # kept in memory while the page follows it
        role = api.authorize(session, handler.token)
        orientation = api._orientation(handler.query, role)
        with server.listeners.slot(session.id, str(handler.client_address[0]), role):
            handler.close_connection = True
            handler.send_response(200)
            handler.send_header("Content-Type", "text/event-stream; charset=utf-8")
            handler.send_header("Cache-Control", "no-store")
            handler.send_header("X-Content-Type-Options", "nosniff")
            handler.send_header("Content-Security-Policy", _CSP)
            handler.end_headers()
            if handler.command == "HEAD":
                return
            try:
                follow(session, orientation, role, handler.connection, handler.wfile, server.closing)
            except OSError:  # the page went away
                pass


def _record(handler: RequestHandler, params: dict[str, str]) -> None:
    text, filename = api.record(handler.store, params["id"], handler.token, handler.query)
    handler.send_body(
        200, text.encode(), "text/plain; charset=utf-8", {"Content-Disposition": f'attachment; filename="{filename}"'}
    )


_ROUTES: list[tuple[re.Pattern[str], dict[str, Handler]]] = [
    (re.compile(r"/"), {"GET": _page}),
    (re.compile(r"/static/(?P<name>[A-Za-z0-9_.-]{1,64})"), {"GET": _static}),
    (re.compile(r"/api/meta"), {"GET": _meta}),
    (re.compile(r"/api/games"), {"POST": _new_game}),
    (re.compile(r"/api/records"), {"POST": _load}),
    (re.compile(_GAME), {"GET": _get_game}),
    (re.compile(_GAME + r"/move"), {"POST": _move}),
    (re.compile(_GAME + r"/engine"), {"POST": _engine}),
    (re.compile(_GAME + r"/analysis"), {"POST": _analysis}),
    (re.compile(_GAME + r"/review"), {"POST": _review}),
    (re.compile(_GAME + r"/seats"), {"POST": _seats}),
    (re.compile(_GAME + r"/resign"), {"POST": _resign}),
    (re.compile(_GAME + r"/offer"), {"POST": _offer}),
    (re.compile(_GAME + r"/answer"), {"POST": _answer}),
    (re.compile(_GAME + r"/events"), {"GET": _events}),
    (re.compile(_GAME + r"/record"), {"GET": _record}),
]


def _route(method: str, path: str) -> tuple[Handler, dict[str, str]]:
    for pattern, methods in _ROUTES:
        match = pattern.fullmatch(path)
        if match is None:
            continue
        lookup = "GET" if method == "HEAD" else method
        if lookup not in methods:
            allowed = sorted(methods) + (["HEAD"] if "GET" in methods else [])
            return _refuse_method(method, allowed), {}
        return methods[lookup], match.groupdict()
    raise ApiError(404, f"no such page or API endpoint: {path[:100]}")


def _refuse_method(method: str, allowed: list[str]) -> Handler:
    def refuse(handler: RequestHandler, params: dict[str, str]) -> None:
        handler._error(
            405, f"{method} is not allowed here (allowed: {', '.join(allowed)})", {"Allow": ", ".join(allowed)}
        )

    return refuse


def _refuse_constant(name: str) -> object:
    raise ValueError(f"{name} is not a JSON number")


def _deeper_than(data: object, limit: int) -> bool:
    """Whether JSON data nests lists and objects more than ``limit`` deep (without recursing)."""
    stack = [(data, 1)]
    while stack:
        value, depth = stack.pop()
        children = value.values() if isinstance(value, dict) else value if isinstance(value, list) else None
        if children is None:
            continue
        if depth > limit:
            return True
        stack.extend((child, depth + 1) for child in children if isinstance(child, (dict, list)))
    return False


def _split_netloc(netloc: str) -> tuple[str, int] | None:
    """``name[:port]`` (``[v6]:port`` for IPv6) as (lowercase name, port; 80 if left out)."""
    match = re.fullmatch(r"(\[[0-9a-f:.]+\]|[^\[\]:/@\s]+)(?::([0-9]{0,5}))?", netloc.strip().lower())
    if match is None:
        return None
    name, port = match.group(1).strip("[]"), match.group(2)
    return name, int(port) if port else 80


def _same_origin(origin: str, host: str) -> bool:
    """Whether an Origin header is http://<the Host of the request> (the page's own origin)."""
    scheme, _, netloc = origin.partition("://")
    page = _split_netloc(netloc)
    return scheme.lower() == "http" and page is not None and page == _split_netloc(host)


def _is_ip(name: str) -> bool:
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return False
    return True


def _is_loopback(name: str) -> bool:
    return _is_ip(name) and ipaddress.ip_address(name).is_loopback


def _public_host(requested: str, bound: str) -> str:
    """The address others reach a server on: for every address (0.0.0.0, ::), the address of
    the interface this machine sends on (found without sending anything), else as asked."""
    if bound not in ("0.0.0.0", "::", ""):
        return requested.strip("[]") or bound
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(("192.0.2.1", 9))  # a documentation address: a UDP connect sends nothing
            return str(probe.getsockname()[0])
    except OSError:
        return socket.gethostname()


# -- running ------------------------------------------------------------------------------


def make_server(
    host: str = "127.0.0.1", port: int = 8000, capacity: int = MAX_GAMES, database: str | Path | None = None
) -> WebServer:
    """A server bound to host:port (port 0: any free port; see ``server.url``), not yet serving;
    with ``database`` (a file path) it keeps its games in that SQLite file."""
    from polychess.web.storage import SqliteStorage

    storage = SqliteStorage(database) if database is not None else None
    try:
        return WebServer((host, port), capacity, storage)
    except BaseException:
        if storage is not None:
            storage.close()
        raise


def serve(host: str = "127.0.0.1", port: int = 8000, database: str | Path | None = None) -> None:
    """Serves the web app until interrupted (Ctrl-C), keeping the games in ``database``."""
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(message)s")
    server = make_server(host, port, database=database)
    print(f"polychess: play at {server.url} (Ctrl-C to stop)", flush=True)
    if database is not None:
        print(f"polychess: games are kept in {database}", flush=True)
    bound = str(server.server_address[0])
    if not _is_loopback(bound):
        print(
            f"polychess: WARNING: listening on {bound}, not only on this machine: anyone who can reach "
            f"it can open the page (moving needs an invitation link). Links name {server.public_url}",
            flush=True,
        )
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
