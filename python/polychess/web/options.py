"""Reading the "new game" form: JSON from the browser, checked field by field, turned into
the arguments of :class:`~polychess.Game` and the seats the engine plays.

Everything here is untrusted input, so every field is checked for its type and range and an
unknown field is refused (a typo would otherwise silently fall back to a default).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TypeVar

from polychess.board import VARIANTS, Board, Colour
from polychess.web.errors import ApiError

T = TypeVar("T")

__all__ = ["GameOptions", "SeatOptions", "parse_game_options", "parse_seat_options"]

# Engine budgets are capped so that one request cannot tie up a core for long.
MAX_ENGINE_NODES = 5_000_000
MAX_ENGINE_TIME = 10.0
DEFAULT_ENGINE_NODES = 200_000
DEFAULT_ENGINE_TIME = 3.0
MAX_TIME_CONTROL = 24 * 3600.0
MAX_INCREMENT = 3600.0

_SEAT_FIELDS = ("engines", "engine_nodes", "engine_time")
_GAME_FIELDS = ("variant", "mode", "setup", "neutrality", "first_mate_wins", "players", "time_control",
                "increment", "hourglass", "move_limit")


@dataclass(frozen=True)
class SeatOptions:
    """Which seats the engine plays, and how long it may think per move."""

    engines: frozenset[Colour] = frozenset()
    engine_nodes: int = DEFAULT_ENGINE_NODES
    engine_time: float = DEFAULT_ENGINE_TIME


@dataclass(frozen=True)
class GameOptions:
    """Keyword arguments for Game(variant, **game_kwargs), plus the seats."""

    variant: str
    game_kwargs: dict[str, object] = field(default_factory=dict)
    seats: SeatOptions = SeatOptions()


def parse_game_options(data: Mapping[str, object]) -> GameOptions:
    """The options of a new game; raises :class:`ApiError` (400) naming the bad field."""
    _refuse_unknown(data, _GAME_FIELDS + _SEAT_FIELDS)
    variant = _choice(data, "variant", VARIANTS, "three-player")
    kwargs: dict[str, object] = {}
    if variant == "four-player":
        kwargs["mode"] = _choice(data, "mode", ("teams", "ffa"), "teams")
        kwargs["setup"] = _choice(data, "setup", ("modern", "classic"), "modern")
        move_limit = _number(data, "move_limit", None, 1, 100_000, integer=True)
        if move_limit is not None:
            kwargs["move_limit"] = int(move_limit)
    else:
        _absent(data, variant, ("mode", "setup", "move_limit"))
    if variant == "three-player":
        kwargs["neutrality"] = _bool(data, "neutrality")
        kwargs["first_mate_wins"] = _bool(data, "first_mate_wins")
        players = _choice(data, "players", (2, 3), 3)
        if players == 2:
            kwargs["players"] = 2
    else:
        _absent(data, variant, ("neutrality", "first_mate_wins", "players"))
    time_control = _number(data, "time_control", None, 1.0, MAX_TIME_CONTROL)
    if time_control is not None:
        kwargs["time_control"] = time_control
        kwargs["increment"] = _number(data, "increment", 0.0, 0.0, MAX_INCREMENT)
        kwargs["hourglass"] = _bool(data, "hourglass")
    else:
        _absent(data, "a game without time_control", ("increment", "hourglass"))
    colours = Board(variant, mode=_str_or_none(kwargs.get("mode"))).colours
    return GameOptions(variant, kwargs, parse_seat_options(data, colours))


def parse_seat_options(data: Mapping[str, object], colours: tuple[Colour, ...]) -> SeatOptions:
    """The engine seats (a list of colour names) and the engine's budget per move."""
    engines = data.get("engines", [])
    if not isinstance(engines, list) or not all(isinstance(e, str) for e in engines):
        raise ApiError(400, "engines must be a list of colour names")
    names = [c.value for c in colours]
    for name in engines:
        if name not in names:
            raise ApiError(400, f"engines: no seat {name!r} in this game (seats: {', '.join(names)})")
    nodes = _number(data, "engine_nodes", DEFAULT_ENGINE_NODES, 1, MAX_ENGINE_NODES, integer=True)
    seconds = _number(data, "engine_time", DEFAULT_ENGINE_TIME, 0.01, MAX_ENGINE_TIME)
    assert nodes is not None and seconds is not None
    return SeatOptions(frozenset(Colour(e) for e in engines), int(nodes), seconds)


def _refuse_unknown(data: Mapping[str, object], known: tuple[str, ...]) -> None:
    for key in data:
        if key not in known:
            raise ApiError(400, f"unknown field {key!r} (known: {', '.join(known)})")


def _absent(data: Mapping[str, object], context: str, keys: tuple[str, ...]) -> None:
    for key in keys:
        if data.get(key) not in (None, False):
            raise ApiError(400, f"{key} does not apply to {context}")


def _choice(data: Mapping[str, object], key: str, allowed: tuple[T, ...], default: T) -> T:
    value = data.get(key)
    if value is None:
        return default
    for option in allowed:
        if value == option and not isinstance(value, bool):  # True == 1 must not pass for 1
            return option
    raise ApiError(400, f"{key} must be one of {', '.join(map(str, allowed))}, got {value!r}")


def _bool(data: Mapping[str, object], key: str) -> bool:
    value = data.get(key)
    if value is None:
        return False
    if not isinstance(value, bool):
        raise ApiError(400, f"{key} must be true or false, got {value!r}")
    return value


def _number(data: Mapping[str, object], key: str, default: float | None, low: float, high: float,
            integer: bool = False) -> float | None:
    value = data.get(key)
    if value is None:
        return default
    # JSON true/false are ints to Python; a number field must not accept them.
    if isinstance(value, bool) or not isinstance(value, (int, float)) or (integer and not isinstance(value, int)):
        raise ApiError(400, f"{key} must be {'a whole number' if integer else 'a number'}, got {value!r}")
    if not low <= value <= high:
        raise ApiError(400, f"{key} must be between {low:g} and {high:g}, got {value!r}")
    return float(value)


def _str_or_none(value: object) -> str | None:
    return value if isinstance(value, str) else None
