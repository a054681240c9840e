#!/usr/bin/env python3
"""Where polychess loses its standard games: a blunder audit against Stockfish.

    polychess match --variant standard --a engine --tc 10+0.1 --games 40 --jobs 2 --records games \
        --b "uci:/usr/games/stockfish"
    python bench/standard_audit.py games [--depth 18] [--json audit.json]

Reads the PGN records of a match (``polychess match --records DIR``, polychess as A against
Stockfish) and, for every game polychess lost, finds polychess's first move that loses 1.5 pawns
or more by Stockfish's judgement (full strength, ``--depth`` plies a position: the best move's
score before the move against the move's own score), then says why, as well as a program can:

* ``horizon``: polychess, searching the position ten times as long as it had (``--budget`` x 10),
  no longer plays the move: a tactic its search did not reach;
* ``king safety``: it still plays it, and Stockfish's refutation checks polychess's king or
  takes beside it within six plies;
* ``endgame``: it still plays it, with no queens and at most a rook and a minor piece a side;
* ``positional``: the rest (pawn structure, piece placement: what the evaluation misjudges).

Stockfish is not a dependency of polychess: this script takes it as a command (``--stockfish``,
by default ``stockfish`` on the PATH, or Debian's ``/usr/games/stockfish``) and python-chess to
drive it (``pip install chess``).
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
from collections import Counter
from dataclasses import asdict, dataclass
from pathlib import Path

import chess
import chess.engine
import chess.pgn

from polychess import Board, Engine

DROP = 150  # centipawns: what counts as losing the game's thread
SMALL = 30  # a move that gives away this much, less than DROP: a small step toward the loss
KING_PLIES = 6


@dataclass(frozen=True)
class Blunder:
    """The first move of a lost game that gave away DROP or more, and why."""

    game: str
    ply: int
    fen: str
    move: str
    best: str
    before: int  # Stockfish's score of the best move, for polychess, in centipawns
    after: int  # of the move played
    why: str
    refutation: list[str]
    # Before it: the ply at which polychess first stood 1.5 pawns behind (0: not before the
    # move), and its moves that gave away 30 cp or more each (ply, centipawns): a game lost by
    # many small steps or by one.
    behind_from: int = 0
    small_losses: tuple[tuple[int, int], ...] = ()


def _score(info: chess.engine.InfoDict, side: chess.Color) -> int:
    score = info["score"].pov(side)
    return score.score(mate_score=10_000) or 0


def _kings_neighbourhood_hit(board: chess.Board, line: list[chess.Move], side: chess.Color) -> bool:
    """Whether the line checks ``side``'s king or captures next to it within KING_PLIES plies."""
    board = board.copy()
    for move in line[:KING_PLIES]:
        if board.turn != side:
            king = board.king(side)
            if board.gives_check(move):
                return True
            if king is not None and board.is_capture(move) and chess.square_distance(king, move.to_square) <= 1:
                return True
        board.push(move)
    return False


def _endgame(board: chess.Board) -> bool:
    if board.queens:
        return False
    for colour in (chess.WHITE, chess.BLACK):
        rooks = len(board.pieces(chess.ROOK, colour))
        minors = len(board.pieces(chess.BISHOP, colour)) + len(board.pieces(chess.KNIGHT, colour))
        if rooks > 1 or rooks + minors > 2:
            return False
    return True


def audit_game(
    path: Path, engine_name: str, stockfish: chess.engine.SimpleEngine, depth: int, budget: float
) -> Blunder | None:
    with path.open(encoding="utf-8") as file:
        game = chess.pgn.read_game(file)
    if game is None:
        return None
    white = game.headers.get("White", "")
    side = chess.WHITE if engine_name in white else chess.BLACK
    result = game.headers.get("Result", "*")
    if result != ("0-1" if side == chess.WHITE else "1-0"):
        return None  # only the games polychess lost
    board = game.board()
    behind_from = 0
    small: list[tuple[int, int]] = []
    for ply, move in enumerate(game.mainline_moves()):
        if board.turn == side:
            best = stockfish.analyse(board, chess.engine.Limit(depth=depth))
            before = _score(best, side)
            played = stockfish.analyse(board, chess.engine.Limit(depth=depth), root_moves=[move])
            after = _score(played, side)
            if before <= -DROP and not behind_from:
                behind_from = ply + 1
            if SMALL <= before - after < DROP:
                small.append((ply + 1, before - after))
            if before - after >= DROP:
                refutation = played.get("pv", [])[1:]
                after_board = board.copy()
                after_board.push(move)
                deep = Engine(hash_mb=64).search(Board("standard", board.fen()), time=10 * budget)
                if str(deep.best_move) != move.uci():
                    why = "horizon"
                elif _kings_neighbourhood_hit(after_board, refutation, side):
                    why = "king safety"
                elif _endgame(after_board):
                    why = "endgame"
                else:
                    why = "positional"
                return Blunder(
                    path.name,
                    ply + 1,
                    board.fen(),
                    board.san(move),
                    board.san(best["pv"][0]) if best.get("pv") else "?",
                    before,
                    after,
                    why,
                    [m.uci() for m in refutation[:8]],
                    behind_from,
                    tuple(small),
                )
        board.push(move)
    return None


def _median(values: list[int]) -> float:
    ordered = sorted(values)
    if not ordered:
        return 0.0
    middle = len(ordered) // 2
    return ordered[middle] if len(ordered) % 2 else (ordered[middle - 1] + ordered[middle]) / 2


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("records", type=Path, help="the match's records folder (PGN files)")
    parser.add_argument("--engine-name", default="A:", help="text of polychess's player name in the tags (A:)")
    parser.add_argument("--stockfish", default=None, help="the Stockfish command")
    parser.add_argument("--depth", type=int, default=18, help="Stockfish's depth a position (default 18)")
    parser.add_argument("--budget", type=float, default=0.4, help="polychess's seconds a move in the match")
    parser.add_argument("--json", type=Path, help="write the blunders as JSON")
    parser.add_argument("--games", type=int, default=0, help="audit the first N records only (0: all)")
    args = parser.parse_args()
    command = args.stockfish or shutil.which("stockfish") or "/usr/games/stockfish"
    blunders: list[Blunder] = []
    lost = 0
    with chess.engine.SimpleEngine.popen_uci(command) as stockfish:
        stockfish.configure({"Threads": 1, "Hash": 64})
        paths = sorted(args.records.glob("*.pgn"))
        for path in paths[: args.games] if args.games else paths:
            found = audit_game(path, args.engine_name, stockfish, args.depth, args.budget)
            if found is not None:
                blunders.append(found)
                behind = f"1.5 pawns behind from ply {found.behind_from}" if found.behind_from else "level until then"
                print(
                    f"{found.game}: ply {found.ply} {found.move} (best {found.best}) "
                    f"{found.before:+d} -> {found.after:+d}: {found.why}; {behind}; "
                    f"{len(found.small_losses)} small losses before ({sum(d for _, d in found.small_losses)} cp)",
                    flush=True,
                )
            with path.open(encoding="utf-8") as file:
                headers = chess.pgn.read_headers(file)
            if headers is not None and headers.get("Result") in ("1-0", "0-1"):
                white_is_us = args.engine_name in headers.get("White", "")
                lost += headers["Result"] == ("0-1" if white_is_us else "1-0")
    counts = Counter(b.why for b in blunders)
    print(f"\n{lost} games lost, {len(blunders)} with a move that gave away {DROP} cp or more:")
    for why, n in counts.most_common():
        print(f"  {why}: {n}")
    level = [b for b in blunders if not b.behind_from]
    print(
        f"{len(level)} of them came while still within 1.5 pawns (a blunder); the others after small losses "
        f"had put polychess behind (median {_median([len(b.small_losses) for b in blunders])} moves of 30 cp or "
        f"more before the first big one)"
    )
    if args.json is not None:
        args.json.write_text(json.dumps([asdict(b) for b in blunders], indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
