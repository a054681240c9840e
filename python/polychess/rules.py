"""The rules of every game, as Python values.

Each game's rules are one :class:`Rules` value: what a checkmate, a stalemate and a king capture
do, how the players are ranked, the points table, the end conditions and the draw rules. Each
game declares them in its definition in the core (``cpp/games/``: one file a game), which this
module reads (:data:`DECLARED`); the options of a game (first mate wins, two players on the
hexagon, a move limit) are changes to that value (:func:`rules_for`), handed back to the core
with the board. The core executes them (``cpp/core/game_state.h``) for :class:`~polychess.Game`,
:func:`polychess.playouts` and the search alike; nothing in the package decides what a mate or a
stalemate does. docs/rules.md says the same in words: §1.6-1.12 (three-player), §2.3 (teams),
§2.4 (free-for-all), §3 (standard).

>>> from polychess.rules import THREE_PLAYER
>>> THREE_PLAYER.stalemate, THREE_PLAYER.army
('freeze', 'passes')
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import TYPE_CHECKING, Literal, TypeVar

from polychess import _core
from polychess.deprecation import warn_renamed
from polychess.pieces import PieceType

if TYPE_CHECKING:
    from polychess.options import Options

__all__ = [
    "DECLARED",
    "FOUR_PLAYER_FFA",
    "FOUR_PLAYER_TEAMS",
    "Points",
    "Rules",
    "STANDARD",
    "THREE_PLAYER",
    "rules_for",
]

Army = Literal["passes", "dead"]
MateJudged = Literal["at turn", "after move"]
Stalemate = Literal["freeze", "out", "draw"]
Ranking = Literal["order out", "points"]
Material = Literal["never", "bare kings", "fide"]


_Key = TypeVar("_Key")


def _frozen(mapping: Mapping[_Key, int]) -> Mapping[_Key, int]:
    return MappingProxyType(dict(mapping))


@dataclass(frozen=True)
class Points:
    """A points table (four-player free-for-all, docs/rules.md §2.4)."""

    capture: Mapping[PieceType, int] = field(
        default_factory=lambda: _frozen(dict[PieceType, int]())
    )  # a live piece, by type
    mate: int = 0  # to the mater, or the king capturer
    stalemate: int = 0  # to the stalemated player himself
    draw: int = 0  # to every player still in when the game is drawn
    # A move that puts several kings in check at once, by the number of kings (2 or 3); the
    # second table where every checking piece is a queen.
    checks: Mapping[int, int] = field(default_factory=lambda: _frozen({}))
    checks_by_queens: Mapping[int, int] = field(default_factory=lambda: _frozen({}))
    lead: int | None = None  # with two players left, a lead of this many ends the game


@dataclass(frozen=True)
class Rules:
    """What happens in a game beyond which moves are legal (the board decides those)."""

    # A checkmate puts the player out. Where his army goes: "passes" (his king leaves the
    # board, the rest passes to the mater, or to nobody after a resignation, as inert pieces),
    # or "dead" (every piece, king included, stays as a dead piece).
    army: Army
    # When a mate is established: "at turn" (when the mated player's turn comes; credited to
    # the attacker who moved last) or "after move" (right after any move, for every other
    # player in turn order; credited to the mover).
    mate_judged: MateJudged
    # A player with no legal move who is not in check: "freeze" (he stays on the board, never
    # moves again, and with at most one player left to move the game is drawn), "out" (as if
    # mated, by nobody) or "draw" (the game ends drawn).
    stalemate: Stalemate
    # The first player out decides the game: the eliminator's side wins, or without an
    # eliminator (a resignation) the player's side loses.
    first_out_decides: bool = False
    # A player going out while another is frozen ends the game: the active first, the frozen
    # and the one out share the next place.
    out_after_freeze_ends: bool = False
    # "order out": players rank by when they went out, the last ones in sharing first place;
    # "points": by points, equal points sharing a place.
    ranking: Ranking = "order out"
    points: Points = field(default_factory=Points)
    move_limit: int | None = None  # plies; the game ends there, ranked as it stands
    repetitions: int | None = 3  # occurrences of one position that draw
    quiet_moves_per_player: int | None = 50  # moves without capture or pawn move, per active player
    insufficient_material: Material = "bare kings"
    neutrality: bool = False  # three-player's rule of neutrality restricts captures (the moves follow it)

    def replace(self, **changes: object) -> Rules:
        """This declaration with some rules changed (an option of the game, or a test's)."""
        return dataclasses.replace(self, **changes)  # type: ignore[arg-type]

    def to_text(self) -> str:
        """The declaration as the core reads it (``parse_rules`` in ``cpp/games/rules.h``): a
        ``name=value`` word per rule, in these names and words (``-`` for a space)."""
        points = self.points
        values = {f.name: getattr(self, f.name) for f in dataclasses.fields(self) if f.name != "points"}
        values |= {
            "points.capture": [0, *(points.capture.get(kind, 0) for kind in PieceType)],  # by kind index, 0 unused
            "points.mate": points.mate,
            "points.stalemate": points.stalemate,
            "points.draw": points.draw,
            "points.checks": [points.checks.get(2, 0), points.checks.get(3, 0)],  # two kings, three kings
            "points.checks_by_queens": [points.checks_by_queens.get(2, 0), points.checks_by_queens.get(3, 0)],
            "points.lead": points.lead,
        }
        return " ".join(f"{name}={_core_word(value)}" for name, value in values.items())

    @classmethod
    def from_text(cls, text: str) -> Rules:
        """Rules as the core writes them (``rules_text`` in ``cpp/games/rules.h``, the words of
        :meth:`to_text`): a game's declaration as its definition gives it."""
        words = dict(word.split("=", 1) for word in text.split())
        numbers = {name: [int(n) for n in value.split(",")] for name, value in words.items() if value[:1].isdigit()}
        points = Points(
            capture=_frozen(
                dict(zip(PieceType, numbers["points.capture"][1:], strict=True))
                if any(numbers["points.capture"])
                else {}
            ),
            mate=numbers["points.mate"][0],
            stalemate=numbers["points.stalemate"][0],
            draw=numbers["points.draw"][0],
            checks=_frozen({n: v for n, v in zip((2, 3), numbers["points.checks"], strict=True) if v}),
            checks_by_queens=_frozen(
                {n: v for n, v in zip((2, 3), numbers["points.checks_by_queens"], strict=True) if v}
            ),
            lead=numbers["points.lead"][0] or None,
        )
        values: dict[str, object] = {}
        for rule in dataclasses.fields(cls):
            if rule.name == "points":
                continue
            word = words[rule.name]
            if word in ("yes", "no"):
                values[rule.name] = word == "yes"
            elif rule.name in numbers:
                values[rule.name] = numbers[rule.name][0] or None  # 0: none
            else:
                values[rule.name] = word.replace("-", " ")
        return cls(points=points, **values)  # type: ignore[arg-type]

    def to_core(self) -> str:
        """Deprecated: :meth:`to_text`."""
        warn_renamed("Rules.to_core", "Rules.to_text")
        return self.to_text()

    @classmethod
    def from_core(cls, text: str) -> Rules:
        """Deprecated: :meth:`from_text`."""
        warn_renamed("Rules.from_core", "Rules.from_text")
        return cls.from_text(text)


def _core_word(value: object) -> str:
    """A rule's value as the core's text writes it: yes or no, a number (0 for none), numbers
    separated by commas, or a word."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list):
        return ",".join(map(str, value))
    return str(0 if value is None else value).replace(" ", "-")


# Each game's declaration, by variant and four-player mode (its setups share it), as the game's
# definition in the core gives it.
DECLARED: Mapping[tuple[str, str | None], Rules] = MappingProxyType(
    {(entry[0], entry[1] or None): Rules.from_text(entry[7]) for entry in _core.variants()}
)

# docs/rules.md §1.6-1.12: a mated army passes to the mater; a stalemated player is frozen, and
# a second stalemate (or one after a mate) draws; a mate after a stalemate ends the game.
THREE_PLAYER = DECLARED[("three-player", None)]
# docs/rules.md §2.3: the first mate (or king capture) wins for the mater's team; a stalemate
# draws; no draw by material.
FOUR_PLAYER_TEAMS = DECLARED[("four-player", "teams")]
# docs/rules.md §2.4: mates are judged right after every move; whoever is out leaves dead
# pieces; points rank the players.
FOUR_PLAYER_FFA = DECLARED[("four-player", "ffa")]
# docs/rules.md §3: the first mate decides; a stalemate freezes the one side left, which draws.
STANDARD = DECLARED[("standard", None)]


def rules_for(options: Options) -> Rules:
    """The rules of a game with checked options (:func:`polychess.options.validate_options`):
    its declaration with the options applied as changes."""
    rules = DECLARED[(options.variant, options.mode)]
    changes: dict[str, object] = {}
    if options.first_mate_wins or options.players == 2:  # rules §1.11
        changes["first_out_decides"] = True
    if options.neutrality:
        changes["neutrality"] = True
    if options.move_limit is not None:
        changes["move_limit"] = options.move_limit
    return rules.replace(**changes) if changes else rules
