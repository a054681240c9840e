"""The web app (docs/web.md): ``polychess serve`` serves a page on which people play every
variant against engine seats or each other, at one screen or each in their own browser
through invitation links, with live updates; games are kept in SQLite across restarts. The
standard library's HTTP server carries it; the board is drawn by :mod:`polychess.svg` on the
server, the page is plain HTML, CSS and JavaScript (``static/``), and nothing is fetched from
the network."""

from polychess.web.server import WebServer, make_server, serve

__all__ = ["WebServer", "make_server", "serve"]
