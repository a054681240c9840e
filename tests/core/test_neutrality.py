"""The rule of neutrality (docs/rules.md §1.11) inside the move generator: on random positions the
legal moves are exactly those without the option minus the captures the rule forbids, worked
out here from the rule's own words and the position's last-capture field."""

import random

import pytest

from polychess import Board

LETTERS = "wrb"


def forbidden_players(fen: str) -> set[str]:
    """Players whose pieces the player to move may not capture."""
    fields = fen.split()
    mover, statuses, last = fields[1], fields[7], fields[8]
    forbidden = set()
    for x in LETTERS:
        if x == mover:
            continue
        third = next(p for p in LETTERS if p not in (mover, x))
        # "only if X captured a piece of his on X's previous turn, or the third player did not
        # capture a piece of X on his previous turn"
        allowed = last[LETTERS.index(x)] == mover or not (
            statuses[LETTERS.index(third)] == "a" and last[LETTERS.index(third)] == x
        )
        if not allowed:
            forbidden.add(x)
    return forbidden


def victim_of(board: Board, move) -> str | None:
    """The player whose piece the move captures (en passant included), or None."""
    piece = board.piece_at(move.to_cell)
    if piece is None:  # en passant removes a pawn from another cell
        after = board.copy()
        after.push(move)
        gone = set(board.pieces()) - set(after.pieces()) - {move.from_cell}
        if not gone:
            return None
        piece = board.piece_at(gone.pop())
    controller = board.controller(piece.colour)
    return None if controller is None else controller.value[0]


@pytest.mark.parametrize("seed", range(10))
def test_generator_applies_the_rule(seed):
    rng = random.Random(seed)
    board = Board("three-player", neutrality=True)
    restricted = 0
    for _ in range(160):
        fen = board.fen()
        plain = Board("three-player", " ".join(fen.split()[:8]))
        forbidden = forbidden_players(fen)
        expected = {str(m) for m in plain.legal_moves if victim_of(plain, m) not in forbidden}
        got = {str(m) for m in board.legal_moves}
        assert got == expected, fen
        restricted += len(expected) < len(plain.legal_moves)
        moves = list(board.legal_moves)
        if not moves:
            break
        captures = [m for m in moves if board.piece_at(m.to_cell) is not None]
        board.push(rng.choice(captures if captures and rng.random() < 0.5 else moves))
        assert board.zobrist_key == board._core.compute_key()
    assert restricted > 0


def test_last_capture_field():
    board = Board("three-player", neutrality=True)
    for move in ["E2E4", "K11K9", "F7F5", "E4F5"]:  # White takes a Black pawn
        board.push(move)
    assert board.fen().split()[8] == "b--"  # White's last move took a Black piece
    again = Board("three-player", board.fen(), neutrality=True)
    assert again.fen() == board.fen() and again.zobrist_key == board.zobrist_key
    with pytest.raises(ValueError, match="last-capture"):
        Board("three-player", board.fen().replace(" b--", " w--"), neutrality=True)
    with pytest.raises(ValueError, match="fields"):
        Board("three-player", board.fen())  # the ninth field needs the option


def test_option_is_three_player_only():
    with pytest.raises(ValueError, match="neutrality"):
        Board("standard", neutrality=True)
