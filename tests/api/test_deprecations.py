"""Renamed names (polychess.deprecation): each old spelling still gives what the new one does
for one release, and warns with the new name."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest

import polychess
from polychess import Board, Colour, Game, Piece, PieceType
from polychess.catalogue import kind_of
from polychess.deprecation import REMOVED_IN, PolychessDeprecationWarning
from polychess.rules import THREE_PLAYER, Rules


def _old_and_new() -> list[tuple[str, str, Callable[[], object], Callable[[], object]]]:
    game = Game("four-player", mode="ffa")
    piece = Piece(Colour.RED, PieceType.KING)
    text = THREE_PLAYER.to_text()

    def board_kind() -> object:
        from polychess.board import Kind  # type: ignore[attr-defined]

        return Kind

    def pieces_kind() -> object:
        from polychess.pieces import Kind  # type: ignore[attr-defined]

        return Kind

    def protocol_lookup() -> object:
        from polychess.protocol.games import game_kind

        return game_kind("four-player", "ffa")

    def family_lookup() -> object:
        from polychess.catalogue import kind_of_family

        return kind_of_family("four-player-ffa")

    return [
        ("polychess.Kind", "polychess.PieceType", lambda: polychess.Kind, lambda: PieceType),  # type: ignore[attr-defined]
        ("polychess.board.Kind", "polychess.board.PieceType", board_kind, lambda: PieceType),
        ("polychess.pieces.Kind", "polychess.pieces.PieceType", pieces_kind, lambda: PieceType),
        ("Piece.kind", "Piece.piece_type", lambda: piece.kind, lambda: piece.piece_type),
        (
            "polychess.protocol.games.game_kind",
            "polychess.catalogue.kind_of",
            protocol_lookup,
            lambda: kind_of("four-player-ffa"),
        ),
        (
            "polychess.catalogue.kind_of_family",
            "polychess.catalogue.kind_of",
            family_lookup,
            lambda: kind_of("four-player-ffa"),
        ),
        ("Game.position", "Game.live_board", lambda: game.position, lambda: game.live_board),
        ("Game.start_position", "Game.start_fen", lambda: game.start_position, lambda: game.start_fen),
        ("Rules.to_core", "Rules.to_text", THREE_PLAYER.to_core, THREE_PLAYER.to_text),
        ("Rules.from_core", "Rules.from_text", lambda: Rules.from_core(text), lambda: Rules.from_text(text)),
    ]


@pytest.mark.parametrize("old, new, use_old, use_new", _old_and_new(), ids=lambda v: v if isinstance(v, str) else "")
def test_an_old_name_warns_with_the_new_one_and_gives_the_same(
    old: str, new: str, use_old: Callable[[], object], use_new: Callable[[], object]
) -> None:
    message = f"{old} is deprecated, use {new} (the old name goes in polychess {REMOVED_IN})"
    with pytest.warns(PolychessDeprecationWarning, match=re.escape(message)) as caught:
        value = use_old()
    assert value == use_new()
    assert caught[0].filename == __file__  # the warning points at the line that wrote the old name


def test_an_unknown_name_is_still_an_attribute_error() -> None:
    with pytest.raises(AttributeError, match="module 'polychess' has no attribute 'Kinds'"):
        polychess.Kinds  # type: ignore[attr-defined]  # noqa: B018


def test_the_new_names_are_what_the_package_exports() -> None:
    assert "PieceType" in polychess.__all__ and "Kind" not in polychess.__all__
    assert Board("standard").piece_at("e1") == Piece(Colour.WHITE, PieceType.KING)
    assert Board("standard").piece_at("e1").piece_type is PieceType.KING  # type: ignore[union-attr]
