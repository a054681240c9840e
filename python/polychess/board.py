"""Boards of every variant: position, legal moves, push/pop, check and mate, perft.

A :class:`Board` is a position plus its history. Moves are :class:`Move` values
(``str(move)`` is the move text of docs/rules.md §4, e.g. ``"E2E4"``); every method that takes a
move also takes its text.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING

from polychess import _core, notation, svg, text_board
from polychess._core import Move, Status, StopFlag
from polychess.catalogue import VARIANTS, GameKind, kind_of
from polychess.deprecation import renamed_names
from polychess.outcome import Outcome, Termination, read_outcome, result_token
from polychess.pieces import Colour, Piece, PieceType

if TYPE_CHECKING:
    from polychess.rules import Rules

__all__ = ["Board", "Move", "Colour", "PieceType", "Piece", "Status", "StopFlag", "LegalMoves", "VARIANTS"]


class LegalMoves:
    """A live view of the legal moves of a board: ``len``, ``in``, iteration, ``bool``."""

    __slots__ = ("_board",)

    def __init__(self, board: Board) -> None:
        self._board = board

    def __iter__(self) -> Iterator[Move]:
        return iter(self._board._core.legal_moves())

    def __len__(self) -> int:
        return self._board._core.count_legal_moves()

    def __bool__(self) -> bool:
        return self._board._core.count_legal_moves() > 0

    def __contains__(self, move: object) -> bool:
        return isinstance(move, (str, Move)) and self._board._core.is_legal(move)

    def __repr__(self) -> str:
        return f"<LegalMoves ({', '.join(map(str, self))})>"


class Board:
    """A position of one variant together with the moves that led to it.

    ``Board("three-player")`` is the start position; ``Board(variant, fen=text)`` reads a
    position string (FEN for standard chess, docs/position-strings.md for three-player chess)
    and raises :class:`~polychess.InvalidPositionError` if it is malformed. An unknown variant
    raises ``ValueError``. ``neutrality=True`` turns on the three-player "rule of neutrality"
    (rules §1.11), which restricts captures and adds a field to the position string.
    Four-player chess takes ``mode="teams"`` (default) or ``"ffa"`` and ``setup="modern"``
    (default) or ``"classic"`` (rules §2).
    """

    __slots__ = ("_core", "_kind", "_rules", "_layout")

    def __init__(
        self,
        variant: str = "three-player",
        fen: str | None = None,
        *,
        neutrality: bool = False,
        mode: str | None = None,
        setup: str | None = None,
    ) -> None:
        game = kind_of(variant, mode, setup)
        rules = game.rules.replace(neutrality=True) if neutrality else game.rules
        self._start(game, fen, rules)

    @classmethod
    def _played_by(cls, game: GameKind, fen: str | None, rules: Rules) -> Board:
        """A board of the game played by ``rules``, its declaration with a game's options applied
        (:class:`~polychess.Game`'s board)."""
        board = cls.__new__(cls)
        board._start(game, fen, rules)
        return board

    def _start(self, game: GameKind, fen: str | None, rules: Rules) -> None:
        self._core = _core.Board(
            game.variant, fen, rules_text=rules.to_text(), mode=game.mode or "", setup=game.setup or ""
        )
        self._kind, self._rules = game, rules
        self._layout = game.layout

    # -- identity -------------------------------------------------------------------------

    @property
    def variant(self) -> str:
        return self._core.variant

    @property
    def neutrality(self) -> bool:
        return self._rules.neutrality

    @property
    def rules(self) -> Rules:
        """The rules the position is played by: its game's declaration (:mod:`polychess.rules`),
        with the options of a :class:`~polychess.Game` applied on a game's board."""
        return self._rules

    @property
    def kind(self) -> GameKind:
        """The game of the board (:mod:`polychess.catalogue`)."""
        return self._kind

    @property
    def core(self) -> _core.Board:
        """The compiled core's board (``polychess._core.Board``), for low-level work: the
        library's search, evaluation and learning modules, and embedders. Changing it directly
        bypasses the checks of this class."""
        return self._core

    @property
    def mode(self) -> str | None:
        """Four-player chess: "teams" or "ffa"."""
        return self._core.mode or None

    @property
    def setup(self) -> str | None:
        """Four-player chess: "modern" or "classic"."""
        return self._core.setup or None

    @property
    def colours(self) -> tuple[Colour, ...]:
        """The colours (and seats) in turn order."""
        return self._kind.colours

    def fen(self) -> str:
        """The position string; ``Board(variant, fen=board.fen())`` reproduces the position."""
        return self._core.fen()

    def board_fen(self) -> str:
        """The placement of the pieces alone: the position string's first field."""
        return self.fen().split(" ", 1)[0]

    def copy(self) -> Board:
        """An independent copy, history included."""
        other = Board.__new__(Board)
        other._core = self._core.copy()
        other._kind, other._rules, other._layout = self._kind, self._rules, self._layout
        return other

    __copy__ = copy

    def __deepcopy__(self, memo: dict[int, object]) -> Board:
        return self.copy()

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Board) and self.variant == other.variant and self.fen() == other.fen()

    def __hash__(self) -> int:
        return hash((self.variant, self.fen()))

    def __repr__(self) -> str:
        options = "".join(f", {k}={v!r}" for k, v in self._options().items())
        return f"Board({self.variant!r}, fen={self.fen()!r}{options})"

    def __str__(self) -> str:
        """The board as plain text (as ``print(board)`` shows it, like python-chess); the
        position string is ``fen()``. The three-player hexagon is drawn as ``polychess show``
        draws it."""
        return text_board.render(self)

    def _repr_svg_(self) -> str:
        """The picture Jupyter shows: the position with the last move highlighted."""
        stack = self._core.move_stack()
        return svg.board(self, lastmove=stack[-1] if stack else None)

    def _options(self) -> dict[str, object]:
        options: dict[str, object] = {}
        if self.neutrality:
            options["neutrality"] = True
        if self.mode is not None:
            options.update(mode=self.mode, setup=self.setup)
        return options

    def __reduce__(self) -> tuple[object, ...]:
        moves = [str(m) for m in self.move_stack]
        return (_rebuild, (self.variant, self._start_fen(), moves, self.fen(), self._options()))

    def _start_fen(self) -> str:
        board = self.copy()
        while board._core.history_length():
            board._core.undo()
        return board.fen()

    # -- moves ----------------------------------------------------------------------------

    @property
    def legal_moves(self) -> LegalMoves:
        return LegalMoves(self)

    def parse_move(self, text: str) -> Move:
        """The legal move written as ``text``.

        Raises :class:`~polychess.InvalidMoveError` if the text cannot be read and
        :class:`~polychess.IllegalMoveError` if it names no legal move.
        """
        if not isinstance(text, str):
            raise TypeError(f"expected move text, got {type(text).__name__}")
        return self._core.legal_move(text)

    def push(self, move: Move | str) -> Move:
        """Plays a legal move (or its text) and returns it. An illegal move raises
        :class:`~polychess.IllegalMoveError` and leaves the board unchanged."""
        return self._core.push(move)

    # -- the notation of each variant's records ---------------------------------------------

    def san(self, move: Move | str) -> str:
        """The legal move as this variant's game records write it; the board is not changed.

        Standard chess: Standard Algebraic Notation, as PGN writes it (``Nf3``, ``exd6``,
        ``O-O``, ``e8=Q#``). Four-player chess: chess.com's long algebraic notation, as PGN4
        writes it (``h2-h3``, ``Qg1xQn8+``, ``O-O``; one ``+`` per king the move puts in check
        and one ``#`` per player it mates). Three-player chess: the move text of rules §4, as
        its game records write it (``E2E4``). An illegal move raises
        :class:`~polychess.IllegalMoveError`.
        """
        return notation.move_to_text(self, self._legal(move))

    def parse_san(self, text: str) -> Move:
        """The legal move that ``text``, in the notation of :meth:`san`, stands for (check marks
        may be left out; the move text of rules §4 is read too). Raises
        :class:`~polychess.InvalidMoveError` for unreadable text,
        :class:`~polychess.AmbiguousMoveError` for text that fits several legal moves and
        :class:`~polychess.IllegalMoveError` for text that fits none."""
        if not isinstance(text, str):
            raise TypeError(f"expected move text, got {type(text).__name__}")
        return notation.text_to_move(self, text)

    def push_san(self, text: str) -> Move:
        """Plays the move ``text`` stands for (:meth:`parse_san`) and returns it; the board is
        left unchanged if it cannot."""
        move = self.parse_san(text)
        self._core.push(move)
        return move

    # -- what a move does -------------------------------------------------------------------

    def is_capture(self, move: Move | str) -> bool:
        """Whether the legal move captures a piece (en passant included)."""
        return self._core.is_capture(self._legal(move))

    def is_en_passant(self, move: Move | str) -> bool:
        return self._core.is_en_passant(self._legal(move))

    def is_castling(self, move: Move | str) -> bool:
        return self._core.is_castling(self._legal(move))

    def gives_check(self, move: Move | str) -> bool:
        """Whether the legal move puts an enemy king in check (:meth:`checks`). In standard
        chess: whether the opponent is in check after the move."""
        return bool(self.checks(move))

    def checks(self, move: Move | str, players: Iterable[Colour | str] | None = None) -> tuple[Colour, ...]:
        """The players whose king the legal move puts in check, in turn order, as PGN4 marks
        checks (one ``+`` each) and free-for-all scores them (docs/rules.md §2.4; the core's one
        definition, cpp/core/checks.h): a king is put in check when an enemy piece attacks it
        after the move that did not before. ``players`` names whose kings are looked at (by
        default every active player but the mover; a player out whose king stays on the board
        may be named too)."""
        looked_at = None if players is None else sum(1 << self._index(p) for p in players)
        checked, _ = self._core.kings_checked(self._legal(move), looked_at)
        return tuple(self._kind.colours[p] for p in checked)

    def pop(self) -> Move:
        """Takes back the last move (and any events applied after it) and returns it."""
        return self._core.pop()

    def is_repetition(self, count: int = 3) -> bool:
        """Whether the position has stood on the board ``count`` times, counting back through
        the moves played on it as far as the last capture or pawn move."""
        key, seen = self._core.key, 1
        board = self._core.copy()
        while seen < count and board.halfmove_clock > 0 and board.move_stack():
            board.pop()
            seen += board.key == key
        return seen >= count

    def peek(self) -> Move:
        """The last move played."""
        stack = self._core.move_stack()
        if not stack:
            raise IndexError("peek at a board with no moves")
        return stack[-1]

    @property
    def move_stack(self) -> list[Move]:
        return self._core.move_stack()

    # -- state ----------------------------------------------------------------------------

    @property
    def turn(self) -> Colour:
        """The player to move, named by his colour."""
        return self._kind.colours[self._core.turn]

    def piece_at(self, cell: str | int) -> Piece | None:
        found = self._core.piece_at(self._cell(cell))
        if found is None:
            return None
        return Piece(self._kind.colours[found[0]], PieceType(found[1]))

    def pieces(self) -> dict[str, Piece]:
        """Every piece by cell name."""
        core, colours = self._core, self._kind.colours
        out: dict[str, Piece] = {}
        for cell, name in enumerate(self._layout.names):  # cells known valid: no per-cell checks
            found = core.piece_at(cell)
            if found is not None:
                out[name] = Piece(colours[found[0]], PieceType(found[1]))
        return out

    def status(self, player: Colour | str) -> Status:
        return self._core.status(self._index(player))

    def controller(self, colour: Colour | str) -> Colour | None:
        """The player who controls the colour's pieces (None: nobody, inert pieces)."""
        player = self._core.controller(self._index(colour))
        return None if player is None else self._kind.colours[player]

    def king(self, player: Colour | str) -> str | None:
        """The cell of the player's king."""
        cell = self._core.king_of(self._index(player))
        return None if cell is None else self.layout.names[cell]

    @property
    def halfmove_clock(self) -> int:
        return self._core.halfmove_clock

    @property
    def fullmove_number(self) -> int:
        return self._core.fullmove_number

    @property
    def zobrist_key(self) -> int:
        return self._core.key

    @property
    def layout(self) -> _core.Layout:
        return self._layout

    # -- check and mate -------------------------------------------------------------------

    def checkers(self) -> list[str]:
        """Cells of the enemy pieces that attack the king of the player to move."""
        names = self.layout.names
        return [names[c] for c in self._core.checkers()]

    def attackers(self, player: Colour | str, cell: str | int) -> list[str]:
        """Cells of the player's pieces that attack the cell (pawns by their capture cells).

        The arguments come in python-chess's order, ``attackers(colour, square)``; the order
        ``attackers(cell, player)`` is read too, since no cell is named like a colour.
        """
        colour, target = (player, cell) if _names_colour(player) else (cell, player)
        if not isinstance(colour, (Colour, str)) or not _names_colour(colour) or isinstance(target, Colour):
            raise ValueError(
                f"attackers(player, cell) needs a colour of {self.variant} and a cell, got {player!r} and {cell!r}"
            )
        names = self.layout.names
        return [names[c] for c in self._core.attackers(self._cell(target), self._index(colour))]

    def is_check(self) -> bool:
        return bool(self._core.checkers())

    def is_checkmate(self) -> bool:
        return self.is_check() and not self.legal_moves

    def is_stalemate(self) -> bool:
        return not self.is_check() and not self.legal_moves

    # -- the end, as the game's rules judge the position --------------------------------------

    def outcome(self) -> Outcome | None:
        """The outcome the game's declared rules (:mod:`polychess.rules`) give this position,
        or None while play goes on: the position is judged as a game starting from it judges its
        start (a mate, a stalemate, dead material, the quiet-move rule; in the multi-player games
        a mate puts a player out and play goes on), and a repetition is counted through the moves
        played on this board. Only what the board holds is known: a free-for-all's points so far
        and moves made before the board's own start are not, so a :class:`~polychess.Game` can
        tell more."""
        rules = self._kind.rules.replace(neutrality=True) if self.neutrality else self._kind.rules
        start = Board._played_by(self._kind, self.fen(), rules)
        state = _core.GameState(start._core, [0] * len(self.colours))
        ranked_by_points = rules.ranking == "points"
        if state.is_terminal() or not rules.repetitions or not self.is_repetition(rules.repetitions):
            return read_outcome(state, self.colours, ranked_by_points)
        state.agree_draw()  # every draw ranks the players alike, whatever brought it about
        drawn = read_outcome(state, self.colours, ranked_by_points)
        assert drawn is not None
        return dataclasses.replace(drawn, termination=Termination.THREEFOLD_REPETITION)

    def is_game_over(self) -> bool:
        return self.outcome() is not None

    def result(self) -> str:
        """The result token of :meth:`outcome`, as :meth:`polychess.Game.result` gives it:
        ``1-0``, ``0-1``, ``1/2-1/2`` in standard chess, each seat's place (``2-3-1``) in the
        others, and ``*`` while play goes on."""
        return result_token(self.variant, self.outcome())

    def mated_by(self) -> Colour | None:
        """If the player to move is checkmated, the player credited with the mate
        (rules §1.7: among the attackers, the one who moved most recently)."""
        player = self._core.mated_by()
        return None if player is None else self._kind.colours[player]

    # -- counting -------------------------------------------------------------------------

    def perft(self, depth: int, *, stop: StopFlag | None = None) -> int:
        """Leaf count of the legal-move tree (computed in C++, without the GIL). Another
        thread may end a long count by setting ``stop`` (a :class:`StopFlag`); the count
        returned is then partial."""
        return self._core.perft(depth, stop)

    def divide(self, depth: int, *, stop: StopFlag | None = None) -> dict[str, int]:
        """Perft below each legal move, by move text (``stop`` as for :meth:`perft`: the moves
        not reached are missing, the last one's count is partial)."""
        return self._core.divide(depth, stop)

    # -- game-layer primitives (each recorded in the history; ``pop`` takes them back) ------

    def set_controller(self, colour: Colour | str, player: Colour | str | None) -> None:
        """Gives a colour's pieces to a player (None: to nobody); its castling and
        en-passant rights lapse."""
        self._core.set_controller(self._index(colour), None if player is None else self._index(player))

    def remove_king(self, colour: Colour | str) -> None:
        self._core.remove_king(self._index(colour))

    def set_status(self, player: Colour | str, status: Status) -> None:
        """Sets a player's status; FROZEN freezes a stalemated player (rules §1.9)."""
        self._core.set_status(self._index(player), status)

    def eliminate(self, player: Colour | str, by: Colour | str | None, *, keep_king: bool = False) -> None:
        """Puts a player out: removes his king and gives his pieces to ``by`` (a mate or king
        capture, rules §1.8) or to nobody (resignation, time forfeit: inert pieces)."""
        self._core.eliminate(self._index(player), None if by is None else self._index(by), keep_king)

    # -- helpers --------------------------------------------------------------------------

    def _legal(self, move: Move | str) -> Move:
        """The legal move given as a Move or as move text; IllegalMoveError otherwise."""
        return self._core.legal_move(move)

    def _index(self, colour: Colour | str) -> int:
        try:
            return self._kind.colours.index(Colour(colour))
        except ValueError:
            names = ", ".join(c.value for c in self._kind.colours)
            raise ValueError(f"no colour {colour!r} in {self.variant} (one of {names})") from None

    def _cell(self, cell: str | int) -> int:
        if isinstance(cell, int):
            if not 0 <= cell < self.layout.cell_count:
                raise ValueError(f"no cell {cell} in {self.variant}")
            return cell
        try:
            return self.layout.index(cell)
        except KeyError:
            raise ValueError(f"no cell named {cell!r} in {self.variant}") from None


_COLOUR_NAMES = frozenset(colour.value for colour in Colour)


def _names_colour(value: object) -> bool:
    return isinstance(value, Colour) or (isinstance(value, str) and value in _COLOUR_NAMES)


def _rebuild(variant: str, start: str, moves: list[str], fen: str, options: dict[str, object]) -> Board:
    board = Board(variant, start, **options)  # type: ignore[arg-type]
    for move in moves:
        board.push(move)
    if board.fen() != fen:  # events (eliminations...) were applied: keep the position itself
        board = Board(variant, fen, **options)  # type: ignore[arg-type]
    return board


__getattr__ = renamed_names(__name__, {"Kind": ("PieceType", lambda: PieceType)})
