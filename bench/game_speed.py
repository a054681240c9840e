"""Whole random games: the Python ``Game`` loop against ``polychess.playouts`` (one C++ call),
plies per second for every game, side by side in one run.

    python bench/game_speed.py                       # 2 s of each per game
    python bench/game_speed.py --seconds 5
    python bench/game_speed.py --reference-python /path/to/old/venv/bin/python --repeat 3

The ``Game`` loop asks the game for its legal moves, picks one at random (seeded) and pushes it,
as a Python simulation of a whole game does; a game that ends is followed by a new one. The
reading loop does the same and also reads what a program around a game reads every ply: the
outcome so far (``outcome()``) and the length of the history. The
playouts play the same kind of games (random legal moves, every rule applied) in C++ with the GIL
released, one core. ``--reference-python`` also runs the ``Game`` loop under another
interpreter with another polychess installed (e.g. the 0.1.0 release built into its own venv)
and prints how much faster ``Game.push`` is now. This script reports only.
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import time
from typing import Any

GAMES: tuple[tuple[str, dict[str, Any]], ...] = (
    ("three-player", {"variant": "three-player"}),
    ("standard", {"variant": "standard"}),
    ("four-player teams", {"variant": "four-player", "mode": "teams"}),
    ("four-player ffa", {"variant": "four-player", "mode": "ffa"}),
)


def game_loop(options: dict[str, Any], seconds: float, seed: int, reads: bool = False) -> tuple[int, float]:
    """Random games through ``Game`` for about ``seconds``: the plies played, the time taken.
    ``reads``: every ply also reads the outcome and the history's length."""
    from polychess import Game

    rng = random.Random(seed)
    plies = read = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        game = Game(**options)
        if reads:
            while game.outcome() is None:
                game.push(rng.choice(list(game.legal_moves)))
                read = len(game.history)
                plies += 1
        else:
            while not game.is_over():
                game.push(rng.choice(list(game.legal_moves)))
                plies += 1
    assert not reads or read > 0
    return plies, time.perf_counter() - start


def reading_plies(options: dict[str, Any], plies: int, seed: int = 1) -> None:
    """Exactly ``plies`` plies of the reading loop (for an instruction count, which the wall
    clock of a shared machine cannot give: bench/README.md, "Game speed")."""
    from polychess import Game

    rng = random.Random(seed)
    played = 0
    while played < plies:
        game = Game(**options)
        while played < plies and game.outcome() is None:
            game.push(rng.choice(list(game.legal_moves)))
            played += len(game.history) > 0


def playout_loop(options: dict[str, Any], seconds: float, seed: int) -> tuple[int, float]:
    """Random playouts for about ``seconds``, in calls of a growing number of games."""
    import polychess

    variant = options["variant"]
    others = {k: v for k, v in options.items() if k != "variant"}
    plies, calls, games = 0, 0, 4
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        plies += sum(p.plies for p in polychess.playouts(variant, games=games, seed=seed + calls, **others))
        calls += 1
        games = min(games * 2, 256)
    return plies, time.perf_counter() - start


def reference_loop(
    python: str, options: dict[str, Any], seconds: float, seed: int, reads: bool = False
) -> tuple[int, float]:
    """The ``Game`` loop of this script run by another interpreter (its own polychess)."""
    code = (
        f"import json, sys; sys.path.insert(0, {str(__file__.rsplit('/', 1)[0])!r}); "
        f"from game_speed import game_loop; "
        f"print(json.dumps(game_loop(json.loads(sys.argv[1]), {seconds}, {seed}, {reads})))"
    )
    # -I: the reference interpreter must not see this checkout's polychess (or its editable install).
    out = subprocess.run([python, "-I", "-c", code, json.dumps(options)], capture_output=True, text=True, check=True)
    plies, taken = json.loads(out.stdout)
    return int(plies), float(taken)


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="time of each measurement (default 2)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the random moves (default 1)")
    parser.add_argument("--reference-python", help="an interpreter with the reference polychess installed")
    parser.add_argument("--repeat", type=int, default=1, help="the best of this many runs of each (default 1)")
    args = parser.parse_args()
    header = f"{'game':<18} {'Game plies/s':>13} {'reading plies/s':>16} {'playouts plies/s':>17} {'playouts/Game':>14}"
    if args.reference_python:
        header += f" {'reference Game':>15} {'Game/reference':>15} {'reference reading':>18} {'reading/reference':>18}"
    print(header)
    for name, options in GAMES:
        reading_rate = reference_reading = reference_rate = game_rate = 0.0
        for _ in range(args.repeat):  # each in turn, so that a slow spell of the machine hits all alike
            game_rate = max(game_rate, _rate(game_loop(options, args.seconds, args.seed)))
            reading_rate = max(reading_rate, _rate(game_loop(options, args.seconds, args.seed, reads=True)))
            if args.reference_python:
                reference_rate = max(
                    reference_rate, _rate(reference_loop(args.reference_python, options, args.seconds, args.seed))
                )
                reference_reading = max(
                    reference_reading,
                    _rate(reference_loop(args.reference_python, options, args.seconds, args.seed, reads=True)),
                )
        playout_rate = _rate(playout_loop(options, args.seconds, args.seed))
        line = (
            f"{name:<18} {game_rate:>13,.0f} {reading_rate:>16,.0f} {playout_rate:>17,.0f}"
            f" {playout_rate / game_rate:>13.1f}x"
        )
        if args.reference_python:
            line += (
                f" {reference_rate:>15,.0f} {game_rate / reference_rate:>14.2f}x"
                f" {reference_reading:>18,.0f} {reading_rate / reference_reading:>17.2f}x"
            )
        print(line, flush=True)


def _rate(measured: tuple[int, float]) -> float:
    plies, taken = measured
    return plies / taken


if __name__ == "__main__":
    sys.exit(main())
