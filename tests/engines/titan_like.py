"""A fake four-player engine that speaks the dialect of obryanlouis/4pchess's ``cli``
("Titan"), for the client's tests: what it prints and what it does not, as read from Titan's
command loop and seen from the real program (docs/protocol.md, "Titan's dialect").

- ``id name 4pChess 0.1``; options Hash and UCI_ShowCurrLine; any other option is refused
  with ``info string invalid command: 'Unrecognized option: <name>'``.
- ``position``: an unreadable FEN4 or move is answered only by ``info string Invalid FEN: ...``
  or ``info string Invalid move '...'``, and the previous position is kept.
- ``go``: honours ``movetime`` and ``depth`` only. Its first iteration takes 30 ms, so a
  ``movetime`` under 30 prints nothing at all, not even a bestmove. An unknown word (``wtime``)
  makes it stop reading its input forever, as Titan's option parser loops.
- ``info depth D time T nodes N pv m1 m2 score S nps X`` (``score`` without ``cp``, after the
  pv), moves written ``h2-h3`` and ``e10-e11=Q``.
- It does not end at the end of its input: only ``quit`` ends it.

Flags make it misbehave in other ways: ``--die-on-go``, ``--hang-on-go`` (no answer to
anything after ``go``), ``--illegal`` (plays a move that is not legal), ``--garbage`` (a bestmove
that is no move), ``--refuse-fen`` (no ``position fen`` can be read), ``--ignore-quit``,
``--flood-on-uci`` (``id`` lines without end instead of the handshake), ``--flood-on-go`` (``info``
lines without end, no pv, no bestmove), ``--close-stdout-on-go`` (closes its output and keeps
running), ``--long-name`` (an ``id name`` line of a megabyte).
"""

from __future__ import annotations

import os
import sys
import time

from polychess.game import Game
from polychess.protocol.games import GAME_KINDS, PositionError, read_position

FLAGS = set(sys.argv[1:])
KIND = GAME_KINDS["four-player-teams"]


def say(line: str) -> None:
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def dashed(move: object) -> str:
    text = f"{move.from_cell}-{move.to_cell}"  # type: ignore[attr-defined]
    promotion = getattr(move, "promotion", None)
    return text + (f"={str(promotion)[0].upper()}" if promotion else "")


def forever() -> None:
    while True:
        time.sleep(3600)


def flood(line: str) -> None:
    """Prints the line without end, as fast as it can (until its reader is gone)."""
    chunk = (line + "\n") * 1000
    while True:
        sys.stdout.write(chunk)


def go(game: Game, words: list[str]) -> None:
    limits: dict[str, int] = {}
    i = 0
    while i < len(words):
        if words[i] in (
            "movetime",
            "depth",
            "nodes",
            "rtime",
            "btime",
            "ytime",
            "gtime",
            "rinc",
            "binc",
            "yinc",
            "ginc",
            "moves_to_go",
            "mate",
        ):
            limits[words[i]] = int(words[i + 1])
            i += 2
        elif words[i] in ("ponder", "infinite"):
            i += 1
        else:
            forever()  # Titan's option parser never gets past a word it does not know
    if "--die-on-go" in FLAGS:
        sys.exit(3)
    if "--hang-on-go" in FLAGS:
        forever()
    if "--flood-on-go" in FLAGS:
        flood("info depth 1 score cp 0 nodes 1")
    if "--close-stdout-on-go" in FLAGS:
        sys.stdout.close()
        os.close(1)
        forever()
    if game.is_over():
        say(
            "info string Game completed. RY won."
            if game.outcome().winners[0].value in ("red", "yellow")
            else "info string Game completed. BG won."
        )
        return
    if "movetime" in limits and limits["movetime"] < 30:
        time.sleep(limits["movetime"] / 1000)
        return  # cancelled before its first iteration finished: nothing printed
    moves = sorted(game.legal_moves, key=str)
    best = moves[len(moves) // 2]
    say(f"info depth 1 time 30 nodes {len(moves)} pv {dashed(best)} score 61 nps 1000")
    time.sleep(min(limits.get("movetime", 30), 200) / 1000)
    if "--illegal" in FLAGS:
        say("bestmove a1-a2")
    elif "--garbage" in FLAGS:
        say("bestmove @@@")
    else:
        say(f"bestmove {dashed(best)}")


def main() -> None:
    game = Game.from_kind(KIND)
    while True:
        line = sys.stdin.readline()
        if not line:
            forever()  # Titan spins at the end of its input; it never quits by itself
        words = line.split()
        if not words:
            continue
        command = words[0]
        if command == "uci" and "--flood-on-uci" in FLAGS:
            flood("id name 4pChess 0.1")
        elif command == "uci":
            name = "4pChess 0.1" + ("!" * (1 << 20) if "--long-name" in FLAGS else "")
            for text in (
                f"id name {name}",
                "id author Louis O.",
                "option name Hash type spin default 100",
                "option name UCI_ShowCurrLine type check default false",
                "uciok",
            ):
                say(text)
        elif command == "isready":
            say("readyok")
        elif command == "setoption" and len(words) == 5 and words[2].lower() in ("hash", "threads", "uci_showcurrline"):
            pass
        elif command == "setoption" and len(words) == 5:
            say(f"info string invalid command: 'Unrecognized option: {words[2].lower()}'")
        elif command == "ucinewgame":
            game = Game.from_kind(KIND)
        elif command == "position" and words[1:2] == ["fen"] and "--refuse-fen" in FLAGS:
            say(f"info string Invalid FEN: {' '.join(words[2:])}")
        elif command == "position":
            try:
                game = read_position(KIND, words[1:])
            except PositionError as error:
                kind = "FEN" if "FEN4" in str(error) or "position" in str(error) else "move"
                say(
                    f"info string Invalid FEN: {' '.join(words[2:])}"
                    if kind == "FEN"
                    else f"info string Invalid move '{str(error).split(chr(39))[1]}'"
                )
        elif command == "go":
            go(game, words[1:])
        elif command == "quit" and "--ignore-quit" not in FLAGS:
            return
        else:
            say(f"info string invalid command: '{line.strip()}'")


if __name__ == "__main__":
    main()
