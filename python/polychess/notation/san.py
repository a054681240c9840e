"""Standard Algebraic Notation, the move notation of standard chess's records (PGN): writing a
legal move (``Nf3``, ``exd6``, ``O-O``, ``e8=Q#``) and reading one back, also loosely written
(over-specified, long algebraic, coordinates). :mod:`polychess.formats.pgn` writes and reads
whole games with it; ``Board.san`` and ``Board.parse_san`` reach it through
:mod:`polychess.notation`."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from polychess._core import Move
from polychess.errors import AmbiguousMoveError, IllegalMoveError, InvalidMoveError
from polychess.pieces import Piece, PieceType

if TYPE_CHECKING:  # a board is passed in; the board module writes its moves here
    from polychess.board import Board

__all__ = ["check_mark", "parse_san", "san", "san_body"]

# SAN's piece letters: none for a pawn.
_LETTERS: dict[PieceType, str] = {kind: "" if kind == PieceType.PAWN else kind.letter for kind in PieceType}
_KINDS: dict[str, PieceType] = {letter: kind for kind, letter in _LETTERS.items() if letter}
_ANNOTATION = re.compile(r"[!?]+$")
_CASTLE = re.compile(r"^[O0o]-[O0o](-[O0o])?$")
# A move in any algebraic form: SAN (also over-specified), long algebraic (Ng1-f3) or coordinates (g1f3).
_LOOSE = re.compile(
    r"^(?P<piece>[KQRBN])?(?P<file>[a-h])?(?P<rank>[1-8])?(?P<capture>[-x:])?(?P<to>[a-h][1-8])"
    r"(?:=?(?P<promotion>[QRBNqrbn]))?$"
)


def san_body(pieces: Mapping[str, Piece], move: Move, legal: Sequence[Move]) -> str:
    """The SAN of a legal move without the check mark. ``pieces`` are the board's pieces by cell
    and ``legal`` its legal moves (for the disambiguation, which only counts legal moves)."""
    origin, target = move.from_cell, move.to_cell
    piece = pieces[origin]
    if piece.piece_type is PieceType.KING and abs(ord(origin[0]) - ord(target[0])) == 2:
        return "O-O" if target[0] > origin[0] else "O-O-O"
    capture = target in pieces or (piece.piece_type is PieceType.PAWN and origin[0] != target[0])  # or en passant
    if piece.piece_type is PieceType.PAWN:
        text = (origin[0] + "x" if capture else "") + target
        return text + ("=" + move.promotion.upper() if move.promotion else "")
    others = {
        m.from_cell for m in legal if m.to_cell == target and m.from_cell != origin and pieces[m.from_cell] == piece
    }
    text = _LETTERS[piece.piece_type]
    if others:
        # PGN §8.2.3.4: the file if it tells the pieces apart, else the rank, else both.
        if all(cell[0] != origin[0] for cell in others):
            text += origin[0]
        elif all(cell[1:] != origin[1:] for cell in others):
            text += origin[1:]
        else:
            text += origin
    return text + ("x" if capture else "") + target


def check_mark(after: Board) -> str:
    """The check mark of the move that led to ``after``: '#' for mate, '+' for check."""
    if not after.is_check():
        return ""
    return "+" if after.legal_moves else "#"


def san(board: Board, move: Move) -> str:
    """The move in Standard Algebraic Notation on a standard-chess board: ``Nf3``, ``exd6``,
    ``Rad1``, ``N5xe4``, ``Qh4xe1``, ``e8=Q+``, ``O-O-O``, ``Qxf7#``. The board is not changed.
    Raises ``ValueError`` for another variant and :class:`~polychess.IllegalMoveError` for a
    move that is not legal on the board."""
    if board.kind.record_format.name != "pgn":
        raise ValueError(f"SAN is for standard chess, not {board.variant}")
    legal = list(board.legal_moves)
    if move not in legal:
        raise IllegalMoveError(f"illegal move {str(move)!r} ({board.turn.value} to move)")
    text = san_body(board.pieces(), move, legal)
    after = board.copy()
    after.push(move)
    return text + check_mark(after)


def _plain(word: str) -> str:
    """The move of a movetext word without annotations, check marks and 'e.p.'; castling with 'O'."""
    text = word
    while True:
        stripped = _ANNOTATION.sub("", text).rstrip("+#")
        stripped = stripped.removesuffix("e.p.")
        if stripped == text:
            break
        text = stripped
    if _CASTLE.match(text):
        text = "O-O-O" if text.count("-") == 2 else "O-O"
    return text


def parse_san(board: Board, word: str) -> Move:
    """The legal move of a standard-chess board that a move written in SAN stands for: the one
    whose SAN it is, else the only one that fits a looser reading of it (over-specified SAN,
    long algebraic, coordinates); annotations, check marks and ``e.p.`` are skipped.

    Raises :class:`~polychess.InvalidMoveError` for text that is no move,
    :class:`~polychess.AmbiguousMoveError` for one that fits several legal moves and
    :class:`~polychess.IllegalMoveError` for one that fits none.
    """
    if board.kind.record_format.name != "pgn":
        raise ValueError(f"SAN is for standard chess, not {board.variant}")
    text = _plain(word)
    legal = list(board.legal_moves)
    pieces = board.pieces()
    by_san = {san_body(pieces, move, legal): move for move in legal}
    if text in by_san:
        return by_san[text]
    turn = board.turn.value
    if text in ("O-O", "O-O-O"):
        raise IllegalMoveError(f"illegal move {word!r} ({turn} to move: that castling is not allowed here)")
    loose = _LOOSE.match(text)
    if not loose:
        raise InvalidMoveError(f"unknown move text {word!r} (expected SAN such as e4, Nf3, exd5, O-O, e8=Q)")
    letter, file, rank, to = loose.group("piece"), loose.group("file"), loose.group("rank"), loose.group("to")
    promotion = (loose.group("promotion") or "").upper()
    kind = _KINDS[letter] if letter else (None if file and rank else PieceType.PAWN)  # None: coordinates, any piece
    marked_capture = loose.group("capture") in ("x", ":")

    def fits(move: Move, promoting: bool = True) -> bool:
        origin, piece = move.from_cell, pieces[move.from_cell]
        if move.to_cell != to or (kind is not None and piece.piece_type is not kind):
            return False
        if (file and origin[0] != file) or (rank and origin[1:] != rank):
            return False
        if piece.piece_type is PieceType.PAWN and not file and origin[0] != to[0]:
            return False  # a pawn's capture names its file
        capture = to in pieces or (piece.piece_type is PieceType.PAWN and origin[0] != to[0])
        if marked_capture and not capture:
            return False
        return not promoting or (move.promotion or "").upper() == promotion

    found = [move for move in legal if fits(move)]
    if len(found) == 1:
        return found[0]
    if found:
        names = ", ".join(sorted(san_body(pieces, move, legal) for move in found))
        raise AmbiguousMoveError(f"ambiguous SAN {word!r} ({turn} to move: {names})")
    if not promotion and any(fits(move, promoting=False) for move in legal):
        raise IllegalMoveError(
            f"illegal move {word!r} ({turn} to move: a pawn reaching the last rank promotes, e.g. {text}=Q)"
        )
    raise IllegalMoveError(f"illegal move {word!r} ({turn} to move)")
