"""``polychess match``: two player configurations against each other (the arena), and
``polychess openings``: the balanced openings a match starts from."""

from __future__ import annotations

import argparse
import functools
import sys
from pathlib import Path

from polychess.catalogue import GameKind, kind_of
from polychess.cli.common import UsageError, clock_arg, positive_int
from polychess.cli.status_line import StatusLine
from polychess.game import Game
from polychess.match import backends
from polychess.match.openings import balanced_openings, random_openings, read_openings, shipped_openings, write_openings
from polychess.match.players import parse_player
from polychess.match.report import format_report, progress_text
from polychess.match.runner import Backend, GameResult, MatchConfig, MatchResult, run_match
from polychess.match.scoring import FFA_SPLITS, seat_assignments
from polychess.match.stats import Sprt
from polychess.options import OptionError, option
from polychess.protocol.games import Position

__all__ = ["add_game_arguments", "add_parsers", "game_kind_argument", "openings_argument"]


def add_parsers(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = sub.add_parser(
        "match",
        help="a match between two players: engines, baselines, external engines",
        description="Play a match between two player configurations, A and B, with every seat assignment of each "
        "opening, and print each one's score with a 95 percent confidence interval and an Elo estimate. "
        "A player is 'random', 'greedy', 'engine[:nodes=N,depth=N,time=S,hash=MB,threads=N,algo=A]' "
        "or 'uci:COMMAND[,time=S,depth=N,nodes=N,dialect=D,option.NAME=VALUE]'.",
    )
    add_game_arguments(parser)
    parser.add_argument("--a", required=True, metavar="SPEC", help="configuration A")
    parser.add_argument("--b", required=True, metavar="SPEC", help="configuration B")
    parser.add_argument(
        "--games",
        type=positive_int,
        default=12,
        help="number of games, rounded up to a multiple of the seat assignments (default 12)",
    )
    parser.add_argument(
        "--openings",
        default="shipped",
        metavar="FILE|shipped|random",
        help="the openings: the balanced set shipped for the game (default), a file of positions "
        "(docs/protocol.md), or random plies (--opening-plies)",
    )
    parser.add_argument(
        "--opening-plies",
        type=int,
        metavar="N",
        help="with --openings random: random plies per opening (default 2 per seat)",
    )
    parser.add_argument("--max-plies", type=positive_int, default=300, help="ply cap, opening included (default 300)")
    parser.add_argument(
        "--tc",
        metavar="SECONDS[+INC]",
        help="a clock per player, e.g. 10+0.1; players without a "
        "time per move think on it, and a player whose time runs out loses on time",
    )
    parser.add_argument("--seed", type=int, default=1, help="seed of random openings and players (default 1)")
    parser.add_argument(
        "--split",
        choices=FFA_SPLITS,
        default="2+2",
        help="free-for-all seats: 2+2 (default) or 1+3 (A alone against three B)",
    )
    parser.add_argument(
        "--sprt",
        metavar="ELO0,ELO1[,ALPHA,BETA]",
        help="stop once a sequential test decides between A being elo0 or elo1 stronger (alpha and beta default 0.05)",
    )
    parser.add_argument(
        "--backend",
        choices=backends.BACKENDS,
        default="local",
        help="local: this machine (--jobs processes); ray: a Ray cluster (pip install "
        "'polychess[ray]'), at --address or started here",
    )
    parser.add_argument(
        "--jobs",
        type=positive_int,
        default=1,
        help="games at once: worker processes (local) or CPUs of a Ray started here (default 1)",
    )
    parser.add_argument("--address", help="with --backend ray: the cluster's address (e.g. auto or ray://host:10001)")
    parser.add_argument(
        "--output",
        metavar="FILE",
        type=Path,
        help="write every game as a JSON line as it finishes (with --resume: continue that match)",
    )
    parser.add_argument("--resume", action="store_true", help="keep the games already in --output and play the rest")
    parser.add_argument(
        "--records",
        metavar="DIR",
        type=Path,
        help="write every game's record into DIR (PGN, PGN4 or polychess's record format)",
    )
    parser.add_argument("-v", "--verbose", action="store_true", help="one line per game on stderr")
    parser.set_defaults(run=_run_match)

    openings = sub.add_parser(
        "openings",
        help="make a set of balanced openings for matches",
        description="Make openings: random plies from the start after which the engine scores the position "
        "within a margin of even; written as 'startpos moves ...' lines.",
    )
    add_game_arguments(openings)
    openings.add_argument("--count", type=positive_int, default=100, help="how many (default 100)")
    openings.add_argument("--plies", type=positive_int, help="random plies each (default 2 per seat)")
    openings.add_argument("--nodes", type=positive_int, default=20_000, help="engine nodes per check (default 20000)")
    openings.add_argument("--margin", type=int, default=60, help="largest |score| in centipawns (default 60)")
    openings.add_argument("--seed", type=int, default=1, help="seed of the random plies (default 1)")
    openings.add_argument("-o", "--output", type=Path, help="the file to write (default: stdout)")
    openings.set_defaults(run=_run_openings)


def add_game_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--variant",
        default="three-player",
        metavar="GAME",
        help="three-player (the default), standard or four-player (with --mode and --setup), or a "
        "name of the UCI_Variant option (docs/protocol.md)",
    )
    parser.add_argument("--mode", choices=("teams", "ffa"), help="four-player mode (default teams)")
    parser.add_argument("--setup", choices=("modern", "classic"), help="four-player setup (default modern)")


def add_self_play_arguments(parser: argparse.ArgumentParser) -> None:
    """The openings, ply cap and seed of commands whose engine plays itself (tune, train)."""
    parser.add_argument(
        "--openings",
        default="random",
        metavar="FILE|shipped|random",
        help="the openings: random plies (the default; --opening-plies), the shipped set or a file",
    )
    parser.add_argument(
        "--opening-plies",
        type=int,
        metavar="N",
        help="with --openings random: random plies per opening (default 2 per seat)",
    )
    parser.add_argument("--max-plies", type=positive_int, default=300, help="ply cap (default 300)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the random openings (default 1)")


def game_kind_argument(args: argparse.Namespace) -> GameKind:
    try:
        return kind_of(args.variant, args.mode, args.setup)
    except ValueError as error:
        raise UsageError(f"--variant: {error}") from None


def openings_argument(args: argparse.Namespace, kind: GameKind, needed: int) -> tuple[tuple[Position, ...], str]:
    seats = len(Game.from_kind(kind).seats)
    if args.opening_plies is not None and args.openings != "random":
        raise UsageError("--opening-plies is for --openings random")
    if args.openings == "random":
        plies = 2 * seats if args.opening_plies is None else args.opening_plies
        if plies < 0:
            raise UsageError("--opening-plies must not be negative")
        return tuple(random_openings(kind, needed, plies, args.seed)), f"{plies} random plies"
    path = shipped_openings(kind) if args.openings == "shipped" else Path(args.openings)
    return tuple(read_openings(path, kind)), f"{path.name}" if args.openings == "shipped" else str(path)


def _clock(text: str | None) -> tuple[float | None, float]:
    if text is None:
        return None, 0.0
    seconds, increment = clock_arg(text, "--tc")
    try:
        return float(option("time_control").check(seconds)), float(option("increment").check(increment))  # type: ignore[arg-type]
    except OptionError as error:
        raise UsageError(f"--tc: {error}") from None


def _sprt(text: str | None) -> Sprt | None:
    if text is None:
        return None
    try:
        numbers = [float(part) for part in text.split(",")]
        if len(numbers) not in (2, 4):
            raise ValueError("expected ELO0,ELO1 or ELO0,ELO1,ALPHA,BETA")
        if len(numbers) == 2:
            return Sprt(numbers[0], numbers[1])
        return Sprt(numbers[0], numbers[1], alpha=numbers[2], beta=numbers[3])
    except ValueError as error:
        raise UsageError(f"--sprt {text!r}: {error}") from None


def _run_match(args: argparse.Namespace) -> int:
    kind = game_kind_argument(args)
    try:
        a, b = parse_player(args.a), parse_player(args.b)
    except ValueError as error:
        raise UsageError(str(error)) from None
    if args.resume and args.output is None:
        raise UsageError("--resume needs --output FILE")
    if args.address is not None and args.backend != "ray":
        raise UsageError("--address is for --backend ray")
    time_control, increment = _clock(args.tc)
    sprt = _sprt(args.sprt)
    needed = -(-args.games // len(seat_assignments(kind, split=args.split)))
    openings, source = openings_argument(args, kind, needed)
    config = MatchConfig(
        kind, a, b, args.games, openings, source, args.max_plies, time_control, increment, args.seed, args.split
    )
    backend: Backend = (
        functools.partial(backends.local, jobs=args.jobs)
        if args.backend == "local"
        else functools.partial(backends.ray, address=args.address, jobs=args.jobs)
    )
    if args.records is not None:
        args.records.mkdir(parents=True, exist_ok=True)
    with StatusLine(sys.stderr) as status:

        def progress(match: MatchResult, game: GameResult) -> None:
            if args.records is not None:
                name = f"game-{game.opening}-{game.assignment}{kind.record_format.suffix}"
                (args.records / name).write_text(game.record, encoding="utf-8")
            if args.verbose:
                status.clear()
                places = " ".join(f"{c}={p}" for c, p in game.places.items())
                print(
                    f"  game {game.key}: {game.termination} after {game.plies} plies, {places}, "
                    f"A {game.scores['A']:.2f}",
                    file=sys.stderr,
                    flush=True,
                )
            status.show(progress_text(match) + status.timing(len(match.games), len(config.tasks())))

        match = run_match(config, backend, output=args.output, resume=args.resume, sprt=sprt, progress=progress)
    print(format_report(match))
    return 1 if any(g.illegal for g in match.games) else 0


def _run_openings(args: argparse.Namespace) -> int:
    kind = game_kind_argument(args)
    plies = args.plies or 2 * len(Game.from_kind(kind).seats)
    with StatusLine(sys.stderr) as status:
        openings = balanced_openings(
            kind,
            args.count,
            plies,
            args.seed,
            args.nodes,
            args.margin,
            progress=lambda found, tried: status.show(f"{found}/{args.count} openings, {tried} tried"),
        )
    header = (
        f"{len(openings)} balanced openings for {kind.name}: {plies} random plies (seed {args.seed}), kept when "
        f"polychess's engine at {args.nodes} nodes scores them within {args.margin} centipawns.\n"
        f"Made by: polychess openings --variant {kind.name} --count {args.count} --plies {plies} "
        f"--nodes {args.nodes} --margin {args.margin} --seed {args.seed}"
    )
    text = write_openings(openings, header)
    if args.output is None:
        sys.stdout.write(text)
    else:
        args.output.write_text(text, encoding="utf-8")
    return 0
