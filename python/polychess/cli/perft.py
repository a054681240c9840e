"""``polychess perft`` and ``polychess moves``: counting and listing legal moves."""

from __future__ import annotations

import argparse
import time

from polychess.board import VARIANTS, Board

__all__ = ["add_parsers"]


def _perft(args: argparse.Namespace) -> int:
    board = Board(args.variant, args.fen)
    if args.divide:
        counts = board.divide(args.depth)
        for move, nodes in sorted(counts.items()):
            print(f"{move}: {nodes}")
        print(f"moves: {len(counts)}")
        print(f"nodes: {sum(counts.values())}")
        return 0
    for depth in range(1, args.depth + 1) if args.all else [args.depth]:
        start = time.perf_counter()
        nodes = board.perft(depth)
        seconds = time.perf_counter() - start
        rate = nodes / seconds if seconds > 0 else float("inf")
        print(f"depth {depth}: {nodes} nodes in {seconds:.3f} s ({rate:,.0f} nodes/s)")
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
    perft = sub.add_parser("perft", help="count the leaves of the legal-move tree")
    perft.add_argument("--variant", choices=VARIANTS, default="three-player")
    perft.add_argument("--fen", help="start from this position string")
    perft.add_argument("--depth", type=_depth, default=4)
    perft.add_argument("--all", action="store_true", help="print every depth from 1")
    perft.add_argument("--divide", action="store_true", help="print the count below each move")
    perft.set_defaults(run=_perft)

    moves = sub.add_parser("moves", help="list the legal moves of a position")
    moves.add_argument("--variant", choices=VARIANTS, default="three-player")
    moves.add_argument("--fen", help="the position string (default: the start)")
    moves.set_defaults(run=_moves)
