"""chess.com's long algebraic notation, the move notation of four-player chess's records (PGN4):
``h2-h3``, ``Qg1xQn8+``, ``e10-e11=D``, ``O-O``, with one ``+`` per king a move checks and one
``#`` per player it puts out. Writing a legal move, reading one back with its letters checked
against the board, and the marks a record writes in a player's slot. :mod:`polychess.formats.pgn4`
writes and reads whole games with it; ``Board.san`` and ``Board.parse_san`` reach it through
:mod:`polychess.notation`."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from polychess._core import Move, Status
from polychess.errors import IllegalMoveError, InvalidMoveError
from polychess.outcome import Elimination, Reason, eliminations_by_move
from polychess.pieces import Piece, PieceType

if TYPE_CHECKING:  # a board is passed in; the board module writes its moves here
    from polychess.board import Board
    from polychess.rules import Rules

__all__ = [
    "CASTLE",
    "DKW_HINT",
    "LETTERS",
    "MOVE",
    "WrittenMove",
    "long_algebraic",
    "move_text",
    "parse_long_algebraic",
    "read_move",
    "slot_mark",
]

SQUARE = r"[a-n](?:1[0-4]|[1-9])"
MOVE = re.compile(
    rf"^(?P<piece>[KQRBND])?(?P<from>{SQUARE})(?P<sep>[-x])(?P<captured>[KQRBND])?(?P<to>{SQUARE})"
    rf"(?:=(?P<promotion>[QRBND]))?(?P<marks>[+#]*)(?P<leave>[RTS]?)$"
)
CASTLE = re.compile(r"^(?P<castle>[O0]-[O0](?:-[O0])?)(?P<marks>[+#]*)(?P<leave>[RTS]?)$")
# PGN4's piece letters: none for a pawn, and a one-point queen is written as a queen.
LETTERS: dict[PieceType, str] = {kind: "" if kind == PieceType.PAWN else kind.letter for kind in PieceType}
LETTERS[PieceType.ONE_POINT_QUEEN] = "Q"
DKW_HINT = (
    " (chess.com's DeadKingWalking rule lets the king of a player who resigned or lost on time walk on; "
    "polychess does not play that rule)"
)


def slot_mark(elimination: Elimination, rules: Rules, after_move: bool) -> str | None:
    """How a record shows an elimination that a move or event entailed: None for a mark on the
    move itself ('#'), else the token written in the player's own slot ('#' or 'S'). A mate
    judged right after the move (free-for-all) is marked on the move; one judged when the mated
    player's turn comes (teams), in his slot."""
    if elimination.reason is Reason.KING_CAPTURE:
        return None
    if elimination.reason is Reason.CHECKMATE:
        return None if (rules.mate_judged == "after move" and after_move) else "#"
    if elimination.reason is Reason.STALEMATE:
        return "S"
    return None  # resignations and time forfeits are their own tokens


def _castling_side(board: Board, move: Move) -> int | None:
    piece = board.piece_at(move.from_cell)
    if piece is None or piece.piece_type is not PieceType.KING:
        return None
    layout = board.layout
    index = board.colours.index(piece.colour)
    for side in (0, 1):
        king_from, king_to, _, _ = layout.castling(index, side)
        if layout.names[king_from] == move.from_cell and layout.names[king_to] == move.to_cell:
            return side
    return None


def _piece_name(piece: Piece) -> str:
    kind = "one-point queen" if piece.piece_type is PieceType.ONE_POINT_QUEEN else piece.piece_type.name.lower()
    return f"{piece.colour.value} {kind}"


@dataclass(frozen=True)
class WrittenMove:
    """A move as a record writes it: the legal move, its marks ('+' and '#'), the leave letter
    written after it ('R', 'T', 'S' or ''), and whether it was written as castling."""

    move: Move
    marks: str
    leave: str
    castle: bool


def read_move(board: Board, word: str) -> WrittenMove:
    """The legal move a move in chess.com's long notation stands for, its letters checked against
    the board (the moving piece, the captured one, '-' or 'x'); the marks are not checked here.
    Raises InvalidMoveError for a word in no such notation, IllegalMoveError for one that names
    no legal move or names the pieces wrongly."""
    mover = board.turn
    castle, match = CASTLE.match(word), MOVE.match(word)
    if castle:
        side = 1 if castle.group("castle").count("-") == 2 else 0
        king_from, king_to, _, _ = board.layout.castling(board.colours.index(mover), side)
        text = board.layout.names[king_from] + board.layout.names[king_to]
        marks, leave = castle.group("marks"), castle.group("leave")
    elif match:
        promotion = match.group("promotion")
        text = match.group("from") + match.group("to") + ({"D": "q"}.get(promotion, promotion or "").lower())
        marks, leave = match.group("marks"), match.group("leave")
    else:
        raise InvalidMoveError(f"{word!r} is not a move in chess.com's notation (e.g. h2-h3, Qg1xQn8+, e10-e11=Q, O-O)")
    try:
        move = board.parse_move(text)
    except ValueError as error:
        raise IllegalMoveError(f"{word!r}: {error}{_hint(board, text[:3])}") from None
    if castle and _castling_side(board, move) is None:
        raise IllegalMoveError(f"{word!r}: {mover.value} cannot castle here")
    if match:
        _check_letters(board, move, word, match)
    return WrittenMove(move, marks, leave, castle is not None)


def _hint(board: Board, text: str) -> str:
    cell = re.match(SQUARE, text)
    # A name of the 14 x 14 square may be a cut-off corner, which has no cell.
    piece = board.piece_at(cell.group(0)) if cell and cell.group(0) in board.layout.names else None
    if piece is not None and piece.piece_type is PieceType.KING and board.status(piece.colour) == Status.OUT:
        return DKW_HINT
    return ""


def _check_letters(board: Board, move: Move, word: str, match: re.Match[str]) -> None:
    piece = board.piece_at(move.from_cell)
    assert piece is not None
    letter = match.group("piece") or ""
    if piece.piece_type is PieceType.ONE_POINT_QUEEN and letter == "D":
        letter = "Q"
    if letter != LETTERS[piece.piece_type]:
        raise IllegalMoveError(
            f"{word!r}: the piece on {move.from_cell} is a {_piece_name(piece)}, "
            f"written {LETTERS[piece.piece_type] or 'without a letter'}"
        )
    target = board.piece_at(move.to_cell)
    captures = board.is_capture(move)
    if match.group("sep") == "-" and captures:
        taken = target if target is not None else Piece(piece.colour, PieceType.PAWN)
        raise IllegalMoveError(
            f"{word!r} is written as a quiet move ('-') but captures "
            f"{'a ' + _piece_name(taken) if target is not None else 'en passant'}"
        )
    if match.group("sep") == "x":
        if not captures:
            raise IllegalMoveError(f"{word!r} is written as a capture ('x') but captures nothing")
        letter = match.group("captured") or ""
        expected = LETTERS[target.piece_type] if target is not None else ""
        if target is not None and target.piece_type is PieceType.ONE_POINT_QUEEN and letter == "D":
            letter = "Q"
        if letter != expected:
            what = "a " + _piece_name(target) if target is not None else "a pawn (en passant)"
            raise IllegalMoveError(
                f"{word!r}: the captured piece is {what}, written {expected or 'without a letter'} after 'x'"
            )


def parse_long_algebraic(board: Board, word: str) -> Move:
    """The legal move of a four-player board that a move in chess.com's long algebraic notation
    stands for (``h2-h3``, ``Qg1xQn8+``, ``e10-e11=D``, ``O-O``), its letters checked against the
    board; check and mate marks may be left out (they are not checked). The move text of
    docs/rules.md §4 (``h2h3``) is read too. Raises InvalidMoveError or IllegalMoveError."""
    if not CASTLE.match(word) and not MOVE.match(word):
        try:
            return board.parse_move(word)
        except InvalidMoveError:
            raise InvalidMoveError(
                f"{word!r} is not a move in chess.com's notation (e.g. h2-h3, Qg1xQn8+, "
                f"e10-e11=Q, O-O) nor move text (e.g. h2h3)"
            ) from None
    return read_move(board, word).move


def move_text(before: Board, move: Move) -> tuple[str, bool]:
    """The move in chess.com's long notation without marks, and whether it is castling. A pawn
    promoted to a one-point queen (free-for-all) is written ``=D``."""
    side = _castling_side(before, move)
    if side is not None:
        return ("O-O" if side == 0 else "O-O-O"), True
    piece = before.piece_at(move.from_cell)
    assert piece is not None
    target = before.piece_at(move.to_cell)
    text = LETTERS[piece.piece_type] + move.from_cell
    if before.is_capture(move):
        text += "x" + (LETTERS[target.piece_type] if target is not None else "")
    else:
        text += "-"
    text += move.to_cell
    if move.promotion is not None:
        after = before.copy()
        after.push(move)
        promoted = after.piece_at(move.to_cell)
        one_point = promoted is not None and promoted.piece_type is PieceType.ONE_POINT_QUEEN
        text += "=" + ("D" if one_point else move.promotion.upper())
    return text, False


def long_algebraic(board: Board, move: Move) -> str:
    """A legal move of a four-player board in chess.com's long algebraic notation with the marks
    PGN4 writes on it: one '+' per king it puts in check (none on castling, as chess.com writes
    it) and one '#' per player it puts out on the move as the game's rules judge it (a king
    capture; in free-for-all also a mate, which teams records mark in the mated player's slot)."""
    text, castle = move_text(board, move)
    checks = "" if castle else "+" * len(board.checks(move))
    mates = [
        e
        for e in eliminations_by_move(board, move)
        if slot_mark(e, board.rules, after_move=True) is None and e.reason in (Reason.CHECKMATE, Reason.KING_CAPTURE)
    ]
    return text + checks + "#" * len(mates)
