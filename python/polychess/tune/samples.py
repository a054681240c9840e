"""Labelled positions from games: every quiet position of a game after its opening, with the
result each player still in went on to score.

A player's result is his share of the other players he finished ahead of (ties count half):
1 for a sole winner, 0 for the last, as :func:`polychess.match.scoring.place_scores` counts a
seat. Positions in check and positions right after a capture are left out: their static value
says little before the exchange or the escape is played out.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

from polychess.board import Board, Status
from polychess.catalogue import KINDS, GameKind
from polychess.formats.any_format import read_own
from polychess.game import Game
from polychess.match.runner import GameResult
from polychess.training.data import Record

__all__ = [
    "Sample",
    "game_name",
    "game_samples",
    "read_samples",
    "record_samples",
    "replay",
    "result_share",
    "write_samples",
]


@dataclass(frozen=True)
class Sample:
    """A position (polychess's position string) with the points each player held there (free-
    for-all) and the result each player still in scored in the end."""

    game: str  # the weights' name of the game (polychess.evaluation.GAMES)
    position: str
    points: dict[str, int]
    results: dict[str, float]

    def board(self) -> Board:
        game = next(kind for kind in KINDS if kind.family == self.game)
        return Board(game.variant, self.position, mode=game.mode)

    def to_json(self) -> str:
        return json.dumps(
            {"game": self.game, "position": self.position, "points": self.points, "results": self.results},
            separators=(",", ":"),
        )


def result_share(places: Mapping[str, int], player: str) -> float:
    """The share of the other players ``player`` finished ahead of, ties counting half."""
    others = [p for p in places if p != player]
    mine = places[player]
    return sum(1.0 if mine < places[p] else 0.5 if mine == places[p] else 0.0 for p in others) / len(others)


def replay(result: GameResult, kind: GameKind) -> Game:
    """The game of a match result, replayed from its record."""
    return read_own(kind, result.record)


def game_name(kind: GameKind) -> str:
    """The weights' name of a game kind (a four-player setup shares its mode's weights)."""
    return kind.family


def _labelled(game: Game, kind: GameKind, results: Mapping[str, float]) -> Sample:
    """The game's position now, with the points held (where points rank) and the result of each
    player still in."""
    board = game.board
    points = {c.value: n for c, n in game.points.items()} if kind.rules.ranking == "points" else {}
    players_in = {c.value: results[c.value] for c in board.colours if game.status(c) != Status.OUT}
    return Sample(game_name(kind), board.fen(), points, players_in)


def game_samples(result: GameResult, kind: GameKind, skip_plies: int) -> list[Sample]:
    """The quiet positions of one game after its first ``skip_plies`` plies, in order, each
    labelled with the results of the players in there."""
    game = replay(result, kind)
    results = {c: result_share(result.places, c) for c in result.places}
    found: list[Sample] = []
    while game.ply > skip_plies:  # back from the end: the earlier position tells a capture
        board = game.board
        pieces = len(board.pieces())
        sample = None
        if not board.is_check():
            sample = _labelled(game, kind, results)
        game.pop()
        if sample is not None and len(game.board.pieces()) == pieces:
            found.append(sample)
    found.reverse()
    return found


def record_samples(
    record: Record, kind: GameKind, *, skip_plies: int = 8, every: int = 1, phase: int = 0
) -> list[Sample]:
    """The quiet positions of one self-play record (``polychess train generate``'s data: many
    more games for the same time than ``tune generate`` plays, at fewer nodes a move) after its
    first ``skip_plies`` plies, each labelled with the results the record gives. Quiet: not in
    check, not right after a capture, and the move the engine chose there not a capture either.
    ``every`` keeps one such ply in so many (those with ``(ply + phase) % every == 0``: pass the
    record's index as ``phase`` to spread them), since neighbouring positions say nearly the same."""
    if every < 1 or skip_plies < 0:
        raise ValueError(f"every must be at least 1 and skip_plies at least 0, got {every} and {skip_plies}")
    game = Game.from_kind(kind, record.start)
    colours = [c.value for c in game.board.colours]
    results = dict(zip(colours, record.results, strict=True))
    found: list[Sample] = []
    after_capture = False
    for ply, move in enumerate(record.moves):
        board = game.board
        capture = board.is_capture(move)
        if ply >= skip_plies and (ply + phase) % every == 0 and not (after_capture or capture or board.is_check()):
            found.append(_labelled(game, kind, results))
        after_capture = capture
        game.push(move)
    return found


def write_samples(path: Path, samples: Iterable[Sample]) -> int:
    count = 0
    with path.open("w", encoding="utf-8") as stream:
        for sample in samples:
            stream.write(sample.to_json() + "\n")
            count += 1
    return count


def read_samples(path: Path) -> list[Sample]:
    """Samples written by :func:`write_samples`; a ValueError names a bad line."""
    samples = []
    with path.open(encoding="utf-8") as stream:
        for number, line in enumerate(stream, start=1):
            try:
                data = json.loads(line)
                samples.append(Sample(data["game"], data["position"], dict(data["points"]), dict(data["results"])))
            except (ValueError, KeyError, TypeError) as error:
                raise ValueError(f"{path} line {number}: not a sample ({error})") from None
    return samples
