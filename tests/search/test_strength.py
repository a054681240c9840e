"""Strength levels (polychess.strength): the node cap and the evaluation noise of each level,
their order, the Elo labels, and the places that choose a level (Engine, the match runner's
specs, the CLI, `polychess uci`'s options, the web API)."""

from __future__ import annotations

import json
import queue
import random

import pytest

from polychess import Board, Engine, Game
from polychess.cli.common import DEFAULT_NODES, Budget, EngineSpec, UsageError, parse_engine_spec, strength_level
from polychess.match.players import parse_player
from polychess.protocol.games import GAME_KINDS
from polychess.protocol.server import UciServer
from polychess.strength import LEVELS, MAX_LEVEL, level_for_elo, level_of, load_levels
from polychess.web import api
from polychess.web.errors import ApiError
from polychess.web.options import parse_seat_options

MIDDLEGAME = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"


def test_every_step_up_searches_more_with_less_noise() -> None:
    assert MAX_LEVEL == len(LEVELS) >= 5
    for weaker, stronger in zip(LEVELS, LEVELS[1:], strict=False):
        assert weaker.noise > stronger.noise
        assert stronger.nodes is None or weaker.nodes is not None and weaker.nodes < stronger.nodes
    assert LEVELS[-1].nodes is None and LEVELS[-1].noise == 0


def test_levels_out_of_order_are_refused() -> None:
    good = {
        "calibration": "test",
        "levels": [{"level": 1, "nodes": 100, "noise": 50}, {"level": 2, "nodes": None, "noise": 0}],
    }
    assert [level.number for level in load_levels(json.dumps(good))[1]] == [1, 2]
    swapped = {
        "calibration": "test",
        "levels": [{"level": 1, "nodes": None, "noise": 0}, {"level": 2, "nodes": 100, "noise": 50}],
    }
    with pytest.raises(ValueError, match="fewer nodes with more noise"):
        load_levels(json.dumps(swapped))
    not_full = {"calibration": "test", "levels": [{"level": 1, "nodes": 100, "noise": 50}]}
    with pytest.raises(ValueError, match="full engine"):
        load_levels(json.dumps(not_full))


@pytest.mark.parametrize("variant", ["standard", "three-player", "four-player"])
def test_a_level_caps_the_nodes_of_every_search(variant: str) -> None:
    level = level_of(2)
    assert level.nodes is not None
    result = Engine(level=2, seed=1).search(Board(variant), time=5.0)
    assert level.nodes <= result.nodes <= level.nodes * 1.1
    # A smaller limit of the caller's own still holds.
    assert Engine(level=4, seed=1).search(Board(variant), nodes=150).nodes <= 160


def test_the_full_level_is_the_engine_itself() -> None:
    board = Board("standard", MIDDLEGAME)
    full = Engine(level=MAX_LEVEL, seed=7).search(board, depth=5)
    plain = Engine().search(board, depth=5)
    assert (full.best_move, full.score, full.nodes) == (plain.best_move, plain.score, plain.nodes)


def test_the_noise_is_fixed_by_the_seed_and_bounded() -> None:
    board = Board("standard", "4k3/8/8/8/8/8/r7/Q3K3 w - - 0 1")  # depth 1 within level 1's nodes
    noise = level_of(1).noise

    def search(seed: int) -> tuple[object, int, int]:
        result = Engine(level=1, seed=seed).search(board, depth=1)
        return result.best_move, result.score, result.nodes

    assert search(3) == search(3)
    scores = {search(seed)[1] for seed in range(12)}
    assert len(scores) > 3, "different seeds must shift the evaluation differently"
    exact = Engine().search(board, depth=1).score
    # Each player's value moves by at most the noise: the score (one side minus the other) by twice that.
    assert all(abs(score - exact) <= 2 * noise + 400 for score in scores)


def test_weak_levels_lose_material_the_full_engine_keeps() -> None:
    # The queen takes a free rook; the weakest level, whose noise outweighs a rook, not always.
    board = Board("standard", "4k3/8/8/8/8/8/r7/Q3K3 w - - 0 1")
    assert str(Engine(level=MAX_LEVEL).search(board, depth=3).best_move) == "a1a2"
    best = {str(Engine(level=1, seed=seed).search(board, depth=3).best_move) for seed in range(30)}
    assert len(best) > 1, "the weakest level should not always find the best move"


@pytest.mark.parametrize("bad", [0, MAX_LEVEL + 1, 2.0, "3", True, None])
def test_bad_levels_are_refused(bad: object) -> None:
    if bad is None:
        assert Engine(level=None).level == MAX_LEVEL
        return
    with pytest.raises(ValueError, match="level must be a whole number"):
        Engine(level=bad)  # type: ignore[arg-type]
    engine = Engine()
    with pytest.raises(ValueError, match="level must be a whole number"):
        engine.level = bad  # type: ignore[assignment]
    assert engine.level == MAX_LEVEL


def test_elo_picks_the_nearest_measured_level() -> None:
    measured = [level for level in LEVELS if level.elo is not None]
    if not measured:
        with pytest.raises(ValueError, match="no level"):
            Engine(elo=1500)
        return
    for level in measured:
        assert level_for_elo(level.elo).elo == level.elo
        assert Engine(elo=level.elo).strength.elo == level.elo
    lowest = min(level.elo for level in measured if level.elo is not None)
    highest = max(level.elo for level in measured if level.elo is not None)
    for outside in (lowest - 1, highest + 1):
        with pytest.raises(ValueError, match="elo must be between"):
            Engine(elo=outside)
    with pytest.raises(ValueError, match="not both"):
        Engine(level=1, elo=lowest)
    with pytest.raises(ValueError, match="elo must be a number"):
        Engine(elo="strong")  # type: ignore[arg-type]


def test_measured_labels_rise_with_the_level() -> None:
    labels = [level.elo for level in LEVELS if level.elo is not None]
    assert labels == sorted(labels)


def test_match_specs_take_a_level() -> None:
    spec = parse_player("engine:level=3,nodes=5000")
    player = spec.make(random.Random(1))
    assert player.engine.level == 3  # type: ignore[attr-defined]
    for bad in ("engine:level=0", f"engine:level={MAX_LEVEL + 1}"):
        with pytest.raises(ValueError):
            parse_player(bad)


def test_cli_engine_specs_take_a_level() -> None:
    default = EngineSpec(Budget(nodes=DEFAULT_NODES))
    spec = parse_engine_spec("engine:level=2", default)
    assert spec.level == 2 and spec.budget == default.budget and spec.make().level == 2
    assert "level=2" in spec.describe()
    with pytest.raises(UsageError, match="level must be a whole number"):
        parse_engine_spec(f"engine:level={MAX_LEVEL + 1}", default)
    with pytest.raises(UsageError, match="not both"):
        parse_engine_spec("engine:level=2,elo=1500", default)
    assert strength_level(None, None) is None and strength_level(3, None) == 3
    with pytest.raises(UsageError, match="level must be a whole number"):
        strength_level(0, None)  # as `polychess play --level 0` gives it


def test_uci_skill_level_and_limit_strength() -> None:
    lines: queue.Queue[str] = queue.Queue()
    server = UciServer(GAME_KINDS["standard"], lines.put)
    server.handle("uci")
    declared = []
    while not lines.empty():
        declared.append(lines.get())
    assert f"option name Skill Level type spin default {MAX_LEVEL} min 1 max {MAX_LEVEL}" in declared
    server.handle("setoption name Skill Level value 2")
    assert server.engine.level == 2
    server.handle("setoption name Hash value 1")  # a new table keeps the level
    assert server.engine.level == 2
    server.handle(f"setoption name Skill Level value {MAX_LEVEL + 1}")
    assert server.engine.level == 2 and lines.get().startswith("info string setoption skill level:")
    measured = [level for level in LEVELS if level.elo is not None]
    if measured:
        assert any(line.startswith("option name UCI_Elo type spin") for line in declared)
        server.handle("setoption name UCI_Elo value " + str(measured[0].elo))
        assert server.engine.level == 2, "UCI_Elo counts only with UCI_LimitStrength"
        server.handle("setoption name UCI_LimitStrength value true")
        assert server.engine.level == measured[0].number
        server.handle("setoption name UCI_LimitStrength value false")
        assert server.engine.level == 2
    server.finish()


def test_web_seats_take_a_level() -> None:
    assert [entry["level"] for entry in api.meta()["levels"]] == list(range(1, MAX_LEVEL + 1))  # type: ignore[union-attr]
    colours = Game("standard").seats
    assert parse_seat_options({"engine_level": 1}, colours).engine_level == 1
    assert parse_seat_options({}, colours).engine_level == MAX_LEVEL
    for bad in (0, MAX_LEVEL + 1, 1.5):
        with pytest.raises(ApiError, match="engine_level"):
            parse_seat_options({"engine_level": bad}, colours)
