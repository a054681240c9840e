"""The evaluation as data: features times weights, per game (polychess.evaluation), and the
Texel tuning tools that fit the weights (polychess.tune, polychess tune)."""

from __future__ import annotations

import json
import random
import subprocess
import sys

import pytest

from game.test_three_player_game import MATE_TWICE
from game_script import game_from
from polychess import Board, Game, evaluation
from polychess.catalogue import kind_of
from polychess.evaluation import TERMS, evaluate, features_of, game_weights, set_game_weights, weights_of
from polychess.match.openings import random_openings
from polychess.match.players import parse_player
from polychess.match.runner import MatchConfig, Task, play_game
from polychess.training.data import data_header, decode, play_batch
from polychess.tune.samples import Sample, game_samples, read_samples, record_samples, result_share

GAMES = [("standard", None), ("three-player", None), ("four-player", "teams"), ("four-player", "ffa")]


def random_boards(variant: str, mode: str | None, count: int, seed: int = 7, *, captures: bool = False) -> list[Board]:
    """Positions of random games; with ``captures`` a capture is played wherever there is one,
    so that the pieces go fast (the late twins count)."""
    rng = random.Random(seed)
    board = Board(variant, mode=mode) if mode else Board(variant)
    boards = []
    while len(boards) < count:
        moves = list(board.legal_moves)
        if not moves or rng.random() < (0.002 if captures else 0.02):
            board = Board(variant, mode=mode) if mode else Board(variant)
            continue
        taking = [m for m in moves if board.is_capture(m)] if captures else []
        board.push(rng.choice(taking or moves))
        boards.append(board.copy())
    return boards


def dot_values(weights, board: Board) -> list[int]:
    """Each player's features times the weights (in the order of TERMS), plus his cell values:
    what evaluate() gives."""
    return [
        sum(w * f for w, f in zip(weights, player, strict=True)) + cells
        for player, cells in zip(features_of(board), evaluation.cell_values_of(board), strict=True)
    ]


@pytest.mark.parametrize("variant,mode", GAMES)
def test_evaluation_is_features_times_weights(variant, mode):
    for board in random_boards(variant, mode, 80):
        assert dot_values(weights_of(board).values(), board) == evaluate(board)


def test_pawn_structure_is_counted_anew_when_an_army_changes_hands():
    # The evaluation keeps each pawn placement's counts in a cache (as a search does). Here a
    # mate hands Black's army to White with every pawn where it stood: White's pawn on A4 and
    # Black's on A10, which stopped each other, are both passed for White now. The cache saw
    # these very pawns before the mate; the counts must follow who plays each colour.
    before = game_weights("three-player")
    passed = TERMS.index("passed_pawn")
    try:
        set_game_weights("three-player", dict(before, passed_pawn=40, passed_pawn_near=6, doubled_pawn=-25))
        game = game_from(MATE_TWICE | {"A4": "wP", "A10": "bP"})
        counts = []
        for move in (None, "B3H3", "G1G2"):
            if move:
                game.push(game.board.parse_move(move))
            features = features_of(game.board)
            assert dot_values(weights_of(game.board).values(), game.board) == evaluate(game.board)
            counts.append([player[passed] for player in features])
        assert game.eliminations  # Black mated, his army White's
        assert counts[0] == [0, 2, 1] and counts[-1] == [2, 2, 0]
    finally:
        set_game_weights("three-player", before)


@pytest.mark.parametrize("variant,mode", GAMES)
def test_tapered_weights_are_still_features_times_weights_as_pieces_go(variant, mode):
    # Every late twin weighted (material and placement ones summed move by move, positional
    # ones counted at the node): the evaluation stays the features' dot product with the
    # weights through random games that take pieces off, in every game.
    game = kind_of(variant, mode).family
    before = game_weights(game)
    rng = random.Random(5)
    tapered = {t: (rng.randint(-9, 9) if t in evaluation.LATE_TWINS else w) for t, w in before.items()}
    try:
        set_game_weights(game, tapered)
        boards = random_boards(variant, mode, 300, seed=11, captures=True)
        assert any(max(player[TERMS.index("pawn_value_late")] for player in features_of(b)) > 1 for b in boards)
        for board in boards:
            assert dot_values(tapered.values(), board) == evaluate(board)
    finally:
        set_game_weights(game, before)


@pytest.mark.parametrize("variant,mode", GAMES)
def test_each_late_twin_is_its_term_times_the_lateness(variant, mode):
    half = len(TERMS) // 2
    assert evaluation.LATE_TWINS == tuple(f"{t}_late" for t in TERMS[:half])
    seen = set()
    for board in random_boards(variant, mode, 300, seed=3, captures=True):
        for player in features_of(board):
            lateness = player[TERMS.index("pawn_value_late")] // max(1, player[TERMS.index("pawn_value")])
            if player[TERMS.index("pawn_value")]:
                assert 0 <= lateness <= 8
                assert player[half:] == [lateness * f for f in player[:half]]
                seen.add(lateness)
    assert len(seen) >= 3


def test_lateness_counts_the_enemy_pieces_beside_pawns_and_kings():
    # White faces a rook and a knight (8 - 2 = 6), Black a queen (8 - 1 = 7).
    board = Board("standard", "4k3/p7/8/3n4/8/8/P7/3QK2r w - - 0 1")
    assert feature(board, 0, "pawn_value_late") == 6 and feature(board, 1, "pawn_value_late") == 7
    assert feature(Board("standard"), 0, "pawn_value_late") == 8 * 1  # seven pieces at the start: 1 a pawn


def test_weights_without_late_twins_load_with_twins_at_zero():
    before = game_weights("three-player")
    try:
        set_game_weights("three-player", {t: w for t, w in before.items() if t not in evaluation.LATE_TWINS})
        assert all(game_weights("three-player")[t] == 0 for t in evaluation.LATE_TWINS)
    finally:
        set_game_weights("three-player", before)


def test_every_game_ships_its_weights_and_the_core_uses_them():
    for game in evaluation.GAMES:
        shipped_game, shipped = evaluation.load_weights(evaluation.weights_file(game))
        assert shipped_game == game and list(shipped) == list(TERMS)
        assert game_weights(game) == shipped
    assert weights_of(Board("four-player", mode="ffa")) == game_weights("four-player-ffa")
    assert weights_of(Board("four-player", setup="classic")) == game_weights("four-player-teams")


def test_new_weights_apply_to_positions_made_after_them():
    before, cells_before = game_weights("standard"), evaluation.game_cells("standard")
    old = Board("standard")
    try:
        doubled = {t: 2 * w for t, w in before.items()}
        set_game_weights("standard", doubled, {t: [2 * v for v in table] for t, table in cells_before.items()})
        new = Board("standard")
        assert weights_of(new) == doubled and weights_of(old) == before
        assert evaluate(new) == [2 * v for v in evaluate(old)]
        # Moves keep each board's own table: the sums stay right as pieces move.
        for board in (old, new):
            board.push("e2e4")
            board.push("d7d5")
            board.push("e4d5")
        assert evaluate(new) == [2 * v for v in evaluate(old)]
    finally:
        set_game_weights("standard", before, cells_before)
    assert weights_of(Board("standard")) == before


def random_cell_tables(game: str, seed: int, tables: tuple[str, ...] = evaluation.CELL_TABLES) -> dict[str, list[int]]:
    cells = kind_of(game).layout.cell_count
    rng = random.Random(seed)
    return {t: [rng.randint(-60, 60) for _ in range(cells)] for t in tables}


@pytest.mark.parametrize("variant,mode", GAMES)
def test_cell_weights_are_what_the_evaluation_adds_to_the_terms(variant, mode):
    # Random tables, base and late, in every game: the position's sums kept move by move
    # (evaluate) and the cell values counted afresh agree through random games that take
    # pieces off (the late tables count), eliminations and promotions included.
    game = kind_of(variant, mode).family
    before, cells_before = game_weights(game), evaluation.game_cells(game)
    tables = random_cell_tables(game, seed=21)
    try:
        set_game_weights(game, before, tables)
        assert evaluation.game_cells(game) == tables
        boards = random_boards(variant, mode, 200, seed=17, captures=True)
        assert any(v != 0 for b in boards for v in evaluation.cell_values_of(b))
        for board in boards:
            assert dot_values(weights_of(board).values(), board) == evaluate(board)
    finally:
        set_game_weights(game, before, cells_before)


@pytest.mark.parametrize("variant,mode", GAMES)
def test_every_army_reads_the_cell_tables_turned_to_face_it(variant, mode):
    # The tables are the first seat's: every army's pawns, knights, bishops and rooks stand at
    # the start where the first army's stand, turned, so each player's cell value at the start
    # is the first army's, summed by hand over its cells.
    game = kind_of(variant, mode).family
    before, cells_before = game_weights(game), evaluation.game_cells(game)
    tables = random_cell_tables(game, seed=5, tables=("pawn", "knight", "bishop", "rook"))
    try:
        set_game_weights(game, before, tables)
        board = Board(variant, mode=mode) if mode else Board(variant)
        first = board.colours[0]
        by_hand = sum(
            tables[piece.piece_type.name.lower()][board.layout.index(cell)]
            for cell, piece in board.pieces().items()
            if piece.colour == first and piece.piece_type.name.lower() in tables
        )
        assert by_hand != 0
        assert evaluation.cell_values_of(board) == [by_hand] * len(board.colours)
        for colour in range(len(board.colours)):
            assert sorted(board.layout.turned(colour, c) for c in range(board.layout.cell_count)) == list(
                range(board.layout.cell_count)
            )
    finally:
        set_game_weights(game, before, cells_before)


def test_a_late_cell_table_weighs_its_value_times_the_lateness():
    # White's knight on d5 faces a rook and a knight (lateness 8 - 2 = 6); Black's knight on d5
    # stands, turned to White's side, on d4 (the ranks mirrored), and faces a queen (7).
    before, cells_before = game_weights("standard"), evaluation.game_cells("standard")
    layout = kind_of("standard").layout
    knight, knight_late = [0] * 64, [0] * 64
    knight[layout.index("d5")], knight_late[layout.index("d5")] = 30, 5
    knight[layout.index("d4")], knight_late[layout.index("d4")] = -20, 3
    try:
        set_game_weights("standard", before, {"knight": knight, "knight_late": knight_late})
        board = Board("standard", "4k3/p7/8/3N4/8/8/P7/3QK1nr w - - 0 1")
        assert evaluation.cell_values_of(board) == [30 + 6 * 5, 0]
        board = Board("standard", "4k3/p7/8/3n4/8/8/P7/3QK2r w - - 0 1")
        assert evaluation.cell_values_of(board) == [0, -20 + 7 * 3]
    finally:
        set_game_weights("standard", before, cells_before)


@pytest.mark.parametrize(
    "cells,message",
    [
        ({"pawn": [0] * 63}, "63 values"),
        ({"tempo": [0] * 64}, "unknown tables"),
        ({"pawn": [0.5] * 64}, "whole number"),
        ({"pawn": [10**6] * 64}, "out of range"),
    ],
)
def test_bad_cell_weights_are_refused(cells, message):
    before = evaluation.game_cells("standard")
    with pytest.raises(ValueError, match=message):
        set_game_weights("standard", game_weights("standard"), cells)
    assert evaluation.game_cells("standard") == before


def test_a_weights_file_keeps_its_cell_tables(tmp_path):
    tables = random_cell_tables("standard", seed=3)
    path = tmp_path / "standard.json"
    evaluation.write_weights(path, "standard", game_weights("standard"), "a test", tables)
    assert evaluation.load_weights(path) == ("standard", game_weights("standard"))
    assert evaluation.load_cells(path) == tables
    evaluation.write_weights(path, "standard", game_weights("standard"), "a test")
    assert evaluation.load_cells(path) == {}
    path.write_text(json.dumps({"game": "standard", "weights": {}, "cells": [1, 2]}))
    with pytest.raises(ValueError, match="'cells' must map"):
        evaluation.load_cells(path)


@pytest.mark.parametrize(
    "change,message",
    [
        (lambda w: w.pop("hanging"), "missing terms"),
        (lambda w: w.update(sharpness=3), "unknown terms"),
        (lambda w: w.update(hanging=1.5), "whole number"),
        (lambda w: w.update(hanging=10**6), "out of range"),
    ],
)
def test_bad_weights_are_refused(change, message):
    weights = game_weights("three-player")
    change(weights)
    with pytest.raises(ValueError, match=message):
        set_game_weights("three-player", weights)
    with pytest.raises(ValueError, match="unknown game"):
        game_weights("chess960")


def feature(board: Board, colour_index: int, term: str) -> int:
    return features_of(board)[colour_index][TERMS.index(term)]


def test_threat_and_king_features_count_what_they_name():
    # The white knight on e4 is attacked by the d5 pawn and defended by nothing.
    board = Board("standard", "4k3/8/8/3p4/4N3/8/8/4K3 w - - 0 1")
    assert feature(board, 0, "threatened_by_pawn") == 1 and feature(board, 0, "hanging") == 1
    defended = Board("standard", "4k3/8/8/3p4/4N3/5P2/8/4K3 w - - 0 1")
    assert feature(defended, 0, "threatened_by_pawn") == 1 and feature(defended, 0, "hanging") == 0
    # A black rook on e4 bears on e2, beside the white king on e1, and attacks 13 cells; a
    # queen on a5 bears on d2 only (e1 itself is not beside the king).
    rook = Board("standard", "4k3/8/8/8/4r3/8/8/4K3 w - - 0 1")
    assert feature(rook, 0, "king_ring_rook_attacks") == 1
    assert feature(rook, 1, "rook_mobility") == 13
    queen = Board("standard", "4k3/8/8/q7/8/8/8/4K3 w - - 0 1")
    assert feature(queen, 0, "king_ring_queen_attacks") == 1
    # A pawn on d3 bears on e2; c2 is not beside the king.
    pawn = Board("standard", "4k3/8/8/8/8/3p4/8/4K3 w - - 0 1")
    assert feature(pawn, 0, "king_ring_pawn_attacks") == 1
    # The queen on a6 and the rook on e4 both bear on e2: one cell attacked twice, by one
    # enemy player.
    both = Board("standard", "4k3/8/q7/8/4r3/8/8/4K3 w - - 0 1")
    assert feature(both, 0, "king_ring_queen_attacks") == 2 and feature(both, 0, "king_ring_rook_attacks") == 1
    assert feature(both, 0, "king_ring_double_attacks") == 1 and feature(both, 0, "king_ring_joint_attack") == 0
    # Four-player teams: Blue's rook on e2 and Green's knight on j3 attack Red's ring together,
    # both of them h2.
    joint = Board(
        "four-player", "3yK4/8/8/14/14/14/13gK/bK13/14/14/14/6gN1/1bR6/4rK3 r - - 0 1 rbyg aaaa", mode="teams"
    )
    assert feature(joint, 0, "king_ring_joint_attack") == 1 and feature(joint, 0, "king_ring_double_attacks") == 1
    assert feature(joint, 1, "king_ring_joint_attack") == 0
    # Rooks and queens attacked by minor pieces, queens by rooks.
    board = Board("standard", "7k/8/8/3n4/8/2R1Q3/8/4K3 w - - 0 1")
    assert feature(board, 0, "threatened_by_minor") == 2
    board = Board("standard", "4k3/8/8/8/4r3/8/4Q3/4K3 w - - 0 1")
    assert feature(board, 0, "threatened_by_rook") == 1


def test_pawn_structure_bishops_and_the_late_king_count_what_they_name():
    # d5: passed, three pushes from promotion (6 - 3 = 3 "near"); no black pawn can stop it.
    alone = Board("standard", "8/5k2/8/3P4/8/8/2K5/8 w - - 0 1")
    assert feature(alone, 0, "passed_pawn") == 1 and feature(alone, 0, "passed_pawn_near") == 3
    # b2 has its own pawn on its way (doubled); b5 is stopped by a7, which takes on b6, and
    # a7 by b5, which takes on a6: no passed pawn.
    doubled = Board("standard", "4k3/p7/8/1P6/8/8/1P6/4K3 w - - 0 1")
    assert feature(doubled, 0, "doubled_pawn") == 1 and feature(doubled, 1, "doubled_pawn") == 0
    assert feature(doubled, 0, "passed_pawn") == 0 and feature(doubled, 1, "passed_pawn") == 0
    start = Board("standard")
    assert feature(start, 0, "bishop_pair") == 1 and feature(start, 0, "passed_pawn") == 0
    # The king walks out as the enemy pieces go: none at the start, with all seven of them.
    assert feature(start, 0, "king_centre_late") == 0
    bare = Board("standard", "8/8/8/3k4/8/8/8/4K2R w - - 0 1")
    assert feature(bare, 1, "king_centre_late") == 7 * feature(bare, 1, "king_centre")
    assert feature(bare, 0, "king_centre_late") == 8 * feature(bare, 0, "king_centre")
    # On the other boards the ways are the boards' own: at the hexagon's start every pawn has
    # an enemy pawn on its way or beside it; on the cross, Red's pawns face only his partner's
    # (passed: no enemy pawn can stop them), far from promotion.
    three = Board("three-player")
    assert all(feature(three, p, "passed_pawn") == 0 for p in range(3))
    cross = Board("four-player", mode="teams")
    assert feature(cross, 0, "passed_pawn") == 8 and feature(cross, 0, "passed_pawn_near") == 0


def test_result_share_counts_players_finished_behind():
    assert result_share({"white": 1, "red": 2, "black": 3}, "white") == 1.0
    assert result_share({"white": 1, "red": 2, "black": 3}, "red") == 0.5
    assert result_share({"red": 1, "blue": 3, "yellow": 1, "green": 3}, "yellow") == pytest.approx(2 / 3 + 1 / 6)


@pytest.mark.parametrize("variant,mode", GAMES)
def test_samples_are_the_quiet_positions_after_the_opening(variant, mode):
    kind = kind_of(variant, mode)
    openings = tuple(random_openings(kind, 1, 4, seed=3))
    player = parse_player("random")
    config = MatchConfig(kind, player, player, 1, openings, "random", max_plies=60)
    result = play_game(config, Task(0, config.assignments[0]))
    samples = game_samples(result, kind, skip_plies=4)
    assert samples
    game = Game(variant, mode=mode) if mode else Game(variant)
    for move in openings[0].moves:
        game.push(move)
    for sample in samples:
        board = sample.board()
        assert not board.is_check()
        assert set(sample.results) <= {c.value for c in board.colours}
        assert all(0.0 <= r <= 1.0 for r in sample.results.values())
        assert (sample.points != {}) == (mode == "ffa")


@pytest.mark.parametrize("variant,mode", GAMES)
def test_samples_from_training_data_are_its_quiet_positions_with_its_results(variant, mode):
    kind = kind_of(variant, mode)
    starts = [Game.from_kind(kind).board.fen()] * 2
    _, records = decode(data_header(kind) + play_batch(kind, starts, nodes=50, max_plies=40))
    for index, record in enumerate(records):
        samples = record_samples(record, kind, skip_plies=2, phase=index)
        # What a replay calls quiet: not in check, not right after a capture, no capture played.
        game, expected, captures = Game.from_kind(kind, record.start), [], []
        for ply, move in enumerate(record.moves):
            captures.append(game.board.is_capture(move))
            if ply >= 2 and not game.board.is_check() and not captures[-1] and not (ply and captures[-2]):
                expected.append(game.board.fen())
            game.push(move)
        assert [s.position for s in samples] == expected and any(captures)
        assert samples
        colours = [c.value for c in Game.from_kind(kind).board.colours]
        for sample in samples:
            board = sample.board()
            assert not board.is_check()
            assert all(sample.results[c] == record.results[colours.index(c)] for c in sample.results)
            assert (sample.points != {}) == (mode == "ffa")
        thinned = record_samples(record, kind, skip_plies=2, every=3, phase=index)
        assert {s.position for s in thinned} <= {s.position for s in samples} and len(thinned) < len(samples)


def test_fit_lowers_the_error_of_weights_that_misjudge_the_results():
    pytest.importorskip("numpy")
    from polychess.tune.fit import design, fit_weights

    # Results that follow material: the side a knight up wins. Starting from a knight worth
    # nothing, the fit must give it value.
    samples = []
    for i in range(40):
        white = i % 2 == 0
        knight = "N" if white else "n"
        row5, row4 = [(f"{knight}7", "8"), (f"7{knight}", "8"), ("8", f"{knight}7"), ("8", f"7{knight}")][i // 2 % 4]
        board = Board("standard", f"4k3/pppp4/8/{row5}/{row4}/8/PPPP4/4K3 w - - 0 1")
        samples.append(
            Sample("standard", board.fen(), {}, {"white": 1.0 if white else 0.0, "black": 0.0 if white else 1.0})
        )
    start = game_weights("standard")
    start["knight_value"] = 0
    fit = fit_weights(samples, start, steps=400, rate=5.0, frozen=["pawn_value"])
    assert fit.error_after < fit.error_before
    # The winners' knights are now worth something to them (in the fitted terms together).
    x, offsets, results = design(samples)
    scores = x @ [fit.weights[t] for t in TERMS] + offsets
    assert min(scores[results == 1.0]) > 50 and max(scores[results == 0.0]) < -50
    assert fit.weights["pawn_value"] == start["pawn_value"]
    with pytest.raises(ValueError, match="unknown terms"):
        fit_weights(samples, start, frozen=["sharpness"])


def test_fit_learns_cell_tables_that_the_terms_cannot_express():
    pytest.importorskip("numpy")
    from polychess.tune.fit import fit_weights

    # Results that follow where White's knight stands in a way no term does: on the a- and
    # h-files White wins, on the b- and g-files he loses, though a b-file knight is more central
    # and reaches more cells. The terms frozen, only the cell tables can learn it.
    samples = []
    for rank in range(2, 7):
        for file, result in (("a", 1.0), ("h", 1.0), ("b", 0.0), ("g", 0.0)):
            board = Board("standard", _with_knight(file, rank))
            samples += [Sample("standard", board.fen(), {}, {"white": result, "black": 1 - result})] * 3
    fit = fit_weights(
        samples, game_weights("standard"), frozen=list(TERMS), cells={}, steps=300, rate=3.0, validation_share=0
    )
    assert fit.error_after < fit.error_before
    assert fit.weights == game_weights("standard")
    layout = kind_of("standard").layout
    knight = fit.cells["knight"]
    for rank in range(2, 7):
        assert knight[layout.index(f"a{rank}")] > knight[layout.index(f"b{rank}")]
        assert knight[layout.index(f"h{rank}")] > knight[layout.index(f"g{rank}")]
    assert set(fit.cells) == set(evaluation.CELL_TABLES)
    # The decay pulls every cell weight toward 0: a strong one leaves the same table, smaller.
    held = fit_weights(
        samples,
        game_weights("standard"),
        frozen=list(TERMS),
        cells={},
        cell_decay=1e-4,
        steps=300,
        rate=3.0,
        validation_share=0,
    )
    assert 0 < max(map(abs, held.cells["knight"])) < max(map(abs, knight))


def _with_knight(file: str, rank: int) -> str:
    """A quiet position of standard chess with White's knight on ``file`` ``rank``."""
    rows = ["4k3", "pppp4", "8", "8", "8", "8", "PPPP4", "4K3"]
    column = "abcdefgh".index(file)
    rows[8 - rank] = (str(column) if column else "") + "N" + (str(7 - column) if column < 7 else "")
    return "/".join(rows) + " w - - 0 1"


def test_tune_generate_then_fit_writes_a_weights_file(tmp_path):
    pytest.importorskip("numpy")
    samples = tmp_path / "samples.jsonl"
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "polychess",
            "tune",
            "generate",
            "--variant",
            "three-player",
            "--games",
            "2",
            "--player",
            "engine:nodes=300",
            "--max-plies",
            "40",
            "-o",
            str(samples),
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 0, run.stderr
    assert "positions from 2 games of three-player" in run.stdout
    assert read_samples(samples) and all(s.game == "three-player" for s in read_samples(samples))
    weights = tmp_path / "weights.json"
    run = subprocess.run(
        [sys.executable, "-m", "polychess", "tune", "fit", str(samples), "-o", str(weights), "--steps", "100"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 0, run.stderr
    game, fitted = evaluation.load_weights(weights)
    assert game == "three-player" and list(fitted) == list(TERMS)
    assert "mean squared error" in json.loads(weights.read_text())["about"]
    assert evaluation.load_cells(weights) == evaluation.game_cells("three-player")
    # The cell tables fitted, every term kept: a table per kind and late twin, a value per cell.
    cells = tmp_path / "cells.json"
    run = subprocess.run(
        [sys.executable, "-m", "polychess", "tune", "fit", str(samples), "-o", str(cells), "--steps", "50"]
        + ["--cells", "--freeze", "all"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 0, run.stderr
    assert evaluation.load_weights(cells) == ("three-player", game_weights("three-player"))
    tables = evaluation.load_cells(cells)
    assert list(tables) == list(evaluation.CELL_TABLES) and all(len(t) == 96 for t in tables.values())
    assert "cells pawn:" in run.stdout
    refused = subprocess.run(
        [sys.executable, "-m", "polychess", "tune", "fit", str(samples), "-o", str(cells), "--cells"]
        + ["--cell-decay", "-1"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert refused.returncode != 0 and "--cell-decay: must be 0 or more" in refused.stderr
    bad = subprocess.run(
        [sys.executable, "-m", "polychess", "tune", "fit", str(tmp_path / "missing.jsonl"), "-o", str(weights)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert bad.returncode != 0 and "missing.jsonl" in bad.stderr


def test_tune_extract_writes_the_samples_of_training_data_files(tmp_path):
    def extract(*args: str) -> subprocess.CompletedProcess[str]:
        command = [sys.executable, "-m", "polychess", "tune", "extract", *args]
        return subprocess.run(command, capture_output=True, text=True, timeout=120)

    files = {}
    for variant, mode in [("standard", None), ("three-player", None)]:
        kind = kind_of(variant, mode)
        files[variant] = tmp_path / f"{variant}.pctd"
        starts = [Game.from_kind(kind).board.fen()] * 3
        files[variant].write_bytes(data_header(kind) + play_batch(kind, starts, nodes=50, max_plies=30))
    samples = tmp_path / "samples.jsonl"
    run = extract(str(files["standard"]), "-o", str(samples), "--every", "1", "--skip-plies", "4")
    assert run.returncode == 0, run.stderr
    _, records = decode(files["standard"].read_bytes())
    expected = [s for i, r in enumerate(records) for s in record_samples(r, kind_of("standard"), skip_plies=4, phase=i)]
    assert read_samples(samples) == expected and f"{len(expected)} positions from 3 games" in run.stdout
    mixed = extract(str(files["standard"]), str(files["three-player"]), "-o", str(samples))
    assert mixed.returncode == 2 and "of one game" in mixed.stderr
    missing = extract(str(tmp_path / "missing.pctd"), "-o", str(samples))
    assert missing.returncode == 2 and "missing.pctd" in missing.stderr
