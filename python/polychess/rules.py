"""The rules of every game, declared once.

Each game is a :class:`Rules` value: what a checkmate, a stalemate and a king capture do, how
the players are ranked, the points table, the end conditions and the draw rules. The options of
a game (first mate wins, two players on the hexagon, a move limit) are changes to that value
(:func:`rules_for`). The core executes a declaration (``cpp/core/game_state.h``) for
:class:`~polychess.Game`, :func:`polychess.playouts` and the search alike; nothing else in the
package decides what a mate or a stalemate does. docs/rules.md says the same in words: §1.6-1.12
(three-player), §2.3 (teams), §2.4 (free-for-all), §3 (standard).

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

from polychess.pieces import Kind

if TYPE_CHECKING:
    from polychess.board import Board
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
    "rules_of",
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

    capture: Mapping[Kind, int] = field(default_factory=lambda: _frozen(dict[Kind, int]()))  # a live piece, by kind
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

    def to_core(self) -> str:
        """The declaration as the core reads it (``parse_rules`` in ``cpp/core/rules.h``): a
        ``name=value`` word per rule, in these names and words (``-`` for a space)."""
        points = self.points
        values = {f.name: getattr(self, f.name) for f in dataclasses.fields(self) if f.name != "points"}
        values |= {
            "points.capture": [0, *(points.capture.get(kind, 0) for kind in Kind)],  # by kind index, 0 unused
            "points.mate": points.mate,
            "points.stalemate": points.stalemate,
            "points.draw": points.draw,
            "points.checks": [points.checks.get(2, 0), points.checks.get(3, 0)],  # two kings, three kings
            "points.checks_by_queens": [points.checks_by_queens.get(2, 0), points.checks_by_queens.get(3, 0)],
            "points.lead": points.lead,
        }
        return " ".join(f"{name}={_core_word(value)}" for name, value in values.items())


def _core_word(value: object) -> str:
    """A rule's value as the core's text writes it: yes or no, a number (0 for none), numbers
    separated by commas, or a word."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list):
        return ",".join(map(str, value))
    return str(0 if value is None else value).replace(" ", "-")


# docs/rules.md §1.6-1.12: a mated army passes to the mater; a stalemated player is frozen, and
# a second stalemate (or one after a mate) draws; a mate after a stalemate ends the game.
THREE_PLAYER = Rules(
    army="passes",
    mate_judged="at turn",
    stalemate="freeze",
    out_after_freeze_ends=True,
    insufficient_material="bare kings",
)

# docs/rules.md §2.3: the first mate (or king capture) wins for the mater's team; a stalemate
# draws; no draw by material.
FOUR_PLAYER_TEAMS = Rules(
    army="passes", mate_judged="at turn", stalemate="draw", first_out_decides=True, insufficient_material="never"
)

# docs/rules.md §2.4: mates are judged right after every move; whoever is out leaves dead
# pieces; points rank the players.
FOUR_PLAYER_FFA = Rules(
    army="dead",
    mate_judged="after move",
    stalemate="out",
    ranking="points",
    points=Points(
        capture=_frozen(
            {
                Kind.PAWN: 1,
                Kind.KNIGHT: 3,
                Kind.BISHOP: 5,
                Kind.ROOK: 5,
                Kind.QUEEN: 9,
                Kind.ONE_POINT_QUEEN: 1,
                Kind.KING: 0,
            }
        ),
        mate=20,
        stalemate=20,
        draw=10,
        checks=_frozen({2: 5, 3: 20}),
        checks_by_queens=_frozen({2: 1, 3: 5}),
        lead=21,
    ),
    insufficient_material="never",
)

# docs/rules.md §3: the first mate decides; a stalemate freezes the one side left, which draws.
STANDARD = Rules(
    army="passes", mate_judged="at turn", stalemate="freeze", first_out_decides=True, insufficient_material="fide"
)


# Each game's declaration, by variant and four-player mode.
DECLARED: Mapping[tuple[str, str | None], Rules] = MappingProxyType(
    {
        ("three-player", None): THREE_PLAYER,
        ("four-player", "teams"): FOUR_PLAYER_TEAMS,
        ("four-player", "ffa"): FOUR_PLAYER_FFA,
        ("standard", None): STANDARD,
    }
)


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


def rules_of(board: Board) -> Rules:
    """The rules a board's position is played by (``board.rules``): its game's declaration,
    with the neutrality the board was made with, or a game's options applied on a game's board."""
    return board.rules
