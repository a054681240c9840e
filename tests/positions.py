"""Writing and reading position strings (docs/position-strings.md) in tests, independently
of both the engine and the reference."""

from __future__ import annotations

from collections.abc import Callable


def files_of_rank(rank: int) -> str:
    """The files of a hexagon rank's eight cells, in the order position strings list them."""
    return "ABCDEFGH" if rank <= 4 else "EFGHKLMN" if rank <= 8 else "ABCDKLMN"


def cross_files_of_rank(rank: int) -> str:
    """The files of a four-player rank's squares (the corners are missing)."""
    return "defghijk" if rank <= 3 or rank >= 12 else "abcdefghijklmn"


def _placement(pieces: dict[str, str], ranks: int, files_of: Callable[[int], str]) -> str:
    for name in pieces:
        assert name[0] in files_of(int(name[1:])), f"no cell {name}"
    rows = []
    for rank in range(ranks, 0, -1):
        text, run = "", 0
        for f in files_of(rank):
            piece = pieces.get(f"{f}{rank}")
            if piece is None:
                run += 1
                continue
            if run:
                text += str(run)
            run = 0
            text += piece
        if run:
            text += str(run)
        rows.append(text)
    return "/".join(rows)


def position(
    pieces: dict[str, str],
    turn: str = "w",
    castling: str = "-",
    ep: str = "-",
    halfmove: int = 0,
    fullmove: int = 1,
    controllers: str = "wrb",
    statuses: str = "aaa",
) -> str:
    """A three-player position string from {cell: 'wK', ...} and the other fields."""
    return " ".join(
        [_placement(pieces, 12, files_of_rank), turn, castling, ep, str(halfmove), str(fullmove), controllers, statuses]
    )


def cross_position(
    pieces: dict[str, str],
    turn: str = "r",
    castling: str = "-",
    ep: str = "-",
    halfmove: int = 0,
    fullmove: int = 1,
    controllers: str = "rbyg",
    statuses: str = "aaaa",
) -> str:
    """A four-player position string from {square: 'rK', ...} and the other fields."""
    return " ".join(
        [
            _placement(pieces, 14, cross_files_of_rank),
            turn,
            castling,
            ep,
            str(halfmove),
            str(fullmove),
            controllers,
            statuses,
        ]
    )


def placement(pos: str) -> dict[str, str]:
    """The placement field of a position string as {cell: 'wK', ...}."""
    out = {}
    for rank, text in zip(range(12, 0, -1), pos.split(" ")[0].split("/"), strict=True):
        files = files_of_rank(rank)
        i = j = 0
        while j < len(text):
            if text[j].isdigit():
                i += int(text[j])
                j += 1
            else:
                out[f"{files[i]}{rank}"] = text[j : j + 2]
                i += 1
                j += 2
        assert i == 8
    return out
