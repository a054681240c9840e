"""Thousands of random three-player games, fast: each reaches an outcome or the ply cap, the
invariants hold whenever a player leaves the game and at the end, and popping every step
restores the start position string exactly. (tests/game/test_three_player_game.py checks the invariants at
every ply on fewer games.)"""

import random

import pytest

from polychess import Game, Status

GAMES = 2000
CAP = 200


def check_invariants(game: Game) -> None:
    board = game.board
    for player in game.colours:
        king = board.king(player)
        if board.status(player) == Status.OUT:
            assert king is None
        else:
            assert king is not None
            # a player's own pieces are never among his capture targets
            own = {cell for cell, piece in board.pieces().items() if board.controller(piece.colour) == player}
            if board.turn == player:
                assert not any(m.to_cell in own for m in board.legal_moves)


@pytest.mark.parametrize("chunk", range(8))
def test_many_random_games(chunk):
    ended = 0
    for seed in range(chunk, GAMES, 8):
        rng = random.Random(seed)
        game = Game()
        start = game.board.fen()
        left = 0
        while not game.is_over() and game.ply < CAP:
            moves = list(game.legal_moves)
            assert moves, "a running game always has a player to move with a legal move"
            captures = [m for m in moves if game._board.piece_at(m.to_cell) is not None]
            game.push(rng.choice(captures if captures and rng.random() < 0.6 else moves))
            if len(game.eliminations) != left:
                left = len(game.eliminations)
                check_invariants(game)
        check_invariants(game)
        ended += game.is_over()
        while game.history:
            game.pop()
        assert game.board.fen() == start and game.outcome() is None
    assert ended > 0
