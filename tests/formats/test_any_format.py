"""formats.any_format: whatever a user pastes read as the game it holds, and every export of a
game read back as the same game."""

from __future__ import annotations

import pytest

from polychess import Game
from polychess.formats.any_format import export, exports_of, read_game


def test_a_pgn_without_moves_from_a_fen_is_standard_chess() -> None:
    # the polychess record skips tags it does not know and defaults to three-player chess: the
    # FEN tag says PGN
    fen = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3"
    game = read_game(f'[Event "?"]\n[SetUp "1"]\n[FEN "{fen}"]\n\n*\n')
    assert game.variant == "standard" and game.board.fen() == fen and not game.history


def test_a_record_with_a_variant_tag_stays_a_record() -> None:
    game = read_game('[Variant "standard"]\n[FEN "ignored"]\n\n1. e2e4 *\n')
    assert game.variant == "standard" and [str(m) for m in game.history] == ["e2e4"]


@pytest.mark.parametrize("variant", ["standard", "three-player", "four-player"])
def test_every_export_of_a_game_started_from_a_position_reads_back(variant: str) -> None:
    game = Game(variant)
    for _ in range(4):
        game.push(sorted(str(m) for m in game.legal_moves)[0])
    started_there = Game(variant, start=game.board.fen())
    for name in exports_of(started_there):
        text, _ = export(started_there, name, {})
        copy = read_game(text)
        written, expected = copy.board.fen().split(), game.board.fen().split()
        if variant == "four-player" and name in ("own", "fen4"):  # FEN4 has no move number: chess.com's counts anew
            del written[-3], expected[-3]
        assert (copy.variant, written) == (variant, expected), name
