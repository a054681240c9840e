"""``polychess show``: a position or a moment of a recorded game, as SVG, PNG or text.

SVG comes from :mod:`polychess.svg`. PNG is converted from it by ``rsvg-convert`` if it is on
the PATH, else by the cairosvg package if it is installed; polychess depends on neither, so
without them PNG output stops with a message saying how to get one. With no ``-o`` the board
is drawn as text, as ``polychess play`` draws it.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from polychess import text_board
from polychess.board import VARIANTS, Board, Move
from polychess.cli.common import UsageError, add_color_options, colour_arg, positive_int, use_color
from polychess.cli.wording import plural
from polychess.files import read_regular
from polychess.formats import read_pgn, read_pgn4, read_record
from polychess.game import Game
from polychess.png import ConverterMissing, svg_to_png

__all__ = ["add_parser", "load_record"]


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = sub.add_parser(
        "show",
        help="draw a position or a recorded game as SVG, PNG or text",
        description="Draw a position (--fen) or a recorded game (--record) as SVG (-o FILE.svg), "
        "PNG (-o FILE.png) or, without -o, as text.",
    )
    source = parser.add_argument_group("what to draw (default: the start position)")
    source.add_argument("--variant", choices=VARIANTS, default=None, help="the variant of --fen (default three-player)")
    source.add_argument("--fen", metavar="POSITION", help="a position string")
    source.add_argument("--mode", choices=("teams", "ffa"), help="four-player --fen: the mode")
    source.add_argument("--setup", choices=("modern", "classic"), help="four-player --fen: the setup")
    source.add_argument("--neutrality", action="store_true", help="three-player --fen: with the neutrality field")
    source.add_argument(
        "--record", metavar="FILE", help="a game record (polychess record; PGN4 for .pgn4 files, PGN for .pgn)"
    )
    source.add_argument(
        "--ply", type=int, metavar="N", help="with --record: the position after N moves (default: the end)"
    )
    out = parser.add_argument_group("output")
    out.add_argument("-o", "--output", metavar="FILE", help="FILE.svg or FILE.png (default: text on stdout)")
    out.add_argument(
        "--size", type=positive_int, default=480, metavar="PIXELS", help="picture size in pixels (default 480)"
    )
    out.add_argument("--orientation", type=colour_arg, metavar="COLOUR", help="whose side is at the bottom")
    out.add_argument("--no-coordinates", action="store_true", help="SVG/PNG: leave out the cell names")
    out.add_argument("--compact", action="store_true", help="text: one line per three-player cell")
    add_color_options(out)
    parser.set_defaults(run=run)


# No record of a game comes near this (a game of 10,000 plies with comments is under 1 MB): a
# larger file is refused before it is read.
MAX_RECORD_BYTES = 64 << 20


def load_record(path: str) -> Game:
    """A game from a record file: PGN4 (by the .pgn4 suffix or a StartFen4 tag), PGN (by the
    .pgn suffix) or a polychess record (docs/game-records.md)."""
    data = read_regular(path, MAX_RECORD_BYTES, "a game record")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise ValueError(f"not UTF-8 text (byte {error.start})") from None
    if not text.strip():  # in every format alike: a record holds at least its game
        raise ValueError("the file is empty: no game to read")
    if path.lower().endswith(".pgn4") or "[StartFen4 " in text:
        return read_pgn4(text)
    if path.lower().endswith(".pgn"):
        return read_pgn(text)
    return read_record(text)


def _position(args: argparse.Namespace) -> Board:
    if args.record is not None:
        if args.fen is not None or args.variant is not None:
            raise UsageError("give either --record or --fen/--variant, not both")
        game = load_record(args.record)
        if args.ply is not None:
            if not 0 <= args.ply <= game.ply:
                raise UsageError(f"--ply {args.ply}: the game has {plural(game.ply, 'move')} (0 to {game.ply})")
            while game.ply > args.ply:
                game.pop()
        return game.board
    if args.ply is not None:
        raise UsageError("--ply needs --record")
    variant = args.variant or "three-player"
    return Board(variant, args.fen, neutrality=args.neutrality, mode=args.mode, setup=args.setup)


def run(args: argparse.Namespace) -> int:
    board = _position(args)
    if args.orientation is not None and args.orientation not in board.colours:
        raise UsageError(f"--orientation: no colour {args.orientation.value!r} in {board.variant}")
    last: Move | None = board.move_stack[-1] if board.move_stack else None
    if args.output is None:
        print(
            text_board.render(
                board,
                orientation=args.orientation,
                color=use_color(args.color, sys.stdout),
                lastmove=last,
                compact=args.compact,
            )
        )
        return 0
    suffix = Path(args.output).suffix.lower()
    if suffix not in (".svg", ".png"):
        raise UsageError(f"-o {args.output}: the file name must end in .svg or .png")
    from polychess import svg  # imported here: text output does not need it

    picture = svg.board(
        board,
        size=args.size,
        orientation=args.orientation,
        lastmove=last,
        check=board.king(board.turn) if board.is_check() else None,
        coordinates=not args.no_coordinates,
    )
    if suffix == ".svg":
        Path(args.output).write_text(picture, encoding="utf-8")
    else:
        try:
            svg_to_png(picture, args.output)
        except ConverterMissing as error:
            print(f"polychess: {error}", file=sys.stderr)
            return 1
    print(f"wrote {args.output}")
    return 0
