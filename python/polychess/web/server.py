"""The HTTP side of ``polychess serve``: the page, its static files and the JSON API, on the
standard library's threading HTTP server (one thread per request, so a thinking engine does
not hold up the page; the engine releases the GIL while it searches).

Every request is answered, whatever happens: refusals as JSON ``{"error": "..."}`` with a
4xx status, and anything unexpected as a 500 that is logged with its traceback, never as a
dead server.

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
``/api/games/<id>/seats``                   POST    who plays which seat: {"engines": ["red"], "engine_nodes": N}
``/api/games/<id>/resign``                  POST    {"player": "red"} resigns
``/api/games/<id>/record``                  GET     the game record, as a download
==========================================  ======  ==============================================

Every answer about a game is its whole state (see view.py); ``?orientation=red`` turns the
board to a seat.
"""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import cast
from urllib.parse import parse_qsl, urlsplit

from polychess.web import api
from polychess.web.errors import ApiError
from polychess.web.store import MAX_GAMES, Store

__all__ = ["WebServer", "make_server", "serve", "MAX_BODY"]

log = logging.getLogger("polychess.web")

MAX_BODY = 1 << 20  # a long record is some tens of kilobytes
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
    """The HTTP server with the games it keeps."""

    daemon_threads = True  # a request still running does not keep the process alive

    def __init__(self, address: tuple[str, int], capacity: int = MAX_GAMES) -> None:
        super().__init__(address, RequestHandler)
        self.store = Store(capacity)

    @property
    def url(self) -> str:
        host, port = self.server_address[:2]
        host = host if isinstance(host, str) else host.decode()
        return f"http://{'[' + host + ']' if ':' in host else host}:{port}/"


class RequestHandler(BaseHTTPRequestHandler):
    server_version = "polychess"
    protocol_version = "HTTP/1.1"
    timeout = 60  # a client that stops sending mid-request frees its thread

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
            path = urlsplit(self.path).path
            handler, params = _route(method, path)
            handler(self, params)
        except ApiError as error:
            self._error(error.status, error.message)
        except Exception:  # a bug: answer, log it and keep serving
            log.exception("%s %s failed", method, self.path)
            self._error(500, "internal server error (the server log has the details)")

    @property
    def store(self) -> Store:
        return cast(WebServer, self.server).store

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
        body = self.rfile.read(length) if length else b""
        if not body.strip():
            return {}
        try:
            data = json.loads(body.decode("utf-8"), parse_constant=_refuse_constant)
        except (UnicodeDecodeError, ValueError) as error:
            raise ApiError(400, f"malformed JSON: {error}") from None
        if not isinstance(data, dict):
            raise ApiError(400, f"the body must be a JSON object, not {type(data).__name__}")
        return data

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
    handler.send_json(*api.engine(handler.store, params["id"], handler.read_json(), handler.query))


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
