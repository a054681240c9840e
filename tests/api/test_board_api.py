"""What users of python-chess reach for on a board: each variant's move notation (san,
parse_san, push_san), what a move does (capture, en passant, castling, check), the end as the
game's rules judge the position (outcome, result, is_game_over, is_repetition), board_fen,
attackers in either order; and Game.pop and Move.promotion as Board and str(move) have them."""

import random
import threading

import pytest

from polychess import AmbiguousMoveError, Board, Colour, Game, IllegalMoveError, InvalidMoveError, Move, Termination
from polychess.board import StopFlag
from polychess.formats import write_pgn4
from positions import cross_position

THREE_PLAYER_EN_PASSANT = (
    "rRrNrBrKrQrB2/1rP1rP1rPbB1/1rR6/rP1wP2rN1rP/2bNbRbKbBbNbR/bP1bQ1bPbPbP1/7bP/1bP6/"
    "2wPrP2bPbP/4wNwN2/wP3wPwPwPwP/wR1wBwQwKwB1wR r wKQrKbKQ C3 0 13 wrb aaa"
)


# -- notation --------------------------------------------------------------------------------------


def test_standard_san_round_trips_every_legal_move():
    board = Board("standard", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1")
    fen = board.fen()
    for move in board.legal_moves:
        text = board.san(move)
        assert board.parse_san(text) == move and board.fen() == fen
    assert board.san("e1g1") == "O-O" and board.san("d5e6") == "dxe6" and board.san("e5f7") == "Nxf7"
    assert board.parse_san("Nxf7+") == board.parse_san("e5f7") == board.parse_san("Ne5xf7")


def test_standard_push_san_and_its_errors():
    board = Board("standard")
    assert str(board.push_san("e4")) == "e2e4" and str(board.push_san("e5")) == "e7e5"
    assert str(board.push_san("Nf3")) == "g1f3"
    fen = board.fen()
    with pytest.raises(IllegalMoveError, match="Ke3"):
        board.push_san("Ke3")
    with pytest.raises(InvalidMoveError, match="expected SAN"):
        board.push_san("hello")
    assert board.fen() == fen
    two_knights = Board("standard", "4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1")
    with pytest.raises(AmbiguousMoveError, match="Nbd2, Nfd2"):
        two_knights.parse_san("Nd2")
    assert isinstance(AmbiguousMoveError("x"), InvalidMoveError)
    mate = Board("standard", "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1")
    assert mate.san("a1a8") == "Ra8#"


def test_three_player_notation_is_the_move_text_of_its_records():
    board = Board("three-player")
    assert board.san("E2E4") == "E2E4"
    assert board.push_san("e2-e4") == Move.from_text("E2E4", "three-player")
    with pytest.raises(IllegalMoveError):
        board.parse_san("E2E5")


def test_san_of_an_illegal_move_raises_and_changes_nothing():
    board = Board("standard")
    with pytest.raises(IllegalMoveError):
        board.san("e2e5")
    with pytest.raises(IllegalMoveError):
        board.san(Move.from_text("e7e5", "standard"))
    assert board.fen() == Board("standard").fen()


# -- what a move does -----------------------------------------------------------------------------


def test_captures_en_passant_and_castling():
    board = Board("standard", "r3k3/8/8/3pP3/8/8/8/R3K3 w Qq d6 0 1")
    assert board.is_capture("e5d6") and board.is_en_passant("e5d6") and not board.is_castling("e5d6")
    assert board.is_castling("e1c1") and not board.is_capture("e1c1")
    assert board.is_capture("a1a8") and not board.is_en_passant("a1a8")
    assert not board.is_capture("e5e6")
    three = Board("three-player", THREE_PLAYER_EN_PASSANT)
    assert three.is_en_passant("D4C3") and three.is_capture("D4C3")
    with pytest.raises(IllegalMoveError):
        board.is_capture("a1b2")  # a legal move is asked about; this one is not


def test_gives_check():
    board = Board("standard", "4k3/8/8/8/8/8/4B3/R3K2R w KQ - 0 1")
    assert board.gives_check("a1a8") and not board.gives_check("e1c1") and not board.gives_check("a1a2")
    assert Board("standard", "3k4/8/8/8/8/8/8/R3K3 w Q - 0 1").gives_check("e1c1")  # the castled rook checks
    discovered = Board("standard", "4k3/8/8/8/8/8/4B3/4R1K1 w - - 0 1")
    assert discovered.gives_check("e2b5") and discovered.gives_check("e2h5")
    # Four-player chess: the knight forks Blue's and Green's kings; partners give no check in teams.
    pieces = {"h1": "rK", "h5": "rN", "e8": "bK", "i8": "gK", "g14": "yK"}
    fork = Board("four-player", cross_position(pieces), mode="ffa")
    assert fork.gives_check("h5g7") and not fork.gives_check("h5f4")
    partner = Board("four-player", cross_position({**pieces, "e8": "yK", "g14": "bK"}))
    assert not partner.gives_check("h5f6") and partner.gives_check("h5g7")  # g7 checks Green's king, not Yellow's


# -- the end, as the game's rules judge the position ----------------------------------------------


def test_standard_outcomes_of_a_board():
    board = Board("standard", "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1")
    assert board.outcome() is None and board.result() == "*" and not board.is_game_over()
    board.push_san("Ra8#")
    outcome = board.outcome()
    assert outcome is not None and outcome.termination is Termination.CHECKMATE and outcome.winners == (Colour.WHITE,)
    assert board.result() == "1-0" and board.is_game_over()
    stalemate = Board("standard", "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1")
    assert stalemate.outcome().termination is Termination.STALEMATE and stalemate.result() == "1/2-1/2"
    dead = Board("standard", "8/3k4/8/8/1B6/K7/8/8 b - - 0 1")
    assert dead.outcome().termination is Termination.INSUFFICIENT_MATERIAL and dead.result() == "1/2-1/2"


def test_a_repetition_on_the_board_draws():
    board = Board("standard")
    for _ in range(2):
        for san in ("Nf3", "Nf6", "Ng1", "Ng8"):
            assert not board.is_repetition() and board.outcome() is None
            board.push_san(san)
    # The start position stands for the third time.
    assert board.is_repetition() and board.is_repetition(2) and not board.is_repetition(4)
    assert board.outcome().termination is Termination.THREEFOLD_REPETITION and board.result() == "1/2-1/2"
    board.push_san("e4")
    assert not board.is_repetition(2) and board.outcome() is None


def test_a_mate_in_three_player_chess_does_not_end_the_game():
    from positions import position

    board = Board(
        "three-player",
        position({"A3": "wK", "B3": "wR", "G1": "rR", "N12": "rK", "N11": "rP", "M11": "rP", "H8": "bK", "K10": "bR"}),
    )
    board.push("B3H3")
    board.push("G1G2")
    assert board.turn is Colour.BLACK and board.is_checkmate()
    # Black is out and his army passes to White; White and Red play on (rules §1.7-1.8).
    assert board.outcome() is None and board.result() == "*"
    bare = Board("three-player", position({"A3": "wK", "N12": "rK", "H8": "bK"}))
    assert bare.outcome().termination is Termination.INSUFFICIENT_MATERIAL and bare.result() == "1-1-1"


def test_attackers_in_either_order():
    board = Board("standard", "4k3/8/8/8/8/8/8/R3K3 w - - 0 1")
    assert board.attackers(Colour.WHITE, "a8") == board.attackers("a8", "white") == ["a1"]
    assert board.attackers("black", "d8") == ["e8"]
    with pytest.raises(ValueError, match="colour"):
        board.attackers("a8", "b8")


def test_board_fen_is_the_placement():
    assert Board("standard").board_fen() == "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR"
    three = Board("three-player")
    assert three.board_fen() == three.fen().split(" ")[0]


# -- Game.pop and Move.promotion as Board and str(move) have them ------------------------------------


def test_game_pop_returns_the_move_as_board_pop_does():
    game = Game("three-player")
    move = game.push("E2E4")
    assert game.pop() == move and isinstance(move, Move)
    game.push("E2E4")
    game.resign("red")
    assert game.history[-1] == "resign(red)" and game.pop() is None  # an event, not a move
    assert game.pop() == move and game.ply == 0


@pytest.mark.parametrize(
    "variant, text", [("standard", "e7e8q"), ("three-player", "A11A12Q"), ("four-player", "e13e14q")]
)
def test_the_promotion_letter_is_written_as_the_move_text_writes_it(variant, text):
    move = Move.from_text(text, variant)
    assert str(move).endswith(move.promotion)


def test_game_result():
    game = Game("standard")
    for san in ("f3", "e5", "g4"):
        game.push(game.board.parse_san(san))
    assert game.result() == "*"
    game.push(game.board.parse_san("Qh4#"))
    assert game.result() == "0-1" and game.is_game_over()


def test_a_move_of_the_other_four_player_mode_plays_in_the_game_not_only_on_its_board():
    # A Move made for teams is read by its text in a free-for-all game. The game once let the
    # board play it alone: the position moved on while the game's own state stood still.
    game = Game("four-player", mode="ffa")
    move = game.push(Move.from_text("h2h3", "four-player"))
    assert game.ply == 1 and game.history == ["h2h3"] and game.turn is Colour.BLUE
    assert game.board.piece_at("h3") is not None and game.legal_moves
    with pytest.raises(IllegalMoveError):
        game.push(Move.from_text("e2e4", "standard"))
    assert game.ply == 1 and [str(m) for m in game.board.move_stack] == [str(move)]


def test_a_count_ends_early_when_another_thread_sets_its_stop_flag():
    board = Board("three-player")
    flag = StopFlag()
    flag.set()
    assert board.perft(3, stop=flag) == 0 and board.divide(3, stop=flag) == {}
    assert board.perft(3, stop=StopFlag()) == board.perft(3) == 8000
    flag = StopFlag()
    counts: list[dict[str, int]] = []
    counting = threading.Thread(target=lambda: counts.append(board.divide(9, stop=flag)))  # hours, unstopped
    counting.start()
    flag.set()
    counting.join(60)
    assert not counting.is_alive() and len(counts[0]) < 20


@pytest.mark.parametrize("mode", ["teams", "ffa"])
def test_four_player_san_is_the_move_as_pgn4_writes_it(mode):
    # Random games: every move's san is the token of the game's PGN4 record (slot tokens aside),
    # and every legal move's san reads back as that move.
    rng = random.Random(5)
    for _ in range(6):
        game, written = Game("four-player", mode=mode), []
        while not game.is_over() and game.ply < 160:
            board = game.board
            move = rng.choice(list(game.legal_moves))
            if game.ply % 20 == 0:
                for other in board.legal_moves:
                    assert board.parse_san(board.san(other)) == other
            written.append(board.san(move))
            game.push(move)
        tokens = [
            t
            for line in write_pgn4(game).split("\n\n", 1)[1].splitlines()
            for t in line.split()
            if t != ".." and not t.endswith(".") and t not in ("#", "S", "R", "T") and t[0] != "{"
        ]
        assert tokens[: len(written)] == written


def test_four_player_notation_checks_the_pieces_it_names():
    board = Board("four-player")
    assert board.parse_san("h2-h3") == board.parse_san("h2h3") == board.parse_move("h2h3")
    assert board.san("e1f3") == "Ne1-f3" and board.parse_san("Ne1-f3") == board.parse_move("e1f3")
    with pytest.raises(IllegalMoveError, match="written without a letter"):
        board.parse_san("Nh2-h3")
    with pytest.raises(IllegalMoveError, match="captures nothing"):
        board.parse_san("h2xh3")
    with pytest.raises(InvalidMoveError, match="chess.com's notation"):
        board.parse_san("Nf3")
