"""A whole game: turns, eliminations and transfers, frozen players, places, points, draws,
clocks.

The C++ core decides which moves are legal; this module runs a game to its end by the rules:
docs/rules.md §1.6-1.11 (three-player: a mated player's army passes to the mater, a stalemated one is
frozen), §2.3 (four-player teams: the first mate wins for the team), §2.4 (four-player
free-for-all: points, mates judged right after the move, dead pieces) and §3 (standard).
After every move it examines the players concerned and ends the game when the rules say so.
Every step can be taken back with :meth:`Game.pop`.
"""

from __future__ import annotations

import enum
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass

from polychess.board import Board, Colour, Kind, LegalMoves, Move, Status
from polychess.checks import KingAttacks, checks_given, king_attacks
from polychess.clock import Clock
from polychess.options import Options, validate_options

__all__ = ["Game", "Outcome", "Termination", "Elimination", "Reason", "GameOverError", "TimeForfeitError"]


class GameOverError(ValueError):
    """A move or event was offered after the game ended."""


class TimeForfeitError(ValueError):
    """The mover's time ran out before his move: he lost on time and the move was not played."""


class Reason(enum.Enum):
    """Why a player left the game."""

    CHECKMATE = "checkmate"
    KING_CAPTURE = "king capture"
    STALEMATE = "stalemate"  # frozen, not out (rules §1.9)
    RESIGNATION = "resignation"
    TIME_FORFEIT = "time forfeit"


class Termination(enum.Enum):
    """Why the game ended."""

    CHECKMATE = "checkmate"
    KING_CAPTURE = "king capture"
    STALEMATE = "stalemate"
    POINTS_LEAD = "points lead"  # four-player FFA: two left and one 21 points ahead
    MOVE_LIMIT = "move limit"
    AGREEMENT = "agreement"
    THREEFOLD_REPETITION = "threefold repetition"
    FIFTY_MOVES = "fifty moves"
    INSUFFICIENT_MATERIAL = "insufficient material"
    RESIGNATION = "resignation"
    TIME_FORFEIT = "time forfeit"


@dataclass(frozen=True)
class Elimination:
    """A player leaving the game (out, or frozen by stalemate)."""

    player: Colour
    reason: Reason
    by: Colour | None  # the mater or king capturer; None for the rest
    ply: int  # number of moves played when it happened


@dataclass(frozen=True)
class Outcome:
    """The end of a game: why, every player's place (1 = first; tied players share a place)
    and who left the game how and when."""

    termination: Termination
    places: dict[Colour, int]
    eliminations: tuple[Elimination, ...]
    points: dict[Colour, int] | None = None  # four-player free-for-all
    @property
    def winners(self) -> tuple[Colour, ...]:
        return tuple(p for p, place in self.places.items() if place == 1)

    def returns(self) -> tuple[float, ...]:
        """Per player in seat order: +1 for a sole first place, -1 for a sole last place and
        in between linearly by place (a uniform score for learning agents)."""
        n = len(self.places)
        return tuple(1.0 - 2.0 * (place - 1) / (n - 1) for place in self.places.values())


@dataclass
class _Step:
    """What pop() needs to take back one move or event: the game's state before it."""

    eliminations: int
    places: dict[Colour, int]
    outcome: Outcome | None
    history: int
    board_length: int
    clock: Clock | None
    points: dict[Colour, int]
    ply: int
    repetition: int | None = None  # the position key this step counted


class Game:
    """One game from its start position to its outcome.

    Options (rules §1.11; each off by default):

    - ``first_mate_wins``: the first checkmate (or king capture) ends the game.
    - ``neutrality``: the rule of neutrality restricts captures (decided by the move generator).
    - ``players=2``: White and Red on the hexagonal board, Black not set up; the first mate wins.
    - ``time_control`` (seconds per player) with ``increment`` (seconds added after each move)
      and ``hourglass`` (the time a mover uses is shared out among the other active players);
      ``time_source`` is a function returning seconds (``time.monotonic`` by default; inject
      your own for exact tests). A player whose time runs out loses on time.
    - ``start``: a position string to start from instead of the start position.

    Four-player chess (rules §2) takes ``mode="teams"`` (default) or ``"ffa"`` (points) and
    ``setup="modern"`` or ``"classic"``, plus ``move_limit`` (total plies; then teams draw and
    free-for-all ranks by points) and ``rotate_first_player`` (see :meth:`next_game`). Every
    variant takes ``first_player``, the seat that moves first.

    The options are checked by :func:`polychess.options.validate_options`: an unknown value, a
    value out of range or an option of another variant raises
    :class:`~polychess.options.OptionError` (a ``ValueError``) naming the option and what is
    allowed. The start position is judged at once, as any position after a move.
    """

    def __init__(
        self,
        variant: str = "three-player",
        *,
        first_mate_wins: bool = False,
        neutrality: bool = False,
        players: int | None = None,
        time_control: float | None = None,
        increment: float = 0.0,
        hourglass: bool = False,
        time_source: Callable[[], float] = time.monotonic,
        start: str | None = None,
        mode: str | None = None,
        setup: str | None = None,
        move_limit: int | None = None,
        first_player: Colour | str | None = None,
        rotate_first_player: bool = False,
    ) -> None:
        options = validate_options(dict(
            variant=variant, first_mate_wins=first_mate_wins, neutrality=neutrality, players=players,
            time_control=time_control, increment=increment, hourglass=hourglass, start=start, mode=mode, setup=setup,
            move_limit=move_limit, first_player=first_player, rotate_first_player=rotate_first_player))
        self.options: Options = options  # as checked by polychess.options, every one resolved
        self.variant = options.variant
        self.move_limit = options.move_limit
        self.rotate_first_player = options.rotate_first_player
        self.time_control = options.time_control
        self._time_source = time_source
        self.first_mate_wins = options.first_mate_wins or options.players == 2
        self.neutrality = options.neutrality
        start = _two_player_start(options.neutrality) if options.players == 2 else options.start
        self._board = Board(options.variant, start, neutrality=options.neutrality, mode=options.mode,
                            setup=options.setup)
        if options.first_player is not None:
            # Every variant's position string names the side to move by its colour's initial.
            fields = self._board.fen().split(" ")
            fields[1] = options.first_player.value[0]
            self._board = Board(options.variant, " ".join(fields), neutrality=options.neutrality,
                                mode=options.mode, setup=options.setup)
        self.mode = self._board.mode
        self.setup = self._board.setup
        self.start_position = self._board.fen()
        # Seats with a player at the start (players=2 leaves Black's seat empty).
        self.seats = tuple(p for p in self._board.colours if self._board.status(p) != Status.OUT)
        self.players = options.players or len(self._board.colours)
        self.clock: Clock | None = None
        if options.time_control is not None:
            self.clock = Clock(self._board.colours, options.time_control, options.increment, options.hourglass,
                               time_source)
        self._eliminations: list[Elimination] = []
        self._places: dict[Colour, int] = {}  # fixed places of players who are out
        self._outcome: Outcome | None = None
        self._history: list[str] = []  # moves and events, as record tokens
        self._repetitions: Counter[int] = Counter()  # positions counted by the draw rules
        self._steps: list[_Step] = []
        self._ply = 0
        # Four-player free-for-all keeps score (rules §2.4).
        self._points: dict[Colour, int] = {p: 0 for p in self.seats} if self.mode == "ffa" else {}
        if self._board.status(self._board.turn) != Status.ACTIVE:
            raise ValueError("the player to move in the start position is not active")
        # The start position is judged as a position after a move is, so that a game that is
        # over before anyone moves (a mate, a stalemate, bare kings) says so at once.
        if self.mode == "ffa":
            self._confirm_mates(None)
        self._judge()
        self._board_length = self._board._core.history_length()

    # -- reading the game -----------------------------------------------------------------

    @property
    def board(self) -> Board:
        """A copy of the current position (changing it does not change the game)."""
        return self._board.copy()

    @property
    def turn(self) -> Colour:
        return self._board.turn

    @property
    def colours(self) -> tuple[Colour, ...]:
        return self._board.colours

    @property
    def legal_moves(self) -> LegalMoves:
        """The legal moves of the player to move (none once the game is over)."""
        return LegalMoves(self._board) if self._outcome is None else LegalMoves(_FINISHED)

    @property
    def history(self) -> list[str]:
        """Moves and events in order, as they are written in game records."""
        return list(self._history)

    @property
    def eliminations(self) -> tuple[Elimination, ...]:
        return tuple(self._eliminations)

    @property
    def fullmove_number(self) -> int:
        return self._board.fullmove_number

    @property
    def ply(self) -> int:
        """Number of moves played."""
        return self._ply

    @property
    def points(self) -> dict[Colour, int]:
        """Four-player free-for-all: every seat's points so far (empty in other games)."""
        return dict(self._points)

    def next_game(self) -> Game:
        """A new game with the same options; with ``rotate_first_player`` the first move
        passes one seat further clockwise."""
        start_turn = next(c for c in self.colours if c.value[0] == self.start_position.split(" ")[1])
        first = start_turn
        if self.rotate_first_player:  # one seat further clockwise, among the seats in play
            first = self.seats[(self.seats.index(start_turn) + 1) % len(self.seats)]
        arguments = {**self.options.arguments(), "first_player": first}
        return Game(self.variant, time_source=self._time_source, **arguments)  # type: ignore[arg-type]

    def outcome(self) -> Outcome | None:
        """The outcome, or None while the game runs."""
        return self._outcome

    def is_over(self) -> bool:
        return self._outcome is not None

    def status(self, player: Colour | str) -> Status:
        return self._board.status(player)

    def active_players(self) -> list[Colour]:
        return [p for p in self.colours if self._board.status(p) == Status.ACTIVE]

    def __str__(self) -> str:
        """The current position as a text board (``str(game.board)``)."""
        return str(self._board)

    def __repr__(self) -> str:
        options = "".join(f", {name}={value!r}" for name, value in self.options.arguments().items()
                          if name != "variant")
        return f"<Game {self.variant!r}{options} ply={self.ply} {self.turn} to move>"

    def _repr_svg_(self) -> str:
        """The picture Jupyter shows: the current position with the last move highlighted."""
        from polychess import svg  # svg imports this module

        stack = self._board._core.move_stack()
        return svg.board(self._board, lastmove=stack[-1] if stack else None)

    # -- playing --------------------------------------------------------------------------

    def push(self, move: Move | str) -> Move:
        """Plays a legal move of the player to move and everything it entails.

        Raises :class:`~polychess.IllegalMoveError` (game unchanged) for an illegal move,
        :class:`GameOverError` after the end, and :class:`TimeForfeitError` if the mover's
        time had run out (then he has lost on time and the move was not played).
        """
        self._require_running()
        board = self._board
        move = board.parse_move(move) if isinstance(move, str) else move
        if move not in board.legal_moves:
            board.push(move)  # raises IllegalMoveError with the core's message
        self._save()
        mover = board.turn
        if self.clock is not None and not self.clock.stop(mover, self.active_players()):
            # stop() has started the next turn's clock
            self._leave(mover, Reason.TIME_FORFEIT, None)
            self._after_step()
            raise TimeForfeitError(f"{mover} ran out of time; the move {move} was not played")
        statuses = {p: board.status(p) for p in self.colours}
        controllers = {c: board.controller(c) for c in self.colours}
        attacks_before = king_attacks(board, mover) if self.mode == "ffa" else None
        board.push(move)
        self._ply += 1
        self._history.append(str(move))
        king_captured = False
        for p in self.colours:  # a king capture eliminates inside the move (rules §1.6)
            if statuses[p] != Status.OUT and board.status(p) == Status.OUT:
                king_captured = True
                self._record_out(p, Reason.KING_CAPTURE, mover)
        if attacks_before is not None and self._outcome is None:
            self._score_move(mover, controllers, king_captured, attacks_before)
        self._after_step()
        return move

    def resign(self, player: Colour | str) -> None:
        """The player resigns: he is out, ranked as if mated now, his king removed and his other
        pieces left as inert obstacles (rules §1.10)."""
        self._event(Colour(player), Reason.RESIGNATION)

    def flag(self) -> bool:
        """Checks the clock of the player to move; if his time has run out he loses on time.
        Returns whether that happened."""
        self._require_running()
        if self.clock is None or self.clock.remaining_now(self.turn) > 0:
            return False
        self.time_forfeit(self.turn)
        return True

    def time_forfeit(self, player: Colour | str) -> None:
        """The player loses on time (as an external clock decided): out, ranked as if mated
        now, king removed, other pieces inert (rules §1.10)."""
        self._event(Colour(player), Reason.TIME_FORFEIT)

    def agree_draw(self) -> None:
        """All players still playing agree to a draw."""
        self._require_running()
        self._save()
        self._history.append("draw")
        self._finish(Termination.AGREEMENT, draw=True)
        self._finish_step()

    def pop(self) -> str:
        """Takes back the last move or event with everything it entailed; returns its record
        token (the move text, or ``resign(red)`` and the like)."""
        if not self._steps:
            raise IndexError("nothing to take back")
        token = self._history[-1]
        step = self._steps.pop()
        while self._board._core.history_length() > step.board_length:
            self._board._core.undo()
        del self._eliminations[step.eliminations:]
        del self._history[step.history:]
        self._places = step.places
        self._points = step.points
        self._ply = step.ply
        self._outcome = step.outcome
        self._board_length = step.board_length
        self.clock = step.clock
        if step.repetition is not None:
            self._repetitions[step.repetition] -= 1
        return token

    # -- the rules ------------------------------------------------------------------------

    def _event(self, player: Colour, reason: Reason) -> None:
        self._require_running()
        if player not in self.seats or self._board.status(player) == Status.OUT:
            raise ValueError(f"{player} is not playing")
        to_move = player == self.turn
        self._save()
        self._leave(player, reason, None)
        if self.clock is not None and to_move:
            self.clock.restart()  # the next player's turn begins now
        self._after_step()

    def _after_step(self) -> None:
        """What follows every move or event: the position is judged, and the step is done."""
        self._judge()
        self._finish_step()

    def _judge(self) -> None:
        """Judges the position after a move or event, and the start position the same way: the
        players whose turn comes are examined, then the draw rules. In free-for-all, where mates
        are judged right after the move, the ending rules come first: a player whose turn never
        comes is not judged."""
        if self._outcome is None:
            self._check_move_limit()
        if self.mode == "ffa" and self._outcome is None:
            self._check_draws()
        if self._outcome is None:
            self._resolve_turn()
        if self._outcome is None:
            if self.mode == "ffa":
                self._check_points_lead()
            else:
                self._check_draws()

    def _leave(self, player: Colour, reason: Reason, by: Colour | None) -> None:
        """Takes a player out for a reason that is not a move (resignation, time forfeit)."""
        self._history.append(f"{'resign' if reason is Reason.RESIGNATION else 'timeout'}({player.value})")
        self._eliminate(player, None)
        self._record_out(player, reason, by)

    def _eliminate(self, player: Colour, by: Colour | None) -> None:
        """Puts a player out on the board: in free-for-all his pieces, king included, stay as
        dead pieces (rules §2.4); elsewhere his king goes and his army passes to ``by`` (a mate,
        rules §1.8) or to nobody (resignation, time forfeit: inert pieces, rules §1.10)."""
        if self.mode == "ffa":
            self._board.eliminate(player, by=None, keep_king=True)
        else:
            self._board.eliminate(player, by=by)

    def _resolve_turn(self) -> None:
        """Examines the players in turn: a player to move with no legal move is mated or
        stalemated, which may end the game or pass the turn on."""
        board = self._board
        while self._outcome is None and not board.legal_moves:
            player = board.turn
            if board.status(player) != Status.ACTIVE:
                break  # nobody left to move; the ending rules below decide
            mater = board.mated_by()
            if mater is not None:
                self._eliminate(player, mater)
                self._record_out(player, Reason.CHECKMATE, mater)
            elif self.mode == "ffa":
                # A stalemated player is out, and scores 20 himself (rules §2.4).
                self._eliminate(player, None)
                self._record_out(player, Reason.STALEMATE, None)
            elif self.mode == "teams":
                self._eliminations.append(Elimination(player, Reason.STALEMATE, None, self.ply))
                self._finish(Termination.STALEMATE, draw=True)
            else:
                board.set_status(player, Status.FROZEN)
                self._record_frozen(player)

    def _record_out(self, player: Colour, reason: Reason, by: Colour | None) -> None:
        if self.mode == "ffa":
            self._record_out_ffa(player, reason, by)
            return
        if self.mode == "teams":
            # Mating one opponent (or capturing his king) wins for the team; a resignation or
            # time forfeit loses for the team (rules §2.3).
            self._eliminations.append(Elimination(player, reason, by, self.ply))
            termination = Termination.KING_CAPTURE if reason is Reason.KING_CAPTURE else Termination(reason.value)
            losers = {player, self.colours[(self.colours.index(player) + 2) % 4]}
            self._finish(termination, places={p: 3 if p in losers else 1 for p in self.colours})
            return
        earlier_out = [e for e in self._eliminations if e.reason is not Reason.STALEMATE]
        frozen = [p for p in self.colours if self._board.status(p) == Status.FROZEN]
        self._eliminations.append(Elimination(player, reason, by, self.ply))
        n = len(self.seats)
        remaining = [p for p in self.colours if self._board.status(p) == Status.ACTIVE]
        termination = Termination.KING_CAPTURE if reason is Reason.KING_CAPTURE else Termination(reason.value)
        if self.first_mate_wins:
            # The mater wins and everyone else shares last place (rules §1.11); after a
            # resignation or time forfeit, the players still in share first place.
            if by is not None:
                self._finish(termination, places={p: (1 if p == by else 2) for p in self.colours})
            else:
                self._finish(termination, places={p: (len(self.seats) if p == player else 1) for p in self.colours})
            return
        self._places[player] = n - len(earlier_out)
        if frozen:
            # After a stalemate, a mate ends the game: mater (the last active player) first,
            # the mated and the frozen share second (rules §1.9).
            for p in frozen:
                self._places[p] = 2
            self._places[player] = 2
            self._finish(termination, places={p: self._places.get(p, 1) for p in self.colours})
        elif len(remaining) <= 1:
            self._finish(termination, places={p: self._places.get(p, 1) for p in self.colours})

    def _record_out_ffa(self, player: Colour, reason: Reason, by: Colour | None) -> None:
        self._eliminations.append(Elimination(player, reason, by, self.ply))
        if reason in (Reason.CHECKMATE, Reason.KING_CAPTURE) and by is not None:
            self._points[by] += 20
        elif reason is Reason.STALEMATE:
            self._points[player] += 20
        if len(self.active_players()) <= 1:
            termination = Termination.KING_CAPTURE if reason is Reason.KING_CAPTURE else Termination(reason.value)
            self._finish(termination, by_points=True)

    def _score_move(self, mover: Colour, controllers: dict[Colour, Colour | None], king_captured: bool,
                    attacks_before: KingAttacks) -> None:
        """Free-for-all points of a move (rules §2.4): the captured live piece, checks of
        several kings at once, then every other player mated by it, judged in turn order."""
        board = self._board
        captured = board._core.last_captured()
        if captured is not None and not king_captured:
            colour = board.colours[captured[0]]
            if controllers[colour] is not None:  # dead pieces score nothing
                self._points[mover] += _CAPTURE_POINTS[Kind(captured[1])]
        # The kings the move puts in check, as PGN4's '+' marks count them (polychess.checks):
        # a king already in check before the move counts only if the move adds a checker.
        checked = checks_given(attacks_before, board)
        if len(checked) >= 2:
            by_queens = all(p.kind in (Kind.QUEEN, Kind.ONE_POINT_QUEEN) for ps in checked.values() for p in ps)
            self._points[mover] += {2: (5, 1), 3: (20, 5)}[min(len(checked), 3)][by_queens]
        self._confirm_mates(mover)

    def _confirm_mates(self, mover: Colour | None) -> None:
        """Free-for-all confirms mates at once (rules §2.4): every other player, in turn order
        after the mover, is examined after the eliminations before him, and a mate is credited
        to the mover (as chess.com scores them). The start position (``mover`` None) is
        examined the same way from the player to move on; a mate found there is no move's
        doing and is credited to nobody."""
        board = self._board
        order = board.colours
        first = order.index(board.turn) if mover is None else order.index(mover) + 1
        for i in range(len(order)):
            player = order[(first + i) % len(order)]
            if player == mover or self._outcome is not None or board.status(player) != Status.ACTIVE:
                continue
            # the core's own choice of mater (its third answer) is not used here
            in_check, moves, _ = board._core.examine(order.index(player), order.index(mover or player))
            if in_check and moves == 0:
                self._eliminate(player, None)
                self._record_out(player, Reason.CHECKMATE, mover)

    def _record_frozen(self, player: Colour) -> None:
        self._eliminations.append(Elimination(player, Reason.STALEMATE, None, self.ply))
        out = [e for e in self._eliminations if e.reason is not Reason.STALEMATE]
        frozen = [p for p in self.colours if self._board.status(p) == Status.FROZEN]
        if len(self.seats) == 2 or out or len(frozen) >= 2:
            # A second stalemate, or a stalemate after a mate, is a draw of everyone not mated.
            self._finish(Termination.STALEMATE, draw=True)

    def _check_draws(self) -> None:
        board = self._board
        key = board.zobrist_key
        self._repetitions[key] += 1
        if self._steps:  # the start position is counted for good; later ones until taken back
            self._steps[-1].repetition = key
        if self._repetitions[key] >= 3:
            self._finish(Termination.THREEFOLD_REPETITION, draw=True)
        elif board.halfmove_clock >= 50 * len(self.active_players()):
            self._finish(Termination.FIFTY_MOVES, draw=True)
        elif self.variant != "four-player" and _insufficient_material(board):
            # rules §1.10 and §3; four-player chess knows no such draw (§2.3, §2.4)
            self._finish(Termination.INSUFFICIENT_MATERIAL, draw=True)
        else:
            self._check_points_lead()

    def _check_move_limit(self) -> None:
        """At the move limit, teams draw and free-for-all ranks by points (rules §2.4)."""
        if self.move_limit is not None and self._ply >= self.move_limit:
            if self.mode == "ffa":
                self._finish(Termination.MOVE_LIMIT, by_points=True)
            else:
                self._finish(Termination.MOVE_LIMIT, draw=True)

    def _check_points_lead(self) -> None:
        """Free-for-all: with two players left, a lead of 21 points ends the game (rules §2.4)."""
        if self.mode == "ffa" and len(self.active_players()) == 2:
            a, b = (self._points[p] for p in self.active_players())
            if abs(a - b) >= 21:
                self._finish(Termination.POINTS_LEAD, by_points=True)

    def _finish(self, termination: Termination, places: dict[Colour, int] | None = None, draw: bool = False,
                by_points: bool = False) -> None:
        if draw and self.mode == "ffa":
            # A free-for-all draw gives each remaining player 10 points, then ranks by points.
            for p in self.active_players():
                self._points[p] += 10
            by_points = True
        if by_points:
            places = {p: 1 + sum(q > self._points[p] for q in self._points.values()) for p in self.seats}
        elif draw:
            # A draw shares first place among everyone not yet out; the out keep theirs.
            places = {p: self._places.get(p, 1) for p in self.colours}
        assert places is not None
        places = {p: places[p] for p in self.seats}
        points = dict(self._points) if self.mode == "ffa" else None
        self._outcome = Outcome(termination, places, tuple(self._eliminations), points)

    def _require_running(self) -> None:
        if self._outcome is not None:
            raise GameOverError(f"the game is over ({self._outcome.termination.value})")

    def _save(self) -> None:
        clock = None if self.clock is None else self.clock.copy()
        self._steps.append(_Step(len(self._eliminations), dict(self._places), self._outcome, len(self._history),
                                 self._board_length, clock, dict(self._points), self._ply))

    def _finish_step(self) -> None:
        self._board_length = self._board._core.history_length()


_CAPTURE_POINTS = {Kind.PAWN: 1, Kind.KNIGHT: 3, Kind.BISHOP: 5, Kind.ROOK: 5, Kind.QUEEN: 9, Kind.ONE_POINT_QUEEN: 1,
                   Kind.KING: 0}


def _insufficient_material(board: Board) -> bool:
    """Only kings left (rules §1.10); in standard chess also the FIDE dead positions of king
    and minor piece against king, and bishops all on one colour."""
    pawns, knights, bishops, rooks, queens, _, one_point_queens = board._core.piece_counts()
    if pawns + knights + bishops + rooks + queens + one_point_queens == 0:
        return True
    if board.variant != "standard" or pawns + rooks + queens > 0 or knights + bishops > 2:
        return False
    others = [(cell, p) for cell, p in board.pieces().items() if p.kind is not Kind.KING]
    kinds = [p.kind for _, p in others]
    if len(others) == 1 and kinds[0] in (Kind.KNIGHT, Kind.BISHOP):
        return True
    if all(k is Kind.BISHOP for k in kinds):
        layout = board.layout
        return len({layout.is_dark(layout.index(cell)) for cell, _ in others}) == 1
    return False


def _two_player_start(neutrality: bool) -> str:
    """The three-player start without Black (seed 000 §6.5): White and Red play."""
    board = Board("three-player", neutrality=neutrality)
    placement, *rest = board.fen().split(" ")
    rows = placement.split("/")
    rows = [_drop_colour(row, "b") for row in rows]
    fields = list(rest)
    fields[1] = fields[1].replace("bKQ", "")  # castling
    fields[5] = "wr-"  # controllers
    fields[6] = "aax"  # statuses
    return " ".join(["/".join(rows), *fields])


def _drop_colour(row: str, colour: str) -> str:
    cells: list[str] = []
    i = 0
    while i < len(row):
        if row[i].isdigit():
            cells.extend([""] * int(row[i]))
            i += 1
        else:
            cells.append("" if row[i] == colour else row[i : i + 2])
            i += 2
    out, run = "", 0
    for c in cells:
        if not c:
            run += 1
            continue
        if run:
            out += str(run)
        out, run = out + c, 0
    return out + (str(run) if run else "")


class _Finished:
    """Stands in for a board in the legal-move view of a finished game."""

    class _NoMoves:
        def legal_moves(self) -> list[Move]:
            return []

        def count_legal_moves(self) -> int:
            return 0

        def parse_move(self, text: str) -> Move:
            raise ValueError("the game is over")

        def is_legal(self, move: Move) -> bool:
            return False

    _core = _NoMoves()


_FINISHED: Board = _Finished()  # type: ignore[assignment]
