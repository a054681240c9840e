"""The options of a game, declared once, and the one function that checks them.

Each option is declared with its name, its kind of value, the variants it applies to, its range
and its default (:data:`OPTIONS`); :func:`validate_options` checks a set of options against that
declaration and returns them resolved (:class:`Options`). :class:`~polychess.Game`, the command
line, the web app and the game-record reader all check options here, so an option is accepted or
refused for the same reason everywhere; each caller only turns an :class:`OptionError` into its
own kind of error, naming the options its own way (a flag, a JSON field, a record tag).

What each option means is in docs/rules.md: §1.11 for three-player chess, §2 for four-player chess.
"""

from __future__ import annotations

import math
import numbers
import re
from collections.abc import Mapping
from dataclasses import dataclass

from polychess.catalogue import VARIANTS, GameKind, kind_of
from polychess.pieces import Colour

__all__ = ["CLOCK_OPTIONS", "OPTIONS", "Option", "OptionError", "Options", "option", "options_of", "validate_options"]

_THREE_PLAYER = ("three-player",)
# More plies than any game is played for; it keeps a move limit a number that records can hold.
_MAX_PLIES = 1_000_000_000
_FOUR_PLAYER = ("four-player",)

# In a message template, {name} stands for an option, so that each caller can call it by its own
# name (OptionError.spelled); {{ and }} are literal braces.
_PLACEHOLDER = re.compile(r"\{\{|\}\}|\{([a-z0-9_=]+)\}")
_DECIMAL = re.compile(r"[0-9]+(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?")
_WHOLE = re.compile(r"[0-9]+")


class OptionError(ValueError):
    """An option that is unknown, has the wrong type or an out-of-range value, does not apply to
    the game, or conflicts with another one. The message names the option and what is allowed.

    ``option`` is the name of the option at fault. ``spelled(names)`` gives the message with the
    options called by other names (``{"start": "--fen"}``); ``str(error)`` calls them by their
    own names, as ``Game`` takes them.
    """

    def __init__(self, option: str, template: str) -> None:
        self.option = option
        self._template = template
        super().__init__(self.spelled({}))

    def spelled(self, names: Mapping[str, str]) -> str:
        def name(match: re.Match[str]) -> str:
            if match.group(1) is None:
                return match.group(0)[0]
            return names.get(match.group(1), match.group(1))

        return _PLACEHOLDER.sub(name, self._template)


def _shown(value: object) -> str:
    """A value as a message quotes it, with its braces escaped for the template."""
    if isinstance(value, Colour):
        text = repr(value.value)
    elif isinstance(value, float):
        text = _number_text(value)
    else:
        text = repr(value)
    if len(text) > 40:  # a value of a thousand digits is not repeated in full
        text = text[:37] + "..."
    return text.replace("{", "{{").replace("}", "}}")


def _number_text(value: float) -> str:
    """A number as written in messages and records: 300, not 300.0; 0.1 exactly as read."""
    return str(int(value)) if float(value).is_integer() else repr(float(value))


@dataclass(frozen=True)
class Option:
    """One option of a game.

    ``kind`` is what its value is: ``flag`` (True or False), ``choice`` (one of ``choices``),
    ``seat`` (the colour of a seat in play), ``number`` (a finite real number), ``whole number``
    (an integer) or ``position`` (a position string, checked by the board that reads it).
    ``variants`` are those it applies to; elsewhere only its ``off`` value (or None) is accepted,
    meaning it is not used. ``minimum`` (excluded if ``above_minimum``) and ``maximum`` bound numbers. An option
    that ``needs`` another applies only when that one is given too.
    """

    name: str
    kind: str
    variants: tuple[str, ...]
    default: object
    meaning: str
    choices: tuple[object, ...] = ()
    minimum: float | None = None
    above_minimum: bool = False
    maximum: float | None = None
    needs: str | None = None
    off: object = None

    def check(self, value: object, bounds: tuple[float, float] | None = None) -> object:
        """The value converted to the option's type (a float for a number); raises OptionError if
        it has the wrong type or is out of range (the declared one, narrowed by ``bounds``).
        Whether the option applies to the game is :func:`validate_options`'s business."""
        name = "{" + self.name + "}"
        if self.kind == "flag":
            if not isinstance(value, bool):
                raise OptionError(self.name, f"{name} must be true or false, got {_shown(value)}")
            return value
        if self.kind == "choice":
            for choice in self.choices:
                # True == 1 in Python, but True is no number of players
                if value == choice and isinstance(value, bool) == isinstance(choice, bool):
                    return choice
            allowed = ", ".join(map(str, self.choices))
            raise OptionError(self.name, f"{name} must be one of {allowed}, got {_shown(value)}")
        if self.kind == "seat":
            if isinstance(value, str) and value in {c.value for c in Colour}:
                return Colour(value)
            names = ", ".join(c.value for c in Colour)
            raise OptionError(self.name, f"{name} must be a colour ({names}), got {_shown(value)}")
        if self.kind == "position":
            if not isinstance(value, str):
                raise OptionError(self.name, f"{name} must be a position string, got {_shown(value)}")
            return value
        if self.kind == "whole number":
            if isinstance(value, bool) or not isinstance(value, numbers.Integral):
                raise OptionError(self.name, f"{name} must be a whole number, got {_shown(value)}")
            number: float = int(value)
        else:
            if isinstance(value, bool) or not isinstance(value, numbers.Real):
                raise OptionError(self.name, f"{name} must be a number, got {_shown(value)}")
            try:
                number = float(value)
            except OverflowError:  # an integer beyond every float: out of range
                number = math.inf
        if not self._in_range(number, bounds):
            raise OptionError(self.name, f"{name} must be {self._range_text(bounds)}, got {_shown(value)}")
        return number

    def from_text(self, text: str) -> object:
        """The value written as ``text`` (a record's ``name=value``, a command-line value), not
        yet checked: a number from its decimal digits, a choice from its name."""
        name = "{" + self.name + "}"
        if self.kind == "flag":
            raise OptionError(self.name, f"{name} is a flag and takes no value, got {_shown(text)}")
        if self.kind == "choice":
            return next((c for c in self.choices if str(c) == text), text)
        if self.kind == "whole number":
            try:
                if _WHOLE.fullmatch(text):
                    return int(text)
            except ValueError:  # more digits than Python reads
                pass
            raise OptionError(self.name, f"{name} must be a whole number, got {_shown(text)}")
        if self.kind == "number":
            if not _DECIMAL.fullmatch(text):
                raise OptionError(self.name, f"{name} must be a number, got {_shown(text)}")
            return float(text)
        return text

    def to_text(self, value: object) -> str:
        """The value as :meth:`from_text` reads it back exactly."""
        if isinstance(value, Colour):
            return value.value
        if isinstance(value, float):
            return _number_text(value)
        return str(value)

    def _in_range(self, value: float, bounds: tuple[float, float] | None) -> bool:
        if isinstance(value, float) and not math.isfinite(value):
            return False
        if self.minimum is not None and (value <= self.minimum if self.above_minimum else value < self.minimum):
            return False
        if self.maximum is not None and value > self.maximum:
            return False
        return bounds is None or bounds[0] <= value <= bounds[1]

    def _range_text(self, bounds: tuple[float, float] | None) -> str:
        what = "a whole number" if self.kind == "whole number" else "a finite number"
        if bounds is not None:
            return f"between {_number_text(bounds[0])} and {_number_text(bounds[1])}"
        if self.minimum is not None and self.maximum is not None:
            return f"{what} from {_number_text(self.minimum)} to {_number_text(self.maximum)}"
        if self.minimum is None:
            return what
        return f"{what} {'greater than' if self.above_minimum else 'of at least'} {_number_text(self.minimum)}"


# ``meaning`` is said to people (command-line help); the rules behind it are in docs/rules.md.
OPTIONS: tuple[Option, ...] = (
    Option(
        "variant",
        "choice",
        VARIANTS,
        "three-player",
        "the game: three-player (default), standard or four-player",
        choices=VARIANTS,
    ),
    Option(
        "mode",
        "choice",
        _FOUR_PLAYER,
        "teams",
        "teams (default) or ffa, free-for-all (rules §2.3, §2.4)",
        choices=("teams", "ffa"),
    ),
    Option(
        "setup",
        "choice",
        _FOUR_PLAYER,
        "modern",
        "where kings and queens start: modern (default) or classic (rules §2.1)",
        choices=("modern", "classic"),
    ),
    Option("start", "position", VARIANTS, None, "a position string to start from instead of the start position"),
    Option("first_player", "seat", VARIANTS, None, "the seat that moves first"),
    Option(
        "rotate_first_player",
        "flag",
        _FOUR_PLAYER,
        False,
        "each next game starts one seat further clockwise (rules §2.4)",
        off=False,
    ),
    Option(
        "move_limit",
        "whole number",
        _FOUR_PLAYER,
        None,
        "end the game after this many plies: teams draw, free-for-all ranks by points (rules §2.4)",
        minimum=1,
        maximum=_MAX_PLIES,
    ),
    Option(
        "first_mate_wins", "flag", _THREE_PLAYER, False, "the first checkmate ends the game (rules §1.11)", off=False
    ),
    Option(
        "neutrality", "flag", _THREE_PLAYER, False, "the rule of neutrality restricts captures (rules §1.11)", off=False
    ),
    Option(
        "players",
        "choice",
        _THREE_PLAYER,
        3,
        "2 or 3 (default); with 2, White and Red play and Black is not set up (rules §1.11)",
        choices=(2, 3),
    ),
    Option(
        "time_control",
        "number",
        VARIANTS,
        None,
        "seconds on each player's clock (rules §1.11)",
        minimum=0,
        above_minimum=True,
    ),
    Option(
        "increment",
        "number",
        VARIANTS,
        0.0,
        "seconds added to the mover's clock after each of his moves",
        minimum=0,
        needs="time_control",
        off=0.0,
    ),
    Option(
        "hourglass",
        "flag",
        VARIANTS,
        False,
        "the time a mover uses goes to the other active players (rules §1.11)",
        needs="time_control",
        off=False,
    ),
)

_BY_NAME = {o.name: o for o in OPTIONS}

# The options of a game's clock: the time control and the options that need it.
CLOCK_OPTIONS: tuple[str, ...] = tuple(o.name for o in OPTIONS if "time_control" in (o.name, o.needs))


def options_of(kind: GameKind) -> tuple[str, ...]:
    """The names of the options of :class:`~polychess.Game` that apply to a game, in the order
    of :data:`OPTIONS`."""
    return tuple(o.name for o in OPTIONS if kind.variant in o.variants)


def option(name: str) -> Option:
    """The declaration of one option; raises OptionError for an unknown name."""
    try:
        return _BY_NAME[name]
    except KeyError:
        known = ", ".join(_BY_NAME)
        raise OptionError(name, f"unknown option {_shown(name)} (known: {known})") from None


@dataclass(frozen=True)
class Options:
    """A checked set of options, every one resolved: its default where it was not given, and
    None (False for a flag, 0 for the increment) where it does not apply to the variant."""

    variant: str
    mode: str | None
    setup: str | None
    start: str | None
    first_player: Colour | None
    rotate_first_player: bool
    move_limit: int | None
    first_mate_wins: bool
    neutrality: bool
    players: int | None
    time_control: float | None
    increment: float
    hourglass: bool

    def arguments(self) -> dict[str, object]:
        """The options that differ from their defaults, as keyword arguments of ``Game`` after
        the variant: ``Game(options.variant, **options.arguments())`` is a game with these
        options."""
        return {
            o.name: getattr(self, o.name)
            for o in OPTIONS
            if o.name != "variant" and getattr(self, o.name) not in (None, o.default)
        }


def _is_off(spec: Option, value: object) -> bool:
    """Whether a value leaves the option unused: None, or its ``off`` value (False for a flag,
    0 for the increment; a flag's False is not the increment's 0, nor the reverse)."""
    if value is None:
        return True
    return spec.off is not None and value == spec.off and isinstance(value, bool) == isinstance(spec.off, bool)


def validate_options(values: Mapping[str, object], bounds: Mapping[str, tuple[float, float]] | None = None) -> Options:
    """Checks options given by name (``{"variant": "four-player", "mode": "ffa"}``; a missing one
    or None means not given) and returns them resolved. ``bounds`` narrows the range of some
    options, e.g. a server's caps on untrusted input (``{"time_control": (1, 86400)}``).

    Raises :class:`OptionError` for the first option that is unknown, of the wrong type, out of
    range, not an option of the variant, missing the option it needs, or in conflict with another.
    """
    for name in values:
        option(name)
    bounds = bounds or {}
    variant = values.get("variant")
    variant = _BY_NAME["variant"].default if variant is None else _BY_NAME["variant"].check(variant)
    assert isinstance(variant, str)
    resolved: dict[str, object] = {"variant": variant}
    for spec in OPTIONS:
        if spec.name == "variant":
            continue
        value = values.get(spec.name)
        if _is_off(spec, value):
            resolved[spec.name] = spec.default if variant in spec.variants else spec.off
            continue
        name = "{" + spec.name + "}"
        if variant not in spec.variants:
            chess = " and ".join(spec.variants)
            raise OptionError(
                spec.name, f"{name} does not apply to {variant} ({name} is an option of {chess} chess only)"
            )
        # what an option needs is declared before it, so it is resolved already
        if spec.needs is not None and _is_off(_BY_NAME[spec.needs], resolved[spec.needs]):
            needed = "{" + spec.needs + "}"
            raise OptionError(spec.name, f"{name} does not apply to a game without {needed} ({name} needs {needed})")
        resolved[spec.name] = spec.check(value, bounds.get(spec.name))
    if resolved["players"] == 2 and resolved["start"] is not None:
        # players=2 is a start position of its own (Black not set up).
        raise OptionError("start", "{players=2} sets up its own start position; give either {players=2} or {start}")
    seats = kind_of(variant).colours if resolved["first_player"] is not None else ()
    if resolved["players"] == 2:
        seats = seats[:2]  # Black's seat is empty
    if resolved["first_player"] is not None and resolved["first_player"] not in seats:
        names = ", ".join(c.value for c in seats)
        raise OptionError(
            "first_player",
            f"{{first_player}} must be one of {names} (the seats in play), got {_shown(resolved['first_player'])}",
        )
    return Options(**resolved)  # type: ignore[arg-type]
