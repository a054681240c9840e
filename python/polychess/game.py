"""A whole game: turns, eliminations and transfers, frozen players, places, points, draws,
clocks.

The rules of each game are declared in :mod:`polychess.rules` and executed by the core's game
state (``cpp/core/game_state.h``): after every move it applies what the move causes (king capture,
mate, transfer, freeze, dead army, points, the end). This module orchestrates a game around it:
options, clocks, resignations, draw agreement, the record of moves and events, and the results
as Python values. Every step can be taken back with :meth:`Game.pop`.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, overload

from polychess import _core
from polychess.board import Board, Colour, LegalMoves, Move, Status
from polychess.catalogue import GameKind, kind_of
from polychess.clock import Clock
from polychess.deprecation import warn_renamed
from polychess.options import OptionError, Options, option, validate_options
from polychess.outcome import (
    Elimination,
    Outcome,
    Reason,
    Termination,
    eliminations_by_move,
    eliminations_of,
    read_outcome,
    result_token,
)
from polychess.rules import Rules, rules_for

__all__ = [
    "Game",
    "Outcome",
    "Termination",
    "Elimination",
    "Reason",
    "Step",
    "History",
    "GameOverError",
    "TimeForfeitError",
    "eliminations_by_move",
    "result_token",
]


GameOverError = _core.GameOverError  # raised by the core, which knows when the game is over
GameOverError.__doc__ = """A move or event was offered after the game ended."""
GameOverError.__module__ = __name__


class TimeForfeitError(ValueError):
    """The mover's time ran out before his move: he lost on time and the move was not played."""


@dataclass(frozen=True)
class Step:
    """A step of a game, as :attr:`Game.steps` lists them: its token as records write it (the
    move text, ``resign(red)``, ``timeout(red)``, ``draw``), the player who moved, resigned or
    lost on time (None for a draw agreed), the move if the step was one, the position's move
    number when it was taken, and why the player left if he did (a resignation or a time
    forfeit; None for a move or a draw)."""

    token: str
    player: Colour | None
    move: Move | None
    fullmove: int
    reason: Reason | None = None


class History(Sequence[str]):
    """A game's moves and events up to a moment, as records write them (:attr:`Game.history`): a
    read-only snapshot, taken at no cost whatever the game's length (later steps do not change
    it). It compares equal to a list or tuple of the same tokens; ``list(history)`` is a list."""

    __slots__ = ("_tokens", "_length")

    def __init__(self, tokens: list[str], length: int) -> None:
        # ``tokens`` is only ever appended to (a game that takes a step back starts a new list),
        # so its first ``length`` are this moment's for good.
        self._tokens = tokens
        self._length = length

    def __len__(self) -> int:
        return self._length

    @overload
    def __getitem__(self, index: int) -> str: ...
    @overload
    def __getitem__(self, index: slice) -> list[str]: ...
    def __getitem__(self, index: int | slice) -> str | list[str]:
        if isinstance(index, slice):
            return self._tokens[slice(*index.indices(self._length))]
        at = index + self._length if index < 0 else index
        if not 0 <= at < self._length:
            raise IndexError("history index out of range")
        return self._tokens[at]

    def __iter__(self) -> Iterator[str]:
        return itertools.islice(self._tokens, self._length)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, (History, list, tuple)):
            return len(other) == self._length and all(a == b for a, b in zip(self, other, strict=True))
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]  # equal to lists, which have none

    def __add__(self, other: Sequence[str]) -> list[str]:
        return [*self, *other]

    def __radd__(self, other: Sequence[str]) -> list[str]:
        return [*other, *self]

    def __repr__(self) -> str:
        return repr(list(self))


_new_object = object.__new__


class _GameLegalMoves(LegalMoves):
    """A live view of the legal moves of a game's player to move, as the game judged them (none
    once it is over; the core reads them once a step)."""

    __slots__ = ("_state",)

    def __init__(self, state: _core.GameState) -> None:
        self._state = state

    def __iter__(self) -> Iterator[Move]:
        return iter(self._state.legal_moves())

    def __len__(self) -> int:
        return len(self._state.legal_moves())

    def __bool__(self) -> bool:
        return bool(self._state.legal_moves())

    def __contains__(self, move: object) -> bool:
        if not isinstance(move, (str, Move)):
            return False
        try:
            self._state.legal_move(move)
        except ValueError:
            return False
        return True


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
    variant takes ``first_player``, the seat that moves first. ``points`` gives a free-for-all
    game that starts from a position its players' points so far (a FEN4 carries them).

    The options are checked by :func:`polychess.options.validate_options`: an unknown value, a
    value out of range or an option of another variant raises
    :class:`~polychess.options.OptionError` (a ``ValueError``) naming the option and what is
    allowed. The start position is judged at once, as any position after a move. ``rules`` is
    the game's declaration (:mod:`polychess.rules`) with the options applied.
    """

    # The steps as Step objects, and the core's change count they stand for (-1: none read).
    _step_list: list[Step]
    _steps_at: int

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
        points: Mapping[Colour, int] | Mapping[str, int] | None = None,
    ) -> None:
        options = validate_options(
            dict(
                variant=variant,
                first_mate_wins=first_mate_wins,
                neutrality=neutrality,
                players=players,
                time_control=time_control,
                increment=increment,
                hourglass=hourglass,
                start=start,
                mode=mode,
                setup=setup,
                move_limit=move_limit,
                first_player=first_player,
                rotate_first_player=rotate_first_player,
            )
        )
        self.options: Options = options  # as checked by polychess.options, every one resolved
        self.rules: Rules = rules_for(options)
        self.variant = options.variant
        self.move_limit = options.move_limit
        self.rotate_first_player = options.rotate_first_player
        self.time_control = options.time_control
        self._time_source = time_source
        # The option (of the games that have it): whether the rules let the first mate end the game.
        self.first_mate_wins = self.rules.first_out_decides and self.variant in option("first_mate_wins").variants
        self.neutrality = self.rules.neutrality
        game = kind_of(options.variant, options.mode, options.setup)
        start = _two_player_start(game, self.rules) if options.players == 2 else options.start
        self._board = Board._played_by(game, start, self.rules)
        if options.first_player is not None:
            # Every variant's position string names the side to move by its colour's initial.
            fields = self._board.fen().split(" ")
            fields[1] = options.first_player.value[0]
            self._board = Board._played_by(game, " ".join(fields), self.rules)
        self.mode = self._board.mode
        self.setup = self._board.setup
        self.start_fen = self._board.fen()  # the start position's string (FEN, FEN4 or polychess's own)
        # The core judges the start position as a position after a move, so that a game that is
        # over before anyone moves (a mate, a stalemate, bare kings) says so at once.
        self.start_points = self._start_points(points)
        colours = self._board.colours
        self._state = _core.GameState(self._board._core, [self.start_points.get(c, 0) for c in colours])
        # Seats with a player at the start (players=2 leaves Black's seat empty).
        self.seats: tuple[Colour, ...] = tuple(c for p, c in enumerate(colours) if self._state.seats >> p & 1)
        self.players = options.players or len(colours)
        self.clock: Clock | None = None
        if options.time_control is not None:
            self.clock = Clock(colours, options.time_control, options.increment, options.hourglass, time_source)
        self._clocks: list[Clock] = []  # a timed game's clock as it stood before each step: pop() restores it
        self._legal_moves = _GameLegalMoves(self._state)
        self._outcome: tuple[int, Outcome | None] = (-1, None)  # read once a step (the core's change count)
        self._step_list, self._steps_at = [], -1

    @classmethod
    def from_kind(
        cls, kind: GameKind, start: str | None = None, points: Mapping[Colour, int] | None = None, **options: Any
    ) -> Game:
        """A game of ``kind`` (:mod:`polychess.catalogue`) from ``start`` (a position string; None:
        the start position) with ``points`` (games ranked by points) and other options."""
        if kind.mode is not None:
            options.update(mode=kind.mode, setup=kind.setup)
        if points:
            options["points"] = points
        return cls(kind.variant, start=start, **options)

    # -- reading the game -----------------------------------------------------------------

    @property
    def board(self) -> Board:
        """A copy of the current position (changing it does not change the game)."""
        return self._board.copy()

    @property
    def kind(self) -> GameKind:
        """The game's entry in the catalogue (:mod:`polychess.catalogue`): its board, colours,
        sides, declared rules and record format."""
        return self._board.kind

    @property
    def live_board(self) -> Board:
        """The game's own board, live (not a copy, unlike :attr:`board`): to read without
        copying. Play through the game, never on this board."""
        return self._board

    @property
    def position(self) -> Board:
        """Deprecated: :attr:`live_board` (the position as a string is ``live_board.fen()``)."""
        warn_renamed("Game.position", "Game.live_board")
        return self._board

    @property
    def start_position(self) -> str:
        """Deprecated: :attr:`start_fen`."""
        warn_renamed("Game.start_position", "Game.start_fen")
        return self.start_fen

    @property
    def state(self) -> _core.GameState:
        """The compiled core's game state (``polychess._core.GameState``), for low-level work
        (the search, observations, batches of games): playing through it directly bypasses
        the clock."""
        return self._state

    @property
    def turn(self) -> Colour:
        return self._board.turn

    @property
    def colours(self) -> tuple[Colour, ...]:
        return self._board.colours

    @property
    def legal_moves(self) -> LegalMoves:
        """The legal moves of the player to move (none once the game is over)."""
        return self._legal_moves

    @property
    def history(self) -> History:
        """Moves and events in order, as they are written in game records: a read-only
        :class:`History` (a sequence, equal to the list of the same tokens) taken at no cost."""
        tokens = self._state._history  # the core's, read where it grew
        view = _new_object(History)  # History(tokens, len(tokens)) without the call to __init__: read every ply
        view._tokens, view._length = tokens, len(tokens)
        return view

    @property
    def steps(self) -> tuple[Step, ...]:
        """Every step with who took it and the move number then (:class:`Step`)."""
        changes = self._state.changes
        if self._steps_at != changes:
            # Each step taken or taken back counts one change: as many new steps as changes
            # means nothing was taken back (through ``state`` too), and the steps made stand.
            new = self._state.steps(len(self._step_list))
            if self._steps_at < 0 or changes - self._steps_at != len(new):
                self._step_list, new = [], self._state.steps()
            colours = self.colours
            self._step_list += [
                Step(
                    token,
                    None if player is None else colours[player],
                    move,
                    fullmove,
                    None if reason is None else Reason(reason),
                )
                for token, player, move, fullmove, reason in new
            ]
            self._steps_at = changes
        return tuple(self._step_list)

    @property
    def eliminations(self) -> tuple[Elimination, ...]:
        return tuple(eliminations_of(self._state, self.colours))

    @property
    def fullmove_number(self) -> int:
        return self._board.fullmove_number

    @property
    def ply(self) -> int:
        """Number of moves played."""
        return int(self._state.ply)

    @property
    def points(self) -> dict[Colour, int]:
        """Games ranked by points (four-player free-for-all): every seat's points so far (empty in
        other games)."""
        if self.rules.ranking != "points":
            return {}
        points = self._state.points
        return {p: points[self._board.colours.index(p)] for p in self.seats}

    def next_game(self) -> Game:
        """A new game with the same options; with ``rotate_first_player`` the first move
        passes one seat further clockwise."""
        start_turn = next(c for c in self.colours if c.value[0] == self.start_fen.split(" ")[1])
        first = start_turn
        if self.rotate_first_player:  # one seat further clockwise, among the seats in play
            first = self.seats[(self.seats.index(start_turn) + 1) % len(self.seats)]
        arguments = {**self.options.arguments(), "first_player": first}
        return Game(self.variant, time_source=self._time_source, **arguments)  # type: ignore[arg-type]

    def copy(self) -> Game:
        """An independent copy of the game as it stands: position, history, outcome and clock
        (which goes on with the same time source)."""
        other = Game.__new__(Game)
        other.__dict__.update(self.__dict__)
        other._state = self._state.clone()
        other._legal_moves = _GameLegalMoves(other._state)
        # The copy's game plays on the copy's board.
        other._board = board = Board.__new__(Board)
        board._core, board._kind, board._rules, board._layout = (
            other._state.board,
            self._board._kind,
            self._board._rules,
            self._board._layout,
        )
        other.clock = None if self.clock is None else self.clock.copy()
        other._clocks = [c.copy() for c in self._clocks]
        # The copy's core counts its changes from its own start.
        current = self._steps_at == self._state.changes
        other._step_list = list(self._step_list) if current else []
        other._steps_at = other._state.changes if current else -1
        return other

    __copy__ = copy

    def __deepcopy__(self, memo: dict[int, object]) -> Game:
        return self.copy()

    def outcome(self) -> Outcome | None:
        """The outcome, or None while the game runs."""
        if not self._state.is_terminal():  # the ordinary case, asked every ply: one read
            return None
        changes = self._state.changes
        read_at, outcome = self._outcome
        if read_at != changes:
            outcome = self._read_outcome()
            self._outcome = (changes, outcome)
        return outcome

    def is_over(self) -> bool:
        return self._state.is_terminal()

    is_game_over = is_over  # python-chess's name

    def result(self) -> str:
        """The result as a record writes it (:func:`result_token`): ``1-0``, ``0-1`` or
        ``1/2-1/2`` in standard chess, each seat's place in seat order (``2-3-1``) in the
        others, ``*`` while the game runs."""
        return result_token(self.variant, self.outcome())

    def status(self, player: Colour | str) -> Status:
        """Active, frozen or out. A game decided by its first player out ends on the position
        in which he went out (his king and army stay on the board), so the game, not the
        board, says that he is out."""
        return self._state.status(self._board._index(player))

    def active_players(self) -> list[Colour]:
        return [p for p in self.colours if self.status(p) == Status.ACTIVE]

    def __str__(self) -> str:
        """The current position as a text board (``str(game.board)``)."""
        return str(self._board)

    def __repr__(self) -> str:
        options = "".join(
            f", {name}={value!r}" for name, value in self.options.arguments().items() if name != "variant"
        )
        return f"<Game {self.variant!r}{options} ply={self.ply} {self.turn} to move>"

    def _repr_svg_(self) -> str:
        """The picture Jupyter shows: the current position with the last move highlighted."""
        from polychess import svg  # svg imports this module

        stack = self._board._core.move_stack()
        return svg.board(self._board, lastmove=stack[-1] if stack else None)

    # -- playing --------------------------------------------------------------------------

    def push(self, move: Move | str) -> Move:
        """Plays a legal move of the player to move (a Move or its text) and everything it
        entails, and returns the move.

        Raises :class:`~polychess.IllegalMoveError` (game unchanged) for an illegal move,
        :class:`GameOverError` after the end, and :class:`TimeForfeitError` if the mover's
        time had run out (then he has lost on time and the move was not played).
        """
        if self.clock is None:
            return self._state.push(move)  # one call into the core: found among the legal moves, played, judged
        found = self._state.legal_move(move)  # refused before the clock is read
        mover = self.turn
        before = self.clock.copy()
        if not self.clock.stop(mover, self.active_players()):  # stop() has started the next turn's clock
            self._state.time_forfeit(self.colours.index(mover))
            self._clocks.append(before)
            raise TimeForfeitError(f"{mover} ran out of time; the move {found} was not played")
        self._state.push(found)
        self._clocks.append(before)
        return found

    def resign(self, player: Colour | str) -> None:
        """The player resigns: he is out, ranked as if mated now, his king removed and his other
        pieces left as inert obstacles (rules §1.10)."""
        self._leave(Colour(player), self._state.resign)

    def flag(self) -> bool:
        """Checks the clock of the player to move; if his time has run out he loses on time.
        Returns whether that happened."""
        outcome = self.outcome()
        if outcome is not None:
            raise GameOverError(f"the game is over ({outcome.termination.value})")
        if self.clock is None or self.clock.remaining_now(self.turn) > 0:
            return False
        self.time_forfeit(self.turn)
        return True

    def time_forfeit(self, player: Colour | str) -> None:
        """The player loses on time (as an external clock decided): out, ranked as if mated
        now, king removed, other pieces inert (rules §1.10)."""
        self._leave(Colour(player), self._state.time_forfeit)

    def agree_draw(self) -> None:
        """All players still playing agree to a draw."""
        before = None if self.clock is None else self.clock.copy()
        self._state.agree_draw()
        if before is not None:
            self._clocks.append(before)

    def copy_at_start(self) -> Game:
        """A copy of the game taken back to its start, without a clock: to follow its steps
        again (:meth:`replay`)."""
        other = self.copy()
        other.clock, other._clocks = None, []
        while True:
            try:
                other.pop()
            except IndexError:  # nothing left to take back
                return other

    def replay(self, step: Step) -> None:
        """Takes a step of another game (one of its :attr:`steps`) here: its move, or its event
        (a resignation, a time forfeit, a draw agreed). How a game is followed step by step."""
        if step.move is not None:
            self.push(step.move)
        elif step.reason == Reason.RESIGNATION and step.player is not None:
            self.resign(step.player)
        elif step.reason == Reason.TIME_FORFEIT and step.player is not None:
            self.time_forfeit(step.player)
        elif step.token == "draw":
            self.agree_draw()
        else:
            raise ValueError(f"cannot replay the step {step.token!r}")

    def pop(self) -> Move | None:
        """Takes back the last move or event with everything it entailed. Returns the move taken
        back, as :meth:`Board.pop` does, or None for an event (a resignation, a time forfeit, a
        draw agreement); ``history[-1]`` names the step as records write it before it goes."""
        move = self._state.undo()  # IndexError if there is nothing to take back
        if self.clock is not None:
            self.clock = self._clocks.pop()
        return move

    # -- around the rules -----------------------------------------------------------------

    def _leave(self, player: Colour, leave: Callable[[int], None]) -> None:
        """A resignation or time forfeit: the player is out, as the rules say (the core)."""
        if player not in self.seats:
            raise ValueError(f"{player} is not playing")
        to_move = player == self.turn
        before = None if self.clock is None else self.clock.copy()
        leave(self.colours.index(player))  # GameOverError after the end, ValueError for a player out
        if self.clock is not None and before is not None:
            self._clocks.append(before)
            if to_move:
                self.clock.restart()  # the next player's turn begins now

    def _read_outcome(self) -> Outcome | None:
        """The outcome as the core's game state holds it."""
        return read_outcome(self._state, self._board.colours, self.rules.ranking == "points")

    def _start_points(self, points: Mapping[Colour, int] | Mapping[str, int] | None) -> dict[Colour, int]:
        """The points a game starts with, checked: only where points rank the players, a whole
        number of at least 0 for a colour of the game."""
        if not points:
            return {}
        if self.rules.ranking != "points":
            raise OptionError(
                "points", "{points}: only a game ranked by points (four-player free-for-all) starts with points"
            )
        checked: dict[Colour, int] = {}
        for name, value in points.items():
            try:
                colour = Colour(name)
            except ValueError:
                raise OptionError("points", f"{{points}}: no colour {name!r}") from None
            if colour not in self._board.colours:
                raise OptionError("points", f"{{points}}: {colour.value} does not play {self.variant}")
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise OptionError(
                    "points", f"{{points}}: {colour.value}'s must be a whole number of at least 0, got {value!r}"
                )
            checked[colour] = value
        return checked


def _two_player_start(game: GameKind, rules: Rules) -> str:
    """The start of the hexagon without Black (the ``players=2`` option of three-player chess,
    seed 000 §6.5): White and Red play."""
    board = Board._played_by(game, None, rules)
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
