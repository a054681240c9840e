"""``python -m polychess.web [--host H] [--port P]``, the same as ``polychess serve``."""

import argparse

from polychess.web.server import serve

parser = argparse.ArgumentParser(prog="python -m polychess.web", description="Play polychess in the browser.")
parser.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
parser.add_argument("--port", type=int, default=8000, help="port to listen on (default 8000)")
args = parser.parse_args()
serve(args.host, args.port)
