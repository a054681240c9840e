"""chess.com's FEN4 and PGN4 (docs/fen4-pgn4.md): real chess.com exports replayed move by move,
random games written and read back to the identical game, special moves and marks, and
malformed input rejected with the field or line and the problem."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from polychess import Board, Colour, Game, PieceType, Reason, Status, Termination
from polychess.formats.fen4 import START_FEN4, Fen4Error, read_fen4, write_fen4
from polychess.formats.pgn4 import Pgn4Error, parse_pgn4, read_pgn4, write_pgn4
from polychess.options import OptionError
from positions import cross_position as position

DATA = Path(__file__).parents[1] / "data" / "pgn4"
RED, BLUE, YELLOW, GREEN = Colour.RED, Colour.BLUE, Colour.YELLOW, Colour.GREEN
KINGS = {"h1": "rK", "a7": "bK", "g14": "yK", "n8": "gK"}


def without_fullmove(fen: str) -> list[str]:
    fields = fen.split(" ")
    return fields[:5] + fields[6:]  # FEN4 has no move number


def same_game(a: Game, b: Game) -> None:
    assert a.history == b.history
    assert a.board.fen() == b.board.fen()
    assert a.outcome() == b.outcome()
    assert a.eliminations == b.eliminations
    assert a.points == b.points
    assert (a.mode, a.start_fen, a.move_limit) == (b.mode, b.start_fen, b.move_limit)


def movetext(text: str) -> list[str]:
    """The moves and move numbers of a record, comments and variations dropped."""
    body = text.split("\n\n", 1)[1] if text.lstrip().startswith(("[", "%")) else text
    body = re.sub(r"\{[^}]*\}", " ", body)
    while "(" in body:
        body = re.sub(r"\([^()]*\)", " ", body)
    return [t for t in body.split() if t != ".."]


# -- real chess.com exports ------------------------------------------------------------------

REAL = {
    # file: (mode, plies replayed, termination, the last player out and how, Result, unplayed)
    "cc_teams_26780486.pgn4": ("teams", 122, Termination.RESIGNATION, (YELLOW, Reason.RESIGNATION), "0-1", ()),
    "cc_teams_26780489.pgn4": ("teams", 61, Termination.TIME_FORFEIT, (BLUE, Reason.TIME_FORFEIT), "1-0", ()),
    "cc_teams_519084_classic.pgn4": ("teams", 28, Termination.CHECKMATE, (RED, Reason.CHECKMATE), "0-1", ()),
    "cc_ffa_100527014.pgn4": ("ffa", 175, Termination.POINTS_LEAD, (GREEN, Reason.KING_CAPTURE), None, ("R",)),
    # Red's mates score 20 each (credited to the mover, as chess.com does: Red 75 as in the
    # export); with Red 75 against Green 33 and two players left the game ends on the lead
    # (docs/rules.md §2.4), where chess.com waits for a claim: Green's last move is not played.
    "cc_ffa_100532097.pgn4": (
        "ffa",
        246,
        Termination.POINTS_LEAD,
        (YELLOW, Reason.CHECKMATE),
        None,
        ("Nk10xQi11", "R"),
    ),
    "cc_ffa_100786972.pgn4": ("ffa", 98, Termination.RESIGNATION, (YELLOW, Reason.RESIGNATION), None, ()),
}


@pytest.mark.parametrize("name", sorted(REAL))
def test_real_export_replays_every_move(name: str) -> None:
    text = (DATA / name).read_text()
    assert text.startswith("% "), "every data file names its source on its first line"
    mode, plies, termination, (last_out, reason), result, unplayed = REAL[name]
    record = parse_pgn4(text)
    game = record.game
    moves = [t for t in movetext(text) if not re.fullmatch(r"[0-9]+\.|[RTS#]", t)]
    assert game.mode == mode
    unplayed_moves = [t for t in unplayed if not re.fullmatch(r"[RTS#]", t)]
    assert game.ply == plies == len(moves) - len(unplayed_moves)
    moves = moves[:plies]
    # every move of the record was played, in order: compare squares (castling by its king move)
    played = [h for h in game.history if "(" not in h]
    assert len(played) == plies
    for token, move in zip(moves, played, strict=True):
        squares = re.findall(r"[a-n](?:1[0-4]|[1-9])", token)
        if squares:
            promotion = re.search(r"=([QRBND])", token)
            assert move == "".join(squares) + (
                {"D": "q"}.get(promotion.group(1), promotion.group(1).lower()) if promotion else ""
            ), token
        else:
            assert token.startswith("O-O"), token
    outcome = game.outcome()
    assert outcome is not None and outcome.termination is termination
    assert (outcome.eliminations[-1].player, outcome.eliminations[-1].reason) == (last_out, reason)
    assert record.unplayed == unplayed
    if result is not None:
        assert record.tags["Result"] == result


@pytest.mark.parametrize("name", sorted(REAL))
def test_real_export_written_back_has_the_same_movetext(name: str) -> None:
    text = (DATA / name).read_text()
    record = parse_pgn4(text)
    written = write_pgn4(record.game, record.tags)
    original = movetext(text)
    if record.unplayed:  # the claim after polychess ended the game: not part of the game
        original = original[: len(original) - len(record.unplayed) - 1]
    assert movetext(written) == original
    same_game(read_pgn4(written), record.game)
    for tag in ("Red", "Blue", "Yellow", "Green", "Site", "Date", "GameNr"):
        assert f'[{tag} "{record.tags[tag]}"]' in written


def test_real_ffa_points() -> None:
    """polychess's score, and chess.com's Result, which differs where chess.com credits the
    mater differently or adds its end bonus (docs/fen4-pgn4.md)."""
    record = parse_pgn4((DATA / "cc_ffa_100786972.pgn4").read_text())
    assert record.game.points == {RED: 21, BLUE: 48, YELLOW: 45, GREEN: 16}
    assert record.reported_points == {RED: 21, BLUE: 68, YELLOW: 45, GREEN: 16}  # "(Blue +20)"
    record = parse_pgn4((DATA / "cc_ffa_100527014.pgn4").read_text())
    assert record.game.points == {RED: 72, BLUE: 14, YELLOW: 41, GREEN: 33}
    assert record.reported_points == {RED: 72, BLUE: 14, YELLOW: 61, GREEN: 33}  # "(Yellow +20)"


def test_real_classic_export_without_startfen4() -> None:
    text = (DATA / "cc_teams_519084_classic.pgn4").read_text()
    game = read_pgn4(text)
    assert game.setup == "classic"
    assert game.eliminations[-1].by is GREEN
    with pytest.raises(Pgn4Error, match=r"line 22: 'Qn8-m8': the piece on n8 is a green king, written K"):
        read_pgn4(text, setup="modern")
    written = write_pgn4(game)
    assert '[StartFen4 "R-0,0,0,0-1,1,1,1-1,1,1,1-0,0,0,0-0-x,x,x,yR' in written
    same_game(read_pgn4(written), game)


def test_real_variation_is_skipped() -> None:
    game = read_pgn4((DATA / "cc_teams_26780489.pgn4").read_text())
    assert game.history[20:24] == ["m6l6", "b9f13", "g14f13", "m5l6"]


def test_old_style_mate_mark_on_the_move_and_missing_final_mark() -> None:
    text = (DATA / "cc_teams_519084_classic.pgn4").read_text()
    game = read_pgn4(text)
    # an older chess.com style marks the next player's mate on the move itself
    same_game(read_pgn4(text.replace("Qi4-h3+\n8. #", "Qi4-h3+#")), game)
    # and a record may simply end before the mate's token
    same_game(read_pgn4(text.replace("\n8. #", "")), game)
    # in free-for-all chess.com may leave the '#' off the record's last move
    ffa = (DATA / "cc_ffa_100786972.pgn4").read_text()
    cut = ffa[: ffa.index("Qe2-f1+#") + len("Qe2-f1+#")]
    assert read_pgn4(cut).eliminations == read_pgn4(cut.replace("Qe2-f1+#", "Qe2-f1+")).eliminations


# -- random games: write, read back, identical -------------------------------------------------


def random_game(seed: int, mode: str) -> Game:
    rng = random.Random(seed)
    options: dict[str, object] = {}
    if seed % 5 == 1:
        options["move_limit"] = rng.randint(8, 60)
    if seed % 7 == 3:
        options["first_player"] = rng.choice([BLUE, YELLOW, GREEN])
    setup = "classic" if seed % 4 == 2 else "modern"
    game = Game("four-player", mode=mode, setup=setup, **options)  # type: ignore[arg-type]
    while not game.is_over() and game.ply < 80:
        roll = rng.random()
        if roll < 0.01:
            game.resign(rng.choice(game.active_players()))  # in turn or not
        elif roll < 0.015:
            game.time_forfeit(game.turn)
        elif roll < 0.017:
            game.agree_draw()
        else:
            board = game.board
            moves = list(game.legal_moves)
            captures = [m for m in moves if board.piece_at(m.to_cell) is not None]
            game.push(rng.choice(captures if captures and rng.random() < 0.6 else moves))
    return game


@pytest.mark.parametrize("mode", ["teams", "ffa"])
@pytest.mark.parametrize("seed", range(18))
def test_random_game_round_trip(mode: str, seed: int) -> None:
    game = random_game(seed, mode)
    text = write_pgn4(game, {"Red": "Ann", "Blue": "Bob", "Yellow": "Cid", "Green": "Dee", "Site": "test"})
    again = read_pgn4(text)
    same_game(again, game)
    assert write_pgn4(again, {"Red": "Ann", "Blue": "Bob", "Yellow": "Cid", "Green": "Dee", "Site": "test"}) == text
    board = game.board
    if mode == "teams" and any(board.controller(c) not in (c, None) for c in board.colours):
        return  # a mated Teams army passed to the mater: FEN4 has no way to say so
    fen4 = read_fen4(write_fen4(board, game.points), mode=mode)
    assert without_fullmove(fen4.board.fen()) == without_fullmove(board.fen())
    assert fen4.points == {c: game.points.get(c, 0) for c in board.colours}


def test_written_record_shape() -> None:
    game = Game("four-player", mode="ffa")
    for move in ("h2h3", "b7c7", "i13i12", "m8l8", "g1i3"):
        game.push(move)
    game.resign("yellow")  # not his turn: a polychess comment event
    game.resign("blue")  # his turn: chess.com's R
    text = write_pgn4(game, {"Red": "Ann"})
    head, body = text.split("\n\n")
    assert head.splitlines()[:4] == [
        '[Variant "FFA"]',
        '[RuleVariants "EnPassant PromoteTo=D"]',
        '[StartFen4 "4PC"]',
        '[Red "Ann"]',
    ]
    assert body.splitlines() == ["1. h2-h3 .. b7-c7 .. i13-i12 .. m8-l8", "2. Qg1-i3 {resign(yellow)} .. R"]
    same_game(read_pgn4(text), game)


# -- moves and marks ---------------------------------------------------------------------------


def body(game: Game) -> str:
    return write_pgn4(game).split("\n\n")[1].strip()


def test_promotions() -> None:
    teams = Game("four-player", mode="teams", start=position({**KINGS, "e10": "rP"}))
    teams.push("e10e11n")
    assert body(teams) == "1. e10-e11=N"
    assert teams.board.piece_at("e11") == (RED, PieceType.KNIGHT)
    ffa = Game("four-player", mode="ffa", start=position({**KINGS, "e7": "rP", "b8": "bR"}))
    ffa.push("e7e8q")
    ffa.push("b8e8")
    assert body(ffa) == "1. e7-e8=D+ .. Rb8xQe8+"  # the one-point queen is 'D' when promoted, 'Q' after
    same_game(read_pgn4(write_pgn4(ffa).replace("e8=D", "e8=Q")), ffa)  # '=Q' is read as well
    assert ffa.points[BLUE] == 1


def test_en_passant() -> None:
    game = Game("four-player", start=position({**KINGS, "d2": "rP", "c4": "bP"}))
    game.push("d2d4")
    fen4 = write_fen4(game.board)
    assert "-{'enPassant':('d3:d4','','','')}-" in fen4
    read = read_fen4(fen4)
    assert read.en_passant == {RED: ("d3", "d4")}
    assert "c4d3" in [str(m) for m in read.board.legal_moves]
    game.push("c4d3")
    assert body(game) == "1. d2-d4 .. c4xd3"
    assert game.board.piece_at("d4") is None
    same_game(read_pgn4(write_pgn4(game)), game)


@pytest.mark.parametrize("mode", ["teams", "ffa"])
def test_stalemate_token(mode: str) -> None:
    start = position({"h1": "rK", "a4": "bK", "g14": "yK", "n8": "gK", "b11": "rR", "c7": "rB"})
    game = Game("four-player", mode=mode, start=start)
    game.push("h1h2")
    assert body(game) == "1. Kh1-h2 .. S"
    assert game.eliminations[0].reason is Reason.STALEMATE
    text = write_pgn4(game)
    same_game(read_pgn4(text), game)
    if mode == "teams":
        assert '[Result "1/2-1/2"]' in text
    else:
        assert game.points[BLUE] == 20 and game.status(BLUE) == Status.OUT
        with pytest.raises(Pgn4Error, match=r"blue is stalemated here; the record must say 'S'"):
            read_pgn4(text.replace(".. S", ".. Kg14-g13"))


@pytest.mark.parametrize("mode", ["teams", "ffa"])
def test_king_capture(mode: str) -> None:
    start = position({"h1": "rK", "a7": "bK", "e10": "yK", "n8": "gK", "a10": "bR", "c10": "rN"})
    game = Game("four-player", mode=mode, start=start)
    game.push("c10a9")  # uncovers Blue's rook: a discovered check counts as '+'
    game.push("a10e10")
    assert body(game) == "1. Nc10-a9+ .. Ra10xKe10#"
    assert game.eliminations[0].reason is Reason.KING_CAPTURE
    same_game(read_pgn4(write_pgn4(game)), game)


@pytest.mark.parametrize(("mode", "marks"), [("ffa", "+++"), ("teams", "++")])
def test_multiple_checks(mode: str, marks: str) -> None:
    start = position({"h1": "rK", "a7": "bK", "g14": "yK", "n7": "gK", "d4": "rQ"})
    game = Game("four-player", mode=mode, start=start)
    game.push("d4g7")
    assert body(game) == f"1. Qd4-g7{marks}"  # partners give no check in Teams
    same_game(read_pgn4(write_pgn4(game)), game)


def test_castling_and_draw_by_agreement() -> None:
    game = Game("four-player", mode="teams")
    for move in (
        "j1i3",
        "b7c7",
        "g13g12",
        "m8l8",
        "j2j3",
        "b10c10",
        "i13i12",
        "m7l7",
        "i1j2",
        "a10c9",
        "f14g13",
        "n10l9",
        "h1j1",
    ):
        game.push(move)
    game.agree_draw()
    text = write_pgn4(game)
    assert "4. O-O {draw}" in text
    assert '[Result "1/2-1/2"]' in text and '[Termination "Game drawn by agreement. 1/2-1/2"]' in text
    same_game(read_pgn4(text), game)
    # chess.com writes no token for an agreed draw: a Teams draw result that the moves do not
    # explain is read as one
    same_game(read_pgn4(text.replace(" {draw}", "")), game)


def test_move_limit_tag() -> None:
    game = Game("four-player", mode="ffa", move_limit=6)
    for move in ("h2h3", "b7c7", "i13i12", "m8l8", "g1i3", "a8b7"):
        game.push(move)
    text = write_pgn4(game)
    assert '[MoveLimit "6"]' in text
    same_game(read_pgn4(text), game)


# -- FEN4 --------------------------------------------------------------------------------------


def test_start_position_both_corner_spellings() -> None:
    assert write_fen4(Board("four-player")) == START_FEN4
    digits = START_FEN4.replace("x,x,x,8,x,x,x", "14")
    digits = re.sub(r"x,x,x,(y|r)", r"3,\1", digits)
    digits = re.sub(r"(yR|rR|yP|rP),x,x,x", r"\1,3", digits)
    assert "x" not in digits
    for text in (START_FEN4, digits, digits.replace("/", "/\n")):
        fen4 = read_fen4(text)
        assert fen4.board.fen() == Board("four-player").fen()
        assert fen4.setup == "modern" and fen4.turn is RED and fen4.halfmove == 0
        assert fen4.castling == {c: (True, True) for c in fen4.board.colours}


def test_classic_start_inferred() -> None:
    """The start position of the Wikibooks page and the fen4 crate (the classic setup, then
    chess.com's default), corners counted in the digits."""
    text = (
        "R-0,0,0,0-1,1,1,1-1,1,1,1-0,0,0,0-0-\n3,yR,yN,yB,yK,yQ,yB,yN,yR,3/\n3,yP,yP,yP,yP,yP,yP,yP,yP,3/\n14/\n"
        "bR,bP,10,gP,gR/\nbN,bP,10,gP,gN/\nbB,bP,10,gP,gB/\nbK,bP,10,gP,gQ/\nbQ,bP,10,gP,gK/\nbB,bP,10,gP,gB/\n"
        "bN,bP,10,gP,gN/\nbR,bP,10,gP,gR/\n14/\n3,rP,rP,rP,rP,rP,rP,rP,rP,3/\n3,rR,rN,rB,rQ,rK,rB,rN,rR,3"
    )
    fen4 = read_fen4(text)
    assert fen4.setup == "classic"
    assert fen4.board.fen() == Board("four-player", setup="classic").fen()
    assert read_fen4(text, setup="modern").board.fen().split(" ")[2] == "rKQyKQ"  # rights need the king at home


def test_real_midgame_fen4_round_trips_byte_for_byte() -> None:
    # From the public repository obryanlouis/4pchess (board_test.cc, "Promotions"): Yellow to
    # move, Blue's en-passant right after b8-d8, corners as x.
    text = (
        "Y-0,0,0,0-0,0,0,1-0,0,1,1-0,0,0,0-0-{'enPassant':('','c8:d8','','')}-x,x,x,1,yN,1,yK,2,yN,yR,x,x,x/"
        "x,x,x,1,yP,yP,3,yP,yP,x,x,x/x,x,x,3,yP,1,yP,2,x,x,x/bR,bP,5,yP,4,gP,gR/1,bP,10,gP,gN/"
        "bB,bP,10,gP,1/bK,2,bP,7,gP,1,gK/4,rR,7,gP,1/11,gP,2/1,bP,1,yP,9,gN/1,bP,8,gP,1,gP,gR/"
        "x,x,x,rP,1,rN,1,rP,gB,2,x,x,x/x,x,x,2,rP,rP,1,rP,2,x,x,x/x,x,x,4,rK,3,x,x,x"
    )
    fen4 = read_fen4(text)
    assert fen4.turn is YELLOW and fen4.en_passant == {BLUE: ("c8", "d8")}
    assert fen4.castling[GREEN] == (True, True) and fen4.castling[YELLOW] == (False, True)
    assert "d5d4q" in [str(m) for m in fen4.board.legal_moves]
    assert write_fen4(fen4.board) == text


def test_dead_flags_points_and_dead_pieces() -> None:
    game = Game("four-player", mode="ffa")
    for move in ("h2h3", "b7c7", "i13i12", "m8l8", "g1i3"):
        game.push(move)
    game.resign("blue")
    game.push("h14i13")
    text = write_fen4(game.board, {RED: 3, BLUE: 0, YELLOW: 7, GREEN: 21})
    assert text.startswith("G-0,1,0,0-1,0,1,1-1,0,1,1-3,0,7,21-2-")
    assert "/dbK,1,dbP," in text and "/dbQ,dbP," in text
    fen4 = read_fen4(text, mode="ffa")
    assert fen4.dead == {RED: False, BLUE: True, YELLOW: False, GREEN: False}
    assert fen4.points == {RED: 3, BLUE: 0, YELLOW: 7, GREEN: 21}
    board = fen4.board
    assert board.status(BLUE) == Status.OUT and board.controller(BLUE) is None
    assert board.piece_at("a7") == (BLUE, PieceType.KING)  # the dead king stays on the board
    assert without_fullmove(board.fen()) == without_fullmove(game.board.fen())
    # dead pieces written without their colour belong to the (first) dead player
    assert read_fen4(re.sub(r"db([PNBRQK])", r"d\1", text), mode="ffa").board.fen() == board.fen()


def test_one_point_queen_on_the_board() -> None:
    game = Game("four-player", mode="ffa", start=position({**KINGS, "e7": "rP"}))
    game.push("e7e8q")
    text = write_fen4(game.board)
    assert ",rD," in text
    assert read_fen4(text, mode="ffa").board.piece_at("e8") == (RED, PieceType.ONE_POINT_QUEEN)


def test_informational_extras_kept() -> None:
    text = START_FEN4.replace("-0-x", "-0-{'uniquify':94403,'resigned':(false,false,false,false)}-x")
    fen4 = read_fen4(text)
    assert fen4.extras == {"uniquify": "94403", "resigned": "(false,false,false,false)"}


# -- malformed input ---------------------------------------------------------------------------

HEAD = "R-0,0,0,0-1,1,1,1-1,1,1,1-0,0,0,0-0-"
BOARD = START_FEN4[len(HEAD) :]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", r"FEN4 text: empty"),
        ("X" + START_FEN4[1:], r"FEN4 side to move: 'X' is not R, B, Y or G"),
        (START_FEN4.replace("R-0,0,0,0-", "R-0,0,0-", 1), r"FEN4 dead flags: '0,0,0' has 3 values; expected 4"),
        (START_FEN4.replace("-1,1,1,1-", "-1,1,2,1-", 1), r"FEN4 king-side castling: '2' in '1,1,2,1' is not 0 or 1"),
        (HEAD.replace("0,0,0,0-0-", "0,a,0,0-0-") + BOARD, r"FEN4 points: 'a' in '0,a,0,0' is not a whole number"),
        (HEAD[:-2] + "z-" + BOARD, r"FEN4 ply clock: 'z' is not a whole number of plies"),
        ("R-0,0,0,0", r"FEN4 king-side castling: missing"),
        (HEAD + BOARD.rsplit("/", 1)[0], r"FEN4 board: 13 ranks separated by '/'; expected 14"),
        (HEAD + BOARD.replace("bR,bP,10,gP,gR", "bR,bP,11,gP,gR", 1), r"FEN4 board: rank 11 has more than 14 cells"),
        (HEAD + BOARD.replace("bR,bP,10,gP,gR", "bR,bP,9,gP,gR", 1), r"FEN4 board: rank 11 has 13 cells; expected 14"),
        (
            HEAD + BOARD.replace("bR,bP,10,gP,gR", "bR,bP,x,9,gP,gR", 1),
            r"FEN4 board: rank 11: 'x' stands on c11, which is a square of the board",
        ),
        (
            HEAD + BOARD.replace("x,x,x,8,x,x,x", "yP,x,x,8,x,x,x", 1),
            r"FEN4 board: rank 12: 'yP' stands on the missing corner cell a12",
        ),
        (HEAD + BOARD.replace("yN", "yZ", 1), r"FEN4 board: rank 14: 'yZ' is a piece polychess does not know"),
        (HEAD + BOARD.replace("yN", "dyN", 1), r"FEN4 board: dead piece 'dyN' on e14 but yellow is not dead"),
        (START_FEN4.replace("R-0,0,0,0", "R-1,0,0,0", 1), r"FEN4 side to move: red is to move but is dead"),
        (
            HEAD + "{'lives':(3,3,3,3)}-" + BOARD,
            r"FEN4 extras: 'lives' is a rule-variant setting polychess does not play",
        ),
        (HEAD + "{'enPassant':('d3:d4','','','')}-" + BOARD, r"FEN4 extras: en passant 'd3:d4': no red pawn on d4"),
        (HEAD + "{'enPassant':('d3','',''}-" + BOARD, r"FEN4 extras: expected"),
        (HEAD + "{'enPassant':('d3:d4'-" + BOARD, r"FEN4 extras: '\{' is never closed"),
        (HEAD + BOARD.replace("bK", "bP", 1), r"FEN4 position: .*blue"),
    ],
)
def test_malformed_fen4(text: str, message: str) -> None:
    with pytest.raises(Fen4Error, match=message):
        read_fen4(text)


def record(moves: str, **tags: str) -> str:
    return "".join(f'[{k} "{v}"]\n' for k, v in tags.items()) + "\n" + moves + "\n"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('[Variant "Teams"\n\n1. h2-h3', r"line 1: malformed tag"),
        ('[Variant "Teams"]\n[Variant "FFA"]\n\n1. h2-h3', r"line 2: tag Variant given twice"),
        (record("1. h2-h3", Variant="Duck Chess"), r"line 1: Variant 'Duck Chess' is not four-player Teams or FFA"),
        (
            record("1. h2-h3", Variant="FFA", RuleVariants="EnPassant CaptureTheKing"),
            r"line 2: rule variant 'CaptureTheKing' is not played by polychess",
        ),
        (record("1. h2-h3", StartFen4="R-0,0,0,0-1,1"), r"line 1: FEN4 queen-side castling: missing"),
        (
            record("1. h2-h3", StartFen4=START_FEN4.replace("-0,0,0,0-0-", "-3,0,0,0-0-")),
            r"line 1: StartFen4 gives points 3,0,0,0; a Teams game has no points",
        ),
        (record("1. h2-h5"), r"line 2: 'h2-h5': illegal move"),
        (record("1. Nh2-h3"), r"line 2: 'Nh2-h3': the piece on h2 is a red pawn, written without a letter"),
        (
            record("1. h2-h3 .. b7-c7 .. i13-i12 .. m8-l8\n2. Qg1xNj4"),
            r"line 3: 'Qg1xNj4' is written as a capture \('x'\) but captures nothing",
        ),
        (record("1. h2-h3+"), r"line 2: 'h2-h3\+' marks 1 check\(s\) but the move checks 0 king\(s\) \(none\)"),
        (record("1. h2-h3#"), r"line 2: 'h2-h3#' marks 1 mate\(s\) but the move mates 0 player\(s\)"),
        (
            record("1. h2-h3 .. b7-c7\n3. i13-i12"),
            r"line 3: move number 3 before 'i13-i12', but yellow's move there is in round 1",
        ),
        (record("1. h2-h3 .. #"), r"line 2: '#' in blue's slot, but blue is not checkmated here"),
        (record("1. Nf3"), r"line 2: 'Nf3' is not a move in chess.com's notation"),
        (record("1. h2-h3 { unclosed"), r"line 2: comment '\{' is never closed"),
        (record("1. h2-h3 ( .. b7-c7"), r"line 2: variation '\(' is never closed"),
        (record("1. h2-h3", Result="1-0"), r"line 1: Result tag says 1-0 but the game is not over"),
        (record("1. R .. h2-h3"), r"line 2: the game is over \(resignation\) but the record goes on with 'h2-h3'"),
        (record('1. h2-h3\n[Variant "FFA"]'), r"line 3: the tags of another game \(read one game at a time\)"),
        # names of the 14 x 14 square that are cut-off corners, with no cell
        ("1. a1-a2", r"line 1: 'a1-a2': bad move text 'a1a2': 'a1' is not a cell of four-player"),
        (record("1. h2-h3 .. n13-m13"), r"line 2: 'n13-m13': bad move text 'n13m13': 'n13' is not a cell"),
        (record("1. h2-h3", MoveLimit="\u00b2"), r"line 1: MoveLimit '\u00b2' is not a positive number of plies"),
        (
            record("1. h2-h3", Variant="FFA", MoveLimit="9" * 20),
            r"line 2: MoveLimit must be a whole number from 1 to 1000000000, got 9{20}",
        ),
    ],
)
def test_malformed_pgn4(text: str, message: str) -> None:
    with pytest.raises(Pgn4Error, match=message):
        read_pgn4(text)


def test_a_bad_setup_argument_is_the_callers_error_not_the_records() -> None:
    with pytest.raises(OptionError, match="^setup must be one of modern, classic, got 'hexagonal'$"):
        read_pgn4(record("1. h2-h3"), setup="hexagonal")


def test_any_refusal_of_the_game_is_an_error_at_its_token(monkeypatch: pytest.MonkeyPatch) -> None:
    # Whatever the game refuses while a record is replayed (its errors are ValueErrors) is an
    # error of the record, at the line of the token that asked for it.
    def refuse(game: Game, *args: object) -> None:
        raise ValueError("refused")

    push = Game.push
    monkeypatch.setattr(Game, "push", lambda game, move: refuse(game) if game.ply else push(game, move))
    with pytest.raises(Pgn4Error, match=r"^line 3: 'b7-c7': refused$"):
        read_pgn4(record("1. h2-h3\n.. b7-c7"))
    monkeypatch.setattr(Game, "resign", refuse)
    with pytest.raises(Pgn4Error, match=r"^line 2: 'R': refused$"):
        read_pgn4(record("1. R"))
    with pytest.raises(Pgn4Error, match=r"^line 3: \{resign\(blue\)\}: refused$"):
        read_pgn4(record("1. h2-h3\n{resign(blue)}"))


def test_wrong_facts_in_a_real_export() -> None:
    text = (DATA / "cc_teams_26780486.pgn4").read_text()
    with pytest.raises(Pgn4Error, match=r"line 27: 'Bh2xQl6': the captured piece is a green knight, written N"):
        read_pgn4(text.replace("Bh2xNl6", "Bh2xQl6"))
    with pytest.raises(
        Pgn4Error,
        match=r"line 30: 'Nd11xNf12' marks 0 check\(s\) but the move checks 1 king\(s\) "
        r"\(yellow\)",
    ):
        read_pgn4(text.replace("Nd11xNf12+", "Nd11xNf12"))
    with pytest.raises(Pgn4Error, match=r"line 16: Result tag says 1-0 but the game gives 0-1"):
        read_pgn4(text.replace('[Result "0-1"]', '[Result "1-0"]'))


def test_dead_king_walking_is_reported() -> None:
    """chess.com's DeadKingWalking: after a resignation the king walks on (here 'Kb9-a10R'
    then a check of that king), which polychess does not play."""
    ffa = (DATA / "cc_ffa_100786972.pgn4").read_text()
    cut = ffa[: ffa.index("19. Kh1-g2")] + "19. Kh1-g2R .. Qe1xe2+\n"
    with pytest.raises(Pgn4Error, match=r"DeadKingWalking"):
        read_pgn4(cut)


def test_an_ffa_game_starts_with_the_points_of_its_start_fen4() -> None:
    start = START_FEN4.replace("-0,0,0,0-0-", "-3,0,12,0-0-")
    game = read_pgn4(record("1. h2-h3", Variant="FFA", StartFen4=start))
    assert game.start_points == {Colour.RED: 3, Colour.YELLOW: 12}
    assert game.points == {Colour.RED: 3, Colour.BLUE: 0, Colour.YELLOW: 12, Colour.GREEN: 0}
    written = write_pgn4(game)
    assert "-3,0,12,0-" in written
    assert read_pgn4(written).points == game.points
