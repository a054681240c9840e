"""Reading the "new game" form: JSON from the browser, checked field by field, turned into
the arguments of :class:`~polychess.Game` and the seats the engine plays.

Everything here is untrusted input, so every field is checked for its type and range and an
unknown field is refused (a typo would otherwise silently fall back to a default). The game
options are checked by polychess.options, as everywhere, within the server's own caps.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from polychess.board import Board, Colour
from polychess.options import OptionError, validate_options
from polychess.strength import MAX_LEVEL
from polychess.web.errors import ApiError

__all__ = ["GameOptions", "SeatOptions", "parse_game_options", "parse_seat_options"]

# Engine budgets are capped so that one request cannot tie up a core for long.
MAX_ENGINE_NODES = 5_000_000
MAX_ENGINE_TIME = 10.0
DEFAULT_ENGINE_NODES = 200_000
DEFAULT_ENGINE_TIME = 3.0
# Game options are capped so that one request cannot ask for a game that never ends.
MAX_TIME_CONTROL = 24 * 3600.0
MAX_INCREMENT = 3600.0
MAX_MOVE_LIMIT = 100_000

SEAT_FIELDS = ("engines", "engine_nodes", "engine_time", "engine_level")
# The game options the form offers, by their names in polychess.options.
_GAME_FIELDS = (
    "variant",
    "mode",
    "setup",
    "neutrality",
    "first_mate_wins",
    "players",
    "time_control",
    "increment",
    "hourglass",
    "move_limit",
)
_CAPS = {"time_control": (1.0, MAX_TIME_CONTROL), "increment": (0.0, MAX_INCREMENT), "move_limit": (1, MAX_MOVE_LIMIT)}


@dataclass(frozen=True)
class SeatOptions:
    """Which seats the engine plays, how long it may think per move and how strong it plays
    (a level of polychess.strength)."""

    engines: frozenset[Colour] = frozenset()
    engine_nodes: int = DEFAULT_ENGINE_NODES
    engine_time: float = DEFAULT_ENGINE_TIME
    engine_level: int = MAX_LEVEL


@dataclass(frozen=True)
class GameOptions:
    """Keyword arguments for Game(variant, **game_kwargs), plus the seats."""

    variant: str
    game_kwargs: dict[str, object] = field(default_factory=dict)
    seats: SeatOptions = SeatOptions()


def parse_game_options(data: Mapping[str, object]) -> GameOptions:
    """The options of a new game; raises :class:`ApiError` (400) naming the bad field."""
    _refuse_unknown(data, _GAME_FIELDS + SEAT_FIELDS)
    try:
        options = validate_options({name: data[name] for name in _GAME_FIELDS if name in data}, bounds=_CAPS)
    except OptionError as error:
        raise ApiError(400, str(error)) from None
    colours = Board(options.variant, mode=options.mode).colours
    return GameOptions(options.variant, options.arguments(), parse_seat_options(data, colours))


def parse_seat_options(data: Mapping[str, object], colours: tuple[Colour, ...]) -> SeatOptions:
    """The engine seats (a list of colour names), the engine's budget per move and its level."""
    engines = data.get("engines", [])
    if not isinstance(engines, list) or not all(isinstance(e, str) for e in engines):
        raise ApiError(400, "engines must be a list of colour names")
    names = [c.value for c in colours]
    for name in engines:
        if name not in names:
            raise ApiError(400, f"engines: no seat {name!r} in this game (seats: {', '.join(names)})")
    nodes = _number(data, "engine_nodes", DEFAULT_ENGINE_NODES, 1, MAX_ENGINE_NODES, integer=True)
    seconds = _number(data, "engine_time", DEFAULT_ENGINE_TIME, 0.01, MAX_ENGINE_TIME)
    level = _number(data, "engine_level", MAX_LEVEL, 1, MAX_LEVEL, integer=True)
    assert nodes is not None and seconds is not None and level is not None
    return SeatOptions(frozenset(Colour(e) for e in engines), int(nodes), seconds, int(level))


def _refuse_unknown(data: Mapping[str, object], known: tuple[str, ...]) -> None:
    for key in data:
        if key not in known:
            raise ApiError(400, f"unknown field {key!r} (known: {', '.join(known)})")


def _number(
    data: Mapping[str, object], key: str, default: float | None, low: float, high: float, integer: bool = False
) -> float | None:
    value = data.get(key)
    if value is None:
        return default
    # JSON true/false are ints to Python; a number field must not accept them.
    if isinstance(value, bool) or not isinstance(value, (int, float)) or (integer and not isinstance(value, int)):
        raise ApiError(400, f"{key} must be {'a whole number' if integer else 'a number'}, got {value!r}")
    if not low <= value <= high:
        raise ApiError(400, f"{key} must be between {low:g} and {high:g}, got {value!r}")
    return float(value)
