"""Every game polychess plays, listed once.

The core lists its games (``_core.variants()``: each board with its modes, setups and colours,
in a fixed order, the first of a variant being its default); this module turns each entry into
a :class:`GameKind` and adds what the Python layer knows of the game: the rules it is declared
to be played by (:mod:`polychess.rules`) and its name in the engine protocols. Everything else
that depends on the game asks for its kind here instead of naming variants.

>>> from polychess.catalogue import kind_of
>>> kind_of("four-player").name, kind_of("four-player", "ffa").rules.ranking
('four-player-teams', 'points')
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from polychess import _core
from polychess.pieces import Colour
from polychess.rules import DECLARED, Rules

if TYPE_CHECKING:
    from polychess.game import Game

__all__ = ["GameKind", "KINDS", "RecordFormat", "VARIANTS", "kind_of", "kind_of_family"]


@dataclass(frozen=True)
class GameKind:
    """One game: the variant, and for four-player chess the mode and the setup; the shape of its
    board (``hexagon``, ``square`` or ``cross``), its colours in turn order (which are also its
    seats), its sides (a player alone, or partners) and its declared rules."""

    variant: str
    mode: str | None
    setup: str | None
    board: str = field(compare=False)
    colours: tuple[Colour, ...] = field(compare=False)  # what the three above name
    sides: tuple[tuple[Colour, ...], ...] = field(compare=False)
    rules: Rules = field(compare=False)
    # The search the engine plays the game by where more than two sides play (the core decides it:
    # cpp/board/variant.h); where two sides alternate every algorithm is the same alpha-beta.
    default_algorithm: str = field(compare=False)

    @property
    def family(self) -> str:
        """The game without its setup (``four-player-teams``): what its setups share, such as the
        evaluation's weights."""
        return self.variant if self.mode is None else f"{self.variant}-{self.mode}"

    @property
    def options(self) -> tuple[str, ...]:
        """The names of the options of :class:`~polychess.Game` that apply to this game, in
        the order :mod:`polychess.options` declares them."""
        from polychess.options import OPTIONS  # the options module depends on this one

        return tuple(o.name for o in OPTIONS if self.variant in o.variants)

    @property
    def record_format(self) -> RecordFormat:
        """The text format of the game's records (:mod:`polychess.formats`)."""
        return _RECORD_FORMATS[self.variant]

    @property
    def name(self) -> str:
        """The game's one-word name, as ``polychess uci --variant`` and ``UCI_Variant`` take
        it: the variant, with the mode and a setup other than the first added."""
        if self.mode is None:
            return self.variant
        default_setup = kind_of(self.variant, self.mode).setup
        return f"{self.variant}-{self.mode}" + ("" if self.setup == default_setup else f"-{self.setup}")

    @property
    def uci_variant(self) -> str:
        """The game's name as the UCI option ``UCI_Variant`` gives it: standard chess is
        ``chess``, as GUIs and python-chess call it; the others as :attr:`name`."""
        return "chess" if self.variant == "standard" else self.name

    def __reduce__(self) -> tuple[object, ...]:
        """Pickled as its name in the catalogue (a worker process looks it up again)."""
        return (kind_of, (self.variant, self.mode, self.setup))

    def new_game(self, start: str | None = None, points: Mapping[Colour, int] | None = None, **options: Any) -> Game:
        """A game of this kind from ``start`` (a polychess position string; None: the start
        position) with ``points`` (games ranked by points) and other options of :class:`Game`."""
        from polychess.game import Game  # the game module depends on this one

        if self.mode is not None:
            options.update(mode=self.mode, setup=self.setup)
        if points:
            options["points"] = points
        return Game(self.variant, start=start, **options)


def _listed(variant: str, mode: str, setup: str, board: str, names: list[str], teams: bool, algorithm: str) -> GameKind:
    colours = tuple(Colour(name) for name in names)
    # Partners sit opposite each other: players p and p + 2 (docs/rules.md §2.3).
    sides = tuple(colours[p::2] for p in range(2)) if teams else tuple((c,) for c in colours)
    rules = DECLARED[(variant, mode or None)]
    return GameKind(variant, mode or None, setup or None, board, colours, sides, rules, algorithm)


@dataclass(frozen=True)
class RecordFormat:
    """A text format of whole games: its name (the module of :mod:`polychess.formats` that reads
    and writes it) and the file suffix records of it take."""

    name: str
    suffix: str

    def read(self, text: str) -> Game:
        """The game a record of this format holds (the format's reader and its errors)."""
        reader: Callable[[str], Game] = getattr(self._module(), f"read_{self.name}")
        return reader(text)

    def write(self, game: Game, tags: Mapping[str, str] | None = None) -> str:
        """The game's record in this format, with extra tags (player names, event, ...)."""
        writer: Callable[[Game, Mapping[str, str] | None], str] = getattr(self._module(), f"write_{self.name}")
        return writer(game, tags)

    def _module(self) -> Any:
        return importlib.import_module(f"polychess.formats.{self.name}")  # the formats depend on this module


# The format each variant's records are written in: PGN for standard chess, chess.com's PGN4
# for four-player chess, polychess's own game records for three-player chess.
_RECORD_FORMATS = {
    "standard": RecordFormat("pgn", ".pgn"),
    "four-player": RecordFormat("pgn4", ".pgn4"),
    "three-player": RecordFormat("record", ".txt"),
}

KINDS: tuple[GameKind, ...] = tuple(_listed(*entry) for entry in _core.variants())

VARIANTS: tuple[str, ...] = tuple(dict.fromkeys(k.variant for k in KINDS))

_BY_KEY: dict[tuple[str, str | None, str | None], GameKind] = {(k.variant, k.mode, k.setup): k for k in KINDS}


def kind_of(variant: str, mode: str | None = None, setup: str | None = None) -> GameKind:
    """The game of this variant, mode and setup (a mode or setup left out: the variant's
    first). A ValueError names what is unknown and what is known."""
    name, resolved_mode, resolved_setup = _core.resolve_variant(variant, mode or "", setup or "")
    return _BY_KEY[(name, resolved_mode or None, resolved_setup or None)]


def kind_of_family(family: str) -> GameKind:
    """The game a family name stands for (``GameKind.family``, such as ``four-player-teams``),
    in its first setup; a ValueError for a name that is none."""
    for kind in KINDS:
        if kind.family == family:
            return kind_of(kind.variant, kind.mode)
    raise ValueError(f"no game {family!r}")
