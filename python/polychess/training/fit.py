"""Training a network on self-play data (``polychess train fit``; PyTorch, ``pip install
'polychess[train]'``, whose CPU build is enough).

The network is the one ``docs/nnue.md`` describes, in floats: a feature transformer (an
embedding bag over each perspective's features) and one output layer for every turn (the
file's turn buckets all hold it: trained per turn, the values learned a bonus for the mover,
130 centipawns on average in standard chess, which the search's pruning, comparing values a ply
apart, is likely to bear badly; docs/nnue.md). The search scores a position for the player
it searches for, whoever is to move there: his side's values minus the opposing sides'
average (points at 200 centipawns each where points rank).
A player's score, through a logistic curve of scale ``S`` centipawns, is compared with a blend
of the search's score and his result,
``(sigmoid(score_p / S) - (lam * sigmoid(search_p / S) + (1 - lam) * result_p))^2``.

Where there are two sides, every player still in is trained: ``search_p`` is the recorded
search score, the mover's, seen from p's side (his partner's is his, an opponent's its
negation). Where there are more, only the mover has a search score, and only the mover is
trained: the others' values are the same function read from their seats. (Comparing
the others with their results alone, as the first networks did, taught each player's value
the noise of game results: those networks lost 177-244 Elo to the classic evaluation, the
mover's alone 62 on the same data, bench/README.md.)

``S`` is fitted to the data first (the scale on which scores foretell results), as the classic
tuning fits its ``K``. The last tenth of the games is held out, and the weights kept are those
that predicted it best.

A network ``on_classic`` learns a correction of the classic evaluation: its values are added
to the classic evaluation's, in training as in the core, and it starts from nothing (its output
layer zero), so that it begins where the classic evaluation stands. A correction plays better
smaller than it predicts best (the search takes the moves whose corrections err upward): the
network written may be shrunk (``shrink``, the file's scale), standard chess's best at an eighth
(at a node budget).

With king buckets (``king_buckets``), a feature's weights are trained as the sum of its
bucket's and a weight all buckets share, and written summed: what a piece means wherever the
king stands is then learned from every position, not from one bucket's share of them, and the
buckets learn only how it differs.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from polychess import _core
from polychess.catalogue import GameKind, kind_of
from polychess.game import Game
from polychess.nnue import KING_BUCKETS, Network, input_count

__all__ = ["FitReport", "fit_network", "score_scale"]

POINT_VALUE = 200  # centipawns a point, as the search counts them (cpp/search/searcher.h)
SCALE = 400  # centipawns per unit of the network's output
MAX_PIECES_PER_COLOUR = 16


def _torch() -> Any:
    try:
        import torch
    except ImportError:
        raise RuntimeError("training needs PyTorch: pip install 'polychess[train]'") from None
    return torch


@dataclass(frozen=True)
class FitReport:
    positions: int  # training positions (held-out ones not counted)
    held_out: int
    score_scale: float  # S
    loss_before: float  # held-out loss of the untrained network
    loss_after: float  # of the network returned
    loss_classic: float  # of the classic evaluation, on the same positions and the same loss
    epochs: int


class _Batches:
    """Positions of a data file's games, as tensors."""

    def __init__(
        self, data: _core.TrainingData, kind: GameKind, games: range, skip_plies: int, king_buckets: int = 1
    ) -> None:
        torch = _torch()
        rules = Game.from_kind(kind).rules.to_text()
        raw = data.positions(rules, games.start, len(games), skip_plies, king_buckets)
        n, players, slots = raw["count"], raw["players"], raw["slots"]
        self.count = n
        self.players = players

        def array(name: str, dtype: Any, shape: tuple[int, ...]) -> Any:
            return (
                torch.frombuffer(bytearray(raw[name]), dtype=dtype).reshape(shape)
                if n
                else torch.zeros(shape, dtype=dtype)
            )

        features = array("features", torch.int16, (n, players, slots)).long()
        padding = input_count(kind.family, king_buckets)
        self.features = torch.where(features < 0, torch.full_like(features, padding), features)
        self.turn = array("turn", torch.uint8, (n,)).long()
        self.score = array("score", torch.int16, (n,)).float()
        self.result = array("result", torch.uint8, (n, players)).float() / (2 * (players - 1))
        self.in_game = array("in_game", torch.uint8, (n, players)).bool()
        self.points = array("points", torch.int32, (n, players)).float()
        self.classic = array("classic", torch.int32, (n, players)).float()

    _FIELDS = ("features", "turn", "score", "result", "in_game", "points", "classic")

    @classmethod
    def _made_of(cls, count: int, players: int, field: Callable[[str], Any]) -> _Batches:
        """Positions whose tensors are ``field(name)``, not read from a file."""
        batches = object.__new__(cls)
        batches.count, batches.players = count, players
        for name in cls._FIELDS:
            setattr(batches, name, field(name))
        return batches

    def kept(self, rows: Any) -> _Batches:
        """The positions of ``rows`` alone."""
        return _Batches._made_of(len(rows), self.players, lambda name: getattr(self, name)[rows])


class _Sides:
    """How the search makes a player's score of the players' values (cpp/search/searcher.h):
    his side's values minus the opposing sides' average, points at POINT_VALUE each where
    points rank (and then a player out still counts)."""

    def __init__(self, kind: GameKind) -> None:
        torch = _torch()
        players = len(kind.colours)
        side_of = {colour: i for i, side in enumerate(kind.sides) for colour in side}
        self.players = players
        self.same_side = torch.tensor([[side_of[p] == side_of[q] for q in kind.colours] for p in kind.colours])
        self.two_sides = len(kind.sides) == 2
        self.opposing_sides = len(kind.sides) - 1
        self.counts_points = kind.rules.ranking == "points"

    def scores(self, values: Any, batch: _Batches, rows: Any) -> Any:
        """Every player's score of the values, [rows][players]."""
        torch = _torch()
        if self.counts_points:
            values = values + POINT_VALUE * batch.points[rows]
        counted = batch.in_game[rows] | self.counts_points
        scores = []
        for p in range(self.players):
            mine = self.same_side[p]
            own, others = mine & counted, ~mine & counted
            scores.append((values * own).sum(dim=1) - (values * others).sum(dim=1) / self.opposing_sides)
        return torch.stack(scores, dim=1)

    def targets(self, batch: _Batches, rows: Any, scale: float, lam: float) -> tuple[Any, Any]:
        """Every player's target and weight, [rows][players]: his result blended with the
        search's score seen from his side; weight 1 for a player trained, 0 for one out (and,
        with more than two sides, for all but the mover)."""
        torch = _torch()
        searched = torch.sigmoid(batch.score[rows] / scale).unsqueeze(1)  # the mover's
        turn = batch.turn[rows]
        seen = torch.where(self.same_side[turn], searched, 1 - searched)
        weight = batch.in_game[rows].float()
        if not self.two_sides:  # only the mover has a search score: only he is trained
            weight = weight * torch.nn.functional.one_hot(turn, self.players).float()
        return lam * seen + (1 - lam) * batch.result[rows], weight

    def loss(self, values: Any, batch: _Batches, rows: Any, scale: float, lam: float) -> Any:
        """The mean squared error of the players' scores of ``values`` against their targets."""
        torch = _torch()
        target, weight = self.targets(batch, rows, scale, lam)
        error = (torch.sigmoid(self.scores(values, batch, rows) / scale) - target) ** 2
        return (error * weight).sum() / weight.sum()


class _Model:
    """The float network (docs/nnue.md), with the search's view of its values."""

    def __init__(self, kind: GameKind, hidden: int, seed: int, on_classic: bool = False, king_buckets: int = 1) -> None:
        torch = _torch()
        nn = torch.nn
        torch.manual_seed(seed)
        self.kind = kind
        self.king_buckets = king_buckets
        self.inputs = input_count(kind.family, king_buckets)
        self.unbucketed = input_count(kind.family)
        self.players = len(Game.from_kind(kind).board.colours)
        self.hidden = hidden
        # rows: the features, then the padding row (index `inputs`, kept zero: the -1 slots of
        # positions with fewer pieces), then with buckets the weights every bucket shares
        shared = self.unbucketed if king_buckets > 1 else 0
        self.ft = nn.EmbeddingBag(self.inputs + 1 + shared, hidden, mode="sum", padding_idx=self.inputs)
        with torch.no_grad():
            self.ft.weight.uniform_(-0.05, 0.05)
            if shared:  # the buckets start alike: as the network without them
                self.ft.weight[: self.inputs].zero_()
            self.ft.weight[self.inputs].zero_()
        self.ft_bias = nn.Parameter(torch.zeros(hidden))
        self.on_classic = on_classic
        self.sides = _Sides(kind)
        # one output layer for every turn (the module's docstring says why)
        if on_classic:
            self.out = nn.Parameter(torch.zeros(self.players * hidden))
        else:
            self.out = nn.Parameter(torch.randn(self.players * hidden) / math.sqrt(self.players * hidden))
        self.out_bias = nn.Parameter(torch.zeros(()))
        # the weights' bounds that keep the quantized network's integers from overflowing (a
        # bucketed feature's two parts half each, so that their sum stays within)
        self.ft_limit = 32000 / (255 * MAX_PIECES_PER_COLOUR * self.players) / 1.05 / (2 if shared else 1)
        self.out_limit = min(8.0, (2**31 - 1) / (255 * 512 * self.players * hidden) / 1.05)

    def parameters(self) -> list[Any]:
        return [self.ft.weight, self.ft_bias, self.out, self.out_bias]

    def values(self, batch: _Batches, rows: Any) -> Any:
        """Each player's value in centipawns, [rows][players]."""
        torch = _torch()
        n = self.players
        features = batch.features[rows]  # [B, n, slots]
        if self.king_buckets > 1:  # each feature's shared part too
            shared = torch.where(
                features < self.inputs,
                features % self.unbucketed + self.inputs + 1,
                torch.full_like(features, self.inputs),
            )
            features = torch.cat([features, shared], dim=2)
        b = features.shape[0]
        h = self.ft(features.reshape(b * n, -1)).reshape(b, n, self.hidden) + self.ft_bias
        clipped = h.clamp(0.0, 1.0)
        values = []
        for p in range(n):
            seen = torch.cat([clipped[:, (p + j) % n] for j in range(n)], dim=1)  # [B, n*H]
            values.append(seen @ self.out + self.out_bias)
        learned = torch.stack(values, dim=1) * SCALE
        return learned + batch.classic[rows] if self.on_classic else learned

    def clamp(self) -> None:
        torch = _torch()
        with torch.no_grad():
            self.ft.weight.clamp_(-self.ft_limit, self.ft_limit)
            self.ft.weight[self.inputs].zero_()
            self.ft_bias.clamp_(-self.ft_limit, self.ft_limit)
            self.out.clamp_(-self.out_limit, self.out_limit)

    def network(self, shrink: float = 1.0) -> Network:
        weights = self.ft.weight.detach()[: self.inputs]
        if self.king_buckets > 1:  # each bucket's part plus the shared one (a bucket is a block of features)
            shared = self.ft.weight.detach()[self.inputs + 1 :]
            weights = (weights.reshape(self.king_buckets, self.unbucketed, self.hidden) + shared).reshape(
                self.inputs, self.hidden
            )
        return Network.from_floats(
            self.kind.family,
            self.hidden,
            self.ft_bias.detach().tolist(),
            weights.reshape(-1).tolist(),
            self.out.detach().repeat(self.players).tolist(),
            self.out_bias.detach().repeat(self.players).tolist(),
            scale=round(SCALE * shrink),
            on_classic=self.on_classic,
            king_buckets=self.king_buckets,
        )


def _mover_result(batch: _Batches, rows: Any) -> Any:
    return batch.result[rows].gather(1, batch.turn[rows].unsqueeze(1)).squeeze(1)


def _quiet(batch: _Batches, sides: _Sides, max_gap: float) -> _Batches:
    """The positions whose search score is within ``max_gap`` centipawns of the classic
    evaluation's score for the mover: where they differ more, the search saw something a
    static evaluation cannot (a capture or a mate it is about to make, the points it is
    about to win), and a network trained on it learns that noise."""
    torch = _torch()
    rows = torch.arange(batch.count)
    classic = sides.scores(batch.classic, batch, rows).gather(1, batch.turn.unsqueeze(1)).squeeze(1)
    return batch.kept(torch.nonzero((batch.score - classic).abs() <= max_gap).squeeze(1))


def score_scale(batch: _Batches) -> float:
    """The S for which sigmoid(score / S) best foretells the mover's result (least squares)."""
    torch = _torch()
    if batch.count == 0:
        return 400.0
    score, result = batch.score, _mover_result(batch, torch.arange(batch.count))
    best = (math.inf, 400.0)
    for s in [100 * 1.15**i for i in range(40)]:
        error = float(((torch.sigmoid(score / s) - result) ** 2).mean())
        best = min(best, (error, s))
    return best[1]


def fit_network(
    data: bytes | Sequence[bytes],
    *,
    hidden: int = 128,
    epochs: int = 10,
    batch_size: int = 1024,
    rate: float = 1e-3,
    lam: float = 1.0,
    skip_plies: int = 8,
    seed: int = 1,
    on_classic: bool = False,
    shrink: float = 1.0,
    king_buckets: int = 1,
    max_gap: float | None = None,
    progress: Callable[[int, float], None] | None = None,
) -> tuple[Network, FitReport]:
    """Trains a network on training data files' bytes (one game's), and returns it quantized
    with a report. ``lam`` weighs the search's scores against the results; ``on_classic``
    trains a correction of the classic evaluation; ``shrink`` scales the values of the network
    written (the module's docstring says why a correction plays better smaller);
    ``king_buckets``, 1 or :data:`polychess.nnue.KING_BUCKETS`; ``max_gap`` (centipawns), if
    given, leaves out the positions whose search score differs from the classic evaluation's
    by more (training and held out alike)."""
    torch = _torch()
    if not 1 / SCALE <= shrink <= 1.0:
        raise ValueError(f"shrink {shrink} is not between {1 / SCALE} and 1")
    if king_buckets not in (1, KING_BUCKETS):
        raise ValueError(f"king buckets {king_buckets} is neither 1 (none) nor {KING_BUCKETS}")
    chunks = [data] if isinstance(data, bytes) else list(data)
    files = [_core.TrainingData(chunk) for chunk in chunks]
    games = {f.game for f in files}
    if len(games) != 1:
        raise ValueError(f"training data of one game, not of {', '.join(sorted(games))}")
    kind = kind_of(games.pop())
    train_parts, held_parts = [], []
    for f in files:
        cut = f.games - max(1, f.games // 10) if f.games > 1 else f.games
        train_parts.append(_Batches(f, kind, range(0, cut), skip_plies, king_buckets))
        held_parts.append(_Batches(f, kind, range(cut, f.games), skip_plies, king_buckets))
    train, held = _concatenate(train_parts), _concatenate(held_parts)
    if max_gap is not None:
        if max_gap < 0:
            raise ValueError(f"max gap {max_gap} is negative")
        sides = _Sides(kind)
        train, held = _quiet(train, sides, max_gap), _quiet(held, sides, max_gap)
    if train.count == 0 or held.count == 0:
        raise ValueError("too few positions to train on (and hold out): generate more games")
    s = score_scale(train)
    model = _Model(kind, hidden, seed, on_classic, king_buckets)
    optimizer = torch.optim.Adam(model.parameters(), lr=rate)

    def loss_on(batch: _Batches, rows: Any) -> Any:
        return model.sides.loss(model.values(batch, rows), batch, rows, s, lam)

    def held_loss() -> float:
        with torch.no_grad():
            return float(loss_on(held, torch.arange(held.count)))

    classic = float(model.sides.loss(held.classic, held, torch.arange(held.count), s, lam))

    before = best_loss = held_loss()
    best = model.network(shrink)
    rng = random.Random(seed)
    for epoch in range(1, epochs + 1):
        order = list(range(train.count))
        rng.shuffle(order)
        for first in range(0, len(order), batch_size):
            rows = torch.tensor(order[first : first + batch_size])
            optimizer.zero_grad()
            loss_on(train, rows).backward()
            optimizer.step()
            model.clamp()
        loss = held_loss()
        if progress is not None:
            progress(epoch, loss)
        if loss < best_loss:
            best_loss, best = loss, model.network(shrink)
    return best, FitReport(train.count, held.count, s, before, best_loss, classic, epochs)


def _concatenate(parts: list[_Batches]) -> _Batches:
    torch = _torch()
    if len(parts) == 1:
        return parts[0]
    return _Batches._made_of(
        sum(p.count for p in parts), parts[0].players, lambda name: torch.cat([getattr(p, name) for p in parts])
    )
