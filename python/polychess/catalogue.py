"""Every game polychess plays, listed once.

The core defines each game in one file (``cpp/games/``) and lists them (``_core.variants()``:
each board with its modes, setups and colours, its rules, record format and default search, in
a fixed order, the first of a variant being its default); this module turns each entry into a
:class:`GameKind`, adding only its names in the engine protocols. Everything else that depends
on the game asks for its kind here instead of naming variants.

>>> from polychess.catalogue import kind_of
>>> kind_of("four-player").name, kind_of("four-player", "ffa").rules.ranking
('four-player-teams', 'points')
>>> kind_of("four-player-ffa") is kind_of("four-player", "ffa"), kind_of("chess").variant
(True, 'standard')
"""

from __future__ import annotations

import reprlib
from dataclasses import dataclass, field
from functools import cache

from polychess import _core
from polychess.deprecation import warn_renamed
from polychess.pieces import Colour
from polychess.rules import DECLARED, Rules

__all__ = ["GameKind", "KINDS", "RecordFormat", "VARIANTS", "kind_of", "kind_of_family"]


@dataclass(frozen=True)
class GameKind:
    """One game: the variant, and for four-player chess the mode and the setup; the shape of its
    board (``hexagon``, ``square`` or ``cross``), its colours in turn order (which are also its
    seats), its sides (a player alone, or partners) and its declared rules.

    Its names: :attr:`variant` is the board's game (``four-player``), which ``mode`` and
    ``setup`` narrow; :attr:`name` the one word for the whole game (``four-player-ffa``), the
    name :func:`kind_of` and the command line take; :attr:`family` the name of its first setup
    (what setups share, such as the evaluation's weights); :attr:`uci_variant` and
    :attr:`record_variant` what the UCI protocol and a record's ``Variant`` tag call it (the
    learning environments add OpenSpiel's, which its registry needs as identifiers)."""

    variant: str
    mode: str | None
    setup: str | None
    board: str = field(compare=False)
    colours: tuple[Colour, ...] = field(compare=False)  # what the three above name
    sides: tuple[tuple[Colour, ...], ...] = field(compare=False)
    rules: Rules = field(compare=False)
    # The search the engine plays the game by where more than two sides play (the core decides it:
    # cpp/games/variant.h); where two sides alternate every algorithm is the same alpha-beta.
    default_algorithm: str = field(compare=False)
    # The text format of the game's records (:mod:`polychess.formats`), as its definition names it.
    record_format: RecordFormat = field(compare=False)
    # The game's name in its records' ``Variant`` tag where the format names games by it
    # (chess.com's PGN4 ``Teams`` and ``FFA``; None elsewhere), as its definition gives it.
    record_variant: str | None = field(compare=False)
    # UCI's name for the game where it has one of its own (see uci_variant).
    own_uci_variant: str | None = field(compare=False, repr=False)

    @property
    def family(self) -> str:
        """The :attr:`name` of the game in its first setup (``four-player-teams``): what its setups
        share, such as the evaluation's weights."""
        return self.variant if self.mode is None else f"{self.variant}-{self.mode}"

    @property
    def layout(self) -> _core.Layout:
        """The board's cells: their names, neighbours and lines, as the core lays them out (made
        once a game)."""
        return _layout(self)

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
        ``chess``, as GUIs and python-chess call it (its definition says so); the others as
        :attr:`name`."""
        return self.own_uci_variant or self.name

    @property
    def partners(self) -> bool:
        """Whether some players play as partners (four-player teams): one side of several."""
        return any(len(side) > 1 for side in self.sides)

    def __reduce__(self) -> tuple[object, ...]:
        """Pickled as its name in the catalogue (a worker process looks it up again)."""
        return (kind_of, (self.variant, self.mode, self.setup))


def _listed(
    variant: str,
    mode: str,
    setup: str,
    board: str,
    names: list[str],
    teams: bool,
    algorithm: str,
    _rules: str,  # read by polychess.rules into DECLARED, one value a variant and mode
    record_format: str,
    record_suffix: str,
    uci_variant: str,
    record_variant: str,
) -> GameKind:
    colours = tuple(Colour(name) for name in names)
    # Partners sit opposite each other: players p and p + 2 (docs/rules.md §2.3).
    sides = tuple(colours[p::2] for p in range(2)) if teams else tuple((c,) for c in colours)
    record = RecordFormat(record_format, record_suffix)
    rules = DECLARED[(variant, mode or None)]
    return GameKind(
        variant,
        mode or None,
        setup or None,
        board,
        colours,
        sides,
        rules,
        algorithm,
        record,
        record_variant or None,
        uci_variant or None,
    )


@dataclass(frozen=True)
class RecordFormat:
    """A text format of whole games: its name (the module of :mod:`polychess.formats` that reads
    and writes it, :func:`polychess.formats.read_own` and :func:`~polychess.formats.write_own`
    for a game's own) and the file suffix records of it take."""

    name: str
    suffix: str


KINDS: tuple[GameKind, ...] = tuple(_listed(*entry) for entry in _core.variants())

VARIANTS: tuple[str, ...] = tuple(dict.fromkeys(k.variant for k in KINDS))

_BY_KEY: dict[tuple[str, str | None, str | None], GameKind] = {(k.variant, k.mode, k.setup): k for k in KINDS}


def kind_of(game: str, mode: str | None = None, setup: str | None = None) -> GameKind:
    """The game named ``game`` (any case): a variant, in the ``mode`` and ``setup`` given (each
    left out: the variant's first), or one of a game's names (:attr:`GameKind.name`, such as
    ``four-player-ffa``, which names its mode and setup, and :attr:`GameKind.uci_variant`, such
    as ``chess``). The one lookup of a game by name: a ValueError names what is unknown and
    what is known."""
    if not isinstance(game, str):
        raise TypeError(f"a game is named by a str, not {type(game).__name__}")
    key = game.strip().lower()
    if key not in VARIANTS:
        if key not in _BY_NAME:
            known = f"one of {', '.join(VARIANTS)}, or a game: {', '.join(_NAMES)}"
            raise ValueError(f"unknown variant {reprlib.repr(game)} ({known})")
        if mode is not None or setup is not None:
            raise ValueError(f"{reprlib.repr(game)} names its mode and setup: give its variant with them")
        return _BY_NAME[key]
    name, resolved_mode, resolved_setup = _core.resolve_variant(key, mode or "", setup or "")
    return _BY_KEY[(name, resolved_mode or None, resolved_setup or None)]


def kind_of_family(family: str) -> GameKind:
    """Deprecated: :func:`kind_of`, which takes a family's name (the name of its first setup)."""
    warn_renamed("polychess.catalogue.kind_of_family", "polychess.catalogue.kind_of")
    return kind_of(family)


# A game's names, for kind_of (made once the catalogue can answer GameKind.name).
_NAMES: tuple[str, ...] = tuple(k.name for k in KINDS)
_BY_NAME: dict[str, GameKind] = {k.name: k for k in KINDS} | {k.uci_variant: k for k in KINDS}


@cache
def _layout(kind: GameKind) -> _core.Layout:
    return _core.Layout(kind.variant, mode=kind.mode or "", setup=kind.setup or "")
