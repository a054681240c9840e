"""Texel tuning: the evaluation weights that best predict the games' results.

Each sample position gives one row per player still in: his side's features minus the
opposing sides' (averaged over those sides, as the search scores a position for a player) and
the result he went on to score. The model predicts ``1 / (1 + 10 ** (-K * score / 400))`` from
the linear score; ``K`` is fitted first with the current weights (so that the scale of a
centipawn stays what it was), then the weights by gradient descent (Adam) on the mean squared
error, stopped where the error on held-out games is least. Needs numpy (``pip install 'polychess[tune]'``).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from polychess.evaluation import TERMS, features_of
from polychess.tune.samples import Sample

__all__ = ["Fit", "POINT_VALUE", "design", "fit_weights"]

# What one free-for-all point is worth in the search's scores (cpp/search/searcher.h POINT_VALUE).
POINT_VALUE = 200


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


def design(samples: Sequence[Sample]) -> tuple[Any, Any, Any]:
    """The regression's rows: (features, fixed score offset, result) per player in, as arrays."""
    np = _numpy()
    rows, offsets, results = [], [], []
    for sample in samples:
        board = sample.board()
        features = np.array(features_of(board), dtype=np.float64)
        colours = [c.value for c in board.colours]
        side = [next(i for i, s in enumerate(board.kind.sides) if c in s) for c in board.colours]
        players_in = [i for i, c in enumerate(colours) if c in sample.results]
        for p in players_in:
            friends = [q for q in players_in if side[q] == side[p]]
            enemies = [q for q in players_in if q not in friends]
            if not enemies:
                continue
            sides = len({side[q] for q in enemies})
            rows.append(features[friends].sum(axis=0) - features[enemies].sum(axis=0) / sides)
            points = [sample.points.get(colours[q], 0) for q in range(len(colours))]
            offsets.append(POINT_VALUE * (sum(points[q] for q in friends) - sum(points[q] for q in enemies) / sides))
            results.append(sample.results[colours[p]])
    return np.array(rows), np.array(offsets, dtype=np.float64), np.array(results, dtype=np.float64)


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
    steps: int = 3000,
    rate: float = 1.0,
    validation_share: float = 0.1,
    progress: Callable[[int, float], None] | None = None,
) -> Fit:
    """The weights, from ``start``, that minimise the error on ``samples``; ``frozen`` terms keep
        their starting weight. ``rate`` is Adam's step in centipawns of score (a weight moves by
    ``rate`` over its feature's standard deviation). The last ``validation_share``
        of the samples (later games, as generate writes them) is held out: the weights kept are
        those of the step that predicted it best, so a fit to few games stops before it learns
        their noise."""
    np = _numpy()
    unknown = sorted(set(frozen) - set(TERMS))
    if unknown:
        raise ValueError(f"unknown terms to freeze: {', '.join(unknown)}")
    held = int(len(samples) * validation_share) if len(samples) >= 10 else 0
    x, offsets, y = design(samples[: len(samples) - held])
    vx, voffsets, vy = design(samples[len(samples) - held :]) if held else (x, offsets, y)
    if not len(y) or not len(vy):
        raise ValueError("no sample has a player whose result could be fitted")
    w = np.array([float(start[t]) for t in TERMS])
    k = _fit_k(np, x, offsets, y, w)

    def validation_error(weights: Any) -> float:
        return float(np.mean((_predict(np, vx, voffsets, weights, k) - vy) ** 2))

    before = validation_error(w)
    best, best_error = w.copy(), before
    free = np.array([t not in frozen for t in TERMS], dtype=np.float64)
    # Steps in units of each term's spread: a weight on a feature that varies by tens (cells
    # reached) moves its score as much per step as a piece's value does.
    spread = np.maximum(x.std(axis=0), 1e-3)
    m = np.zeros_like(w)
    v = np.zeros_like(w)
    beta1, beta2 = 0.9, 0.999
    scale = k * math.log(10) / 400
    for step in range(1, steps + 1):
        p = _predict(np, x, offsets, w, k)
        gradient = (x.T @ (2 * (p - y) * p * (1 - p) * scale)) / len(y) * free
        m = beta1 * m + (1 - beta1) * gradient
        v = beta2 * v + (1 - beta2) * gradient**2
        w -= rate / spread * (m / (1 - beta1**step)) / (np.sqrt(v / (1 - beta2**step)) + 1e-12)
        if step % 10 == 0:
            error = validation_error(w)
            if error < best_error:
                best, best_error = w.copy(), error
            if progress is not None and step % 100 == 0:
                progress(step, error)
    rounded = np.round(best)
    return Fit(
        {t: int(value) for t, value in zip(TERMS, rounded, strict=True)}, k, before, validation_error(rounded), len(y)
    )
