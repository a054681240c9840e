"""Networks (polychess.nnue, cpp/nnue/): the features a position activates, the quantized
arithmetic against the float network it came from, the incremental accumulators against a
fresh computation through random games of every game, and the file format's checks."""

from __future__ import annotations

import random
import re

import pytest

from network_files import fnv1a, renamed
from polychess import Board, Game, Status
from polychess.evaluation import evaluate
from polychess.nnue import KERNELS, KING_BUCKETS, InvalidNetworkError, Network, features, input_count, random_network

GAMES = {
    "standard": ("standard", None),
    "three-player": ("three-player", None),
    "four-player-teams": ("four-player", "teams"),
    "four-player-ffa": ("four-player", "ffa"),
}
KINDS = 6


def board_of(game: str) -> Board:
    variant, mode = GAMES[game]
    return Board(variant, mode=mode)


# -- features -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("game", "cells", "players"),
    [("standard", 64, 2), ("three-player", 96, 3), ("four-player-teams", 160, 4), ("four-player-ffa", 160, 4)],
)
def test_sizes_follow_from_the_board(game: str, cells: int, players: int) -> None:
    # each seat's pieces, and a dead army's (the extra controller slot)
    assert input_count(game) == (players + 1) * KINDS * cells


@pytest.mark.parametrize("game", GAMES)
def test_every_seat_sees_its_start_as_the_first_seat_sees_his(game: str) -> None:
    # The start positions are symmetric: turned into each seat's frame, with controllers
    # counted from that seat, every seat's pieces are the first seat's.
    board = board_of(game)
    first = features(board, 0)
    assert len(first) == len(board.pieces())
    for seat in range(1, len(board.colours)):
        assert features(board, seat) == first


def test_standard_features_by_hand() -> None:
    board = Board("standard")
    lay = board.layout
    e1, e8, d1 = lay.index("e1"), lay.index("e8"), lay.index("d1")
    king, queen = KINDS - 1, KINDS - 2

    def index(slot: int, kind: int, cell: int) -> int:
        return (slot * KINDS + kind) * 64 + cell

    white, black = features(board, 0), features(board, 1)
    # White sees his own king on e1 and Black's on e8 (slot 1: the next seat's).
    assert index(0, king, e1) in white and index(1, king, e8) in white
    # Black sees the board mirrored: his king on "e1" of his frame, White's on "e8".
    assert index(0, king, e1) in black and index(1, king, e8) in black
    assert index(0, queen, d1) in white and index(0, queen, d1) in black
    board.push_san("e4")
    e4, e5 = lay.index("e4"), lay.index("e5")
    assert index(0, 0, e4) in features(board, 0) and index(1, 0, e5) in features(board, 1)


def test_a_dead_army_reads_as_nobody_s() -> None:
    board = Board("four-player", mode="ffa")
    before = features(board, 0)
    board.eliminate("blue", None, keep_king=True)  # a resignation: the army stays, dead
    assert board.controller("blue") is None
    after = features(board, 0)
    cells, slots = 160, 5
    dead = [f for f in after if f // (KINDS * cells) == slots - 1]
    assert len(dead) == 16 and len(after) == len(before)


def test_a_one_point_queen_reads_as_a_queen() -> None:
    # Free-for-all promotes to a one-point queen; random games promote now and then.
    board = None
    for seed in range(20):
        rng = random.Random(seed)
        game = Game("four-player", mode="ffa")
        while not game.is_over() and game.ply < 600:
            moves = list(game.legal_moves)
            promotions = [m for m in moves if m.promotion is not None]
            game.push(promotions[0] if promotions else rng.choice(moves))
            if promotions:
                board = game.board
                break
        if board is not None:
            break
    assert board is not None, "a random free-for-all game promotes a pawn"
    queens = [cell for cell, piece in board.pieces().items() if piece.piece_type.name == "ONE_POINT_QUEEN"]
    assert queens
    cell = board.layout.index(queens[0])
    queen = KINDS - 2
    # (the cell is turned into the perspective's frame: seat 0's is the board's own)
    assert any(f % 160 == cell and (f // 160) % KINDS == queen for f in features(board, 0))


# -- king buckets ---------------------------------------------------------------------------


def king_bucket(board: Board, perspective: int, game: str) -> int:
    """The perspective's bucket, read from his bucketed features: every one lies in the
    bucket's block, at the unbucketed feature's place in it."""
    base = input_count(game)
    bucketed = features(board, perspective, KING_BUCKETS)
    buckets = {f // base for f in bucketed}
    assert len(buckets) == 1
    assert [f % base for f in bucketed] == features(board, perspective)
    return buckets.pop()


@pytest.mark.parametrize("game", GAMES)
def test_king_buckets_multiply_the_inputs(game: str) -> None:
    assert input_count(game, KING_BUCKETS) == KING_BUCKETS * input_count(game)
    with pytest.raises(ValueError, match="king buckets 3"):
        input_count(game, 3)


@pytest.mark.parametrize(
    ("white_king", "black_king", "buckets"),
    [
        ("e1", "e8", (0, 0)),  # both at the start
        ("g1", "g8", (1, 1)),  # castled king side, each from his own castling cells
        ("c1", "c8", (2, 2)),  # castled queen side
        ("h2", "a7", (1, 2)),  # near the castled cells
        ("f1", "d7", (0, 0)),  # as near the start as a castled cell: the start's
        ("e3", "b6", (0, 2)),  # two king steps out still counts
        ("e4", "h5", (3, 3)),  # farther: elsewhere
    ],
)
def test_standard_king_buckets_by_hand(white_king: str, black_king: str, buckets: tuple[int, int]) -> None:
    board = Board("standard", f"{_fen_with_kings(white_king, black_king)} w - - 0 1")
    assert (king_bucket(board, 0, "standard"), king_bucket(board, 1, "standard")) == buckets


def _fen_with_kings(white: str, black: str) -> str:
    rows = [["1"] * 8 for _ in range(8)]
    for name, letter in ((white, "K"), (black, "k")):
        rows[8 - int(name[1])][ord(name[0]) - ord("a")] = letter
    return "/".join(re.sub("1+", lambda run: str(len(run.group())), "".join(row)) for row in rows)


@pytest.mark.parametrize(
    ("variant", "options"),
    [("three-player", {}), ("four-player", {"mode": "teams"}), ("four-player", {"mode": "ffa", "setup": "classic"})],
)
def test_every_seat_starts_in_the_first_bucket(variant: str, options: dict[str, object]) -> None:
    game = variant if variant != "four-player" else f"four-player-{options['mode']}"
    board = Board(variant, **options)  # type: ignore[arg-type]
    assert [king_bucket(board, p, game) for p in range(len(board.colours))] == [0] * len(board.colours)


def test_a_player_without_a_king_is_in_the_last_bucket() -> None:
    board = Board("four-player", mode="ffa")
    board.eliminate("blue", None)  # a mate: the king goes, the army stays dead
    assert king_bucket(board, 1, "four-player-ffa") == KING_BUCKETS - 1
    assert king_bucket(board, 0, "four-player-ffa") == 0


# -- arithmetic -----------------------------------------------------------------------------


def float_network(game: str, hidden: int, seed: int, king_buckets: int = 1) -> tuple[list[float], ...]:
    rng = random.Random(seed)
    inputs = input_count(game, king_buckets)
    players = len(board_of(game).colours)
    return (
        [rng.uniform(-0.3, 0.3) for _ in range(hidden)],
        [rng.uniform(-0.08, 0.08) for _ in range(inputs * hidden)],
        [rng.uniform(-0.5, 0.5) for _ in range(players * players * hidden)],
        [rng.uniform(-0.2, 0.2) for _ in range(players)],
    )


def float_values(
    board: Board, weights: tuple[list[float], ...], hidden: int, scale: int, king_buckets: int = 1
) -> list[float]:
    """The float network's value of each player, computed here from the features alone."""
    ft_bias, ft_weight, out_weight, out_bias = weights
    players = len(board.colours)
    clipped = []
    for p in range(players):
        h = list(ft_bias)
        for f in features(board, p, king_buckets):
            row = ft_weight[f * hidden : (f + 1) * hidden]
            h = [a + w for a, w in zip(h, row, strict=True)]
        clipped.append([min(1.0, max(0.0, a)) for a in h])
    turn = board.colours.index(board.turn)
    values = []
    for p in range(players):
        bucket = (turn - p) % players
        row = out_weight[bucket * players * hidden : (bucket + 1) * players * hidden]
        seen = [a for j in range(players) for a in clipped[(p + j) % players]]
        values.append(scale * (out_bias[bucket] + sum(w * a for w, a in zip(row, seen, strict=True))))
    return values


def dequantized(weights: tuple[list[float], ...]) -> tuple[list[float], ...]:
    """The float weights rounded as the file stores them: W1 and b1 to 1/255, w2 to 1/512, b2
    to 1/(255 * 512)."""
    ft_bias, ft_weight, out_weight, out_bias = weights
    return (
        [round(x * 255) / 255 for x in ft_bias],
        [round(x * 255) / 255 for x in ft_weight],
        [round(x * 512) / 512 for x in out_weight],
        [round(x * 255 * 512) / (255 * 512) for x in out_bias],
    )


@pytest.mark.parametrize(
    ("game", "king_buckets"),
    [(game, 1) for game in GAMES] + [("standard", KING_BUCKETS), ("three-player", KING_BUCKETS)],
)
def test_quantized_values_match_the_float_network(game: str, king_buckets: int) -> None:
    # (48: the widest vector kernels, AVX-512's 32 lanes, run once and leave a 16-lane tail)
    hidden, scale = 48, 400
    weights = float_network(game, hidden, seed=7, king_buckets=king_buckets)
    rounded = dequantized(weights)
    network = Network.from_floats(game, hidden, *weights, scale=scale, king_buckets=king_buckets)
    variant, mode = GAMES[game]
    play = Game(variant, mode=mode)
    rng = random.Random(11)
    arithmetic = rounding = largest = 0.0
    for _ in range(30):
        if play.is_over():
            break
        board = play.board
        got = network.evaluate(board)
        exact = float_values(board, weights, hidden, scale, king_buckets)
        arithmetic = max(
            arithmetic,
            *(abs(g - e) for g, e in zip(got, float_values(board, rounded, hidden, scale, king_buckets), strict=True)),
        )
        rounding = max(rounding, *(abs(g - e) for g, e in zip(got, exact, strict=True)))
        largest = max(largest, *(abs(e) for e in exact))
        play.push(rng.choice(list(play.legal_moves)))
    # The integer arithmetic is the float network's with the rounded weights, but for the final
    # division's truncation (under a centipawn)...
    assert arithmetic < 1
    # ...and rounding the weights moves a value by under 5% of the values' range (the stated
    # tolerance, docs/nnue.md), on values large enough for the comparison to mean something.
    assert rounding <= 0.05 * largest and largest > 100


def test_the_build_names_its_kernels() -> None:
    assert KERNELS in ("avx512bw", "avx2", "neon", "portable")


# -- incremental accumulators ---------------------------------------------------------------

# Every game, and options that change what happens to armies: mated armies passing (three-player),
# freezes, dead armies (free-for-all), the classic setup, two players on the three-player board.
PLAYS = [
    ("standard", {}),
    ("three-player", {}),
    ("three-player", {"neutrality": True}),
    ("three-player", {"players": 2}),
    ("four-player", {"mode": "teams"}),
    ("four-player", {"mode": "teams", "setup": "classic"}),
    ("four-player", {"mode": "ffa"}),
]


@pytest.mark.parametrize("king_buckets", [1, KING_BUCKETS])
@pytest.mark.parametrize(("variant", "options"), PLAYS)
def test_incremental_accumulators_equal_a_fresh_computation(
    variant: str, options: dict[str, object], king_buckets: int
) -> None:
    game_name = variant if variant != "four-player" else f"four-player-{options['mode']}"
    network = random_network(game_name, hidden=16, seed=5, king_buckets=king_buckets)
    expected = {"castling", "en passant", "promotion"}
    if variant == "three-player" and options.get("players") != 2:
        expected.add("transfer")  # a mated army passes to its mater
    if options.get("mode") == "ffa":
        expected.add("dead")  # a mated army stays, nobody's
    if king_buckets > 1:
        expected.add("king bucket")  # a king steps into another bucket: his accumulator afresh
    seen: set[str] = set()
    # Random games until every expected event has come up (and at least eight of them).
    for seed in range(60):
        if seed >= 8 and expected <= seen:
            break
        rng = random.Random(seed)
        game = Game(variant, **options)  # type: ignore[arg-type]
        incremental = network.evaluator(game.board)
        fresh = network.evaluator(game.board)
        while not game.is_over() and game.ply < 300:
            board = game.board
            assert incremental.evaluate(board) == fresh.evaluate_afresh(board)
            moves = list(game.legal_moves)
            captures = [m for m in moves if board.is_capture(m)]
            special = [m for m in moves if board.is_castling(m) or board.is_en_passant(m) or m.promotion is not None]
            if special and rng.random() < 0.3:  # the rare moves, now and then when they come up
                move = rng.choice(special)
            else:
                move = rng.choice(captures if captures and rng.random() < 0.7 else moves)
            if board.is_castling(move):
                seen.add("castling")
            if board.is_en_passant(move):
                seen.add("en passant")
            if move.promotion is not None:
                seen.add("promotion")
            buckets = [features(board, p, king_buckets)[:1] for p in range(len(board.colours))]
            game.push(move)
            after = game.board
            if king_buckets > 1 and buckets != [
                features(after, p, king_buckets)[:1] for p in range(len(after.colours))
            ]:
                seen.add("king bucket")
            for colour in board.colours:
                if board.controller(colour) not in (colour, None):
                    seen.add("transfer")
                if board.controller(colour) is None:
                    seen.add("dead")
                if board.status(colour) == Status.FROZEN:
                    seen.add("freeze")
            if rng.random() < 0.1:  # take back a step now and then: the accumulators follow
                game.pop()
                assert incremental.evaluate(game.board) == fresh.evaluate_afresh(game.board)
                game.push(move)
        assert incremental.evaluate(game.board) == fresh.evaluate_afresh(game.board)
        while game.history:
            game.pop()
            assert incremental.evaluate(game.board) == fresh.evaluate_afresh(game.board)
    assert incremental.updates > incremental.refreshes  # mostly updated, not recomputed
    assert expected <= seen


# -- the file -------------------------------------------------------------------------------


def test_a_network_file_round_trips(tmp_path) -> None:
    network = random_network("three-player", hidden=32, seed=2)
    path = tmp_path / "three-player.nnue"
    network.save(path)
    again = Network.load(path)
    assert again.to_bytes() == network.to_bytes() and again.hash == network.hash
    assert (again.game, again.hidden, again.inputs, again.players) == (
        "three-player",
        32,
        input_count("three-player"),
        3,
    )
    board = Board("three-player")
    assert again.evaluate(board) == network.evaluate(board)
    bucketed = random_network("three-player", hidden=16, seed=2, king_buckets=KING_BUCKETS)
    again = Network.from_bytes(bucketed.to_bytes())
    assert again.king_buckets == KING_BUCKETS and again.inputs == input_count("three-player", KING_BUCKETS)
    assert again.evaluate(board) == bucketed.evaluate(board)


def test_bad_network_files_are_clear_errors() -> None:
    data = random_network("standard", hidden=16, seed=1).to_bytes()
    with pytest.raises(InvalidNetworkError, match="does not begin"):
        Network.from_bytes(b"NNUE" + data[4:])
    with pytest.raises(InvalidNetworkError, match="truncated"):
        Network.from_bytes(data[: len(data) // 2])
    with pytest.raises(InvalidNetworkError, match="truncated"):
        Network.from_bytes(data[:10])
    with pytest.raises(InvalidNetworkError, match="after its weights"):
        Network.from_bytes(data + b"\0")
    corrupted = bytearray(data)
    corrupted[-100] ^= 0x40
    with pytest.raises(InvalidNetworkError, match="corrupted"):
        Network.from_bytes(bytes(corrupted))
    newer = bytearray(data)
    newer[4] = 9
    with pytest.raises(InvalidNetworkError, match="version 9"):
        Network.from_bytes(bytes(newer))
    # (the base follows nine u32 header fields after the magic, the version and the game's name)
    base_at = 4 + 4 + 2 + len("standard") + 9 * 4
    assert data[base_at : base_at + 4] == bytes(4)
    unknown_base = bytearray(data)
    unknown_base[base_at] = 2
    with pytest.raises(InvalidNetworkError, match="base 2"):
        Network.from_bytes(bytes(unknown_base))
    buckets_at = base_at - 5 * 4  # (then hidden, qa, qb, scale)
    assert data[buckets_at : buckets_at + 4] == bytes([1, 0, 0, 0])
    three_buckets = bytearray(data)
    three_buckets[buckets_at] = 3
    with pytest.raises(InvalidNetworkError, match="king buckets 3"):
        Network.from_bytes(bytes(three_buckets))
    assert issubclass(InvalidNetworkError, ValueError)


def _header_field_at(game: str, index: int) -> int:
    """Where the header's u32 field ``index`` lies (0 cells ... 8 scale, 9 base; then the hash)."""
    return 4 + 4 + 2 + len(game.encode()) + 4 * index


def test_one_flipped_bit_in_the_header_is_caught_by_the_hash() -> None:
    # Version 3 hashed the weights alone: a flipped bit in the output scale or in the on-classic
    # flag loaded silently and changed the engine's moves (one beyond any scale is refused too).
    data = random_network("standard", hidden=16, seed=1, on_classic=True).to_bytes()
    scale_at, base_at = _header_field_at("standard", 8), _header_field_at("standard", 9)
    for at, bit in ((scale_at + 1, 0x01), (base_at, 0x01), (scale_at, 0x02)):  # 400 -> 144, on-classic off, 402
        flipped = bytearray(data)
        flipped[at] ^= bit
        with pytest.raises(InvalidNetworkError, match="corrupted: its header and weights do not match its hash"):
            Network.from_bytes(bytes(flipped))


def test_a_version_3_file_is_still_read_and_its_scale_checked() -> None:
    network = random_network("standard", hidden=16, seed=1)
    data = network.to_bytes()
    hash_at = _header_field_at("standard", 10)
    old = bytearray(data)
    old[4] = 3
    old[hash_at : hash_at + 8] = fnv1a(data[hash_at + 8 :]).to_bytes(8, "little")  # the weights' hash alone
    again = Network.from_bytes(bytes(old))
    assert again.to_bytes() == data and again.hash == network.hash  # written anew as version 4
    scale_at = _header_field_at("standard", 8)
    old[scale_at + 2] ^= 0x01  # 400 -> 65936: beyond any scale
    with pytest.raises(InvalidNetworkError, match="output scale 65936 is not between 1 and 10000"):
        Network.from_bytes(bytes(old))


@pytest.mark.parametrize(
    "game, why",
    [
        (b"st\xffandard", "the game's name is not UTF-8 text"),
        (b"standard", "header names standard .* but holds 96 cells, 3 players"),
        (b"chess960", "unknown game"),
    ],
)
def test_a_name_that_does_not_fit_the_weights_is_refused(game, why) -> None:
    data = renamed(random_network("three-player", hidden=16, seed=1).to_bytes(), game)
    with pytest.raises(InvalidNetworkError, match=why):
        Network.from_bytes(data)


def test_network_files_are_read_header_first_and_only_when_regular(tmp_path) -> None:
    import os

    data = random_network("standard", hidden=16, seed=1).to_bytes()
    path = tmp_path / "net.nnue"
    path.write_bytes(data)
    assert Network.load(path).to_bytes() == data
    sparse = tmp_path / "sparse.nnue"  # a valid header, then 3 GB of nothing (on disk: none of it)
    with open(sparse, "wb") as f:
        f.write(data[:200])
        f.truncate(3 << 30)
    with pytest.raises(InvalidNetworkError, match="3,221,225,472 bytes, where its header says a network of"):
        Network.load(sparse)
    fifo = tmp_path / "fifo.nnue"
    os.mkfifo(fifo)  # opening it to read would block until a writer came
    for special in (fifo, "/dev/zero"):
        with pytest.raises(InvalidNetworkError, match="not a regular file, so not a network file"):
            Network.load(special)
    with pytest.raises(InvalidNetworkError, match="truncated"):
        (tmp_path / "short.nnue").write_bytes(data[:30])
        Network.load(tmp_path / "short.nnue")


@pytest.mark.parametrize("game", GAMES)
def test_a_network_on_the_classic_evaluation_adds_the_classic_values(game: str) -> None:
    hidden = 32
    weights = float_network(game, hidden, seed=5)
    alone = Network.from_floats(game, hidden, *weights)
    on_classic = Network.from_floats(game, hidden, *weights, on_classic=True)
    assert on_classic.on_classic and not alone.on_classic
    again = Network.from_bytes(on_classic.to_bytes())
    assert again.on_classic and _weights(again) == _weights(alone)  # (the header differs, and so its hash)
    assert again.hash != alone.hash
    variant, mode = GAMES[game]
    play = Game(variant, mode=mode)
    evaluator = again.evaluator(play.board)
    rng = random.Random(3)
    for _ in range(20):
        if play.is_over():
            break
        board = play.board
        expected = [n + c for n, c in zip(alone.evaluate(board), evaluate(board), strict=True)]
        assert evaluator.evaluate(board) == expected == evaluator.evaluate_afresh(board)
        play.push(rng.choice(list(play.legal_moves)))


def test_a_random_correction_is_the_random_network_on_the_classic_evaluation() -> None:
    # what bench/network_speed.py --on-classic times
    alone = random_network("three-player", hidden=16, seed=4)
    correction = random_network("three-player", hidden=16, seed=4, on_classic=True)
    assert correction.on_classic and not alone.on_classic and _weights(correction) == _weights(alone)
    board = Board("three-player")
    assert correction.evaluate(board) == [n + c for n, c in zip(alone.evaluate(board), evaluate(board), strict=True)]


def test_a_foreign_network_is_refused() -> None:
    standard = random_network("standard", hidden=16)
    with pytest.raises(InvalidNetworkError, match="for standard.*not for three-player"):
        standard.evaluator(Board("three-player"))
    teams = random_network("four-player-teams", hidden=16)
    with pytest.raises(InvalidNetworkError, match="not for four-player-ffa"):
        teams.evaluate(Board("four-player", mode="ffa"))
    evaluator = teams.evaluator(Board("four-player", mode="teams"))
    with pytest.raises(InvalidNetworkError, match="evaluates four-player-teams"):
        evaluator.evaluate(Board("four-player", mode="ffa"))


def test_bad_float_networks_are_clear_errors() -> None:
    ft_bias, ft_weight, out_weight, out_bias = float_network("standard", 16, seed=1)
    with pytest.raises(InvalidNetworkError, match="ft_weight has"):
        Network.from_floats("standard", 16, ft_bias, ft_weight[:-1], out_weight, out_bias)
    with pytest.raises(InvalidNetworkError, match="hidden width 10"):
        Network.from_floats("standard", 10, ft_bias, ft_weight, out_weight, out_bias)
    with pytest.raises(InvalidNetworkError, match="16-bit accumulator"):
        Network.from_floats("standard", 16, ft_bias, [5.0] * len(ft_weight), out_weight, out_bias)
    with pytest.raises(InvalidNetworkError, match="cannot be quantized"):
        Network.from_floats("standard", 16, [float("nan")] * 16, ft_weight, out_weight, out_bias)
    with pytest.raises(InvalidNetworkError, match="no game 'chess'"):
        Network.from_floats("chess", 16, ft_bias, ft_weight, out_weight, out_bias)
    with pytest.raises(InvalidNetworkError, match="ft_weight has"):
        Network.from_floats("standard", 16, ft_bias, ft_weight, out_weight, out_bias, king_buckets=KING_BUCKETS)
    with pytest.raises(InvalidNetworkError, match="king buckets 2"):
        Network.from_floats("standard", 16, ft_bias, ft_weight, out_weight, out_bias, king_buckets=2)


def test_module_docstring_examples() -> None:
    import doctest

    from polychess import nnue
    from polychess.training import data

    for module in (nnue, data):
        failures, tried = doctest.testmod(module, verbose=False)
        assert tried > 0 and failures == 0, module.__name__


def _weights(network) -> bytes:
    """The file's payload: its bytes after the header (version 4: name, ten fields, the hash)."""
    return network.to_bytes()[4 + 4 + 2 + len(network.game.encode()) + 40 + 8 :]
