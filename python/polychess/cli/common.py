"""What several subcommands share: game options as flags, engine budgets, seats, colour.

A usage mistake anywhere (a bad flag value, an option that does not fit the variant) raises
:class:`UsageError`; ``main`` prints it and exits with status 2, as argparse does.
"""

from __future__ import annotations

import argparse
import os
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TextIO

from polychess.board import VARIANTS, Colour
from polychess.engine import Engine, SearchResult
from polychess.errors import InvalidPositionError
from polychess.game import Game
from polychess.options import OptionError, option
from polychess.strength import MAX_LEVEL, level_for_elo, level_of

__all__ = [
    "DEFAULT_NODES",
    "Budget",
    "EngineSpec",
    "UsageError",
    "add_budget_options",
    "add_game_options",
    "budget_from_args",
    "clock_arg",
    "colour_arg",
    "game_from_args",
    "parse_engine_spec",
    "strength_level",
    "use_color",
]

# With no budget given, the engine searches this many nodes per move: a tenth of a second or
# so, and the same move every time (a time budget would not be reproducible).
DEFAULT_NODES = 200_000


class UsageError(ValueError):
    """A command line that cannot be carried out; the message says what to change."""


def colour_arg(text: str) -> Colour:
    """A colour name as a command-line value."""
    try:
        return Colour(text.strip().lower())
    except ValueError:
        names = ", ".join(c.value for c in Colour)
        raise argparse.ArgumentTypeError(f"no colour {text!r} (one of {names})") from None


def positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value <= 0:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {value}")
    return value


def positive_float(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not value > 0:
        raise argparse.ArgumentTypeError(f"must be positive, got {text}")
    return value


def non_negative_float(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not value >= 0 or value == float("inf"):
        raise argparse.ArgumentTypeError(f"must be 0 or more, got {text}")
    return value


def clock_arg(text: str, flag: str = "--clock") -> tuple[object, object]:
    """``SECONDS[+INCREMENT]`` of a clock flag, not yet checked: the ranges are those of the game
    options (``time_control``, ``increment``)."""
    seconds, plus, increment = text.replace(" ", "").partition("+")
    try:
        return option("time_control").from_text(seconds), option("increment").from_text(increment if plus else "0")
    except OptionError:
        raise UsageError(f"{flag}: expected SECONDS or SECONDS+INCREMENT (e.g. 300+5), got {text!r}") from None


def _only(name: str) -> str:
    """A help text's prefix naming the variant an option is for, if it is not for all."""
    variants = option(name).variants
    return f"{' and '.join(variants)}: " if len(variants) == 1 else ""


def _help(name: str) -> str:
    """The help text of the flag for one game option: what polychess.options says it means."""
    return _only(name) + option(name).meaning


# -- game options ---------------------------------------------------------------------------


def add_game_options(parser: argparse.ArgumentParser, *, clock: bool = True) -> None:
    """The variant and the options of Game (docs/rules.md §1.11, §2) as flags."""
    group = parser.add_argument_group("game")
    group.add_argument("--variant", choices=VARIANTS, default="three-player", help="the variant (default three-player)")
    group.add_argument("--fen", metavar="POSITION", help=_help("start"))
    group.add_argument("--mode", choices=option("mode").choices, help=_help("mode"))
    group.add_argument("--setup", choices=option("setup").choices, help=_help("setup"))
    group.add_argument("--move-limit", metavar="PLIES", help=_help("move_limit"))
    group.add_argument("--first-player", metavar="COLOUR", help=_help("first_player"))
    group.add_argument("--first-mate-wins", action="store_true", help=_help("first_mate_wins"))
    group.add_argument("--neutrality", action="store_true", help=_help("neutrality"))
    group.add_argument(
        "--two-players", action="store_true", help=f"{_only('players')}White and Red only, Black not set up"
    )
    if clock:
        group.add_argument(
            "--clock",
            metavar="SECONDS[+INC]",
            help="a clock per player: seconds for the game, plus seconds added per move",
        )
        group.add_argument("--hourglass", action="store_true", help=f"with --clock: {option('hourglass').meaning}")


# The flag of each game option, for messages about them (polychess.options names them as Game does).
_FLAG_OF_OPTION = {
    "variant": "--variant",
    "start": "--fen",
    "mode": "--mode",
    "setup": "--setup",
    "move_limit": "--move-limit",
    "first_player": "--first-player",
    "first_mate_wins": "--first-mate-wins",
    "neutrality": "--neutrality",
    "players": "--two-players",
    "players=2": "--two-players",
    "time_control": "--clock",
    "increment": "--clock",
    "hourglass": "--hourglass",
}


def game_from_args(args: argparse.Namespace) -> Game:
    """A new game with the options given on the command line. The flags' values are read here
    rather than by argparse, so that every mistake in them is one line naming the flag, as
    polychess.options words it."""
    clock = getattr(args, "clock", None)
    try:
        time_control, increment = (None, 0.0) if clock is None else clock_arg(clock)
        move_limit = None if args.move_limit is None else option("move_limit").from_text(args.move_limit.strip())
        first_player = None if args.first_player is None else args.first_player.strip().lower()
        return Game(
            args.variant,
            first_mate_wins=args.first_mate_wins,
            neutrality=args.neutrality,
            players=2 if args.two_players else None,
            time_control=time_control,  # type: ignore[arg-type]
            increment=increment,  # type: ignore[arg-type]
            hourglass=getattr(args, "hourglass", False),
            start=args.fen,
            mode=args.mode,
            setup=args.setup,
            move_limit=move_limit,  # type: ignore[arg-type]
            first_player=first_player,
        )
    except OptionError as error:
        raise UsageError(error.spelled(_FLAG_OF_OPTION)) from None
    except InvalidPositionError:
        raise  # main() reports it as a bad position string
    except ValueError as error:
        raise UsageError(str(error)) from None


# -- engine budgets -------------------------------------------------------------------------


@dataclass(frozen=True)
class Budget:
    """How long an engine searches per move; unset limits are None."""

    nodes: int | None = None
    depth: int | None = None
    time: float | None = None

    def describe(self) -> str:
        parts = [
            f"{name}={value:g}" if isinstance(value, float) else f"{name}={value}"
            for name, value in (("nodes", self.nodes), ("depth", self.depth), ("time", self.time))
            if value is not None
        ]
        return ",".join(parts)


@dataclass(frozen=True)
class EngineSpec:
    """An engine seat: its budget, transposition-table size and strength level
    (:mod:`polychess.strength`; None: full strength)."""

    budget: Budget
    hash_mb: int = 16
    level: int | None = None

    def make(self) -> Engine:
        return Engine(hash_mb=self.hash_mb, level=self.level)

    def search(self, engine: Engine, game: Game) -> SearchResult:
        return engine.search(game, depth=self.budget.depth, nodes=self.budget.nodes, time=self.budget.time)

    def describe(self) -> str:
        level = "" if self.level is None else f",level={self.level}"
        return f"engine:{self.budget.describe()}{level}"


def add_budget_options(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group(f"engine budget per move (default: --nodes {DEFAULT_NODES})")
    group.add_argument("--nodes", type=positive_int, help="search about this many nodes")
    group.add_argument("--depth", type=positive_int, help="search this many plies deep")
    group.add_argument("--time", type=positive_float, metavar="SECONDS", help="search this long")
    group.add_argument(
        "--hash", type=positive_int, default=16, metavar="MB", help="transposition table size per engine (default 16)"
    )
    strength = group.add_mutually_exclusive_group()
    strength.add_argument(
        "--level", type=int, metavar="N", help=f"strength level 1 (weakest) to {MAX_LEVEL} (full, the default)"
    )
    strength.add_argument(
        "--elo", type=float, metavar="ELO", help="the strength level nearest this Elo (measured against Stockfish)"
    )


def strength_level(level: object, elo: object) -> int | None:
    """The level a ``level`` or ``elo`` setting names (None: neither), or a UsageError."""
    try:
        if elo is not None:
            return level_for_elo(elo).number
        return None if level is None else level_of(level).number
    except ValueError as error:
        raise UsageError(str(error)) from None


def budget_from_args(args: argparse.Namespace) -> EngineSpec:
    budget = Budget(args.nodes, args.depth, args.time)
    if budget == Budget():
        budget = Budget(nodes=DEFAULT_NODES)
    return EngineSpec(budget, args.hash, strength_level(args.level, args.elo))


def parse_engine_spec(text: str, default: EngineSpec) -> EngineSpec:
    """``engine`` or ``engine:nodes=20000,depth=3,time=1.5,hash=16,level=5`` (or ``elo=``
    instead of ``level=``). A spec that gives any of nodes, depth or time replaces the default
    budget as a whole: ``engine:depth=2`` means depth 2 and nothing else."""
    name, _, rest = text.partition(":")
    if name.strip() != "engine":
        raise UsageError(f"unknown player {text!r} (expected human, engine or engine:nodes=N,depth=N,time=S)")
    values: dict[str, str] = {}
    for item in filter(None, (part.strip() for part in rest.split(","))):
        key, sep, value = item.partition("=")
        if not sep or key not in ("nodes", "depth", "time", "hash", "level", "elo"):
            raise UsageError(
                f"bad engine setting {item!r} in {text!r} (known: nodes=N, depth=N, time=S, hash=MB, level=N, elo=E)"
            )
        values[key] = value
    try:
        nodes = positive_int(values["nodes"]) if "nodes" in values else None
        depth = positive_int(values["depth"]) if "depth" in values else None
        seconds = positive_float(values["time"]) if "time" in values else None
        hash_mb = positive_int(values["hash"]) if "hash" in values else default.hash_mb
        level = positive_int(values["level"]) if "level" in values else None
        elo = positive_float(values["elo"]) if "elo" in values else None
    except argparse.ArgumentTypeError as error:
        raise UsageError(f"{text!r}: {error}") from None
    if level is not None and elo is not None:
        raise UsageError(f"{text!r}: give a level or an elo, not both")
    budget = Budget(nodes, depth, seconds)
    strength = strength_level(level, elo) if level is not None or elo is not None else default.level
    return EngineSpec(default.budget if budget == Budget() else budget, hash_mb, strength)


# -- seats ----------------------------------------------------------------------------------


def parse_colour_list(text: str, seats: Sequence[Colour], flag: str) -> list[Colour]:
    """``red,black``, ``all`` or ``none``: colours of seats in this game."""
    text = text.strip().lower()
    if text == "all":
        return list(seats)
    if text == "none":
        return []
    colours = []
    for item in filter(None, (part.strip() for part in text.split(","))):
        colour = next((c for c in seats if c.value == item), None)
        if colour is None:
            raise UsageError(f"{flag}: no seat {item!r} in this game (seats: {', '.join(c.value for c in seats)})")
        colours.append(colour)
    return colours


# -- terminal -------------------------------------------------------------------------------


def use_color(choice: bool | None, stream: TextIO) -> bool:
    """``--color``/``--no-color`` decide; otherwise colour goes to terminals only, and never
    when NO_COLOR is set (no-color.org)."""
    if choice is not None:
        return choice
    if os.environ.get("NO_COLOR"):
        return False
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty()) and os.environ.get("TERM") != "dumb"


def add_color_options(parser: argparse._ActionsContainer) -> None:
    group = parser.add_mutually_exclusive_group()
    group.add_argument(
        "--color",
        dest="color",
        action="store_const",
        const=True,
        default=None,
        help="draw with ANSI colours (default: on a terminal)",
    )
    group.add_argument("--no-color", dest="color", action="store_const", const=False, help="draw without colours")
