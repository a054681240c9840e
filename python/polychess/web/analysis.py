"""Analysis in the browser: the engine's best lines for any position of a game (a ply of its
moves, and a side line tried from there), and the review of the whole game (the evaluation
graph and the marked moves).

Both run on an engine borrowed from the server's :class:`~polychess.web.session.EnginePool`
for a bounded time or node budget, never on a thread of their own: the pool bounds how many
searches run at once, the budget how long each holds its engine. The game is copied under its
session's lock and searched without it, so analysing never blocks the players. The engines
analyse at full strength, whatever level the game's engine seats play at.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager

from polychess import svg
from polychess.board import Move
from polychess.engine import Engine
from polychess.errors import IllegalMoveError, InvalidMoveError
from polychess.formats.notation import move_to_text
from polychess.game import Game
from polychess.outlook import Outlook, standings
from polychess.review import review_game
from polychess.review_chart import review_svg
from polychess.strength import MAX_LEVEL
from polychess.web.errors import ApiError
from polychess.web.fairplay import check_analysis
from polychess.web.session import EnginePool, Session
from polychess.web.view import BOARD_SIZE, legal_moves_json, orientation_of

__all__ = [
    "Cancellation",
    "MAX_REVIEW_SECONDS",
    "analyse",
    "check_analysis",
    "review",
    "position_of",
    "parse_analysis_request",
    "MAX_ANALYSIS_TIME",
    "MAX_LINES",
    "MAX_REVIEW_NODES",
    "DEFAULT_REVIEW_NODES",
]

MAX_ANALYSIS_TIME = 5.0  # seconds a request; the page asks again to think on
MAX_LINES = 5
MAX_SIDE_LINE = 200  # moves tried from a position of the game
MAX_REVIEW_NODES = 20_000  # a search of the review; two searches a move at most
DEFAULT_REVIEW_NODES = 3_000
# A move a mark would fall on is searched again this many times as long (polychess.review):
# less than the command's, so that the review of a long game fits in MAX_REVIEW_SECONDS.
REVIEW_VERIFY = 20
# A review holds its engine this long at most: the moves after are left unjudged (the answer
# says so), so that a long game at the largest budget cannot keep an engine from the seats.
MAX_REVIEW_SECONDS = 60.0
_PV_SHOWN = 16  # moves of each line sent to the page
GRAPH_WIDTH, GRAPH_HEIGHT = 760, 190  # under the board: as wide as a board, the height app.css gives it

Json = dict[str, object]


class Cancellation:
    """Raised when the client of a request has gone (server.py watches its connection): the
    search the request waits for is stopped, and a review goes no further."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._cancelled = False
        self._engine: Engine | None = None

    @property
    def cancelled(self) -> bool:
        return self._cancelled

    def cancel(self) -> None:
        with self._lock:
            self._cancelled = True
            if self._engine is not None:
                self._engine.stop()

    @contextmanager
    def watching(self, engine: Engine) -> Iterator[Engine]:
        """The engine, stopped if the request is cancelled while the ``with`` block runs."""
        with self._lock:
            self._engine = engine
        try:
            yield engine
        finally:
            with self._lock:
                self._engine = None


def position_of(session: Session, ply: int | None, side_line: list[str]) -> tuple[Game, list[Json]]:
    """A copy of the session's game after ``ply`` of its moves (None: as it stands), then the
    moves of ``side_line``, and those moves as the move list writes them (number, player,
    coordinates, notation); ApiError(400) naming what cannot be played."""
    with session.lock:
        game = session.game.copy()
    moves_made = sum(1 for step in game.steps if step.move is not None)
    if ply is not None:
        if not 0 <= ply <= moves_made:
            raise ApiError(400, f"ply must be between 0 and {moves_made}, got {ply}")
        # back to just before move ply + 1: the events between the two (a resignation) stay
        while moves_made > ply:
            if game.pop() is not None:
                moves_made -= 1
    game.clock = None  # the side line is not played on anyone's clock
    played: list[Json] = []
    for number, text in enumerate(side_line, 1):
        try:
            move = game.board.parse_move(text)
            notation, mover = move_to_text(game.board, move), game.board.turn
            game.push(move)
        except (IllegalMoveError, InvalidMoveError) as error:
            raise ApiError(400, f"line move {number} ({text!r}): {error}") from None
        except ValueError as error:  # the game is over there
            raise ApiError(400, f"line move {number} ({text!r}): {error}") from None
        step = next(s for s in reversed(game.steps) if s.move is not None)  # events may follow it
        played.append({"number": step.fullmove, "player": mover.value, "text": str(move), "notation": notation})
    return game, played


def analyse(
    engines: EnginePool,
    session: Session,
    game: Game,
    lines: int,
    seconds: float,
    orientation: str | None,
    client: str = "",
    cancel: Cancellation | None = None,
) -> Json:
    """The engine's ``lines`` best lines from the game's position, searched for ``seconds``:
    for each its move, its moves, the score for the side to move and every player's outlook;
    and the position drawn with each line's move as an arrow (the best one stronger), with
    its legal moves for the page to try side lines. ``client`` (its address) counts against
    the pool's limits on analyses; ``cancel`` stops the search when the client has gone."""
    board = game.board
    drawn = {
        "svg": "",
        "legal": legal_moves_json(board) if not game.is_over() else {},
        "result": game.result() if game.is_over() else None,
    }
    if game.is_over() or not game.legal_moves:
        drawn["svg"] = _board_svg(session, game, [], orientation)
        return {"depth": 0, "nodes": 0, "lines": [], "turn": None, **drawn}
    mover = game.turn
    cancel = cancel or Cancellation()
    with engines.engine_for(session.id, for_analysis=client) as engine, cancel.watching(engine):
        engine.level = MAX_LEVEL
        result = engine.search(game, time=seconds, multipv=lines)
    arrows = [(line.move.from_cell, line.move.to_cell, _ARROWS[min(i, 1)]) for i, line in enumerate(result.lines)]
    drawn["svg"] = _board_svg(session, game, arrows, orientation)
    return {
        "depth": result.depth,
        "nodes": result.nodes,
        "turn": mover.value,
        **drawn,
        "lines": [
            {
                "move": str(line.move),
                "from": line.move.from_cell,
                "to": line.move.to_cell,
                "pv": [str(m) for m in line.pv[:_PV_SHOWN]],
                "notation": _in_notation(game, line.pv[:_PV_SHOWN]),  # the pv as the move list writes moves
                "score": line.score,
                "mate_in": line.mate_in,
                "players": {
                    colour.value: _outlook_json(o)
                    for colour, o in standings(game.kind, mover, line.score, line.scores, line.mate_in).items()
                },
            }
            for line in result.lines
        ],
    }


def _in_notation(game: Game, moves: Sequence[Move]) -> list[str]:
    """The moves, played from the game's position, in its notation (where a move cannot be
    played on, the rest as the engine wrote them)."""
    follow = game.copy()
    follow.clock = None
    texts: list[str] = []
    for move in moves:
        try:
            text = move_to_text(follow.board, move)
            follow.push(move)
        except ValueError:  # the game ended inside the line
            break
        texts.append(text)
    return texts + [str(m) for m in moves[len(texts) :]]


# The best line's arrow, and the others'.
_ARROWS = ("#1f8a3b", "#5b7fc7")


def _board_svg(session: Session, game: Game, arrows: list[tuple[str, str, str]], orientation: str | None) -> str:
    board = game.board
    with session.lock:
        bottom = orientation_of(session, orientation)
    return svg.board(
        board,
        size=BOARD_SIZE,
        orientation=bottom,
        lastmove=board.move_stack[-1] if board.move_stack else None,
        check=False if game.is_over() else None,
        arrows=arrows,
    )


def _outlook_json(o: Outlook) -> Json:
    return {
        "pawns": o.pawns,
        "text": o.text,  # as people read it: "#3", "#-2" or "+1.25"
        "mate_in": o.mate_in,
        "win": round(o.win, 3),
        "draw": round(o.draw, 3),
        "loss": round(o.loss, 3),
        "expected_place": round(o.expected_place, 2),
    }


def review(
    engines: EnginePool, session: Session, nodes: int, client: str = "", cancel: Cancellation | None = None
) -> Json:
    """Every move of the game judged (polychess.review), each search to ``nodes`` nodes: for
    each move its mark and every player's expected result after it, and the graph as SVG;
    within MAX_REVIEW_SECONDS (``complete`` is false where the moves after went unjudged), and
    no further once ``cancel`` says the client has gone."""
    with session.lock:
        game = session.game.copy()
    game.clock = None
    cancel = cancel or Cancellation()
    deadline = time.monotonic() + MAX_REVIEW_SECONDS
    with engines.engine_for(session.id, for_analysis=client) as engine, cancel.watching(engine):
        engine.level = MAX_LEVEL
        reviewed = review_game(
            game,
            engine=engine,
            nodes=nodes,
            verify=REVIEW_VERIFY,
            stop=lambda: cancel.cancelled or time.monotonic() > deadline,
        )
    return {
        "complete": reviewed.complete,
        "moves": [
            {
                "ply": m.ply,
                "player": m.player.value,
                "move": str(m.move),
                "best": str(m.best_move),
                "mark": m.mark,
                "standings": {c.value: round(e, 3) for c, e in m.standings.items()},
            }
            for m in reviewed.moves
        ],
        "players": reviewed.summary(),
        "svg": review_svg(reviewed, width=GRAPH_WIDTH, height=GRAPH_HEIGHT),
    }


def parse_analysis_request(data: Mapping[str, object]) -> tuple[int | None, list[str], int, float]:
    """(ply, side line, lines, seconds) from an analysis request's JSON, checked field by field."""
    unknown = sorted(set(data) - {"ply", "line", "lines", "time"})
    if unknown:
        raise ApiError(400, f"unknown field {unknown[0]!r} (ply, line, lines, time)")
    ply = data.get("ply")
    if ply is not None and (isinstance(ply, bool) or not isinstance(ply, int)):
        raise ApiError(400, "ply must be a whole number")
    line = data.get("line", [])
    if not isinstance(line, list) or not all(isinstance(m, str) and 0 < len(m) <= 16 for m in line):
        raise ApiError(400, "line must be a list of move texts")
    if len(line) > MAX_SIDE_LINE:
        raise ApiError(400, f"line must have at most {MAX_SIDE_LINE} moves")
    lines = data.get("lines", 3)
    if isinstance(lines, bool) or not isinstance(lines, int) or not 1 <= lines <= MAX_LINES:
        raise ApiError(400, f"lines must be a whole number from 1 to {MAX_LINES}")
    seconds = data.get("time", 1.0)
    if isinstance(seconds, bool) or not isinstance(seconds, int | float) or not 0 < seconds <= MAX_ANALYSIS_TIME:
        raise ApiError(400, f"time must be a number of seconds above 0 and at most {MAX_ANALYSIS_TIME:g}")
    return ply, list(line), lines, float(seconds)
