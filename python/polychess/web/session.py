"""One game being played in the browser: the Game, which seats the engine plays, and the
move list with the player of every move.

Requests for one game may arrive at once (a double click, the engine loop and a clock poll),
so every change happens under the session's lock. The engine searches a copy of the position
without holding that lock, so that the page stays responsive while it thinks; its move is
played only if the game has not moved on meanwhile.
"""

from __future__ import annotations

import secrets
import threading
from dataclasses import dataclass

from polychess.board import Colour, Move
from polychess.engine import Engine
from polychess.errors import IllegalMoveError, InvalidMoveError
from polychess.formats.record import read_record, write_record
from polychess.game import Game, TimeForfeitError
from polychess.web.errors import ApiError
from polychess.web.options import SeatOptions

__all__ = ["Session", "Entry", "ENGINE_NAME", "HUMAN_NAME"]

ENGINE_NAME = "polychess engine"
HUMAN_NAME = "Human"
_ENGINE_HASH_MB = 16  # small: up to a hundred games may be kept, each with its own table


@dataclass(frozen=True)
class Entry:
    """One token of the game's history as the move list shows it: the move number, the player
    who made it (None for events such as resignations) and its text."""

    number: int
    player: Colour | None
    text: str


class Session:
    """A game in play; ``id`` names it in URLs."""

    def __init__(self, game: Game, seats: SeatOptions, entries: list[Entry] | None = None) -> None:
        self.id = secrets.token_urlsafe(9)
        self.game = game
        self.seats = seats
        self.entries: list[Entry] = entries if entries is not None else []
        self.lock = threading.RLock()
        self._engine: Engine | None = None
        self._engine_lock = threading.Lock()

    @classmethod
    def from_game(cls, game: Game, seats: SeatOptions) -> Session:
        """A session for a game that was played elsewhere (a loaded record)."""
        return cls(game, seats, _entries_of(game))

    # -- reading --------------------------------------------------------------------------

    def is_engine(self, player: Colour) -> bool:
        return player in self.seats.engines

    def engine_to_move(self) -> bool:
        return not self.game.is_over() and self.is_engine(self.game.turn)

    def human_to_move(self) -> bool:
        return not self.game.is_over() and not self.is_engine(self.game.turn)

    def record(self) -> str:
        """The game record, naming who played each seat."""
        with self.lock:
            names = {c.value.capitalize(): ENGINE_NAME if self.is_engine(c) else HUMAN_NAME for c in self.game.seats}
            return write_record(self.game, names)

    # -- playing --------------------------------------------------------------------------

    def check_clock(self) -> None:
        """Ends the game on time if the player to move has run out (nobody else notices)."""
        with self.lock:
            if not self.game.is_over() and self.game.clock is not None:
                number = self.game.fullmove_number
                self.game.flag()
                self._sync(None, number)

    def play(self, move_text: str | None, origin: str | None, target: str | None, promotion: str | None) -> Move:
        """Plays a human's move, given as move text or as cells (and a promotion letter)."""
        with self.lock:
            self.check_clock()
            self._require_running()
            if self.is_engine(self.game.turn):
                raise ApiError(409, f"it is {self.game.turn}'s turn, and the engine plays {self.game.turn}")
            move = self._parse(move_text) if move_text is not None else self._find(origin, target, promotion)
            return self._push(move)

    def play_engine(self) -> Move:
        """Lets the engine play the seat to move; refused if that seat is a human's."""
        with self._engine_lock:  # one search at a time per engine
            with self.lock:
                self.check_clock()
                self._require_running()
                if not self.is_engine(self.game.turn):
                    raise ApiError(409, f"it is {self.game.turn}'s turn, a human seat")
                board, ply, budget = self.game.board, self.game.ply, self._time_budget()
            result = self._engine_instance().search(board, nodes=self.seats.engine_nodes, time=budget)
            with self.lock:
                if self.game.ply != ply or self.game.is_over() or not self.is_engine(self.game.turn):
                    raise ApiError(409, "the game moved on while the engine was thinking")
                if result.best_move is None:
                    raise RuntimeError(f"the engine found no move in {board.fen()}")
                return self._push(result.best_move)

    def resign(self, player: Colour) -> None:
        with self.lock:
            self._require_running()
            if self.is_engine(player):
                raise ApiError(409, f"{player} is an engine seat; only humans resign")
            if player not in self.game.seats:
                raise ApiError(400, f"{player} has no seat in this game")
            number = self.game.fullmove_number
            try:
                self.game.resign(player)
            except ValueError as error:  # already out
                raise ApiError(409, str(error)) from None
            self._sync(None, number)

    # -- helpers --------------------------------------------------------------------------

    def _require_running(self) -> None:
        outcome = self.game.outcome()
        if outcome is not None:
            raise ApiError(409, f"the game is over ({outcome.termination.value})")

    def _parse(self, text: str) -> Move:
        try:
            return self.game.board.parse_move(text)
        except InvalidMoveError as error:
            raise ApiError(400, f"cannot read the move {text!r}: {error}") from None
        except IllegalMoveError as error:
            raise ApiError(400, f"illegal move {text!r}: {error}") from None

    def _find(self, origin: str | None, target: str | None, promotion: str | None) -> Move:
        if origin is None or target is None:
            raise ApiError(400, "give either move (move text) or from and to (cell names)")
        board = self.game.board
        names = {n.lower() for n in board.layout.names}
        for label, cell in (("from", origin), ("to", target)):
            if cell.lower() not in names:
                raise ApiError(400, f"{label}: no cell named {cell!r} in {board.variant}")
        moves = [m for m in board.legal_moves
                 if m.from_cell.lower() == origin.lower() and m.to_cell.lower() == target.lower()]
        if not moves:
            raise ApiError(400, f"illegal move: {board.turn} cannot move from {origin} to {target}")
        if promotion is not None:
            moves = [m for m in moves if (m.promotion or "").upper() == promotion.upper()]
            if not moves:
                raise ApiError(400, f"illegal move: no promotion to {promotion!r} from {origin} to {target}")
        if len(moves) > 1:
            choices = ", ".join(sorted(m.promotion or "" for m in moves))
            raise ApiError(400, f"the move from {origin} to {target} promotes: give promotion (one of {choices})")
        return moves[0]

    def _push(self, move: Move) -> Move:
        player, number = self.game.turn, self.game.fullmove_number
        try:
            self.game.push(move)
        except TimeForfeitError as error:
            self._sync(None, number)
            raise ApiError(409, str(error)) from None
        except IllegalMoveError as error:
            raise ApiError(400, f"illegal move {move}: {error}") from None
        self._sync(player, number)
        return move

    def _sync(self, mover: Colour | None, number: int) -> None:
        """Adds the game's new history tokens to the move list: the move by ``mover``, and
        events (resignations, time forfeits), which belong to nobody."""
        for token in self.game.history[len(self.entries):]:
            self.entries.append(Entry(number, mover if _is_move(token) else None, token))

    def _time_budget(self) -> float:
        """The engine's thinking time: its cap, and never more than a tenth of its clock."""
        clock = self.game.clock
        if clock is None:
            return self.seats.engine_time
        return max(0.01, min(self.seats.engine_time, clock.remaining_now(self.game.turn) / 10))

    def _engine_instance(self) -> Engine:
        if self._engine is None:
            self._engine = Engine(hash_mb=_ENGINE_HASH_MB)
        return self._engine


def _entries_of(game: Game) -> list[Entry]:
    """The move list of a finished or loaded game. Its history does not say who made each
    move (armies change hands), so an identical copy is taken back step by step: after taking
    back a move, the player to move is the one who made it."""
    copy = read_record(write_record(game))
    entries: list[Entry] = []
    while copy.history:
        token = copy.pop()
        entries.append(Entry(copy.fullmove_number, copy.turn if _is_move(token) else None, token))
    entries.reverse()
    return entries




def _is_move(token: str) -> bool:
    """Whether a history token is a move rather than an event (``draw``, ``resign(red)``)."""
    return token != "draw" and not token.endswith(")")
