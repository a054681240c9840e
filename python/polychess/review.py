"""A game reviewed by the engine: every move's evaluation, the best move it missed, and the
moves that threw away the most, for every game (``polychess review``).

Each move is judged from the position before it: the engine searches the position (the best
move and its score) and, where the move played was another, the position again with only that
move (its score). Both scores are for the mover's side and are read as expected results by the
game's outcome model (:mod:`polychess.outlook`: winning counts 1, a draw or a middle place 0.5,
losing 0), so a move is judged by the share of a game it gave away, the same in every game:
at least :data:`THRESHOLDS` ``["inaccuracy"]`` (0.05) an inaccuracy, 0.10 a mistake, 0.15 a
blunder, as lichess marks the winning chances lost. A move a mark would fall on is judged again
by searches :data:`VERIFY_FACTOR` times as long (the budget's nodes, or its time up to
:data:`VERIFY_SECONDS` a search; its depth :data:`VERIFY_PLIES` plies deeper): a sacrifice
whose point lies beyond the short search's horizon (Fischer's 13...Nxe4 and 15...Nxc3 against
Byrne, 1956) looked like a loss at 20,000 and 200,000 nodes and is the best move at one to four
million; the few moves marked pay for the depth.

>>> from polychess import Game
>>> from polychess.review import review_game
>>> game = Game("standard")
>>> for move in ("f2f3", "e7e5", "g2g4", "d8h4"):
...     _ = game.push(move)
>>> review = review_game(game, nodes=2000)
>>> [m.mark for m in review.moves][2:]
['blunder', None]
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

from polychess.board import Colour, Move
from polychess.engine import Engine, SearchResult
from polychess.game import Game
from polychess.outlook import OutcomeModel, model_for, standings

__all__ = [
    "GLYPHS",
    "MARKS",
    "THRESHOLDS",
    "VERIFY_FACTOR",
    "VERIFY_PLIES",
    "VERIFY_SECONDS",
    "Review",
    "ReviewedMove",
    "move_accuracy",
    "review_game",
]

# The least share of a game a move gives away to be marked, worst first.
THRESHOLDS = {"blunder": 0.15, "mistake": 0.10, "inaccuracy": 0.05}
# A move that lets a found mate in, or lets one go, is a blunder unless the game stood this many
# of the game's pawns from even already (then a mistake, or beyond the first an inaccuracy).
MATE_STANDING = {"inaccuracy": 9.99, "mistake": 7.0}
MARKS = tuple(THRESHOLDS)
# The marks as annotators write them beside a move (PGN's $6, $2 and $4).
GLYPHS = {"inaccuracy": "?!", "mistake": "?", "blunder": "??"}
# How much longer the searches that check a mark run (above), by default.
VERIFY_FACTOR = 200
VERIFY_PLIES = 6
VERIFY_SECONDS = 10.0  # a time budget's check: a review at 1 s a search would wait 200 s a mark


@dataclass(frozen=True)
class ReviewedMove:
    """One move of a reviewed game: its ply (1 the first), who played it, the move and the
    engine's best move there, both scores for the mover's side in centipawns, the expected
    results they stand for (0 to 1), the mark it earned (None, or one of :data:`MARKS`), and
    every player's expected result after it (``standings``: the mover's from the move's score,
    the others' from the evaluation at the end of the engine's line; partners share one)."""

    ply: int
    player: Colour
    move: Move
    best_move: Move
    score: int
    best_score: int
    expected: float
    best_expected: float
    mark: str | None
    standings: dict[Colour, float]
    # The mover's moves to a found end of the game after the move and after the best move
    # (negative: to his loss), as SearchResult.mate_in; None where the search found none.
    mate_in: int | None = None
    best_mate_in: int | None = None

    @property
    def given_away(self) -> float:
        """The share of a game the move gave away against the best move (0 for the best)."""
        return max(0.0, self.best_expected - self.expected)


@dataclass(frozen=True)
class Review:
    """A reviewed game: its game, the budget each search had (as text: "nodes 20000 a search, ..."),
    and every move reviewed."""

    game: Game
    budget: str
    moves: tuple[ReviewedMove, ...]
    complete: bool = True  # False where ``stop`` ended it before the last move

    def marks(self, player: Colour) -> dict[str, int]:
        """How many moves of each mark the player made."""
        counts = dict.fromkeys(MARKS, 0)
        for move in self.moves:
            if move.player == player and move.mark is not None:
                counts[move.mark] += 1
        return counts

    def average_loss(self, player: Colour) -> float:
        """The share of a game the player's moves gave away on average (lower is better)."""
        losses = [m.given_away for m in self.moves if m.player == player]
        return sum(losses) / len(losses) if losses else 0.0

    def accuracy(self, player: Colour) -> float | None:
        """The player's accuracy in percent (None if he made no move), as lichess counts it
        (lila's ``AccuracyPercent.gameAccuracy``): each move's :func:`move_accuracy`, weighted
        by how much the game swung around it (the standard deviation of the player's expected
        result over a window of a tenth of the game, 2 to 8 plies, kept within 0.5 and 12
        percent), and that weighted mean averaged with the plain harmonic mean, so that one
        blunder weighs more than many good moves make up for."""
        if not any(m.player == player for m in self.moves):
            return None
        first = self.moves[0]
        before = first.best_expected if first.player == player else first.standings.get(player, 0.5)
        percents = [100 * before] + [100 * m.standings.get(player, 0.5) for m in self.moves]
        window = min(8, max(2, len(self.moves) // 10))
        windows = [percents[:window]] * max(0, min(window, len(percents)) - 2)
        windows += [percents[i : i + window] for i in range(len(percents) - window + 1)]
        weighted = [
            (move_accuracy(m.given_away), min(12.0, max(0.5, _deviation(spread))))
            for m, spread in zip(self.moves, windows, strict=True)
            if m.player == player
        ]
        mean = sum(a * w for a, w in weighted) / sum(w for _, w in weighted)
        harmonic = len(weighted) / sum(1 / max(a, 1e-9) for a, _ in weighted)
        return (mean + harmonic) / 2

    def summary(self) -> dict[str, dict[str, object]]:
        """Per player (by colour name): his marks, accuracy (percent, None without a move) and
        average loss, as JSON takes them."""
        out: dict[str, dict[str, object]] = {}
        for colour in self.game.kind.colours:
            accuracy = self.accuracy(colour)
            out[colour.value] = {
                "marks": self.marks(colour),
                "accuracy": None if accuracy is None else round(accuracy, 1),
                "average_loss": round(self.average_loss(colour), 4),
            }
        return out


def move_accuracy(given_away: float) -> float:
    """A move's accuracy in percent from the share of a game it gave away, by lichess's fit
    (lila's ``AccuracyPercent.fromWinPercents``, its one point for the analysis' own error
    included): 100 for the best move, about 50 for a quarter of a game given away."""
    if given_away <= 0:
        return 100.0
    raw = 103.1668100711649 * math.exp(-0.04354415386753951 * 100 * given_away) - 3.166924740191411
    return min(100.0, max(0.0, raw + 1))


def _deviation(values: list[float]) -> float:
    mean = sum(values) / len(values)
    return math.sqrt(sum((v - mean) ** 2 for v in values) / len(values))


def review_game(
    game: Game,
    *,
    engine: Engine | None = None,
    nodes: int | None = None,
    depth: int | None = None,
    time: float | None = None,
    progress: Callable[[int, int], None] | None = None,
    stop: Callable[[], bool] | None = None,
    verify: int = VERIFY_FACTOR,
) -> Review:
    """Reviews every move of the game (it is not changed) with ``engine`` (a fresh one if
    None), each search to ``nodes``, ``depth`` or ``time`` (by default 20,000 nodes), a move
    that would be marked again ``verify`` times as long (1: not again; the module's docstring).
    ``progress(done, total)`` is called after each move; ``stop()``, asked before each, ends
    the review there when it answers True (the Review says it is not ``complete``)."""
    if nodes is None and depth is None and time is None:
        nodes = 20_000
    if isinstance(verify, bool) or not isinstance(verify, int) or verify < 1:
        raise ValueError(f"verify must be a whole number from 1 (no second search), got {verify!r}")
    # the budget of the searches that check a mark
    deep_nodes = nodes * verify if nodes else None
    deep_time = min(time * verify, max(time, VERIFY_SECONDS)) if time else None
    deep_depth = depth + VERIFY_PLIES if depth else None
    engine = engine if engine is not None else Engine(hash_mb=32)
    model = model_for(game.kind)
    steps = game.steps
    replay = game.copy_at_start()  # the steps are replayed forward
    total = sum(1 for step in steps if step.move is not None)
    budget = ", ".join(
        f"{name} {value}" for name, value in (("nodes", nodes), ("depth", depth), ("time", time)) if value
    ) + (f" a search, each mark checked by searches {verify}x as long" if verify > 1 else " a search")
    reviewed: list[ReviewedMove] = []
    for step in steps:
        if step.move is None:
            replay.replay(step)
            continue
        if stop is not None and stop():
            return Review(game, budget, tuple(reviewed), complete=False)
        player = replay.turn
        best, played = _searches(engine, replay, step.move, nodes, depth, time)
        expected, best_expected = _expected(model, played.score), _expected(model, best.score)
        if verify > 1 and _mark(best_expected - expected, model, played, best) is not None:
            best, played = _searches(engine, replay, step.move, deep_nodes, deep_depth, deep_time)
            expected, best_expected = _expected(model, played.score), _expected(model, best.score)
        reviewed.append(
            ReviewedMove(
                ply=len(reviewed) + 1,
                player=player,
                move=step.move,
                best_move=best.best_move if best.best_move is not None else step.move,
                score=played.score,
                best_score=best.score,
                expected=expected,
                best_expected=best_expected,
                mark=_mark(best_expected - expected, model, played, best),
                standings={
                    colour: o.expected_result
                    for colour, o in standings(replay.kind, player, played.score, played.scores, played.mate_in).items()
                },
                mate_in=_decided(played),
                best_mate_in=_decided(best),
            )
        )
        replay.push(step.move)
        if progress is not None:
            progress(len(reviewed), total)
    return Review(game, budget, tuple(reviewed))


def _searches(
    engine: Engine, position: Game, move: Move, nodes: int | None, depth: int | None, time: float | None
) -> tuple[SearchResult, SearchResult]:
    """The search of the position, and of the move played there (the same where it is the best)."""
    best = engine.search(position, nodes=nodes, depth=depth, time=time)
    if move == best.best_move:
        return best, best
    return best, engine.search(position, nodes=nodes, depth=depth, time=time, searchmoves=[move])


def _decided(result: SearchResult) -> int | None:
    """The moves to the game's end the search found (SearchResult.mate_in where the score is one)."""
    return result.outlook.mate_in if result.outlook is not None else None


def _expected(model: OutcomeModel, score: int) -> float:
    return model.outlook(score).expected_result


def _mark(given_away: float, model: OutcomeModel, played: SearchResult, best: SearchResult) -> str | None:
    """The mark of a move that gave away ``given_away`` of a game. Where a found mate comes or
    goes, the chances say little (a side far behind has none left to lose), so the move is
    judged as lichess judges it: by how far the game stood from even before it."""
    played_mate, best_mate = _decided(played), _decided(best)
    if played_mate is not None and played_mate < 0 and (best_mate is None or best_mate > 0):
        return _mate_mark(-model.pawns(best.score) if best_mate is None else math.inf)  # it lets a mate in
    if best_mate is not None and best_mate > 0 and (played_mate is None or played_mate < 0):
        return _mate_mark(model.pawns(played.score) if played_mate is None else -math.inf)  # it lets a mate go
    for mark, least in THRESHOLDS.items():
        if given_away >= least:
            return mark
    return None


def _mate_mark(standing: float) -> str:
    """The mark of a move that lets a mate in (or go) where the mover's side stood ``standing``
    pawns behind (or ahead) of even without it: lichess's "checkmate is now unavoidable" and
    "lost forced checkmate", by its thresholds (10 and 7 pawns)."""
    if standing > MATE_STANDING["inaccuracy"]:
        return "inaccuracy"
    if standing > MATE_STANDING["mistake"]:
        return "mistake"
    return "blunder"
