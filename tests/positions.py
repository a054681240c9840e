"""Writing and reading three-player position strings (docs/position-strings.md) in tests,
independently of both the engine and the reference."""

from __future__ import annotations


def files_of_rank(rank: int) -> str:
    """The files of a rank's eight cells, in the order position strings list them."""
    return "ABCDEFGH" if rank <= 4 else "EFGHKLMN" if rank <= 8 else "ABCDKLMN"


def position(pieces: dict[str, str], turn: str = "w", castling: str = "-", ep: str = "-",
             halfmove: int = 0, fullmove: int = 1, controllers: str = "wrb",
             statuses: str = "aaa") -> str:
    """A position string from {cell: 'wK', ...} and the other fields."""
    for name in pieces:
        assert name[0] in files_of_rank(int(name[1:])), f"no cell {name}"
    rows = []
    for rank in range(12, 0, -1):
        text, run = "", 0
        for f in files_of_rank(rank):
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
    return " ".join(["/".join(rows), turn, castling, ep, str(halfmove), str(fullmove),
                     controllers, statuses])


def placement(pos: str) -> dict[str, str]:
    """The placement field of a position string as {cell: 'wK', ...}."""
    out = {}
    for rank, text in zip(range(12, 0, -1), pos.split(" ")[0].split("/")):
        files = files_of_rank(rank)
        i = j = 0
        while j < len(text):
            if text[j].isdigit():
                i += int(text[j])
                j += 1
            else:
                out[f"{files[i]}{rank}"] = text[j:j + 2]
                i += 1
                j += 2
        assert i == 8
    return out
