"""What a score means (polychess.outlook): the shipped outcome models, the fit that makes them,
and where they show (search results, UCI's wdl)."""

from __future__ import annotations

import math
import random

import pytest

from polychess import Board, Engine, _core, outlook
from polychess.catalogue import KINDS, GameKind
from polychess.game import Game
from polychess.training.data import generate

FAMILIES = sorted({kind.family for kind in KINDS})


@pytest.mark.parametrize("family", FAMILIES)
def test_every_game_has_a_model_that_reads_sensibly(family):
    model = outlook.model_for(family)
    assert model.a > 0 and model.b > 1 and model.positions > 0
    assert model.pawns(round(model.a)) == pytest.approx(1.0, abs=0.01)  # +1.0: winning half the time
    assert model.outlook(round(model.a)).win == pytest.approx(0.5, abs=0.01)
    previous = None
    for score in range(-3000, 3001, 250):
        o = model.outlook(score)
        assert o.win + o.draw + o.loss == pytest.approx(1.0)
        assert min(o.win, o.draw, o.loss) >= 0
        assert 1.0 <= o.expected_place <= model.sides
        assert sum(o.permille()) == 1000
        if previous is not None:  # a better score never lowers the chances
            assert o.win >= previous.win and o.loss <= previous.loss
            assert o.expected_place <= previous.expected_place
        previous = o
    won, lost = model.outlook(_core.MATE - 5), model.outlook(-(_core.MATE - 5))
    assert (won.win, won.expected_place) == (1.0, 1.0)
    assert (lost.loss, lost.expected_place) == (1.0, float(model.sides))


def test_two_sides_see_one_position_alike():
    model = outlook.model_for("standard")
    for score in (-500, -120, 0, 75, 400):
        mine, theirs = model.outlook(score), model.outlook(-score)
        assert mine.win == pytest.approx(theirs.loss) and mine.draw == pytest.approx(theirs.draw)


def test_an_unknown_game_is_refused_by_name():
    with pytest.raises(ValueError, match="no outcome model for 'chess960'"):
        outlook.model_for("chess960")


def test_the_fit_recovers_a_known_model():
    # outcomes drawn from a model with a = 300, b = 150: the likeliest (a, b) is near it
    rng = random.Random(5)
    scores, outcomes = [], []
    for _ in range(6000):
        s = rng.randint(-1200, 1200)
        win = 1 / (1 + math.exp(-(s - 300) / 150))
        loss = 1 / (1 + math.exp(-(-s - 300) / 150))
        u = rng.random()
        scores.append(s)
        outcomes.append(2 if u < win else 0 if u < win + loss else 1)
    a, b = outlook._maximum_likelihood(lambda a, b: outlook._likelihoods(scores, outcomes, a, b))
    assert a == pytest.approx(300, rel=0.1) and b == pytest.approx(150, rel=0.15)


def _starts(variant: str, count: int) -> tuple[GameKind, list[str]]:
    """The kind, and positions after each of its first ``count`` legal moves."""
    kind = next(k for k in KINDS if k.variant == variant)
    starts = []
    for move in list(Game.from_kind(kind).legal_moves)[:count]:
        game = Game.from_kind(kind)
        game.push(move)
        starts.append(game.board.fen())
    return kind, starts


def test_fit_reads_self_play_data(tmp_path):
    kind, starts = _starts("standard", 6)
    path = tmp_path / "games.pctd"
    list(generate(path, kind, starts, nodes=150, max_plies=120))
    model = outlook.fit([path], skip_plies=4)
    assert model.game == "standard" and model.sides == 2 and model.positions > 50
    assert model.a > 0 and model.b > 1
    other = tmp_path / "three.pctd"
    three, three_starts = _starts("three-player", 2)
    list(generate(other, three, three_starts, nodes=100, max_plies=40))
    with pytest.raises(ValueError, match="holds three-player games, not standard"):
        outlook.fit([path, other])


def test_search_results_carry_the_outlook():
    board = Board("three-player")
    result = Engine(hash_mb=8).search(board, depth=2, multipv=2)
    model = outlook.model_for(board.kind)
    assert result.outlook == model.outlook(result.score)
    assert [line.outlook for line in result.lines] == [model.outlook(line.score) for line in result.lines]


def test_an_end_with_places_reads_as_its_place():
    # a search that saw the game end with the mover second of four: a third of the mate score
    model = outlook.model_for("four-player-ffa")
    second = model.outlook(_core.MATE // 3)
    assert (second.win, second.draw, second.loss) == (0.0, 1.0, 0.0)
    assert second.expected_place == pytest.approx(2.0)
    assert model.outlook(-(_core.MATE // 3)).expected_place == pytest.approx(3.0)
