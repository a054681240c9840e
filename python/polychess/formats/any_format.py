"""Games in and out of every text format polychess knows, for a program that takes whatever a
user pastes (the browser's Load record) and offers each game its own formats (Save record).

In: a position string alone on a line (FEN in standard chess, chess.com's FEN4 in four-player
chess, the position strings of docs/position-strings.md in every game), chess.com's PGN4, a
polychess game record (docs/game-records.md), or PGN, told apart by their look. Out: the game's
own record format (PGN, PGN4 or the polychess record), the polychess record in every game, the
position as it stands as a position string, and as FEN4 where the game's records are PGN4.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping

from polychess.board import Board
from polychess.catalogue import VARIANTS, GameKind
from polychess.formats.fen4 import Fen4Error, read_fen4, write_fen4
from polychess.formats.pgn import PgnError, read_pgn, write_pgn
from polychess.formats.pgn4 import read_pgn4, write_pgn4
from polychess.formats.record import RecordError, read_record, write_record
from polychess.game import Game

__all__ = ["EXPORTS", "export", "export_label", "exports_of", "read_game", "read_own", "write_own"]

# What a game can be written as besides its own record format ("own", named and suffixed as
# that format): name -> (its name in a menu, the file suffix).
EXPORTS = {"record": ("polychess record", ".txt"), "position": ("position", ".fen"), "fen4": ("FEN4", ".fen4")}


# Each record format's reader and writer, by its name in the catalogue (``GameKind.record_format``).
_RECORD_FORMATS: dict[str, tuple[Callable[[str], Game], Callable[[Game, Mapping[str, str] | None], str]]] = {
    "pgn": (read_pgn, write_pgn),
    "pgn4": (read_pgn4, write_pgn4),
    "record": (read_record, write_record),
}

# PGN4's own tags: a record with one of them is chess.com's, whatever else it holds.
_PGN4_MARK = re.compile(r'^\[(StartFen4 |Variant "(FFA|Teams|Solo)")', re.IGNORECASE | re.MULTILINE)
# PGN's start position, which the polychess record would skip as a tag it does not know (and
# read a PGN without moves as the record's default game, three-player chess).
_PGN_MARK = re.compile(r"^\[(FEN|SetUp) ", re.MULTILINE)
_VARIANT_TAG = re.compile(r"^\[Variant ", re.MULTILINE)


def read_game(text: str) -> Game:
    """The game that ``text`` holds, in any of the formats above; a ValueError naming what
    each format that could be meant found wrong."""
    stripped = text.strip()
    if not stripped:
        raise ValueError("the text is empty: no game to read")
    if "\n" not in stripped and stripped.count("/") >= 7:  # a board's ranks: a position, not moves
        return _game_at(stripped)
    if _PGN4_MARK.search(stripped):
        return read_pgn4(stripped)
    if _PGN_MARK.search(stripped) and not _VARIANT_TAG.search(stripped):
        return read_pgn(stripped)
    try:
        return read_record(stripped)
    except RecordError as record_error:
        try:
            return read_pgn(stripped)
        except PgnError as pgn_error:
            raise ValueError(f"not a polychess record ({record_error}), nor PGN ({pgn_error})") from None


def read_own(kind: GameKind, text: str) -> Game:
    """The game that a record in ``kind``'s own format (``kind.record_format``) holds, with that
    format's errors."""
    return _RECORD_FORMATS[kind.record_format.name][0](text)


def write_own(game: Game, tags: Mapping[str, str] | None = None) -> str:
    """The game's record in its own format (``game.kind.record_format``), with extra tags
    (player names, event, ...)."""
    return _RECORD_FORMATS[game.kind.record_format.name][1](game, tags)


def _game_at(position: str) -> Game:
    """A game from a position string of any game, or a FEN4."""
    problems = []
    for variant in VARIANTS:
        try:
            Board(variant, position)
        except ValueError as error:
            problems.append(f"{variant}: {error}")
            continue
        return Game(variant, start=position)
    try:
        fen4 = read_fen4(position)
    except Fen4Error as error:
        problems.append(str(error))
    else:
        mode = "ffa" if any(fen4.points.values()) else "teams"  # FEN4 names no mode; points are free-for-all's
        return read_pgn4(f'[Variant "{mode}"]\n[StartFen4 "{position}"]\n\n*\n', setup=fen4.setup)
    raise ValueError("not a position of any game: " + "; ".join(problems))


def exports_of(game: Game) -> tuple[str, ...]:
    """The ways the game can be written that apply to it: ``own`` (where its record format is
    not the polychess record) and names of :data:`EXPORTS`."""
    own = game.kind.record_format.name
    names = ["own"] if own != "record" else []
    names += ["record", "position"]
    if own == "pgn4":  # FEN4 is PGN4's position string
        names.append("fen4")
    return tuple(names)


def export_label(game: Game, name: str) -> str:
    """The name of one of :func:`exports_of`'s in a menu (``own``: its format's, PGN or PGN4)."""
    return game.kind.record_format.name.upper() if name == "own" else EXPORTS[name][0]


def export(game: Game, name: str, tags: Mapping[str, str] | None = None) -> tuple[str, str]:
    """The game written as ``name`` (one of :func:`exports_of`'s), records with extra ``tags``
    (player names, ...), and the suffix of a file of it; a ValueError for a name that does not
    apply."""
    if name not in exports_of(game):
        raise ValueError(f"{name!r} does not apply to {game.kind.name} (it has {', '.join(exports_of(game))})")
    if name == "own":
        return write_own(game, tags), game.kind.record_format.suffix
    if name == "record":
        return write_record(game, tags), EXPORTS[name][1]
    if name == "fen4":
        return write_fen4(game.board, game.points or None) + "\n", EXPORTS[name][1]
    return game.board.fen() + "\n", EXPORTS[name][1]
