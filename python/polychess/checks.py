"""Which kings a move puts in check: PGN4's ``+``/``++``/``+++`` marks. The core scores free-for-all's
bonus for "a move that checks two kings at once" (docs/rules.md §2.4) by the same definition
(``GameState::checks_bonus`` in cpp/game_state.cpp); the recorded event logs and the PGN4 tests
hold the two to it.

A move puts a king in check when, after it, the king is attacked by an enemy piece that did not
attack it before: the moved piece, a piece it uncovered, or a pawn that became a queen. A king
that was already in check and is still attacked only by the same pieces is not put in check
again. This is how chess.com marks and scores checks.

Take :func:`king_attacks` of the position before the move, then :func:`checks_given` with the
position after it.
"""

from __future__ import annotations

from dataclasses import dataclass

from polychess.board import Board, Colour, Kind, Piece, Status

__all__ = ["KingAttacks", "checks_given", "king_attacks"]


@dataclass(frozen=True)
class KingAttacks:
    """For each king looked at, its cell and the enemy pieces (cell, piece) attacking it, in
    one position; ``attackers`` are the players whose pieces count (the active ones)."""

    kings: dict[Colour, tuple[str, frozenset[tuple[str, Piece | None]]]]
    attackers: tuple[Colour, ...]


def king_attacks(board: Board, mover: Colour, players: list[Colour] | None = None) -> KingAttacks:
    """The attacks on the kings of every active player but the mover, in the position before
    his move. ``players`` overrides whose kings are looked at (a player who is out keeps his
    king on the board as a dead piece in free-for-all, and that king is found too)."""
    active = tuple(p for p in board.colours if board.status(p) == Status.ACTIVE)
    if players is None:
        players = [p for p in active if p != mover]
    kings = {}
    for player in players:
        king = board.king(player)
        if king is None:
            king = next((cell for cell, piece in board.pieces().items() if piece == (player, Kind.KING)), None)
        if king is not None:
            kings[player] = (king, _attackers(board, king, player, active))
    return KingAttacks(kings, active)


def checks_given(before: KingAttacks, after: Board) -> dict[Colour, frozenset[Piece]]:
    """The players whose king the move put in check, in turn order, each with the pieces newly
    attacking it, whether or not the check is mate. A king the move captured is not counted."""
    checked: dict[Colour, frozenset[Piece]] = {}
    for player, (king, attackers) in before.kings.items():
        piece = after.piece_at(king)
        if piece is None or piece.kind is not Kind.KING or piece.colour != player:
            continue
        new = _attackers(after, king, player, before.attackers) - attackers
        if new:
            checked[player] = frozenset(p for _, p in new if p is not None)
    return checked


def _attackers(board: Board, king: str, player: Colour,
               active: tuple[Colour, ...]) -> frozenset[tuple[str, Piece | None]]:
    found: set[tuple[str, Piece | None]] = set()
    for other in active:
        if _enemies(board, player, other):
            found.update((cell, board.piece_at(cell)) for cell in board.attackers(king, other))
    return frozenset(found)


def _enemies(board: Board, a: Colour, b: Colour) -> bool:
    """Partners in four-player teams sit opposite each other (rules §2.3) and give no check."""
    if a == b:
        return False
    colours = board.colours
    return board.mode != "teams" or (colours.index(a) - colours.index(b)) % 2 == 1
