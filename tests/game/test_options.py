"""Game options (polychess.options): one declaration and one validator, used by Game, the
command line, the web app and the game-record reader alike. A refused option raises
OptionError, a ValueError naming the option and what is allowed; each caller reports it in its
own way (the command line exits 2 with one line, the web answers 400, the record reader raises
RecordError with the line)."""

from __future__ import annotations

import dataclasses
import inspect

import pytest

from polychess import Board, Clock, Colour, Game
from polychess.cli import main
from polychess.formats import RecordError, read_record
from polychess.options import OPTIONS, OptionError, Options, option, validate_options
from polychess.web.errors import ApiError
from polychess.web.options import _GAME_FIELDS, parse_game_options

NAN, INF = float("nan"), float("inf")
START = Board("three-player").fen()

# (variant, options, the option the error names, what the message says is allowed)
REFUSED = [
    # only a seat of the game may move first, named in full (not just by its first letter)
    ("three-player", {"first_player": "blue"}, "first_player", "one of white, red, black"),
    ("four-player", {"first_player": "black"}, "first_player", "one of red, blue, yellow, green"),
    ("standard", {"first_player": "red"}, "first_player", "one of white, black"),
    ("three-player", {"players": 2, "first_player": "black"}, "first_player", "one of white, red"),
    ("three-player", {"first_player": "Blue"}, "first_player", "a colour (white, red, black, blue, yellow, green)"),
    ("three-player", {"first_player": 1}, "first_player", "a colour"),
    # options of another variant mean nothing there
    ("four-player", {"players": 2}, "players", "an option of three-player chess only"),
    ("four-player", {"first_mate_wins": True}, "first_mate_wins", "an option of three-player chess only"),
    ("four-player", {"neutrality": True}, "neutrality", "an option of three-player chess only"),
    ("standard", {"players": 2}, "players", "an option of three-player chess only"),
    ("three-player", {"move_limit": 10}, "move_limit", "an option of four-player chess only"),
    ("standard", {"rotate_first_player": True}, "rotate_first_player", "an option of four-player chess only"),
    ("standard", {"mode": "teams"}, "mode", "an option of four-player chess only"),
    # clocks: finite, positive seconds (a NaN clock never runs out)
    ("three-player", {"time_control": NAN}, "time_control", "a finite number greater than 0"),
    ("three-player", {"time_control": INF}, "time_control", "a finite number greater than 0"),
    ("three-player", {"time_control": 0}, "time_control", "a finite number greater than 0"),
    ("three-player", {"time_control": "60"}, "time_control", "must be a number"),
    ("three-player", {"time_control": True}, "time_control", "must be a number"),
    ("three-player", {"time_control": 60, "increment": NAN}, "increment", "a finite number of at least 0"),
    ("three-player", {"time_control": 60, "increment": INF}, "increment", "a finite number of at least 0"),
    ("three-player", {"time_control": 60, "increment": -1}, "increment", "a finite number of at least 0"),
    ("three-player", {"increment": 5}, "increment", "needs time_control"),
    ("three-player", {"hourglass": True}, "hourglass", "needs time_control"),
    # a move limit is a whole number of plies
    ("four-player", {"move_limit": 2.5}, "move_limit", "must be a whole number"),
    ("four-player", {"move_limit": True}, "move_limit", "must be a whole number"),
    ("four-player", {"move_limit": 0}, "move_limit", "a whole number from 1 to 1000000000"),
    ("four-player", {"move_limit": 10**9 + 1}, "move_limit", "a whole number from 1 to 1000000000"),
    # choices and flags
    ("three-player", {"players": True}, "players", "one of 2, 3"),
    ("three-player", {"players": 4}, "players", "one of 2, 3"),
    ("four-player", {"mode": "solo"}, "mode", "one of teams, ffa"),
    ("four-player", {"setup": "old"}, "setup", "one of modern, classic"),
    ("three-player", {"neutrality": 1}, "neutrality", "true or false"),
    ("hexagonal", {}, "variant", "one of three-player, standard, four-player"),
    ("three-player", {"players": 2, "start": START}, "start", "give either players=2 or start"),
]


@pytest.mark.parametrize("variant, options, name, allowed", REFUSED)
def test_game_refuses_the_option_and_names_it(variant, options, name, allowed):
    with pytest.raises(OptionError) as info:
        Game(variant, **options)
    error = info.value
    assert isinstance(error, ValueError)
    assert error.option == name
    assert name in str(error) and allowed in str(error)


def test_first_player_is_the_seat_named():
    assert Game("three-player", first_player="red").turn == Colour.RED
    assert Game("three-player", first_player="black").turn == Colour.BLACK
    assert Game("four-player", first_player="blue").turn == Colour.BLUE
    assert Game("four-player", first_player=Colour.GREEN).turn == Colour.GREEN
    assert Game("standard", first_player="black").turn == Colour.BLACK
    assert Game("three-player", players=2, first_player="red").turn == Colour.RED


def test_off_values_are_accepted_everywhere():
    """False for a flag and 0 for the increment mean "not used", so they fit every variant."""
    game = Game("four-player", first_mate_wins=False, neutrality=False, increment=0, hourglass=False)
    assert not game.first_mate_wins and not game.neutrality and game.clock is None
    assert Game("standard", rotate_first_player=False).options == Game("standard").options


def test_options_are_resolved():
    options = validate_options({"variant": "four-player", "mode": "ffa", "time_control": 60})
    assert options == Options(
        variant="four-player",
        mode="ffa",
        setup="modern",
        start=None,
        first_player=None,
        rotate_first_player=False,
        move_limit=None,
        first_mate_wins=False,
        neutrality=False,
        players=None,
        time_control=60.0,
        increment=0.0,
        hourglass=False,
    )
    assert options.arguments() == {"mode": "ffa", "time_control": 60.0}
    assert validate_options({}).variant == "three-player" and validate_options({}).players == 3


def test_the_declaration_and_the_resolved_options_name_the_same_options():
    assert [f.name for f in dataclasses.fields(Options)] == [o.name for o in OPTIONS]


def test_game_and_the_browser_form_take_the_declared_options_by_their_names():
    # Game's keyword arguments are written out (for help and type checkers): each is a declared
    # option, and each declared option is one, beside the clock's time source and the start points.
    parameters = set(inspect.signature(Game.__init__).parameters) - {"self"}
    assert parameters - {o.name for o in OPTIONS} == {"time_source", "points"}
    assert {o.name for o in OPTIONS} <= parameters
    assert set(_GAME_FIELDS) <= {o.name for o in OPTIONS}


def test_unknown_option():
    with pytest.raises(OptionError, match="unknown option 'colour'") as info:
        validate_options({"colour": "red"})
    assert info.value.option == "colour"


def test_bounds_narrow_the_range():
    with pytest.raises(OptionError, match=r"time_control must be between 1 and 10, got 0.5"):
        validate_options({"time_control": 0.5}, bounds={"time_control": (1, 10)})
    assert validate_options({"time_control": 10}, bounds={"time_control": (1, 10)}).time_control == 10.0


def test_messages_can_name_the_options_otherwise():
    with pytest.raises(OptionError) as info:
        Game(players=2, start=START)
    assert (
        info.value.spelled({"players=2": "--two-players", "start": "--fen"})
        == "--two-players sets up its own start position; give either --two-players or --fen"
    )
    # a value quoted in the message is never taken for an option's name
    with pytest.raises(OptionError) as info:
        Game("four-player", mode="{mode}")
    assert info.value.spelled({"mode": "--mode"}) == "--mode must be one of teams, ffa, got '{mode}'"


def test_values_read_from_text():
    assert option("move_limit").from_text("12") == 12
    assert option("players").from_text("2") == 2
    assert option("time_control").from_text("1e-05") == 1e-05
    for text in ("2.5", "inf", "-3", ""):
        with pytest.raises(OptionError, match="move_limit must be a whole number"):
            option("move_limit").from_text(text)
    for text in ("nan", "inf", "soon"):
        with pytest.raises(OptionError, match="time_control must be a number"):
            option("time_control").from_text(text)
    for value in (300.0, 2.5, 0.1, 1e-05, Colour.RED, 7):
        spec = option("first_player") if isinstance(value, Colour) else option("time_control")
        assert spec.from_text(spec.to_text(value)) == value


@pytest.mark.parametrize("initial, increment", [(NAN, 0), (INF, 0), (0, 0), (60, NAN), (60, INF), (60, -1)])
def test_clock_refuses_what_game_refuses(initial, increment):
    with pytest.raises(OptionError):
        Clock([Colour.WHITE, Colour.BLACK], initial, increment)


# --------------------------------------------------------------------------- the callers


@pytest.mark.parametrize(
    "args, message",
    [
        (
            ["--variant", "four-player", "--first-player", "black"],
            "--first-player must be one of red, blue, yellow, green (the seats in play), got 'black'",
        ),
        (
            ["--variant", "four-player", "--two-players"],
            "--two-players does not apply to four-player (--two-players is an option of three-player chess only)",
        ),
        (["--variant", "four-player", "--first-mate-wins"], "--first-mate-wins does not apply to four-player"),
        (
            ["--variant", "four-player", "--move-limit", "0"],
            "--move-limit must be a whole number from 1 to 1000000000, got 0",
        ),
        (["--variant", "four-player", "--move-limit", "2.5"], "--move-limit must be a whole number, got '2.5'"),
        (["--clock", "0"], "--clock must be a finite number greater than 0, got 0"),
        (["--clock", "fast"], "--clock: expected SECONDS or SECONDS+INCREMENT (e.g. 300+5), got 'fast'"),
        (["--variant", "three-player", "--first-player", "Blue"], "--first-player must be one of white, red, black"),
        (["--two-players", "--fen", START], "--two-players sets up its own start position"),
    ],
)
def test_command_line_exits_2_with_one_line(capsys, args, message):
    assert main(["play", "--no-color", *args]) == 2
    err = capsys.readouterr().err
    assert message in err and len(err.strip().splitlines()) == 1 and "Traceback" not in err


@pytest.mark.parametrize(
    "data, message",
    [
        ({"variant": "three-player", "time_control": NAN}, "time_control must be between 1 and 86400, got nan"),
        ({"variant": "three-player", "time_control": 60, "increment": INF}, "increment must be between 0 and 3600"),
        ({"variant": "four-player", "move_limit": 2.5}, "move_limit must be a whole number, got 2.5"),
        ({"variant": "four-player", "move_limit": True}, "move_limit must be a whole number, got True"),
        ({"variant": "four-player", "players": 2}, "players does not apply to four-player"),
        ({"variant": "four-player", "first_mate_wins": True}, "first_mate_wins does not apply to four-player"),
    ],
)
def test_web_answers_400(data, message):
    with pytest.raises(ApiError) as info:
        parse_game_options({**data, "engines": []})
    assert info.value.status == 400 and message in info.value.message


def test_web_passes_the_checked_options_on():
    options = parse_game_options(
        {
            "variant": "three-player",
            "players": 2,
            "time_control": 60,
            "increment": 2,
            "hourglass": True,
            "neutrality": False,
        }
    )
    assert options.game_kwargs == {"players": 2, "time_control": 60.0, "increment": 2.0, "hourglass": True}
    assert [c.value for c in Game(options.variant, **options.game_kwargs).seats] == ["white", "red"]


@pytest.mark.parametrize(
    "tags, line, message",
    [
        ('[Variant "four-player"]\n[Options "players=2"]', 2, "players does not apply to four-player"),
        ('[Variant "four-player"]\n[Options "first_mate_wins"]', 2, "first_mate_wins does not apply to four-player"),
        ('[Variant "four-player"]\n[Options "move_limit=2.5"]', 2, "move_limit must be a whole number, got '2.5'"),
        ('[Variant "three-player"]\n[Options "first_player=blue"]', 2, "first_player must be one of white, red, black"),
        ('[Variant "standard"]\n[Options "neutrality"]', 2, "neutrality does not apply to standard"),
        ('[Options "neutrality=yes"]', 1, "neutrality is a flag and takes no value"),
        ('[Options "players"]', 1, "option players needs a value"),
        ('[Options "neutrality neutrality"]', 1, "option neutrality given twice"),
        ('[Options "time_control=60"]', 1, "unknown option 'time_control=60'"),
        ('[Variant "three-player"]\n[TimeControl "inf+0"]', 2, "bad TimeControl 'inf+0'"),
        ('[Variant "three-player"]\n[TimeControl "nan+0"]', 2, "bad TimeControl 'nan+0'"),
        ('[Variant "three-player"]\n[TimeControl "0+5"]', 2, "TimeControl must be a finite number greater than 0"),
        ('[Options "hourglass"]', 1, "hourglass does not apply to a game without TimeControl"),
        (f'[Options "players=2"]\n[StartPosition "{START}"]', 2, "give either players=2 or StartPosition"),
    ],
)
def test_record_reader_raises_record_error(tags, line, message):
    with pytest.raises(RecordError) as info:
        read_record(tags + "\n\n*\n")
    assert info.value.line == line and message in info.value.problem
