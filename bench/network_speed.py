"""The search's node rate with a network against the classic evaluation's, measured in the same
run on the same positions (issue 27: at least half in every game).

    python bench/network_speed.py                      # random networks of width 128 and 256, 2 s a search
    python bench/network_speed.py --hidden 64 --time 5
    python bench/network_speed.py --on-classic         # corrections of the classic evaluation
    python bench/network_speed.py --king-buckets       # with king buckets (docs/nnue.md)
    python bench/network_speed.py --network teams.nnue  # a trained network (its game only)

The positions are each game's start and a middle game reached by the engine playing itself at
depth 2 (bench/search_speed.py's), where that game is still on. A network of random weights
costs what a trained one of the same width costs: the arithmetic does not depend on the values.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "python"))

from polychess import Board, Engine
from polychess.nnue import KERNELS, KING_BUCKETS, Network, random_network
from search_speed import VARIANTS, middle_game

GAME_OF = {("standard", None): "standard", ("three-player", None): "three-player"}


def game_name(variant: str, mode: str | None) -> str:
    return GAME_OF.get((variant, mode), f"{variant}-{mode}")


def rate(board: Board, seconds: float, evaluation: str | Network) -> float:
    result = Engine(hash_mb=64, evaluation=evaluation).search(board, time=seconds)
    return result.nodes / max(result.seconds, 1e-9)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--time", type=float, default=2.0, help="seconds a search (default 2)")
    parser.add_argument("--hidden", type=int, nargs="+", default=[128, 256], help="widths of random networks")
    parser.add_argument("--network", type=Path, help="a trained network file instead (its game only)")
    parser.add_argument(
        "--on-classic",
        action="store_true",
        help="random networks that correct the classic evaluation (which they compute as well)",
    )
    parser.add_argument("--king-buckets", action="store_true", help="random networks with king buckets")
    args = parser.parse_args()
    buckets = KING_BUCKETS if args.king_buckets else 1
    trained = Network.load(args.network) if args.network else None
    print(f"network kernels: {KERNELS}")
    print(f"{'game':<20} {'network':<18} {'classic nps':>12} {'network nps':>12} {'ratio':>6}")
    for variant, mode in VARIANTS:
        game = game_name(variant, mode)
        if trained is not None and trained.game != game:
            continue
        # (the self-played middle game may have ended already: then the start alone)
        boards = [b for b in (Board(variant, mode=mode), middle_game(variant, mode)) if b.legal_moves]
        networks = (
            [trained]
            if trained
            else [
                random_network(game, hidden=h, seed=1, on_classic=args.on_classic, king_buckets=buckets)
                for h in args.hidden
            ]
        )
        for network in networks:
            assert network is not None
            # classic and network alternate on each board, so that a busy machine weighs on both alike
            classic = [rate(b, args.time, "classic") for b in boards]
            learned = [rate(b, args.time, network) for b in boards]
            ratio = statistics.fmean(n / c for n, c in zip(learned, classic, strict=True))
            label = f"{network.inputs}x{network.hidden}" + (" +classic" if network.on_classic else "")
            label += f" {network.king_buckets}kb" if network.king_buckets > 1 else ""
            print(
                f"{game:<20} {label:<18} {statistics.fmean(classic):>12,.0f} {statistics.fmean(learned):>12,.0f}"
                f" {ratio:>6.2f}"
            )


if __name__ == "__main__":
    main()
