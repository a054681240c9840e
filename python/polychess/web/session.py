"""One game being played in the browser: the Game, which seats the engine plays, and the
move list with the player of every move.

Requests for one game may arrive at once (a double click, the engine loop and a clock poll),
so every change happens under the session's lock. The engine searches a copy of the position
without holding that lock, so that the page stays responsive while it thinks; its move is
played only if the game has not moved on meanwhile.

A game played by invitation (:mod:`polychess.web.invitations`) knows which seats are whose;
draw offers and takebacks then need the consent of every other human still in the game.
Every change raises the session's ``version`` and wakes whoever waits on ``changed`` (the
pages' live updates), then calls ``on_change`` (the store saves the game; if it cannot, it
undoes the change with :meth:`Session.reset_to` and raises, so the change fails as a whole).

The games do not own engines: an engine's transposition table is megabytes, and a server
keeps up to a hundred games, so they borrow one from the server's :class:`EnginePool`.
"""

from __future__ import annotations

import collections
import os
import secrets
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

from polychess.board import Colour, Move, Status
from polychess.engine import Engine
from polychess.errors import IllegalMoveError, InvalidMoveError
from polychess.formats.any_format import export
from polychess.formats.notation import GameNotation
from polychess.game import Game, TimeForfeitError
from polychess.web.errors import ApiError
from polychess.web.invitations import Invitations
from polychess.web.options import SeatOptions

__all__ = ["Session", "Entry", "EnginePool", "Offer", "ENGINE_NAME", "HUMAN_NAME", "OFFER_KINDS"]

OFFER_KINDS = ("draw", "takeback")

ENGINE_NAME = "polychess engine"
HUMAN_NAME = "Human"
ENGINE_HASH_MB = 16
# A search uses one core, so more engines than cores would only make every search slower.
ENGINE_COUNT = max(1, min(4, os.cpu_count() or 1))
# A search ends within MAX_ENGINE_TIME (10 s), so a request waiting longer than this is queued
# behind several other games' searches; it is refused (503) rather than held indefinitely.
ENGINE_WAIT = 30.0


# Analysis and reviews are the players' leisure, engine seats their opponents' moves on a
# running clock: a client, and a game, may have this many analyses running at once (more is a
# 429), and with several engines one is always left for the seats.
ANALYSES_PER_CLIENT = 2
ANALYSES_PER_GAME = 2


class EnginePool:
    """The engines all the games of a server share: at most ``size``, each made when first
    needed, so the memory their tables take does not grow with the number of games.

    A game gets back the engine it used last when that one is free, with its table still warm
    from the game's earlier searches (an engine that last searched another game has its table
    cleared first, so that it holds the game at hand).

    Engine seats come first: an analysis or a review (``for_analysis``) takes an engine only
    while no seat waits for one and, where there are several, never the last free one; and a
    client and a game may run only so many analyses at once (ANALYSES_PER_CLIENT, _PER_GAME).
    """

    def __init__(self, size: int = ENGINE_COUNT, hash_mb: int = ENGINE_HASH_MB, wait: float = ENGINE_WAIT) -> None:
        if size < 1:
            raise ValueError(f"an engine pool needs at least one engine, got size {size}")
        if wait <= 0:
            raise ValueError(f"wait must be positive, got {wait}")
        self.size = size
        self.hash_mb = hash_mb
        self.wait = wait
        self._idle: list[Engine] = []
        self._made = 0
        self._last_game: dict[int, str] = {}  # id(engine) -> the id of the game it searched last
        self._available = threading.Condition()
        self._seats_waiting = 0
        self._analysing = 0  # engines held by analyses and reviews
        self._analyses: collections.Counter[str] = collections.Counter()  # by client and by game

    @property
    def engines_made(self) -> int:
        """How many engines (and tables) the pool has made; never more than ``size``."""
        with self._available:
            return self._made

    @property
    def analysis_engines(self) -> int:
        """How many engines analyses may hold at once: all but one, where there are several."""
        return max(1, self.size - 1)

    @contextmanager
    def engine_for(self, game_id: str, *, for_analysis: str | None = None) -> Iterator[Engine]:
        """An engine for one search of the game, for the ``with`` block; waits for one to be
        free for up to ``wait`` seconds, then raises ApiError(503). ``for_analysis`` (the
        client's address) marks an analysis or a review: it comes after the seats, and a
        client or game over its limit gets ApiError(429) at once."""
        if for_analysis is not None:
            self._admit(f"client {for_analysis}", f"game {game_id}")
        try:
            engine = self._take(game_id, for_analysis is not None)
        except BaseException:
            if for_analysis is not None:
                self._release_admission(f"client {for_analysis}", f"game {game_id}")
            raise
        try:
            # Only the holder changes an engine's entry, so it is read here without the lock.
            if self._last_game.get(id(engine), game_id) != game_id:
                engine.clear()
            yield engine
        finally:
            with self._available:
                self._last_game[id(engine)] = game_id
                self._idle.append(engine)
                if for_analysis is not None:
                    self._analysing -= 1
                self._available.notify_all()
            if for_analysis is not None:
                self._release_admission(f"client {for_analysis}", f"game {game_id}")

    def _admit(self, client: str, game: str) -> None:
        with self._available:
            if self._analyses[client] >= ANALYSES_PER_CLIENT:
                raise ApiError(429, f"{ANALYSES_PER_CLIENT} analyses of yours are running already; wait for them")
            if self._analyses[game] >= ANALYSES_PER_GAME:
                raise ApiError(429, f"{ANALYSES_PER_GAME} analyses of this game are running already; try again shortly")
            self._analyses[client] += 1
            self._analyses[game] += 1

    def _release_admission(self, client: str, game: str) -> None:
        with self._available:
            for key in (client, game):
                self._analyses[key] -= 1
                if self._analyses[key] <= 0:
                    del self._analyses[key]

    def _take(self, game_id: str, for_analysis: bool) -> Engine:
        deadline = time.monotonic() + self.wait
        with self._available:
            if not for_analysis:
                self._seats_waiting += 1
            try:
                while True:
                    may_take = not for_analysis or (
                        self._seats_waiting == 0 and self._analysing < self.analysis_engines
                    )
                    if may_take:
                        warm = [e for e in self._idle if self._last_game.get(id(e)) == game_id]
                        if warm:
                            self._idle.remove(warm[0])
                            return self._taken(warm[0], for_analysis)
                        if self._made < self.size:
                            break  # make a new engine, outside the lock
                        if self._idle:
                            return self._taken(self._idle.pop(0), for_analysis)
                    remaining = deadline - time.monotonic()
                    if remaining <= 0:
                        raise ApiError(
                            503, f"all {self.size} engines are busy with other games' moves; try again shortly"
                        )
                    self._available.wait(remaining)
                self._made += 1
                self._analysing += for_analysis
            finally:
                if not for_analysis:
                    self._seats_waiting -= 1
                    self._available.notify_all()
        try:
            return Engine(hash_mb=self.hash_mb)
        except BaseException:
            with self._available:
                self._made -= 1
                self._analysing -= for_analysis
                self._available.notify_all()
            raise

    def _taken(self, engine: Engine, for_analysis: bool) -> Engine:
        self._analysing += for_analysis
        return engine


@dataclass(frozen=True)
class Entry:
    """One token of the game's history as the move list shows it: the move number, the player
    who made it (None for events such as resignations), its text as the game's records write it
    and as people read it (SAN in standard chess, chess.com's notation in four-player chess)."""

    number: int
    player: Colour | None
    text: str
    notation: str


@dataclass
class Offer:
    """A draw offer or a takeback request waiting for the other humans' consent."""

    kind: str  # one of OFFER_KINDS
    by: Colour
    waiting_for: set[Colour] = field(default_factory=set)


class Session:
    """A game in play; ``id`` names it in URLs."""

    def __init__(
        self, game: Game, seats: SeatOptions, invitations: Invitations | None = None, game_id: str | None = None
    ) -> None:
        self.id = game_id or secrets.token_urlsafe(9)
        self.game = game
        self.seats = seats
        self.invitations = invitations
        self.offer: Offer | None = None
        self.lock = threading.RLock()
        self.changed = threading.Condition(self.lock)
        self.version = 0
        self.on_change: Callable[[Session], None] | None = None
        self.rendered: dict[str, object] = {}  # the live updates' JSON of the current version (server.py)
        self._notation = GameNotation()  # the move list's text, written as moves come
        # Engine requests for this game run one at a time: a double click must not start two
        # searches of one position.
        self._engine_turn = threading.Lock()

    @classmethod
    def from_game(
        cls, game: Game, seats: SeatOptions, invitations: Invitations | None = None, game_id: str | None = None
    ) -> Session:
        """A session for a game that was played elsewhere (a loaded record, a stored game)."""
        return cls(game, seats, invitations, game_id)

    @property
    def entries(self) -> list[Entry]:
        """The move list: the game's steps, each move with the player who made it."""
        steps = self.game.steps
        return [
            Entry(step.fullmove, step.player if step.move is not None else None, step.token, text)
            for step, text in zip(steps, self._notation.texts(self.game), strict=True)
        ]

    def touch(self) -> None:
        """Marks a change: a new version for the waiting pages, and a save (which may raise,
        the change undone)."""
        with self.lock:
            self.version += 1
            self.changed.notify_all()
            if self.on_change is not None:
                self.on_change(self)

    def reset_to(self, stored: Session) -> None:
        """Takes on the game of ``stored``, this game rebuilt as it was stored last: how a change
        that could not be saved is undone. A pending offer goes, as it does in a restart. The
        version stays, so that the pages take the state they get next as news."""
        with self.lock:
            self.game, self.seats = stored.game, stored.seats
            self.invitations = stored.invitations
            self.offer = None
            self.rendered.clear()
            self.changed.notify_all()

    # -- reading --------------------------------------------------------------------------

    def is_engine(self, player: Colour) -> bool:
        return player in self.seats.engines

    def engine_to_move(self) -> bool:
        return not self.game.is_over() and self.is_engine(self.game.turn)

    def human_to_move(self) -> bool:
        return not self.game.is_over() and not self.is_engine(self.game.turn)

    def record(self, name: str = "record", game: Game | None = None) -> tuple[str, str]:
        """The game (or ``game``, a line from one of its positions) written as ``name``
        (polychess.formats.any_format.EXPORTS: by default the polychess record), records naming
        who played each seat, and its file suffix."""
        with self.lock:
            names = {c.value.capitalize(): ENGINE_NAME if self.is_engine(c) else HUMAN_NAME for c in self.game.seats}
            return export(game or self.game, name, names)

    # -- playing --------------------------------------------------------------------------

    def check_clock(self) -> None:
        """Ends the game on time if the player to move has run out (nobody else notices)."""
        with self.lock:
            if not self.game.is_over() and self.game.clock is not None:
                if self.game.flag():
                    self.offer = None
                    self.touch()

    def play(
        self,
        move_text: str | None,
        origin: str | None,
        target: str | None,
        promotion: str | None,
        seat: Colour | None = None,
    ) -> Move:
        """Plays a human's move, given as move text or as cells (and a promotion letter); with
        ``seat`` (a game played by invitation) only if that seat is to move."""
        with self.lock:
            self.check_clock()
            self._require_running()
            if self.is_engine(self.game.turn):
                raise ApiError(409, f"it is {self.game.turn}'s turn, and the engine plays {self.game.turn}")
            if seat is not None and seat != self.game.turn:
                raise ApiError(403, f"it is {self.game.turn}'s turn: {seat}'s invitation moves only {seat}")
            move = self._parse(move_text) if move_text is not None else self._find(origin, target, promotion)
            return self._push(move)

    def play_engine(self, engines: EnginePool) -> Move:
        """Lets an engine from the pool play the seat to move; refused if that seat is a human's."""
        with self._engine_turn:
            with self.lock:
                self._require_engine_turn()  # before waiting for an engine, which may take a while
            with engines.engine_for(self.id) as engine:
                with self.lock:
                    # Again, and the position and budget only now: while every engine was busy
                    # the game may have moved on, and the clock has run.
                    self._require_engine_turn()
                    game, board, ply = self.game, self.game.board, self.game.ply
                    nodes, budget, level = self.seats.engine_nodes, self._time_budget(), self.seats.engine_level
                engine.level = level  # the pool's engines serve every game, at each game's level
                # The game, not its board: free-for-all points so far count in the search.
                result = engine.search(game, nodes=nodes, time=budget)
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
            try:
                self.game.resign(player)
            except ValueError as error:  # already out
                raise ApiError(409, str(error)) from None
            self._settle_offer()
            self.touch()

    # -- offers (games played by invitation) ----------------------------------------------

    def humans_in(self) -> list[Colour]:
        """The invited seats whose players are still in the game (frozen ones included)."""
        if self.invitations is None:
            return []
        return [c for c in self.game.seats if c.value in self.invitations.seats and self.game.status(c) != Status.OUT]

    def make_offer(self, kind: str, by: Colour) -> None:
        """A draw offer or a takeback request (of ``by``'s last move and all after it) by a
        human in the game; it takes effect once every other human in the game accepts, at once
        if there is none."""
        with self.lock:
            self._require_running()
            if self.invitations is None:
                raise ApiError(409, "offers are for games played by invitation; at one screen, just agree")
            if by not in self.humans_in():
                raise ApiError(409, f"{by} is not a human still in the game")
            if self.offer is not None:
                raise ApiError(409, f"{self.offer.by} has already offered a {self.offer.kind}; answer it first")
            if kind == "takeback" and self._last_move_of(by) is None:
                raise ApiError(409, f"{by} has made no move to take back")
            self.offer = Offer(kind, by, set(self.humans_in()) - {by})
            self._settle_offer()
            self.touch()

    def answer_offer(self, by: Colour, accept: bool) -> None:
        with self.lock:
            offer = self.offer
            if offer is None:
                raise ApiError(409, "there is no offer to answer")
            if by not in offer.waiting_for:
                raise ApiError(
                    409,
                    f"{by} is not asked: the offer waits for "
                    f"{', '.join(sorted(c.value for c in offer.waiting_for)) or 'nobody'}",
                )
            if accept:
                offer.waiting_for.discard(by)
                self._settle_offer()
            else:
                self.offer = None
            self.touch()

    def _settle_offer(self) -> None:
        """Carries out an offer everyone still asked has accepted; drops one whose offerer has
        left. A player who leaves is no longer asked."""
        offer = self.offer
        if offer is None:
            return
        humans = set(self.humans_in())
        if offer.by not in humans or self.game.is_over():
            self.offer = None
            return
        offer.waiting_for &= humans
        if offer.waiting_for:
            return
        self.offer = None
        if offer.kind == "draw":
            self.game.agree_draw()
        else:
            keep = self._last_move_of(offer.by)
            assert keep is not None
            while len(self.game.history) > keep:
                self.game.pop()

    def _last_move_of(self, player: Colour) -> int | None:
        """The index in the history of the player's last move."""
        for index in range(len(self.entries) - 1, -1, -1):
            if self.entries[index].player == player:
                return index
        return None

    # -- helpers --------------------------------------------------------------------------

    def _require_engine_turn(self) -> None:
        self.check_clock()
        self._require_running()
        if not self.is_engine(self.game.turn):
            raise ApiError(409, f"it is {self.game.turn}'s turn, a human seat")

    def _require_running(self) -> None:
        outcome = self.game.outcome()
        if outcome is not None:
            raise ApiError(409, f"the game is over ({outcome.termination.value})")

    def _parse(self, text: str) -> Move:
        try:
            return self.game.board.parse_move(text)
        except InvalidMoveError as error:
            raise ApiError(400, str(error)) from None  # the core's message quotes the text
        except IllegalMoveError as error:
            raise ApiError(400, str(error)) from None

    def _find(self, origin: str | None, target: str | None, promotion: str | None) -> Move:
        if origin is None or target is None:
            raise ApiError(400, "give either move (move text) or from and to (cell names)")
        board = self.game.board
        names = {n.lower() for n in board.layout.names}
        for label, cell in (("from", origin), ("to", target)):
            if cell.lower() not in names:
                raise ApiError(400, f"{label}: no cell named {cell!r} in {board.variant}")
        moves = [
            m
            for m in board.legal_moves
            if m.from_cell.lower() == origin.lower() and m.to_cell.lower() == target.lower()
        ]
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
        try:
            self.game.push(move)
        except TimeForfeitError as error:
            self.offer = None
            self.touch()
            raise ApiError(409, str(error)) from None
        except IllegalMoveError as error:
            raise ApiError(400, str(error)) from None
        self.offer = None  # the position it was about has changed
        self.touch()
        return move

    def _time_budget(self) -> float:
        """The engine's thinking time: its cap, and never more than a tenth of its clock."""
        clock = self.game.clock
        if clock is None:
            return self.seats.engine_time
        return max(0.01, min(self.seats.engine_time, clock.remaining_now(self.game.turn) / 10))
