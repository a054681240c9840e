"""What a score means: the chances of winning, drawing and losing, and the place to expect.

A search scores a position in centipawns for the side to move, and a centipawn is not worth the
same in every game: three opponents take back more than one does. As Stockfish does for its
win/draw/loss output, each game's scores are mapped to outcomes by a model fitted to the
engine's own games (self-play training data, :mod:`polychess.training`)::

    win(s)  = 1 / (1 + exp(-(s - a) / b))
    loss(s) = 1 / (1 + exp(-(-s - a) / b))
    draw(s) = 1 - win(s) - loss(s)

fitted by maximum likelihood. Where two sides play (standard chess, four-player teams) *win*
is the side winning and *draw* a draw, and a position is the same for both sides seen from
either, so one ``a`` and ``b`` serve both curves. Where every player is on his own
(three-player chess, free-for-all) *win* is finishing first alone, *loss* last alone, and
*draw* anything between; the loss curve has its own ``loss_a`` and ``loss_b`` (a player far
behind is often not the last one out), each curve fitted alone.
``pawns(s) = s / a`` is the score in the game's own pawns: +1.0 is where the side to move wins
half the time, in every game, so "+1.3" means the same thing everywhere.

>>> from polychess import outlook
>>> model = outlook.model_for("standard")
>>> model.pawns(model.a)
1.0
"""

from __future__ import annotations

import json
import math
import os
from array import array
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass
from functools import cache
from importlib import resources

from polychess import _core
from polychess.board import Colour
from polychess.catalogue import GameKind, kind_of
from polychess.files import open_regular
from polychess.game import Game

__all__ = [
    "CalibrationBin",
    "Outlook",
    "OutcomeModel",
    "calibration",
    "fit",
    "model_for",
    "shipped_models",
    "standings",
]

# A score this close to the mate score is a found win or loss: certain, whatever the model says.
_DECIDED = _core.MATE - 1000
# No evaluation comes near this: a score beyond it is a game the search saw end, its result a
# share of the mate score (+1 first alone, -1 last alone; places between in between).
_ENDED = _core.MATE // 10


@dataclass(frozen=True)
class Outlook:
    """One side's prospects: its score in the game's pawns, the chances (0 to 1) of winning,
    drawing (in the multi-player games: neither first nor last) and losing, and the place to
    expect (1 the best; where two sides play, 1 a win, 2 a loss, 1.5 a draw)."""

    pawns: float
    win: float
    draw: float
    loss: float
    expected_place: float
    # The moves of this side until the found end of the game (negative: until it loses), where
    # the search saw one (SearchResult.mate_in); None otherwise.
    mate_in: int | None = None

    @property
    def text(self) -> str:
        """The score as people read it: ``#3`` for a mate this side gives in three of its moves,
        ``#-2`` for one it suffers in two, else pawns of the game with their sign (``+1.25``)."""
        if self.mate_in is not None:
            return f"#{self.mate_in}"
        return f"{self.pawns:+.2f}"

    @property
    def expected_result(self) -> float:
        """Winning counted 1, a draw (or a middle place) 0.5, losing 0: the result to expect."""
        return self.win + self.draw / 2

    def permille(self) -> tuple[int, int, int]:
        """Win, draw and loss in thousandths, summing to 1000 (UCI's ``wdl``)."""
        win, loss = round(1000 * self.win), round(1000 * self.loss)
        return win, 1000 - win - loss, loss


@dataclass(frozen=True)
class OutcomeModel:
    """A game's fitted model (module docstring): its parameters ``a`` and ``b`` in centipawns,
    the number of ``sides`` (2, or the players where each is on his own) and the positions it
    was fitted on."""

    game: str  # GameKind.family
    a: float
    b: float
    sides: int
    positions: int = 0
    loss_a: float | None = None  # None: a and b (two sides)
    loss_b: float | None = None

    def outlook(self, score: int, mate_in: int | None = None) -> Outlook:
        """The prospects of the side to move with this search score (and, for a found end of the
        game, its moves to it: SearchResult.mate_in)."""
        if abs(score) >= _DECIDED:
            win = 1.0 if score > 0 else 0.0
            if mate_in is not None and (mate_in > 0) != (score > 0):
                raise ValueError(f"mate_in {mate_in} does not go with the score {score}")
            return Outlook(math.copysign(99.0, score), win, 0.0, 1.0 - win, 1.0 if win else float(self.sides), mate_in)
        if abs(score) >= _ENDED:  # an end with places: the middle ones
            share = score / _core.MATE
            return Outlook(round(99.0 * share, 2), 0.0, 1.0, 0.0, 1.0 + (self.sides - 1) * (1.0 - share) / 2)
        win = _sigmoid((score - self.a) / self.b)
        loss_a, loss_b = (self.a, self.b) if self.loss_a is None or self.loss_b is None else (self.loss_a, self.loss_b)
        loss = _sigmoid((-score - loss_a) / loss_b)
        if win + loss > 1.0:  # separately fitted curves may overlap far out
            win, loss = win / (win + loss), loss / (win + loss)
        draw = max(0.0, 1.0 - win - loss)
        middle = (self.sides + 1) / 2
        return Outlook(self.pawns(score), win, draw, loss, win + self.sides * loss + middle * draw)

    def pawns(self, score: int) -> float:
        """The score in the game's pawns: 1.0 where the side to move wins half the time."""
        return round(score / self.a, 2)


def standings(
    kind: GameKind, mover: Colour, score: int, values: Mapping[Colour, int], mate_in: int | None = None
) -> dict[Colour, Outlook]:
    """Every player's outlook where the side to move (``mover``'s) has the search score
    ``score`` (with ``mate_in``, SearchResult's) and the evaluation gives each player ``values``
    (a search line's end, as ``SearchLine.scores``): the mover's side's from the score; where two
    sides play, the other side's is the same seen from there; where each player is on his own, the
    others' from their values (each against the average of the others', as the search scores a player)."""
    model = model_for(kind)
    side_of = {colour: side for side in kind.sides for colour in side}
    decided = mate_in if abs(score) >= _DECIDED else None
    result: dict[Colour, Outlook] = {}
    for colour in kind.colours:
        if side_of[colour] == side_of[mover]:
            result[colour] = model.outlook(score, decided)
        elif len(kind.sides) == 2:
            result[colour] = model.outlook(-score, None if decided is None else -decided)
        else:
            others = [values[c] for c in kind.colours if c != colour]
            result[colour] = model.outlook(round(values[colour] - sum(others) / max(1, len(others))))
    return result


def _sigmoid(x: float) -> float:
    return 1.0 / (1.0 + math.exp(-x)) if x > -500 else 0.0


_SHIPPED = "outcome_models.json"


@cache
def shipped_models() -> dict[str, OutcomeModel]:
    """The models the package ships, by game (``data/outcome_models.json``; docs/search.md says
    how they were fitted)."""
    text = resources.files("polychess").joinpath(f"data/{_SHIPPED}").read_text(encoding="utf-8")
    return {game: OutcomeModel(**fields) for game, fields in json.loads(text)["models"].items()}


def model_for(game: GameKind | str) -> OutcomeModel:
    """The shipped model of a game (a GameKind, or its family name such as ``three-player``)."""
    family = game.family if isinstance(game, GameKind) else game
    models = shipped_models()
    if family not in models:
        raise ValueError(f"no outcome model for {family!r} (there are: {', '.join(models)})")
    return models[family]


def fit(paths: Iterable[str | os.PathLike[str]], skip_plies: int = 8, most_positions: int = 200_000) -> OutcomeModel:
    """Fits a game's model to training data files of that game (``polychess train generate``):
    the positions the network training reads (the first ``skip_plies`` of each game, positions
    in check or just after a capture, and found wins and losses left out), at most
    ``most_positions`` of them taken evenly, each with the mover's search score and how his
    game ended."""
    game, scores, outcomes = _observations(paths, skip_plies)
    step = max(1, -(-len(scores) // most_positions))
    scores, outcomes = scores[::step], outcomes[::step]
    sides = len(kind_of(game).sides)
    if sides == 2:
        a, b = _maximum_likelihood(lambda a, b: _likelihoods(scores, outcomes, a, b))
        return OutcomeModel(game, round(a, 1), round(b, 1), sides, len(scores))
    wins = [int(o == 2) for o in outcomes]
    losses = [int(o == 0) for o in outcomes]
    minus = [-s for s in scores]
    a, b = _maximum_likelihood(lambda a, b: _binary_likelihoods(scores, wins, a, b))
    loss_a, loss_b = _maximum_likelihood(lambda a, b: _binary_likelihoods(minus, losses, a, b))
    return OutcomeModel(game, round(a, 1), round(b, 1), sides, len(scores), round(loss_a, 1), round(loss_b, 1))


@dataclass(frozen=True)
class CalibrationBin:
    """Positions whose predicted chance of winning fell in one band: how many, the chance the
    model gave them on average, and how often the mover went on to win (first alone, where each
    player is on his own); the same for losing."""

    positions: int
    predicted_win: float
    observed_win: float
    predicted_loss: float
    observed_loss: float


def calibration(
    model: OutcomeModel, paths: Iterable[str | os.PathLike[str]], skip_plies: int = 8, bins: int = 10
) -> list[CalibrationBin]:
    """How well the model's chances match what happened in games it was not fitted to (training
    data files of its game, the positions ``fit`` reads): the positions sorted by the predicted
    chance of winning and cut into ``bins`` bands of equal size (deciles by default)."""
    game, scores, outcomes = _observations(paths, skip_plies)
    if game != model.game:
        raise ValueError(f"the files hold {game} games, the model is {model.game}'s")
    predicted = sorted(
        ((model.outlook(s), o) for s, o in zip(scores, outcomes, strict=True)), key=lambda pair: pair[0].win
    )
    result = []
    for k in range(bins):
        band = predicted[k * len(predicted) // bins : (k + 1) * len(predicted) // bins]
        if band:
            n = len(band)
            result.append(
                CalibrationBin(
                    n,
                    sum(o.win for o, _ in band) / n,
                    sum(outcome == 2 for _, outcome in band) / n,
                    sum(o.loss for o, _ in band) / n,
                    sum(outcome == 0 for _, outcome in band) / n,
                )
            )
    return result


def _observations(paths: Iterable[str | os.PathLike[str]], skip_plies: int) -> tuple[str, list[int], list[int]]:
    """The game of training data files, and each position's mover's search score and outcome
    (0 loss, 1 draw or a middle place, 2 win) of the positions ``fit`` reads."""
    scores: list[int] = []
    outcomes: list[int] = []  # 0 loss, 1 draw (or a middle place), 2 win
    game = ""
    for path in paths:
        with open_regular(path, "training data", _core.InvalidTrainingDataError) as (file, _):
            data = _core.TrainingData(file.read())
        if game and data.game != game:
            raise ValueError(f"{os.fspath(path)} holds {data.game} games, not {game}")
        game = data.game
        kind = kind_of(game)
        raw = data.positions(Game.from_kind(kind).rules.to_text(), 0, data.games, skip_plies)
        players, count = raw["players"], raw["count"]
        turn, score, result = array("B", raw["turn"]), array("h", raw["score"]), array("B", raw["result"])
        best = 2 * (players - 1)  # a result of this: ahead of everybody
        two_sides = len(kind.sides) == 2
        for i in range(count):
            mover_result = result[i * players + turn[i]]
            scores.append(score[i])
            if two_sides:
                outcomes.append(2 if 2 * mover_result > best else 0 if 2 * mover_result < best else 1)
            else:
                outcomes.append(2 if mover_result == best else 0 if mover_result == 0 else 1)
    if not scores:
        raise ValueError("no positions to fit: the files hold no games past their opening plies")
    return game, scores, outcomes


def _likelihoods(scores: Sequence[int], outcomes: Sequence[int], a: float, b: float) -> Iterable[float]:
    """Each outcome's probability under the symmetric model (0 loss, 1 draw, 2 win)."""
    for s, outcome in zip(scores, outcomes, strict=True):
        win, loss = _sigmoid((s - a) / b), _sigmoid((-s - a) / b)
        yield win if outcome == 2 else loss if outcome == 0 else 1.0 - win - loss


def _binary_likelihoods(scores: Sequence[int], happened: Sequence[int], a: float, b: float) -> Iterable[float]:
    """Each event's probability under one logistic curve, or its complement's where it did not happen."""
    for s, event in zip(scores, happened, strict=True):
        p = _sigmoid((s - a) / b)
        yield p if event else 1.0 - p


def _maximum_likelihood(likelihoods: Callable[[float, float], Iterable[float]]) -> tuple[float, float]:
    """The (a, b) that make the observations likeliest (the product of their ``likelihoods``),
    by Nelder and Mead's simplex: two parameters, no gradient needed."""

    def cost(point: tuple[float, float]) -> float:
        a, b = point
        if a <= 0 or b <= 1:
            return math.inf
        return -sum(math.log(max(p, 1e-12)) for p in likelihoods(a, b))

    simplex = [(200.0, 100.0), (400.0, 100.0), (200.0, 200.0)]
    costs = [cost(p) for p in simplex]
    for _ in range(200):
        order = sorted(range(3), key=costs.__getitem__)
        simplex, costs = [simplex[i] for i in order], [costs[i] for i in order]
        if abs(costs[2] - costs[0]) < 1e-6 * max(1.0, abs(costs[0])):
            break
        centre = _between(simplex[0], simplex[1], 0.5)
        reflected = _between(centre, simplex[2], -1.0)
        reflected_cost = cost(reflected)
        if reflected_cost < costs[0]:
            expanded = _between(centre, simplex[2], -2.0)
            expanded_cost = cost(expanded)
            simplex[2], costs[2] = (
                (expanded, expanded_cost) if expanded_cost < reflected_cost else (reflected, reflected_cost)
            )
        elif reflected_cost < costs[1]:
            simplex[2], costs[2] = reflected, reflected_cost
        else:
            contracted = _between(centre, simplex[2], 0.5)
            contracted_cost = cost(contracted)
            if contracted_cost < costs[2]:
                simplex[2], costs[2] = contracted, contracted_cost
            else:  # shrink toward the best
                for i in (1, 2):
                    simplex[i] = _between(simplex[0], simplex[i], 0.5)
                    costs[i] = cost(simplex[i])
    return simplex[costs.index(min(costs))]


def _between(p: tuple[float, float], q: tuple[float, float], t: float) -> tuple[float, float]:
    """The point a share ``t`` of the way from p to q (beyond q above 1, behind p below 0)."""
    return (p[0] + t * (q[0] - p[0]), p[1] + t * (q[1] - p[1]))


def models_text(models: Iterable[OutcomeModel], source: str) -> str:
    """The JSON of a models file: the models by game, and how they were made."""
    return json.dumps({"source": source, "models": {m.game: asdict(m) for m in models}}, indent=2) + "\n"
