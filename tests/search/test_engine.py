"""The search engine: forced mates in every variant, legality, limits, determinism, the
transposition table, stopping from another thread."""

import random
import threading
import time

import pytest

from polychess import Board, Colour, Engine, Game
from polychess.engine import ALGORITHMS
from positions import cross_position, position

BACK_RANK_MATE = "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1"


def test_standard_mate_in_one():
    result = Engine(hash_mb=8).search(Board("standard", BACK_RANK_MATE), depth=3)
    assert str(result.best_move) == "a1a8" and result.mate_in == 1
    board = Board("standard", BACK_RANK_MATE)
    board.push(result.best_move)
    assert board.is_checkmate()


def test_standard_mate_in_two():
    # 1. Rd8+ Rxd8 2. Rxd8# (the doubled rooks' back-rank combination)
    fen = "2r3k1/5ppp/8/8/8/8/3R1PPP/3R2K1 w - - 0 1"
    result = Engine(hash_mb=8).search(Board("standard", fen), depth=5)
    assert result.mate_in == 2
    assert str(result.best_move) == "d2d8"


@pytest.mark.parametrize("algorithm", ALGORITHMS)
def test_three_player_mate_in_one(algorithm):
    # Red's king in his corner behind his own pawns; White's rook reaches Red's back rank.
    fen = position({"N12": "rK", "N11": "rP", "M11": "rP", "K10": "wR", "E1": "wK", "H8": "bK"})
    board = Board("three-player", fen)
    result = Engine(algorithm, hash_mb=8).search(board, depth=3)
    assert str(result.best_move) == "K10K12" and result.mate_in == 1
    board.push(result.best_move)
    assert board.is_checkmate() and board.mated_by() is Colour.WHITE


@pytest.mark.parametrize("algorithm", ALGORITHMS)
def test_three_player_mate_needing_the_other_opponents_piece(algorithm):
    # docs/rules.md §1.7 (the texts' recommendation 6.1): a mate where a piece of the third player covers the
    # king's flight cells. Black's rook on M7 guards M11 and M12 along the M file (which runs
    # M7 M6 M5 M9 M10 M11 M12 across the centre), so K10xN10 mates; without it, no mate.
    # (Black's king stands off the K file: a king White's rook could take would be worth more.)
    pieces = {"N12": "rK", "K10": "wR", "E1": "wK", "H8": "bK", "N10": "rP"}
    board = Board("three-player", position(dict(pieces, M7="bR")))
    result = Engine(algorithm, hash_mb=8).search(board, depth=3)
    assert str(result.best_move) == "K10N10" and result.mate_in == 1
    board.push(result.best_move)
    assert board.is_checkmate() and board.mated_by() is Colour.WHITE
    assert Engine(algorithm, hash_mb=8).search(Board("three-player", position(pieces)), depth=3).mate_in is None


def _forces_mate(board, mover, target, moves):
    """Whether `mover`, to move, mates `target` within `moves` of his own moves whatever
    everyone else plays (exhaustive; an independent check of the engine's claim)."""
    if moves == 0:
        return False
    for move in list(board.legal_moves):
        board.push(move)
        forced = _every_reply_loses(board, mover, target, moves)
        board.pop()
        if forced:
            return True
    return False


def _every_reply_loses(board, mover, target, moves):
    if board.turn is target and board.is_checkmate() and board.mated_by() is mover:
        return True
    if board.turn is mover:
        return _forces_mate(board, mover, target, moves - 1)
    replies = list(board.legal_moves)
    if not replies:
        return False
    for reply in replies:
        board.push(reply)
        lost = _every_reply_loses(board, mover, target, moves)
        board.pop()
        if not lost:
            return False
    return True


def test_three_player_mate_in_two():
    # The doubled rooks' combination on Red's back rank: 1. K10-K12+ D12xK12 2. K9xK12#.
    pieces = {
        "N12": "rK",
        "N11": "rP",
        "M11": "rP",
        "L11": "rP",
        "D12": "rR",
        "E1": "wK",
        "H8": "bK",
        "K10": "wR",
        "K9": "wR",
    }
    board = Board("three-player", position(pieces))
    result = Engine(hash_mb=8).search(board, depth=5)
    assert str(result.best_move) == "K10K12" and result.mate_in == 2
    assert not _forces_mate(board, Colour.WHITE, Colour.RED, 1)
    board.push(result.best_move)
    assert _every_reply_loses(board, Colour.WHITE, Colour.RED, 2)


def test_three_player_elimination_is_scored_as_the_game_scores_it():
    # Taking Black's exposed king eliminates Black and brings White his rook (rules §1.8);
    # mating Red would bring only Red's bare king. The search plays eliminations out.
    pieces = {"N12": "rK", "K10": "wR", "E1": "wK", "K8": "bK", "N10": "rP", "M7": "bR"}
    board = Board("three-player", position(pieces))
    for algorithm in ALGORITHMS:
        result = Engine(algorithm, hash_mb=8).search(board, depth=3)
        assert str(result.best_move) == "K10K8", algorithm


def test_four_player_teams_mate():
    # Red mates Green on the n file; Blue (Green's partner) moves in between but cannot help.
    pieces = {"h1": "rK", "i5": "rR", "a7": "bK", "g14": "yK", "n8": "gK", "m7": "gP", "m8": "gP", "m9": "gP"}
    board = Board("four-player", cross_position(pieces))
    result = Engine(hash_mb=8).search(board, depth=4)
    assert str(result.best_move) == "i5n5" and result.mate_in == 1


def test_four_player_teams_sees_a_king_capture_at_the_horizon():
    # Red's queen takes Blue's rook on h6. Blue's bishop may take the queen back, but it stands
    # between Yellow's rook and Green's king: Yellow, who moves next, would take that king
    # (RULES.md 1.6) and win the game for Red's side. Seen only if quiescence searches king
    # captures at every window; blind to it, Red prefers the knight on d3.
    pieces = {"g1": "rK", "a7": "bK", "g14": "yK", "n8": "gK"}
    pieces.update({"d2": "rQ", "e2": "rP", "d3": "gN", "h6": "bR", "j8": "bB", "e8": "yR"})
    board = Board("four-player", cross_position(pieces), mode="teams")
    for depth in (1, 2):
        assert str(Engine(hash_mb=8).search(board, depth=depth).best_move) == "d2h6", depth


# Blue's king behind his pawns on the a file; Red's rook reaches it along rank 11.
BLUE_CORNERED = {"a7": "bK", "b6": "bP", "b7": "bP", "b8": "bP", "h1": "rK", "g14": "yK", "n8": "gK", "g11": "rR"}


@pytest.mark.parametrize("mode", ["teams", "ffa"])
@pytest.mark.parametrize("algorithm", ["paranoid", "brs"])
def test_four_player_mate_in_two(mode, algorithm):
    # 1. g11-a11+ e9-a9 (Blue interposes) 2. h11xa9#: the second rook on rank 11 finishes.
    board = Board("four-player", cross_position(dict(BLUE_CORNERED, h11="rR", e9="bR")), mode=mode)
    result = Engine(algorithm, hash_mb=8).search(board, depth=6)
    assert str(result.best_move) == "g11a11" and result.mate_in is not None
    # Where a mate ends the game (teams) the shortest is found; in free-for-all it is an
    # elimination worth 20 points whenever it comes, and paranoid search finds the shortest.
    if mode == "teams" or algorithm == "paranoid":
        assert result.mate_in == 2


@pytest.mark.parametrize("algorithm", ALGORITHMS)
def test_free_for_all_mate_in_one_scores_twenty_points(algorithm):
    game = Game("four-player", mode="ffa", start=cross_position(BLUE_CORNERED))
    result = Engine(algorithm, hash_mb=8).search(game, depth=2)
    assert str(result.best_move) == "g11a11" and result.mate_in == 1
    game.push(result.best_move)
    assert game.points[Colour.RED] == 20 and game.status(Colour.BLUE).name == "OUT"


@pytest.mark.parametrize("algorithm", ALGORITHMS)
def test_never_an_illegal_move_and_limits_respected(algorithm):
    rng = random.Random(5)
    engine = Engine(algorithm, hash_mb=4)
    for variant, kw in [("standard", {}), ("three-player", {}), ("four-player", {}), ("four-player", {"mode": "ffa"})]:
        board = Board(variant, **kw)
        for _ in range(12):
            moves = list(board.legal_moves)
            if not moves:
                break
            board.push(rng.choice(moves))
        result = engine.search(board, nodes=3000)
        assert result.best_move in board.legal_moves
        assert result.nodes < 3000 + 4096  # checked every 1024 nodes
        result = engine.search(board, depth=2)
        assert result.depth == 2 and result.best_move in board.legal_moves
        assert all(isinstance(m, type(result.best_move)) for m in result.pv)
    start = time.perf_counter()
    engine.search(Board("three-player"), time=0.2)
    assert time.perf_counter() - start < 2.0


@pytest.mark.parametrize("algorithm", ALGORITHMS)
def test_deterministic_at_fixed_depth(algorithm):
    board = Board("three-player")
    board.push("E2E4")
    first = Engine(algorithm, hash_mb=8).search(board, depth=4)
    second = Engine(algorithm, hash_mb=8).search(board, depth=4)
    assert (first.best_move, first.score, first.nodes, first.pv) == (
        second.best_move,
        second.score,
        second.nodes,
        second.pv,
    )


@pytest.mark.parametrize(
    "fen",
    [
        BACK_RANK_MATE,
        "4k3/8/8/3q4/8/8/3R4/4K3 w - - 0 1",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    ],
)
def test_table_on_and_off_agree(fen):
    with_table = Engine(hash_mb=8).search(Board("standard", fen), depth=3)
    without = Engine(hash_mb=0).search(Board("standard", fen), depth=3)
    assert with_table.score == without.score
    assert with_table.best_move == without.best_move


def test_info_per_iteration_and_stop_from_another_thread():
    engine = Engine(hash_mb=8)
    seen = []
    result = engine.search(Board("standard"), depth=4, info=seen.append)
    assert [r.depth for r in seen] == [1, 2, 3, 4] and seen[-1].best_move == result.best_move

    board = Board("three-player")
    timer = threading.Timer(0.3, engine.stop)
    start = time.perf_counter()
    timer.start()
    result = engine.search(board)  # no limit: runs until stopped
    assert time.perf_counter() - start < 5
    assert result.best_move in board.legal_moves and result.depth >= 1


def test_default_algorithm_per_game():
    # The strongest at equal time in our matches: best-reply search in three-player chess,
    # paranoid in free-for-all (bench/README.md).
    from polychess.engine import default_algorithm

    assert Engine().algorithm is None
    assert default_algorithm(Board("three-player")) == "brs"
    assert default_algorithm(Board("four-player", mode="ffa")) == "paranoid"
    assert default_algorithm(Board("four-player")) == default_algorithm(Board("standard")) == "brs"  # (unused)
    for board, algorithm in ((Board("three-player"), "brs"), (Board("four-player", mode="ffa"), "paranoid")):
        ours = Engine(hash_mb=4).search(board, depth=3)
        named = Engine(algorithm, hash_mb=4).search(board, depth=3)
        assert (ours.best_move, ours.score, ours.nodes) == (named.best_move, named.score, named.nodes)


def test_the_core_decides_the_default_algorithm_alone():
    # The low-level search and self-play, given no algorithm, search as the engine does by
    # default: the game's own (cpp/games/variant.h), not one of their own.
    from polychess import _core

    board = Board("three-player")
    game = _core.GameState(board.core.copy(), judge_start=False)
    unnamed = _core.Engine(4).search(game, depth=3)
    for algorithm, same in (("brs", True), ("paranoid", False)):
        named = _core.Engine(4).search(game, depth=3, algorithm=algorithm)
        assert (named["nodes"] == unnamed["nodes"]) is same, algorithm


def test_play_and_errors():
    game = Game("three-player")
    engine = Engine(hash_mb=4)
    move = engine.play(game, depth=2)
    assert game.history == [str(move)]
    for algorithm in ALGORITHMS:
        assert Engine(algorithm=algorithm).algorithm == algorithm
    with pytest.raises(ValueError, match="threads"):
        Engine(threads=0)
    with pytest.raises(ValueError, match="unknown algorithm"):
        Engine(algorithm="magic")
    with pytest.raises(ValueError):
        engine.search(game, depth=-1)
    with pytest.raises(TypeError):
        engine.search("E2E4")  # type: ignore[arg-type]


@pytest.mark.parametrize("algorithm", ALGORITHMS)
def test_parallel_search(algorithm):
    # Helper threads share the table: the answer is still legal and mates are still found;
    # the node count covers every thread and the node limit applies to their total.
    engine = Engine(algorithm, hash_mb=8, threads=2)
    board = Board(
        "three-player", position({"N12": "rK", "N11": "rP", "M11": "rP", "K10": "wR", "E1": "wK", "H8": "bK"})
    )
    result = engine.search(board, depth=3)
    assert str(result.best_move) == "K10K12" and result.mate_in == 1
    board = Board("four-player", mode="ffa")
    result = engine.search(board, nodes=20000)
    assert result.best_move in board.legal_moves and 20000 <= result.nodes < 20000 + 3 * 4096
    seen = []
    result = engine.search(Board("standard"), time=0.3, info=seen.append)
    assert result.best_move in Board("standard").legal_moves and seen


@pytest.mark.parametrize("variant", ["standard", "four-player"])
def test_a_search_repeated_over_its_table_reports_a_whole_line(variant):
    # The second search finds its first reply's result in the table; its line used to stop
    # there, one move long. The line goes on with the table's moves, each legal in turn.
    engine = Engine(hash_mb=8)
    board = Board(variant)
    first = engine.search(board, depth=6)
    again = engine.search(board, depth=6)
    assert again.best_move == first.best_move and len(again.pv) >= 4
    for move in again.pv:
        assert move in board.legal_moves
        board.push(move)


@pytest.mark.parametrize("variant", ["standard", "three-player", "four-player"])
def test_a_parallel_search_to_a_depth_reports_that_depth(variant):
    # Whichever thread completes the asked depth first ends the search and gives the answer:
    # never a deeper or shallower iteration, and its line starts with its move.
    for seed in range(4):
        board = Board(variant)
        for move in list(board.legal_moves)[seed::7][:1]:
            board.push(move)
        result = Engine(hash_mb=8, threads=2).search(board, depth=5)
        assert result.depth == 5 and result.best_move in board.legal_moves
        assert result.pv and result.pv[0] == result.best_move


@pytest.mark.parametrize("algorithm", ALGORITHMS)
def test_search_where_the_root_player_may_be_stalemated(algorithm):
    # Red's king on N11 has few moves: lines where Red is stalemated (frozen) and the others
    # play on are in the tree. Best-reply search once passed turns there forever waiting for
    # Red (found in a match: std::bad_alloc).
    fen = "8/7bP/wR5rK1/8/8/bN7/bK4bP1bR/5rP1bP/5wQ2/1wP6/1wP1wP4/1wNwB2wK2 r - - 1 36 wrb aaa"
    board = Board("three-player", fen)
    for limits in ({"nodes": 2000}, {"depth": 4}):
        result = Engine(algorithm, hash_mb=8).search(board, **limits)
        assert result.best_move in board.legal_moves


def test_free_for_all_points_lead_ends_the_game_inside_the_search():
    # Two players left (Blue and Green are out, their kings dead): a lead of 21 points ends
    # the game (rules §2.4). Red, 20 points ahead, wins at once by taking Yellow's pawn.
    # (The game's points reach the core through Engine.search(game); here a low-level game
    # state starts with them.)
    from polychess import _core

    pieces = {"h1": "rK", "h5": "rR", "h10": "yP", "g14": "yK", "a7": "bK", "n8": "gK", "d4": "yN"}
    board = Board("four-player", cross_position(pieces, controllers="r-y-", statuses="axax"), mode="ffa")
    engine = _core.Engine(8)
    state = _core.GameState(board._core.copy(), points=[20, 0, 0, 0])
    ahead = engine.search(state, 3, 0, 0.0, None, "brs")
    assert str(ahead["best"]) == "h5h10" and ahead["score"] > _core.MATE - 100
    state = _core.GameState(board._core.copy(), points=[0, 0, 0, 0])
    level = engine.search(state, 3, 0, 0.0, None, "brs")
    assert level["score"] < _core.MATE - 1000


# Blue to move and in check; Yellow is mated already (a bare board has no game to have put him
# out). The game's rules would first take Yellow out, which changes which of Blue's moves are
# legal: the search once answered i1i2, a move this board refuses.
BLUE_TO_MOVE_YELLOW_MATED = (
    "2yB5/2yNyK2gQ1/3yR4/5yPyP1yP3gN1/1bKbPyPbN2gR2bB3/3bP6gB1gK1/3bP6gP3/9gPgP3/"
    "bNbBrP11/4bP2rPgP5/rK5rP3rPrP2/bRrPrB2rP2/5rN2/5bR1rR b - - 0 50 rbyg aaaa"
)


@pytest.mark.parametrize("algorithm", ALGORITHMS)
def test_a_board_is_searched_from_its_own_position(algorithm):
    # Engine.search(board) answers with one of the board's legal moves, even where the game's
    # rules would judge the position first (a player already mated, a drawn material balance).
    board = Board("four-player", BLUE_TO_MOVE_YELLOW_MATED, mode="ffa")
    result = Engine(algorithm, hash_mb=4).search(board, depth=3)
    assert result.best_move in board.legal_moves
    board.push(result.best_move)
    # King and bishop against king: a dead draw, which the game would end at once; the board
    # still has its moves, and every one of them draws.
    board = Board("standard", "8/3k4/8/8/1B6/K7/8/8 b - - 0 1")
    result = Engine(algorithm, hash_mb=4).search(board, depth=3)
    assert result.best_move in board.legal_moves and result.score == 0


def test_a_board_without_legal_moves_gets_no_move():
    mated = Board("standard", BACK_RANK_MATE)
    mated.push("a1a8")
    result = Engine(hash_mb=4).search(mated, depth=2)
    assert result.best_move is None and result.pv == []


def _late_positions(variant, mode, seed, every=25, plies=400):
    """Positions along a random game, the later ones with players mated, frozen or out."""
    rng = random.Random(seed)
    game = Game(variant, mode=mode) if mode else Game(variant)
    positions = []
    for ply in range(plies):
        if game.is_over():
            break
        game.push(rng.choice(list(game.legal_moves)))
        if ply % every == every - 1 and not game.is_over():
            positions.append(game.board.copy())
    return positions


@pytest.mark.parametrize("variant, mode", [("three-player", None), ("four-player", "ffa")])
def test_every_algorithm_plays_legal_moves_through_eliminations(variant, mode):
    # Random games reach eliminations, transfers, frozen players and dead armies; the search
    # plays the rules out inside its tree there and must still answer with a legal move.
    boards = [b for seed in range(8) for b in _late_positions(variant, mode, seed)]
    assert sum(any(b.status(c).name != "ACTIVE" for c in b.colours) for b in boards) >= 5
    for algorithm in ALGORITHMS:
        engine = Engine(algorithm, hash_mb=4)
        for board in boards:
            result = engine.search(board, nodes=1500)
            assert result.best_move in board.legal_moves, (algorithm, board.fen())


@pytest.mark.parametrize(
    "variant, mode", [("standard", None), ("three-player", None), ("four-player", "teams"), ("four-player", "ffa")]
)
def test_evaluation_kept_up_to_date_move_by_move(variant, mode):
    # The position sums material and placement as pieces move, transfer and die; after every
    # move and every take-back of a random game that sum must equal a fresh count.
    from polychess import _core

    def fresh(board):
        return _core.evaluate(Board(variant, board.fen(), mode=mode)._core)

    for seed in range(3):
        rng = random.Random(seed)
        game = Game(variant, mode=mode) if mode else Game(variant)
        for _ in range(300):
            if game.is_over():
                break
            game.push(rng.choice(list(game.legal_moves)))
            if not game.is_over():  # (a finished standard game may have lost its king)
                assert _core.evaluate(game.board._core) == fresh(game.board)
        board = game.board  # a copy, with the game's eliminations in its history
        while board.move_stack:
            board.pop()
            assert _core.evaluate(board._core) == fresh(board)
