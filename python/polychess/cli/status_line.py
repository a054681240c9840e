"""A line of progress on stderr, redrawn in place while a long command runs."""

from __future__ import annotations

import shutil
from types import TracebackType
from typing import TextIO

__all__ = ["StatusLine"]


class StatusLine:
    """One line redrawn in place (``\\r``) when the stream is a terminal, and nothing at all
    otherwise: a pipe or a log file gets results only, not a trail of half-lines. Used as a
    context manager it wipes itself at the end, also when the command is interrupted."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream
        isatty = getattr(stream, "isatty", None)
        self.live = bool(isatty and isatty())
        self._shown = 0  # length of the text on the line now

    def show(self, text: str) -> None:
        if not self.live:
            return
        # A line wider than the terminal wraps, and "\r" would then redraw only its last part.
        text = text[: max(1, shutil.get_terminal_size().columns - 1)]
        self.stream.write("\r" + text.ljust(self._shown))
        self.stream.flush()
        self._shown = len(text)

    def clear(self) -> None:
        """Wipes the line, so that what is printed next (to stdout, on the same terminal) does
        not land behind it."""
        if self._shown:
            self.stream.write("\r" + " " * self._shown + "\r")
            self.stream.flush()
            self._shown = 0

    def __enter__(self) -> StatusLine:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, traceback: TracebackType | None
    ) -> None:
        self.clear()
