"""Game clocks (docs/rules.md §1.11): time per player with an increment, and the hourglass mode in
which the time a mover uses is shared out among the other active players."""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterable, Sequence

from polychess.board import Colour
from polychess.options import option


class Clock:
    """The remaining time of every player, in seconds.

    The clock of the player to move runs from the moment the previous turn ended (or the clock
    was made). ``time_source`` returns the current time in seconds; tests inject their own.
    """

    def __init__(
        self,
        players: Sequence[Colour],
        initial: float,
        increment: float = 0.0,
        hourglass: bool = False,
        time_source: Callable[[], float] | None = None,
    ) -> None:
        # The same ranges as Game's options: a NaN or infinite time would never run out.
        initial = float(option("time_control").check(initial))  # type: ignore[arg-type]
        increment = float(option("increment").check(increment))  # type: ignore[arg-type]
        if time_source is None:
            import time

            time_source = time.monotonic
        self.increment = increment
        self.hourglass = hourglass
        self.remaining: dict[Colour, float] = {p: float(initial) for p in players}
        self._time_source = time_source
        self._turn_started = time_source()

    def elapsed(self) -> float:
        """Seconds since the current turn began."""
        return self._time_source() - self._turn_started

    def remaining_now(self, player: Colour) -> float:
        """The player's time if he is the one to move (his clock running)."""
        return self.remaining[player] - self.elapsed()

    def stop(self, mover: Colour, active: Iterable[Colour]) -> bool:
        """Ends the mover's turn; False if his time ran out before it ended."""
        used = self.elapsed()
        self._turn_started += used
        self.remaining[mover] -= used
        if self.remaining[mover] <= 0:
            return False
        self.remaining[mover] += self.increment
        others = [p for p in active if p != mover]
        if self.hourglass and others:
            for p in others:
                self.remaining[p] += used / len(others)
        return True

    def restart(self, running_for: float = 0.0) -> None:
        """Starts the next turn now (after an event that ended a turn without a move), or as
        one that has already run ``running_for`` seconds (a game read back from storage, whose
        clock ran meanwhile: the mover is charged that time as if he had been thinking, and in
        the hourglass mode the others are credited it when his move comes)."""
        self._turn_started = self._time_source() - running_for

    def copy(self) -> Clock:
        other = copy.copy(self)
        other.remaining = dict(self.remaining)
        return other
