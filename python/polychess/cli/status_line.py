"""A line of progress on stderr while a long command runs: redrawn in place on a terminal, a
line every few seconds in a log file or a pipe, with the time spent and the time left."""

from __future__ import annotations

import shutil
import time
from types import TracebackType
from typing import TextIO

__all__ = ["StatusLine", "duration"]

# Where stderr is no terminal, a line of progress this often (the first one after as long: a
# short command writes none).
LOG_EVERY = 5.0


class StatusLine:
    """One line redrawn in place (``\\r``) when the stream is a terminal; otherwise, for logs and
    pipes, the line as it stands written once every ``every`` seconds. Used as a context manager
    it wipes itself at the end, also when the command is interrupted."""

    def __init__(self, stream: TextIO, every: float = LOG_EVERY) -> None:
        self.stream = stream
        isatty = getattr(stream, "isatty", None)
        self.live = bool(isatty and isatty())
        self.every = every
        self.started = time.monotonic()
        self._logged_at = self.started
        self._shown = 0  # length of the text on the line now

    def show(self, text: str) -> None:
        if not self.live:
            now = time.monotonic()
            if now - self._logged_at >= self.every:
                self.stream.write(text + "\n")
                self.stream.flush()
                self._logged_at = now
            return
        # A line wider than the terminal wraps, and "\r" would then redraw only its last part.
        text = text[: max(1, shutil.get_terminal_size().columns - 1)]
        self.stream.write("\r" + text.ljust(self._shown))
        self.stream.flush()
        self._shown = len(text)

    def progress(self, done: int, total: int, unit: str, more: str = "") -> None:
        """``done``/``total`` of ``unit`` (and ``more``), with the time spent and left."""
        self.show(f"{done}/{total} {unit}" + (f", {more}" if more else "") + self.timing(done, total))

    def timing(self, done: int, total: int) -> str:
        """``, 1m05s spent, about 8m left``: the time since the line began, and, once some of
        ``total`` are done, what the rest takes at the pace so far."""
        elapsed = time.monotonic() - self.started
        text = f", {duration(elapsed)} spent"
        if 0 < done < total:
            text += f", about {duration(elapsed * (total - done) / done)} left"
        return text

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


def duration(seconds: float) -> str:
    """``42s``, ``3m05s``, ``2h07m``."""
    whole = int(seconds)
    if whole < 60:
        return f"{whole}s"
    if whole < 3600:
        return f"{whole // 60}m{whole % 60:02d}s"
    return f"{whole // 3600}h{whole % 3600 // 60:02d}m"
