"""Texel tuning: the evaluation weights that best predict the games' results.

Each sample position gives one row per player still in: his side's features minus the
opposing sides' (averaged over those sides, as the search scores a position for a player) and
the result he went on to score. The model predicts ``1 / (1 + 10 ** (-K * score / 400))`` from
the linear score; ``K`` is fitted first with the current weights (so that the scale of a
centipawn stays what it was), then the weights by gradient descent (Adam) on the mean squared
error, stopped where the error on held-out games is least. With ``cells`` the game's cell tables
(a piece-square table per kind, base and late: ``polychess.evaluation.CELL_TABLES``) are fitted
too, their features a sparse row per player (a piece counts on its cell's weight). Needs numpy
(``pip install 'polychess[tune]'``).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from polychess import _core, evaluation
from polychess.board import Board
from polychess.evaluation import CELL_TABLES, TERMS, cell_values_of, features_of
from polychess.tune.samples import Sample

__all__ = ["CellRows", "Fit", "POINT_VALUE", "cell_design", "design", "fit_weights"]

# What one free-for-all point is worth in the search's scores (cpp/search/searcher.h POINT_VALUE).
POINT_VALUE = 200
# The cell weights' decay, chosen on standard chess's Stockfish-labelled samples (bench/README.md):
# 1e-8 held the largest weight to 36 cp and lost most of the fit's gain on held-out games, 0 let
# weights of cells seldom stood on grow past 300 cp; 1e-9 kept most of the gain, the largest 84.
CELL_DECAY = 1e-9


def _numpy() -> Any:
    try:
        import numpy
    except ImportError:
        raise RuntimeError("fitting needs numpy: pip install 'polychess[tune]'") from None
    return numpy


@dataclass(frozen=True)
class Fit:
    weights: dict[str, int]
    k: float
    error_before: float  # mean squared error on the held-out samples, of the starting weights
    error_after: float  # and of the fitted ones
    rows: int
    cells: dict[str, list[int]] = field(default_factory=dict)  # the cell tables, where they were fitted


@dataclass(frozen=True)
class CellRows:
    """The rows' cell features as a sparse matrix (numpy arrays of row, column, value), a column
    per cell weight (index into the game's flat cell weights)."""

    rows: Any
    columns: Any
    values: Any
    shape: tuple[int, int]

    def times(self, np: Any, weights: Any) -> Any:
        """Each row's dot product with ``weights``."""
        return np.bincount(self.rows, weights=self.values * weights[self.columns], minlength=self.shape[0])

    def transposed_times(self, np: Any, row_values: Any) -> Any:
        """Each column's dot product with ``row_values``."""
        return np.bincount(self.columns, weights=self.values * row_values[self.rows], minlength=self.shape[1])


def _player_rows(samples: Sequence[Sample]) -> Iterator[tuple[Board, list[int], list[int], int, Sample, int]]:
    """Each row's position, the seats of its player's side and of his enemies still in, the
    number of enemy sides, its sample and the player's seat: one row per player still in who
    has an enemy."""
    for sample in samples:
        board = sample.board()
        colours = [c.value for c in board.colours]
        side = [next(i for i, s in enumerate(board.kind.sides) if c in s) for c in board.colours]
        players_in = [i for i, c in enumerate(colours) if c in sample.results]
        for p in players_in:
            friends = [q for q in players_in if side[q] == side[p]]
            enemies = [q for q in players_in if q not in friends]
            if enemies:
                yield board, friends, enemies, len({side[q] for q in enemies}), sample, p


def design(samples: Sequence[Sample]) -> tuple[Any, Any, Any]:
    """The regression's rows: (features, fixed score offset, result) per player in, as arrays. The
    offset is what the weights do not scale: the points (where points rank) and the cell weights."""
    np = _numpy()
    rows, offsets, results = [], [], []
    seen: tuple[Board | None, Any, list[int]] = (None, None, [])
    for board, friends, enemies, sides, sample, p in _player_rows(samples):
        if seen[0] is not board:
            seen = (board, np.array(features_of(board), dtype=np.float64), cell_values_of(board))
        _, features, cells = seen
        colours = [c.value for c in board.colours]
        rows.append(features[friends].sum(axis=0) - features[enemies].sum(axis=0) / sides)
        fixed = [POINT_VALUE * sample.points.get(colour, 0) + cells[q] for q, colour in enumerate(colours)]
        offsets.append(sum(fixed[q] for q in friends) - sum(fixed[q] for q in enemies) / sides)
        results.append(sample.results[colours[p]])
    return np.array(rows), np.array(offsets, dtype=np.float64), np.array(results, dtype=np.float64)


def cell_design(samples: Sequence[Sample]) -> CellRows:
    """The rows of :func:`design`, in its order, as cell features: his side's pieces count +1 on
    their cells' weights (the late ones their lateness), the enemies' -1 over the enemy sides."""
    np = _numpy()
    rows: list[int] = []
    columns: list[int] = []
    values: list[float] = []
    width = count = 0
    seen: tuple[Board | None, list[list[tuple[int, int]]]] = (None, [])
    for board, friends, enemies, sides, _, _ in _player_rows(samples):
        if seen[0] is not board:
            seen = (board, _core.evaluation_cell_features(board.core))
            width = len(CELL_TABLES) * board.layout.cell_count
        for seats, sign in ((friends, 1.0), (enemies, -1.0 / sides)):
            for q in seats:
                for column, weight_count in seen[1][q]:
                    rows.append(count)
                    columns.append(column)
                    values.append(sign * weight_count)
        count += 1
    return CellRows(np.array(rows, dtype=np.int64), np.array(columns, dtype=np.int64), np.array(values), (count, width))


def _predict(np: Any, x: Any, offsets: Any, weights: Any, k: float) -> Any:
    score = x @ weights + offsets
    return 1.0 / (1.0 + np.power(10.0, -k * score / 400.0))


def _fit_k(np: Any, x: Any, offsets: Any, y: Any, weights: Any) -> float:
    """The scale that fits the results best with the given weights (golden-section search)."""

    def error(k: float) -> float:
        return float(np.mean((_predict(np, x, offsets, weights, k) - y) ** 2))

    lo, hi = 0.01, 10.0
    ratio = (math.sqrt(5) - 1) / 2
    a, b = hi - ratio * (hi - lo), lo + ratio * (hi - lo)
    for _ in range(60):
        if error(a) < error(b):
            hi, b = b, a
            a = hi - ratio * (hi - lo)
        else:
            lo, a = a, b
            b = lo + ratio * (hi - lo)
    return (lo + hi) / 2


def fit_weights(
    samples: Sequence[Sample],
    start: Mapping[str, int],
    *,
    frozen: Sequence[str] = (),
    cells: Mapping[str, Sequence[int]] | None = None,
    cell_decay: float = CELL_DECAY,
    steps: int = 3000,
    rate: float = 1.0,
    validation_share: float = 0.1,
    progress: Callable[[int, float], None] | None = None,
) -> Fit:
    """The weights, from ``start``, that minimise the error on ``samples``; ``frozen`` terms keep
    their starting weight. With ``cells`` (the starting tables, ``{}`` for none) the game's cell
    tables are fitted too, each weight pulled toward 0 by ``cell_decay`` times its square in the
    error (a cell seldom stood on keeps a small weight, and its base and late weights do not grow
    apart where its positions all have about the same lateness). ``rate`` is Adam's step in
    centipawns of score (a weight moves by ``rate`` over its feature's standard deviation, a cell
    weight by ``rate``). The last ``validation_share`` of the samples (later games, as generate
    writes them) is held out: the weights kept are those of the step that predicted it best, so
    a fit to few games stops before it learns their noise."""
    np = _numpy()
    unknown = sorted(set(frozen) - set(TERMS))
    if unknown:
        raise ValueError(f"unknown terms to freeze: {', '.join(unknown)}")
    held = int(len(samples) * validation_share) if len(samples) >= 10 else 0
    train, validation = samples[: len(samples) - held], samples[len(samples) - held :] if held else samples
    x, offsets, y = design(train)
    vx, voffsets, vy = design(validation)
    if not len(y) or not len(vy):
        raise ValueError("no sample has a player whose result could be fitted")
    w = np.array([float(start[t]) for t in TERMS])
    c = np.zeros(0)
    rows = vrows = None
    if cells is not None:
        game = samples[0].game
        rows, vrows = cell_design(train), cell_design(validation)
        # The offsets hold the cell values of the game's own tables: fitted now, they come out.
        own = _flat_cells(np, evaluation.game_cells(game), rows.shape[1])
        offsets, voffsets = offsets - rows.times(np, own), voffsets - vrows.times(np, own)
        c = _flat_cells(np, cells, rows.shape[1])

    def scores(weights: Any, cell_weights: Any, validating: bool) -> Any:
        features, table, fixed = (vx, vrows, voffsets) if validating else (x, rows, offsets)
        score = features @ weights + fixed
        return score if table is None else score + table.times(np, cell_weights)

    def predict(weights: Any, cell_weights: Any, validating: bool = False) -> Any:
        return 1.0 / (1.0 + np.power(10.0, -k * scores(weights, cell_weights, validating) / 400.0))

    k = _fit_k(np, x, scores(w, c, False) - x @ w, y, w)

    def validation_error(weights: Any, cell_weights: Any) -> float:
        return float(np.mean((predict(weights, cell_weights, True) - vy) ** 2))

    before = validation_error(w, c)
    best, best_cells, best_error = w.copy(), c.copy(), before
    free = np.array([t not in frozen for t in TERMS], dtype=np.float64)
    # Steps in units of each term's spread: a weight on a feature that varies by tens (cells
    # reached) moves its score as much per step as a piece's value does.
    step_size = np.concatenate([rate / np.maximum(x.std(axis=0), 1e-3), np.full(len(c), rate)])
    theta = np.concatenate([w, c])
    m = np.zeros_like(theta)
    v = np.zeros_like(theta)
    beta1, beta2 = 0.9, 0.999
    scale = k * math.log(10) / 400
    for step in range(1, steps + 1):
        w, c = theta[: len(TERMS)], theta[len(TERMS) :]
        p = predict(w, c)
        slope = 2 * (p - y) * p * (1 - p) * scale / len(y)
        gradient = x.T @ slope * free
        if rows is not None:
            gradient = np.concatenate([gradient, rows.transposed_times(np, slope) + 2 * cell_decay * c])
        m = beta1 * m + (1 - beta1) * gradient
        v = beta2 * v + (1 - beta2) * gradient**2
        theta -= step_size * (m / (1 - beta1**step)) / (np.sqrt(v / (1 - beta2**step)) + 1e-12)
        if step % 10 == 0:
            error = validation_error(theta[: len(TERMS)], theta[len(TERMS) :])
            if error < best_error:
                best, best_cells, best_error = theta[: len(TERMS)].copy(), theta[len(TERMS) :].copy(), error
            if progress is not None and step % 100 == 0:
                progress(step, error)
    rounded, rounded_cells = np.round(best), np.round(best_cells)
    width = len(rounded_cells) // len(CELL_TABLES)
    return Fit(
        {t: int(value) for t, value in zip(TERMS, rounded, strict=True)},
        k,
        before,
        validation_error(rounded, rounded_cells),
        len(y),
        {t: [int(v) for v in rounded_cells[i * width : (i + 1) * width]] for i, t in enumerate(CELL_TABLES)}
        if cells is not None
        else {},
    )


def _flat_cells(np: Any, cells: Mapping[str, Sequence[int]], width: int) -> Any:
    """The tables as one array in the core's order (a table left out counts 0)."""
    per_table = width // len(CELL_TABLES)
    return np.concatenate([np.array(cells.get(t, [0] * per_table), dtype=np.float64) for t in CELL_TABLES])
