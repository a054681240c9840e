"""PGN for standard chess (polychess.formats.pgn): SAN and movetext checked against
python-chess, hand-checked SAN positions, reading other programs' PGN, and bad input rejected
with the line and the problem."""

from __future__ import annotations

import functools
import io
import random
import re

import pytest

from polychess import Board, Colour, Game, GameOverError, IllegalMoveError, PieceType, Termination
from polychess.formats.pgn import PgnError, read_pgn, san, write_pgn

START = Board("standard").fen()
EVENT = re.compile(r"^(?:(?:resign|timeout)\((?:white|black)\)|draw)$")


def moves_of(game: Game) -> list[str]:
    return [token for token in game.history if not EVENT.match(token)]


def result_of(game: Game) -> str:
    outcome = game.outcome()
    if outcome is None:
        return "*"
    white, black = outcome.places[Colour.WHITE], outcome.places[Colour.BLACK]
    return "1/2-1/2" if white == black else "1-0" if white < black else "0-1"


def random_start(rng: random.Random) -> str:
    """A position a few random plies into a game, without an en-passant square (so that every
    program writes it the same way), with either side to move."""
    while True:
        board = Board("standard")
        for _ in range(rng.randrange(3, 14)):
            board.push(rng.choice(list(board.legal_moves)))
        fields = board.fen().split(" ")
        if fields[3] == "-" and board.legal_moves:
            return board.fen()


@functools.cache
def random_game(seed: int) -> Game:
    """Random legal moves until the end or 200 plies, one side preferring captures and
    promotions (so that games reach promotions and mates), with occasional resignations, time
    forfeits and agreed draws; every eighth game from a FEN start."""
    rng = random.Random(seed)
    game = Game("standard", start=random_start(rng) if seed % 8 == 7 else None)
    strong = Colour.WHITE if seed % 2 else Colour.BLACK
    while not game.is_over() and game.ply < 200:
        moves = list(game.legal_moves)
        board = game.board
        sharp = [m for m in moves if m.promotion or board.piece_at(m.to_cell) is not None]
        greed = 0.5 if game.turn is strong else 0.1
        game.push(rng.choice(sharp if sharp and rng.random() < greed else moves))
        if game.is_over():
            break
        roll = rng.random()
        if roll < 0.0015:
            game.resign(rng.choice([Colour.WHITE, Colour.BLACK]))
        elif roll < 0.002:
            game.time_forfeit(game.turn)
        elif roll < 0.0025:
            game.agree_draw()
    return game


SEEDS = range(100)


def test_random_games_cover_the_notation():
    """The seeded games exercise what the notation has to say."""
    texts = " ".join(write_pgn(random_game(seed)) for seed in SEEDS)
    for needed in ("O-O ", "O-O-O", "=Q", "=N", "=R", "=B", "#", "+", "x", "[FEN "):
        assert needed in texts, needed
    assert re.search(r"\n\n[0-9]+\.\.\. ", texts), "a record opening with Black's move"
    assert re.search(r"\b[NRQ][a-h1-8]x?[a-h][1-8]", texts), "a disambiguated move"
    outcomes = [random_game(seed).outcome() for seed in SEEDS]
    terminations = {outcome.termination for outcome in outcomes if outcome is not None}
    assert {
        Termination.CHECKMATE,
        Termination.STALEMATE,
        Termination.RESIGNATION,
        Termination.TIME_FORFEIT,
        Termination.AGREEMENT,
    } <= terminations
    assert None in [outcome for outcome in outcomes], "a game cut off at 200 plies"
    en_passant = 0
    for seed in SEEDS:
        game = random_game(seed)
        board = Board("standard", game.start_fen)
        for token in moves_of(game):
            move = board.parse_move(token)
            piece = board.piece_at(move.from_cell)
            en_passant += (
                piece is not None
                and piece.piece_type is PieceType.PAWN
                and move.from_cell[0] != move.to_cell[0]
                and board.piece_at(move.to_cell) is None
            )
            board.push(move)
    assert en_passant > 0


# -- against python-chess ---------------------------------------------------------------------------


@pytest.mark.parametrize("seed", SEEDS)
def test_python_chess_reads_what_we_write(seed):
    chess = pytest.importorskip("chess")
    chess_pgn = pytest.importorskip("chess.pgn")
    game = random_game(seed)
    text = write_pgn(game, {"Event": f"random {seed}", "White": "Anna"})
    assert all(len(line) <= 80 for line in text.splitlines())
    parsed = chess_pgn.read_game(io.StringIO(text))
    assert parsed is not None and parsed.errors == []
    assert [move.uci() for move in parsed.mainline_moves()] == moves_of(game)
    assert parsed.headers["Result"] == result_of(game)
    assert parsed.headers["Event"] == f"random {seed}" and parsed.headers["White"] == "Anna"
    # our SAN is python-chess's, move by move, and the positions agree
    ours = Board("standard", game.start_fen)
    theirs = chess.Board(game.start_fen)
    for token in moves_of(game):
        move = ours.parse_move(token)
        assert san(ours, move) == theirs.san(chess.Move.from_uci(token)), (token, ours.fen())
        ours.push(move)
        theirs.push_uci(token)
        assert ours.fen().split(" ")[:3] == theirs.fen().split(" ")[:3]


def python_chess_export(game: Game, *, decorate: bool) -> str:
    """The game as python-chess writes it; with ``decorate``, comments, NAGs and variations
    as other programs add them."""
    chess = pytest.importorskip("chess")
    chess_pgn = pytest.importorskip("chess.pgn")
    exported = chess_pgn.Game()
    exported.headers["Event"] = "exported"
    if game.start_fen != START:
        exported.setup(chess.Board(game.start_fen))
    node: chess_pgn.GameNode = exported
    rng = random.Random(len(game.history))
    for ply, token in enumerate(moves_of(game)):
        board = node.board()
        move = chess.Move.from_uci(token)
        if decorate and ply % 7 == 3:
            alternatives = [m for m in board.legal_moves if m != move]
            if alternatives:
                side = node.add_variation(
                    rng.choice(alternatives),
                    comment="a (side) line; with {no} braces".replace("{", "").replace("}", ""),
                )
                side_board = side.board()
                if list(side_board.legal_moves):
                    side.add_variation(next(iter(side_board.legal_moves)), nags={2})
        node = node.add_main_variation(move)
        if decorate and ply % 5 == 1:
            node.comment = "[%clk 0:01:00] good move"
            node.nags.add(1)
    exported.headers["Result"] = result_of(game)
    outcome = game.outcome()
    if outcome is not None and outcome.termination is Termination.TIME_FORFEIT:
        exported.headers["Termination"] = "Time forfeit"  # as lichess writes it
    return str(exported)


@pytest.mark.parametrize("seed", SEEDS)
def test_we_read_what_python_chess_writes(seed):
    game = random_game(seed)
    for decorate in (False, True):
        read = read_pgn(python_chess_export(game, decorate=decorate))
        assert read.history == game.history
        assert read.outcome() == game.outcome()
        assert read.board.fen() == game.board.fen()


@pytest.mark.parametrize("seed", SEEDS[::5])
def test_our_round_trip(seed):
    game = random_game(seed)
    read = read_pgn(write_pgn(game))
    assert read.history == game.history
    assert read.outcome() == game.outcome()
    assert read.start_fen == game.start_fen


# -- hand-checked SAN -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("fen", "move", "expected"),
    [
        # disambiguation: by file, by rank, by both; a pinned piece does not count
        ("4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1", "b1d2", "Nbd2"),
        ("4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1", "f3d2", "Nfd2"),
        ("4k3/8/8/R7/8/8/8/R3K3 w - - 0 1", "a1a3", "R1a3"),
        ("4k3/8/8/R7/8/8/8/R3K3 w - - 0 1", "a5a3", "R5a3"),
        ("1k6/8/8/8/7Q/8/8/K3Q2Q w - - 0 1", "h1e4", "Qh1e4"),
        ("1k6/8/8/8/7Q/8/8/K3Q2Q w - - 0 1", "h4e4", "Q4e4"),
        ("1k6/8/8/8/7Q/8/8/K3Q2Q w - - 0 1", "e1e4", "Qee4"),
        ("4k3/8/8/4b3/8/2N5/8/K5N1 w - - 0 1", "g1e2", "Ne2"),
        ("4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1", "f3e5", "Ne5"),
        ("4k3/8/8/3p4/2N1N3/8/8/4K3 w - - 0 1", "c4d6", "Ncd6+"),
        ("4k3/8/8/3p4/2N1N3/8/8/4K3 w - - 0 1", "e4d6+", "Ned6+"),
        # captures, pawn captures by file, en passant
        ("4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1", "e4d5", "exd5"),
        ("rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3", "e5f6", "exf6"),
        ("rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3", "e5e6", "e6"),
        ("4k3/8/8/8/3pP3/8/8/4K3 b - e3 0 1", "d4e3", "dxe3"),
        # promotions, with and without capture and check
        ("3r2k1/4P3/8/8/8/8/8/4K3 w - - 0 1", "e7e8q", "e8=Q+"),
        ("3r2k1/4P3/8/8/8/8/8/4K3 w - - 0 1", "e7d8q", "exd8=Q+"),
        ("3r2k1/4P3/8/8/8/8/8/4K3 w - - 0 1", "e7d8n", "exd8=N"),
        ("3r2k1/4P3/8/8/8/8/8/4K3 w - - 0 1", "e7e8r", "e8=R+"),
        ("3r2k1/4P3/8/8/8/8/8/4K3 w - - 0 1", "e7e8b", "e8=B"),
        ("4k3/8/8/8/8/8/p7/4K3 b - - 0 1", "a2a1q", "a1=Q+"),
        # castling, with check
        ("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "e1g1", "O-O"),
        ("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "e1c1", "O-O-O"),
        ("r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1", "e8c8", "O-O-O"),
        ("3k4/8/8/8/8/8/8/R3K3 w Q - 0 1", "e1c1", "O-O-O+"),
        ("5k2/8/8/8/8/8/8/4K2R w K - 0 1", "e1g1", "O-O+"),
        ("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "e1f1", "Kf1"),
        # mate
        ("rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq - 0 2", "d8h4", "Qh4#"),
        ("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", "a1a8", "Ra8#"),
        ("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", "a1a7", "Ra7"),
        ("k7/8/1K6/8/8/8/8/2R5 w - - 0 1", "c1c8", "Rc8#"),
        ("k7/8/1K6/8/8/8/8/2R5 w - - 0 1", "c1a1", "Ra1+"),
        ("k7/2P5/1K6/8/8/8/8/8 w - - 0 1", "c7c8q", "c8=Q#"),
        ("k7/2P5/1K6/8/8/8/8/8 w - - 0 1", "c7c8r", "c8=R#"),
        ("k7/2P5/1K6/8/8/8/8/8 w - - 0 1", "c7c8n", "c8=N"),
    ],
)
def test_san(fen, move, expected):
    move = move.rstrip("+")
    board = Board("standard", fen)
    before = board.fen()
    assert san(board, board.parse_move(move)) == expected
    assert board.fen() == before  # san() does not change the board
    chess = pytest.importorskip("chess")
    assert chess.Board(fen).san(chess.Move.from_uci(move)) == expected
    # and the reader takes the SAN back to the move, with or without its check mark
    for text in {expected, expected.rstrip("+#")}:
        game = read_pgn(f'[SetUp "1"]\n[FEN "{fen}"]\n\n{text} *\n')
        assert game.history == [move]


def test_san_refuses_illegal_moves_and_other_variants():
    board = Board("standard")
    with pytest.raises(IllegalMoveError):
        san(board, Board("standard", "4k3/8/8/8/8/8/8/R3K3 w - - 0 1").parse_move("a1a8"))
    with pytest.raises(ValueError, match="standard chess"):
        three = Board("three-player")
        san(three, next(iter(three.legal_moves)))


# -- writing ----------------------------------------------------------------------------------------


def play(moves: str, **options: object) -> Game:
    game = Game("standard", **options)  # type: ignore[arg-type]
    for move in moves.split():
        game.push(move)
    return game


def test_write_tags_and_movetext():
    game = play("e2e4 e7e5 g1f3 b8c6 f1c4 g8f6 e1g1")
    game.resign(Colour.BLACK)
    text = write_pgn(game, {"White": "Anna", "Date": "2026.01.02", "Annotator": 'Bo "B" \\ C', "ECO": "C55"})
    assert text == (
        '[Event "?"]\n[Site "?"]\n[Date "2026.01.02"]\n[Round "?"]\n[White "Anna"]\n[Black "?"]\n'
        '[Result "1-0"]\n[Annotator "Bo \\"B\\" \\\\ C"]\n[ECO "C55"]\n[Termination "resignation"]\n\n'
        "1. e4 e5 2. Nf3 Nc6 3. Bc4 Nf6 4. O-O {Black resigns.} 1-0\n"
    )
    assert read_pgn(text).outcome() == game.outcome()


def test_write_running_game_has_no_termination():
    text = write_pgn(play("d2d4"))
    assert '[Result "*"]' in text and "Termination" not in text and "FEN" not in text
    assert text.endswith("\n\n1. d4 *\n")


def test_write_empty_game_and_events_without_moves():
    assert write_pgn(Game("standard")).endswith('[Result "*"]\n\n*\n')
    game = Game("standard")
    game.resign(Colour.WHITE)
    assert write_pgn(game).endswith('[Termination "resignation"]\n\n{White resigns.} 0-1\n')
    assert read_pgn(write_pgn(game)).outcome() == game.outcome()


@pytest.mark.parametrize(
    ("event", "termination", "comment", "result"),
    [
        ("time_forfeit", Termination.TIME_FORFEIT, "{Black forfeits on time.}", "1-0"),
        ("agree_draw", Termination.AGREEMENT, "{Draw agreed.}", "1/2-1/2"),
    ],
)
def test_write_events(event, termination, comment, result):
    game = play("e2e4 e7e5 d1h5")
    getattr(game, event)(*(["black"] if event == "time_forfeit" else []))
    text = write_pgn(game)
    assert f'[Result "{result}"]' in text and f'[Termination "{termination.value}"]' in text
    assert text.endswith(f"2. Qh5 {comment} {result}\n")
    read = read_pgn(text)
    assert read.history == game.history and read.outcome() == game.outcome()


def test_write_mate_and_automatic_draw():
    mate = play("f2f3 e7e5 g2g4 d8h4")
    text = write_pgn(mate)
    assert text.endswith('[Termination "checkmate"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n')
    draw = play("g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1 f6g8")
    assert '[Result "1/2-1/2"]\n[Termination "threefold repetition"]' in write_pgn(draw)


def test_write_wraps_at_80_columns():
    game = Game("standard")
    rng = random.Random(3)
    while game.ply < 120 and not game.is_over():
        game.push(rng.choice(list(game.legal_moves)))
    lines = write_pgn(game).split("\n\n", 1)[1].splitlines()
    assert len(lines) > 3 and all(len(line) <= 80 for line in lines)
    # greedy, and a move number stays with its move: no line could have taken the next move
    for line, following in zip(lines, lines[1:], strict=False):
        assert not line.endswith(".")
        unit = (
            following.split(" ")[0] if not following.split(" ")[0].endswith(".") else " ".join(following.split(" ")[:2])
        )
        assert len(line) + 1 + len(unit) > 80


def test_write_fen_start_with_black_to_move():
    fen = "r3k2r/pp3ppp/8/8/8/8/PP3PPP/R3K2R b KQkq - 3 17"
    game = Game("standard", start=fen)
    for move in ("e8c8", "e1g1", "h8e8"):
        game.push(move)
    text = write_pgn(game)
    assert f'[SetUp "1"]\n[FEN "{fen}"]' in text
    assert text.endswith("\n\n17... O-O-O 18. O-O Rhe8 *\n")
    read = read_pgn(text)
    assert read.start_fen == fen and read.history == game.history
    chess_pgn = pytest.importorskip("chess.pgn")
    parsed = chess_pgn.read_game(io.StringIO(text))
    assert parsed.errors == [] and [m.uci() for m in parsed.mainline_moves()] == ["e8c8", "e1g1", "h8e8"]
    assert parsed.board().fen() == fen


def test_write_first_player_option_gives_a_fen():
    game = Game("standard", first_player="black")
    game.push("e7e5")
    text = write_pgn(game)
    assert '[FEN "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1"]' in text
    assert text.endswith("1... e5 *\n")
    assert read_pgn(text).history == ["e7e5"]


def test_write_time_control():
    assert '[TimeControl "300+5"]' in write_pgn(Game("standard", time_control=300, increment=5))
    assert '[TimeControl "60"]' in write_pgn(Game("standard", time_control=300), {"TimeControl": "60"})


@pytest.mark.parametrize(
    "tags",
    [
        {"Result": "1-0"},
        {"FEN": "4k3/8/8/8/8/8/8/4K3 w - - 0 1"},
        {"SetUp": "1"},
        {"Bad Name": "x"},
        {"Event": "two\nlines"},
    ],
)
def test_write_refuses_bad_tags(tags):
    with pytest.raises(ValueError):
        write_pgn(Game("standard"), tags)


def test_write_accepts_tags_that_agree():
    game = Game("standard", start="4k3/8/8/8/8/8/8/R3K3 w Q - 0 1")
    text = write_pgn(game, {"Result": "*", "SetUp": "1", "Termination": "unterminated"})
    assert text.count("[SetUp") == 1 and '[Termination "unterminated"]' in text


def test_write_fen_of_the_standard_start_when_asked():
    text = write_pgn(play("e2e4"), {"FEN": START})
    assert f'[SetUp "1"]\n[FEN "{START}"]' in text and text.count("FEN") == 1
    assert read_pgn(text).history == ["e2e4"]
    assert '[SetUp "0"]' in write_pgn(Game("standard"), {"SetUp": "0"})


def test_write_refuses_other_variants():
    with pytest.raises(ValueError, match="standard chess"):
        write_pgn(Game("three-player"))


# -- reading other programs' PGN --------------------------------------------------------------------

LICHESS = """[Event "Rated Blitz game"]
[Site "https://lichess.org/abcdefgh"]
[Date "2024.03.01"]
[White "alice"]
[Black "bob"]
[Result "0-1"]
[UTCDate "2024.03.01"]
[WhiteElo "1500"]
[Variant "Standard"]
[TimeControl "180+2"]
[ECO "C50"]
[Termination "Normal"]

1. e4 { [%eval 0.2] [%clk 0:03:00] } 1... e5 { [%clk 0:03:00] } 2. Nf3 Nc6 3. Bc4 Bc5?! { (0.3 → 0.6) Inaccuracy.
Nf6 was best. } (3... Nf6 4. Ng5 d5 5. exd5 Na5) 4. c3 $1 Nf6 5. d4 exd4 6. cxd4 Bb4+ 7. Bd2 Bxd2+
8. Nbxd2 d5 9. exd5 Nxd5 10. Qb3 Nce7 11. O-O O-O 12. Rfe1 c6 13. a4!? Qb6 ; a comment (with a paren
14. Qa3 Be6 15. Bxd5 Nxd5 16. Ne4 Rfe8 17. Nc5 Bg4 18. Ne5 Bf5 19. Ng4 Nf4 20. Rxe8+ Rxe8 21. g3 Qxb2
22. gxf4 Qxa3 0-1
"""


def test_read_lichess_export():
    game = read_pgn(LICHESS)
    assert game.history[-1] == "resign(white)" and game.history[:3] == ["e2e4", "e7e5", "g1f3"]
    assert "e1g1" in game.history and "e8g8" in game.history
    outcome = game.outcome()
    assert outcome is not None and outcome.termination is Termination.RESIGNATION and outcome.winners == (Colour.BLACK,)


def test_read_variants_of_notation():
    text = """[Event "x"]
[Result "*"]

% an escaped line, ignored
1.e4 d5 2.exd5 c5 3.dxc6 e.p. Nxc6 4.Nf3 Bg4 5.Be2 Qd7 6.0-0 0-0-0 7.d3 e5 8.Nbd2?? Kb8!
9. Ng1-e2 $6 { long } 9... f6 10. g1f1 *
"""
    with pytest.raises(PgnError) as info:  # Ng1-e2: the knight is not on g1
        read_pgn(text)
    assert info.value.line == 6 and "Ng1-e2" in info.value.problem
    text = text.replace("Ng1-e2", "Nd2-c4").replace("g1f1", "f1e1")
    game = read_pgn(text)
    assert game.history == [
        "e2e4",
        "d7d5",
        "e4d5",
        "c7c5",
        "d5c6",
        "b8c6",
        "g1f3",
        "c8g4",
        "f1e2",
        "d8d7",
        "e1g1",
        "e8c8",
        "d2d3",
        "e7e5",
        "b1d2",
        "c8b8",
        "d2c4",
        "f7f6",
        "f1e1",
    ]
    assert not game.is_over()


def test_read_result_without_tag_and_draw():
    game = read_pgn("1. e4 e5 2. Nf3 Nf6 1/2-1/2")
    assert game.outcome().termination is Termination.AGREEMENT
    assert read_pgn("1. e4 e5 *").outcome() is None
    assert read_pgn("1. e4 e5").outcome() is None  # no result at all


def test_read_time_forfeit_by_termination():
    game = read_pgn('[Result "1-0"]\n[Termination "Time forfeit"]\n\n1. e4 e5 1-0\n')
    assert game.outcome().termination is Termination.TIME_FORFEIT and game.history[-1] == "timeout(black)"


def test_read_star_on_a_finished_game_keeps_the_game_s_end():
    # python-chess writes * for a threefold repetition that nobody claimed; the game ended by rule
    game = read_pgn("1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 *")
    assert game.outcome().termination is Termination.THREEFOLD_REPETITION


def test_read_second_tag_line_on_one_line_and_comment_after_tag():
    game = read_pgn('[Event "a"] [Site "b"] ; note\n[Result "*"]\n\n1. d4 *')
    assert game.history == ["d2d4"]


# -- bad input --------------------------------------------------------------------------------------

FOOL = '[Event "x"]\n[Result "{result}"]\n\n1. f3 e5\n2. g4 Qh4# {result}\n'


@pytest.mark.parametrize(
    ("text", "line", "problem"),
    [
        ("1. e4 Zz9 *", 1, "unknown move text 'Zz9'"),
        ("1. e4 e5\n2. Ke3 *", 2, "illegal move 'Ke3' (white to move)"),
        ("1. e4\ne4 *", 2, "illegal move 'e4' (black to move)"),
        ("1. O-O *", 1, "illegal move 'O-O'"),
        ('[FEN "4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1"]\n\n1. Nd2 *', 3, "ambiguous SAN 'Nd2' (white to move: Nbd2, Nfd2)"),
        ('[FEN "4k3/P7/8/8/8/8/8/4K3 w - - 0 1"]\n\n1. a8 *', 3, "a pawn reaching the last rank promotes"),
        ("1. e4 e5 2. -- *", 1, "unknown move text '--'"),
        ('[Event "x]\n\n1. e4 *', 1, "malformed tag"),
        ('[Event "x"]\n[Site x]\n\n1. e4 *', 2, "malformed tag '[Site x]'"),
        ('[Event "x"]\n[Event "y"]\n', 2, "tag Event given twice"),
        ('[Event "x"] junk\n', 1, "unexpected 'junk' after tag Event"),
        ('[Result "1-0"]\n\n1. e4 e5 0-1', 3, "the movetext ends with 0-1 but the Result tag says 1-0"),
        ('[Result "2-0"]\n\n1. e4', 1, "Result '2-0' is not"),
        ("1. e4 1-0 e5", 1, "result 1-0 before the end"),
        (
            FOOL.format(result="1-0").replace(" 1-0\n", "\n"),
            2,
            "the Result is 1-0 but the game ended by checkmate with 0-1",
        ),
        (FOOL.format(result="1/2-1/2"), 5, "ended by checkmate with 0-1"),
        ("1. f3 e5 2. g4 Qh4#\n3. Nc3 0-1", 2, "the game is over (checkmate, 0-1) but the movetext goes on with 'Nc3'"),
        ('[Termination "checkmate"]\n[Result "1-0"]\n\n1. e4 1-0', 1, "the moves do not end the game"),
        ('[Termination "stalemate"]\n\n1. f3 e5 2. g4 Qh4# 0-1', 1, "but the game ended by checkmate"),
        ("1. e4 { never closed\n2. e5 *", 1, "comment '{' is never closed"),
        ("1. e4 (1. d4 d5\n2. c4 *", 1, "variation '(' is never closed"),
        ("1. e4 e5 ) *", 1, "')' without '('"),
        ("1. e4 }", 1, "'}' without '{'"),
        ("1. e4 e5\n2. Nf3 $ *", 2, "'$' without a number"),
        ('1. e4 *\n\n[Event "second"]\n1. d4 *', 3, "the tags of another game"),
        ("1. e4 [Event] *", 1, "a tag inside the movetext"),
        ('[Variant "Chess960"]\n\n1. e4 *', 1, "Variant 'Chess960' is not standard chess"),
        ('[SetUp "1"]\n\n1. e4 *', 1, 'SetUp "1" without a FEN tag'),
        ('[Event "x"]\n[SetUp "1"]\n[FEN "8/8/8/8/8/8/8/8 w - - 0 1"]\n\n*', 3, "FEN '8/8/8/8/8/8/8/8 w - - 0 1'"),
        ("", 1, "no PGN game in the text"),
    ],
)
def test_bad_input(text, line, problem):
    with pytest.raises(PgnError) as info:
        read_pgn(text)
    assert info.value.line == line, str(info.value)
    assert problem in info.value.problem, str(info.value)
    assert str(info.value).startswith(f"line {line}: ")
    assert isinstance(info.value, ValueError)


def test_the_right_result_reads():
    game = read_pgn(FOOL.format(result="0-1"))
    assert game.outcome().termination is Termination.CHECKMATE and game.outcome().winners == (Colour.BLACK,)


def test_bad_move_deep_in_a_long_record_names_its_line():
    game = random_game(11)
    text = write_pgn(game)
    lines = text.splitlines()
    target = len(lines) - 2  # a movetext line
    words = lines[target].split(" ")
    index = next(i for i, w in enumerate(words) if not w.endswith(".") and w[0].isalpha())
    words[index] = "Kz9" if words[index] != "Kz9" else "Qz9"
    lines[target] = " ".join(words)
    with pytest.raises(PgnError) as info:
        read_pgn("\n".join(lines))
    assert info.value.line == target + 1


def test_a_failed_read_returns_nothing_and_changes_nothing():
    text = "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Bxe8 *"
    result = None
    with pytest.raises(PgnError, match="line 1: illegal move 'Bxe8'"):
        result = read_pgn(text)
    assert result is None
    assert read_pgn(text.replace("Bxe8", "Ba4")).history[-1] == "b5a4"  # and the reader still works


# -- non-standard starts ----------------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(8))
def test_fen_start_round_trips(seed):
    rng = random.Random(1000 + seed)
    fen = random_start(rng)
    game = Game("standard", start=fen)
    while not game.is_over() and game.ply < 60:
        game.push(rng.choice(list(game.legal_moves)))
    text = write_pgn(game)
    assert '[SetUp "1"]' in text and f'[FEN "{fen}"]' in text
    number = fen.split(" ")[5]
    assert text.split("\n\n", 1)[1].startswith(f"{number}." if " w " in fen else f"{number}... ")
    read = read_pgn(text)
    assert read.start_fen == fen and read.history == game.history and read.outcome() == game.outcome()
    chess_pgn = pytest.importorskip("chess.pgn")
    parsed = chess_pgn.read_game(io.StringIO(text))
    assert parsed.errors == [] and [m.uci() for m in parsed.mainline_moves()] == moves_of(game)


def test_game_over_at_the_start():
    stalemate = "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"
    game = Game("standard", start=stalemate)
    text = write_pgn(game)
    assert '[Result "1/2-1/2"]' in text and '[Termination "stalemate"]' in text and text.endswith("\n\n1/2-1/2\n")
    read = read_pgn(text)
    assert read.outcome() == game.outcome()
    with pytest.raises(GameOverError):
        read.push("h8g8")
