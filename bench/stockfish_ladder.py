#!/usr/bin/env python3
"""polychess against Stockfish's strength ladder (``UCI_LimitStrength``/``UCI_Elo``) in standard chess.

    python bench/stockfish_ladder.py match --elo 2400 --tc 10+0.1 --games 100 --jobs 2
    python bench/stockfish_ladder.py calibrate --games 20 --jobs 2 --write

``match`` plays the full engine (or ``--level N``) against Stockfish at one Elo, on a clock or at
a time per move, and prints the match table (score, 95% interval, Elo). ``calibrate`` measures
every strength level of :mod:`polychess.strength` against the ladder, at ``--time`` seconds per
move for both, from the full engine down, each level against the rung nearest the strength the
level above suggests (below the ladder's foot, 1350, against the level above), and with
``--write`` stores the measured Elo in ``python/polychess/data/strength.json``.

Stockfish is not a dependency of polychess: when it is missing this script installs Debian's
package (``apt-get install -y stockfish``, as root), like ``bench/compare.py``.
"""

from __future__ import annotations

import argparse
import datetime
import functools
import json
import math
import subprocess
import sys
from pathlib import Path

from compare import find_stockfish, install_stockfish
from polychess.cli.common import clock_arg
from polychess.match import backends
from polychess.match.openings import read_openings, shipped_openings
from polychess.match.players import parse_player
from polychess.match.report import format_report
from polychess.match.runner import MatchConfig, MatchResult, opening_samples, run_match
from polychess.match.stats import elo_interval
from polychess.protocol.games import GAME_KINDS
from polychess.strength import LEVELS

LADDER = (1350, 2850)  # the UCI_Elo range of Stockfish 15.1
DATA = Path(__file__).resolve().parent.parent / "python" / "polychess" / "data" / "strength.json"


def stockfish_spec(binary: str, elo: int, seconds: float | None) -> str:
    per_move = f",time={seconds:g}" if seconds is not None else ""
    return f"uci:{binary}{per_move},option.UCI_LimitStrength=true,option.UCI_Elo={elo}"


def play(ours: str, theirs: str, games: int, jobs: int, clock: tuple[float, float] | None) -> MatchResult:
    kind = GAME_KINDS["standard"]
    openings = tuple(read_openings(shipped_openings(kind), kind))
    config = MatchConfig(
        kind,
        parse_player(ours),
        parse_player(theirs),
        games,
        openings,
        "shipped",
        time_control=None if clock is None else clock[0],
        increment=0.0 if clock is None else clock[1],
    )
    return run_match(config, functools.partial(backends.local, jobs=jobs))


def stockfish_version(binary: str) -> str:
    try:
        done = subprocess.run([binary], input="uci\nquit\n", capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired):
        return "Stockfish"
    for line in done.stdout.splitlines():
        if line.startswith("id name "):
            return line[len("id name ") :].strip()
    return "Stockfish"


def run_match_command(args: argparse.Namespace, binary: str) -> int:
    clock = None
    if args.tc is not None:
        base, increment = clock_arg(args.tc, "--tc")
        clock = (float(base), float(increment))  # type: ignore[arg-type]
    level = "" if args.level is None else f",level={args.level}"
    ours = f"engine:hash={args.hash}{level}" + ("" if clock else f",time={args.time:g}")
    theirs = stockfish_spec(binary, args.elo, None if clock else args.time)
    match = play(ours, theirs, args.games, args.jobs, clock)
    print(
        f"{stockfish_version(binary)}, UCI_Elo {args.elo}, "
        + (f"clock {args.tc}" if clock else f"{args.time:g} s/move")
    )
    print(format_report(match))
    return 0


def levels_json(calibration: str, levels: list[dict[str, object]]) -> str:
    """data/strength.json's text: one line per level, so that a calibration's diff reads well."""
    rows = ",\n".join("  " + json.dumps(level) for level in levels)
    return f'{{\n "calibration": {json.dumps(calibration)},\n "levels": [\n{rows}\n ]\n}}\n'


def non_decreasing(values: list[float], weights: list[float]) -> list[float]:
    """The non-decreasing sequence nearest ``values`` in weighted least squares (pool adjacent
    violators: a run that falls is replaced by its weighted mean)."""
    blocks: list[list[float]] = []  # [mean, weight, count]
    for value, weight in zip(values, weights, strict=True):
        blocks.append([value, weight, 1])
        while len(blocks) > 1 and blocks[-2][0] > blocks[-1][0]:
            mean2, weight2, count2 = blocks.pop()
            mean1, weight1, count1 = blocks[-1]
            blocks[-1] = [(mean1 * weight1 + mean2 * weight2) / (weight1 + weight2), weight1 + weight2, count1 + count2]
    return [mean for mean, _, count in blocks for _ in range(int(count))]


def calibrate(args: argparse.Namespace, binary: str) -> int:
    """From the full engine down, each level against an anchor near the strength the level
    above suggests: the rung of Stockfish's ladder nearest it (a score of 0 or 1 says nothing of
    the distance, so that level plays again a step further along), or, below the ladder's foot,
    the level above, whose label is then the anchor (a chain down from the ladder)."""
    entries: dict[int, dict[str, object]] = {}
    guess = args.top_guess
    for level in reversed(LEVELS):
        ours = f"engine:level={level.number},time={args.time:g},hash={args.hash}"
        above = entries.get(level.number + 1, {})
        on_ladder = guess >= LADDER[0] or not isinstance(above.get("measured_elo"), int)
        anchor = min(LADDER[1], max(LADDER[0], round(guess / 50) * 50)) if on_ladder else above["measured_elo"]
        assert isinstance(anchor, int)
        while True:
            opponent = (
                stockfish_spec(binary, anchor, args.time)
                if on_ladder
                else f"engine:level={level.number + 1},time={args.time:g},hash={args.hash}"
            )
            match = play(ours, opponent, args.games, args.jobs, None)
            samples = opening_samples(match.games, match.config)
            estimate = elo_interval(samples)
            against = f"UCI_Elo {anchor}" if on_ladder else f"level {level.number + 1} ({anchor})"
            print(
                f"level {level.number} (nodes {level.nodes}, noise {level.noise}) vs {against}: "
                f"score {sum(samples) / len(samples):.3f} over {len(match.games)} games, "
                f"Elo difference {estimate.mean:+.0f} [{estimate.low:+.0f}, {estimate.high:+.0f}]",
                flush=True,
            )
            step = 400 if estimate.mean == math.inf else -400 if estimate.mean == -math.inf else 0
            moved = min(LADDER[1], max(LADDER[0], anchor + step))
            if not on_ladder or step == 0 or moved == anchor:
                break
            anchor = moved
        against = f"Stockfish UCI_Elo {anchor}" if on_ladder else f"level {level.number + 1}"
        entry: dict[str, object] = {
            "level": level.number,
            "nodes": level.nodes,
            "noise": level.noise,
            "games": len(match.games),
            "against": against,
        }
        if math.isfinite(estimate.mean):
            elo = round(anchor + estimate.mean)
            # An interval that reaches a score of 0 or 1 is open on that side (null).
            low = round(anchor + estimate.low) if math.isfinite(estimate.low) else None
            high = round(anchor + estimate.high) if math.isfinite(estimate.high) else None
            entry.update(measured_elo=elo, elo_interval=[low, high])
            guess = elo - args.step_guess
        entries[level.number] = entry
    results = [entries[level.number] for level in LEVELS]
    # The levels are ordered by construction; a measurement out of that order is noise. The
    # labels are the closest non-decreasing sequence (weighted by games) to the measurements.
    measured = [entry for entry in results if "measured_elo" in entry]
    labels = non_decreasing(
        [float(e["measured_elo"]) for e in measured],  # type: ignore[arg-type]
        [float(e["games"]) for e in measured],
    )  # type: ignore[arg-type]
    for entry, label in zip(measured, labels, strict=True):
        entry["elo"] = round(label)
    calibration = (
        f"{stockfish_version(binary)} with UCI_LimitStrength, standard chess, {args.time:g} s/move each, "
        f"{args.games} games per level (below the ladder, against the level above), "
        f"measured {datetime.date.today().isoformat()} by bench/stockfish_ladder.py calibrate"
    )
    text = levels_json(calibration, results)
    if args.write:
        DATA.write_text(text, encoding="utf-8")
        print(f"written: {DATA}")
    else:
        print(text)
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    match = sub.add_parser("match", help="the engine against one rung of the ladder")
    match.add_argument("--elo", type=int, default=2400)
    match.add_argument("--tc", help="a clock per player, e.g. 10+0.1 (default: --time per move)")
    match.add_argument("--time", type=float, default=0.1, help="seconds per move without --tc")
    match.add_argument("--level", type=int, help="a strength level (default: the full engine)")
    calibration = sub.add_parser("calibrate", help="measure every strength level")
    calibration.add_argument("--time", type=float, default=0.1, help="seconds per move, both engines")
    calibration.add_argument("--write", action="store_true", help="store the result in data/strength.json")
    calibration.add_argument("--top-guess", type=int, default=1900, help="the full engine's Elo, to start from")
    calibration.add_argument("--step-guess", type=int, default=150, help="the Elo a level down is guessed to lose")
    for command in (match, calibration):
        command.add_argument("--games", type=int, default=20)
        command.add_argument("--jobs", type=int, default=1)
        command.add_argument("--hash", type=int, default=16, help="our table, MB")
    args = parser.parse_args()
    binary = find_stockfish() or install_stockfish()
    if binary is None:
        print("Stockfish is needed and could not be installed", file=sys.stderr)
        return 1
    return run_match_command(args, binary) if args.command == "match" else calibrate(args, binary)


if __name__ == "__main__":
    sys.exit(main())
