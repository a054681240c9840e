"""Self-play training data (polychess.training.data, cpp/selfplay/, cpp/nnue/training_data.h):
the core's games replay legally from their starts, their results are the places the rules
give, the file round-trips, resumes after a stop and refuses what it cannot read."""

from __future__ import annotations

import random
import subprocess
import sys

import pytest

from polychess import Engine
from polychess.catalogue import kind_of
from polychess.cli import main
from polychess.game import Game
from polychess.training.data import (
    MATE_SCORE,
    InvalidTrainingDataError,
    data_header,
    decode,
    generate,
    play_batch,
    read_data,
)

KINDS = [kind_of("standard"), kind_of("three-player"), kind_of("four-player", "teams"), kind_of("four-player", "ffa")]


@pytest.mark.parametrize("kind", KINDS, ids=lambda k: k.name)
def test_self_play_games_replay_by_the_rules(kind) -> None:
    starts = [Game.from_kind(kind).board.fen()]
    # a start a few plies in, too
    game = Game.from_kind(kind)
    for _ in range(len(game.seats)):
        game.push(next(iter(game.legal_moves)))
    starts.append(game.board.fen())
    name, records = decode(data_header(kind) + play_batch(kind, starts, nodes=300, max_plies=400))
    assert name == kind.family and [r.start for r in records] == starts
    for record in records:
        replay = Game.from_kind(kind, record.start)
        for move in record.moves:
            assert move in replay.legal_moves
            replay.push(move)
        assert len(record.scores) == len(record.moves) and all(abs(s) <= MATE_SCORE for s in record.scores)
        seats = len(replay.seats)
        # every pair of seats shares one point between them
        assert sum(record.results) == pytest.approx(seats / 2)
        outcome = replay.outcome()
        if outcome is not None:  # the results are the places the rules gave
            places = [outcome.places[c] for c in replay.seats]
            for p, place in enumerate(places):
                ahead = sum((q > place) + 0.5 * (q == place) for i, q in enumerate(places) if i != p)
                assert record.results[p] == pytest.approx(ahead / (seats - 1))
        else:  # stopped at the ply cap: everyone still in shares the best place
            assert len(record.moves) == 400 or not list(replay.legal_moves)


def test_a_game_is_fixed_by_its_start_whatever_the_threads() -> None:
    kind = kind_of("three-player")
    start = Game.from_kind(kind).board.fen()
    one = play_batch(kind, [start] * 3, nodes=500, max_plies=60, threads=1)
    two = play_batch(kind, [start] * 3, nodes=500, max_plies=60, threads=2)
    assert one == two
    _, records = decode(data_header(kind) + one)
    assert records[0] == records[1] == records[2] and len(records[0].moves) == 60


@pytest.mark.parametrize("kind", KINDS, ids=lambda k: k.name)
def test_the_engine_plays_itself_as_it_plays_by_default(kind) -> None:
    # (the default algorithm of three-player chess is best-reply search, not paranoid search:
    # data played otherwise would teach a network another engine's games)
    game = Game.from_kind(kind)
    _, (record,) = decode(data_header(kind) + play_batch(kind, [game.board.fen()], nodes=800, max_plies=4))
    engine = Engine(hash_mb=16)  # (its table kept from move to move, as the self-play's is)
    for move, score in zip(record.moves, record.scores, strict=True):
        result = engine.search(game, nodes=800)
        assert (result.best_move, result.score) == (move, score)
        game.push(move)


@pytest.mark.parametrize("kind", KINDS, ids=lambda k: k.name)
def test_a_sample_of_the_labels_agrees_with_fresh_searches(kind) -> None:
    # The self-play keeps one table through a game while the player to move changes every ply:
    # its labels were wrong-signed where the table gave one player another's scores (issue 53).
    rng = random.Random(kind.name)
    starts = []
    for _ in range(2):
        game = Game.from_kind(kind)
        for _ in range(2 * len(game.seats)):
            game.push(rng.choice(list(game.legal_moves)))
        starts.append(game.board.fen())
    _, records = decode(data_header(kind) + play_batch(kind, starts, nodes=1000, max_plies=120))
    compared = 0
    for record in records:
        game = Game.from_kind(kind, record.start)
        for ply, (move, label) in enumerate(zip(record.moves, record.scores, strict=True)):
            if ply % 3 == 0:
                fresh = Engine(hash_mb=16).search(game, nodes=1000).score  # its own table, empty
                fresh = max(-MATE_SCORE, min(MATE_SCORE, fresh))
                if min(abs(label), abs(fresh)) >= 300:
                    assert (label > 0) == (fresh > 0), (record.start, ply, label, fresh)
                    compared += 1
                if abs(label) == MATE_SCORE:  # a found win or loss: a fresh search sees it coming at least
                    assert abs(fresh) >= 300 and (fresh > 0) == (label > 0), (record.start, ply, label, fresh)
            game.push(move)
    assert compared >= 3


def test_a_won_game_ends_with_the_mate_score() -> None:
    # White mates in one: the last move's score is the found win
    kind = kind_of("standard")
    _, (record,) = decode(data_header(kind) + play_batch(kind, ["6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1"], nodes=2000))
    assert len(record.moves) == 1 and record.scores == (MATE_SCORE,) and record.results == (1.0, 0.0)


def test_the_file_resumes_after_its_last_whole_game(tmp_path) -> None:
    kind = kind_of("three-player")
    starts = [Game.from_kind(kind).board.fen()] * 5
    path = tmp_path / "data.pctd"
    assert list(generate(path, kind, starts[:2], nodes=200, max_plies=20, batch=1)) == [0, 1, 2]
    whole = path.read_bytes()
    first_record = whole[len(data_header(kind)) :]
    path.write_bytes(whole + first_record[:30])  # a stop in the middle of writing a record
    assert len(read_data(path)[1]) == 2
    assert list(generate(path, kind, starts, nodes=200, max_plies=20, batch=2))[-1] == 5
    name, records = read_data(path)
    assert name == "three-player" and len(records) == 5 and len(set(records)) == 1


def test_bad_data_is_a_clear_error(tmp_path) -> None:
    kind = kind_of("standard")
    data = data_header(kind) + play_batch(kind, [Game.from_kind(kind).board.fen()], nodes=100, max_plies=4)
    with pytest.raises(InvalidTrainingDataError, match="does not begin"):
        decode(b"XXXX" + data[4:])
    with pytest.raises(InvalidTrainingDataError, match="version 9"):
        decode(data[:4] + b"\x09" + data[5:])
    corrupted = bytearray(data)
    corrupted[len(data_header(kind)) + 4] = 200  # the start position's length, past the record
    with pytest.raises(InvalidTrainingDataError, match="truncated"):
        decode(bytes(corrupted))
    assert issubclass(InvalidTrainingDataError, ValueError)
    other = tmp_path / "other.pctd"
    other.write_bytes(data)
    with pytest.raises(InvalidTrainingDataError, match="holds standard data, not three-player"):
        list(generate(other, kind_of("three-player"), ["x"], nodes=100))


def _standard_data(games: int = 1, plies: int = 6) -> tuple[bytes, list[int]]:
    """A standard data file and where each of its records begins."""
    kind = kind_of("standard")
    header = data_header(kind)
    data = header + play_batch(kind, [Game.from_kind(kind).board.fen()] * games, nodes=100, max_plies=plies)
    starts, at = [], len(header)
    while at < len(data):
        starts.append(at)
        at += 4 + int.from_bytes(data[at : at + 4], "little")
    return data, starts


def _first_move_at(data: bytes, record_at: int) -> int:
    """Where the first move of the record beginning at ``record_at`` lies."""
    start_length = int.from_bytes(data[record_at + 4 : record_at + 6], "little")
    players = data[record_at + 6 + start_length]
    return record_at + 6 + start_length + 1 + players + 4


@pytest.mark.parametrize(
    "move, why",
    [
        (0xFFFFFFFF, "bits set beyond the move's fields"),
        (0x000000FF, "cell 255 is not on the 64-cell board"),
        (64 | 8 << 8, "cell 64 is not on the 64-cell board"),
        (8 | 16 << 8 | 1 << 16 | 7 << 18, "a promotion to piece kind 7"),
        (8 | 16 << 8 | 0xFF << 16, "bits set beyond"),
    ],
)
def test_a_move_off_the_board_is_refused_by_name(move, why) -> None:
    # Every value read from a file is checked before use: these read past a table of cell names
    # (a crash, or process memory in the move's text) or promoted to a queen silently.
    data, (first, second) = _standard_data(2)
    at = _first_move_at(data, second) + 6  # the second move of the second record
    corrupted = data[:at] + move.to_bytes(4, "little") + data[at + 4 :]
    with pytest.raises(InvalidTrainingDataError, match=f"record 2, move 2 at byte {at}: {why}"):
        decode(corrupted)


def test_text_that_is_not_utf8_is_refused_by_name() -> None:
    data, (first,) = _standard_data()
    at = first + 6  # the start position's first byte
    with pytest.raises(InvalidTrainingDataError, match="record 1 .*the start position is not UTF-8"):
        decode(data[:at] + b"\xff" + data[at + 1 :])


def test_a_corrupted_size_in_the_middle_is_not_taken_for_a_stop(tmp_path) -> None:
    # Only a last record cut short, a prefix of itself, is what a stop leaves; a size field
    # corrupted in the middle used to drop every game after it silently (and resume replayed them).
    data, starts = _standard_data(5, plies=4)
    third = starts[2]
    for size in (0xFFFFFFFF, len(data) - third):  # beyond the file, each way
        corrupted = data[:third] + size.to_bytes(4, "little") + data[third + 4 :]
        with pytest.raises(InvalidTrainingDataError, match=f"corrupted at byte {third}: record 3 says it takes"):
            decode(corrupted)
        path = tmp_path / "data.pctd"
        path.write_bytes(corrupted)
        kind = kind_of("standard")
        with pytest.raises(InvalidTrainingDataError, match=f"at byte {third}"):
            list(generate(path, kind, [Game.from_kind(kind).board.fen()] * 8, nodes=100, max_plies=4))
        assert path.read_bytes() == corrupted  # refused: nothing cut, nothing replayed
    for cut in range(1, len(data) - starts[4]):  # a stop anywhere inside the last record
        assert len(decode(data[: starts[4] + cut])[1]) == 4
    assert len(decode(data)[1]) == 5


def test_the_command_line_writes_and_resumes(tmp_path, capsys) -> None:
    path = tmp_path / "teams.pctd"
    args = ["train", "generate", "--variant", "four-player", "--nodes", "200", "--max-plies", "12", "-o", str(path)]
    assert main([*args, "--games", "2", "--jobs", "2"]) == 0
    assert main([*args, "--games", "3"]) == 0
    assert "3 games of four-player-teams" in capsys.readouterr().out
    name, records = read_data(path)
    assert name == "four-player-teams" and len(records) == 3 and len({r.start for r in records}) == 3
    assert main(["train", "generate", "--variant", "standard", "--games", "1", "-o", str(path)]) == 2
    assert "holds four-player-teams data" in capsys.readouterr().err


def test_generate_blames_a_network_of_another_game_on_the_network(tmp_path, capsys) -> None:
    from polychess.nnue import random_network

    network = tmp_path / "three.nnue"
    random_network("three-player", hidden=16).save(network)
    out = tmp_path / "std.pctd"
    args = ["train", "generate", "--variant", "standard", "--games", "1", "--network", str(network), "-o", str(out)]
    assert main(args) == 2
    err = capsys.readouterr().err
    assert "--network" in err and "three-player network, not a standard one" in err and str(out) not in err


def test_ray_tasks_write_the_file_the_threads_write(tmp_path) -> None:
    # In a process of its own, as a user runs it: the command starts and stops its Ray instance,
    # and whatever becomes of Ray there cannot take the test session down with it.
    pytest.importorskip("ray", reason="the ray backend needs pip install 'polychess[ray]'")
    here, there = tmp_path / "here.pctd", tmp_path / "there.pctd"
    args = ["train", "generate", "--variant", "standard", "--games", "9", "--nodes", "200", "--max-plies", "16"]
    assert main([*args, "-o", str(here)]) == 0
    command = [sys.executable, "-m", "polychess", *args, "--jobs", "2", "--backend", "ray", "-o", str(there)]
    run = subprocess.run(command, capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stderr[-3000:]
    assert "9 games of standard" in run.stdout  # two Ray tasks of up to eight games, written in order
    assert there.read_bytes() == here.read_bytes()
