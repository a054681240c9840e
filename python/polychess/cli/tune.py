"""``polychess tune``: fit the evaluation's weights to self-play games (Texel tuning).

``polychess tune generate`` plays the engine against itself with the match runner (this
machine's processes or a Ray cluster) and writes every quiet position after the opening with
the results the players went on to score; ``polychess tune extract`` takes such samples from the
networks' self-play data (``polychess train generate``); ``polychess tune fit`` fits the weights
to samples and writes a weights file (polychess/data/evaluation/ holds the package's own).
"""

from __future__ import annotations

import argparse
import functools
import sys
from pathlib import Path

from polychess import evaluation
from polychess.catalogue import kind_of
from polychess.cli.common import UsageError, non_negative_float, positive_int
from polychess.cli.match import add_game_arguments, add_self_play_arguments, game_kind_argument, openings_argument
from polychess.cli.status_line import StatusLine
from polychess.match import backends
from polychess.match.players import parse_player
from polychess.match.runner import Backend, MatchConfig
from polychess.match.scoring import seat_assignments
from polychess.training.data import InvalidTrainingDataError, read_data
from polychess.tune.fit import CELL_DECAY, fit_weights
from polychess.tune.samples import game_samples, read_samples, record_samples

__all__ = ["add_parser"]


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = sub.add_parser(
        "tune",
        help="fit the evaluation's weights to self-play games (Texel tuning)",
        description="Fit the evaluation's weights to the results of self-play games.",
    )
    steps = parser.add_subparsers(
        dest="step",
        required=True,
        metavar="STEP",
        help="generate: self-play samples; extract: samples from training data; fit: weights fitted to samples",
    )

    generate = steps.add_parser(
        "generate",
        help="self-play games, written as labelled positions",
        description="Play the engine against itself from random openings and write every quiet position after the "
        "opening, with the result each player went on to score, as JSON lines.",
    )
    add_game_arguments(generate)
    generate.add_argument("--games", type=positive_int, default=100, help="number of games (default 100)")
    generate.add_argument(
        "--player",
        default="engine:nodes=20000",
        metavar="SPEC",
        help="the player of every seat, as polychess match takes it (default engine:nodes=20000)",
    )
    add_self_play_arguments(generate)
    generate.add_argument(
        "--backend",
        choices=backends.BACKENDS,
        default="local",
        help="local: this machine (--jobs processes); ray: a Ray cluster",
    )
    generate.add_argument("--jobs", type=positive_int, default=1, help="games at once (default 1)")
    generate.add_argument("--address", help="with --backend ray: the cluster's address")
    generate.add_argument("-o", "--output", required=True, type=Path, help="the samples file to write")
    generate.set_defaults(run=_run_generate)

    extract = steps.add_parser(
        "extract",
        help="samples from self-play training data (polychess train generate)",
        description="Write the quiet positions of self-play training data files (polychess train generate) after "
        "their first plies, with the result each player went on to score, as the samples 'fit' reads.",
    )
    extract.add_argument("data", type=Path, nargs="+", help="training data files of one game")
    extract.add_argument("-o", "--output", required=True, type=Path, help="the samples file to write")
    extract.add_argument("--every", type=positive_int, default=4, help="keep one quiet position in so many (default 4)")
    extract.add_argument(
        "--skip-plies", type=int, default=8, metavar="N", help="leave out each game's first N plies (default 8)"
    )
    extract.set_defaults(run=_run_extract)

    fit = steps.add_parser(
        "fit",
        help="fit the weights to samples and write a weights file",
        description="Fit the evaluation's weights to samples from 'polychess tune generate' by logistic regression on "
        "the results, starting from the game's current weights, and write them as a weights file "
        "(needs numpy: pip install 'polychess[tune]').",
    )
    fit.add_argument("samples", type=Path, nargs="+", help="samples files (JSON lines) of one game")
    fit.add_argument("-o", "--output", required=True, type=Path, help="the weights file to write")
    fit.add_argument("--steps", type=positive_int, default=3000, help="gradient steps (default 3000)")
    fit.add_argument("--rate", type=float, default=1.0, help="step size in centipawns (default 1)")
    fit.add_argument(
        "--freeze", default="", metavar="TERM,...", help="terms that keep their current weight ('all': every term)"
    )
    fit.add_argument(
        "--cells",
        action="store_true",
        help="fit the cell tables too (a piece-square table per kind, base and late), from the game's current ones",
    )
    fit.add_argument(
        "--cell-decay",
        type=non_negative_float,
        default=CELL_DECAY,
        help=f"with --cells: the pull of each cell weight toward 0 (default {CELL_DECAY:g}; more samples bear less)",
    )
    fit.set_defaults(run=_run_fit)


def _run_generate(args: argparse.Namespace) -> int:
    kind = game_kind_argument(args)
    try:
        player = parse_player(args.player)
    except ValueError as error:
        raise UsageError(str(error)) from None
    if args.address is not None and args.backend != "ray":
        raise UsageError("--address is for --backend ray")
    openings, source = openings_argument(args, kind, args.games)
    # The same player in every seat: one game per opening (the other seat assignments would
    # replay it).
    assignments = len(seat_assignments(kind))
    config = MatchConfig(
        kind, player, player, args.games * assignments, openings, source, args.max_plies, seed=args.seed
    )
    tasks = [task for task in config.tasks() if task.assignment == config.assignments[0]][: args.games]
    backend: Backend = (
        functools.partial(backends.local, jobs=args.jobs)
        if args.backend == "local"
        else functools.partial(backends.ray, address=args.address, jobs=args.jobs)
    )
    samples = games = 0
    with StatusLine(sys.stderr) as status, args.output.open("w", encoding="utf-8") as stream:
        for result in backend(config, tasks):
            skip = len(config.opening(next(t for t in tasks if t.key == result.key)).moves)
            for sample in game_samples(result, kind, skip):
                stream.write(sample.to_json() + "\n")
                samples += 1
            games += 1
            status.progress(games, len(tasks), "games", f"{samples} positions")
    print(f"{samples} positions from {games} games of {kind.name} written to {args.output}")
    return 0


def _run_extract(args: argparse.Namespace) -> int:
    if args.skip_plies < 0:
        raise UsageError(f"--skip-plies must be 0 or more, got {args.skip_plies}")
    games = []
    for path in args.data:
        try:
            games.append(read_data(path))
        except (OSError, InvalidTrainingDataError) as error:
            raise UsageError(f"{path}: {error}") from None
    families = sorted({game for game, _ in games})
    if len(families) != 1:
        raise UsageError(f"the data files must be of one game, got {', '.join(families)}")
    kind = kind_of(families[0])
    records = [record for _, file_records in games for record in file_records]
    samples = 0
    with StatusLine(sys.stderr) as status, args.output.open("w", encoding="utf-8") as stream:
        for index, record in enumerate(records):
            for sample in record_samples(record, kind, skip_plies=args.skip_plies, every=args.every, phase=index):
                stream.write(sample.to_json() + "\n")
                samples += 1
            status.progress(index + 1, len(records), "games", f"{samples} positions")
    print(f"{samples} positions from {len(records)} games of {kind.name} written to {args.output}")
    return 0


def _run_fit(args: argparse.Namespace) -> int:
    try:
        samples = [s for path in args.samples for s in read_samples(path)]
    except (OSError, ValueError) as error:
        raise UsageError(str(error)) from None
    games = {s.game for s in samples}
    if len(games) != 1:
        raise UsageError(f"the samples must be of one game, got {', '.join(sorted(games)) or 'none'}")
    game = games.pop()
    frozen = list(evaluation.TERMS) if args.freeze == "all" else [t for t in args.freeze.split(",") if t]
    start = evaluation.game_weights(game)
    start_cells = evaluation.game_cells(game)
    with StatusLine(sys.stderr) as status:
        try:
            fit = fit_weights(
                samples,
                start,
                frozen=frozen,
                cells=start_cells if args.cells else None,
                cell_decay=args.cell_decay,
                steps=args.steps,
                rate=args.rate,
                progress=lambda step, error: status.show(f"step {step}: error {error:.6f}"),
            )
        except ValueError as error:
            raise UsageError(str(error)) from None
    about = (
        f"fitted by polychess tune fit to {fit.rows} player positions of {len(samples)} samples "
        f"(K {fit.k:.3f}; mean squared error on held-out games {fit.error_before:.6f} before, "
        f"{fit.error_after:.6f} after)"
    )
    cells = fit.cells if args.cells else start_cells
    evaluation.write_weights(args.output, game, fit.weights, about, cells)
    print(about)
    for term in evaluation.TERMS:
        if fit.weights[term] != start[term]:
            print(f"  {term}: {start[term]} -> {fit.weights[term]}")
    for table, values in fit.cells.items():
        before = start_cells.get(table, [0] * len(values))
        moved = [abs(a - b) for a, b in zip(values, before, strict=True)]
        print(f"  cells {table}: {sum(m > 0 for m in moved)} of {len(values)} moved, the most by {max(moved)}")
    print(f"written to {args.output}")
    return 0
