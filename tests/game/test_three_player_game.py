"""The game layer (polychess.Game): eliminations and transfers, frozen players, places, draws,
options, clocks and take-backs, against docs/rules.md §1.6-§1.11 and §3.

Almost every test plays a scripted game from a small hand-built position (tests/positions.py)
and states, after every elimination, what docs/rules.md implies: the victim's king is gone, his other
pieces now belong to the mater (who can move them) or to nobody, the turn order skips him, and
at the end the termination and every player's place.  Every scripted game is then taken back
move by move with ``Game.pop`` and each earlier state must come back exactly (position string,
outcome, eliminations, history, clock times).

Board sketches use the cell names of rules §1.1: files A-D run 1 2 3 4 | 9 10 11 12, files E-H
run 1..8, files K-N run 12 11 10 9 | 5 6 7 8; rank 12 is Red's back rank
(N12 M12 L12 K12 D12 C12 B12 A12), rank 8 Black's (H8 G8 F8 E8 K8 L8 M8 N8).
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from game_script import FakeTime, Script, elim, game_from, moves, moves_from, snapshot  # noqa: E402
from polychess import (
    Board,
    Colour,
    Game,
    GameOverError,
    IllegalMoveError,
    Piece,
    PieceType,
    Reason,
    Status,
    Termination,
    TimeForfeitError,
)
from positions import position  # noqa: E402
from reference import three_player as tp  # noqa: E402

W, R, B = Colour.WHITE, Colour.RED, Colour.BLACK
START = Board("three-player").fen()


# --------------------------------------------------------------------------- helpers


def cells_of(game: Game, colour: Colour) -> set[str]:
    return {cell for cell, p in game.board.pieces().items() if p.colour == colour}


def assert_transferred(game: Game, victim: Colour, mater: Colour, cells: set[str]) -> None:
    """rules §1.8: the victim's king is removed, his other pieces stay where they are, keep
    their colour and now belong to the mater; the victim is out."""
    board = game.board
    assert board.king(victim) is None
    assert board.status(victim) == Status.OUT and game.status(victim) == Status.OUT
    assert board.controller(victim) == mater
    assert not any(p == Piece(victim, PieceType.KING) for p in board.pieces().values())
    assert cells_of(game, victim) == cells
    assert victim not in game.active_players()


def assert_inert(game: Game, victim: Colour, cells: set[str]) -> None:
    """rules §1.10: king removed, the other pieces stay and belong to nobody."""
    board = game.board
    assert board.king(victim) is None
    assert board.status(victim) == Status.OUT
    assert board.controller(victim) is None
    assert cells_of(game, victim) == cells


def fen_fields(game: Game) -> list[str]:
    return game.board.fen().split(" ")


# --------------------------------------------------------------------------- positions

# Black's king in the corner H8 (neighbours G8, G7, H7).  White's rook B3-H3 checks along the
# H-file (H3 H4 | H5 H6 H7 H8) and covers H7; Red's rook on G1 covers the G-file up to G8 and
# G7 (a cover, not a check: White is the only attacker).  Black's rook on K10 can neither block
# the H-file nor take H3.  Red's king N12 sits behind its pawns N11, M11; Black's rook, once it
# is White's, goes K10-K12 and checks along rank 12 (K12 L12 M12 N12): back-rank mate.
MATE_TWICE = {"A3": "wK", "B3": "wR", "G1": "rR", "N12": "rK", "N11": "rP", "M11": "rP", "H8": "bK", "K10": "bR"}


def test_first_mate_then_second_mate():
    game = game_from(MATE_TWICE)
    s = Script(game)
    assert game.seats == (W, R, B)
    assert game.turn == W and game.active_players() == [W, R, B]
    s.push("B3H3")
    assert game.turn == R and game.eliminations == () and game.outcome() is None
    s.push("G1G2")  # Red's quiet move; Black has no answer to the check
    # Black is mated by White (the only attacker) and is out; the game goes on.
    assert game.eliminations == (elim(B, Reason.CHECKMATE, W, 2),)
    assert game.outcome() is None and not game.is_over()
    assert_transferred(game, B, W, {"K10"})
    assert game.board.piece_at("K10") == Piece(B, PieceType.ROOK)  # keeps its colour
    assert fen_fields(game)[6:8] == ["wrw", "aax"]
    assert game.active_players() == [W, R]
    # the turn passed from Red straight back to White (Black skipped), a new round began
    assert game.turn == W and game.board.fullmove_number == 2
    # White moves the inherited rook as his own
    assert {"K10K12", "K10K11", "K10A10", "K10N10", "K10K5"} <= moves_from(game, "K10")
    assert "H3H8" in moves(game)  # the mated king's cell is empty now
    s.push("A3A4")
    assert game.turn == R  # White -> Red
    s.push("G2G3")
    assert game.turn == W  # Red -> White: Black never moves again
    s.push("K10K12")  # the inherited rook mates on the back rank
    out = game.outcome()
    assert out is not None and game.is_over()
    assert out.termination == Termination.CHECKMATE
    assert out.places == {W: 1, R: 2, B: 3}
    assert out.winners == (W,)
    assert out.returns() == (1.0, 0.0, -1.0)
    assert out.eliminations == (elim(B, Reason.CHECKMATE, W, 2), elim(R, Reason.CHECKMATE, W, 5))
    assert game.eliminations == out.eliminations
    assert_transferred(game, R, W, {"N11", "M11", "G3"})
    assert fen_fields(game)[6:8] == ["www", "axx"]
    assert len(game.legal_moves) == 0 and list(game.legal_moves) == []
    assert game.history == ["B3H3", "G1G2", "A3A4", "G2G3", "K10K12"]
    assert game.ply == 5
    with pytest.raises(GameOverError):
        game.push("A4A3")
    with pytest.raises(GameOverError):
        game.resign(W)
    with pytest.raises(GameOverError):
        game.agree_draw()
    s.unwind()
    assert game.board.fen() == game.start_fen == position(MATE_TWICE)


def test_mate_with_first_mate_wins_ends_the_game():
    game = game_from(MATE_TWICE, first_mate_wins=True)
    s = Script(game)
    s.push("B3H3", "G1G2")
    out = game.outcome()
    assert out is not None
    assert out.termination == Termination.CHECKMATE
    assert out.places == {W: 1, R: 2, B: 2}  # mater first, both others share last place
    assert out.winners == (W,)
    assert out.eliminations == (elim(B, Reason.CHECKMATE, W, 2),)
    # the game ends on the mate: Black's king and army stay where they stand (docs/rules.md,
    # first_out_decides), and the game, not the board, counts him out
    board = game.board
    assert board.king(B) is not None and board.controller(B) == B and board.is_checkmate()
    assert game.status(B) == Status.OUT and game.active_players() == [W, R]
    assert not game.legal_moves
    with pytest.raises(GameOverError):
        game.push("K10K12")
    s.unwind()


# --------------------------------------------------------------------------- stalemates

# Red's king N12 (neighbours M12, N11, M11) is boxed in by White's rooks A11 (rank 11) and M5
# (M-file) without being attacked: Red is stalemated as soon as it is his turn.  Black's king
# H8 is boxed in by the rooks G2 (G-file) and F7 (rank 7: F7 G7 H7); his only move is E7-E6,
# after which White's pawn E5 blocks that pawn: the second stalemate.
TWO_STALEMATES = {
    "E1": "wK",
    "A11": "wR",
    "M5": "wR",
    "G2": "wR",
    "F7": "wR",
    "E5": "wP",
    "N12": "rK",
    "H8": "bK",
    "E7": "bP",
}


def test_second_stalemate_is_a_three_way_draw():
    game = game_from(TWO_STALEMATES)
    s = Script(game)
    s.push("E1D1")
    # Red is frozen, not out: his king stays, he keeps his pieces, turns skip him
    assert game.eliminations == (elim(R, Reason.STALEMATE, None, 1),)
    assert game.status(R) == Status.FROZEN
    assert game.board.king(R) == "N12" and game.board.controller(R) == R
    assert fen_fields(game)[6:8] == ["wrb", "afa"]
    assert game.outcome() is None
    assert game.turn == B and game.active_players() == [W, B]
    assert moves(game) == {"E7E6"}
    s.push("E7E6")
    assert game.turn == W  # Black -> White, the frozen Red skipped
    s.push("D1E1")
    out = game.outcome()
    assert out is not None
    assert out.termination == Termination.STALEMATE
    assert out.places == {W: 1, R: 1, B: 1}
    assert set(out.winners) == {W, R, B}
    assert out.returns() == (1.0, 1.0, 1.0)
    assert out.eliminations == (elim(R, Reason.STALEMATE, None, 1), elim(B, Reason.STALEMATE, None, 3))
    assert game.status(B) == Status.FROZEN and game.board.king(B) == "H8"
    assert fen_fields(game)[7] == "aff"
    s.unwind()


# Black is mated by White alone (rooks H3 and G2) while Red plays A11-A10 (his pawn is then
# blocked by White's pawn on A9).  White then moves the inherited rook K10-K11, which with the
# rook on M5 boxes Red's king N12 in: Red is stalemated after the first mate.
STALEMATE_AFTER_MATE = {
    "E1": "wK",
    "B3": "wR",
    "G2": "wR",
    "M5": "wR",
    "A9": "wP",
    "N12": "rK",
    "A11": "rP",
    "H8": "bK",
    "K10": "bR",
}


def test_stalemate_after_a_mate_is_a_draw_of_the_two_unmated():
    game = game_from(STALEMATE_AFTER_MATE)
    s = Script(game)
    s.push("B3H3", "A11A10")
    assert game.eliminations == (elim(B, Reason.CHECKMATE, W, 2),)
    assert_transferred(game, B, W, {"K10"})
    assert game.turn == W and game.outcome() is None
    s.push("K10K11")  # White moves Black's former rook
    out = game.outcome()
    assert out is not None
    assert out.termination == Termination.STALEMATE
    assert out.places == {W: 1, R: 1, B: 3}  # the mated player stays 3rd
    assert set(out.winners) == {W, R}
    assert out.returns() == (1.0, 1.0, -1.0)
    assert out.eliminations == (elim(B, Reason.CHECKMATE, W, 2), elim(R, Reason.STALEMATE, None, 3))
    assert game.status(R) == Status.FROZEN
    s.unwind()


# White's first move K6-K11 (K6 K5 | K9 K10 K11) stalemates Red (rook M5 covers M12 and M11,
# the rook on K11 covers N11); then White mates Black with B3-H3 (G2 covers G8, G7).
STALEMATE_THEN_MATE = {"E1": "wK", "B3": "wR", "G2": "wR", "M5": "wR", "K6": "wR", "N12": "rK", "H8": "bK", "N7": "bP"}


def test_stalemate_then_mate_mater_first_mated_and_frozen_share_second():
    game = game_from(STALEMATE_THEN_MATE)
    s = Script(game)
    s.push("K6K11")
    assert game.eliminations == (elim(R, Reason.STALEMATE, None, 1),)
    assert game.status(R) == Status.FROZEN and game.turn == B
    s.push("N7N6")
    assert game.turn == W
    s.push("B3H3")
    out = game.outcome()
    assert out is not None
    assert out.termination == Termination.CHECKMATE
    assert out.places == {W: 1, R: 2, B: 2}
    assert out.winners == (W,)
    assert out.eliminations == (elim(R, Reason.STALEMATE, None, 1), elim(B, Reason.CHECKMATE, W, 3))
    assert game.board.king(B) is None
    assert game.board.king(R) == "N12"  # the frozen king stays
    assert game.status(R) == Status.FROZEN
    s.unwind()


def test_frozen_player_is_skipped_and_his_king_cannot_be_captured():
    game = game_from(STALEMATE_THEN_MATE)
    s = Script(game)
    s.push("K6K11")  # Red frozen
    s.push("N7N6")
    assert game.turn == W
    assert "K11K12" in moves(game)
    s.push("K11K12")  # the rook now looks along rank 12 at N12 (L12, M12 empty)
    assert game.turn == B  # Red skipped
    s.push("N6N5")
    assert game.turn == W
    got = moves(game)
    assert not {m for m in got if m.endswith("N12")}  # the frozen king is never captured
    assert {"K12L12", "K12M12"} <= got  # pieces may stand next to it
    assert game.board.king(R) == "N12"
    s.push("E1F1")
    assert game.turn == B
    s.push("N5N9")
    assert game.turn == W and game.status(R) == Status.FROZEN
    assert game.outcome() is None
    s.unwind()


def test_agreement_after_a_stalemate_is_a_draw_of_all_three():
    game = game_from(STALEMATE_THEN_MATE)
    s = Script(game)
    s.push("K6K11")
    s.event("agree_draw")
    out = game.outcome()
    assert out is not None and out.termination == Termination.AGREEMENT
    assert out.places == {W: 1, R: 1, B: 1}
    assert game.history == ["K6K11", "draw"]
    s.unwind()


def test_resignation_after_a_stalemate_ranks_as_a_mate():
    # "ranked as if mated at that moment": after a stalemate, the other active player is 1st,
    # the resigned and the frozen share 2nd.
    game = game_from(STALEMATE_THEN_MATE)
    s = Script(game)
    s.push("K6K11")
    s.event("resign", B)
    out = game.outcome()
    assert out is not None and out.termination == Termination.RESIGNATION
    assert out.places == {W: 1, R: 2, B: 2}
    assert out.eliminations[-1] == elim(B, Reason.RESIGNATION, None, 1)
    assert_inert(game, B, {"N7"})
    s.unwind()


# --------------------------------------------------------------------------- king capture

# Red's knight on E3 stands between Black's rook on E6 and White's king on E1.  Red moves it
# away: Black, who moves before White, captures the king (rules §1.6).
KING_CAPTURE = {"E1": "wK", "H1": "wR", "A2": "wP", "E3": "rN", "D12": "rK", "E6": "bR", "K8": "bK"}


def test_king_capture_credited_to_the_capturer_and_army_transferred_within_the_move():
    game = game_from(KING_CAPTURE, turn="r", castling="wK")
    s = Script(game)
    s.push("E3C4")
    assert game.turn == B
    assert "E6E1" in moves(game)
    s.push("E6E1")
    assert game.eliminations == (elim(W, Reason.KING_CAPTURE, B, 2),)
    assert game.outcome() is None
    assert_transferred(game, W, B, {"H1", "A2"})
    assert game.board.piece_at("E1") == Piece(B, PieceType.ROOK)
    assert fen_fields(game)[2] == "-"  # White's castling right lapsed
    assert fen_fields(game)[6:8] == ["brb", "xaa"]
    assert game.turn == R and game.active_players() == [R, B]
    s.push("D12C12")
    assert game.turn == B  # White skipped
    got = moves(game)
    assert {"H1H2", "H1G1", "A2A3", "A2A4"} <= got
    assert "H1E1" not in got and "E1H1" not in got  # his two colours never capture each other
    s.push("A2A4")  # Black moves White's pawn
    assert game.turn == R
    assert game.board.piece_at("A4") == Piece(W, PieceType.PAWN)
    s.unwind()


def test_king_capture_with_first_mate_wins():
    game = game_from(KING_CAPTURE, turn="r", castling="wK", first_mate_wins=True)
    s = Script(game)
    s.push("E3C4", "E6E1")
    out = game.outcome()
    assert out is not None
    assert out.termination == Termination.KING_CAPTURE
    assert out.places == {W: 2, R: 2, B: 1}
    assert out.eliminations == (elim(W, Reason.KING_CAPTURE, B, 2),)
    s.unwind()


# --------------------------------------------------------------------------- mate credit

# White's knight E5-G6 checks H8 and uncovers Red's bishop C3 (C3 D4 | E5 F6 G7 H8): a double
# check by two players, created by White's move.  Red's rook N7 covers rank 7 (H7, G7), his
# knight H6 covers G8.  Black's pawn N6 can do nothing against a double check.
DISCOVERED_BY_EARLIER = {
    "A3": "wK",
    "E5": "wN",
    "C3": "rB",
    "N7": "rR",
    "H6": "rN",
    "D12": "rK",
    "H8": "bK",
    "N6": "bP",
}
# The same with the colours of the attackers swapped: Red's knight E5-G6 uncovers White's
# bishop C3, after a quiet White move.
DISCOVERED_BY_LATER = {"A3": "wK", "E5": "rN", "C3": "wB", "N7": "wR", "H6": "wN", "D12": "rK", "H8": "bK", "N6": "bP"}


def _push_double_check_mate(
    s: Script, last_move: str, checkers: dict[str, Colour], mater: Colour, victim: Colour
) -> None:
    """Before the last move is played in the game, play it on a copy of the board to see the
    double check and the credit the board gives; then play it in the game."""
    board = s.game.board
    board.push(last_move)
    assert board.turn == victim
    assert sorted(board.checkers()) == sorted(checkers)
    assert {board.piece_at(c).colour for c in checkers} == set(checkers.values())
    assert board.is_checkmate()
    assert board.mated_by() == mater
    assert tp.mater(board.fen()) == mater.value[0]  # the reference agrees
    s.push(last_move)


def test_discovered_double_check_made_by_the_earlier_mover_credits_the_later():
    game = game_from(DISCOVERED_BY_EARLIER)
    s = Script(game)
    s.push("E5G6")  # White's move: knight check + Red's bishop uncovered
    _push_double_check_mate(s, "D12C12", {"C3": R, "G6": W}, R, B)
    assert game.eliminations == (elim(B, Reason.CHECKMATE, R, 2),)
    assert_transferred(game, B, R, {"N6"})
    assert game.turn == W
    s.push("A3A4")
    assert game.turn == R
    assert "N6N5" in moves(game)  # Red moves Black's pawn
    s.push("N6N5")
    assert game.board.piece_at("N5") == Piece(B, PieceType.PAWN)
    assert game.turn == W
    s.unwind()


def test_discovered_double_check_made_by_the_later_mover_credits_him():
    game = game_from(DISCOVERED_BY_LATER)
    s = Script(game)
    s.push("A3A4")  # White's quiet move
    _push_double_check_mate(s, "E5G6", {"C3": W, "G6": R}, R, B)
    assert game.eliminations == (elim(B, Reason.CHECKMATE, R, 2),)
    assert_transferred(game, B, R, {"N6"})
    assert game.turn == W
    s.unwind()


# Victim Red in the corner N12: Black's rook G6-N6 checks along the N-file (N6 N5 | N9 N10 N11
# N12), White's rook M8 covers the M-file, White's bishop K8-F6 adds a second check along
# F6 E5 | K9 L10 M11 N12.  Black moves before White, so White moved most recently.
VICTIM_RED = {"H6": "bK", "G6": "bR", "M8": "wR", "K8": "wB", "E1": "wK", "N12": "rK", "A11": "rP"}


def test_double_check_credits_the_most_recent_mover_white():
    game = game_from(VICTIM_RED, turn="b")
    s = Script(game)
    s.push("G6N6")
    _push_double_check_mate(s, "K8F6", {"N6": B, "F6": W}, W, R)
    assert game.eliminations == (elim(R, Reason.CHECKMATE, W, 2),)
    assert_transferred(game, R, W, {"A11"})
    assert game.turn == B  # White -> (Red out) -> Black
    s.push("H6H7")
    assert game.turn == W
    assert {"A11A10", "A11A9"} <= moves(game)  # Red's pawn keeps Red's direction, for White
    s.unwind()


def test_single_attacker_gets_the_credit_even_if_the_other_moved_last():
    game = game_from(VICTIM_RED, turn="b")
    s = Script(game)
    s.push("G6N6", "E1F1")  # White's move gives no check
    assert game.eliminations == (elim(R, Reason.CHECKMATE, B, 2),)
    assert_transferred(game, R, B, {"A11"})
    assert game.turn == B
    assert "A11A10" in moves(game)
    s.unwind()


# --------------------------------------------------------------------------- draws


def test_agreement():
    game = Game()
    s = Script(game)
    s.push("E2E4", "D11D9", "G8F6")
    s.event("agree_draw")
    out = game.outcome()
    assert out is not None and out.termination == Termination.AGREEMENT
    assert out.places == {W: 1, R: 1, B: 1}
    assert out.eliminations == ()
    assert game.history[-1] == "draw" and game.ply == 3
    assert not game.legal_moves
    s.unwind()


def test_agreement_after_a_mate_keeps_the_mated_third():
    game = game_from(MATE_TWICE)
    s = Script(game)
    s.push("B3H3", "G1G2")
    s.event("agree_draw")
    out = game.outcome()
    assert out is not None and out.termination == Termination.AGREEMENT
    assert out.places == {W: 1, R: 1, B: 3}
    s.unwind()


KNIGHT_SHUFFLE = ["B1C3", "M12L10", "G8F6", "C3B1", "L10M12", "F6G8"]


def test_threefold_repetition_from_the_start():
    game = Game()
    s = Script(game)
    s.push(*KNIGHT_SHUFFLE)
    assert game.board.fen().split(" ")[:4] == START.split(" ")[:4]  # second occurrence
    assert game.outcome() is None
    s.push(*KNIGHT_SHUFFLE[:-1])
    assert game.outcome() is None  # the third occurrence needs Black's last move
    s.push(KNIGHT_SHUFFLE[-1])
    out = game.outcome()
    assert out is not None and out.termination == Termination.THREEFOLD_REPETITION
    assert out.places == {W: 1, R: 1, B: 1}
    assert game.ply == 12
    s.unwind()
    assert game.board.fen() == START


def test_repetition_counts_are_taken_back_by_pop():
    game = Game()
    for move in KNIGHT_SHUFFLE:
        game.push(move)
    for _ in KNIGHT_SHUFFLE:
        game.pop()
    assert game.board.fen() == START
    for move in KNIGHT_SHUFFLE:  # the start position now occurs for the 2nd time only
        game.push(move)
    assert game.outcome() is None
    for move in KNIGHT_SHUFFLE:
        game.push(move)
    assert game.outcome().termination == Termination.THREEFOLD_REPETITION
    game.pop()  # take back the draw and play on differently
    assert game.outcome() is None
    game.push("E7E6")
    assert game.outcome() is None and game.ply == 12


def test_repetition_needs_the_same_castling_rights():
    # White's rook A1-B1-A1 loses the long castling right: the placement after Black's third
    # move (ply 3) comes back at plies 9 and 15, but only the last two have the same rights.
    # The first position to occur three times with the same rights is the one after ply 4
    # (again at plies 10 and 16).
    game = Game()
    s = Script(game)
    s.push("B1C3", "M12L10", "G8F6")
    placement = fen_fields(game)[0]
    cycle = ["A1B1", "L10M12", "F6G8", "B1A1", "M12L10", "G8F6"]
    s.push(*cycle, *cycle)
    assert game.ply == 15
    assert fen_fields(game)[0] == placement
    assert game.outcome() is None
    s.push("A1B1")
    out = game.outcome()
    assert out is not None and out.termination == Termination.THREEFOLD_REPETITION
    assert game.ply == 16
    s.unwind()


def test_fifty_moves_with_three_players_is_150_plies():
    pieces = {"E1": "wK", "A1": "wR", "D12": "rK", "N12": "rR", "K8": "bK", "N8": "bR"}
    game = game_from(pieces, halfmove=147)
    s = Script(game)
    s.push("A1A2", "N12N11")
    assert game.board.halfmove_clock == 149 and game.outcome() is None
    s.push("N8N7")
    out = game.outcome()
    assert out is not None and out.termination == Termination.FIFTY_MOVES
    assert out.places == {W: 1, R: 1, B: 1}
    s.unwind()


def test_fifty_moves_a_capture_resets():
    pieces = {"E1": "wK", "A1": "wR", "D12": "rK", "A12": "rR", "K8": "bK", "N8": "bR"}
    game = game_from(pieces, halfmove=148)
    game.push("A1A12")  # A-file: A1 A2 A3 A4 | A9 A10 A11 A12 — a capture
    assert game.board.halfmove_clock == 0
    game.push("D12D11")
    assert game.outcome() is None


def test_fifty_moves_after_a_mate_is_100_plies():
    game = game_from(MATE_TWICE, halfmove=97)
    s = Script(game)
    s.push("B3H3", "G1G2")  # Black mated at halfmove 99; two players remain
    assert game.board.halfmove_clock == 99
    assert game.outcome() is None
    s.push("A3A4")
    out = game.outcome()
    assert out is not None and out.termination == Termination.FIFTY_MOVES
    assert out.places == {W: 1, R: 1, B: 3}
    s.unwind()


def test_bare_kings_after_a_capture():
    # White's king takes Black's last piece, a knight on E2: only kings are left.
    pieces = {"E1": "wK", "D12": "rK", "K8": "bK", "E2": "bN"}
    game = game_from(pieces)
    s = Script(game)
    assert "E1E2" in moves(game)
    s.push("E1E2")
    out = game.outcome()
    assert out is not None and out.termination == Termination.INSUFFICIENT_MATERIAL
    assert out.places == {W: 1, R: 1, B: 1}
    assert {p.piece_type for p in game.board.pieces().values()} == {PieceType.KING}
    s.unwind()


def test_king_and_minor_piece_is_not_a_draw_in_three_player_chess():
    # rules §1.10: only "only kings left" ends a three-player game for lack of material.
    pieces = {"E1": "wK", "C1": "wB", "D12": "rK", "K8": "bK", "E2": "bN"}
    game = game_from(pieces)
    game.push("E1E2")
    assert game.outcome() is None


# --------------------------------------------------------------------------- resignation

# Red's rook E6 pins White's knight E3 to his king E1 along the E-file.  After Red resigns
# the rook is an inert obstacle: it pins nothing, gives no check and can be captured.
RESIGN = {"E1": "wK", "E3": "wN", "N6": "wR", "D12": "rK", "E6": "rR", "D11": "rP", "K8": "bK", "N7": "bP"}


def test_resignation_leaves_inert_obstacles():
    game = game_from(RESIGN)
    s = Script(game)
    assert moves_from(game, "E3") == set()  # pinned
    s.push("N6M6")
    assert game.turn == R
    s.event("resign", R)
    assert game.eliminations == (elim(R, Reason.RESIGNATION, None, 1),)
    assert game.history == ["N6M6", "resign(red)"]
    assert game.ply == 1
    assert_inert(game, R, {"E6", "D11"})
    assert fen_fields(game)[6:8] == ["w-b", "axa"]
    assert game.turn == B and game.active_players() == [W, B]
    assert game.outcome() is None
    s.push("K8K7")
    assert game.turn == W  # Red skipped
    got = moves(game)
    assert moves_from(game, "E3") >= {"E3C4", "E3G4", "E3C2", "E3G2"}  # the pin is gone
    assert "M6E6" in got  # the inert rook can be captured
    assert "M6F6" not in got  # and still blocks the rank
    assert "E1E2" in got  # onto the file the rook "looks at"
    s.push("M6E6")
    assert game.board.piece_at("E6") == Piece(W, PieceType.ROOK)
    s.push("K7L7")
    s.event("resign", B)
    out = game.outcome()
    assert out is not None and out.termination == Termination.RESIGNATION
    assert out.places == {W: 1, B: 2, R: 3}
    assert out.eliminations == (elim(R, Reason.RESIGNATION, None, 1), elim(B, Reason.RESIGNATION, None, 4))
    assert_inert(game, B, {"N7"})
    s.unwind()


def test_resignation_by_a_player_not_to_move_keeps_the_turn():
    game = Game()
    s = Script(game)
    s.push("E2E4")
    assert game.turn == R
    s.event("resign", W)
    assert game.turn == R
    assert game.board.king(W) is None and game.board.controller(W) is None
    assert len(cells_of(game, W)) == 15
    s.push("D11D9")
    assert game.turn == B
    s.push("E7E5")
    assert game.turn == R
    with pytest.raises(ValueError):
        game.resign(W)  # already out
    s.unwind()


def test_resignation_of_a_player_with_two_colours_leaves_both_inert():
    game = game_from(MATE_TWICE)
    s = Script(game)
    s.push("B3H3", "G1G2")  # White now controls Black's rook K10
    s.event("resign", W)
    out = game.outcome()
    assert out is not None and out.termination == Termination.RESIGNATION
    assert out.places == {R: 1, W: 2, B: 3}
    board = game.board
    assert board.controller(W) is None and board.controller(B) is None
    assert board.king(W) is None
    assert cells_of(game, B) == {"K10"} and cells_of(game, W) == {"H3"}
    s.unwind()


def test_resignation_after_a_mate():
    game = game_from(MATE_TWICE)
    s = Script(game)
    s.push("B3H3", "G1G2")
    s.event("resign", R)
    out = game.outcome()
    assert out is not None and out.termination == Termination.RESIGNATION
    assert out.places == {W: 1, R: 2, B: 3}
    assert out.eliminations == (elim(B, Reason.CHECKMATE, W, 2), elim(R, Reason.RESIGNATION, None, 2))
    s.unwind()


# --------------------------------------------------------------------------- time


def test_time_forfeit_via_push_and_via_flag():
    clock = FakeTime()
    game = Game(time_control=10, time_source=clock)
    s = Script(game)
    clock.set(3)
    s.push("E2E4")
    assert game.clock.remaining == {W: 7, R: 10, B: 10}
    clock.set(5)
    s.push("D11D9")
    assert game.clock.remaining == {W: 7, R: 8, B: 10}
    clock.set(9)
    s.push("E7E5")
    assert game.clock.remaining == {W: 7, R: 8, B: 6}
    assert not game.flag()  # White has used 0 of his 7 s: nothing happens
    clock.set(16.5)  # White took 7.5 s > 7 s
    white_cells = cells_of(game, W) - {"E1"}
    s.forfeit_by_push("D2D4")
    assert game.eliminations == (elim(W, Reason.TIME_FORFEIT, None, 3),)
    assert game.history[-1] == "timeout(white)"
    assert game.ply == 3  # the move was not played
    assert game.board.piece_at("D2") == Piece(W, PieceType.PAWN) and game.board.piece_at("D4") is None
    assert_inert(game, W, white_cells)
    assert game.turn == R and game.outcome() is None
    assert game.clock.remaining[W] <= 0
    assert game.clock.remaining[R] == 8 and game.clock.remaining[B] == 6
    clock.set(18.5)  # Red's clock started at 16.5, when the forfeit was noted
    s.push("C11C10")
    assert game.clock.remaining[R] == 6
    clock.set(24)
    assert not game.flag()  # Black: 6 - 5.5 > 0
    black_cells = cells_of(game, B) - {"K8"}
    clock.set(25)  # 6.5 s used of 6
    assert game.flag()
    s.states.append(snapshot(game))
    out = game.outcome()
    assert out is not None and out.termination == Termination.TIME_FORFEIT
    assert out.places == {R: 1, B: 2, W: 3}
    assert out.eliminations == (elim(W, Reason.TIME_FORFEIT, None, 3), elim(B, Reason.TIME_FORFEIT, None, 4))
    assert game.history[-1] == "timeout(black)"
    assert_inert(game, B, black_cells)
    with pytest.raises(GameOverError):
        game.flag()
    s.unwind()


def test_time_forfeit_event():
    game = Game()
    s = Script(game)
    s.push("E2E4")
    s.event("time_forfeit", R)
    assert game.eliminations == (elim(R, Reason.TIME_FORFEIT, None, 1),)
    assert game.turn == B
    assert game.flag() is False  # no clock
    s.unwind()


def test_time_forfeit_via_push_resolves_the_next_players_mate():
    # Black's rook G6-N6 checks Red's king N12 along the N-file; Black's rook M7 covers the
    # M-file (M12, M11): whatever White does, Red is mated by Black at his turn.  If White
    # loses on time instead of moving, the turn passes to the mated Red just the same
    # (rules §1.7: "at his turn, a player in check with no legal move is checkmated").
    pieces = {"H6": "bK", "G6": "bR", "M7": "bR", "E1": "wK", "A2": "wP", "N12": "rK"}
    # (a) White moves: Red is mated
    game = game_from(pieces, turn="b")
    game.push("G6N6")
    game.push("A2A3")
    assert game.eliminations == (elim(R, Reason.CHECKMATE, B, 2),)
    # (b) White resigns: Red is mated, Black wins
    game = game_from(pieces, turn="b")
    game.push("G6N6")
    game.resign(W)
    assert game.outcome() is not None and game.outcome().places == {W: 3, R: 2, B: 1}
    # (c) White's flag falls (flag()): the same
    clock = FakeTime()
    game = game_from(pieces, turn="b", time_control=60, time_source=clock)
    clock.set(1)
    game.push("G6N6")
    clock.set(100)
    assert game.flag()
    assert game.outcome() is not None and game.outcome().places == {W: 3, R: 2, B: 1}
    # (d) White's time runs out as he pushes a move: the same
    clock = FakeTime()
    game = game_from(pieces, turn="b", time_control=60, time_source=clock)
    clock.set(1)
    game.push("G6N6")
    clock.set(100)
    with pytest.raises(TimeForfeitError):
        game.push("A2A3")
    assert game.eliminations[0] == elim(W, Reason.TIME_FORFEIT, None, 1)
    # Red, to move, is in check with no legal move: he must be mated, not left to move
    assert game.is_over() or len(game.legal_moves) > 0, (
        f"game stuck: {game.turn} to move without a legal move and no outcome: {game.board.fen()}"
    )
    assert game.eliminations == (elim(W, Reason.TIME_FORFEIT, None, 1), elim(R, Reason.CHECKMATE, B, 1))
    assert game.outcome() is not None
    assert game.outcome().termination == Termination.CHECKMATE
    assert game.outcome().places == {W: 3, R: 2, B: 1}


def test_clock_with_increment():
    clock = FakeTime(100.0)
    game = Game(time_control=60, increment=2, time_source=clock)
    s = Script(game)
    clock.set(105)
    s.push("E2E4")
    assert game.clock.remaining == {W: 57, R: 60, B: 60}
    clock.set(112)
    s.push("D11D9")
    assert game.clock.remaining == {W: 57, R: 55, B: 60}
    clock.set(112.5)
    s.push("E7E5")
    assert game.clock.remaining == {W: 57, R: 55, B: 61.5}
    clock.set(120)
    assert game.clock.remaining_now(W) == 57 - 7.5
    s.unwind()


def test_clock_hourglass():
    clock = FakeTime()
    game = Game(time_control=60, hourglass=True, time_source=clock)
    s = Script(game)
    clock.set(6)
    s.push("E2E4")  # White uses 6: 3 to Red, 3 to Black
    assert game.clock.remaining == {W: 54, R: 63, B: 63}
    clock.set(10)
    s.push("D11D9")  # Red uses 4
    assert game.clock.remaining == {W: 56, R: 59, B: 65}
    clock.set(11)
    s.push("E7E5")  # Black uses 1
    assert game.clock.remaining == {W: 56.5, R: 59.5, B: 64}
    s.unwind()


def test_clock_hourglass_after_a_mate_goes_to_the_one_other_player():
    clock = FakeTime()
    game = game_from(MATE_TWICE, time_control=60, increment=1, hourglass=True, time_source=clock)
    s = Script(game)
    clock.set(4)
    s.push("B3H3")
    assert game.clock.remaining == {W: 57, R: 62, B: 62}
    clock.set(10)
    s.push("G1G2")  # Red uses 6, shared with White and Black; Black is mated
    assert game.clock.remaining == {W: 60, R: 57, B: 65}
    assert game.status(B) == Status.OUT
    clock.set(18)
    s.push("A3A4")  # White uses 8: all of it to Red
    assert game.clock.remaining == {W: 53, R: 65, B: 65}
    s.unwind()


def test_clock_hourglass_gives_frozen_players_nothing():
    clock = FakeTime()
    game = game_from(TWO_STALEMATES, time_control=60, hourglass=True, time_source=clock)
    s = Script(game)
    clock.set(2)
    s.push("E1D1")  # White uses 2 (1 each to Red and Black); Red is frozen
    assert game.clock.remaining == {W: 58, R: 61, B: 61}
    clock.set(5)
    s.push("E7E6")  # Black uses 3: all to White, none to the frozen Red
    assert game.clock.remaining == {W: 61, R: 61, B: 58}
    s.unwind()


def test_clock_after_resignation_of_the_player_to_move():
    # The clock of the player to move runs from the moment the previous turn ended: Black's
    # turn begins when Red resigns, so Black is charged only for his own thinking time.
    clock = FakeTime()
    game = Game(time_control=60, time_source=clock)
    clock.set(1)
    game.push("E2E4")
    assert game.clock.remaining == {W: 59, R: 60, B: 60}
    clock.set(11)  # Red thinks 10 s, then resigns
    game.resign(R)
    assert game.turn == B
    clock.set(14)  # Black thinks 3 s
    game.push("E7E5")
    assert game.clock.remaining[B] == 57


def test_clock_after_time_forfeit_event_of_the_player_to_move():
    clock = FakeTime()
    game = Game(time_control=60, time_source=clock)
    clock.set(1)
    game.push("E2E4")
    clock.set(61)
    game.time_forfeit(R)  # an external clock: Red's time is up
    clock.set(64)
    game.push("E7E5")
    assert game.clock.remaining[B] == 57


def test_clock_pop_restores_times():
    clock = FakeTime()
    game = Game(time_control=30, increment=5, time_source=clock)
    clock.set(2)
    game.push("E2E4")
    clock.set(9)
    game.push("D11D9")
    assert game.clock.remaining == {W: 33, R: 28, B: 30}
    game.pop()
    assert game.clock.remaining == {W: 33, R: 30, B: 30}
    game.pop()
    assert game.clock.remaining == {W: 30, R: 30, B: 30}


def test_clock_options_are_checked():
    with pytest.raises(ValueError):
        Game(time_control=0)
    with pytest.raises(ValueError):
        Game(time_control=10, increment=-1)


# --------------------------------------------------------------------------- players=2

# A helpmate found by exhaustive search (5 plies): White's queen reaches B10 and mates Red's
# king on D12 along B10 C11 D12; Black's pieces are not on the board.
TWO_PLAYER_MATE = ["C2C3", "C11C10", "D1B3", "A11A10", "B3B10"]


def test_two_players_on_the_hexagon():
    game = Game(players=2)
    s = Script(game)
    board = game.board
    assert game.seats == (W, R)
    assert game.first_mate_wins
    assert not any(p.colour == B for p in board.pieces().values())
    assert board.status(B) == Status.OUT and board.controller(B) is None and board.king(B) is None
    assert fen_fields(game)[6:8] == ["wr-", "aax"]
    assert len(cells_of(game, W)) == 16 and len(cells_of(game, R)) == 16
    assert game.active_players() == [W, R]
    assert "bKQ" not in fen_fields(game)[2]
    for i, move in enumerate(TWO_PLAYER_MATE):
        assert game.turn == (W, R)[i % 2]  # White and Red alternate
        s.push(move)
    out = game.outcome()
    assert out is not None and out.termination == Termination.CHECKMATE
    assert out.places == {W: 1, R: 2}
    assert out.winners == (W,)
    assert out.returns() == (1.0, -1.0)
    assert out.eliminations == (elim(R, Reason.CHECKMATE, W, 5),)
    # the game ends on the mate (docs/rules.md, first_out_decides): Red's king stays, and he is out
    assert game.board.king(R) is not None and game.board.controller(R) == R and game.status(R) == Status.OUT
    s.unwind()
    # the independent reference sees the same mate
    pos = game.board.fen()
    for move in TWO_PLAYER_MATE:
        assert move in tp.legal_moves(pos)
        pos = tp.apply(pos, move)
    assert tp.legal_moves(pos) == set() and tp.is_check(pos) and tp.mater(pos) == "w"


def test_two_players_resignation_and_draw():
    game = Game(players=2)
    game.push("E2E4")
    game.resign(R)
    out = game.outcome()
    assert out is not None and out.places == {W: 1, R: 2}
    game = Game(players=2)
    game.agree_draw()
    assert game.outcome().places == {W: 1, R: 1}


def test_two_players_rejects_a_start_position_and_other_counts():
    with pytest.raises(ValueError):
        Game(players=2, start=START)
    with pytest.raises(ValueError):
        Game(players=1)
    with pytest.raises(ValueError):
        Game(players=4)


# --------------------------------------------------------------------------- neutrality

# Red's knight A3 stands on White's rook's file (A1 A2 A3), Black's knight C1 on its rank.
# Red may capture White's pawn H2 with his rook H6 (H-file) before Black's rook N8 takes Red's
# bishop N5 (N-file N8 N7 N6 N5).
NEUTRAL = {
    "E1": "wK",
    "A1": "wR",
    "H2": "wP",
    "C1": "bN",
    "D12": "rK",
    "A3": "rN",
    "H6": "rR",
    "N5": "rB",
    "K8": "bK",
    "N8": "bR",
}


def neutral_game(last: str = "---", turn: str = "r") -> Game:
    return Game(start=position(NEUTRAL, turn=turn) + " " + last, neutrality=True)


def captures(game: Game) -> set[str]:
    board = game.board
    return {str(m) for m in game.legal_moves if board.piece_at(m.to_cell) is not None}


def test_neutrality_field_and_no_restriction_without_captures():
    game = neutral_game(turn="w")
    assert fen_fields(game)[8] == "---"
    assert captures(game) == {"A1A3", "A1C1"}
    assert Game(neutrality=True).board.fen().split(" ")[8] == "---"
    assert len(Game().board.fen().split(" ")) == 8


def test_neutrality_forbids_capturing_a_player_the_third_just_captured():
    # Red does not capture; Black captures Red's bishop.  White may then not capture Red
    # (Red did not capture White, Black did capture Red) but may capture Black.
    game = neutral_game()
    s = Script(game)
    s.push("D12C12", "N8N5")
    assert fen_fields(game)[8] == "--r"
    assert game.turn == W
    assert captures(game) == {"A1C1"}
    assert "A1A3" not in game.legal_moves
    assert "A1A2" in moves(game)
    with pytest.raises(IllegalMoveError):
        game.push("A1A3")
    assert snapshot(game) == s.states[-1]
    s.push("A1C1")
    assert fen_fields(game)[8] == "b-r"
    s.unwind()


def test_neutrality_allows_capturing_a_player_who_captured_you():
    # Red captures White's pawn H2, then Black captures Red's bishop: White may capture Red
    # (Red captured a piece of his on Red's previous turn) and Black.
    game = neutral_game()
    s = Script(game)
    s.push("H6H2", "N8N5")
    assert fen_fields(game)[8] == "-wr"
    assert captures(game) == {"A1A3", "A1C1"}
    s.push("A1A3")
    assert fen_fields(game)[8] == "rwr"
    s.unwind()


@pytest.mark.parametrize(
    "last,white_may_take_red,white_may_take_black",
    [
        ("---", True, True),
        ("--r", False, True),  # Black captured Red, Red did not capture White
        ("-wr", True, True),  # ... but Red captured White: allowed
        ("-b-", True, False),  # Red captured Black, Black did not capture White
        ("-bw", True, True),  # ... Black captured White: allowed
        ("-br", False, False),  # each of the others captured the other
        ("r--", True, True),  # only the mover's own record: irrelevant
        ("b-r", False, True),  # ... also here
    ],
)
def test_neutrality_rule_table(last, white_may_take_red, white_may_take_black):
    game = neutral_game(last, turn="w")
    got = captures(game)
    assert ("A1A3" in got) == white_may_take_red
    assert ("A1C1" in got) == white_may_take_black


# --------------------------------------------------------------------------- standard chess


def test_standard_fools_mate():
    game = Game("standard")
    s = Script(game)
    assert game.seats == (W, B)
    s.push("f2f3", "e7e5", "g2g4", "d8h4")
    out = game.outcome()
    assert out is not None and out.termination == Termination.CHECKMATE
    assert out.places == {W: 2, B: 1}
    assert out.winners == (B,)
    assert out.returns() == (-1.0, 1.0)
    assert out.eliminations == (elim(W, Reason.CHECKMATE, B, 4),)
    assert not game.legal_moves
    s.unwind()
    assert game.board.fen() == Board("standard").fen()


def test_standard_stalemate():
    game = Game("standard", start="7k/8/6K1/8/8/8/8/5Q2 w - - 0 1")
    s = Script(game)
    s.push("f1f7")
    out = game.outcome()
    assert out is not None and out.termination == Termination.STALEMATE
    assert out.places == {W: 1, B: 1}
    s.unwind()


def test_standard_insufficient_material_king_and_bishop():
    fen = "4k3/8/8/8/8/8/1n6/B3K3 w - - 0 1"
    game = Game("standard", start=fen)
    s = Script(game)
    s.push("a1b2")  # K+B vs K
    out = game.outcome()
    assert out is not None and out.termination == Termination.INSUFFICIENT_MATERIAL
    assert out.places == {W: 1, B: 1}
    s.unwind()
    assert game.board.fen() == fen


def test_standard_enough_material_goes_on():
    game = Game("standard", start="4k3/8/8/8/8/8/1r6/N3K3 w - - 0 1")
    game.push("a1b3")  # K+N vs K+R
    assert game.outcome() is None


def test_standard_king_and_knight_vs_king():
    game = Game("standard", start="4k3/8/8/8/8/2n5/8/1N2K3 w - - 0 1")
    game.push("b1c3")
    assert game.outcome().termination == Termination.INSUFFICIENT_MATERIAL


def test_standard_fifty_moves_and_repetition():
    game = Game("standard", start="4k3/8/8/8/8/8/8/R3K3 w - - 99 80")
    game.push("a1a2")
    assert game.outcome().termination == Termination.FIFTY_MOVES
    game = Game("standard")
    for _ in range(2):
        for move in ("g1f3", "g8f6", "f3g1", "f6g8"):
            game.push(move)
    assert game.outcome().termination == Termination.THREEFOLD_REPETITION
    assert game.ply == 8


# --------------------------------------------------------------------------- misc API


def test_illegal_move_leaves_the_game_unchanged():
    game = Game()
    before = snapshot(game)
    with pytest.raises(IllegalMoveError):
        game.push("E2E5")
    with pytest.raises(ValueError):
        game.push("Z9Z9")
    assert snapshot(game) == before
    with pytest.raises(IndexError):
        game.pop()


def test_board_is_a_copy():
    game = Game()
    board = game.board
    board.push("E2E4")
    assert game.board.fen() == START and game.ply == 0


def test_start_position_must_have_an_active_player_to_move():
    with pytest.raises(ValueError):
        Game(start=position({"E1": "wK", "D12": "rK", "K8": "bK"}, statuses="faa"))


# --------------------------------------------------------------------------- random games


def _check_invariants(game: Game, plies: int) -> None:
    board = game.board
    assert game.ply == plies == len(board.move_stack)
    pieces = board.pieces()
    controllers = {c: board.controller(c) for c in board.colours}
    kings = Counter(controllers[p.colour] for p in pieces.values() if p.piece_type == PieceType.KING)
    for player in board.colours:
        status = board.status(player)
        if status == Status.OUT:
            assert kings[player] == 0 and board.king(player) is None
            assert player not in controllers.values()
        else:
            assert kings[player] == 1, (player, board.fen())
            assert board.king(player) is not None
            assert pieces[board.king(player)].piece_type == PieceType.KING
    assert kings[None] == 0
    if game.is_over():
        assert not game.legal_moves
        return
    mover = game.turn
    assert board.status(mover) == Status.ACTIVE
    legal = list(game.legal_moves)
    assert legal, f"game not over but {mover} has no move: {board.fen()}"
    frozen_kings = {board.king(p) for p in board.colours if board.status(p) == Status.FROZEN}
    for move in legal:
        target = pieces.get(move.to_cell)
        if target is not None:
            assert controllers[target.colour] != mover, (str(move), board.fen())
        assert move.to_cell not in frozen_kings, (str(move), board.fen())


def _random_game(seed: int, cap: int = 400, **options) -> None:
    rng = random.Random(seed)
    game = Game(**options)
    start = game.board.fen()
    assert start == game.start_fen
    fens = [start]
    plies = 0
    _check_invariants(game, 0)
    while not game.is_over() and plies < cap:
        board = game.board
        legal = list(game.legal_moves)
        caps = [m for m in legal if board.piece_at(m.to_cell) is not None]
        king_caps = [m for m in caps if board.piece_at(m.to_cell).piece_type == PieceType.KING]
        if rng.random() < 0.001 and len(game.active_players()) > 1:
            game.resign(rng.choice(game.active_players()))
            fens.append(game.board.fen())
            _check_invariants(game, plies)
            continue
        move = rng.choice(king_caps or (caps if caps and rng.random() < 0.5 else legal))
        game.push(move)
        plies += 1
        fens.append(game.board.fen())
        _check_invariants(game, plies)
    out = game.outcome()
    if out is not None:
        assert set(out.places) == set(game.seats)
        assert all(1 <= place <= len(game.seats) for place in out.places.values())
        assert out.eliminations == game.eliminations
        with pytest.raises(GameOverError):
            game.push("E2E4")
    # pop everything: each earlier position comes back, then the start exactly
    while game.history:
        game.pop()
        fens.pop()
        assert game.board.fen() == fens[-1]
    assert game.board.fen() == start
    assert game.outcome() is None and game.eliminations == () and game.ply == 0


RANDOM_SEEDS = range(300)


@pytest.mark.parametrize("chunk", range(10))
def test_random_games(chunk):
    for seed in RANDOM_SEEDS[chunk::10]:
        _random_game(seed)


@pytest.mark.parametrize(
    "options",
    [dict(neutrality=True), dict(first_mate_wins=True), dict(players=2)],
    ids=["neutrality", "first_mate_wins", "two_players"],
)
def test_random_games_with_options(options):
    for seed in range(20):
        _random_game(1000 + seed, **options)


# --------------------------------------------------------------------------- a start position already over


@pytest.mark.parametrize(
    "start, termination, places",
    [
        ("8/8/8/8/8/8/8/K6k w - - 0 1", Termination.INSUFFICIENT_MATERIAL, {W: 1, B: 1}),  # bare kings
        ("8/8/8/8/8/8/8/KN5k b - - 0 1", Termination.INSUFFICIENT_MATERIAL, {W: 1, B: 1}),  # king and knight
        ("8/8/8/8/8/8/R7/K6k w - - 100 80", Termination.FIFTY_MOVES, {W: 1, B: 1}),  # the move rule ran out
        ("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", Termination.STALEMATE, {W: 1, B: 1}),
        ("7k/6Q1/6K1/8/8/8/8/8 b - - 0 1", Termination.CHECKMATE, {W: 1, B: 2}),
    ],
    ids=["bare-kings", "king-and-knight", "fifty-moves", "stalemate", "checkmate"],
)
def test_standard_start_position_that_is_already_over(start, termination, places):
    """rules §3, §1.11: the start position is judged as a position after a move is."""
    game = Game("standard", start=start)
    out = game.outcome()
    assert out is not None and out.termination == termination and out.places == places
    assert game.is_over() and not game.legal_moves and game.ply == 0
    with pytest.raises(GameOverError):
        game.push(next(iter(game.board.legal_moves), "a1a2"))


def test_standard_start_position_one_ply_before_the_move_rule_runs_out_goes_on():
    game = Game("standard", start="8/8/8/8/8/8/R7/K6k w - - 99 80")
    assert game.outcome() is None
    game.push("a2b2")
    assert game.outcome().termination == Termination.FIFTY_MOVES


def test_three_player_bare_kings_at_the_start_are_a_draw():
    game = game_from({"E1": "wK", "D12": "rK", "K8": "bK"})
    out = game.outcome()
    assert out is not None and out.termination == Termination.INSUFFICIENT_MATERIAL
    assert out.places == {W: 1, R: 1, B: 1} and out.eliminations == ()


def test_three_player_move_rule_run_out_at_the_start_is_a_draw():
    game = game_from({"E1": "wK", "A1": "wR", "D12": "rK", "K8": "bK"}, halfmove=150)
    assert game.outcome().termination == Termination.FIFTY_MOVES
    assert game_from({"E1": "wK", "A1": "wR", "D12": "rK", "K8": "bK"}, halfmove=149).outcome() is None


def test_three_player_start_with_the_player_to_move_mated():
    """rules §1.7, §1.8: Black, to move, is mated by White's rook H3 at the start: he is out at
    once, his rook passes to White, and the turn goes to White."""
    pieces = {**MATE_TWICE, "H3": "wR"}
    del pieces["B3"]
    game = game_from(pieces, turn="b")
    assert game.eliminations == (elim(B, Reason.CHECKMATE, W, 0),)
    assert_transferred(game, B, W, {"K10"})
    assert game.turn == W and game.outcome() is None
    s = Script(game)
    s.push("A3A4", "G1G2", "K10K12")  # the inherited rook mates Red
    assert game.outcome().places == {W: 1, R: 2, B: 3}
    s.unwind()
    assert game.eliminations == (elim(B, Reason.CHECKMATE, W, 0),)


def test_three_player_start_with_the_player_to_move_stalemated():
    """rules §1.9: Red, to move, is boxed in at the start: frozen at once, the game goes on."""
    game = game_from(TWO_STALEMATES, turn="r")
    assert game.eliminations == (elim(R, Reason.STALEMATE, None, 0),)
    assert game.status(R) == Status.FROZEN and game.turn == B and game.outcome() is None


def test_three_player_start_with_a_second_stalemate_is_a_draw():
    """rules §1.9: Black is frozen already and Red, to move, is stalemated: a three-way draw."""
    pieces = dict(TWO_STALEMATES)
    del pieces["E7"]
    game = game_from(pieces, turn="r", statuses="aaf")
    out = game.outcome()
    assert out is not None and out.termination == Termination.STALEMATE
    assert out.places == {W: 1, R: 1, B: 1}


def test_str_is_the_text_board_and_repr_names_the_game():
    game = Game("four-player", mode="ffa", move_limit=100)
    game.push("h2h3")
    assert str(game) == str(game.board)
    assert repr(game) == "<Game 'four-player', mode='ffa', move_limit=100 ply=1 blue to move>"


def test_copy_is_an_independent_game():
    clock = FakeTime()
    game = Game("three-player", time_control=60, time_source=clock)
    game.push("E2E4")
    clock.set(5)
    game.push("N11N9")
    copied = game.copy()
    assert snapshot(copied) == snapshot(game) and copied.history == game.history
    assert copied.clock is not game.clock and copied.clock.remaining_now(W) == game.clock.remaining_now(W)
    copied.push(next(iter(copied.legal_moves)))
    assert game.ply == 2 and copied.ply == 3 and game.turn == B
    assert copied.board.fen() != game.board.fen()
    copied.pop()
    copied.pop()
    assert copied.history == ["E2E4"] and game.history == ["E2E4", "N11N9"]
    assert game.clock.remaining_now(B) == 60 and game.clock.remaining_now(R) == 55
    assert str(game.pop()) == "N11N9" and snapshot(game) == snapshot(copied)
    assert game.clock.remaining_now(R) == copied.clock.remaining_now(R)
    import copy

    assert copy.deepcopy(game).history == copy.copy(game).history == ["E2E4"]
