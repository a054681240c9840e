"""chess.com's FEN4: a four-player position in one line (docs/fen4-pgn4.md).

``read_fen4(text)`` gives a :class:`Fen4` (the :class:`~polychess.Board` and what FEN4 says
beside it: points, dead players, castling flags, ply clock, en passant, other extras);
``write_fen4(board, points)`` writes a board the way chess.com does::

    R-0,0,0,0-1,1,1,1-1,1,1,1-0,0,0,0-0-x,x,x,yR,yN,yB,yK,yQ,yB,yN,yR,x,x,x/...

Malformed text raises :class:`Fen4Error`, whose message names the field and the problem.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

from polychess.board import Board, Colour, PieceType, Status
from polychess.catalogue import KINDS

__all__ = ["START_FEN4", "Fen4", "Fen4Error", "read_fen4", "write_fen4"]

COLOURS: tuple[Colour, ...] = (Colour.RED, Colour.BLUE, Colour.YELLOW, Colour.GREEN)
_FILES = "abcdefghijklmn"
_KIND_LETTERS: dict[PieceType, str] = {kind: kind.letter for kind in PieceType}
_LETTER_KINDS = {letter: kind for kind, letter in _KIND_LETTERS.items()}
_COLOUR_LETTERS = {colour: colour.value[0] for colour in COLOURS}  # r b y g
_LETTER_COLOURS = {letter: colour for colour, letter in _COLOUR_LETTERS.items()}
# One step forward for each colour's pawns, as (files, ranks).
_FORWARD: dict[Colour, tuple[int, int]] = {
    Colour.RED: (0, 1),
    Colour.BLUE: (1, 0),
    Colour.YELLOW: (0, -1),
    Colour.GREEN: (-1, 0),
}
# Extras that describe the game rather than the rules; read, kept, never written.
_INFORMATIONAL_EXTRAS = ("resigned", "flagged", "stalemated", "uniquify", "gameOver", "zombieImmune")

#: The chess.com start position (modern setup), as chess.com writes it.
START_FEN4 = (
    "R-0,0,0,0-1,1,1,1-1,1,1,1-0,0,0,0-0-"
    "x,x,x,yR,yN,yB,yK,yQ,yB,yN,yR,x,x,x/x,x,x,yP,yP,yP,yP,yP,yP,yP,yP,x,x,x/x,x,x,8,x,x,x/"
    "bR,bP,10,gP,gR/bN,bP,10,gP,gN/bB,bP,10,gP,gB/bQ,bP,10,gP,gK/bK,bP,10,gP,gQ/"
    "bB,bP,10,gP,gB/bN,bP,10,gP,gN/bR,bP,10,gP,gR/x,x,x,8,x,x,x/"
    "x,x,x,rP,rP,rP,rP,rP,rP,rP,rP,x,x,x/x,x,x,rR,rN,rB,rQ,rK,rB,rN,rR,x,x,x"
)


class Fen4Error(ValueError):
    """A FEN4 that cannot be read; the message names the field and the problem."""

    def __init__(self, field: str, problem: str) -> None:
        super().__init__(f"FEN4 {field}: {problem}")
        self.field = field
        self.problem = problem


@dataclass(frozen=True)
class Fen4:
    """A FEN4 as read: the board (with dead players' pieces dead and the rights FEN4 gives)
    and the other things FEN4 says, by colour in the order Red, Blue, Yellow, Green."""

    board: Board
    turn: Colour
    dead: dict[Colour, bool]
    castling: dict[Colour, tuple[bool, bool]]  # (king-side, queen-side) flags as written
    points: dict[Colour, int]
    halfmove: int  # plies since the last capture or pawn move
    en_passant: dict[Colour, tuple[str, str]]  # double-stepper's colour: (skipped square, pawn square)
    extras: dict[str, str]  # other extras, by name, each value as written (informational only)
    mode: str
    setup: str


def _exists(file: int, rank: int) -> bool:
    """Whether the square (file 0-13, rank 1-14) is on the cross board."""
    return not ((file < 3 or file > 10) and (rank < 4 or rank > 11))


def _square(file: int, rank: int) -> str:
    return f"{_FILES[file]}{rank}"


def _coords(name: str) -> tuple[int, int] | None:
    match = re.fullmatch(r"([a-n])(1[0-4]|[1-9])", name)
    if not match:
        return None
    file, rank = _FILES.index(match.group(1)), int(match.group(2))
    return (file, rank) if _exists(file, rank) else None


def _strip_spaces(text: str) -> str:
    """Removes whitespace outside quoted strings (chess.com and others break FEN4 over lines)."""
    out: list[str] = []
    quoted = False
    for char in text:
        if char == "'":
            quoted = not quoted
        if quoted or not char.isspace():
            out.append(char)
    return "".join(out)


# -- the {...} extras: a small value language of strings, numbers, booleans and tuples -------

_Value = str | int | float | bool | tuple["_Value", ...]


class _ExtrasParser:
    def __init__(self, text: str) -> None:
        self.text = text
        self.pos = 0

    def fail(self, problem: str) -> Fen4Error:
        return Fen4Error("extras", f"{problem} at character {self.pos + 1} of {self.text!r}")

    def peek(self) -> str:
        return self.text[self.pos] if self.pos < len(self.text) else ""

    def expect(self, char: str) -> None:
        if self.peek() != char:
            raise self.fail(f"expected {char!r}")
        self.pos += 1

    def string(self) -> str:
        self.expect("'")
        end = self.text.find("'", self.pos)
        if end < 0:
            raise self.fail("unterminated string")
        value = self.text[self.pos : end]
        self.pos = end + 1
        return value

    def value(self) -> _Value:
        char = self.peek()
        if char == "'":
            return self.string()
        if char == "(":
            self.pos += 1
            items: list[_Value] = []
            while self.peek() != ")":
                items.append(self.value())
                if self.peek() == ",":
                    self.pos += 1
                elif self.peek() != ")":
                    raise self.fail("expected ',' or ')'")
            self.pos += 1
            return tuple(items)
        match = re.compile(r"true|false|-?[0-9]+(?:\.[0-9]+)?").match(self.text, self.pos)
        if not match:
            raise self.fail("expected a string, number, true, false or (...)")
        self.pos = match.end()
        word = match.group(0)
        if word in ("true", "false"):
            return word == "true"
        return float(word) if "." in word else int(word)

    def parse(self) -> dict[str, tuple[_Value, str]]:
        """{'name':value,...} -> {name: (value, raw text of the value)}."""
        self.expect("{")
        entries: dict[str, tuple[_Value, str]] = {}
        while self.peek() != "}":
            name = self.string()
            self.expect(":")
            start = self.pos
            value = self.value()
            if name in entries:
                raise self.fail(f"{name!r} given twice")
            entries[name] = (value, self.text[start : self.pos])
            if self.peek() == ",":
                self.pos += 1
            elif self.peek() != "}":
                raise self.fail("expected ',' or '}'")
        self.pos += 1
        if self.pos != len(self.text):
            raise self.fail("text after the closing '}'")
        return entries


def _four(field: str, text: str) -> list[str]:
    parts = text.split(",")
    if len(parts) != 4:
        raise Fen4Error(field, f"{text!r} has {len(parts)} values; expected 4 (Red, Blue, Yellow, Green)")
    return parts


def _flags(field: str, text: str) -> list[bool]:
    parts = _four(field, text)
    for part in parts:
        if part not in ("0", "1"):
            raise Fen4Error(field, f"{part!r} in {text!r} is not 0 or 1")
    return [part == "1" for part in parts]


def _split_fields(text: str) -> tuple[list[str], str | None, str]:
    """The six leading fields, the extras block (or None) and the board."""
    names = ("side to move", "dead flags", "king-side castling", "queen-side castling", "points", "ply clock", "board")
    fields: list[str] = []
    rest = text
    for following in names[1:]:  # without the '-' that ends a field, the field after it is missing
        cut = rest.find("-")
        if cut < 0:
            raise Fen4Error(
                following, f"missing (a FEN4 is side-dead-castling-castling-points-plies-[extras-]board; got {text!r})"
            )
        fields.append(rest[:cut])
        rest = rest[cut + 1 :]
    extras = None
    if rest.startswith("{"):
        depth, quoted, end = 0, False, -1
        for i, char in enumerate(rest):
            if char == "'":
                quoted = not quoted
            elif not quoted and char == "{":
                depth += 1
            elif not quoted and char == "}":
                depth -= 1
                if depth == 0:
                    end = i
                    break
        if end < 0:
            raise Fen4Error("extras", "'{' is never closed")
        extras = rest[: end + 1]
        rest = rest[end + 1 :]
        if not rest.startswith("-"):
            raise Fen4Error("extras", "expected '-' and the board after the closing '}'")
        rest = rest[1:]
    return fields, extras, rest


def _parse_board(text: str) -> dict[tuple[int, int], tuple[Colour | None, PieceType, str]]:
    """Squares -> (colour or None for a dead piece of unknown colour, kind, token)."""
    ranks = text.split("/")
    if len(ranks) != 14:
        raise Fen4Error("board", f"{len(ranks)} ranks separated by '/'; expected 14 (rank 14 down to rank 1)")
    pieces: dict[tuple[int, int], tuple[Colour | None, PieceType, str]] = {}
    for row, rank_text in enumerate(ranks):
        rank = 14 - row
        file = 0
        if not rank_text:
            raise Fen4Error("board", f"rank {rank} is empty (write 14, or x,x,x,8,x,x,x)")
        for token in rank_text.split(","):
            if file >= 14:
                raise Fen4Error("board", f"rank {rank} has more than 14 cells")
            if token.isdigit():
                run = int(token)
                if run < 1:
                    raise Fen4Error("board", f"rank {rank}: empty run {token!r} must be at least 1")
                file += run  # digits may count corner cells too (older chess.com writing)
                continue
            if token in ("x", "X"):
                if _exists(file, rank):
                    raise Fen4Error(
                        "board",
                        f"rank {rank}: {token!r} stands on {_square(file, rank)}, "
                        f"which is a square of the board, not a corner",
                    )
                file += 1
                continue
            match = re.fullmatch(r"(d?)([rbyg]?)([A-Za-z])", token)
            if not match or (not match.group(1) and not match.group(2)):
                raise Fen4Error(
                    "board",
                    f"rank {rank}: unknown cell {token!r} (a piece is a colour r, b, y, g "
                    f"or d (dead) and a kind P N B R Q K D; empty cells are digits or x)",
                )
            kind = _LETTER_KINDS.get(match.group(3))
            if kind is None:
                raise Fen4Error(
                    "board", f"rank {rank}: {token!r} is a piece polychess does not know (kinds are P N B R Q K D)"
                )
            if not _exists(file, rank):
                raise Fen4Error(
                    "board", f"rank {rank}: {token!r} stands on the missing corner cell {_FILES[file]}{rank}"
                )
            colour = _LETTER_COLOURS[match.group(2)] if match.group(2) else None  # None: dead, unknown
            pieces[(file, rank)] = (colour, kind, token)
            file += 1
        if file != 14:
            raise Fen4Error("board", f"rank {rank} has {file} cells; expected 14 (corners count as cells)")
    return pieces


def _infer_setup(
    pieces: Mapping[tuple[int, int], tuple[Colour | None, PieceType, str]], castling: Mapping[Colour, tuple[bool, bool]]
) -> str:
    """Modern or classic from where Blue's and Green's kings stand (modern a7 / n8, classic
    a8 / n7). A king whose player keeps a castling right must be at home, so its square
    decides first; otherwise any of the two kings on one of those squares; modern when they
    tell nothing or disagree."""
    strong: set[str] = set()
    weak: set[str] = set()
    for colour, file in ((Colour.BLUE, 0), (Colour.GREEN, 13)):
        for rank, setup in (
            (7, "modern" if colour is Colour.BLUE else "classic"),
            (8, "classic" if colour is Colour.BLUE else "modern"),
        ):
            piece = pieces.get((file, rank))
            if piece is not None and piece[1] is PieceType.KING and piece[0] in (colour, None):
                (strong if any(castling[colour]) else weak).add(setup)
    votes = strong or weak
    return "classic" if votes == {"classic"} else "modern"


def read_fen4(text: str, mode: str = "teams", setup: str | None = None) -> Fen4:
    """Reads a chess.com FEN4 into a board of the given mode ("teams" or "ffa").

    ``setup`` ("modern" or "classic", which decides castling) is inferred from the kings when
    not given. Corner cells may be written as ``x`` or counted in the digits of empty runs. A
    dead player's pieces are dead on the board (``dP`` or ``drP``). Castling flags whose king
    or rook is not at home, or whose player is dead, are dropped (such a right can never be
    used). Raises :class:`Fen4Error` for malformed text or an impossible position.
    """
    modes = tuple(dict.fromkeys(k.mode for k in KINDS if k.record_format.name == "pgn4"))  # teams, ffa
    if mode not in modes:
        raise ValueError(f"mode must be {' or '.join(map(repr, modes))}, not {mode!r}")
    if setup not in (None, "modern", "classic"):
        raise ValueError(f"setup must be 'modern' or 'classic', not {setup!r}")
    compact = _strip_spaces(text)
    if not compact:
        raise Fen4Error("text", "empty")
    fields, extras_text, board_text = _split_fields(compact)
    turn_text, dead_text, king_text, queen_text, points_text, ply_text = fields

    if turn_text.upper() not in ("R", "B", "Y", "G"):
        raise Fen4Error("side to move", f"{turn_text!r} is not R, B, Y or G")
    turn = COLOURS["RBYG".index(turn_text.upper())]
    dead = dict(zip(COLOURS, _flags("dead flags", dead_text), strict=True))
    king_side = _flags("king-side castling", king_text)
    queen_side = _flags("queen-side castling", queen_text)
    castling = {c: (king_side[i], queen_side[i]) for i, c in enumerate(COLOURS)}
    points: dict[Colour, int] = {}
    for colour, part in zip(COLOURS, _four("points", points_text), strict=True):
        if not part.isdigit():
            raise Fen4Error("points", f"{part!r} in {points_text!r} is not a whole number")
        points[colour] = int(part)
    if not ply_text.isdigit():
        raise Fen4Error("ply clock", f"{ply_text!r} is not a whole number of plies")
    halfmove = int(ply_text)
    if dead[turn]:
        raise Fen4Error("side to move", f"{turn.value} is to move but is dead")

    pieces = _parse_board(board_text)

    # Dead pieces: a piece of a dead colour is dead however it is written; "dP" without a
    # colour goes to the first dead player (in turn order).
    dead_players = [c for c in COLOURS if dead[c]]
    placed: dict[tuple[int, int], tuple[Colour, PieceType]] = {}
    for square, (written, kind, token) in pieces.items():
        if token.startswith("d"):
            if written is None:
                if not dead_players:
                    raise Fen4Error("board", f"dead piece {token!r} on {_square(*square)} but no player is dead")
                written = dead_players[0]
            elif not dead[written]:
                raise Fen4Error(
                    "board",
                    f"dead piece {token!r} on {_square(*square)} but {written.value} "
                    f"is not dead (dead flags {dead_text})",
                )
        assert written is not None
        placed[square] = (written, kind)

    setup = setup or _infer_setup(pieces, castling)

    en_passant: dict[Colour, tuple[str, str]] = {}
    other_extras: dict[str, str] = {}
    if extras_text is not None:
        for name, (value, raw) in _ExtrasParser(extras_text).parse().items():
            if name == "enPassant":
                en_passant = _read_en_passant(value, placed)
            elif name in ("pawnBaseRank", "pawnsBaseRank"):
                if value != 2:
                    raise Fen4Error(
                        "extras",
                        f"'{name}':{raw} is a rule variant polychess does not play "
                        f"(pawns double-step from their second rank)",
                    )
                other_extras[name] = raw
            elif name in ("royal", "kingSquares"):
                _check_royal(name, value, placed)
                other_extras[name] = raw
            elif name in _INFORMATIONAL_EXTRAS:
                other_extras[name] = raw
            else:
                raise Fen4Error("extras", f"'{name}' is a rule-variant setting polychess does not play")

    board = _make_board(placed, turn, dead, castling, en_passant, halfmove, mode, setup)
    return Fen4(
        board=board,
        turn=turn,
        dead=dead,
        castling=castling,
        points=points,
        halfmove=halfmove,
        en_passant=en_passant,
        extras=other_extras,
        mode=mode,
        setup=setup,
    )


def _read_en_passant(
    value: _Value, placed: Mapping[tuple[int, int], tuple[Colour, PieceType]]
) -> dict[Colour, tuple[str, str]]:
    if not isinstance(value, tuple) or len(value) != 4 or not all(isinstance(v, str) for v in value):
        raise Fen4Error(
            "extras", "'enPassant' must be four strings ('skipped:pawn' or '') for Red, Blue, Yellow, Green"
        )
    rights: dict[Colour, tuple[str, str]] = {}
    for colour, entry in zip(COLOURS, value, strict=True):
        assert isinstance(entry, str)
        if not entry:
            continue
        skipped_name, _, pawn_name = entry.partition(":")
        skipped = _coords(skipped_name)
        if skipped is None:
            raise Fen4Error("extras", f"en passant {entry!r} of {colour.value}: {skipped_name!r} is not a square")
        df, dr = _FORWARD[colour]
        expected_pawn = (skipped[0] + df, skipped[1] + dr)
        if pawn_name:
            pawn = _coords(pawn_name)
            if pawn is None:
                raise Fen4Error("extras", f"en passant {entry!r} of {colour.value}: {pawn_name!r} is not a square")
            if pawn != expected_pawn:
                raise Fen4Error(
                    "extras",
                    f"en passant {entry!r} of {colour.value}: a {colour.value} pawn that "
                    f"skipped {skipped_name} stands on {_square(*expected_pawn)}, "
                    f"not {pawn_name}",
                )
        if placed.get(expected_pawn) != (colour, PieceType.PAWN):
            raise Fen4Error("extras", f"en passant {entry!r}: no {colour.value} pawn on {_square(*expected_pawn)}")
        if skipped in placed:
            raise Fen4Error("extras", f"en passant {entry!r}: the skipped square {skipped_name} is not empty")
        rights[colour] = (skipped_name, _square(*expected_pawn))
    return rights


def _check_royal(name: str, value: _Value, placed: Mapping[tuple[int, int], tuple[Colour, PieceType]]) -> None:
    if not isinstance(value, tuple) or len(value) != 4:
        raise Fen4Error("extras", f"'{name}' must give four squares")
    for colour, entry in zip(COLOURS, value, strict=True):
        if entry == "":
            continue
        square = _coords(entry) if isinstance(entry, str) else None
        if square is None or placed.get(square) != (colour, PieceType.KING):
            raise Fen4Error(
                "extras",
                f"'{name}' makes {entry!r} {colour.value}'s royal piece, but only a king "
                f"can be (rule variant not played by polychess)",
            )


def _make_board(
    placed: Mapping[tuple[int, int], tuple[Colour, PieceType]],
    turn: Colour,
    dead: Mapping[Colour, bool],
    castling: Mapping[Colour, tuple[bool, bool]],
    en_passant: Mapping[Colour, tuple[str, str]],
    halfmove: int,
    mode: str,
    setup: str,
) -> Board:
    """The board, through polychess's own position string (docs/position-strings.md)."""
    rows = []
    for rank in range(14, 0, -1):
        row, run = "", 0
        for file in range(14):
            if not _exists(file, rank):
                continue
            piece = placed.get((file, rank))
            if piece is None:
                run += 1
                continue
            if run:
                row, run = row + str(run), 0
            row += _COLOUR_LETTERS[piece[0]] + _KIND_LETTERS[piece[1]]
        rows.append(row + (str(run) if run else ""))
    layout = Board("four-player", mode=mode, setup=setup).layout
    rights = ""
    for index, colour in enumerate(COLOURS):
        letters = ""
        for side, letter in ((0, "K"), (1, "Q")):
            if not castling[colour][side] or dead[colour]:
                continue
            king_from, _, rook_from, _ = layout.castling(index, side)
            king_at = _coords(layout.names[king_from])
            rook_at = _coords(layout.names[rook_from])
            assert king_at is not None and rook_at is not None
            if placed.get(king_at) == (colour, PieceType.KING) and placed.get(rook_at) == (colour, PieceType.ROOK):
                letters += letter
        if letters:
            rights += _COLOUR_LETTERS[colour] + letters
    skipped = ",".join(en_passant[c][0] for c in COLOURS if c in en_passant)
    controllers = "".join("-" if dead[c] else _COLOUR_LETTERS[c] for c in COLOURS)
    statuses = "".join("x" if dead[c] else "a" for c in COLOURS)
    position = " ".join(
        [
            "/".join(rows),
            _COLOUR_LETTERS[turn],
            rights or "-",
            skipped or "-",
            str(halfmove),
            "1",
            controllers,
            statuses,
        ]
    )
    try:
        return Board("four-player", fen=position, mode=mode, setup=setup)
    except ValueError as error:
        raise Fen4Error("position", str(error)) from None


def write_fen4(board: Board, points: Mapping[Colour, int] | None = None) -> str:
    """The FEN4 of a four-player board as chess.com writes it (corners as ``x``, dead pieces as
    ``d`` + colour + kind, en passant in ``{'enPassant':(...)}`` only when a right is open).
    ``points`` (free-for-all scores, e.g. ``game.points``) default to 0; FEN4 has no move
    number, so it is not written."""
    if board.kind.record_format.name != "pgn4":  # FEN4 is PGN4's position string
        raise ValueError(f"FEN4 is for four-player chess, not {board.variant}")
    fields = board.fen().split(" ")
    turn, rights, skipped_field, halfmove = fields[1], fields[2], fields[3], fields[4]
    points = points or {}
    dead = [board.status(c) == Status.OUT for c in COLOURS]
    castles: dict[Colour, str] = {}
    for part in re.findall(r"[rbyg][KQ]+", rights if rights != "-" else ""):
        castles[_LETTER_COLOURS[part[0]]] = part[1:]
    head = "-".join(
        [
            turn.upper(),
            ",".join("1" if d else "0" for d in dead),
            ",".join("1" if "K" in castles.get(c, "") else "0" for c in COLOURS),
            ",".join("1" if "Q" in castles.get(c, "") else "0" for c in COLOURS),
            ",".join(str(int(points.get(c, 0))) for c in COLOURS),
            halfmove,
        ]
    )
    extras = ""
    if skipped_field != "-":
        entries = {c: "" for c in COLOURS}
        for name in skipped_field.split(","):
            coords = _coords(name)
            assert coords is not None
            file, rank = coords
            # The skipped square lies on the third rank of its colour: Red rank 3, Blue file c,
            # Yellow rank 12, Green file l.
            colour = {3: Colour.RED, 12: Colour.YELLOW}.get(rank) or {2: Colour.BLUE, 11: Colour.GREEN}[file]
            df, dr = _FORWARD[colour]
            entries[colour] = f"{name}:{_square(file + df, rank + dr)}"
        extras = "{'enPassant':(" + ",".join(f"'{entries[c]}'" for c in COLOURS) + ")}-"
    rows = []
    for rank in range(14, 0, -1):
        cells: list[str] = []
        run = 0
        for file in range(14):
            if not _exists(file, rank):
                if run:
                    cells.append(str(run))
                    run = 0
                cells.append("x")
                continue
            piece = board.piece_at(_square(file, rank))
            if piece is None:
                run += 1
                continue
            if run:
                cells.append(str(run))
                run = 0
            token = _COLOUR_LETTERS[piece.colour] + _KIND_LETTERS[piece.piece_type]
            if board.controller(piece.colour) != piece.colour or board.status(piece.colour) == Status.OUT:
                token = "d" + token
            cells.append(token)
        if run:
            cells.append(str(run))
        rows.append(",".join(cells))
    return f"{head}-{extras}{'/'.join(rows)}"
