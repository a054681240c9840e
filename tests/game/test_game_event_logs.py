"""Event logs of random games, recorded through today's ``Game``, that every later version of
the game flow must reproduce (a golden master for the rules engine of issue 12).

Each game is fixed by its variant, options and seed: the moves are drawn from the legal moves
sorted by their text (so they do not depend on the generator's order) and now and then the
player to move resigns. The log holds every elimination (who, how, by whom, at which ply),
every change of a player's status, every change of the points, a checksum of the position
every 50 plies, and the end: termination, places, points and length.

CI replays every 20th game of each set; ``pytest -m slow`` replays them all.
Recording (only when a change of the rules is intended, and said so in the commit)::

    python tests/game/test_game_event_logs.py --record
"""

from __future__ import annotations

import gzip
import io
import json
import random
import sys
import zlib
from pathlib import Path
from typing import Any

import pytest

from polychess import Game

LOGS = Path(__file__).parents[1] / "data" / "game_event_logs.jsonl.gz"
GAMES_PER_SET = 300
SAMPLE_EVERY = 20
RESIGN_CHANCE = 0.001
MAX_PLIES = 20_000  # far beyond every draw rule of these games; a guard against a runaway loop

# Every game and every option that changes what happens in a game.
SETS: dict[str, dict[str, Any]] = {
    "three-player": {"variant": "three-player"},
    "three-player-first-mate-wins": {"variant": "three-player", "first_mate_wins": True},
    "three-player-neutrality": {"variant": "three-player", "neutrality": True},
    "three-player-two-players": {"variant": "three-player", "players": 2},
    "standard": {"variant": "standard"},
    "teams-modern": {"variant": "four-player", "mode": "teams"},
    "teams-classic-move-limit": {"variant": "four-player", "mode": "teams", "setup": "classic", "move_limit": 120},
    "ffa-modern": {"variant": "four-player", "mode": "ffa"},
    "ffa-classic": {"variant": "four-player", "mode": "ffa", "setup": "classic"},
    "ffa-move-limit": {"variant": "four-player", "mode": "ffa", "move_limit": 150},
}


def play_and_log(options: dict[str, Any], seed: int) -> list[list[Any]]:
    """Plays the game fixed by ``options`` and ``seed`` and returns its event log."""
    rng = random.Random(seed)
    game = Game(**options)
    log: list[list[Any]] = []
    statuses = {p: game.status(p) for p in game.colours}
    points = dict(game.points)
    seen = 0
    while not game.is_over() and game.ply < MAX_PLIES:
        if rng.random() < RESIGN_CHANCE:
            game.resign(game.turn)
        else:
            game.push(rng.choice(sorted(str(move) for move in game.legal_moves)))
        for elimination in game.eliminations[seen:]:
            log.append(
                [
                    "out",
                    elimination.ply,
                    str(elimination.player),
                    elimination.reason.value,
                    None if elimination.by is None else str(elimination.by),
                ]
            )
        seen = len(game.eliminations)
        for player in game.colours:
            status = game.status(player)
            if status != statuses[player]:
                log.append(["status", game.ply, str(player), status.name])
                statuses[player] = status
        if game.points != points:
            points = dict(game.points)
            log.append(["points", game.ply, {str(p): n for p, n in points.items()}])
        if game.ply % 50 == 0:
            log.append(["position", game.ply, zlib.crc32(game.board.fen().encode())])
    outcome = game.outcome()
    assert outcome is not None, f"seed {seed}: no outcome after {game.ply} plies"
    log.append(
        [
            "end",
            game.ply,
            outcome.termination.value,
            {str(p): n for p, n in outcome.places.items()},
            None if outcome.points is None else {str(p): n for p, n in outcome.points.items()},
            zlib.crc32(game.board.fen().encode()),
        ]
    )
    return log


def _read_logs() -> list[dict[str, Any]]:
    with gzip.open(LOGS, "rt", encoding="utf-8") as lines:
        return [json.loads(line) for line in lines]


def _cases(every: int) -> list[Any]:
    if not LOGS.exists():
        return []
    picked = [entry for entry in _read_logs() if entry["seed"] % every == 0]
    return [pytest.param(entry, id=f"{entry['set']}-{entry['seed']}") for entry in picked]


def _check(entry: dict[str, Any]) -> None:
    log = play_and_log(SETS[entry["set"]], entry["seed"])
    expected = entry["log"]
    game = f"{entry['set']} seed {entry['seed']}"
    for index, (got, want) in enumerate(zip(log, expected, strict=False)):  # the first difference, then the length
        assert got == want, f"{game}: event {index} differs: {got} != {want}"
    assert len(log) == len(expected), f"{game}: {len(log)} events, recorded {len(expected)}"


def test_the_logs_cover_every_set():
    entries = _read_logs()
    assert {entry["set"] for entry in entries} == set(SETS)
    for name in SETS:
        assert sum(entry["set"] == name for entry in entries) == GAMES_PER_SET
    ends = {entry["log"][-1][2] for entry in entries}
    # the random games reach the endings the rules have (a sample of them)
    assert {"checkmate", "stalemate", "resignation", "move limit"} <= ends, ends


@pytest.mark.parametrize("entry", _cases(SAMPLE_EVERY))
def test_game_reproduces_its_recorded_event_log(entry):
    _check(entry)


@pytest.mark.slow
@pytest.mark.parametrize("entry", _cases(1))
def test_game_reproduces_every_recorded_event_log(entry):
    _check(entry)


def _record() -> None:
    LOGS.parent.mkdir(exist_ok=True)
    # mtime=0: recording the same games twice gives the same bytes
    with gzip.GzipFile(LOGS, "wb", compresslevel=9, mtime=0) as raw, io.TextIOWrapper(raw, "utf-8") as out:
        for name, options in SETS.items():
            for seed in range(GAMES_PER_SET):
                entry = {"set": name, "seed": seed, "log": play_and_log(options, seed)}
                out.write(json.dumps(entry, separators=(",", ":")) + "\n")
            print(f"{name}: {GAMES_PER_SET} games", file=sys.stderr)


if __name__ == "__main__":
    if sys.argv[1:] != ["--record"]:
        sys.exit(__doc__)
    _record()
