"""Text formats: game records for every variant, PGN for standard chess, and chess.com's FEN4
and PGN4 for four-player chess (position strings are read and written by Board itself)."""

from polychess.formats.any_format import read_own, write_own
from polychess.formats.fen4 import Fen4, Fen4Error, read_fen4, write_fen4
from polychess.formats.pgn import PgnError, read_pgn, write_pgn
from polychess.formats.pgn4 import Pgn4Error, Pgn4Record, parse_pgn4, read_pgn4, write_pgn4
from polychess.formats.record import RecordError, read_record, write_record

__all__ = [
    "Fen4",
    "Fen4Error",
    "PgnError",
    "Pgn4Error",
    "Pgn4Record",
    "RecordError",
    "parse_pgn4",
    "read_fen4",
    "read_pgn",
    "read_pgn4",
    "read_own",
    "read_record",
    "write_fen4",
    "write_pgn",
    "write_pgn4",
    "write_own",
    "write_record",
]
