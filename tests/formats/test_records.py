"""Game records (docs/game-records.md): written and read back to the identical game; bad
records rejected with the line and the problem."""

import dataclasses
import itertools
import random

import pytest

from polychess import VARIANTS, Board, Colour, Game, Termination
from polychess.formats import RecordError, read_record, write_record
from polychess.options import OPTIONS, OptionError, option, validate_options
from positions import position


def same_game(a: Game, b: Game) -> None:
    assert a.history == b.history
    assert a.board.fen() == b.board.fen()
    assert a.outcome() == b.outcome()
    assert a.eliminations == b.eliminations
    assert (a.variant, a.first_mate_wins, a.neutrality, a.players) == (
        b.variant,
        b.first_mate_wins,
        b.neutrality,
        b.players,
    )


def random_game(seed: int, **options) -> Game:
    rng = random.Random(seed)
    game = Game(**options)
    while not game.is_over() and game.ply < 250:
        game.push(rng.choice(list(game.legal_moves)))
        if rng.random() < 0.004:
            game.resign(rng.choice(game.active_players()))
    return game


@pytest.mark.parametrize("seed", range(12))
@pytest.mark.parametrize(
    "options",
    [{}, {"first_mate_wins": True}, {"neutrality": True}, {"players": 2}],
    ids=["plain", "first_mate_wins", "neutrality", "two_players"],
)
def test_round_trip(seed, options):
    game = random_game(seed, **options)
    text = write_record(game, {"Event": 'A "quoted" name', "White": "Anna"})
    again = read_record(text)
    same_game(game, again)
    assert write_record(again, {"Event": 'A "quoted" name', "White": "Anna"}) == text


def test_written_form():
    game = Game()
    for move in ["E2E4", "M11M9", "F7F5"]:
        game.push(move)
    game.agree_draw()
    text = write_record(game, {"Event": "Test"})
    assert text.splitlines()[:4] == [
        '[Variant "three-player"]',
        '[Event "Test"]',
        '[Result "1-1-1"]',
        '[Termination "agreement"]',
    ]
    assert text.splitlines()[-1] == "1. E2E4 M11M9 F7F5 draw 1-1-1"


def test_mate_events_are_written_and_checked():
    game = next(
        g
        for g in (random_game(seed) for seed in range(40))
        if any(e.reason.value == "checkmate" for e in g.eliminations)
    )
    text = write_record(game)
    token = next(t for t in text.split() if t.startswith("mate("))
    mated, mater = token[5:-1].split(",")
    other = next(c for c in ("white", "red", "black") if c not in (mated, mater))
    with pytest.raises(RecordError, match="but the game gives"):
        read_record(text.replace(token, f"mate({mated},{other})", 1))
    with pytest.raises(RecordError, match="does not say so|ends before"):
        read_record(text.replace(" " + token, "", 1).replace("\n" + token, "\n", 1))


def test_time_control_and_start_position():
    start = Game().board
    start.push("E2E4")
    game = Game(time_control=300, increment=2, hourglass=True, start=start.fen(), time_source=lambda: 0.0)
    game.push("M11M9")
    text = write_record(game)
    assert '[TimeControl "300+2"]' in text and '[Options "hourglass"]' in text
    assert f'[StartPosition "{start.fen()}"]' in text
    again = read_record(text)
    same_game(game, again)
    assert again.clock is not None and again.clock.increment == 2 and again.clock.hourglass


@pytest.mark.parametrize(
    "record,line,fragment",
    [
        ('[Variant "three-player"\n\n1. E2E4', 1, "malformed tag"),
        ('[Variant "three-player"]\n[Variant "three-player"]\n\n1. E2E4', 2, "twice"),
        ('[Variant "hexchess"]\n\n1. E2E4', 1, "Variant must be one of three-player, standard, four-player"),
        ('[Options "fast"]\n\n1. E2E4', 1, "unknown option"),
        ('[TimeControl "soon"]\n\n1. E2E4', 1, "TimeControl"),
        ('[Options "hourglass"]\n\n1. E2E4', 1, "hourglass"),
        ('[StartPosition "nonsense"]\n\n1. E2E4', 1, "fields"),
        ('[Variant "three-player"]\n\n1. E2E4 M11M9\nF7F5 2. E2E5', 4, "illegal move"),
        ('[Variant "three-player"]\n\n1. E2E4 Z9Z9', 3, "not a cell"),
        ('[Variant "three-player"]\n\n1. E2E4 mate(red,white)', 3, "does not happen"),
        ('[Variant "three-player"]\n\n1. E2E4 resign(green)', 3, "no player"),
        ('[Variant "three-player"]\n\n1. E2E4 {unclosed', 3, r"comment '\{' is never closed"),
        ('[Result "1-2-3"]\n\n1. E2E4 *', 1, "Result tag"),
        ('[Termination "checkmate"]\n\n1. E2E4 *', 1, "Termination tag"),
        ('[Variant "three-player"]\n\n1. E2E4 draw M11M9', 3, "game is over"),
    ],
)
def test_bad_records(record, line, fragment):
    with pytest.raises(RecordError, match=fragment) as info:
        read_record(record)
    assert info.value.line == line and str(info.value).startswith(f"line {line}:")
    assert isinstance(info.value, ValueError)


def test_resignation_and_timeout_events():
    game = Game()
    game.push("E2E4")
    game.resign("black")
    game.push("M11M9")
    game.time_forfeit("white")
    assert game.outcome().termination is Termination.TIME_FORFEIT
    text = write_record(game)
    assert "resign(black)" in text and "timeout(white)" in text
    same_game(game, read_record(text))


# --------------------------------------------------------------------------- every option


def _values_to_try(spec, variant: str, neutrality: bool, mode: str | None, setup: str | None) -> tuple:
    """A few values of one option (polychess.options declares them): both of a flag, every
    choice, no seat or each seat, no number or one."""
    if spec.kind == "flag":
        return (False, True)
    if spec.kind == "choice":
        return spec.choices
    if spec.kind == "seat":
        return (None, *Board(variant).colours)
    if spec.kind == "position":  # the start position after a move
        board = Board(variant, neutrality=neutrality, mode=mode, setup=setup)
        board.push(next(iter(board.legal_moves)))
        return (None, board.fen())
    if spec.name == "move_limit":
        return (None, 7)
    if spec.name == "increment":
        return (0.0, 2.5)
    return (None, 300.0)


def _accepted_combinations():
    """Every combination of those values that the options validator accepts, per variant."""
    for variant in VARIANTS:
        specs = [o for o in OPTIONS if o.name != "variant" and variant in o.variants and o.kind != "position"]
        for values in itertools.product(*(_values_to_try(o, variant, False, None, None) for o in specs)):
            options = dict(zip((o.name for o in specs), values, strict=True))
            mode, setup, neutrality = options.get("mode"), options.get("setup"), options.get("neutrality", False)
            for start in _values_to_try(option("start"), variant, neutrality, mode, setup):
                try:
                    validate_options({"variant": variant, **options, "start": start})
                except OptionError:
                    continue
                yield variant, {**options, "start": start}


COMBINATIONS = list(_accepted_combinations())


def test_every_accepted_option_combination_is_tried():
    assert len(COMBINATIONS) > 1000
    assert (
        "standard",
        {"first_player": Colour.BLACK, "time_control": None, "increment": 0.0, "hourglass": False, "start": None},
    ) in COMBINATIONS


@pytest.mark.parametrize("chunk", range(8))
def test_round_trip_with_every_accepted_option_combination(chunk):
    """A game the constructor accepts can be written and read back, options and all (a standard
    game with Black to move first, a clock with a fractional increment, a move limit...)."""
    for index in range(chunk, len(COMBINATIONS), 8):
        variant, options = COMBINATIONS[index]
        game = Game(variant, time_source=lambda: 0.0, **options)
        rng = random.Random(index)
        for _ in range(3):
            if not game.is_over():
                game.push(rng.choice(list(game.legal_moves)))
        text = write_record(game)
        again = read_record(text)
        same_game(game, again)
        assert again.start_fen == game.start_fen and again.turn == game.turn
        assert dataclasses.replace(again.options, start=None) == dataclasses.replace(game.options, start=None)
        assert write_record(again) == text


@pytest.mark.parametrize(
    "variant, start",
    [("standard", "8/8/8/8/8/8/8/K6k w - - 0 1"), ("three-player", position({"E1": "wK", "D12": "rK", "K8": "bK"}))],
)
def test_a_game_over_at_its_start_is_written_and_read_back(variant, start):
    game = Game(variant, start=start)
    assert game.outcome() is not None
    text = write_record(game)
    assert '[Termination "insufficient material"]' in text
    same_game(game, read_record(text))
