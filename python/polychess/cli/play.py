"""``polychess play``: a game in the terminal between any mix of humans and engines.

The session reads standard input line by line (no curses), so a game can be played at a
terminal, through a pipe or from a script alike. A line is a move in the notation of docs/rules.md §4
(``E2E4``, ``h2h3``, ``A11A12Q``) or a command (see ``HELP``).
"""

from __future__ import annotations

import argparse
import sys
import textwrap
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TextIO

from polychess import text_board
from polychess.board import Board, Colour, PieceType, Status
from polychess.cli.common import (
    EngineSpec,
    UsageError,
    add_budget_options,
    add_color_options,
    add_game_options,
    budget_from_args,
    colour_arg,
    game_from_args,
    parse_colour_list,
    parse_engine_spec,
    use_color,
)
from polychess.cli.wording import plural
from polychess.engine import Engine
from polychess.errors import IllegalMoveError, InvalidMoveError
from polychess.formats import write_pgn4, write_record
from polychess.game import Elimination, Game, GameOverError, Reason, TimeForfeitError

__all__ = ["Seat", "Session", "add_parser", "assign_seats", "engine_accepts_draw"]

HELP = """\
Type a move as from-cell and to-cell: E2E4 (three-player), h2h3 (four-player) or
e2e4 (standard), with the promotion piece at the end (A11A12Q). Castling is the
king's move (E1G1).
Commands:
  moves        list the legal moves
  board        draw the board again
  fen          print the position string
  undo         take back the last move of a human (and the engines' replies after it)
  draw         offer a draw: every other human is asked; an engine accepts unless it has
               more material than each of its opponents (its team's, in teams mode)
  resign       resign for the player to move
  save FILE    write the game record (FILE.pgn4 for four-player chess: chess.com's PGN4)
  help         this text
  quit         leave the game"""

DESCRIPTION = """\
Play a game in the terminal, between any mix of humans and engines. The board is redrawn
after every move; the three-player hexagon is drawn as the real board looks, each cell with
its name under the piece on it (--compact: one line per cell)."""

# Shown by --help after the options; the in-game help (HELP) follows it there.
EPILOG = """\
Seats: with no seat option you play the first seat and the engine plays the others.
  --humans white,red     White and Red are human, the others engines.
  --engines red,black    Red and Black are engines, the others human.
  --humans all           Every seat human (--humans none: engines only).
  --seat red=engine:nodes=20000,depth=4
                         One seat: human, engine or engine:SETTINGS (nodes, depth,
                         time, hash, level or elo), applied after --humans or --engines.

During the game:
"""

_MATERIAL = {
    PieceType.PAWN: 1,
    PieceType.KNIGHT: 3,
    PieceType.BISHOP: 3,
    PieceType.ROOK: 5,
    PieceType.QUEEN: 9,
    PieceType.ONE_POINT_QUEEN: 9,
    PieceType.KING: 0,
}
_ORDINALS = {1: "1st", 2: "2nd", 3: "3rd"}


@dataclass
class Seat:
    """Who plays a colour: a human (``spec`` None) or an engine."""

    colour: Colour
    spec: EngineSpec | None = None
    engine: Engine | None = field(default=None, repr=False)

    @property
    def human(self) -> bool:
        return self.spec is None

    def describe(self) -> str:
        return "human" if self.spec is None else self.spec.describe()


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = sub.add_parser(
        "play",
        help="play a game in the terminal (humans and engines)",
        description=DESCRIPTION,
        epilog=EPILOG + textwrap.indent(HELP, "  "),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_game_options(parser)
    seats = parser.add_argument_group("seats")
    seats.add_argument("--humans", metavar="COLOURS", help="the human seats (comma-separated, all, none)")
    seats.add_argument("--engines", metavar="COLOURS", help="the engine seats (comma-separated, all, none)")
    seats.add_argument(
        "--seat",
        action="append",
        default=[],
        metavar="COLOUR=PLAYER",
        help="human, engine or engine:nodes=N,depth=N,time=S,hash=MB,level=N (repeatable)",
    )
    add_budget_options(parser)
    view = parser.add_argument_group("display")
    view.add_argument(
        "--orientation",
        type=colour_arg,
        metavar="COLOUR",
        help="whose side is drawn at the bottom (default: the only human's, else the first seat)",
    )
    view.add_argument("--compact", action="store_true", help="three-player: one text line per cell")
    add_color_options(view)
    parser.add_argument("--save", metavar="FILE", help="write the game record to FILE when the session ends")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    if sys.stdin.isatty():
        try:
            import readline  # noqa: F401  (imported for its effect on input(): editing, history)
        except ImportError:  # not on every platform
            pass
    game = game_from_args(args)
    seats = assign_seats(game.seats, args.humans, args.engines, args.seat, budget_from_args(args))
    if args.orientation is not None and args.orientation not in game.colours:
        raise UsageError(f"--orientation: no colour {args.orientation.value!r} in {game.variant}")
    session = Session(
        game,
        seats,
        stdin=sys.stdin,
        stdout=sys.stdout,
        color=use_color(args.color, sys.stdout),
        orientation=args.orientation,
        compact=args.compact,
        save=args.save,
    )
    return session.run()


def assign_seats(
    colours: tuple[Colour, ...], humans: str | None, engines: str | None, seat_options: list[str], default: EngineSpec
) -> dict[Colour, Seat]:
    """The players of every seat, from --humans, --engines and --seat (see EPILOG)."""
    if humans is not None and engines is not None:
        raise UsageError("give --humans or --engines, not both (--seat sets single seats)")
    if humans is not None:
        human = set(parse_colour_list(humans, colours, "--humans"))
    elif engines is not None:
        human = set(colours) - set(parse_colour_list(engines, colours, "--engines"))
    else:
        human = {colours[0]}
    seats = {c: Seat(c, None if c in human else default) for c in colours}
    for option in seat_options:
        name, sep, player = option.partition("=")
        if not sep:
            raise UsageError(f"--seat {option!r}: expected COLOUR=PLAYER, e.g. red=engine:nodes=20000")
        colour = parse_colour_list(name, colours, "--seat")
        if len(colour) != 1:
            raise UsageError(f"--seat {option!r}: name one colour")
        player = player.strip().lower()
        seats[colour[0]] = Seat(colour[0], None if player == "human" else parse_engine_spec(player, default))
    return seats


def material(board: Board) -> dict[Colour, int]:
    """Material (pawn 1, knight and bishop 3, rook 5, queen 9) of the pieces each player
    controls; pieces nobody controls count for nobody."""
    totals = {c: 0 for c in board.colours}
    for piece in board.pieces().values():
        controller = board.controller(piece.colour)
        if controller is not None:
            totals[controller] += _MATERIAL[piece.piece_type]
    return totals


def engine_accepts_draw(game: Game, colour: Colour) -> bool:
    """The engines' rule for a draw offer: accept unless ahead in material of every opponent
    (with partners, unless the own team is ahead of the other team)."""
    totals = material(game.live_board)
    team = next(side for side in game.kind.sides if colour in side)
    if len(team) > 1:
        own = sum(totals[c] for c in team)
        return own <= sum(totals.values()) - own
    opponents = [totals[c] for c in game.seats if c != colour and game.status(c) != Status.OUT]
    return not opponents or totals[colour] <= max(opponents)


class Session:
    """One game at the terminal: draws the board, asks humans for moves, lets engines move,
    announces what happens, until the game ends or the input does."""

    def __init__(
        self,
        game: Game,
        seats: Mapping[Colour, Seat],
        *,
        stdin: TextIO,
        stdout: TextIO,
        color: bool = False,
        orientation: Colour | None = None,
        compact: bool = False,
        save: str | None = None,
    ) -> None:
        self.game = game
        self.seats = dict(seats)
        self.stdin = stdin
        self.out = stdout
        self.color = color
        self.compact = compact
        self.save_path = save
        humans = [c for c, s in seats.items() if s.human]
        self.orientation = orientation or (humans[0] if len(humans) == 1 else game.colours[0])
        # One entry per step of the game (move or event), True when a human took it: undo
        # goes back to the last human step.
        self.human_steps: list[bool] = []
        # Echo what was read when the input is not a terminal, so that a transcript of a
        # scripted session reads like a session.
        isatty = getattr(stdin, "isatty", None)
        self.echo = not (isatty and isatty())
        self.commands: dict[str, Callable[[list[str]], bool]] = {
            "help": self._help,
            "?": self._help,
            "moves": self._moves,
            "board": self._board,
            "fen": self._fen,
            "undo": self._undo,
            "draw": self._draw_offer,
            "resign": self._resign,
            "save": self._save,
            "quit": self._quit,
            "exit": self._quit,
        }

    # -- the loop -------------------------------------------------------------------------

    def run(self) -> int:
        self._intro()
        self._draw()
        while True:
            if self.game.is_over():
                self._announce_result()
                if not any(s.human for s in self.seats.values()) or not self._after_game():
                    break
                continue
            seat = self.seats[self.game.turn]
            if seat.spec is not None:
                self._engine_move(seat)
            elif not self._human_turn():
                break
        if self.save_path:
            self._write(self.save_path)
        return 0

    def _human_turn(self) -> bool:
        """Reads one line and acts on it; False when the session should end."""
        line = self._read(f"{self._name(self.game.turn)} to move{self._clock_text()}> ")
        if line is None:
            self._say("End of input; the game is left unfinished." if not self.game.is_over() else "")
            return False
        words = line.split()
        if not words:
            return True
        command = self.commands.get(words[0].lower())
        if command is not None:
            return command(words[1:])
        self._human_move(line.strip())
        return True

    def _after_game(self) -> bool:
        """After the end: save, undo (which resumes the game), board, quit. False to end."""
        self._say("The game is over: save FILE, undo, board, moves or quit.")
        while self.game.is_over():
            line = self._read("> ")
            if line is None:
                return False
            words = line.split()
            if not words:
                continue
            name = words[0].lower()
            if name in ("save", "undo", "board", "fen", "help", "?", "quit", "exit"):
                if not self.commands[name](words[1:]):
                    return False
            else:
                self._say("The game is over; moves are no longer played (undo takes the last one back).")
        return True

    # -- moves ----------------------------------------------------------------------------

    def _human_move(self, text: str) -> None:
        try:
            self._step(lambda: self.game.push(text), human=True)
        except InvalidMoveError as error:
            self._say(
                f"{error}. Write a move as from-cell and to-cell, e.g. {_example(self.game)}; "
                "'help' lists the commands."
            )
        except IllegalMoveError as error:
            self._say(f"{error}; 'moves' lists the legal moves.")
        except GameOverError as error:
            self._say(str(error))

    def _engine_move(self, seat: Seat) -> None:
        assert seat.spec is not None
        if seat.engine is None:
            seat.engine = seat.spec.make()
        result = seat.spec.search(seat.engine, self.game)
        move = result.best_move if result.best_move is not None else next(iter(self.game.legal_moves))
        self._say(
            f"{self._name(self.game.turn)} plays {move}   "
            f"(depth {result.depth}, {plural(result.nodes, 'node', grouped=True)}, {result.seconds:.2f} s)"
        )
        self._step(lambda: self.game.push(move), human=False)

    def _step(self, action: Callable[[], object], *, human: bool) -> None:
        """Takes one step of the game (a move or an event) and announces what followed."""
        game = self.game
        before = len(game.eliminations)
        points = game.points
        steps = len(game.history)
        try:
            action()
        except TimeForfeitError as error:
            self._say(str(error).capitalize() + ".")
        if len(game.history) == steps:
            return  # nothing happened (the action raised before changing the game)
        self.human_steps.append(human)
        self._draw()
        for elimination in game.eliminations[before:]:
            self._say(self._elimination_text(elimination))
        if game.points and game.points != points:
            self._say("Points: " + ", ".join(f"{c.value.capitalize()} {p}" for c, p in game.points.items()))
        if not game.is_over() and game.board.is_check():
            self._say(f"{game.turn.value.capitalize()} is in check.")

    # -- commands (each returns False to end the session) ----------------------------------

    def _help(self, words: list[str]) -> bool:
        self._say(HELP)
        return True

    def _moves(self, words: list[str]) -> bool:
        moves = sorted(str(m) for m in self.game.legal_moves)
        self._say(f"{plural(len(moves), 'legal move')}: " + " ".join(moves))
        return True

    def _board(self, words: list[str]) -> bool:
        self._draw()
        return True

    def _fen(self, words: list[str]) -> bool:
        self._say(self.game.board.fen())
        return True

    def _undo(self, words: list[str]) -> bool:
        if True not in self.human_steps:
            self._say("There is no move of a human to take back.")
            return True
        taken = []
        while self.human_steps:
            human = self.human_steps.pop()
            taken.append(self.game.history[-1])
            self.game.pop()
            if human:
                break
        self._say(f"Took back {', '.join(reversed(taken))}.")
        self._draw()
        return True

    def _resign(self, words: list[str]) -> bool:
        player = self.game.turn
        self._step(lambda: self.game.resign(player), human=True)
        return True

    def _draw_offer(self, words: list[str]) -> bool:
        game, offerer = self.game, self.game.turn
        asked = [c for c in game.seats if c != offerer and game.status(c) != Status.OUT]
        for colour in asked:
            seat = self.seats[colour]
            if seat.human:
                answer = self._read(
                    f"{self._name(colour)}: {offerer.value.capitalize()} offers a draw. Accept? (yes/no)> "
                )
                accepted = answer is not None and answer.strip().lower() in ("y", "yes")
            else:
                accepted = engine_accepts_draw(game, colour)
            if not accepted:
                self._say(f"{self._name(colour)} declines the draw.")
                return True
            self._say(f"{self._name(colour)} accepts the draw.")
        self._step(game.agree_draw, human=True)
        return True

    def _save(self, words: list[str]) -> bool:
        if len(words) != 1:
            self._say("Usage: save FILE")
        else:
            self._write(words[0])
        return True

    def _quit(self, words: list[str]) -> bool:
        if not self.game.is_over():
            self._say("Game left unfinished.")
        return False

    # -- output ---------------------------------------------------------------------------

    def _write(self, path: str) -> None:
        tags = {
            c.value.capitalize(): ("human" if s.human else f"polychess {s.describe()}") for c, s in self.seats.items()
        }
        try:
            if path.lower().endswith(".pgn4"):
                if self.game.kind.record_format.name != "pgn4":
                    self._say("PGN4 is for four-player chess; save to another name for a game record.")
                    return
                text = write_pgn4(self.game, tags)
            else:
                text = write_record(self.game, tags)
            Path(path).write_text(text, encoding="utf-8")
        except (OSError, ValueError) as error:
            self._say(f"Could not save to {path}: {error}")
            return
        self._say(f"Saved the game to {path}.")

    def _intro(self) -> None:
        game = self.game
        options = [
            o
            for o, on in (
                ("first mate wins", game.first_mate_wins),
                ("neutrality", game.neutrality),
                (f"{game.mode}", game.mode is not None),
                (f"{game.setup} setup", game.setup),
            )
            if on
        ]
        self._say(f"polychess: {game.variant}{' (' + ', '.join(options) + ')' if options else ''}")
        for colour in game.seats:
            self._say(f"  {colour.value.capitalize():<7} {self.seats[colour].describe()}")
        if any(s.human for s in self.seats.values()):
            self._say("Type a move (e.g. " + _example(game) + ") or 'help'.")

    def _draw(self) -> None:
        game = self.game
        board = game.board
        last = board.move_stack[-1] if board.move_stack else None
        self._say(
            text_board.render(
                board, orientation=self.orientation, color=self.color, lastmove=last, compact=self.compact
            )
        )
        status = [f"move {board.fullmove_number}"]
        if last is not None:
            status.append(f"last move {last}")
        for colour in game.seats:
            state = game.status(colour)
            controller = board.controller(colour)
            if state == Status.FROZEN:
                status.append(f"{colour.value} frozen")
            elif state == Status.OUT and controller is not None and controller != colour:
                status.append(f"{colour.value}'s army plays for {controller.value}")
            elif state == Status.OUT:
                status.append(f"{colour.value} out")
        self._say("  ".join(status))

    def _announce_result(self) -> None:
        outcome = self.game.outcome()
        assert outcome is not None
        self._say(f"Game over: {outcome.termination.value}.")
        by_place: dict[int, list[Colour]] = {}
        for colour, place in outcome.places.items():
            by_place.setdefault(place, []).append(colour)
        for place in sorted(by_place):
            names = []
            for colour in by_place[place]:
                extra = f", {plural(outcome.points[colour], 'point')}" if outcome.points else ""
                names.append(f"{self._name(colour)}{extra}")
            shared = " (shared)" if len(by_place[place]) > 1 else ""
            self._say(f"  {_ORDINALS.get(place, f'{place}th')}{shared}: {'; '.join(names)}")

    def _elimination_text(self, e: Elimination) -> str:
        who = e.player.value.capitalize()
        by = e.by.value.capitalize() if e.by is not None else None
        board = self.game.board
        texts = {
            Reason.CHECKMATE: f"{who} is checkmated by {by}.",
            Reason.KING_CAPTURE: f"{by} captures {who}'s king: {who} is out.",
            Reason.RESIGNATION: f"{who} resigns.",
            Reason.TIME_FORFEIT: f"{who} loses on time.",
            Reason.STALEMATE: f"{who} is stalemated.",
        }
        text = texts[e.reason]
        if e.reason is Reason.STALEMATE and board.status(e.player) == Status.FROZEN:
            text += f" {who} is frozen: his pieces stay where they are and he no longer moves."
        controller = board.controller(e.player)
        if e.reason is not Reason.STALEMATE and controller is not None and controller != e.player:
            text += f" {who}'s army now plays for {controller.value.capitalize()}."
        mate_points = self.game.rules.points.mate
        if mate_points and e.reason in (Reason.CHECKMATE, Reason.KING_CAPTURE) and by:
            text += f" {by} scores {mate_points} points."
        return text

    def _name(self, colour: Colour) -> str:
        seat = self.seats.get(colour)
        kind = "engine" if seat is not None and not seat.human else "human"
        return f"{colour.value.capitalize()} ({kind})"

    def _clock_text(self) -> str:
        clock = self.game.clock
        if clock is None:
            return ""
        seconds = max(0.0, clock.remaining_now(self.game.turn))
        return f" [{int(seconds) // 60}:{int(seconds) % 60:02d}]"

    def _say(self, text: str) -> None:
        if text:
            print(text, file=self.out, flush=True)

    def _read(self, prompt: str) -> str | None:
        if not self.echo and self.stdin is sys.stdin and self.out is sys.stdout:
            # At a terminal, input() gives line editing and history (with readline).
            try:
                return input(prompt)
            except EOFError:
                self.out.write("\n")
                return None
        self.out.write(prompt)
        self.out.flush()
        line = self.stdin.readline()
        if not line:
            self.out.write("\n")
            return None
        if self.echo:
            self.out.write(line if line.endswith("\n") else line + "\n")
        return line.rstrip("\n")


def _example(game: Game) -> str:
    """A move text of the position (one a player may make), for the help."""
    moves = sorted(str(m) for m in game.legal_moves)
    return moves[len(moves) // 2] if moves else "<from><to>"
