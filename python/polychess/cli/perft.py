"""``polychess perft`` and ``polychess moves``: counting and listing legal moves.

A deep perft runs for seconds (three-player depth 6), so on a terminal a status line on stderr
says which root move is being counted; piped or redirected, the output is the results alone.
"""

from __future__ import annotations

import argparse
import sys
import time

from polychess.board import VARIANTS, Board
from polychess.cli.status_line import StatusLine
from polychess.cli.wording import plural

__all__ = ["add_parsers"]


def _divide(board: Board, depth: int, status: StatusLine) -> dict[str, int]:
    """Leaves below each legal move. With a live status line the root moves are counted one
    call at a time so that the line can show the progress; otherwise one call into the core
    counts them all (the same numbers)."""
    if not status.live or depth < 2:
        return board.divide(depth)
    moves = sorted(board.legal_moves, key=str)
    counts: dict[str, int] = {}
    start = time.perf_counter()
    for done, move in enumerate(moves):
        status.show(
            f"perft depth {depth}: move {done + 1} of {len(moves)} ({move}), "
            f"{plural(sum(counts.values()), 'node', grouped=True)} so far, "
            f"{time.perf_counter() - start:.1f} s"
        )
        board.push(move)
        try:
            counts[str(move)] = board.perft(depth - 1)
        finally:
            board.pop()
    return counts


def _count(board: Board, depth: int, status: StatusLine) -> int:
    if status.live and depth >= 2:
        return sum(_divide(board, depth, status).values())
    return board.perft(depth)


def _perft(args: argparse.Namespace) -> int:
    board = Board(args.variant, args.fen)
    with StatusLine(sys.stderr) as status:
        if args.divide:
            counts = _divide(board, args.depth, status)
            status.clear()
            for move, nodes in sorted(counts.items()):
                print(f"{move}: {nodes}")
            print(f"moves: {len(counts)}")
            print(f"nodes: {sum(counts.values())}")
            return 0
        for depth in range(1, args.depth + 1) if args.all else [args.depth]:
            start = time.perf_counter()
            nodes = _count(board, depth, status)
            seconds = time.perf_counter() - start
            rate = nodes / seconds if seconds > 0 else float("inf")
            status.clear()
            print(f"depth {depth}: {plural(nodes, 'node')} in {seconds:.3f} s ({rate:,.0f} nodes/s)", flush=True)
    return 0


def _moves(args: argparse.Namespace) -> int:
    board = Board(args.variant, args.fen)
    print(" ".join(sorted(str(m) for m in board.legal_moves)))
    return 0


def _depth(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be >= 0, got {value}")
    return value


def add_parsers(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    perft = sub.add_parser(
        "perft",
        help="count the leaves of the legal-move tree",
        description="Count the leaves of the legal-move tree to a depth (perft), the "
        "standard check of a move generator, and the speed of the count. On a "
        "terminal, stderr shows which root move is being counted.",
    )
    perft.add_argument("--variant", choices=VARIANTS, default="three-player", help="the variant (default three-player)")
    perft.add_argument("--fen", metavar="POSITION", help="start from this position string (default: the start)")
    perft.add_argument("--depth", type=_depth, default=4, metavar="PLIES", help="how many plies deep (default 4)")
    perft.add_argument("--all", action="store_true", help="print every depth from 1")
    perft.add_argument("--divide", action="store_true", help="print the count below each move")
    perft.set_defaults(run=_perft)

    moves = sub.add_parser(
        "moves",
        help="list the legal moves of a position",
        description="List the legal moves of a position, sorted, on one line.",
    )
    moves.add_argument("--variant", choices=VARIANTS, default="three-player", help="the variant (default three-player)")
    moves.add_argument("--fen", metavar="POSITION", help="the position string (default: the start)")
    moves.set_defaults(run=_moves)
