"""Whole random games through the Python ``Game`` loop: plies per second for every game.

    python bench/game_speed.py                 # 2 s of games per game
    python bench/game_speed.py --seconds 5

Every ply asks the game for its legal moves, picks one at random (seeded) and pushes it, as a
Python simulation of a whole game does (the game flow applies mates, transfers, freezes,
points, draws and places); a game that ends is followed by a new one. This is the reference
for issue 12's ``playouts`` (whole games in one C++ call: at least 50x this loop, measured side
by side) and for its "``Game.push`` no slower than today". This script reports only.
"""

from __future__ import annotations

import argparse
import random
import time
from typing import Any

from polychess import Game

GAMES: tuple[tuple[str, dict[str, Any]], ...] = (
    ("three-player", {"variant": "three-player"}),
    ("standard", {"variant": "standard"}),
    ("four-player teams", {"variant": "four-player", "mode": "teams"}),
    ("four-player ffa", {"variant": "four-player", "mode": "ffa"}),
)


def game_loop(options: dict[str, Any], seconds: float, seed: int) -> tuple[int, int, float]:
    """Random games for about ``seconds``: the games finished, the plies played, the time taken."""
    rng = random.Random(seed)
    games = plies = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        game = Game(**options)
        while not game.is_over():
            game.push(rng.choice(list(game.legal_moves)))
            plies += 1
        games += 1
    return games, plies, time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="time of games per game (default 2)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the random moves (default 1)")
    args = parser.parse_args()
    print(f"{'game':<20} {'games':>6} {'plies':>8} {'plies/s':>10} {'us/ply':>8}")
    for name, options in GAMES:
        games, plies, seconds = game_loop(options, args.seconds, args.seed)
        print(f"{name:<20} {games:>6} {plies:>8} {plies / seconds:>10,.0f} {1e6 * seconds / plies:>8.1f}")


if __name__ == "__main__":
    main()
