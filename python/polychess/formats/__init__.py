"""Text formats: game records (position strings are read and written by Board itself)."""

from polychess.formats.record import RecordError, read_record, write_record

__all__ = ["RecordError", "read_record", "write_record"]
