"""The game flow of four-player chess (polychess.Game, variant "four-player") against docs/rules.md §2.3
(teams) and §2.4 (free-for-all): points, immediate mates and who is credited, king captures,
dead pieces, stalemates, the end conditions, draws and their bonus, ``move_limit``,
``first_player`` / ``rotate_first_player`` with ``next_game`` and take-backs with ``pop``.

Almost every test plays a scripted game from a small hand-built position and states, after
every move, the exact point totals and what docs/rules.md implies (who is out, whose pieces are dead,
who is to move, the outcome).  Every scripted game is then taken back move by move with
``Game.pop`` and each earlier state (position string, points, outcome, eliminations, history,
legal moves) must come back exactly.  Random FFA and teams games check invariants at the end.

Board (rules §2.1): files a-n, ranks 1-14 seen from Red; ranks 1-3 and 12-14 only have the files
d-k.  Turn order Red, Blue, Yellow, Green; teams Red+Yellow against Blue+Green.  Pawns move up
(Red), right (Blue), down (Yellow), left (Green); FFA promotion on Red rank 8, Blue file h,
Yellow rank 7, Green file g, to the one-point queen ``D``.

Position strings (docs/position-strings.md, "Four-player chess"): ranks 14 down to 1, each rank
listing its existing squares from a to n, pieces as colour letter + kind letter; then turn,
castling, en passant, halfmove clock, fullmove number, controllers ('-' = dead pieces) and
statuses (a / x).
"""

from __future__ import annotations

import random
import re

import pytest

import game_script
from game_script import FakeTime, elim, moves, snapshot
from polychess import Board, Colour, Game, GameOverError, Piece, PieceType, Reason, Status, Termination
from polychess.formats import write_pgn4
from positions import cross_position as position

R, B, Y, G = Colour.RED, Colour.BLUE, Colour.YELLOW, Colour.GREEN
SEATS = (R, B, Y, G)
COLOUR = {"r": R, "b": B, "y": Y, "g": G}
KIND = {t.letter: t for t in PieceType}


# --------------------------------------------------------------------------- helpers


def game_from(pieces: dict[str, str], mode: str = "ffa", **kw) -> Game:
    return game_script.game_from(pieces, "four-player", mode=mode, **kw)


def piece(text: str) -> Piece:
    return Piece(COLOUR[text[0]], KIND[text[1]])


def pts(r: int, b: int, y: int, g: int) -> dict[Colour, int]:
    return {R: r, B: b, Y: y, G: g}


def places(r: int, b: int, y: int, g: int) -> dict[Colour, int]:
    return {R: r, B: b, Y: y, G: g}


def cells_of(game: Game, colour: Colour) -> dict[str, Piece]:
    return {cell: p for cell, p in game.board.pieces().items() if p.colour == colour}


def partner(p: Colour) -> Colour:
    return SEATS[(SEATS.index(p) + 2) % 4]


def attacked_kings(game: Game) -> dict[Colour, set[Colour]]:
    """For every live king: the enemies (teams: opponents) whose pieces attack it."""
    board = game.board
    out = {}
    for p in SEATS:
        king = board.king(p)
        if king is None or board.status(p) != Status.ACTIVE:
            continue
        enemies = [q for q in SEATS if q != p and (game.mode == "ffa" or q != partner(p))]
        by = {q for q in enemies if board.status(q) == Status.ACTIVE and board.attackers(king, q)}
        if by:
            out[p] = by
    return out


def as_turn(game: Game, colour: Colour) -> Board:
    """The current position with ``colour`` to move (to see what he could do at his turn)."""
    fields = game.board.fen().split(" ")
    fields[1] = colour.value[0]
    return Board("four-player", " ".join(fields), mode=game.mode, setup=game.setup)


class Script(game_script.Script):
    """A ``game_script.Script`` that also checks the points after a move."""

    def push(self, move: str, points: dict[Colour, int] | None = None) -> None:
        super().push(move)
        if points is not None:
            assert self.game.points == points, (move, self.game.points)


def assert_dead(game: Game, colour: Colour, cells: dict[str, str]) -> None:
    """rules §2.4: an out player's pieces stay where they are as dead pieces (controller None),
    king included unless it was captured; nobody moves them."""
    board = game.board
    assert board.status(colour) == Status.OUT and game.status(colour) == Status.OUT
    assert board.controller(colour) is None
    assert colour not in game.active_players()
    assert cells_of(game, colour) == {cell: piece(text) for cell, text in cells.items()}
    assert game.turn != colour or game.is_over()
    assert not any(m.from_cell in cells for m in game.legal_moves)


# Kings on their modern home squares.
HOME = {"h1": "rK", "a7": "bK", "g14": "yK", "n8": "gK"}
# Kings tucked away in corners of the arms.
CORNERS = {"h1": "rK", "a11": "bK", "k14": "yK", "n4": "gK"}
# Red's knight j4 blocks Yellow's rook e4 from Green's king n4.
KING_CAPTURE = {"h1": "rK", "a11": "bK", "g14": "yK", "n4": "gK", "e4": "yR", "j4": "rN"}


# --------------------------------------------------------------------------- FFA: capture points

VALUES = {"P": 1, "N": 3, "B": 5, "R": 5, "Q": 9, "D": 1}


@pytest.mark.parametrize("victim", "byg")
@pytest.mark.parametrize("kind", "PNBRQD")
def test_capture_of_a_live_piece_scores_its_value(victim, kind):
    """rules §2.4: capturing a live piece scores pawn 1, knight 3, bishop 5, rook 5, queen 9,
    promoted (one-point) queen 1, whoever owns it."""
    square = {"b": "e9", "y": "e9", "g": "i5"}[victim]  # squares where that colour's pawn may stand
    game = game_from({**CORNERS, "e5": "rR", square: victim + kind})
    s = Script(game)
    assert attacked_kings(game) == {}
    s.push("e5" + square, pts(VALUES[kind], 0, 0, 0))
    assert attacked_kings(game) == {}
    assert game.board.piece_at(square) == piece("rR")
    assert game.outcome() is None and game.turn == B
    s.unwind()


def test_every_player_scores_his_own_captures():
    pieces = {
        "d1": "rK",
        "a11": "bK",
        "k14": "yK",
        "n4": "gK",
        "e5": "rR",
        "e9": "bQ",
        "h7": "bR",
        "h10": "yR",
        "f11": "yB",
        "i8": "gB",
        "j5": "gN",
        "h6": "rN",
        "j9": "gP",
        "h13": "rD",
    }
    s = Script(game_from(pieces))
    s.push("e5e9", pts(9, 0, 0, 0))  # Red's rook takes Blue's queen
    s.push("h7h10", pts(9, 5, 0, 0))  # Blue's rook takes Yellow's rook
    s.push("f11i8", pts(9, 5, 5, 0))  # Yellow's bishop takes Green's bishop
    s.push("j5h6", pts(9, 5, 5, 3))  # Green's knight takes Red's knight
    s.push("e9j9", pts(10, 5, 5, 3))  # Red's rook takes Green's pawn
    s.push("h10h13", pts(10, 6, 5, 3))  # Blue's rook takes Red's one-point queen
    s.push("i8f5", pts(10, 6, 5, 3))  # quiet moves score nothing
    s.push("n4n5", pts(10, 6, 5, 3))
    assert attacked_kings(s.game) == {}
    assert s.game.outcome() is None
    s.unwind()


def test_en_passant_and_capturing_promotion_score_the_captured_piece():
    pieces = {
        "k1": "rK",
        "a11": "bK",
        "g14": "yK",
        "n4": "gK",
        "e2": "rP",
        "d2": "bP",
        "g7": "rP",
        "h8": "gN",
        "h11": "bR",
    }
    s = Script(game_from(pieces))
    s.push("e2e4", pts(0, 0, 0, 0))
    s.push("d2e3", pts(0, 1, 0, 0))  # en passant: Red's pawn (1)
    assert s.game.board.piece_at("e4") is None and s.game.board.piece_at("e3") == piece("bP")
    s.push("g14f14", pts(0, 1, 0, 0))
    s.push("n4n5", pts(0, 1, 0, 0))
    s.push("g7h8q", pts(3, 1, 0, 0))  # takes Green's knight (3) and promotes to a one-point queen
    assert s.game.board.piece_at("h8") == piece("rD")
    s.push("h11h8", pts(3, 2, 0, 0))  # the one-point queen is worth 1
    s.unwind()


# --------------------------------------------------------------------------- FFA: check bonus

CHECK_CASES = [
    # (pieces, move, points of the mover, kings checked)
    pytest.param(
        {"h1": "rK", "a7": "bK", "e9": "yK", "n11": "gK", "d6": "rN"}, "d6c8", 5, {B, Y}, id="knight-two-kings"
    ),
    pytest.param(
        {"h1": "rK", "f7": "bK", "i10": "yK", "j7": "gK", "i6": "rN"}, "i6h8", 20, {B, Y, G}, id="knight-three-kings"
    ),
    pytest.param(
        {"h1": "rK", "a7": "bK", "g14": "yK", "n11": "gK", "f6": "rQ"}, "f6g7", 1, {B, Y}, id="queen-two-kings"
    ),
    pytest.param(
        {"h1": "rK", "a7": "bK", "g14": "yK", "n7": "gK", "f6": "rQ"}, "f6g7", 5, {B, Y, G}, id="queen-three-kings"
    ),
    pytest.param(
        {"h1": "rK", "a7": "bK", "g14": "yK", "n11": "gK", "f6": "rD"},
        "f6g7",
        1,
        {B, Y},
        id="one-point-queen-two-kings",
    ),
    pytest.param(
        {"h1": "rK", "a7": "bK", "g14": "yK", "n7": "gK", "f6": "rD"},
        "f6g7",
        5,
        {B, Y, G},
        id="one-point-queen-three-kings",
    ),
    # the knight checks Blue, the queen behind it (discovered) checks Yellow: not all queens
    pytest.param(
        {"h1": "rK", "d8": "bK", "g14": "yK", "n11": "gK", "g5": "rN", "g3": "rQ"},
        "g5e6",
        5,
        {B, Y},
        id="knight-and-discovered-queen",
    ),
    pytest.param(
        {"h1": "rK", "d8": "bK", "g14": "yK", "c5": "gK", "g5": "rN", "g3": "rQ"},
        "g5e6",
        20,
        {B, Y, G},
        id="knight-fork-and-discovered-queen",
    ),
    # two pieces checking one king is no bonus
    pytest.param(
        {"h1": "rK", "a7": "bK", "g14": "yK", "n11": "gK", "g10": "rB", "g3": "rR"},
        "g10e12",
        0,
        {Y},
        id="double-check-of-one-king",
    ),
    pytest.param({"h1": "rK", "a7": "bK", "g14": "yK", "n11": "gK", "f6": "rQ"}, "f6f7", 0, {B}, id="single-check"),
]


@pytest.mark.parametrize("pieces, move, points, checked", CHECK_CASES)
def test_checking_several_kings_at_once(pieces, move, points, checked):
    """rules §2.4: a move that checks two kings at once scores 5 (1 if by a queen), three kings 20
    (5 if by a queen); one-point queens count as queens; the checked players are not mated."""
    game = game_from(pieces)
    s = Script(game)
    assert attacked_kings(game) == {}
    s.push(move, pts(points, 0, 0, 0))
    assert attacked_kings(game) == {p: {R} for p in checked}
    assert game.eliminations == () and game.outcome() is None
    assert game.active_players() == [R, B, Y, G]
    s.unwind()


def test_check_bonus_goes_to_any_mover():
    """The same knight fork made by a Green knight on Green's turn: Green scores, nobody else."""
    game = game_from({"h1": "rK", "a7": "bK", "e9": "yK", "n11": "gK", "d6": "gN"}, turn="g")
    s = Script(game)
    s.push("d6c8", pts(0, 0, 0, 5))
    assert attacked_kings(game) == {B: {G}, Y: {G}}
    assert game.turn == R
    s.unwind()


# --------------------------------------------------------------------------- FFA: dead pieces


def test_resigned_players_pieces_are_dead_and_score_nothing():
    """rules §2.4: an out player's pieces stay as dead pieces: they never move, give no check,
    and capturing them (the king too) scores 0; live pieces still score."""
    pieces = {"h1": "rK", "a11": "bK", "g14": "yK", "n4": "gK", "e5": "rR", "e9": "bQ", "h7": "bR", "d10": "yB"}
    game = game_from(pieces)
    s = Script(game)
    s.event("resign", B)
    assert game.eliminations == (elim(B, Reason.RESIGNATION, None, 0),)
    assert game.points == pts(0, 0, 0, 0)
    assert game.turn == R
    assert_dead(game, B, {"a11": "bK", "e9": "bQ", "h7": "bR"})
    # the dead rook h7 stands on Red's king file: no check, and Red's king may go to h2
    assert not game.board.is_check()
    assert "h1h2" in moves(game)
    assert "e5e9" in moves(game)
    s.push("e5e9", pts(0, 0, 0, 0))  # a dead queen: 0
    assert game.turn == Y  # Blue is skipped
    s.push("d10c9", pts(0, 0, 0, 0))
    s.push("n4n5", pts(0, 0, 0, 0))
    s.push("e9e11", pts(0, 0, 0, 0))
    s.push("c9b8", pts(0, 0, 0, 0))
    s.push("n5n4", pts(0, 0, 0, 0))
    s.push("e11a11", pts(0, 0, 0, 0))  # the dead king: 0, and no king capture
    assert game.eliminations == (elim(B, Reason.RESIGNATION, None, 0),)
    assert_dead(game, B, {"h7": "bR"})
    s.push("b8a7", pts(0, 0, 0, 0))
    s.push("n4n5", pts(0, 0, 0, 0))
    s.push("a11a7", pts(5, 0, 0, 0))  # a live bishop still scores 5
    s.unwind()


def test_a_live_king_may_stand_next_to_and_take_a_dead_king():
    """Dead pieces attack nothing (rules §2.4), the dead king included: Red's king may step next
    to it and take it, for 0 points and without a king capture."""
    game = game_from({"e5": "rK", "e7": "bK", "k14": "yK", "n4": "gK"})
    s = Script(game)
    assert "e5e6" not in moves(game)  # Blue's live king guards e6
    s.event("resign", B)
    assert "e5e6" in moves(game)
    s.push("e5e6", pts(0, 0, 0, 0))
    s.push("k14j14", pts(0, 0, 0, 0))
    s.push("n4n5", pts(0, 0, 0, 0))
    s.push("e6e7", pts(0, 0, 0, 0))
    assert game.eliminations == (elim(B, Reason.RESIGNATION, None, 0),)
    assert game.board.piece_at("e7") == piece("rK")
    assert_dead(game, B, {})
    s.unwind()


def test_time_forfeit_leaves_dead_pieces_and_no_points():
    clock = FakeTime()
    pieces = {"h1": "rK", "a11": "bK", "g14": "yK", "n4": "gK", "e5": "rR", "e9": "bN"}
    game = game_from(pieces, time_control=10, time_source=clock)
    s = Script(game)
    clock.set(11.0)  # Red's time ran out before his move
    s.forfeit_by_push("e5e9")
    assert game.eliminations == (elim(R, Reason.TIME_FORFEIT, None, 0),)
    assert game.points == pts(0, 0, 0, 0)
    assert game.turn == B
    assert_dead(game, R, {"h1": "rK", "e5": "rR"})
    s.push("e9c8", pts(0, 0, 0, 0))
    s.event("time_forfeit", Y)  # an external clock decided Yellow lost on time
    assert game.eliminations[-1] == elim(Y, Reason.TIME_FORFEIT, None, 1)
    assert_dead(game, Y, {"g14": "yK"})
    assert game.turn == G and game.outcome() is None
    assert game.points == pts(0, 0, 0, 0)
    s.unwind()


# --------------------------------------------------------------------------- FFA: checkmate

# Yellow's king in the corner d14 behind its pawns d13, e13: back-rank mate along rank 14.
BACK_RANK = {"h1": "rK", "a11": "bK", "d14": "yK", "d13": "yP", "e13": "yP", "n4": "gK"}


def test_checkmate_is_confirmed_right_after_the_move():
    """rules §2.4: the mate counts at once (Blue moves in between but may not rescue Yellow);
    20 points to the mater; Yellow's pieces, king included, stay as dead pieces."""
    game = game_from({**BACK_RANK, "j5": "rR", "h10": "gB"})
    s = Script(game)
    s.push("j5j14", pts(20, 0, 0, 0))
    assert game.eliminations == (elim(Y, Reason.CHECKMATE, R, 1),)
    assert_dead(game, Y, {"d14": "yK", "d13": "yP", "e13": "yP"})
    assert game.board.fen().split(" ")[6:] == ["rb-g", "aaxa"]
    assert game.outcome() is None and game.turn == B
    assert game.active_players() == [R, B, G]
    s.push("a11a10", pts(20, 0, 0, 0))
    assert game.turn == G  # Yellow is skipped
    s.push("h10e13", pts(20, 0, 0, 0))  # Green takes a dead pawn: 0
    s.push("j14d14", pts(20, 0, 0, 0))  # Red takes the dead king: 0
    assert game.eliminations == (elim(Y, Reason.CHECKMATE, R, 1),)
    s.push("a10a11", pts(20, 0, 0, 0))
    s.push("e13d14", pts(20, 0, 0, 5))  # Green takes Red's live rook: 5
    assert game.outcome() is None
    s.unwind()


def test_mate_by_a_discovered_attack_is_credited_to_the_mover():
    """Red's knight uncovers Blue's rook: only Blue's rook attacks Yellow's king, but the mate
    is confirmed right after Red's move and credited to Red, whose move left Yellow mated
    (rules §2.4; chess.com scores it so, e.g. the real export of game 100532097)."""
    game = game_from({**BACK_RANK, "j14": "bR", "f14": "rN"})
    s = Script(game)
    assert attacked_kings(game) == {}
    s.push("f14g12", pts(20, 0, 0, 0))
    assert game.eliminations == (elim(Y, Reason.CHECKMATE, R, 1),)
    assert_dead(game, Y, {"d14": "yK", "d13": "yP", "e13": "yP"})
    assert game.turn == B
    s.unwind()


def test_mate_by_the_mover_and_a_discovered_attacker_is_the_movers():
    """The knight itself checks from e12 and uncovers Blue's rook: both attack, the mover moved
    most recently and is credited."""
    game = game_from({**BACK_RANK, "j14": "bR", "f14": "rN"})
    s = Script(game)
    s.push("f14e12", pts(20, 0, 0, 0))
    assert game.eliminations == (elim(Y, Reason.CHECKMATE, R, 1),)
    s.unwind()


def test_mate_credit_goes_to_the_move_that_completes_it():
    """Green checks Yellow (who can still step to e14); Red's knight then uncovers Blue's rook,
    which takes e14: Yellow is mated with Green's bishop and Blue's rook attacking, right after
    Red's move, and Red is credited."""
    pieces = {"h1": "rK", "a11": "bK", "d14": "yK", "d13": "yP", "n4": "gK", "j14": "bR", "f14": "rN", "e9": "gB"}
    game = game_from(pieces, turn="g")
    s = Script(game)
    s.push("e9g11", pts(0, 0, 0, 0))
    assert attacked_kings(game) == {Y: {G}}
    assert game.eliminations == ()  # e14 is free
    assert "f14g12" in moves(game)
    s.push("f14g12", pts(20, 0, 0, 0))
    assert game.eliminations == (elim(Y, Reason.CHECKMATE, R, 2),)
    assert_dead(game, Y, {"d14": "yK", "d13": "yP"})
    assert game.turn == B
    s.unwind()


def test_players_are_judged_in_turn_order_after_earlier_eliminations():
    """Red's queen checks Blue (a4) and Yellow (d14).  Blue, judged first, is mated; his pieces
    die, and with them the rook e8 that covered Yellow's escapes e13 and e14: Yellow, judged
    after Blue's elimination, is not mated.  Red scores 1 (two kings by a queen) + 20."""
    pieces = {"h1": "rK", "a4": "bK", "a5": "bR", "b5": "bP", "e8": "bR", "d14": "yK", "n11": "gK", "f2": "rQ"}
    game = game_from(pieces)
    s = Script(game)
    assert attacked_kings(game) == {}
    s.push("f2d4", pts(21, 0, 0, 0))
    assert game.eliminations == (elim(B, Reason.CHECKMATE, R, 1),)
    assert_dead(game, B, {"a4": "bK", "a5": "bR", "b5": "bP", "e8": "bR"})
    assert game.turn == Y and game.status(Y) == Status.ACTIVE
    assert attacked_kings(game) == {Y: {R}}
    assert moves(game) == {"d14e13", "d14e14"}
    # three players still play: a lead of 21 does not end the game
    assert game.outcome() is None and game.active_players() == [R, Y, G]
    s.push("d14e14", pts(21, 0, 0, 0))
    s.unwind()


def test_one_move_mates_two_players_and_the_lead_ends_the_game():
    """As above, but Green's rook covers Yellow's escapes: both are mated by the one move
    (1 + 20 + 20).  Two players remain and Red leads by 41: the game ends on points."""
    pieces = {"h1": "rK", "a4": "bK", "a5": "bR", "b5": "bP", "e8": "gR", "d14": "yK", "n11": "gK", "f2": "rQ"}
    game = game_from(pieces)
    s = Script(game)
    s.push("f2d4", pts(41, 0, 0, 0))
    assert game.eliminations == (elim(B, Reason.CHECKMATE, R, 1), elim(Y, Reason.CHECKMATE, R, 1))
    assert_dead(game, B, {"a4": "bK", "a5": "bR", "b5": "bP"})
    assert_dead(game, Y, {"d14": "yK"})
    out = game.outcome()
    assert out is not None and game.is_over()
    assert out.termination == Termination.POINTS_LEAD
    assert out.places == places(1, 2, 2, 2)
    assert out.points == pts(41, 0, 0, 0) == game.points
    assert out.eliminations == game.eliminations
    assert len(game.legal_moves) == 0
    with pytest.raises(GameOverError):
        game.push("h1h2")
    s.unwind()


# --------------------------------------------------------------------------- FFA: king capture


def test_king_capture_scores_20_and_the_owner_is_out():
    """Red's knight uncovers Yellow's rook onto Green's king (Green can still move, so no
    mate); Yellow moves before Green and takes the king: 20 points (no piece value), Green is
    out and his remaining pieces are dead."""
    pieces = {"h1": "rK", "a11": "bK", "g14": "yK", "n4": "gK", "e4": "yR", "j4": "rN", "m9": "gP", "b9": "bP"}
    game = game_from(pieces)
    s = Script(game)
    s.push("j4i6", pts(0, 0, 0, 0))
    assert attacked_kings(game) == {G: {Y}}
    assert game.eliminations == ()
    s.push("a11a10", pts(0, 0, 0, 0))
    assert "e4n4" in moves(game)
    s.push("e4n4", pts(0, 0, 20, 0))
    assert game.eliminations == (elim(G, Reason.KING_CAPTURE, Y, 3),)
    assert game.board.piece_at("n4") == piece("yR")
    assert_dead(game, G, {"m9": "gP"})
    assert game.board.king(G) is None
    assert game.turn == R and game.outcome() is None
    assert game.active_players() == [R, B, Y]
    s.push("h1h2", pts(0, 0, 20, 0))
    s.push("b9c9", pts(0, 0, 20, 0))
    s.push("n4n9", pts(0, 0, 20, 0))  # the dead pawn: 0
    s.unwind()


# --------------------------------------------------------------------------- FFA: stalemate

# Yellow's king d14 with its pawn d13 blocked by Red's bishop d12 (which covers e13); Red's
# rook h5-e5 covers e13 and e14 without checking: Yellow has no legal move, not in check.
STALEMATE = {"h1": "rK", "a11": "bK", "d14": "yK", "d13": "yP", "d12": "rB", "h5": "rR", "n4": "gK"}


def test_stalemate_at_ones_turn_puts_out_and_scores_20():
    game = game_from(STALEMATE)
    s = Script(game)
    s.push("h5e5", pts(0, 0, 0, 0))
    assert attacked_kings(game) == {}
    assert game.eliminations == () and game.status(Y) == Status.ACTIVE  # judged at his turn
    s.push("a11a10", pts(0, 0, 20, 0))
    assert game.eliminations == (elim(Y, Reason.STALEMATE, None, 2),)
    assert_dead(game, Y, {"d14": "yK", "d13": "yP"})
    assert game.turn == G and game.outcome() is None
    s.push("n4m4", pts(0, 0, 20, 0))
    s.push("e5e13", pts(0, 0, 20, 0))  # a dead pawn: 0
    s.unwind()


def test_stalemate_is_only_judged_at_his_turn():
    """Blue frees Yellow before Yellow's turn (his bishop takes the rook e5, e14 is free
    again): no stalemate."""
    game = game_from({**STALEMATE, "a9": "bB"})
    s = Script(game)
    s.push("h5e5", pts(0, 0, 0, 0))
    s.push("a9e5", pts(0, 5, 0, 0))
    assert game.eliminations == () and game.turn == Y
    assert moves(game) == {"d14e14"}
    s.push("d14e14", pts(0, 5, 0, 0))
    s.unwind()


def test_stalemate_of_the_last_opponent_ends_the_game_on_points():
    """Blue and Green resign; Yellow, stalemated at his turn, is out with 20 points: three
    players are out, the game ends and Yellow is first."""
    game = game_from(STALEMATE)
    s = Script(game)
    s.event("resign", B)
    s.event("resign", G)
    assert game.outcome() is None and game.active_players() == [R, Y]
    s.push("h5e5", pts(0, 0, 20, 0))
    out = game.outcome()
    assert out is not None
    assert out.termination == Termination.STALEMATE
    assert out.places == places(2, 2, 1, 2)
    assert out.points == pts(0, 0, 20, 0)
    assert out.eliminations == (
        elim(B, Reason.RESIGNATION, None, 0),
        elim(G, Reason.RESIGNATION, None, 0),
        elim(Y, Reason.STALEMATE, None, 1),
    )
    s.unwind()


# --------------------------------------------------------------------------- FFA: end conditions


def test_three_players_out_ends_the_game_places_by_points():
    pieces = {
        "h1": "rK",
        "j5": "rR",
        "f9": "rR",
        "g3": "rP",
        "d14": "yK",
        "d13": "yP",
        "e13": "yP",
        "a11": "bK",
        "b6": "bR",
        "n4": "gK",
        "m4": "gP",
        "m5": "gP",
        "d3": "gR",
        "i6": "gN",
    }
    game = game_from(pieces)
    s = Script(game)
    s.push("j5j14", pts(20, 0, 0, 0))  # Yellow mated
    s.push("b6i6", pts(20, 3, 0, 0))  # Blue takes Green's knight
    s.push("d3g3", pts(20, 3, 0, 1))  # Green takes Red's pawn
    s.push("h1h2", pts(20, 3, 0, 1))
    s.event("resign", B)
    # two players remain, Red leads by 19: the game goes on
    assert game.outcome() is None and game.active_players() == [R, G] and game.turn == G
    assert_dead(game, B, {"a11": "bK", "i6": "bR"})
    s.push("g3g4", pts(20, 3, 0, 1))
    assert game.outcome() is None
    s.push("f9n9", pts(40, 3, 0, 1))  # back-rank mate of Green along the n-file
    out = game.outcome()
    assert out is not None
    assert out.termination == Termination.CHECKMATE
    assert out.places == places(1, 2, 4, 3)
    assert out.points == pts(40, 3, 0, 1)
    assert out.eliminations == (
        elim(Y, Reason.CHECKMATE, R, 1),
        elim(B, Reason.RESIGNATION, None, 4),
        elim(G, Reason.CHECKMATE, R, 6),
    )
    assert_dead(game, G, {"n4": "gK", "m4": "gP", "m5": "gP", "g4": "gR"})
    s.unwind()


def test_three_players_out_by_a_king_capture():
    game = game_from(KING_CAPTURE)
    s = Script(game)
    s.push("j4i6", pts(0, 0, 0, 0))
    s.event("resign", B)
    s.event("resign", R)  # out of turn
    assert game.outcome() is None and game.turn == Y
    s.push("e4n4", pts(0, 0, 20, 0))
    out = game.outcome()
    assert out.termination == Termination.KING_CAPTURE
    assert out.places == places(2, 2, 1, 2)
    assert out.eliminations == (
        elim(B, Reason.RESIGNATION, None, 1),
        elim(R, Reason.RESIGNATION, None, 1),
        elim(G, Reason.KING_CAPTURE, Y, 2),
    )
    s.unwind()


def test_three_players_out_by_resignation():
    game = game_from({**CORNERS, "e5": "rR", "e9": "bN"})
    s = Script(game)
    s.push("e5e9", pts(3, 0, 0, 0))
    s.event("resign", Y)
    s.event("resign", G)
    assert game.outcome() is None  # lead 3
    s.event("resign", B)
    out = game.outcome()
    assert out.termination == Termination.RESIGNATION
    assert out.places == places(1, 2, 2, 2)
    assert out.points == pts(3, 0, 0, 0)
    s.unwind()


def test_points_lead_of_21_with_two_players_left_ends_the_game():
    """Blue and Green resign; Red's queen eats Yellow's pieces along rank 9.  A lead of 20 does
    not end the game, a lead of 21 does (places by points)."""
    pieces = {
        "h1": "rK",
        "a11": "bK",
        "n4": "gK",
        "g14": "yK",
        "d5": "rQ",
        "d9": "yQ",
        "f9": "yR",
        "h9": "yB",
        "j9": "yP",
        "k9": "yP",
    }
    game = game_from(pieces)
    s = Script(game)
    s.event("resign", B)
    s.event("resign", G)
    s.push("d5d9", pts(9, 0, 0, 0))
    s.push("g14h14", pts(9, 0, 0, 0))
    s.push("d9f9", pts(14, 0, 0, 0))
    s.push("h14g14", pts(14, 0, 0, 0))
    s.push("f9h9", pts(19, 0, 0, 0))
    s.push("g14f14", pts(19, 0, 0, 0))
    s.push("h9j9", pts(20, 0, 0, 0))
    assert game.outcome() is None  # 20 ahead
    s.push("f14g14", pts(20, 0, 0, 0))
    s.push("j9k9", pts(21, 0, 0, 0))
    out = game.outcome()
    assert out is not None
    assert out.termination == Termination.POINTS_LEAD
    assert out.places == places(1, 2, 2, 2)
    assert out.points == pts(21, 0, 0, 0)
    assert out.eliminations == (elim(B, Reason.RESIGNATION, None, 0), elim(G, Reason.RESIGNATION, None, 0))
    with pytest.raises(GameOverError):
        game.push("g14f14")
    s.unwind()


def test_points_lead_reached_by_a_resignation():
    """Red mates Yellow (20) and takes a pawn (21); while three play the lead does not count;
    Blue's resignation leaves two players 21 apart: the game ends at once."""
    game = game_from({**BACK_RANK, "j5": "rR", "j4": "gP"})
    s = Script(game)
    s.push("j5j14", pts(20, 0, 0, 0))
    s.push("a11a10", pts(20, 0, 0, 0))
    s.push("n4n5", pts(20, 0, 0, 0))
    s.push("j14j4", pts(21, 0, 0, 0))
    assert game.outcome() is None
    s.event("resign", B)
    out = game.outcome()
    assert out is not None and out.termination == Termination.POINTS_LEAD
    assert out.places == places(1, 2, 2, 2)
    assert out.eliminations == (elim(Y, Reason.CHECKMATE, R, 1), elim(B, Reason.RESIGNATION, None, 4))
    s.unwind()


# --------------------------------------------------------------------------- FFA: an end comes before the next turn

# Blue's rook h5-e5 takes Yellow's last squares (Green's bishop d12 blocks the pawn d13 and
# covers e13): after that move Yellow, the next to move, has no legal move and is not in check.
STALEMATE_NEXT = {"h1": "rK", "a11": "bK", "d14": "yK", "d13": "yP", "d12": "gB", "h5": "bR", "n4": "gK"}


def test_points_lead_ends_the_game_before_the_next_player_is_judged():
    """rules §2.4: the game ends when two players remain and one leads by 21 or more.  Red's
    capture-and-mate leaves Red (23) and Green (0): the game is over at once, so Green's turn
    never comes and he cannot be stalemated (+20) at it."""
    pieces = {
        "h1": "rK",
        "e5": "rR",
        "m10": "rR",
        "k14": "rR",
        "i9": "rN",
        "d7": "rN",
        "a11": "bK",
        "b6": "bN",
        "d14": "yK",
        "d13": "yP",
        "e13": "yP",
        "j14": "yN",
        "f11": "yP",
        "n4": "gK",
        "k9": "gP",
    }  # Green's king n4: n5, m5, m4 covered by the rooks e5, m10
    game = game_from(pieces)
    s = Script(game)
    s.push("h1h2", pts(0, 0, 0, 0))
    s.push("b6d7", pts(0, 3, 0, 0))
    s.push("f11f10", pts(0, 3, 0, 0))
    s.event("resign", B)  # out of turn
    assert moves(game) == {"k9j9"}  # Green's last free move
    s.push("k9j9", pts(0, 3, 0, 0))
    s.push("k14j14")  # takes the knight (3) and mates Yellow (20)
    out = game.outcome()
    assert out is not None
    assert out.termination == Termination.POINTS_LEAD
    assert game.points == pts(23, 3, 0, 0)
    assert out.places == places(1, 2, 3, 3)
    assert out.eliminations == (elim(B, Reason.RESIGNATION, None, 3), elim(Y, Reason.CHECKMATE, R, 5))
    assert game.status(G) == Status.ACTIVE
    s.unwind()


def test_move_limit_ends_the_game_before_the_next_player_is_judged_ffa():
    """rules §2.4 move_limit: at the limit the game ends, ranked by points; Yellow, whose turn
    would come next, is not stalemated and scores nothing."""
    game = game_from(STALEMATE_NEXT, turn="b", move_limit=1)
    s = Script(game)
    s.push("h5e5")
    out = game.outcome()
    assert out is not None and out.termination == Termination.MOVE_LIMIT
    assert game.points == pts(0, 0, 0, 0)
    assert out.places == places(1, 1, 1, 1)
    assert out.eliminations == ()
    s.unwind()


def test_move_limit_ends_the_game_before_the_next_player_is_judged_teams():
    game = game_from(STALEMATE_NEXT, mode="teams", turn="b", move_limit=1)
    s = Script(game)
    s.push("h5e5")
    out = game.outcome()
    assert out is not None and out.termination == Termination.MOVE_LIMIT
    assert out.places == places(1, 1, 1, 1)
    assert out.eliminations == ()
    s.unwind()


def test_fifty_moves_end_the_game_before_the_next_player_is_judged():
    """The 200th quiet ply with four players draws at once (+10 each); Yellow's turn, at which
    he would be stalemated, never comes."""
    game = game_from(STALEMATE_NEXT, turn="b", halfmove=199)
    s = Script(game)
    s.push("h5e5")
    out = game.outcome()
    assert out is not None and out.termination == Termination.FIFTY_MOVES
    assert game.points == pts(10, 10, 10, 10)
    assert out.places == places(1, 1, 1, 1)
    assert out.eliminations == ()
    s.unwind()


# --------------------------------------------------------------------------- FFA: draws

SHUFFLE_OUT = ["a7a6", "g14f14", "n8n7", "h1g1"]
SHUFFLE_BACK = ["a6a7", "f14g14", "n7n8", "g1h1"]


def test_threefold_repetition_gives_10_to_each_and_ranks_by_points():
    game = game_from({**HOME, "e5": "rR", "e9": "bN"})
    s = Script(game)
    s.push("e5e9", pts(3, 0, 0, 0))  # the repeated position: after this capture
    for _ in range(2):
        for m in SHUFFLE_OUT + SHUFFLE_BACK:
            assert game.outcome() is None
            s.push(m)
    out = game.outcome()
    assert game.ply == 17
    assert out is not None
    assert out.termination == Termination.THREEFOLD_REPETITION
    assert out.points == pts(13, 10, 10, 10) == game.points
    assert out.places == places(1, 2, 2, 2)
    s.unwind()


def test_fifty_moves_with_four_players_is_200_plies():
    game = game_from(HOME, halfmove=196)
    s = Script(game)
    for m in ["h1g1", "a7a6", "g14f14"]:
        s.push(m, pts(0, 0, 0, 0))
    assert game.board.halfmove_clock == 199 and game.outcome() is None
    s.push("n8n7")
    out = game.outcome()
    assert out.termination == Termination.FIFTY_MOVES
    assert out.points == pts(10, 10, 10, 10)
    assert out.places == places(1, 1, 1, 1)
    s.unwind()


def test_150_plies_do_not_draw_with_four_players():
    game = game_from(HOME, halfmove=150)
    game.push("h1g1")
    assert game.board.halfmove_clock == 151 and game.outcome() is None


def test_fifty_moves_with_three_players_is_150_plies():
    """50 moves by each active player: after Blue's resignation 150 plies are enough; the draw
    bonus goes to the remaining players only."""
    game = game_from(HOME, halfmove=146)
    s = Script(game)
    s.push("h1g1")
    s.event("resign", B)
    s.push("g14f14")
    s.push("n8n7")
    assert game.board.halfmove_clock == 149 and game.outcome() is None
    s.push("g1h1")
    out = game.outcome()
    assert out is not None and out.termination == Termination.FIFTY_MOVES
    assert out.points == pts(10, 0, 10, 10)
    assert out.places == places(1, 4, 1, 1)
    s.unwind()


def test_agreed_draw_gives_10_to_each_remaining_player():
    game = game_from({**HOME, "e5": "rR", "e9": "bN"})
    s = Script(game)
    s.push("e5e9", pts(3, 0, 0, 0))
    s.event("resign", B)
    s.event("agree_draw")
    out = game.outcome()
    assert out.termination == Termination.AGREEMENT
    assert out.points == pts(13, 0, 10, 10)
    assert out.places == places(1, 4, 2, 2)
    assert game.history[-1] == "draw"
    s.unwind()


# --------------------------------------------------------------------------- move_limit


def test_move_limit_ffa_ranks_by_points_without_bonus():
    pieces = {**CORNERS, "e5": "rR", "e9": "bN", "h2": "rP", "i5": "gB"}
    game = game_from(pieces, move_limit=4)
    s = Script(game)
    s.push("e5e9", pts(3, 0, 0, 0))
    s.push("a11a10", pts(3, 0, 0, 0))
    s.push("k14j14", pts(3, 0, 0, 0))
    assert game.outcome() is None
    s.push("i5h4", pts(3, 0, 0, 0))
    out = game.outcome()
    assert out.termination == Termination.MOVE_LIMIT
    assert out.points == pts(3, 0, 0, 0)
    assert out.places == places(1, 2, 2, 2)
    with pytest.raises(GameOverError):
        game.push("h2h3")
    s.unwind()


def test_move_limit_ffa_from_the_start():
    game = Game("four-player", mode="ffa", move_limit=5)
    s = Script(game)
    for m in ["h2h3", "b7c7", "i13i12", "m8l8"]:
        s.push(m, pts(0, 0, 0, 0))
    assert game.outcome() is None
    s.push("g1j4", pts(0, 0, 0, 0))
    out = game.outcome()
    assert out.termination == Termination.MOVE_LIMIT
    assert out.places == places(1, 1, 1, 1) and out.points == pts(0, 0, 0, 0)
    s.unwind()


def test_move_limit_teams_is_a_draw():
    game = Game("four-player", move_limit=4)
    assert game.mode == "teams" and game.points == {}
    s = Script(game)
    for m in ["h2h3", "b7c7", "i13i12"]:
        s.push(m)
    assert game.outcome() is None
    s.push("m8l8")
    out = game.outcome()
    assert out.termination == Termination.MOVE_LIMIT
    assert out.places == places(1, 1, 1, 1)
    assert out.points is None and game.points == {}
    s.unwind()


def test_move_limit_must_be_positive():
    with pytest.raises(ValueError):
        Game("four-player", mode="ffa", move_limit=0)


# --------------------------------------------------------------------------- teams (rules §2.3)

# Green's king n4 behind its pawns m4, m5; Red's rook h9-n9 checks along the n-file.
TEAMS_MATE = {"h1": "rK", "a11": "bK", "g14": "yK", "n4": "gK", "m4": "gP", "m5": "gP", "h9": "rR"}


def test_teams_mate_is_decided_at_the_mated_players_turn():
    game = game_from(TEAMS_MATE, mode="teams")
    s = Script(game)
    s.push("h9n9")
    assert game.outcome() is None and game.eliminations == ()  # Blue and Yellow move first
    assert attacked_kings(game) == {G: {R}}
    assert as_turn(game, G).is_checkmate()  # it would be mate at once
    s.push("a11a10")
    assert game.outcome() is None
    assert as_turn(game, G).is_checkmate()
    s.push("g14f14")
    out = game.outcome()
    assert out is not None
    assert out.termination == Termination.CHECKMATE
    assert out.places == places(1, 3, 1, 3)
    assert set(out.winners) == {R, Y}
    assert out.eliminations == (elim(G, Reason.CHECKMATE, R, 3),)
    assert out.points is None and game.points == {}
    assert len(game.legal_moves) == 0
    s.unwind()


def test_same_mate_in_ffa_is_immediate():
    game = game_from(TEAMS_MATE, mode="ffa")
    s = Script(game)
    s.push("h9n9", pts(20, 0, 0, 0))
    assert game.eliminations == (elim(G, Reason.CHECKMATE, R, 1),)
    assert_dead(game, G, {"n4": "gK", "m4": "gP", "m5": "gP"})
    s.unwind()


@pytest.mark.parametrize("extra, rescue", [({"b6": "bR"}, "b6n6"), ({"k12": "bB"}, "k12n9")], ids=["block", "capture"])
def test_teams_partner_rescues_the_mated_player(extra, rescue):
    """Green's partner Blue moves between Red's mating move and Green's turn: he blocks the
    file or takes the rook, so there is no mate."""
    game = game_from({**TEAMS_MATE, **extra}, mode="teams")
    s = Script(game)
    s.push("h9n9")
    assert as_turn(game, G).is_checkmate()
    s.push(rescue)
    assert attacked_kings(game) == {}
    assert not as_turn(game, G).is_check()
    s.push("g14f14")
    assert game.outcome() is None and game.eliminations == ()
    assert game.turn == G and len(game.legal_moves) > 0
    s.push("n4n5" if rescue == "k12n9" else "m4l4")
    assert game.outcome() is None
    s.unwind()


def test_teams_king_capture_wins_for_the_team():
    """Red's knight uncovers his partner's rook onto Green's king; Blue does not help and
    Yellow, who moves before Green, takes the king."""
    game = game_from(KING_CAPTURE, mode="teams")
    s = Script(game)
    s.push("j4i6")
    assert attacked_kings(game) == {G: {Y}}
    s.push("a11a10")
    s.push("e4n4")
    out = game.outcome()
    assert out is not None
    assert out.termination == Termination.KING_CAPTURE
    assert out.places == places(1, 3, 1, 3)
    assert out.eliminations == (elim(G, Reason.KING_CAPTURE, Y, 3),)
    s.unwind()


def test_teams_partner_prevents_the_king_capture():
    game = game_from({**KING_CAPTURE, "k10": "bR"}, mode="teams")
    s = Script(game)
    s.push("j4i6")
    s.push("k10k4")  # Blue interposes
    assert "e4n4" not in moves(game)
    s.push("g14f14")
    assert game.outcome() is None and game.turn == G
    s.unwind()


def test_teams_stalemate_is_a_draw():
    """Blue's rook takes Yellow's last squares (Green's bishop blocks the pawn): Yellow, at his
    turn, has no legal move and is not in check."""
    game = game_from(STALEMATE_NEXT, mode="teams", turn="b")
    s = Script(game)
    s.push("h5e5")
    out = game.outcome()
    assert out is not None
    assert out.termination == Termination.STALEMATE
    assert out.places == places(1, 1, 1, 1)
    assert out.eliminations == (elim(Y, Reason.STALEMATE, None, 1),)
    s.unwind()


@pytest.mark.parametrize(
    "event, termination, reason",
    [
        ("resign", Termination.RESIGNATION, Reason.RESIGNATION),
        ("time_forfeit", Termination.TIME_FORFEIT, Reason.TIME_FORFEIT),
    ],
)
@pytest.mark.parametrize("player", SEATS)
def test_teams_resignation_or_time_forfeit_loses_for_the_team(event, termination, reason, player):
    game = Game("four-player")
    s = Script(game)
    s.push("h2h3")
    s.event(event, player)
    out = game.outcome()
    assert out.termination == termination
    assert out.places == {p: 3 if p in (player, partner(player)) else 1 for p in SEATS}
    assert out.eliminations == (elim(player, reason, None, 1),)
    assert out.points is None
    s.unwind()


# --------------------------------------------------------------------------- next_game


def test_rotate_first_player_passes_one_seat_clockwise():
    game = Game("four-player", mode="ffa", rotate_first_player=True, move_limit=7)
    start = game.board.fen().split(" ")
    seen = []
    for _ in range(5):
        seen.append(game.turn)
        fen = game.board.fen().split(" ")
        assert fen[0] == start[0] and fen[2:] == start[2:]
        assert fen[1] == game.turn.value[0]
        assert game.mode == "ffa" and game.move_limit == 7 and game.rotate_first_player
        assert game.ply == 0 and game.points == pts(0, 0, 0, 0) and not game.is_over()
        assert {m.from_cell for m in game.legal_moves} <= set(cells_of(game, game.turn))
        game.push(next(iter(game.legal_moves)))
        game = game.next_game()
    assert seen == [R, B, Y, G, R]


def test_next_game_after_a_finished_game():
    game = game_from(TEAMS_MATE, mode="ffa", rotate_first_player=True)
    game.push("h9n9")
    game.resign(B)
    game.resign(Y)
    assert game.is_over()
    nxt = game.next_game()
    assert nxt.turn == B and not nxt.is_over() and nxt.points == pts(0, 0, 0, 0)
    assert nxt.board.fen().split(" ")[0] == game.start_fen.split(" ")[0]
    assert nxt.eliminations == () and nxt.history == []
    assert nxt.next_game().turn == Y


def test_first_player_without_rotation_stays():
    game = Game("four-player", first_player="green", setup="classic")
    assert game.turn == G
    nxt = game.next_game()
    assert nxt.turn == G and nxt.setup == "classic" and nxt.mode == "teams"
    assert nxt.next_game().turn == G


def test_first_player_with_rotation():
    game = Game("four-player", mode="ffa", first_player=Colour.YELLOW, rotate_first_player=True)
    assert game.turn == Y
    assert [game.next_game().turn, game.next_game().next_game().turn] == [G, R]


def test_first_player_with_a_start_position():
    game = game_from(CORNERS, turn="y", rotate_first_player=True)
    assert game.turn == Y
    nxt = game.next_game()
    assert nxt.turn == G
    assert nxt.board.fen() == position(CORNERS, turn="g")
    assert nxt.next_game().turn == R


def test_rotation_skips_a_seat_nobody_plays():
    """A start position in which Blue's seat is not playing (his pieces dead): the first move
    passes clockwise among the players of the game, Red -> Yellow -> Green -> Red."""
    game = game_from(CORNERS, controllers="r-yg", statuses="axaa", rotate_first_player=True)
    assert game.seats == (R, Y, G)
    nxt = game.next_game()
    assert nxt.turn == Y
    assert nxt.next_game().turn == G
    assert nxt.next_game().next_game().turn == R


# --------------------------------------------------------------------------- random games

CAPTURE_POINTS = {
    PieceType.PAWN: 1,
    PieceType.KNIGHT: 3,
    PieceType.BISHOP: 5,
    PieceType.ROOK: 5,
    PieceType.QUEEN: 9,
    PieceType.ONE_POINT_QUEEN: 1,
}
DRAWS = {Termination.THREEFOLD_REPETITION, Termination.FIFTY_MOVES, Termination.AGREEMENT}
QUEENS = {PieceType.QUEEN, PieceType.ONE_POINT_QUEEN}


def expected_move_points(before: Board, after: Board, move, mover: Colour, active_before: list[Colour]) -> int:
    """The points rules §2.4 gives the mover for a move itself (capture and check bonus), worked
    out from the boards before and after it."""
    points = 0
    moving = before.piece_at(move.from_cell)
    target = before.piece_at(move.to_cell)
    if target is not None and target.piece_type is not PieceType.KING and before.controller(target.colour) is not None:
        points += CAPTURE_POINTS[target.piece_type]
    elif (
        target is None
        and moving.piece_type is PieceType.PAWN
        and move.from_cell[0] != move.to_cell[0]
        and move.from_cell[1:] != move.to_cell[1:]
    ):
        points += 1  # en passant: a live pawn

    # A king counts when the move gives the check: after it, an enemy piece attacks the king
    # that did not attack it before (the moved piece, or one the move uncovered).
    def attacking(board: Board, cell: str, victim: Colour) -> set[tuple[str, Piece | None]]:
        return {(c, board.piece_at(c)) for q in active_before if q != victim for c in board.attackers(cell, q)}

    checked, by_queens = 0, True
    for p in active_before:
        cell = before.king(p)
        if p == mover or after.piece_at(cell) != Piece(p, PieceType.KING):
            continue  # the mover, or a captured king
        new = attacking(after, cell, p) - attacking(before, cell, p)
        if new:
            checked += 1
            by_queens &= all(piece is not None and piece.piece_type in QUEENS for _, piece in new)
    if checked == 2:
        points += 1 if by_queens else 5
    elif checked >= 3:
        points += 5 if by_queens else 20
    return points


def random_game(mode: str, seed: int, event_rate: float) -> None:
    rng = random.Random(seed)
    game = Game("four-player", mode=mode, move_limit=300, setup=rng.choice(["modern", "classic"]))
    start = snapshot(game)
    dead: dict[Colour, dict[str, Piece]] = {}
    steps = 0
    while not game.is_over():
        before_points = game.points
        before = game.board
        n_elims = len(game.eliminations)
        active_before = game.active_players()
        mover = game.turn
        assert game.status(mover) == Status.ACTIVE
        legal = list(game.legal_moves)
        assert legal
        expected = dict(before_points)
        roll = rng.random()
        if roll < event_rate:
            game.resign(rng.choice(active_before))
        elif roll < 1.5 * event_rate:
            game.time_forfeit(rng.choice(active_before))
        else:
            # prefer king captures, then captures, so that games end in every way
            captures = [m for m in legal if before.piece_at(m.to_cell) is not None]
            kings = [
                m
                for m in captures
                if before.piece_at(m.to_cell).piece_type is PieceType.KING
                and before.status(before.piece_at(m.to_cell).colour) == Status.ACTIVE
            ]
            if kings and rng.random() < 0.9:
                move = rng.choice(kings)
            else:
                move = rng.choice(captures if captures and rng.random() < 0.7 else legal)
            game.push(move)
            if mode == "ffa":
                expected[mover] += expected_move_points(before, game.board, move, mover, active_before)
                mates = [e for e in game.eliminations[n_elims:] if e.reason is Reason.CHECKMATE]
                if len(mates) == 1:
                    # credited: the most recent mover among the attackers, counting back from the mover
                    cell = before.king(mates[0].player)
                    order = [SEATS[(SEATS.index(mover) - k) % 4] for k in range(4)]
                    attackers = [
                        q
                        for q in order
                        if q != mates[0].player and game.status(q) == Status.ACTIVE and game.board.attackers(cell, q)
                    ]
                    assert attackers and mates[0].by == attackers[0], (before.fen(), str(move), mates)
        steps += 1
        board = game.board
        out = game.outcome()
        if mode == "ffa":
            for e in game.eliminations[n_elims:]:
                if e.reason in (Reason.CHECKMATE, Reason.KING_CAPTURE):
                    expected[e.by] += 20
                elif e.reason is Reason.STALEMATE:
                    expected[e.player] += 20
            if out is not None and out.termination in DRAWS:
                for p in game.active_players():
                    expected[p] += 10
            assert game.points == expected, (before.fen(), game.history[-1])
        after = game.points
        assert all(after[p] >= before_points[p] for p in before_points)  # points never decrease
        for p in SEATS:
            if board.status(p) != Status.OUT:
                continue
            assert p not in game.active_players()
            if mode == "ffa":
                assert board.controller(p) is None
                now = cells_of(game, p)
                if p not in dead:
                    dead[p] = now
                # dead pieces never move: they only disappear when captured
                assert all(dead[p].get(cell) == pc for cell, pc in now.items())
                dead[p] = now
        if out is None:
            assert game.status(game.turn) == Status.ACTIVE
            for cell in board.checkers():
                assert board.status(board.piece_at(cell).colour) == Status.ACTIVE  # dead pieces give no check
            for m in game.legal_moves:
                assert board.piece_at(m.from_cell).colour == game.turn
    assert out is not None and set(out.places) == set(SEATS)
    if mode == "ffa":
        assert out.points == game.points
        for p in SEATS:
            assert out.places[p] == 1 + sum(q > out.points[p] for q in out.points.values())
        if out.termination not in DRAWS | {Termination.MOVE_LIMIT, Termination.POINTS_LEAD}:
            assert len(game.active_players()) <= 1
        if out.termination == Termination.POINTS_LEAD:
            a, b = (out.points[p] for p in game.active_players())
            assert abs(a - b) >= 21
        for e in out.eliminations:
            assert game.status(e.player) == Status.OUT
    else:
        assert out.points is None and game.points == {}
        values = sorted(out.places.values())
        assert values in ([1, 1, 1, 1], [1, 1, 3, 3])
        if values == [1, 1, 3, 3]:
            assert out.places[R] == out.places[Y] and out.places[B] == out.places[G]
            losers = {p for p in SEATS if out.places[p] == 3}
            assert out.eliminations[-1].player in losers
    while True:
        try:
            game.pop()
        except IndexError:
            break
        steps -= 1
    assert steps == 0
    assert snapshot(game) == start


@pytest.mark.parametrize("seed", range(40))
def test_random_ffa_games(seed):
    random_game("ffa", seed, event_rate=0.002)


@pytest.mark.parametrize("seed", range(24))
def test_random_teams_games(seed):
    random_game("teams", 1000 + seed, event_rate=0.0005)


# --------------------------------------------------------------------------- FFA: checks the move gives


def pgn4_moves(game: Game) -> list[str]:
    """The moves as PGN4 writes them, with their '+' marks (polychess.formats.pgn4)."""
    movetext = write_pgn4(game).split("\n\n", 1)[1]
    return [token for token in movetext.split() if re.match(r"[KQRBN]?[a-n][0-9]", token)]


def test_a_king_already_in_check_does_not_count_again():
    """rules §2.4: a king counts for the check bonus when the move gives it check. Green's
    knight d4-e2 uncovers Red's bishop f2 onto Blue's king a7 (one king: no bonus); then Red's
    rook j10-g10 checks Yellow's king g14. Blue's king is still attacked, but not by anything
    new, so Red's move checks one king and scores nothing, as its single '+' says."""
    game = game_from({**HOME, "f2": "rB", "d4": "gN", "j10": "rR"}, turn="g")
    s = Script(game)
    s.push("d4e2", pts(0, 0, 0, 0))
    assert attacked_kings(game) == {B: {R}}
    s.push("j10g10", pts(0, 0, 0, 0))
    assert attacked_kings(game) == {B: {R}, Y: {R}}
    assert pgn4_moves(game) == ["Nd4-e2+", "Rj10-g10+"]
    s.unwind()


def test_an_uncovered_check_by_another_players_piece_counts():
    """rules §2.4: Red's knight k8-i9 checks Blue's king h11 and uncovers Yellow's rook f8 onto
    Green's king n8: the move checks two kings ('++') and Red scores 5."""
    game = game_from({"h1": "rK", "h11": "bK", "g14": "yK", "n8": "gK", "f8": "yR", "k8": "rN"})
    s = Script(game)
    s.push("k8i9", pts(5, 0, 0, 0))
    assert attacked_kings(game) == {B: {R}, G: {Y}}
    assert pgn4_moves(game) == ["Nk8-i9++"]
    s.unwind()


# --------------------------------------------------------------------------- a start position already over

# Yellow's king d14 is checked by Blue's rook d1 along the d-file; Green's rook e2 holds e13 and
# e14: Yellow is mated in the start position, with Red to move.
YELLOW_MATED = {"j4": "rK", "a7": "bK", "d14": "yK", "n8": "gK", "d1": "bR", "e2": "gR"}
# Red's king d1 is checked by Blue's rook d14; Green's rook e14 holds e1 and e2: Red, to move,
# is mated in the start position.
RED_MATED = {"d1": "rK", "a7": "bK", "j13": "yK", "n8": "gK", "d14": "bR", "e14": "gR"}


def test_ffa_start_position_mate_of_a_player_not_to_move_is_confirmed_at_once():
    """rules §2.4: mates are confirmed at once, and the start position is judged so too; no
    move gave this mate, so it scores for nobody (not for Red, who merely moves next)."""
    game = game_from(YELLOW_MATED)
    assert game.eliminations == (elim(Y, Reason.CHECKMATE, None, 0),)
    assert game.points == pts(0, 0, 0, 0)
    assert_dead(game, Y, {"d14": "yK"})
    assert game.turn == R and game.outcome() is None
    s = Script(game)
    s.push("j4j5", pts(0, 0, 0, 0))
    s.unwind()
    assert game.eliminations == (elim(Y, Reason.CHECKMATE, None, 0),)


def test_ffa_start_position_mate_of_the_player_to_move_scores_for_nobody():
    game = game_from(RED_MATED)
    assert game.eliminations == (elim(R, Reason.CHECKMATE, None, 0),)
    assert game.points == pts(0, 0, 0, 0) and game.turn == B


def test_teams_start_position_mate_of_the_player_to_move_ends_the_game():
    """rules §2.3: Red, to move, is mated by Blue: Blue and Green win before anyone moves."""
    game = game_from(RED_MATED, mode="teams")
    out = game.outcome()
    assert out is not None and out.termination == Termination.CHECKMATE
    assert out.places == places(3, 1, 3, 1) and out.eliminations == (elim(R, Reason.CHECKMATE, B, 0),)


def test_ffa_start_position_with_three_players_out_is_over():
    """rules §2.4: the game ends when three players are out; here Blue and Green are out
    already (their pieces dead) and Yellow is mated by Red's rooks in the start position."""
    pieces = {**YELLOW_MATED, "d1": "rR", "e2": "rR"}
    game = game_from(pieces, controllers="r-y-", statuses="axax")
    out = game.outcome()
    assert out is not None and out.termination == Termination.CHECKMATE
    assert out.eliminations == (elim(Y, Reason.CHECKMATE, None, 0),) and out.points == {R: 0, Y: 0}
