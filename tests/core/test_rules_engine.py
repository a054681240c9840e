"""The rules engine: declarations (polychess.rules) executed by the core's game state, the same
for Game, playouts and the uniform state interface (polychess._core.GameState).

The golden master is tests/game/test_game_event_logs.py; here: playouts against Game move for move,
undo and serialization round trips, and declarations changed in a test changing what happens.
"""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import pytest

import polychess
from polychess import Board, Game, PieceType, Termination, _core
from polychess import Colour as C
from polychess.options import validate_options
from polychess.rules import DECLARED, FOUR_PLAYER_FFA, THREE_PLAYER, rules_for
from positions import cross_position
from positions import position as position_text

GAMES: dict[str, dict[str, Any]] = {
    "three-player": {"variant": "three-player"},
    "three-player-first-mate-wins": {"variant": "three-player", "first_mate_wins": True},
    "three-player-two-players": {"variant": "three-player", "players": 2},
    "three-player-neutrality": {"variant": "three-player", "neutrality": True},
    "standard": {"variant": "standard"},
    "teams": {"variant": "four-player", "mode": "teams"},
    "ffa": {"variant": "four-player", "mode": "ffa"},
    "ffa-classic-move-limit": {"variant": "four-player", "mode": "ffa", "setup": "classic", "move_limit": 200},
}


def bare_state(game: Game, rules: polychess.Rules | None = None) -> _core.GameState:
    """A core game state on its own board in the game's start position, played by ``rules``
    (the game's own by default)."""
    board = _core.Board(
        game.variant,
        game.start_fen,
        rules_text=(rules or game.rules).to_text(),
        mode=game.mode or "",
        setup=game.setup or "",
    )
    return _core.GameState(board)


def state_facts(state: _core.GameState) -> tuple[Any, ...]:
    board = state.board
    return (
        board.fen(),
        state.current_player,
        state.termination,
        state.places,
        state.points,
        state.ply,
        state.eliminations(),
        [board.status(p) for p in range(len(state.points))],
    )


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("policy", ["random", "greedy"])
def test_playouts_end_as_the_same_games_through_game(name, policy):
    options = GAMES[name]
    variant = options["variant"]
    others = {k: v for k, v in options.items() if k != "variant"}
    played = polychess.playouts(variant, games=6, seed=11, policy=policy, record_moves=True, **others)
    for playout in played:
        game = Game(**options)
        for move in playout.moves or ():
            game.push(move)
        outcome = game.outcome()
        assert outcome is not None, f"{name}: the playout ended, Game did not"
        assert playout.termination == outcome.termination
        assert playout.plies == game.ply
        assert playout.places == outcome.places
        assert playout.points == outcome.points
        assert playout.returns == pytest.approx(outcome.returns())


@pytest.mark.parametrize("name", GAMES)
def test_game_and_a_bare_state_agree_after_every_move(name):
    """Game (options, records, Python results) against a core state on its own board, fed the
    same moves and resignations: turn, statuses, points, places and the end agree at every step."""
    for seed in range(2):
        game = Game(**GAMES[name])
        state = bare_state(game)
        rng = random.Random(seed)
        colours = game.colours
        seats = [i for i in range(len(colours)) if state.seats >> i & 1]  # a bit per seat
        while not game.is_over():
            if rng.random() < 0.002:
                player = game.turn
                game.resign(player)
                state.resign(colours.index(player))
            else:
                move = rng.choice(list(game.legal_moves))
                game.push(move)
                state.push(move)
            assert colours[state.current_player] == game.turn
            board = game.board  # a decided game's loser is out in the game, not on its last board
            assert [state.board.status(i) for i in range(len(colours))] == [board.status(c) for c in colours]
            if game.rules.ranking == "points":
                assert {colours[i]: state.points[i] for i in seats} == game.points
            assert [(colours[p], reason, by) for p, reason, by, _ in state.eliminations()] == [
                (e.player, e.reason.value, None if e.by is None else colours.index(e.by)) for e in game.eliminations
            ]
        outcome = game.outcome()
        assert outcome is not None and state.is_terminal()
        assert state.termination == outcome.termination.value
        assert {colours[i]: state.places[i] for i in seats} == outcome.places


def test_greedy_playouts_take_the_most_valuable_piece():
    values = {
        PieceType.PAWN: 100,
        PieceType.KNIGHT: 300,
        PieceType.BISHOP: 330,
        PieceType.ROOK: 500,
        PieceType.QUEEN: 900,
    }
    (playout,) = polychess.playouts("standard", games=1, seed=3, policy="greedy", record_moves=True)
    game = Game("standard")
    captures_seen = 0
    for text in playout.moves or ():
        board = game.board
        best = 0
        for move in board.legal_moves:
            victim = board.piece_at(move.to_cell)
            if victim is not None:
                best = max(best, values.get(victim.piece_type, 0) + 1)
        victim = board.piece_at(board.parse_move(text).to_cell)
        played = 0 if victim is None else values.get(victim.piece_type, 0) + 1
        if best:
            captures_seen += 1
            # en passant lands on an empty cell: the one capture this check cannot value
            assert played == best or (played == 0 and best == 101), text
        game.push(text)
    assert captures_seen > 0


def test_playouts_are_fixed_by_seed_whatever_the_threads():
    one = polychess.playouts("four-player", games=9, seed=5, mode="ffa", record_moves=True)
    three = polychess.playouts("four-player", games=9, seed=5, mode="ffa", record_moves=True, threads=3)
    assert one == three
    other = polychess.playouts("four-player", games=9, seed=6, mode="ffa", record_moves=True)
    assert one != other


def test_playouts_stop_at_max_plies():
    (playout,) = polychess.playouts("three-player", games=1, seed=1, max_plies=10)
    assert playout.termination is None and playout.plies == 10 and playout.places is None
    assert playout.returns == (0.0, 0.0, 0.0)


@pytest.mark.parametrize(
    "bad, message",
    [
        ({"games": -1}, "games must be between"),
        ({"games": 1.5}, "games must be a whole number"),
        ({"seed": -1}, "seed must be between"),
        ({"policy": "clever"}, "unknown policy 'clever'"),
        ({"max_plies": 0}, "max_plies must be between"),
        ({"threads": 0}, "threads must be between"),
        ({"time_control": 60}, "no time_control option"),
        ({"mode": "chaos"}, "mode"),
    ],
)
def test_playouts_refuse_bad_arguments(bad, message):
    arguments = {"variant": "four-player" if "mode" in bad else "three-player", **bad}
    with pytest.raises(ValueError, match=message):
        polychess.playouts(**arguments)


# ---- the uniform state interface -----------------------------------------------------------


def random_state(name: str, seed: int, rules: polychess.Rules | None = None) -> tuple[_core.GameState, list[Any]]:
    """A game state of the named game played at random to its end (resigning now and then),
    with its facts after every step."""
    options = GAMES[name]
    game = Game(**options)  # the start position and rules, as Game sets them up
    state = bare_state(game, rules)
    rng = random.Random(seed)
    history = [state_facts(state)]
    while not state.is_terminal():
        if rng.random() < 0.003:
            state.resign(state.current_player)
        else:
            state.push(rng.choice(state.legal_moves()))
        history.append(state_facts(state))
    return state, history


@pytest.mark.parametrize("name", GAMES)
def test_undo_to_the_start_restores_every_step_exactly(name):
    for seed in range(3):
        state, history = random_state(name, seed)
        serialized = state.serialize()
        for facts in reversed(history[:-1]):
            state.undo()
            assert state_facts(state) == facts
        with pytest.raises(IndexError):
            state.undo()
        assert state.serialize().split("\n")[1] == ""
        assert serialized.split("\n")[0] == state.serialize().split("\n")[0]


@pytest.mark.parametrize("name", GAMES)
def test_clone_and_serialize_round_trip(name):
    state, _ = random_state(name, 7)
    options = validate_options(GAMES[name])
    rules = rules_for(options)
    copy = state.clone()
    assert state_facts(copy) == state_facts(state)
    copy.undo()  # the copy is independent
    assert state_facts(copy) != state_facts(state)
    restored = _core.GameState.deserialize(
        options.variant, state.serialize(), rules.to_text(), mode=options.mode or "", setup=options.setup or ""
    )
    assert state_facts(restored) == state_facts(state)
    assert restored.serialize() == state.serialize()


def test_deserialize_names_a_bad_step():
    rules = THREE_PLAYER.to_text()
    start = Board("three-player").fen()
    with pytest.raises(polychess.IllegalMoveError, match="E2E5"):
        _core.GameState.deserialize("three-player", f"{start}\nE2E4 E2E5", rules)
    with pytest.raises(ValueError, match="unknown step"):
        _core.GameState.deserialize("three-player", f"{start}\nresign(purple)", rules)
    with pytest.raises(ValueError, match="new line"):
        _core.GameState.deserialize("three-player", start, rules)


def test_returns_follow_the_places():
    game = Game("three-player")
    state = game._state
    assert state.returns() == [0.0, 0.0, 0.0]
    game.resign("white")
    game.resign("red")
    assert game.outcome().places == {polychess.Colour.WHITE: 3, polychess.Colour.RED: 2, polychess.Colour.BLACK: 1}
    assert state.returns() == [-1.0, 0.0, 1.0] == list(game.outcome().returns())


def test_a_board_carries_its_rules_whole():
    # One rule struct: a board is made with its game's rules, dead armies and neutrality included,
    # and a game on it plays by them (they cannot disagree).
    board = Board("four-player", mode="ffa")
    assert "army=dead" in board._core.rules_text.split() and board.rules is FOUR_PLAYER_FFA
    assert "neutrality=yes" in Board("three-player", neutrality=True)._core.rules_text.split()
    with pytest.raises(ValueError, match="three players"):
        _core.Board("standard", rules_text=THREE_PLAYER.replace(neutrality=True).to_text())


def test_every_rule_crosses_to_the_core_as_text():
    # The core reads a declaration's text (games/rules.h: parse_rules) and writes back the same
    # words, every rule included, also for values no declaration uses.
    changed = FOUR_PLAYER_FFA.replace(move_limit=7, repetitions=None, quiet_moves_per_player=None, stalemate="freeze")
    for (variant, mode), rules in [*DECLARED.items(), (("four-player", "ffa"), changed)]:
        board = _core.Board(variant, rules_text=rules.to_text(), mode=mode or "")
        assert sorted(board.rules_text.split()) == sorted(rules.to_text().split())
    assert "repetitions=0" in _core.Board("four-player", rules_text=changed.to_text()).rules_text.split()
    assert (
        _core.Board("standard").rules_text == _core.Board("standard", rules_text="").rules_text
    )  # Rules{} for what is left out
    for text, message in [
        ("army=alive", "rule army is one of passes, dead, not 'alive'"),
        ("points.checks=1", "rule points.checks is 2 numbers"),
        ("points.capture=0,1,3,5,5,9,0,1,4", "rule points.capture is 8 numbers"),
        ("move_limit=ten", "rule move_limit: 'ten' is no number"),
        ("neutrality=maybe", "rule neutrality is yes or no"),
        ("colour=red", "unknown rule 'colour'"),
        ("neutrality", "rule neutrality has no value"),
    ]:
        with pytest.raises(ValueError, match=message):
            _core.Board("three-player", rules_text=text)


# ---- declarations changed in a test change what happens ------------------------------------


def test_every_game_has_a_declaration():
    for variant in polychess.VARIANTS:
        modes = ["teams", "ffa"] if variant == "four-player" else [None]
        for mode in modes:
            assert (variant, mode) in DECLARED
            assert rules_for(validate_options({"variant": variant, "mode": mode})) is DECLARED[(variant, mode)]


def moves_until(name: str, seed: int, wanted: str) -> list[Any]:
    """The moves of a random game of the named game up to and including the first step after
    which an elimination of the wanted reason is on record (a credited one for checkmates)."""
    game = Game(**GAMES[name])
    rng = random.Random(seed)
    moves = []
    while not game.is_over():
        moves.append(rng.choice(list(game.legal_moves)))
        game.push(moves[-1])
        if any(e.reason.value == wanted and (e.by is not None or wanted != "checkmate") for e in game.eliminations):
            return moves
    return []


def replay(name: str, moves: list[Any], rules: polychess.Rules) -> _core.GameState:
    state = bare_state(Game(**GAMES[name]), rules)
    for move in moves:
        state.push(move)
    return state


def test_another_mate_value_changes_the_points():
    moves = next(m for seed in range(100) if (m := moves_until("ffa", seed, "checkmate")))
    richer = FOUR_PLAYER_FFA.replace(points=dataclasses.replace(FOUR_PLAYER_FFA.points, mate=50))
    plain, changed = replay("ffa", moves, FOUR_PLAYER_FFA), replay("ffa", moves, richer)
    mater = next(by for _, reason, by, _ in plain.eliminations() if reason == "checkmate" and by is not None)
    assert changed.eliminations() == plain.eliminations()
    assert changed.points[mater] - plain.points[mater] == 30


def test_a_three_player_stalemate_declared_out_puts_the_player_out():
    moves = next(m for seed in range(100) if (m := moves_until("three-player", seed, "stalemate")))
    frozen = replay("three-player", moves, THREE_PLAYER)
    out = replay("three-player", moves, THREE_PLAYER.replace(stalemate="out"))
    player, reason, by, ply = frozen.eliminations()[-1]
    assert (reason, by, ply) == ("stalemate", None, len(moves))
    assert frozen.board.status(player) == polychess.Status.FROZEN
    assert out.eliminations()[-1] == (player, "stalemate", None, len(moves))
    assert out.board.status(player) == polychess.Status.OUT
    assert out.places[player] is not None and frozen.places[player] is None  # out players have their place


def test_repetitions_off_means_no_repetition_draw():
    knights = ("g1f3", "g8f6", "f3g1", "f6g8") * 2
    game = Game("standard")
    for move in knights:
        game.push(move)
    outcome = game.outcome()
    assert outcome is not None and outcome.termination is Termination.THREEFOLD_REPETITION
    state = bare_state(Game("standard"), game.rules.replace(repetitions=None))
    for move in knights:
        state.push(move)
    assert state.termination is None and not state.is_terminal()


# ---- the search plays by the same declaration ----------------------------------------------

DOUBLE_CHECKS = {"h1": "rK", "g5": "rR", "g9": "rB", "g14": "yK", "n8": "gK", "a7": "bK"}
# Red's rook d11 mates Yellow on the back rank; Blue moves next, Yellow two turns later.
YELLOW_BACK_RANK = {"h1": "rK", "d11": "rR", "g14": "yK", "f13": "yP", "g13": "yP", "h13": "yP", "a7": "bK", "n8": "gK"}


def _ffa(pieces: dict[str, str]) -> Game:
    from positions import cross_position

    return Game("four-player", mode="ffa", start=cross_position(pieces))


def _search(game: Game, rules: polychess.Rules, depth: int) -> dict[str, Any]:
    state = _core.GameState(
        _core.Board(
            game.variant, game.board.fen(), rules_text=rules.to_text(), mode=game.mode or "", setup=game.setup or ""
        )
    )
    return _core.Engine(8).search(state, depth, 0, 0.0, None, "paranoid")


def test_the_search_scores_a_double_check_bonus_inside_the_tree():
    game = _ffa(DOUBLE_CHECKS)
    with_bonus = _search(game, FOUR_PLAYER_FFA, 1)
    after = _ffa(DOUBLE_CHECKS)
    after.push(with_bonus["best"])
    assert after.points[polychess.Colour.RED] == 5  # the move the search prefers checks two kings
    no_bonus = FOUR_PLAYER_FFA.replace(
        points=dataclasses.replace(FOUR_PLAYER_FFA.points, checks={}, checks_by_queens={})
    )
    without = _search(game, no_bonus, 1)
    # a declaration without the bonus changes what the search prefers, by about five points
    assert str(without["best"]) != str(with_bonus["best"])
    assert with_bonus["score"] - without["score"] >= 4 * 200


def test_the_search_credits_a_mate_right_after_the_move_as_game_does():
    # Yellow's turn is two plies away, but free-for-all judges the mate at once (Game credits
    # Red with 20 points after d11-d14); the search sees it at depth 1.
    game = _ffa(YELLOW_BACK_RANK)
    result = polychess.Engine(hash_mb=8).search(game, depth=1)
    assert str(result.best_move) == "d11d14" and result.mate_in == 1
    game.push(result.best_move)
    assert game.points[polychess.Colour.RED] == 20
    assert [(e.player, e.by) for e in game.eliminations] == [(polychess.Colour.YELLOW, polychess.Colour.RED)]


def test_module_docstring_examples():
    import doctest

    from polychess import rules, simulate

    for module in (rules, simulate):
        failures, tried = doctest.testmod(module, verbose=False)
        assert tried > 0 and failures == 0, module.__name__


# -- a start position read from the end of a game (docs/rules.md §1.11, "decided") -------------------


def _after(game: Game, *leavers: str) -> str:
    for player in leavers:
        game.resign(player)
    return game.board.fen()


def test_a_teams_position_with_a_player_out_is_decided_for_the_other_side():
    # as chess.com's FEN4 after a teams mate: Blue's pieces dead, his king gone
    start = cross_position({"h1": "rK", "g14": "yK", "n8": "gK", "a5": "bR"}, controllers="r-yg", statuses="axaa")
    game = Game("four-player", start=start)
    outcome = game.outcome()
    assert outcome is not None and outcome.termination is Termination.DECIDED and outcome.eliminations == ()
    assert outcome.places == {C.RED: 1, C.BLUE: 3, C.YELLOW: 1, C.GREEN: 3}
    assert game.seats == (C.RED, C.BLUE, C.YELLOW, C.GREEN) and not game.legal_moves
    # three-player first_mate_wins: a player out has no side, so nothing is decided by him
    assert not Game("three-player", first_mate_wins=True, start=_after(Game("three-player"), "black")).is_over()
    assert not Game("three-player", players=2).is_over()  # Black's empty seat is no player out


def test_one_player_left_to_move_ends_the_game_at_its_start():
    three = Game("three-player", start=_after(Game("three-player"), "black", "red"))
    assert three.outcome() is not None and three.outcome().termination is Termination.DECIDED
    assert three.outcome().places == {C.WHITE: 1}
    ffa = Game(
        "four-player",
        mode="ffa",
        start=_after(Game("four-player", mode="ffa"), "blue", "green", "yellow"),
        points={"red": 4},
    )
    assert ffa.outcome() is not None and ffa.outcome().termination is Termination.DECIDED
    assert ffa.outcome().points == {C.RED: 4}
    # two still to move: the game goes on
    assert not Game("four-player", mode="ffa", start=_after(Game("four-player", mode="ffa"), "blue")).is_over()
    assert not Game("three-player", start=_after(Game("three-player"), "black")).is_over()


def test_one_player_left_to_move_beside_a_frozen_one_is_a_draw():
    # White frozen, Black out, Red to move alone: drawn among White and Red, as after a stalemate
    fen = position_text({"E1": "wK", "H8": "rK", "A1": "rR"}, turn="r", controllers="wr-", statuses="fax")
    game = Game("three-player", start=fen)
    assert game.outcome() is not None and game.outcome().termination is Termination.STALEMATE
    assert game.outcome().places == {C.WHITE: 1, C.RED: 1}
