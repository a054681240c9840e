"""The catalogue of games (polychess.catalogue): one entry per game the core lists, with what the
Python layer knows of it."""

from __future__ import annotations

import pickle
import re

import pytest

from polychess import Board, Colour, Game, _core
from polychess.catalogue import KINDS, VARIANTS, kind_of
from polychess.options import options_of
from polychess.rules import FOUR_PLAYER_FFA, FOUR_PLAYER_TEAMS, STANDARD, THREE_PLAYER


def test_one_entry_per_game_of_the_core_in_its_order():
    assert [(k.variant, k.mode or "", k.setup or "") for k in KINDS] == [v[:3] for v in _core.variants()]
    assert VARIANTS == ("three-player", "standard", "four-player")
    assert [k.name for k in KINDS] == [
        "three-player",
        "standard",
        "four-player-teams",
        "four-player-teams-classic",
        "four-player-ffa",
        "four-player-ffa-classic",
    ]


def test_a_variant_alone_names_its_first_mode_and_setup():
    assert kind_of("four-player") == kind_of("four-player", "teams", "modern")
    assert kind_of("four-player", "ffa").setup == "modern"
    known = "one of three-player, standard, four-player, or a game: three-player, standard, four-player-teams,"
    with pytest.raises(ValueError, match=re.escape(f"unknown variant 'chaos' ({known}")):
        kind_of("chaos")
    with pytest.raises(ValueError, match="unknown mode 'solo'"):
        kind_of("four-player", "solo")


def test_one_lookup_takes_every_name_of_a_game():
    for kind in KINDS:
        assert kind_of(kind.name) is kind
        assert kind_of(kind.name.upper()) is kind
        assert kind_of(kind.uci_variant) is kind
        assert kind_of(kind.family) is kind_of(kind.variant, kind.mode)
        assert kind_of(kind.variant, kind.mode, kind.setup) is kind
    assert kind_of("chess") is kind_of("standard")
    assert kind_of("four-player-ffa-classic") is kind_of("four-player", "ffa", "classic")
    with pytest.raises(ValueError, match="'four-player-ffa' names its mode and setup"):
        kind_of("four-player-ffa", mode="teams")
    with pytest.raises(ValueError, match="mode and setup apply to four-player chess only"):
        kind_of("standard", mode="teams")


def test_each_game_says_its_board_colours_sides_and_rules():
    three, standard, teams = kind_of("three-player"), kind_of("standard"), kind_of("four-player")
    ffa = kind_of("four-player", "ffa")
    assert [k.board for k in (three, standard, teams, ffa)] == ["hexagon", "square", "cross", "cross"]
    assert three.sides == ((Colour.WHITE,), (Colour.RED,), (Colour.BLACK,))
    assert teams.sides == ((Colour.RED, Colour.YELLOW), (Colour.BLUE, Colour.GREEN))  # partners sit opposite
    assert ffa.sides == tuple((c,) for c in ffa.colours)
    assert (three.rules, standard.rules, teams.rules, ffa.rules) == (
        THREE_PLAYER,
        STANDARD,
        FOUR_PLAYER_TEAMS,
        FOUR_PLAYER_FFA,
    )
    assert [k.record_format.name for k in (three, standard, ffa)] == ["record", "pgn", "pgn4"]
    assert ffa.family == "four-player-ffa" == kind_of("four-player", "ffa", "classic").family
    for kind in KINDS:
        assert Board(kind.variant, mode=kind.mode, setup=kind.setup).kind == kind
        assert Game(kind.variant, mode=kind.mode, setup=kind.setup).kind.colours == kind.colours


def test_each_game_lists_the_options_that_apply_to_it():
    assert options_of(kind_of("three-player")) == (
        "variant",
        "start",
        "first_player",
        "first_mate_wins",
        "neutrality",
        "players",
        "time_control",
        "increment",
        "hourglass",
    )
    assert "players" not in options_of(kind_of("standard")) and "mode" not in options_of(kind_of("standard"))
    assert {"mode", "setup", "move_limit", "rotate_first_player"} <= set(options_of(kind_of("four-player")))
    for kind in KINDS:  # an option that applies is taken, one that does not is refused
        Game(kind.variant, **({"mode": kind.mode} if "mode" in options_of(kind) else {}))
        if "neutrality" not in options_of(kind):
            with pytest.raises(ValueError, match="does not apply"):
                Game(kind.variant, neutrality=True)


def test_a_game_kind_pickles_as_its_name():
    for kind in KINDS:
        assert pickle.loads(pickle.dumps(kind)) is kind
