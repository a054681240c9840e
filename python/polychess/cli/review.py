"""``polychess review RECORD``: every move of a recorded game judged by the engine
(:mod:`polychess.review`), written as text (a line a move, then each player's marks) and, with
``--graph``, the evaluation graph as SVG or PNG (:mod:`polychess.review_chart`)."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from polychess.cli.common import UsageError, positive_int
from polychess.cli.show import load_record
from polychess.cli.status_line import StatusLine
from polychess.engine import Engine
from polychess.outlook import model_for
from polychess.png import CONVERTER_HELP, ConverterMissing, svg_to_png
from polychess.review import GLYPHS, MARKS, VERIFY_FACTOR, Review, review_game
from polychess.review_chart import review_svg

__all__ = ["add_parser", "review_text"]

_PLURALS = {"blunder": "blunders", "mistake": "mistakes", "inaccuracy": "inaccuracies"}


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = sub.add_parser(
        "review",
        help="judge every move of a recorded game, with its mistakes and an evaluation graph",
        description="Search every position of a recorded game (a polychess record, PGN, or chess.com's PGN4) "
        "and write each move's score against the engine's best move, the moves that gave away the most marked "
        "as inaccuracies, mistakes and blunders, and each player's count of them; --graph draws the evaluation "
        "of every side over the game.",
    )
    parser.add_argument("record", help="the game's record file (.pgn4: PGN4; .pgn: PGN; else a polychess record)")
    limit = parser.add_mutually_exclusive_group()
    limit.add_argument("--nodes", type=positive_int, help="nodes a search (default 20000)")
    limit.add_argument("--depth", type=positive_int, help="plies a search")
    limit.add_argument("--time", type=float, help="seconds a search")
    parser.add_argument(
        "--verify",
        type=positive_int,
        default=VERIFY_FACTOR,
        metavar="N",
        help=f"judge a move that would be marked again by searches N times as long (default {VERIFY_FACTOR}; "
        "with --depth, 6 plies deeper; with --time, at most 10 s; 1: not again)",
    )
    parser.add_argument("--threads", type=positive_int, default=1, help="search threads (default 1)")
    parser.add_argument("--graph", metavar="FILE", help="write the evaluation graph: FILE.svg or FILE.png")
    parser.add_argument("--json", metavar="FILE", help="write every reviewed move as JSON ('-': standard output)")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    if args.time is not None and not args.time > 0:
        raise UsageError("--time must be a positive number of seconds")
    if args.graph is not None and not args.graph.lower().endswith((".svg", ".png")):
        raise UsageError("--graph: the file must end in .svg or .png")
    try:
        game = load_record(args.record)
    except (OSError, ValueError) as error:
        raise UsageError(f"{args.record}: {error}") from None
    with StatusLine(sys.stderr) as status:
        review = review_game(
            game,
            engine=Engine(hash_mb=32, threads=args.threads),
            nodes=args.nodes,
            depth=args.depth,
            time=args.time,
            verify=args.verify,
            progress=lambda done, total: status.progress(done, total, "moves"),
        )
    if args.json == "-":
        print(json.dumps(_as_json(review), indent=1))
    else:
        print(review_text(review))
        if args.json is not None:
            Path(args.json).write_text(json.dumps(_as_json(review), indent=1) + "\n", encoding="utf-8")
    if args.graph is not None:
        picture = review_svg(review)
        try:
            if args.graph.lower().endswith(".png"):
                svg_to_png(picture, args.graph)
            else:
                Path(args.graph).write_text(picture, encoding="utf-8")
        except ConverterMissing:
            raise UsageError(CONVERTER_HELP) from None
        except OSError as error:
            raise UsageError(f"--graph: {error}") from None
    return 0


def review_text(review: Review) -> str:
    """The review as text: a header, a line a move (the move, the engine's best, both scores
    for the mover's side in pawns of the game, the expected result after the move and the
    mark with its glyph), then each player's marks, accuracy and average loss."""
    kind = review.game.kind
    lines = [f"Review of a {kind.name} game, {len(review.moves)} moves, {review.budget}", ""]
    lines.append(f"{'ply':>4}  {'player':<7} {'move':<9} {'best':<9} {'score':>7} {'best':>7} {'expected':>8}  mark")
    model = model_for(kind)
    for m in review.moves:
        best = "" if m.best_move == m.move else str(m.best_move)
        score, best_score = model.outlook(m.score, m.mate_in).text, model.outlook(m.best_score, m.best_mate_in).text
        lines.append(
            f"{m.ply:>4}  {m.player.value:<7} {str(m.move):<9} {best:<9} {score:>7} "
            f"{best_score:>7} {m.expected:>8.2f}  {f'{GLYPHS[m.mark]} {m.mark}' if m.mark else ''}"
        )
    lines.append("")
    for colour in kind.colours:
        counts = review.marks(colour)
        marks = ", ".join(f"{counts[mark]} {mark if counts[mark] == 1 else _PLURALS[mark]}" for mark in MARKS)
        accuracy = review.accuracy(colour)
        lines.append(
            f"{colour.value}: {marks}; accuracy {'-' if accuracy is None else f'{accuracy:.0f}%'}, "
            f"average loss {review.average_loss(colour):.3f}"
        )
    return "\n".join(lines)


def _as_json(review: Review) -> dict[str, object]:
    return {
        "game": review.game.kind.name,
        "budget": review.budget,
        "moves": [
            {
                "ply": m.ply,
                "player": m.player.value,
                "move": str(m.move),
                "best": str(m.best_move),
                "score": m.score,
                "best_score": m.best_score,
                "mate_in": m.mate_in,
                "best_mate_in": m.best_mate_in,
                "expected": round(m.expected, 4),
                "best_expected": round(m.best_expected, 4),
                "mark": m.mark,
                "standings": {c.value: round(e, 4) for c, e in m.standings.items()},
            }
            for m in review.moves
        ],
        "players": review.summary(),
    }
