"""``polychess train``: the networks' training data (docs/nnue.md).

``polychess train generate`` has the core play the engine against itself, every move searched
to a node budget, from random or given openings, on ``--jobs`` threads, and writes the games
as a training data file (resumable: run the same command again to finish a stopped run);
``polychess train fit`` trains a network on such files (PyTorch) and writes it;
``polychess train outcomes`` fits each game's outcome model (:mod:`polychess.outlook`) to such
files and writes the models file.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from polychess.cli.common import UsageError, positive_int
from polychess.cli.match import add_game_arguments, add_self_play_arguments, game_kind_argument, openings_argument
from polychess.cli.status_line import StatusLine
from polychess.nnue import KING_BUCKETS, InvalidNetworkError, Network
from polychess.outlook import OutcomeModel
from polychess.training.data import generate, read_file, starts_of

__all__ = ["add_parser"]


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = sub.add_parser(
        "train",
        help="the networks' training data (self-play in the core)",
        description="Make training data for the networks (docs/nnue.md).",
    )
    steps = parser.add_subparsers(
        dest="step",
        required=True,
        metavar="STEP",
        help="generate: self-play data; fit: a network trained on it; outcomes: the outcome models fitted to it",
    )
    generate_parser = steps.add_parser(
        "generate",
        help="self-play games played by the core, written as training data",
        description="Play the engine against itself in the core, one game per opening, every move searched to "
        "--nodes nodes, and write the games (each move with its search score, every player's result) as a "
        "training data file. An existing file of the same game is resumed after its last whole game.",
    )
    add_game_arguments(generate_parser)
    generate_parser.add_argument("--games", type=positive_int, default=100, help="number of games (default 100)")
    generate_parser.add_argument(
        "--nodes", type=positive_int, default=5000, help="nodes searched per move (default 5000)"
    )
    generate_parser.add_argument(
        "--network", type=Path, metavar="FILE", help="play with this network (default: the classic evaluation)"
    )
    add_self_play_arguments(generate_parser)
    generate_parser.add_argument(
        "--backend",
        choices=("local", "ray"),
        default="local",
        help="local: this process's threads (--jobs); ray: a batch a Ray task, on a cluster (--address) or here",
    )
    generate_parser.add_argument("--jobs", type=positive_int, default=1, help="games at once, one a thread (default 1)")
    generate_parser.add_argument("--address", help="with --backend ray: the cluster's address ('auto': this one's)")
    generate_parser.add_argument("-o", "--output", required=True, type=Path, help="the data file to write or resume")
    generate_parser.set_defaults(run=_run_generate)

    fit = steps.add_parser(
        "fit",
        help="train a network on training data and write it",
        description="Train a network on training data files of one game (docs/nnue.md) and write it, quantized, "
        "as a network file (needs PyTorch: pip install 'polychess[train]').",
    )
    fit.add_argument("data", type=Path, nargs="+", help="training data files of one game")
    fit.add_argument("-o", "--output", required=True, type=Path, help="the network file to write")
    fit.add_argument("--hidden", type=positive_int, default=128, help="hidden width, a multiple of 16 (default 128)")
    fit.add_argument("--epochs", type=positive_int, default=10, help="passes over the data (default 10)")
    fit.add_argument("--batch", type=positive_int, default=1024, help="positions a step (default 1024)")
    fit.add_argument("--rate", type=float, default=1e-3, help="Adam's step size (default 0.001)")
    fit.add_argument(
        "--lambda",
        dest="lam",
        type=float,
        default=1.0,
        help="weight of the search's scores against the results, 0 to 1 (default 1: the scores alone)",
    )
    fit.add_argument("--skip-plies", type=int, default=8, help="plies of each game left out, its opening (default 8)")
    fit.add_argument(
        "--max-gap",
        type=float,
        default=None,
        metavar="CP",
        help="leave out positions whose search score differs from the classic evaluation's by more than CP "
        "centipawns (default: none left out)",
    )
    fit.add_argument("--seed", type=int, default=1, help="seed of the initial weights and the order (default 1)")
    fit.add_argument(
        "--on-classic",
        action="store_true",
        help="train a correction added to the classic evaluation rather than the whole evaluation",
    )
    fit.add_argument(
        "--shrink",
        type=float,
        default=1.0,
        help="scale of the written network's values, up to 1: a correction plays better smaller (default 1)",
    )
    fit.add_argument(
        "--king-buckets",
        action="store_true",
        help=f"weights by where each player's own king stands ({KING_BUCKETS} buckets: near its start, "
        "near either castled cell, elsewhere)",
    )
    fit.set_defaults(run=_run_fit)

    outcomes = steps.add_parser(
        "outcomes",
        help="fit the outcome models (win/draw/loss, expected place) to training data",
        description="Fit each game's outcome model (the chances of winning, drawing and losing that a search "
        "score stands for; docs/search.md, 'Scores people read') to training data files, one game or several, "
        "and write the models file (by default print it).",
    )
    outcomes.add_argument("data", nargs="+", type=Path, help="training data files (polychess train generate)")
    outcomes.add_argument("-o", "--output", type=Path, help="the models file to write (JSON)")
    outcomes.add_argument(
        "--skip-plies", type=int, default=8, help="plies left out at the start of each game (default 8)"
    )
    outcomes.add_argument(
        "--positions", type=positive_int, default=200_000, help="positions fitted on per game, at most (default 200000)"
    )
    outcomes.add_argument(
        "--check",
        nargs="+",
        type=Path,
        metavar="DATA",
        help="held-out training data files (other games than those fitted on): print, per game, the predicted "
        "chances of winning and losing against how often the mover won and lost, by decile of the prediction",
    )
    outcomes.set_defaults(run=_run_outcomes)


def _run_generate(args: argparse.Namespace) -> int:
    kind = game_kind_argument(args)
    if args.address is not None and args.backend != "ray":
        raise UsageError("--address is for --backend ray")
    network = None
    if args.network is not None:
        try:
            network = Network.load(args.network)
        except (OSError, InvalidNetworkError) as error:
            raise UsageError(f"--network: {error}") from None
    if network is not None and network.game != kind.family:  # said now, not as the output file's fault later
        raise UsageError(f"--network: {args.network} is a {network.game} network, not a {kind.family} one")
    openings, _ = openings_argument(args, kind, args.games)
    starts = starts_of(kind, (openings[i % len(openings)] for i in range(args.games)))
    written = 0
    try:
        with StatusLine(sys.stderr) as status:
            for written in generate(
                args.output,
                kind,
                starts,
                nodes=args.nodes,
                max_plies=args.max_plies,
                threads=args.jobs,
                network=network,
                backend=args.backend,
                address=args.address,
            ):
                status.progress(written, len(starts), "games")
    except (OSError, ValueError) as error:  # the file's, the network's, Ray's absence
        raise UsageError(f"{args.output}: {error}") from None
    except KeyboardInterrupt:  # Ctrl-C or SIGTERM: the games finished are in the file
        print(f"polychess: stopped; {args.output} keeps its whole games: the same command resumes it", file=sys.stderr)
        return 130
    print(f"{written} games of {kind.name} in {args.output}")
    return 0


def _run_fit(args: argparse.Namespace) -> int:
    from polychess.training.fit import fit_network

    if not 0.0 <= args.lam <= 1.0:
        raise UsageError("--lambda must be between 0 and 1")
    if args.hidden % 16:
        raise UsageError("--hidden must be a multiple of 16")
    try:
        data = [read_file(path) for path in args.data]
        with StatusLine(sys.stderr) as status:
            network, report = fit_network(
                data,
                hidden=args.hidden,
                epochs=args.epochs,
                batch_size=args.batch,
                rate=args.rate,
                lam=args.lam,
                skip_plies=args.skip_plies,
                seed=args.seed,
                on_classic=args.on_classic,
                shrink=args.shrink,
                king_buckets=KING_BUCKETS if args.king_buckets else 1,
                max_gap=args.max_gap,
                progress=lambda epoch, loss: status.show(f"epoch {epoch}/{args.epochs}: held-out loss {loss:.6f}"),
            )
        network.save(args.output)
    except (OSError, ValueError, RuntimeError) as error:
        raise UsageError(str(error)) from None
    print(
        f"trained on {report.positions} positions ({report.held_out} held out), score scale {report.score_scale:.0f}; "
        f"held-out loss {report.loss_before:.6f} before, {report.loss_after:.6f} after "
        f"(the classic evaluation's: {report.loss_classic:.6f}); written to {args.output}"
    )
    return 0


def _run_outcomes(args: argparse.Namespace) -> int:
    from polychess import _core
    from polychess.outlook import fit, models_text

    by_game: dict[str, list[Path]] = {}
    try:
        for path in args.data:
            by_game.setdefault(_core.TrainingData(read_file(path)).game, []).append(path)
        models = [fit(paths, args.skip_plies, args.positions) for paths in by_game.values()]
    except (OSError, ValueError) as error:
        raise UsageError(str(error)) from None
    source = "polychess train outcomes " + " ".join(path.name for path in args.data)
    text = models_text(models, source)
    if args.output is None:
        sys.stdout.write(text)
    else:
        args.output.write_text(text, encoding="utf-8")
        print(f"{len(models)} models written to {args.output}")
    if args.check:
        _print_calibration(models, args.check, args.skip_plies)
    return 0


def _print_calibration(models: list[OutcomeModel], paths: list[Path], skip_plies: int) -> None:
    """Each model's calibration on the held-out files of its game (outlook.calibration)."""
    from polychess import _core
    from polychess.outlook import calibration

    by_game: dict[str, list[Path]] = {}
    try:
        for path in paths:
            by_game.setdefault(_core.TrainingData(read_file(path)).game, []).append(path)
        for model in models:
            if model.game not in by_game:
                continue
            bins = calibration(model, by_game[model.game], skip_plies)
            print(f"\n{model.game}: held out {sum(b.positions for b in bins)} positions")
            print(
                f"{'decile':>6} {'positions':>9} {'win predicted':>13} {'observed':>8} "
                f"{'loss predicted':>14} {'observed':>8}"
            )
            for k, b in enumerate(bins, 1):
                print(
                    f"{k:>6} {b.positions:>9} {b.predicted_win:>13.3f} {b.observed_win:>8.3f} "
                    f"{b.predicted_loss:>14.3f} {b.observed_loss:>8.3f}"
                )
    except (OSError, ValueError) as error:
        raise UsageError(f"--check: {error}") from None
