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
``/api/games/<id>/seats``                   POST    who plays which seat: {"engines": ["red"], "engine_level": N}
``/api/games/<id>/resign``                  POST    {"player": "red"} resigns
``/api/games/<id>/record``                  GET     the game record, as a download
==========================================  ======  ==============================================

Every answer about a game is its whole state (see view.py); ``?orientation=red`` turns the
board to a seat.
"""

from __future__ import annotations

import ipaddress
import json
import logging
import re
import socket
import time
from collections.abc import Callable
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import cast
from urllib.parse import parse_qsl, urlsplit

from polychess.web import api
from polychess.web.errors import ApiError
from polychess.web.session import EnginePool
from polychess.web.store import MAX_GAMES, Store

__all__ = ["WebServer", "make_server", "serve", "MAX_BODY"]

log = logging.getLogger("polychess.web")

MAX_BODY = 1 << 20  # a long record is some tens of kilobytes
BODY_SECONDS = 10.0  # for the whole body; a megabyte takes well under a second on a LAN
# The API's bodies are two levels deep ({"engines": [...]}); far deeper nesting is an attack.
MAX_JSON_DEPTH = 16
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

    def __init__(self, address: tuple[str, int], capacity: int = MAX_GAMES) -> None:
        super().__init__(address, RequestHandler)
        self.store = Store(capacity)
        self.engines = EnginePool()
        host, port = self.server_address[:2]
        self.own_address = OwnAddress.of(address[0], host if isinstance(host, str) else host.decode(), port)

    @property
    def url(self) -> str:
        host, port = self.server_address[:2]
        host = host if isinstance(host, str) else host.decode()
        return f"http://{'[' + host + ']' if ':' in host else host}:{port}/"


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
        try:
            self._require_own_origin()
            path = urlsplit(self.path).path
            handler, params = _route(method, path)
            handler(self, params)
        except ApiError as error:
            self._error(error.status, error.message)
        except Exception:  # a bug: answer, log it and keep serving
            log.exception("%s %s failed", method, self.path)
            self._error(500, "internal server error (the server log has the details)")

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

    # -- reading --------------------------------------------------------------------------

    def read_json(self) -> Json:
        """The request body as a JSON object (an empty body is an empty object)."""
        if "chunked" in self.headers.get("Transfer-Encoding", "").lower():
            self.close_connection = True
            raise ApiError(411, "send the body with a Content-Length, not chunked")
        try:
            length = int(self.headers.get("Content-Length", "0"))
        except ValueError:
            self.close_connection = True
            raise ApiError(400, "Content-Length is not a number") from None
        if length < 0:
            self.close_connection = True
            raise ApiError(400, "Content-Length is negative")
        if length > MAX_BODY:
            self.close_connection = True  # the body is left unread
            raise ApiError(413, f"the body is {length} bytes; the limit is {MAX_BODY}")
        # Checked even for an empty body: an empty POST resigns or moves for the player to move.
        if self.headers.get_content_type() != "application/json":
            self.close_connection = True
            given = self.headers.get("Content-Type")
            raise ApiError(415, "send the body with Content-Type: application/json"
                                + (f", not {given[:60]!r}" if given else ""))
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
            raise ApiError(400, f"the body ended after {received} of the {length} bytes of its Content-Length "
                                f"(waited {self.body_seconds:g} s)")
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
        log.info("%s %s", self.address_string(), format % args)



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
    handler.send_json(*api.new_game(handler.store, handler.read_json()))


def _load(handler: RequestHandler, params: dict[str, str]) -> None:
    handler.send_json(*api.load_record(handler.store, handler.read_json()))


def _get_game(handler: RequestHandler, params: dict[str, str]) -> None:
    handler.send_json(*api.get_game(handler.store, params["id"], handler.query))


def _move(handler: RequestHandler, params: dict[str, str]) -> None:
    handler.send_json(*api.move(handler.store, params["id"], handler.read_json(), handler.query))


def _engine(handler: RequestHandler, params: dict[str, str]) -> None:
    handler.send_json(*api.engine(handler.store, handler.engines, params["id"], handler.read_json(), handler.query))


def _resign(handler: RequestHandler, params: dict[str, str]) -> None:
    handler.send_json(*api.resign(handler.store, params["id"], handler.read_json(), handler.query))


def _seats(handler: RequestHandler, params: dict[str, str]) -> None:
    handler.send_json(*api.set_seats(handler.store, params["id"], handler.read_json(), handler.query))


def _record(handler: RequestHandler, params: dict[str, str]) -> None:
    text, filename = api.record(handler.store, params["id"])
    handler.send_body(200, text.encode(), "text/plain; charset=utf-8",
                      {"Content-Disposition": f'attachment; filename="{filename}"'})


_ROUTES: list[tuple[re.Pattern[str], dict[str, Handler]]] = [
    (re.compile(r"/"), {"GET": _page}),
    (re.compile(r"/static/(?P<name>[A-Za-z0-9_.-]{1,64})"), {"GET": _static}),
    (re.compile(r"/api/meta"), {"GET": _meta}),
    (re.compile(r"/api/games"), {"POST": _new_game}),
    (re.compile(r"/api/records"), {"POST": _load}),
    (re.compile(_GAME), {"GET": _get_game}),
    (re.compile(_GAME + r"/move"), {"POST": _move}),
    (re.compile(_GAME + r"/engine"), {"POST": _engine}),
    (re.compile(_GAME + r"/seats"), {"POST": _seats}),
    (re.compile(_GAME + r"/resign"), {"POST": _resign}),
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
        handler._error(405, f"{method} is not allowed here (allowed: {', '.join(allowed)})",
                       {"Allow": ", ".join(allowed)})
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


# -- running ------------------------------------------------------------------------------

def make_server(host: str = "127.0.0.1", port: int = 8000, capacity: int = MAX_GAMES) -> WebServer:
    """A server bound to host:port (port 0: any free port; see ``server.url``), not yet serving."""
    return WebServer((host, port), capacity)


def serve(host: str = "127.0.0.1", port: int = 8000) -> None:
    """Serves the web app until interrupted (Ctrl-C)."""
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(message)s")
    server = make_server(host, port)
    print(f"polychess: play at {server.url} (Ctrl-C to stop)", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
